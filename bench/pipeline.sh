#!/usr/bin/env bash
# Pipeline and end-to-end replay benchmarks, each beside its Python peer in
# the same invocation. Release builds; one core per process.
#
#   bench/pipeline.sh [samples]      (PipelineBench samples, default 4000000)
#
# 1. PipelineBench (Swift): filter + orientation + angles + gate + shines per
#    sample, median of 7 runs, vs bench/pipeline_peer.py (numpy + scipy),
#    median of 5 runs, and vs bench/pipeline_peer.c (plain C -O2, SPEC §8's
#    reference, which does fewer steps), median of 7 runs. On a shared
#    machine the absolute figures move with the load; the ratios to the peers
#    run in the same invocation are what to compare.
# 2. End to end: a 1,000,000-line CSV (bench/out/motion-1m.csv, generated
#    once by bench/make_csv.py) replayed to JSON Lines on stdout (> /dev/null):
#    `tiltd replay` (median of 5) vs bench/replay_peer.py (numpy loadtxt +
#    the same pipeline + json.dumps per state, median of 3).
set -euo pipefail
cd "$(dirname "$0")/.."
samples="${1:-4000000}"

echo "building release (root and bench/)..." >&2
swift build -c release --product tiltd >&2
swift build -c release --package-path bench --product PipelineBench >&2
mkdir -p bench/.build
cc -O2 -o bench/.build/pipeline_peer_c bench/pipeline_peer.c -lm

mkdir -p bench/out
csv=bench/out/motion-1m.csv
if [[ ! -s "$csv" ]]; then
    echo "generating $csv..." >&2
    python3 bench/make_csv.py "$csv" 1000000
fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT
bench/.build/release/PipelineBench "$samples" 7 | tee /dev/stderr | grep '^RESULT' >> "$results"
bench/.build/pipeline_peer_c "$samples" 7 | tee /dev/stderr | grep '^RESULT' >> "$results"
(cd bench && python3 pipeline_peer.py 1000000 5) | tee /dev/stderr | grep '^RESULT' >> "$results"

python3 - "$csv" "$results" <<'PY'
import statistics, subprocess, sys, time

csv, results = sys.argv[1], sys.argv[2]

def wall(cmd, runs, cwd=None):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, cwd=cwd)
        times.append(time.perf_counter() - start)
    return statistics.median(times)

lines = sum(1 for _ in open(csv)) - 1
swift_s = wall([".build/release/tiltd", "replay", csv], 5)
python_s = wall(["python3", "replay_peer.py", "../" + csv], 3, cwd="bench")

r = {}
for line in open(results):
    _, key, value = line.split()
    r[key] = float(value)

print()
print("| Benchmark | tiltd (Swift) | Python peer | Swift / Python | C peer | Swift / C |")
print("|---|---|---|---|---|---|")
py, c = r["python_pipeline"], r["c_pipeline"]
for key, label in [("swift_pipeline", "pipeline, gate on, regular 100 Hz"),
                   ("swift_pipeline_jitter", "pipeline, gate on, jittered timestamps"),
                   ("swift_pipeline_nogate", "pipeline, gate off"),
                   ("swift_pipeline_auto", "pipeline, auto orientation + neutral")]:
    print(f"| {label} (M samples/s) | {r[key] / 1e6:.2f} | {py / 1e6:.2f} | {r[key] / py:.0f}x "
          f"| {c / 1e6:.2f} | {r[key] / c:.2f} |")
print(f"| replay {lines:,}-line CSV to JSON Lines (s) | {swift_s:.3f} | {python_s:.2f} | {python_s / swift_s:.1f}x | | |")
PY
