/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Gaudi 1 registers and packet fields of the data plane: queue managers,
 * DMA cores, sync manager and MMU (CFG offsets).  Facts from the public
 * hardware description (shared/gaudi1/INTERFACE.md sections 7 and 8).
 */
#ifndef GAUDI_CS_REGS_H
#define GAUDI_CS_REGS_H

#include <linux/bits.h>
#include <linux/sizes.h>

/*
 * Device address map facts used by the parser and the MMU (INTERFACE.md
 * section 2); GAUDI_SRAM_BASE is in gaudi_regs.h.
 */
#define GAUDI_SRAM_USER_START	(GAUDI_SRAM_BASE + 0x80)
#define GAUDI_SRAM_END		(GAUDI_SRAM_BASE + 20 * SZ_1M)
#define GAUDI_DRAM_USER_START	0x20000000ULL
#define GAUDI_VA_HOST_START	0x1000000000000ULL
#define GAUDI_VA_HOST_END	0x3FF8000000000ULL
/* The first 4 GiB of the host range hold mapped CBs (HL_CB_FLAGS_MAP). */
#define GAUDI_VA_CB_START	GAUDI_VA_HOST_START
#define GAUDI_VA_CB_END		(GAUDI_VA_HOST_START + SZ_4G)
#define GAUDI_VA_USER_START	GAUDI_VA_CB_END

/* QMAN registers, relative to a QMAN block; "s" is the stream 0..3. */
#define QM_GLBL_CFG0			0x000
#define QM_GLBL_CFG1			0x004
#define QM_GLBL_PROT			0x008
#define QM_GLBL_SECURE_PROPS(s)		(0x010 + 4 * (s))
#define QM_GLBL_NON_SECURE_PROPS(s)	(0x024 + 4 * (s))
#define QM_PQ_BASE_LO(s)		(0x070 + 4 * (s))
#define QM_PQ_BASE_HI(s)		(0x080 + 4 * (s))
#define QM_PQ_SIZE(s)			(0x090 + 4 * (s))
#define QM_PQ_PI(s)			(0x0A0 + 4 * (s))
#define QM_PQ_CI(s)			(0x0B0 + 4 * (s))
#define QM_CP_MSG_BASE_LO(b, s)		(0x228 + 0x28 * (b) + 4 * (s))
#define QM_CP_MSG_BASE_HI(b, s)		(0x23C + 0x28 * (b) + 4 * (s))
#define QM_CP_FENCE_RDATA(f, s)		(0x308 + 0x14 * (f) + 4 * (s))
#define QM_CP_FENCE_CNT(f, s)		(0x358 + 0x14 * (f) + 4 * (s))
#define QM_CP_FENCE_FIRST		0x308
#define QM_CP_FENCE_END			0x3A8
#define QM_BLOCK_SIZE			0x1000
/* GLBL_CFG0: PQF enables 3:0, CQF enables 8:4, CP enables 13:9. */
#define QM_GLBL_CFG0_ENABLE_ALL		GENMASK(13, 0)
/* GLBL_CFG1: the same bit positions request a stop. */
#define QM_GLBL_CFG1_STOP_ALL		GENMASK(13, 0)

/* {SECURE,NON_SECURE}_PROPS of QMANs and DMA cores. */
#define GAUDI_PROPS_ASID		GENMASK(9, 0)
#define GAUDI_PROPS_MMBP		BIT(10)

/* DMA core registers, relative to the core (QMAN = core + 0x8000). */
#define DMA_CORE_PROT			0x0B8
#define DMA_CORE_SECURE_PROPS		0x0F0
#define DMA_CORE_NON_SECURE_PROPS	0x0F4
#define DMA_CORE_BLOCK_SIZE		0x1000
#define DMA_QM_OFFSET			0x8000

/* Sync manager: four blocks of 2048 SOBs and 512 monitors. */
#define mmSYNC_MNGR_E_N_SOB_OBJ_0	0x4F2000
#define mmSYNC_MNGR_W_N_SOB_OBJ_0	0x4D2000
#define mmSYNC_MNGR_E_S_SOB_OBJ_0	0x4B2000
#define mmSYNC_MNGR_W_S_SOB_OBJ_0	0x492000
#define SM_MON_PAY_ADDRL(m)		(0x2000 + 4 * (m))
#define SM_MON_PAY_ADDRH(m)		(0x2800 + 4 * (m))
#define SM_MON_PAY_DATA(m)		(0x3000 + 4 * (m))
#define SM_MON_ARM(m)			(0x3800 + 4 * (m))
#define SM_MON_STATUS(m)		(0x4000 + 4 * (m))
#define SM_SOBS_SIZE			0x2000
#define SM_NUM_SOBS			2048
#define SM_NUM_MONS			512
#define SM_SOB_VAL			GENMASK(14, 0)
#define SM_SOB_INC			BIT(31)
#define SM_MON_ARM_GROUP		GENMASK(7, 0)
#define SM_MON_ARM_MASK			GENMASK(15, 8)
#define SM_MON_ARM_EQ			BIT(16)
#define SM_MON_ARM_VALUE		GENMASK(31, 17)
/* MON_STATUS: valid 0, pending 8:1 (gaudi_masks.h); the rest reserved. */
#define SM_MON_STATUS_VALID		BIT(0)
#define SM_MON_STATUS_PENDING		GENMASK(8, 1)
#define SM_BLOCK_END			SM_MON_STATUS(SM_NUM_MONS)
/* First SOB and monitor of the W_S block that belong to users. */
#define GAUDI_FIRST_USER_SOB		144
#define GAUDI_FIRST_USER_MON		72
/*
 * The driver's signal/wait CSs: 2 SOBs and 1 monitor per external queue,
 * at upstream's numbers (SOBs 0..127 and monitors 0..63 are upstream's for
 * collective waits, which need NIC ports).
 */
#define GAUDI_SIG_FIRST_SOB		128
#define GAUDI_SIG_FIRST_MON		64

/* MMU block. */
#define mmMMU_UP_MMU_ASID		0xC12004
#define mmMMU_UP_MMU_HOP0_PA43_12	0xC12008
#define mmMMU_UP_MMU_HOP0_PA49_44	0xC1200C
#define mmMMU_UP_STLB_CACHE_INV		0xC12010
#define mmMMU_UP_STLB_INV_PS		0xC1203C
#define mmMMU_UP_STLB_INV_SET		0xC12048
#define MMU_BUSY			BIT(31)

/* Packets: the second 32-bit word is ctl, opcode in bits 28:24. */
#define PKT_CTL_OPCODE			GENMASK(28, 24)
#define PKT_CTL_EB			BIT(29)
#define PKT_CTL_RB			BIT(30)
#define PKT_CTL_MB			BIT(31)
#define PKT_WREG_32			0x1
#define PKT_WREG_BULK			0x2
#define PKT_MSG_LONG			0x3
#define PKT_MSG_SHORT			0x4
#define PKT_CP_DMA			0x5
#define PKT_REPEAT			0x6
#define PKT_MSG_PROT			0x7
#define PKT_FENCE			0x8
#define PKT_LIN_DMA			0x9
#define PKT_NOP				0xA
#define PKT_STOP			0xB
#define PKT_ARB_POINT			0xC
#define PKT_WAIT			0xD
#define PKT_LOAD_AND_EXE		0xF
/*
 * Packet fields (gaudi_packets.h of the upstream driver and of
 * hl-thunk-open, which also names the reserved bits).  Bits 31:29 of ctl
 * are the barriers; most packets have a predicate in ctl bits 4:0.
 */
#define PKT_CTL_BARRIERS		GENMASK(31, 29)
#define PKT_CTL_PRED			GENMASK(4, 0)
#define PKT_WREG_REG_OFFSET		GENMASK(23, 8)
#define PKT_WREG_BULK_SIZE64		GENMASK(15, 0)
/* MSG_LONG/MSG_PROT ctl: pred 4:0, WO 16, NS 17, op 21:20. */
#define PKT_MSG_WO			BIT(16)
#define PKT_MSG_NS			BIT(17)
#define PKT_MSG_OP			GENMASK(21, 20)
#define PKT_MSG_OP_WRITE		0
#define PKT_MSG_OP_TIMESTAMP		1
/* MSG_SHORT ctl: offset 15:0, WO 16, NS 17, op 21:20, base 23:22. */
#define PKT_MSG_SHORT_OFFSET		GENMASK(15, 0)
#define PKT_MSG_SHORT_BASE		GENMASK(23, 22)
/* LIN_DMA ctl: options 6:0, reserved 15:7, context id (low) 23:16. */
#define PKT_LIN_DMA_WRCOMP		BIT(0)
#define PKT_LIN_DMA_TRANSPOSE		BIT(1)
#define PKT_LIN_DMA_DTYPE		BIT(2)
#define PKT_LIN_DMA_LIN			BIT(3)
#define PKT_LIN_DMA_MEMSET		BIT(4)
#define PKT_LIN_DMA_COMPRESS		BIT(5)
#define PKT_LIN_DMA_DECOMPRESS		BIT(6)
#define PKT_LIN_DMA_CTX_LO		GENMASK(23, 16)
#define PKT_LIN_DMA_DST_ADDR		GENMASK_ULL(55, 0)
/* LOAD_AND_EXE cfg: dst 0 (1 = scalars), load 8, exe 9, etype 10. */
#define PKT_LOAD_AND_EXE_DST		BIT(0)
#define PKT_LOAD_AND_EXE_LOAD		BIT(8)
#define PKT_LOAD_AND_EXE_EXE		BIT(9)
#define PKT_LOAD_AND_EXE_ETYPE		BIT(10)
#define PKT_FENCE_DEC			GENMASK(3, 0)
#define PKT_FENCE_TARGET		GENMASK(23, 16)
#define PKT_FENCE_ID			GENMASK(31, 30)
/* WAIT cfg: cycles 23:0, increment 27:24, fence id 29:28. */
#define PKT_WAIT_CYCLES			GENMASK(23, 0)
#define PKT_WAIT_INC			GENMASK(27, 24)
#define PKT_WAIT_ID			GENMASK(29, 28)
/* ARB_POINT cfg: priority 7:0, release 31. */
#define PKT_ARB_PRIORITY		GENMASK(7, 0)
#define PKT_ARB_RELEASE			BIT(31)
/* REPEAT cfg: sore 0, o 1, jump pointer 31:16. */
#define PKT_REPEAT_JMP			GENMASK(31, 16)

/* Completion-queue entry written by the driver's MSG_PROT. */
#define CQ_ENTRY_READY			BIT(31)
#define CQ_ENTRY_SHADOW_VALID		BIT(30)
#define CQ_ENTRY_SHADOW_INDEX		GENMASK(15, 0)

#endif /* GAUDI_CS_REGS_H */
