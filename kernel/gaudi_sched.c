// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the CS scheduler: CSs in flight, their fences, room on the
 * queues, commit, timeouts, completion and abort.
 *
 * Each CS carries one dma_fence whose seqno is the CS sequence number.  The
 * context keeps the last GAUDI_MAX_PENDING_CS fences in a ring indexed by
 * sequence: a new CS whose ring slot is still in flight waits for it
 * (back-pressure), as does a CS for which a queue has no room.  One
 * submitter at a time commits (sched.submit_lock): sequence, fence, the
 * hooks of a CS someone else built (struct gaudi_cs_ops), descriptors, then
 * the doorbells, internal queues first.  The queues report each external
 * job's completion entry (struct gaudi_hwq_client); a CS ends when all of
 * its external jobs have, and is freed in process context (gaudi_cs_reap()).
 *
 * A CS that does not end within its timeout (module parameter
 * timeout_locked, or the CS's own with HL_CS_FLAGS_CUSTOM_TIMEOUT) is
 * reported (HL_INFO_CS_TIMEOUT_EVENT, HL_NOTIFIER_EVENT_CS_TIMEOUT) and the
 * device is hard reset; the reset ends every CS in flight: the timed-out
 * one with -ETIMEDOUT (WAIT_CS status TIMEDOUT), the others with -EIO
 * (ABORTED).
 *
 * The kernel-job API (gaudi_cs_submit_kernel()) is how the sync code
 * submits the CSs it builds; the scheduler never calls the sync code.
 */

/**
 * DOC: why not drm_sched
 *
 * drm_sched queues jobs per entity in software and a scheduler thread
 * pushes them to one hardware ring each when their dependency fences have
 * signalled and the ring has credits; its timeout handler recovers a hung
 * ring.  This driver keeps upstream habanalabs' submission semantics,
 * which do not fit that model:
 *
 * - HL_CS is synchronous: when the ioctl returns the CS is on the hardware
 *   queues or has failed with an errno the caller acts on (EAGAIN for an
 *   internal queue with no room, EBUSY during a reset, the parser's
 *   EPERM/EINVAL); back-pressure blocks the submitter instead of queuing
 *   in the kernel.  A software queue in front would turn those answers
 *   into fence errors after the return.
 * - One CS spans up to HL_MAX_JOBS_PER_CS jobs on any of the ~100 queues
 *   and must reach them in one step, internal queues before the external
 *   jobs that end it; drm_sched has one ring per scheduler and no gang
 *   submission across schedulers.
 * - Dependencies between CSs (signal/wait, collective waits, encapsulated
 *   signals) are resolved by the device's sync manager, not by the driver
 *   waiting on fences: there are no in-fences to schedule on.
 *
 * What drm_sched would bring, a timeout handler and job bookkeeping, is
 * here in about 400 lines (gaudi_cs_tdr_work(), gaudi_cs_submit(),
 * gaudi_cs_reap()).  If the driver ever takes dependency fences from
 * userspace (drm_syncobj in/out fences) or asynchronous submission, that
 * is the point to move to drm_sched, one scheduler per external stream.
 */
#include <linux/bitfield.h>
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "gaudi1/memmap.h"
#include "gaudi1/packets.h"
#include "gaudi1/regs.h"
#include "gaudi_acct.h"
#include "gaudi_dp_types.h"
#include "gaudi_drv.h"
#include "gaudi_file.h"
#include "gaudi_file_types.h"
#include "gaudi_hw.h"
#include "gaudi_queue.h"
#include "gaudi_reset.h"
#include "gaudi_sched.h"
#include "gaudi_types.h"
#include "gaudi_trace.h"

#define GAUDI_CQ_PKTS_SIZE	32	/* two MSG_PROT */
/* How long a submitter waits for room on a full internal queue. */
#define GAUDI_INT_FULL_WAIT	(HZ / 10)

static const char *gaudi_fence_driver_name(struct dma_fence *f)
{
	return GAUDI_DRV_NAME;
}

static const char *gaudi_fence_timeline_name(struct dma_fence *f)
{
	return "cs";
}

static void gaudi_fence_release(struct dma_fence *f)
{
	/* The fence is the first member: this frees the CS after RCU. */
	dma_fence_free(f);
}

static const struct dma_fence_ops gaudi_fence_ops = {
	.get_driver_name = gaudi_fence_driver_name,
	.get_timeline_name = gaudi_fence_timeline_name,
	.release = gaudi_fence_release,
};

/*
 * Free the jobs of @cs, except those whose kernel CB a queue may still
 * read: they become orphans, freed once their queue's done word passes
 * them (gaudi_queue.c).  A CS ending does not mean its internal jobs, or
 * the parts of a staged submission without completion packets, are done.
 */
void gaudi_cs_free_jobs(struct gaudi_device *gdev, struct gaudi_cs *cs)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_job *job, *tmp;
	LIST_HEAD(free);

	spin_lock_irq(&dp->lock);
	list_for_each_entry_safe(job, tmp, &cs->jobs, node) {
		list_del(&job->node);
		job->cs = NULL;
		if (job->on_hw)
			job->orphan = true;
		else
			list_add_tail(&job->node, &free);
	}
	spin_unlock_irq(&dp->lock);
	list_for_each_entry_safe(job, tmp, &free, node)
		gaudi_job_free(gdev, job);
}

/*
 * Have the timeout work run by the deadline of the oldest CS in flight.
 * A timer already set for that deadline or earlier is left alone: the
 * work finds the oldest CS not yet expired and sets it again for that
 * CS's deadline (gaudi_cs_tdr_work()).  So a stream of CSs that end in
 * time costs one timer per timeout period, not one per CS, and no CS is
 * found timed out later than before.
 */
static void gaudi_tdr_arm_locked(struct gaudi_dp *dp)
{
	struct delayed_work *tdr = &dp->sched.tdr;
	struct gaudi_cs *cs;
	long delay;

	lockdep_assert_held(&dp->lock);

	cs = list_first_entry_or_null(&dp->sched.pending, struct gaudi_cs, node);
	if (!cs || !gaudi_timeout_locked || cs->timed_out)
		return;
	if (delayed_work_pending(tdr) &&
	    time_before_eq(READ_ONCE(tdr->timer.expires), cs->deadline))
		return;
	delay = (long)(cs->deadline - jiffies);
	mod_delayed_work(system_wq, tdr, max(delay, 0L));
}

/* End @cs (dp->lock held): signal its fence, release internal slots. */
static void gaudi_cs_complete_locked(struct gaudi_device *gdev,
				     struct gaudi_cs *cs, int error,
				     struct list_head *done)
{
	struct gaudi_dp *dp = gdev->dp;
	bool head = list_first_entry(&dp->sched.pending, struct gaudi_cs, node) == cs;

	lockdep_assert_held(&dp->lock);

	trace_gaudi_cs_complete(gdev->index, cs->seq, error);
	gaudi_acct_busy_locked(cs, ktime_get(), false);
	list_move_tail(&cs->node, done);
	cs->queued = false;
	dp->sched.space_gen++;
	if (cs->ops && cs->ops->done_locked)
		cs->ops->done_locked(cs);
	/* PQ slots are freed by the done words, not here (gaudi_queue.c). */
	if (error)
		dma_fence_set_error(&cs->fence, error);
	dma_fence_signal(&cs->fence);
	if (head)
		gaudi_tdr_arm_locked(dp);
}

static void gaudi_cs_cleanup(struct gaudi_device *gdev, struct list_head *done)
{
	struct gaudi_cs *cs, *tmp;

	list_for_each_entry_safe(cs, tmp, done, node) {
		list_del(&cs->node);
		gaudi_cs_free_jobs(gdev, cs);
		dma_fence_put(&cs->fence);	/* the in-flight reference */
	}
}

/*
 * The queues' client (gaudi_queue_set_client()): a completion entry for
 * @job arrived (dp->lock held, hard IRQ).  True when ended CSs wait for
 * gaudi_cs_reap().
 */
static bool gaudi_cs_job_done_locked(struct gaudi_device *gdev,
				     struct gaudi_job *job)
{
	struct gaudi_cs *cs = job->cs, *first, *part, *tmp;
	struct gaudi_sched *sched = &gdev->dp->sched;

	if (job->done || !cs->queued)
		goto out;
	job->done = true;
	if (--cs->ext_pending)
		goto out;
	/* Freeing may not happen under the spinlock: gaudi_cs_reap() does. */
	if (!cs->staged) {
		gaudi_cs_complete_locked(gdev, cs, 0, &sched->done);
		goto out;
	}
	/* The LAST part of a staged submission ends every part. */
	first = cs->first;
	list_for_each_entry_safe(part, tmp, &first->parts, part_node) {
		list_del_init(&part->part_node);
		if (part->queued)
			gaudi_cs_complete_locked(gdev, part, 0, &sched->done);
	}
out:
	return !list_empty(&sched->done);
}

/* End of a completion interrupt: reap a little later, wake submitters. */
static void gaudi_cs_irq_end(struct gaudi_device *gdev, bool reap)
{
	struct gaudi_sched *sched = &gdev->dp->sched;

	if (reap)
		queue_delayed_work(system_wq, &sched->reap_work,
				   GAUDI_REAP_DELAY);
	/*
	 * Submitters wait for room there only when a queue is full; the
	 * barrier of wq_has_sleeper() pairs with their prepare_to_wait().
	 */
	if (wq_has_sleeper(&sched->space_wq))
		wake_up_all(&sched->space_wq);
}

static const struct gaudi_hwq_client gaudi_cs_hwq_client = {
	.job_done_locked = gaudi_cs_job_done_locked,
	.irq_end = gaudi_cs_irq_end,
};

void gaudi_cs_reap(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	LIST_HEAD(done);

	spin_lock_irq(&dp->lock);
	list_splice_init(&dp->sched.done, &done);
	spin_unlock_irq(&dp->lock);
	gaudi_cs_cleanup(gdev, &done);
	/* Kernel CBs of internal queues are consumed without an interrupt. */
	spin_lock_irq(&dp->lock);
	gaudi_queue_retire_all_locked(gdev);
	spin_unlock_irq(&dp->lock);
	gaudi_queue_free_retired(gdev);
}

void gaudi_cs_abort_all(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_cs *cs, *tmp;
	LIST_HEAD(done);

	cancel_delayed_work(&dp->sched.tdr);
	spin_lock_irq(&dp->lock);
	list_for_each_entry_safe(cs, tmp, &dp->sched.pending, node)
		gaudi_cs_complete_locked(gdev, cs,
					 cs->timed_out ? -ETIMEDOUT : -EIO,
					 &done);
	gaudi_queue_reset_locked(gdev);
	list_splice_init(&dp->sched.done, &done);
	spin_unlock_irq(&dp->lock);
	gaudi_cs_cleanup(gdev, &done);
	wake_up_all(&dp->sched.space_wq);
}

/*
 * An engine stopped on an error: an MMU page fault, a DMA core error or a
 * queue error (gaudi_eq.c).  The stream dropped the CB it ran, completion
 * packets included, so its CS would end only by its timeout.  With work in
 * flight the device is reset at once instead, as upstream resets on a
 * fatal engine error: every CS in flight ends with -EIO (ABORTED) within
 * the reset's first milliseconds.  A page fault also records the mappings
 * the context had (HL_INFO_USER_MAPPINGS).
 */
void gaudi_cs_engine_error(struct gaudi_device *gdev, bool page_fault)
{
	struct gaudi_dp *dp = gdev->dp;
	bool busy;

	if (!READ_ONCE(dp->hwq.enabled))
		return;
	if (page_fault)
		queue_work(system_wq, &dp->mem.pf_work);
	spin_lock_irq(&dp->lock);
	busy = !list_empty(&dp->sched.pending);
	spin_unlock_irq(&dp->lock);
	/* A stream that dropped a CB never writes its done word. */
	busy = busy || !gaudi_queues_idle(gdev);
	if (!busy)
		return;
	gaudi_user_err(gdev, "engine error with work in flight: resetting the device\n");
	gaudi_reset_schedule(gdev, "engine error with work in flight");
}

static void gaudi_cs_tdr_work(struct work_struct *work)
{
	struct gaudi_dp *dp = container_of(to_delayed_work(work),
					   struct gaudi_dp, sched.tdr);
	struct gaudi_device *gdev = dp->gdev;
	struct gaudi_cs *cs;
	bool skip;
	u64 seq;

	spin_lock_irq(&dp->lock);
	cs = list_first_entry_or_null(&dp->sched.pending, struct gaudi_cs, node);
	if (!cs || cs->timed_out) {
		spin_unlock_irq(&dp->lock);
		return;
	}
	if (time_before(jiffies, cs->deadline)) {
		gaudi_tdr_arm_locked(dp);
		spin_unlock_irq(&dp->lock);
		return;
	}
	cs->timed_out = true;
	seq = cs->seq;
	skip = cs->skip_reset;
	dp->sched.timeout_valid = true;
	dp->sched.timeout_ev.timestamp = ktime_to_ns(ktime_get());
	dp->sched.timeout_ev.seq = seq;
	spin_unlock_irq(&dp->lock);

	gaudi_user_err(gdev, "CS %llu timed out%s\n", seq,
		       skip ? " (no reset requested)" : ", resetting the device");
	gaudi_file_notify(gdev, HL_NOTIFIER_EVENT_CS_TIMEOUT);
	if (!skip)
		gaudi_reset_schedule(gdev, "command submission timed out");
}

static void gaudi_cs_reap_work(struct work_struct *work)
{
	struct gaudi_dp *dp = container_of(to_delayed_work(work),
					   struct gaudi_dp, sched.reap_work);

	gaudi_cs_reap(dp->gdev);
}

/* The scheduler's part of gaudi_dp_sw_init(), before the queues'. */
void gaudi_cs_sw_init(struct gaudi_device *gdev)
{
	struct gaudi_sched *sched = &gdev->dp->sched;

	mutex_init(&sched->submit_lock);
	init_waitqueue_head(&sched->space_wq);
	INIT_LIST_HEAD(&sched->pending);
	INIT_LIST_HEAD(&sched->done);
	INIT_DELAYED_WORK(&sched->tdr, gaudi_cs_tdr_work);
	INIT_DELAYED_WORK(&sched->reap_work, gaudi_cs_reap_work);
	gaudi_queue_set_client(gdev, &gaudi_cs_hwq_client);
}

void gaudi_cs_sw_fini(struct gaudi_device *gdev)
{
	mutex_destroy(&gdev->dp->sched.submit_lock);
}

/*
 * Before the queues' memory goes at removal: no timeout or reaping is
 * pending any more, every ended CS is freed.
 */
void gaudi_cs_fini(struct gaudi_device *gdev)
{
	struct gaudi_sched *sched = &gdev->dp->sched;

	cancel_delayed_work_sync(&sched->tdr);
	cancel_delayed_work_sync(&sched->reap_work);
}

/*
 * The completion packets of @job, in PQ slot @idx: the CQ entry names the
 * slot; entries are written in order, one per job with completion (jobs
 * of staged parts before the LAST have none), at the queue's cq_pi.
 */
static void gaudi_job_add_cq_pkts(struct gaudi_device *gdev,
				  struct gaudi_job *job, u32 idx)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_hw_queue *q = &dp->hwq.q[job->queue];
	__le32 *p = job->kcb + job->kcb_size - GAUDI_CQ_PKTS_SIZE;
	u64 cq = gaudi_host_dev_addr(dp->hwq.cq[job->queue].dma) +
		 4 * (q->cq_pi & (GAUDI_CQ_ENTRIES - 1));
	u64 msi = GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ;

	p[0] = cpu_to_le32(CQ_ENTRY_READY | CQ_ENTRY_SHADOW_VALID |
			   FIELD_PREP(CQ_ENTRY_SHADOW_INDEX, idx));
	p[1] = cpu_to_le32(FIELD_PREP(PKT_CTL_OPCODE, PKT_MSG_PROT) |
			   PKT_CTL_EB | PKT_CTL_MB);
	p[2] = cpu_to_le32(lower_32_bits(cq));
	p[3] = cpu_to_le32(upper_32_bits(cq));
	p[4] = cpu_to_le32(1);
	p[5] = cpu_to_le32(FIELD_PREP(PKT_CTL_OPCODE, PKT_MSG_PROT) |
			   PKT_CTL_MB);
	p[6] = cpu_to_le32(lower_32_bits(msi));
	p[7] = cpu_to_le32(upper_32_bits(msi));
	q->cq_pi = (q->cq_pi + 1) & (2 * GAUDI_CQ_ENTRIES - 1);
}

/*
 * Room on every queue @cs uses (dp->lock held)?  1 yes; 0 not on an
 * external queue (its completions will make room); -EAGAIN not on an
 * internal queue, whose stream may be held in a FENCE for as long as the
 * user likes and frees slots without an interrupt.  PQ space counts from
 * the done words, so a PQ never overruns.
 */
static int gaudi_cs_fits(struct gaudi_device *gdev, struct gaudi_cs *cs,
			 unsigned int *full)
{
	struct gaudi_dp *dp = gdev->dp;
	u16 need[GAUDI_NUM_QUEUES] = {};
	struct gaudi_job *job;

	list_for_each_entry(job, &cs->jobs, node) {
		struct gaudi_hw_queue *q = &dp->hwq.q[job->queue];

		if (!need[job->queue]++)
			gaudi_queue_retire_locked(gdev, job->queue);
		if (need[job->queue] > gaudi_queue_free_slots(q)) {
			*full = job->queue;
			return q->external ? 0 : -EAGAIN;
		}
	}
	return 1;
}

/*
 * Where staged part @cs belongs (dp->lock held): a later part needs its
 * first part in flight and not closed (*@first); -EINVAL otherwise.
 */
int gaudi_cs_staged_check_locked(struct gaudi_device *gdev,
				 struct gaudi_ctx *ctx, struct gaudi_cs *cs,
				 struct gaudi_cs **first)
{
	u64 seq = cs->staged_seq;
	struct gaudi_cs *f = NULL;

	lockdep_assert_held(&gdev->dp->lock);

	*first = NULL;
	if (!cs->staged || cs->staged_first)
		return 0;
	if (seq)
		f = gaudi_cs_lookup_locked(ctx, seq);
	if (IS_ERR_OR_NULL(f) || !f->queued || !f->staged_first ||
	    f->staged_closed) {
		gaudi_dbg(gdev, CS, "CS: staged submission %llu is not open\n",
			  seq);
		return -EINVAL;
	}
	*first = f;
	return 0;
}

/* Link staged part @cs into its submission (dp->lock held, committed). */
static void gaudi_cs_staged_bind_locked(struct gaudi_ctx *ctx,
					struct gaudi_cs *cs,
					struct gaudi_cs *first)
{
	lockdep_assert_held(&ctx->gdev->dp->lock);

	if (cs->staged_first) {
		first = cs;
		INIT_LIST_HEAD(&cs->parts);
	} else {
		/* The first part's timeout covers the submission. */
		cs->deadline = first->deadline;
	}
	cs->first = first;
	list_add_tail(&cs->part_node, &first->parts);
	if (cs->staged_last)
		first->staged_closed = true;
}

/*
 * Put @cs on the queues.  Waits (interruptibly) while the context has
 * GAUDI_MAX_PENDING_CS in flight or a queue is full; never holds the reset
 * lock while waiting.
 */
int gaudi_cs_submit(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
		    struct gaudi_cs *cs, u64 *seq_out)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_sched *sched = &dp->sched;
	unsigned long touched[BITS_TO_LONGS(GAUDI_NUM_QUEUES)] = {};
	struct gaudi_cs *prev, *first = NULL;
	struct dma_fence *old = NULL;
	struct gaudi_job *job;
	unsigned long full_until = 0;
	unsigned int i, fq = 0, blk = 0;
	u32 blk_ci = 0;
	int idx, ret;
	bool full;
	u64 seq, gen;

	for (;;) {
		full = false;
		ret = gaudi_hw_enter(gdev, &idx);
		if (ret) {
			atomic64_inc(&dp->sched.in_reset_drop);
			atomic64_inc(&ctx->in_reset_drop);
			return ret == -ENODEV ? ret : -EBUSY;
		}
		mutex_lock(&dp->sched.submit_lock);
		spin_lock_irq(&dp->lock);
		seq = ctx->next_seq;
		prev = ctx->ring[seq & (GAUDI_MAX_PENDING_CS - 1)];
		/* ret > 0: go; 0: wait for @old or for room; < 0: fail. */
		if (prev && !dma_fence_is_signaled(&prev->fence)) {
			/* Waiting for an open staged submission may not end. */
			if (prev->staged && !prev->first->staged_closed) {
				ret = -EAGAIN;
			} else {
				old = dma_fence_get(&prev->fence);
				ret = 0;
			}
		} else {
			ret = cs->ops && cs->ops->ready_locked ?
			      cs->ops->ready_locked(cs) : 1;
			if (ret > 0) {
				ret = gaudi_cs_fits(gdev, cs, &fq);
				full = ret == -EAGAIN;
				if (full)
					ret = 0;
				/* Progress restarts the wait below. */
				if (full && (fq != blk ||
					     dp->hwq.q[fq].ci != blk_ci)) {
					blk = fq;
					blk_ci = dp->hwq.q[fq].ci;
					full_until = 0;
				}
			}
			if (ret > 0)
				ret = gaudi_cs_staged_check_locked(gdev, ctx, cs,
								   &first) ?: 1;
		}
		if (ret > 0)
			break;
		gen = dp->sched.space_gen;
		spin_unlock_irq(&dp->lock);
		mutex_unlock(&dp->sched.submit_lock);
		gaudi_hw_exit(gdev, idx);
		if (ret == -EAGAIN) {
			gaudi_dbg(gdev, CS, "CS: %u CSs in flight, the oldest of an open staged submission\n",
				  GAUDI_MAX_PENDING_CS);
			atomic64_inc(&dp->sched.max_cs_drop);
			atomic64_inc(&ctx->max_cs_drop);
		}
		if (ret < 0)
			return ret;
		/*
		 * An internal queue is full: poll (it frees slots without an
		 * interrupt) while it makes progress; after 100 ms without
		 * any, fail with EAGAIN, as upstream does at once.
		 */
		if (full && !full_until)
			full_until = jiffies + GAUDI_INT_FULL_WAIT;
		if (full && time_after(jiffies, full_until)) {
			gaudi_dbg(gdev, CS, "CS: an internal queue has no room (its stream is not consuming)\n");
			atomic64_inc(&dp->sched.queue_full_drop);
			atomic64_inc(&ctx->queue_full_drop);
			return -EAGAIN;
		}
		if (full) {
			schedule_timeout_interruptible(1);
			ret = signal_pending(current) ? -ERESTARTSYS : 0;
		} else if (old) {
			ret = dma_fence_wait(old, true);
			dma_fence_put(old);
			old = NULL;
		} else {
			ret = wait_event_interruptible_timeout(sched->space_wq,
							       READ_ONCE(sched->space_gen) != gen,
							       HZ);
		}
		if (ret < 0)
			return ret;
	}

	/* Under dp->lock: sequence, fence, descriptors. */
	ctx->next_seq++;
	cs->seq = seq;
	dma_fence_init(&cs->fence, &gaudi_fence_ops, &ctx->fence_lock,
		       ctx->fence_context, seq);
	old = prev ? &prev->fence : NULL;
	ctx->ring[seq & (GAUDI_MAX_PENDING_CS - 1)] = cs;
	dma_fence_get(&cs->fence);	/* the ring's */
	dma_fence_get(&cs->fence);	/* in flight, dropped at the end */
	cs->deadline = jiffies + cs->deadline;
	cs->queued = true;
	cs->ctx = ctx;
	if (cs->ops && cs->ops->commit_locked)
		cs->ops->commit_locked(cs);
	if (cs->staged)
		gaudi_cs_staged_bind_locked(ctx, cs, first);
	/* A staged submission is known by its first part's sequence. */
	*seq_out = cs->staged ? cs->first->seq : seq;
	list_add_tail(&cs->node, &dp->sched.pending);
	if (list_is_singular(&dp->sched.pending))
		gaudi_tdr_arm_locked(dp);
	trace_gaudi_cs_submit(gdev->index, seq,
			      list_count_nodes(&cs->jobs), cs->staged);

	list_for_each_entry(job, &cs->jobs, node) {
		struct gaudi_hw_queue *q = &dp->hwq.q[job->queue];

		if (job->cq)
			gaudi_job_add_cq_pkts(gdev, job,
					      q->pi & (q->entries - 1));
		gaudi_queue_push(gdev, job);
		__set_bit(job->queue, touched);
		cs->engines |= BIT(gaudi_queue_engine(job->queue));
	}
	gaudi_acct_busy_locked(cs, ktime_get(), true);
	spin_unlock_irq(&dp->lock);

	/*
	 * Internal queues first: the external jobs that end the CS are
	 * started last.
	 */
	i = GAUDI_NUM_EXT_QUEUES;
	for_each_set_bit_from(i, touched, GAUDI_NUM_QUEUES)
		gaudi_queue_ring(gdev, i);
	for_each_set_bit(i, touched, GAUDI_NUM_EXT_QUEUES)
		gaudi_queue_ring(gdev, i);

	mutex_unlock(&dp->sched.submit_lock);
	/* The model completes inside the doorbell: reap at once. */
	gaudi_cs_reap(gdev);
	gaudi_hw_exit(gdev, idx);
	if (old)
		dma_fence_put(old);
	return 0;
}

/**
 * gaudi_job_new() - a new job of @cs, its kernel CB allocated
 * @gdev: the device
 * @cs: the CS, not yet submitted
 * @queue: the job's queue
 * @len: bytes of packets the caller puts at the start of job->kcb
 * @cq: with the completion packets (external queues; not for the staged
 *	parts before the LAST)
 *
 * Room is left after the packets for what the queue appends (done word,
 * completion packets).
 *
 * Return: the job, on @cs's list, or NULL without memory.
 */
struct gaudi_job *gaudi_job_new(struct gaudi_device *gdev, struct gaudi_cs *cs,
				u32 queue, u32 len, bool cq)
{
	struct gaudi_hw_queue *q = &gdev->dp->hwq.q[queue];
	struct gaudi_job *job;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return NULL;
	job->cs = cs;
	job->queue = queue;
	job->cq = cq;
	job->len = len;
	job->kcb_size = len + gaudi_done_size(q) +
			(cq ? GAUDI_CQ_PKTS_SIZE : 0);
	job->kcb_alloc = job->kcb_size;
	job->kcb = gaudi_kcb_alloc(gdev, job->kcb_alloc, &job->kcb_dma);
	if (!job->kcb) {
		kfree(job);
		return NULL;
	}
	list_add_tail(&job->node, &cs->jobs);
	if (cq)
		cs->ext_pending++;
	else
		cs->int_jobs++;
	return job;
}

/**
 * gaudi_cs_alloc() - a new CS, not yet submitted
 * @gdev: the device
 * @ctx: the context it is for
 * @priv_size: bytes of its owner's data (cs->priv), zeroed; 0 for none
 *
 * Return: the CS, or NULL without memory.
 */
struct gaudi_cs *gaudi_cs_alloc(struct gaudi_device *gdev,
				struct gaudi_ctx *ctx, size_t priv_size)
{
	struct gaudi_cs *cs;

	/* The fence is the first member: its release frees it all. */
	cs = kzalloc(sizeof(*cs) + priv_size, GFP_KERNEL);
	if (!cs)
		return NULL;
	cs->gdev = gdev;
	cs->ctx = ctx;
	cs->priv = priv_size ? cs + 1 : NULL;
	INIT_LIST_HEAD(&cs->jobs);
	INIT_LIST_HEAD(&cs->node);
	INIT_LIST_HEAD(&cs->part_node);
	return cs;
}

/**
 * gaudi_cs_lookup_locked() - the CS of sequence @seq
 * @ctx: its context
 * @seq: its sequence number
 *
 * Under dp->lock; the CS stays valid while it is held.
 *
 * Return: the CS, NULL if it is so old it is gone (it completed), or
 * ERR_PTR(-EINVAL) for a sequence not submitted yet.
 */
struct gaudi_cs *gaudi_cs_lookup_locked(struct gaudi_ctx *ctx, u64 seq)
{
	struct gaudi_cs *cs;

	lockdep_assert_held(&ctx->gdev->dp->lock);
	if (seq >= ctx->next_seq)
		return ERR_PTR(-EINVAL);
	cs = ctx->ring[seq & (GAUDI_MAX_PENDING_CS - 1)];
	return cs && cs->seq == seq ? cs : NULL;
}

/**
 * gaudi_cs_submit_kernel() - submit jobs the driver built as one CS
 * @gdev: the device
 * @ctx: the holder's context
 * @kj: the jobs, in order; the last one on an external queue
 * @n: how many
 * @ops: the CS's hooks (struct gaudi_cs_ops)
 * @priv: its owner's data, copied into the CS, and back once submitted
 * @priv_size: bytes at @priv
 * @seq: the CS's sequence number
 *
 * Return: 0, or a negative errno (nothing was submitted, no hook ran but
 * @ops->ready_locked).
 */
int gaudi_cs_submit_kernel(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			   const struct gaudi_kjob *kj, unsigned int n,
			   const struct gaudi_cs_ops *ops, void *priv,
			   size_t priv_size, u64 *seq)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_job *job;
	struct gaudi_cs *cs;
	unsigned int i;
	int ret;

	cs = gaudi_cs_alloc(gdev, ctx, priv_size);
	if (!cs)
		return -ENOMEM;
	cs->ops = ops;
	memcpy(cs->priv, priv, priv_size);
	cs->deadline = msecs_to_jiffies((gaudi_timeout_locked ?: 1) * 1000);
	for (i = 0; i < n; i++) {
		ret = -ENOMEM;
		job = gaudi_job_new(gdev, cs, kj[i].queue, kj[i].size,
				    dp->hwq.q[kj[i].queue].external);
		if (!job)
			goto err_free;
		memcpy(job->kcb, kj[i].pkts, kj[i].size);
		if (!job->cq) {
			ret = gaudi_icb_alloc(gdev, job->kcb, job->kcb_alloc,
					      &job->icb);
			if (ret)
				goto err_free;
		}
	}
	ret = gaudi_cs_submit(gdev, ctx, cs, seq);
	if (ret)
		goto err_free;
	/* Read under the lock: the CS may already have completed. */
	spin_lock_irq(&dp->lock);
	memcpy(priv, cs->priv, priv_size);
	spin_unlock_irq(&dp->lock);
	dma_fence_put(&cs->fence);
	return 0;

err_free:
	gaudi_cs_free_jobs(gdev, cs);
	kfree(cs);
	return ret;
}

void gaudi_cs_counters(struct gaudi_device *gdev, struct gaudi_file *gfile,
		       struct hl_info_cs_counters *c)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_ctx *ctx = gfile ? gfile->ctx : NULL;

	memset(c, 0, sizeof(*c));
	c->total_out_of_mem_drop_cnt = atomic64_read(&dp->sched.out_of_mem_drop);
	c->total_parsing_drop_cnt = atomic64_read(&dp->sched.parsing_drop);
	c->total_queue_full_drop_cnt = atomic64_read(&dp->sched.queue_full_drop);
	c->total_device_in_reset_drop_cnt = atomic64_read(&dp->sched.in_reset_drop);
	c->total_max_cs_in_flight_drop_cnt = atomic64_read(&dp->sched.max_cs_drop);
	c->total_validation_drop_cnt = atomic64_read(&dp->sched.validation_drop);
	if (!ctx)
		return;
	c->ctx_out_of_mem_drop_cnt = atomic64_read(&ctx->out_of_mem_drop);
	c->ctx_parsing_drop_cnt = atomic64_read(&ctx->parsing_drop);
	c->ctx_queue_full_drop_cnt = atomic64_read(&ctx->queue_full_drop);
	c->ctx_device_in_reset_drop_cnt = atomic64_read(&ctx->in_reset_drop);
	c->ctx_max_cs_in_flight_drop_cnt = atomic64_read(&ctx->max_cs_drop);
	c->ctx_validation_drop_cnt = atomic64_read(&ctx->validation_drop);
}

bool gaudi_cs_timeout_event(struct gaudi_device *gdev,
			    struct hl_info_cs_timeout_event *ev)
{
	struct gaudi_dp *dp = gdev->dp;
	bool valid;

	spin_lock_irq(&dp->lock);
	valid = dp->sched.timeout_valid;
	*ev = dp->sched.timeout_ev;
	spin_unlock_irq(&dp->lock);
	return valid;
}
