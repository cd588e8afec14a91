// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NIC engine: link bits, the QP-context gateway, raw Ethernet send
 * from the driver's send queue, raw receive into the ring with its MSI,
 * the full ring, bad WQEs and addresses, statistics and reset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakebus.h"
#include "tap.h"

/* Device memory the tests lay out (HBM starts at device address 0). */
#define REQ_QPC_HBM	0x1000180ULL	/* 128-byte aligned, not 256 KiB */
#define RES_QPC_HBM	0x1100000ULL
#define SQ_HBM		0x2000000ULL	/* the raw QP's send queue */
#define FRAME_HBM	0x3000000ULL
#define ERR_FIFO_HBM	0x3800000ULL
#define FRAME_BUS	0x200000ULL	/* host bus address of a frame */
#define RING_BUS	0x1000000ULL	/* host: 512 x 8 KiB = 4 MiB */
#define NOTHING		0x7FF7000000ULL	/* decodes to nothing */

/* The driver's layout: QPC.wq_base_address 1024, SQ base #1 below it. */
#define WQ_BASE_ADDR	1024
#define SQ_SEL		10
#define SQ_LOG		6	/* 128-byte lines: 256 WQEs */
#define SQ_ENTRIES	(4 << SQ_LOG)

/* The port blocks' registers (hw/gaudi1/nic.h). */
#define qpc GAUDI_NIC_QPC_REG
#define rxe GAUDI_NIC_RXE_REG
#define txe GAUDI_NIC_TXE_REG

static uint32_t stat_reg(unsigned int p, bool rx, uint32_t r)
{
	uint32_t base = rx ? ((p & 1) ? NIC_STAT_RX1 : NIC_STAT_RX0) :
			     ((p & 1) ? NIC_STAT_TX1 : NIC_STAT_TX0);

	return GAUDI_NIC_PORT_MACRO(p) + NIC_STAT_OFFSET + base + r;
}

static void wr(struct gaudi_core *g, uint32_t off, uint32_t v)
{
	gaudi_cfg_write(g, off, v);
}

static uint32_t rd(struct gaudi_core *g, uint32_t off)
{
	return gaudi_cfg_read(g, off);
}

/* A 64-bit MAC counter: low word first, then DATA_HI_REG. */
/* The length word the NIC wrote at the end of raw ring slot n. */
static uint32_t raw_len(const struct fakebus *fb, unsigned int n)
{
	uint32_t v;

	memcpy(&v, fb->host + RING_BUS + 8192ULL * (n + 1) -
	       GAUDI_NIC_RAW_LEN_WORD, 4);
	return v;
}

static uint64_t stat64(struct gaudi_core *g, unsigned int p, bool rx,
		       uint32_t r)
{
	uint64_t lo = rd(g, stat_reg(p, rx, r));
	uint64_t hi = rd(g, GAUDI_NIC_PORT_MACRO(p) + NIC_STAT_OFFSET +
			 NIC_STAT_DATA_HI_REG);

	return lo | hi << 32;
}

/* What the backend saw. */
struct wire {
	unsigned int frames, last_port, rx_ready, ready_port;
	size_t len[512];
	uint8_t buf[4][16384];
};

static void wire_send(void *opaque, unsigned int port, const void *frame,
		      size_t len)
{
	struct wire *w = opaque;

	if (w->frames < 512)
		w->len[w->frames] = len;
	if (w->frames < 4)
		memcpy(w->buf[w->frames], frame, len);
	w->frames++;
	w->last_port = port;
}

static void wire_ready(void *opaque, unsigned int port)
{
	struct wire *w = opaque;

	w->rx_ready++;
	w->ready_port = port;
}

static struct gaudi_core *card(struct fakebus *fb, struct wire *w)
{
	struct gaudi_core *g = fakebus_new(fb);
	struct gaudi_nic_backend be = {
		.opaque = w,
		.send = wire_send,
		.rx_ready = wire_ready,
	};

	memset(w, 0, sizeof(*w));
	gaudi_nic_set_backend(g, &be);
	return g;
}

static void qpc_tables(struct gaudi_core *g, unsigned int p)
{
	wr(g, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_49_18), REQ_QPC_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_17_7), (REQ_QPC_HBM >> 7) & 0x7FF);
	wr(g, qpc(p, NIC_QPC_RES_BASE_ADDRESS_49_18), RES_QPC_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_RES_BASE_ADDRESS_17_7), (RES_QPC_HBM >> 7) & 0x7FF);
}

/* Requester context of qpn written straight into HBM. */
static void put_req_qpc(struct fakebus *fb, uint32_t qpn, bool valid,
			uint32_t transport)
{
	uint32_t e[16] = { 0 };

	setbits(e, REQ_QPC_WQ_BASE_ADDR_BIT, 24, WQ_BASE_ADDR);
	setbits(e, REQ_QPC_TRANSPORT_BIT, 1, transport);
	setbits(e, REQ_QPC_VALID_BIT, 1, valid);
	memcpy(fb->hbm + REQ_QPC_HBM + 64ULL * qpn, e, sizeof(e));
}

/* Port p as the driver sets up its raw send queue (gaudi_nic.c). */
static void raw_tx_setup(struct fakebus *fb, unsigned int p)
{
	struct gaudi_core *g = fb->g;
	uint64_t base = SQ_HBM - (uint64_t)WQ_BASE_ADDR * (128 << SQ_LOG);

	qpc_tables(g, p);
	put_req_qpc(fb, GAUDI_NIC_RAW_QPN, true, QPC_TRANSPORT_RAW);
	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_49_32(1)), base >> 32);
	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_31_0(1)), (uint32_t)base);
	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_SEL), SQ_SEL);
	wr(g, txe(p, NIC_TXE_LOG_MAX_WQ_SIZE(1)), SQ_LOG);
}

static void put_wqe(struct fakebus *fb, unsigned int idx, uint32_t opcode,
		    uint64_t addr, uint32_t size)
{
	uint32_t w[8] = { 0 };

	w[0] = opcode << NIC_WQE_OPCODE_SHIFT;
	w[1] = (uint32_t)addr;
	w[2] = (uint32_t)(addr >> 32) & NIC_WQE_LOCAL_ADDR_HI;
	w[2] |= size << NIC_WQE_SIZE_SHIFT;
	memcpy(fb->hbm + SQ_HBM + 32ULL * idx, w, sizeof(w));
}

static void ring(struct gaudi_core *g, unsigned int p, uint32_t pi,
		 uint32_t db)
{
	wr(g, qpc(p, db + 4), pi);
	wr(g, qpc(p, db), QPC_DOORBELL_BUSY | GAUDI_NIC_RAW_QPN);
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	srand(seed);
	for (i = 0; i < n; i++)
		p[i] = rand();
	p[0] &= 0xFE; /* unicast destination */
}

/* --- tests ----------------------------------------------------------------- */

static void test_link_and_map(void)
{
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	uint32_t sts1 = GAUDI_NIC_MACRO(1) + NIC_MAC_CORE_OFFSET +
			NIC_MAC_CORE_MAC_REC_STS0;
	unsigned int m, bad = 0;

	for (m = 0; m < GAUDI_NIC_NUM_MACROS; m++)
		bad += (rd(g, GAUDI_NIC_MACRO(m) + NIC_MAC_CORE_OFFSET +
			   NIC_MAC_CORE_MAC_REC_STS0) & MAC_REC_STS0_LINK) != 0;
	ok_eq(bad, 0, "no link bits before any link is up");
	gaudi_nic_set_link(g, 3, true);
	ok_eq(rd(g, sts1) & MAC_REC_STS0_LINK, 0xCU << MAC_REC_STS0_LINK_SHIFT,
	      "port 3 up: lanes 2-3 of macro 1");
	gaudi_nic_set_link(g, 2, true);
	ok_eq(rd(g, sts1) & MAC_REC_STS0_LINK, MAC_REC_STS0_LINK,
	      "ports 2 and 3 up: all four lanes");
	ok(rd(g, GAUDI_NIC_MACRO(1) + NIC_MAC_CH_OFFSET(2) +
	      NIC_MAC_CH_PCS_STATUS) & MAC_CH_PCS_STATUS_LINK,
	   "PCS link bit of lane 2");
	ok(!(rd(g, GAUDI_NIC_MACRO(0) + NIC_MAC_CORE_OFFSET +
		NIC_MAC_CORE_MAC_REC_STS0) & MAC_REC_STS0_LINK) &&
	   !(rd(g, GAUDI_NIC_MACRO(2) + NIC_MAC_CORE_OFFSET +
		NIC_MAC_CORE_MAC_REC_STS0) & MAC_REC_STS0_LINK),
	   "neighbouring macros show no link");
	wr(g, sts1, 0xFFFFFFFFU);
	gaudi_nic_set_link(g, 3, false);
	ok_eq(rd(g, sts1), ~(0xCU << MAC_REC_STS0_LINK_SHIFT),
	      "port 3 down: its lanes clear, other bits as written");
	ok(gaudi_nic_link(g, 2) && !gaudi_nic_link(g, 3) &&
	   !gaudi_nic_link(g, 10), "gaudi_nic_link()");

	ok_eq(rd(g, qpc(5, NIC_QPC_REQ_QPC_CACHE_INV_STATUS)),
	      QPC_CACHE_INV_STATUS_DONE | QPC_CACHE_INV_STATUS_IDLE,
	      "requester cache invalidation reads done and idle");
	wr(g, qpc(5, NIC_QPC_RES_QPC_CACHE_INVALIDATE), 1);
	ok_eq(rd(g, qpc(5, NIC_QPC_RES_QPC_CACHE_INV_STATUS)), 3,
	      "responder too, right after an invalidation");
	wr(g, txe(9, NIC_TXE_PORT1_MAC_CFG_31_0), 0xB0FD0B09);
	wr(g, txe(8, NIC_TXE_PORT1_MAC_CFG_31_0), 0xB0FD0B08);
	ok(rd(g, txe(9, NIC_TXE_PORT1_MAC_CFG_31_0)) == 0xB0FD0B09 &&
	   rd(g, txe(8, NIC_TXE_PORT1_MAC_CFG_31_0)) == 0xB0FD0B08 &&
	   txe(9, 0) - txe(8, 0) == GAUDI_NIC_PORT_STRIDE &&
	   txe(9, 0) == 0xCF2000 + 4 * GAUDI_NIC_MACRO_STRIDE + 0x1000,
	   "odd port's TXE 0x1000 above the even port's, macro 4 at 0xDC0000");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

static void test_gateway(void)
{
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	uint32_t old[48], mem[16], before[48], e[16];
	uint8_t *req = fb.hbm + REQ_QPC_HBM;
	unsigned int i, p = 1, good = 0;

	qpc_tables(g, p);
	fill((uint8_t *)old, sizeof(old), 7);
	memcpy(req + 64 * 4, old, sizeof(old));	/* QPs 4, 5, 6 */
	for (i = 0; i < 16; i++) {
		wr(g, qpc(p, NIC_QPC_GW_MASK(i)), 0);
		wr(g, qpc(p, NIC_QPC_GW_DATA(i)), 0xA0A0A000 + i);
	}
	wr(g, qpc(p, NIC_QPC_GW_MASK(0)), 0xFFFF0000);
	wr(g, qpc(p, NIC_QPC_GW_MASK(3)), 0xFFFFFFFF);
	wr(g, qpc(p, NIC_QPC_GW_MASK(15)), 0x80000000);
	wr(g, qpc(p, NIC_QPC_GW_CTRL), 5 | QPC_GW_CTRL_REQUESTER);
	wr(g, qpc(p, NIC_QPC_GW_BUSY), 1);
	ok_eq(rd(g, qpc(p, NIC_QPC_GW_BUSY)), 0, "GW_BUSY clears");
	memcpy(mem, req + 64 * 5, sizeof(mem));
	for (i = 0; i < 16; i++) {
		uint32_t want = old[16 + i];

		if (i == 0)
			want = (want & 0xFFFF) | 0xA0A00000;
		else if (i == 3)
			want = 0xA0A0A003;
		else if (i == 15)
			want = (want & 0x7FFFFFFF) | 0x80000000;
		good += mem[i] == want &&
			rd(g, qpc(p, NIC_QPC_GW_DATA(i))) == want;
	}
	ok_eq(good, 16, "masked write: only masked bits change; GW_DATA "
	      "holds the entry");
	ok(!memcmp(req + 64 * 4, old, 64) && !memcmp(req + 64 * 6, old + 32, 64),
	   "QPs 4 and 6 untouched");

	/* All masks 0: a read. */
	memcpy(before, req + 64 * 4, sizeof(before));
	for (i = 0; i < 16; i++)
		wr(g, qpc(p, NIC_QPC_GW_MASK(i)), 0);
	wr(g, qpc(p, NIC_QPC_GW_CTRL), 6 | QPC_GW_CTRL_REQUESTER);
	wr(g, qpc(p, NIC_QPC_GW_BUSY), 1);
	for (good = 0, i = 0; i < 16; i++)
		good += rd(g, qpc(p, NIC_QPC_GW_DATA(i))) == old[32 + i];
	ok(good == 16 && !memcmp(before, req + 64 * 4, sizeof(before)),
	   "masks 0: GW_DATA reads QP 6, memory unchanged");

	/* Responder: 32-byte entries, full mask. */
	memset(fb.hbm + RES_QPC_HBM, 0x5A, 32 * 9);
	for (i = 0; i < 16; i++) {
		wr(g, qpc(p, NIC_QPC_GW_MASK(i)), 0xFFFFFFFF);
		wr(g, qpc(p, NIC_QPC_GW_DATA(i)), 0x11111111 * (i & 7));
	}
	wr(g, qpc(p, NIC_QPC_GW_CTRL), 7);
	wr(g, qpc(p, NIC_QPC_GW_BUSY), 1);
	memcpy(e, fb.hbm + RES_QPC_HBM + 32 * 7, 32);
	for (good = 0, i = 0; i < 8; i++)
		good += e[i] == 0x11111111 * i;
	ok(good == 8 && fb.hbm[RES_QPC_HBM + 32 * 8] == 0x5A &&
	   fb.hbm[RES_QPC_HBM + 32 * 7 - 1] == 0x5A,
	   "responder entry 7: exactly its 32 bytes written");

	/* A table address that decodes to nothing. */
	wr(g, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_49_18), NOTHING >> 18);
	wr(g, qpc(p, NIC_QPC_GW_CTRL), 1 | QPC_GW_CTRL_REQUESTER);
	wr(g, qpc(p, NIC_QPC_GW_BUSY), 1);
	ok(rd(g, qpc(p, NIC_QPC_GW_BUSY)) == 0 && fb.guest_errors == 1,
	   "bad table address: guest error, GW_BUSY clears (%s)",
	   fb.last_error);
	fakebus_free(&fb);
}

static void test_tx(void)
{
	static uint8_t f0[1500], f1[9000];
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	unsigned int p = 2, i, sent;

	raw_tx_setup(&fb, p);
	gaudi_nic_set_link(g, p, true);
	fill(f0, sizeof(f0), 1);
	fill(f1, sizeof(f1), 2);
	f1[0] = 0xFF;
	memset(f1, 0xFF, 6);	/* broadcast */
	memcpy(fb.hbm + FRAME_HBM, f0, sizeof(f0));
	memcpy(fb.host + FRAME_BUS, f1, sizeof(f1));
	put_wqe(&fb, 0, WQE_LINEAR, FRAME_HBM, sizeof(f0));
	put_wqe(&fb, 1, WQE_NOP, 0, 0);
	put_wqe(&fb, 2, WQE_LINEAR, fake_host_dev(FRAME_BUS), sizeof(f1));
	ring(g, p, 3, NIC_QPC_SECURED_DOORBELL_QPN);
	ok_eq(w.frames, 2, "two LINEAR WQEs, two frames (NOP skipped)");
	ok(w.last_port == p && w.len[0] == sizeof(f0) && w.len[1] == sizeof(f1) &&
	   !memcmp(w.buf[0], f0, sizeof(f0)) && !memcmp(w.buf[1], f1, sizeof(f1)),
	   "frames from HBM and from host memory reach the backend byte-exact");
	ok_eq(rd(g, qpc(p, NIC_QPC_REQ_RING0_CI)), 3, "REQ_RING0_CI follows PI");
	ok_eq(rd(g, qpc(p, NIC_QPC_SECURED_DOORBELL_QPN)), GAUDI_NIC_RAW_QPN,
	      "doorbell BUSY reads back clear");
	ok(stat64(g, p, false, STAT_TX_AFRAMESTRANSMITTEDOK) == 2 &&
	   stat64(g, p, false, STAT_TX_OCTETSTRANSMITTEDOK) ==
	   sizeof(f0) + sizeof(f1) &&
	   stat64(g, p, false, STAT_TX_IFOUTBROADCASTPKTS) == 1 &&
	   stat64(g, p, false, STAT_TX_IFOUTUCASTPKTS) == 1,
	   "STAT: frames, octets, unicast and broadcast transmitted");
	ok_eq(stat64(g, p ^ 1, false, STAT_TX_AFRAMESTRANSMITTEDOK), 0,
	      "the other port of the macro counted nothing");

	/* Around the ring: 300 more, one doorbell each. */
	for (i = 3; i < 303; i++) {
		put_wqe(&fb, i % SQ_ENTRIES, WQE_LINEAR, FRAME_HBM, 60 + i % 7);
		ring(g, p, (i + 1) % SQ_ENTRIES, NIC_QPC_SECURED_DOORBELL_QPN);
	}
	ok(w.frames == 302 && rd(g, qpc(p, NIC_QPC_REQ_RING0_CI)) ==
	   303 % SQ_ENTRIES, "the send queue wraps at %u WQEs", SQ_ENTRIES);

	/* The privileged doorbell sends too; without link nothing leaves. */
	put_wqe(&fb, 303 % SQ_ENTRIES, WQE_LINEAR, FRAME_HBM, 64);
	ring(g, p, 304 % SQ_ENTRIES, NIC_QPC_PRIVILEGE_DOORBELL_QPN);
	ok_eq(w.frames, 303, "privileged doorbell sends");
	gaudi_nic_set_link(g, p, false);
	sent = w.frames;
	put_wqe(&fb, 304 % SQ_ENTRIES, WQE_LINEAR, FRAME_HBM, 64);
	ring(g, p, 305 % SQ_ENTRIES, NIC_QPC_SECURED_DOORBELL_QPN);
	ok(w.frames == sent &&
	   stat64(g, p, false, STAT_TX_IFOUTERRORS) == 1 &&
	   rd(g, qpc(p, NIC_QPC_REQ_RING0_CI)) == 305 % SQ_ENTRIES,
	   "link down: the WQE completes, the frame is counted as an error");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

static void test_tx_bad(void)
{
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	unsigned int p = 6, errs;
	uint64_t ev0;
	uint32_t e, qpn;

	raw_tx_setup(&fb, p);
	gaudi_nic_set_link(g, p, true);
	wr(g, qpc(p, NIC_QPC_ERR_FIFO_BASE_ADDR_49_18), ERR_FIFO_HBM >> 18);
	wr(g, qpc(p, NIC_QPC_ERR_FIFO_BASE_ADDR_17_7), ERR_FIFO_HBM & 0x3FF80);
	wr(g, qpc(p, NIC_QPC_ERR_FIFO_MASK), 1023);
	wr(g, qpc(p, NIC_QPC_INTERRUPT_MASK), 1U << QPC_INTERRUPT_QP_ERR);
	wr(g, qpc(p, NIC_QPC_INTERRUPT_EN),
	   QPC_INTERRUPT_EN_WIRE(QPC_INTERRUPT_QP_ERR));

	put_wqe(&fb, 0, 7, FRAME_HBM, 64);
	put_wqe(&fb, 1, WQE_LINEAR, FRAME_HBM, 0);
	put_wqe(&fb, 2, WQE_LINEAR, NOTHING, 100);
	put_wqe(&fb, 3, WQE_LINEAR, FRAME_HBM, 100);
	ring(g, p, 4, NIC_QPC_SECURED_DOORBELL_QPN);
	ok(w.frames == 1 && w.len[0] == 100 && fb.guest_errors == 3 &&
	   stat64(g, p, false, STAT_TX_IFOUTERRORS) == 3,
	   "bad opcode, empty frame, unreadable frame: skipped and counted; "
	   "the good WQE after them sends");
	ok_eq(rd(g, qpc(p, NIC_QPC_REQ_RING0_CI)), 4, "CI passed all four");

	errs = fb.guest_errors;
	ring(g, p, SQ_ENTRIES, NIC_QPC_SECURED_DOORBELL_QPN);
	ok(fb.guest_errors == errs + 1 && w.frames == 1 &&
	   rd(g, qpc(p, NIC_QPC_REQ_RING0_CI)) == 4,
	   "PI beyond the queue: refused (%s)", fb.last_error);

	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_49_32(1)), NOTHING >> 32);
	put_wqe(&fb, 4, WQE_LINEAR, FRAME_HBM, 100);
	ring(g, p, 5, NIC_QPC_SECURED_DOORBELL_QPN);
	ok(w.frames == 1 && rd(g, qpc(p, NIC_QPC_REQ_RING0_CI)) == 4 &&
	   fb.guest_errors == errs + 2,
	   "unreadable send queue: the queue stops at the WQE");
	wr(g, txe(p, NIC_TXE_SQ_BASE_ADDRESS_49_32(1)), 0);

	wr(g, txe(p, NIC_TXE_LOG_MAX_WQ_SIZE(1)), 31);
	ring(g, p, 5, NIC_QPC_SECURED_DOORBELL_QPN);
	ok(w.frames == 1 && fb.guest_errors == errs + 3,
	   "absurd LOG_MAX_WQ_SIZE refused");
	wr(g, txe(p, NIC_TXE_LOG_MAX_WQ_SIZE(1)), SQ_LOG);

	/* Unsecured doorbell on the raw QP: security check, QP error. */
	ev0 = g->eq.posted + g->eq.drops;
	ring(g, p, 5, NIC_QPC_UNSECURED_DOORBELL_QPN);
	memcpy(&e, fb.hbm + ERR_FIFO_HBM, 4);
	ok(w.frames == 1 && rd(g, qpc(p, NIC_QPC_ERR_FIFO_PRODUCER_INDEX)) == 1 &&
	   (e & QP_ERR_SYNDROME) >> 24 == QP_ERR_SYNDROME_DB_SECURITY &&
	   (e & QP_ERR_REQUESTER) && (e & QP_ERR_QPN) == GAUDI_NIC_RAW_QPN,
	   "unsecured doorbell on the raw QP: nothing sent, error FIFO entry "
	   "0x%x", e);
	ok(rd(g, qpc(p, NIC_QPC_INTERRUPT_CAUSE)) &
	   (1U << QPC_INTERRUPT_QP_ERR) && g->nic.port[p].wire_irqs == 1 &&
	   g->eq.posted + g->eq.drops == ev0 + 1,
	   "QP error interrupt: cause bit, wire interrupt, NIC QP event");

	/* Doorbell on an invalid QP. */
	qpn = 9;
	put_req_qpc(&fb, qpn, false, QPC_TRANSPORT_RAW);
	wr(g, qpc(p, NIC_QPC_SECURED_DOORBELL_PI), 1);
	wr(g, qpc(p, NIC_QPC_SECURED_DOORBELL_QPN), QPC_DOORBELL_BUSY | qpn);
	memcpy(&e, fb.hbm + ERR_FIFO_HBM + 4, 4);
	ok((e & QP_ERR_SYNDROME) >> 24 == QP_ERR_SYNDROME_DB_INVALID_QP &&
	   (e & QP_ERR_QPN) == qpn && w.frames == 1,
	   "doorbell on an invalid QP: error FIFO entry, nothing sent");
	ok(g->nic.port[p].wire_irqs == 1,
	   "no second interrupt until INTERRUPT_CLR");

	/* An RC QP is the RoCE engine's (test_roce.c): nothing posted. */
	errs = fb.guest_errors;
	put_req_qpc(&fb, 10, true, QPC_TRANSPORT_RC);
	wr(g, qpc(p, NIC_QPC_SECURED_DOORBELL_PI), 0);
	wr(g, qpc(p, NIC_QPC_SECURED_DOORBELL_QPN), QPC_DOORBELL_BUSY | 10);
	ok(fb.guest_errors == errs && w.frames == 1,
	   "doorbell on an RC QP with nothing posted: RoCE engine, no error");

	/* Context table that decodes to nothing. */
	wr(g, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_49_18), NOTHING >> 18);
	ring(g, p, 5, NIC_QPC_SECURED_DOORBELL_QPN);
	ok(fb.guest_errors == errs + 1 && w.frames == 1,
	   "unreadable context: guest error, nothing sent");
	fakebus_free(&fb);
}

/* Port p's receive ring in host memory, interrupt 4 to PCIE_CORE_MSI_REQ. */
static void raw_rx_setup(struct gaudi_core *g, unsigned int p, uint64_t bus,
			 uint32_t msi_addr)
{
	uint64_t dev = fake_host_dev(bus);

	wr(g, rxe(p, NIC_RXE_RAW_BASE_LO_P0), (uint32_t)dev);
	wr(g, rxe(p, NIC_RXE_RAW_BASE_HI_P0),
	   (uint32_t)(dev >> 32) | (13U << RAW_BASE_HI_LOG_ENTRY_SHIFT));
	wr(g, qpc(p, NIC_QPC_INTERRUPT_BASE(QPC_INTERRUPT_RX)), msi_addr);
	wr(g, qpc(p, NIC_QPC_INTERRUPT_DATA(QPC_INTERRUPT_RX)), 1);
	wr(g, qpc(p, NIC_QPC_INTERRUPT_EN), QPC_INTERRUPT_EN_MSI(QPC_INTERRUPT_RX));
	wr(g, qpc(p, NIC_QPC_INTERRUPT_MASK), 1U << QPC_INTERRUPT_RX);
}

static void test_rx(void)
{
	static uint8_t f[3][9000];
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	unsigned int p = 4, msi;

	raw_rx_setup(g, p, RING_BUS, mmPCIE_CORE_MSI_REQ);
	fill(f[0], sizeof(f[0]), 11);
	fill(f[1], sizeof(f[1]), 12);
	memset(f[1], 0xFF, 6);
	fill(f[2], sizeof(f[2]), 13);
	f[2][0] |= 1;	/* multicast */
	ok(!gaudi_nic_receive(g, p, f[0], 60) &&
	   rd(g, qpc(p, NIC_QPC_RES_RING0_PI)) == 0,
	   "no link: nothing received");
	gaudi_nic_set_link(g, p, true);
	msi = fb.msi_count;
	ok(gaudi_nic_receive(g, p, f[0], 60), "a 60-byte frame is received");
	ok(!memcmp(fb.host + RING_BUS, f[0], 60) &&
	   rd(g, qpc(p, NIC_QPC_RES_RING0_PI)) == 1,
	   "frame in slot 0 from its destination MAC, RES_RING0_PI 1");
	ok(fb.msi_count == msi + 1 &&
	   rd(g, qpc(p, NIC_QPC_INTERRUPT_CAUSE)) & (1U << QPC_INTERRUPT_RX),
	   "MSI through INTERRUPT_BASE_4/DATA_4, cause bit 4");
	ok(raw_len(&fb, 0) == (RAW_LEN_VALID | 60),
	   "the slot's last word: length 60, valid");
	ok(gaudi_nic_receive(g, p, f[1], 8188) &&
	   !memcmp(fb.host + RING_BUS + 8192, f[1], 8188) &&
	   raw_len(&fb, 1) == (RAW_LEN_VALID | 8188) &&
	   fb.msi_count == msi + 1,
	   "a full frame (8 KiB less the length word) in slot 1; no MSI "
	   "until re-armed");
	wr(g, qpc(p, NIC_QPC_INTERRUPT_CLR), 0xFFFF);
	ok(gaudi_nic_receive(g, p, f[2], 1514) && fb.msi_count == msi + 2 &&
	   !memcmp(fb.host + RING_BUS + 2 * 8192, f[2], 1514),
	   "after INTERRUPT_CLR the next frame raises the MSI again");
	ok(raw_len(&fb, 2) == (RAW_LEN_VALID | 1514),
	   "slot 2's length word: 1514");
	ok(!gaudi_nic_receive(g, p, f[0], 8189) &&
	   rd(g, qpc(p, NIC_QPC_RES_RING0_PI)) == 3 &&
	   stat64(g, p, true, STAT_RX_AFRAMETOOLONGERRORS) == 1,
	   "longer than a slot less its length word: dropped and counted");
	ok(stat64(g, p, true, STAT_RX_AFRAMESRECEIVEDOK) == 3 &&
	   stat64(g, p, true, STAT_RX_OCTETSRECEIVEDOK) == 60 + 8188 + 1514 &&
	   stat64(g, p, true, STAT_RX_IFINUCASTPKTS) == 1 &&
	   stat64(g, p, true, STAT_RX_IFINBROADCASTPKTS) == 1 &&
	   stat64(g, p, true, STAT_RX_IFINMULTICASTPKTS) == 1,
	   "STAT: frames, octets, unicast, broadcast, multicast received");

	/* Masked: the cause is set, no MSI. */
	wr(g, qpc(p, NIC_QPC_INTERRUPT_MASK), 0);
	wr(g, qpc(p, NIC_QPC_INTERRUPT_CLR), 0xFFFF);
	ok(gaudi_nic_receive(g, p, f[0], 64) && fb.msi_count == msi + 2 &&
	   rd(g, qpc(p, NIC_QPC_INTERRUPT_CAUSE)) & (1U << QPC_INTERRUPT_RX),
	   "interrupt masked: cause only");

	/* Odd port: MSI enable does nothing (hardware bug), wire does. */
	raw_rx_setup(g, 5, RING_BUS + (8 << 20) - (4 << 20), 0xFCC04100);
	gaudi_nic_set_link(g, 5, true);
	ok(gaudi_nic_receive(g, 5, f[0], 64) && fb.msi_count == msi + 2,
	   "odd port: no MSI from MSI_EN");
	wr(g, qpc(5, NIC_QPC_INTERRUPT_EN), QPC_INTERRUPT_EN_WIRE(4));
	wr(g, qpc(5, NIC_QPC_INTERRUPT_CLR), 0xFFFF);
	ok(gaudi_nic_receive(g, 5, f[0], 64) && g->nic.port[5].wire_irqs == 1 &&
	   fb.msi_count == msi + 2, "odd port: wire interrupt");

	/* The 32-bit LBW form of the MSI address works too. */
	raw_rx_setup(g, 0, RING_BUS + (8 << 20), 0xFCC04100);
	gaudi_nic_set_link(g, 0, true);
	ok(gaudi_nic_receive(g, 0, f[0], 64) && fb.msi_count == msi + 3,
	   "MSI address as 0xFCC04100");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

static void test_ring_full(void)
{
	static uint8_t f[64];
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	unsigned int p = 8, i, got = 0;

	raw_rx_setup(g, p, RING_BUS, mmPCIE_CORE_MSI_REQ);
	gaudi_nic_set_link(g, p, true);
	fill(f, sizeof(f), 3);
	for (i = 0; i < GAUDI_NIC_RAW_RING_SLOTS - 1; i++) {
		f[20] = i;
		got += gaudi_nic_receive(g, p, f, sizeof(f));
	}
	ok_eq(got, GAUDI_NIC_RAW_RING_SLOTS - 1, "511 frames fill the ring");
	ok(!gaudi_nic_can_receive(g, p), "can_receive: no");
	ok(gaudi_nic_rx_full(g, p), "rx_full: yes (a frame should wait)");
	ok(!gaudi_nic_receive(g, p, f, sizeof(f)) &&
	   stat64(g, p, true, STAT_RX_ETHERSTATSDROPEVENTS) == 1 &&
	   rd(g, qpc(p, NIC_QPC_RES_RING0_PI)) == GAUDI_NIC_RAW_RING_SLOTS - 1,
	   "the 512th is dropped and counted, PI stays");
	ok_eq(fb.host[RING_BUS + 510ULL * 8192 + 20], 510 & 0xFF,
	      "slot 510 holds frame 510");
	wr(g, qpc(p, NIC_QPC_RES_RING0_CI), 10);
	ok(w.rx_ready == 1 && w.ready_port == p && gaudi_nic_can_receive(g, p),
	   "the driver consumes slots: the backend hears rx_ready");
	ok(!gaudi_nic_rx_full(g, p), "rx_full: no once slots are free");
	f[20] = 0xEE;
	ok(gaudi_nic_receive(g, p, f, sizeof(f)) &&
	   rd(g, qpc(p, NIC_QPC_RES_RING0_PI)) == 0 &&
	   fb.host[RING_BUS + 511ULL * 8192 + 20] == 0xEE,
	   "the ring wraps: slot 511, PI back to 0");
	wr(g, qpc(p, NIC_QPC_RES_RING0_CI), 11);
	ok_eq(w.rx_ready, 1, "no rx_ready when the ring was not full");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

static void test_rx_bad(void)
{
	static uint8_t f[100];
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	unsigned int p = 1;

	gaudi_nic_set_link(g, p, true);
	ok(!gaudi_nic_receive(g, p, f, sizeof(f)) &&
	   stat64(g, p, true, STAT_RX_ETHERSTATSDROPEVENTS) == 1 &&
	   !gaudi_nic_can_receive(g, p), "ring not set up: dropped, counted");
	ok(!gaudi_nic_rx_full(g, p) && !gaudi_nic_rx_full(g, 99),
	   "rx_full: no without a ring (frames drop rather than wait)");
	wr(g, rxe(p, NIC_RXE_RAW_BASE_LO_P0), (uint32_t)NOTHING);
	wr(g, rxe(p, NIC_RXE_RAW_BASE_HI_P0), (uint32_t)(NOTHING >> 32) |
	   (13U << RAW_BASE_HI_LOG_ENTRY_SHIFT));
	ok(!gaudi_nic_receive(g, p, f, sizeof(f)) && fb.guest_errors == 1 &&
	   rd(g, qpc(p, NIC_QPC_RES_RING0_PI)) == 0 &&
	   stat64(g, p, true, STAT_RX_ETHERSTATSDROPEVENTS) == 2,
	   "ring address decodes to nothing: guest error, dropped (%s)",
	   fb.last_error);
	wr(g, rxe(p, NIC_RXE_RAW_BASE_HI_P0), 0);
	wr(g, rxe(p, NIC_RXE_RAW_BASE_LO_P0), 0x100000);
	ok(!gaudi_nic_receive(g, p, f, sizeof(f)) &&
	   stat64(g, p, true, STAT_RX_ETHERSTATSDROPEVENTS) == 3,
	   "slot size field 0: dropped");
	ok(!gaudi_nic_receive(g, 10, f, sizeof(f)) &&
	   !gaudi_nic_receive(g, p, NULL, 60) &&
	   !gaudi_nic_receive(g, p, f, 0) && !gaudi_nic_can_receive(g, 99),
	   "bad port, NULL frame, empty frame: refused");
	gaudi_nic_set_link(g, 77, true);
	ok(!gaudi_nic_link(g, 77), "no port 77");
	fakebus_free(&fb);
}

static void test_stat_and_reset(void)
{
	static uint8_t f[200];
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	uint32_t stat_cfg = GAUDI_NIC_MACRO(1) + NIC_STAT_OFFSET +
			    NIC_STAT_STATN_CONFIG;
	unsigned int i;

	raw_rx_setup(g, 2, RING_BUS, mmPCIE_CORE_MSI_REQ);
	raw_rx_setup(g, 3, RING_BUS + (4 << 20), mmPCIE_CORE_MSI_REQ);
	raw_rx_setup(g, 4, RING_BUS + (8 << 20), mmPCIE_CORE_MSI_REQ);
	gaudi_nic_set_link(g, 2, true);
	gaudi_nic_set_link(g, 3, true);
	gaudi_nic_set_link(g, 4, true);
	fill(f, sizeof(f), 5);
	for (i = 0; i < 5; i++) {
		gaudi_nic_receive(g, 2, f, sizeof(f));
		gaudi_nic_receive(g, 3, f, sizeof(f));
		gaudi_nic_receive(g, 4, f, sizeof(f));
	}
	/* 2^32 + 5 octets: the high word through DATA_HI_REG. */
	g->nic.port[2].cnt[GAUDI_NIC_RX_OCTETS] += 1ULL << 32;
	ok_eq(stat64(g, 2, true, STAT_RX_ETHERSTATSOCTETS),
	      (1ULL << 32) + 1000, "64-bit counter: low word, then DATA_HI_REG");
	wr(g, stat_reg(2, true, STAT_RX_AFRAMESRECEIVEDOK), 77);
	ok_eq(stat64(g, 2, true, STAT_RX_AFRAMESRECEIVEDOK), 5,
	      "counters ignore writes");
	wr(g, stat_cfg, STATN_CONFIG_RESET);
	ok(stat64(g, 2, true, STAT_RX_AFRAMESRECEIVEDOK) == 0 &&
	   stat64(g, 3, true, STAT_RX_AFRAMESRECEIVEDOK) == 0 &&
	   stat64(g, 4, true, STAT_RX_AFRAMESRECEIVEDOK) == 5,
	   "STATN_CONFIG reset clears both ports of macro 1 only");

	wr(g, qpc(4, NIC_QPC_RES_RING0_CI), 3);
	gaudi_core_reset(g);
	ok(rd(g, qpc(4, NIC_QPC_RES_RING0_PI)) == 0 &&
	   rd(g, qpc(4, NIC_QPC_RES_RING0_CI)) == 0 &&
	   rd(g, qpc(4, NIC_QPC_INTERRUPT_CAUSE)) == 0 &&
	   rd(g, rxe(4, NIC_RXE_RAW_BASE_LO_P0)) == 0,
	   "reset: ring indices, interrupt cause and ring address cleared");
	ok(stat64(g, 4, true, STAT_RX_AFRAMESRECEIVEDOK) == 0 &&
	   gaudi_nic_counter(g, 4, GAUDI_NIC_RX_OCTETS) == 0,
	   "reset: counters cleared");
	ok(gaudi_nic_link(g, 4) &&
	   (rd(g, GAUDI_NIC_MACRO(2) + NIC_MAC_CORE_OFFSET +
	       NIC_MAC_CORE_MAC_REC_STS0) & MAC_REC_STS0_LINK) ==
	   (0x3U << MAC_REC_STS0_LINK_SHIFT),
	   "reset: the link (the cable's) stays");
	ok(!gaudi_nic_receive(g, 4, f, sizeof(f)),
	   "after reset the ring must be set up again");
	raw_rx_setup(g, 4, RING_BUS, mmPCIE_CORE_MSI_REQ);
	ok(gaudi_nic_receive(g, 4, f, sizeof(f)) &&
	   rd(g, qpc(4, NIC_QPC_RES_RING0_PI)) == 1, "and then receives");
	raw_tx_setup(&fb, 4);
	put_wqe(&fb, 0, WQE_LINEAR, FRAME_HBM, 64);
	ring(g, 4, 1, NIC_QPC_SECURED_DOORBELL_QPN);
	ok_eq(w.frames, 1, "the backend stays connected across reset");
	gaudi_nic_set_backend(g, NULL);
	put_wqe(&fb, 1, WQE_LINEAR, FRAME_HBM, 64);
	ring(g, 4, 2, NIC_QPC_SECURED_DOORBELL_QPN);
	ok(w.frames == 1 && rd(g, qpc(4, NIC_QPC_REQ_RING0_CI)) == 2,
	   "no backend: the frame goes nowhere, the queue still moves");
	fakebus_free(&fb);
}

/*
 * Guest input never stops the model: random writes to the registers that
 * have behaviour (with values that often point into memory), frames in
 * between, under ASan/UBSan.  Then the card still works after a reset.
 */
static void test_random_guest(void)
{
	static const uint32_t hot[] = {
		NIC_QPC_REQ_BASE_ADDRESS_49_18, NIC_QPC_REQ_BASE_ADDRESS_17_7,
		NIC_QPC_RES_BASE_ADDRESS_49_18, NIC_QPC_GW_CTRL,
		NIC_QPC_GW_BUSY, NIC_QPC_GW_MASK(0), NIC_QPC_GW_DATA(15),
		NIC_QPC_SECURED_DOORBELL_PI, NIC_QPC_SECURED_DOORBELL_QPN,
		NIC_QPC_UNSECURED_DOORBELL_QPN, NIC_QPC_PRIVILEGE_DOORBELL_QPN,
		NIC_QPC_RES_RING0_CI, NIC_QPC_RES_RING0_PI,
		NIC_QPC_INTERRUPT_MASK, NIC_QPC_INTERRUPT_EN,
		NIC_QPC_INTERRUPT_CLR, NIC_QPC_INTERRUPT_BASE(4),
		NIC_QPC_INTERRUPT_BASE(8), NIC_QPC_INTERRUPT_DATA(4),
		NIC_QPC_ERR_FIFO_BASE_ADDR_49_18, NIC_QPC_ERR_FIFO_MASK,
	};
	static uint8_t f[9000];
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	unsigned int i, p, alive = 0;
	uint32_t v, off;

	srand(99);
	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
		raw_rx_setup(g, p, RING_BUS, mmPCIE_CORE_MSI_REQ);
		gaudi_nic_set_link(g, p, true);
	}
	raw_tx_setup(&fb, 0);
	fill(fb.hbm + REQ_QPC_HBM, 1 << 16, 5);
	fill(fb.hbm + SQ_HBM, 1 << 16, 6);
	for (i = 0; i < 20000; i++) {
		p = rand() % GAUDI_NIC_NUM_PORTS;
		switch (rand() % 4) {
		case 0:
			v = rand();
			break;
		case 1:
			v = rand() % 1024;
			break;
		case 2:
			v = QPC_DOORBELL_BUSY | rand() % 16;
			break;
		default:
			v = (uint32_t)(REQ_QPC_HBM >> (rand() % 2 ? 18 : 7));
			break;
		}
		if (rand() % 8) {
			off = qpc(p, hot[rand() % GAUDI_ARRAY_SIZE(hot)]);
		} else {
			off = GAUDI_NIC_PORT_MACRO(p) + NIC_RXE_OFFSET +
			      (rand() % 0x2000 & ~3U);
			if (rand() % 2)
				off = txe(p, rand() % 0x100 & ~3U);
		}
		/* Keep the MSI targets off the reset and boot registers. */
		if (off == qpc(p, NIC_QPC_INTERRUPT_BASE(4)) ||
		    off == qpc(p, NIC_QPC_INTERRUPT_BASE(8)))
			v = rand() % 2 ? mmPCIE_CORE_MSI_REQ :
			    qpc(rand() % GAUDI_NIC_NUM_PORTS,
				hot[rand() % GAUDI_ARRAY_SIZE(hot)]);
		wr(g, off, v);
		if (i % 16 == 0)
			gaudi_nic_receive(g, rand() % GAUDI_NIC_NUM_PORTS, f,
					  rand() % sizeof(f));
	}
	ok(1, "20000 random register writes and 1250 frames: the model "
	   "runs on (%u guest errors)", fb.guest_errors);
	gaudi_core_reset(g);
	raw_rx_setup(g, 3, RING_BUS, mmPCIE_CORE_MSI_REQ);
	memset(fb.host + RING_BUS, 0, 64);
	fill(f, 64, 8);
	alive = gaudi_nic_receive(g, 3, f, 64) &&
		!memcmp(fb.host + RING_BUS, f, 64);
	ok(alive, "after a reset the card receives again");
	fakebus_free(&fb);
}

/*
 * PCS low power switches a port's transmitter off and the environment
 * hears it; a link change is offered to the event queue (STATUS_NIC).
 */
static unsigned int power_calls, power_port;

static void wire_power(void *opaque, unsigned int port)
{
	(void)opaque;
	power_calls++;
	power_port = port;
}

static void test_power_and_link_event(void)
{
	struct fakebus fb;
	struct wire w;
	struct gaudi_core *g = card(&fb, &w);
	struct gaudi_nic_backend be = {
		.opaque = &w,
		.send = wire_send,
		.power_changed = wire_power,
	};
	uint32_t lane2 = GAUDI_NIC_MACRO(1) + NIC_MAC_CH_OFFSET(2) +
			 NIC_MAC_CH_PCS_CONTROL1;
	uint32_t lane0 = GAUDI_NIC_MACRO(1) + NIC_MAC_CH_OFFSET(0) +
			 NIC_MAC_CH_PCS_CONTROL1;
	uint64_t ev0;

	gaudi_nic_set_backend(g, &be);
	power_calls = 0;
	ok(gaudi_nic_powered(g, 2) && gaudi_nic_powered(g, 3),
	   "ports are powered at reset");
	wr(g, lane2, MAC_CH_PCS_CONTROL1_LOW_POWER);
	ok(!gaudi_nic_powered(g, 3) && gaudi_nic_powered(g, 2) &&
	   power_calls == 1 && power_port == 3,
	   "lane 2 in low power: port 3 off, port 2 on, the backend told");
	wr(g, lane2, MAC_CH_PCS_CONTROL1_LOW_POWER | 1);
	ok_eq(power_calls, 1, "no call when nothing changes");
	wr(g, lane0, MAC_CH_PCS_CONTROL1_LOW_POWER);
	ok(!gaudi_nic_powered(g, 2) && power_calls == 2 && power_port == 2,
	   "lane 0 in low power: port 2 off");
	wr(g, lane2, 0);
	ok(gaudi_nic_powered(g, 3) && power_calls == 3,
	   "lane 2 back: port 3 on");
	gaudi_core_reset(g);
	ok(gaudi_nic_powered(g, 2) && power_calls == 4 && power_port == 2,
	   "a device reset wakes the lanes and tells the backend");

	ev0 = g->eq.posted + g->eq.drops;
	gaudi_nic_set_link(g, 4, true);
	gaudi_nic_set_link(g, 4, true);
	gaudi_nic_set_link(g, 4, false);
	ok_eq(g->eq.posted + g->eq.drops, ev0 + 2,
	      "each link change (not a repeat) offers a STATUS_NIC event");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

int main(void)
{
	test_link_and_map();
	test_power_and_link_event();
	test_gateway();
	test_tx();
	test_tx_bad();
	test_rx();
	test_ring_full();
	test_rx_bad();
	test_stat_and_reset();
	test_random_guest();
	return tap_done();
}
