/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the PCI device's sysfs attributes (gaudi_sysfs.c).
 */
#ifndef GAUDI_SYSFS_H
#define GAUDI_SYSFS_H

struct attribute_group;

extern const struct attribute_group *gaudi_sysfs_groups[];

#endif /* GAUDI_SYSFS_H */
