// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: module, PCI driver and DRM accel driver for Habana Gaudi 1.
 *
 * Probe is one linear chain: each step has its own unwind label, an error
 * message that names it, and the DRM device is registered last.  Remove
 * unplugs the DRM device first, so every user path that touches the
 * hardware (bracketed by gaudi_hw_enter/exit) fails with -ENODEV from then
 * on, and then tears the chain down in reverse.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include "gaudi1/boot.h"
#include "gaudi1/events.h"
#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi_cb.h"
#include "gaudi_cpucp.h"
#include "gaudi_cs.h"
#include "gaudi_ctrl.h"
#include "gaudi_debugfs.h"
#include "gaudi_dp.h"
#include "gaudi_drv.h"
#include "gaudi_eq.h"
#include "gaudi_file.h"
#include "gaudi_flash.h"
#include "gaudi_fw.h"
#include "gaudi_hw.h"
#include "gaudi_hwmon.h"
#include "gaudi_info.h"
#include "gaudi_mem.h"
#include "gaudi_nic.h"
#include "gaudi_pci.h"
#include "gaudi_reset.h"
#include "gaudi_roce.h"
#include "gaudi_scrub.h"
#include "gaudi_sysfs.h"
#include "gaudi_types.h"
#include "gaudi_wait.h"
#define CREATE_TRACE_POINTS
#include "gaudi_trace.h"

unsigned int gaudi_timeout_locked = 30;
module_param_named(timeout_locked, gaudi_timeout_locked, uint, 0444);
MODULE_PARM_DESC(timeout_locked, "Device lockup timeout in seconds (0 = disabled, default 30)");

bool gaudi_reset_on_lockup = true;
module_param_named(reset_on_lockup, gaudi_reset_on_lockup, bool, 0444);
MODULE_PARM_DESC(reset_on_lockup, "Hard reset the device on a lockup or a lost heartbeat (default true)");

unsigned int gaudi_boot_error_status_mask = 0xFFFFFFFF;
module_param_named(boot_error_status_mask, gaudi_boot_error_status_mask, uint, 0444);
MODULE_PARM_DESC(boot_error_status_mask, "Mask of firmware BOOT_ERR0 bits that fail the boot; clear a bit to ignore it (default 0xffffffff)");

unsigned int gaudi_heartbeat_ms = 10000;
module_param_named(heartbeat_ms, gaudi_heartbeat_ms, uint, 0444);
MODULE_PARM_DESC(heartbeat_ms, "Device-CPU heartbeat period in ms (0 = off, default 10000)");

/*
 * Bring the hardware up: a hard reset first if a previous driver left it
 * dirty, mark it ours, boot the firmware, then the device-CPU channel and
 * the event queue.  Used by probe and by recovery.
 */
int gaudi_hw_init(struct gaudi_device *gdev)
{
	int ret;

	if (RREG32(gdev, mmHW_STATE) == HW_STATE_DIRTY) {
		gaudi_note(gdev, "device was left initialized, hard reset first\n");
		ret = gaudi_hw_reset(gdev);
		if (ret)
			return ret;
	}
	WREG32(gdev, mmHW_STATE, HW_STATE_DIRTY);

	gaudi_fw_read_preboot(gdev);
	WREG32(gdev, mmCPU_IF_CPU_MSB_ADDR, gdev->cpucp.msb);

	ret = gaudi_fw_boot(gdev);
	if (ret)
		return ret;

	ret = gaudi_eq_init(gdev);
	if (ret)
		return ret;

	ret = gaudi_cpucp_init(gdev);
	if (ret) {
		gaudi_eq_fini(gdev);
		return ret;
	}

	ret = gaudi_dp_hw_init(gdev);
	if (ret) {
		gaudi_cpucp_fini(gdev);
		gaudi_eq_fini(gdev);
		return ret;
	}
	gaudi_nic_hw_init(gdev);
	/* From now on the device CPU may post events. */
	WREG32(gdev, mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR, GAUDI_EVENT_INTS_REGISTER);
	return 0;
}

/* Quiesce the device CPU and reset the device (unload, reset). */
void gaudi_hw_fini(struct gaudi_device *gdev)
{
	gaudi_dp_hw_fini(gdev);
	gaudi_cpucp_fini(gdev);
	gaudi_eq_fini(gdev);
	gaudi_hw_reset(gdev);
}

static void gaudi_dummy_page_free(struct drm_device *drm, void *page)
{
	__free_page(page);
}

/* The page a removed card's CB mappings show (gaudi_cb_vm_fault()). */
static int gaudi_dummy_page_init(struct gaudi_device *gdev)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	if (!page)
		return -ENOMEM;
	gdev->dummy_page = page;
	return drmm_add_action_or_reset(&gdev->drm, gaudi_dummy_page_free,
					page);
}

static int gaudi_drm_open(struct drm_device *drm, struct drm_file *file)
{
	return gaudi_file_open(drm, file);
}

static void gaudi_drm_postclose(struct drm_device *drm, struct drm_file *file)
{
	gaudi_file_postclose(drm, file);
}

/* The accel defaults plus DRM fdinfo (drm-driver, drm-pdev, drm-client-id). */
/*
 * DRM_ACCEL_FOPS spelled out: mmap maps command buffers by handle
 * (gaudi_cb.c) instead of GEM objects.
 */
static const struct file_operations gaudi_fops = {
	.owner = THIS_MODULE,
	.open = accel_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = gaudi_mmap,
	.fop_flags = FOP_UNSIGNED_OFFSET,
	.show_fdinfo = drm_show_fdinfo,
};

/*
 * The compute node's ioctls: upstream's numbers (DRM_COMMAND_BASE +
 * 0x00..0x05), then the extensions of uapi/drm/gaudi_accel.h.
 */
static const struct drm_ioctl_desc gaudi_ioctls[] = {
	DRM_IOCTL_DEF_DRV(HL_INFO, gaudi_info_ioctl, 0),
	DRM_IOCTL_DEF_DRV(HL_CB, gaudi_cb_ioctl, 0),
	DRM_IOCTL_DEF_DRV(HL_CS, gaudi_cs_ioctl, 0),
	DRM_IOCTL_DEF_DRV(HL_WAIT_CS, gaudi_wait_cs_ioctl, 0),
	DRM_IOCTL_DEF_DRV(HL_MEMORY, gaudi_mem_ioctl, 0),
	DRM_IOCTL_DEF_DRV(GAUDI_QUERY_CAPS, gaudi_query_caps_ioctl, 0),
	DRM_IOCTL_DEF_DRV(GAUDI_OWNER, gaudi_owner_ioctl, 0),
	DRM_IOCTL_DEF_DRV(GAUDI_FLASH, gaudi_flash_ioctl, 0),
	DRM_IOCTL_DEF_DRV(GAUDI_ACCOUNTING, gaudi_accounting_ioctl, 0),
	DRM_IOCTL_DEF_DRV(GAUDI_NIC, gaudi_nic_ioctl, 0),
};

static const struct drm_driver gaudi_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL,
	.open = gaudi_drm_open,
	.postclose = gaudi_drm_postclose,
	.show_fdinfo = gaudi_file_show_fdinfo,
	.fops = &gaudi_fops,
	.name = GAUDI_DRV_NAME,
	.desc = GAUDI_DRV_DESC,
	.major = 1,
	.minor = 0,
	.ioctls = gaudi_ioctls,
	.num_ioctls = ARRAY_SIZE(gaudi_ioctls),
};

static int gaudi_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct gaudi_device *gdev;
	ktime_t start = ktime_get();
	int ret;

	gdev = devm_drm_dev_alloc(&pdev->dev, &gaudi_drm_driver,
				  struct gaudi_device, drm);
	if (IS_ERR(gdev)) {
		dev_err(&pdev->dev, "DRM device allocation failed: %pe\n", gdev);
		return PTR_ERR(gdev);
	}
	gdev->pdev = pdev;
	gdev->index = gdev->drm.accel->index;
	gdev->status = GAUDI_STATUS_IN_DEVICE_CREATION;
	pci_set_drvdata(pdev, gdev);

	ret = drmm_mutex_init(&gdev->drm, &gdev->state_lock);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&gdev->drm, &gdev->cpucp.lock);
	if (ret)
		return ret;
	spin_lock_init(&gdev->eq.lock);
	ret = gaudi_nic_sw_init(gdev);
	if (ret)
		return ret;
	gaudi_reset_init(gdev);
	ret = gaudi_file_init(gdev);
	if (ret)
		return ret;
	ret = gaudi_dummy_page_init(gdev);
	if (ret)
		return ret;

	ret = gaudi_pci_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: PCI set-up failed: %d\n", ret);
		return ret;
	}

	ret = gaudi_fw_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: firmware files unavailable: %d\n", ret);
		return ret;
	}

	ret = gaudi_cpucp_sw_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: CPU-accessible memory set-up failed: %d\n",
			  ret);
		goto err_fw_fini;
	}

	ret = gaudi_dp_sw_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: queue and MMU set-up failed: %d\n", ret);
		goto err_cpucp_sw_fini;
	}

	ret = gaudi_irq_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: interrupt set-up failed: %d\n", ret);
		goto err_dp_sw_fini;
	}

	ret = gaudi_hw_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: device bring-up failed: %d\n", ret);
		goto err_irq_fini;
	}

	ret = gaudi_hwmon_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: hwmon registration failed: %d\n", ret);
		goto err_hw_fini;
	}

	ret = gaudi_ctrl_init(gdev);
	if (ret) {
		gaudi_err(gdev, "probe: control node creation failed: %d\n", ret);
		goto err_hwmon_fini;
	}

	gdev->status = GAUDI_STATUS_OPERATIONAL;
	gdev->created = ktime_get();
	gaudi_cpucp_heartbeat_start(gdev);

	ret = drm_dev_register(&gdev->drm, 0);
	if (ret) {
		gaudi_err(gdev, "probe: DRM device registration failed: %d\n",
			  ret);
		goto err_heartbeat_stop;
	}
	gaudi_debugfs_init(gdev);
	ret = gaudi_nic_init(gdev);
	if (ret)
		gaudi_warn(gdev, "probe: NIC ports not offered: %d\n", ret);

	gaudi_note(gdev, "Gaudi %s added as accel%u in %lld ms (firmware %s)\n",
		   pci_name(pdev), gdev->index,
		   ktime_ms_delta(ktime_get(), start),
		   gdev->fw.uboot_ver[0] ? gdev->fw.uboot_ver : "?");
	return 0;

err_heartbeat_stop:
	gaudi_cpucp_heartbeat_stop(gdev);
	gdev->status = GAUDI_STATUS_MALFUNCTION;
	gaudi_ctrl_fini(gdev);
err_hwmon_fini:
	gaudi_hwmon_fini(gdev);
err_hw_fini:
	gaudi_hw_fini(gdev);
err_irq_fini:
	gaudi_irq_fini(gdev);
err_dp_sw_fini:
	gaudi_dp_dma_fini(gdev);
err_cpucp_sw_fini:
	gaudi_cpucp_sw_fini(gdev);
err_fw_fini:
	gaudi_fw_fini(gdev);
	return ret;
}

/*
 * Unbind, PCI removal or hot-unplug, with users or without.  Users first:
 * drm_dev_unplug() lets the ioctls, mmaps and opens in progress finish
 * (every one that reaches the device or its memory is inside
 * drm_dev_enter(); none waits there for user work or user memory), fails
 * every later one with ENODEV and zaps the CB mappings.  Then the
 * holder's work is aborted and its memory given back while the device is
 * still bound (gaudi_file_revoke()); its file, the control node's files
 * and dma-bufs keep the DRM device and the software state
 * (gaudi_dp_release()) until they are closed.  Then the hardware goes,
 * in the reverse order of probe.
 */
static void gaudi_remove(struct pci_dev *pdev)
{
	struct gaudi_device *gdev = pci_get_drvdata(pdev);

	gaudi_nic_fini(gdev);
	drm_dev_unplug(&gdev->drm);
	gaudi_file_revoke(gdev);
	gaudi_reset_fini(gdev);
	gaudi_file_events_fini(gdev);
	gaudi_scrub_remove(gdev);
	gaudi_cpucp_heartbeat_stop(gdev);
	gaudi_ctrl_fini(gdev);
	gaudi_hwmon_fini(gdev);
	gaudi_hw_fini(gdev);
	gaudi_irq_fini(gdev);
	gaudi_dp_dma_fini(gdev);
	gaudi_cpucp_sw_fini(gdev);
	gaudi_fw_fini(gdev);
}

static const struct pci_device_id gaudi_pci_ids[] = {
	{ PCI_DEVICE(GAUDI_PCI_VENDOR, GAUDI_PCI_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, gaudi_pci_ids);

static struct pci_driver gaudi_pci_driver = {
	.name = GAUDI_DRV_NAME,
	.id_table = gaudi_pci_ids,
	.probe = gaudi_probe,
	.remove = gaudi_remove,
	.dev_groups = gaudi_sysfs_groups,
};

static int __init gaudi_init(void)
{
	return pci_register_driver(&gaudi_pci_driver);
}

static void __exit gaudi_exit(void)
{
	pci_unregister_driver(&gaudi_pci_driver);
	gaudi_scrub_exit();
}

module_init(gaudi_init);
module_exit(gaudi_exit);

MODULE_AUTHOR("gaudi-open developers");
MODULE_DESCRIPTION(GAUDI_DRV_DESC);
MODULE_LICENSE("GPL");
MODULE_VERSION(GAUDI_DRV_VERSION);
MODULE_FIRMWARE("habanalabs/gaudi/gaudi-boot-fit.itb");
MODULE_FIRMWARE("habanalabs/gaudi/gaudi-fit.itb");
MODULE_FIRMWARE("habanalabs/gaudi/gaudi_tpc.bin");
