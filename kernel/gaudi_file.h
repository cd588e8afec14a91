/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: users of the device nodes (gaudi_file.c; their types:
 * gaudi_file_types.h).
 *
 * The compute node /dev/accel/accelN is held by one process at a time; the
 * control node /dev/accel/accel_controlDN by any number of monitors.  Each
 * open file of either node is a struct gaudi_file; the per-device state is
 * struct gaudi_users (gdev->users), created at the start of probe.
 */
#ifndef GAUDI_FILE_H
#define GAUDI_FILE_H

#include <linux/types.h>
#include <drm/drm_file.h>

#include "gaudi_file_types.h"

struct attribute_group;
struct drm_device;
struct drm_printer;
struct gaudi_device;

/* Per-device state (gdev->users), made by probe before anything else. */
int gaudi_file_init(struct gaudi_device *gdev);

/* drm_driver.open: exclusive open of the compute node, owner recorded. */
int gaudi_file_open(struct drm_device *drm, struct drm_file *file);
/*
 * drm_driver.postclose: releases the compute node before close() returns,
 * so an open right after never fails because of this holder.
 */
void gaudi_file_postclose(struct drm_device *drm, struct drm_file *file);
/* drm_driver.show_fdinfo: memory and owner lines after the DRM core's. */
void gaudi_file_show_fdinfo(struct drm_printer *p, struct drm_file *file);
/*
 * The RDMA driver (gaudi_cn.h): the calling process takes the card, or
 * joins its own holding, for an RDMA user context; unhold drops that
 * handle, the last handle ends the holding.  Sleep.
 */
int gaudi_file_hold(struct gaudi_device *gdev, struct gaudi_file **holder);
void gaudi_file_unhold(struct gaudi_device *gdev, struct gaudi_file *holder);
/*
 * Post HL_NOTIFIER_EVENT_* bits to the holder of the compute node: they
 * accumulate until HL_INFO_GET_EVENTS reads them, and its eventfd (if
 * registered) is signalled.  Any context except hard IRQ; does not sleep.
 * Events without a holder are dropped (as upstream).  Every user learns
 * that they happened (not what the holder's work did): a KOBJ_CHANGE
 * uevent of the PCI device with GAUDI_EVENTS=0x<the bits>, at most ten a
 * second per card, the bits of a burst in one.
 */
void gaudi_file_notify(struct gaudi_device *gdev, u64 events);
/* Removal: no event uevent from now on, and none in flight. */
void gaudi_file_events_fini(struct gaudi_device *gdev);
void gaudi_file_revoke(struct gaudi_device *gdev);

/* DRM_IOCTL_GAUDI_QUERY_CAPS and DRM_IOCTL_GAUDI_OWNER, both nodes. */
int gaudi_file_query_caps(struct gaudi_device *gdev, bool control,
			  void *data);
int gaudi_file_owner(struct gaudi_device *gdev, void *data);

/* The sysfs "owner" directory of the PCI device (pid, comm, open_time). */
extern const struct attribute_group gaudi_owner_attr_group;

/* The compute node's context of an open file, NULL for the control node. */
static inline struct gaudi_ctx *gaudi_file_ctx(struct drm_file *file)
{
	struct gaudi_file *gfile = file->driver_priv;

	return gfile ? gfile->ctx : NULL;
}

#endif /* GAUDI_FILE_H */
