# Helpers for bench/same-page.sh (sourced, not run). Copied from the team's peer-server scripts.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# PID and all its descendants, one per line.
tree_pids() {
    local p=$1 c
    [ -d "/proc/$p" ] || return 0
    echo "$p"
    for c in $(ps -o pid= --ppid "$p" 2>/dev/null); do tree_pids "$c"; done
}

# Wait until http://127.0.0.1:PORT/PATH answers (any status) or TIMEOUT seconds pass.
wait_http() {
    local port=$1 path=$2 timeout=${3:-30} i
    for ((i = 0; i < timeout * 10; i++)); do
        if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port$path"; then return 0; fi
        sleep 0.1
    done
    echo "timed out waiting for 127.0.0.1:$port$path" >&2
    return 1
}

# Send SIGTERM to PID (only if it is alive), wait up to 10 s, then SIGKILL.
stop_pid() {
    local p=$1 i
    [ -n "$p" ] && [ -d "/proc/$p" ] || return 0
    kill -TERM "$p" 2>/dev/null || return 0
    for ((i = 0; i < 100; i++)); do [ -d "/proc/$p" ] || return 0; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null || true
}

# The session cookie's value after signing in to http://127.0.0.1:PORT as LOGIN with PASSWORD.
bench_session() {
    python3 - "$1" "$2" "$3" <<'PY'
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
}

# NAME PATH -> "| NAME | PATH | req/s | p50 | p99 | bytes | CPU µs |": the medians of REPEAT wrk runs
# against $URL with $cookie (or the header $AUTH, "Authorization: Bearer …"), the server's CPU (utime+stime of $pid) per request; the CPU is kept
# in $WORK/cpu-NAME (spaces as _) for ratios. Uses THREADS, CONNS, WARMUP, DURATION, REPEAT.
bench_measure() {
    local name=$1 path=$2 status r out before after requests hz auth=${AUTH:-"Cookie: $cookie"}
    hz=$(getconf CLK_TCK)
    status=$(curl -s -o /dev/null -w '%{http_code}' -H "$auth" "$URL$path")
    [ "$status" = 200 ] || { echo "$path answered $status" >&2; exit 1; }
    wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -H "$auth" "$URL$path" > /dev/null
    : > "$WORK/runs"
    for ((r = 0; r < REPEAT; r++)); do
        before=$(bench_ticks "$pid")
        out=$(wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H "$auth" "$URL$path")
        after=$(bench_ticks "$pid")
        requests=$(awk '/requests in/ {print $1}' <<<"$out")
        echo "$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out") $(awk '$1 == "50%" {print $2}' <<<"$out") $(awk '$1 == "99%" {print $2}' <<<"$out") $(awk -v t=$((after - before)) -v r="$requests" -v hz="$hz" 'BEGIN {printf "%.0f", t / hz * 1e6 / r}')" >> "$WORK/runs"
    done
    local rps p50 p99 cpu bytes middle=$(((REPEAT + 1) / 2))
    rps=$(awk '{print $1}' "$WORK/runs" | bench_median); p50=$(awk '{print $2}' "$WORK/runs" | sort -V | sed -n "${middle}p")
    p99=$(awk '{print $3}' "$WORK/runs" | sort -V | sed -n "${middle}p"); cpu=$(awk '{print $4}' "$WORK/runs" | bench_median)
    bytes=$(curl -s -o /dev/null -w '%{size_download}' -H "$auth" "$URL$path")
    echo "| $name | \`$path\` | $rps | $p50 | $p99 | $bytes | $cpu |"
    echo "$cpu" > "$WORK/cpu-${name// /_}"
}

# utime+stime of PID in clock ticks.
bench_ticks() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$1/stat"; }

bench_median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
