// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the hardware as users' paths reach it: the device's status,
 * register access, and the brackets that keep the device present and out
 * of reset while a path touches it (gaudi_hw_enter()/gaudi_hw_exit(), the
 * driver's own gaudi_hw_hold()/gaudi_hw_release(); the scoped forms
 * CLASS(gaudi_hw, ...) and CLASS(gaudi_hw_hold, ...) of gaudi_hw.h end
 * them at the end of the scope).
 */
#include <linux/io.h>
#include <drm/drm_drv.h>

#include "gaudi_hw.h"
#include "gaudi_types.h"
#include "gaudi_trace.h"

static const char * const gaudi_status_names[] = {
	[GAUDI_STATUS_OPERATIONAL] = "operational",
	[GAUDI_STATUS_IN_RESET] = "in reset",
	[GAUDI_STATUS_MALFUNCTION] = "disabled",
	[GAUDI_STATUS_NEEDS_RESET] = "needs reset",
	[GAUDI_STATUS_IN_DEVICE_CREATION] = "in device creation",
};

const char *gaudi_status_str(enum gaudi_status status)
{
	if (status >= ARRAY_SIZE(gaudi_status_names))
		return "unknown";
	return gaudi_status_names[status];
}

u32 gaudi_rreg(struct gaudi_device *gdev, u32 reg, const char *name)
{
	u32 val = readl(gdev->pci.cfg + reg);

	trace_gaudi_reg_read(gdev->index, reg, val, name);
	return val;
}

void gaudi_wreg(struct gaudi_device *gdev, u32 reg, u32 val, const char *name)
{
	trace_gaudi_reg_write(gdev->index, reg, val, name);
	writel(val, gdev->pci.cfg + reg);
}

int gaudi_hw_enter(struct gaudi_device *gdev, int *idx)
{
	if (!drm_dev_enter(&gdev->drm, idx))
		return -ENODEV;
	/* A reset may take seconds if recovery fails: a killed task leaves. */
	if (down_read_killable(&gdev->reset.rwsem)) {
		drm_dev_exit(*idx);
		return -EINTR;
	}
	if (READ_ONCE(gdev->status) != GAUDI_STATUS_OPERATIONAL) {
		up_read(&gdev->reset.rwsem);
		drm_dev_exit(*idx);
		return -EIO;
	}
	return 0;
}

void gaudi_hw_exit(struct gaudi_device *gdev, int idx)
{
	up_read(&gdev->reset.rwsem);
	drm_dev_exit(idx);
}

int gaudi_hw_hold(struct gaudi_device *gdev)
{
	down_read(&gdev->reset.rwsem);
	if (READ_ONCE(gdev->status) != GAUDI_STATUS_OPERATIONAL) {
		up_read(&gdev->reset.rwsem);
		return -EIO;
	}
	return 0;
}

void gaudi_hw_release(struct gaudi_device *gdev)
{
	up_read(&gdev->reset.rwsem);
}
