/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: the event queue towards the driver. */
#ifndef GAUDI_EQ_H
#define GAUDI_EQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gaudi1/events.h"

struct gaudi_core;

/* Entry layout (cpucp_if.h, struct hl_eq_entry): header word, payload. */
#define GAUDI_EQ_PAYLOAD 56
#define EQ_CTL_READY  (1U << 31)
#define EQ_CTL_TYPE_SHIFT 16
#define EQ_CTL_TYPE_MASK 0x0FFF0000U
#define EQ_CTL_INDEX_MASK 0x0000FFFFU

struct gaudi_eq {
    bool ready;  /* set up by the QUEUE_INIT handshake */
    uint64_t base;  /* "CPU-accessible" form */
    uint32_t entries;
    uint32_t pi;  /* next slot, 0 .. entries - 1 */
    uint32_t index;  /* running entry index (ctl bits 15:0) */
    uint64_t posted;
    uint32_t drops;  /* events lost: queue full or not ready */
};

/* Start posting to a queue of entries slots at base (QUEUE_INIT). */
void gaudi_eq_start(struct gaudi_core *g, uint64_t base, uint32_t entries);

/*
 * Post an event (type = upstream's gaudi_async_event_id) with up to 56
 * bytes of payload and raise the MSI.  Any engine may call it.
 */
void gaudi_eq_event(struct gaudi_core *g, uint16_t type, const void *payload,
                    size_t len);

#endif
