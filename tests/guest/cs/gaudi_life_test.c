// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_life_test - lifetime and isolation of what a holder leaves in the
 * driver and the device (issue 9, class 4), on gaudi.ko.
 *
 *   gaudi_life_test [--card N] TEST...
 *
 * TEST:
 *   fencefree     an internal-queue job held in a FENCE after its CS ended,
 *                 then CBs the parser refuses (whose copies would reuse a
 *                 freed kernel CB), then the fence released: the original
 *                 job runs, nothing refused does
 *   pqfull        1024 entries on an internal queue held by a FENCE: the
 *                 next job fails with EAGAIN (no overrun), and runs after
 *                 the release
 *   stalledclose  a holder exits with a stream held in a FENCE: the next
 *                 holder's CS on that queue works, releasing the old fence
 *                 runs nothing of the old holder
 *   scrub         the next holder reads zeros where the previous one wrote
 *                 HBM and SRAM (control: with scrub=0 it would read them);
 *                 reports what close costs
 *   dmabuffree    FREE of an allocation while another process holds a
 *                 dma-buf of it keeps the memory allocated and its data;
 *                 the next holder cannot open until the dma-buf is gone,
 *                 then reads zeros there
 *   scrubfull     (not in the suite) the cost of scrub=2, all 32 GiB
 *
 * Prints TAP ending in "N passed, N failed"; exit status 1 on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "hl_ioctl.h"
#include "tap.h"

#define WS_SOB(i)	(GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * (i))
#define WS_MON(reg, m)	(GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + (reg) + 4 * (m))
/* Fence counter 0 RDATA of stream 0 of DMA engine @n's QMAN. */
#define DMA_FENCE0(n)	(GAUDI_CFG_BASE + mmDMA0_QM_BASE + \
			 GAUDI_DMA_STRIDE * (n) + QM_CP_FENCE_RDATA(0, 0))

#define CB_SIZE		(64U << 10)
#define BUF_SIZE	(8U << 20)
#define WAIT_US		(30ULL * 1000 * 1000)
#define SCRUB_PARAM	"/sys/module/gaudi/parameters/scrub"

static int card;
static char path[64];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- a session: fd, an external CB, a CB mapped for internal queues ---- */

struct sess {
	int fd;
	uint64_t cb, icb, dva, va;
	uint8_t *cbp, *ip, *buf;
};

static bool sess_open(struct sess *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = hl_open_retry(path);
	if (s->fd < 0)
		return false;
	if (cb_create(s->fd, CB_SIZE, 0, &s->cb) ||
	    cb_create(s->fd, CB_SIZE, HL_CB_FLAGS_MAP, &s->icb))
		return false;
	if (hl_cb_device_va(s->fd, s->icb, &s->dva) || !s->dva)
		return false;
	s->cbp = hl_cb_mmap(s->fd, s->cb, CB_SIZE);
	s->ip = hl_cb_mmap(s->fd, s->icb, CB_SIZE);
	if (s->cbp == MAP_FAILED || s->ip == MAP_FAILED)
		return false;
	if (posix_memalign((void **)&s->buf, 2 << 20, BUF_SIZE))
		return false;
	memset(s->buf, 0, BUF_SIZE);
	return map_host(s->fd, s->buf, BUF_SIZE, &s->va) == 0;
}

static void sess_close(struct sess *s)
{
	if (s->fd < 0)
		return;
	if (s->cbp && s->cbp != MAP_FAILED)
		munmap(s->cbp, CB_SIZE);
	if (s->ip && s->ip != MAP_FAILED)
		munmap(s->ip, CB_SIZE);
	close(s->fd);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* Run @len bytes of the external CB on queue @q and wait. */
static int run_ext(struct sess *s, size_t len, uint32_t q)
{
	return hl_run1(s->fd, s->cb, (uint32_t)len, q, WAIT_US);
}

/*
 * Arm user monitor @mon on user SOB @sob >= 1 with a payload adding 1 to
 * fence counter 0 of stream 0 of DMA engine @dma (cleared SOB first).
 */
static int arm_fence(struct sess *s, unsigned int mon, unsigned int sob,
		     unsigned int dma)
{
	size_t len;

	len = hl_pkt_msg_long(s->cbp, 0, WS_SOB(sob), 0, false);
	len = hl_pkt_msg_long(s->cbp, len, WS_MON(SM_MON_PAY_ADDRL(0), mon),
			      (uint32_t)DMA_FENCE0(dma), false);
	len = hl_pkt_msg_long(s->cbp, len, WS_MON(SM_MON_PAY_ADDRH(0), mon),
			      (uint32_t)(DMA_FENCE0(dma) >> 32), false);
	len = hl_pkt_msg_long(s->cbp, len, WS_MON(SM_MON_PAY_DATA(0), mon), 1,
			      false);
	len = hl_pkt_msg_long(s->cbp, len, WS_MON(SM_MON_ARM(0), mon),
			      sob / 8 | (0xFFU & ~(1U << (sob % 8))) << 8 |
			      1U << 17, false);
	return run_ext(s, len, GAUDI_QUEUE_ID_DMA_0_0);
}

/*
 * SOB @sob += 1 from DMA_0_1: fires the monitor armed on it.  NOPs make
 * the CB large enough that its kernel copy comes from another pool than
 * small CBs' (a freed small one keeps what was last copied into it).
 */
static int release_fence(struct sess *s, unsigned int sob)
{
	size_t len = 0;

	while (len < 512)
		len = hl_pkt8(s->cbp, len, PKT_NOP, 0, 0);
	return run_ext(s, hl_pkt_msg_long(s->cbp, len, WS_SOB(sob), SM_SOB_INC | 1,
					  false),
		       GAUDI_QUEUE_ID_DMA_0_1);
}

/* An internal job at @off of the mapped CB plus a NOP on DMA_0_0. */
static int submit_int(struct sess *s, uint32_t q, uint32_t off, uint32_t len,
		      uint64_t *seq)
{
	struct hl_cs_chunk ch[2];

	hl_pkt8(s->cbp, 0, PKT_NOP, 0, 0);
	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = s->dva + off;
	ch[0].queue_index = q;
	ch[0].cb_size = len;
	ch[1].cb_handle = s->cb;
	ch[1].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[1].cb_size = 8;
	return hl_submit(s->fd, ch, 2, 0, 0, seq);
}

/* Copy @size bytes of device memory @dev to the host buffer at @off. */
static int read_dev(struct sess *s, uint64_t dev, uint32_t size, size_t off)
{
	memset(s->buf + off, 0xEE, size);
	return run_ext(s, pkt_lin_dma(s->cbp, 0, dev, s->va + off, size,
				      false, true), GAUDI_QUEUE_ID_DMA_0_2);
}

static int memset_dev(struct sess *s, uint64_t dev, uint32_t size, uint8_t v)
{
	return run_ext(s, pkt_lin_dma(s->cbp, 0, 0x0101010101010101ULL * v,
				      dev, size, true, true),
		       GAUDI_QUEUE_ID_DMA_0_3);
}

static bool all_are(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static bool wait_byte(volatile uint8_t *p, uint8_t v, int ms)
{
	while (*p != v && ms-- > 0)
		usleep(1000);
	return *p == v;
}

/* ---- fencefree ------------------------------------------------------------ */

static void t_fencefree(void)
{
	unsigned int i, refused = 0;
	struct sess s;
	uint64_t seq;
	size_t len;

	if (!ok(sess_open(&s), "fencefree: open"))
		return;
	ok(arm_fence(&s, 80, 160, 2) == 0,
	   "monitor 80 on SOB 160 armed to release DMA_2_0's fence 0");
	/*
	 * Two NOPs first: a freed pool block starts with the pool's free
	 * list, the stream resumes at the FENCE, 16 bytes in.
	 */
	len = hl_pkt8(s.ip, 0, PKT_NOP, 0, 0);
	len = hl_pkt8(s.ip, len, PKT_NOP, 0, 0);
	len = hl_pkt_fence(s.ip, len, 0, 1, 1);
	len = pkt_lin_dma(s.ip, len, 0xA1A1A1A1A1A1A1A1ULL, s.va, 4096, true,
			  true);
	if (!ok(submit_int(&s, GAUDI_QUEUE_ID_DMA_2_0, 0, len, &seq) == 0 &&
		hl_wait_ok(s.fd, seq, WAIT_US) == 0,
		"CS of FENCE + memset on DMA_2_0 and a NOP on DMA_0_0 completed"))
		goto out;
	usleep(100000);
	ok(s.buf[0] == 0, "its internal job still waits in the FENCE");

	/*
	 * CSs the parser refuses: two NOPs and a memset to the host buffer
	 * at 4 KiB on DMA_2_1, then the same with a MSG_PROT.  Their kernel
	 * copies come from the same pool as the held job's; were it freed
	 * when its CS ended, one of them would land where the stream reads
	 * next.
	 */
	len = hl_pkt8(s.ip, 8192, PKT_NOP, 0, 0);
	len = hl_pkt8(s.ip, len, PKT_NOP, 0, 0);
	pkt_lin_dma(s.ip, len, 0xBDBDBDBDBDBDBDBDULL, s.va + 4096, 4096, true,
		    true);
	for (i = 0; i < 64; i++) {
		struct hl_cs_chunk two[2];
		uint8_t *cb = i % 2 ? s.cbp : s.ip + 4096;

		len = hl_pkt8(cb, 0, PKT_NOP, 0, 0);
		len = hl_pkt8(cb, len, PKT_NOP, 0, 0);
		len = pkt_lin_dma(cb, len, 0xBDBDBDBDBDBDBDBDULL, s.va + 4096,
				  4096, true, true);
		len = hl_pkt_msg_long(cb, len, s.va + 8192, 1, true);
		memset(two, 0, sizeof(two));
		two[0].cb_handle = s.dva + 8192;
		two[0].queue_index = GAUDI_QUEUE_ID_DMA_2_1;
		two[0].cb_size = 40;
		two[1].cb_handle = i % 2 ? s.cb : s.dva + 4096;
		two[1].queue_index = i % 2 ? GAUDI_QUEUE_ID_DMA_0_0 :
					     GAUDI_QUEUE_ID_DMA_2_1;
		two[1].cb_size = len;
		if (hl_submit(s.fd, two, 2, 0, 0, NULL) == -EPERM)
			refused++;
	}
	ok(refused == 64, "64 CSs with a CB holding a MSG_PROT refused with EPERM (%u)",
	   refused);
	ok(release_fence(&s, 160) == 0, "SOB 160 += 1: the fence is released");
	ok(wait_byte(&s.buf[0], 0xA1, 2000) && all_are(s.buf, 4096, 0xA1),
	   "the held job's own memset ran (0x%02x)", s.buf[0]);
	usleep(100000);
	ok(all_are(s.buf + 4096, 4096, 0),
	   "nothing of the refused CBs ran (0x%02x at 4 KiB)", s.buf[4096]);
out:
	sess_close(&s);
}

/* ---- pqfull --------------------------------------------------------------- */

static int submit_many(struct sess *s, uint32_t q, unsigned int n,
		       bool fence_first, uint64_t *seq)
{
	static struct hl_cs_chunk ch[HL_MAX_JOBS_PER_CS];
	unsigned int i;

	memset(ch, 0, sizeof(ch));
	for (i = 0; i < n; i++) {
		ch[i].cb_handle = s->dva + (fence_first && !i ? 2048 : 2056);
		ch[i].queue_index = q;
		ch[i].cb_size = 8;
	}
	hl_pkt8(s->cbp, 0, PKT_NOP, 0, 0);
	ch[n].cb_handle = s->cb;
	ch[n].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[n].cb_size = 8;
	return hl_submit(s->fd, ch, n + 1, 0, 0, seq);
}

static void t_pqfull(void)
{
	struct hl_info_cs_counters cnt;
	uint64_t seq, seq2;
	struct sess s;
	double t0;
	size_t len;
	int rc;

	if (!ok(sess_open(&s), "pqfull: open"))
		return;
	ok(arm_fence(&s, 81, 161, 3) == 0,
	   "monitor 81 on SOB 161 armed to release DMA_3_0's fence 0");
	hl_pkt_fence(s.ip, 2048, 0, 1, 1);
	hl_pkt8(s.ip, 2056, PKT_NOP, 0, 0);
	ok(submit_many(&s, GAUDI_QUEUE_ID_DMA_3_0, 511, true, &seq) == 0 &&
	   submit_many(&s, GAUDI_QUEUE_ID_DMA_3_0, 511, false, &seq) == 0 &&
	   submit_many(&s, GAUDI_QUEUE_ID_DMA_3_0, 2, false, &seq) == 0,
	   "1024 jobs on DMA_3_0 behind a FENCE submitted (its PQ has 1024 entries)");
	t0 = now_s();
	rc = submit_many(&s, GAUDI_QUEUE_ID_DMA_3_0, 1, false, &seq);
	ok(rc == -EAGAIN && now_s() - t0 < 5,
	   "one more: EAGAIN after %.2f s, the PQ is not overrun (rc %d)",
	   now_s() - t0, rc);
	memset(&cnt, 0, sizeof(cnt));
	ok(hl_info(s.fd, HL_INFO_CS_COUNTERS, &cnt, sizeof(cnt)) == 0 &&
	   cnt.ctx_queue_full_drop_cnt >= 1,
	   "INFO CS_COUNTERS: ctx queue_full_drop %llu",
	   (unsigned long long)cnt.ctx_queue_full_drop_cnt);
	ok(release_fence(&s, 161) == 0, "the fence released");
	len = pkt_lin_dma(s.ip, 0, 0x3C3C3C3C3C3C3C3CULL, s.va, 4096, true,
			  true);
	rc = submit_int(&s, GAUDI_QUEUE_ID_DMA_3_0, 0, len, &seq2);
	ok(rc == 0 && hl_wait_ok(s.fd, seq2, WAIT_US) == 0 &&
	   wait_byte(&s.buf[0], 0x3C, 5000),
	   "then a job on DMA_3_0 is accepted and runs after the 1024 (rc %d)",
	   rc);
	sess_close(&s);
}

/* ---- stalledclose --------------------------------------------------------- */

#define OLD_HBM		(GAUDI_DRAM_USER_START + (512ULL << 20))

static void t_stalledclose(void)
{
	struct sess s;
	double t0, t1;
	uint64_t seq;
	pid_t pid;
	size_t len;
	int st;

	pid = fork();
	if (!pid) {
		struct sess c;

		if (!sess_open(&c) || arm_fence(&c, 82, 162, 4))
			_exit(2);
		len = hl_pkt_fence(c.ip, 0, 0, 1, 1);
		len = pkt_lin_dma(c.ip, len, 0xC3C3C3C3C3C3C3C3ULL, OLD_HBM,
				  4096, true, true);
		if (submit_int(&c, GAUDI_QUEUE_ID_DMA_4_0, 0, len, &seq) ||
		    hl_wait_ok(c.fd, seq, WAIT_US))
			_exit(3);
		_exit(0);	/* closes with DMA_4_0 held in the FENCE */
	}
	t0 = now_s();
	waitpid(pid, &st, 0);
	t1 = now_s();
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "a holder exits with DMA_4_0 held in a FENCE (exit and close took %.2f s)",
	   t1 - t0);
	if (!ok(sess_open(&s), "the next holder opens"))
		return;
	len = pkt_lin_dma(s.ip, 0, 0x4D4D4D4D4D4D4D4DULL, s.va, 4096, true,
			  true);
	ok(submit_int(&s, GAUDI_QUEUE_ID_DMA_4_0, 0, len, &seq) == 0 &&
	   hl_wait_ok(s.fd, seq, WAIT_US) == 0 && wait_byte(&s.buf[0], 0x4D, 5000),
	   "its first CS on DMA_4_0 runs (0x%02x)", s.buf[0]);
	/* Release what the old holder waited for, as the old one would. */
	ok(arm_fence(&s, 82, 162, 4) == 0 && release_fence(&s, 162) == 0,
	   "it arms monitor 82 on DMA_4_0's fence 0 and fires it");
	usleep(200000);
	ok(read_dev(&s, OLD_HBM, 4096, 8192) == 0 &&
	   all_are(s.buf + 8192, 4096, 0),
	   "the old holder's memset never ran (HBM 0x%llx reads 0x%02x)",
	   (unsigned long long)OLD_HBM, s.buf[8192]);
	sess_close(&s);
}

/* ---- scrub ---------------------------------------------------------------- */

#define SCRUB_HBM	(GAUDI_DRAM_USER_START + (1ULL << 30))
#define SCRUB_HBM_LEN	(256U << 20)

static int scrub_param(int v)
{
	char b[8];
	int fd = open(SCRUB_PARAM, O_WRONLY);

	if (fd < 0)
		return -1;
	snprintf(b, sizeof(b), "%d", v);
	if (write(fd, b, strlen(b)) < 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/*
 * A holder writes @hbm_len bytes of HBM at SCRUB_HBM and all user SRAM
 * (when @sram), checks them, closes; the close time comes back on @out.
 */
static int writer(size_t hbm_len, bool sram, double *close_s)
{
	struct sess c;
	uint64_t a;
	double t;

	if (!sess_open(&c))
		return 2;
	for (a = 0; a < hbm_len; a += 64 << 20)
		if (memset_dev(&c, SCRUB_HBM + a, 64 << 20, 0x5A))
			return 3;
	if (sram && memset_dev(&c, GAUDI_SRAM_USER_START, GAUDI_SRAM_END - GAUDI_SRAM_USER_START, 0x6B))
		return 3;
	if (hbm_len && (read_dev(&c, SCRUB_HBM + hbm_len - 4096, 4096, 0) ||
			!all_are(c.buf, 4096, 0x5A)))
		return 4;
	if (sram && (read_dev(&c, GAUDI_SRAM_END - 4096, 4096, 0) ||
		     !all_are(c.buf, 4096, 0x6B)))
		return 4;
	munmap(c.cbp, CB_SIZE);
	munmap(c.ip, CB_SIZE);
	t = now_s();
	close(c.fd);
	*close_s = now_s() - t;
	return 0;
}

/* The driver's own account of its last clear (debugfs "scrub"). */
static void scrub_debugfs(void)
{
	char bdf[64], p[128], line[128];
	unsigned long long bytes = 0, us = 0;
	FILE *f;

	if (hl_card_bdf(card, bdf, sizeof(bdf)))
		return;
	snprintf(p, sizeof(p), "/sys/kernel/debug/accel/%s/scrub", bdf);
	f = fopen(p, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "last_bytes: %llu", &bytes);
		sscanf(line, "last_us: %llu", &us);
	}
	fclose(f);
	tap_diag("debugfs scrub: last clear %llu MiB in %llu us (submit to done word)",
		 bytes >> 20, us);
}

/* Run writer() in a child; its close time in *@close_s. */
static bool writer_child(size_t hbm_len, bool sram, double *close_s)
{
	int p[2], st;
	pid_t pid;

	*close_s = -1;
	if (pipe(p))
		return false;
	pid = fork();
	if (!pid) {
		double t = -1;
		int r = writer(hbm_len, sram, &t);

		if (write(p[1], &t, sizeof(t)) != sizeof(t))
			r = 5;
		_exit(r);
	}
	close(p[1]);
	if (read(p[0], close_s, sizeof(*close_s)) != sizeof(*close_s))
		*close_s = -1;
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* What the next holder reads at the spots the writer wrote: true if 0. */
static bool reads_zero(struct sess *s, size_t hbm_len, bool sram)
{
	static const uint64_t sram_at[] = { 0, 10 << 20,
					    (20 << 20) - 0x80 - 4096 };
	bool zero = true;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		uint64_t a = SCRUB_HBM + (hbm_len - 4096) * i / 2;

		zero &= read_dev(s, a & ~4095ULL, 4096, 0) == 0 &&
			all_are(s->buf, 4096, 0);
		if (sram)
			zero &= read_dev(s, GAUDI_SRAM_USER_START + sram_at[i], 4096, 0) ==
				0 && all_are(s->buf, 4096, 0);
	}
	return zero;
}

static void t_scrub(void)
{
	struct sess s;
	double cs;

	ok(writer_child(64 << 20, true, &cs),
	   "a holder writes 64 MiB of HBM and all 20 MiB of user SRAM, closes (close %.3f s)",
	   cs);
	if (!ok(sess_open(&s), "the next holder opens"))
		return;
	ok(reads_zero(&s, 64 << 20, true),
	   "it reads zeros from that HBM and SRAM");
	sess_close(&s);

	/* Control: the check sees data when the driver does not clear. */
	if (access(SCRUB_PARAM, W_OK) == 0) {
		scrub_param(0);
		ok(writer_child(4 << 20, true, &cs), "control: scrub=0, a holder writes 4 MiB of HBM and SRAM (close %.3f s)",
		   cs);
		ok(sess_open(&s) && !reads_zero(&s, 4 << 20, true),
		   "control: without clearing, the next holder does read them");
		sess_close(&s);
		scrub_param(1);
		/* The next close clears what the control left. */
		if (sess_open(&s))
			sess_close(&s);
	}

	/* What close costs: SRAM alone, then HBM on top. */
	ok(writer_child(0, true, &cs) && sess_open(&s), "cost: SRAM only");
	tap_diag("close clearing 20 MiB of SRAM: %.3f s", cs);
	scrub_debugfs();
	sess_close(&s);
	ok(writer_child(SCRUB_HBM_LEN, false, &cs) && sess_open(&s) &&
	   reads_zero(&s, SCRUB_HBM_LEN, false),
	   "cost: %u MiB of HBM cleared, reads zeros", SCRUB_HBM_LEN >> 20);
	tap_diag("close clearing %u MiB of HBM: %.3f s", SCRUB_HBM_LEN >> 20,
		 cs);
	scrub_debugfs();
	sess_close(&s);
	ok(writer_child(0, false, &cs), "cost: a holder that wrote nothing");
	tap_diag("close with nothing to clear: %.3f s", cs);

	/* MME/TPC jobs: the engines may write any HBM, all of it is cleared. */
	if (ok(sess_open(&s), "cost: a holder runs a NOP on TPC_0_0")) {
		uint64_t seq;
		double t;

		hl_pkt8(s.ip, 0, PKT_NOP, 0, 0);
		ok(submit_int(&s, GAUDI_QUEUE_ID_TPC_0_0, 0, 8, &seq) == 0 &&
		   hl_wait_ok(s.fd, seq, WAIT_US) == 0, "the TPC NOP completes");
		munmap(s.cbp, CB_SIZE);
		munmap(s.ip, CB_SIZE);
		s.cbp = s.ip = NULL;
		t = now_s();
		close(s.fd);
		s.fd = -1;
		tap_diag("close after a TPC job (all 32 GiB of user HBM cleared): %.3f s",
			 now_s() - t);
		scrub_debugfs();
		free(s.buf);
	}
}

static void t_scrubfull(void)
{
	struct sess s;
	double t;

	if (!ok(scrub_param(2) == 0 && sess_open(&s), "scrub=2"))
		return;
	t = now_s();
	sess_close(&s);
	t = now_s() - t;
	scrub_param(1);
	/* a measurement, not a check */
	printf("# close clearing all 32 GiB of user HBM and the SRAM: %.3f s\n",
	       t);
}

/* ---- dmabuffree ------------------------------------------------------------ */

/* A child that holds @dfd until a byte arrives on the returned fd. */
static pid_t holder(int dfd, int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(fcntl(dfd, F_GETFD) < 0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static void t_dmabuffree(void)
{
	uint64_t h, h2, addr, addr2, f0, f1, f2;
	struct sess s;
	int dfd = -1, go = -1, st, fd;
	pid_t pid;

	if (!ok(sess_open(&s), "dmabuffree: open"))
		return;
	ok(hl_mem_alloc(s.fd, 4 << 20, 0, 0, &h) == 0, "ALLOC 4 MiB");
	ok(hl_mem_map(s.fd, h, &addr) == 0, "MAP: HBM 0x%llx",
	   (unsigned long long)addr);
	ok(memset_dev(&s, addr, 4 << 20, 0x77) == 0, "fill it with 0x77");
	if (!ok(hl_export_dmabuf(s.fd, addr, 2 << 20, 0, O_RDWR, &dfd) == 0,
		"export its first 2 MiB as a dma-buf"))
		goto out;
	pid = holder(dfd, &go);
	close(dfd);
	ok(pid > 0, "a second process holds the dma-buf; this one closed it");
	ok(hl_dram_usage(s.fd, &f0, NULL), "DRAM_USAGE: %llu MiB free",
	   (unsigned long long)(f0 >> 20));
	ok(hl_mem_free(s.fd, h) == 0, "FREE of the exported allocation: 0");
	ok(hl_dram_usage(s.fd, &f1, NULL) && f1 == f0,
	   "the HBM stays allocated while the dma-buf lives (%llu MiB free)",
	   (unsigned long long)(f1 >> 20));
	ok(hl_mem_alloc(s.fd, 4 << 20, 0, 0, &h2) == 0, "ALLOC 4 MiB again");
	hl_mem_map(s.fd, h2, &addr2);
	ok(addr2 && (addr2 >= addr + (4 << 20) || addr2 + (4 << 20) <= addr),
	   "it does not get the exported memory (0x%llx)",
	   (unsigned long long)addr2);
	ok(read_dev(&s, addr, 4096, 0) == 0 && all_are(s.buf, 4096, 0x77),
	   "the exported memory keeps its data");
	/* Close with the dma-buf alive: the next holder must wait. */
	sess_close(&s);
	fd = open(path, O_RDWR | O_CLOEXEC);
	ok(fd < 0 && errno == EBUSY,
	   "the next open while the previous holder's dma-buf lives: EBUSY (%d)",
	   fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	if (write(go, "x", 1) != 1)
		kill(pid, SIGKILL);
	close(go);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "the second process held a valid fd to the end, then exited");
	if (!ok(sess_open(&s), "then the next holder opens"))
		return;
	ok(hl_dram_usage(s.fd, &f2, NULL) && f2 == f0 + (4 << 20),
	   "the allocation went back with the dma-buf (%llu MiB free)",
	   (unsigned long long)(f2 >> 20));
	ok(read_dev(&s, addr, 4096, 0) == 0 && all_are(s.buf, 4096, 0),
	   "and the new holder reads zeros there");
out:
	sess_close(&s);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ }
	};
	int opt, i;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			card = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: gaudi_life_test [--card N] TEST...\n");
			return 2;
		}
	}
	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	for (i = optind; i < argc; i++) {
		const char *t = argv[i];

		if (!strcmp(t, "fencefree"))
			t_fencefree();
		else if (!strcmp(t, "pqfull"))
			t_pqfull();
		else if (!strcmp(t, "stalledclose"))
			t_stalledclose();
		else if (!strcmp(t, "scrub"))
			t_scrub();
		else if (!strcmp(t, "scrubfull"))
			t_scrubfull();
		else if (!strcmp(t, "dmabuffree"))
			t_dmabuffree();
		else
			ok(0, "unknown test %s", t);
	}
	return tap_done();
}
