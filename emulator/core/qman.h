/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: queue managers and the packet executor. */
#ifndef GAUDI_QMAN_H
#define GAUDI_QMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "dma.h"

#define GAUDI_QM_STREAMS 4
/*
 * DMA0..7, MME0 and MME2 (upstream's MME0/MME1 queues), TPC0..7, and the
 * NIC QMANs of ports 0..9 (two per NIC macro).
 */
#define GAUDI_NUM_QMANS  28
#define GAUDI_DMA_BOUNCE (64 * 1024)

/* A command buffer being executed. */
struct gaudi_cb_frame {
    uint64_t addr, len, pos;
};

/* One stream (upper CP) of a QMAN, i.e. one upstream queue id. */
struct gaudi_stream {
    struct gaudi_cb_frame cb; /* CB of the PQ entry at CI */
    struct gaudi_cb_frame sub; /* CB started by CP_DMA */
    bool active;  /* cb is being executed */
    bool in_sub;  /* executing sub */
    bool blocked;  /* waiting in a FENCE packet */
    bool stopped;  /* error or STOP: until GLBL_CFG0 is written */
    bool hung;  /* fault injection: no progress */
    bool pending;  /* to be run by the run loop */
    bool dma_wait;  /* its LIN_DMA runs on the core, or waits for it */
    bool retry;  /* the packet at pos waited: no new latency */
    bool arb_wait;  /* at an ARB_POINT, waiting for the grant */
    uint8_t arb_prio; /* the priority it asked with */
    uint32_t pred;  /* predicates P31..P0 (P0 unused: always set) */
    uint32_t scalar[4]; /* scalar registers R0..R3 (LOAD_AND_EXE) */
    uint64_t work;  /* work spent on the current CB */
    uint64_t time_ns; /* asynchronous mode: the CP's own clock */
};

struct gaudi_qman {
    uint32_t base;  /* CFG offset of GLBL_CFG0 */
    int dma;  /* DMA core fed by this QMAN, or -1 */
    uint16_t event;  /* the QMAN's error event */
    uint8_t first_queue; /* upstream queue id of stream 0 */
    uint32_t razwi_id; /* RAZWI initiator id (X/Y/AXI id) */
    int arb_holder;  /* stream holding the arbitration grant, or -1 */
    int arb_last;  /* the stream granted last, or -1 */
    uint32_t arb_run; /* grants in a row to arb_last (WRR) */
    struct gaudi_stream s[GAUDI_QM_STREAMS];
};

struct gaudi_qmans {
    struct gaudi_qman qm[GAUDI_NUM_QMANS];
    bool running;  /* the run loop is active */
    uint32_t gen;  /* bumped by every reset */
    uint64_t budget; /* work left for the current run loop */
    uint64_t now;  /* time of the current run loop */
    bool yielded;  /* the last one ran out of budget */
    uint64_t steps;  /* run loops so far (statistics, tests) */
    struct gaudi_dma_xfer dma[GAUDI_NUM_DMA]; /* transfers in flight */
    uint32_t errors; /* queue errors since reset */
    uint8_t bounce[GAUDI_DMA_BOUNCE]; /* DMA between non-local ends */
};

#endif
