#!/usr/bin/env bash
# Knob frame benchmarks, Swift and its cairo peer in one invocation.
#
#   bench/frames.sh [--frames N]
#
# 1. FrameBench (release): median per-frame time of the MTZ compositor, the
#    TLTiltSlider-style per-frame redraw and PNG encoding, at 64…512 px.
# 2. bench/frames_peer.py: pycairo compositing two prerendered rotated
#    shines at the same sizes (installs Debian's python3-cairo if missing).
# 3. End to end: `tiltd render --format y4m --size 256` of a two-minute
#    recording (the bundled NGIMU recording looped twelve times, written to
#    bench/out/two-minutes.csv) to /dev/null; its frame rate must be at least
#    5× the cairo peer's at 256 px.
# Results go to stdout and bench/out/frames-results.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
frames=2000
[[ "${1:-}" == "--frames" ]] && frames=$2
mkdir -p "$here/out"

if ! /usr/bin/python3 -c 'import cairo' 2>/dev/null; then
    echo "frames.sh: installing python3-cairo for the cairo peer" >&2
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends python3-cairo >&2
fi

echo "frames.sh: building release binaries" >&2
(cd "$here" && swift build -c release --product FrameBench >&2)
(cd "$root" && swift build -c release --product tiltd >&2)
tiltd="$root/.build/release/tiltd"

# A two-minute recording: the 10 s NGIMU trace (s <ns> <ax> <ay> <az> …,
# m/s²) looped twelve times as a CSV with continuous time.
trace="$here/out/two-minutes.csv"
awk 'BEGIN { n = 0; print "time_s,accel_x,accel_y,accel_z" }
     $1 == "s" { t[n] = $2; x[n] = $3; y[n] = $4; z[n] = $5; n++ }
     END {
       span = t[n-1] - t[0] + (t[n-1] - t[0]) / (n - 1)
       for (k = 0; k < 12; k++)
         for (i = 0; i < n; i++)
           printf "%.6f,%s,%s,%s\n", (t[i] - t[0] + k * span) / 1e9, x[i], y[i], z[i]
     }' "$root/recordings/ngimu-hand-motion.trace" > "$trace"

results="$here/out/frames-results.txt"
{
    echo "# $(date -u +%FT%TZ) $(uname -m), load: $(cut -d' ' -f1-3 /proc/loadavg)"
    "$here/.build/release/FrameBench" --frames "$frames"
    /usr/bin/python3 "$here/frames_peer.py" --frames $((frames / 4))

    start=$(date +%s%N)
    "$tiltd" render "$trace" --format y4m --size 256 > /dev/null 2> "$here/out/render-stderr.txt"
    end=$(date +%s%N)
    rendered=$(grep -o 'rendered [0-9]* frames' "$here/out/render-stderr.txt" | grep -o '[0-9]*')
    awk -v n="$rendered" -v ns=$((end - start)) 'BEGIN {
        printf "tiltd render --format y4m --size 256, two-minute trace: %d frames in %.2f s = %.0f fps\n", n, ns / 1e9, n / (ns / 1e9)
        printf "RESULT tiltd-render-y4m 256 %.1f\n", ns / 1e3 / n }'
} | tee "$results"

awk '/^RESULT cairo-layers 256 / { cairo = $4 }
     /^RESULT swift-composite 256 / { swift = $4 }
     /^RESULT tiltd-render-y4m 256 / { e2e = $4 }
     END {
       printf "\n256 px: compositor %.0f fps (%.1fx cairo layers), tiltd render y4m %.0f fps = %.1fx cairo layers %.0f fps (need >= 5x): %s\n",
              1e6 / swift, cairo / swift, 1e6 / e2e, cairo / e2e, 1e6 / cairo, (cairo / e2e >= 5 ? "PASS" : "FAIL")
       printf "256 px compositor target <= 100 us: %.1f us: %s\n", swift, (swift <= 100 ? "PASS" : "FAIL")
     }' "$results" | tee -a "$results"
