// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgaudi thread-safety smoke test: threads share one device and each
 * runs INFO queries, builds its own CBs, maps its own buffer and moves data
 * host -> HBM -> host through DMA queues, with submit/wait pairs racing the
 * other threads'.  Every byte is checked; ASan watches the rest.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "tap.h"

#define THREADS		8
#define ROUNDS		200
#define CHUNK		1024	/* bytes per thread in HBM */

static struct fake f;
static struct gaudi_dev *dev;

struct worker {
	pthread_t tid;
	int id;
	int errors;
	int info_errors;
	int rounds;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t hbm = FAKE_HBM_BASE + (uint64_t)w->id * CHUNK, va;
	struct hl_info_hw_ip_info hw;
	struct gaudi_mapping *m;
	struct gaudi_cmdbuf *b;
	struct gaudi_cb *cb;
	uint8_t *buf;
	uint64_t seq;
	int r, i, ret;

	if (posix_memalign((void **)&buf, 4096, 2 * CHUNK))
		buf = NULL;
	if (!buf || gaudi_map_host(dev, buf, 2 * CHUNK, &m)) {
		w->errors++;
		free(buf);
		return NULL;
	}
	va = gaudi_mapping_va(m);
	gaudi_cmdbuf_new(0, 0, &b);
	for (r = 0; r < ROUNDS; r++) {
		uint32_t q = (uint32_t)(w->id + r) % GAUDI_NUM_EXT_QUEUES;

		for (i = 0; i < CHUNK; i++)
			buf[i] = (uint8_t)(w->id * 37 + r * 11 + i);
		memset(buf + CHUNK, 0, CHUNK);
		if (gaudi_info_hw_ip(dev, &hw) || hw.device_id != 0x1000)
			w->info_errors++;
		ret = gaudi_cb_create(dev, 256, &cb);
		if (ret) {
			w->errors++;
			continue;
		}
		gaudi_cmdbuf_reset(b);
		gaudi_pkt_lin_dma(b, hbm, va, CHUNK, 0, 0);
		gaudi_pkt_lin_dma(b, va + CHUNK, hbm, CHUNK, 0, GAUDI_PKT_EB);
		ret = gaudi_cb_load(cb, b);
		if (!ret)
			ret = gaudi_submit_cb(cb, q, &seq);
		if (!ret)
			ret = gaudi_wait(dev, seq, 1000000, NULL);
		gaudi_cb_destroy(cb);
		if (ret || memcmp(buf, buf + CHUNK, CHUNK))
			w->errors++;
		w->rounds++;
	}
	gaudi_cmdbuf_free(b);
	gaudi_unmap(m);
	free(buf);
	return NULL;
}

int main(void)
{
	struct worker w[THREADS];
	int i, errors = 0, info_errors = 0, rounds = 0;

	fake_init(&f);
	fake_add_cards(&f, 1, "gaudi");
	if (!ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), 0, "open fake card"))
		return tap_done();
	memset(w, 0, sizeof(w));
	for (i = 0; i < THREADS; i++) {
		w[i].id = i;
		ok_eq(pthread_create(&w[i].tid, NULL, work, &w[i]), 0,
		      "start thread %d", i);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(w[i].tid, NULL);
		errors += w[i].errors;
		info_errors += w[i].info_errors;
		rounds += w[i].rounds;
	}
	ok_eq(rounds, THREADS * ROUNDS, "%d threads x %d DMA round trips",
	      THREADS, ROUNDS);
	ok_eq(errors, 0, "every round trip byte-exact, no error");
	ok_eq(info_errors, 0, "every concurrent INFO answered");
	ok_eq(f.seq, (uint64_t)THREADS * ROUNDS, "every CS got a sequence");
	for (i = 0; i < FAKE_MAX_CBS && !f.cbs[i].live; i++)
		;
	ok_eq(i, FAKE_MAX_CBS, "no CB left behind");
	for (i = 0; i < FAKE_MAX_MAPS && !f.maps[i].live; i++)
		;
	ok_eq(i, FAKE_MAX_MAPS, "no mapping left behind");
	gaudi_close(dev);
	fake_fini(&f);
	return tap_done();
}
