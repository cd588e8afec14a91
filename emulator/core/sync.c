// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the sync manager.
 *
 * Four identical blocks (W_S, E_S, W_N, E_N), each with 2048 sync objects
 * (SOBs) and 512 monitors.  A SOB write carries the value in bits 14:0 and
 * bit 31 selects "add" instead of "set"; the SOB itself is 15 bits wide.
 * Arming a monitor names a group of eight SOBs (bits 7:0), a mask of the
 * SOBs in the group it ignores (bits 15:8, a 0 bit means "watched"), a mode
 * (bit 16: 0 greater-or-equal, 1 equal) and a target value (bits 31:17).
 * When every watched SOB meets the target the monitor writes its 32-bit
 * payload MON_PAY_DATA to the 64-bit address MON_PAY_ADDRH:ADDRL (usually a
 * QMAN's CP_FENCE RDATA register, which releases a FENCE) and disarms.
 *
 * Armed monitors are kept in per-group lists so that a SOB update only
 * looks at the monitors of its own group.  Payload writes are queued and
 * written from one loop: a payload that updates a SOB may satisfy further
 * monitors without recursing.
 *
 * MON_STATUS (modelled after the later parts, unverified for Gaudi 1): bit 0
 * VALID while armed, bits 8:1 the watched SOBs that do not yet meet the
 * target.  Writing MON_STATUS with VALID clear disarms the monitor.
 */
#include <string.h>

#include "gaudi_int.h"

static const uint32_t sm_base[GAUDI_SM_BLOCKS] = {
    mmSYNC_MNGR_E_N_SOB_OBJ_0, mmSYNC_MNGR_W_N_SOB_OBJ_0,
    mmSYNC_MNGR_E_S_SOB_OBJ_0, mmSYNC_MNGR_W_S_SOB_OBJ_0,
};

static unsigned int block_of(uint32_t off)
{
    unsigned int b;

    for (b = 0; b < GAUDI_SM_BLOCKS; b++)
        if (off - sm_base[b] < SM_BLOCK_END) {
            break;
        }
    return b;
}

static uint32_t sob_get(struct gaudi_core *g, unsigned int b, unsigned int i)
{
    return gaudi_reg_get(g, sm_base[b] + 4 * i) & SM_SOB_VAL;
}

/* Bit n set: watched SOB group * 8 + n does not meet the target. */
static uint8_t mon_unmet(struct gaudi_core *g, unsigned int b,
                         const struct gaudi_sm_mon *m)
{
    uint8_t unmet = 0;
    unsigned int n;

    for (n = 0; n < 8; n++) {
        uint32_t v;

        if (m->mask & (1U << n)) {
            continue;
        }
        v = sob_get(g, b, m->group * 8 + n);
        if (m->equal ? v != m->target : v < m->target) {
            unmet |= 1U << n;
        }
    }
    return unmet;
}

static void mon_unlink(struct gaudi_sm_block *blk, unsigned int i)
{
    struct gaudi_sm_mon *m = &blk->mon[i];

    if (m->prev >= 0) {
        blk->mon[m->prev].next = m->next;
    } else {
        blk->group_head[m->group] = m->next;
    }
    if (m->next >= 0) {
        blk->mon[m->next].prev = m->prev;
    }
    m->armed = false;
}

/*
 * A monitor's payload write: untrusted, over the LBW bus only, from the
 * SOB port of the DMA_IF its block sits in (E_N, W_N, E_S, W_S).
 */
static void mon_init(unsigned int b, unsigned int i, struct gaudi_init *in)
{
    static const uint8_t dma_if_xy[GAUDI_SM_BLOCKS][2] = {
        { 9, 3 }, { 0, 3 }, { 9, 1 }, { 0, 1 },
    };

    in->kind = GAUDI_INIT_MON;
    in->index = b * SM_NUM_MONS + i;
    in->secure = false;
    in->props = 0;
    in->razwi_id = RAZWI_ID(dma_if_xy[b][0], dma_if_xy[b][1], AXI_ID_DMA);
}

static void drain(struct gaudi_core *g)
{
    struct gaudi_sync *sm = &g->sync;

    if (sm->draining) {
        return;
    }
    sm->draining = true;
    while (sm->fq_len) {
        unsigned int e = sm->fireq[sm->fq_head];
        unsigned int b = e / SM_NUM_MONS, i = e % SM_NUM_MONS;
        uint32_t base = sm_base[b];
        struct gaudi_init in;
        uint64_t addr;
        uint32_t data;

        sm->fq_head = (sm->fq_head + 1) % GAUDI_ARRAY_SIZE(sm->fireq);
        sm->fq_len--;
        sm->blk[b].mon[i].queued = false;
        addr = ((uint64_t)gaudi_reg_get(g, base + SM_MON_PAY_ADDRH(0) +
                                        4 * i) << 32) |
               gaudi_reg_get(g, base + SM_MON_PAY_ADDRL(0) + 4 * i);
        data = gaudi_reg_get(g, base + SM_MON_PAY_DATA(0) + 4 * i);
        sm->fired++;
        mon_init(b, i, &in);
        if (gaudi_lbw_write(g, &in, addr, data)) {
            gaudi_guest_error(g, "SM%u monitor %u: payload to 0x%llx refused",
                              b, i, (unsigned long long)addr);
        }
    }
    sm->draining = false;
}

/* Monitor i of block b is satisfied: disarm it and queue its payload. */
static void mon_fire(struct gaudi_core *g, unsigned int b, unsigned int i)
{
    struct gaudi_sync *sm = &g->sync;
    unsigned int tail;

    mon_unlink(&sm->blk[b], i);
    if (sm->blk[b].mon[i].queued) {
        return;
    }
    /* A monitor is queued at most once: the queue cannot overflow. */
    tail = (sm->fq_head + sm->fq_len) % GAUDI_ARRAY_SIZE(sm->fireq);
    sm->fireq[tail] = b * SM_NUM_MONS + i;
    sm->fq_len++;
    sm->blk[b].mon[i].queued = true;
}

static void check_group(struct gaudi_core *g, unsigned int b,
                        unsigned int group)
{
    struct gaudi_sm_block *blk = &g->sync.blk[b];
    int i = blk->group_head[group];

    while (i >= 0) {
        int next = blk->mon[i].next;

        if (!mon_unmet(g, b, &blk->mon[i])) {
            mon_fire(g, b, i);
        }
        i = next;
    }
}

static void sob_write(struct gaudi_core *g, unsigned int b, unsigned int i,
                      uint32_t val)
{
    uint32_t off = sm_base[b] + 4 * i;
    uint32_t v = val & SM_SOB_VAL;

    if (val & SM_SOB_INC) {
        v = (gaudi_reg_get(g, off) + v) & SM_SOB_VAL;
    }
    gaudi_reg_set(g, off, v);
    check_group(g, b, i / 8);
}

static void mon_arm(struct gaudi_core *g, unsigned int b, unsigned int i,
                    uint32_t val)
{
    struct gaudi_sm_block *blk = &g->sync.blk[b];
    struct gaudi_sm_mon *m = &blk->mon[i];

    if (m->armed) {
        mon_unlink(blk, i);
    }
    m->group = val & 0xFF;
    m->mask = (val >> 8) & 0xFF;
    m->equal = (val >> 16) & 1;
    m->target = val >> 17;
    m->armed = true;
    m->prev = -1;
    m->next = blk->group_head[m->group];
    if (m->next >= 0) {
        blk->mon[m->next].prev = i;
    }
    blk->group_head[m->group] = i;
    if (!mon_unmet(g, b, m)) {
        mon_fire(g, b, i);
    }
}

static uint32_t sm_read(struct gaudi_core *g, uint32_t off)
{
    unsigned int b = block_of(off);
    uint32_t rel = off - sm_base[b];
    const struct gaudi_sm_mon *m;

    if (rel < SM_MON_STATUS(0)) {
        return gaudi_reg_get(g, off);
    }
    m = &g->sync.blk[b].mon[(rel - SM_MON_STATUS(0)) / 4];
    if (!m->armed) {
        return gaudi_reg_get(g, off) & ~SM_MON_STATUS_VALID;
    }
    return SM_MON_STATUS_VALID |
           ((uint32_t)mon_unmet(g, b, m) << SM_MON_STATUS_PENDING_SHIFT);
}

static void sm_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    unsigned int b = block_of(off);
    uint32_t rel = off - sm_base[b];
    unsigned int i;

    if (rel < SM_MON_PAY_ADDRL(0)) {
        sob_write(g, b, rel / 4, val);
    } else if (rel >= SM_MON_ARM(0) && rel < SM_MON_STATUS(0)) {
        gaudi_reg_set(g, off, val);
        mon_arm(g, b, (rel - SM_MON_ARM(0)) / 4, val);
    } else if (rel >= SM_MON_STATUS(0)) {
        i = (rel - SM_MON_STATUS(0)) / 4;
        gaudi_reg_set(g, off, val & ~SM_MON_STATUS_VALID);
        if (!(val & SM_MON_STATUS_VALID) && g->sync.blk[b].mon[i].armed) {
            mon_unlink(&g->sync.blk[b], i);
        }
    } else {
        gaudi_reg_set(g, off, val); /* payload address and data */
    }
    drain(g);
}

void gaudi_sync_init(struct gaudi_core *g)
{
    unsigned int b;

    for (b = 0; b < GAUDI_SM_BLOCKS; b++) {
        gaudi_reg_claim(g, sm_base[b], sm_base[b] + SM_BLOCK_END,
                        sm_read, sm_write);
    }
}

void gaudi_sync_reset(struct gaudi_core *g)
{
    struct gaudi_sync *sm = &g->sync;
    bool draining = sm->draining;
    unsigned int b;

    /*
     * A reset may come from a payload write while the queue drains: keep
     * the drain loop's flag, it finds the queue empty and returns.
     */
    memset(sm, 0, sizeof(*sm));
    sm->draining = draining;
    for (b = 0; b < GAUDI_SM_BLOCKS; b++) {
        memset(sm->blk[b].group_head, 0xFF,
               sizeof(sm->blk[b].group_head));
    }
}
