#!/usr/bin/env python3
"""DSU latency client for bench/latency.sh.

Subscribes to tiltd's DSU server (cemuhook protocol, docs/dsu.md) and, for
every data packet, computes CLOCK_MONOTONIC(now) - the packet's motion
timestamp (the sample's own time in µs: in `tiltd run` polled mode the
CLOCK_MONOTONIC time its attributes were read). The path measured: the
pipeline, the hub, the DSU consumer's packet and sendto(2), the kernel and
this client's wake-up. Re-requests every second, as emulators do.

Usage: dsu_latency_client.py PORT [--seconds S] [--json]
Prints count, rate and p50/p90/p99/max in microseconds.
"""
import argparse
import json
import os
import socket
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency_client import percentile  # noqa: E402


def request(kind, message=b""):
    packet = b"DSUC" + struct.pack("<HHII", 1001, 4 + len(message), 0, 4242) + struct.pack("<I", kind) + message
    return packet[:8] + struct.pack("<I", zlib.crc32(packet) & 0xFFFFFFFF) + packet[12:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    server = ("127.0.0.1", args.port)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(0.1)
    # Ready once the version is answered (the server may still be starting).
    for _ in range(300):
        sock.sendto(request(0x100000), server)
        try:
            if sock.recv(100)[16:20] == struct.pack("<I", 0x100000):
                break
        except (socket.timeout, ConnectionRefusedError):
            continue
    else:
        raise SystemExit("dsu_latency_client.py: no DSU server answered on port %d" % args.port)
    latencies = []
    started = time.monotonic()
    renewed = 0.0
    while time.monotonic() - started < args.seconds:
        if time.monotonic() - renewed >= 1.0:
            sock.sendto(request(0x100002, bytes(8)), server)
            renewed = time.monotonic()
        try:
            packet = sock.recv(200)
        except socket.timeout:
            continue
        now_us = time.clock_gettime_ns(time.CLOCK_MONOTONIC) / 1000
        if len(packet) == 100 and packet[16:20] == struct.pack("<I", 0x100002):
            latencies.append(now_us - struct.unpack_from("<Q", packet, 68)[0])
    elapsed = time.monotonic() - started
    values = sorted(latencies[1:])  # the first may have waited on the subscription
    result = {
        "packets": len(values),
        "rate_hz": len(values) / elapsed,
        "p50_us": percentile(values, 0.50),
        "p90_us": percentile(values, 0.90),
        "p99_us": percentile(values, 0.99),
        "max_us": values[-1] if values else float("nan"),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print("DSU packets %d at %.1f Hz; latency p50 %.0f us, p90 %.0f us, p99 %.0f us, max %.0f us"
              % (result["packets"], result["rate_hz"], result["p50_us"], result["p90_us"],
                 result["p99_us"], result["max_us"]))


if __name__ == "__main__":
    main()
