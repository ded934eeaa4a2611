"""Shopping without a network (app.js's queue, the quick actions' intent ids): in the shop, offline,
a phone ticks two items, adds one by name and changes a quantity; the rows show it at once, the
banner counts what waits, a reload keeps showing it, and back online each reaches the server once.
A quantity someone else changed meanwhile is shown to decide; what was sent is listed with Undo.
A request that fails while online never leaves the page. Signing out deletes what waits.
Over HTTPS with the test CA trusted (conftest), as the worker needs."""

import re

import pytest
from playwright.sync_api import expect

from conftest import PHONE, new_phone_page, no_axe_problems, screenshot, setup_household, sign_out
from test_offline import add_item, first_list, set_up, wait_until_kept

WAITING = {"en-US": "{count} changes waiting to be sent", "ja-JP": "送信待ちの変更が{count}件あります"}
WAITING_ONE = {"en-US": "1 change waiting to be sent", "ja-JP": "送信待ちの変更が1件あります"}
SENT = {"en-US": "Sent from this phone", "ja-JP": "この端末から送信しました"}


def row(page, name):
    return page.locator("li.item-row", has=page.locator(".item-name", has_text=re.compile(f"^{name}$")))


def number(value):
    """The quantity as a row shows it, with its unit words ("2 pieces")."""
    return re.compile(rf"^{value}\b")


def quick_add(page, name):
    """"Add to the list" with the field and Enter, as a person in a shop would."""
    page.fill("#list-add-name", name)
    page.press("#list-add-name", "Enter")


def waiting(page) -> list[dict]:
    """What waits on this phone (the queue's IndexedDB records)."""
    return page.evaluate("""() => new Promise((resolve, reject) => {
        const opening = indexedDB.open("zaiko-queue", 1);
        opening.onupgradeneeded = () => opening.result.createObjectStore("intents", { keyPath: "seq", autoIncrement: true });
        opening.onsuccess = () => {
            const db = opening.result;
            const all = db.transaction("intents").objectStore("intents").getAll();
            all.onsuccess = () => { db.close(); resolve(all.result); };
        };
        opening.onerror = reject;
    })""")


def second_phone(browser, server):
    """The same member signed in on a second phone."""
    other = new_phone_page(browser)
    other.goto(server.https + "/login")
    other.fill("input[name=login]", "aki")
    other.fill("input[name=password]", "correct horse battery")
    with other.expect_navigation():
        other.click("main form button[type=submit]")
    return other


def test_four_actions_made_offline_reach_the_server_once_each(tls_server, trusting_browser):
    page = new_phone_page(trusting_browser)
    set_up(page, tls_server)
    shopping = first_list(page, "shopping")
    page.goto(tls_server.https + shopping)
    for name in ("Milk", "Eggs", "Bread"):
        quick_add(page, name)
        expect(row(page, name)).to_be_visible()
    assert page.input_value("#list-add-name") == "", "the field is ready for the next name"
    expect(row(page, "Bread").locator("input.row-check")).to_have_count(1)  # a row like its neighbours
    assert page.evaluate("document.activeElement.id") == "list-add-name"
    row(page, "Eggs").locator("button.step[value='1']").click()
    expect(row(page, "Eggs").locator(".qty")).to_have_text(number(2))
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()
    wait_until_kept(page, shopping, "Bread")
    banner = page.locator(".queue-banner")

    # In the shop: no network.
    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".offline-banner")).to_be_visible()
    row(page, "Milk").locator(".qty").click()  # the whole row is the basket's tap target
    row(page, "Bread").locator("button.basket").click()
    quick_add(page, "Tofu")
    row(page, "Eggs").locator("button.step[value='1']").click()
    expect(banner).to_have_text(WAITING["en-US"].format(count=4))
    expect(row(page, "Milk")).to_have_class(re.compile(r"\bin-basket\b"))
    expect(row(page, "Bread").locator("button.basket")).to_have_attribute("aria-pressed", "true")
    expect(row(page, "Tofu")).to_be_visible()
    expect(row(page, "Eggs").locator(".qty")).to_have_text(number(3))
    expect(row(page, "Eggs").locator(".item-meta")).to_have_attribute("data-waiting", "Waiting to be sent")
    assert page.url == tls_server.https + shopping, "the page stayed"

    # A reload in the shop still shows what waits (the worker's copy knows nothing of it).
    page.reload()
    expect(banner).to_have_text(WAITING["en-US"].format(count=4))
    expect(row(page, "Milk")).to_have_class(re.compile(r"\bin-basket\b"))
    expect(row(page, "Tofu")).to_be_visible()
    expect(row(page, "Eggs").locator(".qty")).to_have_text(number(3))
    screenshot(page, "offline-queue-waiting-en-390", full_page=False)
    no_axe_problems(page)
    intents = waiting(page)
    assert [intent["path"].rsplit("/", 1)[1] for intent in intents] == ["basket", "basket", "add", "quantity"]

    # Meanwhile, at home, the same member's other phone makes Eggs 5.
    home = second_phone(trusting_browser, tls_server)
    home.goto(tls_server.https + shopping)
    for _ in range(3):
        before = int(row(home, "Eggs").locator(".qty").inner_text().split()[0])
        row(home, "Eggs").locator("button.step[value='1']").click()
        expect(row(home, "Eggs").locator(".qty")).to_have_text(number(before + 1))
    expect(row(home, "Eggs").locator(".qty")).to_have_text(number(5))

    # Back home: the queue goes out by itself.
    page.context.set_offline(False)
    expect(banner).to_be_hidden()
    report = page.locator(".sync-notice")
    expect(report.locator("strong")).to_have_text(SENT["en-US"])
    lines = report.locator("li")
    expect(lines).to_have_count(4)
    expect(lines.nth(0)).to_contain_text("Milk is in the basket.")
    expect(lines.nth(2)).to_contain_text("“Tofu” is on the list.")
    expect(lines.nth(3)).to_contain_text("Eggs is 5 pieces now: it changed while you were offline. Your change would make it 3 pieces.")
    for index in range(3):
        expect(lines.nth(index).locator("button", has_text="Undo")).to_be_visible()
    expect(lines.nth(3).locator("button", has_text="Make it 3 pieces")).to_be_visible()
    expect(row(page, "Eggs").locator(".qty")).to_have_text(number(5))
    expect(page.locator("[data-waiting]")).to_have_count(0)
    expect(row(page, "Tofu").locator("input.row-check")).to_have_count(1)
    expect(page.locator(".offline-banner")).to_be_hidden()
    screenshot(page, "offline-queue-sent-en-390", full_page=False)
    no_axe_problems(page)

    # The other phone sees each once: two in the basket, one Tofu, Eggs as it made them.
    home.reload()
    expect(row(home, "Milk")).to_have_class(re.compile(r"\bin-basket\b"))
    expect(row(home, "Bread")).to_have_class(re.compile(r"\bin-basket\b"))
    expect(row(home, "Tofu")).to_have_count(1)
    expect(row(home, "Eggs").locator(".qty")).to_have_text(number(5))

    # An answer lost on the way: the phone sends the same intents again; nothing happens twice.
    for intent in intents:
        answer = page.evaluate("""async (intent) => {
            const body = new URLSearchParams(intent.fields);
            body.set("_csrf", document.querySelector("input[name=_csrf]").value);
            body.set("intent", intent.id);
            body.set("fragment", "1");
            body.set("return", intent.page);
            const answer = await fetch(intent.path, { method: "POST", body, headers: { Accept: "text/html+fragment" } });
            return answer.text();
        }""", intent)
        if not intent["path"].endswith("/quantity"):
            assert "saved already" in answer, answer
    home.reload()
    expect(row(home, "Tofu")).to_have_count(1)
    expect(row(home, "Milk")).to_have_class(re.compile(r"\bin-basket\b"))
    expect(row(home, "Eggs").locator(".qty")).to_have_text(number(5))

    # The person decides the clash: their 3.
    with page.expect_navigation():
        lines.nth(3).locator("button", has_text="Make it 3 pieces").click()
    expect(row(page, "Eggs").locator(".qty")).to_have_text(number(3))

    # Signing out deletes what waits with everything else this site keeps.
    assert "zaiko-queue" in [db["name"] for db in page.evaluate("indexedDB.databases()")]
    sign_out(page)
    assert page.evaluate("indexedDB.databases()") == []
    home.context.close()


def test_a_request_that_fails_online_waits_and_is_sent_again(tls_server, trusting_browser):
    page = new_phone_page(trusting_browser, "ja-JP")
    set_up(page, tls_server)
    page.goto(tls_server.https + first_list(page, "shopping"))
    quick_add(page, "牛乳")
    expect(row(page, "牛乳")).to_be_visible()
    # The network drops the request on the way (a bad signal): the page stays, the tap waits.
    page.route("**/basket", lambda route: route.abort("connectionreset"))
    row(page, "牛乳").locator("button.basket").click()
    banner = page.locator(".queue-banner")
    expect(banner).to_have_text(WAITING_ONE["ja-JP"] + " — まだ保存されていません — 再試行します")
    expect(row(page, "牛乳")).to_have_class(re.compile(r"\bin-basket\b"))
    screenshot(page, "offline-queue-retrying-ja-390", full_page=False)
    no_axe_problems(page)
    page.unroute("**/basket")
    page.evaluate("dispatchEvent(new Event('online'))")
    expect(banner).to_be_hidden()
    expect(page.locator(".sync-notice strong")).to_have_text(SENT["ja-JP"])
    expect(page.locator(".sync-notice li")).to_contain_text("牛乳をかごに入れました。")
    page.reload()
    expect(row(page, "牛乳")).to_have_class(re.compile(r"\bin-basket\b"))


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_add_to_the_list_without_script_says_what_is_wrong_beside_the_field(server, make_page, locale):
    page = make_page({**PHONE, "java_script_enabled": False}, locale)
    setup_household(page, server)
    shopping = page.locator("section[aria-labelledby=shopping-heading] .folder-card").first.get_attribute("href")
    page.goto(server.url + shopping)
    page.fill("#list-add-name", "   ")
    with page.expect_navigation():
        page.press("#list-add-name", "Enter")
    error = page.locator("#list-add-error")
    expect(error).to_have_text({"en-US": re.compile("name", re.I), "ja-JP": re.compile("名")}[locale])
    expect(page.locator("#list-add-name")).to_have_attribute("aria-invalid", "true")
    page.fill("#list-add-name", "Milk")
    with page.expect_navigation():
        page.press("#list-add-name", "Enter")
    expect(row(page, "Milk")).to_be_visible()
    # The same name again joins the row instead of making a second.
    page.fill("#list-add-name", "milk")
    with page.expect_navigation():
        page.press("#list-add-name", "Enter")
    expect(row(page, "Milk")).to_have_count(1)
    expect(page.locator(".row-notice")).to_contain_text({"en-US": "was on the list already", "ja-JP": "すでにリストにありました"}[locale])


def test_rows_marked_bought_offline_go_into_the_stock_list_once_back(tls_server, trusting_browser):
    page = new_phone_page(trusting_browser)
    set_up(page, tls_server)
    stock, shopping = first_list(page, "stock"), first_list(page, "shopping")
    add_item(page, tls_server, stock, "Butter")
    page.goto(tls_server.https + shopping)
    for name in ("Butter", "Jam"):
        quick_add(page, name)
        expect(row(page, name)).to_be_visible()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()
    wait_until_kept(page, shopping, "Jam")

    page.context.set_offline(True)
    page.reload()
    for name in ("Butter", "Jam"):
        row(page, name).locator("input.row-check").check()
    page.select_option("#bulk-stock", label=page.locator(f"#bulk-stock option[value='{stock.rsplit('/', 1)[1]}']").inner_text())
    page.click(".bulk-bar button[name=action][value=bought]")
    expect(page.locator(".queue-banner")).to_have_text(WAITING["en-US"].format(count=2))
    expect(row(page, "Jam")).to_have_class(re.compile(r"\bis-bought-waiting\b"))
    expect(page.locator("input.row-check:checked")).to_have_count(0)
    assert page.url == tls_server.https + shopping

    page.context.set_offline(False)
    expect(page.locator(".queue-banner")).to_be_hidden()
    lines = page.locator(".sync-notice li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("“Butter” is now in")
    expect(lines.nth(1)).to_contain_text("“Jam” is now in")
    expect(row(page, "Butter")).to_have_count(0)
    expect(row(page, "Jam")).to_have_count(0)
    page.goto(tls_server.https + stock)
    expect(row(page, "Butter")).to_have_count(1)
    expect(row(page, "Butter").locator(".qty")).to_have_text(number(2))
    expect(row(page, "Jam")).to_have_count(1)
