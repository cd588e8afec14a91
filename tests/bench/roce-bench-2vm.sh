#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench`, RoCE between two VMs (issue 24): VM a (gaudi-vm
# --nic-external listen:127.0.0.1:PORT) and VM b (connect), one card each,
# card 0's port 7 of a cabled to card 0's port 7 of b through a socket on
# the loopback (as tests/guest/nic/two-hosts.sh).  Over that cable (the QP
# addresses over TCP on the port's netdev): gaudi_roce_bench --connect on
# a writes to b (--listen), 4 KiB..64 MiB, the table of gaudi_roce_bench;
# then gaudi_allreduce of the two hosts, AR_SIZE bytes (default 16 MiB),
# AR_ITERS iterations (default 3): each host WRITEs AR_SIZE bytes to the
# other, both directions at once, and adds (the figure: AR_SIZE over the
# time of one iteration, MB/s each way, the adding included).  A
# benchmark: it fails only when a VM or a program fails.  Output:
# build/bench/roce-2vm-{a,b}.txt.
#
# Environment: GAUDI_QEMU (default build/qemu-path), AR_SIZE, AR_ITERS,
# PORT (default from the process id).
set -eu

if [ "${1:-}" = --guest ]; then
	B=/bench
	deps=$(modinfo -F depends "$B/gaudi.ko" | tr ',' ' ')
	# shellcheck disable=SC2086
	modprobe -a $deps && insmod "$B/gaudi.ko" && insmod "$B/gaudi_en.ko"
	dev=
	t=0
	while [ -z "$dev" ] && [ $t -lt 150 ]; do
		for nf in /sys/class/net/*; do
			[ "$(cat "$nf/dev_port" 2>/dev/null)" = 7 ] &&
				[ -e "$nf/device/driver" ] && dev=${nf##*/}
		done
		[ -n "$dev" ] || sleep 0.2
		t=$((t + 1))
	done
	[ -n "$dev" ] || { echo "roce-bench-2vm: no port 7 netdev"; exit 1; }
	if [ "$ROLE" = a ]; then
		me=10.77.7.1 peer=10.77.7.2
	else
		me=10.77.7.2 peer=10.77.7.1
	fi
	ip addr add "$me/24" dev "$dev" && ip link set dev "$dev" up
	t=0
	until ping -c 1 -W 2 "$peer" >/dev/null 2>&1 || [ $t -ge 90 ]; do
		t=$((t + 1))
	done
	st=0
	if [ "$ROLE" = b ]; then
		"$B/gaudi_roce_bench" --listen 7001 || st=$?
		"$B/gaudi_allreduce" --listen 7000 --size "$AR_SIZE" \
			--iters "$AR_ITERS" || st=$?
	else
		sleep 2	# b listens
		echo "@rdma"
		"$B/gaudi_roce_bench" --connect "$peer:7001" || st=$?
		echo "@allreduce"
		sleep 2
		"$B/gaudi_allreduce" --connect "$peer:7000" --size "$AR_SIZE" \
			--iters "$AR_ITERS" || st=$?
	fi
	echo "@done $st"
	exit 0
fi

repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/build/bench
AR_SIZE=${AR_SIZE:-16777216}
AR_ITERS=${AR_ITERS:-3}
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null) || true
export GAUDI_QEMU
[ -n "${GAUDI_QEMU:-}" ] || { echo "roce-bench-2vm: GAUDI_QEMU is not set" >&2; exit 2; }
mkdir -p "$out"
cc=${CC:-gcc}
make -s -C "$repo/userspace" all examples >&2
$cc -O2 -Wall -Wextra -Werror -I "$repo/userspace/include" \
	-o "$out/gaudi_roce_bench" "$repo/tests/bench/gaudi_roce_bench.c" \
	-L "$repo/build/userspace" -lgaudi -Wl,-rpath,"$repo/build/userspace"
ko=${GAUDI_KO:-$repo/kernel/gaudi.ko}
en_ko=$(dirname "$ko")/en/gaudi_en.ko
if [ ! -f "$ko" ] || [ ! -f "$en_ko" ]; then
	echo "roce-bench-2vm: no $ko or $en_ko (make kernel)" >&2
	exit 2
fi
port=${PORT:-$((20000 + $$ % 20000))}
while ss -Htan | awk '{ print $4 }' | grep -Eq ":($port|$((port + 1))|$((port + 2)))$"; do
	port=$((port + 3))
done
vm() {	# vm ROLE HOW
	"$repo/tools/vm/gaudi-vm" --driver none --cards 1 \
		--timeout "${TIMEOUT:-900}" --nic-external "$2:127.0.0.1:$port" \
		--add "$repo/build/userspace/examples/gaudi_allreduce:/bench/gaudi_allreduce" \
		--add "$out/gaudi_roce_bench:/bench/gaudi_roce_bench" \
		--add "$ko:/bench/gaudi.ko" --add "$en_ko:/bench/gaudi_en.ko" \
		--add "$(command -v ip):/bench/ip" \
		--add "$repo/tests/bench/roce-bench-2vm.sh:/bench/roce-bench-2vm.sh" \
		--cmd "PATH=/bench:\$PATH ROLE=$1 AR_SIZE=$AR_SIZE AR_ITERS=$AR_ITERS sh /bench/roce-bench-2vm.sh --guest" \
		>"$out/roce-2vm-$1.txt" 2>&1
}
vm a listen &
pid_a=$!
t=0
until ss -Hltn | awk '{ print $4 }' | grep -q ":$port$" || [ $t -ge 100 ]; do
	sleep 0.2
	t=$((t + 1))
done
vm b connect &
pid_b=$!
st=0
wait $pid_a || st=$?
wait $pid_b || st=$?
for r in a b; do
	if ! grep -q '^@done 0' "$out/roce-2vm-$r.txt"; then
		tail -n 30 "$out/roce-2vm-$r.txt" >&2
		echo "roce-bench-2vm: VM $r failed (status $st)" >&2
		exit 1
	fi
done
echo "RDMA WRITE, VM a card 0 -> VM b card 0 over a loopback socket (median of each size):"
sed -n '/^@rdma/,/^@allreduce/p' "$out/roce-2vm-a.txt" | grep -v '^@'
grep '^gaudi_roce_bench: ' "$out/roce-2vm-b.txt" || true
ms=$(sed -n 's/^allreduce: OK 2 hosts, rank 1, .* \([0-9.]*\) ms each$/\1/p' "$out/roce-2vm-a.txt")
echo "RDMA between two VMs (all-reduce of 2 hosts over a loopback socket, $AR_SIZE bytes): $ms ms each, $(awk -v s="$AR_SIZE" -v m="$ms" 'BEGIN { printf "%.1f", (m > 0 ? s / m / 1000 : 0) }') MB/s each way"
