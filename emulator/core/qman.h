/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: queue managers and the packet executor. */
#ifndef GAUDI_QMAN_H
#define GAUDI_QMAN_H

#include <stdbool.h>
#include <stdint.h>

struct gaudi_core;

#define GAUDI_QM_STREAMS 4
/*
 * DMA0..7, MME0 and MME2 (upstream's MME0/MME1 queues), TPC0..7, and the
 * NIC QMANs of ports 0..9 (two per NIC macro).
 */
#define GAUDI_NUM_QMANS  28

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
    bool pending;  /* to be run by the run loop (see gaudi_qman.pend) */
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
    uint8_t pend;  /* bit s: s[s].pending */
    struct gaudi_stream s[GAUDI_QM_STREAMS];
};

struct gaudi_qmans {
    struct gaudi_qman qm[GAUDI_NUM_QMANS];
    uint32_t pend;  /* bit i: qm[i].pend is not 0 */
    uint32_t errors; /* queue errors since reset */
};

/* The work bound of one command buffer, in packets. */
uint64_t gaudi_qman_cb_max_work(const struct gaudi_core *g);

/*
 * The scheduler's view of the queues (sched.c): run every pending stream
 * as far as the loop's time and budget allow, then settle arbitration
 * (true if anything happened); the time the next pending stream's packet
 * ends (UINT64_MAX: none); whether a stream has work it can do.
 */
bool gaudi_qman_run(struct gaudi_core *g);
uint64_t gaudi_qman_next_ns(struct gaudi_core *g);
bool gaudi_qman_busy(struct gaudi_core *g);

/*
 * The transfer of DMA core n ended at end_ns, err: it failed; owner is the
 * stream of QMAN n whose LIN_DMA started it (GAUDI_DMA_NO_OWNER: a direct
 * COMMIT).  The streams waiting for the core become runnable.
 */
void gaudi_qman_dma_done(struct gaudi_core *g, unsigned int n, int owner,
                         bool err, uint64_t end_ns);

#endif
