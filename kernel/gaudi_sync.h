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

#include <linux/types.h>

union hl_cs_args;
struct gaudi_cs;
struct gaudi_ctx;
struct gaudi_device;

void gaudi_sync_ctx_init(struct gaudi_ctx *ctx);
void gaudi_sync_ctx_fini(struct gaudi_ctx *ctx);
void gaudi_sync_hw_init(struct gaudi_device *gdev);

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
