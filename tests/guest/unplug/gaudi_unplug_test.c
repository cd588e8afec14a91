// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The card goes away under a busy holder (issue 10).  One round:
 *
 *   - the holder opens the compute node and takes one of everything: a CB
 *     mmapped, a userptr mapping, an HBM allocation with a secret in it,
 *     exported as a dma-buf that a second process holds, CSs in flight
 *     behind one that waits in a FENCE forever, and a thread blocked in
 *     WAIT_CS on the last; another card has a holder too;
 *   - the card is removed (--how unbind: the driver's unbind; remove: PCI
 *     remove of the function, from another process, which must return in
 *     bounded time; hotplug: the card pulled, QEMU's device_del through
 *     gaudi-vm --hotplug, the guest's ACPI hot-plug removing it);
 *   - the blocked thread returns, every later ioctl fails with ENODEV, the
 *     CB mapping reads zeros, close returns, the dma-buf holder exits; the
 *     other card's holder runs a CS meanwhile;
 *   - the card comes back (bind, a PCI rescan, or device_add); its next
 *     holder runs a CS and reads none of the secret.
 *
 *   gaudi_unplug_test --bdf BDF --how unbind|remove|hotplug [--rounds N]
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

/* The accel node of the card at @dev (-1 when it has none). */
static int accel_node_of(const char *dev, char *path, size_t len)
{
	char dir[128];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s/accel", dev);
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

static int accel_node(char *path, size_t len)
{
	return accel_node_of(bdf, path, len);
}

/* Another card's accel node, for its holder during the removal. */
static int other_node(char *path, size_t len)
{
	struct dirent *e;
	DIR *d = opendir("/sys/bus/pci/drivers/gaudi");
	int rc = -1;

	if (!d)
		return -1;
	while (rc && (e = readdir(d)))
		if (!strncmp(e->d_name, "0000:", 5) && strcmp(e->d_name, bdf))
			rc = accel_node_of(e->d_name, path, len);
	closedir(d);
	return rc;
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

/*
 * --how hotplug: the card's number in gaudi-vm, from its root port
 * (00:(0x10 + N).0, tools/vm/gaudi-vm), and a request to gaudi-vm on the
 * console, which it carries out through QMP (device_del, device_add).
 */
static int card_index(void)
{
	char path[160], link[256], *p;
	unsigned int dev, fn;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = 0;
	p = strrchr(link, '/');
	if (!p)
		return -1;
	*p = 0;
	p = strrchr(link, '/');
	if (!p || sscanf(p + 1, "%*x:%*x:%x.%x", &dev, &fn) != 2 ||
	    dev < 0x10)
		return -1;
	return dev - 0x10;
}

static int card = -1;

/*
 * How long a removal may take: 60 s, or 300 s on the debug kernel (it has
 * kmemleak), where iounmap() of the 32 GiB HBM BAR alone takes about a
 * minute (DEBUG_OBJECTS_FREE walks it page by page, for either driver).
 */
static double remove_limit(void)
{
	return access("/sys/kernel/debug/kmemleak", F_OK) ? 60 : 300;
}

static int hotplug_request(const char *action)
{
	char line[64];
	int fd = open("/dev/console", O_WRONLY);
	int rc;

	if (fd < 0 || card < 0) {
		if (fd >= 0)
			close(fd);
		return -ENODEV;
	}
	snprintf(line, sizeof(line), "\ngaudi-vm-hotplug: %s %d\n", action,
		 card);
	rc = write(fd, line, strlen(line)) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

static int gone(void)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", bdf);
	return access(path, F_OK) != 0;
}

/* The removal, from a child: its status, or -ETIMEDOUT after @secs. */
static int remove_card(double secs, double *took)
{
	char path[160];
	double t0 = now();
	pid_t pid;
	int st;

	if (!strcmp(how, "hotplug")) {
		/* pciehp waits 5 s after the attention button. */
		int rc = hotplug_request("del");

		while (!rc && !gone() && now() - t0 < secs)
			usleep(50000);
		*took = now() - t0;
		return rc ? rc : gone() ? 0 : -ETIMEDOUT;
	}
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

	if (!strcmp(how, "hotplug"))
		hotplug_request("add");
	else if (!strcmp(how, "remove"))
		write_file("/sys/bus/pci/rescan", "1");
	else
		write_file("/sys/bus/pci/drivers/gaudi/bind", bdf);
	while (now() - t0 < 2 * remove_limit()) {
		if (accel_node(path, sizeof(path)) == 0 &&
		    access(path, F_OK) == 0)
			return 0;
		usleep(100000);
	}
	return -ETIMEDOUT;
}

#define SECRET_LEN	(64 << 10)
#define SECRET		0xA5A5A5A5A5A5A5A5ULL

/* One CB of @len bytes on external queue @q, waited for: 0 or -errno. */
static int run_cb(int fd, uint64_t cb, uint32_t len, uint32_t q)
{
	return hl_run1(fd, cb, len, q, 10000000);
}

/*
 * The next holder, on the card that came back: a NOP CS completes, and
 * the HBM the previous holder filled (@hbm, SECRET_LEN bytes) reads zero.
 * Returns 0, -EBADMSG if a byte of the secret is there, or -errno.
 */
static int next_holder(uint64_t hbm, int *nonzero)
{
	char path[64];
	uint64_t cb, va;
	uint8_t *p, *host;
	size_t len;
	int fd, rc, i;

	*nonzero = -1;
	if (accel_node(path, sizeof(path)))
		return -ENODEV;
	fd = hl_open_retry(path);
	if (fd < 0)
		return fd;
	host = mmap(NULL, SECRET_LEN, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	rc = host == MAP_FAILED ? -ENOMEM : cb_create(fd, 4096, 0, &cb);
	if (rc)
		goto out;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)cb);
	if (p == MAP_FAILED) {
		rc = -errno;
		goto out;
	}
	hl_pkt8(p, 0, PKT_NOP, 0, 0);
	rc = run_cb(fd, cb, 8, 0);
	if (!rc && hbm) {
		memset(host, 0xEE, SECRET_LEN);
		rc = map_host(fd, host, SECRET_LEN, &va);
		if (!rc) {
			len = pkt_lin_dma(p, 0, hbm, va, SECRET_LEN, false,
					  false);
			rc = run_cb(fd, cb, len, GAUDI_QUEUE_ID_DMA_0_1);
			unmap_host(fd, va);
		}
		if (!rc) {
			*nonzero = 0;
			for (i = 0; i < SECRET_LEN; i++)
				*nonzero += host[i] != 0;
			if (*nonzero)
				rc = -EBADMSG;
		}
	}
	munmap(p, 4096);
out:
	if (host != MAP_FAILED)
		munmap(host, SECRET_LEN);
	close(fd);
	return rc;
}

static void round_once(int r)
{
	union hl_mem_args a;
	struct waiter w = { 0 };
	pthread_t t;
	char path[64];
	uint64_t cb, va, seq = 0, h = 0, hbm = 0, ocb = 0;
	char opath[64];
	uint8_t *op = MAP_FAILED;
	int ofd;
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

		/* The holder's data, which the next holder must not see. */
		hbm = addr;
		if (cbp != MAP_FAILED)
			ok(run_cb(fd, cb, pkt_lin_dma((uint8_t *)cbp, 0, SECRET,
						      addr, SECRET_LEN, true,
						      false),
				  GAUDI_QUEUE_ID_DMA_0_1) == 0,
			   "%d: a secret written to its HBM", r);

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

	/* A holder of another card, which must not notice. */
	ofd = other_node(opath, sizeof(opath)) ? -1 : hl_open_retry(opath);
	if (ofd >= 0 && cb_create(ofd, 4096, 0, &ocb) == 0) {
		op = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ofd,
			  (off_t)ocb);
		if (op != MAP_FAILED)
			hl_pkt8(op, 0, PKT_NOP, 0, 0);
	}

	rc = remove_card(remove_limit(), &took);
	ok(rc == 0, "%d: %s of %s returned in %.2f s (%d)", r, how, bdf, took,
	   rc);
	for (i = 0; i < 100 && !__atomic_load_n(&w.done, __ATOMIC_ACQUIRE); i++)
		usleep(100000);
	ok(__atomic_load_n(&w.done, __ATOMIC_ACQUIRE),
	   "%d: the waiting thread returned (%d, status %u)", r, w.rc,
	   w.status);
	if (__atomic_load_n(&w.done, __ATOMIC_ACQUIRE))
		pthread_join(t, NULL);
	if (ofd >= 0) {
		ok(op != MAP_FAILED && run_cb(ofd, ocb, 8, 0) == 0,
		   "%d: the holder of %s runs a CS meanwhile", r, opath);
		if (op != MAP_FAILED)
			munmap(op, 4096);
		close(ofd);
	}
	ok_eq(hl_submit1(fd, cb, 8, 0, &seq), -ENODEV,
	      "%d: CS after the removal: ENODEV", r);
	ok_eq(cb_create(fd, 4096, 0, &cb), -ENODEV,
	      "%d: CB create after the removal: ENODEV", r);
	ok_eq(map_host(fd, host, 4096, &va), -ENODEV,
	      "%d: MAP after the removal: ENODEV", r);
	if (cbp != MAP_FAILED) {
		/*
		 * The CB's memory went with the card: the mapping now shows
		 * a zeroed page (it held a FENCE and a NOP), writes land
		 * there and nowhere else, and nothing raises SIGBUS.
		 */
		for (i = 0; i < 4096; i++)
			sum += cbp[i];
		ok(sum == 0, "%d: the CB mapping reads zeros after the removal (sum %d)",
		   r, sum);
		cbp[0] = 0x5a;
		ok(cbp[0] == 0x5a, "%d: and takes writes without a fault", r);
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
	   !strcmp(how, "hotplug") ? "device_add" :
	   !strcmp(how, "remove") ? "rescan" : "bind");
	rc = next_holder(hbm, &i);
	ok(rc == 0, "%d: the next holder's CS completes and reads no byte of the secret (%d; %d bytes not zero)",
	   r, rc, i);
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
		fprintf(stderr, "usage: gaudi_unplug_test --bdf BDF --how unbind|remove|hotplug [--rounds N]\n");
		return 2;
	}
	card = card_index();
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int r = 1; r <= rounds; r++)
		round_once(r);
	return tap_done();
}
