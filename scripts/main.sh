#!/usr/bin/env bash
# The main job: set up, build tiltd (release), then
#   - with an accelerometer: stream live knob states (JSON Lines) until Ctrl-C;
#   - without one: replay the bundled NGIMU hand-motion recording, print a
#     summary of its knob states, and render it to PNG frames and a contact
#     sheet under out/ (the path is printed at the end).
# Arguments are passed to `tiltd run` when a device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "main: building tiltd (release; the first build takes a few minutes)" >&2
swift build -c release --product tiltd >&2
tiltd=.build/release/tiltd

if "$tiltd" list >/dev/null 2>&1; then
    "$tiltd" list >&2
    echo "main: streaming the accelerometer above (Ctrl-C stops)" >&2
    exec "$tiltd" run "$@"
fi

recording=recordings/ngimu-hand-motion.trace
out=out/ngimu
echo "main: no accelerometer here ($("$tiltd" list 2>&1 | head -n 1 | cut -c1-160))" >&2
echo "main: replaying $recording instead" >&2
mkdir -p "$out"
"$tiltd" replay "$recording" > "$out/states.jsonl"
python3 - "$out/states.jsonl" <<'PY' || true
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
if rows:
    r = [s["roll"] for s in rows]; p = [s["pitch"] for s in rows]
    o = {}
    for s in rows: o[s["orientation"]] = o.get(s["orientation"], 0) + 1
    print(f"{len(rows)} knob states over {rows[-1]['t'] - rows[0]['t']:.2f} s "
          f"(the rest were below the 0.0022 rad change gate)")
    print(f"roll  {min(r):+.3f} .. {max(r):+.3f} rad   pitch {min(p):+.3f} .. {max(p):+.3f} rad")
    print("orientations: " + ", ".join(f"{k} {v}" for k, v in sorted(o.items())))
    print("first state: " + json.dumps(rows[0]))
PY
"$tiltd" render "$recording" --out "$out/frames" --contact-sheet "$out/contact-sheet.png"

# Fused (gyro, the default) vs accelerometer-only (--no-gyro), side by side:
# every sample of the recording, and both against the NGIMU's own attitude.
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
python3 bench/accuracy.py "$tiltd" "$recording" recordings/ngimu-hand-motion.reference.csv fused || true
python3 bench/accuracy.py "$tiltd" "$recording" recordings/ngimu-hand-motion.reference.csv accelerometer-only --no-gyro || true
echo
echo "main: look at $out/contact-sheet.png (frames across the recording),"
echo "      $out/frames/frame-*.png (every frame at 60 fps) and $out/states.jsonl;"
echo "      $out/fused.jsonl vs $out/accelerometer-only.jsonl: every sample with and without the gyro;"
echo "      or watch it live: $tiltd serve --replay $recording --loop  (then open http://127.0.0.1:8046/)"
