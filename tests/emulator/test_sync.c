// SPDX-License-Identifier: GPL-2.0-or-later
/* Sync manager: SOBs, monitors, and signal/wait between two queues. */
#include <string.h>

#include "cbgen.h"
#include "tap.h"

#define WS		mmSYNC_MNGR_W_S_SOB_OBJ_0
#define EN		mmSYNC_MNGR_E_N_SOB_OBJ_0
#define PQ_BUS		0x10000ULL
#define CB_BUS		0x100000ULL
#define WN		mmSYNC_MNGR_W_N_SOB_OBJ_0
/*
 * Monitors write over the LBW bus only: their payloads land in W_N SOBs
 * 1000.. (flag k is SOB 1000 + k / 4).
 */
#define FLAG_REG	(WN + 4 * 1000)

static uint64_t flag_dev(unsigned int k)
{
	return GAUDI_CFG_BASE + FLAG_REG + k;
}

static uint32_t flag_u32(struct gaudi_core *g, unsigned int k)
{
	return gaudi_cfg_read(g, FLAG_REG + k);
}

static uint32_t arm_val(unsigned int group, uint8_t mask, int equal,
			uint32_t target)
{
	return group | (uint32_t)mask << 8 | (equal ? 1U << 16 : 0) |
	       target << 17;
}

static void mon_setup(struct gaudi_core *g, uint32_t blk, unsigned int mon,
		      uint64_t addr, uint32_t data)
{
	gaudi_cfg_write(g, blk + SM_MON_PAY_ADDRL(0) + 4 * mon, (uint32_t)addr);
	gaudi_cfg_write(g, blk + SM_MON_PAY_ADDRH(0) + 4 * mon, addr >> 32);
	gaudi_cfg_write(g, blk + SM_MON_PAY_DATA(0) + 4 * mon, data);
}

static void test_sobs_and_monitors(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint32_t status;

	gaudi_cfg_write(g, WS + 4 * 10, 5);
	gaudi_cfg_write(g, WS + 4 * 10, SM_SOB_INC | 3);
	ok_eq(gaudi_cfg_read(g, WS + 4 * 10), 8, "SOB set then add");
	gaudi_cfg_write(g, WS + 4 * 10, SM_SOB_INC | 0x7FFF);
	ok_eq(gaudi_cfg_read(g, WS + 4 * 10), 7, "SOB wraps at 15 bits");
	gaudi_cfg_write(g, WS + 4 * 10, 0x7FFF0001);
	ok_eq(gaudi_cfg_read(g, WS + 4 * 10), 1,
	      "set keeps 15 bits");

	/* Monitor 3 watches SOBs 16 and 17 (group 2) for >= 2. */
	mon_setup(g, WS, 3, flag_dev(0), 0x1234);
	gaudi_cfg_write(g, WS + SM_MON_ARM(0) + 12, arm_val(2, 0xFC, 0, 2));
	status = gaudi_cfg_read(g, WS + SM_MON_STATUS(0) + 12);
	ok_eq(status, SM_MON_STATUS_VALID | (3 << SM_MON_STATUS_PENDING_SHIFT),
	      "armed monitor: VALID, both SOBs pending");
	gaudi_cfg_write(g, WS + 4 * 16, 2);
	gaudi_cfg_write(g, WS + 4 * 18, 9);	/* masked out */
	ok_eq(flag_u32(g, 0), 0, "not yet: SOB 17 is below");
	ok_eq(gaudi_cfg_read(g, WS + SM_MON_STATUS(0) + 12),
	      SM_MON_STATUS_VALID | (2 << SM_MON_STATUS_PENDING_SHIFT),
	      "pending shows SOB 17 only");
	gaudi_cfg_write(g, WS + 4 * 17, SM_SOB_INC | 2);
	ok_eq(flag_u32(g, 0), 0x1234, "payload written when met");
	ok_eq(gaudi_cfg_read(g, WS + SM_MON_STATUS(0) + 12) &
	      SM_MON_STATUS_VALID, 0, "monitor disarmed after firing");
	gaudi_cfg_write(g, FLAG_REG, 0);
	gaudi_cfg_write(g, WS + 4 * 17, SM_SOB_INC | 1);
	ok_eq(flag_u32(g, 0), 0, "fires only once");

	/* Equal mode, armed already satisfied: fires on the arm. */
	gaudi_cfg_write(g, EN + 4 * 40, 7);
	mon_setup(g, EN, 500, flag_dev(4), 1);
	gaudi_cfg_write(g, EN + SM_MON_ARM(0) + 4 * 500, arm_val(5, 0xFE, 1, 6));
	ok_eq(flag_u32(g, 4), 0, "equal mode: 7 != 6");
	gaudi_cfg_write(g, EN + 4 * 40, 6);
	ok_eq(flag_u32(g, 4), 1, "equal mode fires at 6");
	mon_setup(g, EN, 501, flag_dev(8), 2);
	gaudi_cfg_write(g, EN + SM_MON_ARM(0) + 4 * 501, arm_val(5, 0xFE, 0, 1));
	ok_eq(flag_u32(g, 8), 2, "already satisfied fires on arm");

	/* Disarm through MON_STATUS; reset disarms everything. */
	mon_setup(g, EN, 7, flag_dev(12), 3);
	gaudi_cfg_write(g, EN + SM_MON_ARM(0) + 4 * 7, arm_val(9, 0xFE, 0, 1));
	gaudi_cfg_write(g, EN + SM_MON_STATUS(0) + 4 * 7, 0);
	gaudi_cfg_write(g, EN + 4 * 72, 1);
	ok_eq(flag_u32(g, 12), 0, "MON_STATUS write disarms");
	gaudi_cfg_write(g, EN + SM_MON_ARM(0) + 4 * 7, arm_val(9, 0xFE, 0, 2));
	gaudi_core_reset(g);
	mon_setup(g, EN, 7, flag_dev(12), 3);
	gaudi_cfg_write(g, EN + 4 * 72, 2);
	ok_eq(flag_u32(g, 12), 0, "reset disarms monitors");

	/* A payload outside CFG space is a RAZWI (LBW only), nothing else. */
	mon_setup(g, EN, 8, fake_host_dev(0x8000), 1);
	gaudi_cfg_write(g, EN + SM_MON_ARM(0) + 4 * 8, arm_val(0, 0xFE, 0, 0));
	ok(fb.guest_errors >= 1, "payload to host memory is reported");
	ok_eq(host_u32(&fb, 0x8000), 0, "and not written");
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_RAZWI_WRITE_VLD), 1,
	      "RAZWI write captured");
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_RAZWI_WRITE_ID),
	      RAZWI_ID(9, 3, AXI_ID_DMA), "initiator: the E_N DMA_IF");
	fakebus_free(&fb);
}

/* Payloads that update SOBs chain through monitors without recursion. */
static void test_chain(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	unsigned int i, n = GAUDI_SM_GROUPS - 1;

	/* Monitor i watches SOB 8*i and adds 1 to SOB 8*(i+1). */
	for (i = 0; i < n; i++) {
		uint64_t next = GAUDI_CFG_BASE + EN + 4 * 8 * (i + 1);

		mon_setup(g, EN, i, i + 1 < n ? next : flag_dev(0),
			  i + 1 < n ? SM_SOB_INC | 1 : 0xD0E);
		gaudi_cfg_write(g, EN + SM_MON_ARM(0) + 4 * i,
				arm_val(i, 0xFE, 0, 1));
	}
	gaudi_cfg_write(g, EN, 1);
	ok_eq(flag_u32(g, 0), 0xD0E, "a chain of 255 monitors fires");
	ok_eq(g->sync.fired, n, "each monitor fired once");
	fakebus_free(&fb);
}

/*
 * Signal/wait as upstream builds it: queue A copies data and signals a SOB
 * with MSG_SHORT; an armed monitor writes queue B's fence RDATA; B waits in
 * a FENCE and then copies the data on.  B is submitted first.
 */
static void test_signal_wait(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue a = q_setup(&fb, 9, PQ_BUS, 4);		/* DMA2 */
	struct queue b = q_setup(&fb, 14, PQ_BUS + 0x1000, 4);	/* DMA3 */
	struct cb ca = cb_at(&fb, CB_BUS), cbb = cb_at(&fb, CB_BUS + 0x1000);
	uint64_t rdata = GAUDI_CFG_BASE + q_fence_rdata(&b, 0);
	uint64_t mon_base = GAUDI_CFG_BASE + WS + SM_MON_PAY_ADDRL(0);
	uint64_t sob_base = GAUDI_CFG_BASE + WS;
	unsigned int i, mon = 100, sob = 200;

	for (i = 0; i < 4096; i++)
		fb.host[0x600000 + i] = i * 13;
	/* CP_MSG_BASE0 = monitor block, BASE1 = SOB block (as upstream). */
	for (i = 0; i < 2; i++) {
		struct queue *q = i ? &b : &a;
		uint32_t lo = q->base + QM_CP_MSG_BASE_LO(0, 0) + 4 * q->s;
		uint32_t hi = q->base + QM_CP_MSG_BASE_HI(0, 0) + 4 * q->s;

		gaudi_cfg_write(g, lo, (uint32_t)mon_base);
		gaudi_cfg_write(g, hi, mon_base >> 32);
		gaudi_cfg_write(g, lo + QM_CP_MSG_BASE_STRIDE,
				(uint32_t)sob_base);
		gaudi_cfg_write(g, hi + QM_CP_MSG_BASE_STRIDE, sob_base >> 32);
	}
	/* B: arm the monitor on SOB 200 >= 1, fence, then copy on. */
	cb_msg_short(&cbb, 0, 4 * mon, (uint32_t)rdata);
	cb_msg_short(&cbb, 0, 0x800 + 4 * mon, rdata >> 32);
	cb_msg_short(&cbb, 0, 0x1000 + 4 * mon, 1);
	cb_msg_short(&cbb, 0, 0x1800 + 4 * mon,
		     arm_val(sob / 8, (uint8_t)~(1U << (sob % 8)), 0, 1));
	cb_fence(&cbb, 0, 1, 1);
	cb_lin_dma(&cbb, GAUDI_SRAM_BASE + 0x20000, fake_host_dev(0x700000),
		   4096, 0);
	/* A: produce the data, then signal. */
	cb_lin_dma(&ca, fake_host_dev(0x600000), GAUDI_SRAM_BASE + 0x20000,
		   4096, 0);
	cb_msg_short(&ca, 1, 4 * sob, SM_SOB_INC | 1);

	q_submit(&b, &cbb);
	ok(gaudi_cfg_read(g, WS + SM_MON_STATUS(0) + 4 * mon) &
	   SM_MON_STATUS_VALID, "B armed the monitor");
	ok(fb.host[0x700001] == 0 && (q_sts0(&b) & 0x3FFF) != 0x3FFF,
	   "B waits in its FENCE");
	q_submit(&a, &ca);
	ok(!memcmp(fb.host + 0x600000, fb.host + 0x700000, 4096),
	   "B ran after A's data was in place");
	ok(q_sts0(&a) == 0x3FFF && q_sts0(&b) == 0x3FFF, "both idle");
	ok_eq(gaudi_cfg_read(g, WS + 4 * sob), 1, "SOB incremented once");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	fakebus_free(&fb);
}

/*
 * hl-thunk-open's test_sm_sob_cleanup_on_ctx_switch, packet for packet, on
 * DMA_0_0 with the MSG_SHORT bases both drivers program (0: E_N monitors,
 * 1: E_N SOBs): context 1 sets E_N SOB 0 to 1 (MSG_SHORT base 1); the next
 * context arms E_N monitor 0 for SOB 0 EQUAL 0 with its payload on the
 * stream's FENCE0 and FENCEs on it.  Between them the clear of either
 * driver: gaudi.ko's register writes (monitors disarmed first, then SOBs),
 * upstream's kernel MSG_LONG job (SOBs first, then MON_STATUS).  Without a
 * clear the FENCE must wait (the check can fail).
 */
static void sob_cleanup_round(int how, uint32_t *ci, uint32_t *sob)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, PQ_BUS, 4);
	uint32_t qm = mmDMA0_QM_BASE;
	uint64_t fence = GAUDI_CFG_BASE + qm + QM_CP_FENCE_RDATA(0, 0);
	struct cb c;
	unsigned int i;

	gaudi_cfg_write(g, qm + QM_CP_MSG_BASE_LO(0, 0),
			(uint32_t)(GAUDI_CFG_BASE + EN + SM_MON_PAY_ADDRL(0)));
	gaudi_cfg_write(g, qm + QM_CP_MSG_BASE_HI(0, 0), GAUDI_CFG_BASE >> 32);
	gaudi_cfg_write(g, qm + QM_CP_MSG_BASE_LO(1, 0),
			(uint32_t)(GAUDI_CFG_BASE + EN));
	gaudi_cfg_write(g, qm + QM_CP_MSG_BASE_HI(1, 0), GAUDI_CFG_BASE >> 32);
	c = cb_at(&fb, CB_BUS);
	cb_msg_short(&c, 1, 0, 1);			/* SOB 0 = 1 (set) */
	q_submit(&q, &c);
	if (how == 1) {				/* gaudi.ko at open */
		for (i = 0; i < SM_NUM_MONS; i++) {
			gaudi_cfg_write(g, EN + SM_MON_STATUS(i), 0);
			gaudi_cfg_write(g, EN + SM_MON_PAY_ADDRL(i),
					(uint32_t)(GAUDI_CFG_BASE + EN));
			gaudi_cfg_write(g, EN + SM_MON_PAY_ADDRH(i),
					GAUDI_CFG_BASE >> 32);
			gaudi_cfg_write(g, EN + SM_MON_PAY_DATA(i), 0);
		}
		for (i = 0; i < SM_NUM_SOBS; i++)
			gaudi_cfg_write(g, EN + 4 * i, 0);
	} else if (how == 2) {			/* upstream's kernel job */
		c = cb_at(&fb, CB_BUS + 0x10000);
		for (i = 0; i < SM_NUM_SOBS; i++)
			cb_msg_long(&c, GAUDI_CFG_BASE + EN + 4 * i, 0);
		for (i = 0; i < SM_NUM_MONS; i++)
			cb_msg_long(&c, GAUDI_CFG_BASE + EN + SM_MON_STATUS(i), 0);
		q_submit(&q, &c);
	}
	c = cb_at(&fb, CB_BUS + 0x20000);
	cb_msg_short(&c, 0, SM_MON_PAY_ADDRL(0) - SM_MON_PAY_ADDRL(0),
		     (uint32_t)fence);
	cb_msg_short(&c, 0, SM_MON_PAY_ADDRH(0) - SM_MON_PAY_ADDRL(0),
		     fence >> 32);
	cb_msg_short(&c, 0, SM_MON_PAY_DATA(0) - SM_MON_PAY_ADDRL(0), 1);
	cb_msg_short(&c, 0, SM_MON_ARM(0) - SM_MON_PAY_ADDRL(0),
		     arm_val(0, 0xFE, 1, 0));
	cb_fence(&c, 0, 1, 1);
	q_submit(&q, &c);
	*ci = q_ci(&q);
	*sob = gaudi_cfg_read(g, EN);
	fakebus_free(&fb);
}

static void test_sob_cleanup_on_ctx_switch(void)
{
	uint32_t ci, sob;

	sob_cleanup_round(0, &ci, &sob);
	ok(ci == 1 && sob == 1,
	   "no clear: SOB 0 stays 1, the EQUAL-0 monitor does not fire, the FENCE waits");
	sob_cleanup_round(1, &ci, &sob);
	ok(ci == 2 && sob == 0,
	   "gaudi.ko's clear: SOB 0 reads 0, the monitor fires at arming, the CB completes");
	sob_cleanup_round(2, &ci, &sob);
	ok(ci == 3 && sob == 0,
	   "upstream's clear (SOBs, then MON_STATUS): the same");
}

int main(void)
{
	test_sob_cleanup_on_ctx_switch();
	test_sobs_and_monitors();
	test_chain();
	test_signal_wait();
	return tap_done();
}
