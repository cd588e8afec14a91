// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The isolation harness's stand-in for gaudi.ko's set-up of a card (see
 * iso_driver.h).  Register values follow the driver; where the driver's
 * own code can be built on the host (the protection tables), it is used
 * as is, so that the harness checks what gaudi.ko really programs.
 */
#include <string.h>

#include "iso_driver.h"
#include "../emulator/cbgen.h"

/* The queue map of the model's unit tests (tests/emulator/cbgen.h). */
uint32_t iso_qid_base(unsigned int qid)
{
	return qid_base(qid);
}

unsigned int iso_qid_stream(unsigned int qid)
{
	return qid_stream(qid);
}

static void wr(struct gaudi_core *g, uint32_t off, uint32_t v)
{
	gaudi_cfg_write(g, off, v);
}

void iso_driver_mmu(struct gaudi_core *g, uint32_t asid, uint64_t hop0)
{
	wr(g, mmMMU_UP_MMU_ASID, asid);
	wr(g, mmMMU_UP_MMU_HOP0_PA43_12, (uint32_t)(hop0 >> 12));
	wr(g, mmMMU_UP_MMU_HOP0_PA49_44, (uint32_t)(hop0 >> 44));
	wr(g, mmMMU_UP_MMU_BUSY, 0x80000000);
}

/* MSG_SHORT bases as gaudi_queue.c programs them. */
static const uint32_t msg_base[4] = {
	mmSYNC_MNGR_E_N_SOB_OBJ_0 + SM_MON_PAY_ADDRL(0),
	mmSYNC_MNGR_E_N_SOB_OBJ_0,
	mmSYNC_MNGR_W_S_SOB_OBJ_0 + SM_MON_PAY_ADDRL(0),
	mmSYNC_MNGR_W_S_SOB_OBJ_0,
};

static void queue_program(struct gaudi_core *g, unsigned int qid)
{
	uint32_t b = iso_qid_base(qid), s = iso_qid_stream(qid);
	unsigned int i;

	for (i = 0; i < 4; i++) {
		uint64_t a = GAUDI_CFG_BASE + msg_base[i];

		wr(g, b + QM_CP_MSG_BASE_LO(0, 0) +
		   i * QM_CP_MSG_BASE_STRIDE + 4 * s, (uint32_t)a);
		wr(g, b + QM_CP_MSG_BASE_HI(0, 0) +
		   i * QM_CP_MSG_BASE_STRIDE + 4 * s, (uint32_t)(a >> 32));
	}
	wr(g, b + QM_GLBL_NON_SECURE_PROPS(0) + 4 * s, 1);
	wr(g, b + QM_GLBL_SECURE_PROPS(0) + 4 * s, 0);
}

void iso_driver_init(struct gaudi_core *g)
{
	unsigned int qid, i;

	for (i = 0; i < 8; i++) {
		uint32_t core = mmDMA0_CORE_BASE + i * GAUDI_DMA_STRIDE;

		wr(g, core + DMA_CORE_PROT, 0);
		wr(g, core + DMA_CORE_NON_SECURE_PROPS, 1);
		wr(g, core + DMA_CORE_SECURE_PROPS, 0);
	}
	for (qid = 0; qid < ISO_NUM_QIDS; qid++)
		if (qid != 8)
			queue_program(g, qid);
	/* The NIC's context tables and error FIFO (gaudi_roce_hw_init()). */
	for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
		uint64_t req = ISO_NIC_HBM(i), res = req + 0x80000,
			 fifo = req + 0xF0000;

		wr(g, GAUDI_NIC_QPC_REG(i, NIC_QPC_REQ_BASE_ADDRESS_49_18),
		   (uint32_t)(req >> 18));
		wr(g, GAUDI_NIC_QPC_REG(i, NIC_QPC_REQ_BASE_ADDRESS_17_7),
		   (uint32_t)(req >> 7) & 0x7FF);
		wr(g, GAUDI_NIC_QPC_REG(i, NIC_QPC_RES_BASE_ADDRESS_49_18),
		   (uint32_t)(res >> 18));
		wr(g, GAUDI_NIC_QPC_REG(i, NIC_QPC_RES_BASE_ADDRESS_17_7),
		   (uint32_t)(res >> 7) & 0x7FF);
		wr(g, GAUDI_NIC_QPC_REG(i, NIC_QPC_ERR_FIFO_BASE_ADDR_49_18),
		   (uint32_t)(fifo >> 18));
		wr(g, GAUDI_NIC_QPC_REG(i, NIC_QPC_ERR_FIFO_BASE_ADDR_17_7),
		   (uint32_t)fifo & 0x3FF80);
		wr(g, GAUDI_NIC_QPC_REG(i, NIC_QPC_ERR_FIFO_MASK), 63);
	}
	iso_driver_protection(g);
	for (qid = 0; qid < ISO_NUM_QIDS; qid++) {
		uint32_t b = iso_qid_base(qid);

		if (qid == 8 || iso_qid_stream(qid) != 3)
			continue;
		wr(g, b + QM_GLBL_CFG1, 0);
		wr(g, b + QM_GLBL_PROT, iso_glbl_prot(qid < 8));
		wr(g, b + QM_GLBL_CFG0, 0x3FFF);
	}
}

uint32_t iso_driver_completion(uint8_t *p, uint64_t done_dev, uint64_t cq_dev)
{
	uint32_t w[12] = {
		1,				/* done word: the next PI */
		7U << 24 | 1U << 29 | 1U << 31,	/* MSG_PROT, EB, MB */
		(uint32_t)done_dev, (uint32_t)(done_dev >> 32),
		1U << 31 | 1U << 30,		/* CQ entry: READY, SHADOW_VALID */
		7U << 24 | 1U << 29 | 1U << 31,	/* MSG_PROT, EB, MB */
		(uint32_t)cq_dev, (uint32_t)(cq_dev >> 32),
		1,
		7U << 24 | 1U << 31,		/* MSG_PROT, MB */
		(uint32_t)(GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ),
		(uint32_t)((GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ) >> 32),
	};

	memcpy(p, w, sizeof(w));
	return sizeof(w);
}

void iso_driver_submit(struct fakebus *fb, unsigned int qid, uint64_t pq_bus,
		       uint32_t log2, uint64_t kcb_dev, uint32_t len)
{
	uint32_t b = iso_qid_base(qid), s = iso_qid_stream(qid), ctl = 0;
	uint64_t pq = GAUDI_HOST_PHYS_BASE + pq_bus;
	uint8_t *bd = fb->host + pq_bus;
	struct gaudi_core *g = fb->g;

	wr(g, b + QM_PQ_BASE_LO(0) + 4 * s, (uint32_t)pq);
	wr(g, b + QM_PQ_BASE_HI(0) + 4 * s, (uint32_t)(pq >> 32));
	wr(g, b + QM_PQ_SIZE(0) + 4 * s, log2);
	wr(g, b + QM_PQ_PI(0) + 4 * s, 0);
	wr(g, b + QM_PQ_CI(0) + 4 * s, 0);
	memcpy(bd, &kcb_dev, 8);
	memcpy(bd + 8, &len, 4);
	memcpy(bd + 12, &ctl, 4);
	wr(g, b + QM_PQ_PI(0) + 4 * s, 1);
}

void iso_driver_settle(struct fakebus *fb)
{
	(void)fb;
}
