#!/usr/bin/env bash
# What each part of `tiltd run` adds to the CPU per sample, by /usr/bin/time
# on variants of the run bench/goals.sh's `cpu` goal measures (buffered
# umockdev device at 200 Hz, 4000 scans, gate on), each beside libiio's
# iio_readdev in the same round:
#
#   start-up     `tiltd run --count 1`: loading, runtime, device discovery
#   null         stdout /dev/null, no socket (the sink skips /dev/null)
#   pipe         stdout a pipe: every state encoded and written
#   listen       stdout /dev/null, --listen with one client (the goal's run)
#   listen+pipe  both
#
#   bench/cpu_parts.sh [TILTD] [ROUNDS]     # release build by default, 3 rounds
#
# Medians of ROUNDS alternating rounds; never part of CI.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin=${1:-$root/.build/release/tiltd}
rounds=${2:-3}
F="$root/Tests/Fixtures"
samples=4000
work="$(mktemp -d /tmp/tiltd-cpu-parts.XXXXXX)"
trap 'rm -rf "$work"' EXIT
device=(--device "$F/buffered.umockdev" -s "/dev/iio:device0=$F/bench-200hz.script")
cat > "$work/client.py" <<'PY'
import os, socket, sys, time
path, deadline = sys.argv[1], time.monotonic() + 60
while not os.path.exists(path):
    if time.monotonic() > deadline:
        sys.exit(f"client.py: {path} never appeared")
    time.sleep(0.01)
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
client.connect(path)
while client.recv(65536):
    pass
PY
# measure NAME COUNT STDOUT [--listen]: one run; appends CPU µs per sample of
# the 4000 (whatever COUNT is, so that parts add up) to $work/NAME.
measure() {
    local name=$1 count=$2 out=$3 listen=()
    [[ ${4:-} == --listen ]] && listen=(--listen "unix:$work/run.sock")
    rm -f "$work/run.sock"
    umockdev-run "${device[@]}" -- /usr/bin/time -f "%U %S" -o "$work/time" \
        "$bin" run --mode buffer --rate 200 --count "$count" "${listen[@]}" > "$out" 2> "$work/err" &
    local runner=$!
    [[ ${#listen[@]} -gt 0 ]] && python3 "$work/client.py" "$work/run.sock"
    wait "$runner" || { cat "$work/err" >&2; exit 1; }
    awk -v n=$samples '{ printf "%.1f\n", ($1 + $2) * 1e6 / n }' "$work/time" >> "$work/$name"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    measure start-up 1 /dev/null
    measure null "$samples" /dev/null
    measure pipe "$samples" >(cat > /dev/null)
    measure listen "$samples" /dev/null --listen
    measure listen+pipe "$samples" >(cat > /dev/null) --listen
    umockdev-run "${device[@]}" -- /usr/bin/time -f "%U %S" -o "$work/time" /usr/bin/iio_readdev -b 1 \
        -s "$samples" -T 5000 iio:device0 accel_x accel_y accel_z timestamp > /dev/null 2> "$work/err"
    awk -v n=$samples '{ printf "%.1f\n", ($1 + $2) * 1e6 / n }' "$work/time" >> "$work/iio_readdev"
    echo -n "round $round/$rounds (load $(cut -d' ' -f1 /proc/loadavg)):"
    for name in start-up null pipe listen listen+pipe iio_readdev; do echo -n " $name $(tail -1 "$work/$name")"; done
    echo
done
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
peer=$(median "$work/iio_readdev")
for name in start-up null pipe listen listen+pipe iio_readdev; do
    m=$(median "$work/$name")
    printf "median %-12s %7.1f µs per sample of %d  %.2f× iio_readdev\n" "$name" "$m" "$samples" \
        "$(echo "$m / $peer" | bc -l)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
