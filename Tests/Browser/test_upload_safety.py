"""Uploads at the HTTP level, without a browser: a body over the server's limit, hostile file
names, and crash safety (the server killed with SIGKILL while photos are being uploaded; after
a restart no row points to a missing file and no file lacks a row)."""

import http.client
import io
import os
import random
import re
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlparse

import pytest
from PIL import Image, ImageDraw

from conftest import DEFAULT_PASSWORD, ZAIKO_BIN, setup_code
from images import PHOTO_FILE, RED, jpeg_bytes, photo_files, solid_photo, upload_files

MB = 1024 * 1024


# --- A small HTTP client that keeps cookies and never follows redirects ----------

class Client:
    def __init__(self, base_url: str, timeout=60):
        parsed = urlparse(base_url)
        self.host, self.port = parsed.hostname, parsed.port
        self.cookies: dict[str, str] = {}
        self.timeout = timeout

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def keep_cookies(self, response):
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if value:
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)

    def request(self, method, path, body=None, headers=None):
        """Returns (status, headers, body bytes)."""
        conn = self.connection()
        try:
            all_headers = {"Cookie": self.cookie_header(), **(headers or {})}
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            data = response.read()
            self.keep_cookies(response)
            return response.status, response.headers, data
        finally:
            conn.close()

    def get(self, path):
        return self.request("GET", path)

    def post_form(self, path, fields: dict):
        return self.request("POST", path, urlencode(fields).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded"})

    def post_multipart(self, path, fields, files):
        body, content_type = multipart(fields, files)
        return self.request("POST", path, body, {"Content-Type": content_type})

    def csrf(self, path="/") -> str:
        status, _, html = self.get(path)
        assert status == 200, (path, status)
        return re.search(rb'name="_csrf" value="([^"]+)"', html).group(1).decode()


def multipart(fields: list, files: list) -> tuple[bytes, str]:
    """fields: [(name, value)]; files: [(field, file name as bytes or str, content type, data)]."""
    boundary = "----zaiko-test-" + "".join(random.choice("0123456789abcdef") for _ in range(16))
    out = io.BytesIO()
    for name, value in fields:
        out.write(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n".encode())
        out.write(str(value).encode() + b"\r\n")
    for field, file_name, content_type, data in files:
        if isinstance(file_name, str):
            file_name = file_name.encode()
        out.write(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"".encode()
                  + file_name + f"\"\r\nContent-Type: {content_type}\r\n\r\n".encode())
        out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def signed_in_client(server) -> Client:
    """First-run setup over plain HTTP; returns a client holding the owner's session."""
    client = Client(server.url)
    token = client.csrf("/setup")
    status, headers, _ = client.post_form("/setup", {
        "_csrf": token, "household": "Tanaka", "name": "Aki", "login": "aki",
        "password": DEFAULT_PASSWORD, "password_confirm": DEFAULT_PASSWORD, "setup_code": setup_code(server)})
    assert status == 303, status
    assert "zaiko_session" in client.cookies
    return client


def stock_folder(client) -> int:
    status, _, html = client.get("/")
    assert status == 200
    return int(re.search(rb'href="/folders/(\d+)"', html).group(1))


def item_form(client, folder, name, photo=None, file_name="photo.jpg", barcode=None):
    fields = [("_csrf", client.csrf(f"/items/new?folder={folder}")), ("folder", folder), ("action", "save"),
              ("d0.name", name), ("d0.quantity", "1"), ("d0.unit", "piece"), ("d0.kind", "other"),
              ("d0.status", "unopened")]
    if barcode:
        fields.append(("d0.barcode", barcode))
    files = [("d0.photo_file", file_name, "image/jpeg", photo)] if photo is not None else []
    return fields, files


def data_entries(server) -> set[str]:
    return {p.name for p in server.data_dir.iterdir()}


def ean13(prefix12: str) -> str:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(prefix12))
    return prefix12 + str((10 - total % 10) % 10)


# --- 1. A body over the limit ------------------------------------------------------

def send_raw(server, head: bytes, body_chunks) -> tuple[int | None, bytes, str]:
    """Sends a request by hand; stops sending when the server closes. Returns (status, body, note)."""
    conn = Client(server.url).connection()
    conn.connect()
    sock = conn.sock
    note = ""
    try:
        sock.sendall(head)
        for chunk in body_chunks:
            sock.sendall(chunk)
    except (BrokenPipeError, ConnectionResetError) as error:
        note = f"server closed while sending: {error!r}"
    try:
        response = http.client.HTTPResponse(sock, method="POST")
        response.begin()
        return response.status, response.read(), note
    except (ConnectionResetError, http.client.RemoteDisconnected) as error:
        return None, b"", note + f"; no response: {error!r}"
    finally:
        sock.close()


def big_upload(client, folder, size):
    fields, files = item_form(client, folder, "Huge photo", photo=os.urandom(size))
    return multipart(fields, files)


def test_body_over_20_mb_is_refused_with_413(server):
    client = signed_in_client(server)
    folder = stock_folder(client)
    before_photos = photo_files(server.data_dir)
    body, content_type = big_upload(client, folder, 25 * MB)
    head = (f"POST /items/new HTTP/1.1\r\nHost: {client.host}:{client.port}\r\nCookie: {client.cookie_header()}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    status, page, note = send_raw(server, head, (body[i:i + 64 * 1024] for i in range(0, len(body), 64 * 1024)))
    assert status == 413, note
    assert b"larger than this server accepts" in page
    assert photo_files(server.data_dir) == before_photos
    assert uploads_emptied(server.data_dir) == set()
    # Nothing was registered, and the server goes on serving.
    status, _, html = client.get(f"/folders/{folder}")
    assert status == 200 and b"Huge photo" not in html


def test_chunked_body_over_20_mb_is_refused(server):
    """Without a Content-Length the body is not read at all: 411 from the headers (no browser
    sends a form in chunks), never a stored file."""
    client = signed_in_client(server)
    folder = stock_folder(client)
    before_photos = photo_files(server.data_dir)
    body, content_type = big_upload(client, folder, 25 * MB)
    head = (f"POST /items/new HTTP/1.1\r\nHost: {client.host}:{client.port}\r\nCookie: {client.cookie_header()}\r\n"
            f"Content-Type: {content_type}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode()

    def chunks():
        for i in range(0, len(body), 64 * 1024):
            piece = body[i:i + 64 * 1024]
            yield f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
        yield b"0\r\n\r\n"
    status, _, note = send_raw(server, head, chunks())
    assert status in (411, None), (status, note)
    assert photo_files(server.data_dir) == before_photos
    assert uploads_emptied(server.data_dir) == set()
    status, _, html = client.get(f"/folders/{folder}")
    assert status == 200 and b"Huge photo" not in html


# --- 2. Hostile file names ---------------------------------------------------------

HOSTILE_NAMES = {
    "dot-dot": b"../../../../../../tmp/zaiko-evil.jpg",
    "nul": b"innocent.jpg\x00../../zaiko-evil.sh",
    "4kb": ("\u5728\u5eab" * 700).encode() + b"a" * 100 + b".jpg",  # 4,300 bytes of characters
    "all": b"../" * 20 + b"zaiko-evil\x00.jpg" + b"x" * 4096,
}


def uploads_emptied(data_dir, timeout=60.0) -> set[str]:
    """uploads/ once the request is over: its temporary files go when libmicrohttpd reports the
    request completed, which may be just after the client has read the response (the timeout
    only gives up; an empty folder returns at once)."""
    deadline = time.monotonic() + timeout
    while upload_files(data_dir) and time.monotonic() < deadline:
        time.sleep(0.05)
    return upload_files(data_dir)


@pytest.mark.parametrize("kind", list(HOSTILE_NAMES))
def test_hostile_file_name_is_never_used(server, kind, tmp_path):
    """The client's file name never becomes a path. The photo is then either stored under a
    server-made name, or refused with a message; an item registered without the photo the
    person sent, with no word about it, is a failure too."""
    file_name = HOSTILE_NAMES[kind]
    assert kind not in ("4kb", "all") or len(file_name) >= 4096
    client = signed_in_client(server)
    folder = stock_folder(client)
    before = photo_files(server.data_dir)
    entries = data_entries(server)
    photo = solid_photo(tmp_path / "ok.jpg", RED).read_bytes()

    fields, files = item_form(client, folder, f"Named {kind}", photo=photo, file_name=file_name)
    status, headers, page = client.post_multipart("/items/new", fields, files)
    added = photo_files(server.data_dir) - before
    # Nothing outside photos/: not beside the database, not where the name points.
    assert data_entries(server) == entries
    assert uploads_emptied(server.data_dir) == set()
    assert [p for p in tmp_path.parent.rglob("*zaiko-evil*")] + list(Path("/tmp").glob("zaiko-evil*")) == []
    assert all(PHOTO_FILE.match(name) for name in added), added
    if status == 422:
        assert added == set()
        assert b'id="f-d0-picture-error"' in page, "refused without a message beside the photo field"
        return
    assert status == 303, page.decode(errors="replace")[:2000]
    assert headers["Location"].startswith(f"/folders/{folder}")
    _, _, html = client.get(f"/folders/{folder}")
    assert f"Named {kind}".encode() in html
    assert b"zaiko-evil" not in html and b"innocent" not in html
    # Registered: then with the photo that was sent, stored under generated names only.
    assert len(added) == 2, f"the item was registered without its photo (status {status}), and no message said so"
    assert re.search(rb'src="/photos/[0-9a-f]{32}/128"', html)


# --- 3. Crash safety ----------------------------------------------------------------

def busy_photo(seed: int) -> bytes:
    """A 2400×1800 JPEG with detail, so decoding and scaling take a moment."""
    rng = random.Random(seed)
    image = Image.new("RGB", (2400, 1800), tuple(rng.randrange(256) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    for _ in range(300):
        x, y = rng.randrange(2400), rng.randrange(1800)
        draw.ellipse([x, y, x + rng.randrange(20, 300), y + rng.randrange(20, 300)],
                     fill=tuple(rng.randrange(256) for _ in range(3)))
    noise = Image.effect_noise((2400, 1800), 40).convert("RGB")
    return jpeg_bytes(Image.blend(image, noise, 0.25), quality=92)


def check_consistency(data_dir: Path) -> dict:
    """Every photo row has both files; every item and product photo has a row; no file lacks a row."""
    db = sqlite3.connect(f"file:{data_dir / 'zaiko.sqlite'}?mode=ro", uri=True)
    try:
        rows = dict(db.execute("SELECT key, format FROM photo").fetchall())
        item_photos = {k for (k,) in db.execute("SELECT photo FROM item WHERE photo IS NOT NULL")}
        product_photos = {k for (k,) in db.execute("SELECT photo FROM product WHERE photo IS NOT NULL")}
        items = db.execute("SELECT count(*) FROM item").fetchone()[0]
    finally:
        db.close()
    files = photo_files(data_dir)
    expected = {f"{key}-{size}.{'webp' if fmt == 'webp' else 'jpg'}" for key, fmt in rows.items() for size in (512, 128)}
    missing = expected - files
    assert not missing, f"photo rows whose files are missing: {sorted(missing)}"
    assert not item_photos - rows.keys(), f"items pointing to photos without a row: {item_photos - rows.keys()}"
    assert not product_photos - rows.keys(), f"products pointing to photos without a row: {product_photos - rows.keys()}"
    orphans = files - expected
    assert not orphans, f"files in photos/ without a row: {sorted(orphans)}"
    assert uploads_emptied(data_dir, timeout=0) == set(), "files left in uploads/"
    return {"photos": len(rows), "items": items, "item_photos": len(item_photos), "product_photos": len(product_photos)}


def upload_storm(server, client, folder, photos, round_no, kill_after=3):
    """Sends every photo at once from its own thread; SIGKILLs the server once `kill_after`
    uploads have been answered. Returns (answered, failed) counts."""
    forms = []
    for i, photo in enumerate(photos):
        barcode = ean13(f"49{round_no:02d}{i:08d}") if i % 2 == 0 else None  # half also teach a product
        forms.append(multipart(*item_form(client, folder, f"Round {round_no} item {i}", photo=photo, barcode=barcode)))
    answered, failed, lock = [], [], threading.Lock()
    go = threading.Event()

    def send(body, content_type):
        go.wait()
        try:
            status, _, _ = client.request("POST", "/items/new", body, {"Content-Type": content_type})
            with lock:
                answered.append(status)
        except (OSError, http.client.HTTPException) as error:
            with lock:
                failed.append(repr(error))

    threads = [threading.Thread(target=send, args=form, daemon=True) for form in forms]
    for thread in threads:
        thread.start()
    go.set()
    deadline = time.monotonic() + 120
    while len(answered) < kill_after and time.monotonic() < deadline and server.process.poll() is None:
        time.sleep(0.005)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=60)
    for thread in threads:
        thread.join(timeout=30)
    return answered, failed


def test_kill_during_uploads_leaves_no_dangling_rows_or_orphan_files(make_server):
    server = make_server()
    client = signed_in_client(server)
    folder = stock_folder(client)
    photos = [busy_photo(seed) for seed in range(20)]
    data_dir = server.data_dir
    cookies = dict(client.cookies)

    saved = 0
    for round_no, kill_after in enumerate((3, 10)):
        answered, failed = upload_storm(server, client, folder, photos, round_no, kill_after)
        print(f"round {round_no}: {len(answered)} uploads answered before the kill, {len(failed)} cut off")
        assert all(status == 303 for status in answered), answered
        # The kill must have hit uploads in flight, or this proves nothing.
        assert len(answered) >= kill_after and failed, f"answered {len(answered)}, cut off {len(failed)}"
        saved += len(answered)
        server = make_server(data_dir=data_dir)
        client = Client(server.url)
        client.cookies.update(cookies)  # the session survives the restart
        counts = check_consistency(data_dir)
        assert counts["items"] >= saved  # every upload that was answered is there
        # What was saved is whole: every item's photo is served.
        status, _, html = client.get(f"/folders/{folder}")
        assert status == 200
        for src in set(re.findall(rb'src="(/photos/[0-9a-f]{32}/128)"', html)):
            status, headers, data = client.get(src.decode())
            assert status == 200 and headers["Content-Type"] == "image/jpeg" and len(data) > 0
            assert Image.open(io.BytesIO(data)).size == (128, 128)


# --- 4. Stopping cleanly -------------------------------------------------------------

def test_sigterm_always_exits_cleanly(tmp_path):
    """SIGTERM on an idle server exits 0, every time (the photo cleaner must not touch the
    database while it is being closed), also when it comes the moment "Listening on" is printed
    (the handler must be in place before the announcement)."""
    codes = []
    for i in range(25):
        data = tmp_path / f"data{i}"
        data.mkdir()
        # Without HTTPS: its default port 8443 may be taken on this machine, and making a local CA
        # for each of 25 starts is most of their cost (every other test's server listens for HTTPS
        # and is stopped with SIGTERM, its exit code checked: conftest's make_server).
        proc = subprocess.Popen([str(ZAIKO_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--no-https", "--data", str(data),
                                 "--resources", str(Path(__file__).resolve().parents[2])],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout.readline().startswith("Listening on ")
            if i % 2:
                time.sleep(0.1)
            proc.send_signal(signal.SIGTERM)
            codes.append(proc.wait(timeout=60))
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
    assert codes == [0] * len(codes), f"exit codes of 25 stops: {codes}"
