#!/usr/bin/env bash
# Zaiko's own stock page (50 rows of a demo household) served by Zaiko and by PHP-FPM + nginx
# reading the same SQLite file with the same queries and markup (zaiko-php/list.php), in one run.
#
#   bench/same-page.sh . [ITEMS]      from the repository root (or: same-page.sh ZAIKO_CHECKOUT [ITEMS])
#   a release build must exist: swift build -c release --product zaiko
#
# Knobs: DURATION [10s] WARMUP [3s] THREADS [2] CONNS [64] REPEAT [3] FPM_CHILDREN [4]
# ZAIKO_ARGS (more options for `zaiko serve`, e.g. "--threads 4")
# Prints how many lines page 1 differs in (and how many of pages 1-20 are byte-identical, sent as
# they are and gzipped), then a table: req/s, p50, p99, server CPU µs per page (utime+stime of every
# server process), bytes per page, and the same figures for a static file from each server; then the
# page asked for with Accept-Encoding: gzip (bytes on the wire, req/s, p99, CPU per page), and the
# bytes of a first visit (the page and every file it names) and of a second one (what a browser asks
# again: files not kept `immutable` are revalidated). When the stock page's markup changes,
# bench/zaiko-php/list.php must follow it (the counts say when it has drifted).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
APP=$(realpath "${1:?usage: same-page.sh ZAIKO_CHECKOUT [ITEMS]}")
ITEMS=${2:-5000}
DURATION=${DURATION:-10s}; WARMUP=${WARMUP:-3s}; THREADS=${THREADS:-2}; CONNS=${CONNS:-64}; REPEAT=${REPEAT:-3}
BIN="$APP/.build/release/zaiko"
[ -x "$BIN" ] || { echo "no release build at $BIN" >&2; exit 1; }
command -v wrk >/dev/null && command -v nginx >/dev/null && command -v php-fpm8.2 >/dev/null || { echo "needs: apt-get install wrk nginx-light php8.2-fpm php8.2-sqlite3" >&2; exit 1; }
WORK=$(mktemp -d /tmp/same-page.XXXXXX)
ZPORT=18301; PPORT=18302
run="$WORK/php"; sock="$WORK/fpm.sock"
mkdir -p "$run"/tmp/{body,fastcgi,proxy,uwsgi,scgi}
zpid=""
cleanup() {
    [ -n "$zpid" ] && stop_pid "$zpid"
    [ -f "$run/nginx.pid" ] && stop_pid "$(cat "$run/nginx.pid")"
    [ -f "$run/php-fpm.pid" ] && stop_pid "$(cat "$run/php-fpm.pid")"
    true
}
trap cleanup EXIT

creds=$("$BIN" demo --items "$ITEMS" --data "$WORK/data")
login=$(sed -n 's/^Login: //p' <<<"$creds"); password=$(sed -n 's/^Password: //p' <<<"$creds")
"$BIN" serve ${ZAIKO_ARGS:-} --host 127.0.0.1 --port $ZPORT --data "$WORK/data" --resources "$APP" --log-level warning \
    --max-connections-per-client 1024 > "$WORK/zaiko.log" 2>&1 &
zpid=$!
wait_http $ZPORT /healthz 30
cookie=$(python3 - "$ZPORT" "$login" "$password" <<'PY'
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
for f in nginx.conf php-fpm.conf; do
    sed -e "s#@PORT@#$PPORT#g" -e "s#@ROOT@#$ROOT#g" -e "s#@RUN@#$run#g" -e "s#@DB@#$WORK/data/zaiko.sqlite#g" -e "s#@LOCALES@#$APP/Templates/locales#g" -e "s#@CACHE@#$run#g" \
        -e "s#@SOCK@#$sock#g" -e "s#@PUBLIC@#$APP/Public#g" -e "s#pm.max_children = 4#pm.max_children = ${FPM_CHILDREN:-4}#" \
        "$ROOT/zaiko-php/$f.in" > "$run/$f"
done
php-fpm8.2 -R -y "$run/php-fpm.conf"
for ((i = 0; i < 50; i++)); do [ -S "$sock" ] && break; sleep 0.1; done
nginx -e "$run/nginx-error.log" -p "$run" -c "$run/nginx.conf"
wait_http $PPORT /static/css/app.css 30

# Same page? Compare the two after dropping blank lines and normalising the escape of '.
for who in zaiko:$ZPORT php:$PPORT; do
    curl -s -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:${who#*:}/folders/1" | sed -e "s/&#039;/\&#39;/g" | grep -v '^$' > "$WORK/${who%%:*}.html"
done
same_lines=$(diff "$WORK/zaiko.html" "$WORK/php.html" | grep -c '^[<>]' || true)
zbytes=$(curl -s -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$ZPORT/folders/1" | wc -c)
pbytes=$(curl -s -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$PPORT/folders/1" | wc -c)
echo "pages differ in $same_lines lines (zaiko $zbytes B, php $pbytes B); diff: $WORK/zaiko.html $WORK/php.html" >&2
# The twenty pages the load below asks for, byte for byte.
identical=0
for ((p = 1; p <= 20; p++)); do
    cmp -s <(curl -s -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$ZPORT/folders/1?page=$p") \
        <(curl -s -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$PPORT/folders/1?page=$p") && identical=$((identical + 1))
done
echo "pages 1-20 byte-identical: $identical of 20" >&2
# The same twenty gzipped: each decodes to its page as sent uncompressed.
decoded=0
for ((p = 1; p <= 20; p++)); do
    cmp -s <(curl -s -H "Accept-Encoding: gzip" -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$ZPORT/folders/1?page=$p" | gzip -dc) \
        <(curl -s -H "Accept-Encoding: gzip" -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$PPORT/folders/1?page=$p" | gzip -dc) &&
        decoded=$((decoded + 1))
done
echo "pages 1-20 gzipped, byte-identical once decoded: $decoded of 20" >&2
zgz=$(curl -s -H "Accept-Encoding: gzip" -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$ZPORT/folders/1" | wc -c)
pgz=$(curl -s -H "Accept-Encoding: gzip" -H "Cookie: zaiko_session=$cookie" "http://127.0.0.1:$PPORT/folders/1" | wc -c)
# A first visit (the page and every file it names, gzipped where offered) and a second (the page
# again, and a revalidation of every file not kept for good): bytes received, headers included.
visits() { # port
    python3 - "$1" "$cookie" <<'PY'
import http.client, re, sys
port, cookie = int(sys.argv[1]), sys.argv[2]
conn = http.client.HTTPConnection("127.0.0.1", port)
def get(path, extra=()):
    conn.request("GET", path, headers={"Cookie": f"zaiko_session={cookie}", "Accept-Encoding": "gzip", **dict(extra)})
    r = conn.getresponse()
    body = r.read()
    head = len(f"HTTP/1.1 {r.status} {r.reason}\r\n") + sum(len(k) + len(v) + 4 for k, v in r.getheaders()) + 2
    return r, head + len(body), body
_, page_bytes, body = get("/folders/1")
html = body if body[:2] != b"\x1f\x8b" else __import__("gzip").decompress(body)
files = sorted(set(re.findall(rb'(?:src|href)="(/(?:static|photos)/[^"]+)"', html)))
first, second, asked = page_bytes, page_bytes, 0
for f in files:
    r, n, _ = get(f.decode())
    first += n
    if "immutable" in (r.getheader("Cache-Control") or ""): continue
    asked += 1
    second += get(f.decode(), [("If-None-Match", r.getheader("ETag") or "")])[1]
print(f"{1 + len(files)}\t{first}\t{1 + asked}\t{second}")
PY
}
IFS=$'\t' read -r zfirst_n zfirst zsecond_n zsecond < <(visits $ZPORT)
IFS=$'\t' read -r pfirst_n pfirst psecond_n psecond < <(visits $PPORT)

lua="$WORK/pages.lua"
cat > "$lua" <<LUA
local n = 0
request = function()
  n = n % 20 + 1
  return wrk.format("GET", "/folders/1?page=" .. n, {["Cookie"] = "zaiko_session=$cookie"})
end
LUA
gzlua="$WORK/pages-gzip.lua"
sed 's/{\["Cookie"\]/{["Accept-Encoding"] = "gzip", ["Cookie"]/' "$lua" > "$gzlua"
sum_cpu() { local p t=0 v; for p in "$@"; do v=$(awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$p/stat" 2>/dev/null || true); t=$((t + ${v:-0})); done; echo $t; }
sum_rss() { local p t=0 v; for p in "$@"; do v=$(awk '$1=="VmRSS:"{print $2}' "/proc/$p/status" 2>/dev/null || true); t=$((t + ${v:-0})); done; echo $t; }
pids_of() { if [ "$1" = zaiko ]; then echo "$zpid"; else tree_pids "$(cat "$run/nginx.pid")"; tree_pids "$(cat "$run/php-fpm.pid")"; fi; }
hz=$(getconf CLK_TCK)
printf 'who\trep\twhat\treq_s\tp50\tp99\tcpu_us\trss_kb\n' > "$WORK/results.tsv"
measure() { # who port rep what path-or-lua
    local who=$1 port=$2 rep=$3 what=$4 out="$WORK/$1-$4-$3.txt" pids c0 c1 reqs
    mapfile -t pids < <(pids_of "$who")
    c0=$(sum_cpu "${pids[@]}")
    if [ "$what" = page ]; then wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$lua" "http://127.0.0.1:$port" > "$out" 2>&1
    elif [ "$what" = gzpage ]; then wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$gzlua" "http://127.0.0.1:$port" > "$out" 2>&1
    else wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "http://127.0.0.1:$port/static/css/app.css" > "$out" 2>&1; fi
    c1=$(sum_cpu "${pids[@]}")
    reqs=$(awk '/requests in/{print $1}' "$out")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$who" "$rep" "$what" "$(awk '/Requests\/sec/{print $2}' "$out")" \
        "$(awk '$1=="50%"{print $2}' "$out")" "$(awk '$1=="99%"{print $2}' "$out")" \
        "$(( (c1 - c0) * 1000000 / hz / (reqs > 0 ? reqs : 1) ))" "$(sum_rss "${pids[@]}")" >> "$WORK/results.tsv"
    grep -q "Non-2xx" "$out" && echo "WARNING: non-2xx answers in $out" >&2 || true
}
for who in zaiko:$ZPORT php:$PPORT; do wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s "$lua" "http://127.0.0.1:${who#*:}" > /dev/null 2>&1; done
for ((rep = 1; rep <= REPEAT; rep++)); do
    for who in zaiko:$ZPORT php:$PPORT; do
        measure "${who%%:*}" "${who#*:}" "$rep" page
        measure "${who%%:*}" "${who#*:}" "$rep" gzpage
        measure "${who%%:*}" "${who#*:}" "$rep" static
    done
done
python3 - "$WORK/results.tsv" "$zbytes" "$pbytes" "$ITEMS" "$zgz" "$pgz" "$zfirst_n" "$zfirst" "$zsecond_n" "$zsecond" \
    "$pfirst_n" "$pfirst" "$psecond_n" "$psecond" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
zgz, pgz, zf_n, zf, zs_n, zs, pf_n, pf, ps_n, ps = sys.argv[5:15]
def ms(v):
    v = v.strip()
    for suf, f in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if v.endswith(suf): return float(v[:-len(suf)]) * f
    return float("nan")
med = lambda who, what, k, f=float: statistics.median(f(r[k]) for r in rows if r["who"] == who and r["what"] == what)
print(f"Zaiko's stock page, 50 of {sys.argv[4]} items, {len(rows)//6} runs each (medians)")
print("| server | page B | page req/s | p50 ms | p99 ms | CPU µs/page | static req/s | CPU µs/static | RSS MB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for who, b in (("zaiko", sys.argv[2]), ("php", sys.argv[3])):
    print(f"| {who} | {b} | {med(who,'page','req_s'):.0f} | {med(who,'page','p50',ms):.1f} | {med(who,'page','p99',ms):.1f} | "
          f"{med(who,'page','cpu_us'):.0f} | {med(who,'static','req_s'):.0f} | {med(who,'static','cpu_us'):.0f} | {med(who,'page','rss_kb')/1024:.0f} |")
z, p = med("zaiko", "page", "cpu_us"), med("php", "page", "cpu_us")
print(f"zaiko/php CPU per page: {z/p:.2f}   req/s ratio zaiko/php: {med('zaiko','page','req_s')/med('php','page','req_s'):.2f}   "
      f"p99 ratio: {med('zaiko','page','p99',ms)/med('php','page','p99',ms):.2f}   zaiko page/static req/s: {med('zaiko','page','req_s')/med('zaiko','static','req_s'):.3f}")
print()
print("Asked for with Accept-Encoding: gzip (bytes sent; first and second visit: requests / bytes received, headers included)")
print("| server | gzip page B | req/s | p99 ms | CPU µs/page | CPU gzip/plain | first visit | second visit |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for who, b, fn, f, sn, s2 in (("zaiko", zgz, zf_n, zf, zs_n, zs), ("php", pgz, pf_n, pf, ps_n, ps)):
    print(f"| {who} | {b} | {med(who,'gzpage','req_s'):.0f} | {med(who,'gzpage','p99',ms):.1f} | {med(who,'gzpage','cpu_us'):.0f} | "
          f"{med(who,'gzpage','cpu_us')/med(who,'page','cpu_us'):.2f} | {fn} / {f} | {sn} / {s2} |")
print(f"zaiko/php CPU per gzipped page: {med('zaiko','gzpage','cpu_us')/med('php','gzpage','cpu_us'):.2f}   "
      f"bytes zaiko/php: {int(zgz)/int(pgz):.2f}")
PY
