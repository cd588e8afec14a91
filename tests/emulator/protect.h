/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A card protected the way upstream's gaudi_init_security() and queue
 * init program it, with one user context (ASID 1) whose host memory is
 * mapped at USER_VA, and an oracle for the transaction monitor:
 * txn_allowed() is false for any access that went through and left the
 * user's ranges (its host pages, HBM from 512 MiB, SRAM after the
 * driver's head, the sync managers, DMA-core transfer and QMAN fence
 * registers), or a trusted access other than the kernel's PQ and CB
 * fetches.  Used by test_prot.c; meant for the isolation fuzzers too.
 * Facts: Documentation/emulator/protection.rst.
 */
#ifndef GAUDI_PROTECT_H
#define GAUDI_PROTECT_H

#include <string.h>

#include "cbgen.h"
#include "pgtable.h"

/* Fake host memory (bus addresses); fwboot.h uses 0x100000..0x9FFFFF. */
#define KPQ_BUS		0x1000000ULL	/* kernel PQs, 64 KiB apart */
#define KCB_BUS		0x1100000ULL	/* kernel CBs (external queue) */
#define CANARY_BUS	0x1200000ULL	/* a kernel page */
#define UHOST_BUS	0x2000000ULL	/* the user's pinned host memory */
#define UHOST_SIZE	0x100000ULL
#define USER_VA		GAUDI_VA_HOST_START	/* where the user sees it */
/* HBM: the driver's first 512 MiB, page tables at 256 MiB. */
#define KDRAM_CANARY	0x1000ULL
#define PGT_BASE	0x10000000ULL
#define PGT_POOL	0x10100000ULL
#define USER_DRAM	GAUDI_DRAM_USER_START
#define USER_ASID	1
#define CANARY		0xC0FFEE11U


/* --- the transaction monitor oracle ----------------------------------- */

static inline bool in(uint64_t a, uint64_t lo, uint64_t hi)
{
	return a >= lo && a < hi;
}

static inline bool user_cfg(uint32_t off)
{
	static const uint32_t sm[4] = {
		mmSYNC_MNGR_E_N_SOB_OBJ_0, mmSYNC_MNGR_W_N_SOB_OBJ_0,
		mmSYNC_MNGR_E_S_SOB_OBJ_0, mmSYNC_MNGR_W_S_SOB_OBJ_0,
	};
	unsigned int i;
	uint32_t rel;

	for (i = 0; i < 4; i++)
		if (in(off, sm[i], sm[i] + SM_BLOCK_END))
			return true;
	if (in(off, mmDMA0_CORE_BASE, mmDMA0_CORE_BASE + 8 *
	       GAUDI_DMA_STRIDE)) {
		rel = (off - mmDMA0_CORE_BASE) % GAUDI_DMA_STRIDE;
		/* A DMA core's transfer registers, a QMAN's fences. */
		return in(rel, DMA_CORE_SRC_BASE_LO, DMA_CORE_WR_COMP_ADDR_HI + 4) ||
		       in(rel, DMA_QM_OFFSET + QM_CP_FENCE_RDATA(0, 0),
			  DMA_QM_OFFSET + 0x3A8);
	}
	return false;
}

static inline bool txn_allowed(const struct gaudi_txn *t)
{
	uint64_t a = t->pa, e = t->pa + t->len;

	if (t->result != GAUDI_TXN_OK)
		return true;	/* dropped or faulted: nothing happened */
	if (t->secure)		/* the kernel's own PQ and CB fetches */
		return !t->write && a >= fake_host_dev(KPQ_BUS) &&
		       e <= fake_host_dev(KCB_BUS + 0x100000);
	/* Engines run in the user's ASID; monitors have none (LBW only). */
	if (t->kind != GAUDI_INIT_MON && t->asid != USER_ASID)
		return false;
	if (a >= fake_host_dev(UHOST_BUS) &&
	    e <= fake_host_dev(UHOST_BUS + UHOST_SIZE))
		return true;
	if (a >= USER_DRAM && e <= FAKE_HBM_SIZE)
		return true;
	/* SRAM: the first 128 bytes are the driver's, readable by all. */
	if (a >= GAUDI_SRAM_BASE + (t->write ? 0x80 : 0) &&
	    e <= GAUDI_SRAM_BASE + GAUDI_SRAM_SIZE)
		return true;
	if (a >= GAUDI_CFG_BASE && e <= GAUDI_CFG_BASE + GAUDI_CFG_SIZE) {
		uint64_t off;

		for (off = a - GAUDI_CFG_BASE; off < e - GAUDI_CFG_BASE;
		     off += 4)
			if (!user_cfg(off))
				return false;
		return true;
	}
	return false;
}

/* --- programming the protection as upstream does ---------------------- */

struct prot_range {
	uint16_t start, end;	/* protected registers, block-relative */
};

/* gaudi_security.c: the registers it protects in each block kind. */
static const struct prot_range qm_prot[] = {
	{ 0x000, 0x03C }, { 0x040, 0x064 }, { 0x068, 0x06C }, { 0x070, 0x110 },
	{ 0x14C, 0x15C }, { 0x160, 0x170 }, { 0x174, 0x1B4 }, { 0x1C4, 0x2DC },
	{ 0x2E0, 0x308 }, { 0x3A8, 0x3E4 }, { 0x3F4, 0x400 }, { 0x410, 0x444 },
	{ 0xA18, 0xA1C }, { 0xA20, 0xAA0 }, { 0xB38, 0xB3C }, { 0xB44, 0xB54 },
	{ 0xB80, 0xB90 }, { 0xB9C, 0xBA4 }, { 0xBA8, 0xBAC }, { 0xBB0, 0xC30 },
	{ 0xC70, 0xC7C }, { 0xC80, 0xC88 }, { 0xC90, 0xCA8 }, { 0xCB0, 0xCC0 },
	{ 0xCD0, 0xCDC }, { 0xD00, 0xD04 }, { 0xF80, 0x1000 },
};

static const struct prot_range dma_core_prot[] = {
	{ 0x000, 0x00C }, { 0x0B8, 0x0BC }, { 0x0F0, 0x0F8 }, { 0x100, 0x10C },
	{ 0x110, 0x118 }, { 0x120, 0x12C }, { 0x134, 0x138 }, { 0x150, 0x168 },
	{ 0x170, 0x17C }, { 0x190, 0x198 }, { 0x200, 0x214 }, { 0x220, 0x23C },
	{ 0xF80, 0x1000 },
};

static const struct prot_range all_prot[] = { { 0, 0x1000 } };

static inline void pb_protect(struct gaudi_core *g, uint32_t block,
		       const struct prot_range *r, unsigned int n)
{
	uint32_t words[32], off;
	unsigned int i;

	memset(words, 0xFF, sizeof(words));
	for (i = 0; i < n; i++)
		for (off = r[i].start; off < r[i].end; off += 4)
			words[off >> 7] &= ~(1U << ((off >> 2) & 31));
	for (i = 0; i < 32; i++)
		gaudi_cfg_write(g, block + PROT_BITS_OFFS + 4 * i, words[i]);
}

static inline void lbw_rr(struct gaudi_core *g, uint32_t hit_aw, uint32_t hit_ar,
		   uint32_t min_aw, uint32_t max_aw, uint32_t min_ar,
		   uint32_t max_ar)
{
	/* The ten CFG ranges upstream closes to untrusted initiators. */
	static const uint32_t rng[10][2] = {
		{ 0x0E8000, 0x120000 }, { 0x1E8000, 0x490000 },
		{ 0x600000, 0xC49000 }, { 0xC4A000, 0xCE0000 },
		{ 0xCE4000, 0xD20000 }, { 0xD24000, 0xD60000 },
		{ 0xD64000, 0xDA0000 }, { 0xDA4000, 0xDE0000 },
		{ 0xDE4000, 0xE06000 }, { 0xFC9000, 0x3FFFFFF },
	};
	unsigned int j;

	gaudi_cfg_write(g, hit_aw, 0x3FF);
	gaudi_cfg_write(g, hit_ar, 0x3FF);
	for (j = 0; j < 10; j++) {
		gaudi_cfg_write(g, min_aw + 4 * j, rng[j][0] - 1);
		gaudi_cfg_write(g, max_aw + 4 * j, rng[j][1]);
		gaudi_cfg_write(g, min_ar + 4 * j, rng[j][0] - 1);
		gaudi_cfg_write(g, max_ar + 4 * j, rng[j][1]);
	}
}

static inline void hbw_rr(struct gaudi_core *g, uint32_t b)
{
	/* DRAM 512 MiB, SRAM 128 bytes (write only), scratchpad, PCIe FW
	 * SRAM, SPI flash. */
	static const uint64_t base[5] = {
		0, GAUDI_SRAM_BASE, GAUDI_PSOC_SCRATCHPAD, 0x7FFBFF0000ULL,
		GAUDI_SPI_FLASH_BASE,
	};
	static const uint32_t mask_lo[5] = {
		0xE0000000, 0xFFFFFF80, 0xFFFF0000, 0xFFFF8000, 0xFE000000,
	};
	unsigned int j;

	gaudi_cfg_write(g, b + HBW_RR_HIT_AW, 0x1F);
	gaudi_cfg_write(g, b + HBW_RR_HIT_AR, 0x1D);
	for (j = 0; j < 5; j++) {
		gaudi_cfg_write(g, b + HBW_RR_BASE_LOW_AW + 4 * j, (uint32_t)base[j]);
		gaudi_cfg_write(g, b + HBW_RR_BASE_HIGH_AW + 4 * j, base[j] >> 32);
		gaudi_cfg_write(g, b + HBW_RR_MASK_LOW_AW + 4 * j, mask_lo[j]);
		gaudi_cfg_write(g, b + HBW_RR_MASK_HIGH_AW + 4 * j, 0x3FFFF);
		gaudi_cfg_write(g, b + HBW_RR_BASE_LOW_AR + 4 * j, (uint32_t)base[j]);
		gaudi_cfg_write(g, b + HBW_RR_BASE_HIGH_AR + 4 * j, base[j] >> 32);
		gaudi_cfg_write(g, b + HBW_RR_MASK_LOW_AR + 4 * j, mask_lo[j]);
		gaudi_cfg_write(g, b + HBW_RR_MASK_HIGH_AR + 4 * j, 0x3FFFF);
	}
}

static uint64_t pool __attribute__((unused));

static inline void map_page(struct fakebus *fb, uint64_t va, uint64_t pa)
{
	pgt_map_page(fb, PGT_BASE, USER_ASID, &pool, va, pa);
}

static inline void protect_like_upstream(struct fakebus *fb)
{
	struct gaudi_core *g = fb->g;
	uint32_t b, i, m;

	for (i = 0; i < 8; i++) {
		b = mmDMA0_CORE_BASE + i * GAUDI_DMA_STRIDE;
		pb_protect(g, b, dma_core_prot, GAUDI_ARRAY_SIZE(dma_core_prot));
		pb_protect(g, b + DMA_QM_OFFSET, qm_prot,
			   GAUDI_ARRAY_SIZE(qm_prot));
		gaudi_cfg_write(g, b + DMA_CORE_PROT, 2);
		gaudi_cfg_write(g, b + DMA_CORE_SECURE_PROPS, GAUDI_PROPS_MMBP);
		gaudi_cfg_write(g, b + DMA_CORE_NON_SECURE_PROPS, USER_ASID);
		for (m = 0; m < 4; m++)
			gaudi_cfg_write(g, b + DMA_QM_OFFSET +
					QM_GLBL_NON_SECURE_PROPS(0) + 4 * m,
					USER_ASID);
		/* External (PCI DMA) QMANs trust PQF, CQF and CP. */
		gaudi_cfg_write(g, b + DMA_QM_OFFSET + QM_GLBL_PROT,
				i < 2 ? 0x5EFF : 0x400F);
	}
	/* DMA_IF E_S, W_N, E_N (W_S lies in an LBW range): whole blocks. */
	for (i = 1; i < 4; i++) {
		static const uint32_t sub[6] = {
			0, 0x1000, 0x2000, 0x7000, 0x8000, 0x9000,
		};

		for (m = 0; m < 6; m++)
			pb_protect(g, mmDMA_IF_W_S_BASE + i * GAUDI_DMA_IF_STRIDE +
				   sub[m], all_prot, 1);
	}
	for (i = 0; i < 4; i++) {
		b = mmDMA_IF_W_S_BASE + i * GAUDI_DMA_IF_STRIDE;
		lbw_rr(g, b + 0x704, b + 0x700, b + DMA_IF_LBW_MIN_AW(0),
		       b + DMA_IF_LBW_MAX_AW(0), b + DMA_IF_LBW_MIN_AR(0),
		       b + DMA_IF_LBW_MAX_AR(0));
		lbw_rr(g, b + 0x720, b + 0x71C, b + DMA_IF_LBW_MIN_AW(1),
		       b + DMA_IF_LBW_MAX_AW(1), b + DMA_IF_LBW_MIN_AR(1),
		       b + DMA_IF_LBW_MAX_AR(1));
		lbw_rr(g, b + 0x734, b + 0x730, b + DMA_IF_LBW_MIN_AW(2),
		       b + DMA_IF_LBW_MAX_AW(2), b + DMA_IF_LBW_MIN_AR(2),
		       b + DMA_IF_LBW_MAX_AR(2));
		hbw_rr(g, mmDMA_IF_W_S_DOWN_CH0_BASE + i * GAUDI_DMA_IF_STRIDE);
		hbw_rr(g, mmDMA_IF_W_S_DOWN_CH0_BASE + i * GAUDI_DMA_IF_STRIDE +
		       0x1000);
	}
	for (i = 0; i < GAUDI_NUM_RTR; i++) {
		b = mmSIF_RTR_0_BASE + i * GAUDI_RTR_STRIDE;
		lbw_rr(g, b + RTR_LBW_HIT_AW, b + RTR_LBW_HIT_AR,
		       b + RTR_LBW_MIN_AW, b + RTR_LBW_MAX_AW,
		       b + RTR_LBW_MIN_AR, b + RTR_LBW_MAX_AR);
		hbw_rr(g, mmSIF_RTR_CTRL_0_BASE + i * GAUDI_RTR_STRIDE);
	}
	/* The MMU: ASID 1 maps the user's host memory at USER_VA. */
	pool = PGT_POOL;
	for (i = 0; i < UHOST_SIZE / 0x1000; i++)
		map_page(fb, USER_VA + 0x1000ULL * i,
			 fake_host_dev(UHOST_BUS + 0x1000ULL * i));
	gaudi_cfg_write(g, mmMMU_UP_MMU_ASID, USER_ASID);
	gaudi_cfg_write(g, mmMMU_UP_MMU_HOP0_PA43_12,
			(PGT_BASE + 0x1000 * USER_ASID) >> 12);
	gaudi_cfg_write(g, mmMMU_UP_MMU_HOP0_PA49_44, 0);
	gaudi_cfg_write(g, mmMMU_UP_MMU_BUSY, 0x80000000U);
	gaudi_cfg_write(g, mmMMU_UP_MMU_ENABLE, 1);
}

#endif /* GAUDI_PROTECT_H */
