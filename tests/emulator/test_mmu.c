// SPDX-License-Identifier: GPL-2.0-or-later
/* Device MMU: hop-0 handshake, invalidation, 5-hop walk, DMA through it. */
#include <stdlib.h>
#include <string.h>

#include "cbgen.h"
#include "tap.h"

#define PGT_BASE	0x10000000ULL	/* hop-0 tables, 4 KiB per ASID */
#define PGT_POOL	0x10100000ULL	/* further hops */
#define VA_BASE		0x1000000000000ULL
#define PQ_BUS		0x10000ULL
#define CB_BUS		0x100000ULL
#define PTE_PRESENT	1ULL
#define PTE_LAST	(1ULL << 11)

static uint64_t pool = PGT_POOL;

static uint64_t hbm_u64(struct fakebus *fb, uint64_t a)
{
	uint64_t v;

	memcpy(&v, fb->hbm + a, 8);
	return v;
}

/* Map one page (4 KiB or 2 MiB) the way the driver lays out its tables. */
static void map_page(struct fakebus *fb, unsigned int asid, uint64_t va,
		     uint64_t pa, int huge)
{
	static const unsigned int shift[5] = { 48, 39, 30, 21, 12 };
	static const uint64_t mask[5] = { 3, 511, 511, 511, 511 };
	unsigned int hop, last = huge ? 3 : 4;
	uint64_t table = PGT_BASE + 0x1000ULL * asid, pte;

	for (hop = 0; hop <= last; hop++) {
		uint64_t slot = table + 8 * ((va >> shift[hop]) & mask[hop]);

		if (hop == last) {
			pte = pa | PTE_LAST | PTE_PRESENT;
			memcpy(fb->hbm + slot, &pte, 8);
			return;
		}
		pte = hbm_u64(fb, slot);
		if (!(pte & PTE_PRESENT)) {
			pte = pool | PTE_PRESENT;
			pool += 0x1000;
			memcpy(fb->hbm + slot, &pte, 8);
		}
		table = pte & ~0xFFFULL;
	}
}

static void set_hop0(struct gaudi_core *g, unsigned int asid)
{
	uint64_t hop0 = PGT_BASE + 0x1000ULL * asid;

	gaudi_cfg_write(g, mmMMU_UP_MMU_ASID, asid);
	gaudi_cfg_write(g, mmMMU_UP_MMU_HOP0_PA43_12, hop0 >> 12);
	gaudi_cfg_write(g, mmMMU_UP_MMU_HOP0_PA49_44, hop0 >> 44);
	gaudi_cfg_write(g, mmMMU_UP_MMU_BUSY, 0x80000000);
}

static void test_handshake_and_walk(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint64_t pa = 0, contig = 0;

	set_hop0(g, 1);
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_MMU_BUSY), 0,
	      "MMU_BUSY clears at once");
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_PS, 3);
	gaudi_cfg_write(g, mmMMU_UP_STLB_CACHE_INV, 1);
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_PS, 2);
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS), 0,
	      "STLB invalidation completes at once");

	map_page(&fb, 1, VA_BASE + 0x5000, fake_host_dev(0x300000), 0);
	map_page(&fb, 1, VA_BASE + 0x40000000, 0x30000000, 1);
	map_page(&fb, 1, 0x3FF7FFFFFF000ULL, GAUDI_SRAM_BASE + 0x2000, 0);
	ok(gaudi_mmu_translate(g, 1, VA_BASE + 0x5123, &pa, &contig) == 0 &&
	   pa == fake_host_dev(0x300123) && contig == 0x1000 - 0x123,
	   "4 KiB page translates with its offset and remainder");
	ok(gaudi_mmu_translate(g, 1, VA_BASE + 0x40012345, &pa, &contig) ==
	   0 && pa == 0x30012345 && contig == 0x200000 - 0x12345,
	   "2 MiB page ends at hop 3");
	ok(gaudi_mmu_translate(g, 1, 0x3FF7FFFFFF010ULL, &pa, &contig) == 0 &&
	   pa == GAUDI_SRAM_BASE + 0x2010,
	   "top of the VA range uses hop-0 index 3");
	ok(gaudi_mmu_translate(g, 1, VA_BASE + 0x6000, &pa, &contig) != 0,
	   "unmapped page faults");
	ok(gaudi_mmu_translate(g, 0, VA_BASE + 0x5000, &pa, &contig) != 0,
	   "ASID without hop 0 faults");
	ok(gaudi_mmu_translate(g, 1, 0x20000000, &pa, &contig) != 0 &&
	   gaudi_mmu_translate(g, 1, GAUDI_MMU_VA_END, &pa, &contig) != 0,
	   "addresses outside the MMU range have no translation");
	ok(gaudi_mmu_translate(g, 5000, VA_BASE, &pa, &contig) != 0,
	   "ASID beyond the table faults");

	/* A hop pointing outside device memory is a fault, not a crash. */
	{
		uint64_t bad = 0x7F00000000ULL | PTE_PRESENT;

		memcpy(fb.hbm + PGT_BASE + 0x1000 + 8 * 2, &bad, 8);
		ok(gaudi_mmu_translate(g, 1, VA_BASE + (2ULL << 48), &pa,
				       &contig) != 0,
		   "table outside HBM/SRAM faults");
	}
	/* Many ASIDs. */
	set_hop0(g, 1000);
	map_page(&fb, 1000, VA_BASE, 0x31000000, 0);
	ok(gaudi_mmu_translate(g, 1000, VA_BASE + 8, &pa, &contig) == 0 &&
	   pa == 0x31000008, "ASID 1000 has its own tables");
	gaudi_core_reset(g);
	ok(gaudi_mmu_translate(g, 1, VA_BASE + 0x5000, &pa, &contig) != 0,
	   "reset forgets hop 0");
	fakebus_free(&fb);
}

static void test_dma_through_mmu(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, PQ_BUS, 12);
	uint32_t core = mmDMA0_CORE_BASE;
	unsigned int i, bad = 0;
	struct cb c;

	set_hop0(g, 1);
	/* 8 host pages mapped in reverse order at VA_BASE. */
	for (i = 0; i < 8; i++)
		map_page(&fb, 1, VA_BASE + 0x1000 * i,
			 fake_host_dev(0x400000 + 0x1000 * (7 - i)), 0);
	map_page(&fb, 1, VA_BASE + 0x200000, 0x30000000, 1);
	for (i = 0; i < 0x8000; i++)
		fb.host[0x400000 + i] = i * 7 + (i >> 12);
	/* Upstream's gaudi_mmu_prepare: ASID 1 into NON_SECURE_PROPS. */
	gaudi_cfg_write(g, core + DMA_CORE_NON_SECURE_PROPS, 1);

	c = cb_at(&fb, CB_BUS);
	cb_lin_dma(&c, VA_BASE + 0x100, GAUDI_SRAM_BASE + 0x4000, 0x7E00, 0);
	cb_lin_dma(&c, GAUDI_SRAM_BASE + 0x4000, VA_BASE + 0x200010, 0x7E00,
		   0);
	q_submit(&q, &c);
	for (i = 0; i < 0x7E00; i++) {
		uint32_t v = 0x100 + i;
		uint8_t want = fb.host[0x400000 + 0x1000 * (7 - v / 0x1000) +
				       v % 0x1000];

		bad += fb.sram[0x4000 + i] != want ||
		       fb.hbm[0x30000010 + i] != want;
	}
	ok_eq(bad, 0, "LIN_DMA gathers scattered host pages through the MMU");
	ok_eq(fb.guest_errors, 0, "no guest errors");

	/* MMBP is honoured for trusted initiators only: still translated. */
	gaudi_cfg_write(g, core + DMA_CORE_NON_SECURE_PROPS,
			1 | GAUDI_PROPS_MMBP);
	c = cb_at(&fb, CB_BUS + 0x1000);
	cb_lin_dma(&c, VA_BASE, GAUDI_SRAM_BASE, 16, 0);
	q_submit(&q, &c);
	ok(!(gaudi_cfg_read(g, core + DMA_CORE_ERR_CAUSE) & DMA_ERR_HBW_RD),
	   "a non-secure channel's MMBP is ignored: the VA is translated");
	gaudi_cfg_write(g, core + DMA_CORE_ERR_CAUSE, 0xF);
	q_restart(&q);

	/* A secure transfer uses SECURE_PROPS (upstream sets MMBP there). */
	gaudi_cfg_write(g, core + DMA_CORE_NON_SECURE_PROPS, 1);
	gaudi_cfg_write(g, core + DMA_CORE_SECURE_PROPS, GAUDI_PROPS_MMBP);
	gaudi_cfg_write(g, core + DMA_CORE_PROT, 1);
	c = cb_at(&fb, CB_BUS + 0x2000);
	cb_lin_dma(&c, VA_BASE, GAUDI_SRAM_BASE, 16, 0);
	q_submit(&q, &c);
	ok(gaudi_cfg_read(g, core + DMA_CORE_ERR_CAUSE) & DMA_ERR_HBW_RD,
	   "secure transfers use SECURE_PROPS");
	gaudi_cfg_write(g, core + DMA_CORE_ERR_CAUSE, 0xF);
	gaudi_cfg_write(g, core + DMA_CORE_PROT, 0);
	q_restart(&q);

	/* Page fault: DMA to an unmapped VA. */
	c = cb_at(&fb, CB_BUS + 0x3000);
	cb_lin_dma(&c, GAUDI_SRAM_BASE, VA_BASE + 0x3456789AB000ULL, 64, 0);
	q_submit(&q, &c);
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_PAGE_ERROR_CAPTURE),
	      MMU_PAGE_ERROR_CAPTURE_VALID | 0x13456,
	      "page fault captures VALID and VA[49:32]");
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_PAGE_ERROR_CAPTURE_VA), 0x789AB000,
	      "page fault captures VA[31:0]");
	ok(gaudi_cfg_read(g, core + DMA_CORE_ERR_CAUSE) & DMA_ERR_HBW_WR,
	   "the DMA reports a write error");
	fakebus_free(&fb);
}

/* An internal queue whose CB lives behind the MMU (user CB pool). */
static void test_cb_through_mmu(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 10, PQ_BUS, 4);	/* DMA2 stream 1 */
	struct cb c = cb_at(&fb, 0x500000);

	set_hop0(g, 1);
	map_page(&fb, 1, VA_BASE + 0x10000, fake_host_dev(0x500000), 0);
	gaudi_cfg_write(g, q.base + QM_GLBL_NON_SECURE_PROPS_0 + 4 * q.s, 1);
	cb_msg_long(&c, fake_host_dev(0x8000), 0xC0DE);
	q_submit_dev(&q, VA_BASE + 0x10000, c.len);
	ok_eq(host_u32(&fb, 0x8000), 0xC0DE, "CP fetches a CB through the MMU");
	q_submit_dev(&q, VA_BASE + 0x20000, c.len);
	ok(q_sts1(&q) & QM_STS1_CP_RD_ERR, "unmapped CB is a CP read error");
	fakebus_free(&fb);
}

int main(void)
{
	test_handshake_and_walk();
	test_dma_through_mmu();
	test_cb_through_mmu();
	return tap_done();
}
