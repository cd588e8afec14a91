// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hardware protection: protection bits, range registers, RAZWI, the MMU
 * rules for untrusted initiators, and the property that the protection
 * alone (no CB parser) stops the attack classes 1-3 of issue 9 on an
 * internal and an external queue.  The card is programmed the way
 * upstream's gaudi_init_security() and queue init do (facts:
 * Documentation/emulator/protection.rst); the transaction monitor is the
 * oracle: no successful untrusted access may leave the user's ranges, no
 * trusted one may do more than fetch the kernel's PQs and CBs.
 */
#include <stdio.h>
#include <string.h>

#include "fwboot.h"
#include "tap.h"

#include "protect.h"

static unsigned int violations, txns, blocked;
static struct gaudi_txn last_mon;	/* the last monitor payload seen */

static void on_txn(void *opaque, const struct gaudi_txn *t)
{
	(void)opaque;
	txns++;
	blocked += t->result != GAUDI_TXN_OK;
	if (t->kind == GAUDI_INIT_MON)
		last_mon = *t;
	if (!txn_allowed(t)) {
		if (violations++ < 8)
			printf("# VIOLATION: %s %u %s %s addr 0x%llx pa 0x%llx len %llu asid %u\n",
			       t->kind == GAUDI_INIT_QMAN ? "queue" :
			       t->kind == GAUDI_INIT_DMA ? "dma" : "monitor",
			       t->index, t->secure ? "secure" : "non-secure",
			       t->write ? "write" : "read",
			       (unsigned long long)t->addr,
			       (unsigned long long)t->pa,
			       (unsigned long long)t->len, t->asid);
	}
}

/* --- events ------------------------------------------------------------ */

static unsigned int eq_ci;

/* Consume the event queue; count entries of type t1 or t2. */
static unsigned int events(struct fakebus *fb, unsigned int t1,
			   unsigned int t2)
{
	unsigned int n = 0;
	uint32_t ctl, zero = 0;

	for (;;) {
		memcpy(&ctl, fb->host + H_EQ + 64 * eq_ci + 4, 4);
		if (!(ctl & EQ_CTL_READY))
			return n;
		ctl = (ctl & EQ_CTL_TYPE_MASK) >> EQ_CTL_TYPE_SHIFT;
		n += ctl == t1 || ctl == t2;
		memcpy(fb->host + H_EQ + 64 * eq_ci + 4, &zero, 4);
		eq_ci = (eq_ci + 1) % 64;
		wr(fb->g, mmCPU_IF_EQ_RD_OFFS, eq_ci);
	}
}

static unsigned int stopped(struct fakebus *fb)
{
	return events(fb, GAUDI_EVENT_RAZWI_OR_ADC, GAUDI_EVENT_MMU_PAGE_FAULT);
}

/* --- the card ----------------------------------------------------------- */

static struct gaudi_core *protected_card(struct fakebus *fb)
{
	struct gaudi_core *g = ready_card(fb);
	uint32_t v = CANARY;

	fb->quiet = true;
	eq_ci = 0;
	protect_like_upstream(fb);
	memcpy(fb->host + CANARY_BUS, &v, 4);
	memcpy(fb->hbm + KDRAM_CANARY, &v, 4);
	g->bus.txn = on_txn;
	violations = txns = blocked = 0;
	return g;
}

static bool canaries_intact(struct fakebus *fb)
{
	uint32_t a, b;

	memcpy(&a, fb->host + CANARY_BUS, 4);
	memcpy(&b, fb->hbm + KDRAM_CANARY, 4);
	return a == CANARY && b == CANARY;
}

/* --- unit tests of the mechanisms -------------------------------------- */

static void test_pb_words(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint32_t pb = mmDMA0_QM_BASE + PROT_BITS_OFFS;

	ok_eq(gaudi_cfg_read(g, pb), 0xFFFFFFFF,
	      "protection bits reset to 1 (unprotected)");
	gaudi_cfg_write(g, pb + 4, 0x12345678);
	ok_eq(gaudi_cfg_read(g, pb + 4), 0x12345678, "PB word reads back");
	ok_eq(gaudi_cfg_read(g, mmDMA0_QM_BASE + 0xF84), 0x12345678,
	      "the PB words are the block's last 128 bytes");
	gaudi_cfg_write(g, mmSYNC_MNGR_W_S_SOB_OBJ_0 + 0xF80, 5);
	ok_eq(gaudi_cfg_read(g, mmSYNC_MNGR_W_S_SOB_OBJ_0 + 0xF80), 5,
	      "SOB 992 is a SOB, not a PB word");
	gaudi_core_reset(g);
	ok_eq(gaudi_cfg_read(g, pb + 4), 0xFFFFFFFF, "reset restores them");
	fakebus_free(&fb);
}

static void test_mechanisms(void)
{
	struct fakebus fb;
	struct gaudi_core *g = protected_card(&fb);
	struct queue q = q_setup(&fb, 9, KPQ_BUS + 0x10000, 4);	/* DMA2 */
	uint32_t core2 = mmDMA0_CORE_BASE + 2 * GAUDI_DMA_STRIDE;
	struct cb c;
	uint32_t v, ci;

	/* A user CB on an internal queue: fetched through the MMU. */
	c = cb_at(&fb, UHOST_BUS);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 8, 7);
	cb_wreg32(&c, DMA_CORE_WR_COMP_WDATA, 0x1234);
	cb_lin_dma(&c, USER_VA + 0x800, USER_DRAM + 0x100, 64, 0);
	q_submit_dev(&q, USER_VA, c.len);
	ok_eq(gaudi_cfg_read(g, mmSYNC_MNGR_E_N_SOB_OBJ_0 + 8), 7,
	      "untrusted MSG_LONG reaches a user SOB");
	ok_eq(gaudi_cfg_read(g, core2 + DMA_CORE_WR_COMP_WDATA), 0x1234,
	      "untrusted WREG_32 reaches a DMA core transfer register");
	ok_eq(q_sts1(&q), 0, "no queue error");
	ok_eq(stopped(&fb), 0, "no RAZWI, no fault");
	ok_eq(violations, 0, "oracle: every access in the user's ranges");
	ok(txns >= 5, "the monitor saw the PQ, CB, message, register and DMA");

	/* A protected register: dropped, RAZWI captured. */
	c = cb_at(&fb, UHOST_BUS + 0x1000);
	cb_wreg32(&c, DMA_CORE_PROT, 1);
	q_submit_dev(&q, USER_VA + 0x1000, c.len);
	ok_eq(gaudi_cfg_read(g, core2 + DMA_CORE_PROT), 2,
	      "WREG_32 to DMA core PROT dropped");
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_RAZWI_WRITE_VLD), 1, "RAZWI write VLD");
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_RAZWI_WRITE_ID),
	      RAZWI_ID(0, 2, AXI_ID_DMA), "initiator id: DMA_IF W_S 1 (DMA2)");
	ok_eq(events(&fb, GAUDI_EVENT_RAZWI_OR_ADC, 0), 1, "RAZWI_OR_ADC posted");
	ok(q_sts1(&q) & QM_STS1_CP_WREG_ERR, "the stream stops on it");
	gaudi_cfg_write(g, mmMMU_UP_RAZWI_WRITE_VLD, 0);
	q_restart(&q);

	/* Reads of protected registers by untrusted initiators: 0. */
	gaudi_cfg_write(g, mmPB_RAZWI_RDATA_CFG, 1);
	c = cb_at(&fb, UHOST_BUS + 0x2000);
	cb_lin_dma(&c, GAUDI_CFG_BASE + core2 + DMA_CORE_NON_SECURE_PROPS,
		   USER_DRAM + 0x200, 4, 0);
	q_submit_dev(&q, USER_VA + 0x2000, c.len);
	memcpy(&v, fb.hbm + USER_DRAM + 0x200, 4);
	ok(v != USER_ASID, "a protected register does not leak by DMA");
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_RAZWI_READ_VLD), 1, "RAZWI read VLD");
	ok(stopped(&fb) >= 1, "RAZWI posted");
	q_restart(&q);
	gaudi_cfg_write(g, core2 + DMA_CORE_ERR_CAUSE, 0xFF);

	/* The first 128 bytes of SRAM: readable, not writable. */
	fb.sram[0x10] = 0x5A;
	c = cb_at(&fb, UHOST_BUS + 0x3000);
	cb_lin_dma(&c, GAUDI_SRAM_BASE, USER_DRAM + 0x300, 0x80, 0);
	cb_lin_dma(&c, USER_DRAM, GAUDI_SRAM_BASE, 0x80, 0);
	q_submit_dev(&q, USER_VA + 0x3000, c.len);
	ok_eq(fb.hbm[USER_DRAM + 0x310], 0x5A, "SRAM head readable");
	ok_eq(fb.sram[0x10], 0x5A, "SRAM head not writable");
	ok(stopped(&fb) >= 1, "RAZWI posted for the write");
	q_restart(&q);

	/* A user's monitor releasing a fence: reported as the monitor's. */
	c = cb_at(&fb, UHOST_BUS + 0x4000);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_W_N_SOB_OBJ_0 +
		    SM_MON_PAY_ADDRL(0) + 4 * 9,
		    (uint32_t)(GAUDI_CFG_BASE + q_fence_rdata(&q, 1)));
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_W_N_SOB_OBJ_0 +
		    SM_MON_PAY_ADDRH(0) + 4 * 9, GAUDI_CFG_BASE >> 32);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_W_N_SOB_OBJ_0 +
		    SM_MON_PAY_DATA(0) + 4 * 9, 1);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_W_N_SOB_OBJ_0 +
		    SM_MON_ARM(0) + 4 * 9, 0xFE00 | 1U << 17);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_W_N_SOB_OBJ_0, 1);
	cb_fence(&c, 1, 1, 1);
	ci = q_ci(&q);
	q_submit_dev(&q, USER_VA + 0x4000, c.len);
	ok_eq(q_ci(&q), ci + 1, "a user monitor releases the stream's fence");
	ok(last_mon.kind == GAUDI_INIT_MON &&
	   last_mon.index == GAUDI_SM_W_N * 512 + 9 && !last_mon.secure &&
	   last_mon.write && last_mon.result == GAUDI_TXN_OK &&
	   last_mon.pa == GAUDI_CFG_BASE + q_fence_rdata(&q, 1),
	   "txn: monitor W_N 9, untrusted write of the fence register");
	ok_eq(stopped(&fb), 0, "no RAZWI");

	/* The range registers and protection bits guard themselves. */
	c = cb_at(&fb, UHOST_BUS + 0x5000);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSIF_RTR_0_BASE + RTR_LBW_HIT_AW, 0);
	q_submit_dev(&q, USER_VA + 0x5000, c.len);
	q_restart(&q);
	c = cb_at(&fb, UHOST_BUS + 0x6000);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmDMA_IF_W_S_BASE + GAUDI_DMA_IF_STRIDE +
		    0x704, 0);
	q_submit_dev(&q, USER_VA + 0x6000, c.len);
	q_restart(&q);
	c = cb_at(&fb, UHOST_BUS + 0x7000);
	cb_msg_long(&c, GAUDI_CFG_BASE + core2 + PROT_BITS_OFFS + 4, ~0U);
	q_submit_dev(&q, USER_VA + 0x7000, c.len);
	q_restart(&q);
	ok(gaudi_cfg_read(g, mmSIF_RTR_0_BASE + RTR_LBW_HIT_AW) == 0x3FF &&
	   gaudi_cfg_read(g, mmDMA_IF_W_S_BASE + GAUDI_DMA_IF_STRIDE + 0x704) ==
	   0x3FF && gaudi_cfg_read(g, core2 + PROT_BITS_OFFS + 4) != ~0U,
	   "range registers and protection bits cannot be rewritten");
	ok_eq(stopped(&fb), 3, "three RAZWIs");

	/* Host MMIO is trusted: the driver may write anything. */
	gaudi_cfg_write(g, core2 + DMA_CORE_PROT, 3);
	ok_eq(gaudi_cfg_read(g, core2 + DMA_CORE_PROT), 3,
	      "host MMIO bypasses the protection bits");
	gaudi_cfg_write(g, core2 + DMA_CORE_PROT, 2);
	ok_eq(violations, 0, "oracle: no access outside the user's ranges");
	ok(canaries_intact(&fb), "canaries intact");
	fakebus_free(&fb);
}

/* A secure DMA (upstream's own jobs on DMA 0) bypasses MMU and RRs. */
static void test_secure_dma(void)
{
	struct fakebus fb;
	struct gaudi_core *g = protected_card(&fb);
	struct queue q = q_setup(&fb, 0, KPQ_BUS, 4);		/* DMA0 */
	uint32_t core0 = mmDMA0_CORE_BASE;
	struct cb c;

	g->bus.txn = NULL;	/* the kernel's own traffic */
	gaudi_cfg_write(g, core0 + DMA_CORE_PROT, 3);
	c = cb_at(&fb, KCB_BUS);
	cb_lin_dma(&c, fake_host_dev(CANARY_BUS), 0x2000, 4, 0);
	cb_msg_prot(&c, fake_host_dev(CANARY_BUS + 8), 0xD0E);
	q_submit(&q, &c);
	ok_eq(*(uint32_t *)(fb.hbm + 0x2000), CANARY,
	      "secure DMA: host physical to kernel DRAM");
	ok_eq(host_u32(&fb, CANARY_BUS + 8), 0xD0E,
	      "MSG_PROT of a trusted CP writes host memory");
	ok_eq(stopped(&fb), 0, "no RAZWI, no fault");
	gaudi_cfg_write(g, core0 + DMA_CORE_PROT, 2);
	fakebus_free(&fb);
}

/* --- classes 1-3 with the parser bypassed ------------------------------- */

/* Queue under attack: its DMA channel, and where its CBs live. */
struct target {
	const char *name;
	unsigned int qid, dma;
	bool external;	/* CBs in kernel memory, CP trusted */
};

/* Build an attack CB at slot n; returns its device address. */
static struct cb attack_cb(struct fakebus *fb, const struct target *t,
			   unsigned int n)
{
	return cb_at(fb, (t->external ? KCB_BUS : UHOST_BUS + 0x10000) +
		     0x1000 * n);
}

static void run(struct fakebus *fb, struct queue *q, const struct target *t,
		struct cb *c)
{
	uint64_t dev = t->external ? cb_dev(c) :
		       USER_VA + (c->bus - UHOST_BUS);

	q_submit_dev(q, dev, c->len);
	q_restart(q);
	gaudi_cfg_write(fb->g, mmDMA0_CORE_BASE + t->dma *
			GAUDI_DMA_STRIDE + DMA_CORE_ERR_CAUSE, 0xFF);
	gaudi_cfg_write(fb->g, mmMMU_UP_RAZWI_WRITE_VLD, 0);
	gaudi_cfg_write(fb->g, mmMMU_UP_RAZWI_READ_VLD, 0);
	gaudi_cfg_write(fb->g, mmMMU_UP_PAGE_ERROR_CAPTURE, 0);
}

static void test_classes(const struct target *t)
{
	struct fakebus fb;
	struct gaudi_core *g = protected_card(&fb);
	struct queue q = q_setup(&fb, t->qid, KPQ_BUS + 0x10000 * t->dma, 4);
	uint32_t core = mmDMA0_CORE_BASE + t->dma * GAUDI_DMA_STRIDE;
	uint32_t qm = core + DMA_QM_OFFSET;
	uint64_t canary = fake_host_dev(CANARY_BUS);
	uint32_t prot = gaudi_cfg_read(g, qm + QM_GLBL_PROT);
	unsigned int n = 0, ev;
	struct cb c;

	/* Class 1: WREG_32 steers the queue's own DMA core. */
	c = attack_cb(&fb, t, n++);
	cb_wreg32(&c, DMA_CORE_SRC_BASE_LO, (uint32_t)canary);
	cb_wreg32(&c, DMA_CORE_SRC_BASE_HI, canary >> 32);
	cb_wreg32(&c, DMA_CORE_DST_BASE_LO, (uint32_t)USER_DRAM);
	cb_wreg32(&c, DMA_CORE_DST_BASE_HI, 0);
	cb_wreg32(&c, DMA_CORE_DST_TSIZE_0, 4);
	cb_wreg32(&c, DMA_CORE_COMMIT, DMA_COMMIT_LIN);
	run(&fb, &q, t, &c);
	ev = stopped(&fb);
	ok(ev >= 1, "%s class 1: DMA core reading host physical memory faults",
	   t->name);
	ok(*(uint32_t *)(fb.hbm + USER_DRAM) != CANARY, "%s: nothing copied",
	   t->name);

	c = attack_cb(&fb, t, n++);
	cb_wreg32(&c, DMA_CORE_SRC_BASE_LO, (uint32_t)USER_DRAM);
	cb_wreg32(&c, DMA_CORE_SRC_BASE_HI, 0);
	cb_wreg32(&c, DMA_CORE_DST_BASE_LO, KDRAM_CANARY);
	cb_wreg32(&c, DMA_CORE_DST_BASE_HI, 0);
	cb_wreg32(&c, DMA_CORE_DST_TSIZE_0, 4);
	cb_wreg32(&c, DMA_CORE_COMMIT, DMA_COMMIT_LIN);
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1, "%s class 1: DMA into kernel DRAM is a RAZWI",
	   t->name);

	c = attack_cb(&fb, t, n++);
	cb_wreg32(&c, DMA_CORE_PROT, 1);
	cb_wreg32(&c, DMA_CORE_NON_SECURE_PROPS, 0);
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_LO, (uint32_t)canary);
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_HI, canary >> 32);
	run(&fb, &q, t, &c);
	ok_eq(gaudi_cfg_read(g, core + DMA_CORE_PROT), 2,
	      "%s class 1: the core cannot be made secure", t->name);
	ok(stopped(&fb) >= 1, "%s: RAZWI posted", t->name);
	c = attack_cb(&fb, t, n++);
	cb_wreg32(&c, DMA_CORE_NON_SECURE_PROPS, 0);
	cb_wreg32(&c, DMA_QM_OFFSET + QM_GLBL_PROT, 0x3FFF);
	cb_wreg32(&c, DMA_QM_OFFSET + QM_PQ_BASE_LO(0), 0);
	run(&fb, &q, t, &c);
	ok(gaudi_cfg_read(g, core + DMA_CORE_NON_SECURE_PROPS) == USER_ASID &&
	   gaudi_cfg_read(g, qm + QM_GLBL_PROT) == prot,
	   "%s class 1: ASID and GLBL_PROT stay", t->name);

	/* Class 2: REPEAT into the words of a zero-size LIN_DMA. */
	c = attack_cb(&fb, t, n++);
	cb_repeat(&c, 1, 16);
	cb_hdr(&c, 0x9, 0, 1U << 3);		/* LIN_DMA, size 0 */
	cb_hdr(&c, 0x3, 0xBAD, 1U << 31);	/* hidden MSG_LONG */
	cb_u64(&c, canary);
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1,
	   "%s class 2: a hidden MSG_LONG to host memory faults", t->name);

	c = attack_cb(&fb, t, n++);
	cb_repeat(&c, 1, 16);
	cb_hdr(&c, 0x9, 0, 1U << 3);
	cb_wreg32(&c, DMA_QM_OFFSET + QM_GLBL_PROT, 0x3FFF);
	cb_nop(&c);
	run(&fb, &q, t, &c);
	ok_eq(gaudi_cfg_read(g, qm + QM_GLBL_PROT), prot,
	      "%s class 2: a hidden WREG_32 to GLBL_PROT is dropped", t->name);
	ok(stopped(&fb) >= 1, "%s: RAZWI posted", t->name);

	c = attack_cb(&fb, t, n++);
	cb_repeat(&c, 1, 16);
	cb_hdr(&c, 0x9, 0, 1U << 3);
	cb_lin_dma(&c, USER_DRAM, KDRAM_CANARY, 4, 0);	/* hidden LIN_DMA */
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1,
	   "%s class 2: a hidden LIN_DMA into kernel DRAM is a RAZWI", t->name);

	/* Class 3: write completion and non-linear transfers. */
	c = attack_cb(&fb, t, n++);
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_LO, (uint32_t)canary);
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_HI, canary >> 32);
	cb_wreg32(&c, DMA_CORE_WR_COMP_WDATA, 0xBAD);
	cb_hdr(&c, 0x9, 8, 1U << 3 | DMA_COMMIT_WR_COMP_EN);
	cb_u64(&c, USER_DRAM);
	cb_u64(&c, USER_DRAM + 0x100);
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1,
	   "%s class 3: write completion to host memory faults", t->name);

	c = attack_cb(&fb, t, n++);
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_LO,
		  (uint32_t)(GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12));
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_HI,
		  (GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12) >> 32);
	cb_hdr(&c, 0x9, 8, 1U << 3 | DMA_COMMIT_WR_COMP_EN);
	cb_u64(&c, USER_DRAM);
	cb_u64(&c, USER_DRAM + 0x100);
	cb_hdr(&c, 0x9, 0x1000, 0);		/* non-linear */
	cb_u64(&c, canary);
	cb_u64(&c, USER_DRAM);
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1,
	   "%s class 3: write completion to an MMU register is a RAZWI",
	   t->name);

	/* A user monitor's payload: LBW only, checked like the CP's. */
	c = attack_cb(&fb, t, n++);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 +
		    SM_MON_PAY_ADDRL(0), (uint32_t)canary);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 +
		    SM_MON_PAY_ADDRH(0), canary >> 32);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 +
		    SM_MON_ARM(0), 0xFE00);		/* fires at once */
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 +
		    SM_MON_PAY_ADDRL(0) + 4, (uint32_t)(GAUDI_CFG_BASE + qm +
						      QM_GLBL_PROT));
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 +
		    SM_MON_PAY_ADDRH(0) + 4, (GAUDI_CFG_BASE + qm) >> 32);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 +
		    SM_MON_PAY_DATA(0) + 4, 0x3FFF);
	cb_msg_long(&c, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 +
		    SM_MON_ARM(0) + 4, 0xFE00);
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 2 && gaudi_cfg_read(g, qm + QM_GLBL_PROT) == prot,
	   "%s: monitor payloads to host memory and GLBL_PROT are RAZWIs",
	   t->name);

	/* CP_DMA: the nested CB runs on the (untrusted) lower CP. */
	c = attack_cb(&fb, t, n++);
	{
		struct cb sub = cb_at(&fb, UHOST_BUS + 0x8000);

		cb_msg_prot(&sub, canary, 0xBAD);
		cb_cp_dma(&c, USER_VA + 0x8000, sub.len);
	}
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1,
	   "%s: MSG_PROT in a CP_DMA buffer is untrusted: faults", t->name);

	/* LOAD_AND_EXE: a MSG_LONG loaded into the scalars and executed. */
	c = attack_cb(&fb, t, n++);
	{
		struct cb sc = cb_at(&fb, UHOST_BUS + 0x9000);

		cb_msg_long(&sc, canary, 0xBAD);
		cb_hdr(&c, 0xF, PKT_LOAD_AND_EXE_LOAD | PKT_LOAD_AND_EXE_DST |
		       PKT_LOAD_AND_EXE_EXE, 1U << 30);
		cb_u64(&c, USER_VA + 0x9000);
	}
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1,
	   "%s: a MSG_LONG executed from the scalars is untrusted: faults",
	   t->name);

	ok_eq(violations, 0, "%s: oracle: %u accesses (%u blocked), none outside the user's ranges",
	      t->name, txns, blocked);
	ok(canaries_intact(&fb), "%s: host and kernel DRAM canaries intact",
	   t->name);
	fakebus_free(&fb);
}

/* Program a non-linear shape on one side of the core (WREG_32). */
static void cb_shape(struct cb *c, bool dst, const uint32_t size[5],
		     const uint32_t stride[5])
{
	unsigned int k;

	cb_wreg32(c, dst ? DMA_CORE_DST_TSIZE_0 : DMA_CORE_SRC_TSIZE_0,
		  size[0]);
	for (k = 1; k < 5; k++) {
		cb_wreg32(c, dst ? DMA_CORE_DST_TSIZE(k) : DMA_CORE_SRC_TSIZE(k),
			  size[k]);
		cb_wreg32(c, dst ? DMA_CORE_DST_STRIDE(k) :
			  DMA_CORE_SRC_STRIDE(k), stride[k]);
	}
}

static void cb_core_bases(struct cb *c, uint64_t src, uint64_t dst)
{
	cb_wreg32(c, DMA_CORE_SRC_BASE_LO, (uint32_t)src);
	cb_wreg32(c, DMA_CORE_SRC_BASE_HI, src >> 32);
	cb_wreg32(c, DMA_CORE_DST_BASE_LO, (uint32_t)dst);
	cb_wreg32(c, DMA_CORE_DST_BASE_HI, dst >> 32);
}

/*
 * Strided DMA through the core's registers from a user CB (issue 23), as
 * hl-thunk-open's test_strided_dma programs it: one source row read
 * ROWS times (source stride 0) and scattered at a destination stride,
 * a direct COMMIT (LIN clear) with a write completion that adds 1 to a
 * SOB.  All of it in the user's ASID through the MMU.  Then the hostile
 * twins: a footprint whose last row leaves the mapping (faults at that
 * row, nothing written past the mapping), and a transpose (not
 * modelled: fails, nothing written).
 */
static void test_strided_user(const struct target *t)
{
	enum { ROW = 1500, ROWS = 6, DSTRIDE = 4096 };
	struct fakebus fb;
	struct gaudi_core *g = protected_card(&fb);
	struct queue q = q_setup(&fb, t->qid, KPQ_BUS + 0x10000 * t->dma, 4);
	uint32_t core = mmDMA0_CORE_BASE + t->dma * GAUDI_DMA_STRIDE;
	uint64_t sob = GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * 7;
	uint32_t ssz[5] = { ROW, ROWS, 1, 1, 1 }, sst[5] = { 0, 0, ROW, ROW, ROW };
	uint32_t dsz[5] = { ROW, ROWS, 1, 1, 1 };
	uint32_t dst_[5] = { 0, DSTRIDE, ROW, ROW, ROW };
	uint8_t *src = fb.host + UHOST_BUS + 0x20000;
	uint8_t *dst = fb.host + UHOST_BUS + 0x40000;
	unsigned int i, r, bad = 0, gap = 0;
	struct cb c;

	for (i = 0; i < ROW; i++)
		src[i] = (uint8_t)(i * 13 + 5);
	memset(dst, 0xFF, ROWS * DSTRIDE);
	gaudi_cfg_write(g, mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * 7, 0);
	c = attack_cb(&fb, t, 0);
	cb_core_bases(&c, USER_VA + 0x20000, USER_VA + 0x40000);
	cb_shape(&c, false, ssz, sst);
	cb_shape(&c, true, dsz, dst_);
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_LO, (uint32_t)sob);
	cb_wreg32(&c, DMA_CORE_WR_COMP_ADDR_HI, sob >> 32);
	cb_wreg32(&c, DMA_CORE_WR_COMP_WDATA, SM_SOB_INC | 1);
	cb_wreg32(&c, DMA_CORE_COMMIT, DMA_COMMIT_WR_COMP_EN);
	run(&fb, &q, t, &c);
	for (r = 0; r < ROWS; r++) {
		bad += !!memcmp(dst + r * DSTRIDE, src, ROW);
		for (i = ROW; i < DSTRIDE; i++)
			gap += dst[r * DSTRIDE + i] != 0xFF;
	}
	ok(bad == 0 && gap == 0,
	   "%s: strided DMA from a user CB: %u rows of one source row, gaps untouched",
	   t->name, ROWS);
	ok_eq(gaudi_cfg_read(g, mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * 7), 1,
	      "%s: its write completion added 1 to the SOB", t->name);
	ok_eq(stopped(&fb), 0, "%s: no RAZWI, no fault", t->name);

	/* The footprint leaves the mapping at its fourth row. */
	memset(fb.host + UHOST_BUS + UHOST_SIZE, 0x5A, 4 * DSTRIDE);
	c = attack_cb(&fb, t, 1);
	cb_core_bases(&c, USER_VA + 0x20000,
		      USER_VA + UHOST_SIZE - 3 * DSTRIDE);
	cb_shape(&c, false, ssz, sst);
	cb_shape(&c, true, dsz, dst_);
	cb_wreg32(&c, DMA_CORE_COMMIT, 0);
	run(&fb, &q, t, &c);
	ok(stopped(&fb) >= 1, "%s: a strided footprint past the mapping faults",
	   t->name);
	for (i = 0, gap = 0; i < 4 * DSTRIDE; i++)
		gap += fb.host[UHOST_BUS + UHOST_SIZE + i] != 0x5A;
	ok_eq(gap, 0, "%s: nothing written past the mapping", t->name);
	ok(!memcmp(fb.host + UHOST_BUS + UHOST_SIZE - DSTRIDE, src, ROW),
	   "%s: the rows inside it were written before the fault", t->name);

	/* Transpose is not modelled: the transfer fails, nothing moves. */
	memset(dst, 0xFF, ROWS * DSTRIDE);
	c = attack_cb(&fb, t, 2);
	cb_core_bases(&c, USER_VA + 0x20000, USER_VA + 0x40000);
	cb_shape(&c, false, ssz, sst);
	cb_shape(&c, true, dsz, dst_);
	cb_wreg32(&c, DMA_CORE_COMMIT, DMA_COMMIT_TRANSPOSE);
	q_submit_dev(&q, t->external ? cb_dev(&c) :
		     USER_VA + (c.bus - UHOST_BUS), c.len);
	ok(gaudi_cfg_read(g, core + DMA_CORE_ERR_CAUSE) & DMA_ERR_HBW_RD,
	   "%s: a transpose transfer fails (ERR_CAUSE)", t->name);
	for (i = 0, gap = 0; i < ROWS * DSTRIDE; i++)
		gap += dst[i] != 0xFF;
	ok_eq(gap, 0, "%s: and writes nothing", t->name);
	q_restart(&q);

	ok_eq(violations, 0, "%s: strided oracle: %u accesses (%u blocked), none outside the user's ranges",
	      t->name, txns, blocked);
	ok(canaries_intact(&fb), "%s: canaries intact", t->name);
	fakebus_free(&fb);
}

/*
 * The model's RoCE counter window (hw/gaudi1/nic.h ROCE_CNT_*, in the
 * QPC block): the LBW range registers close it to user engines.
 */
static void test_roce_counters(void)
{
	struct fakebus fb;
	struct gaudi_core *g = protected_card(&fb);
	struct queue q = q_setup(&fb, 9, KPQ_BUS + 0x10000, 4);	/* DMA2 */
	uint32_t core2 = mmDMA0_CORE_BASE + 2 * GAUDI_DMA_STRIDE;
	uint32_t lo = GAUDI_NIC_QPC_REG(9, NIC_QPC_ROCE_CNT_LO(0));
	struct cb c;
	uint32_t v;

	g->nic.roce.cnt[9][ROCE_CNT_TX_PKTS] = 0x1234;
	gaudi_cfg_write(g, mmPB_RAZWI_RDATA_CFG, 1);
	c = cb_at(&fb, UHOST_BUS);
	cb_lin_dma(&c, GAUDI_CFG_BASE + lo, USER_DRAM + 0x400, 8, 0);
	q_submit_dev(&q, USER_VA, c.len);
	memcpy(&v, fb.hbm + USER_DRAM + 0x400, 4);
	ok(v != 0x1234, "a user DMA cannot read a RoCE counter (0x%x)", v);
	ok(stopped(&fb) >= 1, "RAZWI posted for the read");
	q_restart(&q);
	gaudi_cfg_write(g, core2 + DMA_CORE_ERR_CAUSE, 0xFF);
	c = cb_at(&fb, UHOST_BUS + 0x1000);
	cb_msg_long(&c, GAUDI_CFG_BASE + lo, 0);
	q_submit_dev(&q, USER_VA + 0x1000, c.len);
	q_restart(&q);
	ok(stopped(&fb) >= 1 && gaudi_cfg_read(g, lo) == 0x1234,
	   "a user MSG_LONG to it is a RAZWI");
	ok_eq(violations, 0, "oracle: no access outside the user's ranges");
	fakebus_free(&fb);
}

int main(void)
{
	static const struct target internal = { "internal DMA2", 9, 2, false };
	static const struct target external = { "external DMA0", 0, 0, true };

	test_pb_words();
	test_mechanisms();
	test_secure_dma();
	test_classes(&internal);
	test_classes(&external);
	test_strided_user(&internal);
	test_strided_user(&external);
	test_roce_counters();
	return tap_done();
}
