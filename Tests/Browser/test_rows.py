"""The rows of stock and shopping lists at phone width: compact enough that six fit the first
screen, the less frequent actions in a row menu that works without JavaScript, quick actions that
leave the person where they were (in place with JavaScript, back at the row's anchor without it),
and long words that never widen a page."""

import re
from datetime import timedelta
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, screenshot, setup_household, sign_in
from test_inventory import (click_nav, first_folder, folder_ids, item_id, no_sideways_scroll, problems_here, register, today,
                            zaiko_demo)

TEXTS = {
    "en": {"deleted": "Moved 1 item to the trash.", "deleted_named": "Deleted “{name}”.", "restored": "Restored 1 item.", "undo": "Undo",
           "opened": "opened"},
    "ja": {"deleted": "1件をゴミ箱に移しました。", "deleted_named": "「{name}」を削除しました。", "restored": "1件を元に戻しました。", "undo": "元に戻す",
           "opened": "開封済み"},
}

ROWS_IN_VIEW = """els => els.filter(e => {
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}).length"""


def open_fullest_stock_list(page, server):
    """The demo household's stock list with the most items (a full first page of 50 rows)."""
    page.goto(server.url + "/")
    cards = page.locator("section[aria-labelledby=stock-heading] .folder-card")
    counts = [int(re.search(r"\d+", cards.nth(i).locator(".folder-count").inner_text()).group()) for i in range(cards.count())]
    href = cards.nth(counts.index(max(counts))).get_attribute("href")
    page.goto(server.url + href)
    return href


def demo_page(server, browser, locale, javascript=True, device=PHONE):
    login, password = zaiko_demo(server, 300)
    context = browser.new_context(**device, locale=locale, java_script_enabled=javascript, color_scheme="light")
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    page.on("pageerror", lambda e: page.console_errors.append(f"uncaught: {e}"))
    sign_in(page, server, login=login, password=password)
    page.credentials = (login, password)
    return page


def box_of(page, selector):
    return page.locator(selector).bounding_box()


def in_view(page, selector) -> bool:
    return page.locator(selector).evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")


def centre(page, row_id):
    page.evaluate("id => document.getElementById(id).scrollIntoView({block: 'center'})", row_id)


def live_text(page) -> str:
    return page.locator(".row-live").evaluate_all("els => els.map(e => e.textContent).join(' ')")


def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement; const row = e.closest('li.item-row');
        return {formaction: e.getAttribute('formaction'), value: e.getAttribute('value'), row: row && row.id, tag: e.tagName}; }""")


# --- 1. Compact rows -----------------------------------------------------------

@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_six_rows_fit_the_first_phone_screen(server, browser, locale):
    page = demo_page(server, browser, locale)
    open_fullest_stock_list(page, server)
    rows = page.locator("li.item-row")
    assert rows.count() == 50
    screenshot(page, f"rows-stock-{locale[:2]}-phone")
    screenshot(page, f"rows-stock-first-screen-{locale[:2]}-phone", full_page=False)
    assert rows.evaluate_all(ROWS_IN_VIEW) >= 6, [r.bounding_box()["height"] for r in rows.all()[:6]]
    no_sideways_scroll(page)

    # Every row: its checkbox for bulk, − / +, and a menu with the other actions, closed at first.
    first = rows.first
    assert first.locator("input.row-check[name=ids]").count() == 1
    assert first.locator("button.step").count() == 2
    menu = first.locator("details.row-menu")
    assert menu.get_attribute("open") is None
    assert first.locator("button[formaction$='/delete']").is_visible() is False
    first.locator("details.row-menu > summary").click()
    expect(first.locator("button[formaction$='/delete']")).to_be_visible()
    expect(first.locator("a[href*='/edit']")).to_be_visible()
    screenshot(page, f"rows-stock-menu-{locale[:2]}-phone", full_page=False)
    assert problems_here(page, "stock list, row menu open") == []

    # Shopping rows ask how many too.
    page.goto(server.url + "/")
    page.goto(server.url + page.locator("section[aria-labelledby=shopping-heading] .folder-card").first.get_attribute("href"))
    assert page.locator("li.item-row").first.locator("button.step").count() == 2
    screenshot(page, f"rows-shopping-{locale[:2]}-phone")
    no_sideways_scroll(page)
    assert problems_here(page, "shopping list") == []

    # The desktop may show more per row; it still fits the width.
    context = browser.new_context(**DESKTOP, locale=locale, color_scheme="light")
    desktop = context.new_page()
    sign_in(desktop, server, login=page.credentials[0], password=page.credentials[1])
    open_fullest_stock_list(desktop, server)
    no_sideways_scroll(desktop)
    screenshot(desktop, f"rows-stock-{locale[:2]}-desktop")
    context.close()


# --- 2. Taps stay in place ------------------------------------------------------

@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_steps_keep_the_row_in_place(server, browser, locale, javascript):
    page = demo_page(server, browser, locale, javascript)
    path = open_fullest_stock_list(page, server)
    row = page.locator("li.item-row").nth(8)
    row_id = row.get_attribute("id")
    assert row_id and row_id.startswith("item-")
    name = row.locator("a.item-name").inner_text()
    selector = f"#{row_id}"
    for delta in ("1", "-1"):
        centre(page, row_id)
        before = box_of(page, selector)
        quantity = page.locator(f"{selector} .qty").inner_text()
        button = f"{selector} button.step[value='{delta}']"
        if javascript:
            page.evaluate("window.stillHere = true")
            page.click(button)
            expect(page.locator(f"{selector} .qty")).not_to_have_text(quantity)
            assert page.evaluate("window.stillHere") is True  # no page load
            after = box_of(page, selector)
            assert abs(after["y"] - before["y"]) < 1 and abs(after["height"] - before["height"]) < 1, (before, after)
            expect(page.locator(".row-live")).to_contain_text(name)
            assert name in live_text(page) and page.locator(f"{selector} .qty").inner_text() in live_text(page)
            assert focused(page) == {"formaction": f"/items/{row_id[5:]}/quantity", "value": delta, "row": row_id, "tag": "BUTTON"}
        else:
            with page.expect_navigation():
                page.click(button)
            assert urlparse(page.url).path == path and urlparse(page.url).fragment == row_id
            assert page.locator(f"{selector} .qty").inner_text() != quantity
            assert in_view(page, selector)
            # The notice sits right above the row, in view with it.
            notice = page.locator(f"li.row-notice:has(+ {selector})")
            expect(notice).to_contain_text(name)
            assert in_view(page, f"li.row-notice:has(+ {selector})")
            screenshot(page, f"rows-step-no-js-{locale[:2]}-phone", full_page=False)
        no_sideways_scroll(page)
    assert page.console_errors == []


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_delete_and_undo_stay_at_the_row(server, browser, locale, javascript):
    t = TEXTS[locale[:2]]
    page = demo_page(server, browser, locale, javascript)
    path = open_fullest_stock_list(page, server)
    rows = page.locator("li.item-row")
    row_id, next_id = rows.nth(8).get_attribute("id"), rows.nth(9).get_attribute("id")
    name = rows.nth(8).locator("a.item-name").inner_text()
    centre(page, row_id)
    before = box_of(page, f"#{row_id}")
    page.click(f"#{row_id} details.row-menu > summary")
    delete = f"#{row_id} button[formaction$='/delete']"
    if javascript:
        page.evaluate("window.stillHere = true")
        page.click(delete)
        expect(page.locator(f"#{row_id}")).to_have_count(0)
        # The toast names what went (without JavaScript the notice sits beside the neighbour).
        expect(page.locator(".row-live")).to_contain_text(t["deleted_named"].format(name=name))
        screenshot(page, f"rows-deleted-js-{locale[:2]}-phone", full_page=False)
        # The next row moved up into its place; the page did not move.
        assert abs(box_of(page, f"#{next_id}")["y"] - before["y"]) < 1
        page.click(f".row-live button:has-text('{t['undo']}')")
        expect(page.locator(f"#{row_id}")).to_have_count(1)
        expect(page.locator(".row-live")).to_contain_text(t["restored"])
        assert abs(box_of(page, f"#{row_id}")["y"] - before["y"]) < 1
        assert focused(page)["row"] == row_id
        assert page.evaluate("window.stillHere") is True
    else:
        with page.expect_navigation():
            page.click(delete)
        assert urlparse(page.url).path == path and urlparse(page.url).fragment == next_id
        assert page.locator(f"#{row_id}").count() == 0
        notice = f"li.row-notice:has(+ #{next_id})"
        expect(page.locator(notice)).to_contain_text(t["deleted"])
        assert in_view(page, notice) and in_view(page, f"#{next_id}")
        screenshot(page, f"rows-deleted-no-js-{locale[:2]}-phone", full_page=False)
        with page.expect_navigation():
            page.click(f"{notice} button:has-text('{t['undo']}')")
        assert urlparse(page.url).fragment == row_id
        assert in_view(page, f"#{row_id}")
        expect(page.locator(f"li.row-notice:has(+ #{row_id})")).to_contain_text(t["restored"])
    assert page.console_errors == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_mark_opened_from_the_row_menu(server, page_phone, browser, javascript):
    page = setup_household(page_phone, server)
    fridge = folder_ids(page, server)["Fridge"]
    register(page, server, fridge, [{"name": f"Item {n}"} for n in range(3)])
    context = browser.new_context(**PHONE, locale="en-US", java_script_enabled=javascript, color_scheme="light")
    other = context.new_page()
    sign_in(other, server)
    other.goto(f"{server.url}/folders/{fridge}")
    milk = f"#item-{item_id(other, 'Item 1')}"
    other.click(f"{milk} details.row-menu > summary")
    if javascript:
        other.click(f"{milk} button[formaction$='/opened']")
        expect(other.locator(f"{milk} .item-meta")).to_contain_text("Opened")
        expect(other.locator(".row-live")).to_contain_text("Item 1")
        assert focused(other)["row"] == milk[1:]
    else:
        with other.expect_navigation():
            other.click(f"{milk} button[formaction$='/opened']")
        assert urlparse(other.url).fragment == milk[1:]
        expect(other.locator(f"li.row-notice:has(+ {milk})")).to_contain_text("Item 1")
    assert other.locator(f"{milk} button[formaction$='/opened']").count() == 0
    context.close()


# --- 3. Long words ----------------------------------------------------------------

LONG = "Supercalifragilistic" * 5  # 100 characters, no space


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_long_word_never_widens_a_page(server, page_phone, locale):
    page = setup_household(page_phone, server, household=LONG)
    fridge = first_folder(page, server, "stock")
    page.goto(f"{server.url}/folders/{fridge}/edit")
    page.fill("#folder-name", LONG)
    click_nav(page, "main form button[type=submit]")
    register(page, server, fridge, [{"name": LONG, "due": today(), "note": LONG}])
    item = item_id(page, LONG)
    pages = ["/", f"/folders/{fridge}", f"/items/{item}", f"/items/{item}/edit", f"/items/new?folder={fridge}",
             "/settings", "/soon", "/calendar", f"/calendar?day={today().isoformat()}", "/folders/edit",
             f"/folders/{fridge}/edit", f"/items/{item}/empty", "/account"]
    wide = {}
    for path in pages:
        page.goto(server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if path in (f"/folders/{fridge}", f"/items/{item}"):
            screenshot(page, f"rows-long-word-{'list' if 'folders' in path else 'item'}-{locale[:2]}-phone", full_page=False)
        if width > 390:
            wide[path] = width
            screenshot(page, f"rows-long-word{path.replace('/', '_').replace('?', '_')}-{locale[:2]}")
    assert wide == {}


def test_a_step_under_an_earlier_notice_keeps_the_row_in_place(server, page_phone):
    """The list after registering says so at the top; the next + marks that notice out of date
    without moving the row under the person's thumb (at the top of the page, where scrolling
    could not make up for a removed notice)."""
    page = setup_household(page_phone, server)
    fridge = folder_ids(page, server)["Fridge"]
    register(page, server, fridge, [{"name": f"Item {n}"} for n in range(4)])
    expect(page.locator("main > .notice")).to_have_count(1)
    row_id = f"item-{item_id(page, 'Item 3')}"
    before = box_of(page, f"#{row_id}")
    page.click(f"#{row_id} button.step[value='1']")
    expect(page.locator(f"#{row_id} .qty")).to_contain_text("2")
    expect(page.locator("main > .notice.is-stale")).to_have_count(1)
    assert abs(box_of(page, f"#{row_id}")["y"] - before["y"]) < 1
    assert page.console_errors == []
