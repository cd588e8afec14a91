/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the ioctl table and the INFO ioctl (gaudi_info.c).
 */
#ifndef GAUDI_INFO_H
#define GAUDI_INFO_H

#include <linux/types.h>
#include <drm/drm_ioctl.h>

#include "../uapi/drm/gaudi_accel.h"

struct gaudi_device;
struct gaudi_file;
struct seq_buf;

/* The compute node's ioctls, indexed by ioctl number. */
extern const struct drm_ioctl_desc gaudi_ioctls[];
extern const unsigned int gaudi_num_ioctls;

/*
 * DRM_IOCTL_HL_INFO for an open file of either node (@gfile->control
 * selects the control node's rules).
 */
int gaudi_info_query(struct gaudi_device *gdev, struct gaudi_file *gfile,
		     struct hl_info_args *args);
/* HL_INFO_* ops answered on a node (drm_gaudi_query_caps.info_ops). */
u64 gaudi_info_ops_mask(bool control);

/*
 * Read the engines' status registers: true when every DMA, TPC and MME
 * engine is idle.  @busy_mask (may be NULL) gets a bit per busy engine
 * (enum gaudi_engine_id); @s (may be NULL) a table of the registers.
 * The caller makes sure the device is accessible.
 */
bool gaudi_is_idle(struct gaudi_device *gdev, u64 *busy_mask,
		   struct seq_buf *s);

#endif /* GAUDI_INFO_H */
