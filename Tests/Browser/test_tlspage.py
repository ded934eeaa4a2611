"""The /tls page: the local CA to download, its fingerprint, a QR code of the HTTPS address and
the steps per device, open without signing in, in English and Japanese, at phone and desktop width.
The CA is made here with openssl in the data folder before the server starts, as Zaiko's own
HTTPS set-up would leave it (<data>/tls/ca.crt)."""

import json
import plistlib
import subprocess

import pytest

from conftest import DESKTOP, PHONE, REPO_ROOT, no_axe_problems, screenshot, setup_household, sign_in, sign_out

LOCALES = ["en-US", "ja-JP"]
CATALOGS = {locale: json.loads((REPO_ROOT / "Templates" / "locales" / f"{code}.json").read_text())
            for locale, code in (("en-US", "en"), ("ja-JP", "ja"))}


def tag(locale):
    return "en" if locale == "en-US" else "ja"


def make_ca(data_dir):
    """A CA certificate (CA:TRUE, keyCertSign) at <data>/tls/ca.crt, and its key beside it."""
    tls = data_dir / "tls"
    tls.mkdir(parents=True)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
         "-keyout", str(tls / "ca.key"), "-out", str(tls / "ca.crt"), "-days", "365",
         "-subj", "/CN=Zaiko at browser-test",
         "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
        check=True, capture_output=True)
    return tls / "ca.crt"


def openssl_fingerprint(path) -> str:
    out = subprocess.run(["openssl", "x509", "-in", str(path), "-noout", "-fingerprint", "-sha256"],
                         check=True, capture_output=True, text=True).stdout.strip()
    return out.split("=", 1)[1]


def openssl_common_name(path) -> str:
    out = subprocess.run(["openssl", "x509", "-in", str(path), "-noout", "-subject", "-nameopt", "RFC2253"],
                         check=True, capture_output=True, text=True).stdout.strip()
    return out.split("CN=", 1)[1].split(",")[0]


def openssl_der(path) -> bytes:
    return subprocess.run(["openssl", "x509", "-in", str(path), "-outform", "DER"], check=True, capture_output=True).stdout


@pytest.fixture
def ca_server(make_server, tmp_path):
    data_dir = tmp_path / "data-ca"
    data_dir.mkdir()
    ca = make_ca(data_dir)
    server = make_server(data_dir=data_dir)
    server.ca = ca
    return server


def qr_text(page, tmp_path, name) -> str:
    """What zbar reads from a screenshot of the QR code as the page draws it."""
    image = tmp_path / f"{name}.png"
    page.locator(".tls-qr svg").screenshot(path=str(image))
    result = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True)
    assert result.returncode == 0, f"zbarimg read nothing from {image}: {result.stderr}"
    return result.stdout.strip()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_page_hands_out_the_ca_without_signing_in(ca_server, make_page, locale, tmp_path):
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    # A fresh server, no household yet: the page is open anyway.
    response = page.goto(ca_server.url + "/tls")
    assert response.status == 200
    assert page.url == ca_server.url + "/tls"
    assert page.locator("h1").inner_text() == t["tls_heading"]
    assert page.locator("html").get_attribute("lang") == tag(locale)

    # The fingerprint reads as openssl's, however it wraps.
    shown = page.locator("#tls-fingerprint").inner_text()
    assert "".join(shown.split()) == openssl_fingerprint(ca_server.ca)
    # Read from the file as it is now: whatever made the CA (this test, or Zaiko's own set-up).
    assert openssl_common_name(ca_server.ca) in page.locator("#tls-download-heading + p").inner_text()

    # The QR code is drawn by the server and decodes to the HTTPS address listed first.
    assert page.locator(".tls-address-list a").all_inner_texts() == [ca_server.https_url]
    # It is for a phone to scan from a computer's screen: hidden on the phone itself.
    assert not page.locator(".tls-qr").is_visible()
    desktop = make_page(DESKTOP, locale)
    desktop.goto(ca_server.url + "/tls")
    assert qr_text(desktop, tmp_path, f"qr-{tag(locale)}") == ca_server.https_url
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390

    # Steps for each kind of device, closed until opened, numbered when open.
    for platform in ("ios", "android", "mac", "windows"):
        details = page.locator(f"#tls-{platform}")
        assert details.locator("summary").inner_text() == t[f"tls_{platform}"]
        details.locator("summary").click()
        assert details.locator("ol > li").count() >= 3
        assert details.locator("ol > li").first.is_visible()
    assert t["tls_ios_3"].split("{name}")[0].strip()[:10] in page.locator("#tls-ios").inner_text()

    no_axe_problems(page)
    assert page.console_errors == []
    screenshot(page, f"tls-phone-{tag(locale)}")

    desktop = make_page(DESKTOP, locale)
    desktop.goto(ca_server.url + "/tls")
    desktop.locator("#tls-ios summary").click()
    no_axe_problems(desktop)
    assert desktop.console_errors == []
    screenshot(desktop, f"tls-desktop-{tag(locale)}")


def test_the_downloads_are_the_ca_in_pem_der_and_an_iphone_profile(ca_server, make_page):
    page = make_page(PHONE, "en-US")
    page.goto(ca_server.url + "/tls")
    pem = page.request.get(ca_server.url + "/tls/zaiko-ca.crt")
    assert pem.status == 200
    assert pem.headers["content-type"] == "application/x-x509-ca-cert"
    assert pem.body() == ca_server.ca.read_bytes()

    der = page.request.get(ca_server.url + "/tls/zaiko-ca.cer")
    assert der.headers["content-type"] == "application/pkix-cert"
    assert der.body() == openssl_der(ca_server.ca)

    profile = page.request.get(ca_server.url + "/tls/zaiko.mobileconfig")
    assert profile.headers["content-type"] == "application/x-apple-aspen-config"
    plist = plistlib.loads(profile.body())
    assert plist["PayloadType"] == "Configuration"
    [payload] = plist["PayloadContent"]
    assert payload["PayloadType"] == "com.apple.security.root"
    assert payload["PayloadContent"] == openssl_der(ca_server.ca)

    # The link on the page downloads the same file a phone would get.
    with page.expect_download() as download:
        page.click("a[href='/tls/zaiko-ca.crt']")
    assert download.value.suggested_filename == "zaiko-ca.crt"
    assert open(download.value.path(), "rb").read() == ca_server.ca.read_bytes()


@pytest.mark.parametrize("locale", LOCALES)
def test_login_and_account_lead_to_the_page_over_http(ca_server, make_page, locale):
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    setup_household(page, ca_server)
    page.goto(ca_server.url + "/account")
    link = page.get_by_role("link", name=t["tls_link"])
    link.scroll_into_view_if_needed()
    screenshot(page, f"tls-link-account-phone-{tag(locale)}")
    link.click()
    assert page.url == ca_server.url + "/tls"
    assert page.locator("h1").inner_text() == t["tls_heading"]

    sign_out(page)
    page.goto(ca_server.url + "/login")
    screenshot(page, f"tls-link-login-phone-{tag(locale)}")
    page.get_by_role("link", name=t["tls_link"]).click()
    assert page.url == ca_server.url + "/tls"
    sign_in(page, ca_server)


@pytest.mark.parametrize("locale", LOCALES)
def test_with_https_turned_off_the_page_says_so(make_server, make_page, locale):
    server = make_server("--no-https")
    t = CATALOGS[locale]
    page = make_page(PHONE, locale)
    page.goto(server.url + "/tls")
    assert page.locator(".tls-off").inner_text() == t["tls_off"]
    assert page.locator("svg").count() == 0
    assert page.request.get(server.url + "/tls/zaiko-ca.crt").status == 404
    no_axe_problems(page)
    screenshot(page, f"tls-off-phone-{tag(locale)}")
