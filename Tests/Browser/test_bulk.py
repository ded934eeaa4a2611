"""Acting on several rows at once, at phone width in both languages: the sticky bar that counts
the ticked rows, Use soon's checkboxes and bar, and buying back with quantities, due dates and
joining a row already in stock, on one page. The stories count taps and page loads."""

import re
from datetime import timedelta
from urllib.parse import urlparse

import pytest

from conftest import DESKTOP, PHONE, no_axe_problems, screenshot, setup_household
from test_inventory import folder_ids, no_sideways_scroll, register, row, row_names, today

TEXTS = {
    "en": {"fridge": "Fridge", "pantry": "Pantry", "market": "Supermarket", "three": "3 selected", "one": "1 selected", "twelve": "12 selected",
           "deleted": "Moved 12 items to the trash.", "bought": "2 items bought and put away.", "expired": "Expired"},
    "ja": {"fridge": "冷蔵庫", "pantry": "パントリー", "market": "スーパー", "three": "3件選択中", "one": "1件選択中", "twelve": "12件選択中",
           "deleted": "12件をゴミ箱に移しました。", "bought": "2件を購入済みにして移動しました。", "expired": "期限切れ"},
}
LOCALES = ["en-US", "ja-JP"]


class Story:
    """Counts what a person does: taps (clicks, fills, key presses) and page loads (main-frame
    navigations, a redirect chain being one)."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.loads = 0
        page.on("framenavigated", self._navigated)

    def _navigated(self, frame):
        if frame == self.page.main_frame:
            self.loads += 1

    def tap(self, selector):
        self.taps += 1
        self.page.click(selector)

    def tap_and_wait(self, selector):
        self.taps += 1
        with self.page.expect_navigation():
            self.page.click(selector)

    def fill(self, selector, value):
        self.taps += 1
        self.page.fill(selector, value)

    def go(self, url):
        """Opening a page from the menu or the folders page: one tap, one load."""
        self.taps += 1
        self.page.goto(url)

    def done(self, name):
        self.page.remove_listener("framenavigated", self._navigated)
        print(f"STORY {name}: {self.taps} taps, {self.loads} page loads")
        return self.taps, self.loads


def overlaps(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def many_rows(page, server, folder, n=12, due=None):
    """n rows in `folder`, ten drafts per batch (the editor's limit)."""
    for start in range(0, n, 10):
        register(page, server, folder, [{"name": f"Item {i:02d}", **({"due": due} if due else {})}
                                        for i in range(start, min(n, start + 10))])


# --- 1. The sticky bar ----------------------------------------------------------

@pytest.mark.parametrize("locale", LOCALES)
def test_ticking_rows_shows_a_bar_in_view_with_the_count_and_the_fab_never_covers_it(server, page_phone, locale):
    t = TEXTS[locale[:2]]
    page = page_phone
    setup_household(page, server)
    fridge = folder_ids(page, server)[t["fridge"]]
    many_rows(page, server, fridge, 12)
    page.goto(f"{server.url}/folders/{fridge}")
    bar = page.locator(".bulk-bar")
    # Nothing ticked: no bar in the way, the floating "Add items" button shows.
    assert not bar.is_visible()
    assert page.locator(".fab").is_visible()

    for name in ["Item 00", "Item 01", "Item 02"]:
        row(page, name).locator("input.row-check").check()
    assert bar.is_visible()
    assert page.locator(".bulk-count").inner_text() == t["three"]
    box = bar.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    fab = page.locator(".fab")
    assert not fab.is_visible() or not overlaps(fab.bounding_box(), box)
    # Still in view after scrolling to the last row, and the count follows the ticks.
    page.locator("li.item-row").last.scroll_into_view_if_needed()
    box = bar.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    row(page, "Item 01").locator("input.row-check").uncheck()
    row(page, "Item 02").locator("input.row-check").uncheck()
    assert page.locator(".bulk-count").inner_text() == t["one"]
    # The last row is not hidden behind the bar: it can be scrolled above it.
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    last = page.locator("li.item-row").last.bounding_box()
    assert last["y"] + last["height"] <= bar.bounding_box()["y"] + 1
    no_sideways_scroll(page)
    no_axe_problems(page)
    screenshot(page, f"bulk-bar-{locale[:2]}-phone")

    # The bar's Delete works from there.
    with page.expect_navigation():
        bar.locator("button[name=action][value=delete]").click()
    assert "Item 00" not in row_names(page)


def test_without_javascript_the_bar_is_at_the_end_of_the_form_and_works(server, make_page):
    page = make_page(PHONE, "en-US")
    setup_household(page, server)
    fridge = folder_ids(page, server)["Fridge"]
    many_rows(page, server, fridge, 3)
    nojs = page.context.browser.new_context(viewport=PHONE["viewport"], java_script_enabled=False,
                                            storage_state=page.context.storage_state())
    plain = nojs.new_page()
    plain.goto(f"{server.url}/folders/{fridge}")
    bar = plain.locator(".bulk-bar")
    assert bar.is_visible()
    assert bar.evaluate("el => getComputedStyle(el).position") == "static"
    row(plain, "Item 01").locator("input.row-check").check()
    with plain.expect_navigation():
        bar.locator("button[name=action][value=delete]").click()
    assert row_names(plain) == ["Item 00", "Item 02"]
    nojs.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_shopping_list_says_what_bought_and_move_each_do(server, page_phone, locale):
    t = TEXTS[locale[:2]]
    page = page_phone
    setup_household(page, server)
    market = folder_ids(page, server)[t["market"]]
    register(page, server, market, [{"name": "Butter"}, {"name": "Tofu"}])
    page.goto(f"{server.url}/folders/{market}")
    row(page, "Butter").locator("input.row-check").check()
    bar = page.locator(".bulk-bar")
    # One primary action (bought, into a stock list), a secondary move with a hint of one line.
    assert "button-secondary" not in bar.locator("button[value=bought]").get_attribute("class")
    assert "button-secondary" in bar.locator("button[value=move]").get_attribute("class")
    hint = bar.locator("#bulk-move-hint")
    assert hint.is_visible() and hint.inner_text().strip()
    assert bar.locator("#bulk-target").get_attribute("aria-describedby") == "bulk-move-hint"
    no_axe_problems(page)
    screenshot(page, f"bulk-bar-shopping-{locale[:2]}-phone")


# --- 2. Use soon ------------------------------------------------------------------

@pytest.mark.parametrize("locale", LOCALES)
def test_clear_expired_items_from_use_soon_in_two_taps(server, page_phone, locale):
    t = TEXTS[locale[:2]]
    page = page_phone
    setup_household(page, server)
    ids = folder_ids(page, server)
    many_rows(page, server, ids[t["fridge"]], 12, due=today() - timedelta(days=3))
    register(page, server, ids[t["pantry"]], [{"name": "Tofu", "due": today()}])

    story = Story(page)
    story.go(server.url + "/soon")
    expired = page.locator("section.due-group-expired")
    assert expired.locator("li.item-row").count() == 12
    story.tap("section.due-group-expired input[data-select-group]")
    assert page.locator(".bulk-count").inner_text() == t["twelve"]
    screenshot(page, f"soon-bulk-{locale[:2]}-phone")
    story.tap_and_wait(".bulk-bar button[name=action][value=delete]")
    taps, loads = story.done("clear expired items from Use soon (12)")
    assert (taps, loads) == (3, 2)
    assert urlparse(page.url).path == "/soon"
    assert page.locator("section.due-group-expired").count() == 0
    assert page.locator(".notice").inner_text().startswith(t["deleted"])
    # Only the expired group was ticked: today's tofu stays.
    assert page.locator("section.due-group-today li.item-row").count() == 1
    # Undo brings them back.
    with page.expect_navigation():
        page.click(".notice button")
    assert page.locator("section.due-group-expired li.item-row").count() == 12


def test_use_soon_bar_moves_and_puts_on_the_shopping_list(server, page_phone):
    page = page_phone
    setup_household(page, server)
    ids = folder_ids(page, server)
    register(page, server, ids["Fridge"], [{"name": "Old milk", "due": today() - timedelta(days=1)},
                                           {"name": "Natto", "due": today() + timedelta(days=1)}])
    page.goto(server.url + "/soon")
    row(page, "Old milk").locator("input.row-check").check()
    page.select_option("#bulk-shopping", label="Supermarket")
    with page.expect_navigation():
        page.click(".bulk-bar button[name=action][value=buy_again]")
    assert page.locator(".notice").inner_text().startswith("Put 1 item on Supermarket.")
    # Buying again copies: the stock row stays until it is thrown away.
    assert "Old milk" in row_names(page)
    row(page, "Natto").locator("input.row-check").check()
    page.select_option("#bulk-target", label="Freezer")
    with page.expect_navigation():
        page.click(".bulk-bar button[name=action][value=move]")
    assert page.locator(".notice").inner_text().startswith("Moved 1 item.")
    page.goto(f"{server.url}/folders/{ids['Supermarket']}")
    assert row_names(page) == ["Old milk"]
    page.goto(f"{server.url}/folders/{ids['Freezer']}")
    assert row_names(page) == ["Natto"]
    page.goto(server.url + "/soon")
    no_axe_problems(page)


# --- 3. Buying back ----------------------------------------------------------------

@pytest.mark.parametrize("locale", LOCALES)
def test_move_to_shopping_and_buy_back_arrives_with_quantity_and_due_date(server, page_phone, locale):
    t = TEXTS[locale[:2]]
    page = page_phone
    setup_household(page, server)
    ids = folder_ids(page, server)
    fridge, market = ids[t["fridge"]], ids[t["market"]]
    register(page, server, fridge, [{"name": "Butter", "due": today() + timedelta(days=2)}])
    due = (today() + timedelta(days=20)).isoformat()

    story = Story(page)
    story.go(f"{server.url}/folders/{fridge}")
    # Used up: − to 0 asks what to do; it goes onto the shopping list.
    story.tap_and_wait("li.item-row button.step[value='-1']")
    story.tap_and_wait(f"form:has(input[name=target][value='{market}']) button")
    story.go(f"{server.url}/folders/{market}")
    # On the shopping list it asks for one, not none.
    assert row(page, "Butter").locator(".qty").inner_text().startswith("1")
    story.tap(f"li.item-row input.row-check")
    story.tap_and_wait(".bulk-bar button[name=action][value=bought]")
    # One page: how many (1, as on the shopping row) and until when.
    assert urlparse(page.url).path == f"/folders/{market}/bought"
    butter = page.locator("fieldset.bought-line")
    assert butter.locator("input[name^=quantity_]").input_value() == "1"
    story.fill("fieldset.bought-line input[name^=due_]", due)
    no_axe_problems(page)
    screenshot(page, f"bought-{locale[:2]}-phone")
    story.tap_and_wait("button[name=action][value=save]")
    taps, loads = story.done(f"move to shopping and buy back ({locale})")
    assert (taps, loads) == (8, 6)
    assert urlparse(page.url).path == f"/folders/{market}"

    page.goto(f"{server.url}/folders/{fridge}")
    assert row_names(page) == ["Butter"]
    assert row(page, "Butter").locator(".qty").inner_text().startswith("1")
    page.goto(f"{server.url}/items/{int(row(page, 'Butter').locator('a.item-name').get_attribute('href').split('/')[-1])}/edit")
    assert page.input_value('[name="d0.due"]') == due


@pytest.mark.parametrize("locale", LOCALES)
def test_buying_several_joins_a_row_of_the_same_name_and_a_bad_quantity_keeps_what_was_typed(server, page_phone, locale):
    t = TEXTS[locale[:2]]
    page = page_phone
    setup_household(page, server)
    ids = folder_ids(page, server)
    fridge, market = ids[t["fridge"]], ids[t["market"]]
    register(page, server, fridge, [{"name": "Milk", "unit": "bottle", "due": today() + timedelta(days=2)}])
    register(page, server, market, [{"name": "ｍｉｌｋ", "unit": "bottle", "quantity": 2}, {"name": "Eggs", "unit": "pack"}])
    page.goto(f"{server.url}/folders/{market}")
    page.check("input[data-select-all]")
    page.select_option("#bulk-stock", label=t["fridge"])
    with page.expect_navigation():
        page.click(".bulk-bar button[name=action][value=bought]")
    lines = page.locator("fieldset.bought-line")
    assert lines.count() == 2
    milk = lines.filter(has_text="ｍｉｌｋ")
    eggs = lines.filter(has_text="Eggs")
    # Same name (folded as search folds it) and unit: adding to the existing row is offered first.
    join = milk.locator("input[type=radio][value=add]")
    assert join.is_checked()
    assert "Milk" in milk.locator("label:has(input[value=add])").inner_text()
    assert eggs.locator("input[type=radio]").count() == 0
    assert milk.locator("input[name^=quantity_]").input_value() == "2"

    later = (today() + timedelta(days=9)).isoformat()
    eggs.locator("input[name^=due_]").fill(later)
    eggs.locator("input[name^=quantity_]").fill("a dozen")
    with page.expect_navigation() as nav:
        page.click("button[name=action][value=save]")
    assert nav.value.status == 422
    eggs = page.locator("fieldset.bought-line").filter(has_text="Eggs")
    error = eggs.locator(".field-error")
    assert error.is_visible() and error.inner_text().strip()
    assert eggs.locator("input[name^=quantity_]").get_attribute("aria-invalid") == "true"
    assert eggs.locator("input[name^=quantity_]").input_value() == "a dozen"
    assert eggs.locator("input[name^=due_]").input_value() == later
    assert page.locator("fieldset.bought-line").filter(has_text="ｍｉｌｋ").locator("input[value=add]").is_checked()
    no_axe_problems(page)
    screenshot(page, f"bought-error-{locale[:2]}-phone")

    eggs.locator("input[name^=quantity_]").fill("1")
    with page.expect_navigation():
        page.click("button[name=action][value=save]")
    assert page.locator(".notice").inner_text().startswith(t["bought"])
    assert row_names(page) == []
    page.goto(f"{server.url}/folders/{fridge}")
    assert sorted(row_names(page)) == ["Eggs", "Milk"]
    assert row(page, "Milk").locator(".qty").inner_text().startswith("3")
    assert row(page, "Eggs").locator(".due").count() == 1


def test_screenshots_at_desktop_width(server, make_page):
    page = make_page(DESKTOP, "en-US")
    setup_household(page, server)
    ids = folder_ids(page, server)
    register(page, server, ids["Supermarket"], [{"name": "Milk"}, {"name": "Eggs"}, {"name": "Bread"}])
    page.goto(f"{server.url}/folders/{ids['Supermarket']}")
    page.check("input[data-select-all]")
    bar = page.locator(".bulk-bar")
    box = bar.bounding_box()
    assert box["y"] + box["height"] <= 800
    screenshot(page, "bulk-bar-en-desktop")
    with page.expect_navigation():
        page.click(".bulk-bar button[name=action][value=bought]")
    screenshot(page, "bought-en-desktop")
    register(page, server, ids["Fridge"], [{"name": "Old milk", "due": today() - timedelta(days=1)}])
    page.goto(server.url + "/soon")
    page.check("section.due-group-expired input[data-select-group]")
    screenshot(page, "soon-bulk-en-desktop")
