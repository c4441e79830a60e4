#!/usr/bin/env bash
# tiltd's D-Bus service beside iio-sensor-proxy (Debian's package), both
# under the same umockdev polled accelerometer on a private system bus
# (issue 15; never part of CI):
#
#   bench/dbus-peer.sh [REPEATS]      (default 10 orientation changes)
#
# 1. Agreement: does net.tiltd.Tilt1.Orientation match iio-sensor-proxy's
#    AccelerometerOrientation on Tests/Fixtures/onda-v975.umockdev and on
#    each device of Tests/Fixtures/vectors.umockdev (one at a time)?
# 2. Latency (Onda): bench/dbus_peer.py rewrites the raw attributes between
#    SPEC §5's "normal" and "right-up" vectors and times, for each service,
#    the PropertiesChanged that reports the new orientation. iio-sensor-proxy
#    polls; tiltd polls at the device's rate raised to 10 Hz and low-pass
#    filters (5 Hz) before classifying.
#
# Both fixtures gain E: IIO_SENSOR_PROXY_TYPE=iio-poll-accel, the udev
# property iio-sensor-proxy's rules would set. Release build unless
# TILTD=path/to/tiltd is given.
set -euo pipefail

repeats="${1:-10}"
root="$(cd "$(dirname "$0")/.." && pwd)"
proxy=/usr/sbin/iio-sensor-proxy
[[ -x "$proxy" ]] || { echo "dbus-peer: $proxy missing: apt-get install iio-sensor-proxy" >&2; exit 1; }
if [[ -z "${TILTD:-}" ]]; then
    # Both executables: `tiltd run` execs tiltd-run when it sits beside tiltd.
    (cd "$root" && swift build -c release --product tiltd >&2 && swift build -c release --product tiltd-run >&2)
    TILTD="$root/.build/release/tiltd"
fi
work="$(mktemp -d /tmp/tiltd-dbus-peer.XXXXXX)"
bus_pid=""
cleanup() {
    [[ -n "$bus_pid" ]] && kill "$bus_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A bus like Debian's system bus, but anyone may own any name.
cat > "$work/system.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/> <allow own="*"/>
    <allow send_type="method_call"/> <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/> <allow receive_type="method_return"/>
    <allow receive_type="error"/> <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus"/>
  </policy>
</busconfig>
CONF
dbus-daemon --config-file="$work/system.conf" --fork --nopidfile --print-address=1 --print-pid=2 \
    > "$work/address" 2> "$work/pid"
bus_pid="$(tail -n1 "$work/pid")"
export DBUS_SYSTEM_BUS_ADDRESS="$(cat "$work/address")"

# One umockdev file per device, with iio-sensor-proxy's udev property.
python3 - "$root/Tests/Fixtures" "$work" <<'PY'
import sys
fixtures, work = sys.argv[1], sys.argv[2]
def split(name):
    text = open("%s/%s.umockdev" % (fixtures, name)).read()
    return [d.strip() for d in text.split("\n\n") if d.strip().startswith("P:")]
cases = [("onda-v975", split("onda-v975")[0])]
cases += [("vectors:" + d.split("A: name=")[1].split("\\n")[0], d) for d in split("vectors")]
for index, (case, text) in enumerate(cases):
    lines = text.split("\n")
    at = next(i for i, l in enumerate(lines) if l == "E: SUBSYSTEM=iio")
    lines.insert(at + 1, "E: IIO_SENSOR_PROXY_TYPE=iio-poll-accel")
    open("%s/case%d.umockdev" % (work, index), "w").write("\n".join(lines) + "\n")
    open("%s/case%d.name" % (work, index), "w").write(case)
PY

for file in "$work"/case*.umockdev; do
    case_name="$(cat "${file%.umockdev}.name")"
    sysfs="/sys$(sed -n 's/^P: //p' "$file" | head -n1)"
    extra=()
    [[ "$case_name" == onda-v975 ]] && extra=("$sysfs" "$repeats")
    umockdev-run --device "$file" -- /bin/sh -c '
        "$1" > "$4/proxy.log" 2>&1 & proxy=$!
        "$2" run --dbus system --mode poll > /dev/null 2> "$4/tiltd.log" & tiltd=$!
        shift 4
        /usr/bin/python3 "$@"; status=$?
        kill $proxy; kill -INT $tiltd; wait $proxy $tiltd 2>/dev/null
        exit $status' sh "$proxy" "$TILTD" "$root/bench/dbus_peer.py" "$work" \
        "$root/bench/dbus_peer.py" "$case_name" "${extra[@]}" \
        || { echo "dbus-peer: $case_name failed" >&2; tail -n5 "$work/proxy.log" "$work/tiltd.log" >&2; }
done
