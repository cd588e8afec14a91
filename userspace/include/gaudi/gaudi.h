/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgaudi: userspace library for Habana Gaudi 1 accelerators.
 *
 * Copyright (C) the open Gaudi driver stack authors.
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version.
 */
#ifndef GAUDI_GAUDI_H
#define GAUDI_GAUDI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/habanalabs_accel.h>

#include <gaudi/cmdbuf.h>
#include <gaudi/device.h>
#include <gaudi/nic.h>
#include <gaudi/submit.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * DOC: Overview
 *
 * libgaudi finds Gaudi 1 cards (PCI 1da3:1000) through libudev, opens their
 * nodes, queries them and submits work to them.  It runs unchanged on our
 * driver (gaudi.ko, DRM driver name "gaudi") and on upstream's habanalabs.ko
 * (DRM driver name "habanalabs"): the ioctl ABI is upstream's
 * <drm/habanalabs_accel.h>, whose structs the info getters return as they
 * are; gaudi.ko's extensions are used when its capability query says so.
 *
 * Errors: every function that can fail returns 0 (or a count) on success
 * and a negative errno on failure; gaudi_strerror() describes it.  Output
 * parameters are written only on success.
 *
 * Threads: the library has no global state.  A &struct gaudi_dev may be
 * shared by any number of threads: every call on it is thread-safe (the
 * kernel serializes what needs it), and so are calls on a &struct gaudi_cb
 * or &struct gaudi_mapping of it that do not change the object (handles,
 * addresses, submit, wait).  A &struct gaudi_cmdbuf (a command-buffer
 * builder, also the one of a CB) belongs to one thread at a time; a
 * &struct gaudi_card_list and a &struct gaudi_monitor likewise.  Destroying
 * an object while another thread uses it is, as always, a bug.  A device
 * must outlive its CBs and mappings.
 *
 * Headers: <gaudi/gaudi.h> includes them all; by concern,
 * <gaudi/device.h> (discovery, devices, queries, events, hot-plug),
 * <gaudi/cmdbuf.h> (the packet builder), <gaudi/submit.h> (kernel
 * CBs, host mappings, submission) and <gaudi/nic.h> (ports, RoCE
 * connections, memory regions).
 */

/* ---- errors ------------------------------------------------------------- */

/**
 * gaudi_strerror() - describe an error code of this library
 * @err: a negative errno returned by a libgaudi function (a positive value
 *	is taken as its negation)
 *
 * Return: a static, constant string; never NULL.  Codes with a meaning
 * specific to libgaudi (for instance -ENOPKG: the driver is not loaded) get
 * their own text, the others strerror()'s.
 */
const char *gaudi_strerror(int err);

/* ---- version ------------------------------------------------------------ */

/**
 * gaudi_version() - version of the library
 *
 * Return: "MAJOR.MINOR.PATCH".
 */
const char *gaudi_version(void);

#ifdef __cplusplus
}
#endif

#endif /* GAUDI_GAUDI_H */
