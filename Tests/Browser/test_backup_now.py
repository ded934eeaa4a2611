"""Settings' "Back up now" and the download of the latest backup (issue 22, item 23), on a phone
(390 px) in both languages: the owner asks, the page answers at once, the backup is made on the
server's backup thread, and the archive it made downloads as a real Zaiko backup. Members never
see either. (Authorization and the refusal of a second concurrent run: Tests/WebTests/BackupNowTests.)"""

import json
import zipfile

import pytest
from playwright.sync_api import expect

from conftest import PHONE, REPO_ROOT, create_invitation, join, screenshot, setup_household

LOCALES = ["en-US", "ja-JP"]
CATALOGS = {locale: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text())
            for locale, code in (("en-US", "en"), ("ja-JP", "ja"))}


def tag(locale):
    return "en" if locale == "en-US" else "ja"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_owner_backs_up_now_and_downloads_the_archive_on_a_phone(server, make_page, locale, tmp_path):
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, server)
    page.goto(server.url + "/settings#backups")
    card = page.locator("#backups")
    expect(card).to_contain_text(t["autobackup_none_yet"])
    expect(card.locator("a.autobackup-download")).to_have_count(0)

    with page.expect_navigation():
        card.get_by_role("button", name=t["autobackup_now"]).click()
    assert page.url.endswith("/settings?backup=started#backups")
    # Answered at once: the page says the backup is being made, or that it has finished.
    status = card.locator(".autobackup-running, .autobackup-notice").first
    expect(status).to_be_visible()
    assert status.inner_text() in (t["autobackup_running"], t["autobackup_done"])
    # Reloaded until the server's backup thread has made it (an event, not a duration): the link
    # is there and the page no longer says it is being made (the archive is in place a moment
    # before its result is recorded, and a reload in that moment shows the link without the date).
    for _ in range(120):
        if card.locator("a.autobackup-download").count() and not card.locator(".autobackup-running").count():
            break
        page.wait_for_timeout(500)  # a poll interval, not a wait for an outcome
        page.reload()
    download_link = card.locator("a.autobackup-download")
    expect(download_link).to_have_text(t["autobackup_download"])
    expect(card).to_contain_text(t["autobackup_last_good"].split("{date}")[0].strip())
    box = download_link.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, "the link fits the phone's width"
    card.scroll_into_view_if_needed()
    screenshot(page, f"backup-now-phone-{tag(locale)}")

    with page.expect_download() as info:
        download_link.click()
    download = info.value
    assert download.suggested_filename.startswith("zaiko-backup-") and download.suggested_filename.endswith(".zip")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    with zipfile.ZipFile(saved) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        assert "zaiko.sqlite" in archive.namelist()
    assert manifest["rowCounts"]["household"] == 1
    assert (server.data_dir / "backups" / download.suggested_filename).exists()

    # A member sees neither the button nor the link, and cannot fetch the archive.
    link = create_invitation(page, server, role="member")
    member = make_page(PHONE, locale)
    join(member, link)
    assert member.goto(server.url + "/settings").status == 403
    assert member.goto(server.url + "/settings/backups/latest").status == 403
