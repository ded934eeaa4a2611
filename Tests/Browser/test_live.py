"""Issue 24, live updates: two members on one list at phone width. What one changes shows up on
the other's open page without a reload, in place: the other's scroll position, focus and ticked
boxes stay; a row the other is working in (its menu open) is not overwritten, a notice says who
changed it instead; an open editor is never touched."""
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import PHONE, create_invitation, join, screenshot, setup_household, no_axe_problems
from test_inventory import first_folder, register, row, row_action

LOCALES = Path(__file__).resolve().parents[2] / "Templates" / "locales"
LANGUAGES = {"en": "en-US", "ja": "ja-JP"}


def words(lang) -> dict:
    return json.loads((LOCALES / f"{lang}.json").read_text())


def loads_of(page) -> list:
    """The page's navigations from now on (a reload would add one)."""
    loads = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and loads.append(frame.url))
    return loads


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_what_one_member_adds_and_changes_shows_on_the_others_open_list(server, make_page, lang):
    aki = setup_household(make_page(PHONE, LANGUAGES[lang]), server)
    ken = make_page(PHONE, LANGUAGES[lang])
    join(ken, create_invitation(aki, server))
    shopping = first_folder(aki, server, "shopping")
    for first in (0, 7):  # the editor holds 10 drafts at most
        register(aki, server, shopping, [{"name": f"Item {n:02}"} for n in range(first, first + 7)])

    # Ken opens the list, scrolls to its middle, ticks a row and puts focus on another row's +.
    ken.goto(f"{server.url}/folders/{shopping}")
    expect(ken.locator("li.item-row")).to_have_count(14)
    ken.locator("li.item-row").nth(8).scroll_into_view_if_needed()
    ticked = row(ken, "Item 03").locator("input.row-check")
    ticked.check()
    plus = row(ken, "Item 09").locator("button.step[value='1']")
    plus.focus()
    loads = loads_of(ken)
    scroll = ken.evaluate("window.scrollY")
    anchor_top = row(ken, "Item 09").bounding_box()["y"]

    # Aki adds an item and taps + on another: Ken's list shows both.
    register(aki, server, shopping, [{"name": "Tofu"}])
    aki.goto(f"{server.url}/folders/{shopping}")
    row_action(aki, f"{row_selector_of(aki, 'Item 10')} button.step[value='1']")

    expect(row(ken, "Tofu")).to_have_count(1)
    expect(row(ken, "Item 10").locator(".qty")).to_have_text(re.compile(r"^2"))
    assert loads == [], f"Ken's page reloaded: {loads}"
    # Nothing moved under Ken: the row he looks at is where it was, his tick and focus stayed.
    assert abs(row(ken, "Item 09").bounding_box()["y"] - anchor_top) < 2, (scroll, ken.evaluate("window.scrollY"))
    assert ticked.is_checked()
    assert ken.evaluate("document.activeElement && document.activeElement.closest('li.item-row').id") == row(ken, "Item 09").get_attribute("id")
    assert ken.console_errors == []
    screenshot(ken, f"live-list-{lang}-phone", full_page=False)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_row_being_worked_in_and_an_open_editor_are_not_overwritten(server, make_page, lang):
    t = words(lang)
    aki = setup_household(make_page(PHONE, LANGUAGES[lang]), server)
    ken = make_page(PHONE, LANGUAGES[lang])
    join(ken, create_invitation(aki, server))
    stock = first_folder(aki, server, "stock")
    register(aki, server, stock, [{"name": "Milk"}, {"name": "Eggs"}])

    # Ken has Milk's row menu open: Aki's change to Milk waits behind a notice naming her.
    ken.goto(f"{server.url}/folders/{stock}")
    row(ken, "Milk").locator("details.row-menu > summary").click()
    aki.goto(f"{server.url}/folders/{stock}")
    row_action(aki, f"{row_selector_of(aki, 'Milk')} button.step[value='1']")
    notice = ken.locator(".live-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(t["live_changed_by"].replace("{name}", "Aki"))
    expect(row(ken, "Milk").locator(".qty")).to_have_text(re.compile(r"^1"))
    assert row(ken, "Milk").locator("details.row-menu").get_attribute("open") is not None
    no_axe_problems(ken)
    screenshot(ken, f"live-notice-{lang}-phone", full_page=False)
    # Once Ken closes the menu, the row catches up and the notice goes.
    ken.keyboard.press("Escape")
    expect(row(ken, "Milk").locator(".qty")).to_have_text(re.compile(r"^2"))
    expect(notice).to_be_hidden()

    # Ken's editor of Eggs keeps what he typed when Aki changes Eggs; the notice says so.
    eggs = int(row(ken, "Eggs").locator("a.item-name").get_attribute("href").split("/")[-1])
    ken.goto(f"{server.url}/items/{eggs}/edit")
    name_field = ken.locator('[name="d0.name"]')
    name_field.fill("Eggs (large)")
    aki.goto(f"{server.url}/folders/{stock}")
    row_action(aki, f"{row_selector_of(aki, 'Eggs')} button.step[value='1']")
    expect(ken.locator(".live-notice")).to_contain_text(t["live_changed_by"].replace("{name}", "Aki"))
    assert name_field.input_value() == "Eggs (large)"


def row_selector_of(page, name) -> str:
    return f"li.item-row:has(a.item-name:text-is('{name}'))"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_in_the_basket_is_shared_and_put_away_opens_bought_for_those_rows(server, make_page, lang):
    t = words(lang)
    aki = setup_household(make_page(PHONE, LANGUAGES[lang]), server)
    ken = make_page(PHONE, LANGUAGES[lang])
    join(ken, create_invitation(aki, server))
    shopping = first_folder(aki, server, "shopping")
    register(aki, server, shopping, [{"name": "Milk"}, {"name": "Eggs"}, {"name": "Rice"}])
    ken.goto(f"{server.url}/folders/{shopping}")
    aki.goto(f"{server.url}/folders/{shopping}")

    # Aki taps two rows anywhere but their buttons: each is saved at once and shows on Ken's list.
    for name in ("Milk", "Rice"):
        target = row(aki, name)
        assert target.bounding_box()["height"] >= 44
        box = target.bounding_box()
        with aki.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/basket")):
            # The row's empty middle, beside the name and under it: no link or button there.
            target.click(position={"x": box["width"] * 0.5, "y": box["height"] - 8})
        expect(row(aki, name)).to_have_class(re.compile(r"\bin-basket\b"))
    for name in ("Milk", "Rice"):
        expect(row(ken, name)).to_have_class(re.compile(r"\bin-basket\b"))
        expect(row(ken, name).locator("button.basket")).to_have_attribute("aria-pressed", "true")
    expect(row(ken, "Eggs")).not_to_have_class(re.compile(r"\bin-basket\b"))
    put_away = ken.locator(".put-away a")
    expect(put_away).to_have_text(t["put_away"].replace("{count}", "2"))
    screenshot(ken, f"basket-{lang}-phone", full_page=False)

    # A reload keeps the basket (it is stored, not the browser's); Put away opens Bought for those two.
    ken.reload()
    expect(row(ken, "Milk")).to_have_class(re.compile(r"\bin-basket\b"))
    with ken.expect_navigation():
        ken.locator(".put-away a").click()
    assert ken.locator("h1").inner_text() == t["bought_heading"]
    names = ken.locator("main").inner_text()
    assert "Milk" in names and "Rice" in names and "Eggs" not in names, names
    no_axe_problems(ken)


def test_without_javascript_the_basket_is_a_button(server, make_page):
    page = make_page(PHONE, "en-US")
    setup_household(page, server)
    shopping = first_folder(page, server, "shopping")
    register(page, server, shopping, [{"name": "Milk"}])
    nojs = page.context.browser.new_context(viewport=PHONE["viewport"], java_script_enabled=False,
                                            storage_state=page.context.storage_state())
    plain = nojs.new_page()
    plain.goto(f"{server.url}/folders/{shopping}")
    with plain.expect_navigation():
        row(plain, "Milk").locator("button.basket").click()
    expect(row(plain, "Milk")).to_have_class(re.compile(r"\bin-basket\b"))
    expect(plain.locator(".put-away a")).to_have_text("Put away 1")
    nojs.close()
