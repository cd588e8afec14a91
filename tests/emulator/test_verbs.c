// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE engine's verbs operations (issue 25; hw/gaudi1/nic.h "The verbs
 * operations", Documentation/emulator/nic.rst "Verbs operations"): SEND
 * and SEND with immediate into receive queues, RNR NAK when none is
 * posted, RDMA WRITE with immediate consuming a receive WQE, RDMA READ
 * requester and responder with the region's remote-read right and bounds,
 * 32-byte CQEs in the CQ table (status, opcode, byte count, immediate,
 * wr_id), CQ events and overflow, loss recovery, the doorbell page.  Card
 * 0 is the requester, card 1 the responder, both set up as the verbs
 * driver does (extension VERBS, CQ table, regions).
 */
#include "rocebed.h"
#include "tap.h"

#define EXT_HBM		0x3000000ULL	/* QP extension table */
#define MR_HBM		0x3100000ULL	/* memory-region table */
#define CQT_HBM		0x3200000ULL	/* CQ table */
#define EQ_HBM		0x3300000ULL	/* CQ event queue */
#define MR_LOG		4
#define V_HBM		0x9000000ULL	/* behind VA_V */
#define VA_V		(GAUDI_VA_HOST_START + 0x3000000ULL)
#define V_SIZE		0x10000ULL
/* In VA_V: the receive queue and its PI, the send and receive CQs. */
#define RQ_OFF		0x0
#define RQ_LOG		4		/* 16 receive WQEs */
#define RQ_N		(1U << RQ_LOG)
#define SCQ_OFF		0x1000
#define RCQ_OFF		0x2000
#define CQ_LOG		6		/* 64 CQEs */
#define SCQ		1		/* CQ numbers */
#define RCQ		2
#define EQ_N		16
#define QA		5		/* requester QP on card 0 */
#define QB		9		/* responder QP on card 1 */
#define RBUF		0x10000U	/* offset of card 1's region in BUF */
#define RLEN		0x20000U
#define MTU_1024	3		/* InfiniBand MTU code */

static void ext_full(int side, unsigned int p, uint32_t qpn, uint32_t mtu,
		     uint32_t rnr_retry, uint32_t min_rnr, bool verbs,
		     uint64_t va_off, uint32_t pd)
{
	uint64_t rq = VA_V + RQ_OFF;
	uint32_t w[8] = { 0 };

	w[0] = mtu | rnr_retry << EXT_W0_RNR_RETRY_SHIFT |
	       min_rnr << EXT_W0_MIN_RNR_SHIFT | (verbs ? EXT_W0_VERBS : 0) |
	       EXT_W0_VALID;
	w[1] = (uint32_t)rq;
	w[2] = ((uint32_t)(rq >> 32) & EXT_W2_RQ_ADDR_HI) |
	       RQ_LOG << EXT_W2_RQ_LOG_SHIFT;
	w[3] = 0;
	w[4] = SCQ | RCQ << EXT_W4_RECV_CQ_SHIFT;
	w[5] = (uint32_t)va_off;
	w[6] = (uint32_t)(va_off >> 32);
	w[7] = pd;
	bed_table(side, p, QPC_GW_TABLE_EXT, qpn, w);
}

static void ext_verbs(int side, unsigned int p, uint32_t qpn, uint32_t mtu,
		      uint32_t rnr_retry, uint32_t min_rnr, bool verbs)
{
	ext_full(side, p, qpn, mtu, rnr_retry, min_rnr, verbs, 0, 0);
}

static void cq_set(int side, unsigned int p, uint32_t cq, uint64_t ring,
		   uint32_t log, bool events)
{
	uint32_t w[8] = { 0 };

	w[0] = (uint32_t)ring;
	w[1] = ((uint32_t)(ring >> 32) & CQT_W1_ADDR_HI) |
	       log << CQT_W1_LOG_SHIFT;
	w[3] = CQT_W3_VALID | (events ? CQT_W3_EVENTS : 0);
	bed_table(side, p, QPC_GW_TABLE_CQ, cq, w);
}

static void mr_pd(int side, unsigned int p, uint32_t key, uint64_t start,
		  uint64_t len, uint32_t qpn, uint32_t flags, uint32_t pd)
{
	bed_mr(side, p, MR_LOG, key, start, len, qpn, flags, pd);
}

static void mr_set(int side, unsigned int p, uint32_t key, uint64_t start,
		   uint64_t len, uint32_t qpn, uint32_t flags)
{
	mr_pd(side, p, key, start, len, qpn, flags, 0);
}

/* Both cards as the verbs driver sets them up; QA -> QB connected. */
static void verbs_cards(unsigned int p, const struct gaudi_identity *id,
			uint32_t mtu, uint32_t rnr_retry, uint32_t min_rnr)
{
	int side;

	two_cards(p, id);
	for (side = 0; side < 2; side++) {
		struct gaudi_core *g = W->fb[side].g;

		map_range(&W->fb[side], side, VA_V, V_HBM, V_SIZE);
		memset(W->fb[side].hbm + V_HBM, 0, V_SIZE);
		bed_tables(side, p, EXT_HBM, MR_HBM, MR_LOG, CQT_HBM, 4);
		wr(g, qpc(p, NIC_QPC_CQ_EQ_BASE_49_18), EQ_HBM >> 18);
		wr(g, qpc(p, NIC_QPC_CQ_EQ_BASE_17_7), (EQ_HBM >> 7) & 0x7FF);
		wr(g, qpc(p, NIC_QPC_CQ_EQ_MASK), EQ_N - 1);
		cq_set(side, p, SCQ, VA_V + SCQ_OFF, CQ_LOG, true);
		cq_set(side, p, RCQ, VA_V + RCQ_OFF, CQ_LOG, true);
	}
	ext_verbs(0, p, QA, mtu, rnr_retry, min_rnr, true);
	ext_verbs(1, p, QB, mtu, rnr_retry, min_rnr, true);
	connect(p, QA, QB, RKEY, PSN0);
	/* Card 1's region: BUF + RBUF, RLEN bytes, owned by QB. */
	mr_set(1, p, RKEY, VA_BUF + RBUF, RLEN, QB,
	       MR_W6_VALID | MR_W6_REMOTE_WRITE | MR_W6_REMOTE_READ);
}

static uint8_t *vmem(int side, uint64_t off)
{
	return W->fb[side].hbm + V_HBM + off;
}

/* Receive WQE idx of card 1 (buffer at BUF offset boff), then its PI. */
static void post_recv(unsigned int idx, uint32_t boff, uint32_t len,
		      uint64_t wrid)
{
	uint32_t w[8] = { 0 }, pi = idx + 1;
	uint64_t a = VA_BUF + boff;

	w[0] = (uint32_t)a;
	w[1] = (uint32_t)(a >> 32);
	w[2] = len;
	w[4] = (uint32_t)wrid;
	w[5] = (uint32_t)(wrid >> 32);
	memcpy(vmem(1, RQ_OFF + 32ULL * (idx % RQ_N)), w, sizeof(w));
	memcpy(vmem(1, RQ_OFF + 32ULL * RQ_N), &pi, 4);
}

/* A send WQE of QA on card 0 (32-bit size, own R_Key). */
static void vpost(unsigned int idx, uint32_t op, uint32_t flags, uint32_t la,
		  uint64_t ra, uint32_t size, uint32_t imm, uint32_t rkey)
{
	uint32_t w[8] = { 0 };
	uint64_t l = VA_BUF + la, r = VA_BUF + ra;

	w[0] = op << NIC_WQE_OPCODE_SHIFT | flags | NIC_WQE_F_LEN32 |
	       NIC_WQE_F_RKEY;
	w[1] = (uint32_t)l;
	w[2] = (uint32_t)(l >> 32) & NIC_WQE_LOCAL_ADDR_HI;
	w[3] = (uint32_t)r;
	w[4] = (uint32_t)(r >> 32) & NIC_WQE_REMOTE_ADDR_HI;
	w[5] = size & NIC_WQE_LEN32;
	w[6] = imm;
	w[7] = rkey;
	memcpy(W->fb[0].hbm + SQ_HBM + 0x2000ULL * QA + 32ULL * idx, w,
	       sizeof(w));
}

static uint32_t cq_pi_of(int side, uint32_t cq)
{
	uint32_t w[8];

	memcpy(w, W->fb[side].hbm + CQT_HBM + 32ULL * cq, 32);
	return w[2];
}

static uint32_t cq_flags(int side, uint32_t cq)
{
	uint32_t w[8];

	memcpy(w, W->fb[side].hbm + CQT_HBM + 32ULL * cq, 32);
	return w[3];
}

static void vcqe(int side, uint64_t ring, unsigned int i, uint32_t *w)
{
	memcpy(w, vmem(side, ring + 32ULL * (i % (1U << CQ_LOG))), 32);
}

static uint64_t cnt(int side, unsigned int p, enum gaudi_roce_cnt c)
{
	return gaudi_roce_counter(W->fb[side].g, p, c);
}

static uint32_t last_syndrome(int side, unsigned int p)
{
	unsigned int n = qp_errs(side, p);

	return n ? (qp_err(side, n - 1) & QP_ERR_SYNDROME) >> 24 : 0;
}

struct cqwant {
	int side;
	uint32_t cq, n;
};

static bool cq_has(void *arg)
{
	struct cqwant *w = arg;

	return cq_pi_of(w->side, w->cq) >= w->n;
}

static unsigned int cqe_status(const uint32_t *c)
{
	return c[6] & VCQE_W6_STATUS;
}

static unsigned int cqe_op(const uint32_t *c)
{
	return c[1] >> VCQE_W1_OP_SHIFT;
}

static uint8_t *buf(int side, uint32_t off)
{
	return W->fb[side].hbm + BUF_HBM + off;
}

static void test_send(void)
{
	unsigned int p = 2;
	struct cqwant sw = { 0, SCQ, 2 }, rw = { 1, RCQ, 2 };
	uint32_t c[8], r[8];

	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	fill(buf(0, 0), 0x10000, 3);
	post_recv(0, 0x1000, 256, 0x1111222233334444ULL);
	post_recv(1, 0x8000, 0x4000, 77);
	vpost(0, WQE_SEND, NIC_WQE_F_SIGNALED, 0x100, 0, 100, 0, 0);
	vpost(1, WQE_SEND, 0, 0x200, 0, 50, 0, 0);	/* unsignalled */
	vpost(2, WQE_SEND, NIC_WQE_F_SIGNALED | NIC_WQE_F_IMM, 0x400, 0,
	      10000, 0xA1B2C3D4U, 0);
	W->ncap = 0;
	doorbell(p, QA, 3);
	/* Only two receive WQEs: the third SEND waits (RNR). */
	settle(NULL, NULL, 1);
	vcqe(1, RCQ_OFF, 0, r);
	ok(!memcmp(buf(1, 0x1000), buf(0, 0x100), 100) &&
	   cq_pi_of(1, RCQ) >= 1 && (r[7] & VCQE_W7_VALID) &&
	   cqe_op(r) == CQE_OP_RECV && cqe_status(r) == CQE_ST_SUCCESS &&
	   r[2] == 100 && (r[0] & VCQE_W0_WQE_INDEX) == 0 &&
	   !(r[0] & VCQE_W0_REQUESTER) && (r[1] & VCQE_W1_QPN) == QB &&
	   ((uint64_t)r[5] << 32 | r[4]) == 0x1111222233334444ULL &&
	   !(r[6] & VCQE_W6_IMM),
	   "SEND ONLY: 100 bytes in the receive buffer, receive CQE (RECV, "
	   "100 bytes, wr_id, index 0, QPN)");
	vcqe(1, RCQ_OFF, 1, r);
	ok(!memcmp(buf(1, 0x8000), buf(0, 0x200), 50) && r[2] == 50 &&
	   ((uint64_t)r[5] << 32 | r[4]) == 77 && (r[0] & 0x3FFFFF) == 1,
	   "the unsignalled SEND arrives in the second receive WQE");
	vcqe(0, SCQ_OFF, 0, c);
	ok(cq_pi_of(0, SCQ) == 1 && cqe_op(c) == CQE_OP_SEND &&
	   cqe_status(c) == CQE_ST_SUCCESS && (c[0] & VCQE_W0_REQUESTER) &&
	   (c[0] & VCQE_W0_WQE_INDEX) == 0 && c[2] == 100 &&
	   (c[1] & VCQE_W1_QPN) == QA,
	   "the requester: one CQE (signalled WQE 0), none for WQE 1 (%u)",
	   cq_pi_of(0, SCQ));
	ok(cnt(1, p, GAUDI_ROCE_TX_RNR_NAKS) >= 1 &&
	   cnt(0, p, GAUDI_ROCE_RX_RNR_NAKS) >= 1 && cq_pi_of(1, RCQ) == 2,
	   "no third receive WQE: RNR NAK (%llu sent), nothing placed",
	   (unsigned long long)cnt(1, p, GAUDI_ROCE_TX_RNR_NAKS));
	post_recv(2, 0x20000, 0x4000, 99);
	rw.n = 3;
	settle(cq_has, &rw, 20);
	sw.n = 2;
	settle(cq_has, &sw, 5);
	vcqe(1, RCQ_OFF, 2, r);
	vcqe(0, SCQ_OFF, 1, c);
	ok(!memcmp(buf(1, 0x20000), buf(0, 0x400), 10000) && r[2] == 10000 &&
	   (r[6] & VCQE_W6_IMM) && r[3] == 0xA1B2C3D4U &&
	   cqe_status(r) == CQE_ST_SUCCESS && cq_pi_of(0, SCQ) == 2 &&
	   c[2] == 10000 && (c[0] & 0x3FFFFF) == 2,
	   "after the RNR timer: 10000-byte SEND with immediate placed, "
	   "CQEs with the immediate and the byte count");
	bye();
}

static void test_send_errors(void)
{
	unsigned int p = 3;
	struct cqwant sw = { 0, SCQ, 1 };
	uint32_t c[8], r[8];
	uint8_t before[64];

	/* A message longer than the receive buffer. */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	post_recv(0, 0x1000, 64, 5);
	memcpy(before, buf(1, 0x1000 + 64), sizeof(before));
	vpost(0, WQE_SEND, NIC_WQE_F_SIGNALED, 0, 0, 5000, 0, 0);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	vcqe(1, RCQ_OFF, 0, r);
	ok(cqe_status(c) == CQE_ST_REM_INV_REQ_ERR &&
	   cqe_status(r) == CQE_ST_LOC_LEN_ERR && r[4] == 5 &&
	   last_syndrome(1, p) == ROCE_SYN_RES_RECV_LEN &&
	   !memcmp(before, buf(1, 0x1000 + 64), sizeof(before)),
	   "SEND beyond the receive WQE: local length error there, remote "
	   "invalid request here, nothing past the buffer");
	bye();

	/* A SEND to a QP without VERBS (no receive queue). */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	ext_verbs(1, p, QB, EXT_MTU_4096, 7, 1, false);
	post_recv(0, 0x1000, 64, 5);
	vpost(0, WQE_SEND, NIC_WQE_F_SIGNALED, 0, 0, 16, 0, 0);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_REM_INV_REQ_ERR &&
	   last_syndrome(1, p) == ROCE_SYN_RES_NO_RQ && cq_pi_of(1, RCQ) == 0,
	   "SEND to a QP without a receive queue: invalid request (0x68)");
	bye();

	/* A receive buffer outside user memory. */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	{
		uint32_t w[8] = { 0 }, pi = 1;

		w[0] = 0x18000000U;	/* the driver's HBM */
		w[2] = 256;
		memcpy(vmem(1, RQ_OFF), w, sizeof(w));
		memcpy(vmem(1, RQ_OFF + 32ULL * RQ_N), &pi, 4);
	}
	memcpy(before, W->fb[1].hbm + 0x18000000ULL, sizeof(before));
	vpost(0, WQE_SEND, NIC_WQE_F_SIGNALED, 0, 0, 16, 0, 0);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	vcqe(1, RCQ_OFF, 0, r);
	ok(cqe_status(c) == CQE_ST_REM_OP_ERR &&
	   cqe_status(r) == CQE_ST_LOC_PROT_ERR &&
	   !memcmp(before, W->fb[1].hbm + 0x18000000ULL, sizeof(before)) &&
	   cnt(1, p, GAUDI_ROCE_ADDR_REFUSED) == 1,
	   "a receive buffer in the driver's HBM: refused, remote operational "
	   "error, local protection error");
	bye();

	/* RNR retries exhausted. */
	verbs_cards(p, NULL, EXT_MTU_4096, 2, 1);
	vpost(0, WQE_SEND, 0, 0, 0, 16, 0, 0);	/* errors always complete */
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 10);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_RNR_RETRY_EXC_ERR &&
	   (c[6] >> VCQE_W6_SYNDROME_SHIFT & 0xFF) == ROCE_SYN_RNR_EXCEEDED &&
	   cnt(1, p, GAUDI_ROCE_TX_RNR_NAKS) == 3,
	   "no receive WQE, RNR retry 2: three RNR NAKs, then RNR retry "
	   "exceeded on the unsignalled WQE");
	bye();
}

static void test_write_imm(void)
{
	unsigned int p = 4;
	struct cqwant rw = { 1, RCQ, 1 };
	uint32_t r[8], ext[8];

	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	fill(buf(0, 0), 0x10000, 4);
	post_recv(0, 0x1000, 8, 0xCAFE);
	vpost(0, WQE_LINEAR, NIC_WQE_F_SIGNALED | NIC_WQE_F_IMM, 0x300,
	      RBUF + 0x100, 9000, 0x01020304, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &rw, 5);
	vcqe(1, RCQ_OFF, 0, r);
	memcpy(ext, W->fb[1].hbm + EXT_HBM + 32ULL * QB, 32);
	ok(!memcmp(buf(1, RBUF + 0x100), buf(0, 0x300), 9000) &&
	   cqe_op(r) == CQE_OP_RECV_RDMA_IMM && r[2] == 9000 &&
	   r[3] == 0x01020304 && (r[6] & VCQE_W6_IMM) && r[4] == 0xCAFE &&
	   ext[3] == 1 && cnt(1, p, GAUDI_ROCE_RECV_WQES) == 1,
	   "WRITE with immediate: bytes in the region, a receive WQE "
	   "consumed (RECV_RDMA_WITH_IMM, message length, immediate)");
	bye();
}

static void test_read(void)
{
	unsigned int p = 5;
	struct cqwant sw = { 0, SCQ, 1 };
	uint32_t c[8];
	uint8_t before[256];

	verbs_cards(p, NULL, MTU_1024, 7, 1);
	fill(buf(1, RBUF), RLEN, 6);
	memset(buf(0, 0), 0, 0x10000);
	vpost(0, WQE_READ, NIC_WQE_F_SIGNALED, 0x40, RBUF + 0x1234, 10000, 0,
	      RKEY);
	vpost(1, WQE_READ, NIC_WQE_F_SIGNALED, 0x8000, RBUF, 0, 0, RKEY);
	vpost(2, WQE_READ, NIC_WQE_F_SIGNALED, 0x9000, RBUF + RLEN - 1000,
	      1000, 0, RKEY);
	doorbell(p, QA, 3);
	sw.n = 3;
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(!memcmp(buf(0, 0x40), buf(1, RBUF + 0x1234), 10000) &&
	   cqe_op(c) == CQE_OP_RDMA_READ && cqe_status(c) == CQE_ST_SUCCESS &&
	   c[2] == 10000 && (c[0] & 0x3FFFFF) == 0,
	   "READ of 10000 bytes at path MTU 1024 (10 responses): bytes, CQE");
	vcqe(0, SCQ_OFF, 2, c);
	ok(cq_pi_of(0, SCQ) == 3 &&
	   !memcmp(buf(0, 0x9000), buf(1, RBUF + RLEN - 1000), 1000) &&
	   c[2] == 1000 && cnt(1, p, GAUDI_ROCE_READS_SERVED) == 3,
	   "a zero-length READ and one ending at the region's end complete");
	bye();

	/* A region without the remote-read right. */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	mr_set(1, p, RKEY, VA_BUF + RBUF, RLEN, QB,
	       MR_W6_VALID | MR_W6_REMOTE_WRITE);
	memcpy(before, buf(0, 0), sizeof(before));
	vpost(0, WQE_READ, 0, 0, RBUF, 256, 0, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_REM_ACCESS_ERR &&
	   cqe_op(c) == CQE_OP_RDMA_READ &&
	   last_syndrome(1, p) == ROCE_SYN_RES_REGION &&
	   !memcmp(before, buf(0, 0), sizeof(before)) &&
	   cnt(1, p, GAUDI_ROCE_READS_SERVED) == 0,
	   "READ of a write-only region: remote access error, nothing read");
	bye();

	/* Beyond the region's end by one byte, and another QP's key. */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	vpost(0, WQE_READ, 0, 0, RBUF + RLEN - 100, 101, 0, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_REM_ACCESS_ERR &&
	   last_syndrome(1, p) == ROCE_SYN_RES_REGION,
	   "READ one byte past the region: refused");
	bye();
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	mr_set(1, p, RKEY, VA_BUF + RBUF, RLEN, QB + 1,
	       MR_W6_VALID | MR_W6_REMOTE_READ);
	vpost(0, WQE_READ, 0, 0, RBUF, 64, 0, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_REM_ACCESS_ERR,
	   "READ through another QP's region: refused");
	bye();

	/* The requester's local buffer not user memory: local protection. */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	{
		uint32_t w[8] = { 0 };
		uint64_t r = VA_BUF + RBUF;

		w[0] = WQE_READ << NIC_WQE_OPCODE_SHIFT | NIC_WQE_F_LEN32 |
		       NIC_WQE_F_RKEY;
		w[1] = 0x18000000U;
		w[3] = (uint32_t)r;
		w[4] = (uint32_t)(r >> 32);
		w[5] = 64;
		w[7] = RKEY;
		memcpy(W->fb[0].hbm + SQ_HBM + 0x2000ULL * QA, w, sizeof(w));
	}
	memcpy(before, W->fb[0].hbm + 0x18000000ULL, 64);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_LOC_PROT_ERR &&
	   !memcmp(before, W->fb[0].hbm + 0x18000000ULL, 64),
	   "READ into the driver's HBM: local protection error, untouched");
	bye();
}

/* Loss, reordering and corruption: every operation still exact. */
static void test_lossy(void)
{
	static const char *const what[3] = { "drop", "reorder", "corrupt" };
	unsigned int m;

	for (m = 0; m < 3; m++) {
		struct gaudi_identity id;
		unsigned int p = 6, i, n = 24;
		struct cqwant sw = { 0, SCQ, 0 }, rw = { 1, RCQ, 0 };
		bool good = true;
		uint32_t c[8];

		memset(&id, 0, sizeof(id));
		if (m == 0)
			id.roce_drop_every = 5;
		if (m == 1)
			id.roce_reorder_every = 4;
		if (m == 2)
			id.roce_corrupt_every = 6;
		verbs_cards(p, &id, MTU_1024, 7, 1);
		fill(buf(0, 0), 0x10000, 20 + m);
		fill(buf(1, RBUF), RLEN, 30 + m);
		for (i = 0; i < n / 3; i++)
			post_recv(i, 0x38000 + 0x1000 * i, 0x1000, i);
		for (i = 0; i < n; i++) {
			uint32_t sz = 700 + 333 * i;

			if (i % 3 == 0)
				vpost(i, WQE_SEND, NIC_WQE_F_SIGNALED,
				      0x800 * i, 0, sz % 0x1000, i, 0);
			else if (i % 3 == 1)
				vpost(i, WQE_READ, NIC_WQE_F_SIGNALED,
				      0x10000 + 0x2400 * (i / 3),
				      RBUF + 0x400 * i, sz, 0, RKEY);
			else
				vpost(i, WQE_LINEAR, NIC_WQE_F_SIGNALED,
				      0x800 * i, RBUF + 0x8000 + 0x1000 * i,
				      sz % 0x1000, 0, RKEY);
		}
		doorbell(p, QA, n);
		sw.n = n;
		settle(cq_has, &sw, 400);
		rw.n = n / 3;
		settle(cq_has, &rw, 5);
		for (i = 0; i < n && good; i++) {
			uint32_t sz = 700 + 333 * i;

			vcqe(0, SCQ_OFF, i, c);
			if (cqe_status(c) != CQE_ST_SUCCESS ||
			    (c[0] & 0x3FFFFF) != i)
				good = false;
			if (i % 3 == 0 &&
			    memcmp(buf(1, 0x38000 + 0x1000 * (i / 3)),
				   buf(0, 0x800 * i), sz % 0x1000))
				good = false;
			if (i % 3 == 1 &&
			    memcmp(buf(0, 0x10000 + 0x2400 * (i / 3)),
				   buf(1, RBUF + 0x400 * i), sz))
				good = false;
			if (i % 3 == 2 &&
			    memcmp(buf(1, RBUF + 0x8000 + 0x1000 * i),
				   buf(0, 0x800 * i), sz % 0x1000))
				good = false;
			if (!good)
				tap_diag("WQE %u: status %u index %u", i,
					 cqe_status(c), c[0] & 0x3FFFFF);
		}
		ok(good && cq_pi_of(0, SCQ) == n && cq_pi_of(1, RCQ) == n / 3 &&
		   qp_errs(0, p) == 0 && qp_errs(1, p) == 0 &&
		   cnt(0, p, GAUDI_ROCE_RETRANSMITS) > 0 &&
		   cnt(0, p, GAUDI_ROCE_INJECTED) +
		   cnt(1, p, GAUDI_ROCE_INJECTED) > 0,
		   "%s: SEND, READ and WRITE interleaved, %u WQEs complete in "
		   "order, bytes exact (%llu resent, %llu injected)", what[m],
		   cq_pi_of(0, SCQ),
		   (unsigned long long)cnt(0, p, GAUDI_ROCE_RETRANSMITS),
		   (unsigned long long)(cnt(0, p, GAUDI_ROCE_INJECTED) +
					cnt(1, p, GAUDI_ROCE_INJECTED)));
		bye();
	}
}

/*
 * A lost READ RESPONSE: the next one shows the gap and the requester asks
 * again from the first missing byte (VA, length and PSN moved on).
 */
static void test_read_gap(void)
{
	unsigned int p = 9, dropped = 0, guard = 0;
	struct cqwant sw = { 0, SCQ, 1 };
	const uint8_t *k;
	uint32_t c[8];

	verbs_cards(p, NULL, MTU_1024, 7, 1);
	fill(buf(1, RBUF), 8192, 8);
	W->ncap = 0;
	vpost(0, WQE_READ, NIC_WQE_F_SIGNALED, 0x100, RBUF + 8, 5000, 0, RKEY);
	doorbell(p, QA, 1);
	while (W->n && guard++ < 1000) {
		struct qframe *f = &W->q[W->head];

		W->head = (W->head + 1) % QLEN;
		W->n--;
		if (f->to == 0 && !dropped && f->buf[42] == 0x0E &&
		    (be32(f->buf + 50) & 0xFFFFFF) == ((PSN0 + 2) & 0xFFFFFF)) {
			dropped = 1; /* the third response */
			continue;
		}
		gaudi_nic_receive(W->fb[f->to].g, f->port, f->buf, f->len);
	}
	settle(cq_has, &sw, 5);
	k = W->cap[1].buf;
	vcqe(0, SCQ_OFF, 0, c);
	ok(dropped && W->ncap >= 2 && k[42] == 0x0C &&
	   (be32(k + 50) & 0xFFFFFF) == ((PSN0 + 2) & 0xFFFFFF) &&
	   ((uint64_t)be32(k + 54) << 32 | be32(k + 58)) ==
	   VA_BUF + RBUF + 8 + 2048 && be32(k + 66) == 5000 - 2048,
	   "a lost third response: READ asked again from byte 2048, PSN + 2");
	ok(cqe_status(c) == CQE_ST_SUCCESS && c[2] == 5000 &&
	   !memcmp(buf(0, 0x100), buf(1, RBUF + 8), 5000),
	   "the READ completes with every byte");
	bye();
}

/*
 * A READ of more responses than one step sends, then a WRITE: the WRITE's
 * ACK comes after the last response (responses in PSN order).
 */
static void test_read_order(void)
{
	unsigned int p = 2, guard = 0, n1 = 0, last_resp = 0, first_ack = 0;
	struct cqwant sw = { 0, SCQ, 2 };
	uint32_t c[8];

	verbs_cards(p, NULL, 1, 7, 1);
	fill(buf(1, RBUF), 0x14000, 15);
	fill(buf(0, 0x30000), 0x100, 16);
	vpost(0, WQE_READ, NIC_WQE_F_SIGNALED, 0, RBUF, 0x14000, 0, RKEY);
	vpost(1, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0x30000, RBUF + 0x18000,
	      0x100, 0, RKEY);
	doorbell(p, QA, 2);
	while (guard++ < 20) {
		while (W->n) {
			struct qframe *f = &W->q[W->head];

			W->head = (W->head + 1) % QLEN;
			W->n--;
			if (f->to == 0) {
				n1++;
				if (f->buf[42] == 0x0F)
					last_resp = n1;
				if (f->buf[42] == 0x11 && !first_ack)
					first_ack = n1;
			}
			gaudi_nic_receive(W->fb[f->to].g, f->port, f->buf,
					  f->len);
		}
		if (cq_has(&sw))
			break;
		gaudi_core_tick(W->fb[1].g);
		gaudi_core_tick(W->fb[0].g);
	}
	vcqe(0, SCQ_OFF, 0, c);
	ok(cq_pi_of(0, SCQ) == 2 && cqe_status(c) == CQE_ST_SUCCESS &&
	   !memcmp(buf(0, 0), buf(1, RBUF), 0x14000) &&
	   !memcmp(buf(1, RBUF + 0x18000), buf(0, 0x30000), 0x100) &&
	   last_resp && first_ack > last_resp,
	   "a READ of 320 responses, then a WRITE: its ACK (frame %u) after "
	   "the last response (frame %u)", first_ack, last_resp);
	bye();
}

/* Frames side sent with BTH opcode op since the queue was emptied. */
static unsigned int sent_op(int side, uint8_t op, uint32_t *psn)
{
	unsigned int i, n = 0;

	for (i = 0; i < W->n; i++) {
		const struct qframe *q = &W->q[(W->head + i) % QLEN];

		if (q->to == (unsigned int)!side && q->buf[42] == op) {
			n++;
			if (psn)
				*psn = be32(q->buf + 50) & 0xFFFFFF;
		}
	}
	return n;
}

/* A duplicate READ request (a PSN before expected) is executed again. */
static void test_read_dup(void)
{
	unsigned int p = 3;
	struct bedpkt k = { .op = BED_READ, .qpn = QB, .psn = PSN0,
			    .va = VA_BUF + RBUF, .rkey = RKEY, .dlen = 3000 };
	uint32_t psn = 0;
	unsigned int n1, n2, l2;

	verbs_cards(p, NULL, MTU_1024, 7, 1);
	W->dead = false;
	W->n = 0;
	bed_send(p, 0, &k);
	n1 = sent_op(1, BED_RESP_FIRST, NULL) + sent_op(1, BED_RESP_MIDDLE, NULL);
	l2 = sent_op(1, BED_RESP_LAST, &psn);
	ok(n1 == 2 && l2 == 1 && psn == ((PSN0 + 2) & 0xFFFFFF) &&
	   cnt(1, p, GAUDI_ROCE_READS_SERVED) == 1,
	   "a 3000-byte READ at MTU 1024: FIRST, MIDDLE, LAST at PSN + 2");
	W->n = 0;
	bed_send(p, 0, &k);
	n2 = sent_op(1, BED_RESP_FIRST, NULL) + sent_op(1, BED_RESP_MIDDLE, NULL) +
	     sent_op(1, BED_RESP_LAST, NULL);
	ok(n2 == 3 && cnt(1, p, GAUDI_ROCE_READS_SERVED) == 1 &&
	   cnt(1, p, GAUDI_ROCE_DUPLICATES) == 1,
	   "the same READ again: a duplicate, answered again (%u responses)",
	   n2);
	W->n = 0;
	k.psn = (PSN0 + 1) & 0xFFFFFF;	/* inside the first READ's PSNs */
	k.va += 1024;
	k.dlen = 2000;
	bed_send(p, 0, &k);
	ok(sent_op(1, BED_RESP_FIRST, NULL) == 1 &&
	   sent_op(1, BED_RESP_LAST, &psn) == 1 &&
	   psn == ((PSN0 + 2) & 0xFFFFFF),
	   "a re-issued READ from its second response: two responses, "
	   "numbered from its PSN");
	bye();
}

static void test_cq(void)
{
	unsigned int p = 7, i;
	struct cqwant sw = { 0, SCQ, 1 };
	uint32_t ev, arm = 1, ci = 0;
	struct gaudi_core *g;

	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	g = W->fb[0].g;
	wr(g, rxe(p, NIC_RXE_CQ_CFG0),
	   ROCE_CQ_CFG0_ENABLE | ROCE_CQ_CFG0_EQ_INT_EN);
	wr(g, rxe(p, NIC_RXE_CQ_MSI_ADDR(1)), SOB_BASE + 4 * 7);
	wr(g, rxe(p, NIC_RXE_CQ_MSI_DATA(1)), SM_SOB_INC | 1);
	/* Not armed: no event. */
	vpost(0, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF, 8, 0, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	ok(gaudi_cfg_read(g, qpc(p, NIC_QPC_CQ_EQ_PI)) == 0,
	   "a CQE on a CQ not armed posts no event");
	/* Armed: one event, one MSI, then not again until re-armed. */
	memcpy(vmem(0, SCQ_OFF + 32ULL * 64 + 4), &arm, 4);
	vpost(1, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF, 8, 0, RKEY);
	vpost(2, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF, 8, 0, RKEY);
	doorbell(p, QA, 3);
	sw.n = 3;
	settle(cq_has, &sw, 5);
	memcpy(&ev, W->fb[0].hbm + EQ_HBM, 4);
	ok(gaudi_cfg_read(g, qpc(p, NIC_QPC_CQ_EQ_PI)) == 1 &&
	   ev == (CQ_EQ_VALID | SCQ) && sob(0, 7) == 1 &&
	   (gaudi_cfg_read(g, rxe(p, NIC_RXE_MSI_CAUSE)) & ROCE_MSI_CAUSE_EQ),
	   "armed: two CQEs post one event (%08x) and one interrupt write",
	   ev);
	/* Overflow: consumer index 0, ring of 64, 61 more CQEs. */
	memcpy(vmem(0, SCQ_OFF + 32ULL * 64), &ci, 4);
	arm = 2;
	memcpy(vmem(0, SCQ_OFF + 32ULL * 64 + 4), &arm, 4);
	for (i = 3; i < 3 + 62; i++)
		vpost(i, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF, 8, 0, RKEY);
	doorbell(p, QA, 3 + 62);
	settle(NULL, NULL, 5);
	memcpy(&ev, W->fb[0].hbm + EQ_HBM + 4 * 2, 4);
	ok(cq_pi_of(0, SCQ) == 64 && (cq_flags(0, SCQ) & CQT_W3_OVERFLOW) &&
	   cnt(0, p, GAUDI_ROCE_CQ_OVERFLOW) == 1 &&
	   ev == (CQ_EQ_VALID | CQ_EQ_OVERFLOW | SCQ),
	   "the 65th CQE with nothing consumed is lost: CQ overflowed, an "
	   "overflow event (%08x)", ev);
	bye();
}

static void test_doorbell_page(void)
{
	unsigned int p = 1;
	struct cqwant sw = { 0, SCQ, 1 };
	uint32_t page = GAUDI_NIC_PORT_MACRO(p) + NIC_DB_PAGE_OFFSET +
			GAUDI_NIC_PORT_STRIDE;
	struct gaudi_core *g;

	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	g = W->fb[0].g;
	vpost(0, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF, 64, 0, RKEY);
	wr(g, page + 4, QA << NIC_DB_QPN_SHIFT | 1);	/* not offset 0 */
	settle(cq_has, &sw, 3);
	ok(cq_pi_of(0, SCQ) == 0 && gaudi_cfg_read(g, page) == 0,
	   "the doorbell page decodes nothing but offset 0, reads 0");
	wr(g, page, QA << NIC_DB_QPN_SHIFT | 1);
	settle(cq_has, &sw, 3);
	ok(cq_pi_of(0, SCQ) == 1 &&
	   !memcmp(buf(1, RBUF), buf(0, 0), 64),
	   "one write of QPN << 22 | PI on the odd port's page rings QP %u",
	   QA);
	wr(g, page, 3U << NIC_DB_QPN_SHIFT | 1);
	ok(last_syndrome(0, p) == QP_ERR_SYNDROME_DB_INVALID_QP,
	   "a QP without a context: doorbell QP error");
	bye();
}

/*
 * The QP's VA offset (a verbs peer sends process VAs) and regions of a
 * protection domain.
 */
static void test_va_pd(void)
{
	unsigned int p = 0;
	struct cqwant sw = { 0, SCQ, 1 };
	uint64_t off = 0x123456000ULL;	/* device VA = process VA + off */
	uint32_t c[8];

	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	ext_full(1, p, QB, EXT_MTU_4096, 7, 1, true, off, 0);
	fill(buf(0, 0), 0x2000, 11);
	fill(buf(1, RBUF), 0x2000, 12);
	vpost(0, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF + 0x100 - off, 512,
	      0, RKEY);
	vpost(1, WQE_READ, NIC_WQE_F_SIGNALED, 0x1000, RBUF + 0x800 - off,
	      512, 0, RKEY);
	doorbell(p, QA, 2);
	sw.n = 2;
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 1, c);
	ok(cqe_status(c) == CQE_ST_SUCCESS && cq_pi_of(0, SCQ) == 2 &&
	   !memcmp(buf(1, RBUF + 0x100), buf(0, 0), 512) &&
	   !memcmp(buf(0, 0x1000), buf(1, RBUF + 0x800), 512),
	   "the QP's VA offset: a WRITE and a READ at process VAs reach the "
	   "region at device VA + 0x%llx", (unsigned long long)off);
	bye();

	/* Without the offset the same VAs are outside every region. */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	vpost(0, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF + 0x100 - off, 512,
	      0, RKEY);
	doorbell(p, QA, 1);
	sw.n = 1;
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_REM_ACCESS_ERR,
	   "no offset: the process VA is refused");
	bye();

	/* A region of PD 77: QPs of PD 77 reach it, of PD 78 or none not. */
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	mr_pd(1, p, RKEY, VA_BUF + RBUF, RLEN, 0,
	      MR_W6_VALID | MR_W6_REMOTE_WRITE | MR_W6_REMOTE_READ, 77);
	ext_full(1, p, QB, EXT_MTU_4096, 7, 1, true, 0, 77);
	vpost(0, WQE_READ, NIC_WQE_F_SIGNALED, 0x1000, RBUF, 64, 0, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_SUCCESS, "a PD region serves a QP of its PD");
	bye();
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	mr_pd(1, p, RKEY, VA_BUF + RBUF, RLEN, 0,
	      MR_W6_VALID | MR_W6_REMOTE_WRITE, 77);
	ext_full(1, p, QB, EXT_MTU_4096, 7, 1, true, 0, 78);
	vpost(0, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF, 64, 0, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_REM_ACCESS_ERR &&
	   last_syndrome(1, p) == ROCE_SYN_RES_REGION,
	   "a QP of another PD: refused");
	bye();
	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	mr_pd(1, p, RKEY, VA_BUF + RBUF, RLEN, 0,
	      MR_W6_VALID | MR_W6_REMOTE_WRITE, 0);
	vpost(0, WQE_LINEAR, NIC_WQE_F_SIGNALED, 0, RBUF, 64, 0, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 5);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_REM_ACCESS_ERR,
	   "QPN 0 and PD 0 in the region, a QP of no PD: refused");
	bye();
}

/* A requester without VERBS: READ and SEND complete as 8-byte CQEs. */
static void test_legacy_requester(void)
{
	unsigned int p = 1;
	struct want want = { 0, p, 2 };
	uint32_t lo, hi, lo2, hi2;

	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	ext_verbs(0, p, QA, EXT_MTU_4096, 7, 1, false);
	fill(buf(1, RBUF), 0x1000, 13);
	fill(buf(0, 0x2000), 0x100, 14);
	post_recv(0, 0x1000, 0x100, 1);
	vpost(0, WQE_READ, 0, 0, RBUF, 3000, 0, RKEY);
	vpost(1, WQE_SEND, 0, 0x2000, 0, 0x100, 0, 0);
	doorbell(p, QA, 2);
	settle(cq_reached, &want, 5);
	cqe(0, 0, &lo, &hi);
	cqe(0, 1, &lo2, &hi2);
	ok(cq_pi(0, p) == 2 && (lo & ROCE_CQE_REQUESTER) &&
	   (lo & 0x3FFFFF) == 0 && (hi & ROCE_CQE_QPN) == QA &&
	   (lo2 & 0x3FFFFF) == 1 && cq_pi_of(0, SCQ) == 0 &&
	   !memcmp(buf(0, 0), buf(1, RBUF), 3000) &&
	   !memcmp(buf(1, 0x1000), buf(0, 0x2000), 0x100),
	   "an ioctl QP's READ and SEND: bytes, 8-byte CQEs in CQ 0");
	bye();
}

static void test_bad_wqes(void)
{
	unsigned int p = 8;
	struct cqwant sw = { 0, SCQ, 1 };
	uint32_t c[8];

	verbs_cards(p, NULL, EXT_MTU_4096, 7, 1);
	vpost(0, WQE_READ, NIC_WQE_F_IMM, 0, RBUF, 8, 1, RKEY);
	doorbell(p, QA, 1);
	settle(cq_has, &sw, 3);
	vcqe(0, SCQ_OFF, 0, c);
	ok(cqe_status(c) == CQE_ST_LOC_QP_OP_ERR &&
	   last_syndrome(0, p) == ROCE_SYN_BAD_WQE && W->sent[0] == 0,
	   "READ with immediate: a bad WQE (0x52), nothing sent");
	bye();
}

int main(void)
{
	bed_start();
	test_send();
	test_send_errors();
	test_write_imm();
	test_read();
	test_lossy();
	test_read_gap();
	test_read_order();
	test_read_dup();
	test_cq();
	test_doorbell_page();
	test_va_pd();
	test_legacy_requester();
	test_bad_wqes();
	bed_stop();
	return tap_done();
}
