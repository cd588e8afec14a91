// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the protection bits.
 *
 * The last 128 bytes of each 4 KiB block of CFG space hold one bit per
 * register of the block, 0 meaning "secure initiators only"; the bits
 * reset to 1.  This file keeps them (gaudi_pb_read/write from the register
 * dispatch of core.c) and answers gaudi_pb_protected() for the checks of
 * the fabric (fabric.c, Documentation/emulator/protection.rst).
 */
#include <string.h>
#include <sys/mman.h>

#include "gaudi_int.h"

#define PB_BITS  (GAUDI_CFG_SIZE / 4)

static bool in_sm_objs(uint32_t off)
{
    static const uint32_t base[4] = {
        mmSYNC_MNGR_W_S_SOB_OBJ_0, mmSYNC_MNGR_E_S_SOB_OBJ_0,
        mmSYNC_MNGR_W_N_SOB_OBJ_0, mmSYNC_MNGR_E_N_SOB_OBJ_0,
    };
    unsigned int i;

    for (i = 0; i < 4; i++) {
        if (off - base[i] < SM_BLOCK_END) {
            return true;
        }
    }
    return false;
}

bool gaudi_pb_area(uint32_t off)
{
    /* The sync-manager object arrays have registers there instead. */
    return (off & 0xFFF) >= PROT_BITS_OFFS && !in_sm_objs(off);
}

/* Word of the bitmap holding the bits of PB word off. */
static uint32_t *pb_word(struct gaudi_core *g, uint32_t off)
{
    uint32_t block = (off & (GAUDI_CFG_SIZE - 1)) >> 12;
    uint32_t word = ((off & 0xFFF) - PROT_BITS_OFFS) >> 2;

    return &g->prot.pb[block * 32 + word];
}

uint32_t gaudi_pb_read(struct gaudi_core *g, uint32_t off)
{
    return ~*pb_word(g, off);
}

void gaudi_pb_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    *pb_word(g, off) = ~val;
}

/* Is register off protected by its protection bit? */
bool gaudi_pb_protected(struct gaudi_core *g, uint32_t off)
{
    uint32_t block = off >> 12, reg = (off & 0xFFF) >> 2;

    if (in_sm_objs(off)) {
        return false;   /* no protection bits (see gaudi_pb_area) */
    }
    return (g->prot.pb[block * 32 + reg / 32] >> (reg % 32)) & 1;
}

void gaudi_prot_init(struct gaudi_core *g)
{
    void *p = mmap(NULL, PB_BITS / 8, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

    g->prot.pb = p == MAP_FAILED ? NULL : p;
}

bool gaudi_prot_ready(struct gaudi_core *g)
{
    return g->prot.pb != NULL;
}

void gaudi_prot_reset(struct gaudi_core *g)
{
    /* Every protection bit back to 1 (unprotected). */
    if (madvise(g->prot.pb, PB_BITS / 8, MADV_DONTNEED)) {
        memset(g->prot.pb, 0, PB_BITS / 8);
    }
    g->prot.razwi = 0;
}

void gaudi_prot_fini(struct gaudi_core *g)
{
    if (g->prot.pb) {
        munmap(g->prot.pb, PB_BITS / 8);
    }
}
