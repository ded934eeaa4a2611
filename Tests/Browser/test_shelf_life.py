"""Zaiko learns how long things keep: putting away the week's shopping, the Bought page fills in
each due date from the household's earlier registrations of the same product in that stock list,
says so beside the field, and a shortcut ("+3 days", "+1 week", "+1 month") sets one that was
never learned. At phone width, in both languages; the story counts taps and page loads."""

from datetime import timedelta
from urllib.parse import urlparse

import pytest

from conftest import DESKTOP, no_axe_problems, screenshot, setup_household
from test_bulk import Story
from test_inventory import click_nav, fill_draft, folder_ids, register, row, save, today
from test_live import words

TEXTS = {
    "en": {"fridge": "Fridge", "freezer": "Freezer", "market": "Supermarket", "usual": "Filled in from how long it usually keeps.",
           "week": "+1 week", "three": "+3 days", "month": "+1 month", "bought": "5 items bought and put away."},
    "ja": {"fridge": "冷蔵庫", "freezer": "冷凍庫", "market": "スーパー", "usual": "いつもの日持ちから入れました。",
           "week": "+1週間", "three": "+3日", "month": "+1か月", "bought": "5件を購入済みにして移動しました。"},
}
# What the household bought before, with the days it kept in the fridge.
LEARNED = {"Milk": 7, "Yogurt": 10, "Tofu": 5, "Eggs": 14}


def new_household(page, server, t):
    """A household set up on `page`; its fridge, freezer and shopping list."""
    setup_household(page, server)
    ids = folder_ids(page, server)
    return ids[t["fridge"]], ids[t["freezer"]], ids[t["market"]]


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_putting_away_the_weeks_shopping_fills_in_the_usual_due_dates(server, page_phone, locale):
    page, t = page_phone, TEXTS[locale[:2]]
    fridge, freezer, market = new_household(page, server, t)
    # Last week's shopping, registered with the dates on the packs; bread went to the freezer.
    register(page, server, fridge, [{"name": name, "due": today() + timedelta(days=days)} for name, days in LEARNED.items()])
    register(page, server, freezer, [{"name": "Bread", "due": today() + timedelta(days=60)}])
    # This week's list: the same things, and cheese, never bought before.
    register(page, server, market, [{"name": name} for name in [*LEARNED, "Cheese"]])

    story = Story(page)
    story.go(f"{server.url}/folders/{market}")
    story.tap("input[data-select-all]")
    # The bar's stock list is the fridge already (the first one).
    assert page.locator("#bulk-stock option:checked").inner_text() == t["fridge"]
    story.tap_and_wait(".bulk-bar button[name=action][value=bought]")
    assert urlparse(page.url).path == f"/folders/{market}/bought"
    line = lambda name: page.locator("fieldset.bought-line").filter(has_text=name)
    for name, days in LEARNED.items():
        assert line(name).locator("input[name^=due_]").input_value() == (today() + timedelta(days=days)).isoformat(), name
        assert line(name).locator(".hint").inner_text() == t["usual"]
    cheese = line("Cheese")
    assert cheese.locator("input[name^=due_]").input_value() == ""
    assert cheese.locator(".hint").count() == 0
    # Never learned: one tap on "+1 week".
    shortcuts = cheese.locator("[data-shortcuts]")
    assert shortcuts.is_visible()
    assert shortcuts.locator("button").all_inner_texts() == [t["three"], t["week"], t["month"]]
    story.tap(f"fieldset.bought-line:has-text('Cheese') [data-shortcuts] button:text-is('{t['week']}')")
    assert cheese.locator("input[name^=due_]").input_value() == (today() + timedelta(days=7)).isoformat()
    no_axe_problems(page)
    screenshot(page, f"bought-usual-{locale[:2]}-phone")
    story.tap_and_wait("button[name=action][value=save]")
    taps, loads = story.done(f"put away 5 items with due dates ({locale})")
    # Before: a date typed for each of the five instead of the one shortcut (9 taps, 3 loads).
    assert (taps, loads) == (5, 3)

    page.goto(f"{server.url}/folders/{fridge}")
    for name, days in LEARNED.items():
        # The fridge had a row of each already: the purchase joined it, keeping the earlier date.
        assert row(page, name).locator(".qty").inner_text().startswith("2"), name
    assert row(page, "Cheese").count() == 1


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_another_stock_list_offers_its_own_usual_date_and_a_typed_one_stays(server, page_phone, locale):
    page, t = page_phone, TEXTS[locale[:2]]
    fridge, freezer, market = new_household(page, server, t)
    register(page, server, fridge, [{"name": "Bread", "due": today() + timedelta(days=4)}, {"name": "Fish", "due": today() + timedelta(days=2)}])
    register(page, server, freezer, [{"name": "Bread", "due": today() + timedelta(days=60)}, {"name": "Fish", "due": today() + timedelta(days=90)}])
    register(page, server, market, [{"name": "Bread"}, {"name": "Fish"}])
    page.goto(f"{server.url}/folders/{market}")
    page.check("input[data-select-all]")
    page.select_option("#bulk-stock", label=t["fridge"])
    with page.expect_navigation():
        page.click(".bulk-bar button[name=action][value=bought]")
    bread = page.locator("fieldset.bought-line").filter(has_text="Bread").locator("input[name^=due_]")
    fish = page.locator("fieldset.bought-line").filter(has_text="Fish").locator("input[name^=due_]")
    assert bread.input_value() == (today() + timedelta(days=4)).isoformat()
    # The person types their own date for the fish; then chooses the freezer.
    typed = (today() + timedelta(days=30)).isoformat()
    fish.fill(typed)
    with page.expect_navigation():
        page.select_option("#bought-stock", label=t["freezer"])
    bread = page.locator("fieldset.bought-line").filter(has_text="Bread").locator("input[name^=due_]")
    fish = page.locator("fieldset.bought-line").filter(has_text="Fish").locator("input[name^=due_]")
    assert bread.input_value() == (today() + timedelta(days=60)).isoformat(), "the freezer's usual date replaces the fridge's"
    assert fish.input_value() == typed, "a date the person typed stays"


def test_the_editor_offers_the_shortcuts_on_every_draft_at_desktop_width(server, make_page):
    page = make_page(DESKTOP, "en-US")
    setup_household(page, server)
    fridge = folder_ids(page, server)["Fridge"]
    page.goto(f"{server.url}/items/new?folder={fridge}")
    page.fill('[name="d0.name"]', "Cheese")
    page.click('[data-target="f-d0.due"] button:text-is("+1 month")')
    month = today().replace(day=1) + timedelta(days=32)
    assert page.input_value('[name="d0.due"]').startswith(f"{month.year:04d}-{month.month:02d}-")
    # A second draft, added in place, has working shortcuts of its own.
    page.click('button[name=action][value=add]')
    page.fill('[name="d1.name"]', "Ham")
    page.click('[data-target="f-d1.due"] button:text-is("+3 days")')
    assert page.input_value('[name="d1.due"]') == (today() + timedelta(days=3)).isoformat()
    assert page.input_value('[name="d0.due"]').startswith(f"{month.year:04d}-{month.month:02d}-")
    screenshot(page, "editor-shortcuts-en-desktop")
    with page.expect_navigation():
        page.click("button[name=action][value=save]")
    assert row(page, "Ham").locator(".due").count() == 1


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_on_a_phone_one_draft_has_the_shortcuts_and_two_make_way_for_each_other(server, page_phone, locale):
    t = TEXTS[locale[:2]]
    page = page_phone
    setup_household(page, server)
    fridge = folder_ids(page, server)[t["fridge"]]
    page.goto(f"{server.url}/items/new?folder={fridge}")
    page.fill('[name="d0.name"]', "Cheese")
    page.click(f'[data-target="f-d0.due"] button:text-is("{t["three"]}")')
    assert page.input_value('[name="d0.due"]') == (today() + timedelta(days=3)).isoformat()
    no_axe_problems(page)
    screenshot(page, f"editor-shortcuts-{locale[:2]}-phone", full_page=False)
    # A second draft: two drafts fit one phone screen (test_editor), so the shortcuts make way.
    page.click("button[name=action][value=add]")
    assert not page.locator('[data-target="f-d0.due"]').is_visible()
    assert not page.locator('[data-target="f-d1.due"]').is_visible()
    # Back to one: they are there again.
    page.click("#draft-1 button.draft-remove")
    assert page.locator('[data-target="f-d0.due"]').is_visible()


# Eight things a household buys every week: unit, kind, the days they keep.
WEEKLY = [("Milk", "bottle", "dairy_eggs", 7), ("Eggs", "pack", "dairy_eggs", 14), ("Tofu", "pack", "other", 5),
          ("Yogurt", "piece", "dairy_eggs", 10), ("Natto", "pack", "other", 8), ("Bread", "bag", "other", 4),
          ("Spinach", "bag", "vegetables", 3), ("Chicken", "pack", "meat", 2)]


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_registering_eight_known_items_takes_a_name_each(server, page_phone, locale):
    from test_inventory import add_draft, field, open_more, save
    t = TEXTS[locale[:2]]
    page = page_phone
    setup_household(page, server)
    fridge = folder_ids(page, server)[t["fridge"]]

    # The first week: nothing is known, every field is set by hand.
    first = Story(page)
    first.go(f"{server.url}/items/new?folder={fridge}")
    for i, (name, unit, kind, days) in enumerate(WEEKLY):
        if i:
            first.taps += 1
            add_draft(page)
        first.fill(field(i, "name"), name)
        first.fill(field(i, "due"), (today() + timedelta(days=days)).isoformat())
        first.taps += 1
        open_more(page, i)
        if unit != "piece":
            first.taps += 1
            page.select_option(field(i, "unit"), unit)
        if kind != "other":
            first.taps += 1
            page.select_option(field(i, "kind"), kind)
    first.taps += 1
    assert save(page).status == 200
    before = first.done(f"register 8 items, nothing known ({locale})")

    # A week later the same eight: a name each, picked from the suggestions, fills the rest.
    later = Story(page)
    later.go(f"{server.url}/items/new?folder={fridge}")
    assert page.locator("datalist#known-names option").count() == len(WEEKLY)
    for i, (name, unit, kind, days) in enumerate(WEEKLY):
        if i:
            later.taps += 1
            add_draft(page)
        later.fill(field(i, "name"), name)
        page.press(field(i, "name"), "Tab")  # leaving the field is the next tap, not an extra one
        assert page.input_value(field(i, "unit")) == unit, name
        assert page.input_value(field(i, "kind")) == kind, name
        assert page.input_value(field(i, "due")) == (today() + timedelta(days=days)).isoformat(), name
    no_axe_problems(page)
    screenshot(page, f"editor-known-names-{locale[:2]}-phone", full_page=False)
    later.taps += 1
    assert save(page).status == 200
    after = later.done(f"register 8 known items ({locale})")
    # 45 taps before (a name, a date, More, the unit and the kind by hand), 17 now.
    assert (before[0], after[0]) == (45, 17), (before, after)

    page.goto(f"{server.url}/folders/{fridge}")
    for name, unit, kind, days in WEEKLY:
        assert row(page, name).count() == 2, name


def test_an_illustration_chosen_sets_the_kind_and_the_preview_and_a_pick_fills_it(server, page_phone):
    page = page_phone
    setup_household(page, server)
    fridge = folder_ids(page, server)["Fridge"]
    page.goto(f"{server.url}/items/new?folder={fridge}")
    page.fill('[name="d0.name"]', "Milk")
    page.click("#draft-0 details.illustration-picker summary")
    page.check('#draft-0 input[name="d0.picture"][value="illustration:milk"]')
    assert page.locator("#draft-0 img.picture-preview").get_attribute("src").split("?")[0].endswith("/illustrations/milk.svg")
    assert page.input_value('[name="d0.kind"]') == "dairy_eggs"
    with page.expect_navigation():
        page.click("button[name=action][value=save]")
    # A kind chosen by the person is not changed by an illustration.
    page.goto(f"{server.url}/items/new?folder={fridge}")
    page.click("#draft-0 details.draft-more summary")
    page.select_option('[name="d0.kind"]', "drinks")
    page.click("#draft-0 details.illustration-picker summary")
    page.check('#draft-0 input[name="d0.picture"][value="illustration:cheese"]')
    assert page.input_value('[name="d0.kind"]') == "drinks"
    # Picking "Milk" from the names fills its illustration into a draft without a picture.
    page.goto(f"{server.url}/items/new?folder={fridge}")
    page.fill('[name="d0.name"]', "milk")
    page.press('[name="d0.name"]', "Tab")
    assert page.locator('#draft-0 input[name="d0.picture"][value="illustration:milk"]').is_checked()
    assert page.locator("#draft-0 img.picture-preview").get_attribute("src").split("?")[0].endswith("/illustrations/milk.svg")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_products_shelf_life_is_set_on_its_page_and_a_wrong_one_is_told_beside_the_field(server, page_phone, locale):
    page, t = page_phone, TEXTS[locale[:2]]
    w = words(locale[:2])
    fridge, _, _ = new_household(page, server, t)
    # Natto with a barcode, due in 5 days: the household learned that it keeps about 5 days.
    page.goto(f"{server.url}/items/new?folder={fridge}")
    fill_draft(page, 0, name="Natto", due=today() + timedelta(days=5), kind="prepared")
    page.fill('[id="f-d0.barcode"]', "4901234567894")
    assert save(page).status == 200

    page.goto(f"{server.url}/products")
    assert w["products_keeps"].replace("{count}", "5") in page.locator(".product-list").inner_text()
    click_nav(page, ".product-list a.item-name")
    field = page.locator("#f-shelf_life")
    assert field.input_value() == "" and field.get_attribute("inputmode") == "numeric"
    assert page.locator("#f-shelf_life-hint").inner_text() == w["products_shelf_life_learned"].replace("{days}", "5")

    # A wrong one comes back beside the field, in the member's language, with what was typed.
    field.fill("lots")
    response = click_nav(page, "main form.card button[type=submit]")
    assert response.status == 422
    assert page.locator("#f-shelf_life").input_value() == "lots"
    assert w["products_shelf_life_invalid"] in page.locator("#f-shelf_life-error").inner_text()
    no_axe_problems(page)
    screenshot(page, f"product-shelf-life-refused-{locale[:2]}-phone")

    # Two weeks, typed as a Japanese keyboard types digits: the list and the next scan say 14 days.
    page.fill("#f-shelf_life", "１４")
    assert click_nav(page, "main form.card button[type=submit]").status == 200
    assert urlparse(page.url).path == "/products"
    assert w["products_keeps"].replace("{count}", "14") in page.locator(".product-list").inner_text()
    click_nav(page, ".product-list a.item-name")
    assert page.locator("#f-shelf_life").input_value() == "14"
