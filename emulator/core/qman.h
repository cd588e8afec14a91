/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: queue managers and the packet executor. */
#ifndef GAUDI_QMAN_H
#define GAUDI_QMAN_H

#include <stdint.h>

struct gaudi_qmans {
	uint32_t placeholder;
};

#endif
