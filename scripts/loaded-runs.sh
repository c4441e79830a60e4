#!/usr/bin/env bash
# The whole test suite N times under load, as the issues ask before a change
# that touches timing is called done: two busy loops take both cores of the
# build machine while both tiers run as scripts/test.sh runs them (build the
# tests first: `swift build --build-tests`). Prints one line per run and the
# failed tests.
#
#   scripts/loaded-runs.sh [N]      (default 5; logs in ${TMPDIR:-/tmp}/tiltd-loaded-run-K.log)
set -uo pipefail
runs="${1:-5}"
cd "$(dirname "$0")/.."
logs="${TMPDIR:-/tmp}"
bash -c 'while :; do :; done' & busy1=$!
bash -c 'while :; do :; done' & busy2=$!
trap 'kill $busy1 $busy2 2>/dev/null' EXIT
# The same open-file limit scripts/test.sh sets.
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 16384 ]; then hard=16384; fi
if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$hard" ]; then ulimit -Sn "$hard"; fi
failed=0
for run in $(seq 1 "$runs"); do
    log="$logs/tiltd-loaded-run-$run.log"
    start=$(date +%s)
    TILTD_TEST_PREPARED=1 scripts/test.sh > "$log" 2>&1
    status=$?
    [ $status -eq 0 ] || failed=$((failed + 1))
    echo "run $run/$runs: exit $status in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg): $(grep -E 'Test run with' "$log" | tr '\n' ' ')"
    grep -E '✘' "$log" | head -5
done
echo "$failed of $runs runs failed"
[ $failed -eq 0 ]
