#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "upstream": the upstream habanalabs driver as an oracle for
# the device model. Runs inside the gaudi-vm guest (busybox sh), started
# with --driver none; it loads and unloads the drivers itself.
#
#   phase 1  Debian's stock habanalabs.ko: modprobe, all cards probed,
#            device nodes, hwmon, control-node INFO on every card, rmmod,
#            a second modprobe, rmmod
#   phase 2  the rebuilt peer (PEER_KO): insmod, compute-node CB/MEMORY/
#            CS/WAIT_CS on card 0, control node, the issue-15 scenarios
#            (hl_scenario_test --peer), the hl_diff_test transcript (twice:
#            it must be reproducible), rmmod
#   phase 3  gaudi.ko (GAUDI_KO) as the device under the same oracle: insmod,
#            the hl_diff_test transcript (twice), rmmod; then the two
#            drivers' transcripts compared call by call, every difference
#            either absent or listed with its reason in diff-expected.txt
#            (Documentation/upstream-peer.rst)
#
# Environment: CARDS (default 8), PEER_KO (peer module path), GAUDI_KO,
# BIN (folder of hl_upstream_test and hl_diff_test, default this script's
# folder), PROBE_TIMEOUT (s).
# Prints TAP (the test program's own TAP indented as a subtest) and ends
# with "N passed, N failed"; exit status 1 on any failure.

CARDS=${CARDS:-8}
PEER_KO=${PEER_KO:-}
BIN=${BIN:-$(dirname "$0")}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-300}
TEST=$BIN/hl_upstream_test
DIFF=$BIN/hl_diff_test
GAUDI_KO=${GAUDI_KO:-}
EXPECTED=$(dirname "$0")/diff-expected.txt
WORK=/tmp/upstream-suite
mkdir -p "$WORK"

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"

# Lines of dmesg matching a fixed string.
dmesg_count() { dmesg | grep -cF "$1"; }

# wait_count STRING WANT: wait (bounded) until dmesg has WANT such lines.
wait_count() {
	t=0
	while [ "$(dmesg_count "$1")" -lt "$2" ] && [ "$t" -lt "$PROBE_TIMEOUT" ]; do
		sleep 1
		t=$((t + 1))
	done
	[ "$(dmesg_count "$1")" -eq "$2" ]
}

# sub ARGS...: run hl_upstream_test, show its TAP indented, one test here.
sub() { tap_sub "hl_upstream_test $*" "$TEST" "$@"; }

# The module-id the launcher gave card accel$1: gaudi-vm puts card i behind
# a root port at 00:(0x10 + i).0 and gives it module-id i. (accelN numbering
# follows the asynchronous probe order and says nothing about the card.)
module_id() {
	port=$(basename "$(readlink -f "/sys/class/accel/accel$1/device/..")")
	slot=${port#*:*:}
	slot=${slot%.*}
	echo $((0x$slot - 0x10))
}

# The habanalabs module is (not) loaded.
loaded() { grep -q '^habanalabs ' /proc/modules; }

nodes_present() {
	i=0
	while [ "$i" -lt "$CARDS" ]; do
		[ -c "/dev/accel/accel$i" ] && [ -c "/dev/accel/accel_controlD$i" ] || return 1
		i=$((i + 1))
	done
}

no_nodes() { ! ls /dev/accel/accel* >/dev/null 2>&1; }

# hwmon temp1_input of card $1 in millidegrees C; plausible is 1..125 C.
check_hwmon() {
	f=
	for t in /sys/class/accel/accel"$1"/device/hwmon/hwmon*/temp1_input; do
		[ -e "$t" ] && f=$t && break
	done
	if [ -z "$f" ]; then
		ok 1 "card $1: hwmon temp1_input exists"
		return
	fi
	v=$(cat "$f" 2>/dev/null)
	case "$v" in
	''|*[!0-9-]*) ok 1 "card $1: temp1_input readable (got '$v')" ;;
	*) [ "$v" -ge 1000 ] && [ "$v" -le 125000 ]
	   ok $? "card $1: temp1_input $v m°C plausible ($f)" ;;
	esac
}

# unload: rmmod habanalabs; nodes must be gone.
unload() {
	t0=$(cut -d' ' -f1 /proc/uptime)
	rmmod habanalabs
	ok $? "rmmod habanalabs ($1)"
	diag "rmmod took $(awk "BEGIN{print $(cut -d' ' -f1 /proc/uptime) - $t0}") s"
	! loaded
	ok $? "habanalabs no longer loaded"
	no_nodes
	ok $? "no /dev/accel nodes left"
}

# probed WANT WHAT: WANT cumulative "Successfully added" / "Found" lines.
probed() {
	wait_count "Successfully added device" "$1"
	ok $? "$2: 'Successfully added device' x$(dmesg_count 'Successfully added device') (want $1)"
	[ "$(dmesg_count 'Found GAUDI device with 32GB DRAM')" -eq "$1" ]
	ok $? "$2: 'Found GAUDI device with 32GB DRAM' x$(dmesg_count 'Found GAUDI device with 32GB DRAM')"
	nodes_present
	ok $? "$2: /dev/accel/accel0..$((CARDS - 1)) and accel_controlD0..$((CARDS - 1))"
}

diag "suite upstream: $CARDS cards, kernel $(uname -r)"

# transcript DRIVER: hl_diff_test's transcript of card 0, taken twice; the
# second run must print the same (the calls are seeded, not timed).
transcript() {
	"$DIFF" --card 0 run >"$WORK/diff.$1" 2>"$WORK/diff.$1.err"
	st=$?
	ok $st "$1: hl_diff_test transcript, $(grep -c ' | ' "$WORK/diff.$1") calls (status $st)"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$WORK/diff.$1.err"
	"$DIFF" --card 0 run >"$WORK/diff.$1.again" 2>&1
	cmp -s "$WORK/diff.$1" "$WORK/diff.$1.again"
	ok $? "$1: a second hl_diff_test run prints the same transcript"
	diff "$WORK/diff.$1" "$WORK/diff.$1.again" | head -n 10 | sed 's/^/# /'
}

# ---- the emulated cards are on the bus ---------------------------------
cnt=0
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1da3 ] && [ "$(cat "$d/device")" = 0x1000 ] &&
		cnt=$((cnt + 1))
done
[ "$cnt" -eq "$CARDS" ]
ok $? "$cnt Gaudi PCI functions (1da3:1000) found, want $CARDS"
[ -x "$TEST" ]
ok $? "test program $TEST present"

# ---- phase 1: Debian's stock module --------------------------------------
diag "phase 1: stock habanalabs.ko ($(modinfo -n habanalabs 2>/dev/null))"
t0=$(cut -d' ' -f1 /proc/uptime)
modprobe habanalabs
ok $? "modprobe habanalabs"
probed "$CARDS" "stock"
diag "probe of $CARDS cards took $(awk "BEGIN{print $(cut -d' ' -f1 /proc/uptime) - $t0}") s"

i=0
while [ "$i" -lt "$CARDS" ]; do
	check_hwmon "$i"
	i=$((i + 1))
done
# accel_controlDN is a virtual device numbered apart from accelN, so which
# card it serves is only known from its answers: together the control nodes
# must report every module-id exactly once.
i=0
ids=
while [ "$i" -lt "$CARDS" ]; do
	sub --control --card "$i"
	ids="$ids $(echo "$out" |
		sed -n 's/.*hw_ip.module_id \([0-9]*\) is 0\.\.7.*/\1/p')"
	i=$((i + 1))
done
seen=$(echo $ids | tr ' ' '\n' | sort -n | tr '\n' ' ')
want=$(i=0; while [ "$i" -lt "$CARDS" ]; do printf '%d ' "$i"; i=$((i + 1)); done)
[ "$seen" = "$want" ]
ok $? "control nodes report module-ids 0..$((CARDS - 1)) once each ($seen)"

unload "stock, first load"
modprobe habanalabs
ok $? "second modprobe habanalabs"
probed $((CARDS * 2)) "stock reload"
sub --control --card 0
unload "stock, second load"

# ---- phase 2: the rebuilt upstream peer ----------------------------------
diag "phase 2: peer $PEER_KO"
if [ -n "$PEER_KO" ] && [ -f "$PEER_KO" ]; then
	deps=$(modinfo -F depends "$PEER_KO" | tr ',' ' ')
	# shellcheck disable=SC2086
	[ -z "$deps" ] || modprobe -a $deps
	ok $? "modprobe the peer's dependencies (${deps:-none})"
	insmod "$PEER_KO"
	ok $? "insmod $PEER_KO"
	grep -q O /sys/module/habanalabs/taint 2>/dev/null
	ok $? "loaded habanalabs is the out-of-tree peer (taint O)"
	probed $((CARDS * 3)) "peer"
	sub --compute --card 0 --module-id "$(module_id 0)"
	sub --control --card 0
	# issue 15: nops, fourdma, strided, pingpong as silicon runs them
	tap_sub "hl_scenario_test --peer" "$BIN/hl_scenario_test" --card 0 --peer
	transcript peer
	unload "peer"
else
	ok 1 "peer module present (PEER_KO='$PEER_KO')"
fi

# ---- phase 3: gaudi.ko under the same oracle -------------------------------
diag "phase 3: gaudi.ko $GAUDI_KO against the peer's transcript"
t3=$(cut -d' ' -f1 /proc/uptime)
if [ -n "$GAUDI_KO" ] && [ -f "$GAUDI_KO" ]; then
	deps=$(modinfo -F depends "$GAUDI_KO" | tr ',' ' ')
	# shellcheck disable=SC2086
	[ -z "$deps" ] || modprobe -a $deps
	insmod "$GAUDI_KO"
	ok $? "insmod $GAUDI_KO"
	t=0
	while ! nodes_present && [ "$t" -lt "$PROBE_TIMEOUT" ]; do
		sleep 1
		t=$((t + 1))
	done
	nodes_present
	ok $? "gaudi: /dev/accel/accel0..$((CARDS - 1)) and accel_controlD0..$((CARDS - 1))"
	transcript gaudi
	rmmod gaudi
	ok $? "rmmod gaudi"
	if [ -s "$WORK/diff.peer" ]; then
		tap_sub "peer vs gaudi" "$DIFF" compare "$WORK/diff.peer" \
			"$WORK/diff.gaudi" "$EXPECTED"
	else
		ok 1 "peer vs gaudi: the peer's transcript exists"
	fi
else
	ok 1 "gaudi.ko present (GAUDI_KO='$GAUDI_KO')"
fi
diag "phase 3 took $(awk "BEGIN{print $(cut -d' ' -f1 /proc/uptime) - $t3}") s"

tap_done
