#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make fuzz-kernel / fuzz-kernel-repro (issue 29): the kernel fuzzer
# (kfuzz.c) in a 2-card guest of the debug kernel, through the guest suite
# kfuzz (tests/guest/kfuzz/suite.sh); Documentation/howto/fuzzing.rst.
#
#   tests/kfuzz/run.sh fuzz SECONDS   fuzz; an input that failed is saved
#                                     as build/kfuzz/<name> (+ the log)
#   tests/kfuzz/run.sh repro FILE     replay one input, each call traced
#                                     (a folder: each of its inputs)
#
# GAUDI_KERNEL (default debug; stock or checked run without kcov) and
# TIMEOUT (host seconds; default SECONDS + 900) are passed on.  Prints the
# suite's TAP; the exit status is the suite's.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/build/kfuzz
mkdir -p "$out"
mode=${1:-fuzz}
GAUDI_KERNEL=${GAUDI_KERNEL:-debug}
export GAUDI_KERNEL CARDS=2
[ "$GAUDI_KERNEL" = stock ] || [ "$GAUDI_KERNEL" = checked ] || export KCOV=need
log=$out/last.log

# The suite, its TAP on stdout and in $log, its status in $out/status
# (gaudi-vm's 99 for a kernel problem or a kmemleak report included).
suite() {
	{
		"$repo/tests/guest/run-suite.sh" kfuzz 2>"$out/last.err"
		echo $? >"$out/status"
	} | tee "$log"
}

case $mode in
fuzz)
	FUZZ_S=${2:-120}
	export FUZZ_S
	TIMEOUT=${TIMEOUT:-$((FUZZ_S + 900))}
	export TIMEOUT
	suite
	name=$(sed -n 's/^# kfuzz-input //p' "$log" | head -n 1)
	if [ -n "$name" ]; then
		sed -n 's/^# kfuzz-input-b64 //p' "$log" | base64 -d >"$out/$name"
		cp "$log" "$out/$name.log"
		echo "# the failing input: $out/$name; replay: make fuzz-kernel-repro INPUT=$out/$name"
	fi
	;;
repro)
	[ -e "${2:-}" ] || { echo "usage: $0 repro FILE" >&2; exit 2; }
	export REPRO
	REPRO=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
	TIMEOUT=${TIMEOUT:-900}
	export TIMEOUT
	suite
	;;
*)
	echo "usage: $0 fuzz SECONDS | repro FILE" >&2
	exit 2
	;;
esac
st=$(cat "$out/status")
[ "$st" = 0 ] || tail -n 20 "$out/last.err" >&2
exit "$st"
