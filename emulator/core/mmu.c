// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the device MMU.
 *
 * The driver keeps the page tables in HBM and tells the MMU where the hop-0
 * table of an ASID is through a small handshake: MMU_ASID, the two halves of
 * the hop-0 address, then MMU_BUSY = 0x8000_0000 and a 2 ms poll for bit 31
 * to clear.  The model records the address and completes at once.  STLB
 * invalidation (STLB_INV_PS = 3, STLB_CACHE_INV, STLB_INV_PS = 2, poll for
 * 0) also completes at once: the model has no TLB, every translation walks
 * the tables in HBM.
 *
 * The walk has five hops of 512 8-byte PTEs.  The hop-0 index is VA[49:48],
 * then VA[47:39], VA[38:30], VA[29:21] and VA[20:12].  A PTE has bit 0
 * "present" and bit 11 "last"; bits 49:12 address the next table or the
 * page.  2 MiB pages end at hop 3 (last bit set), 4 KiB pages at hop 4.
 */
#include <string.h>

#include "gaudi_int.h"

#define PTE_PRESENT  (1ULL << 0)
#define PTE_LAST  (1ULL << 11)
#define PTE_ADDR_MASK  0x0003FFFFFFFFF000ULL
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

int gaudi_mmu_translate(struct gaudi_core *g, uint32_t asid, uint64_t va,
                        uint64_t *pa, uint64_t *contig)
{
    uint64_t table, pte, page;
    unsigned int hop;

    if (asid >= GAUDI_MMU_MAX_ASID || va < GAUDI_MMU_VA_START ||
        va >= GAUDI_MMU_VA_END) {
        return -1;
    }
    if (!(g->mmu.hop0[asid] & HOP0_VALID)) {
        return -1;
    }
    table = g->mmu.hop0[asid] & PTE_ADDR_MASK;
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
            *pa = (pte & PTE_ADDR_MASK & ~(page - 1)) |
                  (va & (page - 1));
            *contig = page - (va & (page - 1));
            return 0;
        }
        table = pte & PTE_ADDR_MASK;
    }
    return -1;
}

void gaudi_mmu_fault(struct gaudi_core *g, uint32_t asid, uint64_t va)
{
    uint32_t cap = gaudi_reg_get(g, mmMMU_UP_PAGE_ERROR_CAPTURE);

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

    if (val & MMU_BUSY_BIT) {
        asid = gaudi_reg_get(g, mmMMU_UP_MMU_ASID) &
               GAUDI_PROPS_ASID_MASK;
        hop0 = ((uint64_t)gaudi_reg_get(g, mmMMU_UP_MMU_HOP0_PA43_12)
                << 12) |
               ((uint64_t)(gaudi_reg_get(g, mmMMU_UP_MMU_HOP0_PA49_44) &
                           0x3F) << 44);
        g->mmu.hop0[asid] = (hop0 & PTE_ADDR_MASK) | HOP0_VALID;
        gaudi_trace(g, "MMU hop0 asid %u = 0x%llx", asid,
                    (unsigned long long)hop0);
    }
    /* The configuration is taken at once: never busy. */
    gaudi_reg_set(g, off, 0);
}

static void mmu_inv_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    (void)val;
    /* No TLB to invalidate: every request completes at once. */
    gaudi_reg_set(g, off, 0);
}

void gaudi_mmu_init(struct gaudi_core *g)
{
    gaudi_reg_claim(g, mmMMU_UP_MMU_BUSY, mmMMU_UP_MMU_BUSY + 4, NULL,
                    mmu_busy_write);
    gaudi_reg_claim(g, mmMMU_UP_STLB_INV_PS, mmMMU_UP_STLB_INV_PS + 4, NULL,
                    mmu_inv_write);
}

void gaudi_mmu_reset(struct gaudi_core *g)
{
    memset(&g->mmu, 0, sizeof(g->mmu));
}
