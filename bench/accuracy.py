#!/usr/bin/env python3
"""Tilt accuracy of tiltd's output against a recording's own attitude reference.

Usage: bench/accuracy.py TILTD TRACE REFERENCE_CSV LABEL [replay options...]

Runs `TILTD replay --no-gate TRACE [options]`, turns each state's roll/pitch
back into the gravity direction it implies (n = (cos p sin r, -sin p,
cos p cos r), docs/motion.md "Angles"), and compares it with the
reference's up direction (columns time_s,up_x,up_y,up_z, linearly
interpolated to the state's time). Prints one RESULT line:

  RESULT <label> median=<deg> p95=<deg> still_median=<deg> lag_ms=<ms> samples=<n> still=<n>

- median, p95: the tilt error over every sample after the first second;
- still_median: the median over the samples after 1 s where the recording is
  still (|gyro| < 10 deg/s and |a| within 5 % of its median), when the
  trace has a gyro; "n/a" otherwise;
- lag_ms: the shift s (1 ms steps, -400..400 ms) that minimises the mean
  squared error between the estimate at t and the reference at t - s:
  how far tiltd trails the reference.
"""

import json
import math
import statistics
import subprocess
import sys


def read_reference(path):
    times, ups = [], []
    with open(path, encoding="utf-8") as f:
        header = None
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.strip().split(",")
            if header is None:
                header = fields
                continue
            times.append(float(fields[0]))
            ups.append(tuple(float(v) for v in fields[1:4]))
    return times, ups


def read_trace(path):
    """(t_s, |a|, |w| or None) per sample."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0] != "s":
                continue
            t = int(fields[1]) * 1e-9
            a = [float(v) for v in fields[2:5]]
            w = None
            if "w" in fields:
                i = fields.index("w")
                w = [float(v) for v in fields[i + 1:i + 4]]
            rows.append((t, math.sqrt(sum(v * v for v in a)),
                         None if w is None else math.sqrt(sum(v * v for v in w))))
    return rows


def interpolate(times, values, t):
    """Linear interpolation of unit vectors (renormalised); None outside."""
    if t < times[0] or t > times[-1]:
        return None
    lo, hi = 0, len(times) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if times[mid] <= t:
            lo = mid
        else:
            hi = mid
    span = times[hi] - times[lo]
    f = 0 if span <= 0 else (t - times[lo]) / span
    v = [values[lo][k] + f * (values[hi][k] - values[lo][k]) for k in range(3)]
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def angle(a, b):
    c = sum(x * y for x, y in zip(a, b))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip().splitlines()[2])
    tiltd, trace, reference, label = sys.argv[1:5]
    output = subprocess.run([tiltd, "replay", "--no-gate", trace] + sys.argv[5:], check=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    states = []
    for line in output.splitlines():
        state = json.loads(line)
        r, p = state["roll"], state["pitch"]
        states.append((state["t"], (math.cos(p) * math.sin(r), -math.sin(p), math.cos(p) * math.cos(r))))
    ref_times, ref_ups = read_reference(reference)
    start = states[0][0] + 1.0
    errors = []
    for t, n in states:
        ref = interpolate(ref_times, ref_ups, t)
        if t >= start and ref is not None:
            errors.append((t, angle(n, ref)))

    still_errors = []
    rows = read_trace(trace)
    if rows and rows[0][2] is not None:
        g = statistics.median(r[1] for r in rows)
        still_times = {round(r[0], 6) for r in rows if r[2] < math.radians(10) and abs(r[1] - g) < 0.05 * g}
        still_errors = [e for t, e in errors if round(t, 6) in still_times]

    best = None
    for shift_ms in range(-400, 401):
        shift = shift_ms / 1000
        total, count = 0.0, 0
        for t, n in states:
            if t < start:
                continue
            ref = interpolate(ref_times, ref_ups, t - shift)
            if ref is not None:
                total += angle(n, ref) ** 2
                count += 1
        if count and (best is None or total / count < best[1]):
            best = (shift_ms, total / count)

    values = [e for _, e in errors]
    still = f"{statistics.median(still_errors):.2f}" if still_errors else "n/a"
    print(f"RESULT {label} median={statistics.median(values):.2f} p95={percentile(values, 0.95):.2f} "
          f"still_median={still} lag_ms={best[0]} samples={len(values)} still={len(still_errors)}")


if __name__ == "__main__":
    main()
