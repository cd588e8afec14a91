# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Module, node and dmesg helpers shared by the in-guest suites (POSIX sh,
# busybox in the guest).  tests/guest/run-suite.sh adds this file to the
# guest as /suite/lib.sh, next to the suite's folder, so that a suite
# sources it (after tests/lib/tap.sh) the same way in the guest and in a
# source tree:
#
#   . "$(dirname "$0")/../lib.sh"
#
#   insmod_deps KO [PARAMS...]   modprobe KO's dependencies, insmod KO
#   wait_node NODE [SECONDS]     until /dev/accel/NODE exists (120 s)
#   load KO [PARAMS...]          insmod_deps, then wait_node accel0
#   unload MODULE                rmmod, then until it is gone (60 s)
#   card_dir I                   card I's debugfs directory
#   no_kernel_problem WHAT       a TAP line: dmesg holds no kernel problem
#                                (WHAT, may be empty, ends its description;
#                                kernel_problems of tools/vm/dmesg-judge.sh,
#                                which the suite sources)

insmod_deps() {
	ko=$1
	shift
	deps=$(modinfo -F depends "$ko" 2>/dev/null | tr ',' ' ')
	# shellcheck disable=SC2086 # a list of module names
	{ [ -z "$deps" ] || modprobe -a $deps; } && insmod "$ko" "$@"
}

wait_node() {
	t=0
	while [ ! -e "/dev/accel/$1" ] && [ "$t" -lt "${2:-120}" ]; do
		sleep 1
		t=$((t + 1))
	done
	[ -e "/dev/accel/$1" ]
}

load() {
	insmod_deps "$@" && wait_node accel0
}

unload() {
	rmmod "$1" 2>/dev/null
	t=0
	while grep -q "^$1 " /proc/modules && [ "$t" -lt 60 ]; do
		sleep 1
		t=$((t + 1))
	done
	! grep -q "^$1 " /proc/modules
}

# card_dir I: card I's debugfs directory (named by its PCI address), found
# by the root port the card sits behind (gaudi-vm puts card I behind
# 00:(0x10 + I).0).
card_dir() {
	for d in /sys/kernel/debug/accel/0000:*; do
		[ -e "$d/data32" ] || continue
		path=$(readlink -f "/sys/bus/pci/devices/${d##*/}")
		rp=$(basename "$(dirname "$path")")
		slot=$((0x$(echo "$rp" | cut -d: -f3 | cut -d. -f1)))
		if [ $((slot - 0x10)) -eq "$1" ]; then
			echo "$d"
			return
		fi
	done
}

no_kernel_problem() {
	problems=$(dmesg | kernel_problems | head -5)
	[ -z "$problems" ]
	ok $? "no kernel problem in dmesg${1:+ $1}"
	[ -z "$problems" ] || echo "$problems" | sed 's/^/# /'
}
