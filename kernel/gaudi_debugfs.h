/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the debugfs files (gaudi_debugfs.c).
 */
#ifndef GAUDI_DEBUGFS_H
#define GAUDI_DEBUGFS_H

struct gaudi_device;

void gaudi_debugfs_init(struct gaudi_device *gdev);

#endif /* GAUDI_DEBUGFS_H */
