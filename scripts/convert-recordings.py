#!/usr/bin/env python3
"""Convert the public IMU recordings in ../shared/data to tiltd traces.

Usage: scripts/convert-recordings.py [DATA_DIR] [OUT_DIR]
  DATA_DIR defaults to /work/shared/data, OUT_DIR to recordings/ beside this
  script's parent. Writes ngimu-hand-motion.trace, yei-quiet-handling.trace and
  the clearly labelled synthetic-tilt-sweep.trace; copies LICENSE.txt.

The trace format is described in docs/trace-format.md. Numbers are written
with repr(), which is locale independent and reads back exactly.

Axis mapping (an assumption: these IMUs are not IIO devices). Both report
specific force in g in a right-handed frame that reads +1 g on z when lying
flat, like Android's (x toward the right edge, y toward the top edge, z out of
the face). Linux IIO's de facto frame (SPEC §3: upright reads (0, -g, 0), left
edge up reads x > 0, face up z > 0) is that frame turned by 180 degrees about
z. So each sample is: acceleration = M . (raw_g * 9.80665) with
M = "-1, 0, 0; 0, -1, 0; 0, 0, 1", recorded in the header as the mount matrix
with source "assumed". Raw values stay in g (scale 9.80665 m/s^2 per unit).
"""

import math
import shutil
import statistics
import sys
from pathlib import Path

G = 9.80665  # standard gravity, m/s^2 per g
MATRIX = ((-1, 0, 0), (0, -1, 0), (0, 0, 1))
MATRIX_TEXT = "-1, 0, 0; 0, -1, 0; 0, 0, 1"
AXIS_NOTE = ("assumed: IMU axes as Android's (x right, y top, z out of the face, +1 g z lying flat), "
             "turned 180 deg about z into the IIO convention; see recordings/README.md")
LICENCE = "BSD-3-Clause, Copyright (C) 2016 Thomas Haslwanter (recordings/LICENSE.txt)"


def number(value):
    """Shortest exact text; integers without a fraction."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def apply(raw):
    scaled = [v * G for v in raw]
    return [sum(row[j] * scaled[j] for j in range(3)) for row in MATRIX]


def write_trace(path, header, samples):
    """samples: (timestamp_ns, raw or None, acceleration)."""
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write("tiltd-trace 1\n")
        for key, value in header:
            out.write(f"# {key}: {value}\n")
        for t, raw, accel in samples:
            line = f"s {t} " + " ".join(number(v) for v in accel)
            if raw is not None:
                line += " " + " ".join(number(v) for v in raw)
            out.write(line + "\n")


def rate(timestamps_ns):
    steps = [b - a for a, b in zip(timestamps_ns, timestamps_ns[1:])]
    return round(1e9 / statistics.median(steps), 1)


def common_header(name, source, note):
    return [("name", name), ("scale", f"{number(G)} {number(G)} {number(G)}"), ("offset", "0 0 0"),
            ("mount-matrix", MATRIX_TEXT), ("mount-matrix-source", "assumed"),
            ("tiltd-version", "0.1.0"), ("axis-mapping", AXIS_NOTE), ("converted-by", "scripts/convert-recordings.py"),
            ("licence", LICENCE), ("source", source), ("synthetic", "no"), ("note", note)]


def convert_ngimu(data, out):
    rows = []
    with open(data / "ngimu" / "sensors.csv", encoding="utf-8") as f:
        next(f)  # header: Time (s), Gyroscope X..Z, Accelerometer X..Z (g), ...
        for line in f:
            fields = line.strip().split(",")
            if len(fields) < 7:
                continue
            t = round(float(fields[0]) * 1e9)
            raw = [float(v) for v in fields[4:7]]
            rows.append((t, raw, apply(raw)))
    header = common_header(
        "NGIMU (x-io Technologies)",
        "scikit-kinematics test data, ngimu/sensors.csv (Thomas Haslwanter)",
        "10 s of vigorous hand motion; |a| from 0.16 to 7.5 g")
    header.insert(5, ("sampling-frequency-hz", number(rate([r[0] for r in rows]))))
    write_trace(out / "ngimu-hand-motion.trace", header, rows)
    return len(rows)


def convert_yei(data, out):
    rows = []
    with open(data / "yei" / "data_yei.txt", encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("#") or not line.strip():
                continue  # the column description
            fields = line.strip().split(",")
            t = int(fields[0]) * 1000  # chip time in microseconds
            raw = [float(v) for v in fields[7:10]]
            rows.append((t, raw, apply(raw)))
    header = common_header(
        "YEI 3-Space Sensor",
        "scikit-kinematics test data, yei/data_yei.txt (Thomas Haslwanter)",
        "quiet handling; timestamps are the sensor's chip time")
    header.insert(5, ("sampling-frequency-hz", number(rate([r[0] for r in rows]))))
    write_trace(out / "yei-quiet-handling.trace", header, rows)
    return len(rows)


def synthetic_sweep(out):
    """SYNTHETIC: 12 s at 100 Hz, flat, then a roll wobble, then a slow pitch
    sweep from face up past upright onto the back and back again."""
    rows = []
    for i in range(1200):
        t = i * 10_000_000
        s = i / 100
        roll = 0.5 * math.sin(2 * math.pi * s / 4) if s < 4 else 0.15 * math.sin(2 * math.pi * s / 3)
        pitch = 0.0 if s < 4 else 2.0 * math.sin(math.pi * (s - 4) / 8)
        # Gravity direction for a CoreMotion attitude, in the IIO frame (SPEC section 3).
        accel = [9.81 * math.cos(pitch) * math.sin(roll), -9.81 * math.sin(pitch),
                 9.81 * math.cos(pitch) * math.cos(roll)]
        rows.append((t, None, accel))
    header = [("name", "synthetic"), ("sampling-frequency-hz", "100"), ("tiltd-version", "0.1.0"),
              ("synthetic", "yes"), ("converted-by", "scripts/convert-recordings.py"),
              ("note", "SYNTHETIC, not measured: computed roll wobble then a pitch sweep past upright and back")]
    write_trace(out / "synthetic-tilt-sweep.trace", header, rows)
    return len(rows)


def main():
    root = Path(__file__).resolve().parent.parent
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/data")
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else root / "recordings"
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(data / "LICENSE.txt", out / "LICENSE.txt")
    print(f"ngimu: {convert_ngimu(data, out)} samples")
    print(f"yei: {convert_yei(data, out)} samples")
    print(f"synthetic: {synthetic_sweep(out)} samples")


if __name__ == "__main__":
    main()
