#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "dos" (issue 10): denial of service through the control node.
# Runs inside the gaudi-vm guest started with --driver none; loads gaudi.ko
# (GAUDI_KO) itself with a 100 ms heartbeat, so that a starved device-CPU
# channel would show as a reset.
#
#   1  insmod gaudi.ko heartbeat_ms=100
#   2  gaudi_dos_test: what an unprivileged user may read on the control
#      node; 8 threads of that user hammering it (every INFO op, odd and
#      huge sizes, 1 MiB firmware requests, FLASH INFO, two threads blocked
#      on a userfaultfd page) while the holder runs 10,000 CSs: all
#      complete, no reset; then a hard reset by root completes with the
#      blocked threads still there
#   3  rmmod gaudi, no kernel problem in dmesg
#
# Environment: GAUDI_KO, BIN.  Prints TAP and ends with "N passed, N
# failed"; exit status 1 on any failure.

BIN=${BIN:-$(dirname "$0")}
GAUDI_KO=${GAUDI_KO:-}

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# What counts as a kernel problem: gaudi-vm's (tools/vm/dmesg-judge.sh).
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"

insmod_deps "$GAUDI_KO" heartbeat_ms=100
ok $? "insmod gaudi.ko heartbeat_ms=100"
wait_node accel0
tap_sub_each gaudi_dos_test "$BIN/gaudi_dos_test" --card 0
rmmod gaudi
ok $? "rmmod gaudi"

no_kernel_problem ""

tap_done
