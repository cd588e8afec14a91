// SPDX-License-Identifier: GPL-2.0-only
#include "gaudi_drv.h"

void gaudi_debugfs_init(struct gaudi_device *gdev)
{
}
