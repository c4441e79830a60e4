#!/usr/bin/env bash
# Makes tiltd's Debian package (`make deb` runs it; docs/packaging.md):
#
#   scripts/make-deb.sh WORK OUTDIR
#
# WORK/debian/tiltd holds what `make install PREFIX=/usr DESTDIR=…` put
# there (the layout dpkg-shlibdeps expects); this adds the Debian parts
# (compressed man page, copyright, changelog, packaging/deb's control file
# and maintainer scripts, md5sums) and writes OUTDIR/tiltd_VERSION_ARCH.deb.
#   - VERSION is what the staged `tiltd --version` prints
#     (Sources/Commands/TiltdVersion.swift, the one place it is written);
#   - Depends is computed by dpkg-shlibdeps from the two binaries.
# Needs dpkg-dev (scripts/setup.sh package).
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: scripts/make-deb.sh WORK OUTDIR" >&2; exit 64; }
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(cd "$1" && pwd)"
root="$work/debian/tiltd"
mkdir -p "$2"
out="$(cd "$2" && pwd)"
for tool in dpkg-deb dpkg-shlibdeps; do
    command -v "$tool" >/dev/null || { echo "make-deb: error: $tool is missing: run scripts/setup.sh package" >&2; exit 1; }
done
[[ -x "$root/usr/bin/tiltd" && -x "$root/usr/bin/tiltd-run" ]] ||
    { echo "make-deb: error: $root/usr/bin has no tiltd and tiltd-run: stage them with make install PREFIX=/usr DESTDIR=$root" >&2; exit 1; }

version=$("$root/usr/bin/tiltd" --version)
arch=$(dpkg --print-architecture)
control="$repo/packaging/deb/control"
maintainer=$(sed -n 's/^Maintainer: //p' "$control")
# Dates from the last commit, so that two builds of one commit agree.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}

# Files and folders: root's, readable by all, written by root only.
chmod -R u+rwX,go+rX,go-w "$root"

# The man page compressed, and tiltd-run's (`tiltd run` alone) pointing at it.
man1="$root/usr/share/man/man1"
gzip -9nf "$man1/tiltd.1"
ln -sf tiltd.1.gz "$man1/tiltd-run.1.gz"

# copyright: packaging/deb/copyright with the recordings' licence in it.
doc="$root/usr/share/doc/tiltd"
python3 - "$repo/packaging/deb/copyright" "$repo/recordings/LICENSE.txt" "$doc/copyright" <<'PY'
import sys
template, licence, target = sys.argv[1:]
text = "".join(" " + line if line.strip() else " .\n" for line in open(licence, encoding="utf-8"))
open(target, "w", encoding="utf-8").write(open(template, encoding="utf-8").read().replace("@RECORDINGS_LICENSE@\n", text))
PY
chmod 0644 "$doc/copyright"
# The licence is in copyright; Debian keeps licences there alone.
rm -f "$root/usr/share/tiltd/recordings/LICENSE.txt"
# A native package's changelog: this version, built from this commit.
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "an unversioned tree")
{
    echo "tiltd ($version) unstable; urgency=medium"
    echo
    echo "  * Built by make deb from the tiltd source tree at $commit."
    echo
    echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

# Depends: the shared libraries the binaries load, as Debian's packages.
# (dpkg-shlibdeps reads debian/control, and finds the package's root by its
# DEBIAN folder.)
printf 'Source: tiltd\n\nPackage: tiltd\nArchitecture: any\n' > "$work/debian/control"
rm -rf "$root/DEBIAN"
mkdir -p "$root/DEBIAN"
depends=$(cd "$work" && dpkg-shlibdeps -O -edebian/tiltd/usr/bin/tiltd -edebian/tiltd/usr/bin/tiltd-run |
          sed -n 's/^shlibs:Depends=//p')
[[ -n "$depends" ]] || { echo "make-deb: error: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -sk --apparent-size "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends|" -e "s|@INSTALLED_SIZE@|$size|" \
    "$control" > "$root/DEBIAN/control"
for script in postinst prerm postrm; do
    install -m0755 "$repo/packaging/deb/$script" "$root/DEBIAN/$script"
done
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
    > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

deb="$out/tiltd_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
