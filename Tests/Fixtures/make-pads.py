#!/usr/bin/env python3
"""Writes the fake game-pad motion sensors (evdev) for umockdev.

For each pad: `<pad>.umockdev` (the udev device: node, properties),
`<pad>.ioctl` (what libevdev asks the node: name, ids, property and event
bits, axis ranges; SPEC §6) and `<pad>.events` (evemu events played when the
node is first opened). Also `keyboard.umockdev`, an input device beside them
that tiltd must never open. Run from anywhere; the files are committed.

Ioctls are matched by their exact request number, which includes the buffer
size (umockdev takes the size from the hex data), so every bitmask is written
at the size libevdev 1.13 asks for on x86-64 (EV 8, KEY 96, FF 16, others 8
bytes; names 255 bytes). In the evemu file the fraction of `E: sec.usec` is
read as a plain count of µs (no zero padding: umockdev reads it with base 0).

The scripted motion is given as tiltd's roll and pitch (SPEC §3) and turned
into the pad's own frame (what hid-playstation, hid-nintendo and hid-steam
report: x to the right grip, y out of the face, z toward the player), so a
test that reads the states back checks the whole chain: resolution, the pad
matrix, the pipeline.
"""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umockdev_script import escape, write as write_script  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0, 1, 3, 4
SYN_REPORT, SYN_DROPPED = 0, 3
ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ = 0, 1, 2, 3, 4, 5
MSC_TIMESTAMP = 5
INPUT_PROP_ACCELEROMETER = 6


def bits(size, *numbers):
    data = bytearray(size)
    for n in numbers:
        data[n // 8] |= 1 << (n % 8)
    return data.hex().upper()


def text(value, size=255):
    raw = value.encode() + b"\0"
    return len(raw), (raw + bytes(size - len(raw))).hex().upper()


def absinfo(value, minimum, maximum, fuzz, flat, resolution):
    return struct.pack("<6i", value, minimum, maximum, fuzz, flat, resolution).hex().upper()


def ioctl_file(name, vendor, product, version, accel, gyro, accel_values=None):
    """accel/gyro: (range, fuzz, resolution); accel_values: the raw x, y, z
    EVIOCGABS gives (lying face up, +1 g on y, when None)."""
    name_len, name_hex = text(name)
    lines = [
        f"EVIOCGBIT(0) 8 {bits(8, EV_SYN, EV_ABS, EV_MSC)}",
        f"EVIOCGNAME(0) {name_len} {name_hex}",
        f"EVIOCGPHYS(0) 18 {text('usb-0000:00:14.0-2')[1]}",
        f"EVIOCGUNIQ(0) 1 {text('')[1]}",
        f"EVIOCGID 0 {struct.pack('<4H', 3, vendor, product, version).hex().upper()}",
        f"EVIOCGVERSION 0 {struct.pack('<i', 0x010001).hex().upper()}",
        f"EVIOCGPROP(0) 8 {bits(8, INPUT_PROP_ACCELEROMETER)}",
        f"EVIOCGBIT(1) 96 {bits(96)}",
        f"EVIOCGBIT(2) 8 {bits(8)}",
        f"EVIOCGBIT(3) 8 {bits(8, ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ)}",
        f"EVIOCGBIT(4) 8 {bits(8, MSC_TIMESTAMP)}",
        f"EVIOCGBIT(17) 8 {bits(8)}",
        f"EVIOCGBIT(5) 8 {bits(8)}",
        f"EVIOCGBIT(21) 16 {bits(16)}",
        f"EVIOCGBIT(18) 8 {bits(8)}",
        f"EVIOCGKEY(0) 0 {bits(96)}",
        f"EVIOCGLED(0) 0 {bits(8)}",
        f"EVIOCGSW(0) 0 {bits(8)}",
    ]
    for code in (ABS_X, ABS_Y, ABS_Z):
        span, fuzz, res = accel
        value = accel_values[code - ABS_X] if accel_values else (res if code == ABS_Y else 0)
        lines.append(f"EVIOCGABS({code}) 0 {absinfo(value, -span, span, fuzz, 0, res)}")
    for code in (ABS_RX, ABS_RY, ABS_RZ):
        span, fuzz, res = gyro
        lines.append(f"EVIOCGABS({code}) 0 {absinfo(0, -span, span, fuzz, 0, res)}")
    return "\n".join(lines) + "\n"


def umockdev_file(sysfs, event, name, vendor, product):
    """The event node and its parent input device, whose sysfs `name` and
    `id/*` tiltd reads to choose a pad without opening it."""
    minor = 64 + event
    return "\n".join([
        f"P: {sysfs}/event{event}",
        f"N: input/event{event}",
        f"E: DEVNAME=/dev/input/event{event}",
        "E: SUBSYSTEM=input",
        "E: MAJOR=13",
        f"E: MINOR={minor}",
        "E: ID_INPUT=1",
        "E: ID_INPUT_ACCELEROMETER=1",
        f"A: dev=13:{minor}\\n",
        "",
        f"P: {sysfs}",
        "E: SUBSYSTEM=input",
        f"E: PRODUCT=3/{vendor:x}/{product:x}/8111",
        f'E: NAME="{name}"',
        "E: ID_INPUT=1",
        "E: ID_INPUT_ACCELEROMETER=1",
        f"A: name={name}\\n",
        f"A: id/vendor={vendor:04x}\\n",
        f"A: id/product={product:04x}\\n",
        "",
    ])


# Pad frame = Mᵀ · tiltd frame, with M the pad matrix tiltd applies
# (docs/devices.md): tiltd x = −pad x, tiltd y = pad z, tiltd z = pad y.
def pad_vector(v):
    return (-v[0], v[2], v[1])


def unit(roll, pitch):
    """The specific-force direction tiltd reads at this attitude (SPEC §3)."""
    return (math.sin(roll) * math.cos(pitch), -math.sin(pitch), math.cos(roll) * math.cos(pitch))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def attitude(t, keys):
    """Piecewise-linear (roll, pitch) through keys [(t, roll, pitch)]."""
    for (t0, r0, p0), (t1, r1, p1) in zip(keys, keys[1:]):
        if t0 <= t <= t1:
            f = (t - t0) / (t1 - t0) if t1 > t0 else 1
            return r0 + (r1 - r0) * f, p0 + (p1 - p0) * f
    return keys[-1][1], keys[-1][2]


def events_file(keys, period_us, duration_s, accel_res, gyro_res, first_stamp_us):
    lines = ["# EVEMU 1.3"]
    sec, usec = 1000, 0
    stamp = first_stamp_us
    count = int(duration_s * 1e6 / period_us)
    dt = period_us / 1e6
    previous = {}
    for i in range(count):
        t = i * dt
        n = unit(*attitude(t, keys))
        n_next = unit(*attitude(t + dt, keys))
        n_dot = tuple((b - a) / dt for a, b in zip(n, n_next))
        omega = cross(n_dot, n)  # rad/s in tiltd's frame: dn/dt = −ω × n
        accel = pad_vector(tuple(accel_res * c for c in n))
        gyro = pad_vector(tuple(gyro_res * math.degrees(w) for w in omega))
        when = f"E: {sec}.{usec}"
        # The input core drops an axis event whose value did not change, so
        # a report carries only the axes that moved (and its timestamp).
        for code, value in zip((ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ), accel + gyro):
            if previous.get(code) != round(value):
                lines.append(f"{when} {EV_ABS:04x} {code:04x} {round(value)}")
                previous[code] = round(value)
        lines.append(f"{when} {EV_MSC:04x} {MSC_TIMESTAMP:04x} {stamp - (1 << 32) if stamp >= 1 << 31 else stamp}")
        lines.append(f"{when} {EV_SYN:04x} {SYN_REPORT:04x} 0")
        stamp = (stamp + period_us) % (1 << 32)
        usec += period_us
        sec, usec = sec + usec // 1_000_000, usec % 1_000_000
    return "\n".join(lines) + "\n"


def with_dropped(events, at_line):
    """The same events with a SYN_DROPPED (the kernel's queue overflowed)
    before report `at_line`: libevdev then resynchronises from EVIOCGABS."""
    lines = events.split("\n")
    reports = [i for i, line in enumerate(lines) if line.endswith(f"{EV_SYN:04x} {SYN_REPORT:04x} 0")]
    index = reports[at_line] + 1
    when = lines[index].split(" ")[1]
    lines.insert(index, f"E: {when} {EV_SYN:04x} {SYN_DROPPED:04x} 0")
    return "\n".join(lines)


def split_script(events, split_at=10):
    """The evemu events as a umockdev script whose every SYN_REPORT arrives
    in two reads: its first `split_at` bytes with the event's delay, the
    rest 1 ms later. The node is a pty, so tiltd reads a partial
    input_event in between, as a busy machine sometimes makes umockdev's
    evemu player deliver one; libevdev's read answers that with EINVAL and
    drops what it read. Delays as umockdev converts evemu files (ms from
    the previous event, the fraction read as a count of µs)."""
    lines, previous = [], None
    for line in events.split("\n"):
        if not line.startswith("E: "):
            continue
        _, when, kind, code, value = line.split(" ")
        sec, usec = (int(part) for part in when.split("."))
        delay = 0 if previous is None else max(0, (sec - previous[0]) * 1000 + (usec - previous[1]) // 1000)
        previous = (sec, usec)
        data = struct.pack("<qqHHi", sec, usec, int(kind, 16), int(code, 16), int(value))
        if (int(kind, 16), int(code, 16)) == (EV_SYN, SYN_REPORT):
            lines += [f"r {delay} {escape(data[:split_at])}", f"r 1 {escape(data[split_at:])}"]
        else:
            lines.append(f"r {delay} {escape(data)}")
    return lines


def write(name, content):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        f.write(content)


def main():
    # DualShock 4 (hid-playstation / hid-sony): 8192 units per g (±4 g),
    # 1024 units per °/s (±2048 °/s); reports at 100 Hz here. The scripted
    # motion: flat, right side down to roll 0.5 rad, back while pitching
    # up to 0.6 rad, held.
    ds4 = "Sony Interactive Entertainment Wireless Controller Motion Sensors"
    write("ds4-motion.umockdev", umockdev_file(
        "/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.3/0003:054C:09CC.0001/input/input5", 5,
        ds4, 0x054C, 0x09CC))
    write("ds4-motion.ioctl", ioctl_file(ds4, 0x054C, 0x09CC, 0x8111, (4 * 8192, 16, 8192),
                                         (2048 * 1024, 16, 1024)))
    ds4_events = events_file(
        [(0, 0, 0), (0.5, 0, 0), (1.0, 0.5, 0), (1.6, 0.5, 0), (2.1, 0, 0.6), (3.0, 0, 0.6)],
        10_000, 3.0, 8192, 1024, 123_456)
    write("ds4-motion.events", ds4_events)
    # The same motion with the kernel's queue overflowing at 1.2 s, and
    # EVIOCGABS answering what the kernel holds then (roll 0.5 rad, still),
    # which is what tiltd reads back to resynchronise.
    write("ds4-dropped.events", with_dropped(ds4_events, 120))
    write("ds4-dropped.ioctl", ioctl_file(ds4, 0x054C, 0x09CC, 0x8111, (4 * 8192, 16, 8192),
                                          (2048 * 1024, 16, 1024),
                                          tuple(round(8192 * c) for c in pad_vector(unit(0.5, 0)))))
    # The same events with every report's SYN_REPORT split across two reads.
    write_script(os.path.join(HERE, "ds4-split.script"), split_script(ds4_events))

    # Steam Deck (hid-steam): 16384 units per g (±2 g), 16 units per °/s;
    # MSC_TIMESTAMP synthesised +4000 µs per report (SPEC §11), started
    # just below 2³² so it wraps mid-script. The motion: left side down to
    # roll −0.4 rad, then pitched up to 0.3 rad.
    deck = "Steam Deck Motion Sensors"
    write("deck-motion.umockdev", umockdev_file(
        "/devices/pci0000:00/0000:00:08.1/0000:04:00.3/usb1/1-3/1-3:1.2/0003:28DE:1205.0002/input/input7", 7,
        deck, 0x28DE, 0x1205))
    write("deck-motion.ioctl", ioctl_file(deck, 0x28DE, 0x1205, 0x0111, (32768, 32, 16384),
                                          (32768, 1, 16)))
    write("deck-motion.events", events_file(
        [(0, 0, 0), (0.3, 0, 0), (0.8, -0.4, 0), (1.3, -0.4, 0.3), (2.0, -0.4, 0.3)],
        4_000, 2.0, 16384, 16, (1 << 32) - 1_000_000))

    # A keyboard: an input device without the accelerometer property. It has
    # no ioctl description, so opening it would show in umockdev's log.
    write("keyboard.umockdev", "\n".join([
        "P: /devices/platform/i8042/serio0/input/input2/event2",
        "N: input/event2",
        "E: DEVNAME=/dev/input/event2",
        "E: SUBSYSTEM=input",
        "E: MAJOR=13",
        "E: MINOR=66",
        "E: ID_INPUT=1",
        "E: ID_INPUT_KEY=1",
        "E: ID_INPUT_KEYBOARD=1",
        "A: dev=13:66\\n",
        "",
    ]))


if __name__ == "__main__":
    main()
