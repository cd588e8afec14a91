#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench`, RoCE part (issue 13): one gaudi-vm guest with 8 cards wired
# as a DL1 host (--nic dl1), gaudi.ko and gaudi_en.ko.  Inside it:
#   - gaudi_roce_bench: RDMA WRITE card 0 -> card 1 over their link, 4 KiB
#     to 64 MiB, median time, bandwidth, and the ratio to memcpy;
#   - gaudi_allreduce over the 8 cards (RDMA WRITE ring) and the same
#     all-reduce staged through host memory, and their ratio.
# Before the VM: tests/bench/roce_model_bench.c, the RoCE engine alone on
# the host (MB/s of RDMA WRITE between two cards, an idle tick's cost).
# Ratios within one run, never absolute times across runs.  A benchmark:
# it fails only when the VM or a program fails.  Output: build/bench/roce.txt.
#
# Environment: GAUDI_QEMU (default build/qemu-path), CARDS (default 8),
# AR_SIZE (all-reduce bytes per card, default 8 MiB), AR_ITERS (default 3).
set -eu

if [ "${1:-}" = --guest ]; then
	B=/bench
	deps=$(modinfo -F depends "$B/gaudi.ko" | tr ',' ' ')
	# shellcheck disable=SC2086
	modprobe -a $deps && insmod "$B/gaudi.ko" && insmod "$B/gaudi_en.ko"
	t=0
	until [ "$(find /dev/accel -name 'accel[0-9]*' | wc -l)" -ge "$CARDS" ] ||
		[ $t -ge 300 ]; do
		sleep 0.2
		t=$((t + 1))
	done
	for i in /sys/class/net/*; do
		[ -e "$i/device" ] && ip link set "${i##*/}" up
	done
	sleep 1
	echo "@rdma"
	"$B/gaudi_roce_bench"
	echo "@allreduce"
	"$B/gaudi_allreduce" --size "$AR_SIZE" --iters "$AR_ITERS"
	"$B/gaudi_allreduce" --size "$AR_SIZE" --iters "$AR_ITERS" --staged
	echo "@done"
	exit 0
fi

repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/build/bench
# A command, split into words as make splits it (CC="ccache gcc").
cc=${CC:-gcc}
CARDS=${CARDS:-8}
AR_SIZE=${AR_SIZE:-8388608}
AR_ITERS=${AR_ITERS:-3}
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null) || true
export GAUDI_QEMU
[ -n "${GAUDI_QEMU:-}" ] || { echo "roce-bench: GAUDI_QEMU is not set" >&2; exit 2; }
mkdir -p "$out"
make -s -C "$repo/userspace" all examples >&2
$cc -O2 -Wall -Wextra -Werror -I "$repo/userspace/include" \
	-o "$out/gaudi_roce_bench" "$repo/tests/bench/gaudi_roce_bench.c" \
	-L "$repo/build/userspace" -lgaudi -Wl,-rpath,"$repo/build/userspace"
ko=${GAUDI_KO:-$repo/kernel/gaudi.ko}
en_ko=$(dirname "$ko")/en/gaudi_en.ko
if [ ! -f "$ko" ] || [ ! -f "$en_ko" ]; then
	echo "roce-bench: no $ko or $en_ko (make kernel)" >&2
	exit 2
fi
raw=$out/roce.txt
# The RoCE engine alone on the host (no QEMU, no guest): its ceiling.
"$repo/tests/bench/host-bench-build.sh" roce_model_bench
"$out/roce_model_bench" >"$out/roce-model.txt" || {
	cat "$out/roce-model.txt" >&2
	echo "roce-bench: roce_model_bench failed" >&2
	exit 1
}
st=0
"$repo/tools/vm/gaudi-vm" --driver none --cards "$CARDS" --nic dl1 \
	--timeout "${TIMEOUT:-1200}" \
	--add "$out/gaudi_roce_bench:/bench/gaudi_roce_bench" \
	--add "$repo/build/userspace/examples/gaudi_allreduce:/bench/gaudi_allreduce" \
	--add "$ko:/bench/gaudi.ko" --add "$en_ko:/bench/gaudi_en.ko" \
	--add "$repo/tests/bench/roce-bench.sh:/bench/roce-bench.sh" "$@" \
	--cmd "CARDS=$CARDS AR_SIZE=$AR_SIZE AR_ITERS=$AR_ITERS sh /bench/roce-bench.sh --guest" \
	>"$raw" 2>&1 || st=$?
if [ "$st" -ne 0 ] || ! grep -q '^@done' "$raw"; then
	tail -n 30 "$raw" >&2
	echo "roce-bench: failed (status $st); raw output in $raw" >&2
	exit 1
fi
echo "The RoCE engine alone on the host (tests/bench/roce_model_bench.c):"
sed 's/^BENCH /  /' "$out/roce-model.txt"
echo "RDMA WRITE, card 0 -> card 1 (median of each size; ratio = RDMA / memcpy):"
sed -n '/^@rdma/,/^@allreduce/p' "$raw" | grep -v '^@'
rd=$(sed -n 's/^allreduce: OK .*RDMA WRITE ring.*, \([0-9.]*\) ms each$/\1/p' "$raw")
sg=$(sed -n 's/^allreduce: OK .*staged through host memory.*, \([0-9.]*\) ms each$/\1/p' "$raw")
echo "All-reduce over $CARDS cards, $AR_SIZE bytes each: RDMA ring $rd ms, staged through host memory $sg ms, ratio $(awk -v a="$rd" -v b="$sg" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
