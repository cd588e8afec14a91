// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the data-plane scheduler.  It owns the model's
 * time and its run loop; the engines it runs (the queue managers of
 * qman.c, the DMA cores of dma.c) own their state and never call each
 * other to make progress: a LIN_DMA starts a transfer on the core, the
 * loop moves it and tells the queues when it ended.
 *
 * Register writes never execute packets themselves: a doorbell (PQ_PI), a
 * fence RDATA or CNT write (also a monitor payload or a packet's own
 * message), a GLBL_CFG0/1 write or a direct DMA COMMIT marks streams
 * pending and pokes the run loop (run_all), which runs the DMA cores'
 * transfers (dma.c) and the pending streams (qman.c); writes made by
 * packets only mark more streams, so execution never recurses.  Two modes:
 *
 *  - Run to completion (struct gaudi_bus without a schedule callback, the
 *    host unit tests): the poke runs the loop inside the write until every
 *    stream is empty, blocked or stopped.  One loop is bounded by
 *    RUN_MAX_WORK: queues that keep waking each other are stopped with an
 *    error instead of hanging the host.
 *
 *  - Asynchronous (QEMU's default): the poke only asks the bus to call
 *    gaudi_core_run() when the next thing can happen.  Each stream's CP has
 *    a clock (time_ns): a packet ends packet_latency_ns after the previous
 *    one (an idle CP starts from the time it is woken), and a step executes
 *    the packets that end at or before the bus time.  LIN_DMA hands the
 *    transfer to the QMAN's DMA core and the stream waits for its end (the
 *    model's CP treats every packet as barriered); the core moves 1 MiB
 *    pieces, each when size/dma_bandwidth says it ends, so the eight cores
 *    progress in parallel and streams of one QMAN share their core in turn.
 *    A step executes at most STEP_MAX_WORK units (a packet, or a KiB of
 *    DMA), then reschedules at once; otherwise it reschedules for the
 *    earliest packet or DMA piece end.  Completions (CQ entries, MSI) are
 *    written by packets in a step, after the doorbell write has returned.
 *    GLBL_STS0, CGM_STS and the DMA core's STS0 busy bit show the work
 *    outstanding; the CB work bound (CB_MAX_WORK) still stops runaway CBs,
 *    streams that keep waking each other keep the device busy (as on
 *    silicon) in bounded steps.
 *
 * In both modes a reset (SW_ALL_RST, PCI reset) clears streams and
 * transfers in flight: nothing queued before it executes or completes
 * after it (gen tells a loop in progress that the state went away).
 * The end of a CB, fetching the next PQ entry and advancing CI cost no time:
 * CI moves in the step that ran the CB's last packet, so a driver that sees
 * the completion sees the queue idle.
 *
 * The CB work bound is the queue engine's (gaudi_qman_cb_max_work()).
 */
#include "trace.h"
#include "gaudi_int.h"

/*
 * Work bounds in units (a packet; a DMA piece costs one unit per started
 * 64 KiB running to completion, per KiB in a step): of one run loop in the
 * run-to-completion mode, of one step in the asynchronous mode.
 */
#define RUN_MAX_WORK(cb)  (4ULL * (cb))
#define STEP_MAX_WORK  (1ULL << 13)

static void run_all(struct gaudi_core *g);
static void reschedule(struct gaudi_core *g);

bool gaudi_sched_sync(struct gaudi_core *g)
{
    return !g->bus.schedule;
}

uint64_t gaudi_sched_now(struct gaudi_core *g)
{
    return g->sched.running ? g->sched.now : gaudi_now_ns(g);
}

void gaudi_sched_poke(struct gaudi_core *g)
{
    if (gaudi_sched_sync(g)) {
        run_all(g);
    } else if (!g->sched.running) {
        reschedule(g);
    }
}

void gaudi_sched_reset(struct gaudi_core *g)
{
    /*
     * A packet may reset the device while the run loop is active: the
     * generation tells the loop to drop what it was running.
     */
    g->sched.gen++;
}

/*
 * Asynchronous mode: ask the bus for the next step at the earliest time
 * something can happen (a packet ends, a DMA piece ends); at once if the
 * last step ran out of budget.
 */
static void reschedule(struct gaudi_core *g)
{
    uint64_t next = gaudi_qman_next_ns(g), now, t;
    unsigned int i;

    for (i = 0; i < GAUDI_NUM_DMA; i++) {
        t = gaudi_dma_next_ns(g, i);
        next = t < next ? t : next;
    }
    if (next == UINT64_MAX) {
        return;  /* idle, or everything waits for a register write */
    }
    now = gaudi_now_ns(g);
    next = g->sched.yielded || next <= now ? 0 : next - now;
    g->sched.wakeups++;
    trace_gaudi_sched_wakeup(next);
    g->bus.schedule(g->bus.opaque, next);
}

/* Move the DMA cores; tell the queues of each transfer that ended. */
static bool run_dma(struct gaudi_core *g)
{
    struct gaudi_dma_end end;
    bool progress = false;
    unsigned int i;

    for (i = 0; i < GAUDI_NUM_DMA; i++) {
        if (!gaudi_dma_progress(g, i, g->sched.now, &g->sched.budget,
                                &end)) {
            continue;
        }
        progress = true;
        if (end.ended) {
            gaudi_qman_dma_done(g, i, end.owner, end.err, end.end_ns);
        }
    }
    return progress;
}

/*
 * The run loop.  Run to completion: everything runnable, bounded by
 * RUN_MAX_WORK (streams that exceed it stop with an error).  Asynchronous:
 * what is due at the current time, at most STEP_MAX_WORK, then schedule the
 * next step.  Packets that make more work (doorbells, fence and monitor
 * writes) only mark streams pending: the loop never recurses.
 */
static void run_all(struct gaudi_core *g)
{
    struct gaudi_sched *sc = &g->sched;
    bool sync = gaudi_sched_sync(g), progress = true;

    if (sc->running) {
        return;
    }
    sc->running = true;
    sc->steps++;
    sc->budget = sync ? RUN_MAX_WORK(gaudi_qman_cb_max_work(g)) :
                 STEP_MAX_WORK;
    sc->now = sync ? UINT64_MAX : gaudi_now_ns(g);
    while (progress && (sync || sc->budget)) {
        progress = run_dma(g);
        progress |= gaudi_qman_run(g);
    }
    sc->running = false;
    sc->yielded = !sc->budget;
    if (!sync) {
        trace_gaudi_sched_step(sc->now, STEP_MAX_WORK - sc->budget);
    }
    if (!sync) {
        reschedule(g);
    }
}

void gaudi_core_run(struct gaudi_core *g)
{
    run_all(g);
    gaudi_roce_run(g); /* NIC retransmission timers */
}

bool gaudi_core_busy(struct gaudi_core *g)
{
    unsigned int i;

    for (i = 0; i < GAUDI_NUM_DMA; i++) {
        if (gaudi_dma_busy(g, i)) {
            return true;
        }
    }
    return gaudi_qman_busy(g);
}
