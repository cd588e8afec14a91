/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 hardware description: command-buffer packets of the QMAN
 * command processors.
 *
 * Opcodes, sizes and fields from upstream's include/gaudi/gaudi_packets.h
 * (drivers/accel/habanalabs and hl-thunk-open, which also names the
 * reserved bits).  Every packet starts with a 32-bit word (value or cfg)
 * and a 32-bit ctl word: opcode 28:24, barriers EB 29, RB 30, MB 31; most
 * packets have a predicate in ctl 4:0.  Masks are plain integers.
 */
#ifndef GAUDI1_PACKETS_H
#define GAUDI1_PACKETS_H

#define PKT_CTL_OPCODE			0x1F000000U
#define PKT_CTL_OPCODE_SHIFT		24
#define PKT_CTL_EB			(1U << 29)
#define PKT_CTL_RB			(1U << 30)
#define PKT_CTL_MB			(1U << 31)
#define PKT_CTL_BARRIERS		0xE0000000U
#define PKT_CTL_PRED			0x0000001FU
#define PKT_OPCODE(ctl)			(((ctl) & PKT_CTL_OPCODE) >> PKT_CTL_OPCODE_SHIFT)

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
#define PKT_NUM_OPCODES			32

/*
 * Sizes in bytes (WREG_BULK: the header; 8 bytes per register follow).
 * PKT_SIZES is an initializer for a table indexed by opcode, 0 where the
 * opcode is undefined.
 */
#define PKT_SIZE_WREG_32		8
#define PKT_SIZE_WREG_BULK		8
#define PKT_SIZE_MSG_LONG		16
#define PKT_SIZE_MSG_SHORT		8
#define PKT_SIZE_CP_DMA			16
#define PKT_SIZE_REPEAT			8
#define PKT_SIZE_MSG_PROT		16
#define PKT_SIZE_FENCE			8
#define PKT_SIZE_LIN_DMA		24
#define PKT_SIZE_NOP			8
#define PKT_SIZE_STOP			8
#define PKT_SIZE_ARB_POINT		8
#define PKT_SIZE_WAIT			8
#define PKT_SIZE_LOAD_AND_EXE		16
#define PKT_SIZES { \
	[PKT_WREG_32] = PKT_SIZE_WREG_32, \
	[PKT_WREG_BULK] = PKT_SIZE_WREG_BULK, \
	[PKT_MSG_LONG] = PKT_SIZE_MSG_LONG, \
	[PKT_MSG_SHORT] = PKT_SIZE_MSG_SHORT, \
	[PKT_CP_DMA] = PKT_SIZE_CP_DMA, \
	[PKT_REPEAT] = PKT_SIZE_REPEAT, \
	[PKT_MSG_PROT] = PKT_SIZE_MSG_PROT, \
	[PKT_FENCE] = PKT_SIZE_FENCE, \
	[PKT_LIN_DMA] = PKT_SIZE_LIN_DMA, \
	[PKT_NOP] = PKT_SIZE_NOP, \
	[PKT_STOP] = PKT_SIZE_STOP, \
	[PKT_ARB_POINT] = PKT_SIZE_ARB_POINT, \
	[PKT_WAIT] = PKT_SIZE_WAIT, \
	[PKT_LOAD_AND_EXE] = PKT_SIZE_LOAD_AND_EXE, \
}

/* WREG_32 / WREG_BULK ctl: register offset 23:8 (bytes, within the block). */
#define PKT_WREG_REG_OFFSET		0x00FFFF00U
/* WREG_BULK ctl: number of 64-bit register pairs 15:0 of the size word. */
#define PKT_WREG_BULK_SIZE64		0x0000FFFFU
/* MSG_LONG / MSG_PROT / MSG_SHORT ctl: WO 16, NS 17, op 21:20. */
#define PKT_MSG_WO			(1U << 16)
#define PKT_MSG_NS			(1U << 17)
#define PKT_MSG_OP			0x00300000U
#define PKT_MSG_OP_WRITE		0
#define PKT_MSG_OP_TIMESTAMP		1
/* MSG_SHORT ctl: offset 15:0 from message base 23:22 of the stream. */
#define PKT_MSG_SHORT_OFFSET		0x0000FFFFU
#define PKT_MSG_SHORT_BASE		0x00C00000U
/* LIN_DMA ctl: options 6:0, context id (low bits) 23:16. */
#define PKT_LIN_DMA_WRCOMP		(1U << 0)
#define PKT_LIN_DMA_TRANSPOSE		(1U << 1)
#define PKT_LIN_DMA_DTYPE		(1U << 2)
#define PKT_LIN_DMA_LIN			(1U << 3)
#define PKT_LIN_DMA_MEMSET		(1U << 4)
#define PKT_LIN_DMA_COMPRESS		(1U << 5)
#define PKT_LIN_DMA_DECOMPRESS		(1U << 6)
#define PKT_LIN_DMA_CTX_LO		0x00FF0000U
/* LIN_DMA destination address: bits 55:0 of the 64-bit word. */
#define PKT_LIN_DMA_DST_ADDR		0x00FFFFFFFFFFFFFFULL
/* LOAD_AND_EXE cfg: dst 0 (1 = scalars), load 8, exe 9, etype 10. */
#define PKT_LOAD_AND_EXE_DST		(1U << 0)
#define PKT_LOAD_AND_EXE_LOAD		(1U << 8)
#define PKT_LOAD_AND_EXE_EXE		(1U << 9)
#define PKT_LOAD_AND_EXE_ETYPE		(1U << 10)
/* FENCE cfg: decrement 3:0, target 23:16, fence id 31:30. */
#define PKT_FENCE_DEC			0x0000000FU
#define PKT_FENCE_TARGET		0x00FF0000U
#define PKT_FENCE_ID			0xC0000000U
/* WAIT cfg: cycles 23:0, increment 27:24, fence id 29:28. */
#define PKT_WAIT_CYCLES			0x00FFFFFFU
#define PKT_WAIT_INC			0x0F000000U
#define PKT_WAIT_ID			0x30000000U
/* ARB_POINT cfg: priority 7:0, release 31. */
#define PKT_ARB_PRIORITY		0x000000FFU
#define PKT_ARB_RELEASE			(1U << 31)
/* REPEAT cfg: sore 0, o 1, jump pointer 31:16. */
#define PKT_REPEAT_SORE			(1U << 0)
#define PKT_REPEAT_JMP			0xFFFF0000U

/*
 * Completion-queue entry of the external queues (upstream
 * common/habanalabs.h and irq.c, CQ_ENTRY_*_MASK).
 */
#define CQ_ENTRY_READY			(1U << 31)
#define CQ_ENTRY_SHADOW_VALID		(1U << 30)
#define CQ_ENTRY_SHADOW_INDEX		0x0000FFFFU

#endif /* GAUDI1_PACKETS_H */
