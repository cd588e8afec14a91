# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# TAP helpers shared by the shell test suites (POSIX sh: busybox in the
# guest, sh or bash on the host).  Source it; it keeps the counters in the
# globals n (tests so far), failed and skipped, which it sets to 0.
#
# In-guest suites (tests/guest/<suite>/suite.sh) find it through TAP_SH,
# which tests/guest/run-suite.sh sets to the copy it adds to the guest
# (/suite/tap.sh); run from a source tree they fall back to this file:
#
#   . "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
#
# Host scripts source "$repo/tests/lib/tap.sh".

n=0
failed=0
skipped=0

# ok STATUS DESCRIPTION...: one TAP line, "ok N - DESCRIPTION" when STATUS
# is 0, else "not ok N - DESCRIPTION" and one more failure.  The words of
# DESCRIPTION are joined with spaces.  Sets no variable but n and failed.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		shift
		echo "ok $n - $*"
	else
		shift
		echo "not ok $n - $*"
		failed=$((failed + 1))
	fi
}

# skip DESCRIPTION REASON: a TAP line marked "# SKIP REASON", counted as
# skipped, not passed (see tap_done).
skip() {
	n=$((n + 1))
	skipped=$((skipped + 1))
	echo "ok $n - $1 # SKIP $2"
}

# todo STATUS DESCRIPTION REASON: a check of what is not built yet, "ok N
# - DESCRIPTION # TODO REASON" (or "not ok ..."): it runs and may fail, but
# counts as skipped, neither passed nor failed (see tap_done).
todo() {
	n=$((n + 1))
	skipped=$((skipped + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2 # TODO $3"
	else
		echo "not ok $n - $2 # TODO $3"
	fi
}

# diag TEXT...: a TAP comment line, "# TEXT".
diag() { echo "# $*"; }

# tap_sub DESCRIPTION COMMAND...: run a program that prints TAP and count
# each of its results as one test of the suite (tap_sub_each with
# DESCRIPTION as the prefix), so that a program run as one step still
# reports its sub-results and their skips; then a comment with its closing
# line.  Leaves the program's status in st, its output in out and its
# closing line in summary.
tap_sub() {
	tap_sub_each "$@"
	summary=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	diag "$1: ${summary:-no summary} (status $st)"
}

# tap_sub_each PREFIX COMMAND...: run a program that prints TAP and count
# each of its results as one test of the suite, renumbered, described as
# "PREFIX: its description".  Its "# SKIP" and "# TODO" results (passing
# or not) count as skipped, not passed (see tap_done); its comment lines
# pass through; other output is
# shown as "# | LINE".  One more failing test when the program exits
# non-zero without a failure of its own or ends without its closing
# "N passed, N failed" line (it crashed or was killed).  Leaves the
# program's status in st.
tap_sub_each() {
	pfx=$1
	shift
	out=$("$@" 2>&1)
	st=$?
	sub_failed=0
	sub_closed=0
	while IFS= read -r line; do
		case $line in
		"ok "*" # TODO"* | "not ok "*" # TODO"*)
			n=$((n + 1))
			skipped=$((skipped + 1))
			case $line in
			"ok "*) echo "ok $n - $pfx: ${line#ok * - }" ;;
			*) echo "not ok $n - $pfx: ${line#not ok * - }" ;;
			esac
			;;
		"ok "*" # SKIP"*)
			n=$((n + 1))
			skipped=$((skipped + 1))
			echo "ok $n - $pfx: ${line#ok * - }"
			;;
		"ok "*)
			n=$((n + 1))
			echo "ok $n - $pfx: ${line#ok * - }"
			;;
		"not ok "*)
			n=$((n + 1))
			failed=$((failed + 1))
			sub_failed=$((sub_failed + 1))
			echo "not ok $n - $pfx: ${line#not ok * - }"
			;;
		"#"*) echo "$line" ;;
		[0-9]*" passed, "[0-9]*" failed"*) sub_closed=1 ;;
		"1.."[0-9]*) ;;
		"") ;;
		*) echo "# | $line" ;;
		esac
	done <<TAP_SUB_EACH_EOF
$out
TAP_SUB_EACH_EOF
	if [ "$sub_closed" -eq 0 ]; then
		ok 1 "$pfx: $(basename "$1") ended without its closing line (status $st)"
	elif [ "$st" -ne 0 ] && [ "$sub_failed" -eq 0 ]; then
		ok 1 "$pfx: $(basename "$1") exited with status $st"
	fi
}

# tap_fuzz WHAT LOG STATUS SECONDS PATTERN: the TAP line of a libFuzzer run
# of SECONDS that exited with STATUS and wrote LOG (-print_final_stats=1):
# ok when it exited 0 after at least one execution; else the first lines
# of LOG that match PATTERN (the violation's report) follow as comments.
tap_fuzz() {
	tf_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$2")
	tf_rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$2")
	[ "$3" -eq 0 ] && [ -n "$tf_runs" ] && [ "$tf_runs" -gt 0 ]
	ok $? "$1: ${tf_runs:-0} executions in $4 s (${tf_rate:-0}/s), 0 violations (libFuzzer status $3)"
	if [ "$3" -ne 0 ]; then
		grep -m3 -A2 "$5" "$2" | sed 's/^/# /'
	fi
}

# tap_done: the plan "1..N" and the closing line "N passed, N failed"
# (", N skipped" added when tap_sub_each counted skips, which are not
# passes); returns 1 when anything failed, so that a suite can end with it.
tap_done() {
	echo "1..$n"
	if [ "$skipped" -gt 0 ]; then
		echo "$((n - failed - skipped)) passed, $failed failed, $skipped skipped"
	else
		echo "$((n - failed)) passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
}
