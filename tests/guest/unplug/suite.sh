#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "unplug" (issue 10): the card goes away under a busy holder
# (Documentation/accel/gaudi.rst, Lifetimes: "Removal takes the device").
#
#   1  insmod gaudi.ko timeout_locked=0 (the FENCE-held CS must not time
#      out before the removal)
#   2  gaudi_unplug_test --how unbind, ROUNDS rounds on one card
#   3  gaudi_unplug_test --how remove (PCI remove, then rescan)
#   4  gaudi_unplug_test --how hotplug, HOTPLUG_ROUNDS rounds (QEMU
#      device_del and device_add through gaudi-vm --hotplug)
#   (gaudi-vm then judges dmesg: no kernel report)
#
# Environment: GAUDI_KO, BIN, ROUNDS (default 50), HOTPLUG_ROUNDS (default
# 5).  Prints TAP and ends with "N passed, N failed"; exit status 1 on any
# failure.

BIN=${BIN:-$(dirname "$0")}
GAUDI_KO=${GAUDI_KO:-}
ROUNDS=${ROUNDS:-50}
HOTPLUG_ROUNDS=${HOTPLUG_ROUNDS:-5}

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"

insmod_deps "$GAUDI_KO" timeout_locked=0
ok $? "insmod gaudi.ko timeout_locked=0"
wait_node accel0
bdf=$(ls /sys/bus/pci/drivers/gaudi | grep '^0000:' | tail -n 1)
[ -n "$bdf" ]
ok $? "a card to remove: $bdf"
tap_sub_each unbind "$BIN/gaudi_unplug_test" --bdf "$bdf" --how unbind \
	--rounds "$ROUNDS"
tap_sub_each remove "$BIN/gaudi_unplug_test" --bdf "$bdf" --how remove \
	--rounds "$ROUNDS"
# Pulled: pciehp waits 5 s after the attention button, hence fewer rounds.
tap_sub_each hotplug "$BIN/gaudi_unplug_test" --bdf "$bdf" --how hotplug \
	--rounds "$HOTPLUG_ROUNDS"

# Kernel reports (BUG, WARNING, KASAN, lockdep, kmemleak...) are judged
# by gaudi-vm after the suite (exit 99, a failure of the suite), with the
# one DMA-API debug report it tolerates (tools/vm/guest-init.sh).

tap_done
