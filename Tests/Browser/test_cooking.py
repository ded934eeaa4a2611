"""Cooking a recipe at phone width in both languages (issue 13, seed 002): the confirmation says
what will be taken from which item, the servings stepper scales it, cooking takes both fruits and
makes the juice in the Fridge; with the apples gone the page names them; undo from the recipe's
notice and from an item's history; what is missing goes to the shopping list and, bought, makes
the recipe ready; the used-up setting sends an item to the shopping list. axe on the confirmation
page and screenshots at 390 and 1280 px."""

import json
import re
import sqlite3

import pytest
from playwright.sync_api import expect

from conftest import (DESKTOP, PHONE, REPO_ROOT, SERIOUS, create_invitation, join, no_axe_problems as assert_no_axe_problems,
                      screenshot, setup_household)
from recipes_support import add_recipe
from test_inventory import click_nav, first_folder, register, row

LOCALES = ["en-US", "ja-JP"]
CATALOGS = {locale: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text())
            for locale, code in (("en-US", "en"), ("ja-JP", "ja"))}
# Seed 002's juice in the reader's language.
NAMES = {
    "en-US": {"apple": "Apple", "carrot": "Carrot", "juice": "Apple and carrot juice", "made": "Juice"},
    "ja-JP": {"apple": "りんご", "carrot": "にんじん", "juice": "りんごとにんじんのジュース", "made": "ジュース"},
}


def tag(locale):
    return "en" if locale == "en-US" else "ja"


def words(locale, key, **values):
    text = CATALOGS[locale][key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def no_axe_problems(page):
    assert_no_axe_problems(page, impacts=("moderate", *SERIOUS))


def no_sideways_scroll(page):
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]


def quantity(server, name) -> float | None:
    """The quantity of the stock item `name` that is not in the trash (None: there is none)."""
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        found = db.execute("SELECT quantity FROM item WHERE name = ? AND deleted_at IS NULL", (name,)).fetchone()
    return found[0] if found else None


def kitchen(page, server, locale, apples=1, carrots=2):
    """The household, its fruit in the Fridge and the juice recipe (1 serving: 1 apple + 2 carrots,
    making a bottle of juice in the Fridge). Returns (recipe id, fridge id, shopping list id)."""
    setup_household(page, server)
    fridge = first_folder(page, server, "stock")
    shopping = first_folder(page, server, "shopping")
    n = NAMES[locale]
    stock = [{"name": n["apple"], "quantity": apples}, {"name": n["carrot"], "quantity": carrots}]
    register(page, server, fridge, [draft for draft in stock if draft["quantity"]])
    recipe = add_recipe(server, n["juice"], [(n["apple"], 1, "piece"), (n["carrot"], 2, "piece")], servings=1,
                        produce={"name": n["made"], "quantity": 1, "unit": "bottle", "kind": "drinks", "due_days": 2, "folder_id": fridge})
    return recipe, fridge, shopping


def open_cook_page(page, server, recipe):
    """From the recipe's page, its Cook button (a GET form with the servings)."""
    page.goto(f"{server.url}/recipes/{recipe}")
    click_nav(page, f"form[action='/recipes/{recipe}/cook'] button[type=submit]")
    assert re.search(rf"/recipes/{recipe}/cook\?servings=1$", page.url), page.url


def cook(page):
    return click_nav(page, "form.cook-go button.cook-button")


@pytest.mark.parametrize("locale", LOCALES)
def test_seed_002_cooking_takes_both_fruits_and_makes_the_juice(server, make_page, locale):
    page = make_page(PHONE, locale)
    recipe, fridge, _ = kitchen(page, server, locale)
    n = NAMES[locale]
    open_cook_page(page, server, recipe)
    takes = page.locator(".cook-takes")
    # Grouped by ingredient: what is taken from which item, and the carrots are used up.
    expect(takes.locator("h3")).to_have_text([n["apple"], n["carrot"]])
    carrot = takes.locator(".cook-group", has=page.locator("h3", has_text=n["carrot"]))
    expect(carrot.locator(".cook-uses-up")).to_have_text(words(locale, "cook_uses_up"))
    expect(takes).to_contain_text(n["made"])
    expect(page.locator(".cook-short")).to_have_count(0)
    no_sideways_scroll(page)
    no_axe_problems(page)
    screenshot(page, f"cook-{tag(locale)}-phone")

    # The stepper doubles the amounts: two servings need 2 apples, and there is one.
    click_nav(page, "form.cook-stepper button[value='2']")
    assert page.url.endswith("servings=2")
    expect(page.locator(".cook-servings")).to_have_text(words(locale, "cook_servings", count=2))
    short = page.locator(".cook-short")
    expect(short.locator("li", has_text=n["apple"])).to_contain_text("1")
    expect(short.locator("li", has_text=n["carrot"])).to_contain_text("2")
    screenshot(page, f"cook-short-{tag(locale)}-phone")
    no_axe_problems(page)
    click_nav(page, "form.cook-stepper button[value='1']")

    # Cooking takes both and puts the juice in the Fridge.
    cook(page)
    assert re.search(rf"/recipes/{recipe}\?cooked=\d+&taken=2$", page.url), page.url
    assert quantity(server, n["apple"]) is None and quantity(server, n["carrot"]) is None
    page.goto(f"{server.url}/folders/{fridge}")
    expect(row(page, n["made"])).to_have_count(1)
    expect(row(page, n["apple"])).to_have_count(0)

    # With the apples gone, the page names what is missing and the two ways on.
    page.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    missing = page.locator(".cook-short .cook-missing")
    expect(missing).to_contain_text(n["apple"])
    expect(missing).to_contain_text(n["carrot"])
    expect(page.locator(".cook-short button.cook-button")).to_have_text(words(locale, "cook_with_what_we_have"))
    expect(page.locator(".cook-shopping button")).to_have_text(words(locale, "cook_add_missing"))
    assert page.console_errors == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_confirmation_at_desktop_width(server, make_page, locale):
    page = make_page(DESKTOP, locale)
    recipe, _, _ = kitchen(page, server, locale, carrots=5)
    page.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    expect(page.locator("form.cook-go button.cook-button")).to_have_text(words(locale, "cook_submit"))
    no_axe_problems(page)
    screenshot(page, f"cook-{tag(locale)}-desktop")
    page.goto(f"{server.url}/recipes/{recipe}/cook?servings=3")
    screenshot(page, f"cook-short-{tag(locale)}-desktop")


@pytest.mark.parametrize("locale", LOCALES)
def test_undo_a_cook_from_the_notice_and_from_an_items_history(server, make_page, locale):
    page = make_page(PHONE, locale)
    recipe, fridge, _ = kitchen(page, server, locale, apples=3, carrots=5)
    n = NAMES[locale]
    open_cook_page(page, server, recipe)
    cook(page)
    assert quantity(server, n["apple"]) == 2 and quantity(server, n["made"]) == 1
    # The notice on the recipe's page: one tap.
    click_nav(page, "main form[action^='/cooks/'] button[type=submit]")
    assert quantity(server, n["apple"]) == 3 and quantity(server, n["carrot"]) == 5
    assert quantity(server, n["made"]) is None, "what the cook made goes again"

    # Cooked again: the apple's history offers Undo for that cook.
    page.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    cook(page)
    assert quantity(server, n["apple"]) == 2
    page.goto(f"{server.url}/folders/{fridge}")
    click_nav(page, f"li.item-row a.item-name:text-is('{n['apple']}')")
    undo = page.locator(".history form.history-undo button")
    expect(undo).to_have_count(1)
    screenshot(page, f"cook-history-undo-{tag(locale)}-phone")
    click_nav(page, ".history form.history-undo button")
    expect(page.locator(".notice")).to_contain_text(words(locale, "cook_undone"))
    expect(page.locator(".history form.history-undo")).to_have_count(0)
    assert quantity(server, n["apple"]) == 3 and quantity(server, n["carrot"]) == 5


@pytest.mark.parametrize("locale", LOCALES)
def test_add_what_is_missing_to_the_shopping_list_and_buy_it(server, make_page, locale):
    page = make_page(PHONE, locale)
    recipe, fridge, shopping = kitchen(page, server, locale, apples=0, carrots=1)
    n = NAMES[locale]
    page.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    page.select_option("#cook-list", str(shopping))
    click_nav(page, ".cook-shopping button[type=submit]")
    assert f"/recipes/{recipe}/cook?servings=1&added=2&list={shopping}" in page.url, page.url
    expect(page.locator(".notice")).to_contain_text(str(2))
    # Buy them: tick both on the shopping list, "Bought", put away into the Fridge.
    page.goto(f"{server.url}/folders/{shopping}")
    for name in (n["apple"], n["carrot"]):
        row(page, name).locator("input.row-check").check()
    click_nav(page, ".bulk-bar button[name=action][value=bought]")
    click_nav(page, ".bought-actions button[name=action][value=save]")
    # Now the recipe is ready: the plain Cook button, nothing short.
    page.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    expect(page.locator(".cook-short")).to_have_count(0)
    cook(page)
    assert re.search(rf"/recipes/{recipe}\?cooked=\d+&taken=\d+$", page.url), page.url


@pytest.mark.parametrize("locale", LOCALES)
def test_the_used_up_setting_moves_an_item_to_the_shopping_list(server, make_page, locale):
    page = make_page(PHONE, locale)
    recipe, fridge, shopping = kitchen(page, server, locale, apples=3)
    n = NAMES[locale]
    page.goto(server.url + "/settings#cooking")
    card = page.locator("#cooking")
    expect(card.locator("h2")).to_have_text(words(locale, "cook_used_up_heading"))
    card.locator("input[value=shopping]").check()
    page.select_option("#used-up-folder", str(shopping))
    click_nav(page, "#cooking button[type=submit]")
    expect(page.locator("#cooking .notice")).to_contain_text(words(locale, "cook_used_up_saved"))
    expect(page.locator("#cooking input[value=shopping]")).to_be_checked()
    no_axe_problems(page)
    screenshot(page.locator("#cooking"), f"cook-settings-{tag(locale)}-phone")
    page.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    cook(page)
    # The carrots are used up: on the shopping list to buy again, not in the trash.
    page.goto(f"{server.url}/folders/{shopping}")
    expect(row(page, n["carrot"])).to_have_count(1)
    page.goto(f"{server.url}/folders/{fridge}")
    expect(row(page, n["carrot"])).to_have_count(0)


@pytest.mark.parametrize("locale", LOCALES)
def test_two_members_cooking_the_same_stock_the_second_sees_the_shortfall(server, make_page, locale):
    aki = make_page(PHONE, locale)
    recipe, _, _ = kitchen(aki, server, locale)
    n = NAMES[locale]
    link = create_invitation(aki, server)
    ken = make_page(PHONE, locale)
    join(ken, link)
    # Both have the confirmation open with enough for one serving.
    aki.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    ken.goto(f"{server.url}/recipes/{recipe}/cook?servings=1")
    cook(aki)
    response = cook(ken)
    assert response.status == 409
    expect(ken.locator("main .form-error[role=alert]")).to_contain_text(words(locale, "cook_conflict"))
    expect(ken.locator(".cook-short .cook-missing")).to_contain_text(n["apple"])
    # Taken once: nothing went below zero, the second cook changed nothing.
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM item WHERE quantity < 0").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM cook").fetchone()[0] == 1
    screenshot(ken, f"cook-conflict-{tag(locale)}-phone")
