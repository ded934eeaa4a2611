"""Backups by the person who runs the server, through the real binary: `zaiko backup` while
`zaiko serve` runs on the same data folder, `zaiko restore` into a new folder, then a server on
the restored folder shows the same list page, photo included."""

import json
import subprocess
import zipfile

from conftest import PHONE, ZAIKO_BIN, screenshot, sign_in
from images import solid_photo
from test_inventory import click_nav, first_folder, row_names


def zaiko(*args, check=True) -> subprocess.CompletedProcess:
    result = subprocess.run([str(ZAIKO_BIN), *args], capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def demo_login(data) -> tuple[str, str]:
    output = zaiko("demo", "--items", "40", "--data", str(data)).stdout
    fields = dict(line.split(": ", 1) for line in output.splitlines() if ": " in line)
    return fields["Login"], fields["Password"]


def test_backup_while_serving_then_restore_elsewhere(make_server, make_page, tmp_path):
    data = tmp_path / "live"
    login, password = demo_login(data)
    server = make_server(data_dir=data)
    page = make_page(PHONE, "en-US")
    sign_in(page, server, login=login, password=password)
    folder = first_folder(page, server, "stock")

    # One item gets a real photo through the item page, so the archive carries photo files.
    page.goto(f"{server.url}/folders/{folder}")
    first_item = page.locator("li.item-row a.item-name").first.get_attribute("href")
    page.goto(server.url + first_item)
    page.set_input_files("#f-photo_file", str(solid_photo(tmp_path / "tea.jpg", (40, 120, 60))))
    click_nav(page, "form.photo-form button[type=submit]")

    page.goto(f"{server.url}/folders/{folder}")
    names = row_names(page)
    thumbs = page.locator("img.item-thumb").evaluate_all("els => els.map(e => e.getAttribute('src'))")
    assert names and any(src.startswith("/photos/") for src in thumbs)
    photo_src = next(src for src in thumbs if src.startswith("/photos/"))
    photo_bytes = page.request.get(server.url + photo_src).body()

    # The backup runs beside the serving server, into <data>/backups by default.
    result = zaiko("backup", "--data", str(data))
    assert server.process.poll() is None, "the server stopped during the backup"
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("Backup written to ") and "40 items, 2 photo files" in line
    archive = line[len("Backup written to "):].split(" (")[0]
    assert archive.startswith(str(data / "backups" / "zaiko-backup-")) and archive.endswith(".zip")
    with zipfile.ZipFile(archive) as zip_file:
        manifest = json.loads(zip_file.read("manifest.json"))
        assert sorted(zip_file.namelist()) == sorted(["manifest.json"] + [f["path"] for f in manifest["files"]])
    assert manifest["rowCounts"]["item"] == 40 and manifest["formatVersion"] == 1

    # Restore into a new folder; a second restore there is refused with one sentence.
    restored = tmp_path / "restored"
    output = zaiko("restore", archive, "--data", str(restored)).stdout
    assert "Restored the backup of" in output
    refused = zaiko("restore", archive, "--data", str(restored), check=False)
    assert refused.returncode != 0
    assert refused.stderr.strip().count("\n") == 0 and "--replace" in refused.stderr

    # A server on the restored folder shows the same list and the same photo.
    second = make_server(data_dir=restored)
    other = make_page(PHONE, "en-US")
    sign_in(other, second, login=login, password=password)
    other.goto(f"{second.url}/folders/{folder}")
    assert row_names(other) == names
    assert other.request.get(second.url + photo_src).body() == photo_bytes
    screenshot(other, "backup-restored-list-phone")


def test_restore_refuses_a_damaged_archive_and_writes_nothing(tmp_path):
    data = tmp_path / "live"
    demo_login(data)
    archive = tmp_path / "backup.zip"
    zaiko("backup", "--data", str(data), "--to", str(archive))
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    result = zaiko("restore", str(damaged), "--data", str(tmp_path / "restored"), check=False)
    assert result.returncode != 0
    assert "not a readable ZIP archive" in result.stderr and result.stderr.strip().count("\n") == 0
    assert not (tmp_path / "restored").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.zip", "damaged.zip", "live"]

