"""Accounts end to end: first-run setup, signing in and out, invitations, roles,
the account page, and accessibility of every signed-in page."""

import pytest

from conftest import (DEFAULT_PASSWORD, DESKTOP, PHONE, axe_problems, create_invitation, fill_setup_form, join, screenshot,
                      setup_code, setup_household, sign_in, sign_out)

FOLDERS = {"en-US": ["Fridge", "Freezer", "Pantry", "Supermarket"],
           "ja-JP": ["冷蔵庫", "冷凍庫", "パントリー", "スーパー"]}
KEN_PASSWORD = "another long passphrase"


def folder_names(page):
    return page.locator(".folder-name").all_inner_texts()


def nav_links(page):
    return page.locator(".site-nav a").all_inner_texts()


def no_sideways_scroll(page):
    width = page.viewport_size["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


def submit(page):
    """Click the main form's submit button; returns the response landed on."""
    with page.expect_navigation() as nav:
        page.click("main form button[type=submit]")
    return nav.value


def submit_form(page, action):
    """Submit the form posting to `action` (pages with several forms)."""
    with page.expect_navigation() as nav:
        page.click(f"form[action='{action}'] button[type=submit]")
    return nav.value


def member_row(page, login):
    # Each member row shows "<login> · <role>" under the name.
    return page.locator("li.member", has=page.locator(".hint", has_text=f"{login} ·"))


def change_role(owner, server, login, role):
    owner.goto(server.url + "/settings")
    row = member_row(owner, login)
    row.locator("select[name=role]").select_option(role)
    with owner.expect_navigation():
        row.locator("form[action$='/role#members'] button[type=submit]").click()
    assert member_row(owner, login).locator("select[name=role]").input_value() == role


def test_first_run_setup_english(server, page_phone, make_page):
    page = page_phone
    page.goto(server.url + "/setup")
    code = setup_code(server)

    # A wrong code: the same form again, the error beside the field, typed values kept.
    page.fill("input[name=household]", "Tanaka")
    page.fill("input[name=name]", "Aki")
    page.fill("input[name=login]", "aki")
    page.fill("input[name=password]", "correct horse battery")
    page.fill("input[name=password_confirm]", "correct horse battery")
    page.fill("input[name=setup_code]", "AAAA-BBBB-CCCC")
    response = submit(page)
    assert response.status == 422
    assert page.url == server.url + "/setup"
    error = page.locator("#f-setup_code-error")
    assert error.is_visible()
    assert "not the code the server printed" in error.inner_text()
    assert page.get_attribute("#f-setup_code", "aria-invalid") == "true"
    assert page.input_value("input[name=household]") == "Tanaka"
    assert page.input_value("input[name=login]") == "aki"
    assert page.input_value("input[name=password]") == ""  # passwords are never echoed
    no_sideways_scroll(page)
    screenshot(page, "setup-error-en-phone")

    # A common password is refused even with the right code.
    fill_setup_form(page, "Tanaka", "Aki", "aki", "password123", code)
    assert page.url == server.url + "/setup"
    assert page.locator("#f-password-error").is_visible()
    assert page.locator("#f-setup_code-error").count() == 0

    # The right code: signed in at home with the starter folders.
    fill_setup_form(page, "Tanaka", "Aki", "aki", "correct horse battery", code)
    assert page.url == server.url + "/"
    assert page.locator("h1").inner_text() == "Tanaka"
    assert folder_names(page) == FOLDERS["en-US"]
    assert nav_links(page) == ["Folders", "Calendar", "Recipes", "Plan", "Settings", "Aki"]
    no_sideways_scroll(page)
    screenshot(page, "home-en-phone")

    # Setup happens once.
    assert page.goto(server.url + "/setup").status == 404

    desktop = make_page(DESKTOP, "en-US")
    sign_in(desktop, server)
    assert desktop.url == server.url + "/"
    assert folder_names(desktop) == FOLDERS["en-US"]
    screenshot(desktop, "home-en-desktop")


@pytest.mark.parametrize("locale", ["ja-JP"])
def test_first_run_setup_japanese(server, page_phone):
    setup_household(page_phone, server, household="田中家", name="亜紀")
    assert page_phone.get_attribute("html", "lang") == "ja"
    assert folder_names(page_phone) == FOLDERS["ja-JP"]
    assert nav_links(page_phone) == ["フォルダ", "カレンダー", "レシピ", "献立", "設定", "亜紀"]
    assert page_phone.locator(".site-nav form[action='/logout'] button").text_content() == "ログアウト"
    no_sideways_scroll(page_phone)
    screenshot(page_phone, "home-ja-phone")


def test_login_and_logout(server, page_phone, make_page):
    page = setup_household(page_phone, server)
    sign_out(page)
    assert page.url == server.url + "/login"
    assert page.locator(".site-nav").count() == 0
    screenshot(page, "login-en-phone")

    # Signed out, the home page sends you to the login form.
    page.goto(server.url + "/")
    assert page.url.startswith(server.url + "/login")

    page.fill("input[name=login]", "aki")
    page.fill("input[name=password]", "wrong horse battery")
    response = submit(page)
    assert response.status == 422
    assert page.locator(".form-error").inner_text().endswith("The login or the password is wrong.")
    assert page.input_value("input[name=login]") == "aki"

    response = sign_in(page, server)
    assert response.status == 200
    assert page.url == server.url + "/"
    assert page.locator("h1").inner_text() == "Tanaka"

    # The same in Japanese, in another browser.
    ja = make_page(PHONE, "ja-JP")
    response = sign_in(ja, server, password="wrong horse battery")
    assert response.status == 422
    assert ja.locator(".form-error").inner_text().endswith("ログインIDまたはパスワードが違います。")
    no_sideways_scroll(ja)
    screenshot(ja, "login-error-ja-phone")
    sign_in(ja, server)
    assert ja.url == server.url + "/"
    assert ja.locator(".site-nav form[action='/logout'] button").text_content() == "ログアウト"


def test_invitation_in_second_browser(server, page_phone, make_page):
    owner = setup_household(page_phone, server)
    link = create_invitation(owner, server, role="member")
    assert link.startswith(server.url + "/join/")
    # The link is in the page that answered the POST, not in its address (history keeps those),
    # and the settings page does not show it again.
    token = link[len(server.url + "/join/"):]
    assert token not in owner.url
    assert owner.url == server.url + "/settings#invite"  # app.js: a reload is a GET that shows no link
    # The long link must not push the page sideways on a phone.
    no_sideways_scroll(owner)
    screenshot(owner, "settings-en-phone")

    guest = make_page(PHONE, "en-US")
    guest.goto(link)
    assert guest.locator("h1").inner_text() == "Join Tanaka"
    assert "member" in guest.locator(".intro").inner_text()
    no_sideways_scroll(guest)
    screenshot(guest, "join-en-phone")
    response = join(guest, link, name="Ken", login="ken", password=KEN_PASSWORD)
    assert response.status == 200
    assert guest.url == server.url + "/"
    assert guest.locator("h1").inner_text() == "Tanaka"
    assert nav_links(guest) == ["Folders", "Calendar", "Recipes", "Plan", "Ken"]  # no Settings for a member
    assert guest.goto(server.url + "/settings").status == 403

    # A link works once, even for the browser that used it.
    response = guest.goto(link)
    assert response.status == 404
    assert guest.locator("h1").inner_text() == "This link no longer works"

    owner.goto(server.url + "/settings")
    assert owner.locator("#invite-link").count() == 0
    assert token not in owner.content()

    # The owner sees the new member, on a computer too.
    desktop = make_page(DESKTOP, "en-US")
    sign_in(desktop, server)
    desktop.goto(server.url + "/settings")
    assert member_row(desktop, "ken").locator("strong").inner_text() == "Ken"
    assert member_row(desktop, "ken").locator("select[name=role]").input_value() == "member"
    screenshot(desktop, "settings-en-desktop")


def test_role_change_takes_effect(server, page_phone, make_page):
    owner = setup_household(page_phone, server)
    ken = make_page(PHONE, "en-US")
    join(ken, create_invitation(owner, server, role="member"), password=KEN_PASSWORD)
    assert "Settings" not in nav_links(ken)

    change_role(owner, server, "ken", "owner")
    ken.reload()
    assert "Settings" in nav_links(ken)
    assert ken.goto(server.url + "/settings").status == 200
    assert member_row(ken, "aki").count() == 1

    change_role(owner, server, "ken", "viewer")
    ken.goto(server.url + "/")
    assert "Settings" not in nav_links(ken)
    assert ken.goto(server.url + "/settings").status == 403


def test_account_page(server, page_phone, make_page):
    page = setup_household(page_phone, server)
    page.goto(server.url + "/account")
    assert page.locator("h1").inner_text() == "Your account"
    assert page.locator(".device .badge").inner_text() == "this device"
    no_sideways_scroll(page)
    screenshot(page, "account-en-phone")

    page.fill("#f-name", "Aki Tanaka")
    response = submit_form(page, "/account/profile")
    assert response.status == 200
    assert page.locator(".notice").inner_text().endswith("Saved.")
    assert page.locator(".site-nav a[href='/account']").inner_text() == "Aki Tanaka"
    assert page.input_value("#f-name") == "Aki Tanaka"

    # A Japanese browser: the page follows it (language is "same as the browser").
    ja = make_page(DESKTOP, "ja-JP")
    sign_in(ja, server)
    ja.goto(server.url + "/account")
    assert ja.get_attribute("html", "lang") == "ja"
    assert ja.locator(".site-nav a[href='/account']").inner_text() == "Aki Tanaka"
    assert ja.locator(".device").count() == 2  # the phone and this computer
    screenshot(ja, "account-ja-desktop")

    # Choosing a language overrides the browser's.
    page.select_option("#f-language", "ja")
    submit_form(page, "/account/profile")
    assert page.get_attribute("html", "lang") == "ja"
    assert page.locator(".site-nav form[action='/logout'] button").text_content() == "ログアウト"


def check_clean(page, server, path, label):
    """Load `path`; return a list of problems (axe serious/critical, console, CSP)."""
    page.console_errors.clear()
    response = page.goto(server.url + path)
    problems = [f"{label}: status {response.status}"] if response.status != 200 else []
    return problems + check_shown(page, label)


def check_shown(page, label):
    """The problems of the page as it is now (one that answered a POST cannot be loaded again)."""
    page.wait_for_load_state("networkidle")
    problems = [f"{label}: console: {e}" for e in page.console_errors]
    return problems + axe_problems(page, label)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_accounts_pages_accessible_and_clean(server, page_phone, make_page, locale):
    signed_out = make_page(PHONE, locale)
    problems = check_clean(signed_out, server, "/setup", "setup")
    owner = setup_household(page_phone, server)
    problems += check_clean(signed_out, server, "/login", "login")
    for path in ("/", "/settings", "/account"):
        problems += check_clean(owner, server, path, path)
    owner.console_errors.clear()
    link = create_invitation(owner, server)
    # The settings page showing the fresh link and the pending invitation.
    problems += check_shown(owner, "settings+link")
    problems += check_clean(signed_out, server, link[len(server.url):], "join")
    assert problems == []


@pytest.mark.parametrize("locale,message", [("en-US", "Too many attempts."), ("ja-JP", "試行回数が多すぎます。")])
def test_the_setup_code_is_limited(server, make_page, locale, message):
    page = make_page(PHONE, locale)
    page.goto(server.url + "/setup")
    code = setup_code(server)
    statuses = []
    for _ in range(11):
        page.fill("input[name=household]", "Tanaka")
        page.fill("input[name=name]", "Aki")
        page.fill("input[name=login]", "aki")
        page.fill("input[name=password]", DEFAULT_PASSWORD)
        page.fill("input[name=password_confirm]", DEFAULT_PASSWORD)
        page.fill("input[name=setup_code]", "AAAA-BBBB-CCCC")
        statuses.append(submit(page).status)
    # Ten wrong codes are answered as wrong; then the server makes the guesser wait.
    assert statuses == [422] * 10 + [429]
    error = page.locator("#f-setup_code-error")
    assert message in error.inner_text()
    assert page.get_attribute("#f-setup_code", "aria-invalid") == "true"
    assert page.input_value("input[name=household]") == "Tanaka"
    # While it waits, even the right code is not taken.
    fill_setup_form(page, "Tanaka", "Aki", "aki", DEFAULT_PASSWORD, code)
    assert page.url == server.url + "/setup"
    assert message in page.locator("#f-setup_code-error").inner_text()
    no_sideways_scroll(page)
    screenshot(page, f"setup-throttled-{locale}-phone")
