#!/usr/bin/env python3
"""Python peer of `tiltd replay FILE` for a CSV with header
time_s,accel_x,accel_y,accel_z (m/s^2): numpy loadtxt, the numpy+scipy
pipeline of pipeline_peer.py, and one json.dumps per state on stdout.

Usage: replay_peer.py FILE > states.jsonl
"""

import json
import sys

import numpy as np

from pipeline_peer import pipeline


def main():
    data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
    timestamps = np.rint(data[:, 0] * 1e9).astype(np.int64)
    t, roll, pitch, shines = pipeline(timestamps, data[:, 1:4])
    out = sys.stdout
    for i in range(len(t)):
        s = shines[i]
        out.write(json.dumps({
            "t": round(int(t[i]) * 1e-9, 6), "roll": round(float(roll[i]), 4), "pitch": round(float(pitch[i]), 4),
            "orientation": "undefined",
            "shine": [{"rotation": round(float(s[0]), 4), "opacity": round(float(s[1]), 4)},
                      {"rotation": round(float(s[2]), 4), "opacity": round(float(s[3]), 4)}],
        }, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
