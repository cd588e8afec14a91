// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: device memory from one holder to the next.
 *
 * User SRAM and user HBM are physical on Gaudi 1 (no MMU in front of
 * them): any holder of the compute node may name any of it in a CB, from
 * SRAM_BASE + 0x80 and from 0x2000_0000 up to 32 GiB.  So nothing a holder
 * wrote may still be there when the next one opens.
 *
 * The driver clears what a holder could have written, with the device's
 * own DMA: kernel CBs of LIN_DMA memsets (zero) on DMA_0_0 (the code can
 * share them out over several DMA engines, GAUDI_SCRUB_ENGINES), run when
 * the holder's streams are quiesced at close (upstream clears SRAM the
 * same way on a context switch, with a memset on DMA 0).  What to
 * clear is tracked while the holder runs, in 2 MiB units of user HBM plus
 * one flag for user SRAM: every device-memory range an accepted CB may
 * write (gaudi_scrub_mark_cb(), after the parser), and every range
 * exported as a dma-buf (an importer writes through BAR4).  A holder that
 * ran a job on an MME or TPC queue gets all of user HBM cleared: those
 * engines write where registers the user programs point, which the parser
 * does not follow.  Clearing
 * all 32 GiB at every close would cost 0.6 s on the model (which skips
 * pages that already read zero) and more on silicon; the module parameter
 * scrub=2 does that, scrub=0 turns clearing off (measurements only).
 *
 * When the clear cannot run at close (the device is in reset, or dma-bufs
 * the holder exported are still alive), the dirty state stays and the next
 * open runs it first; an open is refused (EBUSY) while a previous holder's
 * dma-bufs are alive.  A clear that does not finish in time resets the
 * device, and the state stays dirty for the next open.
 */
#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <drm/drm_drv.h>

#include "gaudi1/memmap.h"
#include "gaudi1/packets.h"
#include "gaudi_dp_types.h"
#include "gaudi_hw.h"
#include "gaudi_queue.h"
#include "gaudi_scrub.h"
#include "gaudi_types.h"

static unsigned int gaudi_scrub_mode = 1;
module_param_named(scrub, gaudi_scrub_mode, uint, 0644);
MODULE_PARM_DESC(scrub, "Clear device memory between holders: 0 off (measurements only), 1 what the holder could write (default), 2 all user HBM and SRAM");

#define GAUDI_SCRUB_BITS \
	((GAUDI_HBM_SIZE - GAUDI_DRAM_USER_START) / GAUDI_SCRUB_CHUNK)
/* Bytes per LIN_DMA memset (its size field is 32 bits). */
#define GAUDI_SCRUB_MAX_PKT	SZ_1G
#define GAUDI_SCRUB_PKT_SIZE	24
/* Time allowed: a base plus this much per GiB. */
#define GAUDI_SCRUB_WAIT_MS	10000
#define GAUDI_SCRUB_MS_PER_GIB	2000

/*
 * Across a removal.  A card removed while its holder's memory could not
 * be cleared (dma-bufs still exported, the device in reset) keeps that
 * memory when it comes back (unbind and bind, PCI rescan, hot-plug): the
 * next instance of the driver on the same slot must know.  The removal
 * leaves a note for the slot; the next probe takes it, clears all user
 * memory before its first holder, and refuses opens (EBUSY) while dma-bufs
 * of the previous instance live, as it does for its own.
 */
struct gaudi_scrub_note {
	struct list_head node;
	u32 slot;			/* PCI domain, bus, devfn */
	struct gaudi_device *gdev;	/* the removed instance, DRM ref held */
};

static LIST_HEAD(gaudi_scrub_notes);
static DEFINE_MUTEX(gaudi_scrub_notes_lock);

static u32 gaudi_scrub_slot(struct gaudi_device *gdev)
{
	struct pci_dev *pdev = gdev->pdev;

	return (u32)pci_domain_nr(pdev->bus) << 16 | pdev->bus->number << 8 |
	       pdev->devfn;
}

/* Probe: take what a previous instance on this slot left. */
static void gaudi_scrub_probe(struct gaudi_device *gdev)
{
	struct gaudi_scrub_note *n, *found = NULL;
	u32 slot = gaudi_scrub_slot(gdev);

	mutex_lock(&gaudi_scrub_notes_lock);
	list_for_each_entry(n, &gaudi_scrub_notes, node) {
		if (n->slot == slot) {
			list_del(&n->node);
			found = n;
			break;
		}
	}
	mutex_unlock(&gaudi_scrub_notes_lock);
	if (!found)
		return;
	gaudi_note(gdev, "holder memory left by a removal: all of it is cleared first\n");
	gdev->dp->scrub.all_dirty = true;
	gdev->dp->scrub.prev = found->gdev;
	kfree(found);
}

/* Removal, after the holder's context went: leave a note if needed. */
void gaudi_scrub_remove(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_scrub_note *n, *it, *old = NULL;
	bool dirty;

	mutex_lock(&dp->scrub.lock);
	/* SRAM: every instance clears it before its first holder anyway. */
	dirty = READ_ONCE(dp->scrub.all_dirty) ||
		!bitmap_empty(dp->scrub.hbm_dirty, GAUDI_SCRUB_BITS);
	mutex_unlock(&dp->scrub.lock);
	if (!dirty && !gaudi_scrub_dmabufs_alive(gdev))
		return;
	n = kzalloc(sizeof(*n), GFP_KERNEL);
	if (!n) {
		gaudi_err(gdev, "removal: no memory to remember the uncleared device memory\n");
		return;
	}
	n->slot = gaudi_scrub_slot(gdev);
	n->gdev = gdev;
	drm_dev_get(&gdev->drm);
	mutex_lock(&gaudi_scrub_notes_lock);
	list_for_each_entry(it, &gaudi_scrub_notes, node) {
		if (it->slot == n->slot) {
			list_del(&it->node);
			old = it;
			break;
		}
	}
	list_add_tail(&n->node, &gaudi_scrub_notes);
	mutex_unlock(&gaudi_scrub_notes_lock);
	if (old) {
		drm_dev_put(&old->gdev->drm);
		kfree(old);
	}
}

/*
 * Are dma-bufs of this card alive, of this instance or of the one before
 * a removal?  The previous instance is let go once they are gone.
 */
bool gaudi_scrub_dmabufs_alive(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_device *prev;

	if (atomic_read(&dp->mem.dmabufs))
		return true;
	prev = READ_ONCE(dp->scrub.prev);
	if (!prev)
		return false;
	/* Its own predecessor's too, after several removals. */
	if (gaudi_scrub_dmabufs_alive(prev))
		return true;
	if (cmpxchg(&dp->scrub.prev, prev, NULL) == prev)
		drm_dev_put(&prev->drm);
	return false;
}

/* Module unload: no instance is left to read the notes. */
void gaudi_scrub_exit(void)
{
	struct gaudi_scrub_note *n, *tmp;

	mutex_lock(&gaudi_scrub_notes_lock);
	list_for_each_entry_safe(n, tmp, &gaudi_scrub_notes, node) {
		list_del(&n->node);
		drm_dev_put(&n->gdev->drm);
		kfree(n);
	}
	mutex_unlock(&gaudi_scrub_notes_lock);
}

int gaudi_scrub_sw_init(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;

	mutex_init(&dp->scrub.lock);
	dp->scrub.hbm_dirty = bitmap_zalloc(GAUDI_SCRUB_BITS, GFP_KERNEL);
	if (!dp->scrub.hbm_dirty)
		return -ENOMEM;
	/*
	 * What a previous instance of a driver left: SRAM is cleared before
	 * the first holder; HBM is not (it takes seconds, and loading a
	 * driver needs root; scrub=2 clears it all).
	 */
	dp->scrub.sram_dirty = true;
	gaudi_scrub_probe(gdev);
	return 0;
}

void gaudi_scrub_sw_fini(struct gaudi_device *gdev)
{
	struct gaudi_device *prev = xchg(&gdev->dp->scrub.prev, NULL);

	if (prev)
		drm_dev_put(&prev->drm);
	bitmap_free(gdev->dp->scrub.hbm_dirty);
	gdev->dp->scrub.hbm_dirty = NULL;
	mutex_destroy(&gdev->dp->scrub.lock);
}

/*
 * The holder may write device memory [@addr, @addr + @len): clear it
 * before the next one.  Called from the parser for every accepted range
 * of user SRAM or HBM; any context.
 */
void gaudi_scrub_mark(struct gaudi_device *gdev, u64 addr, u64 len)
{
	struct gaudi_dp *dp = gdev->dp;
	u64 end, first, last;

	if (!len || addr + len < addr)
		return;
	end = addr + len;
	if (addr < GAUDI_SRAM_END && end > GAUDI_SRAM_USER_START) {
		WRITE_ONCE(dp->scrub.sram_dirty, true);
		return;
	}
	if (end <= GAUDI_DRAM_USER_START || addr >= GAUDI_HBM_SIZE)
		return;
	addr = max(addr, GAUDI_DRAM_USER_START);
	end = min(end, GAUDI_HBM_SIZE);
	first = (addr - GAUDI_DRAM_USER_START) / GAUDI_SCRUB_CHUNK;
	last = (end - 1 - GAUDI_DRAM_USER_START) / GAUDI_SCRUB_CHUNK;
	/* A bit already set is not written again: no cache-line bouncing. */
	for (; first <= last; first++)
		if (!test_bit(first, dp->scrub.hbm_dirty))
			set_bit(first, dp->scrub.hbm_dirty);
}

/* Packet sizes (gaudi_packets.h of upstream; WREG_BULK adds its values). */
static const u8 gaudi_scrub_pkt_size[32] = {
	[PKT_WREG_32] = 8, [PKT_WREG_BULK] = 8, [PKT_MSG_LONG] = 16,
	[PKT_MSG_SHORT] = 8, [PKT_CP_DMA] = 16, [PKT_REPEAT] = 8,
	[PKT_MSG_PROT] = 16, [PKT_FENCE] = 8, [PKT_LIN_DMA] = 24,
	[PKT_NOP] = 8, [PKT_STOP] = 8, [PKT_ARB_POINT] = 8, [PKT_WAIT] = 8,
	[PKT_LOAD_AND_EXE] = 16,
};

/*
 * A CB the parser accepted for queue @qid (its kernel copy, @size bytes)
 * is about to run: mark the device memory it may write.  Packets write
 * memory with LIN_DMA (destination) and MSG_LONG (address); the parser
 * guarantees the stream executes exactly this packet sequence.  MME and
 * TPC engines also write where registers the user programs point, which
 * no packet names: a job on their queues marks all of user HBM, as does
 * anything this walk does not understand.
 */
void gaudi_scrub_mark_cb(struct gaudi_device *gdev, u32 qid, const void *cb,
			 u32 size)
{
	const u8 *p = cb;
	u32 off = 0, w0, w1, op, psize;
	u64 a;

	if (qid >= GAUDI_QUEUE_ID_MME_0_0 && qid <= GAUDI_QUEUE_ID_TPC_7_3) {
		gaudi_scrub_mark_all(gdev);
		return;
	}
	while (size - off >= 8) {
		w0 = get_unaligned_le32(p + off);
		w1 = get_unaligned_le32(p + off + 4);
		op = FIELD_GET(PKT_CTL_OPCODE, w1);
		psize = gaudi_scrub_pkt_size[op];
		if (op == PKT_WREG_BULK)
			psize += 8 * FIELD_GET(PKT_WREG_BULK_SIZE64, w0);
		if (!psize || psize > size - off) {
			gaudi_scrub_mark_all(gdev);
			return;
		}
		/*
		 * A strided transfer (linear bit clear) writes beyond its row
		 * size, a write completion where core registers say.
		 */
		if (op == PKT_LIN_DMA &&
		    (!(w1 & PKT_LIN_DMA_LIN) || (w1 & PKT_LIN_DMA_WRCOMP))) {
			gaudi_scrub_mark_all(gdev);
			return;
		}
		if (op == PKT_LIN_DMA) {
			a = get_unaligned_le64(p + off + 16) & PKT_LIN_DMA_DST_ADDR;
			gaudi_scrub_mark(gdev, a, w0);
		} else if (op == PKT_MSG_LONG) {
			a = get_unaligned_le64(p + off + 8);
			gaudi_scrub_mark(gdev, a, 8);
		}
		off += psize;
	}
}

/* debugfs "scrub": the last clear and what waits to be cleared. */
void gaudi_scrub_show(struct gaudi_device *gdev, struct seq_file *m)
{
	struct gaudi_dp *dp = gdev->dp;

	mutex_lock(&dp->scrub.lock);
	seq_printf(m, "mode: %u\nclears: %llu\nlast_bytes: %llu\nlast_us: %llu\n",
		   gaudi_scrub_mode, dp->scrub.count, dp->scrub.last_bytes,
		   dp->scrub.last_ns / NSEC_PER_USEC);
	seq_printf(m, "pending_sram: %d\npending_all: %d\npending_hbm_mib: %llu\n",
		   READ_ONCE(dp->scrub.sram_dirty), READ_ONCE(dp->scrub.all_dirty),
		   (u64)bitmap_weight(dp->scrub.hbm_dirty, GAUDI_SCRUB_BITS) *
		   (GAUDI_SCRUB_CHUNK >> 20));
	seq_printf(m, "dmabufs: %d\n", atomic_read(&dp->mem.dmabufs));
	mutex_unlock(&dp->scrub.lock);
}

/* The holder may have written any user HBM and SRAM. */
void gaudi_scrub_mark_all(struct gaudi_device *gdev)
{
	if (!READ_ONCE(gdev->dp->scrub.all_dirty))
		WRITE_ONCE(gdev->dp->scrub.all_dirty, true);
}

static __le32 *gaudi_scrub_pkt(__le32 *p, u64 dst, u32 size)
{
	p[0] = cpu_to_le32(size);
	/* LIN (bit 3) and MEMSET, after the previous transfer (EB). */
	p[1] = cpu_to_le32(FIELD_PREP(PKT_CTL_OPCODE, PKT_LIN_DMA) | BIT(3) |
			   PKT_LIN_DMA_MEMSET | PKT_CTL_EB | PKT_CTL_MB);
	p[2] = 0;		/* the pattern: zero */
	p[3] = 0;
	p[4] = cpu_to_le32(lower_32_bits(dst));
	p[5] = cpu_to_le32(upper_32_bits(dst));
	return p + GAUDI_SCRUB_PKT_SIZE / 4;
}

/*
 * The work can be shared out over up to eight DMA engines, one stream
 * each (DMA_0_0, DMA_1_0, DMA_2_0 .. DMA_7_0), as upstream spreads its HBM
 * scrub.  One is used: on the asynchronous model, clearing all 32 GiB on
 * eight engines took 33 s against 1.4 s on one (the model charges each
 * active engine its own steps); silicon may want more.
 */
#define GAUDI_SCRUB_ENGINES	1

static u32 gaudi_scrub_queue(unsigned int k)
{
	return k < 2 ? 4 * k : GAUDI_QUEUE_ID_DMA_2_0 + 4 * (k - 2);
}

struct gaudi_scrub_plan {
	u64 quota, filled;	/* bytes per engine, of the current one */
	unsigned int k;		/* current engine */
	u32 pkts[GAUDI_SCRUB_ENGINES];
	u64 bytes[GAUDI_SCRUB_ENGINES];
	__le32 *p[GAUDI_SCRUB_ENGINES];	/* NULL: count only */
};

/* Memset [@a, @a + @len) to zero, on the engines in turn. */
static void gaudi_scrub_range(struct gaudi_scrub_plan *pl, u64 a, u64 len)
{
	u64 take;

	while (len) {
		take = min3(len, pl->quota - pl->filled,
			    (u64)GAUDI_SCRUB_MAX_PKT);
		if (pl->p[pl->k])
			pl->p[pl->k] = gaudi_scrub_pkt(pl->p[pl->k], a, take);
		pl->pkts[pl->k]++;
		pl->bytes[pl->k] += take;
		a += take;
		len -= take;
		pl->filled += take;
		if (pl->filled == pl->quota &&
		    pl->k < GAUDI_SCRUB_ENGINES - 1) {
			pl->k++;
			pl->filled = 0;
		}
	}
}

/* Walk what is dirty into @pl (the packets too once pl->p[] are set). */
static void gaudi_scrub_walk(struct gaudi_dp *dp, bool sram,
			     struct gaudi_scrub_plan *pl)
{
	unsigned int rs, re;

	pl->k = 0;
	pl->filled = 0;
	memset(pl->pkts, 0, sizeof(pl->pkts));
	memset(pl->bytes, 0, sizeof(pl->bytes));
	if (sram)
		gaudi_scrub_range(pl, GAUDI_SRAM_USER_START,
				  GAUDI_SRAM_END - GAUDI_SRAM_USER_START);
	for_each_set_bitrange(rs, re, dp->scrub.hbm_dirty, GAUDI_SCRUB_BITS)
		gaudi_scrub_range(pl, GAUDI_DRAM_USER_START +
				  (u64)rs * GAUDI_SCRUB_CHUNK,
				  (u64)(re - rs) * GAUDI_SCRUB_CHUNK);
}

static void gaudi_scrub_free(struct gaudi_device *gdev,
			     struct gaudi_job **jobs)
{
	unsigned int k;

	for (k = 0; k < GAUDI_SCRUB_ENGINES; k++)
		if (jobs[k])
			gaudi_job_free(gdev, jobs[k]);
}

/*
 * The memsets for what is dirty, one job per engine that has work
 * (jobs[k] NULL otherwise); the total in *@bytes.  -ENOMEM.
 */
static int gaudi_scrub_jobs(struct gaudi_device *gdev, bool sram,
			    struct gaudi_job **jobs, u64 *bytes)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_scrub_plan pl = { .quota = U64_MAX };
	struct gaudi_job *job;
	unsigned int k;
	u64 total = 0;

	/* Count, then share out evenly, then write. */
	gaudi_scrub_walk(dp, sram, &pl);
	for (k = 0; k < GAUDI_SCRUB_ENGINES; k++)
		total += pl.bytes[k];
	*bytes = total;
	pl.quota = max_t(u64, DIV_ROUND_UP_ULL(total, GAUDI_SCRUB_ENGINES),
			 GAUDI_SCRUB_CHUNK);
	gaudi_scrub_walk(dp, sram, &pl);
	for (k = 0; k < GAUDI_SCRUB_ENGINES; k++) {
		jobs[k] = NULL;
		if (!pl.pkts[k])
			continue;
		job = kzalloc(sizeof(*job), GFP_KERNEL);
		if (!job)
			goto err_nomem;
		INIT_LIST_HEAD(&job->node);
		INIT_LIST_HEAD(&job->hw_node);
		job->queue = gaudi_scrub_queue(k);
		job->len = pl.pkts[k] * GAUDI_SCRUB_PKT_SIZE;
		job->kcb_size = job->len +
				gaudi_done_size(&dp->hwq.q[job->queue]);
		job->kcb_alloc = job->kcb_size;
		job->kcb = gaudi_kcb_alloc(gdev, job->kcb_alloc,
					   &job->kcb_dma);
		jobs[k] = job;
		if (!job->kcb)
			goto err_nomem;
		pl.p[k] = job->kcb;
	}
	gaudi_scrub_walk(dp, sram, &pl);
	return 0;

err_nomem:
	gaudi_scrub_free(gdev, jobs);
	return -ENOMEM;
}

/* Push the jobs (no CS owns them: their queues free them once consumed). */
static int gaudi_scrub_push(struct gaudi_device *gdev, struct gaudi_job **jobs,
			    u32 *pos)
{
	struct gaudi_dp *dp = gdev->dp;
	unsigned int k;

	mutex_lock(&dp->sched.submit_lock);
	spin_lock_irq(&dp->lock);
	for (k = 0; k < GAUDI_SCRUB_ENGINES; k++) {
		if (!jobs[k])
			continue;
		gaudi_queue_retire_locked(gdev, jobs[k]->queue);
		if (!gaudi_queue_free_slots(&dp->hwq.q[jobs[k]->queue])) {
			spin_unlock_irq(&dp->lock);
			mutex_unlock(&dp->sched.submit_lock);
			return -EBUSY;
		}
	}
	for (k = 0; k < GAUDI_SCRUB_ENGINES; k++) {
		if (!jobs[k])
			continue;
		jobs[k]->orphan = true;
		gaudi_queue_push(gdev, jobs[k]);
		pos[k] = jobs[k]->pos;
	}
	spin_unlock_irq(&dp->lock);
	for (k = 0; k < GAUDI_SCRUB_ENGINES; k++)
		if (jobs[k])
			gaudi_queue_ring(gdev, jobs[k]->queue);
	mutex_unlock(&dp->sched.submit_lock);
	return 0;
}

/*
 * Clear the device memory a holder may have written (no holder runs:
 * called at close after the queues were quiesced, and at open before the
 * context exists).  0 when clean; -EBUSY while dma-bufs are exported
 * (their importers still use the memory); -ETIMEDOUT if the memsets did
 * not finish (the caller resets the device); other errors leave the
 * state dirty for the next try.
 */
int gaudi_scrub(struct gaudi_device *gdev)
{
	struct gaudi_job *jobs[GAUDI_SCRUB_ENGINES];
	u32 pos[GAUDI_SCRUB_ENGINES] = {};
	bool used[GAUDI_SCRUB_ENGINES];
	struct gaudi_dp *dp = gdev->dp;
	unsigned long until;
	unsigned int k;
	u64 bytes = 0;
	ktime_t t0;
	bool sram, done = false;
	int ret = 0;

	mutex_lock(&dp->scrub.lock);
	if (gaudi_scrub_mode == 2 || READ_ONCE(dp->scrub.all_dirty)) {
		bitmap_fill(dp->scrub.hbm_dirty, GAUDI_SCRUB_BITS);
		WRITE_ONCE(dp->scrub.sram_dirty, true);
	}
	sram = READ_ONCE(dp->scrub.sram_dirty);
	/* Off: nothing cleared, but the tracking goes on. */
	if (!gaudi_scrub_mode)
		goto out;
	if (!sram && bitmap_empty(dp->scrub.hbm_dirty, GAUDI_SCRUB_BITS))
		goto out;
	if (gaudi_scrub_dmabufs_alive(gdev)) {
		ret = -EBUSY;
		goto out;
	}
	ret = gaudi_scrub_jobs(gdev, sram, jobs, &bytes);
	if (ret)
		goto out;
	for (k = 0; k < GAUDI_SCRUB_ENGINES; k++)
		used[k] = jobs[k];
	t0 = ktime_get();
	ret = gaudi_hw_hold(gdev);
	if (ret) {
		gaudi_scrub_free(gdev, jobs);
		goto out;
	}
	ret = gaudi_scrub_push(gdev, jobs, pos);
	if (ret) {
		gaudi_hw_release(gdev);
		gaudi_scrub_free(gdev, jobs);
		goto out;
	}

	until = jiffies + msecs_to_jiffies(GAUDI_SCRUB_WAIT_MS +
					   GAUDI_SCRUB_MS_PER_GIB *
					   (bytes >> 30));
	for (;;) {
		done = true;
		spin_lock_irq(&dp->lock);
		for (k = 0; k < GAUDI_SCRUB_ENGINES; k++)
			if (used[k] &&
			    !gaudi_queue_consumed_locked(gdev,
							 gaudi_scrub_queue(k),
							 pos[k]))
				done = false;
		spin_unlock_irq(&dp->lock);
		if (done || time_after(jiffies, until))
			break;
		usleep_range(200, 1000);
	}
	gaudi_hw_release(gdev);
	gaudi_queue_free_retired(gdev);
	if (!done) {
		gaudi_err(gdev, "device memory scrub (%llu MiB) did not finish\n",
			  bytes >> 20);
		ret = -ETIMEDOUT;
		goto out;
	}
	dp->scrub.last_ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	dp->scrub.last_bytes = bytes;
	dp->scrub.count++;
	gaudi_dbg(gdev, CS, "scrub: %llu MiB cleared in %llu us\n",
		  bytes >> 20, dp->scrub.last_ns / NSEC_PER_USEC);
	bitmap_zero(dp->scrub.hbm_dirty, GAUDI_SCRUB_BITS);
	WRITE_ONCE(dp->scrub.sram_dirty, false);
	WRITE_ONCE(dp->scrub.all_dirty, false);
out:
	mutex_unlock(&dp->scrub.lock);
	return ret;
}
