"""Server CPU per page, one request at a time, with a change to the household before each request
and without, in the same run: pages whose figures are kept until the household's change sequence
moves (the plan's reservations, the Household page's report) cost their whole work after a change.
The change moves one item's version by hand, as any write would (its trigger moves the sequence).

    python3 bench/after-change.py DB URL COOKIE PID "name=/path" ...
"""
import os
import sqlite3
import sys
import urllib.request

path, url, cookie, pid, *pages = sys.argv[1:]
db = sqlite3.connect(path, timeout=30, isolation_level=None)
hz = os.sysconf("SC_CLK_TCK")


def ticks():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def cpu(page, change, n=int(os.environ.get("REQUESTS", "200"))):
    request = urllib.request.Request(url + page, headers={"Cookie": cookie, "Accept-Encoding": "gzip"})
    before = ticks()
    for _ in range(n):
        if change:
            db.execute("UPDATE item SET version = version + 1 WHERE id = (SELECT MIN(id) FROM item)")
        urllib.request.urlopen(request).read()
    return (ticks() - before) / hz * 1e6 / n


for entry in pages:
    name, page = entry.split("=", 1)
    kept, changed = cpu(page, False), cpu(page, True)
    print(f"{name}: {kept:.0f} µs/page one at a time; {changed:.0f} µs/page with a change before each")
