// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi: the command-buffer builder.  Packet layouts: Gaudi 1 QMAN
 * packets (hw/gaudi1/packets.h), every word little-endian,
 * the opcode in bits 28:24 of the second (control) word.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gaudi_int.h"

#define CTL_OPCODE(op)		((uint32_t)(op) << 24)
#define CTL_BARRIERS		(GAUDI_PKT_EB | GAUDI_PKT_RB | GAUDI_PKT_MB)
#define CTL_REG(off)		((uint32_t)(off) << 8)		/* 23:8 */
#define CTL_MSG_OP(op)		((uint32_t)(op) << 20)		/* 21:20 */
#define CTL_SHORT_BASE(b)	((uint32_t)(b) << 22)		/* 23:22 */
#define LIN_DMA_CTL_LIN		(1U << 3)
#define LIN_DMA_CTL_MEMSET	(1U << 4)
#define LIN_DMA_OPTS		(GAUDI_LIN_DMA_WRCOMP |			\
				 GAUDI_LIN_DMA_TRANSPOSE |		\
				 GAUDI_LIN_DMA_DTYPE)
#define LOAD_EXE_CFG		(GAUDI_LOAD_EXE_DST_SCALAR |		\
				 GAUDI_LOAD_EXE_LOAD |			\
				 GAUDI_LOAD_EXE_EXE |			\
				 GAUDI_LOAD_EXE_ETYPE)
#define DEFAULT_INITIAL		4096

GAUDI_EXPORT int gaudi_cmdbuf_new(size_t initial, size_t max,
				  struct gaudi_cmdbuf **out)
{
	struct gaudi_cmdbuf *cb;

	if (!out)
		return -EINVAL;
	if (!max)
		max = HL_MAX_CB_SIZE;
	if (!initial)
		initial = DEFAULT_INITIAL < max ? DEFAULT_INITIAL : max;
	if (initial > max)
		return -EINVAL;
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return -ENOMEM;
	cb->buf = malloc(initial);
	if (!cb->buf) {
		free(cb);
		return -ENOMEM;
	}
	cb->cap = initial;
	cb->max = max;
	cb->owned = true;
	*out = cb;
	return 0;
}

GAUDI_EXPORT int gaudi_cmdbuf_wrap(void *mem, size_t size,
				   struct gaudi_cmdbuf **out)
{
	struct gaudi_cmdbuf *cb;

	if (!out || (!mem && size))
		return -EINVAL;
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return -ENOMEM;
	cb->buf = mem;
	cb->cap = size;
	cb->max = size;
	*out = cb;
	return 0;
}

GAUDI_EXPORT void gaudi_cmdbuf_free(struct gaudi_cmdbuf *cb)
{
	if (!cb || cb->embedded)
		return;
	if (cb->owned)
		free(cb->buf);
	free(cb);
}

GAUDI_EXPORT void gaudi_cmdbuf_reset(struct gaudi_cmdbuf *cb)
{
	cb->len = 0;
}

GAUDI_EXPORT size_t gaudi_cmdbuf_len(const struct gaudi_cmdbuf *cb)
{
	return cb->len;
}

GAUDI_EXPORT size_t gaudi_cmdbuf_room(const struct gaudi_cmdbuf *cb)
{
	return cb->max - cb->len;
}

GAUDI_EXPORT const void *gaudi_cmdbuf_data(const struct gaudi_cmdbuf *cb)
{
	return cb->buf;
}

/* Room for @n more bytes, growing if allowed; 0 or -ENOSPC / -ENOMEM. */
static int reserve(struct gaudi_cmdbuf *cb, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (n > cb->max - cb->len)
		return -ENOSPC;
	if (n <= cb->cap - cb->len)
		return 0;
	if (!cb->owned)
		return -ENOSPC;
	cap = cb->cap ? cb->cap : DEFAULT_INITIAL;
	while (cap - cb->len < n)
		cap = cap > cb->max / 2 ? cb->max : cap * 2;
	p = realloc(cb->buf, cap);
	if (!p)
		return -ENOMEM;
	cb->buf = p;
	cb->cap = cap;
	return 0;
}

static void put32(struct gaudi_cmdbuf *cb, uint32_t v)
{
	v = htole32(v);
	memcpy(cb->buf + cb->len, &v, 4);
	cb->len += 4;
}

static void put64(struct gaudi_cmdbuf *cb, uint64_t v)
{
	v = htole64(v);
	memcpy(cb->buf + cb->len, &v, 8);
	cb->len += 8;
}

/* Common checks, then the 8-byte header; @size is the whole packet. */
static int begin(struct gaudi_cmdbuf *cb, size_t size, uint32_t w0,
		 uint32_t op, uint32_t ctl_fields, uint32_t ctl)
{
	int ret;

	if (!cb || (ctl & ~CTL_BARRIERS))
		return -EINVAL;
	ret = reserve(cb, size);
	if (ret)
		return ret;
	put32(cb, w0);
	put32(cb, CTL_OPCODE(op) | ctl_fields | ctl);
	return 0;
}

GAUDI_EXPORT int gaudi_pkt_wreg32(struct gaudi_cmdbuf *cb, uint32_t reg,
				  uint32_t value, uint32_t ctl)
{
	if (reg > 0xFFFF)
		return -EINVAL;
	return begin(cb, 8, value, GAUDI_PKT_WREG_32, CTL_REG(reg), ctl);
}

GAUDI_EXPORT int gaudi_pkt_wreg_bulk(struct gaudi_cmdbuf *cb, uint32_t reg,
				     const uint64_t *values, uint32_t count,
				     uint32_t ctl)
{
	uint32_t i;
	int ret;

	if (reg > 0xFFFF || !values || !count || count > 0xFFFF)
		return -EINVAL;
	ret = begin(cb, 8 + 8 * (size_t)count, count, GAUDI_PKT_WREG_BULK,
		    CTL_REG(reg), ctl);
	if (ret)
		return ret;
	for (i = 0; i < count; i++)
		put64(cb, values[i]);
	return 0;
}

static int msg_addr(struct gaudi_cmdbuf *cb, uint32_t opcode, uint64_t addr,
		    uint32_t value, uint32_t op, uint32_t ctl)
{
	int ret;

	if (op > GAUDI_MSG_OP_TIMESTAMP)
		return -EINVAL;
	ret = begin(cb, 16, value, opcode, CTL_MSG_OP(op), ctl);
	if (!ret)
		put64(cb, addr);
	return ret;
}

GAUDI_EXPORT int gaudi_pkt_msg_long(struct gaudi_cmdbuf *cb, uint64_t addr,
				    uint32_t value, uint32_t op, uint32_t ctl)
{
	return msg_addr(cb, GAUDI_PKT_MSG_LONG, addr, value, op, ctl);
}

GAUDI_EXPORT int gaudi_pkt_msg_prot(struct gaudi_cmdbuf *cb, uint64_t addr,
				    uint32_t value, uint32_t op, uint32_t ctl)
{
	return msg_addr(cb, GAUDI_PKT_MSG_PROT, addr, value, op, ctl);
}

GAUDI_EXPORT int gaudi_pkt_msg_short(struct gaudi_cmdbuf *cb, uint32_t base,
				     uint32_t offset, uint32_t value,
				     uint32_t op, uint32_t ctl)
{
	if (base > 3 || offset > 0xFFFF || op > GAUDI_MSG_OP_TIMESTAMP)
		return -EINVAL;
	return begin(cb, 8, value, GAUDI_PKT_MSG_SHORT,
		     offset | CTL_MSG_OP(op) | CTL_SHORT_BASE(base), ctl);
}

GAUDI_EXPORT uint32_t gaudi_sob_value(uint32_t value, bool add)
{
	return (value & 0x7FFF) | (add ? 1U << 31 : 0);
}

GAUDI_EXPORT uint32_t gaudi_mon_arm_value(uint32_t group, uint32_t mask,
					  uint32_t value, bool mode_eq)
{
	return (group & 0xFF) | (mask & 0xFF) << 8 | (mode_eq ? 1U << 16 : 0) |
	       (value & 0x7FFF) << 17;
}

GAUDI_EXPORT int gaudi_pkt_sob_inc(struct gaudi_cmdbuf *cb, uint64_t sob_addr,
				   uint32_t ctl)
{
	if (sob_addr & 3)
		return -EINVAL;
	return msg_addr(cb, GAUDI_PKT_MSG_LONG, sob_addr,
			gaudi_sob_value(1, true), GAUDI_MSG_OP_WRITE, ctl);
}

GAUDI_EXPORT int gaudi_pkt_cp_dma(struct gaudi_cmdbuf *cb, uint64_t src,
				  uint32_t size, uint32_t ctl)
{
	int ret = begin(cb, 16, size, GAUDI_PKT_CP_DMA, 0, ctl);

	if (!ret)
		put64(cb, src);
	return ret;
}

GAUDI_EXPORT int gaudi_pkt_repeat(struct gaudi_cmdbuf *cb, uint32_t jump,
				  bool sore, bool o, uint32_t ctl)
{
	if (jump > 0xFFFF)
		return -EINVAL;
	return begin(cb, 8, jump << 16 | (o ? 2U : 0) | (sore ? 1U : 0),
		     GAUDI_PKT_REPEAT, 0, ctl);
}

GAUDI_EXPORT int gaudi_pkt_fence(struct gaudi_cmdbuf *cb, uint32_t id,
				 uint32_t target, uint32_t dec, uint32_t pred,
				 uint32_t ctl)
{
	if (id > 3 || target > 0xFF || dec > 0xF || pred > 0x1F)
		return -EINVAL;
	return begin(cb, 8, id << 30 | target << 16 | dec, GAUDI_PKT_FENCE,
		     pred, ctl);
}

static int lin_dma(struct gaudi_cmdbuf *cb, uint64_t dst, uint64_t src,
		   uint32_t size, uint32_t opts, uint32_t ctl, uint32_t kind)
{
	int ret;

	if (dst > GAUDI_LIN_DMA_DST_MAX || (opts & ~LIN_DMA_OPTS))
		return -EINVAL;
	ret = begin(cb, 24, size, GAUDI_PKT_LIN_DMA,
		    LIN_DMA_CTL_LIN | kind | opts, ctl);
	if (ret)
		return ret;
	put64(cb, src);
	put64(cb, dst);
	return 0;
}

GAUDI_EXPORT int gaudi_pkt_lin_dma(struct gaudi_cmdbuf *cb, uint64_t dst,
				   uint64_t src, uint32_t size, uint32_t opts,
				   uint32_t ctl)
{
	return lin_dma(cb, dst, src, size, opts, ctl, 0);
}

GAUDI_EXPORT int gaudi_pkt_memset(struct gaudi_cmdbuf *cb, uint64_t dst,
				  uint64_t pattern, uint32_t size,
				  uint32_t opts, uint32_t ctl)
{
	return lin_dma(cb, dst, pattern, size, opts, ctl, LIN_DMA_CTL_MEMSET);
}

GAUDI_EXPORT int gaudi_pkt_nop(struct gaudi_cmdbuf *cb, uint32_t ctl)
{
	return begin(cb, 8, 0, GAUDI_PKT_NOP, 0, ctl);
}

GAUDI_EXPORT int gaudi_pkt_stop(struct gaudi_cmdbuf *cb, uint32_t ctl)
{
	return begin(cb, 8, 0, GAUDI_PKT_STOP, 0, ctl);
}

GAUDI_EXPORT int gaudi_pkt_arb_point(struct gaudi_cmdbuf *cb,
				     uint32_t priority, bool release,
				     uint32_t ctl)
{
	if (priority > 0xFF)
		return -EINVAL;
	return begin(cb, 8, priority | (release ? 1U << 31 : 0),
		     GAUDI_PKT_ARB_POINT, 0, ctl);
}

GAUDI_EXPORT int gaudi_pkt_wait(struct gaudi_cmdbuf *cb, uint32_t id,
				uint32_t inc, uint32_t cycles, uint32_t ctl)
{
	if (id > 3 || inc > 0xF || cycles > 0xFFFFFF)
		return -EINVAL;
	return begin(cb, 8, id << 28 | inc << 24 | cycles, GAUDI_PKT_WAIT, 0,
		     ctl);
}

GAUDI_EXPORT int gaudi_pkt_load_and_exe(struct gaudi_cmdbuf *cb, uint64_t src,
					uint32_t cfg, uint32_t ctl)
{
	int ret;

	if (cfg & ~LOAD_EXE_CFG)
		return -EINVAL;
	ret = begin(cb, 16, cfg, GAUDI_PKT_LOAD_AND_EXE, 0, ctl);
	if (!ret)
		put64(cb, src);
	return ret;
}
