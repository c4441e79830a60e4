#!/usr/bin/env bash
# Socket latency and still-device CPU benchmark for tiltd (issue #5).
#
#   bench/latency.sh [SECONDS]        (default 10 s per measurement)
#
# 1. Latency at 200 Hz: `tiltd run --mode poll --rate 200 --no-gate --listen`
#    on a umockdev polled accelerometer. In polled mode a state's "t" is the
#    CLOCK_MONOTONIC time its attributes were read (the sample entering the
#    pipeline); bench/latency_client.py subtracts it from CLOCK_MONOTONIC when
#    the line arrives on the Unix socket: pipeline + broadcaster thread +
#    kernel + the Python client's wake-up. Prints p50/p90/p99/max.
#    The same for the DSU server (--dsu): sample → DSU packet, from the
#    packet's motion timestamp (bench/dsu_latency_client.py).
# 2. CPU at 100 Hz with the device still (constant readings, the change gate
#    closed): `tiltd run --listen` with one connected client, utime+stime of
#    the tiltd process from /proc over SECONDS, as a percentage of one core;
#    buffered (a umockdev script of still scans) and polled, and polled
#    without the socket for comparison; then every sample sent, the socket
#    with --no-gate against --dsu (one client each). umockdev's LD_PRELOAD shim sits under
#    every sysfs read and device read, so these are upper bounds for real
#    hardware; polling costs three attribute reads per sample.
#
# Release build; run it on an otherwise idle machine (medians of a few runs
# are steadier than one run).
#
#   bench/latency.sh [SECONDS] --against COMMIT [--rounds N]
#   TILTD_BIN=… BASE_BIN=… bench/latency.sh 10 --against COMMIT   (prebuilt)
#
# compares with a release build of COMMIT (e.g. HEAD~1) made in a temporary
# directory from `git archive`: the two builds take turns, N rounds each
# (default 3), so both see the same machine; compare within a round.
#
#   bench/latency.sh 20 --dsu-cpu [--rate HZ] [--rounds N] [--pin CPU]
#
# measures only the CPU of every sample sent, the socket (--no-gate) and
# the DSU server taking turns, at HZ (default 100), one client each (issue
# 24: DSU ≤ 1.2× the socket), and ends with each round's ratio and their
# median. --pin runs tiltd and the client on one CPU, so neither run pays
# for waking the other across CPUs more often than the other does (on a
# virtual machine such wake-ups cost more than a send).
#
#   bench/latency.sh 20 --dsu-cpu --rate 200 --rounds 8 --floor
#
# also runs bench/loopback_floor.c each round (under umockdev-run, as tiltd
# is): a C program that does nothing but wake at HZ and send 100 bytes over
# a Unix stream, then over connected loopback UDP, to a receiver waiting in
# poll() on the other CPU. Its UDP / Unix CPU per tick is the lowest ratio
# any DSU server could show against a socket in this measurement; the
# summary gives its median beside tiltd's.
#
# CPU is the sum over the process's threads of their own differences in /proc/PID/task/*/schedstat
# (nanoseconds on a CPU), from 1 s after start for SECONDS.
set -euo pipefail

seconds=10
against=""
rounds=1
dsu_cpu=""
rate=100
pin=()
floor=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --against) against="${2:?--against needs a commit}"; rounds=3; shift 2 ;;
        --rounds) rounds="${2:?--rounds needs a number}"; shift 2 ;;
        --dsu-cpu) dsu_cpu=1; shift ;;
        --rate) rate="${2:?--rate needs a number of Hz}"; shift 2 ;;
        --pin) pin=(taskset -c "${2:?--pin needs a CPU number}"); shift 2 ;;
        --floor) floor=1; shift ;;
        [0-9]*) seconds="$1"; shift ;;
        *) echo "latency.sh: unknown argument $1; usage: latency.sh [SECONDS] [--against COMMIT] [--rounds N] [--dsu-cpu [--rate HZ] [--pin CPU] [--floor]]" >&2
           exit 2 ;;
    esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# TILTD_BIN / BASE_BIN: use release binaries built elsewhere (e.g. with
# --scratch-path) instead of building here.
if [[ -n "${TILTD_BIN:-}" ]]; then bin="$TILTD_BIN"; else
    # Both executables: `tiltd run` execs tiltd-run when it sits beside tiltd.
    swift build -c release --product tiltd >&2
    swift build -c release --product tiltd-run >&2
    bin="$root/.build/release/tiltd"
fi
builds=("$bin")
labels=("this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ', modified'))")
if [[ -n "$against" ]]; then
    commit="$(git rev-parse --short "$against")"
    base="/tmp/tiltd-bench-base-$commit"
    if [[ -n "${BASE_BIN:-}" ]]; then
        mkdir -p "$base/.build/release" && ln -sf "$BASE_BIN" "$base/.build/release/tiltd"
    fi
    if [[ ! -x "$base/.build/release/tiltd" ]]; then
        rm -rf "$base" && mkdir -p "$base/.build"
        git archive "$commit" | tar -x -C "$base"
        # The same resolved packages, without fetching them again.
        [[ -f Package.resolved ]] && cp Package.resolved "$base/"
        cp -a .build/repositories .build/checkouts "$base/.build/" 2>/dev/null || true
        # tiltd-run fails to build in commits from before it existed: then `run` runs in tiltd.
        (cd "$base" && swift build -c release --product tiltd >&2 && { swift build -c release --product tiltd-run >&2 || true; })
    fi
    builds+=("$base/.build/release/tiltd")
    labels+=("commit $commit")
fi
work="$(mktemp -d /tmp/tiltd-bench.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# bench/still-accel.umockdev: a still accelerometer lying face up (1 g on z
# with scale 0.0383203 m/s² per count), polled: no /dev node, so every
# sample is an attribute read.

wait_for_socket() {
    for _ in $(seq 1 300); do
        [[ -S "$1" ]] && return 0
        sleep 0.05
    done
    echo "latency.sh: socket $1 never appeared; see $work/*.err" >&2
    cat "$work"/*.err >&2 || true
    exit 1
}

# The tiltd process under umockdev-run (its child).
child_of() {
    for _ in $(seq 1 100); do
        local child
        child="$(pgrep -P "$1" | head -1 || true)"
        [[ -n "$child" ]] && { echo "$child"; return 0; }
        sleep 0.05
    done
    echo "$1"
}

measure_latency() {
    echo "== latency, 200 Hz, every sample a state (--no-gate), ${seconds} s"
    rm -f "$work/latency.sock"
    umockdev-run --device "$root/bench/still-accel.umockdev" -- \
        "$bin" run --mode poll --rate 200 --no-gate --listen "unix:$work/latency.sock" \
        >/dev/null 2>"$work/latency.err" &
    pids+=($!)
    wait_for_socket "$work/latency.sock"
    python3 "$root/bench/latency_client.py" "$work/latency.sock" --seconds "$seconds"
    kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true
}

# The same with the DSU server: sample → DSU packet (bench/dsu_latency_client.py).
measure_dsu_latency() {
    echo "== DSU latency, 200 Hz, every sample a packet, ${seconds} s"
    umockdev-run --device "$root/bench/still-accel.umockdev" -- \
        "$bin" run --mode poll --rate 200 --dsu 127.0.0.1:26799 >/dev/null 2>"$work/dsu.err" &
    pids+=($!)
    python3 "$root/bench/dsu_latency_client.py" 26799 --seconds "$seconds"
    kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true
}

# CPU of the tiltd process over SECONDS (utime + stime from /proc), with a
# client connected to SOCKET (or none: "-").
measure_cpu() {
    "${pin[@]}" python3 - "$1" "$seconds" "$2" "$work/per-sample-us" <<'PY'
import glob, os, socket, sys, time
path, seconds, pid, record = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
client = None
dsu = None
if path.startswith("udp:"):
    # A DSU client (docs/dsu.md): a data request every second, packets counted.
    import struct, zlib
    dsu = ("127.0.0.1", int(path[4:]))
    client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    client.settimeout(0.2)
    packet = b"DSUC" + struct.pack("<HHIII", 1001, 12, 0, 4242, 0x100002) + bytes(8)
    subscribe = packet[:8] + struct.pack("<I", zlib.crc32(packet) & 0xFFFFFFFF) + packet[12:]
    renewed = 0.0
elif path != "-":
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(path)
    client.settimeout(0.2)
def cpu_times():
    # Each thread's time on a CPU (ns, not /proc/PID/stat's 10 ms ticks).
    times = {}
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            times[path] = int(open(path).read().split()[0])
        except (OSError, ValueError):
            pass  # a thread that just ended
    return times
def cpu_seconds_since(before):
    # Thread by thread: a thread that ended in the window (a start-up one)
    # must not take its whole time out of the total.
    return sum(ns - before.get(path, 0) for path, ns in cpu_times().items()) / 1e9
time.sleep(1.0)  # past start-up
if client is not None and not dsu:
    # Lines queued during start-up are not this window's samples.
    client.setblocking(False)
    try:
        while client.recv(65536):
            pass
    except BlockingIOError:
        pass
    client.settimeout(0.2)
start_cpu, start = cpu_times(), time.monotonic()
lines = 0
while time.monotonic() - start < seconds:
    if client is None:
        time.sleep(0.2)
        continue
    if dsu and time.monotonic() - renewed >= 1.0:
        client.sendto(subscribe, dsu)
        renewed = time.monotonic()
    try:
        data = client.recv(65536)
        lines += 1 if dsu else data.count(b"\n")
    except socket.timeout:
        pass
used, wall = cpu_seconds_since(start_cpu), time.monotonic() - start
per_sample = "" if not lines else "; %.1f µs per %s" % (1e6 * used / lines, "packet" if dsu else "line")
print("  %.3f s CPU in %.1f s = %.2f%% of one core%s%s"
      % (used, wall, 100 * used / wall, "" if client is None else "; %d %s received" % (lines, "DSU packet(s)" if dsu else "state line(s)"),
         per_sample))
if lines:
    open(record, "w").write("%.3f\n" % (1e6 * used / lines))
PY
}

# cpu_run LABEL SOCKET|- umockdev-run-arguments... -- tiltd-arguments...
cpu_run() {
    local label="$1" sock="$2"; shift 2
    echo "-- $label"
    "${pin[@]}" umockdev-run "$@" >/dev/null 2>"$work/cpu.err" &
    local runner=$!
    pids+=($runner)
    if [[ "$sock" != "-" && "$sock" != udp:* ]]; then wait_for_socket "$sock"; else sleep 0.5; fi
    measure_cpu "$sock" "$(child_of "$runner")"
    kill "$(child_of "$runner")" 2>/dev/null || true
    wait "$runner" 2>/dev/null || true
}

# A buffered device whose scans say "still, face up" at 100 Hz for the
# whole measurement (SPEC §6 script format: 24-byte scans, bytes below 0x20
# ^-escaped, ^ as ^`, the space 0x20 verbatim).
python3 - "$work/still-100hz.script" "$seconds" <<'PY'
import struct, sys
path, seconds = sys.argv[1], float(sys.argv[2])
def escape(data):
    return "".join("^" + chr(b + 64) if b < 0x20 else "^`" if b == ord("^") else chr(b) for b in data)
t0 = 1_000_000_000_000
lines = ["r 10 " + escape(struct.pack("<iiiiq", 0, 0, 256, 0, t0 + i * 10_000_000))
         for i in range(int(100 * (seconds + 5)))]
open(path, "w", encoding="latin-1", newline="\n").write("\n".join(lines) + "\n")
PY

measure_cpu_all() {
    echo "== CPU, 100 Hz, still device (gate closed), ${seconds} s"
    rm -f "$work"/cpu-*.sock
    cpu_run "buffered, --listen, one client" "$work/cpu-b.sock" \
        --device "$root/Tests/Fixtures/buffered.umockdev" -s "/dev/iio:device0=$work/still-100hz.script" -- \
        "$bin" run --mode buffer --listen "unix:$work/cpu-b.sock"
    cpu_run "polled, --listen, one client" "$work/cpu-p.sock" \
        --device "$root/bench/still-accel.umockdev" -- "$bin" run --mode poll --rate 100 --listen "unix:$work/cpu-p.sock"
    cpu_run "polled, stdout only (no socket), for comparison" - \
        --device "$root/bench/still-accel.umockdev" -- "$bin" run --mode poll --rate 100
    measure_every_sample_cpu
}

# Every sample sent: the socket with --no-gate (a line per sample) against
# the DSU server (a packet per sample), one client each (issue 24: ≤ 1.2×).
measure_every_sample_cpu() {
    rm -f "$work"/cpu-n.sock
    cpu_run "polled, $rate Hz, --no-gate --listen, one client (a line per sample)" "$work/cpu-n.sock" \
        --device "$root/bench/still-accel.umockdev" -- "$bin" run --mode poll --rate "$rate" --no-gate --listen "unix:$work/cpu-n.sock"
    local socket_us
    socket_us="$(cat "$work/per-sample-us")"
    cpu_run "polled, $rate Hz, --dsu, one client (a packet per sample)" udp:26798 \
        --device "$root/bench/still-accel.umockdev" -- "$bin" run --mode poll --rate "$rate" --dsu 26798
    local ratio
    ratio="$(python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) / float(sys.argv[1])))' \
        "$socket_us" "$(cat "$work/per-sample-us")")"
    echo "  DSU / socket CPU per sample: $ratio"
    printf '%s\t%s\n' "$bin" "$ratio" >> "$work/ratios"
    if [[ -n "$floor" ]]; then
        echo "-- the floor: bench/loopback_floor.c, $((seconds * rate)) sends at $rate Hz"
        umockdev-run --device "$root/bench/still-accel.umockdev" -- "$work/loopback_floor" "$((seconds * rate))" "$rate" \
            | tee "$work/floor.out" | sed 's/^/  /'
        printf '%s\t%s\n' "the floor (bench/loopback_floor.c)" \
            "$(sed -n 's/.*per tick (receiver in poll): //p' "$work/floor.out")" >> "$work/ratios"
    fi
}

if [[ -n "$floor" ]]; then
    cc -O2 -pthread "$root/bench/loopback_floor.c" -o "$work/loopback_floor"
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
    for i in "${!builds[@]}"; do
        bin="${builds[$i]}"
        echo "#### round $round/$rounds: ${labels[$i]}"
        if [[ -n "$dsu_cpu" ]]; then measure_every_sample_cpu; continue; fi
        measure_latency
        measure_dsu_latency
        measure_cpu_all
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -s "$work/ratios" ]]; then
    python3 - "$work/ratios" <<'PY'
import statistics, sys
by_build = {}
for line in open(sys.argv[1]):
    build, ratio = line.rstrip("\n").split("\t")
    by_build.setdefault(build, []).append(float(ratio))
for build, ratios in by_build.items():
    print("DSU / socket CPU per sample, %s, by round: %s; median %.2f (issue 24: ≤ 1.2)"
          % (build, " ".join("%.2f" % r for r in ratios), statistics.median(ratios)))
PY
fi
