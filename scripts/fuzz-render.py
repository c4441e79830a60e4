#!/usr/bin/env python3
"""Mutational fuzzer for `tiltd render` (not run by CI or bench/run.sh).

Starts from small seed recordings (slices of the bundled traces, a CSV, and
hand-written edge cases), mutates them (bit flips, Int64 extremes, huge and
tiny timestamps, NaN and junk fields, control bytes, deleted, duplicated and
swapped lines, truncation, over-long lines, CRLF, a BOM) and renders each
with a random choice of options. A run passes when tiltd exits 0 or 1
(never by a signal), within the time limit, and leaves only whole files:
every PNG ends with its IEND chunk and no hidden temporary file remains.

    swift build --product tiltd          # or -c release for speed
    scripts/fuzz-render.py --runs 2000 --jobs 2 [--binary .build/debug/tiltd] [--seed 1]

Failing inputs are kept in out/fuzz/failures/ with the command line.
Exit status: 0 when every run passed, 1 otherwise.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from fuzz_common import KINDS, ROOT, flip_bits, keep_failure, parse_arguments, reshape

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def seeds() -> list:
    """Seed inputs as bytes: short slices of real recordings and edge cases."""
    out = []
    for name in ("synthetic-tilt-sweep.trace", "ngimu-hand-motion.trace", "yei-quiet-handling.trace"):
        with open(os.path.join(ROOT, "recordings", name), "rb") as f:
            lines = f.read().split(b"\n")
        header = [l for l in lines if l.startswith(b"#") or l.startswith(b"tiltd-trace")]
        samples = [l for l in lines if l.startswith(b"s ")]
        for start in (0, len(samples) // 2):
            out.append(b"\n".join(header + samples[start:start + 60]) + b"\n")
    out.append(b"time_s,accel_x,accel_y,accel_z\n" + b"".join(
        b"%.3f,%.4f,0.1,%.4f\n" % (i * 0.02, (i % 7) * 0.3, 9.7 - (i % 5) * 0.1) for i in range(50)))
    out.append(b"tiltd-trace 1\ns 0 0 0 9.81\ns 9000000000000000000 5 0 8\n")
    out.append(b"time_s,accel_x,accel_y,accel_z\n0,0,0,9.81\n8999999999,5,0,8\n")
    out.append(b"tiltd-trace 1\ns %d 0 0 9.81\ns %d 1 0 9\n" % (INT64_MIN, INT64_MAX))
    out.append(b"tiltd-trace 1\n# sampling-frequency-hz: 100\ns 0 0 0 9.81\ng 10000000 device vanished\n"
               b"s 20000000 0.5 0 9.7\n")
    return out


NUMBERS = [b"0", b"-0", b"1e308", b"-1e308", b"nan", b"inf", b"1e-320", b"9" * 30, b"%d" % INT64_MAX,
           b"%d" % INT64_MIN, b"%d" % (INT64_MAX + 1), b"3600000000000", b"-1", b"0.000000001", b"1e9"]
JUNK = [b"\x1b[2J", b"\x07", b"\x00", b"\xff\xfe", b"\r", b"#", b"s", b"g", b" ", b"\t", b",", b"\xef\xbb\xbf"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random mutations of `data`."""
    for _ in range(rng.randint(1, 4)):
        lines = data.split(b"\n")
        kind = rng.randrange(12)
        if kind == 0 and data:  # flip bits
            data = flip_bits(data, rng)
        elif kind == 1:  # replace a field with an extreme number
            i = rng.randrange(len(lines))
            fields = lines[i].split(b" ") if b" " in lines[i] else lines[i].split(b",")
            if fields:
                fields[rng.randrange(len(fields))] = rng.choice(NUMBERS)
                lines[i] = (b" " if b" " in lines[i] else b",").join(fields)
            data = b"\n".join(lines)
        elif kind == 2:  # a timestamp jump anywhere in Int64
            i = rng.randrange(len(lines))
            if lines[i].startswith(b"s "):
                parts = lines[i].split(b" ")
                parts[1] = b"%d" % rng.choice([INT64_MIN, INT64_MAX, rng.randint(INT64_MIN, INT64_MAX),
                                               rng.randint(0, 10 ** 13)])
                lines[i] = b" ".join(parts)
            data = b"\n".join(lines)
        elif kind in KINDS:  # delete, duplicate, swap lines; truncate; junk bytes
            data = reshape(data, kind, rng, JUNK)
        elif kind == 8:  # an over-long line
            at = rng.randrange(len(data) + 1)
            data = data[:at] + b"7" * rng.choice([1000, 70000]) + data[at:]
        elif kind == 9:  # CRLF line ends
            data = data.replace(b"\n", b"\r\n")
        elif kind == 10:  # drop the final newline (a torn last line)
            data = data.rstrip(b"\n")
        else:  # a header line with junk
            lines.insert(1, b"# " + rng.choice([b"scale", b"offset", b"mount-matrix", b"sampling-frequency-hz",
                                                 b"x"]) + b": " + rng.choice(NUMBERS + JUNK))
            data = b"\n".join(lines)
    return data


def options(rng: random.Random, work: str) -> list:
    """Random render options; the frame limit keeps a run short."""
    fmt = rng.random()
    args = ["--size", str(rng.choice([16, 17, 24, 33])), "--fps", str(rng.choice([1, 5, 10, 60])),
            "--style", rng.choice(["mtz", "tltilt"]), "--quiet"]
    if fmt < 0.15:
        # The default limit (one hour of frames) on a cheap y4m stream.
        args += ["--format", "y4m", "--out", "/dev/null"]
    else:
        args += ["--out", os.path.join(work, "frames"), "--max-frames", "3000", "--overwrite"]
        if rng.random() < 0.4:
            args += ["--contact-sheet", os.path.join(work, "sheet.png"),
                     "--contact-sheet-frames", str(rng.randint(1, 30))]
        if rng.random() < 0.2:
            args += ["--slider", "%.2f" % rng.random()]
    if rng.random() < 0.3:
        args += ["--no-gate"]
    if rng.random() < 0.1:
        args += ["--units", "g"]
    return args


def whole_files(work: str) -> str:
    """'' when every file left is whole; else what is wrong."""
    for directory, _, names in os.walk(work):
        for name in names:
            path = os.path.join(directory, name)
            if name.startswith("."):
                return "temporary file left: " + path
            if name.endswith(".png"):
                with open(path, "rb") as f:
                    data = f.read()
                if not data.startswith(b"\x89PNG\r\n\x1a\n") or not data.endswith(b"IEND\xaeB`\x82"):
                    return "truncated PNG: " + path
    return ""


def run_one(index: int, data: bytes, args_seed: int, binary: str, timeout: float, keep: str) -> tuple:
    rng = random.Random(args_seed)
    work = tempfile.mkdtemp(prefix="tiltd-fuzz-")
    try:
        suffix = ".csv" if data.lstrip(b"\xef\xbb\xbf").startswith(b"time_s") else ".trace"
        path = os.path.join(work, "input" + suffix)
        with open(path, "wb") as f:
            f.write(data)
        argv = [binary, "render", path] + options(rng, work)
        try:
            p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            verdict = "hang"
        else:
            if p.returncode < 0:
                verdict = "crash (%s)" % signal.Signals(-p.returncode).name
            elif p.returncode not in (0, 1):
                verdict = "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace").strip()[:200])
            elif b"\x1b" in p.stderr or b"\x07" in p.stderr:
                verdict = "raw control byte in a message"
            else:
                verdict = whole_files(work) or ("ok" if p.returncode == 0 else "refused")
        if verdict not in ("ok", "refused"):
            keep_failure(keep, "%05d" % index, path, verdict, argv)
        return index, verdict
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description="Fuzz tiltd render with mutated recordings.")
    parser.add_argument("--runs", type=int, default=2000)
    args = parse_arguments(parser, "fuzz-render")
    if args is None:
        return 2
    rng = random.Random(args.seed)
    bases = seeds()
    inputs = [(i, mutate(rng.choice(bases), rng), rng.randrange(2 ** 32)) for i in range(args.runs)]
    keep = os.path.join(ROOT, "out", "fuzz", "failures")
    counts: dict = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, i, d, s, args.binary, args.timeout, keep) for i, d, s in inputs]
        for done, future in enumerate(futures, 1):
            _, verdict = future.result()
            key = verdict.split(":")[0]
            counts[key] = counts.get(key, 0) + 1
            if done % 250 == 0:
                print(f"fuzz-render: {done}/{args.runs} runs: {counts}", file=sys.stderr)
    bad = sum(n for k, n in counts.items() if k not in ("ok", "refused"))
    print(f"fuzz-render: {args.runs} runs, seed {args.seed}: {counts.get('ok', 0)} rendered, "
          f"{counts.get('refused', 0)} refused with a message, {bad} failures"
          + ("" if not bad else f" (inputs in {keep})") + f"; all: {counts}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
