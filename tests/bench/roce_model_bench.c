// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE engine alone (issue 24, "RDMA in the model"): how many bytes per
 * second the NIC model of emulator/core moves by RDMA WRITE between two
 * cards when the wire and the driver cost nothing.  The two cards and
 * their cable are the unit tests' bed (tests/emulator/rocebed.h): a QP on
 * port 0 of card 0 to one on card 1, its send queue and buffers behind the
 * device MMU.  Each round posts the whole 256 KiB buffer four times as
 * WRITEs of at most 16380 bytes (64 WQEs, 1 MiB: libgaudi's WQE size and
 * what gaudi_roce_bench posts per doorbell), rings the doorbell and lets
 * the frames and ACKs cross until every WQE has completed.  The cards run
 * in the asynchronous mode: the steps they ask for run at once when asked
 * for the present, and when they only ask for a later time (a timer, not
 * frames, would move them on) the clock jumps there: a stall, counted
 * with the model time it waited.  The destination is compared with the source after
 * the last round.  A second figure is the
 * cost of an idle engine: gaudi_core_tick() on a card with no QP in
 * flight (what every step of the model pays).
 *
 *   roce_model_bench [MiB [direct]]     default 256 MiB moved
 *
 * "direct" delivers each frame inside the send that makes it (QEMU's hub
 * between the cards of one VM), else frames queue on the bed's cable.
 *
 * Prints "BENCH roce_model_mbps <MB/s>" (wall clock), "BENCH
 * roce_model_cpu_mbps <MB/s>" (per second of the process's CPU time, the
 * figure to compare on a shared machine) and "BENCH roce_idle_ns <ns per
 * tick>"; exits 1 if the bytes or completions are wrong.  Built and run by
 * hand or by tests/bench/roce-bench.sh (-O2, no sanitizers);
 * Documentation/howto/profiling.rst, "RDMA in the model".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocebed.h"

#define CHUNK 16380U
#define PASSES 4	/* the buffer 4 times per doorbell: 64 WQEs, 1 MiB */

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 256;
	uint64_t total = (uint64_t)mib << 20, moved = 0, waited = 0;
	uint64_t t0, t1, c0, c1;
	unsigned int idx = 0, cq = 0, rounds = 0, stalls = 0, i, n;
	static struct wire w;
	struct want want = { 0, 0, 0 };
	double secs;

	if (!mib) {
		fprintf(stderr, "roce_model_bench: MiB >= 1\n");
		return 2;
	}
	W = &w;
	async_cards = true;	/* the QEMU device's default mode */
	two_cards(0, NULL);
	if (argc > 2 && !strcmp(argv[2], "direct"))
		bed_direct();
	connect(0, 1, 1, RKEY, 0);
	fill(W->fb[0].hbm + BUF_HBM, BUF_SIZE, 1);
	n = (BUF_SIZE + CHUNK - 1) / CHUNK;
	t0 = clock_ns(CLOCK_MONOTONIC);
	c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	while (moved < total) {
		for (i = 0; i < n * PASSES; i++) {
			uint32_t off = (i % n) * CHUNK;
			uint32_t len = BUF_SIZE - off < CHUNK ?
				       (uint32_t)(BUF_SIZE - off) : CHUNK;

			post(1, idx, VA_BUF + off, VA_BUF + off, len, -1);
			idx = (idx + 1) % SQ_ENTRIES;
		}
		doorbell(0, 1, idx);
		cq += n * PASSES;
		want.n = cq;
		/*
		 * Frames cross; a step each card asked for at this time runs
		 * (as QEMU's timer would); when only later steps are asked
		 * for, the cards wait for a timer: a stall, and the time
		 * jumps to it.
		 */
		for (i = 0; i < 100000; i++) {
			struct fakebus *a = &W->fb[0], *b = &W->fb[1], *f;

			wire_run();
			if (cq_reached(&want))
				break;
			f = a->sched_pending && (!b->sched_pending ||
						 a->sched_at <= b->sched_at) ?
			    a : b->sched_pending ? b : NULL;
			if (!f)
				break;	/* nothing will happen: reported below */
			if (f->sched_at > f->now) {
				stalls++;
				waited += f->sched_at - f->now;
				a->now = b->now = f->sched_at;
			}
			f->sched_pending = false;
			gaudi_core_run(f->g);
		}
		if (cq_pi(0, 0) != cq) {
			fprintf(stderr, "roce_model_bench: %u CQEs, want %u "
				"(round %u)\n", cq_pi(0, 0), cq, rounds);
			return 1;
		}
		/* The driver takes the CQEs. */
		wr(W->fb[0].g, rxe(0, NIC_RXE_CQ_CONSUMER_INDEX), cq);
		moved += (uint64_t)BUF_SIZE * PASSES;
		rounds++;
	}
	t1 = clock_ns(CLOCK_MONOTONIC);
	c1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	if (memcmp(W->fb[0].hbm + BUF_HBM, W->fb[1].hbm + BUF_HBM, BUF_SIZE)) {
		fprintf(stderr, "roce_model_bench: bytes differ\n");
		return 1;
	}
	secs = (double)(t1 - t0) / 1e9;
	printf("BENCH roce_model_mbps %.0f (%llu MiB in %.3f s, %u frames "
	       "sent, %u back)\n", (double)moved / 1e6 / secs,
	       (unsigned long long)(moved >> 20), secs, W->sent[0],
	       W->sent[1]);
	/* A stall the wall clock of the bed does not see: timer expiries. */
	printf("BENCH roce_model_stalls %u (timer waits, %.1f ms of model "
	       "time in %u rounds)\n", stalls, (double)waited / 1e6, rounds);
	printf("BENCH roce_model_timeouts %llu (retransmitted %llu)\n",
	       (unsigned long long)gaudi_roce_counter(W->fb[0].g, 0,
						      GAUDI_ROCE_TIMEOUTS),
	       (unsigned long long)gaudi_roce_counter(W->fb[0].g, 0,
						      GAUDI_ROCE_RETRANSMITS));
	/* Per second of this process's CPU: steadier on a shared machine. */
	printf("BENCH roce_model_cpu_mbps %.0f\n",
	       (double)moved / 1e6 / ((double)(c1 - c0) / 1e9));
	/* The idle engine: every QP done, a tick costs what it scans. */
	c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < 1000000; i++)
		gaudi_core_tick(W->fb[0].g);
	c1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	printf("BENCH roce_idle_ns %.1f (gaudi_core_tick, no QP in flight, "
	       "CPU time)\n", (double)(c1 - c0) / 1e6);
	bye();
	return 0;
}
