// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the device MMU.
 *
 * The driver keeps the page tables in HBM and tells the MMU where the hop-0
 * table of an ASID is through a small handshake: MMU_ASID, the two halves of
 * the hop-0 address, then MMU_BUSY = 0x8000_0000 and a 2 ms poll for bit 31
 * to clear.  The model records the address and completes at once.
 *
 * The walk has five hops of 512 8-byte PTEs.  The hop-0 index is VA[49:48],
 * then VA[47:39], VA[38:30], VA[29:21] and VA[20:12].  A PTE has bit 0
 * "present" and bit 11 "last"; bits 49:12 address the next table or the
 * page.  2 MiB pages end at hop 3 (last bit set), 4 KiB pages at hop 4.
 *
 * STLB.  As on silicon, translations are cached: a walk that ends in a leaf
 * stores (ASID, VA page, page size) -> device page in a set-associative
 * table (mmu.h: 256 sets x 4 ways, LRU), and later accesses to that page
 * are served from it without reading the tables, so a PTE the driver
 * rewrites is not seen until it invalidates.  Faults are not cached.  Both
 * drivers invalidate the whole cache with one sequence (upstream gaudi.c
 * gaudi_mmu_invalidate_cache; its _range variant calls it, Gaudi 1 has no
 * range invalidation): STLB_INV_PS = 3, STLB_CACHE_INV = producer index,
 * STLB_INV_PS = 2, poll STLB_INV_PS until 0, STLB_INV_SET = 0.  The model
 * starts an invalidation on any non-zero write of STLB_INV_PS; the register
 * reads back non-zero, and the old translations stay in use, until it
 * completes (GAUDI_TLB_INV_NS later, or the GAUDI_TLB_INV_READS-th busy
 * read, whichever is first: bounded, never holding the guest).  Writing a
 * new hop-0 address does not flush (the drivers invalidate after it).  With
 * the identity's tlb_off (QEMU tlb=off) there is no cache: every
 * translation walks and an invalidation completes at once.
 */
#include "trace.h"
#include <string.h>

#include "gaudi_int.h"

#define HOP0_VALID  1ULL

static const uint8_t hop_shift[5] = { 48, 39, 30, 21, 12 };
static const uint16_t hop_mask[5] = { 0x3, 0x1FF, 0x1FF, 0x1FF, 0x1FF };

static int read_pte(struct gaudi_core *g, uint64_t addr, uint64_t *pte)
{
    uint8_t *p = gaudi_local_ptr(g, addr, sizeof(*pte));

    /* Page tables live in device memory; anything else is a fault. */
    if (!p) {
        return -1;
    }
    memcpy(pte, p, sizeof(*pte));
    return 0;
}

/* Finish an invalidation whose time has come: drop every translation. */
static void tlb_inv_check(struct gaudi_core *g, bool busy_read)
{
    struct gaudi_mmu *m = &g->mmu;

    if (!m->inv_pending) {
        return;
    }
    if (busy_read) {
        m->inv_busy_reads++;
    }
    if (gaudi_now_ns(g) < m->inv_done_ns &&
        m->inv_busy_reads < GAUDI_TLB_INV_READS) {
        return;
    }
    memset(m->tlb, 0, sizeof(m->tlb));
    m->tlb_flushes++;
    m->inv_pending = false;
    gaudi_reg_set(g, mmMMU_UP_STLB_INV_PS, 0);
}

static unsigned int tlb_set(uint32_t asid, uint64_t va, unsigned int shift)
{
    uint64_t vpn = va >> shift;

    return (unsigned int)(vpn ^ (vpn >> 8) ^ (vpn >> 16) ^ (asid * 0x9Du) ^
                          shift) & (GAUDI_TLB_SETS - 1);
}

static bool tlb_lookup(struct gaudi_core *g, uint32_t asid, uint64_t va,
                       uint64_t *pa, uint64_t *contig)
{
    static const uint8_t shifts[2] = { 12, 21 };
    unsigned int i, w;

    for (i = 0; i < 2; i++) {
        unsigned int shift = shifts[i];
        uint64_t page = 1ULL << shift, base = va & ~(page - 1);
        struct gaudi_tlb_entry *set =
            g->mmu.tlb[tlb_set(asid, va, shift)];

        for (w = 0; w < GAUDI_TLB_WAYS; w++) {
            struct gaudi_tlb_entry *e = &set[w];

            if (e->shift == shift && e->asid == asid && e->va == base) {
                e->used = ++g->mmu.tlb_clock;
                *pa = e->pa | (va & (page - 1));
                *contig = page - (va & (page - 1));
                return true;
            }
        }
    }
    return false;
}

static void tlb_fill(struct gaudi_core *g, uint32_t asid, uint64_t va,
                     uint64_t pa, unsigned int shift)
{
    uint64_t mask = ~((1ULL << shift) - 1);
    struct gaudi_tlb_entry *set = g->mmu.tlb[tlb_set(asid, va, shift)];
    struct gaudi_tlb_entry *victim = &set[0];
    unsigned int w;

    for (w = 0; w < GAUDI_TLB_WAYS; w++) {
        if (!set[w].shift) {
            victim = &set[w];
            break;
        }
        if (set[w].used < victim->used) {
            victim = &set[w];
        }
    }
    if (victim->shift) {
        g->mmu.tlb_evictions++;
    }
    victim->va = va & mask;
    victim->pa = pa & mask;
    victim->asid = asid;
    victim->shift = shift;
    victim->used = ++g->mmu.tlb_clock;
}

int gaudi_mmu_translate(struct gaudi_core *g, uint32_t asid, uint64_t va,
                        uint64_t *pa, uint64_t *contig)
{
    uint64_t table, pte, page;
    unsigned int hop;
    bool tlb = !g->id.tlb_off;

    if (asid >= GAUDI_MMU_MAX_ASID || va < GAUDI_VA_HOST_START ||
        va >= GAUDI_VA_HOST_END) {
        return -1;
    }
    if (tlb) {
        tlb_inv_check(g, false);
        if (tlb_lookup(g, asid, va, pa, contig)) {
            g->mmu.tlb_hits++;
            return 0;
        }
        g->mmu.tlb_misses++;
    }
    if (!(g->mmu.hop0[asid] & HOP0_VALID)) {
        return -1;
    }
    table = g->mmu.hop0[asid] & PTE_ADDR;
    g->mmu.walks++;

    for (hop = 0; hop < 5; hop++) {
        uint64_t idx = (va >> hop_shift[hop]) & hop_mask[hop];

        if (read_pte(g, table + idx * 8, &pte) || !(pte & PTE_PRESENT)) {
            return -1;
        }
        if (hop == 4 || (pte & PTE_LAST)) {
            /* Leaves exist at hop 3 (2 MiB) and hop 4 (4 KiB). */
            if (hop < 3) {
                return -1;
            }
            page = 1ULL << hop_shift[hop];
            *pa = (pte & PTE_ADDR & ~(page - 1)) |
                  (va & (page - 1));
            *contig = page - (va & (page - 1));
            if (tlb) {
                tlb_fill(g, asid, va, *pa, hop_shift[hop]);
            }
            return 0;
        }
        table = pte & PTE_ADDR;
    }
    return -1;
}

unsigned int gaudi_mmu_tlb_count(struct gaudi_core *g)
{
    unsigned int s, w, n = 0;

    for (s = 0; s < GAUDI_TLB_SETS; s++) {
        for (w = 0; w < GAUDI_TLB_WAYS; w++) {
            n += g->mmu.tlb[s][w].shift != 0;
        }
    }
    return n;
}

void gaudi_mmu_fault(struct gaudi_core *g, uint32_t asid, uint64_t va)
{
    uint32_t cap = gaudi_reg_get(g, mmMMU_UP_PAGE_ERROR_CAPTURE);

    trace_gaudi_mmu_err_fault(asid, va);
    gaudi_guest_error(g, "MMU page fault: asid %u va 0x%llx", asid,
                      (unsigned long long)va);
    /*
     * The capture registers hold the first fault until the driver clears
     * them (upstream reads them on the page-fault event, then writes 0).
     */
    if (!(cap & MMU_PAGE_ERROR_CAPTURE_VALID)) {
        gaudi_reg_set(g, mmMMU_UP_PAGE_ERROR_CAPTURE,
                      MMU_PAGE_ERROR_CAPTURE_VALID |
                      ((va >> 32) & MMU_PAGE_ERROR_CAPTURE_VA_49_32));
        gaudi_reg_set(g, mmMMU_UP_PAGE_ERROR_CAPTURE_VA, (uint32_t)va);
    }
    /* Payload: the faulting VA (upstream itself reads the registers). */
    gaudi_eq_event(g, GAUDI_EVENT_MMU_PAGE_FAULT, &va, sizeof(va));
}

static void mmu_busy_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    uint32_t asid;
    uint64_t hop0;

    if (val & MMU_BUSY) {
        asid = gaudi_reg_get(g, mmMMU_UP_MMU_ASID) &
               GAUDI_PROPS_ASID;
        hop0 = ((uint64_t)gaudi_reg_get(g, mmMMU_UP_MMU_HOP0_PA43_12)
                << 12) |
               ((uint64_t)(gaudi_reg_get(g, mmMMU_UP_MMU_HOP0_PA49_44) &
                           0x3F) << 44);
        g->mmu.hop0[asid] = (hop0 & PTE_ADDR) | HOP0_VALID;
        trace_gaudi_mmu_hop0(asid, hop0);
    }
    /* The configuration is taken at once: never busy. */
    gaudi_reg_set(g, off, 0);
}

static void mmu_inv_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    struct gaudi_mmu *m = &g->mmu;

    if (!val) {
        return;
    }
    if (g->id.tlb_off) {
        /* No cache to invalidate: every request completes at once. */
        m->tlb_flushes++;
        gaudi_reg_set(g, off, 0);
        return;
    }
    /*
     * Start (or restart) a full invalidation; the register shows the value
     * written until it completes.
     */
    gaudi_reg_set(g, off, val);
    m->inv_pending = true;
    m->inv_busy_reads = 0;
    m->inv_done_ns = gaudi_now_ns(g) + GAUDI_TLB_INV_NS;
}

static uint32_t mmu_inv_read(struct gaudi_core *g, uint32_t off)
{
    tlb_inv_check(g, g->mmu.inv_pending);
    return gaudi_reg_get(g, off);
}

void gaudi_mmu_init(struct gaudi_core *g)
{
    gaudi_reg_claim(g, mmMMU_UP_MMU_BUSY, mmMMU_UP_MMU_BUSY + 4, NULL,
                    mmu_busy_write);
    gaudi_reg_claim(g, mmMMU_UP_STLB_INV_PS, mmMMU_UP_STLB_INV_PS + 4,
                    mmu_inv_read, mmu_inv_write);
}

void gaudi_mmu_reset(struct gaudi_core *g)
{
    memset(&g->mmu, 0, sizeof(g->mmu));
}
