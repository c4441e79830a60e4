#!/usr/bin/env bash
# Every benchmark, each beside its peers in the same invocation (release
# builds; never part of CI). Results are printed; frames.sh also writes
# bench/out/frames-results.txt.
set -euo pipefail
cd "$(dirname "$0")"
./pipeline.sh
./frames.sh
./capture.sh
./latency.sh
./dbus-peer.sh
