/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 hardware description: register offsets and fields.
 *
 * Offsets are CFG offsets, relative to GAUDI_CFG_BASE (memmap.h).  Naming
 * (Documentation/hw.rst): mm<BLOCK>_<REG> is an absolute CFG offset under
 * upstream's register name; <BLOCK>_<REG> without "mm" is relative to a
 * block base, a macro taking an index where the register repeats; fields
 * are <REG>_<FIELD> masks (plain integers: use FIELD_PREP/FIELD_GET or a
 * shift); counts and strides start with GAUDI_.
 *
 * Plain C, no includes: shared by gaudi.ko, the device model, libgaudi
 * and the tests.
 */
#ifndef GAUDI1_REGS_H
#define GAUDI1_REGS_H

/*
 * PCI config space: the ELBI window onto CFG registers (upstream
 * common/pci/pci.c and include/hw_ip/pci/pci_general.h,
 * mmPCI_CONFIG_ELBI_*).  ELBI_ADDR takes the low 32 bits of a CFG device
 * address.
 */
#define GAUDI_ELBI_ADDR			0xFF0
#define GAUDI_ELBI_DATA			0xFF4
#define GAUDI_ELBI_CTRL			0xFF8
#define GAUDI_ELBI_STS			0xFFC
#define GAUDI_ELBI_CTRL_WRITE		(1U << 31)
#define GAUDI_ELBI_STS_DONE		(1U << 31)
#define GAUDI_ELBI_STS_ERR		(1U << 30)
#define GAUDI_ELBI_CFG_BASE32		0xFC000000U	/* low 32 bits of CFG_BASE */

/*
 * PSOC scratchpad: boot status and reset (upstream
 * asic_reg/psoc_global_conf_regs.h, gaudi_regs.h and gaudi.c's names for
 * the scratchpad registers, e.g. mmCPU_BOOT_STATUS).
 */
#define mmPSOC_GLOBAL_CONF_BTM_FSM		0xC4B028
#define mmPSOC_GLOBAL_CONF_COLD_RST_FLOPS_1	0xC4B074
#define mmHW_STATE				0xC4B100
#define mmCPU_BOOT_DEV_STS0			0xC4B150
#define mmCPU_BOOT_DEV_STS1			0xC4B154
#define mmCPU_CMD_STATUS_TO_HOST		0xC4B15C
#define mmCPU_BOOT_ERR0				0xC4B160
#define mmCPU_BOOT_ERR1				0xC4B164
#define mmPREBOOT_VER_OFFSET			0xC4B170
#define mmUBOOT_VER_OFFSET			0xC4B174
#define mmCPU_BOOT_STATUS			0xC4B300
#define mmKMD_MSG_TO_CPU			0xC4B304
#define mmPSOC_GLOBAL_CONF_SW_ALL_RST		0xC4B498

/*
 * PSOC PLL and timestamp counter (upstream asic_reg/psoc_cpu_pll_regs.h,
 * psoc_timestamp_regs.h).
 */
#define mmPSOC_CPU_PLL_NR		0xC70100
#define mmPSOC_CPU_PLL_NF		0xC70104
#define mmPSOC_CPU_PLL_OD		0xC70108
#define mmPSOC_CPU_PLL_DIV_FACTOR_2	0xC70208
#define mmPSOC_TIMESTAMP_CNTCVL		0xC49008
#define mmPSOC_TIMESTAMP_CNTCVU		0xC4900C

/*
 * Device-CPU interface queues and the GIC doorbell (upstream
 * asic_reg/cpu_if_regs.h, gic_regs.h).
 */
#define mmCPU_IF_CPU_MSB_ADDR		0x44212C
#define mmCPU_IF_PF_PQ_PI		0x442200
#define mmCPU_IF_PQ_BASE_ADDR_LOW	0x442204
#define mmCPU_IF_PQ_BASE_ADDR_HIGH	0x442208
#define mmCPU_IF_PQ_LENGTH		0x44220C
#define mmCPU_IF_CQ_BASE_ADDR_LOW	0x442210
#define mmCPU_IF_CQ_BASE_ADDR_HIGH	0x442214
#define mmCPU_IF_CQ_LENGTH		0x442218
#define mmCPU_IF_EQ_BASE_ADDR_LOW	0x442220
#define mmCPU_IF_EQ_BASE_ADDR_HIGH	0x442224
#define mmCPU_IF_EQ_LENGTH		0x442228
#define mmCPU_IF_EQ_RD_OFFS		0x44222C
#define mmCPU_IF_QUEUE_INIT		0x442230
#define mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR	0x800040

/* PCIe MSI (upstream asic_reg/pcie_wrap_regs.h, pcie_aux_regs.h). */
#define mmPCIE_CORE_MSI_REQ		0xC04100
#define mmPCIE_MSI_INTR_0		0xC13000

/*
 * MMU_UP block: enable, hop-0, invalidation, fault and RAZWI capture
 * (upstream asic_reg/mmu_up_regs.h, mmu_up_masks.h; RAZWI id layout from
 * gaudi_masks.h).
 */
#define mmMMU_UP_MMU_ENABLE		0xC1100C
#define mmMMU_UP_PAGE_ERROR_CAPTURE	0xC11034
#define mmMMU_UP_PAGE_ERROR_CAPTURE_VA	0xC11038
#define mmMMU_UP_RAZWI_WRITE_VLD	0xC1105C
#define mmMMU_UP_RAZWI_WRITE_ID		0xC11060
#define mmMMU_UP_RAZWI_READ_VLD		0xC11064
#define mmMMU_UP_RAZWI_READ_ID		0xC11068
#define mmMMU_UP_MMU_BUSY		0xC12000
#define mmMMU_UP_MMU_ASID		0xC12004
#define mmMMU_UP_MMU_HOP0_PA43_12	0xC12008
#define mmMMU_UP_MMU_HOP0_PA49_44	0xC1200C
#define mmMMU_UP_STLB_CACHE_INV		0xC12010
#define mmMMU_UP_STLB_INV_PS		0xC1203C
#define mmMMU_UP_STLB_INV_SET		0xC12048
#define MMU_BUSY			(1U << 31)
#define MMU_PAGE_ERROR_CAPTURE_VA_49_32	0x3FFFFU
#define MMU_PAGE_ERROR_CAPTURE_VALID	(1U << 18)
/* RAZWI initiator id: AXI id 23:20, X 27:24, Y 30:28. */
#define RAZWI_ID_AXI			0x00F00000U
#define RAZWI_ID_X			0x0F000000U
#define RAZWI_ID_Y			0x70000000U
#define RAZWI_ID(x, y, axi)		((((unsigned int)(y) & 0x7U) << 28) | \
					 (((unsigned int)(x) & 0xFU) << 24) | \
					 (((unsigned int)(axi) & 0xFU) << 20))
#define AXI_ID_MME			0
#define AXI_ID_TPC			1
#define AXI_ID_DMA			2
#define AXI_ID_NIC			3	/* gaudi_masks.h enum axi_id */

/*
 * Device MMU page-table entries (upstream include/gaudi/gaudi.h and
 * common/mmu: PAGE_PRESENT_MASK, LAST_MASK, HOP_PHYS_ADDR_MASK).
 */
#define PTE_PRESENT			(1ULL << 0)
#define PTE_LAST			(1ULL << 11)
#define PTE_ADDR			0x0003FFFFFFFFF000ULL	/* bits 49:12 */

/*
 * Engine blocks (upstream asic_reg/gaudi_blocks.h and gaudi_regs.h): DMA
 * core n at mmDMA0_CORE_BASE + n * GAUDI_DMA_STRIDE, its QMAN at
 * + DMA_QM_OFFSET; MME n QMAN and control at + n * GAUDI_MME_STRIDE
 * (only MME0 and MME2 have QMANs in use); TPC n config and QMAN at
 * + n * GAUDI_TPC_STRIDE.
 */
#define mmDMA0_CORE_BASE		0x500000
#define mmDMA0_QM_BASE			0x508000
#define GAUDI_DMA_STRIDE		0x20000
#define GAUDI_NUM_DMA			8
#define DMA_QM_OFFSET			0x8000
#define mmMME0_CTRL_BASE		0x60000
#define mmMME0_QM_BASE			0x68000
#define mmMME2_QM_BASE			0x168000
#define GAUDI_MME_STRIDE		0x80000
#define GAUDI_NUM_MME			4
#define mmTPC0_CFG_BASE			0xE00000
#define mmTPC0_QM_BASE			0xE08000
#define GAUDI_TPC_STRIDE		0x40000
#define GAUDI_NUM_TPC			8

/*
 * QMAN registers relative to a QMAN base; s is the stream 0..3, b the
 * message base 0..3, f the fence 0..3 (upstream asic_reg/dma0_qm_regs.h
 * and dma0_qm_masks.h; the MME and TPC QMANs share the layout).  CP 4 is
 * the lower CP that runs CP_DMA buffers.
 */
#define QM_GLBL_CFG0			0x000
#define QM_GLBL_CFG1			0x004
#define QM_GLBL_PROT			0x008
#define QM_GLBL_SECURE_PROPS(s)		(0x010 + 4 * (s))
#define QM_GLBL_NON_SECURE_PROPS(s)	(0x024 + 4 * (s))
#define QM_GLBL_STS0			0x038
#define QM_GLBL_STS1(s)			(0x040 + 4 * (s))	/* W1C */
#define QM_PQ_BASE_LO(s)		(0x070 + 4 * (s))
#define QM_PQ_BASE_HI(s)		(0x080 + 4 * (s))
#define QM_PQ_SIZE(s)			(0x090 + 4 * (s))	/* log2 entries */
#define QM_PQ_PI(s)			(0x0A0 + 4 * (s))
#define QM_PQ_CI(s)			(0x0B0 + 4 * (s))
#define QM_CP_MSG_BASE_STRIDE		0x28
#define QM_CP_MSG_BASE_LO(b, s)		(0x228 + QM_CP_MSG_BASE_STRIDE * (b) + 4 * (s))
#define QM_CP_MSG_BASE_HI(b, s)		(0x23C + QM_CP_MSG_BASE_STRIDE * (b) + 4 * (s))
#define QM_CP_FENCE_STRIDE		0x14
#define QM_CP_FENCE_RDATA(f, s)		(0x308 + QM_CP_FENCE_STRIDE * (f) + 4 * (s))
#define QM_CP_FENCE_CNT(f, s)		(0x358 + QM_CP_FENCE_STRIDE * (f) + 4 * (s))
#define QM_CP_FENCE_FIRST		0x308
#define QM_CP_FENCE_END			0x3A8
/*
 * Arbitration between the streams of a QMAN (dma0_qm_regs.h,
 * dma0_qm_masks.h; hl-thunk-open's tests write ARB_CFG_0 as TYPE |
 * IS_MASTER | EN, TYPE 0 = priority, 1 = weighted round robin, then
 * MST_QUIET_PER and, for WRR, one weight per stream).  ARB_POINT packets
 * take and release the grant.
 */
#define QM_ARB_CFG_0			0xA00
#define QM_ARB_CHOISE_Q_PUSH		0xA04
#define QM_ARB_WRR_WEIGHT(s)		(0xA08 + 4 * (s))
#define QM_ARB_CFG_1			0xA18
#define QM_ARB_MST_QUIET_PER		0xB34
#define QM_ARB_CFG_0_TYPE_WRR		(1U << 0)
#define QM_ARB_CFG_0_IS_MASTER		(1U << 4)
#define QM_ARB_CFG_0_EN			(1U << 8)
#define QM_ARB_CFG_0_MASK		0x0000F000U
#define QM_ARB_CFG_0_MST_MSG_NOSTALL	(1U << 16)
#define QM_ARB_ERR_CAUSE		0xB9C
#define QM_CGM_STS			0xC74
#define QM_BLOCK_SIZE			0x1000
#define QM_LOWER_CP			4
/* GLBL_CFG0 enables and GLBL_CFG1 stops: PQF 3:0, CQF 8:4, CP 13:9. */
#define QM_GLBL_CFG0_ENABLE_ALL		0x3FFFU
#define QM_GLBL_CFG1_STOP_ALL		0x3FFFU
#define QM_CFG_PQF_EN(s)		(1U << (s))
#define QM_CFG_CP_EN(s)			(1U << (9 + (s)))
/* GLBL_STS0: idle bits 13:0, CP_IS_STOP 29:25. */
#define QM_GLBL_STS0_IDLE		0x3FFFU
#define QM_STS0_CP_IS_STOP(s)		(1U << (25 + (s)))
#define QM_CGM_STS_AGENT_IDLE		(1U << 8)
/* GLBL_STS1 error causes. */
#define QM_STS1_PQF_RD_ERR		(1U << 0)
#define QM_STS1_CP_RD_ERR		(1U << 2)
#define QM_STS1_CP_UNDEF_CMD_ERR	(1U << 3)
#define QM_STS1_CP_STOP_OP		(1U << 4)
#define QM_STS1_CP_MSG_WR_ERR		(1U << 5)
#define QM_STS1_CP_WREG_ERR		(1U << 6)
#define QM_STS1_CP_FENCE_UDF_ERR(n)	(1U << (12 + (n)))
/* GLBL_PROT, 1 = trusted: PQF 3:0, CQF 8:4, CP 13:9, ERR 14. */
#define QM_GLBL_PROT_PQF		0x000FU
#define QM_GLBL_PROT_CQF		0x01F0U
#define QM_GLBL_PROT_CP			0x3E00U
#define QM_GLBL_PROT_ERR		(1U << 14)
#define QM_PROT_PQF(s)			(1U << (s))
#define QM_PROT_CP(s)			(1U << (9 + (s)))
/*
 * The trust upstream programs (gaudi_masks.h, QMAN_EXTERNAL_MAKE_TRUSTED
 * and QMAN_INTERNAL_MAKE_TRUSTED): PCI DMA QMANs trust PQ, CQ and the
 * four upper CPs; every other QMAN only its PQ fetcher.
 */
#define QM_PROT_EXTERNAL		(0x000FU | 0x00F0U | 0x1E00U | QM_GLBL_PROT_ERR)
#define QM_PROT_INTERNAL		(0x000FU | QM_GLBL_PROT_ERR)

/* {SECURE,NON_SECURE}_PROPS of QMANs and DMA cores: ASID 9:0, MMBP 10. */
#define GAUDI_PROPS_ASID		0x3FFU
#define GAUDI_PROPS_MMBP		(1U << 10)

/*
 * DMA core registers relative to the core (upstream
 * asic_reg/dma0_core_regs.h, dma0_core_masks.h).  A non-linear transfer
 * has five dimensions: TSIZE_0 bytes per row, TSIZE_k counts and
 * STRIDE_k byte strides (k = 1..4), for source and destination.
 */
#define DMA_CORE_SRC_BASE_LO		0x014
#define DMA_CORE_SRC_BASE_HI		0x018
#define DMA_CORE_DST_BASE_LO		0x01C
#define DMA_CORE_DST_BASE_HI		0x020
#define DMA_CORE_SRC_TSIZE(k)		(0x02C + 8 * ((k) - 1))
#define DMA_CORE_SRC_STRIDE(k)		(0x030 + 8 * ((k) - 1))
#define DMA_CORE_SRC_TSIZE_0		0x04C
#define DMA_CORE_DST_TSIZE(k)		(0x054 + 8 * ((k) - 1))
#define DMA_CORE_DST_STRIDE(k)		(0x058 + 8 * ((k) - 1))
#define DMA_CORE_DST_TSIZE_0		0x074
#define DMA_CORE_COMMIT			0x078
#define DMA_CORE_WR_COMP_WDATA		0x07C
#define DMA_CORE_WR_COMP_ADDR_LO	0x080
#define DMA_CORE_WR_COMP_ADDR_HI	0x084
#define DMA_CORE_PROT			0x0B8
#define DMA_CORE_SECURE_PROPS		0x0F0
#define DMA_CORE_NON_SECURE_PROPS	0x0F4
#define DMA_CORE_ERR_CAUSE		0x164	/* W1C */
#define DMA_CORE_STS0			0x190
#define DMA_CORE_BLOCK_SIZE		0x1000
#define DMA_CORE_STS0_BUSY		(1U << 31)
#define DMA_CORE_PROT_VAL		(1U << 0)	/* secure transfer */
#define DMA_CORE_PROT_ERR_VAL		(1U << 1)	/* secure error report */
/*
 * COMMIT: a write starts the transfer.  The LIN_DMA packet's ctl bits 7:0
 * are these bits; CTX_ID (and DST_BASE_HI's CTX_ID_HI) are not address.
 */
#define DMA_COMMIT_WR_COMP_EN		(1U << 0)
#define DMA_COMMIT_TRANSPOSE		(1U << 1)
#define DMA_COMMIT_DTYPE		(1U << 2)
#define DMA_COMMIT_LIN			(1U << 3)
#define DMA_COMMIT_MEM_SET		(1U << 4)
#define DMA_COMMIT_COMPRESS		(1U << 5)
#define DMA_COMMIT_DECOMPRESS		(1U << 6)
#define DMA_COMMIT_CTX_ID		0x00FF0000U
#define DMA_CORE_DST_BASE_HI_ADDR	0x00FFFFFFU
#define DMA_CORE_DST_BASE_HI_CTX_ID	0xFF000000U
#define DMA_ERR_HBW_RD			(1U << 0)
#define DMA_ERR_HBW_WR			(1U << 1)
#define DMA_ERR_LBW_WR			(1U << 2)
#define DMA_ERR_DESC_OVF		(1U << 3)

/*
 * Engine status read by upstream's idle check (gaudi.c, gaudi_masks.h:
 * IS_MME_IDLE, IS_TPC_IDLE).
 */
#define MME_CTRL_ARCH_STATUS		0x000	/* relative to MME n control */
#define mmMME0_CTRL_ARCH_STATUS		(mmMME0_CTRL_BASE + MME_CTRL_ARCH_STATUS)
#define MME_CTRL_ARCH_STATUS_IDLE	0x1180U
#define TPC_CFG_STATUS			0x691C	/* relative to TPC n config */
#define TPC_CFG_WQ_INFLIGHT_CNTR	0x69B8
#define TPC_CFG_STATUS_IDLE		0xEEU

/*
 * Sync manager: four blocks (E_N, W_N, E_S, W_S) of 2048 SOBs and 512
 * monitors; m is a monitor (upstream asic_reg/gaudi_regs.h,
 * sync_mngr_*_regs.h, gaudi_masks.h).  Offsets below are relative to a
 * block's SOB_OBJ_0.
 */
#define mmSYNC_MNGR_W_S_SOB_OBJ_0	0x492000
#define mmSYNC_MNGR_E_S_SOB_OBJ_0	0x4B2000
#define mmSYNC_MNGR_W_N_SOB_OBJ_0	0x4D2000
#define mmSYNC_MNGR_E_N_SOB_OBJ_0	0x4F2000
#define SM_NUM_SOBS			2048
#define SM_NUM_MONS			512
#define SM_SOBS_SIZE			0x2000
#define SM_MON_PAY_ADDRL(m)		(0x2000 + 4 * (m))
#define SM_MON_PAY_ADDRH(m)		(0x2800 + 4 * (m))
#define SM_MON_PAY_DATA(m)		(0x3000 + 4 * (m))
#define SM_MON_ARM(m)			(0x3800 + 4 * (m))
#define SM_MON_STATUS(m)		(0x4000 + 4 * (m))
#define SM_BLOCK_END			SM_MON_STATUS(SM_NUM_MONS)
/* A SOB write: the value 14:0, bit 31 adds it instead of setting it. */
#define SM_SOB_VAL			0x7FFFU
#define SM_SOB_INC			(1U << 31)
/* MON_ARM: group 7:0, mask 15:8, EQ (else GE) 16, value 31:17. */
#define SM_MON_ARM_GROUP		0x000000FFU
#define SM_MON_ARM_MASK			0x0000FF00U
#define SM_MON_ARM_EQ			(1U << 16)
#define SM_MON_ARM_VALUE		0xFFFE0000U
/* MON_STATUS: valid 0, pending 8:1. */
#define SM_MON_STATUS_VALID		(1U << 0)
#define SM_MON_STATUS_PENDING		0x000001FEU
#define SM_MON_STATUS_PENDING_SHIFT	1

/*
 * Protection bits (upstream include/gaudi/gaudi.h PROT_BITS_OFFS and
 * gaudi_security.c): the last 128 bytes of each 4 KiB block, one bit per
 * 4-byte register (0 = secure initiators only).  With
 * mmPB_RAZWI_RDATA_CFG = 1 a read stopped by them returns PB_RAZWI_RDATA.
 */
#define PROT_BITS_OFFS			0xF80
#define GAUDI_PB_WORDS			32
#define mmPB_RAZWI_RDATA_CFG		0xC01B28
#define PB_RAZWI_RDATA			0xBABA0BADU

/*
 * LBW range registers, 16 ranges per set, exclusive MIN/MAX CFG offsets
 * (upstream asic_reg/dma_if_*_regs.h, sif_rtr_ctrl_*_regs.h,
 * gaudi_security.c): DMA_IF W_S, E_S, W_N, E_N at mmDMA_IF_W_S_BASE +
 * k * GAUDI_DMA_IF_STRIDE with masters m = SOB port, DMA0, DMA1; SIF_RTR
 * 0..7 then NIF_RTR 0..7 at mmSIF_RTR_0_BASE + n * GAUDI_RTR_STRIDE.
 */
#define mmDMA_IF_W_S_BASE		0x480000
#define GAUDI_DMA_IF_STRIDE		0x20000
#define GAUDI_NUM_DMA_IF		4
#define DMA_IF_LBW_MIN_AR(m)		(0x100 + 0x200 * (m))
#define DMA_IF_LBW_MAX_AR(m)		(0x140 + 0x200 * (m))
#define DMA_IF_LBW_MIN_AW(m)		(0x180 + 0x200 * (m))
#define DMA_IF_LBW_MAX_AW(m)		(0x1C0 + 0x200 * (m))
#define DMA_IF_SOB_HIT_RPROT		0x700	/* DMA0 0x71C, DMA1 0x730 */
#define DMA_IF_SOB_HIT_WPROT		0x704	/* DMA0 0x720, DMA1 0x734 */
#define mmSIF_RTR_0_BASE		0x300000
#define GAUDI_RTR_STRIDE		0x10000
#define GAUDI_NUM_RTR			16
#define RTR_LBW_HIT_AW			0x400
#define RTR_LBW_MIN_AW			0x410
#define RTR_LBW_MAX_AW			0x450
#define RTR_LBW_HIT_AR			0x490
#define RTR_LBW_MIN_AR			0x4A0
#define RTR_LBW_MAX_AR			0x4E0
#define GAUDI_LBW_RANGES		16

/*
 * HBW range registers, 16 ranges per set: a hit when the address equals
 * BASE in the bits MASK has set (bits 49:0).  DMA_IF k DOWN_CH c at
 * mmDMA_IF_W_S_DOWN_CH0_BASE + k * GAUDI_DMA_IF_STRIDE + c * 0x1000;
 * SIF/NIF_RTR_CTRL n at mmSIF_RTR_CTRL_0_BASE + n * GAUDI_RTR_STRIDE.
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
#define GAUDI_HBW_RANGES		16

#endif /* GAUDI1_REGS_H */
