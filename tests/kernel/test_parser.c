// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host unit test of gaudi.ko's command-buffer parser (kernel/gaudi_parser.c,
 * built here with the shim in tests/kernel/shim): every packet type
 * accepted or refused with the right errno and offset, every allowlist
 * rule at its boundaries, the attack classes of issue 9 (1: WREG_32 to the
 * DMA core, 2: control flow the parser cannot follow, 3: LIN_DMA options),
 * the user sync managers, and a seeded random walk whose accepted CBs the
 * independent decoder (oracle.h) re-checks.
 *
 *   test_parser            TAP, closing "N passed, N failed"
 *   test_parser --seeds D  write the fuzzer's seed corpus into D
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "tap.h"

/* Packet opcodes and a few constants, as hw/gaudi1/packets.h has them. */
enum {
	OP_WREG_32 = 0x1, OP_WREG_BULK, OP_MSG_LONG, OP_MSG_SHORT, OP_CP_DMA,
	OP_REPEAT, OP_MSG_PROT, OP_FENCE, OP_LIN_DMA, OP_NOP, OP_STOP,
	OP_ARB_POINT, OP_WAIT, OP_LOAD_AND_EXE = 0xF,
};

#define CTL(op)		((uint32_t)(op) << 24)
#define EB		(1U << 29)
#define RB		(1U << 30)
#define MB		(1U << 31)
#define LIN		(1U << 3)
#define MEMSET		(1U << 4)
#define SOB_ADD		0x80000000U

#define EN_SOB(i)	(O_CFG + 0x4F2000 + 4ULL * (i))
#define ES_SOB(i)	(O_CFG + 0x4B2000 + 4ULL * (i))
#define WN_SOB(i)	(O_CFG + 0x4D2000 + 4ULL * (i))
#define WS_SOB(i)	(O_CFG + 0x492000 + 4ULL * (i))
#define MON(blk, reg, m) (O_CFG + (blk) + 0x2000 + 0x800ULL * (reg) + 4ULL * (m))
#define EN		0x4F2000
#define ES		0x4B2000
#define WN		0x4D2000
#define WS		0x492000
#define ADDRL		0
#define ADDRH		1
#define PDATA		2
#define ARM		3
#define STATUS		4

/* Queue ids. */
#define Q_DMA00		0
#define Q_DMA01		1
#define Q_DMA10		4
#define Q_DMA20		9
#define Q_DMA21		10
#define Q_MME00		33
#define Q_MME10		37
#define Q_TPC00		41
#define Q_TPC32		55

struct cb {
	uint8_t b[8192];
	uint32_t n;
};

static void put32(struct cb *c, uint32_t v)
{
	memcpy(c->b + c->n, &v, 4);
	c->n += 4;
}

static void put64(struct cb *c, uint64_t v)
{
	put32(c, (uint32_t)v);
	put32(c, v >> 32);
}

static struct cb *pk8(struct cb *c, uint32_t w0, uint32_t ctl)
{
	put32(c, w0);
	put32(c, ctl);
	return c;
}

static struct cb *pk16(struct cb *c, uint32_t w0, uint32_t ctl, uint64_t a)
{
	pk8(c, w0, ctl);
	put64(c, a);
	return c;
}

static struct cb *lin(struct cb *c, uint32_t size, uint32_t ctl_bits,
		      uint64_t src, uint64_t dst)
{
	pk8(c, size, CTL(OP_LIN_DMA) | ctl_bits);
	put64(c, src);
	put64(c, dst);
	return c;
}

static struct cb *msg(struct cb *c, uint64_t a, uint32_t v)
{
	return pk16(c, v, CTL(OP_MSG_LONG) | MB, a);
}

static struct cb *wreg(struct cb *c, uint32_t reg, uint32_t v)
{
	return pk8(c, v, CTL(OP_WREG_32) | reg << 8 | RB);
}

static struct cb *reset(struct cb *c)
{
	c->n = 0;
	return c;
}

static struct gaudi_parser_err last_err;
/* The random walk's caller: 0 none, 1 snapshots CP_DMA, 2 a lower CB. */
static unsigned int t_snap;

/* Parse @c for queue @q; accepted CBs must satisfy the oracle. */
static int parse_enc(const struct cb *c, unsigned int q, u32 encaps)
{
	struct gaudi_parser_cfg cfg;
	char why[200];
	int ret;

	t_cfg(&cfg, q, encaps);
	if (t_snap)
		cfg.cp_dma = t_cp_dma;
	cfg.lower = t_snap == 2;
	/* As gaudi.ko: a copy, COMMITs of upper CBs rewritten in it. */
	if (!cfg.lower)
		cfg.rewrite = t_rewrite;
	if (!cfg.lower && !cfg.external)
		cfg.read = t_read;
	memcpy(t_rw_buf, c->b, c->n);
	ret = gaudi_parse_cb(&cfg, t_rw_buf, c->n, &last_err);
	if (!ret && !oracle_check(&cfg, &t_env, t_rw_buf, c->n, why, sizeof(why))) {
		tap_diag("ORACLE: %s", why);
		return 1000;
	}
	if (ret && !last_err.reason)
		return 2000;	/* a refusal must say why */
	return ret;
}

static int parse(const struct cb *c, unsigned int q)
{
	return parse_enc(c, q, 0);
}

static struct cb c;

/* ---- the CB as a whole -------------------------------------------------- */

static void t_framing(void)
{
	unsigned int op;

	ok_eq(parse(reset(&c), Q_DMA00), 0, "empty CB accepted");
	pk8(reset(&c), 0, CTL(OP_NOP));
	c.n = 12;
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "size 12 (not a multiple of 8): EINVAL");
	ok_eq(last_err.offset, 12, "  offset is the size");
	c.n = 4;
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "size 4: EINVAL");

	/* Every opcode on its own, with a valid body. */
	for (op = 0; op < 32; op++) {
		int want;

		reset(&c);
		switch (op) {
		case OP_MSG_PROT: case OP_CP_DMA:
		case OP_STOP: case OP_REPEAT:
			want = -EPERM;
			pk16(&c, 0, CTL(op), 0);
			break;
		case OP_WREG_32:
			want = 0;
			wreg(&c, 0x8000 + 0x308, 1);
			break;
		case OP_MSG_LONG:
			want = 0;
			msg(&c, EN_SOB(0), 1);
			break;
		case OP_MSG_SHORT:
			want = 0;
			pk8(&c, 1, CTL(op) | 1U << 22);
			break;
		case OP_LIN_DMA:
			want = 0;
			lin(&c, 64, LIN, T_VA_BUF, O_SRAM_USER);
			break;
		case OP_WREG_BULK:	/* external queue: as upstream */
			want = -EPERM;
			pk8(&c, 0, CTL(op) | 0x14 << 8);
			break;
		case OP_LOAD_AND_EXE:
			want = 0;
			pk16(&c, 1U << 8, CTL(op), T_VA_BUF);
			break;
		case OP_FENCE: case OP_NOP: case OP_ARB_POINT: case OP_WAIT:
			want = 0;
			pk8(&c, 0, CTL(op));
			break;
		default:
			want = -EINVAL;
			pk16(&c, 0, CTL(op), 0);
			break;
		}
		ok_eq(parse(&c, Q_DMA00), want, "opcode 0x%02x alone: %d", op, want);
	}

	/* Truncated packets. */
	lin(reset(&c), 8, LIN, T_VA_BUF, O_SRAM_USER);
	c.n = 16;
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "LIN_DMA truncated to 16 bytes: EINVAL");
	msg(reset(&c), EN_SOB(0), 1);
	c.n = 8;
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_LONG truncated to 8 bytes: EINVAL");
	pk8(reset(&c), 0, CTL(OP_NOP));
	pk16(&c, 1U << 8, CTL(OP_LOAD_AND_EXE), T_VA_BUF);
	c.n = 16;
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "LOAD_AND_EXE cut after its header: EINVAL");
	ok_eq(last_err.offset, 8, "  at offset 8");

	/* The offset and opcode of a refusal after valid packets. */
	reset(&c);
	pk8(&c, 0, CTL(OP_NOP));
	lin(&c, 16, LIN | EB, T_VA_BUF, O_HBM_USER);
	msg(&c, WS_SOB(200), SOB_ADD | 1);
	pk16(&c, 0, CTL(OP_MSG_PROT), T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "MSG_PROT after three valid packets: EPERM");
	ok_eq(last_err.offset, 48, "  at offset 48");
	ok_eq(last_err.opcode, OP_MSG_PROT, "  opcode MSG_PROT");
	ok(!strcmp(gaudi_parser_pkt_name(last_err.opcode), "MSG_PROT"),
	   "  named MSG_PROT");

	/* A long valid CB. */
	reset(&c);
	while (c.n + 24 <= sizeof(c.b))
		lin(&c, 4096, LIN | MEMSET, 0x5A5A5A5A, O_HBM_USER + c.n * 4096ULL);
	ok_eq(parse(&c, Q_DMA10), 0, "%u bytes of memsets accepted", c.n);
}

/* ---- reserved bits and predicates -------------------------------------- */

static void t_reserved(void)
{
	struct {
		const char *name;
		uint32_t op, w0, ctl, rsvd_w0, rsvd_ctl;
		unsigned int q;
	} p[] = {
		{ "NOP", OP_NOP, 0, 0, 0xFFFFFFFF, 0x00FFFFFF, Q_DMA00 },
		{ "FENCE", OP_FENCE, 0xC0FF000F, 0x1F, 0x3F00FFF0, 0x00FFFFE0, Q_DMA00 },
		{ "WAIT", OP_WAIT, 0x3FFFFFFF, 0, 0xC0000000, 0x00FFFFFF, Q_DMA00 },
		{ "ARB_POINT", OP_ARB_POINT, 0x800000FF, 0x1F, 0x7FFFFF00, 0x00FFFFE0, Q_DMA00 },
		{ "WREG_32", OP_WREG_32, 7, (0x8000 + 0x308) << 8 | 0x1F, 0, 0xE0, Q_DMA00 },
		{ "MSG_SHORT", OP_MSG_SHORT, 1, 1U << 22 | 3U << 16, 0, 0xC0000, Q_DMA00 },
	};
	unsigned int i, bit, bad;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		pk8(reset(&c), p[i].w0, CTL(p[i].op) | p[i].ctl);
		ok_eq(parse(&c, p[i].q), 0, "%s with every defined field set: accepted",
		      p[i].name);
		bad = 0;
		for (bit = 0; bit < 32; bit++) {
			if (!(p[i].rsvd_w0 & 1U << bit))
				continue;
			pk8(reset(&c), p[i].w0 | 1U << bit, CTL(p[i].op) | p[i].ctl);
			bad += parse(&c, p[i].q) != -EINVAL;
		}
		for (bit = 0; bit < 24; bit++) {
			if (!(p[i].rsvd_ctl & 1U << bit))
				continue;
			pk8(reset(&c), p[i].w0, CTL(p[i].op) | p[i].ctl | 1U << bit);
			bad += parse(&c, p[i].q) != -EINVAL;
		}
		ok_eq(bad, 0, "%s: each reserved bit alone: EINVAL", p[i].name);
	}

	/* MSG_LONG: pred, WO, NS allowed; bits 15:5, 19:18, 23:22 reserved. */
	pk16(reset(&c), 1, CTL(OP_MSG_LONG) | 0x1F | 3U << 16 | EB | RB | MB, EN_SOB(3));
	ok_eq(parse(&c, Q_DMA00), 0, "MSG_LONG with predicate, WO, NS, barriers: accepted");
	bad = 0;
	for (bit = 5; bit < 24; bit++) {
		if (bit == 16 || bit == 17 || bit == 20 || bit == 21)
			continue;
		pk16(reset(&c), 1, CTL(OP_MSG_LONG) | 1U << bit, EN_SOB(3));
		bad += parse(&c, Q_DMA00) != -EINVAL;
	}
	ok_eq(bad, 0, "MSG_LONG: each reserved ctl bit alone: EINVAL");

	/* LOAD_AND_EXE: only load; dst, exe, etype refused, rest reserved. */
	pk16(reset(&c), 1U << 8, CTL(OP_LOAD_AND_EXE) | 0x1F, O_HBM_USER);
	ok_eq(parse(&c, Q_TPC00), 0, "LOAD_AND_EXE predicates from HBM, predicated: accepted");
	pk16(reset(&c), 0, CTL(OP_LOAD_AND_EXE), 0);
	ok_eq(parse(&c, Q_TPC00), 0, "LOAD_AND_EXE without load (nothing read): accepted");
	bad = 0;
	for (bit = 1; bit < 32; bit++) {
		if (bit >= 8 && bit <= 10)
			continue;
		pk16(reset(&c), 1U << 8 | 1U << bit, CTL(OP_LOAD_AND_EXE), O_HBM_USER);
		bad += parse(&c, Q_TPC00) != -EINVAL;
	}
	for (bit = 5; bit < 24; bit++) {
		pk16(reset(&c), 1U << 8, CTL(OP_LOAD_AND_EXE) | 1U << bit, O_HBM_USER);
		bad += parse(&c, Q_TPC00) != -EINVAL;
	}
	ok_eq(bad, 0, "LOAD_AND_EXE: each reserved bit alone: EINVAL");

	/* LIN_DMA: bits 15:7 reserved, context ids free. */
	lin(reset(&c), 64, LIN | 0xFFU << 16 | EB | RB | MB, T_VA_BUF,
	    0xFF00000000000000ULL | O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "LIN_DMA with both context ids and barriers: accepted");
	bad = 0;
	for (bit = 7; bit < 16; bit++) {
		lin(reset(&c), 64, LIN | 1U << bit, T_VA_BUF, O_HBM_USER);
		bad += parse(&c, Q_DMA00) != -EINVAL;
	}
	ok_eq(bad, 0, "LIN_DMA: each reserved ctl bit (15:7) alone: EINVAL");
}

/* ---- LIN_DMA ------------------------------------------------------------ */

static void t_lin_dma(void)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} opt[] = {
		{ 1U << 0, "write completion" }, { 1U << 1, "transpose" },
		{ 1U << 2, "dtype" }, { 1U << 5, "compress" },
		{ 1U << 6, "decompress" },
	};
	unsigned int i;

	/* Class 3: the options other than MEMSET. */
	for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++) {
		lin(reset(&c), 64, LIN | opt[i].bit, T_VA_BUF, O_SRAM_USER);
		ok_eq(parse(&c, Q_DMA00), -EPERM, "class 3: LIN_DMA with %s: EPERM",
		      opt[i].name);
	}
	lin(reset(&c), 64, 0, T_VA_BUF, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "class 3: non-linear LIN_DMA (strides from registers): EPERM");
	lin(reset(&c), 64, MEMSET, 0, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "non-linear memset: EPERM");
	lin(reset(&c), 64, LIN | 1U, O_CFG + 0x508000, O_CFG + 0xC12004);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "write completion aimed at the MMU: EPERM");

	/* Ranges. */
	lin(reset(&c), 64, LIN | MEMSET, 0xFFFFFFFFFFFFFFFFULL, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "memset: the source is a value, not checked");
	lin(reset(&c), 0x80, LIN, O_SRAM_USER, O_SRAM_END - 0x80);
	ok_eq(parse(&c, Q_DMA00), 0, "SRAM user start to SRAM end: accepted");
	lin(reset(&c), 0x81, LIN, O_SRAM_USER, O_SRAM_END - 0x80);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "one byte past the SRAM end: EINVAL");
	lin(reset(&c), 0x80, LIN, O_SRAM_USER - 1, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "source in the driver's SRAM (0x7f_f000_007f): EINVAL");
	lin(reset(&c), 1, LIN, O_HBM_USER, O_HBM_USER - 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "destination 0x1fff_ffff (driver HBM): EINVAL");
	lin(reset(&c), 0x1000, LIN, O_HBM_USER, 0x10000000);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "destination in the MMU page tables: EINVAL");
	lin(reset(&c), 1, LIN, O_HBM_END - 1, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "last byte of HBM: accepted");
	lin(reset(&c), 2, LIN, O_HBM_END - 1, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "past the end of HBM: EINVAL");
	lin(reset(&c), 0xFFFFFFFF, LIN, O_HBM_END - 0xFFFFFFFFULL, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "4 GiB - 1 ending at the end of HBM: accepted");
	lin(reset(&c), 0x20, LIN, 0xFFFFFFFFFFFFFFF0ULL, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "source wrapping around 2^64: EINVAL");
	lin(reset(&c), 0x20, LIN, O_HBM_USER, 0x00FFFFFFFFFFFFF0ULL);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "destination wrapping 2^56: EINVAL");
	lin(reset(&c), 0x1000, LIN, O_HBM_USER, 0xFF00000000000000ULL | 0x10000000);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "context id bits do not hide a page-table destination: EINVAL");
	lin(reset(&c), 8 << 20, LIN, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "the whole mapped host buffer: accepted");
	lin(reset(&c), (8 << 20) + 1, LIN, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "one byte past the mapping: EINVAL");
	lin(reset(&c), 16, LIN, T_VA_BUF - 8, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "starting before the mapping: EINVAL");
	lin(reset(&c), 16, LIN, T_VA_BUF + (1ULL << 30), O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "unmapped host virtual address: EINVAL");
	lin(reset(&c), 0x1000, LIN, T_VA_END_PAGE, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "the last mapped page of the window: accepted");
	lin(reset(&c), 0x1001, LIN, T_VA_END_PAGE, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "past the end of the host window: EINVAL");
	lin(reset(&c), 0x1000, LIN, 0x8000000000ULL + 0x100000, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "host physical memory: EINVAL");
	lin(reset(&c), 4, LIN, T_VA_BUF, O_CFG + 0xC12000);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "into the registers: EINVAL");
	lin(reset(&c), 4, LIN, O_CFG + 0x4F2000, T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "from the registers (even user SOBs): EINVAL");

	/* Size 0 is a plain packet whose addresses are still the user's. */
	lin(reset(&c), 0, LIN, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "size 0 between user ranges: accepted");
	lin(reset(&c), 0, LIN, T_VA_BUF, 0x10000000);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "size 0 naming the page tables: EINVAL");
	lin(reset(&c), 0, LIN, O_CFG, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "size 0 from the registers: EINVAL");

	/* Only DMA queues have a DMA engine. */
	lin(reset(&c), 64, LIN, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA20), 0, "LIN_DMA on DMA_2_0 (internal): accepted");
	ok_eq(parse(&c, Q_TPC00), -EPERM, "LIN_DMA on TPC_0_0: EPERM");
	ok_eq(parse(&c, Q_MME00), -EPERM, "LIN_DMA on MME_0_0: EPERM");
}

/* ---- strided LIN_DMA over the DMA core's shape registers ----------------- */

/* One side's shape: TSIZE_0..4, STRIDE_1..4 (stride[0] unused). */
struct t_side {
	uint32_t t[5], st[5];
};

/* WREG_32 the source and destination shape (DST_TSIZE_0 too, as hl-thunk). */
static struct cb *shape(struct cb *k, const struct t_side *src,
			const struct t_side *dst)
{
	unsigned int i;

	wreg(k, 0x04C, src->t[0]);
	wreg(k, 0x074, dst->t[0]);
	for (i = 1; i < 5; i++) {
		wreg(k, 0x02C + 8 * (i - 1), src->t[i]);
		wreg(k, 0x030 + 8 * (i - 1), src->st[i]);
		wreg(k, 0x054 + 8 * (i - 1), dst->t[i]);
		wreg(k, 0x058 + 8 * (i - 1), dst->st[i]);
	}
	return k;
}

/* The highest offset a side reaches. */
static uint64_t t_span(const struct t_side *d)
{
	uint64_t s = d->t[0] - 1;
	unsigned int i;

	for (i = 1; i < 5; i++)
		s += (uint64_t)(d->t[i] - 1) * d->st[i];
	return s;
}

static void t_strided(void)
{
	/* hl-thunk's shape: 3 planes of 6 rows of 1 KiB, gathered, scattered */
	const struct t_side s3 = { { 1024, 6, 3, 1, 1 },
				   { 0, 3072, 6 * 3072 + 512, 0x10000, 0x10000 } };
	const struct t_side d3 = { { 1024, 6, 3, 1, 1 },
				   { 0, 2048, 6 * 2048 + 4096, 0x10000, 0x10000 } };
	const struct t_side s2 = { { 256, 16, 1, 1, 1 }, { 0, 4096, 0, 0, 0 } };
	const struct t_side d2 = { { 4096, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0 } };
	/* the source re-reads one row 10 times (stride 0) */
	const struct t_side s0 = { { 512, 10, 1, 1, 1 }, { 0, 0, 0, 0, 0 } };
	const struct t_side d0 = { { 512, 10, 1, 1, 1 }, { 0, 512, 0, 0, 0 } };
	const struct t_side s1 = { { 2048, 1, 1, 1, 1 }, { 0, 0, 0, 0, 0 } };
	const uint64_t end = T_VA_BUF + (8 << 20);
	struct t_side h;
	uint64_t far;
	unsigned int i, bad;

	/* Legitimate: 3-D and 2-D, host and device memory, copy and memset. */
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 0, T_VA_BUF, T_VA_BUF + (2 << 20));
	ok_eq(parse(&c, Q_DMA00), 0, "strided 3-D copy (6 rows x 3 planes, hl-thunk's shape) on DMA_0_0: accepted");
	shape(reset(&c), &s2, &d2);
	lin(&c, 4096, 0, O_HBM_USER, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), 0, "strided 2-D gather HBM -> SRAM on DMA_2_0: accepted");
	shape(reset(&c), &s0, &d0);
	lin(&c, 512, 0, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "source stride 0 (one row read 10 times): accepted");
	reset(&c);
	for (i = 1; i < 5; i++) {
		wreg(&c, 0x054 + 8 * (i - 1), d3.t[i]);
		wreg(&c, 0x058 + 8 * (i - 1), d3.st[i]);
	}
	lin(&c, 1024, MEMSET, 0x5A5A5A5A5A5A5A5AULL, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "strided memset with the destination shape only: accepted");
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER);
	lin(&c, 8192, LIN, T_VA_BUF, O_HBM_USER);
	lin(&c, 1024, 0, O_HBM_USER, T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), 0, "strided, linear, strided again in one CB: accepted");

	/* The far corner: exactly the mapping's end, then one byte beyond. */
	far = t_span(&d3);
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 0, T_VA_BUF, end - far - 1);
	ok_eq(parse(&c, Q_DMA00), 0, "destination footprint ending at the mapping's last byte: accepted");
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 0, T_VA_BUF, end - far);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "destination far corner one byte past the mapping: EINVAL");
	far = t_span(&s3);
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 0, end - far - 1, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "source footprint ending at the mapping's last byte: accepted");
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 0, end - far, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "source far corner one byte past the mapping: EINVAL");
	/* A plane stride that carries the last plane into the driver's HBM. */
	h = d3;
	h.st[2] = 0x10000000;
	shape(reset(&c), &s3, &h);
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_END - 0x20000000);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "plane stride past the end of HBM (first row in user HBM): EINVAL");
	h = d3;
	h.st[3] = 0x7FFFFFFF;
	h.t[3] = 2;
	h.t[2] = 1;
	shape(reset(&c), &s3, &h);
	lin(&c, 1024, 0, T_VA_BUF, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "a 2 GiB dimension-3 stride out of SRAM: EINVAL");

	/* Wrapping strides, counts and sizes. */
	/*
	 * In user HBM both fit unsigned, but a signed core would walk below
	 * the base into the driver's HBM.
	 */
	h = (struct t_side){ { 1024, 2, 1, 1, 1 }, { 0, 0x80000000, 0, 0, 0 } };
	shape(reset(&c), &s1, &h);
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER + 0x1000);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "stride 2^31 in user HBM (negative to a signed core): EINVAL");
	h.st[1] = 0xFFFFFC00;	/* -1024 */
	shape(reset(&c), &s1, &h);
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER + 0x1000);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "stride -1024 (2^32 - 1024) in user HBM: EINVAL");
	h.st[1] = 0x7FFFFFFF;
	shape(reset(&c), &s1, &h);
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER + 0x1000);
	ok_eq(parse(&c, Q_DMA00), 0, "stride 2^31 - 1 in user HBM: accepted");
	for (i = 1; i < 5; i++) {
		h.t[i] = 0xFFFFFFFF;
		h.st[i] = 0x7FFFFFFF;
	}
	shape(reset(&c), &h, &h);
	lin(&c, 1024, 0, 0, 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "a footprint beyond 2^64 (four 2^32 x 2^31 dimensions): EINVAL");
	h = d3;
	h.t[2] = 0;
	shape(reset(&c), &s3, &h);
	lin(&c, 1024, 0, T_VA_BUF, T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "a count of 0: EINVAL");
	shape(reset(&c), &s3, &d3);
	lin(&c, 0, 0, T_VA_BUF, T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "strided with rows of 0 bytes: EINVAL");
	h = s3;
	h.t[1] = 5;
	shape(reset(&c), &h, &d3);
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "source 5 x 3 rows, destination 6 x 3: EINVAL");
	h = s3;
	h.t[0] = 2048;
	h.t[1] = 3;
	shape(reset(&c), &h, &d3);
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "source 3 x 2 KiB rows, destination 6 x 1 KiB (same bytes): accepted");

	/* Registers not written in this CB are unknown. */
	bad = 0;
	for (i = 0x02C; i <= 0x070; i += 4) {
		unsigned int j;

		if (i == 0x050)
			continue;
		/* the same CB with register i's WREG_32 turned into a NOP */
		shape(reset(&c), &s3, &d3);
		for (j = 0; j < c.n; j += 8)
			if ((uint32_t)(c.b[j + 5] | c.b[j + 6] << 8) == i) {
				uint32_t nop[2] = { 0, CTL(OP_NOP) };

				memcpy(c.b + j, nop, 8);
			}
		lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER);
		bad += parse(&c, Q_DMA00) != -EPERM;
	}
	ok_eq(bad, 0, "each of the 17 shape registers left unwritten: EPERM");
	lin(reset(&c), 1024, 0, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "non-linear LIN_DMA after a CB that set the shape: EPERM (never assumed)");

	/* A predicated shape write may be skipped: the core keeps the old value. */
	shape(reset(&c), &s3, &d3);
	c.b[8 * 5 + 4] |= 3;	/* the 6th WREG_32 (DST_TSIZE_1) on predicate 3 */
	lin(&c, 1024, 0, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "a predicated shape WREG_32: EPERM");
	ok_eq(last_err.offset, 8 * 5, "  refused at that WREG_32");

	/* Only stream 0's upper CP sets the shape; only its own core. */
	shape(reset(&c), &s3, &d3);
	ok_eq(parse(&c, Q_DMA01), -EPERM, "shape registers from DMA_0_1 (another stream of the same core): EPERM");
	lin(reset(&c), 1024, 0, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA01), -EPERM, "non-linear LIN_DMA on DMA_0_1: EPERM");
	t_snap = 2;
	shape(reset(&c), &s3, &d3);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "shape registers from a lower CB (CP_DMA target): EPERM");
	t_snap = 0;
	wreg(reset(&c), 0x02C, 6);
	ok_eq(parse(&c, Q_TPC00), -EPERM, "0x02C on TPC_0_0 (not a DMA core): EPERM");
	msg(reset(&c), O_CFG + 0x520000 + 0x02C, 6);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_LONG to DMA 1's SRC_TSIZE_1 (another core): EINVAL");
	msg(reset(&c), O_CFG + 0x500000 + 0x030, 6);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_LONG to its own core's SRC_STRIDE_1 (untracked): EINVAL");
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 1U << 1, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "strided transpose: EPERM");
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 1U << 5, T_VA_BUF, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "strided compression: EPERM");

	/* The value at the commit counts, not the first one written. */
	shape(reset(&c), &s3, &d3);
	lin(&c, 1024, 0, T_VA_BUF, T_VA_BUF);
	wreg(&c, 0x058 + 8, 0x10000000);	/* DST_STRIDE_2 */
	lin(&c, 1024, 0, T_VA_BUF, T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "a stride rewritten between two commits, the second leaving the mapping: EINVAL");
	ok_eq(last_err.offset, 18 * 8 + 24 + 8, "  refused at the second commit");
}

/* ---- COMMIT by WREG_32, WREG_BULK, write completion ---------------------- */

/*
 * hl-thunk's strided test as its CB has it: the bases, the shape (@s, @d),
 * DST_TSIZE_0, the write completion (+1 to @sob) and COMMIT @commit, all
 * by WREG_32 on stream 0.
 */
static struct cb *reg_strided(struct cb *k, uint64_t src, uint64_t dst,
			      const struct t_side *s, const struct t_side *d,
			      uint64_t sob, uint32_t commit)
{
	unsigned int i;

	wreg(k, 0x014, (uint32_t)src);
	wreg(k, 0x018, src >> 32);
	wreg(k, 0x01C, (uint32_t)dst);
	wreg(k, 0x020, dst >> 32);
	for (i = 1; i < 5; i++) {
		wreg(k, 0x02C + 8 * (i - 1), s->t[i]);
		wreg(k, 0x030 + 8 * (i - 1), s->st[i]);
	}
	wreg(k, 0x04C, s->t[0]);
	for (i = 1; i < 5; i++) {
		wreg(k, 0x054 + 8 * (i - 1), d->t[i]);
		wreg(k, 0x058 + 8 * (i - 1), d->st[i]);
	}
	wreg(k, 0x074, d->t[0]);
	wreg(k, 0x080, (uint32_t)sob);
	wreg(k, 0x084, sob >> 32);
	wreg(k, 0x07C, SOB_ADD | 1);
	return wreg(k, 0x078, commit);
}

static struct cb *bulk(struct cb *k, uint32_t reg, const uint32_t *v,
		       uint32_t n, uint32_t ctl_bits)
{
	uint32_t i;

	pk8(k, n / 2, CTL(OP_WREG_BULK) | reg << 8 | ctl_bits);
	for (i = 0; i < n; i++)
		put32(k, v[i]);
	return k;
}

static void t_commit(void)
{
	/* hl-thunk's test: one 4 KiB row re-read 8 times, 8 KiB apart */
	const struct t_side s8 = { { 4096, 8, 1, 1, 1 }, { 0, 0, 4096, 4096, 4096 } };
	const struct t_side d8 = { { 4096, 8, 1, 1, 1 }, { 0, 8192, 4096, 4096, 4096 } };
	const struct t_side dfar = { { 4096, 8, 1, 1, 1 }, { 0, 0x200000, 4096, 4096, 4096 } };
	const uint32_t shp[2] = { 8, 0 };
	struct gaudi_parser_cfg cfg;
	uint32_t w[6], n, calls;
	char why[200];
	int r;

	/* Legitimate: Habana's program, rewritten into one LIN_DMA. */
	reg_strided(reset(&c), T_VA_BUF, T_VA_BUF + (1 << 20), &s8, &d8,
		    EN_SOB(5), 1);
	n = c.n;
	calls = t_rw_calls;
	ok_eq(parse(&c, Q_DMA00), 0, "COMMIT by WREG_32 (hl-thunk's strided test with a SOB completion) on DMA_0_0: accepted");
	ok_eq(t_rw_calls, calls + 1, "  rewritten once");
	memcpy(w, t_rw_buf + n - 24, 24);
	ok(w[0] == 4096 && w[1] == (CTL(OP_LIN_DMA) | RB | 1) &&
	   w[2] == (uint32_t)T_VA_BUF && w[3] == T_VA_BUF >> 32 &&
	   w[4] == (uint32_t)(T_VA_BUF + (1 << 20)) &&
	   w[5] == (T_VA_BUF + (1 << 20)) >> 32,
	   "  the copy ends with the LIN_DMA of the tracked bases, size and commit value");
	memcpy(w, t_rw_buf + n - 32, 8);
	ok(w[1] == (CTL(OP_WREG_32) | 0x07C << 8 | RB) && w[0] == (SOB_ADD | 1),
	   "  the write completion data still written before it");
	t_cfg(&cfg, Q_DMA00, 0);
	cfg.rewrite = t_rewrite;
	calls = t_rw_calls;
	r = gaudi_parse_cb(&cfg, t_rw_buf, n, &last_err);
	ok(r == 0 && t_rw_calls == calls &&
	   oracle_check(&cfg, &t_env, t_rw_buf, n, why, sizeof(why)),
	   "  the rewritten copy parses again unchanged, and satisfies the oracle");
	reg_strided(reset(&c), O_HBM_USER, O_SRAM_USER, &s8, &d8, EN_SOB(5),
		    LIN | MEMSET);
	ok_eq(parse(&c, Q_DMA20), 0, "COMMIT of a linear memset by WREG_32 on DMA_2_0: accepted");
	reset(&c);
	wreg(&c, 0x014, 0);
	wreg(&c, 0x018, 0);
	wreg(&c, 0x01C, (uint32_t)O_SRAM_USER);
	wreg(&c, 0x020, O_SRAM_USER >> 32);
	wreg(&c, 0x074, 4096);
	wreg(&c, 0x078, LIN | MEMSET);
	ok_eq(parse(&c, Q_DMA00), 0, "upstream's scrub sequence (bases, size, COMMIT LIN|MEMSET) to user SRAM: accepted");
	memcpy(w, t_rw_buf + c.n - 24, 24);
	ok(w[0] == 4096 && w[1] == (CTL(OP_LIN_DMA) | RB | LIN | MEMSET) &&
	   w[4] == (uint32_t)O_SRAM_USER, "  rewritten: the LIN_DMA memset");
	memcpy(w, t_rw_buf, 8);
	ok(w[1] == (CTL(OP_WREG_32) | 0x014 << 8 | RB),
	   "  the base writes before the last two stay");
	reset(&c);
	wreg(&c, 0x014, 0);
	wreg(&c, 0x018, 0);
	wreg(&c, 0x01C, (uint32_t)O_SRAM_USER);
	wreg(&c, 0x074, 4096);
	wreg(&c, 0x054, 7);
	wreg(&c, 0x020, O_SRAM_USER >> 32);
	wreg(&c, 0x078, LIN | MEMSET);
	ok_eq(parse(&c, Q_DMA00), 0, "the same with a shape write and DST_BASE_HI last: accepted");
	memcpy(w, t_rw_buf + 24, 8);
	ok(w[1] == (CTL(OP_WREG_32) | 0x054 << 8 | RB) && w[0] == 7,
	   "  the shape write moved to the front of the rewritten run");

	/* Hostile twins. */
	reg_strided(reset(&c), T_VA_BUF, T_VA_BUF + (7 << 20), &s8, &dfar,
		    EN_SOB(5), 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "COMMIT whose destination footprint leaves the mapping: EINVAL");
	ok_eq(last_err.offset, c.n - 8, "  refused at the COMMIT");
	reg_strided(reset(&c), T_VA_BUF, O_SRAM, &s8, &d8, EN_SOB(5),
		    LIN);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "COMMIT of a linear copy into the driver's SRAM: EINVAL");
	reg_strided(reset(&c), T_VA_BUF, T_VA_BUF + (1 << 20), &s8, &d8,
		    WS_SOB(0), 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "COMMIT with its completion to a driver SOB: EINVAL");
	reg_strided(reset(&c), T_VA_BUF, T_VA_BUF + (1 << 20), &s8, &d8,
		    MON(EN, ADDRL, 3), 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "COMMIT with its completion to a monitor's payload address: EINVAL");
	reg_strided(reset(&c), T_VA_BUF, T_VA_BUF + (1 << 20), &s8, &d8,
		    EN_SOB(5), 1);
	ok_eq(parse(&c, Q_DMA01), -EPERM, "the same program on stream 1: EPERM");
	ok_eq(parse(&c, Q_MME00), -EPERM, "the same program on an MME queue: EPERM");
	t_snap = 2;
	ok_eq(parse(&c, Q_DMA20), -EPERM, "the same program in a CP_DMA target: EPERM");
	t_snap = 0;
	t_cfg(&cfg, Q_DMA00, 0);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -EPERM, "COMMIT without a rewriting caller: EPERM");
	c.b[c.n - 8 + 4] |= 1;	/* predicate 1 */
	ok_eq(parse(&c, Q_DMA00), -EPERM, "predicated COMMIT: EPERM");
	c.b[c.n - 8 + 4] &= ~1;
	c.b[c.n - 8 + 1] = 1;	/* COMMIT bit 8 */
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "COMMIT reserved bit 8: EINVAL");
	c.b[c.n - 8 + 1] = 0;
	c.b[c.n - 8] = 1 | 2;	/* transpose */
	ok_eq(parse(&c, Q_DMA00), -EPERM, "COMMIT with transpose: EPERM");
	c.b[c.n - 8] = 1;
	c.n -= 8;
	pk8(&c, 0, CTL(OP_FENCE));
	wreg(&c, 0x078, 1);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "COMMIT after a FENCE (its base writes not in its run): EPERM");
	reset(&c);
	wreg(&c, 0x014, (uint32_t)T_VA_BUF);
	wreg(&c, 0x01C, (uint32_t)T_VA_BUF);
	wreg(&c, 0x074, 64);
	wreg(&c, 0x078, LIN);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "COMMIT with the high bases unwritten in this CB: EPERM");

	/* WREG_BULK of the tracked registers. */
	reset(&c);
	bulk(&c, 0x02C, (const uint32_t[]){ 8, 0, 1, 0, 1, 0, 1, 0 }, 8, 0);
	wreg(&c, 0x04C, 4096);
	bulk(&c, 0x054, (const uint32_t[]){ 8, 8192, 1, 0, 1, 0, 1, 0 }, 8, 0);
	lin(&c, 4096, 0, O_HBM_USER, O_HBM_USER + (1 << 20));
	ok_eq(parse(&c, Q_DMA20), 0, "WREG_BULK of the shape, then a strided LIN_DMA on DMA_2_0: accepted");
	ok_eq(parse(&c, Q_DMA00), -EPERM, "the same on an external queue: EPERM (as upstream)");
	bulk(reset(&c), 0x04C, (const uint32_t[]){ 4096, 0 }, 2, 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "WREG_BULK over 0x050 (no register): EPERM");
	reset(&c);
	bulk(&c, 0x02C, (const uint32_t[]){ 8, 0, 1, 0, 1, 0, 1, 0 }, 8, 0);
	wreg(&c, 0x04C, 4096);
	bulk(&c, 0x054, (const uint32_t[]){ 8, 0x200000, 1, 0, 1, 0, 1, 0 }, 8, 0);
	lin(&c, 4096, 0, O_HBM_USER, O_HBM_END - 4096);
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "WREG_BULK of a shape leaving user HBM: EINVAL at the commit");
	bulk(reset(&c), 0x070, (const uint32_t[]){ 0, 64, 1, 0 }, 4, 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "WREG_BULK through COMMIT: EPERM");
	bulk(reset(&c), 0x0B0, (const uint32_t[]){ 0, 0, 0, 0 }, 4, 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "WREG_BULK to PROT: EPERM");
	bulk(reset(&c), 0x02C, shp, 2, 0);
	ok_eq(parse(&c, Q_DMA21), -EPERM, "WREG_BULK of the shape on stream 1: EPERM");
	ok_eq(parse(&c, Q_TPC00), -EPERM, "WREG_BULK on a TPC queue: EPERM");
	bulk(reset(&c), 0x02C, shp, 2, 1);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "predicated WREG_BULK: EPERM");
	bulk(reset(&c), 0x02C, shp, 2, 0);
	c.b[2] = 1;	/* size64 bit 16 */
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "WREG_BULK reserved size bits: EINVAL");
	bulk(reset(&c), 0x02C, shp, 2, 0);
	c.n -= 8;
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "WREG_BULK past the end of the CB: EINVAL");

	/* Write completion on a LIN_DMA packet. */
	reset(&c);
	wreg(&c, 0x080, (uint32_t)EN_SOB(7));
	wreg(&c, 0x084, EN_SOB(7) >> 32);
	wreg(&c, 0x07C, SOB_ADD | 1);
	lin(&c, 64, LIN | 1, T_VA_BUF, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "LIN_DMA with write completion to a user SOB: accepted");
	ok_eq(parse(&c, Q_DMA01), -EPERM, "  the same on stream 1: EPERM");
	reset(&c);
	wreg(&c, 0x080, (uint32_t)EN_SOB(7));
	wreg(&c, 0x084, EN_SOB(7) >> 32);
	lin(&c, 64, LIN | 1, T_VA_BUF, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "LIN_DMA write completion with WDATA unwritten in this CB: EPERM");
}

/* ---- LOAD_AND_EXE of scalars ------------------------------------------- */

static u8 t_scalars[16];

/* The scalars R0..R3 the read callback hands out: the packet @w0, @ctl, @a. */
static void set_scalars(uint32_t w0, uint32_t ctl, uint64_t a)
{
	memcpy(t_scalars, &w0, 4);
	memcpy(t_scalars + 4, &ctl, 4);
	memcpy(t_scalars + 8, &a, 8);
	t_read_src = t_scalars;
	t_read_len = 16;
}

static void t_load_exe(void)
{
	const uint32_t LOAD = 1U << 8, EXE = 1U << 9, ETYPE = 1U << 10, SC = 1;
	uint32_t w[4];

	/* hl-thunk's 2-RF test: a MSG_SHORT signalling a SOB in R0/R1 */
	set_scalars(SOB_ADD | 1, CTL(OP_MSG_SHORT) | 3U << 22 | 4 * 150, 0);
	pk16(reset(&c), SC | LOAD | EXE, CTL(OP_LOAD_AND_EXE) | MB, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), 0, "scalar load + execute of a MSG_SHORT to a user SOB on DMA_2_0: accepted");
	memcpy(w, t_rw_buf, 16);
	ok(w[0] == (SOB_ADD | 1) && w[1] == (CTL(OP_MSG_SHORT) | 3U << 22 | 4 * 150) &&
	   w[2] == 0 && w[3] == CTL(OP_NOP),
	   "  the copy holds that MSG_SHORT and a NOP instead of the LOAD_AND_EXE");
	pk16(reset(&c), SC | LOAD, CTL(OP_LOAD_AND_EXE), O_SRAM_USER);
	pk16(&c, EXE, CTL(OP_LOAD_AND_EXE), 0);
	ok_eq(parse(&c, Q_DMA20), 0, "load, then execute in a second packet: accepted");
	memcpy(w, t_rw_buf, 16);
	ok(w[1] == CTL(OP_NOP) && w[3] == CTL(OP_NOP), "  the load alone became NOPs");
	memcpy(w, t_rw_buf + 16, 8);
	ok(w[1] == (CTL(OP_MSG_SHORT) | 3U << 22 | 4 * 150), "  the execute became the packet");
	/* the upper two registers (etype 1) */
	memcpy(t_scalars + 8, t_scalars, 8);
	memset(t_scalars, 0xFF, 8);
	pk16(reset(&c), SC | LOAD | EXE | ETYPE, CTL(OP_LOAD_AND_EXE), O_HBM_USER);
	ok_eq(parse(&c, Q_TPC00), 0, "etype 1: the packet in R2/R3 on TPC_0_0: accepted");
	/* 4 RFs: a MSG_LONG to user SRAM */
	set_scalars(0x1234, CTL(OP_MSG_LONG), O_SRAM_USER + 0x1000);
	pk16(reset(&c), SC | LOAD | EXE, CTL(OP_LOAD_AND_EXE), O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), 0, "etype 0: a MSG_LONG to user SRAM: accepted");

	/* Hostile twins. */
	set_scalars(1, CTL(OP_MSG_LONG), 0x10000000);
	pk16(reset(&c), SC | LOAD | EXE, CTL(OP_LOAD_AND_EXE), O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "executed MSG_LONG to the page tables: EINVAL");
	set_scalars(SOB_ADD | 1, CTL(OP_MSG_LONG), WS_SOB(10));
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "executed MSG_LONG to a driver SOB: EINVAL");
	set_scalars(1, CTL(OP_MSG_PROT), O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "executed MSG_PROT: EPERM");
	set_scalars(0, CTL(OP_STOP), 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "executed STOP: EPERM");
	set_scalars(0, CTL(OP_REPEAT), 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "executed REPEAT: EPERM");
	set_scalars(8, CTL(OP_CP_DMA), T_VA_CB);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "executed CP_DMA: EPERM");
	set_scalars(0x1000, CTL(OP_WREG_32) | 0x078 << 8, 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "executed WREG_32 to the DMA core's COMMIT: EPERM");
	set_scalars(0, CTL(OP_WREG_32) | 0x8008 << 8, 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "executed WREG_32 to GLBL_PROT: EPERM");
	set_scalars(1, CTL(OP_MSG_LONG) | 1U << 6, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "executed packet with a reserved bit: EINVAL");
	set_scalars(1, CTL(OP_MSG_LONG), O_SRAM_USER);
	pk16(reset(&c), SC | LOAD | EXE | ETYPE, CTL(OP_LOAD_AND_EXE), O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "etype 1 with a 16-byte packet: EPERM");
	set_scalars(SOB_ADD | 1, CTL(OP_MSG_SHORT) | 3U << 22 | 4 * 150, 0);
	pk16(reset(&c), EXE, CTL(OP_LOAD_AND_EXE), 0);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "execute of what an earlier CB loaded: EPERM");
	pk16(reset(&c), SC | LOAD | EXE, CTL(OP_LOAD_AND_EXE), O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "on an external queue (a trusted CP): EPERM");
	t_snap = 2;
	ok_eq(parse(&c, Q_DMA20), -EPERM, "in a CP_DMA target (lower CP): EPERM");
	t_snap = 0;
	pk16(reset(&c), SC | LOAD | EXE, CTL(OP_LOAD_AND_EXE) | 3, O_SRAM_USER);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "predicated scalar load and execute: EPERM");
	pk16(reset(&c), SC | LOAD | EXE, CTL(OP_LOAD_AND_EXE), O_SRAM);
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "scalars from the driver's SRAM: EINVAL");
	pk16(reset(&c), SC | LOAD | EXE, CTL(OP_LOAD_AND_EXE), T_VA_CB + 0x10000 - 8);
	ok_eq(parse(&c, Q_DMA20), -EINVAL, "scalars from the last 8 bytes of a mapping (the load reads 16): EINVAL");
	t_read_len = 0;
}

/* ---- WREG_32 ------------------------------------------------------------ */

static void t_wreg(void)
{
	static const struct {
		uint32_t reg;
		const char *name;
	} dma_core[] = {
		{ 0x050, "0x050 (between the shapes)" }, { 0x078, "COMMIT" },
		{ 0x024, "0x024 (after DST_BASE_HI)" },
		{ 0x088, "WR_COMP_AWUSER_31_11" }, { 0x0B8, "PROT" }, { 0x0F0, "SECURE_PROPS" },
		{ 0x0F4, "NON_SECURE_PROPS" }, { 0x000, "CFG_0" },
		{ 0x8000 + 0x070, "QM PQ_BASE_LO_0" },
		{ 0x8000 + 0x008, "QM GLBL_PROT" },
		{ 0x8000 + 0x024, "QM GLBL_NON_SECURE_PROPS_0" },
		{ 0x8000 + 0x228, "QM CP_MSG_BASE0_ADDR_LO_0" },
		{ 0x8000 + 0x30C, "QM CP_FENCE0_RDATA_1 (another stream)" },
		{ 0x8000 + 0xA20, "QM ARB_MST_AVAIL_CRED_0" },
		{ 0x8000 + 0xB50, "QM ARB_BASE_LO" },
		{ 0x8000 + 0xB48, "QM ARB_MSG_AWUSER_SEC_PROP" },
	};
	unsigned int i, f, q, bad;

	/* Class 1: the DMA core and QMAN registers of a DMA queue. */
	for (i = 0; i < sizeof(dma_core) / sizeof(dma_core[0]); i++) {
		wreg(reset(&c), dma_core[i].reg, 0x1000);
		ok_eq(parse(&c, Q_DMA00), -EPERM,
		      "class 1: WREG_32 to the DMA queue's %s: EPERM", dma_core[i].name);
	}
	reset(&c);
	wreg(&c, 0x14, 0);	/* SRC_BASE_LO */
	wreg(&c, 0x1C, 0);	/* DST_BASE_LO */
	wreg(&c, 0x74, 4096);	/* TSIZE */
	wreg(&c, 0x78, 1 << 3);	/* COMMIT LIN */
	ok_eq(parse(&c, Q_DMA20), -EPERM, "class 1: a DMA programmed by registers, high bases unwritten (DMA_2_0): EPERM");
	ok_eq(last_err.offset, 24, "  refused at the COMMIT");
	ok_eq(parse(&c, Q_DMA01), -EPERM, "class 1: a DMA programmed by registers on stream 1: EPERM");
	ok_eq(last_err.offset, 0, "  refused at its first register");
	/* Bases and write completion: stream 0's upper CBs only. */
	for (i = 0; i < 7; i++) {
		static const uint32_t r[7] = { 0x14, 0x18, 0x1C, 0x20, 0x7C,
					       0x80, 0x84 };

		wreg(reset(&c), r[i], 0x1000);
		ok(parse(&c, Q_DMA00) == 0 && parse(&c, Q_DMA21) == -EPERM,
		   "DMA core register 0x%03x: accepted on stream 0, EPERM on stream 1", r[i]);
	}

	/* The stream's own fence counters on every engine. */
	bad = 0;
	for (q = 0; q <= 72; q++) {
		uint32_t s;

		if (q == 8)
			continue;
		s = q < 8 ? q % 4 : q < 33 ? (q - 9) % 4 : q < 41 ? (q - 33) % 4 : (q - 41) % 4;
		for (f = 0; f < 4; f++) {
			wreg(reset(&c), 0x8000 + 0x308 + 0x14 * f + 4 * s, 1);
			wreg(&c, 0x8000 + 0x358 + 0x14 * f + 4 * s, 0);
			bad += parse(&c, q) != 0;
			wreg(reset(&c), 0x8000 + 0x308 + 0x14 * f + 4 * ((s + 1) % 4), 1);
			bad += parse(&c, q) != -EPERM;
		}
	}
	ok_eq(bad, 0, "every queue: own stream's CP_FENCE0..3_RDATA/CNT accepted, another stream's EPERM");
	wreg(reset(&c), 0x8000 + 0x30A, 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "unaligned register: EINVAL");

	/* TPC: descriptor fields yes, addresses and triggers no. */
	wreg(reset(&c), 0x67C0, 5);		/* KERNEL_SRF_0 */
	wreg(&c, 0x683C, 5);			/* KERNEL_SRF_31 */
	wreg(&c, 0x6410, 64);			/* KERNEL_TENSOR_0_DIM_0_SIZE */
	wreg(&c, 0x640C, 0x1F00);		/* KERNEL_TENSOR_0_TENSOR_CONFIG */
	wreg(&c, 0x65BC, 4);			/* KERNEL_TENSOR_7_DIM_4_STRIDE */
	wreg(&c, 0x6790, 0);			/* KERNEL_TID_BASE_DIM_0 */
	wreg(&c, 0x67B8, 0);			/* KERNEL_KERNEL_CONFIG */
	wreg(&c, 0x67BC, 7);			/* KERNEL_KERNEL_ID */
	wreg(&c, 0x6A08, 0);			/* QM_TENSOR_0_PADDING_VALUE */
	wreg(&c, 0x6E3C, 0);			/* QM_SRF_31 */
	ok_eq(parse(&c, Q_TPC32), 0, "TPC_3_2: SRFs, tensor dims/config, TIDs, kernel config: accepted");
	static const struct {
		uint32_t reg;
		const char *name;
	} tpc_bad[] = {
		{ 0x6400, "KERNEL_TENSOR_0_BASE_ADDR_LOW" },
		{ 0x6404, "KERNEL_TENSOR_0_BASE_ADDR_HIGH" },
		{ 0x6588, "KERNEL_TENSOR_7_BASE_ADDR_LOW" },
		{ 0x6A04, "QM_TENSOR_0_BASE_ADDR_HIGH" },
		{ 0x6780, "KERNEL_SYNC_OBJECT_MESSAGE" },
		{ 0x6784, "KERNEL_SYNC_OBJECT_ADDR" },
		{ 0x6788, "KERNEL_KERNEL_BASE_ADDRESS_LOW" },
		{ 0x6D8C, "QM_KERNEL_BASE_ADDRESS_HIGH" },
		{ 0x6840, "(after SRF_31)" },
		{ 0x6900, "PROT" }, { 0x6930, "TPC_CMD" },
		{ 0x6938, "TPC_EXECUTE" }, { 0x6940, "ICACHE_BASE_ADDERESS_LOW" },
		{ 0x6964, "ARUSER_LO" }, { 0x6970, "AWUSER_HI" },
		{ 0x6978, "LUT_FUNC32_BASE_ADDR_LO" }, { 0x69A0, "DBGMEM_ADD" },
	};
	for (i = 0; i < sizeof(tpc_bad) / sizeof(tpc_bad[0]); i++) {
		wreg(reset(&c), tpc_bad[i].reg, 0);
		ok_eq(parse(&c, Q_TPC00), -EPERM, "TPC: WREG_32 to %s: EPERM",
		      tpc_bad[i].name);
	}
	wreg(reset(&c), 0x67C0, 5);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "a TPC register offset on a DMA queue: EPERM");
	ok_eq(parse(&c, Q_MME00), -EPERM, "a TPC register offset on an MME queue: EPERM");

	/* MME. */
	wreg(reset(&c), 0x020, 0);		/* ARCH_HEADER_LOW */
	wreg(&c, 0x1D8, 0);			/* ARCH_DESC_RATE_LIMITER */
	wreg(&c, 0x204, 0);			/* ARCH_DESC_PADDING_VALUE_S */
	wreg(&c, 0x420, 0);			/* SHADOW_0_HEADER_LOW */
	wreg(&c, 0x680 + 0x050, 0);		/* SHADOW_1_TENSOR_S_LOOP_STRIDE_0 */
	wreg(&c, 0xB80 + 0x208, 0);		/* SHADOW_3_DESC_PADDING_VALUE_L */
	ok_eq(parse(&c, Q_MME10), 0, "MME_1_0: descriptor fields of ARCH and SHADOW_0..3: accepted");
	static const struct {
		uint32_t reg;
		const char *name;
	} mme_bad[] = {
		{ 0x000, "ARCH_STATUS" }, { 0x008, "ARCH_BASE_ADDR_HIGH_S" },
		{ 0x01C, "ARCH_BASE_ADDR_LOW_O" },
		{ 0x1DC, "ARCH_DESC_SYNC_OBJECT_ADDR_LOW_LOCAL" },
		{ 0x1E8, "ARCH_DESC_SYNC_OBJECT_DATA" },
		{ 0x1EC, "ARCH_DESC_AXI_USER_DATA" }, { 0x224, "ARCH_DESC_DUMMY" },
		{ 0x280, "CMD" }, { 0x288, "RESET" },
		{ 0x408, "SHADOW_0_BASE_ADDR_HIGH_S" },
		{ 0x900 + 0x014, "SHADOW_2_BASE_ADDR_LOW_S" },
		{ 0xB80 + 0x1E4, "SHADOW_3_DESC_SYNC_OBJECT_ADDR_HIGH" },
		{ 0xE00, "(after SHADOW_3)" },
	};
	for (i = 0; i < sizeof(mme_bad) / sizeof(mme_bad[0]); i++) {
		wreg(reset(&c), mme_bad[i].reg, 0);
		ok_eq(parse(&c, Q_MME00), -EPERM, "MME: WREG_32 to %s: EPERM",
		      mme_bad[i].name);
	}
}

/* ---- messages and the user sync managers ------------------------------- */

static void t_msg(void)
{
	static const struct {
		uint32_t base;
		const char *name;
	} blk[] = { { EN, "E_N" }, { ES, "E_S" }, { WN, "W_N" } };
	unsigned int i;

	/* E_N, E_S, W_N: every SOB and monitor is the user's. */
	for (i = 0; i < 3; i++) {
		uint64_t sob0 = O_CFG + blk[i].base;

		reset(&c);
		msg(&c, sob0, 0);
		msg(&c, sob0 + 4 * 2047, SOB_ADD | 1);
		msg(&c, MON(blk[i].base, ADDRL, 0), (uint32_t)(sob0 + 4 * 7));
		msg(&c, MON(blk[i].base, ADDRH, 0), 0x7F);
		msg(&c, MON(blk[i].base, PDATA, 0), 1);
		msg(&c, MON(blk[i].base, ARM, 0), 0 | 0xFE << 8 | 3 << 17);
		msg(&c, MON(blk[i].base, STATUS, 511), 0);
		ok_eq(parse(&c, Q_DMA01), 0,
		      "%s: SOB 0 and 2047, monitor 0 armed on SOB 0 with payload to SOB 7, monitor 511 status: accepted",
		      blk[i].name);
	}
	/* W_S: from SOB 144 and monitor 72. */
	msg(reset(&c), WS_SOB(144), 1);
	msg(&c, WS_SOB(2047), 1);
	msg(&c, MON(WS, ARM, 72), 18);
	msg(&c, MON(WS, ADDRL, 511), (uint32_t)WS_SOB(144));
	ok_eq(parse(&c, Q_DMA00), 0, "W_S: SOB 144, 2047, monitors 72 and 511: accepted");
	msg(reset(&c), WS_SOB(143), 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "W_S SOB 143 (the driver's): EINVAL");
	msg(reset(&c), WS_SOB(128), SOB_ADD | 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "W_S SOB 128 (signal CSs'): EINVAL");
	msg(reset(&c), MON(WS, ARM, 71), 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "W_S monitor 71 ARM (the driver's): EINVAL");
	msg(reset(&c), MON(WS, ADDRL, 64), (uint32_t)WS_SOB(144));
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "W_S monitor 64 payload (a wait CS's): EINVAL");
	msg(reset(&c), O_CFG + EN + 0x4800, 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "past E_N's last monitor: EINVAL");
	msg(reset(&c), EN_SOB(0) + 2, 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "unaligned SOB address: EINVAL");
	msg(reset(&c), O_CFG + EN - 4, 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "the register before E_N's SOB 0: EINVAL");
	msg(reset(&c), O_CFG + 0xC12008, 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "an MMU register: EINVAL");
	msg(reset(&c), O_CFG + 0x508000 + 0x308, 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "a fence counter directly (only monitors may): EINVAL");
	msg(reset(&c), O_CFG + 0xC04100, 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "PCIE_CORE_MSI_REQ (an interrupt): EINVAL");

	/* Monitor payloads. */
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)(O_CFG + 0xE08000 + 0x40000 * 3 + 0x308 + 0x14 * 2 + 4 * 2));
	ok_eq(parse(&c, Q_DMA00), 0, "payload: TPC3 CP_FENCE2_RDATA_2: accepted");
	msg(reset(&c), MON(ES, ADDRL, 3), (uint32_t)(O_CFG + 0x168000 + 0x308 + 0x14 * 3 + 12));
	ok_eq(parse(&c, Q_DMA00), 0, "payload: MME2 CP_FENCE3_RDATA_3: accepted");
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)(O_CFG + 0x508000 + 0x308 + 16));
	ok_eq(parse(&c, Q_DMA00), 0, "payload: CP_FENCE0_RDATA_4 (the lower CP, CP_DMA chains): accepted");
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)(O_CFG + 0x508000 + 0x358));
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "payload: CP_FENCE0_CNT_0: EINVAL");
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)(O_CFG + 0x548000 + 0x308));
	ok_eq(parse(&c, Q_DMA00), 0, "payload: DMA2 fence: accepted");
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)WS_SOB(100));
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "payload: W_S SOB 100 (the driver's): EINVAL");
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)(O_CFG + 0xC12004));
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "payload: MMU_ASID: EINVAL");
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "payload low word of user HBM (the high word stays CFG): EINVAL");
	msg(reset(&c), MON(EN, ADDRL, 3), (uint32_t)EN_SOB(0) + 2);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "payload: unaligned: EINVAL");
	msg(reset(&c), MON(EN, ADDRH, 3), 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "payload high word 0 (HBM or host): EINVAL");
	msg(reset(&c), MON(EN, ADDRH, 3), 0x80);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "payload high word 0x80 (host physical): EINVAL");
	msg(reset(&c), MON(EN, STATUS, 3), 0x1FF);
	ok_eq(parse(&c, Q_DMA00), 0, "monitor status valid and pending: accepted");
	msg(reset(&c), MON(EN, STATUS, 3), 0x200);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "monitor status reserved bit 9: EINVAL");

	/* Timestamps. */
	pk16(reset(&c), 0, CTL(OP_MSG_LONG) | 1U << 20, T_VA_BUF + 8);
	ok_eq(parse(&c, Q_DMA00), 0, "timestamp to mapped host memory: accepted");
	pk16(reset(&c), 0, CTL(OP_MSG_LONG) | 1U << 20, T_VA_BUF + (8 << 20) - 4);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "timestamp straddling the mapping end (8 bytes): EINVAL");
	pk16(reset(&c), 0, CTL(OP_MSG_LONG) | 1U << 20, EN_SOB(4));
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "timestamp to a user SOB: EINVAL");
	pk16(reset(&c), 0, CTL(OP_MSG_LONG) | 1U << 20, MON(EN, PDATA, 0));
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "timestamp to a monitor: EINVAL");
	pk16(reset(&c), 0, CTL(OP_MSG_LONG) | 2U << 20, T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "message op 2: EINVAL");
	pk16(reset(&c), 0, CTL(OP_MSG_LONG) | 3U << 20, T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "message op 3: EINVAL");
	msg(reset(&c), O_SRAM_USER, 0x12345678);
	msg(&c, O_HBM_END - 4, 1);
	ok_eq(parse(&c, Q_DMA00), 0, "value messages to user SRAM and the last HBM word: accepted");
	msg(reset(&c), O_HBM_END - 2, 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "a 4-byte message past the end of HBM: EINVAL");

	/* MSG_SHORT through the bases the driver programs. */
	pk8(reset(&c), SOB_ADD | 1, CTL(OP_MSG_SHORT) | 1U << 22 | 0);
	pk8(&c, 1, CTL(OP_MSG_SHORT) | 1U << 22 | 4 * 2047);
	pk8(&c, (uint32_t)EN_SOB(9), CTL(OP_MSG_SHORT) | 0U << 22 | 0);	/* E_N mon 0 ADDRL */
	pk8(&c, 0x7F, CTL(OP_MSG_SHORT) | 0U << 22 | 0x800);		/* E_N mon 0 ADDRH */
	pk8(&c, 1, CTL(OP_MSG_SHORT) | 0U << 22 | 0x1000);			/* E_N mon 0 DATA */
	pk8(&c, 1 | 0xFE << 8, CTL(OP_MSG_SHORT) | 0U << 22 | 0x1800);	/* E_N mon 0 ARM */
	pk8(&c, 1, CTL(OP_MSG_SHORT) | 3U << 22 | 4 * 144);
	pk8(&c, 18, CTL(OP_MSG_SHORT) | 2U << 22 | (0x1800 + 4 * 72));	/* W_S mon 72 ARM */
	ok_eq(parse(&c, Q_TPC00), 0, "MSG_SHORT: E_N SOBs, E_N monitor 0 set up and armed, W_S SOB 144 and monitor 72: accepted");
	pk8(reset(&c), 1, CTL(OP_MSG_SHORT) | 3U << 22 | 4 * 143);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_SHORT base 3 to W_S SOB 143: EINVAL");
	pk8(reset(&c), 1, CTL(OP_MSG_SHORT) | 2U << 22 | (0x1800 + 4 * 71));
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_SHORT base 2 to W_S monitor 71: EINVAL");
	pk8(reset(&c), 1, CTL(OP_MSG_SHORT) | 0U << 22 | 0xFFFC);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_SHORT base 0 offset 0xfffc (past E_N): EINVAL");
	pk8(reset(&c), 0, CTL(OP_MSG_SHORT) | 0U << 22 | 0x800);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_SHORT payload high word 0: EINVAL");
	pk8(reset(&c), 0, CTL(OP_MSG_SHORT) | 1U << 20 | 1U << 22);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "MSG_SHORT timestamp to a SOB: EINVAL");

	/* The encapsulated-signal SOB. */
	msg(reset(&c), WS_SOB(130), SOB_ADD | 1);
	ok_eq(parse_enc(&c, Q_DMA01, 130), 0, "encapsulated signals: add 1 to W_S SOB 130: accepted");
	ok_eq(parse_enc(&c, Q_DMA01, 131), -EINVAL, "  to another reservation's SOB: EINVAL");
	ok_eq(parse(&c, Q_DMA01), -EINVAL, "  without a reservation: EINVAL");
	msg(reset(&c), WS_SOB(130), 5);
	ok_eq(parse_enc(&c, Q_DMA01, 130), -EINVAL, "encapsulated-signal SOB set (not add): EINVAL");
	pk16(reset(&c), 0, CTL(OP_MSG_LONG) | 1U << 20, WS_SOB(130));
	ok_eq(parse_enc(&c, Q_DMA01, 130), -EINVAL, "encapsulated-signal SOB timestamp: EINVAL");
}

/* ---- class 2: control flow ---------------------------------------------- */

/* A NIC queue rings its own port's unsecured doorbell, and nothing else does. */
static void t_nic_doorbell(void)
{
	const unsigned int q2 = 73 + 4 * 2 + 1;	/* port 2, stream 1 */

	msg(reset(&c), o_nic_db(2, true), 0x3FFFFF);
	msg(&c, o_nic_db(2, false), 0x80000000U | 2);
	msg(&c, o_nic_db(2, false), 0x80000000U | 1023);
	msg(&c, WS_SOB(144), SOB_ADD | 1);
	ok_eq(parse(&c, q2), 0,
	      "NIC queue of port 2: its doorbell (PI 2^22 - 1, QP 2 and 1023) and a user SOB: accepted");
	msg(reset(&c), o_nic_db(2, true), 1U << 22);
	ok_eq(parse(&c, q2), -EINVAL, "doorbell PI 2^22: EINVAL");
	msg(reset(&c), o_nic_db(2, false), 0x80000000U);
	ok_eq(parse(&c, q2), -EINVAL, "doorbell for QP 0 (the kernel's): EINVAL");
	msg(reset(&c), o_nic_db(2, false), 0x80000000U | 1);
	ok_eq(parse(&c, q2), -EINVAL, "doorbell for QP 1: EINVAL");
	msg(reset(&c), o_nic_db(2, false), 0x80000000U | 1024);
	ok_eq(parse(&c, q2), -EINVAL, "doorbell for QP 1024: EINVAL");
	msg(reset(&c), o_nic_db(2, false), 5);
	ok_eq(parse(&c, q2), -EINVAL, "doorbell QPN without BUSY: EINVAL");
	msg(reset(&c), o_nic_db(2, false), 0x81000005U);
	ok_eq(parse(&c, q2), -EINVAL, "doorbell QPN reserved bits: EINVAL");
	msg(reset(&c), o_nic_db(3, false), 0x80000000U | 5);
	ok_eq(parse(&c, q2), -EINVAL, "port 3's doorbell from port 2's queue: EINVAL");
	msg(reset(&c), o_nic_db(2, false) + 8, 0x80000000U | 5);
	ok_eq(parse(&c, q2), -EINVAL, "the secured doorbell: EINVAL");
	msg(reset(&c), o_nic_db(2, false), 0x80000000U | 5);
	ok_eq(parse(&c, 41), -EINVAL, "port 2's doorbell from a TPC queue: EINVAL");
	ok_eq(parse(&c, 9), -EINVAL, "  from a DMA queue: EINVAL");
	ok_eq(parse(&c, 33), -EINVAL, "  from an MME queue: EINVAL");
	lin(reset(&c), 64, LIN, O_HBM_USER, O_HBM_USER + 4096);
	ok_eq(parse(&c, q2), -EPERM, "LIN_DMA on a NIC queue: EPERM");
	wreg(reset(&c), (o_nic_qm(2) & 0xFFFF) + 0x308 + 4, 0);
	ok_eq(parse(&c, q2), 0, "WREG_32 to its own stream's fence counter: accepted");
}

static void t_control_flow(void)
{
	/*
	 * A zero-size LIN_DMA whose address words hold a forbidden packet;
	 * a REPEAT would jump into them.
	 */
	reset(&c);
	lin(&c, 0, LIN, T_VA_BUF, O_HBM_USER);
	pk8(&c, 1 | 8U << 16, CTL(OP_REPEAT));
	ok_eq(parse(&c, Q_DMA00), -EPERM, "class 2: REPEAT jumping into a LIN_DMA: EPERM");
	ok_eq(last_err.offset, 24, "  refused at the REPEAT");
	pk8(reset(&c), 0, CTL(OP_REPEAT));
	ok_eq(parse(&c, Q_DMA00), -EPERM, "class 2: REPEAT without a jump: EPERM");
	pk16(reset(&c), 24, CTL(OP_CP_DMA), T_VA_CB);
	ok_eq(parse(&c, Q_TPC00), -EPERM, "class 2: CP_DMA of a mapped CB: EPERM");
	pk16(reset(&c), 1U << 8 | 1U << 9, CTL(OP_LOAD_AND_EXE), T_VA_BUF);
	ok_eq(parse(&c, Q_TPC00), -EPERM, "LOAD_AND_EXE with execute: EPERM");
	pk16(reset(&c), 1U << 10, CTL(OP_LOAD_AND_EXE), T_VA_BUF);
	ok_eq(parse(&c, Q_TPC00), -EPERM, "LOAD_AND_EXE with etype: EPERM");
	pk16(reset(&c), 1U | 1U << 8, CTL(OP_LOAD_AND_EXE), T_VA_BUF);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "scalar LOAD_AND_EXE on an external queue: EPERM");
	pk16(reset(&c), 1U << 8, CTL(OP_LOAD_AND_EXE), 0x10000000);
	ok_eq(parse(&c, Q_TPC00), -EINVAL, "predicates from the page tables: EINVAL");
	pk16(reset(&c), 1U << 8, CTL(OP_LOAD_AND_EXE), T_VA_CB + 0x10000 - 128);
	ok_eq(parse(&c, Q_TPC00), 0, "predicates from the last 128 bytes of a mapping: accepted");
	pk16(reset(&c), 1U << 8, CTL(OP_LOAD_AND_EXE), T_VA_CB + 0x10000 - 4);
	ok_eq(parse(&c, Q_TPC00), -EINVAL, "predicates from its last 4 bytes (the load reads 128): EINVAL");
	pk8(reset(&c), 0, CTL(OP_STOP));
	ok_eq(parse(&c, Q_DMA00), -EPERM, "STOP: EPERM");
	pk8(reset(&c), 1, CTL(OP_WREG_BULK) | 0x8000 << 8);
	put64(&c, 0);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "WREG_BULK: EPERM");
	/*
	 * A memset's value words may look like any packet: with nothing that
	 * jumps, the CP never executes them as one.
	 */
	lin(reset(&c), 0, LIN | MEMSET, (uint64_t)CTL(OP_MSG_PROT) << 32, O_HBM_USER);
	ok_eq(parse(&c, Q_DMA00), 0, "a MSG_PROT header as a memset value (data, never executed): accepted");
}

/* ---- Habana's userspace patterns (issue 23) ----------------------------- */

#define ARB(qm, off)	(O_CFG + (qm) + (off))

static void t_arb(void)
{
	/* As hl-thunk's tests: type, master and enable; quiet; weights. */
	reset(&c);
	msg(&c, ARB(0x508000, 0xA00), 1 | 1 << 4 | 1 << 8);
	msg(&c, ARB(0x508000, 0xB34), 0x10);
	msg(&c, ARB(0x508000, 0xA08), 1);
	msg(&c, ARB(0x508000, 0xA0C), 2);
	msg(&c, ARB(0x508000, 0xA10), 3);
	msg(&c, ARB(0x508000, 0xA14), 4);
	ok_eq(parse(&c, Q_DMA00), 0, "arbitration: DMA 0's WRR from a DMA_0_0 CB: accepted");
	ok_eq(parse(&c, Q_DMA01 + 2), 0, "arbitration: DMA 0's WRR from a DMA_0_3 CB: accepted");
	ok_eq(parse(&c, Q_DMA10), -EINVAL, "arbitration: DMA 0's from DMA 1's queue (another QMAN): EINVAL");
	ok_eq(parse(&c, Q_TPC00), -EINVAL, "arbitration: DMA 0's from TPC 0: EINVAL");
	msg(reset(&c), ARB(0xE08000, 0xA00), 1 << 4 | 1 << 8);
	ok_eq(parse(&c, Q_TPC00), 0, "arbitration: TPC 0's priority mode from TPC_0_0: accepted");
	msg(reset(&c), ARB(0x68000, 0xA00), 1 << 4 | 1 << 8);
	ok_eq(parse(&c, Q_MME00), 0, "arbitration: MME 0's from MME_0_0: accepted");
	msg(reset(&c), ARB(0x508000, 0xA00), 1 | 1 << 4 | 1 << 8 | 0xF000);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "arbitration: ARB_CFG_0 with the mask field: EPERM");
	msg(reset(&c), ARB(0x508000, 0xA00), 1U << 16);
	ok_eq(parse(&c, Q_DMA00), -EPERM, "arbitration: ARB_CFG_0 bit 16: EPERM");
	msg(reset(&c), ARB(0x508000, 0xA04), 1);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "arbitration: ARB_CHOISE_Q_PUSH: EINVAL");
	msg(reset(&c), ARB(0x508000, 0xB50), 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "arbitration: ARB_BASE_LO (where a master writes): EINVAL");
	msg(reset(&c), ARB(0x508000, 0xB44), 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "arbitration: ARB_MSG_AWUSER_31_11: EINVAL");
	msg(reset(&c), ARB(0x508000, 0xA01), 0);
	ok_eq(parse(&c, Q_DMA00), -EINVAL, "arbitration: unaligned ARB_CFG_0: EINVAL");
	msg(reset(&c), ARB(o_nic_qm(0), 0xA00), 1 << 4 | 1 << 8);
	ok_eq(parse(&c, 73), -EINVAL, "arbitration: a NIC QMAN's: EINVAL");
	/* The same by WREG_32 (window-relative). */
	wreg(reset(&c), 0x8000 + 0xA00, 1 | 1 << 4 | 1 << 8);
	wreg(&c, 0x8000 + 0xA08, 7);
	wreg(&c, 0x8000 + 0xB34, 0);
	ok_eq(parse(&c, Q_DMA20), 0, "arbitration by WREG_32 on DMA_2_0: accepted");
	wreg(reset(&c), 0x8000 + 0xA00, 1U << 31);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "arbitration by WREG_32, bit 31: EPERM");
	wreg(reset(&c), 0x8000 + 0xA18, 1);
	ok_eq(parse(&c, Q_DMA20), -EPERM, "arbitration by WREG_32, ARB_CFG_1: EPERM");
	/* Lower-CP fence counters: the CP_DMA chains wait on them. */
	wreg(reset(&c), 0x8000 + 0x308 + 16, 1);
	wreg(&c, 0x8000 + 0x358 + 0x14 * 3 + 16, 0);
	ok_eq(parse(&c, Q_DMA00), 0, "WREG_32 to the lower CP's CP_FENCE0_RDATA_4, CP_FENCE3_CNT_4: accepted");
}

static void t_cp_dma_snapshot(void)
{
	struct gaudi_parser_cfg cfg;
	char why[200];
	int r;

	t_cfg(&cfg, Q_TPC00, 0);
	cfg.cp_dma = t_cp_dma;
	reset(&c);
	msg(&c, WS_SOB(144), SOB_ADD | 1);
	pk16(&c, 64, CTL(OP_CP_DMA) | MB, T_VA_CB + 0x100);
	t_cp_dma_calls = 0;
	t_cp_dma_ret = 0;
	r = gaudi_parse_cb(&cfg, c.b, c.n, &last_err);
	ok_eq(r, 0, "CP_DMA of a mapped CB with a snapshotting caller: accepted");
	ok(t_cp_dma_calls == 1 && t_cp_dma_off == 16 &&
	   t_cp_dma_addr == T_VA_CB + 0x100 && t_cp_dma_len == 64,
	   "  the caller is asked once, with the packet's offset, address and size");
	ok(oracle_check(&cfg, &t_env, c.b, c.n, why, sizeof(why)), "  the oracle agrees");
	t_cp_dma_ret = -ENOMEM;
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -ENOMEM,
	      "  the caller's error refuses the CB");
	t_cp_dma_ret = 0;
	pk16(reset(&c), 64, CTL(OP_CP_DMA), O_SRAM_USER + 0x2000);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), 0, "CP_DMA of a CB in user SRAM: accepted");
	pk16(reset(&c), 64, CTL(OP_CP_DMA), O_HBM_USER);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), 0, "CP_DMA of a CB in user HBM: accepted");
	t_cp_dma_calls = 0;
	pk16(reset(&c), 0, CTL(OP_CP_DMA), 0);
	ok(gaudi_parse_cb(&cfg, c.b, c.n, &last_err) == 0 && !t_cp_dma_calls,
	   "CP_DMA of 0 bytes: accepted, nothing to snapshot");
	pk16(reset(&c), 64, CTL(OP_CP_DMA), 0x1C000000);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -EINVAL,
	      "hostile: CP_DMA of the driver's HBM (its CB copies): EINVAL");
	pk16(reset(&c), 64, CTL(OP_CP_DMA), O_SRAM);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -EINVAL,
	      "hostile: CP_DMA of the driver's SRAM: EINVAL");
	pk16(reset(&c), 64, CTL(OP_CP_DMA), T_VA_CB + 0x10000 - 32);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -EINVAL,
	      "hostile: CP_DMA past the end of its mapping: EINVAL");
	pk16(reset(&c), 60, CTL(OP_CP_DMA), T_VA_CB);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -EINVAL,
	      "CP_DMA of 60 bytes (not whole packets): EINVAL");
	pk16(reset(&c), 64, CTL(OP_CP_DMA) | 1U << 12, T_VA_CB);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -EINVAL,
	      "CP_DMA with a reserved control bit: EINVAL");
	cfg.lower = true;
	pk16(reset(&c), 64, CTL(OP_CP_DMA), T_VA_CB);
	ok_eq(gaudi_parse_cb(&cfg, c.b, c.n, &last_err), -EPERM,
	      "CP_DMA inside a lower CB: EPERM");
	pk16(reset(&c), 64, CTL(OP_CP_DMA), T_VA_CB);
	ok_eq(parse(&c, Q_TPC00), -EPERM, "CP_DMA without a snapshotting caller: EPERM");
	pk8(reset(&c), 64, CTL(OP_CP_DMA));
	ok_eq(parse(&c, Q_TPC00), -EPERM, "  also when truncated");
}

/* ---- seeded random walk with the oracle -------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	return tap_xorshift(&rng) * 0x2545F4914F6CDD1DULL;
}

/* One valid-ish packet of a random kind, near the boundaries. */
static void rnd_pkt(struct cb *k)
{
	const uint64_t addrs[] = {
		O_SRAM_USER, O_SRAM_END - 8, O_HBM_USER, O_HBM_END - 8, T_VA_BUF,
		T_VA_CB, T_VA_END_PAGE, O_SRAM, 0x10000000, O_CFG + 0x4F2000,
		O_CFG + 0x492000 + 4 * 144, O_CFG + 0x492000 + 4 * 143,
		O_CFG + 0x4F4000, O_CFG + 0x494000 + 4 * 72, O_CFG + 0x508000 + 0x308,
		0x8000000000ULL, T_VA_BUF + (8 << 20) - 4,
		o_nic_db(0, false), o_nic_db(0, true), o_nic_db(2, false),
		o_nic_db(9, true),
	};
	uint64_t a = addrs[rnd() % (sizeof(addrs) / sizeof(addrs[0]))] + 4 * (rnd() % 3);
	uint32_t v = (uint32_t)rnd();

	/* Doorbell-like values: BUSY with a small QP number, a small PI. */
	if (rnd() % 4 == 0)
		v = (rnd() % 2 ? 0x80000000U : 0) | (uint32_t)(rnd() % 1100);

	switch (rnd() % 13) {
	case 11: {
		/* Habana's register COMMIT: a shape, a completion, a commit */
		struct t_side sd;
		unsigned int i;

		sd.t[0] = rnd() % 4 ? 1 + rnd() % 4096 : (uint32_t)rnd();
		for (i = 1; i < 5; i++) {
			sd.t[i] = rnd() % 4 ? 1 + rnd() % 4 : (uint32_t)rnd();
			sd.st[i] = rnd() % 4 ? 64 * (uint32_t)(rnd() % 0x1000) :
				   (uint32_t)rnd();
		}
		reg_strided(k, a, addrs[rnd() % (sizeof(addrs) / sizeof(addrs[0]))],
			    &sd, &sd,
			    addrs[rnd() % (sizeof(addrs) / sizeof(addrs[0]))],
			    rnd() % 2 ? (uint32_t)(rnd() % 2) | (rnd() % 2 ? LIN : 0) |
			    (rnd() % 3 ? 0 : MEMSET) : v);
		if (rnd() % 4 == 0)	/* the commit moved or lost registers */
			k->n -= 8 * (1 + rnd() % 8);
		break;
	}
	case 12: {
		/* WREG_BULK over the DMA core's registers */
		uint32_t vals[8], i, n2 = 2 * (uint32_t)(rnd() % 5);

		for (i = 0; i < n2; i++)
			vals[i] = rnd() % 2 ? (uint32_t)(rnd() % 8) : v;
		bulk(k, 4 * (uint32_t)(rnd() % 0x28), vals, n2,
		     rnd() % 8 ? 0 : 1);
		break;
	}
	case 10: {
		/* a strided transfer: a shape near the edges, sometimes short */
		struct t_side sd[2];
		unsigned int i, d;

		for (d = 0; d < 2; d++) {
			sd[d].t[0] = rnd() % 4 ? 1 + rnd() % 4096 : (uint32_t)rnd();
			for (i = 1; i < 5; i++) {
				sd[d].t[i] = rnd() % 4 ? 1 + rnd() % 4 : (uint32_t)rnd();
				sd[d].st[i] = rnd() % 4 ? 64 * (uint32_t)(rnd() % 0x1000) :
					      (uint32_t)rnd();
			}
		}
		if (rnd() % 2)
			sd[1] = sd[0];
		shape(k, &sd[0], &sd[1]);
		if (rnd() % 4 == 0)
			k->n -= 8 * (1 + rnd() % 4);	/* drop the last registers */
		lin(k, sd[1].t[0], rnd() % 3 ? 0 : MEMSET, a,
		    addrs[rnd() % (sizeof(addrs) / sizeof(addrs[0]))]);
		break;
	}
	case 8:
		msg(k, O_CFG + 0x508000 + 0x20000 * (rnd() % 3) + 0xA00 + 4 * (rnd() % 0x50),
		    rnd() % 2 ? (uint32_t)(rnd() % 2) | 1 << 4 | 1 << 8 : v);
		break;
	case 9:
		pk16(k, rnd() % 2 ? 8 * (uint32_t)(rnd() % 16) : v,
		     CTL(OP_CP_DMA) | (rnd() % 4 ? 0 : v & 0xFFFFFF), a);
		break;
	case 0:
		lin(k, rnd() % 3 ? rnd() % 64 : v, LIN | (rnd() % 2 ? MEMSET : 0), a,
		    addrs[rnd() % (sizeof(addrs) / sizeof(addrs[0]))]);
		break;
	case 1:
		msg(k, a, v);
		break;
	case 2:
		msg(k, O_CFG + 0x4F4000 + 0x800 * (rnd() % 5) + 4 * (rnd() % 4),
		    rnd() % 2 ? (uint32_t)(O_CFG + 0x4F2000 + 4 * (rnd() % 4)) :
		    rnd() % 2 ? 0x7F : (uint32_t)(O_CFG + 0x508000 + 0x308 + 4 * (rnd() % 8)));
		break;
	case 3:
		wreg(k, rnd() % 2 ? 0x8000 + 0x308 + 4 * (rnd() % 40) :
		     rnd() % 2 ? 0x6400 + 4 * (rnd() % 0x200) : 4 * (rnd() % 0x400), v);
		break;
	case 4:
		pk8(k, v & 0xFF, CTL(OP_MSG_SHORT) | (uint32_t)(rnd() % 4) << 22 |
		    (uint32_t)(4 * (rnd() % 0x4000)));
		break;
	case 5:
		pk8(k, v & 0x3FFFFFFF, CTL(OP_WAIT));
		break;
	case 6:
		if (rnd() % 2) {
			pk16(k, 1U << 8, CTL(OP_LOAD_AND_EXE), a);
			break;
		}
		/* scalars holding a packet near the boundaries, executed */
		set_scalars(v, rnd() % 2 ? CTL(OP_MSG_LONG) | (v & 0x300000) :
			    CTL((uint32_t)(rnd() % 16)) | (uint32_t)(rnd() % 0x10000) << 8,
			    addrs[rnd() % (sizeof(addrs) / sizeof(addrs[0]))]);
		pk16(k, (uint32_t)(rnd() % 2) | 1U << 8 | 1U << 9 |
		     (rnd() % 4 ? 0 : 1U << 10), CTL(OP_LOAD_AND_EXE), a);
		break;
	default:
		pk8(k, v & 0xC0FF000F, CTL(OP_FENCE) | (v & 0x1F));
		break;
	}
}

static void t_random(void)
{
	static const unsigned int qs[] = { 0, 3, 5, 9, 30, 33, 40, 41, 72, 73,
					   82, 112 };
	unsigned int i, j, n, accepted = 0, bad = 0, rw = t_rw_calls;

	for (i = 0; i < 200000; i++) {
		unsigned int q = qs[rnd() % (sizeof(qs) / sizeof(qs[0]))];
		int r;

		reset(&c);
		n = 1 + rnd() % 6;
		for (j = 0; j < n; j++)
			rnd_pkt(&c);
		/* Sometimes flip one bit. */
		if (rnd() % 3 == 0)
			c.b[rnd() % c.n] ^= 1U << (rnd() % 8);
		t_snap = rnd() % 3;
		r = parse_enc(&c, q, rnd() % 4 ? 0 : 128 + rnd() % 16);
		if (r == 0)
			accepted++;
		else if (r != -EPERM && r != -EINVAL)
			bad++;
	}
	rw = t_rw_calls - rw;
	ok(bad == 0 && accepted > 1000 && rw > 10,
	   "200000 random CBs near the boundaries: %u accepted (%u COMMITs rewritten), all of them hold the oracle's properties (%u violations)",
	   accepted, rw, bad);
}

/* ---- the fuzzer's seed corpus ------------------------------------------ */

/* Byte 1's caller bits (fuzz_parser.c): 0x40 snapshots CP_DMA targets. */
static unsigned int seed_flags;

static int write_seed(const char *dir, const char *name, unsigned int q,
		      unsigned int encaps, const struct cb *k)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	fputc(q, f);
	fputc((encaps ? 0x80 | (encaps - 128) : 0) | seed_flags, f);
	fwrite(k->b, 1, k->n, f);
	return fclose(f);
}

static int seeds(const char *dir)
{
	struct cb k;
	int r = 0;

	lin(reset(&k), 4096, LIN | EB, T_VA_BUF, O_HBM_USER);
	lin(&k, 4096, LIN | MEMSET, 0x5A, O_SRAM_USER);
	msg(&k, WS_SOB(144), SOB_ADD | 1);
	r |= write_seed(dir, "valid-dma", 0, 0, &k);
	msg(reset(&k), MON(EN, ADDRL, 0), (uint32_t)(O_CFG + 0x508000 + 0x308));
	msg(&k, MON(EN, ADDRH, 0), 0x7F);
	msg(&k, MON(EN, PDATA, 0), 1);
	msg(&k, MON(EN, ARM, 0), 0xFE << 8 | 1 << 17);
	pk8(&k, 1 | 1 << 16, CTL(OP_FENCE));
	pk8(&k, SOB_ADD | 1, CTL(OP_MSG_SHORT) | 1U << 22);
	r |= write_seed(dir, "valid-monitor", 0, 0, &k);
	wreg(reset(&k), 0x67C0, 1);
	wreg(&k, 0x6410, 64);
	pk8(&k, 1, CTL(OP_MSG_SHORT) | 3U << 22 | 4 * 150);
	pk8(&k, 0x1000001, CTL(OP_WAIT));
	pk8(&k, 0x80000001, CTL(OP_ARB_POINT));
	r |= write_seed(dir, "valid-tpc", 45, 0, &k);
	wreg(reset(&k), 0x420, 1);
	pk16(&k, 1U << 8, CTL(OP_LOAD_AND_EXE), O_HBM_USER);
	r |= write_seed(dir, "valid-mme", 34, 0, &k);
	msg(reset(&k), WS_SOB(131), SOB_ADD | 1);
	r |= write_seed(dir, "valid-encaps", 1, 131, &k);
	/* Class 1. */
	wreg(reset(&k), 0x14, 0);
	wreg(&k, 0x1C, 0);
	wreg(&k, 0x74, 4096);
	wreg(&k, 0x78, 8);
	r |= write_seed(dir, "class1-dma-regs", 9, 0, &k);
	/* Class 2. */
	lin(reset(&k), 0, LIN, (uint64_t)CTL(OP_MSG_PROT) << 32, 0);
	pk8(&k, 1 | 8U << 16, CTL(OP_REPEAT));
	r |= write_seed(dir, "class2-repeat", 0, 0, &k);
	/* Class 3. */
	lin(reset(&k), 4096, LIN | 1, T_VA_BUF, O_HBM_USER);
	r |= write_seed(dir, "class3-wrcomp", 0, 0, &k);
	lin(reset(&k), 4096, 0, T_VA_BUF, O_HBM_USER);
	r |= write_seed(dir, "class3-nonlinear", 0, 0, &k);
	/* Strided over the shape the CB sets, and its far-corner twin. */
	{
		const struct t_side sd = { { 1024, 6, 3, 1, 1 },
					   { 0, 2048, 16384, 0, 0 } };

		lin(shape(reset(&k), &sd, &sd), 1024, 0, T_VA_BUF, O_HBM_USER);
		r |= write_seed(dir, "valid-strided", 0, 0, &k);
		lin(shape(reset(&k), &sd, &sd), 1024, 0, T_VA_BUF,
		    T_VA_BUF + (8 << 20) - t_span(&sd));
		r |= write_seed(dir, "hostile-strided", 0, 0, &k);
	}
	/* Issue 23: arbitration of the own QMAN, and its hostile twin. */
	msg(reset(&k), O_CFG + 0x508000 + 0xA00, 1 | 1 << 4 | 1 << 8);
	msg(&k, O_CFG + 0x508000 + 0xA08, 3);
	msg(&k, O_CFG + 0x508000 + 0xB34, 0x10);
	r |= write_seed(dir, "valid-arb", 0, 0, &k);
	msg(reset(&k), O_CFG + 0x528000 + 0xA00, 1 | 1 << 4 | 1 << 8);
	msg(&k, O_CFG + 0x508000 + 0xB50, 0);
	r |= write_seed(dir, "hostile-arb", 0, 0, &k);
	/* Habana's register COMMIT (rewritten), WREG_BULK, and their twins. */
	{
		const struct t_side s8 = { { 4096, 8, 1, 1, 1 },
					   { 0, 0, 4096, 4096, 4096 } };
		const struct t_side d8 = { { 4096, 8, 1, 1, 1 },
					   { 0, 8192, 4096, 4096, 4096 } };
		const struct t_side df = { { 4096, 8, 1, 1, 1 },
					   { 0, 0x200000, 4096, 4096, 4096 } };

		reg_strided(reset(&k), T_VA_BUF, T_VA_BUF + (1 << 20), &s8,
			    &d8, EN_SOB(5), 1);
		r |= write_seed(dir, "valid-reg-commit", 0, 0, &k);
		reg_strided(reset(&k), T_VA_BUF, T_VA_BUF + (7 << 20), &s8,
			    &df, EN_SOB(5), 1);
		r |= write_seed(dir, "hostile-reg-commit", 0, 0, &k);
		reg_strided(reset(&k), T_VA_BUF, T_VA_BUF + (1 << 20), &s8,
			    &d8, WS_SOB(3), 1);
		r |= write_seed(dir, "hostile-reg-commit-wrcomp", 0, 0, &k);
		bulk(reset(&k), 0x02C,
		     (const uint32_t[]){ 8, 0, 1, 0, 1, 0, 1, 0 }, 8, 0);
		wreg(&k, 0x04C, 4096);
		bulk(&k, 0x054, (const uint32_t[]){ 8, 8192, 1, 0, 1, 0, 1, 0 },
		     8, 0);
		lin(&k, 4096, 0, O_HBM_USER, O_HBM_USER + (1 << 20));
		r |= write_seed(dir, "valid-bulk-shape", 9, 0, &k);
		bulk(reset(&k), 0x014,
		     (const uint32_t[]){ 0, 0, (uint32_t)O_SRAM_USER,
					 O_SRAM_USER >> 32 }, 4, 0);
		bulk(&k, 0x074, (const uint32_t[]){ 64, LIN }, 2, 0);
		r |= write_seed(dir, "hostile-bulk-commit", 9, 0, &k);
	}
	/* CP_DMA of a snapshotted user CB (byte 1 bit 6), and into the driver. */
	seed_flags = 0x40;
	pk16(reset(&k), 64, CTL(OP_CP_DMA) | MB, T_VA_CB);
	msg(&k, WS_SOB(144), SOB_ADD | 1);
	r |= write_seed(dir, "valid-cp-dma", 41, 0, &k);
	pk16(reset(&k), 64, CTL(OP_CP_DMA), 0x1C000000);
	r |= write_seed(dir, "hostile-cp-dma", 41, 0, &k);
	seed_flags = 0;
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		return seeds(argv[2]);
	t_framing();
	t_reserved();
	t_lin_dma();
	t_strided();
	t_commit();
	t_load_exe();
	t_wreg();
	t_msg();
	t_nic_doorbell();
	t_control_flow();
	t_arb();
	t_cp_dma_snapshot();
	t_random();
	return tap_done();
}
