/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the hwmon device (gaudi_hwmon.c).
 */
#ifndef GAUDI_HWMON_H
#define GAUDI_HWMON_H

struct gaudi_device;

int gaudi_hwmon_init(struct gaudi_device *gdev);
void gaudi_hwmon_fini(struct gaudi_device *gdev);

#endif /* GAUDI_HWMON_H */
