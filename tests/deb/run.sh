#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The Debian packages (issue 14): make deb, lintian, what each package
# holds; then on this host: apt installs them, DKMS builds gaudi.ko and
# gaudi_en.ko for the guest kernel, that gaudi.ko passes the driver suite
# in a VM and the installed gaudi-smi lists the cards there; purging
# leaves none of the packages' files behind.  Needs root (apt, dkms).
# Prints TAP and "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
kver=${GAUDI_KVER:-6.12.95+deb12-amd64}
ver=$(cat "$top/VERSION")
out=$top/build/deb
pkgs="gaudi-dkms gaudi-tools gaudi-model-firmware libgaudi0 libgaudi-dev ibverbs-provider-gaudi"
fwnames="gaudi-boot-fit.itb gaudi-fit.itb gaudi_tpc.bin"
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$top/build/qemu-path" 2>/dev/null)
export GAUDI_QEMU

installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q 'ok installed'; }
purge_all() {
	# shellcheck disable=SC2086 # the package list
	apt-get purge -y -q $pkgs >"$out/purge.log" 2>&1
}
if [ "$(id -u)" != 0 ]; then
	skip "Debian packages" "needs root (apt, dkms)"
	tap_done
	exit 0
fi
if dkms status "gaudi/$ver" 2>/dev/null | grep -q .; then
	ok 1 "gaudi/$ver is registered with DKMS by make dkms-install: make dkms-uninstall first"
	tap_done
	exit 1
fi

"$top/tools/deb/build-deb.sh" >/dev/null
ok $? "make deb"
debs=()
for p in $pkgs; do
	debs+=("$out/${p}_${ver}_$( [ "$p" = gaudi-dkms ] || [ "$p" = gaudi-model-firmware ] && echo all || dpkg --print-architecture).deb")
done
lint=$(lintian -I --fail-on error,warning "$out"/*.changes 2>&1 | grep -v 'root privileges')
[ -z "$lint" ]
ok $? "lintian: no error, warning or info${lint:+: $(echo "$lint" | head -3 | tr '\n' ' ')}"

has() {	# has PACKAGE PATH...: the package holds every PATH
	local p=$1 f
	shift
	for f in "$@"; do
		dpkg -c "$out/${p}_${ver}_"*.deb | awk '{ print $6 }' |
			grep -qx "./${f#/}" || return 1
	done
}
has gaudi-dkms /usr/src/gaudi-$ver/dkms.conf /usr/src/gaudi-$ver/VERSION \
	/usr/src/gaudi-$ver/kernel/gaudi_drv.c /usr/src/gaudi-$ver/kernel/en/gaudi_en.c \
	/usr/src/gaudi-$ver/hw/gaudi1/nic.h /usr/src/gaudi-$ver/kernel/ib/gaudi_ib.c \
	/usr/src/gaudi-$ver/uapi/rdma/gaudi_ib_abi.h
ok $? "gaudi-dkms: the module sources, gaudi_en's, gaudi_ib's and hw/ included, with dkms.conf"
has libgaudi0 "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libgaudi.so.0"
ok $? "libgaudi0: libgaudi.so.0"
has libgaudi-dev /usr/include/gaudi/gaudi.h /usr/include/drm/gaudi_accel.h \
	"/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/pkgconfig/gaudi.pc"
ok $? "libgaudi-dev: headers, uapi extension header, gaudi.pc"
has gaudi-tools /usr/bin/gaudi-smi /usr/bin/gaudi-fw \
	/usr/lib/udev/rules.d/70-gaudi.rules /etc/modprobe.d/gaudi.conf \
	/usr/share/man/man1/gaudi-smi.1.gz
ok $? "gaudi-tools: gaudi-smi, gaudi-fw, man pages, udev rule, modprobe.d file"
dpkg-deb -f "$out/gaudi-tools_${ver}_"*.deb >/dev/null &&
	dpkg-deb --ctrl-tarfile "$out/gaudi-tools_${ver}_"*.deb | tar -xO ./conffiles 2>/dev/null |
	grep -qx /etc/modprobe.d/gaudi.conf
ok $? "gaudi-tools: /etc/modprobe.d/gaudi.conf is a conffile"
mkdir -p "$out/x"
dpkg-deb -x "$out/gaudi-tools_${ver}_"*.deb "$out/x"
! grep -q '^[a-z]' "$out/x/etc/modprobe.d/gaudi.conf"
ok $? "gaudi-tools: the modprobe.d file is inert (every setting commented out)"
has ibverbs-provider-gaudi \
	"/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libibverbs/libgaudi-rdmav34.so" \
	/etc/libibverbs.d/gaudi.driver
ok $? "ibverbs-provider-gaudi: the provider where libibverbs looks, its .driver file"
mkdir -p "$out/xv"
dpkg-deb -x "$out/ibverbs-provider-gaudi_${ver}_"*.deb "$out/xv"
[ "$(cat "$out/xv/etc/libibverbs.d/gaudi.driver")" = "driver gaudi" ]
ok $? "ibverbs-provider-gaudi: gaudi.driver names the provider by its short name"
has gaudi-model-firmware /usr/share/gaudi-open/firmware/habanalabs/gaudi/gaudi-fit.itb \
	/usr/share/gaudi-open/firmware/habanalabs/gaudi/gaudi-boot-fit.itb \
	/usr/share/gaudi-open/firmware/habanalabs/gaudi/gaudi_tpc.bin
ok $? "gaudi-model-firmware: the model's images, in /usr/share/gaudi-open/firmware"
has gaudi-tools /usr/libexec/gaudi-open/hl-smi
ok $? "gaudi-tools: the hl-smi link, in /usr/libexec/gaudi-open (not /usr/bin)"
infw=
for d in "${debs[@]}"; do
	f=$(dpkg-deb -c "$d" | awk '{ print $6 }' | grep -E '^\./(usr/)?lib/firmware/' | head -n 1)
	[ -n "$f" ] && infw="$infw $(basename "$d"):$f"
done
[ -z "$infw" ]
ok $? "no package holds a file under /lib/firmware or /usr/lib/firmware${infw:+:$infw}"

# The file the kernel loads for habanalabs/gaudi/NAME: the first of its
# search path (drivers/base/firmware_loader: firmware_class.path, then
# /lib/firmware/updates/<release>, /lib/firmware/updates,
# /lib/firmware/<release>, /lib/firmware) that exists.
fwpath=$(cat /sys/module/firmware_class/parameters/path 2>/dev/null)
kernel_loads() {	# kernel_loads RELEASE NAME: "path sha256" or "none"
	local d
	for d in ${fwpath:+"$fwpath"} "/lib/firmware/updates/$1" \
		/lib/firmware/updates "/lib/firmware/$1" /lib/firmware; do
		if [ -f "$d/habanalabs/gaudi/$2" ]; then
			echo "$d/habanalabs/gaudi/$2 $(sha256sum <"$d/habanalabs/gaudi/$2" | cut -c1-64)"
			return
		fi
	done
	echo none
}
# Habana's firmware at its paths, as on a DL1 (stand-ins where there is none)
planted=
plantdir=
# the first folder of the path that is not there, to remove afterwards
for d in /lib/firmware /lib/firmware/habanalabs /lib/firmware/habanalabs/gaudi; do
	[ -d "$d" ] || { plantdir=$d; break; }
done
for fwn in $fwnames; do
	f=/lib/firmware/habanalabs/gaudi/$fwn
	if [ ! -e "$f" ]; then
		mkdir -p /lib/firmware/habanalabs/gaudi
		echo "stand-in for Habana's $fwn" >"$f"
		planted="$planted $f"
	fi
done
before=$(for r in "$kver" "$(uname -r)"; do for fwn in $fwnames; do
	kernel_loads "$r" "$fwn"; done; done)

# Install on this host: apt resolves the dependencies (dkms, headers).
# shellcheck disable=SC2086 # the list
trap 'purge_all; [ -z "$planted" ] || rm -f $planted
[ -z "$plantdir" ] || rm -rf "$plantdir"' EXIT
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}" \
	>"$out/install.log" 2>&1
ok $? "apt-get install of the six packages (log: build/deb/install.log)"
after=$(for r in "$kver" "$(uname -r)"; do for fwn in $fwnames; do
	kernel_loads "$r" "$fwn"; done; done)
[ "$before" = "$after" ] && ! echo "$after" | grep -q "^none"
ok $? "with Habana's firmware in place, the kernel loads the same files after the install ($(echo "$after" | head -n 1))"
dkms status "gaudi/$ver" -k "$kver" 2>/dev/null | grep -q installed
ok $? "DKMS built and installed gaudi/$ver for $kver"
ko=$(modinfo -k "$kver" -n gaudi 2>/dev/null)
en=$(modinfo -k "$kver" -n gaudi_en 2>/dev/null)
ib=$(modinfo -k "$kver" -n gaudi_ib 2>/dev/null)
case "$ko $en $ib" in
*/updates/dkms/gaudi.ko*" "*/updates/dkms/gaudi_en.ko*" "*/updates/dkms/gaudi_ib.ko*) true ;;
*) false ;;
esac
ok $? "modinfo finds DKMS's gaudi.ko, gaudi_en.ko and gaudi_ib.ko (${ko:-none}, ${en:-none}, ${ib:-none})"
lists=$out/files
: >"$lists"
for p in $pkgs; do
	dpkg -L "$p" >>"$lists" 2>/dev/null
done

# DKMS's gaudi.ko in a VM: the driver suite, then the installed gaudi-smi.
if [ -n "$ko" ]; then
	ko=$(readlink -f "$ko")
	case $ko in
	*.ko.xz) xz -dc "$ko" >"$out/gaudi.ko" && ko=$out/gaudi.ko ;;
	*.ko.zst) zstd -qdc "$ko" >"$out/gaudi.ko" && ko=$out/gaudi.ko ;;
	esac
	GAUDI_KO=$ko CARDS=2 "$top/tests/guest/run-suite.sh" driver >"$out/driver.log" 2>&1
	ok $? "the driver suite on DKMS's gaudi.ko: $(grep -E '^[0-9]+ passed' "$out/driver.log" | tail -1)"
else
	ok 1 "the driver suite on DKMS's gaudi.ko: there is none"
fi
"$top/tools/vm/gaudi-vm" --driver none --cards 2 --timeout 300 \
	--firmware-dir /usr/share/gaudi-open/firmware \
	--add "$ko:/root/gaudi.ko" --add /usr/bin/gaudi-smi:/usr/bin/gaudi-smi \
	--cmd 'modprobe -a $(modinfo -F depends /root/gaudi.ko | tr , " "); insmod /root/gaudi.ko && sleep 2 && gaudi-smi -L' \
	>"$out/smi.log" 2>&1
cards=$(grep -c '^Card [0-9]*: ' "$out/smi.log")
[ "$cards" -ge 2 ]
ok $? "the packaged firmware boots the model and the installed gaudi-smi -L lists the 2 cards in the VM ($cards lines)"

purge_all
ok $? "apt-get purge of the six packages"
trap - EXIT
# shellcheck disable=SC2086 # the list
[ -z "$planted" ] || rm -f $planted
[ -z "$plantdir" ] || rm -rf "$plantdir"
left=0
while IFS= read -r f; do
	[ -d "$f" ] && continue
	if [ -e "$f" ] || [ -L "$f" ]; then
		left=$((left + 1))
		diag "left behind: $f"
	fi
done <"$lists"
[ -e "/usr/src/gaudi-$ver" ] && left=$((left + 1)) && diag "left: /usr/src/gaudi-$ver"
[ -e /var/lib/dkms/gaudi ] && left=$((left + 1)) && diag "left: /var/lib/dkms/gaudi"
[ -e "/lib/modules/$kver/updates/dkms/gaudi.ko" ] ||
	[ -e "/lib/modules/$kver/updates/dkms/gaudi.ko.xz" ] && left=$((left + 1)) &&
	diag "left: DKMS's gaudi.ko"
ok "$left" "purged: none of the $(wc -l <"$lists") listed paths, the DKMS tree or module left ($left)"
tap_done
