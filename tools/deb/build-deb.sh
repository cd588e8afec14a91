#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make deb: the Debian packages (debian/) built from this tree's files
# (tracked and new, as they are now, build/ left out) in a copy under
# build/deb/src, so that the developer's build/ is neither used nor
# touched.  The packages end in build/deb/.  The version is VERSION's;
# debian/changelog must carry the same.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/deb
ver=$(cat "$top/VERSION")
die() { echo "build-deb: $*" >&2; exit 1; }

for t in dpkg-buildpackage dh dh_dkms; do
	command -v "$t" >/dev/null || die "$t missing (tools/host/install-deps.sh)"
done
cl=$(cd "$top" && dpkg-parsechangelog -S Version)
[ "$cl" = "$ver" ] || die "debian/changelog says $cl, VERSION says $ver"

rm -rf "$out"
src=$out/src/gaudi-open-$ver
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
	xargs -0 cp --parents -a -t "$src")
(cd "$src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log" >&2; die "dpkg-buildpackage failed (log: $out/build.log)"; }
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out"/
ls "$out"/*.deb
