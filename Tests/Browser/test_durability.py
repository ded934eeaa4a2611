"""Acknowledged writes reach the disk: the running server is traced with strace while an item is
saved, and every write to the WAL must be synced before the server answers anyone. Also: a clean
stop leaves no WAL behind (the database file alone holds every write)."""

import http.cookiejar
import re
import shutil
import signal
import sqlite3
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from conftest import DEFAULT_PASSWORD, STOP_TIMEOUT, setup_code

STRACE = shutil.which("strace")


class Client:
    """One browser-less visitor: cookies kept, the form token read from each page."""

    def __init__(self, url):
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path):
        with self.opener.open(self.url + path, timeout=60) as response:
            return response.read().decode()

    def post(self, path, fields):
        page = self.get(path)
        token = re.search(r'name="_csrf" value="([^"]*)"', page).group(1)
        data = urllib.parse.urlencode({**fields, "_csrf": token}).encode()
        with self.opener.open(self.url + path, data=data, timeout=60) as response:
            self.landed = response.geturl()  # where the redirects ended
            return response.status, response.read().decode()


def set_up(server):
    client = Client(server.url)
    status, _ = client.post("/setup", {
        "household": "Tanaka", "name": "Aki", "login": "aki", "password": DEFAULT_PASSWORD,
        "password_confirm": DEFAULT_PASSWORD, "setup_code": setup_code(server)})
    assert status == 200
    return client


def add_item(client, name):
    status, page = client.post("/items/new", {
        "folder": "1", "d0.name": name, "d0.quantity": "1", "d0.unit": "piece", "d0.kind": "other", "action": "save"})
    assert status == 200 and name in page  # the 303 was followed to the list


@pytest.mark.skipif(STRACE is None, reason="strace is not installed")
def test_a_saved_item_is_synced_to_disk_before_the_answer(make_server, tmp_path):
    server = make_server()
    client = set_up(server)
    trace = tmp_path / "trace.txt"
    # -y names each descriptor's file, so WAL writes and socket sends can be told apart.
    tracer = subprocess.Popen([STRACE, "-f", "-y", "-qq", "-p", str(server.process.pid), "-o", str(trace),
                               "-e", "trace=pwrite64,fsync,fdatasync,sendto,sendmsg,writev,write"])
    try:
        # strace is attached once it reports the first syscall; the server's idle loop makes some.
        for _ in range(600):
            if trace.exists() and trace.stat().st_size > 0:
                break
            time.sleep(0.1)
        for n in range(3):
            add_item(client, f"Rice {n}")
    finally:
        tracer.send_signal(signal.SIGINT)
        tracer.wait(timeout=60)

    unsynced = False
    wal_writes = syncs = answers = 0
    lines = trace.read_text(errors="replace").splitlines()
    for index, line in enumerate(lines):
        call = re.search(r"\b(pwrite64|fsync|fdatasync|sendto|sendmsg|writev|write)\((\d+)<([^>]*)>", line)
        if not call:  # a call strace shows as <unfinished ...> counts from its start
            continue
        name, target = call.group(1), call.group(3)
        if name == "pwrite64" and target.endswith("zaiko.sqlite-wal"):
            wal_writes += 1
            unsynced = True
        elif name in ("fsync", "fdatasync") and target.endswith("zaiko.sqlite-wal"):
            syncs += 1
            unsynced = False
        elif target.startswith(("TCP:", "socket:", "TCPv6:")) and name != "pwrite64":
            answers += 1
            assert not unsynced, "an answer was sent before the WAL was synced:\n" + "\n".join(lines[max(0, index - 12):index + 1])
    assert wal_writes > 0 and answers > 0, f"nothing traced: {wal_writes} WAL writes, {answers} answers"
    assert syncs > 0


def test_a_clean_stop_leaves_the_database_file_complete(make_server):
    server = make_server()
    client = set_up(server)
    add_item(client, "Written just before the stop")
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=STOP_TIMEOUT)
    assert server.process.returncode == 0
    wal = server.data_dir / "zaiko.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0, f"the WAL holds {wal.stat().st_size} bytes after the stop"
    copy = server.data_dir.parent / "copy.sqlite"
    shutil.copyfile(server.data_dir / "zaiko.sqlite", copy)
    names = [row[0] for row in sqlite3.connect(copy).execute("SELECT name FROM item")]
    assert "Written just before the stop" in names
