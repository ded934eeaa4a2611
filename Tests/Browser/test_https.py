"""HTTPS through libmicrohttpd's own TLS: real handshakes from Python's ssl module and from
Chromium trusting a test CA made here with openssl; cookies over HTTPS vs HTTP; --https-only.

The certificate names zaiko.test (mapped to 127.0.0.1 in Chromium): a page on 127.0.0.1 or
localhost is a secure context even over HTTP, so only a real host name shows what HTTPS adds."""

import http.client
import signal
import socket
import ssl
import subprocess
from pathlib import Path

import pytest

from conftest import HTTPS_HOST, fill_setup_form, https_port, new_phone_page, screenshot, setup_code


def handshake(port, ca: Path, minimum, maximum, ciphers=None, seclevel0=False):
    """A TLS handshake trusting only `ca`; returns (version, cipher) or raises ssl.SSLError."""
    context = ssl.create_default_context(cafile=str(ca))
    context.minimum_version = minimum
    context.maximum_version = maximum
    if ciphers or seclevel0:
        # Level 0: the client itself must be willing to offer old versions and weak ciphers.
        context.set_ciphers((ciphers or "DEFAULT") + ":@SECLEVEL=0")
    with socket.create_connection(("127.0.0.1", port), timeout=60) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            return tls.version(), tls.cipher()[0]


def test_tls_12_and_13_succeed_with_aead_ciphers(tls_server, certs):
    version, cipher = handshake(tls_server.https_port, certs / "ca.crt", ssl.TLSVersion.TLSv1_3, ssl.TLSVersion.TLSv1_3)
    assert version == "TLSv1.3"
    assert cipher in {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"}
    version, cipher = handshake(tls_server.https_port, certs / "ca.crt", ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_2)
    assert version == "TLSv1.2"
    assert cipher.startswith("ECDHE-") and ("GCM" in cipher or "CHACHA20" in cipher), cipher


@pytest.mark.parametrize("version", [ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1], ids=["tls1.0", "tls1.1"])
def test_tls_10_and_11_are_refused(tls_server, certs, version):
    with pytest.raises(ssl.SSLError) as refused:
        handshake(tls_server.https_port, certs / "ca.crt", version, version, seclevel0=True)
    # The server refused: the client did offer the old version.
    assert "no protocols available" not in str(refused.value), refused.value


# TLS 1.2 suites for an ECDSA certificate that are not AEAD or not forward secret. Those this
# machine's OpenSSL cannot even offer (RC4, NULL and 3DES are often compiled out) are skipped.
WEAK_CIPHERS = ["ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA256",
                "ECDHE-ECDSA-AES256-SHA384", "ECDHE-ECDSA-DES-CBC3-SHA", "ECDHE-ECDSA-RC4-SHA", "ECDHE-ECDSA-NULL-SHA"]


@pytest.mark.parametrize("cipher", WEAK_CIPHERS)
def test_weak_ciphers_are_refused(tls_server, certs, cipher):
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).set_ciphers(cipher + ":@SECLEVEL=0")
    except ssl.SSLError:
        pytest.skip(f"this OpenSSL cannot offer {cipher}")
    with pytest.raises(ssl.SSLError) as refused:
        handshake(tls_server.https_port, certs / "ca.crt", ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_2, ciphers=cipher)
    assert "no ciphers available" not in str(refused.value), refused.value


def test_chromium_trusting_the_ca_loads_the_login_page_as_a_secure_context(tls_server, trusting_browser, browser):
    https = f"https://{HTTPS_HOST}:{tls_server.https_port}"
    http = f"http://{HTTPS_HOST}:{tls_server.http_port}"
    page = new_phone_page(trusting_browser)
    response = page.goto(https + "/setup")
    assert response.status == 200
    assert page.evaluate("window.isSecureContext") is True
    fill_setup_form(page, "Tanaka", "Aki", "aki", "correct horse battery", setup_code(tls_server))
    assert page.url == https + "/"
    page.context.clear_cookies()
    response = page.goto(https + "/login")
    assert response.status == 200
    assert page.url == https + "/login"
    assert page.locator("input[name=login]").count() == 1
    assert page.evaluate("window.isSecureContext") is True
    screenshot(page, "https-login-390")
    # The same page over HTTP under the same name is not a secure context…
    page.goto(http + "/login")
    assert page.evaluate("window.isSecureContext") is False
    # …and a Chromium that does not trust the CA refuses the certificate (no warning was skipped above).
    untrusting = browser.new_page()
    with pytest.raises(Exception, match="ERR_CERT_AUTHORITY_INVALID"):
        untrusting.goto(f"https://127.0.0.1:{tls_server.https_port}/login")
    untrusting.close()


def test_cookies_over_https_are_secure_and_host_prefixed_and_stay_off_http(tls_server, trusting_browser):
    https = f"https://{HTTPS_HOST}:{tls_server.https_port}"
    http = f"http://{HTTPS_HOST}:{tls_server.http_port}"
    page = new_phone_page(trusting_browser)
    # Over HTTP first: the form token cookie as before, not Secure.
    page.goto(http + "/login")
    plain = {c["name"]: c for c in page.context.cookies()}
    assert plain["zaiko_csrf"]["secure"] is False

    # Setting up over HTTPS signs in with a __Host- session cookie, Secure, Path=/, no Domain.
    page.goto(https + "/setup")
    fill_setup_form(page, "Tanaka", "Aki", "aki", "correct horse battery", setup_code(tls_server))
    assert page.url == https + "/"
    cookies = {c["name"]: c for c in page.context.cookies()}
    session = cookies["__Host-zaiko_session"]
    assert session["secure"] is True and session["path"] == "/" and not session["domain"].startswith(".")
    assert cookies["__Host-zaiko_csrf"]["secure"] is True
    assert "zaiko_session" not in cookies

    # Over HTTP the browser does not send it: the same browser is signed out there.
    seen = []
    page.on("request", lambda request: seen.append(request))
    page.goto(http + "/")
    assert page.url.startswith(http + "/login")
    sent = [request.all_headers().get("cookie", "") for request in seen if request.url.startswith(http)]
    # The plain cookie made over HTTP is sent; the HTTPS session never is.
    assert any("zaiko_csrf=" in cookie for cookie in sent), sent
    assert not any("zaiko_session" in cookie for cookie in sent), sent
    # Still signed in over HTTPS.
    page.goto(https + "/")
    assert page.url == https + "/"


def test_https_only_redirects_http_except_healthz_and_the_ca(make_server, certs):
    server = make_server("--https-port", "0", "--https-only", "--public-name", HTTPS_HOST,
                         "--tls-cert", str(certs / "server.crt"), "--tls-key", str(certs / "server.key"))
    port = https_port(server)
    http_port = int(server.url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=60)
    connection.request("GET", "/login?next=%2Fitems%3Fq%3Da%2Bb", headers={"Host": f"{HTTPS_HOST}:{http_port}"})
    reply = connection.getresponse()
    reply.read()
    assert reply.status == 307
    assert reply.getheader("Location") == f"https://{HTTPS_HOST}:{port}/login?next=%2Fitems%3Fq%3Da%2Bb"
    # A form posted over HTTP is not read, only redirected.
    connection.request("POST", "/login", body="login=aki&password=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    reply = connection.getresponse()
    reply.read()
    assert reply.status == 307
    assert reply.getheader("Location") == f"https://127.0.0.1:{port}/login"
    # Health checks stay on HTTP.
    connection.request("GET", "/healthz")
    reply = connection.getresponse()
    reply.read()
    assert reply.status == 200
    # So do the CA's page and downloads: a phone fetches the CA before it trusts HTTPS (this
    # server has the operator's certificate, so there is no CA to download: 404, not 307).
    for path, status in [("/tls", 200), ("/tls/zaiko-ca.crt", 404), ("/tls/zaiko-ca.cer", 404), ("/tls/zaiko.mobileconfig", 404)]:
        connection.request("GET", path)
        reply = connection.getresponse()
        reply.read()
        assert (path, reply.status) == (path, status)
    # The redirect's target answers: Zaiko itself (no household yet: on to the setup).
    context = ssl.create_default_context(cafile=str(certs / "ca.crt"))
    secure = http.client.HTTPSConnection("127.0.0.1", port, timeout=60, context=context)
    secure.request("GET", "/login")
    reply = secure.getresponse()
    assert (reply.status, reply.getheader("Location")) == (303, "/setup")


@pytest.mark.parametrize("args, sentence", [
    (["--tls-cert", "server.crt"], "Give --tls-cert and --tls-key together"),
    (["--https-only", "--no-https"], "--https-only needs HTTPS"),
    (["--tls-cert", "missing.crt", "--tls-key", "server.key"], "Cannot read the TLS certificate file"),
    (["--tls-cert", "ca.crt", "--tls-key", "server.key"], "does not belong to the first certificate"),
])
def test_https_options_that_cannot_work_stop_with_one_sentence(tmp_path, certs, args, sentence):
    from conftest import REPO_ROOT, ZAIKO_BIN
    data = tmp_path / "data"
    result = subprocess.run(
        [str(ZAIKO_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--https-port", "0", "--data", str(data),
         "--resources", str(REPO_ROOT), *args], cwd=certs, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert sentence in result.stderr, result.stderr
    assert "Listening" not in result.stdout


def occupied_port() -> socket.socket:
    """A socket listening on a free port (read it with getsockname): a port some other program holds."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    return holder


def test_a_busy_default_https_port_leaves_http_serving(tmp_path):
    """The default HTTPS port taken by another program (a UniFi controller holds 8443) costs HTTPS
    only: a warning, and plain HTTP serves. The test's own busy port stands in for 8443."""
    import os
    from conftest import REPO_ROOT, ZAIKO_BIN
    with occupied_port() as holder:
        busy = holder.getsockname()[1]
        environment = {**os.environ, "ZAIKO_TEST_DEFAULT_HTTPS_PORT": str(busy)}
        environment.pop("ZAIKO_HTTPS_PORT", None)
        proc = subprocess.Popen(
            [str(ZAIKO_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path / "data"),
             "--resources", str(REPO_ROOT)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        try:
            first = proc.stdout.readline()
            assert first.startswith("Listening on "), first + proc.stderr.read()
            port = int(first.rsplit(":", 1)[1])
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", "/healthz")
            reply = connection.getresponse()
            reply.read()
            assert reply.status == 200
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 0, err
        assert "Listening for HTTPS" not in out
        assert f"HTTPS is off: port {busy} on 127.0.0.1 is already in use" in err, err
        assert "--https-port" in err


def test_a_busy_https_port_asked_for_stops_the_server_naming_its_option(tmp_path):
    from conftest import REPO_ROOT, ZAIKO_BIN
    with occupied_port() as holder:
        busy = holder.getsockname()[1]
        result = subprocess.run(
            [str(ZAIKO_BIN), "serve", "--host", "127.0.0.1", "--port", "0", "--https-port", str(busy),
             "--data", str(tmp_path / "data"), "--resources", str(REPO_ROOT)],
            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert f"Port {busy} on 127.0.0.1 for HTTPS is already in use" in result.stderr, result.stderr
    assert "--https-port" in result.stderr
    assert "Listening" not in result.stdout
