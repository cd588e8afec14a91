// SPDX-License-Identifier: GPL-2.0-or-later
/* Queue managers and the packet executor: every packet type, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbgen.h"
#include "tap.h"

#define PQ_BUS		0x10000ULL	/* PQs, 64 KiB apart */
#define CB_BUS		0x100000ULL	/* CBs, 64 KiB apart */
#define FENCE_BUS	0x8000ULL	/* host fences */
#define SRAM_BUF	(GAUDI_SRAM_BASE + 0x10000)
#define QMAN0_FENCE_VAL	0x72E91AB9U

static uint64_t pq_bus(unsigned int n)
{
	return PQ_BUS + n * 0x10000ULL;
}

static uint64_t cb_bus(unsigned int n)
{
	return CB_BUS + n * 0x10000ULL;
}

static void test_reset_idle(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint32_t bases[18];
	unsigned int i, bad_sts = 0, bad_cgm = 0, bad = 0;

	for (i = 0; i < 8; i++)
		bases[i] = mmDMA0_QM_BASE + i * GAUDI_DMA_STRIDE;
	bases[8] = mmMME0_QM_BASE;
	bases[9] = mmMME2_QM_BASE;
	for (i = 0; i < 8; i++)
		bases[10 + i] = mmTPC0_QM_BASE + i * GAUDI_TPC_STRIDE;
	for (i = 0; i < 18; i++) {
		bad_sts += gaudi_cfg_read(g, bases[i] + QM_GLBL_STS0) != 0x3FFF;
		bad_cgm += gaudi_cfg_read(g, bases[i] + QM_CGM_STS) != 0x100;
	}
	ok_eq(bad_sts, 0, "every QMAN GLBL_STS0 reads 0x3FFF at reset");
	ok_eq(bad_cgm, 0, "every QMAN CGM_STS reads 0x100 at reset");
	for (i = 0; i < 4; i++)
		bad += gaudi_cfg_read(g, mmMME0_CTRL_BASE +
				      i * GAUDI_MME_STRIDE) != 0x1180;
	ok_eq(bad, 0, "MME0..3 CTRL_ARCH_STATUS read 0x1180");
	bad = 0;
	for (i = 0; i < 8; i++) {
		uint32_t tpc = mmTPC0_CFG_BASE + i * GAUDI_TPC_STRIDE;

		bad += gaudi_cfg_read(g, tpc + TPC_CFG_STATUS) != 0xEE;
		bad += gaudi_cfg_read(g, tpc + TPC_CFG_WQ_INFLIGHT_CNTR) != 0;
	}
	ok_eq(bad, 0, "TPC CFG_STATUS 0xEE, WQ_INFLIGHT_CNTR 0");
	bad = 0;
	for (i = 0; i < 8; i++) {
		uint32_t sts = mmDMA0_CORE_BASE + i * GAUDI_DMA_STRIDE +
			       DMA_CORE_STS0;

		gaudi_cfg_write(g, sts, 0xFFFFFFFF);
		bad += (gaudi_cfg_read(g, sts) >> 31) != 0;
	}
	ok_eq(bad, 0, "DMA core STS0 never shows busy");
	fakebus_free(&fb);
}

/* Upstream's queue test: one MSG_PROT per external queue. */
static void test_external_queues(void)
{
	struct fakebus fb;
	unsigned int qid, good = 0;

	fakebus_new(&fb);

	for (qid = 0; qid < 8; qid++) {
		struct queue q = q_setup(&fb, qid, pq_bus(qid), 12);
		struct cb c = cb_at(&fb, cb_bus(qid));

		cb_msg_prot(&c, fake_host_dev(FENCE_BUS + 8 * qid),
			    QMAN0_FENCE_VAL);
		q_submit(&q, &c);
		good += host_u32(&fb, FENCE_BUS + 8 * qid) == QMAN0_FENCE_VAL &&
			q_ci(&q) == 1 && q_sts0(&q) == 0x3FFF;
	}
	ok_eq(good, 8, "MSG_PROT fence written on all 8 external queues");
	ok_eq(fb.guest_errors, 0, "no guest errors");

	/* The completion path: MSG_PROT to PCIE_CORE_MSI_REQ. */
	{
		struct queue q = q_setup(&fb, 1, pq_bus(20), 12);
		struct cb c = cb_at(&fb, cb_bus(20));
		unsigned int msi = fb.msi_count;

		cb_msg_prot(&c, fake_host_dev(FENCE_BUS + 0x100), 0x80000001);
		cb_msg_prot(&c, GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ, 1);
		q_submit(&q, &c);
		ok_eq(fb.msi_count, msi + 1, "MSG_PROT to MSI_REQ raises MSI");
		ok_eq(host_u32(&fb, FENCE_BUS + 0x100), 0x80000001,
		      "CQ entry written before the MSI");
	}
	fakebus_free(&fb);
}

/* PI and CI wrap modulo twice the PQ length, as upstream counts. */
static void test_pq_wrap(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 2, pq_bus(0), 2);	/* 4 entries */
	struct cb c = cb_at(&fb, cb_bus(0));
	unsigned int i, good = 0;

	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0);
	for (i = 0; i < 11; i++) {
		*(uint32_t *)(fb.host + c.bus) = i + 1;
		q_submit(&q, &c);
		good += host_u32(&fb, FENCE_BUS) == i + 1;
	}
	ok_eq(good, 11, "11 submissions on a 4-entry PQ all ran");
	ok_eq(q_ci(&q), 11 & 7, "CI wraps at twice the PQ length");
	ok_eq(g->qm.errors, 0, "no queue errors");
	fakebus_free(&fb);
}

static void test_register_packets(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 9, pq_bus(0), 4);	/* DMA2 stream 0 */
	struct cb c = cb_at(&fb, cb_bus(0));
	uint32_t core = mmDMA0_CORE_BASE + 2 * GAUDI_DMA_STRIDE;
	uint64_t vals[2] = { 0x2222222211111111ULL, 0x4444444433333333ULL };

	cb_wreg32(&c, DMA_CORE_WR_COMP_WDATA, 0xCAFE0001);
	cb_wreg_bulk(&c, 0x800, vals, 2);
	q_submit(&q, &c);
	ok_eq(gaudi_cfg_read(g, core + DMA_CORE_WR_COMP_WDATA), 0xCAFE0001,
	      "WREG_32 writes the engine's register");
	ok(gaudi_cfg_read(g, core + 0x800) == 0x11111111 &&
	   gaudi_cfg_read(g, core + 0x804) == 0x22222222 &&
	   gaudi_cfg_read(g, core + 0x808) == 0x33333333 &&
	   gaudi_cfg_read(g, core + 0x80C) == 0x44444444,
	   "WREG_BULK writes consecutive registers");

	/* WREG_32 reaches the QMAN's own registers (same 64 KiB window). */
	c = cb_at(&fb, cb_bus(1));
	cb_wreg32(&c, DMA_QM_OFFSET + QM_CP_MSG_BASE_LO(0, 0),
		  (uint32_t)SRAM_BUF);
	cb_wreg32(&c, DMA_QM_OFFSET + QM_CP_MSG_BASE_HI(0, 0),
		  SRAM_BUF >> 32);
	cb_msg_short(&c, 0, 0x40, 0xABCD1234);
	cb_wreg32(&c, DMA_QM_OFFSET + QM_CP_MSG_BASE_LO(0, 0) +
		  3 * QM_CP_MSG_BASE_STRIDE, (uint32_t)(SRAM_BUF + 0x100));
	cb_wreg32(&c, DMA_QM_OFFSET + QM_CP_MSG_BASE_HI(0, 0) +
		  3 * QM_CP_MSG_BASE_STRIDE, SRAM_BUF >> 32);
	cb_msg_short(&c, 3, 0x8, 0x5678);
	q_submit(&q, &c);
	ok_eq(*(uint32_t *)(fb.sram + 0x10040), 0xABCD1234,
	      "MSG_SHORT relative to CP_MSG_BASE0");
	ok_eq(*(uint32_t *)(fb.sram + 0x10108), 0x5678,
	      "MSG_SHORT relative to CP_MSG_BASE3");

	c = cb_at(&fb, cb_bus(2));
	cb_msg_long(&c, 0x20000000, 0x600DF00D);
	fb.now = 0x123456789ULL;
	cb_msg_ts(&c, fake_host_dev(FENCE_BUS));
	cb_nop(&c);
	cb_arb_point(&c);
	q_submit(&q, &c);
	ok_eq(*(uint32_t *)(fb.hbm + 0x20000000), 0x600DF00D,
	      "MSG_LONG writes HBM");
	ok_eq(*(uint64_t *)(fb.host + FENCE_BUS), 0x123456789ULL,
	      "MSG_LONG op 1 writes the timestamp");
	ok_eq(q_ci(&q), 3, "NOP and ARB_POINT pass");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

static void test_cp_dma(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 13, pq_bus(0), 4);	/* DMA3 */
	struct cb top = cb_at(&fb, cb_bus(0)), sub = cb_at(&fb, cb_bus(1));

	/* sub copies the marker written by top before the CP_DMA. */
	cb_lin_dma(&sub, fake_host_dev(FENCE_BUS), fake_host_dev(FENCE_BUS + 4),
		   4, 0);
	cb_msg_long(&top, fake_host_dev(FENCE_BUS), 0x1111);
	cb_cp_dma(&top, cb_dev(&sub), sub.len);
	cb_cp_dma(&top, cb_dev(&sub), 0);
	cb_msg_long(&top, fake_host_dev(FENCE_BUS), 0x2222);
	q_submit(&q, &top);
	ok(host_u32(&fb, FENCE_BUS + 4) == 0x1111 &&
	   host_u32(&fb, FENCE_BUS) == 0x2222,
	   "CP_DMA runs the nested CB in order");

	/* A CB that CP_DMAs itself stops at the second level. */
	top = cb_at(&fb, cb_bus(2));
	cb_cp_dma(&top, cb_dev(&top), 16);
	q_submit(&q, &top);
	ok(q_sts1(&q) & QM_STS1_CP_UNDEF_CMD_ERR,
	   "self-referencing CP_DMA stops with an error");
	ok(q_sts0(&q) & QM_STS0_CP_IS_STOP(q.s), "stream shows CP_IS_STOP");
	ok_eq(g->qm.errors, 1, "one queue error");
	fakebus_free(&fb);
}

/*
 * The lower CP (a CB started by CP_DMA) fences on its own counters, CP 4:
 * a write to the stream's CP_FENCE0_RDATA does not release it, one to
 * CP_FENCE0_RDATA_4 does (issue 15, scenario d: a TPC queue's lower CP
 * fenced by a monitor, hang before).
 */
static void test_lower_cp_fence(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 41, pq_bus(0), 4);	/* TPC_0_0 */
	struct cb top = cb_at(&fb, cb_bus(0)), sub = cb_at(&fb, cb_bus(1));
	uint32_t rd4 = q.base + QM_CP_FENCE_RDATA(0, 0) + 4 * QM_LOWER_CP;
	uint32_t cnt4 = q.base + QM_CP_FENCE_CNT(0, 0) + 4 * QM_LOWER_CP;

	cb_fence(&sub, 0, 1, 1);
	cb_msg_long(&sub, fake_host_dev(FENCE_BUS), 0x4C4F);
	cb_wait(&sub, 0, 3);
	cb_cp_dma(&top, cb_dev(&sub), sub.len);
	cb_fence(&top, 0, 1, 1);
	cb_msg_long(&top, fake_host_dev(FENCE_BUS + 4), 0x5550);
	q_submit(&q, &top);
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "lower-CP FENCE blocks");
	/*
	 * An internal queue's done word is its PQ_CI (gaudi_queue.c): it
	 * must not pass the CB while the CP_DMA target still runs, or
	 * gaudi.ko would free the target's copy under the lower CP.
	 */
	ok_eq(q_ci(&q), 0, "PQ_CI does not pass the CB while its CP_DMA target waits");
	gaudi_cfg_write(g, q_fence_rdata(&q, 0), 1);
	ok_eq(host_u32(&fb, FENCE_BUS), 0,
	      "the stream's own RDATA does not release the lower CP");
	gaudi_cfg_write(g, rd4, 1);
	ok_eq(host_u32(&fb, FENCE_BUS), 0x4C4F,
	      "CP_FENCE0_RDATA_4 releases the lower CP");
	ok_eq(gaudi_cfg_read(g, cnt4), 3, "WAIT in the lower CP adds to CNT_4");
	ok_eq(host_u32(&fb, FENCE_BUS + 4), 0x5550,
	      "back on the stream, its FENCE used the stream's counter");
	ok_eq(gaudi_cfg_read(g, q_fence_cnt(&q, 0)),
	      0, "the stream's counter was consumed");
	ok_eq(q_ci(&q), 1, "CB done");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

static void test_fence_wait(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 17, pq_bus(0), 4);	/* DMA4 */
	struct cb c = cb_at(&fb, cb_bus(0));

	cb_fence(&c, 2, 2, 2);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x77);
	q_submit(&q, &c);
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "FENCE blocks the stream");
	ok_eq(q_sts0(&q) & 0x201, 0, "blocked stream is not idle");
	gaudi_cfg_write(g, q_fence_rdata(&q, 2), 1);
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "still blocked below the target");
	ok_eq(gaudi_cfg_read(g, q_fence_cnt(&q, 2)), 1, "RDATA adds to CNT");
	gaudi_cfg_write(g, q_fence_rdata(&q, 2), 1);
	ok_eq(host_u32(&fb, FENCE_BUS), 0x77, "RDATA write releases FENCE");
	ok_eq(gaudi_cfg_read(g, q_fence_cnt(&q, 2)), 0, "FENCE decrements");
	ok_eq(q_sts0(&q), 0x3FFF, "idle again after the work");

	c = cb_at(&fb, cb_bus(1));
	cb_wait(&c, 1, 3);
	cb_fence(&c, 1, 3, 1);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x88);
	q_submit(&q, &c);
	ok_eq(host_u32(&fb, FENCE_BUS), 0x88, "WAIT increments the fence");
	ok_eq(gaudi_cfg_read(g, q_fence_cnt(&q, 1)), 2, "FENCE took 1 of 3");

	/* A fence blocked across a reset: reset leaves the queue idle. */
	c = cb_at(&fb, cb_bus(2));
	cb_fence(&c, 0, 1, 1);
	q_submit(&q, &c);
	ok(q_sts0(&q) != 0x3FFF, "blocked again");
	gaudi_core_reset(g);
	ok_eq(q_sts0(&q), 0x3FFF, "reset idles the queue");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

/* Queue B's doorbell written by queue A runs after A's CB finishes. */
static void test_reentrant_doorbell(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue a = q_setup(&fb, 21, pq_bus(0), 4);	/* DMA5 */
	struct queue b = q_setup(&fb, 25, pq_bus(1), 4);	/* DMA6 */
	struct cb ca = cb_at(&fb, cb_bus(0)), cbb = cb_at(&fb, cb_bus(1));
	uint8_t *bd = fb.host + pq_bus(1);
	uint64_t dev = cb_dev(&cbb);
	uint32_t len;

	cb_lin_dma(&cbb, fake_host_dev(FENCE_BUS), fake_host_dev(FENCE_BUS + 4),
		   4, 0);
	len = cbb.len;
	memcpy(bd, &dev, 8);
	memcpy(bd + 8, &len, 4);
	cb_msg_long(&ca, GAUDI_CFG_BASE + b.base + QM_PQ_PI(0) + 4 * b.s, 1);
	cb_msg_long(&ca, fake_host_dev(FENCE_BUS), 0xA5);
	q_submit(&a, &ca);
	ok_eq(host_u32(&fb, FENCE_BUS + 4), 0xA5,
	      "doorbell from a packet ran after the writer's CB");
	ok_eq(q_ci(&b), 1, "the other queue consumed its entry");
	ok_eq(g->qm.errors, 0, "no queue errors");
	fakebus_free(&fb);
}

static void test_stop_and_restart(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, pq_bus(0), 4);
	struct cb c = cb_at(&fb, cb_bus(0)), d = cb_at(&fb, cb_bus(1));

	cb_stop(&c);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 1);
	cb_msg_long(&d, fake_host_dev(FENCE_BUS + 4), 2);
	q_submit(&q, &c);
	q_submit(&q, &d);
	ok(q_sts1(&q) & QM_STS1_CP_STOP_OP, "STOP sets CP_STOP_OP");
	ok(host_u32(&fb, FENCE_BUS) == 0 && host_u32(&fb, FENCE_BUS + 4) == 0,
	   "nothing runs after STOP");
	gaudi_cfg_write(g, q.base + QM_GLBL_STS1(0), QM_STS1_CP_STOP_OP);
	ok_eq(q_sts1(&q), 0, "GLBL_STS1 is write-1-to-clear");
	q_restart(&q);
	ok_eq(host_u32(&fb, FENCE_BUS + 4), 2, "GLBL_CFG0 write restarts");
	ok_eq(q_ci(&q), 2, "both entries consumed");

	/* Disabled streams keep their work until enabled. */
	gaudi_cfg_write(g, q.base + QM_GLBL_CFG0, 0);
	c = cb_at(&fb, cb_bus(2));
	cb_msg_long(&c, fake_host_dev(FENCE_BUS + 8), 3);
	q_submit(&q, &c);
	ok_eq(host_u32(&fb, FENCE_BUS + 8), 0, "disabled stream does not run");
	ok_eq(q_sts0(&q) & 1, 0, "disabled stream with work is busy");
	gaudi_cfg_write(g, q.base + QM_GLBL_CFG1, 0x1);	/* PQF_STOP 0 */
	q_restart(&q);
	ok_eq(host_u32(&fb, FENCE_BUS + 8), 0, "GLBL_CFG1 stop holds it");
	ok(q_sts0(&q) & (1U << 16), "PQF_IS_STOP shows the stop request");
	gaudi_cfg_write(g, q.base + QM_GLBL_CFG1, 0);
	ok_eq(host_u32(&fb, FENCE_BUS + 8), 3, "clearing the stop runs it");
	fakebus_free(&fb);
}

/* Each bad CB stops the stream with the expected cause, then recovers. */
struct bad_case {
	const char *what;
	uint32_t cause;
	void (*build)(struct cb *c);
	bool last;		/* the bad packet must end the CB */
};

static void bad_opcode0(struct cb *c) { cb_hdr(c, 0x0, 0, 0); }
static void bad_opcode_e(struct cb *c) { cb_hdr(c, 0xE, 0, 0); }
static void bad_opcode_1f(struct cb *c) { cb_hdr(c, 0x1F, 0, 0); }
static void bad_truncated(struct cb *c) { cb_nop(c); cb_u32(c, 0); }

static void bad_short_msg(struct cb *c)
{
	cb_hdr(c, 0x3, 1, 0);		/* MSG_LONG without its address */
}

static void bad_bulk(struct cb *c)
{
	cb_hdr(c, 0x2, 0xFFFF, 0);	/* 512 KiB of values announced */
	cb_u64(c, 0);
}

static void bad_msg_hole(struct cb *c)
{
	cb_msg_long(c, 0x7F00000000ULL, 1);
}

static void bad_msg_op(struct cb *c)
{
	cb_hdr(c, 0x3, 1, 3U << 20);
	cb_u64(c, fake_host_dev(FENCE_BUS));
}

static void bad_wreg_align(struct cb *c) { cb_wreg32(c, 0x802, 1); }

static void bad_cb_hole(struct cb *c)
{
	cb_cp_dma(c, 0x7F00000000ULL, 64);
}

static void bad_load(struct cb *c)
{
	cb_load_exe(c, 0x7F00000000ULL);
}

static void bad_repeat_out(struct cb *c)
{
	cb_repeat(c, 1, 0x800);
}

static void bad_repeat_loop(struct cb *c)
{
	cb_nop(c);
	cb_repeat(c, 0, 0);		/* sore clear: a no-op */
	cb_repeat(c, 1, 0);		/* jumps back forever */
}

static void bad_lin_dma_huge(struct cb *c)
{
	/* 4 GiB from host memory: the host rejects it past 64 MiB. */
	cb_lin_dma(c, fake_host_dev(0), GAUDI_SRAM_BASE, 0xFFFFFFFF, 0);
}

static const struct bad_case bad_cases[] = {
	{ "opcode 0", QM_STS1_CP_UNDEF_CMD_ERR, bad_opcode0, false },
	{ "opcode 0xE", QM_STS1_CP_UNDEF_CMD_ERR, bad_opcode_e, false },
	{ "opcode 0x1F", QM_STS1_CP_UNDEF_CMD_ERR, bad_opcode_1f, false },
	{ "truncated header", QM_STS1_CP_UNDEF_CMD_ERR, bad_truncated, true },
	{ "packet past the CB", QM_STS1_CP_UNDEF_CMD_ERR, bad_short_msg, true },
	{ "WREG_BULK past the CB", QM_STS1_CP_UNDEF_CMD_ERR, bad_bulk, false },
	{ "message to a hole", QM_STS1_CP_MSG_WR_ERR, bad_msg_hole, false },
	{ "message op 3", QM_STS1_CP_UNDEF_CMD_ERR, bad_msg_op, false },
	{ "unaligned WREG_32", QM_STS1_CP_WREG_ERR, bad_wreg_align, false },
	{ "CB in a hole", QM_STS1_CP_RD_ERR, bad_cb_hole, false },
	{ "LOAD_AND_EXE from a hole", QM_STS1_CP_RD_ERR, bad_load, false },
	{ "REPEAT outside the CB", QM_STS1_CP_UNDEF_CMD_ERR, bad_repeat_out,
	  false },
	{ "REPEAT loop", QM_STS1_CP_UNDEF_CMD_ERR, bad_repeat_loop, false },
	{ "huge LIN_DMA", 0, bad_lin_dma_huge, false },
};

static void test_bad_input(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 5, pq_bus(0), 6);	/* DMA1 stream 1 */
	unsigned int i;

	for (i = 0; i < GAUDI_ARRAY_SIZE(bad_cases); i++) {
		struct cb c = cb_at(&fb, cb_bus(i));
		struct cb d = cb_at(&fb, cb_bus(40 + i));
		unsigned int errs = fb.guest_errors;
		uint32_t sts1;

		bad_cases[i].build(&c);
		if (!bad_cases[i].last)
			cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0xBAD);
		cb_msg_long(&d, fake_host_dev(FENCE_BUS + 4), i + 1);
		q_submit(&q, &c);
		q_submit(&q, &d);
		sts1 = q_sts1(&q);
		ok(fb.guest_errors > errs &&
		   (sts1 & bad_cases[i].cause) == bad_cases[i].cause &&
		   host_u32(&fb, FENCE_BUS) != 0xBAD &&
		   host_u32(&fb, FENCE_BUS + 4) != i + 1 &&
		   (q_sts0(&q) & QM_STS0_CP_IS_STOP(1)),
		   "%s: stream stops with cause 0x%x", bad_cases[i].what,
		   bad_cases[i].cause);
		gaudi_cfg_write(g, q.base + QM_GLBL_STS1(0) + 4, sts1);
		q_restart(&q);
		ok_eq(host_u32(&fb, FENCE_BUS + 4), i + 1,
		      "%s: next entry runs after restart", bad_cases[i].what);
	}
	/* It ran past the end of SRAM: a write error. */
	ok_eq(gaudi_cfg_read(g, mmDMA0_CORE_BASE + GAUDI_DMA_STRIDE +
			     DMA_CORE_ERR_CAUSE), DMA_ERR_HBW_WR,
	      "huge LIN_DMA sets the DMA core's ERR_CAUSE");
	gaudi_cfg_write(g, mmDMA0_CORE_BASE + GAUDI_DMA_STRIDE +
			DMA_CORE_ERR_CAUSE, DMA_ERR_HBW_WR);
	ok_eq(gaudi_cfg_read(g, mmDMA0_CORE_BASE + GAUDI_DMA_STRIDE +
			     DMA_CORE_ERR_CAUSE), 0, "ERR_CAUSE is W1C");

	/* A PQ in a hole. */
	{
		struct queue p = q_setup(&fb, 6, 0, 4);
		unsigned int errs = fb.guest_errors;

		gaudi_cfg_write(g, p.base + QM_PQ_BASE_HI(0) + 4 * p.s, 0x7F);
		gaudi_cfg_write(g, p.base + QM_PQ_BASE_LO(0) + 4 * p.s, 0);
		gaudi_cfg_write(g, p.base + QM_PQ_PI(0) + 4 * p.s, 1);
		ok(fb.guest_errors > errs && (q_sts1(&p) & QM_STS1_PQF_RD_ERR),
		   "PQ in a hole stops with PQF_RD_ERR");
	}
	fakebus_free(&fb);
}

/* Two queues waking each other forever end at the work bound. */
static void test_ping_pong(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue a = q_setup(&fb, 29, pq_bus(0), 4);	/* DMA7 */
	struct queue b = q_setup(&fb, 30, pq_bus(1), 4);
	struct cb ca = cb_at(&fb, cb_bus(0)), cbb = cb_at(&fb, cb_bus(1));

	cb_fence(&ca, 0, 1, 1);
	cb_msg_long(&ca, GAUDI_CFG_BASE + q_fence_rdata(&b, 0), 1);
	cb_repeat(&ca, 1, 0);
	cb_fence(&cbb, 0, 1, 1);
	cb_msg_long(&cbb, GAUDI_CFG_BASE + q_fence_rdata(&a, 0), 1);
	cb_repeat(&cbb, 1, 0);
	q_submit(&a, &ca);
	q_submit(&b, &cbb);
	gaudi_cfg_write(g, q_fence_rdata(&a, 0), 1);
	ok((q_sts1(&a) | q_sts1(&b)) & QM_STS1_CP_UNDEF_CMD_ERR,
	   "ping-pong between two queues is stopped");
	fakebus_free(&fb);
}

static void test_mme_tpc(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	unsigned int qids[] = { 33, 38, 41, 56, 72 }, i, good = 0;

	for (i = 0; i < GAUDI_ARRAY_SIZE(qids); i++) {
		struct queue q = q_setup(&fb, qids[i], pq_bus(i), 4);
		struct cb c = cb_at(&fb, cb_bus(i));

		cb_wreg32(&c, 0x100, i);
		cb_msg_long(&c, fake_host_dev(FENCE_BUS + 4 * i), 0x100 + i);
		q_submit(&q, &c);
		good += host_u32(&fb, FENCE_BUS + 4 * i) == 0x100 + i &&
			gaudi_cfg_read(g, (q.base & ~0xFFFFU) + 0x100) == i;
	}
	ok_eq(good, GAUDI_ARRAY_SIZE(qids), "MME and TPC queues run packets");
	{
		struct queue q = q_setup(&fb, 45, pq_bus(9), 4);
		struct cb c = cb_at(&fb, cb_bus(9));

		cb_lin_dma(&c, fake_host_dev(0), GAUDI_SRAM_BASE, 16, 0);
		q_submit(&q, &c);
		ok(q_sts1(&q) & QM_STS1_CP_UNDEF_CMD_ERR,
		   "LIN_DMA on a TPC queue is an undefined command");
	}
	fakebus_free(&fb);
}

static void test_hang_injection(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 3, pq_bus(0), 4);
	struct cb c = cb_at(&fb, cb_bus(0));
	uint32_t ctl = GAUDI_MODEL_CTL_BASE;

	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 1);
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_HANG, 3);
	ok_eq(gaudi_cfg_read(g, ctl + GAUDI_CTL_QM_HUNG_COUNT), 0,
	      "control window is dead without test hooks");
	g->id.test_hooks = true;
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_HANG, 3);
	ok_eq(gaudi_cfg_read(g, ctl + GAUDI_CTL_QM_HUNG_COUNT), 1,
	      "queue 3 hung");
	q_submit(&q, &c);
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "hung queue makes no progress");
	ok_eq(q_sts0(&q) & (1U << 3), 0, "hung queue with work is busy");
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_UNHANG, 3);
	ok_eq(host_u32(&fb, FENCE_BUS), 1, "clearing the hang runs the work");
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_HANG, 3);
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_HANG, 40);
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_HANG, 8);
	ok(fb.guest_errors == 1 &&
	   gaudi_cfg_read(g, ctl + GAUDI_CTL_QM_HUNG_COUNT) == 2,
	   "queue 8 (CPU) is not a QMAN queue");
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_HUNG_COUNT, 5);
	ok_eq(fb.guest_errors, 2, "read-only control register refuses writes");
	gaudi_core_reset(g);
	ok_eq(gaudi_cfg_read(g, ctl + GAUDI_CTL_QM_HUNG_COUNT), 0,
	      "reset clears hangs");
	q = q_setup(&fb, 3, pq_bus(0), 4);
	c = cb_at(&fb, cb_bus(1));
	cb_hdr(&c, 0x1E, 0, 0);
	q_submit(&q, &c);
	ok_eq(gaudi_cfg_read(g, ctl + GAUDI_CTL_QM_ERRORS), 1,
	      "QM_ERRORS counts queue errors");
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_HANG, 40);
	gaudi_cfg_write(g, ctl + GAUDI_CTL_QM_UNHANG, 0xFFFFFFFF);
	ok_eq(gaudi_cfg_read(g, ctl + GAUDI_CTL_QM_HUNG_COUNT), 0,
	      "clear all");
	fakebus_free(&fb);
}

static void cb_lae(struct cb *c, uint32_t cfg, uint64_t src)
{
	cb_hdr(c, 0xF, cfg, 1U << 30);
	cb_u64(c, src);
}

/* A MSG_LONG that runs only while predicate p is set. */
static void cb_msg_long_pred(struct cb *c, uint64_t addr, uint32_t v,
			     unsigned int p)
{
	cb_hdr(c, 0x3, v, 1U << 31 | p);
	cb_u64(c, addr);
}

/*
 * LOAD_AND_EXE (issue 23), as hl-thunk-open's tests use it: predicates
 * loaded from SRAM in the non-consecutive map gate a MSG_LONG; scalars
 * loaded from SRAM hold a MSG_LONG (all four registers) or a MSG_SHORT in
 * the lower or the upper two, executed by the same or a separate packet.
 */
static void test_load_and_exe(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, pq_bus(0), 4);
	uint8_t *pbuf = fb.sram + 0x10000;	/* SRAM_BUF */
	uint64_t dst = SRAM_BUF + 0x1000, pred = SRAM_BUF, scal = SRAM_BUF + 0x80;
	uint32_t *out = (uint32_t *)(fb.sram + 0x11000), v;
	struct cb c, sc;
	int sep;

	/* P10 clear (its consecutive-map bit set instead): skipped. */
	memset(pbuf, 0, 128);
	pbuf[1] = 1U << 2;
	c = cb_at(&fb, cb_bus(0));
	cb_msg_long(&c, dst, 0x1111);
	cb_lae(&c, PKT_LOAD_AND_EXE_LOAD, pred);
	cb_msg_long_pred(&c, dst, 0x2222, 10);
	q_submit(&q, &c);
	ok_eq(*out, 0x1111, "predicate 10 clear: the predicated MSG_LONG is skipped");
	ok_eq(q_ci(&q), 1, "the CB completes");

	pbuf[40] = 1;		/* word 10, bit 0: P10 */
	c = cb_at(&fb, cb_bus(1));
	cb_msg_long(&c, dst, 0x1111);
	cb_lae(&c, PKT_LOAD_AND_EXE_LOAD, pred);
	cb_msg_long_pred(&c, dst, 0x3333, 10);
	cb_msg_long_pred(&c, dst + 4, 0x4444, 11);
	cb_msg_long_pred(&c, dst + 8, 0x5555, 0);
	q_submit(&q, &c);
	ok(out[0] == 0x3333 && out[1] != 0x4444 && out[2] == 0x5555,
	   "predicate 10 set: it runs; P11 clear is skipped; P0 always runs");

	/* P0 is not loaded: word 0 bit 0 changes nothing. */
	pbuf[0] = 0;
	c = cb_at(&fb, cb_bus(2));
	cb_lae(&c, PKT_LOAD_AND_EXE_LOAD, pred);
	cb_msg_long_pred(&c, dst + 12, 0x6666, 0);
	q_submit(&q, &c);
	ok_eq(out[3], 0x6666, "a predicate load leaves P0 set");

	/* Scalars: a MSG_LONG in R0..R3, ETYPE 0; one packet or two. */
	for (sep = 0; sep < 2; sep++) {
		sc = cb_at(&fb, cb_bus(10));
		cb_msg_long(&sc, dst + 16, 0x7000 + sep);
		memcpy(fb.sram + 0x10080, fb.host + cb_bus(10), 16);
		c = cb_at(&fb, cb_bus(3 + sep));
		cb_lae(&c, PKT_LOAD_AND_EXE_LOAD | PKT_LOAD_AND_EXE_DST |
		       (sep ? 0 : PKT_LOAD_AND_EXE_EXE), scal);
		if (sep)
			cb_lae(&c, PKT_LOAD_AND_EXE_EXE, 0);
		q_submit(&q, &c);
		ok_eq(out[4], 0x7000 + sep,
		      "scalars: a MSG_LONG over R0..R3 executed (%s)",
		      sep ? "separate EXE" : "load and exe");
	}

	/* A MSG_SHORT in the lower, then in the upper two registers. */
	gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_CP_MSG_BASE_LO(0, 0),
			(uint32_t)SRAM_BUF);
	gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_CP_MSG_BASE_HI(0, 0),
			SRAM_BUF >> 32);
	for (sep = 0; sep < 2; sep++) {
		memset(fb.sram + 0x10080, 0, 16);
		sc = cb_at(&fb, cb_bus(10));
		cb_msg_short(&sc, 0, 0x1020 + 4 * sep, 0xAB00 + sep);
		memcpy(fb.sram + 0x10080 + 8 * sep, fb.host + cb_bus(10), 8);
		c = cb_at(&fb, cb_bus(5 + sep));
		cb_lae(&c, PKT_LOAD_AND_EXE_LOAD | PKT_LOAD_AND_EXE_DST |
		       PKT_LOAD_AND_EXE_EXE |
		       (sep ? PKT_LOAD_AND_EXE_ETYPE : 0), scal);
		q_submit(&q, &c);
		memcpy(&v, fb.sram + 0x11020 + 4 * sep, 4);
		ok_eq(v, 0xAB00 + sep, "scalars: a MSG_SHORT in the %s two registers executed",
		      sep ? "upper" : "lower");
	}
	ok_eq(fb.guest_errors, 0, "no guest errors");

	/* A CP_DMA in the scalars is not executed: the stream stops. */
	sc = cb_at(&fb, cb_bus(10));
	cb_cp_dma(&sc, cb_dev(&c), 8);
	memcpy(fb.sram + 0x10080, fb.host + cb_bus(10), 16);
	c = cb_at(&fb, cb_bus(7));
	cb_lae(&c, PKT_LOAD_AND_EXE_LOAD | PKT_LOAD_AND_EXE_DST |
	       PKT_LOAD_AND_EXE_EXE, scal);
	q_submit(&q, &c);
	ok(q_sts1(&q) & QM_STS1_CP_UNDEF_CMD_ERR,
	   "a CP_DMA from the scalars is an undefined command");
	fakebus_free(&fb);
}

/*
 * Arbitration (issue 23): NSTR streams of DMA 0 each run ROUNDS critical
 * sections ARB_POINT(lock, prio) - SOB 5 += 1 - copy SOB 5 into the log -
 * ARB_POINT(release), released together; the log holds the ticket each
 * section drew, i.e. the order the arbiter granted.  ticket[s][r] is
 * returned; 0 marks a section that never ran.
 */
#define ROUNDS	4
#define NSTR	2
#define ARB_LOG	0x9000ULL

static unsigned int arb_errors;

static void arb_round(uint32_t cfg0, const uint32_t *wt, const uint8_t *prio,
		      uint32_t ticket[NSTR][ROUNDS])
{
	struct fakebus fbs, *fb = &fbs;
	struct gaudi_core *g = fakebus_new(fb);
	uint64_t sob = GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * 5;
	uint32_t stop = 0;
	struct queue q[NSTR];
	unsigned int s, r;

	for (s = 0; s < NSTR; s++)
		stop |= QM_CFG_PQF_EN(s) | QM_CFG_CP_EN(s);
	for (s = 0; s < NSTR; s++) {
		struct cb c = cb_at(fb, cb_bus(20 + s));

		q[s] = q_setup(fb, s, pq_bus(20 + s), 4);
		for (r = 0; r < ROUNDS; r++) {
			cb_hdr(&c, 0xC, prio[s], 0);
			cb_msg_long(&c, sob, SM_SOB_INC | 1);
			cb_lin_dma(&c, sob, fake_host_dev(ARB_LOG + 4 *
							  (s * ROUNDS + r)),
				   4, 0);
			cb_hdr(&c, 0xC, prio[s] | PKT_ARB_RELEASE, 0);
		}
		if (s == 0)
			gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_GLBL_CFG1, stop);
		q_submit(&q[s], &c);
	}
	gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_ARB_CFG_0, cfg0);
	for (s = 0; s < NSTR; s++)
		gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_ARB_WRR_WEIGHT(s), wt[s]);
	gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_GLBL_CFG1, 0);	/* go */
	for (s = 0; s < NSTR; s++)
		for (r = 0; r < ROUNDS; r++)
			ticket[s][r] = host_u32(fb, ARB_LOG +
						4 * (s * ROUNDS + r));
	arb_errors += fb->guest_errors;
	fakebus_free(fb);
}

static bool tickets_are(uint32_t t[NSTR][ROUNDS], const uint32_t *want)
{
	unsigned int s, r;

	for (s = 0; s < NSTR; s++)
		for (r = 0; r < ROUNDS; r++)
			if (t[s][r] != want[s * ROUNDS + r])
				return false;
	return true;
}

static void test_arbitration(void)
{
	static const uint32_t one[NSTR] = { 1, 1 }, w21[NSTR] = { 2, 1 };
	static const uint8_t p0[NSTR] = { 0, 0 }, p12[NSTR] = { 1, 2 };
	static const uint8_t p21[NSTR] = { 2, 1 };
	static const uint32_t rr[] = { 1, 3, 5, 7, 2, 4, 6, 8 };
	static const uint32_t wrr[] = { 1, 2, 4, 5, 3, 6, 7, 8 };
	static const uint32_t pri12[] = { 5, 6, 7, 8, 1, 2, 3, 4 };
	static const uint32_t pri21[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint32_t en = QM_ARB_CFG_0_EN | QM_ARB_CFG_0_IS_MASTER;
	uint32_t t[NSTR][ROUNDS];
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q;
	struct cb c;

	arb_round(en | QM_ARB_CFG_0_TYPE_WRR, one, p0, t);
	ok(tickets_are(t, rr), "round robin (WRR, equal weights): the streams alternate");
	arb_round(en | QM_ARB_CFG_0_TYPE_WRR, w21, p0, t);
	ok(tickets_are(t, wrr), "WRR 2:1: stream 0 twice, then stream 1, until one runs out");
	arb_round(en, one, p12, t);
	ok(tickets_are(t, pri12), "priority: stream 1 (2) runs all its sections before stream 0 (1)");
	arb_round(en, one, p21, t);
	ok(tickets_are(t, pri21), "priority: stream 0 (2) first when it is the higher");
	ok_eq(arb_errors, 0, "no guest errors");

	/*
	 * A stream that waits for the grant of one that never gives it back
	 * waits until arbitration is switched off (the driver's reset of the
	 * registers for the next holder); off, ARB_POINT is a NOP.
	 */
	gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_ARB_CFG_0, en);
	q = q_setup(&fb, 0, pq_bus(20), 4);
	c = cb_at(&fb, cb_bus(20));
	cb_hdr(&c, 0xC, 0, 0);			/* takes it, keeps it */
	q_submit(&q, &c);
	q = q_setup(&fb, 1, pq_bus(21), 4);
	c = cb_at(&fb, cb_bus(21));
	cb_hdr(&c, 0xC, 7, 0);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0xA5B);
	memset(fb.host + FENCE_BUS, 0, 4);
	q_submit(&q, &c);
	ok(host_u32(&fb, FENCE_BUS) == 0 && q_ci(&q) == 0,
	   "a stream waits while another holds the grant");
	gaudi_cfg_write(g, mmDMA0_QM_BASE + QM_ARB_CFG_0, 0);
	ok(host_u32(&fb, FENCE_BUS) == 0xA5B && q_ci(&q) == 1,
	   "switching arbitration off releases it");
	fakebus_free(&fb);
}

int main(void)
{
	test_reset_idle();
	test_external_queues();
	test_pq_wrap();
	test_register_packets();
	test_cp_dma();
	test_lower_cp_fence();
	test_fence_wait();
	test_reentrant_doorbell();
	test_stop_and_restart();
	test_bad_input();
	test_ping_pong();
	test_mme_tpc();
	test_hang_injection();
	test_arbitration();
	test_load_and_exe();
	return tap_done();
}
