/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the sync manager (gaudi_sync.c): signal, wait and collective
 * wait CSs, encapsulated signal reservations.
 *
 * The sync code owns the SOBs of signal/wait CSs and of encapsulated
 * signal reservations, and every reference on them (struct gaudi_sob_ref,
 * struct gaudi_sync_ctx).  It submits its CSs through the CS core's
 * kernel-job API (struct gaudi_kjob, gaudi_cs_submit_kernel()) and keeps
 * its state with each CS behind the CS's hooks (struct gaudi_cs_ops), as
 * it does for a staged submission that raises reserved signals
 * (gaudi_encaps_cs_alloc()): the CS core never calls the sync code.
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
struct gaudi_cs;

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

#define GAUDI_COLL_ARM_DWORD	12	/* after PAY_ADDRL/ADDRH/DATA */
int gaudi_coll_cs_ioctl(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_cs_args *args);

/* Encapsulated signals, as staged submissions use them. */
struct gaudi_cs *gaudi_encaps_cs_alloc(struct gaudi_device *gdev,
				       struct gaudi_ctx *ctx, u32 id);
int gaudi_encaps_cs_sob_locked(struct gaudi_cs *cs, u32 *sob);
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
