#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A device DMA to an IOVA the guest IOMMU does not map is reported, never
# silent (cs suite under gaudi-vm --iommu strict|lazy; issue 15).
#
# How a DMA reaches an unmapped IOVA without weakening anything: a user
# cannot get one (the CB parser, the protection and the device MMU stop
# host physical addresses, and a mapped userptr keeps its IOVAs until the
# driver unmaps it from the device MMU first).  Root can, through the
# driver's debugfs register window (addr/data32, mode 0600): it programs
# DMA core 7 directly, as a driver bug would, for a secure transfer from
# and then a memset to host bus address 0.  IOVA page 0 is never handed
# out by the kernel's IOVA allocator (dma-iommu starts at page 1), so
# both fault in strict and in lazy mode alike.
#
# Checked: the IOMMU's fault report in dmesg (DMAR read and write faults at
# 0x0), the model's error on the DMA core (ERR_CAUSE HBW_RD, then HBW_WR),
# the DMA7 core event the driver counts in debugfs "events", and that the
# core is idle again.  The faults are announced to gaudi-vm's dmesg check
# (tools/vm/guest-init.sh) with the "expect DMAR faults" markers; any other
# DMAR fault still fails the run.
#
# Sourced by suite.sh (after tap.sh) with gaudi.ko loaded; CARD (default
# 0) is the accel node.  Register facts: emulator/core/gaudi_regs.h (DMA
# core block, from upstream's dma0_core_regs.h); event 604 + n is DMAn
# core (upstream's gaudi_async_events.h, GAUDI_EVENT_DMA0_CORE).

iommu_fault_test() {
	card=${CARD:-0}
	minor=$(cut -d: -f2 "/sys/class/accel/accel$card/dev" 2>/dev/null)
	dev=$(readlink -f "/sys/class/accel/accel$card/device")
	# The DRM device's debugfs folder: accel/<PCI name> (6.12), or
	# accel/<minor> on kernels that name it by the minor.
	dbg=/sys/kernel/debug/accel/$(basename "$dev")
	[ -e "$dbg/data32" ] || dbg=/sys/kernel/debug/accel/$minor
	type=$(cat "$dev/iommu_group/type" 2>/dev/null)
	case $type in
	DMA | DMA-FQ) ;;
	*)
		skip "DMA to an unmapped IOVA is reported" "no translating IOMMU (${type:-none})"
		return 0
		;;
	esac
	if [ ! -w "$dbg/data32" ]; then
		ok 1 "debugfs register window $dbg/data32"
		return 1
	fi
	ok 0 "accel$card behind the IOMMU (domain type $type)"

	core=$((0x500000 + 7 * 0x20000))
	wr() {
		printf '0x%x\n' $((core + $1)) >"$dbg/addr" &&
			printf '0x%x\n' "$2" >"$dbg/data32"
	}
	rd() {
		printf '0x%x\n' $((core + $1)) >"$dbg/addr" &&
			printf '%d\n' "$(cat "$dbg/data32")"
	}
	ev() { awk 'BEGIN { n = 0 } $1 == 611 { n = $3 } END { print n }' "$dbg/events"; }
	faults() { dmesg | grep -c "DMAR: \[DMA $1.*fault addr 0x0 "; }

	ev0=$(ev)
	rd0=$(faults Read)
	wr0=$(faults Write)
	echo "gaudi-vm: expect DMAR faults begin" >/dev/kmsg
	# Secure: the protection and MMU of user transfers do not apply.
	wr 0xB8 1
	wr 0x14 0
	wr 0x18 0x80		# SRC = HOST_PHYS_BASE + IOVA 0
	wr 0x1C 0
	wr 0x20 0x80		# DST = the same
	wr 0x74 4096
	wr 0x78 0x8		# COMMIT: linear copy
	t=0
	while [ $(($(rd 0x164) & 1)) = 0 ] && [ $t -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	ok $(($(rd 0x164) & 1 ? 0 : 1)) "DMA read of unmapped IOVA 0: the DMA core reports HBW_RD in ERR_CAUSE"
	wr 0x164 7
	wr 0x14 0x5A5A5A5A	# memset pattern
	wr 0x18 0x5A5A5A5A
	wr 0x78 $((0x8 | 0x10))	# COMMIT: linear memset
	t=0
	while [ $(($(rd 0x164) & 2)) = 0 ] && [ $t -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	ok $(($(rd 0x164) & 2 ? 0 : 1)) "DMA write to unmapped IOVA 0: the DMA core reports HBW_WR in ERR_CAUSE"
	wr 0x164 7
	wr 0xB8 0
	# The IOMMU's fault interrupt and the device's event arrive on
	# their own: wait for both, bounded.
	t=0
	while { [ "$(faults Read)" -le "$rd0" ] ||
		[ "$(faults Write)" -le "$wr0" ] ||
		[ "$(ev)" -lt $((ev0 + 2)) ]; } && [ $t -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	echo "gaudi-vm: expect DMAR faults end" >/dev/kmsg
	[ "$(faults Read)" -gt "$rd0" ]
	ok $? "the IOMMU reported the read fault at 0x0 (dmesg DMAR: [DMA Read ...])"
	[ "$(faults Write)" -gt "$wr0" ]
	ok $? "the IOMMU reported the write fault at 0x0 (dmesg DMAR: [DMA Write ...])"
	[ "$(ev)" -ge $((ev0 + 2)) ]
	ok $? "gaudi.ko counted both DMA7 core error events (debugfs events: $ev0 -> $(ev))"
	dmesg | grep -E "DMAR: \[DMA|DMA7 core" | tail -n 4 | sed 's/^/# /'
	ok $(($(rd 0x190) >> 31)) "DMA core 7 idle again, ERR_CAUSE $(rd 0x164), PROT $(rd 0xB8)"
}
