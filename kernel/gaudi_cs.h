/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the CS ioctl: chunks copied and parsed into jobs
 * (gaudi_cs.c).
 */
#ifndef GAUDI_CS_H
#define GAUDI_CS_H

struct drm_device;
struct drm_file;

int gaudi_cs_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* GAUDI_CS_H */
