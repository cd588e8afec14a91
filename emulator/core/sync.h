/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: the sync manager (sync objects and monitors). */
#ifndef GAUDI_SYNC_H
#define GAUDI_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "gaudi1/regs.h"

#define GAUDI_SM_BLOCKS  4 /* E_N, W_N, E_S, W_S */
#define GAUDI_SM_GROUPS  (SM_NUM_SOBS / 8)

/* An armed monitor, linked into the list of its SOB group. */
struct gaudi_sm_mon {
    bool armed;
    bool queued;  /* satisfied, payload write pending */
    uint8_t group;  /* watches SOBs group * 8 .. group * 8 + 7 */
    uint8_t mask;  /* a 0 bit means the SOB is watched */
    bool equal;  /* mode: 1 "equal", 0 "greater or equal" */
    uint16_t target;
    int16_t next, prev; /* group list, -1 terminated */
};

struct gaudi_sm_block {
    int16_t group_head[GAUDI_SM_GROUPS];
    struct gaudi_sm_mon mon[SM_NUM_MONS];
};

struct gaudi_sync {
    struct gaudi_sm_block blk[GAUDI_SM_BLOCKS];
    /* Satisfied monitors whose payload is still to be written. */
    uint16_t fireq[GAUDI_SM_BLOCKS * SM_NUM_MONS];
    unsigned int fq_head, fq_len;
    bool draining;
    uint64_t fired;  /* payloads written (statistics) */
};

#endif
