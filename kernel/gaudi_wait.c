// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: DRM_IOCTL_HL_WAIT_CS, on one CS or on several.
 *
 * A wait is on the CS's fence, found by sequence in the context's ring
 * (gaudi_cs_lookup_locked()); a sequence too old for the ring has long
 * completed (HL_WAIT_CS_STATUS_FLAG_GONE).
 */
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>

#include "gaudi_dp_types.h"
#include "gaudi_file.h"
#include "gaudi_sched.h"
#include "gaudi_types.h"
#include "gaudi_wait.h"

/*
 * Rounded up, without DIV_ROUND_UP_ULL(): its us + divisor - 1 wraps for
 * timeouts near U64_MAX ("wait forever"), which became 0 jiffies, a poll.
 */
static long gaudi_us_to_jiffies(u64 us)
{
	u32 rem;
	u64 j = div_u64_rem(us, jiffies_to_usecs(1), &rem) + !!rem;

	return j >= MAX_SCHEDULE_TIMEOUT ? MAX_SCHEDULE_TIMEOUT : (long)j;
}

/*
 * The fence of @seq with a reference, NULL if it is so old it is gone
 * (it completed), ERR_PTR(-EINVAL) for a sequence not submitted yet.
 */
static struct dma_fence *gaudi_ctx_fence(struct gaudi_device *gdev,
					 struct gaudi_ctx *ctx, u64 seq)
{
	struct dma_fence *f = NULL;
	struct gaudi_cs *cs;

	spin_lock_irq(&gdev->dp->lock);
	cs = gaudi_cs_lookup_locked(ctx, seq);
	if (IS_ERR(cs))
		f = ERR_CAST(cs);
	else if (cs)
		f = dma_fence_get(&cs->fence);
	spin_unlock_irq(&gdev->dp->lock);
	return f;
}

static int gaudi_wait_one(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			  union hl_wait_cs_args *args)
{
	u64 seq = args->in.seq, us = args->in.timeout_us;
	struct dma_fence *f;
	s64 ts = 0;
	bool ts_valid = false;
	long r;
	int err;

	f = gaudi_ctx_fence(gdev, ctx, seq);
	if (IS_ERR(f)) {
		gaudi_dbg(gdev, CS, "WAIT_CS: sequence %llu not submitted (next %llu)\n",
			  seq, ctx->next_seq);
		return PTR_ERR(f);
	}
	if (!f) {
		memset(args, 0, sizeof(*args));
		args->out.status = HL_WAIT_CS_STATUS_COMPLETED;
		args->out.flags = HL_WAIT_CS_STATUS_FLAG_GONE;
		return 0;
	}
	if (!us) {
		r = dma_fence_is_signaled(f);
	} else {
		r = dma_fence_wait_timeout(f, true, gaudi_us_to_jiffies(us));
		if (r < 0) {
			/* args untouched: a restarted call waits again. */
			dma_fence_put(f);
			return -EINTR;
		}
	}
	memset(args, 0, sizeof(*args));
	if (!r) {
		dma_fence_put(f);
		args->out.status = HL_WAIT_CS_STATUS_BUSY;
		return 0;
	}
	err = f->error;
	if (container_of(f, struct gaudi_cs, fence)->timestamp) {
		ts = ktime_to_ns(f->timestamp);
		ts_valid = true;
	}
	dma_fence_put(f);
	if (err == -ETIMEDOUT) {
		args->out.status = HL_WAIT_CS_STATUS_TIMEDOUT;
		return -ETIMEDOUT;
	}
	if (err) {
		args->out.status = HL_WAIT_CS_STATUS_ABORTED;
		return -EIO;
	}
	args->out.status = HL_WAIT_CS_STATUS_COMPLETED;
	if (ts_valid) {
		args->out.flags = HL_WAIT_CS_STATUS_FLAG_TIMESTAMP_VLD;
		args->out.timestamp_nsec = ts;
	}
	return 0;
}

/*
 * Multi-CS wait: up to HL_WAIT_MULTI_CS_LIST_MAX_LEN sequences, returns
 * when at least one has completed (bit i of cs_completion_map for each
 * one that has) or the timeout expires (status BUSY).
 */
static int gaudi_wait_multi(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			    union hl_wait_cs_args *args)
{
	u32 n = args->in.seq_arr_len, map = 0, i, live = 0;
	struct dma_fence *f[HL_WAIT_MULTI_CS_LIST_MAX_LEN];
	u64 seqs[HL_WAIT_MULTI_CS_LIST_MAX_LEN];
	u64 us = args->in.timeout_us;
	s64 first_ts = 0;
	bool gone = false;
	long r;
	int ret = 0;

	if (!n || n > HL_WAIT_MULTI_CS_LIST_MAX_LEN)
		return -EINVAL;
	if (copy_from_user(seqs, u64_to_user_ptr(args->in.seq),
			   n * sizeof(u64)))
		return -EFAULT;
	for (i = 0; i < n; i++) {
		f[i] = gaudi_ctx_fence(gdev, ctx, seqs[i]);
		if (IS_ERR(f[i])) {
			ret = PTR_ERR(f[i]);
			while (i--)
				if (f[i])
					dma_fence_put(f[i]);
			return ret;
		}
	}
	for (i = 0; i < n; i++)
		if (f[i])
			f[live++] = f[i];
		else
			gone = true;
	if (!gone && live && us) {
		r = dma_fence_wait_any_timeout(f, live, true,
					       gaudi_us_to_jiffies(us), NULL);
		if (r < 0) {
			/* args untouched: a restarted call waits again. */
			for (i = 0; i < live; i++)
				dma_fence_put(f[i]);
			return -EINTR;
		}
	}
	/* Map bits follow the caller's order; collect after the wait. */
	for (i = 0; i < n; i++) {
		struct dma_fence *fi = gaudi_ctx_fence(gdev, ctx, seqs[i]);

		if (!fi) {
			map |= BIT(i);
			continue;
		}
		if (dma_fence_is_signaled(fi)) {
			if (fi->error)
				ret = fi->error == -ETIMEDOUT ? -ETIMEDOUT :
								-EIO;
			map |= BIT(i);
			if (!first_ts || ktime_to_ns(fi->timestamp) < first_ts)
				first_ts = ktime_to_ns(fi->timestamp);
		}
		dma_fence_put(fi);
	}
	for (i = 0; i < live; i++)
		dma_fence_put(f[i]);
	memset(args, 0, sizeof(*args));
	if (ret == -ETIMEDOUT) {
		args->out.status = HL_WAIT_CS_STATUS_TIMEDOUT;
		return ret;
	}
	if (ret == -EIO) {
		args->out.status = HL_WAIT_CS_STATUS_ABORTED;
		return ret;
	}
	if (ret)
		return ret;
	args->out.cs_completion_map = map;
	args->out.status = map ? HL_WAIT_CS_STATUS_COMPLETED :
				 HL_WAIT_CS_STATUS_BUSY;
	if (map && first_ts) {
		args->out.flags = HL_WAIT_CS_STATUS_FLAG_TIMESTAMP_VLD;
		args->out.timestamp_nsec = first_ts;
	}
	return 0;
}

int gaudi_wait_cs_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct gaudi_device *gdev = to_gaudi(drm);
	struct gaudi_ctx *ctx = gaudi_file_ctx(file);
	union hl_wait_cs_args *args = data;
	u32 flags = args->in.flags;

	if (!ctx)
		return -EINVAL;
	if (flags & HL_WAIT_CS_FLAGS_INTERRUPT) {
		/* Gaudi 1 has no user interrupts: EPERM, as upstream. */
		gaudi_dbg(gdev, CS, "WAIT_CS: no user interrupts on Gaudi 1\n");
		return -EPERM;
	}
	if (flags & (HL_WAIT_CS_FLAGS_INTERRUPT_KERNEL_CQ |
		     HL_WAIT_CS_FLAGS_REGISTER_INTERRUPT)) {
		gaudi_dbg(gdev, CS, "WAIT_CS: interrupt flags without INTERRUPT\n");
		return -EINVAL;
	}
	if (flags & HL_WAIT_CS_FLAGS_MULTI_CS)
		return gaudi_wait_multi(gdev, ctx, args);
	return gaudi_wait_one(gdev, ctx, args);
}
