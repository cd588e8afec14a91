/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: boot state machine and firmware images. */
#ifndef GAUDI_BOOT_H
#define GAUDI_BOOT_H

#include <stdbool.h>
#include <stdint.h>

#include "fit.h"
#include "gaudi1/boot.h"

struct gaudi_core;

/* Image placement and version strings: gaudi1/boot.h. */

/* Injected failure of the next boot (model control window). */
enum gaudi_boot_fail {
    GAUDI_BOOT_FAIL_NONE,
    GAUDI_BOOT_FAIL_BOOT_FIT, /* boot-fit judged corrupt */
    GAUDI_BOOT_FAIL_FIT,  /* main fit judged corrupt */
    GAUDI_BOOT_FAIL_NO_ACK,  /* boot-fit never acknowledged */
    GAUDI_BOOT_FAIL_PREBOOT, /* preboot never becomes ready */
    GAUDI_BOOT_FAIL_NO_SRAM_AVAIL, /* main fit never starts */
    GAUDI_BOOT_FAIL_NR
};

struct gaudi_boot {
    uint32_t fail_next;  /* enum gaudi_boot_fail, one shot */
    bool in_reset;   /* SW_ALL_RST in progress */
    bool cpu_running;  /* main fit started: CPU-CP served */
    enum gaudi_fit_err last_err; /* of the last image checked */
    char preboot_ver[GAUDI_FW_VER_LEN];
    struct gaudi_fw_data fw; /* from the main fit */
};

/* The device CPU's firmware data (valid while cpu_running). */
const struct gaudi_fw_data *gaudi_boot_fw(struct gaudi_core *g);

/* Arm an injected failure for the next boot. */
void gaudi_boot_inject_fail(struct gaudi_core *g, uint32_t how);

#endif
