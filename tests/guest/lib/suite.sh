#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "lib": libgaudi on real drivers (tests/guest/lib/gaudi_lib_test.c).
# Runs inside the gaudi-vm guest, started with --driver none.
#
#   phase 1  nothing loaded: the library says "driver not loaded" (-ENOPKG)
#   phase 2  Debian's stock habanalabs loaded by modprobe and seen by
#            gaudi_driver_loaded, discovery and control nodes; its compute
#            node cannot be opened (Documentation/upstream-peer.rst); rmmod seen as uevents
#   phase 3  the device under test (DUT=peer: the rebuilt upstream peer,
#            DUT=gaudi: gaudi.ko) inserted while the hotplug monitor
#            watches, then everything: discovery, open variants, control
#            node next to a held compute node, INFO, CB + CS + WAIT_CS round
#            trip byte for byte, DMA helpers, signal/wait, events
#
# Environment: CARDS, DUT (peer|gaudi, default peer), PEER_KO, GAUDI_KO,
# BIN (folder of gaudi_lib_test).  Prints TAP (the program's indented) and
# "N passed, N failed".

CARDS=${CARDS:-2}
DUT=${DUT:-peer}
BIN=${BIN:-$(dirname "$0")}
T=$BIN/gaudi_lib_test
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"

# sub ARGS...: run gaudi_lib_test, show its TAP indented, one test here.
sub() { tap_sub "gaudi_lib_test $*" "$T" "$@"; }

echo "# suite lib: $CARDS cards, DUT $DUT, kernel $(uname -r)"
[ -x "$T" ]
ok $? "test program $T present"

sub --no-driver

sub --load habanalabs --cards "$CARDS"
sub --control-only --cards "$CARDS" --driver habanalabs
sub --hotplug "rmmod habanalabs" --cards "$CARDS"

case $DUT in
peer)
	ko=$PEER_KO
	name=habanalabs
	;;
gaudi)
	ko=$GAUDI_KO
	name=gaudi
	;;
*)
	ko=
	;;
esac
if [ -n "$ko" ] && [ -f "$ko" ]; then
	deps=$(modinfo -F depends "$ko" | tr ',' ' ')
	# shellcheck disable=SC2086
	[ -z "$deps" ] || modprobe -a $deps
	ok $? "modprobe the dependencies of $ko (${deps:-none})"
	sub --hotplug "insmod $ko" --cards "$CARDS"
	# Wait until every card has both nodes (the probe is asynchronous).
	t=0
	while [ "$(ls /dev/accel 2>/dev/null | wc -l)" -lt $((2 * CARDS)) ] &&
		[ "$t" -lt 120 ]; do
		sleep 1
		t=$((t + 1))
	done
	sub --cards "$CARDS" --driver "$name"
	rmmod "$name"
	ok $? "rmmod $name"
else
	ok 1 "module of DUT '$DUT' present ('$ko')"
fi

tap_done
