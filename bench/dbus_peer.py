#!/usr/bin/python3
"""Side by side with iio-sensor-proxy on D-Bus (bench/dbus-peer.sh runs it
under umockdev-run, beside both services, on a private system bus).

usage: dbus_peer.py CASE [SYSFS_DEVICE REPEATS]

Claims net.hadess.SensorProxy and net.tiltd.Tilt, waits until both report
an orientation, prints "CASE proxy=… tiltd=…". With SYSFS_DEVICE (the
device's /sys directory) it then alternates the raw reading between the
Onda v975's "normal" and "right-up" vectors (SPEC §5) REPEATS times and
prints, for each service, the median and max time from writing the
attributes to the PropertiesChanged that reports the new orientation.
"""
import statistics
import sys
import time

from gi.repository import Gio, GLib

SERVICES = {
    "proxy": ("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy",
              "ClaimAccelerometer", "AccelerometerOrientation"),
    "tiltd": ("net.tiltd.Tilt", "/net/tiltd/Tilt", "net.tiltd.Tilt1", "Claim", "Orientation"),
}
VECTORS = {"normal": (523, 13, 5), "right-up": (8, 521, -67)}

bus = Gio.bus_get_sync(Gio.BusType.SYSTEM)
context = GLib.MainContext.default()
current = {}   # service -> latest orientation
changed_at = {}  # service -> (orientation, monotonic time) of the latest change


def iterate_until(condition, seconds):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        context.iteration(False) or time.sleep(0.001)
    return condition()


def watch(key):
    name, path, iface, claim, prop = SERVICES[key]
    proxy = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.NONE, None, name, path, iface)

    def on_change(_proxy, values, _invalidated):
        values = values.unpack()
        if prop in values:
            current[key] = values[prop]
            changed_at[key] = (values[prop], time.monotonic())

    proxy.connect("g-properties-changed", on_change)
    if not iterate_until(lambda: proxy.get_name_owner() is not None, 20):
        sys.exit("%s never appeared on the bus" % name)
    proxy.call_sync(claim, None, Gio.DBusCallFlags.NONE, 5000, None)
    value = proxy.get_cached_property(prop)
    current[key] = value.unpack() if value else "undefined"
    return proxy


def main():
    case = sys.argv[1]
    proxies = [watch(key) for key in SERVICES]  # kept: a freed proxy stops listening
    iterate_until(lambda: all(current.get(k, "undefined") != "undefined" for k in SERVICES), 10)
    print("%s proxy=%s tiltd=%s" % (case, current.get("proxy"), current.get("tiltd")), flush=True)
    if len(sys.argv) < 4:
        return
    device, repeats = sys.argv[2], int(sys.argv[3])
    latencies = {k: [] for k in SERVICES}
    target = "right-up"
    for _ in range(repeats):
        for axis, value in zip("xyz", VECTORS[target]):
            with open("%s/in_accel_%s_raw" % (device, axis), "w") as f:
                f.write("%d\n" % value)
        start = time.monotonic()
        done = lambda: all(changed_at.get(k, ("", 0))[0] == target and changed_at[k][1] >= start
                           for k in SERVICES)
        iterate_until(done, 10)
        for k in SERVICES:
            seen, when = changed_at.get(k, ("", 0))
            latencies[k].append((when - start) * 1000 if seen == target and when >= start else float("nan"))
        target = "normal" if target == "right-up" else "right-up"
    for k in SERVICES:
        values = [v for v in latencies[k] if v == v]
        missed = len(latencies[k]) - len(values)
        print("latency %s: median %.0f ms, max %.0f ms over %d changes%s" % (
            k, statistics.median(values) if values else float("nan"), max(values) if values else float("nan"),
            len(values), " (%d missed)" % missed if missed else ""), flush=True)
    del proxies


main()
