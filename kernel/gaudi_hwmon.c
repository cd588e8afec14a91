// SPDX-License-Identifier: GPL-2.0-only
#include "gaudi_drv.h"

int gaudi_hwmon_init(struct gaudi_device *gdev)
{
	return 0;
}

void gaudi_hwmon_fini(struct gaudi_device *gdev)
{
}
