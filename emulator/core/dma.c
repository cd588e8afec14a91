// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the DMA cores.
 *
 * Each of the eight DMA channels has a core that moves data and a QMAN that
 * feeds it.  A LIN_DMA packet on the QMAN, or a direct write of SRC_BASE,
 * DST_BASE, DST_TSIZE_0 and then COMMIT, runs one linear transfer: a copy,
 * or with MEM_SET a fill of the destination with the 64-bit pattern held in
 * SRC_BASE.  Transfers complete inside the triggering write, so STS0 never
 * shows BUSY.  A failed transfer sets ERR_CAUSE (write 1 to clear) and posts
 * the channel's DMA_CORE event.
 *
 * Addresses in the MMU range are translated with the ASID of the core's
 * NON_SECURE_PROPS, or of SECURE_PROPS while PROT bit 0 marks the channel
 * secure (upstream does that around its own jobs on DMA 0); MMBP in the
 * props bypasses the MMU, for a secure channel only.  Everything else is a
 * physical device address, checked by the protection (prot.c) unless the
 * channel is secure.
 * Data moves in large pieces: straight between HBM/SRAM and host memory,
 * through a bounce buffer only when neither side is device memory.
 */
#include <string.h>

#include "gaudi_int.h"

/* Every region of the device map starts and ends on a 1 MiB boundary. */
#define SEG_MAX  (1ULL << 20)
#define ZERO_PAGE 4096U

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static bool is_host_phys(uint64_t addr)
{
    return addr >= GAUDI_HOST_PHYS_BASE && addr < GAUDI_MMU_VA_START;
}

/*
 * Resolve the engine address addr to a physical one; *seg is how many of
 * len bytes from there are contiguous and inside one 1 MiB piece.  A
 * fault is reported (page fault event and transaction).
 */
static int resolve(struct gaudi_core *g, const struct gaudi_init *in,
                   uint64_t addr, uint64_t len, bool write, uint64_t *pa,
                   uint64_t *seg)
{
    uint32_t asid = in->props & GAUDI_PROPS_ASID_MASK;
    bool mmbp = in->secure && (in->props & GAUDI_PROPS_MMBP);
    uint64_t contig = len;

    if (addr >= GAUDI_MMU_VA_START && addr < GAUDI_MMU_VA_END && !mmbp) {
        if (gaudi_mmu_translate(g, asid, addr, pa, &contig)) {
            gaudi_mmu_fault(g, asid, addr);
            gaudi_txn_emit(g, in, write, addr, 0, len,
                           GAUDI_TXN_MMU_FAULT);
            return GAUDI_ACCESS_FAULT;
        }
    } else if (!in->secure && is_host_phys(addr) && gaudi_mmu_enabled(g)) {
        /*
         * The MMU stands between untrusted engines and the host: only a
         * translated address reaches it (protection.rst).
         */
        gaudi_mmu_fault(g, asid, addr);
        gaudi_txn_emit(g, in, write, addr, 0, len, GAUDI_TXN_MMU_FAULT);
        return GAUDI_ACCESS_FAULT;
    } else {
        *pa = addr;
    }
    *seg = min64(min64(len, contig), SEG_MAX - (*pa & (SEG_MAX - 1)));
    return 0;
}

static int eng_access(struct gaudi_core *g, const struct gaudi_init *in,
                      uint64_t addr, uint8_t *p, uint64_t len, bool write)
{
    uint64_t pa, seg;
    int r;

    while (len) {
        r = resolve(g, in, addr, len, write, &pa, &seg);
        if (r) {
            return r;
        }
        r = gaudi_phys_access(g, in, addr, pa, p, seg, write);
        if (r) {
            return r;
        }
        addr += seg;
        p += seg;
        len -= seg;
    }
    return 0;
}

int gaudi_eng_read(struct gaudi_core *g, const struct gaudi_init *in,
                   uint64_t addr, void *buf, uint64_t len)
{
    return eng_access(g, in, addr, buf, len, false);
}

int gaudi_eng_write(struct gaudi_core *g, const struct gaudi_init *in,
                    uint64_t addr, const void *buf, uint64_t len)
{
    /* eng_access() only reads buf when writing. */
    return eng_access(g, in, addr, (uint8_t *)(uintptr_t)buf, len, true);
}

static uint32_t core_base(unsigned int n)
{
    return mmDMA0_CORE_BASE + n * GAUDI_DMA_BLOCK_STRIDE;
}

/* RAZWI initiator ids of the DMA_IF each DMA channel sits behind. */
static const uint8_t dma_if_xy[8][2] = {
    { 0, 1 }, { 9, 1 }, { 0, 2 }, { 9, 2 },
    { 0, 3 }, { 9, 3 }, { 0, 4 }, { 9, 4 },
};

uint32_t gaudi_dma_razwi_id(unsigned int n)
{
    return RAZWI_ID(dma_if_xy[n][0], dma_if_xy[n][1], AXI_ID_DMA);
}

/* The core's transfers: secure while PROT bit 0 is set. */
static void core_init(struct gaudi_core *g, unsigned int n,
                      struct gaudi_init *in)
{
    uint32_t base = core_base(n);

    in->kind = GAUDI_INIT_DMA;
    in->index = n;
    in->secure = gaudi_reg_get(g, base + DMA_CORE_PROT) & DMA_CORE_PROT_VAL;
    in->props = gaudi_reg_get(g, base + (in->secure ? DMA_CORE_SECURE_PROPS :
                                         DMA_CORE_NON_SECURE_PROPS));
    in->razwi_id = gaudi_dma_razwi_id(n);
}

static int dma_fail(struct gaudi_core *g, unsigned int n, uint32_t cause,
                    const char *what, uint64_t addr)
{
    uint32_t off = core_base(n) + DMA_CORE_ERR_CAUSE;
    uint64_t payload = addr;

    gaudi_guest_error(g, "DMA%u: %s at 0x%llx", n, what,
                      (unsigned long long)addr);
    gaudi_reg_set(g, off, gaudi_reg_get(g, off) | cause);
    gaudi_eq_event(g, GAUDI_EVENT_DMA0_CORE + n, &payload,
                   sizeof(payload));
    return -1;
}

static bool page_is_zero(const uint8_t *p)
{
    static const uint8_t zero[ZERO_PAGE];

    return !memcmp(p, zero, ZERO_PAGE);
}

/*
 * Clear device memory at p (device address addr).  Whole 4 KiB pages that
 * already read zero are not written, so clearing never-touched HBM does not
 * make the host allocate its sparse backing.
 */
static void zero_local(uint8_t *p, uint64_t addr, uint64_t len)
{
    while (len) {
        uint64_t n = min64(len, ZERO_PAGE - (addr & (ZERO_PAGE - 1)));

        if (n < ZERO_PAGE || !page_is_zero(p)) {
            memset(p, 0, n);
        }
        p += n;
        addr += n;
        len -= n;
    }
}

/*
 * Fill len bytes at p with the little-endian 64-bit pattern, starting at
 * pattern byte phase (the offset of p from the start of the transfer).
 */
static void fill_pattern(uint8_t *p, uint64_t len, uint64_t pattern,
                         unsigned int phase)
{
    uint8_t rot[8];
    unsigned int k;
    uint64_t i;

    for (k = 0; k < 8; k++) {
        rot[k] = pattern >> (8 * ((phase + k) & 7));
    }
    for (i = 0; i + 8 <= len; i += 8) {
        memcpy(p + i, rot, 8);
    }
    for (; i < len; i++) {
        p[i] = rot[i & 7];
    }
}

/*
 * Direct pointer to local memory at pa for an access the protection
 * allows, else NULL (the slow path then checks and reports).
 */
static uint8_t *local_ok(struct gaudi_core *g, const struct gaudi_init *in,
                         uint64_t pa, uint64_t len, bool write)
{
    uint8_t *p = gaudi_local_ptr(g, pa, len);

    if (p && !in->secure && gaudi_hbw_blocked(g, pa, len, write)) {
        return NULL;
    }
    return p;
}

static uint32_t err_cause(int r, bool write)
{
    (void)r;
    return write ? DMA_ERR_HBW_WR : DMA_ERR_HBW_RD;
}

static int do_memset(struct gaudi_core *g, unsigned int n,
                     const struct gaudi_init *in, uint64_t dst,
                     uint64_t size, uint64_t pattern)
{
    uint8_t *bounce = g->qm.bounce;
    uint64_t done = 0, pa, seg;
    uint8_t *p;
    int r;

    while (done < size) {
        if (resolve(g, in, dst + done, size - done, true, &pa, &seg)) {
            return dma_fail(g, n, DMA_ERR_HBW_WR, "memset fault",
                            dst + done);
        }
        p = local_ok(g, in, pa, seg, true);
        if (p && !pattern) {
            zero_local(p, pa, seg);
            gaudi_txn_emit(g, in, true, dst + done, pa, seg, GAUDI_TXN_OK);
        } else if (p) {
            fill_pattern(p, seg, pattern, done & 7);
            gaudi_txn_emit(g, in, true, dst + done, pa, seg, GAUDI_TXN_OK);
        } else {
            seg = min64(seg, sizeof(g->qm.bounce));
            fill_pattern(bounce, seg, pattern, done & 7);
            r = gaudi_phys_access(g, in, dst + done, pa, bounce, seg, true);
            if (r) {
                return dma_fail(g, n, err_cause(r, true),
                                r == GAUDI_ACCESS_RAZWI ?
                                "memset blocked (RAZWI)" :
                                "memset to unmapped address", pa);
            }
        }
        done += seg;
        g->stat_dma_bytes += seg;
    }
    return 0;
}

static int do_copy(struct gaudi_core *g, unsigned int n,
                   const struct gaudi_init *in, uint64_t src, uint64_t dst,
                   uint64_t size)
{
    uint64_t done = 0, spa, dpa, sseg, dseg, len;
    uint8_t *sp, *dp, *buf;
    int r;

    while (done < size) {
        if (resolve(g, in, src + done, size - done, false, &spa, &sseg)) {
            return dma_fail(g, n, DMA_ERR_HBW_RD, "read fault",
                            src + done);
        }
        if (resolve(g, in, dst + done, size - done, true, &dpa, &dseg)) {
            return dma_fail(g, n, DMA_ERR_HBW_WR, "write fault",
                            dst + done);
        }
        len = min64(sseg, dseg);
        sp = local_ok(g, in, spa, len, false);
        dp = local_ok(g, in, dpa, len, true);
        if (sp && dp) {
            memmove(dp, sp, len);
            gaudi_txn_emit(g, in, false, src + done, spa, len, GAUDI_TXN_OK);
            gaudi_txn_emit(g, in, true, dst + done, dpa, len, GAUDI_TXN_OK);
        } else {
            /* Read into the destination itself when it is local. */
            if (!dp) {
                len = min64(len, sizeof(g->qm.bounce));
            }
            buf = dp ? dp : g->qm.bounce;
            r = sp ? (memcpy(buf, sp, len), 0) :
                gaudi_phys_access(g, in, src + done, spa, buf, len, false);
            if (sp) {
                gaudi_txn_emit(g, in, false, src + done, spa, len,
                               GAUDI_TXN_OK);
            }
            if (dp) {
                /* Written even when the read failed (zeros, or part). */
                gaudi_txn_emit(g, in, true, dst + done, dpa, len,
                               GAUDI_TXN_OK);
            }
            if (r) {
                return dma_fail(g, n, err_cause(r, false),
                                r == GAUDI_ACCESS_RAZWI ?
                                "read blocked (RAZWI)" :
                                "read from unmapped address", spa);
            }
            if (!dp) {
                r = gaudi_phys_access(g, in, dst + done, dpa, buf, len,
                                      true);
                if (r) {
                    return dma_fail(g, n, err_cause(r, true),
                                    r == GAUDI_ACCESS_RAZWI ?
                                    "write blocked (RAZWI)" :
                                    "write to unmapped address", dpa);
                }
            }
        }
        done += len;
        g->stat_dma_bytes += len;
    }
    return 0;
}

int gaudi_dma_transfer(struct gaudi_core *g, unsigned int n, uint64_t src,
                       uint64_t dst, uint64_t size, uint32_t commit)
{
    uint32_t base = core_base(n), data;
    struct gaudi_init in;
    uint64_t comp;
    int r;

    core_init(g, n, &in);
    if (!(commit & DMA_COMMIT_LIN)) {
        gaudi_log(g, GAUDI_LOG_UNIMP,
                  "DMA%u: only linear transfers are modelled", n);
        return dma_fail(g, n, DMA_ERR_HBW_RD, "non-linear transfer",
                        src);
    }
    if (commit & DMA_COMMIT_MEM_SET) {
        r = do_memset(g, n, &in, dst, size, src);
    } else {
        r = do_copy(g, n, &in, src, dst, size);
    }
    if (r || !(commit & DMA_COMMIT_WR_COMP_EN)) {
        return r;
    }
    /* Write completion: WR_COMP_WDATA to WR_COMP_ADDR. */
    data = gaudi_reg_get(g, base + DMA_CORE_WR_COMP_WDATA);
    comp = ((uint64_t)gaudi_reg_get(g, base + DMA_CORE_WR_COMP_ADDR_HI)
            << 32) | gaudi_reg_get(g, base + DMA_CORE_WR_COMP_ADDR_LO);
    if (gaudi_eng_write(g, &in, comp, &data, sizeof(data))) {
        return dma_fail(g, n, DMA_ERR_LBW_WR, "write completion",
                        comp);
    }
    return 0;
}

uint32_t gaudi_dma_core_read(struct gaudi_core *g, unsigned int n,
                             uint32_t rel)
{
    /* Transfers finish inside the triggering write: never busy. */
    if (rel == DMA_CORE_STS0) {
        return 0;
    }
    return gaudi_reg_get(g, core_base(n) + rel);
}

void gaudi_dma_core_write(struct gaudi_core *g, unsigned int n, uint32_t rel,
                          uint32_t val)
{
    uint32_t base = core_base(n), tsize;
    uint64_t src, dst;

    switch (rel) {
    case DMA_CORE_ERR_CAUSE:
        gaudi_reg_set(g, base + rel,
                      gaudi_reg_get(g, base + rel) & ~val);
        break;
    case DMA_CORE_STS0:
        break;   /* read-only */
    case DMA_CORE_COMMIT:
        gaudi_reg_set(g, base + rel, val);
        src = ((uint64_t)gaudi_reg_get(g, base + DMA_CORE_SRC_BASE_HI)
               << 32) | gaudi_reg_get(g, base + DMA_CORE_SRC_BASE_LO);
        /* DST_BASE_HI bits 31:24 are the context id, not address. */
        dst = ((uint64_t)(gaudi_reg_get(g, base + DMA_CORE_DST_BASE_HI)
                          & 0xFFFFFF) << 32) |
              gaudi_reg_get(g, base + DMA_CORE_DST_BASE_LO);
        tsize = gaudi_reg_get(g, base + DMA_CORE_DST_TSIZE_0);
        gaudi_dma_transfer(g, n, src, dst, tsize, val);
        break;
    default:
        gaudi_reg_set(g, base + rel, val);
        break;
    }
}
