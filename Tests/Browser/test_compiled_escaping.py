"""The stock list (a compiled template) with item names made of hostile text: quotes and angle
brackets followed by combining marks, NUL, U+2028, a right-to-left override, a CR, and invalid
UTF-8 sent by a form. Parsed back with an HTML5 parser as a browser would: each row gives back
the name as stored, in its text and in its attributes, and no row has an attribute or element
the template does not write."""

import urllib.parse

from conftest import DEFAULT_PASSWORD, setup_code
from test_escaping import Client, parse

# (what the form sends, what the page must give back). Names are trimmed when stored; invalid
# UTF-8 is replaced by U+FFFD when the form is read.
NAMES = [
    ('q"\u0301 formaction=/settings zka="\u0301 end', 'q"\u0301 formaction=/settings zka="\u0301 end'),
    ("a'\ufe0f zkb='\ufe0f b", "a'\ufe0f zkb='\ufe0f b"),
    ("<\u0301zkel>x</zkel\u0301> &amp; &", "<\u0301zkel>x</zkel\u0301> &amp; &"),
    # The form reader ends a value at NUL (libmicrohttpd hands values over as C strings), so
    # NUL never reaches a page from a form; the Swift escaping table covers NUL in the writer.
    ("nul\u0000here", "nul"),
    ("line\u2028sep\u2029para", "line\u2028sep\u2029para"),
    ("\u202egpj.exe\u202c tail", "\u202egpj.exe\u202c tail"),
    ("cr\rinside", "cr\rinside"),
    (b'bad\xff"\xcc\x81<\xc0\xafend', 'bad\ufffd"\u0301<\ufffd\ufffdend'),
    ("plain", "plain"),
]


def row_shape(row) -> list:
    """The elements of a row and their attribute names, in document order."""
    return [(element.tag, sorted(element.attrib)) for element in row.iter() if isinstance(element.tag, str)]


def test_hostile_names_round_trip_through_the_compiled_stock_list(make_server):
    server = make_server()
    client = Client(server.url)
    client.get("/setup")
    status, _, _ = client.post("/setup", [
        ("household", "Home"), ("name", "Aki"), ("login", "aki"), ("password", DEFAULT_PASSWORD),
        ("password_confirm", DEFAULT_PASSWORD), ("setup_code", setup_code(server))])
    assert status == 200
    client.get("/folders/edit")
    status, _, _ = client.post("/folders", [("name", "Stock"), ("kind", "stock"), ("icon", "box")])
    assert status == 200
    folder = max(int(n) for n in __import__("re").findall(r'href="/folders/(\d+)/edit"', client.last_html))

    client.get(f"/items/new?folder={folder}")
    drafts = [("folder", str(folder))]
    for index, (sent, _) in enumerate(NAMES):
        drafts += [(f"d{index}.name", sent), (f"d{index}.quantity", "1"), (f"d{index}.unit", "piece"), (f"d{index}.kind", "other")]
    status, _, _ = client.post("/items/new", drafts)
    assert status == 200

    html = client.get(f"/folders/{folder}")
    document = parse(html)
    rows = [li for li in document.iter("li") if "item-row" in li.get("class", "").split()]
    assert len(rows) == len(NAMES)

    shown = {}
    for row in rows:
        link = next(a for a in row.iter("a") if a.get("class") == "item-name")
        name = link.text or ""
        shown[name] = row
        checkbox = next(i for i in row.iter("input") if i.get("class") == "row-check")
        assert checkbox.get("aria-label") == "Select " + name
        buttons = {b.get("formaction", "").rsplit("/", 1)[-1]: b for b in row.iter("button")}
        assert buttons["quantity"].get("aria-label") in ("Decrease " + name, "Increase " + name)
        hidden = [s.text for s in row.iter("span") if s.get("class") == "visually-hidden"]
        assert " " + name in hidden

    assert sorted(shown) == sorted(expected for _, expected in NAMES)
    # Every row has the shape of the plain one: no attribute or element came from a name.
    plain = row_shape(shown["plain"])
    for name, row in shown.items():
        assert row_shape(row) == plain, f"row {name!r} differs from a plain row"
    assert not [e for e in document.iter() if isinstance(e.tag, str) and e.tag.startswith("zk")]
