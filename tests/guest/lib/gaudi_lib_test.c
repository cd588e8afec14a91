// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_lib_test - libgaudi on a real driver, in the guest: discovery,
 * open by index / bus id / module id, the control node next to a held
 * compute node, INFO, a CB + CS + WAIT_CS DMA round trip host -> SRAM ->
 * HBM -> host checked byte for byte, gaudi_dma_copy/memset, signal/wait,
 * events, and the gaudi.ko extensions when the driver has them.  The same
 * binary runs on upstream's habanalabs (the peer) and on gaudi.ko.
 *
 *   gaudi_lib_test --no-driver         nothing loaded: -ENOPKG everywhere
 *   gaudi_lib_test --load MODULE       gaudi_driver_load(), wait for nodes
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
#include <time.h>
#include <unistd.h>

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
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint8_t)((rng * 0x2545F4914F6CDD1DULL) >> 56);
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
	ok(gaudi_wait(dev, seq + 1000, 1000, NULL) < 0,
	   "wait on an unknown sequence fails");
out_unmap:
	ok_eq(gaudi_unmap(m), 0, "unmap");
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

	ok_eq(gaudi_driver_load(module), 0, "gaudi_driver_load(%s)", module);
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

static void run_hotplug(const char *cmd)
{
	struct gaudi_monitor *mon;
	int adds = 0, removes = 0, action, st, want;
	char node[64];
	time_t end;

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
