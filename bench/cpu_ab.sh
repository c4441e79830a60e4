#!/usr/bin/env bash
# CPU per sample of two tiltd binaries and iio_readdev, alternating, on the
# run bench/goals.sh's `cpu` goal measures (buffered umockdev device at
# 200 Hz, 4000 scans, gate on, --listen with one socket client, stdout to
# /dev/null), plus the same runs with stdout to a pipe (every state written):
#
#   bench/cpu_ab.sh OLD_TILTD NEW_TILTD [ROUNDS]
#
# Prints each round and the medians; ratios are to iio_readdev in the same
# rounds. Never part of CI.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
old=$1 new=$2 rounds=${3:-3}
F="$root/Tests/Fixtures"
samples=4000
work="$(mktemp -d /tmp/tiltd-cpu-ab.XXXXXX)"
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
# µs of CPU per sample from a /usr/bin/time "%U %S" file.
per_sample() { awk -v n=$samples '{ printf "%.1f\n", ($1 + $2) * 1e6 / n }' "$1"; }
# tiltd_cpu NAME BINARY STDOUT: one run with one socket client.
tiltd_cpu() {
    rm -f "$work/run.sock"
    umockdev-run "${device[@]}" -- /usr/bin/time -f "%U %S" -o "$work/time" \
        "$2" run --mode buffer --rate 200 --count "$samples" --listen "unix:$work/run.sock" \
        > "$3" 2> "$work/err" &
    local runner=$!
    python3 "$work/client.py" "$work/run.sock"
    wait "$runner" || { cat "$work/err" >&2; exit 1; }
    per_sample "$work/time" >> "$work/$1"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    tiltd_cpu old.null "$old" /dev/null
    tiltd_cpu new.null "$new" /dev/null
    tiltd_cpu old.pipe "$old" >(cat > /dev/null)
    tiltd_cpu new.pipe "$new" >(cat > /dev/null)
    umockdev-run "${device[@]}" -- /usr/bin/time -f "%U %S" -o "$work/time" /usr/bin/iio_readdev -b 1 \
        -s "$samples" -T 5000 iio:device0 accel_x accel_y accel_z timestamp > /dev/null 2> "$work/err"
    per_sample "$work/time" >> "$work/peer"
    echo "round $round/$rounds (load $(cut -d' ' -f1 /proc/loadavg)): old $(tail -1 "$work/old.null") / new" \
        "$(tail -1 "$work/new.null") µs (stdout /dev/null), old $(tail -1 "$work/old.pipe") / new" \
        "$(tail -1 "$work/new.pipe") µs (stdout a pipe), iio_readdev $(tail -1 "$work/peer") µs"
done
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
peer=$(median "$work/peer")
for name in old.null new.null old.pipe new.pipe; do
    m=$(median "$work/$name")
    printf "median %-9s %7.1f µs/sample  %.2f× iio_readdev (%s µs)\n" "$name" "$m" \
        "$(echo "$m / $peer" | bc -l)" "$peer"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
