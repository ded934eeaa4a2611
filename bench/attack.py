#!/usr/bin/env python3
"""Hostile load for bench/attack, loopback only, bounded in count and time.

  attack.py uploads PORT COUNT SECONDS      anonymous 20 MB multipart uploads to /items/new
  attack.py trickle PORT COUNT SECONDS      COUNT connections from 127.0.0.2-6, one header byte a second each

Prints one summary line. Closed connections are reopened (trickle) until SECONDS pass."""
import collections, socket, sys, threading, time

HOST = "127.0.0.1"


def upload(port, deadline, stats, lock):
    size = 20 * 1024 * 1024
    boundary = "benchBoundary0123"
    head = (f"POST /items/new HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {size}\r\n\r\n").encode()
    part = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo_file\"; filename=\"a.jpg\"\r\n\r\n").encode()
    chunk = b"\xff" * 65536
    sent = 0
    status = "no answer"
    try:
        s = socket.create_connection((HOST, port), timeout=30)
        s.sendall(head + part)
        sent = len(part)
        while sent < size and time.monotonic() < deadline:
            s.sendall(chunk)
            sent += len(chunk)
        reply = s.recv(64)
        status = reply.split(b" ")[1].decode() if reply.startswith(b"HTTP/") else "closed"
    except (BrokenPipeError, ConnectionResetError):
        status = "closed while sending"
        try:
            reply = s.recv(64)
            if reply.startswith(b"HTTP/"):
                status = reply.split(b" ")[1].decode()
        except OSError:
            pass
    except OSError as error:
        status = type(error).__name__
    finally:
        try:
            s.close()
        except Exception:
            pass
    with lock:
        stats[status] += 1
        stats["bytes sent"] += sent


def uploads(port, count, seconds):
    deadline = time.monotonic() + seconds
    stats, lock = collections.Counter(), threading.Lock()
    remaining = iter(range(count))
    remaining_lock = threading.Lock()

    def worker():
        while time.monotonic() < deadline:
            with remaining_lock:
                if next(remaining, None) is None:
                    return
            upload(port, deadline, stats, lock)

    threads = [threading.Thread(target=worker) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    mb = stats.pop("bytes sent") / 1e6
    print(f"uploads: {sum(stats.values())} attempted, answers {dict(stats)}, {mb:.0f} MB sent in all")


def trickle(port, count, seconds):
    sources = [f"127.0.0.{n}" for n in range(2, 7)]
    payload = b"GET /folders/1 HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100000
    conns = []
    opened = closed = 0

    def connect(source):
        nonlocal opened
        s = socket.socket()
        s.bind((source, 0))
        s.setblocking(False)
        s.connect_ex((HOST, port))
        opened += 1
        return [s, source, 0]

    for i in range(count):
        conns.append(connect(sources[i % len(sources)]))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for c in conns:
            s, source, position = c
            try:
                if s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                    raise ConnectionResetError
            except BlockingIOError:
                pass
            except OSError:
                # Refused over the per-client limit, or cut at its deadline: try again.
                closed += 1
                s.close()
                c[:] = connect(source)
                continue
            try:
                s.send(payload[position:position + 1])
                c[2] = position + 1
            except OSError:
                pass
        time.sleep(1)
    for c in conns:
        c[0].close()
    print(f"trickle: {count} connections kept up from {len(sources)} addresses, {opened} opened in all, "
          f"{closed} closed by the server (over the per-client limit or past the deadline)")


if __name__ == "__main__":
    mode, port, count, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    {"uploads": uploads, "trickle": trickle}[mode](port, count, seconds)
