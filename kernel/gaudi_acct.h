/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: engine time and the holders' accounting (gaudi_acct.c).
 */
#ifndef GAUDI_ACCT_H
#define GAUDI_ACCT_H

#include <linux/types.h>

#include "gaudi_dp_types.h"

struct gaudi_device;
struct gaudi_file;

int gaudi_acct_init(struct gaudi_device *gdev);
void gaudi_acct_open(struct gaudi_device *gdev, struct gaudi_file *gfile);
void gaudi_acct_close(struct gaudi_device *gdev, struct gaudi_file *gfile);
int gaudi_acct_query(struct gaudi_device *gdev, void *data);
void gaudi_file_host_add(struct gaudi_file *gfile, s64 bytes);

void gaudi_acct_busy_locked(struct gaudi_cs *cs, ktime_t now, bool start);
/* The context's busy time per engine class, in ns. */
void gaudi_cs_busy_ns(struct gaudi_ctx *ctx,
		      u64 busy[GAUDI_NUM_ENGINE_CLASSES]);
/* Command submissions the context's HL_CS accepted. */
u64 gaudi_cs_submitted(struct gaudi_ctx *ctx);

#endif /* GAUDI_ACCT_H */
