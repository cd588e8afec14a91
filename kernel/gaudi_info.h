/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the INFO ioctl and the extension queries (gaudi_info.c).
 */
#ifndef GAUDI_INFO_H
#define GAUDI_INFO_H

#include <linux/types.h>
#include <drm/drm_ioctl.h>

#include "../uapi/drm/gaudi_accel.h"

struct gaudi_device;
struct gaudi_file;
struct seq_buf;

struct drm_device;
struct drm_file;

/* The compute node's INFO and extension ioctls (table: gaudi_drv.c). */
int gaudi_info_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int gaudi_query_caps_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *file);
int gaudi_accounting_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *file);
int gaudi_owner_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file);

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
