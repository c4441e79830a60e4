#!/usr/bin/env python3
"""The summary of bench/power.sh and bench/pad-power.sh: medians over the
rounds of bench/power_run.py's JSON lines, beside a peer's, as a Markdown
table.

Usage: power_table.py WORK PEER_NAME UNIT COLUMN [LABEL=FILE ...]

WORK holds peer.json (the peer's lines: cpu_us_per_sample, wakeups_per_s)
and each FILE.json (power_run.py's lines); PEER_NAME names the peer, UNIT
what a sample is ("sample", "report"), COLUMN the first column's heading
(what the LABELs are, e.g. "--latency").
"""
import json
import statistics
import sys

work, peer_name, unit, column = sys.argv[1:5]
arms = [arm.split("=", 1) for arm in sys.argv[5:]]


def load(name):
    return [json.loads(line) for line in open(f"{work}/{name}.json") if line.strip()]


def median(values, digits=2):
    values = [v for v in values if v is not None]
    return round(statistics.median(values), digits) if values else None


peer = load("peer")
peer_cpu = median([p["cpu_us_per_sample"] for p in peer])
print(f"{peer_name}: {peer_cpu} µs per {unit}, {median([p['wakeups_per_s'] for p in peer])} wake-ups/s")
print(f"| {column} | part | CPU µs/{unit} | × peer | % of a core | wake-ups/s | states | p50 / p99 / max ms |")
print("|---|---|---|---|---|---|---|---|")
for label, name in arms:
    runs = load(name)
    for part in [part for part in ("moving", "rest", "still") if part in runs[0]]:
        def m(key):
            # A still device's share of a core is a few hundredths of a per cent.
            return median([r[part].get(key) for r in runs], 3 if key == "cpu_percent" else 2)
        cpu = m("cpu_us_per_sample")
        latency = "" if m("latency_ms_p99") is None else f"{m('latency_ms_p50')} / {m('latency_ms_p99')} / {m('latency_ms_max')}"
        print(f"| {label} | {part} | {cpu} | {cpu / peer_cpu:.2f} | {m('cpu_percent')} | {m('wakeups_per_s')} | "
              f"{m('states')} | {latency} |")
