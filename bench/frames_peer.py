#!/usr/bin/python3
"""Cairo peer for FrameBench: composite two prerendered rotated shine layers.

The layer approach done with pycairo (Debian's python3-cairo): the base and
one shine are painted once into ARGB32 surfaces; each frame paints the base,
then the shine twice, each rotated about the knob centre and painted with
its opacity (cairo's default GOOD filter, bilinear for rotations). Frames
are timed one by one with perf_counter_ns and the median is reported, as
FrameBench does, with poses from the same slow figure-eight.

    /usr/bin/python3 bench/frames_peer.py [--frames N] [--sizes 64,128,256,512]

Prints one `RESULT cairo-layers SIZE MICROSECONDS` line per size.
"""
import argparse
import math
import statistics
import time

import cairo


def paint_base(size):
    s = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    cr = cairo.Context(s)
    c = size / 2
    r = size * 12 / 28
    # soft shadow: a few widening translucent discs
    for i in range(4, 0, -1):
        cr.arc(c, c + r / 24, r + i * r / 48, 0, 2 * math.pi)
        cr.set_source_rgba(0, 0, 0, 0.12)
        cr.fill()
    g = cairo.RadialGradient(c, c, 0, c, c, r)
    g.add_color_stop_rgb(0, 0.93, 0.93, 0.93)
    g.add_color_stop_rgb(1, 0.70, 0.70, 0.70)
    cr.arc(c, c, r, 0, 2 * math.pi)
    cr.set_source(g)
    cr.fill()
    # concentric rings
    cr.set_line_width(max(1.0, r / 48))
    k = 1.0
    while k < r:
        cr.arc(c, c, k, 0, 2 * math.pi)
        cr.set_source_rgba(0, 0, 0, 0.06)
        cr.stroke()
        k += max(2.0, r / 24)
    return s


def paint_shine(size):
    s = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    cr = cairo.Context(s)
    c = size / 2
    rs = size * 12 / 28 * 23 / 24
    half = math.radians(42)
    steps = 24
    # bow-tie: alpha falls off linearly with the angle from the vertical
    for sign in (-1, 1):
        for i in range(steps):
            a0 = half * i / steps
            a1 = half * (i + 1) / steps
            alpha = 0.89 * (1 - (i + 0.5) / steps)
            for side in (-1, 1):
                base = -math.pi / 2 if sign < 0 else math.pi / 2
                cr.move_to(c, c)
                lo, hi = sorted((base + side * a0, base + side * a1))
                cr.arc(c, c, rs, lo, hi)
                cr.close_path()
                cr.set_source_rgba(1, 1, 1, alpha)
                cr.fill()
    return s


def pose(i):
    t = i / 60
    return 0.6 * math.sin(t * 1.3), 0.4 * math.sin(t * 2.1 + 0.5)


def bench(size, frames):
    base = paint_base(size)
    shine = paint_shine(size)
    target = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    cr = cairo.Context(target)
    c = size / 2

    def frame(i):
        roll, pitch = pose(i)
        shines = ((-roll + pitch, min(max(1 + roll, 0), 1)), (-roll - pitch, min(max(1 - roll, 0), 1)))
        cr.set_operator(cairo.OPERATOR_SOURCE)
        cr.set_source_surface(base, 0, 0)
        cr.paint()
        cr.set_operator(cairo.OPERATOR_OVER)
        for rotation, opacity in shines:
            cr.save()
            cr.translate(c, c)
            cr.rotate(rotation)  # cairo's y points down: positive turns clockwise
            cr.translate(-c, -c)
            cr.set_source_surface(shine, 0, 0)
            cr.paint_with_alpha(opacity)
            cr.restore()
        target.flush()

    for i in range(20):
        frame(i)
    samples = []
    for i in range(frames):
        t0 = time.perf_counter_ns()
        frame(i)
        samples.append(time.perf_counter_ns() - t0)
    return statistics.median(samples) / 1000


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=500)
    p.add_argument("--sizes", default="64,128,256,512")
    a = p.parse_args()
    for size in [int(s) for s in a.sizes.split(",")]:
        us = bench(size, a.frames)
        print(f"{size:4d}  cairo layers {us:9.1f} µs  {1e6 / us:8.0f} fps")
        print(f"RESULT cairo-layers {size} {us:.1f}")


if __name__ == "__main__":
    main()
