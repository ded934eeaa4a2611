"""The household's data is for the account that runs Zaiko only: a real run creates the data
folder 0700 and the database (with its WAL) and every other file 0600, whatever the umask
it was started with."""

import os
import stat
import subprocess
import urllib.request

from conftest import ZAIKO_BIN


def modes(root) -> dict:
    """Path (relative to root) -> permission bits, for root and everything under it."""
    found = {".": stat.S_IMODE(os.stat(root).st_mode)}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = stat.S_IMODE(os.lstat(path).st_mode)
    return found


def assert_private(root):
    found = modes(root)
    assert "zaiko.sqlite" in found
    for path, mode in found.items():
        expected = 0o700 if os.path.isdir(os.path.join(root, path)) else 0o600
        assert mode == expected, f"{path} is {oct(mode)}, not {oct(expected)}: {found}"


def test_serve_creates_its_data_for_its_account_only(make_server, tmp_path):
    old = os.umask(0o022)  # the usual umask, which would make files world-readable
    try:
        data = tmp_path / "fresh" / "data"
        server = make_server(data_dir=data)
    finally:
        os.umask(old)
    # A write, so the WAL and its index exist too.
    with urllib.request.urlopen(server.url + "/setup") as response:
        assert response.status == 200
    assert_private(data)
    assert (data / "zaiko.sqlite-wal").exists()


def test_demo_creates_its_data_for_its_account_only(tmp_path):
    data = tmp_path / "demo"
    result = subprocess.run([str(ZAIKO_BIN), "demo", "--items", "3", "--data", str(data)],
                            capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.umask(0o022))
    assert result.returncode == 0, result.stderr
    assert_private(data)
