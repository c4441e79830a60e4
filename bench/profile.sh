#!/usr/bin/env bash
# Where `tiltd run`'s CPU per sample goes, beside libiio's iio_readdev on the
# same device and scans: a perf profile (software event cpu-clock, which works
# in VMs without hardware counters) of the run bench/goals.sh's `cpu` goal
# measures (Tests/Fixtures/buffered.umockdev + bench-200hz.script: 4000 scans
# at 200 Hz; `run --mode buffer --rate 200`, gate on, one Unix-socket client),
# broken down by bench/profile_groups.py into phases, groups (umockdev shim,
# libiio, kernel, Swift runtime, Foundation, SwiftNIO, tiltd's pipeline …),
# stages and top symbols, self and inclusive.
#
#   bench/profile.sh                 # tiltd and iio_readdev, top 15 symbols
#   TOP=30 FREQ=2000 bench/profile.sh
#   KEEP=/tmp/prof bench/profile.sh  # keep the perf.data files
#   TILTD_BIN=.build-release/release/tiltd bench/profile.sh  # a prebuilt binary
#
# Release build; never part of CI. perf's sampling interrupts add their own
# cost (at FREQ=4000, about one sample every 250 µs of CPU), so its totals are
# somewhat above /usr/bin/time's (bench/capture.sh, bench/goals.sh cpu):
# compare shares and the difference between the two processes, not absolute
# figures. Callgrind (instruction counts) does not work on this run: valgrind
# 3.19 gives up on the DWARF 5 units clang emits for the package's C targets
# ("unhandled dwarf2 abbrev form code 0x25"), and on a copy stripped of debug
# info (objcopy --strip-debug) it runs `tiltd --help` but dies with an
# internal SIGSEGV in the threaded run under umockdev.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
SAMPLES=${SAMPLES:-4000}
FREQ=${FREQ:-4000}
TOP=${TOP:-15}
for tool in /usr/bin/umockdev-run /usr/bin/iio_readdev /usr/bin/perf; do
    [[ -x $tool ]] || { echo "profile.sh: $tool is missing: run scripts/setup.sh bench (linux-perf)" >&2; exit 1; }
done
if [[ -n "${TILTD_BIN:-}" ]]; then bin="$TILTD_BIN"; else  # a release binary built elsewhere
    echo "building release..." >&2
    # Both executables: `tiltd run` execs tiltd-run when it sits beside tiltd.
    swift build -c release --product tiltd >&2
    swift build -c release --product tiltd-run >&2
    bin="$(swift build -c release --show-bin-path)/tiltd"
fi
F="$root/Tests/Fixtures"
work="${KEEP:-$(mktemp -d /tmp/tiltd-profile.XXXXXX)}"
mkdir -p "$work"
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$work"' EXIT
device=(--device "$F/buffered.umockdev" -s "/dev/iio:device0=$F/bench-200hz.script")
run=(run --mode buffer --rate 200 --count "$SAMPLES" --listen "unix:$work/run.sock")
peer=(/usr/bin/iio_readdev -b 1 -s "$SAMPLES" -T 5000 iio:device0 accel_x accel_y accel_z timestamp)

echo "load before: $(uptime)"
perf record -q -e cpu-clock -F "$FREQ" -g -o "$work/tiltd.data" -- true 2>/dev/null \
    || { echo "profile.sh: perf record fails here (perf_event_paranoid?)" >&2; exit 1; }
# perf wraps umockdev-run (perf itself must not run under umockdev's preload,
# which hides the real /sys); profile_groups.py keeps the measured process.
rm -f "$work/run.sock"
perf record -q -e cpu-clock -F "$FREQ" -g -o "$work/tiltd.data" -- \
    umockdev-run "${device[@]}" -- "$bin" "${run[@]}" > "$work/tiltd.out" 2> "$work/tiltd.err" &
runner=$!
python3 bench/socket_client.py "$work/run.sock" 600
wait "$runner" || { cat "$work/tiltd.err" >&2; exit 1; }
echo "tiltd run: $(wc -l < "$work/tiltd.out") states on stdout"
perf record -q -e cpu-clock -F "$FREQ" -g -o "$work/peer.data" -- \
    umockdev-run "${device[@]}" -- "${peer[@]}" > /dev/null 2> "$work/peer.err"
echo "load after: $(uptime)"

for name in tiltd peer; do
    # `tiltd run` execs tiltd-run: perf names its samples after that image.
    process=tiltd-run; [[ $name == peer ]] && process=iio_readdev
    echo
    echo "=== $process (perf cpu-clock, $FREQ Hz sampling) ==="
    perf script -i "$work/$name.data" -F comm,pid,tid,time,period,ip,sym,dso 2>/dev/null \
        | python3 bench/profile_groups.py "$process" "$SAMPLES" "$TOP"
done
