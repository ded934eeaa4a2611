"""Reminders end to end: the owner's push channel (against a fake ntfy server started here),
"Send a test" and its status, "Rebuild reminders" with its report, and a member's calendar feed
address, parsed by a real iCalendar parser, in English and Japanese, at phone and desktop width."""

import subprocess
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from zoneinfo import ZoneInfo

import icalendar
import pytest

from conftest import DESKTOP, PHONE, ZAIKO_BIN, now, screenshot, setup_household, sign_in

TOKYO = ZoneInfo("Asia/Tokyo")


class FakeNtfy:
    """An ntfy-like server on loopback: records every request, answers with the given statuses."""

    def __init__(self, statuses=()):
        self.received = []
        self.statuses = list(statuses)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                fake.received.append({"path": self.path, "headers": dict(self.headers), "body": body.decode(),
                                      "at": now()})  # as the test's servers see the time
                status = fake.statuses.pop(0) if fake.statuses else 200
                reply = b'{"id":"x"}' if status == 200 else b'{"error":"broken on purpose"}'
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def lan_server(make_server):
    """The fake ntfy server is on loopback: the operator allows such targets, as for an ntfy on the LAN."""
    return make_server("--allow-private-outbound")


@pytest.fixture
def ntfy():
    fake = FakeNtfy()
    yield fake
    fake.close()


def submit_form(page, action):
    with page.expect_navigation() as nav:
        page.click(f"form[action='{action}'] button[type=submit], form[action='{action}#push'] button[type=submit]")
    return nav.value


def no_sideways_scroll(page):
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]


def zaiko_demo(server, items, reminders=True) -> tuple[str, str]:
    args = [str(ZAIKO_BIN), "demo", "--items", str(items), "--data", str(server.data_dir)]
    if reminders:
        args.append("--reminders")
    result = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    values = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    return values["Login"].strip(), values["Password"].strip()


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.status, response.headers, response.read()


def status_of(url):
    try:
        return fetch(url)[0]
    except urllib.error.HTTPError as error:
        return error.code


TEXTS = {
    "en-US": {"saved": "Push channel saved.", "sent": "Test sent.", "failed": "The test could not be sent. The push server had a problem of its own.",
              "last_error": "The push server had a problem of its own.", "token_set": "A token is set.", "url_invalid": "Enter an address starting with http:// or https://",
              "rebuilt": "Reminders rebuilt:", "feed_ready": "Your feed address is ready.", "test_title": "Zaiko test"},
    "ja-JP": {"saved": "プッシュ通知の設定を保存しました。", "sent": "テストを送信しました。", "failed": "テストを送信できませんでした。プッシュ通知サーバー側で問題が起きました。",
              "last_error": "プッシュ通知サーバー側で問題が起きました。", "token_set": "トークンは設定済みです。", "url_invalid": "http:// か https:// で始まるアドレスを入力してください",
              "rebuilt": "リマインダーを再設定しました：", "feed_ready": "配信アドレスを作成しました。", "test_title": "在庫 テスト"},
}


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_owner_sets_ntfy_sends_a_test_and_sees_the_status(lan_server, make_page, ntfy, locale):
    server = lan_server
    texts = TEXTS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/settings")

    # A wrong address is refused beside its field; what was typed stays.
    page.fill("#f-url", "ftp://" + ntfy.url[len("http://"):])
    page.fill("#f-topic", "tanaka-fridge")
    submit_form(page, "/settings/push")
    assert texts["url_invalid"] in page.locator(".field:has(#f-url) .field-error").inner_text()
    assert page.input_value("#f-topic") == "tanaka-fridge"

    page.fill("#f-url", ntfy.url)
    page.fill("#f-access_token", "tk_browser_secret")
    page.select_option("#f-digest_hour", "7")
    submit_form(page, "/settings/push")
    assert texts["saved"] in page.locator(".notice").first.inner_text()
    # The token is never sent back to the page.
    assert "tk_browser_secret" not in page.content()
    assert texts["token_set"] in page.locator(".field:has(#f-access_token) .hint").inner_text()

    response = submit_form(page, "/settings/push/test")
    assert response.status == 200
    assert texts["sent"] in page.locator("#push [role=status]").first.inner_text()
    assert len(ntfy.received) == 1
    push = ntfy.received[0]
    assert push["path"] == "/tanaka-fridge"
    assert push["headers"]["Authorization"] == "Bearer tk_browser_secret"
    assert push["headers"]["Tags"] == "white_check_mark"
    title = push["headers"]["Title"]
    if locale == "ja-JP":
        assert title.startswith("=?UTF-8?B?")  # RFC 2047, as ntfy reads it
    else:
        assert title == texts["test_title"]
    tag = "en" if locale == "en-US" else "ja"
    no_sideways_scroll(page)
    screenshot(page, f"reminders-settings-sent-phone-{tag}")

    # The server fails: the error is reported and shows in the status line.
    ntfy.statuses = [500]
    submit_form(page, "/settings/push/test")
    assert texts["failed"] in page.locator("#push .form-error").first.inner_text()
    assert texts["last_error"] in page.locator(".push-status").inner_text()
    no_sideways_scroll(page)
    screenshot(page, f"reminders-settings-failed-phone-{tag}")

    desktop = make_page(DESKTOP, locale)
    sign_in(desktop, server)
    desktop.goto(server.url + "/settings#push")
    screenshot(desktop, f"reminders-settings-desktop-{tag}")
    # The refused form answered 422 on purpose; nothing else may complain.
    assert [e for e in page.console_errors if "422" not in e] == [] and desktop.console_errors == []


def test_a_local_address_is_refused_unless_allowed_and_tests_are_limited(server, make_page, ntfy):
    """Without --allow-private-outbound the fake ntfy server on loopback is never reached, and the
    page says why without a byte of what answered; the sixth test in ten minutes is refused beside its button."""
    ntfy.statuses = [500] * 10
    page = make_page(PHONE, "en-US")
    setup_household(page, server)
    page.goto(server.url + "/settings")
    page.fill("#f-url", ntfy.url)
    page.fill("#f-topic", "tanaka-fridge")
    submit_form(page, "/settings/push")
    for _ in range(5):
        submit_form(page, "/settings/push/test")
        result = page.locator("#push [role=status]").first.inner_text()
        assert "on the server's own network" in result or "on its way" in result, result
    assert ntfy.received == []
    assert "broken on purpose" not in page.content()
    assert "127.0.0.1" not in "\n".join(page.locator("#push .form-error, #push .push-status").all_inner_texts())
    response = submit_form(page, "/settings/push/test")
    assert response.status == 422
    beside = page.locator("form[action='/settings/push/test#push'] .form-error")
    assert "Five tests in ten minutes is the limit." in beside.inner_text()
    assert page.locator("form[action='/settings/push/test#push'] button").get_attribute("aria-describedby") == "push-test-error"
    no_sideways_scroll(page)
    screenshot(page, "reminders-settings-test-limited-phone-en")
    assert [e for e in page.console_errors if "422" not in e] == []


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_rebuild_reminders_reports_what_it_did(server, make_page, locale):
    login, password = zaiko_demo(server, 120)
    page = make_page(PHONE, locale)
    sign_in(page, server, login=login, password=password)
    page.goto(server.url + "/settings")
    submit_form(page, "/settings/reminders/rebuild")
    report = page.locator("#reminders .notice").inner_text()
    assert TEXTS[locale]["rebuilt"] in report
    numbers = [int(n) for n in __import__("re").findall(r"\d+", report)]
    assert len(numbers) == 3
    dropped, recreated, cleared = numbers
    assert dropped > 0 and recreated == dropped and cleared == 0
    tag = "en" if locale == "en-US" else "ja"
    no_sideways_scroll(page)
    screenshot(page, f"reminders-rebuild-phone-{tag}")
    desktop = make_page(DESKTOP, locale)
    sign_in(desktop, server, login=login, password=password)
    desktop.goto(server.url + "/settings#reminders")
    screenshot(desktop, f"reminders-rebuild-desktop-{tag}")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_account_page_gives_a_feed_that_parses_with_alarms(server, make_page, locale):
    login, password = zaiko_demo(server, 200)
    page = make_page(PHONE, locale)
    sign_in(page, server, login=login, password=password)
    page.goto(server.url + "/account")
    submit_form(page, "/account/calendar-feed")
    assert TEXTS[locale]["feed_ready"] in page.locator("#feed .notice").inner_text()
    webcal = page.input_value("#feed-webcal")
    web = page.input_value("#feed-web")
    host = server.url[len("http://"):]
    assert webcal.startswith(f"webcal://{host}/calendar/") and webcal.endswith(".ics")
    assert web == "http://" + webcal[len("webcal://"):]
    # With JavaScript the copy buttons appear (they are hidden without it).
    assert page.locator("button[data-copy=feed-webcal]").is_visible()
    tag = "en" if locale == "en-US" else "ja"
    no_sideways_scroll(page)
    screenshot(page, f"reminders-account-feed-phone-{tag}")
    desktop = make_page(DESKTOP, locale)
    sign_in(desktop, server, login=login, password=password)
    desktop.goto(server.url + "/account#feed")
    screenshot(desktop, f"reminders-account-desktop-{tag}")

    status, headers, body = fetch(web)
    assert status == 200
    assert headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert b"\r\n" in body and b"\n" not in body.replace(b"\r\n", b"")
    calendar = icalendar.Calendar.from_ical(body)
    events = list(calendar.walk("VEVENT"))
    assert len(events) > 50
    alarms = 0
    names = set()
    for event in events:
        due = event.decoded("DTSTART")
        assert not isinstance(due, datetime)  # an all-day date
        assert event["UID"].startswith("zaiko-item-")
        names.add(str(event["SUMMARY"]))
        for alarm in event.walk("VALARM"):
            alarms += 1
            assert str(alarm["ACTION"]) == "DISPLAY"
            trigger = alarm.decoded("TRIGGER")
            # The demo reminds at 9:00 Tokyo time the day before the due date.
            expected = datetime(due.year, due.month, due.day, 9, 0, tzinfo=TOKYO) - timedelta(days=1)
            assert trigger == expected.astimezone(timezone.utc)
    assert alarms > 20
    assert any(not name.isascii() for name in names)  # Japanese names survive folding

    # Replacing the address: the old one is gone at once.
    page.goto(server.url + "/account")
    submit_form(page, "/account/calendar-feed")
    new_web = page.input_value("#feed-web")
    assert new_web != web
    assert status_of(web) == 404
    assert status_of(new_web) == 200
    # Later visits do not show the address again.
    page.goto(server.url + "/account")
    assert page.locator("#feed-web").count() == 0
    assert page.console_errors == []


def test_a_reminder_typed_in_the_editor_reaches_the_push_server_on_time(lan_server, page_desktop, ntfy):
    """The whole path: editor → database → the engine wakes at the reminder's minute → ntfy. The
    server's clock is moved to that minute (server.clock), never waited for."""
    server = lan_server
    page = page_desktop
    setup_household(page, server)  # a household set up here keeps UTC
    page.goto(server.url + "/settings")
    page.fill("#f-url", ntfy.url)
    page.fill("#f-topic", "kitchen")
    submit_form(page, "/settings/push")

    remind = (server.clock.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
    page.goto(server.url + "/")
    href = page.locator("section[aria-labelledby=stock-heading] .folder-card").first.get_attribute("href")
    page.goto(f"{server.url}/items/new?folder={href.split('/')[-1]}")
    page.fill('[name="d0.name"]', "Milk")
    page.fill('[name="d0.due"]', (remind + timedelta(days=2)).strftime("%Y-%m-%d"))
    page.click("#draft-0 details.draft-more summary")  # the reminder is under "More" (issue 11)
    page.fill('[name="d0.remind_at"]', remind.strftime("%Y-%m-%dT%H:%M"))
    with page.expect_navigation():
        page.click("button[name=action][value=save]")

    # A minute before, nothing goes out (the engine looks at its clock every second on a test clock:
    # a few looks, then the clock moves on to the reminder's minute).
    server.clock.set(remind - timedelta(minutes=1))
    page.wait_for_timeout(3000)
    assert ntfy.received == []
    server.clock.set(remind)
    # Wait for the push and the server's log of it, which follows the push server's answer (the two
    # minutes only give up: a loaded machine may deliver late, and how late is not what this test is about).
    give_up = time.monotonic() + 120
    while (not ntfy.received or "push sent" not in server.stderr()) and time.monotonic() < give_up:
        page.wait_for_timeout(200)
    assert len(ntfy.received) == 1, f"nothing in 120 s after the clock reached {remind:%H:%M:%S}; log:\n{server.stderr()[-2000:]}"
    arrived = ntfy.received[0]["at"]
    assert remind <= arrived
    assert ntfy.received[0]["path"] == "/kitchen"
    assert ntfy.received[0]["body"].startswith("Milk (")
    assert "push sent" in server.stderr()
