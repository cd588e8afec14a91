// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: command submission (DRM_IOCTL_HL_CS): the ioctl and the jobs
 * of a user's CS.
 *
 * A CS is a list of chunks, each naming a queue and a command buffer.  The
 * driver never lets a queue execute a buffer a user can still change: every
 * chunk is copied into a kernel CB, and the copy is parsed packet by packet
 * (forbidden packets -EPERM, malformed or out-of-range ones -EINVAL).  Jobs
 * on the external queues get the two completion packets appended.  A CS
 * ends when all of its external jobs have written their completion entries;
 * a CS with no external job is refused, as upstream does, since nothing
 * would tell its end.  The jobs built, the CS goes to the scheduler
 * (gaudi_sched.c); signal, wait, collective wait and reservation requests
 * go to the sync code (gaudi_sync.c).
 */
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi_cb.h"
#include "gaudi_cs.h"
#include "gaudi_dp_types.h"
#include "gaudi_drv.h"
#include "gaudi_file.h"
#include "gaudi_hw.h"
#include "gaudi_mem.h"
#include "gaudi_parser.h"
#include "gaudi_queue.h"
#include "gaudi_sched.h"
#include "gaudi_scrub.h"
#include "gaudi_sync.h"
#include "gaudi_types.h"

/*
 * At most this many CP_DMA targets per job, of at most HL_MAX_CB_SIZE
 * bytes together: each is copied and parsed at submission.
 */
#define GAUDI_CS_MAX_SUBS	256

/* Chunks of a CS copied to the ioctl's stack, not to an allocation. */
#define GAUDI_CS_SMALL_CHUNKS	4

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
	ret = gaudi_parse_job(cp, buf, len, true);
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

	cfg.engine = gaudi_queue_engine(qid);
	if (cfg.engine == GAUDI_ENGINE_NIC)
		cfg.nic_port = (qid - GAUDI_QUEUE_ID_NIC_0_0) / 4;
	/*
	 * User monitors may release the fences of any queue users run (the
	 * holder's own streams).  A QMAN whose streams the driver used for
	 * fenced work of its own would have to be left out.
	 */
	for (i = 0; i < GAUDI_NUM_QUEUES && n < ARRAY_SIZE(fence_qm); i++) {
		if (!dp->hwq.q[i].valid || dp->hwq.q[i].stream != 0)
			continue;
		fence_qm[n++] = dp->hwq.q[i].qm_base;
		/*
		 * Its streams 1..3 follow (gaudi_queue_qm()): not looked at,
		 * since this runs for every job.  Were it otherwise, a QMAN
		 * would be missing here: a fence refused, never one allowed.
		 */
		i += 3;
	}
	cfg.num_fence_qm = n;

	ret = gaudi_parse_cb(&cfg, cb, size, &err);
	if (ret)
		gaudi_dbg(gdev, CS, "queue %u: %s%s at offset 0x%x: %s (0x%llx)\n",
			  qid, lower ? "CP_DMA target: " : "",
			  gaudi_parser_pkt_name(err.opcode), err.offset,
			  err.reason, err.value);
	return ret;
}

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
	if (gaudi_queue_engine(qid) == GAUDI_ENGINE_NIC &&
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

	/* Of a staged submission, only the LAST part's jobs complete. */
	job = gaudi_job_new(gdev, cs, qid, ch->cb_size,
			    q->external && (!cs->staged || cs->staged_last));
	if (!job) {
		ret = -ENOMEM;
		goto out_put;
	}
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
 * The SOB staged part @cs may signal (0: none): its own reservation's, or
 * its first part's; -EINVAL if it has none to join or the reservation is
 * not free.
 */
static int gaudi_cs_staged_sob(struct gaudi_device *gdev,
			       struct gaudi_ctx *ctx, struct gaudi_cs *cs,
			       u32 *sob)
{
	struct gaudi_cs *first;
	int ret;

	spin_lock_irq(&gdev->dp->lock);
	ret = gaudi_cs_staged_check_locked(gdev, ctx, cs, &first) ?:
	      gaudi_encaps_cs_sob_locked(first ?: cs, sob);
	spin_unlock_irq(&gdev->dp->lock);
	return ret;
}

int gaudi_cs_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct gaudi_device *gdev = to_gaudi(drm);
	struct gaudi_ctx *ctx = gaudi_file_ctx(file);
	union hl_cs_args *args = data;
	/* The chunks of a small CS (most): no allocation per CS. */
	struct hl_cs_chunk small[GAUDI_CS_SMALL_CHUNKS];
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
	if (n <= ARRAY_SIZE(small))
		chunks = small;
	else
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
	/* The first part with encapsulated signals: the sync code's hooks. */
	if (flags & HL_CS_FLAGS_ENCAP_SIGNALS)
		cs = gaudi_encaps_cs_alloc(gdev, ctx,
					   args->in.encaps_sig_handle_id);
	else
		cs = gaudi_cs_alloc(gdev, ctx, 0);
	if (!cs) {
		ret = -ENOMEM;
		goto out_exit;
	}
	cs->timestamp = flags & HL_CS_FLAGS_TIMESTAMP;
	cs->skip_reset = flags & HL_CS_FLAGS_SKIP_RESET_ON_TIMEOUT;
	if (staged) {
		cs->staged = true;
		cs->staged_first = flags & HL_CS_FLAGS_STAGED_SUBMISSION_FIRST;
		cs->staged_last = flags & HL_CS_FLAGS_STAGED_SUBMISSION_LAST;
		if (!cs->staged_first)
			cs->staged_seq = args->in.seq;
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
	if (chunks != small)
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
	if (chunks != small)
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
