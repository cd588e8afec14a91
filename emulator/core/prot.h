/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the protection bits of CFG space (prot.c).  The checks
 * an engine access goes through are the fabric's (fabric.h).
 */
#ifndef GAUDI_PROT_H
#define GAUDI_PROT_H

#include <stdbool.h>
#include <stdint.h>

struct gaudi_core;

struct gaudi_prot {
    /*
     * One bit per 4-byte CFG register, set when the register is
     * protected (its protection bit is 0).  Kept inverted so that the
     * reset value of the protection bits (all 1) is the zero page.
     */
    uint32_t *pb;
    uint64_t razwi;  /* RAZWIs since reset (statistics) */
};

/* Is CFG offset off a protection-bit word (0xF80..0xFFF of a block)? */
bool gaudi_pb_area(uint32_t off);
uint32_t gaudi_pb_read(struct gaudi_core *g, uint32_t off);
void gaudi_pb_write(struct gaudi_core *g, uint32_t off, uint32_t val);

/* Is register off protected by its protection bit (0: secure only)? */
bool gaudi_pb_protected(struct gaudi_core *g, uint32_t off);

#endif
