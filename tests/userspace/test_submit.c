// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgaudi INFO wrappers, events, CBs, host mappings, submission, waits
 * and the DMA helpers, on the fake device (which executes LIN_DMA packets
 * against fake HBM/SRAM and the mapped host buffers).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "tap.h"

static struct fake f;
static struct gaudi_dev *dev;

static void test_info(void)
{
	struct hl_info_hw_ip_info hw;
	struct hl_info_dram_usage du;
	struct hl_info_hw_idle idle;
	struct hl_open_stats_info os;
	uint32_t st = 99, cur = 0, max = 0, hard = 0, soft = 0, pct = 0;
	uint32_t counts[8];
	uint64_t e = 0, p = 0, ev = 1;
	uint8_t raw[4];

	memset(&hw, 0, sizeof(hw));
	ok_eq(gaudi_info_hw_ip(dev, &hw), 0, "hw_ip");
	ok(hw.device_id == 0x1000 && hw.module_id == 5 &&
	   hw.dram_base_address == FAKE_HBM_BASE &&
	   !strcmp((char *)hw.card_name, "HL205"), "hw_ip fields");
	ok_eq(f.last_info_size, sizeof(hw), "hw_ip: return_size is the struct");
	ok_eq(gaudi_info_device_status(dev, &st), 0, "device status");
	ok_eq(st, HL_DEVICE_STATUS_OPERATIONAL, "operational");
	ok_eq(gaudi_info_clk_rate(dev, &cur, &max), 0, "clk rate");
	ok(cur == 1600 && max == 2200, "1600 of 2200 MHz");
	ok_eq(gaudi_info_clk_rate(dev, NULL, NULL), 0, "clk rate, no outputs");
	ok_eq(gaudi_info_energy(dev, &e), 0, "energy");
	ok_eq(e, 123456789, "energy value");
	ok_eq(gaudi_info_power(dev, &p), 0, "power");
	ok_eq(p, 98765, "power value");
	ok_eq(gaudi_info_reset_count(dev, &hard, &soft), 0, "reset count");
	ok(hard == 3 && soft == 4, "hard 3, soft 4");
	ok_eq(gaudi_info_utilization(dev, 500, &pct), 0, "utilization");
	ok(pct == 42 && f.last_info_arg == 500,
	   "42%%, period_ms passed in the argument word");
	pct = 7;
	ok_eq(gaudi_info_utilization(dev, 5, &pct), -EINVAL,
	      "bad period: the driver's -EINVAL");
	ok_eq(pct, 7, "output untouched on failure");
	ok_eq(gaudi_info_dram_usage(dev, &du), 0, "dram usage");
	ok_eq(du.dram_free_mem, FAKE_HBM_SIZE, "free HBM");
	ok_eq(gaudi_info_hw_idle(dev, &idle), 0, "hw idle");
	ok_eq(idle.is_idle, 1, "idle");
	memset(&os, 0, sizeof(os));
	ok_eq(gaudi_info_open_stats(dev, &os), 0, "open stats");
	ok_eq(f.last_info_op, HL_INFO_OPEN_STATS, "op OPEN_STATS sent");
	ok_eq(gaudi_info_hw_events(dev, false, counts, 8), 0, "hw events");
	ok(counts[0] == 0 && counts[7] == 7 && f.last_info_size == 32,
	   "8 counters, 32-byte buffer");
	ok_eq(gaudi_info_hw_events(dev, true, counts, 8), 0, "aggregate");
	ok_eq(counts[7], 107, "aggregate counters");
	ok_eq(gaudi_info_hw_events(dev, true, counts, 0), -EINVAL,
	      "0 counters: -EINVAL");
	ok_eq(gaudi_info(dev, 0xFFFF, 0, raw, sizeof(raw)), -EINVAL,
	      "unknown op: the driver's -EINVAL");
	ok_eq(gaudi_info(dev, HL_INFO_HW_IP_INFO, 0, raw, sizeof(raw)), 0,
	      "raw op with a short buffer");
	ok(raw[0] == 0x80 && raw[1] == 0 && raw[2] == 0 && raw[3] == 0xF0,
	   "first 4 bytes of the answer (sram_base_address)");
	ok_eq(gaudi_info_hw_ip(dev, NULL), -EINVAL, "NULL out: -EINVAL");
	f.fail_req = DRM_IOCTL_HL_INFO;
	f.fail_req_err = -EBUSY;
	ok_eq(gaudi_info_energy(dev, &e), -EBUSY, "driver -EBUSY returned");

	ok_eq(gaudi_events_register(dev, 17), 0, "register eventfd");
	ok_eq(gaudi_events_register(dev, 18), -EINVAL,
	      "second registration: -EINVAL");
	ok_eq(gaudi_events_register(dev, -1), -EBADF, "negative fd: -EBADF");
	f.events = HL_NOTIFIER_EVENT_DEVICE_RESET;
	ok_eq(gaudi_events_get(dev, &ev), 0, "get events");
	ok_eq(ev, HL_NOTIFIER_EVENT_DEVICE_RESET, "DEVICE_RESET bit");
	ok(gaudi_events_get(dev, &ev) == 0 && ev == 0, "cleared by reading");
	ok_eq(gaudi_events_unregister(dev), 0, "unregister");
	ok_eq(gaudi_events_unregister(dev), -EINVAL, "again: -EINVAL");
}

static void test_cb_and_maps(void)
{
	struct gaudi_mapping *m;
	struct gaudi_cb *cb;
	uint64_t va;
	uint8_t *buf;
	int i;

	ok_eq(gaudi_cb_create(dev, 0, &cb), -EINVAL, "CB size 0: -EINVAL");
	ok_eq(gaudi_cb_create(dev, HL_MAX_CB_SIZE + 1, &cb), -EINVAL,
	      "CB above HL_MAX_CB_SIZE: -EINVAL");
	f.mmap_fail = true;
	ok_eq(gaudi_cb_create(dev, 4096, &cb), -ENOMEM,
	      "mmap failure returns its errno");
	f.mmap_fail = false;
	for (i = 0; i < FAKE_MAX_CBS; i++)
		if (f.cbs[i].live)
			break;
	ok_eq(i, FAKE_MAX_CBS, "and the kernel CB was destroyed");
	if (ok_eq(gaudi_cb_create(dev, 100, &cb), 0, "CB of 100 bytes")) {
		ok(gaudi_cb_handle(cb) != 0 && gaudi_cb_size(cb) == 100,
		   "handle and size");
		ok(gaudi_cb_ptr(cb) == f.cbs[0].mem,
		   "mapped at the handle's offset");
		ok_eq(gaudi_cb_destroy(cb), 0, "destroy");
		ok(!f.cbs[0].live, "kernel CB gone");
	}
	ok_eq(gaudi_cb_destroy(NULL), 0, "destroy NULL");
	/* Mapped for internal queues: named by the device address. */
	if (ok_eq(gaudi_cb_create_mapped(dev, 64, &cb), 0, "mapped CB")) {
		struct gaudi_cb *ext = NULL;
		struct gaudi_chunk ch[2];
		uint64_t seq = 0;

		ok(gaudi_cb_device_va(cb) >= 0x1000000000000ULL &&
		   gaudi_cb_device_va(cb) == f.cbs[0].dva,
		   "its device address from HL_CB_OP_INFO (0x%llx)",
		   (unsigned long long)gaudi_cb_device_va(cb));
		ok(gaudi_cb_create(dev, 64, &ext) == 0 &&
		   gaudi_cb_device_va(ext) == 0,
		   "an unmapped CB has none");
		gaudi_pkt_nop(gaudi_cb_cmdbuf(cb), 0);
		gaudi_pkt_nop(gaudi_cb_cmdbuf(ext), 0);
		memset(ch, 0, sizeof(ch));
		ch[0].cb_handle = gaudi_cb_device_va(cb);
		ch[0].queue = GAUDI_QUEUE_ID_NIC_0_0;
		ch[0].size = 8;
		ch[1].cb_handle = gaudi_cb_handle(ext);
		ch[1].queue = GAUDI_QUEUE_ID_DMA_0_0;
		ch[1].size = 8;
		ok_eq(gaudi_submit(dev, ch, 2, 0, &seq), 0,
		      "CS: the mapped CB on an internal queue, a NOP on an external one");
		ch[0].cb_handle = gaudi_cb_handle(cb);
		ok_eq(gaudi_submit(dev, ch, 2, 0, &seq), -EINVAL,
		      "the handle on an internal queue: -EINVAL");
		gaudi_cb_destroy(ext);
		ok_eq(gaudi_cb_destroy(cb), 0, "destroy the mapped CB");
	}
	ok_eq(gaudi_cb_device_va(NULL), 0, "device address of NULL: 0");

	buf = aligned_alloc(4096, 8192);
	ok_eq(gaudi_map_host(dev, buf, 0, &m), -EINVAL, "map size 0");
	ok_eq(gaudi_map_host(dev, NULL, 4096, &m), -EINVAL, "map NULL");
	if (ok_eq(gaudi_map_host(dev, buf, 8192, &m), 0, "map 8 KiB")) {
		ok(gaudi_mapping_va(m) >= FAKE_VA_BASE &&
		   gaudi_mapping_size(m) == 8192, "device VA and size");
		ok_eq(gaudi_mapping_addr(m, buf + 100, &va), 0,
		      "address of a pointer inside");
		ok_eq(va, gaudi_mapping_va(m) + 100, "VA + 100");
		ok_eq(gaudi_mapping_addr(m, buf + 8192, &va), -ERANGE,
		      "one past the end: -ERANGE");
		ok_eq(gaudi_mapping_addr(m, buf - 1, &va), -ERANGE,
		      "before the start: -ERANGE");
		ok_eq(gaudi_unmap(m), 0, "unmap");
		ok(!f.maps[0].live, "mapping gone");
	}
	free(buf);
}

static void test_submit_wait(void)
{
	struct gaudi_chunk ch[10];
	struct gaudi_cb *cb;
	uint32_t status = 99;
	uint64_t seq = 0, s2;
	int i;

	if (!ok_eq(gaudi_cb_create(dev, 4096, &cb), 0, "CB"))
		return;
	ok_eq(gaudi_submit_cb(cb, 0, &seq), -ENODATA, "empty CB: -ENODATA");
	gaudi_pkt_nop(gaudi_cb_cmdbuf(cb), 0);
	ok_eq(gaudi_submit_cb(cb, GAUDI_QUEUE_DMA_0_0, &seq), 0, "submit");
	ok(seq == f.seq && f.last_cs_nchunks == 1 && f.last_cb_len == 8 &&
	   f.last_cs_queue == 0 && f.last_cs_flags == 0,
	   "one 8-byte chunk on DMA_0_0, no flags");
	ok_eq(gaudi_wait(dev, seq, 1000, &status), 0, "wait: completed");
	ok_eq(status, HL_WAIT_CS_STATUS_COMPLETED, "status COMPLETED");
	ok_eq(gaudi_wait(dev, seq + 5, 1000, NULL), -EINVAL,
	      "unknown sequence: -EINVAL");

	memset(ch, 0, sizeof(ch));
	for (i = 0; i < 10; i++) {
		ch[i].cb_handle = gaudi_cb_handle(cb);
		ch[i].queue = i % 8;
		ch[i].size = 8;
	}
	ok_eq(gaudi_submit(dev, ch, 10, 0, &seq), 0,
	      "10 chunks (heap chunk array)");
	ok_eq(f.last_cs_nchunks, 10, "10 chunks sent");
	ok_eq(gaudi_submit(dev, ch, 2, GAUDI_SUBMIT_RESTORE, &seq), 0,
	      "restore chunks");
	ok(f.cs_restore && f.last_cs_flags == HL_CS_FLAGS_FORCE_RESTORE,
	   "as restore chunks with FORCE_RESTORE");
	ch[1].reserved[2] = 1;
	ok_eq(gaudi_submit(dev, ch, 2, 0, &seq), -EINVAL,
	      "reserved chunk field: -EINVAL");
	ch[1].reserved[2] = 0;
	ok_eq(gaudi_submit(dev, ch, 0, 0, &seq), -EINVAL, "0 chunks: -EINVAL");
	ok_eq(gaudi_submit(dev, ch, HL_MAX_JOBS_PER_CS + 1, 0, &seq), -EINVAL,
	      "too many chunks: -EINVAL");
	ok_eq(gaudi_submit(dev, ch, 1, 0x80, &seq), -EINVAL,
	      "unknown flag: -EINVAL");

	/* A packet users may not issue on an external queue. */
	gaudi_cmdbuf_reset(gaudi_cb_cmdbuf(cb));
	gaudi_pkt_msg_prot(gaudi_cb_cmdbuf(cb), 0x20000000, 1, 0, 0);
	ok_eq(gaudi_submit_cb(cb, 0, &seq), -EPERM, "MSG_PROT: driver -EPERM");
	gaudi_cmdbuf_reset(gaudi_cb_cmdbuf(cb));
	gaudi_pkt_nop(gaudi_cb_cmdbuf(cb), 0);
	f.cs_status = 7;
	ok_eq(gaudi_submit_cb(cb, 0, &seq), -EIO,
	      "CS status not SUCCESS: -EIO");
	f.cs_status = 0;

	/* A CS that does not complete. */
	f.cs_hang = true;
	ok_eq(gaudi_submit_cb(cb, 0, &seq), 0, "submit a hanging CS");
	status = 99;
	ok_eq(gaudi_wait(dev, seq, 0, &status), -EBUSY, "poll: -EBUSY");
	ok_eq(status, HL_WAIT_CS_STATUS_BUSY, "status BUSY");
	ok_eq(gaudi_wait(dev, seq, 10, &status), -ETIMEDOUT,
	      "wait: -ETIMEDOUT");
	ok_eq(status, HL_WAIT_CS_STATUS_TIMEDOUT, "status TIMEDOUT");
	f.cs_hang = false;

	ok_eq(gaudi_submit_signal(dev, 3, &seq), 0, "signal CS");
	ok(f.last_cs_flags == HL_CS_FLAGS_SIGNAL && f.last_cs_queue == 3,
	   "HL_CS_FLAGS_SIGNAL on queue 3");
	ok_eq(gaudi_submit_wait(dev, 5, seq, &s2), 0, "wait CS");
	ok(f.last_cs_flags == HL_CS_FLAGS_WAIT && f.last_cs_queue == 5 &&
	   f.last_signal_seq == seq && s2 == seq + 1,
	   "HL_CS_FLAGS_WAIT on queue 5 for the signal's sequence");
	status = 99;
	ok(gaudi_wait(dev, GAUDI_SEQ_NONE, 0, &status) == 0 &&
	   status == HL_WAIT_CS_STATUS_COMPLETED && f.last_req != 0 &&
	   f.last_req != DRM_IOCTL_HL_WAIT_CS,
	   "GAUDI_SEQ_NONE (no wait CS queued): completed, no ioctl");
	ok_eq(gaudi_submit_wait(dev, 5, seq + 100, &s2), -EINVAL,
	      "wait for an unknown signal: the driver's -EINVAL");
	gaudi_cb_destroy(cb);
}

static void test_dma(void)
{
	uint64_t va, hbm = FAKE_HBM_BASE + 4096, sram = FAKE_SRAM_BASE + 64;
	struct gaudi_mapping *m;
	const size_t n = 100000;
	uint8_t *buf;
	size_t i;

	buf = aligned_alloc(4096, 2 * 131072);
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	memset(buf + 131072, 0xEE, 131072);
	if (!ok_eq(gaudi_map_host(dev, buf, 2 * 131072, &m), 0, "map"))
		goto out;
	va = gaudi_mapping_va(m);
	ok_eq(gaudi_dma_copy(dev, 0, hbm, va, n, 1000000), 0, "host -> HBM");
	ok_eq(gaudi_dma_copy(dev, 1, sram, hbm, n, 1000000), 0, "HBM -> SRAM");
	ok_eq(gaudi_dma_copy(dev, 7, va + 131072, sram, n, 1000000), 0,
	      "SRAM -> host");
	ok(!memcmp(buf, buf + 131072, n), "round trip is byte-exact");
	ok(buf[131072 + n] == 0xEE, "nothing written past the copy");
	ok_eq(gaudi_dma_memset(dev, 2, va + 131072, 0x0102030405060708ULL,
			       24, 1000000), 0, "memset 24 bytes");
	ok(buf[131072] == 8 && buf[131072 + 7] == 1 &&
	   buf[131072 + 8] == 8 && buf[131072 + 24] == buf[24],
	   "64-bit little-endian pattern, 24 bytes exactly");
	ok_eq(gaudi_dma_copy(dev, 8, hbm, va, 8, 1000), -EINVAL,
	      "queue 8 (CPU) is no DMA queue: -EINVAL");
	ok_eq(gaudi_dma_copy(dev, 0, hbm, va, 0, 1000), -EINVAL,
	      "size 0: -EINVAL");
	ok_eq(gaudi_dma_copy(dev, 0, ~0ULL - 4, va, 8, 1000), -EINVAL,
	      "wrapping range: -EINVAL");
	ok_eq(gaudi_dma_copy(dev, 0, 0x1234, va, 8, 1000), -EFAULT,
	      "unmapped address: the driver's error");

	/* Large copies are cut into 1 GiB LIN_DMA packets. */
	f.cs_no_exec = true;
	ok_eq(gaudi_dma_copy(dev, 0, 0x100000000ULL, 0x1000000000000ULL,
			     (5ULL << 29), 1000), 0,
	      "2.5 GiB copy (recorded, not run)");
	ok_eq(f.last_cb_len, 3 * 24, "3 LIN_DMA packets");
	ok(f.last_cb[0] == 0 && f.last_cb[3] == 0x40 &&
	   f.last_cb[24 + 3] == 0x40 && f.last_cb[48 + 3] == 0x20,
	   "1 GiB + 1 GiB + 512 MiB");
	ok(f.last_cb[48 + 8 + 3] == 0x80 && f.last_cb[48 + 16 + 4] == 0x01,
	   "third piece starts 2 GiB further on both sides");
	f.cs_no_exec = false;
	gaudi_unmap(m);
out:
	free(buf);
}

int main(void)
{
	fake_init(&f);
	fake_add_cards(&f, 1, "gaudi");
	if (!ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), 0, "open fake card"))
		return tap_done();
	test_info();
	test_cb_and_maps();
	test_submit_wait();
	test_dma();
	gaudi_close(dev);
	fake_fini(&f);
	return tap_done();
}
