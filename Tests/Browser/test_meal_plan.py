"""The meal plan at phone width, both languages, with and without JavaScript (issue 26): plan five
dinners, see the one the eggs do not cover (the 6-eggs case: two dinners needing 4 each), add
what is missing for the days shown once (again adds nothing), cook one from the plan and undo it;
a refused meal keeps what was typed beside its field; the recipe page counts what the plan
reserves; axe, screenshots at 390 and 1280 px."""

import json
import re
import sqlite3
from datetime import datetime, time, timedelta, timezone

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, REPO_ROOT, create_invitation, join, no_axe_problems, screenshot, setup_household, today
from recipes_support import add_recipe
from test_bulk import Story
from test_inventory import first_folder, register

CATALOGS = {code: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text()) for code in ("en", "ja")}
NAMES = {
    "en": {"egg": "Egg", "omelette": "Omelette", "tamagoyaki": "Tamagoyaki", "rice": "Rice", "curry": "Curry", "salad": "Salad",
           "lettuce": "Lettuce", "out": "Eat out"},
    "ja": {"egg": "卵", "omelette": "オムレツ", "tamagoyaki": "卵焼き", "rice": "米", "curry": "カレー", "salad": "サラダ",
           "lettuce": "レタス", "out": "外食"},
}


def words(lang, key, **values):
    text = CATALOGS[lang][key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def db_rows(server, sql, *args):
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        return db.execute(sql, args).fetchall()


def kitchen(page, server, lang):
    """Six eggs, a kilo of rice and a lettuce in the Fridge; five recipes. Returns recipe ids by key."""
    setup_household(page, server)
    fridge = first_folder(page, server, "stock")
    n = NAMES[lang]
    register(page, server, fridge, [
        {"name": n["egg"], "quantity": 6}, {"name": n["rice"], "quantity": 1, "unit": "kg"}, {"name": n["lettuce"], "quantity": 1}])
    return {
        "omelette": add_recipe(server, n["omelette"], [(n["egg"], 4, None)]),
        "tamagoyaki": add_recipe(server, n["tamagoyaki"], [(n["egg"], 4, None)]),
        "curry": add_recipe(server, n["curry"], [(n["rice"], 300, "g")]),
        "salad": add_recipe(server, n["salad"], [(n["lettuce"], None, None)]),
    }


def add_meal(story, day, recipe=None, note=None):
    """The add form at the end of the page: the day, a recipe or a note, Add. Three taps, one load."""
    story.fill("#add-day", day.isoformat())
    story.taps += 1
    if recipe is not None:
        story.page.select_option("#add-recipe", str(recipe))
    else:
        story.page.select_option("#add-recipe", "")
        story.fill("#add-note", note)
    story.tap_and_wait("#add button[type=submit]")


def meal(page, day, name):
    return page.locator(f"#day-{day.isoformat()} li.plan-meal", has=page.locator(".plan-meal-name", has_text=name))


@pytest.mark.parametrize("locale,javascript", [("en-US", True), ("ja-JP", True), ("en-US", False)])
def test_plan_five_dinners_add_what_is_missing_once_cook_one_and_undo(browser, server, locale, javascript):
    lang = locale[:2]
    n = NAMES[lang]
    context = browser.new_context(**PHONE, locale=locale, java_script_enabled=javascript, color_scheme="light")
    page = context.new_page()
    recipes = kitchen(page, server, lang)
    days = [today() + timedelta(days=offset) for offset in range(5)]

    story = Story(page)
    story.go(f"{server.url}/plan")
    expect(page.locator("h1")).to_have_text(words(lang, "plan_heading"))
    # Seven days from today, each a row, the first today.
    expect(page.locator("li.plan-day")).to_have_count(7)
    expect(page.locator("li.plan-day").first).to_have_class(re.compile("is-today"))
    add_meal(story, days[1], recipes["tamagoyaki"])
    add_meal(story, days[0], recipes["omelette"])
    add_meal(story, days[2], note=n["out"])
    add_meal(story, days[3], recipes["curry"])
    add_meal(story, days[4], recipes["salad"])
    taps, loads = story.done(f"plan five dinners ({locale}, js={javascript})")
    assert (taps, loads) == (1 + 5 * 3 + 1, 1 + 5), (taps, loads)
    # Each answer comes back to the page shown, at the day planned.
    # Back at the week from today, which is the plan's own address (kept offline), at the day added to.
    assert re.search(rf"/plan#day-{days[4].isoformat()}$", page.url), page.url

    # Date order, not the order planned: the first dinner has its eggs, the second is 2 short.
    expect(meal(page, days[0], n["omelette"]).locator(".plan-covered")).to_have_text(re.compile(re.escape(words(lang, "plan_covered"))))
    short = meal(page, days[1], n["tamagoyaki"]).locator(".plan-short")
    expect(short).to_contain_text(n["egg"])
    expect(short).to_contain_text("2")
    expect(meal(page, days[2], n["out"])).to_have_count(1)
    expect(meal(page, days[3], n["curry"]).locator(".plan-covered")).to_have_count(1)
    expect(page.locator(".plan-short")).to_have_count(1)
    if javascript:  # axe runs in the page: not without script
        no_axe_problems(page)
    screenshot(page, f"plan-{lang}-phone{'' if javascript else '-nojs'}")

    # What is missing for the days shown, onto the shopping list: 2 eggs, once.
    with page.expect_navigation():
        page.click("#plan-shopping button[type=submit]")
    expect(page.locator(".notice a")).to_have_text(words(lang, "plan_open_list"))
    assert db_rows(server, "SELECT i.name, i.quantity FROM item i JOIN folder f ON f.id = i.folder_id WHERE f.kind = 'shopping'") == [(n["egg"], 2.0)]
    with page.expect_navigation():
        page.click("#plan-shopping button[type=submit]")
    assert db_rows(server, "SELECT i.name, i.quantity FROM item i JOIN folder f ON f.id = i.folder_id WHERE f.kind = 'shopping'") == [(n["egg"], 2.0)]

    # Cook today's dinner from the plan: the cook page, Cook, back to the plan with Undo.
    with page.expect_navigation():
        meal(page, days[0], n["omelette"]).locator(".plan-actions a.button").click()
    assert re.search(r"/recipes/\d+/cook\?servings=2&meal=\d+$", page.url), page.url
    with page.expect_navigation():
        page.click("form.cook-go button.cook-button")
    assert re.search(r"/plan\?cooked=\d+#meal-\d+$", page.url), page.url
    expect(page.locator(".notice")).to_contain_text(words(lang, "plan_cooked_notice", name=n["omelette"]))
    expect(meal(page, days[0], n["omelette"]).locator(".plan-done")).to_have_text(re.compile(words(lang, "plan_cooked")))
    assert db_rows(server, "SELECT quantity FROM item WHERE name = ?", n["egg"])[0] == (2.0,)
    # Two eggs left for the second dinner: still 2 short.
    expect(meal(page, days[1], n["tamagoyaki"]).locator(".plan-short")).to_contain_text("2")

    with page.expect_navigation():
        page.click(".notice form button[type=submit]")
    expect(page.locator(".notice")).to_have_text(re.compile(re.escape(words(lang, "plan_undone"))))
    assert db_rows(server, "SELECT quantity FROM item WHERE name = ? AND folder_id IN (SELECT id FROM folder WHERE kind = 'stock')", n["egg"])[0] == (6.0,)
    expect(meal(page, days[0], n["omelette"]).locator(".plan-covered")).to_have_count(1)
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_refused_meal_keeps_what_was_typed_and_the_recipe_page_counts_the_plan(browser, server, locale):
    lang = locale[:2]
    n = NAMES[lang]
    context = browser.new_context(**PHONE, locale=locale, color_scheme="light")
    page = context.new_page()
    recipes = kitchen(page, server, lang)
    page.goto(f"{server.url}/plan")
    page.fill("#add-day", (today() + timedelta(days=2)).isoformat())
    page.select_option("#add-recipe", str(recipes["omelette"]))
    page.fill("#add-servings", "２００")
    page.fill("#add-note", "for the guests")
    with page.expect_navigation() as answer:
        page.click("#add button[type=submit]")
    assert answer.value.status == 422
    expect(page.locator("#add-servings-error")).to_have_text(words(lang, "plan_servings_invalid"))
    expect(page.locator("#add-servings")).to_have_value("２００")
    expect(page.locator("#add-servings")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#add-note")).to_have_value("for the guests")
    expect(page.locator("#add-recipe")).to_have_value(str(recipes["omelette"]))
    expect(page.locator("#add-day")).to_have_value((today() + timedelta(days=2)).isoformat())
    assert db_rows(server, "SELECT COUNT(*) FROM meal") == [(0,)]
    no_axe_problems(page)

    page.fill("#add-servings", "4")
    with page.expect_navigation():
        page.click("#add button[type=submit]")
    # Four servings of omelette reserve all 6 eggs... and 2 more are short.
    expect(page.locator(".plan-short")).to_contain_text("2")

    # The tamagoyaki's page counts the plan: no eggs free; ignoring the plan, 6.
    page.goto(f"{server.url}/recipes/{recipes['tamagoyaki']}")
    hint = page.locator(".plan-hint")
    expect(hint).to_contain_text(words(lang, "plan_reserved_hint"))
    expect(page.locator(".ingredient.standing-missing, .ingredient.standing-short")).to_have_count(1)
    with page.expect_navigation():
        hint.locator("a").click()
    expect(page.locator(".plan-hint")).to_contain_text(words(lang, "plan_ignored_hint"))
    expect(page.locator(".ingredient.standing-missing, .ingredient.standing-short")).to_have_count(0)

    # What can we make says so too, and ignoring the plan makes the tamagoyaki ready again.
    page.goto(f"{server.url}/recipes")
    expect(page.locator(".plan-hint")).to_contain_text(words(lang, "plan_reserved_hint"))
    card = page.locator(".recipe-card", has_text=n["tamagoyaki"])
    expect(card).not_to_have_class(re.compile(r"\bstate-ready\b"))
    with page.expect_navigation():
        page.locator(".plan-hint a").click()
    assert page.url.endswith("/recipes?plan=ignore"), page.url
    expect(page.locator(".recipe-card", has_text=n["tamagoyaki"])).to_have_class(re.compile(r"\bstate-ready\b"))
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_week_is_a_grid_on_a_desktop(browser, server, locale):
    lang = locale[:2]
    n = NAMES[lang]
    context = browser.new_context(**DESKTOP, locale=locale, color_scheme="light")
    page = context.new_page()
    recipes = kitchen(page, server, lang)
    page.goto(f"{server.url}/plan")
    for offset, key in ((0, "omelette"), (1, "tamagoyaki"), (3, "curry")):
        add_meal(Story(page), today() + timedelta(days=offset), recipes[key])
    days = page.locator("li.plan-day")
    tops = {round(days.nth(i).bounding_box()["y"]) for i in range(7)}
    assert len(tops) == 1, f"the seven days are not one row: {tops}"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 1280
    no_axe_problems(page)
    screenshot(page, f"plan-{lang}-desktop")

    # The calendar marks the days with meals; the chosen day lists them and leads to the plan.
    first = today()
    page.goto(f"{server.url}/calendar?day={first.isoformat()}")
    # Today, tomorrow and in three days have meals: those of this month are marked.
    expect(page.locator(".month-grid .cal-meal")).to_have_count(sum(1 for d in (0, 1, 3) if (first + timedelta(days=d)).month == first.month))
    expect(page.locator(".cal-meals li")).to_have_text([words(lang, "plan_feed_summary", slot=words(lang, "plan_slot_dinner"), name=n["omelette"])])
    no_axe_problems(page)
    screenshot(page, f"calendar-meals-{lang}-desktop")
    with page.expect_navigation():
        page.locator(".cal-day-items a", has_text=words(lang, "calendar_open_plan")).click()
    assert f"from={first.isoformat()}" in page.url

    # The calendar feed carries the plan unless the member leaves it out.
    page.goto(f"{server.url}/account")
    with page.expect_navigation():
        page.click("form[action='/account/calendar-feed'] button")
    meals = page.locator("form.feed-meals input[name=meals]")
    expect(meals).to_be_checked()
    screenshot(page.locator("#feed"), f"account-feed-meals-{lang}-desktop")
    meals.uncheck()
    with page.expect_navigation():
        page.click("form.feed-meals button")
    expect(page.locator("form.feed-meals input[name=meals]")).not_to_be_checked()
    assert db_rows(server, "SELECT meals FROM calendar_feed") == [(0,)]
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_dinner_of_yesterday_nobody_cooked_asks_what_became_of_it(browser, server, locale):
    lang = locale[:2]
    n = NAMES[lang]
    context = browser.new_context(**PHONE, locale=locale, color_scheme="light")
    page = context.new_page()
    recipes = kitchen(page, server, lang)
    yesterday = today() - timedelta(days=1)
    page.goto(f"{server.url}/plan?from={yesterday.isoformat()}")
    add_meal(Story(page), yesterday, recipes["omelette"])
    # The days from today on: yesterday's dinner is asked about first.
    page.goto(f"{server.url}/plan")
    earlier = page.locator(".plan-earlier")
    # Japanese has one form for every count.
    expect(earlier.locator("h2")).to_have_text(words(lang, "plan_earlier_heading_one" if lang == "en" else "plan_earlier_heading", count=1))
    expect(earlier.locator(".plan-meal-name")).to_have_text(n["omelette"])
    expect(earlier.locator(".plan-overdue")).to_have_text(words(lang, "plan_overdue"))
    no_axe_problems(page)
    screenshot(page, f"plan-earlier-{lang}-phone", full_page=False)
    # Not cooked: it is answered, and reserves nothing.
    with page.expect_navigation():
        earlier.locator("form[action$='/skip'] button").click()
    expect(page.locator(".plan-earlier")).to_have_count(0)
    assert db_rows(server, "SELECT done FROM meal") == [("skipped",)]
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_what_one_member_plans_shows_on_the_others_open_plan_with_what_it_leaves_short(server, make_page, locale):
    """Two phones on one plan: what Aki plans and removes shows up on Ken's open week without a
    reload, with the reservations it moves (the second egg dinner short, then covered again)."""
    lang = locale[:2]
    n = NAMES[lang]
    aki = make_page(PHONE, locale)
    recipes = kitchen(aki, server, lang)
    ken = make_page(PHONE, locale)
    join(ken, create_invitation(aki, server))
    tomorrow, after = today() + timedelta(days=1), today() + timedelta(days=2)

    # Both stay signed in past midnight (as "keep me signed in" does): the test moves the clock there.
    with sqlite3.connect(server.data_dir / "zaiko.sqlite", timeout=30) as db:
        db.execute("UPDATE session SET remember = 1, expires_at = '2099-01-01T00:00:00Z'")
    ken.goto(f"{server.url}/plan")
    expect(ken.locator("li.plan-meal")).to_have_count(0)
    expect(ken.locator(f"#day-{tomorrow.isoformat()}-empty")).to_have_count(1)
    loads = []
    ken.on("framenavigated", lambda frame: frame == ken.main_frame and loads.append(frame.url))

    aki.goto(f"{server.url}/plan")
    add_meal(Story(aki), after, recipes["tamagoyaki"])
    add_meal(Story(aki), tomorrow, recipes["omelette"])

    # On Ken's week: both dinners in their days, the later one short of 2 eggs (the omelette,
    # planned second but eaten first, reserves 4 of the 6).
    expect(meal(ken, tomorrow, n["omelette"]).locator(".plan-covered")).to_have_count(1)
    expect(meal(ken, after, n["tamagoyaki"]).locator(".plan-short")).to_contain_text(n["egg"])
    expect(ken.locator(f"#day-{tomorrow.isoformat()}-empty")).to_have_count(0)
    screenshot(ken, f"plan-live-{lang}-phone", full_page=False)

    # Aki removes the omelette: on Ken's week it goes, and the tamagoyaki is covered.
    omelette = meal(aki, tomorrow, n["omelette"])
    omelette.locator("details.plan-more > summary").click()
    with aki.expect_navigation():
        omelette.locator("form[action$='/delete'] button").click()
    expect(meal(ken, tomorrow, n["omelette"])).to_have_count(0)
    expect(ken.locator(f"#day-{tomorrow.isoformat()}-empty")).to_have_count(1)
    expect(meal(ken, after, n["tamagoyaki"]).locator(".plan-covered")).to_have_count(1)
    assert loads == [], f"Ken's page reloaded: {loads}"

    # Past midnight, Ken's open week is no longer the seven days from today: the next change is
    # not patched into the wrong days, the notice offers the new week instead.
    first_day = today()
    server.clock.set(datetime.combine(first_day + timedelta(days=1), time(0, 30), tzinfo=timezone.utc))
    tamagoyaki = meal(aki, after, n["tamagoyaki"])
    aki.goto(f"{server.url}/plan")
    tamagoyaki.locator("details.plan-more > summary").click()
    with aki.expect_navigation():
        tamagoyaki.locator("form[action$='/delete'] button").click()
    expect(ken.locator(".live-notice")).to_be_visible()
    expect(ken.locator("li.plan-day").first).to_have_id(f"day-{first_day.isoformat()}")
    expect(meal(ken, after, n["tamagoyaki"])).to_have_count(1)
    assert loads == [], f"Ken's page reloaded: {loads}"
    assert ken.console_errors == []
