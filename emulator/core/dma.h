/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the DMA cores and the engines' view of device memory
 * (MMU translation, then the physical decode of core.c).
 */
#ifndef GAUDI_DMA_H
#define GAUDI_DMA_H

#include <stdint.h>

struct gaudi_core;
struct gaudi_init;

/* Why an engine access failed. */
enum gaudi_access_err {
    GAUDI_ACCESS_FAULT = -1, /* no MMU translation (reported) */
    GAUDI_ACCESS_DECODE = -2, /* the address decodes to nothing */
    GAUDI_ACCESS_RAZWI = -3, /* blocked by the protection (reported) */
};

/*
 * Read or write device memory as initiator in (prot.h), whose props
 * (ASID bits 9:0, MMBP bit 10) translate addresses in the MMU range page
 * by page; MMBP is honoured for secure initiators only.  With the MMU
 * enabled, an untrusted initiator cannot reach host memory except through
 * a translation.  Then the protection checks of prot.c.  Return 0 or an
 * enum gaudi_access_err; faults and RAZWIs are already reported.
 */
int gaudi_eng_read(struct gaudi_core *g, const struct gaudi_init *in,
                   uint64_t addr, void *buf, uint64_t len);
int gaudi_eng_write(struct gaudi_core *g, const struct gaudi_init *in,
                    uint64_t addr, const void *buf, uint64_t len);

/*
 * Run a linear transfer on DMA core n: copy size bytes from src to dst or,
 * with DMA_COMMIT_MEM_SET in commit, fill dst with the 64-bit pattern src.
 * Errors set the core's ERR_CAUSE and post its event.  Returns 0 or -1.
 */
int gaudi_dma_transfer(struct gaudi_core *g, unsigned int n, uint64_t src,
                       uint64_t dst, uint64_t size, uint32_t commit);

/* RAZWI initiator id of DMA channel n (its core and its QMAN). */
uint32_t gaudi_dma_razwi_id(unsigned int n);

/* DMA core n register access; rel is relative to the core base. */
uint32_t gaudi_dma_core_read(struct gaudi_core *g, unsigned int n,
                             uint32_t rel);
void gaudi_dma_core_write(struct gaudi_core *g, unsigned int n, uint32_t rel,
                          uint32_t val);

#endif
