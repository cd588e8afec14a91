#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench`: gaudi.ko against the upstream reference peer, in one VM.
#
#   tests/bench/run-bench.sh [extra gaudi-vm options...]
#
# On the host: builds tests/bench/gaudi_bench.c against libgaudi, boots one
# gaudi-vm guest with 8 cards and both modules, and runs this script inside
# it (--guest).  The guest alternates the drivers, ROUNDS times each (the
# order flips every round): each round times the load (insmod until every
# node is present and every card operational), PROBES-1 more loads, then
# runs `gaudi_bench run` on the first card and unloads (every unload timed
# until the last node is gone).  The host then
# prints medians over the rounds with their min and max, ours/upstream
# ratios and PASS/MISS against the targets of issue 24 (CS path, per model
# mode) and issue 4 (probe, unload, MAP).  Before, between and after the
# VM runs it also runs tests/bench/model_bench.c, the device model alone on
# the host with a driver path that costs nothing, MODEL_SAMPLES times each:
# the CS/s the model sustains, against the best driver figure of the
# asynchronous run (target >= 5x).  A benchmark, not a test: it fails only
# when the VM or a program fails, never on a MISS.  Other load on the
# machine moves every figure: the ratios within one run are the result.
#
# Environment: GAUDI_QEMU (default: build/qemu-path), ROUNDS (default 3),
# PROBES (loads timed per round and driver, default 2), CARDS (default 8),
# MEM (guest RAM, default 4G), BENCH_MAP_MAX_MIB (largest MAP size, default
# 1024), QUICK=1 (few samples: a smoke run), TIMEOUT (host-side seconds),
# TABLE_ONLY=1 (no VM: print the tables of the last raw outputs again),
# MODES (default "async sync": the model's modes, one VM each; async is
# the default device, sync runs queues and DMA to completion inside the
# doorbell write, gaudi-vm --model-sync).
# MODEL_SAMPLES (model_bench runs per point, default 3).
# Raw output: build/bench/raw.txt (async), raw-sync.txt and raw-model.txt;
# the tables: build/bench/table.txt and table-sync.txt.  Every run's raw
# outputs and tables are also kept in build/bench/runs/<UTC time>/.
set -eu

# ---- guest side -------------------------------------------------------------
if [ "${1:-}" = --guest ]; then
	B=/bench
	nodes=$((2 * CARDS))
	# Dependencies are loaded once, outside the timed loads.
	deps=$(modinfo -F depends "$B/gaudi.ko" | tr ',' ' ')
	# shellcheck disable=SC2086
	modprobe -a drm $deps || exit 1
	echo "# guest: $CARDS cards, $(nproc) CPU, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo), rounds $ROUNDS, probes $PROBES"
	one() {	# driver-tag module-name ko
		echo "@driver $1"
		p=1
		while :; do
			"$B/gaudi_bench" probe "$nodes" "insmod $3" || return 1
			[ "$p" -lt "$PROBES" ] || break
			"$B/gaudi_bench" unload "rmmod $2" || return 1
			p=$((p + 1))
		done
		if [ -n "${QUICK:-}" ]; then
			"$B/gaudi_bench" run --quick || return 1
		else
			"$B/gaudi_bench" run || return 1
		fi
		"$B/gaudi_bench" unload "rmmod $2" || return 1
	}
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		echo "@round $r"
		if [ $((r % 2)) -eq 1 ]; then
			one upstream habanalabs "$B/habanalabs-peer.ko" || exit 1
			one ours gaudi "$B/gaudi.ko" || exit 1
		else
			one ours gaudi "$B/gaudi.ko" || exit 1
			one upstream habanalabs "$B/habanalabs-peer.ko" || exit 1
		fi
		r=$((r + 1))
	done
	# Both drivers at once: the peer takes every card, gives the second
	# half back, gaudi.ko takes those; then the CS figures of both,
	# interleaved block by block (gaudi_bench pair).
	echo "@driver both"
	"$B/gaudi_bench" probe "$nodes" "insmod $B/habanalabs-peer.ko" || exit 1
	half=$(for d in /sys/bus/pci/drivers/habanalabs/0000:*; do
		basename "$d"
	done | tail -n $((CARDS / 2)))
	for d in $half; do
		echo "$d" >/sys/bus/pci/drivers/habanalabs/unbind || exit 1
	done
	"$B/gaudi_bench" probe "$nodes" "insmod $B/gaudi.ko" || exit 1
	echo "@pair"
	"$B/gaudi_bench" pair "$PAIR_BLOCKS" || exit 1
	echo "@driver both"
	"$B/gaudi_bench" unload "rmmod gaudi habanalabs" || exit 1
	echo "@done"
	exit 0
fi

# ---- host side --------------------------------------------------------------
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/build/bench
# A command, split into words as make splits it (CC="ccache gcc").
cc=${CC:-gcc}
ROUNDS=${ROUNDS:-3}
PROBES=${PROBES:-2}
# Blocks of the interleaved phase (gaudi_bench pair); 3 with QUICK=1.
PAIR_BLOCKS=${PAIR_BLOCKS:-$([ -n "${QUICK:-}" ] && echo 3 || echo 20)}
CARDS=${CARDS:-8}
MEM=${MEM:-4G}
# shellcheck source=tests/bench/host-setup.sh
. "$repo/tests/bench/host-setup.sh"
bench_host_setup run-bench
# The model alone (host-bench-build.sh: the engines of emulator/core and
# the unit tests' fake bus, optimised as QEMU builds them).
CC=$cc "$repo/tests/bench/host-bench-build.sh" model_bench
MODEL_SAMPLES=${MODEL_SAMPLES:-3}
# model_point N: one point of model samples, appended to raw-model.txt.
model_point() {
	i=1
	while [ "$i" -le "$MODEL_SAMPLES" ]; do
		"$out/model_bench" >>"$out/raw-model.txt" || exit 1
		i=$((i + 1))
	done
}

MODES=${MODES:-async sync}
# raw_file MODE: where that mode's raw output goes.
raw_file() {
	if [ "$1" = async ]; then echo "$out/raw.txt"; else echo "$out/raw-$1.txt"; fi
}

if [ -n "${TABLE_ONLY:-}" ]; then
	:	# only the tables of the last raw outputs
else
genv="CARDS=$CARDS ROUNDS=$ROUNDS PROBES=$PROBES PAIR_BLOCKS=$PAIR_BLOCKS"
[ -z "${QUICK:-}" ] || genv="$genv QUICK=1"
[ -z "${BENCH_MAP_MAX_MIB:-}" ] || genv="$genv BENCH_MAP_MAX_MIB=$BENCH_MAP_MAX_MIB"
echo "@driver model" >"$out/raw-model.txt"
model_point
for mode in $MODES; do
	raw=$(raw_file "$mode")
	case $mode in
	async) mopt= ;;
	sync) mopt=--model-sync ;;
	*) echo "run-bench: unknown mode $mode (async, sync)" >&2; exit 2 ;;
	esac
	echo "run-bench: model $mode: one VM, $CARDS cards, $MEM, $ROUNDS rounds per driver" >&2
	start=$(date +%s)
	st=0
	# shellcheck disable=SC2086
	GAUDI_MODEL_SYNC= "$repo/tools/vm/gaudi-vm" --driver none --cards "$CARDS" \
		--mem "$MEM" --timeout "${TIMEOUT:-1500}" $mopt \
		--add "$out/gaudi_bench:/bench/gaudi_bench" \
		--add "$peer:/bench/habanalabs-peer.ko" \
		--add "$ko:/bench/gaudi.ko" \
		--add "$repo/tests/bench/run-bench.sh:/bench/run-bench.sh" "$@" \
		--cmd "$genv sh /bench/run-bench.sh --guest" >"$raw" 2>&1 || st=$?
	echo "run-bench: model $mode: VM finished in $(($(date +%s) - start)) s (status $st)" >&2
	if [ "$st" -ne 0 ] || ! grep -q '^@done' "$raw"; then
		tail -n 40 "$raw" >&2
		echo "run-bench: the benchmark run failed (status $st); raw output in $raw" >&2
		exit 1
	fi
	model_point
done
fi

# Medians per driver, then the table: table RAW MODE TITLE [MODEL-RAW].
table() {
awk -v rounds="$ROUNDS" -v mode="$2" -v title="$3" '
# q: 0 min, 1 median, 2 max of the samples of key for drv.
function stat(key, drv, q,   n, i, j, t, a) {
	n = cnt[drv, key]
	if (!n)
		return ""
	for (i = 1; i <= n; i++)
		a[i] = val[drv, key, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	if (q == 0)
		return a[1]
	if (q == 2)
		return a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function med(key, drv) {
	return stat(key, drv, 1)
}
# "median [min-max]" of a driver, as printed.
function spread(key, drv,   m) {
	m = med(key, drv)
	if (m == "")
		return "-"
	return sprintf("%s [%s-%s]", fmt(m), fmt(stat(key, drv, 0)), fmt(stat(key, drv, 2)))
}
function fmt(v) {
	if (v == "")
		return "-"
	return v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : sprintf("%.2f", v)
}
# row(label, key, unit, target): target "le X" or "ge X" on ours/upstream,
# "" for context rows.  A key measured in the interleaved phase too
# (pair_<key>) is shown from there: its ratio is the median [min-max] of
# the ratios of the blocks, a block of each driver next to one of the
# other in time; a "per round" row then shows the figures of the rounds,
# without target.
function row(label, key, unit, target) {
	if (cnt["ratio", "pair_" key]) {
		row1(label, "pair_" key, unit, target)
		row1("  per round, one driver loaded", key, unit, "")
	} else
		row1(label, key, unit, target)
}
function row1(label, key, unit, target,   u, o, r, rs, verdict, op, x) {
	if (cnt["ratio", key]) {
		r = med(key, "ratio")
		rs = sprintf("%.2f [%.2f-%.2f]", r, stat(key, "ratio", 0), stat(key, "ratio", 2))
	} else {
		u = med(key, "upstream"); o = med(key, "ours")
		r = (u != "" && o != "" && u > 0) ? o / u : ""
		rs = r == "" ? "-" : sprintf("%.2f", r)
	}
	verdict = ""
	if (target != "" && r != "") {
		split(target, x, " ")
		op = x[1]
		verdict = (op == "le" ? r <= x[2] : r >= x[2]) ? "PASS" : "MISS"
		target = (op == "le" ? "<= " : ">= ") x[2]
	}
	printf "%-34s %-6s %23s %23s %17s  %-7s %s\n", label, unit, spread(key, "upstream"),
	       spread(key, "ours"), rs, target == "" ? "" : target, verdict
}
# The model alone against the best driver: model / max(upstream, ours).
function model_row(label, key, target,   m, u, o, best, r) {
	m = med("model_cs", "model")
	if (m == "")
		return
	u = med(key, "upstream"); o = med(key, "ours")
	best = u > o ? u : o
	r = best > 0 ? m / best : ""
	printf "%-34s %-6s %23s %23s %17s  %-7s %s\n", label, "CS/s", "", spread("model_cs", "model"),
	       r == "" ? "-" : sprintf("%.1f", r), ">= " target, r == "" ? "" : (r >= target ? "PASS" : "MISS")
}
# DMA as a fraction of memcpy, per driver; the DMA target (>= 0.8) is on
# ours.  The bandwidth rows themselves carry no ratio target: at large sizes
# they measure the copy done by the model, which no driver changes.
function frac(label, key, sz,   u, o, mu, mo, fu, fo) {
	u = med(key "_" sz, "upstream"); o = med(key "_" sz, "ours")
	mu = med("memcpy_" sz, "upstream"); mo = med("memcpy_" sz, "ours")
	fu = (u != "" && mu > 0) ? u / mu : ""
	fo = (o != "" && mo > 0) ? o / mo : ""
	printf "%-34s %-6s %23s %23s %17s  %-7s %s\n", label, "x", fu == "" ? "-" : sprintf("%.3f", fu),
	       fo == "" ? "-" : sprintf("%.3f", fo), "", ">= 0.8", fo == "" ? "" : (fo >= 0.8 ? "PASS" : "MISS")
}
/^@driver / { drv = $2 }
/^BENCH / && drv != "" {
	k = $2
	cnt[drv, k]++
	val[drv, k, cnt[drv, k]] = $3 + 0
	seen[k] = 1
}
END {
	# The interleaved phase: block i of one driver against block i of
	# the other.
	for (k in seen)
		if (k ~ /^pair_/)
			for (i = 1; i <= cnt["ours", k] && i <= cnt["upstream", k]; i++)
				if (val["upstream", k, i] > 0)
					val["ratio", k, ++cnt["ratio", k]] = val["ours", k, i] / val["upstream", k, i]
	n = split("4K 64K 1M 16M 64M", ds, " ")
	m = split("4K 64K 1M 16M 256M 1G", ms, " ")
	printf "Gaudi benchmark, %s: medians [min-max] of %d rounds per driver (probe: of every timed load); ratio = ours/upstream of the medians\n", title, rounds
	if (cnt["ratio", "pair_cs_rtt"])
		printf "CS rows: both drivers loaded, %d blocks interleaved; ratio = median [min-max] of the ratios per block; targets of issue 24\n", cnt["ratio", "pair_cs_rtt"]
	printf "%-34s %-6s %23s %23s %17s  %-7s %s\n", "measure", "unit", "upstream", "ours", "ratio", "target", "result"
	printf "%s\n", "----------------------------------------------------------------------------------------------------------------------------"
	# Targets of issue 24: the asynchronous model, and at least the
	# earlier figures in the run-to-completion one.
	row("null ioctl (INFO DEVICE_STATUS)", "null_ioctl", "us", mode == "async" ? "le 1.0" : "")
	row("CS round trip (1 NOP CB)", "cs_rtt", "us", mode == "async" ? "le 0.5" : "le 0.3")
	row("CS throughput (1000 in flight)", "cs_pipe", "CS/s", "ge 2.5")
	if (mode == "async")
		model_row("model alone (host, /best driver)", "cs_pipe", 5)
	row("  one submit ioctl in that batch", "cs_pipe_submit", "us", "")
	row("  final WAIT_CS of that batch", "cs_pipe_wait", "us", "")
	row("probe, 8 cards (load -> ready)", "probe", "ms", "le 0.8")
	row("unload, 8 cards (rmmod -> no node)", "unload", "ms", "le 0.25")
	for (i = 1; i <= n; i++)
		row("memcpy " ds[i] " (host, context)", "memcpy_" ds[i], "MiB/s", "")
	for (i = 1; i <= n; i++)
		row("LIN_DMA host->HBM " ds[i], "dma_h2d_" ds[i], "MiB/s", "")
	for (i = 1; i <= n; i++)
		row("LIN_DMA HBM->host " ds[i], "dma_d2h_" ds[i], "MiB/s", "")
	for (i = 1; i <= n; i++)
		frac("  host->HBM " ds[i] " / memcpy", "dma_h2d", ds[i])
	for (i = 1; i <= n; i++)
		frac("  HBM->host " ds[i] " / memcpy", "dma_d2h", ds[i])
	# MAP series on 4 KiB pages, then on transparent huge pages (the
	# share of the buffer the kernel backed with them is shown: below
	# 100 % the huge rows are not comparable between drivers).
	for (i = 1; i <= m; i++)
		if (seen["map_" ms[i]])
			row("MAP+UNMAP " ms[i] " (4K pages)", "map_" ms[i], "MiB/s", "ge 1.25")
		else
			printf "%-34s (not run: over BENCH_MAP_MAX_MIB)\n", "MAP+UNMAP " ms[i]
	for (i = 1; i <= m; i++)
		if (seen["map_us_" ms[i]])
			row("  per pair, " ms[i] " (4K pages)", "map_us_" ms[i], "us", "")
	if (seen["maphuge_pct"])
		row("huge buffer in 2M pages", "maphuge_pct", "%", "")
	for (i = 1; i <= m; i++)
		if (seen["maphuge_" ms[i]])
			row("MAP+UNMAP " ms[i] " (2M pages)", "maphuge_" ms[i], "MiB/s", "ge 1.25")
	for (i = 1; i <= m; i++)
		if (seen["maphuge_us_" ms[i]])
			row("  per pair, " ms[i] " (2M pages)", "maphuge_us_" ms[i], "us", "")
}' "$1"
}

for mode in $MODES; do
	raw=$(raw_file "$mode")
	tab=$(dirname "$raw")/$(basename "$raw" | sed 's/^raw/table/')
	[ -f "$raw" ] || { echo "run-bench: no $raw" >&2; continue; }
	case $mode in
	async) title="asynchronous model (default)" ;;
	*) title="run-to-completion model (sync=on)" ;;
	esac
	extra=
	[ "$mode" != async ] || [ ! -f "$out/raw-model.txt" ] || extra=$out/raw-model.txt
	# shellcheck disable=SC2086
	cat "$raw" $extra | table /dev/stdin "$mode" "$title" | tee "$tab"
	echo "run-bench: raw output $raw${extra:+ and $extra}, table $tab" >&2
done
if [ -z "${TABLE_ONLY:-}" ]; then
	keep=$out/runs/$(date -u +%Y%m%dT%H%M%SZ)
	mkdir -p "$keep"
	cp "$out"/raw*.txt "$out"/table*.txt "$keep/" 2>/dev/null || true
	echo "run-bench: this run kept in $keep" >&2
fi
