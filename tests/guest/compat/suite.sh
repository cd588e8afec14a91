#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "compat" (issue 23): Habana's own userspace patterns through
# the plain upstream uapi, the same program on the upstream peer and on
# gaudi.ko, one card.  hl_scenario_test (tests/guest/upstream/) with
# --user-cb host|sram|hbm: internal CBs the program allocated itself (in its
# mapped host memory, DMA'd to user SRAM or to user HBM first) named with
# HL_CS_CHUNK_FLAGS_USER_ALLOC_CB on TPC, MME and internal DMA queues
# (engines), four DMA queues in one CS (fourdma), the upper/lower-CP
# ping-pong between TPC_0_0 and DMA_0_0 with user monitors and a CP_DMA
# (pingpong), arbitration of DMA 2's QMAN set from a CB with two streams in
# one CS in the grant order of each mode (arb), LOAD_AND_EXE of a
# non-consecutive predicate map then predicated packets, and of a packet
# into the scalars executed from them (pred), a 3-D
# strided LIN_DMA over the DMA core's sizes and strides set by WREG_32,
# checked byte for byte (strided); on gaudi.ko also a user CB rewritten
# after its submission running as submitted (toctou) and the hostile twins
# (hostile, and strided's: a footprint one byte past the mapping, a shape
# left by an earlier CB, the shape from another stream).
#
#   1  the peer (PEER_KO): insmod, the scenarios in each placement, rmmod
#   2  gaudi.ko (GAUDI_KO): the same, plus hostile; rmmod
#
# Environment: PEER_KO, GAUDI_KO, BIN.  Prints TAP and ends with
# "N passed, N failed"; exit status 1 on any failure.

BIN=${BIN:-$(dirname "$0")}
GAUDI_KO=${GAUDI_KO:-}
PEER_KO=${PEER_KO:-}
SCEN="fourdma pingpong engines arb pred strided sobswitch"

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"

# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# scenarios DRIVER [--peer] SCENARIO...: each placement of internal CBs.
scenarios() {
	who=$1
	shift
	for mode in host sram hbm; do
		tap_sub "$who: hl_scenario_test --user-cb $mode" \
			"$BIN/hl_scenario_test" --card 0 --user-cb "$mode" "$@"
	done
}

diag "suite compat: kernel $(uname -r)"
if [ -n "$PEER_KO" ] && [ -f "$PEER_KO" ]; then
	load "$PEER_KO"
	ok $? "insmod the upstream peer ($PEER_KO)"
	# shellcheck disable=SC2086
	scenarios peer --peer $SCEN
	unload habanalabs
	ok $? "rmmod habanalabs"
else
	ok 1 "peer module present (PEER_KO='$PEER_KO')"
fi

if [ -n "$GAUDI_KO" ] && [ -f "$GAUDI_KO" ]; then
	load "$GAUDI_KO"
	ok $? "insmod gaudi.ko"
	# shellcheck disable=SC2086
	scenarios gaudi $SCEN toctou hostile
	unload gaudi
	ok $? "rmmod gaudi"
else
	ok 1 "gaudi.ko present (GAUDI_KO='$GAUDI_KO')"
fi
tap_done
