#!/usr/bin/env python3
"""Convert the public IMU recordings (scikit-kinematics test data) to tiltd traces.

Usage: scripts/convert-recordings.py DATA_DIR [OUT_DIR]
  DATA_DIR holds ngimu/sensors.csv, ngimu/quaternion.csv, yei/data_yei.txt and
  LICENSE.txt (scikit-kinematics' tests/data folder, or the shared data folder
  of the tiltd build machine). OUT_DIR defaults to recordings/ in this
  repository. Writes ngimu-hand-motion.trace and yei-quiet-handling.trace
  (format 2: accelerometer and gyroscope), ngimu-hand-motion.reference.csv
  (the NGIMU's own attitude, the accuracy reference for bench/accuracy.sh)
  and the clearly labelled synthetic-tilt-sweep.trace; copies LICENSE.txt.

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
The gyroscope (NGIMU deg/s, YEI rad/s) shares the accelerometer's axes (checked
against the data: the NGIMU's own attitude moves as v' = v x w with its gyro),
so its rates get the same matrix; M is a proper rotation (det +1), so the
pseudovector needs no extra sign. Gyro rates are written in rad/s.

Reference: the NGIMU's quaternion (w, x, y, z) gives the sensor-frame "up"
direction (2(xz + wy), 2(yz - wx), w^2 - x^2 - y^2 + z^2) -- measured against
the still samples' accelerations (median 0.2 deg); the sign of the wy and wx
terms in SPEC section 11 disagrees with the data (median 3.5 deg, p95 9 deg).
"""

import argparse
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


def apply(raw, scale=G):
    scaled = [v * scale for v in raw]
    return [sum(row[j] * scaled[j] for j in range(3)) for row in MATRIX]


def write_whole(path, text):
    """Writes the file whole: a temporary name beside it, then rename."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    temporary.replace(path)


def write_trace(path, header, samples):
    """samples: (timestamp_ns, raw or None, acceleration[, gyro_raw, gyro_rad_s])."""
    version = 2 if any(len(sample) > 3 for sample in samples) else 1
    lines = [f"tiltd-trace {version}"] + [f"# {key}: {value}" for key, value in header]
    for sample in samples:
        t, raw, accel = sample[:3]
        line = f"s {t} " + " ".join(number(v) for v in accel)
        if raw is not None:
            line += " " + " ".join(number(v) for v in raw)
        if len(sample) > 3:
            gyro_raw, gyro = sample[3:5]
            line += " w " + " ".join(number(v) for v in gyro) + " " + " ".join(number(v) for v in gyro_raw)
        lines.append(line)
    write_whole(path, "\n".join(lines) + "\n")


def rate(timestamps_ns):
    steps = [b - a for a, b in zip(timestamps_ns, timestamps_ns[1:])]
    return round(1e9 / statistics.median(steps), 1)


def common_header(name, source, note):
    return [("name", name), ("scale", f"{number(G)} {number(G)} {number(G)}"), ("offset", "0 0 0"),
            ("mount-matrix", MATRIX_TEXT), ("mount-matrix-source", "assumed"),
            ("tiltd-version", "0.1.0"), ("axis-mapping", AXIS_NOTE), ("converted-by", "scripts/convert-recordings.py"),
            ("licence", LICENCE), ("source", source), ("synthetic", "no"), ("note", note)]


def gyro_header(scale_text, rate_hz):
    return [("gyro-name", "gyroscope of the same IMU"), ("gyro-pairing", "same device"),
            ("gyro-scale", f"{scale_text} {scale_text} {scale_text}"), ("gyro-offset", "0 0 0"),
            ("gyro-mount-matrix", MATRIX_TEXT), ("gyro-mount-matrix-source", "assumed"),
            ("gyro-sampling-frequency-hz", number(rate_hz))]


def convert_ngimu(data, out):
    rows = []
    degree = math.pi / 180
    with open(data / "ngimu" / "sensors.csv", encoding="utf-8") as f:
        next(f)  # header: Time (s), Gyroscope X..Z (deg/s), Accelerometer X..Z (g), ...
        for line in f:
            fields = line.strip().split(",")
            if len(fields) < 7:
                continue
            t = round(float(fields[0]) * 1e9)
            raw = [float(v) for v in fields[4:7]]
            gyro_raw = [float(v) for v in fields[1:4]]
            rows.append((t, raw, apply(raw), gyro_raw, apply(gyro_raw, degree)))
    header = common_header(
        "NGIMU (x-io Technologies)",
        "scikit-kinematics test data, ngimu/sensors.csv (Thomas Haslwanter)",
        "10 s of vigorous hand motion; |a| from 0.16 to 7.5 g; gyro in deg/s (raw) converted to rad/s")
    hertz = rate([r[0] for r in rows])
    header.insert(5, ("sampling-frequency-hz", number(hertz)))
    write_trace(out / "ngimu-hand-motion.trace", header + gyro_header(number(degree), hertz), rows)
    write_reference(data, out)
    return len(rows)


def write_reference(data, out):
    """The NGIMU's own attitude as its "up" direction in the IIO frame."""
    lines = ["# The NGIMU's own orientation estimate (its AHRS, gain 0.5) from scikit-kinematics' test data,",
             f"# ngimu/quaternion.csv; {LICENCE}.",
             "# up = M . (2(xz + wy), 2(yz - wx), w^2 - x^2 - y^2 + z^2): the direction the accelerometer",
             "# reads at rest, in the trace's frame (see scripts/convert-recordings.py).",
             "time_s,up_x,up_y,up_z,w,x,y,z"]
    with open(data / "ngimu" / "quaternion.csv", encoding="utf-8") as f:
        next(f)  # header: Time (s), W, X, Y, Z
        for line in f:
            fields = line.strip().split(",")
            if len(fields) < 5:
                continue
            w, x, y, z = (float(v) for v in fields[1:5])
            up = apply([2 * (x * z + w * y), 2 * (y * z - w * x), w * w - x * x - y * y + z * z], 1)
            lines.append(",".join([fields[0]] + [number(v) for v in up] + fields[1:5]))
    write_whole(out / "ngimu-hand-motion.reference.csv", "\n".join(lines) + "\n")


def convert_yei(data, out):
    rows = []
    with open(data / "yei" / "data_yei.txt", encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("#") or not line.strip():
                continue  # the column description
            fields = line.strip().split(",")
            t = int(fields[0]) * 1000  # chip time in microseconds
            raw = [float(v) for v in fields[7:10]]
            gyro_raw = [float(v) for v in fields[1:4]]
            rows.append((t, raw, apply(raw), gyro_raw, apply(gyro_raw, 1)))
    header = common_header(
        "YEI 3-Space Sensor",
        "scikit-kinematics test data, yei/data_yei.txt (Thomas Haslwanter)",
        "quiet handling; timestamps are the sensor's chip time; gyro in rad/s")
    hertz = rate([r[0] for r in rows])
    header.insert(5, ("sampling-frequency-hz", number(hertz)))
    write_trace(out / "yei-quiet-handling.trace", header + gyro_header("1", hertz), rows)
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
    parser = argparse.ArgumentParser(
        description="Convert the NGIMU and YEI recordings of scikit-kinematics' test data to tiltd traces "
                    "(accelerometer + gyroscope, format 2) and the NGIMU reference attitude.")
    parser.add_argument("data_dir", metavar="DATA_DIR", type=Path,
                        help="folder with ngimu/sensors.csv, ngimu/quaternion.csv, yei/data_yei.txt, LICENSE.txt")
    parser.add_argument("out_dir", metavar="OUT_DIR", type=Path, nargs="?", default=root / "recordings",
                        help="where to write the traces (default: %(default)s)")
    args = parser.parse_args()
    data, out = args.data_dir, args.out_dir
    needed = ["LICENSE.txt", "ngimu/sensors.csv", "ngimu/quaternion.csv", "yei/data_yei.txt"]
    missing = [name for name in needed if not (data / name).is_file()]
    if missing:
        sys.exit(f"convert-recordings.py: {data}: missing {', '.join(missing)}; pass the folder that holds "
                 "scikit-kinematics' test data (ngimu/ and yei/)")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(data / "LICENSE.txt", out / "LICENSE.txt")
    print(f"ngimu: {convert_ngimu(data, out)} samples")
    print(f"yei: {convert_yei(data, out)} samples")
    print(f"synthetic: {synthetic_sweep(out)} samples")


if __name__ == "__main__":
    main()
