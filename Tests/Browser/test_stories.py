"""The four kitchen stories of issue 11, walked at phone width as a person would, counting taps
(clicks, fields touched, boxes ticked, selects opened+chosen) and page loads (main-frame
navigations). The counts are written to test-output/stories.json for the issue's note, and each
story asserts its end state so a count can never come from a walk that failed."""

import json
from datetime import timedelta

from playwright.sync_api import expect

from conftest import REPO_ROOT, setup_household, today
from test_inventory import folder_ids, register, row

RESULTS = REPO_ROOT / "test-output" / "stories.json"


class Tally:
    """Drives a page and counts what a person would do."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.loads = 0
        page.on("framenavigated", lambda frame: frame == page.main_frame and self._load())

    def _load(self):
        self.loads += 1

    def start(self):
        self.taps = self.loads = 0

    def tap(self, selector):
        self.taps += 1
        self.page.locator(f"{selector} >> visible=true").first.click()
        self.page.wait_for_load_state()

    def fill(self, selector, value):
        self.taps += 1
        self.page.locator(selector).first.fill(value)

    def check(self, locator):
        self.taps += 1
        locator.check()

    def select(self, selector, label):
        self.taps += 2  # open the select, choose
        self.page.select_option(selector, label=label)

    def record(self, story):
        data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        data[story] = {"taps": self.taps, "page_loads": self.loads}
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(data, indent=2, ensure_ascii=False))


def assert_at_most(walk, taps, loads):
    """The walk costs no more than it did when the story was last made shorter."""
    assert walk.taps <= taps and walk.loads <= loads, (walk.taps, walk.loads)


def day(offset):
    return (today() + timedelta(days=offset)).isoformat()


def test_story_register_three_items(server, page_phone):
    page = setup_household(page_phone, server)
    fridge = folder_ids(page, server)["Fridge"]
    page.goto(f"{server.url}/folders/{fridge}")
    walk = Tally(page)
    walk.start()
    walk.tap("a[href^='/items/new']")
    for i, name in enumerate(["Milk", "Eggs", "Tofu"]):
        if i:
            walk.tap("button[name=action][value=add]")
        walk.fill(f'[name="d{i}.name"]', name)
        walk.fill(f'[name="d{i}.due"]', day(5 + i))
    walk.tap("button[name=action][value=save]")
    assert all(row(page, n).count() == 1 for n in ["Milk", "Eggs", "Tofu"])
    assert_at_most(walk, taps=10, loads=2)
    walk.record("register 3 items")


def test_story_move_to_shopping_and_buy_back(server, page_phone):
    page = setup_household(page_phone, server)
    ids = folder_ids(page, server)
    register(page, server, ids["Fridge"], [{"name": "Milk", "quantity": 1}])
    walk = Tally(page)
    walk.start()
    # Used up: − to zero, then "move to Supermarket" on the page that asks.
    walk.tap("li.item-row:has(a.item-name:text-is('Milk')) button[value='-1']")
    walk.tap("form:has(input[name=target]) button")
    walk.tap(".site-nav a[href='/']")
    walk.tap(f"a.folder-card[href='/folders/{ids['Supermarket']}']")
    # On the shopping list it waits as 1, not as the 0 it was used up at.
    assert row(page, "Milk").locator(".qty").inner_text().startswith("1")
    walk.check(row(page, "Milk").locator("input.row-check"))
    walk.tap(".bulk-bar button[name=action][value=bought]")
    # One page asks how many and until when.
    assert page.locator("input[name^=quantity_]").input_value() == "1"
    walk.fill("input[name^=due_]", day(7))
    walk.tap(".bought-actions button[name=action][value=save]")
    page.goto(f"{server.url}/folders/{ids['Fridge']}")
    assert row(page, "Milk").locator(".qty").inner_text().startswith("1")
    assert row(page, "Milk").locator(".due").count() == 1
    assert_at_most(walk, taps=8, loads=7)
    walk.record("move to shopping and buy back")


def test_story_clear_expired_from_use_soon(server, page_phone):
    page = setup_household(page_phone, server)
    fridge = folder_ids(page, server)["Fridge"]
    expired = [f"Old {n}" for n in range(10)]
    register(page, server, fridge, [{"name": n, "due": day(-3)} for n in expired])
    page.goto(server.url + "/")
    walk = Tally(page)
    walk.start()
    walk.tap("a[href='/soon']")
    walk.check(page.locator("section.due-group-expired input[data-select-group]"))
    expect(page.locator(".bulk-count")).to_contain_text("10")
    walk.tap(".bulk-bar button[name=action][value=delete]")
    assert page.locator("li.item-row").count() == 0
    assert_at_most(walk, taps=3, loads=2)
    walk.record("clear 10 expired items from Use soon")


def test_story_find_milk_across_the_household(server, page_phone):
    page = setup_household(page_phone, server)
    ids = folder_ids(page, server)
    register(page, server, ids["Fridge"], [{"name": "牛乳"}, {"name": "Eggs"}])
    register(page, server, ids["Supermarket"], [{"name": "牛乳"}])
    page.goto(server.url + "/")
    walk = Tally(page)
    walk.start()
    walk.fill("#home-q", "牛乳")
    walk.tap("form.home-search button[type=submit]")
    assert page.locator("li.item-row").count() == 2
    assert page.locator("section.search-group").count() == 2
    assert_at_most(walk, taps=2, loads=1)
    walk.record("find 牛乳 across the household")
