// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: command submission (DRM_IOCTL_HL_CS) and completion
 * (DRM_IOCTL_HL_WAIT_CS).
 *
 * A CS is a list of chunks, each naming a queue and a command buffer.  The
 * driver never lets a queue execute a buffer a user can still change: every
 * chunk is copied into a kernel CB, and the copy is parsed packet by packet
 * (forbidden packets -EPERM, malformed or out-of-range ones -EINVAL).  Jobs
 * on the external queues get the two completion packets appended.  A CS
 * ends when all of its external jobs have written their completion entries;
 * a CS with no external job is refused, as upstream does, since nothing
 * would tell its end.
 *
 * Each CS carries one dma_fence whose seqno is the CS sequence number.  The
 * context keeps the last GAUDI_MAX_PENDING_CS fences in a ring indexed by
 * sequence: a new CS whose ring slot is still in flight waits for it
 * (back-pressure), as does a CS for which a queue has no room.
 *
 * A CS that does not end within its timeout (module parameter
 * timeout_locked, or the CS's own with HL_CS_FLAGS_CUSTOM_TIMEOUT) is
 * reported (HL_INFO_CS_TIMEOUT_EVENT, HL_NOTIFIER_EVENT_CS_TIMEOUT) and the
 * device is hard reset; the reset ends every CS in flight: the timed-out
 * one with -ETIMEDOUT (WAIT_CS status TIMEDOUT), the others with -EIO
 * (ABORTED).
 */
#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/nospec.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "gaudi_break.h"
#include "gaudi_drv.h"
#include "gaudi_trace.h"
#include "gaudi_cs.h"
#include "gaudi_file.h"
#include "gaudi_parser.h"

#define GAUDI_CQ_PKTS_SIZE	32	/* two MSG_PROT */
#define GAUDI_CLOSE_WAIT	(10 * HZ)
/* How long a stream may take to drain after its CSs ended, at close. */
#define GAUDI_QUIESCE_WAIT	(HZ / 2)
/* How long a submitter waits for room on a full internal queue. */
#define GAUDI_INT_FULL_WAIT	(HZ / 10)

/* ---- fences --------------------------------------------------------------- */

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

static struct gaudi_ctx *file_ctx(struct drm_file *file)
{
	struct gaudi_file *gfile = file->driver_priv;

	return gfile ? gfile->ctx : NULL;
}

/* ---- the parser (gaudi_parser.c) ---------------------------------------- */

/*
 * At most this many CP_DMA targets per job, of at most HL_MAX_CB_SIZE
 * bytes together: each is copied and parsed at submission.
 */
#define GAUDI_CS_MAX_SUBS	256

/* What the parser's callbacks of one job need. */
struct gaudi_cs_parse {
	struct gaudi_device *gdev;
	struct gaudi_ctx *ctx;
	struct gaudi_job *job;	/* NULL: no CP_DMA (a lower CB) */
	u32 qid;
	u32 encaps_sob;
};

static bool gaudi_cs_mapped(void *priv, u64 va, u64 len)
{
	struct gaudi_cs_parse *cp = priv;

	return gaudi_mem_range_mapped(cp->ctx, va, len);
}

/**
 * gaudi_cs_snapshot() - copy a CB from user memory, as it is now
 * @gdev: the device
 * @ctx: the holder's context
 * @addr: device address: user SRAM, user HBM or a host mapping of @ctx
 * @len: bytes
 * @buf: where to copy
 *
 * SRAM and HBM are read through their BARs (BAR0 is all of SRAM, BAR4
 * HBM from address 0), host memory through the kernel's mapping of the
 * pinned pages.  What the device runs is the copy: a user who rewrites
 * the original afterwards changes nothing of this job.
 *
 * Return: 0, or -EINVAL if [@addr, @addr + @len) is not the user's.
 */
static int gaudi_cs_snapshot(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			     u64 addr, u32 len, void *buf)
{
	if (addr >= GAUDI_SRAM_USER_START && addr < GAUDI_SRAM_END &&
	    len <= GAUDI_SRAM_END - addr) {
		memcpy_fromio(buf, gdev->pci.sram + (addr - GAUDI_SRAM_BASE),
			      len);
		return 0;
	}
	if (addr >= GAUDI_DRAM_USER_START && addr < GAUDI_HBM_SIZE &&
	    len <= GAUDI_HBM_SIZE - addr) {
		if (addr + len > gdev->pci.hbm_bar_size)
			return -EINVAL;
		memcpy_fromio(buf, gdev->pci.hbm + addr, len);
		return 0;
	}
	if (addr >= GAUDI_VA_HOST_START && addr < GAUDI_VA_HOST_END)
		return gaudi_mem_copy_from_map(ctx, addr, buf, len);
	return -EINVAL;
}

static int gaudi_parse_job(struct gaudi_cs_parse *cp, const void *cb,
			   u32 size, bool lower);

/*
 * The parser's cfg->cp_dma: snapshot the @len bytes at @addr that the
 * CP_DMA at byte @offset of the job's CB starts, parse the copy as a lower
 * CB, place it in the driver's HBM (as internal CBs, gaudi_queue.c) and
 * point the packet at it.  The copy lives as long as the job: freed (and
 * cleared) only when the queue's done word has passed the job.
 */
static int gaudi_cs_cp_dma(void *priv, u32 offset, u64 addr, u32 len)
{
	struct gaudi_cs_parse *cp = priv;
	struct gaudi_device *gdev = cp->gdev;
	struct gaudi_job *job = cp->job;
	struct gaudi_job_sub *sub;
	__le32 *pkt;
	void *buf;
	int ret;

	if (job->nsubs >= GAUDI_CS_MAX_SUBS ||
	    len > HL_MAX_CB_SIZE - job->sub_bytes) {
		gaudi_dbg(gdev, CS, "queue %u: CP_DMA at offset 0x%x: more than %u targets or %u bytes of them\n",
			  cp->qid, offset, GAUDI_CS_MAX_SUBS, HL_MAX_CB_SIZE);
		return -EINVAL;
	}
	if (!job->subs) {
		job->subs = kcalloc(GAUDI_CS_MAX_SUBS, sizeof(*job->subs),
				    GFP_KERNEL);
		if (!job->subs)
			return -ENOMEM;
	}
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = gaudi_cs_snapshot(gdev, cp->ctx, addr, len, buf);
	if (ret) {
		gaudi_dbg(gdev, CS, "queue %u: CP_DMA at offset 0x%x: 0x%llx + %u cannot be read\n",
			  cp->qid, offset, addr, len);
		goto out;
	}
	ret = GAUDI_BROKEN(CP_DMA_UNPARSED) ? 0 :
	      gaudi_parse_job(cp, buf, len, true);
	if (ret) {
		gaudi_dbg(gdev, CS, "queue %u: the CB of the CP_DMA at offset 0x%x refused\n",
			  cp->qid, offset);
		goto out;
	}
	gaudi_scrub_mark_cb(gdev, cp->qid, buf, len);
	sub = &job->subs[job->nsubs];
	ret = gaudi_icb_alloc(gdev, buf, len, &sub->icb);
	if (ret)
		goto out;
	sub->size = len;
	job->nsubs++;
	job->sub_bytes += len;
	pkt = job->kcb + offset;
	pkt[2] = cpu_to_le32(lower_32_bits(sub->icb));
	pkt[3] = cpu_to_le32(upper_32_bits(sub->icb));
out:
	kvfree(buf);
	return ret;
}

/*
 * The parser's cfg->rewrite: a COMMIT by WREG_32 becomes the LIN_DMA that
 * writes its bases, size and commit in one packet, in place in the job's
 * kernel CB (the upper CB: lower CBs commit only by LIN_DMA).
 */
static int gaudi_cs_rewrite(void *priv, u32 offset, const void *pkts, u32 len)
{
	struct gaudi_cs_parse *cp = priv;

	memcpy(cp->job->kcb + offset, pkts, len);
	return 0;
}

/* The parser's cfg->read: scalars a LOAD_AND_EXE loads, at submission. */
static int gaudi_cs_read(void *priv, u64 addr, u32 len, void *out)
{
	struct gaudi_cs_parse *cp = priv;

	return gaudi_cs_snapshot(cp->gdev, cp->ctx, addr, len, out) ? -EINVAL : 0;
}

/*
 * Check the kernel copy @cb (@size bytes) of a user CB for the job's queue
 * with the allowlist parser, as a lower CB (a CP_DMA target) if @lower;
 * refusals are logged here.
 */
static int gaudi_parse_job(struct gaudi_cs_parse *cp, const void *cb,
			   u32 size, bool lower)
{
	struct gaudi_device *gdev = cp->gdev;
	struct gaudi_dp *dp = gdev->dp;
	u32 qid = cp->qid;
	struct gaudi_hw_queue *q = &dp->hwq.q[qid];
	u32 fence_qm[GAUDI_NUM_QUEUES / 4], n = 0, i;
	struct gaudi_parser_cfg cfg = {
		.queue = qid,
		.qm_base = q->qm_base,
		.stream = q->stream,
		.external = q->external,
		.encaps_sob = cp->encaps_sob,
		.fence_qm = fence_qm,
		.lower = lower,
		.mapped = gaudi_cs_mapped,
		/*
		 * CP_DMA on internal queues only: upstream parses external
		 * CBs and refuses it there, so Habana's runtime never sends
		 * it there, and the external QMANs' CPs are trusted.
		 */
		.cp_dma = lower || q->external ? NULL : gaudi_cs_cp_dma,
		.rewrite = lower ? NULL : gaudi_cs_rewrite,
		.read = lower || q->external ? NULL : gaudi_cs_read,
		.priv = cp,
	};
	struct gaudi_parser_err err;
	int ret;

	cfg.engine = gaudi_cs_engine(qid);
	if (cfg.engine == GAUDI_ENGINE_NIC)
		cfg.nic_port = (qid - GAUDI_QUEUE_ID_NIC_0_0) / 4;
	/*
	 * User monitors may release the fences of any queue users run (the
	 * holder's own streams).  A QMAN whose streams the driver used for
	 * fenced work of its own would have to be left out.
	 */
	for (i = 0; i < GAUDI_NUM_QUEUES && n < ARRAY_SIZE(fence_qm); i++)
		if (dp->hwq.q[i].valid && dp->hwq.q[i].stream == 0)
			fence_qm[n++] = dp->hwq.q[i].qm_base;
	cfg.num_fence_qm = n;

	ret = gaudi_parse_cb(&cfg, cb, size, &err);
	if (ret)
		gaudi_dbg(gdev, CS, "queue %u: %s%s at offset 0x%x: %s (0x%llx)\n",
			  qid, lower ? "CP_DMA target: " : "",
			  gaudi_parser_pkt_name(err.opcode), err.offset,
			  err.reason, err.value);
	return ret;
}

/* ---- jobs and CS life cycle -------------------------------------------- */

/*
 * Free the jobs of @cs, except those whose kernel CB a queue may still
 * read: they become orphans, freed once their queue's done word passes
 * them (gaudi_queue.c).  A CS ending does not mean its internal jobs, or
 * the parts of a staged submission without completion packets, are done.
 */
static void gaudi_cs_free_jobs(struct gaudi_device *gdev, struct gaudi_cs *cs)
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

static void gaudi_tdr_arm_locked(struct gaudi_dp *dp)
{
	struct gaudi_cs *cs;
	long delay;

	lockdep_assert_held(&dp->lock);

	cs = list_first_entry_or_null(&dp->sched.pending, struct gaudi_cs, node);
	if (!cs || !gaudi_timeout_locked || cs->timed_out)
		return;
	delay = (long)(cs->deadline - jiffies);
	mod_delayed_work(system_wq, &dp->sched.tdr, max(delay, 0L));
}

unsigned int gaudi_cs_engine(u32 queue)
{
	if (queue >= GAUDI_QUEUE_ID_NIC_0_0 && queue <= GAUDI_QUEUE_ID_NIC_9_3)
		return GAUDI_ENGINE_NIC;
	if (queue >= GAUDI_QUEUE_ID_TPC_0_0 && queue <= GAUDI_QUEUE_ID_TPC_7_3)
		return GAUDI_ENGINE_TPC;
	if (queue >= GAUDI_QUEUE_ID_MME_0_0 && queue <= GAUDI_QUEUE_ID_MME_1_3)
		return GAUDI_ENGINE_MME;
	return GAUDI_ENGINE_DMA;
}

/*
 * Engine time: a CS's classes are busy for its context from its push to
 * its completion; overlapping CSs count once (a union, not a sum).
 */
static void gaudi_busy_start_locked(struct gaudi_cs *cs, ktime_t now)
{
	struct gaudi_ctx *ctx = cs->ctx;
	unsigned long m = cs->engines;
	unsigned int c;

	lockdep_assert_held(&cs->gdev->dp->lock);
	for_each_set_bit(c, &m, GAUDI_NUM_ENGINE_CLASSES)
		if (!ctx->busy_inflight[c]++)
			ctx->busy_since[c] = now;
}

static void gaudi_busy_end_locked(struct gaudi_cs *cs, ktime_t now)
{
	struct gaudi_ctx *ctx = cs->ctx;
	unsigned long m = cs->engines;
	unsigned int c;

	lockdep_assert_held(&cs->gdev->dp->lock);
	for_each_set_bit(c, &m, GAUDI_NUM_ENGINE_CLASSES)
		if (!--ctx->busy_inflight[c])
			ctx->busy_ns[c] += ktime_to_ns(ktime_sub(now,
						ctx->busy_since[c]));
	cs->engines = 0;
}

void gaudi_cs_busy_ns(struct gaudi_ctx *ctx,
		      u64 busy[GAUDI_NUM_ENGINE_CLASSES])
{
	struct gaudi_dp *dp = ctx->gdev->dp;
	ktime_t now = ktime_get();
	unsigned int c;

	spin_lock_irq(&dp->lock);
	for (c = 0; c < GAUDI_NUM_ENGINE_CLASSES; c++) {
		busy[c] = ctx->busy_ns[c];
		if (ctx->busy_inflight[c])
			busy[c] += ktime_to_ns(ktime_sub(now,
							 ctx->busy_since[c]));
	}
	spin_unlock_irq(&dp->lock);
}

u64 gaudi_cs_submitted(struct gaudi_ctx *ctx)
{
	struct gaudi_dp *dp = ctx->gdev->dp;
	u64 n;

	spin_lock_irq(&dp->lock);
	n = ctx->next_seq - 1;
	spin_unlock_irq(&dp->lock);
	return n;
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
	gaudi_busy_end_locked(cs, ktime_get());
	list_move_tail(&cs->node, done);
	cs->queued = false;
	dp->sched.space_gen++;
	gaudi_sob_put_locked(cs->ctx, &cs->sob_ref);
	if (cs->coll) {
		gaudi_sync_coll_done_locked(cs->ctx, cs->coll - 1);
		cs->coll = 0;
	}
	/* PQ slots are freed by the done words, not here (gaudi_queue.c). */
	if (cs->encaps) {
		gaudi_encaps_release_locked(cs->ctx, cs->encaps);
		cs->encaps = NULL;
	}
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

/* A completion entry for @job arrived (dp->lock held, hard IRQ). */
void gaudi_cs_job_done(struct gaudi_device *gdev, struct gaudi_job *job)
{
	struct gaudi_cs *cs = job->cs, *first, *part, *tmp;

	if (job->done || !cs->queued)
		return;
	job->done = true;
	if (--cs->ext_pending)
		return;
	/* Freeing may not happen under the spinlock: gaudi_cs_reap() does. */
	if (!cs->staged) {
		gaudi_cs_complete_locked(gdev, cs, 0, &gdev->dp->sched.done);
		return;
	}
	/* The LAST part of a staged submission ends every part. */
	first = cs->first;
	list_for_each_entry_safe(part, tmp, &first->parts, part_node) {
		list_del_init(&part->part_node);
		if (part->queued)
			gaudi_cs_complete_locked(gdev, part, 0,
						 &gdev->dp->sched.done);
	}
}

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
	unsigned int i;
	LIST_HEAD(done);

	cancel_delayed_work(&dp->sched.tdr);
	spin_lock_irq(&dp->lock);
	list_for_each_entry_safe(cs, tmp, &dp->sched.pending, node)
		gaudi_cs_complete_locked(gdev, cs,
					 cs->timed_out ? -ETIMEDOUT : -EIO,
					 &done);
	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		struct gaudi_hw_queue *q = &dp->hwq.q[i];

		q->pi = 0;
		q->ci = 0;
		q->cq_pi = 0;
		if (q->slot)
			memset(q->slot, 0, q->entries * sizeof(*q->slot));
	}
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

void gaudi_cs_tdr_work(struct work_struct *work)
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

/* ---- CS ioctl ------------------------------------------------------------ */

#define GAUDI_CS_FLAGS_SUPPORTED (HL_CS_FLAGS_FORCE_RESTORE |                \
				  HL_CS_FLAGS_TIMESTAMP |                    \
				  HL_CS_FLAGS_CUSTOM_TIMEOUT |               \
				  HL_CS_FLAGS_SKIP_RESET_ON_TIMEOUT |        \
				  HL_CS_FLAGS_STAGED_SUBMISSION |            \
				  HL_CS_FLAGS_STAGED_SUBMISSION_FIRST |      \
				  HL_CS_FLAGS_STAGED_SUBMISSION_LAST |       \
				  HL_CS_FLAGS_ENCAP_SIGNALS)
#define GAUDI_CS_FLAGS_TYPE (HL_CS_FLAGS_SIGNAL | HL_CS_FLAGS_WAIT |          \
			     HL_CS_FLAGS_COLLECTIVE_WAIT |                    \
			     HL_CS_FLAGS_RESERVE_SIGNALS_ONLY |               \
			     HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY |             \
			     HL_CS_FLAGS_ENGINE_CORE_COMMAND |                \
			     HL_CS_FLAGS_ENGINES_COMMAND |                    \
			     HL_CS_FLAGS_FLUSH_PCI_HBW_WRITES)

static void gaudi_cs_count(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			   int ret, bool parsing)
{
	struct gaudi_dp *dp = gdev->dp;

	if (ret == -ENOMEM) {
		atomic64_inc(&dp->sched.out_of_mem_drop);
		atomic64_inc(&ctx->out_of_mem_drop);
	} else if (parsing) {
		atomic64_inc(&dp->sched.parsing_drop);
		atomic64_inc(&ctx->parsing_drop);
	} else {
		atomic64_inc(&dp->sched.validation_drop);
		atomic64_inc(&ctx->validation_drop);
	}
}

/* Copy and parse one chunk into a new job of @cs. */
static int gaudi_cs_add_job(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			    struct gaudi_cs *cs, const struct hl_cs_chunk *ch,
			    u32 encaps_sob, bool *parse_fail)
{
	struct gaudi_cs_parse cp = {
		.gdev = gdev, .ctx = ctx, .encaps_sob = encaps_sob,
	};
	struct gaudi_hw_queue *q;
	struct gaudi_cb *cb = NULL;
	struct gaudi_job *job;
	u32 qid = ch->queue_index, cb_len;
	void *src = NULL;
	u64 off = 0;
	int ret;

	if (qid >= GAUDI_NUM_QUEUES || !gdev->dp->hwq.q[qid].valid) {
		gaudi_dbg(gdev, CS, "CS: queue %u does not exist or is not a user queue\n",
			  qid);
		return -EINVAL;
	}
	qid = array_index_nospec(qid, GAUDI_NUM_QUEUES);
	/* A NIC queue is there when its port is (as upstream's). */
	if (gaudi_cs_engine(qid) == GAUDI_ENGINE_NIC &&
	    !(READ_ONCE(gdev->nic.ports_mask) &
	      BIT((qid - GAUDI_QUEUE_ID_NIC_0_0) / 4))) {
		gaudi_dbg(gdev, CS, "CS: queue %u: its NIC port is disabled\n",
			  qid);
		return -EINVAL;
	}
	q = &gdev->dp->hwq.q[qid];
	if (ch->cs_chunk_flags & ~HL_CS_CHUNK_FLAGS_USER_ALLOC_CB) {
		gaudi_dbg(gdev, CS, "CS: chunk flags 0x%x not supported\n",
			  ch->cs_chunk_flags);
		return -EINVAL;
	}
	if (ch->cb_size > HL_MAX_CB_SIZE) {
		gaudi_dbg(gdev, CS, "CS: chunk of %u bytes is too large\n",
			  ch->cb_size);
		return -EINVAL;
	}
	/* As upstream (get_cb_from_cs_chunk): a CB handle's chunk holds a packet. */
	if (q->external && ch->cb_size < 8) {
		gaudi_dbg(gdev, CS, "CS: queue %u: chunk of %u bytes holds no packet\n",
			  qid, ch->cb_size);
		return -EINVAL;
	}
	/*
	 * External queues name a CB handle, internal ones (as upstream) the
	 * device address of the CB: a CB of this file mapped into the device
	 * MMU (HL_CB_FLAGS_MAP), or else a CB in user memory (Habana's runtime
	 * allocates its internal CBs itself), as also an external queue's
	 * chunk with HL_CS_CHUNK_FLAGS_USER_ALLOC_CB whose handle is none of
	 * this file.  A CB in user memory is snapshotted (gaudi_cs_snapshot())
	 * and the copy parsed and run, never the original.
	 */
	if (q->external)
		cb = gaudi_cb_get(ctx, ch->cb_handle);
	else
		cb = gaudi_cb_get_by_va(ctx, ch->cb_handle, ch->cb_size, &off);
	if (!cb && q->external &&
	    !(ch->cs_chunk_flags & HL_CS_CHUNK_FLAGS_USER_ALLOC_CB)) {
		gaudi_dbg(gdev, CS, "CS: queue %u: no CB 0x%llx of this file\n",
			  qid, ch->cb_handle);
		return -EINVAL;
	}
	if (cb) {
		src = gaudi_cb_vaddr(cb, &cb_len);
		if (ch->cb_size > cb_len - off) {
			gaudi_dbg(gdev, CS, "CS: queue %u: %u bytes do not fit the CB (%u)\n",
				  qid, ch->cb_size, cb_len);
			ret = -EINVAL;
			goto out_put;
		}
	}

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		ret = -ENOMEM;
		goto out_put;
	}
	job->cs = cs;
	job->queue = qid;
	/* Of a staged submission, only the LAST part's jobs complete. */
	job->cq = q->external && (!cs->staged || cs->staged_last);
	job->len = ch->cb_size;
	job->kcb_size = ch->cb_size + gaudi_done_size(q) +
			(job->cq ? GAUDI_CQ_PKTS_SIZE : 0);
	job->kcb_alloc = job->kcb_size;
	job->kcb = gaudi_kcb_alloc(gdev, job->kcb_alloc, &job->kcb_dma);
	if (!job->kcb) {
		kfree(job);
		ret = -ENOMEM;
		goto out_put;
	}
	list_add_tail(&job->node, &cs->jobs);
	if (job->cq)
		cs->ext_pending++;
	else
		cs->int_jobs++;
	if (src) {
		memcpy(job->kcb, src + off, ch->cb_size);
	} else if (gaudi_cs_snapshot(gdev, ctx, ch->cb_handle, ch->cb_size,
				     job->kcb)) {
		gaudi_dbg(gdev, CS, "CS: queue %u: 0x%llx + %u is no CB of this file nor user memory\n",
			  qid, ch->cb_handle, ch->cb_size);
		ret = -EINVAL;
		goto out_put;
	}

	cp.job = job;
	cp.qid = qid;
	ret = gaudi_parse_job(&cp, job->kcb, ch->cb_size, false);
	if (ret) {
		*parse_fail = true;
	} else {	/* what it may write is cleared for the next holder */
		gaudi_scrub_mark_cb(gdev, qid, job->kcb, ch->cb_size);
		if (!q->external)
			ret = gaudi_icb_alloc(gdev, job->kcb, job->kcb_alloc,
					      &job->icb);
	}
out_put:
	if (cb)
		gaudi_cb_put(cb);
	return ret;
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
 * first part in flight and not closed (*@first); a first part with
 * encapsulated signals needs its reservation, not taken by another CS
 * (*@e).  -EINVAL otherwise.
 */
static int gaudi_cs_staged_check_locked(struct gaudi_device *gdev,
					struct gaudi_ctx *ctx,
					struct gaudi_cs *cs,
					struct gaudi_cs **first,
					struct gaudi_encaps **e)
{
	u64 seq = cs->staged_seq;
	struct gaudi_cs *f = NULL;

	lockdep_assert_held(&gdev->dp->lock);

	*first = NULL;
	*e = NULL;
	if (!cs->staged)
		return 0;
	if (cs->staged_first) {
		if (!cs->encaps_id)
			return 0;
		*e = gaudi_encaps_free_locked(ctx, cs->encaps_id);
		if (!*e) {
			gaudi_dbg(gdev, CS, "CS: no free signal reservation %u\n",
				  cs->encaps_id);
			return -EINVAL;
		}
		return 0;
	}
	if (seq && seq < ctx->next_seq)
		f = ctx->ring[seq & (GAUDI_MAX_PENDING_CS - 1)];
	if (!f || f->seq != seq || !f->queued || !f->staged_first ||
	    f->staged_closed) {
		gaudi_dbg(gdev, CS, "CS: staged submission %llu is not open\n",
			  seq);
		return -EINVAL;
	}
	*first = f;
	return 0;
}

/* The SOB staged part @cs may signal (0: none), or -EINVAL. */
static int gaudi_cs_staged_sob(struct gaudi_device *gdev,
			       struct gaudi_ctx *ctx, struct gaudi_cs *cs,
			       u32 *sob)
{
	struct gaudi_encaps *e;
	struct gaudi_cs *first;
	int ret;

	spin_lock_irq(&gdev->dp->lock);
	ret = gaudi_cs_staged_check_locked(gdev, ctx, cs, &first, &e);
	if (!ret && first)
		e = first->encaps;
	*sob = e ? gaudi_encaps_sob(e) : 0;
	spin_unlock_irq(&gdev->dp->lock);
	return ret;
}

/* Link staged part @cs into its submission (dp->lock held, committed). */
static void gaudi_cs_staged_bind_locked(struct gaudi_ctx *ctx,
					struct gaudi_cs *cs,
					struct gaudi_cs *first,
					struct gaudi_encaps *e)
{
	lockdep_assert_held(&ctx->gdev->dp->lock);

	if (cs->staged_first) {
		first = cs;
		INIT_LIST_HEAD(&cs->parts);
		if (e) {
			gaudi_encaps_bind_locked(ctx, e, cs->seq);
			cs->encaps = e;
		}
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
static int gaudi_cs_submit(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			   struct gaudi_cs *cs, u64 *seq_out)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_sched *sched = &dp->sched;
	unsigned long touched[BITS_TO_LONGS(GAUDI_NUM_QUEUES)] = {};
	struct gaudi_cs *prev, *first = NULL;
	struct dma_fence *old = NULL;
	struct gaudi_encaps *e = NULL;
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
		if (!GAUDI_BROKEN(SUBMIT_LOCK))
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
			ret = cs->signal ?
			      gaudi_sync_signal_ready_locked(ctx, cs->sig.queue) :
			      cs->coll ?
			      gaudi_sync_coll_ready_locked(ctx, cs->coll - 1,
							   cs->coll_slaves) :
			      1;
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
								   &first, &e) ?: 1;
		}
		if (ret > 0)
			break;
		gen = dp->sched.space_gen;
		spin_unlock_irq(&dp->lock);
		if (!GAUDI_BROKEN(SUBMIT_LOCK))
			mutex_unlock(&dp->sched.submit_lock);
		gaudi_hw_exit(gdev, idx);
		if (ret == -EAGAIN) {
			gaudi_dbg(gdev, CS, "CS: %u CSs in flight, the oldest of an open staged submission\n",
				  GAUDI_MAX_PENDING_CS);
			atomic64_inc(&dp->sched.max_cs_drop);
			atomic64_inc(&ctx->max_cs_drop);
		} else if (ret == -EBUSY) {
			gaudi_dbg(gdev, CS, "signal: queue %u's other SOB is held by a signal reservation\n",
				  cs->sig.queue);
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
	if (cs->signal) {
		job = list_first_entry(&cs->jobs, struct gaudi_job, node);
		cs->sob_ref = gaudi_sync_signal_locked(ctx, &cs->sig, job->kcb);
	}
	if (cs->coll) {
		/* The master job is the last: its monitor's target. */
		job = list_last_entry(&cs->jobs, struct gaudi_job, node);
		gaudi_sync_coll_locked(ctx, cs->coll - 1, cs->coll_slaves,
				       (__le32 *)job->kcb + GAUDI_COLL_ARM_DWORD);
	}
	if (cs->staged)
		gaudi_cs_staged_bind_locked(ctx, cs, first, e);
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
		cs->engines |= BIT(gaudi_cs_engine(job->queue));
	}
	gaudi_busy_start_locked(cs, ktime_get());
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

	if (!GAUDI_BROKEN(SUBMIT_LOCK))
		mutex_unlock(&dp->sched.submit_lock);
	/* The model completes inside the doorbell: reap at once. */
	gaudi_cs_reap(gdev);
	gaudi_hw_exit(gdev, idx);
	if (old)
		dma_fence_put(old);
	return 0;
}

/* The kernel-job API (gaudi_cs.h). */
/*
 * Submit the @n kernel jobs @kj as one CS: a signal or wait CS (one job on
 * an external queue, kj[0].signal for a signal) or, with @coll, a
 * collective wait (the slaves' jobs on internal queues first, the
 * master's, external, last).  kj[0].watch, the SOB a wait watches, passes
 * to the CS.  *@sig: what a signal CS signals.
 */
static int gaudi_cs_submit_kjobs(struct gaudi_device *gdev,
				 struct gaudi_ctx *ctx, struct gaudi_kjob *kj,
				 unsigned int n, bool coll, u64 *seq,
				 struct gaudi_signal *sig)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_job *job;
	struct gaudi_cs *cs;
	unsigned int i;
	int ret = -ENOMEM;

	cs = kzalloc(sizeof(*cs), GFP_KERNEL);
	if (!cs)
		goto err_put;
	cs->gdev = gdev;
	INIT_LIST_HEAD(&cs->jobs);
	INIT_LIST_HEAD(&cs->node);
	cs->signal = kj[0].signal;
	cs->sig.queue = kj[0].queue;
	cs->deadline = msecs_to_jiffies((gaudi_timeout_locked ?: 1) * 1000);
	for (i = 0; i < n; i++) {
		struct gaudi_hw_queue *q = &dp->hwq.q[kj[i].queue];

		ret = -ENOMEM;
		job = kzalloc(sizeof(*job), GFP_KERNEL);
		if (!job)
			goto err_free;
		job->cs = cs;
		job->queue = kj[i].queue;
		job->cq = q->external;
		job->len = kj[i].size;
		job->kcb_size = kj[i].size + gaudi_done_size(q) +
				(job->cq ? GAUDI_CQ_PKTS_SIZE : 0);
		job->kcb_alloc = job->kcb_size;
		job->kcb = gaudi_kcb_alloc(gdev, job->kcb_alloc, &job->kcb_dma);
		if (!job->kcb) {
			kfree(job);
			goto err_free;
		}
		memcpy(job->kcb, kj[i].pkts, kj[i].size);
		list_add_tail(&job->node, &cs->jobs);
		if (job->cq) {
			cs->ext_pending++;
		} else {
			cs->int_jobs++;
			ret = gaudi_icb_alloc(gdev, job->kcb, job->kcb_alloc,
					      &job->icb);
			if (ret)
				goto err_free;
		}
	}
	if (coll) {
		cs->coll = kj[n - 1].queue + 1;
		cs->coll_slaves = n - 1;
	}
	cs->sob_ref = kj[0].watch;
	kj[0].watch = GAUDI_SOB_REF_NONE;
	ret = gaudi_cs_submit(gdev, ctx, cs, seq);
	if (ret) {
		/* Never bound: nothing to give back but the references. */
		cs->coll = 0;
		gaudi_cs_free_jobs(gdev, cs);
		gaudi_sob_put(gdev, ctx, &cs->sob_ref);
		kfree(cs);
		return ret;
	}
	/* Read under the lock: the CS may already have completed. */
	if (sig) {
		spin_lock_irq(&dp->lock);
		*sig = cs->sig;
		spin_unlock_irq(&dp->lock);
	}
	dma_fence_put(&cs->fence);
	return 0;

err_free:
	gaudi_cs_free_jobs(gdev, cs);
	kfree(cs);
err_put:
	gaudi_sob_put(gdev, ctx, &kj[0].watch);
	return ret;
}

int gaudi_cs_submit_collective(struct gaudi_device *gdev,
			       struct gaudi_ctx *ctx, struct gaudi_kjob *kj,
			       unsigned int n, u64 *seq)
{
	return gaudi_cs_submit_kjobs(gdev, ctx, kj, n, true, seq, NULL);
}

int gaudi_cs_submit_kernel(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			   struct gaudi_kjob *kj, u64 *seq,
			   struct gaudi_signal *sig)
{
	return gaudi_cs_submit_kjobs(gdev, ctx, kj, 1, false, seq, sig);
}

/*
 * The signal CS @seq: 0 and what it signals, with a new reference on its
 * SOB (*@ref, the caller's to drop), 1 if it is gone, or -EINVAL.
 */
int gaudi_cs_find_signal(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			 u64 seq, struct gaudi_signal *sig,
			 struct gaudi_sob_ref *ref)
{
	struct gaudi_cs *cs;
	int ret = 1;

	spin_lock_irq(&gdev->dp->lock);
	if (!seq || seq >= ctx->next_seq) {
		ret = -EINVAL;
	} else {
		cs = ctx->ring[seq & (GAUDI_MAX_PENDING_CS - 1)];
		if (cs && cs->seq == seq) {
			if (!cs->signal) {
				ret = -EINVAL;
			} else {
				*sig = cs->sig;
				*ref = gaudi_sob_get_locked(ctx, sig);
				ret = 0;
			}
		}
	}
	spin_unlock_irq(&gdev->dp->lock);
	return ret;
}

int gaudi_cs_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct gaudi_device *gdev = to_gaudi(drm);
	struct gaudi_ctx *ctx = file_ctx(file);
	union hl_cs_args *args = data;
	struct hl_cs_chunk *chunks = NULL;
	u32 flags = args->in.cs_flags;
	u32 n_exec = args->in.num_chunks_execute;
	u32 n_rest = args->in.num_chunks_restore;
	bool restore, staged, parse_fail = false;
	u32 type, encaps_sob = 0;
	bool entered = false;
	struct gaudi_cs *cs;
	unsigned int i, n;
	u64 seq = 0;
	int idx, ret;

	if (!ctx)
		return -EINVAL;
	type = flags & GAUDI_CS_FLAGS_TYPE;
	if (type & (type - 1)) {
		gaudi_dbg(gdev, CS, "CS: type flags 0x%x are exclusive\n", type);
		ret = -EINVAL;
		goto out_count;
	}
	switch (type) {
	case HL_CS_FLAGS_SIGNAL:
	case HL_CS_FLAGS_WAIT:
		return gaudi_sync_cs_ioctl(gdev, ctx, args);
	case HL_CS_FLAGS_RESERVE_SIGNALS_ONLY:
		return gaudi_encaps_reserve_ioctl(gdev, ctx, args);
	case HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY:
		return gaudi_encaps_unreserve_ioctl(gdev, ctx, args);
	case HL_CS_FLAGS_COLLECTIVE_WAIT:
		return gaudi_coll_cs_ioctl(gdev, ctx, args);
	case HL_CS_FLAGS_ENGINE_CORE_COMMAND:
	case HL_CS_FLAGS_ENGINES_COMMAND:
		/*
		 * Gaudi 1 has no engine modes to change: EPERM, upstream's
		 * answer on such an ASIC (command_submission.c).
		 */
		gaudi_dbg(gdev, CS, "CS: engine commands are not supported on Gaudi 1\n");
		return -EPERM;
	case HL_CS_FLAGS_FLUSH_PCI_HBW_WRITES:
		/*
		 * A flush of the posted PCI writes, no CS: a register read
		 * through the BAR (the read completes after them).  As
		 * upstream, 0 and no sequence (out.seq U64_MAX).
		 */
		if (!drm_dev_enter(drm, &idx))
			return -ENODEV;
		RREG32(gdev, mmHW_STATE);
		drm_dev_exit(idx);
		memset(args, 0, sizeof(*args));
		args->out.seq = U64_MAX;
		return 0;
	default:
		break;
	}
	if (flags & ~GAUDI_CS_FLAGS_SUPPORTED) {
		gaudi_dbg(gdev, CS, "CS: flags 0x%x not supported\n", flags);
		ret = -EINVAL;
		goto out_count;
	}
	staged = flags & HL_CS_FLAGS_STAGED_SUBMISSION;
	if (!staged && (flags & (HL_CS_FLAGS_STAGED_SUBMISSION_FIRST |
				 HL_CS_FLAGS_STAGED_SUBMISSION_LAST))) {
		gaudi_dbg(gdev, CS, "CS: FIRST/LAST without STAGED_SUBMISSION\n");
		ret = -EINVAL;
		goto out_count;
	}
	if ((flags & HL_CS_FLAGS_ENCAP_SIGNALS) &&
	    (!staged || !(flags & HL_CS_FLAGS_STAGED_SUBMISSION_FIRST) ||
	     !args->in.encaps_sig_handle_id)) {
		gaudi_dbg(gdev, CS, "CS: encapsulated signals need the first part of a staged submission and a reservation\n");
		ret = -EINVAL;
		goto out_count;
	}
	if (!n_exec || n_exec > HL_MAX_JOBS_PER_CS ||
	    n_rest > HL_MAX_JOBS_PER_CS) {
		gaudi_dbg(gdev, CS, "CS: %u execute / %u restore chunks (1..%u / 0..%u)\n",
			  n_exec, n_rest, HL_MAX_JOBS_PER_CS,
			  HL_MAX_JOBS_PER_CS);
		ret = -EINVAL;
		goto out_count;
	}
	restore = n_rest && (!READ_ONCE(ctx->restored) ||
			     (flags & HL_CS_FLAGS_FORCE_RESTORE));
	n = n_exec + (restore ? n_rest : 0);
	chunks = kvmalloc_array(n, sizeof(*chunks), GFP_KERNEL);
	if (!chunks) {
		ret = -ENOMEM;
		goto out_count;
	}
	if (restore &&
	    copy_from_user(chunks, u64_to_user_ptr(args->in.chunks_restore),
			   n_rest * sizeof(*chunks))) {
		ret = -EFAULT;
		goto out_free_chunks;
	}
	if (copy_from_user(chunks + (restore ? n_rest : 0),
			   u64_to_user_ptr(args->in.chunks_execute),
			   n_exec * sizeof(*chunks))) {
		ret = -EFAULT;
		goto out_free_chunks;
	}

	/*
	 * Reading the CBs and building the jobs: inside drm_dev_enter(), the
	 * removal takes CB memory back after it.  Not the submission, which
	 * may wait for room or for an older CS (gaudi_cs_submit()).
	 */
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_free_chunks;
	}
	entered = true;
	cs = kzalloc(sizeof(*cs), GFP_KERNEL);
	if (!cs) {
		ret = -ENOMEM;
		goto out_exit;
	}
	cs->gdev = gdev;
	INIT_LIST_HEAD(&cs->jobs);
	INIT_LIST_HEAD(&cs->node);
	cs->sob_ref = GAUDI_SOB_REF_NONE;
	cs->timestamp = flags & HL_CS_FLAGS_TIMESTAMP;
	cs->skip_reset = flags & HL_CS_FLAGS_SKIP_RESET_ON_TIMEOUT;
	INIT_LIST_HEAD(&cs->part_node);
	if (staged) {
		cs->staged = true;
		cs->staged_first = flags & HL_CS_FLAGS_STAGED_SUBMISSION_FIRST;
		cs->staged_last = flags & HL_CS_FLAGS_STAGED_SUBMISSION_LAST;
		if (!cs->staged_first)
			cs->staged_seq = args->in.seq;
		else if (flags & HL_CS_FLAGS_ENCAP_SIGNALS)
			cs->encaps_id = args->in.encaps_sig_handle_id;
		ret = gaudi_cs_staged_sob(gdev, ctx, cs, &encaps_sob);
		if (ret)
			goto out_free_cs;
	}
	/* Relative timeout for now; made absolute at submission. */
	if ((flags & HL_CS_FLAGS_CUSTOM_TIMEOUT) && args->in.timeout)
		cs->deadline = msecs_to_jiffies(min_t(u32, args->in.timeout,
						      24 * 3600) * 1000);
	else
		cs->deadline = msecs_to_jiffies((gaudi_timeout_locked ?: 1) *
						1000);

	for (i = 0; i < n; i++) {
		ret = gaudi_cs_add_job(gdev, ctx, cs, &chunks[i], encaps_sob,
				       &parse_fail);
		if (ret)
			goto out_free_cs;
	}
	if (!cs->ext_pending && (!cs->staged || cs->staged_last)) {
		gaudi_dbg(gdev, CS, "CS: only internal queues: nothing would complete it\n");
		ret = -EINVAL;
		goto out_free_cs;
	}

	drm_dev_exit(idx);
	entered = false;
	ret = gaudi_cs_submit(gdev, ctx, cs, &seq);
	if (ret)
		goto out_free_cs;
	if (restore)
		WRITE_ONCE(ctx->restored, true);
	dma_fence_put(&cs->fence);	/* the ioctl's reference */
	kvfree(chunks);
	memset(args, 0, sizeof(*args));
	args->out.seq = seq;
	args->out.status = HL_CS_STATUS_SUCCESS;
	return 0;

out_free_cs:
	gaudi_cs_free_jobs(gdev, cs);
	kfree(cs);
out_exit:
	if (entered)
		drm_dev_exit(idx);
out_free_chunks:
	kvfree(chunks);
out_count:
	if (ret != -ERESTARTSYS && ret != -EINTR && ret != -EBUSY &&
	    ret != -ENODEV && ret != -EFAULT && ret != -EAGAIN)
		gaudi_cs_count(gdev, ctx, ret, parse_fail);
	/*
	 * A signal while waiting for room: nothing was queued, so the call
	 * may be restarted (SA_RESTART, stop/continue); EINTR otherwise.
	 */
	return ret;
}

/* ---- WAIT_CS ----------------------------------------------------------- */

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
	if (seq >= ctx->next_seq) {
		spin_unlock_irq(&gdev->dp->lock);
		return ERR_PTR(-EINVAL);
	}
	cs = ctx->ring[seq & (GAUDI_MAX_PENDING_CS - 1)];
	if (cs && cs->seq == seq)
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
	struct gaudi_ctx *ctx = file_ctx(file);
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

/* ---- INFO helpers ------------------------------------------------------ */

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

/* ---- per-file context ------------------------------------------------------ */

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
