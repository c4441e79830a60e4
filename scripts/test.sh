#!/usr/bin/env bash
# Sets up (installs missing Debian packages) and runs the whole test suite.
# No accelerometer is needed: devices are faked with umockdev (Tests/Fixtures).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
swift build --build-tests
# setup.sh installed ffmpeg: the y4m test must run, not be skipped.
TILTD_REQUIRE_FFMPEG=1 swift test --skip-build "$@"
