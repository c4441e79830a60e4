#!/usr/bin/env bash
# Issue 22 first: inclination accuracy on the BROAD trials (optical ground
# truth; recordings/broad, or BROAD_DIR) beside VQF and x-io Fusion from
# PyPI on the same samples (bench/broad_accuracy.py), and the cost per sample
# of tiltd's fusion (bench/Sources/AttitudeBench, release) next to VQF's own
# C++ per-sample time. The peers live in a virtual environment under
# bench/out/venv (made on first use: pip install vqf imufusion numpy).
#
# Then tilt accuracy against a recording's own attitude reference (issue 11):
# for every recordings/NAME.trace that has a recordings/NAME.reference.csv,
# the median and p95 tilt error over all samples after 1 s, the median
# while still, and the lag (the shift that best aligns tiltd with the
# reference; negative: tiltd is ahead), for accelerometer-only (--no-gyro)
# and fused output, then the trade-off curves (accelerometer-only cutoff and
# shake band -- 0.21 was the default before issue 11 -- and the fused time
# constant). See bench/accuracy.py for the definitions.
#
#   bench/accuracy.sh            (release build; TILTD=path to use another binary)
#
# Accuracy, not speed: the figures do not depend on the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${TILTD:-}" ]]; then
    echo "building release..." >&2
    swift build -c release --product tiltd >&2
    TILTD=.build/release/tiltd
fi

shopt -s nullglob
references=(recordings/*.reference.csv)
if (( ${#references[@]} == 0 )); then
    echo "bench/accuracy.sh: no recordings/*.reference.csv; run scripts/convert-recordings.py DATA_DIR first" >&2
    exit 1
fi

run() {  # trace reference label options...
    local trace="$1" reference="$2" label="$3"
    shift 3
    python3 bench/accuracy.py "$TILTD" "$trace" "$reference" "$label" "$@"
}

venv=bench/out/venv
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import vqf, imufusion, numpy" 2>/dev/null; then
    echo "making $venv (vqf, imufusion, numpy)..." >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q vqf imufusion numpy >&2
fi
peers="$venv/bin/python"

broad="${BROAD_DIR:-recordings/broad}"
if compgen -G "$broad/*.reference.csv.gz" > /dev/null; then
    echo "## BROAD: inclination error over the movement phases (degrees)"
    echo
    "$peers" bench/broad_accuracy.py "$TILTD" "$broad"
    echo
    echo "## Cost per sample"
    echo
    swift build -c release --package-path bench --product AttitudeBench >&2
    mkdir -p bench/out/broad
    for trial in "$broad"/*.reference.csv.gz; do
        name="$(basename "$trial" .reference.csv.gz)"
        zcat "$broad/$name.csv.gz" > "bench/out/broad/$name.csv"
    done
    bench/.build/release/AttitudeBench bench/out/broad/*.csv
    echo
else
    echo "bench/accuracy.sh: no BROAD trials in $broad (set BROAD_DIR); skipping them" >&2
fi

echo "## Recordings against their own attitude reference"
echo
echo "| recording | estimate | median ° | p95 ° | still median ° | lag ms |"
echo "|---|---|---|---|---|---|"
for reference in "${references[@]}"; do
    name="$(basename "$reference" .reference.csv)"
    trace="recordings/$name.trace"
    for mode in accelerometer-only fused; do
        options=()
        [[ "$mode" == accelerometer-only ]] && options=(--no-gyro)
        run "$trace" "$reference" "$mode" "${options[@]}" | awk -v name="$name" '{
            for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
            printf "| %s | %s | %s | %s | %s | %s |\n", name, $2, f["median"], f["p95"], f["still_median"], f["lag_ms"]
        }'
    done
    "$peers" bench/recording_peers.py "$trace" "$reference" | awk -v name="$name" '{
        for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        printf "| %s | %s | %s | %s | %s | %s |\n", name, $2, f["median"], f["p95"], f["still_median"], f["lag_ms"]
    }'
done

echo
echo "Trade-off curves (RESULT lines):"
for reference in "${references[@]}"; do
    name="$(basename "$reference" .reference.csv)"
    trace="recordings/$name.trace"
    for cutoff in 1 2 5 10 20; do
        run "$trace" "$reference" "$name:accelerometer-only:cutoff=$cutoff" --no-gyro --cutoff "$cutoff"
    done
    for band in 0.1 0.21 0.35 0.5 0.75 1; do
        run "$trace" "$reference" "$name:accelerometer-only:shake-band=$band" --no-gyro --shake-band "$band"
    done
    for tau in 1 2 3 4 6; do
        run "$trace" "$reference" "$name:fused:gyro-time-constant=$tau" --gyro-time-constant "$tau"
    done
done
