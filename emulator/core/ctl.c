// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 model: the model-only control window, first half
 * (GAUDI_MODEL_CTL_BASE + 0x000..0x0FF; Documentation/emulator/
 * model-control.rst).  Not real hardware: tests use it to inject events,
 * stop the device CPU (heartbeat loss) and make the next boot fail.
 * Decoded only with the test-hooks option; otherwise reads 0, ignores
 * writes.
 */
#include <string.h>

#include "gaudi_int.h"

#define CTL_SIZE 0x100

static uint32_t ctl_read(struct gaudi_core *g, uint32_t off)
{
    uint32_t r = off - GAUDI_MODEL_CTL_BASE;

    if (!g->id.test_hooks) {
        return 0;
    }
    switch (r) {
    case GAUDI_CTL_MAGIC:
        return GAUDI_CTL_MAGIC_VALUE;
    case GAUDI_CTL_VERSION:
        return GAUDI_CTL_VERSION_VALUE;
    case GAUDI_CTL_CPU_HANG:
        return g->cpu.hung;
    case GAUDI_CTL_BOOT_FAIL:
        return g->boot.fail_next;
    case GAUDI_CTL_EQ_DROPS:
        return g->eq.drops;
    case GAUDI_CTL_CPUCP_COUNT:
        return (uint32_t)g->cpu.packets;
    case GAUDI_CTL_FIT_REASON:
        return g->boot.last_err;
    default:
        return gaudi_reg_get(g, off);
    }
}

static void post_event(struct gaudi_core *g, uint32_t type)
{
    uint32_t data[GAUDI_CTL_EVENT_WORDS];
    unsigned int i;

    if (type >= GAUDI_EVENT_SIZE) {
        gaudi_guest_error(g, "ctl: event type %u out of range", type);
        return;
    }
    for (i = 0; i < GAUDI_CTL_EVENT_WORDS; i++) {
        data[i] = gaudi_le32(gaudi_reg_get(g, GAUDI_MODEL_CTL_BASE +
                                           GAUDI_CTL_EVENT_DATA0 +
                                           4 * i));
    }
    gaudi_eq_event(g, type, data, sizeof(data));
}

static void ctl_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    uint32_t r = off - GAUDI_MODEL_CTL_BASE;

    if (!g->id.test_hooks) {
        return;
    }
    switch (r) {
    case GAUDI_CTL_MAGIC:
    case GAUDI_CTL_VERSION:
    case GAUDI_CTL_EQ_DROPS:
    case GAUDI_CTL_CPUCP_COUNT:
    case GAUDI_CTL_FIT_REASON:
        gaudi_guest_error(g, "ctl: register +0x%x is read-only", r);
        break;
    case GAUDI_CTL_EVENT_TYPE:
        gaudi_reg_set(g, off, val);
        post_event(g, val);
        break;
    case GAUDI_CTL_CPU_HANG:
        gaudi_cpu_set_hung(g, val & 1);
        break;
    case GAUDI_CTL_BOOT_FAIL:
        gaudi_boot_inject_fail(g, val);
        break;
    default:
        gaudi_reg_set(g, off, val); /* payload words, spare */
        break;
    }
}

void gaudi_ctl_init(struct gaudi_core *g)
{
    gaudi_reg_claim(g, GAUDI_MODEL_CTL_BASE,
                    GAUDI_MODEL_CTL_BASE + CTL_SIZE,
                    ctl_read, ctl_write);
}
