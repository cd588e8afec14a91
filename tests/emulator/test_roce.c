// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NIC's RoCE v2 engine: two cards cabled port to port through a fake
 * wire.  Contexts programmed through the QPC gateway, send queues, data
 * and completion queue in user memory behind the device MMU; RDMA WRITEs
 * of random sizes and offsets with a remote sync-object increment; the
 * frame format; loss, reordering and corruption injected; bad rkey,
 * unmapped remote memory, invalid QP and a dead link; garbage frames.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rocebed.h"
#include "tap.h"

/* --- tests ------------------------------------------------------------ */

static void test_writes(void)
{
	unsigned int p = 3, cq = 0; /* an odd port: QM1's ASID */
	char why[128] = "";
	bool good;

	two_cards(p, NULL);
	connect(p, 1, 5, RKEY, PSN0);
	good = run_writes(p, 1, 40, 1, 7, &cq, 50, why, sizeof(why));
	ok(good, "40 RDMA WRITEs of random sizes and offsets: bytes, remote "
	   "SOB +1 each, requester CQEs in order (%s)", why);
	ok(cq_pi(1, p) == 0, "no responder CQE when the SOB is written");
	ok(gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_RETRANSMITS) == 0 &&
	   gaudi_roce_counter(W->fb[1].g, p, GAUDI_ROCE_ICRC_ERRORS) == 0,
	   "a clean wire: no retransmission, no iCRC error");
	good = run_writes(p, 1, 30, 2, 7, &cq, 50, why, sizeof(why));
	ok(good, "a second batch continues the PSNs and the CQ (%s)", why);
	{
		uint32_t ctx[16], rctx[8];

		memcpy(ctx, W->fb[0].hbm + REQ_QPC_HBM + 64, 64);
		memcpy(rctx, W->fb[1].hbm + RES_QPC_HBM + 32 * 5, 32);
		ok(getbits(ctx, REQ_QPC_NEXT_PSN_BIT, 24) ==
		   getbits(rctx, RES_QPC_EXPECTED_PSN_BIT, 24) &&
		   getbits(ctx, REQ_QPC_NEXT_PSN_BIT, 24) < PSN0,
		   "requester next PSN == responder expected PSN, wrapped "
		   "(0x%x)", getbits(ctx, REQ_QPC_NEXT_PSN_BIT, 24));
	}
	ok(W->fb[0].guest_errors == 0 && W->fb[1].guest_errors == 0,
	   "no guest errors");
	bye();
}

static void write_pcap(const char *path)
{
	FILE *f = fopen(path, "wb");
	uint32_t gh[6] = { 0xA1B2C3D4U, 0x00040002U, 0, 0, 65535, 1 };
	unsigned int i;

	if (!f)
		return;
	fwrite(gh, 4, 6, f);
	for (i = 0; i < W->ncap; i++) {
		uint32_t ph[4] = { i, 0, W->cap[i].len, W->cap[i].len };

		fwrite(ph, 4, 4, f);
		fwrite(W->cap[i].buf, 1, W->cap[i].len, f);
	}
	fclose(f);
}

/* tshark, if there, decodes the captured frames as RoCE v2. */
static void tshark_check(void)
{
	char path[] = "/tmp/test_roce_XXXXXX", cmd[256], out[256] = "";
	size_t n = 0;
	FILE *f;
	int fd;

	fflush(stdout);
	if (system("command -v tshark >/dev/null 2>&1")) {
		tap_skip("no tshark", "tshark decodes the frames as RoCE v2");
		return;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		tap_skip("no temporary file", "tshark decodes the frames");
		return;
	}
	close(fd);
	write_pcap(path);
	snprintf(cmd, sizeof(cmd), "tshark -r %s -T fields -e "
		 "infiniband.bth.opcode -e infiniband.bth.destqp -e "
		 "infiniband.reth.dmalen -e _ws.malformed 2>/dev/null", path);
	f = popen(cmd, "r");
	if (f) {
		n = fread(out, 1, sizeof(out) - 1, f);
		pclose(f);
	}
	out[n] = 0;
	unlink(path);
	ok(!strcmp(out, "6\t0x000009\t9001\t\n7\t0x000009\t\t\n"
		   "8\t0x000009\t\t\n11\t0x000009\t0\t\n"),
	   "tshark: RC RDMA WRITE FIRST/MIDDLE/LAST/ONLY IMM to QP 9, RETH "
	   "lengths, nothing malformed");
	if (strcmp(out, "6\t0x000009\t9001\t\n7\t0x000009\t\t\n"
		   "8\t0x000009\t\t\n11\t0x000009\t0\t\n"))
		tap_diag("tshark said: %s", out);
}

static void test_frames(void)
{
	unsigned int p = 0, i, cq = 0;
	static const uint8_t want_op[4] = { 0x06, 0x07, 0x08, 0x0B };
	bool eth = true, ip = true, udp = true, bth = true, icrc = true;
	uint32_t psn = 0x123456;
	const char *pcap = getenv("ROCE_PCAP");

	two_cards(p, NULL);
	connect(p, 2, 9, RKEY, psn);
	fill(W->fb[0].hbm + BUF_HBM, 0x4000, 3);
	post(2, 0, VA_BUF + 1, VA_BUF + 0x100, 9001, 4);
	doorbell(p, 2, 1);
	settle(NULL, NULL, 2);
	ok(W->ncap == 4, "9001 bytes + SOB: 4 request frames (%u)", W->ncap);
	for (i = 0; i < W->ncap && i < 4; i++) {
		const uint8_t *f = W->cap[i].buf, *h = f + 14, *b = f + 42;
		size_t len = W->cap[i].len;
		uint32_t s = 0;
		unsigned int k;
		uint8_t m1[6];

		mac_of(1, p, m1);
		eth &= !memcmp(f, m1, 6) && be16(f + 12) == 0x0800;
		for (k = 0; k < 20; k += 2)
			s += be16(h + k);
		while (s >> 16)
			s = (s & 0xFFFF) + (s >> 16);
		ip &= h[0] == 0x45 && s == 0xFFFF && h[9] == 17 &&
		      be16(h + 2) == len - 14 && be32(h + 12) == ip_of(0) &&
		      be32(h + 16) == ip_of(1);
		udp &= be16(h + 22) == 4791 && be16(h + 24) == len - 34;
		bth &= b[0] == want_op[i] && (be32(b + 4) & 0xFFFFFF) == 9 &&
		       (be32(b + 8) & 0xFFFFFF) == psn + i;
		icrc &= (uint32_t)(f[len - 4] | f[len - 3] << 8 |
				   f[len - 2] << 16 |
				   (uint32_t)f[len - 1] << 24) ==
			icrc_ref(f, len);
	}
	ok(eth, "Ethernet: destination MAC from the context, IPv4");
	ok(ip, "IPv4: header checksum, protocol UDP, addresses from the context");
	ok(udp, "UDP: destination port 4791, length");
	ok(bth, "BTH: WRITE FIRST, MIDDLE, LAST, ONLY WITH IMMEDIATE; dest QP; "
	   "consecutive PSNs");
	ok(icrc, "iCRC matches the test's own RoCE v2 computation");
	if (W->ncap >= 4) {
		const uint8_t *r = W->cap[0].buf + 54, *r3 = W->cap[3].buf + 54;

		ok(((uint64_t)be32(r) << 32 | be32(r + 4)) == VA_BUF + 0x100 &&
		   be32(r + 8) == RKEY && be32(r + 12) == 9001 &&
		   W->cap[0].len == 54 + 16 + 4096 + 4 &&
		   W->cap[2].len == 54 + 809 + 3 + 4 &&
		   (W->cap[2].buf[43] >> 4 & 3) == 3,
		   "RETH: VA, R_Key, DMA length; 4096-byte MTU; last pads 3");
		ok(be32(r3) == 0 && be32(r3 + 4) == SOB_BASE + 16 &&
		   be32(r3 + 12) == 0 && be32(r3 + 16) == (SM_SOB_INC | 1),
		   "sync packet: RETH VA = SOB offset, length 0, ImmDt = data");
	} else {
		ok(0, "RETH");
		ok(0, "sync packet");
	}
	if (pcap)
		write_pcap(pcap);
	tshark_check();
	ok(sob(1, 4) == 1 && cq_pi(0, p) == 1 &&
	   !memcmp(W->fb[1].hbm + BUF_HBM + 0x100, W->fb[0].hbm + BUF_HBM + 1,
		   9001), "delivered: bytes, SOB 1, one CQE");
	(void)cq;
	bye();
}

static void test_injection(void)
{
	static const char *const what[3] = { "drop", "reorder", "corrupt" };
	unsigned int m;

	for (m = 0; m < 3; m++) {
		struct gaudi_identity id;
		unsigned int p = 4, cq = 0;
		uint64_t rtx, icrc, inj;
		char why[128] = "";
		bool good;

		memset(&id, 0, sizeof(id));
		if (m == 0)
			id.roce_drop_every = 7;
		if (m == 1)
			id.roce_reorder_every = 5;
		if (m == 2)
			id.roce_corrupt_every = 6;
		two_cards(p, &id);
		connect(p, 3, 3, RKEY, 100);
		good = run_writes(p, 3, 60, 10 + m, 9, &cq, 400, why,
				  sizeof(why));
		rtx = gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_RETRANSMITS);
		icrc = gaudi_roce_counter(W->fb[1].g, p,
					  GAUDI_ROCE_ICRC_ERRORS) +
		       gaudi_roce_counter(W->fb[0].g, p,
					  GAUDI_ROCE_ICRC_ERRORS);
		inj = gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_INJECTED) +
		      gaudi_roce_counter(W->fb[1].g, p, GAUDI_ROCE_INJECTED);
		ok(good, "%s every Nth frame: 60 writes complete, bytes and "
		   "SOB exact (%s)", what[m], why);
		ok(inj > 0 && rtx > 0 && (m != 2 || icrc > 0),
		   "%s: %llu injected, %llu retransmitted, %llu iCRC errors",
		   what[m], (unsigned long long)inj, (unsigned long long)rtx,
		   (unsigned long long)icrc);
		ok(qp_errs(0, p) == 0 && qp_errs(1, p) == 0,
		   "%s: no QP error (%x %x)", what[m], qp_err(0, 0),
		   qp_err(1, 0));
		bye();
	}
}

/* Error syndrome of FIFO entry e, and its requester bit. */
#define SYN(e) (((e) & QP_ERR_SYNDROME) >> 24)

static void test_errors(void)
{
	unsigned int p = 0, cq = 0, e0, e1;
	char why[128] = "";
	uint32_t e;
	bool good;

	two_cards(p, NULL);
	connect(p, 1, 1, RKEY, 0);
	connect(p, 2, 2, RKEY ^ 1, 0);	/* wrong key */
	connect(p, 3, 3, RKEY, 0);	/* writes to an unmapped VA */
	connect(p, 4, 44, RKEY, 0);
	{
		uint32_t zero[8] = { 0 };

		gateway(W->fb[1].g, p, 44, false, zero); /* not valid */
	}
	good = run_writes(p, 1, 5, 20, 1, &cq, 20, why, sizeof(why));
	ok(good, "QP 1 works (%s)", why);

	/* Bad rkey. */
	post(2, 0, VA_BUF, VA_BUF, 100, 2);
	doorbell(p, 2, 1);
	settle(NULL, NULL, 3);
	e0 = qp_errs(0, p);
	e1 = qp_errs(1, p);
	e = qp_err(1, 0);
	ok(e1 == 1 && (e & QP_ERR_QPN) == 2 && !(e & QP_ERR_REQUESTER) &&
	   SYN(e) == ROCE_SYN_RES_BAD_RKEY,
	   "bad rkey: responder QP 2 in error (entry 0x%08x)", e);
	e = qp_err(0, 0);
	ok(e0 == 1 && (e & QP_ERR_QPN) == 2 && (e & QP_ERR_REQUESTER) &&
	   SYN(e) == ROCE_SYN_REMOTE_ACCESS,
	   "bad rkey: requester QP 2 in error after the NAK (0x%08x)", e);
	ok(sob(1, 2) == 0 && W->fb[0].g->nic.port[p].wire_irqs >= 1,
	   "no SOB write; the QP error interrupt was raised");

	/* Unmapped remote VA. */
	post(3, 0, VA_BUF, VA_HOLE, 5000, 3);
	doorbell(p, 3, 1);
	settle(NULL, NULL, 3);
	e = qp_err(1, 1);
	ok(qp_errs(1, p) == 2 && (e & QP_ERR_QPN) == 3 &&
	   SYN(e) == ROCE_SYN_RES_MMU,
	   "unmapped remote VA: responder QP 3 in error (0x%08x)", e);
	e = qp_err(0, 1);
	ok(qp_errs(0, p) == 2 && (e & QP_ERR_QPN) == 3 &&
	   SYN(e) == ROCE_SYN_REMOTE_ACCESS && sob(1, 3) == 0,
	   "unmapped remote VA: requester QP 3 in error, no SOB (0x%08x)", e);

	/* Invalid responder QP: nobody to NAK to, the requester times out. */
	post(4, 0, VA_BUF, VA_BUF, 10, 4);
	doorbell(p, 4, 1);
	settle(NULL, NULL, 12);
	e = qp_err(1, 2);
	ok(qp_errs(1, p) == 3 && (e & QP_ERR_QPN) == 44 &&
	   SYN(e) == ROCE_SYN_RES_INVALID_QP,
	   "invalid QP 44: one responder error for all the retries "
	   "(0x%08x, %u)", e, qp_errs(1, p));
	e = qp_err(0, 2);
	ok(qp_errs(0, p) == 3 && (e & QP_ERR_QPN) == 4 &&
	   SYN(e) == ROCE_SYN_RETRY_EXCEEDED,
	   "invalid QP: requester QP 4 in error, retries exceeded (0x%08x)",
	   e);

	good = run_writes(p, 1, 5, 21, 1, &cq, 20, why, sizeof(why));
	ok(good, "QP 1 still works after the others' errors (%s)", why);

	/* A dead link: the retries run out. */
	W->dead = true;
	post(1, 10, VA_BUF, VA_BUF, 3000, 1);
	doorbell(p, 1, 11);
	settle(NULL, NULL, 12);
	e = qp_err(0, 3);
	ok(qp_errs(0, p) == 4 && (e & QP_ERR_QPN) == 1 &&
	   SYN(e) == ROCE_SYN_RETRY_EXCEEDED &&
	   gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_TIMEOUTS) == 16,
	   "dead link: 7 retries, then QP 1 in error (0x%08x)", e);
	ok(gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_RETRANSMITS) == 7 * 2 * 2,
	   "each retry resent the window (%llu)",
	   (unsigned long long)gaudi_roce_counter(W->fb[0].g, p,
						  GAUDI_ROCE_RETRANSMITS));
	{
		uint32_t ctx[16];

		memcpy(ctx, W->fb[0].hbm + REQ_QPC_HBM + 64, 64);
		ok(getbits(ctx, REQ_QPC_ERROR_BIT, 1),
		   "the requester context's error bit is set");
	}
	W->dead = false;
	connect(p, 5, 6, RKEY, 77);
	good = run_writes(p, 5, 5, 22, 5, &cq, 20, why, sizeof(why));
	ok(good, "another QP works once the link is back (%s)", why);
	bye();
}

/*
 * The remote sync-object window: a SOB outside RES_SOB_MIN..MAX is
 * refused like a register that is not a SOB, on its first and last
 * SOB the window is inclusive, and a port whose window was never opened
 * (reset value 0..0) refuses every SOB.
 */
static void test_sob_window(void)
{
	struct gaudi_core *g1;
	unsigned int p = 4, cq;
	uint32_t e, before;
	char why[96];
	bool good;

	two_cards(p, NULL);
	g1 = W->fb[1].g;
	connect(p, 2, 2, RKEY, 1);
	connect(p, 3, 3, RKEY, 1);

	post(2, 0, VA_BUF, VA_BUF + 64, 64, SOB_WINDOW);
	doorbell(p, 2, 1);
	settle(NULL, NULL, 3);
	e = qp_err(1, 0);
	ok(qp_errs(1, p) == 1 && (e & QP_ERR_QPN) == 2 &&
	   SYN(e) == ROCE_SYN_RES_SOB && sob(1, SOB_WINDOW) == 0,
	   "SOB %u, one past the window: responder QP in error, SOB untouched "
	   "(0x%08x)", SOB_WINDOW, e);
	e = qp_err(0, 0);
	ok(qp_errs(0, p) == 1 && SYN(e) == ROCE_SYN_REMOTE_ACCESS,
	   "  and the requester is NAKed (0x%08x)", e);

	post(3, 0, VA_BUF, VA_BUF + 128, 8, SOB_WINDOW - 1);
	post(3, 1, VA_BUF, VA_BUF + 256, 8, 0);
	doorbell(p, 3, 2);
	settle(NULL, NULL, 3);
	ok(sob(1, SOB_WINDOW - 1) == 1 && sob(1, 0) == 1 &&
	   qp_errs(1, p) == 1,
	   "the window's last and first SOB are signalled (%u, %u)",
	   sob(1, SOB_WINDOW - 1), sob(1, 0));

	/* A port left at reset: nothing reachable. */
	before = sob(1, 0);
	wr(g1, qpc(p, NIC_QPC_RES_SOB_MIN), 0);
	wr(g1, qpc(p, NIC_QPC_RES_SOB_MAX), 0);
	post(3, 2, VA_BUF, VA_BUF + 512, 8, 0);
	doorbell(p, 3, 3);
	settle(NULL, NULL, 3);
	e = qp_err(1, 1);
	ok(qp_errs(1, p) == 2 && SYN(e) == ROCE_SYN_RES_SOB &&
	   sob(1, 0) == before,
	   "window closed: SOB 0 refused (0x%08x, SOB %u)", e, sob(1, 0));

	/* Opened again, a fresh QP works. */
	wr(g1, qpc(p, NIC_QPC_RES_SOB_MIN), SOB_BASE);
	wr(g1, qpc(p, NIC_QPC_RES_SOB_MAX), SOB_BASE + 4 * (SOB_WINDOW - 1));
	connect(p, 5, 5, RKEY, 9);
	cq = cq_pi(0, p);
	good = run_writes(p, 5, 4, 31, 5, &cq, 20, why, sizeof(why));
	ok(good, "a new QP signals inside the window (%s)", why);
	bye();
}

/*
 * Work through the NIC QMAN: a CB on port p's NIC queue rings the port's
 * unsecured doorbell with two MSG_LONGs, and the RDMA WRITE runs with no
 * host register write.  The LBW range the driver puts over the QPC block
 * still keeps every other initiator out: a TPC queue and the NIC queue of
 * another port are refused with the same CB.
 */
static void test_nic_qman_doorbell(void)
{
	const unsigned int p = 2, qa = 5;
	struct fakebus *fb0 = &W->fb[0];
	struct gaudi_core *g0;
	uint32_t qpc0 = GAUDI_NIC_QPC_REG(p, 0);
	uint32_t dif = mmDMA_IF_W_S_BASE;
	static const unsigned int qids[3] = {
		GAUDI_NIC_FIRST_QUEUE + 4 * 2,		/* port 2, stream 0 */
		41,					/* TPC 0 */
		GAUDI_NIC_FIRST_QUEUE + 4 * 3 + 1,	/* port 3, stream 1 */
	};
	unsigned int i, cq0;
	uint32_t sob0;

	two_cards(p, NULL);
	g0 = fb0->g;
	connect(p, qa, qa, RKEY, 3);
	/* The driver's LBW range over the port's QPC block (writes). */
	wr(g0, dif + DMA_IF_LBW_MIN_AW(0), qpc0 - 1);
	wr(g0, dif + DMA_IF_LBW_MAX_AW(0), qpc0 + 0x1000);
	wr(g0, dif + 0x704, 1);			/* HIT_AW, range 0 */
	for (i = 0; i < 3; i++) {
		struct queue q = q_setup(fb0, qids[i], 0x200000 + i * 0x10000,
					 4);
		struct cb c = cb_at(fb0, 0x300000 + i * 0x10000);

		/* Trusted fetches, as upstream's external queues. */
		wr(g0, q.base + QM_GLBL_PROT, QM_PROT_EXTERNAL);
		wr(g0, q.base + QM_GLBL_NON_SECURE_PROPS(0) + 4 * q.s, ASID);
		post(qa, i, VA_BUF + 256 * i, VA_BUF + 0x10000 + 256 * i, 100,
		     7);
		cb_msg_long(&c, GAUDI_CFG_BASE +
			    GAUDI_NIC_QPC_REG(p, NIC_QPC_UNSECURED_DOORBELL_PI),
			    i + 1);
		cb_msg_long(&c, GAUDI_CFG_BASE +
			    GAUDI_NIC_QPC_REG(p, NIC_QPC_UNSECURED_DOORBELL_QPN),
			    QPC_DOORBELL_BUSY | qa);
		sob0 = sob(1, 7);
		cq0 = cq_pi(0, p);
		q_submit(&q, &c);
		settle(NULL, NULL, 3);
		if (i == 0)
			ok(sob(1, 7) == sob0 + 1 && cq_pi(0, p) == cq0 + 1 &&
			   !memcmp(W->fb[1].hbm + BUF_HBM + 0x10000,
				   fb0->hbm + BUF_HBM, 100),
			   "port %u's NIC queue rings its doorbell: bytes, SOB, "
			   "CQE, no host write", p);
		else
			ok(sob(1, 7) == sob0 && cq_pi(0, p) == cq0 &&
			   q_ci(&q) == 1,
			   "queue %u: the doorbell write is refused (RAZWI), "
			   "nothing sent", qids[i]);
	}
	bye();
}

/*
 * A QPN beyond the ones the engine serves (GAUDI_ROCE_MAX_QPN) reads no
 * context: one forged where the table would hold it (past the driver's
 * table) is never used.  The isolation fuzzer found the engine loading it.
 */
static uint64_t far_ctx;		/* the address test_qpn_bound() watches */
static unsigned int far_reads;

static void far_txn(void *opaque, const struct gaudi_txn *t)
{
	(void)opaque;
	if (t->kind == GAUDI_INIT_NIC && !t->write &&
	    t->pa <= far_ctx && far_ctx - t->pa < t->len)
		far_reads++;
}

static void test_qpn_bound(void)
{
	const unsigned int p = 1, far = 0x4005;
	uint8_t *hbm;
	unsigned int sent;

	two_cards(p, NULL);
	hbm = W->fb[0].hbm;
	connect(p, 5, 5, RKEY, 1);
	/* QP 5's valid context copied to where QP 0x4005's would be. */
	memcpy(hbm + REQ_QPC_HBM + 64ULL * far, hbm + REQ_QPC_HBM + 64 * 5, 64);
	post(5, 0, VA_BUF, VA_BUF, 64, 1);
	sent = W->sent[0];
	far_ctx = REQ_QPC_HBM + 64ULL * far;
	far_reads = 0;
	W->fb[0].g->bus.txn = far_txn;
	doorbell(p, far, 1);
	settle(NULL, NULL, 3);
	W->fb[0].g->bus.txn = NULL;
	ok(W->sent[0] == sent && cq_pi(0, p) == 0 && sob(1, 1) == 0 &&
	   !far_reads,
	   "doorbell on QP 0x%x (a valid context past the table): not read "
	   "(%u reads), nothing sent", far, far_reads);
	doorbell(p, 5, 1);
	settle(NULL, NULL, 3);
	ok(W->sent[0] > sent && sob(1, 1) == 1,
	   "  QP 5 itself sends the same WQE");
	bye();
}

/* The four sync managers' object blocks (SOBs and monitors). */
static const uint32_t sm_base[4] = {
	mmSYNC_MNGR_W_S_SOB_OBJ_0, mmSYNC_MNGR_E_S_SOB_OBJ_0,
	mmSYNC_MNGR_W_N_SOB_OBJ_0, mmSYNC_MNGR_E_N_SOB_OBJ_0,
};
#define SM_WORDS	(4 * SM_BLOCK_END / 4)

static void sm_snapshot(struct gaudi_core *g, uint32_t *w)
{
	unsigned int i;

	for (i = 0; i < SM_WORDS; i++)
		w[i] = gaudi_cfg_read(g, sm_base[i / (SM_BLOCK_END / 4)] +
				      4 * (i % (SM_BLOCK_END / 4)));
}

/*
 * Random frames to UDP 4791: no crash, nothing outside the mappings, no
 * sync-manager register outside the remote-SOB window changed.
 */
static void test_garbage(void)
{
	static uint32_t sm_before[SM_WORDS], sm_after[SM_WORDS];
	unsigned int p = 0, i, bad_mem = 0, written, sob_frames = 0;
	unsigned int outside = 0, inside = 0;
	uint8_t f[MAXF];
	uint8_t *canary = malloc(0x10000);
	uint8_t *pgt = malloc(0x20000);
	struct gaudi_core *g;

	two_cards(p, NULL);
	connect(p, 1, 1, RKEY, 0);
	g = W->fb[1].g;
	sm_snapshot(g, sm_before);
	memset(W->fb[1].hbm + BUF_HBM + BUF_SIZE, 0xA5, 0x10000);
	memcpy(canary, W->fb[1].hbm + BUF_HBM + BUF_SIZE, 0x10000);
	memcpy(pgt, W->fb[1].hbm + PGT_BASE, 0x20000);
	srand(99);
	for (i = 0; i < 20000; i++) {
		size_t len = 42 + (size_t)rand() % (MAXF - 42 + 200);
		size_t k, ipl;
		uint8_t m1[6];
		uint32_t c;

		if (len > MAXF)
			len = MAXF;
		for (k = 0; k < len; k++)
			f[k] = (uint8_t)rand();
		mac_of(1, p, m1);
		memcpy(f, m1, 6);
		f[12] = 0x08;
		f[13] = 0x00;
		f[14] = 0x45;
		f[20] = f[21] = 0;
		f[23] = 17;
		f[36] = 4791 >> 8;
		f[37] = 4791 & 0xFF;
		ipl = rand() % 4 ? len - 14 : (size_t)rand() % 0x10000;
		f[16] = (uint8_t)(ipl >> 8);
		f[17] = (uint8_t)ipl;
		f[38] = (uint8_t)((ipl - 20) >> 8);
		f[39] = (uint8_t)(ipl - 20);
		if (rand() % 4) {
			/* Mostly from the connection's peer to the card. */
			put_be32(f + 26, ip_of(0));
			put_be32(f + 30, ip_of(1));
		}
		if (rand() % 2) {
			/* Mostly plausible: a write to QP 1 or an ACK. */
			static const uint8_t ops[] = {
				0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x11,
			};

			f[42] = ops[rand() % sizeof(ops)];
			f[47] = f[48] = 0;
			f[49] = 1;
			if (rand() % 2) {
				f[62] = RKEY >> 24;
				f[63] = (RKEY >> 16) & 0xFF;
				f[64] = (RKEY >> 8) & 0xFF;
				f[65] = RKEY & 0xFF;
			}
			if (rand() % 2) {
				f[51] = f[52] = f[53] = 0; /* expected PSN */
			}
			if (rand() % 2) {
				/* A VA near the mapping's end. */
				uint64_t va = VA_BUF + BUF_SIZE -
					      (uint64_t)(rand() % 0x3000);

				for (k = 0; k < 8; k++)
					f[54 + k] = (uint8_t)(va >> (56 - 8 * k));
			}
		}
		if (rand() % 8 == 0) {
			/*
			 * A remote sync-object write to QP 1, in order, with
			 * the key: to a random SOB of a random sync manager,
			 * its monitors, or just past its SOB array.
			 */
			uint32_t t = sm_base[rand() % 4] +
				     4 * (uint32_t)(rand() % (SM_NUM_SOBS + 64));

			len = 78;
			ipl = 64;
			f[16] = 0;
			f[17] = (uint8_t)ipl;
			f[38] = 0;
			f[39] = (uint8_t)(ipl - 20);
			f[42] = 0x0B;
			f[43] = 0;		/* no pad, version 0 */
			f[44] = f[45] = 0xFF;	/* default P_Key */
			f[47] = f[48] = 0;
			f[49] = 1;
			f[51] = f[52] = f[53] = 0;
			for (k = 0; k < 8; k++)
				f[54 + k] = (uint8_t)((uint64_t)t >> (56 - 8 * k));
			f[62] = RKEY >> 24;
			f[63] = (RKEY >> 16) & 0xFF;
			f[64] = (RKEY >> 8) & 0xFF;
			f[65] = RKEY & 0xFF;
			f[66] = f[67] = f[68] = f[69] = 0;
			put_be32(f + 26, ip_of(0));
			put_be32(f + 30, ip_of(1));
			sob_frames++;
			/* Whole, and to an open QP expecting PSN 0. */
			connect(p, 1, 1, RKEY, 0);
			c = icrc_ref(f, 14 + ipl);
			f[74] = (uint8_t)c;
			f[75] = (uint8_t)(c >> 8);
			f[76] = (uint8_t)(c >> 16);
			f[77] = (uint8_t)(c >> 24);
		} else if (rand() % 4 && ipl + 14 <= len && ipl >= 32) {
			c = icrc_ref(f, 14 + ipl);
			f[14 + ipl - 4] = (uint8_t)c;
			f[14 + ipl - 3] = (uint8_t)(c >> 8);
			f[14 + ipl - 2] = (uint8_t)(c >> 16);
			f[14 + ipl - 1] = (uint8_t)(c >> 24);
		}
		gaudi_nic_receive(g, p, f, len);
		if ((i & 255) == 0) {
			/* The responder context back to valid and open. */
			connect(p, 1, 1, RKEY, 0);
		}
		W->n = 0; /* the answers go nowhere */
	}
	bad_mem = memcmp(canary, W->fb[1].hbm + BUF_HBM + BUF_SIZE, 0x10000) ||
		  memcmp(pgt, W->fb[1].hbm + PGT_BASE, 0x20000);
	ok(!bad_mem, "20000 garbage frames: memory outside the mapping and "
	   "the page tables untouched");
	/* The oracle: only the window's SOBs may have changed. */
	sm_snapshot(g, sm_after);
	for (i = 0; i < SM_WORDS; i++) {
		uint32_t off = sm_base[i / (SM_BLOCK_END / 4)] +
			       4 * (i % (SM_BLOCK_END / 4));

		if (sm_before[i] == sm_after[i])
			continue;
		if (off >= SOB_BASE && off < SOB_BASE + 4 * SOB_WINDOW)
			inside++;
		else
			outside++;
	}
	ok(!outside && inside,
	   "%u remote SOB writes: %u SOBs of the window changed, %u "
	   "sync-manager registers outside it", sob_frames, inside, outside);
	for (i = 0, written = 0; i < 0x3000; i++)
		written += W->fb[1].hbm[BUF_HBM + BUF_SIZE - 0x3000 + i] != 0;
	ok(gaudi_roce_counter(g, p, GAUDI_ROCE_RES_ERRORS) > 0 && written,
	   "some reached the responder and wrote inside the mapping (%llu "
	   "responder errors)",
	   (unsigned long long)gaudi_roce_counter(g, p, GAUDI_ROCE_RES_ERRORS));
	ok(gaudi_roce_counter(g, p, GAUDI_ROCE_RX_PKTS) == 20000 &&
	   gaudi_roce_counter(g, p, GAUDI_ROCE_ICRC_ERRORS) > 0 &&
	   gaudi_roce_counter(g, p, GAUDI_ROCE_BAD_FRAMES) > 0,
	   "all seen by the engine: %llu iCRC errors, %llu malformed",
	   (unsigned long long)gaudi_roce_counter(g, p, GAUDI_ROCE_ICRC_ERRORS),
	   (unsigned long long)gaudi_roce_counter(g, p,
						  GAUDI_ROCE_BAD_FRAMES));
	ok(gaudi_nic_counter(g, p, GAUDI_NIC_RX_FRAMES) == 20000 &&
	   gaudi_cfg_read(g, qpc(p, NIC_QPC_RES_RING0_PI)) == 0,
	   "counted by the MAC, nothing in the raw ring");
	free(canary);
	free(pgt);
	bye();
}

/* An ACK for PSNs never sent completes nothing. */
static void test_forged_ack(void)
{
	unsigned int p = 0, k;
	uint8_t f[62];
	uint32_t c, psn;

	two_cards(p, NULL);
	connect(p, 1, 1, RKEY, 500);
	W->dead = true;
	post(1, 0, VA_BUF, VA_BUF, 100, 1);
	doorbell(p, 1, 1);
	memset(f, 0, sizeof(f));
	memcpy(f, W->cap[0].buf, 42);	/* the request's headers, reused */
	/* ... as the peer answers them: MACs and addresses swapped. */
	memcpy(f, W->cap[0].buf + 6, 6);
	memcpy(f + 6, W->cap[0].buf, 6);
	memcpy(f + 26, W->cap[0].buf + 30, 4);
	memcpy(f + 30, W->cap[0].buf + 26, 4);
	f[14 + 3] = 62 - 14;		/* IP length */
	f[14 + 20 + 5] = 62 - 34;	/* UDP length */
	f[14 + 10] = f[14 + 11] = 0;
	for (k = 0, c = 0; k < 20; k += 2)
		c += be16(f + 14 + k);
	while (c >> 16)
		c = (c & 0xFFFF) + (c >> 16);
	f[14 + 10] = (uint8_t)(~c >> 8);
	f[14 + 11] = (uint8_t)~c;
	for (psn = 600; psn <= 601; psn++) {
		f[42] = 0x11;			/* ACKNOWLEDGE */
		f[49] = 1;			/* to QP 1 */
		f[51] = (uint8_t)(psn >> 16);
		f[52] = (uint8_t)(psn >> 8);
		f[53] = (uint8_t)psn;
		f[54] = 0x1F;			/* ACK */
		c = icrc_ref(f, sizeof(f));
		f[58] = (uint8_t)c;
		f[59] = (uint8_t)(c >> 8);
		f[60] = (uint8_t)(c >> 16);
		f[61] = (uint8_t)(c >> 24);
		gaudi_nic_receive(W->fb[0].g, p, f, sizeof(f));
	}
	ok(cq_pi(0, p) == 0 &&
	   gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_BAD_FRAMES) == 2,
	   "an ACK beyond the PSNs sent is dropped, nothing completes "
	   "(%u CQEs, %llu bad, %llu icrc, %llu acks)", cq_pi(0, p),
	   (unsigned long long)gaudi_roce_counter(W->fb[0].g, p,
						  GAUDI_ROCE_BAD_FRAMES),
	   (unsigned long long)gaudi_roce_counter(W->fb[0].g, p,
						  GAUDI_ROCE_ICRC_ERRORS),
	   (unsigned long long)gaudi_roce_counter(W->fb[0].g, p,
						  GAUDI_ROCE_RX_ACKS));
	f[51] = 0;
	f[52] = 500 >> 8;
	f[53] = 500 & 0xFF;
	c = icrc_ref(f, sizeof(f));
	f[58] = (uint8_t)c;
	f[59] = (uint8_t)(c >> 8);
	f[60] = (uint8_t)(c >> 16);
	f[61] = (uint8_t)(c >> 24);
	gaudi_nic_receive(W->fb[0].g, p, f, sizeof(f));
	ok(cq_pi(0, p) == 0, "the ACK of the data packet alone completes "
	   "nothing (the SOB packet is outstanding)");
	f[53] = 501 & 0xFF;
	c = icrc_ref(f, sizeof(f));
	f[58] = (uint8_t)c;
	f[59] = (uint8_t)(c >> 8);
	f[60] = (uint8_t)(c >> 16);
	f[61] = (uint8_t)(c >> 24);
	gaudi_nic_receive(W->fb[0].g, p, f, sizeof(f));
	ok(cq_pi(0, p) == 1, "the ACK of the last packet completes the WQE");
	bye();
}

/* The CQ interrupt: a SOB of the requester's card counts them. */
static void test_cq_irq(void)
{
	unsigned int p = 1, cq = 0;
	struct gaudi_core *g;
	char why[128] = "";
	bool good;

	two_cards(p, NULL);
	g = W->fb[0].g;
	wr(g, rxe(p, NIC_RXE_CQ_MSI_ADDR(0)), SOB_BASE + 4 * 100);
	wr(g, rxe(p, NIC_RXE_CQ_MSI_DATA(0)), SM_SOB_INC | 1);
	wr(g, rxe(p, NIC_RXE_CQ_CFG0), ROCE_CQ_CFG0_ENABLE |
	   ROCE_CQ_CFG0_INT_EN);
	connect(p, 7, 8, RKEY, 1);
	good = run_writes(p, 7, 10, 30, 0, &cq, 20, why, sizeof(why));
	ok(good && sob(0, 100) == 1 &&
	   (gaudi_cfg_read(g, rxe(p, NIC_RXE_MSI_CAUSE)) & 1),
	   "10 CQEs, one CQ interrupt write until re-armed (%u) %s",
	   sob(0, 100), why);
	wr(g, rxe(p, NIC_RXE_CQ_MSI_CAUSE_CLR), 1);
	ok(!(gaudi_cfg_read(g, rxe(p, NIC_RXE_MSI_CAUSE)) & 1),
	   "CQ_MSI_CAUSE_CLR clears the cause");
	good = run_writes(p, 7, 3, 31, 0, &cq, 20, why, sizeof(why));
	ok(good && sob(0, 100) == 2, "the next CQE interrupts again (%u)",
	   sob(0, 100));
	bye();
}

/*
 * Asynchronous mode: the retransmission timer runs from the bus's
 * scheduled gaudi_core_run(), with no tick.
 */
static void test_async_timer(void)
{
	unsigned int p = 6, i;
	uint8_t *src, *dst;

	async_cards = true;
	two_cards(p, NULL);
	async_cards = false;
	connect(p, 2, 3, RKEY, 9);
	src = W->fb[0].hbm + BUF_HBM;
	dst = W->fb[1].hbm + BUF_HBM;
	fill(src, 10000, 40);
	W->dead = true;		/* the first transmission is lost */
	post(2, 0, VA_BUF, VA_BUF + 8, 10000, 11);
	doorbell(p, 2, 1);
	W->dead = false;
	ok(W->fb[0].sched_pending, "the requester asked the bus for its timer");
	for (i = 0; i < 10 && cq_pi(0, p) < 1; i++) {
		fake_advance(&W->fb[0], GAUDI_ROCE_RTO_NS / 4, 100);
		fake_advance(&W->fb[1], GAUDI_ROCE_RTO_NS / 4, 100);
		wire_run();
	}
	ok(cq_pi(0, p) == 1 && sob(1, 11) == 1 &&
	   !memcmp(dst + 8, src, 10000) &&
	   gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_RETRANSMITS) == 4,
	   "resent by the scheduled timer after %u quarters of the timeout: bytes, SOB, CQE",
	   i);
	bye();
}

/*
 * One VM's cards: the ACKs of a window come back inside its own sends
 * (deferred, handled in bounded batches).  64 one-packet WRITEs, one ACK
 * each, complete in steps the cards ask for now: none waits for the
 * retransmission timer, nothing is resent.
 */
static void test_acks_during_send(void)
{
	unsigned int p = 2, i, n = 64, steps = 0;
	uint8_t *src, *dst;

	async_cards = true;
	two_cards(p, NULL);
	async_cards = false;
	bed_direct();
	connect(p, 4, 5, RKEY, 100);
	src = W->fb[0].hbm + BUF_HBM;
	dst = W->fb[1].hbm + BUF_HBM;
	fill(src, BUF_SIZE, 77);
	for (i = 0; i < n; i++)
		post(4, i, VA_BUF + 4096ULL * i, VA_BUF + 4096ULL * i, 4096,
		     -1);
	doorbell(p, 4, n);
	while (steps < 10000 && cq_pi(0, p) < n) {
		struct fakebus *f = W->fb[0].sched_pending ? &W->fb[0] :
				    W->fb[1].sched_pending ? &W->fb[1] : NULL;

		if (!f || f->sched_at > f->now)
			break;	/* only a timer would move it on */
		f->sched_pending = false;
		gaudi_core_run(f->g);
		steps++;
	}
	ok(cq_pi(0, p) == n && !memcmp(dst, src, 4096ULL * n) &&
	   !gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_TIMEOUTS) &&
	   !gaudi_roce_counter(W->fb[0].g, p, GAUDI_ROCE_RETRANSMITS),
	   "ACKs during the sends: %u of %u WQEs done in %u steps at time 0, "
	   "%llu timeouts, %llu resent", cq_pi(0, p), n, steps,
	   (unsigned long long)gaudi_roce_counter(W->fb[0].g, p,
						  GAUDI_ROCE_TIMEOUTS),
	   (unsigned long long)gaudi_roce_counter(W->fb[0].g, p,
						  GAUDI_ROCE_RETRANSMITS));
	bye();
}

/* A non-RoCE frame still reaches the raw ring. */
static void test_raw_untouched(void)
{
	unsigned int p = 0;
	uint8_t f[60] = { 0 };
	struct gaudi_core *g;

	two_cards(p, NULL);
	g = W->fb[1].g;
	wr(g, rxe(p, NIC_RXE_RAW_BASE_LO_P0), 0x100000);
	wr(g, rxe(p, NIC_RXE_RAW_BASE_HI_P0), 13U << RAW_BASE_HI_LOG_ENTRY_SHIFT);
	mac_of(1, p, f);
	f[12] = 0x08;
	f[14] = 0x45;
	f[23] = 17;
	f[36] = 4792 >> 8;
	f[37] = 4792 & 0xFF;	/* UDP, not 4791 */
	ok(gaudi_nic_receive(g, p, f, sizeof(f)) &&
	   gaudi_cfg_read(g, qpc(p, NIC_QPC_RES_RING0_PI)) == 1,
	   "UDP to another port goes to the raw ring");
	bye();
}

/* A RoCE counter of port p as the driver reads it: low word, then high. */
static uint64_t cnt_reg(int side, unsigned int p, unsigned int i)
{
	struct gaudi_core *g = W->fb[side].g;
	uint32_t lo = gaudi_cfg_read(g, qpc(p, NIC_QPC_ROCE_CNT_LO(i)));

	return (uint64_t)gaudi_cfg_read(g, qpc(p, NIC_QPC_ROCE_CNT_HI(i))) <<
	       32 | lo;
}

/* Whether every counter register of port p of both cards shows the engine's. */
static bool cnt_regs_agree(unsigned int p, char *why, size_t whylen)
{
	unsigned int side, i;

	for (side = 0; side < 2; side++)
		for (i = 0; i < NIC_QPC_ROCE_CNT_SLOTS; i++) {
			uint64_t want = i < ROCE_CNT_NUM ?
				gaudi_roce_counter(W->fb[side].g, p, i) : 0;

			if (cnt_reg((int)side, p, i) != want) {
				snprintf(why, whylen, "card %u counter %u: %llu, "
					 "engine %llu", side, i,
					 (unsigned long long)cnt_reg((int)side,
								     p, i),
					 (unsigned long long)want);
				return false;
			}
		}
	return true;
}

/* The RoCE counters in the port's QPC block (hw/gaudi1/nic.h ROCE_CNT_*). */
static void test_counters(void)
{
	unsigned int p = 5, cq = 0, i; /* odd: the second QPC block */
	struct gaudi_identity id;
	char why[128] = "";
	uint64_t before;
	bool good, zero = true;

	two_cards(p, NULL);
	connect(p, 2, 6, RKEY, 10);
	connect(p, 3, 7, RKEY ^ 0x100, 20);	/* wrong key */
	good = run_writes(p, 2, 20, 30, 5, &cq, 50, why, sizeof(why));
	ok(good, "counters: 20 writes (%s)", why);
	ok(cnt_regs_agree(p, why, sizeof(why)),
	   "all %u counter registers of both cards read the engine's "
	   "counters (%s)", NIC_QPC_ROCE_CNT_SLOTS, why);
	ok(cnt_reg(0, p, ROCE_CNT_TX_PKTS) >= 20 &&
	   cnt_reg(0, p, ROCE_CNT_RX_ACKS) > 0 &&
	   cnt_reg(1, p, ROCE_CNT_RX_PKTS) == cnt_reg(0, p, ROCE_CNT_TX_PKTS) &&
	   cnt_reg(1, p, ROCE_CNT_TX_ACKS) == cnt_reg(0, p, ROCE_CNT_RX_ACKS) &&
	   cnt_reg(0, p, ROCE_CNT_RETRANSMITS) == 0 &&
	   cnt_reg(0, p, ROCE_CNT_REQ_QP_ERRORS) == 0 &&
	   cnt_reg(1, p, ROCE_CNT_RES_QP_ERRORS) == 0,
	   "requests sent = received (%llu), ACKs sent = received (%llu), "
	   "no retransmission, no QP error",
	   (unsigned long long)cnt_reg(0, p, ROCE_CNT_TX_PKTS),
	   (unsigned long long)cnt_reg(1, p, ROCE_CNT_TX_ACKS));
	for (i = 0; i < ROCE_CNT_NUM; i++)
		zero &= cnt_reg(0, p ^ 1, i) == 0 && cnt_reg(1, p ^ 1, i) == 0;
	ok(zero, "the other port of the macro counts nothing");

	/* A bad rkey: one QP error on each end, NAKs card 1 -> card 0. */
	post(3, 0, VA_BUF, VA_BUF, 100, 2);
	doorbell(p, 3, 1);
	settle(NULL, NULL, 3);
	ok(cnt_reg(0, p, ROCE_CNT_REQ_QP_ERRORS) == 1 &&
	   cnt_reg(1, p, ROCE_CNT_RES_QP_ERRORS) == 1 &&
	   cnt_reg(0, p, ROCE_CNT_RES_QP_ERRORS) == 0 &&
	   cnt_reg(1, p, ROCE_CNT_REQ_QP_ERRORS) == 0 &&
	   cnt_reg(1, p, ROCE_CNT_TX_NAKS) >= 1 &&
	   cnt_reg(0, p, ROCE_CNT_RX_NAKS) == cnt_reg(1, p, ROCE_CNT_TX_NAKS),
	   "bad rkey: requester error on card 0, responder error on card 1, "
	   "its NAKs (data and sync packet) sent and received (%llu %llu %llu %llu %llu %llu)",
	   (unsigned long long)cnt_reg(0, p, ROCE_CNT_REQ_QP_ERRORS),
	   (unsigned long long)cnt_reg(1, p, ROCE_CNT_RES_QP_ERRORS),
	   (unsigned long long)cnt_reg(0, p, ROCE_CNT_RES_QP_ERRORS),
	   (unsigned long long)cnt_reg(1, p, ROCE_CNT_REQ_QP_ERRORS),
	   (unsigned long long)cnt_reg(1, p, ROCE_CNT_TX_NAKS),
	   (unsigned long long)cnt_reg(0, p, ROCE_CNT_RX_NAKS));

	/* Read-only, not cleared by reading; the latch. */
	before = cnt_reg(0, p, ROCE_CNT_TX_PKTS);
	wr(W->fb[0].g, qpc(p, NIC_QPC_ROCE_CNT_LO(ROCE_CNT_TX_PKTS)), 0);
	wr(W->fb[0].g, qpc(p, NIC_QPC_ROCE_CNT_HI(ROCE_CNT_TX_PKTS)), 7);
	ok(cnt_reg(0, p, ROCE_CNT_TX_PKTS) == before &&
	   cnt_reg(0, p, ROCE_CNT_TX_PKTS) == before,
	   "writes are ignored, reads do not clear (%llu)",
	   (unsigned long long)before);
	W->fb[0].g->nic.roce.cnt[p][ROCE_CNT_TIMEOUTS] = 0x500000009ULL;
	ok(gaudi_cfg_read(W->fb[0].g,
			  qpc(p, NIC_QPC_ROCE_CNT_LO(ROCE_CNT_TIMEOUTS))) == 9 &&
	   gaudi_cfg_read(W->fb[0].g, qpc(p, NIC_QPC_ROCE_CNT_HI(0))) == 5 &&
	   cnt_reg(0, p, ROCE_CNT_TIMEOUTS) == 0x500000009ULL,
	   "a low-word read latches the high word for the port's HI reads");
	W->fb[0].g->nic.roce.cnt[p][ROCE_CNT_TIMEOUTS] = 0;
	gaudi_core_reset(W->fb[0].g);
	zero = true;
	for (i = 0; i < NIC_QPC_ROCE_CNT_SLOTS; i++)
		zero &= cnt_reg(0, p, i) == 0;
	ok(zero, "a device reset clears them");
	bye();

	/* Injected loss: retransmissions and timeouts, nothing else. */
	memset(&id, 0, sizeof(id));
	id.roce_drop_every = 5;
	two_cards(p, &id);
	cq = 0;
	connect(p, 2, 6, RKEY, 10);
	good = run_writes(p, 2, 30, 31, 5, &cq, 400, why, sizeof(why));
	ok(good && cnt_reg(0, p, ROCE_CNT_RETRANSMITS) > 0 &&
	   cnt_reg(0, p, ROCE_CNT_INJECTED) + cnt_reg(1, p, ROCE_CNT_INJECTED) >
	   0 && cnt_reg(0, p, ROCE_CNT_REQ_QP_ERRORS) == 0 &&
	   cnt_regs_agree(p, why, sizeof(why)),
	   "drop every 5th frame: %llu retransmitted, %llu injected, %llu "
	   "duplicates, no QP error (%s)",
	   (unsigned long long)cnt_reg(0, p, ROCE_CNT_RETRANSMITS),
	   (unsigned long long)(cnt_reg(0, p, ROCE_CNT_INJECTED) +
				cnt_reg(1, p, ROCE_CNT_INJECTED)),
	   (unsigned long long)cnt_reg(1, p, ROCE_CNT_DUPLICATES), why);
	bye();
}

int main(void)
{
	bed_start();
	test_writes();
	test_frames();
	test_injection();
	test_errors();
	test_sob_window();
	test_nic_qman_doorbell();
	test_qpn_bound();
	test_garbage();
	test_forged_ack();
	test_cq_irq();
	test_async_timer();
	test_acks_during_send();
	test_raw_untouched();
	test_counters();
	bed_stop();
	return tap_done();
}
