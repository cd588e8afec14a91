/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgaudi: cards, devices, queries, events and hot-plug (<gaudi/gaudi.h>).
 *
 * Copyright (C) the open Gaudi driver stack authors.
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version.
 */
#ifndef GAUDI_DEVICE_H
#define GAUDI_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/habanalabs_accel.h>

#ifdef __cplusplus
extern "C" {
#endif

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
#define GAUDI_CAPS_FLASH		(1ULL << 3)
#define GAUDI_CAPS_ACCOUNTING		(1ULL << 4)

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

/* ---- accounting (gaudi.ko extension) ----------------------------------- */

/* &gaudi_acct.flags */
#define GAUDI_ACCT_F_RUNNING	(1U << 0)	/* still holds the card */
#define GAUDI_ACCT_F_ENERGY	(1U << 1)	/* @energy_uj is valid */
#define GAUDI_ACCT_F_RESET	(1U << 2)	/* the card was reset meanwhile */
#define GAUDI_ACCT_F_CGROUP_TRUNC (1U << 3)	/* the cgroup path is cut */

/* Room for a holder's cgroup path, the NUL included. */
#define GAUDI_ACCT_CGROUP_MAX	512

/* Index of &gaudi_acct.busy_ns */
enum gaudi_engine_class {
	GAUDI_CLASS_DMA,
	GAUDI_CLASS_MME,
	GAUDI_CLASS_TPC,
	GAUDI_CLASS_NIC,
	GAUDI_CLASS_NUM
};

/**
 * struct gaudi_acct - what one holder of a card used
 * @id: the holding's number, unique per card while the driver is bound
 * @pid: process id in the caller's pid namespace (0: not visible)
 * @uid: user id
 * @comm: command name at open, NUL-terminated
 * @flags: GAUDI_ACCT_F_* bits
 * @start_time_ns: CLOCK_REALTIME of the open
 * @wall_ns: how long it held the card (so far, if running)
 * @busy_ns: engine time per class (enum gaudi_engine_class)
 * @cs_submitted: command submissions accepted
 * @peak_hbm_bytes: most HBM allocated at one time
 * @peak_host_bytes: most host memory pinned for the card at one time
 * @energy_uj: the card's energy while held (with GAUDI_ACCT_F_ENERGY)
 */
struct gaudi_acct {
	uint64_t id;
	int32_t pid;
	uint32_t uid;
	char comm[16];
	uint32_t flags;
	uint64_t start_time_ns;
	uint64_t wall_ns;
	uint64_t busy_ns[GAUDI_CLASS_NUM];
	uint64_t cs_submitted;
	uint64_t peak_hbm_bytes;
	uint64_t peak_host_bytes;
	uint64_t energy_uj;
};

/**
 * gaudi_accounting() - the driver's accounting records of a card
 * @dev: the device (either node)
 * @recs: room for @n records, oldest first, the running holder last
 * @n: its size; 0 to learn how many there are
 * @max_kept: if not NULL, receives how many exited holders the driver
 *	keeps at most
 *
 * The driver keeps one record per holding of the compute node: the
 * running one and a bounded number of exited ones.  When there are more
 * than @n, the newest @n are returned.
 *
 * Return: records written (or available, when @n is 0); -EOPNOTSUPP when
 * the driver lacks GAUDI_CAPS_ACCOUNTING, else a negative errno.
 */
int gaudi_accounting(struct gaudi_dev *dev, struct gaudi_acct *recs,
		     unsigned int n, unsigned int *max_kept);

/**
 * gaudi_accounting_cgroups() - the records and each holder's cgroup
 * @dev: the device (either node)
 * @recs: room for @n records, as gaudi_accounting()
 * @cgroups: room for @n cgroup paths: @cgroups[i] is the cgroup v2 path
 *	of @recs[i]'s holder at its open, as /proc/<pid>/cgroup shows it to
 *	the caller; "" when the driver does not say (before ABI 1.5)
 * @n: the size of both; 0 to learn how many there are
 * @max_kept: as gaudi_accounting()
 *
 * Return: as gaudi_accounting(); -EINVAL when @n is not 0 and @cgroups is
 * NULL.
 */
int gaudi_accounting_cgroups(struct gaudi_dev *dev, struct gaudi_acct *recs,
			     char (*cgroups)[GAUDI_ACCT_CGROUP_MAX],
			     unsigned int n, unsigned int *max_kept);

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
 * gaudi_hw_ip_nic_ports_mask() - the enabled NIC ports of a HW_IP_INFO answer
 * @hw: an answer of gaudi_info_hw_ip()
 *
 * Habana's ABI names this u64 of struct hl_info_hw_ip_info
 * ``nic_ports_mask``; Linux 6.12's <drm/habanalabs_accel.h> calls the same
 * field ``reserved4``.  gaudi.ko fills it; upstream's driver leaves it 0.
 * An inline reader, not a library symbol.
 *
 * Return: bit N set when port N (0..9) is enabled; 0 unknown.
 */
static inline uint64_t
gaudi_hw_ip_nic_ports_mask(const struct hl_info_hw_ip_info *hw)
{
	return hw->reserved4;
}

/**
 * gaudi_hw_ip_nic_ports_ext_mask() - the scale-out NIC ports of HW_IP_INFO
 * @hw: an answer of gaudi_info_hw_ip()
 *
 * Habana's ``nic_ports_external_mask``, ``reserved5`` in Linux 6.12's
 * header: the ports that leave the board (the others link the cards of the
 * server to each other).  0 on upstream's driver.
 *
 * Return: bit N set when port N is a scale-out port.
 */
static inline uint64_t
gaudi_hw_ip_nic_ports_ext_mask(const struct hl_info_hw_ip_info *hw)
{
	return hw->reserved5;
}

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

#ifdef __cplusplus
}
#endif

#endif /* GAUDI_DEVICE_H */
