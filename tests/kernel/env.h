/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parser's environment in the host tests: queue ids as gaudi.ko runs
 * them (gaudi_queue.c), the QMANs whose fence counters monitors may
 * target, and a fake set of host virtual mappings.
 */
#ifndef GAUDI_TESTS_ENV_H
#define GAUDI_TESTS_ENV_H

#include "oracle.h"

/* Mapped host virtual ranges of the fake context. */
#define T_VA_CB		0x1000000000000ULL	/* 64 KiB: a mapped CB */
#define T_VA_BUF	0x1000100000000ULL	/* 8 MiB */
#define T_VA_END_PAGE	0x3FF7FFFFFF000ULL	/* the last page of the window */

static const struct oracle_range t_maps[] = {
	{ T_VA_CB, 0x10000 },
	{ T_VA_BUF, 8 << 20 },
	{ T_VA_END_PAGE, 0x1000 },
};

static const struct oracle_env t_env = { t_maps, 3 };

static u32 t_fence_qm[O_NUM_QM];

/*
 * A caller that snapshots CP_DMA targets (gaudi_cs.c does): here it only
 * counts and remembers the last call; t_cp_dma_ret is what it answers.
 */
static unsigned int t_cp_dma_calls;
static u32 t_cp_dma_off, t_cp_dma_len;
static u64 t_cp_dma_addr;
static int t_cp_dma_ret;

static inline int t_cp_dma(void *priv, u32 offset, u64 addr, u32 len)
{
	(void)priv;
	t_cp_dma_calls++;
	t_cp_dma_off = offset;
	t_cp_dma_addr = addr;
	t_cp_dma_len = len;
	return t_cp_dma_ret;
}

/*
 * A caller that rewrites COMMITs (gaudi_cs.c does) in t_rw_buf, the copy
 * the test parses: t_rw_calls counts the calls.
 */
#define T_RW_MAX	(1U << 20)
static u8 t_rw_buf[T_RW_MAX];
static unsigned int t_rw_calls;

static inline int t_rewrite(void *priv, u32 offset, const void *pkts, u32 len)
{
	(void)priv;
	t_rw_calls++;
	if (offset > T_RW_MAX || len > T_RW_MAX - offset)
		return -EINVAL;
	memcpy(t_rw_buf + offset, pkts, len);
	return 0;
}

/*
 * A caller that reads scalar sources (gaudi_cs.c does, from user memory):
 * here the bytes of t_read_src at the address modulo t_read_len (the
 * fuzzer points it at its input), or zeros.
 */
static const u8 *t_read_src;
static u32 t_read_len;

static inline int t_read(void *priv, u64 addr, u32 len, void *out)
{
	u8 *o = out;
	u32 i;

	(void)priv;
	for (i = 0; i < len; i++)
		o[i] = t_read_len ? t_read_src[(addr + i) % t_read_len] : 0;
	return 0;
}

/* @cfg for upstream queue id @q (0..112 without 8, the CPU queue). */
static void t_cfg(struct gaudi_parser_cfg *cfg, unsigned int q, u32 encaps)
{
	unsigned int i;

	for (i = 0; i < O_NUM_QM; i++)
		t_fence_qm[i] = o_qm(i);
	memset(cfg, 0, sizeof(*cfg));
	cfg->queue = q;
	cfg->encaps_sob = encaps;
	cfg->fence_qm = t_fence_qm;
	cfg->num_fence_qm = O_NUM_QM;
	cfg->mapped = oracle_mapped_cb;
	cfg->priv = (void *)&t_env;
	if (q < 8) {			/* DMA_0_x, DMA_1_x */
		cfg->qm_base = o_qm(q / 4);
		cfg->stream = q % 4;
		cfg->external = true;
		cfg->engine = GAUDI_ENGINE_DMA;
	} else if (q >= 9 && q <= 32) {	/* DMA_2_0 .. DMA_7_3 */
		cfg->qm_base = o_qm(2 + (q - 9) / 4);
		cfg->stream = (q - 9) % 4;
		cfg->engine = GAUDI_ENGINE_DMA;
	} else if (q >= 33 && q <= 40) {	/* MME_0_x, MME_1_x */
		cfg->qm_base = o_qm(8 + (q - 33) / 4);
		cfg->stream = (q - 33) % 4;
		cfg->engine = GAUDI_ENGINE_MME;
	} else if (q >= 73 && q <= 112) {	/* NIC_0_0 .. NIC_9_3 */
		cfg->nic_port = (q - 73) / 4;
		cfg->qm_base = o_nic_qm(cfg->nic_port);
		cfg->stream = (q - 73) % 4;
		cfg->engine = GAUDI_ENGINE_NIC;
	} else {			/* TPC_0_0 .. TPC_7_3 */
		if (q < 41 || q > 72)
			q = 41;
		cfg->qm_base = o_qm(10 + (q - 41) / 4);
		cfg->stream = (q - 41) % 4;
		cfg->engine = GAUDI_ENGINE_TPC;
	}
}

#endif /* GAUDI_TESTS_ENV_H */
