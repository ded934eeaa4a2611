"""DNS rebinding: a page on another name made to resolve to the server gets 421 on every page
(setup and sign-in included); the server's own address is served, and so is a name given with
--public-name (a reverse proxy's). /healthz answers any name."""

import http.client


def fetch(url: str, method: str, path: str, host: str, body: str | None = None):
    port = int(url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Host": host}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Origin"] = f"http://{host}"
    connection.request(method, path, body=body, headers=headers)
    reply = connection.getresponse()
    text = reply.read().decode()
    connection.close()
    return reply.status, text


def test_a_rebinding_host_is_refused_and_the_servers_own_names_are_served(make_server):
    server = make_server("--public-name", "zaiko.example.net")
    port = server.url.rsplit(":", 1)[1]
    for method, path, body in [("GET", "/", None), ("GET", "/setup", None), ("POST", "/setup", "setup_code=x"),
                               ("GET", "/login", None), ("POST", "/login", "login=a&password=b")]:
        status, text = fetch(server.url, method, path, f"evil.example:{port}", body)
        assert (method, path, status) == (method, path, 421)
        assert "--public-name" in text
    assert fetch(server.url, "GET", "/setup", f"127.0.0.1:{port}")[0] == 200
    assert fetch(server.url, "GET", "/setup", f"localhost:{port}")[0] == 200
    assert fetch(server.url, "GET", "/setup", "zaiko.example.net")[0] == 200
    # The server's address on a port it does not listen on is not the server.
    assert fetch(server.url, "GET", "/setup", "127.0.0.1:1")[0] == 421
    assert fetch(server.url, "GET", "/healthz", "evil.example")[0] == 200
