#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One VM of the rdma-interop suite (tests/guest/rdma-interop/run.sh): one
# RDMA end, a Gaudi card's scale-out port or Soft-RoCE on a virtio NIC,
# serving (SIDE=server) or running (SIDE=client) rdma-core's and
# perftest's programs, unmodified, against the other VM
# (tests/guest/rdma/verbs-tools.sh has the list).
#
#   KIND=gaudi  gaudi.ko, gaudi_en.ko, ib_uverbs, gaudi_ib.ko; card 0's
#               port 7 (ib port 8, cabled by gaudi-vm --nic-external) up
#               as ROCE_IP; eth0 the control link
#   KIND=rxe    eth0 (the cable) as ROCE_IP, MTU 4500 (rxe's active MTU
#               4096), rdma_rxe on it; eth1 the control link
#
# The client connects to the server over the control link (PEER_CTL_IP)
# and prints each run's figure as "# figure NAME VALUE".  Environment:
# KIND, SIDE, ROCE_IP, CTL_IP, PEER_CTL_IP, TODO (the reason the runs are
# not expected to pass yet: TODO results then), GAUDI_KO, GAUDI_EN_KO,
# GAUDI_IB_KO, BIN.  TAP and "N passed, N failed".

BIN=${BIN:-/suite/bin}
PATH=$BIN:$PATH
export PATH
TODO=${TODO:-}

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../rdma/verbs-tools.sh
. "${VT_SH:-$(dirname "$0")/../rdma/verbs-tools.sh}"
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh

port_active() { ibv_devinfo -d "$1" -i "$2" 2>/dev/null | grep -q PORT_ACTIVE; }

for i in default all; do
	echo 1 >"/proc/sys/net/ipv6/conf/$i/disable_ipv6" 2>/dev/null
done
case $KIND in
gaudi)
	load_gaudi_ib
	ok $? "insmod gaudi.ko, gaudi_en.ko, modprobe ib_uverbs, insmod gaudi_ib.ko"
	netdev() {
		for nd in /sys/class/net/*; do
			[ "$(cat "$nd/dev_port" 2>/dev/null)" = 7 ] &&
				[ -e "$nd/device/driver" ] &&
				[ "$(basename "$(readlink -f "$nd/device/driver")")" != virtio_net ] &&
				echo "${nd##*/}" && return 0
		done
		return 1
	}
	ibdev() { for d in /sys/class/infiniband/gaudi_*; do [ -e "$d" ] && echo "${d##*/}" && return 0; done; return 1; }
	wait_for 20 netdev && wait_for 20 ibdev
	cable=$(netdev)
	dev=$(ibdev)
	port=8
	ctl=eth0
	ip link set "$cable" up && ip addr add "$ROCE_IP/24" dev "$cable"
	ok $? "card 0 port 7 ($cable, $dev/$port) up as $ROCE_IP"
	;;
rxe)
	cable=eth0
	ctl=eth1
	dev=rxe0
	port=1
	echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6
	ip link set dev eth0 mtu 4500 && ip addr add "$ROCE_IP/24" dev eth0 &&
		ip link set dev eth0 up && rdma link add rxe0 type rxe netdev eth0
	ok $? "eth0 up as $ROCE_IP (MTU 4500), rdma link add rxe0 type rxe netdev eth0"
	;;
*)
	ok 1 "KIND=$KIND: gaudi or rxe"
	tap_done
	exit 1
	;;
esac
ip addr add "$CTL_IP/24" dev "$ctl" && ip link set dev "$ctl" up
ok $? "$ctl (the control link) up as $CTL_IP"
wait_for 30 port_active "$dev" "$port"
ok $? "$dev port $port ACTIVE"
wait_for 10 gid_index "$dev" "$port" "$(ipv4_gid "$ROCE_IP")"
gid=$(gid_index "$dev" "$port" "$(ipv4_gid "$ROCE_IP")")
ok $? "$ROCE_IP is RoCE v2 GID $gid of $dev/$port"
diag "$(ibv_devinfo -d "$dev" -i "$port" | grep -E 'state|active_mtu' | tr -s ' \t' ' ' | tr '\n' ';')"

while read -r name needs tool tcp args; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	if [ "$SIDE" = server ]; then
		# shellcheck disable=SC2086 # option words
		vt_server "/tmp/$name.log" "$dev" "$port" "$gid" "$tool" "$tcp" $args
	else
		# shellcheck disable=SC2086 # option words
		vt_client "/tmp/$name.log" "$PEER_CTL_IP" "$dev" "$port" "$gid" \
			"$tool" "$tcp" $args
	fi
	st=$?
	secs=$(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $t0 }")
	fig=$(vt_figure "$name" "/tmp/$name.log")
	vt_todo_or_ok "$(vt_todo_reason "$TODO" "$needs" "$name")" $st "$name: the $SIDE end of $tool on $dev/$port completes (status $st, $secs s${fig:+, $fig})"
	[ $st -eq 0 ] || vt_show "/tmp/$name.log" 12
	# A server that failed early: its client may wait out VT_TIMEOUT
	# before it tries the next run; a server listening since now would
	# time out just as that client comes, and so on down the list.
	[ "$SIDE" = server ] && [ $st -ne 0 ] && sleep "$VT_TIMEOUT"
	[ "$SIDE" = client ] && [ $st -eq 0 ] && [ -n "$fig" ] &&
		diag "figure $name $fig"
done <<EOF
$(vt_runs)
EOF

problems=$(dmesg | kernel_problems | head -3)
[ -z "$problems" ]
ok $? "dmesg: no kernel problem${problems:+: $problems}"
tap_done
