/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: the device MMU. */
#ifndef GAUDI_MMU_H
#define GAUDI_MMU_H

#include <stdint.h>

struct gaudi_mmu {
	uint64_t hop0[2];
};

#endif
