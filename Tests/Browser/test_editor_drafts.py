"""The batch editor's drafts (issue 22, item 19) at phone width in both languages: a draft typed
by mistake is removed with one tap (in place with JavaScript, by the server without it), a
nameless draft's message offers that, and a tap on the header followed by Back keeps every
typed draft. The taps and page loads of "remove a draft", before and after, are printed."""

import pytest
from playwright.sync_api import expect

from conftest import PHONE, screenshot, setup_household, sign_in
from test_editor import Counter
from test_inventory import field, first_folder

MESSAGES = {
    "en-US": "Enter a name for this item, or remove this entry.",
    "ja-JP": "この品物の名前を入力するか、この欄を削除してください。",
}


def editor(browser, server, page_phone, locale, javascript=True):
    setup_household(page_phone, server)
    fridge = first_folder(page_phone, server, "stock")
    context = browser.new_context(**PHONE, locale=locale, java_script_enabled=javascript, color_scheme="light")
    page = context.new_page()
    page.console_errors = []
    # A form sent back with a problem is answered 422, which the console reports as a failed load.
    page.on("console", lambda m: m.type == "error" and " 422 " not in m.text and page.console_errors.append(m.text))
    sign_in(page, server)
    page.goto(f"{server.url}/items/new?folder={fridge}")
    return context, page, fridge


def three_drafts(page, javascript):
    """Milk, a draft typed by mistake (a note, no name), and Eggs."""
    for i in (1, 2):
        if javascript:
            page.click("button[name=action][value=add]")
        else:
            with page.expect_navigation():
                page.click("button[name=action][value=add]")
        expect(page.locator("fieldset.draft")).to_have_count(i + 1)
    page.fill(field(0, "name"), "Milk")
    page.fill(field(1, "quantity"), "3")
    page.locator("#draft-1 details.draft-more summary").click()
    page.fill(field(1, "note"), "oops")
    page.fill(field(2, "name"), "Eggs")
    page.fill(field(2, "quantity"), "10")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("javascript", [True, False])
def test_a_draft_typed_by_mistake_is_removed_with_one_tap(server, page_phone, browser, locale, javascript):
    context, page, fridge = editor(browser, server, page_phone, locale, javascript)
    try:
        if not javascript:
            # Without JavaScript a draft can only be added by sending what is typed so far.
            page.fill(field(0, "name"), "Milk")
        three_drafts(page, javascript)
        # Before: saving says what is wrong with the middle draft, and offers to remove it.
        with page.expect_navigation():
            page.click("button[name=action][value=save]")
        expect(page.locator('[id="f-d1.name-error"]')).to_have_text("⚠ " + MESSAGES[locale])
        screenshot(page, f"editor-draft-message-{locale[:2]}-phone-{'js' if javascript else 'nojs'}")
        # The old way: empty every field typed in that draft, one by one (its quantity, and its
        # note behind "More"), until it is blank. Counted, then typed again to remove it instead.
        person = Counter(page)
        person.fill(field(1, "quantity"), "")
        if not page.locator("#draft-1 details.draft-more").evaluate("d => d.open"):
            person.click("#draft-1 details.draft-more summary")
        person.fill(field(1, "note"), "")
        before = (person.taps, person.loads)
        page.fill(field(1, "quantity"), "3")
        page.fill(field(1, "note"), "oops")

        person = Counter(page)
        person.click("#draft-1 button.draft-remove")
        expect(page.locator("fieldset.draft")).to_have_count(2)
        after = (person.taps, person.loads)
        print(f"\nSTORY remove a draft ({locale}, {'JS' if javascript else 'no JS'}): "
              f"before (emptying its fields) taps={before[0]} page loads={before[1]}; "
              f"after (Remove) taps={after[0]} page loads={after[1]}")
        assert after == ((1, 0) if javascript else (1, 1))
        # The others are kept, in order, renumbered.
        expect(page.locator(field(0, "name"))).to_have_value("Milk")
        expect(page.locator(field(1, "name"))).to_have_value("Eggs")
        expect(page.locator(field(1, "quantity"))).to_have_value("10")
        expect(page.locator("fieldset.draft .field-error")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        with page.expect_navigation():
            page.click("button[name=action][value=save]")
        assert page.url.split("?")[0] == f"{server.url}/folders/{fridge}"
        expect(page.locator("li.item-row")).to_have_count(2)
        assert page.console_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_tap_on_the_header_and_back_keeps_the_drafts(server, page_phone, browser, locale):
    context, page, fridge = editor(browser, server, page_phone, locale)
    try:
        page.click("button[name=action][value=add]")
        page.fill(field(0, "name"), "Milk")
        page.fill(field(1, "name"), "Natto")
        page.fill(field(1, "quantity"), "3")
        # Leaving with typed drafts asks first; this person goes anyway.
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
        with page.expect_navigation():
            page.click("header a.brand")
        assert page.url == f"{server.url}/"
        assert dialogs == ["beforeunload"]
        page.go_back()
        expect(page.locator("fieldset.draft")).to_have_count(2)
        expect(page.locator(field(0, "name"))).to_have_value("Milk")
        expect(page.locator(field(1, "name"))).to_have_value("Natto")
        expect(page.locator(field(1, "quantity"))).to_have_value("3")
        # Opening the editor again later brings them too; saving clears them.
        page.goto(f"{server.url}/folders/{fridge}")
        page.goto(f"{server.url}/items/new?folder={fridge}")
        expect(page.locator(field(1, "name"))).to_have_value("Natto")
        with page.expect_navigation():
            page.click("button[name=action][value=save]")
        expect(page.locator("li.item-row")).to_have_count(2)
        page.goto(f"{server.url}/items/new?folder={fridge}")
        expect(page.locator("fieldset.draft")).to_have_count(1)
        expect(page.locator(field(0, "name"))).to_have_value("")
        assert page.console_errors == []
    finally:
        context.close()
