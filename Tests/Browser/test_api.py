"""The API against a live server: a token made on the account page at phone width, in both
languages, used and revoked; the served document is the committed one; version 1 only grows
(against api/v1-baseline.yaml); and Schemathesis runs the document against the server."""
import hashlib
import json
import re
import subprocess
import urllib.error
import urllib.request

import pytest
import yaml

from conftest import PHONE, REPO_ROOT, no_axe_problems, screenshot, setup_household, expect

DOCUMENT = REPO_ROOT / "api" / "openapi.yaml"
BASELINE = REPO_ROOT / "api" / "v1-baseline.yaml"
GENERATED = REPO_ROOT / "Sources" / "APIContract" / "Generated" / "Document.swift"


def api(server, method, path, token=None, body=None, headers=None):
    """One API request: (status, headers, parsed JSON body or None)."""
    request = urllib.request.Request(server.url + path, method=method, data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, answer_headers, data = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, data = error.code, error.headers, error.read()
    return status, answer_headers, json.loads(data) if data else None


def make_token(page, server, name, scope) -> str:
    """Makes a token on the account page as a person does and returns the secret it shows once."""
    page.goto(server.url + "/account")
    page.fill("#tokens input[name=name]", name)
    page.select_option("#tokens select[name=scope]", scope)
    with page.expect_navigation():
        page.click("#tokens button[type=submit]")
    secret = page.locator("#token-secret").input_value()
    assert secret.startswith("zk_")
    return secret


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_token_made_on_the_account_page_reads_and_writes_and_stops_when_revoked(server, page_phone, locale):
    page = page_phone
    setup_household(page, server)
    secret = make_token(page, server, "Home Assistant", "shopping")
    notice = "表示されるのは今だけ" if locale == "ja-JP" else "shown only now"
    expect(page.locator("#tokens .notice")).to_contain_text(notice)
    no_axe_problems(page)
    screenshot(page, f"api-token-new-{locale}")

    status, _, household = api(server, "GET", "/api/v1/household", secret)
    assert status == 200 and household["name"] == "Tanaka" and household["scopes"] == ["shopping"]
    _, _, folders = api(server, "GET", "/api/v1/folders", secret, headers={"Accept-Language": locale})
    shopping = next(f for f in folders["folders"] if f["kind"] == "shopping")
    stock = next(f for f in folders["folders"] if f["kind"] == "stock")
    # Starter folders are named in the member's language, as the pages name them.
    assert stock["name"] == ("冷蔵庫" if locale == "ja-JP" else "Fridge")

    status, _, added = api(server, "POST", f"/api/v1/folders/{shopping['id']}/items", secret, {"items": [{"name": "Milk", "quantity": 2}]})
    assert status == 201 and added["items"][0]["quantity"] == 2
    # The item is on the list page the household opens.
    page.goto(f"{server.url}/folders/{shopping['id']}")
    expect(page.locator("li.item-row a.item-name")).to_have_text(["Milk"])
    # A shopping token does not change the stock.
    status, _, problem = api(server, "POST", f"/api/v1/folders/{stock['id']}/items", secret, {"items": [{"name": "Eggs"}]})
    assert status == 403 and problem["type"] == "/api#forbidden_scope"

    # The account page lists it with its last use; revoking it refuses the next request at once.
    page.goto(server.url + "/account#tokens")
    expect(page.locator("#tokens .token-list li")).to_contain_text(["Home Assistant"])
    expect(page.locator("#tokens .token-list li").first).to_contain_text("127.0.0.1")
    screenshot(page, f"api-token-list-{locale}")
    with page.expect_navigation():
        page.click("#tokens .token-list button[type=submit]")
    status, headers, problem = api(server, "GET", "/api/v1/household", secret, headers={"Accept-Language": locale})
    assert status == 401 and headers["Content-Type"] == "application/problem+json"
    assert problem["title"] == ("有効なトークンがありません" if locale == "ja-JP" else "No valid token")


def test_the_api_page_presents_the_document(server, page_phone):
    page = page_phone
    setup_household(page, server)
    page.goto(server.url + "/api")
    document = yaml.safe_load(DOCUMENT.read_text())
    operations = [op["operationId"] for methods in document["paths"].values() for op in methods.values() if isinstance(op, dict) and "operationId" in op]
    for operation in operations:
        expect(page.locator(f"li#{operation}")).to_have_count(1)
    no_axe_problems(page)
    screenshot(page, "api-page")


def test_the_served_document_is_the_committed_one(server):
    """api/openapi.yaml, the JSON the server serves and the Swift generated from it agree: a
    change to the YAML without `make openapi` fails here."""
    source = DOCUMENT.read_bytes()
    with urllib.request.urlopen(server.url + "/api/v1/openapi.json", timeout=30) as answer:
        served = json.loads(answer.read())
    assert served == yaml.safe_load(source)
    recorded = re.search(r'openAPIDocumentSourceSHA256 = "([0-9a-f]{64})"', GENERATED.read_text()).group(1)
    assert recorded == hashlib.sha256(source).hexdigest(), "api/openapi.yaml changed: run `make openapi` and commit"


def _types(schema: dict) -> object:
    if "$ref" in schema:
        return schema["$ref"]
    return schema.get("type"), tuple(schema.get("enum", ()))


def test_version_1_only_grows():
    """Everything of api/v1-baseline.yaml (v1 as first published) is still in api/openapi.yaml,
    the same: paths, methods, parameters, responses, schema properties and their types, enum values.
    A new required input would break old clients too. Grow v1 by adding; never edit the baseline."""
    old = yaml.safe_load(BASELINE.read_text())
    new = yaml.safe_load(DOCUMENT.read_text())
    broken = []
    for path, methods in old["paths"].items():
        for method, operation in methods.items():
            if method == "parameters" or not isinstance(operation, dict):
                continue
            now = new["paths"].get(path, {}).get(method)
            if now is None:
                broken.append(f"{method.upper()} {path} removed")
                continue
            if now.get("operationId") != operation.get("operationId"):
                broken.append(f"{method.upper()} {path} renamed")
            old_parameters = {(p.get("name"), p.get("in")) if "name" in p else p["$ref"] for p in operation.get("parameters", [])}
            new_parameters = {(p.get("name"), p.get("in")) if "name" in p else p["$ref"] for p in now.get("parameters", [])}
            broken += [f"{method.upper()} {path} lost parameter {p}" for p in old_parameters - new_parameters]
            broken += [f"{method.upper()} {path} now requires {p.get('name')}" for p in now.get("parameters", [])
                       if p.get("required") and (p.get("name"), p.get("in")) not in old_parameters]
            broken += [f"{method.upper()} {path} lost response {code}" for code in operation["responses"] if code not in now["responses"]]
    for name, schema in old["components"]["schemas"].items():
        now = new["components"]["schemas"].get(name)
        if now is None:
            broken.append(f"schema {name} removed")
            continue
        if set(schema.get("enum", [])) - set(now.get("enum", [])):
            broken.append(f"schema {name} lost enum values")
        for prop, definition in schema.get("properties", {}).items():
            if prop not in now.get("properties", {}):
                broken.append(f"{name}.{prop} removed")
            elif _types(definition) != _types(now["properties"][prop]):
                broken.append(f"{name}.{prop} changed type")
        broken += [f"{name}.{prop} newly required" for prop in set(now.get("required", [])) - set(schema.get("required", []))
                   if name.endswith(("Draft", "Changes"))]
    assert not broken, "\n".join(broken)


def test_schemathesis_finds_no_server_error_and_every_answer_fits_the_document(server, page_phone, tmp_path):
    """Schemathesis generates requests from the document (a fixed number per operation, a fixed
    seed) and checks every answer: no 5xx, status, content type, headers and body as documented."""
    page = page_phone
    setup_household(page, server)
    secret = make_token(page, server, "schemathesis", "all")
    report = tmp_path / "schemathesis.txt"
    result = subprocess.run(
        [str(REPO_ROOT / ".venv" / "bin" / "schemathesis"), "run", server.url + "/api/v1/openapi.json",
         "--url", server.url + "/api/v1", "--header", f"Authorization: Bearer {secret}",
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance",
         "--max-examples", "15", "--seed", "1", "--workers", "1", "--no-color",
         # The event stream never ends by itself: test_the_event_stream_… reads it.
         "--exclude-operation-id", "streamEvents"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    report.write_text(result.stdout + result.stderr)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_the_event_stream_tells_a_change_as_it_happens_and_ends_when_the_token_is_revoked(server, page_phone):
    import http.client
    page = page_phone
    setup_household(page, server)
    secret = make_token(page, server, "dashboard", "all")
    _, _, folders = api(server, "GET", "/api/v1/folders", secret)
    fridge = next(f for f in folders["folders"] if f["kind"] == "stock")
    host = server.url.removeprefix("http://")
    connection = http.client.HTTPConnection(host, timeout=30)
    connection.request("GET", "/api/v1/events", headers={"Authorization": f"Bearer {secret}"})
    stream = connection.getresponse()
    assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")

    def next_event():
        lines = []
        while True:
            line = stream.fp.readline().decode()
            if line in ("\n", ""):
                if lines or line == "":
                    return dict(part.split(": ", 1) if ": " in part else (part.rstrip(":"), "") for part in lines)
                continue
            if not line.startswith(":"):
                lines.append(line.rstrip("\n"))

    assert next_event()["event"] == "ready"
    status, _, _ = api(server, "POST", f"/api/v1/folders/{fridge['id']}/items", secret, {"items": [{"name": "Milk"}]})
    assert status == 201
    event = next_event()
    assert event["event"] == "changes"
    assert any(c["entity"] == "item" and c["kind"] == "created" for c in json.loads(event["data"]))

    # Revoked on the account page: the stream says so and ends.
    page.goto(server.url + "/account#tokens")
    with page.expect_navigation():
        page.click("#tokens .token-list button[type=submit]")
    assert next_event()["event"] == "signed-out"
    connection.close()
