"""Settings at phone width in both languages (issue 11): the household's time zone survives a save
of its name; a form that fails comes back scrolled to itself with the error in view and what was
typed kept; Members and Invite come first; secret addresses live only in the answer to their POST;
a push server's failure is told in the member's words with the raw detail on a smaller second line."""

import json
import socket
import sqlite3

import pytest

from conftest import DESKTOP, PHONE, REPO_ROOT, join, no_axe_problems, screenshot, setup_household, sign_in

LOCALES = ["en-US", "ja-JP"]
# The forms by what they post to (with or without the #anchor the page lands on).
HOUSEHOLD_FORM = "form[action^='/settings/household']"
PUSH_FORM = "form[action='/settings/push'], form[action='/settings/push#push']"
PUSH_TEST_FORM = "form[action^='/settings/push/test']"
INVITE_FORM = "form.row-form[action^='/settings/invitations']"
CATALOGS = {locale: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text())
            for locale, code in (("en-US", "en"), ("ja-JP", "ja"))}


def tag(locale):
    return "en" if locale == "en-US" else "ja"


def submit(page, form):
    """Click the submit button of `form` (a selector); returns the response landed on."""
    with page.expect_navigation() as nav:
        page.locator(form).locator("button[type=submit]").click()
    page.wait_for_load_state()
    return nav.value


def household_time_zone(server) -> str:
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        return db.execute("SELECT time_zone FROM household").fetchone()[0]


def no_sideways_scroll(page):
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]


def in_viewport(page, selector):
    """Waits (a give-up, not a timing assertion) until the element lies wholly inside the viewport."""
    page.wait_for_function(
        """(selector) => { const e = document.querySelector(selector); if (!e) return false;
             const r = e.getBoundingClientRect();
             return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""",
        arg=selector, timeout=30_000)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_utc_household_keeps_its_time_zone_when_its_name_is_saved(server, make_page, locale):
    page = make_page(PHONE, locale)
    setup_household(page, server)
    assert household_time_zone(server) == "UTC"  # every new household starts in UTC
    page.goto(server.url + "/settings")
    assert page.input_value("#f-time_zone") == "UTC"
    # Every zone the server knows is offered, UTC among them.
    zones = page.locator("#f-time_zone option").evaluate_all("options => options.map(o => o.value)")
    assert "UTC" in zones and "Asia/Tokyo" in zones and "Africa/Abidjan" in zones
    page.fill("#f-household", "Tanaka family")
    submit(page, HOUSEHOLD_FORM)
    assert household_time_zone(server) == "UTC"
    page.goto(server.url + "/settings")
    assert page.input_value("#f-household") == "Tanaka family"
    assert page.input_value("#f-time_zone") == "UTC"

    # A zone chosen on purpose is kept across another save of the name too.
    page.select_option("#f-time_zone", "Asia/Tokyo")
    submit(page, HOUSEHOLD_FORM)
    page.fill("#f-household", "Tanaka")
    submit(page, HOUSEHOLD_FORM)
    assert household_time_zone(server) == "Asia/Tokyo"
    assert page.input_value("#f-time_zone") == "Asia/Tokyo"


@pytest.mark.parametrize("locale", LOCALES)
def test_members_and_invite_come_first(server, make_page, locale):
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/settings")
    order = page.locator("main section.card").evaluate_all("sections => sections.map(s => s.id)")
    assert order[:2] == ["members", "invite"], order
    assert order.index("household") > 1 and order.index("push") > 1
    no_sideways_scroll(page)
    no_axe_problems(page)
    screenshot(page, f"settings-order-phone-{tag(locale)}")
    desktop = make_page(DESKTOP, locale)
    sign_in(desktop, server)
    desktop.goto(server.url + "/settings")
    screenshot(desktop, f"settings-order-desktop-{tag(locale)}")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_failing_form_comes_back_with_its_error_in_view(server, make_page, locale):
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, server)

    # Household: a wrong number of days; the name typed beside it is kept.
    page.goto(server.url + "/settings")
    page.fill("#f-household", "Tanaka family")
    page.fill("#f-due_soon_days", "99")
    response = submit(page, HOUSEHOLD_FORM)
    assert response.status == 422
    in_viewport(page, "#f-due_soon_days-error")
    assert t["due_soon_invalid"] in page.inner_text("#f-due_soon_days-error")
    assert page.input_value("#f-household") == "Tanaka family"
    assert page.input_value("#f-due_soon_days") == "99"
    zone_after_refusal = page.input_value("#f-time_zone")
    no_axe_problems(page)
    screenshot(page, f"settings-household-error-phone-{tag(locale)}")

    # Push: an address that is not a web address; the topic typed is kept.
    page.goto(server.url + "/settings")
    page.fill("#f-url", "ftp://ntfy.example")
    page.fill("#f-topic", "tanaka-fridge")
    page.select_option("#f-digest_hour", "7")
    response = submit(page, PUSH_FORM)
    assert response.status == 422
    in_viewport(page, "#f-url-error")
    assert t["push_url_invalid"] in page.inner_text("#f-url-error")
    assert page.input_value("#f-topic") == "tanaka-fridge"
    assert page.input_value("#f-digest_hour") == "7"
    screenshot(page, f"settings-push-error-phone-{tag(locale)}")

    # Invitation: a role that does not exist (as a tampered form would send).
    page.goto(server.url + "/settings")
    page.eval_on_selector("#invite-role", "s => { s.options[0].value = 'emperor'; s.selectedIndex = 0; }")
    response = submit(page, INVITE_FORM)
    assert response.status == 422
    in_viewport(page, "main .form-error")
    assert t["role_invalid"] in page.inner_text("main .form-error")
    screenshot(page, f"settings-invite-error-phone-{tag(locale)}")
    # The refused household form still had the zone it was sent with.
    assert zone_after_refusal == "UTC"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_new_invitation_link_is_only_in_the_answer_to_its_post(server, make_page, locale):
    owner = make_page(PHONE, locale)
    setup_household(owner, server)
    owner.goto(server.url + "/settings")
    response = submit(owner, INVITE_FORM)
    assert response.status == 200
    assert "no-store" in response.headers.get("cache-control", "")
    link = owner.input_value("#invite-link")
    token = link.rsplit("/", 1)[-1]
    assert link.startswith(server.url + "/join/") and len(token) > 10
    assert token not in owner.url and "/join/" not in owner.url
    in_viewport(owner, "#invite-link")
    no_axe_problems(owner)
    screenshot(owner, f"settings-invite-link-phone-{tag(locale)}")

    # A reload asks the server with GET, and the link is not shown again (nor a new one made).
    owner.reload()
    owner.wait_for_load_state()
    assert owner.locator("#invite-link").count() == 0
    assert token not in owner.content()
    assert owner.locator("#invite li.member").count() == 1  # one pending invitation, not two

    # The link shown works.
    guest = make_page(PHONE, locale)
    assert join(guest, link).status == 200
    assert guest.url == server.url + "/"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_new_calendar_feed_address_is_only_in_the_answer_to_its_post(server, make_page, locale):
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/account")
    with page.expect_navigation() as nav:
        page.click("form[action='/account/calendar-feed'] button[type=submit]")
    assert nav.value.status == 200
    assert "no-store" in nav.value.headers.get("cache-control", "")
    web = page.input_value("#feed-web")
    token = web.rsplit("/", 1)[-1].removesuffix(".ics")
    assert token not in page.url
    assert page.request.get(web).status == 200  # the address shown works
    no_axe_problems(page)
    screenshot(page, f"settings-feed-new-phone-{tag(locale)}")
    page.reload()
    page.wait_for_load_state()
    assert page.locator("#feed-web").count() == 0
    assert token not in page.content()
    assert page.request.get(web).status == 200  # the reload made no new address


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refused_connection_is_explained_with_the_detail_below(make_server, make_page, locale):
    server = make_server("--allow-private-outbound")
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/settings")
    page.fill("#f-url", f"http://127.0.0.1:{closed_port()}")
    page.fill("#f-topic", "tanaka-fridge")
    submit(page, PUSH_FORM)
    submit(page, PUSH_TEST_FORM)
    result = page.locator("#push .push-result")
    assert t["push_error_connection_failed"] in result.locator(".push-explained").inner_text()
    detail = result.locator(".push-detail")
    assert "connection_failed" in detail.inner_text()
    # The sentence leads; the raw detail is a smaller, secondary line.
    sizes = page.evaluate("""() => [...document.querySelectorAll('#push .push-result .push-explained, #push .push-result .push-detail')]
                              .map(e => parseFloat(getComputedStyle(e).fontSize))""")
    assert sizes[1] < sizes[0]
    # The status line says the same in the same words.
    assert t["push_error_connection_failed"] in page.inner_text("#push .push-status")
    in_viewport(page, "#push .push-result")
    no_sideways_scroll(page)
    no_axe_problems(page)
    screenshot(page, f"settings-push-connection-failed-phone-{tag(locale)}")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refused_private_address_is_explained(server, make_page, locale):
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/settings")
    page.fill("#f-url", f"http://127.0.0.1:{closed_port()}")
    page.fill("#f-topic", "tanaka-fridge")
    submit(page, PUSH_FORM)
    submit(page, PUSH_TEST_FORM)
    result = page.locator("#push .push-result")
    assert t["push_error_refused_address"] in result.locator(".push-explained").inner_text()
    assert "refused_address" in result.locator(".push-detail").inner_text()
    assert "127.0.0.1" not in result.inner_text()


def test_without_javascript_a_failing_form_still_lands_in_view(server, browser, make_page):
    """The #anchor in the form's action does the scrolling: no script needed."""
    setup_household(make_page(PHONE, "en-US"), server)
    context = browser.new_context(**PHONE, locale="en-US", java_script_enabled=False)
    try:
        page = context.new_page()
        sign_in(page, server)
        page.goto(server.url + "/settings")
        page.fill("#f-url", "ftp://ntfy.example")
        page.fill("#f-topic", "tanaka-fridge")
        assert submit(page, PUSH_FORM).status == 422
        box = page.locator("#f-url-error").bounding_box()  # relative to the viewport
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["viewport"]["height"]
        assert page.input_value("#f-topic") == "tanaka-fridge"
    finally:
        context.close()
