// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hl_upstream_test - drives a Gaudi 1 card through the upstream habanalabs
 * uapi (<drm/habanalabs_accel.h>) and checks what comes back. Runs in the
 * guest against Debian's habanalabs.ko (control node) or the rebuilt peer
 * (compute node), both on the emulated device.
 *
 *   --control  open /dev/accel/accel_controlD<N>: INFO queries
 *   --compute  open /dev/accel/accel<N>: INFO queries, a command buffer,
 *              a host userptr mapping, LIN_DMA host->SRAM->HBM->host and a
 *              memset on DMA_0_0, then forbidden packets and teardown
 *
 * Output is TAP ending in "N passed, N failed"; exit status 1 on failure.
 * Expected values are upstream's Gaudi 1 facts (32 GiB HBM of which the
 * first 512 MiB belong to the driver, 20 MiB SRAM of which the first 0x80
 * bytes belong to the driver, ...), not whatever the device reports.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "../../lib/hl_ioctl.h"
#include "../../lib/tap.h"

/* Gaudi 1 facts: hw/gaudi1 (through hl_ioctl.h); what upstream reports. */
#define GAUDI_MAX_CLK_MHZ	2200

#define CB_SIZE			4096
#define HOST_BUF_SIZE		(2U << 20)
#define XFER_SIZE		(256U << 10)	/* copied host->SRAM->HBM->host */
#define MEMSET_SIZE		(64U << 10)
#define GUARD_SIZE		4096
#define DST_OFF			(1U << 20)	/* readback area in the host buffer */
#define SRAM_OFF		(1U << 20)	/* from the first user SRAM byte */
#define HBM_OFF			(16U << 20)	/* from the first user HBM byte */
#define MEMSET_BYTE		0x5A
#define STALE_BYTE		0xEE
#define WAIT_US			(30ULL * 1000 * 1000)
#define RATE_SIZE		(16U << 20)	/* throughput transfers */
#define RATE_HBM_OFF		(64U << 20)

static int card;
static long expect_module_id = -1;

/* ---- ioctl wrappers (and tests/lib/hl_ioctl.h): 0 or -errno ---------- */

/* Submits one CB on one queue; returns 0 and the sequence, or -errno. */
static int cs_submit(int fd, uint64_t cb_handle, uint32_t cb_len,
		     uint32_t queue, uint64_t *seq)
{
	struct hl_cs_chunk chunk;
	union hl_cs_args args;
	int rc;

	memset(&chunk, 0, sizeof(chunk));
	chunk.cb_handle = cb_handle;
	chunk.queue_index = queue;
	chunk.cb_size = cb_len;
	memset(&args, 0, sizeof(args));
	args.in.chunks_execute = (uintptr_t)&chunk;
	args.in.num_chunks_execute = 1;
	rc = xioctl(fd, DRM_IOCTL_HL_CS, &args);
	if (!rc && args.out.status != HL_CS_STATUS_SUCCESS)
		rc = -EIO;
	*seq = rc ? 0 : args.out.seq;
	return rc;
}

static int cs_wait(int fd, uint64_t seq, uint32_t *status)
{
	return wait_cs(fd, seq, WAIT_US, status, NULL);
}

/* ---- packet encoding -------------------------------------------------- */

/* MSG_PROT {u32 value; u32 ctl; u64 addr}: 16 bytes, kernel-only. */
static size_t pkt_msg_prot(uint8_t *cb, size_t off, uint32_t value,
			   uint64_t addr)
{
	put32(cb + off, value);
	put32(cb + off + 4, HL_PKT_CTL(PKT_MSG_PROT) | PKT_CTL_MB);
	put64(cb + off + 8, addr);
	return off + 16;
}

/* WREG_BULK {u32 size64; u32 ctl (reg offset 23:8); u64 values[]}. */
static size_t pkt_wreg_bulk(uint8_t *cb, size_t off, uint32_t reg,
			    uint64_t value)
{
	put32(cb + off, 1);
	put32(cb + off + 4, HL_PKT_CTL(PKT_WREG_BULK) |
			    ((reg & 0xFFFF) << 8));
	put64(cb + off + 8, value);
	return off + 16;
}

/* ---- checks ------------------------------------------------------------ */

static uint64_t rng_state;

static uint8_t rng_byte(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint8_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 56);
}

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v, size_t *bad)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] != v) {
			*bad = i;
			return false;
		}
	}
	return true;
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return n;
}

static void check_hw_ip(int fd, struct hl_info_hw_ip_info *hw)
{
	memset(hw, 0, sizeof(*hw));
	if (!ok_eq(hl_info(fd, HL_INFO_HW_IP_INFO, hw, sizeof(*hw)), 0,
		   "INFO HW_IP_INFO"))
		return;
	ok_eq(hw->device_id, GAUDI_PCI_DEVICE, "hw_ip.device_id is Gaudi (0x1000)");
	ok_eq(hw->dram_base_address, GAUDI_DRAM_USER_START,
	      "hw_ip.dram_base_address is the first user HBM byte");
	ok_eq(hw->dram_base_address + hw->dram_size, GAUDI_HBM_SIZE,
	      "hw_ip.dram_base_address + dram_size = 32 GiB of HBM");
	ok(hw->dram_enabled == 1, "hw_ip.dram_enabled");
	ok_eq(hw->sram_base_address,
	      GAUDI_SRAM_BASE + GAUDI_DRIVER_SRAM_RESERVED_SIZE_FROM_START,
	      "hw_ip.sram_base_address is above the driver's SRAM");
	ok_eq(hw->sram_size,
	      GAUDI_SRAM_SIZE - GAUDI_DRIVER_SRAM_RESERVED_SIZE_FROM_START,
	      "hw_ip.sram_size is 20 MiB minus the driver's part");
	hw->cpucp_version[sizeof(hw->cpucp_version) - 1] = 0;
	hw->card_name[sizeof(hw->card_name) - 1] = 0;
	ok(hw->cpucp_version[0] != 0, "hw_ip.cpucp_version is set ('%s')",
	   (char *)hw->cpucp_version);
	ok(hw->card_name[0] != 0, "hw_ip.card_name is set ('%s')",
	   (char *)hw->card_name);
	if (expect_module_id >= 0)
		ok_eq(hw->module_id, expect_module_id,
		      "hw_ip.module_id is the card's module-id");
	else
		ok(hw->module_id < 8, "hw_ip.module_id %u is 0..7",
		   hw->module_id);
}

static void check_status(int fd)
{
	struct hl_info_device_status st = { .status = ~0U };
	struct hl_info_hw_idle idle = { .is_idle = 0xdead };

	if (ok_eq(hl_info(fd, HL_INFO_DEVICE_STATUS, &st, sizeof(st)), 0,
		  "INFO DEVICE_STATUS"))
		ok_eq(st.status, HL_DEVICE_STATUS_OPERATIONAL,
		      "device status is operational");
	if (ok_eq(hl_info(fd, HL_INFO_HW_IDLE, &idle, sizeof(idle)), 0,
		  "INFO HW_IDLE")) {
		ok_eq(idle.is_idle, 1, "device is idle");
		ok_eq(idle.busy_engines_mask, 0, "no busy engines");
	}
}

static void check_dram_usage(int fd, const struct hl_info_hw_ip_info *hw)
{
	struct hl_info_dram_usage du;

	memset(&du, 0xff, sizeof(du));
	if (!ok_eq(hl_info(fd, HL_INFO_DRAM_USAGE, &du, sizeof(du)), 0,
		   "INFO DRAM_USAGE"))
		return;
	/* Gaudi 1 has no device memory allocation: all user HBM is free. */
	ok_eq(du.dram_free_mem, hw->dram_size,
	      "dram_free_mem is all user HBM");
	ok_eq(du.ctx_dram_mem, 0, "ctx_dram_mem is 0");
}

static void check_clk_energy_pci(int fd)
{
	struct hl_info_clk_rate clk = { 0 };
	struct hl_info_energy e1 = { 0 }, e2 = { 0 };
	struct hl_info_pci_counters pci;

	if (ok_eq(hl_info(fd, HL_INFO_CLK_RATE, &clk, sizeof(clk)), 0,
		  "INFO CLK_RATE")) {
		ok(clk.max_clk_rate_mhz > 0 &&
		   clk.max_clk_rate_mhz <= GAUDI_MAX_CLK_MHZ,
		   "max clock %u MHz in 1..%u", clk.max_clk_rate_mhz,
		   GAUDI_MAX_CLK_MHZ);
		ok(clk.cur_clk_rate_mhz > 0 &&
		   clk.cur_clk_rate_mhz <= clk.max_clk_rate_mhz,
		   "current clock %u MHz in 1..max", clk.cur_clk_rate_mhz);
	}
	if (ok_eq(hl_info(fd, HL_INFO_TOTAL_ENERGY, &e1, sizeof(e1)), 0,
		  "INFO TOTAL_ENERGY")) {
		ok(e1.total_energy_consumption > 0,
		   "energy consumed since power-on is positive (%llu)",
		   (unsigned long long)e1.total_energy_consumption);
		usleep(200 * 1000);
		ok(hl_info(fd, HL_INFO_TOTAL_ENERGY, &e2, sizeof(e2)) == 0 &&
		   e2.total_energy_consumption >= e1.total_energy_consumption,
		   "energy counter is monotonic (%llu -> %llu)",
		   (unsigned long long)e1.total_energy_consumption,
		   (unsigned long long)e2.total_energy_consumption);
	}
	memset(&pci, 0xff, sizeof(pci));
	if (ok_eq(hl_info(fd, HL_INFO_PCI_COUNTERS, &pci, sizeof(pci)), 0,
		  "INFO PCI_COUNTERS")) {
		/* An emulated link never replays; throughput is KB/s and
		 * bounded by PCIe Gen4 x16 (about 32 GB/s).
		 */
		ok_eq(pci.replay_cnt, 0, "PCIe replay count is 0");
		ok(pci.rx_throughput < (64ULL << 20) &&
		   pci.tx_throughput < (64ULL << 20),
		   "PCIe throughput plausible (rx %llu, tx %llu KB/s)",
		   (unsigned long long)pci.rx_throughput,
		   (unsigned long long)pci.tx_throughput);
	}
}

static void check_bad_info(int fd)
{
	struct hl_info_args args;
	uint8_t buf[64];

	memset(&args, 0, sizeof(args));
	args.return_pointer = (uintptr_t)buf;
	args.return_size = sizeof(buf);
	args.op = HL_INFO_HW_IP_INFO;
	args.pad = 1;
	ok_eq(xioctl(fd, DRM_IOCTL_HL_INFO, &args), -EINVAL,
	      "INFO with non-zero pad fails with EINVAL");
	ok_eq(hl_info(fd, HL_INFO_HW_IP_INFO, NULL, 64), -EINVAL,
	      "INFO with a NULL buffer fails with EINVAL");
	ok_eq(hl_info(fd, HL_INFO_HW_IP_INFO, buf, 0), -EINVAL,
	      "INFO with size 0 fails with EINVAL");
}

static int open_node(const char *fmt)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), fmt, card);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (!ok(fd >= 0, "open %s", path))
		tap_diag("open %s: %s", path, strerror(errno));
	return fd;
}

/* ---- modes ------------------------------------------------------------- */

static void run_control(void)
{
	struct hl_info_hw_ip_info hw;
	union hl_cb_args cb;
	int fd;

	tap_diag("control node of card %d", card);
	fd = open_node("/dev/accel/accel_controlD%d");
	if (fd < 0)
		return;
	check_hw_ip(fd, &hw);
	check_status(fd);
	check_dram_usage(fd, &hw);
	check_clk_energy_pci(fd);
	check_bad_info(fd);
	memset(&cb, 0, sizeof(cb));
	cb.in.op = HL_CB_OP_CREATE;
	cb.in.cb_size = CB_SIZE;
	ok_eq(xioctl(fd, DRM_IOCTL_HL_CB, &cb), -ENOTTY,
	      "CB ioctl on the control node fails with ENOTTY");
	ok_eq(close(fd), 0, "close control node");
}

/* host->SRAM->HBM->host copy plus a memset, in one CS on DMA_0_0. */
static void run_dma(int fd, const struct hl_info_hw_ip_info *hw, uint8_t *cb,
		    uint64_t cb_handle, uint8_t *host, uint64_t va)
{
	uint64_t sram = hw->sram_base_address + SRAM_OFF;
	uint64_t hbm = hw->dram_base_address + HBM_OFF;
	uint8_t *src = host, *dst = host + DST_OFF;
	uint32_t status = ~0U;
	uint64_t seq = 0;
	size_t len = 0, bad = 0;
	int rc;

	for (size_t i = 0; i < XFER_SIZE; i++)
		src[i] = rng_byte();
	memset(dst, STALE_BYTE, XFER_SIZE + MEMSET_SIZE + GUARD_SIZE);

	memset(cb, 0, CB_SIZE);
	len = pkt_lin_dma(cb, len, va, sram, XFER_SIZE, false, false);
	len = pkt_lin_dma(cb, len, sram, hbm, XFER_SIZE, false, true);
	len = pkt_lin_dma(cb, len, hbm, va + DST_OFF, XFER_SIZE, false, true);
	len = pkt_lin_dma(cb, len, 0x0101010101010101ULL * MEMSET_BYTE,
			  va + DST_OFF + XFER_SIZE, MEMSET_SIZE, true, true);

	rc = cs_submit(fd, cb_handle, len, GAUDI_QUEUE_ID_DMA_0_0, &seq);
	ok_eq(rc, 0, "CS with 4 LIN_DMA packets on DMA_0_0 submitted");
	if (rc)
		return;
	ok(seq != 0 && seq != ~0ULL, "CS sequence %llu is valid",
	   (unsigned long long)seq);
	rc = cs_wait(fd, seq, &status);
	ok_eq(rc, 0, "WAIT_CS returns 0");
	ok_eq(status, HL_WAIT_CS_STATUS_COMPLETED, "CS completed");

	bad = first_diff(src, dst, XFER_SIZE);
	if (!ok_eq(bad, XFER_SIZE,
		   "host->SRAM->HBM->host copy of %u random bytes is exact",
		   XFER_SIZE))
		tap_diag("first difference at byte %zu: 0x%02x != 0x%02x",
			 bad, dst[bad], src[bad]);
	ok(all_bytes(dst + XFER_SIZE, MEMSET_SIZE, MEMSET_BYTE, &bad),
	   "LIN_DMA memset wrote %u bytes of 0x%02x", MEMSET_SIZE,
	   MEMSET_BYTE);
	ok(all_bytes(dst + XFER_SIZE + MEMSET_SIZE, GUARD_SIZE, STALE_BYTE,
		     &bad), "bytes after the transfers are untouched");
}

static void run_forbidden(int fd, uint8_t *cb, uint64_t cb_handle,
			  uint64_t va)
{
	struct hl_info_cs_counters c0, c1;
	uint64_t seq;
	size_t len;

	memset(&c0, 0, sizeof(c0));
	memset(&c1, 0, sizeof(c1));
	ok_eq(hl_info(fd, HL_INFO_CS_COUNTERS, &c0, sizeof(c0)), 0,
	      "INFO CS_COUNTERS");

	/* upstream gaudi_validate_cb(): user MSG_PROT / WREG_BULK -> -EPERM */
	memset(cb, 0, CB_SIZE);
	len = pkt_msg_prot(cb, 0, 0x12345678, va + DST_OFF);
	ok_eq(cs_submit(fd, cb_handle, len, GAUDI_QUEUE_ID_DMA_0_0, &seq),
	      -EPERM, "CS with MSG_PROT on an external queue fails with EPERM");
	memset(cb, 0, CB_SIZE);
	len = pkt_wreg_bulk(cb, 0, DMA_QM_OFFSET, 0);
	ok_eq(cs_submit(fd, cb_handle, len, GAUDI_QUEUE_ID_DMA_0_0, &seq),
	      -EPERM,
	      "CS with WREG_BULK on an external queue fails with EPERM");

	if (ok_eq(hl_info(fd, HL_INFO_CS_COUNTERS, &c1, sizeof(c1)), 0,
		  "INFO CS_COUNTERS after the rejected CSs"))
		ok_eq(c1.ctx_parsing_drop_cnt - c0.ctx_parsing_drop_cnt, 2,
		      "both rejections counted as parsing drops");
}

/* After the rejections the context must still work. */
static void run_memset_again(int fd, uint8_t *cb, uint64_t cb_handle,
			     uint8_t *host, uint64_t va)
{
	uint32_t status = ~0U;
	uint64_t seq = 0;
	size_t len, bad = 0;

	memset(host, STALE_BYTE, 2 * GUARD_SIZE);
	memset(cb, 0, CB_SIZE);
	len = pkt_lin_dma(cb, 0, 0xA7A7A7A7A7A7A7A7ULL, va, GUARD_SIZE, true,
			  false);
	if (!ok_eq(cs_submit(fd, cb_handle, len, GAUDI_QUEUE_ID_DMA_0_0, &seq),
		   0, "a valid CS after the rejected ones is accepted"))
		return;
	ok(cs_wait(fd, seq, &status) == 0 &&
	   status == HL_WAIT_CS_STATUS_COMPLETED, "and completes");
	ok(all_bytes(host, GUARD_SIZE, 0xA7, &bad) &&
	   all_bytes(host + GUARD_SIZE, GUARD_SIZE, STALE_BYTE, &bad),
	   "memset of exactly 4 KiB of 0xA7");
}


static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One LIN_DMA CS, submitted and waited for; returns seconds or -1. */
static double timed_lin_dma(int fd, uint8_t *cb, uint64_t cb_handle,
			    uint64_t src, uint64_t dst, uint32_t size)
{
	uint32_t status = ~0U;
	uint64_t seq = 0;
	size_t len;
	double t0;

	len = pkt_lin_dma(cb, 0, src, dst, size, false, false);
	t0 = now_s();
	if (cs_submit(fd, cb_handle, len, GAUDI_QUEUE_ID_DMA_0_0, &seq) ||
	    cs_wait(fd, seq, &status) || status != HL_WAIT_CS_STATUS_COMPLETED)
		return -1;
	return now_s() - t0;
}

/*
 * LIN_DMA throughput host->HBM and HBM->host next to memcpy of the same
 * size in this guest: a report for the model's "DMA at host memory speed"
 * claim (numbers are TCG guest time, comparable within one run only).
 */
static void run_dma_rate(int fd, const struct hl_info_hw_ip_info *hw,
			 uint8_t *cb, uint64_t cb_handle)
{
	uint64_t hbm = hw->dram_base_address + RATE_HBM_OFF, va = 0;
	double t_to = -1, t_from = -1, t_cpy;
	uint8_t *buf = NULL, *copy;
	size_t i;

	if (!ok_eq(posix_memalign((void **)&buf, HOST_BUF_SIZE, 2 * RATE_SIZE),
		   0, "allocate 2 x %u MiB for the throughput run",
		   RATE_SIZE >> 20))
		return;
	copy = buf + RATE_SIZE;
	for (i = 0; i < RATE_SIZE; i++)
		buf[i] = rng_byte();
	memset(copy, STALE_BYTE, RATE_SIZE);
	if (!ok_eq(map_host(fd, buf, 2 * RATE_SIZE, &va), 0,
		   "MEMORY MAP of the throughput buffers"))
		goto out;
	/* The first touch of sparse HBM allocates it: warm up once. */
	timed_lin_dma(fd, cb, cb_handle, va, hbm, RATE_SIZE);
	t_to = timed_lin_dma(fd, cb, cb_handle, va, hbm, RATE_SIZE);
	t_from = timed_lin_dma(fd, cb, cb_handle, hbm, va + RATE_SIZE,
			       RATE_SIZE);
	ok(t_to > 0 && t_from > 0, "%u MiB LIN_DMA host->HBM and HBM->host",
	   RATE_SIZE >> 20);
	ok_eq(first_diff(buf, copy, RATE_SIZE), RATE_SIZE,
	      "%u MiB round trip through HBM is exact", RATE_SIZE >> 20);
	ok_eq(unmap_host(fd, va), 0, "MEMORY UNMAP of the throughput buffers");

	memset(copy, 0, RATE_SIZE);
	t_cpy = now_s();
	memcpy(copy, buf, RATE_SIZE);
	t_cpy = now_s() - t_cpy;
	if (t_to > 0 && t_from > 0 && t_cpy > 0) {
		double mb = RATE_SIZE / 1e6;

		tap_diag("LIN_DMA host->HBM %.0f MB/s, HBM->host %.0f MB/s, "
			 "guest memcpy %.0f MB/s (DMA/memcpy %.2f and %.2f)",
			 mb / t_to, mb / t_from, mb / t_cpy, t_cpy / t_to,
			 t_cpy / t_from);
	}
out:
	free(buf);
}

static void run_compute(void)
{
	struct hl_info_hw_ip_info hw;
	struct hl_open_stats_info os;
	uint64_t cb_handle = 0, va = 0;
	uint8_t *cb = MAP_FAILED;
	void *host = NULL;
	char path[64];
	int fd, fd2;

	tap_diag("compute node of card %d", card);
	fd = open_node("/dev/accel/accel%d");
	if (fd < 0)
		return;

	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	fd2 = open(path, O_RDWR | O_CLOEXEC);
	ok(fd2 < 0 && errno == EBUSY,
	   "a second open of the compute node fails with EBUSY");
	if (fd2 >= 0)
		close(fd2);

	check_hw_ip(fd, &hw);
	check_status(fd);
	check_dram_usage(fd, &hw);
	check_clk_energy_pci(fd);
	check_bad_info(fd);
	memset(&os, 0, sizeof(os));
	if (ok_eq(hl_info(fd, HL_INFO_OPEN_STATS, &os, sizeof(os)), 0,
		  "INFO OPEN_STATS"))
		ok_eq(os.is_compute_ctx_active, 1, "compute context is active");

	/* Command buffer, mapped into this process. */
	if (!ok_eq(cb_create(fd, CB_SIZE, 0, &cb_handle), 0, "CB create (4 KiB)"))
		goto out_close;
	ok(cb_handle != 0, "CB handle is non-zero");
	cb = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  (off_t)cb_handle);
	if (!ok(cb != MAP_FAILED, "mmap the CB at its handle")) {
		tap_diag("mmap: %s", strerror(errno));
		goto out_cb;
	}

	/* Host buffer, mapped into the device MMU. */
	if (!ok_eq(posix_memalign(&host, HOST_BUF_SIZE, HOST_BUF_SIZE), 0,
		   "allocate a 2 MiB aligned host buffer"))
		goto out_munmap;
	memset(host, 0, HOST_BUF_SIZE);
	if (!ok_eq(map_host(fd, host, HOST_BUF_SIZE, &va), 0,
		   "MEMORY MAP of the host userptr buffer"))
		goto out_free;
	ok(va >= GAUDI_VA_HOST_START && va + HOST_BUF_SIZE <= GAUDI_VA_HOST_END,
	   "device VA 0x%llx is in the host VA range",
	   (unsigned long long)va);

	run_dma(fd, &hw, cb, cb_handle, host, va);
	run_forbidden(fd, cb, cb_handle, va);
	run_memset_again(fd, cb, cb_handle, host, va);
	run_dma_rate(fd, &hw, cb, cb_handle);
	check_status(fd);

	ok_eq(unmap_host(fd, va), 0, "MEMORY UNMAP");
	ok_eq(unmap_host(fd, va), -EINVAL, "second UNMAP fails with EINVAL");
out_free:
	free(host);
out_munmap:
	ok_eq(munmap(cb, CB_SIZE), 0, "munmap the CB");
out_cb:
	ok_eq(cb_destroy(fd, cb_handle), 0, "CB destroy");
	ok_eq(cb_destroy(fd, cb_handle), -EINVAL,
	      "second CB destroy fails with EINVAL");
out_close:
	ok_eq(close(fd), 0, "close compute node");
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hl_upstream_test --control|--compute [--card N] [--module-id M]\n"
		"  --control      INFO queries on /dev/accel/accel_controlD<N>\n"
		"  --compute      INFO, CB, MEMORY, CS and WAIT_CS on /dev/accel/accel<N>\n"
		"  --card N       card index (default 0)\n"
		"  --module-id M  expect hw_ip.module_id == M\n"
		"Prints TAP; exit status 0 when every check passed.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "control", no_argument, NULL, 'c' },
		{ "compute", no_argument, NULL, 'C' },
		{ "card", required_argument, NULL, 'n' },
		{ "module-id", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int mode = 0, opt;
	char *end;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
		case 'C':
			mode = opt;
			break;
		case 'n':
			card = (int)strtol(optarg, &end, 0);
			if (*end || card < 0) {
				fprintf(stderr, "hl_upstream_test: bad card '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'm':
			expect_module_id = strtol(optarg, &end, 0);
			if (*end || expect_module_id < 0) {
				fprintf(stderr,
					"hl_upstream_test: bad module id '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!mode || optind != argc) {
		usage(stderr);
		return 2;
	}

	rng_state = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^
		    0x9E3779B97F4A7C15ULL;
	tap_diag("random seed 0x%llx", (unsigned long long)rng_state);

	if (mode == 'c')
		run_control();
	else
		run_compute();
	return tap_done();
}
