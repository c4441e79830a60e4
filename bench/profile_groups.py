#!/usr/bin/env python3
"""Where a process's CPU time goes, from `perf script` output (bench/profile.sh).

Reads `perf script -F comm,pid,tid,time,period,ip,sym,dso` with call chains
(recorded with `perf record -e cpu-clock -g`) on stdin and prints, for the
process whose command name is PROCESS (every thread of it):

  * CPU per sample: the summed sample periods divided by SAMPLES, split into
    start-up (before the first device read), steady state and shut-down;
  * self time by group (umockdev preload shim, libiio, kernel, Swift runtime,
    Foundation, SwiftNIO, tiltd's pipeline …): where the instructions run;
  * steady-state time by stage (device read, pipeline, JSON, stdout write,
    hand-over to the event loop, event-loop wake-up, socket write …): the
    innermost recognised tiltd or libiio function on each call chain, so a
    kernel sample under write(2) from StdoutSink counts as "stdout write";
  * the top symbols by self and by inclusive time.

Swift symbols are demangled with swift-demangle when it is on PATH or in
/opt/swift/usr/bin.

    perf script ... | bench/profile_groups.py tiltd-run 4000 [TOP]   (`tiltd run` execs tiltd-run)
"""
import collections
import os
import re
import shutil
import subprocess
import sys

HEADER = re.compile(r"^\s*(\S.*?)\s+(\d+)/(\d+)\s+([\d.]+):\s+(\d+)\s*(?:\S+:)?\s*$")
FRAME = re.compile(r"^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$")

# Self-time groups: first rule whose DSO or symbol matches decides.
def group_of(dso, sym):
    base = os.path.basename(dso)
    if "umockdev" in base:
        return "umockdev preload shim (test harness)"
    if base.startswith("libiio"):
        return "libiio"
    if dso.startswith("[kernel") or base in ("[vdso]",):
        return "kernel (syscalls, scheduling, vdso)"
    if base.startswith(("libswiftCore", "libswift_Concurrency", "libswiftDispatch", "libdispatch",
                        "libBlocksRuntime", "libswiftSynchronization", "libswift_")):
        if re.search(r"swift_(retain|release|bridgeObjectRetain|bridgeObjectRelease|unknownObject"
                     r"(Retain|Release))|swift_(non)?atomic", sym):
            return "Swift runtime: retain/release"
        if re.search(r"swift_(allocObject|deallocObject|slowAlloc|slowDealloc|allocBox|deallocClassInstance"
                     r"|deallocUninitialized)", sym):
            return "Swift runtime: allocation"
        if base.startswith(("libdispatch", "libswiftDispatch", "libBlocksRuntime")):
            return "Dispatch"
        return "Swift runtime: other (generics, conformances, concurrency)"
    if base.startswith(("libFoundation", "libicu", "lib_FoundationICU", "libswiftFoundation")):
        return "Foundation / ICU"
    if base.startswith("libc.so") or base.startswith("libc-"):
        if re.search(r"malloc|free|_int_|tcache|calloc|realloc|memalign", sym):
            return "libc malloc/free"
        return "libc (syscall wrappers, string, locks)"
    if base.startswith("ld-linux") or base.startswith("ld-"):
        return "dynamic loader"
    if base.startswith(("libstdc++", "libgcc", "libm.so", "libxml2", "libusb", "libavahi")):
        return "other C libraries"
    if base in ("tiltd", "tiltd-run", "iio_readdev"):
        module = module_of(sym)
        if base == "iio_readdev":
            return "iio_readdev"
        if module.startswith(("NIO", "_NIO")):
            return "SwiftNIO (socket broadcast)"
        if re.search(r"appendJSONLine|StdoutSink|FileDescriptorWriter|JSONNumber", sym):
            return "tiltd JSON + stdout"
        if re.search(r"StateBroadcaster|BroadcastClient|BroadcastInbox|UnixSocket", sym):
            return "tiltd socket broadcast"
        if module in ("Motion", "Knob"):
            return "tiltd motion pipeline"
        if module == "Devices":
            return "tiltd capture (Devices)"
        if module in ("SamplePath", "StateSocket", "Daemon", "System"):
            return "tiltd sample path (DeviceRun, SampleRun)"
        if module == "Swift":
            return "Swift stdlib code specialised into tiltd"
        if module in ("", "__swift_instantiateConcreteTypeFromMangledName"):
            return "tiltd other (metadata, thunks)"
        return f"tiltd: package {module}"
    return base or "[unknown]"


def module_of(full):
    """The module of a fully demangled Swift name: the first qualified name in
    it ("closure #1 in SamplePath.SampleRun.process(Motion.Reading)" → SamplePath)."""
    match = re.search(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)\.(?=[A-Za-z_(])", full)
    return match.group(1) if match else ""


# Steady-state stages: innermost (leaf-first) frame matching a rule decides.
STAGES = [
    ("device read (iio_buffer_refill)", r"iio_buffer_refill"),
    ("device read (iio_buffer_refill)", r"BufferedReader\.refill"),
    ("JSON encode", r"appendJSONLine"),
    ("stdout write", r"StdoutSink|FileDescriptorWriter"),
    ("hand-over to the event loop (emit)", r"StateBroadcaster\.emit"),
    ("broadcast drain + socket write", r"StateBroadcaster\.drain|BroadcastClient"),
    ("motion pipeline", r"TiltPipeline|\bMotion\.|KnobState"),
    ("sample conversion (Devices)", r"CaptureSession|ScanLayout|AccelerometerInfo"),
    ("device run (DeviceRun, SampleRun)", r"DeviceRun|SampleRun|DeviceCapture"),
    ("event loop (wake-ups, epoll, tasks)", r"SelectableEventLoop|Selector\.|epoll_wait|NIOThread"),
    ("Swift concurrency / Dispatch idle", r"swift_task|swift_job|_dispatch|dispatch_"),
]
STAGES = [(name, re.compile(pattern)) for name, pattern in STAGES]
# When no frame of the chain matches a stage: the system call it is in.
SYSCALLS = [
    ("poll(2): wait for data and wake-up", r"^(__)?poll$|^ppoll$|__x64_sys_poll"),
    ("read(2)", r"^(__libc_)?read$|ksys_read"),
    ("write(2)", r"^(__libc_)?write$|^writev$|ksys_write|do_writev"),
    ("epoll_wait(2)", r"epoll_wait"),
    ("futex(2): locks and thread wake-ups", r"futex"),
]
SYSCALLS = [(name, re.compile(pattern)) for name, pattern in SYSCALLS]


def demangler():
    tool = shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle"
    return tool if os.path.exists(tool) else None


def demangle_all(symbols, simplified):
    """Mangled → demangled names: simplified for display, full (with module
    names such as NIOPosix. or Motion.) for grouping."""
    tool = demangler()
    names = sorted(symbols)
    if not tool or not names:
        return {name: name for name in names}
    out = subprocess.run([tool] + (["--simplified"] if simplified else []), input="\n".join(names) + "\n",
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return {name: (out[i] if i < len(out) and out[i] else name) for i, name in enumerate(names)}


def read_samples(stream, process):
    samples, tgids = [], set()
    current = None
    for line in stream:
        if not line.strip():
            if current is not None:
                samples.append(current)
            current = None
            continue
        header = HEADER.match(line)
        if header and not line.startswith(("\t", " " * 8)):
            comm, pid = header.group(1).strip(), int(header.group(2))
            if comm == process:
                tgids.add(pid)
            current = (comm, pid, float(header.group(4)), int(header.group(5)), [])
            continue
        frame = FRAME.match(line)
        if frame and current is not None:
            sym = re.sub(r"\+0x[0-9a-f]+$", "", frame.group(2))
            current[4].append((sym, frame.group(3)))
    if current is not None:
        samples.append(current)
    return [s for s in samples if s[1] in tgids]


def table(title, counts, total_ns, samples, top=None, width=64):
    print(f"\n{title}")
    print(f"  {'':{width}} {'µs/sample':>10} {'share':>7}")
    rows = sorted(counts.items(), key=lambda kv: -kv[1])
    for name, ns in rows[:top] if top else rows:
        print(f"  {name[:width]:{width}} {ns / 1000 / samples:10.2f} {100 * ns / total_ns:6.1f}%")


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: perf script ... | profile_groups.py PROCESS SAMPLES [TOP]")
    process, samples = sys.argv[1], int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    records = read_samples(sys.stdin, process)
    if not records:
        sys.exit(f"profile_groups.py: no perf samples of a process named {process}")
    mangled = {sym for r in records for sym, _ in r[4]}
    shown, full = demangle_all(mangled, True), demangle_all(mangled, False)
    # Each frame: (name shown, DSO, full name for the rules).
    records = [(c, p, t, ns, [(shown[s], d, full[s]) for s, d in chain]) for c, p, t, ns, chain in records]

    reads = [t for _, _, t, _, chain in records
             if any(STAGES[0][1].search(s) or STAGES[1][1].search(s) for s, _, _ in chain)]
    first_read, last_read = (min(reads), max(reads)) if reads else (0.0, float("inf"))
    phase = collections.Counter()
    by_group, by_stage = collections.Counter(), collections.Counter()
    self_sym, incl_sym = collections.Counter(), collections.Counter()
    steady_ns = 0
    for comm, _, time, ns, chain in records:
        when = "start-up (before the first device read)" if time < first_read else \
            "shut-down (after the last device read)" if time > last_read else "steady state"
        phase[when] += ns
        leaf_sym, leaf_dso, leaf_full = chain[0] if chain else ("[unknown]", "[unknown]", "[unknown]")
        by_group[group_of(leaf_dso, leaf_full)] += ns
        self_sym[f"{leaf_sym}  [{os.path.basename(leaf_dso)}]"] += ns
        for sym in {f"{s}  [{os.path.basename(d)}]" for s, d, _ in chain}:
            incl_sym[sym] += ns
        if when == "steady state":
            steady_ns += ns
            stage = next((name for s, _, _ in chain for name, rule in STAGES if rule.search(s)), None)
            if stage is None:
                stage = next((name for s, _, _ in chain for name, rule in SYSCALLS if rule.search(s)), None)
            if stage is None:
                stage = f"other ({group_of(leaf_dso, leaf_full)}, thread {comm})"
            by_stage[stage] += ns

    total = sum(phase.values())
    print(f"{process}: {len(records)} perf samples, {total / 1e6:.1f} ms CPU, "
          f"{total / 1000 / samples:.1f} µs per device sample ({samples} samples)")
    table("by phase", phase, total, samples)
    table("self time by group (all phases)", by_group, total, samples)
    table("steady state by stage (innermost recognised frame)", by_stage, steady_ns, samples)
    table(f"top {top} symbols, self", self_sym, total, samples, top, width=90)
    table(f"top {top} symbols, inclusive", incl_sym, total, samples, top, width=90)


if __name__ == "__main__":
    main()
