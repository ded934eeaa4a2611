"""The owner's "Recipe imports from the home network" card (issue 22, item 7) at phone width in
both languages: off by default, says when the server's operator has not allowed the home network
at all, and saves."""

import json
import sqlite3

import pytest
from playwright.sync_api import expect

from conftest import REPO_ROOT, setup_household

LOCALES = ["en-US", "ja-JP"]
CATALOGS = {locale: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text())
            for locale, code in (("en-US", "en"), ("ja-JP", "ja"))}
FORM = "form[action^='/settings/home-network']"


def stored(server) -> int:
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        return db.execute("SELECT member_fetches_private FROM household").fetchone()[0]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_owner_lets_members_imports_reach_the_home_network(make_server, page_phone, locale):
    t = CATALOGS[locale]
    server = make_server("--allow-private-outbound")
    page = setup_household(page_phone, server)
    page.goto(server.url + "/settings")
    card = page.locator("#home-network")
    expect(card.locator("h2")).to_have_text(t["home_network_heading"])
    expect(card).to_contain_text(t["home_network_intro"])
    expect(card).not_to_contain_text(t["home_network_operator_off"])
    box = card.get_by_label(t["home_network_allow"])
    expect(box).not_to_be_checked()
    box.check()
    with page.expect_navigation():
        card.locator(FORM).locator("button[type=submit]").click()
    card = page.locator("#home-network")
    expect(card.locator(".notice")).to_contain_text(t["saved_home_network"])
    expect(card.get_by_label(t["home_network_allow"])).to_be_checked()
    assert stored(server) == 1
    # Nothing runs off the side of a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.console_errors == []


def test_without_the_operators_flag_the_card_says_the_setting_waits(make_server, page_phone):
    t = CATALOGS["en-US"]
    server = make_server()
    page = setup_household(page_phone, server)
    page.goto(server.url + "/settings")
    expect(page.locator("#home-network")).to_contain_text(t["home_network_operator_off"])
