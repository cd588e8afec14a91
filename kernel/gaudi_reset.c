// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: hard reset and recovery.
 *
 * A hard reset halts the device CPU and resets the whole card except its
 * PCI configuration (SW_ALL_RST); the firmware must then be booted again.
 * Recovery runs from a work item: the status goes to "in reset" (users'
 * hardware paths fail with -EIO), a KOBJ_CHANGE uevent with GAUDI_RESET=1
 * announces it, the device is reset and brought up again, and a second
 * uevent (GAUDI_RESET=0) reports the outcome.
 */
#include <linux/delay.h>
#include <linux/kcov.h>
#include <linux/kobject.h>
#include <linux/habanalabs/hl_boot_if.h>

#include "gaudi1/boot.h"
#include "gaudi1/events.h"
#include "gaudi1/regs.h"
#include "gaudi_cpucp.h"
#include "gaudi_drv.h"
#include "gaudi_eq.h"
#include "gaudi_file.h"
#include "gaudi_hw.h"
#include "gaudi_nic.h"
#include "gaudi_reset.h"
#include "gaudi_types.h"
#include "gaudi_trace.h"

/*
 * Upstream sleeps 200 ms after halting the device CPU and 2 s after
 * SW_ALL_RST, then checks BTM_FSM.  Those are our upper bounds; we wait
 * only until the device says it is done: the halted CPU reports IN_WFE in
 * CPU_BOOT_STATUS, and the reset clears that status (preboot starts over)
 * with BTM_FSM idle.  8 cards unload in a fraction of the fixed time.
 */
#define GAUDI_CPU_HALT_TIMEOUT_US	(200 * USEC_PER_MSEC)
#define GAUDI_RESET_TIMEOUT_US		(2100 * USEC_PER_MSEC)

int gaudi_hw_reset(struct gaudi_device *gdev)
{
	u32 val, btm;
	int ret;

	gaudi_dbg(gdev, RESET, "halting the device CPU\n");
	WREG32(gdev, mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR, GAUDI_EVENT_HALT_MACHINE);
	WREG32(gdev, mmKMD_MSG_TO_CPU, KMD_MSG_GOTO_WFE);
	/* A hung CPU never reports it: then the whole bound is waited. */
	if (gaudi_poll_reg(gdev, mmCPU_BOOT_STATUS, val,
			   val == CPU_BOOT_STATUS_IN_WFE, 1000,
			   GAUDI_CPU_HALT_TIMEOUT_US))
		gaudi_dbg(gdev, RESET, "device CPU not in WFE (status %u), resetting anyway\n",
			  val);
	WREG32(gdev, mmKMD_MSG_TO_CPU, KMD_MSG_NA);

	/* Keep PCIe up through the reset, then reset everything else. */
	WREG32(gdev, mmPSOC_GLOBAL_CONF_COLD_RST_FLOPS_1, PREBOOT_PCIE_EN_MAGIC);
	WREG32(gdev, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);

	ret = gaudi_poll_reg(gdev, mmCPU_BOOT_STATUS, val,
			     val != CPU_BOOT_STATUS_IN_WFE &&
			     !(RREG32(gdev, mmPSOC_GLOBAL_CONF_BTM_FSM) &
			       BTM_FSM_STATE_MASK), 1000,
			     GAUDI_RESET_TIMEOUT_US);
	btm = RREG32(gdev, mmPSOC_GLOBAL_CONF_BTM_FSM);
	if (ret || (btm & BTM_FSM_STATE_MASK)) {
		gaudi_err(gdev, "hard reset did not complete: BTM_FSM 0x%08x, boot status %u\n",
			  btm, val);
		return -EIO;
	}
	gaudi_dbg(gdev, RESET, "hard reset done\n");
	return 0;
}

static void gaudi_reset_uevent(struct gaudi_device *gdev, bool in_reset)
{
	char reset[16], status[48];
	char *envp[3];

	snprintf(reset, sizeof(reset), "GAUDI_RESET=%d", in_reset);
	snprintf(status, sizeof(status), "GAUDI_STATUS=%s",
		 gaudi_status_str(READ_ONCE(gdev->status)));
	envp[0] = reset;
	envp[1] = status;
	envp[2] = NULL;
	kobject_uevent_env(&gdev->pdev->dev.kobj, KOBJ_CHANGE, envp);
}

static void gaudi_reset_work(struct work_struct *work)
{
	struct gaudi_device *gdev = container_of(work, struct gaudi_device,
						 reset.work);
	struct gaudi_reset *r = &gdev->reset;
	ktime_t start = ktime_get();
	int ret;

	gaudi_kcov_remote_start(gdev);
	mutex_lock(&gdev->state_lock);
	gdev->status = GAUDI_STATUS_IN_RESET;
	mutex_unlock(&gdev->state_lock);

	trace_gaudi_reset_start(gdev->index,
				r->reason ? r->reason : "requested");
	if (__ratelimit(&r->log_rs))
		gaudi_warn(gdev, "hard reset: %s\n",
			   r->reason ? r->reason : "requested");
	gaudi_reset_uevent(gdev, true);
	gaudi_file_notify(gdev, HL_NOTIFIER_EVENT_DEVICE_RESET |
				HL_NOTIFIER_EVENT_DEVICE_UNAVAILABLE);

	gaudi_nic_reset_prepare(gdev);
	gaudi_cpucp_heartbeat_stop(gdev);
	/* Wait for every user inside gaudi_hw_enter() to leave. */
	down_write(&r->rwsem);
	gaudi_hw_fini(gdev);
	gaudi_eq_reset_counters(gdev);
	ret = gaudi_hw_init(gdev);

	mutex_lock(&gdev->state_lock);
	r->hard_reset_cnt++;
	r->last_duration_ms = ktime_ms_delta(ktime_get(), start);
	if (ret) {
		r->failed_cnt++;
		gdev->status = GAUDI_STATUS_MALFUNCTION;
	} else {
		gdev->status = GAUDI_STATUS_OPERATIONAL;
	}
	mutex_unlock(&gdev->state_lock);
	up_write(&r->rwsem);
	trace_gaudi_reset_done(gdev->index, ret, r->last_duration_ms);

	if (ret) {
		gaudi_err(gdev, "recovery failed (%d): device disabled until the next reset\n",
			  ret);
	} else {
		if (!READ_ONCE(r->disabled))
			gaudi_cpucp_heartbeat_start(gdev);
		if (__ratelimit(&r->log_rs))
			gaudi_note(gdev, "hard reset done in %llu ms, device operational\n",
				   r->last_duration_ms);
	}
	gaudi_nic_reset_done(gdev, !ret);
	gaudi_reset_uevent(gdev, false);
	kcov_remote_stop();
}

void gaudi_reset_init(struct gaudi_device *gdev)
{
	init_rwsem(&gdev->reset.rwsem);
	INIT_WORK(&gdev->reset.work, gaudi_reset_work);
	/* 10 lines (5 resets) a minute per card. */
	ratelimit_state_init(&gdev->reset.log_rs, 60 * HZ, 10);
}

void gaudi_reset_schedule(struct gaudi_device *gdev, const char *reason)
{
	if (READ_ONCE(gdev->status) != GAUDI_STATUS_OPERATIONAL ||
	    READ_ONCE(gdev->reset.disabled))
		return;
	if (!gaudi_reset_on_lockup) {
		gaudi_err(gdev, "%s: device needs a reset (reset_on_lockup is off; write 1 to hard_reset)\n",
			  reason);
		WRITE_ONCE(gdev->status, GAUDI_STATUS_NEEDS_RESET);
		return;
	}
	gdev->reset.reason = reason;
	queue_work(system_unbound_wq, &gdev->reset.work);
}

int gaudi_reset_now(struct gaudi_device *gdev, const char *reason)
{
	if (READ_ONCE(gdev->reset.disabled))
		return -ENODEV;
	gdev->reset.reason = reason;
	queue_work(system_unbound_wq, &gdev->reset.work);
	flush_work(&gdev->reset.work);
	return READ_ONCE(gdev->status) == GAUDI_STATUS_OPERATIONAL ? 0 : -EIO;
}

#ifdef CONFIG_KCOV
/**
 * gaudi_kcov_note_holder() - remember a new holder's kcov common handle
 * @gdev: the card, just taken by the calling process
 *
 * What the holder causes outside its own system calls (a reset, the
 * events its work raises) runs in the reset work and the event-queue
 * thread; they collect it for the holder's kcov (KCOV_REMOTE_ENABLE with
 * a common handle, inherited by the process that opens the card).  0, no
 * collection, when it has none.
 */
void gaudi_kcov_note_holder(struct gaudi_device *gdev)
{
	WRITE_ONCE(gdev->reset.kcov_handle, kcov_common_handle());
}

/**
 * gaudi_kcov_remote_start() - start a remote kcov section for the holder
 * @gdev: the card
 *
 * Only in the reset work and the event-queue thread (never in a user's
 * task); kcov_remote_stop() ends the section, and is a no-op when none
 * started.
 */
void gaudi_kcov_remote_start(struct gaudi_device *gdev)
{
	u64 handle = READ_ONCE(gdev->reset.kcov_handle);

	if (handle)
		kcov_remote_start(handle);
}
#endif

/* Unload: no new reset from now on, wait for a running one. */
void gaudi_reset_fini(struct gaudi_device *gdev)
{
	WRITE_ONCE(gdev->reset.disabled, true);
	gaudi_cpucp_heartbeat_stop(gdev);
	cancel_work_sync(&gdev->reset.work);
}
