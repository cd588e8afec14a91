// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target of the network oracle (netoracle.h): arbitrary bytes
 * as a sequence of remote frames and holder changes against card 1's NIC.
 * A violation prints what the NIC touched and aborts, so libFuzzer keeps
 * the input (crash-<sha1>; replay: fuzz_roce FILE).
 *   make -C tests/emulator fuzz-net FUZZ_S=60
 */
#include "netoracle.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	W = calloc(1, sizeof(*W));
	return W ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[512];

	if (no_run(data, size, why, sizeof(why))) {
		fprintf(stderr, "network oracle violation: %s\n", why);
		abort();
	}
	return 0;
}
