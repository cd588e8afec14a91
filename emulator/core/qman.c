// SPDX-License-Identifier: GPL-2.0-or-later
/* STUB: replaced when this module lands. */
#include "gaudi_int.h"

void gaudi_qman_init(struct gaudi_core *g) { (void)g; }
void gaudi_qman_reset(struct gaudi_core *g) { (void)g; }
void gaudi_qman_tick(struct gaudi_core *g) { (void)g; }
