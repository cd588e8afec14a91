// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi: kernel command buffers, host memory mappings, command
 * submission and completion.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gaudi_int.h"
#include "gaudi1/packets.h"

/* LIN_DMA transfers of gaudi_dma_copy() are cut at this size. */
#define DMA_PIECE		(1ULL << 30)
#define DMA_PKT_SIZE		PKT_SIZE_LIN_DMA

/* ---- command buffers ---------------------------------------------------- */

static int cb_ioctl(struct gaudi_dev *dev, union hl_cb_args *a)
{
	return dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_HL_CB, a);
}

static int cb_destroy_handle(struct gaudi_dev *dev, uint64_t handle)
{
	union hl_cb_args a;

	memset(&a, 0, sizeof(a));
	a.in.op = HL_CB_OP_DESTROY;
	a.in.cb_handle = handle;
	return cb_ioctl(dev, &a);
}

static int cb_create(struct gaudi_dev *dev, uint32_t size, bool mapped,
		     struct gaudi_cb **out)
{
	struct gaudi_cb *cb;
	union hl_cb_args a;
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	if (!dev || !out || !size || size > HL_MAX_CB_SIZE)
		return -EINVAL;
	if (dev->control)
		return -ENOTTY;
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return -ENOMEM;
	memset(&a, 0, sizeof(a));
	a.in.op = HL_CB_OP_CREATE;
	a.in.cb_size = size;
	a.in.flags = mapped ? HL_CB_FLAGS_MAP : 0;
	ret = cb_ioctl(dev, &a);
	if (ret)
		goto err_free;
	cb->dev = dev;
	cb->handle = a.out.cb_handle;
	cb->size = size;
	if (mapped) {
		uint64_t handle = cb->handle;

		memset(&a, 0, sizeof(a));
		a.in.op = HL_CB_OP_INFO;
		a.in.cb_handle = handle;
		a.in.flags = HL_CB_FLAGS_GET_DEVICE_VA;
		ret = cb_ioctl(dev, &a);
		if (ret)
			goto err_destroy;
		cb->device_va = a.out.device_va;
		if (!cb->device_va) {
			ret = -EIO;
			goto err_destroy;
		}
	}
	cb->map_len = ((size_t)size + page - 1) & ~((size_t)page - 1);
	/* The handle is also the CB's mmap offset. */
	cb->map = dev->sys->mmap(dev->sys, cb->map_len, PROT_READ | PROT_WRITE,
				 MAP_SHARED, dev->fd, (off_t)cb->handle);
	if (cb->map == MAP_FAILED) {
		ret = errno ? -errno : -ENOMEM;
		goto err_destroy;
	}
	cb->builder.buf = cb->map;
	cb->builder.cap = size;
	cb->builder.max = size;
	cb->builder.embedded = true;
	*out = cb;
	return 0;

err_destroy:
	cb_destroy_handle(dev, cb->handle);
err_free:
	free(cb);
	return ret;
}

GAUDI_EXPORT int gaudi_cb_create(struct gaudi_dev *dev, uint32_t size,
				 struct gaudi_cb **out)
{
	return cb_create(dev, size, false, out);
}

GAUDI_EXPORT int gaudi_cb_create_mapped(struct gaudi_dev *dev, uint32_t size,
					struct gaudi_cb **out)
{
	return cb_create(dev, size, true, out);
}

GAUDI_EXPORT uint64_t gaudi_cb_device_va(const struct gaudi_cb *cb)
{
	return cb ? cb->device_va : 0;
}

GAUDI_EXPORT int gaudi_cb_destroy(struct gaudi_cb *cb)
{
	struct gaudi_dev *dev;
	int ret;

	if (!cb)
		return 0;
	dev = cb->dev;
	dev->sys->munmap(dev->sys, cb->map, cb->map_len);
	ret = cb_destroy_handle(dev, cb->handle);
	free(cb);
	return ret;
}

GAUDI_EXPORT uint64_t gaudi_cb_handle(const struct gaudi_cb *cb)
{
	return cb->handle;
}

GAUDI_EXPORT uint32_t gaudi_cb_size(const struct gaudi_cb *cb)
{
	return cb->size;
}

GAUDI_EXPORT void *gaudi_cb_ptr(const struct gaudi_cb *cb)
{
	return cb->map;
}

GAUDI_EXPORT struct gaudi_cmdbuf *gaudi_cb_cmdbuf(struct gaudi_cb *cb)
{
	return &cb->builder;
}

GAUDI_EXPORT int gaudi_cb_load(struct gaudi_cb *cb,
			       const struct gaudi_cmdbuf *src)
{
	if (!cb || !src)
		return -EINVAL;
	if (src->len > cb->size)
		return -ENOSPC;
	if (src->len)
		memcpy(cb->map, src->buf, src->len);
	cb->builder.len = src->len;
	return 0;
}

/* ---- host memory -------------------------------------------------------- */

static int mem_ioctl(struct gaudi_dev *dev, union hl_mem_args *a)
{
	return dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_HL_MEMORY, a);
}

GAUDI_EXPORT int gaudi_map_host(struct gaudi_dev *dev, void *ptr,
				uint64_t size, struct gaudi_mapping **out)
{
	struct gaudi_mapping *m;
	union hl_mem_args a;
	int ret;

	if (!dev || !ptr || !size || !out)
		return -EINVAL;
	if (dev->control)
		return -ENOTTY;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_MAP;
	a.in.flags = HL_MEM_USERPTR;
	a.in.map_host.host_virt_addr = (uintptr_t)ptr;
	a.in.map_host.mem_size = size;
	ret = mem_ioctl(dev, &a);
	if (ret) {
		free(m);
		return ret;
	}
	m->dev = dev;
	m->ptr = ptr;
	m->size = size;
	m->va = a.out.device_virt_addr;
	*out = m;
	return 0;
}

GAUDI_EXPORT int gaudi_unmap(struct gaudi_mapping *m)
{
	union hl_mem_args a;
	int ret;

	if (!m)
		return 0;
	memset(&a, 0, sizeof(a));
	a.in.op = HL_MEM_OP_UNMAP;
	a.in.unmap.device_virt_addr = m->va;
	ret = mem_ioctl(m->dev, &a);
	free(m);
	return ret;
}

GAUDI_EXPORT uint64_t gaudi_mapping_va(const struct gaudi_mapping *m)
{
	return m->va;
}

GAUDI_EXPORT uint64_t gaudi_mapping_size(const struct gaudi_mapping *m)
{
	return m->size;
}

GAUDI_EXPORT int gaudi_mapping_addr(const struct gaudi_mapping *m,
				    const void *p, uint64_t *va)
{
	uintptr_t base = (uintptr_t)m->ptr, q = (uintptr_t)p;

	if (!va || q < base || q - base >= m->size)
		return -ERANGE;
	*va = m->va + (q - base);
	return 0;
}

/* ---- submission --------------------------------------------------------- */

static int cs_ioctl(struct gaudi_dev *dev, union hl_cs_args *a, uint64_t *seq)
{
	int ret;

	if (dev->control)
		return -ENOTTY;
	ret = dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_HL_CS, a);
	if (ret)
		return ret;
	if (a->out.status != HL_CS_STATUS_SUCCESS)
		return -EIO;
	if (seq)
		*seq = a->out.seq;
	return 0;
}

/* The chunks of a CS: 1..HL_MAX_JOBS_PER_CS, flags and reserved 0. */
static int check_chunks(const struct gaudi_chunk *chunks, unsigned int n)
{
	unsigned int i;

	if (!chunks || !n || n > HL_MAX_JOBS_PER_CS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (chunks[i].flags || chunks[i].reserved[0] ||
		    chunks[i].reserved[1] || chunks[i].reserved[2])
			return -EINVAL;
	return 0;
}

/*
 * Submits @a (flags and fields set by the caller) with @chunks, checked
 * already, as its execute chunks or, with @restore, its restore chunks.
 */
static int submit_chunks(struct gaudi_dev *dev,
			 const struct gaudi_chunk *chunks, unsigned int n,
			 bool restore, union hl_cs_args *a, uint64_t *seq)
{
	struct hl_cs_chunk stack[8], *hc = stack;
	unsigned int i;
	int ret;

	if (n > sizeof(stack) / sizeof(stack[0])) {
		hc = calloc(n, sizeof(*hc));
		if (!hc)
			return -ENOMEM;
	} else {
		memset(stack, 0, sizeof(stack));
	}
	for (i = 0; i < n; i++) {
		hc[i].cb_handle = chunks[i].cb_handle;
		hc[i].queue_index = chunks[i].queue;
		hc[i].cb_size = chunks[i].size;
	}
	if (restore) {
		a->in.chunks_restore = (uintptr_t)hc;
		a->in.num_chunks_restore = n;
	} else {
		a->in.chunks_execute = (uintptr_t)hc;
		a->in.num_chunks_execute = n;
	}
	ret = cs_ioctl(dev, a, seq);
	if (hc != stack)
		free(hc);
	return ret;
}

GAUDI_EXPORT int gaudi_submit(struct gaudi_dev *dev,
			      const struct gaudi_chunk *chunks, unsigned int n,
			      uint32_t flags, uint64_t *seq)
{
	union hl_cs_args a;
	int ret;

	if (!dev || !seq || (flags & ~GAUDI_SUBMIT_RESTORE))
		return -EINVAL;
	ret = check_chunks(chunks, n);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	if (flags & GAUDI_SUBMIT_RESTORE)
		a.in.cs_flags = HL_CS_FLAGS_FORCE_RESTORE;
	return submit_chunks(dev, chunks, n, flags & GAUDI_SUBMIT_RESTORE, &a,
			     seq);
}

GAUDI_EXPORT int gaudi_submit_cb(struct gaudi_cb *cb, uint32_t queue,
				 uint64_t *seq)
{
	struct gaudi_chunk c;

	if (!cb)
		return -EINVAL;
	if (!cb->builder.len)
		return -ENODATA;
	memset(&c, 0, sizeof(c));
	c.cb_handle = cb->handle;
	c.queue = queue;
	c.size = (uint32_t)cb->builder.len;
	return gaudi_submit(cb->dev, &c, 1, 0, seq);
}

GAUDI_EXPORT int gaudi_wait(struct gaudi_dev *dev, uint64_t seq,
			    uint64_t timeout_us, uint32_t *status)
{
	union hl_wait_cs_args a;
	int ret;

	if (!dev)
		return -EINVAL;
	if (dev->control)
		return -ENOTTY;
	if (seq == GAUDI_SEQ_NONE) {
		if (status)
			*status = HL_WAIT_CS_STATUS_COMPLETED;
		return 0;
	}
	memset(&a, 0, sizeof(a));
	a.in.seq = seq;
	a.in.timeout_us = timeout_us;
	ret = dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_HL_WAIT_CS, &a);
	/* The driver reports timeouts and aborts in out.status, rc or both. */
	if (ret && ret != -ETIMEDOUT && ret != -EIO)
		return ret;
	if (status)
		*status = a.out.status;
	switch (a.out.status) {
	case HL_WAIT_CS_STATUS_COMPLETED:
		return ret;
	case HL_WAIT_CS_STATUS_BUSY:
		return ret ? ret : -EBUSY;
	case HL_WAIT_CS_STATUS_TIMEDOUT:
		return -ETIMEDOUT;
	case HL_WAIT_CS_STATUS_ABORTED:
		return -EIO;
	default:
		return ret ? ret : -EPROTO;
	}
}

GAUDI_EXPORT int gaudi_submit_signal(struct gaudi_dev *dev, uint32_t queue,
				     uint64_t *seq)
{
	struct hl_cs_chunk c;
	union hl_cs_args a;

	if (!dev || !seq)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	c.queue_index = queue;
	memset(&a, 0, sizeof(a));
	a.in.chunks_execute = (uintptr_t)&c;
	a.in.num_chunks_execute = 1;
	a.in.cs_flags = HL_CS_FLAGS_SIGNAL;
	return cs_ioctl(dev, &a, seq);
}

GAUDI_EXPORT int gaudi_submit_wait(struct gaudi_dev *dev, uint32_t queue,
				   uint64_t signal_seq, uint64_t *seq)
{
	uint64_t sigs[1] = { signal_seq };
	struct hl_cs_chunk c;
	union hl_cs_args a;

	if (!dev || !seq)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	c.signal_seq_arr = (uintptr_t)sigs;
	c.num_signal_seq_arr = 1;
	c.queue_index = queue;
	memset(&a, 0, sizeof(a));
	a.in.chunks_execute = (uintptr_t)&c;
	a.in.num_chunks_execute = 1;
	a.in.cs_flags = HL_CS_FLAGS_WAIT;
	return cs_ioctl(dev, &a, seq);
}

/* One CB of LIN_DMA packets (copy or memset), submitted and waited for. */
static int dma_run(struct gaudi_dev *dev, uint32_t queue, uint64_t dst,
		   uint64_t src, uint64_t size, bool is_memset,
		   uint64_t timeout_us)
{
	uint64_t pieces, done, seq;
	struct gaudi_cb *cb;
	uint32_t cb_size;
	int ret;

	if (!dev || !size)
		return -EINVAL;
	if (queue >= GAUDI_NUM_EXT_QUEUES)
		return -EINVAL;
	if (dst + size < dst || (!is_memset && src + size < src))
		return -EINVAL;
	pieces = (size + DMA_PIECE - 1) / DMA_PIECE;
	if (pieces * DMA_PKT_SIZE > HL_MAX_CB_SIZE)
		return -E2BIG;
	cb_size = (uint32_t)(pieces * DMA_PKT_SIZE);
	ret = gaudi_cb_create(dev, cb_size, &cb);
	if (ret)
		return ret;
	for (done = 0; done < size && !ret; done += DMA_PIECE) {
		uint64_t n = size - done < DMA_PIECE ? size - done : DMA_PIECE;

		if (is_memset)
			ret = gaudi_pkt_memset(&cb->builder, dst + done, src,
					       (uint32_t)n, 0, 0);
		else
			ret = gaudi_pkt_lin_dma(&cb->builder, dst + done,
						src + done, (uint32_t)n, 0, 0);
	}
	if (!ret)
		ret = gaudi_submit_cb(cb, queue, &seq);
	if (!ret)
		ret = gaudi_wait(dev, seq, timeout_us, NULL);
	gaudi_cb_destroy(cb);
	return ret;
}

GAUDI_EXPORT int gaudi_dma_copy(struct gaudi_dev *dev, uint32_t queue,
				uint64_t dst, uint64_t src, uint64_t size,
				uint64_t timeout_us)
{
	return dma_run(dev, queue, dst, src, size, false, timeout_us);
}

GAUDI_EXPORT int gaudi_dma_memset(struct gaudi_dev *dev, uint32_t queue,
				  uint64_t dst, uint64_t pattern, uint64_t size,
				  uint64_t timeout_us)
{
	return dma_run(dev, queue, dst, pattern, size, true, timeout_us);
}

/* ---- staged submission and encapsulated signals ------------------------- */

#define STAGED_FLAGS	(GAUDI_STAGED_FIRST | GAUDI_STAGED_LAST)

static uint32_t staged_cs_flags(uint32_t flags)
{
	uint32_t f = HL_CS_FLAGS_STAGED_SUBMISSION;

	if (flags & GAUDI_STAGED_FIRST)
		f |= HL_CS_FLAGS_STAGED_SUBMISSION_FIRST;
	if (flags & GAUDI_STAGED_LAST)
		f |= HL_CS_FLAGS_STAGED_SUBMISSION_LAST;
	return f;
}

GAUDI_EXPORT int gaudi_submit_staged(struct gaudi_dev *dev,
				     const struct gaudi_chunk *chunks,
				     unsigned int n, uint32_t flags,
				     uint64_t *staged_seq)
{
	union hl_cs_args a;
	int ret;

	if (!dev || !staged_seq || (flags & ~STAGED_FLAGS))
		return -EINVAL;
	ret = check_chunks(chunks, n);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.in.cs_flags = staged_cs_flags(flags);
	if (!(flags & GAUDI_STAGED_FIRST)) {
		if (!*staged_seq || *staged_seq == GAUDI_SEQ_NONE)
			return -EINVAL;
		a.in.seq = *staged_seq;
	}
	return submit_chunks(dev, chunks, n, false, &a, staged_seq);
}

GAUDI_EXPORT int gaudi_submit_staged_encaps(struct gaudi_dev *dev,
					    const struct gaudi_chunk *chunks,
					    unsigned int n, uint32_t flags,
					    uint32_t handle,
					    uint64_t *staged_seq)
{
	union hl_cs_args a;
	int ret;

	if (!dev || !staged_seq || !handle || (flags & ~STAGED_FLAGS))
		return -EINVAL;
	ret = check_chunks(chunks, n);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.in.cs_flags = staged_cs_flags(flags | GAUDI_STAGED_FIRST) |
			HL_CS_FLAGS_ENCAP_SIGNALS;
	a.in.encaps_sig_handle_id = handle;
	return submit_chunks(dev, chunks, n, false, &a, staged_seq);
}

GAUDI_EXPORT int gaudi_signals_reserve(struct gaudi_dev *dev, uint32_t queue,
				       uint32_t count,
				       struct gaudi_signal_reservation *out)
{
	union hl_cs_args a;
	int ret;

	if (!dev || !out || queue >= GAUDI_NUM_EXT_QUEUES ||
	    count > GAUDI_SIGNALS_MAX)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.in.cs_flags = HL_CS_FLAGS_RESERVE_SIGNALS_ONLY;
	a.in.encaps_signals_q_idx = queue;
	a.in.encaps_signals_count = count;
	ret = cs_ioctl(dev, &a, NULL);
	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	out->handle = a.out.handle_id;
	out->queue = queue;
	out->count = count;
	out->sob_offset = a.out.sob_base_addr_offset;
	out->sob_addr = GAUDI_CFG_BASE + a.out.sob_base_addr_offset;
	out->next_value = a.out.count;
	out->first_value = a.out.count >= count ? a.out.count - count : 0;
	return 0;
}

GAUDI_EXPORT int gaudi_signals_unreserve(struct gaudi_dev *dev, uint32_t handle)
{
	union hl_cs_args a;

	if (!dev || !handle)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.in.cs_flags = HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY;
	a.in.encaps_sig_handle_id = handle;
	return cs_ioctl(dev, &a, NULL);
}

GAUDI_EXPORT int gaudi_submit_wait_encaps(struct gaudi_dev *dev, uint32_t queue,
					  uint64_t staged_seq, uint32_t offset,
					  uint64_t *seq)
{
	struct hl_cs_chunk c;
	union hl_cs_args a;

	if (!dev || !seq || queue >= GAUDI_NUM_EXT_QUEUES || !staged_seq ||
	    staged_seq == GAUDI_SEQ_NONE)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	c.queue_index = queue;
	c.encaps_signal_seq = staged_seq;
	c.encaps_signal_offset = offset;
	memset(&a, 0, sizeof(a));
	a.in.chunks_execute = (uintptr_t)&c;
	a.in.num_chunks_execute = 1;
	a.in.cs_flags = HL_CS_FLAGS_WAIT | HL_CS_FLAGS_ENCAP_SIGNALS;
	return cs_ioctl(dev, &a, seq);
}
