"""Reading offline over HTTPS (the service worker, Public/sw.js): a stock list opened, the meal plan's
week opened, and every shopping list of the household, opened or not, open without a network with their thumbnails and the
banner "Offline — as of 14:05"; signing out, or another member signing in, drops every copy; and the
manifest with the worker makes Zaiko installable. Over HTTPS with the test CA trusted (conftest)."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from conftest import (DEFAULT_PASSWORD, fill_setup_form, new_phone_page, no_axe_problems, screenshot, setup_code,
                      sign_out, today)
from images import solid_photo
from recipes_support import add_recipe
from test_bulk import Story
from test_meal_plan import add_meal

BANNER = {"en-US": re.compile(r"^Offline — as of \d{1,2}:\d{2}\s?[AP]M$"), "ja-JP": re.compile(r"^オフライン — \d{1,2}:\d{2} 時点の内容$")}


def set_up(page, server):
    """The first-run setup over HTTPS (the session cookie is made there): lands on the folders page."""
    page.goto(server.https + "/setup")
    fill_setup_form(page, "Tanaka", "Aki", "aki", DEFAULT_PASSWORD, setup_code(server))
    assert page.url == server.https + "/"


def first_list(page, kind) -> str:
    """The path of the first stock (kind="stock") or shopping list on the folders page."""
    return page.locator(f"section[aria-labelledby={kind}-heading] .folder-card").first.get_attribute("href")


def add_item(page, server, folder: str, name: str, photo: Path | None = None, illustration: str | None = None):
    """One item through the editor; lands on its list."""
    page.goto(f"{server.https}/items/new?folder={folder.rsplit('/', 1)[1]}")
    page.fill('[name="d0.name"]', name)
    if photo:
        page.set_input_files("#f-d0-photo_file", str(photo))
    if illustration:
        page.locator(f'input[name="d0.picture"][value="illustration:{illustration}"]').evaluate("radio => { radio.checked = true; }")
    with page.expect_navigation():
        page.click("button[name=action][value=save]")
    assert page.url.split("?")[0] == server.https + folder


def kept_text(page, path: str) -> str | None:
    """The worker's copy of `path` as text, or None when it keeps none."""
    return page.evaluate("async (path) => { const copy = await caches.match(path); return copy ? copy.text() : null; }", path)


def wait_until_kept(page, path: str, containing: str):
    page.wait_for_function(
        "async ([path, text]) => { const copy = await caches.match(path); return !!copy && (await copy.text()).includes(text); }",
        arg=[path, containing])


def first_paint(page) -> float:
    """Milliseconds from the navigation's start to the page's first contentful paint (printed with
    -s: a figure to read, not asserted)."""
    page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
    return page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")


def thumbnail(page, name: str) -> tuple[str, bool]:
    """The address of the row's thumbnail, and whether the picture came (it loads lazily)."""
    row = page.locator("li.item-row", has=page.locator("a.item-name", has_text=name))
    image = row.locator("img.item-thumb")
    image.scroll_into_view_if_needed()
    loaded = image.evaluate("""img => img.complete ? img.naturalWidth > 0 : new Promise((resolve) => {
        img.addEventListener("load", () => resolve(img.naturalWidth > 0));
        img.addEventListener("error", () => resolve(false));
    })""")
    return image.get_attribute("src"), loaded


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_lists_open_offline_with_the_banner_until_sign_out(tls_server, trusting_browser, tmp_path, locale):
    page = new_phone_page(trusting_browser, locale)
    set_up(page, tls_server)
    stock, shopping = first_list(page, "stock"), first_list(page, "shopping")
    add_item(page, tls_server, stock, "Milk", photo=solid_photo(tmp_path / "milk.jpg", (30, 90, 200)))
    # Put on the shopping list, which is never opened in this browser after this.
    add_item(page, tls_server, shopping, "Tofu", illustration="tofu")
    page.goto(tls_server.https + "/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    wait_until_kept(page, shopping, "Tofu")
    page.goto(tls_server.https + stock)
    print(f"\nfirst contentful paint of the stock list from the network, online ({locale}): {first_paint(page):.0f} ms")
    wait_until_kept(page, stock, "Milk")
    banner = page.locator(".offline-banner")
    expect(banner).to_be_hidden()

    page.context.set_offline(True)
    page.reload()
    expect(banner).to_be_visible()
    expect(banner).to_have_text(BANNER[locale])
    expect(page.locator("a.item-name", has_text="Milk")).to_be_visible()
    source, loaded = thumbnail(page, "Milk")
    assert source.startswith("/photos/") and loaded
    print(f"first contentful paint of the stock list from the worker, offline ({locale}): {first_paint(page):.0f} ms")
    screenshot(page, f"offline-banner-{locale[:2]}-390", full_page=False)
    no_axe_problems(page)

    page.goto(tls_server.https + shopping)
    expect(banner).to_have_text(BANNER[locale])
    source, loaded = thumbnail(page, "Tofu")
    assert source.split("?v=")[0] == "/static/illustrations/tofu.svg" and loaded, source
    print(f"first contentful paint of the shopping list never opened, from the worker, offline ({locale}): {first_paint(page):.0f} ms")
    # A page it was never asked to keep is not there.
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(tls_server.https + "/calendar")

    page.context.set_offline(False)
    page.goto(tls_server.https + stock)
    expect(banner).to_be_hidden()
    sign_out(page)
    assert page.url.startswith(tls_server.https + "/login")
    assert page.evaluate("caches.keys()") == []
    page.context.set_offline(True)
    for path in (stock, shopping):
        # The worker that the sign-in page registered again has no copy to answer with.
        with pytest.raises(PlaywrightError, match=r"net::ERR_(FAILED|INTERNET_DISCONNECTED)"):
            page.goto(tls_server.https + path)


def test_another_member_signing_in_drops_the_first_members_copies(tls_server, trusting_browser):
    page = new_phone_page(trusting_browser)
    set_up(page, tls_server)
    # Ken joins, on a device of his own.
    page.goto(tls_server.https + "/settings")
    with page.expect_navigation():
        page.click("form[action='/settings/invitations#invite'] button[type=submit]")
    link = page.input_value("#invite-link")
    ken = new_phone_page(trusting_browser)
    ken.goto(link)
    for name, value in [("name", "Ken"), ("login", "ken"), ("password", "another long passphrase"),
                        ("password_confirm", "another long passphrase")]:
        ken.fill(f"input[name={name}]", value)
    with ken.expect_navigation():
        ken.click("main form button[type=submit]")
    ken.context.close()

    page.goto(tls_server.https + "/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    stock = first_list(page, "stock")
    page.goto(tls_server.https + stock)
    page.wait_for_function("async (path) => !!(await caches.match(path))", arg=stock)
    aki = page.evaluate("fetch('/offline/lists.json').then((answer) => answer.json()).then((index) => index.member)")
    # Aki's session ends without signing out (a browser session's cookie, say), and Ken signs in here.
    page.context.clear_cookies()
    page.goto(tls_server.https + "/login")
    page.fill("input[name=login]", "ken")
    page.fill("input[name=password]", "another long passphrase")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert page.url == tls_server.https + "/"
    # The worker reads whose index it has: Aki's copy of the list goes, and Ken's lists come.
    page.wait_for_function(
        "async (aki) => { const index = await caches.match('/offline/lists.json'); return !!index && (await index.json()).member !== aki; }",
        arg=aki)
    assert kept_text(page, stock) is None


def test_chromium_honours_the_sign_out_answers_clear_site_data(tls_server, trusting_browser):
    """Without app.js's own clearing (the form is sent by form.submit(), which fires no submit
    event): what the answer's header alone makes Chromium drop. Nothing else drops IndexedDB."""
    page = new_phone_page(trusting_browser)
    set_up(page, tls_server)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.evaluate("""new Promise((resolve, reject) => {
        const opening = indexedDB.open("zaiko-test");
        opening.onsuccess = () => { opening.result.close(); resolve(); };
        opening.onerror = reject;
    })""")
    assert [db["name"] for db in page.evaluate("indexedDB.databases()")] == ["zaiko-test"]
    page.goto(tls_server.https + "/account")
    with page.expect_navigation():
        page.locator("form[action='/logout']").first.evaluate("form => form.submit()")
    assert page.url.startswith(tls_server.https + "/login")
    assert page.evaluate("indexedDB.databases()") == []


def test_zaiko_is_installable_over_https(tls_server, trusting_browser):
    """Chromium's own verdict, and the criteria it no longer insists on itself (this Chromium finds
    nothing to object to in an SVG-only manifest or a worker without a fetch handler, where other
    browsers and older Chromium do): PNG icons of 192 and 512 px, a start address, a display mode,
    and a worker that answers this page's fetches."""
    page = new_phone_page(trusting_browser)
    set_up(page, tls_server)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then((answer) => answer.json())")
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert [icon["sizes"] for icon in pngs] == ["192x192", "512x512"]
    for icon in pngs:
        size = page.evaluate("(src) => fetch(src).then((answer) => answer.blob()).then(createImageBitmap).then((b) => `${b.width}x${b.height}`)",
                             icon["src"])
        assert size == icon["sizes"]
    # The page's own files come through the worker (Playwright marks what a worker answered).
    with page.expect_response(lambda answer: "/static/js/app.js" in answer.url) as script:
        page.reload()
    assert script.value.from_service_worker


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_weeks_plan_opened_at_home_opens_in_the_shop_without_a_network(tls_server, trusting_browser, locale):
    """What is for dinner this week, read in the shop: a meal planned at home (its answer is the
    plan's own address, /plan) is on the copy the phone opens offline, under the banner."""
    page = new_phone_page(trusting_browser, locale)
    set_up(page, tls_server)
    name = "カレー" if locale == "ja-JP" else "Curry"
    curry = add_recipe(tls_server, name, [("Rice", 300, "g")])
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.goto(tls_server.https + "/plan")
    add_meal(Story(page), today() + timedelta(days=2), curry)
    assert page.url.split("#")[0] == tls_server.https + "/plan"
    wait_until_kept(page, "/plan", name)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".offline-banner")).to_have_text(BANNER[locale])
    expect(page.locator("li.plan-meal .plan-meal-name")).to_have_text(name)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"offline-plan-{locale[:2]}-390", full_page=False)
    no_axe_problems(page)
