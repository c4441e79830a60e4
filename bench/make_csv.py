#!/usr/bin/env python3
"""Writes the end-to-end benchmark's CSV: LINES samples (default 1,000,000)
of 100 Hz hand-held motion like PipelineBench's, in m/s^2, 6 decimals.

Usage: make_csv.py OUT.csv [LINES]
"""

import sys

import numpy as np

from pipeline_peer import make_readings


def main():
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    timestamps, a = make_readings(count)
    table = np.column_stack([timestamps * 1e-9, a])
    np.savetxt(path, table, fmt="%.6f", delimiter=",", header="time_s,accel_x,accel_y,accel_z", comments="")


if __name__ == "__main__":
    main()
