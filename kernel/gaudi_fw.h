/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: boot status decode and the static firmware load
 * (gaudi_fw.c).
 */
#ifndef GAUDI_FW_H
#define GAUDI_FW_H

#include <linux/types.h>

struct gaudi_device;

int gaudi_fw_init(struct gaudi_device *gdev);	/* files present */
void gaudi_fw_fini(struct gaudi_device *gdev);
/* Wait for the preboot and run the static firmware load (INTERFACE §4). */
int gaudi_fw_boot(struct gaudi_device *gdev);
void gaudi_fw_read_preboot(struct gaudi_device *gdev);

#endif /* GAUDI_FW_H */
