#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "security": isolation between the holders of a card and the
# rest of the machine (issue 9), through upstream's uapi.  Runs inside the
# gaudi-vm guest started with --driver none and --keep-going (the peer
# phase may make the peer complain in dmesg; this suite judges dmesg
# itself, after the gaudi.ko phase); loads the modules itself.
#
#   1  insmod gaudi_canary.ko (CANARY_KO): one page of kernel memory with
#      a pattern, its physical address in /sys/module/gaudi_canary/
#   2  insmod gaudi.ko timeout_locked=10 (GAUDI_KO)
#   3  gaudi_sec_test info compat sobclean: the user sync managers E_N,
#      E_S, W_N (a fence between two streams through a user monitor, with
#      MSG_SHORT and MSG_LONG; a multi-CS wait on SOB-fenced work from 8
#      threads); their SOBs read 0 in the next context
#   4  gaudi_sec_test attacks stale nextholder: each class of issue 9 and
#      the other attempts, each from a fresh holder, against a canary page
#      of another process and the kernel canary; a stream left in a FENCE
#      by the previous holder; HBM and SRAM contents of the previous holder
#   5  rmmod gaudi; no kernel problem in dmesg so far; on a kernel with
#      kmemleak (the debug kernel) no object left unreferenced
#   6  the upstream peer (PEER_KO), last, since there some attempts really
#      write memory: compat and sobclean judged as on gaudi.ko; the
#      attempts recorded as "# peer: ..." lines, not judged
#   7  rmmod the peer and the canary
#
# Every result of the test programs is one test of this suite
# (tap_sub_each): the closing line counts them, skips apart.
# Environment: GAUDI_KO, PEER_KO, CANARY_KO, BIN (test programs).  Prints
# TAP and ends with "N passed, N failed[, N skipped]"; exit status 1 on
# any failure.

BIN=${BIN:-$(dirname "$0")}
GAUDI_KO=${GAUDI_KO:-}
PEER_KO=${PEER_KO:-}
CANARY_KO=${CANARY_KO:-}
TEST=$BIN/gaudi_sec_test

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# What counts as a kernel problem: gaudi-vm's (tools/vm/dmesg-judge.sh).
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh

# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"

if [ -n "$CANARY_KO" ]; then
	insmod "$CANARY_KO"
	ok $? "insmod gaudi_canary.ko (kernel canary at $(cat /sys/module/gaudi_canary/parameters/phys 2>/dev/null))"
fi

if [ -n "$GAUDI_KO" ]; then
	load "$GAUDI_KO" timeout_locked=10
	ok $? "insmod gaudi.ko timeout_locked=10"
	tap_sub_each "gaudi" "$TEST" --card 0 info compat sobclean
	tap_sub_each "gaudi" "$TEST" --card 0 attacks stale nextholder
	unload gaudi
	ok $? "rmmod gaudi"
	no_kernel_problem "after the gaudi.ko phase"
	# The debug kernel (kmemleak; gaudi-vm cleared what boot left): nothing
	# allocated during the gaudi.ko phase is left unreferenced.  An object
	# is reported once 5 s old and unreferenced in a scan: wait, scan twice.
	kml=/sys/kernel/debug/kmemleak
	if [ -w "$kml" ]; then
		sleep 6
		echo scan >"$kml"
		echo scan >"$kml"
		leaks=$(grep -c '^unreferenced object' "$kml")
		[ "$leaks" -eq 0 ]
		ok $? "kmemleak: no unreferenced object after the gaudi.ko phase ($leaks)"
		[ "$leaks" -eq 0 ] || head -n 80 "$kml" | sed 's/^/# /'
		echo clear >"$kml"
	fi
fi

if [ -n "$PEER_KO" ] && [ -f "$PEER_KO" ]; then
	dmesg -c >/dev/null
	load "$PEER_KO" timeout_locked=10
	ok $? "insmod the upstream peer timeout_locked=10"
	tap_sub_each "peer" "$TEST" --card 0 --peer info compat sobclean
	tap_sub_each "peer" "$TEST" --card 0 --peer attacks stale nextholder
	unload habanalabs
	ok $? "rmmod the peer"
	# Facts, not judged: what the peer phase left in dmesg.
	dmesg | kernel_problems | head -5 | sed 's/^/# peer: dmesg: /'
else
	# Visible and counted: the peer build failed or PEER_KO was not given.
	skip "upstream peer phase (gaudi_sec_test --peer)" \
		"no peer module (PEER_KO='$PEER_KO': run-suite.sh PEER=none, or the peer build failed)"
fi

if [ -n "$CANARY_KO" ]; then
	rmmod gaudi_canary
	ok $? "rmmod gaudi_canary"
fi

tap_done
