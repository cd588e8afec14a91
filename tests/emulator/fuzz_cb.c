// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the packet executor: arbitrary bytes run as a
 * command buffer on a queue, the way a guest's CB reaches the device.
 *   make -C tests/emulator fuzz
 *   mkdir -p corpus && build/tests/emulator/fuzz/fuzz_cb -max_len=4096 corpus
 * Byte 0 picks the queue (external DMA, internal DMA, MME, TPC) and, with
 * bit 3, the asynchronous mode (steps on the fake scheduler interleaved
 * with the register writes, then drained); the rest is the CB.  A copy of it also sits in SRAM and at a VA mapped through the
 * MMU, so CP_DMA, LIN_DMA and the MMU walk find guest-controlled data.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cbgen.h"

#define PQ_BUS		0x10000ULL
#define CB_BUS		0x100000ULL
#define MAX_CB		(64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned int qids[] = { 0, 5, 9, 30, 33, 40, 41, 72 };

/* Drop what the previous input wrote: keeps runs independent and small. */
static void forget(struct fakebus *fb)
{
	madvise(fb->host, FAKE_HOST_SIZE, MADV_DONTNEED);
	madvise(fb->sram, GAUDI_BAR0_SIZE, MADV_DONTNEED);
	madvise(fb->hbm, FAKE_HBM_SIZE, MADV_DONTNEED);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fakebus fbs[2];
	static struct gaudi_core *gs[2];
	struct fakebus *fbp;
	struct gaudi_core *g;
	struct queue q;
	unsigned int f, async;
	uint64_t hop0 = 0x10000000, pte;

	if (!gs[0]) {
		gs[0] = fakebus_new(&fbs[0]);
		gs[1] = fakebus_new_async(&fbs[1],
					  GAUDI_DEFAULT_PACKET_LATENCY_NS,
					  GAUDI_DEFAULT_DMA_BANDWIDTH_MBPS);
	}
	if (!size)
		return 0;
	async = (data[0] >> 3) & 1;
	g = gs[async];
	fbp = &fbs[async];
#define fb (*fbp)
	gaudi_core_reset(g);
	forget(&fb);
	g->id.test_hooks = true;

	q = q_setup(&fb, qids[data[0] % GAUDI_ARRAY_SIZE(qids)], PQ_BUS, 4);
	data++;
	size--;
	if (size > MAX_CB)
		size = MAX_CB;
	memcpy(fb.host + CB_BUS, data, size);
	memcpy(fb.sram, data, size);

	/* ASID 1: VA 0x1_0000_0000_0000 -> the CB (a 2 MiB page in HBM). */
	gaudi_cfg_write(g, mmMMU_UP_MMU_ASID, 1);
	gaudi_cfg_write(g, mmMMU_UP_MMU_HOP0_PA43_12, hop0 >> 12);
	gaudi_cfg_write(g, mmMMU_UP_MMU_BUSY, 0x80000000);
	pte = (hop0 + 0x1000) | 1;
	memcpy(fb.hbm + hop0 + 8, &pte, 8);		/* hop0[1] */
	pte = (hop0 + 0x2000) | 1;
	memcpy(fb.hbm + hop0 + 0x1000, &pte, 8);
	pte = (hop0 + 0x3000) | 1;
	memcpy(fb.hbm + hop0 + 0x2000, &pte, 8);
	pte = 0x20000000 | (1 << 11) | 1;
	memcpy(fb.hbm + hop0 + 0x3000, &pte, 8);
	memcpy(fb.hbm + 0x20000000, data, size);
	gaudi_cfg_write(g, q.base + QM_GLBL_NON_SECURE_PROPS(0) + 4 * q.s, 1);
	gaudi_cfg_write(g, mmDMA0_CORE_BASE + DMA_CORE_NON_SECURE_PROPS, 1);

	q_submit_dev(&q, fake_host_dev(CB_BUS), size);
	if (async)
		fake_advance(&fb, 1000, 4);
	/* Release whatever FENCE it waits in, then run it once more. */
	for (f = 0; f < 4; f++)
		gaudi_cfg_write(g, q_fence_rdata(&q, f), 1);
	if (async)
		fake_advance(&fb, 100000, 4);
	q_restart(&q);
	q_submit_dev(&q, 0x1000000000000ULL, size);
	if (async)
		fake_drain(&fb, 1000);
	return 0;
#undef fb
}
