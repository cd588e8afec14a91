// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host DMA the bus refuses (an IOMMU without a mapping for the address:
 * QEMU's pci_dma_read/write fail, gaudi_bus_dma_read/write return -1) is
 * reported, never silent: the DMA core's ERR_CAUSE, its DMAn_CORE event on
 * the event queue, the queue that drove it stopped with an error, and for
 * a CB fetch the CP read error.  (Run to completion; the asynchronous
 * mode ends a failed transfer through the same dma_fail().)
 */
#include <string.h>

#include "fwboot.h"
#include "cbgen.h"
#include "tap.h"

#define PQ_BUS		0x2000000ULL
#define CB_BUS		0x2100000ULL
#define DATA_BUS	0x2200000ULL
#define DENY_BUS	0x3000000ULL	/* 1 MiB the "IOMMU" refuses */
#define DENY_LEN	0x100000ULL

/* Number of EQ entries of event type @type in the 64-entry ring. */
static unsigned int eq_count(struct fakebus *fb, unsigned int type)
{
	unsigned int i, n = 0;
	uint32_t ctl;

	for (i = 0; i < 64; i++) {
		memcpy(&ctl, fb->host + H_EQ + 64 * i + 4, 4);
		n += (ctl & 0x80000000U) && (ctl >> 16 & 0x3FF) == type;
	}
	return n;
}

static uint32_t err_cause(struct gaudi_core *g, unsigned int n)
{
	return gaudi_cfg_read(g, mmDMA0_CORE_BASE + n * GAUDI_DMA_STRIDE +
			      DMA_CORE_ERR_CAUSE);
}

static void clear_err(struct gaudi_core *g, unsigned int n)
{
	gaudi_cfg_write(g, mmDMA0_CORE_BASE + n * GAUDI_DMA_STRIDE +
			DMA_CORE_ERR_CAUSE, 0xF);
}

static void test_lin_dma(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	struct queue q = q_setup(&fb, 0, PQ_BUS, 8);
	unsigned int errors = g->qm.errors;
	struct cb c;
	fb.deny_lo = DENY_BUS;
	fb.deny_hi = DENY_BUS + DENY_LEN;
	memset(fb.sram + 0x1000, 0xAB, 0x1000);

	/* Read from a refused host address into SRAM. */
	c = cb_at(&fb, CB_BUS);
	cb_lin_dma(&c, fake_host_dev(DENY_BUS + 0x800), GAUDI_SRAM_BASE + 0x1000,
		   0x1000, 0);
	q_submit(&q, &c);
	ok(fb.denied > 0, "the bus refused the read");
	ok(err_cause(g, 0) & DMA_ERR_HBW_RD, "DMA0 ERR_CAUSE shows HBW_RD");
	ok_eq(eq_count(&fb, GAUDI_EVENT_DMA0_CORE), 1,
	      "one DMA0_CORE event on the event queue");
	ok(g->qm.errors == errors + 1, "the queue stopped with an error");
	clear_err(g, 0);
	q_restart(&q);

	/* Write from SRAM into a refused host address. */
	c = cb_at(&fb, CB_BUS + 0x1000);
	cb_lin_dma(&c, GAUDI_SRAM_BASE + 0x1000, fake_host_dev(DENY_BUS),
		   0x2000, 0);
	q_submit(&q, &c);
	ok(err_cause(g, 0) & DMA_ERR_HBW_WR, "DMA0 ERR_CAUSE shows HBW_WR");
	ok_eq(eq_count(&fb, GAUDI_EVENT_DMA0_CORE), 2,
	      "a second DMA0_CORE event");
	ok(g->qm.errors == errors + 2, "the queue stopped again");
	clear_err(g, 0);
	q_restart(&q);

	/* A copy that ends in the refused range fails part way. */
	c = cb_at(&fb, CB_BUS + 0x2000);
	cb_lin_dma(&c, GAUDI_SRAM_BASE, fake_host_dev(DENY_BUS - 0x1000),
		   0x3000, 0);
	q_submit(&q, &c);
	ok(err_cause(g, 0) & DMA_ERR_HBW_WR,
	   "a transfer running into the refused range fails");
	clear_err(g, 0);
	q_restart(&q);

	/* The same queue still works once the addresses are mapped. */
	fb.deny_hi = 0;
	c = cb_at(&fb, CB_BUS + 0x3000);
	cb_lin_dma(&c, GAUDI_SRAM_BASE + 0x1000, fake_host_dev(DATA_BUS), 16, 0);
	q_submit(&q, &c);
	ok(err_cause(g, 0) == 0 && fb.host[DATA_BUS] == fb.sram[0x1000] &&
	   g->qm.errors == errors + 3,
	   "a mapped transfer on the same queue succeeds");
	fakebus_free(&fb);
}

/* Direct COMMIT: write completion into a refused address; CB fetch. */
static void test_completion_and_fetch(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint32_t core = mmDMA0_CORE_BASE + 5 * GAUDI_DMA_STRIDE;
	uint64_t comp = fake_host_dev(DENY_BUS + 0x40);
	struct queue q;

	fb.deny_lo = DENY_BUS;
	fb.deny_hi = DENY_BUS + DENY_LEN;
	gaudi_cfg_write(g, core + DMA_CORE_SRC_BASE_LO,
			(uint32_t)GAUDI_SRAM_BASE);
	gaudi_cfg_write(g, core + DMA_CORE_SRC_BASE_HI, GAUDI_SRAM_BASE >> 32);
	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_LO, 0x30000000);
	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_HI, 0);
	gaudi_cfg_write(g, core + DMA_CORE_DST_TSIZE_0, 256);
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_WDATA, 0x600D);
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_ADDR_LO, (uint32_t)comp);
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_ADDR_HI, comp >> 32);
	gaudi_cfg_write(g, core + DMA_CORE_COMMIT,
			DMA_COMMIT_LIN | DMA_COMMIT_WR_COMP_EN);
	ok(err_cause(g, 5) & DMA_ERR_LBW_WR,
	   "a refused write completion sets LBW_WR in ERR_CAUSE");
	ok_eq(eq_count(&fb, GAUDI_EVENT_DMA0_CORE + 5), 1,
	      "and posts the DMA5_CORE event");
	ok(!(gaudi_cfg_read(g, core + DMA_CORE_STS0) & DMA_CORE_STS0_BUSY),
	   "the core is idle after it");

	/* The CP fetching a CB from a refused address. */
	q = q_setup(&fb, 1, PQ_BUS, 8);
	q_submit_dev(&q, fake_host_dev(DENY_BUS), 64);
	ok(q_sts1(&q) & QM_STS1_CP_RD_ERR,
	   "a CB fetch the bus refuses is a CP read error");
	fakebus_free(&fb);
}

int main(void)
{
	test_lin_dma();
	test_completion_and_fetch();
	return tap_done();
}
