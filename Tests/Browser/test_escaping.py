"""User text that tries to leave an attribute or an element, rendered by a real server into
every kind of place the pages put it (element content, value/aria-label/href/title
attributes, options, textareas, rows built in Swift, the layout's header), then parsed back
with an HTML5 parser as a browser would: no injected attribute or element may appear.

An escaper working per Swift Character (the run-time Mustache library Zaiko once used) misses
`"` + U+0301 (or + U+FE0F), which is one Character: with it these names added attributes to the
owner's buttons."""

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import html5lib

from conftest import DEFAULT_PASSWORD, setup_code, today as server_today

MARKS = ("\u0301", "\ufe0f")


def hostile(tag: str) -> str:
    """A text with every escape attempt; `tag` tells the fields apart. Injected attribute and
    element names start with "zk" so the parsed pages can be searched for them."""
    return (f'{tag}"\u0301 formaction=/settings/push/delete zka{tag}="\u0301 '
            f"'\ufe0f zkb{tag}='\ufe0f <zkel{tag}> &amp; <")


class Client:
    """A browser without a browser: cookies, forms with their CSRF token, no JavaScript."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.last_html = ""

    def request(self, path: str, form: dict | list | None = None) -> tuple[int, str, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with self.opener.open(self.base + path, data=data) as response:
                status, body, url = response.status, response.read().decode(), response.url
        except urllib.error.HTTPError as error:
            status, body, url = error.code, error.read().decode(), error.url
        if "text/html" in body[:200] or body.lstrip().startswith("<!DOCTYPE"):
            self.last_html = body
        return status, body, url

    def get(self, path: str) -> str:
        status, body, _ = self.request(path)
        assert status == 200, f"GET {path} answered {status}"
        return body

    def token(self) -> str:
        match = re.search(r'name="_csrf" value="([^"]+)"', self.last_html)
        assert match, "no form token on the last page"
        return match.group(1)

    def post(self, path: str, fields: list) -> tuple[int, str, str]:
        return self.request(path, [("_csrf", self.token()), *fields])


def parse(html: str):
    return html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)


def injections(document) -> list[str]:
    """Every attribute or element that user text made, and every formaction that points at a
    place no button of Zaiko's does."""
    found = []
    for element in document.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag.startswith("zk"):
            found.append(f"element <{element.tag}>")
        for name, value in element.attrib.items():
            if name.startswith("zk") or any(mark in name for mark in MARKS) or name in ("y", "'"):
                found.append(f"attribute {name!r} on <{element.tag}>")
            if name == "formaction" and value == "/settings/push/delete":
                found.append(f"formaction to {value} on <{element.tag}>")
    return found


def everything_said(document) -> str:
    """All text and attribute values of a page, as a browser would read them."""
    parts = []
    for element in document.iter():
        if not isinstance(element.tag, str):
            continue
        parts.extend(element.attrib.values())
        parts.append(element.text or "")
        parts.append(element.tail or "")
    return "\n".join(parts)


def check(client: Client, path: str, expected_tags: str, html: str | None = None):
    html = html if html is not None else client.get(path)
    document = parse(html)
    assert injections(document) == [], f"{path}: {injections(document)}"
    said = everything_said(document)
    for tag in expected_tags:
        assert hostile(tag) in said, f"{path} does not show the text of field {tag} intact"


def test_hostile_text_never_leaves_its_attribute_or_element(make_server):
    server = make_server()
    client = Client(server.url)
    today = server_today().isoformat()

    # H household, M member: first-run setup.
    client.get("/setup")
    status, _, url = client.post("/setup", [
        ("household", hostile("H")), ("name", hostile("M")), ("login", "aki"), ("password", DEFAULT_PASSWORD),
        ("password_confirm", DEFAULT_PASSWORD), ("setup_code", setup_code(server))])
    assert status == 200 and url == server.url + "/", f"setup ended at {url} ({status})"

    # F a folder.
    client.get("/folders/edit")
    status, _, _ = client.post("/folders", [("name", hostile("F")), ("kind", "stock"), ("icon", "box")])
    assert status == 200
    folder = max(int(n) for n in re.findall(r'href="/folders/(\d+)/edit"', client.last_html))

    # I an item with N its note and a barcode (the product remembers I); a second one, T, to the trash.
    client.get(f"/items/new?folder={folder}")
    draft = [("folder", str(folder)), ("d0.name", hostile("I")), ("d0.note", hostile("N")), ("d0.quantity", "1"),
             ("d0.unit", "piece"), ("d0.kind", "other"), ("d0.due", today), ("d0.barcode", "4901234567894")]
    status, _, _ = client.post("/items/new", draft + [("d1.name", hostile("T")), ("d1.quantity", "1"),
                                                       ("d1.unit", "piece"), ("d1.kind", "other")])
    assert status == 200
    items = sorted({int(n) for n in re.findall(r'href="/items/(\d+)"', client.get(f"/folders/{folder}"))})
    assert len(items) == 2
    item, trashed = items
    client.get(f"/folders/{folder}")
    client.post(f"/items/{trashed}/delete", [("return", f"/folders/{folder}")])
    product = int(re.findall(r'href="/products/(\d+)"', client.get("/products"))[0])

    # The member's name is in every page's header; the household's on the home and settings pages.
    check(client, "/", "HMF")
    check(client, "/folders/edit", "MF")
    check(client, f"/folders/{folder}/edit", "MF")
    check(client, f"/folders/{folder}/delete", "MF")
    check(client, f"/folders/{folder}", "MFI")
    # Q a search, kept in the search field and in the links back to the list.
    check(client, f"/folders/{folder}?q=" + urllib.parse.quote(hostile("Q")) + "&kind=other&kind=other", "MFQ")
    check(client, f"/items/{item}", "MFIN")
    check(client, f"/items/{item}/edit", "MFIN")
    check(client, f"/items/{item}/empty?return=/folders/{folder}", "MI")
    check(client, "/soon", "MFI")
    check(client, "/calendar", "M")
    check(client, f"/calendar?day={today}", "MFI")
    check(client, "/products", "MFI")
    check(client, f"/products/{product}", "MI")
    # P the product renamed.
    status, _, _ = client.post(f"/products/{product}", [("name", hostile("P")), ("kind", "other"), ("unit", "piece"),
                                                        ("folder", str(folder)), ("picture", "")])
    assert status == 200
    check(client, "/products", "MFP")
    check(client, f"/products/{product}", "MP")
    check(client, "/trash", "MFT")
    check(client, "/settings", "HM")
    check(client, "/account", "M")

    # Forms shown again with what was typed: a draft with a bad quantity, a folder with no icon.
    client.get(f"/items/new?folder={folder}")
    status, html, _ = client.post("/items/new", [("folder", str(folder)), ("d0.name", hostile("E")), ("d0.note", hostile("D")),
                                                 ("d0.quantity", "lots"), ("d0.unit", "piece"), ("d0.kind", "other")])
    assert status == 422
    check(client, "/items/new (422)", "MFED", html)
    client.get("/folders/edit")
    status, html, _ = client.post("/folders", [("name", hostile("G")), ("kind", "stock"), ("icon", "no-such-icon")])
    assert status == 422
    check(client, "/folders (422)", "MFG", html)
