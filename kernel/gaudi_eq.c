// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the event queue.
 *
 * The device CPU posts 64-byte entries to a 64-entry ring in CPU-accessible
 * memory and raises the (single) MSI.  The threaded IRQ handler consumes
 * them: clear READY, tell the device the next slot it will read
 * (EQ_RD_OFFS), count the event, log errors (rate limited), keep the first
 * razwi / page fault / undefined opcode / hardware and firmware error since
 * the last clear for the INFO ioctl, and start recovery on fatal events.
 */
#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/kcov.h>
#include <linux/ktime.h>
#include <linux/habanalabs/cpucp_if.h>

#include "gaudi1/events.h"
#include "gaudi1/nic.h"
#include "gaudi1/regs.h"
#include "gaudi_eq.h"
#include "gaudi_file.h"
#include "gaudi_hw.h"
#include "gaudi_nic.h"
#include "gaudi_reset.h"
#include "gaudi_sched.h"
#include "gaudi_types.h"

enum gaudi_ev_class {
	EV_INFO,	/* counted, logged at debug level */
	EV_SERR,	/* corrected ECC error: rate-limited warning */
	EV_DERR,	/* uncorrectable ECC error: fatal */
	EV_FATAL,	/* other fatal hardware/firmware condition */
	EV_RAZWI,	/* illegal transaction (read as zero, write ignored) */
	EV_PAGE_FAULT,
	EV_QM,		/* queue manager error (undefined opcode...) */
	EV_ENGINE,	/* engine error (DMA core, TPC kernel, MME) */
	EV_THROTTLE,
	EV_NIC,		/* a NIC port's status or QP error: the network driver */
};

struct gaudi_ev_range {
	u16 first, last;	/* inclusive */
	u8 cls;
	u8 step;		/* ids per unit: name index = (id - first) / step */
	const char *name;	/* printf format with the unit index */
};

/* Upstream's gaudi_async_event_id values, grouped. */
static const struct gaudi_ev_range gaudi_ev_ranges[] = {
	{ 32, 32, EV_SERR, 1, "PCIe core" },
	{ 33, 33, EV_DERR, 1, "PCIe core" },
	{ 34, 34, EV_SERR, 1, "PCIe interface" },
	{ 35, 35, EV_DERR, 1, "PCIe interface" },
	{ 36, 36, EV_SERR, 1, "PCIe PHY" },
	{ 37, 37, EV_DERR, 1, "PCIe PHY" },
	{ 38, 45, EV_SERR, 1, "TPC%u" },
	{ 46, 53, EV_DERR, 1, "TPC%u" },
	{ 54, 69, EV_SERR, 1, "MME%u" },	/* SERR/DERR pairs, below */
	{ 70, 77, EV_SERR, 1, "DMA%u" },
	{ 78, 85, EV_DERR, 1, "DMA%u" },
	{ 86, 86, EV_SERR, 1, "CPU interface" },
	{ 87, 87, EV_DERR, 1, "CPU interface" },
	{ 88, 89, EV_SERR, 1, "PSOC memory" },
	{ 90, 91, EV_DERR, 1, "PSOC memory" },
	{ 92, 123, EV_SERR, 1, "SRAM bank %u" },
	{ 124, 155, EV_DERR, 1, "SRAM bank %u" },
	{ 156, 160, EV_SERR, 1, "NIC%u" },
	{ 166, 170, EV_DERR, 1, "NIC%u" },
	{ 176, 179, EV_SERR, 1, "DMA interface %u" },
	{ 180, 183, EV_DERR, 1, "DMA interface %u" },
	{ 184, 184, EV_FATAL, 1, "GIC500 interrupt controller error" },
	{ 185, 188, EV_SERR, 1, "HBM%u" },
	{ 189, 192, EV_DERR, 1, "HBM%u" },
	{ 193, 193, EV_SERR, 1, "MMU" },
	{ 194, 194, EV_DERR, 1, "MMU" },
	{ 200, 200, EV_RAZWI, 1, "PCIe address decoder" },
	{ 201, 216, EV_RAZWI, 2, "TPC%u address decoder" },
	{ 217, 217, EV_FATAL, 1, "device CPU AXI ECC error" },
	{ 218, 218, EV_FATAL, 1, "device CPU L2 RAM ECC error" },
	{ 219, 238, EV_ENGINE, 5, "MME%u response error" },
	{ 239, 256, EV_FATAL, 1, "PLL%u error" },
	{ 257, 257, EV_RAZWI, 1, "device CPU AXI splitter" },
	{ 262, 262, EV_RAZWI, 1, "PSOC AXI decoder" },
	{ 263, 263, EV_INFO, 1, "PSOC reset line falling" },
	{ 264, 268, EV_ENGINE, 1, "NIC%u SEI" },
	{ 277, 280, EV_ENGINE, 1, "DMA interface %u SEI" },
	{ 290, 290, EV_INFO, 1, "PCIe function-level reset" },
	{ 300, 347, EV_ENGINE, 6, "TPC%u kernel error" },
	{ 380, 380, EV_PAGE_FAULT, 1, "MMU page fault" },
	{ 381, 381, EV_PAGE_FAULT, 1, "MMU write permission fault" },
	{ 383, 390, EV_ENGINE, 1, "DMA bus monitor %u" },
	{ 395, 408, EV_FATAL, 4, "HBM%u interrupt" },
	{ 421, 421, EV_INFO, 1, "PSOC GPIO" },
	{ 483, 499, EV_ENGINE, 4, "NIC%u debug ECC" },
	{ 548, 548, EV_RAZWI, 1, "RAZWI or ADC" },
	{ 572, 579, EV_QM, 1, "TPC%u queue manager" },
	{ 581, 582, EV_QM, 1, "MME%u queue manager" },
	{ 583, 590, EV_QM, 1, "DMA%u queue manager" },
	{ 594, 603, EV_QM, 1, "NIC port %u queue manager" },
	{ 604, 611, EV_ENGINE, 1, "DMA%u core" },
	{ 612, 621, EV_NIC, 2, "NIC%u queue pair" },
	{ 645, 645, EV_FATAL, 1, "device CPU firmware reported a fatal error" },
	{ 646, 646, EV_FATAL, 1, "device CPU firmware requested a device reset" },
	{ 647, 647, EV_FATAL, 1, "device-CPU queue out of sync" },
	{ 648, 657, EV_NIC, 2, "NIC%u status" },
	{ 658, 661, EV_THROTTLE, 1, "clock throttling" },
	{ 662, 662, EV_RAZWI, 1, "RAZWI (software)" },
};

static const struct gaudi_ev_range *gaudi_ev_lookup(u32 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gaudi_ev_ranges); i++)
		if (type >= gaudi_ev_ranges[i].first &&
		    type <= gaudi_ev_ranges[i].last)
			return &gaudi_ev_ranges[i];
	return NULL;
}

static const char * const gaudi_ev_class_names[] = {
	[EV_INFO] = "event",
	[EV_SERR] = "corrected ECC error",
	[EV_DERR] = "uncorrectable ECC error",
	[EV_FATAL] = "fatal error",
	[EV_RAZWI] = "illegal access (RAZWI)",
	[EV_PAGE_FAULT] = "page fault",
	[EV_QM] = "queue error",
	[EV_ENGINE] = "engine error",
	[EV_THROTTLE] = "clock throttling",
	[EV_NIC] = "NIC port event",
};

const char *gaudi_event_name(u32 type, char *buf, size_t len)
{
	const struct gaudi_ev_range *r = gaudi_ev_lookup(type);
	unsigned int unit;
	int n;

	if (!r) {
		snprintf(buf, len, "event %u", type);
		return buf;
	}
	unit = (type - r->first) / r->step;
	/* MME ECC ids come in SERR/DERR pairs of two units per MME. */
	if (r->first == 54)
		unit = (type - 54) / 4;
	if (r->first == 581)
		unit = (type - 581) * 2;
	n = snprintf(buf, len, r->name, unit);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ": %s", gaudi_ev_class_names[r->cls]);
	return buf;
}

static u16 gaudi_qm_engine(u32 type, u32 *qm_base)
{
	if (type >= GAUDI_EVENT_NIC0_QM0) {
		u32 port = type - GAUDI_EVENT_NIC0_QM0;

		*qm_base = GAUDI_NIC_PORT_MACRO(port) +
			   ((port & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);
		return GAUDI_ENGINE_ID_NIC_0 + port;
	}
	if (type >= 583) {
		*qm_base = mmDMA0_QM_BASE + (type - 583) * GAUDI_DMA_STRIDE;
		return GAUDI_ENGINE_ID_DMA_0 + type - 583;
	}
	if (type >= 581) {
		*qm_base = type == 581 ? mmMME0_QM_BASE : mmMME2_QM_BASE;
		return GAUDI_ENGINE_ID_MME_0 + (type - 581) * 2;
	}
	*qm_base = mmTPC0_QM_BASE + (type - 572) * GAUDI_TPC_STRIDE;
	return GAUDI_ENGINE_ID_TPC_0 + type - 572;
}

static u64 gaudi_eq_qm_error(struct gaudi_device *gdev, u32 type, s64 now)
{
	struct gaudi_captures *cap = &gdev->eq.cap;
	u32 base, sts, s;
	u16 engine = gaudi_qm_engine(type, &base);
	u64 notify = HL_NOTIFIER_EVENT_USER_ENGINE_ERR;

	for (s = 0; s < 4; s++) {
		sts = RREG32(gdev, base + QM_GLBL_STS1(s));
		if (!sts)
			continue;
		WREG32(gdev, base + QM_GLBL_STS1(s), sts);
		if (!(sts & QM_STS1_CP_UNDEF_CMD_ERR))
			continue;
		notify |= HL_NOTIFIER_EVENT_UNDEFINED_OPCODE;
		spin_lock(&gdev->eq.lock);
		if (!cap->undef_opcode_valid) {
			cap->undef_opcode_valid = true;
			memset(&cap->undef_opcode, 0, sizeof(cap->undef_opcode));
			cap->undef_opcode.timestamp = now;
			cap->undef_opcode.engine_id = engine;
			cap->undef_opcode.stream_id = s;
		}
		spin_unlock(&gdev->eq.lock);
	}
	spin_lock(&gdev->eq.lock);
	if (!cap->engine_err_valid) {
		cap->engine_err_valid = true;
		cap->engine_err.timestamp = now;
		cap->engine_err.engine_id = engine;
	}
	if (cap->engine_err.engine_id == engine)
		cap->engine_err.error_count++;
	spin_unlock(&gdev->eq.lock);
	return notify;
}

static u64 gaudi_eq_page_fault(struct gaudi_device *gdev, s64 now)
{
	struct gaudi_captures *cap = &gdev->eq.cap;
	u32 hi = RREG32(gdev, mmMMU_UP_PAGE_ERROR_CAPTURE);
	u64 addr = 0;

	if (hi & MMU_PAGE_ERROR_CAPTURE_VALID) {
		addr = (u64)FIELD_GET(MMU_PAGE_ERROR_CAPTURE_VA_49_32, hi) << 32 |
		       RREG32(gdev, mmMMU_UP_PAGE_ERROR_CAPTURE_VA);
		WREG32(gdev, mmMMU_UP_PAGE_ERROR_CAPTURE, 0);
	}
	gaudi_user_err(gdev, "MMU page fault at VA 0x%llx\n", addr);
	spin_lock(&gdev->eq.lock);
	if (!cap->page_fault_valid) {
		cap->page_fault_valid = true;
		memset(&cap->page_fault, 0, sizeof(cap->page_fault));
		cap->page_fault.timestamp = now;
		cap->page_fault.addr = addr;
	}
	spin_unlock(&gdev->eq.lock);
	return HL_NOTIFIER_EVENT_PAGE_FAULT | HL_NOTIFIER_EVENT_USER_ENGINE_ERR;
}

static u64 gaudi_eq_razwi(struct gaudi_device *gdev, u32 type, s64 now,
			  const struct hl_eq_entry *e)
{
	struct gaudi_captures *cap = &gdev->eq.cap;
	u32 wr = RREG32(gdev, mmMMU_UP_RAZWI_WRITE_VLD);
	u32 rd = RREG32(gdev, mmMMU_UP_RAZWI_READ_VLD);
	u32 id;

	/* The capture: the initiator's place on the die and its AXI id. */
	if (wr) {
		id = RREG32(gdev, mmMMU_UP_RAZWI_WRITE_ID);
		gaudi_user_err(gdev, "RAZWI: illegal write at 0x%llx by initiator x %u y %u axi %u\n",
			       le64_to_cpu(e->data[0]), FIELD_GET(RAZWI_ID_X, id),
			       FIELD_GET(RAZWI_ID_Y, id),
			       FIELD_GET(RAZWI_ID_AXI, id));
		WREG32(gdev, mmMMU_UP_RAZWI_WRITE_VLD, 0);
	}
	if (rd) {
		id = RREG32(gdev, mmMMU_UP_RAZWI_READ_ID);
		gaudi_user_err(gdev, "RAZWI: illegal read at 0x%llx by initiator x %u y %u axi %u\n",
			       le64_to_cpu(e->data[0]), FIELD_GET(RAZWI_ID_X, id),
			       FIELD_GET(RAZWI_ID_Y, id),
			       FIELD_GET(RAZWI_ID_AXI, id));
		WREG32(gdev, mmMMU_UP_RAZWI_READ_VLD, 0);
	}
	spin_lock(&gdev->eq.lock);
	if (!cap->razwi_valid) {
		cap->razwi_valid = true;
		memset(&cap->razwi, 0, sizeof(cap->razwi));
		cap->razwi.timestamp = now;
		cap->razwi.addr = le64_to_cpu(e->data[0]);
		cap->razwi.flags = (wr ? HL_RAZWI_WRITE : 0) |
				   (rd ? HL_RAZWI_READ : 0);
	}
	spin_unlock(&gdev->eq.lock);
	return HL_NOTIFIER_EVENT_RAZWI | HL_NOTIFIER_EVENT_USER_ENGINE_ERR;
}

static void gaudi_eq_throttle(struct gaudi_device *gdev, u32 type)
{
	struct gaudi_eq *eq = &gdev->eq;
	u32 bit = (type <= GAUDI_EVENT_FIX_POWER_ENV_E) ? HL_CLK_THROTTLE_POWER :
						       HL_CLK_THROTTLE_THERMAL;
	bool start = type == GAUDI_EVENT_FIX_POWER_ENV_S ||
		     type == GAUDI_EVENT_FIX_THERMAL_ENV_S;

	spin_lock(&eq->lock);
	if (start) {
		eq->clk_throttle |= bit;
		eq->clk_throttle_ever |= bit;
	} else {
		eq->clk_throttle &= ~bit;
	}
	spin_unlock(&eq->lock);
	gaudi_dbg(gdev, EQ, "%s clock throttling %s\n",
		  bit == HL_CLK_THROTTLE_POWER ? "power" : "thermal",
		  start ? "started" : "ended");
}

static void gaudi_eq_dispatch(struct gaudi_device *gdev, u32 type,
			      const struct hl_eq_entry *e)
{
	const struct gaudi_ev_range *r = gaudi_ev_lookup(type);
	struct gaudi_captures *cap = &gdev->eq.cap;
	struct gaudi_eq *eq = &gdev->eq;
	s64 now = ktime_get_real_ns();
	bool fatal = false, engine = false, pf = false;
	u64 notify = 0;
	char name[96];

	if (type >= GAUDI_EVENT_SIZE) {
		gaudi_user_err(gdev, "event of unknown type %u ignored\n", type);
		return;
	}
	spin_lock(&eq->lock);
	eq->counters[type]++;
	eq->counters_aggr[type]++;
	eq->total++;
	spin_unlock(&eq->lock);

	gaudi_event_name(type, name, sizeof(name));
	switch (r ? r->cls : EV_INFO) {
	case EV_INFO:
		gaudi_dbg(gdev, EQ, "event %u: %s\n", type, name);
		break;
	case EV_SERR:
		dev_warn_ratelimited(gdev->drm.dev, "event %u: %s at 0x%llx\n", type,
				     name, le64_to_cpu(e->ecc_data.ecc_address));
		notify |= HL_NOTIFIER_EVENT_GENERAL_HW_ERR;
		break;
	case EV_DERR:
	case EV_FATAL:
		drm_err_ratelimited(&gdev->drm, "event %u: %s\n", type, name);
		fatal = true;
		spin_lock(&eq->lock);
		if (type >= GAUDI_EVENT_FW_ALIVE_S && !cap->fw_err_valid) {
			cap->fw_err_valid = true;
			cap->fw_err.timestamp = now;
			cap->fw_err.err_type = HL_INFO_FW_REPORTED_ERR;
			cap->fw_err.event_id = type;
		} else if (!cap->hw_err_valid) {
			cap->hw_err_valid = true;
			cap->hw_err.timestamp = now;
			cap->hw_err.event_id = type;
		}
		spin_unlock(&eq->lock);
		notify |= type >= GAUDI_EVENT_FW_ALIVE_S ?
			  HL_NOTIFIER_EVENT_CRITICL_FW_ERR :
			  HL_NOTIFIER_EVENT_CRITICL_HW_ERR |
			  HL_NOTIFIER_EVENT_GENERAL_HW_ERR;
		break;
	case EV_RAZWI:
		gaudi_user_err(gdev, "event %u: %s\n", type, name);
		notify |= gaudi_eq_razwi(gdev, type, now, e);
		/*
		 * As upstream's gaudi.c: the firmware reports a TPC assertion
		 * as that TPC's address decoder event; the PCIe, device-CPU
		 * splitter and PSOC decoder errors are general hardware errors.
		 */
		if (type >= GAUDI_EVENT_TPC0_DEC && type <= GAUDI_EVENT_TPC7_DEC &&
		    !((type - GAUDI_EVENT_TPC0_DEC) & 1))
			notify |= HL_NOTIFIER_EVENT_TPC_ASSERT;
		else if (type != GAUDI_EVENT_RAZWI_OR_ADC &&
			 type != GAUDI_EVENT_RAZWI_OR_ADC_SW)
			notify |= HL_NOTIFIER_EVENT_GENERAL_HW_ERR;
		break;
	case EV_PAGE_FAULT:
		notify |= gaudi_eq_page_fault(gdev, now);
		engine = true;
		pf = true;
		break;
	case EV_QM:
		gaudi_user_err(gdev, "event %u: %s\n", type, name);
		notify |= gaudi_eq_qm_error(gdev, type, now);
		engine = true;
		break;
	case EV_ENGINE:
		gaudi_user_err(gdev, "event %u: %s\n", type, name);
		notify |= HL_NOTIFIER_EVENT_USER_ENGINE_ERR;
		/* A DMA core error stops the stream that drove it. */
		engine = type >= GAUDI_EVENT_DMA0_CORE && type <= GAUDI_EVENT_DMA7_CORE;
		break;
	case EV_THROTTLE:
		gaudi_eq_throttle(gdev, type);
		break;
	case EV_NIC:
		/* The ports are the kernel's (gaudi_en), not the holder's. */
		gaudi_dbg(gdev, EQ, "event %u: %s\n", type, name);
		gaudi_nic_event(gdev, type);
		break;
	}

	if (notify) {
		spin_lock(&eq->lock);
		eq->notifier_events |= notify;
		spin_unlock(&eq->lock);
		gaudi_file_notify(gdev, notify);
	}
	if (fatal)
		gaudi_reset_schedule(gdev, "fatal event");
	else if (engine)
		gaudi_cs_engine_error(gdev, pf);
}

/*
 * Whether the entry at the consumer index is ready (hard IRQ): the thread
 * is woken only then.  A thread already running re-reads the ring itself.
 */
bool gaudi_eq_pending(struct gaudi_device *gdev)
{
	struct gaudi_eq *eq = &gdev->eq;
	struct hl_eq_entry *ring = gdev->cpucp.eq;
	u32 ctl;

	if (!READ_ONCE(eq->enabled) || !ring)
		return false;
	ctl = le32_to_cpu(READ_ONCE(ring[READ_ONCE(eq->ci)].hdr.ctl));
	return ctl & EQ_CTL_READY_MASK;
}

void gaudi_eq_handle(struct gaudi_device *gdev)
{
	struct gaudi_eq *eq = &gdev->eq;
	struct hl_eq_entry *ring = gdev->cpucp.eq, *e, copy;
	unsigned int budget = GAUDI_EQ_ENTRIES;
	u32 ctl;

	if (!READ_ONCE(eq->enabled))
		return;

	gaudi_kcov_remote_start(gdev);
	while (budget--) {
		e = &ring[eq->ci];
		ctl = le32_to_cpu(READ_ONCE(e->hdr.ctl));
		if (!(ctl & EQ_CTL_READY_MASK))
			break;
		dma_rmb();
		memcpy(&copy, e, sizeof(copy));
		WRITE_ONCE(e->hdr.ctl, 0);
		WRITE_ONCE(eq->ci, (eq->ci + 1) % GAUDI_EQ_ENTRIES);
		WREG32(gdev, mmCPU_IF_EQ_RD_OFFS, eq->ci);
		gaudi_eq_dispatch(gdev, FIELD_GET(EQ_CTL_EVENT_TYPE_MASK, ctl),
				  &copy);
	}
	kcov_remote_stop();
}

int gaudi_eq_init(struct gaudi_device *gdev)
{
	struct gaudi_eq *eq = &gdev->eq;

	memset(gdev->cpucp.eq, 0, GAUDI_EQ_ENTRIES * GAUDI_EQ_ENTRY_SIZE);
	eq->ci = 0;
	WRITE_ONCE(eq->enabled, true);
	return 0;
}

void gaudi_eq_fini(struct gaudi_device *gdev)
{
	WRITE_ONCE(gdev->eq.enabled, false);
	synchronize_irq(gdev->pci.irq);
}

void gaudi_eq_reset_counters(struct gaudi_device *gdev)
{
	struct gaudi_eq *eq = &gdev->eq;

	spin_lock_irq(&eq->lock);
	memset(eq->counters, 0, sizeof(eq->counters));
	eq->clk_throttle = 0;
	spin_unlock_irq(&eq->lock);
}

void gaudi_eq_clear_captures(struct gaudi_device *gdev)
{
	struct gaudi_eq *eq = &gdev->eq;

	spin_lock_irq(&eq->lock);
	memset(&eq->cap, 0, sizeof(eq->cap));
	eq->notifier_events = 0;
	spin_unlock_irq(&eq->lock);
}
