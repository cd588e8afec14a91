// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_race_test - concurrency, reset-while-busy and back-pressure tests of
 * gaudi.ko (issue 15), meant for a guest with several CPUs (gaudi-vm --smp 4)
 * so that the threads really run at the same time.
 *
 *   gaudi_race_test [--card N] [--bin DIR] TEST...
 *
 * TEST:
 *   threads    4 threads submit on one fd while 2 others WAIT_CS (single and
 *              multi-CS) on their sequences: every CS's data, every wait's
 *              status, and the sequences are exactly 1..N without repeats
 *   close      close() of the fd races CS + WAIT_CS, CB create/destroy, mmap,
 *              userptr map/unmap, HBM alloc/free and INFO in 7 threads: each
 *              call succeeds before the close, fails with EBADF after it;
 *              the next open succeeds at once, the CS left in flight landed,
 *              no HBM is left allocated
 *   handoff    4 processes take turns on the exclusive node: never two
 *              holders, refused opens are EBUSY, OWNER names the holder, the
 *              holder's CS works (also right after a holder closed with CSs
 *              in flight); 4 threads of one process race open(): exactly one
 *              wins; a dup()ed fd and a live mmap keep the node held
 *   cards      2 threads on each of two cards at once, data checked
 *   waitintr   a signal interrupts WAIT_CS and a multi-CS wait: EINTR (with
 *              and without SA_RESTART, as upstream's uapi documents)
 *   ringfull   1024 CSs in flight: the next submit blocks; a signal ends it
 *              with EINTR (no SA_RESTART) or restarts it (SA_RESTART); it
 *              resumes when the queue drains; a full external PQ (8 x 512
 *              jobs) blocks the next submit, EINTR likewise, and it goes on
 *              after a hard reset (or EBUSY if it looked as the reset began)
 *   reset      echo 1 > hard_reset with CSs pending on a hung queue, a
 *              thread in WAIT_CS, a submitter thread, an opener thread and
 *              (if present) the next card busy: the pending CSs end ABORTED
 *              (EIO), the process learns of the reset (eventfd, GET_EVENTS
 *              DEVICE_RESET|DEVICE_UNAVAILABLE, uevent GAUDI_RESET=1/0,
 *              RESET_COUNT), INFO and sysfs answer as documented meanwhile
 *              (DEVICE_STATUS, HW_IDLE 0/EBUSY, max_power 0/EIO), the other
 *              card is undisturbed, the same fd and a new open run CSs again
 *   heartbeat  the same, the reset caused by a device CPU that stops
 *              answering (model CPU_HANG: heartbeat loss)
 *   ecc        the same, the reset caused by an uncorrectable ECC event
 *              (HBM0 DERR, event 189, posted by the model): also
 *              CRITICL_HW_ERR and INFO HW_ERR_EVENT
 *   closereset the holder closes with CSs held while a hard reset runs
 *              (close first, or the reset first): close returns once the
 *              reset ended them, one reset only, the next holder opens and
 *              reads zeros where the previous one wrote SRAM
 *   unmapbusy  UNMAP of a userptr mapping right after submitting a 16 MiB
 *              memset into it: no byte changes once UNMAP returned (the
 *              DMA faults and the device is reset, or the CS was done)
 *   dmesg      no kernel problem logged since the program started
 *
 * The reset tests and waitintr/ringfull need the model's test hooks
 * (--device-opts test-hooks=on) and gaudi_model_ctl in --bin DIR.
 * Prints TAP ending in "N passed, N failed"; exit status 1 on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>
#include <drm/gaudi_accel.h>

#include "hl_ioctl.h"
#include "tap.h"

#define CB_SIZE		4096U
#define BUF_SIZE	(4U << 20)
#define WAIT_US		(20ULL * 1000 * 1000)
#define LONG_TIMEOUT	120	/* s, HL_CS_FLAGS_CUSTOM_TIMEOUT of held CSs */
#define EV_HBM0_DERR	189	/* upstream's GAUDI_EVENT_HBM0_DERR */

static int card;
static char path[64];
static const char *bin_dir = ".";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static void card_path(char *buf, size_t len, int n)
{
	snprintf(buf, len, "/dev/accel/accel%d", n);
}

static int open_node(const char *p)
{
	int fd = open(p, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* ---- command buffers, sessions, memset CSs ------------------------------- */

struct cb {
	uint64_t h;
	uint8_t *p;
};

static int cb_new(int fd, struct cb *c)
{
	int rc = cb_create(fd, CB_SIZE, 0, &c->h);

	c->p = NULL;
	if (rc)
		return rc;
	c->p = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)c->h);
	if (c->p == MAP_FAILED) {
		c->p = NULL;
		return -errno;
	}
	return 0;
}

static void cb_del(int fd, struct cb *c)
{
	if (c->p)
		munmap(c->p, CB_SIZE);
	if (c->h)
		cb_destroy(fd, c->h);
	memset(c, 0, sizeof(*c));
}

struct sess {
	int fd;
	struct cb cb;
	uint8_t *buf;
	uint64_t va;
};

static int sess_open_path(struct sess *s, const char *p)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->fd = open_node(p);
	if (s->fd < 0)
		return s->fd;
	rc = cb_new(s->fd, &s->cb);
	if (rc)
		return rc;
	if (posix_memalign((void **)&s->buf, 2 << 20, BUF_SIZE))
		return -ENOMEM;
	memset(s->buf, 0, BUF_SIZE);
	return map_host(s->fd, s->buf, BUF_SIZE, &s->va);
}

static int sess_open(struct sess *s)
{
	return sess_open_path(s, path);
}

static void sess_close(struct sess *s)
{
	if (s->fd <= 0) {
		free(s->buf);
		memset(s, 0, sizeof(*s));
		return;
	}
	if (s->va)
		unmap_host(s->fd, s->va);
	cb_del(s->fd, &s->cb);
	free(s->buf);
	close(s->fd);
	memset(s, 0, sizeof(*s));
}

/* Byte @v repeated: the 64-bit value of a memset. */
static uint64_t rep8(uint8_t v)
{
	return 0x0101010101010101ULL * v;
}

/* Write a LIN_DMA memset of @len bytes of @v at device address @dst. */
static size_t put_memset(struct cb *c, uint64_t dst, uint32_t len, uint8_t v)
{
	return pkt_lin_dma(c->p, 0, rep8(v), dst, len, true, true);
}

/* Submit a memset CS on queue @q with @flags/@timeout; raw (no EINTR retry). */
static int cs_memset_raw(int fd, struct cb *c, uint32_t q, uint64_t dst,
			 uint32_t len, uint8_t v, uint32_t flags,
			 uint32_t timeout, uint64_t *seq)
{
	struct hl_cs_chunk ch;
	union hl_cs_args a;

	memset(&ch, 0, sizeof(ch));
	ch.cb_handle = c->h;
	ch.queue_index = q;
	ch.cb_size = put_memset(c, dst, len, v);
	memset(&a, 0, sizeof(a));
	a.in.chunks_execute = (uintptr_t)&ch;
	a.in.num_chunks_execute = 1;
	a.in.cs_flags = flags;
	a.in.timeout = timeout;
	if (ioctl(fd, DRM_IOCTL_HL_CS, &a))
		return -errno;
	*seq = a.out.seq;
	return 0;
}

static int cs_memset(int fd, struct cb *c, uint32_t q, uint64_t dst,
		     uint32_t len, uint8_t v, uint64_t *seq)
{
	int rc;

	do {
		rc = cs_memset_raw(fd, c, q, dst, len, v, 0, 0, seq);
	} while (rc == -EINTR);
	return rc;
}

/* A held CS: long custom timeout, so only a reset or a drain ends it. */
static int cs_memset_held(int fd, struct cb *c, uint32_t q, uint64_t dst,
			  uint32_t len, uint8_t v, uint64_t *seq)
{
	return cs_memset_raw(fd, c, q, dst, len, v, HL_CS_FLAGS_CUSTOM_TIMEOUT,
			     LONG_TIMEOUT, seq);
}

static bool all_bytes(const uint8_t *p, size_t len, uint8_t v)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

/* Memset CS + wait + data check: 0, -errno, or -EILSEQ on wrong data. */
static int memset_check(int fd, struct cb *c, uint32_t q, uint8_t *host,
			uint64_t dst, uint32_t len, uint8_t v)
{
	uint32_t st = ~0U;
	uint64_t seq;
	int rc;

	rc = cs_memset(fd, c, q, dst, len, v, &seq);
	if (rc)
		return rc;
	rc = wait_cs(fd, seq, WAIT_US, &st, NULL);
	if (rc)
		return rc;
	if (st != HL_WAIT_CS_STATUS_COMPLETED)
		return -EIO;
	return all_bytes(host, len, v) ? 0 : -EILSEQ;
}

static int owner(int fd, struct drm_gaudi_owner *o)
{
	memset(o, 0, sizeof(*o));
	return xioctl(fd, DRM_IOCTL_GAUDI_OWNER, o);
}

static uint32_t hard_resets(int fd)
{
	struct hl_info_reset_count rc;

	memset(&rc, 0, sizeof(rc));
	if (hl_info(fd, HL_INFO_RESET_COUNT, &rc, sizeof(rc)))
		return ~0U;
	return rc.hard_reset_cnt;
}

static int dev_status(int fd)
{
	struct hl_info_device_status ds;

	memset(&ds, 0, sizeof(ds));
	if (hl_info(fd, HL_INFO_DEVICE_STATUS, &ds, sizeof(ds)))
		return -1;
	return ds.status;
}

static bool wait_operational(int fd, double secs)
{
	double end = now_s() + secs;

	do {
		if (dev_status(fd) == HL_DEVICE_STATUS_OPERATIONAL)
			return true;
		usleep(50000);
	} while (now_s() < end);
	return false;
}

/* ---- the model's control window (gaudi_model_ctl) and sysfs -------------- */

static int model_ctl(const char *args)
{
	char cmd[512], bdf[64];

	if (hl_card_bdf(card, bdf, sizeof(bdf)))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/gaudi_model_ctl %s %s >/dev/null",
		 bin_dir, bdf, args);
	return system(cmd);
}

static bool hooks_ok(void)
{
	static int state = -1;

	if (state < 0)
		state = model_ctl("get magic") == 0;
	return state;
}

static int sysfs_write(const char *attr, const char *val)
{
	char p[128];
	ssize_t n;
	int fd, rc = 0;

	snprintf(p, sizeof(p), "/sys/class/accel/accel%d/device/%s", card,
		 attr);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		rc = -errno;
	close(fd);
	return rc;
}

/* ---- signals -------------------------------------------------------------- */

static atomic_int sig_count;

static void on_sigusr1(int sig)
{
	(void)sig;
	atomic_fetch_add(&sig_count, 1);
}

static void set_sigusr1(bool restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigusr1;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, NULL);
}

/* A call run in a thread, to be interrupted or released from outside. */
struct blocked {
	pthread_t t;
	int (*fn)(struct blocked *b);
	void *arg;
	atomic_int started;
	atomic_int done;
	pid_t tid;
	int rc;
	double t_end;
};

static void *blocked_main(void *p)
{
	struct blocked *b = p;

	b->tid = gettid();
	atomic_store(&b->started, 1);
	b->rc = b->fn(b);
	b->t_end = now_s();
	atomic_store(&b->done, 1);
	return NULL;
}

static void blocked_start(struct blocked *b, int (*fn)(struct blocked *),
			  void *arg)
{
	memset(b, 0, sizeof(*b));
	b->fn = fn;
	b->arg = arg;
	pthread_create(&b->t, NULL, blocked_main, b);
}

/* State letter of task @tid of this process (/proc/self/task/TID/stat). */
static char task_state(pid_t tid)
{
	char p[64], buf[512], *c;
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/self/task/%d/stat", tid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	c = strrchr(buf, ')');
	return c && c[1] && c[2] ? c[2] : '?';
}

/*
 * Has @b entered its call and gone to sleep in it?  Waits until the
 * thread started, then up to @secs for it to sleep.
 */
static bool blocked_sleeping(struct blocked *b, double secs)
{
	double end = now_s() + secs;

	while (!atomic_load(&b->started) && now_s() < end)
		usleep(1000);
	do {
		usleep(20000);
		if (atomic_load(&b->done))
			return false;
		/* S: interruptible wait; D: close() waits uninterruptibly. */
		if (strchr("SD", task_state(b->tid)))
			return true;
	} while (now_s() < end);
	return false;
}

/* Wait up to @secs for @b to return; true if it did. */
static bool blocked_wait(struct blocked *b, double secs)
{
	double end = now_s() + secs;

	while (!atomic_load(&b->done) && now_s() < end)
		usleep(2000);
	return atomic_load(&b->done);
}

/* ---- threads: submitters and waiters on one fd ----------------------------- */

#define TH_SUBMIT	4
#define TH_WAIT		2
#define TH_ITERS	100
#define TH_REGION	(64U << 10)

struct th_shared {
	int fd;
	uint8_t *buf;
	uint64_t va;
	_Atomic uint64_t last_seq[TH_SUBMIT];
	atomic_int running;
};

struct th_worker {
	struct th_shared *sh;
	int id;
	struct cb cb;
	uint64_t seqs[TH_ITERS];
	unsigned int n, errs, waits;
	char why[160];
};

static void th_fail(struct th_worker *w, const char *fmt, int a, int b)
{
	if (!w->errs++)
		snprintf(w->why, sizeof(w->why), fmt, a, b);
}

static void *th_submitter(void *p)
{
	struct th_worker *w = p;
	struct th_shared *sh = w->sh;
	uint8_t *host = sh->buf + w->id * TH_REGION;
	uint64_t dev = sh->va + w->id * TH_REGION;
	unsigned int k;

	for (k = 0; k < TH_ITERS; k++) {
		uint32_t off = (k % 16) * 4096, st = ~0U;
		uint8_t v = 1 + (w->id * 61 + k) % 251;
		uint32_t q = (w->id + k) % 8;
		uint64_t seq;
		int rc;

		rc = cs_memset(sh->fd, &w->cb, q, dev + off, 4096, v, &seq);
		if (rc) {
			th_fail(w, "submit %d: %d", k, rc);
			continue;
		}
		w->seqs[w->n++] = seq;
		atomic_store(&sh->last_seq[w->id], seq);
		rc = wait_cs(sh->fd, seq, WAIT_US, &st, NULL);
		if (rc || st != HL_WAIT_CS_STATUS_COMPLETED)
			th_fail(w, "wait rc %d status %d", rc, st);
		else if (!all_bytes(host + off, 4096, v))
			th_fail(w, "CS %d: wrong data (byte 0 = %d)", k,
				host[off]);
	}
	return NULL;
}

static void *th_waiter(void *p)
{
	struct th_worker *w = p;
	struct th_shared *sh = w->sh;
	uint64_t rs = 0x1234567 + w->id;

	while (atomic_load(&sh->running)) {
		uint64_t seqs[TH_SUBMIT];
		uint32_t st = ~0U, fl = 0, map = 0, i, n = 0;
		int rc;

		for (i = 0; i < TH_SUBMIT; i++) {
			uint64_t s = atomic_load(&sh->last_seq[i]);

			if (s)
				seqs[n++] = s;
		}
		if (!n) {
			sched_yield();
			continue;
		}
		if (w->id % 2) {
			rc = hl_wait_multi(sh->fd, seqs, n, WAIT_US, &map, &st);
			if (rc || st != HL_WAIT_CS_STATUS_COMPLETED || !map)
				th_fail(w, "multi-CS wait rc %d status %d", rc,
					st);
		} else {
			uint64_t s = seqs[rnd_next(&rs) % n];

			rc = wait_cs(sh->fd, s, WAIT_US, &st, &fl);
			if (rc || st != HL_WAIT_CS_STATUS_COMPLETED)
				th_fail(w, "WAIT_CS rc %d status %d", rc, st);
		}
		w->waits++;
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void t_threads(void)
{
	struct th_worker w[TH_SUBMIT + TH_WAIT];
	pthread_t t[TH_SUBMIT + TH_WAIT];
	static uint64_t all[TH_SUBMIT * TH_ITERS];
	struct th_shared sh;
	unsigned int i, errs = 0, n = 0, waits = 0, gaps = 0;
	struct sess s;
	double t0;

	if (!ok(sess_open(&s) == 0, "threads: open, CB, 4 MiB userptr mapping"))
		goto out;
	memset(&sh, 0, sizeof(sh));
	memset(w, 0, sizeof(w));
	sh.fd = s.fd;
	sh.buf = s.buf;
	sh.va = s.va;
	atomic_store(&sh.running, 1);
	for (i = 0; i < TH_SUBMIT + TH_WAIT; i++) {
		w[i].sh = &sh;
		w[i].id = i < TH_SUBMIT ? i : i - TH_SUBMIT;
		if (i < TH_SUBMIT && cb_new(s.fd, &w[i].cb)) {
			ok(0, "threads: CB for thread %u", i);
			goto out;
		}
	}
	t0 = now_s();
	for (i = 0; i < TH_SUBMIT + TH_WAIT; i++)
		pthread_create(&t[i], NULL,
			       i < TH_SUBMIT ? th_submitter : th_waiter, &w[i]);
	for (i = 0; i < TH_SUBMIT; i++)
		pthread_join(t[i], NULL);
	atomic_store(&sh.running, 0);
	for (i = TH_SUBMIT; i < TH_SUBMIT + TH_WAIT; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < TH_SUBMIT + TH_WAIT; i++) {
		if (w[i].errs)
			tap_diag("thread %u: %u errors, first: %s", i,
				 w[i].errs, w[i].why);
		errs += w[i].errs;
		waits += w[i].waits;
		if (i < TH_SUBMIT) {
			memcpy(all + n, w[i].seqs, w[i].n * sizeof(*all));
			n += w[i].n;
			cb_del(s.fd, &w[i].cb);
		}
	}
	ok(!errs,
	   "threads: %u submitters x %u memset CSs on one fd with %u waiter threads (%u waits): every CS completed with its data, every wait COMPLETED (%.1f s)",
	   TH_SUBMIT, TH_ITERS, TH_WAIT, waits, now_s() - t0);
	qsort(all, n, sizeof(*all), cmp_u64);
	for (i = 0; i < n; i++)
		if (all[i] != i + 1)
			gaps++;
	ok(n == TH_SUBMIT * TH_ITERS && !gaps,
	   "threads: the %u sequences are exactly 1..%u (%u out of place)", n,
	   TH_SUBMIT * TH_ITERS, gaps);
out:
	sess_close(&s);
}

/* ---- close racing every kind of ioctl and mmap ---------------------------- */

enum cl_kind { CL_CS, CL_WAIT, CL_CB, CL_MMAP, CL_MAP, CL_HBM, CL_INFO,
	       CL_KINDS };

static const char *const cl_names[CL_KINDS] = {
	"CS", "WAIT_CS", "CB create/destroy", "mmap", "userptr map/unmap",
	"HBM alloc/free", "INFO/OWNER",
};

struct cl_shared {
	int fd;
	atomic_int closing;	/* set just before close() */
	atomic_int closed;	/* set once close() returned */
	_Atomic uint64_t last_seq;
	struct cb cs_cb;	/* CL_CS's CB */
	uint64_t mmap_h;	/* CL_MMAP's CB handle */
	uint8_t *buf;		/* CL_CS's mapped buffer */
	uint64_t va;
	/* CL_CS: a CS whose wait did not see it end (after the close) */
	bool unseen;
	uint32_t unseen_off;
	uint8_t unseen_v;
};

struct cl_worker {
	struct cl_shared *sh;
	enum cl_kind kind;
	unsigned int calls, ok_calls, ebadf, errs;
	char why[160];
};

/*
 * Judge one call: @before is "closed" read before the call, @during
 * "closing" read after it.  Before the close every call succeeds; once
 * close() returned every call fails with EBADF; in between either.
 */
static void cl_judge(struct cl_worker *w, const char *what, int rc,
		     bool before, bool during)
{
	bool good;

	w->calls++;
	if (before)
		good = rc == -EBADF;
	else if (!during)
		good = rc == 0;
	else
		good = rc == 0 || rc == -EBADF;
	if (rc == 0)
		w->ok_calls++;
	else if (rc == -EBADF)
		w->ebadf++;
	if (!good && !w->errs++)
		snprintf(w->why, sizeof(w->why), "%s: %d (%s close)", what, rc,
			 before ? "after" : during ? "during" : "before");
}

#define CL_CALL(w, what, expr)                                           \
	({                                                                   \
		bool _b = atomic_load(&(w)->sh->closed);                     \
		int _rc = (expr);                                            \
		cl_judge(w, what, _rc, _b, atomic_load(&(w)->sh->closing));  \
		_rc;                                                         \
	})

static void *cl_thread(void *p)
{
	struct cl_worker *w = p;
	struct cl_shared *sh = w->sh;
	unsigned int k = 0, after = 0;
	uint8_t local[64 << 10] __attribute__((aligned(4096)));

	while (after < 3) {
		uint64_t h = 0, seq = 0, va = 0;
		uint32_t st = 0, off;
		uint8_t v;
		int rc;

		if (atomic_load(&sh->closed))
			after++;
		k++;
		switch (w->kind) {
		case CL_CS:
			off = (k % 64) * 4096;
			v = 1 + k % 251;
			rc = CL_CALL(w, "CS", cs_memset(sh->fd, &sh->cs_cb,
							k % 8, sh->va + off,
							4096, v, &seq));
			if (rc)
				break;
			atomic_store(&sh->last_seq, seq);
			rc = CL_CALL(w, "WAIT_CS", wait_cs(sh->fd, seq, WAIT_US,
							   &st, NULL));
			if (rc) {
				sh->unseen = true;
				sh->unseen_off = off;
				sh->unseen_v = v;
			} else if (st != HL_WAIT_CS_STATUS_COMPLETED ||
				   !all_bytes(sh->buf + off, 4096, v)) {
				if (!w->errs++)
					snprintf(w->why, sizeof(w->why),
						 "CS %u: status %u or wrong data",
						 k, st);
			}
			break;
		case CL_WAIT:
			seq = atomic_load(&sh->last_seq);
			if (!seq) {
				sched_yield();
				break;
			}
			rc = CL_CALL(w, "WAIT_CS", wait_cs(sh->fd, seq, WAIT_US,
							   &st, NULL));
			if (!rc && st != HL_WAIT_CS_STATUS_COMPLETED &&
			    !w->errs++)
				snprintf(w->why, sizeof(w->why),
					 "WAIT_CS status %u", st);
			break;
		case CL_CB:
			rc = CL_CALL(w, "CB create", cb_create(sh->fd, CB_SIZE,
							       0, &h));
			if (!rc)
				CL_CALL(w, "CB destroy", cb_destroy(sh->fd, h));
			break;
		case CL_MMAP: {
			bool b = atomic_load(&sh->closed);
			uint8_t *m = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE,
					  MAP_SHARED, sh->fd, (off_t)sh->mmap_h);

			rc = m == MAP_FAILED ? -errno : 0;
			cl_judge(w, "mmap", rc, b, atomic_load(&sh->closing));
			if (!rc) {
				m[k % CB_SIZE] = k;
				if (munmap(m, CB_SIZE) && !w->errs++)
					snprintf(w->why, sizeof(w->why),
						 "munmap: %d", errno);
			}
			break;
		}
		case CL_MAP:
			rc = CL_CALL(w, "MAP", map_host(sh->fd, local,
							sizeof(local), &va));
			if (!rc)
				CL_CALL(w, "UNMAP", unmap_host(sh->fd, va));
			break;
		case CL_HBM:
			rc = CL_CALL(w, "ALLOC", hl_mem_alloc(sh->fd, 2 << 20,
							       2 << 20, 0, &h));
			if (!rc)
				CL_CALL(w, "FREE", hl_mem_free(sh->fd, h));
			break;
		case CL_INFO: {
			struct hl_info_hw_ip_info ip;
			struct hl_info_cs_counters cc;
			struct drm_gaudi_owner o;

			CL_CALL(w, "INFO HW_IP", hl_info(sh->fd,
							 HL_INFO_HW_IP_INFO,
							 &ip, sizeof(ip)));
			CL_CALL(w, "INFO CS_COUNTERS",
				hl_info(sh->fd, HL_INFO_CS_COUNTERS, &cc,
					sizeof(cc)));
			rc = CL_CALL(w, "OWNER", owner(sh->fd, &o));
			if (!rc && (o.state != GAUDI_OWNER_HELD ||
				    o.pid != getpid()) && !w->errs++)
				snprintf(w->why, sizeof(w->why),
					 "OWNER: state %u pid %d", o.state,
					 o.pid);
			break;
		}
		default:
			break;
		}
	}
	return NULL;
}

struct cl_closer {
	struct cl_shared *sh;
	unsigned int delay_us;
	int rc;
};

static void *cl_close_thread(void *p)
{
	struct cl_closer *c = p;

	usleep(c->delay_us);
	atomic_store(&c->sh->closing, 1);
	c->rc = close(c->sh->fd) ? -errno : 0;
	atomic_store(&c->sh->closed, 1);
	return NULL;
}

#define CL_ROUNDS	6

static void t_close(void)
{
	unsigned int r, i, calls[CL_KINDS] = {}, oks[CL_KINDS] = {};
	unsigned int ebadf[CL_KINDS] = {}, errs[CL_KINDS] = {};
	unsigned int reopen_bad = 0, unseen = 0, unseen_bad = 0, close_bad = 0;
	uint64_t free0 = 0, ctx0 = 0, free1 = 0, ctx1 = 0, rs = 0xC105E;
	uint8_t *buf = NULL;
	double t0 = now_s();
	int fd;

	if (posix_memalign((void **)&buf, 2 << 20, 1 << 20))
		return;
	for (r = 0; r < CL_ROUNDS; r++) {
		struct cl_worker w[CL_KINDS];
		pthread_t t[CL_KINDS], tc;
		struct cl_closer closer;
		struct cl_shared sh;

		memset(&sh, 0, sizeof(sh));
		memset(buf, 0, 1 << 20);
		sh.buf = buf;
		sh.fd = open_node(path);
		if (sh.fd < 0) {
			reopen_bad++;
			tap_diag("close round %u: open: %d", r, sh.fd);
			continue;
		}
		if (!r && !hl_dram_usage(sh.fd, &free0, &ctx0))
			tap_diag("close: DRAM_USAGE failed");
		if (cb_new(sh.fd, &sh.cs_cb) ||
		    cb_create(sh.fd, CB_SIZE, 0, &sh.mmap_h) ||
		    map_host(sh.fd, buf, 1 << 20, &sh.va)) {
			ok(0, "close round %u: set-up", r);
			close(sh.fd);
			break;
		}
		memset(w, 0, sizeof(w));
		closer.sh = &sh;
		closer.delay_us = 2000 + rnd_next(&rs) % 60000;
		for (i = 0; i < CL_KINDS; i++) {
			w[i].sh = &sh;
			w[i].kind = i;
			pthread_create(&t[i], NULL, cl_thread, &w[i]);
		}
		pthread_create(&tc, NULL, cl_close_thread, &closer);
		pthread_join(tc, NULL);
		for (i = 0; i < CL_KINDS; i++)
			pthread_join(t[i], NULL);
		if (closer.rc)
			close_bad++;
		for (i = 0; i < CL_KINDS; i++) {
			calls[i] += w[i].calls;
			oks[i] += w[i].ok_calls;
			ebadf[i] += w[i].ebadf;
			if (w[i].errs && !errs[i])
				tap_diag("close round %u, %s thread: %s", r,
					 cl_names[i], w[i].why);
			errs[i] += w[i].errs;
		}
		/*
		 * Every thread has left its call; the CS thread's CB mapping
		 * is the file's last reference: once it is gone the file is
		 * released, so the node opens at once, and the CS whose wait
		 * ran into the close has landed (close waits for the file's
		 * CSs).
		 */
		munmap(sh.cs_cb.p, CB_SIZE);
		fd = open_node(path);
		if (fd < 0) {
			reopen_bad++;
			tap_diag("close round %u: open right after: %d", r, fd);
		} else {
			if (r == CL_ROUNDS - 1 &&
			    !hl_dram_usage(fd, &free1, &ctx1))
				tap_diag("close: DRAM_USAGE failed");
			close(fd);
		}
		if (sh.unseen) {
			unseen++;
			if (!all_bytes(buf + sh.unseen_off, 4096, sh.unseen_v))
				unseen_bad++;
		}
	}
	for (i = 0; i < CL_KINDS; i++)
		ok(!errs[i] && ebadf[i] && oks[i],
		   "close races %s: %u calls, %u succeeded before the close, %u EBADF after it, %u wrong",
		   cl_names[i], calls[i], oks[i], ebadf[i], errs[i]);
	ok(!close_bad, "close() returned 0 in every round");
	ok(!reopen_bad,
	   "after each of %u rounds the node opens at once (release is synchronous once the racing calls returned)",
	   CL_ROUNDS);
	ok(!unseen_bad,
	   "%u CSs whose WAIT_CS met the close landed their data (close waits for the file's CSs)",
	   unseen);
	ok(free1 == free0 && ctx1 == 0,
	   "no HBM left allocated after the rounds (free %llu -> %llu, new context %llu)",
	   (unsigned long long)free0, (unsigned long long)free1,
	   (unsigned long long)ctx1);
	tap_diag("close: %u rounds in %.1f s", CL_ROUNDS, now_s() - t0);
	free(buf);
}

/* ---- hand-off of the exclusive node between processes and threads -------- */

#define HO_PROCS	4
#define HO_WINS		4

/*
 * The window for HO_WINS holdings each: 10 s, 40 s on the debug kernel
 * (kmemleak there), where KASAN and lockdep under TCG make every open,
 * CS and close several times slower.
 */
static unsigned int ho_secs(void)
{
	return access("/sys/kernel/debug/kmemleak", F_OK) ? 10 : 40;
}

struct ho_shared {
	atomic_int holders;
	atomic_int double_holders, bad_errno, owner_bad, data_bad, setup_bad;
	atomic_int ebusy, wins[HO_PROCS];
	int last_errno;
};

static void ho_child(struct ho_shared *sh, int id)
{
	uint64_t rs = 0x5EED + id * 7919;
	double end = now_s() + ho_secs();
	int wins = 0;

	while (wins < HO_WINS && now_s() < end) {
		struct drm_gaudi_owner o;
		struct sess s;
		uint64_t seq;
		unsigned int i;
		int rc, fd;

		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EBUSY) {
				atomic_fetch_add(&sh->ebusy, 1);
			} else {
				atomic_fetch_add(&sh->bad_errno, 1);
				sh->last_errno = errno;
			}
			usleep(rnd_next(&rs) % 3000);
			continue;
		}
		if (atomic_fetch_add(&sh->holders, 1))
			atomic_fetch_add(&sh->double_holders, 1);
		if (owner(fd, &o) || o.state != GAUDI_OWNER_HELD ||
		    o.pid != getpid())
			atomic_fetch_add(&sh->owner_bad, 1);
		/* A session on this fd: CB, buffer, one checked CS. */
		memset(&s, 0, sizeof(s));
		s.fd = fd;
		if (cb_new(fd, &s.cb) ||
		    posix_memalign((void **)&s.buf, 4096, 1 << 20) ||
		    map_host(fd, s.buf, 1 << 20, &s.va)) {
			atomic_fetch_add(&sh->setup_bad, 1);
		} else {
			uint8_t v = 1 + (id * 17 + wins) % 250;

			memset(s.buf, 0, 1 << 20);
			rc = memset_check(fd, &s.cb, (id + wins) % 8, s.buf,
					  s.va, 8192, v);
			if (rc)
				atomic_fetch_add(&sh->data_bad, 1);
			/* Every other turn: close with CSs in flight. */
			for (i = 0; wins % 2 && i < 16; i++)
				cs_memset(fd, &s.cb, i % 8,
					  s.va + 65536 + i * 4096, 4096, v,
					  &seq);
		}
		if (s.cb.p)
			munmap(s.cb.p, CB_SIZE);
		atomic_fetch_sub(&sh->holders, 1);
		close(fd);
		free(s.buf);
		atomic_fetch_add(&sh->wins[id], 1);
		wins++;
		usleep(rnd_next(&rs) % 2000);
	}
}

struct ho_racer {
	pthread_barrier_t *bar;
	int fd;
};

static void *ho_race_thread(void *p)
{
	struct ho_racer *r = p;

	pthread_barrier_wait(r->bar);
	r->fd = open_node(path);
	return NULL;
}

static void t_handoff(void)
{
	struct ho_shared *sh;
	unsigned int i, r, one_winner = 0, other_errno = 0, min_wins = ~0U;
	pid_t pids[HO_PROCS];
	int st, fd, fd2, exits_bad = 0;
	double t0 = now_s();
	struct drm_gaudi_owner o;
	struct cb c;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!ok(sh != MAP_FAILED, "handoff: shared counters"))
		return;
	memset(sh, 0, sizeof(*sh));
	fflush(stdout);
	for (i = 0; i < HO_PROCS; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			ho_child(sh, i);
			_exit(0);
		}
	}
	for (i = 0; i < HO_PROCS; i++) {
		waitpid(pids[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			exits_bad++;
		if ((unsigned int)atomic_load(&sh->wins[i]) < min_wins)
			min_wins = atomic_load(&sh->wins[i]);
	}
	ok(!exits_bad && !atomic_load(&sh->double_holders),
	   "handoff: %u processes took the node %u times each at least (%d refusals): never two holders",
	   HO_PROCS, min_wins, atomic_load(&sh->ebusy));
	ok(min_wins == HO_WINS,
	   "handoff: every process got the node %u times within %u s (least: %u)",
	   HO_WINS, ho_secs(), min_wins);
	ok(!atomic_load(&sh->bad_errno),
	   "handoff: every refused open failed with EBUSY (%d others, last errno %d)",
	   atomic_load(&sh->bad_errno), sh->last_errno);
	ok(!atomic_load(&sh->owner_bad),
	   "handoff: OWNER named the holding process every time (%d wrong)",
	   atomic_load(&sh->owner_bad));
	ok(!atomic_load(&sh->data_bad) && !atomic_load(&sh->setup_bad),
	   "handoff: each holder's CS completed with its data, also after a holder closed with 16 CSs in flight (%d wrong, %d set-ups failed)",
	   atomic_load(&sh->data_bad), atomic_load(&sh->setup_bad));
	munmap(sh, sizeof(*sh));
	tap_diag("handoff: processes done in %.1f s", now_s() - t0);

	/* Threads of one process racing open(): one winner, EBUSY for all others. */
	for (r = 0; r < 20; r++) {
		struct ho_racer rc[4];
		pthread_t t[4];
		pthread_barrier_t bar;
		unsigned int wins = 0;

		pthread_barrier_init(&bar, NULL, 4);
		for (i = 0; i < 4; i++) {
			rc[i].bar = &bar;
			pthread_create(&t[i], NULL, ho_race_thread, &rc[i]);
		}
		for (i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&bar);
		for (i = 0; i < 4; i++) {
			if (rc[i].fd >= 0)
				wins++;
			else if (rc[i].fd != -EBUSY)
				other_errno++;
		}
		one_winner += wins == 1;
		for (i = 0; i < 4; i++)
			if (rc[i].fd >= 0)
				close(rc[i].fd);
	}
	ok(one_winner == 20 && !other_errno,
	   "handoff: 4 threads race open() 20 times: exactly one wins each time (%u), the others EBUSY (%u other errors)",
	   one_winner, other_errno);

	/* What keeps the node held after close(): a dup()ed fd, an mmap. */
	fd = open_node(path);
	fd2 = fd >= 0 ? dup(fd) : -1;
	if (fd >= 0)
		close(fd);
	fd = open_node(path);
	ok(fd == -EBUSY, "handoff: a dup()ed descriptor keeps the node held (open: %d)",
	   fd);
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
	fd = open_node(path);
	ok(fd >= 0, "handoff: closing the dup frees it (open: %d)", fd);
	memset(&c, 0, sizeof(c));
	if (fd >= 0 && !cb_new(fd, &c)) {
		close(fd);
		fd = open_node(path);
		ok(fd == -EBUSY, "handoff: a live mmap of a CB keeps the node held after close (open: %d)",
		   fd);
		if (fd >= 0)
			close(fd);
		munmap(c.p, CB_SIZE);
		fd = open_node(path);
		ok(fd >= 0, "handoff: munmap frees it (open: %d)", fd);
		if (fd >= 0) {
			ok(owner(fd, &o) == 0 && o.pid == getpid(),
			   "handoff: OWNER names this process (%d)", o.pid);
			close(fd);
		}
	} else if (fd >= 0) {
		ok(0, "handoff: CB for the mmap check");
		close(fd);
	}
}

/* ---- two cards at once ----------------------------------------------------- */

#define CD_ITERS	150

struct cd_worker {
	int fd;
	int card;
	int id;
	struct cb cb;
	uint8_t *host;
	uint64_t dev;
	atomic_int *stop;	/* NULL: run CD_ITERS times */
	unsigned int n, errs;
	char why[128];
};

static void *cd_thread(void *p)
{
	struct cd_worker *w = p;
	uint64_t rs = 0xCA4D + w->card * 31 + w->id;
	unsigned int k;

	for (k = 0; w->stop ? !atomic_load(w->stop) : k < CD_ITERS; k++) {
		uint32_t len = 64 + rnd_next(&rs) % (64 << 10);
		uint32_t off = (rnd_next(&rs) % 16) * (64 << 10);
		uint8_t v = 1 + rnd_next(&rs) % 250;
		int rc;

		rc = memset_check(w->fd, &w->cb, rnd_next(&rs) % 8,
				  w->host + off, w->dev + off, len, v);
		w->n++;
		if (rc && !w->errs++)
			snprintf(w->why, sizeof(w->why),
				 "card %d thread %d CS %u: %d", w->card, w->id,
				 k, rc);
	}
	return NULL;
}

static void t_cards(void)
{
	struct cd_worker w[4];
	struct sess s[2];
	pthread_t t[4];
	char p1[64];
	unsigned int i, errs = 0, n = 0;
	double t0;

	card_path(p1, sizeof(p1), card + 1);
	if (access(p1, F_OK)) {
		tap_skip("one card only", "cards: two cards at once");
		return;
	}
	if (!ok(sess_open(&s[0]) == 0 && sess_open_path(&s[1], p1) == 0,
		"cards: sessions on accel%d and accel%d", card, card + 1))
		goto out;
	memset(w, 0, sizeof(w));
	for (i = 0; i < 4; i++) {
		struct sess *ss = &s[i / 2];

		w[i].fd = ss->fd;
		w[i].card = card + i / 2;
		w[i].id = i % 2;
		w[i].host = ss->buf + (i % 2) * (BUF_SIZE / 2);
		w[i].dev = ss->va + (i % 2) * (BUF_SIZE / 2);
		if (cb_new(ss->fd, &w[i].cb)) {
			ok(0, "cards: CB");
			goto out;
		}
	}
	t0 = now_s();
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, cd_thread, &w[i]);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		if (w[i].errs)
			tap_diag("%s", w[i].why);
		errs += w[i].errs;
		n += w[i].n;
		cb_del(w[i].fd, &w[i].cb);
	}
	ok(!errs,
	   "cards: 2 threads on each of 2 cards, %u memset CSs of random size, queue and place: all data right (%.1f s)",
	   n, now_s() - t0);
out:
	sess_close(&s[0]);
	sess_close(&s[1]);
}

/* ---- WAIT_CS interrupted by a signal ---------------------------------------- */

struct wi_arg {
	int fd;
	uint64_t seq;
	uint64_t seqs[1];
	bool multi;
	bool retry;		/* repeat the call on EINTR, as drmIoctl() */
	unsigned int eintr;
	union hl_wait_cs_args w;
};

static void wi_args(struct wi_arg *a, union hl_wait_cs_args *w)
{
	memset(w, 0, sizeof(*w));
	w->in.timeout_us = 15ULL * 1000 * 1000;
	if (a->multi) {
		a->seqs[0] = a->seq;
		w->in.seq = (uintptr_t)a->seqs;
		w->in.seq_arr_len = 1;
		w->in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
	} else {
		w->in.seq = a->seq;
	}
}

static int wi_wait(struct blocked *b)
{
	struct wi_arg *a = b->arg;
	int rc;

	wi_args(a, &a->w);
	for (;;) {
		rc = ioctl(a->fd, DRM_IOCTL_HL_WAIT_CS, &a->w) ? -errno : 0;
		if (rc != -EINTR || !a->retry)
			return rc;
		a->eintr++;
	}
}

static void t_waitintr(void)
{
	static const char *const names[] = { "WAIT_CS", "multi-CS WAIT_CS" };
	union hl_wait_cs_args same;
	struct wi_arg a;
	struct blocked b;
	struct sess s;
	uint64_t seq;
	unsigned int m, restart;
	double t0;

	if (!hooks_ok()) {
		tap_skip("no model test hooks", "waitintr");
		return;
	}
	if (!ok(sess_open(&s) == 0, "waitintr: open"))
		goto out;
	if (!ok(model_ctl("set qm_hang 0") == 0, "waitintr: model: hang DMA_0_0"))
		goto out;
	ok(cs_memset_held(s.fd, &s.cb, 0, s.va, 4096, 0x5A, &seq) == 0,
	   "waitintr: a CS on the hung queue");
	for (restart = 0; restart < 2; restart++) {
		set_sigusr1(restart);
		for (m = 0; m < 2; m++) {
			memset(&a, 0, sizeof(a));
			a.fd = s.fd;
			a.seq = seq;
			a.multi = m;
			atomic_store(&sig_count, 0);
			blocked_start(&b, wi_wait, &a);
			ok(blocked_sleeping(&b, 5),
			   "waitintr: %s on it blocks (15 s timeout)",
			   names[m]);
			t0 = now_s();
			pthread_kill(b.t, SIGUSR1);
			blocked_wait(&b, 5);
			ok(atomic_load(&b.done) && b.rc == -EINTR &&
			   atomic_load(&sig_count) == 1,
			   "waitintr: a signal (%s SA_RESTART) ends %s with EINTR in %.0f ms (rc %d)",
			   restart ? "with" : "without", names[m],
			   (b.t_end - t0) * 1000, b.rc);
			pthread_join(b.t, NULL);
			wi_args(&a, &same);
			ok(!memcmp(&a.w, &same, sizeof(same)),
			   "waitintr: %s's arguments are unchanged after EINTR (seq 0x%llx, timeout %llu)",
			   names[m], (unsigned long long)a.w.in.seq,
			   (unsigned long long)a.w.in.timeout_us);
		}
	}
	/* drmIoctl() style: the same call again after each EINTR. */
	for (m = 0; m < 2; m++) {
		memset(&a, 0, sizeof(a));
		a.fd = s.fd;
		a.seq = seq;
		a.multi = m;
		a.retry = true;
		blocked_start(&b, wi_wait, &a);
		blocked_sleeping(&b, 5);
		pthread_kill(b.t, SIGUSR1);
		usleep(50000);
		pthread_kill(b.t, SIGUSR1);
		ok(blocked_sleeping(&b, 5) && a.eintr == 2,
		   "waitintr: %s repeated after 2 EINTRs waits again (%u EINTR)",
		   names[m], a.eintr);
		if (m == 1)
			ok(model_ctl("set qm_unhang 0") == 0,
			   "waitintr: model: release DMA_0_0");
		else
			model_ctl("set qm_unhang 0");
		blocked_wait(&b, 10);
		ok(b.rc == 0 && a.w.out.status == HL_WAIT_CS_STATUS_COMPLETED &&
		   !(a.w.out.flags & HL_WAIT_CS_STATUS_FLAG_GONE) &&
		   (!m || a.w.out.cs_completion_map == 1) &&
		   all_bytes(s.buf, 4096, 0x5A),
		   "waitintr: and returns COMPLETED (not GONE) when the CS ends, with its data (rc %d status %u flags 0x%x)",
		   b.rc, a.w.out.status, a.w.out.flags);
		pthread_join(b.t, NULL);
		if (!m) {
			model_ctl("set qm_hang 0");
			memset(s.buf, 0, 4096);
			ok(cs_memset_held(s.fd, &s.cb, 0, s.va, 4096, 0x5A,
					  &seq) == 0,
			   "waitintr: another CS on the hung queue");
		}
	}
out:
	model_ctl("set qm_unhang 0xFFFFFFFF");
	signal(SIGUSR1, SIG_DFL);
	sess_close(&s);
}

/* ---- back-pressure: 1024 CSs in flight, full PQ ------------------------------ */

#define RF_MAX_CS	1024	/* GAUDI_MAX_PENDING_CS */
#define RF_PQ_JOBS	512	/* HL_MAX_JOBS_PER_CS */
#define RF_PQ		4096	/* external PQ entries */

struct rf_arg {
	int fd;
	struct cb *cb;
	uint64_t dst;
	uint8_t v;
	uint32_t jobs;		/* chunks of the CS (same CB) */
	uint64_t seq;
};

static int rf_submit(struct blocked *b)
{
	struct rf_arg *a = b->arg;
	static struct hl_cs_chunk ch[RF_PQ_JOBS];
	union hl_cs_args cs;
	uint32_t i, len = put_memset(a->cb, a->dst, 64, a->v);

	for (i = 0; i < a->jobs; i++) {
		memset(&ch[i], 0, sizeof(ch[i]));
		ch[i].cb_handle = a->cb->h;
		ch[i].cb_size = len;
		ch[i].queue_index = 0;
	}
	memset(&cs, 0, sizeof(cs));
	cs.in.chunks_execute = (uintptr_t)ch;
	cs.in.num_chunks_execute = a->jobs;
	cs.in.cs_flags = HL_CS_FLAGS_CUSTOM_TIMEOUT;
	cs.in.timeout = LONG_TIMEOUT;
	if (ioctl(a->fd, DRM_IOCTL_HL_CS, &cs))
		return -errno;
	a->seq = cs.out.seq;
	return 0;
}

static void t_ringfull(void)
{
	static uint64_t seqs[RF_MAX_CS + 1];
	struct rf_arg a;
	struct blocked b;
	struct sess s;
	struct cb big[RF_PQ / RF_PQ_JOBS + 1];
	unsigned int i, fails = 0, bad = 0, gone = 0, aborted = 0;
	uint32_t st, fl, c0;
	pid_t child;
	int rc, cst = 0;
	double t0;

	memset(big, 0, sizeof(big));
	if (!hooks_ok()) {
		tap_skip("no model test hooks", "ringfull");
		return;
	}
	if (!ok(sess_open(&s) == 0, "ringfull: open"))
		goto out;
	if (!ok(model_ctl("set qm_hang 0") == 0, "ringfull: model: hang DMA_0_0"))
		goto out;

	/* 1024 CSs in flight on the hung queue: none of them blocks. */
	t0 = now_s();
	for (i = 0; i < RF_MAX_CS; i++)
		if (cs_memset_held(s.fd, &s.cb, 0, s.va + i * 64, 64,
				   1 + i % 251, &seqs[i]))
			fails++;
	ok(!fails, "ringfull: %u CSs in flight on a hung queue submitted without blocking (%.2f s, %u failed)",
	   RF_MAX_CS, now_s() - t0, fails);

	/* The next one waits for the oldest; a signal interrupts it. */
	memset(&a, 0, sizeof(a));
	a.fd = s.fd;
	a.cb = &s.cb;
	a.dst = s.va + RF_MAX_CS * 64;
	a.v = 0xC3;
	a.jobs = 1;
	set_sigusr1(false);
	atomic_store(&sig_count, 0);
	blocked_start(&b, rf_submit, &a);
	ok(blocked_sleeping(&b, 5), "ringfull: submit %u blocks (documented: waits interruptibly)",
	   RF_MAX_CS + 1);
	t0 = now_s();
	pthread_kill(b.t, SIGUSR1);
	blocked_wait(&b, 5);
	ok(atomic_load(&b.done) && b.rc == -EINTR,
	   "ringfull: a signal without SA_RESTART ends it with EINTR in %.0f ms (rc %d)",
	   (b.t_end - t0) * 1000, b.rc);
	pthread_join(b.t, NULL);

	/* With SA_RESTART it is restarted, and resumes when the queue drains. */
	set_sigusr1(true);
	atomic_store(&sig_count, 0);
	blocked_start(&b, rf_submit, &a);
	blocked_sleeping(&b, 5);
	pthread_kill(b.t, SIGUSR1);
	usleep(100000);
	ok(blocked_sleeping(&b, 5) && atomic_load(&sig_count) == 1,
	   "ringfull: with SA_RESTART the handler runs and the submit is restarted: still blocked (rc %d)",
	   b.rc);
	/* A stop and continue (no handler) must not surface either. */
	fflush(stdout);
	child = fork();
	if (!child) {
		struct rf_arg ca = a;
		struct blocked cb;
		struct cb own;

		if (cb_new(s.fd, &own))
			_exit(2);
		ca.cb = &own;
		ca.dst = s.va + (RF_MAX_CS + 1) * 64;
		ca.v = 0xD4;
		cb.arg = &ca;
		_exit(rf_submit(&cb) == 0 ? 0 : 1);
	}
	usleep(500000);
	kill(child, SIGSTOP);
	usleep(100000);
	kill(child, SIGCONT);
	usleep(300000);
	ok(waitpid(child, &cst, WNOHANG) == 0,
	   "ringfull: a blocked submit in a process without handlers stays blocked across SIGSTOP/SIGCONT");
	ok(model_ctl("set qm_unhang 0") == 0, "ringfull: model: release DMA_0_0");
	ok(waitpid(child, &cst, 0) == child && WIFEXITED(cst) &&
	   WEXITSTATUS(cst) == 0,
	   "ringfull: and succeeds once the queue drains (status 0x%x)", cst);
	blocked_wait(&b, 20);
	ok(atomic_load(&b.done) && b.rc == 0,
	   "ringfull: the blocked submit resumes once the queue drains (rc %d)",
	   b.rc);
	pthread_join(b.t, NULL);
	seqs[RF_MAX_CS] = a.seq;
	for (i = 0; i <= RF_MAX_CS; i++) {
		st = ~0U;
		fl = 0;
		rc = wait_cs(s.fd, seqs[i], WAIT_US, &st, &fl);
		if (rc || st != HL_WAIT_CS_STATUS_COMPLETED)
			bad++;
		if (fl & HL_WAIT_CS_STATUS_FLAG_GONE)
			gone++;
		if (!all_bytes(s.buf + i * 64, 64,
			       i < RF_MAX_CS ? 1 + i % 251 : 0xC3))
			bad++;
	}
	ok(!bad && seqs[RF_MAX_CS] >= RF_MAX_CS + 1 &&
	   seqs[RF_MAX_CS] <= RF_MAX_CS + 2 &&
	   all_bytes(s.buf + (RF_MAX_CS + 1) * 64, 64, 0xD4),
	   "ringfull: all %u CSs (and the child's) completed with their data (%u wrong, %u reported GONE)",
	   RF_MAX_CS + 1, bad, gone);

	/* A full external PQ: 8 CSs of 512 jobs fill DMA_0_0's 4096 slots. */
	if (!ok(model_ctl("set qm_hang 0") == 0, "ringfull: model: hang DMA_0_0 again"))
		goto out;
	memset(s.buf, 0, BUF_SIZE);
	fails = 0;
	t0 = now_s();
	for (i = 0; i < RF_PQ / RF_PQ_JOBS; i++) {
		memset(&a, 0, sizeof(a));
		a.fd = s.fd;
		a.dst = s.va + i * 4096;
		a.v = 0x40 + i;
		a.jobs = RF_PQ_JOBS;
		a.cb = &big[i];
		if (cb_new(s.fd, &big[i])) {
			fails++;
			continue;
		}
		b.arg = &a;
		if (rf_submit(&b))
			fails++;
		seqs[i] = a.seq;
	}
	ok(!fails, "ringfull: %u CSs of %u jobs fill DMA_0_0's PQ (%.2f s, %u failed)",
	   RF_PQ / RF_PQ_JOBS, RF_PQ_JOBS, now_s() - t0, fails);
	memset(&a, 0, sizeof(a));
	a.fd = s.fd;
	a.dst = s.va + (1 << 20);
	a.v = 0x99;
	a.jobs = 1;
	a.cb = &big[RF_PQ / RF_PQ_JOBS];
	cb_new(s.fd, a.cb);
	set_sigusr1(false);
	blocked_start(&b, rf_submit, &a);
	ok(blocked_sleeping(&b, 5), "ringfull: the next CS on the full PQ blocks");
	pthread_kill(b.t, SIGUSR1);
	blocked_wait(&b, 5);
	ok(atomic_load(&b.done) && b.rc == -EINTR,
	   "ringfull: a signal ends that wait with EINTR (rc %d)", b.rc);
	pthread_join(b.t, NULL);

	/* Blocked again; a hard reset ends the 8 CSs, the submit goes on. */
	blocked_start(&b, rf_submit, &a);
	blocked_sleeping(&b, 5);
	c0 = hard_resets(s.fd);
	t0 = now_s();
	rc = sysfs_write("hard_reset", "1");
	ok(rc == 0 && hard_resets(s.fd) == c0 + 1,
	   "ringfull: echo 1 > hard_reset while a submit waits for PQ room (%.1f s, rc %d)",
	   now_s() - t0, rc);
	blocked_wait(&b, 20);
	ok(atomic_load(&b.done) && (b.rc == 0 || b.rc == -EBUSY),
	   "ringfull: the blocked submit goes on after the recovery (0), or EBUSY if it looked as the reset began (rc %d)",
	   b.rc);
	pthread_join(b.t, NULL);
	rc = b.rc;
	if (rc == -EBUSY) {
		b.arg = &a;
		rc = rf_submit(&b);
	}
	st = ~0U;
	ok(rc == 0 && wait_cs(s.fd, a.seq, WAIT_US, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED &&
	   all_bytes(s.buf + (1 << 20), 64, 0x99),
	   "ringfull: its CS (submitted again after EBUSY) completes with its data on the reset queue (rc %d status %u)",
	   rc, st);
	for (i = 0; i < RF_PQ / RF_PQ_JOBS; i++) {
		st = ~0U;
		rc = wait_cs(s.fd, seqs[i], WAIT_US, &st, NULL);
		if (rc == -EIO && st == HL_WAIT_CS_STATUS_ABORTED &&
		    all_bytes(s.buf + i * 4096, 64, 0))
			aborted++;
	}
	ok(aborted == RF_PQ / RF_PQ_JOBS,
	   "ringfull: the %u CSs held in the PQ ended ABORTED (EIO) without running (%u)",
	   RF_PQ / RF_PQ_JOBS, aborted);
out:
	model_ctl("set qm_unhang 0xFFFFFFFF");
	signal(SIGUSR1, SIG_DFL);
	for (i = 0; i < RF_PQ / RF_PQ_JOBS + 1; i++)
		if (s.fd > 0)
			cb_del(s.fd, &big[i]);
	sess_close(&s);
}

/* ---- reset while busy: sysfs, heartbeat loss, uncorrectable ECC ------------ */

enum rs_kind { RS_SYSFS, RS_HEARTBEAT, RS_ECC };

struct rs_shared {
	int fd;
	atomic_int stop;
	/* submitter thread */
	struct cb cb;
	uint8_t *host;
	uint64_t dev;
	unsigned int sub_ok, sub_ebusy, sub_aborted, sub_bad;
	int sub_last_bad;
	/* opener thread */
	unsigned int op_ebusy, op_eagain, op_bad;
	int op_last_bad;
	/* INFO thread (never blocks, so it samples the whole reset) */
	unsigned int in_calls, in_busy, in_inreset, in_bad;
	char in_why[96];
	/* sysfs thread (its reads wait for the reset to end) */
	bool cpu_hung;		/* heartbeat case: CPU-CP may time out */
	unsigned int sy_calls, sy_eio, sy_etime, sy_bad;
	char sy_why[96];
};

static int sysfs_read(const char *attr, char *buf, size_t len)
{
	char p[128];
	ssize_t n;
	int fd, rc = 0;

	snprintf(p, sizeof(p), "/sys/class/accel/accel%d/device/%s", card,
		 attr);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		rc = -errno;
	else
		buf[n] = 0;
	close(fd);
	return rc;
}

/*
 * During a reset: INFO ops that need the hardware fail with EBUSY, the
 * others answer (gaudi-uapi.rst).
 */
static void *rs_info(void *p)
{
	struct rs_shared *sh = p;

	while (!atomic_load(&sh->stop)) {
		struct hl_info_hw_idle idle;
		int rc, ds;

		sh->in_calls++;
		rc = hl_info(sh->fd, HL_INFO_HW_IDLE, &idle, sizeof(idle));
		if (rc == -EBUSY)
			sh->in_busy++;
		else if (rc && !sh->in_bad++)
			snprintf(sh->in_why, sizeof(sh->in_why),
				 "HW_IDLE: %d", rc);
		ds = dev_status(sh->fd);
		if (ds == HL_DEVICE_STATUS_IN_RESET)
			sh->in_inreset++;
		else if (ds != HL_DEVICE_STATUS_OPERATIONAL && !sh->in_bad++)
			snprintf(sh->in_why, sizeof(sh->in_why),
				 "DEVICE_STATUS: %d", ds);
		usleep(2000);
	}
	return NULL;
}

/*
 * Sysfs attributes that ask the device CPU wait for a reset to end, then
 * answer, fail with EIO (sysfs-driver-gaudi), or time out while the CPU
 * hangs.
 */
static void *rs_sysfs(void *p)
{
	struct rs_shared *sh = p;

	while (!atomic_load(&sh->stop)) {
		char val[64];
		int rc;

		sh->sy_calls++;
		rc = sysfs_read("max_power", val, sizeof(val));
		if (rc == -EIO)
			sh->sy_eio++;
		else if (rc == -ETIMEDOUT && sh->cpu_hung)
			sh->sy_etime++;
		else if (rc && !sh->sy_bad++)
			snprintf(sh->sy_why, sizeof(sh->sy_why),
				 "max_power: %d", rc);
		usleep(5000);
	}
	return NULL;
}

static void *rs_submitter(void *p)
{
	struct rs_shared *sh = p;
	unsigned int k = 0;

	/*
	 * At most 900 CSs, about 100 a second, so that the held CSs'
	 * sequences stay within the context's last 1024 (older ones are
	 * reported COMPLETED | GONE).
	 */
	while (!atomic_load(&sh->stop) && k < 900) {
		uint32_t off = (k % 64) * 4096, st = ~0U;
		uint8_t v = 1 + k++ % 251;
		uint64_t seq;
		int rc;

		rc = cs_memset(sh->fd, &sh->cb, 2, sh->dev + off, 4096, v, &seq);
		if (rc == -EBUSY) {	/* device in reset: as upstream */
			sh->sub_ebusy++;
			usleep(5000);
			continue;
		}
		if (rc) {
			sh->sub_bad++;
			sh->sub_last_bad = rc;
			continue;
		}
		rc = wait_cs(sh->fd, seq, WAIT_US, &st, NULL);
		usleep(8000);
		if (!rc && st == HL_WAIT_CS_STATUS_COMPLETED &&
		    all_bytes(sh->host + off, 4096, v)) {
			sh->sub_ok++;
		} else if (rc == -EIO && st == HL_WAIT_CS_STATUS_ABORTED) {
			sh->sub_aborted++;
		} else {
			sh->sub_bad++;
			sh->sub_last_bad = rc ? rc : (int)(1000 + st);
		}
	}
	return NULL;
}

static void *rs_opener(void *p)
{
	struct rs_shared *sh = p;

	while (!atomic_load(&sh->stop)) {
		int fd = open_node(path);

		if (fd == -EBUSY) {
			sh->op_ebusy++;
		} else if (fd == -EAGAIN) {
			sh->op_eagain++;
		} else {
			sh->op_bad++;
			sh->op_last_bad = fd;
			if (fd >= 0)
				close(fd);
		}
		usleep(5000);
	}
	return NULL;
}

/* Uevents of the PCI device of @bdf: GAUDI_RESET=1 then =0 seen? */
static void uevents_scan(int nl, const char *bdf, bool *r1, bool *r0)
{
	char msg[8192];
	ssize_t n;

	while ((n = recv(nl, msg, sizeof(msg) - 1, MSG_DONTWAIT)) > 0) {
		bool ours = false, one = false, zero = false;
		char *p = msg, *end = msg + n;

		msg[n] = 0;
		for (; p < end; p += strlen(p) + 1) {
			if (!strncmp(p, "DEVPATH=", 8) && strstr(p, bdf) &&
			    !strcmp(strrchr(p, '/') + 1, bdf))
				ours = true;
			if (!strcmp(p, "GAUDI_RESET=1"))
				one = true;
			if (!strcmp(p, "GAUDI_RESET=0"))
				zero = true;
		}
		if (ours && one)
			*r1 = true;
		if (ours && zero && *r1)
			*r0 = true;
	}
}

static int uevent_socket(void)
{
	struct sockaddr_nl sa;
	int nl, sz = 1 << 20;

	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (nl < 0)
		return -1;
	setsockopt(nl, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = 1;
	sa.nl_pid = 0;
	if (bind(nl, (struct sockaddr *)&sa, sizeof(sa))) {
		close(nl);
		return -1;
	}
	return nl;
}

struct rs_wait {
	int fd;
	uint64_t seq;
	uint32_t status, flags;
	unsigned int eintr;
};

static int rs_wait_fn(struct blocked *b)
{
	struct rs_wait *a = b->arg;
	union hl_wait_cs_args w;
	int rc;

	/* As drmIoctl(): the same arguments again after EINTR. */
	memset(&w, 0, sizeof(w));
	w.in.seq = a->seq;
	w.in.timeout_us = 60ULL * 1000 * 1000;
	for (;;) {
		rc = ioctl(a->fd, DRM_IOCTL_HL_WAIT_CS, &w) ? -errno : 0;
		a->status = w.out.status;
		a->flags = w.out.flags;
		if (rc != -EINTR)
			return rc;
		a->eintr++;
	}
}

#define RS_HELD	4

static void t_reset(enum rs_kind kind)
{
	static const char *const names[] = { "reset", "heartbeat", "ecc" };
	const char *name = names[kind];
	struct rs_shared sh;
	struct cd_worker other;
	struct rs_wait wa;
	struct blocked wb;
	struct sess s, s2;
	pthread_t ts, to, ti, tf, tother;
	uint64_t held[RS_HELD], seq, events = 0, cnt = 0;
	char p1[64], bdf[64] = "";
	bool have_other, r1 = false, r0 = false;
	uint32_t c0, st;
	atomic_int other_stop = 0;
	unsigned int i, aborted = 0;
	struct hl_info_args ia;
	double t0, dt;
	int efd = -1, nl = -1, rc;

	memset(&s2, 0, sizeof(s2));
	memset(&s, 0, sizeof(s));
	if (!hooks_ok()) {
		tap_skip("no model test hooks", "%s", name);
		return;
	}
	hl_card_bdf(card, bdf, sizeof(bdf));
	card_path(p1, sizeof(p1), card + 1);
	have_other = !access(p1, F_OK);
	if (!ok(sess_open(&s) == 0, "%s: open, CB, mapping", name))
		goto out;
	/* How the process learns of the reset: eventfd, GET_EVENTS, uevent. */
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	memset(&ia, 0, sizeof(ia));
	ia.op = HL_INFO_REGISTER_EVENTFD;
	ia.eventfd = efd;
	ok(xioctl(s.fd, DRM_IOCTL_HL_INFO, &ia) == 0,
	   "%s: eventfd registered", name);
	hl_info(s.fd, HL_INFO_GET_EVENTS, &events, sizeof(events));
	events = 0;
	nl = uevent_socket();
	c0 = hard_resets(s.fd);

	/* Work held on a hung queue, one queue still running. */
	if (!ok(model_ctl("set qm_hang 0") == 0, "%s: model: hang DMA_0_0", name))
		goto out;
	rc = 0;
	for (i = 0; i < RS_HELD; i++)
		rc |= cs_memset_held(s.fd, &s.cb, 0, s.va + i * 4096, 4096,
				     0x70 + i, &held[i]);
	ok(!rc, "%s: %u CSs pending on the hung queue", name, RS_HELD);
	ok(memset_check(s.fd, &s.cb, 1, s.buf + (1 << 20), s.va + (1 << 20),
			4096, 0x11) == 0,
	   "%s: a CS on DMA_0_1 completes meanwhile", name);

	/* Threads: a waiter, a submitter, an opener, the next card. */
	memset(&wa, 0, sizeof(wa));
	wa.fd = s.fd;
	wa.seq = held[RS_HELD - 1];
	blocked_start(&wb, rs_wait_fn, &wa);
	memset(&sh, 0, sizeof(sh));
	sh.fd = s.fd;
	sh.host = s.buf + (2 << 20);
	sh.dev = s.va + (2 << 20);
	cb_new(s.fd, &sh.cb);
	sh.cpu_hung = kind == RS_HEARTBEAT;
	pthread_create(&ts, NULL, rs_submitter, &sh);
	pthread_create(&to, NULL, rs_opener, &sh);
	pthread_create(&ti, NULL, rs_info, &sh);
	pthread_create(&tf, NULL, rs_sysfs, &sh);
	memset(&other, 0, sizeof(other));
	if (have_other && sess_open_path(&s2, p1) == 0 &&
	    cb_new(s2.fd, &other.cb) == 0) {
		other.fd = s2.fd;
		other.card = card + 1;
		other.host = s2.buf;
		other.dev = s2.va;
		other.stop = &other_stop;
		pthread_create(&tother, NULL, cd_thread, &other);
	} else {
		have_other = false;
	}
	ok(blocked_sleeping(&wb, 5), "%s: a thread waits in WAIT_CS for the last of them",
	   name);

	t0 = now_s();
	switch (kind) {
	case RS_SYSFS:
		rc = sysfs_write("hard_reset", "1");
		ok(rc == 0, "reset: echo 1 > hard_reset returned after %.1f s (rc %d)",
		   now_s() - t0, rc);
		break;
	case RS_HEARTBEAT:
		ok(model_ctl("set cpu_hang 1") == 0,
		   "heartbeat: model: the device CPU stops answering");
		break;
	case RS_ECC:
		ok(model_ctl("event 189") == 0,
		   "ecc: model: HBM0 uncorrectable ECC event (189) posted");
		break;
	}
	/* Wait for the reset to have happened and ended. */
	while (hard_resets(s.fd) == c0 && now_s() - t0 < 90)
		usleep(50000);
	ok(hard_resets(s.fd) == c0 + 1,
	   "%s: the device was hard reset once (RESET_COUNT %u -> %u, %.1f s)",
	   name, c0, hard_resets(s.fd), now_s() - t0);
	ok(wait_operational(s.fd, 60), "%s: operational again", name);
	dt = now_s() - t0;
	usleep(300000);		/* the threads run on the recovered device */
	atomic_store(&sh.stop, 1);
	atomic_store(&other_stop, 1);
	pthread_join(ts, NULL);
	pthread_join(to, NULL);
	pthread_join(ti, NULL);
	pthread_join(tf, NULL);
	if (have_other)
		pthread_join(tother, NULL);
	blocked_wait(&wb, 10);

	/* What the process saw. */
	ok(atomic_load(&wb.done) && wb.rc == -EIO &&
	   wa.status == HL_WAIT_CS_STATUS_ABORTED,
	   "%s: the waiting thread returned EIO, status ABORTED (%s %.2f s after the trigger, rc %d status %u flags 0x%x, %u EINTR)",
	   name, atomic_load(&wb.done) ? "returned" : "still waiting",
	   wb.t_end - t0, wb.rc, wa.status, wa.flags, wa.eintr);
	pthread_join(wb.t, NULL);
	for (i = 0; i < RS_HELD; i++) {
		st = ~0U;
		rc = wait_cs(s.fd, held[i], 0, &st, NULL);
		if (rc == -EIO && st == HL_WAIT_CS_STATUS_ABORTED &&
		    all_bytes(s.buf + i * 4096, 4096, 0))
			aborted++;
		else
			tap_diag("%s: CS %llu: rc %d status %u, data 0x%02x",
				 name, (unsigned long long)held[i], rc, st,
				 s.buf[i * 4096]);
	}
	ok(aborted == RS_HELD,
	   "%s: the %u pending CSs ended ABORTED (EIO) and never ran (%u)",
	   name, RS_HELD, aborted);
	ok(read(efd, &cnt, sizeof(cnt)) == sizeof(cnt) && cnt >= 1,
	   "%s: the eventfd was signalled (%llu)", name,
	   (unsigned long long)cnt);
	ok(hl_info(s.fd, HL_INFO_GET_EVENTS, &events, sizeof(events)) == 0 &&
	   (events & HL_NOTIFIER_EVENT_DEVICE_RESET) &&
	   (events & HL_NOTIFIER_EVENT_DEVICE_UNAVAILABLE),
	   "%s: GET_EVENTS has DEVICE_RESET | DEVICE_UNAVAILABLE (0x%llx)",
	   name, (unsigned long long)events);
	if (kind == RS_ECC) {
		struct hl_info_hw_err_event he;

		memset(&he, 0, sizeof(he));
		ok(events & HL_NOTIFIER_EVENT_CRITICL_HW_ERR,
		   "ecc: GET_EVENTS has CRITICL_HW_ERR (0x%llx)",
		   (unsigned long long)events);
		ok(hl_info(s.fd, HL_INFO_HW_ERR_EVENT, &he, sizeof(he)) == 0 &&
		   he.event_id == EV_HBM0_DERR && he.timestamp,
		   "ecc: INFO HW_ERR_EVENT names event %u", he.event_id);
	}
	if (nl >= 0) {
		uevents_scan(nl, bdf, &r1, &r0);
		ok(r1 && r0, "%s: uevents GAUDI_RESET=1 then GAUDI_RESET=0 on %s",
		   name, bdf);
	} else {
		tap_skip("no uevent socket", "%s: uevents", name);
	}
	ok(!sh.sub_bad && sh.sub_ok,
	   "%s: the submitting thread: %u CSs right, %u ABORTED, %u EBUSY (in reset), %u wrong (last %d)",
	   name, sh.sub_ok, sh.sub_aborted, sh.sub_ebusy, sh.sub_bad,
	   sh.sub_last_bad);
	ok(!sh.op_bad,
	   "%s: the opening thread: %u EBUSY (held), %u EAGAIN (in reset), %u other (last %d)",
	   name, sh.op_ebusy, sh.op_eagain, sh.op_bad, sh.op_last_bad);
	ok(!sh.in_bad && sh.in_inreset,
	   "%s: the INFO thread: %u rounds, DEVICE_STATUS in reset %u times, HW_IDLE EBUSY %u, %u wrong (%s)",
	   name, sh.in_calls, sh.in_inreset, sh.in_busy, sh.in_bad,
	   sh.in_why);
	ok(!sh.sy_bad && sh.sy_calls,
	   "%s: the sysfs thread: %u reads, max_power EIO %u ETIMEDOUT %u, %u wrong (%s)",
	   name, sh.sy_calls, sh.sy_eio, sh.sy_etime, sh.sy_bad, sh.sy_why);
	if (have_other)
		ok(!other.errs && other.n,
		   "%s: accel%d ran %u CSs meanwhile, all right (%s)", name,
		   card + 1, other.n, other.errs ? other.why : "");
	tap_diag("%s: %.1f s from the trigger to operational", name, dt);

	/* Afterwards: the same fd, then a new open. */
	ok(memset_check(s.fd, &s.cb, 0, s.buf + (3 << 20), s.va + (3 << 20),
			4096, 0x3C) == 0,
	   "%s: the same fd's next CS on DMA_0_0 completes with its data", name);
	cb_del(s.fd, &sh.cb);
	sess_close(&s);
	if (ok(sess_open(&s) == 0, "%s: a new open succeeds at once", name)) {
		ok(cs_memset(s.fd, &s.cb, 0, s.va, 8192, 0x2D, &seq) == 0 &&
		   wait_cs(s.fd, seq, WAIT_US, &st, NULL) == 0 &&
		   st == HL_WAIT_CS_STATUS_COMPLETED &&
		   all_bytes(s.buf, 8192, 0x2D) && seq == 1,
		   "%s: its first CS (sequence %llu) completes with its data",
		   name, (unsigned long long)seq);
	}
out:
	model_ctl("set qm_unhang 0xFFFFFFFF");
	if (kind == RS_HEARTBEAT)
		model_ctl("set cpu_hang 0");
	if (efd >= 0)
		close(efd);
	if (nl >= 0)
		close(nl);
	if (s2.fd > 0)
		cb_del(s2.fd, &other.cb);
	sess_close(&s2);
	sess_close(&s);
}

/* ---- close racing a hard reset --------------------------------------------- */

#define CR_SRAM		(64U << 10)

static int cr_close(struct blocked *b)
{
	struct sess *s = b->arg;

	sess_close(s);		/* UNMAP, CB destroy, close: CSs still held */
	return 0;
}

static int cr_reset(struct blocked *b)
{
	(void)b;
	return sysfs_write("hard_reset", "1");
}

/*
 * The holder closes with CSs held on a hung queue while a hard reset runs:
 * (a) close first (it waits for the CSs), then the reset; (b) the reset
 * first, close while it runs.  Close returns once the reset ended the CSs
 * (no second reset), the next open succeeds and reads zeros where the
 * previous holder wrote SRAM.
 */
static void t_closereset(void)
{
	static const char *const names[] = { "close, then reset",
					     "reset, then close" };
	unsigned int v, i;

	if (!hooks_ok()) {
		tap_skip("no model test hooks", "closereset");
		return;
	}
	for (v = 0; v < 2; v++) {
		struct blocked bc, br;
		struct sess s, n;
		uint64_t seq;
		uint32_t c0, c1, st = ~0U;
		double t0;
		int rc = 0;
		size_t len;

		memset(&n, 0, sizeof(n));
		if (!ok(sess_open(&s) == 0, "closereset (%s): open", names[v]))
			return;
		c0 = hard_resets(s.fd);
		/* The holder writes SRAM; then work held on a hung queue. */
		rc = memset_check(s.fd, &s.cb, 1, s.buf, s.va, 64, 0x01);
		len = pkt_lin_dma(s.cb.p, 0, rep8(0xEE), GAUDI_SRAM_USER_START, CR_SRAM,
				  true, true);
		rc |= hl_submit1(s.fd, s.cb.h, len, 1, &seq);
		rc |= wait_cs(s.fd, seq, WAIT_US, &st, NULL);
		model_ctl("set qm_hang 0");
		for (i = 0; i < RS_HELD; i++)
			rc |= cs_memset_held(s.fd, &s.cb, 0, s.va + i * 4096,
					     4096, 0x70 + i, &seq);
		ok(!rc && st == HL_WAIT_CS_STATUS_COMPLETED,
		   "closereset (%s): SRAM written, %u CSs held", names[v],
		   RS_HELD);
		t0 = now_s();
		if (!v) {
			blocked_start(&bc, cr_close, &s);
			ok(blocked_sleeping(&bc, 5),
			   "closereset (%s): close() waits for the held CSs",
			   names[v]);
			blocked_start(&br, cr_reset, NULL);
		} else {
			blocked_start(&br, cr_reset, NULL);
			usleep(100000);
			blocked_start(&bc, cr_close, &s);
		}
		blocked_wait(&br, 30);
		blocked_wait(&bc, 30);
		ok(atomic_load(&bc.done) && bc.t_end - t0 < 8,
		   "closereset (%s): close() returned %.1f s after it began",
		   names[v], bc.t_end - t0);
		ok(atomic_load(&br.done) && br.rc == 0,
		   "closereset (%s): echo 1 > hard_reset: %d", names[v], br.rc);
		pthread_join(bc.t, NULL);
		pthread_join(br.t, NULL);
		rc = sess_open(&n);
		c1 = n.fd > 0 ? hard_resets(n.fd) : 0;
		ok(rc == 0 && c1 == c0 + 1,
		   "closereset (%s): the next open succeeds; one reset (RESET_COUNT %u -> %u)",
		   names[v], c0, c1);
		if (rc == 0) {
			memset(n.buf, 0x55, CR_SRAM);
			len = pkt_lin_dma(n.cb.p, 0, GAUDI_SRAM_USER_START, n.va, CR_SRAM,
					  false, true);
			st = ~0U;
			rc = hl_submit1(n.fd, n.cb.h, len, 0, &seq);
			if (!rc)
				rc = wait_cs(n.fd, seq, WAIT_US, &st, NULL);
			ok(!rc && st == HL_WAIT_CS_STATUS_COMPLETED &&
			   all_bytes(n.buf, CR_SRAM, 0),
			   "closereset (%s): its CS reads zeros where the previous holder wrote SRAM (rc %d, byte 0x%02x)",
			   names[v], rc, n.buf[0]);
		}
		model_ctl("set qm_unhang 0xFFFFFFFF");
		sess_close(&n);
	}
}

/* ---- UNMAP of a mapping a CS in flight writes ------------------------------ */

#define UB_SIZE		(16U << 20)
#define UB_ROUNDS	1	/* it usually costs a reset (page fault) */

/*
 * A CS memsets 16 MiB of a userptr mapping and the mapping is unmapped
 * right after the submit, while the DMA may still run.  Once UNMAP has
 * returned the pages are no longer pinned for the device: had the process
 * freed them, the kernel could reuse them.  So no byte may change after
 * UNMAP returned.  (Seen: the DMA faults on the removed translation, the
 * device is reset and the CS ends ABORTED.)
 */
static void t_unmapbusy(void)
{
	unsigned int r, late = 0, rounds = 0, ended_ok = 0, ended_abort = 0;
	uint8_t *buf = NULL, *snap = NULL;
	uint64_t va, seq;
	uint32_t st;
	struct sess s;
	int rc;

	if (!ok(sess_open(&s) == 0, "unmapbusy: open"))
		goto out;
	if (posix_memalign((void **)&buf, 2 << 20, UB_SIZE) ||
	    !(snap = malloc(UB_SIZE)))
		goto out;
	for (r = 0; r < UB_ROUNDS; r++) {
		uint8_t v = 0xA0 + r;
		size_t i;

		memset(buf, 0, UB_SIZE);
		if (map_host(s.fd, buf, UB_SIZE, &va))
			break;
		rc = cs_memset(s.fd, &s.cb, r % 8, va, UB_SIZE, v, &seq);
		if (unmap_host(s.fd, va) || rc)
			break;
		rounds++;
		memcpy(snap, buf, UB_SIZE);
		usleep(200000);
		st = ~0U;
		rc = wait_cs(s.fd, seq, WAIT_US, &st, NULL);
		if (!rc && st == HL_WAIT_CS_STATUS_COMPLETED)
			ended_ok++;
		else if (rc == -EIO && st == HL_WAIT_CS_STATUS_ABORTED)
			ended_abort++;
		if (!wait_operational(s.fd, 30))
			break;
		for (i = 0; i < UB_SIZE; i += 4096)
			if (memcmp(buf + i, snap + i, 4096)) {
				late++;
				break;
			}
	}
	ok(rounds == UB_ROUNDS && !late,
	   "unmapbusy: %u rounds of UNMAP right after a 16 MiB memset CS: no byte written after UNMAP returned (%u rounds with late writes; CSs %u completed, %u aborted)",
	   rounds, late, ended_ok, ended_abort);
out:
	free(buf);
	free(snap);
	sess_close(&s);
}

/* ---- kernel log ----------------------------------------------------------- */

static const char *const problems =
	"BUG:|WARNING:|Oops|general protection|KASAN|UBSAN|refcount_t|"
	"list_del corruption|blocked for more than|hung_task|lockdep|"
	"possible circular|possible recursive|inconsistent lock|"
	"scheduling while atomic|sleeping function called";

static int dmesg_problems(void)
{
	char cmd[512], line[512];
	FILE *f;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "dmesg 2>/dev/null | grep -cE '%s'",
		 problems);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		n = atoi(line);
	pclose(f);
	return n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ "bin", required_argument, NULL, 'b' },
		{ }
	};
	int opt, i, dmesg0;
	double t0;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			card = atoi(optarg);
			break;
		case 'b':
			bin_dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: gaudi_race_test [--card N] [--bin DIR] TEST...\n");
			return 2;
		}
	}
	card_path(path, sizeof(path), card);
	setvbuf(stdout, NULL, _IOLBF, 0);
	dmesg0 = dmesg_problems();
	tap_diag("card %d, %ld CPUs online", card, sysconf(_SC_NPROCESSORS_ONLN));
	for (i = optind; i < argc; i++) {
		const char *t = argv[i];

		t0 = now_s();
		if (!strcmp(t, "threads"))
			t_threads();
		else if (!strcmp(t, "close"))
			t_close();
		else if (!strcmp(t, "handoff"))
			t_handoff();
		else if (!strcmp(t, "cards"))
			t_cards();
		else if (!strcmp(t, "waitintr"))
			t_waitintr();
		else if (!strcmp(t, "ringfull"))
			t_ringfull();
		else if (!strcmp(t, "reset"))
			t_reset(RS_SYSFS);
		else if (!strcmp(t, "heartbeat"))
			t_reset(RS_HEARTBEAT);
		else if (!strcmp(t, "ecc"))
			t_reset(RS_ECC);
		else if (!strcmp(t, "closereset"))
			t_closereset();
		else if (!strcmp(t, "unmapbusy"))
			t_unmapbusy();
		else if (!strcmp(t, "dmesg"))
			ok(dmesg_problems() == dmesg0,
			   "no kernel problem in dmesg since the start (%d lines before, %d now)",
			   dmesg0, dmesg_problems());
		else
			ok(0, "unknown test %s", t);
		tap_diag("%s: %.1f s", t, now_s() - t0);
	}
	return tap_done();
}
