// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The asynchronous mode of the queues and DMA cores: a doorbell returns
 * before the work is done, steps run on a fake scheduler, packet latency
 * and DMA bandwidth are modelled in time, busy bits show outstanding work,
 * every step is bounded, a reset drops work in flight.
 */
#include <string.h>

#include "cbgen.h"
#include "tap.h"

#define PQ_BUS		0x10000ULL	/* PQs, 64 KiB apart */
#define CB_BUS		0x100000ULL	/* CBs, 64 KiB apart */
#define FENCE_BUS	0x8000ULL	/* host fences */
#define SRC_BUS		0x1000000ULL	/* 8 MiB source */
#define HBM_DST		GAUDI_DRAM_USER_START
#define T0		1000000ULL	/* virtual time of the first doorbell */
#define LAT		100		/* ns per packet */
#define BW		1000		/* MB/s: 1 MiB takes 1048576 ns */
#define MIB		(1ULL << 20)
#define WS		mmSYNC_MNGR_W_S_SOB_OBJ_0

static uint64_t pq_bus(unsigned int n)
{
	return PQ_BUS + n * 0x10000ULL;
}

static uint64_t cb_bus(unsigned int n)
{
	return CB_BUS + n * 0x10000ULL;
}

static uint32_t dma_sts0(struct gaudi_core *g, unsigned int n)
{
	return gaudi_cfg_read(g, mmDMA0_CORE_BASE + n * GAUDI_DMA_STRIDE +
			      DMA_CORE_STS0);
}

static uint32_t cgm_sts(struct queue *q)
{
	return gaudi_cfg_read(q->fb->g, q->base + QM_CGM_STS);
}

/* Advance the clock to absolute virtual time t. */
static void run_to(struct fakebus *fb, uint64_t t)
{
	if (t > fb->now)
		fake_advance(fb, t - fb->now, 0);
}

/* The completion path of a CS: CQ entry, then MSI; both after the write. */
static void test_completion_after_doorbell(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	struct queue q = q_setup(&fb, 1, pq_bus(0), 12);
	struct cb c = cb_at(&fb, cb_bus(0));
	unsigned int msi;

	fb.now = T0;
	cb_msg_prot(&c, fake_host_dev(FENCE_BUS), 0x80000001);
	cb_msg_prot(&c, GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ, 1);
	msi = fb.msi_count;
	q_submit(&q, &c);
	ok(host_u32(&fb, FENCE_BUS) == 0 && fb.msi_count == msi &&
	   q_ci(&q) == 0, "doorbell returns before the CB ran");
	ok(fb.sched_pending && fb.sched_at == T0 + LAT && fb.sched_calls == 1,
	   "one step requested, for when the first packet ends (%llu, %u)",
	   (unsigned long long)(fb.sched_at - T0), fb.sched_calls);
	ok((q_sts0(&q) & 0x3FFF) != 0x3FFF, "GLBL_STS0 shows the stream busy");
	ok_eq(cgm_sts(&q) & QM_CGM_STS_AGENT_IDLE, 0, "CGM_STS not idle");
	ok(gaudi_core_busy(g), "gaudi_core_busy() while work is queued");
	fake_advance(&fb, LAT, 0);
	ok(host_u32(&fb, FENCE_BUS) == 0x80000001 && fb.msi_count == msi,
	   "first packet done after one latency, MSI not yet");
	fake_advance(&fb, LAT, 0);
	ok_eq(fb.msi_count, msi + 1, "MSI after the second packet");
	ok_eq(q_ci(&q), 1, "CI advanced with the last packet");
	ok(q_sts0(&q) == 0x3FFF && (cgm_sts(&q) & QM_CGM_STS_AGENT_IDLE),
	   "idle again");
	ok(!fb.sched_pending && !gaudi_core_busy(g),
	   "nothing scheduled when idle");
	gaudi_core_run(g);
	ok(!fb.sched_pending, "a spurious run schedules nothing");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

/* N packets end N latencies after the doorbell, not earlier. */
static void test_packet_latency(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	struct queue q = q_setup(&fb, 5, pq_bus(0), 4);
	struct cb c = cb_at(&fb, cb_bus(0));
	unsigned int i;

	fb.now = T0;
	for (i = 0; i < 10; i++)
		cb_nop(&c);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x11);
	q_submit(&q, &c);
	run_to(&fb, T0 + 11 * LAT - 1);
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "11th packet not done at 11L - 1");
	run_to(&fb, T0 + 11 * LAT);
	ok_eq(host_u32(&fb, FENCE_BUS), 0x11, "done at 11 L");

	/* A late step catches up: everything due runs in one step. */
	c = cb_at(&fb, cb_bus(1));
	for (i = 0; i < 10; i++)
		cb_nop(&c);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x22);
	q_submit(&q, &c);
	fb.now += 1000 * LAT;
	ok_eq(fake_drain(&fb, 10), 1, "a late step runs all due packets");
	ok_eq(host_u32(&fb, FENCE_BUS), 0x22, "second CB done");
	(void)g;
	fakebus_free(&fb);
}

/* LIN_DMA takes size / bandwidth; data lands piece by piece. */
static void test_dma_bandwidth(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	struct queue q = q_setup(&fb, 0, pq_bus(0), 4);	/* DMA0 */
	struct cb c = cb_at(&fb, cb_bus(0));
	uint64_t start = T0 + LAT, end = start + 4 * MIB * 1000 / BW;

	memset(fb.host + SRC_BUS, 0x5A, 4 * MIB);
	fb.now = T0;
	cb_lin_dma(&c, fake_host_dev(SRC_BUS), HBM_DST, 4 * MIB, 0);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x33);
	q_submit(&q, &c);
	run_to(&fb, start + MIB - 1);
	ok(dma_sts0(g, 0) & DMA_CORE_STS0_BUSY, "STS0 busy during the copy");
	ok_eq(cgm_sts(&q) & QM_CGM_STS_AGENT_IDLE, 0, "CGM_STS busy during the copy");
	ok_eq(fb.hbm[HBM_DST], 0, "no data before the first piece ends");
	run_to(&fb, start + MIB);
	ok(fb.hbm[HBM_DST + MIB - 1] == 0x5A && fb.hbm[HBM_DST + MIB] == 0,
	   "first MiB landed after 1 MiB / bandwidth");
	run_to(&fb, end - 1);
	ok(fb.hbm[HBM_DST + 3 * MIB - 1] == 0x5A &&
	   fb.hbm[HBM_DST + 3 * MIB] == 0 && host_u32(&fb, FENCE_BUS) == 0,
	   "three pieces before the end, next packet not run");
	run_to(&fb, end);
	ok(fb.hbm[HBM_DST + 4 * MIB - 1] == 0x5A && !dma_sts0(g, 0),
	   "transfer complete, STS0 idle at size / bandwidth");
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "the next packet waits its latency");
	run_to(&fb, end + LAT);
	ok_eq(host_u32(&fb, FENCE_BUS), 0x33, "then runs");
	ok(q_sts0(&q) == 0x3FFF && (cgm_sts(&q) & QM_CGM_STS_AGENT_IDLE),
	   "QMAN idle");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

/* Different DMA cores move data in parallel; one core serialises. */
static void test_dma_parallel(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	struct queue a = q_setup(&fb, 9, pq_bus(0), 4);	/* DMA2 s0 */
	struct queue b = q_setup(&fb, 14, pq_bus(1), 4);	/* DMA3 s1 */
	struct queue c2 = q_setup(&fb, 10, pq_bus(2), 4);	/* DMA2 s1 */
	struct cb ca = cb_at(&fb, cb_bus(0)), cbb = cb_at(&fb, cb_bus(1));
	struct cb cc = cb_at(&fb, cb_bus(2));
	uint64_t one = 2 * MIB * 1000 / BW;

	fb.now = T0;
	cb_lin_dma(&ca, fake_host_dev(SRC_BUS), HBM_DST, 2 * MIB, 0);
	cb_msg_long(&ca, fake_host_dev(FENCE_BUS), 1);
	cb_lin_dma(&cbb, fake_host_dev(SRC_BUS), HBM_DST + 4 * MIB, 2 * MIB, 0);
	cb_msg_long(&cbb, fake_host_dev(FENCE_BUS + 4), 2);
	cb_lin_dma(&cc, fake_host_dev(SRC_BUS), HBM_DST + 8 * MIB, 2 * MIB, 0);
	cb_msg_long(&cc, fake_host_dev(FENCE_BUS + 8), 3);
	q_submit(&a, &ca);
	q_submit(&b, &cbb);
	q_submit(&c2, &cc);
	run_to(&fb, T0 + LAT + one + LAT);
	ok(host_u32(&fb, FENCE_BUS) == 1 && host_u32(&fb, FENCE_BUS + 4) == 2,
	   "DMA2 and DMA3 ran in parallel");
	ok(host_u32(&fb, FENCE_BUS + 8) == 0 &&
	   (dma_sts0(g, 2) & DMA_CORE_STS0_BUSY) && !dma_sts0(g, 3),
	   "the second stream of DMA2 waited for the core");
	run_to(&fb, T0 + LAT + one + one + LAT - 1);
	ok_eq(host_u32(&fb, FENCE_BUS + 8), 0, "not before two transfers");
	run_to(&fb, T0 + LAT + one + one + LAT);
	ok_eq(host_u32(&fb, FENCE_BUS + 8), 3, "then its transfer ran");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

/* No step runs more than a bounded amount of work. */
static void test_bounded_steps(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, 0, 0);
	struct queue q = q_setup(&fb, 2, pq_bus(0), 4);
	struct cb c = cb_at(&fb, cb_bus(0));
	unsigned int i, steps;

	for (i = 0; i < 20000; i++)
		cb_nop(&c);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x44);
	q_submit(&q, &c);
	ok(fb.sched_pending && fb.sched_at == fb.now,
	   "without latency the step is requested at once");
	fake_advance(&fb, 0, 1);
	ok(host_u32(&fb, FENCE_BUS) == 0 && fb.sched_pending,
	   "one step did not run 20001 packets, and asked for another");
	steps = 1 + fake_drain(&fb, 100);
	ok(host_u32(&fb, FENCE_BUS) == 0x44 && steps >= 3,
	   "the CB finished in %u steps", steps);

	/* 64 MiB without a bandwidth limit: still several steps. */
	c = cb_at(&fb, cb_bus(1));
	cb_lin_dma(&c, 0, HBM_DST, 64 * MIB, 1);
	cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x55);
	q_submit(&q, &c);
	steps = fake_drain(&fb, 1000);
	ok(host_u32(&fb, FENCE_BUS) == 0x55 && steps > 1,
	   "a 64 MiB memset took %u steps", steps);

	/* A CB that loops forever is stopped by the per-CB work bound. */
	c = cb_at(&fb, cb_bus(2));
	cb_nop(&c);
	cb_repeat(&c, 1, 0);
	q_submit(&q, &c);
	steps = fake_drain(&fb, 100000);
	ok((q_sts1(&q) & QM_STS1_CP_UNDEF_CMD_ERR) && !fb.sched_pending,
	   "runaway CB stopped after %u steps", steps);
	(void)g;
	fakebus_free(&fb);
}

/* Fences released by another stream and by a monitor, across steps. */
static void test_fences_across_streams(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	struct queue a = q_setup(&fb, 17, pq_bus(0), 4);	/* DMA4 */
	struct queue b = q_setup(&fb, 21, pq_bus(1), 4);	/* DMA5 */
	struct queue m = q_setup(&fb, 25, pq_bus(2), 4);	/* DMA6 */
	struct cb ca = cb_at(&fb, cb_bus(0)), cbb = cb_at(&fb, cb_bus(1));
	struct cb cm = cb_at(&fb, cb_bus(2)), cs = cb_at(&fb, cb_bus(3));
	uint64_t rd = GAUDI_CFG_BASE + q_fence_rdata(&m, 1);
	unsigned int mon = 7, sob = 40;

	fb.now = T0;
	cb_fence(&ca, 0, 1, 1);
	cb_msg_long(&ca, fake_host_dev(FENCE_BUS), 0xA);
	cb_nop(&cbb);
	cb_msg_long(&cbb, GAUDI_CFG_BASE + q_fence_rdata(&a, 0), 1);
	q_submit(&a, &ca);
	q_submit(&b, &cbb);
	run_to(&fb, T0 + 2 * LAT);
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "A still waits when B signals");
	ok(fb.sched_pending, "the wake-up asked for a step");
	run_to(&fb, T0 + 3 * LAT);
	ok_eq(host_u32(&fb, FENCE_BUS), 0xA,
	      "A ran one latency after B's fence write");

	/* A monitor on SOB 40 writes M's fence; B's CB increments it. */
	gaudi_cfg_write(g, WS + SM_MON_PAY_ADDRL(0) + 4 * mon, (uint32_t)rd);
	gaudi_cfg_write(g, WS + SM_MON_PAY_ADDRH(0) + 4 * mon, rd >> 32);
	gaudi_cfg_write(g, WS + SM_MON_PAY_DATA(0) + 4 * mon, 1);
	gaudi_cfg_write(g, WS + SM_MON_ARM(0) + 4 * mon,
			sob / 8 | (uint32_t)(uint8_t)~(1U << (sob % 8)) << 8 |
			1U << 17);
	cb_fence(&cm, 1, 1, 1);
	cb_msg_long(&cm, fake_host_dev(FENCE_BUS + 4), 0xB);
	q_submit(&m, &cm);
	cb_msg_long(&cs, GAUDI_CFG_BASE + WS + 4 * sob, SM_SOB_INC | 1);
	q_submit(&b, &cs);
	fake_drain(&fb, 100);
	ok_eq(host_u32(&fb, FENCE_BUS + 4), 0xB, "monitor payload released M");
	ok(q_sts0(&a) == 0x3FFF && q_sts0(&b) == 0x3FFF && q_sts0(&m) == 0x3FFF,
	   "all idle");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

/* A reset drops queued work and transfers in flight: nothing completes. */
static void test_reset_drops_work(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	struct queue q = q_setup(&fb, 0, pq_bus(0), 4);
	struct queue r = q_setup(&fb, 4, pq_bus(1), 4);
	struct cb c = cb_at(&fb, cb_bus(0)), d = cb_at(&fb, cb_bus(1));
	unsigned int msi;

	memset(fb.host + SRC_BUS, 0x77, 4 * MIB);
	fb.now = T0;
	cb_lin_dma(&c, fake_host_dev(SRC_BUS), HBM_DST, 4 * MIB, 0);
	cb_msg_prot(&c, fake_host_dev(FENCE_BUS), 0x80000001);
	cb_msg_prot(&c, GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ, 1);
	cb_msg_prot(&d, fake_host_dev(FENCE_BUS + 4), 0x80000002);
	q_submit(&q, &c);
	run_to(&fb, T0 + LAT + MIB * 1000 / BW);
	q_submit(&r, &d);	/* queued, not started */
	ok(dma_sts0(g, 0) & DMA_CORE_STS0_BUSY, "transfer in flight");
	msi = fb.msi_count;
	gaudi_core_reset(g);
	ok(!dma_sts0(g, 0) && q_sts0(&q) == 0x3FFF &&
	   (cgm_sts(&q) & QM_CGM_STS_AGENT_IDLE), "reset: idle at once");
	ok(!gaudi_core_busy(g), "no work outstanding");
	run_to(&fb, T0 + 100 * MIB * 1000 / BW);
	ok(host_u32(&fb, FENCE_BUS) == 0 && host_u32(&fb, FENCE_BUS + 4) == 0 &&
	   fb.msi_count == msi, "no completion after the reset");
	ok(fb.hbm[HBM_DST + MIB] == 0 && fb.hbm[HBM_DST + MIB - 1] == 0x77,
	   "the rest of the transfer was dropped");
	ok_eq(fb.guest_errors, 0, "no guest errors");

	/* The card works after the reset. */
	q = q_setup(&fb, 0, pq_bus(0), 4);
	c = cb_at(&fb, cb_bus(2));
	cb_msg_long(&c, fake_host_dev(FENCE_BUS + 8), 0xC);
	q_submit(&q, &c);
	fake_drain(&fb, 10);
	ok_eq(host_u32(&fb, FENCE_BUS + 8), 0xC, "work after the reset runs");
	fakebus_free(&fb);
}

/* The register interface: COMMIT returns at once, STS0 busy until done. */
static void test_direct_commit_async(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	uint32_t core = mmDMA0_CORE_BASE + 6 * GAUDI_DMA_STRIDE;
	uint64_t src = fake_host_dev(SRC_BUS);

	memset(fb.host + SRC_BUS, 0x3C, MIB);
	fb.now = T0;
	gaudi_cfg_write(g, core + DMA_CORE_SRC_BASE_LO, (uint32_t)src);
	gaudi_cfg_write(g, core + DMA_CORE_SRC_BASE_HI, src >> 32);
	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_LO, (uint32_t)HBM_DST);
	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_HI, 0);
	gaudi_cfg_write(g, core + DMA_CORE_DST_TSIZE_0, MIB);
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_WDATA, 0x600D);
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_ADDR_LO,
			(uint32_t)fake_host_dev(FENCE_BUS));
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_ADDR_HI,
			fake_host_dev(FENCE_BUS) >> 32);
	gaudi_cfg_write(g, core + DMA_CORE_COMMIT,
			DMA_COMMIT_LIN | DMA_COMMIT_WR_COMP_EN);
	ok((dma_sts0(g, 6) & DMA_CORE_STS0_BUSY) && fb.hbm[HBM_DST] == 0 &&
	   host_u32(&fb, FENCE_BUS) == 0, "COMMIT returns with STS0 busy");
	gaudi_cfg_write(g, core + DMA_CORE_COMMIT, DMA_COMMIT_LIN);
	ok(fb.guest_errors == 1, "a second COMMIT while busy is refused");
	run_to(&fb, T0 + MIB * 1000 / BW);
	ok(!dma_sts0(g, 6) && fb.hbm[HBM_DST + MIB - 1] == 0x3C &&
	   host_u32(&fb, FENCE_BUS) == 0x600D,
	   "data and write completion at size / bandwidth");
	fakebus_free(&fb);
}

/* Fault injection and stop/restart still work between steps. */
static void test_stop_restart_async(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	struct queue q = q_setup(&fb, 3, pq_bus(0), 4);
	struct cb c = cb_at(&fb, cb_bus(0)), d = cb_at(&fb, cb_bus(1));

	fb.now = T0;
	cb_stop(&c);
	cb_msg_long(&d, fake_host_dev(FENCE_BUS), 0xD);
	q_submit(&q, &c);
	q_submit(&q, &d);
	fake_drain(&fb, 10);
	ok((q_sts1(&q) & QM_STS1_CP_STOP_OP) && host_u32(&fb, FENCE_BUS) == 0,
	   "STOP stops the stream in a step");
	ok(!fb.sched_pending, "a stopped stream asks for no step");
	q_restart(&q);
	ok_eq(host_u32(&fb, FENCE_BUS), 0, "restart only schedules");
	fake_drain(&fb, 10);
	ok_eq(host_u32(&fb, FENCE_BUS), 0xD, "the next entry runs after it");
	(void)g;
	fakebus_free(&fb);
}

/*
 * Priority arbitration in time, as hl-thunk-open's two-stream priority
 * test uses it: two streams of DMA 1, released together, each take the
 * grant (lock, release, lock), write their id three times to one word
 * with 1 KiB copies in between, release.  The higher priority stream runs
 * first, so the lower one's id is left.
 */
static uint32_t arb_last_writer(uint8_t p0, uint8_t p1)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new_async(&fb, LAT, BW);
	uint32_t qm = mmDMA0_QM_BASE + GAUDI_DMA_STRIDE, v;
	uint8_t prio[2] = { p0, p1 };
	unsigned int s, k;

	fb.now = T0;
	gaudi_cfg_write(g, qm + QM_GLBL_CFG1, 0x3FFF);
	for (s = 0; s < 2; s++) {
		struct queue q = q_setup(&fb, 4 + s, pq_bus(s), 4);
		struct cb c = cb_at(&fb, cb_bus(s));

		cb_hdr(&c, 0xC, prio[s], 0);
		cb_hdr(&c, 0xC, prio[s] | PKT_ARB_RELEASE, 0);
		cb_hdr(&c, 0xC, prio[s], 0);
		for (k = 0; k < 3; k++) {
			cb_lin_dma(&c, fake_host_dev(SRC_BUS),
				   fake_host_dev(SRC_BUS + 0x10000 * (s + 1)),
				   1024, 0);
			cb_msg_long(&c, fake_host_dev(FENCE_BUS), 0x50 + s);
		}
		cb_hdr(&c, 0xC, prio[s] | PKT_ARB_RELEASE, 0);
		q_submit(&q, &c);
	}
	gaudi_cfg_write(g, qm + QM_ARB_CFG_0, QM_ARB_CFG_0_EN |
			QM_ARB_CFG_0_IS_MASTER);
	gaudi_cfg_write(g, qm + QM_GLBL_CFG1, 0);
	fake_drain(&fb, 1000);
	v = host_u32(&fb, FENCE_BUS);
	if (fb.guest_errors || gaudi_cfg_read(g, qm + QM_PQ_CI(0) + 4) != 1)
		v = 0;
	fakebus_free(&fb);
	return v;
}

static void test_priority_arb_async(void)
{
	ok_eq(arb_last_writer(2, 1), 0x51,
	      "priority 2 on stream 0: it runs first, stream 1 writes last");
	ok_eq(arb_last_writer(1, 2), 0x50,
	      "priority 2 on stream 1: stream 0 writes last");
}

int main(void)
{
	test_completion_after_doorbell();
	test_packet_latency();
	test_dma_bandwidth();
	test_dma_parallel();
	test_bounded_steps();
	test_fences_across_streams();
	test_reset_drops_work();
	test_direct_commit_async();
	test_stop_restart_async();
	test_priority_arb_async();
	return tap_done();
}
