#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The Soft-RoCE VM of the roce-interop suite (tests/guest/roce-interop/
# run.sh; Documentation/net/interop.rst), booted with gaudi-vm --cards 0
# --verbs --eth connect:...:P --eth connect:...:Q: eth0 is cabled to the
# Gaudi VM's card 0 port 7, eth1 is the control link to the Gaudi VM's
# eth0.
#
#   eth0  ROCE_IP/24 and FOREIGN_IP/24 (the "bad source" QPs'), MTU 4500
#         (rxe's active MTU 4096), no IPv6 (the cable carries RoCE only)
#   eth1  CTL_IP/24
#   rxe0  rdma_rxe on eth0 (rdma link add)
#
# then verbs_peer serves the conductor in the Gaudi VM and its log is shown
# as comments.  Environment: BIN (verbs_peer), ROCE_IP, FOREIGN_IP, CTL_IP;
# ETH_MACS from gaudi-vm.  Prints TAP and "N passed, N failed".

BIN=${BIN:-/suite/bin}
ROCE_IP=${ROCE_IP:-10.88.0.2}
FOREIGN_IP=${FOREIGN_IP:-10.88.0.3}
CTL_IP=${CTL_IP:-10.99.0.2}
PATH=$BIN:$PATH

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh

# shellcheck disable=SC2086 # the list of MACs
set -- $ETH_MACS
[ $# -ge 2 ] && [ -e /sys/class/net/eth0 ] && [ -e /sys/class/net/eth1 ]
ok $? "eth0 ($1, the cable) and eth1 (${2:-?}, the control link)"

for i in default eth0; do
	echo 1 >/proc/sys/net/ipv6/conf/$i/disable_ipv6
done
ip link set dev eth0 mtu 4500 &&
	ip addr add "$ROCE_IP/24" dev eth0 &&
	ip addr add "$FOREIGN_IP/24" dev eth0 &&
	ip link set dev eth0 up &&
	ip addr add "$CTL_IP/24" dev eth1 &&
	ip link set dev eth1 up
ok $? "eth0 up as $ROCE_IP and $FOREIGN_IP (MTU 4500), eth1 as $CTL_IP"

rdma link add rxe0 type rxe netdev eth0
ok $? "rdma link add rxe0 type rxe netdev eth0"
t=0
until ibv_devinfo -d rxe0 2>/dev/null | grep -q "PORT_ACTIVE" || [ $t -ge 100 ]; do
	sleep 0.2
	t=$((t + 1))
done
info=$(ibv_devinfo -d rxe0 2>&1)
echo "$info" | grep -q "PORT_ACTIVE" &&
	echo "$info" | grep -q "active_mtu:.*4096"
ok $? "ibv_devinfo: rxe0's port active, active MTU 4096"

t0=$(cut -d' ' -f1 /proc/uptime)
verbs_peer rxe0 eth0 "$ROCE_IP" "$FOREIGN_IP" >/tmp/verbs_peer.log 2>&1
st=$?
ok $st "verbs_peer served the conductor to its end (status $st," \
	"$(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $t0 }") s)"
sed 's/^/# /' /tmp/verbs_peer.log
rdma statistic show link rxe0/1 2>&1 | sed 's/^/# /'

problems=$(dmesg | kernel_problems | head -3)
[ -z "$problems" ]
ok $? "dmesg: no kernel problem${problems:+: $problems}"
tap_done
