"""The Household page ("what we use and waste"): a yogurt used up after its due date shows on the
waste charts and in the tables behind them; milk used from a row shows how many days the rest
lasts. At phone width in both languages (and 1280 px for the screenshots), with axe."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from conftest import DESKTOP, no_axe_problems, screenshot, setup_household, sign_in
from test_inventory import first_folder, register, row_action, row_selector, today

TEXTS = {
    "en": {"link": "Use and waste", "heading": "What we use and waste", "nothing": "Nothing wasted yet.", "table": "Show the figures as a table",
           "wasted": "1 item wasted in the last 12 months", "once": "once", "days_empty": "how many days the rest will last"},
    "ja": {"link": "使った・捨てた", "heading": "使ったもの・捨てたもの", "nothing": "まだ廃棄はありません。", "table": "数値を表で見る",
           "wasted": "直近12か月で1件を廃棄", "once": "1回", "days_empty": "残りがあと何日もつか"},
}


def step_down(page, name):
    """− on the row of `name`, as a person taps it."""
    row_action(page, f"{row_selector(name)} button.step[value='-1']")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_something_used_up_after_its_due_date_is_on_the_waste_charts(server, page_phone, make_page, locale):
    page, lang = page_phone, locale[:2]
    t = TEXTS[lang]
    setup_household(page, server)
    fridge = first_folder(page, server, "stock")

    # Before anything was used, each chart says what will appear there.
    page.goto(f"{server.url}/")
    with page.expect_navigation():
        page.get_by_role("link", name=t["link"]).click()
    expect(page.locator("h1")).to_have_text(t["heading"])
    expect(page.locator("#waste-month-heading + .empty")).to_contain_text(t["nothing"])
    expect(page.locator(".empty").nth(2)).to_contain_text(t["days_empty"])
    assert page.locator("svg.chart").count() == 0
    no_axe_problems(page)
    screenshot(page, f"household-empty-{lang}-phone")

    register(page, server, fridge, [
        {"name": "Yogurt", "quantity": 1, "due": today() - timedelta(days=1)},
        {"name": "Milk", "quantity": 4},
    ])
    page.goto(f"{server.url}/folders/{fridge}")
    # Two bottles of milk: used. The yogurt's last one, a day past its date: wasted.
    step_down(page, "Milk")
    step_down(page, "Milk")
    # The last one used asks what became of it (the used-up page): wait for that page before
    # leaving, or its navigation interrupts the next.
    with page.expect_navigation(url=re.compile(r"/items/\d+/empty")):
        page.locator(f"{row_selector('Yogurt')} button.step[value='-1']").click()

    page.goto(f"{server.url}/household")
    assert page.locator("svg.chart[role=img]").count() == 3
    waste = page.locator("svg[aria-labelledby='waste-month-title waste-month-desc']")
    expect(waste).to_be_visible()
    expect(page.locator("#waste-month-desc")).to_have_text(t["wasted"])
    # This month's column (the last) is the one with a bar, its value over it.
    assert waste.locator("rect.chart-bar").last.get_attribute("height") != "0"
    expect(waste.locator("text.chart-value")).to_have_text(["1"])
    top = page.locator("svg[aria-labelledby='top-wasted-title top-wasted-desc']")
    expect(top.locator("text.chart-name")).to_have_text(["Yogurt"])
    expect(top.locator("text.chart-value")).to_have_text([t["once"]])
    days = page.locator("svg[aria-labelledby='days-left-title days-left-desc']")
    expect(days.locator("text.chart-name")).to_contain_text(["Milk"])

    # The same figures as tables, behind "show as a table".
    section = page.locator("section[aria-labelledby=top-wasted-heading]")
    table = section.locator("details table")
    expect(table).to_be_hidden()
    section.locator("details summary").click()
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(table.locator("tbody th")).to_have_text("Yogurt")
    expect(table.locator("tbody td").first).to_have_text(t["once"])
    page.locator("section[aria-labelledby=waste-month-heading] details summary").click()
    page.locator("section[aria-labelledby=days-left-heading] details summary").click()
    expect(page.locator("section[aria-labelledby=days-left-heading] tbody th")).to_have_text(["Milk"])
    no_axe_problems(page)
    assert page.console_errors == []
    # Nothing is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, f"household-{lang}-phone")

    desktop = make_page(DESKTOP, locale)
    sign_in(desktop, server)
    desktop.goto(f"{server.url}/household")
    for summary in desktop.locator("details.chart-table summary").all():
        summary.click()
    no_axe_problems(desktop)
    screenshot(desktop, f"household-{lang}-desktop")
