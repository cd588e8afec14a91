#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "kfuzz" (issue 29): the coverage-guided fuzzer of gaudi.ko's
# ioctls (tests/kfuzz/kfuzz.c) for FUZZ_S seconds on 2 cards, in a guest
# of the debug kernel (make fuzz-kernel; Documentation/howto/fuzzing.rst).
# Runs inside gaudi-vm started with --driver none; loads gaudi.ko itself
# with a short lockup timeout.
#
#   1  insmod gaudi.ko timeout_locked=10
#   2  each oracle fails a run when its fault is injected (KFUZZ_SELFTEST)
#   3  kfuzz: libFuzzer from the committed corpus (KFUZZ_DIR/corpus), its
#      kernel-log oracle on dmesg-judge.sh's pattern and its isolation
#      oracle; the calls, calls/s, kernel PCs, corpus size and reports;
#      kcov required when KCOV=need (the debug kernel)
#   4  kernel PCs per file of kernel/ (KFUZZ_DIR/funcs: function -> file)
#   5  no kernel problem in dmesg (also after the last input)
#
# REPRO=1: run the one input KFUZZ_DIR/input with each call traced.
# A failing input is printed as "# kfuzz-input-b64 " lines (base64) for
# tests/kfuzz/run.sh to save on the host.
#
# Environment: GAUDI_KO, BIN, KFUZZ_DIR, FUZZ_S, KCOV, REPRO.  Prints TAP
# and ends with "N passed, N failed"; exit status 1 on any failure.

BIN=${BIN:-$(dirname "$0")}
GAUDI_KO=${GAUDI_KO:-}
KFUZZ_DIR=${KFUZZ_DIR:-/suite/kfuzz}
FUZZ_S=${FUZZ_S:-60}

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh

wait_nodes() {
	t=0
	while [ ! -e /dev/accel/accel1 ] && [ "$t" -lt 180 ]; do
		sleep 1
		t=$((t + 1))
	done
	[ -e /dev/accel/accel1 ]
}

deps=$(modinfo -F depends "$GAUDI_KO" 2>/dev/null | tr ',' ' ')
# shellcheck disable=SC2086
[ -z "$deps" ] || modprobe -a $deps
insmod "$GAUDI_KO" timeout_locked=10 && wait_nodes
ok $? "insmod gaudi.ko timeout_locked=10 (2 cards)"

out=/tmp/kfuzz
mkdir -p "$out/corpus"
export KFUZZ_PROBLEMS="$GAUDI_KERNEL_PROBLEMS" KFUZZ_PCS="$out/pcs" \
	KFUZZ_CARDS=2
[ "${KCOV:-}" != need ] || export KFUZZ_NEED_KCOV=1
log=$out/log
start=$(date +%s)
if [ -n "${REPRO:-}" ]; then
	# One input, or each input of a folder (a corpus) in turn.
	if [ -d "$KFUZZ_DIR/input" ]; then
		inputs=$(find "$KFUZZ_DIR/input" -type f | sort)
	else
		inputs=$KFUZZ_DIR/input
	fi
	for f in $inputs; do
		KFUZZ_TRACE=1 "$BIN/kfuzz" -runs=1 "$f" >"$log" 2>&1
		st=$?
		sed 's/^/# /' "$log" | tail -n 200
		ok $st "kfuzz: $(basename "$f") replays without a report (libFuzzer status $st)"
	done
else
	# Each oracle fails a run when its fault is injected (KFUZZ_SELFTEST;
	# the kernel-log one with its own pattern, so that dmesg stays clean).
	for t in kmsg isolation; do
		KFUZZ_SELFTEST=$t KFUZZ_PROBLEMS=kfuzz-selftest-report \
			KFUZZ_PCS='' "$BIN/kfuzz" -artifact_prefix="$out/selftest-" \
			"$KFUZZ_DIR/corpus/info" >"$out/selftest-$t" 2>&1
		st=$?
		case $t in
		kmsg) want='^kfuzz: kernel report: .*kfuzz-selftest-report' ;;
		*) want='^kfuzz: isolation violation' ;;
		esac
		[ "$st" -ne 0 ] && grep -q "$want" "$out/selftest-$t"
		ok $? "kfuzz oracle self-test: an injected $t fault fails the run (status $st)"
	done
	# Long inputs from the start (-len_control=0): up to 256 calls each,
	# so that the clean-up and the oracle checks after an input, and
	# libFuzzer's own work, weigh little per call; one process, nothing
	# else adds to the corpus (-reload=0).
	"$BIN/kfuzz" -max_total_time="$FUZZ_S" -max_len=4096 -len_control=0 \
		-reload=0 -timeout=180 -rss_limit_mb=1536 -print_final_stats=1 \
		-artifact_prefix="$out/" "$out/corpus" "$KFUZZ_DIR/corpus" \
		>"$log" 2>&1
	st=$?
	secs=$(($(date +%s) - start))
	[ "$secs" -gt 0 ] || secs=1
	# "kfuzz: I inputs, C calls, P kernel PCs" (the program, at exit)
	line=$(grep '^kfuzz: [0-9]* inputs' "$log" | tail -n 1)
	calls=$(echo "$line" | sed -n 's/.* \([0-9]*\) calls.*/\1/p')
	pcs=$(echo "$line" | sed -n 's/.* \([0-9]*\) kernel PCs.*/\1/p')
	execs=$(sed -n 's/^stat::number_executed_units: *//p' "$log")
	[ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
	[ -n "$execs" ] || execs=$(sed -n 's/^kfuzz: \([0-9]*\) inputs.*/\1/p' "$log" | tail -n 1)
	corpus=$(find "$out/corpus" "$KFUZZ_DIR/corpus" -type f | wc -l)
	reports=$(find "$out" -maxdepth 1 -name 'crash-*' -o -name 'timeout-*' \
		-o -name 'oom-*' -o -name 'leak-*' | wc -l)
	[ "$st" -eq 0 ] && [ "$reports" -eq 0 ] && [ -n "$calls" ]
	ok $? "kfuzz: ${execs:-0} inputs, ${calls:-0} calls in $secs s ($((${calls:-0} / secs)) calls/s), ${pcs:-0} kernel PCs, corpus $corpus, $reports reports (libFuzzer status $st)"
	# Where the time went (the program's "kfuzz: time" lines), remote kcov.
	grep '^kfuzz: \(time\|remote\|no \)' "$log" | sed 's/^/# /'
	if [ "$st" -ne 0 ] || [ "$reports" -ne 0 ]; then
		if grep -q '^kfuzz: \(kernel report\|isolation\)\|==ERROR' "$log"; then
			grep -A 40 '^kfuzz: \(kernel report\|isolation\)\|==ERROR' "$log" |
				head -n 80 | sed 's/^/# /'
		else
			tail -n 40 "$log" | sed 's/^/# /'
		fi
		for f in "$out"/crash-* "$out"/timeout-* "$out"/oom-*; do
			[ -f "$f" ] || continue
			echo "# kfuzz-input $(basename "$f")"
			base64 "$f" | sed 's/^/# kfuzz-input-b64 /'
			break
		done
	fi
	# Per file of kernel/: the functions' PCs (KFUZZ_DIR/funcs maps each
	# function of gaudi.ko to its source file).
	if [ -s "$out/pcs" ] && [ -f "$KFUZZ_DIR/funcs" ]; then
		awk 'NR == FNR { file[$1] = $2; next }
			{ f = ($2 in file) ? file[$2] : "?"; n[f]++ }
			END { for (f in n) printf "# %6d %s\n", n[f], f }' \
			"$KFUZZ_DIR/funcs" "$out/pcs" | sort -k3
		ok 0 "kernel PCs per file of kernel/ (above)"
	elif [ "${KCOV:-}" = need ]; then
		ok 1 "kernel PCs per file of kernel/ (no PCs collected)"
	else
		skip "kernel PCs per file of kernel/" "no kcov in this kernel"
	fi
fi

problems=$(dmesg | kernel_problems | head -5)
[ -z "$problems" ]
ok $? "no kernel problem in dmesg"
[ -z "$problems" ] || echo "$problems" | sed 's/^/# /'

tap_done
