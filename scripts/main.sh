#!/usr/bin/env bash
# The main job: set up, build tiltd (release), then
#   - with an accelerometer: stream live knob states (JSON Lines) until Ctrl-C;
#   - without one: replay the bundled synthetic tilt sweep (a computed roll
#     wobble, then a pitch sweep past upright and back: the recording whose
#     shines visibly turn and fade), print a summary of its knob states,
#     render it to PNG frames and a labelled contact sheet under out/, say
#     what to look for; then the same for a real recording (NGIMU hand
#     motion, mostly shaking within about ±20°).
# Arguments are passed to `tiltd run` when a device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "main: building tiltd (release; the first build takes a few minutes)" >&2
# As `make` builds it: both executables (`tiltd run` below execs tiltd-run
# from beside tiltd), the Swift runtime linked in.
swift build -c release --static-swift-stdlib >&2
tiltd=.build/release/tiltd

# `list` exits 0 with nothing to read too: its JSON is [] then.
devices=$("$tiltd" list --json 2>/dev/null || true)
if [[ -n "$devices" && "$devices" != "[]" ]]; then
    "$tiltd" list >&2
    echo "main: streaming the accelerometer above (Ctrl-C stops)" >&2
    exec "$tiltd" run "$@"
fi

# summarise STATES.jsonl: how many states, the roll and pitch ranges in degrees.
summarise() {
    python3 - "$1" <<'PY' || true
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
if rows:
    deg = 57.29577951308232
    r = [s["roll"] * deg for s in rows]; p = [s["pitch"] * deg for s in rows]
    print(f"  {len(rows)} knob states over {rows[-1]['t'] - rows[0]['t']:.2f} s "
          f"(the other samples were below the 0.0022 rad change gate)")
    print(f"  roll {min(r):+.0f}° .. {max(r):+.0f}°, pitch {min(p):+.0f}° .. {max(p):+.0f}°")
PY
}

# states_span STATES.jsonl: seconds from the first knob state to the last (what
# a render, and so its contact sheet, covers), one decimal.
states_span() {
    python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("%.1f" % (rows[-1]["t"] - rows[0]["t"] if rows else 0))' "$1"
}

# replay_and_render NAME RECORDING: states, frames and a contact sheet in out/NAME.
replay_and_render() {
    local name=$1 recording=$2
    mkdir -p "out/$name"
    echo "main: replaying and rendering $recording" >&2
    "$tiltd" replay "$recording" > "out/$name/states.jsonl"
    summarise "out/$name/states.jsonl"
    "$tiltd" render "$recording" --out "out/$name/frames" --overwrite \
        --contact-sheet "out/$name/contact-sheet.png" --contact-sheet-frames 12 --columns 6
}

echo "main: no accelerometer here; tiltd list says:" >&2
{ "$tiltd" list 2>&1 >/dev/null || true; } | sed 's/^/      /' >&2
replay_and_render sweep recordings/synthetic-tilt-sweep.trace
cat <<TEXT

main: look at out/sweep/contact-sheet.png: 12 frames across the 12 s sweep,
      each labelled with its time and its roll (r) and pitch (p) in degrees.
      - 0 to 4 s, the roll wobbles to about ±28°: both shine bands turn
        together (rotation −roll) while one fades and the other brightens
        (opacity 1 ∓ roll), so the highlight swings and dims side to side;
      - 4 to 12 s, the pitch sweeps from 0° past upright (to about 115°) and back:
        the two bands turn in opposite directions (±pitch) at full strength,
        opening into an X and closing again.
      Every frame at 60 fps: out/sweep/frames/frame-*.png; states: out/sweep/states.jsonl.

TEXT
replay_and_render ngimu recordings/ngimu-hand-motion.trace
cat <<TEXT

main: out/ngimu/contact-sheet.png is $(states_span out/ngimu/states.jsonl) s of real hand motion (from its first
      knob state to its last), mostly shaking within about ±20°, so its knobs
      change far less than the sweep's.
TEXT

# Fused (gyro, the default) vs accelerometer-only (--no-gyro), side by side:
# every sample of the NGIMU recording, and both against the NGIMU's own attitude.
recording=recordings/ngimu-hand-motion.trace
out=out/ngimu
echo
echo "main: the same recording with its gyroscope (fused) and without (--no-gyro), every 25th sample:"
"$tiltd" replay --no-gate "$recording" > "$out/fused.jsonl"
"$tiltd" replay --no-gate --no-gyro "$recording" > "$out/accelerometer-only.jsonl"
python3 - "$out/fused.jsonl" "$out/accelerometer-only.jsonl" <<'PY' || true
import json, sys
fused = [json.loads(l) for l in open(sys.argv[1])]
plain = [json.loads(l) for l in open(sys.argv[2])]
print("     t s |  fused roll  pitch | accel-only roll  pitch |  difference °")
for f, a in list(zip(fused, plain))[::25]:
    d = max(abs(f["roll"] - a["roll"]), abs(f["pitch"] - a["pitch"])) * 57.29578
    print(f"{f['t']:8.2f} | {f['roll']:+11.3f} {f['pitch']:+6.3f} | {a['roll']:+15.3f} {a['pitch']:+6.3f} | {d:13.1f}")
PY
echo
echo "main: tilt error against the NGIMU's own attitude estimate, in degrees, over every sample after the"
echo "      first second: median, 95th percentile (p95), median while the device is still, and lag_ms, the"
echo "      time shift that best aligns the two (negative: tiltd runs ahead); one RESULT line per estimate:"
python3 bench/accuracy.py "$tiltd" "$recording" recordings/ngimu-hand-motion.reference.csv fused || true
python3 bench/accuracy.py "$tiltd" "$recording" recordings/ngimu-hand-motion.reference.csv accelerometer-only --no-gyro || true
cat <<TEXT

main: $out/fused.jsonl vs $out/accelerometer-only.jsonl: every sample with and without the gyro.
      Watch the sweep live: $tiltd serve --replay recordings/synthetic-tilt-sweep.trace --loop
      then open http://127.0.0.1:8046/
TEXT
