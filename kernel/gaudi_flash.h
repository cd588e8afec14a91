/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the SPI flash through the device CPU (gaudi_flash.c).
 */
#ifndef GAUDI_FLASH_H
#define GAUDI_FLASH_H

struct drm_device;
struct drm_file;
struct drm_gaudi_flash;
struct gaudi_device;

/* One DRM_IOCTL_GAUDI_FLASH operation, for either node. */
int gaudi_flash_op(struct gaudi_device *gdev, struct drm_gaudi_flash *f);
/* The compute node's ioctl entry. */
int gaudi_flash_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file);

#endif /* GAUDI_FLASH_H */
