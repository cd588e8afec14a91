#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the isolation fuzzer for FUZZ_S seconds: through the parser, then
# (BYPASS_PCT percent of the time) with the parser bypassed.  Prints TAP,
# the executions and their rate, and "N passed, N failed".  A violation
# leaves its input in OUT/crash-* (replay: OUT/fuzz_isolation FILE).
#   run-fuzz.sh OUT
set -u
out=$1
fuzz=$out/fuzz_isolation
total=${FUZZ_S:-60}
pct=${BYPASS_PCT:-33}
tb=$((total * pct / 100))
tp=$((total - tb))
n=0
failed=0

. "$(dirname "$0")/../lib/tap.sh"

one() {	# one MODE SECONDS [ENV]
	mode=$1
	secs=$2
	corpus=$out/corpus-$mode
	log=$out/fuzz-$mode.log
	mkdir -p "$corpus"
	[ -n "$(ls -A "$corpus")" ] || "$out/test_isolation" --corpus "$corpus"
	[ "$secs" -gt 0 ] || return 0
	if [ "$mode" = bypass ]; then
		GAUDI_ISO_BYPASS=1 "$fuzz" -max_total_time="$secs" -max_len=4096 \
			-print_final_stats=1 -artifact_prefix="$out/" \
			"$corpus" >"$log" 2>&1
	else
		"$fuzz" -max_total_time="$secs" -max_len=4096 \
			-print_final_stats=1 -artifact_prefix="$out/" \
			"$corpus" >"$log" 2>&1
	fi
	tap_fuzz "isolation fuzzer ($mode)" "$log" $? "$secs" \
		'isolation violation\|ERROR:'
}

one parser "$tp"
one bypass "$tb"
tap_done
