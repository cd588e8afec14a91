// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_lib_test - libgaudi on a real driver, in the guest: discovery,
 * open by index / bus id / module id, the control node next to a held
 * compute node, INFO, a CB + CS + WAIT_CS DMA round trip host -> SRAM ->
 * HBM -> host checked byte for byte, gaudi_dma_copy/memset, signal/wait,
 * staged submission and encapsulated signals, events, and the gaudi.ko
 * extensions when the driver has them.  The same
 * binary runs on upstream's habanalabs (the peer) and on gaudi.ko.
 *
 *   gaudi_lib_test --no-driver         nothing loaded: -ENOPKG everywhere
 *   gaudi_lib_test --load MODULE       modprobe MODULE, gaudi_driver_loaded(),
 *                                      wait for nodes
 *   gaudi_lib_test --hotplug 'CMD'     monitor kernel uevents while CMD
 *                                      (say insmod/rmmod) runs
 *   gaudi_lib_test --control-only      discovery + control nodes (stock
 *                                      habanalabs, whose compute node
 *                                      cannot be opened)
 *   gaudi_lib_test [--cards N]         everything (default)
 *
 * Prints TAP ending in "N passed, N failed"; exit status 1 on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>

#include <gaudi/gaudi.h>

#include "../../lib/tap.h"

#define WAIT_US		(30ULL * 1000 * 1000)
#define HOST_SIZE	(2U << 20)
#define XFER		(192U << 10)
#define DST_OFF		(1U << 20)
#define SRAM_OFF	(1U << 20)
#define HBM_OFF		(32U << 20)
#define STALE		0xEE

static int cards = -1;
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint8_t rnd(void)
{
	return (uint8_t)((tap_xorshift(&rng) * 0x2545F4914F6CDD1DULL) >> 56);
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

static bool all(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

/* ---- discovery ---------------------------------------------------------- */

static struct gaudi_card_list *discover(const char *want_driver)
{
	struct gaudi_card_list *l = NULL;
	unsigned int i, ids = 0;
	int n;

	n = gaudi_cards_scan(&l);
	if (cards >= 0)
		ok_eq(n, cards, "gaudi_cards_scan finds %d cards", cards);
	else
		ok(n > 0, "gaudi_cards_scan finds %d cards", n);
	if (n <= 0)
		return l;
	for (i = 0; i < gaudi_cards_count(l); i++) {
		const struct gaudi_card *c = gaudi_cards_get(l, i);
		int mid = gaudi_card_module_id(c);

		tap_diag("card %u: %s accel%d control%d module %d driver %s",
			 i, gaudi_card_pci_bus_id(c), gaudi_card_accel_index(c),
			 gaudi_card_control_index(c), mid,
			 gaudi_card_driver(c));
		ok(gaudi_card_compute_node(c) && gaudi_card_control_node(c) &&
		   access(gaudi_card_compute_node(c), F_OK) == 0 &&
		   access(gaudi_card_control_node(c), F_OK) == 0,
		   "card %u: both nodes exist (%s, %s)", i,
		   gaudi_card_compute_node(c), gaudi_card_control_node(c));
		ok(!strcmp(gaudi_card_driver(c), want_driver),
		   "card %u: driver %s", i, want_driver);
		if (i)
			ok(strcmp(gaudi_card_pci_bus_id(
					  gaudi_cards_get(l, i - 1)),
				  gaudi_card_pci_bus_id(c)) < 0,
			   "card %u: listed in bus id order", i);
		if (mid >= 0 && mid < 32)
			ids |= 1U << mid;
	}
	ok_eq(__builtin_popcount(ids), gaudi_cards_count(l),
	      "module ids from sysfs are distinct");
	ok_eq(gaudi_check_driver(), 0, "gaudi_check_driver: 0");
	return l;
}

/* INFO through the control node of every card. */
static void check_control(const struct gaudi_card_list *l)
{
	unsigned int i;

	for (i = 0; i < gaudi_cards_count(l); i++) {
		const struct gaudi_card *c = gaudi_cards_get(l, i);
		struct hl_info_hw_ip_info hw;
		struct gaudi_dev *dev;
		uint32_t st = ~0U, cur = 0, max = 0;
		struct gaudi_cb *cb;
		uint64_t e = 0;

		if (!ok_eq(gaudi_open_card(c, GAUDI_OPEN_CONTROL, &dev), 0,
			   "card %u: open the control node", i))
			continue;
		ok(gaudi_is_control(dev), "card %u: is a control node", i);
		ok(!strcmp(gaudi_driver_name(dev), gaudi_card_driver(c)),
		   "card %u: driver name %s", i, gaudi_driver_name(dev));
		memset(&hw, 0, sizeof(hw));
		if (ok_eq(gaudi_info_hw_ip(dev, &hw), 0, "card %u: hw_ip", i)) {
			ok_eq(hw.device_id, 0x1000, "card %u: device id", i);
			ok_eq(hw.module_id, gaudi_card_module_id(c),
			      "card %u: hw_ip module id = sysfs module_id", i);
		}
		ok(gaudi_info_device_status(dev, &st) == 0 &&
		   st == HL_DEVICE_STATUS_OPERATIONAL,
		   "card %u: operational", i);
		ok(gaudi_info_clk_rate(dev, &cur, &max) == 0 && cur > 0 &&
		   cur <= max, "card %u: clock %u of %u MHz", i, cur, max);
		ok(gaudi_info_energy(dev, &e) == 0 && e > 0,
		   "card %u: energy %llu", i, (unsigned long long)e);
		ok_eq(gaudi_cb_create(dev, 4096, &cb), -ENOTTY,
		      "card %u: no CB on a control node", i);
		gaudi_close(dev);
	}
}

/* ---- the compute node --------------------------------------------------- */

static void check_open_variants(const struct gaudi_card *c)
{
	struct gaudi_dev *dev;
	int mid = gaudi_card_module_id(c);

	if (ok_eq(gaudi_open_pci(gaudi_card_pci_bus_id(c), 0, &dev), 0,
		  "open by bus id %s", gaudi_card_pci_bus_id(c))) {
		ok(!strcmp(gaudi_pci_bus_id(dev), gaudi_card_pci_bus_id(c)),
		   "same card");
		gaudi_close(dev);
	}
	if (mid >= 0 &&
	    ok_eq(gaudi_open_module((unsigned int)mid, 0, &dev), 0,
		  "open by module id %d", mid)) {
		ok(!strcmp(gaudi_pci_bus_id(dev), gaudi_card_pci_bus_id(c)),
		   "same card");
		gaudi_close(dev);
	}
	ok_eq(gaudi_open(1000, 0, &dev), -ENOENT, "open accel1000: -ENOENT");
}

static void check_info(struct gaudi_dev *dev)
{
	struct hl_info_dram_usage du;
	struct hl_info_hw_idle idle;
	struct hl_open_stats_info os;
	struct hl_info_pci_counters pci;
	struct hl_info_time_sync ts;
	uint32_t hard = ~0U, soft = ~0U, ev[16];
	uint64_t p = 0;

	ok_eq(gaudi_info_dram_usage(dev, &du), 0, "dram usage");
	ok(gaudi_info_hw_idle(dev, &idle) == 0 && idle.is_idle,
	   "idle before any work");
	ok(gaudi_info_open_stats(dev, &os) == 0 &&
	   os.is_compute_ctx_active == 1, "open stats: compute ctx active");
	ok_eq(gaudi_info_pci_counters(dev, &pci), 0, "pci counters");
	ok(gaudi_info_reset_count(dev, &hard, &soft) == 0 && hard != ~0U,
	   "reset counts (hard %u, soft %u)", hard, soft);
	ok(gaudi_info_power(dev, &p) == 0, "power %llu",
	   (unsigned long long)p);
	memset(&ts, 0, sizeof(ts));
	ok(gaudi_info_time_sync(dev, &ts) == 0 && ts.host_time != 0,
	   "time sync (device %llu, host %llu)",
	   (unsigned long long)ts.device_time,
	   (unsigned long long)ts.host_time);
	ok_eq(gaudi_info_hw_events(dev, true, ev, 16), 0,
	      "hw events aggregate");
}

/* The brief's round trip: CB built by hand, one CS, WAIT_CS, then helpers. */
static void check_dma(struct gaudi_dev *dev)
{
	struct hl_info_hw_ip_info hw;
	struct gaudi_mapping *m;
	struct gaudi_cmdbuf *b;
	struct gaudi_cb *cb;
	uint64_t va, sram, hbm, seq = 0, s2;
	uint32_t status = ~0U;
	uint8_t *host = NULL;
	size_t bad;

	if (!ok_eq(gaudi_info_hw_ip(dev, &hw), 0, "hw_ip"))
		return;
	sram = hw.sram_base_address + SRAM_OFF;
	hbm = hw.dram_base_address + HBM_OFF;
	if (!ok_eq(posix_memalign((void **)&host, HOST_SIZE, HOST_SIZE), 0,
		   "2 MiB host buffer"))
		return;
	for (size_t i = 0; i < XFER; i++)
		host[i] = rnd();
	memset(host + DST_OFF, STALE, HOST_SIZE - DST_OFF);
	if (!ok_eq(gaudi_map_host(dev, host, HOST_SIZE, &m), 0, "map host"))
		goto out_free;
	va = gaudi_mapping_va(m);
	tap_diag("host VA 0x%llx, SRAM 0x%llx, HBM 0x%llx",
		 (unsigned long long)va, (unsigned long long)sram,
		 (unsigned long long)hbm);

	if (!ok_eq(gaudi_cb_create(dev, 4096, &cb), 0, "CB create"))
		goto out_unmap;
	b = gaudi_cb_cmdbuf(cb);
	ok(gaudi_pkt_lin_dma(b, sram, va, XFER, 0, 0) == 0 &&
	   gaudi_pkt_lin_dma(b, hbm, sram, XFER, 0, GAUDI_PKT_EB) == 0 &&
	   gaudi_pkt_lin_dma(b, va + DST_OFF, hbm, XFER, 0,
			     GAUDI_PKT_EB) == 0 &&
	   gaudi_pkt_memset(b, va + DST_OFF + XFER, 0x5A5A5A5A5A5A5A5AULL,
			    4096, 0, GAUDI_PKT_EB) == 0,
	   "4 LIN_DMA packets built in the CB (%zu bytes)",
	   gaudi_cmdbuf_len(b));
	if (ok_eq(gaudi_submit_cb(cb, GAUDI_QUEUE_DMA_0_0, &seq), 0,
		  "submit on DMA_0_0")) {
		ok_eq(gaudi_wait(dev, seq, WAIT_US, &status), 0, "wait");
		ok_eq(status, HL_WAIT_CS_STATUS_COMPLETED, "status COMPLETED");
		bad = first_diff(host, host + DST_OFF, XFER);
		if (!ok_eq(bad, XFER,
			   "host -> SRAM -> HBM -> host: %u bytes exact", XFER))
			tap_diag("first difference at %zu", bad);
		ok(all(host + DST_OFF + XFER, 4096, 0x5A), "memset 4 KiB");
		ok(all(host + DST_OFF + XFER + 4096, 4096, STALE),
		   "nothing written after");
	}
	/* A packet users may not issue: the driver refuses the CS. */
	gaudi_cmdbuf_reset(b);
	gaudi_pkt_msg_prot(b, va, 1, GAUDI_MSG_OP_WRITE, 0);
	ok_eq(gaudi_submit_cb(cb, GAUDI_QUEUE_DMA_0_0, &s2), -EPERM,
	      "MSG_PROT on an external queue: -EPERM");
	gaudi_cb_destroy(cb);

	/* The helpers, through other DMA queues. */
	memset(host + DST_OFF, STALE, XFER);
	ok_eq(gaudi_dma_memset(dev, 4, hbm, 0, XFER, WAIT_US), 0,
	      "dma_memset HBM on DMA_1_0");
	ok_eq(gaudi_dma_copy(dev, 3, hbm, va, XFER, WAIT_US), 0,
	      "dma_copy host -> HBM on DMA_0_3");
	ok_eq(gaudi_dma_copy(dev, 7, va + DST_OFF, hbm, XFER, WAIT_US), 0,
	      "dma_copy HBM -> host on DMA_1_3");
	ok_eq(first_diff(host, host + DST_OFF, XFER), XFER,
	      "helper round trip exact");

	/*
	 * Signal on one queue behind a transfer still running there, so that
	 * the driver queues a real wait CS on another; then work after it.
	 */
	gaudi_cb_create(dev, 4096, &cb);
	b = gaudi_cb_cmdbuf(cb);
	for (int i = 0; i < 32; i++)
		gaudi_pkt_lin_dma(b, hbm + XFER, va, HOST_SIZE, 0, 0);
	ok_eq(gaudi_submit_cb(cb, 1, &s2), 0,
	      "32 x 2 MiB LIN_DMA on DMA_0_1, not waited for");
	if (ok_eq(gaudi_submit_signal(dev, 1, &seq), 0,
		  "signal CS on DMA_0_1")) {
		ok_eq(gaudi_submit_wait(dev, 2, seq, &s2), 0,
		      "wait CS on DMA_0_2 for it");
		tap_diag("signal seq %llu, wait seq %llu%s",
			 (unsigned long long)seq, (unsigned long long)s2,
			 s2 == GAUDI_SEQ_NONE ? " (signal done already)" : "");
		ok_eq(gaudi_wait(dev, s2, WAIT_US, NULL), 0,
		      "the wait CS completes");
		memset(host + DST_OFF, STALE, 4096);
		ok(gaudi_dma_memset(dev, 2, va + DST_OFF, 0x1111111111111111ULL,
				    4096, WAIT_US) == 0 &&
		   all(host + DST_OFF, 4096, 0x11),
		   "DMA_0_2 runs work after the wait");
	}
	gaudi_cb_destroy(cb);
	ok_eq(gaudi_wait(dev, seq + 1000, 1000, NULL), -EINVAL,
	      "wait on an unknown sequence: -EINVAL (as gaudi.h documents)");
out_unmap:
	ok_eq(gaudi_unmap(m), 0, "unmap");
out_free:
	free(host);
}

/* A chunk of the packets a CB's builder holds, on @queue. */
static struct gaudi_chunk cb_chunk(struct gaudi_cb *cb, uint32_t queue)
{
	struct gaudi_chunk c;

	memset(&c, 0, sizeof(c));
	c.cb_handle = gaudi_cb_handle(cb);
	c.queue = queue;
	c.size = (uint32_t)gaudi_cmdbuf_len(gaudi_cb_cmdbuf(cb));
	return c;
}

/*
 * Staged submission: three parts (DMA_0_0 FIRST, DMA_0_1, DMA_0_0 LAST),
 * each a memset of its own 4 KiB of host memory; the submission is busy
 * until its LAST part and then complete with all three blocks written.
 */
static void check_staged(struct gaudi_dev *dev)
{
	static const uint32_t queue[3] = { 0, 1, 0 };
	static const uint32_t flags[3] = { GAUDI_STAGED_FIRST, 0,
					   GAUDI_STAGED_LAST };
	struct gaudi_cb *cb[3] = { NULL, NULL, NULL };
	struct gaudi_chunk c[3];
	struct gaudi_mapping *m;
	uint64_t va, first = 0, s = 0;
	uint8_t *host = NULL;
	int i, ret = 0;

	if (!ok_eq(posix_memalign((void **)&host, 4096, 4 * 4096), 0,
		   "staged: host buffer"))
		return;
	memset(host, STALE, 4 * 4096);
	if (!ok_eq(gaudi_map_host(dev, host, 4 * 4096, &m), 0,
		   "staged: map host"))
		goto out_free;
	va = gaudi_mapping_va(m);
	for (i = 0; i < 3 && !ret; i++) {
		ret = gaudi_cb_create(dev, 4096, &cb[i]);
		if (!ret)
			ret = gaudi_pkt_memset(gaudi_cb_cmdbuf(cb[i]),
					       va + 4096 * i,
					       0x0101010101010101ULL *
						       (0x31 + i),
					       4096, 0, 0);
		if (!ret)
			c[i] = cb_chunk(cb[i], queue[i]);
	}
	if (!ok_eq(ret, 0, "staged: 3 CBs, a memset in each"))
		goto out_cbs;
	if (!ok_eq(gaudi_submit_staged(dev, &c[0], 1, flags[0], &first), 0,
		   "staged: FIRST part on DMA_0_0"))
		goto out_cbs;
	tap_diag("staged submission %llu", (unsigned long long)first);
	ok_eq(gaudi_wait(dev, first, 0, NULL), -EBUSY,
	      "staged: busy before its LAST part");
	s = first;
	ok(gaudi_submit_staged(dev, &c[1], 1, flags[1], &s) == 0 && s == first,
	   "staged: middle part on DMA_0_1, same sequence");
	ok_eq(gaudi_wait(dev, first, 0, NULL), -EBUSY,
	      "staged: still busy after the middle part");
	s = first;
	ok(gaudi_submit_staged(dev, &c[2], 1, flags[2], &s) == 0 && s == first,
	   "staged: LAST part on DMA_0_0, same sequence");
	ok_eq(gaudi_wait(dev, first, WAIT_US, NULL), 0,
	      "staged: the submission completes");
	ok(all(host, 4096, 0x31) && all(host + 4096, 4096, 0x32) &&
	   all(host + 2 * 4096, 4096, 0x33) &&
	   all(host + 3 * 4096, 4096, STALE),
	   "staged: every part's data, nothing else written");
	s = first;
	ok_eq(gaudi_submit_staged(dev, &c[0], 1, 0, &s), -EINVAL,
	      "staged: a part for a submission that ended: -EINVAL");
	s = 0;
	ok_eq(gaudi_submit_staged(dev, &c[0], 1, 0, &s), -EINVAL,
	      "staged: a later part for sequence 0: -EINVAL");
out_cbs:
	for (i = 0; i < 3; i++)
		gaudi_cb_destroy(cb[i]);
	ok_eq(gaudi_unmap(m), 0, "staged: unmap");
out_free:
	free(host);
}

/*
 * A wait for an encapsulated signal of a submission still open: its FIRST
 * part on DMA_0_1 gives signals 1-2 of 4, DMA_0_0 waits for signal 4 and
 * then fills block D, which waits until the LAST part gives signals 3-4.
 */
static void check_encaps_open(struct gaudi_dev *dev, uint8_t *host,
			      uint64_t va)
{
	struct gaudi_cb *p1 = NULL, *p2 = NULL, *after = NULL;
	uint8_t *blk_d = host + 4 * 4096;
	struct gaudi_signal_reservation r;
	struct gaudi_chunk c;
	uint64_t e = 0, s, w = 0, d = 0;
	int i, ret;

	ret = gaudi_cb_create(dev, 4096, &p1);
	if (!ret)
		ret = gaudi_cb_create(dev, 4096, &p2);
	if (!ret)
		ret = gaudi_cb_create(dev, 4096, &after);
	if (!ok_eq(ret, 0, "encaps (open): 3 CBs"))
		goto out;
	if (!ok_eq(gaudi_signals_reserve(dev, GAUDI_QUEUE_DMA_0_0, 4, &r), 0,
		   "encaps (open): reserve 4 more on DMA_0_0"))
		goto out;
	tap_diag("reservation %u: values %u..%u", r.handle, r.first_value,
		 r.next_value - 1);
	for (i = 0; i < 2; i++) {
		gaudi_pkt_sob_inc(gaudi_cb_cmdbuf(p1), r.sob_addr, 0);
		gaudi_pkt_sob_inc(gaudi_cb_cmdbuf(p2), r.sob_addr, 0);
	}
	c = cb_chunk(p1, 1);
	if (!ok_eq(gaudi_submit_staged_encaps(dev, &c, 1, 0, r.handle, &e), 0,
		   "encaps (open): FIRST part on DMA_0_1 gives signals 1-2")) {
		gaudi_signals_unreserve(dev, r.handle);
		goto out;
	}
	ok(gaudi_submit_wait_encaps(dev, GAUDI_QUEUE_DMA_0_0, e, 4, &w) == 0 &&
	   w != GAUDI_SEQ_NONE,
	   "encaps (open): DMA_0_0 waits for signal 4 (a wait CS, %llu)",
	   (unsigned long long)w);
	memset(blk_d, STALE, 4096);
	ok(gaudi_pkt_memset(gaudi_cb_cmdbuf(after), va + 4 * 4096,
			    0x6666666666666666ULL, 4096, 0, 0) == 0 &&
	   gaudi_submit_cb(after, GAUDI_QUEUE_DMA_0_0, &d) == 0,
	   "encaps (open): behind it on DMA_0_0: memset D");
	usleep(200 * 1000);
	ok(gaudi_wait(dev, d, 0, NULL) == -EBUSY && all(blk_d, 4096, STALE),
	   "encaps (open): the memset waits for signals 3-4");
	s = e;
	c = cb_chunk(p2, 1);
	ok(gaudi_submit_staged(dev, &c, 1, GAUDI_STAGED_LAST, &s) == 0 &&
	   s == e, "encaps (open): LAST part gives signals 3-4");
	ok(gaudi_wait(dev, d, WAIT_US, NULL) == 0 && all(blk_d, 4096, 0x66),
	   "encaps (open): then the memset runs");
	ok(gaudi_wait(dev, w, WAIT_US, NULL) == 0 &&
	   gaudi_wait(dev, e, WAIT_US, NULL) == 0,
	   "encaps (open): the wait CS and the submission complete");
out:
	gaudi_cb_destroy(after);
	gaudi_cb_destroy(p2);
	gaudi_cb_destroy(p1);
}

/*
 * Encapsulated signals: 4 signals of DMA_0_0's SOB reserved, given by a
 * one-part staged submission on DMA_0_1 (behind 64 MiB of DMA there) after
 * it wrote block A; DMA_0_0 waits for signal 4, then copies A to B and
 * fills C.  Every reservation is used or given back: upstream keeps the
 * device context of one left behind.
 */
static void check_encaps(struct gaudi_dev *dev)
{
	struct gaudi_signal_reservation r, r2;
	struct hl_info_hw_ip_info hw;
	struct gaudi_cb *load = NULL, *sig = NULL, *after = NULL;
	struct gaudi_cmdbuf *b;
	struct gaudi_mapping *m;
	struct gaudi_chunk c;
	uint64_t va, hbm, l = 0, e = 0, w = 0, d = 0;
	uint8_t *host = NULL;
	int i, ret;

	if (!ok_eq(gaudi_info_hw_ip(dev, &hw), 0, "encaps: hw_ip"))
		return;
	hbm = hw.dram_base_address + HBM_OFF;
	if (!ok_eq(posix_memalign((void **)&host, HOST_SIZE, HOST_SIZE), 0,
		   "encaps: 2 MiB host buffer"))
		return;
	memset(host, STALE, HOST_SIZE);
	if (!ok_eq(gaudi_map_host(dev, host, HOST_SIZE, &m), 0,
		   "encaps: map host"))
		goto out_free;
	va = gaudi_mapping_va(m);

	/* A reservation given back. */
	if (ok_eq(gaudi_signals_reserve(dev, 3, 2, &r2), 0,
		  "encaps: reserve 2 on DMA_0_3")) {
		ok_eq(gaudi_signals_unreserve(dev, r2.handle), 0,
		      "encaps: and give them back");
		ok_eq(gaudi_signals_unreserve(dev, r2.handle), -EINVAL,
		      "encaps: again: -EINVAL");
	}

	ret = gaudi_cb_create(dev, 4096, &load);
	if (!ret)
		ret = gaudi_cb_create(dev, 4096, &sig);
	if (!ret)
		ret = gaudi_cb_create(dev, 4096, &after);
	if (!ok_eq(ret, 0, "encaps: 3 CBs"))
		goto out_cbs;
	b = gaudi_cb_cmdbuf(load);
	for (i = 0; i < 32; i++)
		gaudi_pkt_lin_dma(b, hbm, va, HOST_SIZE, 0, 0);
	ok_eq(gaudi_submit_cb(load, 1, &l), 0,
	      "encaps: 32 x 2 MiB LIN_DMA on DMA_0_1, not waited for");

	if (!ok_eq(gaudi_signals_reserve(dev, GAUDI_QUEUE_DMA_0_0, 4, &r), 0,
		   "encaps: reserve 4 on DMA_0_0"))
		goto out_wait;
	tap_diag("reservation %u: SOB offset 0x%x (0x%llx), values %u..%u, next %u",
		 r.handle, r.sob_offset, (unsigned long long)r.sob_addr,
		 r.first_value, r.next_value - 1, r.next_value);
	ok(r.handle && r.queue == 0 && r.count == 4 &&
	   r.sob_addr == GAUDI_CFG_BASE + r.sob_offset &&
	   r.first_value >= 1 && r.next_value == r.first_value + 4,
	   "encaps: handle, SOB address, 4 values");

	b = gaudi_cb_cmdbuf(sig);
	ret = gaudi_pkt_memset(b, va, 0x5C5C5C5C5C5C5C5CULL, 4096, 0, 0);
	for (i = 0; i < 4 && !ret; i++)
		ret = gaudi_pkt_sob_inc(b, r.sob_addr, GAUDI_PKT_EB);
	ok_eq(ret, 0, "encaps: CB: memset block A, then 4 SOB increments");
	c = cb_chunk(sig, 1);
	ret = gaudi_submit_staged_encaps(dev, &c, 1, GAUDI_STAGED_LAST,
					 r.handle, &e);
	if (!ok_eq(ret, 0,
		   "encaps: FIRST|LAST staged CS on DMA_0_1 takes it")) {
		gaudi_signals_unreserve(dev, r.handle);
		goto out_wait;
	}
	ok_eq(gaudi_submit_wait_encaps(dev, GAUDI_QUEUE_DMA_0_0, e, 4, &w), 0,
	      "encaps: DMA_0_0 waits for signal 4");
	tap_diag("staged %llu, wait %llu%s", (unsigned long long)e,
		 (unsigned long long)w,
		 w == GAUDI_SEQ_NONE ? " (nothing queued)" : "");
	b = gaudi_cb_cmdbuf(after);
	ok(gaudi_pkt_lin_dma(b, va + 4096, va, 4096, 0, 0) == 0 &&
	   gaudi_pkt_memset(b, va + 8192, 0x7777777777777777ULL, 4096, 0,
			    GAUDI_PKT_EB) == 0 &&
	   gaudi_submit_cb(after, GAUDI_QUEUE_DMA_0_0, &d) == 0,
	   "encaps: behind it on DMA_0_0: copy A to B, memset C");
	ok_eq(gaudi_wait(dev, d, WAIT_US, NULL), 0, "encaps: that completes");
	ok_eq(gaudi_wait(dev, w, WAIT_US, NULL), 0, "encaps: the wait CS too");
	ok_eq(gaudi_wait(dev, e, WAIT_US, NULL), 0,
	      "encaps: the signalling submission too");
	ok(all(host, 4096, 0x5C), "encaps: block A written by the staged CS");
	ok(all(host + 4096, 4096, 0x5C),
	   "encaps: B, copied after signal 4, holds A's new data");
	ok(all(host + 8192, 4096, 0x77) && all(host + 3 * 4096, 4096, STALE),
	   "encaps: C filled after the wait, nothing else written");
	ok_eq(gaudi_signals_unreserve(dev, r.handle), -EINVAL,
	      "encaps: the reservation ended with its submission");
	check_encaps_open(dev, host, va);
out_wait:
	if (l)
		ok_eq(gaudi_wait(dev, l, WAIT_US, NULL), 0,
		      "encaps: the DMA load completes");
out_cbs:
	gaudi_cb_destroy(after);
	gaudi_cb_destroy(sig);
	gaudi_cb_destroy(load);
	ok_eq(gaudi_unmap(m), 0, "encaps: unmap");
out_free:
	free(host);
}

static void check_events(struct gaudi_dev *dev)
{
	uint64_t ev = ~0ULL;
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	if (!ok(efd >= 0, "eventfd"))
		return;
	ok_eq(gaudi_events_register(dev, efd), 0, "register eventfd");
	ok_eq(gaudi_events_register(dev, efd), -EINVAL,
	      "second registration: -EINVAL");
	ok(gaudi_events_get(dev, &ev) == 0 && ev == 0, "no events pending");
	ok_eq(gaudi_events_unregister(dev), 0, "unregister");
	close(efd);
}

static void check_compute(const struct gaudi_card_list *l)
{
	const struct gaudi_card *c = gaudi_cards_get(l, 0);
	struct gaudi_dev *dev, *dev2, *ctl;
	struct gaudi_owner own;
	struct gaudi_caps caps;
	int idx = gaudi_card_accel_index(c), ret;

	check_open_variants(c);
	if (!ok_eq(gaudi_open((unsigned int)idx, 0, &dev), 0, "open accel%d",
		   idx))
		return;
	ok(!strcmp(gaudi_driver_name(dev), gaudi_card_driver(c)),
	   "drmGetVersion says %s", gaudi_driver_name(dev));
	ret = gaudi_query_caps(dev, &caps);
	if (gaudi_driver(dev) == GAUDI_DRIVER_GAUDI)
		ok(ret == 0 && caps.abi_major == 1,
		   "gaudi.ko: capability query, ABI %u.%u", caps.abi_major,
		   caps.abi_minor);
	else
		ok_eq(ret, -EOPNOTSUPP, "upstream: no capability query");

	ok_eq(gaudi_open((unsigned int)idx, 0, &dev2), -EBUSY,
	      "second open of the compute node: -EBUSY");
	if (ok_eq(gaudi_open((unsigned int)idx, GAUDI_OPEN_CONTROL, &ctl), 0,
		  "control node opens while the compute node is held")) {
		uint32_t st;

		ok(gaudi_info_device_status(ctl, &st) == 0,
		   "and answers INFO");
		ret = gaudi_owner(ctl, &own);
		if (gaudi_driver(ctl) == GAUDI_DRIVER_GAUDI)
			ok(ret == 0 && own.state == GAUDI_OWNER_STATE_HELD &&
			   own.pid == getpid(),
			   "owner: held by this process (pid %d, %s)",
			   own.pid, own.comm);
		else
			ok_eq(ret, -EOPNOTSUPP, "upstream: no owner query");
		gaudi_close(ctl);
	}
	check_info(dev);
	check_dma(dev);
	check_staged(dev);
	check_encaps(dev);
	check_events(dev);
	gaudi_close(dev);
}

/* ---- modes without a usable compute node -------------------------------- */

static void run_no_driver(void)
{
	struct gaudi_card_list *l;
	struct gaudi_dev *dev;

	ok_eq(gaudi_cards_scan(&l), 0, "no driver: no card listed");
	gaudi_cards_free(l);
	ok_eq(gaudi_driver_loaded("habanalabs"), 0, "habanalabs not loaded");
	ok_eq(gaudi_driver_loaded("gaudi"), 0, "gaudi not loaded");
	ok_eq(gaudi_check_driver(), -ENOPKG,
	      "gaudi_check_driver: -ENOPKG (%s)", gaudi_strerror(-ENOPKG));
	ok_eq(gaudi_open(0, 0, &dev), -ENOPKG, "gaudi_open: -ENOPKG");
}

static void run_load(const char *module)
{
	struct gaudi_card_list *l;
	int i, n = 0;
	char cmd[96];

	/* Loading is modprobe's job, not the library's. */
	snprintf(cmd, sizeof(cmd), "modprobe %s", module);
	ok_eq(system(cmd), 0, "%s", cmd);
	ok_eq(gaudi_driver_loaded(module), 1, "%s loaded", module);
	for (i = 0; i < 600; i++) {	/* 60 s for the probe */
		n = gaudi_cards_scan(&l);
		if (n > 0) {
			unsigned int k, both = 0;
			const struct gaudi_card *c;

			for (k = 0; k < gaudi_cards_count(l); k++) {
				c = gaudi_cards_get(l, k);
				both += gaudi_card_control_node(c) &&
					gaudi_card_compute_node(c);
			}
			gaudi_cards_free(l);
			if ((cards < 0 || n == cards) &&
			    both == (unsigned int)n)
				break;
		} else if (n == 0) {
			gaudi_cards_free(l);
		}
		usleep(100 * 1000);
	}
	ok(n > 0 && (cards < 0 || n == cards), "%d cards probed after load",
	   n);
}

/* Can the kernel send uevents (a kernel built without networking cannot)? */
static bool have_uevent_socket(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void run_hotplug(const char *cmd)
{
	struct gaudi_monitor *mon;
	int adds = 0, removes = 0, action, st, want;
	char node[64];
	time_t end;

	if (!have_uevent_socket()) {
		tap_skip("no uevent socket", "monitor kernel uevents");
		ok_eq(system(cmd), 0, "'%s'", cmd);
		tap_skip("no uevent socket", "add / remove events");
		tap_skip("no uevent socket", "then nothing pending");
		return;
	}
	if (!ok_eq(gaudi_monitor_new(GAUDI_MONITOR_KERNEL, &mon), 0,
		   "monitor kernel uevents"))
		return;
	st = system(cmd);
	ok_eq(st, 0, "'%s'", cmd);
	want = cards > 0 ? 2 * cards : 2;
	end = time(NULL) + 120;
	while (adds < want && removes < want && time(NULL) < end) {
		struct pollfd p = { .fd = gaudi_monitor_fd(mon),
				    .events = POLLIN };

		if (poll(&p, 1, 1000) <= 0)
			continue;
		while (gaudi_monitor_receive(mon, &action, node,
					     sizeof(node)) == 0) {
			if (action == GAUDI_MONITOR_ADD)
				adds++;
			else if (action == GAUDI_MONITOR_REMOVE)
				removes++;
			tap_diag("uevent %d %s", action, node);
		}
	}
	ok(adds >= want || removes >= want,
	   "%d add / %d remove events for %d nodes", adds, removes, want);
	ok_eq(gaudi_monitor_receive(mon, &action, node, sizeof(node)),
	      -EAGAIN, "then nothing pending: -EAGAIN");
	gaudi_monitor_free(mon);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-driver", no_argument, NULL, 'n' },
		{ "load", required_argument, NULL, 'l' },
		{ "hotplug", required_argument, NULL, 'p' },
		{ "control-only", no_argument, NULL, 'c' },
		{ "driver", required_argument, NULL, 'd' },
		{ "cards", required_argument, NULL, 'N' },
		{ }
	};
	const char *arg = NULL, *driver = NULL;
	struct gaudi_card_list *l;
	int mode = 'a', o;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'N':
			cards = atoi(optarg);
			break;
		case 'd':
			driver = optarg;
			break;
		case 'l':
		case 'p':
			arg = optarg;
			mode = o;
			break;
		case 'n':
		case 'c':
			mode = o;
			break;
		default:
			fprintf(stderr, "usage: see the comment at the top\n");
			return 2;
		}
	}
	rng ^= (uint64_t)time(NULL) << 16 ^ (uint64_t)getpid();
	tap_diag("libgaudi %s, mode %c", gaudi_version(), mode);
	switch (mode) {
	case 'n':
		run_no_driver();
		break;
	case 'l':
		run_load(arg);
		break;
	case 'p':
		run_hotplug(arg);
		break;
	default:
		l = discover(driver ? driver :
			     gaudi_driver_loaded("gaudi") > 0 ? "gaudi" :
							       "habanalabs");
		if (l && gaudi_cards_count(l)) {
			check_control(l);
			if (mode == 'a')
				check_compute(l);
		}
		gaudi_cards_free(l);
	}
	return tap_done();
}
