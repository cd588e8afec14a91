#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the network oracle fuzzer (netoracle.h) for FUZZ_S seconds from the
# seeds of test_netoracle.  Prints TAP, the executions and their rate, and
# "N passed, N failed".  A violation leaves its input in OUT/crash-*
# (replay: OUT/fuzz/fuzz_roce FILE).
#   run-fuzz-roce.sh OUT
set -u
out=$1
secs=${FUZZ_S:-60}
corpus=$out/corpus-roce
log=$out/fuzz-roce.log

. "$(dirname "$0")/../lib/tap.sh"

mkdir -p "$corpus"
[ -n "$(ls -A "$corpus")" ] || "$out/test_netoracle" --corpus "$corpus"
"$out/fuzz/fuzz_roce" -max_total_time="$secs" -max_len=512 -len_control=0 \
	-print_final_stats=1 -artifact_prefix="$out/" "$corpus" >"$log" 2>&1
tap_fuzz "network oracle fuzzer" "$log" $? "$secs" \
	'network oracle violation\|ERROR:'
tap_done
