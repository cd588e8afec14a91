#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where a driver's hot paths spend their time, in the guest, with ftrace's
# function_graph tracer (Documentation/howto/profiling.rst).
#
#   tests/bench/profile.sh [extra gaudi-vm options...]
#
# On the host: builds tests/bench/gaudi_bench.c, boots one gaudi-vm guest
# with both modules and runs this script inside it (--guest).  The guest
# loads each driver in turn (upstream's peer, then gaudi.ko), and for each
# load of `gaudi_bench loop` (N null ioctls, N round trips, one batch of N
# CSs in flight) traces the driver's ioctl entries and its completion
# interrupt handler, DEPTH calls deep, and prints per function: calls, the
# mean and total of its durations (inclusive of what it calls, and of the
# tracer's own cost per traced call, which is the same for both drivers).
# Untraced timings of the same loads come first ("# loop ...").
#
# Environment: GAUDI_QEMU, CARDS (default 2), N (default 2000), DEPTH
# (default 4), TOP (rows per table, default 25), DRIVERS (default
# "upstream ours"), RAW (print the first RAW lines of each trace too).  Output: build/bench/profile.txt (the guest's console:
# untraced loop timings and the tables).
set -eu

if [ "${1:-}" = --guest ]; then
	B=/bench
	T=/sys/kernel/tracing
	[ -d "$T/options" ] || mount -t tracefs nodev "$T"
	deps=$(modinfo -F depends "$B/gaudi.ko" | tr ',' ' ')
	# shellcheck disable=SC2086
	modprobe -a drm $deps || exit 1
	# agg: calls, mean and total per function of a function_graph trace
	# (funcgraph-tail: closing braces name their function).
	agg() {
		awk -v top="$TOP" '
		/ us / && match($0, /[0-9]+\.[0-9]+ us/) {
			d = substr($0, RSTART, RLENGTH - 3) + 0
			l = $0
			# "} /* name */", "name();"; module functions: "name [mod]"
			if (match(l, /\} \/\* [A-Za-z0-9_.]+( \[[a-z0-9_]+\])? \*\//))
				f = substr(l, RSTART + 5, RLENGTH - 8)
			else if (match(l, /[A-Za-z0-9_.]+( \[[a-z0-9_]+\])?\(\);/))
				f = substr(l, RSTART, RLENGTH - 3)
			else
				next
			sub(/ \[.*/, "", f)
			n[f]++; s[f] += d
		}
		END {
			for (f in n)
				printf "%10.1f %8d %9.3f  %s\n", s[f], n[f], s[f] / n[f], f | "sort -rn | head -" top
		}' "$1"
	}
	for drv in $DRIVERS; do
		case $drv in
		upstream) ko=$B/habanalabs-peer.ko; mod=habanalabs
			roots="hl_info_ioctl hl_cs_ioctl hl_wait_ioctl hl_irq_handler_cq" ;;
		ours) ko=$B/gaudi.ko; mod=gaudi
			roots="gaudi_info_ioctl gaudi_cs_ioctl gaudi_wait_cs_ioctl gaudi_irq_hard" ;;
		*) echo "profile: unknown driver $drv" >&2; exit 2 ;;
		esac
		"$B/gaudi_bench" probe $((2 * CARDS)) "insmod $ko" >/dev/null || exit 1
		for kind in null rtt pipe; do
			"$B/gaudi_bench" loop "$kind" "$N" | sed "s/^# /# $drv /"
		done
		echo nop >"$T/current_tracer"
		echo "$roots" | tr ' ' '\n' >"$T/set_graph_function"
		echo "$DEPTH" >"$T/max_graph_depth"
		echo 1 >"$T/options/funcgraph-tail"
		# Interrupts that arrive inside a traced call are traced too
		# (and counted in its duration): the completion interrupt
		# mostly arrives during the next submission.
		echo 1 >"$T/options/funcgraph-irqs" 2>/dev/null || true
		echo 16384 >"$T/buffer_size_kb"
		echo function_graph >"$T/current_tracer"
		for kind in null rtt pipe; do
			echo 0 >"$T/tracing_on"
			: >"$T/trace"
			echo 1 >"$T/tracing_on"
			"$B/gaudi_bench" loop "$kind" "$N" | sed "s/^# /# $drv traced /"
			echo 0 >"$T/tracing_on"
			cp "$T/trace" "/tmp/trace-$drv-$kind"
			echo "@profile $drv $kind (N=$N, depth $DEPTH): total us, calls, mean us, function"
			agg "/tmp/trace-$drv-$kind"
			[ -z "$RAW" ] || head -n "$RAW" "/tmp/trace-$drv-$kind"
		done
		echo nop >"$T/current_tracer"
		"$B/gaudi_bench" unload "rmmod $mod" >/dev/null || exit 1
	done
	echo "@done"
	exit 0
fi

repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/build/bench
cc=${CC:-gcc}
CARDS=${CARDS:-2}
# shellcheck source=tests/bench/host-setup.sh
. "$repo/tests/bench/host-setup.sh"
bench_host_setup profile
genv="CARDS=$CARDS N=${N:-2000} DEPTH=${DEPTH:-4} TOP=${TOP:-25}"
genv="$genv DRIVERS='${DRIVERS:-upstream ours}' RAW=${RAW:-}"
# shellcheck disable=SC2086
"$repo/tools/vm/gaudi-vm" --driver none --cards "$CARDS" --timeout "${TIMEOUT:-1500}" \
	--add "$out/gaudi_bench:/bench/gaudi_bench" \
	--add "$peer:/bench/habanalabs-peer.ko" \
	--add "$ko:/bench/gaudi.ko" \
	--add "$repo/tests/bench/profile.sh:/bench/profile.sh" "$@" \
	--cmd "$genv sh /bench/profile.sh --guest" >"$out/profile.txt" 2>&1 || {
	tail -n 40 "$out/profile.txt" >&2
	echo "profile: the guest run failed; output in $out/profile.txt" >&2
	exit 1
}
grep -E '^(# (upstream|ours)|@profile| *[0-9]+\.[0-9]+ +[0-9]+ )' "$out/profile.txt"
echo "profile: output in $out/profile.txt" >&2
