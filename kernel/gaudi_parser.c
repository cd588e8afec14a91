// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the command-buffer parser (an allowlist).
 *
 * A user CB runs on a QMAN stream with the user's ASID, but a QMAN can
 * write any register and, through its DMA core, any device or host
 * physical address.  The parser is one of the layers that keep a user in
 * its own memory: it accepts a CB only if every packet is of a type users
 * may issue, every field has a value this file knows to be harmless, and
 * every address a packet names is the user's.  Everything not allowed
 * here is refused; Documentation/accel/parser.rst gives each rule with its
 * reason.  Errors:
 *
 *   -EPERM   a packet, option or register users may not use
 *   -EINVAL  a malformed CB (size, truncated or undefined packet, reserved
 *            bits set) or an address that is not the user's
 *
 * The CB is parsed linearly from offset 0.  That is what the command
 * processor executes only because nothing that moves its read pointer
 * within the CB is allowed (REPEAT; LOAD_AND_EXE's execute), so the CP
 * never lands inside a packet the parser saw as data.  CP_DMA runs another
 * CB on the lower CP and comes back: it is allowed only when the caller
 * snapshots that CB, parses the copy as a lower CB and points the packet
 * at the copy (cfg->cp_dma), so the lower CP too runs only parsed bytes.
 *
 * Pure: no device, no lock, no allocation.  It builds in the kernel and on
 * the host (tests/kernel/ supplies the few <linux/...> headers it uses).
 */
#include <linux/array_size.h>
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/types.h>

#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi1/packets.h"
#include "gaudi1/nic.h"
#include "gaudi_layout.h"
#include "gaudi_parser.h"

#define CFG_HI		((u32)(GAUDI_CFG_BASE >> 32))
/* A LOAD_AND_EXE of predicates reads 32 words (Documentation/emulator/model.rst). */
#define GAUDI_PRED_LOAD_SIZE	128

/* Packet sizes (gaudi1/packets.h); 0 = undefined opcode. */
static const u8 gaudi_pkt_size[PKT_NUM_OPCODES] = PKT_SIZES;

static const char * const gaudi_pkt_name[32] = {
	[PKT_WREG_32] = "WREG_32", [PKT_WREG_BULK] = "WREG_BULK",
	[PKT_MSG_LONG] = "MSG_LONG", [PKT_MSG_SHORT] = "MSG_SHORT",
	[PKT_CP_DMA] = "CP_DMA", [PKT_REPEAT] = "REPEAT",
	[PKT_MSG_PROT] = "MSG_PROT", [PKT_FENCE] = "FENCE",
	[PKT_LIN_DMA] = "LIN_DMA", [PKT_NOP] = "NOP", [PKT_STOP] = "STOP",
	[PKT_ARB_POINT] = "ARB_POINT", [PKT_WAIT] = "WAIT",
	[PKT_LOAD_AND_EXE] = "LOAD_AND_EXE",
};

const char *gaudi_parser_pkt_name(u32 opcode)
{
	if (opcode < 32 && gaudi_pkt_name[opcode])
		return gaudi_pkt_name[opcode];
	return "undefined packet";
}

/*
 * Bits of the two header words that must be zero, per packet (reserved in
 * gaudi_packets.h).  The barriers (ctl 31:29) are always allowed: they
 * only make the CP wait.  Predicates (ctl 4:0 where the packet has one)
 * are allowed: a predicate can only make the CP skip a packet, and every
 * packet here is safe on its own, executed or skipped, in any order.
 */
static const u32 gaudi_pkt_rsvd_w0[32] = {
	[PKT_WREG_BULK] = GENMASK(31, 16),
	[PKT_NOP] = GENMASK(31, 0),
	[PKT_FENCE] = GENMASK(15, 4) | GENMASK(29, 24),
	[PKT_WAIT] = GENMASK(31, 30),
	[PKT_ARB_POINT] = GENMASK(30, 8),
	[PKT_LOAD_AND_EXE] = GENMASK(7, 1) | GENMASK(31, 11),
};

static const u32 gaudi_pkt_rsvd_ctl[32] = {
	[PKT_WREG_32] = GENMASK(7, 5),
	[PKT_WREG_BULK] = GENMASK(7, 5),
	[PKT_CP_DMA] = GENMASK(23, 5),
	[PKT_MSG_LONG] = GENMASK(15, 5) | GENMASK(19, 18) | GENMASK(23, 22),
	[PKT_MSG_SHORT] = GENMASK(19, 18),
	[PKT_FENCE] = GENMASK(23, 5),
	[PKT_LIN_DMA] = GENMASK(15, 7),
	[PKT_NOP] = GENMASK(23, 0),
	[PKT_ARB_POINT] = GENMASK(23, 5),
	[PKT_WAIT] = GENMASK(23, 0),
	[PKT_LOAD_AND_EXE] = GENMASK(23, 5),
};

/* ---- WREG_32: the registers a user may write ---------------------------- */

/*
 * WREG_32 names a register by a 16-bit offset in the 64 KiB window of the
 * queue's engine (the QMAN base rounded down to 64 KiB, where the engine's
 * own block starts; the QMAN sits at +0x8000).  A run allows the
 * registers r of [start, end) with (r - start) % period in [lo, hi).
 *
 * Nothing that carries an address (the engine would read or write it
 * without the parser seeing where), starts an engine (it would run with
 * addresses the user could not set), or sets protection, ASID, MMU bypass,
 * AXI user bits, rate limits, interrupts or debug state.  Offsets and names
 * from the upstream driver's asic_reg/tpc0_cfg_regs.h and
 * mme0_ctrl_regs.h; the same layout repeats for every TPC and MME.
 */
struct gaudi_wreg_run {
	u16 start, end, period, lo, hi;
	const char *name;
};

/*
 * DMA queues: of the DMA core's registers only the bases, the shape of a
 * strided transfer and the write completion, tracked through the CB
 * (gaudi_shape_reg()), and COMMIT, which becomes a LIN_DMA
 * (gaudi_commit_reg()).  PROT, PROPS and the rest steer transfers the
 * parser would never see.
 */

/* TPC n: the TPC CFG block at window + 0x6000. */
static const struct gaudi_wreg_run gaudi_wreg_tpc[] = {
	/*
	 * KERNEL_TENSOR_0..7 (0x38 bytes each): PADDING_VALUE, TENSOR_CONFIG,
	 * DIM_0..4_SIZE and _STRIDE; not BASE_ADDR_LOW/HIGH (+0x0, +0x4).
	 */
	{ 0x6400, 0x6400 + 8 * 0x38, 0x38, 0x08, 0x38,
	  "TPC_CFG_KERNEL_TENSOR_n_{PADDING_VALUE,TENSOR_CONFIG,DIM_k_SIZE,DIM_k_STRIDE}" },
	/*
	 * KERNEL_TID_BASE/SIZE_DIM_0..4, KERNEL_CONFIG, KERNEL_ID; not
	 * SYNC_OBJECT_MESSAGE/ADDR (0x6780/4: where the TPC writes when a
	 * kernel ends) nor KERNEL_BASE_ADDRESS_LOW/HIGH (0x6788/C).
	 */
	{ 0x6790, 0x67C0, 0, 0, 0,
	  "TPC_CFG_KERNEL_{TID_BASE_DIM_k,TID_SIZE_DIM_k,KERNEL_CONFIG,KERNEL_ID}" },
	/* KERNEL_SRF_0..31: the kernel's scalar arguments. */
	{ 0x67C0, 0x6840, 0, 0, 0, "TPC_CFG_KERNEL_SRF_0..31" },
	/* The QM_ copies of the same (what the QMAN path loads). */
	{ 0x6A00, 0x6A00 + 8 * 0x38, 0x38, 0x08, 0x38,
	  "TPC_CFG_QM_TENSOR_n_{PADDING_VALUE,TENSOR_CONFIG,DIM_k_SIZE,DIM_k_STRIDE}" },
	{ 0x6D90, 0x6DC0, 0, 0, 0,
	  "TPC_CFG_QM_{TID_BASE_DIM_k,TID_SIZE_DIM_k,KERNEL_CONFIG,KERNEL_ID}" },
	{ 0x6DC0, 0x6E40, 0, 0, 0, "TPC_CFG_QM_SRF_0..31" },
	/*
	 * Not TPC_CMD, TPC_EXECUTE (start a kernel at a base address users
	 * cannot set), PROT, ARUSER/AWUSER (ASID, MMU bypass), ICACHE and
	 * LUT base addresses, CFG/SM_BASE_ADDRESS_HIGH, rate limits, MSS,
	 * interrupt, DBGMEM or MBIST registers.
	 */
};

/*
 * MME n: the MME CTRL block at window + 0.  A descriptor is ARCH_* at
 * 0x000 (the one the MME runs) or SHADOW_0..3_* at 0x400 + 0x280 * i,
 * the same layout in each.  Allowed in a descriptor: HEADER_LOW (0x20)
 * through DESC_RATE_LIMITER (0x1D8): loop counts, valid elements, strides,
 * ROI sizes and offsets relative to the tensor bases; and
 * DESC_PADDING_VALUE_S/L (0x204, 0x208).  Not BASE_ADDR_HIGH/LOW_S/L/O
 * (0x08..0x1C), DESC_SYNC_OBJECT_ADDR_* and _DATA (0x1DC..0x1E8, where the
 * MME signals), DESC_AXI_USER_DATA (0x1EC), DESC_PERF_EVT_* (0x1F0..0x200),
 * DESC_META_DATA_AGU_* (0x20C..0x21C), DESC_PCU_RL_SATURATION (0x220),
 * DESC_DUMMY (0x224), nor CMD (0x280, starts the MME) and the control
 * registers after it.
 */
static const struct gaudi_wreg_run gaudi_wreg_mme[] = {
	{ 0x0020, 0x01DC, 0, 0, 0,
	  "MME_CTRL_ARCH_HEADER_LOW..ARCH_DESC_RATE_LIMITER" },
	{ 0x0204, 0x020C, 0, 0, 0, "MME_CTRL_ARCH_DESC_PADDING_VALUE_S/L" },
	{ 0x0400, 0x0400 + 4 * 0x280, 0x280, 0x020, 0x1DC,
	  "MME_CTRL_SHADOW_i_HEADER_LOW..SHADOW_i_DESC_RATE_LIMITER" },
	{ 0x0400, 0x0400 + 4 * 0x280, 0x280, 0x204, 0x20C,
	  "MME_CTRL_SHADOW_i_DESC_PADDING_VALUE_S/L" },
};

static bool gaudi_wreg_in(const struct gaudi_wreg_run *t, unsigned int n,
			  u32 reg)
{
	unsigned int i;
	u32 d;

	for (i = 0; i < n; i++) {
		if (reg < t[i].start || reg >= t[i].end)
			continue;
		if (!t[i].period)
			return true;
		d = (reg - t[i].start) % t[i].period;
		if (d >= t[i].lo && d < t[i].hi)
			return true;
	}
	return false;
}

/*
 * On every engine: the CP fence counters of the queue's own stream and of
 * its QMAN's lower CP (QMAN CP_FENCE0..3_RDATA_s and CP_FENCE0..3_CNT_s,
 * s = the stream or 4, dma0_qm_regs.h): state FENCE and WAIT already
 * change; a wrong value only stalls or releases the holder's own fences
 * (every stream of a user QMAN is the holder's; the driver zeroes them
 * for the next one, gaudi_queue_clear_fences()).
 */
static bool gaudi_wreg_ok(const struct gaudi_parser_cfg *cfg, u32 reg)
{
	u32 qm = cfg->qm_base & 0xFFFF, f;

	for (f = 0; f < 4; f++)
		if (reg == qm + QM_CP_FENCE_RDATA(f, cfg->stream) ||
		    reg == qm + QM_CP_FENCE_CNT(f, cfg->stream) ||
		    reg == qm + QM_CP_FENCE_RDATA(f, QM_LOWER_CP) ||
		    reg == qm + QM_CP_FENCE_CNT(f, QM_LOWER_CP))
			return true;
	switch (cfg->engine) {
	case GAUDI_ENGINE_TPC:
		return gaudi_wreg_in(gaudi_wreg_tpc, ARRAY_SIZE(gaudi_wreg_tpc),
				     reg);
	case GAUDI_ENGINE_MME:
		return gaudi_wreg_in(gaudi_wreg_mme, ARRAY_SIZE(gaudi_wreg_mme),
				     reg);
	default:
		return false;
	}
}

/* ---- addresses -------------------------------------------------------- */

static bool gaudi_in_range(u64 a, u64 len, u64 start, u64 end)
{
	return a >= start && a < end && len <= end - a;
}

/*
 * User memory: user SRAM and user HBM (physical), or a range of the host
 * virtual window that one mapping of the context covers.  An empty range
 * is checked as one byte, so that its address is the user's too.
 */
static bool gaudi_user_mem(const struct gaudi_parser_cfg *cfg, u64 a, u64 len)
{
	if (!len)
		len = 1;
	if (gaudi_in_range(a, len, GAUDI_SRAM_USER_START, GAUDI_SRAM_END) ||
	    gaudi_in_range(a, len, GAUDI_DRAM_USER_START, GAUDI_HBM_SIZE))
		return true;
	return gaudi_in_range(a, len, GAUDI_VA_HOST_START, GAUDI_VA_HOST_END) &&
	       cfg->mapped && cfg->mapped(cfg->priv, a, len);
}

/*
 * The four sync managers and the first SOB and monitor of each that
 * belong to users.  E_N, E_S and W_N are the user's entirely: upstream
 * clears them on a context switch and Habana's userspace uses them from
 * index 0.  In W_S upstream keeps SOBs 0..143 and monitors 0..71 for
 * itself (first_available_user_sob/mon); so do we (signal/wait CSs).
 */
static const struct {
	u32 base;
	u32 first_sob;
	u32 first_mon;
} gaudi_sm[] = {
	{ mmSYNC_MNGR_E_N_SOB_OBJ_0, 0, 0 },
	{ mmSYNC_MNGR_E_S_SOB_OBJ_0, 0, 0 },
	{ mmSYNC_MNGR_W_N_SOB_OBJ_0, 0, 0 },
	{ mmSYNC_MNGR_W_S_SOB_OBJ_0, GAUDI_FIRST_USER_SOB, GAUDI_FIRST_USER_MON },
};

enum gaudi_sm_reg {
	SM_REG_SOB,
	SM_REG_PAY_ADDRL,
	SM_REG_PAY_ADDRH,
	SM_REG_PAY_DATA,
	SM_REG_ARM,
	SM_REG_STATUS,
};

/* Which sync-manager register @a (aligned) is; -1 if none. */
static int gaudi_sm_decode(u64 a, enum gaudi_sm_reg *reg, u32 *idx)
{
	unsigned int i;
	u64 rel;

	for (i = 0; i < ARRAY_SIZE(gaudi_sm); i++) {
		if (a < GAUDI_CFG_BASE + gaudi_sm[i].base ||
		    a >= GAUDI_CFG_BASE + gaudi_sm[i].base + SM_BLOCK_END)
			continue;
		rel = a - GAUDI_CFG_BASE - gaudi_sm[i].base;
		if (rel < SM_SOBS_SIZE) {
			*reg = SM_REG_SOB;
			*idx = rel / 4;
		} else {
			rel -= SM_MON_PAY_ADDRL(0);
			*reg = SM_REG_PAY_ADDRL + rel / (4 * SM_NUM_MONS);
			*idx = rel / 4 % SM_NUM_MONS;
		}
		return i;
	}
	return -1;
}

static bool gaudi_user_sob(u64 a)
{
	enum gaudi_sm_reg reg;
	u32 idx;
	int b;

	if (a & 3)
		return false;
	b = gaudi_sm_decode(a, &reg, &idx);
	return b >= 0 && reg == SM_REG_SOB && idx >= gaudi_sm[b].first_sob;
}

/*
 * Where a user monitor may write: a user SOB, or the CP fence counter
 * (CP_FENCE0..3_RDATA of streams 0..3 and of the lower CP, 4) of a QMAN
 * the caller lists.
 */
static bool gaudi_mon_target_ok(const struct gaudi_parser_cfg *cfg, u64 a)
{
	u32 i, f, st;
	u64 qm;

	if (a & 3)
		return false;
	if (gaudi_user_sob(a))
		return true;
	for (i = 0; i < cfg->num_fence_qm; i++) {
		qm = GAUDI_CFG_BASE + cfg->fence_qm[i];
		for (f = 0; f < 4; f++)
			for (st = 0; st <= QM_LOWER_CP; st++)
				if (a == qm + QM_CP_FENCE_RDATA(f, st))
					return true;
	}
	return false;
}

/*
 * The DMA core registers a CB on stream 0 may write, tracked through the
 * CB (dma0_core_regs.h; the core starts the window): SRC_BASE_LO/HI,
 * DST_BASE_LO/HI (0x014..0x020), the shape SRC_TSIZE_1..4 and
 * SRC_STRIDE_1..4 (0x02C..0x048), SRC_TSIZE_0 (0x04C), DST_TSIZE_1..4 and
 * DST_STRIDE_1..4 (0x054..0x070), DST_TSIZE_0 (0x074), and the write
 * completion WR_COMP_WDATA, WR_COMP_ADDR_LO/HI (0x07C..0x084).  Slot
 * (reg - 0x014) / 4; 0x024, 0x028, 0x050 are no registers and COMMIT
 * (0x078) is a commit (gaudi_commit_reg()).
 */
#define GAUDI_CORE_FIRST	DMA_CORE_SRC_BASE_LO
#define GAUDI_SHAPE_SLOT(reg)	(((reg) - GAUDI_CORE_FIRST) / 4)
#define GAUDI_SHAPE_SLOTS	(GAUDI_SHAPE_SLOT(DMA_CORE_WR_COMP_ADDR_HI) + 1)
#define GAUDI_SLOTS(a, b)	GENMASK(GAUDI_SHAPE_SLOT(b), GAUDI_SHAPE_SLOT(a))
#define GAUDI_CORE_SRC_BASE	GAUDI_SLOTS(DMA_CORE_SRC_BASE_LO, \
					    DMA_CORE_SRC_BASE_HI)
#define GAUDI_CORE_DST_BASE	GAUDI_SLOTS(DMA_CORE_DST_BASE_LO, \
					    DMA_CORE_DST_BASE_HI)
#define GAUDI_CORE_TSIZE0	BIT(GAUDI_SHAPE_SLOT(DMA_CORE_DST_TSIZE_0))
#define GAUDI_CORE_WRCOMP	GAUDI_SLOTS(DMA_CORE_WR_COMP_WDATA, \
					    DMA_CORE_WR_COMP_ADDR_HI)
/* What a strided memset reads: the destination side but DST_TSIZE_0. */
#define GAUDI_SHAPE_MEMSET	GAUDI_SLOTS(DMA_CORE_DST_TSIZE(1), \
					    DMA_CORE_DST_STRIDE(4))
/* What a strided copy reads: both sides but DST_TSIZE_0. */
#define GAUDI_SHAPE_COPY	(GAUDI_SLOTS(DMA_CORE_SRC_TSIZE(1), \
					     DMA_CORE_SRC_TSIZE_0) | \
				 GAUDI_SHAPE_MEMSET)
/* What a LIN_DMA packet writes itself (then COMMIT). */
#define GAUDI_CORE_BY_LIN_DMA	(GAUDI_CORE_SRC_BASE | GAUDI_CORE_DST_BASE | \
				 GAUDI_CORE_TSIZE0)
#define GAUDI_CORE_TRACKED	(GAUDI_CORE_BY_LIN_DMA | GAUDI_SHAPE_COPY | \
				 GAUDI_CORE_WRCOMP)
/* The only stream whose (upper) CBs may set these registers. */
#define GAUDI_STRIDED_STREAM	0
/* A COMMIT's rewritten run of register writes: at most 32 packets. */
#define GAUDI_COMMIT_RUN	256

struct gaudi_parse_state {
	const struct gaudi_parser_cfg *cfg;
	struct gaudi_parser_err *err;
	const u8 *cb;
	/* the tracked core registers this CB wrote so far, and which */
	u32 shape[GAUDI_SHAPE_SLOTS];
	u32 shape_written;
	/*
	 * The current run of tracked WREG_32 packets: the offsets of its
	 * last two that write a register a LIN_DMA writes itself, and how
	 * many it has (gaudi_commit_reg()).  @core_pkt: the packet being
	 * checked was such a WREG_32.
	 */
	u32 run_drop[2];
	u32 run_ndrop;
	bool core_pkt;
	/* the scalars R0..R3 a LOAD_AND_EXE of this CB loaded */
	u32 scalar[4];
	bool scalars_loaded;
};

static int gaudi_refuse(struct gaudi_parser_err *err, int ret,
			const char *reason, u64 value)
{
	err->reason = reason;
	err->value = value;
	return ret;
}

/*
 * Arbitration between the streams of the CB's own QMAN (DMA, MME, TPC):
 * ARB_CFG_0 with only the type (priority or WRR), is-master and enable
 * bits, the four WRR weights and the master's quiet period between grants,
 * any value.  They only order the holder's own streams of this QMAN (one
 * holder per card); the driver puts them back for the next holder
 * (gaudi_queue_clear_fences()).  Not the mask, the master's credits,
 * slaves, base address or AXI user bits of the arbiter, nor another
 * QMAN's arbiter.  @off is relative to the QMAN.
 * Return: 1 not an arbitration register of this QMAN, 0 allowed, or the
 * refusal.
 */
static int gaudi_arb_reg(struct gaudi_parse_state *ps, u32 off, u32 value)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	u32 s;

	if (cfg->engine == GAUDI_ENGINE_NIC)
		return 1;
	if (off == QM_ARB_CFG_0) {
		if (value & ~(QM_ARB_CFG_0_TYPE_WRR | QM_ARB_CFG_0_IS_MASTER |
			      QM_ARB_CFG_0_EN))
			return gaudi_refuse(ps->err, -EPERM,
					    "arbitration field not allowed",
					    value);
		return 0;
	}
	for (s = 0; s < 4; s++)
		if (off == QM_ARB_WRR_WEIGHT(s))
			return 0;
	return off == QM_ARB_MST_QUIET_PER ? 0 : 1;
}

/*
 * The target of a MSG_LONG/MSG_SHORT.  Op 0 writes @value (4 bytes), op 1
 * a 64-bit timestamp.  Allowed:
 *  - user memory (a timestamp only there: 8 uncontrolled bytes would
 *    span two sync-manager registers);
 *  - a user SOB, any value (set or add: the SOB is the user's);
 *  - the SOB of the submission's encapsulated signals: add only (the
 *    driver's wait CSs count on it only ever growing);
 *  - a user monitor: PAY_ADDRH only CFG_BASE's high word and PAY_ADDRL
 *    only the low word of a user SOB or a listed fence counter, so that
 *    whatever order the halves are written in (or whether one is
 *    skipped) the monitor only writes there; the driver points every
 *    user monitor at a user SOB before a context starts.  PAY_DATA and
 *    ARM any value (ARM only names SOBs to watch; watching reads);
 *    STATUS only its valid and pending bits;
 *  - the arbitration registers of its own QMAN (gaudi_arb_reg());
 *  - on a NIC queue, its own port's unsecured doorbell: PI any 22-bit
 *    value, QPN BUSY with a connection's QP number (2..1023).  The port's
 *    QPs above 1 are all the holder's (one holder per card); an unused one
 *    only makes a QP error, and the engine runs no raw QP (QP 0, the
 *    kernel's Ethernet queue) from this doorbell.
 */
static int gaudi_nic_doorbell(struct gaudi_parse_state *ps, u64 a, u32 value)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	u64 pi = GAUDI_CFG_BASE +
		 GAUDI_NIC_QPC_REG(cfg->nic_port, NIC_QPC_UNSECURED_DOORBELL_PI);

	if (a == pi) {
		if (value & ~QPC_DOORBELL_PI)
			return gaudi_refuse(ps->err, -EINVAL,
					    "doorbell PI beyond 22 bits", value);
		return 0;
	}
	if (value & ~(QPC_DOORBELL_BUSY | QPC_DOORBELL_QPN) ||
	    !(value & QPC_DOORBELL_BUSY) ||
	    (value & QPC_DOORBELL_QPN) < GAUDI_NIC_USER_FIRST_QP ||
	    (value & QPC_DOORBELL_QPN) >= GAUDI_NIC_USER_QPS)
		return gaudi_refuse(ps->err, -EINVAL,
				    "doorbell QPN not BUSY and a connection's QP",
				    value);
	return 0;
}

static bool gaudi_is_nic_doorbell(const struct gaudi_parser_cfg *cfg, u64 a)
{
	return cfg->engine == GAUDI_ENGINE_NIC &&
	       (a == GAUDI_CFG_BASE +
		     GAUDI_NIC_QPC_REG(cfg->nic_port,
				       NIC_QPC_UNSECURED_DOORBELL_PI) ||
		a == GAUDI_CFG_BASE +
		     GAUDI_NIC_QPC_REG(cfg->nic_port,
				       NIC_QPC_UNSECURED_DOORBELL_QPN));
}

static int gaudi_msg_target(struct gaudi_parse_state *ps, u64 a, u32 op,
			    u32 value)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	enum gaudi_sm_reg reg;
	u32 idx;
	int b;

	if (op == PKT_MSG_OP_TIMESTAMP) {
		if (gaudi_user_mem(cfg, a, 8))
			return 0;
		return gaudi_refuse(ps->err, -EINVAL,
				    "timestamp not to user memory", a);
	}
	if (gaudi_user_mem(cfg, a, 4))
		return 0;
	if (gaudi_is_nic_doorbell(cfg, a))
		return gaudi_nic_doorbell(ps, a, value);
	if (cfg->encaps_sob &&
	    a == GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * cfg->encaps_sob) {
		if (value & SM_SOB_INC)
			return 0;
		return gaudi_refuse(ps->err, -EINVAL,
				    "encapsulated-signal SOB may only be added to",
				    a);
	}
	if (a >= GAUDI_CFG_BASE + cfg->qm_base &&
	    a < GAUDI_CFG_BASE + cfg->qm_base + QM_BLOCK_SIZE && !(a & 3)) {
		b = gaudi_arb_reg(ps, a - GAUDI_CFG_BASE - cfg->qm_base, value);
		if (b <= 0)
			return b;
	}
	b = (a & 3) ? -1 : gaudi_sm_decode(a, &reg, &idx);
	if (b < 0)
		return gaudi_refuse(ps->err, -EINVAL, "address not allowed", a);
	if (reg == SM_REG_SOB) {
		if (idx >= gaudi_sm[b].first_sob)
			return 0;
		return gaudi_refuse(ps->err, -EINVAL, "SOB of the driver", a);
	}
	if (idx < gaudi_sm[b].first_mon)
		return gaudi_refuse(ps->err, -EINVAL, "monitor of the driver", a);
	switch (reg) {
	case SM_REG_PAY_ADDRL:
		if (gaudi_mon_target_ok(cfg, (u64)CFG_HI << 32 | value))
			return 0;
		return gaudi_refuse(ps->err, -EINVAL,
				    "monitor payload not a user SOB or fence counter",
				    (u64)CFG_HI << 32 | value);
	case SM_REG_PAY_ADDRH:
		if (value == CFG_HI)
			return 0;
		return gaudi_refuse(ps->err, -EINVAL,
				    "monitor payload high word not the CFG space",
				    value);
	case SM_REG_STATUS:
		if (!(value & ~(SM_MON_STATUS_VALID | SM_MON_STATUS_PENDING)))
			return 0;
		return gaudi_refuse(ps->err, -EINVAL,
				    "monitor status reserved bits set", value);
	default:	/* PAY_DATA, ARM */
		return 0;
	}
}

/* ---- packets ------------------------------------------------------------ */

/* The MSG_SHORT bases the driver programs (gaudi_queue.c). */
static const u32 gaudi_msg_short_base[4] = {
	mmSYNC_MNGR_E_N_SOB_OBJ_0 + SM_MON_PAY_ADDRL(0),
	mmSYNC_MNGR_E_N_SOB_OBJ_0,
	mmSYNC_MNGR_W_S_SOB_OBJ_0 + SM_MON_PAY_ADDRL(0),
	mmSYNC_MNGR_W_S_SOB_OBJ_0,
};

static u32 gaudi_rd32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static void gaudi_wr32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * A write of @value to a tracked register of the queue's own DMA core (@reg
 * in the window, GAUDI_CORE_TRACKED) by a WREG_32 (@bulk false) or a
 * WREG_BULK.  Only the upper CP of stream GAUDI_STRIDED_STREAM may write
 * them: the four streams and the lower CP of a QMAN share one core, and
 * CPs interleave packet by packet, so a value one CB checked could
 * otherwise be changed by another CB before the commit.  One CP runs its
 * CBs in order, so what this CB wrote is what the core holds at this CB's
 * commit, but for the bases and DST_TSIZE_0, which every CP's LIN_DMA
 * writes: the only commit users have is a LIN_DMA, which writes them
 * itself (a COMMIT register write becomes one, gaudi_commit_reg()).  @ctl
 * is the packet's control word.
 * Return: 1 not such a register, 0 recorded, or the refusal.
 */
static int gaudi_shape_reg(struct gaudi_parse_state *ps, u32 reg, u32 value,
			   u32 ctl, bool bulk)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	u32 slot;

	if (cfg->engine != GAUDI_ENGINE_DMA || reg < GAUDI_CORE_FIRST ||
	    reg > DMA_CORE_WR_COMP_ADDR_HI)
		return 1;
	slot = GAUDI_SHAPE_SLOT(reg);
	if (!(BIT(slot) & GAUDI_CORE_TRACKED))
		return 1;
	if (cfg->lower || cfg->stream != GAUDI_STRIDED_STREAM)
		return gaudi_refuse(ps->err, -EPERM,
				    "DMA core registers only from stream 0's CBs",
				    reg);
	/*
	 * A predicated write may be skipped: the core would keep a value
	 * the parser never saw.
	 */
	if (ctl & PKT_CTL_PRED)
		return gaudi_refuse(ps->err, -EPERM,
				    "predicated DMA core register", reg);
	ps->shape[slot] = value;
	ps->shape_written |= BIT(slot);
	if (bulk)
		return 0;
	ps->core_pkt = true;
	if (BIT(slot) & GAUDI_CORE_BY_LIN_DMA) {
		ps->run_drop[0] = ps->run_drop[1];
		ps->run_drop[1] = ps->err->offset;
		if (ps->run_ndrop < 2)
			ps->run_ndrop++;
	}
	return 0;
}

/*
 * The highest byte offset one side of a strided transfer reaches:
 * (TSIZE_0 - 1) + sum over k of (TSIZE_k - 1) * STRIDE_k, with @tsize0
 * the bytes per row and @slot the side's first slot (SRC_TSIZE_1 or
 * DST_TSIZE_1; STRIDE_k follows TSIZE_k).  Counts must be at least 1
 * (what 0 means is not known) and strides below 2^31 (a core that took
 * them as signed walks the same addresses), so that every address lies in
 * [base, base + span].  The byte count goes to @bytes.
 * Return: 0, or the refusal.
 */
static int gaudi_shape_span(struct gaudi_parse_state *ps, u32 tsize0,
			    u32 slot, u64 *span, u64 *bytes)
{
	u32 k, n, stride;
	u64 term;

	if (!tsize0)
		return gaudi_refuse(ps->err, -EINVAL,
				    "strided transfer with rows of 0 bytes", 0);
	*span = tsize0 - 1;
	*bytes = tsize0;
	for (k = 0; k < 4; k++) {
		n = ps->shape[slot + 2 * k];
		stride = ps->shape[slot + 2 * k + 1];
		if (!n)
			return gaudi_refuse(ps->err, -EINVAL,
					    "strided transfer with a count of 0",
					    k + 1);
		if (stride & BIT(31))
			return gaudi_refuse(ps->err, -EINVAL,
					    "stride of 2^31 or more", stride);
		/* < 2^32 * 2^31: no overflow; the sum is checked. */
		term = (u64)(n - 1) * stride;
		if (term > ~0ULL - *span || *bytes > ~0ULL / n)
			return gaudi_refuse(ps->err, -EINVAL,
					    "strided transfer beyond 2^64", k + 1);
		*span += term;
		*bytes *= n;
	}
	return 0;
}

/*
 * A commit reads the tracked core registers @need: only where
 * gaudi_shape_reg() lets CBs write them (else @off_stream) and only if
 * this CB wrote all of them earlier (else @unwritten): what an earlier CB,
 * CS or holder left in the core is never assumed.
 */
static int gaudi_core_read(struct gaudi_parse_state *ps, u32 need,
			   const char *off_stream, const char *unwritten)
{
	if (ps->cfg->lower || ps->cfg->stream != GAUDI_STRIDED_STREAM)
		return gaudi_refuse(ps->err, -EPERM, off_stream, 0);
	if ((ps->shape_written & need) != need)
		return gaudi_refuse(ps->err, -EPERM, unwritten,
				    need & ~ps->shape_written);
	return 0;
}

/*
 * A LIN_DMA with the linear bit clear: the core walks the shape registers
 * (byte i0 + TSIZE_0 * (i1 + n1 * (i2 + ...)) at BASE + i0 + sum ik *
 * STRIDE_k on each side).  Allowed only where gaudi_shape_reg() lets a CB
 * set the shape, with every register the transfer reads written earlier
 * in this CB (what earlier CBs or holders left there is unknown), both
 * sides the same byte count (the core fails the transfer otherwise), and
 * each side's whole footprint, every byte any index reaches, user memory.
 */
static int gaudi_check_strided(struct gaudi_parse_state *ps, const u32 *w,
			       u64 src, u64 dst)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	bool memset = w[1] & PKT_LIN_DMA_MEMSET;
	u32 need = memset ? GAUDI_SHAPE_MEMSET : GAUDI_SHAPE_COPY;
	u64 sspan, sbytes, dspan, dbytes;
	int ret;

	ret = gaudi_core_read(ps, need, "non-linear transfer not on stream 0",
			      "shape registers not written in this CB");
	if (ret)
		return ret;
	ret = gaudi_shape_span(ps, w[0],
			       GAUDI_SHAPE_SLOT(DMA_CORE_DST_TSIZE(1)),
			       &dspan, &dbytes);
	if (ret)
		return ret;
	if (!gaudi_user_mem(cfg, dst, dspan + 1))
		return gaudi_refuse(ps->err, -EINVAL,
				    "strided destination not user memory", dst);
	if (memset)
		return 0;
	ret = gaudi_shape_span(ps,
			       ps->shape[GAUDI_SHAPE_SLOT(DMA_CORE_SRC_TSIZE_0)],
			       GAUDI_SHAPE_SLOT(DMA_CORE_SRC_TSIZE(1)),
			       &sspan, &sbytes);
	if (ret)
		return ret;
	if (sbytes != dbytes)
		return gaudi_refuse(ps->err, -EINVAL,
				    "source and destination sizes differ", sbytes);
	if (!gaudi_user_mem(cfg, src, sspan + 1))
		return gaudi_refuse(ps->err, -EINVAL,
				    "strided source not user memory", src);
	return 0;
}

/*
 * Write completion (LIN_DMA ctl or COMMIT bit 0): when the transfer ends,
 * the core writes WR_COMP_WDATA to WR_COMP_ADDR (4 bytes; hl-thunk adds 1
 * to a SOB so).  Only where the registers are tracked (stream 0's upper
 * CBs), all three written earlier in this CB, and only to user memory or
 * a user SOB (any value: the SOB is the user's).  Not to monitors, fence
 * counters or arbiters, which the CP's messages may reach.
 */
static int gaudi_check_wr_comp(struct gaudi_parse_state *ps)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	int ret;
	u64 a;

	ret = gaudi_core_read(ps, GAUDI_CORE_WRCOMP,
			      "write completion not on stream 0",
			      "write completion registers not written in this CB");
	if (ret)
		return ret;
	a = (u64)ps->shape[GAUDI_SHAPE_SLOT(DMA_CORE_WR_COMP_ADDR_HI)] << 32 |
	    ps->shape[GAUDI_SHAPE_SLOT(DMA_CORE_WR_COMP_ADDR_LO)];
	if (gaudi_user_mem(cfg, a, 4) || gaudi_user_sob(a))
		return 0;
	return gaudi_refuse(ps->err, -EINVAL,
			    "write completion not to user memory or a user SOB",
			    a);
}

static int gaudi_check_lin_dma(struct gaudi_parse_state *ps, const u32 *w)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	u64 src = (u64)w[3] << 32 | w[2];
	u64 dst = ((u64)w[5] << 32 | w[4]) & PKT_LIN_DMA_DST_ADDR;
	unsigned int i;
	int ret;

	/* Only the DMA QMANs have a DMA core behind them. */
	if (cfg->engine != GAUDI_ENGINE_DMA)
		return gaudi_refuse(ps->err, -EPERM,
				    "no DMA engine behind this queue", 0);
	/*
	 * Transpose, dtype and (de)compression change how much is read and
	 * written.
	 */
	if (w[1] & (PKT_LIN_DMA_TRANSPOSE | PKT_LIN_DMA_DTYPE |
		    PKT_LIN_DMA_COMPRESS | PKT_LIN_DMA_DECOMPRESS))
		return gaudi_refuse(ps->err, -EPERM, "option not allowed",
				    w[1] & GENMASK(6, 0));
	if (w[1] & PKT_LIN_DMA_WRCOMP) {
		ret = gaudi_check_wr_comp(ps);
		if (ret)
			return ret;
	}
	/* The packet writes DST_TSIZE_0, the bases, then COMMIT. */
	ps->shape[GAUDI_SHAPE_SLOT(DMA_CORE_DST_TSIZE_0)] = w[0];
	for (i = 0; i < 4; i++)
		ps->shape[GAUDI_SHAPE_SLOT(DMA_CORE_SRC_BASE_LO) + i] = w[2 + i];
	ps->shape_written |= GAUDI_CORE_BY_LIN_DMA;
	if (!(w[1] & PKT_LIN_DMA_LIN))
		return gaudi_check_strided(ps, w, src, dst);
	/*
	 * Context ids (ctl 23:16, dst 63:56) only tag the transfer.  A memset
	 * takes its value from the source field.  Size 0 moves nothing and
	 * hides nothing (no packet can jump into it); its addresses are held
	 * to the rules anyway, as one byte.
	 */
	if (!(w[1] & PKT_LIN_DMA_MEMSET) && !gaudi_user_mem(cfg, src, w[0]))
		return gaudi_refuse(ps->err, -EINVAL,
				    "source not user memory", src);
	if (!gaudi_user_mem(cfg, dst, w[0]))
		return gaudi_refuse(ps->err, -EINVAL,
				    "destination not user memory", dst);
	return 0;
}

/*
 * A WREG_32 to the core's COMMIT register (@w the packet): Habana's
 * strided test writes the bases, the shape, DST_TSIZE_0 and the write
 * completion by WREG_32 and then COMMIT.  Every CP's LIN_DMA writes the
 * bases and DST_TSIZE_0, so between this CB's writes and its COMMIT
 * another stream could change them, and the transfer would start from a
 * base the parser never checked with this CB's shape.  So the commit is
 * rewritten in the kernel copy into the LIN_DMA that writes the tracked
 * bases, DST_TSIZE_0 and the COMMIT value in one packet, and is checked
 * as that LIN_DMA.  Room for its 24 bytes: the COMMIT must end a run of
 * tracked WREG_32 packets with at least two writes of registers that
 * LIN_DMA writes itself; from the older of the last two to the COMMIT,
 * those two writes are dropped, the other writes keep their order and the
 * LIN_DMA comes last (cfg->rewrite).  Only on stream 0
 * (gaudi_shape_reg()), not predicated (a skipped commit is not a skipped
 * LIN_DMA), with every register it reads written in this CB.
 */
static int gaudi_commit_reg(struct gaudi_parse_state *ps, const u32 *w)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	u32 off = ps->err->offset, start, len, pos, n = 0, reg, i;
	u32 lin[6], kept[GAUDI_COMMIT_RUN / 4], need;
	u8 out[GAUDI_COMMIT_RUN];
	int ret;

	if (cfg->engine != GAUDI_ENGINE_DMA)
		return 1;
	if (cfg->lower || cfg->stream != GAUDI_STRIDED_STREAM ||
	    !cfg->rewrite)
		return gaudi_refuse(ps->err, -EPERM,
				    "COMMIT only from stream 0's upper CBs",
				    DMA_CORE_COMMIT);
	if (w[1] & PKT_CTL_PRED)
		return gaudi_refuse(ps->err, -EPERM, "predicated COMMIT",
				    w[0]);
	need = GAUDI_CORE_BY_LIN_DMA;
	if ((ps->shape_written & need) != need)
		return gaudi_refuse(ps->err, -EPERM,
				    "COMMIT without bases and size written in this CB",
				    need & ~ps->shape_written);
	if (w[0] & ~(GENMASK(6, 0) | DMA_COMMIT_CTX_ID))
		return gaudi_refuse(ps->err, -EINVAL, "COMMIT reserved bits set",
				    w[0]);
	if (ps->run_ndrop < 2 ||
	    off + 8 - ps->run_drop[0] > GAUDI_COMMIT_RUN)
		return gaudi_refuse(ps->err, -EPERM,
				    "COMMIT not after its base or size writes",
				    DMA_CORE_COMMIT);
	lin[0] = ps->shape[GAUDI_SHAPE_SLOT(DMA_CORE_DST_TSIZE_0)];
	lin[1] = FIELD_PREP(PKT_CTL_OPCODE, PKT_LIN_DMA) |
		 (w[1] & PKT_CTL_BARRIERS) | w[0];
	for (i = 0; i < 4; i++)
		lin[2 + i] = ps->shape[GAUDI_SHAPE_SLOT(DMA_CORE_SRC_BASE_LO) + i];
	ret = gaudi_check_lin_dma(ps, lin);
	if (ret)
		return ret;
	/* The run from @start is WREG_32 packets of tracked registers. */
	start = ps->run_drop[0];
	len = off + 8 - start;
	for (pos = start; pos < off; pos += 8) {
		reg = FIELD_GET(PKT_WREG_REG_OFFSET, gaudi_rd32(ps->cb + pos + 4));
		if (BIT(GAUDI_SHAPE_SLOT(reg)) & GAUDI_CORE_BY_LIN_DMA)
			continue;
		kept[n++] = gaudi_rd32(ps->cb + pos);
		kept[n++] = gaudi_rd32(ps->cb + pos + 4);
	}
	/*
	 * Exactly two dropped (the run from the older of the last two): the
	 * 16 more bytes of a LIN_DMA fit.
	 */
	pos = 0;
	for (i = 0; i < n; i++, pos += 4)
		gaudi_wr32(out + pos, kept[i]);
	for (i = 0; i < 6; i++, pos += 4)
		gaudi_wr32(out + pos, lin[i]);
	ps->run_ndrop = 0;
	ret = cfg->rewrite(cfg->priv, start, out, len);
	if (ret)
		return gaudi_refuse(ps->err, ret, "COMMIT not rewritten", start);
	return 0;
}

/*
 * CP_DMA: the lower CP runs tsize bytes at the address.  Only with a
 * caller that snapshots them (cfg->cp_dma), from user memory, a whole
 * number of packets, and not from a lower CB (the hardware has no third
 * CP; the model calls it an undefined command).  Size 0 runs nothing.
 */
static int gaudi_check_cp_dma(struct gaudi_parse_state *ps, const u32 *w)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	u64 a = (u64)w[3] << 32 | w[2];
	int ret;

	if (!cfg->cp_dma)
		return gaudi_refuse(ps->err, -EPERM,
				    "packet not allowed from users", PKT_CP_DMA);
	if (cfg->lower)
		return gaudi_refuse(ps->err, -EPERM,
				    "CP_DMA inside a CP_DMA buffer", a);
	if (w[0] % 8)
		return gaudi_refuse(ps->err, -EINVAL,
				    "CP_DMA size not a multiple of 8", w[0]);
	if (!w[0])
		return 0;
	if (!gaudi_user_mem(cfg, a, w[0]))
		return gaudi_refuse(ps->err, -EINVAL,
				    "CP_DMA source not user memory", a);
	ret = cfg->cp_dma(cfg->priv, ps->err->offset, a, w[0]);
	if (ret)
		return gaudi_refuse(ps->err, ret, "CP_DMA target refused", a);
	return 0;
}

static int gaudi_check_pkt(struct gaudi_parse_state *ps, u32 op, const u32 *w);

/*
 * LOAD_AND_EXE.  Loading predicates (dst 0) only lets later packets be
 * skipped: allowed, from 128 bytes of user memory (the load reads 32
 * words).  Scalars (dst 1) and execute (bit 9, etype bit 10) run the
 * packet the load put in R0..R3 (etype 0: R0.., etype 1: R2..) with the
 * CP's trust: on an external queue's trusted CP a MSG_PROT there would
 * be a secure write.  Habana's runtime loads and executes scalars on the
 * internal DMA queues' upper CP only (hl-thunk-open's 2-RF tests), so
 * only there, and with the parser kept as a layer: the 16 scalar bytes
 * are read at submission (cfg->read), the packet in them is checked as a
 * CB packet, and the kernel copy gets that packet in place of the
 * LOAD_AND_EXE (cfg->rewrite; a load without execute becomes NOPs), so
 * the device never executes from scalars a user loaded.  Refused: on
 * external queues and lower CBs, predicated (the CP would skip what the
 * parser took as run), execute without a load earlier in this CB (the
 * registers hold what earlier CBs or holders left), execute together with
 * a predicate load, and packets that refer to the CB (WREG_BULK, CP_DMA,
 * REPEAT, LOAD_AND_EXE), do not fit (LIN_DMA) or write the DMA core.
 */
static int gaudi_check_load_exe(struct gaudi_parse_state *ps, const u32 *w)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	bool scalars = w[0] & PKT_LOAD_AND_EXE_DST;
	bool exe = w[0] & PKT_LOAD_AND_EXE_EXE;
	bool load = w[0] & PKT_LOAD_AND_EXE_LOAD;
	u64 a = (u64)w[3] << 32 | w[2];
	u32 off = ps->err->offset, pkt[4], op, psize, i;
	u8 out[PKT_SIZE_LOAD_AND_EXE], raw[16];
	const u32 *r;
	int ret;

	if (!scalars && !exe) {
		/* etype only qualifies execute */
		if (w[0] & PKT_LOAD_AND_EXE_ETYPE)
			return gaudi_refuse(ps->err, -EPERM,
					    "etype without execute", w[0]);
		if (load && !gaudi_user_mem(cfg, a, GAUDI_PRED_LOAD_SIZE))
			return gaudi_refuse(ps->err, -EINVAL,
					    "source not user memory", a);
		return 0;
	}
	if (cfg->external || cfg->lower || !cfg->read || !cfg->rewrite)
		return gaudi_refuse(ps->err, -EPERM,
				    "scalars and execute only on internal queues' upper CBs",
				    w[0]);
	if (w[1] & PKT_CTL_PRED)
		return gaudi_refuse(ps->err, -EPERM,
				    "predicated scalar load or execute", w[0]);
	if (exe && load && !scalars)
		return gaudi_refuse(ps->err, -EPERM,
				    "execute with a predicate load", w[0]);
	if (load) {
		if (!gaudi_user_mem(cfg, a, sizeof(raw)))
			return gaudi_refuse(ps->err, -EINVAL,
					    "source not user memory", a);
		ret = cfg->read(cfg->priv, a, sizeof(raw), raw);
		if (ret)
			return gaudi_refuse(ps->err, ret,
					    "scalars cannot be read", a);
		for (i = 0; i < 4; i++)
			ps->scalar[i] = gaudi_rd32(raw + 4 * i);
		ps->scalars_loaded = true;
	}
	for (i = 0; i < 4; i++)
		gaudi_wr32(out + 4 * i, i & 1 ? FIELD_PREP(PKT_CTL_OPCODE, PKT_NOP) : 0);
	if (exe) {
		if (!ps->scalars_loaded)
			return gaudi_refuse(ps->err, -EPERM,
					    "execute without scalars loaded in this CB",
					    w[0]);
		r = ps->scalar + (w[0] & PKT_LOAD_AND_EXE_ETYPE ? 2 : 0);
		op = FIELD_GET(PKT_CTL_OPCODE, r[1]);
		psize = gaudi_pkt_size[op];
		switch (op) {
		case PKT_NOP: case PKT_FENCE: case PKT_WAIT: case PKT_ARB_POINT:
		case PKT_MSG_SHORT: case PKT_MSG_LONG: case PKT_WREG_32:
			break;
		default:
			return gaudi_refuse(ps->err, -EPERM,
					    "packet not executable from scalars", op);
		}
		if (psize > (w[0] & PKT_LOAD_AND_EXE_ETYPE ? 8U : 16U))
			return gaudi_refuse(ps->err, -EPERM,
					    "packet larger than its scalars", op);
		for (i = 0; i < 4; i++)
			pkt[i] = i < psize / 4 ? r[i] : 0;
		if ((pkt[0] & gaudi_pkt_rsvd_w0[op]) ||
		    (pkt[1] & gaudi_pkt_rsvd_ctl[op]))
			return gaudi_refuse(ps->err, -EINVAL,
					    "reserved bits set in the executed packet",
					    op);
		if (op == PKT_WREG_32 && cfg->engine == GAUDI_ENGINE_DMA &&
		    FIELD_GET(PKT_WREG_REG_OFFSET, pkt[1]) < DMA_CORE_BLOCK_SIZE)
			return gaudi_refuse(ps->err, -EPERM,
					    "DMA core register from scalars",
					    FIELD_GET(PKT_WREG_REG_OFFSET, pkt[1]));
		ret = gaudi_check_pkt(ps, op, pkt);
		if (ret)
			return ret;
		for (i = 0; i < psize / 4; i++)
			gaudi_wr32(out + 4 * i, pkt[i]);
	}
	ret = cfg->rewrite(cfg->priv, off, out, sizeof(out));
	if (ret)
		return gaudi_refuse(ps->err, ret, "LOAD_AND_EXE not rewritten",
				    off);
	return 0;
}

/*
 * WREG_BULK (@w its header, @vals its 64-bit words): 2 * size64 values to
 * consecutive registers from the packet's offset on.  Allowed only on
 * internal queues and when each is a register gaudi_shape_reg() tracks,
 * recorded in order; any other register, the COMMIT included (a commit is
 * a WREG_32 or a LIN_DMA), is refused.
 */
static int gaudi_check_bulk(struct gaudi_parse_state *ps, const u32 *w,
			    const u8 *vals)
{
	u32 reg = FIELD_GET(PKT_WREG_REG_OFFSET, w[1]), i, n;
	int ret;

	/*
	 * Upstream refuses WREG_BULK in the external CBs it parses, so
	 * Habana's runtime sends it only to internal queues.
	 */
	if (ps->cfg->external)
		return gaudi_refuse(ps->err, -EPERM,
				    "WREG_BULK on an external queue", reg);
	if (reg & 3)
		return gaudi_refuse(ps->err, -EINVAL, "unaligned register", reg);
	n = 2 * FIELD_GET(PKT_WREG_BULK_SIZE64, w[0]);
	for (i = 0; i < n; i++, reg += 4) {
		ret = gaudi_shape_reg(ps, reg, gaudi_rd32(vals + 4 * i), w[1],
				      true);
		if (ret > 0)
			ret = gaudi_refuse(ps->err, -EPERM,
					   "WREG_BULK register not allowed", reg);
		if (ret)
			return ret;
	}
	return 0;
}

static int gaudi_check_pkt(struct gaudi_parse_state *ps, u32 op, const u32 *w)
{
	const struct gaudi_parser_cfg *cfg = ps->cfg;
	u32 reg, msg_op;
	int ret;
	u64 a;

	switch (op) {
	case PKT_WREG_32:
		reg = FIELD_GET(PKT_WREG_REG_OFFSET, w[1]);
		if (reg & 3)
			return gaudi_refuse(ps->err, -EINVAL,
					    "unaligned register", reg);
		if (gaudi_wreg_ok(cfg, reg))
			return 0;
		ret = gaudi_shape_reg(ps, reg, w[0], w[1], false);
		if (ret <= 0)
			return ret;
		if (reg == DMA_CORE_COMMIT) {
			ret = gaudi_commit_reg(ps, w);
			if (ret <= 0)
				return ret;
		}
		if (reg >= (cfg->qm_base & 0xFFFF) &&
		    reg < (cfg->qm_base & 0xFFFF) + QM_BLOCK_SIZE) {
			ret = gaudi_arb_reg(ps, reg - (cfg->qm_base & 0xFFFF),
					    w[0]);
			if (ret <= 0)
				return ret;
		}
		return gaudi_refuse(ps->err, -EPERM, "register not allowed",
				    reg);
	case PKT_MSG_LONG:
	case PKT_MSG_SHORT:
		/*
		 * Weakly-ordered and no-snoop (ctl 16, 17) only change how the
		 * write travels; ops 2 and 3 are undefined.
		 */
		msg_op = FIELD_GET(PKT_MSG_OP, w[1]);
		if (msg_op > PKT_MSG_OP_TIMESTAMP)
			return gaudi_refuse(ps->err, -EINVAL, "undefined op",
					    msg_op);
		if (op == PKT_MSG_SHORT)
			a = GAUDI_CFG_BASE +
			    gaudi_msg_short_base[FIELD_GET(PKT_MSG_SHORT_BASE, w[1])] +
			    FIELD_GET(PKT_MSG_SHORT_OFFSET, w[1]);
		else
			a = (u64)w[3] << 32 | w[2];
		return gaudi_msg_target(ps, a, msg_op, w[0]);
	case PKT_LIN_DMA:
		return gaudi_check_lin_dma(ps, w);
	case PKT_CP_DMA:
		return gaudi_check_cp_dma(ps, w);
	case PKT_LOAD_AND_EXE:
		return gaudi_check_load_exe(ps, w);
	default:
		/*
		 * FENCE (any id, target, decrement: it waits on this stream's
		 * own counters), WAIT (adds to them), ARB_POINT (arbitration
		 * between this QMAN's streams), NOP: their reserved bits are
		 * all there is to check.
		 */
		return 0;
	}
}

/**
 * gaudi_parse_cb() - check a kernel copy of a user command buffer
 * @cfg: the queue and context
 * @cb: the copy, which the user cannot change any more
 * @size: its size in bytes
 * @err: filled with the refused packet's offset and the reason on error
 *
 * Return: 0, -EPERM (not allowed) or -EINVAL (malformed, bad address).
 */
int gaudi_parse_cb(const struct gaudi_parser_cfg *cfg, const void *cb,
		   u32 size, struct gaudi_parser_err *err)
{
	struct gaudi_parse_state ps = { .cfg = cfg, .err = err, .cb = cb };
	const u8 *p = cb;
	u32 off, op, psize, w[6], i;
	int ret;

	err->offset = size;
	err->opcode = 0;
	err->reason = NULL;
	err->value = 0;
	if (size % 8)
		return gaudi_refuse(err, -EINVAL,
				    "CB size not a multiple of 8", size);
	for (off = 0; off < size; off += psize) {
		w[0] = gaudi_rd32(p + off);
		w[1] = gaudi_rd32(p + off + 4);
		op = FIELD_GET(PKT_CTL_OPCODE, w[1]);
		err->offset = off;
		err->opcode = op;
		psize = gaudi_pkt_size[op];
		if (!psize)
			return gaudi_refuse(err, -EINVAL, "undefined opcode", op);
		switch (op) {
		case PKT_MSG_PROT:	/* the driver's completion message */
		case PKT_STOP:		/* stops the stream for everyone */
		case PKT_REPEAT:	/* jumps: can land inside a packet */
			return gaudi_refuse(err, -EPERM,
					    "packet not allowed from users", op);
		case PKT_CP_DMA:	/* runs a CB the parser never saw, */
			if (!cfg->cp_dma)	/* unless snapshotted */
				return gaudi_refuse(err, -EPERM,
						    "packet not allowed from users",
						    op);
			break;
		default:
			break;
		}
		if (op == PKT_WREG_BULK)
			psize += 8 * FIELD_GET(PKT_WREG_BULK_SIZE64, w[0]);
		if (psize > size - off)
			return gaudi_refuse(err, -EINVAL, "truncated packet",
					    size - off);
		for (i = 2; i < psize / 4 && i < ARRAY_SIZE(w); i++)
			w[i] = gaudi_rd32(p + off + 4 * i);
		if (w[0] & gaudi_pkt_rsvd_w0[op])
			return gaudi_refuse(err, -EINVAL, "reserved bits set",
					    w[0] & gaudi_pkt_rsvd_w0[op]);
		if (w[1] & gaudi_pkt_rsvd_ctl[op])
			return gaudi_refuse(err, -EINVAL,
					    "reserved control bits set",
					    w[1] & gaudi_pkt_rsvd_ctl[op]);
		ps.core_pkt = false;
		if (op == PKT_WREG_BULK)
			ret = gaudi_check_bulk(&ps, w, p + off + 8);
		else
			ret = gaudi_check_pkt(&ps, op, w);
		if (ret)
			return ret;
		/* A run of tracked WREG_32 packets ends (gaudi_commit_reg()). */
		if (!ps.core_pkt)
			ps.run_ndrop = 0;
	}
	return 0;
}
