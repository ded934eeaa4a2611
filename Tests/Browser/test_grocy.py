"""`zaiko import grocy`: a Grocy database made from Grocy 4.6.0's own schema (Tests/Fixtures/grocy)
is imported by the real binary into a running server; its owner joins with the printed link and
sees Grocy's locations and shopping lists as folders, with the items, dates and the photo."""

import re
import sqlite3
import subprocess

from PIL import Image, ImageDraw

from conftest import DESKTOP, PHONE, REPO_ROOT, ZAIKO_BIN, join, screenshot
from images import jpeg_bytes

FIXTURES = REPO_ROOT / "Tests" / "Fixtures" / "grocy"


def grocy_database(folder):
    """grocy.db from Grocy's schema and the shared rows, and Grocy's picture folder."""
    schema = (FIXTURES / "schema-4.6.0.sql").read_text()
    # SQLite makes sqlite_sequence itself and refuses to be told to.
    schema = "\n".join(line for line in schema.splitlines() if not line.startswith("CREATE TABLE sqlite_sequence"))
    path = folder / "grocy.db"
    with sqlite3.connect(path) as db:
        db.executescript(schema)
        db.executescript((FIXTURES / "rows.sql").read_text())
    db.close()
    pictures = folder / "productpictures"
    pictures.mkdir()
    image = Image.new("RGB", (640, 480), (240, 140, 30))
    ImageDraw.Draw(image).rectangle([0, 190, 640, 290], fill=(255, 255, 255))
    (pictures / "Qx81zT_orange-juice.jpg").write_bytes(jpeg_bytes(image))
    (pictures / "Pw2m9v_umeboshi.png").write_bytes(b"not a picture at all")
    return path, pictures


def run_import(*args):
    return subprocess.run([str(ZAIKO_BIN), "import", "grocy", *map(str, args)], capture_output=True, text=True, timeout=180)


def row(page, name):
    return page.locator("li.item-row", has=page.locator("a.item-name", has_text=re.compile(f"^{re.escape(name)}$")))


def test_imported_household_shows_grocys_lists(server, make_page, tmp_path):
    grocy, pictures = grocy_database(tmp_path)
    result = run_import(grocy, "--photos", pictures, "--name", "Müllers", "--data", server.data_dir, "--base-url", server.url)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert ("3 stock list(s), 7 item(s) in stock, 2 shopping list(s) with 3 item(s), 3 product(s) by barcode, "
            "2 recipe(s) with 4 ingredient line(s), 1 photo(s)") in out
    assert "Prise → piece (no Zaiko unit fits" in out
    assert '2 barcode(s) skipped, not 6 to 14 digits or a wrong check digit: "4006381333932 (Frozen peas)", "SHOP-42 (Orange juice)"' in out
    link = out.strip().splitlines()[-1]
    assert link.startswith(server.url + "/join/")

    page = make_page(PHONE, "en-US")
    join(page, link, name="Anna", login="anna")
    assert page.locator("h1").inner_text() == "Müllers"
    assert page.locator(".folder-name").all_inner_texts() == ["Fridge", "Keller-Truhe", "Pantry", "Shopping list", "Drogerie"]
    # Grocy's freezer flag made the chest a freezer.
    assert page.locator(".folder-card", has_text="Keller-Truhe").locator("img.folder-icon").get_attribute("src").split("?v=")[0].endswith("/freezer.svg")
    screenshot(page, "grocy-import-folders-phone")

    page.click(".folder-card:has-text('Fridge')")
    page.wait_for_load_state()
    assert sorted(page.locator("li.item-row a.item-name").all_inner_texts()) == ["Milk", "Milk", "Orange juice"]
    juice = row(page, "Orange juice")
    assert juice.locator(".item-status").inner_text() == "Opened"
    thumb = juice.locator("img.item-thumb")
    assert "has-picture" in thumb.get_attribute("class")
    assert re.fullmatch(r"/photos/[0-9a-f]{32}/128", thumb.get_attribute("src"))
    thumb.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth === 128", arg=thumb.element_handle())
    screenshot(page, "grocy-import-fridge-phone")

    page.goto(server.url + "/")
    page.click(".folder-card:has-text('Keller-Truhe')")
    page.wait_for_load_state()
    assert sorted(page.locator("li.item-row a.item-name").all_inner_texts()) == ["Frozen peas", "Minced beef"]

    desktop = make_page(DESKTOP, "ja-JP")
    desktop.goto(server.url + "/login")
    desktop.fill("input[name=login]", "anna")
    desktop.fill("input[name=password]", "another long passphrase")
    with desktop.expect_navigation():
        desktop.click("main form button[type=submit]")
    desktop.click(".folder-card:has-text('Drogerie')")
    desktop.wait_for_load_state()
    assert desktop.locator("li.item-row a.item-name").all_inner_texts() == ["Toothpaste"]
    desktop.goto(server.url + "/")
    desktop.click(".folder-card:has-text('Shopping list')")
    desktop.wait_for_load_state()
    assert sorted(desktop.locator("li.item-row a.item-name").all_inner_texts()) == ["Bread rolls", "Orange juice"]
    screenshot(desktop, "grocy-import-shopping-desktop-ja")


def test_a_file_that_is_not_grocys_is_refused_and_nothing_is_made(tmp_path):
    data = tmp_path / "data"
    not_grocy = tmp_path / "export.csv"
    not_grocy.write_text("id;name\n1;Milk\n")
    result = run_import(not_grocy, "--data", data)
    assert result.returncode != 0
    assert result.stderr.strip() == "Error: export.csv is not a Grocy database (it is not an SQLite file at all)."
    assert result.stdout == ""
    # Refused before Zaiko's database was even opened.
    assert not data.exists()
