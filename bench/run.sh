#!/usr/bin/env bash
# Benchmarks, each beside its peers in the same invocation (release builds;
# never part of CI).
#
#   bench/run.sh          issue 16's goals as one table (bench/goals.sh):
#                         CPU per sample, RSS of run and serve, polled still
#                         device, iio-sensor-proxy, replay, latency under load
#   bench/run.sh --all    then every other benchmark too: pipeline, frames,
#                         capture, latency, D-Bus (frames.sh also writes
#                         bench/out/frames-results.txt)
set -euo pipefail
cd "$(dirname "$0")"
./goals.sh
if [[ "${1:-}" == "--all" ]]; then
    ./pipeline.sh
    ./frames.sh
    ./capture.sh
    ./latency.sh
    ./dbus-peer.sh
fi
