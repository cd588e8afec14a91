/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgaudi: the command-buffer builder: packets (<gaudi/gaudi.h>).
 *
 * Copyright (C) the open Gaudi driver stack authors.
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version.
 */
#ifndef GAUDI_CMDBUF_H
#define GAUDI_CMDBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- command-buffer builder --------------------------------------------- */

/**
 * DOC: Command buffers
 *
 * A &struct gaudi_cmdbuf appends Gaudi 1 QMAN packets, little-endian, to a
 * buffer: either its own heap buffer, which grows up to a limit, or fixed
 * memory (a kernel CB's mapping, or caller memory).  Every append checks
 * its arguments (-EINVAL) and the room left (-ENOSPC) before it writes:
 * a failed append leaves the buffer as it was.
 *
 * Every packet function takes @ctl, the barrier bits of the packet's
 * control word: any of GAUDI_PKT_EB, GAUDI_PKT_RB, GAUDI_PKT_MB (other bits
 * are -EINVAL).  Drivers refuse some packets from users on external queues
 * (WREG_BULK, MSG_PROT, CP_DMA, STOP, scalar LOAD_AND_EXE): the builder
 * encodes them anyway, for internal queues and for tests.
 */

/* Packet control word barrier bits. */
#define GAUDI_PKT_EB	(1U << 29)	/* engine barrier */
#define GAUDI_PKT_RB	(1U << 30)	/* register barrier */
#define GAUDI_PKT_MB	(1U << 31)	/* message barrier */

/* Packet opcodes (control word bits 28:24). */
enum gaudi_pkt_opcode {
	GAUDI_PKT_WREG_32 = 0x1,
	GAUDI_PKT_WREG_BULK = 0x2,
	GAUDI_PKT_MSG_LONG = 0x3,
	GAUDI_PKT_MSG_SHORT = 0x4,
	GAUDI_PKT_CP_DMA = 0x5,
	GAUDI_PKT_REPEAT = 0x6,
	GAUDI_PKT_MSG_PROT = 0x7,
	GAUDI_PKT_FENCE = 0x8,
	GAUDI_PKT_LIN_DMA = 0x9,
	GAUDI_PKT_NOP = 0xA,
	GAUDI_PKT_STOP = 0xB,
	GAUDI_PKT_ARB_POINT = 0xC,
	GAUDI_PKT_WAIT = 0xD,
	GAUDI_PKT_LOAD_AND_EXE = 0xF,
};

/* MSG_LONG / MSG_SHORT / MSG_PROT operation (ctl bits 21:20). */
#define GAUDI_MSG_OP_WRITE	0	/* write the value */
#define GAUDI_MSG_OP_TIMESTAMP	1	/* write a timestamp */

/* LIN_DMA options (ctl bits 2:0); LIN (bit 3) is always set. */
#define GAUDI_LIN_DMA_WRCOMP	(1U << 0)	/* write completion */
#define GAUDI_LIN_DMA_TRANSPOSE	(1U << 1)
#define GAUDI_LIN_DMA_DTYPE	(1U << 2)

/* LOAD_AND_EXE cfg bits. */
#define GAUDI_LOAD_EXE_DST_SCALAR	(1U << 0)
#define GAUDI_LOAD_EXE_LOAD		(1U << 8)
#define GAUDI_LOAD_EXE_EXE		(1U << 9)
#define GAUDI_LOAD_EXE_ETYPE		(1U << 10)

/* Largest device address a LIN_DMA destination can hold (bits 55:0). */
#define GAUDI_LIN_DMA_DST_MAX	((1ULL << 56) - 1)

struct gaudi_cmdbuf;

/**
 * gaudi_cmdbuf_new() - a builder with its own growing buffer
 * @initial: initial capacity in bytes (0: a default)
 * @max: the buffer never grows past this (0: HL_MAX_CB_SIZE)
 * @out: receives the builder; free it with gaudi_cmdbuf_free()
 *
 * Return: 0, -EINVAL (@initial > @max), -ENOMEM.
 */
int gaudi_cmdbuf_new(size_t initial, size_t max, struct gaudi_cmdbuf **out);

/**
 * gaudi_cmdbuf_wrap() - a builder over fixed caller memory
 * @mem: the memory (packets are written from its start)
 * @size: its size in bytes
 * @out: receives the builder; free it with gaudi_cmdbuf_free() (which
 *	leaves @mem alone)
 *
 * Return: 0, -EINVAL (NULL @mem with a non-zero @size), -ENOMEM.
 */
int gaudi_cmdbuf_wrap(void *mem, size_t size, struct gaudi_cmdbuf **out);

/**
 * gaudi_cmdbuf_free() - free a builder
 * @cb: the builder, or NULL; the builder of a CB is freed with its CB
 */
void gaudi_cmdbuf_free(struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_reset() - empty a builder (capacity is kept)
 * @cb: the builder
 */
void gaudi_cmdbuf_reset(struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_len() - bytes of packets in a builder
 * @cb: the builder
 *
 * Return: the length.
 */
size_t gaudi_cmdbuf_len(const struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_room() - bytes that can still be appended
 * @cb: the builder
 *
 * Return: for a growing builder, up to its maximum.
 */
size_t gaudi_cmdbuf_room(const struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_data() - the packets
 * @cb: the builder
 *
 * Return: the start of the buffer; valid until the next append (a growing
 * buffer may move).
 */
const void *gaudi_cmdbuf_data(const struct gaudi_cmdbuf *cb);

/**
 * gaudi_pkt_wreg32() - WREG_32: write a register
 * @cb: the builder
 * @reg: register offset within the queue's block (0..0xFFFF)
 * @value: value
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM (growing).
 */
int gaudi_pkt_wreg32(struct gaudi_cmdbuf *cb, uint32_t reg, uint32_t value,
		     uint32_t ctl);

/**
 * gaudi_pkt_wreg_bulk() - WREG_BULK: write consecutive 64-bit registers
 * @cb: the builder
 * @reg: first register offset (0..0xFFFF)
 * @values: the values
 * @count: how many (1..0xFFFF)
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_wreg_bulk(struct gaudi_cmdbuf *cb, uint32_t reg,
			const uint64_t *values, uint32_t count, uint32_t ctl);

/**
 * gaudi_pkt_msg_long() - MSG_LONG: write a value or timestamp to an address
 * @cb: the builder
 * @addr: device address
 * @value: value (ignored for GAUDI_MSG_OP_TIMESTAMP)
 * @op: GAUDI_MSG_OP_WRITE or GAUDI_MSG_OP_TIMESTAMP
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_msg_long(struct gaudi_cmdbuf *cb, uint64_t addr, uint32_t value,
		       uint32_t op, uint32_t ctl);

/**
 * gaudi_pkt_msg_short() - MSG_SHORT: write relative to a message base
 * @cb: the builder
 * @base: which CP_MSG_BASE of the queue (0..3)
 * @offset: byte offset from that base (0..0xFFFF)
 * @value: value (see gaudi_sob_value() and gaudi_mon_arm_value())
 * @op: GAUDI_MSG_OP_WRITE or GAUDI_MSG_OP_TIMESTAMP
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_msg_short(struct gaudi_cmdbuf *cb, uint32_t base,
			uint32_t offset, uint32_t value, uint32_t op,
			uint32_t ctl);

/**
 * gaudi_sob_value() - MSG_SHORT value that updates a sync object
 * @value: the value (0..0x7FFF)
 * @add: true: add @value to the SOB; false: set it
 *
 * Return: the encoded value (bits 14:0 value, bit 31 add mode).
 */
uint32_t gaudi_sob_value(uint32_t value, bool add);

/**
 * gaudi_mon_arm_value() - MSG_SHORT value that arms a monitor
 * @group: sync group id (SOB index / 8, 0..255)
 * @mask: SOBs of the group NOT to watch (bit i: SOB group*8+i)
 * @value: target value (0..0x7FFF)
 * @mode_eq: true: fire when equal; false: when greater or equal
 *
 * Return: the encoded value (7:0 group, 15:8 mask, 16 mode, 31:17 value).
 */
uint32_t gaudi_mon_arm_value(uint32_t group, uint32_t mask, uint32_t value,
			     bool mode_eq);

/*
 * Device address of the configuration space, where the sync objects are:
 * a SOB's address is GAUDI_CFG_BASE plus the offset a driver reports
 * (&gaudi_signal_reservation.sob_offset).
 */
#define GAUDI_CFG_BASE	0x7FFC000000ULL

/**
 * gaudi_pkt_sob_inc() - MSG_LONG that adds 1 to a sync object
 * @cb: the builder
 * @sob_addr: device address of the SOB (4-byte aligned), e.g.
 *	&gaudi_signal_reservation.sob_addr
 * @ctl: barrier bits; GAUDI_PKT_EB makes the signal wait until the
 *	engine's earlier work (a LIN_DMA before it) has completed
 *
 * One encapsulated signal: a staged submission that took a reservation
 * (gaudi_submit_staged_encaps()) adds 1 to the reservation's SOB per
 * signal it gives.  The same as gaudi_pkt_msg_long() of
 * gaudi_sob_value(1, true) with GAUDI_MSG_OP_WRITE.  Drivers refuse CBs
 * that write a SOB they do not own: gaudi.ko allows only adding to the SOB
 * of the submission's own reservation.
 *
 * Return: 0, -EINVAL (bad @ctl, unaligned @sob_addr), -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_sob_inc(struct gaudi_cmdbuf *cb, uint64_t sob_addr, uint32_t ctl);

/**
 * gaudi_pkt_cp_dma() - CP_DMA: fetch and execute packets from memory
 * @cb: the builder
 * @src: device address of the packets
 * @size: their size in bytes
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_cp_dma(struct gaudi_cmdbuf *cb, uint64_t src, uint32_t size,
		     uint32_t ctl);

/**
 * gaudi_pkt_repeat() - REPEAT: loop back in the command buffer
 * @cb: the builder
 * @jump: jump pointer (0..0xFFFF)
 * @sore: start-of-repeat-region bit
 * @o: outer-loop bit
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_repeat(struct gaudi_cmdbuf *cb, uint32_t jump, bool sore,
		     bool o, uint32_t ctl);

/**
 * gaudi_pkt_msg_prot() - MSG_PROT: protected write (driver-only on
 *	external queues)
 * @cb: the builder
 * @addr: device address
 * @value: value
 * @op: GAUDI_MSG_OP_WRITE or GAUDI_MSG_OP_TIMESTAMP
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_msg_prot(struct gaudi_cmdbuf *cb, uint64_t addr, uint32_t value,
		       uint32_t op, uint32_t ctl);

/**
 * gaudi_pkt_fence() - FENCE: wait for a fence counter of the queue
 * @cb: the builder
 * @id: fence id (0..3)
 * @target: wait until the counter reaches this (0..255)
 * @dec: then subtract this (0..15)
 * @pred: predicate (0..31)
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_fence(struct gaudi_cmdbuf *cb, uint32_t id, uint32_t target,
		    uint32_t dec, uint32_t pred, uint32_t ctl);

/**
 * gaudi_pkt_lin_dma() - LIN_DMA: linear copy
 * @cb: the builder
 * @dst: destination device address (at most GAUDI_LIN_DMA_DST_MAX)
 * @src: source device address
 * @size: bytes to copy (0 is allowed: a no-op transfer)
 * @opts: GAUDI_LIN_DMA_* bits
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_lin_dma(struct gaudi_cmdbuf *cb, uint64_t dst, uint64_t src,
		      uint32_t size, uint32_t opts, uint32_t ctl);

/**
 * gaudi_pkt_memset() - LIN_DMA memset: fill with a 64-bit pattern
 * @cb: the builder
 * @dst: destination device address (at most GAUDI_LIN_DMA_DST_MAX)
 * @pattern: the value written repeatedly (little-endian)
 * @size: bytes to fill
 * @opts: GAUDI_LIN_DMA_* bits
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_memset(struct gaudi_cmdbuf *cb, uint64_t dst, uint64_t pattern,
		     uint32_t size, uint32_t opts, uint32_t ctl);

/**
 * gaudi_pkt_nop() - NOP
 * @cb: the builder
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_nop(struct gaudi_cmdbuf *cb, uint32_t ctl);

/**
 * gaudi_pkt_stop() - STOP: halt the queue's command parser
 * @cb: the builder
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_stop(struct gaudi_cmdbuf *cb, uint32_t ctl);

/**
 * gaudi_pkt_arb_point() - ARB_POINT: arbitration point
 * @cb: the builder
 * @priority: priority (0..255)
 * @release: release the arbitration
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_arb_point(struct gaudi_cmdbuf *cb, uint32_t priority,
			bool release, uint32_t ctl);

/**
 * gaudi_pkt_wait() - WAIT: wait cycles, then increment a fence counter
 * @cb: the builder
 * @id: fence id (0..3)
 * @inc: increment (0..15)
 * @cycles: cycles to wait (0..0xFFFFFF)
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_wait(struct gaudi_cmdbuf *cb, uint32_t id, uint32_t inc,
		   uint32_t cycles, uint32_t ctl);

/**
 * gaudi_pkt_load_and_exe() - LOAD_AND_EXE: load predicates/scalars, execute
 * @cb: the builder
 * @src: device address to load from
 * @cfg: GAUDI_LOAD_EXE_* bits
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_load_and_exe(struct gaudi_cmdbuf *cb, uint64_t src,
			   uint32_t cfg, uint32_t ctl);

#ifdef __cplusplus
}
#endif

#endif /* GAUDI_CMDBUF_H */
