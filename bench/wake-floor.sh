#!/usr/bin/env bash
# The floor under bench/power.sh: what a bare wake-up costs on this machine
# (bench/wake_floor.c: a thread that sleeps and does no work), at the intervals
# tiltd wakes at: 5 ms (one scan a wake-up at 200 Hz), 16 ms (the default
# budget), 250 ms (at rest) and 500 ms (settled). ROUNDS rounds of about
# SECONDS s each per interval; medians. HOW: the ways of sleeping compared
# (poll on a pipe, as tiltd waits; cond, a futex with no descriptor;
# nanosleep), default all three.
#
#   bench/wake-floor.sh
#   ROUNDS=5 SECONDS_EACH=10 HOW=poll bench/wake-floor.sh
# Not run in CI.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${ROUNDS:-3}"
seconds="${SECONDS_EACH:-8}"
read -r -a hows <<< "${HOW:-poll cond nanosleep}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -Wall "$root/bench/wake_floor.c" -o "$work/wake_floor" -lpthread
for round in $(seq "$rounds"); do
    for ms in 5 16 250 500; do
        for how in "${hows[@]}"; do
            "$work/wake_floor" "$ms" $((seconds * 1000 / ms)) "$how" | tee -a "$work/floor.json" >&2
        done
    done
done
python3 - "$work/floor.json" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
print("| interval | sleeping in | wake-ups/s | CPU per wake-up (median) | % of a core |")
print("|---|---|---|---|---|")
for ms in sorted({r["interval_ms"] for r in runs}):
    for how in dict.fromkeys(r["how"] for r in runs):
        mine = [r for r in runs if r["interval_ms"] == ms and r["how"] == how]
        us = statistics.median(r["cpu_us_per_wake"] for r in mine)
        print(f"| {ms} ms | {how} | {1000 / ms:g} | {us:.1f} µs | {statistics.median(r['cpu_percent'] for r in mine):.3f} % |")
PY
