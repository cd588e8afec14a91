// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the queue managers (QMANs) and their packet
 * executor.
 *
 * Every engine has a QMAN with four streams, one per upstream queue id.  A
 * stream has a primary queue (PQ) of 16-byte buffer descriptors {u64 ptr;
 * u32 len; u32 ctl} at PQ_BASE with 2^PQ_SIZE entries; PQ_PI is the
 * doorbell and PQ_CI advances as the device consumes entries (both count
 * modulo twice the entry count, as upstream's pointers do).  Each
 * descriptor points at a command buffer (CB) of packets that the stream's
 * command processor (CP) executes.
 *
 * Scheduling is sched.c's: register writes never execute packets
 * themselves, they mark streams pending and poke the scheduler, whose run
 * loop calls gaudi_qman_run(); a stream's CP has a clock (time_ns) that
 * the asynchronous mode advances by packet_latency_ns per packet.  A
 * LIN_DMA hands the transfer to the QMAN's DMA core (dma.c) and the
 * stream waits for gaudi_qman_dma_done(), which the scheduler calls when
 * the transfer ends.
 *
 * Approximations (the model has one CP per stream):
 *  - CP_DMA executes the referenced CB in place, one level deep (the lower
 *    CP of the hardware is folded into the stream); a CP_DMA inside it is an
 *    undefined command.  While it runs, FENCE and WAIT use the lower CP's
 *    own counters (CP_FENCEn_CNT_4, released through CP_FENCEn_RDATA_4), as
 *    on silicon.
 *  - REPEAT with bit 0 (sore) set jumps to byte offset jmp_ptr (bits 31:16)
 *    of the current CB, otherwise it is a no-op; the loop count is not
 *    modelled, so only the work bound ends such a loop.
 *  - WAIT adds its increment (bits 27:24) to fence counter id (bits 29:28)
 *    at once; the cycle count is ignored.
 *  - LOAD_AND_EXE loads predicates and scalars per stream (the lower CP
 *    shares its stream's) and executes from the scalars only the packets
 *    exec_simple() knows (see load_and_exe()).
 *  - The EB/RB/MB barrier bits need no action: every earlier packet, a
 *    LIN_DMA included, has completed when the next one starts.  ARB_POINT
 *    takes part in the QMAN's arbitration (arb_point()), granted when the
 *    QMAN is quiet rather than after a quiet period in time.
 *  - A FENCE that waited, or a LIN_DMA that waited for its core, costs no
 *    further latency when released.
 *  - WREG_32/WREG_BULK address the 64 KiB register window of the QMAN's
 *    engine (the QMAN base rounded down to 64 KiB) (unverified).
 *  - A timestamp message (op 1) writes 64 bits of nanoseconds.
 *  - MME and TPC QMANs sequence packets but their engines compute nothing.
 *
 * Every access a stream makes carries its initiator (queue id, secure or
 * not per GLBL_PROT and the kind of access, see qm_init()) and goes
 * through the fabric (fabric.c).
 */
#include "trace.h"
#include <stdio.h>
#include <string.h>

#include "gaudi_int.h"

/*
 * The work bound of one CB, in packets (a LIN_DMA also costs one unit per
 * 64 KiB); the bounds of a run loop are the scheduler's (sched.c).
 */
#define CB_MAX_WORK  (1ULL << 20)
#define DMA_WORK_SHIFT  16

#define PQ_MAX_LOG2  16

uint64_t gaudi_qman_cb_max_work(const struct gaudi_core *g)
{
    return g->id.cb_max_work ? g->id.cb_max_work : CB_MAX_WORK;
}
/* Packet sizes in bytes (gaudi1/packets.h); 0 = undefined opcode. */
static const uint8_t pkt_size[PKT_NUM_OPCODES] = PKT_SIZES;

/* Result of one CP step. */
enum step {
    STEP_NEXT,  /* keep going */
    STEP_BLOCKED,  /* waiting in a FENCE */
    STEP_CB_DONE,  /* the PQ entry's CB is finished */
    STEP_ERROR,  /* the stream stopped */
    STEP_YIELD,  /* out of time or step budget: run it later */
    STEP_DMA,  /* LIN_DMA started on the core: wait for its end */
    STEP_DMA_WAIT,  /* the core is busy: retry the LIN_DMA when it ends */
};

/* Time one packet costs the CP (asynchronous mode). */
static uint64_t pkt_ns(struct gaudi_core *g)
{
    return gaudi_sched_sync(g) ? 0 : g->id.packet_latency_ns;
}

static struct gaudi_stream *qm_stream(struct gaudi_qman *q, unsigned int s)
{
    return &q->s[s];
}

/*
 * A stream's pending flag, mirrored in its QMAN's and the core's masks so
 * that the run loop visits only QMANs with work.
 */
static void set_pending(struct gaudi_core *g, struct gaudi_qman *q,
                        unsigned int s)
{
    q->s[s].pending = true;
    q->pend |= 1U << s;
    g->qm.pend |= 1U << (q - g->qm.qm);
}

static void clear_pending(struct gaudi_core *g, struct gaudi_qman *q,
                          unsigned int s)
{
    q->s[s].pending = false;
    q->pend &= ~(1U << s);
    if (!q->pend) {
        g->qm.pend &= ~(1U << (q - g->qm.qm));
    }
}

static uint32_t qm_reg(struct gaudi_core *g, struct gaudi_qman *q,
                       uint32_t rel)
{
    return gaudi_reg_get(g, q->base + rel);
}

static unsigned int queue_id(struct gaudi_qman *q, unsigned int s)
{
    return q->first_queue + s;
}

/*
 * Initiators of stream s.  The hardware splits a QMAN into parts that
 * GLBL_PROT makes trusted one by one: the PQ fetcher (PQF) and the CP
 * (its CB fetches and MSG_PROT).  Register writes of WREG_32/WREG_BULK
 * the writes of MSG_LONG/MSG_SHORT and the loads of LOAD_AND_EXE are
 * never trusted (upstream's gaudi.c: "WREG is always not secured"; its CB
 * check refuses MSG_PROT alone on trusted streams and leaves message and
 * load addresses unchecked under the MMU), see protection.rst.
 */
static void qm_init(struct gaudi_core *g, struct gaudi_qman *q,
                    unsigned int s, bool secure, struct gaudi_init *in)
{
    in->kind = GAUDI_INIT_QMAN;
    in->index = queue_id(q, s);
    in->secure = secure;
    in->props = qm_reg(g, q, (secure ? QM_GLBL_SECURE_PROPS(0) :
                              QM_GLBL_NON_SECURE_PROPS(0)) + 4 * s);
    in->razwi_id = q->razwi_id;
}

static void pqf_init(struct gaudi_core *g, struct gaudi_qman *q,
                     unsigned int s, struct gaudi_init *in)
{
    qm_init(g, q, s, qm_reg(g, q, QM_GLBL_PROT) & QM_PROT_PQF(s), in);
}

static void cp_init(struct gaudi_core *g, struct gaudi_qman *q,
                    unsigned int s, struct gaudi_init *in)
{
    /*
     * A CB started by CP_DMA runs on the lower CP (GLBL_PROT CP bit 4,
     * i.e. bit 13), folded into the stream here (unverified).
     */
    uint32_t bit = q->s[s].in_sub ? QM_PROT_CP(4) : QM_PROT_CP(s);

    qm_init(g, q, s, qm_reg(g, q, QM_GLBL_PROT) & bit, in);
}

static void user_init(struct gaudi_core *g, struct gaudi_qman *q,
                      unsigned int s, struct gaudi_init *in)
{
    qm_init(g, q, s, false, in);
}

/* PI and CI count modulo twice the number of entries. */
static uint32_t pq_log2(struct gaudi_core *g, struct gaudi_qman *q,
                        unsigned int s)
{
    uint32_t l = qm_reg(g, q, QM_PQ_SIZE(0) + 4 * s);

    return l > PQ_MAX_LOG2 ? PQ_MAX_LOG2 : l;
}

static uint32_t pq_wrap(struct gaudi_core *g, struct gaudi_qman *q,
                        unsigned int s)
{
    return (2U << pq_log2(g, q, s)) - 1;
}

static bool pq_empty(struct gaudi_core *g, struct gaudi_qman *q,
                     unsigned int s)
{
    uint32_t wrap = pq_wrap(g, q, s);

    return ((qm_reg(g, q, QM_PQ_PI(0) + 4 * s) ^
             qm_reg(g, q, QM_PQ_CI(0) + 4 * s)) & wrap) == 0;
}

static void pq_consume(struct gaudi_core *g, struct gaudi_qman *q,
                       unsigned int s)
{
    uint32_t ci = qm_reg(g, q, QM_PQ_CI(0) + 4 * s);

    gaudi_reg_set(g, q->base + QM_PQ_CI(0) + 4 * s,
                  (ci + 1) & pq_wrap(g, q, s));
}

static bool stream_enabled(struct gaudi_core *g, struct gaudi_qman *q,
                           unsigned int s)
{
    uint32_t en = QM_CFG_PQF_EN(s) | QM_CFG_CP_EN(s);

    /* GLBL_CFG1 has its STOP bits where GLBL_CFG0 has the enables. */
    return (qm_reg(g, q, QM_GLBL_CFG0) & en) == en &&
           !(qm_reg(g, q, QM_GLBL_CFG1) & en);
}

static bool stream_busy(struct gaudi_core *g, struct gaudi_qman *q,
                        unsigned int s)
{
    struct gaudi_stream *st = qm_stream(q, s);

    return !st->stopped && (st->active || !pq_empty(g, q, s));
}

/* Stream s stopped or went away: it neither waits nor holds the grant. */
static void arb_drop(struct gaudi_qman *q, unsigned int s)
{
    q->s[s].arb_wait = false;
    if (q->arb_holder == (int)s) {
        q->arb_holder = -1;
    }
}

/*
 * Stop stream s on an error: record the cause in GLBL_STS1, drop the CB
 * (its PQ entry counts as consumed) and post the QMAN's event.
 */
static enum step qm_error(struct gaudi_core *g, struct gaudi_qman *q,
                          unsigned int s, uint32_t cause, const char *fmt,
                          ...) __attribute__((format(printf, 5, 6)));
static enum step qm_error(struct gaudi_core *g, struct gaudi_qman *q,
                          unsigned int s, uint32_t cause, const char *fmt,
                          ...)
{
    struct gaudi_stream *st = qm_stream(q, s);
    struct gaudi_cb_frame *f = st->in_sub ? &st->sub : &st->cb;
    uint32_t sts1 = q->base + QM_GLBL_STS1(0) + 4 * s;
    uint32_t payload[2] = { queue_id(q, s), cause };
    char msg[160];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    trace_gaudi_qman_err(queue_id(q, s), cause, msg);
    if (st->active) {
        gaudi_guest_error(g, "queue %u: %s (CB 0x%llx offset 0x%llx)",
                          queue_id(q, s), msg,
                          (unsigned long long)f->addr,
                          (unsigned long long)f->pos);
    } else {
        gaudi_guest_error(g, "queue %u: %s", queue_id(q, s), msg);
    }
    gaudi_reg_set(g, sts1, gaudi_reg_get(g, sts1) | cause);
    if (st->active) {
        pq_consume(g, q, s);
    }
    st->active = false;
    st->in_sub = false;
    st->blocked = false;
    st->stopped = true;
    arb_drop(q, s);
    g->qm.errors++;
    /* Engine errors (cause 0) have posted their own event already. */
    if (cause) {
        gaudi_eq_event(g, q->event, payload, sizeof(payload));
    }
    return STEP_ERROR;
}

/* Mark stream s runnable from now on (an idle CP's clock catches up). */
static void mark(struct gaudi_core *g, struct gaudi_qman *q, unsigned int s)
{
    struct gaudi_stream *st = qm_stream(q, s);
    uint64_t now = gaudi_sched_now(g);

    set_pending(g, q, s);
    if (!gaudi_sched_sync(g) && st->time_ns < now) {
        st->time_ns = now;
    }
}

static void kick(struct gaudi_core *g, struct gaudi_qman *q, unsigned int s)
{
    mark(g, q, s);
    gaudi_sched_poke(g);
}

static enum step msg_write(struct gaudi_core *g, struct gaudi_qman *q,
                           unsigned int s, uint64_t addr, uint32_t value,
                           unsigned int op, bool prot)
{
    struct gaudi_init in;
    uint64_t ts;
    int r;

    if (prot) {
        cp_init(g, q, s, &in);
    } else {
        user_init(g, q, s, &in);
    }
    switch (op) {
    case 0:
        r = gaudi_eng_write(g, &in, addr, &value, sizeof(value));
        break;
    case 1:
        ts = gaudi_now_ns(g);
        r = gaudi_eng_write(g, &in, addr, &ts, sizeof(ts));
        break;
    default:
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "message with undefined op %u", op);
    }
    if (r) {
        return qm_error(g, q, s, QM_STS1_CP_MSG_WR_ERR,
                        "message write to 0x%llx failed",
                        (unsigned long long)addr);
    }
    return STEP_NEXT;
}

/* Register writes of WREG_32/WREG_BULK: n values from reg on. */
static int wreg_write(struct gaudi_core *g, struct gaudi_qman *q,
                      unsigned int s, uint32_t reg, uint32_t *vals,
                      uint64_t n)
{
    struct gaudi_init in;
    uint64_t a = GAUDI_CFG_BASE + reg;

    user_init(g, q, s, &in);
    return gaudi_phys_access(g, &in, a, a, vals, 4 * n, true);
}

static enum step wreg(struct gaudi_core *g, struct gaudi_qman *q,
                      unsigned int s, uint32_t reg, uint32_t value)
{
    if (reg & 3) {
        return qm_error(g, q, s, QM_STS1_CP_WREG_ERR,
                        "unaligned register write 0x%x", reg);
    }
    if (wreg_write(g, q, s, reg, &value, 1)) {
        return qm_error(g, q, s, QM_STS1_CP_WREG_ERR,
                        "register write 0x%x refused", reg);
    }
    return STEP_NEXT;
}

static enum step wreg_bulk(struct gaudi_core *g, struct gaudi_qman *q,
                           unsigned int s, struct gaudi_cb_frame *f,
                           uint32_t reg, uint64_t count)
{
    struct gaudi_init in;
    uint32_t vals[64];
    uint64_t done = 0, n;

    if (reg & 3) {
        return qm_error(g, q, s, QM_STS1_CP_WREG_ERR,
                        "unaligned register write 0x%x", reg);
    }
    cp_init(g, q, s, &in);
    /* Each 64-bit value carries two consecutive registers. */
    count *= 2;
    while (done < count) {
        n = count - done < 64 ? count - done : 64;
        if (gaudi_eng_read(g, &in, f->addr + f->pos + 8 + 4 * done, vals,
                           4 * n)) {
            return qm_error(g, q, s, QM_STS1_CP_RD_ERR,
                            "cannot read WREG_BULK values");
        }
        if (wreg_write(g, q, s, reg + 4 * done, vals, n)) {
            return qm_error(g, q, s, QM_STS1_CP_WREG_ERR,
                            "register write 0x%llx refused",
                            (unsigned long long)(reg + 4 * done));
        }
        done += n;
    }
    return STEP_NEXT;
}

/*
 * The CP whose fence counters stream s uses now: its own (0..3), or the
 * lower CP's (4) while it runs a CB started by CP_DMA.  Monitors release
 * a lower-CP FENCE through CP_FENCEn_RDATA_4 (hl-thunk-open's gaudi tests
 * fence the "cmdq" that way).
 */
static unsigned int fence_cp(struct gaudi_qman *q, unsigned int s)
{
    return q->s[s].in_sub ? QM_LOWER_CP : s;
}

static enum step fence(struct gaudi_core *g, struct gaudi_qman *q,
                       unsigned int s, uint32_t cfg)
{
    unsigned int id = cfg >> 30, dec = cfg & 0xF;
    uint32_t target = (cfg >> 16) & 0xFF;
    uint32_t off = q->base + QM_CP_FENCE_CNT(0, 0) +
               id * QM_CP_FENCE_STRIDE + 4 * fence_cp(q, s);
    uint32_t cnt = gaudi_reg_get(g, off);
    uint32_t sts1 = q->base + QM_GLBL_STS1(0) + 4 * s;

    if (cnt < target) {
        return STEP_BLOCKED;
    }
    if (dec > cnt) {
        /* Clipped at zero, like the hardware's underflow. */
        gaudi_reg_set(g, sts1, gaudi_reg_get(g, sts1) |
                      QM_STS1_CP_FENCE_UDF_ERR(id));
        dec = cnt;
    }
    gaudi_reg_set(g, off, cnt - dec);
    return STEP_NEXT;
}

/*
 * Arbitration between the streams of a QMAN.  While ARB_CFG_0 EN is set,
 * an ARB_POINT without the release bit asks for the QMAN's grant with its
 * priority and waits for it; one with the release bit gives it back.  The
 * arbiter grants when the QMAN is quiet: every stream either waits at an
 * ARB_POINT or cannot run (idle, in a FENCE, waiting for its DMA core,
 * stopped), so that streams released together all compete (the hardware's
 * quiet period between grants, ARB_MST_QUIET_PER, is not modelled in
 * time).  TYPE 0: the highest priority value wins (ties in round-robin
 * order); TYPE 1, weighted round robin: the stream granted last keeps the
 * grant for WRR_WEIGHT(s) grants in a row while it asks, then the next
 * asking stream after it in stream order.  With EN clear ARB_POINT is a
 * NOP; clearing EN ends every wait and the grant.
 */
static bool arb_enabled(struct gaudi_core *g, struct gaudi_qman *q)
{
    return qm_reg(g, q, QM_ARB_CFG_0) & QM_ARB_CFG_0_EN;
}

static enum step arb_point(struct gaudi_core *g, struct gaudi_qman *q,
                           unsigned int s, uint32_t cfg)
{
    struct gaudi_stream *st = qm_stream(q, s);

    if (!arb_enabled(g, q)) {
        st->arb_wait = false;
        return STEP_NEXT;
    }
    if (cfg & PKT_ARB_RELEASE) {
        if (q->arb_holder == (int)s) {
            q->arb_holder = -1;
        }
        return STEP_NEXT;
    }
    if (q->arb_holder == (int)s) {
        st->arb_wait = false;
        return STEP_NEXT;
    }
    st->arb_wait = true;
    st->arb_prio = cfg & PKT_ARB_PRIORITY;
    return STEP_BLOCKED;
}

/* WRR weight of stream s (bits 7:0 taken, 0 as 1: unverified). */
static uint32_t arb_weight(struct gaudi_core *g, struct gaudi_qman *q,
                           unsigned int s)
{
    uint32_t w = qm_reg(g, q, QM_ARB_WRR_WEIGHT(s)) & 0xFF;

    return w ? w : 1;
}

static bool stream_ready(struct gaudi_core *g, struct gaudi_qman *q,
                         unsigned int s);

/* Grant the arbitration if the QMAN is quiet; true if it did. */
static bool arb_settle(struct gaudi_core *g, struct gaudi_qman *q)
{
    bool wrr, want[GAUDI_QM_STREAMS], any = false;
    int best = -1, last = q->arb_last;
    unsigned int k, s;

    if (q->arb_holder >= 0) {
        return false;
    }
    for (s = 0; s < GAUDI_QM_STREAMS; s++) {
        any |= q->s[s].arb_wait;
    }
    if (!any) {
        return false;  /* nobody asks */
    }
    any = false;
    for (s = 0; s < GAUDI_QM_STREAMS; s++) {
        struct gaudi_stream *st = qm_stream(q, s);

        if (!st->arb_wait && st->pending && stream_ready(g, q, s)) {
            return false;  /* not quiet: it may still ask */
        }
        want[s] = st->arb_wait && !st->stopped && !st->hung &&
                  stream_enabled(g, q, s);
        any |= want[s];
    }
    if (!any || !arb_enabled(g, q)) {
        return false;
    }
    wrr = qm_reg(g, q, QM_ARB_CFG_0) & QM_ARB_CFG_0_TYPE_WRR;
    if (wrr && last >= 0 && want[last] &&
        q->arb_run < arb_weight(g, q, last)) {
        best = last;
    }
    /* In stream order after the last grant: ties go round robin. */
    for (k = 1; k <= GAUDI_QM_STREAMS; k++) {
        s = (unsigned int)(last + (int)k) % GAUDI_QM_STREAMS;
        if (want[s] && (best < 0 || (!wrr && q->s[s].arb_prio >
                                               q->s[best].arb_prio))) {
            best = (int)s;
        }
    }
    q->arb_run = best == last ? q->arb_run + 1 : 1;
    q->arb_last = best;
    q->arb_holder = best;
    q->s[best].arb_wait = false;
    mark(g, q, best);
    return true;
}

static enum step lin_dma(struct gaudi_core *g, struct gaudi_qman *q,
                         unsigned int s, const uint32_t *w)
{
    uint64_t src = w[2] | ((uint64_t)w[3] << 32);
    uint64_t dst = (w[4] | ((uint64_t)w[5] << 32)) & 0x00FFFFFFFFFFFFFFULL;
    uint32_t base, tsize = w[0], ctl = w[1];

    if (q->dma < 0) {
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "LIN_DMA on a queue without a DMA engine");
    }
    if (gaudi_dma_busy(g, q->dma)) {
        return STEP_DMA_WAIT;  /* another stream's transfer */
    }
    /* The CP programs the core's registers, then commits. */
    base = mmDMA0_CORE_BASE + q->dma * GAUDI_DMA_STRIDE;
    gaudi_reg_set(g, base + DMA_CORE_SRC_BASE_LO, (uint32_t)src);
    gaudi_reg_set(g, base + DMA_CORE_SRC_BASE_HI, src >> 32);
    gaudi_reg_set(g, base + DMA_CORE_DST_BASE_LO, w[4]);
    gaudi_reg_set(g, base + DMA_CORE_DST_BASE_HI, w[5]);
    gaudi_reg_set(g, base + DMA_CORE_DST_TSIZE_0, tsize);
    /* The run budget is charged as the core moves the data. */
    qm_stream(q, s)->work += (uint64_t)tsize >> DMA_WORK_SHIFT;
    if (!tsize) {
        return STEP_NEXT;
    }
    gaudi_dma_start(g, q->dma, src, dst, tsize, ctl & 0xFF, (int)s,
                    qm_stream(q, s)->time_ns);
    return STEP_DMA;
}

/*
 * Predicates and scalars of a CP (LOAD_AND_EXE).  Every packet with a
 * predicate field (ctl 4:0: WREG_32, WREG_BULK, MSG_LONG, MSG_PROT,
 * CP_DMA, REPEAT, FENCE, ARB_POINT, LOAD_AND_EXE) runs only while its
 * predicate is set; predicate 0 is always set.  A load of predicates reads
 * 128 bytes, predicate i from bit 0 of 32-bit word i (the non-consecutive
 * map, the only one Gaudi 1 has) and leaves predicate 0 alone; a load of
 * scalars reads 16 bytes into R0..R3.  EXE runs the packet held in the
 * scalars: from R0 (ETYPE 0, all four registers, e.g. a MSG_LONG, or an
 * 8-byte packet in the lower two) or from R2 (ETYPE 1, an 8-byte packet
 * in the upper two), as if the CP had fetched it from its CB (same
 * trust).  Packets that refer to the CB around them (WREG_BULK, CP_DMA,
 * REPEAT, LOAD_AND_EXE) or do not fit (LIN_DMA) are not executed from the
 * scalars: an undefined command (the model's choice; unverified).
 */
static bool pkt_has_pred(uint32_t opcode)
{
    switch (opcode) {
    case PKT_WREG_32:
    case PKT_WREG_BULK:
    case PKT_MSG_LONG:
    case PKT_MSG_PROT:
    case PKT_CP_DMA:
    case PKT_REPEAT:
    case PKT_FENCE:
    case PKT_ARB_POINT:
    case PKT_LOAD_AND_EXE:
        return true;
    default:
        return false;
    }
}

static bool pred_true(const struct gaudi_stream *st, uint32_t opcode,
                      uint32_t ctl)
{
    uint32_t p = ctl & PKT_CTL_PRED;

    return !pkt_has_pred(opcode) || !p || (st->pred & (1U << p));
}

/* The packets a CP executes without reference to its CB. */
static enum step exec_simple(struct gaudi_core *g, struct gaudi_qman *q,
                             unsigned int s, uint32_t opcode,
                             const uint32_t *w)
{
    uint64_t addr;
    uint32_t base;

    switch (opcode) {
    case PKT_WREG_32:
        return wreg(g, q, s, (q->base & ~0xFFFFU) + ((w[1] >> 8) & 0xFFFF),
                    w[0]);
    case PKT_MSG_LONG:
    case PKT_MSG_PROT:
        return msg_write(g, q, s, w[2] | ((uint64_t)w[3] << 32), w[0],
                         (w[1] >> 20) & 3, opcode == PKT_MSG_PROT);
    case PKT_MSG_SHORT:
        base = (w[1] >> 22) & 3;
        addr = ((uint64_t)qm_reg(g, q, QM_CP_MSG_BASE_HI(0, 0) +
                                 base * QM_CP_MSG_BASE_STRIDE +
                                 4 * s) << 32) |
               qm_reg(g, q, QM_CP_MSG_BASE_LO(0, 0) +
                      base * QM_CP_MSG_BASE_STRIDE + 4 * s);
        return msg_write(g, q, s, addr + (w[1] & 0xFFFF), w[0],
                         (w[1] >> 20) & 3, false);
    case PKT_FENCE:
        return fence(g, q, s, w[0]);
    case PKT_STOP:
        trace_gaudi_qman_stop(queue_id(q, s));
        return qm_error(g, q, s, QM_STS1_CP_STOP_OP, "STOP packet");
    case PKT_WAIT:
        base = q->base + QM_CP_FENCE_CNT(0, 0) +
               ((w[0] >> 28) & 3) * QM_CP_FENCE_STRIDE +
               4 * fence_cp(q, s);
        gaudi_reg_set(g, base,
                      gaudi_reg_get(g, base) + ((w[0] >> 24) & 0xF));
        return STEP_NEXT;
    case PKT_ARB_POINT:
        return arb_point(g, q, s, w[0]);
    case PKT_NOP:
        return STEP_NEXT;
    default:
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "LOAD_AND_EXE: packet 0x%x cannot run from the scalars",
                        opcode);
    }
}

static enum step load_and_exe(struct gaudi_core *g, struct gaudi_qman *q,
                              unsigned int s, const uint32_t *w)
{
    struct gaudi_stream *st = qm_stream(q, s);
    uint64_t src = w[2] | ((uint64_t)w[3] << 32);
    uint32_t cfg = w[0], buf[32], opcode, size, i;
    const uint32_t *pkt;
    struct gaudi_init in;

    if (cfg & PKT_LOAD_AND_EXE_LOAD) {
        /* The load is the user's, never trusted (see qm_init). */
        user_init(g, q, s, &in);
        if (gaudi_eng_read(g, &in, src, buf, (cfg & PKT_LOAD_AND_EXE_DST) ?
                           sizeof(st->scalar) : sizeof(buf))) {
            return qm_error(g, q, s, QM_STS1_CP_RD_ERR,
                            "LOAD_AND_EXE source unreadable");
        }
        if (cfg & PKT_LOAD_AND_EXE_DST) {
            memcpy(st->scalar, buf, sizeof(st->scalar));
        } else {
            for (i = 1; i < 32; i++) {
                st->pred = (st->pred & ~(1U << i)) | ((buf[i] & 1U) << i);
            }
        }
    }
    if (!(cfg & PKT_LOAD_AND_EXE_EXE)) {
        return STEP_NEXT;
    }
    pkt = st->scalar + ((cfg & PKT_LOAD_AND_EXE_ETYPE) ? 2 : 0);
    opcode = PKT_OPCODE(pkt[1]);
    size = pkt_size[opcode];
    if (!size || size > ((cfg & PKT_LOAD_AND_EXE_ETYPE) ? 8U : 16U)) {
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "LOAD_AND_EXE: no packet in the scalars (opcode 0x%x)",
                        opcode);
    }
    if (!pred_true(st, opcode, pkt[1])) {
        return STEP_NEXT;
    }
    return exec_simple(g, q, s, opcode, pkt);
}

/* Execute the packet at the current position of stream s. */
static enum step cp_step(struct gaudi_core *g, struct gaudi_qman *q,
                         unsigned int s)
{
    struct gaudi_stream *st = qm_stream(q, s);
    struct gaudi_cb_frame *f = st->in_sub ? &st->sub : &st->cb;
    uint32_t w[6], opcode, size, jmp;
    struct gaudi_init in;
    enum step r;

    if (f->pos >= f->len) {
        if (!st->in_sub) {
            return STEP_CB_DONE;
        }
        st->in_sub = false;
        return STEP_NEXT;
    }
    if (st->work >= gaudi_qman_cb_max_work(g) ||
        (gaudi_sched_sync(g) && !g->sched.budget)) {
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "runaway command buffer stopped");
    }
    if (!gaudi_sched_sync(g)) {
        /*
         * The packet ends pkt_ns after the previous one; a FENCE or
         * LIN_DMA that waited is retried at no cost when released.
         */
        if (!g->sched.budget ||
            (!st->retry && st->time_ns + pkt_ns(g) > g->sched.now)) {
            return STEP_YIELD;
        }
        if (!st->retry) {
            st->time_ns += pkt_ns(g);
            g->stat_busy_ns += pkt_ns(g);
        }
    }
    st->retry = false;
    st->work++;
    g->sched.budget--;
    if (f->len - f->pos < 8) {
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "truncated packet at the end of the CB");
    }
    cp_init(g, q, s, &in);
    if (gaudi_eng_read(g, &in, f->addr + f->pos, w, 8)) {
        return qm_error(g, q, s, QM_STS1_CP_RD_ERR,
                        "cannot read the CB at 0x%llx",
                        (unsigned long long)(f->addr + f->pos));
    }
    opcode = PKT_OPCODE(w[1]);
    size = pkt_size[opcode];
    if (!size) {
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "undefined opcode 0x%x", opcode);
    }
    if (opcode == PKT_WREG_BULK) {
        size += 8 * (w[0] & 0xFFFF);
    }
    if (size > f->len - f->pos) {
        return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                        "packet 0x%x runs past the end of the CB",
                        opcode);
    }
    if (size > 8 && opcode != PKT_WREG_BULK &&
        gaudi_eng_read(g, &in, f->addr + f->pos + 8, w + 2, size - 8)) {
        return qm_error(g, q, s, QM_STS1_CP_RD_ERR,
                        "cannot read the CB at 0x%llx",
                        (unsigned long long)(f->addr + f->pos + 8));
    }

    if (!pred_true(st, opcode, w[1])) {
        f->pos += size;  /* its predicate is clear: skipped */
        return STEP_NEXT;
    }
    switch (opcode) {
    case PKT_WREG_BULK:
        r = wreg_bulk(g, q, s, f,
                      (q->base & ~0xFFFFU) + ((w[1] >> 8) & 0xFFFF),
                      w[0] & 0xFFFF);
        break;
    case PKT_CP_DMA:
        if (st->in_sub) {
            return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                            "CP_DMA inside a CP_DMA buffer");
        }
        f->pos += size;
        if (w[0]) {
            st->sub.addr = w[2] | ((uint64_t)w[3] << 32);
            st->sub.len = w[0];
            st->sub.pos = 0;
            st->in_sub = true;
        }
        return STEP_NEXT;
    case PKT_REPEAT:
        r = STEP_NEXT;
        if (!(w[0] & 1)) {
            break;
        }
        jmp = w[0] >> 16;
        if (jmp >= f->len || (jmp & 7)) {
            return qm_error(g, q, s, QM_STS1_CP_UNDEF_CMD_ERR,
                            "REPEAT jumps outside the CB (0x%x)",
                            jmp);
        }
        f->pos = jmp;
        return STEP_NEXT;
    case PKT_LIN_DMA:
        r = lin_dma(g, q, s, w);
        break;
    case PKT_LOAD_AND_EXE:
        r = load_and_exe(g, q, s, w);
        break;
    default:
        r = exec_simple(g, q, s, opcode, w);
        break;
    }
    if (r == STEP_NEXT || r == STEP_DMA) {
        f->pos += size;
    }
    return r;
}

/* Start the CB of the PQ entry at CI; false if there is none. */
static bool fetch_bd(struct gaudi_core *g, struct gaudi_qman *q,
                     unsigned int s)
{
    struct gaudi_stream *st = qm_stream(q, s);
    uint32_t ci = qm_reg(g, q, QM_PQ_CI(0) + 4 * s), bd[4];
    uint64_t pq = qm_reg(g, q, QM_PQ_BASE_LO(0) + 4 * s) |
              ((uint64_t)qm_reg(g, q, QM_PQ_BASE_HI(0) + 4 * s) << 32);
    uint64_t idx = ci & ((1U << pq_log2(g, q, s)) - 1);
    struct gaudi_init in;

    if (pq_empty(g, q, s)) {
        return false;
    }
    pqf_init(g, q, s, &in);
    if (gaudi_eng_read(g, &in, pq + 16 * idx, bd, sizeof(bd))) {
        pq_consume(g, q, s);
        qm_error(g, q, s, QM_STS1_PQF_RD_ERR,
                 "cannot read PQ entry %llu at 0x%llx",
                 (unsigned long long)idx,
                 (unsigned long long)(pq + 16 * idx));
        return false;
    }
    st->cb.addr = bd[0] | ((uint64_t)bd[1] << 32);
    st->cb.len = bd[2];
    st->cb.pos = 0;
    trace_gaudi_qman_cb(queue_id(q, s), st->cb.addr, st->cb.len);
    st->in_sub = false;
    st->active = true;
    st->retry = false;
    st->work = 0;
    return true;
}

/* Stream s can execute now (given time) and has something to execute. */
static bool stream_ready(struct gaudi_core *g, struct gaudi_qman *q,
                         unsigned int s)
{
    struct gaudi_stream *st = qm_stream(q, s);

    return !st->stopped && !st->hung && !st->dma_wait &&
           stream_enabled(g, q, s) && (st->active || !pq_empty(g, q, s));
}

/* Run stream s as far as it goes; true if it made progress. */
static bool stream_run(struct gaudi_core *g, struct gaudi_qman *q,
                       unsigned int s)
{
    struct gaudi_stream *st = qm_stream(q, s);
    uint32_t gen = g->sched.gen;
    bool progress = false;
    enum step r;

    st->blocked = false;
    while (stream_ready(g, q, s)) {
        if (!st->active && !fetch_bd(g, q, s)) {
            return progress;
        }
        r = cp_step(g, q, s);
        if (g->sched.gen != gen) {
            return true;  /* a packet reset the device */
        }
        switch (r) {
        case STEP_NEXT:
            progress = true;
            break;
        case STEP_CB_DONE:
            trace_gaudi_qman_cb_done(queue_id(q, s), st->work);
            st->active = false;
            pq_consume(g, q, s);
            progress = true;
            break;
        case STEP_BLOCKED:
            st->blocked = true;
            st->retry = true;
            return progress;
        case STEP_ERROR:
            return true;
        case STEP_YIELD:
            set_pending(g, q, s);
            return progress;
        case STEP_DMA_WAIT:
            st->retry = true;
            /* fall through */
        case STEP_DMA:
            st->dma_wait = true;
            return true;
        }
    }
    return progress;
}

/* The next QMAN from i on with a pending stream, or GAUDI_NUM_QMANS. */
static unsigned int next_pending(struct gaudi_core *g, unsigned int i)
{
    uint32_t m = i < GAUDI_NUM_QMANS ? g->qm.pend >> i : 0;

    return m ? i + (unsigned int)__builtin_ctz(m) : GAUDI_NUM_QMANS;
}

uint64_t gaudi_qman_next_ns(struct gaudi_core *g)
{
    struct gaudi_qmans *qs = &g->qm;
    uint64_t next = UINT64_MAX, t;
    unsigned int i, s;

    for (i = next_pending(g, 0); i < GAUDI_NUM_QMANS;
         i = next_pending(g, i + 1)) {
        for (s = 0; s < GAUDI_QM_STREAMS; s++) {
            if (!qs->qm[i].s[s].pending || !stream_ready(g, &qs->qm[i], s)) {
                continue;
            }
            t = qs->qm[i].s[s].time_ns + pkt_ns(g);
            next = t < next ? t : next;
        }
    }
    return next;
}

bool gaudi_qman_run(struct gaudi_core *g)
{
    struct gaudi_qmans *qs = &g->qm;
    bool progress = false;
    unsigned int i, s;

    /* In QMAN and stream order; streams marked meanwhile are seen. */
    for (i = next_pending(g, 0); i < GAUDI_NUM_QMANS;
         i = next_pending(g, i + 1)) {
        for (s = 0; s < GAUDI_QM_STREAMS; s++) {
            if (!qs->qm[i].s[s].pending) {
                continue;
            }
            clear_pending(g, &qs->qm[i], s);
            progress |= stream_run(g, &qs->qm[i], s);
        }
    }
    for (i = 0; i < GAUDI_NUM_QMANS; i++) {
        progress |= arb_settle(g, &qs->qm[i]);
    }
    return progress;
}

bool gaudi_qman_busy(struct gaudi_core *g)
{
    unsigned int i, s;

    for (i = next_pending(g, 0); i < GAUDI_NUM_QMANS;
         i = next_pending(g, i + 1)) {
        for (s = 0; s < GAUDI_QM_STREAMS; s++) {
            if (g->qm.qm[i].s[s].pending &&
                stream_ready(g, &g->qm.qm[i], s)) {
                return true;
            }
        }
    }
    return false;
}

void gaudi_qman_dma_done(struct gaudi_core *g, unsigned int n, int owner,
                         bool err, uint64_t end_ns)
{
    struct gaudi_qman *q = &g->qm.qm[n];
    unsigned int s;

    /* DMA QMAN n feeds DMA core n; its streams may wait for the core. */
    for (s = 0; s < GAUDI_QM_STREAMS; s++) {
        struct gaudi_stream *st = qm_stream(q, s);

        if (!st->dma_wait) {
            continue;
        }
        st->dma_wait = false;
        set_pending(g, q, s);
        if (!gaudi_sched_sync(g) && st->time_ns < end_ns) {
            st->time_ns = end_ns;
        }
    }
    if (owner >= 0 && owner < GAUDI_QM_STREAMS && err) {
        qm_error(g, q, owner, 0, "LIN_DMA failed");
    }
}

/* --- QMAN registers -------------------------------------------------- */

static uint32_t qm_sts0(struct gaudi_core *g, struct gaudi_qman *q)
{
    uint32_t v = QM_GLBL_STS0_IDLE;
    unsigned int s;

    /* The STOP requests of GLBL_CFG1 show as IS_STOP bits 29:16. */
    v |= (qm_reg(g, q, QM_GLBL_CFG1) & QM_GLBL_STS0_IDLE) << 16;
    for (s = 0; s < GAUDI_QM_STREAMS; s++) {
        if (stream_busy(g, q, s)) {
            v &= ~(QM_CFG_PQF_EN(s) | QM_CFG_CP_EN(s));
        }
        if (q->s[s].stopped) {
            v |= QM_STS0_CP_IS_STOP(s);
        }
    }
    return v;
}

/* CGM_STS shows AGENT_IDLE while no stream (and no DMA core) works. */
static uint32_t qm_cgm_sts(struct gaudi_core *g, struct gaudi_qman *q)
{
    uint32_t v = qm_reg(g, q, QM_CGM_STS) & ~QM_CGM_STS_AGENT_IDLE;
    unsigned int s;

    if (q->dma >= 0 && gaudi_dma_busy(g, q->dma)) {
        return v;
    }
    for (s = 0; s < GAUDI_QM_STREAMS; s++) {
        if (stream_busy(g, q, s)) {
            return v;
        }
    }
    return v | QM_CGM_STS_AGENT_IDLE;
}

static uint32_t qm_read(struct gaudi_core *g, struct gaudi_qman *q,
                        uint32_t rel)
{
    if (rel == QM_GLBL_STS0) {
        return qm_sts0(g, q);
    }
    if (rel == QM_CGM_STS) {
        return qm_cgm_sts(g, q);
    }
    return qm_reg(g, q, rel);
}

static void qm_kick_all(struct gaudi_core *g, struct gaudi_qman *q)
{
    unsigned int s;

    for (s = 0; s < GAUDI_QM_STREAMS; s++) {
        mark(g, q, s);
    }
    gaudi_sched_poke(g);
}

/* A fence counter of CP cp changed: wake the stream blocked on it. */
static void fence_kick(struct gaudi_core *g, struct gaudi_qman *q,
                       unsigned int cp)
{
    unsigned int s;

    for (s = 0; s < GAUDI_QM_STREAMS; s++) {
        if (q->s[s].blocked && fence_cp(q, s) == cp) {
            kick(g, q, s);
        }
    }
}

static void qm_write(struct gaudi_core *g, struct gaudi_qman *q,
                     uint32_t rel, uint32_t val)
{
    uint32_t off = q->base + rel;
    unsigned int s;

    if (rel >= QM_CP_FENCE_RDATA(0, 0) &&
        rel < QM_CP_FENCE_RDATA(0, 0) + 4 * QM_CP_FENCE_STRIDE) {
        /* A fence RDATA write adds to the fence counter. */
        uint32_t f = (rel - QM_CP_FENCE_RDATA(0, 0)) / QM_CP_FENCE_STRIDE;
        uint32_t cnt = rel - QM_CP_FENCE_RDATA(0, 0) + QM_CP_FENCE_CNT(0, 0);

        s = (rel - QM_CP_FENCE_RDATA(0, 0) - f * QM_CP_FENCE_STRIDE) / 4;
        gaudi_reg_set(g, off, val);
        gaudi_reg_set(g, q->base + cnt, qm_reg(g, q, cnt) + val);
        fence_kick(g, q, s);
        return;
    }
    switch (rel) {
    case QM_GLBL_CFG0:
        gaudi_reg_set(g, off, val);
        /* Rewriting the enables restarts streams stopped on errors. */
        for (s = 0; s < GAUDI_QM_STREAMS; s++) {
            q->s[s].stopped = false;
        }
        qm_kick_all(g, q);
        return;
    case QM_GLBL_CFG1:
        gaudi_reg_set(g, off, val);
        qm_kick_all(g, q);
        return;
    case QM_ARB_CFG_0:
        gaudi_reg_set(g, off, val);
        if (!(val & QM_ARB_CFG_0_EN)) {
            /* Arbitration off: the grant and every wait end. */
            q->arb_holder = -1;
            for (s = 0; s < GAUDI_QM_STREAMS; s++) {
                if (q->s[s].arb_wait) {
                    q->s[s].arb_wait = false;
                    mark(g, q, s);
                }
            }
        }
        gaudi_sched_poke(g);
        return;
    case QM_GLBL_STS0:
        return;   /* read-only */
    case QM_GLBL_STS1(0):
    case QM_GLBL_STS1(0) + 4:
    case QM_GLBL_STS1(0) + 8:
    case QM_GLBL_STS1(0) + 12:
    case QM_GLBL_STS1(0) + 16:
        gaudi_reg_set(g, off, gaudi_reg_get(g, off) & ~val);
        return;
    case QM_PQ_PI(0):
    case QM_PQ_PI(0) + 4:
    case QM_PQ_PI(0) + 8:
    case QM_PQ_PI(0) + 12:
        /* The doorbell. */
        gaudi_reg_set(g, off, val);
        trace_gaudi_qman_doorbell(queue_id(q, (rel - QM_PQ_PI(0)) / 4), val);
        kick(g, q, (rel - QM_PQ_PI(0)) / 4);
        return;
    default:
        gaudi_reg_set(g, off, val);
        /* A fence counter set directly may release a FENCE. */
        if (rel >= QM_CP_FENCE_CNT(0, 0) &&
            rel < QM_CP_FENCE_CNT(0, 0) + 4 * QM_CP_FENCE_STRIDE) {
            s = (rel - QM_CP_FENCE_CNT(0, 0)) % QM_CP_FENCE_STRIDE;
            fence_kick(g, q, s / 4);
        }
        return;
    }
}

static struct gaudi_qman *qman_at(struct gaudi_core *g, uint32_t off)
{
    unsigned int i;

    for (i = 0; i < GAUDI_NUM_QMANS; i++)
        if (off - g->qm.qm[i].base < QM_BLOCK_SIZE) {
            return &g->qm.qm[i];
        }
    return NULL;
}

/* MME, TPC and NIC QMAN ranges. */
static uint32_t qm_range_read(struct gaudi_core *g, uint32_t off)
{
    struct gaudi_qman *q = qman_at(g, off);

    return qm_read(g, q, off - q->base);
}

static void qm_range_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    struct gaudi_qman *q = qman_at(g, off);

    qm_write(g, q, off - q->base, val);
}

/* DMA0..7: a core at +0 and its QMAN at +0x8000 of each 128 KiB block. */
static uint32_t dma_range_read(struct gaudi_core *g, uint32_t off)
{
    uint32_t n = (off - mmDMA0_CORE_BASE) / GAUDI_DMA_STRIDE;
    uint32_t rel = (off - mmDMA0_CORE_BASE) % GAUDI_DMA_STRIDE;

    if (rel < DMA_CORE_BLOCK_SIZE) {
        return gaudi_dma_core_read(g, n, rel);
    }
    if (rel - DMA_QM_OFFSET < QM_BLOCK_SIZE) {
        return qm_read(g, &g->qm.qm[n], rel - DMA_QM_OFFSET);
    }
    return gaudi_reg_get(g, off);
}

static void dma_range_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    uint32_t n = (off - mmDMA0_CORE_BASE) / GAUDI_DMA_STRIDE;
    uint32_t rel = (off - mmDMA0_CORE_BASE) % GAUDI_DMA_STRIDE;

    if (rel < DMA_CORE_BLOCK_SIZE) {
        gaudi_dma_core_write(g, n, rel, val);
    } else if (rel - DMA_QM_OFFSET < QM_BLOCK_SIZE) {
        qm_write(g, &g->qm.qm[n], rel - DMA_QM_OFFSET, val);
    } else {
        gaudi_reg_set(g, off, val);
    }
}

/* PCIE_CORE_MSI_REQ: any write raises the MSI (how CQ completions signal). */
static void msi_req_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    gaudi_reg_set(g, off, val);
    gaudi_msi(g);
}

/*
 * --- model control: queue fault injection -----------------------------
 * GAUDI_MODEL_CTL_BASE + (Documentation/emulator/model-control.rst):
 *   0x100 QM_HANG        W   queue id: the stream stops making progress
 *   0x104 QM_UNHANG      W   queue id or ~0 (all): resume
 *   0x108 QM_HUNG_COUNT  RO  hung streams
 *   0x10C QM_ERRORS      RO  queue errors since reset
 * Decoded only with the test-hooks option; reads 0 otherwise.
 */

static struct gaudi_stream *queue_stream(struct gaudi_core *g, uint32_t id)
{
    unsigned int i;

    for (i = 0; i < GAUDI_NUM_QMANS; i++) {
        struct gaudi_qman *q = &g->qm.qm[i];

        if (id - q->first_queue < GAUDI_QM_STREAMS) {
            return &q->s[id - q->first_queue];
        }
    }
    return NULL;
}

static uint32_t ctl_read(struct gaudi_core *g, uint32_t off)
{
    unsigned int i, s, n = 0;

    if (!g->id.test_hooks) {
        return 0;
    }
    switch (off - GAUDI_MODEL_CTL_BASE) {
    case GAUDI_CTL_QM_HUNG_COUNT:
        for (i = 0; i < GAUDI_NUM_QMANS; i++)
            for (s = 0; s < GAUDI_QM_STREAMS; s++) {
                n += g->qm.qm[i].s[s].hung;
            }
        return n;
    case GAUDI_CTL_QM_ERRORS:
        return g->qm.errors;
    default:
        return 0;
    }
}

static void ctl_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    struct gaudi_stream *st;
    unsigned int i, s;

    if (!g->id.test_hooks) {
        return;
    }
    switch (off - GAUDI_MODEL_CTL_BASE) {
    case GAUDI_CTL_QM_HANG:
        st = queue_stream(g, val);
        if (!st) {
            gaudi_guest_error(g, "model control: no queue %u", val);
            return;
        }
        st->hung = true;
        return;
    case GAUDI_CTL_QM_UNHANG:
        for (i = 0; i < GAUDI_NUM_QMANS; i++) {
            for (s = 0; s < GAUDI_QM_STREAMS; s++) {
                st = &g->qm.qm[i].s[s];
                if (val != UINT32_MAX &&
                    val != g->qm.qm[i].first_queue + s) {
                    continue;
                }
                st->hung = false;
                mark(g, &g->qm.qm[i], s);
            }
        }
        gaudi_sched_poke(g);
        return;
    default:
        gaudi_guest_error(g, "model control: 0x%x is not writable",
                          off - GAUDI_MODEL_CTL_BASE);
        return;
    }
}

/* --- life cycle --------------------------------------------------------- */

void gaudi_qman_init(struct gaudi_core *g)
{
    /* RAZWI initiator X/Y of the TPCs (gaudi_masks.h). */
    static const uint8_t tpc_xy[GAUDI_NUM_TPC][2] = {
        { 1, 1 }, { 2, 1 }, { 7, 1 }, { 8, 1 },
        { 1, 6 }, { 2, 6 }, { 7, 6 }, { 8, 6 },
    };
    struct gaudi_qmans *qs = &g->qm;
    unsigned int i;

    for (i = 0; i < GAUDI_NUM_DMA; i++) {
        qs->qm[i].base = mmDMA0_QM_BASE + i * GAUDI_DMA_STRIDE;
        qs->qm[i].dma = i;
        qs->qm[i].event = GAUDI_EVENT_DMA0_QM + i;
        qs->qm[i].razwi_id = gaudi_dma_razwi_id(i);
        /* Queue id 8 is the device-CPU queue, between DMA1 and DMA2. */
        qs->qm[i].first_queue = 4 * i + (i >= 2);
    }
    qs->qm[8].base = mmMME0_QM_BASE;
    qs->qm[8].event = GAUDI_EVENT_MME0_QM;
    qs->qm[9].base = mmMME2_QM_BASE;
    qs->qm[9].event = GAUDI_EVENT_MME2_QM;
    qs->qm[8].razwi_id = RAZWI_ID(3, 1, AXI_ID_MME);
    qs->qm[9].razwi_id = RAZWI_ID(3, 6, AXI_ID_MME);
    for (i = 0; i < 2; i++) {
        qs->qm[8 + i].dma = -1;
        qs->qm[8 + i].first_queue = 33 + 4 * i;
        gaudi_reg_claim(g, qs->qm[8 + i].base,
                        qs->qm[8 + i].base + QM_BLOCK_SIZE,
                        qm_range_read, qm_range_write);
    }
    for (i = 0; i < GAUDI_NUM_TPC; i++) {
        struct gaudi_qman *q = &qs->qm[10 + i];

        q->base = mmTPC0_QM_BASE + i * GAUDI_TPC_STRIDE;
        q->dma = -1;
        q->event = GAUDI_EVENT_TPC0_QM + i;
        q->razwi_id = RAZWI_ID(tpc_xy[i][0], tpc_xy[i][1], AXI_ID_TPC);
        q->first_queue = 41 + 4 * i;
        gaudi_reg_claim(g, q->base, q->base + QM_BLOCK_SIZE,
                        qm_range_read, qm_range_write);
    }
    for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
        struct gaudi_qman *q = &qs->qm[18 + i];

        q->base = GAUDI_NIC_PORT_MACRO(i) +
                  ((i & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);
        q->dma = -1;
        q->event = GAUDI_EVENT_NIC0_QM0 + i;
        /*
         * Upstream's RAZWI decoding names NIC 0 at X/Y (1, 1) and NICs 4
         * and 5 at (8, 6) with AXI id NIC (3); the other macros' places
         * are not public: the model gives each macro macro 0's place.
         */
        q->razwi_id = i / 2 == 2 ? RAZWI_ID(8, 6, AXI_ID_NIC) :
                      RAZWI_ID(1, 1, AXI_ID_NIC);
        q->first_queue = GAUDI_NIC_FIRST_QUEUE + 4 * i;
        gaudi_reg_claim(g, q->base, q->base + QM_BLOCK_SIZE, qm_range_read,
                        qm_range_write);
    }
    gaudi_reg_claim(g, mmDMA0_CORE_BASE, mmDMA0_CORE_BASE +
                    GAUDI_NUM_DMA * GAUDI_DMA_STRIDE,
                    dma_range_read, dma_range_write);
    gaudi_reg_claim(g, mmPCIE_CORE_MSI_REQ, mmPCIE_CORE_MSI_REQ + 4, NULL,
                    msi_req_write);
    gaudi_reg_claim(g, GAUDI_MODEL_CTL_BASE + GAUDI_CTL_QM_HANG,
                    GAUDI_MODEL_CTL_BASE + GAUDI_CTL_QM_END, ctl_read,
                    ctl_write);
}

void gaudi_qman_reset(struct gaudi_core *g)
{
    struct gaudi_qmans *qs = &g->qm;
    unsigned int i, s;

    qs->errors = 0;
    qs->pend = 0;
    for (i = 0; i < GAUDI_NUM_QMANS; i++) {
        for (s = 0; s < GAUDI_QM_STREAMS; s++) {
            memset(&qs->qm[i].s[s], 0, sizeof(qs->qm[i].s[s]));
        }
        qs->qm[i].pend = 0;
        qs->qm[i].arb_holder = -1;
        qs->qm[i].arb_last = -1;
        qs->qm[i].arb_run = 0;
        gaudi_reg_set(g, qs->qm[i].base + QM_CGM_STS, QM_CGM_STS_AGENT_IDLE);
    }
    /* Idle engine status upstream's idle check reads. */
    for (i = 0; i < GAUDI_NUM_MME; i++) {
        gaudi_reg_set(g, mmMME0_CTRL_BASE + i * GAUDI_MME_STRIDE,
                      MME_CTRL_ARCH_STATUS_IDLE);
    }
    for (i = 0; i < GAUDI_NUM_TPC; i++) {
        gaudi_reg_set(g, mmTPC0_CFG_BASE + i * GAUDI_TPC_STRIDE +
                      TPC_CFG_STATUS, TPC_CFG_STATUS_IDLE);
        gaudi_reg_set(g, mmTPC0_CFG_BASE + i * GAUDI_TPC_STRIDE +
                      TPC_CFG_WQ_INFLIGHT_CNTR, 0);
    }
}

void gaudi_qman_tick(struct gaudi_core *g)
{
    /* Work is driven by register writes and scheduled steps. */
    (void)g;
}
