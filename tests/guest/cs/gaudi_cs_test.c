// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_cs_test - command submission, completion and memory acceptance
 * tests (issue 4) through upstream's uapi <drm/habanalabs_accel.h>, so the
 * same binary runs on gaudi.ko and on the upstream peer.
 *
 *   gaudi_cs_test [--card N] [--peer] TEST...
 *
 * TEST: integrity internal inflight turns negative handles wait
 *       mapcycles close signal monitors wrap hang (signal, wrap and hang
 *       need --device-opts test-hooks=on and gaudi_model_ctl next to this
 *       program or in $BIN).
 * --peer skips what upstream does not do on Gaudi 1 (our stricter parser
 * checks and extensions).
 * Prints TAP ending in "N passed, N failed"; exit status 1 on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "hl_ioctl.h"
#include "tap.h"

#define CTL(op)		HL_PKT_CTL(op)
#define CTL_MB		PKT_CTL_MB

#define CB_SIZE		(64U << 10)
#define BUF_SIZE	(8U << 20)
#define WAIT_US		(30ULL * 1000 * 1000)

static int card;
static bool peer;
static char path[64];
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	return tap_xorshift(&rng) * 0x2545F4914F6CDD1DULL;
}

/* ---- a device session: fd, one mapped CB, one mapped host buffer ------- */

static int open_dev(void)
{
	return hl_open_retry(path);
}

/* LIN_DMA with EB: after the previous transfer of the queue. */
static size_t lin_dma(uint8_t *cb, size_t off, uint64_t src, uint64_t dst,
		      uint32_t size, bool memset_op)
{
	return pkt_lin_dma(cb, off, src, dst, size, memset_op, true);
}

static size_t pkt(uint8_t *cb, size_t off, uint32_t op, uint32_t w0,
		  uint32_t ctl_extra, size_t size)
{
	memset(cb + off, 0, size);
	put32(cb + off, w0);
	put32(cb + off + 4, CTL(op) | ctl_extra);
	return off + size;
}

/* The node, a 64 KiB CB and an 8 MiB host buffer on a 2 MiB boundary. */
static bool sess_open(struct hl_sess *s)
{
	return hl_sess_open(s, open_dev(), CB_SIZE, BUF_SIZE, 2 << 20);
}

static int run_cb(struct hl_sess *s, size_t len, uint32_t q)
{
	return hl_sess_run(s, len, q, WAIT_US);
}

/* ---- integrity: every external queue, random sizes and offsets --------- */

static void t_integrity(void)
{
	struct hl_sess s;
	unsigned int q, i, bad_total = 0, runs = 0;

	if (!ok(sess_open(&s), "integrity: open, CB, 8 MiB userptr mapping"))
		return;
	for (q = 0; q < 8; q++) {
		unsigned int bad = 0, fail = 0;

		for (i = 0; i < 12; i++) {
			uint32_t size = 1 + rnd() % (256 << 10);
			uint32_t so = rnd() % 4096, doff = rnd() % 4096;
			uint64_t sram = GAUDI_SRAM_USER_START + (rnd() % (1 << 20));
			uint64_t hbm = GAUDI_DRAM_USER_START + (rnd() % (64ULL << 20));
			uint8_t *src = s.buf + so;
			uint8_t *dst = s.buf + (4 << 20) + doff;
			uint8_t fill = rnd();
			uint32_t msz = 1 + rnd() % 8192;
			size_t len = 0, k;

			for (k = 0; k < size; k++)
				src[k] = rnd();
			memset(dst, 0xEE, size + msz + 64);
			len = lin_dma(s.cbp, len, s.va + so, sram, size, false);
			len = lin_dma(s.cbp, len, sram, hbm, size, false);
			len = lin_dma(s.cbp, len, hbm, s.va + (4 << 20) + doff,
				      size, false);
			len = lin_dma(s.cbp, len, 0x0101010101010101ULL * fill,
				      s.va + (4 << 20) + doff + size, msz,
				      true);
			if (run_cb(&s, len, q)) {
				fail++;
				continue;
			}
			runs++;
			if (memcmp(src, dst, size))
				bad++;
			for (k = 0; k < msz; k++)
				if (dst[size + k] != fill) {
					bad++;
					break;
				}
			for (k = 0; k < 64; k++)
				if (dst[size + msz + k] != 0xEE) {
					bad++;
					break;
				}
		}
		ok(!fail && !bad,
		   "queue %u: 12 random host->SRAM->HBM->host copies and memsets exact (%u failed, %u wrong)",
		   q, fail, bad);
		bad_total += bad;
	}
	tap_diag("%u CSs checked byte for byte, %u wrong", runs, bad_total);
	hl_sess_close(&s);
}

/* User sync objects and monitors: the W_S block from SOB 144, monitor 72. */
#define WS_SOB(i)	(GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * (i))
#define WS_MON(reg, m)	(GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + (reg) + 4 * (m))
#define EN_SOB(i)	(GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * (i))
#define EN_MON(reg, m)	(GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + (reg) + 4 * (m))
/* DMA 0 QMAN, CP_FENCE0_RDATA of stream 0 */
#define DMA0_FENCE0	(GAUDI_CFG_BASE + mmDMA0_QM_BASE + QM_CP_FENCE_RDATA(0, 0))

static size_t msg_long(uint8_t *cb, size_t off, uint64_t addr, uint32_t val,
		       uint32_t op)
{
	put32(cb + off, val);
	put32(cb + off + 4, CTL(PKT_MSG_LONG) | op << 20 | CTL_MB);
	put64(cb + off + 8, addr);
	return off + 16;
}

/* ---- internal queues: a CB mapped in the device MMU --------------------- */

static void t_internal(void)
{
	struct hl_sess s;
	struct hl_cs_chunk ch[2];
	uint64_t icb = 0, dva = 0, seq;
	uint8_t *ip;
	unsigned int q, bad = 0, fail = 0, n = 0, sig = 0;
	uint32_t st;
	size_t elen;

	if (!ok(sess_open(&s), "internal: open"))
		return;
	if (!ok(cb_create(s.fd, CB_SIZE, HL_CB_FLAGS_MAP, &icb) == 0,
		"CB create with HL_CB_FLAGS_MAP"))
		goto out;
	ok(hl_cb_device_va(s.fd, icb, &dva) == 0 && dva,
	   "CB INFO GET_DEVICE_VA: 0x%llx", (unsigned long long)dva);
	ip = hl_cb_mmap(s.fd, icb, CB_SIZE);
	if (!ok(ip != MAP_FAILED, "mmap the mapped CB"))
		goto out;
	/*
	 * A CS completes when its external job does: the internal job counts
	 * user SOB 144 up when it is done, and the job on DMA_0_0 waits for
	 * that through monitor 72 and a FENCE (as on silicon, nothing else
	 * orders the two queues).
	 */
	elen = msg_long(s.cbp, 0, WS_SOB(144), 0, 0);
	if (!ok(hl_submit1(s.fd, s.cb, elen, 0, &seq) == 0 &&
		wait_cs(s.fd, seq, WAIT_US, &st, NULL) == 0 &&
		st == HL_WAIT_CS_STATUS_COMPLETED, "user SOB 144 cleared"))
		goto out;
	for (q = GAUDI_QUEUE_ID_DMA_2_0; q <= GAUDI_QUEUE_ID_TPC_7_3; q++) {
		bool dma = q <= GAUDI_QUEUE_ID_DMA_7_3;
		uint32_t size = 1 + rnd() % 65536, k;
		uint64_t hbm = GAUDI_DRAM_USER_START + (128ULL << 20) + (rnd() % (1 << 20));
		size_t len = 0;

		if (dma) {
			for (k = 0; k < size; k++)
				s.buf[k] = rnd();
			memset(s.buf + (2 << 20), 0, size + 16);
			len = lin_dma(ip, len, s.va, hbm, size, false);
			len = lin_dma(ip, len, hbm, s.va + (2 << 20), size,
				      false);
		} else {
			len = pkt(ip, len, PKT_NOP, 0, 0, 8);
		}
		len = msg_long(ip, len, WS_SOB(144), SM_SOB_INC | 1, 0);
		/* group 18 = SOBs 144..151, watch 144 only, >= sig + 1 */
		elen = msg_long(s.cbp, 0, WS_MON(SM_MON_PAY_ADDRL(0), 72),
				(uint32_t)DMA0_FENCE0, 0);
		elen = msg_long(s.cbp, elen, WS_MON(SM_MON_PAY_ADDRH(0), 72),
				(uint32_t)(DMA0_FENCE0 >> 32), 0);
		elen = msg_long(s.cbp, elen, WS_MON(SM_MON_PAY_DATA(0), 72), 1, 0);
		elen = msg_long(s.cbp, elen, WS_MON(SM_MON_ARM(0), 72),
				18 | 0xFEU << 8 | (sig + 1) << 17, 0);
		elen = pkt(s.cbp, elen, PKT_FENCE, 1 | 1U << 16, 0, 8);
		elen = pkt(s.cbp, elen, PKT_NOP, 0, 0, 8);
		memset(ch, 0, sizeof(ch));
		ch[0].cb_handle = dva;
		ch[0].queue_index = q;
		ch[0].cb_size = len;
		ch[1].cb_handle = s.cb;
		ch[1].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
		ch[1].cb_size = elen;
		if (hl_submit(s.fd, ch, 2, 0, 0, &seq)) {
			fail++;
			continue;
		}
		sig++;
		if (wait_cs(s.fd, seq, WAIT_US, &st, NULL) ||
		    st != HL_WAIT_CS_STATUS_COMPLETED) {
			fail++;
			continue;
		}
		n++;
		if (dma && memcmp(s.buf, s.buf + (2 << 20), size))
			bad++;
	}
	ok(!fail && !bad,
	   "internal queues DMA_2_0..TPC_7_3: %u CSs (LIN_DMA round trips on DMA2..7, NOPs on MME/TPC), %u failed, %u wrong",
	   n, fail, bad);
	memset(ch, 0, sizeof(ch));
	pkt(s.cbp, 0, PKT_NOP, 0, 0, 8);
	ch[0].cb_handle = dva;
	ch[0].queue_index = GAUDI_QUEUE_ID_DMA_2_0;
	ch[0].cb_size = 8;
	ok(hl_submit(s.fd, ch, 1, 0, 0, &seq) == -EINVAL,
	   "a CS with only internal-queue jobs fails with EINVAL");
	ch[0].cb_handle = dva + CB_SIZE;
	ch[1].cb_handle = s.cb;
	ch[1].cb_size = 8;
	ok(hl_submit(s.fd, ch, 2, 0, 0, &seq) == -EINVAL,
	   "an internal-queue CB address outside any mapped CB fails with EINVAL");
	munmap(ip, CB_SIZE);
out:
	if (icb)
		cb_destroy(s.fd, icb);
	hl_sess_close(&s);
}

/* ---- many CSs in flight ---------------------------------------------------- */

#define INFLIGHT 3000

static void t_inflight(void)
{
	struct hl_sess s;
	static uint64_t seqs[INFLIGHT];
	unsigned int i, bad = 0, order = 0, fail = 0;
	union hl_wait_cs_args a;
	uint32_t st;

	if (!ok(sess_open(&s), "inflight: open"))
		return;
	/*
	 * CS i writes 16 bytes of (i % 255) + 1 at offset 16 * i; the CB
	 * is copied at submission, so it is rewritten for each CS.
	 */
	for (i = 0; i < INFLIGHT; i++) {
		lin_dma(s.cbp, 0, 0x0101010101010101ULL * ((i % 255) + 1),
			s.va + 16 * i, 16, true);
		if (hl_submit1(s.fd, s.cb, 24, i % 8, &seqs[i]))
			fail++;
		if (i && seqs[i] != seqs[i - 1] + 1)
			order++;
	}
	ok(!fail, "%u CSs submitted on the 8 external queues without waiting (%u failed)",
	   INFLIGHT, fail);
	ok(!order, "sequence numbers consecutive (%u gaps)", order);
	memset(&a, 0, sizeof(a));
	ok(wait_cs(s.fd, seqs[INFLIGHT - 1], WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED, "the last one completes");
	/*
	 * gaudi.ko retires in order, so all are complete once the last is;
	 * the peer's completion works run in parallel on several CPUs, so
	 * it is waited for CS by CS.
	 */
	for (i = 0; i < INFLIGHT; i++) {
		if (wait_cs(s.fd, seqs[i], peer ? WAIT_US : 0, &st, NULL) ||
		    st != HL_WAIT_CS_STATUS_COMPLETED)
			fail++;
		for (unsigned int k = 0; k < 16; k++)
			if (s.buf[16 * i + k] != (uint8_t)((i % 255) + 1)) {
				bad++;
				break;
			}
	}
	ok(!fail && !bad, "every CS reports COMPLETED (timeout %s) and wrote its data (%u not complete, %u wrong)",
	   peer ? "30 s" : "0", fail, bad);

	/* Multi-CS wait on 8 of them. */
	{
		uint64_t list[8];

		for (i = 0; i < 8; i++)
			list[i] = seqs[INFLIGHT - 8 + i];
		memset(&a, 0, sizeof(a));
		a.in.seq = (uintptr_t)list;
		a.in.timeout_us = WAIT_US;
		a.in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
		a.in.seq_arr_len = 8;
		ok(xioctl(s.fd, DRM_IOCTL_HL_WAIT_CS, &a) == 0 &&
		   a.out.status == HL_WAIT_CS_STATUS_COMPLETED &&
		   a.out.cs_completion_map == 0xFF,
		   "multi-CS wait on 8 completed CSs: map 0x%x",
		   a.out.cs_completion_map);
	}
	/* Timestamps. */
	{
		struct hl_cs_chunk ch;
		uint64_t seq;
		uint32_t fl = 0;
		struct timespec t0, t1;
		union hl_wait_cs_args w;

		memset(&ch, 0, sizeof(ch));
		ch.cb_handle = s.cb;
		ch.cb_size = 24;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (ok(hl_submit(s.fd, &ch, 1, HL_CS_FLAGS_TIMESTAMP, 0, &seq) == 0,
		       "CS with HL_CS_FLAGS_TIMESTAMP")) {
			memset(&w, 0, sizeof(w));
			w.in.seq = seq;
			w.in.timeout_us = WAIT_US;
			xioctl(s.fd, DRM_IOCTL_HL_WAIT_CS, &w);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			fl = w.out.flags;
			ok((fl & HL_WAIT_CS_STATUS_FLAG_TIMESTAMP_VLD) &&
			   w.out.timestamp_nsec >= t0.tv_sec * 1000000000LL + t0.tv_nsec &&
			   w.out.timestamp_nsec <= t1.tv_sec * 1000000000LL + t1.tv_nsec,
			   "completion timestamp valid and within the submit..wait window");
		}
	}
	hl_sess_close(&s);
}

/* ---- 2 processes x 2 threads, taking turns on the node -------------------- */

#define TURN_CS 2500

struct turn_arg {
	struct hl_sess *s;
	int t;
	uint64_t cb;
	uint8_t *cbp;
	unsigned int bad;
};

static void *turn_thread(void *p)
{
	struct turn_arg *ta = p;
	struct hl_sess *s = ta->s;
	unsigned int i;
	uint64_t seq;
	uint32_t st;

	for (i = 0; i < TURN_CS; i++) {
		uint8_t v = (uint8_t)(i * 7 + ta->t * 13 + 1);
		uint64_t off = (uint64_t)ta->t * (2 << 20) + 64 * (i % 4096);

		lin_dma(ta->cbp, 0, 0x0101010101010101ULL * v, s->va + off, 64,
			true);
		if (hl_submit1(s->fd, ta->cb, 24, ta->t * 4 + (i % 4), &seq) ||
		    wait_cs(s->fd, seq, WAIT_US, &st, NULL) ||
		    st != HL_WAIT_CS_STATUS_COMPLETED) {
			ta->bad++;
			continue;
		}
		for (unsigned int k = 0; k < 64; k++)
			if (s->buf[off + k] != v) {
				ta->bad++;
				break;
			}
	}
	return NULL;
}

static int turn_process(int id)
{
	struct turn_arg ta[2];
	pthread_t th[2];
	struct hl_sess s;
	unsigned int bad = 0;
	int t;

	if (!sess_open(&s))
		return 2;
	for (t = 0; t < 2; t++) {
		ta[t].s = &s;
		ta[t].t = t;
		ta[t].bad = 0;
		if (cb_create(s.fd, 4096, 0, &ta[t].cb))
			return 2;
		ta[t].cbp = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_SHARED, s.fd, (off_t)ta[t].cb);
		if (ta[t].cbp == MAP_FAILED)
			return 2;
		pthread_create(&th[t], NULL, turn_thread, &ta[t]);
	}
	for (t = 0; t < 2; t++) {
		pthread_join(th[t], NULL);
		bad += ta[t].bad;
	}
	(void)id;
	hl_sess_close(&s);
	return bad ? 1 : 0;
}

static void t_turns(void)
{
	pid_t pid[2];
	int i, st, fails = 0;

	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (!pid[i])
			_exit(turn_process(i));
	}
	for (i = 0; i < 2; i++) {
		waitpid(pid[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			fails++;
	}
	ok(!fails, "2 processes x 2 threads x %u CSs (memset, wait, check) taking turns on the node: %d failed",
	   TURN_CS, fails);
}

/* ---- negative tests ------------------------------------------------------ */

static void t_negative(void)
{
	struct hl_sess s;
	struct hl_cs_chunk ch[2];
	union hl_cs_args ca;
	union hl_cb_args cba;
	union hl_wait_cs_args w;
	uint64_t seq, h;
	uint32_t st;
	size_t len;
	void *m;
	static struct hl_cs_chunk many[HL_MAX_JOBS_PER_CS + 1];

	if (!ok(sess_open(&s), "negative: open"))
		return;

	/* Forbidden packets on an external queue. */
	len = pkt(s.cbp, 0, PKT_WREG_BULK, 1, DMA_QM_OFFSET << 8, 16);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM, "WREG_BULK: EPERM");
	len = pkt(s.cbp, 0, PKT_MSG_PROT, 1, 0, 16);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM, "MSG_PROT: EPERM");
	len = pkt(s.cbp, 0, PKT_CP_DMA, 8, 0, 16);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM, "CP_DMA: EPERM");
	len = pkt(s.cbp, 0, PKT_STOP, 0, 0, 8);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM, "STOP: EPERM");
	len = pkt(s.cbp, 0, PKT_LOAD_AND_EXE, 1, 0, 16);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM,
	   "scalar LOAD_AND_EXE: EPERM");
	/* After a valid NOP too (offset in the message). */
	len = pkt(s.cbp, 0, PKT_NOP, 0, 0, 8);
	len = pkt(s.cbp, len, PKT_MSG_PROT, 1, 0, 16);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM,
	   "MSG_PROT after a NOP: EPERM");

	/* Malformed buffers. */
	len = pkt(s.cbp, 0, 0x0, 0, 0, 8);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "undefined opcode 0: EINVAL");
	len = pkt(s.cbp, 0, 0xE, 0, 0, 8);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "undefined opcode 0xE: EINVAL");
	lin_dma(s.cbp, 0, s.va, GAUDI_SRAM_USER_START, 16, false);
	ok(hl_submit1(s.fd, s.cb, 16, 0, &seq) == -EINVAL,
	   "LIN_DMA truncated to 16 of 24 bytes: EINVAL");
	ok(hl_submit1(s.fd, s.cb, 12, 0, &seq) == -EINVAL,
	   "CB size not a multiple of 8: EINVAL");
	ok(hl_submit1(s.fd, s.cb, CB_SIZE + 8, 0, &seq) == -EINVAL,
	   "chunk larger than its CB: EINVAL");
	ok(hl_submit1(s.fd, s.cb, HL_MAX_CB_SIZE + 8, 0, &seq) == -EINVAL,
	   "chunk over HL_MAX_CB_SIZE: EINVAL");

	/* Handles and queues. */
	ok(hl_submit1(s.fd, s.cb + 4096 * 77, 8, 0, &seq) == -EINVAL,
	   "unknown CB handle: EINVAL");
	ok(hl_submit1(s.fd, 0, 8, 0, &seq) == -EINVAL, "CB handle 0: EINVAL");
	pkt(s.cbp, 0, PKT_NOP, 0, 0, 8);
	ok(hl_submit1(s.fd, s.cb, 8, GAUDI_QUEUE_ID_CPU_PQ, &seq) == -EINVAL,
	   "device-CPU queue: EINVAL");
	ok(hl_submit1(s.fd, s.cb, 8, GAUDI_QUEUE_ID_NIC_0_0, &seq) == -EINVAL,
	   "NIC queue (ports off): EINVAL");
	ok(hl_submit1(s.fd, s.cb, 8, GAUDI_QUEUE_ID_SIZE, &seq) == -EINVAL,
	   "queue id %u: EINVAL", GAUDI_QUEUE_ID_SIZE);
	ok(hl_submit1(s.fd, s.cb, 8, 0xFFFFFFFF, &seq) == -EINVAL,
	   "queue id 0xffffffff: EINVAL");
	ok(hl_submit(s.fd, many, 0, 0, 0, &seq) == -EINVAL, "0 chunks: EINVAL");
	for (unsigned int i = 0; i <= HL_MAX_JOBS_PER_CS; i++) {
		many[i].cb_handle = s.cb;
		many[i].cb_size = 8;
	}
	ok(hl_submit(s.fd, many, HL_MAX_JOBS_PER_CS + 1, 0, 0, &seq) == -EINVAL,
	   "%u chunks: EINVAL", HL_MAX_JOBS_PER_CS + 1);
	ok(hl_submit(s.fd, many, HL_MAX_JOBS_PER_CS, 0, 0, &seq) == 0 &&
	   wait_cs(s.fd, seq, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED,
	   "%u chunks on one queue: completes", HL_MAX_JOBS_PER_CS);
	memset(&ca, 0, sizeof(ca));
	ca.in.chunks_execute = 8;	/* a bad pointer */
	ca.in.num_chunks_execute = 1;
	ok(xioctl(s.fd, DRM_IOCTL_HL_CS, &ca) == -EFAULT,
	   "bad chunk array pointer: EFAULT");
	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = s.cb;
	ch[0].cb_size = 8;
	ch[0].cs_chunk_flags = HL_CS_CHUNK_FLAGS_USER_ALLOC_CB;
	/*
	 * On an external queue the handle of a CB of the file is a handle,
	 * flag or not (upstream ignores the flag there); an address that is
	 * no user memory, or an unknown chunk flag, is refused.
	 */
	pkt(s.cbp, 0, PKT_NOP, 0, 0, 8);
	ok(hl_submit(s.fd, ch, 1, 0, 0, &seq) == 0 &&
	   hl_wait_ok(s.fd, seq, WAIT_US) == 0,
	   "USER_ALLOC_CB chunk naming a CB handle on DMA_0_0: runs");
	if (!peer) {
		ch[0].cb_handle = 0x10000000;	/* the MMU's page tables */
		ok(hl_submit(s.fd, ch, 1, 0, 0, &seq) == -EINVAL,
		   "USER_ALLOC_CB chunk at the driver's HBM: EINVAL");
		ch[0].cb_handle = s.cb;
		ch[0].cs_chunk_flags = 0x2;
		ok(hl_submit(s.fd, ch, 1, 0, 0, &seq) == -EINVAL,
		   "chunk flag 0x2: EINVAL");
	}

	/* Addresses the process does not own. */
	if (!peer) {
		lin_dma(s.cbp, 0, s.va + BUF_SIZE, GAUDI_SRAM_USER_START, 4096, false);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EINVAL,
		   "LIN_DMA from past the end of the mapping: EINVAL");
		lin_dma(s.cbp, 0, s.va + BUF_SIZE - 8, GAUDI_SRAM_USER_START, 16, false);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EINVAL,
		   "LIN_DMA straddling the end of the mapping: EINVAL");
		lin_dma(s.cbp, 0, GAUDI_VA_HOST_START + (1ULL << 40), GAUDI_SRAM_USER_START,
			4096, false);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EINVAL,
		   "LIN_DMA from an unmapped device VA: EINVAL");
		lin_dma(s.cbp, 0, GAUDI_HOST_PHYS_BASE + 0x100000, GAUDI_SRAM_USER_START, 4096, false);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EINVAL,
		   "LIN_DMA from host physical memory: EINVAL");
		lin_dma(s.cbp, 0, s.va, 0x10000000ULL, 4096, false);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EINVAL,
		   "LIN_DMA into the driver's HBM (page tables): EINVAL");
		lin_dma(s.cbp, 0, s.va, GAUDI_SRAM_BASE, 4096, false);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EINVAL,
		   "LIN_DMA into the driver's SRAM: EINVAL");
		lin_dma(s.cbp, 0, s.va, GAUDI_CFG_BASE + mmMMU_UP_MMU_BUSY, 4, false);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EINVAL,
		   "LIN_DMA into the registers: EINVAL");
		len = pkt(s.cbp, 0, PKT_MSG_LONG, 1, 0, 16);
		put64(s.cbp + 8, GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12);
		ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
		   "MSG_LONG to an MMU register: EINVAL");
		len = pkt(s.cbp, 0, PKT_WREG_32, 0, 0xF4 << 8, 8);
		ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM,
		   "WREG_32 to the DMA core's NON_SECURE_PROPS (ASID): EPERM");
		/* Issue 9, class 1: a DMA steered by registers. */
		len = pkt(s.cbp, 0, PKT_WREG_32, 0, 0x14 << 8, 8);
		ok(hl_submit1(s.fd, s.cb, len, 1, &seq) == -EPERM,
		   "WREG_32 to the DMA core's SRC_BASE_LO from stream 1: EPERM");
		len = pkt(s.cbp, 0, PKT_WREG_32, 0, 0x78 << 8, 8);
		ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM,
		   "WREG_32 to the DMA core's COMMIT: EPERM");
		/* Class 2: control flow the parser cannot follow. */
		len = pkt(s.cbp, 0, PKT_NOP, 0, 0, 8);
		len = pkt(s.cbp, len, PKT_REPEAT, 1, 0, 8);
		ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EPERM,
		   "REPEAT: EPERM");
		/* Class 3: LIN_DMA options. */
		lin_dma(s.cbp, 0, s.va, GAUDI_SRAM_USER_START, 4096, false);
		/* LIN + write completion */
		put32(s.cbp + 4, CTL(PKT_LIN_DMA) | 1U << 3 | 1U | CTL_MB);
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EPERM,
		   "LIN_DMA with write completion: EPERM");
		lin_dma(s.cbp, 0, s.va, GAUDI_SRAM_USER_START, 4096, false);
		put32(s.cbp + 4, CTL(PKT_LIN_DMA) | CTL_MB);	/* not LIN */
		ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == -EPERM,
		   "non-linear LIN_DMA (strides from registers): EPERM");
		/* Reserved bits. */
		len = pkt(s.cbp, 0, PKT_NOP, 1, 0, 8);
		ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
		   "NOP with a reserved bit set: EINVAL");
	}
	{
		struct hl_info_cs_counters c;

		memset(&c, 0, sizeof(c));
		ok(hl_info(s.fd, HL_INFO_CS_COUNTERS, &c, sizeof(c)) == 0 &&
		   c.ctx_parsing_drop_cnt >= 6 && c.ctx_validation_drop_cnt >= 4,
		   "CS_COUNTERS: %llu parsing drops, %llu validation drops",
		   (unsigned long long)c.ctx_parsing_drop_cnt,
		   (unsigned long long)c.ctx_validation_drop_cnt);
	}

	/* CB ioctl. */
	ok(cb_create(s.fd, HL_MAX_CB_SIZE + 1, 0, &h) == -EINVAL,
	   "CB create over HL_MAX_CB_SIZE: EINVAL");
	ok(cb_create(s.fd, HL_MAX_CB_SIZE, 0, &h) == 0 && cb_destroy(s.fd, h) == 0,
	   "CB create of HL_MAX_CB_SIZE and destroy");
	ok(cb_destroy(s.fd, 12345) == -EINVAL, "CB destroy of a bad handle: EINVAL");
	memset(&cba, 0, sizeof(cba));
	cba.in.op = 77;
	ok(xioctl(s.fd, DRM_IOCTL_HL_CB, &cba) == -EINVAL,
	   "CB unknown op: EINVAL");
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, s.fd, (off_t)(s.cb + 4096 * 99));
	ok(m == MAP_FAILED, "mmap at an unknown CB offset fails");
	m = mmap(NULL, 2 * CB_SIZE, PROT_READ, MAP_SHARED, s.fd, (off_t)s.cb);
	ok(m == MAP_FAILED, "mmap larger than the CB fails");

	/* WAIT_CS. */
	ok(wait_cs(s.fd, 1ULL << 40, WAIT_US, &st, NULL) == -EINVAL,
	   "WAIT_CS on a sequence never submitted: EINVAL");
	pkt(s.cbp, 0, PKT_NOP, 0, 0, 8);
	if (ok(hl_submit1(s.fd, s.cb, 8, 0, &seq) == 0, "a NOP CS")) {
		ok(wait_cs(s.fd, seq, 0, &st, NULL) == 0 &&
		   (st == HL_WAIT_CS_STATUS_COMPLETED ||
		    st == HL_WAIT_CS_STATUS_BUSY),
		   "WAIT_CS timeout 0 polls (status %u)", st);
		ok(wait_cs(s.fd, seq, UINT64_MAX, &st, NULL) == 0 &&
		   st == HL_WAIT_CS_STATUS_COMPLETED,
		   "WAIT_CS timeout UINT64_MAX: COMPLETED");
	}
	{
		/* The same at once on a CS of ~20 ms (512 MiB at 25 GB/s). */
		size_t n = 0;
		int k;

		for (k = 0; k < 32; k++)
			n = lin_dma(s.cbp, n, 0, GAUDI_SRAM_USER_START, 16 << 20, true);
		if (ok(hl_submit1(s.fd, s.cb, n, 0, &seq) == 0,
		       "a CS of 32 16-MiB SRAM memsets"))
			ok(wait_cs(s.fd, seq, UINT64_MAX, &st, NULL) == 0 &&
			   st == HL_WAIT_CS_STATUS_COMPLETED,
			   "WAIT_CS timeout UINT64_MAX waits for it (status %u)",
			   st);
	}
	memset(&w, 0, sizeof(w));
	w.in.flags = HL_WAIT_CS_FLAGS_INTERRUPT | HL_WAIT_CS_FLAGS_ANY_CQ_INTERRUPT;
	w.in.interrupt_timeout_us = 1000;
	ok(xioctl(s.fd, DRM_IOCTL_HL_WAIT_CS, &w) == -EPERM,
	   "WAIT_CS on a user interrupt (none on Gaudi 1): EPERM");
	memset(&w, 0, sizeof(w));
	w.in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
	w.in.seq_arr_len = 33;
	ok(xioctl(s.fd, DRM_IOCTL_HL_WAIT_CS, &w) == -EINVAL,
	   "multi-CS wait of 33 sequences: EINVAL");

	/* MEMORY. */
	{
		uint64_t va;
		union hl_mem_args ma;

		ok(map_host(s.fd, s.buf, 0, &va) == -EINVAL, "MAP of 0 bytes: EINVAL");
		ok(map_host(s.fd, NULL, 4096, &va) == -EFAULT,
		   "MAP of NULL: EFAULT");
		ok(map_host(s.fd, (void *)16, 4096, &va) == -EFAULT,
		   "MAP of an unmapped host address: EFAULT");
		ok(unmap_host(s.fd, GAUDI_VA_HOST_START + (3ULL << 40)) == -EINVAL,
		   "UNMAP of an address never mapped: EINVAL");
		ok(map_host(s.fd, s.buf + 100, 5000, &va) == 0 &&
		   (va & 4095) == 100 && unmap_host(s.fd, va) == 0,
		   "MAP of an unaligned range keeps the page offset (0x%llx)",
		   (unsigned long long)va);
		memset(&ma, 0, sizeof(ma));
		ma.in.op = 99;
		ok(xioctl(s.fd, DRM_IOCTL_HL_MEMORY, &ma) == -EINVAL,
		   "MEMORY unknown op: EINVAL");
	}
	memset(&ca, 0, sizeof(ca));
	ca.in.chunks_execute = (uintptr_t)ch;
	ca.in.num_chunks_execute = 1;
	ca.in.cs_flags = HL_CS_FLAGS_ENGINE_CORE_COMMAND;
	ok(xioctl(s.fd, DRM_IOCTL_HL_CS, &ca) == -EPERM,
	   "CS with ENGINE_CORE_COMMAND (no engine modes on Gaudi 1): EPERM");

	/* Still fine afterwards. */
	lin_dma(s.cbp, 0, 0x4242424242424242ULL, s.va, 4096, true);
	ok(run_cb(&s, 24, 0) == 0 && s.buf[0] == 0x42 && s.buf[4095] == 0x42,
	   "a valid CS after all the rejections works");
	hl_sess_close(&s);
}

/* Handles of one file are unknown to the next. */
static void t_handles(void)
{
	struct hl_sess s;
	uint64_t old_cb, old_va;
	void *m;

	if (!ok(sess_open(&s), "handles: open"))
		return;
	old_cb = s.cb;
	old_va = s.va;
	hl_sess_close(&s);
	if (!ok(sess_open(&s), "handles: reopen"))
		return;
	/* A new file numbers from 1 again: use a handle it never created. */
	ok(cb_destroy(s.fd, old_cb + 4096 * 5) == -EINVAL,
	   "another file's CB handle: EINVAL");
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, s.fd,
		 (off_t)(old_cb + 4096 * 5));
	ok(m == MAP_FAILED, "mmap of another file's CB handle fails");
	ok(unmap_host(s.fd, old_va + (64ULL << 30)) == -EINVAL,
	   "UNMAP of an address this file never mapped: EINVAL");
	hl_sess_close(&s);
}

/* ---- 10,000 map/unmap cycles ------------------------------------------------ */

static long long meminfo(const char *key)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n = strlen(key);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = atoll(line + n + 1);
	fclose(f);
	return v;
}

static void t_mapcycles(void)
{
	struct hl_sess s;
	unsigned int i, fail = 0;
	long long h0, h1, m0, m1, slack;
	uint8_t *big;
	uint64_t va;

	if (!ok(sess_open(&s), "mapcycles: open"))
		return;
	big = aligned_alloc(2 << 20, 16 << 20);
	memset(big, 1, 16 << 20);
	h0 = hl_fdinfo(s.fd, "drm-total-host");
	m0 = meminfo("MemAvailable");
	for (i = 0; i < 10000; i++) {
		uint8_t *p = (i % 100) ? s.buf + (rnd() % 4096) * 512 : big;
		uint64_t sz = (i % 100) ? 1 + rnd() % (256 << 10) : (16 << 20);

		if (map_host(s.fd, p, sz, &va) || unmap_host(s.fd, va))
			fail++;
	}
	h1 = hl_fdinfo(s.fd, "drm-total-host");
	m1 = meminfo("MemAvailable");
	ok(!fail, "10,000 MAP+UNMAP cycles (4 KiB..256 KiB, every 100th 16 MiB): %u failed",
	   fail);
	if (peer)
		tap_skip("upstream has no drm-total-host in fdinfo",
			 "fdinfo drm-total-host back to its start");
	else
		ok(h0 >= 0 && h0 == h1, "fdinfo drm-total-host back to %lld (now %lld)",
		   h0, h1);
	/*
	 * The debug kernel (kmemleak there) judges leaks by kmemleak; its
	 * KASAN keeps freed objects in a quarantine of up to 1/32 of RAM
	 * (mm/kasan/quarantine.c), which 10,000 cycles fill by some MiB.
	 */
	slack = 8192;
	if (!access("/sys/kernel/debug/kmemleak", F_OK))
		slack += meminfo("MemTotal") / 32;
	ok(m1 > m0 - slack, "MemAvailable %lld -> %lld kB: no leak (slack %lld kB)",
	   m0, m1, slack);
	/* Mappings still work. */
	lin_dma(s.cbp, 0, 0x3C3C3C3C3C3C3C3CULL, s.va + 4096, 4096, true);
	/*
	 * Read after UNMAP: also right when the map bounces through swiotlb
	 * (cs-swiotlb), where the device's writes reach the buffer then.
	 */
	fail = run_cb(&s, 24, 3);
	if (!unmap_host(s.fd, s.va))
		s.va = 0;
	ok(!fail && !s.va && s.buf[4096] == 0x3C,
	   "a CS through the original mapping still works (data after UNMAP)");
	free(big);
	hl_sess_close(&s);
}

/* ---- close with work in flight ---------------------------------------------- */

static void t_close(void)
{
	pid_t pid;
	int st;
	struct hl_sess s;

	pid = fork();
	if (!pid) {
		struct hl_sess c;
		unsigned int i;

		if (!sess_open(&c))
			_exit(2);
		for (i = 0; i < 2000; i++) {
			lin_dma(c.cbp, 0, 0x11, c.va + 4096 * (i % 1024), 4096,
				true);
			/* every one must be accepted: else nothing is in flight */
			if (hl_submit1(c.fd, c.cb, 24, i % 8, NULL))
				_exit(3);
		}
		_exit(0);	/* no wait, no unmap, no close */
	}
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "a process exits with 2000 CSs submitted and never waited for (child status 0x%x: 2 open failed, 3 a submit failed)",
	   st);
	ok(sess_open(&s), "the next process opens the node");
	lin_dma(s.cbp, 0, 0x7777777777777777ULL, s.va, 4096, true);
	ok(run_cb(&s, 24, 0) == 0 && s.buf[100] == 0x77, "and its CS works");
	hl_sess_close(&s);
}

/* ---- hang injection ------------------------------------------------------------ */

static const char *bin_dir = ".";

static int model_ctl(const char *reg, unsigned int val)
{
	char cmd[512], bdf[64] = "";

	if (hl_card_bdf(card, bdf, sizeof(bdf)))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/gaudi_model_ctl %s set %s %u >/dev/null",
		 bin_dir, bdf, reg, val);
	return system(cmd);
}

static void t_hang(void)
{
	struct hl_info_cs_timeout_event ev;
	struct hl_cs_chunk ch;
	uint64_t seq1, seq2, ev_mask = 0;
	uint32_t st = 0;
	struct hl_sess s;
	time_t t0;
	int rc;

	if (!ok(sess_open(&s), "hang: open"))
		return;
	if (!ok(model_ctl("qm_hang", 0) == 0, "model: hang queue DMA_0_0"))
		goto out;
	memset(&ch, 0, sizeof(ch));
	ch.cb_handle = s.cb;
	ch.cb_size = 24;
	lin_dma(s.cbp, 0, 0x5555555555555555ULL, s.va, 4096, true);
	t0 = time(NULL);
	rc = hl_submit(s.fd, &ch, 1, HL_CS_FLAGS_CUSTOM_TIMEOUT, 3, &seq1);
	ok(rc == 0, "CS on the hung queue with a 3 s timeout submitted");
	rc = hl_submit(s.fd, &ch, 1, HL_CS_FLAGS_CUSTOM_TIMEOUT, 60, &seq2);
	ok(rc == 0, "a second CS behind it submitted");
	ok(wait_cs(s.fd, seq1, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY, "WAIT_CS timeout 0: BUSY");
	ok(wait_cs(s.fd, seq1, 200000, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY, "WAIT_CS 200 ms: BUSY");
	rc = wait_cs(s.fd, seq1, 60ULL * 1000000, &st, NULL);
	ok(rc == -ETIMEDOUT && st == HL_WAIT_CS_STATUS_TIMEDOUT,
	   "WAIT_CS: ETIMEDOUT, status TIMEDOUT after %ld s (rc %d st %u)",
	   (long)(time(NULL) - t0), rc, st);
	rc = wait_cs(s.fd, seq2, 60ULL * 1000000, &st, NULL);
	ok(rc == -EIO && st == HL_WAIT_CS_STATUS_ABORTED,
	   "the CS behind it: EIO, status ABORTED (rc %d st %u)", rc, st);
	memset(&ev, 0, sizeof(ev));
	ok(hl_info(s.fd, HL_INFO_CS_TIMEOUT_EVENT, &ev, sizeof(ev)) == 0 &&
	   ev.seq == seq1 && ev.timestamp > 0,
	   "INFO CS_TIMEOUT_EVENT names sequence %llu",
	   (unsigned long long)ev.seq);
	hl_info(s.fd, HL_INFO_GET_EVENTS, &ev_mask, sizeof(ev_mask));
	ok(ev_mask & HL_NOTIFIER_EVENT_CS_TIMEOUT,
	   "GET_EVENTS has CS_TIMEOUT (0x%llx)", (unsigned long long)ev_mask);
	ok(hl_wait_operational(s.fd, 60), "the device is operational again");
	model_ctl("qm_unhang", 0xFFFFFFFF);
	memset(s.buf, 0, 4096);
	lin_dma(s.cbp, 0, 0x6666666666666666ULL, s.va, 4096, true);
	ok(run_cb(&s, 24, 0) == 0 && s.buf[0] == 0x66 && s.buf[4095] == 0x66,
	   "the same file's next CS (same mapping) completes after recovery");
	hl_sess_close(&s);
	if (ok(sess_open(&s), "a later process opens")) {
		lin_dma(s.cbp, 0, 0x1212121212121212ULL, s.va, 64, true);
		ok(run_cb(&s, 24, 1) == 0 && s.buf[63] == 0x12,
		   "and its CS completes");
	}
out:
	hl_sess_close(&s);
}

/* ---- signal/wait ordering, checked by data ------------------------------- */

static int sync_cs(int fd, uint32_t flags, uint32_t q, uint64_t *sig,
		   uint64_t *seq)
{
	struct hl_cs_chunk ch;

	memset(&ch, 0, sizeof(ch));
	ch.queue_index = q;
	if (sig) {
		ch.signal_seq_arr = (uintptr_t)sig;
		ch.num_signal_seq_arr = 1;
	}
	return hl_submit(fd, &ch, 1, flags, 0, seq);
}

static void t_signal(void)
{
	uint64_t sig, wseq, dseq, sig2, w2;
	uint32_t st = ~0U;
	struct hl_sess s;

	if (!ok(sess_open(&s), "signal: open"))
		return;
	ok(sync_cs(s.fd, HL_CS_FLAGS_SIGNAL, 1, NULL, &sig) == 0 &&
	   sync_cs(s.fd, HL_CS_FLAGS_WAIT, 0, &sig, &wseq) == 0 &&
	   wait_cs(s.fd, wseq, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED,
	   "signal on DMA_0_1, wait on DMA_0_0: both complete");
	if (!ok(model_ctl("qm_hang", 1) == 0, "model: hang DMA_0_1"))
		goto out;
	memset(s.buf, 0, 4096);
	ok(sync_cs(s.fd, HL_CS_FLAGS_SIGNAL, 1, NULL, &sig2) == 0,
	   "signal CS on the stalled DMA_0_1");
	ok(sync_cs(s.fd, HL_CS_FLAGS_WAIT, 0, &sig2, &w2) == 0,
	   "wait CS on DMA_0_0 for it");
	lin_dma(s.cbp, 0, 0x2929292929292929ULL, s.va, 4096, true);
	ok(hl_submit1(s.fd, s.cb, 24, 0, &dseq) == 0,
	   "a memset CS on DMA_0_0 behind the wait");
	usleep(300000);
	ok(wait_cs(s.fd, dseq, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY && s.buf[0] == 0,
	   "the memset has not run before the signal (status %u, byte 0x%02x)",
	   st, s.buf[0]);
	model_ctl("qm_unhang", 1);
	ok(wait_cs(s.fd, dseq, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED && s.buf[0] == 0x29 &&
	   s.buf[4095] == 0x29,
	   "after the signal ran, the wait and the memset complete");
	ok(sync_cs(s.fd, HL_CS_FLAGS_WAIT, 0, &dseq, &w2) == -EINVAL,
	   "a wait CS on a sequence that is not a signal CS: EINVAL");
out:
	hl_sess_close(&s);
}

/* ---- user sync objects and monitors (parser policy) -------------------- */

static void t_monitors(void)
{
	uint64_t seq, seq2;
	uint32_t st = ~0U;
	struct hl_sess s;
	size_t len;

	if (!ok(sess_open(&s), "monitors: open"))
		return;
	/* Refused: the driver's SOBs and monitors, other blocks, bad payloads. */
	len = msg_long(s.cbp, 0, WS_SOB(143), 1, 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "MSG_LONG to W_S SOB 143 (driver's): EINVAL");
	len = msg_long(s.cbp, 0, WS_SOB(64), 1, 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "MSG_LONG to W_S SOB 64 (signal CSs'): EINVAL");
	len = msg_long(s.cbp, 0, EN_MON(SM_MON_PAY_ADDRH(0), 5), 0, 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "E_N monitor 5 payload high word 0 (HBM/host): EINVAL");
	len = msg_long(s.cbp, 0, EN_MON(SM_MON_PAY_ADDRL(0), 5), (uint32_t)WS_SOB(100), 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "E_N monitor 5 payload naming W_S SOB 100 (driver's): EINVAL");
	len = msg_long(s.cbp, 0, WS_MON(SM_MON_ARM(0), 71), 1, 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "MSG_LONG to monitor 71 (driver's) ARM: EINVAL");
	len = msg_long(s.cbp, 0, WS_MON(SM_MON_PAY_ADDRL(0), 72),
		       (uint32_t)(GAUDI_CFG_BASE + mmMMU_UP_MMU_ASID), 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "monitor 72 payload low word naming an MMU register: EINVAL");
	len = msg_long(s.cbp, 0, WS_MON(SM_MON_PAY_ADDRL(0), 72), (uint32_t)WS_SOB(100),
		       0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "monitor 72 payload naming driver SOB 100: EINVAL");
	len = msg_long(s.cbp, 0, WS_MON(SM_MON_PAY_ADDRH(0), 72), 0, 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "monitor 72 payload high word 0 (HBM/host): EINVAL");
	len = msg_long(s.cbp, 0, WS_MON(SM_MON_PAY_DATA(0), 72), 0, 1);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "timestamp message to a monitor: EINVAL");
	len = msg_long(s.cbp, 0, WS_SOB(150), 1, 2);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "message with undefined op 2: EINVAL");
	len = msg_long(s.cbp, 0, WS_MON(SM_MON_STATUS(0), SM_NUM_MONS), 0, 0);
	ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == -EINVAL,
	   "message past the last monitor: EINVAL");

	/* Allowed: the user's own monitor gates a memset on DMA_0_0. */
	memset(s.buf, 0, 4096);
	len = msg_long(s.cbp, 0, WS_SOB(144), 0, 0);
	len = msg_long(s.cbp, len, WS_MON(SM_MON_PAY_ADDRL(0), 72), (uint32_t)DMA0_FENCE0,
		       0);
	len = msg_long(s.cbp, len, WS_MON(SM_MON_PAY_ADDRH(0), 72),
		       (uint32_t)(DMA0_FENCE0 >> 32), 0);
	len = msg_long(s.cbp, len, WS_MON(SM_MON_PAY_DATA(0), 72), 1, 0);
	/* group 18 = SOBs 144..151, watch 144 only, >= 5 */
	len = msg_long(s.cbp, len, WS_MON(SM_MON_ARM(0), 72),
		       18 | 0xFEU << 8 | 5U << 17, 0);
	len = pkt(s.cbp, len, PKT_FENCE, 1 | 1U << 16 | 0U << 30, 0, 8);
	len = lin_dma(s.cbp, len, 0x5A5A5A5A5A5A5A5AULL, s.va, 4096, true);
	if (!ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == 0,
		"CS arming user monitor 72 on user SOB 144 (fence counter payload) accepted"))
		goto out;
	usleep(200000);
	ok(wait_cs(s.fd, seq, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY && s.buf[0] == 0,
	   "the memset waits for the user's SOB (status %u)", st);
	len = msg_long(s.cbp, 0, WS_SOB(144), 4, 0);
	ok(hl_submit1(s.fd, s.cb, len, 1, &seq2) == 0 &&
	   wait_cs(s.fd, seq2, WAIT_US, &st, NULL) == 0 && usleep(100000) == 0 &&
	   wait_cs(s.fd, seq, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY,
	   "SOB 144 set to 4 from DMA_0_1: still waiting");
	len = msg_long(s.cbp, 0, WS_SOB(144), SM_SOB_INC | 1, 0);
	ok(hl_submit1(s.fd, s.cb, len, 1, &seq2) == 0,
	   "SOB 144 += 1 from DMA_0_1 (MSG_LONG to a user SOB accepted)");
	ok(wait_cs(s.fd, seq, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED && s.buf[0] == 0x5A &&
	   s.buf[4095] == 0x5A,
	   "the monitor fired: the memset ran (status %u)", st);
out:
	hl_sess_close(&s);
}

/* ---- the user sync managers E_N, E_S, W_N (issue 9 compatibility) ------ */

/* CP_FENCE0_RDATA of external queue @q (DMA 0/1 QMAN, stream q % 4). */
#define QFENCE0(q)	(GAUDI_CFG_BASE + mmDMA0_QM_BASE + \
			 GAUDI_DMA_STRIDE * ((q) / 4) + QM_CP_FENCE_RDATA(0, (q) % 4))

/* MSG_SHORT through the bases the driver programs: 0 E_N monitors, 1 E_N SOBs. */
static size_t msg_short(uint8_t *cb, size_t off, uint32_t base, uint32_t offset,
			uint32_t val)
{
	put32(cb + off, val);
	put32(cb + off + 4, CTL(PKT_MSG_SHORT) | base << 22 | offset | CTL_MB);
	return off + 8;
}

/*
 * Arm monitor @m of block @blk on SOB @sob >= @target (== if @eq) with its payload
 * releasing fence 0 of queue @q, then FENCE on it: E_N through MSG_SHORT,
 * the other blocks through MSG_LONG.
 */
static size_t arm_fence(uint8_t *cb, size_t off, uint64_t blk, uint32_t m,
			uint32_t sob, uint32_t target, bool eq, uint32_t q)
{
	uint32_t arm = sob / 8 | (0xFFU & ~(1U << sob % 8)) << 8 |
		       (eq ? 1U << 16 : 0) | target << 17;
	uint32_t regs[4] = { SM_MON_PAY_ADDRL(0), SM_MON_PAY_ADDRH(0), SM_MON_PAY_DATA(0), SM_MON_ARM(0) };
	uint32_t vals[4] = { (uint32_t)QFENCE0(q), (uint32_t)(QFENCE0(q) >> 32),
			     1, arm };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (blk == mmSYNC_MNGR_E_N_SOB_OBJ_0)
			off = msg_short(cb, off, 0, regs[i] - SM_MON_PAY_ADDRL(0) + 4 * m,
					vals[i]);
		else
			off = msg_long(cb, off, GAUDI_CFG_BASE + blk + regs[i] + 4 * m,
				       vals[i], 0);
	}
	return pkt(cb, off, PKT_FENCE, 1 | 1U << 16, 0, 8);
}

/* Write @val (bit 31: add) to SOB @sob of block @blk. */
static size_t sob_write(uint8_t *cb, size_t off, uint64_t blk, uint32_t sob,
			uint32_t val)
{
	if (blk == mmSYNC_MNGR_E_N_SOB_OBJ_0)
		return msg_short(cb, off, 1, 4 * sob, val);
	return msg_long(cb, off, GAUDI_CFG_BASE + blk + 4 * sob, val, 0);
}

#define USM_THREADS	8
#define USM_ROUNDS	16

struct usm_thread {
	struct hl_sess *s;
	unsigned int t;
	int fails, bad;
};

/*
 * Thread t: USM_ROUNDS CSs, each with a job on external queue t that
 * arms E_N monitor t on E_N SOB 8t and FENCEs before a memset of its
 * slice, and a job on queue t + 4 (mod 8) that adds 1 to the SOB; all in
 * flight, then multi-CS waits until every one completed.
 */
static void *usm_thread(void *arg)
{
	struct usm_thread *ut = arg;
	struct hl_sess *s = ut->s;
	uint32_t t = ut->t, sob = 8 * t, i, done = 0, guard;
	uint64_t seqs[USM_ROUNDS], cbw = 0, cbs = 0;
	uint8_t *pw = MAP_FAILED, *ps = MAP_FAILED;
	struct hl_cs_chunk ch[2];
	uint8_t *slice = s->buf + (1U << 20) + 4096 * USM_ROUNDS * t;
	const char *step = "CB create";
	unsigned int busy = 0;
	int rc = 0;

	if (cb_create(s->fd, 4096, 0, &cbw) || cb_create(s->fd, 4096, 0, &cbs))
		goto fail;
	step = "mmap";
	pw = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		  (off_t)cbw);
	ps = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		  (off_t)cbs);
	if (pw == MAP_FAILED || ps == MAP_FAILED)
		goto fail;
	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = cbw;
	ch[0].queue_index = t;
	ch[1].cb_handle = cbs;
	ch[1].queue_index = (t + 4) % 8;
	ch[1].cb_size = sob_write(ps, 0, mmSYNC_MNGR_E_N_SOB_OBJ_0, sob, SM_SOB_INC | 1);
	for (i = 0; i < USM_ROUNDS; i++) {
		size_t len = arm_fence(pw, 0, mmSYNC_MNGR_E_N_SOB_OBJ_0, t, sob, i + 1, false, t);

		len = lin_dma(pw, len, 0x0101010101010101ULL * (0x40 + t + i),
			      s->va + (slice - s->buf) + 4096 * i, 4096, true);
		ch[0].cb_size = len;
		step = "submit";
		rc = hl_submit(s->fd, ch, 2, 0, 0, &seqs[i]);
		if (rc)
			goto fail;
	}
	/* Multi-CS waits until all are done (each returns when one is). */
	for (guard = 0; done != (1U << USM_ROUNDS) - 1 && guard < 100; guard++) {
		union hl_wait_cs_args a;
		uint64_t list[USM_ROUNDS];
		uint32_t idx[USM_ROUNDS], n = 0;

		for (i = 0; i < USM_ROUNDS; i++)
			if (!(done & 1U << i)) {
				idx[n] = i;
				list[n++] = seqs[i];
			}
		memset(&a, 0, sizeof(a));
		a.in.seq = (uintptr_t)list;
		a.in.seq_arr_len = n;
		a.in.timeout_us = WAIT_US;
		a.in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
		step = "multi-CS wait";
		rc = xioctl(s->fd, DRM_IOCTL_HL_WAIT_CS, &a);
		/*
		 * Upstream serves two multi-CS waiters at a time
		 * (MULTI_CS_MAX_USER_CTX) and fails the others with ENOMEM:
		 * wait a little and try again, as its users must.
		 */
		if (rc == -ENOMEM && busy < 20000) {
			busy++;
			guard--;
			usleep(500);
			continue;
		}
		if (rc || a.out.status != HL_WAIT_CS_STATUS_COMPLETED) {
			rc = rc ? rc : (int)a.out.status;
			goto fail;
		}
		for (i = 0; i < n; i++)
			if (a.out.cs_completion_map & 1U << i)
				done |= 1U << idx[i];
	}
	step = "all done";
	if (done != (1U << USM_ROUNDS) - 1)
		goto fail;
	if (busy)
		tap_diag("thread %u: %u multi-CS waits retried after ENOMEM", t, busy);
	for (i = 0; i < USM_ROUNDS; i++)
		if (slice[4096 * i] != (uint8_t)(0x40 + t + i) ||
		    slice[4096 * i + 4095] != (uint8_t)(0x40 + t + i))
			ut->bad++;
	goto out;
fail:
	tap_diag("thread %u: %s failed (%d), done map 0x%x", t, step, rc, done);
	ut->fails++;
out:
	if (pw != MAP_FAILED)
		munmap(pw, 4096);
	if (ps != MAP_FAILED)
		munmap(ps, 4096);
	if (cbw)
		cb_destroy(s->fd, cbw);
	if (cbs)
		cb_destroy(s->fd, cbs);
	return NULL;
}

static void t_usersm(void)
{
	static const struct {
		uint64_t blk;
		uint32_t mon, sob;
		const char *name;
	} b[] = {
		{ mmSYNC_MNGR_E_N_SOB_OBJ_0, 0, 0, "E_N monitor 0 on SOB 0 (MSG_SHORT)" },
		{ mmSYNC_MNGR_E_S_SOB_OBJ_0, 511, 2047, "E_S monitor 511 on SOB 2047 (MSG_LONG)" },
		{ mmSYNC_MNGR_W_N_SOB_OBJ_0, 7, 100, "W_N monitor 7 on SOB 100 (MSG_LONG)" },
	};
	struct usm_thread ut[USM_THREADS];
	pthread_t th[USM_THREADS];
	uint64_t seq, seq2;
	uint32_t st = ~0U;
	unsigned int i, fails = 0, bad = 0;
	struct hl_sess s;
	size_t len;

	if (!ok(sess_open(&s), "usersm: open"))
		return;
	/* A fence between two streams through each user block. */
	for (i = 0; i < 3; i++) {
		memset(s.buf, 0, 4096);
		len = sob_write(s.cbp, 0, b[i].blk, b[i].sob, 0);	/* SOB = 0 */
		len = arm_fence(s.cbp, len, b[i].blk, b[i].mon, b[i].sob, 2,
				false, 0);
		len = lin_dma(s.cbp, len, 0x0101010101010101ULL * (0x6B + i),
			      s.va, 4096, true);
		if (!ok(hl_submit1(s.fd, s.cb, len, 0, &seq) == 0,
			"%s: CS arming it from DMA_0_0 accepted", b[i].name))
			continue;
		len = sob_write(s.cbp, 0, b[i].blk, b[i].sob, SM_SOB_INC | 1);
		ok(hl_submit1(s.fd, s.cb, len, 1, &seq2) == 0 &&
		   wait_cs(s.fd, seq2, WAIT_US, &st, NULL) == 0 &&
		   usleep(100000) == 0 && wait_cs(s.fd, seq, 0, &st, NULL) == 0 &&
		   st == HL_WAIT_CS_STATUS_BUSY && s.buf[0] == 0,
		   "  SOB += 1 from DMA_0_1 (target 2): the memset still waits (status %u)",
		   st);
		len = sob_write(s.cbp, 0, b[i].blk, b[i].sob, SM_SOB_INC | 1);
		ok(hl_submit1(s.fd, s.cb, len, 1, &seq2) == 0 &&
		   wait_cs(s.fd, seq, WAIT_US, &st, NULL) == 0 &&
		   st == HL_WAIT_CS_STATUS_COMPLETED &&
		   s.buf[0] == (uint8_t)(0x6B + i) && s.buf[4095] == (uint8_t)(0x6B + i),
		   "  SOB += 1 again: the monitor fired, the memset ran (status %u)",
		   st);
	}
	/* 8 threads, SOB-fenced work on every external queue, multi-CS waits. */
	for (i = 0; i < USM_THREADS; i++) {
		ut[i] = (struct usm_thread){ .s = &s, .t = i };
		if (pthread_create(&th[i], NULL, usm_thread, &ut[i]))
			ut[i].fails = 1, th[i] = 0;
	}
	for (i = 0; i < USM_THREADS; i++) {
		if (th[i])
			pthread_join(th[i], NULL);
		fails += ut[i].fails;
		bad += ut[i].bad;
	}
	ok(!fails && !bad,
	   "%u threads x %u CSs fenced by E_N SOBs and monitors, multi-CS waits: %u failed, %u wrong data",
	   USM_THREADS, USM_ROUNDS, fails, bad);
	hl_sess_close(&s);
	/* The next holder starts with clean user SOBs. */
	if (ok(sess_open(&s), "usersm: reopen")) {
		memset(s.buf, 0, 4096);
		/* SOB 0 of E_N must be 0 again: a monitor for == 0 fires. */
		len = arm_fence(s.cbp, 0, mmSYNC_MNGR_E_N_SOB_OBJ_0, 1, 0, 0, true, 2);
		len = lin_dma(s.cbp, len, 0x7C7C7C7C7C7C7C7CULL, s.va, 4096, true);
		ok(hl_submit1(s.fd, s.cb, len, 2, &seq) == 0 &&
		   wait_cs(s.fd, seq, 5000000, &st, NULL) == 0 &&
		   st == HL_WAIT_CS_STATUS_COMPLETED && s.buf[0] == 0x7C,
		   "next context: E_N SOB 0 reads 0 (a monitor for == 0 fired, status %u)",
		   st);
		hl_sess_close(&s);
	}
}

/* ---- 15-bit SOB wrap: 40,000 signal/wait pairs --------------------------- */

static int signal_cs(int fd, uint32_t q, uint64_t *seq, uint32_t *sob,
		     uint32_t *before)
{
	struct hl_cs_chunk ch;
	union hl_cs_args a;
	int rc;

	memset(&ch, 0, sizeof(ch));
	ch.queue_index = q;
	memset(&a, 0, sizeof(a));
	a.in.chunks_execute = (uintptr_t)&ch;
	a.in.num_chunks_execute = 1;
	a.in.cs_flags = HL_CS_FLAGS_SIGNAL;
	rc = xioctl(fd, DRM_IOCTL_HL_CS, &a);
	*seq = a.out.seq;
	*sob = a.out.sob_base_addr_offset;
	*before = a.out.sob_count_before_submission;
	return rc;
}

/* Pair @k with the signal queue stalled: the memset must wait for it. */
static bool ordered_pair(struct hl_sess *s, unsigned int k, uint32_t *sob,
			 uint32_t *before)
{
	uint64_t sig, w, d;
	uint32_t st = ~0U, st2 = ~0U;
	uint8_t pat = 0x30 + k % 64;
	bool held, ran;

	memset(s->buf, 0, 4096);
	if (model_ctl("qm_hang", 1))
		return false;
	if (signal_cs(s->fd, 1, &sig, sob, before) ||
	    sync_cs(s->fd, HL_CS_FLAGS_WAIT, 0, &sig, &w)) {
		model_ctl("qm_unhang", 1);
		return false;
	}
	lin_dma(s->cbp, 0, 0x0101010101010101ULL * pat, s->va, 4096, true);
	if (hl_submit1(s->fd, s->cb, 24, 0, &d)) {
		model_ctl("qm_unhang", 1);
		return false;
	}
	usleep(100000);
	held = wait_cs(s->fd, d, 0, &st, NULL) == 0 &&
	       st == HL_WAIT_CS_STATUS_BUSY && s->buf[0] == 0;
	model_ctl("qm_unhang", 1);
	ran = wait_cs(s->fd, d, WAIT_US, &st2, NULL) == 0 &&
	      st2 == HL_WAIT_CS_STATUS_COMPLETED && s->buf[0] == pat &&
	      s->buf[4095] == pat;
	if (!held || !ran)
		tap_diag("pair %u: held %d (status %u byte 0x%02x) ran %d (status %u)",
			 k, held, st, s->buf[0], ran, st2);
	return held && ran;
}

static void t_wrap(void)
{
	static const unsigned int checks[] = { 1, 32766, 32767, 32768, 32769,
					       40000 };
	unsigned int k, c = 0, fail = 0, bad_order = 0;
	uint32_t st = ~0U, sob = 0, before = 0, sob1 = 0, sob_at[6] = {};
	uint32_t before_at[6] = {};
	uint64_t sig, w = 0;
	struct hl_sess s;

	if (!ok(sess_open(&s), "wrap: open"))
		return;
	for (k = 1; k <= 40000; k++) {
		if (c < 6 && k == checks[c]) {
			if (w && (wait_cs(s.fd, w, WAIT_US, &st, NULL) ||
				  st != HL_WAIT_CS_STATUS_COMPLETED))
				fail++;
			if (!ordered_pair(&s, k, &sob_at[c], &before_at[c]))
				bad_order++;
			c++;
			w = 0;
			continue;
		}
		if (signal_cs(s.fd, 1, &sig, &sob, &before) ||
		    sync_cs(s.fd, HL_CS_FLAGS_WAIT, 0, &sig, &w)) {
			fail++;
			break;
		}
		if (k == 2)
			sob1 = sob;
		if (k % 1000 == 0 &&
		    (wait_cs(s.fd, w, WAIT_US, &st, NULL) ||
		     st != HL_WAIT_CS_STATUS_COMPLETED))
			fail++;
	}
	ok(!fail, "40,000 signal (DMA_0_1) / wait (DMA_0_0) pairs complete (%u failed)",
	   fail);
	ok(!bad_order,
	   "with the signal queue stalled, the wait holds the next CS back at pairs 1, 32766..32769, 40000 (%u out of order)",
	   bad_order);
	ok(sob_at[0] == sob1 && sob_at[1] == sob1 && sob_at[2] == sob1 &&
	   before_at[0] == 0 && before_at[2] == 32766,
	   "signals 1..32767 on one SOB (0x%x), counting 0..32766 before", sob1);
	ok(sob_at[3] != sob1 && sob_at[4] == sob_at[3] && before_at[3] == 0 &&
	   before_at[4] == 1,
	   "signal 32768 moves to the queue's other SOB (0x%x), cleared (before %u, %u)",
	   sob_at[3], before_at[3], before_at[4]);
	ok(sob1 < mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * 144 &&
	   sob_at[3] < mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * 144,
	   "the signal SOBs are below the user range (SOB 144)");
	hl_sess_close(&s);
}

/* ---- staged submission ------------------------------------------------------ */

#define STAGED		HL_CS_FLAGS_STAGED_SUBMISSION
#define STAGED_FIRST	HL_CS_FLAGS_STAGED_SUBMISSION_FIRST
#define STAGED_LAST	HL_CS_FLAGS_STAGED_SUBMISSION_LAST

/*
 * One CS of the CB's first @len bytes on queue @q with @flags; @in_u64 goes
 * to in.seq (a staged submission's later parts) or, with ENCAP_SIGNALS, its
 * low half to in.encaps_sig_handle_id.  The CB is copied at submission, so
 * it may be rewritten right after.
 */
static int submit_staged(struct hl_sess *s, uint32_t len, uint32_t q,
			 uint32_t flags, uint64_t in_u64, uint64_t *seq)
{
	struct hl_cs_chunk ch;
	union hl_cs_args a;
	int rc;

	memset(&ch, 0, sizeof(ch));
	ch.cb_handle = s->cb;
	ch.queue_index = q;
	ch.cb_size = len;
	memset(&a, 0, sizeof(a));
	a.in.chunks_execute = (uintptr_t)&ch;
	a.in.num_chunks_execute = 1;
	a.in.cs_flags = flags;
	if (flags & HL_CS_FLAGS_ENCAP_SIGNALS)
		a.in.encaps_sig_handle_id = (uint32_t)in_u64;
	else
		a.in.seq = in_u64;
	rc = xioctl(s->fd, DRM_IOCTL_HL_CS, &a);
	if (seq)
		*seq = rc ? 0 : a.out.seq;
	return rc;
}

/* A memset of 4 KiB block @blk of the session's buffer to @v on queue @q. */
static int staged_memset(struct hl_sess *s, unsigned int blk, uint8_t v,
			 uint32_t q, uint32_t flags, uint64_t in_u64,
			 uint64_t *seq)
{
	lin_dma(s->cbp, 0, 0x0101010101010101ULL * v, s->va + 4096ULL * blk,
		4096, true);
	return submit_staged(s, 24, q, flags, in_u64, seq);
}

static bool block_is(struct hl_sess *s, unsigned int blk, uint8_t v)
{
	unsigned int i;

	for (i = 0; i < 4096; i++)
		if (s->buf[4096 * blk + i] != v)
			return false;
	return true;
}

static void t_staged(void)
{
	uint64_t first = 0, seq = 0, seq2 = 0, many = 0;
	uint32_t st = ~0U;
	unsigned int k, bad = 0;
	struct hl_sess s;
	int rc;

	if (!ok(sess_open(&s), "staged: open"))
		return;
	ok(staged_memset(&s, 0, 0x11, 0, STAGED | STAGED_FIRST, 0, &first) == 0,
	   "staged: FIRST part (memset on DMA_0_0), sequence %llu",
	   (unsigned long long)first);
	ok(wait_cs(s.fd, first, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY,
	   "staged: the submission is not complete before its LAST part (status %u)",
	   st);
	ok(staged_memset(&s, 1, 0x22, 1, STAGED, first, &seq) == 0 &&
	   seq == first,
	   "staged: a middle part on DMA_0_1 returns the first part's sequence (%llu)",
	   (unsigned long long)seq);
	ok(wait_cs(s.fd, first, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY, "staged: still busy after the middle part");
	ok(staged_memset(&s, 2, 0x33, 0, STAGED | STAGED_LAST, first, &seq) == 0 &&
	   seq == first, "staged: LAST part on DMA_0_0");
	ok(wait_cs(s.fd, first, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED && block_is(&s, 0, 0x11) &&
	   block_is(&s, 1, 0x22) && block_is(&s, 2, 0x33),
	   "staged: WAIT_CS on the sequence completes with all three parts' data");
	ok(staged_memset(&s, 3, 0x44, 0, STAGED, first, &seq) == -EINVAL,
	   "staged: a part for a submission that ended: EINVAL");
	ok(staged_memset(&s, 3, 0x44, 0, STAGED, first + 100000, &seq) == -EINVAL,
	   "staged: a part for a sequence never submitted: EINVAL");

	/* 200 parts on the 8 external queues, LAST closes them all. */
	memset(s.buf, 0, 256 * 4096);
	rc = staged_memset(&s, 0, 0x50, 0, STAGED | STAGED_FIRST, 0, &many);
	for (k = 1; !rc && k < 200; k++) {
		rc = staged_memset(&s, k, 0x50 + k % 64, k % 8,
				   STAGED | (k == 199 ? STAGED_LAST : 0), many,
				   &seq);
		if (!rc && seq != many)
			bad++;
	}
	ok(!rc && !bad, "staged: 200 parts in one submission (rc %d, %u wrong sequences)",
	   rc, bad);
	/* The data is only there once the submission completed. */
	rc = wait_cs(s.fd, many, WAIT_US, &st, NULL);
	for (k = 0, bad = 0; k < 200; k++)
		if (!block_is(&s, k, k ? 0x50 + k % 64 : 0x50))
			bad++;
	ok(rc == 0 && st == HL_WAIT_CS_STATUS_COMPLETED && !bad,
	   "staged: the 200-part submission completes, every block right (%u bad)",
	   bad);
	ok(staged_memset(&s, 0, 0x61, 3, STAGED | STAGED_FIRST | STAGED_LAST, 0,
			 &seq2) == 0 &&
	   wait_cs(s.fd, seq2, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED && block_is(&s, 0, 0x61),
	   "staged: FIRST|LAST in one CS is a whole submission");
	if (!peer) {
		/* Upstream ignores these flags without STAGED_SUBMISSION. */
		ok(staged_memset(&s, 0, 0x62, 0, STAGED_FIRST, 0, &seq) == -EINVAL,
		   "staged: FIRST without STAGED_SUBMISSION: EINVAL");
		ok(staged_memset(&s, 0, 0x62, 0, STAGED_LAST, first, &seq) == -EINVAL,
		   "staged: LAST without STAGED_SUBMISSION: EINVAL");
	}
	hl_sess_close(&s);
}

/* ---- encapsulated signals ---------------------------------------------------- */

static int reserve_sigs(int fd, uint32_t q, uint32_t count, uint32_t *handle,
			uint32_t *sob, uint32_t *next)
{
	union hl_cs_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.cs_flags = HL_CS_FLAGS_RESERVE_SIGNALS_ONLY;
	a.in.encaps_signals_q_idx = q;
	a.in.encaps_signals_count = count;
	rc = xioctl(fd, DRM_IOCTL_HL_CS, &a);
	if (handle)
		*handle = a.out.handle_id;
	if (sob)
		*sob = a.out.sob_base_addr_offset;
	if (next)
		*next = a.out.count;
	return rc;
}

static int unreserve_sigs(int fd, uint32_t handle)
{
	union hl_cs_args a;

	memset(&a, 0, sizeof(a));
	a.in.cs_flags = HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY;
	a.in.encaps_sig_handle_id = handle;
	return xioctl(fd, DRM_IOCTL_HL_CS, &a);
}

static int encaps_wait(int fd, uint32_t q, uint64_t sig_seq, uint32_t offset,
		       uint64_t *seq)
{
	struct hl_cs_chunk ch;

	memset(&ch, 0, sizeof(ch));
	ch.queue_index = q;
	ch.encaps_signal_seq = sig_seq;
	ch.encaps_signal_offset = offset;
	return hl_submit(fd, &ch, 1, HL_CS_FLAGS_WAIT | HL_CS_FLAGS_ENCAP_SIGNALS,
		      0, seq);
}

/* @n MSG_LONGs adding 1 to the SOB at CFG offset @sob (@op_set: set it). */
static uint32_t sob_incs(struct hl_sess *s, uint32_t sob, unsigned int n,
			 bool op_set)
{
	size_t off = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		off = msg_long(s->cbp, off, GAUDI_CFG_BASE + sob,
			       op_set ? 1 : (1U << 31) | 1, 0);
	return off;
}

static void t_encaps(void)
{
	uint32_t h1 = 0, h2 = 0, h0 = 0, sob = 0, sob2 = 0, next = 0, next2 = 0;
	uint64_t e = 0, w1, d1, w2, d2, w3, seq;
	uint32_t st = ~0U, len;
	struct hl_sess s;

	if (!ok(sess_open(&s), "encaps: open"))
		return;
	ok(reserve_sigs(s.fd, 0, 4, &h1, &sob, &next) == 0 && h1 &&
	   sob == mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * 128 && next == 5,
	   "encaps: reserve 4 on DMA_0_0: handle %u, SOB 0x%x (128), next value %u",
	   h1, sob, next);
	ok(reserve_sigs(s.fd, 0, 4, &h2, &sob2, &next2) == 0 && h2 != h1 &&
	   sob2 == sob && next2 == 9,
	   "encaps: reserve 4 more: handle %u, next value %u", h2, next2);
	ok(unreserve_sigs(s.fd, h2) == 0, "encaps: unreserve the last reservation");
	ok(unreserve_sigs(s.fd, h2) == -EINVAL, "encaps: unreserve it again: EINVAL");
	ok(unreserve_sigs(s.fd, 12345) == -EINVAL,
	   "encaps: unreserve an unknown handle: EINVAL");
	ok(reserve_sigs(s.fd, 0, 40000, NULL, NULL, NULL) == -EINVAL,
	   "encaps: reserve 40000 (more than a SOB holds): EINVAL");
	ok(reserve_sigs(s.fd, 8, 4, NULL, NULL, NULL) == -EINVAL,
	   "encaps: reserve on internal queue DMA_2_0: EINVAL");
	ok(reserve_sigs(s.fd, 0, 0, &h0, NULL, &next) == 0 && next == 5 &&
	   unreserve_sigs(s.fd, h0) == 0,
	   "encaps: reserve 0 and unreserve it (next value %u)", next);

	/* Signals 1-2 of 4 from the FIRST part on DMA_0_1. */
	len = sob_incs(&s, sob, 2, false);
	ok(submit_staged(&s, len, 1,
			 STAGED | STAGED_FIRST | HL_CS_FLAGS_ENCAP_SIGNALS, h1,
			 &e) == 0,
	   "encaps: FIRST part with the reservation adds 2 to its SOB (seq %llu)",
	   (unsigned long long)e);
	memset(s.buf, 0, 3 * 4096);
	ok(encaps_wait(s.fd, 0, e, 2, &w1) == 0 &&
	   staged_memset(&s, 0, 0x71, 0, 0, 0, &d1) == 0 &&
	   wait_cs(s.fd, d1, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED && block_is(&s, 0, 0x71),
	   "encaps: a wait for signal 2 on DMA_0_0 passes, the memset behind it runs");
	ok(encaps_wait(s.fd, 2, e, 4, &w2) == 0 &&
	   staged_memset(&s, 1, 0x72, 2, 0, 0, &d2) == 0,
	   "encaps: a wait for signal 4 on DMA_0_2 and a memset behind it");
	usleep(200000);
	ok(wait_cs(s.fd, d2, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY && block_is(&s, 1, 0),
	   "encaps: the memset waits for signals 3-4 (status %u)", st);
	ok(encaps_wait(s.fd, 3, e, 5, &w3) == -EINVAL,
	   "encaps: a wait for signal 5 of 4: EINVAL");
	if (!peer) {
		len = sob_incs(&s, sob, 1, true);
		ok(submit_staged(&s, len, 1, STAGED, e, &seq) == -EINVAL,
		   "encaps: a part that sets (not adds to) the SOB: EINVAL");
		len = sob_incs(&s, sob, 1, false);
		ok(hl_submit1(s.fd, s.cb, len, 1, &seq) == -EINVAL,
		   "encaps: a CS outside the submission adding to its SOB: EINVAL");
		ok(unreserve_sigs(s.fd, h1) == -EINVAL,
		   "encaps: unreserve while a submission uses it: EINVAL");
	}
	len = sob_incs(&s, sob, 2, false);
	ok(submit_staged(&s, len, 1, STAGED | STAGED_LAST, e, &seq) == 0 &&
	   seq == e, "encaps: LAST part adds signals 3-4");
	ok(wait_cs(s.fd, d2, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED && block_is(&s, 1, 0x72),
	   "encaps: after signal 4 the waiting memset runs");
	ok(wait_cs(s.fd, e, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED,
	   "encaps: the signalling submission completes");
	ok(encaps_wait(s.fd, 3, e, 1, &w3) == 0,
	   "encaps: a wait on the ended submission succeeds (nothing to wait for)");
	ok(unreserve_sigs(s.fd, h1) == -EINVAL,
	   "encaps: the reservation ended with its submission: unreserve EINVAL");
	ok(signal_cs(s.fd, 0, &seq, &sob2, &next2) == 0 && sob2 == sob &&
	   wait_cs(s.fd, seq, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED,
	   "encaps: a signal CS on DMA_0_0 goes on after the reserved values (SOB 0x%x, %u before)",
	   sob2, next2);
	if (!peer) {
		ok(next2 == 4, "encaps: 4 signals counted before it (%u)", next2);
		lin_dma(s.cbp, 0, 0, s.va, 4096, true);
		ok(submit_staged(&s, 24, 0, HL_CS_FLAGS_ENCAP_SIGNALS, 1, &seq) ==
		   -EINVAL,
		   "encaps: ENCAP_SIGNALS on a CS that is not staged: EINVAL");
		ok(hl_submit(s.fd, NULL, 0, HL_CS_FLAGS_COLLECTIVE_WAIT, 0, &seq) ==
		   -EINVAL,
		   "collective wait (needs NIC ports): EINVAL");
	}
	/*
	 * A reservation left behind is released at close.  (Upstream's
	 * reservation holds a reference on its context: the device cannot
	 * be opened again, so the peer skips this.)
	 */
	if (peer) {
		hl_sess_close(&s);
		return;
	}
	ok(reserve_sigs(s.fd, 5, 100, &h2, NULL, NULL) == 0,
	   "encaps: a reservation left for close to release");
	hl_sess_close(&s);
	if (ok(sess_open(&s), "encaps: reopen")) {
		ok(reserve_sigs(s.fd, 5, 4, &h2, &sob2, &next2) == 0 &&
		   next2 == 5,
		   "encaps: after close the SOBs start over (next value %u)",
		   next2);
		hl_sess_close(&s);
	}
	if (!ok(sess_open(&s), "encaps: SOB switch: open"))
		return;
	/*
	 * Values 1..32767 fill queue 6's first SOB, the next reservation
	 * moves to the other one; with both held by reservations no CS took,
	 * a third reservation or a signal that needs a switch gets EBUSY.
	 */
	ok(reserve_sigs(s.fd, 6, 32767, &h1, &sob, &next) == 0 && next == 32768,
	   "encaps: reserve a whole SOB (32767 values, SOB 0x%x)", sob);
	ok(reserve_sigs(s.fd, 6, 10, &h2, &sob2, &next2) == 0 && sob2 == sob + 4 &&
	   next2 == 11,
	   "encaps: the next reservation moves to the queue's other SOB (0x%x, next %u)",
	   sob2, next2);
	ok(reserve_sigs(s.fd, 6, 32767 - 10, &h0, NULL, NULL) == 0,
	   "encaps: fill the other SOB too");
	ok(reserve_sigs(s.fd, 6, 1, NULL, NULL, NULL) == -EBUSY,
	   "encaps: a reservation needing a third switch while both SOBs are reserved: EBUSY");
	ok(signal_cs(s.fd, 6, &seq, &sob2, &next2) == -EBUSY,
	   "encaps: a signal CS needing the switch: EBUSY, not a hang");
	ok(unreserve_sigs(s.fd, h1) == -EINVAL,
	   "encaps: the first SOB's reservation cannot be given back (values moved on)");
	ok(unreserve_sigs(s.fd, h0) == 0 && unreserve_sigs(s.fd, h2) == 0,
	   "encaps: the other SOB's reservations, newest first, can");
	ok(reserve_sigs(s.fd, 6, 5, NULL, &sob2, &next2) == 0 && sob2 == sob + 4 &&
	   next2 == 6,
	   "encaps: reserving again starts the other SOB over (next %u)", next2);
	lin_dma(s.cbp, 0, 0, s.va, 4096, true);
	ok(hl_submit1(s.fd, s.cb, 24, 0, &seq) == 0 &&
	   submit_staged(&s, 24, 0, STAGED, seq, &e) == -EINVAL,
	   "staged: a part naming a CS that is not a staged first part: EINVAL");
	hl_sess_close(&s);
}

/* ---- EXPORT_DMABUF_FD of HBM ---------------------------------------------- */

static void t_dmabuf(void)
{
	static const struct { uint64_t addr, size, off; const char *what; }
	bad[] = {
		{ GAUDI_DRAM_USER_START, 2 << 20, 4096, "offset not 0" },
		{ GAUDI_DRAM_USER_START, 0, 0, "size 0" },
		{ GAUDI_DRAM_USER_START, 2048, 0, "size not page aligned" },
		{ GAUDI_DRAM_USER_START + 2048, 4096, 0, "address not page aligned" },
		{ 0x10000000ULL, 4096, 0, "below the user part of HBM" },
		{ GAUDI_DRAM_USER_START - 4096, 8192, 0, "straddling the user base" },
		{ 32ULL << 30, 4096, 0, "past the end of HBM" },
		{ (32ULL << 30) - 4096, 8192, 0, "crossing the end of HBM" },
		{ GAUDI_DRAM_USER_START, 0xFFFFFFFFFFFFF000ULL, 0, "size wrapping around" },
	};
	char link[64], target[128];
	long long sz;
	struct hl_sess s;
	unsigned int i;
	int dfd, dfd2;
	ssize_t n;

	if (!ok(sess_open(&s), "dmabuf: open"))
		return;
	if (ok(hl_export_dmabuf(s.fd, GAUDI_DRAM_USER_START, 2 << 20, 0, O_RDWR | O_CLOEXEC,
			 &dfd) == 0 && dfd >= 0,
	       "EXPORT_DMABUF_FD of 2 MiB at the user HBM base: fd %d", dfd)) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", dfd);
		n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = 0;
		ok(!strcmp(target, "anon_inode:dmabuf") ||
		   !strncmp(target, "/dmabuf:", 8),
		   "the fd is a dma-buf (%s)", target);
		sz = hl_fdinfo(dfd, "size");
		ok(sz == 2 << 20, "its fdinfo size is 2 MiB (%lld)", sz);
		ok(fcntl(dfd, F_GETFD) & FD_CLOEXEC, "O_CLOEXEC honoured");
		ok(close(dfd) == 0, "close the dma-buf");
	}
	ok(hl_export_dmabuf(s.fd, (32ULL << 30) - 4096, 4096, 0, O_RDWR, &dfd) == 0 &&
	   !(fcntl(dfd, F_GETFD) & FD_CLOEXEC),
	   "the last page of HBM exports (no O_CLOEXEC)");
	ok(hl_export_dmabuf(s.fd, GAUDI_DRAM_USER_START, 4096, 0, O_RDWR, &dfd2) == 0 &&
	   dfd2 != dfd, "a second export of overlapping HBM: another dma-buf");
	if (dfd >= 0)
		close(dfd);
	if (dfd2 >= 0)
		close(dfd2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(hl_export_dmabuf(s.fd, bad[i].addr, bad[i].size, bad[i].off,
			     O_RDWR, &dfd) == -EINVAL,
		   "EXPORT_DMABUF_FD %s: EINVAL", bad[i].what);
	if (!peer)
		ok(hl_export_dmabuf(s.fd, GAUDI_DRAM_USER_START, 4096, 0, 0x40, &dfd) == -EINVAL,
		   "EXPORT_DMABUF_FD with O_CREAT in flags: EINVAL (upstream ignores it)");
	/* A dma-buf outlives the file that exported it. */
	ok(hl_export_dmabuf(s.fd, GAUDI_DRAM_USER_START, 4096, 0, O_RDWR, &dfd) == 0,
	   "export, then close the device");
	hl_sess_close(&s);
	ok(dfd >= 0 && hl_fdinfo(dfd, "size") == 4096 && close(dfd) == 0,
	   "the dma-buf stays valid after the device file closed");
}

/* ---- HBM allocation (extension): DRAM_USAGE, fdinfo, leaks ------------- */

static void t_hbm(void)
{
	uint64_t free0, c0, f1, c1, h1, h2, h, addr, old;
	unsigned int i, fail = 0;
	long long tv, rv;
	struct hl_sess s;

	if (!ok(sess_open(&s), "hbm: open"))
		return;
	ok(hl_dram_usage(s.fd, &free0, &c0) && c0 == 0 &&
	   free0 == (32ULL << 30) - GAUDI_DRAM_USER_START,
	   "DRAM_USAGE at open: %llu MiB free, 0 for the context",
	   (unsigned long long)(free0 >> 20));
	ok(hl_fdinfo(s.fd, "drm-total-vram") == 0,
	   "fdinfo drm-total-vram 0 at open");
	ok(hl_mem_alloc(s.fd, 4 << 20, 0, 0, &h1) == 0 && h1,
	   "ALLOC 4 MiB: handle %llu", (unsigned long long)h1);
	ok(hl_mem_alloc(s.fd, 3 << 20, 2 << 20, HL_MEM_CONTIGUOUS, &h2) == 0 &&
	   h2 && h2 != h1, "ALLOC 3 MiB (2 MiB pages, contiguous)");
	ok(hl_dram_usage(s.fd, &f1, &c1) && c1 == 8 << 20 &&
	   f1 == free0 - (8 << 20),
	   "DRAM_USAGE: context 8 MiB (3 MiB rounds to 4), free down by 8 MiB (%llu)",
	   (unsigned long long)c1);
	tv = hl_fdinfo(s.fd, "drm-total-vram");
	rv = hl_fdinfo(s.fd, "drm-resident-vram");
	ok(tv == 8 << 20 && rv == 8 << 20,
	   "fdinfo drm-total-vram and drm-resident-vram 8 MiB (%lld, %lld)", tv,
	   rv);
	ok(hl_mem_map(s.fd, h1, &addr) == 0 && addr >= GAUDI_DRAM_USER_START &&
	   addr + (4 << 20) <= 32ULL << 30 && !(addr & ((2 << 20) - 1)),
	   "MAP of the handle: HBM 0x%llx, 2 MiB aligned", (unsigned long long)addr);
	ok(hl_mem_alloc(s.fd, 0, 0, 0, &h) == -EINVAL, "ALLOC of 0 bytes: EINVAL");
	ok(hl_mem_alloc(s.fd, 33ULL << 30, 0, 0, &h) == -EINVAL,
	   "ALLOC of 33 GiB: EINVAL");
	ok(hl_mem_alloc(s.fd, free0, 0, 0, &h) == -ENOMEM,
	   "ALLOC of the whole user HBM while 8 MiB are taken: ENOMEM");
	ok(hl_mem_alloc(s.fd, 2 << 20, 4096, 0, &h) == -EINVAL,
	   "ALLOC with 4 KiB pages: EINVAL");
	ok(hl_mem_alloc(s.fd, 2 << 20, 0, HL_MEM_USERPTR, &h) == -EINVAL,
	   "ALLOC with USERPTR: EINVAL");
	ok(hl_mem_free(s.fd, 0) == -EINVAL, "FREE of handle 0: EINVAL");
	ok(hl_mem_free(s.fd, 12345) == -EINVAL, "FREE of an unknown handle: EINVAL");
	ok(hl_mem_free(s.fd, 1ULL << 40) == -EINVAL, "FREE of a huge handle: EINVAL");
	ok(hl_mem_map(s.fd, 12345, &addr) == -EINVAL,
	   "MAP of an unknown handle: EINVAL");
	ok(hl_mem_free(s.fd, h1) == 0 && hl_mem_free(s.fd, h1) == -EINVAL,
	   "FREE, then FREE again: EINVAL");
	ok(hl_mem_free(s.fd, h2) == 0 && hl_dram_usage(s.fd, &f1, &c1) && c1 == 0 &&
	   f1 == free0 && hl_fdinfo(s.fd, "drm-total-vram") == 0,
	   "after FREE: DRAM_USAGE and fdinfo back to 0");
	for (i = 0; i < 1000; i++) {
		uint64_t sz = (1 + rnd() % 32) << 20;

		if (hl_mem_alloc(s.fd, sz, 0, 0, &h) || hl_mem_free(s.fd, h))
			fail++;
	}
	ok(!fail && hl_dram_usage(s.fd, &f1, &c1) && f1 == free0 && c1 == 0 &&
	   hl_fdinfo(s.fd, "drm-total-vram") == 0,
	   "1000 ALLOC/FREE cycles of 1..32 MiB: no leak (%u failed)", fail);
	ok(hl_mem_alloc(s.fd, 64 << 20, 0, 0, &old) == 0,
	   "ALLOC 64 MiB, then close without FREE");
	hl_sess_close(&s);
	if (!ok(sess_open(&s), "hbm: reopen"))
		return;
	ok(hl_dram_usage(s.fd, &f1, &c1) && f1 == free0 && c1 == 0,
	   "close freed it: %llu MiB free", (unsigned long long)(f1 >> 20));
	ok(hl_mem_free(s.fd, old) == -EINVAL,
	   "FREE of the previous file's handle: EINVAL");
	hl_sess_close(&s);
}

/* ---- fdinfo engine time (drm-engine-<class>) ----------------------------- */

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The fdinfo busy time of the DMA class covers a transfer and stays
 * within the time the submission took; the other classes stay idle, and
 * an idle wait adds nothing.
 */
static void t_fdinfo(void)
{
	long long d0, m0, p0, d1, m1, p1, d2, start, wall;
	uint64_t h = 0, addr = 0;
	struct hl_sess s;
	size_t len;
	int rc;

	if (!ok(sess_open(&s), "fdinfo: open"))
		return;
	d0 = hl_fdinfo(s.fd, "drm-engine-dma");
	m0 = hl_fdinfo(s.fd, "drm-engine-mme");
	p0 = hl_fdinfo(s.fd, "drm-engine-tpc");
	ok(d0 == 0 && m0 == 0 && p0 == 0,
	   "fdinfo: drm-engine-dma, -mme and -tpc at open: %lld %lld %lld ns",
	   d0, m0, p0);
	ok(hl_mem_alloc(s.fd, 64 << 20, 0, 0, &h) == 0 &&
	   hl_mem_map(s.fd, h, &addr) == 0, "fdinfo: 64 MiB of HBM at 0x%llx",
	   (unsigned long long)addr);
	len = pkt_lin_dma(s.cbp, 0, 0x5A5A5A5A, addr, 64 << 20, true, false);
	start = mono_ns();
	rc = run_cb(&s, len, GAUDI_QUEUE_ID_DMA_0_0);
	wall = mono_ns() - start;
	d1 = hl_fdinfo(s.fd, "drm-engine-dma");
	m1 = hl_fdinfo(s.fd, "drm-engine-mme");
	p1 = hl_fdinfo(s.fd, "drm-engine-tpc");
	ok(rc == 0 && d1 - d0 >= 1000000 && d1 - d0 <= wall,
	   "fdinfo: a 64 MiB memset keeps DMA busy %lld ns of the %lld ns the CS took (at least 1 ms, at most all of it)",
	   d1 - d0, wall);
	ok(m1 == m0 && p1 == p0, "fdinfo: MME and TPC stay idle (%lld, %lld)",
	   m1, p1);
	usleep(200000);
	d2 = hl_fdinfo(s.fd, "drm-engine-dma");
	ok(d2 == d1, "fdinfo: 200 ms idle add nothing (%lld -> %lld)", d1, d2);
	if (h)
		hl_mem_free(s.fd, h);
	hl_sess_close(&s);
}

/* ---- page fault: fast abort, capture, user mappings --------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void t_fault(void)
{
	struct hl_user_mapping um[8];
	struct hl_page_fault_info pf;
	struct hl_info_args ia;
	uint64_t sig, w, d = 0, va2 = 0, ev = 0, cnt = 0;
	uint32_t st = ~0U;
	struct hl_sess s;
	uint8_t *buf2 = NULL;
	double t0, dt;
	unsigned int i;
	bool found = false;
	int efd, rc;

	if (!ok(sess_open(&s), "fault: open"))
		return;
	memset(&ia, 0, sizeof(ia));
	ia.op = HL_INFO_USER_MAPPINGS;
	ia.return_pointer = (uintptr_t)um;
	ia.return_size = sizeof(um);
	ia.array_size = 77;
	ok(xioctl(s.fd, DRM_IOCTL_HL_INFO, &ia) == 0 && ia.array_size == 0,
	   "USER_MAPPINGS before a page fault: no entries");
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	memset(&ia, 0, sizeof(ia));
	ia.op = HL_INFO_REGISTER_EVENTFD;
	ia.eventfd = efd;
	ok(xioctl(s.fd, DRM_IOCTL_HL_INFO, &ia) == 0, "register an eventfd");
	if (posix_memalign((void **)&buf2, 2 << 20, 2 << 20) ||
	    map_host(s.fd, buf2, 2 << 20, &va2)) {
		ok(0, "map a second 2 MiB buffer");
		goto out;
	}
	if (!ok(model_ctl("qm_hang", 1) == 0, "model: hang DMA_0_1"))
		goto out;
	lin_dma(s.cbp, 0, 0x4444444444444444ULL, va2, 2 << 20, true);
	ok(sync_cs(s.fd, HL_CS_FLAGS_SIGNAL, 1, NULL, &sig) == 0 &&
	   sync_cs(s.fd, HL_CS_FLAGS_WAIT, 0, &sig, &w) == 0 &&
	   hl_submit1(s.fd, s.cb, 24, 0, &d) == 0,
	   "a memset of the buffer queued on DMA_0_0 behind a wait for a stalled signal");
	ok(unmap_host(s.fd, va2) == 0, "UNMAP the buffer while the CS is queued");
	t0 = now_s();
	model_ctl("qm_unhang", 1);
	rc = wait_cs(s.fd, d, WAIT_US, &st, NULL);
	dt = now_s() - t0;
	ok(rc == -EIO && st == HL_WAIT_CS_STATUS_ABORTED,
	   "the CS faults: WAIT_CS EIO, ABORTED (rc %d, status %u)", rc, st);
	ok(dt < 3.0, "in %.2f s (CS timeout 10 s)", dt);
	memset(&pf, 0, sizeof(pf));
	ok(hl_info(s.fd, HL_INFO_PAGE_FAULT_EVENT, &pf, sizeof(pf)) == 0 &&
	   pf.addr == va2 && pf.timestamp,
	   "PAGE_FAULT_EVENT captured VA 0x%llx (buffer at 0x%llx)",
	   (unsigned long long)pf.addr, (unsigned long long)va2);
	hl_info(s.fd, HL_INFO_GET_EVENTS, &ev, sizeof(ev));
	ok((ev & HL_NOTIFIER_EVENT_PAGE_FAULT) &&
	   read(efd, &cnt, sizeof(cnt)) == sizeof(cnt) && cnt,
	   "GET_EVENTS has PAGE_FAULT (0x%llx), the eventfd fired",
	   (unsigned long long)ev);
	memset(&ia, 0, sizeof(ia));
	memset(um, 0, sizeof(um));
	ia.op = HL_INFO_USER_MAPPINGS;
	ia.return_pointer = (uintptr_t)um;
	ia.return_size = sizeof(um);
	rc = xioctl(s.fd, DRM_IOCTL_HL_INFO, &ia);
	for (i = 0; !rc && i < ia.array_size && i < 8; i++) {
		found |= um[i].dev_va == s.va && um[i].size == BUF_SIZE;
		if (um[i].dev_va == va2)
			found = false, i = 8;
	}
	ok(rc == 0 && ia.array_size == 1 && found,
	   "USER_MAPPINGS: the mapping the context had at the fault, not the unmapped one (rc %d, %u entries)",
	   rc, ia.array_size);
	ia.return_size = 8;
	ok(xioctl(s.fd, DRM_IOCTL_HL_INFO, &ia) == -ENOMEM && ia.array_size == 1,
	   "USER_MAPPINGS into a buffer too small: ENOMEM, array_size 1");
	ia.return_pointer = 0;
	ia.return_size = 0;
	ok(xioctl(s.fd, DRM_IOCTL_HL_INFO, &ia) == -EINVAL,
	   "USER_MAPPINGS without a buffer: EINVAL");
	ok(hl_wait_operational(s.fd, 60), "the device is operational again");
	memset(s.buf, 0, 4096);
	lin_dma(s.cbp, 0, 0x6161616161616161ULL, s.va, 4096, true);
	ok(run_cb(&s, 24, 0) == 0 && s.buf[0] == 0x61 && s.buf[4095] == 0x61,
	   "the next CS works");
out:
	close(efd);
	hl_sess_close(&s);
	free(buf2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ "peer", no_argument, NULL, 'p' },
		{ "bin", required_argument, NULL, 'b' },
		{ }
	};
	int opt, i;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			card = atoi(optarg);
			break;
		case 'p':
			peer = true;
			break;
		case 'b':
			bin_dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: gaudi_cs_test [--card N] [--peer] [--bin DIR] TEST...\n");
			return 2;
		}
	}
	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	rng ^= (uint64_t)time(NULL) << 16 ^ getpid();
	tap_diag("card %d, seed 0x%llx", card, (unsigned long long)rng);
	for (i = optind; i < argc; i++) {
		const char *t = argv[i];

		if (!strcmp(t, "integrity"))
			t_integrity();
		else if (!strcmp(t, "internal"))
			t_internal();
		else if (!strcmp(t, "inflight"))
			t_inflight();
		else if (!strcmp(t, "turns"))
			t_turns();
		else if (!strcmp(t, "negative"))
			t_negative();
		else if (!strcmp(t, "handles"))
			t_handles();
		else if (!strcmp(t, "mapcycles"))
			t_mapcycles();
		else if (!strcmp(t, "close"))
			t_close();
		else if (!strcmp(t, "hang"))
			t_hang();
		else if (!strcmp(t, "signal"))
			t_signal();
		else if (!strcmp(t, "hbm"))
			t_hbm();
		else if (!strcmp(t, "fdinfo"))
			t_fdinfo();
		else if (!strcmp(t, "fault"))
			t_fault();
		else if (!strcmp(t, "dmabuf"))
			t_dmabuf();
		else if (!strcmp(t, "monitors"))
			t_monitors();
		else if (!strcmp(t, "usersm"))
			t_usersm();
		else if (!strcmp(t, "wrap"))
			t_wrap();
		else if (!strcmp(t, "staged"))
			t_staged();
		else if (!strcmp(t, "encaps"))
			t_encaps();
		else
			ok(0, "unknown test %s", t);
	}
	return tap_done();
}
