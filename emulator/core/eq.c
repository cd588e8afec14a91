// SPDX-License-Identifier: GPL-2.0-or-later
/* STUB: replaced when this module lands. */
#include "gaudi_int.h"

void gaudi_eq_init(struct gaudi_core *g) { (void)g; }
void gaudi_eq_reset(struct gaudi_core *g) { (void)g; }
void gaudi_eq_event(struct gaudi_core *g, uint16_t type, const void *payload, size_t len) { (void)g; (void)type; (void)payload; (void)len; }
