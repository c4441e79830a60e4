#!/usr/bin/env python3
"""One run of bench/power.sh: starts COMMAND (umockdev-run … tiltd run …
--listen unix:SOCKET), reads the socket as one client, and measures the
moving and the still part of the scans separately.

Usage: power_run.py SOCKET MOVING_S STILL_S RATE_HZ -- COMMAND…

Prints one JSON object:
- moving / still (/ rest): CPU of every tiltd thread (/proc/PID/task/*/schedstat)
  per sample (µs) and as % of a core, wake-ups per second of every tiltd
  thread (voluntary context switches from /proc/PID/task/*/status), each
  summed over the threads' own differences, and the states received;
- moving: p50 / p99 sample→client latency (ms): each state's arrival on
  CLOCK_MONOTONIC minus its device timestamp, less the least such offset
  within 0.1 s of device time around it (the scripted device's timestamps
  are not on this machine's clock and umockdev's delays drift from them;
  the least-delayed state nearby, the last scan of a batch, reached the
  client within a wake-up's work). A lower bound where a whole 0.2 s
  stretch was late.
- rest (when STILL_S is 14 or more): the first 10 s still, at the rest
  budget; still is then the time after, the device settled.
The windows leave out the first second, the second after the movement
stops (tiltd counts the device at rest after 1 s without a state), the
second around the change to settled (10 s without a state) and the last
second.
"""
import bisect
import json
import os
import socket
import subprocess
import sys
import threading
import time

sock_path, moving, still, rate = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
command = sys.argv[sys.argv.index("--") + 1:]


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        for child in children.get(current, []):
            found.append(child)
            stack.append(child)
    return found


# The measured process: the executable the command runs (its comm, the
# first 15 bytes of its name), whatever the binary is called.
names = {os.path.basename(a)[:15] for a in command[1:]
         if os.path.isfile(a) and os.access(a, os.X_OK) and os.path.basename(a) != "umockdev-run"}


def tiltd_pid(runner):
    for pid in descendants(runner):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() in names:
                    return pid
        except OSError:
            pass
    return None


def snapshot(pid):
    """(monotonic s, {thread id: (voluntary switches, CPU ns)})."""
    threads = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                switches = next(int(line.split()[1]) for line in f if line.startswith("voluntary_ctxt_switches"))
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                threads[task] = (switches, int(f.read().split()[0]))
        except (OSError, StopIteration):
            pass
    return time.monotonic(), threads


def difference(begin, end):
    """Switches and CPU ns between two snapshots, thread by thread: a thread
    that ended in between (start-up threads do) takes its count with it, so
    totals would go down; one that began counts from 0."""
    switches = cpu = 0
    for task, (w1, c1) in end.items():
        w0, c0 = begin.get(task, (0, 0))
        switches += w1 - w0
        cpu += c1 - c0
    return switches, cpu


runner = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
deadline = time.monotonic() + 60
while not os.path.exists(sock_path):
    if time.monotonic() > deadline or runner.poll() is not None:
        sys.exit(f"power_run.py: {sock_path} never appeared: {runner.stderr.read().decode()}")
    time.sleep(0.01)
pid = None
while pid is None and time.monotonic() < deadline:
    pid = tiltd_pid(runner.pid)
    time.sleep(0.01)
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
client.connect(sock_path)

arrivals = []  # (arrival monotonic s, device t s)
first = threading.Event()


def read():
    pending = b""
    while True:
        data = client.recv(65536)
        now = time.monotonic()
        if not data:
            return
        pending += data
        *lines, pending = pending.split(b"\n")
        for line in lines:
            state = json.loads(line)
            arrivals.append((now, state["t"]))
            first.set()


reader = threading.Thread(target=read, daemon=True)
reader.start()
first.wait(60)
start = arrivals[0][0]
stopped = start + moving
marks = {"moving": (start + 1, stopped - 0.5)}
if still >= 14:
    # At rest from 1 s after the last state, settled from 10 s after it
    # (CaptureLatency.restAfterSeconds, settledAfterSeconds).
    marks["rest"] = (stopped + 2, stopped + 9.5)
    marks["still"] = (stopped + 11, stopped + still - 1)
else:
    marks["still"] = (stopped + 2, stopped + still - 1)
snaps = {}
for name, (begin, end) in marks.items():
    for label, at in (("begin", begin), ("end", end)):
        time.sleep(max(0, at - time.monotonic()))
        snaps[(name, label)] = snapshot(pid)
runner.wait()
reader.join(5)

result = {}
for name, (begin, end) in marks.items():
    (t0, begin), (t1, end) = snaps[(name, "begin")], snaps[(name, "end")]
    switches, cpu = difference(begin, end)
    seconds = t1 - t0
    samples = rate * seconds
    states = [(a, t) for a, t in arrivals if t0 <= a <= t1]
    entry = {"seconds": round(seconds, 2), "wakeups_per_s": round(switches / seconds, 1),
             "cpu_percent": round(cpu / 1e9 / seconds * 100, 3),
             "cpu_us_per_sample": round(cpu / 1e3 / samples, 1), "states": len(states)}
    if len(states) > 10:
        # umockdev's delays drift from the script's timestamps (slowly, and
        # in jumps when its thread is scheduled late), so each state's
        # baseline is the least arrival − timestamp within 0.1 s of device
        # time around it: the last scan of some batch, delivered within a
        # wake-up's work.
        offsets = sorted((t, a - t) for a, t in states)
        times = [t for t, _ in offsets]
        late = []
        for t, offset in offsets:
            low, high = bisect.bisect_left(times, t - 0.1), bisect.bisect_right(times, t + 0.1)
            late.append((offset - min(o for _, o in offsets[low:high])) * 1000)
        late.sort()
        entry["latency_ms_p50"] = round(late[len(late) // 2], 2)
        entry["latency_ms_p99"] = round(late[min(len(late) - 1, int(len(late) * 0.99))], 2)
        entry["latency_ms_max"] = round(late[-1], 2)
    result[name] = entry
result["states_total"] = len(arrivals)
print(json.dumps(result))
