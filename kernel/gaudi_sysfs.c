// SPDX-License-Identifier: GPL-2.0-only
#include "gaudi_drv.h"

const struct attribute_group *gaudi_sysfs_groups[] = {
	NULL,
};
