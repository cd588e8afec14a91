/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the CS scheduler: CSs in flight, room, commit, timeouts,
 * completion, abort; the kernel-job API (gaudi_sched.c).
 */
#ifndef GAUDI_SCHED_H
#define GAUDI_SCHED_H

#include <linux/types.h>

#include "gaudi_dp_types.h"

struct hl_info_cs_counters;
struct hl_info_cs_timeout_event;

struct gaudi_job *gaudi_job_new(struct gaudi_device *gdev, struct gaudi_cs *cs,
				u32 queue, u32 len, bool cq);
void gaudi_cs_free_jobs(struct gaudi_device *gdev, struct gaudi_cs *cs);
int gaudi_cs_staged_check_locked(struct gaudi_device *gdev,
				 struct gaudi_ctx *ctx, struct gaudi_cs *cs,
				 struct gaudi_cs **first);
int gaudi_cs_submit(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
		    struct gaudi_cs *cs, u64 *seq_out);
void gaudi_cs_sw_init(struct gaudi_device *gdev);
void gaudi_cs_sw_fini(struct gaudi_device *gdev);
void gaudi_cs_engine_error(struct gaudi_device *gdev, bool page_fault);
void gaudi_cs_fini(struct gaudi_device *gdev);
void gaudi_cs_abort_all(struct gaudi_device *gdev);
void gaudi_cs_reap(struct gaudi_device *gdev);
void gaudi_cs_counters(struct gaudi_device *gdev, struct gaudi_file *gfile,
		       struct hl_info_cs_counters *c);
bool gaudi_cs_timeout_event(struct gaudi_device *gdev,
			    struct hl_info_cs_timeout_event *ev);

/*
 * The kernel-job API (gaudi_sync.c's CSs): a CS of @n jobs the driver built
 * itself, not parsed, the last one on an external queue (it ends the CS).
 * @ops and a copy of the @priv_size bytes at @priv go with the CS; once it
 * is submitted, *@priv receives the copy as the commit left it.
 */
int gaudi_cs_submit_kernel(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			   const struct gaudi_kjob *kj, unsigned int n,
			   const struct gaudi_cs_ops *ops, void *priv,
			   size_t priv_size, u64 *seq);
struct gaudi_cs *gaudi_cs_alloc(struct gaudi_device *gdev,
				struct gaudi_ctx *ctx, size_t priv_size);
struct gaudi_cs *gaudi_cs_lookup_locked(struct gaudi_ctx *ctx, u64 seq);

#endif /* GAUDI_SCHED_H */
