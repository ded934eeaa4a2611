"""Light on the wire at phone width: a list comes gzipped, and a second visit asks the server for
the page alone, every stylesheet, script, icon and illustration it names being kept `immutable`
under its versioned address. The server's own log (one line per request, by route) counts what
reached it."""

import re

from test_rows import demo_page, open_fullest_stock_list

REQUEST_LINE = re.compile(r"\b(GET|HEAD|POST) (/\S*) (\d{3}) ")


def requests_logged(server, since: int) -> list[str]:
    """The requests the server logged after the first `since` characters of its log: "GET /static/{path...} 200"."""
    return [" ".join(m.groups()) for m in REQUEST_LINE.finditer(server.stderr()[since:])]


def test_a_second_visit_to_a_list_asks_for_nothing_but_the_page(server, browser):
    page = demo_page(server, browser, "en-US")
    answers = []
    page.on("response", lambda r: answers.append(r))
    # The first visit fetches the list's files; the folders page in between fetches its own.
    href = open_fullest_stock_list(page, server)
    page.wait_for_load_state("networkidle")
    listed = [r for r in answers if r.request.resource_type == "document" and r.url.endswith(href)]
    assert listed and listed[-1].headers.get("content-encoding") == "gzip", "the list came gzipped"
    names = page.evaluate("""() => [...document.querySelectorAll('link[href^="/static/"], script[src^="/static/"], img[src^="/static/"]')]
        .map(e => e.getAttribute('href') || e.getAttribute('src'))""")
    assert names and all("?v=" in name for name in names), names
    first = requests_logged(server, 0)
    assert any("/static/" in line for line in first), first

    page.goto(server.url + "/")
    page.wait_for_load_state("networkidle")
    since = len(server.stderr())
    page.goto(server.url + href)
    page.wait_for_load_state("networkidle")
    assert page.locator("li.item-row").count() == 50
    # The page's live-update stream (/events) is a connection held open, not a file to fetch.
    fetched = [line for line in requests_logged(server, since) if not line.startswith("GET /events ")]
    assert fetched == ["GET /folders/{id} 200"], [r.url for r in answers[-60:]]
    assert not page.console_errors, page.console_errors
