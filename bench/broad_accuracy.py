#!/usr/bin/env python3
"""Inclination accuracy on BROAD trials: tiltd beside VQF and x-io Fusion.

Usage: bench/broad_accuracy.py TILTD BROAD_DIR [NAME...]

For every BROAD_DIR/NAME.csv.gz with its NAME.reference.csv.gz (the shared
data's format, recordings/broad/README.md): unzips the samples, runs
`TILTD replay --no-gate` on them, and turns each state's roll/pitch into the
up direction it implies, (sin r cos p, -sin p, cos r cos p). Beside it, on the
same samples, the `vqf` package's 6-axis VQF (its C++ through the batch
API, default parameters) and the `imufusion` package's Fusion AHRS (gain 0.5,
its gyro bias helper, sample rate rounded). The score is BROAD's inclination
error: the angle between the estimated and the true up direction over the
samples with movement 1 and a reference; per trial its RMS and 95th
percentile, in degrees. Prints a Markdown table with the mean over the
trials, then one RESULT line per estimator, the shift that best aligns
tiltd's and VQF's estimates with the truth per trial (1 ms steps within
±30 ms; positive: the estimate trails), and VQF's own cost per sample (its
batch call's time divided by the samples, best of 3).

Run it with a Python that has numpy, vqf and imufusion (bench/accuracy.sh
makes a virtual environment under bench/out/venv).
"""

import gzip
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    import imufusion
    from vqf import VQF
except ImportError as error:
    sys.exit(f"bench/broad_accuracy.py: {error}: pip install vqf imufusion numpy (bench/accuracy.sh does)")


def load(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return np.loadtxt(f, delimiter=",", skiprows=1)


def score(up, reference):
    mask = (reference[:, 4] == 1) & np.isfinite(reference[:, 1])
    estimate = up[mask] / np.linalg.norm(up[mask], axis=1)[:, None]
    cosine = np.clip(np.sum(estimate * reference[mask, 1:4], axis=1), -1, 1)
    errors = np.degrees(np.arccos(cosine))
    return math.sqrt(float(np.mean(errors ** 2))), float(np.percentile(errors, 95))


def best_shift_ms(times, up, reference):
    """The shift s (ms) minimising the mean squared error between the
    estimate at t and the truth at t - s, over the movement samples."""
    rows = reference[np.isfinite(reference[:, 1])]
    estimate = up / np.linalg.norm(up, axis=1)[:, None]
    best = None
    for shift_ms in range(-30, 31):
        at = times - shift_ms / 1000
        truth = np.stack([np.interp(at, rows[:, 0], rows[:, k]) for k in (1, 2, 3)], axis=1)
        mask = (np.interp(at, rows[:, 0], rows[:, 4]) == 1) & (at >= rows[0, 0]) & (at <= rows[-1, 0])
        truth = truth[mask] / np.linalg.norm(truth[mask], axis=1)[:, None]
        cosine = np.clip(np.sum(estimate[mask] * truth, axis=1), -1, 1)
        error = float(np.mean(np.degrees(np.arccos(cosine)) ** 2))
        if best is None or error < best[1]:
            best = (shift_ms, error)
    return best[0]


def up_from_quaternions(q):
    w, x, y, z = q.T
    return np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z], axis=1)


def tiltd_up(tiltd, csv_text, count):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write(csv_text)
        name = f.name
    try:
        out = subprocess.run([tiltd, "replay", "--no-gate", name], check=True, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True).stdout
    finally:
        os.unlink(name)
    ups = np.zeros((count, 3))
    rows = out.splitlines()
    if len(rows) != count:
        sys.exit(f"bench/broad_accuracy.py: tiltd gave {len(rows)} states for {count} samples")
    for i, line in enumerate(rows):
        # roll and pitch without a JSON parser (the lines are tiltd's own).
        roll = float(line.split('"roll":', 1)[1].split(",", 1)[0])
        pitch = float(line.split('"pitch":', 1)[1].split(",", 1)[0])
        ups[i] = (math.sin(roll) * math.cos(pitch), -math.sin(pitch), math.cos(roll) * math.cos(pitch))
    return ups


def vqf_up(data, dt):
    gyr = np.ascontiguousarray(data[:, 4:7])
    acc = np.ascontiguousarray(data[:, 1:4])
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        out = VQF(dt).updateBatch(gyr, acc)
        best = min(best, time.perf_counter() - start)
    return up_from_quaternions(out["quat6D"]), best / len(data)


def fusion_filters(rate):
    """x-io Fusion's AHRS and its gyro bias helper at `rate` Hz (defaults
    otherwise): the peer as both benchmarks run it."""
    ahrs = imufusion.Ahrs()
    settings = imufusion.AhrsSettings()
    settings.sample_rate = rate
    ahrs.set_settings(settings)
    bias = imufusion.Bias()
    bias_settings = imufusion.BiasSettings()
    bias_settings.sample_rate = rate
    bias.set_settings(bias_settings)
    return ahrs, bias


def fusion_up(data, dt):
    ahrs, bias = fusion_filters(round(1 / dt))
    ups = np.zeros((len(data), 3))
    gyro_deg = np.degrees(data[:, 4:7])
    acc_g = data[:, 1:4] / 9.80665
    for i in range(len(data)):
        ahrs.update_no_magnetometer(bias.update(gyro_deg[i]), acc_g[i])
        ups[i] = up_from_quaternions(np.array([ahrs.get_quaternion()]))[0]
    return ups


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    tiltd, directory = sys.argv[1:3]
    names = sys.argv[3:] or sorted(n[:-len(".reference.csv.gz")] for n in os.listdir(directory)
                                   if n.endswith(".reference.csv.gz"))
    results = {"tiltd": [], "vqf": [], "imufusion": []}
    vqf_costs = []
    shifts = {"tiltd": [], "vqf": []}
    print("| BROAD trial | tiltd RMSE ° | p95 ° | VQF RMSE ° | p95 ° | Fusion RMSE ° | p95 ° |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        with gzip.open(os.path.join(directory, name + ".csv.gz"), "rt", encoding="utf-8") as f:
            text = f.read()
        data = np.loadtxt(text.splitlines(), delimiter=",", skiprows=1)
        reference = load(os.path.join(directory, name + ".reference.csv.gz"))
        dt = float(np.median(np.diff(data[:, 0])))
        tiltd_ups = tiltd_up(tiltd, text, len(data))
        ours = score(tiltd_ups, reference)
        ups, cost = vqf_up(data, dt)
        theirs = score(ups, reference)
        shifts["tiltd"].append(best_shift_ms(data[:, 0], tiltd_ups, reference))
        shifts["vqf"].append(best_shift_ms(data[:, 0], ups, reference))
        vqf_costs.append(cost)
        fusion = score(fusion_up(data, dt), reference)
        for key, value in (("tiltd", ours), ("vqf", theirs), ("imufusion", fusion)):
            results[key].append(value)
        print(f"| {name} | {ours[0]:.2f} | {ours[1]:.2f} | {theirs[0]:.2f} | {theirs[1]:.2f} | "
              f"{fusion[0]:.2f} | {fusion[1]:.2f} |", flush=True)
    means = {key: (np.mean([v[0] for v in values]), np.mean([v[1] for v in values]))
             for key, values in results.items()}
    print(f"| **mean** | **{means['tiltd'][0]:.3f}** | {means['tiltd'][1]:.2f} | **{means['vqf'][0]:.3f}** | "
          f"{means['vqf'][1]:.2f} | {means['imufusion'][0]:.3f} | {means['imufusion'][1]:.2f} |")
    print()
    for key, values in results.items():
        worst = max(v[0] for v in values)
        print(f"RESULT broad:{key} mean_rmse={means[key][0]:.3f} mean_p95={means[key][1]:.2f} worst_rmse={worst:.2f}")
    for key, values in shifts.items():
        print(f"RESULT broad:{key} shift_ms={','.join(str(v) for v in values)}")
    print(f"RESULT broad:ratio tiltd/vqf={means['tiltd'][0] / means['vqf'][0]:.3f}")
    print(f"RESULT vqf_cost_us_per_sample={1e6 * min(vqf_costs):.3f} (best trial; median "
          f"{1e6 * float(np.median(vqf_costs)):.3f})")


if __name__ == "__main__":
    main()
