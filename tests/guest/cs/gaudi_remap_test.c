// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_remap_test - unmap and remap the same device VA to new host pages
 * and check that DMA follows (issue 15): a driver that leaves stale
 * translations in the device MMU's STLB (a missing or late invalidation)
 * makes the DMA read the old pages and write into them.
 *
 *   gaudi_remap_test [--card N] [--rounds N]
 *
 * Two page-aligned host buffers A and B take turns at one device VA (the
 * first mapping's address, then HL_MEM_FORCE_HINT): each round maps the
 * next buffer there with a random size (1..64 pages), refreshes both
 * buffers with random bytes, and runs one CS on DMA0 that
 *  - reads a random range through the VA into SRAM and copies it into a
 *    third, stable mapping R (so R must show the new buffer's bytes), and
 *  - memsets another random range through the VA (so the new buffer must
 *    show the fill byte there and nowhere else),
 * then checks every byte of A, B and R against what the round expects:
 * the buffer that was unmapped must be untouched.  The VA is then
 * unmapped for the next round.  On Gaudi 1 HBM is addressed physically
 * (no MMU in front of it), so only host mappings are remapped.
 *
 * Prints TAP ending in "N passed, N failed"; exit status 1 on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "hl_ioctl.h"
#include "tap.h"

#define PAGE		4096U
#define MAX_PAGES	64U
#define BUF_SIZE	(MAX_PAGES * PAGE)
#define CB_SIZE		4096U
#define WAIT_US		(30ULL * 1000 * 1000)

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint64_t rnd(void)
{
	return tap_xorshift(&rng) * 0x9E3779B97F4A7C15ULL;
}

static void fill_random(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

/* Map @size bytes at @p for DMA, at device VA @hint if not 0 (forced). */
static int map_at(int fd, void *p, uint64_t size, uint64_t hint,
		  uint64_t *va)
{
	union hl_mem_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_MAP;
	a.in.flags = HL_MEM_USERPTR | (hint ? HL_MEM_FORCE_HINT : 0);
	a.in.map_host.host_virt_addr = (uintptr_t)p;
	a.in.map_host.mem_size = size;
	a.in.map_host.hint_addr = hint;
	rc = xioctl(fd, DRM_IOCTL_HL_MEMORY, &a);
	*va = rc ? 0 : a.out.device_virt_addr;
	return rc;
}

/* Count bytes of @p[0..n) that differ from @want[0..n); 0 = equal. */
static unsigned int diff(const uint8_t *p, const uint8_t *want, size_t n)
{
	unsigned int bad = 0;
	size_t i;

	if (!memcmp(p, want, n))
		return 0;
	for (i = 0; i < n; i++)
		bad += p[i] != want[i];
	return bad;
}

int main(int argc, char **argv)
{
	unsigned int rounds = 300, card = 0, r, fails = 0, moved = 0;
	unsigned int bad_read = 0, bad_write = 0, bad_old = 0, bad_rounds = 0;
	uint8_t *buf[2], *shadow[2], *res, *res_want, *cbp;
	uint64_t cb, va = 0, va0 = 0, rva, seq;
	struct timespec t0, t1;
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ "rounds", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	char path[64];
	int fd, opt;

	while ((opt = getopt_long(argc, argv, "c:r:", opts, NULL)) != -1) {
		if (opt == 'c')
			card = atoi(optarg);
		else if (opt == 'r')
			rounds = atoi(optarg);
		else
			return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	snprintf(path, sizeof(path), "/dev/accel/accel%u", card);
	fd = hl_open_retry(path);
	if (!ok(fd >= 0, "open %s", path))
		return tap_done();
	buf[0] = aligned_alloc(PAGE, BUF_SIZE);
	buf[1] = aligned_alloc(PAGE, BUF_SIZE);
	shadow[0] = malloc(BUF_SIZE);
	shadow[1] = malloc(BUF_SIZE);
	res = aligned_alloc(PAGE, BUF_SIZE);
	res_want = malloc(BUF_SIZE);
	if (!buf[0] || !buf[1] || !shadow[0] || !shadow[1] || !res ||
	    !res_want)
		return 1;
	memset(res, 0, BUF_SIZE);
	if (!ok(cb_create(fd, CB_SIZE, 0, &cb) == 0, "create a CB"))
		return tap_done();
	cbp = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)cb);
	if (!ok(cbp != MAP_FAILED, "mmap the CB"))
		return tap_done();
	if (!ok(map_at(fd, res, BUF_SIZE, 0, &rva) == 0,
		"map the result buffer R"))
		return tap_done();

	for (r = 0; r < rounds; r++) {
		unsigned int cur = r & 1, npages = 1 + rnd() % MAX_PAGES;
		uint32_t size = npages * PAGE;
		uint32_t roff = rnd() % size, rlen = 1 + rnd() % (size - roff);
		uint32_t woff = rnd() % size, wlen = 1 + rnd() % (size - woff);
		uint32_t resoff = rnd() % (BUF_SIZE - rlen);
		uint8_t fillb = (uint8_t)rnd();
		unsigned int br, bw, bo;
		uint32_t st = ~0U;
		size_t len = 0;

		/* Both buffers get new bytes: stale reads show the old ones. */
		fill_random(buf[0], BUF_SIZE);
		fill_random(buf[1], BUF_SIZE);
		memcpy(shadow[0], buf[0], BUF_SIZE);
		memcpy(shadow[1], buf[1], BUF_SIZE);
		if (map_at(fd, buf[cur], size, va0, &va)) {
			fails++;
			break;
		}
		if (!va0)
			va0 = va;
		moved += va != va0;

		len = pkt_lin_dma(cbp, len, va + roff, GAUDI_SRAM_USER_START, rlen, false,
				  true);
		len = pkt_lin_dma(cbp, len, GAUDI_SRAM_USER_START, rva + resoff, rlen,
				  false, true);
		len = pkt_lin_dma(cbp, len, 0x0101010101010101ULL * fillb,
				  va + woff, wlen, true, true);
		if (hl_submit1(fd, cb, len, 0, &seq) ||
		    wait_cs(fd, seq, WAIT_US, &st, NULL) ||
		    st != HL_WAIT_CS_STATUS_COMPLETED) {
			fails++;
			unmap_host(fd, va);
			continue;
		}
		/* Expected: R has the new buffer's bytes (as they were before
		 * the memset when the ranges overlap: the read went first). */
		memcpy(res_want, res, BUF_SIZE);
		memcpy(res_want + resoff, shadow[cur] + roff, rlen);
		memset(shadow[cur] + woff, fillb, wlen);
		br = diff(res + resoff, res_want + resoff, rlen);
		bw = diff(buf[cur], shadow[cur], BUF_SIZE);
		bo = diff(buf[!cur], shadow[!cur], BUF_SIZE);
		if ((br || bw || bo) && bad_rounds++ < 3)
			tap_diag("round %u (%u pages, buffer %c): %u bytes read wrong, %u written wrong, %u changed in the unmapped buffer",
				 r, npages, "AB"[cur], br, bw, bo);
		bad_read += br;
		bad_write += bw;
		bad_old += bo;
		if (unmap_host(fd, va))
			fails++;
	}
	ok(!fails, "%u rounds: map at the same VA, CS, unmap (%u failed)",
	   rounds, fails);
	ok(!moved, "every mapping landed at the same VA 0x%llx (%u elsewhere)",
	   (unsigned long long)va0, moved);
	ok(!bad_read,
	   "reads through the remapped VA see the new pages (%u bytes wrong)",
	   bad_read);
	ok(!bad_write,
	   "writes through the remapped VA land in the new pages (%u bytes wrong)",
	   bad_write);
	ok(!bad_old, "the unmapped pages stay untouched (%u bytes changed)",
	   bad_old);
	unmap_host(fd, rva);
	munmap(cbp, CB_SIZE);
	cb_destroy(fd, cb);
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("%u rounds in %.1f s", rounds,
		 (double)(t1.tv_sec - t0.tv_sec) +
		 (t1.tv_nsec - t0.tv_nsec) / 1e9);
	free(buf[0]);
	free(buf[1]);
	free(shadow[0]);
	free(shadow[1]);
	free(res);
	free(res_want);
	return tap_done();
}
