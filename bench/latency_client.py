#!/usr/bin/env python3
"""Latency client for bench/latency.sh.

Connects to tiltd's state socket and, for every JSON Lines state received,
computes  CLOCK_MONOTONIC(now) - t  where t is the state's timestamp. In
`tiltd run` polled mode t is the CLOCK_MONOTONIC time at which the sample's
attributes were read, i.e. when the sample entered the pipeline, so the
difference is the whole path: pipeline, broadcaster thread, kernel socket,
and this client's wake-up. The first line (the current state a new client
gets at once, possibly old) is skipped.

With http://HOST:PORT instead of a socket path it reads `tiltd serve`'s
server-sent events (GET /events) the same way: each `data:` line of a state
(a channel's `event: NAME` and its data are skipped).

Usage: latency_client.py SOCKET_PATH|http://HOST:PORT [--seconds S] [--json]
Prints count, rate and p50/p90/p99/max in microseconds.
"""
import argparse
import json
import socket
import time


def percentile(sorted_values, fraction):
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    sse = args.path.startswith("http://")
    if sse:
        host, _, port = args.path[len("http://"):].rstrip("/").partition(":")
        sock = socket.create_connection((host, int(port)))
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: %s:%s\r\nAccept: text/event-stream\r\n\r\n"
                     % (host.encode(), port.encode()))
    else:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(args.path)
    sock.settimeout(2.0)
    channel = False  # the next data line is a channel's (SSE)
    pending = b""
    latencies = []
    first = True
    deadline = time.monotonic() + args.seconds
    started = None
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if sse:
                # Chunked transfer framing, the head, comments and channels
                # are not states; a state is `data: {"t":…`.
                if line.startswith(b"event:"):
                    channel = True
                    continue
                if not line.startswith(b"data: {"):
                    continue
                if channel:
                    channel = False
                    continue
                line = line[len(b"data: "):]
            if first:
                first = False
                started = time.monotonic()
                continue
            # t is the first field: {"t":12.345678,...}; parse it exactly
            # (seconds with 6 decimals) to integer nanoseconds.
            start = line.index(b":") + 1
            end = line.index(b",", start)
            seconds, _, micros = line[start:end].partition(b".")
            t_ns = int(seconds) * 1_000_000_000 + int(micros.ljust(6, b"0")) * 1000
            latencies.append(now - t_ns)
    elapsed = (time.monotonic() - started) if started else float("nan")
    values = sorted(latencies)
    result = {
        "states": len(values),
        "rate_hz": len(values) / elapsed if elapsed and elapsed == elapsed else float("nan"),
        "p50_us": percentile(values, 0.50) / 1000,
        "p90_us": percentile(values, 0.90) / 1000,
        "p99_us": percentile(values, 0.99) / 1000,
        "max_us": (values[-1] / 1000) if values else float("nan"),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print("states %d at %.1f Hz; latency p50 %.0f us, p90 %.0f us, p99 %.0f us, max %.0f us"
              % (result["states"], result["rate_hz"], result["p50_us"], result["p90_us"],
                 result["p99_us"], result["max_us"]))


if __name__ == "__main__":
    main()
