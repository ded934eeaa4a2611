#!/usr/bin/env bash
# The stock page over HTTPS (libmicrohttpd's TLS) and over HTTP, from one Zaiko in one run:
# keep-alive and a new connection per request (wrk -H "Connection: close"); then the server CPU
# of a full TLS handshake alone (TLS 1.3 and 1.2, no request), from N handshakes made by Python.
#
#   bench/https.sh . [ITEMS]          from the repository root
#   a release build must exist: swift build -c release --product zaiko
#
# Knobs: DURATION [10s] WARMUP [3s] THREADS [2] CONNS [64] REPEAT [3] HANDSHAKES [2000]
# Certificates: a test CA and a P-256 leaf made here with openssl (what Zaiko's own CA issues is
# also ECDSA P-256; an RSA-2048 leaf costs more per handshake: set KEY=rsa to measure that).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
APP=$(realpath "${1:?usage: https.sh ZAIKO_CHECKOUT [ITEMS]}")
ITEMS=${2:-5000}
DURATION=${DURATION:-10s}; WARMUP=${WARMUP:-3s}; THREADS=${THREADS:-2}; CONNS=${CONNS:-64}; REPEAT=${REPEAT:-3}
HANDSHAKES=${HANDSHAKES:-2000}; KEY=${KEY:-ec}
BIN="$APP/.build/release/zaiko"
[ -x "$BIN" ] || { echo "no release build at $BIN" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs: apt-get install wrk" >&2; exit 1; }
WORK=$(mktemp -d /tmp/https-bench.XXXXXX)
HPORT=18311; SPORT=18312
zpid=""
cleanup() { [ -n "$zpid" ] && stop_pid "$zpid"; true; }
trap cleanup EXIT

# A CA and a leaf for 127.0.0.1; server.crt is leaf + CA, as Zaiko's own <data>/tls/server.crt.
( cd "$WORK"
  keyopts=(-newkey ec -pkeyopt ec_paramgen_curve:P-256); [ "$KEY" = rsa ] && keyopts=(-newkey rsa:2048)
  openssl req -x509 "${keyopts[@]}" -nodes -keyout ca.key -out ca.crt -days 30 -subj "/CN=bench CA" \
      -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
  printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n' > leaf.ext
  openssl req "${keyopts[@]}" -nodes -keyout server.key -out leaf.csr -subj /CN=127.0.0.1 2>/dev/null
  openssl x509 -req -in leaf.csr -CA ca.crt -CAkey ca.key -set_serial 1 -days 30 -extfile leaf.ext -out leaf.crt 2>/dev/null
  cat leaf.crt ca.crt > server.crt )

creds=$("$BIN" demo --items "$ITEMS" --data "$WORK/data")
login=$(sed -n 's/^Login: //p' <<<"$creds"); password=$(sed -n 's/^Password: //p' <<<"$creds")
"$BIN" serve --host 127.0.0.1 --port $HPORT --https-port $SPORT --tls-cert "$WORK/server.crt" --tls-key "$WORK/server.key" \
    --data "$WORK/data" --resources "$APP" --log-level warning --max-connections-per-client 1024 > "$WORK/zaiko.log" 2>&1 &
zpid=$!
wait_http $HPORT /healthz 30
# One session token: over HTTP it is the zaiko_session cookie, over HTTPS __Host-zaiko_session.
token=$(python3 - "$HPORT" "$login" "$password" <<'PY'
import http.cookiejar, re, sys, urllib.parse, urllib.request
port, login, password = sys.argv[1:]
jar = http.cookiejar.CookieJar()
op = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
base = f"http://127.0.0.1:{port}"
page = op.open(base + "/login").read().decode()
csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
op.open(base + "/login", urllib.parse.urlencode({"_csrf": csrf, "login": login, "password": password}).encode())
print(next(c.value for c in jar if c.name == "zaiko_session"))
PY
)
hbytes=$(curl -s -H "Cookie: zaiko_session=$token" "http://127.0.0.1:$HPORT/folders/1" | wc -c)
sbytes=$(curl -s --cacert "$WORK/ca.crt" -H "Cookie: __Host-zaiko_session=$token" "https://127.0.0.1:$SPORT/folders/1" | wc -c)
echo "stock page: http $hbytes B, https $sbytes B" >&2
[ "$hbytes" = "$sbytes" ] && [ "$hbytes" -gt 10000 ] || { echo "the two pages differ or are not the stock page" >&2; exit 1; }

for scheme in http https; do
  for close in keep close; do
    name=$([ "$scheme" = https ] && echo "__Host-zaiko_session" || echo "zaiko_session")
    extra=$([ "$close" = close ] && echo ', ["Connection"] = "close"' || true)
    cat > "$WORK/$scheme-$close.lua" <<LUA
local n = 0
request = function()
  n = n % 20 + 1
  return wrk.format("GET", "/folders/1?page=" .. n, {["Cookie"] = "$name=$token"$extra})
end
LUA
  done
done
hz=$(getconf CLK_TCK)
cpu() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$zpid/stat"; }
printf 'scheme\tconn\trep\treq_s\tp50\tp99\tcpu_us\n' > "$WORK/results.tsv"
measure() { # scheme conn rep
    local port out="$WORK/$1-$2-$3.txt" c0 c1 reqs
    port=$([ "$1" = https ] && echo $SPORT || echo $HPORT)
    c0=$(cpu)
    wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$WORK/$1-$2.lua" "$1://127.0.0.1:$port" > "$out" 2>&1
    c1=$(cpu)
    reqs=$(awk '/requests in/{print $1}' "$out")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(awk '/Requests\/sec/{print $2}' "$out")" \
        "$(awk '$1=="50%"{print $2}' "$out")" "$(awk '$1=="99%"{print $2}' "$out")" \
        "$(( (c1 - c0) * 1000000 / hz / (reqs > 0 ? reqs : 1) ))" >> "$WORK/results.tsv"
    grep -q "Non-2xx\|Socket errors" "$out" && echo "NOTE: $(grep 'Non-2xx\|Socket errors' "$out") in $out" >&2 || true
}
for scheme in http https; do
    port=$([ "$scheme" = https ] && echo $SPORT || echo $HPORT)
    wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s "$WORK/$scheme-keep.lua" "$scheme://127.0.0.1:$port" > /dev/null 2>&1
done
for ((rep = 1; rep <= REPEAT; rep++)); do
    for scheme in http https; do for conn in keep close; do measure $scheme $conn $rep; done; done
done

# Full handshakes alone: connect, handshake (no resumption: a new context each time), close.
handshake_cpu() { # version
    local c0 c1
    c0=$(cpu)
    python3 - "$SPORT" "$WORK/ca.crt" "$HANDSHAKES" "$1" <<'PY'
import socket, ssl, sys
port, ca, count, version = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
v = ssl.TLSVersion.TLSv1_3 if version == "1.3" else ssl.TLSVersion.TLSv1_2
for _ in range(count):
    context = ssl.create_default_context(cafile=ca)
    context.minimum_version = context.maximum_version = v
    with socket.create_connection(("127.0.0.1", port)) as raw, context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        assert tls.version() == "TLSv" + version
PY
    c1=$(cpu)
    echo $(( (c1 - c0) * 1000000 / hz / HANDSHAKES ))
}
hs13=$(handshake_cpu 1.3); hs12=$(handshake_cpu 1.2)

python3 - "$WORK/results.tsv" "$hbytes" "$ITEMS" "$hs13" "$hs12" "$KEY" "$HANDSHAKES" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def ms(v):
    v = v.strip()
    for suf, f in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if v.endswith(suf): return float(v[:-len(suf)]) * f
    return float("nan")
med = lambda s, c, k, f=float: statistics.median(f(r[k]) for r in rows if r["scheme"] == s and r["conn"] == c)
print(f"Zaiko's stock page ({sys.argv[2]} B, 50 of {sys.argv[3]} items), {len(rows)//4} runs each (medians); leaf key {sys.argv[6]}")
print("| scheme | connections | req/s | p50 ms | p99 ms | server CPU µs/request |")
print("|---|---|---:|---:|---:|---:|")
for s in ("http", "https"):
    for c, label in (("keep", "keep-alive"), ("close", "new per request")):
        print(f"| {s} | {label} | {med(s,c,'req_s'):.0f} | {med(s,c,'p50',ms):.1f} | {med(s,c,'p99',ms):.1f} | {med(s,c,'cpu_us'):.0f} |")
for c, label in (("keep", "keep-alive"), ("close", "new connections")):
    print(f"https/http {label}: req/s {med('https',c,'req_s')/med('http',c,'req_s'):.2f}, CPU per request "
          f"{med('https',c,'cpu_us')/med('http',c,'cpu_us'):.2f} (+{med('https',c,'cpu_us')-med('http',c,'cpu_us'):.0f} µs)")
print(f"server CPU of one full handshake (no request, {sys.argv[7]} each): TLS 1.3 {sys.argv[4]} µs, TLS 1.2 {sys.argv[5]} µs")
PY
