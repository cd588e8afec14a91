// SPDX-License-Identifier: GPL-2.0-or-later
/* STUB: replaced when this module lands. */
#include "gaudi_int.h"

void gaudi_cpu_init(struct gaudi_core *g) { (void)g; }
void gaudi_cpu_reset(struct gaudi_core *g) { (void)g; }
void gaudi_cpu_fini(struct gaudi_core *g) { (void)g; }
void gaudi_cpu_tick(struct gaudi_core *g) { (void)g; }
