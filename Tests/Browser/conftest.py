"""Shared fixtures for Zaiko's browser tests: a real zaiko server per test and
Playwright pages driving Debian's Chromium (no Playwright browser downloads).

No test reads the real clock: every zaiko process started here (servers, `zaiko demo`) reads the
time from a test clock file (ZAIKO_TEST_CLOCK, see README), and tests ask `now()` / `today()` or
`server.clock` for it. The clock starts at 03:00 UTC on the day the run starts (noon in Tokyo), so
no test sees a day end, and a test moves it with `server.clock.advance(seconds)` instead of waiting."""

import atexit
import base64
import hashlib
import os
import queue
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from html.parser import HTMLParser
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, expect, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[2]
ZAIKO_BIN = Path(os.environ.get("ZAIKO_BIN", REPO_ROOT / ".build" / "debug" / "zaiko"))
# Debian's old headless shell (chromium-headless-shell): the same Blink and V8 as /usr/bin/chromium
# without the desktop browser around them, as Playwright itself runs headless tests. It opens a page
# for a third of the CPU, and the browser suite is CPU-bound on two cores.
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium-headless-shell")
SCREENSHOT_DIR = REPO_ROOT / "test-output" / "screenshots"
# Screenshots are for people to look at (`make screenshots`); `make test` lays out and checks the
# same pages without writing a PNG of each.
SAVE_SCREENSHOTS = os.environ.get("ZAIKO_SCREENSHOTS") == "1"
# Give-ups, not assertions about speed: on a loaded two-core CI machine a debug build may take
# many seconds to start or stop. A test never asserts how long anything took.
STARTUP_TIMEOUT = 90  # seconds to wait for "Listening on"
STOP_TIMEOUT = 60  # seconds to wait for exit after SIGTERM
PAGE_TIMEOUT_MS = 60_000  # Playwright actions and navigations
EXPECT_TIMEOUT_MS = 30_000  # Playwright expect() polling

expect.set_options(timeout=EXPECT_TIMEOUT_MS)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


class ServerClock:
    """A ZAIKO_TEST_CLOCK file: it holds an instant, and the time runs on from it at the real rate,
    counted from the file's modification time (as zaiko's FileClock reads it)."""

    def __init__(self, path: Path):
        self.path = path

    def set(self, instant: datetime):
        """Moves the clock to `instant` (a running server sees it within a second)."""
        text = instant.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        # Written beside and renamed over: a server never reads half an instant.
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(text + "\n")
        os.replace(partial, self.path)

    def now(self) -> datetime:
        written = datetime.strptime(self.path.read_text().strip(), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
        return written + timedelta(seconds=time.time() - self.path.stat().st_mtime)

    def advance(self, seconds: float):
        self.set(self.now() + timedelta(seconds=seconds))

    def copy_to(self, path: Path) -> "ServerClock":
        """A clock of its own that shows the same time until one of them is moved."""
        shutil.copy2(self.path, path)  # content and modification time
        return ServerClock(path)


_clock_dir = Path(tempfile.mkdtemp(prefix="zaiko-test-clock-"))
atexit.register(shutil.rmtree, _clock_dir, ignore_errors=True)
# One per test process (each xdist worker): zaiko processes started outside make_server read this one.
RUN_CLOCK = ServerClock(_clock_dir / "clock")
RUN_CLOCK.set(datetime.now(timezone.utc).replace(hour=3, minute=0, second=0, microsecond=0))
os.environ["ZAIKO_TEST_CLOCK"] = str(RUN_CLOCK.path)


def now() -> datetime:
    """The time zaiko processes started now see (UTC): the test's server clock inside make_server."""
    return ServerClock(Path(os.environ["ZAIKO_TEST_CLOCK"])).now()


def today() -> date:
    """Today in UTC as zaiko sees it (a new household is in UTC)."""
    return now().date()


@dataclass
class Server:
    url: str
    data_dir: Path
    process: subprocess.Popen
    stdout_lines: list = field(default_factory=list)
    stderr_path: Path | None = None
    # The HTTPS origin when the server listens for it.
    https_url: str | None = None
    # The clock the server reads (shared by every server of one test, and by `zaiko demo` run in it).
    clock: ServerClock | None = None

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path else ""


def _pump(stream, lines: list, q: queue.Queue):
    # Keep draining stdout so the server never blocks on a full pipe.
    for line in stream:
        line = line.rstrip("\n")
        lines.append(line)
        q.put(line)
    q.put(None)  # EOF: the server exited


@pytest.fixture
def make_server(tmp_path, monkeypatch):
    """Factory: make_server(*extra_args) starts zaiko with its own data dir, or with
    data_dir=... the data dir of an earlier server (a restart after a crash). The test's servers
    and the zaiko commands it runs share one clock (server.clock), which starts at the run's."""
    if not ZAIKO_BIN.exists():
        pytest.fail(f"zaiko binary not found at {ZAIKO_BIN} (set ZAIKO_BIN)")
    started = []
    clock = RUN_CLOCK.copy_to(tmp_path / "zaiko-clock")
    monkeypatch.setenv("ZAIKO_TEST_CLOCK", str(clock.path))

    def start(*extra_args, data_dir: Path | None = None) -> Server:
        n = len(started)
        if data_dir is None:
            data_dir = tmp_path / f"data{n}"
            data_dir.mkdir()
        stderr_path = tmp_path / f"stderr{n}.log"
        # HTTPS on a free port too (its default 8443 would clash between servers), unless the test says.
        https = [] if {"--https-port", "--no-https"} & set(extra_args) else ["--https-port", "0"]
        cmd = [str(ZAIKO_BIN), "serve", "--host", "127.0.0.1", "--port", "0",
               "--data", str(data_dir), "--resources", str(REPO_ROOT), *https, *extra_args]
        with open(stderr_path, "w") as err:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, cwd=tmp_path)
        server = Server(url="", data_dir=data_dir, process=proc, stderr_path=stderr_path, clock=clock)
        started.append(server)
        q: queue.Queue = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, server.stdout_lines, q), daemon=True).start()
        try:
            first = q.get(timeout=STARTUP_TIMEOUT)
        except queue.Empty:
            pytest.fail(f"zaiko printed nothing in {STARTUP_TIMEOUT}s; stderr:\n{server.stderr()}")
        prefix = "Listening on "
        if first is None or not first.startswith(prefix):
            pytest.fail(f"unexpected first line {first!r}; stderr:\n{server.stderr()}")
        server.url = "http://" + first[len(prefix):].strip()
        second = q.get(timeout=STARTUP_TIMEOUT) or ""
        if second.startswith("Listening for HTTPS on "):
            server.https_url = "https://" + second[len("Listening for HTTPS on "):].strip()
        return server

    yield start

    # Stop every server first, then report problems, so none is left running.
    problems = []
    for server in started:
        proc = server.process
        if proc.poll() is not None:
            continue  # a test stopped it (or it died); the test reports that
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            problems.append(f"zaiko ignored SIGTERM for {STOP_TIMEOUT}s")
            continue
        if proc.returncode != 0:  # a clean shutdown exits 0
            problems.append(f"zaiko exited {proc.returncode} on SIGTERM; stderr:\n{server.stderr()}")
    if problems:
        pytest.fail("\n".join(problems))


@pytest.fixture
def server(make_server) -> Server:
    return make_server()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as pw:
        # --no-sandbox: we run as root, where Chromium's sandbox refuses to start.
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def locale():
    """Override with @pytest.mark.parametrize("locale", [...]); sets Accept-Language."""
    return "en-US"


# Report CSP violations as console errors so one listener catches everything.
_CSP_HOOK = """
document.addEventListener('securitypolicyviolation', e =>
  console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + e.blockedURI));
"""


@pytest.fixture
def make_page(browser):
    """Factory: make_page(device, locale) -> Page. Each page gets .console_errors."""
    contexts = []

    def new(device: dict, locale: str):
        # color_scheme=light keeps colour assertions and screenshots deterministic.
        ctx = browser.new_context(**device, locale=locale, color_scheme="light")
        contexts.append(ctx)
        ctx.set_default_timeout(PAGE_TIMEOUT_MS)
        ctx.add_init_script(_CSP_HOOK)
        page = ctx.new_page()
        page.console_errors = []
        # Keep the source URL so a test can tell which resource an error is about.
        page.on("console", lambda m: m.type == "error" and page.console_errors.append(
            f"{m.text} [{m.location.get('url', '')}]"))
        page.on("pageerror", lambda e: page.console_errors.append(f"uncaught: {e}"))
        return page

    yield new
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def page_phone(make_page, locale):
    return make_page(PHONE, locale)


@pytest.fixture
def page_desktop(make_page, locale):
    return make_page(DESKTOP, locale)


def screenshot(target, name: str, full_page: bool = True) -> Path:
    """Save a PNG of a page (the whole page, or with full_page=False what the first screen shows) or
    of one element (a Locator) to <repo>/test-output/screenshots/<name>.png, when screenshots are
    asked for (ZAIKO_SCREENSHOTS=1, `make screenshots`)."""
    path = SCREENSHOT_DIR / f"{name}.png"
    if SAVE_SCREENSHOTS:
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        if isinstance(target, Locator):
            target.screenshot(path=str(path))
        else:
            target.screenshot(path=str(path), full_page=full_page)
    return path


_AXE = Axe()


def run_axe(page):
    """axe-core's violations on the page as it is now (axe.min.js ships inside the
    axe-playwright-python wheel: no network needed). Colour contrast, three quarters of axe's work
    on a long list, is checked on English pages only: the colours do not change with the language."""
    lang = page.evaluate("document.documentElement.lang")
    options = {"resultTypes": ["violations"]}
    if lang and not lang.startswith("en") and os.environ.get("ZAIKO_AXE_CONTRAST") != "all":
        options["rules"] = {"color-contrast": {"enabled": False}}
    started = time.monotonic()
    result = _AXE.run(page, options=options)
    if os.environ.get("AXE_LOG"):
        with open(os.environ["AXE_LOG"], "a") as log:
            log.write(f"{time.monotonic() - started:.2f} {lang} {page.url}\n")
    return result


SERIOUS = ("serious", "critical")
EVERY_IMPACT = ("minor", "moderate", *SERIOUS)


def axe_problems(page, label: str, impacts=SERIOUS) -> list[str]:
    """axe's violations of these impacts on the page as it is now, a line each naming the page
    (label), the rule and the elements."""
    return [f"{label}: axe {v['impact']} {v['id']}: {v['help']} ({[n['target'] for n in v['nodes']]})"
            for v in run_axe(page).response["violations"] if v["impact"] in impacts]


def no_axe_problems(page, impacts=SERIOUS):
    assert axe_problems(page, page.url, impacts) == []


# --- Accounts: drive first-run setup, sign-in and invitations through the UI ---

SETUP_CODE_TIMEOUT = 60  # seconds to wait for the "Setup code:" line (a give-up)
DEFAULT_PASSWORD = "correct horse battery"


def setup_code(server: Server) -> str:
    """The one-time code a fresh server prints on stdout ("Setup code: XXXX-XXXX-XXXX")."""
    prefix = "Setup code: "
    deadline = time.monotonic() + SETUP_CODE_TIMEOUT
    while time.monotonic() < deadline:
        for line in list(server.stdout_lines):
            if line.startswith(prefix):
                return line[len(prefix):].strip()
        time.sleep(0.05)
    pytest.fail(f"no 'Setup code:' line in {SETUP_CODE_TIMEOUT}s; stdout:\n" + "\n".join(server.stdout_lines))


def fill_setup_form(page, household, name, login, password, code):
    page.fill("input[name=household]", household)
    page.fill("input[name=name]", name)
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.fill("input[name=password_confirm]", password)
    page.fill("input[name=setup_code]", code)
    with page.expect_navigation():
        page.click("main form button[type=submit]")


class _FormDefaults(HTMLParser):
    """The fields a form sends when nothing is typed: each input's value, each select's chosen option
    (else its first), and the options a select offers."""

    def __init__(self):
        super().__init__()
        self.fields, self.options, self._select = {}, {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name") and a.get("type") not in ("checkbox", "radio", "submit"):
            self.fields[a["name"]] = a.get("value") or ""
        elif tag == "select" and a.get("name"):
            self._select = a["name"]
            self.options[self._select] = []
        elif tag == "option" and self._select:
            offered = self.options[self._select]
            offered.append(a.get("value") or "")
            if len(offered) == 1 or "selected" in a:
                self.fields[self._select] = offered[-1]

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def setup_household(page, server, household="Tanaka", name="Aki", login="aki", password=DEFAULT_PASSWORD):
    """First-run setup as the page's browser sends it, leaving `page` signed in on the home page.

    The form is posted through the page's own cookie jar (page.request) with its language and user
    agent, and the time zone its script would choose, instead of being typed: the setup form itself
    is driven through the UI in test_first_setup and test_accounts, and typing it costs about a
    quarter of what most tests do in the browser (two loads and six fields)."""
    language = page.evaluate("navigator.language")
    headers = {"Accept-Language": language, "Origin": server.url}
    form = _FormDefaults()
    form.feed(page.request.get(server.url + "/setup", headers=headers).text())
    fields = {**form.fields, "household": household, "name": name, "login": login, "password": password,
              "password_confirm": password, "setup_code": setup_code(server)}
    zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    if zone in form.options.get("time_zone", []):  # as app.js does; without script the server's zone stays
        fields["time_zone"] = zone
    answer = page.request.post(server.url + "/setup", headers=headers, form=fields, max_redirects=0)
    assert answer.status == 303 and answer.headers["location"] == "/", f"setup answered {answer.status}"
    page.goto(server.url + "/")
    assert page.url == server.url + "/", f"setup did not reach home; at {page.url}"
    assert page.locator("h1").inner_text() == household
    return page


def sign_in(page, server, login="aki", password=DEFAULT_PASSWORD, remember=False):
    """Submit the login form; returns the response of the page it lands on."""
    page.goto(server.url + "/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    if remember:
        page.check("input[name=remember]")
    with page.expect_navigation() as nav:
        page.click("main form button[type=submit]")
    return nav.value


def sign_out(page):
    """Sign out as a person would: the header button on a desktop, the account page on a phone."""
    button = page.locator("form[action='/logout'] button:visible")
    if button.count() == 0:
        page.click(".site-nav a[href='/account']")
        page.wait_for_load_state()
        button = page.locator("form[action='/logout'] button:visible")
    with page.expect_navigation():
        button.first.click()


def create_invitation(page, server, role="member") -> str:
    """As an owner, create an invitation link on /settings and return it."""
    page.goto(server.url + "/settings")
    page.select_option("#invite-role", role)
    with page.expect_navigation():
        page.click("form[action='/settings/invitations#invite'] button[type=submit]")
    return page.input_value("#invite-link")


def join(page, link, name="Ken", login="ken", password="another long passphrase"):
    """Accept an invitation link through the UI; returns the landing response."""
    page.goto(link)
    page.fill("input[name=name]", name)
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.fill("input[name=password_confirm]", password)
    with page.expect_navigation() as nav:
        page.click("main form button[type=submit]")
    return nav.value


# --- HTTPS: a test CA, a server whose certificate it signed, a Chromium that trusts it ---

# The certificate's name, mapped to 127.0.0.1 in Chromium: a page on 127.0.0.1 or localhost is a
# secure context even over HTTP, so only a real host name shows what HTTPS adds.
HTTPS_HOST = "zaiko.test"
_HTTPS_LINE = re.compile(r"^Listening for HTTPS on [^ ]+:(\d+)$")


def _openssl(*args, cwd=None):
    subprocess.run(["openssl", *args], check=True, cwd=cwd, capture_output=True)


@pytest.fixture
def certs(tmp_path) -> Path:
    """A CA and a leaf for 127.0.0.1, localhost and zaiko.test; server.crt is leaf + CA."""
    folder = tmp_path / "tls"
    folder.mkdir()
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", "ca.key", "-out", "ca.crt", "-days", "30", "-subj", "/CN=Zaiko browser test CA",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=folder)
    (folder / "leaf.ext").write_text(
        "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
        f"subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:{HTTPS_HOST}\n")
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", "server.key", "-out", "leaf.csr", "-subj", f"/CN={HTTPS_HOST}", cwd=folder)
    _openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-set_serial", "7",
             "-days", "30", "-extfile", "leaf.ext", "-out", "leaf.crt", cwd=folder)
    (folder / "server.crt").write_bytes((folder / "leaf.crt").read_bytes() + (folder / "ca.crt").read_bytes())
    return folder


def https_port(server) -> int:
    """The HTTPS port from the start-up lines (the second line, after the HTTP one)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for line in list(server.stdout_lines):
            match = _HTTPS_LINE.match(line)
            if match:
                return int(match.group(1))
        time.sleep(0.05)
    pytest.fail("no 'Listening for HTTPS' line; stdout:\n" + "\n".join(server.stdout_lines))


@pytest.fixture
def tls_server(make_server, certs):
    """A server with the test CA's certificate, answering to zaiko.test; `.https` is its HTTPS origin
    under that name, `.https_port` and `.http_port` its ports."""
    server = make_server("--https-port", "0", "--tls-cert", str(certs / "server.crt"), "--tls-key", str(certs / "server.key"),
                         "--public-name", HTTPS_HOST)
    server.https_port = https_port(server)
    server.http_port = int(server.url.rsplit(":", 1)[1])
    server.https = f"https://{HTTPS_HOST}:{server.https_port}"
    return server


def spki_hash(certificate: Path) -> str:
    """base64(SHA-256(SubjectPublicKeyInfo)): what --ignore-certificate-errors-spki-list takes."""
    der = subprocess.run(["openssl", "x509", "-in", str(certificate), "-noout", "-pubkey"], check=True, capture_output=True).stdout
    spki = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "DER"], input=der, check=True, capture_output=True).stdout
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def trusting_arguments(certs: Path) -> list[str]:
    """Chromium's arguments to trust the test CA (by its public key, found in the chain the server
    sends) and to resolve zaiko.test to 127.0.0.1."""
    return ["--no-sandbox", f"--ignore-certificate-errors-spki-list={spki_hash(certs / 'ca.crt')}",
            f"--host-resolver-rules=MAP {HTTPS_HOST} 127.0.0.1"]


@pytest.fixture
def trusting_browser(certs, browser):
    """Chromium that trusts the test CA; launched by the session's Playwright (one per process)."""
    trusting = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=trusting_arguments(certs))
    yield trusting
    trusting.close()


def new_phone_page(browser, locale="en-US"):
    """A page of a new context of `browser` at phone width."""
    context = browser.new_context(**PHONE, locale=locale, color_scheme="light")
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    return context.new_page()
