// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_roce_pairs: RDMA WRITE between every ordered pair of the cards of
 * this host (issue 13, Documentation/net/roce.rst), with libgaudi's NIC
 * API only (<gaudi/nic.h>), over the DL1 board's cable that links the two
 * cards (gaudi_nic_dl1_port()).
 *
 *   gaudi_roce_pairs [SEED [WRITES]]
 *
 * One process holds every card ("card M": the card of module M).  For
 * each ordered pair (i, j), i != j, a new QP on card i's port towards j
 * is connected to a new QP on card j's port towards i; card i posts
 * WRITES (default 3) RDMA WRITEs of random size (1 B .. 64 KiB: tiny ones,
 * sizes around multiples of the 16380-byte WQE limit, uniform ones) from
 * random offsets of its source buffer to random offsets of the region
 * card j keeps for sender i, each signalling one W_S SOB of card j
 * (PAIR_SOB + i) when it has landed, and waits for the last one's
 * completion.  Then the region must hold exactly the written bytes and its
 * fill pattern everywhere else (the bytes just outside each write
 * included), and the SOB must have advanced by exactly WRITES while card
 * j's other pair SOBs stayed (read through card j's debugfs register
 * window, as gaudi_roce_test does).  One TAP line per pair.  Then the same
 * on the same QPs with every pair's writes posted before any is waited for
 * (all links busy both ways), checked as a whole.  At the end every region
 * and SOB is checked again (a late duplicate or a stray write shows
 * there), no QP may be in error, and everything is released.
 *
 * The random choices depend on SEED only (default DEFAULT_SEED, printed).
 * Needs gaudi.ko's NIC ioctl, the ports up (gaudi_en's interfaces up) and
 * debugfs.  Prints TAP, ends with "N passed, N failed"; exit status 1 on
 * any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gaudi/gaudi.h>
#include "gaudi1/regs.h"
#include "dbgfs.h"
#include "tap.h"

#define MAX_CARDS	8
#define DEFAULT_SEED	20261202U
#define DEFAULT_WRITES	3
#define MAX_WRITES	8
#define MAX_SIZE	65536U		/* largest write */
#define GUARD		64U		/* checked bytes around each write */
#define SUB		(MAX_SIZE + 2 * GUARD)	/* one write's room */
#define SRC_SIZE	(128U << 10)
#define PAIR_SOB	208U		/* + sender's module: a W_S user SOB */
#define SOB_OFF(n)	(mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * (n))
#define WAIT_MS		20000
#define WQ_ENTRIES	64
#define CQ_ENTRIES	256

struct card {
	struct gaudi_dev *dev;
	int module;
	char dbg[128];			/* debugfs directory */
	uint8_t *src, *dst;		/* dst: one region per sender */
	struct gaudi_mapping *smap, *dmap;
	struct gaudi_nic_port *port[MAX_CARDS];	/* towards card k */
	struct gaudi_qp *tx[MAX_CARDS], *rx[MAX_CARDS];
	uint32_t sob0[MAX_CARDS];	/* pair SOB of sender k at the start */
};

struct write {
	uint32_t size, src, dst;	/* dst: offset in the sender's region */
};

static struct card cards[MAX_CARDS];
static int ncards;
static unsigned int nwrites = DEFAULT_WRITES;
static size_t region;			/* nwrites * SUB */
/* What each region must hold: [dst card][sender], region bytes each. */
static uint8_t *shadow[MAX_CARDS][MAX_CARDS];
/* Writes posted: [dst card][sender]. */
static uint32_t sent[MAX_CARDS][MAX_CARDS];

/* ---- a seeded generator (splitmix64) ------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* A value in [0, n). */
static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/*
 * A write size: a quarter tiny (1..64), a quarter within 3 bytes of a
 * multiple of the WQE limit (where gaudi_qp_write() splits), half
 * uniform in 1..MAX_SIZE.
 */
static uint32_t rnd_size(void)
{
	switch (rnd_below(4)) {
	case 0:
		return 1 + rnd_below(64);
	case 1:
		return GAUDI_NIC_WQE_MAX_BYTES * (1 + rnd_below(3)) - 3 +
		       rnd_below(7);
	default:
		return 1 + rnd_below(MAX_SIZE);
	}
}

static uint8_t fill_byte(int j, int i)
{
	return (uint8_t)(0xA5 ^ (j << 4) ^ i);
}

/* ---- SOBs through debugfs ------------------------------------------------ */

/* SOB @sob of card @c (its 15-bit value), or -1. */
static int sob_rd(const struct card *c, unsigned int sob)
{
	uint32_t v = hl_dbgfs_rd32(c->dbg, SOB_OFF(sob));

	return v == ~0U ? -1 : (int)(v & 0x7FFF);
}

/* ---- setup --------------------------------------------------------------- */

static void *alloc_buf(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, (len + 4095) & ~(size_t)4095))
		return NULL;
	return p;
}

static int card_setup(const struct gaudi_card *gc, struct card *c)
{
	size_t dsize = (size_t)MAX_CARDS * region;
	int ret;

	c->module = gaudi_card_module_id(gc);
	if (c->module < 0 || c->module >= MAX_CARDS)
		return -ENODEV;
	snprintf(c->dbg, sizeof(c->dbg), "/sys/kernel/debug/accel/%s",
		 gaudi_card_pci_bus_id(gc));
	ret = gaudi_open_card(gc, 0, &c->dev);
	if (ret)
		return ret;
	c->src = alloc_buf(SRC_SIZE);
	c->dst = alloc_buf(dsize);
	if (!c->src || !c->dst)
		return -ENOMEM;
	ret = gaudi_map_host(c->dev, c->src, SRC_SIZE, &c->smap);
	if (!ret)
		ret = gaudi_map_host(c->dev, c->dst, dsize, &c->dmap);
	return ret;
}

/* Wait until @port of card @c has its link (at most 10 s). */
static int link_up(struct card *c, int port)
{
	uint32_t up = 0;
	int t, ret;

	for (t = 0; t < 100; t++) {
		ret = gaudi_nic_link(c->dev, NULL, NULL, &up);
		if (ret)
			return ret;
		if (up & (1U << port))
			return 0;
		usleep(100000);
	}
	return -ENOLINK;
}

/* The QP from card i to card j, and j's towards i, connected. */
static int connect_pair(int i, int j)
{
	struct card *a = &cards[i], *b = &cards[j];
	struct gaudi_nic_addr aa, ba;
	int ret;

	ret = gaudi_qp_create(a->port[j], &a->tx[j]);
	if (!ret)
		ret = gaudi_qp_create(b->port[i], &b->rx[i]);
	/* a's writes may land in its part of b's area only. */
	if (!ret)
		ret = gaudi_qp_reg_mr(b->rx[i], gaudi_mapping_va(b->dmap) +
				      (size_t)a->module * region, region, NULL);
	if (!ret)
		ret = gaudi_qp_addr(a->tx[j], &aa);
	if (!ret)
		ret = gaudi_qp_addr(b->rx[i], &ba);
	if (!ret)
		ret = gaudi_qp_connect(a->tx[j], &ba);
	if (!ret)
		ret = gaudi_qp_connect(b->rx[i], &aa);
	return ret;
}

/* ---- checks -------------------------------------------------------------- */

/*
 * Whether card j's region of sender i holds its shadow; else describe the
 * first differing byte in @why.
 */
static bool region_ok(int j, int i, char *why, size_t len)
{
	const uint8_t *got = cards[j].dst + (size_t)cards[i].module * region;
	const uint8_t *want = shadow[j][i];
	size_t k, bad = 0, first = 0;

	for (k = 0; k < region; k++)
		if (got[k] != want[k] && !bad++)
			first = k;
	if (bad)
		snprintf(why, len,
			 "%zu bytes wrong, first at region offset %zu: 0x%02x, want 0x%02x",
			 bad, first, got[first], want[first]);
	return !bad;
}

/*
 * Card j's pair SOBs against their start values plus @want[k] (sender k);
 * @why describes the first difference.
 */
static bool sobs_ok(int j, const uint32_t *want, char *why, size_t len)
{
	int k;

	for (k = 0; k < ncards; k++) {
		unsigned int sob = PAIR_SOB + (unsigned int)cards[k].module;
		int v = sob_rd(&cards[j], sob);
		uint32_t d = ((uint32_t)v - cards[j].sob0[k]) & 0x7FFF;

		if (v < 0 || d != want[k]) {
			snprintf(why, len,
				 "card %d SOB %u (sender card %d) advanced %u, want %u (%d)",
				 cards[j].module, sob, cards[k].module, d,
				 want[k], v);
			return false;
		}
	}
	return true;
}

static int by_module(const void *x, const void *y)
{
	return ((const struct card *)x)->module -
	       ((const struct card *)y)->module;
}

/* ---- writes of a pair ---------------------------------------------------- */

/*
 * Random writes from card i to card j, into the shadow of j's region of
 * sender i; their description ("size@src->dst ...") in @desc.
 */
static void plan(int i, int j, struct write *w, char *desc, size_t len,
		 uint64_t *bytes)
{
	size_t dl = 0;
	unsigned int k;

	desc[0] = '\0';
	for (k = 0; k < nwrites; k++) {
		w[k].size = rnd_size();
		w[k].src = rnd_below(SRC_SIZE - w[k].size + 1);
		/* Write k's room in the region, the guards around it. */
		w[k].dst = k * SUB + GUARD +
			   rnd_below(MAX_SIZE - w[k].size + 1);
		memcpy(shadow[j][i] + w[k].dst, cards[i].src + w[k].src,
		       w[k].size);
		if (dl < len)
			dl += (size_t)snprintf(desc + dl, len - dl,
					       "%s%u@%u->%u", k ? " " : "",
					       w[k].size, w[k].src, w[k].dst);
		*bytes += w[k].size;
	}
}

/* Post them, each signalling card j's SOB of sender i; *wqe: the last. */
static int post(int i, int j, const struct write *w, int *wqe, char *why,
		size_t len)
{
	struct card *a = &cards[i], *b = &cards[j];
	uint64_t dva = gaudi_mapping_va(b->dmap) + (size_t)a->module * region;
	unsigned int k, sob = PAIR_SOB + (unsigned int)a->module;

	for (k = 0; k < nwrites; k++) {
		*wqe = gaudi_qp_write(a->tx[j], gaudi_mapping_va(a->smap) +
				      w[k].src, dva + w[k].dst, w[k].size,
				      SOB_OFF(sob), gaudi_sob_value(1, true));
		if (*wqe < 0) {
			snprintf(why, len, "write %u: %s", k,
				 gaudi_strerror(*wqe));
			return *wqe;
		}
		sent[j][i]++;
	}
	return 0;
}

/*
 * Let card j's SOB of sender i reach its writes (the SOB write follows
 * the data): at most 2 s.
 */
static void sob_settle(int j, int i)
{
	int t, v;

	for (t = 0; t < 200; t++) {
		v = sob_rd(&cards[j], PAIR_SOB + (unsigned int)cards[i].module);
		if (v < 0 || (((uint32_t)v - cards[j].sob0[i]) & 0x7FFF) >=
			     sent[j][i])
			return;
		usleep(10000);
	}
}

static double since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---- one ordered pair at a time ------------------------------------------ */

static int pair(int i, int j, double *secs, uint64_t *bytes)
{
	struct card *a = &cards[i], *b = &cards[j];
	struct write w[MAX_WRITES];
	char why[160] = "", desc[200] = "";
	struct timespec t0;
	int ret, wqe = -1;

	ret = connect_pair(i, j);
	if (ret) {
		snprintf(why, sizeof(why), "connect: %s", gaudi_strerror(ret));
		goto out;
	}
	plan(i, j, w, desc, sizeof(desc), bytes);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = post(i, j, w, &wqe, why, sizeof(why));
	if (ret)
		goto out;
	ret = gaudi_qp_wait(a->tx[j], wqe, WAIT_MS);
	*secs += since(&t0);
	if (ret) {
		snprintf(why, sizeof(why), "wait: %s", gaudi_strerror(ret));
		goto out;
	}
	if (!region_ok(j, i, why, sizeof(why))) {
		ret = -EBADMSG;
		goto out;
	}
	/* Card j's SOB of sender i, and of the others: what they sent. */
	sob_settle(j, i);
	if (!sobs_ok(j, sent[j], why, sizeof(why)))
		ret = -EBADMSG;
out:
	if (!ret)
		snprintf(why, sizeof(why), "bytes exact, SOB %u +%u",
			 PAIR_SOB + a->module, nwrites);
	ok(!ret,
	   "card %d -> card %d (port %d -> %d, QP %u -> %u), size@src->dst [%s]: %s",
	   a->module, b->module, gaudi_nic_dl1_port(a->module, b->module),
	   gaudi_nic_dl1_port(b->module, a->module),
	   gaudi_qp_number(a->tx[j]), gaudi_qp_number(b->rx[i]), desc, why);
	return ret;
}

/* ---- every pair at once -------------------------------------------------- */

/*
 * The same again on the connected QPs, but every pair's writes posted
 * before any is waited for: all links busy in both directions, each port's
 * completion queue shared by its QP to the peer and its QP from it.
 */
static void all_at_once(uint64_t *bytes)
{
	static struct write w[MAX_CARDS][MAX_CARDS][MAX_WRITES];
	static int wqe[MAX_CARDS][MAX_CARDS];
	char why[160] = "", desc[200];
	int i, j, ret = 0, bad = 0, npairs = 0;
	uint64_t before = *bytes;
	struct timespec t0;
	double secs;

	for (j = 0; j < ncards; j++)
		for (i = 0; i < ncards; i++) {
			uint8_t f = (uint8_t)~fill_byte(j, i);

			memset(shadow[j][i], f, region);
			memset(cards[j].dst + (size_t)cards[i].module * region,
			       f, region);
		}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < ncards; i++)
		for (j = 0; j < ncards; j++) {
			if (i == j || !cards[i].tx[j])
				continue;
			npairs++;
			plan(i, j, w[i][j], desc, sizeof(desc), bytes);
			ret = post(i, j, w[i][j], &wqe[i][j], why, sizeof(why));
			if (ret && !bad++)
				tap_diag("card %d -> card %d: %s",
					 cards[i].module, cards[j].module, why);
		}
	ok(!bad && npairs == ncards * (ncards - 1),
	   "all at once: %u writes posted on each of %d pairs (%llu bytes)",
	   nwrites, npairs, (unsigned long long)(*bytes - before));
	bad = 0;
	for (i = 0; i < ncards; i++)
		for (j = 0; j < ncards; j++) {
			if (i == j || !cards[i].tx[j])
				continue;
			ret = gaudi_qp_wait(cards[i].tx[j], wqe[i][j], WAIT_MS);
			if (ret && !bad++)
				tap_diag("card %d -> card %d: wait: %s",
					 cards[i].module, cards[j].module,
					 gaudi_strerror(ret));
		}
	secs = since(&t0);
	ok(!bad, "all at once: every pair's writes completed, in %.2f s",
	   secs);
	bad = 0;
	for (j = 0; j < ncards; j++)
		for (i = 0; i < ncards; i++)
			if (!region_ok(j, i, why, sizeof(why)) && !bad++)
				tap_diag("card %d -> card %d: %s",
					 cards[i].module, cards[j].module, why);
	ok(!bad, "all at once: every destination exact, guards too (%d wrong)",
	   bad);
	bad = 0;
	for (j = 0; j < ncards; j++) {
		for (i = 0; i < ncards; i++)
			sob_settle(j, i);
		if (!sobs_ok(j, sent[j], why, sizeof(why)) && !bad++)
			tap_diag("%s", why);
	}
	ok(!bad, "all at once: every pair SOB advanced by exactly %u more",
	   nwrites);
}

int main(int argc, char **argv)
{
	uint32_t seed = DEFAULT_SEED;
	struct gaudi_card_list *list = NULL;
	struct timespec t0, t1;
	uint64_t bytes = 0;
	double wsecs = 0;
	int i, j, ret, bad;
	char why[160];

	if (argc > 1)
		seed = (uint32_t)strtoul(argv[1], NULL, 0);
	if (argc > 2)
		nwrites = (unsigned int)atoi(argv[2]);
	if (argc > 3 || !nwrites || nwrites > MAX_WRITES) {
		fprintf(stderr, "usage: gaudi_roce_pairs [SEED [WRITES (1..%d)]]\n",
			MAX_WRITES);
		return 2;
	}
	rng_state = seed;
	region = (size_t)nwrites * SUB;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tap_diag("seed %u, %u writes a pair (rerun: gaudi_roce_pairs %u %u)",
		 seed, nwrites, seed, nwrites);

	ret = gaudi_cards_scan(&list);
	ncards = ret < 0 ? 0 : ret;
	if (!ok(ncards >= 2 && ncards <= MAX_CARDS, "%d cards (2..%d)",
		ncards, MAX_CARDS))
		return tap_done();
	ret = 0;
	for (i = 0; i < ncards && !ret; i++) {
		ret = card_setup(gaudi_cards_get(list, (unsigned int)i),
				 &cards[i]);
		for (j = 0; j < i && !ret; j++)
			if (cards[j].module == cards[i].module)
				ret = -EEXIST;
	}
	if (!ok(!ret, "every card held, its buffers mapped, distinct modules%s%s",
		ret ? ": " : "", ret ? gaudi_strerror(ret) : ""))
		return tap_done();
	/* "card M" below is the card of module M (gaudi-vm's card M). */
	qsort(cards, (size_t)ncards, sizeof(cards[0]), by_module);
	for (i = 0; i < ncards; i++)
		for (j = 0; j < (int)SRC_SIZE; j++)
			cards[i].src[j] = (uint8_t)rnd();

	/* Ports: card i's towards each card j, two QPs (to j, from j). */
	ret = 0;
	bad = 0;
	for (i = 0; i < ncards && !ret; i++)
		for (j = 0; j < ncards && !ret; j++) {
			int p = gaudi_nic_dl1_port(cards[i].module,
						   cards[j].module);

			if (i == j)
				continue;
			ret = gaudi_nic_port_open(cards[i].dev,
						  (unsigned int)p, 2,
						  WQ_ENTRIES, CQ_ENTRIES,
						  &cards[i].port[j]);
			if (!ret)
				ret = link_up(&cards[i], p);
			if (ret)
				bad = i * MAX_CARDS + j;
		}
	if (!ok(!ret, "%d ports open with their links up%s%s",
		ncards * (ncards - 1), ret ? ": " : "",
		ret ? gaudi_strerror(ret) : "")) {
		tap_diag("card %d towards card %d",
			 cards[bad / MAX_CARDS].module,
			 cards[bad % MAX_CARDS].module);
		return tap_done();
	}

	/* Every region its fill pattern; the pair SOBs' start values. */
	ret = 0;
	for (j = 0; j < ncards; j++)
		for (i = 0; i < ncards; i++) {
			int v = sob_rd(&cards[j], PAIR_SOB +
				       (unsigned int)cards[i].module);

			shadow[j][i] = malloc(region);
			if (!shadow[j][i])
				return 1;
			memset(shadow[j][i], fill_byte(j, i), region);
			memset(cards[j].dst + (size_t)cards[i].module * region,
			       fill_byte(j, i), region);
			if (v < 0)
				ret = -EIO;
			cards[j].sob0[i] = (uint32_t)v & 0x7FFF;
		}
	if (!ok(!ret, "the pair SOBs %u..%u read through debugfs",
		PAIR_SOB, PAIR_SOB + MAX_CARDS - 1))
		return tap_done();

	bad = 0;
	for (i = 0; i < ncards; i++)
		for (j = 0; j < ncards; j++)
			if (i != j)
				bad += !!pair(i, j, &wsecs, &bytes);

	all_at_once(&bytes);

	/* Again, once everything is quiet: late or stray writes show. */
	usleep(200000);
	ret = 0;
	why[0] = '\0';
	for (j = 0; j < ncards && !ret; j++)
		for (i = 0; i < ncards && !ret; i++)
			if (!region_ok(j, i, why, sizeof(why))) {
				tap_diag("card %d's region of card %d",
					 cards[j].module, cards[i].module);
				ret = -EBADMSG;
			}
	ok(!ret, "afterwards every region of every card still exact%s%s",
	   ret ? ": " : "", why);
	ret = 0;
	for (j = 0; j < ncards && !ret; j++) {
		if (!sobs_ok(j, sent[j], why, sizeof(why)))
			ret = -EBADMSG;
	}
	ok(!ret, "afterwards every pair SOB at +%u, a card's own at +0%s%s",
	   2 * nwrites, ret ? ": " : "", ret ? why : "");
	ret = 0;
	for (i = 0; i < ncards; i++)
		for (j = 0; j < ncards; j++)
			if (i != j && (gaudi_qp_error(cards[i].tx[j]) ||
				       gaudi_qp_error(cards[i].rx[j])))
				ret++;
	ok(!ret, "no QP in error (%d)", ret);

	ret = 0;
	for (i = 0; i < ncards; i++) {
		struct card *c = &cards[i];

		for (j = 0; j < ncards; j++) {
			ret |= gaudi_qp_destroy(c->tx[j]);
			ret |= gaudi_qp_destroy(c->rx[j]);
		}
		for (j = 0; j < ncards; j++)
			ret |= gaudi_nic_port_close(c->port[j]);
		ret |= gaudi_unmap(c->smap);
		ret |= gaudi_unmap(c->dmap);
		gaudi_close(c->dev);
		free(c->src);
		free(c->dst);
		for (j = 0; j < ncards; j++)
			free(shadow[i][j]);
	}
	gaudi_cards_free(list);
	ok(!ret, "QPs destroyed, ports closed, cards released");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ok(!bad, "one at a time: %d ordered pairs of %d cards, %d failed",
	   ncards * (ncards - 1), ncards, bad);
	tap_diag("%llu bytes written in %.2f s of writing, %.2f s in all (seed %u)",
		 (unsigned long long)bytes, wsecs,
		 (double)(t1.tv_sec - t0.tv_sec) +
		 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, seed);
	return tap_done();
}
