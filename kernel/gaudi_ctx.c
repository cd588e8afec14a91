// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the context of the compute node's holder, from its open to
 * its close (or the removal of the card): what it holds on the device and
 * how it is given back.
 */
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/slab.h>

#include "gaudi1/memmap.h"
#include "gaudi_cb.h"
#include "gaudi_ctx.h"
#include "gaudi_dp_types.h"
#include "gaudi_file_types.h"
#include "gaudi_hw.h"
#include "gaudi_layout.h"
#include "gaudi_mem.h"
#include "gaudi_queue.h"
#include "gaudi_reset.h"
#include "gaudi_sched.h"
#include "gaudi_scrub.h"
#include "gaudi_sync.h"
#include "gaudi_types.h"

#define GAUDI_CLOSE_WAIT	(10 * HZ)
/* How long a stream may take to drain after its CSs ended, at close. */
#define GAUDI_QUIESCE_WAIT	(HZ / 2)

int gaudi_ctx_open(struct gaudi_device *gdev, struct gaudi_file *gfile)
{
	struct gaudi_ctx *ctx;
	int ret;

	/*
	 * The previous holder's dma-bufs still expose HBM its importers use,
	 * and any holder can name any user HBM: wait for them (as upstream,
	 * where they keep the device in use).
	 */
	if (gaudi_scrub_dmabufs_alive(gdev)) {
		gaudi_dbg(gdev, IOCTL, "open: dma-bufs of the previous holder are still in use\n");
		return -EBUSY;
	}
	/* What the previous holder left, if close could not clear it. */
	ret = gaudi_scrub(gdev);
	if (ret == -ETIMEDOUT)
		gaudi_reset_schedule(gdev, "device memory scrub timed out");
	if (ret)
		return ret == -EBUSY ? -EBUSY : -EIO;
	ctx = kvzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->gdev = gdev;
	ctx->gfile = gfile;
	mutex_init(&ctx->lock);
	xa_init_flags(&ctx->cbs, XA_FLAGS_ALLOC1);
	mutex_init(&ctx->cb_live_lock);
	INIT_LIST_HEAD(&ctx->cb_live);
	xa_init(&ctx->maps);
	mt_init(&ctx->pins);
	xa_init_flags(&ctx->dram, XA_FLAGS_ALLOC1);
	drm_mm_init(&ctx->va, GAUDI_VA_USER_START,
		    GAUDI_VA_HOST_END - GAUDI_VA_USER_START);
	drm_mm_init(&ctx->cb_va, GAUDI_VA_CB_START,
		    GAUDI_VA_CB_END - GAUDI_VA_CB_START);
	ctx->fence_context = dma_fence_context_alloc(1);
	spin_lock_init(&ctx->fence_lock);
	ctx->next_seq = 1;
	gaudi_sync_ctx_init(ctx);
	gfile->ctx = ctx;

	gaudi_mem_pf_clear(gdev);
	spin_lock_irq(&gdev->dp->lock);
	gdev->dp->ctx = ctx;
	gdev->dp->sched.timeout_valid = false;
	spin_unlock_irq(&gdev->dp->lock);
	return 0;
}

/*
 * Quiesce the queues at close, once every CS of the context has ended: a
 * stream may still be held in a FENCE inside a kernel CB whose CS ended
 * (its external jobs completed).  Give the streams a moment, then reset
 * the device if one still has not consumed everything it was given, as
 * upstream resets a device that is not idle after a release.  The reset
 * stops every stream and programs the queues afresh (PI = CI = 0); only
 * then are the kernel CBs the streams held freed (gaudi_dp_hw_init()).
 * Without a reset, the fence counters the holder left are cleared.
 */
static void gaudi_ctx_quiesce(struct gaudi_device *gdev, bool reset)
{
	unsigned long until = jiffies + GAUDI_QUIESCE_WAIT;

	if (!reset) {
		while (!gaudi_queues_idle(gdev) && time_before(jiffies, until))
			usleep_range(1000, 2000);
		if (!gaudi_queues_idle(gdev)) {
			gaudi_user_err(gdev, "close: a queue is still held (a FENCE no one releases?), resetting the device\n");
			gaudi_reset_now(gdev, "close with a stalled stream");
			reset = true;
		}
	}
	if (!reset && !gaudi_hw_hold(gdev)) {
		gaudi_queue_clear_fences(gdev);
		gaudi_hw_release(gdev);
	}
	gaudi_cs_reap(gdev);
}

/*
 * Give back what the context holds on the device: wait for its CSs
 * (resetting the device if they hang; at a removal there is no waiting:
 * work still running is reset away at once), quiesce the queues, free
 * CBs, mappings and HBM, clear the device memory the holder may have
 * written.  Runs once per context (dp->teardown_lock), from its close or
 * from the removal of the card, whichever comes first; both run before
 * gaudi_remove() returns, so the device is there.
 */
static void gaudi_ctx_teardown(struct gaudi_ctx *ctx, bool removal)
{
	struct gaudi_device *gdev = ctx->gdev;
	long grace = removal ? 0 : GAUDI_CLOSE_WAIT;
	struct dma_fence *f;
	bool reset = false;
	unsigned int i;

	lockdep_assert_held(&gdev->dp->teardown_lock);
	if (ctx->torn_down)
		return;
	for (i = 0; i < GAUDI_MAX_PENDING_CS; i++) {
		spin_lock_irq(&gdev->dp->lock);
		f = ctx->ring[i] ? &ctx->ring[i]->fence : NULL;
		ctx->ring[i] = NULL;
		spin_unlock_irq(&gdev->dp->lock);
		if (!f)
			continue;
		if (!reset && !dma_fence_is_signaled(f) &&
		    (!grace || dma_fence_wait_timeout(f, false, grace) == 0)) {
			reset = true;
			if (removal) {
				gaudi_dbg(gdev, CS, "removal: CS %llu still running, resetting the device\n",
					  f->seqno);
				gaudi_reset_now(gdev, "removal with command submissions in flight");
			} else {
				gaudi_user_err(gdev, "close: CS %llu still running, resetting the device\n",
					       f->seqno);
				gaudi_reset_now(gdev, "close with a hung command submission");
			}
		}
		/* A reset ends every CS in flight, successful or not. */
		dma_fence_wait(f, false);
		dma_fence_put(f);
	}
	gaudi_ctx_quiesce(gdev, reset);

	gaudi_encaps_release_all(gdev, ctx);
	gaudi_sync_ctx_fini(ctx);
	gaudi_cb_ctx_fini(ctx);
	if (removal)
		gaudi_cb_ctx_revoke(ctx);
	gaudi_mem_ctx_fini(ctx);
	/*
	 * Nothing of the holder runs any more: clear what it may have
	 * written.  If that cannot be done now (device in reset, dma-bufs
	 * still exported), the next open does it first; after a removal
	 * the next driver instance cannot know (Documentation/security.rst).
	 */
	if (gaudi_scrub(gdev) == -ETIMEDOUT)
		gaudi_reset_now(gdev, "device memory scrub timed out");

	spin_lock_irq(&gdev->dp->lock);
	if (gdev->dp->ctx == ctx)
		gdev->dp->ctx = NULL;
	spin_unlock_irq(&gdev->dp->lock);
	ctx->torn_down = true;
}

/* Close: the context's device resources go, unless a removal took them. */
void gaudi_ctx_close(struct gaudi_file *gfile)
{
	struct gaudi_ctx *ctx = gfile->ctx;
	struct gaudi_dp *dp;

	if (!ctx)
		return;
	dp = ctx->gdev->dp;
	mutex_lock(&dp->teardown_lock);
	gaudi_ctx_teardown(ctx, false);
	mutex_unlock(&dp->teardown_lock);
}

/*
 * The card is being removed while @ctx holds it (gaudi_file_revoke(), no
 * ioctl of it runs any more): its work ends, its memory is given back;
 * the file stays open with nothing behind it until the process closes it.
 */
void gaudi_ctx_revoke(struct gaudi_ctx *ctx)
{
	struct gaudi_dp *dp = ctx->gdev->dp;

	mutex_lock(&dp->teardown_lock);
	gaudi_ctx_teardown(ctx, true);
	mutex_unlock(&dp->teardown_lock);
}

/* After gaudi_ctx_close(), once the file is no longer the holder. */
void gaudi_ctx_free(struct gaudi_file *gfile)
{
	struct gaudi_ctx *ctx = gfile->ctx;

	if (!ctx)
		return;
	/* A page-fault capture may still be looking at the context. */
	flush_work(&ctx->gdev->dp->mem.pf_work);

	drm_mm_takedown(&ctx->cb_va);
	drm_mm_takedown(&ctx->va);
	xa_destroy(&ctx->cbs);
	xa_destroy(&ctx->maps);
	mtree_destroy(&ctx->pins);
	xa_destroy(&ctx->dram);
	mutex_destroy(&ctx->cb_live_lock);
	mutex_destroy(&ctx->lock);
	gfile->ctx = NULL;
	kvfree(ctx);
}
