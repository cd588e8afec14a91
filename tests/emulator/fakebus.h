/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake environment for the model's engines on the host: host memory is a
 * plain buffer at bus address 0, MSIs are counted, log lines are kept, time
 * is set by the test.
 */
#ifndef GAUDI_FAKEBUS_H
#define GAUDI_FAKEBUS_H

#include "../../emulator/core/gaudi_int.h"

#define FAKE_HOST_SIZE (64ULL << 20)
#define FAKE_HBM_SIZE (1ULL << 30)

struct fakebus {
	uint8_t *host;			/* FAKE_HOST_SIZE bytes at bus addr 0 */
	uint8_t *sram, *hbm, *flash;
	unsigned int msi_count;
	unsigned int guest_errors;
	char last_error[256];
	uint64_t now;
	bool quiet;			/* do not print log lines */
	struct gaudi_core *g;
};

/* Create a card on a fake bus; abort()s on allocation failure (tests). */
struct gaudi_core *fakebus_new(struct fakebus *fb);
void fakebus_free(struct fakebus *fb);

/* Device address of host bus address a (adds HOST_PHYS_BASE). */
static inline uint64_t fake_host_dev(uint64_t a)
{
	return a + GAUDI_HOST_PHYS_BASE;
}

#endif
