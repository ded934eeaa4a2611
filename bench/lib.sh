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
