// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the INFO ioctl (DRM_IOCTL_HL_INFO) of the compute and the
 * control node (the compute node's ioctl table is gaudi_drv.c's
 * gaudi_ioctls[]).
 *
 * Binary-compatible with upstream habanalabs on Gaudi 1: the same ops and
 * structs of <drm/habanalabs_accel.h>, the same size rules (at most
 * return_size bytes are written; a short buffer receives the first bytes of
 * the answer) and the same errno values.  Values come from the device: the
 * CPU-CP info block read at boot (versions, card), CPU-CP requests (clocks,
 * power, energy, PCIe counters, HBM rows), registers (idle state, device
 * time) and the driver's own counters (events, resets, opens).  The fixed
 * facts of Gaudi 1 (memory map, engine counts) are upstream's.
 */
#include <linux/bitfield.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/eventfd.h>
#include <linux/nospec.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/habanalabs/cpucp_if.h>
#include <linux/habanalabs/hl_boot_if.h>
#include <drm/drm_drv.h>
#include <drm/drm_ioctl.h>

#include "gaudi1/events.h"
#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi_acct.h"
#include "gaudi_cpucp.h"
#include "gaudi_file.h"
#include "gaudi_file_types.h"
#include "gaudi_hw.h"
#include "gaudi_info.h"
#include "gaudi_mem.h"
#include "gaudi_sched.h"
#include "gaudi_types.h"

/* Gaudi 1 facts, as upstream reports them. */
#define GAUDI_SRAM_USER_OFFSET		GAUDI_DRIVER_SRAM_RESERVED_SIZE_FROM_START
#define GAUDI_DRAM_PAGE_SIZE		SZ_2M
#define GAUDI_TPC_ENABLED_MASK		0xFF
#define GAUDI_NO_INTERRUPT_ID		U16_MAX		/* no user interrupts */
#define GAUDI_DEFAULT_CARD_NAME		"HL205"
#define GAUDI_CLK_PLL			HL_GAUDI_MME_PLL
/* First sync objects, monitors and CQs left to users, per dcore. */
#define GAUDI_WS_FIRST_USER_SOB		144
#define GAUDI_WS_FIRST_USER_MON		72
#define GAUDI_MAX_DCORES		8
/* Power envelope for DEVICE_UTILIZATION, mW (PCI card / mezzanine). */
#define GAUDI_DC_POWER_MW		60000
/* Answers up to this size need no allocation (struct gaudi_info_call). */
#define GAUDI_INFO_SMALL		128

/* ENGINE_STATUS buffer limits. */
#define GAUDI_ENGINES_DATA_MIN		SZ_1K

/*
 * One INFO call.  Ops never touch user memory: they hand their answer to
 * info_copy() or info_give(), and gaudi_info_query() copies it out once it
 * holds neither the device's SRCU nor the reset lock, so a user buffer
 * that never faults in (userfaultfd, FUSE) cannot hold off a reset or an
 * unbind.
 */
struct gaudi_info_call {
	struct gaudi_device *gdev;
	struct gaudi_file *gfile;
	struct hl_info_args *args;
	void __user *out;
	u32 size;
	void *kout;		/* the answer: kvmalloc'ed, or @small */
	size_t kout_len;
	/*
	 * Small answers (most ops) go to a buffer on gaudi_info_query()'s
	 * stack, GAUDI_INFO_SMALL bytes: no allocation on the call's path.
	 */
	void *small;
};

/* Forget the answer, freeing it unless it is held in @c->small. */
static void info_drop(struct gaudi_info_call *c)
{
	if (c->kout != c->small)
		kvfree(c->kout);
	c->kout = NULL;
	c->kout_len = 0;
}

/* Take @buf (kvmalloc'ed, @len bytes) as the answer, in place of any other. */
static void info_give(struct gaudi_info_call *c, void *buf, size_t len)
{
	info_drop(c);
	c->kout = buf;
	c->kout_len = min_t(size_t, c->size, len);
}

/* Answer at most return_size bytes of @len at @src. */
static int info_copy(struct gaudi_info_call *c, const void *src, size_t len)
{
	void *buf;

	len = min_t(size_t, c->size, len);
	if (!len)
		return 0;
	if (len <= GAUDI_INFO_SMALL) {
		info_drop(c);
		memcpy(c->small, src, len);
		c->kout = c->small;
		c->kout_len = len;
		return 0;
	}
	buf = kvmemdup(src, len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	info_give(c, buf, len);
	return 0;
}

static const struct cpucp_info *info_cpucp(struct gaudi_device *gdev)
{
	return gdev->cpucp.info;
}

/* One CPU-CP request on behalf of an INFO call. */
static int info_cpucp_send(struct gaudi_device *gdev, struct cpucp_packet *pkt,
			   unsigned int timeout_us, u64 *result)
{
	int ret = gaudi_cpucp_send(gdev, pkt, timeout_us, result);

	if (ret)
		gaudi_dbg(gdev, IOCTL, "INFO: CPU-CP opcode %u failed: %d\n",
			  (le32_to_cpu(pkt->ctl) & CPUCP_PKT_CTL_OPCODE_MASK) >>
			  CPUCP_PKT_CTL_OPCODE_SHIFT, ret);
	return ret;
}

static int info_cpucp_get(struct gaudi_device *gdev, u32 opcode, u32 index,
			  unsigned int timeout_us, u64 *result)
{
	struct cpucp_packet pkt = {};

	pkt.ctl = cpu_to_le32(opcode << CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.index = cpu_to_le32(index);
	return info_cpucp_send(gdev, &pkt, timeout_us, result);
}

/*
 * Firmware index of a PLL: the uapi index itself with legacy firmware, the
 * firmware's own numbering (and its map of present PLLs) with dynamic PLL.
 */
static int info_pll_index(struct gaudi_device *gdev, u32 index, u32 *fw_index)
{
	static const u8 fw_pll[HL_GAUDI_PLL_MAX] = {
		[HL_GAUDI_CPU_PLL] = CPU_PLL,
		[HL_GAUDI_PCI_PLL] = PCI_PLL,
		[HL_GAUDI_SRAM_PLL] = SRAM_PLL,
		[HL_GAUDI_HBM_PLL] = HBM_PLL,
		[HL_GAUDI_NIC_PLL] = NIC_PLL,
		[HL_GAUDI_DMA_PLL] = DMA_PLL,
		[HL_GAUDI_MESH_PLL] = MESH_PLL,
		[HL_GAUDI_MME_PLL] = MME_PLL,
		[HL_GAUDI_TPC_PLL] = TPC_PLL,
		[HL_GAUDI_IF_PLL] = IF_PLL,
	};
	const struct cpucp_info *ci = info_cpucp(gdev);
	u32 fw;

	if (!(gdev->fw.dev_sts0 & CPU_BOOT_DEV_STS0_DYN_PLL_EN)) {
		*fw_index = index;
		return 0;
	}
	if (index >= HL_GAUDI_PLL_MAX || !ci)
		return -EINVAL;
	fw = fw_pll[index];
	if (!(ci->pll_map[fw / 8] & BIT(fw % 8)))
		return -EINVAL;
	*fw_index = fw;
	return 0;
}

/* ---- engines and idle state ------------------------------------------- */

static bool qm_idle(u32 glbl_sts0, u32 cgm_sts)
{
	return (glbl_sts0 & QM_GLBL_STS0_IDLE) == QM_GLBL_STS0_IDLE &&
	       (cgm_sts & QM_CGM_STS_AGENT_IDLE) == QM_CGM_STS_AGENT_IDLE;
}

static void engine_line(struct seq_buf *s, const char *kind, int i, bool idle,
			u32 qm0, u32 cgm, u32 sts, bool has_qm)
{
	if (!s)
		return;
	if (has_qm)
		seq_buf_printf(s, "%s%-5d %-4s  0x%08x    0x%08x  0x%08x\n",
			       kind, i, idle ? "Y" : "N", qm0, cgm, sts);
	else
		seq_buf_printf(s, "%s%-5d %-4s  %-10s    %-10s  0x%08x\n",
			       kind, i, idle ? "Y" : "N", "-", "-", sts);
}

bool gaudi_is_idle(struct gaudi_device *gdev, u64 *busy_mask,
		   struct seq_buf *s)
{
	u32 qm0, cgm, sts;
	bool idle = true, eng_idle;
	int i;

	if (busy_mask)
		*busy_mask = 0;
	if (s)
		seq_buf_printf(s, "engine  idle  qm_glbl_sts0  qm_cgm_sts  status\n");

	for (i = 0; i < GAUDI_NUM_DMA; i++) {
		u32 off = i * GAUDI_DMA_STRIDE;

		qm0 = RREG32(gdev, mmDMA0_QM_BASE + off + QM_GLBL_STS0);
		cgm = RREG32(gdev, mmDMA0_QM_BASE + off + QM_CGM_STS);
		sts = RREG32(gdev, mmDMA0_CORE_BASE + off + DMA_CORE_STS0);
		eng_idle = qm_idle(qm0, cgm) && !(sts & DMA_CORE_STS0_BUSY);
		if (!eng_idle && busy_mask)
			*busy_mask |= BIT_ULL(GAUDI_ENGINE_ID_DMA_0 + i);
		idle &= eng_idle;
		engine_line(s, "DMA", i, eng_idle, qm0, cgm, sts, true);
	}

	for (i = 0; i < GAUDI_NUM_TPC; i++) {
		u32 off = i * GAUDI_TPC_STRIDE;

		qm0 = RREG32(gdev, mmTPC0_QM_BASE + off + QM_GLBL_STS0);
		cgm = RREG32(gdev, mmTPC0_QM_BASE + off + QM_CGM_STS);
		sts = RREG32(gdev, mmTPC0_CFG_BASE + off + TPC_CFG_STATUS);
		eng_idle = qm_idle(qm0, cgm) &&
			   (sts & TPC_CFG_STATUS_IDLE) == TPC_CFG_STATUS_IDLE;
		if (!eng_idle && busy_mask)
			*busy_mask |= BIT_ULL(GAUDI_ENGINE_ID_TPC_0 + i);
		idle &= eng_idle;
		engine_line(s, "TPC", i, eng_idle, qm0, cgm, sts, true);
	}

	/* MME1 and MME3 are slaves of MME0/MME2 and have no QMAN of their own */
	for (i = 0; i < GAUDI_NUM_MME; i++) {
		u32 off = i * GAUDI_MME_STRIDE;
		bool master = !(i & 1);

		sts = RREG32(gdev, mmMME0_CTRL_ARCH_STATUS + off);
		eng_idle = (sts & MME_CTRL_ARCH_STATUS_IDLE) == MME_CTRL_ARCH_STATUS_IDLE;
		qm0 = 0;
		cgm = 0;
		if (master) {
			qm0 = RREG32(gdev, mmMME0_QM_BASE + off + QM_GLBL_STS0);
			cgm = RREG32(gdev, mmMME0_QM_BASE + off + QM_CGM_STS);
			eng_idle &= qm_idle(qm0, cgm);
		}
		if (!eng_idle && busy_mask)
			*busy_mask |= BIT_ULL(GAUDI_ENGINE_ID_MME_0 + i);
		idle &= eng_idle;
		engine_line(s, "MME", i, eng_idle, qm0, cgm, sts, master);
	}
	/* NIC ports are not brought up by this driver: not reported. */
	return idle;
}

/* ---- ops that answer in every device state ----------------------------- */

static int info_hw_get(struct gaudi_device *gdev);
static void info_hw_put(struct gaudi_device *gdev);

static void info_pll_regs(struct gaudi_device *gdev, struct gaudi_users *u)
{
	/* With PLL_INFO_EN the firmware owns the PLLs: upstream reports 0. */
	if (u->pll_regs_read ||
	    (gdev->fw.dev_sts0 & CPU_BOOT_DEV_STS0_PLL_INFO_EN))
		return;
	/* Read once, when the device answers; 0 until then. */
	if (info_hw_get(gdev))
		return;
	u->pll_nr = RREG32(gdev, mmPSOC_CPU_PLL_NR);
	u->pll_nf = RREG32(gdev, mmPSOC_CPU_PLL_NF);
	u->pll_od = RREG32(gdev, mmPSOC_CPU_PLL_OD);
	u->pll_div = RREG32(gdev, mmPSOC_CPU_PLL_DIV_FACTOR_2);
	u->pll_regs_read = true;
	info_hw_put(gdev);
}

static int info_hw_ip(struct gaudi_info_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	struct gaudi_users *u = gdev->users;
	const struct cpucp_info *ci = info_cpucp(gdev);
	struct hl_info_hw_ip_info hw = {};
	u64 dram_user = GAUDI_HBM_SIZE - GAUDI_DRAM_USER_START;

	hw.sram_base_address = GAUDI_SRAM_BASE + GAUDI_SRAM_USER_OFFSET;
	hw.sram_size = GAUDI_SRAM_SIZE - GAUDI_SRAM_USER_OFFSET;
	hw.dram_base_address = GAUDI_DRAM_USER_START;
	hw.dram_size = round_down(dram_user, GAUDI_DRAM_PAGE_SIZE);
	hw.dram_enabled = hw.dram_size > PAGE_SIZE;
	hw.dram_page_size = GAUDI_DRAM_PAGE_SIZE;
	hw.device_mem_alloc_default_page_size = GAUDI_DRAM_PAGE_SIZE;
	hw.reserved_dram_size = GAUDI_DRAM_USER_START;
	hw.num_of_events = GAUDI_EVENT_SIZE;
	hw.device_id = gdev->pdev->device;
	hw.revision_id = gdev->pdev->revision;
	hw.tpc_enabled_mask = GAUDI_TPC_ENABLED_MASK;
	hw.tpc_enabled_mask_ext = GAUDI_TPC_ENABLED_MASK;
	hw.first_available_interrupt_id = GAUDI_NO_INTERRUPT_ID;
	hw.tpc_interrupt_id = GAUDI_NO_INTERRUPT_ID;
	hw.server_type = HL_SERVER_TYPE_UNKNOWN;
	hw.security_enabled = gdev->fw.security_enabled;
	/* nic_ports_mask and nic_ports_external_mask (gaudi_accel.h) */
	hw.reserved4 = gdev->nic.ports_mask;
	hw.reserved5 = gdev->nic.ext_ports_mask;

	info_pll_regs(gdev, u);
	hw.psoc_pci_pll_nr = u->pll_nr;
	hw.psoc_pci_pll_nf = u->pll_nf;
	hw.psoc_pci_pll_od = u->pll_od;
	hw.psoc_pci_pll_div_factor = u->pll_div;

	if (ci) {
		hw.module_id = le32_to_cpu(ci->card_location);
		hw.cpld_version = le32_to_cpu(ci->cpld_version);
		memcpy(hw.cpucp_version, ci->cpucp_version,
		       min(sizeof(hw.cpucp_version), sizeof(ci->cpucp_version)));
		hw.cpucp_version[sizeof(hw.cpucp_version) - 1] = 0;
		memcpy(hw.card_name, ci->card_name,
		       min(sizeof(hw.card_name), sizeof(ci->card_name)));
		hw.card_name[sizeof(hw.card_name) - 1] = 0;
	}
	if (!hw.card_name[0])
		strscpy(hw.card_name, GAUDI_DEFAULT_CARD_NAME,
			sizeof(hw.card_name));

	return info_copy(c, &hw, sizeof(hw));
}

static int info_device_status(struct gaudi_info_call *c)
{
	struct hl_info_device_status st = {};

	st.status = READ_ONCE(c->gdev->status);
	return info_copy(c, &st, sizeof(st));
}

static int info_reset_count(struct gaudi_info_call *c)
{
	struct hl_info_reset_count rc = {};

	rc.hard_reset_cnt = READ_ONCE(c->gdev->reset.hard_reset_cnt);
	rc.soft_reset_cnt = READ_ONCE(c->gdev->reset.soft_reset_cnt);
	return info_copy(c, &rc, sizeof(rc));
}

static int info_events(struct gaudi_info_call *c, bool aggregate)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	size_t len = sizeof(eq->counters);
	u32 *snap;
	int ret;

	snap = kmalloc(len, GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	spin_lock_irq(&eq->lock);
	memcpy(snap, aggregate ? eq->counters_aggr : eq->counters, len);
	spin_unlock_irq(&eq->lock);
	ret = info_copy(c, snap, len);
	kfree(snap);
	return ret;
}

static int info_hw_events(struct gaudi_info_call *c)
{
	return info_events(c, false);
}

static int info_hw_events_aggregate(struct gaudi_info_call *c)
{
	return info_events(c, true);
}

static int info_cs_counters(struct gaudi_info_call *c)
{
	struct hl_info_cs_counters cnt;

	gaudi_cs_counters(c->gdev, c->gfile, &cnt);
	return info_copy(c, &cnt, sizeof(cnt));
}

static int info_clk_throttle(struct gaudi_info_call *c)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	struct hl_info_clk_throttle ct = {};

	spin_lock_irq(&eq->lock);
	ct.clk_throttling_reason = eq->clk_throttle;
	spin_unlock_irq(&eq->lock);
	return info_copy(c, &ct, sizeof(ct));
}

static int info_sync_manager(struct gaudi_info_call *c)
{
	struct hl_info_sync_manager sm = {};

	if (c->args->dcore_id >= GAUDI_MAX_DCORES)
		return -EINVAL;
	if (c->args->dcore_id == HL_GAUDI_WS_DCORE) {
		sm.first_available_sync_object = GAUDI_WS_FIRST_USER_SOB;
		sm.first_available_monitor = GAUDI_WS_FIRST_USER_MON;
	}
	sm.first_available_cq = U16_MAX;
	return info_copy(c, &sm, sizeof(sm));
}

static int info_open_stats(struct gaudi_info_call *c)
{
	struct gaudi_users *u = c->gdev->users;
	struct hl_open_stats_info os = {};

	mutex_lock(&u->lock);
	os.open_counter = u->open_counter;
	os.last_open_period_ms = u->last_open_period_ms;
	os.is_compute_ctx_active = !!u->compute;
	/* Release is synchronous: a context is never seen half released. */
	os.compute_ctx_in_release = 0;
	mutex_unlock(&u->lock);
	return info_copy(c, &os, sizeof(os));
}

static int info_last_err_open_dev_time(struct gaudi_info_call *c)
{
	struct gaudi_users *u = c->gdev->users;
	struct hl_info_last_err_open_dev_time t = {};

	mutex_lock(&u->lock);
	t.timestamp = ktime_to_ns(u->last_open);
	mutex_unlock(&u->lock);
	return info_copy(c, &t, sizeof(t));
}

static int info_cs_timeout_event(struct gaudi_info_call *c)
{
	struct hl_info_cs_timeout_event ev = {};

	/* Nothing captured: success, the buffer is left untouched. */
	if (!gaudi_cs_timeout_event(c->gdev, &ev))
		return 0;
	return info_copy(c, &ev, sizeof(ev));
}

/*
 * Captured errors: the first one since the compute node was last opened.
 * Nothing captured: success and the buffer is left untouched (upstream).
 */
static int info_razwi_event(struct gaudi_info_call *c)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	struct hl_info_razwi_event ev;
	bool valid;

	spin_lock_irq(&eq->lock);
	valid = eq->cap.razwi_valid;
	ev = eq->cap.razwi;
	spin_unlock_irq(&eq->lock);
	return valid ? info_copy(c, &ev, sizeof(ev)) : 0;
}

static int info_page_fault_event(struct gaudi_info_call *c)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	struct hl_page_fault_info ev;
	bool valid;

	spin_lock_irq(&eq->lock);
	valid = eq->cap.page_fault_valid;
	ev = eq->cap.page_fault;
	spin_unlock_irq(&eq->lock);
	return valid ? info_copy(c, &ev, sizeof(ev)) : 0;
}

/* The mappings the context had at the captured page fault (gaudi_mem.c). */
static int info_user_mappings(struct gaudi_info_call *c)
{
	size_t len;
	void *buf;
	int ret;

	ret = gaudi_mem_pf_mappings(c->gdev, c->size, &c->args->array_size,
				    &buf, &len);
	if (!ret && buf)
		info_give(c, buf, len);
	return ret;
}

static int info_undefined_opcode_event(struct gaudi_info_call *c)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	struct hl_info_undefined_opcode_event *ev;
	int ret;

	/* Always answered; all zero (timestamp 0) when nothing captured. */
	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	spin_lock_irq(&eq->lock);
	if (eq->cap.undef_opcode_valid)
		*ev = eq->cap.undef_opcode;
	spin_unlock_irq(&eq->lock);
	ret = info_copy(c, ev, sizeof(*ev));
	kfree(ev);
	return ret;
}

static int info_dev_mem_alloc_page_sizes(struct gaudi_info_call *c)
{
	/* Gaudi 1 has no device-memory MMU: no page sizes to choose from. */
	struct hl_info_dev_memalloc_page_sizes ps = {};

	return info_copy(c, &ps, sizeof(ps));
}

/*
 * HW_ERR, FW_ERR and USER_ENGINE_ERR events: a NULL buffer fails; nothing
 * captured succeeds without writing; a buffer smaller than the record fails
 * with ENOMEM; otherwise exactly the record is written.
 */
static int info_err_record(struct gaudi_info_call *c, bool valid,
			   const void *rec, size_t len)
{
	if (!valid)
		return 0;
	if (c->size < len)
		return -ENOMEM;
	return info_copy(c, rec, len);
}

static int info_hw_err_event(struct gaudi_info_call *c)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	struct hl_info_hw_err_event ev;
	bool valid;

	spin_lock_irq(&eq->lock);
	valid = eq->cap.hw_err_valid;
	ev = eq->cap.hw_err;
	spin_unlock_irq(&eq->lock);
	return info_err_record(c, valid, &ev, sizeof(ev));
}

static int info_fw_err_event(struct gaudi_info_call *c)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	struct hl_info_fw_err_event ev;
	bool valid;

	spin_lock_irq(&eq->lock);
	valid = eq->cap.fw_err_valid;
	ev = eq->cap.fw_err;
	spin_unlock_irq(&eq->lock);
	return info_err_record(c, valid, &ev, sizeof(ev));
}

static int info_engine_err_event(struct gaudi_info_call *c)
{
	struct gaudi_eq *eq = &c->gdev->eq;
	struct hl_info_engine_err_event ev;
	bool valid;

	spin_lock_irq(&eq->lock);
	valid = eq->cap.engine_err_valid;
	ev = eq->cap.engine_err;
	spin_unlock_irq(&eq->lock);
	return info_err_record(c, valid, &ev, sizeof(ev));
}

static int info_dram_usage(struct gaudi_info_call *c)
{
	struct hl_info_dram_usage du;

	/* All user HBM is free unless the ALLOC extension took some. */
	gaudi_mem_dram_usage(c->gdev, c->gfile, &du);
	return info_copy(c, &du, sizeof(du));
}

static int info_get_events(struct gaudi_info_call *c)
{
	struct gaudi_users *u = c->gdev->users;
	u64 events;

	spin_lock_irq(&u->notify_lock);
	events = c->gfile->events;
	c->gfile->events = 0;
	spin_unlock_irq(&u->notify_lock);
	return info_copy(c, &events, sizeof(events));
}

static int info_unregister_eventfd(struct gaudi_info_call *c)
{
	struct gaudi_users *u = c->gdev->users;
	struct eventfd_ctx *ctx;

	spin_lock_irq(&u->notify_lock);
	ctx = c->gfile->eventfd;
	c->gfile->eventfd = NULL;
	spin_unlock_irq(&u->notify_lock);
	if (!ctx)
		return -EINVAL;
	eventfd_ctx_put(ctx);
	return 0;
}

/* ---- ops that need an operational device -------------------------------- */

static int info_hw_idle(struct gaudi_info_call *c)
{
	struct hl_info_hw_idle hi = {};
	u64 busy;

	hi.is_idle = gaudi_is_idle(c->gdev, &busy, NULL);
	hi.busy_engines_mask_ext[0] = busy;
	hi.busy_engines_mask = lower_32_bits(busy);
	return info_copy(c, &hi, sizeof(hi));
}

static u64 info_max_power_mw(struct gaudi_device *gdev)
{
	return gdev->cpucp.max_power_mw ?:
	       gaudi_cpucp_default_max_power_mw(gdev);
}

static int info_power_get(struct gaudi_device *gdev, u64 *power)
{
	struct cpucp_packet pkt = {};

	pkt.ctl = cpu_to_le32(CPUCP_PACKET_POWER_GET <<
			      CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.type = cpu_to_le16(CPUCP_POWER_INPUT);
	return info_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, power);
}

static int info_device_utilization(struct gaudi_info_call *c)
{
	struct hl_info_device_utilization du = {};
	u64 max = info_max_power_mw(c->gdev), dc = GAUDI_DC_POWER_MW, power;

	/*
	 * Share of the power envelope above the idle (DC) power, in %.  The
	 * device CPU reports power in uW (the hwmon unit it also serves to
	 * power1_input); the envelope is in mW.
	 */
	if (info_power_get(c->gdev, &power))
		return -EINVAL;
	power = clamp(div_u64(power, 1000), dc, max);
	du.utilization = div64_u64((power - dc) * 100, max - dc);
	return info_copy(c, &du, sizeof(du));
}

static int info_clk_rate(struct gaudi_info_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	struct hl_info_clk_rate clk = {};
	u32 pll;
	u64 hz;
	int ret;

	ret = info_pll_index(gdev, GAUDI_CLK_PLL, &pll);
	if (ret)
		return ret;
	ret = info_cpucp_get(gdev, CPUCP_PACKET_FREQUENCY_GET, pll,
			     GAUDI_CPUCP_TIMEOUT_US, &hz);
	if (ret)
		return ret;
	clk.max_clk_rate_mhz = div_u64(hz, 1000000);
	ret = info_cpucp_get(gdev, CPUCP_PACKET_FREQUENCY_CURR_GET, pll,
			     GAUDI_CPUCP_TIMEOUT_US, &hz);
	if (ret)
		return ret;
	clk.cur_clk_rate_mhz = div_u64(hz, 1000000);
	return info_copy(c, &clk, sizeof(clk));
}

static int info_time_sync(struct gaudi_info_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	struct hl_info_time_sync ts = {};
	u32 hi, lo;

	hi = RREG32(gdev, mmPSOC_TIMESTAMP_CNTCVU);
	lo = RREG32(gdev, mmPSOC_TIMESTAMP_CNTCVL);
	ts.device_time = (u64)hi << 32 | lo;
	ts.host_time = ktime_get_raw_ns();
	ts.tsc_time = get_cycles();
	return info_copy(c, &ts, sizeof(ts));
}

static int info_pci_counters(struct gaudi_info_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	struct hl_info_pci_counters pc = {};
	u64 val;
	int ret;

	ret = info_cpucp_get(gdev, CPUCP_PACKET_PCIE_THROUGHPUT_GET,
			     cpucp_pcie_throughput_rx,
			     GAUDI_CPUCP_INFO_TIMEOUT_US, &val);
	if (ret)
		return ret;
	pc.rx_throughput = val;
	ret = info_cpucp_get(gdev, CPUCP_PACKET_PCIE_THROUGHPUT_GET,
			     cpucp_pcie_throughput_tx,
			     GAUDI_CPUCP_INFO_TIMEOUT_US, &val);
	if (ret)
		return ret;
	pc.tx_throughput = val;
	ret = info_cpucp_get(gdev, CPUCP_PACKET_PCIE_REPLAY_CNT_GET, 0,
			     GAUDI_CPUCP_INFO_TIMEOUT_US, &val);
	if (ret)
		return ret;
	pc.replay_cnt = lower_32_bits(val);
	return info_copy(c, &pc, sizeof(pc));
}

static int info_total_energy(struct gaudi_info_call *c)
{
	struct hl_info_energy en = {};
	int ret;

	ret = info_cpucp_get(c->gdev, CPUCP_PACKET_TOTAL_ENERGY_GET, 0,
			     GAUDI_CPUCP_INFO_TIMEOUT_US,
			     &en.total_energy_consumption);
	if (ret)
		return ret;
	return info_copy(c, &en, sizeof(en));
}

static int info_pll_frequency(struct gaudi_info_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	struct hl_pll_frequency_info pf = {};
	struct cpucp_packet pkt = {};
	u32 pll;
	u64 res;
	int ret;

	ret = info_pll_index(gdev, c->args->pll_index, &pll);
	if (ret)
		return ret;
	pkt.ctl = cpu_to_le32(CPUCP_PACKET_PLL_INFO_GET <<
			      CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.pll_type = cpu_to_le16((u16)pll);
	ret = info_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, &res);
	if (ret)
		return ret;
	pf.output[0] = FIELD_GET(CPUCP_PKT_RES_PLL_OUT0_MASK, res);
	pf.output[1] = FIELD_GET(CPUCP_PKT_RES_PLL_OUT1_MASK, res);
	pf.output[2] = FIELD_GET(CPUCP_PKT_RES_PLL_OUT2_MASK, res);
	pf.output[3] = FIELD_GET(CPUCP_PKT_RES_PLL_OUT3_MASK, res);
	return info_copy(c, &pf, sizeof(pf));
}

static int info_power(struct gaudi_info_call *c)
{
	struct hl_power_info pw = {};
	int ret;

	ret = info_power_get(c->gdev, &pw.power);
	if (ret)
		return ret;
	return info_copy(c, &pw, sizeof(pw));
}

/*
 * DRAM_REPLACED_ROWS answers what upstream answers: the firmware writes the
 * replaced-rows report into an 8-byte buffer (one struct cpucp_hbm_row_info
 * worth, i.e. the report's num_replaced_rows and padding) and those 8 bytes
 * are returned.
 */
static int info_dram_replaced_rows(struct gaudi_info_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	struct cpucp_hbm_row_info rows;
	struct cpucp_packet pkt = {};
	size_t len = sizeof(rows);
	void *buf;
	u64 addr;
	int ret;

	buf = gaudi_cpucp_buf_alloc(gdev, len, &addr);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0, len);
	pkt.ctl = cpu_to_le32(CPUCP_PACKET_HBM_REPLACED_ROWS_INFO_GET <<
			      CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.addr = cpu_to_le64(addr);
	pkt.data_max_size = cpu_to_le32(len);
	ret = info_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, NULL);
	if (!ret)
		memcpy(&rows, buf, len);
	gaudi_cpucp_buf_free(gdev, len, buf);
	if (ret)
		return ret;
	return info_copy(c, &rows, len);
}

static int info_dram_pending_rows(struct gaudi_info_call *c)
{
	u64 res;
	u32 rows;
	int ret;

	ret = info_cpucp_get(c->gdev, CPUCP_PACKET_HBM_PENDING_ROWS_STATUS, 0,
			     GAUDI_CPUCP_TIMEOUT_US, &res);
	if (ret)
		return ret;
	rows = lower_32_bits(res);
	return info_copy(c, &rows, sizeof(rows));
}

static int info_register_eventfd(struct gaudi_info_call *c)
{
	struct gaudi_users *u = c->gdev->users;
	struct eventfd_ctx *ctx;
	bool busy;

	ctx = eventfd_ctx_fdget(c->args->eventfd);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	spin_lock_irq(&u->notify_lock);
	busy = c->gfile->eventfd;
	if (!busy)
		c->gfile->eventfd = ctx;
	spin_unlock_irq(&u->notify_lock);
	if (busy) {
		/* one eventfd per file */
		eventfd_ctx_put(ctx);
		return -EINVAL;
	}
	return 0;
}

static int info_engine_status(struct gaudi_info_call *c)
{
	struct seq_buf s;
	size_t len;
	char *buf;

	buf = kvmalloc(c->size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, c->size);
	gaudi_is_idle(c->gdev, NULL, &s);
	if (seq_buf_has_overflowed(&s)) {
		kvfree(buf);
		return -ENOMEM;
	}
	len = seq_buf_used(&s);
	c->args->user_buffer_actual_size = len;
	info_give(c, buf, len);
	return 0;
}

/*
 * A firmware request that fills a buffer: @size bytes at a CPU-accessible
 * address, copied to @data on success.
 */
static int info_fw_buf_request(struct gaudi_device *gdev, u32 opcode,
			       void *data, u32 size, u32 nonce)
{
	struct cpucp_packet pkt = {};
	void *buf;
	u64 addr;
	int ret;

	buf = gaudi_cpucp_buf_alloc(gdev, size, &addr);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0, size);
	pkt.ctl = cpu_to_le32(opcode << CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.addr = cpu_to_le64(addr);
	pkt.data_max_size = cpu_to_le32(size);
	pkt.nonce = cpu_to_le32(nonce);
	ret = info_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, NULL);
	if (!ret)
		memcpy(data, buf, size);
	gaudi_cpucp_buf_free(gdev, size, buf);
	return ret;
}

/* Attestation report of the boot, as the firmware signs it. */
static int info_secured_attestation(struct gaudi_info_call *c)
{
	struct cpucp_sec_attest_info *fw;
	struct hl_info_sec_attest *out;
	int ret = -ENOMEM;

	fw = kzalloc(sizeof(*fw), GFP_KERNEL);
	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!fw || !out)
		goto out;
	ret = info_fw_buf_request(c->gdev, CPUCP_PACKET_SEC_ATTEST_GET, fw,
				  sizeof(*fw), c->args->sec_attest_nonce);
	if (ret)
		goto out;
	out->nonce = le32_to_cpu(fw->nonce);
	out->pcr_quote_len = le16_to_cpu(fw->pcr_quote_len);
	out->pub_data_len = le16_to_cpu(fw->pub_data_len);
	out->certificate_len = le16_to_cpu(fw->certificate_len);
	out->pcr_num_reg = fw->pcr_num_reg;
	out->pcr_reg_len = fw->pcr_reg_len;
	out->quote_sig_len = fw->quote_sig_len;
	memcpy(out->pcr_data, fw->pcr_data, sizeof(out->pcr_data));
	memcpy(out->pcr_quote, fw->pcr_quote, sizeof(out->pcr_quote));
	memcpy(out->quote_sig, fw->quote_sig, sizeof(out->quote_sig));
	memcpy(out->public_data, fw->public_data, sizeof(out->public_data));
	memcpy(out->certificate, fw->certificate, sizeof(out->certificate));
	ret = info_copy(c, out, sizeof(*out));
out:
	kfree(out);
	kfree(fw);
	return ret;
}

/* The CPU-CP info block, signed by the firmware. */
static int info_dev_signed(struct gaudi_info_call *c)
{
	struct cpucp_dev_info_signed *fw;
	struct hl_info_signed *out;
	int ret = -ENOMEM;

	BUILD_BUG_ON(sizeof(fw->info) > sizeof(out->dev_info));
	fw = kzalloc(sizeof(*fw), GFP_KERNEL);
	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!fw || !out)
		goto out;
	ret = info_fw_buf_request(c->gdev, CPUCP_PACKET_INFO_SIGNED_GET, fw,
				  sizeof(*fw), c->args->sec_attest_nonce);
	if (ret)
		goto out;
	out->nonce = le32_to_cpu(fw->nonce);
	out->info_sig_len = fw->info_sig_len;
	out->pub_data_len = le16_to_cpu(fw->pub_data_len);
	out->certificate_len = le16_to_cpu(fw->certificate_len);
	out->dev_info_len = sizeof(fw->info);
	memcpy(out->info_sig, fw->info_sig, sizeof(out->info_sig));
	memcpy(out->public_data, fw->public_data, sizeof(out->public_data));
	memcpy(out->certificate, fw->certificate, sizeof(out->certificate));
	memcpy(out->dev_info, &fw->info, sizeof(fw->info));
	ret = info_copy(c, out, sizeof(*out));
out:
	kfree(out);
	kfree(fw);
	return ret;
}

/*
 * A generic firmware request (only HL_PASSTHROUGH_VERSIONS is defined):
 * the firmware fills up to return_size bytes and says how many.
 */
static int info_fw_generic_req(struct gaudi_info_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	struct cpucp_packet pkt = {};
	u64 addr, res = 0;
	void *buf;
	int ret;

	if (c->args->fw_sub_opcode != HL_PASSTHROUGH_VERSIONS ||
	    c->size > SZ_1M)
		return -EINVAL;
	buf = c->size ? gaudi_cpucp_buf_alloc(gdev, c->size, &addr) : NULL;
	if (!buf)
		return -ENOMEM;
	memset(buf, 0, c->size);
	pkt.ctl = cpu_to_le32(CPUCP_PACKET_GENERIC_PASSTHROUGH <<
			      CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.addr = cpu_to_le64(addr);
	pkt.data_max_size = cpu_to_le32(c->size);
	pkt.pkt_subidx = cpu_to_le32(c->args->fw_sub_opcode);
	ret = info_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, &res);
	if (!ret)
		ret = info_copy(c, buf, min_t(u64, lower_32_bits(res), c->size));
	gaudi_cpucp_buf_free(gdev, c->size, buf);
	return ret;
}

/* ---- dispatch ------------------------------------------------------------ */

/* How an op checks the user's buffer before it runs. */
enum info_buf_rule {
	BUF_SIZED,	/* return_size and return_pointer must be non-zero */
	BUF_U64,	/* return_size >= 8 and return_pointer non-zero */
	BUF_PTR,	/* return_pointer must be non-zero */
	BUF_ENGINES,	/* 1 KiB <= return_size <= 1 MiB, pointer non-zero */
	BUF_NONE,	/* no buffer */
};

struct gaudi_info_op {
	int (*fn)(struct gaudi_info_call *c);
	u8 buf;		/* enum info_buf_rule */
	bool hw;	/* needs an operational device (else EBUSY) */
	bool no_ctrl;	/* EOPNOTSUPP on the control node */
	bool priv;	/* control node: root or the holder's user only */
};

#define OP(_op, _fn, _buf) \
	[_op] = { .fn = _fn, .buf = _buf }
#define OP_HW(_op, _fn, _buf) \
	[_op] = { .fn = _fn, .buf = _buf, .hw = true }
/* Answers about the holder's work (addresses) or that use the card's key. */
#define OP_PRIV(_op, _fn, _buf, _hw) \
	[_op] = { .fn = _fn, .buf = _buf, .hw = _hw, .priv = true }

static const struct gaudi_info_op gaudi_info_ops[] = {
	OP(HL_INFO_HW_IP_INFO, info_hw_ip, BUF_SIZED),
	OP(HL_INFO_DEVICE_STATUS, info_device_status, BUF_SIZED),
	OP(HL_INFO_RESET_COUNT, info_reset_count, BUF_SIZED),
	OP(HL_INFO_HW_EVENTS, info_hw_events, BUF_SIZED),
	OP(HL_INFO_HW_EVENTS_AGGREGATE, info_hw_events_aggregate, BUF_SIZED),
	OP(HL_INFO_CS_COUNTERS, info_cs_counters, BUF_SIZED),
	OP(HL_INFO_CLK_THROTTLE_REASON, info_clk_throttle, BUF_SIZED),
	OP(HL_INFO_SYNC_MANAGER, info_sync_manager, BUF_SIZED),
	OP(HL_INFO_OPEN_STATS, info_open_stats, BUF_SIZED),
	OP(HL_INFO_LAST_ERR_OPEN_DEV_TIME, info_last_err_open_dev_time,
	   BUF_SIZED),
	OP_PRIV(HL_INFO_CS_TIMEOUT_EVENT, info_cs_timeout_event, BUF_SIZED,
		false),
	OP_PRIV(HL_INFO_RAZWI_EVENT, info_razwi_event, BUF_SIZED, false),
	OP_PRIV(HL_INFO_UNDEFINED_OPCODE_EVENT, info_undefined_opcode_event,
		BUF_SIZED, false),
	OP(HL_INFO_DEV_MEM_ALLOC_PAGE_SIZES, info_dev_mem_alloc_page_sizes,
	   BUF_SIZED),
	[HL_INFO_GET_EVENTS] = { .fn = info_get_events, .buf = BUF_U64,
				 .no_ctrl = true },
	OP_PRIV(HL_INFO_PAGE_FAULT_EVENT, info_page_fault_event, BUF_SIZED,
		false),
	OP_PRIV(HL_INFO_USER_MAPPINGS, info_user_mappings, BUF_SIZED, false),
	[HL_INFO_UNREGISTER_EVENTFD] = { .fn = info_unregister_eventfd,
					 .buf = BUF_NONE, .no_ctrl = true },
	OP_PRIV(HL_INFO_HW_ERR_EVENT, info_hw_err_event, BUF_PTR, false),
	OP_PRIV(HL_INFO_FW_ERR_EVENT, info_fw_err_event, BUF_PTR, false),
	OP_PRIV(HL_INFO_USER_ENGINE_ERR_EVENT, info_engine_err_event, BUF_PTR,
		false),
	OP(HL_INFO_DRAM_USAGE, info_dram_usage, BUF_SIZED),

	OP_HW(HL_INFO_HW_IDLE, info_hw_idle, BUF_SIZED),
	OP_HW(HL_INFO_DEVICE_UTILIZATION, info_device_utilization, BUF_SIZED),
	OP_HW(HL_INFO_CLK_RATE, info_clk_rate, BUF_SIZED),
	OP_HW(HL_INFO_TIME_SYNC, info_time_sync, BUF_SIZED),
	OP_HW(HL_INFO_PCI_COUNTERS, info_pci_counters, BUF_SIZED),
	OP_HW(HL_INFO_TOTAL_ENERGY, info_total_energy, BUF_SIZED),
	OP_HW(HL_INFO_PLL_FREQUENCY, info_pll_frequency, BUF_SIZED),
	OP_HW(HL_INFO_POWER, info_power, BUF_SIZED),
	OP_HW(HL_INFO_DRAM_REPLACED_ROWS, info_dram_replaced_rows, BUF_SIZED),
	OP_HW(HL_INFO_DRAM_PENDING_ROWS, info_dram_pending_rows, BUF_SIZED),
	OP_PRIV(HL_INFO_SECURED_ATTESTATION, info_secured_attestation,
		BUF_SIZED, true),
	[HL_INFO_REGISTER_EVENTFD] = { .fn = info_register_eventfd,
				       .buf = BUF_NONE, .hw = true,
				       .no_ctrl = true },
	OP_HW(HL_INFO_ENGINE_STATUS, info_engine_status, BUF_ENGINES),
	OP_HW(HL_INFO_FW_GENERIC_REQ, info_fw_generic_req, BUF_NONE),
	OP_PRIV(HL_INFO_DEV_SIGNED, info_dev_signed, BUF_SIZED, true),
};

/* Ops that give an answer (bit set in drm_gaudi_query_caps.info_ops). */
u64 gaudi_info_ops_mask(bool control)
{
	u64 mask = 0;
	unsigned int op;

	for (op = 0; op < ARRAY_SIZE(gaudi_info_ops) && op < 64; op++) {
		const struct gaudi_info_op *d = &gaudi_info_ops[op];

		if (!d->fn)
			continue;
		if (control && d->no_ctrl)
			continue;
		mask |= BIT_ULL(op);
	}
	return mask;
}

static bool info_buf_ok(const struct gaudi_info_call *c, enum info_buf_rule r)
{
	switch (r) {
	case BUF_SIZED:
		return c->size && c->out;
	case BUF_U64:
		return c->size >= sizeof(u64) && c->out;
	case BUF_PTR:
		return c->out;
	case BUF_ENGINES:
		return c->size >= GAUDI_ENGINES_DATA_MIN &&
		       c->size <= HL_ENGINES_DATA_MAX_SIZE && c->out;
	case BUF_NONE:
	default:
		return true;
	}
}

/*
 * Is the device operational for ops that talk to it?  Holds off a reset
 * until info_hw_put(); a reset in progress answers EBUSY at once.
 */
static int info_hw_get(struct gaudi_device *gdev)
{
	enum gaudi_status st;

	if (!down_read_trylock(&gdev->reset.rwsem))
		return -EBUSY;
	st = READ_ONCE(gdev->status);
	if (st != GAUDI_STATUS_OPERATIONAL &&
	    st != GAUDI_STATUS_IN_DEVICE_CREATION) {
		up_read(&gdev->reset.rwsem);
		return -EBUSY;
	}
	return 0;
}

static void info_hw_put(struct gaudi_device *gdev)
{
	up_read(&gdev->reset.rwsem);
}

/*
 * The control node is open to every user: what tells of the holder's work
 * (captured errors with its addresses, its mappings) or signs with the
 * card's key goes only to root and to the user of the last holder.
 */
static bool info_ctrl_may_see(struct gaudi_device *gdev)
{
	struct gaudi_users *u = gdev->users;
	bool ok;

	if (capable(CAP_SYS_ADMIN))
		return true;
	mutex_lock(&u->lock);
	ok = u->open_counter && uid_eq(current_euid(), u->last_uid);
	mutex_unlock(&u->lock);
	return ok;
}

int gaudi_info_query(struct gaudi_device *gdev, struct gaudi_file *gfile,
		     struct hl_info_args *args)
{
	u64 small[GAUDI_INFO_SMALL / sizeof(u64)];
	struct gaudi_info_call c = {
		.gdev = gdev,
		.gfile = gfile,
		.args = args,
		.out = u64_to_user_ptr(args->return_pointer),
		.size = args->return_size,
		.small = small,
	};
	const struct gaudi_info_op *d = NULL;
	int ret, idx;

	if (args->op < ARRAY_SIZE(gaudi_info_ops)) {
		u32 op = array_index_nospec(args->op, ARRAY_SIZE(gaudi_info_ops));

		if (gaudi_info_ops[op].fn)
			d = &gaudi_info_ops[op];
	}
	/* The control node refuses notifier ops before looking further. */
	if (d && d->no_ctrl && gfile->control)
		return -EOPNOTSUPP;
	if (d && d->priv && gfile->control && !info_ctrl_may_see(gdev)) {
		gaudi_dbg(gdev, IOCTL, "INFO op %u: root or the holder's user only on the control node\n",
			  args->op);
		return -EPERM;
	}
	if (args->pad) {
		gaudi_dbg(gdev, IOCTL, "INFO: pad is not zero\n");
		return -EINVAL;
	}

	/* Ops that may ask the device CPU: one per file at a time. */
	if (d && d->hw && mutex_lock_interruptible(&gfile->info_lock))
		return -EINTR;
	if (!drm_dev_enter(&gdev->drm, &idx)) {
		ret = -ENODEV;
		goto out_unlock;
	}

	if (!d || d->hw) {
		ret = info_hw_get(gdev);
		if (ret) {
			gaudi_dbg(gdev, IOCTL, "INFO op %u: device is %s\n",
				  args->op,
				  gaudi_status_str(READ_ONCE(gdev->status)));
			goto out;
		}
	}
	if (!d) {
		gaudi_dbg(gdev, IOCTL, "INFO: unknown op %u\n", args->op);
		ret = -EINVAL;
	} else if (!info_buf_ok(&c, d->buf)) {
		gaudi_dbg(gdev, IOCTL, "INFO op %u: bad buffer (%u bytes)\n",
			  args->op, args->return_size);
		ret = -EINVAL;
	} else {
		ret = d->fn(&c);
	}
	if (!d || d->hw)
		info_hw_put(gdev);
out:
	drm_dev_exit(idx);
out_unlock:
	if (d && d->hw)
		mutex_unlock(&gfile->info_lock);
	if (!ret && c.kout_len && copy_to_user(c.out, c.kout, c.kout_len))
		ret = -EFAULT;
	info_drop(&c);
	return ret;
}

int gaudi_info_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	return gaudi_info_query(to_gaudi(drm), file->driver_priv, data);
}

int gaudi_query_caps_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	return gaudi_file_query_caps(to_gaudi(drm), false, data);
}

int gaudi_owner_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	return gaudi_file_owner(to_gaudi(drm), data);
}

int gaudi_accounting_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	return gaudi_acct_query(to_gaudi(drm), data);
}
