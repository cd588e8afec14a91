// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: debugfs, under the DRM device's directory
 * (/sys/kernel/debug/accel/<minor>/):
 *   addr          register address for data32 (CFG offset or full device
 *                 address); only CFG space, 4-byte aligned
 *   data32        read/write the register at addr
 *   device_state  status, resets, boot status, versions
 *   engines       queue managers and engines: status registers, idle or busy
 *   events        event counters (since reset / since load) with names
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/habanalabs/cpucp_if.h>
#include <drm/drm_drv.h>

#include "gaudi1/events.h"
#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi_debugfs.h"
#include "gaudi_eq.h"
#include "gaudi_hw.h"
#include "gaudi_pci.h"
#include "gaudi_scrub.h"
#include "gaudi_types.h"

static int gaudi_dbg_addr_get(void *data, u64 *val)
{
	*val = ((struct gaudi_device *)data)->dbg_addr;
	return 0;
}

static int gaudi_dbg_addr_set(void *data, u64 val)
{
	if (!gaudi_reg_addr_valid(val, 4))
		return -EINVAL;
	((struct gaudi_device *)data)->dbg_addr = val;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(gaudi_dbg_addr_fops, gaudi_dbg_addr_get,
			 gaudi_dbg_addr_set, "0x%llx\n");

static u32 gaudi_dbg_reg(struct gaudi_device *gdev)
{
	u64 addr = gdev->dbg_addr;

	return addr >= GAUDI_CFG_BASE ? addr - GAUDI_CFG_BASE : addr;
}

static int gaudi_dbg_data_get(void *data, u64 *val)
{
	struct gaudi_device *gdev = data;

	if (!gaudi_reg_addr_valid(gdev->dbg_addr, 4))
		return -EINVAL;

	CLASS(gaudi_hw, hw)(gdev);

	if (hw.ret)
		return hw.ret;
	*val = readl(gdev->pci.cfg + gaudi_dbg_reg(gdev));
	return 0;
}

static int gaudi_dbg_data_set(void *data, u64 val)
{
	struct gaudi_device *gdev = data;

	if (!gaudi_reg_addr_valid(gdev->dbg_addr, 4) || val > U32_MAX)
		return -EINVAL;

	CLASS(gaudi_hw, hw)(gdev);

	if (hw.ret)
		return hw.ret;
	writel(val, gdev->pci.cfg + gaudi_dbg_reg(gdev));
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(gaudi_dbg_data_fops, gaudi_dbg_data_get,
			 gaudi_dbg_data_set, "0x%08llx\n");

static int device_state_show(struct seq_file *m, void *unused)
{
	struct gaudi_device *gdev = m->private;
	struct gaudi_cpucp *cp = &gdev->cpucp;
	int idx;

	if (!drm_dev_enter(&gdev->drm, &idx))
		return -ENODEV;
	seq_printf(m, "status: %s\n", gaudi_status_str(READ_ONCE(gdev->status)));
	seq_printf(m, "hard_reset_cnt: %u\nfailed_resets: %u\nlast_reset_ms: %llu\n",
		   gdev->reset.hard_reset_cnt, gdev->reset.failed_cnt,
		   gdev->reset.last_duration_ms);
	seq_printf(m, "boot_status: %u\nboot_err0: 0x%08x\nboot_err1: 0x%08x\n",
		   gdev->fw.boot_status, gdev->fw.boot_err0, gdev->fw.boot_err1);
	seq_printf(m, "dev_sts0: 0x%08x\ndev_sts1: 0x%08x\n", gdev->fw.dev_sts0,
		   gdev->fw.dev_sts1);
	seq_printf(m, "preboot: %s\nuboot: %s\ncpucp: %s\n", gdev->fw.preboot_ver,
		   gdev->fw.uboot_ver, cp->info->cpucp_version);
	seq_printf(m, "cpucp_ready: %d\ncpucp_lost: %d\ncpucp_packets: %llu\ncpucp_errors: %llu\nheartbeats: %u\n",
		   cp->ready, cp->lost, cp->packets, cp->errors, cp->hb_seq);
	seq_printf(m, "events_total: %llu\n", gdev->eq.total);
	drm_dev_exit(idx);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(device_state);

static void engines_qm(struct seq_file *m, struct gaudi_device *gdev,
		       const char *name, int i, u32 base, bool *all_idle)
{
	u32 sts0 = RREG32(gdev, base + QM_GLBL_STS0);
	u32 cgm = RREG32(gdev, base + QM_CGM_STS);
	bool idle = (sts0 & QM_GLBL_STS0_IDLE) == QM_GLBL_STS0_IDLE &&
		    (cgm & QM_CGM_STS_AGENT_IDLE);

	*all_idle &= idle;
	seq_printf(m, "%s%d\tQM GLBL_STS0 0x%08x CGM_STS 0x%08x\t%s\n", name,
		   i, sts0, cgm, idle ? "idle" : "busy");
}

static int engines_show(struct seq_file *m, void *unused)
{
	struct gaudi_device *gdev = m->private;
	bool all_idle = true, idle;
	int i, idx, ret;
	u32 v;

	ret = gaudi_hw_enter(gdev, &idx);
	if (ret)
		return ret;
	for (i = 0; i < GAUDI_NUM_DMA; i++) {
		engines_qm(m, gdev, "DMA", i,
			   mmDMA0_QM_BASE + i * GAUDI_DMA_STRIDE, &all_idle);
		v = RREG32(gdev, mmDMA0_CORE_BASE + i * GAUDI_DMA_STRIDE +
			   DMA_CORE_STS0);
		idle = !(v & DMA_CORE_STS0_BUSY);
		all_idle &= idle;
		seq_printf(m, "DMA%d\tcore STS0 0x%08x\t%s\n", i, v,
			   idle ? "idle" : "busy");
	}
	for (i = 0; i < GAUDI_NUM_TPC; i++) {
		engines_qm(m, gdev, "TPC", i,
			   mmTPC0_QM_BASE + i * GAUDI_TPC_STRIDE, &all_idle);
		v = RREG32(gdev, mmTPC0_CFG_BASE + i * GAUDI_TPC_STRIDE +
			   TPC_CFG_STATUS);
		idle = (v & TPC_CFG_STATUS_IDLE) == TPC_CFG_STATUS_IDLE;
		all_idle &= idle;
		seq_printf(m, "TPC%d\tCFG_STATUS 0x%08x\t%s\n", i, v,
			   idle ? "idle" : "busy");
	}
	engines_qm(m, gdev, "MME", 0, mmMME0_QM_BASE, &all_idle);
	engines_qm(m, gdev, "MME", 2, mmMME2_QM_BASE, &all_idle);
	for (i = 0; i < GAUDI_NUM_MME; i++) {
		v = RREG32(gdev, mmMME0_CTRL_ARCH_STATUS + i * GAUDI_MME_STRIDE);
		idle = (v & MME_CTRL_ARCH_STATUS_IDLE) == MME_CTRL_ARCH_STATUS_IDLE;
		all_idle &= idle;
		seq_printf(m, "MME%d\tARCH_STATUS 0x%08x\t%s\n", i, v,
			   idle ? "idle" : "busy");
	}
	gaudi_hw_exit(gdev, idx);
	seq_printf(m, "device: %s\n", all_idle ? "idle" : "busy");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(engines);

static int events_show(struct seq_file *m, void *unused)
{
	struct gaudi_device *gdev = m->private;
	char name[96];
	u32 i, now, aggr;

	seq_puts(m, "id\tsince_reset\ttotal\tname\n");
	for (i = 0; i < GAUDI_EVENT_SIZE; i++) {
		now = READ_ONCE(gdev->eq.counters[i]);
		aggr = READ_ONCE(gdev->eq.counters_aggr[i]);
		if (!aggr)
			continue;
		seq_printf(m, "%u\t%u\t%u\t%s\n", i, now, aggr,
			   gaudi_event_name(i, name, sizeof(name)));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(events);

/* Device memory clears (gaudi_scrub.c) and what waits to be cleared. */
static int scrub_show(struct seq_file *m, void *unused)
{
	struct gaudi_device *gdev = m->private;

	gaudi_scrub_show(gdev, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(scrub);

void gaudi_debugfs_init(struct gaudi_device *gdev)
{
	struct dentry *root = gdev->drm.debugfs_root;

	if (IS_ERR_OR_NULL(root))
		return;
	debugfs_create_file_unsafe("addr", 0600, root, gdev,
				   &gaudi_dbg_addr_fops);
	debugfs_create_file_unsafe("data32", 0600, root, gdev,
				   &gaudi_dbg_data_fops);
	debugfs_create_file("device_state", 0400, root, gdev,
			    &device_state_fops);
	debugfs_create_file("engines", 0400, root, gdev, &engines_fops);
	debugfs_create_file("events", 0400, root, gdev, &events_fops);
	debugfs_create_file("scrub", 0400, root, gdev, &scrub_fops);
}
