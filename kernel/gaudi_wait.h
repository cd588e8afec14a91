/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: WAIT_CS (gaudi_wait.c).
 */
#ifndef GAUDI_WAIT_H
#define GAUDI_WAIT_H

struct drm_device;
struct drm_file;

int gaudi_wait_cs_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file);

#endif /* GAUDI_WAIT_H */
