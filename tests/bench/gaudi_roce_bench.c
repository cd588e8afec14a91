// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_roce_bench: RDMA WRITE between the first two cards of a DL1 host
 * over the link that joins them (libgaudi's NIC API), sizes 4 KiB..64 MiB,
 * against memcpy of the same bytes on the host.  Prints, per size, the
 * median time of one write (posted, acknowledged), its bandwidth and the
 * ratio to memcpy; a benchmark (tests/bench/roce-bench.sh), not a test.
 *
 *   gaudi_roce_bench                     the first two cards of this host
 *   gaudi_roce_bench --listen TCP_PORT   card 0's NIC port 7, the peer host
 *   gaudi_roce_bench --connect IP:PORT   writes (tests/bench/roce-bench-2vm.sh)
 *
 * Between two hosts the QP addresses and buffer VAs cross over TCP; the
 * connecting side writes and prints the table, the listening side checks
 * the bytes of the last write when told it is done.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <gaudi/gaudi.h>

#define MAX_SIZE	(64ULL << 20)
#define STEP		(32 * (size_t)GAUDI_NIC_WQE_MAX_BYTES)
#define INFLIGHT	7	/* pieces of 32 WQEs the queue of 256 holds */
#define HOST_PORT	7	/* the scale-out port between two hosts */

static const size_t sizes[] = {
	4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20,
};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int fail(const char *what, int ret)
{
	fprintf(stderr, "gaudi_roce_bench: %s: %s\n", what, gaudi_strerror(ret));
	return 1;
}

/*
 * One write of @len bytes, in pieces of STEP bytes posted while the queue
 * (256 WQEs) holds them, as an application keeps a QP busy: when it is
 * full, wait for the oldest piece in flight; then for the last.
 */
static int write_all(struct gaudi_qp *qp, uint64_t src, uint64_t dst,
		     size_t len)
{
	int last[INFLIGHT], wqe = -1, ret;
	unsigned int head = 0, n = 0;
	size_t off = 0;

	while (off < len) {
		size_t sz = len - off < STEP ? len - off : STEP;

		wqe = n < INFLIGHT ?
		      gaudi_qp_write(qp, src + off, dst + off, sz, 0, 0) :
		      -EAGAIN;
		if (wqe == -EAGAIN && n) {
			ret = gaudi_qp_wait(qp, last[head], 60000);
			if (ret)
				return ret;
			head = (head + 1) % INFLIGHT;
			n--;
			continue;
		}
		if (wqe < 0)
			return wqe;
		last[(head + n++) % INFLIGHT] = wqe;
		off += sz;
	}
	return wqe < 0 ? 0 : gaudi_qp_wait(qp, wqe, 60000);
}

/*
 * The table: per size, the median of n writes from @src (host buffer
 * @sbuf) to @dst, and of memcpy of the same bytes; @dbuf (the peer's
 * buffer, one host only) is compared after the first write of each size.
 */
static int table(struct gaudi_qp *qp, uint64_t src, uint64_t dst,
		 uint8_t *sbuf, uint8_t *dbuf)
{
	static uint8_t *scratch;
	double t[64], m[64];
	size_t s;
	int i, n, ret;

	if (!dbuf) {
		scratch = malloc(MAX_SIZE);
		if (!scratch)
			return fail("memory", -ENOMEM);
	}
	printf("%-10s %12s %12s %12s %10s\n", "size", "rdma_us", "rdma_MBps",
	       "memcpy_us", "ratio");
	for (s = 0; s < NSIZES; s++) {
		size_t sz = sizes[s];

		n = sz <= (1 << 20) ? 15 : sz <= (16 << 20) ? 5 : 3;
		memset(sbuf, (int)(s + 3), sz);	/* new bytes per size */
		for (i = 0; i < n; i++) {
			double t0 = now_us();

			ret = write_all(qp, src, dst, sz);
			if (ret)
				return fail("write", ret);
			t[i] = now_us() - t0;
			if (!i && dbuf && memcmp(sbuf, dbuf, sz)) {
				fprintf(stderr, "gaudi_roce_bench: %zu bytes arrived wrong\n",
					sz);
				return 1;
			}
			t0 = now_us();
			memcpy(dbuf ? dbuf : scratch, sbuf, sz);
			m[i] = now_us() - t0;
		}
		qsort(t, (size_t)n, sizeof(t[0]), cmp);
		qsort(m, (size_t)n, sizeof(m[0]), cmp);
		printf("%-10zu %12.1f %12.1f %12.1f %10.1f\n", sz, t[n / 2],
		       (double)sz / t[n / 2], m[n / 2],
		       m[n / 2] > 0 ? t[n / 2] / m[n / 2] : 0);
	}
	free(scratch);
	return 0;
}

/* A TCP connection to IP:PORT (retried while the peer starts) or from
 * the first peer on PORT. */
static int tcp_open(const char *connect_to, int listen_port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0), cfd, one = 1, tries;
	char host[64];
	const char *colon;

	if (fd < 0)
		return -errno;
	if (!connect_to) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		sa.sin_port = htons((uint16_t)listen_port);
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1))
			return -errno;
		cfd = accept(fd, NULL, NULL);
		close(fd);
		return cfd < 0 ? -errno : cfd;
	}
	colon = strrchr(connect_to, ':');
	if (!colon || colon - connect_to >= (long)sizeof(host))
		return -EINVAL;
	memcpy(host, connect_to, (size_t)(colon - connect_to));
	host[colon - connect_to] = '\0';
	sa.sin_port = htons((uint16_t)atoi(colon + 1));
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return -EINVAL;
	for (tries = 0; tries < 100; tries++) {
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		usleep(100000);
	}
	return -errno;
}

/* Two hosts: card 0's port HOST_PORT to the peer's over TCP-exchanged
 * addresses. */
static int two_hosts(const char *connect_to, int listen_port)
{
	struct gaudi_nic_addr mine, theirs;
	struct gaudi_nic_port *port;
	struct gaudi_mapping *map;
	struct gaudi_dev *dev;
	struct gaudi_qp *qp;
	uint64_t va, peer_va = 0;
	uint8_t *buf;
	char done = 0;
	size_t i;
	int fd, ret;

	ret = gaudi_open(0, 0, &dev);
	if (ret)
		return fail("open card 0", ret);
	if (posix_memalign((void **)&buf, 4096, MAX_SIZE))
		return fail("memory", -ENOMEM);
	memset(buf, 1, MAX_SIZE);
	ret = gaudi_map_host(dev, buf, MAX_SIZE, &map);
	if (ret)
		return fail("map", ret);
	va = gaudi_mapping_va(map);
	ret = gaudi_nic_port_open(dev, HOST_PORT, 1, 256, 1024, &port);
	if (!ret)
		ret = gaudi_qp_create(port, &qp);
	if (!ret) {
		ret = gaudi_qp_reg_mr(qp, va, MAX_SIZE, NULL);
		if (ret == -EOPNOTSUPP)
			ret = 0;
	}
	if (!ret)
		ret = gaudi_qp_addr(qp, &mine);
	if (ret)
		return fail("QP", ret);
	fd = tcp_open(connect_to, listen_port);
	if (fd < 0)
		return fail("TCP", fd);
	ret = gaudi_nic_exchange(fd, &mine, &theirs);
	if (!ret)
		ret = gaudi_qp_connect(qp, &theirs);
	if (ret)
		return fail("connect", ret);
	if (write(fd, &va, 8) != 8 || read(fd, &peer_va, 8) != 8)
		return fail("exchange", -EPIPE);
	if (connect_to) {
		printf("# card 0 port %d -> the peer host's card 0 port %d\n",
		       HOST_PORT, HOST_PORT);
		ret = table(qp, va, peer_va, buf, NULL);
		done = ret ? 'x' : 'k';
		if (write(fd, &done, 1) != 1 || read(fd, &done, 1) != 1)
			return fail("done", -EPIPE);
	} else {
		/* The writer's last bytes: the last size's pattern. */
		if (read(fd, &done, 1) != 1)
			return fail("done", -EPIPE);
		for (i = 0; i < sizes[NSIZES - 1] && buf[i] == NSIZES + 2; i++)
			;
		ret = done != 'k' || i != sizes[NSIZES - 1];
		printf("gaudi_roce_bench: %s, %zu bytes of the last write "
		       "checked\n", ret ? "FAILED" : "OK", i);
		done = 'k';
		if (write(fd, &done, 1) != 1)
			return fail("done", -EPIPE);
	}
	close(fd);
	gaudi_qp_destroy(qp);
	gaudi_nic_port_close(port);
	gaudi_unmap(map);
	gaudi_close(dev);
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	struct gaudi_card_list *list = NULL;
	struct gaudi_dev *dev[2] = { NULL, NULL };
	struct gaudi_nic_port *port[2];
	struct gaudi_mapping *map[2];
	struct gaudi_qp *qp[2];
	struct gaudi_nic_addr addr[2];
	int mod[2], i, ret;
	uint8_t *buf[2];

	if (argc == 3 && !strcmp(argv[1], "--listen"))
		return two_hosts(NULL, atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "--connect"))
		return two_hosts(argv[2], 0);
	if (argc != 1) {
		fprintf(stderr, "usage: gaudi_roce_bench [--listen PORT | --connect IP:PORT]\n");
		return 2;
	}
	ret = gaudi_cards_scan(&list);
	if (ret < 2)
		return fail("two cards", ret < 0 ? ret : -ENODEV);
	for (i = 0; i < 2; i++) {
		const struct gaudi_card *c = gaudi_cards_get(list, (unsigned int)i);

		mod[i] = gaudi_card_module_id(c);
		ret = gaudi_open_card(c, 0, &dev[i]);
		if (ret)
			return fail("open", ret);
		if (posix_memalign((void **)&buf[i], 4096, MAX_SIZE))
			return fail("memory", -ENOMEM);
		memset(buf[i], i + 1, MAX_SIZE);
		ret = gaudi_map_host(dev[i], buf[i], MAX_SIZE, &map[i]);
		if (ret)
			return fail("map", ret);
	}
	for (i = 0; i < 2; i++) {
		ret = gaudi_nic_port_open(dev[i],
					  (unsigned int)gaudi_nic_dl1_port(mod[i],
									   mod[!i]),
					  1, 256, 1024, &port[i]);
		if (!ret)
			ret = gaudi_qp_create(port[i], &qp[i]);
		/* The peer writes into this card's buffer (no region before
		 * ABI 1.6). */
		if (!ret) {
			ret = gaudi_qp_reg_mr(qp[i], gaudi_mapping_va(map[i]),
					      MAX_SIZE, NULL);
			if (ret == -EOPNOTSUPP)
				ret = 0;
		}
		if (!ret)
			ret = gaudi_qp_addr(qp[i], &addr[i]);
		if (ret)
			return fail("QP", ret);
	}
	for (i = 0; i < 2; i++) {
		ret = gaudi_qp_connect(qp[i], &addr[!i]);
		if (ret)
			return fail("connect", ret);
	}
	printf("# card 0 (module %d) port %d -> card 1 (module %d) port %d\n",
	       mod[0], gaudi_nic_dl1_port(mod[0], mod[1]), mod[1],
	       gaudi_nic_dl1_port(mod[1], mod[0]));
	ret = table(qp[0], gaudi_mapping_va(map[0]), gaudi_mapping_va(map[1]),
		    buf[0], buf[1]);
	if (ret)
		return ret;
	for (i = 0; i < 2; i++) {
		gaudi_qp_destroy(qp[i]);
		gaudi_nic_port_close(port[i]);
		gaudi_unmap(map[i]);
		gaudi_close(dev[i]);
		free(buf[i]);
	}
	gaudi_cards_free(list);
	return 0;
}
