// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seeds of the isolation fuzzer: each class of attack of issue 9 (and a
 * few more), and legitimate work, as inputs of iso_run() (byte 0 picks the
 * queue from iso_queues[], byte 1 is flags, then the CB).  Packet layouts:
 * hw/gaudi1/packets.h.
 */
#include <stdio.h>
#include <string.h>

#include "gaudi1/packets.h"
#include "gaudi1/nic.h"
#include "gaudi1/regs.h"

#include "../emulator/fakebus.h"
#include "isolation.h"

/* Indexes into iso_queues[]. */
#define Q_EXT		0	/* queue 0: DMA 0 stream 0 */
#define Q_INT		5	/* queue 9: DMA 2 stream 0 */
#define Q_MME		10	/* queue 33 */
#define Q_TPC		14	/* queue 41 */
#define Q_NIC3		19	/* queue 86: NIC port 3, stream 1 */
#define NIC3		3

#define CANARY		(GAUDI_HOST_PHYS_BASE + ISO_CANARY_BUS)
#define KERNEL_HBM	0x10000000ULL	/* the MMU page tables */
/* E_N SOB 5: a user SOB */
#define USER_SOB	(GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 20)

/* Packet and register facts: hw/gaudi1/packets.h and regs.h. */
#define CTL(op)		((uint32_t)(op) << PKT_CTL_OPCODE_SHIFT)

struct b {
	struct iso_seed *s;
};

static void u32(struct b *b, uint32_t v)
{
	if (b->s->len + 4 > sizeof(b->s->data))
		return;
	memcpy(b->s->data + b->s->len, &v, 4);
	b->s->len += 4;
}

static void u64(struct b *b, uint64_t v)
{
	u32(b, (uint32_t)v);
	u32(b, (uint32_t)(v >> 32));
}

static struct b start(struct iso_seed *s, const char *name, bool attack,
		      uint8_t queue)
{
	struct b b = { s };

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->attack = attack;
	s->hw_blocks = attack;
	s->data[0] = queue;
	s->data[1] = 0;
	s->len = 2;
	return b;
}

static void wreg(struct b *b, uint32_t reg, uint32_t v)
{
	u32(b, v);
	u32(b, CTL(PKT_WREG_32) | (reg & 0xFFFF) << 8 | PKT_CTL_MB);
}

static void msg_long(struct b *b, uint64_t a, uint32_t v)
{
	u32(b, v);
	u32(b, CTL(PKT_MSG_LONG) | PKT_CTL_MB);
	u64(b, a);
}

/* The two MSG_LONGs that ring @port's unsecured doorbell for @qpn. */
static void doorbell(struct b *b, unsigned int port, uint32_t qpn)
{
	msg_long(b, GAUDI_CFG_BASE +
		 GAUDI_NIC_QPC_REG(port, NIC_QPC_UNSECURED_DOORBELL_PI), 1);
	msg_long(b, GAUDI_CFG_BASE +
		 GAUDI_NIC_QPC_REG(port, NIC_QPC_UNSECURED_DOORBELL_QPN),
		 QPC_DOORBELL_BUSY | qpn);
}

static void lin_dma(struct b *b, uint32_t ctl, uint64_t src, uint64_t dst,
		    uint32_t size)
{
	u32(b, size);
	u32(b, CTL(PKT_LIN_DMA) | ctl | PKT_CTL_MB);
	u64(b, src);
	u64(b, dst);
}

/*
 * A CB whose CP_DMA targets the user's memory holds (ISO_FLAG_USER_CB):
 * user_cb() starts the upper CB, user_mem() ends it; what follows is the
 * user's memory (the lower CBs).
 */
static void user_cb(struct b *b)
{
	b->s->data[1] |= ISO_FLAG_USER_CB;
	u32(b, 0);
}

static void user_mem(struct b *b)
{
	uint32_t l = (uint32_t)b->s->len - 6;

	memcpy(b->s->data + 2, &l, 4);
}

static void cp_dma(struct b *b, uint64_t a, uint32_t size)
{
	u32(b, size);
	u32(b, CTL(PKT_CP_DMA) | PKT_CTL_MB);
	u64(b, a);
}

static void nop(struct b *b)
{
	u32(b, 0);
	u32(b, CTL(PKT_NOP));
}

/* Class 1: the queue's own DMA core started by register writes. */
static void dma_by_wreg(struct b *b, uint64_t src, uint64_t dst)
{
	wreg(b, DMA_CORE_SRC_BASE_LO, (uint32_t)src);
	wreg(b, DMA_CORE_SRC_BASE_HI, (uint32_t)(src >> 32));
	wreg(b, DMA_CORE_DST_BASE_LO, (uint32_t)dst);
	wreg(b, DMA_CORE_DST_BASE_HI, (uint32_t)(dst >> 32));
	wreg(b, DMA_CORE_DST_TSIZE_0, 4096);
	wreg(b, DMA_CORE_COMMIT, DMA_COMMIT_LIN);
}

/*
 * Class 2: a REPEAT lands inside a zero-size LIN_DMA whose address words
 * hold a MSG_LONG header and its target.
 */
static void hidden_msg(struct b *b, uint64_t target)
{
	nop(b);					/* 0x00 */
	u32(b, 0);				/* 0x08: LIN_DMA, size 0 */
	u32(b, CTL(PKT_LIN_DMA) | PKT_LIN_DMA_LIN | PKT_CTL_MB);
	u32(b, 0x41414141);			/* 0x10: "src": MSG_LONG */
	u32(b, CTL(PKT_MSG_LONG) | PKT_CTL_MB);
	u64(b, target);				/* 0x18: "dst" */
	u32(b, 0x10U << 16 | 1);		/* 0x20: REPEAT to 0x10 */
	u32(b, CTL(PKT_REPEAT) | PKT_CTL_MB);
}

/* A user monitor of the E_N block whose payload goes to @target. */
static void monitor_to(struct b *b, uint64_t target, uint32_t data)
{
	uint64_t mon = GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0;

	msg_long(b, mon + SM_MON_PAY_ADDRL(0), (uint32_t)target);
	msg_long(b, mon + SM_MON_PAY_ADDRH(0), (uint32_t)(target >> 32));
	msg_long(b, mon + SM_MON_PAY_DATA(0), data);
	/* Arm on SOB group 0, every SOB >= 0: fires at once. */
	msg_long(b, mon + SM_MON_ARM(0), 0);
}

/*
 * A strided transfer's shape (the DMA core's SRC/DST_TSIZE_0..4 and
 * SRC/DST_STRIDE_1..4), the same counts on both sides: rows of @row bytes,
 * @n1 rows and @n2 planes, strides @s1/@s2 (source) and @d1/@d2
 * (destination); dimensions 3 and 4 count 1.
 */
static void shape(struct b *b, uint32_t row, uint32_t n1, uint32_t n2,
		  uint32_t s1, uint32_t s2, uint32_t d1, uint32_t d2)
{
	const uint32_t n[5] = { row, n1, n2, 1, 1 };
	const uint32_t ss[5] = { 0, s1, s2, 0, 0 }, ds[5] = { 0, d1, d2, 0, 0 };
	unsigned int k;

	wreg(b, DMA_CORE_SRC_TSIZE_0, row);
	for (k = 1; k < 5; k++) {
		wreg(b, DMA_CORE_SRC_TSIZE(k), n[k]);
		wreg(b, DMA_CORE_SRC_STRIDE(k), ss[k]);
		wreg(b, DMA_CORE_DST_TSIZE(k), n[k]);
		wreg(b, DMA_CORE_DST_STRIDE(k), ds[k]);
	}
}

/* The bases and DST_TSIZE_0 by WREG_32, as before a register COMMIT. */
static void reg_commit(struct b *b, uint64_t src, uint64_t dst,
		       uint32_t tsize0)
{
	wreg(b, DMA_CORE_SRC_BASE_LO, (uint32_t)src);
	wreg(b, DMA_CORE_SRC_BASE_HI, (uint32_t)(src >> 32));
	wreg(b, DMA_CORE_DST_BASE_LO, (uint32_t)dst);
	wreg(b, DMA_CORE_DST_BASE_HI, (uint32_t)(dst >> 32));
	wreg(b, DMA_CORE_DST_TSIZE_0, tsize0);
}

/* Write completion: add 1 at @a (hl-thunk: a SOB). */
static void wr_comp(struct b *b, uint64_t a)
{
	wreg(b, DMA_CORE_WR_COMP_ADDR_LO, (uint32_t)a);
	wreg(b, DMA_CORE_WR_COMP_ADDR_HI, (uint32_t)(a >> 32));
	wreg(b, DMA_CORE_WR_COMP_WDATA, SM_SOB_INC | 1);
}

/* WREG_BULK of @n (even) values from @reg on. */
static void bulk(struct b *b, uint32_t reg, const uint32_t *v, uint32_t n)
{
	uint32_t i;

	u32(b, n / 2);
	u32(b, CTL(PKT_WREG_BULK) | (reg & 0xFFFF) << 8 | PKT_CTL_MB);
	for (i = 0; i < n; i++)
		u32(b, v[i]);
}

/*
 * LOAD_AND_EXE that loads into the scalars (from user SRAM, where the user
 * memory bytes land) a 16-byte packet @op writing @v to @a, and executes
 * it (etype 0).
 */
static void scalar_exe(struct b *b, uint64_t a, uint32_t v, uint32_t op)
{
	user_cb(b);
	u32(b, PKT_LOAD_AND_EXE_DST | PKT_LOAD_AND_EXE_LOAD |
	    PKT_LOAD_AND_EXE_EXE);
	u32(b, CTL(PKT_LOAD_AND_EXE) | PKT_CTL_MB);
	u64(b, GAUDI_SRAM_BASE + ISO_SRAM_CB);
	user_mem(b);
	u32(b, v);
	u32(b, CTL(op) | PKT_CTL_MB);
	u64(b, a);
}

size_t iso_seeds(struct iso_seed *out, size_t max)
{
	static const uint8_t qs[2] = { Q_EXT, Q_INT };
	uint64_t user = ISO_USER_VA;
	size_t n = 0;
	struct b b;
	unsigned int i;

#define NEXT(name, attack, q) \
	(n < max ? (b = start(&out[n++], name, attack, q), 1) : 0)

	for (i = 0; i < 2; i++) {
		if (NEXT(i ? "class 1 (internal): DMA core reads a canary page by WREG_32" :
			     "class 1 (external): DMA core reads a canary page by WREG_32",
			 true, qs[i]))
			dma_by_wreg(&b, CANARY, user);
		if (NEXT(i ? "class 1 (internal): DMA core writes kernel HBM by WREG_32" :
			     "class 1 (external): DMA core writes kernel HBM by WREG_32",
			 true, qs[i]))
			dma_by_wreg(&b, user, KERNEL_HBM);
		if (NEXT(i ? "class 2 (internal): REPEAT into a LIN_DMA hides a MSG_LONG" :
			     "class 2 (external): REPEAT into a LIN_DMA hides a MSG_LONG",
			 true, qs[i]))
			hidden_msg(&b, CANARY);
		if (NEXT(i ? "class 3 (internal): LIN_DMA with write completion" :
			     "class 3 (external): LIN_DMA with write completion",
			 true, qs[i])) {
			wreg(&b, 0x80, (uint32_t)CANARY);
			wreg(&b, 0x84, (uint32_t)(CANARY >> 32));
			lin_dma(&b, PKT_LIN_DMA_LIN | PKT_LIN_DMA_WRCOMP,
				user, ISO_USER_HBM, 64);
		}
		if (NEXT(i ? "class 3 (internal): non-linear LIN_DMA" :
			     "class 3 (external): non-linear LIN_DMA",
			 true, qs[i])) {
			/* The model runs linear transfers only: it stops. */
			lin_dma(&b, 0, user, ISO_USER_HBM, 4096);
			b.s->hw_blocks = false;
		}
	}
	/*
	 * Strided transfers over the shape the CB set (stream 0 only), and
	 * their twins.  The user's host page is 2 MiB (ISO_USER_SIZE).
	 */
	if (NEXT("legit: strided 2-D host -> HBM on DMA_0_0 (16 rows of 256 B)",
		 false, Q_EXT)) {
		shape(&b, 256, 16, 1, 4096, 0, 512, 0);
		lin_dma(&b, 0, user, ISO_USER_HBM, 256);
	}
	if (NEXT("legit: strided 3-D HBM -> host on DMA_2_0 (6 x 3 rows of 1 KiB)",
		 false, Q_INT)) {
		shape(&b, 1024, 6, 3, 2048, 6 * 2048 + 4096, 3072,
		      6 * 3072 + 512);
		lin_dma(&b, 0, ISO_USER_HBM, user + 0x1000, 1024);
	}
	if (NEXT("strided: far corner one byte past the user's host page",
		 true, Q_EXT)) {
		/* span 15 * 0x20000 + 0x1000 - 1: ends at the page end + 1 */
		shape(&b, 0x1000, 16, 1, 0x1000, 0, 0x20000, 0);
		lin_dma(&b, 0, ISO_USER_HBM, user + ISO_USER_SIZE -
			15 * 0x20000 - 0x1000 + 1, 0x1000);
	}
	if (NEXT("strided: a plane stride 4 MiB past the user's host page (internal)",
		 true, Q_INT)) {
		shape(&b, 64, 1, 2, 0, 0x10000, 0, 0x400000);
		lin_dma(&b, 0, ISO_USER_HBM, user, 64);
	}
	if (NEXT("strided: a source stride of 2^32 - 4 KiB (backwards to a signed core)",
		 true, Q_INT)) {
		shape(&b, 0x1000, 2, 1, 0xFFFFF000, 0, 0x1000, 0);
		lin_dma(&b, 0, ISO_USER_HBM, user, 0x1000);
	}
	if (NEXT("strided: shape from DMA_0_1, commit on DMA_0_0's core", true,
		 Q_EXT + 1)) {
		shape(&b, 0x1000, 16, 1, 0x100000, 0, 0x1000, 0);
		lin_dma(&b, 0, user, ISO_USER_HBM, 0x1000);
	}
	/*
	 * Habana's strided test programs the core by WREG_32 and commits by
	 * WREG_32 (the parser rewrites the commit into a LIN_DMA), with a
	 * write completion adding 1 to a user SOB; WREG_BULK sets a shape.
	 */
	if (NEXT("legit: strided 2-D by register COMMIT, completion to a user SOB (DMA_0_0)",
		 false, Q_EXT)) {
		reg_commit(&b, user, ISO_USER_HBM, 256);
		shape(&b, 256, 16, 1, 4096, 0, 512, 0);
		wr_comp(&b, USER_SOB);
		wreg(&b, DMA_CORE_COMMIT, DMA_COMMIT_WR_COMP_EN);
	}
	if (NEXT("legit: linear memset by register COMMIT on DMA_2_0", false,
		 Q_INT)) {
		reg_commit(&b, 0x5A5A5A5A, ISO_USER_HBM + 0x10000, 4096);
		wreg(&b, DMA_CORE_COMMIT, DMA_COMMIT_LIN | DMA_COMMIT_MEM_SET);
	}
	if (NEXT("legit: WREG_BULK of a shape, strided LIN_DMA on DMA_2_0",
		 false, Q_INT)) {
		static const uint32_t src[8] = { 6, 2048, 1, 0, 1, 0, 1, 0 };

		bulk(&b, DMA_CORE_SRC_TSIZE(1), src, 8);
		wreg(&b, DMA_CORE_SRC_TSIZE_0, 1024);
		bulk(&b, DMA_CORE_DST_TSIZE(1), src, 8);
		lin_dma(&b, 0, ISO_USER_HBM, user + 0x1000, 1024);
	}
	if (NEXT("register COMMIT: far corner one byte past the user's host page",
		 true, Q_EXT)) {
		reg_commit(&b, ISO_USER_HBM, user + ISO_USER_SIZE -
			   15 * 0x20000 - 0x1000 + 1, 0x1000);
		shape(&b, 0x1000, 16, 1, 0x1000, 0, 0x20000, 0);
		wreg(&b, DMA_CORE_COMMIT, 0);
	}
	if (NEXT("register COMMIT: strided into kernel HBM (internal)", true,
		 Q_INT)) {
		reg_commit(&b, user, KERNEL_HBM, 64);
		shape(&b, 64, 4, 1, 64, 0, 0x1000, 0);
		wreg(&b, DMA_CORE_COMMIT, 0);
	}
	if (NEXT("register COMMIT: completion to a driver SOB (W_S 10)", true,
		 Q_EXT)) {
		reg_commit(&b, user, ISO_USER_HBM, 64);
		wr_comp(&b, GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 40);
		wreg(&b, DMA_CORE_COMMIT, DMA_COMMIT_LIN | DMA_COMMIT_WR_COMP_EN);
		b.s->hw_blocks = false;	/* the holder's own: parser only */
	}
	if (NEXT("register COMMIT: completion to another process's page", true,
		 Q_INT)) {
		reg_commit(&b, user, ISO_USER_HBM, 64);
		wr_comp(&b, CANARY);
		wreg(&b, DMA_CORE_COMMIT, DMA_COMMIT_LIN | DMA_COMMIT_WR_COMP_EN);
	}
	if (NEXT("WREG_BULK: bases, size and COMMIT reading a canary page",
		 true, Q_EXT)) {
		const uint32_t v[4] = { (uint32_t)CANARY,
					(uint32_t)(CANARY >> 32),
					(uint32_t)user, (uint32_t)(user >> 32) };
		const uint32_t t[2] = { 4096, DMA_COMMIT_LIN };

		bulk(&b, DMA_CORE_SRC_BASE_LO, v, 4);
		bulk(&b, DMA_CORE_DST_TSIZE_0, t, 2);
	}
	if (NEXT("register COMMIT from DMA_0_1 (not the shape's stream)",
		 true, Q_EXT + 1)) {
		reg_commit(&b, user, ISO_USER_HBM, 4096);
		wreg(&b, DMA_CORE_COMMIT, DMA_COMMIT_LIN);
		b.s->hw_blocks = false;	/* user memory both: parser only */
	}
	/*
	 * LOAD_AND_EXE of scalars (hl-thunk's RF tests): the packet in the
	 * scalars, DMA'd to user SRAM first (here: the user memory bytes),
	 * executed on an internal queue; gaudi.ko runs the parsed packet
	 * in place of the LOAD_AND_EXE.
	 */
	if (NEXT("legit: scalar LOAD_AND_EXE of a MSG_LONG +1 to a user SOB (DMA_2_0)",
		 false, Q_INT))
		scalar_exe(&b, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 20,
			   SM_SOB_INC | 1, PKT_MSG_LONG);
	/*
	 * A predicate load of 128 bytes from SRAM + 6: from the head of SRAM
	 * (readable by the hardware, nothing of the driver's there) into the
	 * users' part.  The parser refuses the head; without it the read is
	 * allowed and must not count as a violation (the fuzzer's find).
	 */
	if (NEXT("LOAD_AND_EXE predicates from SRAM + 6, head into the users' part",
		 true, Q_INT)) {
		u32(&b, PKT_LOAD_AND_EXE_LOAD);
		u32(&b, CTL(PKT_LOAD_AND_EXE) | PKT_CTL_MB);
		u64(&b, GAUDI_SRAM_BASE + 6);
		b.s->hw_blocks = false;	/* hardware reads of SRAM are allowed */
	}
	if (NEXT("scalar LOAD_AND_EXE: a MSG_LONG to another process's page (internal)",
		 true, Q_INT))
		scalar_exe(&b, CANARY, 0x42, PKT_MSG_LONG);
	if (NEXT("scalar LOAD_AND_EXE: a MSG_PROT to kernel HBM (internal)",
		 true, Q_INT))
		scalar_exe(&b, KERNEL_HBM, 0x42, PKT_MSG_PROT);
	if (NEXT("scalar LOAD_AND_EXE: a MSG_LONG to another process's page (external)",
		 true, Q_EXT))
		scalar_exe(&b, CANARY, 0x42, PKT_MSG_LONG);
	if (NEXT("MSG_LONG to another process's page", true, Q_INT))
		msg_long(&b, CANARY, 0x42);
	if (NEXT("MSG_LONG to kernel HBM", true, Q_TPC))
		msg_long(&b, KERNEL_HBM, 0x42);
	if (NEXT("MSG_LONG to a driver SOB (W_S 10)", true, Q_MME)) {
		msg_long(&b, GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 40, 1);
		b.s->hw_blocks = false;	/* the holder's own: parser only */
	}
	if (NEXT("MSG_SHORT to a driver SOB (W_S base, SOB 10)", true, Q_INT)) {
		u32(&b, 1);
		u32(&b, CTL(PKT_MSG_SHORT) | 3U << 22 | 40 | PKT_CTL_MB);
		b.s->hw_blocks = false;
	}
	/*
	 * A protection-bit word of a block neither driver programs (past the
	 * E_N monitors) is as open as the block; clearing its own guard bit
	 * must be judged by the bits the write found (the fuzzer's find).
	 */
	if (NEXT("MSG_LONG closes the protection bits of an open block", true,
		 Q_EXT)) {
		msg_long(&b, GAUDI_CFG_BASE + 0x4FB000 + PROT_BITS_OFFS + 0x7C,
			 0x7FFFFFFF);
		b.s->hw_blocks = false;
	}
	/*
	 * The NIC's QP-context gateway and a port's doorbells: open
	 * protection bits, closed by the LBW range registers (issue 13).
	 */
	if (NEXT("MSG_LONG to NIC 0's QP-context gateway (GW_CTRL)", true,
		 Q_INT))
		msg_long(&b, GAUDI_CFG_BASE + GAUDI_NIC_QPC_REG(0, NIC_QPC_GW_CTRL),
			 QPC_GW_CTRL_REQUESTER | 1);
	if (NEXT("MSG_LONG to port 9's secured doorbell", true, Q_EXT))
		msg_long(&b, GAUDI_CFG_BASE +
			 GAUDI_NIC_QPC_REG(9, NIC_QPC_SECURED_DOORBELL_QPN),
			 QPC_DOORBELL_BUSY);
	if (NEXT("MSG_LONG to NIC 2's MAC core", true, Q_TPC))
		msg_long(&b, GAUDI_CFG_BASE + GAUDI_NIC_MACRO(2) +
			 NIC_MAC_CORE_OFFSET, 0);
	/*
	 * Only a NIC queue may ring, and only its own port's unsecured
	 * doorbell: the parser says so, and the range registers block the
	 * others (the NIC QMAN's own doorbell stays inside the macro).
	 */
	if (NEXT("TPC queue rings port 3's unsecured doorbell", true, Q_TPC))
		msg_long(&b, GAUDI_CFG_BASE +
			 GAUDI_NIC_QPC_REG(NIC3, NIC_QPC_UNSECURED_DOORBELL_QPN),
			 QPC_DOORBELL_BUSY | 5);
	if (NEXT("port 3's NIC queue rings port 2's doorbell", true, Q_NIC3))
		msg_long(&b, GAUDI_CFG_BASE +
			 GAUDI_NIC_QPC_REG(2, NIC_QPC_UNSECURED_DOORBELL_QPN),
			 QPC_DOORBELL_BUSY | 5);
	if (NEXT("port 3's NIC queue writes its QP-context gateway", true,
		 Q_NIC3))
		msg_long(&b, GAUDI_CFG_BASE +
			 GAUDI_NIC_QPC_REG(NIC3, NIC_QPC_GW_BUSY), 1);
	/*
	 * A QP number past the driver's tables: the engine must not read a
	 * context there (the fuzzer's find).  Nothing is blocked: the engine
	 * refuses the QPN before any access.
	 */
	if (NEXT("port 3's NIC queue rings QP 0x4005, past its tables", true,
		 Q_NIC3)) {
		doorbell(&b, NIC3, 0x4005);
		b.s->hw_blocks = false;
	}
	if (NEXT("port 3's NIC queue rings its secured doorbell", true, Q_NIC3))
		msg_long(&b, GAUDI_CFG_BASE +
			 GAUDI_NIC_QPC_REG(NIC3, NIC_QPC_SECURED_DOORBELL_QPN),
			 QPC_DOORBELL_BUSY);
	if (NEXT("MSG_LONG to the MMU's hop-0 register", true, Q_TPC))
		msg_long(&b, GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12, 0);
	if (NEXT("LIN_DMA of the page tables into user memory", true, Q_INT))
		lin_dma(&b, PKT_LIN_DMA_LIN, KERNEL_HBM, user, 4096);
	if (NEXT("LIN_DMA from another process's page (physical)", true, Q_INT))
		lin_dma(&b, PKT_LIN_DMA_LIN, CANARY, user, 4096);
	if (NEXT("LIN_DMA memset of the driver's SRAM", true, Q_INT))
		lin_dma(&b, PKT_LIN_DMA_LIN | PKT_LIN_DMA_MEMSET, 0,
			GAUDI_SRAM_BASE, 0x80);
	if (NEXT("user monitor with its payload at another process's page",
		 true, Q_INT))
		monitor_to(&b, CANARY, 0x43);
	if (NEXT("user monitor with its payload at the MMU's hop-0 register",
		 true, Q_TPC))
		monitor_to(&b, GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12, 0);

	/* Legitimate work the parser must accept. */
	if (NEXT("legit: LIN_DMA user memory -> user HBM", false, Q_EXT))
		lin_dma(&b, PKT_LIN_DMA_LIN, user, ISO_USER_HBM, 4096);
	if (NEXT("legit: LIN_DMA memset of user SRAM", false, Q_INT))
		lin_dma(&b, PKT_LIN_DMA_LIN | PKT_LIN_DMA_MEMSET, 0x5A5A5A5A,
			GAUDI_SRAM_BASE + 0x1000, 4096);
	if (NEXT("legit: MSG_SHORT adds to E_N SOB 5", false, Q_MME)) {
		u32(&b, 1U << 31 | 1);
		u32(&b, CTL(PKT_MSG_SHORT) | 1U << 22 | 20 | PKT_CTL_MB);
	}
	if (NEXT("legit: port 3's NIC queue rings its own doorbell", false,
		 Q_NIC3))
		doorbell(&b, NIC3, 5);
	if (NEXT("legit: E_N monitor feeds this stream's fence, FENCE waits",
		 false, Q_TPC)) {
		monitor_to(&b, GAUDI_CFG_BASE + mmTPC0_QM_BASE +
			   QM_CP_FENCE_RDATA(0, 0), 1);
		u32(&b, 1U << 16 | 1);		/* fence 0, target 1, dec 1 */
		u32(&b, CTL(PKT_FENCE));
	}

	/*
	 * Issue 23: Habana's userspace patterns.  A lower-CP chain: the
	 * upper CB's CP_DMA runs a CB the user wrote in its memory (host,
	 * SRAM at +0x2000, HBM); gaudi.ko runs a parsed copy.
	 */
	if (NEXT("legit: CP_DMA of a host CB that adds to E_N SOB 5", false,
		 Q_TPC)) {
		user_cb(&b);
		cp_dma(&b, user, 16);
		user_mem(&b);
		msg_long(&b, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 20,
			 1U << 31 | 1);
	}
	if (NEXT("legit: CP_DMA of an SRAM CB that copies user HBM to SRAM",
		 false, Q_INT)) {
		user_cb(&b);
		cp_dma(&b, GAUDI_SRAM_BASE + ISO_SRAM_CB, 24);
		user_mem(&b);
		lin_dma(&b, PKT_LIN_DMA_LIN, ISO_USER_HBM + 0x1000,
			GAUDI_SRAM_BASE + 0x10000, 256);
	}
	if (NEXT("legit: CP_DMA of an HBM CB on an MME queue", false, Q_MME)) {
		user_cb(&b);
		cp_dma(&b, ISO_USER_HBM, 16);
		user_mem(&b);
		msg_long(&b, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 24, 7);
	}
	/* Upstream refuses CP_DMA in the external CBs it parses; so do we. */
	if (NEXT("CP_DMA on an external queue", true, Q_EXT)) {
		user_cb(&b);
		cp_dma(&b, ISO_USER_HBM, 16);
		user_mem(&b);
		msg_long(&b, GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 24, 7);
		b.s->hw_blocks = false;
	}
	if (NEXT("CP_DMA of an SRAM CB that writes the MMU's hop-0 register",
		 true, Q_TPC)) {
		user_cb(&b);
		cp_dma(&b, GAUDI_SRAM_BASE + ISO_SRAM_CB, 16);
		user_mem(&b);
		msg_long(&b, GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12, 0);
	}
	if (NEXT("CP_DMA of a host CB whose LIN_DMA reads the page tables",
		 true, Q_INT)) {
		user_cb(&b);
		cp_dma(&b, user, 24);
		user_mem(&b);
		lin_dma(&b, PKT_LIN_DMA_LIN, KERNEL_HBM, user + 0x1000, 4096);
	}
	if (NEXT("CP_DMA of the driver's HBM (the page tables) as a CB", true,
		 Q_INT)) {
		cp_dma(&b, KERNEL_HBM, 64);
		b.s->hw_blocks = true;
	}
	if (NEXT("CP_DMA inside a CP_DMA target", true, Q_TPC)) {
		user_cb(&b);
		cp_dma(&b, user, 16);
		user_mem(&b);
		cp_dma(&b, user, 16);
		b.s->hw_blocks = false;	/* the model's lower CP refuses it */
	}
	/* Arbitration of the queue's own QMAN, as hl-thunk's tests set it. */
	if (NEXT("legit: WRR arbitration of DMA 0's QMAN from DMA_0_0", false,
		 Q_EXT)) {
		msg_long(&b, GAUDI_CFG_BASE + mmDMA0_QM_BASE + QM_ARB_CFG_0,
			 QM_ARB_CFG_0_TYPE_WRR | QM_ARB_CFG_0_IS_MASTER |
			 QM_ARB_CFG_0_EN);
		msg_long(&b, GAUDI_CFG_BASE + mmDMA0_QM_BASE +
			 QM_ARB_MST_QUIET_PER, 0x10);
		msg_long(&b, GAUDI_CFG_BASE + mmDMA0_QM_BASE +
			 QM_ARB_WRR_WEIGHT(1), 4);
	}
	if (NEXT("arbitration of another engine's QMAN (DMA 2's from TPC 0)",
		 true, Q_TPC)) {
		msg_long(&b, GAUDI_CFG_BASE + mmDMA0_QM_BASE +
			 2 * GAUDI_DMA_STRIDE + QM_ARB_CFG_0,
			 QM_ARB_CFG_0_IS_MASTER | QM_ARB_CFG_0_EN);
		b.s->hw_blocks = false;	/* open to users on silicon too */
	}
	if (NEXT("arbitration: the arbiter's AXI user bits of its own QMAN",
		 true, Q_EXT))
		msg_long(&b, GAUDI_CFG_BASE + mmDMA0_QM_BASE + 0xB44, 0);
	return n;
#undef NEXT
}
