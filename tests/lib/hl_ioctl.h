/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw ioctl helpers of upstream's habanalabs uapi (<drm/habanalabs_accel.h>)
 * shared by the in-guest test programs, which drive gaudi.ko and the
 * upstream peer without libgaudi.  The ioctl wrappers return 0 or -errno.
 */
#ifndef GAUDI_HL_IOCTL_H
#define GAUDI_HL_IOCTL_H

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

/* Hardware facts: the tree's description (Documentation/hw.rst). */
#include "../../hw/gaudi1/events.h"
#include "../../hw/gaudi1/memmap.h"
#include "../../hw/gaudi1/regs.h"
#include "../../hw/gaudi1/packets.h"

/* ioctl(), restarted on EINTR: 0 or -errno. */
static inline int xioctl(int fd, unsigned long req, void *arg)
{
	int rc;

	do {
		rc = ioctl(fd, req, arg);
	} while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : 0;
}

/*
 * Open a device node read-write (close-on-exec), retrying every 1 ms for
 * up to 20 s while it is EBUSY (held by another process); the fd or -1.
 */
static inline int hl_open_retry(const char *path)
{
	int fd, tries = 0;

	while ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0 && errno == EBUSY &&
	       tries++ < 20000)
		usleep(1000);
	return fd;
}

/*
 * The PCI address ("0000:01:00.0") of /dev/accel/accel@card into @bdf of
 * @len bytes, from its sysfs device link: 0, or -1 if there is none.
 */
static inline int hl_card_bdf(int card, char *bdf, size_t len)
{
	char link[64], target[256];
	const char *p;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", card);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = 0;
	p = strrchr(target, '/');
	p = p ? p + 1 : target;
	if (strlen(p) >= len)
		return -1;
	memcpy(bdf, p, strlen(p) + 1);
	return 0;
}

/* INFO query @op into @buf of @size bytes. */
static inline int hl_info(int fd, uint32_t op, void *buf, uint32_t size)
{
	struct hl_info_args a;

	memset(&a, 0, sizeof(a));
	a.return_pointer = (uintptr_t)buf;
	a.return_size = size;
	a.op = op;
	return xioctl(fd, DRM_IOCTL_HL_INFO, &a);
}

/*
 * DRAM_USAGE: the device's free HBM in *@free_mem and this context's in
 * *@ctx_mem (either may be NULL; both 0 on error); false if the query
 * failed.
 */
static inline bool hl_dram_usage(int fd, uint64_t *free_mem, uint64_t *ctx_mem)
{
	struct hl_info_dram_usage du;
	bool ok;

	memset(&du, 0, sizeof(du));
	ok = hl_info(fd, HL_INFO_DRAM_USAGE, &du, sizeof(du)) == 0;
	if (!ok)
		memset(&du, 0, sizeof(du));
	if (free_mem)
		*free_mem = du.dram_free_mem;
	if (ctx_mem)
		*ctx_mem = du.ctx_dram_mem;
	return ok;
}

/* Poll DEVICE_STATUS every 50 ms for up to @secs s until operational. */
static inline bool hl_wait_operational(int fd, int secs)
{
	struct hl_info_device_status ds;
	int i;

	for (i = 0; i < secs * 20; i++) {
		memset(&ds, 0, sizeof(ds));
		if (hl_info(fd, HL_INFO_DEVICE_STATUS, &ds, sizeof(ds)) == 0 &&
		    ds.status == HL_DEVICE_STATUS_OPERATIONAL)
			return true;
		usleep(50000);
	}
	return false;
}

/* Create a command buffer of @size bytes; its handle in *@h (0 on error). */
static inline int cb_create(int fd, uint32_t size, uint32_t flags, uint64_t *h)
{
	union hl_cb_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_CB_OP_CREATE;
	a.in.cb_size = size;
	a.in.flags = flags;
	rc = xioctl(fd, DRM_IOCTL_HL_CB, &a);
	*h = rc ? 0 : a.out.cb_handle;
	return rc;
}

/* Destroy the command buffer of handle @h. */
static inline int cb_destroy(int fd, uint64_t h)
{
	union hl_cb_args a;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_CB_OP_DESTROY;
	a.in.cb_handle = h;
	return xioctl(fd, DRM_IOCTL_HL_CB, &a);
}

/* Map @size bytes of host memory at @p (userptr); device VA in *@va. */
static inline int map_host(int fd, void *p, uint64_t size, uint64_t *va)
{
	union hl_mem_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_MAP;
	a.in.flags = HL_MEM_USERPTR;
	a.in.map_host.host_virt_addr = (uintptr_t)p;
	a.in.map_host.mem_size = size;
	rc = xioctl(fd, DRM_IOCTL_HL_MEMORY, &a);
	*va = rc ? 0 : a.out.device_virt_addr;
	return rc;
}

/* Unmap the host mapping at device VA @va. */
static inline int unmap_host(int fd, uint64_t va)
{
	union hl_mem_args a;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_UNMAP;
	a.in.unmap.device_virt_addr = va;
	return xioctl(fd, DRM_IOCTL_HL_MEMORY, &a);
}

/*
 * CB INFO with HL_CB_FLAGS_GET_DEVICE_VA: the device VA of CB @h (created
 * with HL_CB_FLAGS_MAP) in *@dva, 0 on error or when it has none.
 */
static inline int hl_cb_device_va(int fd, uint64_t h, uint64_t *dva)
{
	union hl_cb_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_CB_OP_INFO;
	a.in.cb_handle = h;
	a.in.flags = HL_CB_FLAGS_GET_DEVICE_VA;
	rc = xioctl(fd, DRM_IOCTL_HL_CB, &a);
	*dva = rc ? 0 : a.out.device_va;
	return rc;
}

/*
 * The number after "@key:" in /proc/self/fdinfo of @fd (a DRM client's
 * drm-* keys, a dma-buf's "size", ...), in bytes when DRM printed it with
 * a KiB or MiB unit; -1 if absent.
 */
static inline long long hl_fdinfo(int fd, const char *key)
{
	char p[64], line[256], unit[8];
	size_t kl = strlen(key);
	long long v = -1, n;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/self/fdinfo/%d", fd);
	f = fopen(p, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) || line[kl] != ':')
			continue;
		unit[0] = 0;
		if (sscanf(line + kl + 1, "%lld %7s", &n, unit) < 1)
			break;
		v = !strcmp(unit, "MiB") ? n << 20 :
		    !strcmp(unit, "KiB") ? n << 10 : n;
		break;
	}
	fclose(f);
	return v;
}

/* Map @size bytes of CB @h read-write into this process; MAP_FAILED on error. */
static inline uint8_t *hl_cb_mmap(int fd, uint64_t h, uint32_t size)
{
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)h);
}

/*
 * Allocate @size bytes of device memory (HBM) in pages of @page bytes (0:
 * the driver's default) with @flags; its handle in *@h (0 on error).
 */
static inline int hl_mem_alloc(int fd, uint64_t size, uint64_t page,
			       uint32_t flags, uint64_t *h)
{
	union hl_mem_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_ALLOC;
	a.in.flags = flags;
	a.in.alloc.mem_size = size;
	a.in.alloc.page_size = page;
	rc = xioctl(fd, DRM_IOCTL_HL_MEMORY, &a);
	*h = rc ? 0 : a.out.handle;
	return rc;
}

/* Free the device-memory allocation of handle @h. */
static inline int hl_mem_free(int fd, uint64_t h)
{
	union hl_mem_args a;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_FREE;
	a.in.free.handle = h;
	return xioctl(fd, DRM_IOCTL_HL_MEMORY, &a);
}

/*
 * Map the device-memory allocation of handle @h; its device VA in *@va
 * when @va is not NULL (0 on error).  unmap_host() unmaps it.
 */
static inline int hl_mem_map(int fd, uint64_t h, uint64_t *va)
{
	union hl_mem_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_MAP;
	a.in.map_device.handle = h;
	rc = xioctl(fd, DRM_IOCTL_HL_MEMORY, &a);
	if (va)
		*va = rc ? 0 : a.out.device_virt_addr;
	return rc;
}

/*
 * EXPORT_DMABUF_FD of @size bytes of device memory at @addr (+ @off) with
 * the file @flags; the dma-buf fd in *@out (-1 on error).
 */
static inline int hl_export_dmabuf(int fd, uint64_t addr, uint64_t size,
				   uint64_t off, uint32_t flags, int *out)
{
	union hl_mem_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_EXPORT_DMABUF_FD;
	a.in.flags = flags;
	a.in.export_dmabuf_fd.addr = addr;
	a.in.export_dmabuf_fd.mem_size = size;
	a.in.export_dmabuf_fd.offset = off;
	rc = xioctl(fd, DRM_IOCTL_HL_MEMORY, &a);
	*out = rc ? -1 : (int)a.out.fd;
	return rc;
}

/*
 * Wait up to @us microseconds for the CS of sequence @seq; its status and
 * flags in *@status and *@flags when those are not NULL.
 */
static inline int wait_cs(int fd, uint64_t seq, uint64_t us, uint32_t *status,
			  uint32_t *flags)
{
	union hl_wait_cs_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.seq = seq;
	a.in.timeout_us = us;
	rc = xioctl(fd, DRM_IOCTL_HL_WAIT_CS, &a);
	if (status)
		*status = a.out.status;
	if (flags)
		*flags = a.out.flags;
	return rc;
}

/*
 * Submit the @n chunks @ch as one CS with @flags (@timeout: seconds, with
 * HL_CS_FLAGS_CUSTOM_TIMEOUT); its sequence in *@seq (0 on error).
 */
static inline int hl_submit(int fd, struct hl_cs_chunk *ch, uint32_t n,
			    uint32_t flags, uint32_t timeout, uint64_t *seq)
{
	union hl_cs_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.chunks_execute = (uintptr_t)ch;
	a.in.num_chunks_execute = n;
	a.in.cs_flags = flags;
	a.in.timeout = timeout;
	rc = xioctl(fd, DRM_IOCTL_HL_CS, &a);
	if (seq)
		*seq = rc ? 0 : a.out.seq;
	return rc;
}

/* One chunk: the first @len bytes of CB @cb (a handle or, on an internal
 * queue, a device address) on queue @q. */
static inline int hl_submit1(int fd, uint64_t cb, uint32_t len, uint32_t q,
			     uint64_t *seq)
{
	struct hl_cs_chunk ch;

	memset(&ch, 0, sizeof(ch));
	ch.cb_handle = cb;
	ch.queue_index = q;
	ch.cb_size = len;
	return hl_submit(fd, &ch, 1, 0, 0, seq);
}

/*
 * wait_cs() of at most @us for @seq: 0 once the CS completed, -EIO if it
 * ended otherwise (or is still busy), or the wait's -errno.
 */
static inline int hl_wait_ok(int fd, uint64_t seq, uint64_t us)
{
	uint32_t st = ~0U;
	int rc = wait_cs(fd, seq, us, &st, NULL);

	if (!rc && st != HL_WAIT_CS_STATUS_COMPLETED)
		rc = -EIO;
	return rc;
}

/*
 * hl_submit1() and a wait of at most @us: 0 once the CS completed, -EIO
 * if it ended otherwise, or the failing call's -errno.
 */
static inline int hl_run1(int fd, uint64_t cb, uint32_t len, uint32_t q,
			  uint64_t us)
{
	uint64_t seq;
	int rc;

	rc = hl_submit1(fd, cb, len, q, &seq);
	return rc ? rc : hl_wait_ok(fd, seq, us);
}

/*
 * Multi-CS wait (HL_WAIT_CS_FLAGS_MULTI_CS) on the @n (<= 32) sequences
 * @seqs for up to @us microseconds; the bitmap of those that completed in
 * *@map and the status in *@status.
 */
static inline int hl_wait_multi(int fd, uint64_t *seqs, uint32_t n,
				uint64_t us, uint32_t *map, uint32_t *status)
{
	union hl_wait_cs_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.in.seq = (uintptr_t)seqs;
	a.in.seq_arr_len = n;
	a.in.timeout_us = us;
	a.in.flags = HL_WAIT_CS_FLAGS_MULTI_CS;
	rc = xioctl(fd, DRM_IOCTL_HL_WAIT_CS, &a);
	if (map)
		*map = a.out.cs_completion_map;
	if (status)
		*status = a.out.status;
	return rc;
}

/* ---- a session: the compute node, a CB and a mapped host buffer --------- */

/*
 * What most tests hold: the open node @fd, an external CB (handle @cb,
 * mapped at @cbp, @cb_size bytes) and a zeroed host buffer @buf mapped
 * (userptr) at device VA @va.
 */
struct hl_sess {
	int fd;
	uint64_t cb;
	uint8_t *cbp;
	uint8_t *buf;
	uint64_t va;
	uint32_t cb_size;
};

/* Undo hl_sess_open(), also a partial one; @s is then empty (fd -1). */
static inline void hl_sess_close(struct hl_sess *s)
{
	if (s->va)
		unmap_host(s->fd, s->va);
	if (s->cbp && s->cbp != MAP_FAILED)
		munmap(s->cbp, s->cb_size);
	if (s->cb)
		cb_destroy(s->fd, s->cb);
	free(s->buf);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/*
 * A session on the node already open as @fd (the session owns it; < 0
 * fails): a CB of @cb_size bytes, mapped, and a buffer of @buf_size bytes
 * aligned to @align, zeroed and mapped.  On failure everything is undone.
 */
static inline bool hl_sess_open(struct hl_sess *s, int fd, uint32_t cb_size,
				size_t buf_size, size_t align)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->cb_size = cb_size;
	if (fd < 0)
		goto fail;
	if (cb_create(fd, cb_size, 0, &s->cb))
		goto fail;
	s->cbp = hl_cb_mmap(fd, s->cb, cb_size);
	if (s->cbp == MAP_FAILED)
		goto fail;
	if (posix_memalign((void **)&s->buf, align, buf_size))
		goto fail;
	memset(s->buf, 0, buf_size);
	if (map_host(fd, s->buf, buf_size, &s->va))
		goto fail;
	return true;
fail:
	hl_sess_close(s);
	return false;
}

/* Run the first @len bytes of the session's CB on queue @q (hl_run1()). */
static inline int hl_sess_run(struct hl_sess *s, size_t len, uint32_t q,
			      uint64_t us)
{
	return hl_run1(s->fd, s->cb, (uint32_t)len, q, us);
}

/* ---- packet encoding (little endian) ------------------------------------ */

static inline void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static inline void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

/*
 * LIN_DMA {u32 tsize; u32 ctl; u64 src; u64 dst} at @cb + @off, 24 bytes:
 * linear, RB and MB set, MEMSET when @memset_op (@src is then the value),
 * EB (wait for the previous transfer to land) when @barrier.  Returns the
 * offset after the packet.
 */
static inline size_t pkt_lin_dma(uint8_t *cb, size_t off, uint64_t src,
				 uint64_t dst, uint32_t size, bool memset_op,
				 bool barrier)
{
	uint32_t ctl = (0x9U << 24) /* opcode LIN_DMA */ | (1U << 3) /* LIN */ |
		       (1U << 30) /* RB */ | (1U << 31) /* MB */;

	if (memset_op)
		ctl |= 1U << 4;		/* MEMSET */
	if (barrier)
		ctl |= 1U << 29;	/* EB */
	put32(cb + off, size);
	put32(cb + off + 4, ctl);
	put64(cb + off + 8, src);
	put64(cb + off + 16, dst & 0x00FFFFFFFFFFFFFFULL);
	return off + 24;
}

/* Packet opcodes and ctl bits: hw/gaudi1/packets.h. */
#define HL_PKT_CTL(op)		((uint32_t)(op) << PKT_CTL_OPCODE_SHIFT)

/* An 8-byte packet {w0; ctl} at @cb + @off; the offset after it. */
static inline size_t hl_pkt8(uint8_t *cb, size_t off, uint32_t op,
			     uint32_t w0, uint32_t ctl_extra)
{
	put32(cb + off, w0);
	put32(cb + off + 4, HL_PKT_CTL(op) | ctl_extra);
	return off + 8;
}

/* WREG_32 of @val to register @reg of the queue's engine window. */
static inline size_t hl_pkt_wreg32(uint8_t *cb, size_t off, uint32_t reg,
				   uint32_t val)
{
	return hl_pkt8(cb, off, PKT_WREG_32, val, (reg & 0xFFFF) << 8);
}

/*
 * MSG_LONG {value; ctl: op 21:20; u64 addr}: write @val to @addr (@op 0)
 * or a timestamp (@op 1); @prot makes it a MSG_PROT.
 */
static inline size_t hl_pkt_msg_long(uint8_t *cb, size_t off, uint64_t addr,
				     uint32_t val, bool prot)
{
	put32(cb + off, val);
	put32(cb + off + 4, HL_PKT_CTL(prot ? PKT_MSG_PROT :
					   PKT_MSG_LONG) | PKT_CTL_MB);
	put64(cb + off + 8, addr);
	return off + 16;
}

/*
 * MSG_SHORT {value; ctl: offset 15:0, op 21:20, base 23:22}: write @val to
 * the queue's CP_MSG_BASE@base + @offset.
 */
static inline size_t hl_pkt_msg_short(uint8_t *cb, size_t off, uint32_t base,
				      uint32_t offset, uint32_t val)
{
	return hl_pkt8(cb, off, PKT_MSG_SHORT, val,
		       (base & 3) << 22 | (offset & 0xFFFF) | PKT_CTL_MB);
}

/* FENCE on counter @id: wait until it reaches @target, subtract @dec. */
static inline size_t hl_pkt_fence(uint8_t *cb, size_t off, uint32_t id,
				  uint32_t target, uint32_t dec)
{
	return hl_pkt8(cb, off, PKT_FENCE,
		       (dec & 0xF) | (target & 0xFF) << 16 | (id & 3) << 30,
		       0);
}

#endif /* GAUDI_HL_IOCTL_H */
