/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: hard reset and recovery (gaudi_reset.c).
 */
#ifndef GAUDI_RESET_H
#define GAUDI_RESET_H

#include <linux/types.h>

struct gaudi_device;

void gaudi_reset_init(struct gaudi_device *gdev);
/* Queue a recovery (hard reset + re-init); safe from any context. */
void gaudi_reset_schedule(struct gaudi_device *gdev, const char *reason);
/* Schedule and wait for it (sysfs hard_reset). */
int gaudi_reset_now(struct gaudi_device *gdev, const char *reason);
/* Halt the device CPU, SW_ALL_RST, wait, check (INTERFACE §10). */
int gaudi_hw_reset(struct gaudi_device *gdev);
void gaudi_reset_fini(struct gaudi_device *gdev);

#endif /* GAUDI_RESET_H */
