#!/usr/bin/env python3
"""Writes the gyroscope buffer scripts under Tests/Fixtures (SPEC section 6).

Each script line is `r <delay ms> <bytes>`: umockdev waits, then makes the
bytes readable on /dev/iio:device0. Bytes below 0x20 are written as '^'
followed by the byte + 64 ('^@' for 0), '^' itself as '^`', and every other
byte, 0x20 included, verbatim; the file is latin-1. A read must not begin
with 0x20 (umockdev would take it for the separator), which `escape` checks.

combined-imu.script follows combined-imu.umockdev (a bmi160-like device):
anglvel x, y, z (le:s16/16, indexes 0-2), accel x, y, z (le:s16/16,
indexes 3-5), 4 bytes of padding, timestamp (le:s64/64) at byte 16: 24-byte
scans. 100 Hz for 4 s, device timestamps 1000 s + 10 ms * i:

- 0-1 s flat and still;
- 1-3 s a known rotation: roll = 0.6 sin(2 pi 0.75 (t - 1)), pitch 0, the
  gyro reading its body rate w = (0, -roll', 0) (so that up' = up x w);
- 3-3.5 s flat again with a sideways shake of +-1.2 g at 6 Hz on x and no
  rotation (the gyro reads 0);
- 3.5-4 s flat and still.

Scales: accel 9.80665/4096 m/s^2 per count, gyro 0.001065264 rad/s per count.

Run from anywhere: python3 Tests/Fixtures/make-gyro-scripts.py
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1_000_000_000_000  # first device timestamp, ns
ACCEL_SCALE = 0.002394202
GYRO_SCALE = 0.001065264
G = 9.80665


def escape(data: bytes) -> str:
    assert data[0] != 0x20, "a scripted read must not begin with 0x20"
    out = []
    for byte in data:
        if byte < 0x20:
            out.append("^" + chr(byte + 64))
        elif byte == ord("^"):
            out.append("^`")
        else:
            out.append(chr(byte))
    return "".join(out)


def truth(t):
    """(roll, roll rate, shake on x in m/s^2) at time t."""
    if 1 <= t < 3:
        phase = 2 * math.pi * 0.75 * (t - 1)
        return 0.6 * math.sin(phase), 0.6 * 2 * math.pi * 0.75 * math.cos(phase), 0.0
    if 3 <= t < 3.5:
        return 0.0, 0.0, 1.2 * G * math.sin(2 * math.pi * 6 * (t - 3))
    return 0.0, 0.0, 0.0


def scan(i):
    t = i / 100
    roll, rate, shake = truth(t)
    accel = [G * math.sin(roll) + shake, 0.0, G * math.cos(roll)]
    gyro = [0.0, -rate, 0.0]
    counts = [round(v / GYRO_SCALE) for v in gyro] + [round(v / ACCEL_SCALE) for v in accel]
    # Nudge the first byte off 0x20 (one count, far below the sensor's noise).
    if counts[0] & 0xFF == 0x20:
        counts[0] += 1
    return struct.pack("<hhhhhhiq", *counts, 0, T0 + i * 10_000_000)


def main():
    lines = [f"r 10 {escape(scan(i))}" for i in range(400)]
    with open(os.path.join(HERE, "combined-imu.script"), "w", encoding="latin-1", newline="\n") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
