# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# TAP helpers shared by the shell test suites (POSIX sh: busybox in the
# guest, sh or bash on the host).  Source it; it keeps the counters in the
# globals n (tests so far) and failed, which it sets to 0.
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

# skip DESCRIPTION REASON: a passing TAP line marked "# SKIP REASON".
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# diag TEXT...: a TAP comment line, "# TEXT".
diag() { echo "# $*"; }

# tap_sub DESCRIPTION COMMAND...: run a program that prints TAP, show its
# output indented by four spaces as a subtest and count it as one test:
# "DESCRIPTION (its closing 'N passed, N failed' line)", passing when the
# program exits 0.  Leaves the program's status in st, its output in out
# and its closing line in summary.
tap_sub() {
	what=$1
	shift
	out=$("$@" 2>&1)
	st=$?
	echo "$out" | sed 's/^/    /'
	summary=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	ok "$st" "$what (${summary:-no summary})"
}

# tap_done: the plan "1..N" and the closing line "N passed, N failed";
# returns 1 when anything failed, so that a suite can end with it.
tap_done() {
	echo "1..$n"
	echo "$((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
}
