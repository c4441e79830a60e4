#!/usr/bin/env bash
# Two prebuilt release builds side by side, for "no regression against the
# commit before" (issue 23): bench/goals.sh's cpu, memory and latency goals
# and bench/latency.sh's comparison, as one table of base, new and new/base.
#
#   BASE_BIN=/work/base/.build-release/release/tiltd NEW_BIN=…/release/tiltd bench/against.sh
#   ROUNDS=5 BASE_COMMIT=0b76046 … bench/against.sh
#
# tiltd-run must sit beside each tiltd. Each of ROUNDS rounds (3 by default)
# runs goals.sh once (RUNS=1) for base, then for new; latency.sh then takes
# its own ROUNDS turns. Each figure is the median over the rounds, with their
# range; iio_readdev's CPU, measured beside each run, shows the machine's
# drift. BASE_COMMIT (default: the checkout BASE_BIN was built in) only names
# latency.sh's base; latency.sh calls new "this tree" after the checkout it
# runs from. Progress and goals.sh's own lines go to stderr. LATENCY=0
# leaves latency.sh out (goals.sh's figures only).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
ROUNDS=${ROUNDS:-3}
for bin in "${BASE_BIN:?BASE_BIN: a release tiltd}" "${NEW_BIN:?NEW_BIN: a release tiltd}"; do
    [[ -x $bin && -x $(dirname "$bin")/tiltd-run ]] \
        || { echo "against.sh: $bin or tiltd-run beside it is missing; build both products in release" >&2; exit 1; }
done
base_commit=${BASE_COMMIT:-$(git -C "$(dirname "$BASE_BIN")" rev-parse --short HEAD)}
work="$(mktemp -d /tmp/tiltd-against.XXXXXX)"
# The raw figures stay when anything fails, named on stderr.
trap 'status=$?; if [[ $status == 0 ]]; then rm -rf "$work"; else echo "against.sh: figures kept in $work" >&2; fi' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
load_before=$(load)

for round in $(seq "$ROUNDS"); do
    for side in base new; do
        bin=$BASE_BIN; [[ $side == base ]] || bin=$NEW_BIN
        echo "against.sh: round $round/$ROUNDS, $side, goals.sh (load $(load))" >&2
        RUNS=1 TILTD_BIN="$bin" bench/goals.sh cpu memory latency > "$work/goals.$side.$round"
    done
done
if [[ ${LATENCY:-1} == 1 ]]; then
    echo "against.sh: latency.sh --against $base_commit --rounds $ROUNDS (load $(load))" >&2
    TILTD_BIN="$NEW_BIN" BASE_BIN="$BASE_BIN" bench/latency.sh --against "$base_commit" --rounds "$ROUNDS" \
        | tee "$work/latency" >&2
else
    : > "$work/latency"
fi

python3 - "$work" "$ROUNDS" "$BASE_BIN" "$NEW_BIN" "$load_before" "$(load)" <<'PY'
import glob, os, re, statistics, subprocess, sys
work, rounds, base_bin, new_bin, load_before, load_after = sys.argv[1:]
figures = {}  # (metric, side) -> [one figure per round]
def add(metric, side, text):
    figures.setdefault((metric, side), []).append(float(re.search(r"[\d.]+", text).group()))

# goals.sh's table: | Goal | tiltd | Peer | Ratio | Target | Met |
goal_rows = [("CPU per sample", "CPU per sample, buffered 200 Hz (µs)", 1),
             ("CPU per sample", "iio_readdev beside that run (µs; drift)", 2),
             ("peak RSS, `tiltd run` (VmHWM", "VmHWM of `run` (tiltd-run, MiB)", 1),
             ("peak RSS, `tiltd serve`", "peak RSS of `serve` (MiB)", 1),
             ("latency p99 under load, Nice=-10", "socket p99 under load, nice 0 (µs)", 2),
             ("latency p99 under load, Nice=-10", "socket p99 under load, Nice=-10 (µs)", 1),
             ("latency p99 under load, CPUSched", "socket p99 under load, FIFO 10 (µs)", 1)]
for path in sorted(glob.glob(f"{work}/goals.*.*")):
    side = path.split(".")[-2]
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for prefix, metric, column in goal_rows:
            if cells[0].startswith(prefix):
                add(metric, side, cells[column])

# latency.sh: "#### round r/N: this tree …" (new) or "… commit X" (base), then its lines.
cpu_labels = {"buffered, --listen": "buffered 100 Hz still, 1 client (% core)",
              "polled, --listen": "polled 100 Hz still, 1 client (% core)",
              "polled, stdout only": "polled 100 Hz still, no socket (% core)",
              "polled, 100 Hz, --no-gate --listen": "polled 100 Hz, a line per sample, 1 client (% core)",
              "polled, 100 Hz, --dsu": "polled 100 Hz, a packet per sample, 1 DSU client (% core)"}
side = label = None
for line in open(f"{work}/latency"):
    if line.startswith("#### round"):
        side = "new" if ": this tree" in line else "base"
    elif (m := re.search(r"p99 (\d+) us", line)) and line.startswith("states"):
        add("socket p99, latency.sh 200 Hz (µs)", side, m.group(1))
    elif m and line.startswith("DSU packets"):
        add("DSU p99, latency.sh 200 Hz (µs)", side, m.group(1))
    elif line.startswith("-- "):
        # A case this table does not know is left out, not a failure.
        label = next((v for k, v in cpu_labels.items() if line[3:].startswith(k)), None)
    elif (m := re.search(r"= ([\d.]+)% of one core", line)) and label:
        add(label, side, m.group(1))

def foundation(bin):
    ldd = subprocess.run(["ldd", os.path.join(os.path.dirname(bin), "tiltd-run")], capture_output=True, text=True)
    if ldd.returncode:
        return "ldd failed"
    return ", ".join(re.findall(r"^\s*(libFoundation\.so|libFoundationInternationalization\S*|lib_FoundationICU\S*)", ldd.stdout, re.M)) or "no"
def fmt(x):
    return f"{x:.{0 if x >= 100 else 1 if x >= 10 else 2}f}"
def cell(values):
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})" if values else "–"
print(f"base {base_bin}\nnew  {new_bin}\n{rounds} rounds; median (min–max) of the rounds; "
      f"load average {load_before} before, {load_after} after\n")
print("| Figure | base | new | new/base |\n|---|---|---|---|")
print(f"| tiltd-run links Foundation (ldd; as RunExecutableTests) | {foundation(base_bin)} | {foundation(new_bin)} | |")
metrics = ([m for _, m, _ in goal_rows] + ["socket p99, latency.sh 200 Hz (µs)", "DSU p99, latency.sh 200 Hz (µs)"]
           + list(cpu_labels.values()))
for metric in metrics:
    base, new = figures.get((metric, "base"), []), figures.get((metric, "new"), [])
    ratio = f"{statistics.median(new) / statistics.median(base):.2f}" if base and new and statistics.median(base) else "–"
    print(f"| {metric} | {cell(base)} | {cell(new)} | {ratio} |")
PY
