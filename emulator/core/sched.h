/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the data-plane scheduler (sched.c).  It owns the model's
 * time and the run loop that moves the queue managers (qman.c) and the
 * DMA cores (dma.c) forward; the engines only tell it that work became
 * runnable (gaudi_sched_poke()).
 */
#ifndef GAUDI_SCHED_H
#define GAUDI_SCHED_H

#include <stdbool.h>
#include <stdint.h>

struct gaudi_core;

struct gaudi_sched {
    bool running;  /* the run loop is active */
    bool yielded;  /* the last loop ran out of budget */
    uint32_t gen;  /* bumped by every reset */
    /*
     * Work left for the current loop, in units (a packet, a piece of
     * DMA); the engines charge it as they execute.
     */
    uint64_t budget;
    uint64_t now;  /* time of the current loop (UINT64_MAX: no time) */
    uint64_t steps;  /* loops so far (statistics, tests) */
    uint64_t wakeups; /* loops asked of the bus (statistics, tests) */
};

/* Run-to-completion mode: the environment cannot schedule work. */
bool gaudi_sched_sync(struct gaudi_core *g);

/* The current time: the run loop's while it runs, else the bus's. */
uint64_t gaudi_sched_now(struct gaudi_core *g);

/*
 * New work may be runnable: run it now (run to completion) or make sure a
 * loop is scheduled (asynchronous).  Inside the run loop, nothing: the
 * loop picks it up.
 */
void gaudi_sched_poke(struct gaudi_core *g);

/* Device reset: a loop in progress drops what it was running. */
void gaudi_sched_reset(struct gaudi_core *g);

#endif
