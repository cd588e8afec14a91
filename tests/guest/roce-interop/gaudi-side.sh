#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The Gaudi VM of the roce-interop suite (tests/guest/roce-interop/run.sh;
# Documentation/net/interop.rst), booted with gaudi-vm --cards 1
# --nic-external listen:...:P --eth listen:...:Q: card 0's port 7 is
# cabled to the Soft-RoCE VM's eth0, eth0 here is the control link.
# gaudi.ko only (libgaudi's NIC API needs no gaudi_en: no netdev on the
# port, so the cable carries RoCE only).  gaudi_interop runs the suite
# against verbs_peer at PEER_CTL_IP, the card's end putting GAUDI_IP in
# its frames.
#
# Environment: GAUDI_KO, BIN (gaudi_interop), GAUDI_IP, CTL_IP,
# PEER_CTL_IP, INTEROP_TODO (passed on); ETH_MACS from gaudi-vm.  Prints
# TAP and "N passed, N failed[, N skipped]".

GAUDI_KO=${GAUDI_KO:?}
BIN=${BIN:-/suite/bin}
GAUDI_IP=${GAUDI_IP:-10.88.0.1}
CTL_IP=${CTL_IP:-10.99.0.1}
PEER_CTL_IP=${PEER_CTL_IP:-10.99.0.2}
PATH=$BIN:$PATH

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh

deps=$(modinfo -F depends "$GAUDI_KO" 2>/dev/null | tr ',' ' ')
# shellcheck disable=SC2086 # a list of module names
{ [ -z "$deps" ] || modprobe -a $deps; } && insmod "$GAUDI_KO"
ok $? "insmod gaudi.ko"
t=0
until [ -e /dev/accel/accel0 ] || [ $t -ge 100 ]; do
	sleep 0.2
	t=$((t + 1))
done

# shellcheck disable=SC2086 # the list of MACs
set -- $ETH_MACS
echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6
ip addr add "$CTL_IP/24" dev eth0 && ip link set dev eth0 up
ok $? "eth0 (${1:-?}, the control link) up as $CTL_IP"

tap_sub interop "$BIN/gaudi_interop" "$PEER_CTL_IP" 7 "$GAUDI_IP"

problems=$(dmesg | kernel_problems | head -3)
[ -z "$problems" ]
ok $? "dmesg: no kernel problem${problems:+: $problems}"
tap_done
