// SPDX-License-Identifier: GPL-2.0-or-later
/* Temporary: module entry points until each module lands. */
#include "gaudi_int.h"

void gaudi_boot_init(struct gaudi_core *g) { (void)g; }
void gaudi_boot_reset(struct gaudi_core *g) { (void)g; }
void gaudi_cpu_init(struct gaudi_core *g) { (void)g; }
void gaudi_cpu_reset(struct gaudi_core *g) { (void)g; }
void gaudi_cpu_fini(struct gaudi_core *g) { (void)g; }
void gaudi_cpu_tick(struct gaudi_core *g) { (void)g; }
void gaudi_eq_init(struct gaudi_core *g) { (void)g; }
void gaudi_eq_reset(struct gaudi_core *g) { (void)g; }
void gaudi_eq_event(struct gaudi_core *g, uint16_t type, const void *payload,
		    size_t len) { (void)g; (void)type; (void)payload; (void)len; }
void gaudi_qman_init(struct gaudi_core *g) { (void)g; }
void gaudi_qman_reset(struct gaudi_core *g) { (void)g; }
void gaudi_qman_tick(struct gaudi_core *g) { (void)g; }
void gaudi_sync_init(struct gaudi_core *g) { (void)g; }
void gaudi_sync_reset(struct gaudi_core *g) { (void)g; }
void gaudi_mmu_init(struct gaudi_core *g) { (void)g; }
void gaudi_mmu_reset(struct gaudi_core *g) { (void)g; }
void gaudi_ctl_init(struct gaudi_core *g) { (void)g; }
