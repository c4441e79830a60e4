#!/usr/bin/env python3
"""VQF and x-io Fusion on a tiltd trace, scored as bench/accuracy.py scores tiltd.

Usage: bench/recording_peers.py TRACE REFERENCE_CSV

Reads the trace's samples (acceleration, gyro in rad/s; docs/trace-format.md),
runs the `vqf` package's 6-axis VQF (batch, default parameters, Δt the median
interval) and the `imufusion` package's Fusion AHRS (gain 0.5, its gyro bias
helper) on them, and prints for each a RESULT line with the same figures as
bench/accuracy.py: the median and p95 tilt error after the first second, the
median while still, and the lag (the shift that best aligns the estimate
with the reference).

Then two lines that measure the reference rather than a filter: the gyro
alone, integrated from the reference's first "up" (v' = v x w, no
accelerometer), once with each sample's rate over the interval that ends
with it (as tiltd and VQF use it: "gyro-only") and once with the rate of the
sample before ("gyro-only-previous", a sample late). The lag of the first
is the delay of the reference itself against its own gyro data
(docs/motion.md, "Gyroscope fusion": the lag goal).
"""

import math
import statistics
import sys
import os

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402  (bench/accuracy.py: the same definitions)
import broad_accuracy  # noqa: E402  (the peers as the BROAD benchmark runs them)

try:
    import imufusion
    from vqf import VQF
except ImportError as error:
    sys.exit(f"bench/recording_peers.py: {error}: pip install vqf imufusion numpy (bench/accuracy.sh does)")


def read_samples(path):
    times, acc, gyr = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0] != "s" or "w" not in fields:
                continue
            i = fields.index("w")
            times.append(int(fields[1]) * 1e-9)
            acc.append([float(v) for v in fields[2:5]])
            gyr.append([float(v) for v in fields[i + 1:i + 4]])
    return np.array(times), np.array(acc), np.array(gyr)


def ups(q):
    w, x, y, z = q.T
    return np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z], axis=1)


def gyro_only_ups(times, gyr, first_up, previous):
    """The reference's first up turned by the gyro alone (Rodrigues per sample)."""
    v = np.array(first_up, dtype=float)
    out = [v]
    for k in range(1, len(times)):
        w = gyr[k - 1] if previous else gyr[k]
        rate = float(np.linalg.norm(w))
        angle = rate * (times[k] - times[k - 1])
        if angle > 0:
            axis = w / rate  # v turns by -angle about the axis: dv = v x w dt
            v = v * math.cos(angle) - np.cross(axis, v) * math.sin(angle) + axis * np.dot(axis, v) * (1 - math.cos(angle))
            v /= np.linalg.norm(v)
        out.append(v)
    return out


def report(label, times, estimates, trace, reference):
    ref_times, ref_ups = accuracy.read_reference(reference)
    start = times[0] + 1.0
    errors = []
    for t, n in zip(times, estimates):
        ref = accuracy.interpolate(ref_times, ref_ups, t)
        if t >= start and ref is not None:
            errors.append((t, accuracy.angle(n, ref)))
    rows = accuracy.read_trace(trace)
    g = statistics.median(r[1] for r in rows)
    still_times = {round(r[0], 6) for r in rows if r[2] < math.radians(10) and abs(r[1] - g) < 0.05 * g}
    still = [e for t, e in errors if round(t, 6) in still_times]
    best = None
    for shift_ms in range(-400, 401):
        total, count = 0.0, 0
        for t, n in zip(times, estimates):
            if t < start:
                continue
            ref = accuracy.interpolate(ref_times, ref_ups, t - shift_ms / 1000)
            if ref is not None:
                total += accuracy.angle(n, ref) ** 2
                count += 1
        if count and (best is None or total / count < best[1]):
            best = (shift_ms, total / count)
    values = [e for _, e in errors]
    still_text = f"{statistics.median(still):.2f}" if still else "n/a"
    print(f"RESULT {label} median={statistics.median(values):.2f} p95={accuracy.percentile(values, 0.95):.2f} "
          f"still_median={still_text} lag_ms={best[0]} samples={len(values)} still={len(still)}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    trace, reference = sys.argv[1:3]
    times, acc, gyr = read_samples(trace)
    dt = float(np.median(np.diff(times)))
    vqf = VQF(dt).updateBatch(np.ascontiguousarray(gyr), np.ascontiguousarray(acc))
    report("vqf", times, [tuple(u) for u in ups(vqf["quat6D"])], trace, reference)
    ahrs, bias = broad_accuracy.fusion_filters(round(1 / dt))
    quaternions = []
    for i in range(len(times)):
        ahrs.update_no_magnetometer(bias.update(np.degrees(gyr[i])), acc[i] / 9.80665)
        quaternions.append(ahrs.get_quaternion())
    report("imufusion", times, [tuple(u) for u in ups(np.array(quaternions))], trace, reference)
    ref_times, ref_ups = accuracy.read_reference(reference)
    first_up = ref_ups[0]  # 2.5 ms after the first sample on the NGIMU
    for label, previous in (("gyro-only", False), ("gyro-only-previous", True)):
        report(label, times, [tuple(u) for u in gyro_only_ups(times, gyr, first_up, previous)], trace, reference)


if __name__ == "__main__":
    main()
