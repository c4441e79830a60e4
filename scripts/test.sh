#!/usr/bin/env bash
# Runs the tests in two tiers (README, "Tests"). No accelerometer is needed:
# devices are faked with umockdev (Tests/Fixtures).
#
#   scripts/test.sh unit      the fast tier: every test target except the
#                             system ones below. Its tests spawn nothing (no
#                             tiltd binary, umockdev, Chromium, PulseAudio,
#                             dbus, sox or ffmpeg): TestTier stops a run that
#                             does, and this script refuses a unit-tier file
#                             that starts a process itself. Needs no set-up.
#   scripts/test.sh system    the system tier, after scripts/setup.sh test
#                             (installs the missing Debian packages)
#   scripts/test.sh           set-up, the unit tier, then the system tier
#   scripts/test.sh package   the package tier alone, never in CI (a release
#                             build): scripts/package-test.sh builds the
#                             Debian package and proves it on a clean Debian 12
#
# Further arguments go to `swift test` (e.g. --filter SocketFileTests).
# TILTD_TEST_PREPARED=1 skips set-up and build (scripts/loaded-runs.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# The system tier's test targets; any other test target is unit tier.
system_targets=(tiltdTests BusTests WebTests LevelsTests DaemonSystemTests)
unit_targets=()
for dir in Tests/*Tests; do
    name=${dir#Tests/}
    [[ " ${system_targets[*]} " == *" $name "* ]] || unit_targets+=("$name")
done
alternatives() { local IFS='|'; echo "^($*)\."; }

[[ "${1:-}" != package ]] || exec scripts/package-test.sh
tier=all
case "${1:-}" in unit|system) tier=$1; shift ;; esac
if [ -z "${TILTD_TEST_PREPARED:-}" ]; then
    [ "$tier" = unit ] || scripts/setup.sh test
    swift build --build-tests
fi
# The suites run in parallel in one process, several holding hundreds of
# sockets at once: raise a soft open-file limit of 1,024 (a common default)
# toward 16,384, within the hard limit (Tests/TiltdTestSupport/TestFileLimit.swift).
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 16384 ]; then hard=16384; fi
if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$hard" ]; then ulimit -Sn "$hard"; fi

# Runs one tier's `swift test` under a time limit far beyond its normal
# length (unit: ~30 s, system: 3-4 min on a loaded 2-core machine), and once
# more if it hangs, never if it fails; a second hang fails the run. A test
# that waits on something without honouring cancellation outlives its time
# limit and holds the whole run (a DSU test did, twice: it waited for a
# subscription that had already lapsed).
run_tier() {
    local name=$1 limit=$2; shift 2
    local attempt status
    for attempt in 1 2; do
        status=0
        timeout --kill-after=30s "$limit" "$@" || status=$?
        if [ "$status" -ne 124 ] && [ "$status" -ne 137 ]; then return "$status"; fi
        echo "scripts/test.sh: the $name tier hung (no end within $limit, attempt $attempt of 2)" >&2
    done
    return 1
}

if [ "$tier" != system ]; then
    # Spawning goes through TiltdTestSupport's helpers (which check the tier);
    # a unit-tier file that starts a process itself belongs in the system tier.
    if spawning=$(grep -rlE 'Process\(\)|posix_spawn|\bfork\(|\bexecv' --include='*.swift' "${unit_targets[@]/#/Tests/}"); then
        echo "scripts/test.sh: these unit-tier files start processes; git mv them into a system-tier target" \
             "(system_targets in scripts/test.sh):" $spawning >&2
        exit 1
    fi
    TILTD_TEST_TIER=unit run_tier unit "${TILTD_UNIT_TIME_LIMIT:-8m}" \
        swift test --skip-build --skip "$(alternatives "${system_targets[@]}")" "$@"
fi
if [ "$tier" != unit ]; then
    # setup.sh installed ffmpeg: the y4m test must run, not be skipped.
    TILTD_REQUIRE_FFMPEG=1 run_tier system "${TILTD_SYSTEM_TIME_LIMIT:-25m}" \
        swift test --skip-build --skip "$(alternatives "${unit_targets[@]}")" "$@"
fi
