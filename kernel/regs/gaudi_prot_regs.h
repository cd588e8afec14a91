/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Gaudi 1 hardware protection registers used by gaudi.ko (CFG offsets).
 *
 * Facts from the public upstream headers and driver (drivers/accel/
 * habanalabs): include/gaudi/gaudi.h (PROT_BITS_OFFS), gaudi_masks.h
 * (QMAN_{EXTERNAL,INTERNAL}_MAKE_TRUSTED, RAZWI initiator id),
 * asic_reg/dma0_qm_masks.h (GLBL_PROT), asic_reg/mmu_up_regs.h,
 * asic_reg/dma_if_*_regs.h, sif_rtr_ctrl_*_regs.h and gaudi_regs.h (range
 * registers), gaudi/gaudi_security.c (which registers are protected).
 * See Documentation/emulator/protection.rst.
 */
#ifndef GAUDI_PROT_REGS_H
#define GAUDI_PROT_REGS_H

#include <linux/bits.h>

/* Protection bits: the last 128 bytes of each 4 KiB block. */
#define GAUDI_PB_OFFSET			0xF80
#define GAUDI_PB_WORDS			32

/* QMAN GLBL_PROT parts: 1 = trusted (secure). */
#define QM_GLBL_PROT_PQF		GENMASK(3, 0)
#define QM_GLBL_PROT_CQF		GENMASK(8, 4)
#define QM_GLBL_PROT_CP			GENMASK(13, 9)
#define QM_GLBL_PROT_ERR		BIT(14)
/* PCI DMA (external) QMANs: PQ, CQ and the four upper CPs trusted. */
#define QM_PROT_EXTERNAL		(FIELD_PREP(QM_GLBL_PROT_PQF, 0xF) | \
					 FIELD_PREP(QM_GLBL_PROT_CQF, 0xF) | \
					 FIELD_PREP(QM_GLBL_PROT_CP, 0xF) | \
					 QM_GLBL_PROT_ERR)
/* Every other QMAN: only the PQ fetcher trusted. */
#define QM_PROT_INTERNAL		(FIELD_PREP(QM_GLBL_PROT_PQF, 0xF) | \
					 QM_GLBL_PROT_ERR)

/* DMA core PROT: bit 0 secure transfer, bit 1 secure error reports. */
#define DMA_CORE_PROT_VAL		BIT(0)
#define DMA_CORE_PROT_ERR_VAL		BIT(1)

/* MMU and RAZWI capture (MMU_UP block). */
#define mmMMU_UP_MMU_ENABLE		0xC1100C
#define mmMMU_UP_RAZWI_WRITE_ID		0xC11060
#define mmMMU_UP_RAZWI_READ_ID		0xC11068
#define RAZWI_ID_AXI			GENMASK(23, 20)
#define RAZWI_ID_X			GENMASK(27, 24)
#define RAZWI_ID_Y			GENMASK(30, 28)
/* 1: a protection-bit RAZWI read returns 0xBABA0BAD (range ones 0). */
#define mmPB_RAZWI_RDATA_CFG		0xC01B28

/*
 * LBW range registers, 16 ranges per set, exclusive MIN/MAX CFG offsets:
 * DMA_IF W_S, E_S, W_N, E_N (0x480000 + k * 0x20000) with three masters
 * each (the sync manager's SOB port, DMA0, DMA1), and the 16 SIF/NIF
 * routers (0x300000 + n * 0x10000).
 */
#define mmDMA_IF_W_S_BASE		0x480000
#define GAUDI_DMA_IF_STRIDE		0x20000
#define GAUDI_DMA_IF_NUM		4
#define DMA_IF_LBW_MIN_AR(m)		(0x100 + 0x200 * (m))
#define DMA_IF_LBW_MAX_AR(m)		(0x140 + 0x200 * (m))
#define DMA_IF_LBW_MIN_AW(m)		(0x180 + 0x200 * (m))
#define DMA_IF_LBW_MAX_AW(m)		(0x1C0 + 0x200 * (m))
#define mmSIF_RTR_0_BASE		0x300000
#define GAUDI_RTR_STRIDE		0x10000
#define GAUDI_RTR_NUM			16
#define RTR_LBW_HIT_AW			0x400
#define RTR_LBW_MIN_AW			0x410
#define RTR_LBW_MAX_AW			0x450
#define RTR_LBW_HIT_AR			0x490
#define RTR_LBW_MIN_AR			0x4A0
#define RTR_LBW_MAX_AR			0x4E0

/*
 * HBW range registers, 16 ranges per set, a hit when the address equals
 * BASE in the bits MASK has set (bits 49:0): DMA_IF k DOWN_CH c
 * (0x481000 + k * 0x20000 + c * 0x1000) and SIF/NIF_RTR_CTRL n
 * (0x306000 + n * 0x10000).
 */
#define mmDMA_IF_W_S_DOWN_CH0_BASE	0x481000
#define mmSIF_RTR_CTRL_0_BASE		0x306000
#define HBW_RR_BASE_LOW_AW		0x5E4
#define HBW_RR_BASE_HIGH_AW		0x624
#define HBW_RR_MASK_LOW_AW		0x664
#define HBW_RR_MASK_HIGH_AW		0x6A4
#define HBW_RR_BASE_LOW_AR		0x824
#define HBW_RR_BASE_HIGH_AR		0x864
#define HBW_RR_MASK_LOW_AR		0x8A4
#define HBW_RR_MASK_HIGH_AR		0x8E4
#define HBW_RR_HIT_AW			0xA64
#define HBW_RR_HIT_AR			0xA68

/* Device memory the range registers close (gaudi.h). */
#define GAUDI_PSOC_SCRATCHPAD		0x7FFBFE0000ULL
#define GAUDI_PCIE_FW_SRAM		0x7FFBFF0000ULL

#endif /* GAUDI_PROT_REGS_H */
