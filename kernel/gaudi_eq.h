/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the interrupt handler's event queue and event counters
 * (gaudi_eq.c).
 */
#ifndef GAUDI_EQ_H
#define GAUDI_EQ_H

#include <linux/types.h>

struct gaudi_device;

int gaudi_eq_init(struct gaudi_device *gdev);	/* ring cleared, enabled */
void gaudi_eq_fini(struct gaudi_device *gdev);
/* Threaded IRQ: consume the event queue. */
void gaudi_eq_handle(struct gaudi_device *gdev);
bool gaudi_eq_pending(struct gaudi_device *gdev);
void gaudi_eq_reset_counters(struct gaudi_device *gdev);
void gaudi_eq_clear_captures(struct gaudi_device *gdev);
const char *gaudi_event_name(u32 type, char *buf, size_t len);

#endif /* GAUDI_EQ_H */
