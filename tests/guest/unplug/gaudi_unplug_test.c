// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The card goes away under a busy holder (issue 10).  One round:
 *
 *   - the holder opens the compute node and takes one of everything: a CB
 *     mmapped, a userptr mapping, an HBM allocation exported as a dma-buf
 *     that a second process holds, CSs in flight behind one that waits in
 *     a FENCE forever, and a thread blocked in WAIT_CS on the last;
 *   - the card is removed (--how unbind: the driver's unbind; remove: PCI
 *     remove of the function), from another process, which must return in
 *     bounded time;
 *   - the blocked thread returns, every later ioctl fails with ENODEV, the
 *     CB mapping still reads, close returns, the dma-buf holder exits;
 *   - the card comes back (bind, or a PCI rescan) and a NOP CS on it works.
 *
 *   gaudi_unplug_test --bdf BDF --how unbind|remove [--rounds N]
 *
 * Run as root with gaudi.ko loaded; prints TAP, ends with "N passed, N
 * failed".  The suite checks dmesg for oopses and warnings afterwards.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hl_ioctl.h"
#include "tap.h"

static const char *bdf;
static const char *how = "unbind";

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int rc;

	if (fd < 0)
		return -errno;
	rc = write(fd, val, strlen(val)) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

/* The accel node of the card at bdf ("" when it has none). */
static int accel_node(char *path, size_t len)
{
	char dir[128];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s/accel", bdf);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "accel", 5) &&
		    e->d_name[5] >= '0' && e->d_name[5] <= '9') {
			snprintf(path, len, "/dev/accel/%.20s", e->d_name);
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -1;
}

static int mem_op(int fd, union hl_mem_args *a)
{
	return xioctl(fd, DRM_IOCTL_HL_MEMORY, a);
}

struct waiter {
	int fd;
	uint64_t seq;
	int rc;
	uint32_t status;
	int done;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;

	w->rc = wait_cs(w->fd, w->seq, 600000000ULL, &w->status, NULL);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The removal, from a child: its status, or -ETIMEDOUT after @secs. */
static int remove_card(double secs, double *took)
{
	char path[160];
	double t0 = now();
	pid_t pid;
	int st;

	if (!strcmp(how, "remove"))
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove",
			 bdf);
	else
		snprintf(path, sizeof(path), "/sys/bus/pci/drivers/gaudi/unbind");
	pid = fork();
	if (pid == 0)
		_exit(write_file(path, strcmp(how, "remove") ? bdf : "1") ?
		      1 : 0);
	while (now() - t0 < secs) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			*took = now() - t0;
			return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
		}
		usleep(20000);
	}
	*took = now() - t0;
	return -ETIMEDOUT;
}

static int restore_card(void)
{
	char path[64];
	double t0 = now();

	if (!strcmp(how, "remove"))
		write_file("/sys/bus/pci/rescan", "1");
	else
		write_file("/sys/bus/pci/drivers/gaudi/bind", bdf);
	while (now() - t0 < 120) {
		if (accel_node(path, sizeof(path)) == 0 &&
		    access(path, F_OK) == 0)
			return 0;
		usleep(100000);
	}
	return -ETIMEDOUT;
}

static int nop_cs(void)
{
	char path[64];
	uint64_t cb, seq;
	uint32_t st = 0;
	uint8_t *p;
	int fd, rc;

	if (accel_node(path, sizeof(path)))
		return -ENODEV;
	fd = hl_open_retry(path);
	if (fd < 0)
		return fd;
	rc = cb_create(fd, 4096, 0, &cb);
	if (!rc) {
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)cb);
		if (p == MAP_FAILED) {
			rc = -errno;
		} else {
			hl_pkt8(p, 0, PKT_NOP, 0, 0);
			rc = hl_submit1(fd, cb, 8, 0, &seq);
			if (!rc)
				rc = wait_cs(fd, seq, 10000000, &st, NULL);
			if (!rc && st != HL_WAIT_CS_STATUS_COMPLETED)
				rc = -EIO;
			munmap(p, 4096);
		}
	}
	close(fd);
	return rc;
}

static void round_once(int r)
{
	union hl_mem_args a;
	struct waiter w = { 0 };
	pthread_t t;
	char path[64];
	uint64_t cb, va, seq = 0, h = 0;
	volatile uint8_t *cbp;
	uint8_t *host;
	int fd, dfd = -1, rc, st, i, sum = 0;
	pid_t holder = -1;
	double took = 0;

	if (!ok(accel_node(path, sizeof(path)) == 0, "%d: the card has a node", r))
		return;
	fd = hl_open_retry(path);
	if (!ok(fd >= 0, "%d: open %s", r, path))
		return;
	/* One of everything. */
	ok(cb_create(fd, 4096, 0, &cb) == 0, "%d: CB", r);
	cbp = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)cb);
	ok(cbp != MAP_FAILED, "%d: CB mmapped", r);
	host = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ok(map_host(fd, host, 1 << 20, &va) == 0, "%d: userptr mapping", r);
	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_ALLOC;
	a.in.alloc.mem_size = 2 << 20;
	if (ok(mem_op(fd, &a) == 0, "%d: HBM allocation", r))
		h = a.out.handle;
	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_MAP;
	a.in.map_device.handle = h;
	rc = mem_op(fd, &a);
	if (!rc) {
		uint64_t addr = a.out.device_virt_addr;

		memset(&a, 0, sizeof(a));
		a.in.op = HL_MEM_OP_EXPORT_DMABUF_FD;
		a.in.flags = O_RDWR;
		a.in.export_dmabuf_fd.addr = addr;
		a.in.export_dmabuf_fd.mem_size = 2 << 20;
		rc = mem_op(fd, &a);
		dfd = rc ? -1 : (int)a.out.fd;
	}
	ok(dfd >= 0, "%d: exported as a dma-buf", r);
	holder = fork();
	if (holder == 0) {
		close(fd);
		pause();	/* holds the inherited dma-buf until killed */
		_exit(0);
	}
	if (dfd >= 0)
		close(dfd);
	ok(holder > 0, "%d: a second process holds the dma-buf", r);

	/* A CS that waits forever in a FENCE, then NOPs behind it. */
	if (cbp != MAP_FAILED) {
		hl_pkt_fence((uint8_t *)cbp, 0, 0, 1, 1);
		hl_pkt8((uint8_t *)cbp, 8, PKT_NOP, 0, 0);
	}
	rc = hl_submit1(fd, cb, 8, 0, &seq);
	for (i = 0; !rc && i < 8; i++)
		rc = hl_submit(fd, &(struct hl_cs_chunk){ .cb_handle = cb,
				.queue_index = 0, .cb_size = 16 }, 1, 0, 0,
			       &seq);
	ok(rc == 0, "%d: 9 CSs in flight behind a FENCE", r);
	w.fd = fd;
	w.seq = seq;
	pthread_create(&t, NULL, wait_thread, &w);
	usleep(200000);
	ok(!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE),
	   "%d: a thread waits in WAIT_CS", r);

	rc = remove_card(60, &took);
	ok(rc == 0, "%d: %s of %s returned in %.2f s (%d)", r, how, bdf, took,
	   rc);
	for (i = 0; i < 100 && !__atomic_load_n(&w.done, __ATOMIC_ACQUIRE); i++)
		usleep(100000);
	ok(__atomic_load_n(&w.done, __ATOMIC_ACQUIRE),
	   "%d: the waiting thread returned (%d, status %u)", r, w.rc,
	   w.status);
	if (__atomic_load_n(&w.done, __ATOMIC_ACQUIRE))
		pthread_join(t, NULL);
	ok_eq(hl_submit1(fd, cb, 8, 0, &seq), -ENODEV,
	      "%d: CS after the removal: ENODEV", r);
	ok_eq(cb_create(fd, 4096, 0, &cb), -ENODEV,
	      "%d: CB create after the removal: ENODEV", r);
	ok_eq(map_host(fd, host, 4096, &va), -ENODEV,
	      "%d: MAP after the removal: ENODEV", r);
	if (cbp != MAP_FAILED) {
		for (i = 0; i < 4096; i++)
			sum += cbp[i];
		ok(1, "%d: the CB mapping still reads (sum %d)", r, sum);
		munmap((void *)cbp, 4096);
	}
	ok(close(fd) == 0, "%d: close", r);
	munmap(host, 1 << 20);
	if (holder > 0) {
		kill(holder, SIGKILL);
		ok(waitpid(holder, &st, 0) == holder,
		   "%d: the dma-buf holder exits", r);
	}
	ok(restore_card() == 0, "%d: the card is back (%s)", r,
	   strcmp(how, "remove") ? "bind" : "rescan");
	ok(nop_cs() == 0, "%d: a CS on it completes", r);
}

int main(int argc, char **argv)
{
	int rounds = 1;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--bdf"))
			bdf = argv[i + 1];
		else if (!strcmp(argv[i], "--how"))
			how = argv[i + 1];
		else if (!strcmp(argv[i], "--rounds"))
			rounds = atoi(argv[i + 1]);
	}
	if (!bdf) {
		fprintf(stderr, "usage: gaudi_unplug_test --bdf BDF --how unbind|remove [--rounds N]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int r = 1; r <= rounds; r++)
		round_once(r);
	return tap_done();
}
