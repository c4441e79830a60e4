#!/usr/bin/env bash
# Runs the tests in two tiers (README, "Tests"). No accelerometer is needed:
# devices are faked with umockdev (Tests/Fixtures).
#
#   scripts/test.sh unit      the fast tier: every test target except the
#                             system ones below. Its tests spawn nothing (no
#                             tiltd binary, umockdev, Chromium, PulseAudio,
#                             dbus, sox or ffmpeg) and open no socket: TestTier
#                             stops a run that spawns, and this script refuses
#                             a unit-tier file that starts a process, opens a
#                             socket or starts a server. Needs no set-up.
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
# The system tier's test targets (they spawn processes, open sockets, start
# servers); any other test target is unit tier.
system_targets=(tiltdTests BusTests WebTests LevelsTests DaemonSystemTests DSUServerTests StateSocketTests)
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

# The tests a tier's log shows started and not finished. Swift Testing prints
# 'Test NAME started.', then 'Test NAME passed|failed after …' ('… with N test
# cases passed …' for a parameterised one); 'Test run' is the run itself.
unfinished() {
    sed -n -E 's/^.* Test (.+) started\.$/\1/p' "$1" | grep -vE '^(case passing|run$)' | sort -u > "$1.started"
    sed -E 's/ with [0-9]+ test cases? (passed|failed)/ \1/' "$1" \
        | sed -n -E 's/^.* Test (.+) (passed|failed|skipped)( after .*|: .*|\.)?$/\1/p' | sort -u > "$1.ended"
    comm -23 "$1.started" "$1.ended"
}
# A `sleep` duration (30s, 10m, 1h) in seconds.
limit_seconds() {
    case $1 in
        *h) echo $(( ${1%h} * 3600 )) ;; *m) echo $(( ${1%m} * 60 )) ;; *s) echo "${1%s}" ;; *) echo "$1" ;;
    esac
}

# Runs one tier's `swift test` once, in a session of its own. Each suite has
# a Swift Testing time limit and every wait in the tests has a deadline, so a
# hung test fails and names itself ("Time limit was exceeded"). A wait that
# ignores cancellation keeps running after that, so the guard below ends the
# tier once only such tests are left, and in any case at the tier's limit
# (far beyond its normal length: unit under a minute, system 5-10 min on a
# loaded 2-core machine). Either way it names the tests that had not
# finished, ends everything the tier started, and the tier fails. Nothing
# is run twice.
run_tier() {
    local name=$1 limit=$2; shift 2
    local log status=0 sid watchdog
    log=$(mktemp "${TMPDIR:-/tmp}/tiltd-$name-tier.XXXXXX")
    # stdbuf: the test runner's output reaches the log as each line is
    # printed, not in 4 KiB blocks, so the guard below sees every line.
    setsid stdbuf -oL -eL "$@" > >(tee "$log") 2>&1 &
    sid=$!
    (
        set +e +o pipefail  # a grep that finds nothing must not end the guard
        # Every 5 s: a test over its suite's time limit (Swift Testing records
        # an issue naming it, but cannot end a wait that ignores cancellation)
        # ends the tier as soon as every other test has finished; otherwise
        # the tier's own limit does.
        deadline=$(( $(date +%s) + $(limit_seconds "$limit") ))
        while sleep 5; do
            unfinished "$log" > "$log.open"
            grep -E 'Test .* recorded an issue.*Time limit was exceeded' "$log" \
                | sed -n -E 's/^.* Test (.+) recorded an issue.*$/\1/p' | sort -u > "$log.overdue"
            if [ -s "$log.overdue" ] && [ -z "$(comm -23 "$log.open" "$log.overdue")" ]; then
                echo "scripts/test.sh: the $name tier has only tests over their time limit left running:" >&2
                break
            fi
            if [ "$(date +%s)" -ge "$deadline" ]; then
                echo "scripts/test.sh: the $name tier did not end within $limit; tests started and not finished:" >&2
                break
            fi
        done
        sed 's/^/scripts\/test.sh:   /' "$log.open" >&2
        # swift test starts the test runner in a process group of its own:
        # end the whole session, everything the tier started.
        pkill -TERM -s "$sid" 2>/dev/null || true
        sleep 10
        pkill -KILL -s "$sid" 2>/dev/null || true
    ) &
    watchdog=$!
    wait "$sid" || status=$?
    kill "$watchdog" 2>/dev/null || true
    wait "$watchdog" 2>/dev/null || true
    # Nothing of the tier outlives it.
    pkill -KILL -s "$sid" 2>/dev/null || true
    rm -f "$log" "$log".*
    [ "$status" -eq 0 ] || echo "scripts/test.sh: the $name tier failed (exit status $status)" >&2
    return "$status"
}

if [ "$tier" != system ]; then
    # Spawning goes through TiltdTestSupport's helpers (which check the tier);
    # a unit-tier file that starts a process itself belongs in the system tier.
    if spawning=$(grep -rlE 'Process\(\)|posix_spawn|\bfork\(|\bexecv' --include='*.swift' "${unit_targets[@]/#/Tests/}"); then
        echo "scripts/test.sh: these unit-tier files start processes; git mv them into a system-tier target" \
             "(system_targets in scripts/test.sh):" $spawning >&2
        exit 1
    fi
    # Nor does a unit test open a socket or start a server: those belong in
    # the system tier, or test their logic through a seam.
    # (`socket(` as a call, not an enum case such as `.socket(…)`.)
    if sockets=$(grep -rlE '(^|[^.[:alnum:]_]|Glibc\.)socket\(|\bsocketpair\(|Bootstrap\(|UnixSocketServer\(|DSUServer\(|WebServer\(|SocketTestClient\(|DSUTestClient\(|PrivateBus\(' \
                 --include='*.swift' "${unit_targets[@]/#/Tests/}"); then
        echo "scripts/test.sh: these unit-tier files open sockets or start servers; git mv them into a system-tier target" \
             "(system_targets in scripts/test.sh):" $sockets >&2
        exit 1
    fi
    TILTD_TEST_TIER=unit run_tier unit "${TILTD_UNIT_TIME_LIMIT:-10m}" \
        swift test --skip-build --skip "$(alternatives "${system_targets[@]}")" "$@"
fi
if [ "$tier" != unit ]; then
    # setup.sh installed ffmpeg: the y4m test must run, not be skipped.
    TILTD_REQUIRE_FFMPEG=1 run_tier system "${TILTD_SYSTEM_TIME_LIMIT:-30m}" \
        swift test --skip-build --skip "$(alternatives "${unit_targets[@]}")" "$@"
fi
