/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helpers for the data-plane engines: build command-buffer packets in
 * fake host memory and drive a QMAN stream like a driver does (PQ of buffer
 * descriptors, doorbell).  Packet layouts: hw/gaudi1/packets.h.
 */
#ifndef GAUDI_CBGEN_H
#define GAUDI_CBGEN_H

#include <string.h>

#include "fakebus.h"

#define PKT_CTL(op)	((uint32_t)(op) << 24)

/* A command buffer under construction at host bus address 'bus'. */
struct cb {
	struct fakebus *fb;
	uint64_t bus;
	uint32_t len;
};

static inline struct cb cb_at(struct fakebus *fb, uint64_t bus)
{
	struct cb c = { fb, bus, 0 };

	return c;
}

static inline uint64_t cb_dev(const struct cb *c)
{
	return fake_host_dev(c->bus);
}

static inline void cb_u32(struct cb *c, uint32_t v)
{
	memcpy(c->fb->host + c->bus + c->len, &v, 4);
	c->len += 4;
}

static inline void cb_u64(struct cb *c, uint64_t v)
{
	cb_u32(c, (uint32_t)v);
	cb_u32(c, v >> 32);
}

static inline void cb_hdr(struct cb *c, uint32_t op, uint32_t w0,
			  uint32_t ctl)
{
	cb_u32(c, w0);
	cb_u32(c, PKT_CTL(op) | ctl);
}

static inline void cb_wreg32(struct cb *c, uint32_t reg_off, uint32_t v)
{
	cb_hdr(c, 0x1, v, (reg_off & 0xFFFF) << 8 | (1U << 30));
}

static inline void cb_wreg_bulk(struct cb *c, uint32_t reg_off,
				const uint64_t *vals, uint32_t n)
{
	uint32_t i;

	cb_hdr(c, 0x2, n, (reg_off & 0xFFFF) << 8 | (1U << 30));
	for (i = 0; i < n; i++)
		cb_u64(c, vals[i]);
}

static inline void cb_msg_long(struct cb *c, uint64_t addr, uint32_t v)
{
	cb_hdr(c, 0x3, v, 1U << 31);
	cb_u64(c, addr);
}

static inline void cb_msg_ts(struct cb *c, uint64_t addr)
{
	cb_hdr(c, 0x3, 0, 1U << 31 | 1U << 20);
	cb_u64(c, addr);
}

static inline void cb_msg_prot(struct cb *c, uint64_t addr, uint32_t v)
{
	cb_hdr(c, 0x7, v, 1U << 31);
	cb_u64(c, addr);
}

static inline void cb_msg_short(struct cb *c, unsigned int base,
				uint32_t off, uint32_t v)
{
	cb_hdr(c, 0x4, v, (base & 3) << 22 | (off & 0xFFFF) | 1U << 31);
}

static inline void cb_cp_dma(struct cb *c, uint64_t src, uint32_t len)
{
	cb_hdr(c, 0x5, len, 1U << 30);
	cb_u64(c, src);
}

static inline void cb_repeat(struct cb *c, int sore, uint32_t jmp)
{
	cb_hdr(c, 0x6, (jmp << 16) | (sore ? 1 : 0), 1U << 30);
}

static inline void cb_fence(struct cb *c, unsigned int id, uint32_t target,
			    uint32_t dec)
{
	cb_hdr(c, 0x8, (uint32_t)id << 30 | (target & 0xFF) << 16 | (dec & 0xF),
	       0);
}

static inline void cb_lin_dma(struct cb *c, uint64_t src, uint64_t dst,
			      uint32_t size, int memset)
{
	cb_hdr(c, 0x9, size, 1U << 3 | (memset ? 1U << 4 : 0) | 1U << 30);
	cb_u64(c, src);
	cb_u64(c, dst);
}

static inline void cb_nop(struct cb *c)
{
	cb_hdr(c, 0xA, 0, 0);
}

static inline void cb_stop(struct cb *c)
{
	cb_hdr(c, 0xB, 0, 0);
}

static inline void cb_arb_point(struct cb *c)
{
	cb_hdr(c, 0xC, 1, 0);
}

static inline void cb_wait(struct cb *c, unsigned int id, uint32_t inc)
{
	cb_hdr(c, 0xD, (uint32_t)id << 28 | (inc & 0xF) << 24 | 100, 0);
}

static inline void cb_load_exe(struct cb *c, uint64_t src)
{
	cb_hdr(c, 0xF, 1U << 8, 1U << 30);
	cb_u64(c, src);
}

/* --- queues ------------------------------------------------------------ */

/* QMAN base and stream of an upstream queue id (DMA, MME, TPC, NIC). */
static inline uint32_t qid_base(unsigned int qid)
{
	if (qid >= GAUDI_NIC_FIRST_QUEUE) {
		unsigned int p = (qid - GAUDI_NIC_FIRST_QUEUE) / 4;

		return GAUDI_NIC_PORT_MACRO(p) +
		       ((p & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);
	}
	if (qid < 8)
		return mmDMA0_QM_BASE + (qid / 4) * GAUDI_DMA_STRIDE;
	if (qid < 33)
		return mmDMA0_QM_BASE +
		       ((qid - 1) / 4) * GAUDI_DMA_STRIDE;
	if (qid < 37)
		return mmMME0_QM_BASE;
	if (qid < 41)
		return mmMME2_QM_BASE;
	return mmTPC0_QM_BASE + ((qid - 41) / 4) * GAUDI_TPC_STRIDE;
}

static inline unsigned int qid_stream(unsigned int qid)
{
	return (qid < 8 ? qid : qid - 1) % 4;
}

/* A PQ in fake host memory: 2^log2 BDs at host bus address pq_bus. */
struct queue {
	struct fakebus *fb;
	unsigned int qid;
	uint32_t base, s, log2, pi;
	uint64_t pq_bus;
};

static inline struct queue q_setup(struct fakebus *fb, unsigned int qid,
				   uint64_t pq_bus, uint32_t log2)
{
	struct queue q = { fb, qid, qid_base(qid), qid_stream(qid), log2, 0,
			   pq_bus };
	struct gaudi_core *g = fb->g;

	gaudi_cfg_write(g, q.base + QM_PQ_BASE_LO(0) + 4 * q.s,
			(uint32_t)fake_host_dev(pq_bus));
	gaudi_cfg_write(g, q.base + QM_PQ_BASE_HI(0) + 4 * q.s,
			fake_host_dev(pq_bus) >> 32);
	gaudi_cfg_write(g, q.base + QM_PQ_SIZE(0) + 4 * q.s, log2);
	gaudi_cfg_write(g, q.base + QM_PQ_PI(0) + 4 * q.s, 0);
	gaudi_cfg_write(g, q.base + QM_PQ_CI(0) + 4 * q.s, 0);
	/* Enable every stream of the QMAN, as upstream does. */
	gaudi_cfg_write(g, q.base + QM_GLBL_CFG0, 0x3FFF);
	return q;
}

/* Write a BD for [dev, dev + len) and ring the doorbell. */
static inline void q_submit_dev(struct queue *q, uint64_t dev, uint32_t len)
{
	uint32_t idx = q->pi & ((1U << q->log2) - 1);
	uint8_t *bd = q->fb->host + q->pq_bus + 16 * idx;
	uint32_t ctl = 0;

	memcpy(bd, &dev, 8);
	memcpy(bd + 8, &len, 4);
	memcpy(bd + 12, &ctl, 4);
	q->pi = (q->pi + 1) & ((2U << q->log2) - 1);
	gaudi_cfg_write(q->fb->g, q->base + QM_PQ_PI(0) + 4 * q->s, q->pi);
}

static inline void q_submit(struct queue *q, const struct cb *c)
{
	q_submit_dev(q, cb_dev(c), c->len);
}

static inline uint32_t q_ci(struct queue *q)
{
	return gaudi_cfg_read(q->fb->g, q->base + QM_PQ_CI(0) + 4 * q->s);
}

static inline uint32_t q_sts1(struct queue *q)
{
	return gaudi_cfg_read(q->fb->g, q->base + QM_GLBL_STS1(0) + 4 * q->s);
}

static inline uint32_t q_sts0(struct queue *q)
{
	return gaudi_cfg_read(q->fb->g, q->base + QM_GLBL_STS0);
}

/* Rewrite GLBL_CFG0 (restarts a stream stopped on an error). */
static inline void q_restart(struct queue *q)
{
	gaudi_cfg_write(q->fb->g, q->base + QM_GLBL_CFG0, 0x3FFF);
}

/* CFG offset of fence f's RDATA / CNT register of the queue's stream. */
static inline uint32_t q_fence_rdata(struct queue *q, unsigned int f)
{
	return q->base + QM_CP_FENCE_RDATA(0, 0) + f * QM_CP_FENCE_STRIDE +
	       4 * q->s;
}

static inline uint32_t q_fence_cnt(struct queue *q, unsigned int f)
{
	return q->base + QM_CP_FENCE_CNT(0, 0) + f * QM_CP_FENCE_STRIDE + 4 * q->s;
}

static inline uint32_t host_u32(struct fakebus *fb, uint64_t bus)
{
	uint32_t v;

	memcpy(&v, fb->host + bus, 4);
	return v;
}

#endif
