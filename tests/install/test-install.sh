#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Installation tests (Documentation/howto/install.rst).  Prints TAP and
# "N passed, N failed"; exit status 1 on any failure.
#
#  1. host: `make install DESTDIR=$tmp PREFIX=/opt/gaudi-open` and the layout
#     file by file (modes, manifest exactly what is there), the udev rule's
#     syntax, the modprobe.d example against kmod and the module's
#     parameters, pkg-config from the DESTDIR prefix and a program compiled
#     and linked against the installed header and library; a second install
#     over the first; `make uninstall` leaves nothing behind, but keeps a
#     file changed after install and files it did not install.
#  2. DKMS (root): `dkms add/build/install/remove` of the sources that
#     `make dkms-source` copies, in a private dkms tree and install tree
#     (and a private mount namespace, so that dkms's signing key does not
#     land in /var/lib/dkms); the built module's vermagic is the kernel's.
#  3. guest (runs alongside 2): the installed module, firmware, udev rule and
#     modprobe.d example in an emulated DL1 host with 2 cards: depmod,
#     systemd-udevd coldplug, modalias autoload honouring the blacklist,
#     node group and modes for gaudi.ko's and habanalabs' nodes, the softdep
#     (tests/install/guest-install.sh).
#
# Environment: KVER (default: the 6.12 kernel the Makefile builds for),
# TOOLS (tool folders make install installs, default "tools/smi tools/fw"),
# GAUDI_QEMU (default build/qemu-path; the guest part is skipped without
# it), KEEP=1 keeps the scratch folder.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
KVER=${KVER:-$(basename "$(dirname "$(ls -d /lib/modules/6.12.*/build | head -n 1)")")}
P=/opt/gaudi-open
VERSION=$(cat VERSION)
CARDS=2
T0=$(date +%s)

tmp=$(mktemp -d /tmp/gaudi-install-test.XXXXXX)
D=$tmp/root
cleanup() {
	[ -n "${guest_pid:-}" ] && kill "$guest_pid" 2>/dev/null
	[ "${KEEP:-0}" = 1 ] && echo "# kept $tmp" && return
	rm -rf "$tmp"
}
trap cleanup EXIT

n=0 pass=0 fail=0 skipped=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $*"; }
# A skip is counted apart, never as a pass.
skip() { n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n - $1 # SKIP $2"; }
closing() {
	if [ "$skipped" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skipped skipped"
	else
		echo "$pass passed, $fail failed"
	fi
}
check() { # check DESCRIPTION command...
	local d=$1
	shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}
is() { # is DESCRIPTION GOT EXPECTED
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1 (got '$2', expected '$3')"; fi
}
show() { sed 's/^/# /' "$1"; }

# ------------------------------------------------------------ 1. host
echo "# make install DESTDIR=$D PREFIX=$P (KVER=$KVER)"
if make -s install DESTDIR="$D" PREFIX="$P" KVER="$KVER" >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR PREFIX"
else
	nok "make install DESTDIR PREFIX"
	show "$tmp/install.log"
	echo "1..$n"
	closing
	exit 1
fi
grep -E '^install: (warning|error)' "$tmp/install.log" | sed 's/^/# /'

# ------------------------------------------------------------ 3. guest, in the background
guest_pid=
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat build/qemu-path 2>/dev/null) || true
export GAUDI_QEMU
if [ -n "$GAUDI_QEMU" ] && [ -x "$GAUDI_QEMU" ]; then
	# A copy: the host part uninstalls the tree meanwhile.
	cp -a "$D" "$tmp/guest"
	G=$tmp/guest
	tools/vm/gaudi-vm --cards $CARDS --driver none --timeout 240 \
		--firmware-dir "$G$P/share/gaudi-open/firmware" \
		--add "$G/lib/modules/$KVER/updates/gaudi.ko:/lib/modules/$KVER/updates/gaudi.ko" \
		--add "$G/usr/lib/udev/rules.d/70-gaudi.rules:/usr/lib/udev/rules.d/70-gaudi.rules" \
		--add "/usr/lib/udev/rules.d/80-drivers.rules:/usr/lib/udev/rules.d/80-drivers.rules" \
		--add "$G$P/share/doc/gaudi-open/gaudi.conf.example:/etc/modprobe.d/gaudi.conf" \
		--add "/usr/bin/udevadm:/usr/bin/udevadm" \
		--add "tests/install/guest-install.sh:/root/guest-install.sh" \
		--cmd "sh /root/guest-install.sh $CARDS" >"$tmp/guest.log" 2>&1 &
	guest_pid=$!
fi


# The layout: path, mode ("link" for a symlink).
soname=$(cd "$D$P/lib" 2>/dev/null && ls libgaudi.so.0.* 2>/dev/null | head -n 1)
expected="/lib/modules/$KVER/updates/gaudi.ko 644
$P/lib/libibverbs/libgaudi-rdmav34.so 644
/etc/libibverbs.d/gaudi.driver 644
$P/include/drm/gaudi_accel.h 644
$P/include/gaudi/cmdbuf.h 644
$P/include/gaudi/device.h 644
$P/include/gaudi/gaudi.h 644
$P/include/gaudi/submit.h 644
$P/lib/${soname:-libgaudi.so.0.X} 755
$P/lib/libgaudi.so.0 link
$P/lib/libgaudi.so link
$P/lib/pkgconfig/gaudi.pc 644
$P/share/man/man3/gaudi.3 644
$P/share/man/man3/gaudi_open.3 644
$P/share/man/man3/gaudi_submit.3 644
$P/share/man/man3/gaudi_open_pci.3 644
$P/share/gaudi-open/firmware/habanalabs/gaudi/gaudi-boot-fit.itb 644
$P/share/gaudi-open/firmware/habanalabs/gaudi/gaudi-fit.itb 644
$P/share/gaudi-open/firmware/habanalabs/gaudi/gaudi_tpc.bin 644
/usr/lib/udev/rules.d/70-gaudi.rules 644
$P/share/doc/gaudi-open/gaudi.conf.example 644
$P/share/gaudi-open/install-manifest 644"
while read -r path mode; do
	if [ "$mode" = link ]; then
		check "installed: $path (symlink)" test -L "$D$path" -a -e "$D$path"
	elif [ -f "$D$path" ] && [ ! -L "$D$path" ]; then
		is "installed: $path mode" "$(stat -c %a "$D$path")" "$mode"
	else
		nok "installed: $path"
	fi
done <<<"$expected"

# TOOLS (as for make install; default "tools/smi tools/fw") may leave some out.
for t in smi fw; do
	case " ${TOOLS-tools/smi tools/fw} " in
	*" tools/$t "*) ;;
	*) skip "installed: gaudi-$t" "not in TOOLS"; continue ;;
	esac
	if [ -f "tools/$t/Makefile" ]; then
		check "installed: $P/bin/gaudi-$t" test -x "$D$P/bin/gaudi-$t"
		check "installed: man page of gaudi-$t" \
			sh -c "ls '$D$P'/share/man/man*/gaudi-$t.* >/dev/null 2>&1"
	else
		skip "installed: gaudi-$t" "tools/$t not there yet"
	fi
done

for f in gaudi-boot-fit.itb gaudi-fit.itb gaudi_tpc.bin; do
	check "firmware $f is the built one" \
		cmp -s "$D$P/share/gaudi-open/firmware/habanalabs/gaudi/$f" "build/firmware/habanalabs/gaudi/$f"
done
check "nothing in the kernel's firmware search path by default (FIRMWARE=model)" \
	test ! -e "$D/lib/firmware"

# The manifest lists exactly what is in the tree.
man=$D$P/share/gaudi-open/install-manifest
(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\.||' | LC_ALL=C sort) >"$tmp/tree"
grep -E '^[fl] ' "$man" 2>/dev/null | cut -d' ' -f3- | LC_ALL=C sort >"$tmp/listed"
if diff -u "$tmp/listed" "$tmp/tree" >"$tmp/diff"; then
	ok "manifest lists every installed file ($(wc -l <"$tmp/tree"))"
else
	nok "manifest lists every installed file"
	show "$tmp/diff"
fi
bad=0
while read -r t sum path; do
	[ "$t" = f ] && [ "$sum" != - ] || continue
	[ "$(sha256sum "$D$path" | cut -d' ' -f1)" = "$sum" ] || bad=$((bad + 1))
done <"$man"
is "manifest checksums match the files" "$bad" 0

ko=$D/lib/modules/$KVER/updates/gaudi.ko
is "module vermagic is $KVER's" "$(modinfo -F vermagic "$ko" 2>/dev/null)" \
	"$(modinfo -k "$KVER" -F vermagic drm)"
check "module alias pci:v00001DA3d00001000" \
	sh -c "modinfo -F alias '$ko' | grep -qi '^pci:v00001DA3d00001000'"

# The udev rule.
rule=$D/usr/lib/udev/rules.d/70-gaudi.rules
check "udev rule parses (check-udev-rules.py)" \
	/usr/bin/python3 tests/install/check-udev-rules.py "$rule"
if udevadm verify --help >/dev/null 2>&1; then
	check "udevadm verify 70-gaudi.rules" sh -c "udevadm verify '$rule' >/dev/null"
else
	skip "udevadm verify 70-gaudi.rules" "udevadm has no verify (systemd < 254)"
fi
check "udev rule: compute nodes render 0660" \
	grep -q '^KERNEL=="accel\[0-9\]\*", GROUP="render", MODE="0660"' "$rule"

# The modprobe.d example: kmod reads it; its parameters exist.
ex=$D$P/share/doc/gaudi-open/gaudi.conf.example
modprobe -C "$ex" -c >"$tmp/mpconf" 2>&1
check "modprobe.d example: blacklist habanalabs" grep -qx 'blacklist habanalabs' "$tmp/mpconf"
check "modprobe.d example: softdep habanalabs pre: gaudi" \
	grep -qx 'softdep habanalabs pre: gaudi' "$tmp/mpconf"
# dyndbg is the kernel's own parameter of every module (dynamic debug).
parms=$( { modinfo -F parm "$ko" | cut -d: -f1; echo dyndbg; } | sort)
bad=
for p in $(sed -n 's/^#\{0,1\}options gaudi \([a-z_]*\)=.*/\1/p' "$ex"); do
	echo "$parms" | grep -qx "$p" || bad="$bad $p"
done
is "modprobe.d example: parameters are gaudi.ko's" "${bad:-none}" none
documented=$(sed -n 's/^#\{0,1\}options gaudi \([a-z_]*\)=.*/\1/p' "$ex" | sort | tr '\n' ' ')
is "modprobe.d example: every parameter shown" "$documented" "$(echo "$parms" | tr '\n' ' ')"

# pkg-config from the DESTDIR prefix, and a program built on the install.
export PKG_CONFIG_PATH=$D$P/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
is "pkg-config --modversion gaudi" "$(pkg-config --modversion gaudi 2>&1)" \
	"$VERSION"
is "pkg-config --cflags gaudi" "$(pkg-config --cflags gaudi 2>&1 | sed 's/ *$//')" "-I$D$P/include"
cat >"$tmp/prog.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <gaudi/gaudi.h>
#include <drm/gaudi_accel.h>

int main(void)
{
	struct drm_gaudi_query_caps caps = { 0 };

	printf("abi %d.%d caps %zu %s\n", GAUDI_ABI_VERSION_MAJOR,
	       GAUDI_ABI_VERSION_MINOR, sizeof(caps),
	       gaudi_strerror(-ENODEV) ? "strerror" : "null");
	return 0;
}
EOF
# shellcheck disable=SC2046
if cc -std=gnu11 -Wall -Werror -o "$tmp/prog" "$tmp/prog.c" \
	$(pkg-config --cflags --libs gaudi) >"$tmp/cc.log" 2>&1; then
	ok "a program compiles and links against the installed header and library"
else
	nok "a program compiles and links against the installed header and library"
	show "$tmp/cc.log"
fi
check "it needs libgaudi.so.0" \
	sh -c "readelf -d '$tmp/prog' | grep -q 'NEEDED.*libgaudi.so.0'"
check "it runs on the installed library" \
	sh -c "LD_LIBRARY_PATH='$D$P/lib' '$tmp/prog' | grep -q '^abi 1\\.[0-9]* caps [0-9]* strerror'"
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

# The installer without the build steps make install runs first.
reinstall() {
	env DESTDIR="$D" PREFIX="$P" KVER="$KVER" KO="$TOP/kernel/gaudi.ko" \
		FWSRC="$TOP/build/firmware/habanalabs/gaudi" \
		tools/install/gaudi-install.sh "$@"
}
entries() { sed -E 's/^f [^ ]+ /f /' "$1" | LC_ALL=C sort; }

# Install again over the first install: same files, nothing left over.
cp "$man" "$tmp/manifest.1"
reinstall install >"$tmp/install2.log" 2>&1
check "install again over the first" test $? = 0
is "the second install's manifest lists the first's paths" \
	"$(entries "$man" | md5sum)" "$(entries "$tmp/manifest.1" | md5sum)"

# Uninstall keeps what it did not install and what changed since.
echo "not ours" >"$D$P/lib/not-ours.so"
echo "# local change" >>"$ex"
make -s uninstall DESTDIR="$D" PREFIX="$P" KVER="$KVER" >"$tmp/uninstall.log" 2>&1
check "make uninstall DESTDIR PREFIX" test $? = 0
check "uninstall kept a file it did not install" test -f "$D$P/lib/not-ours.so"
check "uninstall kept a file changed after install" test -f "$ex"
check "uninstall said so" grep -q 'gaudi.conf.example changed since it was installed; kept' "$tmp/uninstall.log"
rm -f "$D$P/lib/not-ours.so" "$ex"
reinstall uninstall >"$tmp/uninstall2.log" 2>&1
check "uninstall again once those files are gone" test $? = 0
left=$(cd "$D" && find . -mindepth 1 | head -n 5 | tr '\n' ' ')
is "uninstall leaves nothing behind" "${left:-nothing}" nothing
reinstall install >/dev/null 2>&1 && reinstall uninstall >/dev/null 2>&1
left=$(cd "$D" && find . -mindepth 1 | head -n 5 | tr '\n' ' ')
is "install + uninstall leaves nothing behind" "${left:-nothing}" nothing
make -s uninstall DESTDIR="$D" PREFIX="$P" >/dev/null 2>&1
check "uninstall without an install fails" test $? != 0

# FIRMWARE=kernel, the opt-in: into /lib/firmware too, never over Habana's.
fw=$D/lib/firmware/habanalabs/gaudi
mkdir -p "$fw"
echo "Habana's firmware" >"$fw/gaudi-fit.itb"
FIRMWARE=kernel reinstall install >"$tmp/install-kfw.log" 2>&1
check "FIRMWARE=kernel install" test $? = 0
check "FIRMWARE=kernel: the missing images into /lib/firmware" \
	cmp -s "$fw/gaudi-boot-fit.itb" build/firmware/habanalabs/gaudi/gaudi-boot-fit.itb
check "FIRMWARE=kernel: Habana's gaudi-fit.itb kept, and said so" \
	sh -c "grep -qx \"Habana's firmware\" '$fw/gaudi-fit.itb' &&
	       grep -q 'gaudi-fit.itb: a different file is installed' '$tmp/install-kfw.log'"
reinstall uninstall >/dev/null 2>&1
check "uninstall: Habana's file stays, ours are gone" \
	sh -c "test -f '$fw/gaudi-fit.itb' && test ! -e '$fw/gaudi-boot-fit.itb'"
rm -rf "$D/lib"
FIRMWARE=auto reinstall install >"$tmp/install-auto.log" 2>&1
check "FIRMWARE=auto (gone) is refused, naming the new choices" \
	sh -c "test $? != 0 && grep -q 'FIRMWARE=model' '$tmp/install-auto.log'"

# ------------------------------------------------------------ 2. DKMS
echo "# $(($(date +%s) - T0)) s: dkms"
dkms_test() {
	local src=$tmp/dkms/src mods=$tmp/dkms/modules tree=$tmp/dkms/tree
	local m=gaudi/$VERSION
	mkdir -p "$src" "$mods/$KVER" "$tree"
	if ! make -s dkms-source DKMS_SRC="$src/gaudi-$VERSION" >"$tmp/dkms.log" 2>&1; then
		nok "make dkms-source"
		show "$tmp/dkms.log"
		return
	fi
	ok "make dkms-source"
	local o="--dkmstree $tree --sourcetree $src --installtree $mods"
	# One script in a private mount namespace: /var/lib/dkms (where dkms
	# keeps its module signing key) is a scratch tmpfs there.
	cat >"$tmp/dkms.sh" <<EOF
set -x
mount -t tmpfs tmpfs /var/lib/dkms || exit 90
dkms add $m $o || exit 91
dkms build $m -k $KVER $o || exit 92
ls $tree/$m/$KVER/*/module/gaudi.ko* > $tmp/dkms.built || exit 93
dkms status $o > $tmp/dkms.status.built
modinfo -F vermagic \$(cat $tmp/dkms.built) > $tmp/dkms.vermagic
dkms install $m -k $KVER $o --no-depmod || exit 94
ls $mods/$KVER/updates/dkms/ > $tmp/dkms.installed
dkms remove $m --all $o --no-depmod || exit 95
ls $mods/$KVER/updates/dkms/ > $tmp/dkms.after-remove 2>/dev/null
dkms status $o > $tmp/dkms.status.removed
exit 0
EOF
	unshare --mount --propagation private bash "$tmp/dkms.sh" >>"$tmp/dkms.log" 2>&1
	local rc=$?
	case $rc in
	0) ok "dkms add, build, install, remove" ;;
	90) nok "dkms: no private mount namespace (unshare)" ;;
	91) nok "dkms add" ;;
	92) nok "dkms build for $KVER" ;;
	*) nok "dkms (step $rc)" ;;
	esac
	[ $rc = 0 ] || tail -n 30 "$tmp/dkms.log" | sed 's/^/# /'
	is "dkms status after build" "$(cat "$tmp/dkms.status.built" 2>/dev/null)" \
		"gaudi/$VERSION, $KVER, x86_64: built"
	is "dkms-built module's vermagic is $KVER's" \
		"$(cat "$tmp/dkms.vermagic" 2>/dev/null)" \
		"$(modinfo -k "$KVER" -F vermagic drm)"
	check "dkms install: updates/dkms/gaudi.ko" \
		grep -q '^gaudi\.ko' "$tmp/dkms.installed"
	is "dkms remove: module gone" "$(cat "$tmp/dkms.after-remove" 2>/dev/null)" ""
	is "dkms remove: status empty" "$(cat "$tmp/dkms.status.removed" 2>/dev/null)" ""
}
if [ "$(id -u)" != 0 ]; then
	skip "dkms" "needs root"
elif ! command -v dkms >/dev/null; then
	skip "dkms" "dkms not installed (tools/host/install-deps.sh)"
elif [ ! -d "/lib/modules/$KVER/build" ]; then
	skip "dkms" "no headers for $KVER"
else
	dkms_test
fi

# ------------------------------------------------------------ 3. guest results
echo "# $(($(date +%s) - T0)) s: waiting for the guest"
if [ -z "$guest_pid" ]; then
	skip "guest" "no GAUDI_QEMU (make qemu)"
else
	wait "$guest_pid"
	rc=$?
	guest_pid=
	while read -r line; do
		case $line in
		"guest-tap: ok - "*) ok "guest: ${line#guest-tap: ok - }" ;;
		"guest-tap: not ok - "*) nok "guest: ${line#guest-tap: not ok - }" ;;
		esac
	done < <(tr -d '\r' <"$tmp/guest.log")
	is "guest: gaudi-vm status (0; 99 = kernel problems in dmesg)" "$rc" 0
	is "guest: all checks ran" "$(grep -c "^guest-tap: " "$tmp/guest.log")" 20
	if [ "$rc" != 0 ] || grep -q '^guest-tap: not ok' "$tmp/guest.log"; then
		grep -v '^guest-tap: ok' "$tmp/guest.log" | tail -n 40 | sed 's/^/# /'
	fi
fi

echo "1..$n"
echo "# $(($(date +%s) - T0)) s"
closing
[ "$fail" = 0 ]
