#!/usr/bin/env bash
# Sets up (installs missing Debian packages) and runs the whole test suite.
# No accelerometer is needed: devices are faked with umockdev (Tests/Fixtures).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
swift build --build-tests
# The suites run in parallel in one process, several holding hundreds of
# sockets at once: raise a soft open-file limit of 1,024 (a common default)
# toward 16,384, within the hard limit (Tests/TiltdTestSupport/TestFileLimit.swift).
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 16384 ]; then hard=16384; fi
if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$hard" ]; then ulimit -Sn "$hard"; fi
# setup.sh installed ffmpeg: the y4m test must run, not be skipped.
TILTD_REQUIRE_FFMPEG=1 swift test --skip-build "$@"
