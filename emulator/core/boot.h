/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: boot state machine and firmware images. */
#ifndef GAUDI_BOOT_H
#define GAUDI_BOOT_H

#include <stdint.h>

struct gaudi_boot {
	uint32_t status;	/* CPU_BOOT_STATUS */
};

#endif
