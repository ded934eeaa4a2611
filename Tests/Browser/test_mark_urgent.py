"""Marking a shopping item urgent (issue 22, item 22) at phone width in both languages: "Mark
urgent" / "Not urgent" in the row's ⋯ menu on shopping lists (never on stock lists), in place with
JavaScript and back at the row without it. The taps and page loads before (⋯ → Edit → Urgent →
Save) and after are counted and printed."""

import pytest
from playwright.sync_api import expect

from conftest import PHONE, screenshot, setup_household, sign_in
from test_editor import Counter
from test_inventory import first_folder, register, row

WORDS = {
    "en-US": {"mark": "Mark urgent", "unmark": "Not urgent", "urgent": "Urgent", "marked": "Eggs is marked urgent."},
    "ja-JP": {"mark": "急ぎにする", "unmark": "急ぎを外す", "urgent": "急ぎ", "marked": "Eggsを急ぎにしました。"},
}


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("javascript", [True, False])
def test_mark_urgent_from_the_row_menu(server, page_phone, browser, locale, javascript):
    setup_household(page_phone, server)
    market = first_folder(page_phone, server, "shopping")
    fridge = first_folder(page_phone, server, "stock")
    register(page_phone, server, market, [{"name": "Eggs"}, {"name": "Milk"}])
    register(page_phone, server, fridge, [{"name": "Tofu"}])
    context = browser.new_context(**PHONE, locale=locale, java_script_enabled=javascript, color_scheme="light")
    try:
        page = context.new_page()
        page.console_errors = []
        page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
        sign_in(page, server)
        words = WORDS[locale]

        # Before: through the editor (Milk).
        page.goto(f"{server.url}/folders/{market}")
        person = Counter(page)
        person.click(f"#{row(page, 'Milk').get_attribute('id')} details.row-menu summary")
        with page.expect_navigation():
            person.click(f"#{row(page, 'Milk').get_attribute('id')} .row-menu a[href*='/edit']")
        more = page.locator("#draft-0 details.draft-more")
        if not more.evaluate("d => d.open"):
            person.click("#draft-0 details.draft-more summary")
        person.click('[name="d0.urgent"]')
        with page.expect_navigation():
            person.click("button[name=action][value=save]")
        expect(row(page, "Milk").locator(".tag-urgent")).to_be_visible()
        before = (person.taps, person.loads)

        # After: from the row's menu (Eggs).
        page.goto(f"{server.url}/folders/{market}")
        eggs = f"#{row(page, 'Eggs').get_attribute('id')}"
        person = Counter(page)
        person.click(f"{eggs} details.row-menu summary")
        expect(page.locator(f"{eggs} .row-menu button[formaction$='/urgent']")).to_contain_text(words["mark"])
        if javascript:
            person.click(f"{eggs} .row-menu button[formaction$='/urgent']")
        else:
            with page.expect_navigation():
                person.click(f"{eggs} .row-menu button[formaction$='/urgent']")
        expect(row(page, "Eggs").locator(".tag-urgent")).to_contain_text(words["urgent"])
        expect(page.locator(".row-live:not(:empty)" if javascript else ".notice").first).to_contain_text(words["marked"])
        after = (person.taps, person.loads)
        print(f"\nSTORY mark urgent ({locale}, {'JS' if javascript else 'no JS'}): "
              f"before (⋯ → Edit → Urgent → Save) taps={before[0]} page loads={before[1]}; "
              f"after (⋯ → Mark urgent) taps={after[0]} page loads={after[1]}")
        assert after == ((2, 0) if javascript else (2, 1))
        assert before[0] >= 4 and before[1] >= 2
        screenshot(page, f"shopping-urgent-{locale[:2]}-phone-{'js' if javascript else 'nojs'}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390

        # And back: "Not urgent" in the same place.
        page.locator(f"{eggs} details.row-menu summary").click()
        if javascript:
            page.click(f"{eggs} .row-menu button[formaction$='/urgent']")
        else:
            with page.expect_navigation():
                page.click(f"{eggs} .row-menu button[formaction$='/urgent']")
        expect(row(page, "Eggs").locator(".tag-urgent")).to_have_count(0)
        page.locator(f"{eggs} details.row-menu summary").click()
        expect(page.locator(f"{eggs} .row-menu button[formaction$='/urgent']")).to_contain_text(words["mark"])

        # A stock list's rows have no such button.
        page.goto(f"{server.url}/folders/{fridge}")
        expect(page.locator(".row-menu button[formaction$='/urgent']")).to_have_count(0)
        assert page.console_errors == []
    finally:
        context.close()
