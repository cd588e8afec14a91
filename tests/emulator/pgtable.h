/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host unit tests: one 4 KiB page of an ASID mapped in the model's device
 * MMU, the 5-hop page tables written straight into the fake HBM
 * (Documentation/emulator/model.rst, the MMU), new hop tables taken from
 * *@pool, 4 KiB at a time.
 */
#ifndef TESTS_EMULATOR_PGTABLE_H
#define TESTS_EMULATOR_PGTABLE_H

#include <stdint.h>
#include <string.h>

#include "fakebus.h"

static inline void pgt_map_page(struct fakebus *fb, uint64_t pgt_base,
				unsigned int asid, uint64_t *pool,
				uint64_t va, uint64_t pa)
{
	static const unsigned int shift[5] = { 48, 39, 30, 21, 12 };
	static const uint64_t mask[5] = { 3, 511, 511, 511, 511 };
	uint64_t table = pgt_base + 0x1000ULL * asid, pte;
	unsigned int hop;

	for (hop = 0; hop < 5; hop++) {
		uint64_t slot = table + 8 * ((va >> shift[hop]) & mask[hop]);

		if (hop == 4) {
			pte = pa | PTE_LAST | PTE_PRESENT;
			memcpy(fb->hbm + slot, &pte, 8);
			return;
		}
		memcpy(&pte, fb->hbm + slot, 8);
		if (!(pte & PTE_PRESENT)) {
			pte = *pool | PTE_PRESENT;
			*pool += 0x1000;
			memcpy(fb->hbm + slot, &pte, 8);
		}
		table = pte & ~0xFFFULL;
	}
}

#endif
