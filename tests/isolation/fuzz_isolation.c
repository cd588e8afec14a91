// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target of the isolation property (isolation.h): arbitrary
 * bytes as a user CB through gaudi.ko's parser onto the device model, the
 * oracle on every access.  A violation prints the access and aborts, so
 * libFuzzer keeps the input (crash-<sha1>).
 *   GAUDI_ISO_BYPASS=1  skip the parser: the hardware protection alone
 *   make -C tests/isolation fuzz FUZZ_S=60
 */
#include <stdio.h>
#include <stdlib.h>

#include "isolation.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct iso *iso;
static bool bypass;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *b = getenv("GAUDI_ISO_BYPASS");

	(void)argc;
	(void)argv;
	bypass = b && *b && *b != '0';
	iso = iso_new();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[512];

	if (iso_run(iso, data, size, bypass, why, sizeof(why))) {
		fprintf(stderr, "isolation violation (%s): %s\n",
			bypass ? "parser bypassed" : "through the parser", why);
		abort();
	}
	return 0;
}
