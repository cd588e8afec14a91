#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "driver": acceptance of our gaudi.ko (issue 3). Runs inside
# the gaudi-vm guest (busybox sh), started with --driver none and
# --device-opts test-hooks=on; it loads and unloads the drivers itself.
#
#   1  insmod gaudi.ko: every card operational, nodes, no kernel problems
#   2  hl_upstream_test (tests/guest/upstream, unchanged) --control and
#      --compute on gaudi.ko and on the upstream peer, and the INFO dumps of
#      gaudi_driver_test --dump of both drivers diffed (same card)
#   3  gaudi_driver_test --negative (TAP), 10,000 bad calls vs dmesg lines
#   4  faults through the model control window (gaudi_model_ctl): sysfs
#      hard reset, device-CPU hang -> heartbeat loss -> recovery, corrupt and
#      missing firmware images on one card, unbind/bind, rmmod with an open
#      file, 50 load/unload cycles with leak and warning checks
#
# Environment: CARDS (default 8), GAUDI_KO (driver under test), PEER_KO
# (upstream reference peer), BIN (test programs, default this folder),
# HEARTBEAT_MS (default 1000), CYCLES (default 50), CYCLE_CARDS (cards kept
# bound during the cycles, default 2), PROBE_TIMEOUT (s, default 180),
# DUT=peer (develop the suite against the peer: it stands in for gaudi.ko).
# Prints TAP (the programs' TAP indented as subtests) and ends with
# "N passed, N failed"; exit status 1 on any failure.

CARDS=${CARDS:-8}
GAUDI_KO=${GAUDI_KO:-}
PEER_KO=${PEER_KO:-}
BIN=${BIN:-$(dirname "$0")}
HEARTBEAT_MS=${HEARTBEAT_MS:-1000}
CYCLES=${CYCLES:-50}
CYCLE_CARDS=${CYCLE_CARDS:-2}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-180}
DUT=${DUT:-gaudi}
UPSTREAM_TEST=$BIN/hl_upstream_test
TEST=$BIN/gaudi_driver_test
CTL=$BIN/gaudi_model_ctl
FW_DIR=/lib/firmware/habanalabs/gaudi
WORK=/tmp/driver-suite

# The messages the driver documents (kernel/gaudi_fw.c, gaudi_cpucp.c):
# stable substrings matched with grep -F.
if [ "$DUT" = peer ]; then
	DUT_KO=$PEER_KO
	DUT_MOD=habanalabs
	MSG_CORRUPT=${MSG_CORRUPT:-FIT}
	MSG_MISSING=${MSG_MISSING:-gaudi-fit.itb}
	MSG_HEARTBEAT=${MSG_HEARTBEAT:-heartbeat}
else
	DUT_KO=$GAUDI_KO
	DUT_MOD=gaudi
	MSG_CORRUPT=${MSG_CORRUPT:-rejected by the device: FIT corrupted}
	MSG_MISSING=${MSG_MISSING:-firmware file habanalabs/gaudi/gaudi-fit.itb not available}
	MSG_HEARTBEAT=${MSG_HEARTBEAT:-heartbeat lost}
fi
DRV_DIR=/sys/bus/pci/drivers/$DUT_MOD

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# What counts as a kernel problem: gaudi-vm's (tools/vm/dmesg-judge.sh).
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh
mkdir -p "$WORK"

now() { cut -d' ' -f1 /proc/uptime; }
since() { awk "BEGIN{printf \"%.1f\", $(now) - $1}"; }

# dmesg marks: lines logged after the mark.
mark() { dmesg | wc -l; }
dmesg_since() { dmesg | tail -n +$(($1 + 1)); }

# no_problems MARK WHAT: no WARNING/BUG/Oops/... since MARK.
no_problems() {
	p=$(dmesg_since "$1" | kernel_problems)
	[ -z "$p" ]
	ok $? "$2: no WARNING/BUG/Oops/KASAN/NOT usable/Call Trace in dmesg"
	[ -z "$p" ] || dmesg_since "$1" | judge_dmesg |
		grep -E -B2 -A8 "$GAUDI_KERNEL_PROBLEMS" |
		head -n 40 | sed 's/^/#   /'
}

# logged MARK STRING: dmesg since MARK has STRING (fixed, any case).
logged() { dmesg_since "$1" | grep -qiF "$2"; }

# ---- cards ------------------------------------------------------------------

# Every Gaudi PCI function, in bus order.
all_bdfs() {
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x1da3 ] &&
			[ "$(cat "$d/device")" = 0x1000 ] && basename "$d"
	done | sort
}

# accel minor of the card at BDF ("" when it has none).
minor_of() {
	for a in /sys/class/accel/accel[0-9]*; do
		[ -e "$a" ] || continue
		[ "$(basename "$(readlink -f "$a/device")")" = "$1" ] &&
			echo "${a##*/accel}" && return
	done
}

# accel_controlD minor of the card at BDF.  gaudi.ko parents its control
# nodes to the PCI device.  Upstream's are virtual devices numbered
# independently of the compute nodes, so they are paired with the card by
# the module-id they report (module_id_of, below).
ctl_minor_of() {
	for a in /sys/class/accel/accel_controlD*; do
		[ -e "$a/device" ] || continue
		[ "$(basename "$(readlink -f "$a/device")")" = "$1" ] &&
			echo "${a##*/accel_controlD}" && return
	done
	want=$(module_id_of "$1")
	for a in /dev/accel/accel_controlD*; do
		m=${a##*/accel_controlD}
		id=$("$UPSTREAM_TEST" --control --card "$m" 2>/dev/null |
			sed -n 's/.*hw_ip.module_id \([0-9]*\) is 0\.\.7.*/\1/p')
		[ "$id" = "$want" ] && echo "$m" && return
	done
}

# module-id the launcher gave the card at BDF: gaudi-vm puts card i behind
# a root port at 00:(0x10 + i).0 and gives it module-id i.
module_id_of() {
	port=$(basename "$(readlink -f "/sys/bus/pci/devices/$1/..")")
	slot=${port#*:*:}
	slot=${slot%.*}
	echo $((0x$slot - 0x10))
}

attr() { cat "/sys/bus/pci/devices/$1/$2" 2>/dev/null; }
write_attr() { echo "$3" >"/sys/bus/pci/devices/$1/$2"; }
bound() { [ "$(basename "$(readlink -f "/sys/bus/pci/devices/$1/driver" 2>/dev/null)")" = "$DUT_MOD" ]; }

# status_is BDF: sysfs status reads operational (upstream spells it
# "Operational"; compared without case).
operational() {
	s=$(attr "$1" status)
	[ "$(echo "$s" | tr '[:upper:]' '[:lower:]')" = operational ]
}

# wait_operational BDF SECONDS: the card has nodes and reads operational.
wait_operational() {
	t=0
	while [ "$t" -lt $(($2 * 5)) ]; do
		m=$(minor_of "$1")
		[ -n "$m" ] && [ -c "/dev/accel/accel$m" ] &&
			[ -c "/dev/accel/accel_controlD$m" ] && operational "$1" &&
			return 0
		sleep 0.2
		t=$((t + 1))
	done
	return 1
}

# nodes N: count of compute nodes.
count_nodes() {
	c=0
	for f in /dev/accel/accel[0-9]*; do
		[ -c "$f" ] && c=$((c + 1))
	done
	echo "$c"
}

wait_nodes() {
	t=0
	while [ "$(count_nodes)" -lt "$1" ] && [ "$t" -lt $((PROBE_TIMEOUT * 5)) ]; do
		sleep 0.2
		t=$((t + 1))
	done
	[ "$(count_nodes)" -eq "$1" ]
}

no_nodes() { [ "$(count_nodes)" -eq 0 ] && ! ls /dev/accel/accel_control* >/dev/null 2>&1; }

loaded() { grep -q "^$1 " /proc/modules; }

# load KO MODNAME [params...]: modprobe its dependencies, insmod.
load() {
	ko=$1
	shift 2
	deps=$(modinfo -F depends "$ko" 2>/dev/null | tr ',' ' ')
	# shellcheck disable=SC2086
	[ -z "$deps" ] || modprobe -a $deps || return 1
	insmod "$ko" "$@"
}

load_dut() { load "$DUT_KO" "$DUT_MOD" "$@"; }

# all_operational WHAT: every card has nodes and reads operational.
all_operational() {
	bad=
	for b in $BDFS; do
		wait_operational "$b" 30 || bad="$bad $b($(attr "$b" status))"
	done
	[ -z "$bad" ]
	ok $? "$1: all $CARDS cards operational with accelN and accel_controlDN${bad:+ (not:$bad)}"
}

# ---- start ------------------------------------------------------------------

T_START=$(now)
BDFS=$(all_bdfs)
# shellcheck disable=SC2086
set -- $BDFS
B0=$1 B1=${2:-$1} B2=${3:-$1} B3=${4:-$1}
BLAST=$(echo "$BDFS" | tail -n 1)
diag "suite driver: DUT $DUT ($DUT_KO), $CARDS cards, kernel $(uname -r)"
[ "$(echo "$BDFS" | grep -c .)" -eq "$CARDS" ]
ok $? "$(echo "$BDFS" | grep -c .) Gaudi PCI functions found, want $CARDS"
for p in "$UPSTREAM_TEST" "$TEST" "$CTL"; do
	[ -x "$p" ]
	ok $? "program $p present"
done
[ -n "$DUT_KO" ] && [ -f "$DUT_KO" ]
ok $? "driver under test present ($DUT_KO)"
[ -n "$PEER_KO" ] && [ -f "$PEER_KO" ]
ok $? "upstream peer present ($PEER_KO)"
"$CTL" "$B0" >"$WORK/ctl" 2>&1
st=$?
ok $st "model control window of $B0 answers (test-hooks=on): $(tr '\n' ' ' <"$WORK/ctl")"
if ! [ -f "$DUT_KO" ]; then
	echo "1..$n"
	echo "$((n - failed)) passed, $failed failed"
	exit 1
fi

# ---- 1: load ----------------------------------------------------------------
diag "check 1: insmod $DUT_KO brings all cards to operational"
m0=$(mark)
t0=$(now)
if [ "$DUT_MOD" = gaudi ]; then
	# As on a host after `make install`: the module in updates/, depmod,
	# then modprobe resolves its dependencies by itself.
	upd=/lib/modules/$(uname -r)/updates
	mkdir -p "$upd" && cp "$DUT_KO" "$upd/gaudi.ko" && depmod -a &&
		modprobe gaudi
	ok $? "modprobe gaudi (installed in updates/, depmod -a)"
else
	load_dut
	ok $? "insmod $DUT_KO"
fi
wait_nodes "$CARDS"
ok $? "$(count_nodes) compute nodes /dev/accel/accelN, want $CARDS"
diag "probe of $CARDS cards: $(since "$t0") s"
all_operational "first load"
c=0
for f in /dev/accel/accel_controlD*; do [ -c "$f" ] && c=$((c + 1)); done
[ "$c" -eq "$CARDS" ]
ok $? "$c control nodes /dev/accel/accel_controlDN, want $CARDS"
no_problems "$m0" "first load"

# hwmon: lm-sensors lists every card with the firmware's sensor table.
if command -v sensors >/dev/null 2>&1; then
	sensors >"$WORK/sensors" 2>&1
	st=$?
	chips=$(grep -c -- '-pci-' "$WORK/sensors")
	# The driver's labels (gaudi_hwmon.c); the peer has none: temp1.
	temps=$(grep -c '^\(ASIC die\|temp1\):' "$WORK/sensors")
	[ "$st" -eq 0 ] && [ "$chips" -eq "$CARDS" ] && [ "$temps" -eq "$CARDS" ]
	ok $? "sensors (lm-sensors) lists $chips chips with the die temperature, want $CARDS"
	grep -q '^\(power1\|board input\):' "$WORK/sensors" &&
		grep -q '^\(in0\|core\):' "$WORK/sensors"
	ok $? "sensors shows power and voltage channels"
	if [ "$DUT_MOD" = gaudi ]; then
		labels=$(grep -c '^\(ASIC die\|board\|core\|board input\):' "$WORK/sensors")
		[ "$labels" -eq $((5 * CARDS)) ]
		ok $? "sensors names gaudi.ko's channels: ASIC die, board, core (V, A), board input ($labels lines, want $((5 * CARDS)))"
	fi
else
	ok 1 "sensors (lm-sensors) present in the guest"
fi

# ---- 2: hl_upstream_test and INFO dumps on both drivers ------------------------
diag "check 2: hl_upstream_test and INFO dumps, $DUT_MOD vs the upstream peer"
# dump DRIVER: INFO dumps of the first and last card, both nodes, taken
# first after the load so both drivers see the same history.
dump() {
	for b in "$B0" "$BLAST"; do
		mn=$(minor_of "$b")
		cn=$(ctl_minor_of "$b")
		for node in control compute; do
			"$TEST" --card "$mn" --ctl-card "$cn" --dump "$node" \
				>"$WORK/dump.$1.$b.$node" 2>&1
			ok $? "$1: INFO dump of $b ($node node, accel$mn, accel_controlD$cn)"
		done
	done
}
# upstream_tests DRIVER: the unchanged INFO program on every card's control
# node and on one compute node.
upstream_tests() {
	for b in $BDFS; do
		tap_sub "$1: hl_upstream_test --control $b" "$UPSTREAM_TEST" \
			--control --card "$(ctl_minor_of "$b")" \
			--module-id "$(module_id_of "$b")"
	done
	mn=$(minor_of "$B0")
	tap_sub "$1: hl_upstream_test --compute $B0" "$UPSTREAM_TEST" \
		--compute --card "$mn" --module-id "$(module_id_of "$B0")"
}
m0=$(mark)
dump "$DUT_MOD"
upstream_tests "$DUT_MOD"
no_problems "$m0" "$DUT_MOD INFO tests"

t0=$(now)
rmmod "$DUT_MOD"
ok $? "rmmod $DUT_MOD ($(since "$t0") s)"
no_nodes
ok $? "no accel nodes left after rmmod $DUT_MOD"
m0=$(mark)
t0=$(now)
load "$PEER_KO" habanalabs
ok $? "insmod the upstream peer $PEER_KO"
wait_nodes "$CARDS"
ok $? "peer: $(count_nodes) compute nodes, want $CARDS ($(since "$t0") s)"
all_operational "peer"
dump peer
upstream_tests peer
t0=$(now)
rmmod habanalabs
ok $? "rmmod the peer ($(since "$t0") s)"
no_problems "$m0" "peer phase"
for f in "$WORK"/dump.peer.*; do
	what=${f#"$WORK"/dump.peer.}
	g=$WORK/dump.$DUT_MOD.$what
	grep -v '^#' "$f" >"$WORK/cmp.peer"
	grep -v '^#' "$g" >"$WORK/cmp.$DUT_MOD"
	d=$(diff "$WORK/cmp.peer" "$WORK/cmp.$DUT_MOD")
	[ -z "$d" ]
	ok $? "INFO dump of $what: $DUT_MOD answers as the upstream peer ($(echo "$d" | grep -c '^[-+][^-+]') lines differ)"
	[ -z "$d" ] || { echo "$d" | head -n 150 | sed 's/^/#   /'; }
done

m0=$(mark)
t0=$(now)
load_dut heartbeat_ms="$HEARTBEAT_MS"
st=$?
if [ "$st" -ne 0 ]; then
	diag "insmod with heartbeat_ms failed; loading with defaults"
	load_dut
	st=$?
fi
ok $st "insmod $DUT_MOD again (heartbeat_ms=$HEARTBEAT_MS)"
wait_nodes "$CARDS"
ok $? "$(count_nodes) compute nodes after the reload ($(since "$t0") s)"
all_operational "reload"
[ "$(cat /sys/module/$DUT_MOD/parameters/heartbeat_ms 2>/dev/null)" = "$HEARTBEAT_MS" ]
ok $? "module parameter heartbeat_ms is $HEARTBEAT_MS ($(cat /sys/module/$DUT_MOD/parameters/heartbeat_ms 2>&1))"
no_problems "$m0" "reload"

# ---- 3: negative uapi tests ---------------------------------------------------
diag "check 3: negative uapi tests on $B0"
m0=$(mark)
tap_sub "gaudi_driver_test --negative $B0" "$TEST" --card "$(minor_of "$B0")" \
	--ctl-card "$(ctl_minor_of "$B0")" --negative
m1=$(mark)
"$TEST" --card "$(minor_of "$B0")" --ctl-card "$(ctl_minor_of "$B0")" \
	--flood 10000 >"$WORK/flood" 2>&1
st=$?
cat "$WORK/flood"
ok $st "10,000 bad calls all fail, each with its expected errno"
m2=$(mark)
[ $((m2 - m1)) -lt 20 ]
ok $? "10,000 bad calls add $((m2 - m1)) lines to dmesg (fewer than 20)"
[ $((m2 - m1)) -lt 20 ] || dmesg_since "$m1" | sort | uniq -c | sort -rn | head -n 8 | sed 's/^/#   /'
no_problems "$m0" "negative tests"
operational "$B0"
ok $? "$B0 operational after the negative tests ($(attr "$B0" status))"

# ---- 4: faults ------------------------------------------------------------------
diag "check 4: faults injected through the model control window"

# 4a: hard reset through sysfs
b=$B1
m0=$(mark)
c0=$(attr "$b" hard_reset_cnt)
t0=$(now)
write_attr "$b" hard_reset 1
ok $? "echo 1 > $b/hard_reset"
sleep 0.5
wait_operational "$b" 60
ok $? "$b operational again after the sysfs hard reset ($(since "$t0") s)"
c1=$(attr "$b" hard_reset_cnt)
[ -n "$c0" ] && [ "$c1" = $((c0 + 1)) ]
ok $? "$b hard_reset_cnt $c0 -> $c1 (+1)"
tap_sub "hl_upstream_test --control $b after the hard reset" "$UPSTREAM_TEST" \
	--control --card "$(ctl_minor_of "$b")" --module-id "$(module_id_of "$b")"
no_problems "$m0" "sysfs hard reset"

# 4b: the device CPU stops answering -> heartbeat loss -> hard reset
b=$B2
m0=$(mark)
c0=$(attr "$b" hard_reset_cnt)
hb_wait=$(((HEARTBEAT_MS * 3 + 999) / 1000))
cp0=$("$CTL" "$b" get cpucp_count)
sleep "$hb_wait"
cp1=$("$CTL" "$b" get cpucp_count)
[ -n "$cp1" ] && [ "$cp1" -gt "$cp0" ]
ok $? "$b heartbeat running: device CPU answered $((cp1 - cp0)) CPU-CP packets in $hb_wait s"
t0=$(now)
"$CTL" "$b" set cpu_hang 1
st=$?
ok $st "$b: device CPU hangs (CPU_HANG=1, reads $("$CTL" "$b" get cpu_hang))"
t=0
while [ "$(attr "$b" hard_reset_cnt)" = "$c0" ] && [ "$t" -lt 300 ]; do
	sleep 0.2
	t=$((t + 1))
done
c1=$(attr "$b" hard_reset_cnt)
[ "$c1" = $((c0 + 1)) ]
ok $? "$b: heartbeat loss starts a hard reset within 60 s (hard_reset_cnt $c0 -> $c1 after $(since "$t0") s)"
wait_operational "$b" 60
ok $? "$b operational again after the heartbeat loss ($(since "$t0") s)"
logged "$m0" "$MSG_HEARTBEAT"
ok $? "dmesg has the documented '$MSG_HEARTBEAT' message"
[ "$("$CTL" "$b" get cpu_hang)" = 0 ]
ok $? "the reset revived the device CPU (CPU_HANG reads 0)"
tap_sub "hl_upstream_test --control $b after the recovery" "$UPSTREAM_TEST" \
	--control --card "$(ctl_minor_of "$b")" --module-id "$(module_id_of "$b")"
dmesg_since "$m0" | grep -iE "heartbeat|reset|lost" | head -n 6 | sed 's/^/#   /'
no_problems "$m0" "heartbeat loss"

# unbind/bind helpers for one card
unbind() { echo "$1" >"$DRV_DIR/unbind"; }
bind() { echo "$1" >"$DRV_DIR/bind" 2>/dev/null; }
others_fine() {
	bad=
	for o in $BDFS; do
		[ "$o" = "$1" ] && continue
		operational "$o" || bad="$bad $o"
	done
	[ -z "$bad" ]
	ok $? "$2: the other cards stay operational${bad:+ (not:$bad)}"
}

# 4c: unbind/bind
b=$B3
m0=$(mark)
unbind "$b"
ok $? "unbind $b from $DUT_MOD"
[ -z "$(minor_of "$b")" ] && ! bound "$b" && [ "$(count_nodes)" -eq $((CARDS - 1)) ]
ok $? "$b has no accel node after unbind, $(count_nodes) nodes left"
others_fine "$b" "unbind"
t0=$(now)
bind "$b"
ok $? "bind $b to $DUT_MOD"
wait_operational "$b" 60
ok $? "$b operational after bind ($(since "$t0") s), $(count_nodes) nodes"
tap_sub "hl_upstream_test --control $b after bind" "$UPSTREAM_TEST" \
	--control --card "$(ctl_minor_of "$b")" --module-id "$(module_id_of "$b")"
no_problems "$m0" "unbind/bind"

# 4d: corrupt firmware images (BOOT_FAIL 1: boot-fit, 2: main fit)
b=$B3
for mode in 1 2; do
	case $mode in
	1) img=gaudi-boot-fit.itb ;;
	2) img=gaudi-fit.itb ;;
	esac
	m0=$(mark)
	unbind "$b"
	ok $? "unbind $b"
	"$CTL" "$b" set boot_fail "$mode"
	st=$?
	ok $st "$b: BOOT_FAIL=$mode armed ($img refused as corrupt), reads $("$CTL" "$b" get boot_fail)"
	t0=$(now)
	bind "$b"
	st=$?
	[ "$st" -ne 0 ] && ! bound "$b" && [ -z "$(minor_of "$b")" ]
	ok $? "bind $b with a corrupt $img fails (bind status $st, $(since "$t0") s), no node"
	logged "$m0" "$MSG_CORRUPT"
	ok $? "dmesg has the documented '$MSG_CORRUPT' message"
	dmesg_since "$m0" | grep -iF "$MSG_CORRUPT" | head -n 2 | sed 's/^/#   /'
	diag "model FIT_REASON $("$CTL" "$b" get fit_reason)"
	others_fine "$b" "corrupt $img"
	bound "$b" && unbind "$b"
	t0=$(now)
	bind "$b"
	ok $? "bind $b again once the fault is gone"
	wait_operational "$b" 60
	ok $? "$b operational again ($(since "$t0") s)"
	no_problems "$m0" "corrupt $img"
done

# 4e: missing firmware image
b=$B3
m0=$(mark)
unbind "$b"
ok $? "unbind $b"
mv "$FW_DIR/gaudi-fit.itb" "$WORK/gaudi-fit.itb.away"
ok $? "move $FW_DIR/gaudi-fit.itb away"
t0=$(now)
bind "$b"
st=$?
[ "$st" -ne 0 ] && ! bound "$b" && [ -z "$(minor_of "$b")" ]
ok $? "bind $b without gaudi-fit.itb fails (bind status $st, $(since "$t0") s), no node"
logged "$m0" "$MSG_MISSING"
ok $? "dmesg has the documented '$MSG_MISSING' message"
dmesg_since "$m0" | grep -iF "$MSG_MISSING" | head -n 2 | sed 's/^/#   /'
others_fine "$b" "missing image"
mv "$WORK/gaudi-fit.itb.away" "$FW_DIR/gaudi-fit.itb"
ok $? "restore gaudi-fit.itb"
bound "$b" && unbind "$b"
t0=$(now)
bind "$b"
ok $? "bind $b with the image restored"
wait_operational "$b" 60
ok $? "$b operational again ($(since "$t0") s)"
no_problems "$m0" "missing image"

# 4f: rmmod while a file is open: the open file holds the module (the DRM
# core's fops owner), so rmmod must be refused and the card stay usable.
m0=$(mark)
mn=$(ctl_minor_of "$B0")
sh -c 'sleep 30' 3<"/dev/accel/accel_controlD$mn" &
holder=$!
sleep 0.3
rmmod "$DUT_MOD" 2>/dev/null
st=$?
[ "$st" -ne 0 ] && loaded "$DUT_MOD" && operational "$B0"
ok $? "rmmod with accel_controlD$mn open is refused (rmmod status $st); the driver stays usable"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
if ! loaded "$DUT_MOD"; then
	load_dut heartbeat_ms="$HEARTBEAT_MS" || load_dut
	wait_nodes "$CARDS"
fi
no_problems "$m0" "rmmod with an open file"

# 4g: load/unload cycles on CYCLE_CARDS cards
diag "check 4g: $CYCLES load/unload cycles with $CYCLE_CARDS of $CARDS cards" \
	"(driver_override keeps the other cards unbound, for time under TCG)"
m0=$(mark)
t0=$(now)
rmmod "$DUT_MOD"
ok $? "rmmod $DUT_MOD ($CARDS cards, $(since "$t0") s)"
i=0
for b in $BDFS; do
	i=$((i + 1))
	[ "$i" -le "$CYCLE_CARDS" ] && continue
	echo "gaudi-suite-parked" >"/sys/bus/pci/devices/$b/driver_override"
done
# meminfo FIELD: kB
meminfo() { awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo; }
settle() { sync; echo 3 >/proc/sys/vm/drop_caches; sleep 1; }
cycle() {
	load_dut || return 1
	wait_nodes "$CYCLE_CARDS" || return 2
	rmmod "$DUT_MOD" || return 3
	no_nodes || return 4
}
cycle
ok $? "warm-up cycle (insmod, $CYCLE_CARDS nodes, rmmod)"
# A leak grows with the cycles; a one-off shift (page cache, deferred
# frees) does not.  So memory is sampled before, at half-way and after,
# and a leak is a fall in both halves.  Free memory is counted with the
# pages on the per-CPU free lists: MemFree leaves them out, and with 4
# guest CPUs they alone swing by up to 36 MB between two samples while
# MemFree plus them stays within 0.5 MB (measured: 8 samples of 12
# cycles each).
# pcp_kb: kB of free pages held on the per-CPU lists (/proc/zoneinfo
# counts pages; the guest is x86-64, 4 KiB pages; it has no getconf).
pcp_kb() { awk '$1 == "count:" { s += $2 } END { print s * 4 }' /proc/zoneinfo; }
# sample: sets fr (MemFree + per-CPU lists) and su (kB) and shows the
# fields a leak or the noise would show in.
sample() {
	settle
	diag "meminfo:" $(awk '$1 ~ /^(MemFree|MemAvailable|Cached|Shmem|SUnreclaim|VmallocUsed|Percpu|PageTables|KernelStack|AnonPages):$/ { printf "%s%s ", $1, $2 }' /proc/meminfo) "PerCPUFreeLists:$(pcp_kb)"
	fr=$(($(meminfo MemFree) + $(pcp_kb)))
	su=$(meminfo SUnreclaim)
}
cycles() {	# cycles N: adds the failed ones to bad (n is tap.sh's)
	cyc=0
	while [ "$cyc" -lt "$1" ]; do
		cyc=$((cyc + 1))
		cycle
		st=$?
		if [ "$st" -ne 0 ]; then
			bad=$((bad + 1))
			diag "cycle failed at step $st"
			loaded "$DUT_MOD" && rmmod "$DUT_MOD"
		fi
	done
}
half=$((CYCLES / 2))
bad=0
t0=$(now)
sample
fr0=$fr su0=$su
cycles "$half"
sample
fr1=$fr
cycles $((CYCLES - half))
sample
fr2=$fr su2=$su
el=$(since "$t0")
ok "$bad" "$CYCLES load/unload cycles with $CYCLE_CARDS cards: $bad failed ($el s)"
[ $((su2 - su0)) -lt 2048 ]
ok $? "no slab leak: SUnreclaim grew $((su2 - su0)) kB over $CYCLES cycles (< 2048)"
f1=$((fr0 - fr1))
f2=$((fr1 - fr2))
fmin=$f1
[ "$f2" -lt "$fmin" ] && fmin=$f2
# The debug kernel judges leaks by kmemleak (no_problems); its KASAN keeps
# freed objects in a quarantine of up to 1/32 of RAM, filled as it goes.
bound=2048
[ -e /sys/kernel/debug/kmemleak ] && bound=$((bound + $(meminfo MemTotal) / 32))
[ "$fmin" -lt "$bound" ]
ok $? "no memory leak: free memory (with the per-CPU lists) fell $f1 kB over the first $half cycles and $f2 kB over the rest (a leak falls in both; < $bound)"
no_problems "$m0" "load/unload cycles"
for b in $BDFS; do
	echo >"/sys/bus/pci/devices/$b/driver_override"
done

# final: everything back, as the launcher's dmesg scan expects
m0=$(mark)
t0=$(now)
load_dut
ok $? "final insmod $DUT_MOD, all cards"
wait_nodes "$CARDS"
ok $? "final: $(count_nodes) compute nodes ($(since "$t0") s)"
all_operational "final"
no_problems "$m0" "final load"
no_problems 0 "whole suite"
diag "suite took $(since "$T_START") s of guest time"

tap_done
