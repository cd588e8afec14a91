// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_roce_bench: RDMA WRITE between the first two cards of a DL1 host
 * over the link that joins them (libgaudi's NIC API), sizes 4 KiB..64 MiB,
 * against memcpy of the same bytes on the host.  Prints, per size, the
 * median time of one write (posted, acknowledged), its bandwidth and the
 * ratio to memcpy; a benchmark (tests/bench/roce-bench.sh), not a test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gaudi/gaudi.h>

#define MAX_SIZE	(64ULL << 20)
#define STEP		(64 * (size_t)GAUDI_NIC_WQE_MAX_BYTES)

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

/* One write of @len bytes, in pieces the queue (256 WQEs) holds. */
static int write_all(struct gaudi_qp *qp, uint64_t src, uint64_t dst,
		     size_t len)
{
	size_t off;
	int wqe = -1, ret;

	for (off = 0; off < len; off += STEP) {
		size_t n = len - off < STEP ? len - off : STEP;

		wqe = gaudi_qp_write(qp, src + off, dst + off, n, 0, 0);
		if (wqe == -EAGAIN) {
			off -= STEP;	/* wait, then post this piece again */
			continue;
		}
		if (wqe < 0)
			return wqe;
		ret = gaudi_qp_wait(qp, wqe, 60000);
		if (ret)
			return ret;
	}
	return 0;
}

int main(void)
{
	static const size_t sizes[] = {
		4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20,
	};
	struct gaudi_card_list *list = NULL;
	struct gaudi_dev *dev[2] = { NULL, NULL };
	struct gaudi_nic_port *port[2];
	struct gaudi_mapping *map[2];
	struct gaudi_qp *qp[2];
	struct gaudi_nic_addr addr[2];
	int mod[2], i, ret, n;
	uint8_t *buf[2];
	double t[64], m[64];
	size_t s;

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
	printf("%-10s %12s %12s %12s %10s\n", "size", "rdma_us", "rdma_MBps",
	       "memcpy_us", "ratio");
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t sz = sizes[s];

		n = sz <= (1 << 20) ? 15 : sz <= (16 << 20) ? 5 : 3;
		memset(buf[0], (int)(s + 3), sz);	/* new bytes per size */
		for (i = 0; i < n; i++) {
			double t0 = now_us();

			ret = write_all(qp[0], gaudi_mapping_va(map[0]),
					gaudi_mapping_va(map[1]), sz);
			if (ret)
				return fail("write", ret);
			t[i] = now_us() - t0;
			if (!i && memcmp(buf[0], buf[1], sz)) {
				fprintf(stderr, "gaudi_roce_bench: %zu bytes arrived wrong\n",
					sz);
				return 1;
			}
			t0 = now_us();
			memcpy(buf[1], buf[0], sz);
			m[i] = now_us() - t0;
		}
		qsort(t, (size_t)n, sizeof(t[0]), cmp);
		qsort(m, (size_t)n, sizeof(m[0]), cmp);
		printf("%-10zu %12.1f %12.1f %12.1f %10.1f\n", sz, t[n / 2],
		       (double)sz / t[n / 2], m[n / 2],
		       m[n / 2] > 0 ? t[n / 2] / m[n / 2] : 0);
	}
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
