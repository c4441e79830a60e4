"""Shared by make-scripts.py and make-gyro-scripts.py: umockdev buffer
script lines (SPEC section 6, as corrected).

Each script line is `r <delay ms> <bytes>`: umockdev waits, then makes the
bytes readable on the node. Bytes below 0x20 are written as '^' followed by
the byte + 64 ('^@' for 0), '^' itself as '^`', and every other byte, the
space 0x20 included, verbatim: umockdev reads '^`' back as '^', so an
escaped space would arrive as 0x5E. The file is latin-1. umockdev skips the
blanks after the delay, so no read may begin with 0x20 (checked here).
"""


def escape(data: bytes) -> str:
    assert data[0] != 0x20, "a scripted read must not begin with 0x20 (umockdev skips it)"
    out = []
    for byte in data:
        if byte < 0x20:
            out.append("^" + chr(byte + 64))
        elif byte == ord("^"):
            out.append("^`")
        else:
            out.append(chr(byte))
    return "".join(out)


def write(path: str, lines: list) -> None:
    """Writes the script lines to `path` (latin-1, one read per line)."""
    with open(path, "w", encoding="latin-1", newline="\n") as out:
        out.write("\n".join(lines) + "\n")
