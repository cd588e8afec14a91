/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: ARRAY_SIZE(). */
#ifndef GAUDI_SHIM_LINUX_ARRAY_SIZE_H
#define GAUDI_SHIM_LINUX_ARRAY_SIZE_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
