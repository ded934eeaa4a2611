"""Rows, the toast and the bulk bar at phone width in both languages: nothing in a row prints over
anything else (the calendar day's rows have no checkbox), the toast leaves the navigation free and
names what it did, the stock list's bulk bar offers Buy again, and Select all needs JavaScript."""

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, screenshot, sign_in
from test_inventory import no_sideways_scroll, zaiko_demo
from test_rows import open_fullest_stock_list

# For every row: the boxes that must not meet (due date and the − button, folder and quantity).
OVERLAPS = """
() => {
  const box = el => el && el.getBoundingClientRect();
  const meet = (a, b) => a && b && a.width > 0 && b.width > 0 &&
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const found = [];
  for (const row of document.querySelectorAll('li.item-row')) {
    const name = row.querySelector('.item-name').textContent;
    const minus = box(row.querySelector('.item-qty .step'));
    const qty = box(row.querySelector('.item-qty .qty'));
    const qtyArea = box(row.querySelector('.item-qty'));
    for (const part of row.querySelectorAll('.item-meta > *')) {
      const b = box(part);
      if (meet(b, minus) || meet(b, qty) || meet(b, qtyArea)) found.push(name + ': ' + part.className + ' meets the quantity');
      if (b && b.width > 0 && b.right > row.getBoundingClientRect().right + 0.5) found.push(name + ': ' + part.className + ' leaves the row');
    }
  }
  return found;
}
"""


def days_with_items(page, server, limit):
    page.goto(server.url + "/calendar")
    hrefs = page.locator("a.cal-cell").evaluate_all("cells => cells.map(c => c.getAttribute('href'))")
    return hrefs[:limit]


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_calendar_and_soon_rows_do_not_overlap_at_phone_width(server, make_page, locale):
    login, password = zaiko_demo(server, 150)
    lang = locale[:2]
    page = make_page(PHONE, locale)
    sign_in(page, server, login=login, password=password)
    problems = []
    for index, href in enumerate(days_with_items(page, server, 6)):
        page.goto(server.url + href)
        assert page.locator("li.item-row").count() > 0
        problems += [f"{href}: {p}" for p in page.evaluate(OVERLAPS)]
        no_sideways_scroll(page)
        if index == 0:
            screenshot(page, f"rows-calendar-day-{lang}-phone")
    page.goto(server.url + "/soon")
    problems += [f"/soon: {p}" for p in page.evaluate(OVERLAPS)]
    screenshot(page, f"rows-soon-{lang}-phone")
    assert problems == []


def boxes_meet(a, b) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


TOAST = {
    "en": {"deleted": "Deleted “{name}”.", "close": "Close", "undo": "Undo"},
    "ja": {"deleted": "「{name}」を削除しました。", "close": "閉じる", "undo": "元に戻す"},
}


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_toast_leaves_the_navigation_free_names_the_item_and_closes(server, make_page, locale):
    t = TOAST[locale[:2]]
    login, password = zaiko_demo(server, 120)
    page = make_page(PHONE, locale)
    sign_in(page, server, login=login, password=password)
    open_fullest_stock_list(page, server)
    row = page.locator("li.item-row").nth(2)
    name = row.locator("a.item-name").inner_text()
    row_id = row.get_attribute("id")
    page.evaluate("id => document.getElementById(id).scrollIntoView({block: 'center'})", row_id)
    page.click(f"#{row_id} details.row-menu > summary")
    page.click(f"#{row_id} button[formaction$='/delete']")
    toast = page.locator(".row-live")
    expect_text(toast, t["deleted"].format(name=name))
    screenshot(page, f"rows-toast-{locale[:2]}-phone", full_page=False)
    # Nothing of the header's navigation is under it, nor the add button.
    box = toast.bounding_box()
    for link in page.locator(".site-header a, .site-header button, .fab").all():
        other = link.bounding_box()
        if other:
            assert not boxes_meet(box, other), link.inner_text()
    # Its × closes it at once; the Undo stays reachable until then.
    assert toast.locator("button", has_text=t["undo"]).count() == 1
    close = toast.locator(".notice-dismiss")
    assert close.is_visible() and close.get_attribute("aria-label") == t["close"]
    close.click()
    assert toast.inner_text() == ""
    assert not toast.is_visible()
    assert page.console_errors == []


def expect_text(locator, text):
    expect(locator).to_contain_text(text)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_select_all_shows_only_with_javascript(server, browser, javascript):
    login, password = zaiko_demo(server, 60)
    context = browser.new_context(**PHONE, locale="en-US", java_script_enabled=javascript, color_scheme="light")
    page = context.new_page()
    sign_in(page, server, login=login, password=password)
    open_fullest_stock_list(page, server)
    select_all = page.locator(".select-all")
    assert select_all.count() == 1
    assert select_all.is_visible() == javascript
    if javascript:
        select_all.locator("input").check()
        assert page.locator("input.row-check:checked").count() == page.locator("input.row-check").count()
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_stock_lists_bulk_bar_buys_again(server, make_page, locale):
    login, password = zaiko_demo(server, 60)
    page = make_page(PHONE, locale)
    sign_in(page, server, login=login, password=password)
    open_fullest_stock_list(page, server)
    names = page.locator("li.item-row a.item-name").all_inner_texts()[:2]
    for box in page.locator("input.row-check").all()[:2]:
        box.check()
    bar = page.locator(".bulk-bar")
    assert bar.is_visible()
    screenshot(page, f"rows-bulk-buy-again-{locale[:2]}-phone", full_page=False)
    with page.expect_navigation():
        bar.locator("button[value=buy_again]").click()
    assert page.locator("main > .notice").count() == 1
    shopping = bar.locator("#bulk-shopping option").first.get_attribute("value") if bar.count() else None
    page.goto(f"{server.url}/folders/{shopping}")
    listed = page.locator("li.item-row a.item-name").all_inner_texts()
    assert all(n in listed for n in names)


# --- The recipe editor's ingredients, file fields, the /tls QR code -------------------------------

def ingredient_tops(page, index):
    return [page.locator(f'[name="ingredient.{index}.{part}"]').bounding_box()["y"] for part in ("name", "amount", "unit", "note")]


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_recipe_editor_puts_an_ingredient_on_one_line_at_desktop_width(server, make_page, locale):
    from conftest import setup_household
    phone = make_page(PHONE, locale)
    setup_household(phone, server)
    phone.goto(server.url + "/recipes/new")
    # On a phone the fields stack: the name above the amount, the note below both.
    name, amount, unit, note = ingredient_tops(phone, 0)
    assert name < amount == unit < note
    no_sideways_scroll(phone)
    screenshot(phone, f"rows-recipe-editor-{locale[:2]}-phone")

    desktop = make_page(DESKTOP, locale)
    sign_in(desktop, server)
    desktop.goto(server.url + "/recipes/new")
    rows = desktop.locator("li.ingredient-row").count()
    for index in range(rows):
        tops = ingredient_tops(desktop, index)
        assert max(tops) - min(tops) < 2, (index, tops)
    # Every field still has its label for screen readers.
    assert desktop.locator('label[for="f-ingredient.1.amount"]').count() == 1
    height = desktop.evaluate("document.scrollingElement.scrollHeight")
    assert height < 2600, height
    no_sideways_scroll(desktop)
    screenshot(desktop, f"rows-recipe-editor-{locale[:2]}-desktop")


FILE_TEXTS = {"en": {"choose": "Choose a file", "photo": "Choose a photo", "none": "No file chosen"},
              "ja": {"choose": "ファイルを選ぶ", "photo": "写真を選ぶ", "none": "未選択"}}

UNCUT = """el => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= innerWidth"""


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_file_fields_never_cut_their_text_at_phone_width(server, make_page, locale, tmp_path):
    from conftest import setup_household
    from images import RED, solid_photo
    t = FILE_TEXTS[locale[:2]]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/import")
    button = page.locator(".file-pick .file-button")
    assert button.inner_text() == t["choose"]
    assert page.locator(".file-pick .file-name").inner_text() == t["none"]
    for element in page.locator(".file-pick .file-button, .file-pick .file-name").all():
        assert element.evaluate(UNCUT)
    # The field itself is still there for the keyboard and the form, and its label names it.
    assert page.locator("#import-file").count() == 1
    csv = tmp_path / "a-rather-long-file-name-from-the-spreadsheet-export.csv"
    csv.write_text("name\nMilk\n")
    page.set_input_files("#import-file", str(csv))
    assert page.locator(".file-pick .file-name").inner_text() == csv.name
    assert page.locator(".file-pick .file-name").evaluate(UNCUT)
    screenshot(page, f"rows-file-import-{locale[:2]}-phone")

    page.goto(server.url + "/")
    fridge = page.locator("section[aria-labelledby=stock-heading] .folder-card").first.get_attribute("href").split("/")[-1]
    page.goto(f"{server.url}/items/new?folder={fridge}")
    assert page.locator(".scan-card .file-button").inner_text() == t["photo"]
    for element in page.locator(".file-pick .file-button, .file-pick .file-name").all():
        if element.is_visible():
            assert element.evaluate(UNCUT)
    no_sideways_scroll(page)
    screenshot(page, f"rows-file-editor-{locale[:2]}-phone")
    assert page.console_errors == []


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_tls_qr_code_shows_on_a_computer_not_on_the_phone(server, make_page, locale):
    phone = make_page(PHONE, locale)
    phone.goto(server.url + "/tls")
    if phone.locator(".tls-addresses").count() == 0:
        pytest.skip("this server lists no HTTPS address")
    assert not phone.locator(".tls-qr").is_visible()
    assert phone.locator(".tls-sign-in-again").is_visible()
    screenshot(phone, f"rows-tls-{locale[:2]}-phone")
    desktop = make_page(DESKTOP, locale)
    desktop.goto(server.url + "/tls")
    assert desktop.locator(".tls-qr").is_visible()
    screenshot(desktop, f"rows-tls-{locale[:2]}-desktop")
