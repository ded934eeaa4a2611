"""What the write benches share (bench/feed-taps, bench/keep-taps): a `zaiko serve` per side on a
free port, signed in as a person is, its server CPU read from /proc, and quantity taps in rounds
with the sides taking turns (a busy moment of the machine hits every side alike)."""

import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import time
import urllib.parse

HZ = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ticks(pid: int) -> tuple[int, int]:
    """The process's user and system CPU so far, in clock ticks."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


class Side:
    def __init__(self, name: str, binary: str, tree: str, data: str):
        self.name, self.port = name, free_port()
        self.log = open(os.path.join(data, "..", f"{name}.log"), "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--no-https", "--no-backup", "--data", data,
             "--resources", tree, "--log-level", "warning"], cwd=tree, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(600):
            try:
                self.connection().request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        self.http = self.connection()
        self.cookies: dict[str, str] = {}
        self.round_trips: list[float] = []
        self.user = self.system = 0

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "Origin": f"http://127.0.0.1:{self.port}"}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.http.request(method, path, body=body, headers=headers)
        answer = self.http.getresponse()
        text = answer.read().decode(errors="replace")
        for header, value in answer.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return answer.status, text

    def sign_in(self, login: str, password: str) -> str:
        _, page = self.request("GET", "/login")
        csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        status, _ = self.request("POST", "/login", {"_csrf": csrf, "login": login, "password": password})
        assert status == 303, f"{self.name}: sign-in answered {status}"
        _, page = self.request("GET", "/")
        return re.search(r'name="_csrf" value="([^"]+)"', page).group(1)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def tap_in_rounds(sides: list, tokens: dict, item_of, taps: int) -> int:
    """`taps` quantity taps per side (+1, −1, … on `item_of(side)`), in rounds of about 100 with the
    sides taking turns, after a warm-up of 20; each side's round trips and CPU are added to it.
    Returns the taps per round."""
    for side in sides:
        for step in ("1", "-1") * 10:
            side.request("POST", f"/items/{item_of(side)}/quantity", {"_csrf": tokens[side.name], "delta": step})
    rounds = max(1, taps // 100)
    for _ in range(rounds):
        for side in sides:
            user, system = cpu_ticks(side.process.pid)
            for tap in range(taps // rounds):
                began = time.perf_counter()
                status, _ = side.request(
                    "POST", f"/items/{item_of(side)}/quantity", {"_csrf": tokens[side.name], "delta": "1" if tap % 2 == 0 else "-1"})
                side.round_trips.append(time.perf_counter() - began)
                assert status == 303, f"{side.name}: a tap answered {status}"
            user_after, system_after = cpu_ticks(side.process.pid)
            side.user += user_after - user
            side.system += system_after - system
    return taps // rounds


def table(sides: list, label: str) -> None:
    """Per side: the median and p90 round trip per tap and the server's CPU per tap."""
    print(f"| {label} | median ms per tap | p90 ms per tap | server CPU µs per tap | of which system |")
    print("|---|---:|---:|---:|---:|")
    for side in sides:
        trips = sorted(side.round_trips)
        print(f"| {side.name} | {statistics.median(trips) * 1000:.2f} | {trips[int(len(trips) * 0.9)] * 1000:.2f} |"
              f" {(side.user + side.system) / HZ * 1e6 / len(trips):.0f} | {side.system / HZ * 1e6 / len(trips):.0f} |")


def demo(binary: str, items: int, data: str) -> tuple[str, str]:
    """A `zaiko demo` household of `items` items in `data`: its login and password."""
    made = subprocess.run([binary, "demo", "--items", str(items), "--data", data], capture_output=True, text=True, check=True).stdout
    return re.search(r"^Login: (.+)$", made, re.M).group(1), re.search(r"^Password: (.+)$", made, re.M).group(1)
