// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the fabric, i.e. the path of engine accesses.
 *
 * Every access an engine makes carries an initiator (struct gaudi_init):
 * a QMAN stream, a DMA core, a sync-manager monitor or a NIC port, secure
 * (trusted) or not.  An address in the MMU range is first translated with
 * the ASID of the initiator's props (gaudi_fabric_resolve(), mmu.c); MMBP
 * in the props bypasses the MMU, for a secure initiator only; with the MMU
 * enabled an untrusted initiator reaches host memory only through a
 * translation.  The physical address is then decoded by core.c.
 * Secure accesses, host MMIO and the device CPU bypass the checks below.
 * An untrusted access is checked (facts: gaudi_security.c,
 * Documentation/emulator/protection.rst):
 *  - a register (LBW, CFG space) against the LBW range registers, then
 *    against the protection bit of the register (prot.c);
 *  - anything else (HBW) against the HBW range registers (base/mask per
 *    range, separate write and read hit masks).
 * A blocked access is a RAZWI: a write is dropped, a read returns 0, the
 * MMU block's RAZWI capture registers latch the first one (VLD + initiator
 * id) and the RAZWI_OR_ADC event is posted with the address as payload.
 *
 * The hardware has one set of range registers per path (router, DMA_IF
 * master); which path an engine's access takes is not public.  The model
 * checks every programmed set: an access is blocked if any set blocks it.
 * Upstream and gaudi.ko program all sets alike, so this is the same for
 * them and only stricter for a half-programmed device.
 */
#include "trace.h"
#include <string.h>

#include "gaudi_int.h"

#define ADDR_50_MASK ((1ULL << 50) - 1)

/* Every region of the device map starts and ends on a 1 MiB boundary. */
#define SEG_MAX  (1ULL << 20)

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static bool is_host_phys(uint64_t addr)
{
    return addr >= GAUDI_HOST_PHYS_BASE && addr < GAUDI_VA_HOST_START;
}

int gaudi_fabric_resolve(struct gaudi_core *g, const struct gaudi_init *in,
                         uint64_t addr, uint64_t len, bool write,
                         uint64_t *pa, uint64_t *seg)
{
    uint32_t asid = in->props & GAUDI_PROPS_ASID;
    bool mmbp = in->secure && (in->props & GAUDI_PROPS_MMBP);
    uint64_t contig = len;

    if (addr >= GAUDI_VA_HOST_START && addr < GAUDI_VA_HOST_END && !mmbp) {
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
        r = gaudi_fabric_resolve(g, in, addr, len, write, &pa, &seg);
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

/*
 * Direct pointer to local memory at pa for an access the protection
 * allows, else NULL (the slow path then checks and reports).
 */
uint8_t *gaudi_fabric_local(struct gaudi_core *g, const struct gaudi_init *in,
                            uint64_t pa, uint64_t len, bool write)
{
    uint8_t *p = gaudi_local_ptr(g, pa, len);

    if (p && !in->secure && gaudi_hbw_blocked(g, pa, len, write)) {
        return NULL;
    }
    return p;
}

static bool is_cfg(uint64_t addr)
{
    return addr >= GAUDI_CFG_BASE && addr - GAUDI_CFG_BASE < GAUDI_CFG_SIZE;
}

bool gaudi_mmu_enabled(struct gaudi_core *g)
{
    return gaudi_reg_get(g, mmMMU_UP_MMU_ENABLE) & 1;
}

/* One LBW range-register set: absolute CFG offsets of its registers. */
struct lbw_set {
    uint32_t hit_aw, hit_ar, min_aw, max_aw, min_ar, max_ar;
};

static bool lbw_set_blocks(struct gaudi_core *g, const struct lbw_set *s,
                           uint32_t off, bool write)
{
    uint32_t hit = gaudi_reg_get(g, write ? s->hit_aw : s->hit_ar);
    uint32_t min = write ? s->min_aw : s->min_ar;
    uint32_t max = write ? s->max_aw : s->max_ar;
    unsigned int j;

    for (j = 0; hit && j < GAUDI_LBW_RANGES; j++) {
        if (!(hit & (1U << j))) {
            continue;
        }
        /* Upstream programs start - 1 and end + 1: both exclusive. */
        if (off > gaudi_reg_get(g, min + 4 * j) &&
            off < gaudi_reg_get(g, max + 4 * j)) {
            return true;
        }
    }
    return false;
}

static bool lbw_blocked(struct gaudi_core *g, uint32_t off, bool write)
{
    static const uint16_t dma_if_hit_ar[3] = { 0x700, 0x71C, 0x730 };
    static const uint16_t dma_if_hit_aw[3] = { 0x704, 0x720, 0x734 };
    struct lbw_set s;
    unsigned int k, m;

    for (k = 0; k < 4; k++) {
        uint32_t b = mmDMA_IF_W_S_BASE + k * GAUDI_DMA_IF_STRIDE;

        for (m = 0; m < 3; m++) {
            s.hit_aw = b + dma_if_hit_aw[m];
            s.hit_ar = b + dma_if_hit_ar[m];
            s.min_aw = b + DMA_IF_LBW_MIN_AW(m);
            s.max_aw = b + DMA_IF_LBW_MAX_AW(m);
            s.min_ar = b + DMA_IF_LBW_MIN_AR(m);
            s.max_ar = b + DMA_IF_LBW_MAX_AR(m);
            if (lbw_set_blocks(g, &s, off, write)) {
                return true;
            }
        }
    }
    for (k = 0; k < GAUDI_NUM_RTR; k++) {
        uint32_t b = mmSIF_RTR_0_BASE + k * GAUDI_RTR_STRIDE;

        s.hit_aw = b + RTR_LBW_HIT_AW;
        s.hit_ar = b + RTR_LBW_HIT_AR;
        s.min_aw = b + RTR_LBW_MIN_AW;
        s.max_aw = b + RTR_LBW_MAX_AW;
        s.min_ar = b + RTR_LBW_MIN_AR;
        s.max_ar = b + RTR_LBW_MAX_AR;
        if (lbw_set_blocks(g, &s, off, write)) {
            return true;
        }
    }
    return false;
}

/*
 * The HBW range-register sets: each DMA_IF's two down channels, then the
 * SIF/NIF routers.
 */
static uint32_t hbw_set_base(unsigned int k)
{
    if (k < 8) {
        return mmDMA_IF_W_S_DOWN_CH0_BASE + (k / 2) * GAUDI_DMA_IF_STRIDE +
               (k % 2) * 0x1000;
    }
    return mmSIF_RTR_CTRL_0_BASE + (k - 8) * GAUDI_RTR_STRIDE;
}

/* Is CFG offset off one of the HBW range registers? */
static bool hbw_rr_reg(uint32_t off)
{
    uint32_t in = off & 0xFFF, blk = off - in, rel;

    if (in < HBW_RR_BASE_LOW_AW || in > HBW_RR_HIT_AR) {
        return false;
    }
    rel = blk - mmSIF_RTR_CTRL_0_BASE;
    if (blk >= mmSIF_RTR_CTRL_0_BASE && !(rel % GAUDI_RTR_STRIDE) &&
        rel / GAUDI_RTR_STRIDE < GAUDI_NUM_RTR) {
        return true;
    }
    rel = blk - mmDMA_IF_W_S_DOWN_CH0_BASE;
    return blk >= mmDMA_IF_W_S_DOWN_CH0_BASE &&
           rel / GAUDI_DMA_IF_STRIDE < 4 &&
           (rel % GAUDI_DMA_IF_STRIDE == 0 ||
            rel % GAUDI_DMA_IF_STRIDE == 0x1000);
}

void gaudi_fabric_cfg_written(struct gaudi_core *g, uint32_t off)
{
    if (hbw_rr_reg(off)) {
        g->fabric.hbw_stale = true;
    }
}

void gaudi_fabric_reset(struct gaudi_core *g)
{
    g->fabric.hbw_stale = true;
}

/*
 * Compile the enabled ranges of every set, for reads ([0]) and writes
 * ([1]): a range is the aligned block its mask's low zero bits span.
 */
static void hbw_compile(struct gaudi_core *g)
{
    struct gaudi_fabric *f = &g->fabric;
    uint32_t b, hit, bl, bh, ml, mh;
    uint64_t base, mask, size;
    unsigned int k, j, w;

    for (w = 0; w < 2; w++) {
        f->hbw_n[w] = 0;
        for (k = 0; k < GAUDI_HBW_SETS; k++) {
            b = hbw_set_base(k);
            hit = gaudi_reg_get(g, b + (w ? HBW_RR_HIT_AW : HBW_RR_HIT_AR));
            bl = b + (w ? HBW_RR_BASE_LOW_AW : HBW_RR_BASE_LOW_AR);
            bh = b + (w ? HBW_RR_BASE_HIGH_AW : HBW_RR_BASE_HIGH_AR);
            ml = b + (w ? HBW_RR_MASK_LOW_AW : HBW_RR_MASK_LOW_AR);
            mh = b + (w ? HBW_RR_MASK_HIGH_AW : HBW_RR_MASK_HIGH_AR);
            for (j = 0; hit && j < GAUDI_HBW_RANGES; j++) {
                if (!(hit & (1U << j))) {
                    continue;
                }
                base = ((uint64_t)gaudi_reg_get(g, bh + 4 * j) << 32) |
                       gaudi_reg_get(g, bl + 4 * j);
                mask = (((uint64_t)gaudi_reg_get(g, mh + 4 * j) << 32) |
                        gaudi_reg_get(g, ml + 4 * j)) & ADDR_50_MASK;
                size = mask ? (mask & -mask) : (1ULL << 50);
                f->hbw[w][f->hbw_n[w]].start = base & mask & ~(size - 1);
                f->hbw[w][f->hbw_n[w]].size = size;
                f->hbw_n[w]++;
            }
        }
    }
    f->hbw_stale = false;
}

bool gaudi_hbw_blocked(struct gaudi_core *g, uint64_t pa, uint64_t len,
                       bool write)
{
    const struct gaudi_fabric *f = &g->fabric;
    uint64_t end = (pa + len - 1) & ADDR_50_MASK;
    unsigned int i;

    if (!len) {
        return false;
    }
    if (f->hbw_stale) {
        hbw_compile(g);
    }
    pa &= ADDR_50_MASK;
    for (i = 0; i < f->hbw_n[write]; i++) {
        if (pa < f->hbw[write][i].start + f->hbw[write][i].size &&
            end >= f->hbw[write][i].start) {
            return true;
        }
    }
    return false;
}

void gaudi_razwi(struct gaudi_core *g, const struct gaudi_init *in,
                 bool write, uint64_t addr)
{
    uint32_t vld = write ? mmMMU_UP_RAZWI_WRITE_VLD : mmMMU_UP_RAZWI_READ_VLD;
    uint32_t id = write ? mmMMU_UP_RAZWI_WRITE_ID : mmMMU_UP_RAZWI_READ_ID;
    static const char *const kind[] = { "queue", "DMA", "monitor", "NIC" };

    g->prot.razwi++;
    trace_gaudi_fabric_err_razwi(in->kind, in->index, write, addr);
    gaudi_guest_error(g, "RAZWI: illegal %s of 0x%llx by %s %u",
                      write ? "write" : "read", (unsigned long long)addr,
                      kind[in->kind], in->index);
    if (!gaudi_reg_get(g, vld)) {
        gaudi_reg_set(g, vld, 1);
        gaudi_reg_set(g, id, in->razwi_id);
    }
    /* Payload (model): the address, as for page faults. */
    gaudi_eq_event(g, GAUDI_EVENT_RAZWI_OR_ADC, &addr, sizeof(addr));
}

void gaudi_txn_emit(struct gaudi_core *g, const struct gaudi_init *in,
                    bool write, uint64_t addr, uint64_t pa, uint64_t len,
                    enum gaudi_txn_result result)
{
    struct gaudi_txn t;

    if (!g->bus.txn) {
        return;
    }
    memset(&t, 0, sizeof(t));
    t.kind = in->kind;
    t.index = in->index;
    t.secure = in->secure;
    t.write = write;
    t.asid = in->props & GAUDI_PROPS_ASID;
    t.addr = addr;
    t.pa = pa;
    t.len = len;
    t.result = result;
    g->bus.txn(g->bus.opaque, &t);
}

/*
 * A NIC QMAN's write to its own port's unsecured doorbell stays inside the
 * NIC macro: it does not cross the LBW fabric and its range registers (a
 * model choice, Documentation/emulator/nic.rst: how user work reaches the
 * doorbell is not public).  The doorbell itself only runs RC QPs from it.
 */
static bool nic_local_doorbell(const struct gaudi_init *in, uint32_t off,
                               bool write)
{
    unsigned int port;

    if (!write || in->kind != GAUDI_INIT_QMAN ||
        in->index < GAUDI_NIC_FIRST_QUEUE ||
        in->index >= GAUDI_NIC_FIRST_QUEUE + 4 * GAUDI_NIC_NUM_PORTS) {
        return false;
    }
    port = (in->index - GAUDI_NIC_FIRST_QUEUE) / 4;
    return off == GAUDI_NIC_QPC_REG(port, NIC_QPC_UNSECURED_DOORBELL_QPN) ||
           off == GAUDI_NIC_QPC_REG(port, NIC_QPC_UNSECURED_DOORBELL_PI);
}

/* Register accesses of an untrusted initiator, word by word. */
static int cfg_access(struct gaudi_core *g, const struct gaudi_init *in,
                      uint64_t pa, uint32_t *w, uint64_t len, bool write)
{
    uint32_t off = pa - GAUDI_CFG_BASE;
    uint64_t i;
    int r = 0;

    for (i = 0; i < len / 4; i++, off += 4) {
        bool rr = !nic_local_doorbell(in, off, write) &&
                  lbw_blocked(g, off, write);

        if (rr || gaudi_pb_protected(g, off)) {
            if (!write) {
                w[i] = !rr && (gaudi_reg_get(g, mmPB_RAZWI_RDATA_CFG) & 1) ?
                       PB_RAZWI_RDATA : 0;
            }
            if (!r) {
                gaudi_razwi(g, in, write, GAUDI_CFG_BASE + off);
            }
            r = GAUDI_ACCESS_RAZWI;
            continue;
        }
        if (write) {
            gaudi_cfg_write(g, off, w[i]);
        } else {
            w[i] = gaudi_cfg_read(g, off);
        }
    }
    return r;
}

int gaudi_phys_access(struct gaudi_core *g, const struct gaudi_init *in,
                      uint64_t addr, uint64_t pa, void *buf, uint64_t len,
                      bool write)
{
    enum gaudi_txn_result res = GAUDI_TXN_OK;
    int r = 0;

    if (!in->secure && is_cfg(pa)) {
        if ((pa & 3) || (len & 3) ||
            len > GAUDI_CFG_SIZE - (pa - GAUDI_CFG_BASE)) {
            r = GAUDI_ACCESS_DECODE;
        } else {
            r = cfg_access(g, in, pa, buf, len, write);
        }
    } else if (!in->secure && gaudi_hbw_blocked(g, pa, len, write)) {
        if (!write) {
            memset(buf, 0, len);
        }
        gaudi_razwi(g, in, write, pa);
        r = GAUDI_ACCESS_RAZWI;
    } else if (write ? gaudi_dev_write(g, pa, buf, len) :
               gaudi_dev_read(g, pa, buf, len)) {
        r = GAUDI_ACCESS_DECODE;
    }
    if (r == GAUDI_ACCESS_RAZWI) {
        res = GAUDI_TXN_RAZWI;
    } else if (r) {
        res = GAUDI_TXN_DECODE;
    }
    gaudi_txn_emit(g, in, write, addr, pa, len, res);
    return r;
}

int gaudi_lbw_write(struct gaudi_core *g, const struct gaudi_init *in,
                    uint64_t addr, uint32_t val)
{
    /*
     * A monitor is a master of the LBW bus only (the SOB port of its
     * DMA_IF, with its own LBW range registers): its payload reaches
     * CFG space and nothing else.
     */
    if (!is_cfg(addr) || (addr & 3)) {
        gaudi_razwi(g, in, true, addr);
        gaudi_txn_emit(g, in, true, addr, addr, 4, GAUDI_TXN_RAZWI);
        return GAUDI_ACCESS_RAZWI;
    }
    return gaudi_phys_access(g, in, addr, addr, &val, 4, true);
}

