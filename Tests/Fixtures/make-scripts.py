#!/usr/bin/env python3
"""Writes the umockdev buffer scripts under Tests/Fixtures (SPEC §6).

Lines and escaping come from umockdev_script.py (shared with
make-gyro-scripts.py; no read may begin with 0x20, checked there). Scans follow the fixtures' scan_elements: three le:s16/32 axes and
an le:s64/64 timestamp, 24 bytes with 4 bytes of padding (IIO ABI alignment).

Run from anywhere: python3 Tests/Fixtures/make-scripts.py
"""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umockdev_script import escape  # noqa: E402
import umockdev_script  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1_000_000_000_000  # first device timestamp, ns


def scan(x: int, y: int, z: int, timestamp: int) -> bytes:
    data = struct.pack("<iiiiq", x, y, z, 0, timestamp)
    assert len(data) == 24
    return data


def write(name: str, lines: list) -> None:
    umockdev_script.write(os.path.join(HERE, name), lines)


def tilting(count: int, period_ms: int, delay_ms: int) -> list:
    """Upright (0, -256, 0) rolling slowly: x swings ±64 counts (1 g = 256)."""
    lines = []
    for i in range(count):
        x = round(64 * math.sin(2 * math.pi * i / 40))
        lines.append(f"r {delay_ms} " + escape(scan(x, -256, 20, T0 + i * period_ms * 1_000_000)))
    return lines


# 20 scans 10 ms apart (device timestamps), delivered every 10 ms.
write("buffered.script", tilting(20, 10, 10))
# 800 scans at 100 Hz (8 s) for the SIGINT test.
write("steady.script", tilting(800, 10, 10))
# 4000 scans at 200 Hz for the capture benchmark (20 s).
write("bench-200hz.script", tilting(4000, 5, 5))
# A buffer that stays silent far longer than 0.5 s: its one scan comes after
# 2 s (umockdev-run waits for the script to end, so not much longer).
write("silent.script", ["r 2000 " + escape(scan(100, 100, 100, T0))])
