/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: BIT() and GENMASK() as the kernel defines them (64-bit long). */
#ifndef GAUDI_SHIM_LINUX_BITS_H
#define GAUDI_SHIM_LINUX_BITS_H

#define BITS_PER_LONG		64
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))

#endif
