/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: clearing what a holder wrote (gaudi_scrub.c).
 */
#ifndef GAUDI_SCRUB_H
#define GAUDI_SCRUB_H

#include <linux/types.h>

struct gaudi_device;
struct seq_file;

int gaudi_scrub_sw_init(struct gaudi_device *gdev);
void gaudi_scrub_sw_fini(struct gaudi_device *gdev);
void gaudi_scrub_mark(struct gaudi_device *gdev, u64 addr, u64 len);
void gaudi_scrub_mark_all(struct gaudi_device *gdev);
void gaudi_scrub_mark_cb(struct gaudi_device *gdev, u32 qid, const void *cb,
			 u32 size);
void gaudi_scrub_show(struct gaudi_device *gdev, struct seq_file *m);
int gaudi_scrub(struct gaudi_device *gdev);
void gaudi_scrub_remove(struct gaudi_device *gdev);
bool gaudi_scrub_dmabufs_alive(struct gaudi_device *gdev);
void gaudi_scrub_exit(void);

#endif /* GAUDI_SCRUB_H */
