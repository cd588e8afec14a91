// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model alone (issue 24, "the model never the bottleneck"): how many
 * command submissions per second the device model sustains when the
 * driver path costs nothing.  The engines of emulator/core run on the
 * host, in their asynchronous mode (the default of the QEMU device, with
 * its default packet latency and DMA bandwidth), on a bus whose clock is
 * the host's monotonic clock: a step requested for time t runs once the
 * clock passes t, as QEMU's timer would run it.  A "driver" keeps
 * INFLIGHT submissions in flight on one queue of DMA 0, each a PQ entry
 * and a doorbell for a CB of one NOP and the two completion messages a
 * driver's job ends with (the CQ entry in host memory, then the MSI
 * request), and counts the CQ entries as they land.
 *
 *   model_bench [CS [INFLIGHT]]     default 200000 CS, 1000 in flight
 *
 * Prints "BENCH model_cs <CS/s>" and the steps and wake-up requests it
 * took per CS.  Built and run by tests/bench/run-bench.sh (-O2, no
 * sanitizers), between the VM runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cbgen.h"

#define PQ_BUS  0x10000ULL   /* the PQ: 1024 BDs */
#define PQ_LOG2  10
#define CQ_BUS  0x20000ULL   /* the CQ: one 32-bit word per PQ slot */
#define CB_BUS  0x100000ULL  /* one CB per PQ slot, 64 bytes apart */
#define CB_STRIDE 64

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The CB of PQ slot i: NOP, CQ entry (seq), MSI request; its length. */
static uint32_t build_cb(struct fakebus *fb, unsigned int i, uint32_t seq)
{
	struct cb c = cb_at(fb, CB_BUS + (uint64_t)i * CB_STRIDE);

	cb_nop(&c);
	cb_msg_prot(&c, fake_host_dev(CQ_BUS + 4ULL * i), seq);
	cb_msg_prot(&c, GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ, 1);
	return c.len;
}

int main(int argc, char **argv)
{
	unsigned long total = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000;
	unsigned long inflight = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;
	unsigned long sent = 0, done = 0, slots = 1UL << PQ_LOG2;
	struct fakebus fb;
	struct gaudi_core *g;
	struct queue q;
	uint64_t t0, t1;
	unsigned int steps0;
	double secs;

	if (!total || !inflight || inflight > slots) {
		fprintf(stderr, "model_bench: CS >= 1, 1 <= INFLIGHT <= %lu\n",
			slots);
		return 2;
	}
	g = fakebus_new_async(&fb, GAUDI_DEFAULT_PACKET_LATENCY_NS,
			      GAUDI_DEFAULT_DMA_BANDWIDTH_MBPS);
	q = q_setup(&fb, 0, PQ_BUS, PQ_LOG2);
	steps0 = fb.steps;
	t0 = mono_ns();
	while (done < total) {
		uint32_t cq;

		fb.now = mono_ns() - t0;
		if (fb.sched_pending && fb.sched_at <= fb.now) {
			fb.sched_pending = false;
			fb.steps++;
			gaudi_core_run(g);
		}
		/* Completions, in order (a CQ word holds its CS's number). */
		while (done < sent) {
			memcpy(&cq, fb.host + CQ_BUS + 4 * (done % slots), 4);
			if (cq != (uint32_t)done + 1)
				break;
			done++;
		}
		/* Refill: one BD and one doorbell per CS, as a driver does. */
		while (sent < total && sent - done < inflight) {
			unsigned int i = sent % slots;
			uint32_t len = build_cb(&fb, i, (uint32_t)sent + 1);

			fb.now = mono_ns() - t0;
			q_submit_dev(&q, fake_host_dev(CB_BUS +
						       (uint64_t)i * CB_STRIDE),
				     len);
			sent++;
		}
		if (q_sts1(&q)) {
			fprintf(stderr, "model_bench: queue error 0x%x\n",
				q_sts1(&q));
			return 1;
		}
	}
	t1 = mono_ns();
	secs = (t1 - t0) / 1e9;
	printf("BENCH model_cs %.0f\n", total / secs);
	printf("# model_bench: %lu CS, %lu in flight, %.3f s, %.2f steps/CS, "
	       "%.2f wake-up requests/CS, %u MSIs\n", total, inflight, secs,
	       (double)(fb.steps - steps0) / total,
	       (double)fb.sched_calls / total, fb.msi_count);
	fakebus_free(&fb);
	return 0;
}
