#!/usr/bin/env python3
"""Python peer of PipelineBench: the same per-sample steps with numpy + scipy.

Usage: pipeline_peer.py [samples] [runs]   (defaults 1000000 and 5)

Steps, as a careful Python programmer would write them: the one-pole
low-pass filter on the vector with scipy.signal.lfilter (alpha from the
sampling interval, first sample initialises), roll and pitch vectorised
(arcsin, arctan2, np.unwrap for continuity), the change gate as a Python
loop (each decision depends on the last accepted state), and the two shines
vectorised for the states that passed. It does less than tiltd (no gravity
weighting for shakes, no orientation classifier, no branch choice over the
top), so the ratio it gives is in Python's favour.

Prints the median samples/s and a `RESULT python_pipeline <samples/s>` line.
"""

import math
import statistics
import sys
import time

import numpy as np
from scipy.signal import lfilter


def make_readings(count):
    """100 Hz hand-held motion like PipelineBench's (own noise draws)."""
    rng = np.random.default_rng(7)
    t = np.arange(count) * 0.01
    roll = 0.6 * np.sin(2 * np.pi * t / 7.3) + 0.2 * np.sin(2 * np.pi * t / 1.1)
    pitch = 0.5 + 0.4 * np.sin(2 * np.pi * t / 5.9)
    a = np.stack([np.cos(pitch) * np.sin(roll), -np.sin(pitch), np.cos(pitch) * np.cos(roll)], axis=1) * 9.81
    a += rng.uniform(-1, 1, a.shape) * 0.05
    shake = (np.mod(t, 60) >= 30) & (np.mod(t, 60) < 30.5)
    a[shake] += rng.uniform(-1, 1, (int(shake.sum()), 3)) * 15
    timestamps = np.arange(count, dtype=np.int64) * 10_000_000
    return timestamps, a


def pipeline(timestamps, a, cutoff=5.0, threshold=0.0022):
    tau = 1 / (2 * math.pi * cutoff)
    dt = float(np.median(np.diff(timestamps))) * 1e-9
    alpha = 1 - math.exp(-dt / tau)
    zi = np.array([(1 - alpha)])[:, None] * a[0][None, :]
    filtered, _ = lfilter([alpha], [1, alpha - 1], a, axis=0, zi=zi)
    norm = np.linalg.norm(filtered, axis=1)
    pitch = np.arcsin(np.clip(-filtered[:, 1] / norm, -1, 1))
    roll = np.unwrap(np.arctan2(filtered[:, 0], filtered[:, 2]))
    # The gate: a loop, since each decision depends on the last accepted state.
    accepted = []
    last_roll = last_pitch = None
    for i, (r, p) in enumerate(zip(roll.tolist(), pitch.tolist())):
        if last_roll is None or abs(r - last_roll) >= threshold or abs(p - last_pitch) >= threshold:
            accepted.append(i)
            last_roll, last_pitch = r, p
    idx = np.array(accepted)
    r, p = roll[idx], pitch[idx]
    shines = np.stack([-r + p, np.clip(1 + r, 0, 1), -r - p, np.clip(1 - r, 0, 1)], axis=1)
    return timestamps[idx], r, p, shines


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    runs = max(5, int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    timestamps, a = make_readings(count)
    rates = []
    passed = 0
    for _ in range(runs):
        start = time.perf_counter()
        t, r, p, shines = pipeline(timestamps, a)
        rates.append(count / (time.perf_counter() - start))
        passed = len(t)
    rate = statistics.median(rates)
    print(f"pipeline_peer.py: {count} samples, median of {runs} runs: {rate / 1e6:.2f} M samples/s "
          f"({passed} states passed)")
    print(f"RESULT python_pipeline {rate}")


if __name__ == "__main__":
    main()
