#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "roce" (issue 13): DRM_IOCTL_GAUDI_NIC, the RoCE connections
# of the holder of the compute node (Documentation/net/roce.rst), on the
# model's RoCE v2 engine with the cards wired as on a DL1 (gaudi-vm --nic
# dl1: card 0 port 0 is cabled to card 1 port 0).
#
#   1  insmod gaudi.ko and gaudi_en.ko (its raw QP 0 on every port stays
#      in use while users have connections)
#   2  gaudi_roce_test neg: every field of every op the ioctl refuses
#   3  gaudi_roce_test teardown: after close and after a hard reset the
#      old connections are refused, their contexts invalid in the NIC (read
#      through the context gateway with debugfs), the queues unset
#   4  gaudi_roce_test rdma: RDMA WRITEs from card 0 port 0 to card 1 port
#      0, random sizes and offsets, byte checks, the remote user SOB
#      incremented once per write, requester CQEs; a bad rkey and a sync
#      object that is not a SOB put the QP in error on both ends (seen with
#      CONN_STATE), the other QPs keep working
#   5  ping over gaudi_en's netdevs of the same cable still works
#   6  gaudi_roce_test fuzz: random NIC ioctls
#   7  gaudi_allreduce (libgaudi's NIC API, allreduce.sh): a ring over
#      every card of the VM, then the same staged through host memory
#   8  gaudi_roce_pairs (libgaudi's NIC API): every ordered pair of the
#      cards over the DL1 port that links them, random sizes and offsets,
#      byte checks with the bytes around each write, the receiver's SOB
#      incremented exactly once per write; pair by pair, then all pairs at
#      once (PAIRS_SEED: its seed)
#   9  gaudi_roce_test forge: crafted RoCE v2 frames (AF_PACKET on
#      gaudi_en's netdevs of card 0 port 0 and card 1 port 0, which share
#      the cable): NAKs and an ACK from another source for a live QP dropped
#      (roce_drop_ack_source) and the QP still writing; WRITE FIRSTs with
#      the QP's PSN but an address or key outside its region NAKed
#      (roce_region_errors), the buffer unchanged; a frame for another MAC
#      dropped (roce_drop_mac); a message begun before its holder closed
#      continued into the next holder of the same QP number and buffer
#      address: nothing lands
#  10  gaudi_roce_test remove: card 0 unbound while its holder has
#      connections, bound again: nothing left
#  11  gaudi_roce_test stale-set / stale-check: a context made valid behind
#      the driver's back is invalid after a reload; dmesg has no kernel
#      problem
#  12  counters.sh: the per-port RoCE counters after RDMA traffic and a
#      bad remote key, through COUNTERS, ethtool -S and gaudi-smi
#
# Environment: GAUDI_KO, GAUDI_EN_KO, BIN, FUZZ (iterations, default 5000),
# PAIRS_SEED (gaudi_roce_pairs' seed; default its own).
# Prints TAP and ends with "N passed, N failed".

GAUDI_KO=${GAUDI_KO:-}
GAUDI_EN_KO=${GAUDI_EN_KO:-}
BIN=${BIN:-$(dirname "$0")}
FUZZ=${FUZZ:-5000}
PATH=$BIN:$PATH

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# accel_of I: /dev/accel/accelN of card I.
accel_of() {
	bdf=$(basename "$(card_dir "$1")")
	for a in /sys/class/accel/accel[0-9]*; do
		[ "$(basename "$(readlink -f "$a/device")")" = "$bdf" ] &&
			echo "/dev/accel/${a##*/}" && return
	done
}

# ctrl_of I: the control node of card I.
ctrl_of() {
	bdf=$(basename "$(card_dir "$1")")
	for a in /sys/class/accel/accel_controlD*; do
		[ "$(basename "$(readlink -f "$a/device")")" = "$bdf" ] &&
			echo "/dev/accel/${a##*/}" && return
	done
}

insmod_deps "$GAUDI_KO"
ok $? "insmod gaudi.ko"
insmod "$GAUDI_EN_KO"
ok $? "insmod gaudi_en.ko"

a0=$(accel_of 0)
a1=$(accel_of 1)
d0=$(card_dir 0)
d1=$(card_dir 1)
c0=$(ctrl_of 0)
[ -n "$a0" ] && [ -n "$a1" ] && [ -n "$d0" ] && [ -n "$d1" ] && [ -n "$c0" ]
ok $? "cards 0 and 1: $a0 ($d0, $c0), $a1 ($d1)"

# netdev_of I P: gaudi_en's netdev of card I port P (its device is the
# auxiliary device under the card's PCI function).
netdev_of() {
	bdf=$(basename "$(card_dir "$1")")
	for nd in /sys/class/net/*; do
		[ "$(basename "$(dirname "$(readlink -f "$nd/device")")")" = \
			"$bdf" ] || continue
		[ "$(cat "$nd/dev_port" 2>/dev/null)" = "$2" ] &&
			echo "${nd##*/}" && return
	done
}
t=0
while :; do
	n00=$(netdev_of 0 0)
	n10=$(netdev_of 1 0)
	{ [ -n "$n00" ] && [ -n "$n10" ]; } || [ $t -ge 50 ] && break
	sleep 0.2
	t=$((t + 1))
done
# Each end in a network namespace of its own, so that the ping crosses
# the cable.
unshare -n sleep 100000 &
ns0=$!
unshare -n sleep 100000 &
ns1=$!
sleep 0.5
if [ -n "$n00" ] && [ -n "$n10" ]; then
	ip link set dev "$n00" netns $ns0 && ip link set dev "$n10" netns $ns1 &&
		nsenter -t $ns0 -n ip addr add 192.168.77.1/24 dev "$n00" &&
		nsenter -t $ns1 -n ip addr add 192.168.77.2/24 dev "$n10" &&
		nsenter -t $ns0 -n ip link set dev "$n00" up &&
		nsenter -t $ns1 -n ip link set dev "$n10" up
	ok $? "gaudi_en: $n00 (card 0 port 0) and $n10 (card 1 port 0) up"
else
	ok 1 "gaudi_en netdevs of card 0 port 0 and card 1 port 0"
fi

tap_sub_each neg "$BIN/gaudi_roce_test" neg "$a0" "$c0" "$d0"
tap_sub_each teardown "$BIN/gaudi_roce_test" teardown "$a0" "$d0"
# The reset took card 0's port down and up: let gaudi_en see it.
sleep 1
tap_sub_each rdma "$BIN/gaudi_roce_test" rdma "$a0" "$d0" 0 "$a1" "$d1" 0

t=0
until nsenter -t $ns0 -n ping -c 1 -W 1 192.168.77.2 >/dev/null 2>&1; do
	t=$((t + 1))
	[ $t -ge 10 ] && break
done
[ $t -lt 10 ]
ok $? "ping over the same cable through gaudi_en's raw QP"

tap_sub_each fuzz "$BIN/gaudi_roce_test" fuzz "$a0" "$FUZZ" 1

kill $ns0 $ns1 2>/dev/null
# libgaudi's NIC API: the example all-reduce over every card of the VM.
if [ -x "$BIN/gaudi_allreduce" ]; then
	# shellcheck source-path=SCRIPTDIR source=allreduce.sh
	. "$(dirname "$0")/allreduce.sh"
	sleep 1	# card 0 and 1's port 0 back from the namespaces
	allreduce_test
fi
# libgaudi's NIC API: RDMA WRITEs between every ordered pair of cards, on
# the ports up (as allreduce_test leaves them; again here for a run
# without it).
for i in /sys/class/net/*; do
	[ -e "$i/device" ] && ip link set "${i##*/}" up
done
t0=$(date +%s)
tap_sub pairs "$BIN/gaudi_roce_pairs" ${PAIRS_SEED:+"$PAIRS_SEED"}
diag "pairs: $(($(date +%s) - t0)) s"
# Crafted frames from the raw path of the other end of the cable.
tap_sub_each forge "$BIN/gaudi_roce_test" forge "$a0" "$d0" \
	"$(netdev_of 0 0)" "$a1" "$d1" "$(netdev_of 1 0)"
# Last: card 0 unbound under a holder with connections (its netdevs go).
tap_sub_each remove "$BIN/gaudi_roce_test" remove "$a0" "$d0"
# A context left valid behind the driver's back (a crashed load) is gone
# after a reload: the tables are cleared at every bring-up.
d1=$(card_dir 1)
tap_sub_each stale "$BIN/gaudi_roce_test" stale-set "$d1"
rmmod gaudi_en
ok $? "rmmod gaudi_en"
rmmod gaudi
ok $? "rmmod gaudi"
insmod "$GAUDI_KO"
ok $? "insmod gaudi.ko again"
t=0
until d1=$(card_dir 1) && [ -n "$d1" ] || [ $t -ge 100 ]; do
	sleep 0.2
	t=$((t + 1))
done
tap_sub_each stale "$BIN/gaudi_roce_test" stale-check "$d1"
rmmod gaudi
ok $? "rmmod gaudi"
# What counts as a kernel problem: gaudi-vm's (tools/vm/dmesg-judge.sh).
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh
problems=$(dmesg | kernel_problems | head -3)
[ -z "$problems" ]
ok $? "dmesg: no kernel problem${problems:+: $problems}"
# The per-port RoCE counters through ethtool and gaudi-smi (counters.sh).
# shellcheck source-path=SCRIPTDIR source=counters.sh
. "$(dirname "$0")/counters.sh"
counters_test

tap_done
