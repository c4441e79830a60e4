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
#   bench/cpu_parts.sh                      # the release build, 3 rounds
#   ROUNDS=5 bench/cpu_parts.sh OLD NEW     # two builds alternating (A/B)
#
# Medians of ROUNDS alternating rounds; never part of CI. /usr/bin/time counts
# in 10 ms ticks: 2.5 µs per sample of 4000.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binaries=("$@")
[[ ${#binaries[@]} -gt 0 ]] || binaries=("$root/.build/release/tiltd")
rounds=${ROUNDS:-3}
F="$root/Tests/Fixtures"
samples=4000
work="$(mktemp -d /tmp/tiltd-cpu-parts.XXXXXX)"
trap 'rm -rf "$work"' EXIT
device=(--device "$F/buffered.umockdev" -s "/dev/iio:device0=$F/bench-200hz.script")
# measure BINARY NAME COUNT STDOUT [--listen]: one run; appends CPU µs per
# sample of the 4000 (whatever COUNT is, so that parts add up) to $work/NAME.
measure() {
    local bin=$1 name=$2 count=$3 out=$4 listen=()
    [[ ${5:-} == --listen ]] && listen=(--listen "unix:$work/run.sock")
    rm -f "$work/run.sock"
    umockdev-run "${device[@]}" -- /usr/bin/time -f "%U %S" -o "$work/time" \
        "$bin" run --mode buffer --rate 200 --count "$count" "${listen[@]}" > "$out" 2> "$work/err" &
    local runner=$!
    [[ ${#listen[@]} -gt 0 ]] && python3 "$root/bench/socket_client.py" "$work/run.sock"
    wait "$runner" || { cat "$work/err" >&2; exit 1; }
    awk -v n=$samples '{ printf "%.1f\n", ($1 + $2) * 1e6 / n }' "$work/time" >> "$work/$name"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    for index in "${!binaries[@]}"; do
        b=${binaries[$index]} tag=""
        [[ ${#binaries[@]} -gt 1 ]] && tag="#$((index + 1))"
        measure "$b" "start-up$tag" 1 /dev/null
        measure "$b" "null$tag" "$samples" /dev/null
        measure "$b" "pipe$tag" "$samples" >(cat > /dev/null)
        measure "$b" "listen$tag" "$samples" /dev/null --listen
        measure "$b" "listen+pipe$tag" "$samples" >(cat > /dev/null) --listen
    done
    umockdev-run "${device[@]}" -- /usr/bin/time -f "%U %S" -o "$work/time" /usr/bin/iio_readdev -b 1 \
        -s "$samples" -T 5000 iio:device0 accel_x accel_y accel_z timestamp > /dev/null 2> "$work/err"
    awk -v n=$samples '{ printf "%.1f\n", ($1 + $2) * 1e6 / n }' "$work/time" >> "$work/iio_readdev"
    echo -n "round $round/$rounds (load $(cut -d' ' -f1 /proc/loadavg)):"
    for file in "$work"/*; do
        if [[ -f $file && ${file##*/} != time && ${file##*/} != err ]]; then echo -n " ${file##*/} $(tail -1 "$file")"; fi
    done
    echo
done
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
peer=$(median "$work/iio_readdev")
[[ ${#binaries[@]} -gt 1 ]] && for index in "${!binaries[@]}"; do echo "#$((index + 1)) = ${binaries[$index]}"; done
for file in "$work"/*; do
    name=${file##*/}
    [[ -f $file && $name != time && $name != err ]] || continue
    m=$(median "$file")
    printf "median %-14s %7.1f µs per sample of %d  %.2f× iio_readdev\n" "$name" "$m" "$samples" \
        "$(echo "$m / $peer" | bc -l)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
