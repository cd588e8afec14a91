# SPDX-License-Identifier: GPL-2.0-or-later
#
# What counts as a kernel problem in a gaudi-vm guest's dmesg: one
# definition for gaudi-vm's own verdict (guest-init.sh) and for the suites'
# checks.  gaudi-vm puts this file at /lib/gaudi-vm/dmesg-judge.sh in every
# guest; source it (busybox sh).
#
# Beyond the generic markers, the debug kernel's reports by name: KASAN
# ("BUG: KASAN"), KFENCE ("BUG: KFENCE"), UBSAN ("UBSAN:"), lockdep
# ("WARNING: possible circular/recursive locking", "suspicious RCU usage"),
# DEBUG_ATOMIC_SLEEP ("BUG: sleeping function called from invalid
# context"), DEBUG_LIST, refcount and the hung-task detector; DEBUG_OBJECTS
# and DMA-API debug report through WARNING.  (Not "KFENCE" or "DMA-API:"
# alone: both also log a line at boot.)  IOMMU faults (a device DMA the
# IOMMU refused) count as problems, except between the lines "gaudi-vm:
# expect DMAR faults begin" and "... end" that a test writes to /dev/kmsg
# around a fault it provokes on purpose.
GAUDI_KERNEL_PROBLEMS='WARNING|\<BUG\>|Oops|general protection|KASAN|UBSAN:|refcount_t|NOT usable|Call Trace|DMAR: \[DMA|DRHD: handling fault|possible (circular|recursive) locking|suspicious RCU usage|sleeping function called from invalid context|list_(add|del) corruption|INFO: task .* blocked for more than'

# judge_dmesg: filter kernel log lines (stdin to stdout) down to what is
# judged.  A WARNING report, from "cut here" to "end trace", becomes one
# line.  Expected IOMMU faults (see above) are dropped.  No DMA-API debug
# report is tolerated: gaudi.ko maps each host page once per device
# (Documentation/accel/gaudi.rst, "Host memory").
judge_dmesg() {
	awk '/gaudi-vm: expect DMAR faults begin/ { e = 1 }
		/gaudi-vm: expect DMAR faults end/ { e = 0 }
		e && /DMAR: (\[DMA|DRHD: handling fault)/ { next }
		/-+\[ cut here \]-+/ { w = 1; buf = $0; next }
		w { buf = buf "\n" $0
			if ($0 ~ /---\[ end trace/) {
				w = 0
				print buf
			}
			next }
		{ print }
		END { if (w) print buf }'
}

# kernel_problems: the problem lines of the kernel log on stdin (nothing
# when there is none).
kernel_problems() {
	judge_dmesg | grep -E "$GAUDI_KERNEL_PROBLEMS"
}
