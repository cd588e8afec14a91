// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the hardware protection, programmed as upstream programs it.
 *
 * Gaudi 1 does not trust the command-buffer parser alone.  Every engine
 * access carries a secure bit; untrusted accesses are checked by
 *  - the protection bits: the last 128 bytes of every 4 KiB register block
 *    hold one bit per register of the block, 0 = secure initiators only
 *    (the last word guards the bits themselves);
 *  - the LBW range registers: CFG ranges closed to untrusted initiators,
 *    in every router and in the DMA_IF ports (including the sync
 *    manager's, so user monitors are held by them too);
 *  - the HBW range registers: device memory closed to them (the driver's
 *    first 512 MiB of HBM, the head of SRAM, scratchpad, PCIe firmware
 *    SRAM, SPI flash);
 *  - the MMU, always on: an untrusted engine reaches the host only through
 *    the ASID its props name.
 * A blocked access is a RAZWI (read as zero, write ignored) and raises
 * the RAZWI_OR_ADC event (gaudi_eq.c).  The QMANs' GLBL_PROT decides which
 * parts of a queue are trusted: the PQ fetchers everywhere, the CPs of the
 * external (PCI DMA) queues only, whose CBs are the driver's parsed copies
 * in host memory; their user packets still run untrusted (WREG_32 and
 * MSG_LONG/SHORT are never secure), only the driver's MSG_PROT is.
 *
 * The tables are the registers upstream's gaudi_security.c protects,
 * written as ranges.  The HBW read ranges leave [448 MiB, 512 MiB) of the
 * driver's HBM readable: the copies of internal-queue CBs live there, so
 * that their untrusted CPs can fetch them and users cannot change them.
 * Facts and sources: Documentation/emulator/protection.rst.
 */
#include <linux/bitfield.h>
#include <linux/kernel.h>

#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi_hw.h"
#include "gaudi_security.h"
#include "gaudi_types.h"

/* [start, end) of the protected registers of a block, block-relative. */
struct gaudi_pb_range {
	u16 start, end;
};

/* Blocks alike: count blocks from base, stride apart; r ends with {}. */
struct gaudi_pb_set {
	u32 base, stride;
	u8 count;
	const struct gaudi_pb_range *r;
};

/* Every table ends with { 0xF80, 0x1000 }: the protection bits. */
static const struct gaudi_pb_range gaudi_pb_all[] = { { 0, 0x1000 }, {} };

/* Every QMAN (DMA, MME, TPC, NIC). */
static const struct gaudi_pb_range gaudi_pb_qm[] = {
	{ 0x000, 0x03C }, { 0x040, 0x064 }, { 0x068, 0x06C }, { 0x070, 0x110 },
	{ 0x14C, 0x15C }, { 0x160, 0x170 }, { 0x174, 0x1B4 }, { 0x1C4, 0x2DC },
	{ 0x2E0, 0x308 }, { 0x3A8, 0x3E4 }, { 0x3F4, 0x400 }, { 0x410, 0x444 },
	{ 0xA18, 0xA1C }, { 0xA20, 0xAA0 }, { 0xB38, 0xB3C }, { 0xB44, 0xB54 },
	{ 0xB80, 0xB90 }, { 0xB9C, 0xBA4 }, { 0xBA8, 0xBAC }, { 0xBB0, 0xC30 },
	{ 0xC70, 0xC7C }, { 0xC80, 0xC88 }, { 0xC90, 0xCA8 }, { 0xCB0, 0xCC0 },
	{ 0xCD0, 0xCDC }, { 0xD00, 0xD04 }, { 0xF80, 0x1000 }, {}
};

/*
 * DMA cores: the transfer registers stay open (tensor DMA by WREG_32);
 * the PCI DMA cores (0, 1) protect one more register.
 */
static const struct gaudi_pb_range gaudi_pb_dma_pci[] = {
	{ 0x000, 0x00C }, { 0x0B8, 0x0BC }, { 0x0F0, 0x0F8 }, { 0x100, 0x10C },
	{ 0x110, 0x118 }, { 0x120, 0x12C }, { 0x130, 0x138 }, { 0x150, 0x168 },
	{ 0x170, 0x17C }, { 0x190, 0x198 }, { 0x200, 0x214 }, { 0x220, 0x23C },
	{ 0xF80, 0x1000 }, {}
};

static const struct gaudi_pb_range gaudi_pb_dma_hbm[] = {
	{ 0x000, 0x00C }, { 0x0B8, 0x0BC }, { 0x0F0, 0x0F8 }, { 0x100, 0x10C },
	{ 0x110, 0x118 }, { 0x120, 0x12C }, { 0x134, 0x138 }, { 0x150, 0x168 },
	{ 0x170, 0x17C }, { 0x190, 0x198 }, { 0x200, 0x214 }, { 0x220, 0x23C },
	{ 0xF80, 0x1000 }, {}
};

static const struct gaudi_pb_range gaudi_pb_mme_ctrl[] = {
	{ 0x288, 0x300 }, { 0x400, 0x404 }, { 0xF80, 0x1000 }, {}
};

static const struct gaudi_pb_range gaudi_pb_tpc_cfg[] = {
	{ 0x8FC, 0x904 }, { 0x90C, 0x914 }, { 0x920, 0x928 }, { 0x93C, 0x940 },
	{ 0x944, 0x94C }, { 0x950, 0x978 }, { 0x998, 0x99C }, { 0x9A0, 0x9C8 },
	{ 0x9D0, 0xA00 }, { 0xF80, 0x1000 }, {}
};

#define PB_SET(b, s, n, tbl) { b, s, n, tbl }

static const struct gaudi_pb_set gaudi_pb_sets[] = {
	/* Whole blocks: MME n SBAB/ACC/PRTN, DMA_IF E_S/W_N/E_N, TPC n. */
	PB_SET(0x020000, 0x80000, 4, gaudi_pb_all),
	PB_SET(0x040000, 0x80000, 4, gaudi_pb_all),
	PB_SET(0x041000, 0x80000, 4, gaudi_pb_all),
	PB_SET(0x4A0000, 0x20000, 3, gaudi_pb_all),
	PB_SET(0x4A1000, 0x20000, 3, gaudi_pb_all),
	PB_SET(0x4A2000, 0x20000, 3, gaudi_pb_all),
	PB_SET(0x4A7000, 0x20000, 3, gaudi_pb_all),
	PB_SET(0x4A8000, 0x20000, 3, gaudi_pb_all),
	PB_SET(0x4A9000, 0x20000, 3, gaudi_pb_all),
	PB_SET(0xE07000, 0x40000, 8, gaudi_pb_all),
	/* QMANs: DMA 0..7, MME 0 and 2, TPC 0..7, NIC 0..4 (two each). */
	PB_SET(mmDMA0_QM_BASE, GAUDI_DMA_STRIDE, 8, gaudi_pb_qm),
	PB_SET(mmMME0_QM_BASE, 0x100000, 2, gaudi_pb_qm),
	PB_SET(mmTPC0_QM_BASE, GAUDI_TPC_STRIDE, 8, gaudi_pb_qm),
	PB_SET(0xCE0000, 0x40000, 5, gaudi_pb_qm),
	PB_SET(0xCE2000, 0x40000, 5, gaudi_pb_qm),
	/* DMA cores: the PCI ones (0, 1) and the others. */
	PB_SET(mmDMA0_CORE_BASE, GAUDI_DMA_STRIDE, 2, gaudi_pb_dma_pci),
	PB_SET(mmDMA0_CORE_BASE + 2 * GAUDI_DMA_STRIDE, GAUDI_DMA_STRIDE, 6,
	       gaudi_pb_dma_hbm),
	PB_SET(0x060000, GAUDI_MME_STRIDE, 4, gaudi_pb_mme_ctrl),
	PB_SET(0xE06000, GAUDI_TPC_STRIDE, 8, gaudi_pb_tpc_cfg),
};

static void gaudi_pb_program(struct gaudi_device *gdev, u32 block,
			     const struct gaudi_pb_range *r)
{
	u32 words[GAUDI_PB_WORDS], off;
	unsigned int i;

	memset(words, 0xFF, sizeof(words));
	for (i = 0; r[i].end; i++)
		for (off = r[i].start; off < r[i].end; off += 4)
			words[off >> 7] &= ~BIT((off >> 2) & 31);
	for (i = 0; i < GAUDI_PB_WORDS; i++)
		WREG32(gdev, block + PROT_BITS_OFFS + 4 * i, words[i]);
}

/*
 * The CFG ranges closed to untrusted initiators (upstream's ten): most of
 * the device's configuration; open are the sync managers, DMA channels,
 * MME 0/2 and TPC blocks and NIC QMANs, guarded by their protection bits.
 */
static const u32 gaudi_lbw_ranges[][2] = {
	{ 0x0E8000, 0x120000 }, { 0x1E8000, 0x490000 },
	{ 0x600000, 0xC49000 }, { 0xC4A000, 0xCE0000 },
	{ 0xCE4000, 0xD20000 }, { 0xD24000, 0xD60000 },
	{ 0xD64000, 0xDA0000 }, { 0xDA4000, 0xDE0000 },
	{ 0xDE4000, 0xE06000 }, { 0xFC9000, 0x3FFFFFF },
};

static void gaudi_lbw_program(struct gaudi_device *gdev, u32 hit_aw,
			      u32 hit_ar, u32 min_aw, u32 max_aw, u32 min_ar,
			      u32 max_ar)
{
	u32 hit = GENMASK(ARRAY_SIZE(gaudi_lbw_ranges) - 1, 0);
	unsigned int j;

	for (j = 0; j < ARRAY_SIZE(gaudi_lbw_ranges); j++) {
		/* MIN and MAX are exclusive. */
		WREG32(gdev, min_aw + 4 * j, gaudi_lbw_ranges[j][0] - 1);
		WREG32(gdev, max_aw + 4 * j, gaudi_lbw_ranges[j][1]);
		WREG32(gdev, min_ar + 4 * j, gaudi_lbw_ranges[j][0] - 1);
		WREG32(gdev, max_ar + 4 * j, gaudi_lbw_ranges[j][1]);
	}
	WREG32(gdev, hit_aw, hit);
	WREG32(gdev, hit_ar, hit);
}

struct gaudi_hbw_range {
	u64 base;
	u32 mask_lo;	/* mask bits 31:0; bits 49:32 always compared */
};

/* Writes: upstream's five ranges. */
static const struct gaudi_hbw_range gaudi_hbw_aw[] = {
	{ 0, 0xE0000000 },			/* driver HBM, 512 MiB */
	{ GAUDI_SRAM_BASE, 0xFFFFFF80 },	/* SRAM head, 128 bytes */
	{ GAUDI_PSOC_SCRATCHPAD, 0xFFFF0000 },
	{ GAUDI_PCIE_FW_SRAM, 0xFFFF8000 },
	{ GAUDI_SPI_FLASH_BASE, 0xFE000000 },
};

/* Reads: the same without the SRAM head and the internal CB area. */
static const struct gaudi_hbw_range gaudi_hbw_ar[] = {
	{ 0, 0xF0000000 },			/* firmware, 256 MiB */
	{ 0x10000000, 0xF8000000 },		/* MMU tables */
	{ 0x18000000, 0xFC000000 },
	{ GAUDI_PSOC_SCRATCHPAD, 0xFFFF0000 },
	{ GAUDI_PCIE_FW_SRAM, 0xFFFF8000 },
	{ GAUDI_SPI_FLASH_BASE, 0xFE000000 },
};

static void gaudi_hbw_program(struct gaudi_device *gdev, u32 b)
{
	unsigned int j;

	for (j = 0; j < ARRAY_SIZE(gaudi_hbw_aw); j++) {
		WREG32(gdev, b + HBW_RR_BASE_LOW_AW + 4 * j,
		       lower_32_bits(gaudi_hbw_aw[j].base));
		WREG32(gdev, b + HBW_RR_BASE_HIGH_AW + 4 * j,
		       upper_32_bits(gaudi_hbw_aw[j].base));
		WREG32(gdev, b + HBW_RR_MASK_LOW_AW + 4 * j,
		       gaudi_hbw_aw[j].mask_lo);
		WREG32(gdev, b + HBW_RR_MASK_HIGH_AW + 4 * j, 0x3FFFF);
	}
	for (j = 0; j < ARRAY_SIZE(gaudi_hbw_ar); j++) {
		WREG32(gdev, b + HBW_RR_BASE_LOW_AR + 4 * j,
		       lower_32_bits(gaudi_hbw_ar[j].base));
		WREG32(gdev, b + HBW_RR_BASE_HIGH_AR + 4 * j,
		       upper_32_bits(gaudi_hbw_ar[j].base));
		WREG32(gdev, b + HBW_RR_MASK_LOW_AR + 4 * j,
		       gaudi_hbw_ar[j].mask_lo);
		WREG32(gdev, b + HBW_RR_MASK_HIGH_AR + 4 * j, 0x3FFFF);
	}
	WREG32(gdev, b + HBW_RR_HIT_AW, GENMASK(ARRAY_SIZE(gaudi_hbw_aw) - 1, 0));
	WREG32(gdev, b + HBW_RR_HIT_AR, GENMASK(ARRAY_SIZE(gaudi_hbw_ar) - 1, 0));
}

/*
 * Program the protection (hw init and after every reset, before the
 * queues run): protection bits, range registers, MMU on.  GLBL_PROT is
 * set per queue in gaudi_queue.c.
 */
void gaudi_security_hw_init(struct gaudi_device *gdev)
{
	static const u16 dma_if_hit_aw[3] = { 0x704, 0x720, 0x734 };
	static const u16 dma_if_hit_ar[3] = { 0x700, 0x71C, 0x730 };
	const struct gaudi_pb_set *s;
	unsigned int i, k, m;
	u32 b;

	for (i = 0; i < ARRAY_SIZE(gaudi_pb_sets); i++) {
		s = &gaudi_pb_sets[i];
		for (k = 0; k < s->count; k++)
			gaudi_pb_program(gdev, s->base + k * s->stride, s->r);
	}
	for (k = 0; k < GAUDI_NUM_DMA_IF; k++) {
		b = mmDMA_IF_W_S_BASE + k * GAUDI_DMA_IF_STRIDE;
		for (m = 0; m < 3; m++)
			gaudi_lbw_program(gdev, b + dma_if_hit_aw[m],
					  b + dma_if_hit_ar[m],
					  b + DMA_IF_LBW_MIN_AW(m),
					  b + DMA_IF_LBW_MAX_AW(m),
					  b + DMA_IF_LBW_MIN_AR(m),
					  b + DMA_IF_LBW_MAX_AR(m));
		b = mmDMA_IF_W_S_DOWN_CH0_BASE + k * GAUDI_DMA_IF_STRIDE;
		gaudi_hbw_program(gdev, b);
		gaudi_hbw_program(gdev, b + SZ_4K);
	}
	for (k = 0; k < GAUDI_NUM_RTR; k++) {
		b = mmSIF_RTR_0_BASE + k * GAUDI_RTR_STRIDE;
		gaudi_lbw_program(gdev, b + RTR_LBW_HIT_AW, b + RTR_LBW_HIT_AR,
				  b + RTR_LBW_MIN_AW, b + RTR_LBW_MAX_AW,
				  b + RTR_LBW_MIN_AR, b + RTR_LBW_MAX_AR);
		gaudi_hbw_program(gdev, mmSIF_RTR_CTRL_0_BASE +
				  k * GAUDI_RTR_STRIDE);
	}
	/* Protection-bit RAZWI reads return 0xBABA0BAD, as upstream. */
	WREG32(gdev, mmPB_RAZWI_RDATA_CFG, 1);
	WREG32(gdev, mmMMU_UP_MMU_ENABLE, 1);
	gaudi_dbg(gdev, CS, "hardware protection programmed\n");
}
