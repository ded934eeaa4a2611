"""Moving a household (issue 14): an owner downloads the export from Settings, a second server
(another data folder) imports it with `zaiko household import`, the owner joins with the printed
link and finds the same lists. The CSV opens in Python's csv module with Japanese intact and
formula-like names neutralised; a member cannot export. The Settings section is looked at in
both languages at phone and desktop width, axe clean."""

import csv
import io
import json
import subprocess
import zipfile
from datetime import timedelta

import pytest

from conftest import DESKTOP, PHONE, REPO_ROOT, ZAIKO_BIN, create_invitation, join, no_axe_problems, screenshot, setup_household, today
from images import RED, solid_photo
from recipes_support import add_recipe
from test_bulk import Story
from test_inventory import folder_ids, register, row_names, save
from test_meal_plan import add_meal

CATALOGS = {code: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text()) for code in ("en", "ja")}
ITEM_COLUMNS = ["id", "folder", "name", "quantity", "unit", "kind", "due", "remind_at", "status", "urgent", "barcode", "note",
                "created_at", "updated_at"]


def download_export(page, server, tmp_path):
    """Settings › Export as a person would: the link in the Export section."""
    page.goto(server.url + "/settings")
    with page.expect_download() as info:
        page.click("#export a[href='/settings/export']")
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    return download.suggested_filename, path


def large_photo(page, name):
    """The address of the 512 px photo of the item called `name` on the list the page shows."""
    src = page.locator(f"li.item-row:has(a.item-name:text-is('{name}')) img.item-thumb").get_attribute("src")
    assert src and src.endswith("/128"), src
    return src[:-len("128")] + "512"


def lists(page, server):
    """Every folder's name with the names of the items on it, as the pages show them."""
    shown = {}
    for name, folder_id in folder_ids(page, server).items():
        page.goto(f"{server.url}/folders/{folder_id}")
        shown[name] = sorted(row_names(page))
    return shown


def test_owner_moves_the_household_to_another_server(make_server, page_phone, make_page, tmp_path):
    old = make_server()
    page = page_phone
    setup_household(page, old, household="田中家")
    folders = folder_ids(page, old)
    fridge, shopping = folders["Fridge"], folders["Supermarket"]
    register(page, old, fridge, [{"name": "牛乳", "quantity": "1.5", "unit": "L", "note": "低脂肪"},
                                 {"name": "=1+2", "note": "-5 degrees"}])
    register(page, old, shopping, [{"name": "卵", "urgent": True}])
    page.goto(f"{old.url}/items/new?folder={fridge}")
    page.fill('[id="f-d0.name"]', "トマト")
    page.set_input_files("#f-d0-photo_file", str(solid_photo(tmp_path / "red.jpg", RED)))
    assert save(page).status == 200
    tomato_photo = page.request.get(old.url + large_photo(page, "トマト")).body()
    before = lists(page, old)
    assert before["Fridge"] == ["=1+2", "トマト", "牛乳"] and before["Supermarket"] == ["卵"]
    # The week's plan: a curry for the day after tomorrow.
    curry = add_recipe(old, "カレー", [("牛乳", 200, "ml")])
    dinner = today() + timedelta(days=2)
    page.goto(old.url + "/plan")
    add_meal(Story(page), dinner, curry)

    name, path = download_export(page, old, tmp_path)
    assert name.startswith("zaiko-") and name.endswith(".zip")
    with zipfile.ZipFile(path) as archive:
        assert {"household.json", "items.csv", "folders.csv", "history.csv", "products.csv", "members.csv", "recipes.csv",
                "recipe_ingredients.csv"} <= set(archive.namelist())
        document = json.loads(archive.read("household.json"))
        raw = archive.read("items.csv")
    assert document["format"] == "zaiko-household" and document["format_version"] == 7
    assert "password_hash" not in json.dumps(document)
    # The use ledger goes too: the milk and the tomato came into the fridge.
    assert sorted(u["name"] for u in document["stock_uses"] if u["event"] == "stocked") == ["=1+2", "トマト", "牛乳"]
    # The spreadsheet: a BOM, then rows Python's csv module reads with the Japanese intact.
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert list(rows[0].keys()) == ITEM_COLUMNS
    milk = next(r for r in rows if r["name"] == "牛乳")
    assert milk["folder"] == "Fridge" and milk["quantity"] == "1.5" and milk["unit"] == "L" and milk["note"] == "低脂肪"
    formula = next(r for r in rows if r["name"].endswith("=1+2"))
    assert formula["name"] == "'=1+2" and formula["note"] == "'-5 degrees"
    assert next(r for r in rows if r["name"] == "卵")["urgent"] == "1"

    # Another box: its own data folder, its operator imports the file.
    new = make_server()

    def import_file(zip_path):
        return subprocess.run([str(ZAIKO_BIN), "household", "import", str(zip_path), "--data", str(new.data_dir), "--base-url", new.url],
                              capture_output=True, text=True, timeout=120)

    # A file from a newer Zaiko, or one reaching outside the archive, is refused in one sentence and creates nothing.
    for name, entries in (("newer.zip", {"household.json": json.dumps({**document, "format_version": 99})}),
                          ("escape.zip", {"household.json": json.dumps(document), "../../evil.txt": "x"})):
        with zipfile.ZipFile(tmp_path / name, "w") as hostile:
            for entry, text in entries.items():
                hostile.writestr(entry, text)
        refused = import_file(tmp_path / name)
        assert refused.returncode != 0 and refused.stdout == ""
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert ("newer Zaiko" if name == "newer.zip" else "unsafe path (../../evil.txt)") in refused.stderr
    probe = make_page(PHONE, "en-US")
    probe.goto(new.url + "/")
    assert probe.url.startswith(new.url + "/setup")  # still no household there

    result = import_file(path)
    assert result.returncode == 0, result.stderr
    assert "田中家" in result.stdout and "4 item(s)" in result.stdout and "1 photo(s)" in result.stdout
    assert "aki" in result.stdout  # the old owner's login, for a password link
    link = result.stdout.strip().splitlines()[-1]
    assert link.startswith(new.url + "/join/")

    owner = make_page(PHONE, "ja-JP")
    join(owner, link, name="Tanaka", login="tanaka", password="a new box, a new password")
    assert owner.locator("h1").inner_text() == "田中家"
    # Starter folders show in each reader's language: compare through the English reader.
    owner_en = make_page(PHONE, "en-US")
    owner_en.context.add_cookies(owner.context.cookies())
    assert lists(owner_en, new) == before
    # The photo came along byte for byte, under a name the new server gave it.
    owner_en.goto(f"{new.url}/folders/{folder_ids(owner_en, new)['Fridge']}")
    assert owner_en.request.get(new.url + large_photo(owner_en, "トマト")).body() == tomato_photo
    # The history of the milk still says who registered it.
    owner_en.goto(new.url + "/")
    owner_en.goto(f"{new.url}/folders/{folder_ids(owner_en, new)['Fridge']}")
    owner_en.click("a.item-name:text-is('牛乳')")
    assert "Aki" in owner_en.locator("main").inner_text()
    # The plan came along: the curry on its day.
    owner_en.goto(new.url + "/plan")
    assert owner_en.locator(f"#day-{dinner.isoformat()} .plan-meal-name").all_inner_texts() == ["カレー"]


def test_a_member_cannot_export(server, page_phone, make_page):
    setup_household(page_phone, server)
    link = create_invitation(page_phone, server, role="member")
    member = make_page(PHONE, "en-US")
    join(member, link)
    response = member.goto(server.url + "/settings/export")
    assert response.status == 403
    assert response.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_export_section_in_settings(server, make_page, locale):
    code = "en" if locale == "en-US" else "ja"
    t = CATALOGS[code]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/settings#export")
    section = page.locator("#export")
    assert section.locator("h2").inner_text() == t["export_heading"]
    assert section.locator("a[href='/settings/export']").inner_text() == t["export_download"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    no_axe_problems(page)
    section.scroll_into_view_if_needed()
    screenshot(section, f"settings-export-phone-{code}")

    desktop = make_page(DESKTOP, locale)
    desktop.context.add_cookies(page.context.cookies())
    desktop.goto(server.url + "/settings#export")
    no_axe_problems(desktop)
    screenshot(desktop.locator("#export"), f"settings-export-desktop-{code}")
