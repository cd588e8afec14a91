// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi: the real system layer (syscalls, libdrm, libudev, sysfs).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libudev.h>
#include <xf86drm.h>

#include "gaudi_int.h"

static int sys_open(const struct gaudi_sys *sys, const char *path, int flags)
{
	int fd;

	(void)sys;
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int sys_close(const struct gaudi_sys *sys, int fd)
{
	(void)sys;
	return close(fd) ? -errno : 0;
}

/* drmIoctl() restarts on EINTR and EAGAIN. */
static int sys_ioctl(const struct gaudi_sys *sys, int fd, unsigned long req,
		     void *arg)
{
	(void)sys;
	return drmIoctl(fd, req, arg) ? -errno : 0;
}

static void *sys_mmap(const struct gaudi_sys *sys, size_t len, int prot,
		      int flags, int fd, off_t off)
{
	(void)sys;
	return mmap(NULL, len, prot, flags, fd, off);
}

static int sys_munmap(const struct gaudi_sys *sys, void *p, size_t len)
{
	(void)sys;
	return munmap(p, len) ? -errno : 0;
}

static int sys_drm_version(const struct gaudi_sys *sys, int fd, char *name,
			   size_t len)
{
	drmVersionPtr v;

	(void)sys;
	v = drmGetVersion(fd);
	if (!v)
		return errno ? -errno : -ENOTTY;
	gaudi__strcpy(name, v->name ? v->name : "", len);
	drmFreeVersion(v);
	return 0;
}

static int attr_hex(struct udev_device *d, const char *attr, unsigned int *out)
{
	const char *s = udev_device_get_sysattr_value(d, attr);
	char *end;
	unsigned long v;

	if (!s)
		return -ENOENT;
	errno = 0;
	v = strtoul(s, &end, 16);
	if (errno || end == s)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int sys_enumerate(const struct gaudi_sys *sys, gaudi_node_fn fn,
			 void *arg)
{
	struct udev_list_entry *e;
	struct udev_enumerate *en;
	struct udev *udev;
	int ret;

	(void)sys;
	udev = udev_new();
	if (!udev)
		return -ENOMEM;
	en = udev_enumerate_new(udev);
	if (!en) {
		ret = -ENOMEM;
		goto out_udev;
	}
	ret = udev_enumerate_add_match_subsystem(en, "accel");
	if (!ret)
		ret = udev_enumerate_scan_devices(en);
	if (ret < 0)
		goto out_enum;
	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en)) {
		struct udev_device *d, *pci;
		struct gaudi_sys_node n;
		const char *mid;

		d = udev_device_new_from_syspath(udev,
						 udev_list_entry_get_name(e));
		if (!d)
			continue;
		pci = udev_device_get_parent_with_subsystem_devtype(d, "pci",
								    NULL);
		memset(&n, 0, sizeof(n));
		n.module_id = -1;
		n.sysname = udev_device_get_sysname(d);
		n.devnode = udev_device_get_devnode(d);
		if (pci) {
			n.pci_syspath = udev_device_get_syspath(pci);
			n.pci_slot = udev_device_get_sysname(pci);
			n.driver = udev_device_get_driver(pci);
			attr_hex(pci, "vendor", &n.vendor);
			attr_hex(pci, "device", &n.device);
			mid = udev_device_get_sysattr_value(pci, "module_id");
			if (mid && *mid >= '0' && *mid <= '9')
				n.module_id = atoi(mid);
		}
		ret = fn(arg, &n);
		udev_device_unref(d);
		if (ret)
			break;
	}
out_enum:
	udev_enumerate_unref(en);
out_udev:
	udev_unref(udev);
	return ret;
}

static int sys_pci_count(const struct gaudi_sys *sys)
{
	struct udev_list_entry *e;
	struct udev_enumerate *en;
	struct udev *udev;
	char vendor[8], device[8];
	int ret, n = 0;

	(void)sys;
	snprintf(vendor, sizeof(vendor), "0x%04x", GAUDI_PCI_VENDOR);
	snprintf(device, sizeof(device), "0x%04x", GAUDI_PCI_DEVICE);
	udev = udev_new();
	if (!udev)
		return -ENOMEM;
	en = udev_enumerate_new(udev);
	if (!en) {
		udev_unref(udev);
		return -ENOMEM;
	}
	ret = udev_enumerate_add_match_subsystem(en, "pci");
	if (!ret)
		ret = udev_enumerate_add_match_sysattr(en, "vendor", vendor);
	if (!ret)
		ret = udev_enumerate_add_match_sysattr(en, "device", device);
	if (!ret)
		ret = udev_enumerate_scan_devices(en);
	if (!ret)
		udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en))
			n++;
	udev_enumerate_unref(en);
	udev_unref(udev);
	return ret < 0 ? ret : n;
}

/*
 * /sys/module/NAME/initstate: "live" or "coming" is loaded, "going" is
 * not.  A module built into the kernel has no initstate (only a folder
 * when it has parameters).  Loading modules is not the library's job:
 * modprobe, the tools' installer (tools/install) or udev do it.
 */
static int sys_module_loaded(const struct gaudi_sys *sys, const char *name)
{
	char path[128], state[16] = "";
	ssize_t n;
	int fd;

	(void)sys;
	if (strchr(name, '/') || strlen(name) > 64)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(path, sizeof(path), "/sys/module/%s", name);
		return access(path, F_OK) == 0;
	}
	n = read(fd, state, sizeof(state) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	state[n] = 0;
	return !strncmp(state, "live", 4) || !strncmp(state, "coming", 6);
}

static int sys_control_module_id(const struct gaudi_sys *sys,
				 const char *devnode)
{
	struct hl_info_hw_ip_info hw;
	struct hl_info_args a;
	int fd, ret;

	fd = sys_open(sys, devnode, O_RDONLY);
	if (fd < 0)
		return fd;
	memset(&hw, 0, sizeof(hw));
	memset(&a, 0, sizeof(a));
	a.op = HL_INFO_HW_IP_INFO;
	a.return_pointer = (uintptr_t)&hw;
	a.return_size = sizeof(hw);
	ret = sys_ioctl(sys, fd, DRM_IOCTL_HL_INFO, &a);
	close(fd);
	if (ret)
		return ret;
	if (hw.device_id != GAUDI_PCI_DEVICE)
		return -ENODEV;
	return (int)hw.module_id;
}

const struct gaudi_sys gaudi_sys_default = {
	.open = sys_open,
	.close = sys_close,
	.ioctl = sys_ioctl,
	.mmap = sys_mmap,
	.munmap = sys_munmap,
	.drm_version = sys_drm_version,
	.enumerate = sys_enumerate,
	.pci_count = sys_pci_count,
	.module_loaded = sys_module_loaded,
	.control_module_id = sys_control_module_id,
};
