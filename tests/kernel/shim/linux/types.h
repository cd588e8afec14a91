/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host shim for the kernel's pure units (tests/kernel/): the kernel types
 * on top of the uapi <linux/types.h> of the host.
 */
#ifndef GAUDI_SHIM_LINUX_TYPES_H
#define GAUDI_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#endif
