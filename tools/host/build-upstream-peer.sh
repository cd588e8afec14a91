#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the upstream reference peer: Debian's habanalabs driver from
# linux-source-6.12, with tools/host/patches/habanalabs-fop-unsigned-offset.patch
# (the stock 6.12.95 module cannot open its compute node), built out of tree
# against the installed 6.12 headers.
#
# Output: <cache>/peer-<hash>/habanalabs-peer.ko, printed as the last line of
# stdout. The file name differs from Debian's so the two are never confused;
# the module inside is still called "habanalabs" (sysfs, uapi and tools rely
# on that): load it with `insmod <path>` after `modprobe drm`.
#
# The cache lives outside the clone (GAUDI_CACHE, as build-qemu.sh; default
# /var/cache/gaudi-build) and is keyed by the source tarball's checksum, the
# patch, this script and the kernel version, so a second run prints the path
# at once. Progress and build logs go to stderr.
set -euo pipefail

KVER=${KVER:-6.12.95+deb12-amd64}
KBUILD=/lib/modules/$KVER/build
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
CACHE=${GAUDI_CACHE:-/var/cache/gaudi-build}
JOBS=${JOBS:-2}

here=$(cd "$(dirname "$0")" && pwd)
patch_file=$here/patches/habanalabs-fop-unsigned-offset.patch
self=$here/$(basename "$0")

log() { echo "build-upstream-peer: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install linux-source-6.12; see tools/host/install-deps.sh)"
[ -d "$KBUILD" ] || die "$KBUILD missing (linux-headers-$KVER)"
[ -f "$patch_file" ] || die "$patch_file missing"
mkdir -p "$CACHE"

# The tarball's sha256, remembered per (size, mtime) so a cached run does
# not re-read 150 MB.
tarball_sum() {
	local stamp memo line
	stamp=$(stat -c '%s %Y' "$TARBALL")
	memo=$CACHE/linux-source.sha256
	if [ -f "$memo" ]; then
		line=$(cat "$memo")
		if [ "${line% *}" = "$stamp" ]; then
			echo "${line##* }"
			return
		fi
	fi
	line=$(sha256sum "$TARBALL" | cut -d' ' -f1)
	echo "$stamp $line" >"$memo"
	echo "$line"
}

key=$( { tarball_sum; sha256sum "$patch_file" "$self" | cut -d' ' -f1; echo "$KVER"; } |
	sha256sum | cut -c1-16)
out=$CACHE/peer-$key
ko=$out/habanalabs-peer.ko

if [ -f "$ko" ]; then
	echo "$ko"
	exit 0
fi

# One builder at a time; a second caller waits and then finds the result.
exec 9>"$CACHE/peer.lock"
flock 9
if [ -f "$ko" ]; then
	echo "$ko"
	exit 0
fi

work=$(mktemp -d "$CACHE/peer-build.XXXXXX")
trap 'rm -rf "$work"' EXIT

log "extracting drivers/accel/habanalabs from $TARBALL"
start=$(date +%s)
tar -xJf "$TARBALL" -C "$work" --strip-components=1 --wildcards \
	'linux-source-6.12/drivers/accel/habanalabs/*'
# The driver also includes <linux/habanalabs/*.h>, <trace/events/habanalabs.h>
# and <uapi/drm/habanalabs_accel.h>: the 6.12 headers package has them all.

log "applying $(basename "$patch_file")"
patch -d "$work" -p1 --quiet --forward <"$patch_file" >&2 ||
	die "patch does not apply"

src=$work/drivers/accel/habanalabs
log "building against $KBUILD with $JOBS jobs"
if ! make -C "$KBUILD" M="$src" CONFIG_DRM_ACCEL_HABANALABS=m -j"$JOBS" \
	modules >"$work/build.log" 2>&1; then
	tail -40 "$work/build.log" >&2
	die "module build failed (log above)"
fi
[ -f "$src/habanalabs.ko" ] || die "build produced no habanalabs.ko"

# Sanity: built for the kernel the VM boots.
vermagic=$(modinfo -F vermagic "$src/habanalabs.ko")
case "$vermagic" in
"$KVER "*) ;;
*) die "vermagic '$vermagic' does not match $KVER" ;;
esac

mkdir -p "$work/out"
# Drop the debug info (19 MB -> about 1.5 MB): it goes into every initramfs.
strip --strip-debug -o "$work/out/habanalabs-peer.ko" "$src/habanalabs.ko"
cp "$work/build.log" "$work/out/build.log"
rm -rf "$out"
mv "$work/out" "$out"
log "built in $(($(date +%s) - start)) s"
echo "$ko"
