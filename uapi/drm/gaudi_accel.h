/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * gaudi.ko uapi: the ioctl ABI of the open Gaudi 1 driver.
 */
#ifndef __UAPI_DRM_GAUDI_ACCEL_H__
#define __UAPI_DRM_GAUDI_ACCEL_H__

/*
 * The upstream-compatible part of the ABI is upstream's own header: every
 * DRM_IOCTL_HL_* number, struct and HL_INFO_* op there means the same on
 * gaudi.ko for everything both drivers support.
 */
#include <linux/const.h>
#include <drm/habanalabs_accel.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: Overview
 *
 * gaudi.ko exposes two nodes per card:
 *
 * - ``/dev/accel/accelN``, the compute node.  One process at a time holds
 *   it (a second open fails with EBUSY, as on upstream's habanalabs).  It
 *   serves every ioctl of ``<drm/habanalabs_accel.h>`` that gaudi.ko
 *   implements plus the extensions below.
 * - ``/dev/accel/accel_controlDN``, the control node, for monitoring.  Any
 *   number of processes may open it, also while another process holds the
 *   compute node.  It serves DRM_IOCTL_HL_INFO (the same ops as upstream's
 *   control node) and the extensions below; every other ioctl fails with
 *   ENOTTY.  Its mode is 0666: it only reads device state.
 *
 * Extensions use ioctl numbers from DRM_COMMAND_BASE + 0x20 on, well away
 * from upstream's DRM_COMMAND_BASE + 0x00..0x05.  On upstream's driver they
 * fail (EINVAL on the compute node, ENOTTY on the control node), so
 * userspace that calls DRM_IOCTL_GAUDI_QUERY_CAPS first and checks for 0
 * knows whether it talks to gaudi.ko.
 */

/**
 * DOC: Conventions of the extensions
 *
 * - Every struct is a multiple of 8 bytes, with explicit padding.
 * - Members marked *In* are read by the driver; *Out* are written by it.
 * - ``flags``, ``pad`` and ``reserved`` members are *In* and must be zero:
 *   the driver fails the call with EINVAL otherwise, so they can be given a
 *   meaning later without breaking old userspace.  The driver writes them
 *   back as zero.
 * - The ABI version is GAUDI_ABI_VERSION_MAJOR.GAUDI_ABI_VERSION_MINOR.
 *   The minor grows when an extension or capability bit is added; the major
 *   only on an incompatible change (never, we hope).
 */

#define GAUDI_ABI_VERSION_MAJOR		1
#define GAUDI_ABI_VERSION_MINOR		0

/* Ioctl numbers, relative to DRM_COMMAND_BASE. */
#define DRM_GAUDI_QUERY_CAPS		0x20
#define DRM_GAUDI_OWNER			0x21

/**
 * DOC: Capabilities
 *
 * Bits of &drm_gaudi_query_caps.caps:
 *
 * GAUDI_CAP_OWNER
 *	DRM_IOCTL_GAUDI_OWNER is served, on both nodes.
 * GAUDI_CAP_SYNC_RELEASE
 *	close() of the compute node releases it before it returns: an open
 *	that follows never fails with EAGAIN or EBUSY because of the previous
 *	holder.  (Upstream answers EAGAIN while it releases the old context.)
 *	This holds as long as the process has no other reference to the file
 *	(a dup()ed descriptor, a child that inherited it, a live mmap).
 * GAUDI_CAP_OPEN_BUSY_OWNER
 *	A refused open of the compute node logs (rate limited) the pid and
 *	command of the holder, and the PCI device has an ``owner`` sysfs
 *	directory (``pid``, ``comm``, ``open_time``).
 */
#define GAUDI_CAP_OWNER			_BITULL(0)
#define GAUDI_CAP_SYNC_RELEASE		_BITULL(1)
#define GAUDI_CAP_OPEN_BUSY_OWNER	_BITULL(2)

/**
 * struct drm_gaudi_query_caps - ABI version and extensions of the driver
 *
 * Served on the compute and the control node.
 */
struct drm_gaudi_query_caps {
	/** @abi_major: Out: GAUDI_ABI_VERSION_MAJOR of the driver. */
	__u32 abi_major;
	/** @abi_minor: Out: GAUDI_ABI_VERSION_MINOR of the driver. */
	__u32 abi_minor;
	/** @caps: Out: GAUDI_CAP_* bits. */
	__u64 caps;
	/**
	 * @info_ops: Out: bit N is set when DRM_IOCTL_HL_INFO op N
	 * (HL_INFO_*) is served on the node this call was made on.  An op
	 * with its bit clear fails as it does on upstream's Gaudi 1 driver.
	 */
	__u64 info_ops;
	/** @flags: In: must be 0. */
	__u32 flags;
	/** @pad: In: must be 0. */
	__u32 pad;
	/** @reserved: In: must be 0; Out: 0. */
	__u64 reserved[4];
};

/* &drm_gaudi_owner.state */
#define GAUDI_OWNER_FREE		0
#define GAUDI_OWNER_HELD		1

#define GAUDI_OWNER_COMM_LEN		16

/**
 * struct drm_gaudi_owner - who holds the compute node
 *
 * Served on the compute and the control node, so that a tool whose open of
 * the compute node failed with EBUSY can tell the user which process holds
 * the card.  The holder is the process that opened the compute node; a
 * descriptor passed on (fork, SCM_RIGHTS) keeps it held under that name.
 */
struct drm_gaudi_owner {
	/** @flags: In: must be 0. */
	__u32 flags;
	/** @state: Out: GAUDI_OWNER_FREE or GAUDI_OWNER_HELD. */
	__u32 state;
	/**
	 * @pid: Out: process id (thread-group id) of the holder as seen in
	 * the caller's pid namespace; 0 when free or when the holder is not
	 * visible from there.
	 */
	__s32 pid;
	/**
	 * @uid: Out: user id of the holder in the caller's user namespace
	 * (the overflow uid when unmapped); 0 when free.
	 */
	__u32 uid;
	/**
	 * @comm: Out: command name of the holder at open time, NUL-terminated;
	 * empty when free.
	 */
	__u8 comm[GAUDI_OWNER_COMM_LEN];
	/**
	 * @open_time_ns: Out: CLOCK_REALTIME of the open, in ns; 0 when free.
	 */
	__u64 open_time_ns;
	/**
	 * @held_ns: Out: how long the node has been held, in ns (measured
	 * with CLOCK_MONOTONIC); 0 when free.
	 */
	__u64 held_ns;
	/**
	 * @open_counter: Out: successful opens of the compute node since the
	 * driver was loaded (HL_INFO_OPEN_STATS open_counter).
	 */
	__u64 open_counter;
	/** @reserved: In: must be 0; Out: 0. */
	__u64 reserved[4];
};

/**
 * DOC: Extension ioctls
 *
 * DRM_IOCTL_GAUDI_QUERY_CAPS
 *	Fills &struct drm_gaudi_query_caps.  Errors: EINVAL (a flags, pad or
 *	reserved member is not zero), EFAULT.
 * DRM_IOCTL_GAUDI_OWNER
 *	Fills &struct drm_gaudi_owner.  Errors: EINVAL (a flags or reserved
 *	member is not zero), EFAULT.  Answers in every device state, also
 *	while the device is in reset.
 */
#define DRM_IOCTL_GAUDI_QUERY_CAPS					\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GAUDI_QUERY_CAPS,		\
		 struct drm_gaudi_query_caps)
#define DRM_IOCTL_GAUDI_OWNER						\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GAUDI_OWNER, struct drm_gaudi_owner)

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_GAUDI_ACCEL_H__ */
