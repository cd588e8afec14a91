/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: the errno values of the host's uapi header. */
#ifndef GAUDI_SHIM_LINUX_ERRNO_H
#define GAUDI_SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif
