"""Backups and restores killed with SIGKILL mid-way (issue 22, item 14): every temporary file and
folder they make carries one prefix (`.zaiko-tmp-<pid>-…`), and the next start of `zaiko serve`
(or the next backup or restore) removes those of processes that have ended, so no database
snapshot with password hashes, no photo hard links and no partial archive stays on disk.

The commands run as real child processes of this test and are killed as soon as their temporary
files appear: the test waits for that event, never for a duration."""

import os
import shutil
import signal
import sqlite3
import subprocess
import time

import pytest

from conftest import ZAIKO_BIN

PREFIX = ".zaiko-tmp-"


def zaiko(*args) -> subprocess.CompletedProcess:
    result = subprocess.run([str(ZAIKO_BIN), *args], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result


def leftovers(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.startswith(PREFIX)) if folder.exists() else []


def heavy_data(folder):
    """A demo household whose items carry 40 photos of 256 KB of random bytes each (10 MB), so a
    backup and a restore take long enough to be caught half-way (the watch polls every millisecond)."""
    zaiko("demo", "--items", "40", "--data", str(folder))
    photos = folder / "photos"
    photos.mkdir(exist_ok=True)
    with sqlite3.connect(folder / "zaiko.sqlite") as db:
        household, = db.execute("SELECT id FROM household").fetchone()
        items = [row[0] for row in db.execute("SELECT id FROM item ORDER BY id")]
        for index, item in enumerate(items):
            key = f"{index:032x}"
            for size in (512, 128):
                (photos / f"{key}-{size}.jpg").write_bytes(os.urandom(1 << 18 if size == 512 else 1 << 14))
            db.execute("INSERT INTO photo (key, household_id, format, created_at) VALUES (?, ?, 'jpeg', '2026-11-22T10:00:00Z')",
                       (key, household))
            db.execute("UPDATE item SET photo = ?, illustration = NULL WHERE id = ?", (key, item))


def killed_once_its_files_appear(command: list[str], watched, undo) -> list[str]:
    """Starts `command`, kills it with SIGKILL as soon as a temporary file appears in `watched`;
    what it left there. A run that finished before it could be caught is undone (`undo`) and tried
    again."""
    for _ in range(20):
        process = subprocess.Popen([str(ZAIKO_BIN), *command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while process.poll() is None and not leftovers(watched):
            time.sleep(0.001)  # a poll interval, not a wait for an outcome
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
            left = leftovers(watched)
            if left:
                return left
        else:
            assert process.returncode == 0
            undo()
    pytest.fail("the command always finished before its temporary files could be seen")


def remove_archives(folder):
    def undo():
        for archive in folder.glob("zaiko-backup-*.zip"):
            archive.unlink()
    return undo


def remove_folder(folder):
    return lambda: shutil.rmtree(folder, ignore_errors=True)


def test_a_backup_killed_mid_way_leaves_nothing_after_the_next_start(make_server, tmp_path):
    data = tmp_path / "live"
    heavy_data(data)
    backups = data / "backups"
    backups.mkdir()
    left = killed_once_its_files_appear(["backup", "--data", str(data)], backups, remove_archives(backups))
    assert all(name.startswith(PREFIX) for name in left)

    server = make_server("--no-https", data_dir=data)
    assert server.process.poll() is None
    assert leftovers(backups) == []
    # The photos the killed backup had hard-linked are still there: only its own files went.
    assert len(list((data / "photos").glob("*-512.jpg"))) == 40


def test_a_restore_killed_mid_way_leaves_nothing_after_the_next_start(make_server, tmp_path):
    data = tmp_path / "live"
    heavy_data(data)
    archive = tmp_path / "archive.zip"
    zaiko("backup", "--data", str(data), "--to", str(archive))
    place = tmp_path / "restore-place"
    place.mkdir()
    target = place / "restored"
    left = killed_once_its_files_appear(["restore", str(archive), "--data", str(target)], place, remove_folder(target))
    assert all(name.startswith(PREFIX) for name in left)
    assert not target.exists()

    # The next restore sweeps what the killed one left beside its target, and succeeds.
    zaiko("restore", str(archive), "--data", str(target))
    assert leftovers(place) == []
    assert (target / "zaiko.sqlite").exists()

    # Killed again, then a server started on the folder beside it sweeps it too.
    other = place / "second"
    killed_once_its_files_appear(["restore", str(archive), "--data", str(other)], place, remove_folder(other))
    server = make_server("--no-https", data_dir=target)
    assert server.process.poll() is None
    assert leftovers(place) == []
