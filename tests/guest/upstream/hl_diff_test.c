// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hl_diff_test - the upstream driver as a differential oracle for gaudi.ko
 * (issue 15).  Written against upstream's uapi <drm/habanalabs_accel.h>
 * only, so that the same binary runs on both drivers.
 *
 *   hl_diff_test [--card N] [--seed S] run
 *       A fixed, seeded sequence of CB, MEMORY, CS and WAIT_CS calls, valid
 *       and invalid (bad handles, sizes, flags, queue ids, timeouts, double
 *       destroy and free, unmap of what was never mapped, waits on future
 *       and old sequences, forbidden packets, ...), printed as one line per
 *       call: "LABEL | rc=ERRNO field=value ...".  Only what the uapi
 *       defines is printed (errno, status, flags, sizes, the page offset of
 *       a device address, an FNV-1a checksum of the data the device wrote);
 *       allocator choices (device addresses, memory handles) are reduced to
 *       "set", so that two drivers answering alike print alike.  Every call
 *       is made whatever the earlier ones answered, so the labels of both
 *       transcripts pair up.  Exit 0 when the transcript was written (the
 *       results are judged by "compare").
 *
 *   hl_diff_test compare PEER GAUDI EXPECTED
 *       TAP: one test per label of the two transcripts: the same answer on
 *       both drivers, or a difference that EXPECTED lists with its reason
 *       (tests/guest/upstream/diff-expected.txt); an unlisted difference, a
 *       listed one that no longer differs, a label missing from one side or
 *       a stale entry fails.  Ends with "N passed, N failed".
 *
 * EXPECTED: blocks of four lines, "#" comments and blank lines between:
 *       LABEL
 *         peer:  the peer's result (after "| ")
 *         gaudi: gaudi.ko's result
 *         why:   the reason (Documentation/upstream-peer.rst lists them)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "../../lib/hl_ioctl.h"

#define CB_SIZE		(64U << 10)
#define BUF_SIZE	(4U << 20)
#define WAIT_US		(30ULL * 1000 * 1000)

static int fd = -1;
static int card;
static uint64_t rng_state = 1;

/* xorshift64*: the same numbers for the same --seed on every machine. */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t fnv1a(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static const char *ename(int rc)
{
	static char buf[16];

	switch (-rc) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EIO: return "EIO";
	case ENXIO: return "ENXIO";
	case E2BIG: return "E2BIG";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case ERANGE: return "ERANGE";
	case ENOTTY: return "ENOTTY";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ECANCELED: return "ECANCELED";
	default:
		snprintf(buf, sizeof(buf), "E%d", -rc);
		return buf;
	}
}

/* One transcript line: "LABEL | rc=ERRNO REST". */
static void out(const char *label, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void out(const char *label, int rc, const char *fmt, ...)
{
	va_list ap;

	printf("%s | rc=%s", label, ename(rc));
	if (fmt && *fmt) {
		putchar(' ');
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
}

/* ---- CB ------------------------------------------------------------------ */

static int cb_op(uint32_t op, uint32_t size, uint32_t flags, uint64_t h,
		 union hl_cb_args *a)
{
	memset(a, 0, sizeof(*a));
	a->in.op = op;
	a->in.cb_size = size;
	a->in.flags = flags;
	a->in.cb_handle = h;
	return xioctl(fd, DRM_IOCTL_HL_CB, a);
}

static int do_mmap(uint64_t off, size_t len, int prot)
{
	void *m = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)off);

	if (m == MAP_FAILED)
		return -errno;
	munmap(m, len);
	return 0;
}

static void t_cb(void)
{
	static const uint32_t sizes[] = { 0, 1, 8, 4096, 4097, CB_SIZE,
					  HL_MAX_CB_SIZE, HL_MAX_CB_SIZE + 1,
					  0x200000, 0xFFFFFFFFU };
	union hl_cb_args a;
	char l[96];
	uint64_t h, h2;
	int rc;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(l, sizeof(l), "cb.create size=%u", sizes[i]);
		rc = cb_op(HL_CB_OP_CREATE, sizes[i], 0, 0, &a);
		h = rc ? 0 : a.out.cb_handle;
		out(l, rc, "handle=%s", h ? "set" : "0");
		if (!h)
			continue;
		rc = cb_op(HL_CB_OP_INFO, 0, 0, h, &a);
		snprintf(l, sizeof(l), "cb.info size=%u", sizes[i]);
		out(l, rc, "usage_cnt=%u", rc ? 0 : a.out.usage_cnt);
		snprintf(l, sizeof(l), "cb.destroy size=%u", sizes[i]);
		out(l, cb_op(HL_CB_OP_DESTROY, 0, 0, h, &a), NULL);
	}
	for (int i = 0; i < 4; i++) {
		uint32_t sz = 1 + (uint32_t)(rnd() % HL_MAX_CB_SIZE);

		snprintf(l, sizeof(l), "cb.create seeded#%d size=%u", i, sz);
		rc = cb_op(HL_CB_OP_CREATE, sz, 0, 0, &a);
		h = rc ? 0 : a.out.cb_handle;
		out(l, rc, "handle=%s", h ? "set" : "0");
		snprintf(l, sizeof(l), "cb.destroy seeded#%d", i);
		out(l, h ? cb_op(HL_CB_OP_DESTROY, 0, 0, h, &a) : -EBADF, NULL);
	}

	/* Handles as mmap offsets; usage counts; destroy while mapped. */
	rc = cb_op(HL_CB_OP_CREATE, 4096, 0, 0, &a);
	h = rc ? 0 : a.out.cb_handle;
	out("cb.create 4096 for mmap", rc, "handle_is_page_aligned=%d",
	    h && !(h & 4095));
	out("cb.mmap 4096", do_mmap(h, 4096, PROT_READ | PROT_WRITE), NULL);
	out("cb.mmap 8192 of a 4096 CB", do_mmap(h, 8192, PROT_READ), NULL);
	out("cb.mmap handle+4096", do_mmap(h + 4096, 4096, PROT_READ), NULL);
	out("cb.mmap offset 0", do_mmap(0, 4096, PROT_READ), NULL);
	{
		void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, (off_t)h);

		rc = cb_op(HL_CB_OP_INFO, 0, 0, h, &a);
		out("cb.info while mmapped", rc, "usage_cnt=%u",
		    rc ? 0 : a.out.usage_cnt);
		out("cb.destroy while mmapped",
		    cb_op(HL_CB_OP_DESTROY, 0, 0, h, &a), NULL);
		rc = cb_op(HL_CB_OP_INFO, 0, 0, h, &a);
		out("cb.info after destroy while mmapped", rc, NULL);
		if (m != MAP_FAILED) {
			memset(m, 0x5A, 4096);
			munmap(m, 4096);
		}
		out("cb.mmap of a destroyed CB", do_mmap(h, 4096, PROT_READ),
		    NULL);
		out("cb.destroy twice", cb_op(HL_CB_OP_DESTROY, 0, 0, h, &a),
		    NULL);
	}
	out("cb.destroy handle=0", cb_op(HL_CB_OP_DESTROY, 0, 0, 0, &a), NULL);
	out("cb.destroy handle=12345",
	    cb_op(HL_CB_OP_DESTROY, 0, 0, 12345, &a), NULL);
	out("cb.destroy handle=~0",
	    cb_op(HL_CB_OP_DESTROY, 0, 0, ~0ULL, &a), NULL);
	out("cb.info handle=12345", cb_op(HL_CB_OP_INFO, 0, 0, 12345, &a),
	    NULL);
	out("cb.op=77", cb_op(77, 4096, 0, 0, &a), NULL);

	/* Flags: kernel-mapped CB (MMU), its device VA, unknown bits. */
	rc = cb_op(HL_CB_OP_CREATE, 4096, HL_CB_FLAGS_MAP, 0, &a);
	h = rc ? 0 : a.out.cb_handle;
	out("cb.create flags=MAP", rc, "handle=%s", h ? "set" : "0");
	rc = cb_op(HL_CB_OP_INFO, 0, HL_CB_FLAGS_GET_DEVICE_VA, h, &a);
	out("cb.info flags=GET_DEVICE_VA of a MAP CB", rc, "device_va=%s",
	    !rc && a.out.device_va ? "set" : "0");
	if (h)
		cb_op(HL_CB_OP_DESTROY, 0, 0, h, &a);
	rc = cb_op(HL_CB_OP_CREATE, 4096, 0, 0, &a);
	h2 = rc ? 0 : a.out.cb_handle;
	rc = cb_op(HL_CB_OP_INFO, 0, HL_CB_FLAGS_GET_DEVICE_VA, h2, &a);
	out("cb.info flags=GET_DEVICE_VA of a plain CB", rc, NULL);
	if (h2)
		cb_op(HL_CB_OP_DESTROY, 0, 0, h2, &a);
	rc = cb_op(HL_CB_OP_CREATE, 4096, 0x80, 0, &a);
	out("cb.create flags=0x80", rc, "handle=%s",
	    !rc && a.out.cb_handle ? "set" : "0");
	if (!rc)
		cb_op(HL_CB_OP_DESTROY, 0, 0, a.out.cb_handle, &a);
}

/* ---- MEMORY -------------------------------------------------------------- */

static int mem(union hl_mem_args *a)
{
	return xioctl(fd, DRM_IOCTL_HL_MEMORY, a);
}

static int map_flags(void *p, uint64_t size, uint32_t flags, uint64_t *va)
{
	union hl_mem_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_MAP;
	a.in.flags = flags;
	a.in.map_host.host_virt_addr = (uintptr_t)p;
	a.in.map_host.mem_size = size;
	rc = mem(&a);
	*va = rc ? 0 : a.out.device_virt_addr;
	return rc;
}

static int alloc_dev(uint64_t size, uint32_t flags, uint64_t *h)
{
	union hl_mem_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_ALLOC;
	a.in.flags = flags;
	a.in.alloc.mem_size = size;
	rc = mem(&a);
	*h = rc ? 0 : a.out.handle;
	return rc;
}

static int free_dev(uint64_t h)
{
	union hl_mem_args a;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_FREE;
	a.in.free.handle = h;
	return mem(&a);
}

static void t_mem(uint8_t *buf)
{
	union hl_mem_args a;
	uint64_t va, va2, h, h2;
	char l[96];
	int rc;

	out("mem.map size=0", map_host(fd, buf, 0, &va), NULL);
	out("mem.map host=NULL", map_host(fd, NULL, 4096, &va), NULL);
	out("mem.map host=16 (not mapped)", map_host(fd, (void *)16, 4096, &va),
	    NULL);
	out("mem.map size=1<<30 (4 MiB behind it)",
	    map_host(fd, buf, 1ULL << 30, &va), NULL);
	out("mem.map wrapping range",
	    map_host(fd, (void *)~0xFFFULL, 8192, &va), NULL);
	for (int i = 0; i < 6; i++) {
		uint64_t off = rnd() % (BUF_SIZE / 2);
		uint64_t sz = 1 + rnd() % (BUF_SIZE / 2);

		snprintf(l, sizeof(l), "mem.map seeded#%d off=%llu size=%llu", i,
			 (unsigned long long)off, (unsigned long long)sz);
		rc = map_host(fd, buf + off, sz, &va);
		out(l, rc, "page_offset=0x%llx",
		    (unsigned long long)(va & 4095));
		snprintf(l, sizeof(l), "mem.unmap seeded#%d", i);
		out(l, va ? unmap_host(fd, va) : -EBADF, NULL);
	}
	rc = map_host(fd, buf, 3 * 4096, &va);
	out("mem.map 3 pages", rc, NULL);
	out("mem.unmap inside a mapping (va+4096)", unmap_host(fd, va + 4096),
	    NULL);
	rc = map_host(fd, buf, 3 * 4096, &va2);
	out("mem.map the same host range twice", rc, "same_va=%d", va == va2);
	if (!rc)
		unmap_host(fd, va2);
	out("mem.unmap", unmap_host(fd, va), NULL);
	out("mem.unmap twice", unmap_host(fd, va), NULL);
	out("mem.unmap 0", unmap_host(fd, 0), NULL);
	out("mem.unmap never mapped", unmap_host(fd, GAUDI_VA_HOST_START +
						 (3ULL << 40)), NULL);
	out("mem.map flags=USERPTR|0x100000",
	    map_flags(buf, 4096, HL_MEM_USERPTR | 0x100000, &va), NULL);
	if (va)
		unmap_host(fd, va);
	rc = map_flags(buf, 4096, HL_MEM_USERPTR | HL_MEM_FORCE_HINT, &va);
	out("mem.map USERPTR|FORCE_HINT hint=0", rc, NULL);
	if (va)
		unmap_host(fd, va);
	memset(&a, 0, sizeof(a));
	a.in.op = 99;
	out("mem.op=99", mem(&a), NULL);

	/* Device memory: HBM handles (no MMU for HBM on Gaudi 1). */
	static const uint64_t asz[] = { 0, 1, 4096, 2ULL << 20, 1ULL << 40 };

	for (size_t i = 0; i < sizeof(asz) / sizeof(asz[0]); i++) {
		snprintf(l, sizeof(l), "mem.alloc size=%llu",
			 (unsigned long long)asz[i]);
		rc = alloc_dev(asz[i], 0, &h);
		out(l, rc, "handle=%s", h ? "set" : "0");
		snprintf(l, sizeof(l), "mem.free size=%llu",
			 (unsigned long long)asz[i]);
		out(l, free_dev(h), NULL);
	}
	rc = alloc_dev(2ULL << 20, HL_MEM_CONTIGUOUS, &h);
	out("mem.alloc CONTIGUOUS 2M", rc, "handle=%s", h ? "set" : "0");
	rc = alloc_dev(2ULL << 20, HL_MEM_SHARED, &h2);
	out("mem.alloc SHARED 2M", rc, "handle=%s", h2 ? "set" : "0");
	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_MAP;
	a.in.map_device.handle = h;
	rc = mem(&a);
	out("mem.map device handle", rc, NULL);
	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_EXPORT_DMABUF_FD;
	a.in.flags = O_RDWR | O_CLOEXEC;
	a.in.export_dmabuf_fd.addr = 12345;
	a.in.export_dmabuf_fd.mem_size = 4096;
	out("mem.export_dmabuf bad handle", mem(&a), NULL);
	out("mem.free CONTIGUOUS", free_dev(h), NULL);
	out("mem.free twice", free_dev(h), NULL);
	out("mem.free SHARED", free_dev(h2), NULL);
	out("mem.free handle=0", free_dev(0), NULL);
	out("mem.free handle=12345", free_dev(12345), NULL);
}

/* ---- CS and WAIT_CS ------------------------------------------------------ */

struct cs_env {
	uint64_t cb;
	uint8_t *cbp;
	uint8_t *buf;
	uint64_t va;
	uint64_t seq0;		/* the first sequence of the run */
	uint64_t last;		/* the last accepted sequence */
	uint64_t prev;		/* last before the latest submit */
};

static size_t pkt(uint8_t *cb, size_t off, uint32_t op, unsigned int words,
		  uint32_t w0)
{
	memset(cb + off, 0, 8 * (words ? words : 1));
	put32(cb + off, w0);
	put32(cb + off + 4, HL_PKT_CTL(op) | PKT_CTL_MB);
	return off + 8 * (words ? words : 1);
}

static int submit(struct cs_env *e, struct hl_cs_chunk *ch, uint32_t n,
		  uint32_t flags, uint32_t timeout, uint64_t *seq)
{
	uint64_t s = 0;
	int rc = hl_submit(fd, ch, n, flags, timeout, &s);

	e->prev = e->last;
	if (!rc && s && s != UINT64_MAX) {	/* a CS with a sequence */
		if (!e->seq0)
			e->seq0 = s;
		e->last = s;
	}
	if (seq)
		*seq = s;
	return rc;
}

static int submit1(struct cs_env *e, uint64_t cb, uint32_t len, uint32_t q,
		   uint32_t flags, uint64_t *seq)
{
	struct hl_cs_chunk ch;

	memset(&ch, 0, sizeof(ch));
	ch.cb_handle = cb;
	ch.queue_index = q;
	ch.cb_size = len;
	return submit(e, &ch, 1, flags, 0, seq);
}

/*
 * Print a submit and, when accepted, its wait (status, flags).  The
 * sequence is only checked to grow ("seq=up"; upstream also spends a
 * sequence number on a CS it refuses, gaudi.ko does not: "cs.seq after
 * refused CSs" shows that once); "seq=none" when the call returned no
 * sequence (0 or U64_MAX).
 */
static void cs_line(struct cs_env *e, const char *l, int rc, uint64_t seq)
{
	uint32_t st = ~0U, fl = 0;
	int wrc;

	if (rc) {
		out(l, rc, NULL);
		return;
	}
	if (!seq || seq == UINT64_MAX) {
		out(l, 0, "seq=none");
		return;
	}
	wrc = wait_cs(fd, seq, WAIT_US, &st, &fl);
	if (wrc)
		out(l, 0, "seq=%s wait=%s", seq > e->prev ? "up" : "DOWN",
		    ename(wrc));
	else
		out(l, 0, "seq=%s wait=0 status=%u flags=0x%x",
		    seq > e->prev ? "up" : "DOWN", st, fl);
}

/* A WAIT_CS line: the out fields only when the call succeeded (else they
 * are what the caller left in the union). */
static void wait_line(const char *l, int rc, uint32_t st, const char *more)
{
	if (rc)
		out(l, rc, NULL);
	else
		out(l, 0, "status=%u%s", st, more ? more : "");
}

static void t_cs(struct cs_env *e)
{
	struct hl_cs_chunk ch[2], *many;
	union hl_wait_cs_args w;
	uint64_t seq, seqs[3], h;
	uint32_t st, fl, map;
	size_t len;
	char l[128];
	int rc;

	/* A first NOP: the sequence numbers start here. */
	len = pkt(e->cbp, 0, PKT_NOP, 1, 0);
	rc = submit1(e, e->cb, len, 0, 0, &seq);
	out("cs.nop q=0 (first)", rc, "seq=%llu", (unsigned long long)seq);
	if (!rc)
		wait_cs(fd, seq, WAIT_US, NULL, NULL);

	/* Seeded memsets on every external queue, then the data's checksum. */
	memset(e->buf, 0, BUF_SIZE);
	for (uint32_t q = 0; q < 8; q++) {
		uint32_t sz = 1 + (uint32_t)(rnd() % (64U << 10));
		uint64_t off = q * (128ULL << 10) + rnd() % (64U << 10);
		uint64_t v = 0x0101010101010101ULL * (uint8_t)(rnd() | 1);

		len = pkt_lin_dma(e->cbp, 0, v, e->va + off, sz, true, true);
		snprintf(l, sizeof(l), "cs.memset q=%u off=%llu size=%u", q,
			 (unsigned long long)off, sz);
		rc = submit1(e, e->cb, (uint32_t)len, q, 0, &seq);
		cs_line(e, l, rc, seq);
	}
	out("cs.memset data", 0, "fnv=%016llx",
	    (unsigned long long)fnv1a(e->buf, BUF_SIZE));

	/* MSG_LONG writes a value into the host buffer. */
	len = hl_pkt_msg_long(e->cbp, 0, e->va + 8, 0xC0FFEE01, false);
	rc = submit1(e, e->cb, (uint32_t)len, 1, 0, &seq);
	cs_line(e, "cs.msg_long q=1", rc, seq);
	out("cs.msg_long data", 0, "word=0x%08x",
	    *(volatile uint32_t *)(e->buf + 8));

	/* Two chunks, two queues, one CS. */
	memset(ch, 0, sizeof(ch));
	len = pkt_lin_dma(e->cbp, 0, 0x7777777777777777ULL, e->va + 4096, 256,
			  true, true);
	pkt_lin_dma(e->cbp, 1024, 0x3333333333333333ULL, e->va + 8192, 256,
		    true, true);
	ch[0].cb_handle = e->cb;
	ch[0].queue_index = 2;
	ch[0].cb_size = (uint32_t)len;
	rc = cb_create(fd, 4096, 0, &h);
	if (!rc) {
		uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, (off_t)h);

		if (p != MAP_FAILED) {
			memcpy(p, e->cbp + 1024, 24);
			munmap(p, 4096);
		}
	}
	ch[1].cb_handle = h;
	ch[1].queue_index = 3;
	ch[1].cb_size = 24;
	rc = submit(e, ch, 2, 0, 0, &seq);
	cs_line(e, "cs.two chunks q=2,3", rc, seq);
	out("cs.two chunks data", 0, "a=0x%02x b=0x%02x", e->buf[4096 + 255],
	    e->buf[8192 + 255]);
	if (h)
		cb_destroy(fd, h);

	/* Flags. */
	len = pkt(e->cbp, 0, PKT_NOP, 1, 0);
	rc = submit1(e, e->cb, len, 0, HL_CS_FLAGS_TIMESTAMP, &seq);
	cs_line(e, "cs.nop flags=TIMESTAMP", rc, seq);
	rc = submit1(e, e->cb, len, 0, HL_CS_FLAGS_FORCE_RESTORE, &seq);
	cs_line(e, "cs.nop flags=FORCE_RESTORE", rc, seq);
	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = e->cb;
	ch[0].cb_size = (uint32_t)len;
	rc = submit(e, ch, 1, HL_CS_FLAGS_CUSTOM_TIMEOUT, 5, &seq);
	cs_line(e, "cs.nop flags=CUSTOM_TIMEOUT timeout=5", rc, seq);
	static const struct {
		uint32_t flags;
		const char *name;
	} bad_flags[] = {
		{ HL_CS_FLAGS_ENGINE_CORE_COMMAND, "ENGINE_CORE_COMMAND" },
		{ HL_CS_FLAGS_ENGINES_COMMAND, "ENGINES_COMMAND" },
		{ HL_CS_FLAGS_FLUSH_PCI_HBW_WRITES, "FLUSH_PCI_HBW_WRITES" },
		{ HL_CS_FLAGS_SIGNAL | HL_CS_FLAGS_WAIT, "SIGNAL|WAIT" },
		{ HL_CS_FLAGS_COLLECTIVE_WAIT, "COLLECTIVE_WAIT" },
		{ HL_CS_FLAGS_STAGED_SUBMISSION_FIRST, "STAGED_FIRST without STAGED" },
		{ 1U << 30, "bit30" },
	};
	for (size_t i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
		snprintf(l, sizeof(l), "cs.nop flags=%s", bad_flags[i].name);
		rc = submit1(e, e->cb, len, 0, bad_flags[i].flags, &seq);
		cs_line(e, l, rc, seq);
	}

	/* Chunks and queues. */
	rc = submit(e, NULL, 1, 0, 0, &seq);
	cs_line(e, "cs.chunks=NULL n=1", rc, seq);
	rc = submit(e, ch, 0, 0, 0, &seq);
	cs_line(e, "cs.chunks n=0", rc, seq);
	many = calloc(HL_MAX_JOBS_PER_CS + 1, sizeof(*many));
	if (many) {
		for (int i = 0; i <= HL_MAX_JOBS_PER_CS; i++) {
			many[i].cb_handle = e->cb;
			many[i].cb_size = (uint32_t)len;
		}
		rc = submit(e, many, HL_MAX_JOBS_PER_CS + 1, 0, 0, &seq);
		cs_line(e, "cs.chunks n=HL_MAX_JOBS_PER_CS+1", rc, seq);
		rc = submit(e, many, 4, 0, 0, &seq);
		cs_line(e, "cs.chunks n=4 same queue", rc, seq);
		free(many);
	}
	static const uint32_t bad_q[] = { GAUDI_QUEUE_ID_CPU_PQ,
					  GAUDI_QUEUE_ID_SIZE, 1000,
					  0xFFFFFFFFU };
	for (size_t i = 0; i < sizeof(bad_q) / sizeof(bad_q[0]); i++) {
		snprintf(l, sizeof(l), "cs.nop q=%u", bad_q[i]);
		rc = submit1(e, e->cb, len, bad_q[i], 0, &seq);
		cs_line(e, l, rc, seq);
	}
	rc = submit1(e, e->cb, len, 0, 0, &seq);
	out("cs.seq after 4 refused CSs (bad queue ids)", rc,
	    "seq=prev%+lld", (long long)(seq - e->prev));
	if (!rc)
		wait_cs(fd, seq, WAIT_US, NULL, NULL);
	rc = submit1(e, e->cb, 0, 0, 0, &seq);
	cs_line(e, "cs.cb_size=0", rc, seq);
	rc = submit1(e, e->cb, CB_SIZE + 8, 0, 0, &seq);
	cs_line(e, "cs.cb_size=CB+8", rc, seq);
	rc = submit1(e, e->cb, 0xFFFFFFF8U, 0, 0, &seq);
	cs_line(e, "cs.cb_size=0xFFFFFFF8", rc, seq);
	rc = submit1(e, 12345, 8, 0, 0, &seq);
	cs_line(e, "cs.cb_handle=12345", rc, seq);
	rc = cb_create(fd, 4096, 0, &h);
	if (!rc)
		cb_destroy(fd, h);
	rc = submit1(e, h, 8, 0, 0, &seq);
	cs_line(e, "cs.cb_handle of a destroyed CB", rc, seq);

	/* Packets. */
	len = pkt_lin_dma(e->cbp, 0, 0, e->va, 64, true, true);
	rc = submit1(e, e->cb, (uint32_t)len - 4, 0, 0, &seq);
	cs_line(e, "cs.lin_dma truncated (20 of 24 bytes)", rc, seq);
	static const struct {
		uint32_t op;
		unsigned int words;
		const char *name;
	} forbidden[] = {
		{ PKT_WREG_BULK, 2, "WREG_BULK" },
		{ PKT_MSG_PROT, 2, "MSG_PROT" },
		{ PKT_CP_DMA, 2, "CP_DMA" },
		{ PKT_STOP, 1, "STOP" },
		{ PKT_LOAD_AND_EXE, 2, "LOAD_AND_EXE" },
	};
	for (size_t i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++) {
		snprintf(l, sizeof(l), "cs.packet %s q=0", forbidden[i].name);
		len = pkt(e->cbp, 0, forbidden[i].op, forbidden[i].words, 0);
		rc = submit1(e, e->cb, (uint32_t)len, 0, 0, &seq);
		cs_line(e, l, rc, seq);
	}
	len = pkt(e->cbp, 0, 0x1F, 1, 0);
	rc = submit1(e, e->cb, (uint32_t)len, 0, 0, &seq);
	cs_line(e, "cs.packet opcode 0x1F q=0", rc, seq);
	len = pkt_lin_dma(e->cbp, 0, 0x5A5A5A5A5A5A5A5AULL, GAUDI_SRAM_USER_START, 4096,
			  true, true);
	rc = submit1(e, e->cb, (uint32_t)len, 0, 0, &seq);
	cs_line(e, "cs.lin_dma memset to SRAM q=0", rc, seq);

	/* WAIT_CS. */
	rc = wait_cs(fd, e->last, WAIT_US, &st, &fl);
	wait_line("wait.last", rc, st, NULL);
	rc = wait_cs(fd, e->seq0, 0, &st, &fl);
	wait_line("wait.first (completed) timeout=0", rc, st, NULL);
	rc = wait_cs(fd, e->seq0, UINT64_MAX, &st, &fl);
	wait_line("wait.first timeout=UINT64_MAX", rc, st, NULL);
	rc = wait_cs(fd, e->last + 1, 1000, &st, &fl);
	wait_line("wait.next (not submitted) timeout=1ms", rc, st, NULL);
	rc = wait_cs(fd, e->last + 1000, 1000, &st, &fl);
	wait_line("wait.last+1000", rc, st, NULL);
	rc = wait_cs(fd, 1ULL << 40, 1000, &st, &fl);
	wait_line("wait.seq=1<<40", rc, st, NULL);
	rc = wait_cs(fd, 0, 1000, &st, &fl);
	wait_line("wait.seq=0", rc, st, NULL);
	memset(&w, 0, sizeof(w));
	w.in.seq = e->last;
	w.in.timeout_us = 1000;
	w.in.flags = HL_WAIT_CS_FLAGS_INTERRUPT |
		     HL_WAIT_CS_FLAGS_ANY_CQ_INTERRUPT;
	out("wait.flags=INTERRUPT|ANY_CQ", xioctl(fd, DRM_IOCTL_HL_WAIT_CS, &w),
	    NULL);
	memset(&w, 0, sizeof(w));
	w.in.seq = e->last;
	w.in.timeout_us = 1000;
	w.in.flags = 0x1;
	rc = xioctl(fd, DRM_IOCTL_HL_WAIT_CS, &w);
	wait_line("wait.flags=0x1", rc, w.out.status, NULL);
	seqs[0] = e->seq0;
	seqs[1] = e->seq0 + 1;
	seqs[2] = e->last;
	rc = hl_wait_multi(fd, seqs, 3, WAIT_US, &map, &st);
	snprintf(l, sizeof(l), " map=0x%x", map);
	wait_line("wait.multi 3 completed", rc, st, l);
	rc = hl_wait_multi(fd, seqs, 0, 1000, &map, &st);
	snprintf(l, sizeof(l), " map=0x%x", map);
	wait_line("wait.multi n=0", rc, st, l);
	memset(&w, 0, sizeof(w));
	w.in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
	w.in.seq_arr_len = 33;
	w.in.seq = (uintptr_t)seqs;
	out("wait.multi n=33", xioctl(fd, DRM_IOCTL_HL_WAIT_CS, &w), NULL);
	memset(&w, 0, sizeof(w));
	w.in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
	w.in.seq_arr_len = 2;
	w.in.seq = 0;
	out("wait.multi array=NULL", xioctl(fd, DRM_IOCTL_HL_WAIT_CS, &w),
	    NULL);
	seqs[2] = e->last + 1000;
	rc = hl_wait_multi(fd, seqs, 3, 1000, &map, &st);
	snprintf(l, sizeof(l), " map=0x%x", map);
	wait_line("wait.multi with a future seq", rc, st, l);

	/* Still working after all of it. */
	len = pkt_lin_dma(e->cbp, 0, 0x4242424242424242ULL, e->va, 4096, true,
			  true);
	rc = submit1(e, e->cb, (uint32_t)len, 0, 0, &seq);
	cs_line(e, "cs.memset after the rejections", rc, seq);
	out("cs.memset after the rejections data", 0, "fnv=%016llx",
	    (unsigned long long)fnv1a(e->buf, 4096));
}

static int run(void)
{
	struct cs_env e;
	char path[64];
	uint8_t *buf;
	union hl_cb_args a;

	snprintf(path, sizeof(path), "/dev/accel/accel%d", card);
	fd = hl_open_retry(path);
	if (fd < 0) {
		fprintf(stderr, "hl_diff_test: open %s: %s\n", path,
			strerror(errno));
		return 2;
	}
	if (posix_memalign((void **)&buf, 2 << 20, BUF_SIZE))
		return 2;
	memset(buf, 0, BUF_SIZE);
	printf("# hl_diff_test: %s, seed %llu\n", path,
	       (unsigned long long)rng_state);

	t_cb();
	t_mem(buf);

	memset(&e, 0, sizeof(e));
	e.buf = buf;
	if (cb_op(HL_CB_OP_CREATE, CB_SIZE, 0, 0, &a) == 0)
		e.cb = a.out.cb_handle;
	e.cbp = mmap(NULL, CB_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     (off_t)e.cb);
	if (!e.cb || e.cbp == MAP_FAILED ||
	    map_host(fd, buf, BUF_SIZE, &e.va)) {
		fprintf(stderr, "hl_diff_test: CS setup failed\n");
		return 2;
	}
	t_cs(&e);
	out("mem.unmap the CS buffer", unmap_host(fd, e.va), NULL);
	munmap(e.cbp, CB_SIZE);
	out("cb.destroy the CS CB", cb_destroy(fd, e.cb), NULL);
	close(fd);
	free(buf);
	return fflush(stdout) || ferror(stdout) ? 2 : 0;
}

/* ---- compare ------------------------------------------------------------- */

struct entry {
	char *label;
	char *peer;	/* results, NULL when absent */
	char *gaudi;
	char *why;	/* expected difference, NULL when none listed */
	char *exp_peer;
	char *exp_gaudi;
	int order;
};

static struct entry *ents;
static size_t nents, cap;

static struct entry *find(const char *label, bool add)
{
	for (size_t i = 0; i < nents; i++)
		if (!strcmp(ents[i].label, label))
			return &ents[i];
	if (!add)
		return NULL;
	if (nents == cap) {
		cap = cap ? 2 * cap : 256;
		ents = realloc(ents, cap * sizeof(*ents));
		if (!ents)
			exit(2);
	}
	memset(&ents[nents], 0, sizeof(*ents));
	ents[nents].label = strdup(label);
	ents[nents].order = (int)nents;
	return &ents[nents++];
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r'))
		s[--n] = 0;
}

static int tap_n, tap_failed;

static void tap(bool good, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void tap(bool good, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!good)
		tap_failed++;
	printf("%sok %d - ", good ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Read a transcript; false (and a failing test) when it cannot be read. */
static bool load_transcript(const char *path, bool is_peer)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	unsigned int n = 0;

	if (!f) {
		tap(false, "transcript %s readable (%s)", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		char *bar;
		struct entry *e;

		chomp(line);
		if (line[0] == '#' || !line[0])
			continue;
		bar = strstr(line, " | ");
		if (!bar)
			continue;
		*bar = 0;
		e = find(line, true);
		if (is_peer ? e->peer != NULL : e->gaudi != NULL) {
			tap(false, "label '%s' appears once in %s", line, path);
			continue;
		}
		if (is_peer)
			e->peer = strdup(bar + 3);
		else
			e->gaudi = strdup(bar + 3);
		n++;
	}
	fclose(f);
	if (!n) {
		tap(false, "transcript %s has results", path);
		return false;
	}
	return true;
}

static char *field(char *line, const char *key)
{
	size_t k = strlen(key);

	while (*line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, key, k))
		return NULL;
	line += k;
	while (*line == ' ')
		line++;
	return line;
}

static bool load_expected(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	struct entry *cur = NULL;
	unsigned int lineno = 0;
	bool good = true;
	char *v;

	if (!f) {
		tap(false, "expected differences %s readable (%s)", path,
		    strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		chomp(line);
		if (line[0] == '#' || !line[0])
			continue;
		if (line[0] != ' ' && line[0] != '\t') {
			cur = find(line, true);
			if (cur->why) {
				tap(false, "%s:%u: '%s' listed twice", path,
				    lineno, line);
				good = false;
			}
			cur->why = strdup("");
			continue;
		}
		if (!cur) {
			good = false;
			continue;
		}
		if ((v = field(line, "peer:")))
			cur->exp_peer = strdup(v);
		else if ((v = field(line, "gaudi:")))
			cur->exp_gaudi = strdup(v);
		else if ((v = field(line, "why:"))) {
			free(cur->why);
			cur->why = strdup(v);
		} else {
			tap(false, "%s:%u: unknown line '%s'", path, lineno,
			    line);
			good = false;
		}
	}
	fclose(f);
	return good;
}

static int compare(const char *peer, const char *gaudi, const char *expected)
{
	unsigned int same = 0, listed = 0;

	load_transcript(peer, true);
	load_transcript(gaudi, false);
	load_expected(expected);
	for (size_t i = 0; i < nents; i++) {
		struct entry *e = &ents[i];
		bool differ;

		if (!e->peer && !e->gaudi) {
			tap(false, "%s: listed in the expected differences but in neither transcript (stale entry)",
			    e->label);
			continue;
		}
		if (e->why && (!e->exp_peer || !e->exp_gaudi || !*e->why)) {
			tap(false, "%s: the expected difference has peer:, gaudi: and a non-empty why:",
			    e->label);
			continue;
		}
		differ = !e->peer || !e->gaudi || strcmp(e->peer, e->gaudi);
		if (!differ && !e->why) {
			tap(true, "%s: same on both drivers (%s)", e->label,
			    e->peer);
			same++;
		} else if (!differ) {
			tap(false, "%s: listed as a difference but both drivers answer '%s' (remove it from the list)",
			    e->label, e->peer);
		} else if (e->why && !strcmp(e->exp_peer, e->peer ? e->peer : "(missing)") &&
			   !strcmp(e->exp_gaudi, e->gaudi ? e->gaudi : "(missing)")) {
			tap(true, "%s: listed difference: peer '%s', gaudi '%s': %s",
			    e->label, e->exp_peer, e->exp_gaudi, e->why);
			listed++;
		} else {
			tap(false, "%s: peer '%s', gaudi '%s' (%s%s%s%s%s)",
			    e->label, e->peer ? e->peer : "(missing)",
			    e->gaudi ? e->gaudi : "(missing)",
			    e->why ? "listed: peer '" : "not listed",
			    e->why ? e->exp_peer : "",
			    e->why ? "', gaudi '" : "",
			    e->why ? e->exp_gaudi : "", e->why ? "'" : "");
		}
	}
	printf("# %u calls answered alike, %u listed differences\n", same,
	       listed);
	printf("1..%d\n%d passed, %d failed\n", tap_n, tap_n - tap_failed,
	       tap_failed);
	return tap_failed ? 1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: hl_diff_test [--card N] [--seed S] run\n"
		   "       hl_diff_test compare PEER GAUDI EXPECTED\n");
}

int main(int argc, char **argv)
{
	int i = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (i < argc && !strncmp(argv[i], "--", 2)) {
		if (!strcmp(argv[i], "--card") && i + 1 < argc) {
			card = atoi(argv[i + 1]);
			i += 2;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			rng_state = strtoull(argv[i + 1], NULL, 0);
			if (!rng_state)
				rng_state = 1;
			i += 2;
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (i < argc && !strcmp(argv[i], "run") && i + 1 == argc)
		return run();
	if (i < argc && !strcmp(argv[i], "compare") && i + 4 == argc)
		return compare(argv[i + 1], argv[i + 2], argv[i + 3]);
	usage(stderr);
	return 2;
}
