#!/usr/bin/env bash
# Sets up (installs missing Debian packages) and runs the whole test suite.
# No accelerometer is needed: devices are faked with umockdev (Tests/Fixtures).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
swift build --build-tests
swift test --skip-build "$@"
