#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the gaudi-vm initramfs (busybox sh, PID 1).
#
# Reads the per-run settings written by tools/vm/gaudi-vm into
# /etc/gaudi-vm/config, loads the chosen driver, waits for the device nodes,
# runs /etc/gaudi-vm/cmd (or an interactive shell), scans dmesg for kernel
# problems, prints the status marker line and powers the VM off through
# QEMU's isa-debug-exit port, which turns the status into QEMU's exit code.
#
# Guest statuses besides the command's own:
#   97  driver load failed, too few /dev/accel nodes or the modules of
#       --eth/--verbs did not load (command not run)
#   99  dmesg shows WARNING/BUG/Oops/KASAN/UBSAN/lockdep/"NOT usable"/
#       "Call Trace" or an IOMMU (DMAR) fault not announced as expected
#       (tools/vm/dmesg-judge.sh), or, on a kernel with kmemleak (the debug kernel),
#       objects leaked while the driver and command ran
# (both only without --keep-going).

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
export TERM=linux
umask 022

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
# /tmp stays on the (writable) initramfs root rather than a tmpfs of its
# own: files --add'ed under a host /tmp path (a clone in /tmp, and the
# shared libraries its programs need) must stay visible.
mkdir -p /tmp
chmod 1777 /tmp
mkdir -p /root /run /var/log
hostname gaudi-vm

# Defaults, overridden by the launcher's config.
DRIVER=none		# none | habanalabs | peer | gaudi
DRIVER_KO=		# .ko path for peer/gaudi (insmod)
DRIVER_DEPS=		# modules to modprobe before the insmod
DRIVER_ARGS=		# module parameters
CARDS=0			# expected number of cards
NODE_TIMEOUT=120	# seconds to wait for /dev/accel nodes
KEEP_GOING=0
SHELL_MODE=0
DUMP_DMESG=0
VERBOSE=0
MODULES=		# modprobe'd before the driver (gaudi-vm --eth, --verbs)
ETH_MACS=		# MACs of eth0, eth1, ... (gaudi-vm --eth)
# shellcheck disable=SC1091
[ -f /etc/gaudi-vm/config ] && . /etc/gaudi-vm/config

uptime_s() { cut -d' ' -f1 /proc/uptime; }
say() { echo "gaudi-vm: $*"; }

# Write one byte to I/O port 0xf4 (isa-debug-exit): QEMU exits at once with
# status (v << 1) | 1. busybox has no outb; /dev/port (CONFIG_DEVPORT=y in
# Debian's kernel) turns a one-byte write at offset 0xf4 into an outb.
guest_exit() {
	v=$(($1 & 255))
	# shellcheck disable=SC2059
	printf "\\$(printf %03o "$v")" |
		dd of=/dev/port bs=1 seek=244 count=1 conv=notrunc 2>/dev/null
	# Only reached if the port write did not stop QEMU.
	say "isa-debug-exit failed, powering off"
	poweroff -f
	sleep 10
}

count_nodes() {
	# Compute nodes accel0, accel1, ... (not accel_controlD*).
	n=0
	for f in /dev/accel/accel[0-9]*; do
		[ -e "$f" ] && n=$((n + 1))
	done
	echo "$n"
}

load_driver() {
	case "$DRIVER" in
	none)
		return 0 ;;
	habanalabs)
		# shellcheck disable=SC2086
		modprobe habanalabs $DRIVER_ARGS || return 1 ;;
	peer|gaudi)
		if [ -n "$DRIVER_DEPS" ]; then
			# shellcheck disable=SC2086
			modprobe -a $DRIVER_DEPS || return 1
		fi
		# shellcheck disable=SC2086
		insmod "$DRIVER_KO" $DRIVER_ARGS || return 1 ;;
	*)
		say "unknown driver '$DRIVER'"
		return 1 ;;
	esac
	# Probing is synchronous in the module init, but allow for async probe
	# and slow TCG: wait, bounded, for one compute node per card.
	t=0
	while [ "$(count_nodes)" -lt "$CARDS" ] && [ "$t" -lt "$((NODE_TIMEOUT * 5))" ]; do
		sleep 0.2
		t=$((t + 1))
	done
	n=$(count_nodes)
	if [ "$n" -lt "$CARDS" ]; then
		say "expected $CARDS /dev/accel/accelN nodes after loading $DRIVER, found $n"
		return 1
	fi
	return 0
}

[ "$VERBOSE" = 1 ] && say "kernel $(uname -r) up at $(uptime_s) s"
say "boot-done uptime=$(uptime_s)"

# kmemleak (the debug kernel, tools/host/build-debug-kernel.sh): forget what
# boot left unreferenced, so that the scan after the command reports only
# objects allocated while the driver and the command ran.
KMEMLEAK=/sys/kernel/debug/kmemleak
if [ -w "$KMEMLEAK" ]; then
	echo scan >"$KMEMLEAK" 2>/dev/null
	echo clear >"$KMEMLEAK" 2>/dev/null
	say "kmemleak: boot objects cleared at $(uptime_s) s"
else
	KMEMLEAK=
fi

status=0
# The NICs and verbs stack gaudi-vm asked for (--eth, --verbs); the
# command finds the NICs' MACs in $ETH_MACS.
export ETH_MACS
if [ -n "$MODULES" ]; then
	# shellcheck disable=SC2086 # a list of module names
	if modprobe -a $MODULES; then
		[ "$VERBOSE" = 1 ] && say "modules loaded: $MODULES"
	else
		say "modprobe $MODULES failed"
		status=97
	fi
fi
if [ "$status" = 0 ] && [ "$DRIVER" != none ]; then
	t0=$(uptime_s)
	if load_driver; then
		say "driver $DRIVER loaded ($CARDS cards) in $(awk "BEGIN{print $(uptime_s) - $t0}") s"
	else
		say "driver $DRIVER failed to load"
		status=97
	fi
fi

if [ "$status" = 0 ] || [ "$KEEP_GOING" = 1 ]; then
	say "command-start uptime=$(uptime_s)"
	cd /root || exit 1
	if [ "$SHELL_MODE" = 1 ]; then
		# A controlling tty gives job control and ^C.
		setsid cttyhack sh -l
		cmd_status=$?
	else
		sh /etc/gaudi-vm/cmd </dev/console >/dev/console 2>&1
		cmd_status=$?
	fi
	cd /
	say "command-end uptime=$(uptime_s) status=$cmd_status"
	[ "$status" = 0 ] && status=$cmd_status
fi

# Kernel problems fail the run even if the command passed: what counts is
# in /lib/gaudi-vm/dmesg-judge.sh
# (tools/vm/dmesg-judge.sh), which the suites' checks share.
. /lib/gaudi-vm/dmesg-judge.sh
# kmemleak: objects still unreferenced after the command, two scans apart
# (an object is reported only once it is 5 s old and was unreferenced in a
# scan).
if [ -n "$KMEMLEAK" ]; then
	sleep 6
	echo scan >"$KMEMLEAK" 2>/dev/null
	echo scan >"$KMEMLEAK" 2>/dev/null
	leaks=$(grep -c '^unreferenced object' "$KMEMLEAK")
	say "kmemleak: $leaks unreferenced object(s) after the command"
	if [ "$leaks" -gt 0 ]; then
		head -n 300 "$KMEMLEAK" | sed 's/^/gaudi-vm: kmemleak: /'
		if [ "$KEEP_GOING" = 1 ]; then
			say "ignoring kmemleak reports (--keep-going)"
		elif [ "$status" = 0 ]; then
			status=99
		fi
	fi
fi
problems=$(dmesg | kernel_problems)
if [ -n "$problems" ]; then
	say "kernel problems in dmesg:"
	dmesg | judge_dmesg | grep -E -B2 -A20 "$GAUDI_KERNEL_PROBLEMS" |
		sed 's/^/gaudi-vm: dmesg: /'
	if [ "$KEEP_GOING" = 1 ]; then
		say "ignoring dmesg problems (--keep-going)"
	elif [ "$status" = 0 ]; then
		status=99
	fi
fi
if [ "$DUMP_DMESG" = 1 ]; then
	dmesg | sed 's/^/gaudi-vm: dmesg: /'
fi

sync
say "guest-status=$status"
guest_exit "$status"
