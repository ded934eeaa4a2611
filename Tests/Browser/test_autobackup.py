"""Automatic backups (issue 14): on by default, each owner sees in Settings when the last good backup
was made, when the next is due, and a failure as an alert, in their language and the household's
time zone; members and viewers never reach it; --no-backup turns them off; a wrong --backup-keep or
--backup-hour stops the server with one sentence before anything is written.

The runner itself (schedule, retention, failures, push) is tested in Swift with an injected clock
(Tests/BackupsTests): a real server only backs up at its hour, so the failure shown here is written
into the status row the runner keeps, as a night's failed run would leave it."""

import json
import sqlite3
import subprocess
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect

from conftest import (DESKTOP, PHONE, REPO_ROOT, ZAIKO_BIN, create_invitation, join, no_axe_problems, screenshot,
                      setup_household, sign_in)

LOCALES = ["en-US", "ja-JP"]
CATALOGS = {locale: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text())
            for locale, code in (("en-US", "en"), ("ja-JP", "ja"))}


def tag(locale):
    return "en" if locale == "en-US" else "ja"


def before_date(text: str) -> str:
    """The words of a catalog entry before its {date}."""
    return text.split("{date}")[0]


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_new_server_schedules_daily_backups_and_says_so(server, make_page, locale):
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/settings#backups")
    card = page.locator("#backups")
    expect(card.locator("h2")).to_have_text(t["autobackup_heading"])
    expect(card).to_contain_text(t["autobackup_none_yet"])
    expect(card).to_contain_text(before_date(t["autobackup_next"]).strip())
    expect(card).not_to_contain_text(t["autobackup_off"])
    assert (server.data_dir / "backups").is_dir()
    # The next backup the running server scheduled is tomorrow's or today's 03:00, server time.
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        next_at = db.execute("SELECT next_at FROM backup_status").fetchone()[0]
    local = datetime.strptime(next_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).astimezone()
    assert (local.hour, local.minute) == (3, 0)
    assert timedelta(0) < local - datetime.now().astimezone() <= timedelta(hours=24)


@pytest.mark.parametrize("locale", LOCALES)
def test_owners_see_a_failure_and_the_last_good_backup_members_do_not(server, make_page, locale):
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    now = datetime.now(timezone.utc)
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        db.execute("UPDATE backup_status SET last_success_at = ?, last_success_file = 'zaiko-backup-x.zip', "
                   "last_failure_at = ?, last_failure_reason = 'disk_full'",
                   (iso(now - timedelta(days=2)), iso(now - timedelta(days=1))))
    page.goto(server.url + "/settings#backups")
    card = page.locator("#backups")
    alert = card.locator("[role=alert]")
    expect(alert).to_contain_text(t["backup_failure_disk_full"])
    expect(card).to_contain_text(before_date(t["autobackup_last_good"]).strip())
    no_axe_problems(page)
    card.scroll_into_view_if_needed()
    screenshot(page, f"autobackup-failure-phone-{tag(locale)}")

    desktop = make_page(DESKTOP, locale)
    sign_in(desktop, server)
    desktop.goto(server.url + "/settings#backups")
    expect(desktop.locator("#backups [role=alert]")).to_contain_text(t["backup_failure_disk_full"])
    no_axe_problems(desktop)
    desktop.locator("#backups").scroll_into_view_if_needed()
    screenshot(desktop, f"autobackup-failure-desktop-{tag(locale)}")

    # A member of the same household does not reach Settings, nor the backup's status.
    link = create_invitation(page, server, role="member")
    member = make_page(PHONE, locale)
    join(member, link)
    answer = member.goto(server.url + "/settings")
    assert answer.status == 403
    expect(member.locator("body")).not_to_contain_text(t["backup_failure_disk_full"])

    # A good backup since: no alert; the failure stays as a quiet line.
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        db.execute("UPDATE backup_status SET last_success_at = ?", (iso(now),))
    # Loaded again for sure: the page may already be at /settings with another #fragment.
    page.goto(server.url + "/settings")
    page.reload()
    expect(card.locator("[role=alert]")).to_have_count(0)
    expect(card).to_contain_text(t["backup_failure_disk_full"])
    screenshot(page, f"autobackup-recovered-phone-{tag(locale)}")


def test_no_backup_turns_them_off(make_server, make_page):
    server = make_server("--no-backup")
    page = make_page(PHONE, "en-US")
    setup_household(page, server)
    page.goto(server.url + "/settings#backups")
    expect(page.locator("#backups")).to_contain_text(CATALOGS["en-US"]["autobackup_off"])
    assert not (server.data_dir / "backups").exists()
    no_axe_problems(page)


@pytest.mark.parametrize("option, sentence", [
    (["--backup-keep", "7"], "--backup-keep takes the number of daily and weekly backups to keep, like 7,4"),
    (["--backup-keep", "0,4"], "--backup-keep takes the number of daily and weekly backups to keep, like 7,4"),
    (["--backup-hour", "24"], "--backup-hour must be an hour from 0 to 23, not 24."),
])
def test_a_wrong_backup_option_is_one_sentence_and_writes_nothing(tmp_path, option, sentence):
    data = tmp_path / "data"
    result = subprocess.run([str(ZAIKO_BIN), "serve", "--port", "0", "--data", str(data), *option],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode != 0
    assert sentence in result.stderr
    assert not data.exists()
