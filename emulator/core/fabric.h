/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the fabric, i.e. the path every engine access takes
 * (fabric.c): the initiator it carries, MMU translation, the physical
 * decode of core.c, the protection checks (LBW and HBW range registers,
 * the protection bits of prot.c), RAZWI and the transaction monitor.
 */
#ifndef GAUDI_FABRIC_H
#define GAUDI_FABRIC_H

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

/* Why an engine access failed. */
enum gaudi_access_err {
    GAUDI_ACCESS_FAULT = -1, /* no MMU translation (reported) */
    GAUDI_ACCESS_DECODE = -2, /* the address decodes to nothing */
    GAUDI_ACCESS_RAZWI = -3, /* blocked by the protection (reported) */
};

/*
 * Read or write device memory as initiator in, whose props (ASID bits
 * 9:0, MMBP bit 10) translate addresses in the MMU range page by page;
 * MMBP is honoured for secure initiators only.  With the MMU enabled, an
 * untrusted initiator cannot reach host memory except through a
 * translation.  Then the protection checks of gaudi_phys_access().
 * Return 0 or an enum gaudi_access_err; faults and RAZWIs are already
 * reported.
 */
int gaudi_eng_read(struct gaudi_core *g, const struct gaudi_init *in,
                   uint64_t addr, void *buf, uint64_t len);
int gaudi_eng_write(struct gaudi_core *g, const struct gaudi_init *in,
                    uint64_t addr, const void *buf, uint64_t len);

/*
 * Translate the engine address addr (as gaudi_eng_read() does) to a
 * physical one in *pa; *seg is how many of len bytes from there are
 * contiguous and inside one 1 MiB region of the device map.  A fault is
 * reported (page-fault event and transaction) and returns
 * GAUDI_ACCESS_FAULT.  For engines that move data in large pieces (DMA).
 */
int gaudi_fabric_resolve(struct gaudi_core *g, const struct gaudi_init *in,
                         uint64_t addr, uint64_t len, bool write,
                         uint64_t *pa, uint64_t *seg);

/*
 * Direct pointer to HBM or SRAM at physical pa for an access the
 * protection lets through, else NULL (the caller then takes
 * gaudi_phys_access(), which checks and reports).  The caller reports the
 * transaction (gaudi_txn_emit()).
 */
uint8_t *gaudi_fabric_local(struct gaudi_core *g, const struct gaudi_init *in,
                            uint64_t pa, uint64_t len, bool write);

/*
 * Move len bytes between buf and physical device address pa (issued as
 * addr) as initiator in: an untrusted initiator's register accesses are
 * checked against the protection bits and the LBW range registers word by
 * word, its other accesses against the HBW range registers.  A blocked
 * access is dropped (reads return 0, or 0xBABA0BAD for a protection bit
 * when upstream's RAZWI read-data switch is set), RAZWI is captured and
 * posted.  Reports the transaction.  Returns 0 or an enum
 * gaudi_access_err.
 */
int gaudi_phys_access(struct gaudi_core *g, const struct gaudi_init *in,
                      uint64_t addr, uint64_t pa, void *buf, uint64_t len,
                      bool write);

/*
 * The HBW range registers in effect, compiled from the registers of every
 * set (fabric.c) the first time an access needs them after a write to one
 * of them or a reset.
 */
#define GAUDI_HBW_SETS (4 * 2 + GAUDI_NUM_RTR)

struct gaudi_fabric {
    bool hbw_stale;  /* recompile before the next check */
    unsigned int hbw_n[2]; /* ranges in hbw[0] (reads), hbw[1] (writes) */
    struct {
        uint64_t start, size;
    } hbw[2][GAUDI_HBW_SETS * GAUDI_HBW_RANGES];
};

/* CFG register off was written (core.c): drop what it may change. */
void gaudi_fabric_cfg_written(struct gaudi_core *g, uint32_t off);

/* Device reset: every register is back to its reset value. */
void gaudi_fabric_reset(struct gaudi_core *g);

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
