// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 model: the event queue (event ids: hw/gaudi1/events.h; the
 * entry layout as upstream's cpucp_if.h has it, below).
 *
 * The device CPU reports asynchronous events (engine errors, page faults,
 * thermal and power envelope changes, its own faults) through a ring of
 * 64-byte entries in host memory.  An entry is an 8-byte header
 * {u32 reserved; u32 ctl} and a 56-byte payload; ctl holds READY (bit 31),
 * the event type (bits 27:16) and a running index (bits 15:0).  The payload
 * is written first and ctl last, then MSI vector 0 is raised.
 *
 * The driver consumes entries, clears READY and writes the slot it will
 * read next to EQ_RD_OFFS.  The device never overwrites an entry the host
 * has not consumed: a slot is free only if it is not the one just before
 * EQ_RD_OFFS (one slot stays empty so that full and empty differ) and its
 * READY bit is clear.  Events that do not fit are dropped and counted.
 */
#include "trace.h"
#include <string.h>

#include "gaudi_int.h"

void gaudi_eq_start(struct gaudi_core *g, uint64_t base, uint32_t entries)
{
    struct gaudi_eq *eq = &g->eq;

    eq->base = base;
    eq->entries = entries;
    eq->pi = 0;
    eq->index = 0;
    eq->ready = true;
}

static bool slot_free(struct gaudi_core *g, uint64_t slot_addr)
{
    struct gaudi_eq *eq = &g->eq;
    uint32_t rd = gaudi_reg_get(g, mmCPU_IF_EQ_RD_OFFS);
    uint32_t ctl;

    if (rd >= eq->entries) {
        gaudi_guest_error(g, "eq: EQ_RD_OFFS %u beyond %u entries", rd,
                          eq->entries);
        return false;
    }
    if ((eq->pi + 1) % eq->entries == rd) {
        return false;
    }
    if (gaudi_host_read(g, slot_addr + 4, &ctl, sizeof(ctl))) {
        gaudi_guest_error(g, "eq: entry at 0x%llx unreadable",
                          (unsigned long long)slot_addr);
        return false;
    }
    return !(gaudi_le32(ctl) & EQ_CTL_READY);
}

void gaudi_eq_event(struct gaudi_core *g, uint16_t type, const void *payload,
                    size_t len)
{
    struct gaudi_eq *eq = &g->eq;
    uint8_t data[GAUDI_EQ_PAYLOAD] = { 0 };
    uint32_t hdr[2];
    uint64_t slot;

    if (!eq->ready || !gaudi_cpu_serving(g) || !g->cpu.pci_access) {
        eq->drops++;
        trace_gaudi_eq_err_not_running(type);
        return;
    }
    slot = gaudi_cpu_addr_to_dev(g, eq->base) +
           (uint64_t)eq->pi * GAUDI_EQ_ENTRY_SIZE;
    if (!slot_free(g, slot)) {
        eq->drops++;
        trace_gaudi_eq_err_full(type);
        return;
    }
    if (len > sizeof(data)) {
        len = sizeof(data);
    }
    if (payload) {
        memcpy(data, payload, len);
    }
    eq->index = (eq->index + 1) & EQ_CTL_INDEX_MASK;
    hdr[0] = 0;
    hdr[1] = gaudi_le32(EQ_CTL_READY |
                        (((uint32_t)type << EQ_CTL_TYPE_SHIFT) &
                         EQ_CTL_TYPE_MASK) | eq->index);
    if (gaudi_host_write(g, slot + 8, data, sizeof(data)) ||
        gaudi_host_write(g, slot, &hdr[0], 4) ||
        gaudi_host_write(g, slot + 4, &hdr[1], 4)) {
        eq->drops++;
        gaudi_guest_error(g, "eq: entry at 0x%llx unwritable",
                          (unsigned long long)slot);
        return;
    }
    eq->pi = (eq->pi + 1) % eq->entries;
    eq->posted++;
    trace_gaudi_eq_post(type, eq->pi);
    gaudi_msi(g);
}

void gaudi_eq_reset(struct gaudi_core *g)
{
    memset(&g->eq, 0, sizeof(g->eq));
}

void gaudi_eq_init(struct gaudi_core *g)
{
    (void)g; /* EQ registers are plain storage read on use */
}
