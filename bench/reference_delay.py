#!/usr/bin/env python3
"""What delaying the gyro by part of a sample buys against the NGIMU's own
attitude and costs against BROAD's optical truth (issue 22: |lag| <= 15 ms).

Usage: bench/reference_delay.py [BETA...]     (default 0 0.05 0.1 0.2 0.5)

Feeds the `vqf` package's VQF (tiltd's lag on the NGIMU is VQF's within
1 ms) with the rate (1 - beta) * w[k] + beta * w[k-1], i.e. the gyro late by
beta of a sample (0.5: the trapezoid), and prints per beta the NGIMU
recording's lag, median and p95 (bench/accuracy.py's definitions, via
bench/recording_peers.py) and the inclination RMSE on BROAD's fast rotation
(bench/broad_accuracy.py's score). Run with bench/out/venv/bin/python
(bench/accuracy.sh makes it).
"""

import contextlib
import io
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import broad_accuracy  # noqa: E402
import recording_peers  # noqa: E402
from vqf import VQF  # noqa: E402

root = os.path.dirname(here)
trace = os.path.join(root, "recordings/ngimu-hand-motion.trace")
reference = os.path.join(root, "recordings/ngimu-hand-motion.reference.csv")
trial = os.path.join(root, "recordings/broad/06_undisturbed_fast_rotation_A")


def late(gyro, beta):
    mixed = gyro.copy()
    mixed[1:] = (1 - beta) * gyro[1:] + beta * gyro[:-1]
    return np.ascontiguousarray(mixed)


def main():
    betas = [float(b) for b in sys.argv[1:]] or [0, 0.05, 0.1, 0.2, 0.5]
    times, acc, gyr = recording_peers.read_samples(trace)
    dt = float(np.median(np.diff(times)))
    data = broad_accuracy.load(trial + ".csv.gz")
    truth = broad_accuracy.load(trial + ".reference.csv.gz")
    broad_dt = float(np.median(np.diff(data[:, 0])))
    print("| gyro late by (samples) | NGIMU lag ms | median ° | p95 ° | BROAD 06 RMSE ° |")
    print("|---|---|---|---|---|")
    for beta in betas:
        quat = VQF(dt).updateBatch(late(gyr, beta), np.ascontiguousarray(acc))["quat6D"]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            recording_peers.report("vqf", times, [tuple(u) for u in recording_peers.ups(quat)], trace, reference)
        fields = dict(kv.split("=") for kv in out.getvalue().split()[2:])
        broad = VQF(broad_dt).updateBatch(late(data[:, 4:7], beta), np.ascontiguousarray(data[:, 1:4]))["quat6D"]
        rmse, _ = broad_accuracy.score(broad_accuracy.up_from_quaternions(broad), truth)
        print(f"| {beta:g} | {fields['lag_ms']} | {fields['median']} | {fields['p95']} | {rmse:.3f} |")


if __name__ == "__main__":
    main()
