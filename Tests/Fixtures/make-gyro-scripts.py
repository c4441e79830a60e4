#!/usr/bin/env python3
"""Writes the gyroscope buffer scripts under Tests/Fixtures (SPEC section 6).

Lines and escaping come from umockdev_script.py (shared with
make-scripts.py): bytes below 0x20 as '^X', '^' as '^`', 0x20 verbatim, and
no read may begin with 0x20 (checked there).

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

sibling-accel.script and sibling-gyro.script follow sibling-buffered.umockdev
(st_lsm6dsx-style lsm6dsm_accel + lsm6dsm_gyro, each with its own buffer):
the same motion split in two streams of 16-byte scans (x, y, z le:s16/16,
2 bytes of padding, timestamp le:s64/64 at byte 8). The accelerometer's
timestamps are 1000 s + 10 ms * i, the gyro's 5 ms later (1000.005 s +
10 ms * i), so every accelerometer sample falls between two gyro scans.
sibling-gyro-dies.script is the gyro's first 100 scans only (1 s): then its
buffer falls silent while the accelerometer's goes on.

The gyro scripts of a merged pair (sibling-gyro.script, hid-gyro.script and
sibling-gyro-dies.script) deliver their first GYRO_LEAD scans at once, so
the gyro's buffer runs 400 ms ahead of the accelerometer's in wall time
(its device timestamps are unchanged). umockdev plays each script on its
own thread and each delay counts from the previous write, so on a loaded
machine the two streams drift apart by the scheduling delays they collect;
with the lead, a gyro thread that falls behind by less than 400 ms still
covers every accelerometer sample, and the merge by device timestamp (not
by arrival) is what these scripts test. A gyro that does fall behind is
DeviceGyroLagTests' case (sibling-gyro-stalls.script).
hid-gyro.script goes further and delivers every scan at once (HID_GYRO_LEAD): a loaded
full run once had the HID gyro's thread fall more than 400 ms behind (340 of
400 samples paired), and DeviceHIDGyroBufferTests tests the pairing of the
hub's two buffers, not a lagging gyro, so its gyro can never be behind.

sibling-accel-still.script and sibling-gyro-stalls.script script a gyro that
falls behind a steady accelerometer: the accelerometer flat and still for
3 s; the gyro, on the same device timestamps as above, reads 0 but for a
twitch there and back (+0.5 rad/s about y for 30 ms, then -0.5 rad/s for
30 ms, ending at 1 s: a net turn of nothing), then stalls: leading by
GYRO_LEAD scans until then like the other gyro scripts, its scan of
1.005 s comes 500 ms late and every later one as late (a buffer delivered
late, as umockdev's playback is on a loaded machine). A merge that holds
the twitch's last rate through the stall turns the estimate by
0.5 rad/s * 0.5 s (14 degrees) though nothing moved.

hid-accel.script and hid-gyro.script follow hid-hub-buffered.umockdev (an
HID sensor hub's accel_3d and gyro_3d, each with its own buffer, as
hid-sensor-accel-3d and hid-sensor-gyro-3d lay them out): the motion of
combined-imu.script in two streams of 24-byte scans (x, y, z le:s32/32,
4 bytes of padding, timestamp le:s64/64 at byte 16), the gyro's 5 ms after
the accelerometer's; HID scales: accel 0.0098066 m/s^2 per count (1 mg),
gyro 0.000174533 rad/s per count (0.01 degree/s).

Scales: accel 9.80665/4096 m/s^2 per count, gyro 0.001065264 rad/s per count.

Run from anywhere: python3 Tests/Fixtures/make-gyro-scripts.py
"""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umockdev_script import escape, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1_000_000_000_000  # first device timestamp, ns
ACCEL_SCALE = 0.002394202
GYRO_SCALE = 0.001065264
G = 9.80665


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


def counts(values, scale):
    out = [round(v / scale) for v in values]
    # Nudge the first byte off 0x20 (one count, far below the sensor's noise).
    if out[0] & 0xFF == 0x20:
        out[0] += 1
    return out


GYRO_LEAD = 40  # scans delivered at once at the start: 400 ms ahead
HID_GYRO_LEAD = 400  # hid-gyro.script: every scan at once, never behind
HID_ACCEL_SCALE = 0.0098066
HID_GYRO_SCALE = 0.000174533


def split_accel(i, layout="<hhhhq", scale=ACCEL_SCALE):
    """The accelerometer's scan i of the scripted motion on its own device."""
    roll, _, shake = truth(i / 100)
    accel = [G * math.sin(roll) + shake, 0.0, G * math.cos(roll)]
    return struct.pack(layout, *counts(accel, scale), 0, T0 + i * 10_000_000)


def split_gyro(i, layout="<hhhhq", scale=GYRO_SCALE):
    """The gyro's scan i on its own device, 5 ms after the accelerometer's."""
    _, rate, _ = truth(i / 100 + 0.005)
    return struct.pack(layout, *counts([0.0, -rate, 0.0], scale), 0, T0 + i * 10_000_000 + 5_000_000)


def still_accel(i):
    return struct.pack("<hhhhq", *counts([0.0, 0.0, G], ACCEL_SCALE), 0, T0 + i * 10_000_000)


def stalling_gyro(i):
    rate = 0.5 if 94 <= i < 97 else -0.5 if 97 <= i < 100 else 0.0
    return struct.pack("<hhhhq", *counts([0.0, rate, 0.0], GYRO_SCALE), 0, T0 + i * 10_000_000 + 5_000_000)


def main():
    write(os.path.join(HERE, "combined-imu.script"), [f"r 10 {escape(scan(i))}" for i in range(400)])
    write(os.path.join(HERE, "sibling-accel.script"), [f"r 10 {escape(split_accel(i))}" for i in range(400)])
    gyro = [f"r {0 if i < GYRO_LEAD else 10} {escape(split_gyro(i))}" for i in range(400)]
    write(os.path.join(HERE, "sibling-gyro.script"), gyro)
    write(os.path.join(HERE, "sibling-gyro-dies.script"), gyro[:100])
    write(os.path.join(HERE, "hid-accel.script"), [f"r 10 {escape(split_accel(i, '<iiiiq', HID_ACCEL_SCALE))}" for i in range(400)])
    write(os.path.join(HERE, "hid-gyro.script"), [f"r {0 if i < HID_GYRO_LEAD else 10} {escape(split_gyro(i, '<iiiiq', HID_GYRO_SCALE))}"
                                                      for i in range(400)])
    write(os.path.join(HERE, "sibling-accel-still.script"), [f"r 10 {escape(still_accel(i))}" for i in range(300)])
    write(os.path.join(HERE, "sibling-gyro-stalls.script"),
          [f"r {0 if i < GYRO_LEAD else 10 + 10 * GYRO_LEAD + 500 if i == 100 else 10} {escape(stalling_gyro(i))}"
           for i in range(300)])


if __name__ == "__main__":
    main()
