# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Sourced by the roce suite (issue 13, libgaudi's NIC API): the example
# userspace/examples/gaudi_allreduce.c over every card of the VM, a ring over
# the DL1 links, checked byte for byte by the program, then the same
# all-reduce staged through host memory, then with each card ringing its
# own doorbells from CBs on its NIC queues (--nic-queue); the ratio of the
# first two is a diagnostic (the bench reports it), not a test.  Needs
# gaudi.ko and gaudi_en.ko loaded, no holder, $BIN/gaudi_allreduce.

allreduce_test() {
	ncards=$(find /dev/accel -name 'accel[0-9]*' | wc -l)
	# The ports' MAC addresses come from gaudi_en's interfaces; up, so
	# that no lane is in low power.
	for i in /sys/class/net/*; do
		[ -e "$i/device" ] && ip link set "${i##*/}" up
	done
	sz=$((ncards * 65536))
	out=$("$BIN/gaudi_allreduce" --size "$sz" --iters 2 2>&1)
	st=$?
	[ $st -eq 0 ] && echo "$out" | grep -q "^allreduce: OK $ncards cards"
	ok $? "gaudi_allreduce over $ncards cards, $sz bytes each, twice: $(echo "$out" | tail -n 1)"
	rdma_ms=$(echo "$out" | sed -n 's/.*, \([0-9.]*\) ms each$/\1/p')
	out=$("$BIN/gaudi_allreduce" --size "$sz" --iters 2 --staged 2>&1)
	st=$?
	[ $st -eq 0 ] && echo "$out" | grep -q "^allreduce: OK $ncards cards"
	ok $? "the same staged through host memory: $(echo "$out" | tail -n 1)"
	staged_ms=$(echo "$out" | sed -n 's/.*, \([0-9.]*\) ms each$/\1/p')
	# The cards ring their own doorbells: CBs on the NIC queues.
	out=$("$BIN/gaudi_allreduce" --size "$sz" --iters 2 --nic-queue 2>&1)
	st=$?
	[ $st -eq 0 ] && echo "$out" | grep -q "^allreduce: OK $ncards cards, .*doorbells from the NIC queues"
	ok $? "the same with the doorbells rung from the NIC queues: $(echo "$out" | tail -n 1)"
	diag "all-reduce: RDMA $rdma_ms ms, staged $staged_ms ms (ratio $(awk -v a="$rdma_ms" -v b="$staged_ms" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'))"
	"$BIN/gaudi_allreduce" --size 1000 >/dev/null 2>&1
	[ $? -eq 1 ]
	ok $? "gaudi_allreduce --size 1000 (not a multiple of 4 KiB): exit 1"
}
