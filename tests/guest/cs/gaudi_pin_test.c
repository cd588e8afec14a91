// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_pin_test - host pages pinned and DMA-mapped once per page per
 * device (issue 29): repeated, overlapping and nested userptr MAPs of the
 * same pages share one pin and one DMA mapping, refcounted.
 *
 *   gaudi_pin_test [--card N]
 *
 *   same     one page mapped 16 times (whole page and parts of it), then
 *            unmapped forwards, backwards and interleaved
 *   ranges   four overlapping and nested ranges of 8 pages (page aligned
 *            and not), mapped in every order of the 4 and unmapped in the
 *            given order, then mapped in order and unmapped in every order
 *   alias    one range whose two halves are the same shared page (a memfd
 *            mapped twice): pinned once, both halves reach it
 *   two      the same page mapped 16 times on this card and on the next
 *            (two contexts of one process), unmapped on one, then the other;
 *            and a context closed with its mappings still there
 *
 * After every MAP and UNMAP: a CS reads through each live mapping (into
 * SRAM and out to a result mapping) and memsets part of it, and the bytes
 * in host memory must be what that says; VmPin (/proc/self/status) and
 * fdinfo's drm-total-host must count each page once per context, as long
 * as a set of pages is in use: the pages a MAP pinned first stay pinned
 * while any mapping uses one of them (Documentation/accel/gaudi.rst, "Host
 * memory"), which the model below follows.  The DMA-API debug layer's
 * reports (debug kernel) are judged by the suite from dmesg.
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
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "hl_ioctl.h"
#include "tap.h"

#define PG		4096U
#define NPG		8U		/* pages of the ranges buffer */
#define NSAME		16U
#define RES_SIZE	(NPG * PG)
#define CB_SIZE		4096U
#define WAIT_US		(30ULL * 1000 * 1000)

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	return tap_xorshift(&rng) * 0x2545F4914F6CDD1DULL;
}

/* One card's context: the node, a CB and a result buffer R mapped. */
struct dev {
	int fd;
	uint64_t cb, rva;
	uint8_t *cbp, *res;
	long long host0;	/* drm-total-host with only the above */
};

static long long vmpin_kb(void)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %lld kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

static bool dev_open(struct dev *d, unsigned int card)
{
	char path[64];

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "/dev/accel/accel%u", card);
	d->fd = hl_open_retry(path);
	if (d->fd < 0)
		return false;
	d->res = aligned_alloc(PG, RES_SIZE);
	if (!d->res || cb_create(d->fd, CB_SIZE, 0, &d->cb))
		return false;
	d->cbp = hl_cb_mmap(d->fd, d->cb, CB_SIZE);
	if (d->cbp == MAP_FAILED)
		return false;
	memset(d->res, 0, RES_SIZE);
	if (map_host(d->fd, d->res, RES_SIZE, &d->rva))
		return false;
	d->host0 = hl_fdinfo(d->fd, "drm-total-host");
	return true;
}

static void dev_close(struct dev *d)
{
	if (d->fd < 0)
		return;
	if (d->rva)
		unmap_host(d->fd, d->rva);
	if (d->cbp && d->cbp != MAP_FAILED)
		munmap(d->cbp, CB_SIZE);
	if (d->cb)
		cb_destroy(d->fd, d->cb);
	close(d->fd);
	free(d->res);
	d->fd = -1;
}

/*
 * Through device VA @va, which maps @host[0..@len): a CS copies all of it
 * to R (through SRAM) and memsets a random part with a random byte.  True
 * when R and @host then hold what they must.  @host gets new random bytes
 * first: a read of stale pages shows.
 */
static bool check_va(struct dev *d, uint64_t va, uint8_t *host, uint32_t len)
{
	uint32_t woff = rnd() % len, wlen = 1 + rnd() % (len - woff);
	uint8_t want[RES_SIZE], fill = (uint8_t)rnd();
	uint64_t seq;
	uint32_t st = ~0U, i;
	size_t n = 0;

	for (i = 0; i < len; i++)
		host[i] = (uint8_t)rnd();
	memcpy(want, host, len);
	memset(d->res, 0, len);
	n = pkt_lin_dma(d->cbp, n, va, GAUDI_SRAM_USER_START, len, false, true);
	n = pkt_lin_dma(d->cbp, n, GAUDI_SRAM_USER_START, d->rva, len, false,
			true);
	n = pkt_lin_dma(d->cbp, n, 0x0101010101010101ULL * fill, va + woff,
			wlen, true, true);
	if (hl_submit1(d->fd, d->cb, n, 0, &seq) ||
	    wait_cs(d->fd, seq, WAIT_US, &st, NULL) ||
	    st != HL_WAIT_CS_STATUS_COMPLETED) {
		tap_diag("CS through 0x%llx failed (status %u)",
			 (unsigned long long)va, st);
		return false;
	}
	if (memcmp(d->res, want, len)) {
		tap_diag("read through 0x%llx + %u: wrong bytes",
			 (unsigned long long)va, len);
		return false;
	}
	memset(want + woff, fill, wlen);
	if (memcmp(host, want, len)) {
		tap_diag("memset through 0x%llx + %u (%u + %u): wrong bytes",
			 (unsigned long long)va, len, woff, wlen);
		return false;
	}
	return true;
}

/* ---- the model of what is pinned ----------------------------------------- */

#define MAXMAPS	NSAME
#define NOSET	(-1)

/*
 * Pages of one buffer: which set pinned each (NOSET: none), the sets'
 * mapping counts and the sets each mapping uses.
 */
struct model {
	int owner[NPG];
	int refs[MAXMAPS];
	uint32_t uses[MAXMAPS];		/* bit s: the map uses set s */
	int nsets;
};

static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	for (unsigned int p = 0; p < NPG; p++)
		m->owner[p] = NOSET;
}

static void model_map(struct model *m, unsigned int id, unsigned int lo,
		      unsigned int hi)
{
	int set = NOSET;

	m->uses[id] = 0;
	for (unsigned int p = lo; p < hi; p++) {
		if (m->owner[p] == NOSET) {
			if (set == NOSET)
				set = m->nsets++;
			m->owner[p] = set;
		}
		m->uses[id] |= 1U << m->owner[p];
	}
	for (int s = 0; s < m->nsets; s++)
		m->refs[s] += !!(m->uses[id] & (1U << s));
}

static void model_unmap(struct model *m, unsigned int id)
{
	for (int s = 0; s < m->nsets; s++) {
		if (!(m->uses[id] & (1U << s)) || --m->refs[s])
			continue;
		for (unsigned int p = 0; p < NPG; p++)
			if (m->owner[p] == s)
				m->owner[p] = NOSET;
	}
	m->uses[id] = 0;
}

static unsigned int model_pinned(const struct model *m)
{
	unsigned int n = 0;

	for (unsigned int p = 0; p < NPG; p++)
		n += m->owner[p] != NOSET;
	return n;
}

/* ---- checks ---------------------------------------------------------------- */

static long long pin0;		/* VmPin before the tests, kB */

/* VmPin and @d's drm-total-host show @pages pinned (@all in the process). */
static bool counts(struct dev *d, unsigned int pages, unsigned int all,
		   const char *what)
{
	long long pin = vmpin_kb() - pin0;
	long long host = hl_fdinfo(d->fd, "drm-total-host") - d->host0;

	if (pin == (long long)all * (PG / 1024) &&
	    host == (long long)pages * PG)
		return true;
	tap_diag("%s: VmPin +%lld kB (want %u), drm-total-host +%lld (want %u)",
		 what, pin, all * (PG / 1024), host, pages * PG);
	return false;
}

struct range {
	uint32_t off, size;
};

/* Overlapping and nested, page aligned and not, in the 8-page buffer. */
static const struct range ranges[4] = {
	{ 0, 4 * PG },			/* pages 0-3 */
	{ 2 * PG + 100, 3 * PG },	/* pages 2-5, overlaps the first */
	{ PG + 17, PG },		/* pages 1-2, nested in the first */
	{ 0, NPG * PG },		/* pages 0-7, holds all of them */
};

static unsigned int first_page(const struct range *r)
{
	return r->off / PG;
}

static unsigned int end_page(const struct range *r)
{
	return (r->off + r->size + PG - 1) / PG;
}

/* Every live map of @buf through @d (@va[i] 0: not mapped). */
static bool check_live(struct dev *d, uint8_t *buf, const uint64_t *va)
{
	for (unsigned int i = 0; i < 4; i++)
		if (va[i] && !check_va(d, va[i], buf + ranges[i].off,
				       ranges[i].size))
			return false;
	return true;
}

/*
 * One round: map the ranges in order @map_ord, unmap them in order
 * @unmap_ord, checking data and counts after each step.
 */
static bool ranges_round(struct dev *d, uint8_t *buf, const int *map_ord,
			 const int *unmap_ord)
{
	uint64_t va[4] = { 0 };
	struct model m;
	bool good = true;
	int i, k;

	model_init(&m);
	for (i = 0; i < 4 && good; i++) {
		k = map_ord[i];
		if (map_host(d->fd, buf + ranges[k].off, ranges[k].size,
			     &va[k])) {
			tap_diag("MAP of range %d: %s", k, strerror(errno));
			good = false;
			break;
		}
		model_map(&m, k, first_page(&ranges[k]), end_page(&ranges[k]));
		good = counts(d, model_pinned(&m), model_pinned(&m),
			      "after a MAP") && check_live(d, buf, va);
	}
	for (i = 0; i < 4; i++) {
		k = unmap_ord[i];
		if (!va[k])
			continue;
		if (unmap_host(d->fd, va[k])) {
			tap_diag("UNMAP of range %d: %s", k, strerror(errno));
			good = false;
		}
		va[k] = 0;
		model_unmap(&m, k);
		if (good)
			good = counts(d, model_pinned(&m), model_pinned(&m),
				      "after an UNMAP") &&
			       check_live(d, buf, va);
	}
	return good;
}

/* The 24 orders of 0..3. */
static void perm(int n, int *out)
{
	int pool[4] = { 0, 1, 2, 3 }, left = 4;

	for (int i = 0; i < 4; i++) {
		int f = 1, j;

		for (j = 1; j < left; j++)
			f *= j;
		j = n / f;
		n %= f;
		out[i] = pool[j];
		memmove(pool + j, pool + j + 1, (left - j - 1) * sizeof(int));
		left--;
	}
}

static void test_ranges(struct dev *d)
{
	static const int ident[4] = { 0, 1, 2, 3 };
	unsigned int bad_map = 0, bad_unmap = 0;
	uint8_t *buf = aligned_alloc(PG, NPG * PG);
	int ord[4];

	if (!buf)
		return;
	for (int n = 0; n < 24; n++) {
		perm(n, ord);
		bad_map += !ranges_round(d, buf, ord, ident);
		bad_unmap += !ranges_round(d, buf, ident, ord);
	}
	ok(!bad_map, "ranges: mapped in each of the 24 orders: data and counts right (%u orders wrong)",
	   bad_map);
	ok(!bad_unmap, "ranges: unmapped in each of the 24 orders: data and counts right (%u orders wrong)",
	   bad_unmap);
	ok(counts(d, 0, 0, "ranges at the end"),
	   "ranges: nothing pinned at the end");
	free(buf);
}

/* Map @page NSAME times through @d, whole and in parts. */
static bool map_same(struct dev *d, uint8_t *page, uint64_t *va,
		     uint32_t *off, uint32_t *len)
{
	for (unsigned int i = 0; i < NSAME; i++) {
		off[i] = i % 4 ? (uint32_t)(rnd() % (PG / 2)) : 0;
		len[i] = i % 4 ? 1 + (uint32_t)(rnd() % (PG - off[i])) : PG;
		if (map_host(d->fd, page + off[i], len[i], &va[i])) {
			tap_diag("MAP %u of the page: %s", i, strerror(errno));
			return false;
		}
	}
	return true;
}

static void test_same(struct dev *d)
{
	static const char *const names[3] = { "forwards", "backwards",
					      "interleaved" };
	uint64_t va[NSAME];
	uint32_t off[NSAME], len[NSAME];
	uint8_t *page = aligned_alloc(PG, PG);

	if (!page)
		return;
	for (unsigned int round = 0; round < 3; round++) {
		bool good = true, data = true;
		unsigned int i, k, live = NSAME;

		if (!map_same(d, page, va, off, len)) {
			ok(0, "same: 16 MAPs of one page");
			break;
		}
		good = counts(d, 1, 1, "16 maps of a page");
		for (i = 0; i < NSAME; i++)
			data &= check_va(d, va[i], page + off[i], len[i]);
		for (i = 0; i < NSAME; i++) {
			k = round == 0 ? i : round == 1 ? NSAME - 1 - i :
			    (i * 5) % NSAME;
			if (unmap_host(d->fd, va[k]))
				good = false;
			va[k] = 0;
			live--;
			good &= counts(d, !!live, !!live, "unmaps of a page");
			for (unsigned int j = 0; j < NSAME; j++)
				if (va[j])
					data &= check_va(d, va[j],
							 page + off[j], len[j]);
		}
		ok(good, "same: one page mapped 16 times counts one page until the last UNMAP (%s)",
		   names[round]);
		ok(data, "same: DMA through each of the 16 mappings reaches the page after every step (%s)",
		   names[round]);
	}
	free(page);
}

/* A range whose two halves are the same page of a memfd. */
static void test_alias(struct dev *d)
{
	int mfd = memfd_create("gaudi_pin_test", 0);
	uint8_t *r, fill = (uint8_t)rnd();
	uint64_t va = 0, seq;
	uint32_t st = ~0U;
	size_t n = 0;

	if (!ok(mfd >= 0 && ftruncate(mfd, PG) == 0, "alias: a memfd page"))
		return;
	r = mmap(NULL, 2 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ok(r != MAP_FAILED &&
		mmap(r, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		     mfd, 0) == r &&
		mmap(r + PG, PG, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_FIXED, mfd, 0) == r + PG,
		"alias: the page at two adjacent addresses"))
		goto out;
	memset(r, 0x11, PG);
	if (!ok(map_host(d->fd, r, 2 * PG, &va) == 0,
		"alias: MAP of both halves"))
		goto out;
	ok(counts(d, 1, 1, "alias"), "alias: pinned once");
	/* Memset the first half through the device: the second shows it. */
	n = pkt_lin_dma(d->cbp, n, 0x0101010101010101ULL * fill, va, PG, true,
			true);
	n = pkt_lin_dma(d->cbp, n, va + PG, GAUDI_SRAM_USER_START, PG, false,
			true);
	n = pkt_lin_dma(d->cbp, n, GAUDI_SRAM_USER_START, d->rva, PG, false,
			true);
	ok(hl_submit1(d->fd, d->cb, n, 0, &seq) == 0 &&
	   wait_cs(d->fd, seq, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED && r[PG + 7] == fill &&
	   d->res[0] == fill && d->res[PG - 1] == fill,
	   "alias: a write through one half is read through the other (0x%02x)",
	   fill);
	ok(unmap_host(d->fd, va) == 0 && counts(d, 0, 0, "alias unmapped"),
	   "alias: UNMAP, nothing pinned");
out:
	if (r != MAP_FAILED)
		munmap(r, 2 * PG);
	if (mfd >= 0)
		close(mfd);
}

static void test_two(struct dev *d0, unsigned int card1)
{
	uint64_t va0[NSAME], va1[NSAME];
	uint32_t off0[NSAME], len0[NSAME], off1[NSAME], len1[NSAME];
	uint8_t *page = aligned_alloc(PG, PG);
	long long pin_before = pin0;
	bool data = true, good;
	struct dev d1;
	unsigned int i;

	if (!page)
		return;
	if (!dev_open(&d1, card1)) {
		tap_skip("no second card", "two: the page from two contexts");
		dev_close(&d1);
		free(page);
		return;
	}
	/* Card 1's result mapping is pinned too. */
	pin0 = vmpin_kb();
	good = map_same(d0, page, va0, off0, len0) &&
	       map_same(&d1, page, va1, off1, len1);
	ok(good && counts(d0, 1, 2, "two, card 0") &&
	   counts(&d1, 1, 2, "two, card 1"),
	   "two: 16 MAPs of a page on each card: one page per context");
	for (i = 0; good && i < NSAME; i++)
		data &= check_va(d0, va0[i], page + off0[i], len0[i]) &&
			check_va(&d1, va1[i], page + off1[i], len1[i]);
	ok(good && data, "two: DMA from both cards through every mapping");
	for (i = 0; good && i < NSAME; i++)
		good = unmap_host(d0->fd, va0[i]) == 0;
	ok(good && counts(d0, 0, 1, "two, card 0 unmapped") &&
	   counts(&d1, 1, 1, "two, card 0 unmapped"),
	   "two: unmapped on card 0, the other context still holds its page");
	data = true;
	for (i = 0; good && i < NSAME; i++)
		data &= check_va(&d1, va1[i], page + off1[i], len1[i]);
	ok(good && data, "two: card 1's mappings still work");
	for (i = 0; good && i < NSAME; i++)
		good = unmap_host(d1.fd, va1[i]) == 0;
	ok(good && counts(&d1, 0, 0, "two, both unmapped"),
	   "two: unmapped on card 1 too, nothing pinned");
	/* A context that closes with its mappings: its pins go with it. */
	good = map_same(&d1, page, va1, off1, len1) &&
	       counts(&d1, 1, 1, "two, before close");
	dev_close(&d1);
	pin0 = pin_before;
	ok(good && vmpin_kb() == pin0,
	   "two: close with 16 mappings of the page unpins it (VmPin +%lld kB)",
	   vmpin_kb() - pin0);
	free(page);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int card = 0;
	struct dev d;
	int opt;

	while ((opt = getopt_long(argc, argv, "c:", opts, NULL)) != -1) {
		if (opt == 'c')
			card = atoi(optarg);
		else
			return 2;
	}
	pin0 = vmpin_kb();
	if (!ok(pin0 >= 0, "VmPin in /proc/self/status (%lld kB)", pin0))
		return tap_done();
	if (!ok(dev_open(&d, card), "open card %u, a CB and a result mapping",
		card)) {
		dev_close(&d);
		return tap_done();
	}
	pin0 = vmpin_kb();
	test_same(&d);
	test_ranges(&d);
	test_alias(&d);
	test_two(&d, card + 1);
	dev_close(&d);
	ok(vmpin_kb() == pin0 - (long long)(RES_SIZE / 1024),
	   "nothing pinned after the last close (VmPin %lld kB)", vmpin_kb());
	return tap_done();
}
