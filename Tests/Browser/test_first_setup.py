"""First-run setup (issue 22, items 17 and 18): the household's time zone comes from the browser
(the server's own without JavaScript) and is shown on the setup page; the setup code is read as
people type it (any case, no dashes, full-width), and a malformed code says what is wrong with it
and keeps what was typed."""

import pytest
from playwright.sync_api import expect

from conftest import DEFAULT_PASSWORD, PHONE, screenshot, setup_code


def fill_everything_but_the_code(page, household="田中家", name="アキ", login="aki"):
    page.fill("input[name=household]", household)
    page.fill("input[name=name]", name)
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", DEFAULT_PASSWORD)
    page.fill("input[name=password_confirm]", DEFAULT_PASSWORD)


def submit(page):
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def settings_zone(page, server) -> str:
    page.goto(server.url + "/settings")
    return page.locator("select[name=time_zone]").input_value()


def test_the_household_takes_the_browsers_time_zone(server, browser):
    context = browser.new_context(**PHONE, locale="ja-JP", timezone_id="Asia/Tokyo", color_scheme="light")
    try:
        page = context.new_page()
        page.goto(server.url + "/setup")
        # Shown before anything is created, and changeable: the browser's zone is chosen.
        zone = page.locator("select[name=time_zone]")
        expect(zone).to_be_visible()
        expect(zone).to_have_value("Asia/Tokyo")
        fill_everything_but_the_code(page)
        page.fill("input[name=setup_code]", setup_code(server))
        screenshot(page, "setup-time-zone-ja-phone")
        submit(page)
        assert page.url == server.url + "/"
        assert settings_zone(page, server) == "Asia/Tokyo"
    finally:
        context.close()


def test_without_javascript_the_household_takes_the_servers_zone(make_server, browser, monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    server = make_server()
    # The browser's own zone differs: only a script could read it, and there is none.
    context = browser.new_context(**PHONE, locale="ja-JP", timezone_id="America/New_York", java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.url + "/setup")
        expect(page.locator("select[name=time_zone]")).to_have_value("Asia/Tokyo")
        fill_everything_but_the_code(page)
        page.fill("input[name=setup_code]", setup_code(server))
        submit(page)
        assert page.url == server.url + "/"
        assert settings_zone(page, server) == "Asia/Tokyo"
    finally:
        context.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_the_code_as_people_type_it_in_japanese_on_a_phone(server, browser, javascript):
    context = browser.new_context(**PHONE, locale="ja-JP", java_script_enabled=javascript, color_scheme="light")
    try:
        page = context.new_page()
        page.goto(server.url + "/setup")
        printed = setup_code(server)  # "ABCD-EFGH-JKMN"
        fill_everything_but_the_code(page)
        # Too short: said as such, not "not the code the server printed"; the rest is kept.
        page.fill("input[name=setup_code]", printed.lower().replace("-", "")[:8])
        submit(page)
        error = page.locator("#f-setup_code-error")
        expect(error).to_contain_text("文字数が合いません")
        expect(page.locator("input[name=household]")).to_have_value("田中家")
        expect(page.locator("input[name=name]")).to_have_value("アキ")
        expect(page.locator("input[name=login]")).to_have_value("aki")
        expect(page.locator("input[name=setup_code]")).to_have_value(printed.lower().replace("-", "")[:8])
        # A letter the code never has (O, 0, I, 1, L).
        page.fill("input[name=setup_code]", "O" + printed.replace("-", "")[1:])
        page.fill("input[name=password]", DEFAULT_PASSWORD)
        page.fill("input[name=password_confirm]", DEFAULT_PASSWORD)
        submit(page)
        expect(error).to_contain_text("0・1・I・L・O は使いません")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, f"setup-code-malformed-ja-phone-{'js' if javascript else 'nojs'}")
        # Lower case, spaces instead of dashes, and full-width: all read as the printed code.
        typed = printed.lower().replace("-", " ")
        full_width = "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in typed)
        page.fill("input[name=setup_code]", full_width)
        page.fill("input[name=password]", DEFAULT_PASSWORD)
        page.fill("input[name=password_confirm]", DEFAULT_PASSWORD)
        submit(page)
        assert page.url == server.url + "/"
        expect(page.locator("h1")).to_have_text("田中家")
    finally:
        context.close()
