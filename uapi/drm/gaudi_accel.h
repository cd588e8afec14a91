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
#define GAUDI_ABI_VERSION_MINOR		6

/* Ioctl numbers, relative to DRM_COMMAND_BASE. */
#define DRM_GAUDI_QUERY_CAPS		0x20
#define DRM_GAUDI_OWNER			0x21
#define DRM_GAUDI_FLASH			0x22
#define DRM_GAUDI_ACCOUNTING		0x23
#define DRM_GAUDI_NIC			0x24

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
 * GAUDI_CAP_FLASH
 *	DRM_IOCTL_GAUDI_FLASH is served, on both nodes: the card's SPI flash
 *	with two boot slots, updated through the device CPU (ABI 1.1).
 * GAUDI_CAP_NIC
 *	DRM_IOCTL_GAUDI_NIC is served on the compute node (DOC: NIC).
 * GAUDI_CAP_ACCOUNTING
 *	DRM_IOCTL_GAUDI_ACCOUNTING is served, on both nodes (ABI 1.2); from
 *	ABI 1.5 its records carry the holder's cgroup
 *	(GAUDI_ACCT_RECORD_SIZE_V2).
 * GAUDI_CAP_NIC_MR
 *	The NIC ioctl has memory regions (GAUDI_NIC_OP_REG_MR, DEREG_MR), a
 *	remote peer's RDMA WRITE lands only inside a region of its
 *	connection, and the requester context takes a path MTU and an RNR
 *	retry count (ABI 1.6, DOC: NIC).
 */
#define GAUDI_CAP_OWNER			_BITULL(0)
#define GAUDI_CAP_SYNC_RELEASE		_BITULL(1)
#define GAUDI_CAP_OPEN_BUSY_OWNER	_BITULL(2)
#define GAUDI_CAP_FLASH			_BITULL(3)
#define GAUDI_CAP_ACCOUNTING		_BITULL(4)
#define GAUDI_CAP_NIC			_BITULL(5)
#define GAUDI_CAP_NIC_MR		_BITULL(6)

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
 * DOC: Flash
 *
 * The card's 64 MiB SPI flash holds the preboot firmware in two boot slots
 * and a small record, kept by the device CPU, that names the active slot
 * (Documentation/firmware/flash.rst).  The host never writes the flash
 * itself: DRM_IOCTL_GAUDI_FLASH asks the device CPU to read, erase and
 * program ranges of a slot and finally to activate a slot, which it does
 * only after checking the image in it.  An update writes the inactive
 * slot, reads it back and activates it last, so an update interrupted at
 * any point leaves the card booting the previous image.  The new preboot
 * runs from the next reset of the card.
 *
 * Ops (&drm_gaudi_flash.op):
 *
 * GAUDI_FLASH_OP_INFO
 *	Writes &struct drm_gaudi_flash_info (at most @size bytes) to @data.
 *	Any user.
 * GAUDI_FLASH_OP_READ
 *	Copies flash [@offset, @offset + @size) to @data; @size at most
 *	GAUDI_FLASH_XFER_MAX.  CAP_SYS_ADMIN.
 * GAUDI_FLASH_OP_ERASE
 *	Erases [@offset, @offset + @size) to 0xFF: whole erase sectors of one
 *	slot.  CAP_SYS_ADMIN; EBUSY while the compute node is held unless
 *	GAUDI_FLASH_FORCE.
 * GAUDI_FLASH_OP_WRITE
 *	Programs @size bytes (at most GAUDI_FLASH_XFER_MAX) from @data at
 *	@offset, inside one slot.  Programming only clears bits: the range
 *	must have been erased (else EIO, status NOT_ERASED).  CAP_SYS_ADMIN,
 *	EBUSY as ERASE.
 * GAUDI_FLASH_OP_ACTIVATE
 *	Makes slot @offset active for the next reset if it holds a valid
 *	boot-fit image whose first @size bytes have CRC-32 @crc (IEEE 802.3,
 *	as zlib's crc32()).  Out: @result the new record's sequence number.
 *	ENOEXEC (status BAD_IMAGE, @detail the device's reason) or EBADMSG
 *	(status CRC) when refused.  CAP_SYS_ADMIN, EBUSY as ERASE.
 */

/* &drm_gaudi_flash.op */
#define GAUDI_FLASH_OP_INFO		0
#define GAUDI_FLASH_OP_READ		1
#define GAUDI_FLASH_OP_ERASE		2
#define GAUDI_FLASH_OP_WRITE		3
#define GAUDI_FLASH_OP_ACTIVATE		4

/* &drm_gaudi_flash.flags */
#define GAUDI_FLASH_FORCE		_BITUL(0)

/* &drm_gaudi_flash.status: the device CPU's answer */
#define GAUDI_FLASH_STATUS_OK		0
#define GAUDI_FLASH_STATUS_NOT_ERASED	1
#define GAUDI_FLASH_STATUS_BAD_IMAGE	2
#define GAUDI_FLASH_STATUS_CRC		3

#define GAUDI_FLASH_XFER_MAX		0x100000U	/* 1 MiB */
#define GAUDI_FLASH_NO_SLOT		0xFFFFFFFFU
#define GAUDI_FLASH_NR_SLOTS		2
#define GAUDI_FLASH_VER_LEN		128

/**
 * struct drm_gaudi_flash_info - flash layout and boot slots
 *
 * All members are Out.  Slots are 0 and 1; GAUDI_FLASH_NO_SLOT means none.
 */
struct drm_gaudi_flash_info {
	/** @version: Out: layout of this struct, 1. */
	__u32 version;
	/** @flash_size: Out: bytes of the flash window. */
	__u32 flash_size;
	/** @erase_size: Out: erase sector size in bytes. */
	__u32 erase_size;
	/** @nr_slots: Out: boot slots, 2. */
	__u32 nr_slots;
	/** @slot_offset: Out: flash offset of each slot. */
	__u32 slot_offset[GAUDI_FLASH_NR_SLOTS];
	/** @slot_size: Out: bytes of each slot. */
	__u32 slot_size;
	/** @record_offset: Out: flash offsets of the two record copies. */
	__u32 record_offset[2];
	/** @record_seq: Out: sequence of the newest valid record; 0: none. */
	__u32 record_seq;
	/** @record_active: Out: the slot that record names. */
	__u32 record_active;
	/** @boot_slot: Out: slot the running preboot came from. */
	__u32 boot_slot;
	/** @next_slot: Out: slot the next reset boots, as the flash is now. */
	__u32 next_slot;
	/**
	 * @slot_state: Out: 0 when the slot holds a valid boot-fit, else the
	 * reason (Documentation/firmware/format.rst: 1 bad magic, 2
	 * truncated, 3 malformed, 4 missing node, 5 hash mismatch, 6 bad hash,
	 * 7 wrong target, 8 wrong kind).
	 */
	__u32 slot_state[GAUDI_FLASH_NR_SLOTS];
	/** @slot_image_size: Out: bytes of each valid slot's image. */
	__u32 slot_image_size[GAUDI_FLASH_NR_SLOTS];
	/** @reserved: Out: 0. */
	__u32 reserved[15];
	/** @boot_version: Out: the running preboot version string. */
	char boot_version[GAUDI_FLASH_VER_LEN];
	/** @slot_version: Out: each valid slot's preboot version string. */
	char slot_version[GAUDI_FLASH_NR_SLOTS][GAUDI_FLASH_VER_LEN];
};

/**
 * struct drm_gaudi_flash - one flash operation
 *
 * Served on the compute and the control node.  See DOC: Flash.
 */
struct drm_gaudi_flash {
	/** @op: In: GAUDI_FLASH_OP_*. */
	__u32 op;
	/** @flags: In: GAUDI_FLASH_FORCE or 0; other bits must be 0. */
	__u32 flags;
	/** @data: In: user pointer: READ and INFO destination, WRITE source. */
	__u64 data;
	/** @offset: In: flash offset; ACTIVATE: the slot. */
	__u32 offset;
	/** @size: In: bytes (INFO: of the buffer; ACTIVATE: of the image). */
	__u32 size;
	/** @crc: In: ACTIVATE: CRC-32 of the image's @size bytes. */
	__u32 crc;
	/** @status: Out: GAUDI_FLASH_STATUS_* of the device CPU. */
	__u32 status;
	/** @detail: Out: BAD_IMAGE: why the device refused the image. */
	__u32 detail;
	/** @pad: In: must be 0. */
	__u32 pad;
	/**
	 * @result: Out: READ, WRITE, ERASE: bytes done (also when
	 * interrupted); INFO: bytes written; ACTIVATE: record sequence.
	 */
	__u64 result;
	/** @reserved: In: must be 0; Out: 0. */
	__u64 reserved[4];
};

/**
 * DOC: Accounting
 *
 * The driver keeps one accounting record per holding of the compute node:
 * from the open that made a process the holder to its close.  The record of
 * the current holder is updated as it runs; when it closes, the record is
 * kept with the records of earlier holders, at most ``acct_records`` of
 * them (a module parameter, default 64), the oldest dropped first.
 * DRM_IOCTL_GAUDI_ACCOUNTING copies them out, oldest first, the running
 * one last.  Records live as long as the driver is bound to the card.
 *
 * What is counted:
 *
 * - Engine time per class (&drm_gaudi_acct_record.busy_ns), as fdinfo's
 *   ``drm-engine-<class>`` keys: the time in which at least one command
 *   submission of the holder with a job on an engine of that class was on
 *   the hardware (pushed to its queue, not yet completed).  Overlapping
 *   submissions count once; a class is one engine whatever the number of
 *   its engines that run.
 * - Peak memory: the most HBM allocated with HL_MEM_OP_ALLOC at any time,
 *   and the most host memory pinned for the device at any time (user
 *   pages mapped with HL_MEM_OP_MAP_USERPTR plus the driver's command
 *   buffers), as fdinfo's ``drm-total-vram`` and ``drm-total-host``.
 * - Energy: the difference of the card's energy counter (the device CPU's
 *   TOTAL_ENERGY_GET, in microjoules) between the open and the close, or
 *   now for the running holder.  One process holds a card at a time, so
 *   this is all the energy the card used while the process held it,
 *   idle power included.  GAUDI_ACCT_ENERGY is clear when the counter could
 *   not be read at both ends (the device was not operational or in reset).
 * - The holder's cgroup (ABI 1.5): the cgroup v2 path of the process that
 *   opened the node, taken at the open (a pod, a systemd unit, a batch
 *   job), as /proc/<pid>/cgroup shows it to the caller: relative to the
 *   caller's cgroup namespace.
 */

/* &drm_gaudi_acct_record.flags */
#define GAUDI_ACCT_RUNNING		_BITUL(0)
#define GAUDI_ACCT_ENERGY		_BITUL(1)
#define GAUDI_ACCT_RESET		_BITUL(2)
#define GAUDI_ACCT_CGROUP_TRUNC		_BITUL(3)

/* Bytes of &drm_gaudi_acct_record.cgroup, the NUL included. */
#define GAUDI_ACCT_CGROUP_LEN		512

/* Index of &drm_gaudi_acct_record.busy_ns: the fdinfo engine classes. */
#define GAUDI_ENGINE_CLASS_DMA		0
#define GAUDI_ENGINE_CLASS_MME		1
#define GAUDI_ENGINE_CLASS_TPC		2
#define GAUDI_ENGINE_CLASS_NIC		3
#define GAUDI_ENGINE_CLASS_SLOTS	8

/**
 * struct drm_gaudi_acct_record - one holding of the compute node
 *
 * All members are Out.
 */
struct drm_gaudi_acct_record {
	/**
	 * @id: Out: the holding's number, the open counter after its open
	 * (&drm_gaudi_owner.open_counter): unique per card while the driver
	 * is bound, so a tool that polls sees each holding once.
	 */
	__u64 id;
	/**
	 * @pid: Out: process id of the holder in the caller's pid namespace;
	 * 0 when it is not visible from there.
	 */
	__s32 pid;
	/** @uid: Out: user id of the holder in the caller's user namespace. */
	__u32 uid;
	/** @comm: Out: command name of the holder at open, NUL-terminated. */
	__u8 comm[GAUDI_OWNER_COMM_LEN];
	/**
	 * @flags: Out: GAUDI_ACCT_RUNNING (the holder still holds the node),
	 * GAUDI_ACCT_ENERGY (@energy_uj is valid), GAUDI_ACCT_RESET (the card
	 * was reset while held), GAUDI_ACCT_CGROUP_TRUNC (@cgroup is cut).
	 */
	__u32 flags;
	/** @pad: Out: 0. */
	__u32 pad;
	/** @start_time_ns: Out: CLOCK_REALTIME of the open, in ns. */
	__u64 start_time_ns;
	/**
	 * @wall_ns: Out: how long the node was held (so far, when running),
	 * measured with CLOCK_MONOTONIC.
	 */
	__u64 wall_ns;
	/**
	 * @busy_ns: Out: engine time per class (GAUDI_ENGINE_CLASS_*), in
	 * ns; classes the driver does not count read 0.
	 */
	__u64 busy_ns[GAUDI_ENGINE_CLASS_SLOTS];
	/** @cs_submitted: Out: command submissions accepted by HL_CS. */
	__u64 cs_submitted;
	/** @peak_hbm_bytes: Out: most HBM allocated at one time. */
	__u64 peak_hbm_bytes;
	/** @peak_host_bytes: Out: most host memory pinned at one time. */
	__u64 peak_host_bytes;
	/** @energy_uj: Out: energy of the card while held, in uJ. */
	__u64 energy_uj;
	/** @reserved: Out: 0. */
	__u64 reserved[4];
	/* GAUDI_ACCT_RECORD_SIZE_V1 ends here (ABI 1.2 to 1.4). */
	/**
	 * @cgroup: Out: the holder's cgroup v2 path at open, NUL-terminated,
	 * relative to the caller's cgroup namespace (as /proc/<pid>/cgroup:
	 * "/" the root, "/../x" outside the caller's namespace); cut with
	 * GAUDI_ACCT_CGROUP_TRUNC when longer; empty when unknown.
	 */
	char cgroup[GAUDI_ACCT_CGROUP_LEN];
};

#define GAUDI_ACCT_RECORD_SIZE_V1	184
#define GAUDI_ACCT_RECORD_SIZE_V2	696

/**
 * struct drm_gaudi_accounting - copy out the accounting records
 *
 * Served on the compute and the control node.  See DOC: Accounting.
 */
struct drm_gaudi_accounting {
	/**
	 * @records: In: user pointer to room for @count records of
	 * @record_size bytes each; may be 0 when @count is 0.
	 */
	__u64 records;
	/** @count: In: room, in records; Out: records written. */
	__u32 count;
	/**
	 * @record_size: In: the size of one record as the caller knows it,
	 * at least GAUDI_ACCT_RECORD_SIZE_V1, a multiple of 8, at most 4096:
	 * the stride of the array.  The driver writes the first
	 * min(@record_size, its own) bytes of each record and zeroes the
	 * rest.  Out: the driver's record size.
	 */
	__u32 record_size;
	/** @available: Out: records the driver has now, running included. */
	__u32 available;
	/** @max_kept: Out: records of exited holders kept at most. */
	__u32 max_kept;
	/** @flags: In: must be 0. */
	__u32 flags;
	/** @pad: In: must be 0. */
	__u32 pad;
	/** @reserved: In: must be 0; Out: 0. */
	__u64 reserved[4];
};

/**
 * DOC: NIC
 *
 * DRM_IOCTL_GAUDI_NIC controls RoCE v2 connections (queue pairs) of the
 * card's NIC ports for the holder of the compute node.  The argument,
 * &struct drm_gaudi_nic, has the members of Habana's out-of-tree
 * hl_nic_args in its order (input_ptr, output_ptr, input_size,
 * output_size, ctx_id, op) followed by our conventions' flags, pad and
 * reserved.  @op selects the operation; its input struct is read from
 * @input_ptr (@input_size bytes: a shorter struct is zero-extended, bytes
 * beyond the driver's struct must be zero, at most 4096), its output struct
 * is written to @output_ptr (@output_size must hold it; only the struct's
 * size is written).  Ops 0..13 carry Habana's Gaudi 1 numbers; 0x40 on are
 * ours.
 *
 * A connection is a QP number (GAUDI_NIC_FIRST_CONN..GAUDI_NIC_MAX_CONN -
 * 1; QP 0 of every port is the Ethernet driver's raw queue, and QP 1 is
 * left unused: RoCE v2 peers and analyzers take traffic to QP 1 for the
 * management datagrams of InfiniBand's general services QP) of one port,
 * owned by the holder.  The send queues and the completion queue are in the holder's
 * own mapped memory (device VAs of HL_MEM_OP_MAP with HL_MEM_USERPTR);
 * the NIC reads and writes them, and the remote buffers of RDMA WRITEs
 * arriving at the holder's connections, through the device MMU with the
 * holder's ASID.  A remote sync object is written as a non-secure write:
 * only the SOBs users may write can be signalled.  Closing the compute
 * node or a reset of the card invalidates every connection and unsets
 * the queues.
 *
 * Memory regions (ABI 1.6, GAUDI_CAP_NIC_MR): a peer's RDMA WRITE with
 * data lands only inside a region the holder registered on the
 * connection it arrives on (REG_MR), with remote-write access, named by
 * the region's key in the packet's RETH; anything else is a remote access
 * error NAK, the responder goes to error, nothing is written.  The send
 * queues and the CQ are in no region unless registered.  A region is a
 * range of one of the holder's host mappings (HL_MEM_USERPTR), which
 * cannot be unmapped while the region lives (UNMAP: EBUSY); it ends with
 * DEREG_MR, its connection (DESTROY_CONN), the holder's close, a reset or
 * the removal of the card.  Keys are unpredictable (random, 32 bits; the
 * low 10 bits name the region's slot) and a key is not given again on
 * the same connection while it lives.  Before ABI 1.6 the responder's
 * @local_key alone admitted a write anywhere in the holder's memory; from
 * 1.6 @local_key is not used (a holder that registers no region admits no
 * remote data).
 *
 * GAUDI_NIC_OP_ALLOC_CONN (0)
 *	In &struct drm_gaudi_nic_port; out &struct drm_gaudi_nic_conn_id.
 *	Reserves the lowest free QP number of the port.
 * GAUDI_NIC_OP_SET_REQ_CONN_CTX (1)
 *	In &struct drm_gaudi_nic_req_ctx.  Writes the connection's
 *	requester context (valid, RC); needs USER_WQ_SET on the port and
 *	@conn_id below its @num_wqs.  Also brings a requester in error back.
 * GAUDI_NIC_OP_SET_RES_CONN_CTX (2)
 *	In &struct drm_gaudi_nic_res_ctx: the responder context.
 * GAUDI_NIC_OP_DESTROY_CONN (3)
 *	In &struct drm_gaudi_nic_conn: both contexts invalidated, the number
 *	freed.
 * GAUDI_NIC_OP_USER_WQ_SET (9), GAUDI_NIC_OP_USER_WQ_UNSET (10)
 *	In &struct drm_gaudi_nic_wq / &struct drm_gaudi_nic_port.  The
 *	port's send queues: connection n's queue of @entries 32-byte WQEs
 *	is at @addr + n * @entries * 32.  UNSET needs no connection with a
 *	requester context.
 * GAUDI_NIC_OP_USER_CQ_SET (11), GAUDI_NIC_OP_USER_CQ_UNSET (12)
 *	In &struct drm_gaudi_nic_cq / &struct drm_gaudi_nic_port.  The
 *	port's completion queue of @entries 8-byte CQEs (at most
 *	GAUDI_NIC_CQ_MAX_ENTRIES).
 * GAUDI_NIC_OP_USER_CQ_UPDATE_CI (13)
 *	In &struct drm_gaudi_nic_cq_ci; out &struct drm_gaudi_nic_cq_pi.
 *	The holder has consumed the CQEs before @ci; the output is the
 *	number of CQEs the port has written so far.
 * GAUDI_NIC_OP_GET_USER_APP_PARAMS (16, ABI 1.4)
 *	In &struct drm_gaudi_nic_port (Habana's input is the port alone:
 *	a 4-byte input is accepted); out &struct drm_gaudi_nic_app_params:
 *	the port's limits and what is allocated on it.  The op that sets
 *	them (15) is not served: Gaudi 1 has nothing a user may set there
 *	(Habana's driver only records the "advanced" bit, which this driver
 *	reports as 0).
 * GAUDI_NIC_OP_DOORBELL (0x40)
 *	In &struct drm_gaudi_nic_doorbell: the requester runs the WQEs from
 *	its consumer index up to (not including) @pi.  User engines cannot
 *	reach the NIC's doorbells, so the kernel rings them.
 * GAUDI_NIC_OP_LINK_STATE (0x41)
 *	No input; out &struct drm_gaudi_nic_link.
 * GAUDI_NIC_OP_COUNTERS (0x42)
 *	In &struct drm_gaudi_nic_port; out &struct drm_gaudi_nic_counters:
 *	the port's MAC counters (all traffic of the port, RoCE and
 *	Ethernet) and its RoCE engine's counters.  The one op whose output
 *	may be shorter than its struct: @output_size must hold at least
 *	GAUDI_NIC_COUNTERS_SIZE_V1 (96, the MAC part, all a driver before
 *	the RoCE part writes); the driver writes min(@output_size, the
 *	struct's size) bytes.  A caller that wants the RoCE part passes the
 *	whole struct zeroed and finds GAUDI_NIC_COUNTERS_ROCE in
 *	&drm_gaudi_nic_counters.roce_flags when it was written.
 * GAUDI_NIC_OP_REG_MR (0x44, ABI 1.6)
 *	In &struct drm_gaudi_nic_mr; out &struct drm_gaudi_nic_mr_key.  A
 *	region of @length bytes at @addr for the peer of connection
 *	@conn_id, at most GAUDI_NIC_MAX_MR per port.
 * GAUDI_NIC_OP_DEREG_MR (0x45, ABI 1.6)
 *	In &struct drm_gaudi_nic_mr_dereg: the region of @key on @port ends
 *	(a packet of the peer that follows is refused, also in the middle of
 *	a message).
 * GAUDI_NIC_OP_CONN_STATE (0x43)
 *	In &struct drm_gaudi_nic_conn; out &struct drm_gaudi_nic_conn_state.
 *	How a holder learns of a QP error (a bad remote key, a refused sync
 *	object, retries exhausted): its requester's completions stop coming,
 *	HL_NOTIFIER_EVENT_USER_ENGINE_ERR is posted (HL_INFO_GET_EVENTS, the
 *	eventfd) when the port's QP error event arrives, and the state says
 *	error.  SET_REQ_CONN_CTX restarts the requester.
 *
 * Completion queue entries (8 bytes, little endian): bit 63 valid; a
 * requester CQE (bit 23 set) has the WQE index in bits 21:0 and the QP in
 * bits 55:32 and is written once the remote side acknowledged the WQE's
 * last packet; a responder CQE (bit 23 clear) has the QP in bits 22:0 and
 * the immediate data's low 31 bits in bits 62:32.  Send WQE: see
 * Documentation/accel/gaudi-uapi.rst.
 *
 * Errors: EINVAL (unknown op, ctx_id, flags, pad or reserved not zero, a
 * port outside the enabled ports, an unknown or foreign connection, QP 0
 * or 1,
 * a size not a power of 2 or out of bounds, an address not inside the
 * caller's mappings or badly aligned, a PI beyond the queue, an output
 * too small, a region outside the caller's host mappings or with no
 * access), EBUSY (queue already set, in use), ENOSPC (no free QP or
 * region slot), ENOENT (DEREG_MR of a key that is no region of the caller),
 * EFAULT, ETIMEDOUT (context gateway), EIO (device not operational),
 * ENODEV, ENOTTY on the control node.
 */
#define GAUDI_NIC_OP_ALLOC_CONN		0
#define GAUDI_NIC_OP_SET_REQ_CONN_CTX	1
#define GAUDI_NIC_OP_SET_RES_CONN_CTX	2
#define GAUDI_NIC_OP_DESTROY_CONN	3
#define GAUDI_NIC_OP_USER_WQ_SET	9
#define GAUDI_NIC_OP_USER_WQ_UNSET	10
#define GAUDI_NIC_OP_USER_CQ_SET	11
#define GAUDI_NIC_OP_USER_CQ_UNSET	12
#define GAUDI_NIC_OP_USER_CQ_UPDATE_CI	13
#define GAUDI_NIC_OP_GET_USER_APP_PARAMS	16
#define GAUDI_NIC_OP_DOORBELL		0x40
#define GAUDI_NIC_OP_LINK_STATE		0x41
#define GAUDI_NIC_OP_COUNTERS		0x42
#define GAUDI_NIC_OP_CONN_STATE		0x43
#define GAUDI_NIC_OP_REG_MR		0x44
#define GAUDI_NIC_OP_DEREG_MR		0x45

/* Ports of a card. */
#define GAUDI_NIC_PORTS			10
/* QP numbers per port: connections use FIRST_CONN..MAX_CONN - 1. */
#define GAUDI_NIC_FIRST_CONN		2
#define GAUDI_NIC_MAX_CONN		1024
/* Bounds of the queues (entries, powers of 2). */
#define GAUDI_NIC_WQ_MIN_ENTRIES	4
#define GAUDI_NIC_WQ_MAX_ENTRIES	4096
#define GAUDI_NIC_CQ_MIN_ENTRIES	16
#define GAUDI_NIC_CQ_MAX_ENTRIES	1048576
#define GAUDI_NIC_IO_MAX		4096
/* Memory regions per port (ABI 1.6). */
#define GAUDI_NIC_MAX_MR		1024

/**
 * struct drm_gaudi_nic - one NIC control operation
 */
struct drm_gaudi_nic {
	/** @input_ptr: In: user pointer to the op's input struct. */
	__u64 input_ptr;
	/** @output_ptr: In: user pointer to room for the op's output. */
	__u64 output_ptr;
	/** @input_size: In: bytes at @input_ptr (0 for no input). */
	__u32 input_size;
	/** @output_size: In: bytes of room at @output_ptr. */
	__u32 output_size;
	/** @ctx_id: In: must be 0 (Habana's context id; one per holder). */
	__u32 ctx_id;
	/** @op: In: GAUDI_NIC_OP_*. */
	__u32 op;
	/** @flags: In: must be 0. */
	__u32 flags;
	/** @pad: In: must be 0. */
	__u32 pad;
	/** @reserved: In: must be 0; Out: 0. */
	__u64 reserved[2];
};

/**
 * struct drm_gaudi_nic_port - a port (ALLOC_CONN, *_UNSET)
 */
struct drm_gaudi_nic_port {
	/** @port: In: port number, in the card's nic_ports_mask. */
	__u32 port;
	/** @flags: In: must be 0. */
	__u32 flags;
};

/**
 * struct drm_gaudi_nic_conn_id - ALLOC_CONN's output
 */
struct drm_gaudi_nic_conn_id {
	/** @conn_id: Out: the connection's QP number. */
	__u32 conn_id;
	/** @pad: Out: 0. */
	__u32 pad;
};

/**
 * struct drm_gaudi_nic_conn - a connection (DESTROY_CONN, CONN_STATE)
 */
struct drm_gaudi_nic_conn {
	/** @port: In: port number. */
	__u32 port;
	/** @conn_id: In: QP number from ALLOC_CONN. */
	__u32 conn_id;
};

/**
 * struct drm_gaudi_nic_req_ctx - SET_REQ_CONN_CTX's input
 */
struct drm_gaudi_nic_req_ctx {
	/** @port: In: port number. */
	__u32 port;
	/** @conn_id: In: QP number from ALLOC_CONN. */
	__u32 conn_id;
	/** @dst_ip: In: IPv4 address of the peer, host byte order. */
	__u32 dst_ip;
	/** @src_ip: In: IPv4 address of this port, host byte order. */
	__u32 src_ip;
	/** @dst_mac: In: the peer port's MAC address. */
	__u8 dst_mac[6];
	/** @pad: In: must be 0. */
	__u8 pad[2];
	/** @dst_conn_id: In: the peer's QP number (24 bits). */
	__u32 dst_conn_id;
	/** @remote_key: In: the peer responder's local key. */
	__u32 remote_key;
	/** @psn: In: first packet sequence number (24 bits). */
	__u32 psn;
	/** @timeout_retry: In: retransmissions before error, 0 = 7. */
	__u32 timeout_retry;
	/**
	 * @flags: In: GAUDI_NIC_REQ_RNR_RETRY: @rnr_retry is given (ABI
	 * 1.6); else 0.
	 */
	__u32 flags;
	/** @pad2: In: must be 0. */
	__u32 pad2;
	/**
	 * @path_mtu: In (ABI 1.6): the connection's path MTU in bytes, the
	 * largest payload of one packet either way: 256, 512, 1024, 2048 or
	 * 4096; 0 is 4096.
	 */
	__u32 path_mtu;
	/**
	 * @rnr_retry: In (ABI 1.6, with GAUDI_NIC_REQ_RNR_RETRY): resends
	 * after an RNR NAK before the requester goes to error, 0..6, 7 =
	 * unlimited; without the flag 7.
	 */
	__u32 rnr_retry;
	/** @reserved: In: must be 0. */
	__u64 reserved[1];
};

/* &drm_gaudi_nic_req_ctx.flags */
#define GAUDI_NIC_REQ_RNR_RETRY		_BITUL(0)

/* &drm_gaudi_nic_res_ctx.flags */
#define GAUDI_NIC_RES_SOB_EN		_BITUL(0)

/**
 * struct drm_gaudi_nic_res_ctx - SET_RES_CONN_CTX's input
 */
struct drm_gaudi_nic_res_ctx {
	/** @port: In: port number. */
	__u32 port;
	/** @conn_id: In: QP number from ALLOC_CONN. */
	__u32 conn_id;
	/** @dst_ip: In: IPv4 address of the peer, host byte order. */
	__u32 dst_ip;
	/** @src_ip: In: IPv4 address of this port, host byte order. */
	__u32 src_ip;
	/** @dst_mac: In: the peer port's MAC address. */
	__u8 dst_mac[6];
	/** @pad: In: must be 0. */
	__u8 pad[2];
	/** @dst_conn_id: In: the peer's QP number (24 bits). */
	__u32 dst_conn_id;
	/** @local_key: In: the key requests must carry. */
	__u32 local_key;
	/** @expected_psn: In: the peer requester's first PSN (24 bits). */
	__u32 expected_psn;
	/**
	 * @flags: In: GAUDI_NIC_RES_SOB_EN: a remote sync-object write of
	 * the peer signals the SOB it names on this card, if that is a user
	 * SOB (W_S 144..2047, E_S, W_N, E_N; anything else puts the QP in
	 * error); without the flag it makes a responder CQE.
	 */
	__u32 flags;
	/** @reserved: In: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_gaudi_nic_wq - USER_WQ_SET's input
 */
struct drm_gaudi_nic_wq {
	/** @addr: In: device VA of the send queues, 128-byte aligned. */
	__u64 addr;
	/** @port: In: port number. */
	__u32 port;
	/** @num_wqs: In: queues (connections 0..@num_wqs - 1), at most 1024. */
	__u32 num_wqs;
	/** @entries: In: WQEs per queue, a power of 2, 4..4096. */
	__u32 entries;
	/** @flags: In: must be 0. */
	__u32 flags;
};

/**
 * struct drm_gaudi_nic_cq - USER_CQ_SET's input
 */
struct drm_gaudi_nic_cq {
	/** @addr: In: device VA of the CQ, 128-byte aligned. */
	__u64 addr;
	/** @port: In: port number. */
	__u32 port;
	/** @entries: In: CQEs, a power of 2, 16..2^20. */
	__u32 entries;
	/** @flags: In: must be 0. */
	__u32 flags;
	/** @pad: In: must be 0. */
	__u32 pad;
};

/**
 * struct drm_gaudi_nic_cq_ci - USER_CQ_UPDATE_CI's input
 */
struct drm_gaudi_nic_cq_ci {
	/** @port: In: port number. */
	__u32 port;
	/**
	 * @ci: In: CQEs consumed, counted like the output's @pi (it wraps
	 * at 2^32); at most @pi.
	 */
	__u32 ci;
};

/**
 * struct drm_gaudi_nic_cq_pi - USER_CQ_UPDATE_CI's output
 */
struct drm_gaudi_nic_cq_pi {
	/** @pi: Out: CQEs the port has written since CQ_SET. */
	__u32 pi;
	/** @pad: Out: 0. */
	__u32 pad;
};

/**
 * struct drm_gaudi_nic_doorbell - DOORBELL's input
 */
struct drm_gaudi_nic_doorbell {
	/** @port: In: port number. */
	__u32 port;
	/** @conn_id: In: a connection with a requester context. */
	__u32 conn_id;
	/** @pi: In: producer index, below the queue's entries. */
	__u32 pi;
	/** @flags: In: must be 0. */
	__u32 flags;
};

/* &drm_gaudi_nic_mr.access */
#define GAUDI_NIC_MR_REMOTE_WRITE	_BITUL(0)
#define GAUDI_NIC_MR_REMOTE_READ	_BITUL(1)

/**
 * struct drm_gaudi_nic_mr - REG_MR's input (ABI 1.6)
 */
struct drm_gaudi_nic_mr {
	/** @addr: In: device VA of the region's first byte. */
	__u64 addr;
	/**
	 * @length: In: bytes, at least 1; [@addr, @addr + @length) inside
	 * one of the caller's host mappings.
	 */
	__u64 length;
	/** @port: In: port number. */
	__u32 port;
	/** @conn_id: In: the connection whose peer may reach the region. */
	__u32 conn_id;
	/**
	 * @access: In: GAUDI_NIC_MR_REMOTE_WRITE and/or
	 * GAUDI_NIC_MR_REMOTE_READ (the peer's RDMA READ); not 0.
	 */
	__u32 access;
	/** @flags: In: must be 0. */
	__u32 flags;
	/** @reserved: In: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_gaudi_nic_mr_key - REG_MR's output
 */
struct drm_gaudi_nic_mr_key {
	/** @key: Out: the region's key (the peer's R_Key). */
	__u32 key;
	/** @pad: Out: 0. */
	__u32 pad;
};

/**
 * struct drm_gaudi_nic_mr_dereg - DEREG_MR's input
 */
struct drm_gaudi_nic_mr_dereg {
	/** @port: In: port number. */
	__u32 port;
	/** @key: In: the key REG_MR returned. */
	__u32 key;
};

/**
 * struct drm_gaudi_nic_link - LINK_STATE's output
 */
struct drm_gaudi_nic_link {
	/** @ports_mask: Out: the enabled ports. */
	__u32 ports_mask;
	/** @ext_ports_mask: Out: the scale-out ports among them. */
	__u32 ext_ports_mask;
	/** @up_mask: Out: the ports with link now. */
	__u32 up_mask;
	/** @pad: Out: 0. */
	__u32 pad;
	/**
	 * @mac: Out: each port's MAC address (bytes 0..5; 6 and 7 are 0),
	 * the source address of its RoCE frames.
	 */
	__u8 mac[GAUDI_NIC_PORTS][8];
};

/**
 * struct drm_gaudi_nic_app_params - GET_USER_APP_PARAMS' output
 *
 * The layout of Habana's output for this op (hl-thunk's
 * hlthunk_nic_user_get_app_params_out), so its users read the same
 * fields; what Gaudi 1 does not have here is 0.
 */
struct drm_gaudi_nic_app_params {
	/** @max_num_of_qps: Out: QP numbers of a port (GAUDI_NIC_MAX_CONN). */
	__u32 max_num_of_qps;
	/**
	 * @num_allocated_qps: Out: QP numbers in use on the port, counting
	 * the two below GAUDI_NIC_FIRST_CONN that are never given out.
	 */
	__u32 num_allocated_qps;
	/** @max_allocated_qp_idx: Out: the highest QP number in use. */
	__u32 max_allocated_qp_idx;
	/** @max_cq_size: Out: bytes of the largest completion queue. */
	__u32 max_cq_size;
	/** @advanced: Out: 0, no advanced features. */
	__u8 advanced;
	/** @max_num_of_cqs: Out: completion queues per port (1). */
	__u8 max_num_of_cqs;
	/** @max_num_of_db_fifos: Out: 0, Gaudi 1 has no doorbell FIFOs. */
	__u8 max_num_of_db_fifos;
	/** @max_num_of_encaps: Out: 0, no encapsulations. */
	__u8 max_num_of_encaps;
	/** @speed: Out: the port's speed in Mb/s (100000). */
	__u32 speed;
	/** @max_num_of_coll_qps: Out: 0, no collective QPs. */
	__u32 max_num_of_coll_qps;
	/** @coll_qps_offset: Out: 0. */
	__u32 coll_qps_offset;
	/** @base_coll_qp_idx: Out: 0. */
	__u32 base_coll_qp_idx;
	/** @base_scale_out_coll_qp_idx: Out: 0. */
	__u32 base_scale_out_coll_qp_idx;
	/** @max_num_of_scale_out_coll_qps: Out: 0. */
	__u32 max_num_of_scale_out_coll_qps;
	/** @pad: Out: 0. */
	__u32 pad;
};

/**
 * struct drm_gaudi_nic_counters - COUNTERS' output
 *
 * The port's MAC statistics since the card's last reset (64-bit
 * counters of the NIC's STAT block), then the counters of the port's RoCE
 * engine since the same reset (the model's register window,
 * Documentation/emulator/nic.rst "RoCE counters"): all RoCE traffic of
 * the port, every holder's and the previous holders'.
 */
struct drm_gaudi_nic_counters {
	/** @rx_octets: Out: octets received. */
	__u64 rx_octets;
	/** @rx_frames: Out: frames received. */
	__u64 rx_frames;
	/** @rx_unicast: Out: unicast frames received. */
	__u64 rx_unicast;
	/** @rx_drops: Out: frames dropped on receive. */
	__u64 rx_drops;
	/** @tx_octets: Out: octets sent. */
	__u64 tx_octets;
	/** @tx_frames: Out: frames sent. */
	__u64 tx_frames;
	/** @tx_unicast: Out: unicast frames sent. */
	__u64 tx_unicast;
	/** @tx_errors: Out: frames that could not be sent (no link). */
	__u64 tx_errors;
	/** @reserved: Out: 0. */
	__u64 reserved[4];
	/* GAUDI_NIC_COUNTERS_SIZE_V1 ends here; the RoCE part follows. */
	/**
	 * @roce_flags: Out: GAUDI_NIC_COUNTERS_ROCE when the roce_* members
	 * hold the port's RoCE counters (untouched by a driver without
	 * them).
	 */
	__u32 roce_flags;
	/** @roce_pad: Out: 0. */
	__u32 roce_pad;
	/** @roce_tx_pkts: Out: request packets sent (not counting resends). */
	__u64 roce_tx_pkts;
	/** @roce_rx_pkts: Out: RoCE packets received (requests and ACKs). */
	__u64 roce_rx_pkts;
	/** @roce_retransmits: Out: request packets sent again. */
	__u64 roce_retransmits;
	/** @roce_acks_tx: Out: ACKs sent by the port's responders. */
	__u64 roce_acks_tx;
	/** @roce_naks_tx: Out: NAKs sent by the port's responders. */
	__u64 roce_naks_tx;
	/** @roce_acks_rx: Out: ACKs received by the port's requesters. */
	__u64 roce_acks_rx;
	/** @roce_naks_rx: Out: NAKs received by the port's requesters. */
	__u64 roce_naks_rx;
	/** @roce_icrc_errors: Out: packets dropped for a bad iCRC. */
	__u64 roce_icrc_errors;
	/** @roce_bad_frames: Out: packets dropped as malformed. */
	__u64 roce_bad_frames;
	/** @roce_duplicates: Out: request packets received again. */
	__u64 roce_duplicates;
	/** @roce_timeouts: Out: retransmission timer expirations. */
	__u64 roce_timeouts;
	/** @roce_req_qp_errors: Out: requester QPs put in error. */
	__u64 roce_req_qp_errors;
	/** @roce_res_qp_errors: Out: responder QPs put in error. */
	__u64 roce_res_qp_errors;
	/** @roce_cq_overflows: Out: CQEs lost to a full completion queue. */
	__u64 roce_cq_overflows;
	/** @roce_reserved: Out: 0. */
	__u64 roce_reserved[4];
};

/* Bytes of &struct drm_gaudi_nic_counters before its RoCE part. */
#define GAUDI_NIC_COUNTERS_SIZE_V1	96
/* &drm_gaudi_nic_counters.roce_flags */
#define GAUDI_NIC_COUNTERS_ROCE		_BITUL(0)

/* &drm_gaudi_nic_conn_state.flags */
#define GAUDI_NIC_CONN_REQ_VALID	_BITUL(0)
#define GAUDI_NIC_CONN_RES_VALID	_BITUL(1)
#define GAUDI_NIC_CONN_REQ_ERROR	_BITUL(2)
#define GAUDI_NIC_CONN_RES_ERROR	_BITUL(3)

/**
 * struct drm_gaudi_nic_conn_state - CONN_STATE's output
 */
struct drm_gaudi_nic_conn_state {
	/** @flags: Out: GAUDI_NIC_CONN_*. */
	__u32 flags;
	/** @next_psn: Out: the requester's next PSN to send. */
	__u32 next_psn;
	/** @expected_psn: Out: the responder's next expected PSN. */
	__u32 expected_psn;
	/** @ci: Out: the requester's consumer index. */
	__u32 ci;
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
 * DRM_IOCTL_GAUDI_FLASH
 *	One &struct drm_gaudi_flash operation (DOC: Flash).  Errors: EINVAL
 *	(unknown op or flag, pad or reserved not zero, a size or range the
 *	op does not allow), EPERM (no CAP_SYS_ADMIN), EBUSY (compute node
 *	held, no GAUDI_FLASH_FORCE), EFAULT, EINTR (fatal signal; @result
 *	tells how far it got), EIO (device CPU refused, NOT_ERASED, or the
 *	device is not operational), ENOEXEC, EBADMSG, ETIMEDOUT, ENODEV.
 * DRM_IOCTL_GAUDI_ACCOUNTING
 *	Copies the accounting records (DOC: Accounting) to @records: at most
 *	@count, the newest when there are more; @available says how many
 *	there are.  Errors: EINVAL (flags, pad or reserved not zero, a
 *	@record_size out of range), EFAULT, ENOMEM, ENODEV.
 * DRM_IOCTL_GAUDI_NIC
 *	One &struct drm_gaudi_nic operation (DOC: NIC), compute node only.
 */
#define DRM_IOCTL_GAUDI_QUERY_CAPS					\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GAUDI_QUERY_CAPS,		\
		 struct drm_gaudi_query_caps)
#define DRM_IOCTL_GAUDI_OWNER						\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GAUDI_OWNER, struct drm_gaudi_owner)
#define DRM_IOCTL_GAUDI_FLASH						\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GAUDI_FLASH, struct drm_gaudi_flash)
#define DRM_IOCTL_GAUDI_ACCOUNTING					\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GAUDI_ACCOUNTING,		\
		 struct drm_gaudi_accounting)
#define DRM_IOCTL_GAUDI_NIC						\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GAUDI_NIC, struct drm_gaudi_nic)

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_GAUDI_ACCEL_H__ */
