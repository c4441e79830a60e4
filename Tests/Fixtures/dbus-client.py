#!/usr/bin/python3
"""A Python (Gio) client of net.tiltd.Tilt, used by Tests/BusTests.

usage: dbus-client.py ADDRESS MODE [COUNT]

  claim   claims, prints "ready", then one JSON line per PropertiesChanged
          received; after COUNT signals it exits at once WITHOUT calling
          Release, like a client that dies (COUNT 0: until stdin closes).
  watch   subscribes to PropertiesChanged without claiming, prints "ready";
          when stdin closes prints "received N" (N signals seen) and exits.
  release claims, releases, prints "released"; exits when stdin closes.

"When stdin closes" also means on SIGUSR1: end of file never comes while
another process spawned meanwhile holds a copy of the pipe's write end
(Foundation's Pipe is not close-on-exec), so the tests send both.

A refused Claim prints "error: NAME: MESSAGE" and exits 2.
"""
import json
import os
import signal
import sys

from gi.repository import Gio, GLib

NAME, PATH, IFACE = "net.tiltd.Tilt", "/net/tiltd/Tilt", "net.tiltd.Tilt1"

address, mode = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 0
flags = (Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
         | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
loop = GLib.MainLoop()
received = []


def changed(_bus, _sender, _path, _iface, _signal, parameters):
    interface, values, _invalidated = parameters.unpack()
    if interface != IFACE:
        return
    received.append(values)
    if mode == "claim":
        print(json.dumps(values), flush=True)
        if count and len(received) >= count:
            os._exit(0)  # no Release: the service must notice the client left


def stdin_closed(_source, _condition):
    if mode == "watch":
        print("received %d" % len(received), flush=True)
    loop.quit()
    return False


bus.signal_subscribe(None, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                     PATH, None, Gio.DBusSignalFlags.NONE, changed)
# A round trip to the bus daemon: the match rule above is in force after it.
bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
              "GetId", None, None, Gio.DBusCallFlags.NONE, 5000, None)
try:
    if mode in ("claim", "release"):
        bus.call_sync(NAME, PATH, IFACE, "Claim", None, None, Gio.DBusCallFlags.NONE, 5000, None)
    if mode == "release":
        bus.call_sync(NAME, PATH, IFACE, "Release", None, None, Gio.DBusCallFlags.NONE, 5000, None)
except GLib.Error as error:
    print("error: %s: %s" % (Gio.DBusError.get_remote_error(error), error.message), flush=True)
    sys.exit(2)
# Both before "ready": the tests may end the client as soon as they see it.
# A child started from a libdispatch worker inherits its blocked signals.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, stdin_closed)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, lambda: stdin_closed(None, None))
print("released" if mode == "release" else "ready", flush=True)
loop.run()
