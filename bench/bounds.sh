#!/usr/bin/env bash
# What one client can make tiltd hold, as resident memory (VmRSS, KiB) before
# and after; reported, never asserted (the tests check the behaviour: the
# server stops reading an endless message, a stalled client gets at most the
# kernel's queue and two lines). Formerly RSS assertions inside the tests.
#
#   bench/bounds.sh                        # release build in .build
#   TILTD_BIN=.build/debug/tiltd bench/bounds.sh
#
#   websocket  `tiltd serve --replay … --loop`, one client sending an
#              unfinished WebSocket message of up to 64 MiB
#   stalled    `tiltd replay --no-gate --realtime --listen`, one client that
#              reads nothing for SECONDS_EACH seconds
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
SECONDS_EACH=${SECONDS_EACH:-10}
if [[ -z ${TILTD_BIN:-} ]]; then
    swift build -c release --product tiltd >&2
    TILTD_BIN=.build/release/tiltd
fi
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }

"$TILTD_BIN" serve --port 0 --size 128 --replay recordings/synthetic-tilt-sweep.trace --loop 2> "$work/serve.err" &
serve=$!; pids+=("$serve")
until port=$(grep -o 'serving http://127.0.0.1:[0-9]*' "$work/serve.err" | grep -o '[0-9]*$'); do
    kill -0 "$serve" || { cat "$work/serve.err" >&2; exit 1; }
    sleep 0.1
done
before=$(rss "$serve")
sent=$(python3 bench/bounds_client.py ws "$port")
after=$(rss "$serve")
echo "websocket: $sent bytes of one unfinished message sent; VmRSS $before → $after KiB ($((after - before)) KiB)"

"$TILTD_BIN" replay --no-gate --realtime --listen "unix:$work/s.sock" recordings/ngimu-hand-motion.trace > /dev/null &
replay=$!; pids+=("$replay")
until [[ -S $work/s.sock ]]; do kill -0 "$replay"; sleep 0.1; done
python3 bench/bounds_client.py stall "$work/s.sock" "$SECONDS_EACH" &
client=$!; pids+=("$client")
sleep 1
before=$(rss "$replay")
wait "$client" || true
after=$(rss "$replay" 2>/dev/null || echo "$before")
echo "stalled: a socket client reading nothing for $SECONDS_EACH s; VmRSS $before → $after KiB ($((after - before)) KiB)"
