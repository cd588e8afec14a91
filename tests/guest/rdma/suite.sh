#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "rdma" (issue 25): gaudi_ib.ko, the cards' NICs as RDMA
# devices, with rdma-core's tools and the project's provider.
#
#   1  gaudi.ko, gaudi_en.ko, ib_uverbs and gaudi_ib.ko load; one RDMA
#      device per card, gaudi_<accel minor>, its parent the card's PCI
#      function, with a port per NIC port
#   2  port 1 of cards 0 and 1 (their NIC port 0, cabled to each other)
#      up with an IPv4 address each: rdma link show names their netdevs,
#      ACTIVE/LINK_UP; the GID table has the address as a RoCE v2 GID
#      (sysfs and ibv_devinfo -v); ibv_devices lists every card's device
#      with its node GUID; ibv_devinfo -v the device and its ports
#   3  the netdev taken down: the port goes DOWN (rdma link), its address
#      GID leaves; up again: ACTIVE, the GID back
#   4  gaudi_ib_test: attributes, P_Keys, bad ports, the card's holding by
#      verbs contexts (taken through the compute node only), protection
#      domains, bad driver data
#   4b card 1's netdev in a network namespace of its own (so that the
#      route to its address crosses the cable), then
#      gaudi_ib_kverbs_test (tests/verbs/): every kernel verb with bad
#      arguments, RDMA WRITE between the cards, issue 22's isolation
#      classes through verbs; no kernel warning; and step 6 there
#   5  rdma statistic: RDMA WRITEs over the cable (the roce suite's
#      gaudi_roce_counters traffic) move tx_pkts/rx_pkts of both ports by
#      exactly what ethtool -S shows of the same run
#   6  (in 4b's namespace window) gaudi_verbs_test (tests/verbs/) at path MTU 1024 and 4096: every
#      verb with bad arguments, RC data byte for byte, the isolation
#      classes through verbs, the staging rings against a hostile user;
#      once more at 1024 on the kernel data path
#      (GAUDI_VERBS_KERNEL_POST=1); then rdma-core's and perftest's programs,
#      unmodified, between card 0
#      and card 1 over their cable (verbs-tools.sh: ibv_rc_pingpong with
#      its data check, ib_write_bw, ib_read_bw, ib_send_bw, ib_write_lat,
#      each at path MTU 1024 and 4096), each bounded in time; no
#      kernel problem in dmesg after them; the counters of the verbs
#      operations (25..28) moved by them, the same in rdma statistic,
#      sysfs and ethtool -S: recv_wqes on both ends (ping-pong, SEND),
#      reads_served on card 0 by at least ib_read_bw's READs,
#      rnr_naks_tx (and rnr_naks_rx, rnr_retries at the sender) by a
#      SEND of ib_send_bw -r 1 that finds no receive posted, cq_events_lost
#      shown and unchanged (no CQ event lost)
#   7  gaudi_ib.ko unloaded while a verbs context holds card 0: the
#      context is cut off (the provider's compute-node handle keeps the
#      card until the program closes), the module reloads
#
# Environment: GAUDI_KO, GAUDI_EN_KO, GAUDI_IB_KO, BIN (gaudi_ib_test,
# gaudi_roce_counters, ip, ethtool; ibv_devices, ibv_devinfo, rdma,
# ibv_rc_pingpong and perftest's tools in PATH), CARDS (at least 2), PORTS
# (ports per card, 10), VERBS_TODO (why step 6 is not expected to pass
# yet: its results are then TODOs, run and shown, counted as skipped;
# empty, the default: they count), VERBS_TODO_RUNS and
# VERBS_TODO_RUNS_WHY (runs of verbs-tools.sh known to fail, and why).
# TAP, then "N passed, N failed".

BIN=${BIN:-$(dirname "$0")}
CARDS=${CARDS:-2}
PORTS=${PORTS:-10}
PATH=$BIN:$PATH
export PATH

# What is known not to pass yet (TODO results, run and shown): ib_read_bw
# at path MTU 1024 between two cards of one VM.  QEMU hands a frame from
# one card to the other inside the sender's own send; the model's engine
# keeps 8 frames that arrive while it sends (GAUDI_ROCE_DEFER) and loses
# the rest, so of a READ's 64 responses all but 8 are lost each time and
# the requester waits out its retransmission timer about eight times per
# READ (Documentation/net/rdma.rst, "Testing"; between two VMs it passes).
: "${VERBS_TODO=}"
: "${VERBS_TODO_RUNS=read_bw-1024}"
: "${VERBS_TODO_RUNS_WHY=READ responses beyond the 8 frames the model defers are lost between two cards of one VM (issue 25)}"
export VERBS_TODO_RUNS VERBS_TODO_RUNS_WHY
export VERBS_TODO

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=verbs-tools.sh
. "$(dirname "$0")/verbs-tools.sh"
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh

# bdf_of I: the PCI address of card I (gaudi-vm puts it behind root port
# 00:(0x10 + I).0).
bdf_of() {
	for d in /sys/bus/pci/drivers/gaudi/0000:*; do
		[ -e "$d" ] || continue
		rp=$(basename "$(dirname "$(readlink -f "$d")")")
		slot=$((0x$(echo "$rp" | cut -d: -f3 | cut -d. -f1)))
		if [ $((slot - 0x10)) -eq "$1" ]; then
			basename "$d"
			return
		fi
	done
}

# ibdev_of I: the RDMA device of card I.
ibdev_of() {
	for d in /sys/class/infiniband/*; do
		[ -e "$d" ] || continue
		[ "$(basename "$(readlink -f "$d/device")")" = "$(bdf_of "$1")" ] &&
			basename "$d" && return
	done
}

# netdev_of I P: gaudi_en's netdev of card I's port P.
netdev_of() {
	for nd in /sys/class/net/*; do
		[ -e "$nd/device" ] || continue
		[ "$(basename "$(dirname "$(readlink -f "$nd/device")")")" = \
			"$(bdf_of "$1")" ] || continue
		[ "$(cat "$nd/dev_port" 2>/dev/null)" = "$2" ] &&
			echo "${nd##*/}" && return
	done
}

# link_state DEV/PORT: "STATE PHYS NETDEV" from rdma link show.
link_state() {
	rdma link show "$1" 2>/dev/null | awk '{
		for (i = 1; i < NF; i++) {
			if ($i == "state") s = $(i + 1)
			if ($i == "physical_state") p = $(i + 1)
			if ($i == "netdev") d = $(i + 1)
		}
		print s, p, d }'
}

# counter DEV PORT NAME: a hardware counter of rdma statistic (sysfs).
counter() { cat "/sys/class/infiniband/$1/ports/$2/hw_counters/$3" 2>/dev/null; }
eth_stat() { ethtool -S "$1" 2>/dev/null | awk -v k="$2:" '$1 == k { print $2 }'; }

# ---- 1: the modules and devices ------------------------------------------
load_gaudi_ib
ok $? "insmod gaudi.ko, gaudi_en.ko, modprobe ib_uverbs, insmod gaudi_ib.ko"
has_dev() { [ -n "$(ibdev_of "$1")" ]; }
has_netdev() { [ -n "$(netdev_of "$1" 0)" ]; }
wait_for 10 has_dev $((CARDS - 1))
wait_for 10 has_netdev $((CARDS - 1))
n_dev=0
bad=
i=0
while [ $i -lt "$CARDS" ]; do
	d=$(ibdev_of $i)
	if [ -n "$d" ]; then
		n_dev=$((n_dev + 1))
		minor=$(ls "/sys/bus/pci/devices/$(bdf_of $i)/accel" 2>/dev/null |
			sed -n 's/^accel\([0-9]*\)$/\1/p')
		[ "$d" = "gaudi_$minor" ] || bad="$bad $d!=gaudi_$minor"
		np=$(ls "/sys/class/infiniband/$d/ports" | wc -l)
		[ "$np" -eq "$PORTS" ] || bad="$bad $d:${np}ports"
		[ "$(cat "/sys/class/infiniband/$d/node_type")" = "1: CA" ] ||
			bad="$bad $d:type"
	fi
	i=$((i + 1))
done
[ "$n_dev" -eq "$CARDS" ] && [ -z "$bad" ]
ok $? "one device per card, gaudi_<accel minor>, $PORTS ports, a CA ($n_dev devices$bad)"
ls /dev/infiniband/uverbs* >/dev/null 2>&1
ok $? "their uverbs nodes"

d0=$(ibdev_of 0)
d1=$(ibdev_of 1)
n0=$(netdev_of 0 0)
n1=$(netdev_of 1 0)
[ -n "$d0" ] && [ -n "$d1" ] && [ -n "$n0" ] && [ -n "$n1" ]
ok $? "card 0: $d0 port 1 on $n0; card 1: $d1 port 1 on $n1"

# ---- 2: ports, netdevs and GIDs -------------------------------------------
ip link set "$n0" up && ip link set "$n1" up &&
	ip addr add 10.25.0.1/24 dev "$n0" && ip addr add 10.25.0.2/24 dev "$n1"
ok $? "both ends up, 10.25.0.1 and 10.25.0.2"
active() { [ "$(link_state "$1")" = "ACTIVE LINK_UP $2" ]; }
wait_for 10 active "$d0/1" "$n0" && wait_for 10 active "$d1/1" "$n1"
ok $? "rdma link show: $d0/1 ACTIVE LINK_UP netdev $n0, $d1/1 on $n1 ($(link_state "$d0/1"); $(link_state "$d1/1"))"
s=$(link_state "$d0/2")
[ "${s%% *}" = DOWN ]
ok $? "an unused port is DOWN ($d0/2: $s)"
g0=0000:0000:0000:0000:0000:ffff:0a19:0001
wait_for 10 gid_index "$d0" 1 $g0
ok $? "$d0/1: 10.25.0.1 is a RoCE v2 GID (index $(gid_index "$d0" 1 $g0))"
ibv_devinfo -v -d "$d0" >/tmp/devinfo 2>&1
st=$?
grep -q "phys_port_cnt:[[:space:]]*$PORTS" /tmp/devinfo &&
	grep -q 'link_layer:[[:space:]]*Ethernet' /tmp/devinfo &&
	grep -q 'state:[[:space:]]*PORT_ACTIVE' /tmp/devinfo &&
	grep -q 'vendor_part_id:[[:space:]]*4096' /tmp/devinfo &&
	grep -q '::ffff:10.25.0.1, RoCE v2' /tmp/devinfo
ok $((st + $?)) "ibv_devinfo -v: $PORTS ports, Ethernet, PORT_ACTIVE, part 4096, GID ::ffff:10.25.0.1 (RoCE v2)"
[ $st -eq 0 ] || sed 's/^/# | /' /tmp/devinfo | head -20
ibv_devices >/tmp/devices 2>&1
bad=
i=0
while [ $i -lt "$CARDS" ]; do
	d=$(ibdev_of $i)
	guid=$(tr -d ':' <"/sys/class/infiniband/$d/node_guid" 2>/dev/null)
	{ [ -n "$d" ] && [ -n "$guid" ] &&
		grep -q "^[[:space:]]*$d[[:space:]]*$guid" /tmp/devices; } ||
		bad="$bad card$i"
	i=$((i + 1))
done
[ -z "$bad" ]
ok $? "ibv_devices: every card's device with its node GUID${bad:+ (missing:$bad)}"

# ---- 3: the link follows the netdev ---------------------------------------
ip link set "$n0" down
down() { [ "$(link_state "$1" | cut -d' ' -f1)" = DOWN ]; }
wait_for 10 down "$d0/1" && wait_for 10 down "$d1/1"
ok $? "$n0 down: $d0/1 and its peer $d1/1 DOWN ($(link_state "$d0/1"); $(link_state "$d1/1"))"
ip link set "$n0" up
wait_for 10 active "$d0/1" "$n0" && wait_for 10 active "$d1/1" "$n1"
ok $? "up again: both ACTIVE"
wait_for 10 gid_index "$d0" 1 $g0
ok $? "the address GID is there again"

# ---- 4: verbs --------------------------------------------------------------
tap_sub_each verbs "$BIN/gaudi_ib_test" "$CARDS" "$PORTS"
# ---- 4b, 6: the verbs between the two cards --------------------------------
# Both ends in one host: ib_core resolves a peer's MAC by the route from
# the source GID's netdev, which for an address of the same host is no
# route over the cable; card 1's netdev goes to a network namespace of its
# own meanwhile (a process's, as the nic suite does), as on a second host.
unshare -n sleep 100000 &
nspid=$!
sleep 0.5
ip link set "$n1" netns "$nspid" &&
	nsenter -t "$nspid" -n ip link set "$n1" up &&
	nsenter -t "$nspid" -n ip addr add 10.25.0.2/24 dev "$n1"
ok $? "$n1 in a namespace of its own with 10.25.0.2"
wait_for 10 active "$d1/1" "$n1"
wait_for 10 gid_index "$d1" 1 0000:0000:0000:0000:0000:ffff:0a19:0002
ok $? "$d1/1: 10.25.0.2 is still its RoCE v2 GID"
# 4b: the kernel's verbs: bad arguments, RDMA WRITE, isolation classes.
dmesg -c >/dev/null 2>&1
tap_sub_each kverbs "$BIN/gaudi_ib_kverbs_test" "$d0" "$d1"
! dmesg | grep -Eq 'WARNING|BUG|Oops|gaudi.*(error|fault)'
ok $? "no kernel warning from the kernel verbs test"
g1=0000:0000:0000:0000:0000:ffff:0a19:0002
g3=0000:0000:0000:0000:0000:ffff:0a19:0003
x0=$(gid_index "$d0" 1 $g0)
x1=$(gid_index "$d1" 1 $g1)
# The programs' own TCP exchange goes over the loopback interface.
ip link set lo up
# A second address of card 0's port: the foreign source of gaudi_verbs_test.
ip addr add 10.25.0.3/24 dev "$n0" && wait_for 10 gid_index "$d0" 1 $g3
ok $? "$n0 also 10.25.0.3, RoCE v2 GID $(gid_index "$d0" 1 $g3)"
x3=$(gid_index "$d0" 1 $g3)
for mtu in 1024 4096; do
	tap_sub "verbs-$mtu" "$BIN/gaudi_verbs_test" \
		"$d0" "$d1" "$x0" "$x1" "${x3:-0}" $mtu
done
# The kernel data path, as a provider without the staging rings posts.
tap_sub "verbs-kernel-post" env GAUDI_VERBS_KERNEL_POST=1 \
	"$BIN/gaudi_verbs_test" "$d0" "$d1" "$x0" "$x1" "${x3:-0}" 1024
# The counters of the verbs operations before the programs (25..28).
for c in rnr_naks_tx recv_wqes reads_served cq_events_lost rnr_naks_rx rnr_retries; do
	echo "0:$c $(counter "$d0" 1 $c)"
	echo "1:$c $(counter "$d1" 1 $c)"
done >/tmp/vcnt.before
rm -f /tmp/vcnt.after
while read -r name needs tool tcp args; do
	# shellcheck disable=SC2086 # option words
	vt_server "/tmp/vt-$name.s" "$d0" 1 "$x0" "$tool" "$tcp" $args &
	srv=$!
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086 # option words
	vt_client "/tmp/vt-$name.c" 127.0.0.1 "$d1" 1 "$x1" "$tool" "$tcp" $args
	cst=$?
	wait $srv
	sst=$?
	secs=$(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $t0 }")
	fig=$(vt_figure "$name" "/tmp/vt-$name.c")
	vt_todo_or_ok "$(vt_todo_reason "$VERBS_TODO" "$needs" "$name")" $((cst + sst)) \
		"$name: $tool between $d0/1 (server) and $d1/1 (client) completes (server $sst, client $cst, $secs s${fig:+, $fig})"
	[ $((cst + sst)) -eq 0 ] || { vt_show "/tmp/vt-$name.s" 12; vt_show "/tmp/vt-$name.c" 12; }
done <<EOF
$(vt_runs)
EOF
# The verbs operations' counters (25..28): an RNR NAK first, from a SEND
# that finds card 0's one receive WR taken (ib_send_bw -r 1).
vt_server /tmp/vt-rnr.s "$d0" 1 "$x0" ib_send_bw 18620 -m 4096 -s 4096 -n 20 -r 1 -F &
srv=$!
vt_client /tmp/vt-rnr.c 127.0.0.1 "$d1" 1 "$x1" ib_send_bw 18620 -m 4096 -s 4096 -n 20 -r 1 -F
cst=$?
wait $srv
ok $((cst + $?)) "ib_send_bw -r 1 (one receive WR posted at a time) completes"
[ $cst -eq 0 ] || { vt_show /tmp/vt-rnr.s 12; vt_show /tmp/vt-rnr.c 12; }
vcnt_ok=
vcnt_msg=
for c in rnr_naks_tx recv_wqes reads_served cq_events_lost rnr_naks_rx rnr_retries; do
	for e in "0 $d0 $n0" "1 $d1 $n1"; do
		# shellcheck disable=SC2086 # card, device, netdev
		set -- $e
		now=$(counter "$2" 1 $c)
		was=$(awk -v k="$1:$c" '$1 == k { print $2 }' /tmp/vcnt.before)
		eth=$(if [ "$1" = 0 ]; then eth_stat "$3" "roce_$c"; else
			nsenter -t "$nspid" -n ethtool -S "$3" 2>/dev/null |
				awk -v k="roce_$c:" '$1 == k { print $2 }'; fi)
		stat=$(rdma statistic show link "$2/1" 2>/dev/null | tr ' ' '\n' |
			awk -v k="$c" 'p { print; exit } $1 == k { p = 1 }')
		echo "$1:$c $now $was $eth $stat" >>/tmp/vcnt.after
		vcnt_msg="$vcnt_msg ${c}[$1] ${was:-?}->${now:-?}"
		# ethtool -S has the four of the verbs operations (25..28).
		case $c in rnr_naks_rx | rnr_retries) eth=$now ;; esac
		[ -n "$now" ] && [ "$now" = "$stat" ] && [ "$now" = "$eth" ] ||
			vcnt_ok="$vcnt_ok ${c}[$1]:sysfs=$now,rdma=$stat,ethtool=$eth"
	done
done
[ -z "$vcnt_ok" ]
ok $? "counters 25..28: rdma statistic, sysfs and ethtool -S agree${vcnt_ok:+ (not:$vcnt_ok)}"
moved() { awk -v k="$1" -v m="$2" '$1 == k { exit !($2 - $3 >= m) }' /tmp/vcnt.after; }
moved 0:recv_wqes 20 && moved 1:recv_wqes 20
ok $? "recv_wqes moved on both ends (ping-pong, SEND)"
moved 0:reads_served 200
ok $? "reads_served moved on card 0 by at least ib_read_bw's 200 READs"
moved 0:rnr_naks_tx 1 && moved 1:rnr_naks_rx 1 && moved 1:rnr_retries 1
ok $? "rnr_naks_tx moved on card 0, rnr_naks_rx and rnr_retries on card 1 (ib_send_bw -r 1)"
same() { awk -v k="$1" '$1 == k { exit !($2 != "" && $2 == $3) }' /tmp/vcnt.after; }
same 0:cq_events_lost && same 1:cq_events_lost
ok $? "cq_events_lost shown on both ends, unchanged: no CQ event lost"
diag "verbs counters:$vcnt_msg"
problems=$(dmesg | kernel_problems | head -3)
[ -z "$problems" ]
ok $? "dmesg: no kernel problem after the verbs programs${problems:+: $problems}"

nsenter -t "$nspid" -n ip link set "$n1" netns 1 && ip link set "$n1" up &&
	ip addr add 10.25.0.2/24 dev "$n1"
ok $? "$n1 back with 10.25.0.2"
kill "$nspid"
wait_for 10 active "$d1/1" "$n1"

# ---- 5: rdma statistic -----------------------------------------------------
rdma statistic show link "$d0/1" >/tmp/stat 2>&1
grep -q 'tx_pkts' /tmp/stat && grep -q 'req_qp_errors' /tmp/stat
ok $? "rdma statistic show link $d0/1: the port's RoCE counters"
t0=$(counter "$d0" 1 tx_pkts)
r1=$(counter "$d1" 1 rx_pkts)
e0=$(eth_stat "$n0" roce_tx_pkts)
f1=$(eth_stat "$n1" roce_rx_pkts)
tap_sub_each traffic "$BIN/gaudi_roce_counters" traffic
dt=$(($(counter "$d0" 1 tx_pkts) - t0))
dr=$(($(counter "$d1" 1 rx_pkts) - r1))
de=$(($(eth_stat "$n0" roce_tx_pkts) - e0))
df=$(($(eth_stat "$n1" roce_rx_pkts) - f1))
[ "$dt" -gt 0 ] && [ "$dt" -eq "$de" ] && [ "$dr" -gt 0 ] && [ "$dr" -eq "$df" ]
ok $? "the counters moved: $d0/1 tx_pkts +$dt (ethtool +$de), $d1/1 rx_pkts +$dr (ethtool +$df)"
rdma statistic show link "$d0/1" | grep -q "tx_pkts $(counter "$d0" 1 tx_pkts)"
ok $? "rdma statistic shows the same value"

# ---- 7: unload with a context open ----------------------------------------
bdf0=$(bdf_of 0)
rm -f /tmp/hold.in
mkfifo /tmp/hold.in
"$BIN/gaudi_ib_test" hold "$d0" </tmp/hold.in >/tmp/hold.out 2>&1 &
hold_pid=$!
exec 9>/tmp/hold.in
wait_for 10 grep -q held /tmp/hold.out
[ "$(cat "/sys/bus/pci/devices/$bdf0/owner/pid")" = "$hold_pid" ]
ok $? "a verbs context holds card 0 (owner pid $(cat "/sys/bus/pci/devices/$bdf0/owner/pid"))"
rmmod gaudi_ib
ok $? "rmmod gaudi_ib with the context open"
[ "$(cat "/sys/bus/pci/devices/$bdf0/owner/pid")" = "$hold_pid" ]
ok $? "the context is cut off; the compute node the provider opened still holds card 0"
exec 9>&-
wait $hold_pid
ok $? "the program closes its cut-off context cleanly ($(tr '\n' ' ' </tmp/hold.out))"
[ "$(cat "/sys/bus/pci/devices/$bdf0/owner/pid")" = 0 ]
ok $? "then card 0 is free"
insmod "$GAUDI_IB_KO" && wait_for 10 has_dev 0 && [ "$(ibdev_of 0)" = "$d0" ]
ok $? "gaudi_ib.ko loads again: $(ibdev_of 0)"
rmmod gaudi_ib && rmmod gaudi_en && rmmod gaudi
ok $? "rmmod gaudi_ib, gaudi_en, gaudi"

tap_done
