/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host shim: what gaudi.ko's protection tables use of <linux/kernel.h>. */
#ifndef GAUDI_ISO_SHIM_KERNEL_H
#define GAUDI_ISO_SHIM_KERNEL_H

#include <linux/types.h>
#include <linux/bits.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#define lower_32_bits(v) ((u32)((v) & 0xFFFFFFFFU))
#define upper_32_bits(v) ((u32)((u64)(v) >> 32))

#endif
