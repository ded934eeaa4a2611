"""The commands for the person who runs the server: a second household through
`zaiko household create`, `household list`, and a forgotten password through
`zaiko user reset-password`, each finished in the browser."""

import subprocess

from conftest import PHONE, ZAIKO_BIN, join, setup_household, sign_in

GRANDMA_PASSWORD = "grandma's kitchen garden"


def zaiko(server, *args) -> str:
    """Run a zaiko command on the server's data directory; return its output."""
    result = subprocess.run([str(ZAIKO_BIN), *args, "--data", str(server.data_dir), "--base-url", server.url],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_second_household_is_created_and_kept_apart(server, page_phone, make_page):
    setup_household(page_phone, server)
    output = zaiko(server, "household", "create", "Grandparents", "--language", "ja")
    link = output.strip().splitlines()[-1]
    assert link.startswith(server.url + "/join/")

    grandma = make_page(PHONE, "ja-JP")
    join(grandma, link, name="Grandma", login="grandma", password=GRANDMA_PASSWORD)
    assert grandma.locator("h1").inner_text() == "Grandparents"
    # The owner link makes grandma the owner of her own household, with its own folders.
    assert grandma.locator(".site-nav a[href='/settings']").count() == 1
    assert grandma.locator(".folder-name").all_inner_texts() == ["冷蔵庫", "冷凍庫", "パントリー", "スーパー"]
    # Tanaka's folders are Tanaka's: grandma's folder ids differ and Tanaka's answer 404 to her.
    tanaka_folder = page_phone.locator(".folder-card").first.get_attribute("href")
    assert tanaka_folder not in grandma.locator(".folder-card").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    grandma.goto(server.url + "/settings")
    assert "Aki" not in grandma.locator(".member-list").inner_text()

    listing = zaiko(server, "household", "list")
    assert "Tanaka" in listing and "owners: aki" in listing
    assert "Grandparents" in listing and "owners: grandma" in listing


def test_reset_password_link(server, page_phone, make_page):
    setup_household(page_phone, server)
    link = zaiko(server, "user", "reset-password", "aki").strip().splitlines()[-1]
    assert link.startswith(server.url + "/reset/")

    page = make_page(PHONE, "en-US")
    page.goto(link)
    page.fill("input[name=password]", "a fresh start phrase")
    page.fill("input[name=password_confirm]", "a fresh start phrase")
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert page.url.startswith(server.url + "/login")
    assert "Your new password is set" in page.locator("main").inner_text()

    # Every old session ended with the reset: the first browser is signed out.
    page_phone.goto(server.url + "/")
    assert page_phone.url.startswith(server.url + "/login")
    assert sign_in(page, server, password="correct horse battery").status == 422
    sign_in(page, server, password="a fresh start phrase")
    assert page.url == server.url + "/"

    # The link worked once.
    page.goto(link)
    assert "This link no longer works" in page.locator("h1").inner_text()


def test_a_command_leaves_every_write_in_the_database_file(tmp_path):
    """A command that writes without a server (demo, household create) folds its write-ahead log
    into zaiko.sqlite before it exits, so a copy of that file alone holds what it wrote."""
    import shutil
    import sqlite3

    data = tmp_path / "data"
    for args in (["demo", "--items", "30"], ["household", "create", "Grandparents"]):
        result = subprocess.run([str(ZAIKO_BIN), *args, "--data", str(data)], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    wal = data / "zaiko.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    copy = tmp_path / "copy.sqlite"
    shutil.copy(data / "zaiko.sqlite", copy)
    with sqlite3.connect(copy) as db:
        households = [name for (name,) in db.execute("SELECT name FROM household ORDER BY id")]
        items = db.execute("SELECT COUNT(*) FROM item").fetchone()[0]
    assert households[-1] == "Grandparents" and len(households) == 2
    assert items == 30


def test_a_token_for_a_tool_is_made_on_the_command_line_and_listed_on_the_account_page(server, page_phone):
    import json
    import urllib.request
    setup_household(page_phone, server)
    token = zaiko(server, "user", "token", "aki", "--name", "Kitchen display", "--scope", "read").strip()
    assert token.startswith("zk_")
    request = urllib.request.Request(server.url + "/api/v1/household", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert json.loads(answer.read())["scopes"] == ["read"]
    page_phone.goto(server.url + "/account")
    assert "Kitchen display" in page_phone.locator("#tokens").inner_text()
    refused = subprocess.run([str(ZAIKO_BIN), "user", "token", "nobody", "--data", str(server.data_dir)], capture_output=True, text=True)
    assert refused.returncode != 0 and 'No member has the login "nobody"' in refused.stderr
