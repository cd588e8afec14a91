// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: hardware queues and completion queues.
 *
 * Every QMAN has four streams; each stream is one queue id of the uapi and
 * has a primary queue (PQ) of 16-byte buffer descriptors in host memory
 * that the QMAN fetches through PCIe (device address = DMA address +
 * HOST_PHYS_BASE).  PQ_PI is the doorbell; both indices count modulo twice
 * the ring size, so a full ring and an empty one differ.
 *
 * The eight streams of DMA 0 and DMA 1 are the external queues: the driver
 * appends two MSG_PROT packets to every job on them, one writing an entry
 * into the queue's completion queue (CQ) in host memory, one raising the
 * MSI.  The hard interrupt handler walks the CQs and completes the jobs
 * whose entries are ready.  Jobs on internal queues (DMA 2..7, MME, TPC)
 * complete with the CS they belong to, whose external jobs end it.
 *
 * A CS ending says nothing about its internal jobs, nor about the parts of
 * a staged submission that have no completion packets: a stream may still
 * sit in a FENCE inside such a kernel CB and read the rest of it later.
 * A kernel CB is freed, and its PQ slot counts as free, only once the
 * queue has consumed it (gaudi_queue_retire_locked()):
 *  - external queues: every kernel CB ends with one more MSG_PROT (engine
 *    and message barriers) that writes the PQ position after the CB into
 *    the queue's "done word" in host memory; their CPs are trusted
 *    (GLBL_PROT), so that write reaches host memory;
 *  - internal queues, whose CPs run untrusted in the user's ASID and
 *    cannot write host memory: the QMAN's own PQ_CI, which the model
 *    advances when a CB has been executed to its end (or dropped on an
 *    error).  Whether silicon's PQ fetcher advances it earlier (when it
 *    has read the descriptor) is not known to us; if it does, a job must
 *    also be older than the fetcher's prefetch depth (to be checked).
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/genalloc.h>
#include <linux/interrupt.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>

#include "gaudi1/memmap.h"
#include "gaudi1/nic.h"
#include "gaudi1/packets.h"
#include "gaudi1/regs.h"
#include "gaudi_dp_types.h"
#include "gaudi_hw.h"
#include "gaudi_parser.h"
#include "gaudi_queue.h"
#include "gaudi_types.h"
#include "gaudi_trace.h"

u64 gaudi_host_dev_addr(dma_addr_t dma)
{
	return (u64)dma + GAUDI_HOST_PHYS_BASE;
}

/*
 * Kernel CBs (the parsed copies the queues execute) come from two DMA
 * pools when small, which is nearly always (a NOP or a LIN_DMA plus the
 * completion packets is under 64 bytes), and from dma_alloc_coherent()
 * otherwise.  The size alone tells which.
 */
static const u32 gaudi_kcb_pool_size[GAUDI_KCB_POOLS] = { 256, SZ_4K };

static unsigned int gaudi_cs_kmem_mb = 256;
module_param_named(cs_kmem_mb, gaudi_cs_kmem_mb, uint, 0644);
MODULE_PARM_DESC(cs_kmem_mb, "Kernel memory for the parsed CBs of the CSs in flight, in MiB (default 256)");

void *gaudi_kcb_alloc(struct gaudi_device *gdev, u32 size, dma_addr_t *dma)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;
	void *kcb;

	if (atomic64_add_return(size, &dp->hwq.kcb_bytes) >
	    (s64)READ_ONCE(gaudi_cs_kmem_mb) << 20) {
		atomic64_sub(size, &dp->hwq.kcb_bytes);
		gaudi_dbg(gdev, CS, "CS: kernel CB copies in flight over cs_kmem_mb=%u\n",
			  READ_ONCE(gaudi_cs_kmem_mb));
		return NULL;
	}
	for (i = 0; i < GAUDI_KCB_POOLS; i++)
		if (size <= gaudi_kcb_pool_size[i])
			break;
	if (i < GAUDI_KCB_POOLS)
		kcb = dma_pool_alloc(dp->hwq.kcb_pool[i], GFP_KERNEL, dma);
	else
		kcb = dma_alloc_coherent(&gdev->pdev->dev, size, dma,
					 GFP_KERNEL);
	if (!kcb)
		atomic64_sub(size, &dp->hwq.kcb_bytes);
	return kcb;
}

void gaudi_kcb_free(struct gaudi_device *gdev, u32 size, void *kcb,
		    dma_addr_t dma)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;

	atomic64_sub(size, &dp->hwq.kcb_bytes);
	for (i = 0; i < GAUDI_KCB_POOLS; i++) {
		if (size <= gaudi_kcb_pool_size[i]) {
			dma_pool_free(dp->hwq.kcb_pool[i], kcb, dma);
			return;
		}
	}
	dma_free_coherent(&gdev->pdev->dev, size, kcb, dma);
}

/*
 * Internal queues' CPs are untrusted (GLBL_PROT): they cannot fetch host
 * memory outside the user's ASID.  Their parsed CB copies are placed in
 * the top 64 MiB of the driver's HBM, which the HBW range registers leave
 * readable but not writable to untrusted initiators (gaudi_security.c),
 * and cleared when freed so the next holder reads nothing of them.
 */
#define GAUDI_ICB_BASE		0x1C000000ULL
#define GAUDI_ICB_SIZE		SZ_64M
#define GAUDI_ICB_ORDER		8	/* 256-byte granules */

int gaudi_icb_alloc(struct gaudi_device *gdev, const void *kcb, u32 size,
		    u64 *addr)
{
	unsigned long a = gen_pool_alloc(gdev->dp->hwq.icb_pool, size);

	if (!a)
		return -ENOMEM;
	memcpy_toio(gdev->pci.hbm + a, kcb, size);
	*addr = a;
	return 0;
}

void gaudi_icb_free(struct gaudi_device *gdev, u64 addr, u32 size)
{
	memset_io(gdev->pci.hbm + addr, 0, size);
	gen_pool_free(gdev->dp->hwq.icb_pool, addr, size);
}

/* The QMAN block of queue @id, or 0 if the driver does not run it. */
static u32 gaudi_queue_qm(u32 id, u32 *stream, bool *external)
{
	u32 dma;

	*external = id < GAUDI_NUM_EXT_QUEUES;
	if (id < GAUDI_NUM_EXT_QUEUES) {
		*stream = id % 4;
		return mmDMA0_QM_BASE + (id / 4) * GAUDI_DMA_STRIDE;
	}
	if (id >= GAUDI_QUEUE_ID_DMA_2_0 && id <= GAUDI_QUEUE_ID_DMA_7_3) {
		dma = 2 + (id - GAUDI_QUEUE_ID_DMA_2_0) / 4;
		*stream = (id - GAUDI_QUEUE_ID_DMA_2_0) % 4;
		return mmDMA0_QM_BASE + dma * GAUDI_DMA_STRIDE;
	}
	if (id >= GAUDI_QUEUE_ID_MME_0_0 && id <= GAUDI_QUEUE_ID_MME_1_3) {
		*stream = (id - GAUDI_QUEUE_ID_MME_0_0) % 4;
		return id <= GAUDI_QUEUE_ID_MME_0_3 ? mmMME0_QM_BASE :
						      mmMME2_QM_BASE;
	}
	if (id >= GAUDI_QUEUE_ID_TPC_0_0 && id <= GAUDI_QUEUE_ID_TPC_7_3) {
		*stream = (id - GAUDI_QUEUE_ID_TPC_0_0) % 4;
		return mmTPC0_QM_BASE +
		       ((id - GAUDI_QUEUE_ID_TPC_0_0) / 4) * GAUDI_TPC_STRIDE;
	}
	if (id >= GAUDI_QUEUE_ID_NIC_0_0 && id <= GAUDI_QUEUE_ID_NIC_9_3) {
		u32 port = (id - GAUDI_QUEUE_ID_NIC_0_0) / 4;

		*stream = (id - GAUDI_QUEUE_ID_NIC_0_0) % 4;
		return GAUDI_NIC_PORT_MACRO(port) +
		       ((port & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);
	}
	return 0;
}

/* A queue's engine class (enum gaudi_parser_engine). */
unsigned int gaudi_queue_engine(u32 queue)
{
	if (queue >= GAUDI_QUEUE_ID_NIC_0_0 && queue <= GAUDI_QUEUE_ID_NIC_9_3)
		return GAUDI_ENGINE_NIC;
	if (queue >= GAUDI_QUEUE_ID_TPC_0_0 && queue <= GAUDI_QUEUE_ID_TPC_7_3)
		return GAUDI_ENGINE_TPC;
	if (queue >= GAUDI_QUEUE_ID_MME_0_0 && queue <= GAUDI_QUEUE_ID_MME_1_3)
		return GAUDI_ENGINE_MME;
	return GAUDI_ENGINE_DMA;
}

u32 gaudi_queue_free_slots(struct gaudi_hw_queue *q)
{
	u32 used = (q->pi - q->ci) & (2 * q->entries - 1);

	return q->entries - used;
}

void gaudi_job_free(struct gaudi_device *gdev, struct gaudi_job *job)
{
	u32 i;

	for (i = 0; i < job->nsubs; i++)
		gaudi_icb_free(gdev, job->subs[i].icb, job->subs[i].size);
	kfree(job->subs);
	if (job->icb)
		gaudi_icb_free(gdev, job->icb, job->kcb_alloc);
	if (job->kcb)
		gaudi_kcb_free(gdev, job->kcb_alloc, job->kcb, job->kcb_dma);
	kfree(job);
}

/* Is PQ position @pos outside the busy window [ci, pi) of @q? */
static bool gaudi_queue_past(struct gaudi_hw_queue *q, u32 pos)
{
	u32 mask = 2 * q->entries - 1;

	return ((pos - q->ci) & mask) >= ((q->pi - q->ci) & mask);
}

/*
 * Take queue @id's done word into its CI and release the jobs it passed
 * (dp->lock held; any context).  Orphans go to dp->hwq.retired, freed by
 * gaudi_queue_free_retired().  The device writes the word: its value is
 * only believed when it lies in (ci, pi].
 */
void gaudi_queue_retire_locked(struct gaudi_device *gdev, u32 id)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_hw_queue *q = &dp->hwq.q[id];
	u32 mask = 2 * q->entries - 1, hw, d;
	struct gaudi_job *job;

	lockdep_assert_held(&dp->lock);

	if (!READ_ONCE(dp->hwq.enabled) || list_empty(&q->hw_jobs))
		return;
	if (q->external)
		hw = le32_to_cpu(READ_ONCE(dp->hwq.done_words[id])) & mask;
	else
		hw = RREG32(gdev, q->qm_base + QM_PQ_CI(q->stream)) & mask;
	d = (hw - q->ci) & mask;
	if (d && d <= ((q->pi - q->ci) & mask))
		q->ci = hw;
	while ((job = list_first_entry_or_null(&q->hw_jobs, struct gaudi_job,
					       hw_node))) {
		if (!gaudi_queue_past(q, job->pos))
			break;
		list_del_init(&job->hw_node);
		job->on_hw = false;
		if (job->orphan)
			list_add_tail(&job->node, &dp->hwq.retired);
	}
}

void gaudi_queue_retire_all_locked(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;

	lockdep_assert_held(&dp->lock);

	if (!READ_ONCE(dp->hwq.enabled))
		return;
	/*
	 * Every submission reaps (gaudi_cs_reap()): only queues with jobs on
	 * the hardware are worth a call.
	 */
	for (i = 0; i < GAUDI_NUM_QUEUES; i++)
		if (dp->hwq.q[i].valid && !list_empty(&dp->hwq.q[i].hw_jobs))
			gaudi_queue_retire_locked(gdev, i);
}

/* Has queue @id consumed the CB it was given at position @pos? */
bool gaudi_queue_consumed_locked(struct gaudi_device *gdev, u32 id, u32 pos)
{
	lockdep_assert_held(&gdev->dp->lock);

	gaudi_queue_retire_locked(gdev, id);
	return gaudi_queue_past(&gdev->dp->hwq.q[id], pos);
}

/* Every queue has consumed every CB it was given (or the queues are off). */
bool gaudi_queues_idle(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	bool idle = true;
	unsigned int i;

	spin_lock_irq(&dp->lock);
	gaudi_queue_retire_all_locked(gdev);
	for (i = 0; i < GAUDI_NUM_QUEUES && READ_ONCE(dp->hwq.enabled); i++)
		if (!list_empty(&dp->hwq.q[i].hw_jobs))
			idle = false;
	spin_unlock_irq(&dp->lock);
	return idle;
}

void gaudi_queue_free_retired(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_job *job, *tmp;
	LIST_HEAD(free);

	spin_lock_irq(&dp->lock);
	list_splice_init(&dp->hwq.retired, &free);
	spin_unlock_irq(&dp->lock);
	list_for_each_entry_safe(job, tmp, &free, node)
		gaudi_job_free(gdev, job);
}

/*
 * The device was reset (or is going away after its reset): no queue reads
 * an old kernel CB any more, every job held for the hardware goes.  Jobs
 * whose CS still exists (none after gaudi_cs_abort_all()) are left to it.
 */
static void gaudi_queue_drop_all(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_job *job, *tmp;
	unsigned int i;

	spin_lock_irq(&dp->lock);
	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		list_for_each_entry_safe(job, tmp, &dp->hwq.q[i].hw_jobs, hw_node) {
			list_del_init(&job->hw_node);
			job->on_hw = false;
			if (job->orphan)
				list_add_tail(&job->node, &dp->hwq.retired);
		}
	}
	spin_unlock_irq(&dp->lock);
	gaudi_queue_free_retired(gdev);
}

/*
 * Write @job's descriptor at PI (caller holds dp->lock and checked
 * space).  External queues end its CB with the done-word packet and
 * remember the job of a slot when it has completion packets: its CQ
 * entry names the slot.
 */
void gaudi_queue_push(struct gaudi_device *gdev, struct gaudi_job *job)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_hw_queue *q = &dp->hwq.q[job->queue];
	u32 idx = q->pi & (q->entries - 1);
	struct gaudi_bd *bd = &q->pq[idx];
	__le32 *p = job->kcb + job->len;
	u64 done = gaudi_host_dev_addr(dp->hwq.done_words_dma) + 4 * job->queue;

	job->pos = q->pi;
	q->pi = (q->pi + 1) & (2 * q->entries - 1);
	if (q->external) {
		p[0] = cpu_to_le32(q->pi);
		p[1] = cpu_to_le32(FIELD_PREP(PKT_CTL_OPCODE, PKT_MSG_PROT) |
				   PKT_CTL_EB | PKT_CTL_MB);
		p[2] = cpu_to_le32(lower_32_bits(done));
		p[3] = cpu_to_le32(upper_32_bits(done));
	}

	bd->ptr = cpu_to_le64(job->icb ?: gaudi_host_dev_addr(job->kcb_dma));
	bd->len = cpu_to_le32(job->kcb_size);
	bd->ctl = 0;
	if (q->external)
		q->slot[idx] = job->cq ? job : NULL;
	job->on_hw = true;
	list_add_tail(&job->hw_node, &q->hw_jobs);
}

/*
 * Zero the fence counters of every stream and of each user QMAN's lower CP
 * (none may be inside a FENCE: the queues are idle or were reset), so that
 * counts one holder left do not release the next holder's fences, and put
 * the arbitration users may set (gaudi_parser.c) back to its reset value:
 * off, no weights, no quiet period; likewise a DMA core's strided shape
 * and write completion (no CB may rely on them anyway: the parser wants
 * them written in the CB).
 */
void gaudi_queue_clear_fences(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i, f;
	u32 core, r;

	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		struct gaudi_hw_queue *q = &dp->hwq.q[i];

		if (!q->valid)
			continue;
		for (f = 0; f < 4; f++)
			WREG32(gdev, q->qm_base + QM_CP_FENCE_CNT(f, q->stream),
			       0);
		if (q->stream)
			continue;
		for (f = 0; f < 4; f++) {
			WREG32(gdev, q->qm_base +
			       QM_CP_FENCE_CNT(f, QM_LOWER_CP), 0);
			WREG32(gdev, q->qm_base + QM_ARB_WRR_WEIGHT(f), 0);
		}
		WREG32(gdev, q->qm_base + QM_ARB_CFG_0, 0);
		WREG32(gdev, q->qm_base + QM_ARB_MST_QUIET_PER, 0);
		if (q->qm_base < mmDMA0_QM_BASE ||
		    q->qm_base >= mmDMA0_QM_BASE + GAUDI_NUM_DMA * GAUDI_DMA_STRIDE)
			continue;
		core = q->qm_base - mmDMA0_QM_BASE + mmDMA0_CORE_BASE;
		for (r = DMA_CORE_SRC_TSIZE(1); r <= DMA_CORE_DST_TSIZE_0; r += 4)
			if (r != DMA_CORE_SRC_TSIZE_0 + 4)	/* no register */
				WREG32(gdev, core + r, 0);
		for (r = DMA_CORE_WR_COMP_WDATA; r <= DMA_CORE_WR_COMP_ADDR_HI;
		     r += 4)
			WREG32(gdev, core + r, 0);
	}
}

void gaudi_queue_ring(struct gaudi_device *gdev, u32 id)
{
	struct gaudi_hw_queue *q = &gdev->dp->hwq.q[id];

	/* Descriptors and CBs are visible before the doorbell. */
	wmb();
	trace_gaudi_queue_doorbell(gdev->index, id, q->pi);
	WREG32(gdev, q->qm_base + QM_PQ_PI(q->stream), q->pi);
}

/*
 * Hard IRQ hook: hand the jobs whose CQ entries are ready to the queues'
 * client (the CS scheduler, gaudi_queue_set_client()), which signals their
 * fences and says whether ended work waits for reaping in process context.
 */
void gaudi_cq_irq(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	const struct gaudi_hwq_client *client = dp->hwq.client;
	struct gaudi_job *job;
	bool reap = false;
	unsigned int i;
	u32 e, idx;

	if (!READ_ONCE(dp->hwq.enabled))
		return;
	for (i = 0; i < GAUDI_NUM_EXT_QUEUES; i++) {
		struct gaudi_hw_queue *q = &dp->hwq.q[i];
		struct gaudi_cq *cq = &dp->hwq.cq[i];

		for (;;) {
			__le32 *entry = &cq->ring[cq->ci & (GAUDI_CQ_ENTRIES - 1)];

			e = le32_to_cpu(READ_ONCE(*entry));
			if (!(e & CQ_ENTRY_READY))
				break;
			dma_rmb();
			WRITE_ONCE(*entry, 0);
			cq->ci = (cq->ci + 1) & (2 * GAUDI_CQ_ENTRIES - 1);
			idx = FIELD_GET(CQ_ENTRY_SHADOW_INDEX, e) &
			      (q->entries - 1);

			spin_lock(&dp->lock);
			job = q->slot[idx];
			q->slot[idx] = NULL;
			/* Its done word was written before the entry. */
			gaudi_queue_retire_locked(gdev, i);
			if (job)
				reap |= client->job_done_locked(gdev, job);
			reap |= !list_empty(&dp->hwq.retired);
			spin_unlock(&dp->lock);
			if (!job)
				gaudi_user_err(gdev, "queue %u: completion for empty slot %u\n",
					       i, idx);
		}
	}
	client->irq_end(gdev, reap);
}

/* The CS scheduler takes the completions (before the queues are enabled). */
void gaudi_queue_set_client(struct gaudi_device *gdev,
			    const struct gaudi_hwq_client *client)
{
	gdev->dp->hwq.client = client;
}

static void gaudi_queue_program(struct gaudi_device *gdev,
				struct gaudi_hw_queue *q)
{
	u64 pq = gaudi_host_dev_addr(q->pq_dma);
	u32 b = q->qm_base, s = q->stream;
	/*
	 * MSG_SHORT bases as upstream sets them: 0 E_N monitors, 1 E_N SOBs,
	 * 2 W_S monitors, 3 W_S SOBs.
	 */
	static const u32 msg_base[4] = {
		mmSYNC_MNGR_E_N_SOB_OBJ_0 + SM_MON_PAY_ADDRL(0),
		mmSYNC_MNGR_E_N_SOB_OBJ_0,
		mmSYNC_MNGR_W_S_SOB_OBJ_0 + SM_MON_PAY_ADDRL(0),
		mmSYNC_MNGR_W_S_SOB_OBJ_0,
	};
	unsigned int i;

	memset(q->pq, 0, q->entries * sizeof(*q->pq));
	q->pi = 0;
	q->ci = 0;
	q->cq_pi = 0;
	WREG32(gdev, b + QM_PQ_BASE_LO(s), lower_32_bits(pq));
	WREG32(gdev, b + QM_PQ_BASE_HI(s), upper_32_bits(pq));
	WREG32(gdev, b + QM_PQ_SIZE(s), ilog2(q->entries));
	WREG32(gdev, b + QM_PQ_PI(s), 0);
	WREG32(gdev, b + QM_PQ_CI(s), 0);
	for (i = 0; i < ARRAY_SIZE(msg_base); i++) {
		u64 a = GAUDI_CFG_BASE + msg_base[i];

		WREG32(gdev, b + QM_CP_MSG_BASE_LO(i, s), lower_32_bits(a));
		WREG32(gdev, b + QM_CP_MSG_BASE_HI(i, s), upper_32_bits(a));
	}
	/* The command processor runs non-secure, in the user's ASID. */
	WREG32(gdev, b + QM_GLBL_NON_SECURE_PROPS(s), GAUDI_USER_ASID);
	WREG32(gdev, b + QM_GLBL_SECURE_PROPS(s), GAUDI_KERNEL_ASID);
}

/*
 * Program the queues after a reset: the DMA cores' ASIDs, every stream's
 * PQ, the CQs and done words cleared; the jobs held for the old state go.
 */
void gaudi_queue_hw_init(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;
	u32 core;

	/* DMA cores translate user addresses with the user ASID. */
	for (i = 0; i < GAUDI_NUM_DMA; i++) {
		core = mmDMA0_CORE_BASE + i * GAUDI_DMA_STRIDE;
		WREG32(gdev, core + DMA_CORE_PROT, 0);
		WREG32(gdev, core + DMA_CORE_NON_SECURE_PROPS, GAUDI_USER_ASID);
		WREG32(gdev, core + DMA_CORE_SECURE_PROPS, GAUDI_KERNEL_ASID);
	}

	/* The device was reset: no queue reads an old kernel CB any more. */
	gaudi_queue_drop_all(gdev);
	memset(dp->hwq.done_words, 0, GAUDI_NUM_QUEUES * sizeof(u32));
	for (i = 0; i < GAUDI_NUM_EXT_QUEUES; i++) {
		memset(dp->hwq.cq[i].ring, 0, GAUDI_CQ_ENTRIES * sizeof(u32));
		dp->hwq.cq[i].ci = 0;
		memset(dp->hwq.q[i].slot, 0,
		       dp->hwq.q[i].entries * sizeof(*dp->hwq.q[i].slot));
	}
	for (i = 0; i < GAUDI_NUM_QUEUES; i++)
		if (dp->hwq.q[i].valid)
			gaudi_queue_program(gdev, &dp->hwq.q[i]);
}

/* Enable (@on) or stop every QMAN the driver runs, once per QMAN. */
static void gaudi_queue_qmans(struct gaudi_device *gdev, bool on)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;

	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		struct gaudi_hw_queue *q = &dp->hwq.q[i];

		if (!q->valid || q->stream != 3)
			continue;
		if (!on) {
			WREG32(gdev, q->qm_base + QM_GLBL_CFG1,
			       QM_GLBL_CFG1_STOP_ALL);
			WREG32(gdev, q->qm_base + QM_GLBL_CFG0, 0);
			continue;
		}
		WREG32(gdev, q->qm_base + QM_GLBL_CFG1, 0);
		/* Upstream's split: see gaudi_security.c. */
		WREG32(gdev, q->qm_base + QM_GLBL_PROT,
		       q->external ? QM_PROT_EXTERNAL : QM_PROT_INTERNAL);
		WREG32(gdev, q->qm_base + QM_GLBL_CFG0, QM_GLBL_CFG0_ENABLE_ALL);
	}
}

/* Enable each QMAN once its four streams are set. */
void gaudi_queue_start(struct gaudi_device *gdev)
{
	WRITE_ONCE(gdev->dp->hwq.enabled, true);
	gaudi_queue_qmans(gdev, true);
	gaudi_dbg(gdev, CS, "queues enabled\n");
}

/*
 * Stop the queues, before a hard reset and at removal; once this returns
 * no completion interrupt runs any more.
 */
void gaudi_queue_stop(struct gaudi_device *gdev)
{
	WRITE_ONCE(gdev->dp->hwq.enabled, false);
	gaudi_queue_qmans(gdev, false);
	synchronize_irq(gdev->pci.irq);
}

/*
 * After a reset (gaudi_cs_abort_all()): the PQs start again from 0 and no
 * slot names a job.
 */
void gaudi_queue_reset_locked(struct gaudi_device *gdev)
{
	unsigned int i;

	lockdep_assert_held(&gdev->dp->lock);
	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		struct gaudi_hw_queue *q = &gdev->dp->hwq.q[i];

		q->pi = 0;
		q->ci = 0;
		q->cq_pi = 0;
		if (q->slot)
			memset(q->slot, 0, q->entries * sizeof(*q->slot));
	}
}

/* The queues' DMA memory; the device no longer reads any of it. */
static void gaudi_queues_free(struct gaudi_device *gdev)
{
	struct device *dev = &gdev->pdev->dev;
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;

	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		struct gaudi_hw_queue *q = &dp->hwq.q[i];

		if (q->pq)
			dma_free_coherent(dev, q->entries * sizeof(*q->pq),
					  q->pq, q->pq_dma);
		q->pq = NULL;
	}
	if (dp->hwq.done_words)
		dma_free_coherent(dev, GAUDI_NUM_QUEUES * sizeof(u32),
				  dp->hwq.done_words, dp->hwq.done_words_dma);
	dp->hwq.done_words = NULL;
	for (i = 0; i < GAUDI_KCB_POOLS; i++) {
		dma_pool_destroy(dp->hwq.kcb_pool[i]);
		dp->hwq.kcb_pool[i] = NULL;
	}
	for (i = 0; i < GAUDI_NUM_EXT_QUEUES; i++) {
		if (dp->hwq.cq[i].ring)
			dma_free_coherent(dev, GAUDI_CQ_ENTRIES * sizeof(u32),
					  dp->hwq.cq[i].ring, dp->hwq.cq[i].dma);
		dp->hwq.cq[i].ring = NULL;
	}
}

/* A pool is destroyed only when nothing is allocated from it. */
static void gaudi_pool_destroy(struct gaudi_device *gdev, struct gen_pool *pool,
			       const char *what)
{
	if (!pool)
		return;
	if (gen_pool_avail(pool) != gen_pool_size(pool)) {
		gaudi_err(gdev, "%s still allocated at release: pool left behind\n",
			  what);
		return;
	}
	gen_pool_destroy(pool);
}

/* What gaudi_queue_sw_init() allocated that lives with the DRM device. */
void gaudi_queue_sw_fini(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;

	gaudi_pool_destroy(gdev, dp->hwq.icb_pool, "internal CB memory");
	dp->hwq.icb_pool = NULL;
	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		kvfree(dp->hwq.q[i].slot);
		dp->hwq.q[i].slot = NULL;
	}
}

/*
 * The queues' memory: PQs, CQs, job slots, done words, the kernel CB pools
 * and the internal CBs' HBM.  On failure nothing of it is left.
 */
int gaudi_queue_sw_init(struct gaudi_device *gdev)
{
	struct device *dev = &gdev->pdev->dev;
	struct gaudi_dp *dp = gdev->dp;
	unsigned int i;
	int ret;

	INIT_LIST_HEAD(&dp->hwq.retired);
	for (i = 0; i < GAUDI_NUM_QUEUES; i++) {
		struct gaudi_hw_queue *q = &dp->hwq.q[i];

		INIT_LIST_HEAD(&q->hw_jobs);
		q->qm_base = gaudi_queue_qm(i, &q->stream, &q->external);
		if (!q->qm_base)
			continue;
		q->valid = true;
		q->entries = q->external ? GAUDI_EXT_PQ_ENTRIES :
					   GAUDI_INT_PQ_ENTRIES;
		q->pq = dma_alloc_coherent(dev, q->entries * sizeof(*q->pq),
					   &q->pq_dma, GFP_KERNEL);
		if (!q->pq)
			goto err_nomem;
		if (q->external) {
			q->slot = kvcalloc(q->entries, sizeof(*q->slot),
					   GFP_KERNEL);
			if (!q->slot)
				goto err_nomem;
		}
	}
	for (i = 0; i < GAUDI_NUM_EXT_QUEUES; i++) {
		struct gaudi_cq *cq = &dp->hwq.cq[i];

		cq->ring = dma_alloc_coherent(dev,
					      GAUDI_CQ_ENTRIES * sizeof(u32),
					      &cq->dma, GFP_KERNEL);
		if (!cq->ring)
			goto err_nomem;
	}

	dp->hwq.done_words = dma_alloc_coherent(dev,
						GAUDI_NUM_QUEUES * sizeof(u32),
						&dp->hwq.done_words_dma,
						GFP_KERNEL);
	if (!dp->hwq.done_words)
		goto err_nomem;
	for (i = 0; i < GAUDI_KCB_POOLS; i++) {
		dp->hwq.kcb_pool[i] = dma_pool_create("gaudi-kcb", dev,
						      gaudi_kcb_pool_size[i],
						      64, 0);
		if (!dp->hwq.kcb_pool[i])
			goto err_nomem;
	}

	if (gdev->pci.hbm_bar_size < GAUDI_ICB_BASE + GAUDI_ICB_SIZE) {
		gaudi_err(gdev, "BAR4 does not reach the internal CB area\n");
		ret = -ENODEV;
		goto err_free;
	}
	dp->hwq.icb_pool = gen_pool_create(GAUDI_ICB_ORDER, -1);
	if (!dp->hwq.icb_pool)
		goto err_nomem;
	ret = gen_pool_add(dp->hwq.icb_pool, GAUDI_ICB_BASE, GAUDI_ICB_SIZE, -1);
	if (ret)
		goto err_free;

	return 0;

err_nomem:
	ret = -ENOMEM;
err_free:
	gaudi_queues_free(gdev);
	gaudi_queue_sw_fini(gdev);
	return ret;
}

/* Wait this long at removal for ioctls on their way out to free their jobs. */
#define GAUDI_REMOVE_JOBS_WAIT_MS	10000

/*
 * Removal, after gaudi_hw_fini() and the scheduler's last reaping: the
 * device was reset and reads nothing of the host any more.  Drop the jobs
 * it held, wait for the kernel CB copies that ioctls leaving with -ENODEV
 * still free, then give the DMA memory back while the device is bound.
 * If copies are still out after the wait, their pools are left rather
 * than freed under them.
 */
void gaudi_queue_dma_fini(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int waited = 0;

	gaudi_queue_drop_all(gdev);
	while (atomic64_read(&dp->hwq.kcb_bytes) &&
	       waited < GAUDI_REMOVE_JOBS_WAIT_MS) {
		usleep_range(10000, 20000);
		waited += 10;
	}
	if (atomic64_read(&dp->hwq.kcb_bytes)) {
		gaudi_err(gdev, "removal: %lld bytes of kernel CBs still held, their memory is left behind\n",
			  (s64)atomic64_read(&dp->hwq.kcb_bytes));
		return;
	}
	gaudi_queues_free(gdev);
}
