/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the hardware queues (gaudi_queue.c).
 */
#ifndef GAUDI_QUEUE_H
#define GAUDI_QUEUE_H

#include <linux/types.h>

#include "gaudi_dp_types.h"

/* Bytes the driver appends to a kernel CB on @q for its done word. */
static inline u32 gaudi_done_size(const struct gaudi_hw_queue *q)
{
	return q->external ? GAUDI_DONE_PKT_SIZE : 0;
}

int gaudi_queue_sw_init(struct gaudi_device *gdev);
void gaudi_queue_sw_fini(struct gaudi_device *gdev);
void gaudi_queue_dma_fini(struct gaudi_device *gdev);
void gaudi_queue_hw_init(struct gaudi_device *gdev);
void gaudi_queue_start(struct gaudi_device *gdev);
void gaudi_queue_stop(struct gaudi_device *gdev);
void gaudi_queue_reset_locked(struct gaudi_device *gdev);
void gaudi_queue_set_client(struct gaudi_device *gdev,
			    const struct gaudi_hwq_client *client);
u32 gaudi_queue_free_slots(struct gaudi_hw_queue *q);
void gaudi_queue_push(struct gaudi_device *gdev, struct gaudi_job *job);
void gaudi_queue_ring(struct gaudi_device *gdev, u32 id);
void gaudi_cq_irq(struct gaudi_device *gdev);
u64 gaudi_host_dev_addr(dma_addr_t dma);
/* A queue's engine class (enum gaudi_parser_engine), for the accounting. */
unsigned int gaudi_queue_engine(u32 queue);
void *gaudi_kcb_alloc(struct gaudi_device *gdev, u32 size, dma_addr_t *dma);
void gaudi_kcb_free(struct gaudi_device *gdev, u32 size, void *kcb,
		    dma_addr_t dma);
void gaudi_job_free(struct gaudi_device *gdev, struct gaudi_job *job);
void gaudi_queue_retire_locked(struct gaudi_device *gdev, u32 id);
void gaudi_queue_retire_all_locked(struct gaudi_device *gdev);
bool gaudi_queue_consumed_locked(struct gaudi_device *gdev, u32 id, u32 pos);
bool gaudi_queues_idle(struct gaudi_device *gdev);
void gaudi_queue_free_retired(struct gaudi_device *gdev);
void gaudi_queue_clear_fences(struct gaudi_device *gdev);
int gaudi_icb_alloc(struct gaudi_device *gdev, const void *kcb, u32 size,
		    u64 *addr);
void gaudi_icb_free(struct gaudi_device *gdev, u64 addr, u32 size);

#endif /* GAUDI_QUEUE_H */
