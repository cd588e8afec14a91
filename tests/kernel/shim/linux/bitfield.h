/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: FIELD_GET() and FIELD_PREP() for constant masks. */
#ifndef GAUDI_SHIM_LINUX_BITFIELD_H
#define GAUDI_SHIM_LINUX_BITFIELD_H

#include <linux/bits.h>

#define FIELD_GET(mask, reg)						\
	((__typeof__(mask))(((reg) & (mask)) >> __builtin_ctzll(mask)))
#define FIELD_PREP(mask, val)						\
	((__typeof__(mask))(((__typeof__(mask))(val) << __builtin_ctzll(mask)) & (mask)))

#endif
