#!/usr/bin/env bash
# Pipeline and end-to-end replay benchmarks, each beside its peers in the
# same invocation. Release builds; every process uses one core.
#
#   bench/pipeline.sh [samples] [rounds]    (defaults 3000000 and 7)
#
# 1. Per-sample pipeline: PipelineBench (Swift: robust filter, orientation
#    classifier, screen mapping, neutral pose, continuous roll/pitch, gate,
#    shines) and bench/pipeline_peer.c (plain C -O2, SPEC §8's reference,
#    which does fewer steps) run alternately, one run each per round, so both
#    see the same load; figures are medians over the rounds, and "Swift / C"
#    is the median of the per-round ratios. bench/pipeline_peer.py (numpy +
#    scipy, gate as a Python loop) runs 5 times on 1,000,000 samples.
# 2. End to end: a 1,000,000-line CSV (bench/out/motion-1m.csv, generated
#    once by bench/make_csv.py) replayed to JSON Lines on stdout
#    (> /dev/null): `tiltd replay` and bench/replay_peer.py (numpy loadtxt +
#    the same numpy pipeline + json.dumps per state) alternately, 3 rounds.
# On a shared machine absolute figures move with the load; compare ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
samples="${1:-3000000}"
rounds="${2:-7}"

echo "building release (root and bench/)..." >&2
swift build -c release --product tiltd >&2
swift build -c release --package-path bench --product PipelineBench >&2
mkdir -p bench/.build bench/out
# Any C compiler will do; Swift's toolchain ships clang if cc is missing.
compiler="${CC:-$(command -v cc || command -v clang)}"
"$compiler" -O2 -o bench/.build/pipeline_peer_c bench/pipeline_peer.c -lm

csv=bench/out/motion-1m.csv
if [[ ! -s "$csv" ]]; then
    echo "generating $csv..." >&2
    python3 bench/make_csv.py "$csv" 1000000
fi

python3 - "$samples" "$rounds" "$csv" <<'PY'
import statistics, subprocess, sys, time

samples, rounds, csv = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def results(cmd, cwd=None):
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True, cwd=cwd).stdout
    return {line.split()[1]: float(line.split()[2]) for line in out.splitlines() if line.startswith("RESULT")}

def wall(cmd, cwd=None):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, cwd=cwd)
    return time.perf_counter() - start

swift_keys = ["swift_pipeline", "swift_pipeline_jitter", "swift_pipeline_nogate", "swift_pipeline_auto",
              "swift_pipeline_fused", "swift_pipeline_fused_jitter"]
rates = {k: [] for k in swift_keys + ["c_pipeline"]}
ratios = {k: [] for k in swift_keys}
for r in range(rounds):
    c = results(["bench/.build/pipeline_peer_c", samples, "1"])["c_pipeline"]
    rates["c_pipeline"].append(c)
    for key in swift_keys:
        s = results(["bench/.build/release/PipelineBench", samples, "1", key])[key]
        rates[key].append(s)
        ratios[key].append(s / c)
    print(f"round {r + 1}/{rounds}: C {c / 1e6:.2f} M/s, Swift "
          + ", ".join(f"{rates[k][-1] / 1e6:.2f}" for k in swift_keys), file=sys.stderr)
py = results(["python3", "pipeline_peer.py", "1000000", "5"], cwd="bench")["python_pipeline"]

swift_s, python_s = [], []
for r in range(3):
    swift_s.append(wall([".build/release/tiltd", "replay", csv]))
    python_s.append(wall(["python3", "replay_peer.py", "../" + csv], cwd="bench"))
    print(f"replay round {r + 1}/3: tiltd {swift_s[-1]:.3f} s, Python {python_s[-1]:.2f} s", file=sys.stderr)
lines = sum(1 for _ in open(csv)) - 1

med = statistics.median
c = med(rates["c_pipeline"])
print(f"\n{samples} synthetic samples per run, {rounds} rounds; Python peer on 1,000,000 samples, 5 runs\n")
print("| Benchmark | tiltd (Swift) | Python peer | Swift / Python | C peer | Swift / C |")
print("|---|---|---|---|---|---|")
for key, label in [("swift_pipeline", "pipeline, gate on, regular 100 Hz"),
                   ("swift_pipeline_jitter", "pipeline, gate on, jittered timestamps"),
                   ("swift_pipeline_nogate", "pipeline, gate off"),
                   ("swift_pipeline_auto", "pipeline, auto orientation + neutral"),
                   ("swift_pipeline_fused", "pipeline, gyro fused (peers: accelerometer only)"),
                   ("swift_pipeline_fused_jitter", "pipeline, gyro fused, jittered timestamps")]:
    s = med(rates[key])
    print(f"| {label} (M samples/s) | {s / 1e6:.2f} | {py / 1e6:.2f} | {s / py:.0f}x "
          f"| {c / 1e6:.2f} | {med(ratios[key]):.2f} |")
print(f"| replay {lines:,}-line CSV to JSON Lines (s, median of 3) | {med(swift_s):.3f} | {med(python_s):.2f} "
      f"| {med(python_s) / med(swift_s):.1f}x | | |")
PY
