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
#   CALLGRIND=1 bench/profile.sh     # also instruction counts (valgrind)
#   KEEP=/tmp/prof bench/profile.sh  # keep perf.data files and callgrind output
#
# Release build; never part of CI. perf's sampling interrupts add their own
# cost (at FREQ=4000, about one sample every 250 µs of CPU), so its totals are
# somewhat above /usr/bin/time's (bench/capture.sh, bench/goals.sh cpu):
# compare shares and the difference between the two processes, not absolute
# figures. Callgrind counts instructions, which a loaded machine does not move,
# but not time spent waiting in the kernel.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
SAMPLES=${SAMPLES:-4000}
FREQ=${FREQ:-4000}
TOP=${TOP:-15}
CALLGRIND=${CALLGRIND:-0}
for tool in /usr/bin/umockdev-run /usr/bin/iio_readdev /usr/bin/perf; do
    [[ -x $tool ]] || { echo "profile.sh: $tool is missing: run scripts/setup.sh bench (linux-perf)" >&2; exit 1; }
done
if [[ $CALLGRIND == 1 && ! -x /usr/bin/valgrind ]]; then
    echo "profile.sh: valgrind is missing: apt-get install valgrind" >&2; exit 1
fi
echo "building release..." >&2
swift build -c release --product tiltd >&2
bin="$(swift build -c release --show-bin-path)/tiltd"
F="$root/Tests/Fixtures"
work="${KEEP:-$(mktemp -d /tmp/tiltd-profile.XXXXXX)}"
mkdir -p "$work"
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$work"' EXIT
device=(--device "$F/buffered.umockdev" -s "/dev/iio:device0=$F/bench-200hz.script")
run=(run --mode buffer --rate 200 --count "$SAMPLES" --listen "unix:$work/run.sock")
peer=(/usr/bin/iio_readdev -b 1 -s "$SAMPLES" -T 5000 iio:device0 accel_x accel_y accel_z timestamp)

# A socket client reading until EOF (goals.sh's): waits to a deadline for the socket.
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

# tiltd WRAPPER…: runs `tiltd run` under umockdev with one socket client.
tiltd_run() {
    rm -f "$work/run.sock"
    umockdev-run "${device[@]}" -- "$@" "$bin" "${run[@]}" > "$work/tiltd.out" 2> "$work/tiltd.err" &
    local runner=$!
    python3 "$work/client.py" "$work/run.sock"
    wait "$runner" || { cat "$work/tiltd.err" >&2; exit 1; }
}

echo "load before: $(uptime)"
perf record -q -e cpu-clock -F "$FREQ" -g -o "$work/tiltd.data" -- true 2>/dev/null \
    || { echo "profile.sh: perf record fails here (perf_event_paranoid?)" >&2; exit 1; }
# perf wraps umockdev-run (perf itself must not run under umockdev's preload,
# which hides the real /sys); profile_groups.py keeps the measured process.
rm -f "$work/run.sock"
perf record -q -e cpu-clock -F "$FREQ" -g -o "$work/tiltd.data" -- \
    umockdev-run "${device[@]}" -- "$bin" "${run[@]}" > "$work/tiltd.out" 2> "$work/tiltd.err" &
runner=$!
python3 "$work/client.py" "$work/run.sock"
wait "$runner" || { cat "$work/tiltd.err" >&2; exit 1; }
echo "tiltd run: $(wc -l < "$work/tiltd.out") states on stdout"
perf record -q -e cpu-clock -F "$FREQ" -g -o "$work/peer.data" -- \
    umockdev-run "${device[@]}" -- "${peer[@]}" > /dev/null 2> "$work/peer.err"
echo "load after: $(uptime)"

for name in tiltd peer; do
    process=tiltd; [[ $name == peer ]] && process=iio_readdev
    echo
    echo "=== $process (perf cpu-clock, $FREQ Hz sampling) ==="
    perf script -i "$work/$name.data" -F comm,pid,tid,time,period,ip,sym,dso 2>/dev/null \
        | python3 bench/profile_groups.py "$process" "$SAMPLES" "$TOP"
done

if [[ $CALLGRIND == 1 ]]; then
    # Instructions, not time: valgrind runs tiltd some 50× slower, so the
    # device's scans queue up and one refill may return several; the count
    # per sample is still the work done.
    echo
    echo "=== callgrind: instructions per sample ==="
    tiltd_run valgrind -q --tool=callgrind --callgrind-out-file="$work/tiltd.callgrind" --separate-threads=no
    umockdev-run "${device[@]}" -- valgrind -q --tool=callgrind --callgrind-out-file="$work/peer.callgrind" \
        "${peer[@]}" > /dev/null 2> "$work/peer.err"
    for name in tiltd peer; do
        total=$(callgrind_annotate "$work/$name.callgrind" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
        echo "$name: $total instructions, $(( total / SAMPLES )) per sample"
        callgrind_annotate --inclusive=yes "$work/$name.callgrind" 2>/dev/null \
            | sed -n '/file:function/,$p' | head -n $((TOP + 2))
    done
fi
