#!/usr/bin/env bash
# Tilt accuracy against a recording's own attitude reference (issue 11):
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
    for tau in 0.25 0.5 1 2 4; do
        run "$trace" "$reference" "$name:fused:gyro-time-constant=$tau" --gyro-time-constant "$tau"
    done
done
