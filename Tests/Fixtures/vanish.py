#!/usr/bin/python3
"""Runs tiltd against a umockdev testbed whose device vanishes and returns.

umockdev-run cannot remove a device mid-run (SPEC §6), so this drives a
testbed through the umockdev library, as iio-sensor-proxy's tests do. Run it
with Debian's python3 (it has gi) under umockdev-wrapper:

    umockdev-wrapper /usr/bin/python3 vanish.py DEVICE.umockdev [OPTIONS] -- TILTD ARGS...

Options, for an evdev node (a game pad's motion sensor):
    --ioctl NODE=FILE      the node's ioctl description (umockdev-run --ioctl)
    --evemu NODE=FILE      its evemu events, played from the first open
    --return-as OLD=NEW    the device comes back with OLD replaced by NEW in
                           its description (e.g. event5=event6: a pad that
                           reconnects gets a new node), its ioctl and events
                           loaded for the new node

It starts tiltd, waits for samples, removes the device, waits until tiltd
reports the loss, adds the device again, waits for samples again and stops
tiltd with SIGINT. tiltd's stdout passes through unchanged; its stderr too,
with this script's own "vanish.py: …" progress lines. Exits with tiltd's
status (or 3 when a step timed out). Without --return-as the description must have no `N:` line: re-adding
the same device node aborts in umockdev 0.17 (a new node name works).
"""
import os
import signal
import subprocess
import sys
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402


def say(message):
    sys.stderr.write(f"vanish.py: {message}\n")
    sys.stderr.flush()


def main():
    separator = sys.argv.index("--")
    description = open(sys.argv[1], encoding="utf-8").read()
    command = sys.argv[separator + 1:]
    options = sys.argv[2:separator]
    pairs = {"--ioctl": [], "--evemu": [], "--return-as": []}
    for flag, value in zip(options[::2], options[1::2]):
        pairs[flag].append(tuple(value.split("=", 1)))
    syspath = "/sys" + description.split("\n", 1)[0][len("P: "):].strip()

    def add(text, rename=lambda name: name):
        testbed.add_from_string(text)
        for node, path in pairs["--ioctl"]:
            testbed.load_ioctl(rename(node), path)
        for node, path in pairs["--evemu"]:
            testbed.load_evemu_events(rename(node), path)

    testbed = UMockdev.Testbed.new()
    add(description)
    environment = dict(os.environ, UMOCKDEV_DIR=testbed.get_root_dir())
    tiltd = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    lines = [0]
    lost = threading.Event()

    def pump_stdout():
        for line in tiltd.stdout:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
            lines[0] += 1

    def pump_stderr():
        for line in tiltd.stderr:
            sys.stderr.buffer.write(line)
            sys.stderr.buffer.flush()
            if b"lost " in line:
                lost.set()

    threads = [threading.Thread(target=pump_stdout), threading.Thread(target=pump_stderr)]
    for thread in threads:
        thread.start()

    def wait_for(predicate, seconds, what):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if predicate():
                return True
            if tiltd.poll() is not None:
                say(f"tiltd exited while waiting for {what}")
                return False
            time.sleep(0.02)
        say(f"timed out waiting for {what}")
        return False

    ok = wait_for(lambda: lines[0] >= 5, 30, "samples before removal")
    if ok:
        testbed.remove_device(syspath)
        say("removed " + syspath)
        ok = wait_for(lost.is_set, 30, "tiltd to report the loss")
    if ok:
        time.sleep(0.5)  # tiltd keeps retrying meanwhile
        returned = description
        for old, new in pairs["--return-as"]:
            returned = returned.replace(old, new)
        add(returned, lambda name: name.replace(*pairs["--return-as"][0]) if pairs["--return-as"] else name)
        before = lines[0]
        say("added " + returned.split("\n", 1)[0][len("P: "):].strip() + " again")
        ok = wait_for(lambda: lines[0] >= before + 5, 30, "samples after the device returned")
    if tiltd.poll() is None:
        tiltd.send_signal(signal.SIGINT)
    try:
        status = tiltd.wait(timeout=30)
    except subprocess.TimeoutExpired:
        tiltd.kill()
        status = tiltd.wait()
    for thread in threads:
        thread.join()
    sys.exit(status if ok else 3)


if __name__ == "__main__":
    main()
