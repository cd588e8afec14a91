// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_sec_test - isolation acceptance tests (issue 9) through upstream's
 * uapi <drm/habanalabs_accel.h>, so that the same binary runs on gaudi.ko
 * and on the upstream peer.
 *
 *   gaudi_sec_test [--card N] [--peer] [--kcanary DIR] TEST...
 *
 * TEST:
 *   attacks     every class of issue 9 attempted through the real ioctls,
 *               each from a fresh process holding the compute node: the
 *               four classes (WREG_32 to the DMA core, REPEAT into the
 *               middle of a packet, LIN_DMA control bits, a kernel CB copy
 *               used after free), messages to host memory and to the
 *               driver's sync objects and monitors, user monitors with
 *               payloads outside the user's objects, LIN_DMA to host
 *               memory, the kernel's HBM and the MMU page tables
 *   stale       a stream the previous holder left waiting in a FENCE must
 *               not run in the next holder's context
 *   nextholder  holder A fills user HBM and SRAM, closes; holder B reads
 *               the same ranges: none of A's data
 *   compat      the user sync managers (E_N, E_S, W_N): a fence between
 *               two streams through a user monitor, armed by the user,
 *               with MSG_SHORT and MSG_LONG; a multi-CS wait on SOB-fenced
 *               work from 8 threads
 *   sobclean    the user SOBs the compat test left non-zero read 0 in the
 *               next context (after its first CS)
 *   info        HL_INFO_SYNC_MANAGER of the four sync managers (diagnostic)
 *
 * Canaries: a second process (never the holder) fills a locked page with a
 * pattern and gives its physical address (from /proc/self/pagemap; root);
 * the attacker aims at HOST_PHYS_BASE + that address.  The kernel canary
 * is the page of gaudi_canary.ko (DIR, default
 * /sys/module/gaudi_canary/parameters: phys, bad, reset).  After each
 * attempt: both canaries unchanged, the ioctl result (the parser refuses
 * with EPERM/EINVAL where it must; elsewhere a refusal, an error or a
 * dropped access all pass), and a fresh process's normal CS works.
 * Registers no ioctl shows (sync objects, monitors) are read through the
 * ELBI window (tests/lib/gaudi_elbi.h) as an oracle.
 *
 * --peer: the device runs the upstream peer.  The attempts are reported,
 * not judged: one "# peer: ..." line each (facts for
 * Documentation/security.rst); compat and sobclean are judged as on
 * gaudi.ko.  Prints TAP ending in "N passed, N failed[, N skipped]"; exit
 * status 1 on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "gaudi_elbi.h"
#include "hl_ioctl.h"
#include "tap.h"

/* Device address map (hw/gaudi1/memmap.h). */
#define DRAM_KERNEL	0x0FF00000ULL	/* the device CPU's part of HBM */
#define PGT_HOP0_ASID1	0x10001000ULL	/* hop0 of ASID 1 (memmap.h) */

/*
 * DMA core and QMAN registers (hw/gaudi1/regs.h).  WREG_32 offsets are
 * relative to the engine's 64 KiB window, which starts at the DMA core;
 * its QMAN is at + DMA_QM_OFFSET.
 */
#define DMA_CORE(n)		((uint32_t)mmDMA0_CORE_BASE + GAUDI_DMA_STRIDE * (n))
#define DMA_QM(n)		(DMA_CORE(n) + DMA_QM_OFFSET)
#define QM_MSG_BASE0_LO(s)	(DMA_QM_OFFSET + QM_CP_MSG_BASE_LO(0, s))
#define QM_MSG_BASE0_HI(s)	(DMA_QM_OFFSET + QM_CP_MSG_BASE_HI(0, s))

/*
 * Sync managers (hw/gaudi1/regs.h): SOBs from the block base, then the
 * monitor registers.  MSG_SHORT bases as both drivers program them: 0 E_N
 * monitors (PAY_ADDRL_0), 1 E_N SOBs, 2 W_S monitors, 3 W_S SOBs.
 */
#define SM_E_N		((uint32_t)mmSYNC_MNGR_E_N_SOB_OBJ_0)
#define SM_W_N		((uint32_t)mmSYNC_MNGR_W_N_SOB_OBJ_0)
#define SM_E_S		((uint32_t)mmSYNC_MNGR_E_S_SOB_OBJ_0)
#define SM_W_S		((uint32_t)mmSYNC_MNGR_W_S_SOB_OBJ_0)
#define SOB(b, i)	((b) + 4U * (i))
#define MON_ADDRL(b, m)	((b) + SM_MON_PAY_ADDRL(m))
#define MON_ADDRH(b, m)	((b) + SM_MON_PAY_ADDRH(m))
#define MON_DATA(b, m)	((b) + SM_MON_PAY_DATA(m))
#define MON_ARM(b, m)	((b) + SM_MON_ARM(m))
#define MON_STATUS(b, m) ((b) + SM_MON_STATUS(m))
/* A monitor register as a MSG_SHORT offset from base 0 (PAY_ADDRL_0). */
#define MON_SHORT(reg)	((reg) - SM_MON_PAY_ADDRL(0))
/* ARM: group 7:0 (SOBs 8g..8g+7), mask 15:8 (1 = ignored), value 31:17. */
#define ARM(g, mask, val) ((g) | (uint32_t)(mask) << 8 | (uint32_t)(val) << 17)
#define WS_USER_SOB	144	/* W_S user range of both drivers */
#define WS_USER_MON	72
#define WS_DRV_SOB	130	/* a driver's signal SOB (W_S 128..143) */
#define WS_DRV_MON	64	/* a driver's monitor (W_S 64..71) */

#define CB_SIZE		(64U << 10)
#define BUF_SIZE	(8U << 20)
#define WAIT_US		(30ULL * 1000 * 1000)
#define CANARY_OFF	0x100
#define PAT32		0x5A5AA5A5U
#define PAT64		0x5A5A5A5A5A5A5A5AULL	/* bit 0 clear: no PTE */

static int card;
static bool peer;
static char path[64];
static const char *kc_dir = "/sys/module/gaudi_canary/parameters";
static int elbi_fd = -1;
static const char *drv = "gaudi";

/* ---- device sessions ------------------------------------------------------ */

/*
 * Open the compute node, retrying while the previous holder's context is
 * released or the device resets (EBUSY, EAGAIN), up to 120 s.
 */
static int open_dev(void)
{
	int fd, i;

	for (i = 0; i < 1200; i++) {
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 || (errno != EBUSY && errno != EAGAIN))
			return fd;
		usleep(100000);
	}
	return -1;
}

/* The node, a 64 KiB CB and an 8 MiB host buffer on a 2 MiB boundary. */
static bool sess_open(struct hl_sess *s)
{
	return hl_sess_open(s, open_dev(), CB_SIZE, BUF_SIZE, 2 << 20);
}

/* A CB of this file mapped into the device MMU (internal queues). */
struct icb {
	uint64_t h, dva;
	uint8_t *p;
};

/*
 * Upstream does not map CBs into the MMU on Gaudi 1 (HL_CB_FLAGS_MAP is
 * refused): there an internal queue's CB is any memory the queue can
 * read, here the last 64 KiB of the session's userptr buffer.
 */
static bool icb_create(struct hl_sess *s, struct icb *c)
{
	memset(c, 0, sizeof(*c));
	if (cb_create(s->fd, 4096, HL_CB_FLAGS_MAP, &c->h)) {
		c->h = 0;
		c->p = s->buf + BUF_SIZE - (64 << 10);
		c->dva = s->va + BUF_SIZE - (64 << 10);
		return true;
	}
	if (hl_cb_device_va(s->fd, c->h, &c->dva) || !c->dva)
		return false;
	c->p = hl_cb_mmap(s->fd, c->h, 4096);
	return c->p != MAP_FAILED;
}

static size_t nops(uint8_t *cb, size_t off, size_t end)
{
	while (off < end)
		off = hl_pkt8(cb, off, PKT_NOP, 0, 0);
	return off;
}

/* LIN_DMA with EB; @extra ORed into ctl, @clear cleared from it. */
static size_t lin_dma_ctl(uint8_t *cb, size_t off, uint64_t src, uint64_t dst,
			  uint32_t size, bool memset_op, uint32_t extra,
			  uint32_t clear)
{
	uint32_t ctl;
	size_t end = pkt_lin_dma(cb, off, src, dst, size, memset_op, true);

	memcpy(&ctl, cb + off + 4, 4);
	ctl = (le32toh(ctl) | extra) & ~clear;
	put32(cb + off + 4, ctl);
	return end;
}

static size_t lin_dma(uint8_t *cb, size_t off, uint64_t src, uint64_t dst,
		      uint32_t size, bool memset_op)
{
	return lin_dma_ctl(cb, off, src, dst, size, memset_op, 0, 0);
}

static int wait_done(int fd, uint64_t seq, uint32_t *st)
{
	*st = ~0U;
	return wait_cs(fd, seq, WAIT_US, st, NULL);
}

static int run_cb(struct hl_sess *s, size_t len, uint32_t q)
{
	return hl_sess_run(s, len, q, WAIT_US);
}

/* Copy @size bytes of device memory at @dev into the session's buffer. */
static int dev_read(struct hl_sess *s, uint64_t dev, uint32_t off, uint32_t size)
{
	return run_cb(s, lin_dma(s->cbp, 0, dev, s->va + off, size, false), 0);
}

static const char *rc_name(int rc);
static const char *st_name(uint32_t st);

/* ---- canaries ---------------------------------------------------------------- */

static uint8_t host_pat(unsigned int i)
{
	return (uint8_t)(29 * i + 0x3B);
}

struct canary {
	pid_t pid;
	int to, from;
	uint64_t pa;
};

static struct canary hc;

/* The canary process: never opens the device. */
static void canary_main(int in, int out)
{
	uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t ent = 0, pa = 0;
	unsigned int i;
	uint32_t bad;
	char c;
	int fd;

	if (p != MAP_FAILED && mlock(p, 4096) == 0) {
		for (i = 0; i < 4096; i++)
			p[i] = host_pat(i);
		fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
		if (fd >= 0 &&
		    pread(fd, &ent, 8, (off_t)((uintptr_t)p / 4096) * 8) == 8 &&
		    (ent >> 63) && (ent & ((1ULL << 55) - 1)))
			pa = (ent & ((1ULL << 55) - 1)) * 4096;
		if (fd >= 0)
			close(fd);
	}
	if (write(out, &pa, 8) != 8 || !pa)
		_exit(1);
	while (read(in, &c, 1) == 1) {
		if (c == 'r')
			for (i = 0; i < 4096; i++)
				p[i] = host_pat(i);
		for (i = 0, bad = 0; i < 4096; i++)
			bad += p[i] != host_pat(i);
		if (write(out, &bad, 4) != 4)
			break;
	}
	_exit(0);
}

static bool canary_start(void)
{
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		return false;
	hc.pid = fork();
	if (hc.pid == 0) {
		close(a[1]);
		close(b[0]);
		canary_main(a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	hc.to = a[1];
	hc.from = b[0];
	return hc.pid > 0 && read(hc.from, &hc.pa, 8) == 8 && hc.pa;
}

/* Bytes of the host canary changed (@c 'c'), or refilled first ('r'). */
static int canary_cmd(char c)
{
	uint32_t bad;

	if (write(hc.to, &c, 1) != 1 || read(hc.from, &bad, 4) != 4)
		return -1;
	return (int)bad;
}

static uint64_t kc_pa;

static long kc_read(const char *name)
{
	char p[256], line[64];
	FILE *f;
	long v = -1;

	snprintf(p, sizeof(p), "%s/%s", kc_dir, name);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		v = strtol(line, NULL, 0);
	fclose(f);
	return v;
}

static void kc_reset(void)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/reset", kc_dir);
	f = fopen(p, "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
}

/* ---- attempts ------------------------------------------------------------------- */

/* What an attacking process reports (shared memory). */
struct result {
	int rc;			/* the submission's ioctl result */
	int wrc;		/* WAIT_CS result, when submitted */
	uint32_t st;		/* WAIT_CS status */
	bool waited;
	int leak;		/* canary bytes that reached the attacker */
	int rcs[16];		/* per-step results of multi-step attempts */
	char note[256];
};

static struct result *res;

/* Targets, in device address form. */
static uint64_t t_host;		/* host canary word */
static uint64_t t_host_page;	/* host canary page */
static uint64_t t_kern;		/* kernel canary word (0: none) */
/* CP_MSG_BASE0 as both drivers program it: E_N's monitor PAY_ADDRL_0. */
#define MSGBASE0	(GAUDI_CFG_BASE + mmSYNC_MNGR_E_N_SOB_OBJ_0 + SM_MON_PAY_ADDRL(0))
static uint32_t msgbase_lo = (uint32_t)MSGBASE0;
static uint32_t msgbase_hi = (uint32_t)(MSGBASE0 >> 32);

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	size_t n = strlen(res->note);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->note + n, sizeof(res->note) - n, fmt, ap);
	va_end(ap);
}

/* DMA QMAN @dma stream @st: fence counter 0, PQ PI and CI (ELBI). */
static void qm_state(const char *when, unsigned int dma, unsigned int st)
{
	uint32_t cnt = ~0U, pi = ~0U, ci = ~0U;

	elbi_rw(elbi_fd, false, DMA_QM(dma) + QM_CP_FENCE_CNT(0, st), &cnt);
	elbi_rw(elbi_fd, false, DMA_QM(dma) + QM_PQ_PI(st), &pi);
	elbi_rw(elbi_fd, false, DMA_QM(dma) + QM_PQ_CI(st), &ci);
	note("%s: DMA%u stream %u fence0 %d PI %d CI %d; ", when, dma, st,
	     (int)cnt, (int)pi, (int)ci);
}

/* Submit @n chunks, wait when accepted. */
static void go_chunks(struct hl_sess *s, struct hl_cs_chunk *ch, uint32_t n)
{
	uint64_t seq;

	res->rc = hl_submit(s->fd, ch, n, 0, 0, &seq);
	if (res->rc)
		return;
	res->waited = true;
	res->wrc = wait_done(s->fd, seq, &res->st);
}

static void go(struct hl_sess *s, size_t len, uint32_t q)
{
	struct hl_cs_chunk ch;

	memset(&ch, 0, sizeof(ch));
	ch.cb_handle = s->cb;
	ch.queue_index = q;
	ch.cb_size = len;
	go_chunks(s, &ch, 1);
}

/* An internal-queue CB and a NOP on DMA_0_0 to end the CS (upstream's rule). */
static void go_internal(struct hl_sess *s, struct icb *c, size_t len, uint32_t q)
{
	struct hl_cs_chunk ch[2];

	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = c->dva;
	ch[0].queue_index = q;
	ch[0].cb_size = len;
	hl_pkt8(s->cbp, 0, PKT_NOP, 0, 0);
	ch[1].cb_handle = s->cb;
	ch[1].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[1].cb_size = 8;
	go_chunks(s, ch, 2);
}

/* WREG_32s programming the DMA core of the queue's engine, then COMMIT. */
static size_t wreg_dma(uint8_t *cb, size_t off, uint64_t src, uint64_t dst,
		       uint32_t size, uint32_t commit)
{
	off = hl_pkt_wreg32(cb, off, DMA_CORE_SRC_BASE_LO, (uint32_t)src);
	off = hl_pkt_wreg32(cb, off, DMA_CORE_SRC_BASE_HI, (uint32_t)(src >> 32));
	off = hl_pkt_wreg32(cb, off, DMA_CORE_DST_BASE_LO, (uint32_t)dst);
	off = hl_pkt_wreg32(cb, off, DMA_CORE_DST_BASE_HI, (uint32_t)(dst >> 32));
	off = hl_pkt_wreg32(cb, off, DMA_CORE_DST_TSIZE_0, size);
	return hl_pkt_wreg32(cb, off, DMA_CORE_COMMIT, commit);
}

/* Prefill the first @n bytes of the buffer with the canary's complement. */
static void leak_prep(struct hl_sess *s, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		s->buf[i] = (uint8_t)~host_pat(CANARY_OFF + i);
}

static void leak_count(struct hl_sess *s, unsigned int n)
{
	res->leak = 0;
	for (unsigned int i = 0; i < n; i++)
		res->leak += s->buf[i] == host_pat(CANARY_OFF + i);
}

/* A user monitor @m of block @b: payload @val to @addr when SOB 8g of the
 * group reaches 1; then SOB 8g set to 1 (fires) and back to 0. */
static size_t mon_fire(uint8_t *cb, size_t off, uint32_t b, uint32_t m,
		       uint32_t g, uint64_t addr, uint32_t val)
{
	off = hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE + SOB(b, 8 * g), 0, false);
	off = hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE + MON_ADDRL(b, m),
			      (uint32_t)addr, false);
	off = hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE + MON_ADDRH(b, m),
			      (uint32_t)(addr >> 32), false);
	off = hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE + MON_DATA(b, m), val, false);
	off = hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE + MON_ARM(b, m),
			      ARM(g, 0xFE, 1), false);
	off = hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE + SOB(b, 8 * g), 1, false);
	return hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE + SOB(b, 8 * g), 0, false);
}

/*
 * Release a stream waiting in FENCE 0 of DMA QMAN @dma stream @st: W_S user
 * monitor 72 on user SOB 144 (both drivers' user range) writes 1 to the
 * stream's fence counter.  Submitted on DMA_0_1.
 */
static int release_fence(struct hl_sess *s, unsigned int dma, unsigned int st)
{
	size_t len = mon_fire(s->cbp, 0, SM_W_S, WS_USER_MON, WS_USER_SOB / 8,
			      GAUDI_CFG_BASE + DMA_QM(dma) + QM_CP_FENCE_RDATA(0, st),
			      1);

	/* mon_fire() arms on the group's first SOB: 144 = 8 * 18. */
	return run_cb(s, len, GAUDI_QUEUE_ID_DMA_0_1);
}

/* Wait up to 2 s for the buffer byte @off to become @v. */
static bool buf_becomes(struct hl_sess *s, size_t off, uint8_t v)
{
	for (int i = 0; i < 200; i++) {
		if (((volatile uint8_t *)s->buf)[off] == v)
			return true;
		usleep(10000);
	}
	return false;
}

/* ---- the attempts themselves (run in a fresh attacking process) ---------- */

static void a_wreg_dma_host(struct hl_sess *s)
{
	go(s, wreg_dma(s->cbp, 0, PAT64, t_host, 8,
		       DMA_COMMIT_LIN | DMA_COMMIT_MEM_SET), 0);
}

static void a_wreg_dma_kern(struct hl_sess *s)
{
	go(s, wreg_dma(s->cbp, 0, PAT64, t_kern, 8,
		       DMA_COMMIT_LIN | DMA_COMMIT_MEM_SET), 0);
}

static void a_wreg_dma_read(struct hl_sess *s)
{
	leak_prep(s, 256);
	go(s, wreg_dma(s->cbp, 0, t_host, s->va, 256, DMA_COMMIT_LIN), 0);
	leak_count(s, 256);
}

static void a_wreg_wrcomp(struct hl_sess *s)
{
	size_t len = 0;

	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_WDATA, PAT32);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_ADDR_LO, (uint32_t)t_host);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_ADDR_HI,
			    (uint32_t)(t_host >> 32));
	len = lin_dma_ctl(s->cbp, len, 0, s->va, 64, true, PKT_LIN_DMA_WRCOMP, 0);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_ADDR_LO, 0);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_ADDR_HI, 0);
	len = hl_pkt_wreg32(s->cbp, len, DMA_CORE_WR_COMP_WDATA, 0);
	go(s, len, 0);
}

static const uint32_t steer_regs[] = {
	DMA_CORE_SRC_BASE_LO, DMA_CORE_SRC_BASE_HI, DMA_CORE_DST_BASE_LO, DMA_CORE_DST_BASE_HI, DMA_CORE_DST_TSIZE_0, DMA_CORE_WR_COMP_WDATA,
	DMA_CORE_WR_COMP_ADDR_LO, DMA_CORE_WR_COMP_ADDR_HI,
};

static const char * const steer_names[] = {
	"SRC_BASE_LO", "SRC_BASE_HI", "DST_BASE_LO", "DST_BASE_HI",
	"DST_TSIZE_0", "WR_COMP_WDATA", "WR_COMP_ADDR_LO", "WR_COMP_ADDR_HI",
};

#define N_STEER (sizeof(steer_regs) / sizeof(steer_regs[0]))

/* Each steering register alone, value 0 (harmless if it runs). */
static void a_wreg_each(struct hl_sess *s)
{
	uint64_t seq;
	uint32_t st;

	for (size_t i = 0; i < N_STEER; i++) {
		res->rcs[i] = hl_submit1(s->fd, s->cb,
					 hl_pkt_wreg32(s->cbp, 0, steer_regs[i],
						       0), 0, &seq);
		if (!res->rcs[i])
			wait_done(s->fd, seq, &st);
	}
}

static void a_wreg_dma_internal(struct hl_sess *s)
{
	struct icb c;

	if (!icb_create(s, &c)) {
		note("cannot create a mapped CB");
		res->rc = 1;
		return;
	}
	go_internal(s, &c, wreg_dma(c.p, 0, PAT64, t_host, 8,
				    DMA_COMMIT_LIN | DMA_COMMIT_MEM_SET),
		    GAUDI_QUEUE_ID_DMA_3_0);
}

static void a_msgbase_short(struct hl_sess *s)
{
	size_t len = 0;

	len = hl_pkt_wreg32(s->cbp, len, QM_MSG_BASE0_LO(0), (uint32_t)t_host);
	len = hl_pkt_wreg32(s->cbp, len, QM_MSG_BASE0_HI(0),
			    (uint32_t)(t_host >> 32));
	len = hl_pkt_msg_short(s->cbp, len, 0, 0, PAT32);
	len = hl_pkt_wreg32(s->cbp, len, QM_MSG_BASE0_LO(0), msgbase_lo);
	len = hl_pkt_wreg32(s->cbp, len, QM_MSG_BASE0_HI(0), msgbase_hi);
	go(s, len, 0);
}

/*
 * REPEAT (sore) jumping to offset 16: the source field of the zero-size
 * LIN_DMA at offset 8, whose last 16 bytes form a MSG_LONG to @target.
 */
static void repeat_hidden(struct hl_sess *s, uint64_t target)
{
	uint8_t *cb = s->cbp;

	hl_pkt8(cb, 0, PKT_REPEAT, PKT_REPEAT_SORE | 16U << 16, 0);
	put32(cb + 8, 0);
	put32(cb + 12, HL_PKT_CTL(PKT_LIN_DMA) | PKT_LIN_DMA_LIN | (1U << 30) |
		       PKT_CTL_MB);
	put32(cb + 16, PAT32);
	put32(cb + 20, HL_PKT_CTL(PKT_MSG_LONG) | PKT_CTL_MB);
	put64(cb + 24, target);
	go(s, 32, 0);
}

static void a_repeat_host(struct hl_sess *s)
{
	repeat_hidden(s, t_host);
}

static void a_repeat_kern(struct hl_sess *s)
{
	repeat_hidden(s, t_kern);
}

static void a_ld_wrcomp(struct hl_sess *s)
{
	go(s, lin_dma_ctl(s->cbp, 0, 0, s->va, 64, true, PKT_LIN_DMA_WRCOMP, 0), 0);
}

static void a_ld_nonlinear(struct hl_sess *s)
{
	go(s, lin_dma_ctl(s->cbp, 0, 0, s->va, 64, true, 0, PKT_LIN_DMA_LIN), 0);
}

static void a_ld_transpose(struct hl_sess *s)
{
	go(s, lin_dma_ctl(s->cbp, 0, 0, s->va, 64, true, PKT_LIN_DMA_TRANSPOSE, 0), 0);
}

/*
 * Class 4: an internal CB of 1 KiB stalls DMA_2_0 in a FENCE at offset
 * STALL_OFF; its CS ends (its external NOP completed); a CB the parser
 * refuses (MSG_PROT to the host canary at STALL_OFF) is submitted three
 * times with the same kernel copy size; then the fence is released.  A
 * kernel copy freed at the CS's end and reused by the refused CB runs the
 * refused MSG_PROT.  (STALL_OFF is past the first 16 bytes, which a
 * dma_pool overwrites with its free list when a block is freed.)
 */
#define STALL_OFF	24
static void a_kcb_reuse(struct hl_sess *s)
{
	struct icb c;
	size_t len;
	int i;

	if (!icb_create(s, &c)) {
		note("cannot create a mapped CB");
		res->rc = 1;
		return;
	}
	len = nops(c.p, 0, STALL_OFF);
	len = hl_pkt_fence(c.p, len, 0, 1, 1);
	len = lin_dma(c.p, len, 0x3333333333333333ULL, s->va + 4096, 64,
		      true);
	len = nops(c.p, len, 1024);
	go_internal(s, &c, len, GAUDI_QUEUE_ID_DMA_2_0);
	note("stall CS %d/%d st %u; ", res->rc, res->wrc, res->st);
	usleep(100000);
	for (i = 0; i < 3; i++) {
		len = nops(s->cbp, 0, STALL_OFF);
		len = hl_pkt_msg_long(s->cbp, len, t_host, PAT32, true);
		len = nops(s->cbp, len, 1024 - 32);
		res->rcs[i] = hl_submit1(s->fd, s->cb, len,
					 GAUDI_QUEUE_ID_DMA_0_1, NULL);
	}
	note("refused CB: %s %s %s; ", rc_name(res->rcs[0]),
	     rc_name(res->rcs[1]), rc_name(res->rcs[2]));
	res->rc = res->rcs[0];
	qm_state("before release", 2, 0);
	res->rcs[3] = release_fence(s, 2, 0);
	usleep(100000);
	qm_state("after", 2, 0);
	note("release %d; the stalled stream %s", res->rcs[3],
	     buf_becomes(s, 4096, 0x33) ? "ran its own LIN_DMA" :
	     "did not run its own LIN_DMA");
}

/*
 * Class 4, user side: the user rewrites its mapped internal CB while the
 * stream waits in the CB's FENCE.  A driver that executes a kernel copy
 * is not affected; one that runs the user's CB in place runs the new
 * packets.
 */
static void a_kcb_rewrite(struct hl_sess *s)
{
	struct icb c;
	size_t len;

	if (!icb_create(s, &c)) {
		note("cannot create a mapped CB");
		res->rc = 1;
		return;
	}
	len = nops(c.p, 0, STALL_OFF);
	len = hl_pkt_fence(c.p, len, 0, 1, 1);
	len = nops(c.p, len, 1024);
	go_internal(s, &c, len, GAUDI_QUEUE_ID_DMA_2_1);
	note("stall CS %d/%d st %u; ", res->rc, res->wrc, res->st);
	hl_pkt_msg_long(c.p, STALL_OFF, t_host, PAT32, true);
	qm_state("before release", 2, 1);
	res->rcs[0] = release_fence(s, 2, 1);
	usleep(300000);
	qm_state("after", 2, 1);
	note("release %s", rc_name(res->rcs[0]));
}

static void a_msg_host(struct hl_sess *s)
{
	go(s, hl_pkt_msg_long(s->cbp, 0, t_host, PAT32, false), 0);
}

static void a_msg_kern(struct hl_sess *s)
{
	go(s, hl_pkt_msg_long(s->cbp, 0, t_kern, PAT32, false), 0);
}

static void a_msg_drv_sob(struct hl_sess *s)
{
	go(s, hl_pkt_msg_long(s->cbp, 0, GAUDI_CFG_BASE + SOB(SM_W_S, WS_DRV_SOB),
			      SM_SOB_INC | 1, false), 0);
}

static void a_short_drv_sob(struct hl_sess *s)
{
	go(s, hl_pkt_msg_short(s->cbp, 0, 3, 4 * WS_DRV_SOB, SM_SOB_INC | 1), 0);
}

static void a_msg_drv_mon(struct hl_sess *s)
{
	go(s, hl_pkt_msg_long(s->cbp, 0,
			      GAUDI_CFG_BASE + MON_DATA(SM_W_S, WS_DRV_MON),
			      0x1234, false), 0);
}

static void a_mon_en_host(struct hl_sess *s)
{
	go(s, mon_fire(s->cbp, 0, SM_E_N, 0, 0, t_host, PAT32), 0);
}

static void a_mon_ws_host(struct hl_sess *s)
{
	go(s, mon_fire(s->cbp, 0, SM_W_S, WS_USER_MON, WS_USER_SOB / 8,
		       t_host, PAT32), 0);
}

static void a_mon_en_drv_sob(struct hl_sess *s)
{
	go(s, mon_fire(s->cbp, 0, SM_E_N, 1, 1,
		       GAUDI_CFG_BASE + SOB(SM_W_S, WS_DRV_SOB), SM_SOB_INC | 1), 0);
}

static void a_mon_en_kern(struct hl_sess *s)
{
	go(s, mon_fire(s->cbp, 0, SM_E_N, 2, 2, t_kern, PAT32), 0);
}

static void a_ld_host(struct hl_sess *s)
{
	go(s, lin_dma(s->cbp, 0, PAT64, t_host, 8, true), 0);
}

static void a_ld_host_read(struct hl_sess *s)
{
	leak_prep(s, 256);
	go(s, lin_dma(s->cbp, 0, t_host, s->va, 256, false), 0);
	leak_count(s, 256);
}

static void a_ld_kern(struct hl_sess *s)
{
	go(s, lin_dma(s->cbp, 0, PAT64, t_kern, 8, true), 0);
}

/*
 * Write PAT64 into 64 bytes of device memory @dev that are not the user's:
 * save them first (a LIN_DMA read), write, read back, restore the saved
 * bytes when both the save and the write went through.
 */
static void dev_write_probe(struct hl_sess *s, uint64_t dev)
{
	uint8_t saved[64];
	int rd, rb = 1;	/* 1: not tried */
	bool landed = false;

	memset(s->buf, 0xEE, 128);
	rd = dev_read(s, dev, 0, 64);
	memcpy(saved, s->buf, 64);
	go(s, lin_dma(s->cbp, 0, PAT64, dev, 64, true), 0);
	if (!res->rc) {
		memset(s->buf + 64, 0xEE, 64);
		rb = dev_read(s, dev, 64, 64);
		landed = !rb && s->buf[64] == 0x5A && s->buf[127] == 0x5A;
	}
	note("save-read %s, write %s/%s, read-back %s: the write %s",
	     rc_name(rd), rc_name(res->rc), rc_name(res->wrc), rc_name(rb),
	     landed ? "LANDED" : rb == 1 ? "was not tried" :
	     rb ? "could not be read back (the attacker's own mapping broke?)" :
	     "did not land");
	if (!rd && !res->rc) {
		memcpy(s->buf + 4096, saved, 64);
		note(", restore %d",
		     run_cb(s, lin_dma(s->cbp, 0, s->va + 4096, dev, 64,
				       false), 0));
	}
}

static void a_ld_kdram(struct hl_sess *s)
{
	dev_write_probe(s, DRAM_KERNEL);
}

static void a_ld_pgt(struct hl_sess *s)
{
	/* Entry 511 of ASID 1's hop0: unused by the tests' mappings. */
	dev_write_probe(s, PGT_HOP0_ASID1 + 511 * 8);
}

static void a_ld_kdram_read(struct hl_sess *s)
{
	memset(s->buf, 0xEE, 4096);
	go(s, lin_dma(s->cbp, 0, DRAM_KERNEL, s->va, 4096, false), 0);
	res->leak = 0;
	for (int i = 0; i < 4096; i++)
		res->leak += s->buf[i] != 0xEE;
	if (!res->rc)
		note("%d of 4096 bytes came back changed", res->leak);
	res->leak = 0;	/* not a canary: reported, judged by the refusal */
}

/* ---- running and judging an attempt ------------------------------------------------ */

enum policy {
	REFUSE,	/* the parser must refuse it (EPERM or EINVAL) */
	STOP,	/* refused, failed or dropped: the canaries decide */
};

struct attempt {
	const char *id;		/* class and letter, e.g. "1a" */
	const char *cls;	/* "class 1", "sync", ... */
	const char *what;
	enum policy pol;
	void (*fn)(struct hl_sess *s);
	bool kern;		/* needs the kernel canary */
	uint32_t watch;		/* a CFG register that must not change (0: none) */
};

/* Run @fn in a fresh process holding the compute node. */
static bool run_attacker(void (*fn)(struct hl_sess *s), int *sig)
{
	struct hl_sess s;
	pid_t pid;
	int st;

	memset(res, 0, sizeof(*res));
	res->rc = -1000;
	pid = fork();
	if (pid == 0) {
		if (!sess_open(&s))
			_exit(3);
		fn(&s);
		hl_sess_close(&s);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return false;
	*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) == 0 : false;
}

/* A fresh process's normal CS (a memset into its buffer) works. */
static bool fresh_cs_ok(void)
{
	struct hl_sess s;
	bool good;
	int i;

	if (!sess_open(&s))
		return false;
	good = hl_wait_operational(s.fd, 60);
	for (i = 0; good && i < 2; i++) {
		memset(s.buf, 0, 4096);
		good = run_cb(&s, lin_dma(s.cbp, 0, 0x4C4C4C4C4C4C4C4CULL,
					  s.va, 4096, true), i) == 0 &&
		       s.buf[0] == 0x4C && s.buf[4095] == 0x4C;
	}
	hl_sess_close(&s);
	return good;
}

static const char *rc_name(int rc)
{
	static char b[32];

	switch (rc) {
	case 0: return "0";
	case -EPERM: return "EPERM";
	case -EINVAL: return "EINVAL";
	case -EIO: return "EIO";
	case -ETIMEDOUT: return "ETIMEDOUT";
	case -EBUSY: return "EBUSY";
	default:
		snprintf(b, sizeof(b), "%d", rc);
		return b;
	}
}

static const char *st_name(uint32_t st)
{
	switch (st) {
	case HL_WAIT_CS_STATUS_COMPLETED: return "COMPLETED";
	case HL_WAIT_CS_STATUS_BUSY: return "BUSY";
	case HL_WAIT_CS_STATUS_TIMEDOUT: return "TIMEDOUT";
	case HL_WAIT_CS_STATUS_ABORTED: return "ABORTED";
	default: return "?";
	}
}

static void outcome(char *o, size_t n, bool ran, int sig)
{
	if (!ran && sig)
		snprintf(o, n, "the attacking process was killed by signal %d",
			 sig);
	else if (!ran)
		snprintf(o, n, "the attacking process could not open the device");
	else if (res->rc == -EPERM || res->rc == -EINVAL)
		snprintf(o, n, "refused by the parser (%s)", rc_name(res->rc));
	else if (res->rc)
		snprintf(o, n, "submission failed (%s)", rc_name(res->rc));
	else
		snprintf(o, n, "accepted, WAIT_CS %s status %s",
			 rc_name(res->wrc), st_name(res->st));
}

static void judge(const struct attempt *a)
{
	uint32_t before = 0, after = 0;
	bool ran, usable, have_reg = false;
	int hbad, kbad = 0, sig = 0;
	char o[160], regs[96] = "";

	if (a->kern && !t_kern) {
		if (!peer)
			tap_skip("no kernel canary (gaudi_canary.ko)",
				 "%s %s: %s", a->cls, a->id, a->what);
		else
			tap_diag("peer: %s %s: not tried (no kernel canary)",
				 a->cls, a->id);
		return;
	}
	if (a->watch)
		have_reg = elbi_rw(elbi_fd, false, a->watch, &before) == 0;
	ran = run_attacker(a->fn, &sig);
	outcome(o, sizeof(o), ran, sig);
	hbad = canary_cmd('c');
	if (t_kern)
		kbad = (int)kc_read("bad");
	if (have_reg && elbi_rw(elbi_fd, false, a->watch, &after) == 0 &&
	    after != before) {
		snprintf(regs, sizeof(regs),
			 "; CFG 0x%x CHANGED 0x%x -> 0x%x (restored)", a->watch,
			 before, after);
		elbi_rw(elbi_fd, true, a->watch, &before);
	}
	usable = fresh_cs_ok();
	if (peer) {
		tap_diag("peer: %s %s: %s: %s%s%s; host canary %s (%d bytes); kernel canary %s (%d bytes)%s; device %s",
			 a->cls, a->id, a->what, o, res->note[0] ? "; " : "",
			 res->note, hbad ? "CHANGED" : "intact", hbad,
			 kbad ? "CHANGED" : "intact", kbad, regs,
			 usable ? "usable" : "NOT usable afterwards");
		if (res->leak)
			tap_diag("peer: %s %s: %d canary bytes read back by the attacker",
				 a->cls, a->id, res->leak);
	} else {
		tap_diag("%s %s: %s%s%s", a->cls, a->id, o,
			 res->note[0] ? "; " : "", res->note);
		if (a->pol == REFUSE)
			ok(ran && (res->rc == -EPERM || res->rc == -EINVAL),
			   "%s %s: %s: the parser refuses it (EPERM or EINVAL; got: %s)",
			   a->cls, a->id, a->what, o);
		ok(hbad == 0 && kbad == 0 && res->leak == 0 && !regs[0],
		   "%s %s: canaries intact: another process's page %d bytes changed, kernel page %d, %d canary bytes read back%s",
		   a->cls, a->id, hbad, kbad, res->leak, regs);
		ok(usable, "%s %s: a fresh process's CS works afterwards",
		   a->cls, a->id);
	}
	if (hbad)
		canary_cmd('r');
	if (kbad)
		kc_reset();
}

static const struct attempt attempts[] = {
	{ "1a", "class 1", "WREG_32 to DMA0 core SRC/DST/TSIZE/COMMIT: memset of another process's page",
	  REFUSE, a_wreg_dma_host, false, 0 },
	{ "1b", "class 1", "WREG_32 to DMA0 core SRC/DST/TSIZE/COMMIT: memset of kernel memory",
	  REFUSE, a_wreg_dma_kern, true, 0 },
	{ "1c", "class 1", "WREG_32 to DMA0 core: copy of another process's page into the attacker's buffer",
	  REFUSE, a_wreg_dma_read, false, 0 },
	{ "1d", "class 1", "WREG_32 to DMA0 core WR_COMP_ADDR/WDATA + LIN_DMA with write completion into another process's page",
	  REFUSE, a_wreg_wrcomp, false, 0 },
	{ "1f", "class 1", "WREG_32 to DMA3 core from internal queue DMA_3_0: memset of another process's page",
	  REFUSE, a_wreg_dma_internal, false, 0 },
	{ "1g", "class 1", "WREG_32 to the QMAN's CP_MSG_BASE0 + MSG_SHORT into another process's page",
	  REFUSE, a_msgbase_short, false, 0 },
	{ "2a", "class 2", "REPEAT into a zero-size LIN_DMA hiding a MSG_LONG to another process's page",
	  REFUSE, a_repeat_host, false, 0 },
	{ "2b", "class 2", "REPEAT into a zero-size LIN_DMA hiding a MSG_LONG to kernel memory",
	  REFUSE, a_repeat_kern, true, 0 },
	{ "3a", "class 3", "LIN_DMA with write completion (WR_COMP) set",
	  REFUSE, a_ld_wrcomp, false, 0 },
	{ "3b", "class 3", "LIN_DMA without LIN (non-linear, strides from registers)",
	  REFUSE, a_ld_nonlinear, false, 0 },
	{ "3c", "class 3", "LIN_DMA with TRANSPOSE set",
	  REFUSE, a_ld_transpose, false, 0 },
	{ "4a", "class 4", "refused CB (MSG_PROT to another process's page) reusing the kernel copy of a CB whose stream waits in a FENCE",
	  STOP, a_kcb_reuse, false, 0 },
	{ "4b", "class 4", "user rewrites its mapped internal CB (MSG_PROT to another process's page) while the stream waits in its FENCE",
	  STOP, a_kcb_rewrite, false, 0 },
	{ "5a", "sync", "MSG_LONG to another process's page (host physical)",
	  REFUSE, a_msg_host, false, 0 },
	{ "5b", "sync", "MSG_LONG to kernel memory (host physical)",
	  REFUSE, a_msg_kern, true, 0 },
	{ "5c", "sync", "MSG_LONG +1 to the driver's W_S SOB 130",
	  REFUSE, a_msg_drv_sob, false, SOB(SM_W_S, WS_DRV_SOB) },
	{ "5d", "sync", "MSG_SHORT (base 3) +1 to the driver's W_S SOB 130",
	  REFUSE, a_short_drv_sob, false, SOB(SM_W_S, WS_DRV_SOB) },
	{ "5e", "sync", "MSG_LONG to the driver's W_S monitor 64 PAY_DATA",
	  REFUSE, a_msg_drv_mon, false, MON_DATA(SM_W_S, WS_DRV_MON) },
	{ "5f", "sync", "user E_N monitor 0 with its payload at another process's page, armed and fired",
	  STOP, a_mon_en_host, false, 0 },
	{ "5g", "sync", "user W_S monitor 72 with its payload at another process's page, armed and fired",
	  STOP, a_mon_ws_host, false, 0 },
	{ "5h", "sync", "user E_N monitor 1 with its payload +1 to the driver's W_S SOB 130, fired",
	  STOP, a_mon_en_drv_sob, false, SOB(SM_W_S, WS_DRV_SOB) },
	{ "5i", "sync", "user E_N monitor 2 with its payload in kernel memory, fired",
	  STOP, a_mon_en_kern, true, 0 },
	{ "6a", "dma", "LIN_DMA memset of another process's page (host physical)",
	  REFUSE, a_ld_host, false, 0 },
	{ "6b", "dma", "LIN_DMA copy from another process's page into the attacker's buffer",
	  REFUSE, a_ld_host_read, false, 0 },
	{ "6c", "dma", "LIN_DMA memset of kernel memory (host physical)",
	  REFUSE, a_ld_kern, true, 0 },
	{ "6d", "dma", "LIN_DMA memset of the kernel's HBM (0x0FF00000, below 0x20000000)",
	  REFUSE, a_ld_kdram, false, 0 },
	{ "6e", "dma", "LIN_DMA memset of the MMU page tables (hop0 of ASID 1, entry 511)",
	  REFUSE, a_ld_pgt, false, 0 },
	{ "6f", "dma", "LIN_DMA copy from the kernel's HBM (0x0FF00000) into the attacker's buffer",
	  REFUSE, a_ld_kdram_read, false, 0 },
};

static void t_attacks(void)
{
	struct attempt each = { "1e", "class 1", NULL, REFUSE, a_wreg_each,
				false, 0 };
	bool ran;
	int sig = 0, hbad;

	for (size_t i = 0; i < sizeof(attempts) / sizeof(attempts[0]); i++) {
		judge(&attempts[i]);
		if (i != 3)
			continue;
		/* After 1d: each steering register alone. */
		ran = run_attacker(each.fn, &sig);
		hbad = canary_cmd('c');
		for (size_t r = 0; r < N_STEER; r++) {
			if (peer)
				tap_diag("peer: class 1 1e: WREG_32 of 0 to DMA0 core %s alone: %s",
					 steer_names[r],
					 res->rcs[r] ? rc_name(res->rcs[r]) :
					 "accepted");
			else
				/*
				 * Registers stream 0's CBs may write, tracked
				 * to their commit, which is a LIN_DMA writing
				 * the bases and size itself
				 * (Documentation/accel/parser.rst, "Strided
				 * transfers"): harmless alone.  1a..1d show
				 * that the commits they feed are refused.
				 */
				ok(ran && res->rcs[r] == 0,
				   "class 1 1e: WREG_32 to DMA0 core %s alone on stream 0 (tracked to its commit): accepted (got %s)",
				   steer_names[r], res->rcs[r] ?
				   rc_name(res->rcs[r]) : "accepted");
		}
		if (hbad > 0)
			canary_cmd('r');
	}
}

/* ---- the next holder --------------------------------------------------------- */

/*
 * A stream the previous holder left in a FENCE, with a memset of user HBM
 * behind it, must not run for the next holder.
 */
#define STALE_HBM	(GAUDI_DRAM_USER_START + (384ULL << 20))

static void a_stale_holder(struct hl_sess *s)
{
	struct icb c;
	size_t len;

	if (!icb_create(s, &c)) {
		res->rc = 1;
		return;
	}
	/* 1 KiB: a kernel copy from a pool the next holder's small CBs do
	 * not use; the FENCE past the pool's free-list words. */
	len = nops(c.p, 0, STALL_OFF);
	len = hl_pkt_fence(c.p, len, 0, 1, 1);
	len = lin_dma(c.p, len, 0xA7A7A7A7A7A7A7A7ULL, STALE_HBM, 4096, true);
	len = nops(c.p, len, 1024);
	go_internal(s, &c, len, GAUDI_QUEUE_ID_DMA_2_2);
	/* exit with the stream waiting: no release, no unmap, no close */
}

static void a_stale_next(struct hl_sess *s)
{
	int i, a7 = 0;

	res->rcs[0] = run_cb(s, lin_dma(s->cbp, 0, 0, STALE_HBM, 4096, true),
			     0);
	qm_state("B before release", 2, 2);
	res->rcs[1] = release_fence(s, 2, 2);
	usleep(300000);
	memset(s->buf, 0xEE, 4096);
	res->rcs[2] = dev_read(s, STALE_HBM, 0, 4096);
	for (i = 0; i < 4096; i++)
		a7 += s->buf[i] == 0xA7;
	res->leak = 0;
	res->rcs[3] = a7;
	note("zero %d, release %d, read %d: %d of 4096 bytes are the previous holder's 0xA7",
	     res->rcs[0], res->rcs[1], res->rcs[2], a7);
}

static void t_stale(void)
{
	int sig = 0;
	bool ran_a, ran_b;
	char o[160];

	ran_a = run_attacker(a_stale_holder, &sig);
	outcome(o, sizeof(o), ran_a, sig);
	ran_b = run_attacker(a_stale_next, &sig);
	if (peer) {
		tap_diag("peer: stale: holder A (FENCE on DMA_2_2, memset of HBM behind it): %s; holder B: %s",
			 o, ran_b ? res->note : "could not run");
		return;
	}
	tap_diag("stale: holder A: %s; holder B: %s", o, res->note);
	ok(ran_a && ran_b && res->rcs[0] == 0 && res->rcs[2] == 0 &&
	   res->rcs[3] == 0,
	   "stale: the previous holder's stream waiting in a FENCE does not run in the next holder's context (%d bytes of its data)",
	   res->rcs[3]);
	ok(fresh_cs_ok(), "stale: a fresh process's CS works afterwards");
}

/* Shared between holder A and the judge: what A wrote. */
struct region {
	const char *what;
	uint64_t dev;
	uint32_t size;
	bool random;
};

static const struct region regions[] = {
	{ "user HBM at 0x20000000 (memset)", GAUDI_DRAM_USER_START, 1 << 20, false },
	{ "user HBM at 0x20100000 (copy from host)", GAUDI_DRAM_USER_START + (1 << 20),
	  1 << 20, true },
	{ "user SRAM at 0x7ff0000080 (memset)", GAUDI_SRAM_USER_START, 64 << 10, false },
	{ "user SRAM at 0x7ff0010080 (copy from host)", GAUDI_SRAM_USER_START + (64 << 10),
	  64 << 10, true },
};

#define N_REGIONS (sizeof(regions) / sizeof(regions[0]))

static uint8_t *a_data;	/* shared: A's bytes, region r at r << 20 */

static void a_holder_a(struct hl_sess *s)
{
	uint64_t x = 0x1234567887654321ULL ^ (uint64_t)getpid() << 20;
	uint8_t *d;
	size_t r, i;

	for (r = 0; r < N_REGIONS; r++) {
		d = a_data + (r << 20);
		if (regions[r].random) {
			for (i = 0; i < regions[r].size; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				d[i] = (uint8_t)(x | 1);
			}
			memcpy(s->buf, d, regions[r].size);
			res->rcs[r] = run_cb(s, lin_dma(s->cbp, 0, s->va,
							regions[r].dev,
							regions[r].size, false),
					     0);
		} else {
			memset(d, 0xA5, regions[r].size);
			res->rcs[r] = run_cb(s, lin_dma(s->cbp, 0,
							0xA5A5A5A5A5A5A5A5ULL,
							regions[r].dev,
							regions[r].size, true),
					     0);
		}
		/* A's own read-back: the data is there while A holds it. */
		memset(s->buf, 0, regions[r].size);
		if (!res->rcs[r] && (dev_read(s, regions[r].dev, 0,
					      regions[r].size) ||
				     memcmp(s->buf, d, regions[r].size)))
			res->rcs[r] = -EIO;
	}
}

static void a_holder_b(struct hl_sess *s)
{
	size_t r, i, same;

	for (r = 0; r < N_REGIONS; r++) {
		memset(s->buf, 0xEE, regions[r].size);
		res->rcs[r] = dev_read(s, regions[r].dev, 0, regions[r].size);
		for (i = 0, same = 0; i < regions[r].size; i += 64)
			same += !memcmp(s->buf + i, a_data + (r << 20) + i, 64);
		res->rcs[8 + r] = (int)same;
	}
}

static void t_nextholder(void)
{
	int sig = 0, rcs_a[N_REGIONS];
	bool ran_a, ran_b;
	size_t r;

	a_data = mmap(NULL, N_REGIONS << 20, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (a_data == MAP_FAILED) {
		ok(0, "nextholder: shared memory");
		return;
	}
	ran_a = run_attacker(a_holder_a, &sig);
	memcpy(rcs_a, res->rcs, sizeof(rcs_a));
	ran_b = run_attacker(a_holder_b, &sig);
	for (r = 0; r < N_REGIONS; r++) {
		unsigned int blocks = regions[r].size / 64;

		if (!ran_a || rcs_a[r]) {
			if (!peer)
				tap_skip("holder A could not write it",
					 "nextholder: %s: holder B reads none of holder A's data (A: %s)",
					 regions[r].what, rc_name(rcs_a[r]));
			else
				tap_diag("peer: nextholder: %s: holder A could not write it (%s)",
					 regions[r].what, rc_name(rcs_a[r]));
			continue;
		}
		if (peer) {
			tap_diag("peer: nextholder: %s: holder B read %s: %d of %u 64-byte blocks are holder A's data",
				 regions[r].what, rc_name(res->rcs[r]),
				 res->rcs[8 + r], blocks);
			continue;
		}
		ok(ran_b && res->rcs[r] == 0 && res->rcs[8 + r] == 0,
		   "nextholder: %s: holder B reads none of holder A's data (read %s, %d of %u 64-byte blocks are A's)",
		   regions[r].what, rc_name(res->rcs[r]), res->rcs[8 + r],
		   blocks);
	}
	munmap(a_data, N_REGIONS << 20);
}

/* ---- compatibility: the user sync managers -------------------------------------- */

static const char *blk_name(uint32_t b)
{
	return b == SM_E_N ? "E_N" : b == SM_E_S ? "E_S" :
	       b == SM_W_N ? "W_N" : "W_S";
}

/*
 * A user monitor in block @b (monitor 8, SOB group 1 = SOBs 8..15, watching
 * SOB 8 only) armed by the waiting CB on DMA_0_0 feeds its fence counter
 * 0; the signalling CB on @sigq adds 1 to SOB 8.  @short_msg: E_N only,
 * every message a MSG_SHORT (monitor registers through base 0, the SOB
 * through base 1).
 */
static void fence_pair(struct hl_sess *s, uint32_t b, bool short_msg,
		       uint32_t sigq)
{
	uint64_t fence = GAUDI_CFG_BASE + DMA_QM(0) + QM_CP_FENCE_RDATA(0, 0);
	const char *how = short_msg ? "MSG_SHORT" : "MSG_LONG";
	uint64_t wseq, sseq;
	uint32_t st = ~0U;
	size_t len = 0;
	int rc;

	if (short_msg) {
		len = hl_pkt_msg_short(s->cbp, len, 1, 4 * 8, 0);
		len = hl_pkt_msg_short(s->cbp, len, 0, MON_SHORT(SM_MON_PAY_ADDRL(8)),
				       (uint32_t)fence);
		len = hl_pkt_msg_short(s->cbp, len, 0, MON_SHORT(SM_MON_PAY_ADDRH(8)),
				       (uint32_t)(fence >> 32));
		len = hl_pkt_msg_short(s->cbp, len, 0, MON_SHORT(SM_MON_PAY_DATA(8)),
				       1);
		len = hl_pkt_msg_short(s->cbp, len, 0, MON_SHORT(SM_MON_ARM(8)),
				       ARM(1, 0xFE, 1));
	} else {
		len = hl_pkt_msg_long(s->cbp, len, GAUDI_CFG_BASE + SOB(b, 8), 0,
				      false);
		len = hl_pkt_msg_long(s->cbp, len, GAUDI_CFG_BASE + MON_ADDRL(b, 8),
				      (uint32_t)fence, false);
		len = hl_pkt_msg_long(s->cbp, len, GAUDI_CFG_BASE + MON_ADDRH(b, 8),
				      (uint32_t)(fence >> 32), false);
		len = hl_pkt_msg_long(s->cbp, len, GAUDI_CFG_BASE + MON_DATA(b, 8), 1,
				      false);
		len = hl_pkt_msg_long(s->cbp, len, GAUDI_CFG_BASE + MON_ARM(b, 8),
				      ARM(1, 0xFE, 1), false);
	}
	len = hl_pkt_fence(s->cbp, len, 0, 1, 1);
	len = lin_dma(s->cbp, len, 0x3C3C3C3C3C3C3C3CULL, s->va, 4096, true);
	memset(s->buf, 0, 4096);
	rc = hl_submit1(s->fd, s->cb, len, GAUDI_QUEUE_ID_DMA_0_0, &wseq);
	if (!ok(rc == 0, "compat %s: waiting CB on DMA_0_0 (user monitor 8 armed by %s on SOB 8, FENCE) accepted (%s)",
		blk_name(b), how, rc_name(rc)))
		return;
	usleep(200000);
	ok(wait_cs(s->fd, wseq, 0, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY && s->buf[0] == 0,
	   "compat %s: the memset behind the FENCE waits (status %s)",
	   blk_name(b), st_name(st));
	if (short_msg)
		len = hl_pkt_msg_short(s->cbp, 0, 1, 4 * 8, SM_SOB_INC | 1);
	else
		len = hl_pkt_msg_long(s->cbp, 0, GAUDI_CFG_BASE + SOB(b, 8),
				      SM_SOB_INC | 1, false);
	rc = hl_submit1(s->fd, s->cb, len, sigq, &sseq);
	ok(rc == 0, "compat %s: signalling CB on queue %u (%s SOB 8 += 1) accepted (%s)",
	   blk_name(b), sigq, how, rc_name(rc));
	rc = wait_done(s->fd, wseq, &st);
	ok(rc == 0 && st == HL_WAIT_CS_STATUS_COMPLETED && s->buf[0] == 0x3C &&
	   s->buf[4095] == 0x3C,
	   "compat %s: the monitor fired, the fenced memset ran (WAIT_CS %s, status %s)",
	   blk_name(b), rc_name(rc), st_name(st));
	if (rc)	/* leave no stream waiting */
		run_cb(s, hl_pkt_msg_long(s->cbp, 0, fence, 1, false), 1);
}

#define MT_THREADS	8
#define MT_ITERS	20

struct mt_arg {
	struct hl_sess *s;
	unsigned int t;
	uint64_t cbw, cbs;
	uint8_t *pw, *ps;
	unsigned int bad, fail, enomem;
	char why[96];
};

/*
 * Thread t: waits on DMA_0_(t % 4) in fence counter t / 4, fed by E_N user
 * monitor 16 + t watching SOB 64 + 8t (group 8 + t), which the thread's
 * signalling CB on DMA_1_(t % 4) increments.  Values are cumulative, so
 * the order in which the two CBs run does not matter.
 */
static void *mt_thread(void *p)
{
	struct mt_arg *m = p;
	struct hl_sess *s = m->s;
	unsigned int t = m->t, i, q = t % 4, f = t / 4, sob = 64 + 8 * t;
	uint64_t fence = GAUDI_CFG_BASE + DMA_QM(0) + QM_CP_FENCE_RDATA(f, q);
	uint64_t seqs[2], off = (uint64_t)t << 16;
	uint32_t map, all, st = ~0U;
	size_t len;
	int rc;

	len = hl_pkt_msg_long(m->ps, 0, GAUDI_CFG_BASE + SOB(SM_E_N, sob), 0, false);
	if (hl_submit1(s->fd, m->cbs, len, GAUDI_QUEUE_ID_DMA_1_0 + q,
		       &seqs[0]) || wait_done(s->fd, seqs[0], &st)) {
		m->fail++;
		snprintf(m->why, sizeof(m->why), "SOB reset refused");
		return NULL;
	}
	for (i = 1; i <= MT_ITERS; i++) {
		uint8_t v = (uint8_t)(t * 32 + i);

		len = hl_pkt_msg_long(m->pw, 0,
				      GAUDI_CFG_BASE + MON_ADDRL(SM_E_N, 16 + t),
				      (uint32_t)fence, false);
		len = hl_pkt_msg_long(m->pw, len,
				      GAUDI_CFG_BASE + MON_ADDRH(SM_E_N, 16 + t),
				      (uint32_t)(fence >> 32), false);
		len = hl_pkt_msg_long(m->pw, len,
				      GAUDI_CFG_BASE + MON_DATA(SM_E_N, 16 + t), 1,
				      false);
		len = hl_pkt_msg_long(m->pw, len,
				      GAUDI_CFG_BASE + MON_ARM(SM_E_N, 16 + t),
				      ARM(8 + t, 0xFE, i), false);
		len = hl_pkt_fence(m->pw, len, f, 1, 1);
		len = lin_dma(m->pw, len, 0x0101010101010101ULL * v,
			      s->va + off, 4096, true);
		rc = hl_submit1(s->fd, m->cbw, len, GAUDI_QUEUE_ID_DMA_0_0 + q,
				&seqs[0]);
		if (!rc) {
			len = hl_pkt_msg_short(m->ps, 0, 1, 4 * sob,
					       SM_SOB_INC | 1);
			rc = hl_submit1(s->fd, m->cbs, len,
					GAUDI_QUEUE_ID_DMA_1_0 + q, &seqs[1]);
		}
		if (rc) {
			m->fail++;
			snprintf(m->why, sizeof(m->why),
				 "iteration %u: submission %s", i, rc_name(rc));
			break;
		}
		/* Wait on the pair, then on what is left, up to 60 s. */
		all = 0;
		for (time_t t0 = time(NULL); all != 3 && time(NULL) - t0 < 60;) {
			uint64_t left[2];
			uint32_t n = 0, idx[2];

			for (unsigned int k = 0; k < 2; k++)
				if (!(all & (1U << k))) {
					idx[n] = k;
					left[n++] = seqs[k];
				}
			map = 0;
			rc = hl_wait_multi(s->fd, left, n, WAIT_US, &map, &st);
			/*
			 * Upstream has two multi-CS waiters per device
			 * (MULTI_CS_MAX_USER_CTX): ENOMEM, try again.
			 */
			if (rc == -ENOMEM) {
				m->enomem++;
				usleep(1000);
				continue;
			}
			if (rc)
				break;
			for (unsigned int k = 0; k < n; k++)
				if (map & (1U << k))
					all |= 1U << idx[k];
			if (!map)
				usleep(1000);
		}
		if (all != 3) {
			m->fail++;
			snprintf(m->why, sizeof(m->why),
				 "iteration %u: multi-CS wait %s, done 0x%x (status %s)",
				 i, rc_name(rc), all, st_name(st));
			break;
		}
		if (s->buf[off] != v || s->buf[off + 4095] != v)
			m->bad++;
	}
	return NULL;
}

static void t_multics(struct hl_sess *s)
{
	struct mt_arg m[MT_THREADS];
	pthread_t th[MT_THREADS];
	unsigned int t, fail = 0, bad = 0, enomem = 0;

	for (t = 0; t < MT_THREADS; t++) {
		memset(&m[t], 0, sizeof(m[t]));
		m[t].s = s;
		m[t].t = t;
		if (cb_create(s->fd, 4096, 0, &m[t].cbw) ||
		    cb_create(s->fd, 4096, 0, &m[t].cbs)) {
			ok(0, "compat multi-CS: CBs");
			return;
		}
		m[t].pw = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			       s->fd, (off_t)m[t].cbw);
		m[t].ps = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			       s->fd, (off_t)m[t].cbs);
		if (m[t].pw == MAP_FAILED || m[t].ps == MAP_FAILED) {
			ok(0, "compat multi-CS: mmap CBs");
			return;
		}
	}
	for (t = 0; t < MT_THREADS; t++)
		pthread_create(&th[t], NULL, mt_thread, &m[t]);
	for (t = 0; t < MT_THREADS; t++) {
		pthread_join(th[t], NULL);
		fail += m[t].fail;
		bad += m[t].bad;
		enomem += m[t].enomem;
		if (m[t].fail)
			tap_diag("multi-CS thread %u: %s", t, m[t].why);
	}
	tap_diag("%s: multi-CS waits refused with ENOMEM (all waiters busy) and retried: %u",
		 drv, enomem);
	ok(!fail && !bad,
	   "compat multi-CS: %u threads x %u (E_N user monitor + FENCE on DMA_0_x, MSG_SHORT signal on DMA_1_x, multi-CS wait on both): %u threads failed, %u memsets wrong",
	   MT_THREADS, MT_ITERS, fail, bad);
	for (t = 0; t < MT_THREADS; t++) {
		munmap(m[t].pw, 4096);
		munmap(m[t].ps, 4096);
		cb_destroy(s->fd, m[t].cbw);
		cb_destroy(s->fd, m[t].cbs);
	}
}

/* SOBs the compat test uses: E_N 8 and 64..127, E_S 8, W_N 8. */
static unsigned int sobs_nonzero(int *err)
{
	unsigned int n = 0, i;
	uint32_t v;

	*err = 0;
	for (i = 0; i < 64 + 3; i++) {
		uint32_t reg = i < 64 ? SOB(SM_E_N, 64 + i) :
			       SOB(i == 64 ? SM_E_N : i == 65 ? SM_E_S :
				   SM_W_N, 8);

		if (elbi_rw(elbi_fd, false, reg, &v))
			(*err)++;
		else if (v)
			n++;
	}
	return n;
}

static unsigned int used_before_close;
static bool compat_ran;

static void t_compat(void)
{
	struct hl_sess s;
	int err;

	if (!ok(sess_open(&s), "compat: open"))
		return;
	fence_pair(&s, SM_E_N, true, GAUDI_QUEUE_ID_DMA_0_1);
	fence_pair(&s, SM_E_S, false, GAUDI_QUEUE_ID_DMA_1_0);
	fence_pair(&s, SM_W_N, false, GAUDI_QUEUE_ID_DMA_0_2);
	t_multics(&s);
	used_before_close = sobs_nonzero(&err);
	compat_ran = !err;
	tap_diag("compat: %u of the 67 user SOBs used are non-zero before close (%d unreadable)",
		 used_before_close, err);
	hl_sess_close(&s);
}

static void t_sobclean(void)
{
	struct hl_sess s;
	unsigned int n, mon_armed = 0;
	uint32_t v;
	int err;

	if (!compat_ran || !used_before_close) {
		tap_skip(compat_ran ? "the compat test left no user SOB non-zero" :
			 "run compat first (ELBI oracle needed)",
			 "sobclean: the user SOBs read 0 in the next context");
		return;
	}
	if (!ok(sess_open(&s), "sobclean: the next context opens"))
		return;
	/* Upstream cleans on the context switch, at the first CS. */
	ok(run_cb(&s, lin_dma(s.cbp, 0, 0, s.va, 64, true), 0) == 0,
	   "sobclean: its first CS completes");
	n = sobs_nonzero(&err);
	ok(!err && n == 0,
	   "sobclean: the %u user SOBs the previous context left non-zero read 0 (%u non-zero, %d unreadable)",
	   used_before_close, n, err);
	for (unsigned int m = 0; m < 24; m++)
		if (!elbi_rw(elbi_fd, false, MON_STATUS(SM_E_N, m), &v) && v)
			mon_armed++;
	tap_diag("sobclean: %u of E_N monitors 0..23 have a non-zero STATUS in the next context",
		 mon_armed);
	hl_sess_close(&s);
}

static void t_info(void)
{
	static const char * const dc[] = { "W_S", "W_N", "E_N", "E_S" };
	struct hl_info_sync_manager sm;
	struct hl_info_args a;
	int fd = open_dev();

	if (fd < 0) {
		ok(0, "info: open");
		return;
	}
	for (unsigned int d = 0; d < 4; d++) {
		memset(&sm, 0, sizeof(sm));
		memset(&a, 0, sizeof(a));
		a.op = HL_INFO_SYNC_MANAGER;
		a.return_pointer = (uintptr_t)&sm;
		a.return_size = sizeof(sm);
		a.dcore_id = d;
		if (xioctl(fd, DRM_IOCTL_HL_INFO, &a))
			tap_diag("%s: SYNC_MANAGER %s: %s", drv, dc[d],
				 strerror(errno));
		else
			tap_diag("%s: SYNC_MANAGER %s: first user SOB %u, monitor %u, CQ %u",
				 drv, dc[d], sm.first_available_sync_object,
				 sm.first_available_monitor,
				 sm.first_available_cq);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ "peer", no_argument, NULL, 'p' },
		{ "kcanary", required_argument, NULL, 'k' },
		{ }
	};
	bool need_canary = false;
	uint32_t v;
	long kpa;
	int opt, i;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			card = atoi(optarg);
			break;
		case 'p':
			peer = true;
			drv = "peer";
			break;
		case 'k':
			kc_dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: gaudi_sec_test [--card N] [--peer] [--kcanary DIR] TEST...\n");
			return 2;
		}
	}
	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		return 2;
	for (i = optind; i < argc; i++)
		need_canary |= !strcmp(argv[i], "attacks");
	elbi_fd = elbi_open(card);
	tap_diag("%s on card %d; ELBI oracle %s", drv, card,
		 elbi_fd >= 0 ? "available" : "unavailable");
	/* CP_MSG_BASE0 of DMA_0_0 as the driver set it, for 1g to restore. */
	if (elbi_fd >= 0 && !elbi_rw(elbi_fd, false,
				     DMA_CORE(0) + QM_MSG_BASE0_LO(0), &v))
		msgbase_lo = v;
	if (elbi_fd >= 0 && !elbi_rw(elbi_fd, false,
				     DMA_CORE(0) + QM_MSG_BASE0_HI(0), &v))
		msgbase_hi = v;
	if (need_canary) {
		if (!ok(canary_start(), "the canary process reports its page's physical address (0x%llx)",
			(unsigned long long)hc.pa))
			return tap_done();
		t_host_page = GAUDI_HOST_PHYS_BASE + hc.pa;
		t_host = t_host_page + CANARY_OFF;
		kpa = kc_read("phys");
		if (kpa > 0 && kc_read("bad") == 0) {
			kc_pa = (uint64_t)kpa;
			t_kern = GAUDI_HOST_PHYS_BASE + kc_pa + CANARY_OFF;
		}
		tap_diag("targets: another process's page at 0x%llx (device 0x%llx), kernel page at 0x%llx (device 0x%llx)",
			 (unsigned long long)hc.pa,
			 (unsigned long long)t_host,
			 (unsigned long long)kc_pa,
			 (unsigned long long)t_kern);
	}
	for (i = optind; i < argc; i++) {
		const char *t = argv[i];

		if (!strcmp(t, "attacks"))
			t_attacks();
		else if (!strcmp(t, "stale"))
			t_stale();
		else if (!strcmp(t, "nextholder"))
			t_nextholder();
		else if (!strcmp(t, "compat"))
			t_compat();
		else if (!strcmp(t, "sobclean"))
			t_sobclean();
		else if (!strcmp(t, "info"))
			t_info();
		else
			ok(0, "unknown test %s", t);
	}
	if (hc.pid > 0) {
		close(hc.to);	/* the canary process ends at EOF */
		waitpid(hc.pid, NULL, 0);
	}
	return tap_done();
}
