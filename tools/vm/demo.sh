#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make demo`: boot an emulated DL1 host (8 Gaudi cards) and show the stack
# working: `modprobe gaudi` probing every card with our firmware, the device
# nodes, gaudi-smi's view of the cards, a command submission that moves data
# host -> SRAM -> HBM -> host through a DMA queue while gaudi-smi shows who
# holds the card, and, for comparison, upstream's habanalabs on the same
# cards.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/demo
cards=${CARDS:-8}
: "${GAUDI_QEMU:=$(cat "$top/build/qemu-path")}"
export GAUDI_QEMU

mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -o "$out/hl_upstream_test" \
	"$top/tests/guest/upstream/hl_upstream_test.c"

cat >"$out/demo-guest.sh" <<'GUEST'
#!/bin/sh
step() { printf '\n=== %s\n' "$*"; }
nodes() { ls /dev/accel 2>/dev/null | grep -c '^accel[0-9]'; }
wait_nodes() {
	i=0
	while [ "$(nodes)" -lt "$CARDS" ] && [ $i -lt 120 ]; do
		sleep 1
		i=$((i + 1))
	done
}

step "modprobe gaudi (our driver, installed in /lib/modules/.../updates)"
upd=/lib/modules/$(uname -r)/updates
mkdir -p "$upd" && cp /root/demo/gaudi.ko "$upd/" && depmod -a
time modprobe gaudi
wait_nodes
dmesg | grep -E 'gaudi .*(firmware|operational|device CPU)' | head -n 12

step "device nodes"
ls -l /dev/accel

step "gaudi-smi"
/root/demo/gaudi-smi

step "a submission on card 0: LIN_DMA host -> SRAM -> HBM -> host on DMA_0_0"
/root/demo/hl_upstream_test --compute --card 0 |
	grep -E 'CS |LIN_DMA|copy|memset|EPERM|passed'

step "who holds a card: a process keeps card 1 open, gaudi-smi names it"
sh -c 'exec 3<>/dev/accel/accel1; sleep 5' &
sleep 1
/root/demo/gaudi-smi
wait

step "health"
/root/demo/gaudi-smi --health

step "the same cards under upstream's habanalabs, for comparison"
time rmmod gaudi
time modprobe habanalabs
wait_nodes
dmesg | grep -cE 'Successfully added device' | sed 's/^/cards added by habanalabs: /'
/root/demo/gaudi-smi -L
rmmod habanalabs
GUEST

exec "$top/tools/vm/gaudi-vm" --cards "$cards" --driver none --timeout 900 \
	--append loglevel=1 \
	--add "$out:/root/demo" --add "$top/kernel/gaudi.ko:/root/demo/gaudi.ko" \
	--add "$top/build/tools/gaudi-smi:/root/demo/gaudi-smi" \
	--cmd "CARDS=$cards sh /root/demo/demo-guest.sh"
