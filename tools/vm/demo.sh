#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make demo`: boot an emulated DL1 host (8 Gaudi cards) and show the stack
# working: the driver probing every card with our firmware, the device
# nodes, the cards' sensors and versions, and a command submission that
# moves data host -> SRAM -> HBM -> host through a DMA queue.
#
# Until our own gaudi.ko can submit work, the demo uses upstream's
# habanalabs: Debian's module for the probe, the rebuilt reference peer
# (tools/host/build-upstream-peer.sh) for the submission.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/demo
cards=${CARDS:-8}
: "${GAUDI_QEMU:=$(cat "$top/build/qemu-path")}"
export GAUDI_QEMU

mkdir -p "$out"
gcc -O2 -Wall -Wextra -Werror -o "$out/hl_upstream_test" \
	"$top/tests/guest/upstream/hl_upstream_test.c"
peer=$("$top/tools/host/build-upstream-peer.sh" | tail -n 1)

cat >"$out/demo-guest.sh" <<'GUEST'
#!/bin/sh
step() { printf '\n=== %s\n' "$*"; }

step "modprobe habanalabs (Debian's upstream driver)"
modprobe habanalabs
i=0
while [ "$(ls /dev/accel 2>/dev/null | grep -c '^accel[0-9]')" -lt "$CARDS" ] &&
	[ $i -lt 120 ]; do
	sleep 1
	i=$((i + 1))
done
dmesg | grep -E 'Found GAUDI|boot-fit version|Successfully added' | head -n 24

step "device nodes"
ls -l /dev/accel

step "cards"
printf '%-8s %-14s %-12s %-9s %-7s %s\n' NODE PCI STATUS TEMP POWER FIRMWARE
for d in /sys/class/accel/accel[0-9]*; do
	n=$(basename "$d")
	dev=$d/device
	hw=$(ls -d "$dev"/hwmon/hwmon* 2>/dev/null | head -n 1)
	t=$(cat "$hw/temp1_input" 2>/dev/null || echo 0)
	p=$(cat "$hw/power1_input" 2>/dev/null || echo 0)
	printf '%-8s %-14s %-12s %3d.%01d C  %4d W  %s\n' "$n" \
		"$(basename "$(readlink -f "$dev")")" "$(cat "$dev/status")" \
		$((t / 1000)) $((t % 1000 / 100)) $((p / 1000000)) \
		"$(cat "$dev/cpucp_kernel_ver" 2>/dev/null | head -c 40)"
done

step "unload (hard reset of every card)"
time rmmod habanalabs

step "a submission: the reference peer, LIN_DMA on queue DMA_0_0"
insmod "$PEER_KO"
i=0
while [ ! -e /dev/accel/accel0 ] && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
/root/demo/hl_upstream_test --compute --card 0 |
	grep -E 'CS |LIN_DMA|copy|memset|MEMORY|EPERM|passed'
GUEST

exec "$top/tools/vm/gaudi-vm" --cards "$cards" --driver none --timeout 900 \
	--append loglevel=1 \
	--add "$out:/root/demo" --add "$peer:/root/demo/habanalabs-peer.ko" \
	--cmd "CARDS=$cards PEER_KO=/root/demo/habanalabs-peer.ko sh /root/demo/demo-guest.sh"
