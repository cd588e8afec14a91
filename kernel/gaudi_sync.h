/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the sync manager's interface to the CS core (gaudi_sync.c).
 *
 * The sync code owns the SOBs of signal/wait CSs and of encapsulated
 * signal reservations.  Everyone else holds them only as a
 * struct gaudi_sob_ref, taken and dropped through the functions below; the
 * counts behind a reference (struct gaudi_sync_ctx) are the sync code's.
 * The sync code in turn submits its CSs through the CS core's kernel-job
 * API (struct gaudi_kjob, gaudi_cs_submit_kernel()), never by building a
 * struct gaudi_cs itself.
 *
 * Locking: every *_locked function runs under dp->lock, like the CS state
 * it goes with.
 */
#ifndef GAUDI_SYNC_H
#define GAUDI_SYNC_H

#include <linux/list.h>
#include <linux/types.h>

union hl_cs_args;
struct gaudi_device;
struct gaudi_ctx;
struct gaudi_encaps;

/* External queues: the ones with signal SOBs (DMA_0_0 .. DMA_1_3). */
#define GAUDI_NUM_EXT_QUEUES	8

/*
 * A reference on one signal SOB of a context: CSs in flight that signal or
 * watch it and reservations hold one, and the SOB is neither cleared nor
 * reused while any does.  Opaque outside gaudi_sync.c.
 */
struct gaudi_sob_ref {
	u8 id;			/* 1 + 2 * queue + which; 0: none */
};

#define GAUDI_SOB_REF_NONE	((struct gaudi_sob_ref){ .id = 0 })

/* What a signal CS adds 1 to, given at its submission. */
struct gaudi_signal {
	u32 queue;		/* external queue */
	u32 sob;		/* W_S SOB index */
	u32 before;		/* the SOB's value before this signal */
};

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

void gaudi_sync_ctx_init(struct gaudi_ctx *ctx);
void gaudi_sync_ctx_fini(struct gaudi_ctx *ctx);
void gaudi_sync_hw_init(struct gaudi_device *gdev);

/* References. */
struct gaudi_sob_ref gaudi_sob_get_locked(struct gaudi_ctx *ctx,
					  const struct gaudi_signal *sig);
void gaudi_sob_put_locked(struct gaudi_ctx *ctx, struct gaudi_sob_ref *ref);
void gaudi_sob_put(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
		   struct gaudi_sob_ref *ref);

/*
 * Signal CSs, at submission: may one more signal go to @queue now (1), not
 * yet (0), or never while a reservation holds the other SOB (-EBUSY); then
 * the SOB and value for @sig, the MSG_LONG @msg that adds to it pointed
 * there, and a reference on the SOB.
 */
int gaudi_sync_signal_ready_locked(struct gaudi_ctx *ctx, u32 queue);
struct gaudi_sob_ref gaudi_sync_signal_locked(struct gaudi_ctx *ctx,
					      struct gaudi_signal *sig,
					      __le32 *msg);

/*
 * Collective waits, at submission and end: may @slaves more adds go to
 * master queue @m's collective SOB now (1) or once those in flight ended
 * (0, the SOB is then restarted from 0); then the master job's monitor
 * target in @arm_msg (its ARM MSG_LONG); done at the CS's end.
 */
#define GAUDI_COLL_ARM_DWORD	12	/* after PAY_ADDRL/ADDRH/DATA */
int gaudi_sync_coll_ready_locked(struct gaudi_ctx *ctx, u32 m, u32 slaves);
void gaudi_sync_coll_locked(struct gaudi_ctx *ctx, u32 m, u32 slaves,
			    __le32 *arm_msg);
void gaudi_sync_coll_done_locked(struct gaudi_ctx *ctx, u32 m);
int gaudi_coll_cs_ioctl(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_cs_args *args);

/* Encapsulated signals, as staged submissions use them. */
struct gaudi_encaps *gaudi_encaps_free_locked(struct gaudi_ctx *ctx, u32 id);
u32 gaudi_encaps_sob(const struct gaudi_encaps *e);
void gaudi_encaps_bind_locked(struct gaudi_ctx *ctx, struct gaudi_encaps *e,
			      u64 seq);
void gaudi_encaps_release_locked(struct gaudi_ctx *ctx,
				 struct gaudi_encaps *e);
void gaudi_encaps_release_all(struct gaudi_device *gdev,
			      struct gaudi_ctx *ctx);

/* The CS ioctl's signal, wait and reservation requests. */
int gaudi_sync_cs_ioctl(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_cs_args *args);
int gaudi_encaps_reserve_ioctl(struct gaudi_device *gdev,
			       struct gaudi_ctx *ctx, union hl_cs_args *args);
int gaudi_encaps_unreserve_ioctl(struct gaudi_device *gdev,
				 struct gaudi_ctx *ctx, union hl_cs_args *args);

#endif /* GAUDI_SYNC_H */
