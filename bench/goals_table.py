#!/usr/bin/env python3
"""Prints bench/goals.sh's results as one Markdown table: each goal, tiltd's
figure, its peer's, the ratio and whether the goal is met.

Usage: goals_table.py RESULTS   (lines "key value", written by goals.sh)
"""
import platform
import sys
import time


def main():
    r = {}
    for line in open(sys.argv[1]):
        key, _, value = line.strip().partition(" ")
        r[key] = value

    def num(key):
        return float(r[key])

    rows = []

    def row(goal, tiltd, peer, ratio, target, met):
        rows.append((goal, tiltd, peer, ratio, target, "yes" if met else "NO"))

    if "cpu_tiltd" in r:
        ratio = num("cpu_tiltd") / num("cpu_peer")
        row("CPU per sample, buffered 200 Hz, gate on, 1 client", f"{num('cpu_tiltd'):.1f} µs",
            f"{num('cpu_peer'):.1f} µs (iio_readdev -b 1)", f"{ratio:.2f}", "≤ 1.3×", ratio <= 1.3)
    if "rss_run" in r:
        row("peak RSS, `tiltd run` (VmHWM of the exec'd tiltd-run)", f"{num('rss_run'):.1f} MiB",
            f"{num('rss_peer'):.1f} MiB (iio_readdev)", f"{num('rss_run') / num('rss_peer'):.1f}", "≤ 12 MiB",
            num("rss_run") <= 12)
    if "rss_run_time" in r:
        row("peak RSS, `tiltd run` by /usr/bin/time (also tiltd's start before the exec)",
            f"{num('rss_run_time'):.1f} MiB", f"{num('rss_peer'):.1f} MiB (iio_readdev)",
            f"{num('rss_run_time') / num('rss_peer'):.1f}", "(report)", True)
    if "rss_serve" in r:
        peer = f"{num('rss_run'):.1f} MiB (tiltd run)" if "rss_run" in r else ""
        ratio = f"{num('rss_serve') / num('rss_run'):.1f}" if "rss_run" in r else ""
        row("peak RSS, `tiltd serve` (page, layers, 3 s of events)", f"{num('rss_serve'):.1f} MiB", peer, ratio,
            "≤ 24 MiB", num("rss_serve") <= 24)
    if "polled" in r:
        peer, ratio = "", ""
        if "proxy_cpu_percent" in r:
            peer = f"{num('proxy_cpu_percent'):.2f} % (iio-sensor-proxy at {num('proxy_reads_per_s'):.1f} Hz)"
            ratio = (f"{num('polled') / num('proxy_cpu_percent'):.1f}" if num("proxy_cpu_percent") > 0
                     else "n/a (peer below one clock tick: raise SECONDS_EACH)")
        row("polled still device, 100 Hz, 1 client (% of a core)", f"{num('polled'):.2f} %", peer, ratio,
            "< 1 %", num("polled") < 1)
    for prefix, setting in [("", "tiltd at the device's 100 Hz"), ("r200_", "tiltd at 200 Hz")]:
        if prefix + "proxy_cpu_percent" not in r:
            continue
        tiltd_rate = num(prefix + "tiltd_reads_per_s")
        proxy_rate = max(num(prefix + "proxy_reads_per_s"), 1e-9)
        tiltd_per = num(prefix + "tiltd_cpu_percent") * 1e4 / tiltd_rate  # µs of CPU per read
        proxy_per = num(prefix + "proxy_cpu_percent") * 1e4 / proxy_rate
        row(f"vs iio-sensor-proxy: device reads per second, {setting}", f"{tiltd_rate:.1f} /s",
            f"{proxy_rate:.2f} /s (700 ms timer)", f"{tiltd_rate / proxy_rate:.0f}×", "≥ 100×",
            tiltd_rate >= 100 * proxy_rate)
        if proxy_per > 0:
            row(f"vs iio-sensor-proxy: CPU per device read, {setting}", f"{tiltd_per:.0f} µs",
                f"{proxy_per:.0f} µs", f"{tiltd_per / proxy_per:.2f}", "< 1×", tiltd_per < proxy_per)
        else:
            row(f"vs iio-sensor-proxy: CPU per device read, {setting}", f"{tiltd_per:.0f} µs",
                "< one clock tick", "n/a (raise SECONDS_EACH)", "< 1×", False)
    if "proxy_cpu_percent" in r:
        row("vs iio-sensor-proxy: RSS with a client", f"{num('tiltd_rss_mib'):.1f} MiB",
            f"{num('proxy_rss_mib'):.1f} MiB", f"{num('tiltd_rss_mib') / num('proxy_rss_mib'):.1f}", "(report)", True)
        row("vs iio-sensor-proxy: change → client report, median", f"{num('tiltd_latency_median_ms'):.1f} ms",
            f"{num('proxy_latency_median_ms'):.1f} ms",
            f"{num('tiltd_latency_median_ms') / num('proxy_latency_median_ms'):.2f}", "(report)", True)
    if "replay_tiltd" in r:
        speedup = num("replay_peer") / num("replay_tiltd")
        bounds = num("replay_parse") + num("replay_write")
        lines = int(r["replay_lines"])
        row(f"replay 1,000,000-line CSV → {lines:,} JSON lines", f"{num('replay_tiltd'):.3f} s",
            f"{num('replay_peer'):.2f} s (replay_peer.py)", f"{speedup:.1f}× faster", "≥ 25× faster", speedup >= 25)
        row("replay vs parse alone + writing alone", f"{num('replay_tiltd'):.3f} s",
            f"{num('replay_parse'):.3f} + {num('replay_write'):.3f} s", f"{num('replay_tiltd') / bounds:.2f}",
            "≤ 3×", num("replay_tiltd") <= 3 * bounds)
    if "latency_p99_nice0" in r:
        base = num("latency_p99_nice0")
        for key, label in [("nice-10", "Nice=-10"), ("fifo10", "CPUSchedulingPolicy=fifo, priority 10")]:
            value = num(f"latency_p99_{key}")
            row(f"latency p99 under load, {label}", f"{value:.0f} µs", f"{base:.0f} µs (nice 0)",
                f"{value / base:.2f}", "(choose the unit's default)", True)

    print(f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
          f"{_cpus()} CPUs, load average {r.get('load_before', '?')} before, {r.get('load_after', '?')} after\n")
    print("| Goal | tiltd | Peer | Ratio | Target | Met |")
    print("|---|---|---|---|---|---|")
    for cells in rows:
        print("| " + " | ".join(cells) + " |")


def _cpus():
    import os
    return os.cpu_count()


if __name__ == "__main__":
    main()
