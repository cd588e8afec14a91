#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The in-guest half of tests/install/test-install.sh (busybox sh, run by
# tools/vm/gaudi-vm --driver none).  The host put the files of
# `make install DESTDIR=...` where a host install puts them:
#   /lib/modules/$(uname -r)/updates/gaudi.ko, /lib/firmware/habanalabs/gaudi,
#   /usr/lib/udev/rules.d/70-gaudi.rules, /etc/modprobe.d/gaudi.conf (the
#   example), plus Debian's 80-drivers.rules (modalias autoload) and the
#   host's udevadm (systemd-udevd is the same binary).
# Then it does what a DL1 host does at boot: depmod, start udevd, coldplug
# the Gaudi PCI devices.  udevd loads the driver by modalias (the example's
# blacklist must leave habanalabs out) and applies 70-gaudi.rules to the
# nodes the driver creates.  Then the same for habanalabs' nodes.
#
#   guest-install.sh CARDS
# Prints "guest-tap: ok - ..." / "guest-tap: not ok - ..." lines, which the
# host turns into TAP.

CARDS=${1:-2}
KVER=$(uname -r)
# kmod's tools, not busybox's applets (the standalone shell prefers those).
modprobe() { /sbin/modprobe "$@"; }
depmod() { /sbin/depmod "$@"; }
modinfo() { /sbin/modinfo "$@"; }

ok() { echo "guest-tap: ok - $*"; }
nok() { echo "guest-tap: not ok - $*"; }
is() { # is DESCRIPTION GOT EXPECTED
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1 (got '$2', expected '$3')"; fi
}

count() {
	n=0
	for f in "$@"; do [ -e "$f" ] && n=$((n + 1)); done
	echo "$n"
}

wait_nodes() {
	udevadm settle --timeout=60
	t=0
	# Probing is in the module's init: no driver loaded, nothing to wait for.
	while [ "$(count /dev/accel/accel[0-9]*)" -lt "$CARDS" ] && [ $t -lt 450 ] &&
		grep -qE '^(gaudi|habanalabs) ' /proc/modules; do
		sleep 0.2
		t=$((t + 1))
	done
	udevadm settle --timeout=60
}

# Owner, group and mode of every node of one kind.
node_perms() {
	for f in "$@"; do
		[ -e "$f" ] && stat -c '%U:%G %a' "$f"
	done | sort -u | tr '\n' ' ' | sed 's/ $//'
}

check_nodes() { # DRIVER
	is "$1: $CARDS compute nodes" "$(count /dev/accel/accel[0-9]*)" "$CARDS"
	is "$1: $CARDS control nodes" "$(count /dev/accel/accel_controlD*)" "$CARDS"
	is "$1: compute nodes root:render 0660" \
		"$(node_perms /dev/accel/accel[0-9]*)" "root:render 660"
	is "$1: control nodes root:render 0666" \
		"$(node_perms /dev/accel/accel_controlD*)" "root:render 666"
}

loaded() { grep -q "^$1 " /proc/modules && echo yes || echo no; }

# The module as installed: depmod finds it in updates/.
depmod -a
is "depmod: gaudi is updates/gaudi.ko" "$(modinfo -n gaudi)" \
	"/lib/modules/$KVER/updates/gaudi.ko"
is "modprobe.d example parsed: blacklist" \
	"$(modprobe -c | grep -c '^blacklist habanalabs$')" 1

# The render group as Debian's udev package creates it.
grep -q '^render:' /etc/group || echo 'render:x:993:' >>/etc/group

mkdir -p /run/udev
ln -sf /usr/bin/udevadm /sbin/systemd-udevd
/sbin/systemd-udevd --daemon
udevadm trigger --action=add --subsystem-match=pci --attr-match=vendor=0x1da3
wait_nodes
is "udev autoload: gaudi loaded" "$(loaded gaudi)" yes
is "udev autoload: habanalabs blacklisted" "$(loaded habanalabs)" no
check_nodes gaudi

# habanalabs' nodes get the same treatment (the rule matches the card,
# not the driver).  -C /dev/null: without the example's softdep, which
# would load gaudi first.
modprobe -r gaudi
udevadm settle --timeout=60
is "no nodes after unloading gaudi" "$(count /dev/accel/*)" 0
modprobe -C /dev/null habanalabs
wait_nodes
is "habanalabs bound the cards" \
	"$(basename "$(readlink /sys/class/accel/accel0/device/driver)")" habanalabs
check_nodes habanalabs
modprobe -r habanalabs
udevadm settle --timeout=60

# The example's softdep: loading habanalabs by name loads gaudi first, and
# gaudi takes the cards.
modprobe habanalabs
wait_nodes
is "softdep: gaudi loaded with habanalabs" "$(loaded gaudi)" yes
is "softdep: gaudi bound the cards" \
	"$(basename "$(readlink /sys/class/accel/accel0/device/driver)")" gaudi
check_nodes gaudi-softdep
modprobe -r habanalabs gaudi
udevadm settle --timeout=60
udevadm control --exit
exit 0
