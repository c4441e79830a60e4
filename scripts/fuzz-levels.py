#!/usr/bin/env python3
"""Mutational fuzzer for tiltd's level files (not run by CI or bench/run.sh).

Two families of inputs, --runs of each:
  - audio: small WAV (8/16/24-bit, float, 1/2/6 channels, 1 Hz to 96 kHz),
    FLAC and Ogg Vorbis seeds made with sox, mutated (bit flips, header
    fields set to extremes such as 1024 channels or 2^31-1 Hz, truncation,
    cut Ogg pages, duplicated and inserted bytes);
  - levels JSON Lines: records as `tiltd levels` writes them, mutated
    (extreme numbers such as 1e300 or nan for t and the levels, junk fields,
    deleted, duplicated and swapped lines, control bytes, CRLF, a BOM).
Each input goes through `tiltd levels --levels-file` (plain, or --realtime
stopped by SIGTERM after --paced-seconds), or `tiltd render --control
larsbar --levels-file` over a one-second trace. A run passes when tiltd
exits 0 or 1 (never by a signal, except the paced runs' own SIGTERM while
tiltd is still starting, nor a timeout), every line it writes on
stdout is a levels record (t finite, levels 0..1), and its messages hold no
raw control byte.

    swift build --product tiltd          # or -c release for speed
    scripts/fuzz-levels.py --runs 5000 --jobs 2 [--binary .build/debug/tiltd] [--seed 1]

Failing inputs are kept in out/fuzz/levels-failures/ with the command line.
Exit status: 0 when every run passed, 1 otherwise.
"""
import argparse
import json
import math
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from fuzz_common import KINDS, ROOT, flip_bits, keep_failure, parse_arguments, reshape

TRACE = b"tiltd-trace 1\ns 0 0 0 9.81\ns 500000000 0.5 0 9.7\ns 1000000000 0 0.5 9.7\n"

# (name, sox options before the file name, synth seconds)
AUDIO_SEEDS = [
    ("s16.wav", ["-r", "44100", "-c", "2", "-b", "16"], 0.2),
    ("u8.wav", ["-r", "8000", "-c", "1", "-b", "8"], 0.3),
    ("s24.wav", ["-r", "48000", "-c", "6", "-b", "24"], 0.05),
    ("f32.wav", ["-r", "96000", "-c", "2", "-e", "floating-point", "-b", "32"], 0.05),
    ("slow.wav", ["-r", "100", "-c", "2", "-b", "16"], 1.0),
    ("one.wav", ["-r", "1", "-c", "1", "-b", "16"], 3.0),
    ("tone.flac", ["-r", "44100", "-c", "2"], 0.2),
    ("tone.ogg", ["-r", "44100", "-c", "2"], 0.3),
]
EXTREME32 = [0, 1, 2, 143, 144, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1024, 1025, 65535, 0x10000]
EXTREME16 = [0, 1, 2, 3, 8, 255, 256, 1023, 1024, 1025, 0x7FFF, 0xFFFF]
NUMBERS = [b"0", b"-0", b"1e300", b"-1e300", b"1e308", b"-1e308", b"nan", b"NaN", b"inf", b"Infinity",
           b"1e-320", b"9" * 30, b"9223372036854775807", b"-9223372036854775808", b"10000000000",
           b"10000000000.5", b"-1", b"0.5", b"1", b"1.0000001", b"true", b"null", b'"1"', b"[]", b"{}"]
JUNK = [b"\x1b[2J", b"\x07", b"\x00", b"\xff\xfe", b"\r", b",", b"{", b"}", b'"', b":", b"\xef\xbb\xbf", b" "]


def audio_seeds(work: str) -> list:
    """(suffix, bytes) of each audio seed, made with sox."""
    out = []
    for name, options, seconds in AUDIO_SEEDS:
        path = os.path.join(work, name)
        subprocess.run(["sox", "-n"] + options + [path, "synth", str(seconds), "sine", "440", "vol", "0.5"],
                       check=True, stderr=subprocess.DEVNULL)
        with open(path, "rb") as f:
            out.append((os.path.splitext(name)[1], f.read()))
    return out


def levels_seeds() -> list:
    """Levels JSON Lines as `tiltd levels` writes them, and edge cases."""
    rng = random.Random(7)
    plain = b"".join(b'{"t":%.6f,"left":%.4f,"right":%.4f}\n' % (i / 144, rng.random(), rng.random())
                     for i in range(40))
    return [plain,
            b'{"t":0,"left":0,"right":0}\n{"t":0,"left":1,"right":1}\n',
            b'{"t":-5,"left":0.5,"right":0.25}\n\n{"t":10000000000,"left":1,"right":0,"extra":[1,2]}\n',
            b'{"t":1e-9,"left":0.1,"right":0.2}\r\n{"t":2e-9,"left":0.3,"right":0.4}\r\n']


def mutate_audio(data: bytes, suffix: str, rng: random.Random) -> bytes:
    """One to four random mutations of an audio file."""
    for _ in range(rng.randint(1, 4)):
        b = bytearray(flip_bits(data, rng) if rng.random() < 0.1 else data)
        kind = rng.randrange(1, 9)
        if kind in (1, 2) and suffix == ".wav" and len(b) >= 44:
            # WAV fmt fields: channels 22, rate 24, byte rate 28, block align 32, bits 34, sizes 4 and 40.
            if kind == 1:
                at = rng.choice([22, 32, 34, 20])
                b[at:at + 2] = struct.pack("<H", rng.choice(EXTREME16))
            else:
                at = rng.choice([24, 28, 4, 40, 16])
                b[at:at + 4] = struct.pack("<I", rng.choice(EXTREME32))
        elif kind == 3 and suffix == ".flac" and len(b) >= 26:
            # STREAMINFO: 20-bit rate, 3-bit channels-1, 5-bit bits-1, 36-bit total frames (bytes 18..25).
            b[18:26] = bytes(rng.choice([0, 0xFF, rng.randrange(256)]) for _ in range(8))
        elif kind == 4 and len(b) >= 8:  # an extreme 32-bit integer in the first 96 bytes
            at = rng.randrange(min(len(b) - 4, 92))
            b[at:at + 4] = struct.pack("<I", rng.choice(EXTREME32))
        elif kind == 5:  # truncate (for Ogg: an unknown length)
            b = b[:rng.randrange(len(b) + 1)]
        elif kind == 6 and b:  # duplicate a span
            i = rng.randrange(len(b))
            j = min(len(b), i + rng.randint(1, 512))
            b[i:i] = b[i:j] * rng.randint(1, 4)
        elif kind == 7:  # insert junk bytes
            at = rng.randrange(len(b) + 1)
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif kind == 8 and b:  # delete a span
            i = rng.randrange(len(b))
            del b[i:i + rng.randint(1, 256)]
        data = bytes(b)
    return data


def mutate_levels(data: bytes, rng: random.Random) -> bytes:
    """One to four random mutations of levels JSON Lines."""
    for _ in range(rng.randint(1, 4)):
        lines = data.split(b"\n")
        kind = rng.randrange(11)
        if kind == 0:
            data = flip_bits(data, rng)
        elif kind in (1, 2):  # a field's value replaced by an extreme number (t more often)
            i = rng.randrange(len(lines))
            field = b'"t":' if kind == 1 else rng.choice([b'"left":', b'"right":', b'"t":'])
            at = lines[i].find(field)
            if at >= 0:
                start = at + len(field)
                end = start
                while end < len(lines[i]) and lines[i][end:end + 1] not in (b",", b"}"):
                    end += 1
                lines[i] = lines[i][:start] + rng.choice(NUMBERS) + lines[i][end:]
            data = b"\n".join(lines)
        elif kind in KINDS:  # delete, duplicate, swap lines; truncate; junk bytes
            data = reshape(data, kind, rng, JUNK)
        elif kind == 8:  # an over-long line or deep nesting
            at = rng.randrange(len(data) + 1)
            data = data[:at] + rng.choice([b"7" * 70000, b"[" * 5000, b'{"t":' * 2000]) + data[at:]
        elif kind == 9:  # CRLF, or no final newline
            data = data.replace(b"\n", b"\r\n") if rng.random() < 0.5 else data.rstrip(b"\n")
        else:  # an extra field
            i = rng.randrange(len(lines))
            if lines[i].endswith(b"}"):
                lines[i] = lines[i][:-1] + b',"' + rng.choice([b"t", b"left", b"x"]) + b'":' + rng.choice(NUMBERS) + b"}"
            data = b"\n".join(lines)
    return data


def stdout_problem(out: bytes) -> str:
    """'' when every stdout line is a levels record; else what is wrong."""
    for line in out.split(b"\n"):
        if not line:
            continue
        try:
            record = json.loads(line)
            t, left, right = record["t"], record["left"], record["right"]
        except (ValueError, KeyError, TypeError):
            return "stdout line is not a levels record: %r" % line[:120]
        if not math.isfinite(t) or not (0 <= left <= 1) or not (0 <= right <= 1):
            return "stdout record out of range: %r" % line[:120]
    return ""


def finish(p: subprocess.Popen, timeout: float) -> tuple:
    """(stdout, stderr) of `p` once it exits; stdout None when it had to be
    killed after `timeout` seconds (a hang)."""
    try:
        return p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        return None, p.communicate()[1]


def run_one(index: int, family: str, suffix: str, data: bytes, mode: str, binary: str, timeout: float,
            paced: float, keep: str) -> tuple:
    work = tempfile.mkdtemp(prefix="tiltd-fuzz-levels-")
    try:
        path = os.path.join(work, "input" + suffix)
        with open(path, "wb") as f:
            f.write(data)
        if mode == "render":
            trace = os.path.join(work, "t.trace")
            with open(trace, "wb") as f:
                f.write(TRACE)
            argv = [binary, "render", trace, "--control", "larsbar", "--levels-file", path, "--fps", "10",
                    "--out", os.path.join(work, "frames"), "--quiet"]
        elif mode == "paced":
            argv = [binary, "levels", "--levels-file", path, "--realtime"]
        else:
            argv = [binary, "levels", "--levels-file", path]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if mode == "paced":
            # A paced replay may rightly wait for years of t: stop it as a user would.
            try:
                out, err = p.communicate(timeout=paced)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGTERM)
                out, err = finish(p, timeout)
        else:
            out, err = finish(p, timeout)
        if out is None:
            verdict = "hang"
        elif mode == "paced" and p.returncode == -signal.SIGTERM:
            # Our SIGTERM came before tiltd trapped it (still starting): its default action.
            verdict = "ok"
        elif p.returncode < 0:
            verdict = "crash (%s)" % signal.Signals(-p.returncode).name
        elif p.returncode not in (0, 1):
            verdict = "exit %d: %s" % (p.returncode, err.decode(errors="replace").strip()[:200])
        elif b"\x1b" in err or b"\x07" in err:
            verdict = "raw control byte in a message"
        elif mode != "render" and stdout_problem(out):
            verdict = stdout_problem(out)
        else:
            verdict = "ok" if p.returncode == 0 else "refused"
        if verdict not in ("ok", "refused"):
            keep_failure(keep, "%s-%05d" % (family, index), path, verdict, argv)
        return family, verdict
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description="Fuzz tiltd's level files (audio and levels JSON Lines).")
    parser.add_argument("--runs", type=int, default=5000, help="inputs of each family (audio, JSON Lines)")
    parser.add_argument("--paced-seconds", type=float, default=0.5,
                        help="how long a --realtime run plays before SIGTERM")
    args = parse_arguments(parser, "fuzz-levels")
    if args is None:
        return 2
    if shutil.which("sox") is None:
        print("fuzz-levels: sox makes the audio seeds: install it (scripts/setup.sh test)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    seed_dir = tempfile.mkdtemp(prefix="tiltd-fuzz-seeds-")
    try:
        audio = audio_seeds(seed_dir)
    finally:
        shutil.rmtree(seed_dir, ignore_errors=True)
    texts = levels_seeds()
    inputs = []
    for i in range(args.runs):
        suffix, data = rng.choice(audio)
        inputs.append(("audio", suffix, mutate_audio(data, suffix, rng)))
        inputs.append(("jsonl", ".jsonl", mutate_levels(rng.choice(texts), rng)))
    modes = [rng.choices(["levels", "paced", "render"], weights=[85, 10, 5])[0] for _ in inputs]
    keep = os.path.join(ROOT, "out", "fuzz", "levels-failures")
    counts = {"audio": {}, "jsonl": {}}
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, i, family, suffix, data, mode, args.binary, args.timeout,
                               args.paced_seconds, keep)
                   for i, ((family, suffix, data), mode) in enumerate(zip(inputs, modes))]
        for done, future in enumerate(futures, 1):
            family, verdict = future.result()
            key = verdict.split(":")[0]
            counts[family][key] = counts[family].get(key, 0) + 1
            if done % 500 == 0:
                print(f"fuzz-levels: {done}/{len(inputs)} runs: {counts}", file=sys.stderr)
    bad = sum(n for family in counts.values() for k, n in family.items() if k not in ("ok", "refused"))
    for family, tally in counts.items():
        failures = sum(n for k, n in tally.items() if k not in ("ok", "refused"))
        print(f"fuzz-levels: {family}: {sum(tally.values())} inputs, {tally.get('ok', 0)} read, "
              f"{tally.get('refused', 0)} refused with a message, {failures} failures; all: {tally}")
    print(f"fuzz-levels: seed {args.seed}, {len(inputs)} runs in {time.monotonic() - started:.0f} s, "
          f"{bad} failures" + ("" if not bad else f" (inputs in {keep})"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
