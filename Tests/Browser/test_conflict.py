"""Issue 11, the conflict page: a save from a stale editor merges with what others saved since.

Fields only one side changed are taken from that side without asking; only fields both changed
are shown to decide; the page says who changed the item and when; deciding saves against the
version now stored (and asks again if it changed meanwhile)."""
import json
import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import DESKTOP, PHONE, create_invitation, join, screenshot, setup_household
from conftest import today as server_today
from test_inventory import problems_here

LOCALES = Path(__file__).resolve().parents[2] / "Templates" / "locales"
LANGUAGES = {"en": "en-US", "ja": "ja-JP"}


def words(lang) -> dict:
    return json.loads((LOCALES / f"{lang}.json").read_text())


def field(name) -> str:
    return f'[name="d0.{name}"]'


def navigate(page, action):
    """Run `action` (a click that submits); return the response landed on."""
    with page.expect_navigation() as nav:
        action()
    return nav.value


def save_editor(page):
    return navigate(page, lambda: page.click("button[name=action][value=save]"))


def register_milk(page, server, due) -> int:
    """Registers "Milk" (2, due `due`) in the first stock list; returns its id."""
    page.goto(server.url + "/")
    fridge = page.locator("section[aria-labelledby=stock-heading] .folder-card").first.get_attribute("href")
    page.goto(f"{server.url}/items/new?folder={fridge.split('/')[-1]}")
    page.fill(field("name"), "Milk")
    page.fill(field("quantity"), "2")
    page.fill(field("due"), due)
    assert save_editor(page).status == 200
    link = page.locator("a[href^='/items/']", has_text=re.compile("^Milk$")).first.get_attribute("href")
    return int(re.fullmatch(r"/items/(\d+)", link).group(1))


def stored(page, server, item) -> dict:
    """The item as its editor shows it now."""
    page.goto(f"{server.url}/items/{item}/edit")
    return {name: page.input_value(field(name)) for name in ("name", "quantity", "due", "note")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_stale_edits_merge_and_only_a_real_clash_asks(server, make_page, lang):
    t = words(lang)
    aki = setup_household(make_page(PHONE, LANGUAGES[lang]), server)
    ken = make_page(PHONE, LANGUAGES[lang])
    join(ken, create_invitation(aki, server))
    today = server_today()
    first_due, aki_due, aki_due_again = (str(today + timedelta(days=n)) for n in (3, 6, 9))
    milk = register_milk(aki, server, first_due)

    # Round 1: both open the editor; Aki changes the due date, Ken (stale form) the name.
    aki.goto(f"{server.url}/items/{milk}/edit")
    ken.goto(f"{server.url}/items/{milk}/edit")
    aki.fill(field("due"), aki_due)
    assert save_editor(aki).status == 200
    loads = []
    ken.on("framenavigated", lambda frame: frame == ken.main_frame and loads.append(frame.url))
    ken.fill(field("name"), "Oat milk")
    response = save_editor(ken)
    # Nothing both changed: saved at once, no page asking, and the page says with whose change.
    assert response.status == 200, ken.locator("main").inner_text()
    assert len(loads) == 1, loads  # 2 taps (type the name, Save), 1 page load: the item page
    assert urlparse(ken.url).path == f"/items/{milk}"
    notice = ken.locator(".notice").inner_text()
    assert "Aki" in notice and t["field_due"] in notice, notice
    assert ken.locator("h1").inner_text() == "Oat milk"
    assert problems_here(ken, "merged notice", 200) == []
    screenshot(ken, f"conflict-merged-{lang}-phone")
    assert stored(aki, server, milk) == {"name": "Oat milk", "quantity": "2", "due": aki_due, "note": ""}

    # Round 2: both change the quantity; Aki also the due date again, Ken also the note.
    aki.goto(f"{server.url}/items/{milk}/edit")
    ken.goto(f"{server.url}/items/{milk}/edit")
    aki.fill(field("quantity"), "3")
    aki.fill(field("due"), aki_due_again)
    assert save_editor(aki).status == 200
    ken.fill(field("quantity"), "5")
    ken.fill(field("note"), "the oat one")
    response = save_editor(ken)
    assert response.status == 409
    assert ken.locator("h1").inner_text() == t["conflict_heading"]
    # Only the quantity is asked about, theirs and mine offered, mine chosen.
    clashes = ken.locator("fieldset.clash")
    assert clashes.count() == 1
    assert t["field_quantity"] in clashes.locator("legend").inner_text()
    assert ken.locator('input[type=radio][name="d0.quantity"][value="3"]').count() == 1
    assert ken.locator('input[type=radio][name="d0.quantity"][value="5"]').is_checked()
    # Who changed it and when: Aki, at a time of today in the household's zone.
    who = ken.locator(".conflict-who li").all_inner_texts()
    assert len(who) == 1 and "Aki" in who[0], who
    assert t["field_quantity"] in who[0] and t["field_due"] in who[0]
    # The rest is shown already merged: Aki's due date, Ken's note, and no quantity row.
    merged = {r.locator("th").inner_text(): r.locator("td").inner_text() for r in ken.locator("table.merged tbody tr").all()}
    assert t["field_quantity"] not in merged
    assert t["conflict_their_change"] in merged[t["field_due"]]
    assert merged[t["field_note"]].startswith("the oat one") and t["conflict_your_change"] in merged[t["field_note"]]
    assert merged[t["field_item_name"]] == "Oat milk"
    assert ken.evaluate("document.documentElement.scrollWidth") <= 390
    assert problems_here(ken, "conflict", 409) == []
    screenshot(ken, f"conflict-{lang}-phone")
    ken.set_viewport_size(DESKTOP["viewport"])
    screenshot(ken, f"conflict-{lang}-desktop")
    ken.set_viewport_size(PHONE["viewport"])

    # Aki changes the quantity once more while Ken decides: Ken's decision asks again, with 4.
    aki.goto(f"{server.url}/items/{milk}/edit")
    aki.fill(field("quantity"), "4")
    assert save_editor(aki).status == 200
    assert navigate(ken, lambda: ken.click("button[name=action][value=save]")).status == 409
    assert ken.locator('input[type=radio][name="d0.quantity"][value="4"]').count() == 1
    assert ken.locator("fieldset.clash").count() == 1

    # Ken keeps his 5: saved, with Aki's untouched due date and Ken's note.
    assert navigate(ken, lambda: ken.click("button[name=action][value=save]")).status == 200
    assert stored(aki, server, milk) == {"name": "Oat milk", "quantity": "5", "due": aki_due_again, "note": "the oat one"}


def test_choosing_theirs_keeps_theirs_and_mine_elsewhere(server, make_page):
    aki = setup_household(make_page(DESKTOP, "en-US"), server)
    other_tab = aki.context.new_page()
    other_tab.console_errors = []
    due = str(server_today() + timedelta(days=4))
    milk = register_milk(aki, server, due)
    aki.goto(f"{server.url}/items/{milk}/edit")
    other_tab.goto(f"{server.url}/items/{milk}/edit")
    other_tab.fill(field("quantity"), "7")
    assert save_editor(other_tab).status == 200
    aki.fill(field("quantity"), "1")
    aki.fill(field("name"), "Whole milk")
    assert save_editor(aki).status == 409
    aki.check('input[type=radio][name="d0.quantity"][value="7"]')
    assert navigate(aki, lambda: aki.click("button[name=action][value=save]")).status == 200
    assert stored(aki, server, milk) == {"name": "Whole milk", "quantity": "7", "due": due, "note": ""}
