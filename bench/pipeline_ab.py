#!/usr/bin/env python3
"""Before/after for a change to the per-sample pipeline: two PipelineBench
release binaries (built from each version, e.g. copied aside before the
change) run alternately on the same scenarios, so both see the same load.

    python3 bench/pipeline_ab.py BEFORE AFTER [samples] [rounds] [scenario...]

Defaults: 2,000,000 samples, 9 rounds, the two fused scenarios. Prints the
median wall-clock and per-CPU-second rate of each binary per scenario and
the median of the per-round after/before ratios.
"""
import statistics
import subprocess
import sys


def rates(binary, samples, key):
    out = subprocess.run([binary, samples, "1", key], stdout=subprocess.PIPE, text=True, check=True).stdout
    values = {line.split()[1]: float(line.split()[2]) for line in out.splitlines() if line.startswith("RESULT")}
    return values[key], values[key + "_cpu"]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: bench/pipeline_ab.py BEFORE AFTER [samples] [rounds] [scenario...]")
    before, after = sys.argv[1], sys.argv[2]
    samples = sys.argv[3] if len(sys.argv) > 3 else "2000000"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 9
    keys = sys.argv[5:] or ["swift_pipeline_fused", "swift_pipeline_fused_jitter"]
    print("| scenario | before wall M/s | after wall M/s | before CPU M/s | after CPU M/s | after / before |")
    print("|---|---|---|---|---|---|")
    for key in keys:
        runs = {before: [], after: []}
        ratios = []
        for _ in range(rounds):
            for binary in (before, after):
                runs[binary].append(rates(binary, samples, key))
            ratios.append(runs[after][-1][0] / runs[before][-1][0])
        med = statistics.median
        wall = {b: med(r[0] for r in runs[b]) / 1e6 for b in runs}
        cpu = {b: med(r[1] for r in runs[b]) / 1e6 for b in runs}
        print(f"| {key} | {wall[before]:.2f} | {wall[after]:.2f} | {cpu[before]:.2f} | {cpu[after]:.2f} "
              f"| {med(ratios):.2f} |")


if __name__ == "__main__":
    main()
