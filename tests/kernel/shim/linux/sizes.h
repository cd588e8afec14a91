/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: the SZ_* constants the register headers use. */
#ifndef GAUDI_SHIM_LINUX_SIZES_H
#define GAUDI_SHIM_LINUX_SIZES_H

#define SZ_4K		0x00001000
#define SZ_64K		0x00010000
#define SZ_1M		0x00100000
#define SZ_32M		0x02000000
#define SZ_64M		0x04000000
#define SZ_128M		0x08000000
#define SZ_1G		0x40000000
#define SZ_4G		0x100000000ULL

#endif
