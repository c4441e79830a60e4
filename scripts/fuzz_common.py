"""What scripts/fuzz-render.py and scripts/fuzz-levels.py share: mutations
of text and bytes, and keeping a failing input."""
import argparse
import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The mutation kinds `reshape` applies; a fuzzer draws its own kinds around them.
KINDS = range(3, 8)


def reshape(data: bytes, kind: int, rng: random.Random, junk: list) -> bytes:
    """Mutation `kind` (one of KINDS) of text `data`: 3 deletes lines, 4
    duplicates some, 5 swaps two, 6 truncates, 7 inserts junk bytes."""
    lines = data.split(b"\n")
    if kind == 3:  # delete lines
        i = rng.randrange(len(lines))
        del lines[i:i + rng.randint(1, 5)]
    elif kind == 4:  # duplicate lines
        i = rng.randrange(len(lines))
        lines[i:i] = lines[i:i + rng.randint(1, 5)] * rng.randint(1, 20)
    elif kind == 5:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 6:  # truncate
        return data[:rng.randrange(len(data) + 1)]
    else:  # insert junk bytes
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice(junk) * rng.randint(1, 4) + data[at:]
    return b"\n".join(lines)


def flip_bits(data: bytes, rng: random.Random) -> bytes:
    """One to eight random bits of `data` flipped (`data` as is when empty)."""
    if not data:
        return data
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


def keep_failure(keep: str, name: str, path: str, verdict: str, argv: list) -> None:
    """Copies the input `path` into folder `keep` as NAME plus its suffix,
    with NAME.txt holding the verdict and the command line."""
    os.makedirs(keep, exist_ok=True)
    shutil.copy(path, os.path.join(keep, name + os.path.splitext(path)[1]))
    with open(os.path.join(keep, name + ".txt"), "w") as f:
        f.write(verdict + "\n" + " ".join(argv) + "\n")


def parse_arguments(parser: argparse.ArgumentParser, name: str):
    """Adds the options every fuzzer takes (--jobs, --seed, --timeout,
    --binary) to `parser` and parses; None (after saying why) when the
    binary is not built."""
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run before it counts as a hang")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/tiltd"))
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        print(f"{name}: {args.binary} is not an executable: build it first (swift build --product tiltd)",
              file=sys.stderr)
        return None
    return args
