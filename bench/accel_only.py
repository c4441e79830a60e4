#!/usr/bin/env python3
"""Accelerometer-only tilt accuracy on recordings with a reference (issue 22 item 5).

Usage: bench/accel_only.py TILTD LABEL RECORDING... [-- replay options...]

Each RECORDING is TRACE_OR_CSV:REFERENCE_CSV (a .gz is decompressed to a
temporary file). Runs `TILTD replay --no-gate --no-gyro --screen-orientation
normal RECORDING [options]` (the screen fixed, so that the angles stay in
the device's frame and only the filter is measured) and compares each
state's gravity direction with the reference's up direction, as
bench/accuracy.py does: median and p95 of the tilt error over every sample
after the first second, and the lag (the shift in 1 ms steps within
±400 ms that minimises the mean squared error; positive: tiltd trails).
Reference rows with `nan` (occluded markers) are left out, and so is a
state whose reference would be interpolated across more than 50 ms.

Prints one RESULT line per recording and one for all of them pooled:

  RESULT <label> <name> median=<deg> p95=<deg> lag_ms=<ms> samples=<n>
"""

import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np


def read_reference(path):
    """(times, unit up vectors) of the rows with a reference (no nan)."""
    rows = np.atleast_2d(np.genfromtxt(path, delimiter=",", skip_header=1, comments="#"))
    rows = rows[~np.isnan(rows[:, :4]).any(axis=1)]
    return rows[:, 0], rows[:, 1:4]


def replay(tiltd, recording, options):
    path = recording
    temporary = None
    if recording.endswith(".gz"):
        temporary = tempfile.NamedTemporaryFile("wb", suffix=os.path.basename(recording)[:-3], delete=False)
        with gzip.open(recording, "rb") as f:
            temporary.write(f.read())
        temporary.close()
        path = temporary.name
    try:
        output = subprocess.run([tiltd, "replay", "--no-gate", "--no-gyro", "--screen-orientation", "normal",
                                 path] + options, check=True, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True).stdout
    finally:
        if temporary:
            os.unlink(temporary.name)
    t, n = [], []
    for line in output.splitlines():
        state = json.loads(line)
        r, p = state["roll"], state["pitch"]
        t.append(state["t"])
        n.append((math.cos(p) * math.sin(r), -math.sin(p), math.cos(p) * math.cos(r)))
    return np.array(t), np.array(n)


def reference_at(ref_t, ref_up, t):
    """Unit reference vectors at times t, and a mask of the usable ones."""
    up = np.stack([np.interp(t, ref_t, ref_up[:, k]) for k in range(3)], axis=1)
    up /= np.linalg.norm(up, axis=1, keepdims=True)
    after = np.clip(np.searchsorted(ref_t, t), 1, len(ref_t) - 1)
    usable = (t >= ref_t[0]) & (t <= ref_t[-1]) & (ref_t[after] - ref_t[after - 1] <= 0.05)
    return up, usable


def errors_deg(n, up):
    return np.degrees(np.arccos(np.clip(np.sum(n * up, axis=1), -1, 1)))


def percentile(values, q):
    ordered = np.sort(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(tiltd, recording, reference, options):
    t, n = replay(tiltd, recording, options)
    ref_t, ref_up = read_reference(reference)
    keep = t >= t[0] + 1.0
    t, n = t[keep], n[keep]
    up, usable = reference_at(ref_t, ref_up, t)
    errors = errors_deg(n[usable], up[usable])
    best = None
    for shift_ms in range(-400, 401):
        up_s, usable_s = reference_at(ref_t, ref_up, t - shift_ms / 1000)
        if not usable_s.any():
            continue
        mse = np.mean(errors_deg(n[usable_s], up_s[usable_s]) ** 2)
        if best is None or mse < best[1]:
            best = (shift_ms, mse)
    return errors, best[0]


def main():
    arguments = sys.argv[1:]
    options = []
    if "--" in arguments:
        options = arguments[arguments.index("--") + 1:]
        arguments = arguments[:arguments.index("--")]
    if len(arguments) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    tiltd, label = arguments[:2]
    pooled, lags = [], []
    for pair in arguments[2:]:
        recording, reference = pair.split(":")
        errors, lag = measure(tiltd, recording, reference, options)
        name = os.path.basename(recording).split(".")[0]
        print(f"RESULT {label} {name} median={np.median(errors):.2f} p95={percentile(errors, 0.95):.2f} "
              f"lag_ms={lag} samples={len(errors)}", flush=True)
        pooled.append(errors)
        lags.append(lag)
    errors = np.concatenate(pooled)
    print(f"RESULT {label} pooled median={np.median(errors):.2f} p95={percentile(errors, 0.95):.2f} "
          f"lag_ms={np.median(lags):.0f} samples={len(errors)}", flush=True)


if __name__ == "__main__":
    main()
