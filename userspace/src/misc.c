// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi: error strings, hotplug monitor, version.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libudev.h>

#include "gaudi_int.h"

#ifndef GAUDI_LIB_VERSION
#error "GAUDI_LIB_VERSION: the tree's VERSION, passed by the Makefile"
#endif

static const struct {
	int err;
	const char *msg;
} gaudi_errors[] = {
	{ ENODEV, "no Gaudi device on this host" },
	{ ENOPKG, "Gaudi driver not loaded (modprobe gaudi or habanalabs)" },
	{ ENXIO, "Gaudi driver loaded, but no card has a node" },
	{ ENOENT, "no such Gaudi card or node" },
	{ EBUSY, "busy (card held by another process, or work pending)" },
	{ EAGAIN, "device in reset or being released; try again" },
	{ ENOSPC, "command buffer full" },
	{ ENODATA, "command buffer is empty" },
	{ ETIMEDOUT, "timed out waiting for the device" },
	{ EIO, "command submission aborted or failed (device reset or error)" },
	{ EOPNOTSUPP, "not supported by this driver or node" },
	{ ENOTTY, "not available on a control node" },
	{ EPERM, "not permitted (refused packet or missing privilege)" },
	{ EPROTO, "unexpected answer from the driver" },
};

GAUDI_EXPORT const char *gaudi_strerror(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	if (!err)
		return "success";
	for (i = 0; i < sizeof(gaudi_errors) / sizeof(gaudi_errors[0]); i++)
		if (gaudi_errors[i].err == err)
			return gaudi_errors[i].msg;
	/* strerror() may use a static buffer for unknown codes only. */
	if (err >= 1 && err < 4096)
		return strerror(err);
	return "unknown error";
}

GAUDI_EXPORT const char *gaudi_version(void)
{
	return GAUDI_LIB_VERSION;
}

/* ---- hotplug monitor ---------------------------------------------------- */

struct gaudi_monitor {
	struct udev *udev;
	struct udev_monitor *mon;
};

GAUDI_EXPORT int gaudi_monitor_new(unsigned int flags,
				   struct gaudi_monitor **out)
{
	struct gaudi_monitor *m;
	const char *src;
	int ret;

	if (!out || (flags & ~GAUDI_MONITOR_KERNEL))
		return -EINVAL;
	/* udevd's events only come when udevd runs. */
	src = (flags & GAUDI_MONITOR_KERNEL) ||
	      access("/run/udev/control", F_OK) ? "kernel" : "udev";
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->udev = udev_new();
	if (!m->udev) {
		ret = -ENOMEM;
		goto err;
	}
	m->mon = udev_monitor_new_from_netlink(m->udev, src);
	if (!m->mon) {
		ret = errno ? -errno : -ENOMEM;
		goto err;
	}
	ret = udev_monitor_filter_add_match_subsystem_devtype(m->mon, "accel",
							      NULL);
	if (!ret)
		ret = udev_monitor_enable_receiving(m->mon);
	if (ret < 0)
		goto err;
	*out = m;
	return 0;
err:
	gaudi_monitor_free(m);
	return ret;
}

GAUDI_EXPORT void gaudi_monitor_free(struct gaudi_monitor *mon)
{
	if (!mon)
		return;
	if (mon->mon)
		udev_monitor_unref(mon->mon);
	if (mon->udev)
		udev_unref(mon->udev);
	free(mon);
}

GAUDI_EXPORT int gaudi_monitor_fd(const struct gaudi_monitor *mon)
{
	return udev_monitor_get_fd(mon->mon);
}

GAUDI_EXPORT int gaudi_monitor_receive(struct gaudi_monitor *mon, int *action,
				       char *node, size_t len)
{
	struct udev_device *d;
	const char *a;

	if (!mon || !action)
		return -EINVAL;
	errno = 0;
	d = udev_monitor_receive_device(mon->mon);
	if (!d)
		return errno && errno != EAGAIN && errno != EWOULDBLOCK ?
		       -errno : -EAGAIN;
	a = udev_device_get_action(d);
	if (!a)
		*action = GAUDI_MONITOR_OTHER;
	else if (!strcmp(a, "add"))
		*action = GAUDI_MONITOR_ADD;
	else if (!strcmp(a, "remove"))
		*action = GAUDI_MONITOR_REMOVE;
	else if (!strcmp(a, "change"))
		*action = GAUDI_MONITOR_CHANGE;
	else
		*action = GAUDI_MONITOR_OTHER;
	if (node && len)
		gaudi__strcpy(node, udev_device_get_sysname(d), len);
	udev_device_unref(d);
	return 0;
}
