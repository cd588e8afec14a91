/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgaudi: kernel command buffers, host mappings, submission (<gaudi/gaudi.h>).
 *
 * Copyright (C) the open Gaudi driver stack authors.
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version.
 */
#ifndef GAUDI_SUBMIT_H
#define GAUDI_SUBMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/habanalabs_accel.h>

#include <gaudi/cmdbuf.h>
#include <gaudi/device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- kernel command buffers --------------------------------------------- */

struct gaudi_cb;

/**
 * gaudi_cb_create() - create a kernel command buffer and map it
 * @dev: the device (compute node)
 * @size: bytes (1..HL_MAX_CB_SIZE; the driver rounds up to pages)
 * @out: receives the CB; destroy it with gaudi_cb_destroy()
 *
 * Return: 0, -EINVAL, -ENOMEM, -ENOTTY on a control node.
 */
int gaudi_cb_create(struct gaudi_dev *dev, uint32_t size,
		    struct gaudi_cb **out);

/**
 * gaudi_cb_create_mapped() - a command buffer internal queues can run
 * @dev: the device (compute node)
 * @size: as for gaudi_cb_create()
 * @out: as for gaudi_cb_create()
 *
 * Also mapped into the device MMU (HL_CB_FLAGS_MAP): a chunk on an
 * internal queue (DMA 2..7, MME, TPC, NIC) names its CB by that device
 * address, gaudi_cb_device_va(), instead of the handle.  A CS needs an
 * external job besides (the driver ends a CS by its external jobs).
 *
 * Return: as gaudi_cb_create().
 */
int gaudi_cb_create_mapped(struct gaudi_dev *dev, uint32_t size,
			   struct gaudi_cb **out);

/**
 * gaudi_cb_device_va() - the device address of a mapped CB
 * @cb: the CB
 *
 * Return: the address for &gaudi_chunk.cb_handle on an internal queue, or
 * 0 for a CB gaudi_cb_create() made.
 */
uint64_t gaudi_cb_device_va(const struct gaudi_cb *cb);

/**
 * gaudi_cb_destroy() - unmap and destroy a command buffer
 * @cb: the CB, or NULL
 *
 * The driver keeps the memory until work using it completes.
 *
 * Return: 0 or the driver's negative errno (the CB is freed anyway).
 */
int gaudi_cb_destroy(struct gaudi_cb *cb);

/**
 * gaudi_cb_handle() - the driver's handle of a CB
 * @cb: the CB
 *
 * Return: the handle (for &gaudi_chunk.cb_handle).
 */
uint64_t gaudi_cb_handle(const struct gaudi_cb *cb);

/**
 * gaudi_cb_size() - size of a CB
 * @cb: the CB
 *
 * Return: the size asked for at creation.
 */
uint32_t gaudi_cb_size(const struct gaudi_cb *cb);

/**
 * gaudi_cb_ptr() - the CB's memory, mapped in this process
 * @cb: the CB
 *
 * Return: the mapping (gaudi_cb_size() bytes).
 */
void *gaudi_cb_ptr(const struct gaudi_cb *cb);

/**
 * gaudi_cb_cmdbuf() - the builder that writes into the CB
 * @cb: the CB
 *
 * A fixed builder over gaudi_cb_ptr(): appending past the CB's size fails
 * with -ENOSPC.  gaudi_submit_cb() submits what it holds.
 *
 * Return: the builder, owned by the CB.
 */
struct gaudi_cmdbuf *gaudi_cb_cmdbuf(struct gaudi_cb *cb);

/**
 * gaudi_cb_load() - copy a builder's packets into a CB
 * @cb: the CB
 * @src: the builder
 *
 * Replaces the CB's contents; its builder then holds the same length.
 *
 * Return: 0, -ENOSPC when the packets do not fit.
 */
int gaudi_cb_load(struct gaudi_cb *cb, const struct gaudi_cmdbuf *src);

/* ---- host memory mappings ----------------------------------------------- */

struct gaudi_mapping;

/**
 * gaudi_map_host() - map host memory into the device MMU (userptr)
 * @dev: the device (compute node)
 * @ptr: start of the memory (page-aligned is best; the driver pins it)
 * @size: its size in bytes
 * @out: receives the mapping; release it with gaudi_unmap()
 *
 * Return: 0, -EINVAL (NULL, zero size), -ENOMEM, -EFAULT, or the driver's
 * negative errno.
 */
int gaudi_map_host(struct gaudi_dev *dev, void *ptr, uint64_t size,
		   struct gaudi_mapping **out);

/**
 * gaudi_unmap() - unmap and free a mapping
 * @m: the mapping, or NULL
 *
 * Return: 0 or the driver's negative errno (the object is freed anyway).
 */
int gaudi_unmap(struct gaudi_mapping *m);

/**
 * gaudi_mapping_va() - device virtual address of a mapping's first byte
 * @m: the mapping
 *
 * Return: the address.
 */
uint64_t gaudi_mapping_va(const struct gaudi_mapping *m);

/**
 * gaudi_mapping_size() - size of a mapping
 * @m: the mapping
 *
 * Return: bytes, as given to gaudi_map_host().
 */
uint64_t gaudi_mapping_size(const struct gaudi_mapping *m);

/**
 * gaudi_mapping_addr() - device address of a host pointer in a mapping
 * @m: the mapping
 * @p: a pointer into the mapped range
 * @va: receives the device address
 *
 * Return: 0, -ERANGE when @p is outside the mapping.
 */
int gaudi_mapping_addr(const struct gaudi_mapping *m, const void *p,
		       uint64_t *va);

/* ---- submission --------------------------------------------------------- */

/* Queues of Gaudi 1 (enum gaudi_queue_id of the uapi header). */
#define GAUDI_QUEUE_DMA_0_0	GAUDI_QUEUE_ID_DMA_0_0	/* external */
#define GAUDI_QUEUE_DMA_1_3	GAUDI_QUEUE_ID_DMA_1_3	/* last external */
#define GAUDI_NUM_EXT_QUEUES	8

/**
 * struct gaudi_chunk - one command buffer of a submission
 * @cb_handle: gaudi_cb_handle() of a CB (external queues), or a device
 *	address of the packets (internal queues)
 * @queue: queue id (GAUDI_QUEUE_ID_* of <drm/habanalabs_accel.h>)
 * @size: bytes of packets to execute
 * @flags: must be 0
 * @reserved: must be 0
 */
struct gaudi_chunk {
	uint64_t cb_handle;
	uint32_t queue;
	uint32_t size;
	uint32_t flags;
	uint32_t reserved[3];
};

/* Flags of gaudi_submit(). */
/* The chunks are restore chunks (run before the first CS of a context). */
#define GAUDI_SUBMIT_RESTORE	(1U << 0)

/**
 * gaudi_submit() - submit a command submission (CS)
 * @dev: the device (compute node)
 * @chunks: the chunks, executed on their queues
 * @n: how many (1..HL_MAX_JOBS_PER_CS)
 * @flags: 0 or GAUDI_SUBMIT_RESTORE
 * @seq: receives the CS sequence number for gaudi_wait()
 *
 * Return: 0; -EINVAL (bad arguments, refused packet as the driver parsed
 * it); -EPERM (a packet users may not issue); -EBUSY, -EAGAIN (queue full:
 * retry); -EIO (the driver accepted the call but failed the CS).
 */
int gaudi_submit(struct gaudi_dev *dev, const struct gaudi_chunk *chunks,
		 unsigned int n, uint32_t flags, uint64_t *seq);

/**
 * gaudi_submit_cb() - submit the packets of one CB on one queue
 * @cb: the CB (gaudi_cmdbuf_len() of its builder is the size)
 * @queue: queue id
 * @seq: receives the CS sequence number
 *
 * Return: as gaudi_submit(); -ENODATA when the CB's builder is empty.
 */
int gaudi_submit_cb(struct gaudi_cb *cb, uint32_t queue, uint64_t *seq);

/**
 * gaudi_wait() - wait for a CS
 * @dev: the device
 * @seq: its sequence number (GAUDI_SEQ_NONE: returns 0 at once)
 * @timeout_us: how long, in microseconds (0: poll)
 * @status: receives the driver's HL_WAIT_CS_STATUS_* (may be NULL); also
 *	written on -EBUSY, -ETIMEDOUT and -EIO
 *
 * Return: 0 completed; -EBUSY not yet (@timeout_us was 0); -ETIMEDOUT;
 * -EIO the CS was aborted (device reset, CS timeout); -EINVAL unknown
 * sequence number.
 */
int gaudi_wait(struct gaudi_dev *dev, uint64_t seq, uint64_t timeout_us,
	       uint32_t *status);

/**
 * gaudi_submit_signal() - a CS that signals a sync object on a queue
 * @dev: the device
 * @queue: an external queue
 * @seq: receives the signal CS's sequence number
 *
 * Return: as gaudi_submit().
 */
int gaudi_submit_signal(struct gaudi_dev *dev, uint32_t queue, uint64_t *seq);

/*
 * Sequence number of a CS that needs no waiting: upstream's driver submits
 * no wait CS when the signal CS has completed already, and answers this.
 */
#define GAUDI_SEQ_NONE	(~0ULL)

/**
 * gaudi_submit_wait() - a CS that makes a queue wait for a signal CS
 * @dev: the device
 * @queue: the queue that waits (later work on it runs after the signal)
 * @signal_seq: sequence number of a gaudi_submit_signal() CS
 * @seq: receives the wait CS's sequence number, or GAUDI_SEQ_NONE when the
 *	signal had completed and the driver queued nothing (gaudi_wait()
 *	accepts it)
 *
 * Return: as gaudi_submit().
 */
int gaudi_submit_wait(struct gaudi_dev *dev, uint32_t queue,
		      uint64_t signal_seq, uint64_t *seq);

/**
 * gaudi_dma_copy() - copy between device addresses and wait for it
 * @dev: the device
 * @queue: an external DMA queue (GAUDI_QUEUE_DMA_0_0..GAUDI_QUEUE_DMA_1_3)
 * @dst: destination device address (HBM, SRAM, or a gaudi_mapping_va())
 * @src: source device address
 * @size: bytes (split into LIN_DMA packets of at most 1 GiB)
 * @timeout_us: wait limit
 *
 * Builds a CB, submits it on @queue and waits for it.
 *
 * Return: 0 or a negative errno of gaudi_cb_create(), gaudi_submit(),
 * gaudi_wait().
 */
int gaudi_dma_copy(struct gaudi_dev *dev, uint32_t queue, uint64_t dst,
		   uint64_t src, uint64_t size, uint64_t timeout_us);

/**
 * gaudi_dma_memset() - fill device memory with a 64-bit pattern and wait
 * @dev: the device
 * @queue: an external DMA queue
 * @dst: destination device address
 * @pattern: 64-bit fill pattern
 * @size: bytes
 * @timeout_us: wait limit
 *
 * Return: as gaudi_dma_copy().
 */
int gaudi_dma_memset(struct gaudi_dev *dev, uint32_t queue, uint64_t dst,
		     uint64_t pattern, uint64_t size, uint64_t timeout_us);

/* ---- staged submission and encapsulated signals -------------------------- */

/**
 * DOC: Staged submission and encapsulated signals
 *
 * A staged submission is one CS submitted in parts: the first part
 * (GAUDI_STAGED_FIRST) gets the sequence number, every later part names
 * it, the last part (GAUDI_STAGED_LAST) closes the submission.  Every part
 * runs as soon as it is submitted; the submission completes when its parts
 * have, and gaudi_wait() on its sequence number waits for all of them.
 * Drivers complete a staged submission through its last part's external
 * queues: earlier parts on internal queues are the usual pattern.
 *
 * Encapsulated signals let such a submission signal from inside its own
 * CBs: gaudi_signals_reserve() reserves values of an external queue's sync
 * object (SOB), the first part takes the reservation
 * (gaudi_submit_staged_encaps()), its CBs add 1 to the SOB per signal
 * (gaudi_pkt_sob_inc()), and gaudi_submit_wait_encaps() makes any
 * external queue wait for the k-th of them.  A reservation ends with the
 * submission that took it; one no submission took is given back with
 * gaudi_signals_unreserve() (upstream's driver keeps the device context
 * alive for a reservation left behind at close, so that the device cannot
 * be opened again until its module is reloaded).
 */

/* Flags of gaudi_submit_staged() and gaudi_submit_staged_encaps(). */
/* The first part: it receives the submission's sequence number. */
#define GAUDI_STAGED_FIRST	(1U << 0)
/* The last part: it closes the submission. */
#define GAUDI_STAGED_LAST	(1U << 1)

/* Largest number of signals one reservation can hold (a SOB's 15 bits). */
#define GAUDI_SIGNALS_MAX	0x7FFFU

/**
 * gaudi_submit_staged() - submit one part of a staged submission
 * @dev: the device (compute node)
 * @chunks: the part's chunks, as for gaudi_submit()
 * @n: how many (1..HL_MAX_JOBS_PER_CS)
 * @flags: GAUDI_STAGED_FIRST on the first part, GAUDI_STAGED_LAST on the
 *	last, both on a submission of one part, neither in between
 * @staged_seq: the submission's sequence number: with GAUDI_STAGED_FIRST
 *	it receives it; on the other parts it is read (the first part's
 *	number; 0 and GAUDI_SEQ_NONE are -EINVAL) and written back with the
 *	driver's answer, the same number
 *
 * Return: as gaudi_submit(); -EINVAL also for a part of a submission that
 * ended, was closed by its last part, or was never submitted.
 */
int gaudi_submit_staged(struct gaudi_dev *dev, const struct gaudi_chunk *chunks,
			unsigned int n, uint32_t flags, uint64_t *staged_seq);

/**
 * struct gaudi_signal_reservation - encapsulated signals reserved on a queue
 * @handle: the driver's handle (never 0), for gaudi_submit_staged_encaps()
 *	and gaudi_signals_unreserve()
 * @queue: the external queue whose signal SOB was reserved
 * @count: how many signals were reserved
 * @sob_offset: the SOB's offset in the configuration space
 * @sob_addr: its device address, GAUDI_CFG_BASE + @sob_offset, for
 *	gaudi_pkt_sob_inc()
 * @first_value: the value the SOB reaches with the first reserved signal
 *	(@next_value - @count)
 * @next_value: the value it reaches with the next signal after the
 *	reservation (the driver's count: 5 after reserving 4 on a fresh queue)
 */
struct gaudi_signal_reservation {
	uint32_t handle;
	uint32_t queue;
	uint32_t count;
	uint32_t sob_offset;
	uint64_t sob_addr;
	uint32_t first_value;
	uint32_t next_value;
};

/**
 * gaudi_signals_reserve() - reserve encapsulated signals on a queue
 * @dev: the device (compute node)
 * @queue: an external queue (GAUDI_QUEUE_DMA_0_0..GAUDI_QUEUE_DMA_1_3)
 * @count: how many signals (0..GAUDI_SIGNALS_MAX)
 * @out: receives the reservation
 *
 * Signal CSs and reservations on @queue submitted later go on after the
 * reserved values.  Hand the reservation to a staged submission with
 * gaudi_submit_staged_encaps() or give it back with
 * gaudi_signals_unreserve().
 *
 * Return: 0; -EINVAL (NULL @dev or @out, @queue not external, @count too
 * large); -EBUSY (gaudi.ko: the queue's other SOB is held by a reservation
 * no CS took); -ENOSPC (too many reservations); -ENOTTY on a control node;
 * or the driver's negative errno.
 */
int gaudi_signals_reserve(struct gaudi_dev *dev, uint32_t queue, uint32_t count,
			  struct gaudi_signal_reservation *out);

/**
 * gaudi_signals_unreserve() - give back a reservation no submission took
 * @dev: the device
 * @handle: &gaudi_signal_reservation.handle
 *
 * Drivers accept it only while nothing was signalled or reserved on the
 * queue since the reservation.
 *
 * Return: 0; -EINVAL (handle 0, unknown handle, a reservation a
 * submission took or one signals were submitted after); -ENOTTY on a
 * control node.
 */
int gaudi_signals_unreserve(struct gaudi_dev *dev, uint32_t handle);

/**
 * gaudi_submit_staged_encaps() - submit the first part of a staged
 *	submission that gives a reservation's signals
 * @dev: the device (compute node)
 * @chunks: the part's chunks, as for gaudi_submit(); their CBs may add to
 *	the reservation's SOB (gaudi_pkt_sob_inc())
 * @n: how many (1..HL_MAX_JOBS_PER_CS)
 * @flags: 0, or GAUDI_STAGED_LAST for a submission of one part;
 *	GAUDI_STAGED_FIRST is implied and may be given
 * @handle: &gaudi_signal_reservation.handle of a reservation no
 *	submission took yet
 * @staged_seq: receives the submission's sequence number, for the later
 *	parts (gaudi_submit_staged()), gaudi_submit_wait_encaps() and
 *	gaudi_wait()
 *
 * Return: as gaudi_submit(); -EINVAL also for handle 0 or a handle the
 * driver does not know.
 */
int gaudi_submit_staged_encaps(struct gaudi_dev *dev,
			       const struct gaudi_chunk *chunks, unsigned int n,
			       uint32_t flags, uint32_t handle,
			       uint64_t *staged_seq);

/**
 * gaudi_submit_wait_encaps() - a CS that makes a queue wait for an
 *	encapsulated signal
 * @dev: the device
 * @queue: the external queue that waits (later work on it runs after the
 *	signal)
 * @staged_seq: sequence number of the staged submission that took the
 *	reservation
 * @offset: which of its signals, 1..count (0 also means the first)
 * @seq: receives the wait CS's sequence number, or GAUDI_SEQ_NONE when the
 *	driver queued nothing (gaudi_wait() accepts it)
 *
 * Once the submission has ended (or for a sequence number that had no
 * reservation) there is nothing to wait for: gaudi.ko queues a CS that
 * completes at once, upstream's driver queues nothing and answers
 * GAUDI_SEQ_NONE.
 *
 * Return: as gaudi_submit(); -EINVAL also for @staged_seq 0 or
 * GAUDI_SEQ_NONE, a @queue that is not external (checked before any
 * ioctl), or an @offset beyond the reservation.
 */
int gaudi_submit_wait_encaps(struct gaudi_dev *dev, uint32_t queue,
			     uint64_t staged_seq, uint32_t offset,
			     uint64_t *seq);

#ifdef __cplusplus
}
#endif

#endif /* GAUDI_SUBMIT_H */
