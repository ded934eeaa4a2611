"""What can we make (/recipes) and a recipe's page, end to end at phone width in both languages:
seed 004's story (from the item page of 牛乳, "Recipes with this" lists the recipes that use 牛乳),
the state and kind chips and the search without JavaScript, every ingredient's standing in words
(enough, short, missing, expired in another list, units that do not compare), the servings stepper
keeping its place, axe with no violations, and screenshots at 390 and 1280 px."""

from datetime import timedelta
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, EVERY_IMPACT, PHONE, axe_problems, screenshot, setup_household
from recipes_support import add_recipe
from test_inventory import click_nav, folder_ids, item_id, no_sideways_scroll, register, today

LOCALES = ["en-US", "ja-JP"]
TEXTS = {
    "en": {"fridge": "Fridge", "freezer": "Freezer", "pantry": "Pantry", "with_this": "Recipes with this",
           "heading_milk": "Recipes with 牛乳", "all": "All recipes", "ready": "Ready now", "missing_1": "Missing 1",
           "missing_2": "Missing 2", "enough": "Enough in stock", "expired_freezer": "1 expired in Freezer",
           "short_flour": "Short by 100 g", "missing": "Missing: none in stock",
           "uncomparable": "Units do not compare: 1 pack in stock", "present": "In stock (only needs to be there)",
           "to_taste": "to taste", "tbsp2": "2 tbsp", "ml300": "300 ml", "ml200": "200 ml", "no_match": "No recipe matches",
           "recipes": "Recipes", "cook": "Cook", "servings3": "3 servings"},
    "ja": {"fridge": "冷蔵庫", "freezer": "冷凍庫", "pantry": "パントリー", "with_this": "これを使うレシピ",
           "heading_milk": "牛乳を使うレシピ", "all": "すべてのレシピ", "ready": "今すぐ作れる", "missing_1": "あと1つ",
           "missing_2": "あと2つ", "enough": "在庫で足ります", "expired_freezer": "冷凍庫に期限切れが1つ",
           "short_flour": "100g足りません", "missing": "在庫がありません",
           "uncomparable": "単位が違うので量を比べられません（在庫：1パック）", "present": "在庫あり（量は問いません）",
           "to_taste": "適量", "tbsp2": "大さじ2", "ml300": "300ml", "ml200": "200ml", "no_match": "条件に合うレシピはありません",
           "recipes": "レシピ", "cook": "作る", "servings3": "3人分"},
}
MILK_RECIPES = {"ミルクプリン", "ホットケーキ", "ミルクティー"}


def kitchen(page, server, lang):
    """Seed 004's kitchen: 牛乳 in the fridge (and an expired one in the freezer), eggs, chicken in a
    pack, a little flour, soy sauce; five recipes, three of them with 牛乳. Returns ids by name."""
    setup_household(page, server)
    t = TEXTS[lang]
    folders = folder_ids(page, server)
    register(page, server, folders[t["fridge"]], [
        {"name": "牛乳", "quantity": 1, "unit": "L", "due": today() + timedelta(days=2)},
        {"name": "卵", "quantity": 6},
        {"name": "鶏もも肉", "quantity": 1, "unit": "pack"}])
    milk = item_id(page, "牛乳")
    register(page, server, folders[t["freezer"]], [{"name": "牛乳", "quantity": 500, "unit": "ml", "due": today() - timedelta(days=3)}])
    register(page, server, folders[t["pantry"]], [{"name": "小麦粉", "quantity": 50, "unit": "g"},
                                                  {"name": "醤油", "quantity": 1, "unit": "bottle"}])
    ids = {"milk": milk}
    ids["ミルクプリン"] = add_recipe(server, "ミルクプリン", [("牛乳", 300, "ml"), ("卵", 2, None), ("砂糖", 2, "tbsp")],
                                  servings=2, tags=["dessert"],
                                  steps="牛乳と砂糖を温める。\n沸騰させない。\n\n卵を混ぜて冷やす。")
    ids["ホットケーキ"] = add_recipe(server, "ホットケーキ", [("牛乳", 200, "ml"), ("卵", 1, "piece"), ("小麦粉", 150, "g"),
                                                  ("塩", None, "to_taste")], servings=2, tags=["dessert", "breakfast"])
    ids["ミルクティー"] = add_recipe(server, "ミルクティー", [("牛乳", 200, "ml"), ("紅茶", 1, "piece")], servings=1)
    ids["卵かけご飯"] = add_recipe(server, "卵かけご飯", [("卵", 1, "piece"), ("醤油", 1, "tsp")], servings=1, tags=["breakfast"])
    ids["照り焼きチキン"] = add_recipe(server, "照り焼きチキン", [("鶏もも肉", 300, "g"), ("醤油", 2, "tbsp"), ("みりん", 2, "tbsp"),
                                                      ("砂糖", 1, "tbsp")], servings=2)
    return ids


def recipe_names(page):
    return page.locator("li.recipe-card a.recipe-name").all_inner_texts()


def card(page, name):
    return page.locator("li.recipe-card", has=page.locator("a.recipe-name", has_text=name))


def ingredient(page, name):
    return page.locator("li.ingredient", has=page.locator(".ingredient-name", has_text=name))


def no_axe_violations(page, label):
    page.wait_for_load_state("networkidle")
    assert axe_problems(page, label, EVERY_IMPACT) == []
    assert page.console_errors == [], page.console_errors


@pytest.mark.parametrize("locale", LOCALES)
def test_recipes_with_milk_from_the_item_page(server, page_phone, locale):
    """Seed 004: from 牛乳's page, "Recipes with this" lists the recipes that use 牛乳; a way back to all."""
    lang = locale[:2]
    t = TEXTS[lang]
    page = page_phone
    ids = kitchen(page, server, lang)

    page.goto(f"{server.url}/items/{ids['milk']}")
    click_nav(page, f"a:has-text('{t['with_this']}')")
    assert urlparse(page.url).path == "/recipes"
    assert parse_qs(urlparse(page.url).query)["ingredient"] == ["牛乳"]
    expect(page.locator("h1")).to_have_text(t["heading_milk"])
    assert set(recipe_names(page)) == MILK_RECIPES
    # Each card says its state in words: ミルクティー lacks only tea.
    expect(card(page, "ミルクティー").locator(".recipe-state")).to_contain_text(t["missing_1"])
    expect(card(page, "ミルクティー").locator(".recipe-state")).to_contain_text("紅茶")
    no_sideways_scroll(page)
    screenshot(page, f"recipes-milk-{lang}-phone")

    click_nav(page, f"a:has-text('{t['all']}')")
    assert urlparse(page.url).query == ""
    assert set(recipe_names(page)) == MILK_RECIPES | {"卵かけご飯", "照り焼きチキン"}

    # The use-soon page links each row to its recipes too.
    page.goto(f"{server.url}/soon")
    click_nav(page, "li.item-row:has(.item-folder:has-text('%s')) a.row-recipes" % t["fridge"])
    expect(page.locator("h1")).to_have_text(t["heading_milk"])
    assert set(recipe_names(page)) == MILK_RECIPES


@pytest.mark.parametrize("locale", LOCALES)
def test_filters_by_state_kind_and_words_without_javascript(server, make_page, locale):
    lang = locale[:2]
    t = TEXTS[lang]
    page = make_page({**PHONE, "java_script_enabled": False}, locale)
    kitchen(page, server, lang)
    page.goto(server.url + "/recipes")
    # One glance: the ready one says so, in words and with a mark.
    ready = card(page, "卵かけご飯")
    expect(ready.locator(".state-badge")).to_contain_text(t["ready"])
    expect(ready.locator(".state-mark")).to_have_text("✓")
    expect(card(page, "照り焼きチキン").locator(".state-badge")).to_contain_text(t["missing_2"])

    click_nav(page, f".recipe-filters a.chip-link:has-text('{t['ready']}')")
    assert recipe_names(page) == ["卵かけご飯"]
    expect(page.locator(f".recipe-filters a[aria-current]:has-text('{t['ready']}')")).to_have_count(1)

    # The kind chip keeps the state: nothing ready is a dessert.
    click_nav(page, ".recipe-filters a.chip-link:text-is('dessert')")
    query = parse_qs(urlparse(page.url).query)
    assert query == {"state": ["ready"], "tag": ["dessert"]}
    assert recipe_names(page) == []
    expect(page.locator(".empty")).to_contain_text(t["no_match"])

    # All states, still desserts; then words, kept with the kind.
    click_nav(page, ".recipe-filters ul:first-child a.chip-link >> nth=0")
    assert set(recipe_names(page)) == {"ミルクプリン", "ホットケーキ"}
    page.fill("input[name=q]", "ミルク")
    click_nav(page, "form.recipes-search button[type=submit]")
    assert parse_qs(urlparse(page.url).query) == {"tag": ["dessert"], "q": ["ミルク"]}
    assert recipe_names(page) == ["ミルクプリン"]
    expect(page.locator("input[name=q]")).to_have_value("ミルク")
    no_sideways_scroll(page)


@pytest.mark.parametrize("locale", LOCALES)
def test_each_ingredient_says_how_it_stands_and_the_stepper_keeps_the_place(server, page_phone, locale):
    lang = locale[:2]
    t = TEXTS[lang]
    page = page_phone
    ids = kitchen(page, server, lang)

    page.goto(f"{server.url}/recipes/{ids['ホットケーキ']}")
    milk = ingredient(page, "牛乳")
    expect(milk.locator(".ingredient-amount")).to_have_text(t["ml200"])
    expect(milk.locator(".ingredient-standing")).to_contain_text(t["enough"])
    # The fresh 牛乳 is listed with its folder; the expired one apart, in the other list.
    expect(milk.locator(".match-list").first.locator(".match-folder")).to_have_text(t["fridge"])
    expect(milk.locator(".expired-apart .expired-note")).to_contain_text(t["expired_freezer"])
    expect(ingredient(page, "小麦粉").locator(".ingredient-standing")).to_contain_text(t["short_flour"])
    salt = ingredient(page, "塩")
    expect(salt.locator(".ingredient-amount")).to_have_text(t["to_taste"])
    expect(salt.locator(".ingredient-standing")).to_contain_text(t["missing"])
    expect(page.locator(".recipe-title .state-badge")).to_contain_text(t["missing_2"])
    expect(page.locator("button.button-cook")).to_contain_text(t["cook"])
    no_sideways_scroll(page)

    # + : three servings, amounts scaled, the page back at the stepper.
    click_nav(page, "#servings a.step[href*='servings=3']")
    assert urlparse(page.url).fragment == "servings"
    assert parse_qs(urlparse(page.url).query)["servings"] == ["3"]
    expect(ingredient(page, "牛乳").locator(".ingredient-amount")).to_have_text(t["ml300"])
    expect(page.locator(".servings-note")).to_contain_text(t["servings3"])
    top = page.evaluate("document.getElementById('servings').getBoundingClientRect().top")
    assert 0 <= top < 120, top
    assert page.locator("form.cook-form input[name=servings]").input_value() == "3"

    page.goto(f"{server.url}/recipes/{ids['照り焼きチキン']}")
    expect(ingredient(page, "鶏もも肉").locator(".ingredient-standing")).to_contain_text(t["uncomparable"])
    expect(ingredient(page, "醤油").locator(".ingredient-amount")).to_have_text(t["tbsp2"])
    expect(ingredient(page, "醤油").locator(".ingredient-standing")).to_contain_text(t["present"])
    expect(ingredient(page, "みりん").locator(".ingredient-standing")).to_contain_text(t["missing"])


@pytest.mark.parametrize("locale", LOCALES)
def test_recipe_pages_accessible_with_screenshots(server, make_page, locale):
    lang = locale[:2]
    setup = make_page(PHONE, locale)
    ids = kitchen(setup, server, lang)
    cookies = setup.context.cookies()
    for device_name, device in (("phone", PHONE), ("desktop", DESKTOP)):
        page = make_page(device, locale)
        page.context.add_cookies(cookies)
        tag = f"{lang}-{device_name}"
        page.goto(server.url + "/recipes")
        no_axe_violations(page, f"/recipes {tag}")
        no_sideways_scroll(page)
        screenshot(page, f"recipes-{tag}")
        page.goto(server.url + "/recipes?state=missing_one&tag=dessert")
        no_axe_violations(page, f"/recipes filtered {tag}")
        screenshot(page, f"recipes-filtered-{tag}")
        page.goto(f"{server.url}/recipes/{ids['ホットケーキ']}")
        no_axe_violations(page, f"/recipes/id {tag}")
        no_sideways_scroll(page)
        screenshot(page, f"recipe-{tag}")
        page.goto(f"{server.url}/recipes/{ids['ミルクプリン']}?servings=4#servings")
        no_axe_violations(page, f"/recipes/id servings {tag}")
        screenshot(page, f"recipe-servings-{tag}")
        page.goto(f"{server.url}/items/{ids['milk']}")
        no_axe_violations(page, f"item {tag}")
        screenshot(page, f"item-recipes-link-{tag}")
        page.goto(f"{server.url}/soon")
        no_sideways_scroll(page)
        screenshot(page, f"soon-recipes-link-{tag}")
