/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: the sync manager. */
#ifndef GAUDI_SYNC_H
#define GAUDI_SYNC_H

#include <stdint.h>

struct gaudi_sync {
	uint32_t placeholder;
};

#endif
