#!/usr/bin/env bash
# What an evdev game pad's motion sensors cost tiltd, moving and still: CPU
# per report, wake-ups per second of all its threads and the p50/p99
# report→client latency, beside bench/evdev_peer.c (one read(2) per wake-up,
# nothing else) on the same reports in the same rounds.
#
#   bench/pad-power.sh                      (release build in .build-power)
#   TILTD_BIN=… bench/pad-power.sh          (a prebuilt tiltd or tiltd-run)
#   MOVING=10 STILL=20 ROUNDS=3 RATE=250 bench/pad-power.sh
#
# The device: Tests/Fixtures' DualShock 4 (ds4-motion.umockdev and .ioctl)
# playing an evemu file written here with Tests/Fixtures/make-pads.py's
# events_file: RATE reports a second (a DualShock 4 over USB sends 250),
# rolling ±0.3 rad for MOVING seconds, then held still (MSC_TIMESTAMP and
# SYN_REPORT only, as the kernel sends for axes that did not change).
# tiltd runs `run --device /dev/input/event5 --listen unix:…` with one
# socket client, measured by bench/power_run.py. umockdev's evemu player
# writes each event on its own, so under it a reader wakes once per event,
# where the kernel's evdev wakes it once per SYN_REPORT: the wake-up counts
# here are umockdev's, the CPU ratio to the peer is what compares.
# Not run in CI; medians of ROUNDS rounds, tiltd and the peer taking turns.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
F="$root/Tests/Fixtures"
moving="${MOVING:-10}"
still="${STILL:-20}"
rounds="${ROUNDS:-1}"
rate="${RATE:-250}"
for tool in umockdev-run cc python3; do
    command -v "$tool" > /dev/null || { echo "pad-power.sh: $tool is missing: run scripts/setup.sh bench" >&2; exit 1; }
done
if [[ -n "${TILTD_BIN:-}" ]]; then bin="$TILTD_BIN"; else
    # Benchmarks build release in their own scratch directory (never in CI).
    swift build -c release --package-path "$root" --scratch-path "$root/.build-power" --product tiltd-run >&2
    bin="$root/.build-power/release/tiltd-run"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -Wall "$root/bench/evdev_peer.c" -o "$work/evdev_peer"

python3 - "$F/make-pads.py" "$work/pad.events" "$moving" "$still" "$rate" <<'PY'
import importlib.util, sys
maker, path, moving, still, rate = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
spec = importlib.util.spec_from_file_location("make_pads", maker)
pads = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pads)
# Rolling ±0.3 rad, a swing every 0.5 s, then held.
keys = [(0.5 * i, 0.3 if i % 2 else -0.3, 0.1) for i in range(int(moving * 2) + 1)]
keys.append((moving + still, keys[-1][1], keys[-1][2]))
period_us = round(1e6 / rate)
open(path, "w").write(pads.events_file(keys, period_us, moving + still, 8192, 1024, 123_456))
PY
reports=$(grep -c ' 0000 0000 0$' "$work/pad.events")
pad=(--device "$F/ds4-motion.umockdev" --ioctl "/dev/input/event5=$F/ds4-motion.ioctl"
     --evemu-events "/dev/input/event5=$work/pad.events")

for round in $(seq "$rounds"); do
    rm -f "$work/run.sock"
    python3 "$root/bench/power_run.py" "$work/run.sock" "$moving" "$still" "$rate" -- \
        umockdev-run "${pad[@]}" -- "$bin" run --device /dev/input/event5 --count "$reports" \
        --listen "unix:$work/run.sock" >> "$work/tiltd.json"
    echo "round $round, tiltd: $(tail -1 "$work/tiltd.json")" >&2
    umockdev-run "${pad[@]}" -- "$work/evdev_peer" /dev/input/event5 "$reports" >> "$work/peer.json"
    echo "round $round, evdev_peer: $(tail -1 "$work/peer.json")" >&2
done

python3 "$root/bench/power_table.py" "$work" \
    "evdev_peer ($reports reports, moving and still, start-up included)" report device "pad=tiltd"
