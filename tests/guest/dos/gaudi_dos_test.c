// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Denial of service through the control node (issue 10), on gaudi.ko with
 * a short heartbeat (the suite loads it with heartbeat_ms=100):
 *
 *   1. an unprivileged user on the control node may read health and
 *      identity, but not the holder's captured errors, mappings or the
 *      card's signatures (EPERM); root may;
 *   2. while that user hammers the control node from 8 threads (every INFO
 *      op, huge and odd sizes, 1 MiB firmware requests, FLASH INFO, and one
 *      thread blocked in the kernel on a userfaultfd buffer that never
 *      faults in), the holder runs 10,000 CSs: all complete, no reset
 *      happens, no request of the holder fails;
 *   3. with the blocked thread still blocked, a hard reset requested by
 *      root completes in bounded time and the card is operational again.
 *
 *   gaudi_dos_test [--card N] [--cs N]
 *
 * Run as root; prints TAP, ends with "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hl_ioctl.h"
#include "drm/gaudi_accel.h"
#include "tap.h"

/* enum hl_passthrough_type of the 6.12 uapi; older headers lack it. */
#define GAUDI_PASSTHROUGH_VERSIONS	0

#define NOBODY		65534
#define ATTACKERS	8
#define BIG		(1U << 20)

static int card;
static unsigned int ncs = 10000;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_ctrl(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/accel/accel_controlD%d", card);
	return open(path, O_RDWR | O_CLOEXEC);
}

static int info(int fd, uint32_t op, void *buf, uint32_t size)
{
	struct hl_info_args a;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.return_pointer = (uintptr_t)buf;
	a.return_size = size;
	if (op == HL_INFO_FW_GENERIC_REQ)
		a.fw_sub_opcode = GAUDI_PASSTHROUGH_VERSIONS;
	return xioctl(fd, DRM_IOCTL_HL_INFO, &a);
}

static unsigned long sysfs_ul(const char *attr)
{
	char path[128], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/%s",
		 card, attr);
	f = fopen(path, "r");
	if (!f)
		return ~0UL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtoul(buf, NULL, 0);
}

static int sysfs_write(const char *attr, const char *val)
{
	char path[128];
	int fd, rc;

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/%s",
		 card, attr);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	rc = write(fd, val, strlen(val)) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

/* ---- results of a child, reported over a pipe --------------------------- */

struct rec {
	int ok;
	char what[120];
};

static void report(int wfd, int cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void report(int wfd, int cond, const char *fmt, ...)
{
	struct rec r = { .ok = cond };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r.what, sizeof(r.what), fmt, ap);
	va_end(ap);
	if (write(wfd, &r, sizeof(r)) != sizeof(r))
		_exit(3);
}

static void collect(int rfd)
{
	struct rec r;

	while (read(rfd, &r, sizeof(r)) == sizeof(r))
		tap_ok(r.ok, "%s", r.what);
}

static int drop_to_nobody(void)
{
	return setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	       setresuid(NOBODY, NOBODY, NOBODY) ? -errno : 0;
}

/* ---- 1: what the control node shows whom -------------------------------- */

static const uint32_t priv_ops[] = {
	HL_INFO_CS_TIMEOUT_EVENT, HL_INFO_RAZWI_EVENT,
	HL_INFO_UNDEFINED_OPCODE_EVENT, HL_INFO_PAGE_FAULT_EVENT,
	HL_INFO_USER_MAPPINGS, HL_INFO_HW_ERR_EVENT, HL_INFO_FW_ERR_EVENT,
	HL_INFO_USER_ENGINE_ERR_EVENT, HL_INFO_SECURED_ATTESTATION,
	HL_INFO_DEV_SIGNED,
};

static void test_privacy(void)
{
	static uint8_t buf[BIG];
	int p[2], st, fd, i;
	pid_t pid;

	if (!ok(pipe(p) == 0, "privacy: pipe"))
		return;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		report(p[1], drop_to_nobody() == 0, "privacy: uid %d", NOBODY);
		fd = open_ctrl();
		report(p[1], fd >= 0, "privacy: nobody opens the control node");
		report(p[1], info(fd, HL_INFO_HW_IP_INFO, buf, 4096) == 0,
		       "privacy: nobody reads HW_IP_INFO");
		report(p[1], info(fd, HL_INFO_DEVICE_STATUS, buf, 4096) == 0,
		       "privacy: nobody reads DEVICE_STATUS");
		for (i = 0; i < (int)(sizeof(priv_ops) / sizeof(priv_ops[0])); i++) {
			int rc = info(fd, priv_ops[i], buf, 4096);

			report(p[1], rc == -EPERM,
			       "privacy: nobody's INFO op %u: EPERM (%d)",
			       priv_ops[i], rc);
		}
		_exit(0);
	}
	close(p[1]);
	collect(p[0]);
	close(p[0]);
	ok(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	   "privacy: the unprivileged child ended");

	fd = open_ctrl();
	for (i = 0; i < (int)(sizeof(priv_ops) / sizeof(priv_ops[0])); i++) {
		int rc = info(fd, priv_ops[i], buf, sizeof(buf));

		ok(rc != -EPERM, "privacy: root's INFO op %u is answered (%d)",
		   priv_ops[i], rc);
	}
	close(fd);
}

/* ---- 2 and 3: hammering while the holder works -------------------------- */

struct attacker {
	int fd;
	int id;
	unsigned long calls, oom, other;
	int other_rc;
	uint32_t other_op;
};

static volatile int stop;
static void *uffd_area;

/* The errors a call of the hammer may get without anything being wrong. */
static int expected(int rc, uint32_t op)
{
	switch (rc) {
	case 0:
	case -EINVAL:
	case -EPERM:
	case -EOPNOTSUPP:
	case -EFAULT:	/* sizes beyond the buffer */
	case -EBUSY:
		return 1;
	case -EIO:	/* the model's firmware has no passthrough request */
		return op == HL_INFO_FW_GENERIC_REQ;
	default:
		return 0;
	}
}

/* Every op with sizes from 0 to 4 GiB - 1, into a 1 MiB buffer. */
static void *hammer(void *arg)
{
	static const uint32_t sizes[] = { 0, 1, 8, 4096, BIG, 0xFFFFFFFFU };
	struct attacker *a = arg;
	uint8_t *buf = malloc(BIG);
	unsigned int i = 0;

	while (!stop && buf) {
		uint32_t op = i % 40, sz = sizes[(i / 40) % 6];
		int rc;

		if (a->id & 1)
			op = HL_INFO_FW_GENERIC_REQ, sz = BIG;
		rc = info(a->fd, op, buf, sz);
		a->calls++;
		if (rc == -ENOMEM)
			a->oom++;
		else if (!expected(rc, op)) {
			a->other++;
			a->other_rc = rc;
			a->other_op = op;
		}
		i++;
	}
	free(buf);
	return NULL;
}

/*
 * Blocks in the kernel's copy to a page nobody will ever fill: an INFO op
 * that asks the device CPU, and FLASH INFO, both of which hold off resets
 * while they talk to the device.
 */
static void *blocker(void *arg)
{
	struct attacker *a = arg;
	struct drm_gaudi_flash f;

	if (a->id & 1) {
		memset(&f, 0, sizeof(f));
		f.op = GAUDI_FLASH_OP_INFO;
		f.data = (uintptr_t)uffd_area;
		f.size = 4096;
		xioctl(a->fd, DRM_IOCTL_GAUDI_FLASH, &f);
	} else {
		info(a->fd, HL_INFO_CLK_RATE, uffd_area, 4096);
	}
	return NULL;
}

static int make_uffd(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	int uffd;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return -1;
	uffd_area = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (uffd_area == MAP_FAILED)
		return -1;
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)uffd_area;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	return ioctl(uffd, UFFDIO_REGISTER, &reg) ? -1 : uffd;
}

/* The attacker: a child as nobody, until killed; reports on a pipe. */
static void attacker_main(int wfd, int go_fd)
{
	struct attacker a[ATTACKERS + 2];
	pthread_t t[ATTACKERS + 2];
	unsigned long calls = 0, oom = 0, other = 0;
	int uffd, i, orc = 0;
	uint32_t oop = 0;
	char c;

	uffd = make_uffd();	/* as root: kernel-mode faults wait too */
	report(wfd, uffd >= 0, "dos: a userfaultfd page that is never filled");
	report(wfd, drop_to_nobody() == 0, "dos: attacker runs as uid %d",
	       NOBODY);
	for (i = 0; i < ATTACKERS + 2; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].fd = open_ctrl();
		a[i].id = i;
		if (a[i].fd < 0)
			_exit(2);
	}
	pthread_create(&t[ATTACKERS], NULL, blocker, &a[ATTACKERS]);
	pthread_create(&t[ATTACKERS + 1], NULL, blocker, &a[ATTACKERS + 1]);
	for (i = 0; i < ATTACKERS; i++)
		pthread_create(&t[i], NULL, hammer, &a[i]);
	/* Run until the holder is done (the parent closes go_fd). */
	if (read(go_fd, &c, 1) < 0)
		c = 0;
	stop = 1;
	for (i = 0; i < ATTACKERS; i++) {
		pthread_join(t[i], NULL);
		calls += a[i].calls;
		oom += a[i].oom;
		other += a[i].other;
		if (a[i].other) {
			orc = a[i].other_rc;
			oop = a[i].other_op;
		}
	}
	report(wfd, calls > 0 && other == 0,
	       "dos: %lu control-node calls from %d threads, %lu ENOMEM, %lu unexpected errors (last: op %u, %d)",
	       calls, ATTACKERS, oom, other, oop, orc);
	report(wfd, 1, "dos: two threads still blocked on the userfaultfd page");
	close(wfd);
	/* The blocked thread stays until the parent kills the process. */
	pause();
	_exit(0);
}

static int run_holder(unsigned int n, double *secs)
{
	char path[64];
	uint64_t cb, seq = 0;
	uint8_t *p;
	unsigned int i, done = 0;
	uint32_t st;
	int fd, rc = 0;
	double t0 = now();

	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	fd = hl_open_retry(path);
	if (fd < 0)
		return -1;
	if (cb_create(fd, 4096, 0, &cb)) {
		close(fd);
		return -1;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)cb);
	if (p == MAP_FAILED) {
		close(fd);
		return -1;
	}
	hl_pkt8(p, 0, PKT_NOP, 0, 0);
	for (i = 0; i < n; i++) {
		rc = hl_submit1(fd, cb, 8, i % 8, &seq);
		if (rc)
			break;
		/* Every 256 CSs, wait for the newest: all before it ended. */
		if (i % 256 == 255 || i == n - 1) {
			rc = wait_cs(fd, seq, 30000000, &st, NULL);
			if (rc || st != HL_WAIT_CS_STATUS_COMPLETED) {
				rc = rc ? rc : -EIO;
				break;
			}
			done = i + 1;
		}
	}
	munmap(p, 4096);
	close(fd);
	*secs = now() - t0;
	return rc ? rc : (int)done;
}

static void test_dos(void)
{
	unsigned long resets0 = sysfs_ul("hard_reset_cnt"), resets1;
	int res[2], go[2], st = 0, n, wrote;
	double secs = 0, t0, t_reset;
	pid_t pid, wpid;

	if (!ok(pipe(res) == 0 && pipe(go) == 0, "dos: pipes"))
		return;
	pid = fork();
	if (pid == 0) {
		close(res[0]);
		close(go[1]);
		attacker_main(res[1], go[0]);
	}
	close(res[1]);
	close(go[0]);
	usleep(300000);		/* let the hammering start */

	n = run_holder(ncs, &secs);
	ok(n == (int)ncs, "dos: the holder's %u CSs all completed (%d) in %.1f s",
	   ncs, n, secs);
	resets1 = sysfs_ul("hard_reset_cnt");
	ok(resets1 == resets0, "dos: no reset happened (hard_reset_cnt %lu -> %lu)",
	   resets0, resets1);
	close(go[1]);
	collect(res[0]);
	close(res[0]);

	/*
	 * A reset requested by root, with the blocked readers still there;
	 * from a child, so that a reset that cannot start is reported (and
	 * then freed by killing the attacker) instead of hanging the test.
	 */
	t0 = now();
	wpid = fork();
	if (wpid == 0)
		_exit(sysfs_write("hard_reset", "1") ? 1 : 0);
	while (now() - t0 < 60 && waitpid(wpid, &st, WNOHANG) == 0)
		usleep(50000);
	wrote = now() - t0 < 60 && WIFEXITED(st) && !WEXITSTATUS(st);
	ok(wrote, "dos: root's hard reset request returned (%.1f s, bound 60 s)",
	   now() - t0);
	if (!wrote) {
		kill(pid, SIGKILL);
		waitpid(wpid, &st, 0);
	}
	while (now() - t0 < 60 && sysfs_ul("hard_reset_cnt") == resets1)
		usleep(50000);
	t_reset = now() - t0;
	ok(sysfs_ul("hard_reset_cnt") == resets1 + 1,
	   "dos: the hard reset completed in %.1f s (bound 60 s)", t_reset);
	n = -1;
	for (t0 = now(); now() - t0 < 30 && n != (int)64; usleep(200000))
		n = run_holder(64, &secs);
	ok(n == 64, "dos: after the reset the next holder's CSs complete");

	kill(pid, SIGKILL);
	ok(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st),
	   "dos: the attacker, blocked thread included, is killed");
}

int main(int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--card"))
			card = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--cs"))
			ncs = strtoul(argv[i + 1], NULL, 0);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_privacy();
	test_dos();
	return tap_done();
}
