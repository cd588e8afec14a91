/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: the event queue towards the driver. */
#ifndef GAUDI_EQ_H
#define GAUDI_EQ_H

#include <stddef.h>
#include <stdint.h>

struct gaudi_core;

struct gaudi_eq {
	uint32_t pi;
};

/*
 * Post an event (type = upstream's gaudi_async_event_id) with up to 56
 * bytes of payload and raise the MSI.  Any engine may call it.
 */
void gaudi_eq_event(struct gaudi_core *g, uint16_t type, const void *payload,
		    size_t len);

#endif
