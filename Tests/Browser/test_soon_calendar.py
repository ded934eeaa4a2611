"""The use-soon page and the calendar end to end: groups in words, quick actions that come
back, month navigation with and without JavaScript, a day opening its items, both languages,
accessibility, and screenshots at phone and desktop width."""

from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, screenshot, setup_household, sign_in
from test_inventory import (click_nav, row_action, folder_ids, no_sideways_scroll, problems_here, register, row,
                            today, zaiko_demo)

DEVICES = {"phone": PHONE, "desktop": DESKTOP}
TEXTS = {
    "en": {"expired": "Expired", "today": "Due today", "soon": "Due within 3 days", "use_soon": "Use soon",
           "calendar": "Calendar", "this_month": "This month", "sun": "Sun", "fridge": "Fridge", "pantry": "Pantry",
           "empty": "All good"},
    "ja": {"expired": "期限切れ", "today": "今日まで", "soon": "3日以内", "use_soon": "早めに使う",
           "calendar": "カレンダー", "this_month": "今月", "sun": "日", "fridge": "冷蔵庫", "pantry": "パントリー",
           "empty": "大丈夫です"},
}


def month_of(day) -> str:
    return day.strftime("%Y-%m")


def add_months(day, n):
    index = day.year * 12 + day.month - 1 + n
    return day.replace(year=index // 12, month=index % 12 + 1, day=1)


def stock_household(page, server, lang):
    """A household with items expired, due today, due soon, later and undated, in two stock lists."""
    setup_household(page, server)
    ids = folder_ids(page, server)
    t = TEXTS[lang]
    register(page, server, ids[t["fridge"]], [{"name": "Old milk", "due": today() - timedelta(days=2)},
                                             {"name": "Natto", "due": today() + timedelta(days=2)},
                                             {"name": "Later cheese", "due": today() + timedelta(days=10)},
                                             {"name": "Rice"}])
    register(page, server, ids[t["pantry"]], [{"name": "Tofu", "due": today()}])
    return ids


def group_names(page, state):
    return page.locator(f"section.due-group-{state} li.item-row a.item-name").all_inner_texts()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_use_soon_groups_and_a_quick_action_comes_back(server, page_phone, locale):
    lang = locale[:2]
    t = TEXTS[lang]
    page = page_phone
    stock_household(page, server, lang)

    # The folders page links to it with the count, within the first screen of a phone.
    page.goto(server.url + "/")
    link = page.locator("a.shortcut[href='/soon']")
    expect(link).to_contain_text(f"{t['use_soon']} · 3")
    box = link.bounding_box()
    assert box["y"] + box["height"] <= PHONE["viewport"]["height"], box
    click_nav(page, "a.shortcut[href='/soon']")
    assert urlparse(page.url).path == "/soon"

    headings = page.locator("h2.group-heading .tag").all_inner_texts()
    assert headings == [t["expired"], t["today"], t["soon"]]
    assert group_names(page, "expired") == ["Old milk"]
    assert group_names(page, "today") == ["Tofu"]
    assert group_names(page, "soon") == ["Natto"]
    assert row(page, "Tofu").locator(".item-folder").inner_text().endswith(t["pantry"])
    no_sideways_scroll(page)

    # Mark opened: back on this page, the button gone.
    row_action(page, "li.item-row:has(a.item-name:text-is('Tofu')) button[formaction$='/opened']")
    assert urlparse(page.url).path == "/soon"
    assert row(page, "Tofu").locator("button[formaction$='/opened']").count() == 0

    # Delete, then Undo: back here each time, the item back in its group.
    row_action(page, "li.item-row:has(a.item-name:text-is('Natto')) button[formaction$='/delete']")
    assert urlparse(page.url).path == "/soon"
    assert group_names(page, "soon") == []
    row_action(page, ".row-live button[formaction='/trash/restore']")
    assert urlparse(page.url).path == "/soon"
    assert group_names(page, "soon") == ["Natto"]
    assert page.console_errors == []


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_calendar_steps_through_months_and_opens_a_day(server, page_phone, browser, locale, javascript):
    lang = locale[:2]
    t = TEXTS[lang]
    stock_household(page_phone, server, lang)
    context = browser.new_context(**PHONE, locale=locale, java_script_enabled=javascript, color_scheme="light")
    try:
        page = context.new_page()
        sign_in(page, server)
        click_nav(page, f".site-nav a[href='/calendar']")
        assert urlparse(page.url).path == "/calendar"
        title = page.locator("#month-title").inner_text()
        assert str(today().year) in title
        assert page.locator(".month-grid th").first.inner_text() == t["sun"]
        assert page.locator(".month-grid td.is-today").count() == 1
        no_sideways_scroll(page)

        this_month = month_of(today())
        click_nav(page, "a.month-step[rel=next]")
        assert parse_qs(urlparse(page.url).query)["month"] == [month_of(add_months(today(), 1))]
        assert page.locator("#month-title").inner_text() != title
        assert page.locator(".month-grid td.is-today").count() == 0
        click_nav(page, "a.month-step[rel=prev]")
        click_nav(page, "a.month-step[rel=prev]")
        assert parse_qs(urlparse(page.url).query)["month"] == [month_of(add_months(today(), -1))]
        click_nav(page, f"a.head-link:text-is('{t['this_month']}')")
        assert page.locator("#month-title").inner_text() == title

        # Today's cell counts Tofu; opening it lists Tofu with its folder and quick actions.
        cell = page.locator("td.is-today a.cal-cell")
        assert cell.locator(".cal-count").inner_text() == "1"
        click_nav(page, "td.is-today a.cal-cell")
        query = parse_qs(urlparse(page.url).query)
        assert query == {"month": [this_month], "day": [today().isoformat()]}
        assert page.locator(".cal-day-items li.item-row a.item-name").all_inner_texts() == ["Tofu"]
        assert page.locator("td.is-selected").count() == 1
        row_action(page, "li.item-row:has(a.item-name:text-is('Tofu')) button[value='1']")
        # Back on the same day (without JavaScript at the row, with its notice: `at`, `changed`).
        assert {k: v for k, v in parse_qs(urlparse(page.url).query).items() if k not in ("at", "changed")} == query
        assert row(page, "Tofu").locator(".qty").inner_text().startswith("2")
        no_sideways_scroll(page)
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_soon_and_calendar_accessible_and_clean(server, page_phone, locale):
    page = setup_household(page_phone, server)
    problems = []
    page.goto(server.url + "/soon")
    assert TEXTS[locale[:2]]["empty"] in page.locator("p.empty").inner_text()
    problems += problems_here(page, "use soon, empty")
    ids = folder_ids(page, server)
    fridge = list(ids.values())[0]
    register(page, server, fridge, [{"name": "Old milk", "due": today() - timedelta(days=1)},
                                    {"name": "Tofu", "due": today()},
                                    {"name": "Natto", "due": today() + timedelta(days=1)}])
    for path, label in [("/", "home"), ("/soon", "use soon"), ("/calendar", "calendar"),
                        (f"/calendar?day={today().isoformat()}", "calendar day"),
                        (f"/calendar?day={(today() - timedelta(days=1)).isoformat()}", "calendar expired day"),
                        (f"/calendar?month={month_of(add_months(today(), 2))}", "calendar empty month")]:
        page.console_errors.clear()
        response = page.goto(server.url + path)
        if response.status != 200:
            problems.append(f"{label}: status {response.status}")
        problems += problems_here(page, label)
        no_sideways_scroll(page)
    assert page.goto(server.url + "/calendar?month=2026-13").status == 404
    assert problems == []


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_screenshots_soon_and_calendar(server, make_page, locale):
    login, password = zaiko_demo(server, 150)
    lang = locale[:2]
    for device_name, device in DEVICES.items():
        page = make_page(device, locale)
        sign_in(page, server, login=login, password=password)
        tag = f"{lang}-{device_name}"

        def shot(name):
            no_sideways_scroll(page)
            screenshot(page, f"{name}-{tag}")

        shot("home-use-soon")
        page.goto(server.url + "/soon")
        shot("soon")
        page.goto(server.url + "/calendar")
        shot("calendar")
        # Today's items when there are any (the demo keeps Tokyo time), else the first day with items.
        day = page.locator("td.is-today a.cal-cell")
        with page.expect_navigation():
            (day if day.count() else page.locator("a.cal-cell").first).click()
        shot("calendar-day")
        page.goto(f"{server.url}/calendar?month={month_of(add_months(today(), 1))}")
        shot("calendar-next")
