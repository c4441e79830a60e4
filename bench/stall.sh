#!/usr/bin/env bash
# One consumer that stops reading must not slow any other (README,
# "Consumers that stall").
#
#   bench/stall.sh [SECONDS] [--rounds N]      (default 10 s, 3 rounds)
#   TILTD_BIN=… bench/stall.sh                 (a prebuilt release tiltd)
#   CASES="dbus sse" bench/stall.sh            (some of the cases below)
#
# `tiltd run --mode poll --rate 200 --no-gate --listen … --dsu …` on a
# umockdev polled accelerometer (every sample a state), with standard
# output into a pipe that `cat` drains. A measuring client on the state
# socket (bench/latency_client.py) takes SECONDS of states: its rate and
# its p99 sample→client latency. Each case runs that twice, taking turns,
# once as is and once beside one consumer that stops reading:
#
#   stdout   standard output into a pipe nobody reads (`| sleep`)
#   socket   a second socket client that never reads (bench/stall_peer.py)
#   dsu      a DSU subscriber that never reads, its receive buffer 4 KiB
#   dbus     with --dbus session on a private bus: a claimant that never
#            reads its connection (so never answers tiltd's Ping; tiltd
#            drops its claim after 10 s)
#   sse      `tiltd serve` on the same device instead of run: the measuring
#            client reads /events, and the stalled one asks for /events
#            with a 4 KiB receive buffer and never reads
#
# and prints, per case, the medians over the rounds and the stalled run's
# rate and p99 as a ratio of the plain run's (1.00 = unaffected; the goal:
# within 10 %). Release build; an otherwise idle machine gives steadier
# figures. Not part of CI.
set -euo pipefail
seconds=10
rounds=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="${2:?--rounds needs a number}"; shift 2 ;;
        [0-9]*) seconds="$1"; shift ;;
        *) echo "stall.sh: unknown argument $1; usage: stall.sh [SECONDS] [--rounds N]" >&2; exit 2 ;;
    esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [[ -n "${TILTD_BIN:-}" ]]; then bin="$TILTD_BIN"; else
    swift build -c release --product tiltd >&2
    swift build -c release --product tiltd-run >&2
    bin="$root/.build/release/tiltd"
fi
work="$(mktemp -d /tmp/tiltd-stall.XXXXXX)"
pids=()
bus_pid=""
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [[ -n $bus_pid ]] && kill "$bus_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A private session bus for the dbus case.
read -r bus_address bus_pid < <(dbus-daemon --session --fork --print-address=1 --print-pid=1 | paste -s -d' ')
[[ -n $bus_address ]] || { echo "stall.sh: could not start a private dbus-daemon (apt-get install dbus)" >&2; exit 1; }

# bench/still-accel.umockdev: a still accelerometer lying face up, polled.

wait_for() {  # a file to appear (or, with a second argument, that text in tiltd's log), 15 s at most
    for _ in $(seq 1 300); do
        if [[ -z ${2:-} ]]; then [[ -e "$1" ]] && return 0
        else grep -q "$2" "$1" 2>/dev/null && return 0; fi
        sleep 0.05
    done
    echo "stall.sh: ${2:-$1} never appeared; tiltd said:" >&2
    cat "$work/tiltd.err" >&2 || true
    exit 1
}

# One run: CASE, and "plain" or "stalled". Prints the client's JSON.
run_once() {
    local case=$1 mode=$2 port=$(( 27000 + RANDOM % 2000 )) sink command
    rm -f "$work/s.sock" "$work/ready" "$work/tiltd.err"
    if [[ $case == stdout && $mode == stalled ]]; then sink="sleep 3600"; else sink="cat"; fi
    case $case in
        sse) command=(serve --port "$port" --mode poll --rate 200 --no-gate) ;;
        dbus) command=(run --mode poll --rate 200 --no-gate --listen "unix:$work/s.sock" --dbus session) ;;
        *) command=(run --mode poll --rate 200 --no-gate --listen "unix:$work/s.sock" --dsu "127.0.0.1:$port") ;;
    esac
    ( DBUS_SESSION_BUS_ADDRESS=$bus_address umockdev-run --device "$root/bench/still-accel.umockdev" -- \
        "$bin" "${command[@]}" 2>"$work/tiltd.err" | $sink > /dev/null ) 2>/dev/null &
    local runner=$!
    pids+=("$runner")
    local client="$work/s.sock"
    if [[ $case == sse ]]; then
        wait_for "$work/tiltd.err" "serving http://"
        client="http://127.0.0.1:$port"
    else
        wait_for "$work/s.sock"
    fi
    local peer=""
    if [[ $mode == stalled && $case != stdout ]]; then
        local where="$work/s.sock"
        case $case in dsu|sse) where=$port ;; dbus) where=$bus_address ;; esac
        python3 "$root/bench/stall_peer.py" "$case" "$where" > "$work/ready" &
        peer=$!
        pids+=("$peer")
        for _ in $(seq 1 300); do grep -q ready "$work/ready" 2>/dev/null && break; sleep 0.05; done
    fi
    # Two seconds for a stalled consumer to fill whatever it can fill.
    [[ $mode == stalled ]] && sleep 2
    python3 "$root/bench/latency_client.py" "$client" --seconds "$seconds" --json
    [[ -n $peer ]] && kill "$peer" 2>/dev/null || true
    pkill -TERM -f "$work/s.sock" 2>/dev/null || true
    pkill -TERM -f -- "--port $port --mode poll" 2>/dev/null || true
    pkill -TERM -P "$runner" 2>/dev/null || true
    wait "$runner" 2>/dev/null || true
}

echo "tiltd: $bin ($(git rev-parse --short HEAD)); ${seconds} s a run, ${rounds} rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-8s %10s %12s\n' case run "rate (Hz)" "p99 (µs)"
for case in ${CASES:-stdout socket dsu dbus sse}; do
    : > "$work/$case.plain"; : > "$work/$case.stalled"
    for _ in $(seq 1 "$rounds"); do
        run_once "$case" plain >> "$work/$case.plain"
        run_once "$case" stalled >> "$work/$case.stalled"
    done
    python3 - "$case" "$work/$case.plain" "$work/$case.stalled" <<'PY'
import json, statistics, sys
case, plain, stalled = sys.argv[1], sys.argv[2], sys.argv[3]
def load(path):
    return [json.loads(line) for line in open(path) if line.strip()]
p, s = load(plain), load(stalled)
def med(rows, key):
    return statistics.median(r[key] for r in rows)
for name, rows in (("plain", p), ("stalled", s)):
    print("%-8s %-8s %10.1f %12.0f" % (case, name, med(rows, "rate_hz"), med(rows, "p99_us")))
print("%-8s %-8s %10.2f %12.2f" % (case, "ratio", med(s, "rate_hz") / med(p, "rate_hz"), med(s, "p99_us") / med(p, "p99_us")))
PY
done
