/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: device-CPU queues and the CPU-CP responder. */
#ifndef GAUDI_CPUCP_H
#define GAUDI_CPUCP_H

#include <stdint.h>

struct gaudi_cpu {
	uint32_t pq_pi;
};

#endif
