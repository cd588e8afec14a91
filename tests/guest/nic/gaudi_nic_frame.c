// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_nic_frame: send one raw Ethernet frame from card A port X to card
 * B port Y through the emulated wiring, with no NIC driver: only gaudi.ko's
 * debugfs register window (addr, data32) of each card.
 *
 *   gaudi_nic_frame DEBUGFS_A PORT_X DEBUGFS_B PORT_Y [drop]
 *
 * With "drop" the cable is expected to be pulled: the frame leaves the
 * send queue but is counted as an output error and never arrives.
 *
 * Device memory is written and read through the port's QP-context gateway
 * (a masked write of a 32-byte responder entry, Documentation/emulator/
 * nic.rst), whose table base may point anywhere in HBM: that places the
 * frame, the send WQE and the raw QP's requester context, and reads the
 * received slot back.  The area used, HBM 0x30000000.., is user DRAM that
 * nobody has allocated in this test.  Prints TAP; exit status 1 on any
 * failure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaudi1/nic.h"
#include "dbgfs.h"

#define AREA		0x30000000ULL
#define REQ_TABLE	(AREA + 0x000000)	/* 256 KiB aligned */
#define SQ		(AREA + 0x100000)
#define FRAME		(AREA + 0x200000)
#define RING		(AREA + 0x400000)	/* on card B: 4 MiB */
#define SQ_LOG		6
#define FRAME_LEN	96

static int tests, failed;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

static void wr(const char *dir, uint32_t off, uint32_t v)
{
	if (hl_dbgfs_wr32(dir, off, v)) {
		fprintf(stderr, "write 0x%x through %s failed\n", off, dir);
		failed++;
	}
}

static uint32_t rd(const char *dir, uint32_t off)
{
	return hl_dbgfs_rd32(dir, off);
}

/* The port blocks' registers (hw/gaudi1/nic.h). */
#define qpc GAUDI_NIC_QPC_REG
#define rxe GAUDI_NIC_RXE_REG
#define txe GAUDI_NIC_TXE_REG

/*
 * One gateway operation on table entry qpn of the table at base (128-byte
 * aligned): requester (64-byte entries) or responder (32); the words with
 * mask 0xFFFFFFFF are written; masks 0 read.  The entry ends in out.
 */
static void gateway(const char *d, unsigned int p, int req, uint64_t base,
		    uint32_t qpn, const uint32_t *data, int write,
		    uint32_t *out)
{
	unsigned int i, words = req ? 16 : 8;

	if (req) {
		wr(d, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_49_18), base >> 18);
		wr(d, qpc(p, NIC_QPC_REQ_BASE_ADDRESS_17_7),
		   (base >> 7) & 0x7FF);
	} else {
		wr(d, qpc(p, NIC_QPC_RES_BASE_ADDRESS_49_18), base >> 18);
		wr(d, qpc(p, NIC_QPC_RES_BASE_ADDRESS_17_7),
		   (base >> 7) & 0x7FF);
	}
	for (i = 0; i < NIC_QPC_GW_WORDS; i++) {
		wr(d, qpc(p, NIC_QPC_GW_MASK(i)),
		   write && i < words ? 0xFFFFFFFF : 0);
		wr(d, qpc(p, NIC_QPC_GW_DATA(i)), write && i < words ?
		   data[i] : 0);
	}
	wr(d, qpc(p, NIC_QPC_GW_CTRL), qpn | (req ? QPC_GW_CTRL_REQUESTER : 0));
	wr(d, qpc(p, NIC_QPC_GW_BUSY), 1);
	for (i = 0; out && i < words; i++)
		out[i] = rd(d, qpc(p, NIC_QPC_GW_DATA(i)));
}

/* Write len bytes (a multiple of 32) at HBM address addr (32-aligned). */
static void poke(const char *d, unsigned int p, uint64_t addr,
		 const void *buf, size_t len)
{
	uint64_t base = addr & ~127ULL;
	size_t off;

	for (off = 0; off < len; off += 32)
		gateway(d, p, 0, base, (addr + off - base) / 32,
			(const uint32_t *)((const uint8_t *)buf + off), 1, NULL);
}

static void peek(const char *d, unsigned int p, uint64_t addr, void *buf,
		 size_t len)
{
	uint64_t base = addr & ~127ULL;
	size_t off;

	for (off = 0; off < len; off += 32)
		gateway(d, p, 0, base, (addr + off - base) / 32, NULL, 0,
			(uint32_t *)((uint8_t *)buf + off));
}

static void setbits(uint32_t *e, unsigned int bit, unsigned int width,
		    uint32_t v)
{
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int b = bit + i;

		e[b / 32] &= ~(1U << (b % 32));
		e[b / 32] |= ((v >> i) & 1U) << (b % 32);
	}
}

static uint64_t stat(const char *d, unsigned int p, int rx, uint32_t r)
{
	uint32_t base = rx ? ((p & 1) ? NIC_STAT_RX1 : NIC_STAT_RX0) :
			     ((p & 1) ? NIC_STAT_TX1 : NIC_STAT_TX0);
	uint32_t off = GAUDI_NIC_PORT_MACRO(p) + NIC_STAT_OFFSET + base + r;
	uint32_t lo = rd(d, off);

	return ((uint64_t)rd(d, GAUDI_NIC_PORT_MACRO(p) + NIC_STAT_OFFSET +
			     NIC_STAT_DATA_HI_REG) << 32) | lo;
}

int main(int argc, char **argv)
{
	uint8_t frame[FRAME_LEN], got[FRAME_LEN];
	uint32_t ctx[16] = { 0 }, wqe[8] = { 0 };
	const char *a, *b;
	unsigned int x, y, i;
	uint64_t tx0, rx0, err0;
	uint32_t pi;
	int drop;

	drop = argc == 6 && !strcmp(argv[5], "drop");
	if (argc != 5 && !drop) {
		fprintf(stderr, "usage: %s DEBUGFS_A PORT_X DEBUGFS_B PORT_Y "
			"[drop]\n", argv[0]);
		return 2;
	}
	a = argv[1];
	x = strtoul(argv[2], NULL, 0);
	b = argv[3];
	y = strtoul(argv[4], NULL, 0);
	if (x >= GAUDI_NIC_NUM_PORTS || y >= GAUDI_NIC_NUM_PORTS)
		return 2;

	/* Card B: the raw ring of port y, 512 slots of 8 KiB, PI from 0. */
	wr(b, rxe(y, NIC_RXE_RAW_BASE_LO_P0), (uint32_t)RING);
	wr(b, rxe(y, NIC_RXE_RAW_BASE_HI_P0), (uint32_t)(RING >> 32) |
	   (13U << RAW_BASE_HI_LOG_ENTRY_SHIFT));
	wr(b, qpc(y, NIC_QPC_RES_RING0_CI), 0);
	wr(b, qpc(y, NIC_QPC_RES_RING0_PI), 0);

	/* Card A: the frame, one LINEAR WQE, the raw QP 0 and its queue. */
	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x02\x00\x00\x00\x00\x0b\x02\x00\x00\x00\x00\x0a", 12);
	frame[12] = 0x88;	/* local experimental ethertype 0x88B5 */
	frame[13] = 0xB5;
	for (i = 14; i < FRAME_LEN; i++)
		frame[i] = i * 7 + x + 16 * y;
	poke(a, x, FRAME, frame, sizeof(frame));
	wqe[0] = (uint32_t)WQE_LINEAR << NIC_WQE_OPCODE_SHIFT;
	wqe[1] = (uint32_t)FRAME;
	wqe[2] = ((uint32_t)(FRAME >> 32) & NIC_WQE_LOCAL_ADDR_HI) |
		 ((uint32_t)FRAME_LEN << NIC_WQE_SIZE_SHIFT);
	poke(a, x, SQ, wqe, sizeof(wqe));
	setbits(ctx, REQ_QPC_WQ_BASE_ADDR_BIT, 24, 0);
	setbits(ctx, REQ_QPC_TRANSPORT_BIT, 1, QPC_TRANSPORT_RAW);
	setbits(ctx, REQ_QPC_VALID_BIT, 1, 1);
	gateway(a, x, 1, REQ_TABLE, GAUDI_NIC_RAW_QPN, ctx, 1, NULL);
	wr(a, txe(x, NIC_TXE_SQ_BASE_ADDRESS_49_32(0)), (uint32_t)(SQ >> 32));
	wr(a, txe(x, NIC_TXE_SQ_BASE_ADDRESS_31_0(0)), (uint32_t)SQ);
	wr(a, txe(x, NIC_TXE_SQ_BASE_ADDRESS_SEL), 10);
	wr(a, txe(x, NIC_TXE_LOG_MAX_WQ_SIZE(0)), SQ_LOG);
	wr(a, qpc(x, NIC_QPC_REQ_RING0_CI), 0);
	ok(!failed, "card A port set up through the register window");

	tx0 = stat(a, x, 0, STAT_TX_AFRAMESTRANSMITTEDOK);
	err0 = stat(a, x, 0, STAT_TX_IFOUTERRORS);
	rx0 = stat(b, y, 1, STAT_RX_ETHERSTATSPKTS);
	wr(a, qpc(x, NIC_QPC_SECURED_DOORBELL_PI), 1);
	wr(a, qpc(x, NIC_QPC_SECURED_DOORBELL_QPN),
	   QPC_DOORBELL_BUSY | GAUDI_NIC_RAW_QPN);
	ok(rd(a, qpc(x, NIC_QPC_REQ_RING0_CI)) == 1,
	   "doorbell: the send queue's CI reaches 1");
	if (drop) {
		ok(stat(a, x, 0, STAT_TX_AFRAMESTRANSMITTEDOK) == tx0 &&
		   stat(a, x, 0, STAT_TX_IFOUTERRORS) == err0 + 1,
		   "no link: the frame is counted as an output error");
		ok(rd(b, qpc(y, NIC_QPC_RES_RING0_PI)) == 0 &&
		   stat(b, y, 1, STAT_RX_ETHERSTATSPKTS) == rx0,
		   "no link: nothing arrives at card B");
		printf("%d passed, %d failed\n", tests - failed, failed);
		return failed ? 1 : 0;
	}
	ok(stat(a, x, 0, STAT_TX_AFRAMESTRANSMITTEDOK) == tx0 + 1,
	   "card A port: one frame sent");
	pi = rd(b, qpc(y, NIC_QPC_RES_RING0_PI));
	ok(pi == 1, "card B port: RES_RING0_PI is 1");
	ok(stat(b, y, 1, STAT_RX_ETHERSTATSPKTS) == rx0 + 1,
	   "card B port: one frame received");
	peek(b, y, RING, got, sizeof(got));
	ok(!memcmp(got, frame, sizeof(frame)),
	   "card B's ring slot 0 holds the frame, byte for byte");
	printf("%d passed, %d failed\n", tests - failed, failed);
	return failed ? 1 : 0;
}
