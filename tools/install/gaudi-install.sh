#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gaudi-install.sh install|uninstall: what `make install` and
# `make uninstall` run (see Documentation/howto/install.rst).
#
# install: stages every part into a scratch tree (STAGE), then copies the
# tree into DESTDIR and writes a manifest of what it put there:
#   /lib/modules/$KVER/updates/gaudi.ko         (depmod -a $KVER, not with DESTDIR)
#   /lib/modules/$KVER/updates/gaudi_en.ko      (the NIC ports' Ethernet driver)
#   /lib/modules/$KVER/updates/gaudi_ib.ko      (the NIC as an RDMA device)
#   $PREFIX/lib/libibverbs/libgaudi-rdmav34.so, /etc/libibverbs.d/gaudi.driver
#                                               the verbs provider
#   $PREFIX/include/drm/gaudi_accel.h           the uapi extensions header
#   $PREFIX/lib, include/gaudi, lib/pkgconfig, share/man/man3   libgaudi
#   $PREFIX/bin, share/man/...                  tools/smi, tools/fw (when present)
#   $PREFIX/share/gaudi-open/firmware/habanalabs/gaudi/*   the model's
#                                               firmware (FIRMWARE=model)
#   /lib/firmware/habanalabs/gaudi/*            only with FIRMWARE=kernel|force
#   /usr/lib/udev/rules.d/70-gaudi.rules        node permissions
#   $PREFIX/share/doc/gaudi-open/gaudi.conf.example   modprobe.d example
#   $PREFIX/share/gaudi-open/install-manifest   the manifest
# uninstall: removes what the manifest lists, only where the file is still
# the one installed (same SHA-256; a changed file is kept and reported),
# puts back firmware files that FIRMWARE=force had set aside, and removes the
# directories install created once they are empty.
#
# Manifest lines:  d PATH  (directory created)   f SHA256 PATH  (file)
#                  l TARGET PATH  (symlink)       r PATH  (backup to restore)
#
# Environment (the Makefile passes them): DESTDIR, PREFIX (/usr/local), KVER,
# KO (the built gaudi.ko), FWSRC (built firmware folder), FIRMWARE
# (model|kernel|force|no, default model), UDEVRULESDIR (/usr/lib/udev/rules.d),
# MODULEDIR (/lib/modules), FIRMWAREDIR (/lib/firmware), TOOLS (tool
# folders, default "tools/smi tools/fw"; empty: none), STAGE (scratch folder), MAKE.
#
# The images are the QEMU model's, not a real card's: by default
# (FIRMWARE=model) they go to $PREFIX/share/gaudi-open/firmware, outside the
# kernel's firmware search path, where gaudi-vm takes them from; a real DL1
# keeps loading Habana's firmware.  FIRMWARE=kernel (an explicit opt-in, for
# a host whose cards are the model's) also installs them into
# /lib/firmware/habanalabs/gaudi, a file that is missing or was installed by
# an earlier `make install`; a different file already there (Habana's
# firmware, or one installed by gaudi-fw) is left alone and reported.
# FIRMWARE=force replaces it there and keeps it as NAME.pre-gaudi-open,
# which uninstall puts back.  FIRMWARE=no skips firmware.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
KVER=${KVER:-$(uname -r)}
KO=${KO:-$TOP/kernel/gaudi.ko}
FWSRC=${FWSRC:-$TOP/build/firmware/habanalabs/gaudi}
FIRMWARE=${FIRMWARE:-model}
UDEVRULESDIR=${UDEVRULESDIR:-/usr/lib/udev/rules.d}
MODULEDIR=${MODULEDIR:-/lib/modules}
FIRMWAREDIR=${FIRMWAREDIR:-/lib/firmware}
TOOLS=${TOOLS-tools/smi tools/fw}
STAGE=${STAGE:-$TOP/build/install/stage}
MAKE=${MAKE:-make}

MANIFEST=$PREFIX/share/gaudi-open/install-manifest
FWDEST=$FIRMWAREDIR/habanalabs/gaudi
MODELFW=$PREFIX/share/gaudi-open/firmware/habanalabs/gaudi
BACKUP_SUFFIX=.pre-gaudi-open

say() { echo "install: $*"; }
warn() { echo "install: warning: $*" >&2; }
die() { echo "install: error: $*" >&2; exit 1; }

sha() { sha256sum "$1" | cut -d' ' -f1; }

# Old manifest entries, by path: type and data.
declare -A OLD_TYPE=() OLD_DATA=()
read_manifest() {
	local m=$DESTDIR$MANIFEST t rest
	[ -f "$m" ] || return 0
	while read -r t rest; do
		case $t in
		d|r) OLD_TYPE[$rest]=$t; OLD_DATA[$rest]= ;;
		f|l) OLD_TYPE[${rest#* }]=$t; OLD_DATA[${rest#* }]=${rest%% *} ;;
		esac
	done <"$m"
}

# ---------------------------------------------------------------- install

stage() {
	rm -rf "$STAGE"
	mkdir -p "$STAGE"
	local s=$STAGE t

	[ -f "$KO" ] || die "$KO missing (make kernel)"
	install -D -m 644 "$KO" "$s$MODULEDIR/$KVER/updates/gaudi.ko"
	# The NIC ports' Ethernet driver, where the kernel has networking.
	if [ -f "$(dirname "$KO")/en/gaudi_en.ko" ]; then
		install -D -m 644 "$(dirname "$KO")/en/gaudi_en.ko" \
			"$s$MODULEDIR/$KVER/updates/gaudi_en.ko"
	fi
	# The RDMA driver, where the kernel has ib_core with user verbs.
	if [ -f "$(dirname "$KO")/ib/gaudi_ib.ko" ]; then
		install -D -m 644 "$(dirname "$KO")/ib/gaudi_ib.ko" \
			"$s$MODULEDIR/$KVER/updates/gaudi_ib.ko"
	fi
	# rdma-core's provider for it (the .driver file names where it is).
	"$MAKE" -s -C "$TOP/userspace/verbs" install DESTDIR="$s" \
		PREFIX="$PREFIX" >/dev/null

	install -D -m 644 "$TOP/uapi/drm/gaudi_accel.h" \
		"$s$PREFIX/include/drm/gaudi_accel.h"

	"$MAKE" -s -C "$TOP/userspace" install DESTDIR="$s" PREFIX="$PREFIX" \
		>/dev/null

	for t in $TOOLS; do
		if [ ! -f "$TOP/$t/Makefile" ]; then
			say "$t: not there yet, skipped"
		elif ! "$MAKE" -s -n -C "$TOP/$t" install DESTDIR="$s" \
			PREFIX="$PREFIX" >/dev/null 2>&1; then
			warn "$t/Makefile has no working install target, skipped"
		else
			"$MAKE" -s -C "$TOP/$t" install DESTDIR="$s" \
				PREFIX="$PREFIX" >/dev/null
		fi
	done

	if [ "$FIRMWARE" != no ]; then
		ls "$FWSRC"/* >/dev/null 2>&1 || die "no firmware in $FWSRC (make firmware)"
		for t in "$FWSRC"/*; do
			install -D -m 644 "$t" "$s$MODELFW/$(basename "$t")"
			[ "$FIRMWARE" = model ] ||
				install -D -m 644 "$t" "$s$FWDEST/$(basename "$t")"
		done
	fi

	install -D -m 644 "$TOP/tools/install/70-gaudi.rules" \
		"$s$UDEVRULESDIR/70-gaudi.rules"
	install -D -m 644 "$TOP/tools/install/gaudi.conf.example" \
		"$s$PREFIX/share/doc/gaudi-open/gaudi.conf.example"
	mkdir -p "$s$(dirname "$MANIFEST")"
}

# Copies $STAGE into $DESTDIR; appends manifest lines to $NEW.
copy_tree() {
	local rel dst src t
	while IFS= read -r rel; do
		rel=${rel#.}
		src=$STAGE$rel
		dst=$DESTDIR$rel
		if [ -L "$src" ]; then
			t=$(readlink "$src")
			ln -sfn "$t" "$dst"
			echo "l $t $rel" >>"$NEW"
		elif [ -d "$src" ]; then
			if [ ! -d "$dst" ]; then
				mkdir -p "$dst"
				chmod "$(stat -c %a "$src")" "$dst"
				echo "d $rel" >>"$NEW"
			elif [ "${OLD_TYPE[$rel]:-}" = d ]; then
				echo "d $rel" >>"$NEW"
			fi
		elif [ -f "$src" ]; then
			case $rel in
			"$FWDEST"/*) copy_firmware "$src" "$rel" ;;
			*) copy_file "$src" "$dst" "$rel" ;;
			esac
		fi
	done < <(cd "$STAGE" && find . -mindepth 1 | LC_ALL=C sort)
}

# Atomic replace: a reader never sees a half-written file.
copy_file() {
	local src=$1 dst=$2 rel=$3
	install -m "$(stat -c %a "$src")" "$src" "$dst.gaudi-new"
	mv -f "$dst.gaudi-new" "$dst"
	echo "f $(sha "$dst") $rel" >>"$NEW"
}

copy_firmware() {
	local src=$1 rel=$2 dst=$DESTDIR$2
	if [ ! -e "$dst" ] || [ "${OLD_TYPE[$rel]:-}" = f ]; then
		copy_file "$src" "$dst" "$rel"
		if [ "${OLD_TYPE[$rel$BACKUP_SUFFIX]:-}" = r ]; then
			echo "r $rel$BACKUP_SUFFIX" >>"$NEW"
		fi
		return 0
	fi
	if cmp -s "$src" "$dst"; then
		say "$rel: already there (not ours), left alone"
	elif [ "$FIRMWARE" = force ]; then
		[ -e "$dst$BACKUP_SUFFIX" ] || mv "$dst" "$dst$BACKUP_SUFFIX"
		echo "r $rel$BACKUP_SUFFIX" >>"$NEW"
		copy_file "$src" "$dst" "$rel"
		say "$rel: replaced; the previous file is $rel$BACKUP_SUFFIX"
	else
		warn "$rel: a different file is installed (not by gaudi-open); kept it (FIRMWARE=force replaces it)"
	fi
}

do_install() {
	case $FIRMWARE in
	model|kernel|force|no) ;;
	auto) die "FIRMWARE=auto is gone: FIRMWARE=model (default, outside the kernel's search path) or FIRMWARE=kernel (into $FWDEST)" ;;
	*) die "FIRMWARE=$FIRMWARE: model, kernel, force or no" ;;
	esac
	[ -n "$DESTDIR" ] && mkdir -p "$DESTDIR"
	read_manifest
	stage
	NEW=$(mktemp)
	trap 'rm -f "$NEW"' EXIT
	copy_tree

	# What this install recorded, by path.
	local p t rest
	declare -A now=()
	while read -r t rest; do
		case $t in
		d|r) now[$rest]=$t ;;
		f|l) now[${rest#* }]=$t ;;
		esac
	done <"$NEW"
	for p in "${!OLD_TYPE[@]}"; do
		t=${OLD_TYPE[$p]}
		[ -z "${now[$p]:-}" ] || continue
		case $t in
		f|l)	# a file of an earlier install that this one no longer has
			[ "$p" = "$MANIFEST" ] ||
				remove_entry "$t" "${OLD_DATA[$p]}" "$p" ;;
		d)	# directories an earlier install created stay ours
			if [ -d "$DESTDIR$p" ]; then
				echo "d $p" >>"$NEW"
			fi ;;
		esac
	done

	echo "f - $MANIFEST" >>"$NEW"
	install -m 644 "$NEW" "$DESTDIR$MANIFEST"
	say "$(grep -c '^[fl] ' "$NEW") files; manifest $DESTDIR$MANIFEST"
	post_change
}

# depmod, ldconfig and udev only for a live install.
post_change() {
	[ -z "$DESTDIR" ] || return 0
	if [ -d "$MODULEDIR/$KVER/kernel" ]; then
		depmod -a "$KVER"
	fi
	command -v ldconfig >/dev/null && ldconfig
	if command -v udevadm >/dev/null && [ -S /run/udev/control ]; then
		udevadm control --reload-rules || true
		udevadm trigger --action=change --subsystem-match=accel || true
	fi
}

# -------------------------------------------------------------- uninstall

remove_entry() {
	local t=$1 data=$2 p=$3 dst=$DESTDIR$3
	case $t in
	f)
		[ -e "$dst" ] || return 0
		if [ "$data" != - ] && [ "$(sha "$dst")" != "$data" ]; then
			warn "$p changed since it was installed; kept"
			return 0
		fi
		rm -f "$dst" ;;
	l)
		[ -L "$dst" ] && rm -f "$dst" ;;
	esac
	return 0
}

do_uninstall() {
	local t rest a n=0
	[ -f "$DESTDIR$MANIFEST" ] || die "no manifest at $DESTDIR$MANIFEST: nothing installed with PREFIX=$PREFIX${DESTDIR:+ DESTDIR=$DESTDIR}"
	m=$(mktemp)
	trap 'rm -f "$m"' EXIT
	cp "$DESTDIR$MANIFEST" "$m"
	while read -r t rest; do
		case $t in
		f|l) remove_entry "$t" "${rest%% *}" "${rest#* }"; n=$((n + 1)) ;;
		esac
	done <"$m"
	# Put back what FIRMWARE=force set aside.
	while read -r t a; do
		[ "$t" = r ] || continue
		if [ -e "$DESTDIR$a" ] && [ ! -e "$DESTDIR${a%"$BACKUP_SUFFIX"}" ]; then
			mv "$DESTDIR$a" "$DESTDIR${a%"$BACKUP_SUFFIX"}"
			say "restored ${a%"$BACKUP_SUFFIX"}"
		fi
	done <"$m"
	# Deepest directories first; only the empty ones go.
	grep '^d ' "$m" | cut -d' ' -f2- | LC_ALL=C sort -r |
		while IFS= read -r a; do
			rmdir "$DESTDIR$a" 2>/dev/null || true
		done
	say "removed $n files"
	# Directories kept for files install did not put there (or changed
	# since) stay in the manifest, so that a later uninstall removes them.
	# The manifest's own folder (and its parents) come back with it.
	local keep=$DESTDIR$MANIFEST.new mdir
	mdir=$(dirname "$MANIFEST")
	grep '^d ' "$m" | cut -d' ' -f2- | while IFS= read -r a; do
		[ ! -d "$DESTDIR$a" ] || echo "d $a"
	done >"$m.dirs"
	if [ -s "$m.dirs" ]; then
		grep '^d ' "$m" | cut -d' ' -f2- | while IFS= read -r a; do
			if [ ! -d "$DESTDIR$a" ] && [ "${mdir#"$a"}" != "$mdir" ]; then
				echo "d $a"
			fi
		done >>"$m.dirs"
		mkdir -p "$(dirname "$keep")"
		{ cat "$m.dirs"; echo "f - $MANIFEST"; } >"$keep"
		mv "$keep" "$DESTDIR$MANIFEST"
		say "kept $(wc -l <"$m.dirs") directories that hold other files; make uninstall again once they are gone"
	fi
	rm -f "$m.dirs"
	post_change
}

case ${1:-} in
install) do_install ;;
uninstall) do_uninstall ;;
*) echo "usage: $0 install|uninstall" >&2; exit 2 ;;
esac
