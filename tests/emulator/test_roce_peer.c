// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE engine against a remote peer (issue 22; hw/gaudi1/nic.h and
 * Documentation/emulator/nic.rst "Remote peers"): per-QP engine state
 * that ends with the connection and its generation, memory regions with
 * bounds, access, owner and key, the address classes of the data path,
 * source checks, RNR NAKs, MSNs, path MTU.  Card 0 is the peer (its
 * frames built by the test), card 1 the card under attack, and the other
 * way round for the requester's side.
 */
#include "rocebed.h"
#include "tap.h"

#define EXT_HBM		0x3000000ULL	/* QP extension table */
#define MR_HBM		0x3100000ULL	/* memory-region table */
#define MR_LOG		4		/* 16 regions */
#define DRIVER_HBM	0x18000000ULL	/* below GAUDI_DRAM_USER_START */

static void ext_enable(int side, unsigned int p)
{
	struct gaudi_core *g = W->fb[side].g;

	wr(g, qpc(p, NIC_QPC_EXT_BASE_ADDRESS_49_18), EXT_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_EXT_BASE_ADDRESS_17_7), (EXT_HBM >> 7) & 0x7FF);
	wr(g, qpc(p, NIC_QPC_EXT_CFG), EXT_CFG_ENABLE);
}

static void ext_set(int side, unsigned int p, uint32_t qpn, uint32_t mtu,
		    uint32_t rnr, uint32_t gen)
{
	uint32_t w[8] = { 0 };

	w[0] = mtu | rnr << EXT_W0_RNR_RETRY_SHIFT | gen << EXT_W0_GEN_SHIFT |
	       EXT_W0_VALID;
	bed_table(side, p, QPC_GW_TABLE_EXT, qpn, w);
}

static void mr_enable(int side, unsigned int p)
{
	struct gaudi_core *g = W->fb[side].g;

	wr(g, qpc(p, NIC_QPC_MR_BASE_ADDRESS_49_18), MR_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_MR_BASE_ADDRESS_17_7), (MR_HBM >> 7) & 0x7FF);
	wr(g, qpc(p, NIC_QPC_MR_CFG), MR_CFG_ENABLE | MR_LOG);
}

static void mr_set(int side, unsigned int p, uint32_t key, uint64_t start,
		   uint64_t len, uint32_t qpn, uint32_t gen, uint32_t flags)
{
	bed_mr(side, p, MR_LOG, key, start, len, qpn | gen << MR_W5_GEN_SHIFT,
	       flags, 0);
}

static uint32_t res_expected(int side, unsigned int p, uint32_t qpn)
{
	uint32_t s[8];

	(void)p;
	memcpy(s, W->fb[side].hbm + RES_QPC_HBM + 32ULL * qpn, 32);
	return getbits(s, RES_QPC_EXPECTED_PSN_BIT, 24);
}

static uint64_t cnt(int side, unsigned int p, enum gaudi_roce_cnt c)
{
	return gaudi_roce_counter(W->fb[side].g, p, c);
}

/* The last QP error side reported: its syndrome (0 if none). */
static uint32_t last_syndrome(int side, unsigned int p)
{
	unsigned int n = qp_errs(side, p);

	return n ? (qp_err(side, n - 1) & QP_ERR_SYNDROME) >> 24 : 0;
}

static uint8_t page[4096], zero[4096];

/* A multi-packet write does not survive into the next connection. */
static void test_state_ends(void)
{
	unsigned int p = 2;
	uint8_t *dst = W->fb[1].hbm + BUF_HBM;
	struct bedpkt k = { .op = BED_FIRST, .qpn = 1, .psn = 0,
			    .va = VA_BUF, .rkey = RKEY, .dlen = 3 * 4096,
			    .data = page, .len = 4096 };
	int syn;

	two_cards(p, NULL);
	dst = W->fb[1].hbm + BUF_HBM;
	memset(page, 0x11, sizeof(page));
	connect(p, 1, 1, RKEY, 0);
	bed_send(p, 0, &k);
	ok(!memcmp(dst, page, 4096) && bed_answer(1, NULL, NULL) < 0,
	   "holder A: WRITE FIRST lands, no ACK yet");
	/* A closes, B gets QP 1 again, expecting the next PSN by chance. */
	connect(p, 1, 1, RKEY, 1);
	memset(page, 0x22, sizeof(page));
	k.op = BED_MIDDLE;
	k.psn = 1;
	syn = bed_answer(1, NULL, NULL);
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_NAK_INVALID && !memcmp(dst + 4096, zero, 4096),
	   "holder B: the old message's WRITE MIDDLE is refused (0x%x), "
	   "nothing written", (unsigned int)syn);
	ok(cnt(1, p, GAUDI_ROCE_STATE_RESETS) >= 1 &&
	   last_syndrome(1, p) == ROCE_SYN_RES_LENGTH,
	   "the re-created context ended the engine state (%llu resets)",
	   (unsigned long long)cnt(1, p, GAUDI_ROCE_STATE_RESETS));

	/* The generation: a context written behind the gateway's back. */
	connect(p, 1, 1, RKEY, 0);
	ext_enable(1, p);
	k.op = BED_FIRST;
	k.psn = 0;
	bed_send(p, 0, &k);
	memset(dst + 4096, 0, 4096);
	{
		uint32_t w0 = EXT_W0_VALID | 1U << EXT_W0_GEN_SHIFT;

		memcpy(W->fb[1].hbm + EXT_HBM + 32ULL * 1, &w0, 4);
	}
	k.op = BED_MIDDLE;
	k.psn = 1;
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_NAK_INVALID && !memcmp(dst + 4096, zero, 4096),
	   "a new generation inherits nothing: MIDDLE refused (0x%x)",
	   (unsigned int)syn);
	/* The cache invalidation drops what an invalid context held. */
	connect(p, 1, 1, RKEY, 0);
	ext_set(1, p, 1, 0, 7, 1);
	k.op = BED_FIRST;
	k.psn = 0;
	bed_send(p, 0, &k);
	memset(W->fb[1].hbm + RES_QPC_HBM + 32, 0, 32);
	wr(W->fb[1].g, qpc(p, NIC_QPC_RES_QPC_CACHE_INVALIDATE), 1);
	ok(!W->fb[1].g->nic.roce.res[p][1].active,
	   "an invalidated context's responder state is gone");

	/* The requester: a QP re-created within one retransmission timeout. */
	W->dead = true;
	W->ncap = 0;
	post(1, 0, VA_BUF, VA_BUF, 64, -1);
	doorbell(p, 1, 1);
	connect(p, 1, 1, RKEY, 500);
	W->fb[0].now += 2 * GAUDI_ROCE_RTO_NS;
	gaudi_core_tick(W->fb[0].g);
	ok(W->ncap == 1 && cnt(0, p, GAUDI_ROCE_RETRANSMITS) == 0 &&
	   cnt(0, p, GAUDI_ROCE_STATE_RESETS) == 1,
	   "a re-created requester QP adopts nothing: the old window is "
	   "never resent (%u frames)", W->ncap);
	bye();
}

/* Regions: bounds, access, owner, generation, key, lifetime. */
static void test_regions(void)
{
	unsigned int p = 3;
	const uint32_t key = 0xC0FFEE00U | 5;
	uint64_t start = VA_BUF + 0x1000, size = 0x2000;
	uint8_t *dst;
	struct bedpkt k = { .op = BED_ONLY, .qpn = 1, .psn = 0, .va = start,
			    .rkey = key, .dlen = 100, .data = page,
			    .len = 100 };
	static const struct {
		const char *what;
		uint32_t key, qpn, gen, flags;
		uint64_t va;
		uint32_t len;
		uint32_t syn;
	} bad[] = {
		{ "past its end", 0, 1, 0, 3, 0x2F80, 0x100, ROCE_SYN_RES_REGION },
		{ "before its start", 0, 1, 0, 3, 0xF00, 0x200,
		  ROCE_SYN_RES_REGION },
		{ "another tag, same index", 0x1234500U | 5, 1, 0, 3, 0x1000,
		  100, ROCE_SYN_RES_BAD_RKEY },
		{ "no remote-write access", 0, 1, 0, MR_W6_VALID, 0x1000, 100,
		  ROCE_SYN_RES_REGION },
		{ "another QP's region", 0, 2, 0, 3, 0x1000, 100,
		  ROCE_SYN_RES_REGION },
		{ "an older generation's region", 0, 1, 1, 3, 0x1000, 100,
		  ROCE_SYN_RES_REGION },
		{ "an ended region", 0, 1, 0, MR_W6_REMOTE_WRITE, 0x1000, 100,
		  ROCE_SYN_RES_REGION },
	};
	unsigned int i;
	int syn;

	two_cards(p, NULL);
	dst = W->fb[1].hbm + BUF_HBM;
	memset(page, 0x33, sizeof(page));
	connect(p, 1, 1, key, 0);
	mr_enable(1, p);
	mr_set(1, p, key, start, size, 1, 0,
	       MR_W6_VALID | MR_W6_REMOTE_WRITE);
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_AETH_ACK && !memcmp(dst + 0x1000, page, 100),
	   "a write inside the region with its key is ACKed and lands");
	k.va = start + size - 100;
	k.psn = 1;
	bed_send(p, 0, &k);
	ok(bed_answer(1, NULL, NULL) == BED_AETH_ACK &&
	   !memcmp(dst + 0x3000 - 100, page, 100),
	   "up to the region's last byte");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t errs = cnt(1, p, GAUDI_ROCE_REGION_ERRORS);
		uint8_t before[0x200];

		connect(p, 1, 1, key, 0);
		mr_set(1, p, key, start, size, bad[i].qpn, bad[i].gen,
		       bad[i].flags);
		k.va = VA_BUF + bad[i].va;
		k.rkey = bad[i].key ? bad[i].key : key;
		k.dlen = k.len = bad[i].len;
		k.psn = 0;
		memcpy(before, dst + bad[i].va, bad[i].len);
		memset(page, 0x40 + i, sizeof(page));
		bed_send(p, 0, &k);
		syn = bed_answer(1, NULL, NULL);
		ok(syn == BED_NAK_ACCESS &&
		   !memcmp(before, dst + bad[i].va, bad[i].len) &&
		   last_syndrome(1, p) == bad[i].syn &&
		   cnt(1, p, GAUDI_ROCE_REGION_ERRORS) == errs + 1,
		   "%s: remote access NAK (0x%x), QP error 0x%x, nothing "
		   "written", bad[i].what, (unsigned int)syn,
		   last_syndrome(1, p));
	}
	/* A region ended in the middle of a message. */
	connect(p, 1, 1, key, 0);
	mr_set(1, p, key, start, size, 1, 0,
	       MR_W6_VALID | MR_W6_REMOTE_WRITE);
	memset(dst + 0x1000, 0, 0x2000);
	memset(page, 0x55, sizeof(page));
	k.op = BED_FIRST;
	k.va = start;
	k.rkey = key;
	k.dlen = 0x2000;
	k.len = 4096;
	k.psn = 0;
	bed_send(p, 0, &k);
	mr_set(1, p, key, start, size, 1, 0, MR_W6_REMOTE_WRITE);
	k.op = BED_LAST;
	k.psn = 1;
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_NAK_ACCESS && !memcmp(dst + 0x2000, zero, 4096),
	   "the region ends mid-message: the LAST is refused (0x%x), its "
	   "bytes never land", (unsigned int)syn);
	/* Zero-length writes need no region (IBA); SOBs keep their window. */
	connect(p, 1, 1, key, 0);
	k.op = BED_ONLY;
	k.va = VA_HOLE;
	k.rkey = 0;
	k.dlen = k.len = 0;
	k.psn = 0;
	bed_send(p, 0, &k);
	ok(bed_answer(1, NULL, NULL) == BED_AETH_ACK,
	   "a zero-length write is ACKed without a region");
	bye();
}

/* Configuration space and the driver's memory are never reached. */
static void test_addr_classes(void)
{
	unsigned int p = 4;
	uint32_t sob0;
	uint8_t before[64];
	struct bedpkt k = { .op = BED_ONLY, .qpn = 1, .psn = 0,
			    .rkey = RKEY, .dlen = 4, .data = page, .len = 4 };
	int syn;

	two_cards(p, NULL);
	memset(page, 0x7F, sizeof(page));
	connect(p, 1, 1, RKEY, 0);
	sob0 = sob(1, 3);
	k.va = GAUDI_CFG_BASE + SOB_BASE + 12;	/* SOB 3, as plain data */
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_NAK_ACCESS && sob(1, 3) == sob0 &&
	   last_syndrome(1, p) == ROCE_SYN_RES_ADDR &&
	   cnt(1, p, GAUDI_ROCE_ADDR_REFUSED) == 1,
	   "an RDMA WRITE to configuration space (a SOB) is refused");
	connect(p, 1, 1, RKEY, 0);
	memcpy(before, W->fb[1].hbm + DRIVER_HBM, sizeof(before));
	k.va = DRIVER_HBM;
	k.dlen = k.len = sizeof(before);
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_NAK_ACCESS &&
	   !memcmp(before, W->fb[1].hbm + DRIVER_HBM, sizeof(before)) &&
	   last_syndrome(1, p) == ROCE_SYN_RES_ADDR,
	   "... and to the driver's HBM");
	connect(p, 1, 1, RKEY, 0);
	k.va = GAUDI_DRAM_USER_START + 0x100000;
	bed_send(p, 0, &k);
	ok(bed_answer(1, NULL, NULL) == BED_AETH_ACK &&
	   !memcmp(W->fb[1].hbm + GAUDI_DRAM_USER_START + 0x100000, page,
		   sizeof(before)),
	   "user HBM is user memory");
	/* Register accesses from any byte of a buffer (UBSan build). */
	{
		uint8_t b[9] = { 0 };
		uint32_t v = 5, back = 0;

		memcpy(b + 1, &v, 4);
		ok(!gaudi_dev_write(W->fb[1].g, GAUDI_CFG_BASE + SOB_BASE + 12,
				    b + 1, 4) &&
		   sob(1, 3) == 5 &&
		   !gaudi_dev_read(W->fb[1].g, GAUDI_CFG_BASE + SOB_BASE + 12,
				   b + 5, 4) &&
		   (memcpy(&back, b + 5, 4), back == 5),
		   "32-bit register access from an unaligned buffer");
	}
	/* The requester's local data: the holder cannot read the driver's. */
	W->dead = true;
	post(1, 0, DRIVER_HBM, VA_BUF, 64, -1);
	doorbell(p, 1, 1);
	ok(last_syndrome(0, p) == ROCE_SYN_LOCAL_FAULT && W->ncap == 0,
	   "a send WQE's local address in the driver's HBM: QP error 0x51, "
	   "nothing sent");
	bye();
}

/* Only the connection's peer, only to this port's MAC. */
static void test_sources(void)
{
	unsigned int p = 5;
	uint8_t other[6] = { 0x02, 0, 0, 0, 0, 9 };
	struct bedpkt k = { .op = BED_ONLY, .qpn = 1, .psn = 0, .va = VA_BUF,
			    .rkey = RKEY, .dlen = 64, .data = page,
			    .len = 64 };
	uint8_t *dst;
	struct want want = { 0, p, 1 };

	two_cards(p, NULL);
	dst = W->fb[1].hbm + BUF_HBM;
	memset(page, 0x66, sizeof(page));
	connect(p, 1, 1, RKEY, 0);
	k.src_ip = 0x0A000063U;			/* 10.0.0.99 */
	bed_send(p, 0, &k);
	ok(bed_answer(1, NULL, NULL) < 0 && !memcmp(dst, zero, 64) &&
	   res_expected(1, p, 1) == 0 &&
	   cnt(1, p, GAUDI_ROCE_DROP_SOURCE) == 1,
	   "a request from another address: dropped silently, PSN kept");
	k.src_ip = 0;
	k.dst_mac = other;
	bed_send(p, 0, &k);
	ok(bed_answer(1, NULL, NULL) < 0 && !memcmp(dst, zero, 64) &&
	   cnt(1, p, GAUDI_ROCE_DROP_MAC) == 1,
	   "a frame for another MAC: dropped");
	k.dst_mac = NULL;
	bed_send(p, 0, &k);
	ok(bed_answer(1, NULL, NULL) == BED_AETH_ACK &&
	   !memcmp(dst, page, 64), "the peer itself is served");
	/* A forged NAK from a stranger does not kill the requester. */
	connect(p, 1, 1, RKEY, 100);
	W->dead = true;
	post(1, 0, VA_BUF, VA_BUF, 64, -1);
	doorbell(p, 1, 1);
	{
		struct bedpkt a = { .op = BED_ACK, .qpn = 1, .psn = 100,
				    .aeth = BED_NAK_ACCESS,
				    .src_ip = 0x0A000063U };

		bed_send(p, 1, &a);
		ok(cnt(0, p, GAUDI_ROCE_DROP_ACK_SOURCE) == 1 &&
		   qp_errs(0, p) == 0,
		   "a remote-access NAK from another address: dropped");
		a.src_ip = 0;
		a.aeth = BED_AETH_ACK;
		bed_send(p, 1, &a);
		settle(cq_reached, &want, 2);
		ok(cq_pi(0, p) == 1, "the peer's ACK completes the WQE");
	}
	bye();
}

/* RNR NAK: wait the timer, resend, at most the RNR retry count. */
static void test_rnr(void)
{
	unsigned int p = 6;
	struct bedpkt a = { .op = BED_ACK, .qpn = 1, .psn = 200,
			    .aeth = 0x20 | 14 };	/* RNR, 1.28 ms */
	unsigned int sent;

	two_cards(p, NULL);
	ext_enable(0, p);
	ext_set(0, p, 1, 0, 1, 0);		/* RNR retry count 1 */
	connect(p, 1, 1, RKEY, 200);
	W->dead = true;
	post(1, 0, VA_BUF, VA_BUF, 64, -1);
	doorbell(p, 1, 1);
	sent = W->sent[0];
	bed_send(p, 1, &a);
	W->fb[0].now += 1000000;		/* 1 ms: not yet */
	gaudi_core_tick(W->fb[0].g);
	ok(W->sent[0] == sent && cq_pi(0, p) == 0 && qp_errs(0, p) == 0 &&
	   cnt(0, p, GAUDI_ROCE_RX_RNR_NAKS) == 1,
	   "an RNR NAK is no ACK: nothing completes, nothing resent early");
	W->fb[0].now += 400000;
	gaudi_core_tick(W->fb[0].g);
	ok(W->sent[0] == sent + 1 && cnt(0, p, GAUDI_ROCE_RNR_RETRIES) == 1,
	   "after the RNR timer (code 14, 1.28 ms) the packet is resent");
	bed_send(p, 1, &a);
	ok(last_syndrome(0, p) == ROCE_SYN_RNR_EXCEEDED && cq_pi(0, p) == 0,
	   "a second RNR NAK exceeds the RNR retry count 1: QP error 0x56");
	/* Unlimited (7): the receive arrives at last, the WQE completes. */
	connect(p, 1, 1, RKEY, 300);
	ext_set(0, p, 1, 0, 7, 0);
	post(1, 1, VA_BUF, VA_BUF, 64, -1);
	doorbell(p, 1, 2);
	a.psn = 300;
	for (sent = 0; sent < 10; sent++) {
		bed_send(p, 1, &a);
		W->fb[0].now += 2000000;
		gaudi_core_tick(W->fb[0].g);
	}
	a.aeth = BED_AETH_ACK;
	bed_send(p, 1, &a);
	ok(qp_errs(0, p) == 1 && cq_pi(0, p) == 1,
	   "RNR retry count 7: ten RNR NAKs, then the ACK completes it");
	bye();
}

/* MSN in ACKs; the path MTU both ways. */
static void test_msn_mtu(void)
{
	unsigned int p = 7, i;
	struct bedpkt k = { .op = BED_ONLY, .qpn = 1, .va = VA_BUF,
			    .rkey = RKEY, .dlen = 8, .data = page, .len = 8 };
	uint32_t msn = 99, psn;
	struct want want = { 0, p, 1 };
	int syn;

	two_cards(p, NULL);
	connect(p, 1, 1, RKEY, 0);
	for (i = 0; i < 3; i++) {
		k.psn = i;
		bed_send(p, 0, &k);
		syn = bed_answer(1, &psn, &msn);
	}
	ok(syn == BED_AETH_ACK && msn == 3 && psn == 2,
	   "the third message's ACK carries MSN 3 (%u)", msn);
	k.psn = 1;
	bed_send(p, 0, &k);
	syn = bed_answer(1, &psn, &msn);
	ok(syn == BED_AETH_ACK && msn == 3, "a duplicate's ACK: MSN 3 again");
	connect(p, 1, 1, RKEY, 0);
	k.psn = 0;
	bed_send(p, 0, &k);
	bed_answer(1, &psn, &msn);
	ok(msn == 1, "a new connection counts from 0 (MSN %u)", msn);

	/* Requester at path MTU 1024: 3000 bytes in 3 packets. */
	connect(p, 1, 1, RKEY, 0);
	ext_enable(0, p);
	ext_set(0, p, 1, 3, 7, 0);
	ext_enable(1, p);
	ext_set(1, p, 1, 3, 7, 0);
	fill(W->fb[0].hbm + BUF_HBM, 3000, 5);
	W->ncap = 0;
	post(1, 0, VA_BUF, VA_BUF + 0x8000, 3000, -1);
	doorbell(p, 1, 1);
	settle(cq_reached, &want, 5);
	ok(W->ncap == 3 && W->cap[0].len == 42 + 12 + 16 + 1024 + 4 &&
	   cq_pi(0, p) == 1 &&
	   !memcmp(W->fb[1].hbm + BUF_HBM + 0x8000, W->fb[0].hbm + BUF_HBM,
		   3000),
	   "path MTU 1024: 3 packets (%u), the first 1024 bytes, delivered",
	   W->ncap);
	/* Responder at 1024: a 2048-byte packet is against the MTU. */
	connect(p, 1, 1, RKEY, 0);
	ext_set(1, p, 1, 3, 7, 0);
	k.psn = 0;
	k.dlen = k.len = 2048;
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_NAK_INVALID && last_syndrome(1, p) == ROCE_SYN_RES_MTU &&
	   cnt(1, p, GAUDI_ROCE_MTU_ERRORS) == 1,
	   "the responder at MTU 1024 NAKs a 2048-byte packet");
	connect(p, 1, 1, RKEY, 0);
	ext_set(1, p, 1, 3, 7, 0);
	k.op = BED_FIRST;
	k.dlen = 2048;
	k.len = 512;
	bed_send(p, 0, &k);
	syn = bed_answer(1, NULL, NULL);
	ok(syn == BED_NAK_INVALID,
	   "a FIRST shorter than the path MTU is invalid");
	bye();
}

int main(void)
{
	bed_start();
	test_state_ends();
	test_regions();
	test_addr_classes();
	test_sources();
	test_rnr();
	test_msn_mtu();
	bed_stop();
	return tap_done();
}
