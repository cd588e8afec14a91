#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One side of the two-host NIC test (tests/guest/nic/two-hosts.sh): card
# 0's scale-out port 7 of this VM is cabled, over a loopback socket, to
# card 0's port 7 of the other VM.
#
#   ROLE=a  10.77.7.1: pings b, runs the RoCE all-reduce with b (issue
#           13: gaudi_allreduce --connect, the QP addresses over TCP on the
#           same link, the data by RDMA WRITE; then 40 RDMA WRITEs of random
#           size and offsets each way, byte-checked), fetches b's file over TCP
#           (HTTP), checks it byte for byte, then tells b it is done
#   ROLE=b  10.77.7.2: serves the file and the all-reduce (--listen),
#           pings a, waits for a's "done"
#
# Environment: ROLE, GAUDI_KO, GAUDI_EN_KO, BIN (ip, ethtool).  Prints TAP
# and "N passed, N failed".

ROLE=${ROLE:?}
BIN=${BIN:-/suite/bin}
PATH=$BIN:$PATH

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh

deps=$(modinfo -F depends "$GAUDI_KO" 2>/dev/null | tr ',' ' ')
# shellcheck disable=SC2086 # a list of module names
{ [ -z "$deps" ] || modprobe -a $deps; } && insmod "$GAUDI_KO" &&
	insmod "$GAUDI_EN_KO"
ok $? "insmod gaudi.ko gaudi_en.ko"

dev=
t=0
while [ -z "$dev" ] && [ $t -lt 100 ]; do
	for nf in /sys/class/net/*; do
		[ "$(cat "$nf/dev_port" 2>/dev/null)" = 7 ] &&
			[ -e "$nf/device/driver" ] && dev=${nf##*/}
	done
	[ -n "$dev" ] || sleep 0.2
	t=$((t + 1))
done
[ -n "$dev" ]
ok $? "card 0 port 7 is ${dev:-missing}"

if [ "$ROLE" = a ]; then
	me=10.77.7.1 peer=10.77.7.2
else
	me=10.77.7.2 peer=10.77.7.1
fi
ip addr add "$me/24" dev "$dev" && ip link set dev "$dev" up
ok $? "$dev up as $me"
t=0
until ip -o link show dev "$dev" | grep -q "[<,]LOWER_UP[,>]" || [ $t -ge 40 ]; do
	sleep 0.25
	t=$((t + 1))
done
ip -o link show dev "$dev" | grep -q "[<,]LOWER_UP[,>]"
ok $? "$dev has carrier"

# The file: the same bytes on both sides, so a can check what it got.
mkdir -p /tmp/www
seq 1 700000 >/tmp/www/blob
sum=$(md5sum </tmp/www/blob | cut -d' ' -f1)
size=$(wc -c </tmp/www/blob)

# ping the other host; it boots a few seconds later or earlier
t=0
until ping -c 1 -W 2 "$peer" >/dev/null 2>&1 || [ $t -ge 60 ]; do
	t=$((t + 1))
done
ping -c 3 -W 5 "$peer" >/dev/null 2>&1
ok $? "ping $peer over the scale-out cable"

# The all-reduce of two hosts over RoCE on the same cable; each side
# checks the sum byte for byte.
if [ -x "$BIN/gaudi_allreduce" ]; then
	if [ "$ROLE" = b ]; then
		"$BIN/gaudi_allreduce" --listen 7000 --size 1048576 --iters 2 \
			--random-writes 40 >/tmp/allreduce.out 2>&1 &
		ar_pid=$!
	else
		"$BIN/gaudi_allreduce" --connect "$peer:7000" --size 1048576 \
			--iters 2 --random-writes 40 >/tmp/allreduce.out 2>&1
		grep -q "^allreduce: OK 2 hosts, rank 1" /tmp/allreduce.out
		ok $? "RoCE all-reduce with host b: $(grep allreduce: /tmp/allreduce.out | tail -n 1)"
		grep -q "^random writes: OK 40 writes each way" /tmp/allreduce.out
		ok $? "random-size writes with host b: $(grep "^random writes" /tmp/allreduce.out)"
	fi
fi

if [ "$ROLE" = b ]; then
	httpd -p "$me:8080" -h /tmp/www
	timeout 180 nc -l -p 9999 >/tmp/done
	grep -q "done" /tmp/done
	ok $? "host a says it is done"
	if [ -n "${ar_pid:-}" ]; then
		wait "$ar_pid"
		grep -q "^allreduce: OK 2 hosts, rank 0" /tmp/allreduce.out
		ok $? "RoCE all-reduce with host a: $(grep allreduce: /tmp/allreduce.out | tail -n 1)"
		grep -q "^random writes: OK 40 writes each way" /tmp/allreduce.out
		ok $? "random-size writes with host a: $(grep "^random writes" /tmp/allreduce.out)"
	fi
else
	up() { cut -d' ' -f1 /proc/uptime | tr -d .; }
	got=
	t=0
	while [ -z "$got" ] && [ $t -lt 20 ]; do
		t0=$(up)
		got=$(timeout 30 wget -q -O - "http://$peer:8080/blob" 2>/dev/null |
			md5sum | cut -d' ' -f1)
		el=$(($(up) - t0))
		[ "$got" = "$sum" ] || { got=; sleep 1; }
		t=$((t + 1))
	done
	[ "$got" = "$sum" ]
	ok $? "$size bytes over TCP from host b, intact" \
		"($((size * 100 / 1024 / (el > 0 ? el : 1))) KiB/s)"
	echo "done" | nc "$peer" 9999
	ok $? "told host b it is done"
fi
problems=$(dmesg | kernel_problems | head -3)
[ -z "$problems" ]
ok $? "dmesg: no kernel problem${problems:+: $problems}"
tap_done
