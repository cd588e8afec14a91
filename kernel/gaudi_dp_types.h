/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the data plane's types; each file's functions are declared in
 * its own header (gaudi_queue.c: gaudi_queue.h, and so on).
 *
 *   gaudi_dp.c      set-up and teardown of the parts below, in order
 *   gaudi_queue.c   hardware queues (PQs), completion queues, kernel CB
 *                   copies, QMAN set-up                  struct gaudi_hwq
 *   gaudi_ctx.c     the holder's context: open, close   struct gaudi_ctx
 *   gaudi_cs.c      CS ioctl: chunks copied and parsed into jobs
 *   gaudi_wait.c    WAIT_CS
 *   gaudi_sched.c   CSs in flight: fences, room, commit, timeouts,
 *                   completion, abort; the kernel-job API struct gaudi_sched
 *   gaudi_acct.c    engine time (and the ACCOUNTING ioctl)
 *   gaudi_sync.c    sync objects and monitors; signal/wait CSs through the
 *                   kernel-job API (gaudi_sched.h)       struct gaudi_sync_ctx
 *   gaudi_cb.c      command buffers: CB ioctl, mmap, handles
 *   gaudi_mmu.c     device MMU page tables (ASID 1)      struct gaudi_mmu
 *   gaudi_mem.c     MEMORY ioctl: userptr map/unmap, HBM struct gaudi_dp_mem
 *   gaudi_scrub.c   clearing what a holder wrote         struct gaudi_scrub_state
 *
 * One struct gaudi_dp per device (gdev->dp), made of those parts, and one
 * struct gaudi_ctx per open of the compute node (gaudi_file->ctx).  The
 * compute node is exclusive, so there is at most one user context and it
 * always runs with ASID 1.  Who calls whom (the layers of
 * Documentation/architecture.rst, checked by tests/docs/check-calls.py):
 * the scheduler uses the hardware queues, which report completions through
 * the hooks it registers (struct gaudi_hwq_client); the sync code uses the
 * scheduler's kernel-job API and keeps its state behind a CS's hooks
 * (struct gaudi_cs_ops).
 *
 * Locking order: dp->teardown_lock -> ctx->lock (CB/mapping tables) and
 * dp->sched.submit_lock (one submitter at a time) -> dp->lock (spinlock:
 * queue indices, job slots, CS lists, SOB references, fences) ->
 * ctx->fence_lock.  The hard IRQ handler completes CSs under dp->lock, so
 * process context takes it with interrupts off (spin_lock_irq).
 * dp->sched.submit_lock is never held across a reset: submitters that must
 * wait for queue space drop it and gaudi_hw_exit() first.  The fields each
 * lock protects are named next to them below.
 */
#ifndef GAUDI_DP_TYPES_H
#define GAUDI_DP_TYPES_H

#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_mm.h>
#include <drm/habanalabs_accel.h>

#include "gaudi1/packets.h"
#include "gaudi_layout.h"

struct dma_pool;
struct gaudi_cs;
struct gaudi_ctx;
struct gaudi_device;
struct gaudi_encaps;
struct gaudi_file;
struct gaudi_mmu;
struct gen_pool;
struct hl_user_mapping;

#define GAUDI_NUM_QUEUES	GAUDI_QUEUE_ID_SIZE
/* Engine classes of the accounting: DMA, MME, TPC (gaudi_parser.h). */
#define GAUDI_NUM_ENGINE_CLASSES	4
#define GAUDI_EXT_PQ_ENTRIES	4096
#define GAUDI_INT_PQ_ENTRIES	1024
#define GAUDI_CQ_ENTRIES	GAUDI_EXT_PQ_ENTRIES
#define GAUDI_MAX_PENDING_CS	1024	/* power of 2, like upstream */
/*
 * Limits of what one holder can make the kernel allocate: its CB handles
 * and their bytes, and the parsed copies of its CBs in flight (1024 CSs of
 * 512 jobs of 2 MiB would be 1 TiB; module parameter cs_kmem_mb, default
 * 256).  Beyond them CB CREATE fails with EMFILE (number) or ENOMEM
 * (bytes), a CS with ENOMEM, each with a debug line.
 */
#define GAUDI_CB_MAX_COUNT	16384
#define GAUDI_CB_MAX_BYTES	SZ_256M
#define GAUDI_USER_ASID		1
#define GAUDI_KERNEL_ASID	0
#define GAUDI_KCB_POOLS		2
/* The MSG_PROT external kernel CBs end with (gaudi_queue.c, done words). */
#define GAUDI_DONE_PKT_SIZE	16
/* Scrub granule of user HBM (gaudi_scrub.c). */
#define GAUDI_SCRUB_CHUNK	SZ_2M
/* Ended CSs not freed by a submitter are freed this much later. */
#define GAUDI_REAP_DELAY	1	/* jiffies */

/* The device address map (user ranges): gaudi1/memmap.h, gaudi_layout.h. */

/* ---- gaudi_sync.c: a context's sync state ------------------------------ */
/* External queues: the ones with signal SOBs (DMA_0_0 .. DMA_1_3). */
#define GAUDI_NUM_EXT_QUEUES	8

/*
 * The two SOBs of an external queue for signal CSs: signals count up on
 * one until its 15-bit value is full, then move to the other, which is
 * cleared first; the switch waits until no reference to the other one is
 * left.
 */
struct gaudi_sob_slot {
	u32 cur;		/* 0 or 1: the SOB signals go to */
	u32 value;		/* its value after the last signal submitted */
	u32 users[2];		/* references on each */
	u32 unbound[2];		/* of which reservations no CS took yet */
	u64 switches;		/* times signals moved to the other SOB */
};

/*
 * The collective SOB of a master (external) queue: @value after the last
 * collective wait submitted, @inflight of them not ended.
 */
struct gaudi_coll_slot {
	u32 value;
	u32 inflight;
};

/* A context's sync state (dp->lock). */
struct gaudi_sync_ctx {
	struct gaudi_sob_slot sob[GAUDI_NUM_EXT_QUEUES];
	struct gaudi_coll_slot coll[GAUDI_NUM_EXT_QUEUES];
	struct list_head encaps;	/* struct gaudi_encaps */
	u32 encaps_next_id;
	u32 encaps_num;
};

/* ---- the CSs and their jobs, the context, the parts ------------------- */
/* A 16-byte PQ entry. */
struct gaudi_bd {
	__le64 ptr;
	__le32 len;
	__le32 ctl;
};

/* One stream of a QMAN = one upstream queue id. */
struct gaudi_hw_queue {
	bool valid;		/* DMA, MME or TPC (not CPU, not NIC) */
	bool external;		/* DMA_0_x / DMA_1_x: completion via CQ */
	u32 qm_base;		/* CFG offset of the QMAN */
	u32 stream;
	u32 entries;		/* power of 2 */
	struct gaudi_bd *pq;
	dma_addr_t pq_dma;
	u32 pi;			/* next free slot, mod 2 * entries */
	u32 ci;			/* oldest busy slot, mod 2 * entries */
	u32 cq_pi;		/* external: next CQ entry a job writes */
	struct gaudi_job **slot;	/* external: job per PQ slot */
	/*
	 * Jobs pushed whose kernel CB the queue may still read, oldest first
	 * (dp->lock); they leave when the queue's done word (external) or
	 * PQ_CI (internal) passes them.
	 */
	struct list_head hw_jobs;
};

struct gaudi_cq {
	__le32 *ring;
	dma_addr_t dma;
	u32 ci;
};

/*
 * Kernel copy of one chunk, on one queue.  On an external queue its kernel
 * CB ends with the done-word packet (and, with @cq, the completion
 * packets).  The job
 * belongs to its CS until the CS is freed; if the queue has not consumed
 * the CB by then (@on_hw), it becomes an orphan that the queue frees when
 * its done word passes @pos (gaudi_queue_retire_locked()).
 */
/* A CP_DMA target of a job: its parsed copy in the driver's HBM. */
struct gaudi_job_sub {
	u64 icb;
	u32 size;
};

struct gaudi_job {
	struct list_head node;	/* in cs->jobs, then dp->hwq.retired */
	struct list_head hw_node;	/* in q->hw_jobs while @on_hw */
	struct gaudi_cs *cs;	/* NULL once orphaned */
	u32 queue;
	void *kcb;		/* parsed copy (+ completion packets) */
	dma_addr_t kcb_dma;
	u32 len;		/* bytes of the user's (or driver's) packets */
	u32 kcb_size;		/* bytes the device executes */
	u32 kcb_alloc;
	u32 pos;		/* PQ position (PI at push), mod 2 * entries */
	u64 icb;		/* internal queues: HBM copy of kcb, or 0 */
	struct gaudi_job_sub *subs;	/* CP_DMA targets, parsed copies */
	u32 nsubs;
	u32 sub_bytes;
	bool cq;		/* external, with the completion packets */
	bool done;
	bool on_hw;		/* pushed, not yet consumed (dp->lock) */
	bool orphan;		/* no CS any more: freed when consumed */
};

struct gaudi_cs {
	struct dma_fence fence;	/* seqno = sequence number */
	struct gaudi_device *gdev;
	u64 seq;
	struct list_head node;	/* dp->sched.pending, submission order */
	struct list_head jobs;
	u32 ext_pending;	/* external jobs not yet completed */
	u32 int_jobs;
	unsigned long deadline;	/* jiffies */
	bool timestamp;		/* HL_CS_FLAGS_TIMESTAMP */
	bool skip_reset;	/* HL_CS_FLAGS_SKIP_RESET_ON_TIMEOUT */
	bool timed_out;
	bool queued;		/* on dp->sched.pending */
	u8 engines;		/* BIT(engine class) of its jobs' queues */
	/*
	 * A CS someone else built (the sync code's, a staged part with
	 * encapsulated signals): its hooks and their data (struct
	 * gaudi_cs_ops), freed with the CS.
	 */
	const struct gaudi_cs_ops *ops;
	void *priv;
	struct gaudi_ctx *ctx;
	/*
	 * Staged submission: the parts of one submission end together, when
	 * the LAST part's external jobs have completed; only those carry
	 * completion packets.  The first part's sequence names the whole
	 * submission.  The first part keeps the list of parts (itself
	 * included) while in flight; @staged_closed once LAST is in.
	 */
	bool staged;
	bool staged_first;
	bool staged_last;
	bool staged_closed;
	u64 staged_seq;		/* later parts: the first part's sequence */
	struct gaudi_cs *first;	/* staged: the first part (dp->lock) */
	struct list_head parts;	/* first part: every part, in order */
	struct list_head part_node;
};

/*
 * The hooks of a CS whose owner keeps state with it, all under dp->lock
 * (the CS core calls them; it never names their owner):
 *   ready_locked   may it go now: 1 yes, 0 not yet (the submitter waits
 *                  on sched.space_wq and asks again), < 0 never (the
 *                  submission fails with that errno)
 *   commit_locked  it goes: sequence given, jobs not yet pushed (a hook
 *                  may still write into their kernel CBs)
 *   done_locked    it ended (completed, or aborted by a reset)
 * A CS that fails before its commit gets no further call: what its data
 * holds is its submitter's to give back.  Any hook may be NULL.
 */
struct gaudi_cs_ops {
	int (*ready_locked)(struct gaudi_cs *cs);
	void (*commit_locked)(struct gaudi_cs *cs);
	void (*done_locked)(struct gaudi_cs *cs);
};

/* Per open file of the compute node. */
struct gaudi_ctx {
	struct gaudi_device *gdev;
	struct gaudi_file *gfile;
	/*
	 * Changes to the CB and mapping tables (the xarrays have their own
	 * lock for lookups) and the fields marked ctx->lock.
	 */
	struct mutex lock;
	struct xarray cbs;	/* id -> struct gaudi_cb */
	u32 cb_count;		/* ctx->lock: handles in cbs */
	u64 cb_bytes;		/* ctx->lock: and their sizes */
	struct xarray maps;	/* device VA >> 12 -> struct gaudi_map */
	/*
	 * ctx->lock: the host pages its maps pinned, by page frame number
	 * (-> struct gaudi_pinrun, gaudi_mem.c), and how many there are.
	 */
	struct maple_tree pins;
	unsigned long pin_pages;
	u64 pin_gen;		/* ctx->lock: marks of gaudi_mem.c */
	struct drm_mm va;	/* ctx->lock: host VA range of the device MMU */
	struct drm_mm cb_va;	/* ctx->lock: CB part of it */
	u64 fence_context;
	spinlock_t fence_lock;	/* of the fences of this context */
	u64 next_seq;		/* dp->lock */
	struct gaudi_cs *ring[GAUDI_MAX_PENDING_CS];	/* dp->lock */
	bool restored;		/* restore chunks ran once (READ/WRITE_ONCE) */
	/* ctx->lock, read with READ_ONCE: HBM allocated (extension) */
	u64 dram_bytes;
	u64 dram_peak;		/* the most @dram_bytes ever was */
	struct xarray dram;	/* handle -> struct gaudi_dram */
	/* Counters of HL_INFO_CS_COUNTERS (ctx_*) */
	atomic64_t out_of_mem_drop, parsing_drop, queue_full_drop,
		   in_reset_drop, max_cs_drop, validation_drop;
	/* Signal/wait SOBs and reservations (gaudi_sync.c, dp->lock). */
	struct gaudi_sync_ctx sync;
	/*
	 * Engine time (fdinfo drm-engine-*), per class of gaudi_queue_engine():
	 * the union of the intervals in which a CS of the context with a job
	 * on that class was on the hardware (pushed, not yet completed).
	 * dp->lock.
	 */
	u32 busy_inflight[GAUDI_NUM_ENGINE_CLASSES];
	ktime_t busy_since[GAUDI_NUM_ENGINE_CLASSES];
	u64 busy_ns[GAUDI_NUM_ENGINE_CLASSES];
	/*
	 * Every CB not yet freed, handles and mappings alike (cb_live_lock):
	 * a removal frees their memory under the mappings (gaudi_cb.c).
	 */
	struct mutex cb_live_lock;
	struct list_head cb_live;
	/*
	 * dp->teardown_lock: what the context holds on the device was given
	 * back, by its close or by the removal of the card, whichever ran
	 * first (gaudi_ctx_teardown()).
	 */
	bool torn_down;
};

/*
 * Who the queues report completions to (the CS scheduler), from the hard
 * IRQ handler: job_done_locked() for each job whose CQ entry arrived
 * (dp->lock held; true when ended work waits to be reaped), irq_end() once
 * per interrupt with whether any did.  The queues never name their client.
 */
struct gaudi_hwq_client {
	bool (*job_done_locked)(struct gaudi_device *gdev,
				struct gaudi_job *job);
	void (*irq_end)(struct gaudi_device *gdev, bool reap);
};

/*
 * The hardware queues (gaudi_queue.c): the PQs and CQs, the kernel CB
 * copies they execute and the done words that say how far each external
 * queue has read.  Indices, job lists and @retired: dp->lock.
 */
struct gaudi_hwq {
	bool enabled;		/* programmed (READ_ONCE; set at hw init) */
	struct gaudi_hw_queue q[GAUDI_NUM_QUEUES];
	struct gaudi_cq cq[GAUDI_NUM_EXT_QUEUES];
	struct list_head retired;	/* consumed orphan jobs, to free */
	struct dma_pool *kcb_pool[GAUDI_KCB_POOLS];
	atomic64_t kcb_bytes;		/* kernel CB copies allocated */
	/*
	 * Done words: one u32 per external queue in host memory, where the
	 * last packet of each kernel CB writes the PQ position after it.
	 */
	__le32 *done_words;
	dma_addr_t done_words_dma;
	/* HBM the internal queues' untrusted CPs fetch their CBs from. */
	struct gen_pool *icb_pool;
	const struct gaudi_hwq_client *client;	/* gaudi_queue_set_client() */
};

/* The CS scheduler (gaudi_sched.c): CSs in flight, waits for room, timeouts. */
struct gaudi_sched {
	struct mutex submit_lock;	/* one submitter at a time */
	/* dp->lock: */
	struct list_head pending;	/* CSs in flight, oldest first */
	struct list_head done;		/* ended, to be freed (gaudi_cs_reap) */
	u64 space_gen;			/* bumped when queue room frees up */
	bool timeout_valid;		/* @timeout_ev holds a capture */
	struct hl_info_cs_timeout_event timeout_ev;
	/* Woken when @space_gen or a SOB reference count moves. */
	wait_queue_head_t space_wq;
	struct delayed_work tdr;
	struct delayed_work reap_work;	/* gaudi_cs_reap() after IRQs */
	/* total_* counters of HL_INFO_CS_COUNTERS */
	atomic64_t out_of_mem_drop, parsing_drop, queue_full_drop,
		   in_reset_drop, max_cs_drop, validation_drop;
};

/* Device memory (gaudi_mem.c): user HBM and the page-fault capture. */
struct gaudi_dp_mem {
	struct gen_pool *dram_pool;	/* physical HBM allocator (extension) */
	atomic_t dmabufs;		/* exported dma-bufs alive */
	/*
	 * HL_INFO_USER_MAPPINGS: the context's mappings at its first page
	 * fault (dp->lock; taken by pf_work, cleared at open).
	 */
	struct work_struct pf_work;
	bool pf_captured;
	u32 pf_nmaps;
	struct hl_user_mapping *pf_maps;
};

/* Device memory a holder may have written (gaudi_scrub.c). */
struct gaudi_scrub_state {
	struct mutex lock;	/* a clear at a time, and the fields below */
	unsigned long *hbm_dirty;	/* GAUDI_SCRUB_CHUNK units of user HBM */
	bool sram_dirty;		/* also READ_ONCE for debugfs */
	bool all_dirty;			/* all user HBM and SRAM (ditto) */
	/*
	 * The instance of the driver this card had before a removal, while
	 * dma-bufs it exported live (a DRM reference; gaudi_scrub_probe()).
	 */
	struct gaudi_device *prev;
	u64 last_ns, last_bytes, count;
};

/* Per device (gdev->dp): the data plane, by part. */
struct gaudi_dp {
	struct gaudi_device *gdev;
	/*
	 * Queue indices, job slots, CS lists, SOB references, fences; taken
	 * by the hard IRQ handler, so process context disables interrupts.
	 */
	spinlock_t lock;
	struct gaudi_ctx *ctx;	/* the user context, if any (dp->lock) */
	/* Close and removal take the user context apart one at a time. */
	struct mutex teardown_lock;
	struct gaudi_hwq hwq;
	struct gaudi_sched sched;
	struct gaudi_mmu *mmu;		/* gaudi_mmu.c, its own lock */
	struct gaudi_dp_mem mem;
	struct gaudi_scrub_state scrub;
};

/* One job of a CS the driver built (gaudi_cs_submit_kernel()). */
struct gaudi_kjob {
	u32 queue;
	const __le32 *pkts;
	u32 size;
};

#endif /* GAUDI_DP_TYPES_H */
