/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The network oracle (issue 22; Documentation/emulator/nic.rst "Remote
 * peers"): card 1 is the holder's card with its region table, QP
 * extensions and connections set up as the driver does; the input is a
 * sequence of 8-byte operations: remote frames (requests and ACK/NAKs
 * with mutated fields, from the peer or a stranger, replays) interleaved
 * with the holder's own changes (close, re-create of a connection, a
 * device reset, its own send WQEs, time passing).  The oracle watches every access card 1's NIC
 * makes as a user engine (the model's transaction monitor) and fails on
 *   - a write outside a live region of the connection the frame is for,
 *     with remote-write access, of the current generation, or a WRITE
 *     MIDDLE/LAST continuing a message of an earlier connection;
 *   - a sync-object write outside the remote-SOB window, any other
 *     configuration-space access, any access to the driver's memory;
 *   - a read other than the holder's own send queue and data, its
 *     receive queue and CQ record, or (a READ the peer asked for) inside
 *     the live region with remote-read access;
 *   - a SEND's write outside the buffer of the receive WQE the engine took
 *     last, or with no SEND begun on this connection; a READ response's
 *     write outside the holder's READ WQE's buffer (issue 25).
 * An input whose first byte has bit 7 set runs QP 1 through the verbs
 * setup path instead (issue 25): the entries gaudi.ko's RDMA ops
 * (kernel/gaudi_cn.h struct gaudi_cn_rdma_ops, kernel/gaudi_roce.c) write
 * for gaudi_ib.ko's modify_qp, reg_mr and dereg_mr, in gaudi_ib.c's order
 * (nv_*() below); the same rules hold, with the regions entered per QP at
 * RTR, the remote VA offset of a verbs QP, no remote SOB, and a QP in ERR
 * or a deregistered region reaching nothing.
 * Used by test_netoracle.c (the seeds as TAP) and fuzz_roce.c (libFuzzer).
 */
#ifndef NETORACLE_H
#define NETORACLE_H

#include "rocebed.h"

#define NO_PORT		2
#define NO_QP		1		/* the holder's responder QP */
#define NO_REQ_QP	2		/* the holder's requester QP */
#define NO_EXT_HBM	0x3000000ULL
#define NO_MR_HBM	0x3100000ULL
#define NO_MR_LOG	4
#define NO_MR_IDX	1
#define NO_REGION	(VA_BUF + 0x1000)
#define NO_REGION_LEN	0x4000ULL
#define NO_DRIVER_HBM	0x18000000ULL
#define NO_OP_SIZE	8
/* Issue 25: QP 1 is a verbs QP; its receive queue and CQ (VA_SQ + ...). */
#define NO_CQT_HBM	0x3200000ULL
#define NO_RQ		(VA_SQ + 0xC000ULL)
#define NO_RQ_LOG	4
#define NO_RQ_N		(1U << NO_RQ_LOG)
#define NO_RCQ		2
#define NO_RCQ_RING	(VA_SQ + 0xD000ULL)
#define NO_RCQ_LOG	6
#define NO_RECV		(VA_BUF + 0x20000ULL)	/* receive buffers */
#define NO_RECV_LEN	0x400U
#define NO_OWN		(VA_BUF + 0x30000ULL)	/* the holder's send data */
#define NO_RDST		(VA_BUF + 0x38000ULL)	/* its READ's buffer */
#define NO_EQ_HBM	0x3300000ULL		/* the CQ event queue (driver's) */
#define NO_PEER_QP	7			/* card 0's QP of the verbs path */

struct netoracle {
	bool verbs;			/* QP 1 through the verbs setup path */
	bool claimed;			/* verbs: INIT or later (qp_claim) */
	bool rts;			/* verbs: its requester context set */
	bool mr_live;			/* verbs: its region entered, not dereg'd */
	uint32_t mtu_code;		/* verbs: the path MTU of RTS */
	bool open;			/* QP 1's connection */
	uint32_t gen, key, old_key;
	uint32_t expected;		/* the PSN the holder's QP starts at */
	bool first_seen;		/* a FIRST/ONLY with the key since open */
	bool read_ok;			/* the region has remote-read access */
	bool send_seen;			/* a SEND FIRST/ONLY since open */
	bool read_posted;		/* the holder posted a READ */
	unsigned int reads;		/* allowed reads of the region */
	unsigned int recv_writes;	/* allowed writes into a receive buffer */
	/* The frame being handled (card 1's accesses belong to it). */
	bool in_frame;
	uint32_t qpn;
	bool sob_ok;
	char why[256];
	unsigned int violations;
	unsigned int writes;		/* allowed writes into the region */
	uint8_t last[MAXF + 64];
	size_t last_len;
};

static struct netoracle NO;
/* Test of the oracle itself: the model's region this much larger. */
static uint64_t no_model_slack;

static inline void no_fail(const char *what, const struct gaudi_txn *t)
{
	if (NO.violations++)
		return;
	snprintf(NO.why, sizeof(NO.why),
		 "%s: %s of %llu bytes at 0x%llx (pa 0x%llx), frame for QP %u",
		 what, t->write ? "write" : "read", (unsigned long long)t->len,
		 (unsigned long long)t->addr, (unsigned long long)t->pa,
		 NO.qpn);
}

static inline bool no_inside(uint64_t a, uint64_t len, uint64_t start,
			     uint64_t size)
{
	return a >= start && len <= size && a - start <= size - len;
}

static void no_txn(void *opaque, const struct gaudi_txn *t)
{
	(void)opaque;
	if (t->kind != GAUDI_INIT_NIC || t->secure ||
	    t->result != GAUDI_TXN_OK)
		return;
	if (t->pa >= GAUDI_CFG_BASE &&
	    t->pa < GAUDI_CFG_BASE + GAUDI_CFG_SIZE) {
		uint64_t off = t->pa - GAUDI_CFG_BASE;

		if (!t->write || !NO.in_frame || !NO.sob_ok ||
		    !no_inside(off, t->len, SOB_BASE, 4ULL * SOB_WINDOW))
			no_fail("configuration space", t);
		return;
	}
	if (!(t->addr >= GAUDI_VA_HOST_START && t->addr < GAUDI_VA_HOST_END)) {
		/* The bed's user memory is all behind the MMU. */
		no_fail("not the holder's mapped memory", t);
		return;
	}
	if (!t->write) {
		if (no_inside(t->addr, t->len, NO_REGION, NO_REGION_LEN)) {
			if (!NO.open || !NO.read_ok || !NO.mr_live)
				no_fail("a read of a region without "
					"remote-read access", t);
			else
				NO.reads++;
		} else if (!no_inside(t->addr, t->len,
				      VA_SQ + 0x2000ULL * NO_REQ_QP, 0x2000) &&
			   !no_inside(t->addr, t->len, NO_OWN, 0x8000) &&
			   !no_inside(t->addr, t->len, NO_RQ,
				      32ULL * NO_RQ_N + 4) &&
			   !no_inside(t->addr, t->len,
				      NO_RCQ_RING + (32ULL << NO_RCQ_LOG), 8)) {
			no_fail("a read beyond the holder's queues, data and "
				"region", t);
		}
		return;
	}
	if (no_inside(t->addr, t->len, VA_CQ, 8ULL * CQ_ENTRIES) ||
	    no_inside(t->addr, t->len, NO_RCQ_RING, 32ULL << NO_RCQ_LOG))
		return;			/* a CQE */
	if (no_inside(t->addr, t->len, NO_RDST, 0x8000)) {
		if (!NO.read_posted || !NO.in_frame || NO.qpn != NO_REQ_QP)
			no_fail("a write into the READ buffer not from a "
				"response to the holder's READ", t);
		return;
	}
	if (no_inside(t->addr, t->len, NO_RECV, NO_RECV_LEN * NO_RQ_N)) {
		uint32_t e[8], last;

		memcpy(e, W->fb[1].hbm + NO_EXT_HBM + 32ULL * NO_QP, 32);
		last = (e[3] - 1) % NO_RQ_N;	/* the WQE taken last */
		if (!NO.in_frame || NO.qpn != NO_QP || !NO.open ||
		    !NO.send_seen)
			no_fail("a receive-buffer write with no SEND of this "
				"connection", t);
		else if (!no_inside(t->addr, t->len,
				    NO_RECV + NO_RECV_LEN * last, NO_RECV_LEN))
			no_fail("a write outside the receive WQE's buffer", t);
		else
			NO.recv_writes++;
		return;
	}
	if (!NO.in_frame || NO.qpn != NO_QP || !NO.open)
		no_fail("a write with no open connection", t);
	else if (!no_inside(t->addr, t->len, NO_REGION, NO_REGION_LEN))
		no_fail("a write outside the region", t);
	else if (!NO.mr_live)
		no_fail("a write into a deregistered region", t);
	else if (!NO.first_seen)
		no_fail("a write continuing an earlier connection's message",
			t);
	else
		NO.writes++;
}

/* The driver's close: contexts and region invalid, cache invalidated. */
static inline void no_close(void)
{
	uint32_t e[16] = { 0 }, w[8] = { 0 };

	gateway(W->fb[1].g, NO_PORT, NO_QP, false, e);
	bed_table(1, NO_PORT, QPC_GW_TABLE_MR, NO_MR_IDX, w);
	wr(W->fb[1].g, qpc(NO_PORT, NIC_QPC_RES_QPC_CACHE_INVALIDATE), 1);
	NO.open = false;
	NO.first_seen = false;
	NO.send_seen = false;
}

/* The holder's 16 receive WQEs of QP 1, one buffer each, all posted. */
static inline void no_post_recv(void)
{
	uint32_t i, pi = NO_RQ_N;

	for (i = 0; i < NO_RQ_N; i++) {
		uint64_t b = NO_RECV + NO_RECV_LEN * i;
		uint32_t r[8] = { (uint32_t)b, (uint32_t)(b >> 32),
				  NO_RECV_LEN, 0, i, 0, 0, 0 };

		memcpy(W->fb[1].hbm + SQ_HBM + (NO_RQ - VA_SQ) + 32ULL * i, r,
		       32);
	}
	memcpy(W->fb[1].hbm + SQ_HBM + (NO_RQ - VA_SQ) + 32ULL * NO_RQ_N, &pi,
	       4);
}

/* The region entry of QP 1's generation, key NO.key (rd: remote read). */
static inline void no_region(bool rd)
{
	uint32_t w[8] = { 0 };

	w[0] = (uint32_t)NO_REGION;
	w[1] = (uint32_t)(NO_REGION >> 32);
	w[2] = (uint32_t)(NO_REGION_LEN + no_model_slack);
	w[4] = NO.key;
	w[5] = NO_QP | NO.gen << MR_W5_GEN_SHIFT;
	w[6] = MR_W6_VALID | MR_W6_REMOTE_WRITE | (rd ? MR_W6_REMOTE_READ : 0);
	bed_table(1, NO_PORT, QPC_GW_TABLE_MR, NO_MR_IDX, w);
}

/*
 * The driver's create: a new generation and key (the allocator gives the
 * same QPN and the same VA again), the extension, the region, then the
 * responder context, as h22k's driver orders it.
 */
static inline void no_create(uint32_t psn, bool rd)
{
	uint32_t w[8] = { 0 };

	NO.gen = (NO.gen + 1) & 0xFF;
	NO.old_key = NO.key;
	NO.key = ((0x9E3779B1U * (NO.gen + 7)) & ~0xFFU) | NO_MR_IDX;
	/* A verbs QP: 16 receive WQEs posted, its receive CQ. */
	no_post_recv();
	w[0] = EXT_MTU_4096 | 7U << EXT_W0_RNR_RETRY_SHIFT |
	       1U << EXT_W0_MIN_RNR_SHIFT | EXT_W0_VERBS |
	       NO.gen << EXT_W0_GEN_SHIFT | EXT_W0_VALID;
	w[1] = (uint32_t)NO_RQ;
	w[2] = ((uint32_t)(NO_RQ >> 32) & EXT_W2_RQ_ADDR_HI) |
	       NO_RQ_LOG << EXT_W2_RQ_LOG_SHIFT;
	w[4] = NO_RCQ | NO_RCQ << EXT_W4_RECV_CQ_SHIFT;
	bed_table(1, NO_PORT, QPC_GW_TABLE_EXT, NO_QP, w);
	memset(w, 0, sizeof(w));
	no_region(rd);
	connect(NO_PORT, NO_QP, NO_QP, NO.key, psn);
	NO.open = true;
	NO.mr_live = true;
	NO.first_seen = false;
	NO.send_seen = false;
	NO.read_ok = rd;
	NO.expected = psn;
}

/* The holder's requester QP 2 on card 1, to the peer's QP 7 on card 0. */
static inline void no_requester(void)
{
	bed_requester(1, NO_PORT, NO_REQ_QP, 7, RKEY, 1000);
}

/* The driver's tables of card 1 (at set-up and again after a reset). */
static inline void no_tables(void)
{
	bed_tables(1, NO_PORT, NO_EXT_HBM, NO_MR_HBM, NO_MR_LOG, NO_CQT_HBM, 2);
	{
		uint32_t w[8] = { 0 };

		w[0] = (uint32_t)NO_RCQ_RING;
		w[1] = ((uint32_t)(NO_RCQ_RING >> 32) & CQT_W1_ADDR_HI) |
		       NO_RCQ_LOG << CQT_W1_LOG_SHIFT;
		w[3] = CQT_W3_VALID;
		if (NO.verbs) {
			struct gaudi_core *g = W->fb[1].g;

			/* gaudi_roce.c's port_open and roce_v_cq(). */
			w[3] |= CQT_W3_EVENTS;
			wr(g, qpc(NO_PORT, NIC_QPC_CQ_EQ_BASE_49_18),
			   (uint32_t)(NO_EQ_HBM >> 18));
			wr(g, qpc(NO_PORT, NIC_QPC_CQ_EQ_BASE_17_7),
			   (uint32_t)(NO_EQ_HBM >> 7) & 0x7FF);
			wr(g, qpc(NO_PORT, NIC_QPC_CQ_EQ_MASK), 63);
		}
		bed_table(1, NO_PORT, QPC_GW_TABLE_CQ, NO_RCQ, w);
	}
}

/*
 * A device reset of card 1 and the driver's bring-up after it: every
 * connection and region ended (the tables zeroed), nothing of them may be
 * reached until the holder creates them again.
 */
static inline void no_reset(void)
{
	struct gaudi_core *g = W->fb[1].g;

	NO.open = false;
	NO.first_seen = false;
	/* Every QP of the RDMA driver is in error; the next INIT claims. */
	NO.claimed = false;
	NO.rts = false;
	NO.mr_live = false;
	gaudi_core_reset(g);
	memset(W->fb[1].hbm + REQ_QPC_HBM, 0, 64ULL * GAUDI_ROCE_MAX_QPN);
	memset(W->fb[1].hbm + RES_QPC_HBM, 0, 32ULL * GAUDI_ROCE_MAX_QPN);
	memset(W->fb[1].hbm + NO_EXT_HBM, 0, 32ULL * GAUDI_ROCE_MAX_QPN);
	memset(W->fb[1].hbm + NO_MR_HBM, 0, 32U << NO_MR_LOG);
	memset(W->fb[1].hbm + NO_CQT_HBM, 0, 32U << 2);
	NO.read_posted = false;
	card_program(1, NO_PORT);
	no_tables();
	no_requester();
}

/* ---- the verbs setup path (issue 25) ---------------------------------- */

/*
 * Entry idx of table t of card 1's port, the words of keep (bit i: word
 * i) left as they are: gaudi_roce.c's tbl_write() with a mask.
 */
static inline void nv_table(unsigned int t, uint32_t idx, const uint32_t *w,
			    unsigned int keep)
{
	struct gaudi_core *g = W->fb[1].g;
	unsigned int i;

	for (i = 0; i < NIC_QPC_GW_WORDS; i++) {
		wr(g, qpc(NO_PORT, NIC_QPC_GW_MASK(i)),
		   i < 8 && !(keep & 1U << i) ? 0xFFFFFFFFU : 0);
		wr(g, qpc(NO_PORT, NIC_QPC_GW_DATA(i)), i < 8 ? w[i] : 0);
	}
	wr(g, qpc(NO_PORT, NIC_QPC_GW_CTRL), idx | t << QPC_GW_CTRL_TABLE_SHIFT);
	wr(g, qpc(NO_PORT, NIC_QPC_GW_BUSY), 1);
}

/*
 * QP 1's extension entry as ext_write() writes a verbs QP's: path MTU
 * code mtu, RNR retry without limit, its generation, the remote VA
 * offset GAUDI_VA_HOST_START, its receive queue and CQs; once set up,
 * word 3 (the engine's receive CI) kept.
 */
static inline void nv_ext(uint32_t mtu, bool keep_ci)
{
	uint32_t w[8] = { 0 };

	w[0] = EXT_W0_VALID | NO.gen << EXT_W0_GEN_SHIFT |
	       EXT_RNR_RETRY_INFINITE << EXT_W0_RNR_RETRY_SHIFT |
	       (mtu & EXT_W0_PATH_MTU) | EXT_W0_VERBS |
	       (1U << EXT_W0_MIN_RNR_SHIFT & EXT_W0_MIN_RNR);
	w[1] = (uint32_t)NO_RQ;
	w[2] = ((uint32_t)(NO_RQ >> 32) & EXT_W2_RQ_ADDR_HI) |
	       NO_RQ_LOG << EXT_W2_RQ_LOG_SHIFT;
	w[4] = NO_RCQ | NO_RCQ << EXT_W4_RECV_CQ_SHIFT;
	w[5] = (uint32_t)GAUDI_VA_HOST_START;
	w[6] = (uint32_t)(GAUDI_VA_HOST_START >> 32);
	nv_table(QPC_GW_TABLE_EXT, NO_QP, w, keep_ci ? 1U << 3 : 0);
}

/* qpc_clear(): both contexts of QP 1 zeroed. */
static inline void nv_qpc_clear(void)
{
	uint32_t e[16] = { 0 };

	gateway(W->fb[1].g, NO_PORT, NO_QP, true, e);
	gateway(W->fb[1].g, NO_PORT, NO_QP, false, e);
}

/*
 * RESET -> INIT (gaudi_ib.c qp_claim(), @qp_claim): stale contexts
 * cleared, a new generation, the extension entry whole with MTU 4096; the
 * receive WQEs the holder posted and its CQ armed.
 */
static inline void nv_claim(void)
{
	uint32_t arm = NO.gen + 1;
	uint8_t *rcq = W->fb[1].hbm + SQ_HBM + (NO_RCQ_RING - VA_SQ);

	nv_qpc_clear();
	NO.gen = (NO.gen + 1) & 0xFF;
	no_post_recv();
	/* The consumer record: CI as it is, a new arm sequence. */
	memcpy(rcq + (32ULL << NO_RCQ_LOG) + 4, &arm, 4);
	nv_ext(EXT_MTU_4096, false);
	NO.claimed = true;
	NO.rts = false;
	NO.open = false;
	NO.mr_live = false;
	NO.first_seen = false;
	NO.send_seen = false;
}

/*
 * INIT -> RTR (qp_to_rtr(): @qp_set_res, then mr_bind() of the PD's
 * region): the responder context with no key of its own and no remote
 * SOB, then the region entry for this QP and generation.
 */
static inline void nv_rtr(uint32_t psn, bool rd)
{
	bed_responder(NO_PORT, NO_QP, NO_PEER_QP, 0, psn, false);
	NO.old_key = NO.key;
	NO.key = ((0x9E3779B1U * (NO.gen + 7)) & ~0xFFU) | NO_MR_IDX;
	no_region(rd);
	NO.open = true;
	NO.mr_live = true;
	NO.read_ok = rd;
	NO.expected = psn;
	NO.first_seen = false;
	NO.send_seen = false;
}

/*
 * RTR -> RTS (qp_to_rts(), @qp_set_req): the extension entry again with
 * the path MTU (its receive CI kept; the engine's state of the QP ends),
 * then the requester context with no key of its own.
 */
static inline void nv_rts(uint32_t mtu)
{
	NO.mtu_code = mtu;
	nv_ext(mtu, true);
	bed_requester(1, NO_PORT, NO_QP, NO_PEER_QP, 0, 500);
	NO.rts = true;
	/* The engine's state of the QP ended: a message starts anew. */
	NO.first_seen = false;
	NO.send_seen = false;
}

/* To ERR (@qp_reset): both contexts invalid; entries and region stay. */
static inline void nv_err(void)
{
	nv_qpc_clear();
	NO.open = false;
	NO.rts = false;
	NO.first_seen = false;
	NO.send_seen = false;
}

/* DEREG_MR of the region (mr_unbind(), @mr_clear): its entry zeroed. */
static inline void nv_dereg(void)
{
	uint32_t w[8] = { 0 };

	if (!NO.mr_live)
		return;
	nv_table(QPC_GW_TABLE_MR, NO_MR_IDX, w, 0);
	NO.mr_live = false;
}

/*
 * To RESET (qp_unclaim(), @qp_release = conn_end()): contexts, the
 * extension entry and the QP's regions zeroed.
 */
static inline void nv_release(void)
{
	uint32_t w[8] = { 0 };

	nv_qpc_clear();
	nv_table(QPC_GW_TABLE_EXT, NO_QP, w, 0);
	nv_table(QPC_GW_TABLE_MR, NO_MR_IDX, w, 0);
	NO.claimed = false;
	NO.rts = false;
	NO.open = false;
	NO.mr_live = false;
	NO.first_seen = false;
	NO.send_seen = false;
}

/*
 * A new QP on the same number (RESET -> INIT -> RTR [-> RTS]) as the
 * verbs program's modify_qp calls: with read access rd, RTS at MTU 1024
 * (mtu1k) or 4096 unless rtr_only.
 */
static inline void nv_create(uint32_t psn, bool rd, bool rtr_only, bool mtu1k)
{
	if (NO.claimed)
		nv_release();
	nv_claim();
	nv_rtr(psn, rd);
	if (!rtr_only)
		nv_rts(mtu1k ? EXT_MTU_4096 - 2 : EXT_MTU_4096);
}

/*
 * Operation 4 on the verbs path: a device reset (a0 bit 0), else by bits
 * 2:1 RESET, ERR, DEREG_MR of the region, RTR -> RTS at MTU 1024 (for a
 * QP left at RTR).
 */
static inline void nv_op4(uint8_t a0)
{
	switch ((a0 >> 1) & 3) {
	case 0:
		if (NO.claimed)
			nv_release();
		break;
	case 1:
		if (NO.claimed)
			nv_err();
		break;
	case 2:
		nv_dereg();
		break;
	default:
		if (NO.claimed && NO.open && !NO.rts)
			nv_rts(EXT_MTU_4096 - 2);
	}
}

static inline void no_setup(bool verbs)
{
	two_cards(NO_PORT, NULL);
	memset(&NO, 0, sizeof(NO));
	NO.verbs = verbs;
	no_tables();
	if (verbs)
		nv_create(0, true, false, false);
	else
		no_create(0, true);
	no_requester();
	W->dead = true;			/* the peer is the input */
	W->fb[1].g->bus.txn = no_txn;
}

static inline uint32_t no_res_expected(void)
{
	uint32_t s[8];

	memcpy(s, W->fb[1].hbm + RES_QPC_HBM + 32ULL * NO_QP, 32);
	return getbits(s, RES_QPC_EXPECTED_PSN_BIT, 24);
}

static inline uint32_t no_req_next(void)
{
	uint32_t r[16];

	memcpy(r, W->fb[1].hbm + REQ_QPC_HBM + 64ULL * NO_REQ_QP, 64);
	return getbits(r, REQ_QPC_NEXT_PSN_BIT, 24);
}

/*
 * Deliver a frame to card 1.  A FIRST/ONLY from the peer with the current
 * key at the expected PSN may start a message of this connection.
 */
static inline void no_deliver(const uint8_t *f, size_t len)
{
	uint8_t m1[6];
	uint8_t op = len >= 54 ? f[42] : 0;
	uint32_t qpn = len >= 54 ? be32(f + 46) & 0xFFFFFF : 0;

	mac_of(1, NO_PORT, m1);
	if (len >= 70 && NO.open && qpn == NO_QP && !memcmp(f, m1, 6) &&
	    be32(f + 26) == ip_of(0) && be32(f + 30) == ip_of(1) &&
	    (op == BED_FIRST || op == BED_ONLY || op == BED_ONLY_IMM) &&
	    (be32(f + 50) & 0xFFFFFF) == no_res_expected() &&
	    be32(f + 62) == NO.key)
		NO.first_seen = true;
	if (len >= 58 && NO.open && qpn == NO_QP && !memcmp(f, m1, 6) &&
	    be32(f + 26) == ip_of(0) && be32(f + 30) == ip_of(1) &&
	    (op == BED_SEND_FIRST || op == BED_SEND_ONLY ||
	     op == BED_SEND_ONLY_IMM) &&
	    (be32(f + 50) & 0xFFFFFF) == no_res_expected())
		NO.send_seen = true;
	NO.in_frame = true;
	NO.qpn = qpn;
	/* The RDMA driver never enables the remote SOB (gaudi_roce.c). */
	NO.sob_ok = NO.open && qpn == NO_QP && !NO.verbs;
	gaudi_nic_receive(W->fb[1].g, NO_PORT, f, len);
	NO.in_frame = false;
	memcpy(NO.last, f, len);
	NO.last_len = len;
}

static const uint8_t no_ops[8] = {
	BED_FIRST, BED_MIDDLE, BED_LAST, BED_ONLY, BED_ONLY_IMM, 0x09,
	BED_ACK, 0x11,
};
/* Issue 25's opcodes (an opcode byte with bit 6). */
static const uint8_t no_ops2[8] = {
	BED_SEND_FIRST, BED_SEND_MIDDLE, BED_SEND_LAST_IMM, BED_SEND_ONLY,
	BED_READ, BED_RESP_FIRST, BED_RESP_LAST, BED_RESP_ONLY,
};

/* One remote frame from the 7 bytes after the opcode. */
static inline void no_frame(const uint8_t *a)
{
	static uint8_t page[4096], f[MAXF + 64];
	static const uint8_t stranger[6] = { 0x02, 0, 0, 0, 0, 0x66 };
	struct bedpkt k = { 0 };
	uint32_t exp = no_res_expected();
	size_t len;

	memset(page, a[6], sizeof(page));
	k.op = a[0] & 0x80 ? a[0] : a[0] & 0x40 ? no_ops2[a[0] & 7] :
	       no_ops[a[0] & 7];
	k.qpn = (a[1] & 3) == 0 ? NO_QP : (a[1] & 3) == 1 ? NO_REQ_QP :
		(a[1] & 3) == 2 ? 3 : (uint32_t)a[1] << 16 | a[2];
	switch (a[2] & 3) {
	case 0:
		k.psn = exp;
		break;
	case 1:
		k.psn = (exp - 1) & 0xFFFFFF;
		break;
	case 2:
		k.psn = (exp + 1 + (a[2] >> 2)) & 0xFFFFFF;
		break;
	default:
		k.psn = (uint32_t)a[2] << 8 | a[3];
	}
	switch (a[3] & 7) {
	case 0:
		k.va = NO_REGION + 16ULL * a[4];
		break;
	case 1:
		k.va = NO_REGION + NO_REGION_LEN - 16ULL * a[4];
		break;
	case 2:
		k.va = NO_REGION - 16ULL * a[4];
		break;
	case 3:
		k.va = SOB_BASE + 4ULL * (a[4] * 3U);	/* a SOB, near the window */
		break;
	case 4:
		k.va = GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4ULL * a[4];
		break;
	case 5:
		k.va = NO_DRIVER_HBM + 64ULL * a[4];
		break;
	case 6:
		k.va = VA_SQ + 0x2000ULL * NO_REQ_QP + 32ULL * a[4];
		break;
	default:
		k.va = VA_HOLE + 4096ULL * a[4];
	}
	/* A verbs QP adds GAUDI_VA_HOST_START: the peer names what is below. */
	if (NO.verbs)
		k.va -= GAUDI_VA_HOST_START;
	switch (a[5] & 3) {
	case 0:
		k.rkey = NO.key;
		break;
	case 1:
		k.rkey = NO.old_key;
		break;
	case 2:
		k.rkey = (NO.key ^ 0x5A5A0000U);
		break;
	default:
		k.rkey = RKEY;
	}
	k.len = (a[6] & 0x7F) * 64U + (a[5] >> 6);
	if (k.len > 4096 + 64)
		k.len = 4096 + 64;
	k.dlen = k.op == BED_FIRST ? k.len + ((a[5] >> 2) & 7) * 4096U :
		 k.len;
	if (k.op == BED_ONLY_IMM && (a[6] & 0x80)) {
		k.len = k.dlen = 0;		/* the remote SOB write */
		k.imm = 0x80000001U;
	}
	k.data = page;
	if (k.op == BED_SEND_LAST_IMM)
		k.imm = 0x12345678U;
	if (k.op == BED_READ) {
		k.dlen = k.len + ((a[5] >> 2) & 7) * 4096U;
		k.len = 0;
	}
	if (k.op >= BED_RESP_FIRST && k.op <= BED_RESP_ONLY) {
		uint32_t next = no_req_next();

		k.aeth = BED_AETH_ACK;
		k.psn = a[4] & 8 ? (next - 1 - (a[3] & 7)) & 0xFFFFFF :
				   (uint32_t)a[3] << 8 | a[4];
	}
	if (k.op == BED_ACK || k.op == 0x11) {
		static const uint8_t syn[8] = {
			0x1F, 0x60, 0x61, 0x62, 0x20, 0x21, 0x2E, 0x40,
		};
		uint32_t next = no_req_next();

		k.aeth = syn[a[4] & 7];
		k.psn = a[4] & 8 ? (next - 1 - (a[3] & 7)) & 0xFFFFFF :
				   (uint32_t)a[3] << 8 | a[4];
		k.len = k.dlen = 0;
	}
	if (a[5] & 0x10)
		k.src_ip = 0x0A000063U;		/* a stranger */
	if (a[5] & 0x20)
		k.dst_mac = stranger;
	if (k.len > sizeof(page))
		k.len = k.dlen = sizeof(page);
	len = bed_frame(NO_PORT, 0, &k, f);
	no_deliver(f, len);
}

/* The holder's own send WQE on QP 2 (local address chosen by a[0]). */
static inline void no_wqe(const uint8_t *a)
{
	static const uint64_t la[4] = {
		NO_OWN, NO_DRIVER_HBM, GAUDI_CFG_BASE + SOB_BASE, VA_HOLE,
	};
	uint32_t r[16], ci;

	memcpy(r, W->fb[1].hbm + REQ_QPC_HBM + 64ULL * NO_REQ_QP, 64);
	ci = getbits(r, REQ_QPC_CONSUMER_INDEX_BIT, 22) % SQ_ENTRIES;
	bed_post(1, NO_REQ_QP, ci, la[a[0] & 3] + 16ULL * a[1], VA_BUF,
		 (uint32_t)a[2] * 32, -1);
	if (a[0] & 4) {
		/* An RDMA READ (issue 25) into its buffer, or a SEND. */
		uint8_t *q = W->fb[1].hbm + SQ_HBM + 0x2000ULL * NO_REQ_QP +
			     32ULL * ci;
		uint32_t w0 = (a[0] & 8 ? WQE_SEND : WQE_READ) <<
			      NIC_WQE_OPCODE_SHIFT;
		uint32_t l = (a[0] & 8) ? (uint32_t)(la[a[0] & 3] + 16ULL * a[1]) :
			     (uint32_t)NO_RDST;

		memcpy(q, &w0, 4);
		if (!(a[0] & 8)) {
			uint32_t w2;

			memcpy(&w2, q + 8, 4);
			w2 = (w2 & ~NIC_WQE_LOCAL_ADDR_HI) |
			     ((uint32_t)(NO_RDST >> 32) & NIC_WQE_LOCAL_ADDR_HI);
			memcpy(q + 4, &l, 4);
			memcpy(q + 8, &w2, 4);
			NO.read_posted = true;
		}
	}
	NO.in_frame = false;
	wr(W->fb[1].g, qpc(NO_PORT, NIC_QPC_UNSECURED_DOORBELL_PI),
	   (ci + 1) % SQ_ENTRIES);
	wr(W->fb[1].g, qpc(NO_PORT, NIC_QPC_UNSECURED_DOORBELL_QPN),
	   QPC_DOORBELL_BUSY | NO_REQ_QP);
}

/*
 * Run one input; 0 if the oracle saw nothing wrong, else 1 with why.
 * Operations (8 bytes each, the first selects): 0-3 a remote frame,
 * 4 close (or a device reset; on the verbs path nv_op4()), 5 re-create,
 * 6 the holder's WQE, 7 time passes or a replay.  Bit 7 of the first
 * byte: QP 1 through the verbs setup path (nv_*()).
 */
static inline int no_run(const uint8_t *d, size_t n, char *why, size_t wl)
{
	size_t i;

	no_setup(n && (d[0] & 0x80));
	for (i = 0; i + NO_OP_SIZE <= n && !NO.violations; i += NO_OP_SIZE) {
		const uint8_t *a = d + i + 1;

		switch (d[i] & 7) {
		case 0: case 1: case 2: case 3:
			no_frame(a);
			break;
		case 4:
			if (a[0] & 1)
				no_reset();
			else if (NO.verbs)
				nv_op4(a[0]);
			else
				no_close();
			break;
		case 5:
			if (NO.verbs) {
				nv_create((uint32_t)a[0] << 8 | a[1], a[2] & 1,
					  a[2] & 2, a[2] & 4);
				break;
			}
			if (NO.open)
				no_close();
			no_create((uint32_t)a[0] << 8 | a[1], a[2] & 1);
			break;
		case 6:
			no_wqe(a);
			break;
		default:
			if (a[0] & 1 && NO.last_len) {
				static uint8_t f[MAXF + 64];
				size_t l = NO.last_len;

				memcpy(f, NO.last, l);
				no_deliver(f, l);
			} else {
				W->fb[1].now += 1000000ULL * (a[1] + 1);
				gaudi_core_tick(W->fb[1].g);
			}
		}
		W->n = 0;
	}
	W->fb[1].g->bus.txn = NULL;
	bye();
	if (NO.violations) {
		snprintf(why, wl, "%s", NO.why);
		return 1;
	}
	return 0;
}

#endif /* NETORACLE_H */
