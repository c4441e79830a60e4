#!/usr/bin/python3
"""Changes a polled device's in_accel_y_raw while tiltd reads it.

Run inside umockdev-run (the attribute path is redirected to the testbed):

    umockdev-run --device vectors.umockdev -- \\
        /usr/bin/python3 poll-change.py inplace|replace VALUE ORIENTATION -- TILTD ARGS...

It starts tiltd, waits for three states, then writes VALUE to
iio:device0's in_accel_y_raw: "inplace" rewrites the file (as the kernel's
attribute changes under an open descriptor), "replace" writes a new file
and renames it over the old one in the testbed (as umockdev's
set_attribute does). It waits for a state with ORIENTATION, then stops
tiltd with SIGINT. tiltd's stdout and stderr pass through; the exit status
is tiltd's, or 3 when a step did not happen within 30 s.
"""
import glob
import os
import select
import signal
import subprocess
import sys
import time


def main():
    how, value, orientation = sys.argv[1:4]
    command = sys.argv[sys.argv.index("--") + 1:]
    tiltd = subprocess.Popen(command, stdout=subprocess.PIPE)
    pending, states = b"", 0

    def wait_for(predicate, what):
        nonlocal pending, states
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            ready, _, _ = select.select([tiltd.stdout], [], [], 0.1)
            if not ready:
                continue
            data = os.read(tiltd.stdout.fileno(), 65536)
            if not data:
                break
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                states += 1
                if predicate(line):
                    return True
        sys.stderr.write(f"poll-change.py: {what} did not happen within 30 s\n")
        tiltd.kill()
        tiltd.wait()
        sys.exit(3)

    wait_for(lambda line: states >= 3, "three states")
    if how == "inplace":
        with open("/sys/bus/iio/devices/iio:device0/in_accel_y_raw", "w") as attribute:
            attribute.write(f"{value}\n")
    else:
        # The testbed's own file (not redirected: it is under /tmp), at
        # /sys/devices/platform/NAME/iio:device0 (no recursive glob: the
        # testbed's subsystem links make loops).
        path = glob.glob(os.environ["UMOCKDEV_DIR"] + "/sys/devices/*/*/iio:device0/in_accel_y_raw")[0]
        with open(path + ".new", "w") as attribute:
            attribute.write(f"{value}\n")
        os.replace(path + ".new", path)
    wait_for(lambda line: f'"orientation":"{orientation}"'.encode() in line, f"a state {orientation}")
    tiltd.send_signal(signal.SIGINT)
    rest, _ = tiltd.communicate(timeout=30)
    sys.stdout.buffer.write(rest)
    sys.exit(tiltd.returncode)


if __name__ == "__main__":
    main()
