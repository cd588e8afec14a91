// SPDX-License-Identifier: GPL-2.0-or-later
/* DMA cores: LIN_DMA copy and memset, direct COMMIT, sparse HBM clears. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cbgen.h"
#include "tap.h"

#define PQ_BUS		0x10000ULL
#define CB_BUS		0x100000ULL
#define SRC_BUS		0x1000000ULL	/* 8 MiB of random source */
#define DST_BUS		0x2000000ULL
#define SRAM_AREA	(GAUDI_SRAM_BASE + 0x100000)
#define HBM_AREA	GAUDI_DRAM_USER_START

/* host -> SRAM -> HBM -> host on DMA_0_0, random sizes and alignments. */
static void test_copy_chain(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, PQ_BUS, 12);
	unsigned int i, good = 0, rounds = 40;
	uint64_t bytes = g->stat_dma_bytes, moved = 0;

	srand(1234);
	for (i = 0; i < 8 << 20; i++)
		fb.host[SRC_BUS + i] = rand();
	for (i = 0; i < rounds; i++) {
		struct cb c = cb_at(&fb, CB_BUS + 0x1000 * i);
		uint32_t size = 1 + rand() % (i < 4 ? (3 << 20) : 70000);
		uint32_t so = rand() % 4096, mo = rand() % 4096;
		uint32_t ho = rand() % 4096, d = rand() % 4096;

		memset(fb.host + DST_BUS, 0xEE, d + size + 1);
		cb_lin_dma(&c, fake_host_dev(SRC_BUS + so), SRAM_AREA + mo,
			   size, 0);
		cb_lin_dma(&c, SRAM_AREA + mo, HBM_AREA + ho, size, 0);
		cb_lin_dma(&c, HBM_AREA + ho, fake_host_dev(DST_BUS + d), size,
			   0);
		q_submit(&q, &c);
		good += !memcmp(fb.host + SRC_BUS + so, fb.host + DST_BUS + d,
				size) &&
			fb.host[DST_BUS + d + size] == 0xEE &&
			(d == 0 || fb.host[DST_BUS + d - 1] == 0xEE);
		moved += 3ULL * size;
	}
	ok_eq(good, rounds, "%u random copies host->SRAM->HBM->host exact",
	      rounds);
	ok_eq(g->stat_dma_bytes - bytes, moved, "bytes accounted");
	ok_eq(fb.guest_errors, 0, "no guest errors");

	/* Overlapping copy inside HBM behaves like memmove. */
	{
		struct cb c = cb_at(&fb, CB_BUS + 0x100000);
		uint8_t ref[4096];

		memcpy(ref, fb.hbm + HBM_AREA, sizeof(ref));
		cb_lin_dma(&c, HBM_AREA, HBM_AREA + 100, sizeof(ref), 0);
		q_submit(&q, &c);
		ok(!memcmp(ref, fb.hbm + HBM_AREA + 100, sizeof(ref)),
		   "overlapping copy is a memmove");
	}
	/* Host to host goes through the bounce buffer. */
	{
		struct cb c = cb_at(&fb, CB_BUS + 0x101000);

		cb_lin_dma(&c, fake_host_dev(SRC_BUS), fake_host_dev(DST_BUS),
			   200000, 0);
		q_submit(&q, &c);
		ok(!memcmp(fb.host + SRC_BUS, fb.host + DST_BUS, 200000),
		   "host to host copy");
	}
	fakebus_free(&fb);
}

static void test_memset(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, PQ_BUS, 12);
	struct cb c = cb_at(&fb, CB_BUS);
	uint64_t pat = 0x8877665544332211ULL;
	unsigned int i, bad = 0;

	memset(fb.sram + 0x1000, 0xAA, 0x200);
	cb_lin_dma(&c, pat, GAUDI_SRAM_BASE + 0x1003, 0x101, 1);
	q_submit(&q, &c);
	for (i = 0; i < 0x101; i++)
		bad += fb.sram[0x1003 + i] != (uint8_t)(pat >> (8 * (i & 7)));
	ok_eq(bad, 0, "memset repeats the 64-bit pattern from the start");
	ok(fb.sram[0x1002] == 0xAA && fb.sram[0x1104] == 0xAA,
	   "memset stays inside its range");

	/* Memset into host memory (through the bounce buffer). */
	c = cb_at(&fb, CB_BUS + 0x1000);
	cb_lin_dma(&c, pat, fake_host_dev(DST_BUS + 5), 100000, 1);
	q_submit(&q, &c);
	bad = 0;
	for (i = 0; i < 100000; i++)
		bad += fb.host[DST_BUS + 5 + i] !=
		       (uint8_t)(pat >> (8 * (i & 7)));
	ok_eq(bad, 0, "memset of host memory");

	/*
	 * Upstream's late-init clear of the page-table area: 192 MiB.  The
	 * pages that already read zero are made read-only: writing one of
	 * them (and so populating sparse HBM) would crash the test.
	 */
	mprotect(fb.hbm + 0x10000000, 192 << 20, PROT_READ);
	mprotect(fb.hbm + 0x10003000, 0x2000, PROT_READ | PROT_WRITE);
	mprotect(fb.hbm + 0x18000000, 0x1000, PROT_READ | PROT_WRITE);
	memset(fb.hbm + 0x10000000 + 0x3000, 0x5A, 0x2000);
	memset(fb.hbm + 0x10000000 + 0x8000123, 0x5A, 10);
	c = cb_at(&fb, CB_BUS + 0x2000);
	cb_lin_dma(&c, 0, 0x10000000, 192 << 20, 1);
	q_submit(&q, &c);
	ok(1, "192 MiB zero memset writes no page that is already zero");
	mprotect(fb.hbm + 0x10000000, 192 << 20, PROT_READ | PROT_WRITE);
	ok(fb.hbm[0x10003000] == 0 && fb.hbm[0x10004FFF] == 0 &&
	   fb.hbm[0x18000123] == 0 && fb.hbm[0x1800012C] == 0,
	   "written pages are cleared");
	ok_eq(q_ci(&q), 3, "all memsets done");
	ok_eq(fb.guest_errors, 0, "no guest errors");
	(void)g;
	fakebus_free(&fb);
}

/* The register interface: SRC, DST, TSIZE then COMMIT. */
static void test_direct_commit(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint32_t core = mmDMA0_CORE_BASE + 3 * GAUDI_DMA_STRIDE;
	uint64_t src = fake_host_dev(SRC_BUS);

	memset(fb.host + SRC_BUS, 0x3C, 5000);
	gaudi_cfg_write(g, core + DMA_CORE_SRC_BASE_LO, (uint32_t)src);
	gaudi_cfg_write(g, core + DMA_CORE_SRC_BASE_HI, src >> 32);
	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_LO, 0x30000000);
	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_HI, 0x7F000000);
	gaudi_cfg_write(g, core + DMA_CORE_DST_TSIZE_0, 5000);
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_WDATA, 0x600D);
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_ADDR_LO,
			(uint32_t)fake_host_dev(DST_BUS));
	gaudi_cfg_write(g, core + DMA_CORE_WR_COMP_ADDR_HI,
			fake_host_dev(DST_BUS) >> 32);
	gaudi_cfg_write(g, core + DMA_CORE_COMMIT,
			DMA_COMMIT_LIN | DMA_COMMIT_WR_COMP_EN);
	ok(fb.hbm[0x30000000] == 0x3C && fb.hbm[0x30000000 + 4999] == 0x3C &&
	   fb.hbm[0x30000000 + 5000] == 0,
	   "COMMIT copies (context id bits of DST_BASE_HI ignored)");
	ok_eq(host_u32(&fb, DST_BUS), 0x600D, "write completion written");
	ok_eq(gaudi_cfg_read(g, core + DMA_CORE_STS0), 0, "not busy after");

	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_LO, 0);
	gaudi_cfg_write(g, core + DMA_CORE_DST_BASE_HI, 0x7F);
	gaudi_cfg_write(g, core + DMA_CORE_COMMIT, DMA_COMMIT_LIN);
	ok_eq(gaudi_cfg_read(g, core + DMA_CORE_ERR_CAUSE), DMA_ERR_HBW_WR,
	      "transfer into a hole sets HBW_WR_ERR");
	gaudi_cfg_write(g, core + DMA_CORE_ERR_CAUSE, DMA_ERR_HBW_WR);
	ok_eq(gaudi_cfg_read(g, core + DMA_CORE_ERR_CAUSE), 0,
	      "ERR_CAUSE clears on write 1");
	gaudi_cfg_write(g, core + DMA_CORE_COMMIT, 0);
	ok(gaudi_cfg_read(g, core + DMA_CORE_ERR_CAUSE) && fb.guest_errors == 2,
	   "non-linear transfer whose source (0 bytes) and destination sizes differ fails");
	fakebus_free(&fb);
}

/* Window offset (WREG_32) of a DMA core register. */
#define WIN(r)	(r)

/*
 * Non-linear LIN_DMA (issue 15, scenario c): WREG_32 to the core's sizes
 * and strides, LIN bit clear.  3 planes of 5 rows of 700 bytes gathered
 * from one layout and scattered into another; a shaped memset; a shape
 * whose two sides differ fails.
 */
static void test_strided(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	struct queue q = q_setup(&fb, 0, PQ_BUS, 4);
	struct cb c = cb_at(&fb, CB_BUS);
	uint32_t ss1 = 1000, ss2 = 6000, ds1 = 2048, ds2 = 16384, row = 700;
	uint32_t ts[5] = { 700, 5, 3, 1, 0 }, k, p, r, bad = 0, gap = 0;
	uint64_t i, span = 2 * ds2 + 4 * ds1 + row;

	srand(77);
	for (i = 0; i < 65536; i++)
		fb.host[SRC_BUS + i] = rand();
	memset(fb.host + DST_BUS, 0xEE, span + 4096);
	for (k = 0; k < 5; k++) {
		cb_wreg32(&c, WIN(k ? DMA_CORE_SRC_TSIZE(k) : DMA_CORE_SRC_TSIZE_0),
			  ts[k]);
		cb_wreg32(&c, WIN(k ? DMA_CORE_DST_TSIZE(k) : DMA_CORE_DST_TSIZE_0),
			  ts[k]);
	}
	cb_wreg32(&c, DMA_CORE_SRC_STRIDE(1), ss1);
	cb_wreg32(&c, DMA_CORE_SRC_STRIDE(2), ss2);
	cb_wreg32(&c, DMA_CORE_DST_STRIDE(1), ds1);
	cb_wreg32(&c, DMA_CORE_DST_STRIDE(2), ds2);
	cb_wreg32(&c, DMA_CORE_SRC_STRIDE(4), 0xFFFFFFFF);	/* count 0: 1 */
	cb_lin_dma(&c, fake_host_dev(SRC_BUS), fake_host_dev(DST_BUS), row, 0);
	/* clear the LIN bit of the packet just written */
	fb.host[CB_BUS + c.len - 20] &= ~(1U << 3);
	q_submit(&q, &c);
	for (p = 0; p < 3; p++)
		for (r = 0; r < 5; r++)
			bad += !!memcmp(fb.host + DST_BUS + p * ds2 + r * ds1,
					fb.host + SRC_BUS + p * ss2 + r * ss1,
					row);
	for (i = 0; i < span + 4096; i++)
		if (!(i < span && i % ds2 < 5 * ds1 && i % ds1 < row) &&
		    fb.host[DST_BUS + i] != 0xEE)
			gap++;
	ok_eq(bad, 0, "15 rows gathered and scattered exactly");
	ok_eq(gap, 0, "nothing written between the rows");
	ok_eq(q_ci(&q), 1, "CB done");
	ok_eq(fb.guest_errors, 0, "no guest errors");

	/* A shaped memset: the destination's shape, the pattern's phase. */
	c = cb_at(&fb, CB_BUS + 0x1000);
	memset(fb.host + DST_BUS, 0, span + 4096);
	cb_lin_dma(&c, 0x0807060504030201ULL, fake_host_dev(DST_BUS), row, 1);
	fb.host[CB_BUS + 0x1000 + c.len - 20] &= ~(1U << 3);
	q_submit(&q, &c);
	ok(fb.host[DST_BUS] == 1 && fb.host[DST_BUS + 699] == 4 &&
	   fb.host[DST_BUS + ds1] == 5 && fb.host[DST_BUS + 700] == 0 &&
	   fb.host[DST_BUS + 2 * ds2 + 4 * ds1 + 699] == (14 * 700 + 699) % 8 + 1,
	   "shaped memset fills the rows, pattern phase follows the transfer");

	/* 1-byte rows, 200000 of them (pieces of 64 Ki rows): every 2nd byte. */
	c = cb_at(&fb, CB_BUS + 0x3000);
	for (k = 0; k < 5; k++) {
		cb_wreg32(&c, k ? DMA_CORE_SRC_TSIZE(k) : DMA_CORE_SRC_TSIZE_0,
			  k == 1 ? 200000 : 1);
		cb_wreg32(&c, k ? DMA_CORE_DST_TSIZE(k) : DMA_CORE_DST_TSIZE_0,
			  k == 1 ? 200000 : 1);
	}
	cb_wreg32(&c, DMA_CORE_SRC_STRIDE(1), 2);
	cb_wreg32(&c, DMA_CORE_DST_STRIDE(1), 1);
	cb_lin_dma(&c, fake_host_dev(SRC_BUS), fake_host_dev(DST_BUS), 1, 0);
	fb.host[CB_BUS + 0x3000 + c.len - 20] &= ~(1U << 3);
	for (i = 0; i < 400000; i++)
		fb.host[SRC_BUS + i] = (uint8_t)(i * 7 + i / 256);
	q_submit(&q, &c);
	for (i = 0, bad = 0; i < 200000; i++)
		bad += fb.host[DST_BUS + i] != fb.host[SRC_BUS + 2 * i];
	ok_eq(bad, 0, "200000 one-byte rows gathered at stride 2");

	/* Source and destination byte counts differ: the transfer fails. */
	c = cb_at(&fb, CB_BUS + 0x2000);
	cb_wreg32(&c, DMA_CORE_SRC_TSIZE_0, row);
	cb_wreg32(&c, DMA_CORE_DST_TSIZE(1), 5);
	cb_wreg32(&c, DMA_CORE_DST_STRIDE(1), ds1);
	c = cb_at(&fb, CB_BUS + 0x2000);
	cb_wreg32(&c, DMA_CORE_SRC_TSIZE(1), 4);
	cb_lin_dma(&c, fake_host_dev(SRC_BUS), fake_host_dev(DST_BUS), row, 0);
	fb.host[CB_BUS + 0x2000 + c.len - 20] &= ~(1U << 3);
	q_submit(&q, &c);
	ok(gaudi_cfg_read(g, mmDMA0_CORE_BASE + DMA_CORE_ERR_CAUSE) &&
	   fb.guest_errors >= 1, "mismatched shapes fail the transfer");
	fakebus_free(&fb);
}

int main(void)
{
	test_copy_chain();
	test_memset();
	test_direct_commit();
	test_strided();
	return tap_done();
}
