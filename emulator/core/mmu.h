/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: the device MMU (hop-0 setup, invalidation, 5-hop walk). */
#ifndef GAUDI_MMU_H
#define GAUDI_MMU_H

#include <stdint.h>

struct gaudi_core;

/* The MMU_ASID register holds 10 bits; upstream uses ASIDs 0 and 1. */
#define GAUDI_MMU_MAX_ASID 1024

struct gaudi_mmu {
    /* Hop-0 table address per ASID, bit 0 set once programmed. */
    uint64_t hop0[GAUDI_MMU_MAX_ASID];
    uint64_t walks;   /* translations done (statistics) */
};

/*
 * Translate va (in [GAUDI_MMU_VA_START, GAUDI_MMU_VA_END)) for asid.
 * On success returns 0, the device physical address in *pa and in *contig
 * how many bytes from va lie in the same page.  Returns -1 when there is no
 * translation; the caller reports it with gaudi_mmu_fault().
 */
int gaudi_mmu_translate(struct gaudi_core *g, uint32_t asid, uint64_t va,
                        uint64_t *pa, uint64_t *contig);

/* Capture a page fault on va and post the MMU page-fault event. */
void gaudi_mmu_fault(struct gaudi_core *g, uint32_t asid, uint64_t va);

#endif
