/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RoCE test bed shared by test_roce.c, test_roce_peer.c and
 * fuzz_roce.c: two cards cabled port to port through a fake wire, set up
 * as a driver does (contexts through the QPC gateway, send queues, data
 * and completion queue in user memory behind the device MMU), and the
 * test's own iCRC.
 */
#ifndef ROCEBED_H
#define ROCEBED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbgen.h"
#include "pgtable.h"

/* Device memory (HBM at device address 0) of each card. */
#define REQ_QPC_HBM	0x1000000ULL
#define RES_QPC_HBM	0x1100000ULL
#define ERR_FIFO_HBM	0x3800000ULL
#define SQ_HBM		0x7000000ULL	/* behind VA_SQ */
#define CQ_HBM		0x7010000ULL	/* behind VA_CQ */
#define BUF_HBM		0x8000000ULL	/* behind VA_BUF */
#define PGT_BASE	0x10000000ULL
#define PGT_POOL	0x10100000ULL
/* User virtual addresses (ASID 1). */
#define ASID		1
#define VA_SQ		(GAUDI_VA_HOST_START + 0x1000000ULL)
#define VA_CQ		(GAUDI_VA_HOST_START + 0x1010000ULL)
#define VA_BUF		(GAUDI_VA_HOST_START + 0x2000000ULL)
#define VA_HOLE		(GAUDI_VA_HOST_START + 0x4000000ULL) /* unmapped */
#define SQ_SIZE		0x10000ULL
#define BUF_SIZE	0x40000ULL	/* 256 KiB */
#define SQ_LOG		6		/* 256 WQEs per QP */
#define SQ_ENTRIES	(4 << SQ_LOG)
#define SQ_SEL		10
#define CQ_ENTRIES	512
#define SOB_BASE	mmSYNC_MNGR_E_N_SOB_OBJ_0
#define SOB_WINDOW	256	/* SOBs a peer may signal (RES_SOB_MIN..MAX) */
#define RKEY		0x1234ABCDU
#define PSN0		0xFFFFF0U	/* wraps through 0 */

#define qpc GAUDI_NIC_QPC_REG
#define rxe GAUDI_NIC_RXE_REG
#define txe GAUDI_NIC_TXE_REG

#define MAXF		GAUDI_ROCE_MAX_FRAME
#define QLEN		1024

struct qframe {
	unsigned int to, port;
	uint16_t len;
	uint8_t buf[MAXF];
};

/* The cable: frames queued and delivered by wire_run(), never nested. */
struct wire {
	struct fakebus fb[2];
	struct qframe q[QLEN];
	unsigned int head, n;
	bool dead;
	unsigned int ncap;		/* frames captured A -> B */
	struct qframe cap[16];
	unsigned int sent[2];
	int side[2];
};

static struct wire *W;

/* A test program's wire (W), for its whole run; out of memory: exit 1. */
static inline void bed_start(void)
{
	W = calloc(1, sizeof(*W));
	if (!W)
		exit(1);
}

static inline void bed_stop(void)
{
	free(W);
}

static inline void wire_send(void *opaque, unsigned int port, const void *frame,
		      size_t len)
{
	int from = *(int *)opaque;
	struct qframe *f;

	W->sent[from]++;
	if (from == 0 && W->ncap < 16 && len <= MAXF) {
		W->cap[W->ncap].len = (uint16_t)len;
		memcpy(W->cap[W->ncap++].buf, frame, len);
	}
	if (W->dead || W->n == QLEN || len > MAXF)
		return;
	f = &W->q[(W->head + W->n++) % QLEN];
	f->to = !from;
	f->port = port;
	f->len = (uint16_t)len;
	memcpy(f->buf, frame, len);
}

static inline void wire_run(void)
{
	unsigned int guard = 0;

	while (W->n && guard++ < 100000) {
		struct qframe *f = &W->q[W->head];

		W->head = (W->head + 1) % QLEN;
		W->n--;
		gaudi_nic_receive(W->fb[f->to].g, f->port, f->buf, f->len);
	}
}

/* Deliver, and let time pass (steps of one retransmission timeout) until
 * done() or max steps. */
static inline void settle(bool (*done)(void *), void *arg, unsigned int max)
{
	unsigned int i;

	for (i = 0; i < max; i++) {
		wire_run();
		if (done && done(arg))
			return;
		W->fb[0].now += GAUDI_ROCE_RTO_NS;
		W->fb[1].now += GAUDI_ROCE_RTO_NS;
		gaudi_core_tick(W->fb[0].g);
		gaudi_core_tick(W->fb[1].g);
	}
	wire_run();
}

static inline void wr(struct gaudi_core *g, uint32_t off, uint32_t v)
{
	gaudi_cfg_write(g, off, v);
}

static inline uint32_t getbits(const uint32_t *e, unsigned int bit,
			unsigned int width)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++)
		v |= ((e[(bit + i) / 32] >> ((bit + i) % 32)) & 1U) << i;
	return v;
}

static uint64_t pool[2];
static bool async_cards;

static inline void map_page(struct fakebus *fb, int side, uint64_t va,
			    uint64_t pa)
{
	pgt_map_page(fb, PGT_BASE, ASID, &pool[side], va, pa);
}

static inline void map_range(struct fakebus *fb, int side, uint64_t va,
			     uint64_t pa, uint64_t size)
{
	uint64_t o;

	for (o = 0; o < size; o += 0x1000)
		map_page(fb, side, va + o, pa + o);
}

static inline uint32_t ip_of(int side)
{
	return 0x0A000001U + side; /* 10.0.0.1, 10.0.0.2 */
}

static inline void mac_of(int side, unsigned int port, uint8_t *m)
{
	static const uint8_t oui[3] = { 0xB0, 0xFD, 0x0B };

	memcpy(m, oui, 3);
	m[3] = 0x10;
	m[4] = (uint8_t)side;
	m[5] = (uint8_t)port;
}

/*
 * The driver's register programming of card side's port p for RDMA (also
 * again after a device reset: the page tables stay in HBM).
 */
static inline void card_program(int side, unsigned int p)
{
	struct gaudi_core *g = W->fb[side].g;
	uint64_t hop0 = PGT_BASE + 0x1000ULL * ASID;
	uint64_t sq_base = VA_SQ;	/* wq_base_address n: + n * 8 KiB */
	uint32_t qm = GAUDI_NIC_PORT_MACRO(p) +
		      ((p & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);
	uint8_t mac[6];

	/* Tables and error FIFO. */
	wr(g, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_49_18), REQ_QPC_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_17_7), (REQ_QPC_HBM >> 7) & 0x7FF);
	wr(g, qpc(p, NIC_QPC_RES_BASE_ADDRESS_49_18), RES_QPC_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_RES_BASE_ADDRESS_17_7), (RES_QPC_HBM >> 7) & 0x7FF);
	wr(g, qpc(p, NIC_QPC_ERR_FIFO_BASE_ADDR_49_18), ERR_FIFO_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_ERR_FIFO_BASE_ADDR_17_7), ERR_FIFO_HBM & 0x3FF80);
	wr(g, qpc(p, NIC_QPC_ERR_FIFO_MASK), 63);
	wr(g, qpc(p, NIC_QPC_INTERRUPT_MASK), 1U << QPC_INTERRUPT_QP_ERR);
	wr(g, qpc(p, NIC_QPC_INTERRUPT_EN),
	   QPC_INTERRUPT_EN_WIRE(QPC_INTERRUPT_QP_ERR));
	wr(g, qpc(p, NIC_QPC_RES_SOB_MIN), SOB_BASE);
	wr(g, qpc(p, NIC_QPC_RES_SOB_MAX), SOB_BASE + 4 * (SOB_WINDOW - 1));
	/* Source MAC. */
	mac_of(side, p, mac);
	wr(g, txe(p, (p & 1) ? NIC_TXE_PORT1_MAC_CFG_47_32 :
		  NIC_TXE_PORT0_MAC_CFG_47_32), mac[0] << 8 | mac[1]);
	wr(g, txe(p, (p & 1) ? NIC_TXE_PORT1_MAC_CFG_31_0 :
		  NIC_TXE_PORT0_MAC_CFG_31_0),
	   (uint32_t)mac[2] << 24 | mac[3] << 16 | mac[4] << 8 | mac[5]);
	/* Send queues: window 0, QP n's queue at VA_SQ + n * 8 KiB. */
	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_49_32(0)), sq_base >> 32);
	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_31_0(0)), (uint32_t)sq_base);
	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_SEL), SQ_SEL);
	wr(g, txe(p, NIC_TXE_LOG_MAX_WQ_SIZE(0)), SQ_LOG);
	/* Completion queue 0. */
	wr(g, rxe(p, NIC_RXE_CQ_BASE_ADDR_49_32), VA_CQ >> 32);
	wr(g, rxe(p, NIC_RXE_CQ_BASE_ADDR_31_7), (uint32_t)VA_CQ >> 7);
	wr(g, rxe(p, NIC_RXE_CQ_MASK), CQ_ENTRIES - 1);
	wr(g, rxe(p, NIC_RXE_CQ_CFG0), ROCE_CQ_CFG0_ENABLE);
	/* The user's memory behind the MMU, ASID 1 in the NIC QMAN. */
	wr(g, mmMMU_UP_MMU_ASID, ASID);
	wr(g, mmMMU_UP_MMU_HOP0_PA43_12, hop0 >> 12);
	wr(g, mmMMU_UP_MMU_HOP0_PA49_44, hop0 >> 44);
	wr(g, mmMMU_UP_MMU_BUSY, 0x80000000U);
	wr(g, mmMMU_UP_MMU_ENABLE, 1);
	wr(g, qm + QM_GLBL_NON_SECURE_PROPS(0), ASID);
}

/* Card side, port p, as a driver would set it up for RDMA. */
static inline void card_setup(int side, unsigned int p,
			      const struct gaudi_identity *id)
{
	struct fakebus *fb = &W->fb[side];
	struct gaudi_core *g;
	struct gaudi_nic_backend be = { .send = wire_send };

	g = async_cards ? fakebus_new_async(fb, 0, 0) :
	    id ? fakebus_new_id(fb, id) : fakebus_new(fb);
	fb->quiet = true;
	W->side[side] = side;
	be.opaque = &W->side[side];
	gaudi_nic_set_backend(g, &be);
	gaudi_nic_set_link(g, p, true);
	pool[side] = PGT_POOL;
	map_range(fb, side, VA_SQ, SQ_HBM, SQ_SIZE);
	map_range(fb, side, VA_CQ, CQ_HBM, 0x1000);
	map_range(fb, side, VA_BUF, BUF_HBM, BUF_SIZE);
	card_program(side, p);
}

static inline void two_cards(unsigned int p, const struct gaudi_identity *id)
{
	memset(W, 0, sizeof(*W));
	card_setup(0, p, id);
	card_setup(1, p, id);
}

/*
 * The cable without its queue: each frame is received by the other card
 * inside the send that makes it, as QEMU's hub between the cards of one VM
 * delivers it (ACKs come back while the requester is still sending).
 */
static inline void direct_send(void *opaque, unsigned int port,
			       const void *frame, size_t len)
{
	int from = *(int *)opaque;

	W->sent[from]++;
	if (!W->dead)
		gaudi_nic_receive(W->fb[!from].g, port, frame, len);
}

static inline void bed_direct(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct gaudi_nic_backend be = {
			.opaque = &W->side[i], .send = direct_send,
		};

		gaudi_nic_set_backend(W->fb[i].g, &be);
	}
}

static inline void bye(void)
{
	fakebus_free(&W->fb[0]);
	fakebus_free(&W->fb[1]);
}

/* Write a context through the gateway as the driver does. */
static inline void gateway(struct gaudi_core *g, unsigned int p, uint32_t qpn,
		    bool req, const uint32_t *e)
{
	unsigned int i, words = req ? 16 : 8;

	for (i = 0; i < NIC_QPC_GW_WORDS; i++) {
		wr(g, qpc(p, NIC_QPC_GW_MASK(i)), i < words ? 0xFFFFFFFFU : 0);
		wr(g, qpc(p, NIC_QPC_GW_DATA(i)), i < words ? e[i] : 0);
	}
	wr(g, qpc(p, NIC_QPC_GW_CTRL), qpn | (req ? QPC_GW_CTRL_REQUESTER : 0));
	wr(g, qpc(p, NIC_QPC_GW_BUSY), 1);
}

/*
 * Entry idx of table t (QPC_GW_TABLE_EXT, _MR, _CQ: 32 bytes) of side's
 * port p, written whole through the gateway as the driver does.
 */
static inline void bed_table(int side, unsigned int p, unsigned int t,
			     uint32_t idx, const uint32_t *w)
{
	struct gaudi_core *g = W->fb[side].g;
	unsigned int i;

	for (i = 0; i < NIC_QPC_GW_WORDS; i++) {
		wr(g, qpc(p, NIC_QPC_GW_MASK(i)), i < 8 ? 0xFFFFFFFFU : 0);
		wr(g, qpc(p, NIC_QPC_GW_DATA(i)), i < 8 ? w[i] : 0);
	}
	wr(g, qpc(p, NIC_QPC_GW_CTRL), idx | t << QPC_GW_CTRL_TABLE_SHIFT);
	wr(g, qpc(p, NIC_QPC_GW_BUSY), 1);
}

/*
 * An MR table entry of port @p, slot @key's low @log bits: the region
 * [@start, +@len), word 5 (the QP number and what goes with it), the
 * access @flags and the protection domain @pd.
 */
static inline void bed_mr(int side, unsigned int p, unsigned int log,
			  uint32_t key, uint64_t start, uint64_t len,
			  uint32_t w5, uint32_t flags, uint32_t pd)
{
	uint32_t w[8] = { 0 };

	w[0] = (uint32_t)start;
	w[1] = (uint32_t)(start >> 32);
	w[2] = (uint32_t)len;
	w[3] = (uint32_t)(len >> 32);
	w[4] = key;
	w[5] = w5;
	w[6] = flags;
	w[7] = pd;
	bed_table(side, p, QPC_GW_TABLE_MR, key & ((1U << log) - 1), w);
}

/*
 * Side's port p enables the QP extension table at ext, the region table of
 * 2^mr_log entries at mr and the CQ table of 2^cqt_log at cqt (0: that
 * table stays off), as the driver's bring-up does.
 */
static inline void bed_tables(int side, unsigned int p, uint64_t ext,
			      uint64_t mr, uint32_t mr_log, uint64_t cqt,
			      uint32_t cqt_log)
{
	static const uint32_t regs[3][3] = {
		{ NIC_QPC_EXT_BASE_ADDRESS_49_18, NIC_QPC_EXT_BASE_ADDRESS_17_7,
		  NIC_QPC_EXT_CFG },
		{ NIC_QPC_MR_BASE_ADDRESS_49_18, NIC_QPC_MR_BASE_ADDRESS_17_7,
		  NIC_QPC_MR_CFG },
		{ NIC_QPC_CQT_BASE_ADDRESS_49_18, NIC_QPC_CQT_BASE_ADDRESS_17_7,
		  NIC_QPC_CQT_CFG },
	};
	const uint64_t at[3] = { ext, mr, cqt };
	const uint32_t cfg[3] = { EXT_CFG_ENABLE, MR_CFG_ENABLE | mr_log,
				  CQT_CFG_ENABLE | cqt_log };
	struct gaudi_core *g = W->fb[side].g;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (!at[i])
			continue;
		wr(g, qpc(p, regs[i][0]), (uint32_t)(at[i] >> 18));
		wr(g, qpc(p, regs[i][1]), (uint32_t)(at[i] >> 7) & 0x7FF);
		wr(g, qpc(p, regs[i][2]), cfg[i]);
	}
}

/*
 * Requester context qa of side from to responder qb of the other side
 * (rkey: the key it sends), written through the gateway.
 */
static inline void bed_requester(int from, unsigned int p, uint32_t qa,
				 uint32_t qb, uint32_t rkey, uint32_t psn)
{
	uint32_t r[16] = { 0 };
	uint8_t m[6];

	mac_of(!from, p, m);
	setbits(r, REQ_QPC_DST_QP_BIT, 24, qb);
	setbits(r, REQ_QPC_REMOTE_KEY_BIT, 32, rkey);
	setbits(r, REQ_QPC_DST_IP_BIT, 32, ip_of(!from));
	setbits(r, REQ_QPC_SRC_IP_BIT, 32, ip_of(from));
	setbits(r, REQ_QPC_DST_MAC_31_0_BIT, 32, (uint32_t)m[2] << 24 |
		m[3] << 16 | m[4] << 8 | m[5]);
	setbits(r, REQ_QPC_DST_MAC_47_32_BIT, 16, m[0] << 8 | m[1]);
	setbits(r, REQ_QPC_NEXT_PSN_BIT, 24, psn);
	setbits(r, REQ_QPC_OLDEST_UNACKED_PSN_BIT, 24, psn);
	setbits(r, REQ_QPC_WQ_BASE_ADDR_BIT, 24, qa);
	setbits(r, REQ_QPC_TRANSPORT_BIT, 1, QPC_TRANSPORT_RC);
	setbits(r, REQ_QPC_VALID_BIT, 1, 1);
	gateway(W->fb[from].g, p, qa, true, r);
}

/*
 * Responder context qb of card 1 for card 0's qa: local key key, the
 * expected PSN psn, the remote SOB on with sob.
 */
static inline void bed_responder(unsigned int p, uint32_t qb, uint32_t qa,
				 uint32_t key, uint32_t psn, bool sob)
{
	uint32_t s[8] = { 0 };
	uint8_t m0[6];

	mac_of(0, p, m0);
	setbits(s, RES_QPC_DST_QP_BIT, 24, qa);
	setbits(s, RES_QPC_LOCAL_KEY_BIT, 32, key);
	setbits(s, RES_QPC_DST_IP_BIT, 32, ip_of(0));
	setbits(s, RES_QPC_SRC_IP_BIT, 32, ip_of(1));
	setbits(s, RES_QPC_DST_MAC_31_0_BIT, 32, (uint32_t)m0[2] << 24 |
		m0[3] << 16 | m0[4] << 8 | m0[5]);
	setbits(s, RES_QPC_DST_MAC_47_32_BIT, 16, m0[0] << 8 | m0[1]);
	setbits(s, RES_QPC_EXPECTED_PSN_BIT, 24, psn);
	setbits(s, RES_QPC_TRANSPORT_BIT, 1, QPC_TRANSPORT_RC);
	setbits(s, RES_QPC_SOB_EN_BIT, 1, sob);
	setbits(s, RES_QPC_VALID_BIT, 1, 1);
	gateway(W->fb[1].g, p, qb, false, s);
}

/* Requester qa on card 0 -> responder qb on card 1 (rkey: the key sent). */
static inline void connect(unsigned int p, uint32_t qa, uint32_t qb,
			   uint32_t rkey, uint32_t psn)
{
	bed_requester(0, p, qa, qb, rkey, psn);
	bed_responder(p, qb, qa, RKEY, psn, true);
}

/* WQE idx of requester qa of side: RDMA WRITE (+ SOB increment). */
static inline void bed_post(int side, uint32_t qa, unsigned int idx,
			    uint64_t la, uint64_t ra, uint32_t size, int sob)
{
	uint32_t w[8] = { 0 };

	w[0] = WQE_LINEAR << NIC_WQE_OPCODE_SHIFT;
	w[1] = (uint32_t)la;
	w[2] = ((uint32_t)(la >> 32) & NIC_WQE_LOCAL_ADDR_HI) |
	       size << NIC_WQE_SIZE_SHIFT;
	w[3] = (uint32_t)ra;
	w[4] = (uint32_t)(ra >> 32) & NIC_WQE_REMOTE_ADDR_HI;
	if (sob >= 0) {
		w[5] = (SOB_BASE + 4 * sob) | NIC_WQE_SYNC_VALID;
		w[6] = SM_SOB_INC | 1;
	}
	memcpy(W->fb[side].hbm + SQ_HBM + 0x2000ULL * qa + 32ULL * idx, w,
	       sizeof(w));
}

/* WQE idx of requester qa on card 0. */
static inline void post(uint32_t qa, unsigned int idx, uint64_t la, uint64_t ra,
			uint32_t size, int sob)
{
	bed_post(0, qa, idx, la, ra, size, sob);
}

static inline void doorbell(unsigned int p, uint32_t qa, uint32_t pi)
{
	struct gaudi_core *g = W->fb[0].g;

	wr(g, qpc(p, NIC_QPC_UNSECURED_DOORBELL_PI), pi);
	wr(g, qpc(p, NIC_QPC_UNSECURED_DOORBELL_QPN), QPC_DOORBELL_BUSY | qa);
}

static inline uint32_t sob(int side, unsigned int n)
{
	return gaudi_cfg_read(W->fb[side].g, SOB_BASE + 4 * n);
}

static inline unsigned int cq_pi(int side, unsigned int p)
{
	return gaudi_cfg_read(W->fb[side].g, rxe(p, NIC_RXE_CQ_PRODUCER_INDEX));
}

static inline void cqe(int side, unsigned int i, uint32_t *lo, uint32_t *hi)
{
	uint32_t e[2];

	memcpy(e, W->fb[side].hbm + CQ_HBM + 8ULL * (i % CQ_ENTRIES), 8);
	*lo = e[0];
	*hi = e[1];
}

/* Error FIFO entry i of side. */
static inline uint32_t qp_err(int side, unsigned int i)
{
	uint32_t e;

	memcpy(&e, W->fb[side].hbm + ERR_FIFO_HBM + 4ULL * i, 4);
	return e;
}

static inline unsigned int qp_errs(int side, unsigned int p)
{
	return gaudi_cfg_read(W->fb[side].g,
			      qpc(p, NIC_QPC_ERR_FIFO_PRODUCER_INDEX));
}

struct want {
	int side;
	unsigned int p, n;
};

static inline bool cq_reached(void *arg)
{
	struct want *w = arg;

	return cq_pi(w->side, w->p) >= w->n;
}

static inline void fill(uint8_t *b, size_t n, unsigned int seed)
{
	size_t i;

	srand(seed);
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)rand();
}

/*
 * n random writes on QP qa -> qb (port p), each incrementing SOB sobn
 * on card 1; returns true if the bytes, the SOB and the CQEs are right.
 */
static inline bool run_writes(unsigned int p, uint32_t qa, unsigned int n,
		       unsigned int seed, unsigned int sobn, unsigned int *cq0,
		       unsigned int max_steps, char *why, size_t whylen)
{
	static uint8_t shadow[BUF_SIZE];
	uint8_t *src = W->fb[0].hbm + BUF_HBM, *dst = W->fb[1].hbm + BUF_HBM;
	unsigned int i, base_cq = *cq0, idx0;
	uint32_t sob0 = sob(1, sobn);
	struct want want = { 0, p, base_cq + n };
	uint32_t ctx[16];

	memcpy(ctx, W->fb[0].hbm + REQ_QPC_HBM + 64ULL * qa, 64);
	idx0 = getbits(ctx, REQ_QPC_CONSUMER_INDEX_BIT, 22);
	fill(src, BUF_SIZE, seed);
	memcpy(shadow, dst, BUF_SIZE);
	srand(seed * 7 + 1);
	for (i = 0; i < n; i++) {
		uint32_t size = (uint32_t)rand() % 16384;
		uint64_t lo = (uint64_t)rand() % (BUF_SIZE - size);
		uint64_t ro = (uint64_t)rand() % (BUF_SIZE - size);

		if (i == 0)
			size = 0; /* a zero-length write still signals */
		post(qa, (idx0 + i) % SQ_ENTRIES, VA_BUF + lo, VA_BUF + ro,
		     size, (int)sobn);
		memcpy(shadow + ro, src + lo, size);
	}
	doorbell(p, qa, (idx0 + n) % SQ_ENTRIES);
	settle(cq_reached, &want, max_steps);
	*cq0 = cq_pi(0, p);
	if (memcmp(shadow, dst, BUF_SIZE)) {
		snprintf(why, whylen, "bytes differ");
		return false;
	}
	if (sob(1, sobn) != ((sob0 + n) & SM_SOB_VAL)) {
		snprintf(why, whylen, "SOB %u, want %u", sob(1, sobn),
			 sob0 + n);
		return false;
	}
	if (cq_pi(0, p) != base_cq + n) {
		snprintf(why, whylen, "%u CQEs, want %u", cq_pi(0, p) - base_cq,
			 n);
		return false;
	}
	for (i = 0; i < n; i++) {
		uint32_t lo, hi;

		cqe(0, base_cq + i, &lo, &hi);
		if (!(hi & ROCE_CQE_VALID) || (hi & ROCE_CQE_QPN) != qa ||
		    !(lo & ROCE_CQE_REQUESTER) ||
		    (lo & 0x3FFFFF) != (idx0 + i) % SQ_ENTRIES) {
			snprintf(why, whylen, "CQE %u: %08x %08x", i, lo, hi);
			return false;
		}
	}
	return true;
}

static inline uint32_t crc32_ref(const uint8_t *p, size_t n, uint32_t crc)
{
	static uint32_t t[256];
	size_t i;

	if (!t[1]) {
		for (i = 0; i < 256; i++) {
			uint32_t c = (uint32_t)i;
			int k;

			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
			t[i] = c;
		}
	}
	for (i = 0; i < n; i++)
		crc = t[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
	return crc;
}

/* The iCRC as the test computes it, independently of roce.c. */
static inline uint32_t icrc_ref(const uint8_t *f, size_t len)
{
	uint8_t m[MAXF + 8];

	memset(m, 0xFF, 8);
	memcpy(m + 8, f + 14, len - 14 - 4);
	m[8 + 1] = 0xFF;		/* TOS */
	m[8 + 8] = 0xFF;		/* TTL */
	m[8 + 10] = m[8 + 11] = 0xFF;	/* IP checksum */
	m[8 + 26] = m[8 + 27] = 0xFF;	/* UDP checksum */
	m[8 + 32] = 0xFF;		/* BTH reserved */
	return ~crc32_ref(m, len - 14 - 4 + 8, 0xFFFFFFFFU);
}

static inline unsigned int be16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* RC opcodes and AETH syndromes the tests build (IBA 9.2, 9.7.5). */
#define BED_FIRST	0x06
#define BED_MIDDLE	0x07
#define BED_LAST	0x08
#define BED_ONLY	0x0A
#define BED_ONLY_IMM	0x0B
#define BED_ACK		0x11
#define BED_SEND_FIRST	0x00
#define BED_SEND_MIDDLE	0x01
#define BED_SEND_LAST	0x02
#define BED_SEND_LAST_IMM 0x03
#define BED_SEND_ONLY	0x04
#define BED_SEND_ONLY_IMM 0x05
#define BED_READ	0x0C
#define BED_RESP_FIRST	0x0D
#define BED_RESP_MIDDLE	0x0E
#define BED_RESP_LAST	0x0F
#define BED_RESP_ONLY	0x10
#define BED_AETH_ACK	0x1F
#define BED_NAK_SEQ	0x60
#define BED_NAK_INVALID	0x61
#define BED_NAK_ACCESS	0x62

/* One packet a side sends (0: the requester card, 1: the responder). */
struct bedpkt {
	uint8_t op;
	uint32_t qpn, psn;
	bool ackreq;
	uint64_t va;			/* RETH, on FIRST and ONLY */
	uint32_t rkey, dlen;
	uint32_t imm;			/* ImmDt on ONLY_IMM */
	uint8_t aeth;			/* on ACK */
	uint32_t msn;
	const uint8_t *data;
	uint32_t len;
	uint32_t src_ip, dst_ip;	/* 0: the sides' own */
	const uint8_t *dst_mac;		/* NULL: the other side's */
};

/* Build k as side from sends it on port p; returns the frame's length. */
static inline size_t bed_frame(unsigned int p, int from,
			       const struct bedpkt *k, uint8_t *f)
{
	bool reth = k->op == BED_FIRST || k->op == BED_ONLY ||
		    k->op == BED_ONLY_IMM || k->op == BED_READ;
	bool aeth = k->op == BED_ACK || k->op == BED_RESP_FIRST ||
		    k->op == BED_RESP_LAST || k->op == BED_RESP_ONLY;
	size_t off = 42, ipl;
	unsigned int pad = (4 - (k->len & 3)) & 3;
	uint32_t c;

	memset(f, 0, 42 + 12);
	if (k->dst_mac)
		memcpy(f, k->dst_mac, 6);
	else
		mac_of(!from, p, f);
	mac_of(from, p, f + 6);
	f[12] = 0x08;
	f[14] = 0x45;
	f[20] = 0x40;			/* DF */
	f[22] = 64;
	f[23] = 17;
	put_be32(f + 26, k->src_ip ? k->src_ip : ip_of(from));
	put_be32(f + 30, k->dst_ip ? k->dst_ip : ip_of(!from));
	f[34] = 0xC0;
	f[35] = (uint8_t)k->qpn;
	f[36] = 4791 >> 8;
	f[37] = 4791 & 0xFF;
	f[42] = k->op;
	f[43] = (uint8_t)(pad << 4);
	f[44] = f[45] = 0xFF;
	put_be32(f + 46, k->qpn & 0xFFFFFF);
	put_be32(f + 50, (k->ackreq ? 0x80000000U : 0) | (k->psn & 0xFFFFFF));
	off += 12;
	if (reth) {
		put_be32(f + off, (uint32_t)(k->va >> 32));
		put_be32(f + off + 4, (uint32_t)k->va);
		put_be32(f + off + 8, k->rkey);
		put_be32(f + off + 12, k->dlen);
		off += 16;
	}
	if (k->op == BED_ONLY_IMM || k->op == BED_SEND_LAST_IMM ||
	    k->op == BED_SEND_ONLY_IMM) {
		put_be32(f + off, k->imm);
		off += 4;
	}
	if (aeth) {
		put_be32(f + off, (uint32_t)k->aeth << 24 |
			 (k->msn & 0xFFFFFF));
		off += 4;
	}
	if (k->len)
		memcpy(f + off, k->data, k->len);
	off += k->len;
	memset(f + off, 0, pad);
	off += pad + 4;
	ipl = off - 14;
	f[16] = (uint8_t)(ipl >> 8);
	f[17] = (uint8_t)ipl;
	f[38] = (uint8_t)((ipl - 20) >> 8);
	f[39] = (uint8_t)(ipl - 20);
	c = icrc_ref(f, off);
	f[off - 4] = (uint8_t)c;
	f[off - 3] = (uint8_t)(c >> 8);
	f[off - 2] = (uint8_t)(c >> 16);
	f[off - 1] = (uint8_t)(c >> 24);
	return off;
}

/* Side from sends k on port p: straight into the other card. */
static inline void bed_send(unsigned int p, int from, const struct bedpkt *k)
{
	static uint8_t f[MAXF + 64];
	size_t len = bed_frame(p, from, k, f);

	gaudi_nic_receive(W->fb[!from].g, p, f, len);
}

/*
 * The last ACK/NAK side sent since the queue was emptied: its AETH
 * syndrome (-1 if none), PSN and MSN; the queue is emptied.
 */
static inline int bed_answer(int side, uint32_t *psn, uint32_t *msn)
{
	int syn = -1;
	unsigned int i;

	for (i = 0; i < W->n; i++) {
		const struct qframe *q = &W->q[(W->head + i) % QLEN];

		if (q->to == (unsigned int)!side && q->len >= 62 &&
		    q->buf[42] == BED_ACK) {
			syn = q->buf[54];
			if (psn)
				*psn = be32(q->buf + 50) & 0xFFFFFF;
			if (msn)
				*msn = be32(q->buf + 54) & 0xFFFFFF;
		}
	}
	W->n = 0;
	return syn;
}

#endif /* ROCEBED_H */
