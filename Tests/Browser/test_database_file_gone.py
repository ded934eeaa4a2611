"""The database file deleted under a running server (issue 22, item 11): no write is acknowledged
after the server notices, and the stop saves everything the open database held beside the file,
says where, and exits non-zero; that file opens, and a server started on it has every acknowledged
write."""

import re
import signal
import sqlite3
import urllib.error
import urllib.parse

from conftest import DEFAULT_PASSWORD, STOP_TIMEOUT
from test_durability import Client, set_up


def try_add(client, name):
    """Posts a new item; True when acknowledged (answered 303), False when refused or when the
    form itself could not be read (then nothing was posted)."""
    try:
        form = client.get("/items/new")
    except urllib.error.HTTPError as unavailable:
        assert unavailable.code in (503, 507), f"the form answered {unavailable.code}"
        return False
    token = re.search(r'name="_csrf" value="([^"]*)"', form).group(1)
    data = urllib.parse.urlencode({
        "folder": "1", "d0.name": name, "d0.quantity": "1", "d0.unit": "piece", "d0.kind": "other",
        "action": "save", "_csrf": token}).encode()
    try:
        with client.opener.open(client.url + "/items/new", data=data, timeout=60) as response:
            landed = response.geturl()
    except urllib.error.HTTPError as refused:
        if urllib.parse.urlsplit(refused.geturl()).path == "/folders/1":
            # The 303 acknowledged the write; only the list it leads to could not be read once the
            # file was gone.
            return True
        assert refused.code in (503, 507), f"refused with {refused.code}"
        assert name in refused.read().decode(), "the refused form keeps what was typed"
        return False
    # Acknowledged: the 303 was followed to the folder's list.
    assert urllib.parse.urlsplit(landed).path == "/folders/1", landed
    return True


def test_writes_after_the_file_is_deleted_are_refused_and_the_stop_saves_them_beside(make_server):
    server = make_server()
    client = set_up(server)
    assert try_add(client, "Rice before")
    (server.data_dir / "zaiko.sqlite").unlink()

    # The write path looks at the file at most a second apart: writes may still be acknowledged
    # until it does (they are kept, below), then every one is refused.
    acknowledged, refused = ["Rice before"], []
    for n in range(200):
        name = f"Rice {n}"
        (acknowledged if try_add(client, name) else refused).append(name)
        if len(refused) >= 3:
            break
    assert len(refused) >= 3, "writes were still acknowledged after the file was deleted"

    server.process.send_signal(signal.SIGTERM)
    code = server.process.wait(timeout=STOP_TIMEOUT)
    assert code != 0, "the stop after losing the file exited 0"
    rescued = sorted(server.data_dir.glob("zaiko.sqlite.rescued-*"))
    assert len(rescued) == 1, f"rescue files: {rescued}"
    assert str(rescued[0]) in server.stderr() + "\n".join(server.stdout_lines), "the stop says where it saved"

    with sqlite3.connect(rescued[0]) as db:
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
        names = {row[0] for row in db.execute("SELECT name FROM item")}
    assert set(acknowledged) <= names, f"acknowledged but lost: {set(acknowledged) - names}"
    assert not set(refused) & names

    # Put back as the operator is told: the next start has every acknowledged write.
    for stale in server.data_dir.glob("zaiko.sqlite-*"):
        stale.unlink()
    rescued[0].rename(server.data_dir / "zaiko.sqlite")
    again = make_server(data_dir=server.data_dir)
    status, home = Client(again.url).post("/login", {"login": "aki", "password": DEFAULT_PASSWORD})
    assert status == 200 and "Tanaka" in home, "a fresh server instead of the saved one"
    with sqlite3.connect(server.data_dir / "zaiko.sqlite") as db:
        assert set(acknowledged) <= {row[0] for row in db.execute("SELECT name FROM item")}
