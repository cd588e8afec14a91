/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The isolation harness's stand-in for gaudi.ko: it sets up the model the
 * way the driver does for one user context (kernel/gaudi_queue.c,
 * kernel/gaudi_mmu.c, kernel/gaudi_security.c) and submits a kernel CB.
 */
#ifndef GAUDI_ISO_DRIVER_H
#define GAUDI_ISO_DRIVER_H

#include <stdint.h>

#include "../emulator/fakebus.h"

/* Page tables: hop 0 of ASID a, and where the other hops go (HBM). */
#define ISO_MMU_HOP0(a)	(0x10000000ULL + (a) * 0x1000ULL)
#define ISO_MMU_POOL	(0x10000000ULL + 0x100000ULL)

/*
 * Each port's NIC tables in the driver's HBM, as gaudi_roce.c lays them
 * out (gaudi_layout.h: 1 MiB per port from 0x18000000; the responder
 * table at +0x80000); the harness puts the port's QP error FIFO at
 * +0xF0000 (gaudi_en's is its own memory).
 */
#define ISO_NIC_HBM(p)		(0x18000000ULL + (uint64_t)(p) * 0x100000ULL)
#define ISO_NIC_HBM_SIZE	0x100000ULL

/* Upstream's queue ids 0..112: DMA, MME, TPC, then the NIC queues. */
#define ISO_NUM_QIDS	113
#define ISO_FIRST_NIC_QID 73

uint32_t iso_qid_base(unsigned int qid);
unsigned int iso_qid_stream(unsigned int qid);

/* Queues, DMA cores, sync manager and hardware protection, as at probe. */
void iso_driver_init(struct gaudi_core *g);
/* Point the MMU at hop 0 of @asid and invalidate. */
void iso_driver_mmu(struct gaudi_core *g, uint32_t asid, uint64_t hop0);
/*
 * Write what gaudi.ko appends to an external job at @p (the done word,
 * then the CQ entry and the MSI); their size.
 */
uint32_t iso_driver_completion(uint8_t *p, uint64_t done_dev, uint64_t cq_dev);
/* One BD for [kcb_dev, kcb_dev + len) on @qid's PQ, then the doorbell. */
void iso_driver_submit(struct fakebus *fb, unsigned int qid, uint64_t pq_bus,
		       uint32_t log2, uint64_t kcb_dev, uint32_t len);
/* gaudi.ko's protection tables and GLBL_PROT values (iso_security.c). */
void iso_driver_protection(struct gaudi_core *g);
uint32_t iso_glbl_prot(bool external);

/* Internal queues fetch their CB copies from this HBM (gaudi_queue.c). */
#define ISO_ICB_HBM	0x1C000000ULL
#define ISO_ICB_SIZE	0x4000000ULL

/* Let asynchronous work finish (nothing to do in run-to-completion). */
void iso_driver_settle(struct fakebus *fb);

#endif
