// SPDX-License-Identifier: GPL-2.0-or-later
/* Device MMU: hop-0 handshake, invalidation, 5-hop walk, DMA through it. */
#include <stdlib.h>
#include <string.h>

#include "cbgen.h"
#include "tap.h"

#define PGT_BASE	0x10000000ULL	/* hop-0 tables, 4 KiB per ASID */
#define PGT_POOL	0x10100000ULL	/* further hops */
#define VA_BASE		GAUDI_VA_HOST_START
#define PQ_BUS		0x10000ULL
#define CB_BUS		0x100000ULL

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
	ok(gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS) != 0,
	   "STLB invalidation is busy right after the request");
	gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS);
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS), 0,
	      "... and done by the third poll while time stands still");

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
	   gaudi_mmu_translate(g, 1, GAUDI_VA_HOST_END, &pa, &contig) != 0,
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
	gaudi_cfg_write(g, q.base + QM_GLBL_NON_SECURE_PROPS(0) + 4 * q.s, 1);
	cb_msg_long(&c, fake_host_dev(0x8000), 0xC0DE);
	q_submit_dev(&q, VA_BASE + 0x10000, c.len);
	ok_eq(host_u32(&fb, 0x8000), 0xC0DE, "CP fetches a CB through the MMU");
	q_submit_dev(&q, VA_BASE + 0x20000, c.len);
	ok(q_sts1(&q) & QM_STS1_CP_RD_ERR, "unmapped CB is a CP read error");
	fakebus_free(&fb);
}

/* The driver's (and upstream's) full invalidation, polled as they do. */
static unsigned int invalidate(struct fakebus *fb, uint64_t step_ns)
{
	struct gaudi_core *g = fb->g;
	unsigned int polls = 0;

	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_PS, 3);
	gaudi_cfg_write(g, mmMMU_UP_STLB_CACHE_INV, 1);
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_PS, 2);
	while (gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS) && polls < 100) {
		fb->now += step_ns;
		polls++;
	}
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_SET, 0);
	return polls;
}

static uint64_t xlate(struct gaudi_core *g, unsigned int asid, uint64_t va)
{
	uint64_t pa, contig;

	return gaudi_mmu_translate(g, asid, va, &pa, &contig) ? 0 : pa;
}

static void unmap_page(struct fakebus *fb, unsigned int asid, uint64_t va,
		       int huge)
{
	static const unsigned int shift[5] = { 48, 39, 30, 21, 12 };
	static const uint64_t mask[5] = { 3, 511, 511, 511, 511 };
	unsigned int hop, last = huge ? 3 : 4;
	uint64_t table = PGT_BASE + 0x1000ULL * asid, zero = 0;

	for (hop = 0; hop < last; hop++)
		table = hbm_u64(fb, table + 8 * ((va >> shift[hop]) &
						 mask[hop])) & ~0xFFFULL;
	memcpy(fb->hbm + table + 8 * ((va >> shift[last]) & mask[last]),
	       &zero, 8);
}

static void test_tlb_stale(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint64_t va = VA_BASE + 0x7000, hva = VA_BASE + 0x80000000ULL;
	uint64_t walks;

	fb.now = 1000;
	set_hop0(g, 1);
	map_page(&fb, 1, va, 0x20000000, 0);
	map_page(&fb, 1, hva, 0x30000000, 1);
	ok_eq(xlate(g, 1, va + 0x10), 0x20000010, "first access walks");
	ok_eq(xlate(g, 1, hva + 0x12345), 0x30012345, "2 MiB page walks");
	walks = g->mmu.walks;
	ok(xlate(g, 1, va + 0x20) == 0x20000020 &&
	   xlate(g, 1, hva + 0x1FFFF0) == 0x301FFFF0 &&
	   g->mmu.walks == walks && g->mmu.tlb_hits == 2,
	   "later accesses are served from the STLB without a walk");

	/* The driver remaps the same VAs to new pages... */
	map_page(&fb, 1, va, 0x21000000, 0);
	map_page(&fb, 1, hva, 0x32000000, 1);
	ok(xlate(g, 1, va) == 0x20000000 && xlate(g, 1, hva) == 0x30000000,
	   "a rewritten PTE is not seen before invalidation (stale)");
	/* ... and starts the invalidation: old pages until it completes. */
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_PS, 3);
	gaudi_cfg_write(g, mmMMU_UP_STLB_CACHE_INV, 1);
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_PS, 2);
	ok(gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS) == 2 &&
	   xlate(g, 1, va) == 0x20000000,
	   "STLB_INV_PS reads non-zero and the old page is used until done");
	fb.now += GAUDI_TLB_INV_NS;
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS), 0,
	      "the invalidation completes after its time");
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_SET, 0);
	ok(xlate(g, 1, va + 8) == 0x21000008 &&
	   xlate(g, 1, hva + 8) == 0x32000008,
	   "after invalidation the new pages are used");

	/* Unmap: still served until invalidated, then a fault. */
	unmap_page(&fb, 1, va, 0);
	ok_eq(xlate(g, 1, va), 0x21000000, "an unmapped page stays cached");
	ok(invalidate(&fb, 1000) >= 1, "the driver's poll saw it busy");
	ok_eq(xlate(g, 1, va), 0, "after invalidation the unmapped VA faults");
	ok_eq(fb.guest_errors, 0, "no guest errors");

	/* A translation that was never cached is seen at once (no negative
	 * caching): a new mapping needs no invalidation to appear. */
	map_page(&fb, 1, va, 0x22000000, 0);
	ok_eq(xlate(g, 1, va), 0x22000000, "faults are not cached");

	/* A hard reset empties the STLB. */
	gaudi_core_reset(g);
	set_hop0(g, 1);
	map_page(&fb, 1, va, 0x23000000, 0);
	ok_eq(xlate(g, 1, va), 0x23000000, "reset drops cached translations");
	fakebus_free(&fb);
}

static void test_tlb_asid(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint64_t va = VA_BASE + 0x3000;

	set_hop0(g, 1);
	set_hop0(g, 2);
	map_page(&fb, 1, va, 0x20000000, 0);
	map_page(&fb, 2, va, 0x20100000, 0);
	ok(xlate(g, 1, va) == 0x20000000 && xlate(g, 2, va) == 0x20100000,
	   "two ASIDs, one VA, two pages");
	ok(xlate(g, 1, va) == 0x20000000 && xlate(g, 2, va) == 0x20100000 &&
	   g->mmu.tlb_hits == 2, "each ASID hits its own entry");
	ok_eq(xlate(g, 3, va), 0, "a third ASID does not see them");
	map_page(&fb, 2, va, 0x20200000, 0);
	ok(xlate(g, 1, va) == 0x20000000 && xlate(g, 2, va) == 0x20100000,
	   "remapping ASID 2 leaves both cached until invalidation");
	invalidate(&fb, 1000);
	ok(xlate(g, 1, va) == 0x20000000 && xlate(g, 2, va) == 0x20200000,
	   "after invalidation: ASID 1 unchanged, ASID 2 on its new page");
	fakebus_free(&fb);
}

static void test_tlb_capacity(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	unsigned int i, n = 4 * GAUDI_TLB_ENTRIES, bad = 0;

	set_hop0(g, 1);
	for (i = 0; i < n; i++)
		map_page(&fb, 1, VA_BASE + 0x1000ULL * i,
			 0x20000000 + 0x1000ULL * i, 0);
	for (i = 0; i < n; i++)
		bad += xlate(g, 1, VA_BASE + 0x1000ULL * i) !=
		       0x20000000 + 0x1000ULL * i;
	ok_eq(bad, 0, "4096 pages translate");
	ok_eq(gaudi_mmu_tlb_count(g), GAUDI_TLB_ENTRIES,
	      "the STLB is full (1024 entries)");
	ok_eq(g->mmu.tlb_evictions, n - GAUDI_TLB_ENTRIES,
	      "every further fill evicted one");
	/* Remap every page without invalidation: the evicted (least
	 * recently used) ones walk again and see the new page, the cached
	 * ones are stale. */
	for (i = 0; i < n; i++)
		map_page(&fb, 1, VA_BASE + 0x1000ULL * i,
			 0x28000000 + 0x1000ULL * i, 0);
	ok_eq(xlate(g, 1, VA_BASE + 0x1000ULL * (n - 1)),
	      0x20000000 + 0x1000ULL * (n - 1),
	      "the most recently used page is still cached (stale)");
	ok_eq(xlate(g, 1, VA_BASE), 0x28000000,
	      "the least recently used page was evicted: walks, new page");
	fakebus_free(&fb);
}

static void test_tlb_off(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint64_t va = VA_BASE + 0x9000;

	g->id.tlb_off = true;
	set_hop0(g, 1);
	map_page(&fb, 1, va, 0x20000000, 0);
	ok_eq(xlate(g, 1, va), 0x20000000, "tlb=off: translates");
	map_page(&fb, 1, va, 0x20300000, 0);
	ok_eq(xlate(g, 1, va), 0x20300000,
	      "tlb=off: a rewritten PTE is seen at once");
	ok(g->mmu.walks == 2 && gaudi_mmu_tlb_count(g) == 0,
	   "tlb=off: every access walks, nothing cached");
	gaudi_cfg_write(g, mmMMU_UP_STLB_INV_PS, 2);
	ok_eq(gaudi_cfg_read(g, mmMMU_UP_STLB_INV_PS), 0,
	      "tlb=off: invalidation completes at once");
	fakebus_free(&fb);
}

/* A queue's LIN_DMA goes through the STLB: stale before, new after. */
static void test_tlb_dma(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, PQ_BUS, 12);
	uint32_t core = mmDMA0_CORE_BASE;
	struct cb c;

	set_hop0(g, 1);
	gaudi_cfg_write(g, core + DMA_CORE_NON_SECURE_PROPS, 1);
	map_page(&fb, 1, VA_BASE, fake_host_dev(0x600000), 0);
	memset(fb.sram + 0x8000, 0xA1, 64);
	c = cb_at(&fb, CB_BUS);
	cb_lin_dma(&c, GAUDI_SRAM_BASE + 0x8000, VA_BASE + 0x40, 64, 0);
	q_submit(&q, &c);
	ok_eq(fb.host[0x600040], 0xA1, "DMA lands in the first page");

	map_page(&fb, 1, VA_BASE, fake_host_dev(0x700000), 0);
	memset(fb.sram + 0x8000, 0xB2, 64);
	c = cb_at(&fb, CB_BUS + 0x1000);
	cb_lin_dma(&c, GAUDI_SRAM_BASE + 0x8000, VA_BASE + 0x40, 64, 0);
	q_submit(&q, &c);
	ok(fb.host[0x600040] == 0xB2 && fb.host[0x700040] == 0,
	   "remapped without invalidation: DMA still reaches the old page");

	invalidate(&fb, 1000);
	memset(fb.sram + 0x8000, 0xC3, 64);
	c = cb_at(&fb, CB_BUS + 0x2000);
	cb_lin_dma(&c, GAUDI_SRAM_BASE + 0x8000, VA_BASE + 0x40, 64, 0);
	q_submit(&q, &c);
	ok(fb.host[0x700040] == 0xC3 && fb.host[0x600040] == 0xB2,
	   "after invalidation: the new page, the old one untouched");
	fakebus_free(&fb);
}

int main(void)
{
	test_handshake_and_walk();
	test_dma_through_mmu();
	test_cb_through_mmu();
	test_tlb_stale();
	test_tlb_asid();
	test_tlb_capacity();
	test_tlb_off();
	test_tlb_dma();
	return tap_done();
}
