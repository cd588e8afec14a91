/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: the device MMU (hop-0 setup, STLB, invalidation, walk). */
#ifndef GAUDI_MMU_H
#define GAUDI_MMU_H

#include <stdbool.h>
#include <stdint.h>

struct gaudi_core;

/* The MMU_ASID register holds 10 bits; upstream uses ASIDs 0 and 1. */
#define GAUDI_MMU_MAX_ASID 1024

/*
 * The STLB model (the model's choice of size, see model.rst): 1024 leaf
 * translations in 256 sets of 4 ways, least recently used way replaced.
 * An entry maps one page (4 KiB or 2 MiB) of one ASID.
 */
#define GAUDI_TLB_SETS 256
#define GAUDI_TLB_WAYS 4
#define GAUDI_TLB_ENTRIES (GAUDI_TLB_SETS * GAUDI_TLB_WAYS)
/*
 * An invalidation (a non-zero write to STLB_INV_PS) completes this long
 * after it started, or at the latest when STLB_INV_PS is read for the
 * GAUDI_TLB_INV_READS-th time since (that read returns 0; a guest whose
 * clock stands still is never held); until then STLB_INV_PS reads back
 * non-zero and the cached translations are still served.
 */
#define GAUDI_TLB_INV_NS 2000
#define GAUDI_TLB_INV_READS 3

struct gaudi_tlb_entry {
    uint64_t va;      /* page-aligned VA */
    uint64_t pa;      /* page-aligned device address */
    uint64_t used;    /* LRU stamp */
    uint16_t asid;
    uint8_t shift;    /* 12 or 21; 0 = empty */
};

struct gaudi_mmu {
    /* Hop-0 table address per ASID, bit 0 set once programmed. */
    uint64_t hop0[GAUDI_MMU_MAX_ASID];
    uint64_t walks;   /* page-table walks done (statistics) */
    /* STLB */
    struct gaudi_tlb_entry tlb[GAUDI_TLB_SETS][GAUDI_TLB_WAYS];
    uint64_t tlb_clock;          /* LRU stamp source */
    uint64_t tlb_hits, tlb_misses, tlb_evictions, tlb_flushes;
    bool inv_pending;            /* an invalidation is in progress */
    uint64_t inv_done_ns;        /* ... and completes at this time */
    unsigned int inv_busy_reads; /* reads of STLB_INV_PS that saw it */
};

/*
 * Translate va (in [GAUDI_VA_HOST_START, GAUDI_VA_HOST_END)) for asid.
 * On success returns 0, the device physical address in *pa and in *contig
 * how many bytes from va lie in the same page.  Returns -1 when there is no
 * translation; the caller reports it with gaudi_mmu_fault().  A cached
 * translation (STLB) is served without reading the tables.
 */
int gaudi_mmu_translate(struct gaudi_core *g, uint32_t asid, uint64_t va,
                        uint64_t *pa, uint64_t *contig);

/* Capture a page fault on va and post the MMU page-fault event. */
void gaudi_mmu_fault(struct gaudi_core *g, uint32_t asid, uint64_t va);

/* Valid STLB entries (tests, statistics). */
unsigned int gaudi_mmu_tlb_count(struct gaudi_core *g);

#endif
