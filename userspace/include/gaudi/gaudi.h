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

/* ---- discovery ---------------------------------------------------------- */

/**
 * DOC: Discovery
 *
 * A card is a PCI function 1da3:1000 with its nodes in the ``accel`` class:
 * the compute node ``/dev/accel/accelN`` (one holder at a time) and the
 * control node ``/dev/accel/accel_controlDM`` (any number of readers, also
 * while the compute node is held).  On upstream's driver M and N may
 * differ: the library pairs them by their PCI parent.  Enumeration reads
 * sysfs through libudev and needs no udevd.  Cards are listed by PCI bus id.
 */

struct gaudi_card_list;
struct gaudi_card;

/**
 * gaudi_cards_scan() - list the Gaudi cards of this host
 * @out: receives the list; free it with gaudi_cards_free()
 *
 * A card is listed when a driver bound to it created at least one node.
 * Upstream's control nodes are virtual devices without a PCI parent: each
 * is paired with the card whose module id it reports, which needs read
 * access to it (upstream creates them 0600); unpaired ones are left out.
 *
 * Return: the number of cards (0 or more), or -ENOMEM, or another negative
 * errno from libudev.
 */
int gaudi_cards_scan(struct gaudi_card_list **out);

/**
 * gaudi_cards_free() - free a list of gaudi_cards_scan()
 * @list: the list, or NULL
 */
void gaudi_cards_free(struct gaudi_card_list *list);

/**
 * gaudi_cards_count() - number of cards in a list
 * @list: the list
 *
 * Return: the count.
 */
unsigned int gaudi_cards_count(const struct gaudi_card_list *list);

/**
 * gaudi_cards_get() - one card of a list
 * @list: the list
 * @i: position, 0 .. gaudi_cards_count() - 1 (ascending PCI bus id)
 *
 * Return: the card, valid as long as the list, or NULL when @i is out of
 * range.
 */
const struct gaudi_card *gaudi_cards_get(const struct gaudi_card_list *list,
					 unsigned int i);

/**
 * gaudi_card_pci_bus_id() - PCI address of a card
 * @card: the card
 *
 * Return: "DDDD:BB:DD.F", e.g. "0000:02:00.0".
 */
const char *gaudi_card_pci_bus_id(const struct gaudi_card *card);

/**
 * gaudi_card_accel_index() - N of the compute node /dev/accel/accelN
 * @card: the card
 *
 * Return: N, or -1 when the card has no compute node.
 */
int gaudi_card_accel_index(const struct gaudi_card *card);

/**
 * gaudi_card_control_index() - M of the control node accel_controlDM
 * @card: the card
 *
 * Return: M, or -1 when the card has no control node.
 */
int gaudi_card_control_index(const struct gaudi_card *card);

/**
 * gaudi_card_compute_node() - path of the compute node
 * @card: the card
 *
 * Return: e.g. "/dev/accel/accel0", or NULL when there is none.
 */
const char *gaudi_card_compute_node(const struct gaudi_card *card);

/**
 * gaudi_card_control_node() - path of the control node
 * @card: the card
 *
 * Return: e.g. "/dev/accel/accel_controlD0", or NULL when there is none.
 */
const char *gaudi_card_control_node(const struct gaudi_card *card);

/**
 * gaudi_card_driver() - name of the kernel driver bound to the card
 * @card: the card
 *
 * Return: "gaudi", "habanalabs", or "" when unknown.
 */
const char *gaudi_card_driver(const struct gaudi_card *card);

/**
 * gaudi_card_module_id() - module id (slot on the DL1 baseboard)
 * @card: the card
 *
 * Read from the PCI device's ``module_id`` sysfs attribute.
 *
 * Return: 0..7, or -1 when the driver does not export it.
 */
int gaudi_card_module_id(const struct gaudi_card *card);

/**
 * gaudi_card_syspath() - sysfs path of the card's PCI function
 * @card: the card
 *
 * Return: e.g. "/sys/devices/pci0000:00/0000:00:10.0/0000:01:00.0".
 */
const char *gaudi_card_syspath(const struct gaudi_card *card);

/* ---- kernel driver ------------------------------------------------------ */

/**
 * gaudi_driver_loaded() - whether a kernel module is loaded
 * @module: module name, e.g. "gaudi" or "habanalabs"
 *
 * Read from /sys/module.  Loading one is not the library's job (modprobe,
 * or the installer's modprobe.d and udev rules).
 *
 * Return: 1 loaded (live or coming), 0 not loaded, or a negative errno.
 */
int gaudi_driver_loaded(const char *module);

/**
 * gaudi_check_driver() - why no card can be opened
 *
 * Return: 0 when at least one card has a node; otherwise -ENODEV when this
 * host has no Gaudi PCI function, -ENOPKG when it has some but neither
 * gaudi nor habanalabs is loaded, -ENXIO when a driver is loaded but no
 * card has a node (probe failed or still running).
 */
int gaudi_check_driver(void);

/* ---- devices ------------------------------------------------------------ */

struct gaudi_dev;

/* Flags of the gaudi_open*() functions. */
/* Open the control node (read-only monitoring) instead of the compute node. */
#define GAUDI_OPEN_CONTROL	(1U << 0)

/**
 * enum gaudi_driver_kind - which kernel driver serves a device
 * @GAUDI_DRIVER_UNKNOWN: neither of the two below
 * @GAUDI_DRIVER_GAUDI: gaudi.ko, this project's driver
 * @GAUDI_DRIVER_HABANALABS: upstream's habanalabs.ko
 */
enum gaudi_driver_kind {
	GAUDI_DRIVER_UNKNOWN = 0,
	GAUDI_DRIVER_GAUDI = 1,
	GAUDI_DRIVER_HABANALABS = 2,
};

/**
 * gaudi_open() - open a card by the index of its compute node
 * @index: N of /dev/accel/accelN
 * @flags: 0 or GAUDI_OPEN_CONTROL (then the control node of the same card
 *	is opened, whatever its own number)
 * @out: receives the device; close it with gaudi_close()
 *
 * The compute node has one holder at a time.
 *
 * Return: 0; -ENOENT no such card (or -ENODEV, -ENOPKG, -ENXIO as
 * gaudi_check_driver() says when no card is present at all); -EBUSY the
 * compute node is held by another process (see gaudi_owner()); -EAGAIN the
 * device is in reset or the previous holder's release is still running;
 * -EACCES; -EINVAL bad flags; -ENOMEM.
 */
int gaudi_open(unsigned int index, unsigned int flags, struct gaudi_dev **out);

/**
 * gaudi_open_pci() - open a card by PCI bus id
 * @bus_id: "DDDD:BB:DD.F" or "BB:DD.F" (domain 0), case-insensitive
 * @flags: as for gaudi_open()
 * @out: receives the device
 *
 * Return: as gaudi_open(); -EINVAL for a malformed @bus_id.
 */
int gaudi_open_pci(const char *bus_id, unsigned int flags,
		   struct gaudi_dev **out);

/**
 * gaudi_open_module() - open a card by module id
 * @module_id: 0..7, the card's position on the DL1 baseboard
 * @flags: as for gaudi_open()
 * @out: receives the device
 *
 * Return: as gaudi_open().
 */
int gaudi_open_module(unsigned int module_id, unsigned int flags,
		      struct gaudi_dev **out);

/**
 * gaudi_open_card() - open a card of a gaudi_cards_scan() list
 * @card: the card
 * @flags: as for gaudi_open()
 * @out: receives the device
 *
 * Return: as gaudi_open(); -ENOENT when the card lacks the wanted node.
 */
int gaudi_open_card(const struct gaudi_card *card, unsigned int flags,
		    struct gaudi_dev **out);

/**
 * gaudi_close() - close a device
 * @dev: the device, or NULL
 *
 * CBs and mappings of @dev must have been destroyed before.
 */
void gaudi_close(struct gaudi_dev *dev);

/**
 * gaudi_fd() - file descriptor of an open device
 * @dev: the device
 *
 * For poll() on nothing in particular, fstat() or ioctls the library does
 * not wrap.  Do not close it.
 *
 * Return: the descriptor.
 */
int gaudi_fd(const struct gaudi_dev *dev);

/**
 * gaudi_is_control() - whether @dev is a control node
 * @dev: the device
 *
 * Return: true for a control node (only info, caps and owner work there).
 */
bool gaudi_is_control(const struct gaudi_dev *dev);

/**
 * gaudi_driver() - which driver serves @dev
 * @dev: the device
 *
 * Told by drmGetVersion() on a compute node and by sysfs on a control
 * node.
 *
 * Return: an &enum gaudi_driver_kind.
 */
enum gaudi_driver_kind gaudi_driver(const struct gaudi_dev *dev);

/**
 * gaudi_driver_name() - name of the driver serving @dev
 * @dev: the device
 *
 * Return: "gaudi", "habanalabs" or whatever the kernel reported; "" when
 * unknown.
 */
const char *gaudi_driver_name(const struct gaudi_dev *dev);

/**
 * gaudi_pci_bus_id() - PCI address of the card behind @dev
 * @dev: the device
 *
 * Return: "DDDD:BB:DD.F", or "" when unknown.
 */
const char *gaudi_pci_bus_id(const struct gaudi_dev *dev);

/* ---- capabilities and owner (gaudi.ko extensions) ----------------------- */

/* Bits of &gaudi_caps.caps (values of uapi GAUDI_CAP_*). */
#define GAUDI_CAPS_OWNER		(1ULL << 0)
#define GAUDI_CAPS_SYNC_RELEASE		(1ULL << 1)
#define GAUDI_CAPS_OPEN_BUSY_OWNER	(1ULL << 2)

/**
 * struct gaudi_caps - ABI version and extensions of the driver
 * @abi_major: ABI major version (gaudi.ko); 0 on upstream's driver
 * @abi_minor: ABI minor version
 * @caps: GAUDI_CAPS_* bits
 * @info_ops: bit N set when INFO op N is served on the node
 */
struct gaudi_caps {
	uint32_t abi_major;
	uint32_t abi_minor;
	uint64_t caps;
	uint64_t info_ops;
};

/**
 * gaudi_query_caps() - capabilities of the driver
 * @dev: the device (either node)
 * @caps: receives them
 *
 * The answer is read at open and cached.
 *
 * Return: 0; -EOPNOTSUPP when the driver has no capability query
 * (upstream's habanalabs).
 */
int gaudi_query_caps(struct gaudi_dev *dev, struct gaudi_caps *caps);

/* &gaudi_owner.state */
#define GAUDI_OWNER_STATE_FREE	0
#define GAUDI_OWNER_STATE_HELD	1

/**
 * struct gaudi_owner - who holds the compute node
 * @state: GAUDI_OWNER_STATE_FREE or GAUDI_OWNER_STATE_HELD
 * @pid: holder's process id in the caller's pid namespace (0: not visible)
 * @uid: holder's user id
 * @comm: holder's command name, NUL-terminated
 * @open_time_ns: CLOCK_REALTIME of the holder's open
 * @held_ns: how long the node has been held
 * @open_counter: successful opens since the driver was loaded
 */
struct gaudi_owner {
	uint32_t state;
	int32_t pid;
	uint32_t uid;
	char comm[16];
	uint64_t open_time_ns;
	uint64_t held_ns;
	uint64_t open_counter;
};

/**
 * gaudi_owner() - ask the driver who holds the compute node
 * @dev: the device (either node; the control node is the usual one)
 * @owner: receives the answer
 *
 * Return: 0; -EOPNOTSUPP when the driver lacks GAUDI_CAPS_OWNER.
 */
int gaudi_owner(struct gaudi_dev *dev, struct gaudi_owner *owner);

/* ---- INFO --------------------------------------------------------------- */

/**
 * gaudi_info() - raw DRM_IOCTL_HL_INFO
 * @dev: the device
 * @op: HL_INFO_* op
 * @arg: the op's argument word (dcore_id, pll_index, period_ms, ...)
 * @buf: answer buffer
 * @size: its size in bytes
 *
 * For ops without a typed wrapper.  The driver writes at most @size bytes.
 *
 * Return: 0 or the driver's negative errno.
 */
int gaudi_info(struct gaudi_dev *dev, uint32_t op, uint32_t arg, void *buf,
	       uint32_t size);

/**
 * gaudi_info_hw_ip() - HL_INFO_HW_IP_INFO
 * @dev: the device
 * @out: receives the answer (SRAM/HBM user ranges, versions, module id...)
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_hw_ip(struct gaudi_dev *dev, struct hl_info_hw_ip_info *out);

/**
 * gaudi_info_device_status() - HL_INFO_DEVICE_STATUS
 * @dev: the device
 * @status: receives an enum hl_device_status value
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_device_status(struct gaudi_dev *dev, uint32_t *status);

/**
 * gaudi_info_dram_usage() - HL_INFO_DRAM_USAGE
 * @dev: the device
 * @out: receives free HBM and this context's usage
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_dram_usage(struct gaudi_dev *dev,
			  struct hl_info_dram_usage *out);

/**
 * gaudi_info_hw_idle() - HL_INFO_HW_IDLE
 * @dev: the device
 * @out: receives is_idle and the busy engine mask
 *
 * Return: 0 or a negative errno (-EBUSY while the device is in reset).
 */
int gaudi_info_hw_idle(struct gaudi_dev *dev, struct hl_info_hw_idle *out);

/**
 * gaudi_info_utilization() - HL_INFO_DEVICE_UTILIZATION
 * @dev: the device
 * @period_ms: averaging period the driver is asked for (100..1000)
 * @percent: receives the utilization in percent
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_utilization(struct gaudi_dev *dev, uint32_t period_ms,
			   uint32_t *percent);

/**
 * gaudi_info_clk_rate() - HL_INFO_CLK_RATE
 * @dev: the device
 * @cur_mhz: receives the current clock in MHz (may be NULL)
 * @max_mhz: receives the maximum clock in MHz (may be NULL)
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_clk_rate(struct gaudi_dev *dev, uint32_t *cur_mhz,
			uint32_t *max_mhz);

/**
 * gaudi_info_energy() - HL_INFO_TOTAL_ENERGY
 * @dev: the device
 * @energy: receives the energy consumed since power-on (firmware units)
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_energy(struct gaudi_dev *dev, uint64_t *energy);

/**
 * gaudi_info_power() - HL_INFO_POWER
 * @dev: the device
 * @power: receives the input power as the firmware reports it: microwatts
 *         (the hwmon unit) on Gaudi 1
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_power(struct gaudi_dev *dev, uint64_t *power);

/**
 * gaudi_info_pci_counters() - HL_INFO_PCI_COUNTERS
 * @dev: the device
 * @out: receives rx/tx throughput and the replay count
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_pci_counters(struct gaudi_dev *dev,
			    struct hl_info_pci_counters *out);

/**
 * gaudi_info_reset_count() - HL_INFO_RESET_COUNT
 * @dev: the device
 * @hard: receives the hard reset count (may be NULL)
 * @soft: receives the soft reset count (may be NULL)
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_reset_count(struct gaudi_dev *dev, uint32_t *hard,
			   uint32_t *soft);

/**
 * gaudi_info_open_stats() - HL_INFO_OPEN_STATS
 * @dev: the device
 * @out: receives the open counter, last hold time and whether held
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_open_stats(struct gaudi_dev *dev,
			  struct hl_open_stats_info *out);

/**
 * gaudi_info_time_sync() - HL_INFO_TIME_SYNC
 * @dev: the device
 * @out: receives the device timestamp next to the host's
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_time_sync(struct gaudi_dev *dev, struct hl_info_time_sync *out);

/**
 * gaudi_info_cs_counters() - HL_INFO_CS_COUNTERS
 * @dev: the device
 * @out: receives the submission drop counters
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_cs_counters(struct gaudi_dev *dev,
			   struct hl_info_cs_counters *out);

/**
 * gaudi_info_hw_events() - HL_INFO_HW_EVENTS or HW_EVENTS_AGGREGATE
 * @dev: the device
 * @aggregate: false: counts since the last reset; true: since load
 * @counts: receives one u32 counter per event type
 * @n: number of elements of @counts
 *
 * Return: 0 or a negative errno.
 */
int gaudi_info_hw_events(struct gaudi_dev *dev, bool aggregate,
			 uint32_t *counts, uint32_t n);

/* ---- events (eventfd) --------------------------------------------------- */

/**
 * gaudi_events_register() - have the driver signal an eventfd on events
 * @dev: the device (compute node)
 * @efd: an eventfd(2) descriptor
 *
 * The driver posts HL_NOTIFIER_EVENT_* bits and signals @efd; read them
 * with gaudi_events_get().  One eventfd per open device.
 *
 * Return: 0; -EINVAL one is registered already; -EBADF; -EOPNOTSUPP on a
 * control node.
 */
int gaudi_events_register(struct gaudi_dev *dev, int efd);

/**
 * gaudi_events_unregister() - stop signalling the registered eventfd
 * @dev: the device
 *
 * Return: 0; -EINVAL none registered.
 */
int gaudi_events_unregister(struct gaudi_dev *dev);

/**
 * gaudi_events_get() - read and clear the pending event bits
 * @dev: the device
 * @events: receives HL_NOTIFIER_EVENT_* bits posted since the last call
 *
 * Return: 0 or a negative errno.
 */
int gaudi_events_get(struct gaudi_dev *dev, uint64_t *events);

/* ---- command-buffer builder --------------------------------------------- */

/**
 * DOC: Command buffers
 *
 * A &struct gaudi_cmdbuf appends Gaudi 1 QMAN packets, little-endian, to a
 * buffer: either its own heap buffer, which grows up to a limit, or fixed
 * memory (a kernel CB's mapping, or caller memory).  Every append checks
 * its arguments (-EINVAL) and the room left (-ENOSPC) before it writes:
 * a failed append leaves the buffer as it was.
 *
 * Every packet function takes @ctl, the barrier bits of the packet's
 * control word: any of GAUDI_PKT_EB, GAUDI_PKT_RB, GAUDI_PKT_MB (other bits
 * are -EINVAL).  Drivers refuse some packets from users on external queues
 * (WREG_BULK, MSG_PROT, CP_DMA, STOP, scalar LOAD_AND_EXE): the builder
 * encodes them anyway, for internal queues and for tests.
 */

/* Packet control word barrier bits. */
#define GAUDI_PKT_EB	(1U << 29)	/* engine barrier */
#define GAUDI_PKT_RB	(1U << 30)	/* register barrier */
#define GAUDI_PKT_MB	(1U << 31)	/* message barrier */

/* Packet opcodes (control word bits 28:24). */
enum gaudi_pkt_opcode {
	GAUDI_PKT_WREG_32 = 0x1,
	GAUDI_PKT_WREG_BULK = 0x2,
	GAUDI_PKT_MSG_LONG = 0x3,
	GAUDI_PKT_MSG_SHORT = 0x4,
	GAUDI_PKT_CP_DMA = 0x5,
	GAUDI_PKT_REPEAT = 0x6,
	GAUDI_PKT_MSG_PROT = 0x7,
	GAUDI_PKT_FENCE = 0x8,
	GAUDI_PKT_LIN_DMA = 0x9,
	GAUDI_PKT_NOP = 0xA,
	GAUDI_PKT_STOP = 0xB,
	GAUDI_PKT_ARB_POINT = 0xC,
	GAUDI_PKT_WAIT = 0xD,
	GAUDI_PKT_LOAD_AND_EXE = 0xF,
};

/* MSG_LONG / MSG_SHORT / MSG_PROT operation (ctl bits 21:20). */
#define GAUDI_MSG_OP_WRITE	0	/* write the value */
#define GAUDI_MSG_OP_TIMESTAMP	1	/* write a timestamp */

/* LIN_DMA options (ctl bits 2:0); LIN (bit 3) is always set. */
#define GAUDI_LIN_DMA_WRCOMP	(1U << 0)	/* write completion */
#define GAUDI_LIN_DMA_TRANSPOSE	(1U << 1)
#define GAUDI_LIN_DMA_DTYPE	(1U << 2)

/* LOAD_AND_EXE cfg bits. */
#define GAUDI_LOAD_EXE_DST_SCALAR	(1U << 0)
#define GAUDI_LOAD_EXE_LOAD		(1U << 8)
#define GAUDI_LOAD_EXE_EXE		(1U << 9)
#define GAUDI_LOAD_EXE_ETYPE		(1U << 10)

/* Largest device address a LIN_DMA destination can hold (bits 55:0). */
#define GAUDI_LIN_DMA_DST_MAX	((1ULL << 56) - 1)

struct gaudi_cmdbuf;

/**
 * gaudi_cmdbuf_new() - a builder with its own growing buffer
 * @initial: initial capacity in bytes (0: a default)
 * @max: the buffer never grows past this (0: HL_MAX_CB_SIZE)
 * @out: receives the builder; free it with gaudi_cmdbuf_free()
 *
 * Return: 0, -EINVAL (@initial > @max), -ENOMEM.
 */
int gaudi_cmdbuf_new(size_t initial, size_t max, struct gaudi_cmdbuf **out);

/**
 * gaudi_cmdbuf_wrap() - a builder over fixed caller memory
 * @mem: the memory (packets are written from its start)
 * @size: its size in bytes
 * @out: receives the builder; free it with gaudi_cmdbuf_free() (which
 *	leaves @mem alone)
 *
 * Return: 0, -EINVAL (NULL @mem with a non-zero @size), -ENOMEM.
 */
int gaudi_cmdbuf_wrap(void *mem, size_t size, struct gaudi_cmdbuf **out);

/**
 * gaudi_cmdbuf_free() - free a builder
 * @cb: the builder, or NULL; the builder of a CB is freed with its CB
 */
void gaudi_cmdbuf_free(struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_reset() - empty a builder (capacity is kept)
 * @cb: the builder
 */
void gaudi_cmdbuf_reset(struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_len() - bytes of packets in a builder
 * @cb: the builder
 *
 * Return: the length.
 */
size_t gaudi_cmdbuf_len(const struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_room() - bytes that can still be appended
 * @cb: the builder
 *
 * Return: for a growing builder, up to its maximum.
 */
size_t gaudi_cmdbuf_room(const struct gaudi_cmdbuf *cb);

/**
 * gaudi_cmdbuf_data() - the packets
 * @cb: the builder
 *
 * Return: the start of the buffer; valid until the next append (a growing
 * buffer may move).
 */
const void *gaudi_cmdbuf_data(const struct gaudi_cmdbuf *cb);

/**
 * gaudi_pkt_wreg32() - WREG_32: write a register
 * @cb: the builder
 * @reg: register offset within the queue's block (0..0xFFFF)
 * @value: value
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM (growing).
 */
int gaudi_pkt_wreg32(struct gaudi_cmdbuf *cb, uint32_t reg, uint32_t value,
		     uint32_t ctl);

/**
 * gaudi_pkt_wreg_bulk() - WREG_BULK: write consecutive 64-bit registers
 * @cb: the builder
 * @reg: first register offset (0..0xFFFF)
 * @values: the values
 * @count: how many (1..0xFFFF)
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_wreg_bulk(struct gaudi_cmdbuf *cb, uint32_t reg,
			const uint64_t *values, uint32_t count, uint32_t ctl);

/**
 * gaudi_pkt_msg_long() - MSG_LONG: write a value or timestamp to an address
 * @cb: the builder
 * @addr: device address
 * @value: value (ignored for GAUDI_MSG_OP_TIMESTAMP)
 * @op: GAUDI_MSG_OP_WRITE or GAUDI_MSG_OP_TIMESTAMP
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_msg_long(struct gaudi_cmdbuf *cb, uint64_t addr, uint32_t value,
		       uint32_t op, uint32_t ctl);

/**
 * gaudi_pkt_msg_short() - MSG_SHORT: write relative to a message base
 * @cb: the builder
 * @base: which CP_MSG_BASE of the queue (0..3)
 * @offset: byte offset from that base (0..0xFFFF)
 * @value: value (see gaudi_sob_value() and gaudi_mon_arm_value())
 * @op: GAUDI_MSG_OP_WRITE or GAUDI_MSG_OP_TIMESTAMP
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_msg_short(struct gaudi_cmdbuf *cb, uint32_t base,
			uint32_t offset, uint32_t value, uint32_t op,
			uint32_t ctl);

/**
 * gaudi_sob_value() - MSG_SHORT value that updates a sync object
 * @value: the value (0..0x7FFF)
 * @add: true: add @value to the SOB; false: set it
 *
 * Return: the encoded value (bits 14:0 value, bit 31 add mode).
 */
uint32_t gaudi_sob_value(uint32_t value, bool add);

/**
 * gaudi_mon_arm_value() - MSG_SHORT value that arms a monitor
 * @group: sync group id (SOB index / 8, 0..255)
 * @mask: SOBs of the group NOT to watch (bit i: SOB group*8+i)
 * @value: target value (0..0x7FFF)
 * @mode_eq: true: fire when equal; false: when greater or equal
 *
 * Return: the encoded value (7:0 group, 15:8 mask, 16 mode, 31:17 value).
 */
uint32_t gaudi_mon_arm_value(uint32_t group, uint32_t mask, uint32_t value,
			     bool mode_eq);

/*
 * Device address of the configuration space, where the sync objects are:
 * a SOB's address is GAUDI_CFG_BASE plus the offset a driver reports
 * (&gaudi_signal_reservation.sob_offset).
 */
#define GAUDI_CFG_BASE	0x7FFC000000ULL

/**
 * gaudi_pkt_sob_inc() - MSG_LONG that adds 1 to a sync object
 * @cb: the builder
 * @sob_addr: device address of the SOB (4-byte aligned), e.g.
 *	&gaudi_signal_reservation.sob_addr
 * @ctl: barrier bits; GAUDI_PKT_EB makes the signal wait until the
 *	engine's earlier work (a LIN_DMA before it) has completed
 *
 * One encapsulated signal: a staged submission that took a reservation
 * (gaudi_submit_staged_encaps()) adds 1 to the reservation's SOB per
 * signal it gives.  The same as gaudi_pkt_msg_long() of
 * gaudi_sob_value(1, true) with GAUDI_MSG_OP_WRITE.  Drivers refuse CBs
 * that write a SOB they do not own: gaudi.ko allows only adding to the SOB
 * of the submission's own reservation.
 *
 * Return: 0, -EINVAL (bad @ctl, unaligned @sob_addr), -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_sob_inc(struct gaudi_cmdbuf *cb, uint64_t sob_addr, uint32_t ctl);

/**
 * gaudi_pkt_cp_dma() - CP_DMA: fetch and execute packets from memory
 * @cb: the builder
 * @src: device address of the packets
 * @size: their size in bytes
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_cp_dma(struct gaudi_cmdbuf *cb, uint64_t src, uint32_t size,
		     uint32_t ctl);

/**
 * gaudi_pkt_repeat() - REPEAT: loop back in the command buffer
 * @cb: the builder
 * @jump: jump pointer (0..0xFFFF)
 * @sore: start-of-repeat-region bit
 * @o: outer-loop bit
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_repeat(struct gaudi_cmdbuf *cb, uint32_t jump, bool sore,
		     bool o, uint32_t ctl);

/**
 * gaudi_pkt_msg_prot() - MSG_PROT: protected write (driver-only on
 *	external queues)
 * @cb: the builder
 * @addr: device address
 * @value: value
 * @op: GAUDI_MSG_OP_WRITE or GAUDI_MSG_OP_TIMESTAMP
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_msg_prot(struct gaudi_cmdbuf *cb, uint64_t addr, uint32_t value,
		       uint32_t op, uint32_t ctl);

/**
 * gaudi_pkt_fence() - FENCE: wait for a fence counter of the queue
 * @cb: the builder
 * @id: fence id (0..3)
 * @target: wait until the counter reaches this (0..255)
 * @dec: then subtract this (0..15)
 * @pred: predicate (0..31)
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_fence(struct gaudi_cmdbuf *cb, uint32_t id, uint32_t target,
		    uint32_t dec, uint32_t pred, uint32_t ctl);

/**
 * gaudi_pkt_lin_dma() - LIN_DMA: linear copy
 * @cb: the builder
 * @dst: destination device address (at most GAUDI_LIN_DMA_DST_MAX)
 * @src: source device address
 * @size: bytes to copy (0 is allowed: a no-op transfer)
 * @opts: GAUDI_LIN_DMA_* bits
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_lin_dma(struct gaudi_cmdbuf *cb, uint64_t dst, uint64_t src,
		      uint32_t size, uint32_t opts, uint32_t ctl);

/**
 * gaudi_pkt_memset() - LIN_DMA memset: fill with a 64-bit pattern
 * @cb: the builder
 * @dst: destination device address (at most GAUDI_LIN_DMA_DST_MAX)
 * @pattern: the value written repeatedly (little-endian)
 * @size: bytes to fill
 * @opts: GAUDI_LIN_DMA_* bits
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_memset(struct gaudi_cmdbuf *cb, uint64_t dst, uint64_t pattern,
		     uint32_t size, uint32_t opts, uint32_t ctl);

/**
 * gaudi_pkt_nop() - NOP
 * @cb: the builder
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_nop(struct gaudi_cmdbuf *cb, uint32_t ctl);

/**
 * gaudi_pkt_stop() - STOP: halt the queue's command parser
 * @cb: the builder
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_stop(struct gaudi_cmdbuf *cb, uint32_t ctl);

/**
 * gaudi_pkt_arb_point() - ARB_POINT: arbitration point
 * @cb: the builder
 * @priority: priority (0..255)
 * @release: release the arbitration
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_arb_point(struct gaudi_cmdbuf *cb, uint32_t priority,
			bool release, uint32_t ctl);

/**
 * gaudi_pkt_wait() - WAIT: wait cycles, then increment a fence counter
 * @cb: the builder
 * @id: fence id (0..3)
 * @inc: increment (0..15)
 * @cycles: cycles to wait (0..0xFFFFFF)
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_wait(struct gaudi_cmdbuf *cb, uint32_t id, uint32_t inc,
		   uint32_t cycles, uint32_t ctl);

/**
 * gaudi_pkt_load_and_exe() - LOAD_AND_EXE: load predicates/scalars, execute
 * @cb: the builder
 * @src: device address to load from
 * @cfg: GAUDI_LOAD_EXE_* bits
 * @ctl: barrier bits
 *
 * Return: 0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int gaudi_pkt_load_and_exe(struct gaudi_cmdbuf *cb, uint64_t src,
			   uint32_t cfg, uint32_t ctl);

/* ---- kernel command buffers --------------------------------------------- */

struct gaudi_cb;

/**
 * gaudi_cb_create() - create a kernel command buffer and map it
 * @dev: the device (compute node)
 * @size: bytes (1..HL_MAX_CB_SIZE; the driver rounds up to pages)
 * @out: receives the CB; destroy it with gaudi_cb_destroy()
 *
 * Return: 0, -EINVAL, -ENOMEM, -ENOTTY on a control node.
 */
int gaudi_cb_create(struct gaudi_dev *dev, uint32_t size,
		    struct gaudi_cb **out);

/**
 * gaudi_cb_destroy() - unmap and destroy a command buffer
 * @cb: the CB, or NULL
 *
 * The driver keeps the memory until work using it completes.
 *
 * Return: 0 or the driver's negative errno (the CB is freed anyway).
 */
int gaudi_cb_destroy(struct gaudi_cb *cb);

/**
 * gaudi_cb_handle() - the driver's handle of a CB
 * @cb: the CB
 *
 * Return: the handle (for &gaudi_chunk.cb_handle).
 */
uint64_t gaudi_cb_handle(const struct gaudi_cb *cb);

/**
 * gaudi_cb_size() - size of a CB
 * @cb: the CB
 *
 * Return: the size asked for at creation.
 */
uint32_t gaudi_cb_size(const struct gaudi_cb *cb);

/**
 * gaudi_cb_ptr() - the CB's memory, mapped in this process
 * @cb: the CB
 *
 * Return: the mapping (gaudi_cb_size() bytes).
 */
void *gaudi_cb_ptr(const struct gaudi_cb *cb);

/**
 * gaudi_cb_cmdbuf() - the builder that writes into the CB
 * @cb: the CB
 *
 * A fixed builder over gaudi_cb_ptr(): appending past the CB's size fails
 * with -ENOSPC.  gaudi_submit_cb() submits what it holds.
 *
 * Return: the builder, owned by the CB.
 */
struct gaudi_cmdbuf *gaudi_cb_cmdbuf(struct gaudi_cb *cb);

/**
 * gaudi_cb_load() - copy a builder's packets into a CB
 * @cb: the CB
 * @src: the builder
 *
 * Replaces the CB's contents; its builder then holds the same length.
 *
 * Return: 0, -ENOSPC when the packets do not fit.
 */
int gaudi_cb_load(struct gaudi_cb *cb, const struct gaudi_cmdbuf *src);

/* ---- host memory mappings ----------------------------------------------- */

struct gaudi_mapping;

/**
 * gaudi_map_host() - map host memory into the device MMU (userptr)
 * @dev: the device (compute node)
 * @ptr: start of the memory (page-aligned is best; the driver pins it)
 * @size: its size in bytes
 * @out: receives the mapping; release it with gaudi_unmap()
 *
 * Return: 0, -EINVAL (NULL, zero size), -ENOMEM, -EFAULT, or the driver's
 * negative errno.
 */
int gaudi_map_host(struct gaudi_dev *dev, void *ptr, uint64_t size,
		   struct gaudi_mapping **out);

/**
 * gaudi_unmap() - unmap and free a mapping
 * @m: the mapping, or NULL
 *
 * Return: 0 or the driver's negative errno (the object is freed anyway).
 */
int gaudi_unmap(struct gaudi_mapping *m);

/**
 * gaudi_mapping_va() - device virtual address of a mapping's first byte
 * @m: the mapping
 *
 * Return: the address.
 */
uint64_t gaudi_mapping_va(const struct gaudi_mapping *m);

/**
 * gaudi_mapping_size() - size of a mapping
 * @m: the mapping
 *
 * Return: bytes, as given to gaudi_map_host().
 */
uint64_t gaudi_mapping_size(const struct gaudi_mapping *m);

/**
 * gaudi_mapping_addr() - device address of a host pointer in a mapping
 * @m: the mapping
 * @p: a pointer into the mapped range
 * @va: receives the device address
 *
 * Return: 0, -ERANGE when @p is outside the mapping.
 */
int gaudi_mapping_addr(const struct gaudi_mapping *m, const void *p,
		       uint64_t *va);

/* ---- submission --------------------------------------------------------- */

/* Queues of Gaudi 1 (enum gaudi_queue_id of the uapi header). */
#define GAUDI_QUEUE_DMA_0_0	GAUDI_QUEUE_ID_DMA_0_0	/* external */
#define GAUDI_QUEUE_DMA_1_3	GAUDI_QUEUE_ID_DMA_1_3	/* last external */
#define GAUDI_NUM_EXT_QUEUES	8

/**
 * struct gaudi_chunk - one command buffer of a submission
 * @cb_handle: gaudi_cb_handle() of a CB (external queues), or a device
 *	address of the packets (internal queues)
 * @queue: queue id (GAUDI_QUEUE_ID_* of <drm/habanalabs_accel.h>)
 * @size: bytes of packets to execute
 * @flags: must be 0
 * @reserved: must be 0
 */
struct gaudi_chunk {
	uint64_t cb_handle;
	uint32_t queue;
	uint32_t size;
	uint32_t flags;
	uint32_t reserved[3];
};

/* Flags of gaudi_submit(). */
/* The chunks are restore chunks (run before the first CS of a context). */
#define GAUDI_SUBMIT_RESTORE	(1U << 0)

/**
 * gaudi_submit() - submit a command submission (CS)
 * @dev: the device (compute node)
 * @chunks: the chunks, executed on their queues
 * @n: how many (1..HL_MAX_JOBS_PER_CS)
 * @flags: 0 or GAUDI_SUBMIT_RESTORE
 * @seq: receives the CS sequence number for gaudi_wait()
 *
 * Return: 0; -EINVAL (bad arguments, refused packet as the driver parsed
 * it); -EPERM (a packet users may not issue); -EBUSY, -EAGAIN (queue full:
 * retry); -EIO (the driver accepted the call but failed the CS).
 */
int gaudi_submit(struct gaudi_dev *dev, const struct gaudi_chunk *chunks,
		 unsigned int n, uint32_t flags, uint64_t *seq);

/**
 * gaudi_submit_cb() - submit the packets of one CB on one queue
 * @cb: the CB (gaudi_cmdbuf_len() of its builder is the size)
 * @queue: queue id
 * @seq: receives the CS sequence number
 *
 * Return: as gaudi_submit(); -ENODATA when the CB's builder is empty.
 */
int gaudi_submit_cb(struct gaudi_cb *cb, uint32_t queue, uint64_t *seq);

/**
 * gaudi_wait() - wait for a CS
 * @dev: the device
 * @seq: its sequence number (GAUDI_SEQ_NONE: returns 0 at once)
 * @timeout_us: how long, in microseconds (0: poll)
 * @status: receives the driver's HL_WAIT_CS_STATUS_* (may be NULL); also
 *	written on -EBUSY, -ETIMEDOUT and -EIO
 *
 * Return: 0 completed; -EBUSY not yet (@timeout_us was 0); -ETIMEDOUT;
 * -EIO the CS was aborted (device reset, CS timeout); -EINVAL unknown
 * sequence number.
 */
int gaudi_wait(struct gaudi_dev *dev, uint64_t seq, uint64_t timeout_us,
	       uint32_t *status);

/**
 * gaudi_submit_signal() - a CS that signals a sync object on a queue
 * @dev: the device
 * @queue: an external queue
 * @seq: receives the signal CS's sequence number
 *
 * Return: as gaudi_submit().
 */
int gaudi_submit_signal(struct gaudi_dev *dev, uint32_t queue, uint64_t *seq);

/*
 * Sequence number of a CS that needs no waiting: upstream's driver submits
 * no wait CS when the signal CS has completed already, and answers this.
 */
#define GAUDI_SEQ_NONE	(~0ULL)

/**
 * gaudi_submit_wait() - a CS that makes a queue wait for a signal CS
 * @dev: the device
 * @queue: the queue that waits (later work on it runs after the signal)
 * @signal_seq: sequence number of a gaudi_submit_signal() CS
 * @seq: receives the wait CS's sequence number, or GAUDI_SEQ_NONE when the
 *	signal had completed and the driver queued nothing (gaudi_wait()
 *	accepts it)
 *
 * Return: as gaudi_submit().
 */
int gaudi_submit_wait(struct gaudi_dev *dev, uint32_t queue,
		      uint64_t signal_seq, uint64_t *seq);

/**
 * gaudi_dma_copy() - copy between device addresses and wait for it
 * @dev: the device
 * @queue: an external DMA queue (GAUDI_QUEUE_DMA_0_0..GAUDI_QUEUE_DMA_1_3)
 * @dst: destination device address (HBM, SRAM, or a gaudi_mapping_va())
 * @src: source device address
 * @size: bytes (split into LIN_DMA packets of at most 1 GiB)
 * @timeout_us: wait limit
 *
 * Builds a CB, submits it on @queue and waits for it.
 *
 * Return: 0 or a negative errno of gaudi_cb_create(), gaudi_submit(),
 * gaudi_wait().
 */
int gaudi_dma_copy(struct gaudi_dev *dev, uint32_t queue, uint64_t dst,
		   uint64_t src, uint64_t size, uint64_t timeout_us);

/**
 * gaudi_dma_memset() - fill device memory with a 64-bit pattern and wait
 * @dev: the device
 * @queue: an external DMA queue
 * @dst: destination device address
 * @pattern: 64-bit fill pattern
 * @size: bytes
 * @timeout_us: wait limit
 *
 * Return: as gaudi_dma_copy().
 */
int gaudi_dma_memset(struct gaudi_dev *dev, uint32_t queue, uint64_t dst,
		     uint64_t pattern, uint64_t size, uint64_t timeout_us);

/* ---- staged submission and encapsulated signals -------------------------- */

/**
 * DOC: Staged submission and encapsulated signals
 *
 * A staged submission is one CS submitted in parts: the first part
 * (GAUDI_STAGED_FIRST) gets the sequence number, every later part names
 * it, the last part (GAUDI_STAGED_LAST) closes the submission.  Every part
 * runs as soon as it is submitted; the submission completes when its parts
 * have, and gaudi_wait() on its sequence number waits for all of them.
 * Drivers complete a staged submission through its last part's external
 * queues: earlier parts on internal queues are the usual pattern.
 *
 * Encapsulated signals let such a submission signal from inside its own
 * CBs: gaudi_signals_reserve() reserves values of an external queue's sync
 * object (SOB), the first part takes the reservation
 * (gaudi_submit_staged_encaps()), its CBs add 1 to the SOB per signal
 * (gaudi_pkt_sob_inc()), and gaudi_submit_wait_encaps() makes any
 * external queue wait for the k-th of them.  A reservation ends with the
 * submission that took it; one no submission took is given back with
 * gaudi_signals_unreserve() (upstream's driver keeps the device context
 * alive for a reservation left behind at close, so that the device cannot
 * be opened again until its module is reloaded).
 */

/* Flags of gaudi_submit_staged() and gaudi_submit_staged_encaps(). */
/* The first part: it receives the submission's sequence number. */
#define GAUDI_STAGED_FIRST	(1U << 0)
/* The last part: it closes the submission. */
#define GAUDI_STAGED_LAST	(1U << 1)

/* Largest number of signals one reservation can hold (a SOB's 15 bits). */
#define GAUDI_SIGNALS_MAX	0x7FFFU

/**
 * gaudi_submit_staged() - submit one part of a staged submission
 * @dev: the device (compute node)
 * @chunks: the part's chunks, as for gaudi_submit()
 * @n: how many (1..HL_MAX_JOBS_PER_CS)
 * @flags: GAUDI_STAGED_FIRST on the first part, GAUDI_STAGED_LAST on the
 *	last, both on a submission of one part, neither in between
 * @staged_seq: the submission's sequence number: with GAUDI_STAGED_FIRST
 *	it receives it; on the other parts it is read (the first part's
 *	number; 0 and GAUDI_SEQ_NONE are -EINVAL) and written back with the
 *	driver's answer, the same number
 *
 * Return: as gaudi_submit(); -EINVAL also for a part of a submission that
 * ended, was closed by its last part, or was never submitted.
 */
int gaudi_submit_staged(struct gaudi_dev *dev, const struct gaudi_chunk *chunks,
			unsigned int n, uint32_t flags, uint64_t *staged_seq);

/**
 * struct gaudi_signal_reservation - encapsulated signals reserved on a queue
 * @handle: the driver's handle (never 0), for gaudi_submit_staged_encaps()
 *	and gaudi_signals_unreserve()
 * @queue: the external queue whose signal SOB was reserved
 * @count: how many signals were reserved
 * @sob_offset: the SOB's offset in the configuration space
 * @sob_addr: its device address, GAUDI_CFG_BASE + @sob_offset, for
 *	gaudi_pkt_sob_inc()
 * @first_value: the value the SOB reaches with the first reserved signal
 *	(@next_value - @count)
 * @next_value: the value it reaches with the next signal after the
 *	reservation (the driver's count: 5 after reserving 4 on a fresh queue)
 */
struct gaudi_signal_reservation {
	uint32_t handle;
	uint32_t queue;
	uint32_t count;
	uint32_t sob_offset;
	uint64_t sob_addr;
	uint32_t first_value;
	uint32_t next_value;
};

/**
 * gaudi_signals_reserve() - reserve encapsulated signals on a queue
 * @dev: the device (compute node)
 * @queue: an external queue (GAUDI_QUEUE_DMA_0_0..GAUDI_QUEUE_DMA_1_3)
 * @count: how many signals (0..GAUDI_SIGNALS_MAX)
 * @out: receives the reservation
 *
 * Signal CSs and reservations on @queue submitted later go on after the
 * reserved values.  Hand the reservation to a staged submission with
 * gaudi_submit_staged_encaps() or give it back with
 * gaudi_signals_unreserve().
 *
 * Return: 0; -EINVAL (NULL @dev or @out, @queue not external, @count too
 * large); -EBUSY (gaudi.ko: the queue's other SOB is held by a reservation
 * no CS took); -ENOSPC (too many reservations); -ENOTTY on a control node;
 * or the driver's negative errno.
 */
int gaudi_signals_reserve(struct gaudi_dev *dev, uint32_t queue, uint32_t count,
			  struct gaudi_signal_reservation *out);

/**
 * gaudi_signals_unreserve() - give back a reservation no submission took
 * @dev: the device
 * @handle: &gaudi_signal_reservation.handle
 *
 * Drivers accept it only while nothing was signalled or reserved on the
 * queue since the reservation.
 *
 * Return: 0; -EINVAL (handle 0, unknown handle, a reservation a
 * submission took or one signals were submitted after); -ENOTTY on a
 * control node.
 */
int gaudi_signals_unreserve(struct gaudi_dev *dev, uint32_t handle);

/**
 * gaudi_submit_staged_encaps() - submit the first part of a staged
 *	submission that gives a reservation's signals
 * @dev: the device (compute node)
 * @chunks: the part's chunks, as for gaudi_submit(); their CBs may add to
 *	the reservation's SOB (gaudi_pkt_sob_inc())
 * @n: how many (1..HL_MAX_JOBS_PER_CS)
 * @flags: 0, or GAUDI_STAGED_LAST for a submission of one part;
 *	GAUDI_STAGED_FIRST is implied and may be given
 * @handle: &gaudi_signal_reservation.handle of a reservation no
 *	submission took yet
 * @staged_seq: receives the submission's sequence number, for the later
 *	parts (gaudi_submit_staged()), gaudi_submit_wait_encaps() and
 *	gaudi_wait()
 *
 * Return: as gaudi_submit(); -EINVAL also for handle 0 or a handle the
 * driver does not know.
 */
int gaudi_submit_staged_encaps(struct gaudi_dev *dev,
			       const struct gaudi_chunk *chunks, unsigned int n,
			       uint32_t flags, uint32_t handle,
			       uint64_t *staged_seq);

/**
 * gaudi_submit_wait_encaps() - a CS that makes a queue wait for an
 *	encapsulated signal
 * @dev: the device
 * @queue: the external queue that waits (later work on it runs after the
 *	signal)
 * @staged_seq: sequence number of the staged submission that took the
 *	reservation
 * @offset: which of its signals, 1..count (0 also means the first)
 * @seq: receives the wait CS's sequence number, or GAUDI_SEQ_NONE when the
 *	driver queued nothing (gaudi_wait() accepts it)
 *
 * Once the submission has ended (or for a sequence number that had no
 * reservation) there is nothing to wait for: gaudi.ko queues a CS that
 * completes at once, upstream's driver queues nothing and answers
 * GAUDI_SEQ_NONE.
 *
 * Return: as gaudi_submit(); -EINVAL also for @staged_seq 0 or
 * GAUDI_SEQ_NONE, a @queue that is not external (checked before any
 * ioctl), or an @offset beyond the reservation.
 */
int gaudi_submit_wait_encaps(struct gaudi_dev *dev, uint32_t queue,
			     uint64_t staged_seq, uint32_t offset,
			     uint64_t *seq);

/* ---- hotplug ------------------------------------------------------------ */

struct gaudi_monitor;

/* Actions of gaudi_monitor_receive(). */
enum gaudi_monitor_action {
	GAUDI_MONITOR_ADD = 1,
	GAUDI_MONITOR_REMOVE = 2,
	GAUDI_MONITOR_CHANGE = 3,
	GAUDI_MONITOR_OTHER = 4,
};

/* Flags of gaudi_monitor_new(). */
/* Listen to kernel uevents directly (no udevd needed, nodes may lag). */
#define GAUDI_MONITOR_KERNEL	(1U << 0)

/**
 * gaudi_monitor_new() - watch accel nodes come and go
 * @flags: 0 (udevd's events when udevd runs, else the kernel's) or
 *	GAUDI_MONITOR_KERNEL
 * @out: receives the monitor; free it with gaudi_monitor_free()
 *
 * Return: 0 or a negative errno (-ENOMEM, netlink errors).
 */
int gaudi_monitor_new(unsigned int flags, struct gaudi_monitor **out);

/**
 * gaudi_monitor_free() - stop watching
 * @mon: the monitor, or NULL
 */
void gaudi_monitor_free(struct gaudi_monitor *mon);

/**
 * gaudi_monitor_fd() - descriptor to poll() for readability
 * @mon: the monitor
 *
 * Return: the descriptor (non-blocking).
 */
int gaudi_monitor_fd(const struct gaudi_monitor *mon);

/**
 * gaudi_monitor_receive() - one pending event
 * @mon: the monitor
 * @action: receives an &enum gaudi_monitor_action
 * @node: receives the node name ("accel0", "accel_controlD0")
 * @len: size of @node
 *
 * Return: 0; -EAGAIN nothing pending; -ENOMEM.
 */
int gaudi_monitor_receive(struct gaudi_monitor *mon, int *action, char *node,
			  size_t len);

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
