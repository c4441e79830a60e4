#!/usr/bin/env bash
# Power benchmark (issue 33): what a buffered 200 Hz accelerometer costs in
# CPU and in wake-ups, moving and still, at several --latency budgets.
#
#   bench/power.sh                          (release build in .build-power)
#   TILTD_BIN=… bench/power.sh              (a prebuilt tiltd or tiltd-run)
#   MOVING=10 STILL=30 ROUNDS=1 bench/power.sh
#   RATE=100 bench/power.sh                 (the device at 100 Hz; the peer
#                                           still reads the 200 Hz scans)
#   PACED=0 bench/power.sh                  (without the paced C reader)
#   ARMS= STILL=4 ROUNDS=5 bench/power.sh   (the paced C reader and the peer
#                                           only; ARMS: tiltd's --latency
#                                           arms, default "0 default 16")
#
# The device: Tests/Fixtures/buffered.umockdev at 200 Hz, its scans a
# script written here: MOVING seconds of the rolling scans of
# bench-200hz.script, then STILL seconds lying still. tiltd runs `run --mode
# buffer --rate 200 --listen unix:…` (gate on, stdout /dev/null) with one
# socket client, at --latency 0, the default (no option) and 16, each
# measured by bench/power_run.py: CPU of all its threads per sample and as %
# of a core, wake-ups per second of all its threads (voluntary context
# switches from /proc/PID/task/*/status), and the p50/p99 sample→client
# latency while moving. STILL of 14 s or more (the default, 30) is
# measured in two parts: rest, the first 10 s (a wake-up every 250 ms), and
# still, the device settled after (every 500 ms). The peer, in the same
# run: `iio_readdev -b 1` on the 4000 moving scans of bench-200hz.script
# (CPU per sample and voluntary context switches per second from
# /usr/bin/time), as bench/goals.sh measures it. And the floor under any
# paced reader: bench/paced_peer.c (libiio, a wake-up every 16 ms, one line
# per scan and one send per wake-up, none of tiltd's work) on the same
# script with one client, measured by power_run.py as tiltd is (row
# "paced_peer.c 16"). Not run in CI; medians of ROUNDS rounds, the arms
# taking turns.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
F="$root/Tests/Fixtures"
moving="${MOVING:-10}"
still="${STILL:-30}"
rounds="${ROUNDS:-1}"
rate="${RATE:-200}"
read -r -a arms <<< "${ARMS-0 default 16}"
for tool in umockdev-run iio_readdev /usr/bin/time python3; do
    command -v "$tool" > /dev/null || { echo "power.sh: $tool is missing: run scripts/setup.sh bench" >&2; exit 1; }
done
if [[ -n "${TILTD_BIN:-}" || ${#arms[@]} == 0 ]]; then bin="${TILTD_BIN:-}"; else
    # Benchmarks build release in their own scratch directory (never in CI).
    swift build -c release --package-path "$root" --scratch-path "$root/.build-power" --product tiltd-run >&2
    bin="$root/.build-power/release/tiltd-run"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Rolling for MOVING s, then still (upright, x = 0), one period apart, as
# Tests/Fixtures/make-scripts.py writes scans (24 bytes, ^-escaped).
python3 - "$work/power.script" "$moving" "$still" "$rate" <<'PY'
import math, struct, sys
path, moving, still, rate = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
def escape(data):
    return "".join("^" + chr(b + 64) if b < 0x20 else "^`" if b == ord("^") else chr(b) for b in data)
t0 = 1_000_000_000_000
lines = []
period_ns = 1_000_000_000 // rate
for i in range(int(rate * (moving + still))):
    # The same swing (a cycle every 0.2 s) at any rate.
    x = round(64 * math.sin(2 * math.pi * i * period_ns / 200_000_000)) if i < rate * moving else 0
    lines.append(f"r {period_ns // 1_000_000} " + escape(struct.pack("<iiiiq", x, -256, 20, 0, t0 + i * period_ns)))
open(path, "w", encoding="latin-1", newline="\n").write("\n".join(lines) + "\n")
PY
scans=$((rate * (moving + still)))

# The least a paced reader can do (bench/paced_peer.c: libiio, a wake-up
# every 16 ms, one line per scan, one send per wake-up), measured as tiltd is.
paced="${PACED:-1}"
[[ $paced != 1 ]] || cc -O2 -Wall "$root/bench/paced_peer.c" -o "$work/paced_peer" -liio -lm

for round in $(seq "$rounds"); do
    if [[ $paced == 1 ]]; then
        rm -f "$work/run.sock"
        python3 "$root/bench/power_run.py" "$work/run.sock" "$moving" "$still" "$rate" -- \
            umockdev-run --device "$F/buffered.umockdev" -s "/dev/iio:device0=$work/power.script" -- \
            "$work/paced_peer" iio:device0 "$work/run.sock" 16 "$rate" "$scans" >> "$work/arm-paced.json"
        echo "round $round, paced_peer 16 ms: $(tail -1 "$work/arm-paced.json")" >&2
    fi
    for arm in ${arms[@]+"${arms[@]}"}; do
        option=()
        [[ $arm == default ]] || option=(--latency "$arm")
        rm -f "$work/run.sock"
        python3 "$root/bench/power_run.py" "$work/run.sock" "$moving" "$still" "$rate" -- \
            umockdev-run --device "$F/buffered.umockdev" -s "/dev/iio:device0=$work/power.script" -- \
            "$bin" run --mode buffer --rate "$rate" --count "$scans" "${option[@]}" --listen "unix:$work/run.sock" \
            >> "$work/arm-$arm.json"
        echo "round $round, --latency $arm: $(tail -1 "$work/arm-$arm.json")" >&2
    done
    umockdev-run --device "$F/buffered.umockdev" -s "/dev/iio:device0=$F/bench-200hz.script" -- \
        /usr/bin/time -f "%U %S %w %e" -o "$work/peer.time" /usr/bin/iio_readdev -b 1 -s 4000 -T 5000 \
        iio:device0 accel_x accel_y accel_z timestamp > /dev/null 2> "$work/peer.err"
    tail -n 1 "$work/peer.time" | awk '{ printf "{\"cpu_us_per_sample\": %.1f, \"wakeups_per_s\": %.1f}\n", ($1 + $2) * 1e6 / 4000, $3 / $4 }' \
        >> "$work/peer.json"
    echo "round $round, iio_readdev -b 1: $(tail -1 "$work/peer.json")" >&2
done

labels=()
[[ $paced == 1 ]] && labels+=("paced_peer.c 16=arm-paced")
for arm in ${arms[@]+"${arms[@]}"}; do labels+=("$arm=arm-$arm"); done
python3 "$root/bench/power_table.py" "$work" "iio_readdev -b 1 (moving scans)" sample "tiltd --latency, or a peer" "${labels[@]}"
