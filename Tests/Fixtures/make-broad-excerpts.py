#!/usr/bin/env python3
"""Cut the BROAD excerpts the motion tests use (README.md here: attribution).

Usage: Tests/Fixtures/make-broad-excerpts.py BROAD_DIR

From BROAD_DIR (the shared data's broad/ folder: NAME.csv.gz and
NAME.reference.csv.gz) writes, time from 0, samples and reference side by
side (time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z,up_x,up_y,up_z,movement):
- broad-15-translation.csv and broad-26-vibration.csv: 20 s each (6 s of
  rest, then 14 s of the movement phase), every third sample (95.2 Hz, a
  phone's rate);
- broad-06-fast-rotation.csv: 12 s of fast hand rotation from the second
  half of the trial, every sample (285.7 Hz).
"""

import gzip
import os
import sys

# (trial, file, start s, seconds, every n-th sample)
EXCERPTS = [("15_undisturbed_fast_translation_A", "broad-15-translation.csv", 34.5, 20.0, 3),
            ("26_disturbed_phone_vibration_A", "broad-26-vibration.csv", 39.3, 20.0, 3),
            ("06_undisturbed_fast_rotation_A", "broad-06-fast-rotation.csv", 120.7, 12.0, 1)]


def rows(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        next(f)
        return [line.strip().split(",") for line in f]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    here = os.path.dirname(os.path.abspath(__file__))
    for name, out, start, seconds, step in EXCERPTS:
        samples = rows(os.path.join(sys.argv[1], name + ".csv.gz"))
        reference = rows(os.path.join(sys.argv[1], name + ".reference.csv.gz"))
        lines = ["time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z,up_x,up_y,up_z,movement"]
        for i in range(0, len(samples), step):
            t = float(samples[i][0])
            if start <= t < start + seconds:
                lines.append(",".join([f"{t - start:.6f}"] + samples[i][1:] + reference[i][1:]))
        with open(os.path.join(here, out + ".tmp"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(os.path.join(here, out + ".tmp"), os.path.join(here, out))


if __name__ == "__main__":
    main()
