// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel fuzzer of gaudi.ko's ioctls (issue 29), run in a debug guest
 * (tests/guest/kfuzz/suite.sh, make fuzz-kernel): a libFuzzer program
 * whose inputs decode into call sequences on two cards (two contexts at
 * once), steered by the kcov PCs of gaudi.ko (built with KCOV_INSTRUMENT
 * on the debug kernel) hashed into libFuzzer's extra counters, with the
 * remote kcov of the driver's reset work and event-queue thread (the
 * process forks once at start for it: kcov_remote_setup()).
 *
 * Oracles, each one abort()s so that libFuzzer keeps the input:
 *  - the kernel log (/dev/kmsg), judged after every input by the pattern
 *    tools/vm/dmesg-judge.sh defines (KFUZZ_PROBLEMS, from the suite);
 *  - isolation: host pages no context maps (never mapped, unmapped, or
 *    replaced under a live mapping by munmap + mmap) hold a pattern the
 *    device must never change; checked after every input.
 *
 * Environment: KFUZZ_PROBLEMS (extended regex of kernel problems),
 * KFUZZ_PCS (file the unique PCs are written to at exit), KFUZZ_CARDS
 * (default 2), KFUZZ_NEED_KCOV=1 (no kcov is an error), KFUZZ_TRACE=1
 * (each call on stderr), KFUZZ_SELFTEST (self_test()).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "../lib/hl_ioctl.h"
#include "../../uapi/drm/gaudi_accel.h"

/* kcov's uapi (<linux/kcov.h>), spelt out: the build host's headers may
 * lack it. */
#define KCOV_INIT_TRACE		_IOR('c', 1, unsigned long)
#define KCOV_ENABLE		_IO('c', 100)
#define KCOV_DISABLE		_IO('c', 101)
#define KCOV_TRACE_PC		0
struct kcov_remote_arg {
	uint32_t trace_mode;
	uint32_t area_size;
	uint32_t num_handles;
	uint64_t common_handle __attribute__((aligned(8)));
	uint64_t handles[];
};
#define KCOV_REMOTE_ENABLE	_IOW('c', 102, struct kcov_remote_arg)

#define NCTX		2
#define NBUF		4
#define BUF_SIZE	(64 * 1024)
#define PAGE		4096
#define BUF_PAGES	(BUF_SIZE / PAGE)
#define NCB		8
#define NSEQ		16
#define NMEM		8
#define NHMAP		16
#define NCONN		8
#define NMR		8
#define MAX_CALLS	256
#define PASSES		4
#define PATTERN		0xA5
#define COVER_WORDS	(256 * 1024)
#define NCOUNTERS	(64 * 1024)

__attribute__((section("__libfuzzer_extra_counters")))
static uint8_t counters[NCOUNTERS];

struct hmap {
	uint64_t va;
	int buf;		/* -1: a slot not in use */
	uint32_t off, len;
	uint32_t gen;		/* the buffer's generation when mapped */
};

struct ctx {
	int fd;
	int card;
	uint64_t cb[NCB];
	uint32_t cbsz[NCB];
	uint8_t *cbp[NCB];
	uint64_t cbva[NCB];
	uint64_t seq[NSEQ];
	unsigned int nseq;
	uint64_t mh[NMEM];
	uint64_t mva[NMEM];
	struct hmap hm[NHMAP];
	uint32_t conn[NCONN];
	int conn_port[NCONN];
	uint32_t mr[NMR];
	int mr_port[NMR];
	int dmabuf;
	uint32_t nic_dirty;	/* ports whose user WQ or CQ may be set */
};

static struct ctx ctxs[NCTX];
static int ncards = NCTX;
static uint8_t *bufs[NBUF];
static uint32_t buf_gen[NBUF];
/* Mappings of each page made in the buffer's current generation. */
static uint16_t owners[NBUF][BUF_PAGES];
static uint32_t nic_ports_mask;

static unsigned long *cover;
/* Remote coverage: the reset work and the event-queue thread of the cards
 * this process holds (kcov_remote_setup()). */
static unsigned long *rcover;
#define RCOVER_WORDS	(512 * 1024)	/* a reset's trace, loops and all */
static int kcov_fd = -1;
static int kmsg_fd = -1;
static regex_t problems;
static bool have_problems;
static unsigned long long calls, inputs;
static FILE *trace;		/* KFUZZ_TRACE=1: each call on stderr */

/*
 * Where the time goes (printed at exit): the input's calls by kind, the
 * clean-up after each input, the coverage and oracle checks, and the
 * rest (libFuzzer's own work between inputs).
 */
enum { T_CALLS = 16, T_CLEAN, T_COVER, T_ISO, T_KMSG, T_CB, T_NT };
static const char *const t_names[T_NT] = {
	"info", "cb", "cb", "cs", "cs", "wait", "mem", "userptr", "nic",
	"debug", "ext", "remap", "fork", "userptr", "reopen", "",
	"calls", "clean", "cover", "isolation", "kmsg", "callback",
};
static unsigned long long t_ns[T_NT], t_n[T_NT], t_start;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Unique kernel PCs seen (open addressing). */
#define PCSET_SIZE	(1 << 18)
static unsigned long pcset[PCSET_SIZE] __attribute__((aligned(PAGE)));
/* The PC last added through each counter: a repeat skips the set. */
static unsigned long last_pc[NCOUNTERS] __attribute__((aligned(PAGE)));
static unsigned long npcs;

/* ---- the input ---------------------------------------------------------- */

struct in {
	const uint8_t *p;
	size_t n;
};

static uint32_t get8(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint32_t get16(struct in *in)
{
	return get8(in) | get8(in) << 8;
}

static uint32_t get32(struct in *in)
{
	return get16(in) | get16(in) << 16;
}

static uint64_t get64(struct in *in)
{
	uint64_t lo = get32(in);

	return lo | (uint64_t)get32(in) << 32;
}

#define TRACE(...) do { if (trace) fprintf(trace, __VA_ARGS__); } while (0)

static int call(int fd, unsigned long req, void *arg)
{
	int rc;

	calls++;
	rc = xioctl(fd, req, arg);
	TRACE("  -> %d\n", rc);
	return rc;
}

/* ---- isolation oracle ----------------------------------------------------- */

static void fill_page(int b, int pg)
{
	memset(bufs[b] + (size_t)pg * PAGE, PATTERN, PAGE);
}

static void own(const struct hmap *m, int delta)
{
	uint32_t pg;

	if (m->gen != buf_gen[m->buf])
		return;	/* it maps pages the buffer no longer has */
	for (pg = m->off / PAGE; pg < (m->off + m->len + PAGE - 1) / PAGE; pg++) {
		owners[m->buf][pg] += delta;
		if (!owners[m->buf][pg])
			fill_page(m->buf, pg);
	}
}

static uint8_t pattern_page[PAGE];

static void check_isolation(void)
{
	int b, pg, i;

	if (!pattern_page[0])
		memset(pattern_page, PATTERN, PAGE);
	for (b = 0; b < NBUF; b++)
		for (pg = 0; pg < BUF_PAGES; pg++) {
			const uint8_t *p = bufs[b] + (size_t)pg * PAGE;

			if (owners[b][pg] || !memcmp(p, pattern_page, PAGE))
				continue;
			for (i = 0; i < PAGE; i++)
				if (p[i] != PATTERN) {
					fprintf(stderr, "kfuzz: isolation violation: host page %d of buffer %d, mapped by no context, changed at byte %d (0x%02x)\n",
						pg, b, i, p[i]);
					abort();
				}
		}
}

/* ---- kernel log oracle --------------------------------------------------- */

static void check_kmsg(void)
{
	char line[2048];
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	for (;;) {
		n = read(kmsg_fd, line, sizeof(line) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			break;
		line[n] = 0;
		if (have_problems && !regexec(&problems, line, 0, NULL, 0)) {
			fprintf(stderr, "kfuzz: kernel report: %s", line);
			/* The rest of the report, for the log. */
			usleep(200000);
			while ((n = read(kmsg_fd, line, sizeof(line) - 1)) > 0) {
				line[n] = 0;
				fprintf(stderr, "kfuzz:   %s", line);
			}
			abort();
		}
	}
}

/* ---- coverage ----------------------------------------------------------- */

static void pc_add(unsigned long pc)
{
	unsigned long h = (pc * 0x9E3779B97F4A7C15ULL) >> 46;
	unsigned int b = (pc ^ (pc >> 16)) % NCOUNTERS;

	/* Saturating: a count that wraps to 0 would hide the hits. */
	if (counters[b] != 0xFF)
		counters[b]++;
	if (last_pc[b] == pc)
		return;	/* a loop's PCs: in the set already */
	while (pcset[h & (PCSET_SIZE - 1)]) {
		if (pcset[h & (PCSET_SIZE - 1)] == pc) {
			last_pc[b] = pc;
			return;
		}
		h++;
	}
	if (npcs < PCSET_SIZE / 2) {
		pcset[h & (PCSET_SIZE - 1)] = pc;
		npcs++;
		last_pc[b] = pc;
	}
}

/*
 * What a child of op_fork() never touches is not copied into it (nor
 * copied back on write after it): fork stays a fork of the calls' state.
 */
static void dont_fork(void *p, size_t len)
{
	madvise(p, len, MADV_DONTFORK);
}

static void cover_start(void)
{
	if (cover)
		__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
}

static unsigned long long remote_pcs;	/* PC records of remote sections */

static unsigned long cover_add(const unsigned long *area, unsigned long words)
{
	unsigned long n, i;

	if (!area)
		return 0;
	n = __atomic_load_n(&area[0], __ATOMIC_RELAXED);
	if (n > words - 1)
		n = words - 1;
	for (i = 0; i < n; i++)
		pc_add(area[i + 1]);
	return n;
}

/*
 * The input's own PCs, and the remote ones gathered since the last input
 * (a reset the input caused may still run: its PCs count for the next).
 */
static void cover_end(void)
{
	cover_add(cover, COVER_WORDS);
	remote_pcs += cover_add(rcover, RCOVER_WORDS);
	if (rcover)
		__atomic_store_n(&rcover[0], 0, __ATOMIC_RELAXED);
}

static pid_t fuzzer_pid;

static void forward_signal(int sig)
{
	kill(fuzzer_pid, sig);
}

/*
 * Remote kcov: the driver collects its reset work and event-queue thread
 * under the kcov common handle the holder of a card had when it opened it
 * (kernel/gaudi_reset.c).  KCOV_REMOTE_ENABLE gives the calling task that
 * handle, and its children inherit it, but a task with remote kcov cannot
 * enable kcov on itself: so this process enables remote collection, forks,
 * and waits; the child, the fuzzer, inherits the handle and the mapped
 * area, and enables its own kcov.  The parent exits as the child did.
 */
static void kcov_remote_setup(void)
{
	struct kcov_remote_arg arg;
	int fd, st;

	fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, KCOV_INIT_TRACE, (unsigned long)RCOVER_WORDS))
		goto none;
	rcover = mmap(NULL, RCOVER_WORDS * sizeof(unsigned long),
		      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rcover == MAP_FAILED)
		goto none;
	memset(&arg, 0, sizeof(arg));
	arg.trace_mode = KCOV_TRACE_PC;
	arg.area_size = RCOVER_WORDS;
	/* Subsystem 0 (common), the instance this process's id. */
	arg.common_handle = (uint32_t)getpid();
	if (ioctl(fd, KCOV_REMOTE_ENABLE, &arg))
		goto none;
	fflush(NULL);
	fuzzer_pid = fork();
	if (fuzzer_pid < 0)
		goto none;
	if (!fuzzer_pid) {
		dont_fork(rcover, RCOVER_WORDS * sizeof(unsigned long));
		fprintf(stderr, "kfuzz: remote kcov on, common handle 0x%llx\n",
			(unsigned long long)arg.common_handle);
		return;
	}
	signal(SIGINT, forward_signal);
	signal(SIGTERM, forward_signal);
	signal(SIGHUP, forward_signal);
	while (waitpid(fuzzer_pid, &st, 0) < 0)
		if (errno != EINTR)
			_exit(1);
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
none:
	fprintf(stderr, "kfuzz: no remote kcov (%s): reset and event-queue coverage off\n",
		strerror(errno));
	if (rcover == MAP_FAILED)
		rcover = NULL;
	if (rcover) {
		munmap(rcover, RCOVER_WORDS * sizeof(unsigned long));
		rcover = NULL;
	}
	if (fd >= 0)
		close(fd);
	if (getenv("KFUZZ_NEED_KCOV"))
		exit(1);
}

static void kcov_setup(void)
{
	kcov_fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (kcov_fd < 0)
		goto none;
	if (ioctl(kcov_fd, KCOV_INIT_TRACE, (unsigned long)COVER_WORDS))
		goto none;
	cover = mmap(NULL, COVER_WORDS * sizeof(unsigned long),
		     PROT_READ | PROT_WRITE, MAP_SHARED, kcov_fd, 0);
	if (cover == MAP_FAILED) {
		cover = NULL;
		goto none;
	}
	dont_fork(cover, COVER_WORDS * sizeof(unsigned long));
	if (ioctl(kcov_fd, KCOV_ENABLE, KCOV_TRACE_PC))
		goto none;
	return;
none:
	fprintf(stderr, "kfuzz: no kcov (%s): kernel coverage off\n",
		strerror(errno));
	if (getenv("KFUZZ_NEED_KCOV"))
		exit(1);
	cover = NULL;
}

/* ---- contexts ------------------------------------------------------------ */

static void ctx_reset_state(struct ctx *c)
{
	int i;

	memset(c->cb, 0, sizeof(c->cb));
	memset(c->cbp, 0, sizeof(c->cbp));
	memset(c->cbva, 0, sizeof(c->cbva));
	c->nseq = 0;
	memset(c->mh, 0, sizeof(c->mh));
	memset(c->mva, 0, sizeof(c->mva));
	for (i = 0; i < NHMAP; i++)
		c->hm[i].buf = -1;
	for (i = 0; i < NCONN; i++)
		c->conn_port[i] = -1;
	for (i = 0; i < NMR; i++)
		c->mr_port[i] = -1;
	c->dmabuf = -1;
	c->nic_dirty = 0;
}

static void ctx_open(struct ctx *c)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/accel/accel%d", c->card);
	c->fd = hl_open_retry(path);
	if (c->fd < 0) {
		fprintf(stderr, "kfuzz: open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	ctx_reset_state(c);
}

/* Drop what the closed (or closing) context held from the page owners. */
static void ctx_forget_maps(struct ctx *c)
{
	int i;

	for (i = 0; i < NHMAP; i++)
		if (c->hm[i].buf >= 0) {
			own(&c->hm[i], -1);
			c->hm[i].buf = -1;
		}
}

static void ctx_close(struct ctx *c)
{
	int i;

	for (i = 0; i < NCB; i++)
		if (c->cbp[i])
			munmap(c->cbp[i], c->cbsz[i]);
	if (c->dmabuf >= 0)
		close(c->dmabuf);
	close(c->fd);
	/* GAUDI_CAP_SYNC_RELEASE: the context is gone once close() returns. */
	ctx_forget_maps(c);
	ctx_reset_state(c);
	c->fd = -1;
}

/* Undo what an input left: waits, regions, connections, maps, CBs. */
static void ctx_clean(struct ctx *c)
{
	struct drm_gaudi_nic a;
	uint64_t us = 20000;
	int i, dirty = 0;

	/*
	 * A short wait: a CS held by a FENCE or a bad packet runs into the
	 * driver's lockup timeout; what cannot be undone below then closes
	 * the card (its jobs end with the context).  Once one is still
	 * busy after that wait, the rest are only polled: a held queue holds
	 * them all, and 20 ms each (16 of them, every input until the lockup
	 * timeout) was most of the clean-up.
	 */
	for (i = 0; i < (int)c->nseq && i < NSEQ; i++) {
		uint32_t st = 0;

		if (!wait_cs(c->fd, c->seq[i], us, &st, NULL) &&
		    st == HL_WAIT_CS_STATUS_BUSY)
			us = 0;
	}
	c->nseq = 0;
	for (i = 0; i < NMR; i++) {
		struct drm_gaudi_nic_mr_dereg d = { .port = c->mr_port[i],
						    .key = c->mr[i] };

		if (c->mr_port[i] < 0)
			continue;
		memset(&a, 0, sizeof(a));
		a.op = GAUDI_NIC_OP_DEREG_MR;
		a.input_ptr = (uintptr_t)&d;
		a.input_size = sizeof(d);
		xioctl(c->fd, DRM_IOCTL_GAUDI_NIC, &a);
		c->mr_port[i] = -1;
	}
	for (i = 0; i < NCONN; i++) {
		struct drm_gaudi_nic_conn d = { .port = c->conn_port[i],
						.conn_id = c->conn[i] };

		if (c->conn_port[i] < 0)
			continue;
		memset(&a, 0, sizeof(a));
		a.op = GAUDI_NIC_OP_DESTROY_CONN;
		a.input_ptr = (uintptr_t)&d;
		a.input_size = sizeof(d);
		xioctl(c->fd, DRM_IOCTL_GAUDI_NIC, &a);
		c->conn_port[i] = -1;
	}
	for (i = 0; i < GAUDI_NIC_PORTS; i++) {
		struct drm_gaudi_nic_port p = { .port = i };

		if (!(nic_ports_mask & c->nic_dirty & (1U << i)))
			continue;
		memset(&a, 0, sizeof(a));
		a.input_ptr = (uintptr_t)&p;
		a.input_size = sizeof(p);
		a.op = GAUDI_NIC_OP_USER_CQ_UNSET;
		xioctl(c->fd, DRM_IOCTL_GAUDI_NIC, &a);
		a.op = GAUDI_NIC_OP_USER_WQ_UNSET;
		xioctl(c->fd, DRM_IOCTL_GAUDI_NIC, &a);
	}
	c->nic_dirty = 0;
	if (c->dmabuf >= 0) {
		close(c->dmabuf);
		c->dmabuf = -1;
	}
	for (i = 0; i < NHMAP; i++) {
		if (c->hm[i].buf < 0)
			continue;
		if (unmap_host(c->fd, c->hm[i].va)) {
			dirty = 1;
			continue;
		}
		own(&c->hm[i], -1);
		c->hm[i].buf = -1;
	}
	for (i = 0; i < NMEM; i++) {
		if (c->mva[i] && unmap_host(c->fd, c->mva[i]))
			dirty = 1;
		c->mva[i] = 0;
		if (c->mh[i] && hl_mem_free(c->fd, c->mh[i]))
			dirty = 1;
		c->mh[i] = 0;
	}
	for (i = 0; i < NCB; i++) {
		if (c->cbp[i]) {
			munmap(c->cbp[i], c->cbsz[i]);
			c->cbp[i] = NULL;
		}
		if (c->cb[i] && cb_destroy(c->fd, c->cb[i]))
			dirty = 1;
		c->cb[i] = 0;
	}
	/* Something would not go (a hold, a reset): start this card afresh. */
	if (dirty) {
		ctx_close(c);
		ctx_open(c);
	}
}

/* ---- the calls ----------------------------------------------------------- */

static const uint32_t queues[] = {
	GAUDI_QUEUE_ID_DMA_0_0, GAUDI_QUEUE_ID_DMA_0_1, GAUDI_QUEUE_ID_DMA_1_0,
	GAUDI_QUEUE_ID_DMA_1_3, GAUDI_QUEUE_ID_DMA_5_0, GAUDI_QUEUE_ID_DMA_2_0,
	GAUDI_QUEUE_ID_DMA_3_1, GAUDI_QUEUE_ID_MME_0_0, GAUDI_QUEUE_ID_TPC_0_0,
	GAUDI_QUEUE_ID_CPU_PQ, GAUDI_QUEUE_ID_NIC_0_0,
};

static const uint32_t cb_sizes[] = { 256, 4096, 8192, 65536, 0, 1, 2097152,
				     0x7fffffff };

/* A device VA from what this context has: host maps, HBM maps, CB VAs. */
static uint64_t pick_va(struct ctx *c, struct in *in)
{
	uint32_t k = get8(in);
	uint64_t off = get16(in) & 0xFFF8;

	switch ((k & 7) % 5) {	/* bits 7:3 pick the slot */
	case 0: {
		const struct hmap *m = &c->hm[(k >> 3) % NHMAP];

		return m->buf >= 0 ? m->va + off % m->len : off;
	}
	case 1:
		return c->mva[(k >> 3) % NMEM] + off;
	case 2:
		return c->cbva[(k >> 3) % NCB] + (off & 0xFF8);
	case 3:
		return get64(in);
	default:
		return 0x20000000ULL + off;	/* user HBM */
	}
}

static uint64_t pick_seq(struct ctx *c, struct in *in)
{
	uint32_t k = get8(in);

	if (k >= 0xF0)
		return get64(in);
	return c->nseq ? c->seq[(c->nseq - 1 - k % c->nseq) % NSEQ] : k;
}

/* Packets of the shapes the tests use (tests/lib/hl_ioctl.h). */
static size_t build_cb(struct ctx *c, struct in *in, uint8_t *cb, size_t room)
{
	size_t off = 0;
	uint32_t n = get8(in) % 8 + 1, i;

	for (i = 0; i < n && off + 24 <= room; i++) {
		uint32_t k = get8(in);

		switch (k % 9) {
		case 0:
		case 1:
			off = pkt_lin_dma(cb, off, pick_va(c, in), pick_va(c, in),
					  get16(in) & 0x3FFF, k & 0x10,
					  k & 0x20);
			break;
		case 2:
			off = hl_pkt_msg_long(cb, off, pick_va(c, in), get32(in),
					      k & 0x10);
			break;
		case 3:
			off = hl_pkt_msg_short(cb, off, get8(in), get16(in),
					       get32(in));
			break;
		case 4:
			off = hl_pkt_fence(cb, off, get8(in), get8(in) % 2,
					   get8(in) % 2);
			break;
		case 5:
			off = hl_pkt_wreg32(cb, off, get16(in), get32(in));
			break;
		case 6:
			off = hl_pkt8(cb, off, PKT_NOP, 0, 0);
			break;
		case 7:
			/* CP_DMA of a CB in device memory */
			put32(cb + off, get16(in));
			put32(cb + off + 4, HL_PKT_CTL(PKT_CP_DMA) | PKT_CTL_MB);
			put64(cb + off + 8, pick_va(c, in));
			off += 16;
			break;
		default:
			/* any opcode, any bits */
			put32(cb + off, get32(in));
			put32(cb + off + 4, get32(in));
			off += 8;
			break;
		}
	}
	return off;
}

static void op_info(struct ctx *c, struct in *in)
{
	static uint8_t out[8192];
	struct hl_info_args a;
	uint32_t k = get8(in);

	memset(&a, 0, sizeof(a));
	a.op = get8(in) % 48;
	a.return_pointer = (uintptr_t)out;
	a.return_size = k & 1 ? get16(in) % sizeof(out) : sizeof(out);
	if (k & 2)
		a.pad = get32(in);
	if (k & 4)
		a.eventfd = get32(in) % 64;
	TRACE("info op %u size %u\n", a.op, a.return_size);
	if (k & 8) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "/dev/accel/accel_controlD%d",
			 c->card);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			call(fd, DRM_IOCTL_HL_INFO, &a);
			close(fd);
		}
		return;
	}
	call(c->fd, DRM_IOCTL_HL_INFO, &a);
}

static void op_cb(struct ctx *c, struct in *in)
{
	uint32_t k = get8(in), i = get8(in) % NCB;
	union hl_cb_args a;

	memset(&a, 0, sizeof(a));
	switch (k % 4) {
	case 0:
		if (c->cb[i])
			return;
		a.in.op = HL_CB_OP_CREATE;
		a.in.cb_size = cb_sizes[(k >> 2) % 8];
		a.in.flags = k & 0x20 ? HL_CB_FLAGS_MAP : 0;
		TRACE("cb create %u flags %u\n", a.in.cb_size, a.in.flags);
		/* The union's output overwrites its input: keep what counts. */
		c->cbsz[i] = a.in.cb_size;
		if (!call(c->fd, DRM_IOCTL_HL_CB, &a)) {
			c->cb[i] = a.out.cb_handle;
			if (k & 0x20)
				hl_cb_device_va(c->fd, c->cb[i], &c->cbva[i]);
		}
		break;
	case 1: {
		uint64_t h = k & 0x80 ? get64(in) : c->cb[i];

		TRACE("cb destroy %d\n", i);
		if (c->cbp[i]) {
			munmap(c->cbp[i], c->cbsz[i]);
			c->cbp[i] = NULL;
		}
		a.in.op = HL_CB_OP_DESTROY;
		a.in.cb_handle = h;
		if (!call(c->fd, DRM_IOCTL_HL_CB, &a) && h == c->cb[i])
			c->cb[i] = 0;
		break;
	}
	case 2:
		a.in.op = get8(in) % 4;
		a.in.cb_handle = c->cb[i];
		a.in.flags = get8(in) & 3;
		call(c->fd, DRM_IOCTL_HL_CB, &a);
		break;
	default: {
		uint32_t len = k & 0x40 ? get32(in) : c->cbsz[i];
		void *p;

		if (c->cbp[i] || !c->cb[i])
			return;
		calls++;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
			 (off_t)(c->cb[i] + (k & 0x80 ? PAGE : 0)));
		TRACE("cb mmap %d len %u: %s\n", i, len,
		      p == MAP_FAILED ? strerror(errno) : "ok");
		if (p == MAP_FAILED)
			return;
		if (len != c->cbsz[i] || len > (1U << 20)) {
			munmap(p, len);
			return;
		}
		c->cbp[i] = p;
		break;
	}
	}
}

static void op_cs(struct ctx *c, struct in *in)
{
	struct hl_cs_chunk ch[3];
	union hl_cs_args a;
	uint32_t k = get8(in), n = get8(in) % 3 + 1, i;
	uint64_t sigseq = 0;
	int rc;

	memset(ch, 0, sizeof(ch));
	memset(&a, 0, sizeof(a));
	for (i = 0; i < n; i++) {
		uint32_t j = get8(in) % NCB, q = get8(in);

		ch[i].queue_index = q < 0xF0 ? queues[q % (sizeof(queues) /
						      sizeof(queues[0]))] : q;
		if (c->cbp[j]) {
			size_t len = build_cb(c, in, c->cbp[j],
					      c->cbsz[j] < 4096 ? c->cbsz[j] :
							       4096);

			ch[i].cb_size = len;
		} else {
			ch[i].cb_size = get16(in);
		}
		ch[i].cb_handle = q & 1 ? c->cb[j] : pick_va(c, in);
		if (get8(in) == 0xFF)
			ch[i].cs_chunk_flags = get32(in);
	}
	a.in.chunks_execute = (uintptr_t)ch;
	a.in.num_chunks_execute = n;
	switch (k % 8) {
	case 0:
		a.in.cs_flags = HL_CS_FLAGS_SIGNAL;
		n = 1;
		a.in.num_chunks_execute = 1;
		break;
	case 1:
		sigseq = pick_seq(c, in);
		ch[0].signal_seq_arr = (uintptr_t)&sigseq;
		ch[0].num_signal_seq_arr = 1;
		a.in.cs_flags = HL_CS_FLAGS_WAIT;
		a.in.num_chunks_execute = 1;
		break;
	case 2:
		a.in.cs_flags = HL_CS_FLAGS_TIMESTAMP;
		break;
	case 3:
		a.in.cs_flags = HL_CS_FLAGS_STAGED_SUBMISSION |
				(k & 0x10 ? HL_CS_FLAGS_STAGED_SUBMISSION_FIRST : 0) |
				(k & 0x20 ? HL_CS_FLAGS_STAGED_SUBMISSION_LAST : 0);
		a.in.seq = pick_seq(c, in);
		break;
	case 4:
		a.in.cs_flags = get32(in);
		a.in.timeout = get8(in) % 4;
		break;
	case 5:
		a.in.cs_flags = HL_CS_FLAGS_CUSTOM_TIMEOUT;
		a.in.timeout = get8(in) % 3 + 1;
		break;
	case 6:
		a.in.cs_flags = HL_CS_FLAGS_RESERVE_SIGNALS_ONLY;
		a.in.encaps_signals_q_idx = ch[0].queue_index;
		a.in.encaps_signals_count = get8(in) % 8;
		a.in.num_chunks_execute = 1;
		break;
	default:
		break;
	}
	TRACE("cs flags 0x%x chunks %u q %u size %u\n", a.in.cs_flags,
	      a.in.num_chunks_execute, ch[0].queue_index, ch[0].cb_size);
	rc = call(c->fd, DRM_IOCTL_HL_CS, &a);
	if (!rc && a.out.seq)
		c->seq[c->nseq++ % NSEQ] = a.out.seq;
}

static void op_wait(struct ctx *c, struct in *in)
{
	union hl_wait_cs_args a;
	uint64_t seqs[4];
	uint32_t k = get8(in), i;

	memset(&a, 0, sizeof(a));
	a.in.timeout_us = k & 1 ? 0 : (k & 2 ? 100000 : 1000);
	if (k & 4) {
		for (i = 0; i < 4; i++)
			seqs[i] = pick_seq(c, in);
		a.in.seq = (uintptr_t)seqs;
		a.in.seq_arr_len = get8(in) % 5;
		a.in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
	} else {
		a.in.seq = pick_seq(c, in);
	}
	if (k & 8)
		a.in.flags |= get32(in);
	TRACE("wait flags 0x%x\n", a.in.flags);
	call(c->fd, DRM_IOCTL_HL_WAIT_CS, &a);
}

static void op_mem(struct ctx *c, struct in *in)
{
	union hl_mem_args a;
	uint32_t k = get8(in), i = get8(in) % NMEM;

	memset(&a, 0, sizeof(a));
	switch (k % 6) {
	case 0:
		if (c->mh[i])
			return;
		a.in.op = HL_MEM_OP_ALLOC;
		a.in.alloc.mem_size = (uint64_t)(get8(in) % 9) << 21;
		a.in.alloc.page_size = k & 0x10 ? get32(in) : 0;
		a.in.flags = k & 0x20 ? HL_MEM_CONTIGUOUS : 0;
		TRACE("mem alloc %llu\n", (unsigned long long)a.in.alloc.mem_size);
		if (!call(c->fd, DRM_IOCTL_HL_MEMORY, &a))
			c->mh[i] = a.out.handle;
		break;
	case 1:
		TRACE("mem free %u\n", i);
		a.in.op = HL_MEM_OP_FREE;
		a.in.free.handle = c->mh[i];
		if (!call(c->fd, DRM_IOCTL_HL_MEMORY, &a))
			c->mh[i] = 0;
		break;
	case 2:
		if (c->mva[i])
			return;
		a.in.op = HL_MEM_OP_MAP;
		a.in.map_device.handle = k & 0x40 ? get64(in) : c->mh[i];
		a.in.flags = k & 0x80 ? get32(in) & ~HL_MEM_USERPTR : 0;
		TRACE("mem map %u\n", i);
		if (!call(c->fd, DRM_IOCTL_HL_MEMORY, &a))
			c->mva[i] = a.out.device_virt_addr;
		break;
	case 3: {
		uint64_t va = k & 0x40 ? pick_va(c, in) : c->mva[i];

		TRACE("mem unmap %u\n", i);
		a.in.op = HL_MEM_OP_UNMAP;
		a.in.unmap.device_virt_addr = va;
		if (!call(c->fd, DRM_IOCTL_HL_MEMORY, &a) && va == c->mva[i])
			c->mva[i] = 0;
		break;
	}
	case 4: {
		int fd = -1;

		if (c->dmabuf >= 0)
			return;
		a.in.op = HL_MEM_OP_EXPORT_DMABUF_FD;
		a.in.flags = O_RDWR | O_CLOEXEC;
		a.in.export_dmabuf_fd.addr = k & 0x40 ? c->mh[i] : c->mva[i];
		a.in.export_dmabuf_fd.mem_size = (uint64_t)(get8(in) % 4) << 21;
		a.in.export_dmabuf_fd.offset = get8(in) & 1 ? 0 : PAGE;
		TRACE("mem export\n");
		if (!call(c->fd, DRM_IOCTL_HL_MEMORY, &a)) {
			fd = (int)a.out.fd;
			c->dmabuf = fd;
		}
		break;
	}
	default:
		a.in.op = get8(in);
		a.in.flags = get32(in);
		a.in.alloc.mem_size = get64(in);
		call(c->fd, DRM_IOCTL_HL_MEMORY, &a);
		break;
	}
}

static void op_userptr(struct ctx *c, struct in *in)
{
	uint32_t k = get8(in), i = get8(in) % NHMAP;
	struct hmap *m = &c->hm[i];

	if (k & 1) {
		if (m->buf < 0)
			return;
		TRACE("userptr unmap %u\n", i);
		calls++;
		if (!unmap_host(c->fd, m->va)) {
			own(m, -1);
			m->buf = -1;
		}
		return;
	}
	if (m->buf >= 0)
		return;
	{
		int b = get8(in) % NBUF;
		uint32_t off = (get8(in) % BUF_PAGES) * PAGE + (k & 2 ? get16(in) % PAGE : 0);
		uint32_t len = (get8(in) % BUF_PAGES + 1) * PAGE - (k & 4 ? get16(in) % PAGE : 0);
		uint64_t va;

		if (off + len > BUF_SIZE)
			len = BUF_SIZE - off;
		if (!len)
			return;
		calls++;
		TRACE("userptr map buf %d off %u len %u\n", b, off, len);
		if (map_host(c->fd, bufs[b] + off, len, &va))
			return;
		m->va = va;
		m->buf = b;
		m->off = off;
		m->len = len;
		m->gen = buf_gen[b];
		own(m, 1);
	}
}

/* munmap + mmap of a pool buffer under its device mappings. */
static void op_remap(struct in *in)
{
	int b = get8(in) % NBUF, pg;
	void *p;

	calls++;
	TRACE("remap buf %d\n", b);
	munmap(bufs[b], BUF_SIZE);
	p = mmap(bufs[b], BUF_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		perror("kfuzz: mmap");
		exit(1);
	}
	buf_gen[b]++;
	for (pg = 0; pg < BUF_PAGES; pg++) {
		owners[b][pg] = 0;
		fill_page(b, pg);
	}
}

static void op_debug(struct ctx *c, struct in *in)
{
	uint8_t inb[64], outb[64];
	struct hl_debug_args a;
	uint32_t i;

	for (i = 0; i < sizeof(inb); i++)
		inb[i] = get8(in);
	memset(&a, 0, sizeof(a));
	a.op = get8(in) % 8;
	a.reg_idx = get8(in);
	a.enable = get8(in) & 1;
	a.input_ptr = (uintptr_t)inb;
	a.input_size = get8(in) % 72;
	a.output_ptr = (uintptr_t)outb;
	a.output_size = get8(in) % 72;
	TRACE("debug op %u\n", a.op);
	call(c->fd, DRM_IOCTL_HL_DEBUG, &a);
}

static uint32_t pick_port(struct in *in)
{
	uint32_t k = get8(in);

	if (k >= 0xF8)
		return get32(in);
	return k % GAUDI_NIC_PORTS;
}

static void op_nic(struct ctx *c, struct in *in)
{
	union {
		struct drm_gaudi_nic_port port;
		struct drm_gaudi_nic_conn conn;
		struct drm_gaudi_nic_req_ctx req;
		struct drm_gaudi_nic_res_ctx res;
		struct drm_gaudi_nic_wq wq;
		struct drm_gaudi_nic_cq cq;
		struct drm_gaudi_nic_cq_ci ci;
		struct drm_gaudi_nic_doorbell db;
		struct drm_gaudi_nic_mr mr;
		struct drm_gaudi_nic_mr_dereg dereg;
		uint8_t raw[128];
	} u;
	uint8_t out[512];
	struct drm_gaudi_nic a;
	uint32_t k = get8(in), j = get8(in) % NCONN;
	static const uint32_t ops[] = {
		GAUDI_NIC_OP_ALLOC_CONN, GAUDI_NIC_OP_SET_REQ_CONN_CTX,
		GAUDI_NIC_OP_SET_RES_CONN_CTX, GAUDI_NIC_OP_DESTROY_CONN,
		GAUDI_NIC_OP_USER_WQ_SET, GAUDI_NIC_OP_USER_WQ_UNSET,
		GAUDI_NIC_OP_USER_CQ_SET, GAUDI_NIC_OP_USER_CQ_UNSET,
		GAUDI_NIC_OP_USER_CQ_UPDATE_CI,
		GAUDI_NIC_OP_GET_USER_APP_PARAMS, GAUDI_NIC_OP_DOORBELL,
		GAUDI_NIC_OP_LINK_STATE, GAUDI_NIC_OP_COUNTERS,
		GAUDI_NIC_OP_CONN_STATE, GAUDI_NIC_OP_REG_MR,
		GAUDI_NIC_OP_DEREG_MR,
	};
	uint32_t port = pick_port(in);
	uint32_t any_conn = get16(in) % 1100;
	uint32_t conn = c->conn_port[j] >= 0 ? c->conn[j] : any_conn;
	int rc;

	if (c->conn_port[j] >= 0 && !(k & 0x80))
		port = c->conn_port[j];
	memset(&u, 0, sizeof(u));
	memset(&a, 0, sizeof(a));
	a.op = ops[k % (sizeof(ops) / sizeof(ops[0]))];
	a.input_ptr = (uintptr_t)&u;
	a.output_ptr = (uintptr_t)out;
	a.output_size = sizeof(out);
	switch (a.op) {
	case GAUDI_NIC_OP_ALLOC_CONN:
	case GAUDI_NIC_OP_USER_WQ_UNSET:
	case GAUDI_NIC_OP_USER_CQ_UNSET:
	case GAUDI_NIC_OP_GET_USER_APP_PARAMS:
	case GAUDI_NIC_OP_COUNTERS:
		u.port.port = port;
		a.input_size = sizeof(u.port);
		break;
	case GAUDI_NIC_OP_DESTROY_CONN:
	case GAUDI_NIC_OP_CONN_STATE:
		u.conn.port = port;
		u.conn.conn_id = conn;
		a.input_size = sizeof(u.conn);
		break;
	case GAUDI_NIC_OP_SET_REQ_CONN_CTX:
		u.req.port = port;
		u.req.conn_id = conn;
		u.req.dst_ip = 0x0A000001 + get8(in);
		u.req.src_ip = 0x0A000001;
		u.req.dst_mac[0] = 2;
		u.req.dst_conn_id = get16(in);
		u.req.remote_key = get32(in);
		u.req.psn = get32(in) & 0xFFFFFF;
		u.req.timeout_retry = get8(in) % 8;
		u.req.path_mtu = 256U << (get8(in) % 6);
		if (k & 0x40) {
			u.req.flags = GAUDI_NIC_REQ_RNR_RETRY;
			u.req.rnr_retry = get8(in) % 9;
		}
		a.input_size = sizeof(u.req);
		break;
	case GAUDI_NIC_OP_SET_RES_CONN_CTX:
		u.res.port = port;
		u.res.conn_id = conn;
		u.res.dst_ip = 0x0A000002;
		u.res.src_ip = 0x0A000001;
		u.res.dst_conn_id = get16(in);
		u.res.local_key = get32(in);
		u.res.expected_psn = get32(in) & 0xFFFFFF;
		u.res.flags = get8(in) & 1;
		a.input_size = sizeof(u.res);
		break;
	case GAUDI_NIC_OP_USER_WQ_SET:
		u.wq.addr = pick_va(c, in) & ~127ULL;
		u.wq.port = port;
		u.wq.num_wqs = get8(in) % 16 + 1;
		u.wq.entries = 4U << (get8(in) % 4);
		a.input_size = sizeof(u.wq);
		break;
	case GAUDI_NIC_OP_USER_CQ_SET:
		u.cq.addr = pick_va(c, in) & ~127ULL;
		u.cq.port = port;
		u.cq.entries = 16U << (get8(in) % 6);
		a.input_size = sizeof(u.cq);
		break;
	case GAUDI_NIC_OP_USER_CQ_UPDATE_CI:
		u.ci.port = port;
		u.ci.ci = get8(in);
		a.input_size = sizeof(u.ci);
		break;
	case GAUDI_NIC_OP_DOORBELL:
		u.db.port = port;
		u.db.conn_id = conn;
		u.db.pi = get8(in) % 16;
		a.input_size = sizeof(u.db);
		break;
	case GAUDI_NIC_OP_REG_MR:
		u.mr.addr = pick_va(c, in);
		u.mr.length = get16(in) + 1;
		u.mr.port = port;
		u.mr.conn_id = conn;
		u.mr.access = get8(in) % 4;
		a.input_size = sizeof(u.mr);
		break;
	case GAUDI_NIC_OP_DEREG_MR:
		u.dereg.port = c->mr_port[j] >= 0 ? (uint32_t)c->mr_port[j] : port;
		u.dereg.key = c->mr_port[j] >= 0 ? c->mr[j] : get32(in);
		a.input_size = sizeof(u.dereg);
		break;
	default:
		break;
	}
	if (get8(in) == 0xFF) {
		/* a size or a reserved word off */
		a.input_size = get8(in);
		a.output_size = get16(in) % sizeof(out);
		a.ctx_id = get8(in) & 1;
	}
	TRACE("nic op 0x%x port %u conn %u\n", a.op, port, conn);
	rc = call(c->fd, DRM_IOCTL_GAUDI_NIC, &a);
	if (rc)
		return;
	/* What ctx_clean() must unset (only what may be set: a call each). */
	if ((a.op == GAUDI_NIC_OP_USER_WQ_SET || a.op == GAUDI_NIC_OP_USER_CQ_SET) &&
	    port < GAUDI_NIC_PORTS)
		c->nic_dirty |= 1U << port;
	if (a.op == GAUDI_NIC_OP_ALLOC_CONN) {
		uint32_t id = ((struct drm_gaudi_nic_conn_id *)out)->conn_id;

		for (j = 0; j < NCONN; j++)
			if (c->conn_port[j] < 0) {
				c->conn[j] = id;
				c->conn_port[j] = port;
				break;
			}
	} else if (a.op == GAUDI_NIC_OP_DESTROY_CONN) {
		for (j = 0; j < NCONN; j++)
			if (c->conn_port[j] == (int)port && c->conn[j] == conn)
				c->conn_port[j] = -1;
	} else if (a.op == GAUDI_NIC_OP_REG_MR) {
		for (j = 0; j < NMR; j++)
			if (c->mr_port[j] < 0) {
				c->mr[j] = ((struct drm_gaudi_nic_mr_key *)out)->key;
				c->mr_port[j] = port;
				break;
			}
	} else if (a.op == GAUDI_NIC_OP_DEREG_MR) {
		for (j = 0; j < NMR; j++)
			if (c->mr_port[j] == (int)u.dereg.port &&
			    c->mr[j] == u.dereg.key)
				c->mr_port[j] = -1;
	}
}

static void op_ext(struct ctx *c, struct in *in)
{
	union {
		struct drm_gaudi_query_caps caps;
		struct drm_gaudi_owner owner;
		struct drm_gaudi_accounting acct;
		uint8_t raw[256];
	} u;
	static uint8_t recs[4 * 4096];
	uint32_t k = get8(in);

	memset(&u, 0, sizeof(u));
	if (get8(in) == 0xFF)
		u.raw[get8(in) % 64] = get8(in);
	switch (k % 4) {
	case 0:
		call(c->fd, DRM_IOCTL_GAUDI_QUERY_CAPS, &u);
		break;
	case 1:
		call(c->fd, DRM_IOCTL_GAUDI_OWNER, &u);
		break;
	case 2:
		u.acct.records = (uintptr_t)recs;
		u.acct.count = get8(in) % 5;
		u.acct.record_size = k & 0x10 ? get16(in) :
				     (k & 0x20 ? GAUDI_ACCT_RECORD_SIZE_V1 :
						 GAUDI_ACCT_RECORD_SIZE_V2);
		if (u.acct.record_size * u.acct.count > sizeof(recs))
			u.acct.count = 1;
		call(c->fd, DRM_IOCTL_GAUDI_ACCOUNTING, &u);
		break;
	default: {
		/*
		 * An extension number with another size, or an unknown one;
		 * not FLASH: the program runs as root, and an erased boot
		 * slot would end the run (tests/guest/fw covers it).
		 */
		uint32_t nr = 0x20 + get8(in) % 16;

		/* The NIC's number: whatever it set, ctx_clean() unsets. */
		if (nr != DRM_GAUDI_FLASH &&
		    !call(c->fd, DRM_IOWR(DRM_COMMAND_BASE + nr,
					  struct drm_gaudi_nic), &u) &&
		    nr == DRM_GAUDI_NIC)
			c->nic_dirty = ~0U;
		break;
	}
	}
}

/*
 * libFuzzer's large heap blocks (its corpus and feature tables, ~24 MiB)
 * are most of what a fork copies, and the child, which only makes a few
 * calls and _exit()s, never touches them: private anonymous mappings of
 * 1 MiB and more are not forked.  The host buffers (64 KiB each) and the
 * kcov areas (shared) are not of them; a child that touched one would die
 * loudly (libFuzzer's crash report, a failed run).  Looked up before each
 * fork: the heap moves.
 */
static void dont_fork_heap(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long order[NBUF];
	int b, i;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perm[8];
		int n = 0;

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s%n", &lo, &hi, perm, &n) < 3)
			continue;
		/* rw-p and no name: anonymous, private */
		if (strcmp(perm, "rw-p") || hi - lo < (1UL << 20) ||
		    line[n + strspn(line + n, " ")] != '\n')
			continue;
		/*
		 * A mapping merged with host buffers: all of it but them
		 * (taken in address order).
		 */
		for (b = 0; b < NBUF; b++)
			order[b] = (unsigned long)bufs[b];
		for (b = 1; b < NBUF; b++)
			for (i = b; i > 0 && order[i - 1] > order[i]; i--) {
				unsigned long t = order[i];

				order[i] = order[i - 1];
				order[i - 1] = t;
			}
		for (b = 0; b < NBUF && lo < hi; b++) {
			if (order[b] + BUF_SIZE <= lo || order[b] >= hi)
				continue;
			if (order[b] > lo)
				dont_fork((void *)lo, order[b] - lo);
			lo = order[b] + BUF_SIZE;
		}
		if (lo < hi)
			dont_fork((void *)lo, hi - lo);
	}
	if (f)
		fclose(f);
}

/* fork: the child makes a few calls on the inherited file and exits. */
static void op_fork(struct ctx *c, struct in *in)
{
	uint32_t what = get8(in);
	pid_t pid;
	int st;

	calls++;
	dont_fork_heap();
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		union hl_cb_args a;
		uint64_t h = 0;

		memset(&a, 0, sizeof(a));
		if (what & 1)
			cb_create(c->fd, 4096, 0, &h);
		if (what & 2)
			wait_cs(c->fd, c->nseq ? c->seq[(c->nseq - 1) % NSEQ] : 1,
				1000, NULL, NULL);
		if (what & 4 && c->hm[0].buf >= 0)
			unmap_host(c->fd, c->hm[0].va);
		if (what & 8)
			close(c->fd);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* The child may have unmapped hm[0]: it is the parent's file. */
	if (what & 4 && c->hm[0].buf >= 0 &&
	    unmap_host(c->fd, c->hm[0].va) != -EBUSY) {
		own(&c->hm[0], -1);
		c->hm[0].buf = -1;
	}
}

/*
 * The input's calls, PASSES times over (the input as if repeated, with
 * what the earlier passes left), at most MAX_CALLS: the clean-up and the
 * checks after an input, and libFuzzer's work between inputs, are then
 * shared by many calls.
 */
static void run_input(struct in *in)
{
	struct in start = *in;
	unsigned int n = 0, cur = 0, pass = 1, kind;
	unsigned long long t0;

	for (;;) {
		struct ctx *c;
		uint32_t op;

		if (!in->n) {
			if (pass++ == PASSES || !start.n)
				break;
			*in = start;
		}
		if (n++ == MAX_CALLS)
			break;
		op = get8(in);
		if (op & 0x80 && ncards > 1)
			cur = 1;
		else
			cur = 0;
		c = &ctxs[cur];
		kind = op % 14;
		/*
		 * A fork (~90 ms in the debug guest) and a close and reopen
		 * (~40 ms) are the dearest calls by far: one op byte of the
		 * nine of their kind for each card; the others are a CS and
		 * the remap.
		 */
		if (kind == 12 && (op >> 4) % 8)
			kind = 3;
		if (kind == 11 && (op >> 4) % 8 == 0)
			kind = 14;
		t0 = now_ns();
		switch (kind) {
		case 0:
			op_info(c, in);
			break;
		case 1:
		case 2:
			op_cb(c, in);
			break;
		case 3:
		case 4:
			op_cs(c, in);
			break;
		case 5:
			op_wait(c, in);
			break;
		case 6:
			op_mem(c, in);
			break;
		case 7:
			op_userptr(c, in);
			break;
		case 8:
			op_nic(c, in);
			break;
		case 9:
			op_debug(c, in);
			break;
		case 10:
			op_ext(c, in);
			break;
		case 11:
			op_remap(in);
			break;
		case 14:
			TRACE("reopen card %d\n", c->card);
			calls++;
			ctx_close(c);
			ctx_open(c);
			break;
		case 12:
			op_fork(c, in);
			break;
		default:
			op_userptr(c, in);
			break;
		}
		t_ns[kind] += now_ns() - t0;
		t_n[kind]++;
	}
}

/*
 * KFUZZ_SELFTEST=kmsg|isolation: each oracle must fail the run (the
 * suite checks that it does).  kmsg: a line of KFUZZ_PROBLEMS's pattern
 * in the kernel log; isolation: a byte of a page no context maps changed,
 * as a stray device write would.
 */
static const char *selftest;

static void self_test(void)
{
	int b, pg;

	if (!strcmp(selftest, "kmsg")) {
		int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

		if (fd >= 0) {
			if (write(fd, "kfuzz-selftest-report\n", 22) < 0)
				perror("kfuzz: /dev/kmsg");
			close(fd);
		}
		return;
	}
	for (b = 0; b < NBUF; b++)
		for (pg = 0; pg < BUF_PAGES; pg++)
			if (!owners[b][pg]) {
				bufs[b][(size_t)pg * PAGE + 100] ^= 0xFF;
				return;
			}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	int i;

	unsigned long long t[6];

	inputs++;
	t[0] = now_ns();
	cover_start();
	run_input(&in);
	t[1] = now_ns();
	for (i = 0; i < ncards; i++)
		ctx_clean(&ctxs[i]);
	t[2] = now_ns();
	cover_end();
	t[3] = now_ns();
	if (selftest)
		self_test();
	check_isolation();
	t[4] = now_ns();
	check_kmsg();
	t[5] = now_ns();
	for (i = 0; i < 5; i++) {
		t_ns[T_CALLS + i] += t[i + 1] - t[i];
		t_n[T_CALLS + i]++;
	}
	t_ns[T_CB] += t[5] - t[0];
	t_n[T_CB]++;
	return 0;
}

/* ---- per-file coverage at exit ------------------------------------------ */

struct sym {
	unsigned long addr;
	char name[64];
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * KFUZZ_PCS: the unique PCs, each "pc function" (function from
 * /proc/kallsyms' gaudi symbols); the suite maps functions to files.
 */
static void dump_pcs(void)
{
	const char *path = getenv("KFUZZ_PCS");
	struct sym *syms = NULL;
	size_t nsyms = 0, cap = 0, i;
	char line[256];
	FILE *f, *o;

	if (!path)
		return;
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long a;
		char t, name[128], mod[64];

		if (sscanf(line, "%lx %c %127s [%63[^]]]", &a, &t, name, mod) != 4 ||
		    strcmp(mod, "gaudi") || (t != 't' && t != 'T'))
			continue;
		if (nsyms == cap) {
			cap = cap ? cap * 2 : 1024;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				exit(1);
		}
		syms[nsyms].addr = a;
		snprintf(syms[nsyms].name, sizeof(syms[nsyms].name), "%s", name);
		nsyms++;
	}
	if (f)
		fclose(f);
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
	o = fopen(path, "w");
	if (!o)
		return;
	for (i = 0; i < PCSET_SIZE; i++) {
		unsigned long pc = pcset[i];
		size_t lo = 0, hi = nsyms;

		if (!pc)
			continue;
		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;

			if (syms[mid].addr <= pc)
				lo = mid;
			else
				hi = mid;
		}
		fprintf(o, "%lx %s\n", pc,
			nsyms && syms[lo].addr <= pc ? syms[lo].name : "?");
	}
	fclose(o);
	free(syms);
}

static void at_exit(void)
{
	unsigned long long wall = now_ns() - t_start;
	int i;

	fprintf(stderr, "kfuzz: %llu inputs, %llu calls, %lu kernel PCs\n",
		inputs, calls, npcs);
	if (rcover)
		fprintf(stderr, "kfuzz: remote kcov: %llu PC records from the reset work and the event-queue thread\n",
			remote_pcs);
	for (i = 0; i < T_NT; i++)
		if (t_n[i])
			fprintf(stderr, "kfuzz: time %-2d %-12s %8.2f s %8llu times %8.1f us each\n",
				i, t_names[i], t_ns[i] / 1e9, t_n[i],
				t_ns[i] / 1e3 / t_n[i]);
	fprintf(stderr, "kfuzz: time    wall         %8.2f s, outside the callback %.2f s\n",
		wall / 1e9, (wall - t_ns[T_CB]) / 1e9);
	dump_pcs();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *pat = getenv("KFUZZ_PROBLEMS");
	struct drm_gaudi_nic a;
	struct drm_gaudi_nic_link link;
	int i;

	(void)argc;
	(void)argv;
	t_start = now_ns();
	if (getenv("KFUZZ_TRACE"))
		trace = stderr;
	selftest = getenv("KFUZZ_SELFTEST");
	if (getenv("KFUZZ_CARDS"))
		ncards = atoi(getenv("KFUZZ_CARDS")) >= 2 ? 2 : 1;
	if (pat && *pat) {
		if (regcomp(&problems, pat, REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "kfuzz: bad KFUZZ_PROBLEMS\n");
			exit(1);
		}
		have_problems = true;
	}
	/* Before the cards are opened: the open notes the handle. */
	kcov_remote_setup();
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
	for (i = 0; i < NBUF; i++) {
		int pg;

		bufs[i] = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (bufs[i] == MAP_FAILED) {
			perror("kfuzz: mmap");
			exit(1);
		}
		for (pg = 0; pg < BUF_PAGES; pg++)
			fill_page(i, pg);
	}
	for (i = 0; i < ncards; i++) {
		ctxs[i].card = i;
		ctx_open(&ctxs[i]);
	}
	memset(&a, 0, sizeof(a));
	memset(&link, 0, sizeof(link));
	a.op = GAUDI_NIC_OP_LINK_STATE;
	a.output_ptr = (uintptr_t)&link;
	a.output_size = sizeof(link);
	if (!xioctl(ctxs[0].fd, DRM_IOCTL_GAUDI_NIC, &a))
		nic_ports_mask = link.ports_mask;
	/* A child of op_fork() must not run libFuzzer's handlers. */
	signal(SIGPIPE, SIG_IGN);
	kcov_setup();
	dont_fork(pcset, sizeof(pcset));
	dont_fork(last_pc, sizeof(last_pc));
	atexit(at_exit);
	return 0;
}
