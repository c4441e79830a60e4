#!/usr/bin/python3
"""tiltd beside iio-sensor-proxy on one polled umockdev accelerometer.

Run inside umockdev-run (bench/proxy.sh does): starts a private D-Bus
daemon as the "system" bus, iio-sensor-proxy on it with monitor-sensor as
its client, and `tiltd run --mode poll --listen` with a socket client. Then
  1. CPU (utime+stime) and RSS of each daemon over SECONDS, device still;
  2. the latency from a scripted change (in_accel_y_raw flipped between
     -256 and 256: normal <-> bottom-up, written in place) to each one's
     report reaching its client, ROUNDS times.
Prints "RESULT key value" lines.

Each daemon's reads per second are counted, not assumed: the proxy's from
umockdev's log of its opens of in_accel_x_raw (it reopens the three files
every poll, on a fixed 700 ms GLib timer in iio-sensor-proxy 3.0's
drv-iio-poll-accel.c, whatever the device's sampling_frequency), tiltd's from
the read system calls in /proc/PID/io (it keeps the three files open and
preads each once per sample, at the device's sampling_frequency).

Usage: proxy_peer.py TILTD SECONDS ROUNDS WORKDIR [RATE_HZ]   (tiltd --rate, 100)
"""
import os
import select
import socket
import statistics
import subprocess
import sys
import time

tiltd, seconds, rounds, work = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rate = sys.argv[5] if len(sys.argv) > 5 else "100"
Y = "/sys/bus/iio/devices/iio:device0/in_accel_y_raw"
TICK = os.sysconf("SC_CLK_TCK")
children = []


def start(command, **kwargs):
    process = subprocess.Popen(command, **kwargs)
    children.append(process)
    return process


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def read_calls(pid):
    """read(2)/pread(2) system calls the process has made (/proc/PID/io syscr)."""
    for line in open(f"/proc/{pid}/io"):
        if line.startswith("syscr:"):
            return int(line.split()[1])
    return 0


def memory_kib(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def proxy_reads(work):
    """How many times iio-sensor-proxy has opened in_accel_x_raw (one per poll)."""
    with open(os.path.join(work, "proxy.log")) as log:
        return sum(1 for line in log if "open" in line and line.rstrip().endswith("in_accel_x_raw"))


def wait_for(predicate, what, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    sys.exit(f"proxy_peer.py: {what} did not happen within {timeout} s")


def main():
    address_file = os.path.join(work, "bus-address")
    read_end, write_end = os.pipe()
    start(["dbus-daemon", "--session", "--nofork", f"--print-address={write_end}"],
          pass_fds=[write_end], stderr=subprocess.DEVNULL)
    os.close(write_end)
    address = os.read(read_end, 4096).decode().strip()
    env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
    open(Y, "w").write("-256\n")
    # UMOCKDEV_DEBUG=path logs each redirected open: counts the proxy's reads.
    proxy_log = open(os.path.join(work, "proxy.log"), "w")
    proxy = start(["/usr/sbin/iio-sensor-proxy"], env=dict(env, UMOCKDEV_DEBUG="path"),
                  stdout=proxy_log, stderr=proxy_log)
    monitor = start(["stdbuf", "-oL", "monitor-sensor", "--accel"], env=env,
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    sock_path = os.path.join(work, "tiltd.sock")
    tiltd_process = start([tiltd, "run", "--mode", "poll", "--rate", rate, "--listen", f"unix:{sock_path}"],
                          stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "tiltd.err"), "w"))
    wait_for(lambda: os.path.exists(sock_path), "tiltd's socket appearing")
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(sock_path)
    client.setblocking(False)
    pending = {"tiltd": b"", "proxy": b""}

    def lines(timeout):
        """(source, line, arrival) for what arrived within timeout."""
        out = []
        ready, _, _ = select.select([client, monitor.stdout], [], [], timeout)
        now = time.monotonic()
        for stream in ready:
            name = "tiltd" if stream is client else "proxy"
            data = client.recv(65536) if stream is client else os.read(monitor.stdout.fileno(), 65536)
            pending[name] += data
            *complete, pending[name] = pending[name].split(b"\n")
            out += [(name, line.decode(errors="replace"), now) for line in complete]
        return out

    seen = {"tiltd": False, "proxy": False}
    deadline = time.monotonic() + 20
    while not all(seen.values()) and time.monotonic() < deadline:
        for name, line, _ in lines(0.2):
            if name == "tiltd" or "orientation changed" in line or "Has accelerometer" in line:
                seen[name] = True
    if not all(seen.values()):
        sys.exit(f"proxy_peer.py: no first report from {[n for n, s in seen.items() if not s]}")
    time.sleep(1.0)

    # 1. Still device, one client each.
    pids = {"tiltd": tiltd_process.pid, "proxy": proxy.pid}
    reads_before = proxy_reads(work)
    tiltd_reads_before = read_calls(tiltd_process.pid)
    start_cpu = {n: cpu_seconds(p) for n, p in pids.items()}
    start_time = time.monotonic()
    received = 0
    while time.monotonic() - start_time < seconds:
        received += len(lines(0.2))
    wall = time.monotonic() - start_time
    reads_after = proxy_reads(work)
    tiltd_reads_after = read_calls(tiltd_process.pid)
    for name, pid in pids.items():
        print(f"RESULT {name}_cpu_percent {100 * (cpu_seconds(pid) - start_cpu[name]) / wall:.3f}")
        print(f"RESULT {name}_rss_mib {memory_kib(pid, 'VmRSS') / 1024:.1f}")
        print(f"RESULT {name}_hwm_mib {memory_kib(pid, 'VmHWM') / 1024:.1f}")
    print(f"RESULT proxy_reads_per_s {(reads_after - reads_before) / wall:.2f}")
    # Three attribute preads per sample (x, y, z).
    print(f"RESULT tiltd_reads_per_s {(tiltd_reads_after - tiltd_reads_before) / 3 / wall:.2f}")

    # 2. Latency of a change, alternating normal / bottom-up.
    latencies = {"tiltd": [], "proxy": []}
    value = -256
    for _ in range(rounds):
        value = -value
        expected = "bottom-up" if value > 0 else "normal"
        lines(0)
        changed = time.monotonic()
        with open(Y, "w") as attribute:
            attribute.write(f"{value}\n")
        waiting = {"tiltd", "proxy"}
        deadline = changed + 10
        while waiting and time.monotonic() < deadline:
            for name, line, arrival in lines(0.05):
                reported = f'"{expected}"' in line if name == "tiltd" else line.endswith(f": {expected}")
                if name in waiting and reported:
                    latencies[name].append(arrival - changed)
                    waiting.discard(name)
        if waiting:
            sys.exit(f"proxy_peer.py: no {expected} report from {sorted(waiting)} within 10 s")
        time.sleep(0.3)
    for name, values in latencies.items():
        print(f"RESULT {name}_latency_median_ms {1000 * statistics.median(values):.1f}")
        print(f"RESULT {name}_latency_max_ms {1000 * max(values):.1f}")


try:
    main()
finally:
    for process in reversed(children):
        process.terminate()
    for process in children:
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
