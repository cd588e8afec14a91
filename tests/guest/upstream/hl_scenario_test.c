// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hl_scenario_test - four command-submission scenarios that Gaudi 1
 * silicon runs under the upstream habanalabs driver (issue 15), with data
 * checks, through upstream's uapi only.  The same binary runs on the
 * upstream peer (--peer) and on gaudi.ko.
 *
 *   nops      64 CSs of one NOP each, back to back on DMA_0_0, then a wait
 *             on the last; every one must have completed
 *   fourdma   DMA_0_0 -> DMA_2_0 -> DMA_3_0 -> DMA_1_0 in one CS, each job
 *             released by a user monitor on the previous one's SOB:
 *             host -> SRAM -> HBM -> SRAM -> host, four rounds
 *   strided   a non-linear LIN_DMA whose sizes and strides the CB sets with
 *             WREG_32 to the DMA core's SRC/DST_TSIZE_n and _STRIDE_n:
 *             rows gathered and scattered in 3 dimensions, checked byte for
 *             byte, on both drivers; then hl-thunk's own program that
 *             also writes the bases and a SOB write completion and commits
 *             by WREG_32 to COMMIT; on gaudi.ko also the hostile twins
 *             (Documentation/accel/parser.rst, "Strided transfers")
 *   pingpong  16 rounds between TPC_0_0 and DMA_0_0 through two SOBs and two
 *             monitors; the TPC job runs on the QMAN's lower CP (a CP_DMA
 *             to a CB in SRAM, fenced through the lower CP's own counter
 *             RDATA_4), on both drivers (gaudi.ko runs a parsed snapshot
 *             of the SRAM CB, issue 23)
 *
 *
 * Issue 23 (the compat suite), Habana's own userspace patterns:
 *   engines   an internal CB on TPC_0_0, MME_0_0 and DMA_2_0 each writes a
 *             marker into host memory and signals a SOB the external job
 *             waits for
 *   arb       DMA 2's arbitration (WRR, weights, quiet period; then
 *             priority) set from a CB on DMA_2_0, as hl-thunk's tests set
 *             it, then two streams of DMA 2 in one CS; reset to 0
 *   pred      LOAD_AND_EXE of a non-consecutive predicate map, then 31
 *             predicated MSG_LONGs: only those of the set predicates land;
 *             then scalars: a MSG_SHORT loaded into the lower or upper two
 *             scalar registers and executed (hl-thunk's 2-RF tests)
 *   sobswitch hl-thunk's SOB-cleanup-on-context-switch test: E_N SOB 0
 *             set, close and reopen at once, a monitor on SOB 0 == 0 must
 *             release a FENCE in the new context
 *   toctou    (gaudi.ko) a user CB waiting in a FENCE is rewritten after
 *             its submission: it runs as it was submitted (the snapshot)
 *   hostile   (gaudi.ko) the twins: a user CB that writes the MMU, a
 *             CP_DMA of the driver's memory, a CP_DMA target that writes
 *             the MMU, another QMAN's arbitration: all refused, and the
 *             card still works
 *
 * Internal-queue CBs: a CB mapped with HL_CB_FLAGS_MAP (gaudi.ko), else (the
 * peer: Gaudi 1 has no CB mapping upstream) a copy in user SRAM; with
 * --user-cb host|sram|hbm, on both drivers, a CB the program allocated
 * itself (in its mapped host buffer, or DMA'd to user SRAM or HBM first)
 * named by its device address with HL_CS_CHUNK_FLAGS_USER_ALLOC_CB, as
 * Habana's runtime submits internal CBs.
 * Every wait is bounded (WAIT_US): a hang is a failure, never a hung test.
 * Output is TAP ending in "N passed, N failed"; exit status 1 on failure.
 *
 *   hl_scenario_test [--card N] [--peer] [--user-cb host|sram|hbm]
 *                    [nops] [fourdma] [strided] [pingpong] [engines] [arb]
 *                    [pred] [toctou] [hostile]
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

/*
 * Gaudi 1 facts from hw/gaudi1 (hl-thunk-open's gaudi tests for the stride
 * semantics and the lower CP's fence counter).
 */
#define WS_SOB(i)	(GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * (i))
#define WS_MON(reg, m)	(GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + (reg) + 4 * (m))
#define EN_SOB(i)	(GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * (i))
#define EN_MON(reg, m)	(GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + (reg) + 4 * (m))
#define DMA_QM(n)	((uint64_t)mmDMA0_QM_BASE + GAUDI_DMA_STRIDE * (uint64_t)(n))
#define TPC_QM(n)	((uint64_t)mmTPC0_QM_BASE + GAUDI_TPC_STRIDE * (uint64_t)(n))
/* CP_FENCE0_RDATA of CP @cp (0..3 the streams, 4 the lower CP). */
#define FENCE0(qm, cp)	(GAUDI_CFG_BASE + (qm) + QM_CP_FENCE_RDATA(0, cp))

/* DMA core registers, offsets in the DMA queue's WREG_32 window. */
#define CORE_SRC_TSIZE(k)	((k) ? DMA_CORE_SRC_TSIZE(k) : DMA_CORE_SRC_TSIZE_0)
#define CORE_SRC_STRIDE(k)	DMA_CORE_SRC_STRIDE(k)
#define CORE_DST_TSIZE(k)	((k) ? DMA_CORE_DST_TSIZE(k) : DMA_CORE_DST_TSIZE_0)
#define CORE_DST_STRIDE(k)	DMA_CORE_DST_STRIDE(k)

#define CTL_RB		PKT_CTL_RB

#define CB_SIZE		(64U << 10)
#define BUF_SIZE	(8U << 20)
#define WAIT_US		(20ULL * 1000 * 1000)
#define USER_SOB	144	/* first W_S SOB / monitor for users */
#define USER_MON	72

static int card;
static bool peer;
/* Where internal CBs live: the driver's choice, or user memory (issue 23). */
static enum { UCB_NONE, UCB_HOST, UCB_SRAM, UCB_HBM } ucb;
static const char *const ucb_name[] = { "default", "host", "sram", "hbm" };

/* The chunk flags of an internal job. */
static uint32_t icb_flags(void)
{
	return ucb == UCB_NONE ? 0 : HL_CS_CHUNK_FLAGS_USER_ALLOC_CB;
}
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	return tap_xorshift(&rng) * 0x2545F4914F6CDD1DULL;
}

static void fill_rand(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

struct sess {
	int fd;
	uint64_t cb, cb2;	/* external CBs */
	uint8_t *cbp, *cbp2;
	uint8_t *buf;		/* host buffer and its device VA */
	uint64_t va;
	uint64_t sram;		/* first user SRAM byte we use */
	uint64_t hbm;
	uint64_t icb[4];	/* internal CBs: mapped CBs, or SRAM */
	uint8_t *icbp[4];
	uint64_t icb_va[4];
	bool mapped;
};

static size_t pkt(uint8_t *cb, size_t off, uint32_t op, uint32_t w0,
		  uint32_t ctl_extra, size_t size)
{
	memset(cb + off, 0, size);
	put32(cb + off, w0);
	put32(cb + off + 4, HL_PKT_CTL(op) | ctl_extra);
	return off + size;
}

static size_t msg(uint8_t *cb, size_t off, uint64_t addr, uint32_t val)
{
	return hl_pkt_msg_long(cb, off, addr, val, false);
}

/*
 * Arm user monitor @m on W_S SOB @sob >= @target with a payload of 1 to
 * @fence_addr, then FENCE on counter 0 (target 1, decrement 1).
 */
static size_t arm_fence(uint8_t *cb, size_t off, uint32_t m, uint32_t sob,
			uint32_t target, uint64_t fence_addr)
{
	off = msg(cb, off, WS_MON(SM_MON_PAY_ADDRL(0), m), (uint32_t)fence_addr);
	off = msg(cb, off, WS_MON(SM_MON_PAY_ADDRH(0), m), (uint32_t)(fence_addr >> 32));
	off = msg(cb, off, WS_MON(SM_MON_PAY_DATA(0), m), 1);
	off = msg(cb, off, WS_MON(SM_MON_ARM(0), m),
		  sob / 8 | (0xFFU & ~(1U << sob % 8)) << 8 | target << 17);
	return hl_pkt_fence(cb, off, 0, 1, 1);
}

static int wait_done(int fd, uint64_t seq, uint32_t *st)
{
	*st = ~0U;
	return wait_cs(fd, seq, WAIT_US, st, NULL);
}

/* Submit @len bytes of the external CB on @q and wait for it. */
static bool run_ext(struct sess *s, size_t len, uint32_t q, const char *what)
{
	uint64_t seq = 0;
	uint32_t st;
	int rc;

	rc = hl_submit1(s->fd, s->cb, (uint32_t)len, q, &seq);
	if (rc) {
		tap_diag("%s: submit: %s", what, strerror(-rc));
		return false;
	}
	rc = wait_done(s->fd, seq, &st);
	if (rc || st != HL_WAIT_CS_STATUS_COMPLETED) {
		tap_diag("%s: wait: rc %d status %u", what, rc, st);
		return false;
	}
	return true;
}

/*
 * Place @len bytes of packets as internal CB @i: in its mapped CB, or (no
 * CB mapping) copied to SRAM through the host buffer and DMA_0_0 (a CS of
 * the first external CB, which this overwrites).  Its
 * device address in s->icb_va[i].
 */
static bool put_icb(struct sess *s, unsigned int i, const uint8_t *p,
		    size_t len)
{
	uint64_t dev = s->sram + (4ULL << 20) + i * (64ULL << 10);
	uint8_t *stage = s->buf + BUF_SIZE - (256U << 10) + i * (64U << 10);
	size_t off = BUF_SIZE - (512U << 10) + i * (64U << 10), l;

	if (s->mapped) {
		memcpy(s->icbp[i], p, len);
		return true;
	}
	if (ucb == UCB_HOST) {	/* in the mapped host buffer itself */
		memcpy(s->buf + off, p, len);
		s->icb_va[i] = s->va + off;
		return true;
	}
	if (ucb == UCB_HBM)
		dev = s->hbm + (64ULL << 20) + i * (64ULL << 10);
	memcpy(stage, p, len);
	l = pkt_lin_dma(s->cbp, 0, s->va + (uint64_t)(stage - s->buf), dev,
			(uint32_t)len, false, true);
	s->icb_va[i] = dev;
	return run_ext(s, l, GAUDI_QUEUE_ID_DMA_0_0, "copy a CB to device memory");
}

static bool sess_open(struct sess *s)
{
	struct hl_info_hw_ip_info hw;
	union hl_cb_args a;
	char path[64];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	s->fd = hl_open_retry(path);
	if (s->fd < 0) {
		tap_diag("open %s: %s", path, strerror(errno));
		return false;
	}
	memset(&hw, 0, sizeof(hw));
	if (hl_info(s->fd, HL_INFO_HW_IP_INFO, &hw, sizeof(hw)))
		return false;
	s->sram = (hw.sram_base_address + 0xFFFF) & ~0xFFFFULL;
	s->hbm = hw.dram_base_address + (256ULL << 20);
	if (cb_create(s->fd, CB_SIZE, 0, &s->cb))
		return false;
	s->cbp = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      s->fd, (off_t)s->cb);
	if (s->cbp == MAP_FAILED) {
		s->cbp = NULL;
		return false;
	}
	if (cb_create(s->fd, CB_SIZE, 0, &s->cb2))
		return false;
	s->cbp2 = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       s->fd, (off_t)s->cb2);
	if (s->cbp2 == MAP_FAILED) {
		s->cbp2 = NULL;
		return false;
	}
	if (posix_memalign((void **)&s->buf, 2 << 20, BUF_SIZE))
		return false;
	memset(s->buf, 0, BUF_SIZE);
	if (map_host(s->fd, s->buf, BUF_SIZE, &s->va))
		return false;

	/* Internal CBs: mapped into the device MMU where the driver can. */
	s->mapped = !peer && ucb == UCB_NONE;
	for (i = 0; s->mapped && i < 4; i++) {
		if (cb_create(s->fd, CB_SIZE, HL_CB_FLAGS_MAP, &s->icb[i])) {
			s->mapped = false;
			break;
		}
		memset(&a, 0, sizeof(a));
		a.in.op = HL_CB_OP_INFO;
		a.in.cb_handle = s->icb[i];
		a.in.flags = HL_CB_FLAGS_GET_DEVICE_VA;
		if (xioctl(s->fd, DRM_IOCTL_HL_CB, &a) || !a.out.device_va) {
			s->mapped = false;
			break;
		}
		s->icb_va[i] = a.out.device_va;
		s->icbp[i] = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE,
				  MAP_SHARED, s->fd, (off_t)s->icb[i]);
		if (s->icbp[i] == MAP_FAILED) {
			s->icbp[i] = NULL;
			s->mapped = false;
		}
	}
	tap_diag("internal CBs %s; SRAM 0x%llx HBM 0x%llx",
		 s->mapped ? "mapped with HL_CB_FLAGS_MAP" : "in user SRAM",
		 (unsigned long long)s->sram, (unsigned long long)s->hbm);
	return true;
}

static void sess_close(struct sess *s)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (s->icbp[i])
			munmap(s->icbp[i], CB_SIZE);
		if (s->icb[i])
			cb_destroy(s->fd, s->icb[i]);
	}
	if (s->va)
		unmap_host(s->fd, s->va);
	if (s->cbp)
		munmap(s->cbp, CB_SIZE);
	if (s->cb)
		cb_destroy(s->fd, s->cb);
	if (s->cbp2)
		munmap(s->cbp2, CB_SIZE);
	if (s->cb2)
		cb_destroy(s->fd, s->cb2);
	free(s->buf);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* Set W_S SOBs @first.. @first + @n - 1 to 0 (a CS on DMA_0_0). */
static bool clear_sobs(struct sess *s, uint32_t first, uint32_t n)
{
	size_t len = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		len = msg(s->cbp, len, WS_SOB(first + i), 0);
	return run_ext(s, len, GAUDI_QUEUE_ID_DMA_0_0, "clear SOBs");
}

/* ---- (a) 64 single-NOP CSs back to back ------------------------------ */

#define NOP_CS	64

static void t_nops(struct sess *s)
{
	uint64_t seq[NOP_CS];
	unsigned int i, sub = 0, done = 0;
	uint32_t st = ~0U;
	int rc;

	pkt(s->cbp, 0, PKT_NOP, 0, PKT_CTL_MB, 8);
	for (i = 0; i < NOP_CS; i++) {
		seq[i] = 0;
		rc = hl_submit1(s->fd, s->cb, 8, GAUDI_QUEUE_ID_DMA_0_0,
				&seq[i]);
		if (rc) {
			tap_diag("nops: CS %u: submit: %s", i, strerror(-rc));
			break;
		}
		sub++;
	}
	ok_eq(sub, NOP_CS, "nops: %u single-NOP CSs submitted back to back on DMA_0_0",
	      NOP_CS);
	if (!sub)
		return;
	rc = wait_done(s->fd, seq[sub - 1], &st);
	ok(rc == 0 && st == HL_WAIT_CS_STATUS_COMPLETED,
	   "nops: the last CS (seq %llu) completed within %llu s (rc %d, status %u)",
	   (unsigned long long)seq[sub - 1], WAIT_US / 1000000, rc, st);
	for (i = 0; i < sub; i++) {
		rc = wait_cs(s->fd, seq[i], 0, &st, NULL);
		if (rc == 0 && st == HL_WAIT_CS_STATUS_COMPLETED)
			done++;
	}
	ok_eq(done, sub, "nops: every one of the %u CSs completed", sub);
	/* The queue still works. */
	pkt_lin_dma(s->cbp, 0, 0x0101010101010101ULL * 0x3C, s->va, 4096,
		    true, true);
	memset(s->buf, 0, 4096);
	ok(run_ext(s, 24, GAUDI_QUEUE_ID_DMA_0_0, "nops: memset after") &&
	   s->buf[0] == 0x3C && s->buf[4095] == 0x3C,
	   "nops: DMA_0_0 still runs a memset afterwards");
}

/* ---- (b) four DMA queues chained by SOB fences ------------------------- */

#define FD_ROUNDS	4
#define FD_SIZE		(192U << 10)

static void t_fourdma(struct sess *s)
{
	static const uint32_t qs[4] = {
		GAUDI_QUEUE_ID_DMA_0_0, GAUDI_QUEUE_ID_DMA_2_0,
		GAUDI_QUEUE_ID_DMA_3_0, GAUDI_QUEUE_ID_DMA_1_0,
	};
	static const uint32_t qm[4] = { 0, 2, 3, 1 };
	uint32_t sob = USER_SOB, mon = USER_MON, st;
	uint8_t *src = s->buf, *dst = s->buf + (1U << 20);
	uint64_t sram1 = s->sram, sram2 = s->sram + (1U << 20);
	uint64_t hbm = s->hbm, seq;
	unsigned int r, fails = 0, bad = 0;
	struct hl_cs_chunk ch[4];
	uint8_t *ib[2] = { NULL, NULL };
	size_t l0, l1, l2, l3;

	if (!ok(clear_sobs(s, sob, 3), "fourdma: user SOBs %u..%u cleared",
		sob, sob + 2))
		return;
	ib[0] = malloc(4096);
	ib[1] = malloc(4096);
	if (!ib[0] || !ib[1])
		goto out;
	for (r = 1; r <= FD_ROUNDS; r++) {
		fill_rand(src, FD_SIZE);
		memset(dst, 0xEE, FD_SIZE + 4096);
		/* DMA_2_0: wait for SOB+0 >= r; SRAM1 -> HBM; SOB+1 += 1. */
		l1 = arm_fence(ib[0], 0, mon, sob, r, FENCE0(DMA_QM(qm[1]), 0));
		l1 = pkt_lin_dma(ib[0], l1, sram1, hbm, FD_SIZE, false, true);
		l1 = msg(ib[0], l1, WS_SOB(sob + 1), SM_SOB_INC | 1);
		/* DMA_3_0: wait for SOB+1 >= r; HBM -> SRAM2; SOB+2 += 1. */
		l2 = arm_fence(ib[1], 0, mon + 1, sob + 1, r,
			       FENCE0(DMA_QM(qm[2]), 0));
		l2 = pkt_lin_dma(ib[1], l2, hbm, sram2, FD_SIZE, false, true);
		l2 = msg(ib[1], l2, WS_SOB(sob + 2), SM_SOB_INC | 1);
		if (!put_icb(s, 0, ib[0], l1) || !put_icb(s, 1, ib[1], l2)) {
			fails++;
			break;
		}
		/* DMA_0_0 (after put_icb, which uses this CB): host -> SRAM1,
		 * then SOB+0 += 1. */
		l0 = pkt_lin_dma(s->cbp, 0, s->va, sram1, FD_SIZE, false, true);
		l0 = msg(s->cbp, l0, WS_SOB(sob), SM_SOB_INC | 1);
		/* DMA_1_0 (second external CB): wait for SOB+2 >= r; SRAM2 -> host. */
		l3 = arm_fence(s->cbp2, 0, mon + 2, sob + 2, r,
			       FENCE0(DMA_QM(qm[3]), 0));
		l3 = pkt_lin_dma(s->cbp2, l3, sram2, s->va + (1U << 20), FD_SIZE,
				 false, true);
		/* The waiters are queued before the job that starts the chain. */
		memset(ch, 0, sizeof(ch));
		ch[0].cb_handle = s->cb2;
		ch[0].queue_index = qs[3];
		ch[0].cb_size = (uint32_t)l3;
		ch[1].cb_handle = s->icb_va[1];
		ch[1].cs_chunk_flags = icb_flags();
		ch[1].queue_index = qs[2];
		ch[1].cb_size = (uint32_t)l2;
		ch[2].cb_handle = s->icb_va[0];
		ch[2].cs_chunk_flags = icb_flags();
		ch[2].queue_index = qs[1];
		ch[2].cb_size = (uint32_t)l1;
		ch[3].cb_handle = s->cb;
		ch[3].queue_index = qs[0];
		ch[3].cb_size = (uint32_t)l0;
		seq = 0;
		st = ~0U;
		if (hl_submit(s->fd, ch, 4, 0, 0, &seq) ||
		    wait_done(s->fd, seq, &st) ||
		    st != HL_WAIT_CS_STATUS_COMPLETED) {
			tap_diag("fourdma: round %u: CS did not complete (status %u)",
				 r, st);
			fails++;
		} else if (memcmp(src, dst, FD_SIZE) || dst[FD_SIZE] != 0xEE) {
			bad++;
		}
		if (fails)
			break;
	}
	ok(!fails && !bad,
	   "fourdma: %u rounds of host->SRAM->HBM->SRAM->host through DMA_0_0, DMA_2_0, DMA_3_0, DMA_1_0 with SOB fences (%u failed, %u wrong)",
	   FD_ROUNDS, fails, bad);
out:
	free(ib[0]);
	free(ib[1]);
}

/* ---- (c) strided LIN_DMA with the DMA core's stride registers ---------- */

#define ST_ROW		1024U	/* dimension 0, bytes */
#define ST_ROWS		6U	/* dimension 1 */
#define ST_PLANES	3U	/* dimension 2 */
#define ST_SSTRIDE1	3072U	/* source: row stride */
#define ST_SSTRIDE2	(ST_ROWS * ST_SSTRIDE1 + 512)
#define ST_DSTRIDE1	2048U	/* destination: row stride */
#define ST_DSTRIDE2	(ST_ROWS * ST_DSTRIDE1 + 4096)

static size_t set_strides(uint8_t *cb, size_t off)
{
	uint32_t tsize[5] = { ST_ROW, ST_ROWS, ST_PLANES, 1, 1 };
	uint32_t ss[5] = { 0, ST_SSTRIDE1, ST_SSTRIDE2, 0x10000, 0x10000 };
	uint32_t ds[5] = { 0, ST_DSTRIDE1, ST_DSTRIDE2, 0x10000, 0x10000 };
	unsigned int k;

	for (k = 0; k < 5; k++) {
		off = hl_pkt_wreg32(cb, off, CORE_SRC_TSIZE(k), tsize[k]);
		off = hl_pkt_wreg32(cb, off, CORE_DST_TSIZE(k), tsize[k]);
		if (!k)
			continue;
		off = hl_pkt_wreg32(cb, off, CORE_SRC_STRIDE(k), ss[k]);
		off = hl_pkt_wreg32(cb, off, CORE_DST_STRIDE(k), ds[k]);
	}
	return off;
}

/*
 * A CB with the shape (unless !@shape) and a LIN_DMA without the linear
 * bit (ctl bit 3: the core walks its shape) from the buffer to @dst.
 */
static size_t strided_cb(struct sess *s, uint64_t dst, bool shape)
{
	size_t len = shape ? set_strides(s->cbp, 0) : 0;

	len = pkt_lin_dma(s->cbp, len, s->va, dst, ST_ROW, false, true);
	put32(s->cbp + len - 20, HL_PKT_CTL(PKT_LIN_DMA) | CTL_RB |
	      PKT_CTL_MB | PKT_CTL_EB);
	return len;
}

/* The rows of the strided shape at @dst that differ from theirs at @src. */
static unsigned int rows_wrong(const uint8_t *src, const uint8_t *dst)
{
	unsigned int p, r, wrong = 0;

	for (p = 0; p < ST_PLANES; p++)
		for (r = 0; r < ST_ROWS; r++)
			if (memcmp(dst + p * ST_DSTRIDE2 + r * ST_DSTRIDE1,
				   src + p * ST_SSTRIDE2 + r * ST_SSTRIDE1,
				   ST_ROW))
				wrong++;
	return wrong;
}

/* Submit the first @len bytes of the external CB on @q: refused with @want. */
static void refused(struct sess *s, size_t len, uint32_t q, int want,
		    const char *what)
{
	uint64_t seq = 0;

	ok_eq(hl_submit1(s->fd, s->cb, (uint32_t)len, q, &seq), want, "%s",
	      what);
}

/*
 * gaudi.ko's hostile twins (Documentation/accel/parser.rst, "Strided
 * transfers"): the same shape with the destination's far corner one byte
 * past the mapping, a non-linear LIN_DMA relying on the shape an earlier
 * CB left in the core, and the shape set from another stream of the same
 * core; each refused, and nothing written.
 */
static void strided_twins(struct sess *s, uint32_t dspan)
{
	uint8_t *dst = s->buf + (2U << 20), *tail = s->buf + BUF_SIZE - dspan;
	uint8_t *save = malloc(dspan);
	unsigned int changed = 0;
	uint64_t seq = 0;
	uint32_t st, i;
	size_t len;

	if (!save) {
		ok(0, "strided: memory for the twins");
		return;
	}
	memcpy(save, tail, dspan);
	memset(dst, 0xEE, dspan);
	len = strided_cb(s, s->va + BUF_SIZE - dspan + 1, true);
	refused(s, len, GAUDI_QUEUE_ID_DMA_0_0, -EINVAL,
		"strided: far corner one byte past the mapping: EINVAL");
	len = strided_cb(s, s->va + (2U << 20), false);
	refused(s, len, GAUDI_QUEUE_ID_DMA_0_0, -EPERM,
		"strided: non-linear LIN_DMA on the shape an earlier CB left: EPERM");
	len = strided_cb(s, s->va + (2U << 20), true);
	refused(s, len, GAUDI_QUEUE_ID_DMA_0_1, -EPERM,
		"strided: the shape from DMA_0_1 (another stream of the core): EPERM");
	for (i = 0; i < dspan; i++)
		changed += dst[i] != 0xEE || tail[i] != save[i];
	free(save);
	ok_eq(changed, 0, "strided: the refused transfers wrote nothing");
	/* The legitimate one still runs after the refusals. */
	len = strided_cb(s, s->va + (2U << 20), true);
	st = ~0U;
	ok(hl_submit1(s->fd, s->cb, (uint32_t)len, GAUDI_QUEUE_ID_DMA_0_0,
		      &seq) == 0 && wait_done(s->fd, seq, &st) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED &&
	   !memcmp(dst, s->buf, ST_ROW),
	   "strided: accepted again after the refusals, first row copied");
}

/*
 * hl-thunk's own strided program: the bases, the shape, DST_TSIZE_0 and a
 * write completion (+1 to a user SOB) by WREG_32, then COMMIT by WREG_32
 * (gaudi.ko rewrites the commit into the LIN_DMA of those registers,
 * Documentation/accel/parser.rst), to @dst_va, completing to W_S SOB @sob.
 */
static size_t strided_regs_cb(struct sess *s, uint64_t dst_va, uint32_t sob)
{
	size_t len = 0;

	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_SRC_BASE_LO, (uint32_t)s->va);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_SRC_BASE_HI, s->va >> 32);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_DST_BASE_LO, (uint32_t)dst_va);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_DST_BASE_HI, dst_va >> 32);
	len = set_strides(s->cbp, len);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_ADDR_LO,
			    (uint32_t)WS_SOB(sob));
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_ADDR_HI,
			    WS_SOB(sob) >> 32);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_WDATA, SM_SOB_INC | 1);
	return hl_pkt_wreg32(s->cbp, len, DMA_CORE_COMMIT, DMA_COMMIT_WR_COMP_EN);
}

static void t_strided_regs(struct sess *s, uint32_t sspan, uint32_t dspan)
{
	uint8_t *src = s->buf, *dst = s->buf + (2U << 20);
	unsigned int wrong;
	size_t len;

	if (!ok(clear_sobs(s, USER_SOB, 1), "strided by registers: user SOB %u cleared",
		USER_SOB))
		return;
	fill_rand(src, sspan);
	memset(dst, 0xEE, dspan);
	len = strided_regs_cb(s, s->va + (2U << 20), USER_SOB);
	if (!ok(run_ext(s, len, GAUDI_QUEUE_ID_DMA_0_0, "strided by registers"),
		"strided by registers: hl-thunk's program (WREG_32 bases, shape, completion, then COMMIT) accepted and completed"))
		return;
	wrong = rows_wrong(src, dst);
	ok_eq(wrong, 0, "strided by registers: %u rows copied exactly",
	      ST_PLANES * ST_ROWS);
	/* The completion added 1: a monitor on SOB >= 1 releases a fence. */
	len = arm_fence(s->cbp, 0, USER_MON, USER_SOB, 1,
			FENCE0(DMA_QM(1), 0));
	ok(run_ext(s, len, GAUDI_QUEUE_ID_DMA_1_0, "strided by registers: fence"),
	   "strided by registers: the write completion added 1 to SOB %u (a fence on it passed)",
	   USER_SOB);
	if (peer)
		return;
	/* gaudi.ko's twins: the footprint past the mapping, another stream. */
	len = strided_regs_cb(s, s->va + BUF_SIZE - dspan + 1, USER_SOB);
	refused(s, len, GAUDI_QUEUE_ID_DMA_0_0, -EINVAL,
		"strided by registers: far corner one byte past the mapping: EINVAL");
	len = strided_regs_cb(s, s->va + (2U << 20), USER_SOB);
	refused(s, len, GAUDI_QUEUE_ID_DMA_0_1, -EPERM,
		"strided by registers: on DMA_0_1 (not the shape's stream): EPERM");
	len = strided_regs_cb(s, s->va + (2U << 20), 10);
	refused(s, len, GAUDI_QUEUE_ID_DMA_0_0, -EINVAL,
		"strided by registers: completion to the driver's W_S SOB 10: EINVAL");
}

static void t_strided(struct sess *s)
{
	uint8_t *src = s->buf, *dst = s->buf + (2U << 20);
	uint32_t dspan = (ST_PLANES - 1) * ST_DSTRIDE2 +
			 (ST_ROWS - 1) * ST_DSTRIDE1 + ST_ROW;
	uint32_t sspan = (ST_PLANES - 1) * ST_SSTRIDE2 +
			 (ST_ROWS - 1) * ST_SSTRIDE1 + ST_ROW;
	unsigned int wrong, gap = 0;
	uint64_t seq = 0;
	uint32_t st = ~0U;
	size_t len, i, o;
	int rc;

	fill_rand(src, sspan);
	memset(dst, 0xEE, dspan + 4096);
	len = strided_cb(s, s->va + (2U << 20), true);
	rc = hl_submit1(s->fd, s->cb, (uint32_t)len, GAUDI_QUEUE_ID_DMA_0_0,
			&seq);
	if (!ok_eq(rc, 0, "strided: CS with WREG_32 to the DMA core's sizes/strides and a non-linear LIN_DMA accepted"))
		return;
	rc = wait_done(s->fd, seq, &st);
	ok(rc == 0 && st == HL_WAIT_CS_STATUS_COMPLETED,
	   "strided: CS completed (rc %d, status %u)", rc, st);
	wrong = rows_wrong(src, dst);
	ok_eq(wrong, 0, "strided: %u rows of %u bytes gathered (row stride %u, plane stride %u) and scattered (%u, %u) exactly",
	      ST_PLANES * ST_ROWS, ST_ROW, ST_SSTRIDE1, ST_SSTRIDE2,
	      ST_DSTRIDE1, ST_DSTRIDE2);
	for (i = 0; i < dspan + 4096; i++) {
		o = i % ST_DSTRIDE1;
		if (i < dspan && o < ST_ROW &&
		    (i % ST_DSTRIDE2) < ST_ROWS * ST_DSTRIDE1)
			continue;
		if (dst[i] != 0xEE)
			gap++;
	}
	ok_eq(gap, 0, "strided: the bytes between the rows and after the last are untouched");
	if (!peer)
		strided_twins(s, dspan);


	/* A plain linear copy still works. */
	memset(dst, 0, 8192);
	len = pkt_lin_dma(s->cbp, 0, s->va, s->va + (2U << 20), 8192, false,
			  true);
	ok(run_ext(s, len, GAUDI_QUEUE_ID_DMA_0_0, "strided: linear after") &&
	   !memcmp(src, dst, 8192),
	   "strided: a linear LIN_DMA afterwards copies 8 KiB exactly");
	t_strided_regs(s, sspan, dspan);
}

/* ---- (d) TPC <-> DMA ping-pong through the sync manager ---------------- */

#define PP_ROUNDS	16

static void t_pingpong(struct sess *s)
{
	uint32_t sa = USER_SOB + 8, sb = USER_SOB + 9;	/* T->D, D->T */
	uint32_t mt = USER_MON + 8, md = USER_MON + 9;
	uint8_t *x = s->buf + (4U << 20);	/* D writes x[i] */
	uint8_t *y = x + 4096;			/* T writes y[i] */
	uint8_t *z = y + 4096;			/* D copies y[i] to z[i] */
	uint64_t xva = s->va + (4U << 20), yva = xva + 4096, zva = yva + 4096;
	uint64_t tfence = FENCE0(TPC_QM(0), 4), seq = 0;
	uint8_t *tcb, *upper;
	struct hl_cs_chunk ch[2];
	unsigned int i, xbad = 0, zbad = 0;
	size_t tl = 0, dl = 0, ul;
	uint32_t st = ~0U, v;
	bool mapped, good;
	int rc;

	if (!ok(clear_sobs(s, sa, 2), "pingpong: user SOBs %u, %u cleared",
		sa, sb))
		return;
	memset(x, 0, 3 * 4096);
	tcb = calloc(1, 8192);
	upper = calloc(1, 64);
	if (!tcb || !upper)
		goto out;
	for (i = 1; i <= PP_ROUNDS; i++) {
		/* D: x[i] = i; b += 1; wait a >= i; z[i] = y[i]. */
		dl = msg(s->cbp2, dl, xva + 4 * i, i);
		dl = msg(s->cbp2, dl, WS_SOB(sb), SM_SOB_INC | 1);
		dl = arm_fence(s->cbp2, dl, md, sa, i, FENCE0(DMA_QM(0), 0));
		dl = pkt_lin_dma(s->cbp2, dl, yva + 4 * i, zva + 4 * i, 4,
				 false, true);
		/* T: wait b >= i; y[i] = 0x1000 + i; a += 1. */
		tl = arm_fence(tcb, tl, mt, sb, i, tfence);
		tl = msg(tcb, tl, yva + 4 * i, 0x1000 + i);
		tl = msg(tcb, tl, WS_SOB(sa), SM_SOB_INC | 1);
	}
	/*
	 * The TPC job is a CP_DMA: the lower CP runs the CB in SRAM (on
	 * gaudi.ko too, which maps CBs but snapshots the SRAM one).
	 */
	mapped = s->mapped;
	s->mapped = false;	/* the lower CB: in user memory */
	good = put_icb(s, 2, tcb, tl);
	s->mapped = mapped;
	if (!good)
		goto out;
	ul = pkt(upper, 0, PKT_CP_DMA, (uint32_t)tl, CTL_RB | PKT_CTL_MB, 16);
	put64(upper + 8, s->icb_va[2]);
	if (!put_icb(s, 3, upper, ul))
		goto out;
	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = s->icb_va[3];
	ch[0].cs_chunk_flags = icb_flags();
	ch[0].queue_index = GAUDI_QUEUE_ID_TPC_0_0;
	ch[0].cb_size = (uint32_t)ul;
	ch[1].cb_handle = s->cb2;
	ch[1].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[1].cb_size = (uint32_t)dl;
	seq = 0;
	rc = hl_submit(s->fd, ch, 2, 0, 0, &seq);
	if (!ok_eq(rc, 0, "pingpong: CS with a TPC_0_0 job (%s) and a DMA_0_0 job submitted",
		   "lower CP from SRAM"))
		goto out;
	rc = wait_done(s->fd, seq, &st);
	ok(rc == 0 && st == HL_WAIT_CS_STATUS_COMPLETED,
	   "pingpong: %u rounds completed (rc %d, status %u)", PP_ROUNDS,
	   rc, st);
	for (i = 1; i <= PP_ROUNDS; i++) {
		memcpy(&v, x + 4 * i, 4);
		xbad += v != i;
		memcpy(&v, z + 4 * i, 4);
		zbad += v != 0x1000 + i;
	}
	ok(!xbad && !zbad,
	   "pingpong: each DMA round saw the TPC round's write (%u of %u x wrong, %u z wrong)",
	   xbad, PP_ROUNDS, zbad);
out:
	free(tcb);
	free(upper);
}

/* ---- (e) issue 23: Habana's userspace patterns ------------------------ */

/*
 * One CS: internal CB 0 (@len bytes) on @q with the placement's chunk
 * flags, and the external CB (@elen bytes; 0: a NOP written now, after
 * put_icb() used the CB) on DMA_0_0; waited for when accepted.  0, or the submission's -errno, or -EIO if it did not complete.
 */
static int run_int(struct sess *s, uint32_t q, size_t len, size_t elen)
{
	struct hl_cs_chunk ch[2];
	uint64_t seq = 0;
	uint32_t st;
	int rc;

	if (!elen)
		elen = pkt(s->cbp, 0, PKT_NOP, 0, PKT_CTL_MB, 8);
	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = s->icb_va[0];
	ch[0].queue_index = q;
	ch[0].cb_size = (uint32_t)len;
	ch[0].cs_chunk_flags = icb_flags();
	ch[1].cb_handle = s->cb;
	ch[1].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[1].cb_size = (uint32_t)elen;
	rc = hl_submit(s->fd, ch, 2, 0, 0, &seq);
	if (rc)
		return rc;
	rc = wait_done(s->fd, seq, &st);
	return rc ? rc : st == HL_WAIT_CS_STATUS_COMPLETED ? 0 : -EIO;
}

static void t_engines(struct sess *s)
{
	static const struct {
		uint32_t q;
		const char *name;
	} eng[] = {
		{ GAUDI_QUEUE_ID_TPC_0_0, "TPC_0_0" },
		{ GAUDI_QUEUE_ID_MME_0_0, "MME_0_0" },
		{ GAUDI_QUEUE_ID_DMA_2_0, "DMA_2_0" },
	};
	uint32_t sob = USER_SOB + 24, mon = USER_MON + 8, marker, v;
	uint8_t ib[64];
	size_t l, el;
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(eng) / sizeof(eng[0]); i++) {
		size_t woff = (6U << 20) + 64 * i;

		if (!clear_sobs(s, sob, 1))
			break;
		marker = 0xC0DE0000U | (uint32_t)(rnd() & 0xFF00) | i;
		memset(s->buf + woff, 0, 4);
		l = msg(ib, 0, s->va + woff, marker);
		l = msg(ib, l, WS_SOB(sob), SM_SOB_INC | 1);
		if (!put_icb(s, 0, ib, l))
			break;
		el = arm_fence(s->cbp, 0, mon, sob, 1, FENCE0(DMA_QM(0), 0));
		rc = run_int(s, eng[i].q, l, el);
		memcpy(&v, s->buf + woff, 4);
		ok(rc == 0 && v == marker,
		   "engines: %s CB (%s) wrote host memory and released DMA_0_0's fence (rc %d, 0x%08x, want 0x%08x)",
		   eng[i].name, ucb_name[ucb], rc, v, marker);
	}
}

#define ARB_ROUNDS	4

/* Set DMA 2's arbitration (ARB_CFG_0 @cfg, weights @w) from a DMA_2_0 CB. */
static int arb_set(struct sess *s, uint32_t cfg, const uint32_t *w,
		   uint32_t sob, uint32_t mon)
{
	uint64_t qm = GAUDI_CFG_BASE + DMA_QM(2);
	uint8_t ib[256];
	size_t l, el;
	unsigned int st;

	if (!clear_sobs(s, sob, 1))
		return -EIO;
	l = msg(ib, 0, qm + QM_ARB_CFG_0, cfg);
	l = msg(ib, l, qm + QM_ARB_MST_QUIET_PER, cfg ? 0x10 : 0);
	for (st = 0; st < 4; st++)
		l = msg(ib, l, qm + QM_ARB_WRR_WEIGHT(st), w[st]);
	l = msg(ib, l, WS_SOB(sob), SM_SOB_INC | 1);
	if (!put_icb(s, 0, ib, l))
		return -EIO;
	el = arm_fence(s->cbp, 0, mon, sob, 1, FENCE0(DMA_QM(0), 0));
	return run_int(s, GAUDI_QUEUE_ID_DMA_2_0, l, el);
}

/*
 * DMA_2_0 and DMA_2_1, released together by two monitors on one SOB, each
 * run ARB_ROUNDS sections ARB_POINT(prio) - copy the host word W into its
 * log slot - W = its id - ARB_POINT(release): each log slot holds the
 * section granted just before it, so the log gives the grant order.
 * @want: the ids (stream + 1) << 8 | round + 1 in the order expected.
 */
static bool arb_race(struct sess *s, const uint8_t *prio, const uint32_t *want,
		     uint32_t sob, uint32_t mon)
{
	uint8_t *w = s->buf + (5U << 20), *log = w + 4096, ib[512];
	uint64_t wva = s->va + (5U << 20), logva = wva + 4096, seq = 0;
	struct hl_cs_chunk ch[3];
	uint32_t v, pred, st = ~0U, id;
	unsigned int k, i, bad = 0, r;
	size_t l[2], el;
	int rc;

	if (!clear_sobs(s, sob, 3))
		return false;
	memset(w, 0, 4096 + 4 * 2 * ARB_ROUNDS);
	for (i = 0; i < 2; i++) {
		uint64_t f = FENCE0(DMA_QM(2), i);

		/* Arm the release, say so, wait for it. */
		l[i] = msg(ib, 0, WS_MON(SM_MON_PAY_ADDRL(0), mon + i), (uint32_t)f);
		l[i] = msg(ib, l[i], WS_MON(SM_MON_PAY_ADDRH(0), mon + i),
			   (uint32_t)(f >> 32));
		l[i] = msg(ib, l[i], WS_MON(SM_MON_PAY_DATA(0), mon + i), 1);
		l[i] = msg(ib, l[i], WS_MON(SM_MON_ARM(0), mon + i),
			   (sob + 1) / 8 | (0xFFU & ~(1U << (sob + 1) % 8)) << 8 |
			   1U << 17);
		l[i] = msg(ib, l[i], WS_SOB(sob), SM_SOB_INC | 1);
		l[i] = hl_pkt_fence(ib, l[i], 0, 1, 1);
		for (r = 0; r < ARB_ROUNDS; r++) {
			id = (i + 1) << 8 | (r + 1);
			l[i] = pkt(ib, l[i], PKT_ARB_POINT, prio[i], PKT_CTL_MB, 8);
			l[i] = pkt_lin_dma(ib, l[i], wva,
					   logva + 4 * (i * ARB_ROUNDS + r), 4,
					   false, true);
			l[i] = msg(ib, l[i], wva, id);
			l[i] = pkt(ib, l[i], PKT_ARB_POINT,
				   prio[i] | PKT_ARB_RELEASE, PKT_CTL_MB, 8);
		}
		l[i] = msg(ib, l[i], WS_SOB(sob + 2), SM_SOB_INC | 1);
		if (!put_icb(s, 1 + i, ib, l[i]))
			return false;
	}
	/* DMA_0_0: both armed -> release them -> both done. */
	el = arm_fence(s->cbp, 0, mon + 2, sob, 2, FENCE0(DMA_QM(0), 0));
	el = msg(s->cbp, el, WS_SOB(sob + 1), 1);
	el = arm_fence(s->cbp, el, mon + 3, sob + 2, 2, FENCE0(DMA_QM(0), 0));
	memset(ch, 0, sizeof(ch));
	for (i = 0; i < 2; i++) {
		ch[i].cb_handle = s->icb_va[1 + i];
		ch[i].queue_index = GAUDI_QUEUE_ID_DMA_2_0 + i;
		ch[i].cb_size = (uint32_t)l[i];
		ch[i].cs_chunk_flags = icb_flags();
	}
	ch[2].cb_handle = s->cb;
	ch[2].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[2].cb_size = (uint32_t)el;
	rc = hl_submit(s->fd, ch, 3, 0, 0, &seq);
	if (!rc)
		rc = wait_done(s->fd, seq, &st);
	if (rc || st != HL_WAIT_CS_STATUS_COMPLETED) {
		tap_diag("arb: race CS: rc %d status %u", rc, st);
		return false;
	}
	for (k = 0, pred = 0; k < 2 * ARB_ROUNDS; k++) {
		i = (want[k] >> 8) - 1;
		r = (want[k] & 0xFF) - 1;
		memcpy(&v, log + 4 * (i * ARB_ROUNDS + r), 4);
		if (v != pred) {
			tap_diag("arb: section 0x%x came after 0x%x, want 0x%x",
				 want[k], v, pred);
			bad++;
		}
		pred = want[k];
	}
	memcpy(&v, w, 4);
	return !bad && v == pred;
}

static void t_arb(struct sess *s)
{
	static const uint32_t one[4] = { 1, 1, 1, 1 }, w21[4] = { 2, 1, 1, 1 };
	static const uint32_t zero[4] = { 0, 0, 0, 0 };
	static const uint8_t p0[2] = { 0, 0 }, p12[2] = { 1, 2 },
			     p21[2] = { 2, 1 };
	/* Grant orders (the model's, Documentation/emulator/model.rst). */
	static const uint32_t rr[] = { 0x101, 0x201, 0x102, 0x202, 0x103,
				       0x203, 0x104, 0x204 };
	static const uint32_t wrr[] = { 0x101, 0x102, 0x201, 0x103, 0x104,
					0x202, 0x203, 0x204 };
	static const uint32_t pri12[] = { 0x201, 0x202, 0x203, 0x204, 0x101,
					  0x102, 0x103, 0x104 };
	static const uint32_t pri21[] = { 0x101, 0x102, 0x103, 0x104, 0x201,
					  0x202, 0x203, 0x204 };
	const uint32_t wrr_en = QM_ARB_CFG_0_TYPE_WRR | QM_ARB_CFG_0_IS_MASTER |
				QM_ARB_CFG_0_EN;
	const uint32_t pri_en = QM_ARB_CFG_0_IS_MASTER | QM_ARB_CFG_0_EN;
	uint32_t sob = USER_SOB + 26, mon = USER_MON + 10;

	if (ok_eq(arb_set(s, wrr_en, one, sob, mon), 0,
		  "arb: round robin (WRR, equal weights) of DMA 2 set from a DMA_2_0 CB"))
		ok(arb_race(s, p0, rr, sob, mon),
		   "arb: round robin: DMA_2_0 and DMA_2_1 take turns");
	if (ok_eq(arb_set(s, wrr_en, w21, sob, mon), 0,
		  "arb: WRR 2:1 set from a CB"))
		ok(arb_race(s, p0, wrr, sob, mon),
		   "arb: WRR 2:1: DMA_2_0 twice for each DMA_2_1 section, until it is done");
	if (ok_eq(arb_set(s, pri_en, one, sob, mon), 0,
		  "arb: priority arbitration set from a CB")) {
		ok(arb_race(s, p12, pri12, sob, mon),
		   "arb: priority: DMA_2_1 (2) runs all its sections before DMA_2_0 (1)");
		ok(arb_race(s, p21, pri21, sob, mon),
		   "arb: priority: DMA_2_0 first when it is the higher");
	}
	ok_eq(arb_set(s, 0, zero, sob, mon), 0,
	      "arb: arbitration off again (all registers 0) from a CB");
}

/*
 * LOAD_AND_EXE predicates (issue 23): a DMA_2_0 CB loads the
 * non-consecutive predicate map (bit 0 of words 1..31) from host memory,
 * then 31 MSG_LONGs, the one with predicate p writing result word p: only
 * those whose predicate the map sets may land (P0, always set, signals).
 */
/*
 * Arm E_N monitor @m on E_N SOB @sob (== @target if @equal, else >=) with
 * a payload of 1 to @fence_addr, by MSG_SHORT (base 0: the E_N monitors)
 * as hl-thunk-open's tests do, then FENCE on counter 0.
 */
static size_t en_arm_fence(uint8_t *cb, size_t off, uint32_t m, uint32_t sob,
			   uint32_t target, bool equal, uint64_t fence_addr)
{
	static const uint32_t reg[3] = { SM_MON_PAY_ADDRL(0), SM_MON_PAY_ADDRH(0),
					 SM_MON_PAY_DATA(0) };
	const uint32_t val[3] = { (uint32_t)fence_addr,
				  (uint32_t)(fence_addr >> 32), 1 };
	unsigned int i;

	for (i = 0; i < 3; i++)
		off = pkt(cb, off, PKT_MSG_SHORT, val[i], PKT_CTL_MB |
			  (reg[i] - SM_MON_PAY_ADDRL(0) + 4 * m), 8);
	off = pkt(cb, off, PKT_MSG_SHORT, sob / 8 |
		  (0xFFU & ~(1U << sob % 8)) << 8 | (equal ? 1U << 16 : 0) |
		  target << 17, PKT_CTL_MB |
		  (SM_MON_ARM(0) - SM_MON_PAY_ADDRL(0) + 4 * m), 8);
	return hl_pkt_fence(cb, off, 0, 1, 1);
}

/*
 * hl-thunk's 2-RF tests: a LOAD_AND_EXE loads a MSG_SHORT (+1 to E_N SOB
 * @sob, base 1 as its write_to_sob) into the scalars of DMA_2_0 and
 * executes it from the lower (etype 0) or upper (etype 1) two registers,
 * in the same packet or a second one; DMA_0_0 fences on the SOB reaching
 * the round.  gaudi.ko runs the parsed packet in place of the
 * LOAD_AND_EXE (Documentation/accel/parser.rst).
 */
static void t_scalars(struct sess *s)
{
	uint8_t *sc = s->buf + (6U << 20) + 0x4000;
	uint64_t scva = s->va + (6U << 20) + 0x4000;
	uint32_t sob = 200, mon = 200, cfg, r;
	unsigned int fails = 0;
	uint8_t ib[64];
	size_t l, el;

	l = msg(s->cbp, 0, EN_SOB(sob), 0);
	if (!run_ext(s, l, GAUDI_QUEUE_ID_DMA_0_0, "scalars: clear E_N SOB"))
		return;
	for (r = 1; r <= 4; r++) {
		bool upper = r > 2, separate = !(r & 1);

		memset(sc, 0, 16);
		put32(sc + (upper ? 8 : 0), SM_SOB_INC | 1);
		put32(sc + (upper ? 12 : 4), HL_PKT_CTL(PKT_MSG_SHORT) |
		      PKT_CTL_MB | 1U << 22 | 4 * sob);
		cfg = PKT_LOAD_AND_EXE_DST | PKT_LOAD_AND_EXE_LOAD |
		      (upper ? PKT_LOAD_AND_EXE_ETYPE : 0);
		l = pkt(ib, 0, PKT_LOAD_AND_EXE,
			cfg | (separate ? 0 : PKT_LOAD_AND_EXE_EXE), PKT_CTL_MB, 16);
		put64(ib + 8, scva);
		if (separate)
			l = pkt(ib, l, PKT_LOAD_AND_EXE, PKT_LOAD_AND_EXE_EXE |
				(upper ? PKT_LOAD_AND_EXE_ETYPE : 0), PKT_CTL_MB, 16);
		if (!put_icb(s, 0, ib, l)) {
			fails++;
			break;
		}
		el = en_arm_fence(s->cbp, 0, mon, sob, r, false,
				  FENCE0(DMA_QM(0), 0));
		if (run_int(s, GAUDI_QUEUE_ID_DMA_2_0, l, el)) {
			tap_diag("scalars: round %u (%s RF, %s) did not complete",
				 r, upper ? "upper" : "lower",
				 separate ? "separate execute" : "one packet");
			fails++;
			break;
		}
	}
	ok_eq(fails, 0, "scalars: LOAD_AND_EXE of a MSG_SHORT into the lower and upper two scalar registers, executed in the same and in a second packet (%s CB), each signalled its SOB",
	      ucb_name[ucb]);
}

/*
 * hl-thunk's test_sm_sob_cleanup_on_ctx_switch, packet for packet: E_N
 * SOB 0 set to 1 by MSG_SHORT (base 1) on DMA_0_0; close and reopen at
 * once; E_N monitor 0 armed on SOB 0 == 0 (MSG_SHORT, base 0) with its
 * payload on DMA_0_0's FENCE0, and a FENCE: the CS completes only if the
 * switch cleared SOB 0.  The reopen is reported (an open while the
 * previous context is released may be refused: EBUSY/EAGAIN).
 */
static void t_sobswitch(struct sess *s)
{
	char path[64];
	size_t l;
	int fd, err = 0;

	l = pkt(s->cbp, 0, PKT_MSG_SHORT, 1, PKT_CTL_MB | 1U << 22, 8);
	if (!ok(run_ext(s, l, GAUDI_QUEUE_ID_DMA_0_0, "sobswitch: set"),
		"sobswitch: E_N SOB 0 set to 1 by MSG_SHORT"))
		return;
	sess_close(s);
	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		err = errno;
	else
		close(fd);
	tap_diag("sobswitch: the immediate reopen %s%s", err ? "failed: " : "succeeded",
		 err ? strerror(err) : "");
	if (!ok(sess_open(s), "sobswitch: the next context opens"))
		return;
	l = en_arm_fence(s->cbp, 0, 0, 0, 0, true, FENCE0(DMA_QM(0), 0));
	ok(run_ext(s, l, GAUDI_QUEUE_ID_DMA_0_0, "sobswitch: fence"),
	   "sobswitch: in the next context E_N monitor 0 on SOB 0 == 0 releases the FENCE (SOB 0 was cleared)");
}

static void t_pred(struct sess *s)
{
	static const unsigned int set[] = { 1, 3, 6, 7, 17, 31 };
	uint8_t *map = s->buf + (6U << 20) + 8192, *res = map + 4096;
	uint64_t mapva = s->va + (6U << 20) + 8192, resva = mapva + 4096;
	uint32_t sob = USER_SOB + 30, mon = USER_MON + 14, v, want;
	unsigned int p, i, bad = 0;
	uint8_t ib[1024];
	size_t l, el;
	int rc;

	if (!clear_sobs(s, sob, 1))
		return;
	memset(map, 0, 128);
	memset(res, 0, 4 * 32);
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		put32(map + 4 * set[i], 1);
	l = pkt(ib, 0, PKT_LOAD_AND_EXE, PKT_LOAD_AND_EXE_LOAD, PKT_CTL_MB, 16);
	put64(ib + 8, mapva);
	for (p = 1; p < 32; p++) {
		put32(ib + l, 0xA0 + p);
		put32(ib + l + 4, HL_PKT_CTL(PKT_MSG_LONG) | PKT_CTL_MB | p);
		put64(ib + l + 8, resva + 4 * p);
		l += 16;
	}
	l = msg(ib, l, WS_SOB(sob), SM_SOB_INC | 1);
	if (!put_icb(s, 0, ib, l))
		return;
	el = arm_fence(s->cbp, 0, mon, sob, 1, FENCE0(DMA_QM(0), 0));
	rc = run_int(s, GAUDI_QUEUE_ID_DMA_2_0, l, el);
	for (p = 1; p < 32; p++) {
		for (i = 0, want = 0; i < sizeof(set) / sizeof(set[0]); i++)
			if (set[i] == p)
				want = 0xA0 + p;
		memcpy(&v, res + 4 * p, 4);
		if (v != want) {
			tap_diag("pred: P%u: word 0x%x, want 0x%x", p, v, want);
			bad++;
		}
	}
	ok(rc == 0 && !bad,
	   "pred: LOAD_AND_EXE of a non-consecutive predicate map (%s CB): only the packets of P1, P3, P6, P7, P17, P31 ran (rc %d, %u wrong)",
	   ucb_name[ucb], rc, bad);
	t_scalars(s);
}

/*
 * The snapshot (gaudi.ko): a user CB held in a FENCE is rewritten after
 * its submission; the device runs it as it was when submitted.
 */
static void t_toctou(struct sess *s)
{
	uint32_t go = USER_SOB + 32, done = USER_SOB + 33, mon = USER_MON + 16;
	uint8_t *w = s->buf + (6U << 20) + 16384, ib[128];
	uint64_t wva = s->va + (6U << 20) + 16384, seq = 0;
	struct hl_cs_chunk ch[2];
	uint32_t v = 0, st = ~0U;
	size_t l, l2, el;
	int rc;

	if (!clear_sobs(s, go, 2))
		return;
	memset(w, 0, 4);
	l = hl_pkt_fence(ib, 0, 0, 1, 1);
	l = msg(ib, l, wva, 1);
	l = msg(ib, l, WS_SOB(done), SM_SOB_INC | 1);
	if (!put_icb(s, 0, ib, l))
		return;
	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = s->icb_va[0];
	ch[0].queue_index = GAUDI_QUEUE_ID_TPC_0_0;
	ch[0].cb_size = (uint32_t)l;
	ch[0].cs_chunk_flags = icb_flags();
	ch[1].cb_handle = s->cb;
	ch[1].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[1].cb_size = (uint32_t)pkt(s->cbp, 0, PKT_NOP, 0, PKT_CTL_MB, 8);
	rc = hl_submit(s->fd, ch, 2, 0, 0, &seq);
	if (!ok_eq(rc, 0, "toctou: a user CB (%s) on TPC_0_0 waiting in a FENCE submitted",
		   ucb_name[ucb]))
		return;
	wait_done(s->fd, seq, &st);
	/* Rewrite it in place: the same packets, another value. */
	l2 = hl_pkt_fence(ib, 0, 0, 1, 1);
	l2 = msg(ib, l2, wva, 2);
	l2 = msg(ib, l2, WS_SOB(done), SM_SOB_INC | 1);
	if (!put_icb(s, 0, ib, l2))
		return;
	/* Release its FENCE, wait for it. */
	el = msg(s->cbp, 0, WS_MON(SM_MON_PAY_ADDRL(0), mon),
		 (uint32_t)FENCE0(TPC_QM(0), 0));
	el = msg(s->cbp, el, WS_MON(SM_MON_PAY_ADDRH(0), mon),
		 (uint32_t)(FENCE0(TPC_QM(0), 0) >> 32));
	el = msg(s->cbp, el, WS_MON(SM_MON_PAY_DATA(0), mon), 1);
	el = msg(s->cbp, el, WS_MON(SM_MON_ARM(0), mon),
		 go / 8 | (0xFFU & ~(1U << go % 8)) << 8 | 1U << 17);
	el = msg(s->cbp, el, WS_SOB(go), 1);
	el = arm_fence(s->cbp, el, mon + 1, done, 1, FENCE0(DMA_QM(0), 0));
	rc = hl_submit1(s->fd, s->cb, (uint32_t)el, GAUDI_QUEUE_ID_DMA_0_0, &seq);
	if (!rc)
		rc = wait_done(s->fd, seq, &st);
	memcpy(&v, w, 4);
	ok(rc == 0 && st == HL_WAIT_CS_STATUS_COMPLETED && v == 1,
	   "toctou: released, it ran as submitted (wrote %u, want 1; rc %d, status %u)",
	   v, rc, st);
}

static void t_hostile(struct sess *s)
{
	uint8_t ib[64], lower[64];
	size_t l, ll;
	int rc;

	if (peer) {
		tap_diag("hostile: gaudi.ko only (upstream runs internal CBs unparsed)");
		return;
	}
	/* The control: a harmless user CB on TPC_0_0 runs. */
	l = pkt(ib, 0, PKT_NOP, 0, PKT_CTL_MB, 8);
	if (!put_icb(s, 0, ib, l))
		return;
	ok_eq(run_int(s, GAUDI_QUEUE_ID_TPC_0_0, l, 0), 0,
	      "hostile: control: a NOP user CB (%s) on TPC_0_0 runs", ucb_name[ucb]);
	l = msg(ib, 0, GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12, 0);
	if (!put_icb(s, 0, ib, l))
		return;
	ok_eq(run_int(s, GAUDI_QUEUE_ID_TPC_0_0, l, 0), -EINVAL,
	      "hostile: a user CB (%s) that writes the MMU's hop-0 register: EINVAL",
	      ucb_name[ucb]);
	l = pkt(ib, 0, PKT_CP_DMA, 64, PKT_CTL_MB, 16);
	put64(ib + 8, 0x1C000000);	/* the driver's internal-CB copies */
	if (!put_icb(s, 0, ib, l))
		return;
	ok_eq(run_int(s, GAUDI_QUEUE_ID_TPC_0_0, l, 0), -EINVAL,
	      "hostile: CP_DMA of the driver's HBM: EINVAL");
	ll = msg(lower, 0, GAUDI_CFG_BASE + mmMMU_UP_MMU_HOP0_PA43_12, 0);
	if (!put_icb(s, 1, lower, ll))
		return;
	l = pkt(ib, 0, PKT_CP_DMA, (uint32_t)ll, PKT_CTL_MB, 16);
	put64(ib + 8, s->icb_va[1]);
	if (!put_icb(s, 0, ib, l))
		return;
	ok_eq(run_int(s, GAUDI_QUEUE_ID_TPC_0_0, l, 0), -EINVAL,
	      "hostile: CP_DMA of a user CB that writes the MMU: EINVAL");
	l = msg(ib, 0, GAUDI_CFG_BASE + DMA_QM(3) + QM_ARB_CFG_0,
		QM_ARB_CFG_0_IS_MASTER | QM_ARB_CFG_0_EN);
	if (!put_icb(s, 0, ib, l))
		return;
	ok_eq(run_int(s, GAUDI_QUEUE_ID_DMA_2_0, l, 0), -EINVAL,
	      "hostile: DMA 3's arbitration from a DMA_2_0 CB: EINVAL");
	l = msg(ib, 0, GAUDI_CFG_BASE + DMA_QM(2) + 0xB44, 0);	/* AWUSER */
	if (!put_icb(s, 0, ib, l))
		return;
	ok_eq(run_int(s, GAUDI_QUEUE_ID_DMA_2_0, l, 0), -EINVAL,
	      "hostile: its own arbiter's AXI user bits: EINVAL");
	l = msg(ib, 0, GAUDI_CFG_BASE + DMA_QM(2) + QM_ARB_CFG_0, 0xF000);
	if (!put_icb(s, 0, ib, l))
		return;
	ok_eq(run_int(s, GAUDI_QUEUE_ID_DMA_2_0, l, 0), -EPERM,
	      "hostile: its own ARB_CFG_0 with the mask field: EPERM");
	l = pkt(s->cbp, 0, PKT_CP_DMA, 8, PKT_CTL_MB, 16);
	put64(s->cbp + 8, s->va);
	rc = hl_submit1(s->fd, s->cb, (uint32_t)l, GAUDI_QUEUE_ID_DMA_0_0, NULL);
	ok_eq(rc, -EPERM, "hostile: CP_DMA on an external queue: EPERM (as upstream)");
	pkt_lin_dma(s->cbp, 0, 0x0101010101010101ULL * 0x5D, s->va, 4096,
		    true, true);
	memset(s->buf, 0, 4096);
	ok(run_ext(s, 24, GAUDI_QUEUE_ID_DMA_0_0, "hostile: memset after") &&
	   s->buf[0] == 0x5D && s->buf[4095] == 0x5D,
	   "hostile: the card still runs a memset afterwards");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'n' },
		{ "peer", no_argument, NULL, 'p' },
		{ "user-cb", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	static const char *const all[] = { "nops", "fourdma", "strided",
					   "pingpong" };
	struct sess s;
	int opt, i, n;
	const char *const *names;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			card = atoi(optarg);
			break;
		case 'p':
			peer = true;
			break;
		case 'u':
			for (i = 1; i < 4 && strcmp(optarg, ucb_name[i]); i++)
				;
			if (i == 4) {
				fprintf(stderr, "--user-cb host|sram|hbm\n");
				return 2;
			}
			ucb = i;
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr,
				"usage: hl_scenario_test [--card N] [--peer] [--user-cb host|sram|hbm] [nops] [fourdma] [strided] [pingpong] [engines] [arb] [pred] [toctou] [hostile] [sobswitch]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	names = optind < argc ? (const char *const *)argv + optind : all;
	n = optind < argc ? argc - optind : 4;
	rng ^= (uint64_t)time(NULL);
	tap_diag("card %d, %s, internal CBs %s, seed 0x%llx", card,
		 peer ? "upstream peer" : "gaudi.ko", ucb_name[ucb],
		 (unsigned long long)rng);
	if (!ok(sess_open(&s), "open card %d, CB, host mapping", card)) {
		sess_close(&s);
		return tap_done();
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], "nops"))
			t_nops(&s);
		else if (!strcmp(names[i], "fourdma"))
			t_fourdma(&s);
		else if (!strcmp(names[i], "strided"))
			t_strided(&s);
		else if (!strcmp(names[i], "pingpong"))
			t_pingpong(&s);
		else if (!strcmp(names[i], "engines"))
			t_engines(&s);
		else if (!strcmp(names[i], "arb"))
			t_arb(&s);
		else if (!strcmp(names[i], "hostile"))
			t_hostile(&s);
		else if (!strcmp(names[i], "pred"))
			t_pred(&s);
		else if (!strcmp(names[i], "toctou"))
			t_toctou(&s);
		else if (!strcmp(names[i], "sobswitch"))
			t_sobswitch(&s);
		else
			ok(0, "unknown scenario '%s'", names[i]);
	}
	sess_close(&s);
	return tap_done();
}
