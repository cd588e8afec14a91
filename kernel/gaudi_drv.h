/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the module, the PCI driver, probe and removal, the DRM
 * driver (gaudi_drv.c).
 */
#ifndef GAUDI_DRV_H
#define GAUDI_DRV_H

#include <linux/types.h>

struct gaudi_device;

#define GAUDI_DRV_DESC "Habana Gaudi 1 accelerator"

/* Module parameters (gaudi_drv.c). */
extern unsigned int gaudi_timeout_locked;	/* seconds */
extern bool gaudi_reset_on_lockup;
extern unsigned int gaudi_boot_error_status_mask;
extern unsigned int gaudi_heartbeat_ms;

/* Bring the device up after probe or a reset: boot, CPU-CP, events. */
int gaudi_hw_init(struct gaudi_device *gdev);
void gaudi_hw_fini(struct gaudi_device *gdev);

#endif /* GAUDI_DRV_H */
