#!/usr/bin/env python3
"""Where a process's resident memory is: /proc/PID/smaps summed by component
(the program itself, the Swift runtime, Foundation and its ICU, the C
libraries, heap and other anonymous memory), in KiB, with how much of each
is shared clean pages (mapped from a file and shared with every other
process using it: counted in RSS, but not memory the process adds).

Usage: rss_breakdown.py PID|SMAPS_FILE [PROGRAM_NAME]
"""
import collections
import re
import sys

GROUPS = [
    ("Swift runtime", re.compile(r"/libswift|/lib_swift|/libdispatch|/libBlocksRuntime")),
    ("Foundation and its ICU", re.compile(r"/libFoundation|/lib_Foundation")),
    ("C++ runtime", re.compile(r"/libstdc\+\+|/libgcc_s")),
    ("libc, libm, ld.so", re.compile(r"/libc\.so|/libm\.so|/ld-linux|/libpthread|/libdl\.so|/librt\.so")),
    ("audio (pulse, sndfile, codecs)", re.compile(
        r"/libpulse|/libsndfile|/libFLAC|/libvorbis|/libogg|/libopus|/libmpg123|/libmp3lame|/libX|/libxcb|/libasyncns|/libapparmor")),
    # The system's ICU (libicuuc, libicudata) comes with libiio's libxml2.
    ("IIO (libiio, xml2 and its ICU, usb, avahi, udev)",
     re.compile(r"/libiio|/libxml2|/libicu|/libusb|/libavahi|/libudev|/liblzma|/libz\.")),
    ("D-Bus, systemd, crypto", re.compile(r"/libsystemd|/libdbus|/libgcrypt|/libgpg-error|/libcap|/liblz4|/libzstd|/libcrypto|/libssl|/libgnutls")),
]


def component(name, program):
    if name in ("[heap]",):
        return "heap"
    if name in ("", "[anon]") or name.startswith("[anon"):
        return "anonymous (Swift heap, stacks, thread arenas)"
    if name.startswith("["):
        return "stack, vdso"
    if program and name.endswith("/" + program):
        return "the program (" + program + ")"
    for label, pattern in GROUPS:
        if pattern.search(name):
            return label
    return "other libraries"


def main():
    source = sys.argv[1]
    program = sys.argv[2] if len(sys.argv) > 2 else None
    path = f"/proc/{source}/smaps" if source.isdigit() else source
    if source.isdigit() and program is None:
        program = open(f"/proc/{source}/comm").read().strip()
    totals = collections.defaultdict(collections.Counter)
    name = None
    for line in open(path):
        header = re.match(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
        if header:
            name = component(header.group(1).strip(), program)
            continue
        key = line.split(":", 1)[0]
        if key in ("Rss", "Shared_Clean", "Private_Dirty", "Private_Clean"):
            totals[name][key] += int(line.split()[1])
    grand = collections.Counter()
    for counts in totals.values():
        grand.update(counts)
    print(f"| component | RSS KiB | of it shared clean | private |")
    print("|---|---|---|---|")
    for label, counts in sorted(totals.items(), key=lambda item: -item[1]["Rss"]):
        private = counts["Private_Dirty"] + counts["Private_Clean"]
        print(f"| {label} | {counts['Rss']} | {counts['Shared_Clean']} | {private} |")
    private = grand["Private_Dirty"] + grand["Private_Clean"]
    print(f"| **total** | **{grand['Rss']}** | {grand['Shared_Clean']} | {private} |")


if __name__ == "__main__":
    main()
