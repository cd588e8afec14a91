/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helpers for the control plane: load the firmware images built by
 * firmware/, run the static boot as upstream habanalabs does, set up the
 * device-CPU queues in fake host memory and send CPU-CP packets.
 */
#ifndef GAUDI_FWBOOT_H
#define GAUDI_FWBOOT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakebus.h"

#ifndef GAUDI_FW_DIR
#error "build with -DGAUDI_FW_DIR=<dir of gaudi-fit.itb>"
#endif

/* Host (bus) addresses of the driver's buffers in fake host memory. */
#define H_PQ		0x100000ULL	/* 64 KiB: 4096 descriptors */
#define H_EQ		0x200000ULL	/* 4 KiB: 64 entries */
#define H_CQ		0x400000ULL	/* 2 MiB */
#define H_PKT		0x800000ULL	/* CPU-CP packets */
#define H_DATA		0x900000ULL	/* reply buffers */
#define PQ_LEN		0x10000U
#define EQ_LEN		0x1000U
#define CQ_LEN		0x200000U

/*
 * A "CPU-accessible" address: the device address (bus + HOST_PHYS_BASE)
 * with bits 49:39 folded to bit 39; the real bits 49:39 go to
 * CPU_MSB_ADDR, which is 1 for bus addresses below 512 GiB.
 */
static inline uint64_t cpu_addr(uint64_t bus)
{
	return (bus & ((1ULL << 39) - 1)) | (1ULL << 39);
}

static inline uint8_t *load_file(const char *name, size_t *len)
{
	char path[512];
	uint8_t *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", GAUDI_FW_DIR, name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "Bail out! %s missing (make -C firmware)\n",
			path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	if (!buf || fread(buf, 1, n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = n;
	return buf;
}

static inline void wr(struct gaudi_core *g, uint32_t off, uint32_t v)
{
	gaudi_cfg_write(g, off, v);
}

static inline uint32_t rd(struct gaudi_core *g, uint32_t off)
{
	return gaudi_cfg_read(g, off);
}

/*
 * The static firmware load (hw/gaudi1/boot.h), as upstream runs it.
 * Returns the final CPU_BOOT_STATUS.
 */
static inline uint32_t boot_with(struct fakebus *fb, const uint8_t *bootfit,
				 size_t blen, const uint8_t *fit, size_t flen)
{
	struct gaudi_core *g = fb->g;

	if (rd(g, mmCPU_BOOT_STATUS) != CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT)
		return rd(g, mmCPU_BOOT_STATUS);
	memcpy(fb->sram + 0x200000, bootfit, blen);
	wr(g, mmCPU_CMD_STATUS_TO_HOST, 0);
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_FIT_RDY);
	if (rd(g, mmCPU_CMD_STATUS_TO_HOST) != CPU_MSG_OK)
		return rd(g, mmCPU_BOOT_STATUS);
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_NA);
	if (rd(g, mmCPU_BOOT_STATUS) != CPU_BOOT_STATUS_READY_TO_BOOT)
		return rd(g, mmCPU_BOOT_STATUS);
	memcpy(fb->hbm + 0x800000, fit, flen);
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_FIT_RDY);
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_NA);
	return rd(g, mmCPU_BOOT_STATUS);
}

static inline uint32_t boot_card(struct fakebus *fb)
{
	size_t blen, flen;
	uint8_t *b = load_file("gaudi-boot-fit.itb", &blen);
	uint8_t *f = load_file("gaudi-fit.itb", &flen);
	uint32_t st = boot_with(fb, b, blen, f, flen);

	free(b);
	free(f);
	return st;
}

/* Program the CPU queues as gaudi_init_cpu_queues() does; QUEUE_INIT. */
static inline uint32_t queues_init_with(struct fakebus *fb, uint64_t pq,
					uint32_t pq_len, uint64_t eq,
					uint32_t eq_len)
{
	struct gaudi_core *g = fb->g;

	wr(g, mmCPU_IF_CPU_MSB_ADDR,
	   (uint32_t)(fake_host_dev(0) >> 39));
	wr(g, mmCPU_IF_PQ_BASE_ADDR_LOW, (uint32_t)pq);
	wr(g, mmCPU_IF_PQ_BASE_ADDR_HIGH, pq >> 32);
	wr(g, mmCPU_IF_CQ_BASE_ADDR_LOW, (uint32_t)cpu_addr(H_CQ));
	wr(g, mmCPU_IF_CQ_BASE_ADDR_HIGH, cpu_addr(H_CQ) >> 32);
	wr(g, mmCPU_IF_EQ_BASE_ADDR_LOW, (uint32_t)eq);
	wr(g, mmCPU_IF_EQ_BASE_ADDR_HIGH, eq >> 32);
	wr(g, mmCPU_IF_PQ_LENGTH, pq_len);
	wr(g, mmCPU_IF_EQ_LENGTH, eq_len);
	wr(g, mmCPU_IF_CQ_LENGTH, CQ_LEN);
	wr(g, mmCPU_IF_EQ_RD_OFFS, 0);
	wr(g, mmCPU_IF_PF_PQ_PI, 0);
	wr(g, mmCPU_IF_QUEUE_INIT, PQ_INIT_STATUS_READY_FOR_CP_SINGLE_MSI);
	return rd(g, mmCPU_IF_QUEUE_INIT);
}

static inline uint32_t queues_init(struct fakebus *fb)
{
	return queues_init_with(fb, cpu_addr(H_PQ), PQ_LEN, cpu_addr(H_EQ),
				EQ_LEN);
}

/* The driver's PQ producer index (runs modulo twice the length). */
static uint32_t test_pi;

struct pkt {
	uint64_t value;
	uint32_t ctl;
	uint32_t fence;
	uint32_t index;
	uint32_t port;
};

/*
 * Send a packet (the 24-byte header first; copy_len bytes of it put at
 * H_PKT) through a descriptor announcing len bytes, as
 * hl_fw_send_cpu_message() does.  Returns the return code
 * from ctl, or -1 if the fence never came.  *out gets the packet back.
 */
static inline int send_bd(struct fakebus *fb, const void *buf,
			  uint32_t copy_len, uint32_t len,
			  uint64_t pkt_cpu_addr,
			  struct pkt *out)
{
	struct gaudi_core *g = fb->g;
	uint8_t *p = fb->host + H_PKT;
	uint64_t bd_ptr = pkt_cpu_addr;
	uint32_t bd[4], idx = test_pi & (PQ_LEN / 16 - 1);
	struct pkt r;

	memcpy(p, buf, copy_len);
	((struct pkt *)p)->fence = 0xFFFFFFFF;
	bd[0] = (uint32_t)bd_ptr;
	bd[1] = bd_ptr >> 32;
	bd[2] = len;
	bd[3] = test_pi;
	memcpy(fb->host + H_PQ + 16 * idx, bd, sizeof(bd));
	test_pi = (test_pi + 1) & (2 * (PQ_LEN / 16) - 1);
	wr(g, mmCPU_IF_PF_PQ_PI, test_pi);
	wr(g, mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR, GAUDI_EVENT_PI_UPDATE);
	memcpy(&r, p, sizeof(r));
	if (out)
		*out = r;
	if (r.fence != CPUCP_PACKET_FENCE_VAL)
		return -1;
	return (r.ctl >> 12) & 0xF;
}

static inline int send_raw(struct fakebus *fb, const void *buf, uint32_t len,
			   uint64_t pkt_cpu_addr, struct pkt *out)
{
	return send_bd(fb, buf, len, len, pkt_cpu_addr, out);
}

static inline int send_pkt(struct fakebus *fb, uint32_t opcode,
			   uint64_t value, uint32_t index, uint64_t *result)
{
	struct pkt k = { .value = value, .ctl = opcode << 16, .index = index };
	struct pkt r;
	int rc = send_raw(fb, &k, sizeof(k), cpu_addr(H_PKT), &r);

	if (result)
		*result = r.value;
	return rc;
}

/* A card booted with the real images and its CPU queues up. */
static inline struct gaudi_core *ready_card(struct fakebus *fb)
{
	struct gaudi_core *g = fakebus_new(fb);

	test_pi = 0;
	if (boot_card(fb) != CPU_BOOT_STATUS_SRAM_AVAIL ||
	    queues_init(fb) != PQ_INIT_STATUS_READY_FOR_HOST) {
		fprintf(stderr, "Bail out! card did not come up\n");
		exit(1);
	}
	return g;
}

#endif /* GAUDI_FWBOOT_H */
