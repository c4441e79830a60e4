#!/usr/bin/env bash
# Installs the Debian packages tiltd needs, only those that are missing.
#
#   scripts/setup.sh          build and run: libiio, libudev, libevdev, libpng,
#                             libpulse, libsndfile, pkg-config, libsystemd (sd-bus), acl (setfacl,
#                             used by udev/70-tiltd.rules for game pads), socat (the
#                             docs' client of the --listen socket)
#   scripts/setup.sh bench    what bench/goals.sh needs: umockdev, iio_readdev,
#                             iio-sensor-proxy, time, bc, curl, valgrind
#   scripts/setup.sh package  also what `make deb` and scripts/package-test.sh
#                             need: dpkg-dev (dpkg-shlibdeps), lintian,
#                             debootstrap
#   scripts/setup.sh test     also what the tests need: umockdev, iiod,
#                             libiio-utils, a French locale, python3-gi with
#                             umockdev's introspection data, chromium, ffmpeg
#                             (the y4m test reads every rendered frame with it),
#                             dbus (private buses), systemd (systemd-analyze
#                             and systemd-run check the unit), and a PulseAudio
#                             server with pactl/paplay and sox
#
# Needs root (or sudo) only when something is missing. Installing a package
# can upgrade ones already installed (systemd pulls libsystemd0 and udev of
# its own version): setup lists those upgrades before it installs.
set -euo pipefail

want=(libiio-dev libudev-dev libpng-dev pkg-config libpulse-dev libsndfile1-dev libevdev-dev acl libsystemd-dev socat)
if [[ "${1:-}" == "test" ]]; then
    want+=(libiio-utils iiod umockdev locales python3-gi gir1.2-umockdev-1.0 chromium ffmpeg dbus systemd)
    want+=(pulseaudio pulseaudio-utils sox)
fi
# The Debian package (never CI: it needs a release build).
if [[ "${1:-}" == "package" ]]; then
    want+=(dpkg-dev lintian debootstrap)
fi
# bench/goals.sh (never CI): umockdev, the peers (iio_readdev, iio-sensor-proxy) and tools.
if [[ "${1:-}" == "bench" ]]; then
    want+=(libiio-utils umockdev python3-gi gir1.2-umockdev-1.0 dbus iio-sensor-proxy time bc curl
           valgrind linux-perf)
fi

missing=()
for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then sudo_cmd=(sudo); else
        echo "setup: missing packages ${missing[*]} and not root; install them with apt-get" >&2
        [[ ${#missing[@]} -eq 0 ]] || exit 1
    fi
fi

if [[ ${#missing[@]} -gt 0 ]]; then
    echo "setup: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    # apt's dry run names every package it would replace: "Inst NAME [OLD] (NEW …".
    upgrades=$(apt-get install -s --no-install-recommends "${missing[@]}" 2>/dev/null \
        | sed -n 's/^Inst \([^ ]*\) \[\([^]]*\)\] (\([^ ]*\).*/\1 \2 -> \3/p' || true)
    if [[ -n "$upgrades" ]]; then
        echo "setup: this also upgrades packages already installed:" >&2
        sed 's/^/setup:   /' <<<"$upgrades" >&2
    fi
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [[ "${1:-}" == "test" ]]; then
    # Installing iiod enables a service that serves every local sensor on
    # port 30431 on all interfaces; the tests start their own iiod on loopback.
    if [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null; then
        "${sudo_cmd[@]}" systemctl disable --now iiod >/dev/null 2>&1 || true
    fi
    # Only C and POSIX exist on a fresh machine; the locale test needs a real one.
    if ! locale -a 2>/dev/null | grep -qi '^fr_FR\.utf8$'; then
        echo "setup: generating fr_FR.UTF-8" >&2
        "${sudo_cmd[@]}" sed -i 's/^# *fr_FR.UTF-8 UTF-8/fr_FR.UTF-8 UTF-8/' /etc/locale.gen
        grep -q '^fr_FR.UTF-8 UTF-8' /etc/locale.gen || echo 'fr_FR.UTF-8 UTF-8' | "${sudo_cmd[@]}" tee -a /etc/locale.gen >/dev/null
        "${sudo_cmd[@]}" locale-gen >/dev/null
    fi
fi
