"""Foundation checks: the first-run setup page and the 404 page render, localise,
style, and stay clean. A fresh server (no household yet) sends every page to /setup."""

import pytest

from conftest import PHONE, no_axe_problems, screenshot, setup_household

HEADINGS = {"en-US": ("en", "Set up your household"), "ja-JP": ("ja", "世帯をセットアップ")}
LIGHT_BG = "rgb(246, 245, 241)"  # --bg #f6f5f1 in app.css (light mode)


def check_setup_page(page, server, locale, width):
    lang, heading = HEADINGS[locale]
    response = page.goto(server.url + "/")
    assert response.status == 200
    assert page.url == server.url + "/setup"  # redirected: no household yet
    assert page.get_attribute("html", "lang") == lang
    assert page.locator("h1").inner_text() == heading
    # The stylesheet applied: body has the app's background, not the default transparent.
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == LIGHT_BG
    # Nothing wider than the viewport (no sideways scrolling on a phone).
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_setup_page_phone(server, page_phone, locale):
    check_setup_page(page_phone, server, locale, 390)
    screenshot(page_phone, f"setup-{locale[:2]}-phone")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_setup_page_desktop(server, page_desktop, locale):
    check_setup_page(page_desktop, server, locale, 1280)
    screenshot(page_desktop, f"setup-{locale[:2]}-desktop")


@pytest.mark.parametrize("locale", ["ja-JP"])
def test_404_japanese(server, page_phone):
    response = page_phone.goto(server.url + "/no/such/page")
    assert response.status == 404
    assert page_phone.get_attribute("html", "lang") == "ja"
    assert page_phone.locator("h1").inner_text() == "ページが見つかりません"
    screenshot(page_phone, "error404-ja-phone")


def test_404_after_setup(server, page_phone, make_page):
    # Unknown paths are 404 whether signed in or not (never a redirect to /login).
    setup_household(page_phone, server)
    signed_out = make_page(PHONE, "en-US")
    for page in (page_phone, signed_out):
        response = page.goto(server.url + "/no/such/page")
        assert response.status == 404
        assert page.url == server.url + "/no/such/page"
        assert page.locator("h1").inner_text() == "Page not found"


@pytest.mark.parametrize("path", ["/setup", "/no/such/page"])
def test_no_console_errors_or_csp_violations(server, page_phone, path):
    page_phone.goto(server.url + path)
    page_phone.wait_for_load_state("networkidle")  # let icon/manifest loads report
    # Chromium logs the 404 document itself as a failed load; only that one is expected.
    expected_404 = f"status of 404 (Not Found) [{server.url}{path}]"
    errors = [e for e in page_phone.console_errors if not e.endswith(expected_404)]
    assert errors == []


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("path", ["/setup", "/no/such/page"])
def test_axe_no_serious_violations(server, page_phone, path):
    page_phone.goto(server.url + path)
    no_axe_problems(page_phone)
