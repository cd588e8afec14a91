// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_bench - libgaudi micro-benchmarks, run in the guest on whichever
 * driver is loaded (upstream's habanalabs peer or gaudi.ko).  The same
 * binary runs on both; tests/bench/run-bench.sh alternates the drivers and
 * computes medians and ratios.
 *
 *   gaudi_bench run [--quick]
 *	null ioctl, CS round trip, pipelined CS throughput, LIN_DMA
 *	host->HBM and HBM->host bandwidth next to memcpy, MEMORY MAP+UNMAP
 *	throughput, on the first card
 *   gaudi_bench cs
 *	only the first three (null ioctl, round trip, pipelined)
 *   gaudi_bench pair BLOCKS
 *	both drivers at once, on the first card of each (the guest binds
 *	half the cards to each): BLOCKS blocks of null ioctls, round trips
 *	and pipelined batches, the drivers alternating block by block
 *	(the first one flips every block), so that both see the same load
 *	of the machine; each block prints its figures as pair_<key>
 *   gaudi_bench loop null|rtt|pipe N
 *	N null ioctls, N round trips or one batch of N CSs in flight, on
 *	the first card, without timing each: the load a profile is taken
 *	of (tests/bench/profile.sh)
 *   gaudi_bench probe NODES 'COMMAND'
 *	run COMMAND (insmod ...), then wait until NODES nodes exist in
 *	/dev/accel and every control node answers DEVICE_STATUS
 *	operational; prints the time from before COMMAND to then
 *
 * Output: one line per figure, "BENCH <key> <value> <unit>", plus "#"
 * comments.  Times come from CLOCK_MONOTONIC; every figure is the median
 * of its samples, after a warm-up.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <gaudi/gaudi.h>

#define WAIT_US		(120ULL * 1000 * 1000)
#define KIB		1024ULL
#define MIB		(1024ULL * KIB)
#define GIB		(1024ULL * MIB)
#define MAX_SAMPLES	1024
#define DMA_MAX		(64 * MIB)
#define HBM_OFF		(64 * MIB)
#define PIPE_CS		1000

static bool quick;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void report(const char *key, double value, const char *unit)
{
	printf("BENCH %s %.6g %s\n", key, value, unit);
	fflush(stdout);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "gaudi_bench: %s: %s\n", what, gaudi_strerror(err));
	exit(1);
}

/*
 * Samples of fn() until both min_n samples and min_s seconds are reached
 * (or max_n samples); the first `warm` calls are not counted.
 */
struct sampler {
	unsigned int warm, min_n, max_n;
	double min_s;
};

typedef int (*bench_fn)(void *ctx, double *seconds);

static double sample(const struct sampler *s, bench_fn fn, void *ctx,
		     unsigned int *count)
{
	static double v[MAX_SAMPLES];
	unsigned int n = 0, i, max = s->max_n;
	double t0, dt;
	int ret;

	if (quick && max > 3)
		max = 3;
	if (max > MAX_SAMPLES)
		max = MAX_SAMPLES;
	for (i = 0; i < s->warm; i++) {
		ret = fn(ctx, &dt);
		if (ret)
			die("warm-up", ret);
	}
	t0 = now_s();
	while (n < max && (n < s->min_n || now_s() - t0 < s->min_s)) {
		ret = fn(ctx, &v[n]);
		if (ret)
			die("sample", ret);
		n++;
	}
	if (count)
		*count = n;
	return median(v, n);
}

/* ---- the device and its buffers ----------------------------------------- */

struct bench {
	struct gaudi_dev *dev;
	struct gaudi_cb *nop_cb;	/* one NOP: the tiny CB */
	struct gaudi_cb *dma_cb;	/* one LIN_DMA, rewritten per size */
	uint8_t *host;			/* DMA_MAX bytes, mapped */
	uint8_t *host2;			/* memcpy destination */
	struct gaudi_mapping *map;
	uint64_t hbm;
	/* per measurement */
	uint64_t size;
	bool to_host;
	uint8_t *map_buf;
	double pipe_wait;		/* last WAIT_CS of a batch */
};

static int time_call(int (*call)(struct bench *), struct bench *b,
		     double *seconds)
{
	double t0 = now_s();
	int ret = call(b);

	*seconds = now_s() - t0;
	return ret;
}

/* ---- null ioctl --------------------------------------------------------- */

static int do_null(struct bench *b)
{
	uint32_t st;

	return gaudi_info_device_status(b->dev, &st);
}

static int one_null(void *ctx, double *s)
{
	return time_call(do_null, ctx, s);
}

/* ---- CS round trip and pipelined throughput ----------------------------- */

static int submit_retry(struct gaudi_cb *cb, uint64_t *seq)
{
	int ret;

	for (;;) {
		ret = gaudi_submit_cb(cb, GAUDI_QUEUE_DMA_0_0, seq);
		if (ret != -EAGAIN && ret != -EBUSY)
			return ret;
		usleep(100);	/* queue full: back-pressure */
	}
}

static int do_rtt(struct bench *b)
{
	uint64_t seq;
	int ret = submit_retry(b->nop_cb, &seq);

	return ret ? ret : gaudi_wait(b->dev, seq, WAIT_US, NULL);
}

static int one_rtt(void *ctx, double *s)
{
	return time_call(do_rtt, ctx, s);
}

/* Per-submit times of the last pipelined batch (context for the rows). */
static double pipe_submit[PIPE_CS];

static int do_pipe(struct bench *b)
{
	uint64_t seq = 0;
	double t;
	int i, ret;

	for (i = 0; i < PIPE_CS; i++) {
		t = now_s();
		ret = submit_retry(b->nop_cb, &seq);
		if (ret)
			return ret;
		pipe_submit[i] = now_s() - t;
	}
	/* One queue: CSs complete in order, the last one means all. */
	t = now_s();
	ret = gaudi_wait(b->dev, seq, WAIT_US, NULL);
	b->pipe_wait = now_s() - t;
	return ret;
}

static int one_pipe(void *ctx, double *s)
{
	return time_call(do_pipe, ctx, s);
}

/* ---- LIN_DMA against memcpy --------------------------------------------- */

static int do_dma(struct bench *b)
{
	uint64_t va = gaudi_mapping_va(b->map), seq;
	struct gaudi_cmdbuf *cb = gaudi_cb_cmdbuf(b->dma_cb);
	int ret;

	gaudi_cmdbuf_reset(cb);
	if (b->to_host)
		ret = gaudi_pkt_lin_dma(cb, va, b->hbm, (uint32_t)b->size, 0, 0);
	else
		ret = gaudi_pkt_lin_dma(cb, b->hbm, va, (uint32_t)b->size, 0, 0);
	if (!ret)
		ret = submit_retry(b->dma_cb, &seq);
	return ret ? ret : gaudi_wait(b->dev, seq, WAIT_US, NULL);
}

static int one_dma(void *ctx, double *s)
{
	return time_call(do_dma, ctx, s);
}

static int do_memcpy(struct bench *b)
{
	memcpy(b->host2, b->host, b->size);
	/* Keep the copy from being optimized away. */
	__asm__ volatile("" : : "r"(b->host2) : "memory");
	return 0;
}

static int one_memcpy(void *ctx, double *s)
{
	return time_call(do_memcpy, ctx, s);
}

/* ---- MEMORY MAP + UNMAP ------------------------------------------------- */

static int do_map(struct bench *b)
{
	struct gaudi_mapping *m;
	int ret = gaudi_map_host(b->dev, b->map_buf, b->size, &m);

	return ret ? ret : gaudi_unmap(m);
}

static int one_map(void *ctx, double *s)
{
	return time_call(do_map, ctx, s);
}

/* ---- the run ------------------------------------------------------------ */

static const char *size_name(uint64_t size, char *buf, size_t len)
{
	if (size >= GIB)
		snprintf(buf, len, "%lluG", (unsigned long long)(size / GIB));
	else if (size >= MIB)
		snprintf(buf, len, "%lluM", (unsigned long long)(size / MIB));
	else
		snprintf(buf, len, "%lluK", (unsigned long long)(size / KIB));
	return buf;
}

static int open_first(struct gaudi_dev **dev)
{
	struct gaudi_card_list *l;
	int n, ret;

	n = gaudi_cards_scan(&l);
	if (n <= 0) {
		gaudi_cards_free(l);
		return n ? n : -ENODEV;
	}
	ret = gaudi_open_card(gaudi_cards_get(l, 0), 0, dev);
	gaudi_cards_free(l);
	return ret;
}

static void *alloc_touched(uint64_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5A, size);
	return p;
}

/*
 * A buffer for the MAP series, backed by 4 KiB pages (@huge false) or, as
 * far as the kernel manages, by 2 MiB transparent huge pages (2 MiB
 * aligned, MADV_HUGEPAGE).  How a buffer is backed decides most of a
 * MAP's cost (pinning and page-table entries per page), whichever driver
 * runs: left to chance, it made the large sizes differ between rounds.
 * *@base and *@len are what to munmap().
 */
static uint8_t *alloc_map_buf(uint64_t size, bool huge, void **base,
			      uint64_t *len)
{
	uint8_t *p;

	*len = size + 2 * MIB;
	*base = mmap(NULL, *len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*base == MAP_FAILED)
		return NULL;
	p = (uint8_t *)(((uintptr_t)*base + 2 * MIB - 1) &
			~(uintptr_t)(2 * MIB - 1));
	if (madvise(p, size, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
		return NULL;
	memset(p, 0x5A, size);
	return p;
}

/* Percentage of [p, p + size) in huge pages, from /proc/self/smaps. */
static double huge_pct(const uint8_t *p, uint64_t size)
{
	unsigned long start, end, kb;
	double huge = 0;
	bool in = false;
	char line[256];
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			in = start < (uintptr_t)p + size && end > (uintptr_t)p;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			huge += kb * 1024.0;
	}
	fclose(f);
	return 100.0 * huge / size;
}

static void map_series(struct bench *b, uint64_t map_max, bool huge)
{
	static const uint64_t map_sizes[] = {
		4 * KIB, 64 * KIB, 1 * MIB, 16 * MIB, 256 * MIB, 1 * GIB,
	};
	const char *tag = huge ? "maphuge" : "map";
	char key[64], sz[16];
	unsigned int i, n;
	uint64_t len;
	void *base;
	double t;

	b->map_buf = alloc_map_buf(map_max, huge, &base, &len);
	if (!b->map_buf)
		die("map buffer", -ENOMEM);
	snprintf(key, sizeof(key), "%s_pct", tag);
	report(key, huge_pct(b->map_buf, map_max), "%");
	for (i = 0; i < sizeof(map_sizes) / sizeof(map_sizes[0]); i++) {
		const struct sampler s = {
			map_sizes[i] >= 256 * MIB ? 1 : 3,
			map_sizes[i] >= 256 * MIB ? 5 : 10,
			map_sizes[i] >= 256 * MIB ? 5 : 200, 0.3 };

		/* Huge pages change nothing below 2 MiB. */
		if (huge && map_sizes[i] < 16 * MIB)
			continue;
		if (map_sizes[i] > map_max) {
			printf("# %s %llu bytes skipped (cap %llu)\n", tag,
			       (unsigned long long)map_sizes[i],
			       (unsigned long long)map_max);
			continue;
		}
		b->size = map_sizes[i];
		t = sample(&s, one_map, b, &n);
		snprintf(key, sizeof(key), "%s_%s", tag,
			 size_name(b->size, sz, sizeof(sz)));
		report(key, b->size / t / MIB, "MiB/s");
		snprintf(key, sizeof(key), "%s_us_%s", tag, sz);
		report(key, t * 1e6, "us");
	}
	munmap(base, len);
}

static int run(uint64_t map_max, bool cs_only)
{
	static const uint64_t dma_sizes[] = {
		4 * KIB, 64 * KIB, 1 * MIB, 16 * MIB, 64 * MIB,
	};
	const struct sampler s_null = { 50, 200, 1000, 0.2 };
	const struct sampler s_rtt = { 20, 100, 500, 0.5 };
	const struct sampler s_pipe = { 1, 5, 7, 0 };
	struct hl_info_hw_ip_info hw;
	struct bench b;
	unsigned int i, n;
	char key[64], sz[16];
	double t;
	int ret;

	memset(&b, 0, sizeof(b));
	ret = open_first(&b.dev);
	if (ret)
		die("open the first card", ret);
	printf("# driver %s, card %s, libgaudi %s%s\n",
	       gaudi_driver_name(b.dev), gaudi_pci_bus_id(b.dev),
	       gaudi_version(), quick ? ", quick" : "");
	ret = gaudi_info_hw_ip(b.dev, &hw);
	if (ret)
		die("hw_ip", ret);
	b.hbm = hw.dram_base_address + HBM_OFF;

	t = sample(&s_null, one_null, &b, &n);
	report("null_ioctl", t * 1e6, "us");

	ret = gaudi_cb_create(b.dev, 4096, &b.nop_cb);
	if (ret)
		die("CB create", ret);
	ret = gaudi_pkt_nop(gaudi_cb_cmdbuf(b.nop_cb), 0);
	if (ret)
		die("NOP", ret);
	t = sample(&s_rtt, one_rtt, &b, &n);
	report("cs_rtt", t * 1e6, "us");
	t = sample(&s_pipe, one_pipe, &b, &n);
	report("cs_pipe", PIPE_CS / t, "CS/s");
	report("cs_pipe_wait", b.pipe_wait * 1e6, "us");
	report("cs_pipe_submit", median(pipe_submit, PIPE_CS) * 1e6, "us");
	if (cs_only)
		goto out;

	/* DMA: host buffer mapped once, HBM scratch at HBM_OFF. */
	b.host = alloc_touched(DMA_MAX);
	b.host2 = alloc_touched(DMA_MAX);
	if (!b.host || !b.host2)
		die("host buffers", -ENOMEM);
	ret = gaudi_map_host(b.dev, b.host, DMA_MAX, &b.map);
	if (ret)
		die("map the DMA buffer", ret);
	ret = gaudi_cb_create(b.dev, 4096, &b.dma_cb);
	if (ret)
		die("CB create", ret);
	for (i = 0; i < sizeof(dma_sizes) / sizeof(dma_sizes[0]); i++) {
		const struct sampler s = {
			2, dma_sizes[i] >= 16 * MIB ? 3 : 10,
			dma_sizes[i] >= 16 * MIB ? 5 : 200, 0.3 };

		b.size = dma_sizes[i];
		size_name(b.size, sz, sizeof(sz));
		t = sample(&s, one_memcpy, &b, &n);
		snprintf(key, sizeof(key), "memcpy_%s", sz);
		report(key, b.size / t / MIB, "MiB/s");
		b.to_host = false;
		t = sample(&s, one_dma, &b, &n);
		snprintf(key, sizeof(key), "dma_h2d_%s", sz);
		report(key, b.size / t / MIB, "MiB/s");
		b.to_host = true;
		t = sample(&s, one_dma, &b, &n);
		snprintf(key, sizeof(key), "dma_d2h_%s", sz);
		report(key, b.size / t / MIB, "MiB/s");
	}
	gaudi_cb_destroy(b.dma_cb);
	gaudi_unmap(b.map);
	munmap(b.host2, DMA_MAX);
	munmap(b.host, DMA_MAX);

	/* MAP + UNMAP of pre-faulted buffers: 4 KiB pages, then huge pages. */
	map_series(&b, map_max, false);
	map_series(&b, map_max, true);
out:
	gaudi_cb_destroy(b.nop_cb);
	gaudi_close(b.dev);
	return 0;
}

/* ---- both drivers, interleaved ----------------------------------------- */

struct pair_side {
	const char *tag;	/* "ours" or "upstream", as run-bench.sh's */
	struct bench b;
};

/* Open the first card that @driver serves, with a NOP CB. */
static void pair_open(struct pair_side *p, const char *driver)
{
	struct gaudi_card_list *l;
	unsigned int i;
	int n, ret = -ENODEV;

	memset(&p->b, 0, sizeof(p->b));
	n = gaudi_cards_scan(&l);
	for (i = 0; n > 0 && i < gaudi_cards_count(l); i++) {
		if (strcmp(gaudi_card_driver(gaudi_cards_get(l, i)), driver))
			continue;
		ret = gaudi_open_card(gaudi_cards_get(l, i), 0, &p->b.dev);
		break;
	}
	gaudi_cards_free(l);
	if (ret) {
		fprintf(stderr, "gaudi_bench: no card of driver %s\n", driver);
		die("pair: open", ret);
	}
	ret = gaudi_cb_create(p->b.dev, 4096, &p->b.nop_cb);
	if (!ret)
		ret = gaudi_pkt_nop(gaudi_cb_cmdbuf(p->b.nop_cb), 0);
	if (ret)
		die("pair: NOP CB", ret);
	printf("# pair: %s is driver %s on %s\n", p->tag,
	       gaudi_driver_name(p->b.dev), gaudi_pci_bus_id(p->b.dev));
}

/* One block of one driver: medians of short series (pipelined: 3 batches). */
static void pair_block(struct pair_side *p)
{
	const struct sampler s_null = { 20, 100, 100, 0 };
	const struct sampler s_rtt = { 5, 30, 30, 0 };
	const struct sampler s_pipe = { 0, 3, 3, 0 };
	double t;

	printf("@driver %s\n", p->tag);
	t = sample(&s_null, one_null, &p->b, NULL);
	report("pair_null_ioctl", t * 1e6, "us");
	t = sample(&s_rtt, one_rtt, &p->b, NULL);
	report("pair_cs_rtt", t * 1e6, "us");
	t = sample(&s_pipe, one_pipe, &p->b, NULL);
	report("pair_cs_pipe", PIPE_CS / t, "CS/s");
}

static int pair(unsigned int blocks)
{
	struct pair_side side[2] = { { .tag = "upstream" }, { .tag = "ours" } };
	unsigned int i;

	pair_open(&side[0], "habanalabs");
	pair_open(&side[1], "gaudi");
	/* Warm both up: the first CSs of a file allocate its rings. */
	for (i = 0; i < 2; i++)
		if (do_pipe(&side[i].b))
			die("pair: warm-up", -EIO);
	for (i = 0; i < blocks; i++) {
		printf("@block %u\n", i + 1);
		pair_block(&side[i & 1]);
		pair_block(&side[!(i & 1)]);
	}
	for (i = 0; i < 2; i++) {
		gaudi_cb_destroy(side[i].b.nop_cb);
		gaudi_close(side[i].b.dev);
	}
	return 0;
}

/* ---- a load to profile ------------------------------------------------- */

static int loop(const char *kind, unsigned int n)
{
	struct bench b;
	uint64_t seq = 0;
	unsigned int i;
	double t0, dt;
	int ret = 0;

	memset(&b, 0, sizeof(b));
	ret = open_first(&b.dev);
	if (ret)
		die("open the first card", ret);
	ret = gaudi_cb_create(b.dev, 4096, &b.nop_cb);
	if (!ret)
		ret = gaudi_pkt_nop(gaudi_cb_cmdbuf(b.nop_cb), 0);
	if (ret)
		die("NOP CB", ret);
	t0 = now_s();
	for (i = 0; i < n && !ret; i++) {
		if (!strcmp(kind, "null"))
			ret = do_null(&b);
		else if (!strcmp(kind, "rtt"))
			ret = do_rtt(&b);
		else if (!strcmp(kind, "pipe"))
			ret = submit_retry(b.nop_cb, &seq);
		else
			ret = -EINVAL;
	}
	if (!ret && !strcmp(kind, "pipe"))
		ret = gaudi_wait(b.dev, seq, WAIT_US, NULL);
	dt = now_s() - t0;
	if (ret)
		die(kind, ret);
	printf("# loop %s: %u in %.3f s, %.3f us each\n", kind, n, dt,
	       n ? dt * 1e6 / n : 0);
	gaudi_cb_destroy(b.nop_cb);
	gaudi_close(b.dev);
	return 0;
}

/* ---- probe time ---------------------------------------------------------- */

static unsigned int count_nodes(void)
{
	DIR *d = opendir("/dev/accel");
	struct dirent *e;
	unsigned int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "accel", 5);
	closedir(d);
	return n;
}

/* Every listed card's control node answers DEVICE_STATUS operational. */
static bool all_operational(unsigned int want_cards)
{
	struct gaudi_card_list *l;
	unsigned int i, ok = 0;
	int n = gaudi_cards_scan(&l);

	for (i = 0; n > 0 && i < gaudi_cards_count(l); i++) {
		struct gaudi_dev *dev;
		uint32_t st;

		if (gaudi_open_card(gaudi_cards_get(l, i), GAUDI_OPEN_CONTROL,
				    &dev))
			continue;
		if (!gaudi_info_device_status(dev, &st) &&
		    st == HL_DEVICE_STATUS_OPERATIONAL)
			ok++;
		gaudi_close(dev);
	}
	gaudi_cards_free(l);
	return ok >= want_cards;
}

static int probe(unsigned int nodes, const char *cmd)
{
	double t0, t_cmd, t_nodes, deadline;
	int st;

	t0 = now_s();
	st = system(cmd);
	t_cmd = now_s();
	if (st) {
		fprintf(stderr, "gaudi_bench: '%s' failed (%d)\n", cmd, st);
		return 1;
	}
	deadline = t0 + 300;
	while (count_nodes() < nodes) {
		if (now_s() > deadline) {
			fprintf(stderr, "gaudi_bench: %u nodes after 300 s\n",
				count_nodes());
			return 1;
		}
		usleep(1000);
	}
	t_nodes = now_s();
	while (!all_operational(nodes / 2)) {
		if (now_s() > deadline) {
			fprintf(stderr, "gaudi_bench: cards not operational\n");
			return 1;
		}
		usleep(1000);
	}
	printf("# probe: command %.3f s, nodes %.3f s, operational %.3f s\n",
	       t_cmd - t0, t_nodes - t0, now_s() - t0);
	report("probe", (now_s() - t0) * 1e3, "ms");
	return 0;
}

/* Unload: COMMAND (rmmod) until it returns and every node is gone. */
static int unload(const char *cmd)
{
	double t0 = now_s();
	int st = system(cmd);

	if (st) {
		fprintf(stderr, "gaudi_bench: '%s' failed (%d)\n", cmd, st);
		return 1;
	}
	while (count_nodes() > 0) {
		if (now_s() > t0 + 300) {
			fprintf(stderr, "gaudi_bench: nodes left after 300 s\n");
			return 1;
		}
		usleep(1000);
	}
	report("unload", (now_s() - t0) * 1e3, "ms");
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t map_max = 1 * GIB;
	const char *cap;

	if (argc >= 2 && !strcmp(argv[1], "run")) {
		quick = argc >= 3 && !strcmp(argv[2], "--quick");
		cap = getenv("BENCH_MAP_MAX_MIB");
		if (cap && atoi(cap) > 0)
			map_max = (uint64_t)atoi(cap) * MIB;
		return run(map_max, false);
	}
	if (argc >= 2 && !strcmp(argv[1], "cs"))
		return run(0, true);
	if (argc == 3 && !strcmp(argv[1], "pair"))
		return pair((unsigned int)atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "loop"))
		return loop(argv[2], (unsigned int)atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "probe"))
		return probe((unsigned int)atoi(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "unload"))
		return unload(argv[2]);
	fprintf(stderr, "usage: gaudi_bench run [--quick] | gaudi_bench cs | "
		"gaudi_bench pair BLOCKS | gaudi_bench loop null|rtt|pipe N | "
		"gaudi_bench probe NODES 'COMMAND' | "
		"gaudi_bench unload 'COMMAND'\n");
	return 2;
}
