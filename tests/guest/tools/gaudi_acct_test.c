// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_acct_test: DRM_IOCTL_GAUDI_ACCOUNTING against work whose size the
 * test knows (issue 14).  Runs in the tools suite's guest on gaudi.ko.
 *
 *   gaudi_acct_test job CARD N      N jobs, one after the other, each a
 *                                   process that holds the card, allocates
 *                                   and frees HBM, maps host memory, runs
 *                                   DMA memsets and reads its own fdinfo;
 *                                   the parent checks the running record
 *                                   while the job holds the card and the
 *                                   exited one after.  Prints "# job PID
 *                                   ID" for the suite's gaudi-smi checks.
 *   gaudi_acct_test bound CARD      more holdings than the driver keeps:
 *                                   the oldest go, the newest stay
 *   gaudi_acct_test negative CARD   every argument the ioctl refuses, and
 *                                   the strides of ABI 1.2 (184) and more
 *   gaudi_acct_test cgroup CARD     a holder in a cgroup of its own: its
 *                                   cgroup v2 path in the running and the
 *                                   exited record, also once the cgroup is
 *                                   gone; in a child cgroup namespace the
 *                                   path is relative to it
 *
 * Tolerances: engine time is measured by the driver from a submission's
 * push to its completion, so it is at most the time the job saw each
 * submission take (submit to wait return) and, for 32 MiB memsets, at
 * least a quarter of it.  Energy is at most the card's power cap times
 * the holding's wall time (the model never draws more than the cap) and at
 * most what the card's counter advanced around the job.  Everything else
 * (submissions, peak memory, the fdinfo busy time) must match exactly.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* unshare() */
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hl_ioctl.h"
#include "tap.h"
#include <drm/gaudi_accel.h>

#define JOB_CSS		5
#define JOB_MEMSET	(32U << 20)
#define JOB_HOST	(8U << 20)
#define JOB_CB		(64U << 10)
#define MAX_RECS	1100

static int card;

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int open_ctrl(void)
{
	char p[64];

	snprintf(p, sizeof(p), "/dev/accel/accel_controlD%d", card);
	return open(p, O_RDWR | O_CLOEXEC);
}

static int open_compute(void)
{
	char p[64];

	snprintf(p, sizeof(p), "/dev/accel/accel%d", card);
	return hl_open_retry(p);
}

/* All records, oldest first, into @r (MAX_RECS); count or -errno. */
static int acct_read(int fd, struct drm_gaudi_acct_record *r,
		     struct drm_gaudi_accounting *out)
{
	struct drm_gaudi_accounting a;

	memset(&a, 0, sizeof(a));
	a.records = (uintptr_t)r;
	a.count = MAX_RECS;
	a.record_size = sizeof(*r);
	if (ioctl(fd, DRM_IOCTL_GAUDI_ACCOUNTING, &a))
		return -errno;
	if (out)
		*out = a;
	return (int)a.count;
}

static uint64_t energy_now(int ctrl)
{
	struct hl_info_energy e = { 0 };

	hl_info(ctrl, HL_INFO_TOTAL_ENERGY, &e, sizeof(e));
	return e.total_energy_consumption;
}

static long long cap_mw(void)
{
	char bdf[32], p[128];
	long long v = -1;
	FILE *f;

	if (hl_card_bdf(card, bdf, sizeof(bdf)))
		return -1;
	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/max_power", bdf);
	f = fopen(p, "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* What the job reports to its parent through a pipe. */
struct job_report {
	int ok;			/* every step of the job worked */
	long long fd_dma, fd_mme, fd_tpc;	/* its fdinfo, at the end */
	long long cs_ns;	/* sum of submit-to-wait-return times */
	long long held_ns;	/* from open's return to the close call */
	int running_seen;	/* its own record, read on the compute node */
};

/*
 * The job: HBM 32 + 16 MiB, 16 freed, 8 more (peak 48 MiB); an 8 MiB host
 * buffer and a 64 KiB CB (peak host 8 MiB + 64 KiB); JOB_CSS memsets of
 * 32 MiB of HBM on DMA 0.  Then it reports and waits for the parent's
 * word before it closes.
 */
static void job(int wr, int rd)
{
	struct job_report rep = { 0 };
	struct drm_gaudi_acct_record *r = calloc(MAX_RECS, sizeof(*r));
	uint64_t h1 = 0, h2 = 0, h3 = 0, addr = 0;
	long long t_open, t0;
	struct hl_sess s;
	int i, n, fails = 0;
	char go;

	if (!r || !hl_sess_open(&s, open_compute(), JOB_CB, JOB_HOST, 2 << 20))
		_exit(1);
	t_open = mono_ns();
	if (hl_mem_alloc(s.fd, 32 << 20, 0, 0, &h1) ||
	    hl_mem_alloc(s.fd, 16 << 20, 0, 0, &h2) ||
	    hl_mem_free(s.fd, h2) ||
	    hl_mem_alloc(s.fd, 8 << 20, 0, 0, &h3) ||
	    hl_mem_map(s.fd, h1, &addr))
		fails++;
	for (i = 0; i < JOB_CSS && !fails; i++) {
		size_t len = pkt_lin_dma(s.cbp, 0, 0xA5A5A5A5, addr,
					 JOB_MEMSET, true, false);

		t0 = mono_ns();
		if (hl_sess_run(&s, len, GAUDI_QUEUE_ID_DMA_0_0, 30000000))
			fails++;
		rep.cs_ns += mono_ns() - t0;
	}
	rep.fd_dma = hl_fdinfo(s.fd, "drm-engine-dma");
	rep.fd_mme = hl_fdinfo(s.fd, "drm-engine-mme");
	rep.fd_tpc = hl_fdinfo(s.fd, "drm-engine-tpc");
	/* Its own record, on the compute node: the running one, last. */
	n = acct_read(s.fd, r, NULL);
	rep.running_seen = n > 0 && r[n - 1].pid == getpid() &&
			   (r[n - 1].flags & GAUDI_ACCT_RUNNING) &&
			   r[n - 1].cs_submitted == JOB_CSS;
	rep.ok = !fails;
	if (write(wr, &rep, sizeof(rep)) != sizeof(rep) ||
	    read(rd, &go, 1) != 1)
		_exit(1);
	rep.held_ns = mono_ns() - t_open;
	hl_sess_close(&s);	/* CB, userptr and the node; HBM with it */
	if (write(wr, &rep, sizeof(rep)) != sizeof(rep))
		_exit(1);
	free(r);
	_exit(0);
}

static const struct drm_gaudi_acct_record *
find_pid(const struct drm_gaudi_acct_record *r, int n, int pid, int *count)
{
	const struct drm_gaudi_acct_record *hit = NULL;
	int i;

	*count = 0;
	for (i = 0; i < n; i++)
		if (r[i].pid == pid) {
			hit = &r[i];
			(*count)++;
		}
	return hit;
}

static void one_job(int ctrl, struct drm_gaudi_acct_record *r, int k,
		    uint64_t *last_id)
{
	int to_job[2], from_job[2], n, cnt, status;
	const struct drm_gaudi_acct_record *e;
	struct job_report rep, rep2;
	struct drm_gaudi_owner own;
	uint64_t e0, e1;
	long long t0, t_all, cap = cap_mw();
	pid_t pid;
	char go = 'g';

	if (pipe(to_job) || pipe(from_job)) {
		ok(0, "job %d: pipes", k);
		return;
	}
	e0 = energy_now(ctrl);
	t0 = mono_ns();
	pid = fork();
	if (pid == 0) {
		close(to_job[1]);
		close(from_job[0]);
		job(from_job[1], to_job[0]);
	}
	close(to_job[0]);
	close(from_job[1]);
	if (read(from_job[0], &rep, sizeof(rep)) != sizeof(rep)) {
		ok(0, "job %d (pid %d) died before it reported", k, pid);
		waitpid(pid, NULL, 0);
		return;
	}
	ok(rep.ok, "job %d (pid %d): HBM, host map and %d memsets of 32 MiB ran",
	   k, pid, JOB_CSS);
	ok(rep.running_seen,
	   "job %d: on its compute node, its own record is the last, running, %d submissions",
	   k, JOB_CSS);

	/* While it holds the card, idle: the running record. */
	memset(&own, 0, sizeof(own));
	ioctl(ctrl, DRM_IOCTL_GAUDI_OWNER, &own);
	n = acct_read(ctrl, r, NULL);
	e = n > 0 ? &r[n - 1] : NULL;
	ok(e && e->pid == pid && (e->flags & GAUDI_ACCT_RUNNING) &&
	   e->id == own.open_counter && !strcmp((char *)e->comm, "gaudi_acct_test"),
	   "job %d: the control node's last record is the job's, running, id %llu = the open counter",
	   k, e ? (unsigned long long)e->id : 0ULL);
	if (e)
		ok((long long)e->busy_ns[GAUDI_ENGINE_CLASS_DMA] == rep.fd_dma &&
		   (long long)e->busy_ns[GAUDI_ENGINE_CLASS_MME] == rep.fd_mme &&
		   (long long)e->busy_ns[GAUDI_ENGINE_CLASS_TPC] == rep.fd_tpc &&
		   e->cs_submitted == JOB_CSS,
		   "job %d running: busy time per class equals the job's fdinfo (dma %lld ns), %llu submissions",
		   k, rep.fd_dma, (unsigned long long)e->cs_submitted);

	if (write(to_job[1], &go, 1) != 1 ||
	    read(from_job[0], &rep2, sizeof(rep2)) != sizeof(rep2))
		ok(0, "job %d: did not close", k);
	waitpid(pid, &status, 0);
	t_all = mono_ns() - t0;
	e1 = energy_now(ctrl);
	close(to_job[1]);
	close(from_job[0]);

	n = acct_read(ctrl, r, NULL);
	e = find_pid(r, n, pid, &cnt);
	ok(WIFEXITED(status) && !WEXITSTATUS(status) && e && cnt == 1 &&
	   !(e->flags & GAUDI_ACCT_RUNNING),
	   "job %d exited: its record appears once (%d), not running", k, cnt);
	if (!e)
		return;
	ok(!*last_id || e->id == *last_id + 1,
	   "job %d: id %llu follows the previous job's", k,
	   (unsigned long long)e->id);
	*last_id = e->id;
	ok((long long)e->busy_ns[GAUDI_ENGINE_CLASS_DMA] == rep.fd_dma &&
	   e->busy_ns[GAUDI_ENGINE_CLASS_MME] == 0 &&
	   e->busy_ns[GAUDI_ENGINE_CLASS_TPC] == 0 &&
	   e->busy_ns[GAUDI_ENGINE_CLASS_NIC] == 0,
	   "job %d: DMA busy %lld ns as its fdinfo said; MME, TPC, NIC 0", k,
	   (long long)e->busy_ns[GAUDI_ENGINE_CLASS_DMA]);
	ok((long long)e->busy_ns[GAUDI_ENGINE_CLASS_DMA] <= rep.cs_ns &&
	   (long long)e->busy_ns[GAUDI_ENGINE_CLASS_DMA] * 4 >= rep.cs_ns,
	   "job %d: DMA busy %lld ns within [1/4, 1] of the %lld ns its submissions took",
	   k, (long long)e->busy_ns[GAUDI_ENGINE_CLASS_DMA], rep.cs_ns);
	ok(e->cs_submitted == JOB_CSS, "job %d: %llu submissions (%d)", k,
	   (unsigned long long)e->cs_submitted, JOB_CSS);
	ok(e->peak_hbm_bytes == 48ULL << 20,
	   "job %d: peak HBM %llu MiB (48: 32 + 16, freed, + 8)", k,
	   (unsigned long long)(e->peak_hbm_bytes >> 20));
	ok(e->peak_host_bytes >= JOB_HOST + JOB_CB &&
	   e->peak_host_bytes <= JOB_HOST + JOB_CB + 4096,
	   "job %d: peak host memory %llu KiB (8 MiB mapped + a 64 KiB CB)", k,
	   (unsigned long long)(e->peak_host_bytes >> 10));
	ok((long long)e->wall_ns >= rep2.held_ns && (long long)e->wall_ns <= t_all,
	   "job %d: wall %lld ms between what the job held (%lld ms) and its life (%lld ms)",
	   k, (long long)e->wall_ns / 1000000, rep2.held_ns / 1000000,
	   t_all / 1000000);
	ok((e->flags & GAUDI_ACCT_ENERGY) && e->energy_uj > 0 &&
	   e->energy_uj <= e1 - e0 && cap > 0 &&
	   (double)e->energy_uj <= (double)cap * (double)e->wall_ns / 1e6,
	   "job %d: energy %.3f J > 0, within the card's counter around it (%.3f J) and cap x wall (%lld mW x %lld ms)",
	   k, (double)e->energy_uj / 1e6, (double)(e1 - e0) / 1e6, cap,
	   (long long)e->wall_ns / 1000000);
	tap_diag("job %d %llu", pid, (unsigned long long)e->id);
}

static void t_job(int jobs)
{
	struct drm_gaudi_acct_record *r = calloc(MAX_RECS, sizeof(*r));
	struct drm_gaudi_accounting a;
	uint64_t last = 0;
	int ctrl = open_ctrl(), k;

	if (!ok(ctrl >= 0 && r, "control node of card %d", card))
		return;
	ok(acct_read(ctrl, r, &a) >= 0 && a.record_size == sizeof(*r) &&
	   a.max_kept > 0, "ACCOUNTING: record size %u, keeps %u exited holders",
	   a.record_size, a.max_kept);
	for (k = 0; k < jobs; k++)
		one_job(ctrl, r, k, &last);
	close(ctrl);
	free(r);
}

/* More holdings than the driver keeps. */
static void t_bound(void)
{
	struct drm_gaudi_acct_record *r = calloc(MAX_RECS, sizeof(*r));
	struct drm_gaudi_accounting a;
	struct drm_gaudi_owner own;
	int ctrl = open_ctrl(), n, i, fails = 0;
	bool seq = true;

	if (!ok(ctrl >= 0 && r, "bound: control node"))
		return;
	n = acct_read(ctrl, r, &a);
	for (i = 0; i < (int)a.max_kept + 6; i++) {
		int fd = open_compute();

		if (fd < 0)
			fails++;
		else
			close(fd);
	}
	memset(&own, 0, sizeof(own));
	ioctl(ctrl, DRM_IOCTL_GAUDI_OWNER, &own);
	n = acct_read(ctrl, r, &a);
	ok(!fails && n == (int)a.max_kept && a.available == a.max_kept,
	   "%u opens and closes: %d records kept, %u available (the bound)",
	   a.max_kept + 6, n, a.available);
	for (i = 1; i < n; i++)
		if (r[i].id != r[i - 1].id + 1)
			seq = false;
	ok(n > 0 && seq && r[n - 1].id == own.open_counter &&
	   r[n - 1].pid == getpid() && !(r[n - 1].flags & GAUDI_ACCT_RUNNING),
	   "the newest %d, oldest first, consecutive ids up to the open counter %llu",
	   n, (unsigned long long)own.open_counter);
	ok(r[n - 1].cs_submitted == 0 && r[n - 1].busy_ns[0] == 0 &&
	   r[n - 1].peak_hbm_bytes == 0 && r[n - 1].peak_host_bytes == 0,
	   "an open and close without work: nothing counted");
	close(ctrl);
	free(r);
}

static int acct_call(int fd, struct drm_gaudi_accounting *a)
{
	return ioctl(fd, DRM_IOCTL_GAUDI_ACCOUNTING, a) ? -errno : 0;
}

static void t_negative(void)
{
	static const struct {
		const char *what;
		uint32_t count, size, flags, pad, res;
		uint64_t ptr;
		int err;
	} c[] = {
		{ "flags 1", 1, 184, 1, 0, 0, 0, -EINVAL },
		{ "flags bit 31", 1, 184, 1U << 31, 0, 0, 0, -EINVAL },
		{ "pad 1", 1, 184, 0, 1, 0, 0, -EINVAL },
		{ "reserved[3] 1", 1, 184, 0, 0, 1, 0, -EINVAL },
		{ "record size 176 (short of V1)", 1, 176, 0, 0, 0, 0, -EINVAL },
		{ "record size 0", 1, 0, 0, 0, 0, 0, -EINVAL },
		{ "record size 188 (not a multiple of 8)", 1, 188, 0, 0, 0, 0, -EINVAL },
		{ "record size 4104", 1, 4104, 0, 0, 0, 0, -EINVAL },
		{ "record size 0xFFFFFFF8", 1, 0xFFFFFFF8U, 0, 0, 0, 0, -EINVAL },
		{ "records pointer 16", 4, 184, 0, 0, 0, 16, -EFAULT },
		{ "records pointer in the kernel", 4, 184, 0, 0, 0,
		  0xFFFF888000000000ULL, -EFAULT },
	};
	struct drm_gaudi_acct_record rec[2];
	struct drm_gaudi_accounting a;
	uint8_t big[2][1024];
	int ctrl = open_ctrl();
	unsigned int i;
	bool zero = true;

	if (!ok(ctrl >= 0, "negative: control node"))
		return;
	/* a holding to have a record to copy */
	close(open_compute());
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int ret;

		memset(&a, 0, sizeof(a));
		a.count = c[i].count;
		a.record_size = c[i].size;
		a.flags = c[i].flags;
		a.pad = c[i].pad;
		a.reserved[3] = c[i].res;
		a.records = c[i].ptr ? c[i].ptr : (uintptr_t)big;
		ret = acct_call(ctrl, &a);
		ok(ret == c[i].err, "ACCOUNTING %s: %s (%s)", c[i].what,
		   strerror(-c[i].err), strerror(-ret));
	}
	memset(&a, 0, sizeof(a));
	ok(acct_call(ctrl, &a) == 0 && a.count == 0 && a.available > 0 &&
	   a.record_size == sizeof(rec[0]),
	   "count 0, no pointer: %u available, record size %u", a.available,
	   a.record_size);
	memset(big, 0xFF, sizeof(big));
	memset(&a, 0, sizeof(a));
	a.records = (uintptr_t)big;
	a.count = 2;
	a.record_size = sizeof(big[0]);
	for (i = sizeof(rec[0]); i < sizeof(big[0]); i++)
		if (big[0][i] != 0xFF)
			zero = false;
	ok(acct_call(ctrl, &a) == 0 && a.count >= 1 &&
	   a.record_size == sizeof(rec[0]), "record size 1024: %u records",
	   a.count);
	for (i = sizeof(rec[0]); i < sizeof(big[0]); i++)
		if (big[0][i])
			zero = false;
	memcpy(&rec[0], big[0], sizeof(rec[0]));
	ok(zero && rec[0].id && !rec[0].pad &&
	   !rec[0].reserved[0] && !rec[0].reserved[3],
	   "the %zu bytes past the driver's record are zeroed, pad and reserved 0",
	   sizeof(big[0]) - sizeof(rec[0]));
	/* A caller of ABI 1.2..1.4: 184-byte records, the cgroup not written */
	memset(big, 0xFF, sizeof(big));
	memset(&a, 0, sizeof(a));
	a.records = (uintptr_t)big;
	a.count = 2;
	a.record_size = GAUDI_ACCT_RECORD_SIZE_V1;
	zero = true;
	for (i = 2 * GAUDI_ACCT_RECORD_SIZE_V1; i < sizeof(big[0]); i++)
		if (big[0][i] != 0xFF)
			zero = false;
	ok(acct_call(ctrl, &a) == 0 && a.count == 2 && zero &&
	   a.record_size == GAUDI_ACCT_RECORD_SIZE_V2 &&
	   ((struct drm_gaudi_acct_record *)big[0])->id + 1 ==
	   ((struct drm_gaudi_acct_record *)(big[0] +
	    GAUDI_ACCT_RECORD_SIZE_V1))->id,
	   "record size 184 (ABI 1.2): two records at a stride of 184, nothing written past them");
	memset(&a, 0, sizeof(a));
	a.records = (uintptr_t)rec;
	a.count = 1;
	a.record_size = sizeof(rec[0]);
	ok(acct_call(ctrl, &a) == 0 && a.count == 1 && a.available >= 1,
	   "count 1 of %u: one record (the newest)", a.available);
	close(ctrl);
}

/* ---- cgroup ------------------------------------------------------------- */

#define CG_ROOT	"/sys/fs/cgroup"
#define CG_NAME	"gaudi-acct-test.scope"

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

/* The record of holding @pid among @n of @r, or NULL. */
static struct drm_gaudi_acct_record *rec_of(struct drm_gaudi_acct_record *r,
					    int n, int pid)
{
	int i;

	for (i = n - 1; i >= 0; i--)
		if (r[i].pid == pid)
			return &r[i];
	return NULL;
}

static void t_cgroup(void)
{
	struct drm_gaudi_acct_record *r = calloc(MAX_RECS, sizeof(*r)), *e;
	int ctrl = open_ctrl(), go[2], done[2], n, st, pid;
	char procs[128], c;
	struct stat sb;

	if (!ok(r && ctrl >= 0 && !pipe(go) && !pipe(done), "cgroup: set-up"))
		return;
	/* the guest may not have cgroup2 mounted yet */
	if (stat(CG_ROOT "/cgroup.procs", &sb)) {
		mkdir(CG_ROOT, 0755);
		if (mount("none", CG_ROOT, "cgroup2", 0, NULL) && errno != EBUSY) {
			ok(0, "cgroup: mount cgroup2 at " CG_ROOT ": %s",
			   strerror(errno));
			return;
		}
	}
	rmdir(CG_ROOT "/" CG_NAME);
	if (!ok(!mkdir(CG_ROOT "/" CG_NAME, 0755), "cgroup: made " CG_NAME))
		return;
	pid = fork();
	if (pid == 0) {
		int fd;

		snprintf(procs, sizeof(procs), "%d", getpid());
		if (write_file(CG_ROOT "/" CG_NAME "/cgroup.procs", procs))
			_exit(2);
		fd = open_compute();
		if (fd < 0)
			_exit(3);
		if (write(done[1], "h", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(4);
		close(fd);
		_exit(0);
	}
	if (read(done[0], &c, 1) != 1) {
		ok(0, "cgroup: the holder did not start");
		return;
	}
	n = acct_read(ctrl, r, NULL);
	e = n > 0 ? rec_of(r, n, pid) : NULL;
	ok(e && (e->flags & GAUDI_ACCT_RUNNING) &&
	   !strcmp(e->cgroup, "/" CG_NAME) &&
	   !(e->flags & GAUDI_ACCT_CGROUP_TRUNC),
	   "cgroup: the running holder's record names its cgroup (%s)",
	   e ? e->cgroup : "no record");
	if (write(go[1], "g", 1) != 1 || waitpid(pid, &st, 0) != pid ||
	    !WIFEXITED(st) || WEXITSTATUS(st)) {
		ok(0, "cgroup: the holder failed");
		return;
	}
	n = acct_read(ctrl, r, NULL);
	e = n > 0 ? rec_of(r, n, pid) : NULL;
	ok(e && !(e->flags & GAUDI_ACCT_RUNNING) &&
	   !strcmp(e->cgroup, "/" CG_NAME),
	   "cgroup: the exited record keeps it (%s)", e ? e->cgroup : "none");
	ok(!rmdir(CG_ROOT "/" CG_NAME), "cgroup: the emptied cgroup removed");
	n = acct_read(ctrl, r, NULL);
	e = n > 0 ? rec_of(r, n, pid) : NULL;
	ok(e && !strcmp(e->cgroup, "/" CG_NAME),
	   "cgroup: the record names it after its removal too (%s)",
	   e ? e->cgroup : "none");
	/* a tool in a cgroup namespace rooted elsewhere: "/.." above it */
	pid = fork();
	if (pid == 0) {
		mkdir(CG_ROOT "/gaudi-acct-ns", 0755);
		snprintf(procs, sizeof(procs), "%d", getpid());
		if (write_file(CG_ROOT "/gaudi-acct-ns/cgroup.procs", procs) ||
		    unshare(CLONE_NEWCGROUP))
			_exit(2);
		n = acct_read(ctrl, r, NULL);
		for (st = n - 1; st >= 0; st--)
			if (!strcmp(r[st].cgroup, "/../" CG_NAME))
				_exit(0);
		_exit(1);
	}
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	   WEXITSTATUS(st) == 0,
	   "cgroup: in a cgroup namespace rooted at a sibling the path is /../" CG_NAME);
	rmdir(CG_ROOT "/gaudi-acct-ns");	/* its one process exited */
	free(r);
	close(ctrl);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: gaudi_acct_test job CARD N | bound CARD | negative CARD | cgroup CARD\n");
		return 2;
	}
	card = atoi(argv[2]);
	signal(SIGPIPE, SIG_IGN);
	if (!strcmp(argv[1], "job") && argc == 4)
		t_job(atoi(argv[3]));
	else if (!strcmp(argv[1], "bound"))
		t_bound();
	else if (!strcmp(argv[1], "negative"))
		t_negative();
	else if (!strcmp(argv[1], "cgroup"))
		t_cgroup();
	else
		ok(0, "unknown test %s", argv[1]);
	return tap_done();
}
