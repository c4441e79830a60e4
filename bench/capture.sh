#!/usr/bin/env bash
# Capture cost: CPU time per sample and peak resident memory of tiltd reading
# a buffered accelerometer at 200 Hz under umockdev (Tests/Fixtures/
# buffered.umockdev + bench-200hz.script: 4000 scans 5 ms apart, 20 s),
# beside a C peer in the same run: libiio's own iio_readdev reading the same
# scans through a one-scan buffer. Release build; median of RUNS runs (3).
#
#   bench/capture.sh            # prints a table
#   RUNS=5 bench/capture.sh
#
# CPU is user+system time of the measured process alone (/usr/bin/time runs
# inside umockdev-run, so umockdev's own script replay is not counted).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SAMPLES=4000
scripts/setup.sh test
if [[ ! -x /usr/bin/time || ! -x /usr/bin/bc ]]; then
    echo "capture.sh: installing time and bc" >&2
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends time bc >&2
fi
for tool in /usr/bin/umockdev-run /usr/bin/time /usr/bin/iio_readdev /usr/bin/bc; do
    [[ -x $tool ]] || { echo "capture.sh: $tool is missing: apt-get install umockdev libiio-utils time bc" >&2; exit 1; }
done
# Both executables: `tiltd run` execs tiltd-run when it sits beside tiltd.
swift build -c release --product tiltd >&2
swift build -c release --product tiltd-run >&2
TILTD=$(swift build -c release --show-bin-path)/tiltd
F=Tests/Fixtures
OUT=$(mktemp -d /tmp/tiltd-capture.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

# measure NAME COMMAND…: one run; appends "cpu_seconds max_rss_kib" to $OUT/NAME.
measure() {
    local name=$1; shift
    umockdev-run --device "$F/buffered.umockdev" -s "/dev/iio:device0=$F/bench-200hz.script" -- \
        /usr/bin/time -f "%U %S %M" -o "$OUT/$name.time" "$@" > "$OUT/$name.stdout" 2> "$OUT/$name.stderr"
    local lines
    lines=$(wc -l < "$OUT/$name.stdout")
    read -r user system rss < <(tail -n 1 "$OUT/$name.time")
    echo "$(echo "$user + $system" | bc -l) $rss $lines" >> "$OUT/$name"
}

for _ in $(seq "$RUNS"); do
    measure tiltd "$TILTD" run --mode buffer --rate 200 --count "$SAMPLES" --no-gate
    measure iio_readdev /usr/bin/iio_readdev -b 1 -s "$SAMPLES" -T 5000 iio:device0 \
        accel_x accel_y accel_z timestamp
done

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf "%-34s %14s %14s %12s\n" "capture, buffered 200 Hz, umockdev" "CPU µs/sample" "max RSS MiB" "output"
for name in tiltd iio_readdev; do
    cpu=$(cut -d' ' -f1 "$OUT/$name" | median)
    rss=$(cut -d' ' -f2 "$OUT/$name" | median)
    lines=$(cut -d' ' -f3 "$OUT/$name" | median)
    unit="lines"; [[ $name == iio_readdev ]] && unit="(binary)"
    printf "%-34s %14.1f %14.1f %12s\n" "$name" "$(echo "$cpu * 1000000 / $SAMPLES" | bc -l)" \
        "$(echo "$rss / 1024" | bc -l)" "$lines $unit"
done
t=$(cut -d' ' -f1 "$OUT/tiltd" | median); p=$(cut -d' ' -f1 "$OUT/iio_readdev" | median)
printf "tiltd / iio_readdev CPU ratio: %.2f (runs: %s, samples per run: %s)\n" \
    "$(echo "$t / $p" | bc -l)" "$RUNS" "$SAMPLES"
