// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the DMA cores.
 *
 * Each of the eight DMA channels has a core that moves data and a QMAN that
 * feeds it.  A LIN_DMA packet on the QMAN, or a direct write of SRC_BASE,
 * DST_BASE, DST_TSIZE_0 and then COMMIT, runs one transfer: a copy, or with
 * MEM_SET a fill of the destination with the 64-bit pattern held in
 * SRC_BASE.  With the LIN bit it is linear (DST_TSIZE_0 bytes); without it
 * the core walks up to five dimensions on each side (rows of TSIZE_0 bytes,
 * TSIZE_1..4 counts, STRIDE_1..4 byte strides, as hl-thunk-open's
 * strided-DMA test programs them; a count of 0 is taken as 1, strides are
 * unsigned 32-bit: both unverified).  The COMMIT bits are upstream's
 * (dma0_core_masks.h); TRANSPOSE, COMPRESS and DECOMPRESS are not
 * modelled and fail the transfer, DTYPE and the context ids are ignored.
 * The transfer is started on the core (gaudi_dma_start) and moved in
 * pieces of up to 1 MiB by the scheduler of sched.c (gaudi_dma_progress),
 * which tells the queues when it ended.  In the asynchronous mode each
 * piece lands when size/bandwidth after the start says it ends, and STS0
 * shows BUSY until the last one and the write completion are done; running
 * to completion it ends before the triggering write returns.  A COMMIT
 * while the core is busy is refused (guest error).  A failed transfer sets
 * ERR_CAUSE (write 1 to clear) and posts the channel's DMA_CORE event.
 *
 * Addresses in the MMU range are translated with the ASID of the core's
 * NON_SECURE_PROPS, or of SECURE_PROPS while PROT bit 0 marks the channel
 * secure (upstream does that around its own jobs on DMA 0); MMBP in the
 * props bypasses the MMU, for a secure channel only.  Everything else is a
 * physical device address, checked by the fabric (fabric.c) unless the
 * channel is secure.
 * Data moves in large pieces: straight between HBM/SRAM and host memory,
 * through a bounce buffer only when neither side is device memory.
 */
#include "trace.h"
#include <string.h>

#include "gaudi_int.h"

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

#define ZERO_PAGE 4096U

static uint32_t core_base(unsigned int n)
{
    return mmDMA0_CORE_BASE + n * GAUDI_DMA_STRIDE;
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

    trace_gaudi_dma_err(n, cause, what, addr);
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

static uint32_t err_cause(int r, bool write)
{
    (void)r;
    return write ? DMA_ERR_HBW_WR : DMA_ERR_HBW_RD;
}

/* Bytes [off, off + len) of a memset of dst with pattern. */
static int do_memset(struct gaudi_core *g, unsigned int n,
                     const struct gaudi_init *in, uint64_t dst,
                     uint64_t off, uint64_t len, uint64_t pattern)
{
    uint8_t *bounce = g->dma.bounce;
    uint64_t done = off, size = off + len, pa, seg;
    uint8_t *p;
    int r;

    while (done < size) {
        if (gaudi_fabric_resolve(g, in, dst + done, size - done, true, &pa,
                                 &seg)) {
            return dma_fail(g, n, DMA_ERR_HBW_WR, "memset fault",
                            dst + done);
        }
        p = gaudi_fabric_local(g, in, pa, seg, true);
        if (p && !pattern) {
            zero_local(p, pa, seg);
            gaudi_txn_emit(g, in, true, dst + done, pa, seg, GAUDI_TXN_OK);
        } else if (p) {
            fill_pattern(p, seg, pattern, done & 7);
            gaudi_txn_emit(g, in, true, dst + done, pa, seg, GAUDI_TXN_OK);
        } else {
            seg = min64(seg, sizeof(g->dma.bounce));
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

/* Bytes [off, off + piece) of a copy from src to dst. */
static int do_copy(struct gaudi_core *g, unsigned int n,
                   const struct gaudi_init *in, uint64_t src, uint64_t dst,
                   uint64_t off, uint64_t piece)
{
    uint64_t done = off, size = off + piece, spa, dpa, sseg, dseg, len;
    uint8_t *sp, *dp, *buf;
    int r;

    while (done < size) {
        if (gaudi_fabric_resolve(g, in, src + done, size - done, false,
                                 &spa, &sseg)) {
            return dma_fail(g, n, DMA_ERR_HBW_RD, "read fault",
                            src + done);
        }
        if (gaudi_fabric_resolve(g, in, dst + done, size - done, true,
                                 &dpa, &dseg)) {
            return dma_fail(g, n, DMA_ERR_HBW_WR, "write fault",
                            dst + done);
        }
        len = min64(sseg, dseg);
        sp = gaudi_fabric_local(g, in, spa, len, false);
        dp = gaudi_fabric_local(g, in, dpa, len, true);
        if (sp && dp) {
            memmove(dp, sp, len);
            gaudi_txn_emit(g, in, false, src + done, spa, len, GAUDI_TXN_OK);
            gaudi_txn_emit(g, in, true, dst + done, dpa, len, GAUDI_TXN_OK);
        } else {
            /* Read into the destination itself when it is local. */
            if (!dp) {
                len = min64(len, sizeof(g->dma.bounce));
            }
            buf = dp ? dp : g->dma.bounce;
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

/* Time core transfers take for bytes (0 in run-to-completion mode). */
static uint64_t xfer_ns(struct gaudi_core *g, uint64_t bytes)
{
    uint32_t bw = g->id.dma_bandwidth_mbps;

    if (!g->bus.schedule || !bw) {
        return 0;
    }
    /* MB/s is bytes per microsecond. */
    return bytes * 1000 / bw;
}

/*
 * Latch one side's shape from the core registers; its byte count in
 * *total, false if that does not fit 64 bits.
 */
static bool shape_latch(struct gaudi_core *g, unsigned int n, bool dst,
                        struct gaudi_dma_shape *sh, uint64_t *total)
{
    uint32_t base = core_base(n);
    unsigned int k;
    uint64_t t;

    sh->size[0] = gaudi_reg_get(g, base + (dst ? DMA_CORE_DST_TSIZE_0 :
                                           DMA_CORE_SRC_TSIZE_0));
    sh->stride[0] = 1;
    t = sh->size[0];
    for (k = 1; k < GAUDI_DMA_DIMS; k++) {
        sh->size[k] = gaudi_reg_get(g, base + (dst ? DMA_CORE_DST_TSIZE(k) :
                                               DMA_CORE_SRC_TSIZE(k)));
        sh->size[k] = sh->size[k] ? sh->size[k] : 1;
        sh->stride[k] = gaudi_reg_get(g, base + (dst ? DMA_CORE_DST_STRIDE(k) :
                                                 DMA_CORE_SRC_STRIDE(k)));
        if (t && sh->size[k] > UINT64_MAX / t) {
            return false;
        }
        t *= sh->size[k];
    }
    *total = t;
    return true;
}

/*
 * Address of byte off of a shape starting at base; *run is how many bytes
 * from there are contiguous (to the end of the row).
 */
static uint64_t shape_addr(const struct gaudi_dma_shape *sh, uint64_t base,
                           uint64_t off, uint64_t *run)
{
    uint64_t i0 = off % sh->size[0], q = off / sh->size[0], a = base + i0;
    unsigned int k;

    for (k = 1; k < GAUDI_DMA_DIMS; k++) {
        a += (q % sh->size[k]) * sh->stride[k];
        q /= sh->size[k];
    }
    *run = sh->size[0] - i0;
    return a;
}

/*
 * Bytes [off, off + len) of a non-linear transfer: row by row, each run
 * contiguous on both sides.  A memset keeps the pattern's phase of the
 * byte's position in the transfer.
 */
static int do_shaped(struct gaudi_core *g, unsigned int n,
                     const struct gaudi_dma_xfer *x, uint64_t off,
                     uint64_t len)
{
    uint64_t end = off + len, sa, da, srun, drun, run;
    int r;

    while (off < end) {
        sa = shape_addr(&x->sshape, x->src, off, &srun);
        da = shape_addr(&x->dshape, x->dst, off, &drun);
        run = min64(min64(srun, drun), end - off);
        if (x->commit & DMA_COMMIT_MEM_SET) {
            /* dst - off + off: the address da at pattern phase off. */
            r = do_memset(g, n, &x->in, da - off, off, run, x->src);
        } else {
            r = do_copy(g, n, &x->in, sa, da, 0, run);
        }
        if (r) {
            return r;
        }
        off += run;
    }
    return 0;
}

int gaudi_dma_start(struct gaudi_core *g, unsigned int n, uint64_t src,
                    uint64_t dst, uint64_t size, uint32_t commit, int owner,
                    uint64_t start_ns)
{
    struct gaudi_dma_xfer *x = &g->dma.x[n];
    uint64_t stotal = 0, dtotal = 0;
    bool fit;

    if (x->active) {
        return -1;
    }
    x->fail = NULL;
    if (commit & (DMA_COMMIT_TRANSPOSE | DMA_COMMIT_COMPRESS |
                  DMA_COMMIT_DECOMPRESS)) {
        /* Their data layouts are not public: fail rather than guess. */
        x->fail = "transpose/compression transfer (not modelled)";
        size = 0;
    } else if (!(commit & DMA_COMMIT_LIN)) {
        fit = shape_latch(g, n, true, &x->dshape, &dtotal);
        if (commit & DMA_COMMIT_MEM_SET) {
            x->sshape = x->dshape;
            stotal = dtotal;
        } else {
            fit = shape_latch(g, n, false, &x->sshape, &stotal) && fit;
        }
        if (!fit || stotal != dtotal) {
            x->fail = "non-linear transfer: source and destination sizes differ";
        }
        size = x->fail ? 0 : dtotal;
    }
    x->active = true;
    x->owner = owner;
    x->commit = commit;
    core_init(g, n, &x->in);
    x->src = src;
    x->dst = dst;
    x->size = size;
    x->done = 0;
    x->start_ns = start_ns;
    trace_gaudi_dma_start(n, src, dst, size, commit);
    return 0;
}

uint64_t gaudi_dma_next_ns(struct gaudi_core *g, unsigned int n)
{
    struct gaudi_dma_xfer *x = &g->dma.x[n];

    if (!x->active) {
        return UINT64_MAX;
    }
    return x->start_ns + xfer_ns(g, min64(x->size, x->done + GAUDI_DMA_PIECE));
}

/* End the transfer of core n: write completion, then say how it ended. */
static void xfer_end(struct gaudi_core *g, unsigned int n, bool err,
                     struct gaudi_dma_end *end)
{
    struct gaudi_dma_xfer *x = &g->dma.x[n];
    uint32_t base = core_base(n), data, gen = g->sched.gen;
    uint64_t comp, end_ns = x->start_ns + xfer_ns(g, x->size);
    int owner = x->owner;

    x->active = false;
    g->stat_busy_ns += xfer_ns(g, x->size);
    if (!err && (x->commit & DMA_COMMIT_WR_COMP_EN)) {
        /* Write completion: WR_COMP_WDATA to WR_COMP_ADDR. */
        data = gaudi_reg_get(g, base + DMA_CORE_WR_COMP_WDATA);
        comp = ((uint64_t)gaudi_reg_get(g, base + DMA_CORE_WR_COMP_ADDR_HI)
                << 32) | gaudi_reg_get(g, base + DMA_CORE_WR_COMP_ADDR_LO);
        if (gaudi_eng_write(g, &x->in, comp, &data, sizeof(data))) {
            dma_fail(g, n, DMA_ERR_LBW_WR, "write completion", comp);
            err = true;
        }
    }
    if (g->sched.gen == gen) {  /* not reset by the completion write */
        trace_gaudi_dma_done(n, x->size, end_ns);
        end->ended = true;
        end->err = err;
        end->owner = owner;
        end->end_ns = end_ns;
    }
}

bool gaudi_dma_progress(struct gaudi_core *g, unsigned int n, uint64_t now,
                        uint64_t *budget, struct gaudi_dma_end *end)
{
    struct gaudi_dma_xfer *x = &g->dma.x[n];
    uint32_t gen = g->sched.gen;
    /* One unit per 64 KiB to complete, per KiB in a bounded step. */
    unsigned int shift = g->bus.schedule ? 10 : 16;
    bool moved = false;
    uint64_t len, units, rmin;
    int r;

    end->ended = false;
    if (!x->active) {
        return false;
    }
    if (x->fail) {
        dma_fail(g, n, DMA_ERR_HBW_RD, x->fail, x->src);
        xfer_end(g, n, true, end);
        return true;
    }
    while (x->done < x->size && gaudi_dma_next_ns(g, n) <= now) {
        len = min64(x->size - x->done, GAUDI_DMA_PIECE);
        units = (len + (1ULL << shift) - 1) >> shift;
        if (!(x->commit & DMA_COMMIT_LIN)) {
            /*
             * Short rows cost per row: at most 64 Ki rows a piece, one
             * more unit per 64 rows, so tiny rows cannot stall a step.
             */
            rmin = min64(x->sshape.size[0], x->dshape.size[0]);
            len = min64(len, rmin << 16);
            units = ((len + (1ULL << shift) - 1) >> shift) +
                    ((len / rmin) >> 6);
        }
        if (moved && *budget < units) {
            return true;
        }
        if (!(x->commit & DMA_COMMIT_LIN)) {
            r = do_shaped(g, n, x, x->done, len);
        } else if (x->commit & DMA_COMMIT_MEM_SET) {
            r = do_memset(g, n, &x->in, x->dst, x->done, len, x->src);
        } else {
            r = do_copy(g, n, &x->in, x->src, x->dst, x->done, len);
        }
        *budget -= min64(*budget, units);
        moved = true;
        if (g->sched.gen != gen) {
            return true;  /* the transfer reset the device */
        }
        if (r) {
            xfer_end(g, n, true, end);
            return true;
        }
        x->done += len;
    }
    if (x->done == x->size && x->start_ns + xfer_ns(g, x->size) <= now) {
        xfer_end(g, n, false, end);
        return true;
    }
    return moved;
}

bool gaudi_dma_busy(struct gaudi_core *g, unsigned int n)
{
    return g->dma.x[n].active;
}

void gaudi_dma_reset(struct gaudi_core *g)
{
    memset(g->dma.x, 0, sizeof(g->dma.x));
}

uint32_t gaudi_dma_core_read(struct gaudi_core *g, unsigned int n,
                             uint32_t rel)
{
    /* Busy while a transfer is in flight. */
    if (rel == DMA_CORE_STS0) {
        return gaudi_dma_busy(g, n) ? DMA_CORE_STS0_BUSY : 0;
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
                          & DMA_CORE_DST_BASE_HI_ADDR) << 32) |
              gaudi_reg_get(g, base + DMA_CORE_DST_BASE_LO);
        tsize = gaudi_reg_get(g, base + DMA_CORE_DST_TSIZE_0);
        if (gaudi_dma_start(g, n, src, dst, tsize, val, GAUDI_DMA_NO_OWNER,
                            gaudi_now_ns(g))) {
            gaudi_guest_error(g, "DMA%u: COMMIT while the core is busy",
                              n);
            break;
        }
        gaudi_sched_poke(g);
        break;
    default:
        gaudi_reg_set(g, base + rel, val);
        break;
    }
}
