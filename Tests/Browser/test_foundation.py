"""Foundation checks: welcome and 404 pages render, localise, style, and stay clean."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import screenshot

HEADINGS = {"en-US": ("en", "Zaiko is running"), "ja-JP": ("ja", "在庫が起動しています")}
LIGHT_BG = "rgb(246, 245, 241)"  # --bg #f6f5f1 in app.css (light mode)


def check_welcome(page, server, locale, width):
    lang, heading = HEADINGS[locale]
    response = page.goto(server.url + "/")
    assert response.status == 200
    assert page.get_attribute("html", "lang") == lang
    assert page.locator("h1").inner_text() == heading
    # The stylesheet applied: body has the app's background, not the default transparent.
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == LIGHT_BG
    # Nothing wider than the viewport (no sideways scrolling on a phone).
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_welcome_phone(server, page_phone, locale):
    check_welcome(page_phone, server, locale, 390)
    screenshot(page_phone, f"welcome-{locale[:2]}-phone")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_welcome_desktop(server, page_desktop, locale):
    check_welcome(page_desktop, server, locale, 1280)
    screenshot(page_desktop, f"welcome-{locale[:2]}-desktop")


@pytest.mark.parametrize("locale", ["ja-JP"])
def test_404_japanese(server, page_phone):
    response = page_phone.goto(server.url + "/no/such/page")
    assert response.status == 404
    assert page_phone.get_attribute("html", "lang") == "ja"
    assert page_phone.locator("h1").inner_text() == "ページが見つかりません"
    screenshot(page_phone, "error404-ja-phone")


@pytest.mark.parametrize("path", ["/", "/no/such/page"])
def test_no_console_errors_or_csp_violations(server, page_phone, path):
    page_phone.goto(server.url + path)
    page_phone.wait_for_load_state("networkidle")  # let icon/manifest loads report
    # Chromium logs the 404 document itself as a failed load; only that one is expected.
    expected_404 = f"status of 404 (Not Found) [{server.url}{path}]"
    errors = [e for e in page_phone.console_errors if path == "/" or not e.endswith(expected_404)]
    assert errors == []


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("path", ["/", "/no/such/page"])
def test_axe_no_serious_violations(server, page_phone, path):
    page_phone.goto(server.url + path)
    # axe.min.js ships inside the axe-playwright-python wheel: no network needed.
    results = Axe().run(page_phone)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == [], results.generate_report()
