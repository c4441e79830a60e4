#!/usr/bin/env bash
# Accelerometer-only accuracy on hand-moved recordings (issue 22 item 5):
# bench/accel_only.py on the shared BROAD trials (optical reference) and the
# NGIMU recording (the device's own attitude), split into the trials a
# change is tuned on and the ones it is checked on, for the default and
# for each setting given:
#
#   bench/accel_only.sh                         (default settings only)
#   bench/accel_only.sh "--shake-band 0.21" "--cutoff 3"
#
# TILTD=path to use another binary (default: a debug build: accuracy, not
# speed, so the figures are the same); DATA=the shared data folder (default
# ../shared/data). Kept apart from bench/accuracy.sh, which
# measures the fused filter.
set -euo pipefail
cd "$(dirname "$0")/.."

[[ -n "${TILTD:-}" ]] || { swift build --product tiltd >&2 && TILTD=.build/debug/tiltd; }
broad="${DATA:-../shared/data}/broad"
trial() { echo "$broad/$1.csv.gz:$broad/$1.reference.csv.gz"; }
tune=("$(trial 01_undisturbed_slow_rotation_A)" "$(trial 10_undisturbed_slow_translation_A)"
      "$(trial 24_disturbed_tapping_A)")
check=("recordings/ngimu-hand-motion.trace:recordings/ngimu-hand-motion.reference.csv"
       "$(trial 06_undisturbed_fast_rotation_A)" "$(trial 15_undisturbed_fast_translation_A)"
       "$(trial 26_disturbed_phone_vibration_A)")

echo "| settings | set | recording | median ° | p95 ° | lag ms |"
echo "|---|---|---|---|---|---|"
for settings in "" "$@"; do
    for set in tune check; do
        if [[ $set == tune ]]; then recordings=("${tune[@]}"); else recordings=("${check[@]}"); fi
        label="${settings:-default}"
        # shellcheck disable=SC2086
        python3 bench/accel_only.py "$TILTD" "${label// /_}" "${recordings[@]}" -- $settings |
            awk -v set="$set" -v label="$label" '{
                for (i = 4; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
                printf "| %s | %s | %s | %s | %s | %s |\n", label, set, $3, f["median"], f["p95"], f["lag_ms"]
            }'
    done
done
