#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the debug guest kernel: Debian's linux-source-6.12 with KASAN,
# KFENCE, lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP, kmemleak,
# UBSAN, DEBUG_LIST, DEBUG_OBJECTS, DMA-API debug and the hung-task
# detector, on a trimmed config that only has to boot gaudi-vm's guest
# (tools/host/debug-kernel.config on top of allnoconfig).
#
# Like build-qemu.sh, everything lives outside the clone (GAUDI_CACHE,
# default /var/cache/gaudi-build):
#   src/linux-source-6.12-<sum>/  the unpacked tarball, shared by all keys
#   debug-kernel-<key>/           the build directory (O=), keyed by the
#                                 tarball, the fragment, the peer patch and
#                                 the recipe number; usable for out-of-tree
#                                 modules: make -C <it> M=<dir> modules
#   debug-kernel-<key>/mods/      modules_install output (lib/modules/<kver>)
#   debug-kernel-<key>/habanalabs-peer.ko  the upstream peer (in-tree
#                                 habanalabs with the same fix as
#                                 build-upstream-peer.sh), debug info stripped
#
# Output (stdout): KEY=VALUE lines, KDIR (build dir), KVER, KERNEL (bzImage),
# MODS (modules_install root), PEER (habanalabs-peer.ko).  Progress and
# logs go to stderr.  A cached run prints them at once.
#
# Installs linux-source-6.12 with apt-get when the tarball is missing (so
# `make check`'s install-deps.sh does not need it).
set -euo pipefail

TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
CACHE=${GAUDI_CACHE:-/var/cache/gaudi-build}
JOBS=${JOBS:-$(nproc)}

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/debug-kernel.config
patch_file=$here/patches/habanalabs-fop-unsigned-offset.patch

log() { echo "build-debug-kernel: $*" >&2; }
die() { log "error: $*"; exit 1; }

# What a kernel build needs beyond install-deps.sh (objtool: libelf-dev),
# installed on demand so that `make check` does not pay for it.
need=()
[ -f "$TARBALL" ] || need+=(linux-source-6.12)
[ -f /usr/include/gelf.h ] || need+=(libelf-dev)
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
		--no-install-recommends "${need[@]}" >&2 ||
		die "apt-get install ${need[*]} failed"
	[ -f "$TARBALL" ] || die "$TARBALL still missing"
fi
mkdir -p "$CACHE/src"

# The tarball's sha256, remembered per (size, mtime) as in
# build-upstream-peer.sh (same memo file).
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

# Bump when the recipe below (configure, build, install steps) changes in a
# way that needs a fresh build; edits elsewhere in this script do not.
recipe=1
sum=$(tarball_sum)
key=$( { echo "$sum" "$recipe"; cat "$fragment" "$patch_file"; } |
	sha256sum | cut -c1-16)
out=$CACHE/debug-kernel-$key
psum=$(sha256sum "$patch_file" | cut -c1-8)
src=$CACHE/src/linux-source-6.12-${sum:0:16}-$psum

print_paths() {
	echo "KDIR=$out"
	echo "KVER=$(cat "$out/kver")"
	echo "KERNEL=$out/arch/x86/boot/bzImage"
	echo "MODS=$out/mods"
	echo "PEER=$out/habanalabs-peer.ko"
}

if [ -f "$out/.done" ]; then
	print_paths
	exit 0
fi

exec 9>"$CACHE/debug-kernel.lock"
flock 9
if [ -f "$out/.done" ]; then
	print_paths
	exit 0
fi
start=$(date +%s)

# The pristine source, unpacked once and shared by every key; the peer's fix
# is applied to it (the stock 6.12.95 habanalabs cannot open its compute
# node), so the in-tree habanalabs.ko is the peer.
if [ ! -f "$src/.unpacked" ]; then
	log "unpacking $TARBALL"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xJf "$TARBALL"
	log "applying $(basename "$patch_file") to the source"
	patch -d "$src.tmp" -p1 --quiet --forward <"$patch_file" >&2 ||
		die "patch does not apply"
	touch "$src.tmp/.unpacked"
	mv "$src.tmp" "$src"
fi

# An interrupted build resumes where it stopped (kbuild is incremental):
# only a directory that was never configured is started afresh.
if [ -f "$out/.configured" ]; then
	log "resuming the build in $out"
else
	rm -rf "$out"
	mkdir -p "$out"
	log "configuring in $out (allnoconfig + $(basename "$fragment"))"
	# KCONFIG_ALLCONFIG: allnoconfig with the fragment's values forced.
	make -s -C "$src" O="$out" ARCH=x86_64 KCONFIG_ALLCONFIG="$fragment" \
		allnoconfig >"$out/config.log" 2>&1 || {
		cat "$out/config.log" >&2
		die "allnoconfig failed"
	}
	# Every request must have stuck (an unmet dependency drops it silently).
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			sym=${line%%=*}
			want=$line ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			want="# $sym is not set" ;;
		*) continue ;;
		esac
		got=$(grep -E "^($sym=|# $sym is not set)" "$out/.config" || true)
		# Not set and absent are the same.
		[ -z "$got" ] && [ "${want#\# }" != "$want" ] && continue
		if [ "$got" != "$want" ]; then
			log "config: wanted '$want', got '${got:-<absent>}'"
			bad=1
		fi
	done <"$fragment"
	[ "$bad" = 0 ] || die "the fragment does not apply (see above)"
	touch "$out/.configured"
fi

log "building bzImage and modules with $JOBS jobs (log: $out/build.log)"
if ! make -C "$src" O="$out" ARCH=x86_64 -j"$JOBS" bzImage modules \
	>>"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	die "kernel build failed (log above)"
fi
make -s -C "$src" O="$out" ARCH=x86_64 kernelrelease >"$out/kver"
kver=$(cat "$out/kver")
log "installing modules for $kver"
make -s -C "$src" O="$out" ARCH=x86_64 INSTALL_MOD_PATH="$out/mods" \
	INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod modules_install \
	>>"$out/build.log" 2>&1 || die "modules_install failed"
peer_ko=$(find "$out/mods/lib/modules/$kver" -name habanalabs.ko)
[ -n "$peer_ko" ] || die "no habanalabs.ko was built"
cp "$peer_ko" "$out/habanalabs-peer.ko"
touch "$out/.done"
log "built in $(($(date +%s) - start)) s"
print_paths
