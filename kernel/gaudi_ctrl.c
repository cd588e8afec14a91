// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the control node /dev/accel/accel_controlDN.
 *
 * A read-only view of the card for monitoring tools, as upstream's control
 * node: a char device in the accel class next to the compute node (same
 * index), any number of opens, also while another process holds the
 * compute node.  It serves DRM_IOCTL_HL_INFO with the control node's rules
 * (no event notification) and the extension queries of gaudi_accel.h;
 * every other ioctl fails with ENOTTY.  Unlike upstream (0600, root) the
 * node is created 0666: it only reads device state, except
 * DRM_IOCTL_GAUDI_FLASH, whose writing ops check CAP_SYS_ADMIN.
 *
 * The struct device and the cdev are allocated apart from gaudi_device: an
 * open file keeps them (and, through a DRM reference, the gaudi_device)
 * alive after the card is gone; its ioctls then fail with ENODEV.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "gaudi_acct.h"
#include "gaudi_ctrl.h"
#include "gaudi_file.h"
#include "gaudi_file_types.h"
#include "gaudi_flash.h"
#include "gaudi_info.h"
#include "gaudi_types.h"

#define GAUDI_CTRL_MINORS	ACCEL_MAX_MINORS
#define GAUDI_CTRL_MODE		0666

/* Module-wide: one char device region for every card's control node. */
static DEFINE_MUTEX(gaudi_ctrl_lock);
static DEFINE_XARRAY(gaudi_ctrl_devs);		/* minor -> gaudi_device */
static dev_t gaudi_ctrl_base;
static unsigned int gaudi_ctrl_nr_devs;

static int gaudi_ctrl_open(struct inode *inode, struct file *filp)
{
	struct gaudi_device *gdev;
	struct gaudi_file *gfile;

	mutex_lock(&gaudi_ctrl_lock);
	gdev = xa_load(&gaudi_ctrl_devs, iminor(inode));
	if (gdev)
		drm_dev_get(&gdev->drm);
	mutex_unlock(&gaudi_ctrl_lock);
	if (!gdev)
		return -ENODEV;

	gfile = kzalloc(sizeof(*gfile), GFP_KERNEL);
	if (!gfile) {
		drm_dev_put(&gdev->drm);
		return -ENOMEM;
	}
	gfile->gdev = gdev;
	gfile->control = true;
	mutex_init(&gfile->info_lock);
	filp->private_data = gfile;
	return nonseekable_open(inode, filp);
}

static int gaudi_ctrl_release(struct inode *inode, struct file *filp)
{
	struct gaudi_file *gfile = filp->private_data;
	struct gaudi_device *gdev = gfile->gdev;

	kfree(gfile);
	drm_dev_put(&gdev->drm);
	return 0;
}

union gaudi_ctrl_args {
	struct hl_info_args info;
	struct drm_gaudi_query_caps caps;
	struct drm_gaudi_owner owner;
	struct drm_gaudi_flash flash;
	struct drm_gaudi_accounting acct;
};

/*
 * Same argument handling as the DRM core on the compute node: the user's
 * size and direction bits say how much is copied in and out; a shorter
 * struct is zero-extended, a longer one truncated; the struct is copied
 * back whatever the result.
 */
static long gaudi_ctrl_ioctl(struct file *filp, unsigned int cmd,
			     unsigned long arg)
{
	struct gaudi_file *gfile = filp->private_data;
	struct gaudi_device *gdev = gfile->gdev;
	void __user *uarg = (void __user *)arg;
	union gaudi_ctrl_args k;
	unsigned int kcmd, in, out;
	int ret, idx;

	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		goto not_here;
	switch (_IOC_NR(cmd)) {
	case DRM_COMMAND_BASE + HL_IOCTL_INFO:
		kcmd = DRM_IOCTL_HL_INFO;
		break;
	case DRM_COMMAND_BASE + DRM_GAUDI_QUERY_CAPS:
		kcmd = DRM_IOCTL_GAUDI_QUERY_CAPS;
		break;
	case DRM_COMMAND_BASE + DRM_GAUDI_OWNER:
		kcmd = DRM_IOCTL_GAUDI_OWNER;
		break;
	case DRM_COMMAND_BASE + DRM_GAUDI_FLASH:
		kcmd = DRM_IOCTL_GAUDI_FLASH;
		break;
	case DRM_COMMAND_BASE + DRM_GAUDI_ACCOUNTING:
		kcmd = DRM_IOCTL_GAUDI_ACCOUNTING;
		break;
	default:
		goto not_here;
	}

	in = (cmd & kcmd & IOC_IN) ? _IOC_SIZE(cmd) : 0;
	out = (cmd & kcmd & IOC_OUT) ? _IOC_SIZE(cmd) : 0;
	in = min_t(unsigned int, in, _IOC_SIZE(kcmd));
	out = min_t(unsigned int, out, _IOC_SIZE(kcmd));
	memset(&k, 0, sizeof(k));
	if (copy_from_user(&k, uarg, in))
		return -EFAULT;

	/*
	 * INFO, FLASH and ACCOUNTING enter the device themselves and touch
	 * user memory only outside it; the others never touch user memory.
	 */
	switch (kcmd) {
	case DRM_IOCTL_HL_INFO:
		ret = gaudi_info_query(gdev, gfile, &k.info);
		break;
	case DRM_IOCTL_GAUDI_FLASH:
		ret = gaudi_flash_op(gdev, &k.flash);
		break;
	case DRM_IOCTL_GAUDI_ACCOUNTING:
		ret = gaudi_acct_query(gdev, &k.acct);
		break;
	default:
		if (!drm_dev_enter(&gdev->drm, &idx))
			return -ENODEV;
		if (kcmd == DRM_IOCTL_GAUDI_QUERY_CAPS)
			ret = gaudi_file_query_caps(gdev, true, &k.caps);
		else
			ret = gaudi_file_owner(gdev, &k.owner);
		drm_dev_exit(idx);
		break;
	}

	if (copy_to_user(uarg, &k, out))
		ret = -EFAULT;
	return ret;

not_here:
	gaudi_dbg(gdev, IOCTL, "control node: ioctl 0x%08x refused (pid %d)\n",
		  cmd, task_tgid_nr(current));
	return -ENOTTY;
}

static void gaudi_ctrl_show_fdinfo(struct seq_file *m, struct file *filp)
{
	struct gaudi_file *gfile = filp->private_data;

	seq_puts(m, "gaudi-node:\tcontrol\n");
	seq_printf(m, "gaudi-pdev:\t%s\n", pci_name(gfile->gdev->pdev));
}

static const struct file_operations gaudi_ctrl_fops = {
	.owner = THIS_MODULE,
	.open = gaudi_ctrl_open,
	.release = gaudi_ctrl_release,
	.unlocked_ioctl = gaudi_ctrl_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
	.show_fdinfo = gaudi_ctrl_show_fdinfo,
};

static char *gaudi_ctrl_devnode(const struct device *dev, umode_t *mode,
				kuid_t *uid, kgid_t *gid)
{
	if (mode)
		*mode = GAUDI_CTRL_MODE;
	return kasprintf(GFP_KERNEL, "accel/%s", dev_name(dev));
}

static const struct device_type gaudi_ctrl_type = {
	.name = "gaudi_control",
	.devnode = gaudi_ctrl_devnode,
};

static void gaudi_ctrl_dev_release(struct device *dev)
{
	kfree(dev);
}

/* The region is allocated with the first control node, freed with the last. */
static int gaudi_ctrl_region_get(void)
{
	int ret = 0;

	if (!gaudi_ctrl_nr_devs)
		ret = alloc_chrdev_region(&gaudi_ctrl_base, 0, GAUDI_CTRL_MINORS,
					  "gaudi_control");
	if (!ret)
		gaudi_ctrl_nr_devs++;
	return ret;
}

static void gaudi_ctrl_region_put(void)
{
	if (!--gaudi_ctrl_nr_devs)
		unregister_chrdev_region(gaudi_ctrl_base, GAUDI_CTRL_MINORS);
}

int gaudi_ctrl_init(struct gaudi_device *gdev)
{
	struct gaudi_users *u;
	struct device *dev;
	struct cdev *cdev;
	int ret;

	u = gdev->users;

	ret = devm_device_add_group(&gdev->pdev->dev, &gaudi_owner_attr_group);
	if (ret) {
		gaudi_err(gdev, "control node: owner sysfs group: %d\n", ret);
		return ret;
	}
	if (gdev->index >= GAUDI_CTRL_MINORS)
		return -ENOSPC;

	mutex_lock(&gaudi_ctrl_lock);
	ret = gaudi_ctrl_region_get();
	if (ret) {
		mutex_unlock(&gaudi_ctrl_lock);
		gaudi_err(gdev, "control node: no char device region: %d\n",
			  ret);
		return ret;
	}
	ret = xa_insert(&gaudi_ctrl_devs, gdev->index, gdev, GFP_KERNEL);
	if (ret)
		goto err_region;

	ret = -ENOMEM;
	cdev = cdev_alloc();
	if (!cdev)
		goto err_erase;
	cdev->owner = THIS_MODULE;
	cdev->ops = &gaudi_ctrl_fops;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		goto err_cdev;
	device_initialize(dev);
	dev->devt = MKDEV(MAJOR(gaudi_ctrl_base), gdev->index);
	dev->class = gdev->drm.accel->kdev->class;
	dev->type = &gaudi_ctrl_type;
	dev->parent = &gdev->pdev->dev;
	dev->release = gaudi_ctrl_dev_release;
	ret = dev_set_name(dev, "accel_controlD%u", gdev->index);
	if (ret)
		goto err_put_dev;

	ret = cdev_device_add(cdev, dev);
	if (ret)
		goto err_put_dev;
	mutex_unlock(&gaudi_ctrl_lock);

	u->ctrl_cdev = cdev;
	u->ctrl_dev = dev;
	u->ctrl_minor = gdev->index;
	return 0;

err_put_dev:
	put_device(dev);
err_cdev:
	kobject_put(&cdev->kobj);
err_erase:
	xa_erase(&gaudi_ctrl_devs, gdev->index);
err_region:
	gaudi_ctrl_region_put();
	mutex_unlock(&gaudi_ctrl_lock);
	gaudi_err(gdev, "control node: creation failed: %d\n", ret);
	return ret;
}

void gaudi_ctrl_fini(struct gaudi_device *gdev)
{
	struct gaudi_users *u = gdev->users;

	if (u->ctrl_minor < 0)
		return;
	mutex_lock(&gaudi_ctrl_lock);
	xa_erase(&gaudi_ctrl_devs, u->ctrl_minor);
	cdev_device_del(u->ctrl_cdev, u->ctrl_dev);
	put_device(u->ctrl_dev);
	gaudi_ctrl_region_put();
	mutex_unlock(&gaudi_ctrl_lock);
	u->ctrl_cdev = NULL;
	u->ctrl_dev = NULL;
	u->ctrl_minor = -1;
}
