// SPDX-License-Identifier: MIT
/*
 * gaudi_allreduce: an all-reduce (sum of 32-bit words) over RoCE with
 * libgaudi's NIC API, checked byte for byte.  An example as much as a test.
 *
 *   gaudi_allreduce [--cards N] [--size BYTES] [--iters N]
 *		     [--staged | --nic-queue]
 *	The cards of this host (all, or the first N), a ring over the DL1
 *	board's links: reduce-scatter then all-gather, N - 1 steps each.  In
 *	every step each card RDMA-WRITEs one chunk of its vector (host
 *	memory mapped into that card) into the next card's memory; the host
 *	adds.  --staged moves the same chunks with memcpy instead: the
 *	comparison the bench reports.  --nic-queue posts the WQEs, then
 *	each card rings its own doorbell from a CB on the port's NIC queue
 *	(a CS), as a step would after its compute, instead of the host
 *	asking the driver.
 *   gaudi_allreduce --listen TCPPORT | --connect ADDR:TCPPORT [--nic-port P]
 *		     [--random-writes N]
 *	Two hosts, one card each (card 0), linked on NIC port P (default 7,
 *	a scale-out port): the QP addresses are exchanged over TCP (any
 *	network, e.g. gaudi_en's interface on the same link), then each side
 *	writes its vector into the other's memory and adds.  Then, with
 *	--random-writes, each side makes N RDMA WRITEs of random size (1 B to
 *	64 KiB) from random offsets of its summed vector to random offsets of
 *	the other's receive area (both draw the same sequence) and checks its
 *	own receive area byte for byte, the bytes between the writes too.
 *
 * Every card's vector starts as a known function of its rank and the
 * word's index; the result must equal the sum on every card.  Prints
 * "allreduce: OK ..." with the time per iteration, exit status 0; else a
 * message and 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <gaudi/gaudi.h>

#define MAX_CARDS	8
#define WAIT_MS		20000
/*
 * A ring step writes a whole chunk with one gaudi_qp_write(): up to 4095
 * WQEs (64 MiB) in flight, each with its CQE.
 */
#define WQ_ENTRIES	4096
#define CQ_ENTRIES	8192

struct rank {
	struct gaudi_dev *dev;
	int module;
	/* Vector and receive area, one allocation and one mapping. */
	uint32_t *vec, *scratch;
	struct gaudi_mapping *map;
	uint64_t vec_va, scratch_va;
	struct gaudi_nic_port *ports[10];	/* opened on first use */
	struct gaudi_qp *tx, *rx;	/* to the next rank, from the previous */
	/* --nic-queue: the doorbell CB (NIC queue) and a NOP (external). */
	struct gaudi_cb *db_cb, *nop_cb;
};

enum mode { RDMA, STAGED, NIC_QUEUE };

static size_t size = 1 << 20;
static int iters = 1;

static uint32_t init_word(int rank, size_t i)
{
	return (uint32_t)(i * 2654435761U) ^ (uint32_t)(rank * 40503U + 7);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int fail(const char *what, int ret)
{
	fprintf(stderr, "gaudi_allreduce: %s: %s\n", what, gaudi_strerror(ret));
	return 1;
}

static void *alloc_buf(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len))
		return NULL;
	memset(p, 0, len);
	return p;
}

/*
 * The receive area starts one page past the end of the vector: at exactly
 * the vector's size (a power of two) the two would share every set of a
 * direct-mapped or set-associative cache or TLB, which add() walks in step
 * (under QEMU's TCG it made the staged all-reduce 6.5 times slower).
 */
#define SCRATCH_GAP 4096

static int rank_mem(struct rank *r)
{
	size_t span = 2 * size + SCRATCH_GAP;
	int ret;

	/*
	 * One mapping: the previous rank writes into both areas through
	 * one QP, whose one key names one region (gaudi_qp_reg_mr()).
	 */
	r->vec = alloc_buf(span);
	if (!r->vec)
		return -ENOMEM;
	r->scratch = r->vec + (size + SCRATCH_GAP) / 4;
	ret = gaudi_map_host(r->dev, r->vec, span, &r->map);
	if (!ret) {
		r->vec_va = gaudi_mapping_va(r->map);
		r->scratch_va = r->vec_va + size + SCRATCH_GAP;
	}
	return ret;
}

/*
 * The peer of @qp may write @r's vector and receive area (a driver before
 * regions lets it anyway).
 */
static int mem_region(struct gaudi_qp *qp, const struct rank *r)
{
	int ret = gaudi_qp_reg_mr(qp, r->vec_va, 2 * size + SCRATCH_GAP,
				  NULL);

	return ret == -EOPNOTSUPP ? 0 : ret;
}

static void fill(struct rank *r, int rank)
{
	size_t i;

	for (i = 0; i < size / 4; i++)
		r->vec[i] = init_word(rank, i);
}

/* Whether every word of @vec is the sum over @nranks ranks. */
static bool check(const uint32_t *vec, int nranks)
{
	size_t i;
	int k;

	for (i = 0; i < size / 4; i++) {
		uint32_t want = 0;

		for (k = 0; k < nranks; k++)
			want += init_word(k, i);
		if (vec[i] != want) {
			fprintf(stderr, "gaudi_allreduce: word %zu is 0x%08x, not 0x%08x\n",
				i, vec[i], want);
			return false;
		}
	}
	return true;
}

static void add(uint32_t *dst, const uint32_t *src, size_t words)
{
	size_t i;

	for (i = 0; i < words; i++)
		dst[i] += src[i];
}

/*
 * A port of a rank, opened once for two QPs (with two cards, a rank's
 * queue pair to the next and the one from the previous share the port).
 */
static int port_of(struct rank *r, int port, struct gaudi_nic_port **out)
{
	int ret = 0;

	if (port < 0 || port > 9)
		return -EINVAL;
	if (!r->ports[port])
		ret = gaudi_nic_port_open(r->dev, (unsigned int)port, 2,
					  WQ_ENTRIES, CQ_ENTRIES,
					  &r->ports[port]);
	*out = r->ports[port];
	return ret;
}

/* Connect rank a's tx to rank b's rx over their DL1 link. */
static int link_pair(struct rank *a, struct rank *b)
{
	struct gaudi_nic_port *pa, *pb;
	struct gaudi_nic_addr aa, ba;
	int ret;

	ret = port_of(a, gaudi_nic_dl1_port(a->module, b->module), &pa);
	if (!ret)
		ret = port_of(b, gaudi_nic_dl1_port(b->module, a->module), &pb);
	if (!ret)
		ret = gaudi_qp_create(pa, &a->tx);
	if (!ret)
		ret = gaudi_qp_create(pb, &b->rx);
	/* a writes into b's vector and receive area, nothing else. */
	if (!ret)
		ret = mem_region(b->rx, b);
	if (!ret)
		ret = gaudi_qp_addr(a->tx, &aa);
	if (!ret)
		ret = gaudi_qp_addr(b->rx, &ba);
	if (!ret)
		ret = gaudi_qp_connect(a->tx, &ba);
	if (!ret)
		ret = gaudi_qp_connect(b->rx, &aa);
	return ret;
}

/* Rank i's chunk c to rank i + 1, at the same offset of @to_vec or scratch. */
static int post(struct rank *rk, int n, int i, int c, bool to_vec,
		enum mode mode)
{
	struct rank *a = &rk[i], *b = &rk[(i + 1) % n];
	size_t chunk = size / (size_t)n, off = (size_t)c * chunk;
	uint64_t src = a->vec_va + off;
	uint64_t dst = (to_vec ? b->vec_va : b->scratch_va) + off;

	if (mode == STAGED) {
		memcpy((uint8_t *)(to_vec ? b->vec : b->scratch) + off,
		       (uint8_t *)a->vec + off, chunk);
		return 0;
	}
	if (mode == NIC_QUEUE)
		return gaudi_qp_post(a->tx, src, dst, chunk, 0, 0);
	return gaudi_qp_write(a->tx, src, dst, chunk, 0, 0);
}

/*
 * --nic-queue: every rank's card rings its doorbell for what was posted,
 * from a CB on its tx port's NIC queue (an internal queue, named by the
 * CB's device address) in a CS that ends with a NOP on DMA 0.
 */
static int ring_from_nic_queues(struct rank *rk, int n)
{
	uint64_t seq[MAX_CARDS];
	int i, ret;

	for (i = 0; i < n; i++) {
		struct gaudi_cmdbuf *cb = gaudi_cb_cmdbuf(rk[i].db_cb);
		struct gaudi_chunk ch[2];

		gaudi_cmdbuf_reset(cb);
		ret = gaudi_pkt_qp_doorbell(cb, rk[i].tx);
		if (ret)
			return ret;
		memset(ch, 0, sizeof(ch));
		ch[0].cb_handle = gaudi_cb_device_va(rk[i].db_cb);
		ch[0].queue = (uint32_t)gaudi_qp_nic_queue(rk[i].tx, 0);
		ch[0].size = (uint32_t)gaudi_cmdbuf_len(cb);
		ch[1].cb_handle = gaudi_cb_handle(rk[i].nop_cb);
		ch[1].queue = GAUDI_QUEUE_DMA_0_0;
		ch[1].size = (uint32_t)gaudi_cmdbuf_len(gaudi_cb_cmdbuf(rk[i].nop_cb));
		ret = gaudi_submit(rk[i].dev, ch, 2, 0, &seq[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		ret = gaudi_wait(rk[i].dev, seq[i], (uint64_t)WAIT_MS * 1000,
				 NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static int ring(struct rank *rk, int n, enum mode mode)
{
	bool staged = mode == STAGED;
	size_t chunk = size / (size_t)n;
	int s, i, ret, wqe[MAX_CARDS];

	/* Reduce-scatter: after it rank i holds the sum of chunk i + 1. */
	for (s = 0; s < n - 1; s++) {
		for (i = 0; i < n; i++) {
			wqe[i] = post(rk, n, i, ((i - s) % n + n) % n, false,
				      mode);
			if (wqe[i] < 0)
				return wqe[i];
		}
		if (mode == NIC_QUEUE && (ret = ring_from_nic_queues(rk, n)))
			return ret;
		for (i = 0; i < n && !staged; i++) {
			ret = gaudi_qp_wait(rk[i].tx, wqe[i], WAIT_MS);
			if (ret)
				return ret;
		}
		for (i = 0; i < n; i++) {
			int c = ((i - 1 - s) % n + n) % n;

			add(rk[i].vec + c * chunk / 4,
			    rk[i].scratch + c * chunk / 4, chunk / 4);
		}
	}
	/* All-gather: the reduced chunks go round. */
	for (s = 0; s < n - 1; s++) {
		for (i = 0; i < n; i++) {
			wqe[i] = post(rk, n, i, ((i + 1 - s) % n + n) % n, true,
				      mode);
			if (wqe[i] < 0)
				return wqe[i];
		}
		if (mode == NIC_QUEUE && (ret = ring_from_nic_queues(rk, n)))
			return ret;
		for (i = 0; i < n && !staged; i++) {
			ret = gaudi_qp_wait(rk[i].tx, wqe[i], WAIT_MS);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int run_local(int ncards, enum mode mode)
{
	bool staged = mode == STAGED;
	struct gaudi_card_list *list = NULL;
	struct rank rk[MAX_CARDS];
	double t0, t;
	int n, i, it, ret;

	memset(rk, 0, sizeof(rk));
	ret = gaudi_cards_scan(&list);
	if (ret < 0)
		return fail("cards", ret);
	n = ret;
	if (ncards && ncards < n)
		n = ncards;
	if (n < 2 || n > MAX_CARDS || size % ((size_t)n * 4096))
		return fail("cards and size (2..8 cards, size a multiple of 4 KiB per card)",
			    -EINVAL);
	for (i = 0; i < n; i++) {
		const struct gaudi_card *c = gaudi_cards_get(list, (unsigned int)i);

		rk[i].module = gaudi_card_module_id(c);
		ret = gaudi_open_card(c, 0, &rk[i].dev);
		if (ret)
			return fail("open", ret);
		ret = rank_mem(&rk[i]);
		if (ret)
			return fail("memory", ret);
	}
	for (i = 0; i < n && !staged; i++) {
		ret = link_pair(&rk[i], &rk[(i + 1) % n]);
		if (ret)
			return fail("connect", ret);
	}
	for (i = 0; i < n && mode == NIC_QUEUE; i++) {
		ret = gaudi_cb_create_mapped(rk[i].dev, 4096, &rk[i].db_cb);
		if (!ret)
			ret = gaudi_cb_create(rk[i].dev, 4096, &rk[i].nop_cb);
		if (!ret)
			ret = gaudi_pkt_nop(gaudi_cb_cmdbuf(rk[i].nop_cb), 0);
		if (ret)
			return fail("command buffers", ret);
	}
	t = 0;
	for (it = 0; it < iters; it++) {
		for (i = 0; i < n; i++)
			fill(&rk[i], i);
		t0 = now_s();
		ret = ring(rk, n, mode);
		t += now_s() - t0;
		if (ret)
			return fail("ring", ret);
		for (i = 0; i < n; i++)
			if (!check(rk[i].vec, n)) {
				fprintf(stderr, "gaudi_allreduce: card %d wrong\n", i);
				return 1;
			}
	}
	printf("allreduce: OK %d cards, %zu bytes, %s, %d iterations, %.3f ms each\n",
	       n, size, staged ? "staged through host memory" :
	       mode == NIC_QUEUE ? "RDMA WRITE ring, doorbells from the NIC queues" :
	       "RDMA WRITE ring", iters, t * 1e3 / iters);
	for (i = 0; i < n; i++) {
		int p;

		gaudi_qp_destroy(rk[i].tx);
		gaudi_qp_destroy(rk[i].rx);
		for (p = 0; p < 10; p++)
			gaudi_nic_port_close(rk[i].ports[p]);
		gaudi_cb_destroy(rk[i].db_cb);
		gaudi_cb_destroy(rk[i].nop_cb);
		gaudi_unmap(rk[i].map);
		gaudi_close(rk[i].dev);
		free(rk[i].vec);
	}
	gaudi_cards_free(list);
	return 0;
}

/*
 * @len bytes in writes the send queue holds (64 WQEs: 32 of them at a
 * time), each waited for.
 */
static int write_all(struct gaudi_qp *qp, uint64_t src, uint64_t dst,
		     size_t len)
{
	const size_t step = 32 * (size_t)GAUDI_NIC_WQE_MAX_BYTES;
	size_t off;
	int wqe, ret;

	for (off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;

		wqe = gaudi_qp_write(qp, src + off, dst + off, n, 0, 0);
		ret = wqe < 0 ? wqe : gaudi_qp_wait(qp, wqe, WAIT_MS);
		if (ret)
			return ret;
	}
	return 0;
}

static int tcp_fd(const char *connect_to, int listen_port)
{
	struct sockaddr_in sa;
	int fd, cfd, one = 1;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -errno;
	if (!connect_to) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		sa.sin_port = htons((uint16_t)listen_port);
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
		    listen(fd, 1))
			return -errno;
		cfd = accept(fd, NULL, NULL);
		close(fd);
		return cfd < 0 ? -errno : cfd;
	} else {
		char host[64];
		const char *colon = strrchr(connect_to, ':');
		int tries;

		if (!colon || colon - connect_to >= (long)sizeof(host))
			return -EINVAL;
		memcpy(host, connect_to, (size_t)(colon - connect_to));
		host[colon - connect_to] = '\0';
		sa.sin_port = htons((uint16_t)atoi(colon + 1));
		if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
			return -EINVAL;
		/* The listener may start a little later. */
		for (tries = 0; tries < 100; tries++) {
			if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
				return fd;
			usleep(100000);
		}
		return -errno;
	}
}

/* A small PRNG both hosts run with the same seed (xorshift64). */
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/*
 * @n writes of random size and offsets from our (summed) vector into the
 * peer's receive area, then check ours: the peer drew the same writes
 * from the same vector.
 */
static int random_writes(struct rank *r, int fd, uint64_t their_va, int n)
{
	uint8_t *shadow = malloc(size);
	char ok = 'k', peer_ok = 0;
	int i, ret = 0;

	if (!shadow)
		return -ENOMEM;
	memset(r->scratch, 0xA5, size);
	memset(shadow, 0xA5, size);
	/* Both receive areas are reset before either writes. */
	if (write(fd, &ok, 1) != 1 || read(fd, &peer_ok, 1) != 1) {
		free(shadow);
		return -EPIPE;
	}
	rnd_state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
	for (i = 0; i < n && !ret; i++) {
		size_t max = size < 65536 ? size : 65536;
		size_t len = 1 + rnd() % max;
		size_t src = rnd() % (size - len + 1);
		size_t dst = rnd() % (size - len + 1);

		memcpy(shadow + dst, (uint8_t *)r->vec + src, len);
		ret = write_all(r->tx, r->vec_va + src,
				their_va + dst, len);
	}
	/* Our writes landed (acknowledged); theirs when they say so. */
	if (!ret && (write(fd, &ok, 1) != 1 || read(fd, &peer_ok, 1) != 1))
		ret = -EPIPE;
	if (!ret && memcmp(shadow, r->scratch, size)) {
		size_t k = 0;

		while (shadow[k] == ((uint8_t *)r->scratch)[k])
			k++;
		fprintf(stderr, "gaudi_allreduce: random writes: byte %zu wrong\n",
			k);
		ret = -EIO;
	}
	free(shadow);
	return ret;
}

static int run_two_hosts(const char *connect_to, int listen_port,
			 unsigned int nic_port, int nwrites)
{
	struct gaudi_nic_addr mine, theirs;
	struct rank r;
	int rank = connect_to ? 1 : 0, fd, ret, it;
	char ok = 'k', peer_ok = 0;
	double t0, t = 0;

	memset(&r, 0, sizeof(r));
	ret = gaudi_open(0, 0, &r.dev);
	if (ret)
		return fail("open card 0", ret);
	ret = rank_mem(&r);
	if (ret)
		return fail("memory", ret);
	ret = port_of(&r, (int)nic_port, &r.ports[nic_port]);
	if (!ret)
		ret = gaudi_qp_create(r.ports[nic_port], &r.tx);
	if (!ret)
		ret = mem_region(r.tx, &r);
	if (!ret)
		ret = gaudi_qp_addr(r.tx, &mine);
	if (ret)
		return fail("QP", ret);
	fd = tcp_fd(connect_to, listen_port);
	if (fd < 0)
		return fail("TCP", fd);
	ret = gaudi_nic_exchange(fd, &mine, &theirs);
	if (!ret)
		ret = gaudi_qp_connect(r.tx, &theirs);
	if (ret)
		return fail("connect", ret);
	/* The peer's scratch VA travels after the QP address. */
	{
		uint64_t my_va = r.scratch_va, their_va = 0;

		if (write(fd, &my_va, 8) != 8 || read(fd, &their_va, 8) != 8)
			return fail("exchange", -EPIPE);
		for (it = 0; it < iters; it++) {
			fill(&r, rank);
			/* Both sides ready before either writes. */
			if (write(fd, &ok, 1) != 1 || read(fd, &peer_ok, 1) != 1)
				return fail("sync", -EPIPE);
			t0 = now_s();
			ret = write_all(r.tx, r.vec_va,
					their_va, size);
			if (ret)
				return fail("write", ret);
			/* Our write landed; theirs when they say so. */
			if (write(fd, &ok, 1) != 1 || read(fd, &peer_ok, 1) != 1)
				return fail("sync", -EPIPE);
			add(r.vec, r.scratch, size / 4);
			t += now_s() - t0;
			if (!check(r.vec, 2))
				return 1;
		}
		if (nwrites) {
			ret = random_writes(&r, fd, their_va, nwrites);
			if (ret)
				return fail("random writes", ret);
			printf("random writes: OK %d writes each way, bytes checked\n",
			       nwrites);
		}
	}
	printf("allreduce: OK 2 hosts, rank %d, port %u, %zu bytes, %d iterations, %.3f ms each\n",
	       rank, nic_port, size, iters, t * 1e3 / iters);
	close(fd);
	gaudi_qp_destroy(r.tx);
	gaudi_nic_port_close(r.ports[nic_port]);
	gaudi_unmap(r.map);
	gaudi_close(r.dev);
	free(r.vec);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cards", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'i' },
		{ "staged", no_argument, NULL, 'S' },
		{ "nic-queue", no_argument, NULL, 'Q' },
		{ "listen", required_argument, NULL, 'l' },
		{ "connect", required_argument, NULL, 'c' },
		{ "nic-port", required_argument, NULL, 'p' },
		{ "random-writes", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	const char *connect_to = NULL;
	int o, ncards = 0, listen_port = 0, nic_port = 7, nwrites = 0;
	enum mode mode = RDMA;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'n': ncards = atoi(optarg); break;
		case 's': size = strtoull(optarg, NULL, 0); break;
		case 'i': iters = atoi(optarg); break;
		case 'S': mode = STAGED; break;
		case 'Q': mode = NIC_QUEUE; break;
		case 'l': listen_port = atoi(optarg); break;
		case 'c': connect_to = optarg; break;
		case 'p': nic_port = atoi(optarg); break;
		case 'r': nwrites = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: gaudi_allreduce [--cards N] [--size BYTES] [--iters N] [--staged | --nic-queue] | --listen PORT | --connect ADDR:PORT [--nic-port P] [--random-writes N]\n");
			return 2;
		}
	}
	if (iters < 1 || !size || size % 4096 || nic_port < 0 || nic_port > 9 ||
	    nwrites < 0)
		return fail("arguments", -EINVAL);
	if (listen_port || connect_to)
		return run_two_hosts(connect_to, listen_port,
				     (unsigned int)nic_port, nwrites);
	return run_local(ncards, mode);
}
