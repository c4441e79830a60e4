#!/usr/bin/env bash
# The package tier (README, "Tests"; docs/packaging.md): proves the Debian
# package on a clean Debian 12 where no Swift exists. Never part of CI: it
# needs a release build and a Debian mirror.
#
#   scripts/package-test.sh        (or scripts/test.sh package)
#   SCRATCH=.build-release scripts/package-test.sh   build in another folder
#
#   1. scripts/setup.sh package, then `make deb` (a release build with the
#      Swift runtime linked in) and lintian, which must report no error;
#   2. a minimal Debian 12 (bookworm) root made by debootstrap from the
#      mirror this machine's apt uses, kept as a tarball in CACHE between
#      runs (TILTD_PACKAGE_CACHE, default /var/cache/tiltd-package-test;
#      TILTD_DEBIAN_MIRROR overrides the mirror);
#   3. in a fresh copy of that root: `apt-get install ./tiltd_*.deb`, its
#      dependencies from Debian; then tiltd --version, tiltd list (nothing to
#      read: the friendly message naming the installed recording, exit 0),
#      replay of a bundled recording, render with --max-frames 3, draw;
#      then purge and check that nothing the package installed is left;
#   4. again in a fresh copy with systemd and dbus installed: the user from the
#      sysusers entry, systemd-analyze verify of the installed unit, the
#      unit enabled, then purge: no link, user or file left.
#
# Chroots need root: the steps after the build run through sudo when not root.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${TILTD_PACKAGE_CACHE:-/var/cache/tiltd-package-test}
as_root=()
[[ $(id -u) -eq 0 ]] || as_root=(sudo)

say() { echo "package-test: $*" >&2; }
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }

# --- 1. the package and lintian ---------------------------------------------
scripts/setup.sh package
say "make deb (release build, Swift runtime linked statically)"
scratch=${SCRATCH:-.build}
make deb SCRATCH="$scratch" >&2
version=$("$scratch/release/tiltd" --version)
deb="$repo/tiltd_${version}_$(dpkg --print-architecture).deb"
[[ -f "$deb" ]] || fail "make deb wrote no $deb"
say "built $(basename "$deb"): $(du -h "$deb" | cut -f1)"
dpkg-deb --field "$deb" Version Depends Installed-Size | sed 's/^/package-test:   /' >&2
say "lintian"
lintian --fail-on error --tag-display-limit 0 "$deb" | sed 's/^/package-test:   /' >&2 ||
    fail "lintian reports errors"
say "lintian: no errors"

# --- 2. the cached Debian 12 root -------------------------------------------
mirror=${TILTD_DEBIAN_MIRROR:-}
if [[ -z "$mirror" ]]; then
    # The first Debian mirror this machine's apt uses (deb822 or one-line sources).
    mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
             grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true)
    mirror=${mirror:-http://deb.debian.org/debian}
fi
base="$cache/bookworm-minbase.tar"
if [[ ! -f "$base" ]]; then
    say "debootstrap: a minimal Debian 12 from $mirror into $cache (once; kept for later runs)"
    "${as_root[@]}" mkdir -p "$cache"
    "${as_root[@]}" rm -rf "$cache/bootstrap.tmp"
    "${as_root[@]}" debootstrap --variant=minbase bookworm "$cache/bootstrap.tmp" "$mirror" >&2
    "${as_root[@]}" tar -C "$cache/bootstrap.tmp" -cf "$base.tmp" .
    "${as_root[@]}" mv "$base.tmp" "$base"
    "${as_root[@]}" rm -rf "$cache/bootstrap.tmp"
fi
"${as_root[@]}" mkdir -p "$cache/archives/partial"

# A fresh copy of the root in $cache/root, its apt pointed at the mirror.
fresh_root() {
    root="$cache/root"
    "${as_root[@]}" rm -rf "$root"
    "${as_root[@]}" mkdir -p "$root"
    "${as_root[@]}" tar -C "$root" -xf "$base"
    echo "deb $mirror bookworm main" | "${as_root[@]}" tee "$root/etc/apt/sources.list" >/dev/null
    "${as_root[@]}" cp /etc/resolv.conf "$root/etc/resolv.conf"
    "${as_root[@]}" cp "$deb" "$root/tmp/"
}

# in_root COMMAND...: runs COMMAND in the root, in a mount namespace of its
# own (/proc, a read-only /sys and apt's download cache, all gone when it
# ends); the host's /opt (the Swift toolchain) is not there.
in_root() {
    "${as_root[@]}" unshare --mount --propagation private -- sh -c '
        root=$1; archives=$2; shift 2
        mount -t proc proc "$root/proc" && mount -t sysfs -o ro sysfs "$root/sys" &&
        mount --bind "$archives" "$root/var/cache/apt/archives" &&
        exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
            DEBIAN_FRONTEND=noninteractive "$@"' sh "$root" "$cache/archives" "$@"
}

# Every path in the root outside what apt, dpkg and the logs keep and the
# runtime state in /run (systemctl leaves systemd-units-load there), and the
# users and groups: what a purge must bring back.
snapshot() {
    in_root sh -c 'find / -xdev \( -path /proc -o -path /sys -o -path /tmp -o -path /var/cache \
        -o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/log -o -path /run \) -prune \
        -o -print | grep -vE "^/etc/(passwd|group|shadow|gshadow|subuid|subgid)-\$" | LC_ALL=C sort;
        cut -d: -f1 /etc/passwd | sed "s/^/user: /"; cut -d: -f1 /etc/group | sed "s/^/group: /"' > "$1"
}

# install_package SNAPSHOT: the snapshot before, then apt-get install ./tiltd_*.deb.
install_package() {
    snapshot "$1"
    say "apt-get install ./$(basename "$deb") (dependencies from $mirror)"
    in_root sh -c "cd /tmp && apt-get install -y -q --no-install-recommends ./$(basename "$deb")" >&2 ||
        fail "apt-get install ./$(basename "$deb") failed"
}

# purge_and_compare SNAPSHOT: purges tiltd and the dependencies it pulled in,
# then the root must be as SNAPSHOT says.
purge_and_compare() {
    say "apt-get purge tiltd, then autoremove its dependencies"
    in_root apt-get purge -y -q tiltd >&2 || fail "apt-get purge tiltd failed"
    in_root apt-get autoremove --purge -y -q >&2 || fail "apt-get autoremove failed"
    snapshot "$1.after"
    if ! diff -u "$1" "$1.after" >&2; then
        fail "the root differs from before the install (above: - gone, + left behind)"
    fi
    say "purged: every path, user and group is as before the install"
}

# expect NAME STATUS WANTED...: the last command's status is STATUS and its
# output (in $out) holds each WANTED.
expect() {
    local name=$1 status=$2 want=$3; shift 3
    [[ $status -eq $want ]] || { printf '%s\n' "$out" >&2; fail "$name exited $status, not $want"; }
    for text in "$@"; do
        [[ "$out" == *"$text"* ]] || { printf '%s\n' "$out" >&2; fail "$name: no \"$text\" in its output"; }
    done
    say "ok: $name"
}

work=$(mktemp -d /tmp/tiltd-package-test.XXXXXX)
trap '"${as_root[@]}" rm -rf "$work" "$cache/root"' EXIT

# --- 3. a minimal root: install, run, purge -----------------------------------
say "round 1: a minimal Debian 12 root (debootstrap --variant=minbase, no systemd, no Swift)"
fresh_root
in_root apt-get update -q >&2
[[ ! -e "$root/opt/swift" ]] && ! in_root sh -c 'ls /usr/lib/swift /usr/lib/*/libswiftCore.so' >/dev/null 2>&1 ||
    fail "the root holds a Swift runtime"
install_package "$work/round1"

status=0; out=$(in_root tiltd --version 2>&1) || status=$?
expect "tiltd --version" $status 0 "$version"
status=0; out=$(in_root tiltd-run --version 2>&1) || status=$?
expect "tiltd-run --version" $status 0 "$version"
status=0; out=$(in_root sh -c 'ldd /usr/bin/tiltd /usr/bin/tiltd-run' 2>&1) || status=$?
expect "ldd /usr/bin/tiltd /usr/bin/tiltd-run" $status 0 "libc.so.6"
[[ "$out" != *"not found"* && "$out" != *swift* && "$out" != *libdispatch* && "$out" != *libFoundation* ]] ||
    { printf '%s\n' "$out" >&2; fail "ldd names a missing or a Swift library"; }
printf '%s\n' "$out" | sed 's/^/package-test:   /' >&2

sweep=/usr/share/tiltd/recordings/synthetic-tilt-sweep.trace
status=0; out=$(in_root tiltd list 2>&1) || status=$?
expect "tiltd list (nothing to read)" $status 0 "no IIO subsystem" "to try tiltd without hardware" \
    "tiltd replay --realtime $sweep"
printf '%s\n' "$out" | sed 's/^/package-test:   /' >&2

status=0; out=$(in_root sh -c "tiltd replay $sweep | wc -l; tiltd replay $sweep | tail -n 1") || status=$?
expect "tiltd replay $sweep" $status 0 '"roll":' '"shine":'
[[ $(head -n 1 <<<"$out") -eq 1108 ]] || fail "tiltd replay $sweep wrote $(head -n 1 <<<"$out") states, not 1108"

# render: the whole sweep is over the limit (refused, nothing written); its
# first half second at 1 frame a second is 2 frames, within it.
status=0; out=$(in_root tiltd render "$sweep" --out /tmp/refused --max-frames 3 2>&1) || status=$?
expect "tiltd render (the sweep: more than --max-frames 3, refused)" $status 1 "nothing was written"
! compgen -G "$root/tmp/refused/*" >/dev/null || fail "the refused render wrote into /tmp/refused"
status=0; out=$(in_root sh -c "head -n 57 $sweep > /tmp/half-second.trace &&
    tiltd render /tmp/half-second.trace --fps 1 --max-frames 3 --out /tmp/frames 2>&1 &&
    ls /tmp/frames && head -c 4 /tmp/frames/frame-000000.png | od -An -c") || status=$?
expect "tiltd render --fps 1 --max-frames 3" $status 0 "frame-000000.png" "P   N   G"
status=0; out=$(in_root sh -c 'tiltd draw larsbar --out /tmp/larsbar.png 2>&1 && head -c 4 /tmp/larsbar.png | od -An -c') ||
    status=$?
expect "tiltd draw larsbar --out /tmp/larsbar.png" $status 0 "P   N   G"

status=0; out=$(in_root sh -c 'getent passwd tiltd; getent group tiltd; man -w tiltd 2>/dev/null || ls /usr/share/man/man1/tiltd.1.gz') || status=$?
expect "user and group tiltd (made without systemd-sysusers), man page" $status 0 "tiltd:x:" "/nonexistent" "tiltd.1.gz"
purge_and_compare "$work/round1"

# --- 4. with systemd: sysusers, the unit, enable, purge ---------------------
say "round 2: the same root with systemd (sysusers, the unit)"
fresh_root
in_root apt-get update -q >&2
# The unit is Type=dbus: systemd and the system bus, as on any machine that runs it.
in_root apt-get install -y -q --no-install-recommends systemd dbus >&2 || fail "apt-get install systemd dbus failed"
install_package "$work/round2"
status=0; out=$(in_root getent passwd tiltd 2>&1) || status=$?
expect "user tiltd (systemd-sysusers tiltd.conf)" $status 0 "tiltd accelerometer service"
status=0; out=$(in_root systemd-analyze verify /usr/lib/systemd/system/tiltd.service 2>&1) || status=$?
expect "systemd-analyze verify /usr/lib/systemd/system/tiltd.service" $status 0
[[ -z "$out" ]] || printf '%s\n' "$out" | sed 's/^/package-test:   /' >&2
status=0; out=$(in_root sh -c 'systemctl is-enabled tiltd.service; true' 2>&1) || status=$?
expect "the unit is installed and not enabled" $status 0 "disabled"
status=0; out=$(in_root sh -c 'systemctl enable tiltd.service 2>&1 && systemctl is-enabled tiltd.service') || status=$?
expect "systemctl enable tiltd.service (as an administrator would)" $status 0 "enabled"
purge_and_compare "$work/round2"

say "PASS: $(basename "$deb") installs, runs and purges cleanly on Debian 12 without Swift"
