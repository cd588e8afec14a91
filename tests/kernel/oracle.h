/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An independent decoder of Gaudi 1 command buffers for the parser's tests
 * and fuzzer: given a CB that gaudi_parse_cb() accepted, it re-decodes
 * every packet with its own constants (from hw/gaudi1/packets.h's
 * sources: upstream's gaudi_packets.h and asic_reg headers) and checks the
 * allowlist's promises, not its code:
 *
 *  - no packet but NOP, WREG_32, MSG_LONG, MSG_SHORT, FENCE, LIN_DMA,
 *    ARB_POINT, WAIT, predicate LOAD_AND_EXE, WREG_BULK of an internal
 *    stream 0's own DMA core registers (below), and CP_DMA only of an
 *    upper CB whose caller snapshots CP_DMA targets (cfg->cp_dma), of
 *    whole packets of user memory; reserved bits zero;
 *  - the arbitration registers (ARB_CFG_0 with type, master and enable
 *    only, WRR weights, quiet period) only of the CB's own DMA, MME or TPC
 *    QMAN;
 *  - every WREG_32 in the explicit list of user registers of the engine,
 *    and none in the list of registers known to be dangerous;
 *  - of a DMA core, only stream 0's upper CBs write registers: the
 *    shape, the bases and the write completion, never COMMIT;
 *  - every LIN_DMA without data-changing options, on a DMA queue, its
 *    write completion (stream 0's upper CP) with the three registers
 *    written in this CB, to user memory or a user SOB,
 *    reading and writing only user memory: linear, or (on
 *    stream 0's upper CP) strided over sizes and strides the CB itself
 *    wrote to its own DMA core, every byte of both footprints (counts
 *    >= 1, strides < 2^31, equal byte counts);
 *  - every message to user memory (timestamps only there), a user SOB,
 *    the encapsulated-signal SOB (add only), a user monitor, or (from a
 *    NIC queue only) its own port's unsecured doorbell with a 22-bit PI or
 *    BUSY and a QP number 2..1023, and every
 *    combination of the payload address halves a user monitor can end up
 *    with naming a user SOB or a QMAN fence counter.
 *
 * The environment (which host virtual ranges are mapped) is the test's:
 * struct oracle_env.
 */
#ifndef GAUDI_TESTS_ORACLE_H
#define GAUDI_TESTS_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaudi_parser.h"

#define O_CFG		0x7FFC000000ULL
#define O_SRAM		0x7FF0000000ULL
#define O_SRAM_USER	(O_SRAM + 0x80)
#define O_SRAM_END	(O_SRAM + (20ULL << 20))
#define O_HBM_USER	0x20000000ULL
#define O_HBM_END	(32ULL << 30)
#define O_VA_START	0x1000000000000ULL
#define O_VA_END	0x3FF8000000000ULL

/* Sync-manager blocks: SOB 0 of E_N, E_S, W_N, W_S (CFG offsets). */
static const uint32_t o_sm_base[4] = { 0x4F2000, 0x4B2000, 0x4D2000, 0x492000 };
#define O_WS		3

/* Every QMAN that runs user queues: DMA 0..7, MME 0 and 2, TPC 0..7. */
static uint32_t o_qm(unsigned int i)
{
	if (i < 8)
		return 0x508000 + 0x20000 * i;
	if (i == 8)
		return 0x68000;
	if (i == 9)
		return 0x168000;
	return 0xE08000 + 0x40000 * (i - 10);
}

#define O_NUM_QM	18

/*
 * The NIC QMAN of port p (two per macro, macros 0x40000 apart from NIC0's
 * QM0 at 0xCE0000, QM1 + 0x2000) and its port's unsecured doorbell (QPC0
 * at 0xCE4000, QPC1 + 0x1000; QPN at 0x630, PI at 0x634).
 */
static uint32_t o_nic_qm(unsigned int p)
{
	return 0xCE0000 + 0x40000 * (p / 2) + 0x2000 * (p & 1);
}

static uint64_t o_nic_db(unsigned int p, bool pi)
{
	return O_CFG + 0xCE4000 + 0x40000 * (p / 2) + 0x1000 * (p & 1) +
	       (pi ? 0x634 : 0x630);
}

struct oracle_range {
	uint64_t start, size;
};

struct oracle_env {
	const struct oracle_range *maps;
	unsigned int nmaps;
};

static bool o_mapped(const struct oracle_env *env, uint64_t va, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < env->nmaps; i++) {
		const struct oracle_range *m = &env->maps[i];

		if (va >= m->start && va - m->start < m->size &&
		    len <= m->size - (va - m->start))
			return true;
	}
	return false;
}

/*
 * The callback a test passes to the parser.  Its contract: only non-empty
 * ranges inside the host virtual window, without wrapping (a driver's
 * lookup may rely on that); anything else aborts the test.
 */
static inline bool oracle_mapped_cb(void *priv, u64 va, u64 len)
{
	if (!len || va < 0x1000000000000ULL || va >= 0x3FF8000000000ULL ||
	    len > 0x3FF8000000000ULL - va) {
		fprintf(stderr, "ORACLE: mapped() called with 0x%llx + 0x%llx\n",
			(unsigned long long)va, (unsigned long long)len);
		abort();
	}
	return o_mapped(priv, va, len);
}

static bool o_within(uint64_t a, uint64_t len, uint64_t lo, uint64_t hi)
{
	return a >= lo && a < hi && hi - a >= len;
}

static bool o_user_mem(const struct oracle_env *env, uint64_t a, uint64_t len)
{
	if (len == 0)
		len = 1;
	return o_within(a, len, O_SRAM_USER, O_SRAM_END) ||
	       o_within(a, len, O_HBM_USER, O_HBM_END) ||
	       (o_within(a, len, O_VA_START, O_VA_END) && o_mapped(env, a, len));
}

/* 0..3 block, kind 0 SOB / 1..5 monitor ADDRL..STATUS, index; -1 none. */
static int o_sm(uint64_t a, int *kind, unsigned int *idx)
{
	unsigned int b;

	for (b = 0; b < 4; b++) {
		uint64_t base = O_CFG + o_sm_base[b];

		if (a < base || a >= base + 0x4800 || (a & 3))
			continue;
		if (a - base < 0x2000) {
			*kind = 0;
			*idx = (a - base) / 4;
		} else {
			*kind = 1 + (a - base - 0x2000) / 0x800;
			*idx = (a - base - 0x2000) % 0x800 / 4;
		}
		return b;
	}
	return -1;
}

static bool o_user_sob_addr(uint64_t a)
{
	unsigned int idx;
	int kind, b = o_sm(a, &kind, &idx);

	return b >= 0 && kind == 0 && (b != O_WS || idx >= 144);
}

static bool o_fence_rdata(uint64_t a)
{
	unsigned int q, f, s;

	for (q = 0; q < O_NUM_QM; q++)
		for (f = 0; f < 4; f++)
			for (s = 0; s < 5; s++)	/* streams and the lower CP */
				if (a == O_CFG + o_qm(q) + 0x308 + 0x14 * f + 4 * s)
					return true;
	return false;
}

static bool o_mon_target(uint64_t a)
{
	return o_user_sob_addr(a) || o_fence_rdata(a);
}

/*
 * Arbitration of the CB's own QMAN (dma0_qm_regs.h: ARB_CFG_0 0xA00,
 * ARB_WRR_WEIGHT_0..3 0xA08..0xA14, ARB_MST_QUIET_PER 0xB34): 1 one of
 * them with an allowed value, 0 not one of them, -1 one with a value
 * that must be refused.
 */
static int o_arb(const struct gaudi_parser_cfg *cfg, uint32_t qm_off,
		 uint32_t v)
{
	if (cfg->engine == GAUDI_ENGINE_NIC)
		return 0;
	if (qm_off == 0xA00)
		return (v & ~0x111U) ? -1 : 1;
	if ((qm_off >= 0xA08 && qm_off <= 0xA14 && !(qm_off & 3)) ||
	    qm_off == 0xB34)
		return 1;
	return 0;
}

/* ---- WREG_32 ---------------------------------------------------------- */

static bool o_wreg_allowed(const struct gaudi_parser_cfg *cfg, uint32_t reg)
{
	uint32_t qmo = cfg->qm_base & 0xFFFF, f, t, d, i;
	static const uint32_t tpc_tensor_sets[2] = { 0x6400, 0x6A00 };
	static const uint32_t tpc_kernel_sets[2] = { 0x6780, 0x6D80 };
	static const uint32_t mme_desc[5] = { 0x0, 0x400, 0x680, 0x900, 0xB80 };

	for (f = 0; f < 4; f++) {
		if (reg == qmo + 0x308 + 0x14 * f + 4 * cfg->stream ||
		    reg == qmo + 0x308 + 0x14 * f + 16)
			return true;
		if (reg == qmo + 0x358 + 0x14 * f + 4 * cfg->stream ||
		    reg == qmo + 0x358 + 0x14 * f + 16)
			return true;
	}
	if (cfg->engine == GAUDI_ENGINE_TPC) {
		for (i = 0; i < 2; i++) {
			for (t = 0; t < 8; t++)	/* PADDING .. DIM_4_STRIDE */
				for (d = 0x08; d <= 0x34; d += 4)
					if (reg == tpc_tensor_sets[i] + 0x38 * t + d)
						return true;
			/* TID_BASE_DIM_0 .. KERNEL_ID, SRF_0..31 */
			for (d = 0x10; d <= 0xBC; d += 4)
				if (reg == tpc_kernel_sets[i] + d)
					return true;
		}
	}
	if (cfg->engine == GAUDI_ENGINE_MME) {
		for (i = 0; i < 5; i++) {
			for (d = 0x20; d <= 0x1D8; d += 4)
				if (reg == mme_desc[i] + d)
					return true;
			if (reg == mme_desc[i] + 0x204 || reg == mme_desc[i] + 0x208)
				return true;
		}
	}
	return false;
}

/* A DMA core shape register: SRC/DST_TSIZE_0..4, SRC/DST_STRIDE_1..4. */
static bool o_shape_reg(uint32_t reg)
{
	return reg >= 0x02C && reg <= 0x074 && reg != 0x050 && !(reg & 3);
}

/*
 * What stream 0's upper CBs may write of their DMA core besides the
 * shape: the bases (0x014..0x020; every commit is a LIN_DMA, which writes
 * them itself) and the write completion (0x07C..0x084).  Never COMMIT
 * (0x078): the parser turns it into a LIN_DMA.
 */
static bool o_core_reg(uint32_t reg)
{
	return !(reg & 3) && (o_shape_reg(reg) ||
			      (reg >= 0x014 && reg <= 0x020) ||
			      (reg >= 0x07C && reg <= 0x084));
}

/*
 * One side of a strided transfer: every byte base + i0 + sum ik * s_k,
 * i0 < t[0], ik < t[k], with @t and @s from registers @t_reg (TSIZE_0)
 * and @k1 (TSIZE_1; STRIDE_k at +4, the next TSIZE at +8) of @sh, all
 * user memory; counts >= 1 and strides < 2^31 (signed or unsigned alike).
 * The byte count goes to @bytes.
 */
static bool o_strided_side(const struct oracle_env *env, const uint32_t *sh,
			   uint64_t base, uint32_t t0, uint32_t k1,
			   unsigned __int128 *bytes)
{
	unsigned __int128 hi = (unsigned __int128)base + t0 - 1;
	unsigned int k;

	*bytes = t0;
	if (!t0)
		return false;
	for (k = 0; k < 4; k++) {
		uint32_t n = sh[(k1 + 8 * k) / 4], st = sh[(k1 + 8 * k + 4) / 4];

		if (!n || st >= 0x80000000U)
			return false;
		hi += (unsigned __int128)(n - 1) * st;
		*bytes *= n;
	}
	return hi < ((unsigned __int128)1 << 64) &&
	       o_user_mem(env, base, (uint64_t)(hi - base) + 1);
}

/* Registers that must never be writable, whatever the table says. */
static bool o_wreg_dangerous(const struct gaudi_parser_cfg *cfg, uint32_t reg)
{
	uint32_t qmo = cfg->qm_base & 0xFFFF, t, i;
	static const uint32_t tpc_bad[] = {
		0x6780, 0x6784, 0x6788, 0x678C,	/* SYNC_OBJECT_*, KERNEL_BASE */
		0x6D80, 0x6D84, 0x6D88, 0x6D8C,
		0x6900, 0x6920, 0x692C, 0x6930, 0x6938, /* PROT, bases, CMD, EXECUTE */
		0x6940, 0x6944, 0x6964, 0x6968, 0x696C, 0x6970, /* ICACHE, AxUSER */
		0x6978, 0x697C, 0x6980, 0x6984, 0x6988, 0x698C, 0x6990, 0x6994,
	};
	static const uint32_t mme_desc[5] = { 0x0, 0x400, 0x680, 0x900, 0xB80 };

	/*
	 * The QMAN itself: only the stream's own and the lower CP's fence
	 * counters (arbitration: checked with its value by the caller).
	 */
	if (reg >= qmo && reg < qmo + 0x1000) {
		uint32_t r = reg - qmo;

		if (r < 0x308 || r >= 0x3A8)
			return true;
		if ((r - 0x308) % 0x14 / 4 != cfg->stream &&
		    (r - 0x308) % 0x14 / 4 != 4)
			return true;
	}
	/*
	 * The DMA core: SRC, DST, COMMIT, PROT...; the shape (sizes and
	 * strides, 0x02C..0x074 but 0x050) only from stream 0's upper CP,
	 * its values checked at the commit (o_strided()).
	 */
	if (cfg->engine == GAUDI_ENGINE_DMA && reg < 0x8000 &&
	    !(o_core_reg(reg) && cfg->stream == 0 && !cfg->lower))
		return true;
	if (cfg->engine == GAUDI_ENGINE_TPC) {
		for (i = 0; i < sizeof(tpc_bad) / sizeof(tpc_bad[0]); i++)
			if (reg == tpc_bad[i])
				return true;
		for (t = 0; t < 8; t++)	/* tensor base addresses */
			if (reg == 0x6400 + 0x38 * t || reg == 0x6404 + 0x38 * t ||
			    reg == 0x6A00 + 0x38 * t || reg == 0x6A04 + 0x38 * t)
				return true;
	}
	if (cfg->engine == GAUDI_ENGINE_MME) {
		if (reg == 0x280)	/* CMD */
			return true;
		for (i = 0; i < 5; i++) {
			uint32_t d = reg - mme_desc[i];

			if (reg >= mme_desc[i] && d >= 0x08 && d <= 0x1C)
				return true;	/* BASE_ADDR_* */
			if (reg >= mme_desc[i] && d >= 0x1DC && d <= 0x1EC)
				return true;	/* SYNC_OBJECT_*, AXI_USER */
		}
	}
	return false;
}

/* ---- the check ------------------------------------------------------- */

struct o_mon {
	bool touched;
	uint32_t lo[8], nlo;
	uint32_t hi[8], nhi;
	bool lo_many, hi_many;
};

static void o_add(uint32_t *v, uint32_t *n, bool *many, uint32_t x)
{
	uint32_t i;

	for (i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n < 8)
		v[(*n)++] = x;
	else
		*many = true;
}

#define O_FAIL(...)						\
	do {							\
		snprintf(why, whylen, __VA_ARGS__);		\
		return false;					\
	} while (0)

/*
 * Check @cb (accepted by the parser for @cfg) against the properties;
 * false with a description in @why if one does not hold.
 */
static bool oracle_check(const struct gaudi_parser_cfg *cfg,
			 const struct oracle_env *env, const uint8_t *cb,
			 size_t size, char *why, size_t whylen)
{
	static struct o_mon mons[4][512];
	static const uint8_t sizes[32] = {
		[0x1] = 8, [0x2] = 8, [0x3] = 16, [0x4] = 8, [0x5] = 16, [0x8] = 8, [0x9] = 24,
		[0xA] = 8, [0xC] = 8, [0xD] = 8, [0xF] = 16,
	};
	static const uint32_t short_base[4] = {
		0x4F2000 + 0x2000, 0x4F2000, 0x492000 + 0x2000, 0x492000,
	};
	size_t off;
	unsigned int b, m, i, j;
	/* the DMA core's registers this CB wrote (0x000..0x0FC) */
	uint32_t sh[64] = { 0 };
	uint64_t sh_set = 0;

	memset(mons, 0, sizeof(mons));
	if (size % 8)
		O_FAIL("size %zu accepted", size);
	for (off = 0; off < size;) {
		uint32_t w[6] = { 0 }, op, ctl, len, k;
		uint64_t a, src, dst;

		memcpy(&w[0], cb + off, 4);
		memcpy(&w[1], cb + off + 4, 4);
		ctl = w[1];
		op = ctl >> 24 & 0x1F;
		if (!sizes[op])
			O_FAIL("opcode 0x%x accepted at 0x%zx", op, off);
		if (size - off < sizes[op])
			O_FAIL("truncated 0x%x accepted at 0x%zx", op, off);
		for (k = 2; k < sizes[op] / 4u; k++)
			memcpy(&w[k], cb + off + 4 * k, 4);
		switch (op) {
		case 0xA:	/* NOP */
			if (w[0] || (ctl & 0xFFFFFF))
				O_FAIL("NOP with reserved bits at 0x%zx", off);
			break;
		case 0x1:	/* WREG_32 */
			if (ctl & 0xE0)
				O_FAIL("WREG_32 reserved bits at 0x%zx", off);
			k = ctl >> 8 & 0xFFFF;
			if (k >= (cfg->qm_base & 0xFFFF) &&
			    k - (cfg->qm_base & 0xFFFF) >= 0xA00 &&
			    k - (cfg->qm_base & 0xFFFF) < 0xB40) {
				if (o_arb(cfg, k - (cfg->qm_base & 0xFFFF), w[0]) != 1)
					O_FAIL("WREG_32 0x%x to arbiter 0x%x at 0x%zx",
					       w[0], k, off);
				break;
			}
			if (cfg->engine == GAUDI_ENGINE_DMA && o_core_reg(k) &&
			    !o_wreg_dangerous(cfg, k)) {
				/* skipped by a clear predicate: unknown value */
				if (ctl & 0x1F)
					O_FAIL("predicated shape WREG_32 0x%x at 0x%zx",
					       k, off);
				sh[k / 4] = w[0];
				sh_set |= 1ULL << (k / 4);
				break;
			}
			if (!o_wreg_allowed(cfg, k) || o_wreg_dangerous(cfg, k))
				O_FAIL("WREG_32 to 0x%x (queue %u) at 0x%zx", k,
				       cfg->queue, off);
			break;
		case 0x2:	/* WREG_BULK: the DMA core's registers only */
			len = 2 * (w[0] & 0xFFFF);
			k = ctl >> 8 & 0xFFFF;
			if ((w[0] >> 16) || (ctl & 0xE0) || cfg->external)
				O_FAIL("WREG_BULK 0x%x/0x%x (queue %u) at 0x%zx",
				       w[0], ctl, cfg->queue, off);
			if (size - off < 8 + 4 * (size_t)len)
				O_FAIL("truncated WREG_BULK accepted at 0x%zx", off);
			for (j = 0; j < len; j++, k += 4) {
				if (cfg->engine != GAUDI_ENGINE_DMA || (ctl & 0x1F) ||
				    !o_core_reg(k) || o_wreg_dangerous(cfg, k))
					O_FAIL("WREG_BULK to 0x%x (queue %u) at 0x%zx",
					       k, cfg->queue, off);
				memcpy(&sh[k / 4], cb + off + 8 + 4 * j, 4);
				sh_set |= 1ULL << (k / 4);
			}
			off += 4 * (size_t)len;
			break;
		case 0x8:	/* FENCE */
			if ((w[0] & 0x3F00FFF0) || (ctl & 0xFFFFE0))
				O_FAIL("FENCE reserved bits at 0x%zx", off);
			break;
		case 0xD:	/* WAIT */
			if ((w[0] & 0xC0000000) || (ctl & 0xFFFFFF))
				O_FAIL("WAIT reserved bits at 0x%zx", off);
			break;
		case 0xC:	/* ARB_POINT */
			if ((w[0] & 0x7FFFFF00) || (ctl & 0xFFFFE0))
				O_FAIL("ARB_POINT reserved bits at 0x%zx", off);
			break;
		case 0x5:	/* CP_DMA: snapshotted, of an upper CB */
			a = (uint64_t)w[3] << 32 | w[2];
			if (!cfg->cp_dma || cfg->lower)
				O_FAIL("CP_DMA without a snapshot at 0x%zx", off);
			if ((ctl & 0xFFFFE0) || (w[0] & 7))
				O_FAIL("CP_DMA ctl 0x%x size 0x%x at 0x%zx", ctl,
				       w[0], off);
			if (w[0] && !o_user_mem(env, a, w[0]))
				O_FAIL("CP_DMA from 0x%llx at 0x%zx",
				       (unsigned long long)a, off);
			break;
		case 0xF:	/* LOAD_AND_EXE: predicates only */
			if ((w[0] & ~0x100U) || (ctl & 0xFFFFE0))
				O_FAIL("LOAD_AND_EXE cfg 0x%x at 0x%zx", w[0], off);
			a = (uint64_t)w[3] << 32 | w[2];
			if ((w[0] & 0x100) && !o_user_mem(env, a, 128))
				O_FAIL("LOAD_AND_EXE from 0x%llx at 0x%zx",
				       (unsigned long long)a, off);
			break;
		case 0x9:	/* LIN_DMA */
			if (cfg->engine != GAUDI_ENGINE_DMA)
				O_FAIL("LIN_DMA on a non-DMA queue at 0x%zx", off);
			if (ctl & 0xFFFF & ~0x19U)
				O_FAIL("LIN_DMA ctl 0x%x at 0x%zx", ctl, off);
			if (ctl & 1) {	/* write completion: set in this CB */
				a = (uint64_t)sh[0x084 / 4] << 32 | sh[0x080 / 4];
				if (cfg->stream != 0 || cfg->lower ||
				    (sh_set & (7ULL << (0x07C / 4))) !=
				    (7ULL << (0x07C / 4)) ||
				    (!o_user_mem(env, a, 4) && !o_user_sob_addr(a)))
					O_FAIL("LIN_DMA write completion to 0x%llx at 0x%zx",
					       (unsigned long long)a, off);
			}
			src = (uint64_t)w[3] << 32 | w[2];
			dst = ((uint64_t)w[5] << 32 | w[4]) & ((1ULL << 56) - 1);
			sh[0x074 / 4] = w[0];	/* the packet writes DST_TSIZE_0 */
			sh_set |= 1ULL << (0x074 / 4);
			if (!(ctl & 0x8)) {
				/* strided: the shape this CB set, stream 0 only */
				uint64_t need = 0;
				unsigned __int128 sb = 0, db = 0;

				for (k = 0x02C; k <= 0x070; k += 4)
					if (o_shape_reg(k) &&
					    (k >= 0x054 || !(ctl & 0x10)))
						need |= 1ULL << (k / 4);
				if (cfg->stream != 0 || cfg->lower ||
				    (sh_set & need) != need)
					O_FAIL("strided LIN_DMA without its shape (queue %u) at 0x%zx",
					       cfg->queue, off);
				if (!o_strided_side(env, sh, dst, w[0], 0x054, &db))
					O_FAIL("strided LIN_DMA to 0x%llx at 0x%zx",
					       (unsigned long long)dst, off);
				if (!(ctl & 0x10) &&
				    (!o_strided_side(env, sh, src, sh[0x04C / 4],
						     0x02C, &sb) || sb != db))
					O_FAIL("strided LIN_DMA from 0x%llx at 0x%zx",
					       (unsigned long long)src, off);
				break;
			}
			if (!(ctl & 0x10) && !o_user_mem(env, src, w[0]))
				O_FAIL("LIN_DMA from 0x%llx+0x%x at 0x%zx",
				       (unsigned long long)src, w[0], off);
			if (!o_user_mem(env, dst, w[0]))
				O_FAIL("LIN_DMA to 0x%llx+0x%x at 0x%zx",
				       (unsigned long long)dst, w[0], off);
			break;
		case 0x3:	/* MSG_LONG */
		case 0x4: {	/* MSG_SHORT */
			uint32_t mop = ctl >> 20 & 3;
			unsigned int idx;
			int kind, blk;

			if (op == 0x3) {
				if (ctl & 0xCCFFE0)
					O_FAIL("MSG_LONG reserved bits at 0x%zx", off);
				a = (uint64_t)w[3] << 32 | w[2];
			} else {
				if (ctl & 0xC0000)
					O_FAIL("MSG_SHORT reserved bits at 0x%zx", off);
				a = O_CFG + short_base[ctl >> 22 & 3] + (ctl & 0xFFFF);
			}
			if (mop > 1)
				O_FAIL("message op %u at 0x%zx", mop, off);
			len = mop ? 8 : 4;
			if (o_user_mem(env, a, len))
				break;
			if (mop)
				O_FAIL("timestamp to 0x%llx at 0x%zx",
				       (unsigned long long)a, off);
			if (cfg->engine == GAUDI_ENGINE_NIC &&
			    a == o_nic_db(cfg->nic_port, true)) {
				if (w[0] >> 22)
					O_FAIL("doorbell PI 0x%x at 0x%zx", w[0], off);
				break;
			}
			if (cfg->engine == GAUDI_ENGINE_NIC &&
			    a == o_nic_db(cfg->nic_port, false)) {
				uint32_t qpn = w[0] & 0xFFFFFF;

				if (!(w[0] >> 31) || (w[0] & 0x7F000000) ||
				    qpn < 2 || qpn >= 1024)
					O_FAIL("doorbell QPN 0x%x at 0x%zx", w[0], off);
				break;
			}
			if (a >= O_CFG + cfg->qm_base + 0xA00 &&
			    a < O_CFG + cfg->qm_base + 0xB40 && !(a & 3)) {
				if (o_arb(cfg, (uint32_t)(a - O_CFG - cfg->qm_base),
					  w[0]) != 1)
					O_FAIL("message 0x%x to arbiter 0x%llx at 0x%zx",
					       w[0], (unsigned long long)a, off);
				break;
			}
			if (cfg->encaps_sob &&
			    a == O_CFG + 0x492000 + 4ULL * cfg->encaps_sob) {
				if (!(w[0] & 0x80000000U))
					O_FAIL("encaps SOB set at 0x%zx", off);
				break;
			}
			blk = o_sm(a, &kind, &idx);
			if (blk < 0)
				O_FAIL("message to 0x%llx at 0x%zx",
				       (unsigned long long)a, off);
			b = blk;
			if (kind == 0) {
				if (b == O_WS && idx < 144)
					O_FAIL("driver SOB %u at 0x%zx", idx, off);
				break;
			}
			if (b == O_WS && idx < 72)
				O_FAIL("driver monitor %u at 0x%zx", idx, off);
			mons[b][idx].touched = true;
			if (kind == 1)
				o_add(mons[b][idx].lo, &mons[b][idx].nlo,
				      &mons[b][idx].lo_many, w[0]);
			else if (kind == 2)
				o_add(mons[b][idx].hi, &mons[b][idx].nhi,
				      &mons[b][idx].hi_many, w[0]);
			else if (kind == 5 && (w[0] & ~0x1FFU))
				O_FAIL("monitor status 0x%x at 0x%zx", w[0], off);
			break;
		}
		default:
			O_FAIL("opcode 0x%x accepted at 0x%zx", op, off);
		}
		off += sizes[op];
	}
	/* Every payload address a monitor can end up with, in any order. */
	for (b = 0; b < 4; b++) {
		for (m = 0; m < 512; m++) {
			struct o_mon *mo = &mons[b][m];
			uint32_t init_lo = (uint32_t)(O_CFG + o_sm_base[b] +
						      (b == O_WS ? 4 * 144 : 0));

			if (!mo->touched)
				continue;
			if (mo->lo_many || mo->hi_many) {
				/* too many to pair: each alone must do */
				for (i = 0; i < mo->nlo; i++)
					if (!o_mon_target(0x7F00000000ULL | mo->lo[i]))
						O_FAIL("monitor %u/%u low 0x%x", b, m, mo->lo[i]);
				for (j = 0; j < mo->nhi; j++)
					if (mo->hi[j] != 0x7F)
						O_FAIL("monitor %u/%u high 0x%x", b, m, mo->hi[j]);
				continue;
			}
			o_add(mo->lo, &mo->nlo, &mo->lo_many, init_lo);
			o_add(mo->hi, &mo->nhi, &mo->hi_many, 0x7F);
			for (i = 0; i < mo->nlo; i++)
				for (j = 0; j < mo->nhi; j++)
					if (!o_mon_target((uint64_t)mo->hi[j] << 32 |
							  mo->lo[i]))
						O_FAIL("monitor %u/%u can write 0x%x%08x",
						       b, m, mo->hi[j], mo->lo[i]);
		}
	}
	return true;
}

#undef O_FAIL

#endif /* GAUDI_TESTS_ORACLE_H */
