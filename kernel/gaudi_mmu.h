/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the device MMU's page tables (gaudi_mmu.c).
 */
#ifndef GAUDI_MMU_H
#define GAUDI_MMU_H

#include <linux/types.h>

struct gaudi_device;

int gaudi_mmu_sw_init(struct gaudi_device *gdev);
void gaudi_mmu_sw_fini(struct gaudi_device *gdev);
int gaudi_mmu_hw_init(struct gaudi_device *gdev);
int gaudi_mmu_map(struct gaudi_device *gdev, u64 va, u64 pa, u64 size,
		  u64 page_size);
void gaudi_mmu_unmap(struct gaudi_device *gdev, u64 va, u64 size,
		     u64 page_size);
void gaudi_mmu_invalidate(struct gaudi_device *gdev);
u64 gaudi_mmu_tables(struct gaudi_device *gdev);

#endif /* GAUDI_MMU_H */
