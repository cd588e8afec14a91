// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the data plane's set-up and teardown, part by part.
 *
 * struct gaudi_dp (gaudi_dp_types.h) is made of one part per file; this file
 * creates it, brings each part up in turn and takes them down in reverse.
 * It is the one place that names every part: the parts themselves call
 * only down (Documentation/architecture.rst, "Inside gaudi.ko").
 *
 *   software state  gaudi_dp_sw_init(), at probe; freed with the DRM device
 *   DMA memory      gaudi_dp_dma_fini(), at removal while the PCI device
 *                   is bound
 *   hardware        gaudi_dp_hw_init() after every reset,
 *                   gaudi_dp_hw_fini() before it and at removal
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_managed.h>

#include "gaudi_dp.h"
#include "gaudi_dp_types.h"
#include "gaudi_mem.h"
#include "gaudi_mmu.h"
#include "gaudi_queue.h"
#include "gaudi_sched.h"
#include "gaudi_scrub.h"
#include "gaudi_security.h"
#include "gaudi_sync.h"
#include "gaudi_types.h"

static void gaudi_dp_free(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;

	gaudi_cs_sw_fini(gdev);
	mutex_destroy(&dp->teardown_lock);
	kfree(dp);
	gdev->dp = NULL;
}

/*
 * The data plane's software state lives as long as the DRM device: after
 * a removal, the holder's file, its dma-bufs and the control node may
 * still look at it (drmm action, last reference).
 */
static void gaudi_dp_release(struct drm_device *drm, void *arg)
{
	struct gaudi_device *gdev = arg;
	struct gaudi_dp *dp = gdev->dp;

	cancel_work_sync(&dp->mem.pf_work);
	gaudi_mem_pf_clear(gdev);
	gaudi_scrub_sw_fini(gdev);
	gaudi_mem_sw_fini(gdev);
	gaudi_mmu_sw_fini(gdev);
	gaudi_queue_sw_fini(gdev);
	gaudi_dp_free(gdev);
}

/**
 * gaudi_dp_sw_init() - create the data plane of @gdev
 * @gdev: the device, its BARs mapped
 *
 * The scheduler first (it registers as the queues' client), then the
 * queues' memory, then MMU shadows, device memory and scrub state.
 *
 * Return: 0 or a negative errno; on failure nothing is left but what the
 * DRM device's release frees.
 */
int gaudi_dp_sw_init(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = kzalloc(sizeof(*dp), GFP_KERNEL);
	int ret;

	if (!dp)
		return -ENOMEM;
	gdev->dp = dp;
	dp->gdev = gdev;
	spin_lock_init(&dp->lock);
	mutex_init(&dp->teardown_lock);
	atomic_set(&dp->mem.dmabufs, 0);
	INIT_WORK(&dp->mem.pf_work, gaudi_mem_pf_work);

	gaudi_cs_sw_init(gdev);
	ret = gaudi_queue_sw_init(gdev);
	if (ret) {
		gaudi_dp_free(gdev);
		return ret;
	}
	/* From here on the software state goes with the DRM device. */
	ret = drmm_add_action(&gdev->drm, gaudi_dp_release, gdev);
	if (ret) {
		gaudi_queue_dma_fini(gdev);
		gaudi_queue_sw_fini(gdev);
		gaudi_dp_free(gdev);
		return ret;
	}
	ret = gaudi_mmu_sw_init(gdev);
	if (!ret)
		ret = gaudi_mem_sw_init(gdev);
	if (!ret)
		ret = gaudi_scrub_sw_init(gdev);
	if (ret)
		gaudi_queue_dma_fini(gdev);
	return ret;
}

/**
 * gaudi_dp_dma_fini() - give back the data plane's DMA memory
 * @gdev: the device, after gaudi_hw_fini() (reset, reads nothing of the
 *	host any more), still bound
 */
void gaudi_dp_dma_fini(struct gaudi_device *gdev)
{
	gaudi_cs_fini(gdev);
	cancel_work_sync(&gdev->dp->mem.pf_work);
	gaudi_cs_reap(gdev);
	gaudi_queue_dma_fini(gdev);
}

/**
 * gaudi_dp_hw_init() - program the data plane after a reset
 * @gdev: the device, its firmware up
 *
 * MMU tables, protection, queues and sync objects, then the QMANs start.
 *
 * Return: 0 or the MMU's negative errno.
 */
int gaudi_dp_hw_init(struct gaudi_device *gdev)
{
	int ret;

	ret = gaudi_mmu_hw_init(gdev);
	if (ret)
		return ret;
	gaudi_security_hw_init(gdev);
	gaudi_queue_hw_init(gdev);
	gaudi_sync_hw_init(gdev);
	gaudi_queue_start(gdev);
	return 0;
}

/**
 * gaudi_dp_hw_fini() - stop the queues and end every CS in flight
 * @gdev: the device, before a hard reset and at removal
 *
 * CSs end ABORTED, or TIMEDOUT for the one that timed out.
 */
void gaudi_dp_hw_fini(struct gaudi_device *gdev)
{
	gaudi_queue_stop(gdev);
	gaudi_cs_abort_all(gdev);
}
