// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the firmware image check: the guest controls every
 * byte the device CPU looks at, as either image kind.
 *   make -C tests/emulator fuzz
 *   mkdir -p corpus && build/tests/emulator/fuzz/fuzz_fit -max_len=65536 \
 *	corpus build/firmware/habanalabs/gaudi
 * (libFuzzer writes new inputs into the first directory: keep it apart.)
 */
#include <stdlib.h>
#include <string.h>

#include "fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gaudi_fit_info info;
	char why[160];
	uint8_t *copy;

	/* An aligned copy, as the image sits aligned in SRAM or HBM. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	gaudi_fit_check(copy, size, GAUDI_FIT_BOOT, &info, why, sizeof(why));
	gaudi_fit_check(copy, size, GAUDI_FIT_MAIN, &info, why, sizeof(why));
	free(copy);
	return 0;
}
