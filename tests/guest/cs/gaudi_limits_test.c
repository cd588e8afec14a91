// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Limits of what one holder of the compute node can make the kernel
 * allocate or pin (issue 10), on gaudi.ko:
 *
 *   - pinned host pages count against RLIMIT_MEMLOCK without CAP_IPC_LOCK
 *     (MAP beyond it: ENOMEM; UNMAP gives the room back; a MAP of pages
 *     the context has pinned already needs none, issue 29);
 *   - a MAP whose page array kvmalloc cannot serve (2 TiB) is ENOMEM, not
 *     a kernel warning (the suite's dmesg check sees the latter);
 *   - at most 16384 CB handles (EMFILE) and 256 MiB of CBs (ENOMEM) per
 *     open file, and DESTROY gives them back;
 *   - the parsed copies of the CBs in flight are bounded by the module
 *     parameter cs_kmem_mb (a CS beyond it: ENOMEM, the next CS works);
 *   - MAP by handle racing FREE of that handle from other threads returns
 *     either the allocation's address or EINVAL, never anything else.
 *
 *   gaudi_limits_test [--card N]
 *
 * Run as root in the cs suite's guest; prints TAP, ends with
 * "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hl_ioctl.h"
#include "tap.h"

#define KMEM_PARAM "/sys/module/gaudi/parameters/cs_kmem_mb"

static int card;

static int open_card(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	return hl_open_retry(path);
}

/* Raise or drop CAP_IPC_LOCK in the effective set (it stays permitted). */
static int cap_ipc_lock(int on)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	if (on)
		d[0].effective |= 1U << CAP_IPC_LOCK;
	else
		d[0].effective &= ~(1U << CAP_IPC_LOCK);
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

static void test_memlock(int fd)
{
	const size_t lim = 1 << 20, part = lim / 2;
	struct rlimit old, rl = { lim, lim };
	uint64_t va[4] = { 0 };
	uint8_t *buf;

	buf = mmap(NULL, 4 * lim, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (!ok(buf != MAP_FAILED, "memlock: 4 MiB of host memory"))
		return;
	getrlimit(RLIMIT_MEMLOCK, &old);
	rl.rlim_max = old.rlim_max;
	if (!ok(setrlimit(RLIMIT_MEMLOCK, &rl) == 0 && cap_ipc_lock(0) == 0,
		"memlock: RLIMIT_MEMLOCK 1 MiB, CAP_IPC_LOCK dropped"))
		goto out;
	ok_eq(map_host(fd, buf, 4 * lim, &va[0]), -ENOMEM,
	      "memlock: MAP of 4 MiB over the 1 MiB limit: ENOMEM");
	ok_eq(map_host(fd, buf, part, &va[0]), 0,
	      "memlock: MAP of 512 KiB");
	ok_eq(map_host(fd, buf + part, part, &va[1]), 0,
	      "memlock: another 512 KiB, the limit reached");
	ok_eq(map_host(fd, buf + lim, 4096, &va[2]), -ENOMEM,
	      "memlock: one page more: ENOMEM");
	/* Pages the context holds are pinned once (issue 29). */
	ok_eq(map_host(fd, buf + part / 2, part, &va[3]), 0,
	      "memlock: at the limit, a MAP of pages already pinned");
	ok_eq(unmap_host(fd, va[3]), 0, "memlock: and its UNMAP");
	va[3] = 0;
	ok_eq(unmap_host(fd, va[0]), 0, "memlock: UNMAP of 512 KiB");
	va[0] = 0;
	ok_eq(map_host(fd, buf + lim, part, &va[2]), 0,
	      "memlock: the room is back after UNMAP");
	ok(cap_ipc_lock(1) == 0, "memlock: CAP_IPC_LOCK raised again");
	ok_eq(map_host(fd, buf + 2 * lim, 2 * lim, &va[0]), 0,
	      "memlock: with CAP_IPC_LOCK the limit does not apply");
	for (int i = 0; i < 4; i++)
		if (va[i])
			unmap_host(fd, va[i]);
out:
	cap_ipc_lock(1);
	setrlimit(RLIMIT_MEMLOCK, &old);
	munmap(buf, 4 * lim);
}

static void test_huge_map(int fd)
{
	const uint64_t size = 2ULL << 40;
	void *p;
	uint64_t va;

	/* Address space only: the pin never starts. */
	p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_NORESERVE, -1, 0);
	if (!ok(p != MAP_FAILED, "2 TiB of address space"))
		return;
	ok_eq(map_host(fd, p, size, &va), -ENOMEM,
	      "MAP of 2 TiB: ENOMEM (no kernel warning: see the dmesg check)");
	munmap(p, size);
}

static void test_cb_caps(int fd)
{
	const unsigned int max = 16384, big = HL_MAX_CB_SIZE;
	uint64_t *h = calloc(max + 1, sizeof(*h));
	unsigned int n, i;
	int rc = 0;

	if (!ok(h != NULL, "CB caps: handle table"))
		return;
	for (n = 0; n < max; n++) {
		rc = cb_create(fd, 4096, 0, &h[n]);
		if (rc)
			break;
	}
	ok(n == max && rc == 0, "CB caps: %u CBs of 4 KiB created (%d)", n, rc);
	ok_eq(cb_create(fd, 4096, 0, &h[max]), -EMFILE,
	      "CB caps: CB number %u: EMFILE", max + 1);
	ok_eq(cb_destroy(fd, h[0]), 0, "CB caps: DESTROY one");
	ok_eq(cb_create(fd, 4096, 0, &h[0]), 0,
	      "CB caps: CREATE works again after DESTROY");
	for (i = 0; i < n; i++)
		cb_destroy(fd, h[i]);

	/* 256 MiB: 128 CBs of the largest size (2 MiB of pages), no more. */
	for (n = 0; n < 200; n++) {
		rc = cb_create(fd, big, 0, &h[n]);
		if (rc)
			break;
	}
	ok(n == 128 && rc == -ENOMEM,
	   "CB caps: 128 CBs of 2 MiB, the next ENOMEM (%u, %d)", n, rc);
	for (i = 0; i < n; i++)
		cb_destroy(fd, h[i]);
	ok_eq(cb_create(fd, big, 0, &h[0]), 0,
	      "CB caps: a 2 MiB CB again after DESTROY of all");
	cb_destroy(fd, h[0]);
	free(h);
}

static int write_param(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, val, strlen(val));
	close(fd);
	return w == (ssize_t)strlen(val) ? 0 : -EIO;
}

static void test_kmem(int fd)
{
	const uint32_t cbsz = 1 << 20, njobs = 9;
	struct hl_cs_chunk ch[9];
	uint64_t cb, seq;
	uint32_t st;
	uint8_t *p;
	size_t off;

	if (!ok(cb_create(fd, cbsz, 0, &cb) == 0, "cs_kmem_mb: a 1 MiB CB"))
		return;
	p = mmap(NULL, cbsz, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)cb);
	if (!ok(p != MAP_FAILED, "cs_kmem_mb: CB mapped")) {
		cb_destroy(fd, cb);
		return;
	}
	for (off = 0; off < cbsz; off += 8)
		hl_pkt8(p, off, PKT_NOP, 0, 0);
	memset(ch, 0, sizeof(ch));
	for (uint32_t i = 0; i < njobs; i++) {
		ch[i].cb_handle = cb;
		ch[i].queue_index = i % 8;	/* external DMA queues */
		ch[i].cb_size = cbsz;
	}
	if (ok(write_param(KMEM_PARAM, "8") == 0, "cs_kmem_mb set to 8")) {
		ok_eq(hl_submit(fd, ch, njobs, 0, 0, &seq), -ENOMEM,
		      "a CS of 9 MiB of CBs over cs_kmem_mb=8: ENOMEM");
		ok(hl_submit(fd, ch, 4, 0, 0, &seq) == 0 &&
		   wait_cs(fd, seq, 10000000, &st, NULL) == 0 &&
		   st == HL_WAIT_CS_STATUS_COMPLETED,
		   "a CS of 4 MiB under it completes");
	}
	ok(write_param(KMEM_PARAM, "256") == 0, "cs_kmem_mb back to 256");
	ok(hl_submit(fd, ch, njobs, 0, 0, &seq) == 0 &&
	   wait_cs(fd, seq, 10000000, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_COMPLETED,
	   "the CS of 9 MiB of CBs completes under the default");
	munmap(p, cbsz);
	cb_destroy(fd, cb);
}

/* ---- MAP by handle racing FREE ------------------------------------------ */

struct race {
	int fd;
	volatile uint64_t handle;	/* the live allocation, 0 between */
	volatile int stop;
	unsigned long maps, bad;
};

static void *mapper(void *arg)
{
	struct race *r = arg;
	uint64_t addr;
	int rc;

	while (!r->stop) {
		uint64_t h = r->handle;

		if (!h)
			continue;
		rc = hl_mem_map(r->fd, h, &addr);
		/* The HBM user part lies above 512 MiB and below 32 GiB. */
		if (rc == 0 && (addr < GAUDI_DRAM_USER_START ||
				addr >= GAUDI_HBM_SIZE ||
				addr & ((2 << 20) - 1)))
			__atomic_fetch_add(&r->bad, 1, __ATOMIC_RELAXED);
		else if (rc && rc != -EINVAL)
			__atomic_fetch_add(&r->bad, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&r->maps, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_map_free_race(int fd)
{
	struct race r = { .fd = fd };
	pthread_t t[3];
	unsigned int i, rounds = 3000, errs = 0;
	uint64_t h;

	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, mapper, &r);
	for (i = 0; i < rounds; i++) {
		if (hl_mem_alloc(fd, 2 << 20, 0, 0, &h)) {
			errs++;
			break;
		}
		r.handle = h;
		if (hl_mem_free(fd, h))
			errs++;
		r.handle = 0;
	}
	r.stop = 1;
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	ok(errs == 0, "race: %u ALLOC/FREE rounds without error", rounds);
	ok(r.bad == 0,
	   "race: %lu MAP-by-handle calls from 3 threads racing FREE: address or EINVAL only (%lu bad)",
	   r.maps, r.bad);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc == 3 && !strcmp(argv[1], "--card"))
		card = atoi(argv[2]);
	fd = open_card();
	if (!ok(fd >= 0, "open the compute node of card %d", card))
		return tap_done();
	test_memlock(fd);
	test_huge_map(fd);
	test_cb_caps(fd);
	test_kmem(fd);
	test_map_free_race(fd);
	close(fd);
	return tap_done();
}
