/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: hardware protection (protection bits, LBW and HBW range
 * registers, RAZWI) and the initiator every engine access carries.
 */
#ifndef GAUDI_PROT_H
#define GAUDI_PROT_H

#include <stdbool.h>
#include <stdint.h>

#include "gaudi_core.h"

struct gaudi_core;

/* Who issues an engine access, and with which rights. */
struct gaudi_init {
    enum gaudi_initiator kind;
    uint32_t index;    /* as in struct gaudi_txn */
    bool secure;       /* trusted: bypasses PBs and range registers */
    uint32_t props;    /* {SECURE,NON_SECURE}_PROPS value in effect */
    uint32_t razwi_id; /* RAZWI_{WRITE,READ}_ID value (X/Y/AXI id) */
};

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

/*
 * The access path of the engines.  gaudi_phys_access() moves len bytes
 * between buf and physical device address pa (issued as addr) as
 * initiator in: an untrusted initiator's register accesses are checked
 * against the protection bits and the LBW range registers word by word,
 * its other accesses against the HBW range registers.  A blocked access
 * is dropped (reads return 0, or 0xBABA0BAD for a protection bit when
 * upstream's RAZWI read-data switch is set), RAZWI is captured and
 * posted.  Reports the transaction.  Returns 0 or an enum
 * gaudi_access_err.
 */
int gaudi_phys_access(struct gaudi_core *g, const struct gaudi_init *in,
                      uint64_t addr, uint64_t pa, void *buf, uint64_t len,
                      bool write);

/* An untrusted initiator may not touch [pa, pa + len) over HBW. */
bool gaudi_hbw_blocked(struct gaudi_core *g, uint64_t pa, uint64_t len,
                       bool write);

/* A sync-manager monitor's payload write: LBW only. */
int gaudi_lbw_write(struct gaudi_core *g, const struct gaudi_init *in,
                    uint64_t addr, uint32_t val);

/* Capture a RAZWI (first one until the driver clears VLD) and post it. */
void gaudi_razwi(struct gaudi_core *g, const struct gaudi_init *in,
                 bool write, uint64_t addr);

/* Report a transaction to the monitor (if any). */
void gaudi_txn_emit(struct gaudi_core *g, const struct gaudi_init *in,
                    bool write, uint64_t addr, uint64_t pa, uint64_t len,
                    enum gaudi_txn_result result);

/* Is the MMU enabled (MMU_UP_MMU_ENABLE bit 0)? */
bool gaudi_mmu_enabled(struct gaudi_core *g);

#endif
