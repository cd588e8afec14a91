/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgaudi internals: object layouts and the system layer.
 *
 * Everything the library does to the system (open, ioctl, mmap, sysfs
 * enumeration, module state) goes through a &struct gaudi_sys.  The public
 * functions use gaudi_sys_default; the host unit tests call the
 * gaudi__*_sys() variants with a fake one, so no kernel is needed.  These
 * symbols are hidden: they are not part of the ABI.
 */
#ifndef GAUDI_INT_H
#define GAUDI_INT_H

#include <pthread.h>
#include <sys/types.h>

#include "gaudi/gaudi.h"
/* PCI identity and the address map: the hardware description (hw/). */
#include "gaudi1/memmap.h"

#define GAUDI_EXPORT __attribute__((visibility("default")))

#define GAUDI_NAME_LEN		64
#define GAUDI_PATH_LEN		256

/**
 * struct gaudi_sys_node - one accel-class node as enumeration sees it
 * @sysname: "accel0", "accel_controlD0"
 * @devnode: "/dev/accel/accel0" (NULL when the node has no device file)
 * @pci_syspath: sysfs path of the PCI parent
 * @pci_slot: "0000:02:00.0"
 * @driver: driver bound to the PCI parent (NULL when none)
 * @vendor: PCI vendor id of the parent
 * @device: PCI device id of the parent
 * @module_id: the parent's module_id attribute, -1 when absent
 */
struct gaudi_sys_node {
	const char *sysname;
	const char *devnode;
	const char *pci_syspath;
	const char *pci_slot;
	const char *driver;
	unsigned int vendor;
	unsigned int device;
	int module_id;
};

typedef int (*gaudi_node_fn)(void *arg, const struct gaudi_sys_node *node);

/**
 * struct gaudi_sys - the system layer
 * @open: open(2); returns an fd or -errno
 * @close: close(2)
 * @ioctl: an ioctl with drmIoctl's retry on EINTR/EAGAIN; 0 or -errno
 * @mmap: mmap(2); MAP_FAILED and errno on failure
 * @munmap: munmap(2)
 * @drm_version: the DRM driver name of an fd (drmGetVersion); 0 or -errno
 * @enumerate: call @fn for every accel-class node; stops at a non-zero
 *	return and returns it; a negative errno of its own
 * @pci_count: number of PCI functions 1da3:1000, or -errno
 * @module_loaded: 1 loaded, 0 not, -errno
 * @control_module_id: module id a control node reports (HW_IP_INFO), for
 *	control nodes without a PCI parent (upstream's are virtual devices);
 *	-errno when it cannot be opened or is no Gaudi 1
 * @priv: for the implementation
 */
struct gaudi_sys {
	int (*open)(const struct gaudi_sys *sys, const char *path, int flags);
	int (*close)(const struct gaudi_sys *sys, int fd);
	int (*ioctl)(const struct gaudi_sys *sys, int fd, unsigned long req,
		     void *arg);
	void *(*mmap)(const struct gaudi_sys *sys, size_t len, int prot,
		      int flags, int fd, off_t off);
	int (*munmap)(const struct gaudi_sys *sys, void *p, size_t len);
	int (*drm_version)(const struct gaudi_sys *sys, int fd, char *name,
			   size_t len);
	int (*enumerate)(const struct gaudi_sys *sys, gaudi_node_fn fn,
			 void *arg);
	int (*pci_count)(const struct gaudi_sys *sys);
	int (*module_loaded)(const struct gaudi_sys *sys, const char *name);
	int (*control_module_id)(const struct gaudi_sys *sys,
				 const char *devnode);
	void *priv;
};

extern const struct gaudi_sys gaudi_sys_default;

struct gaudi_card {
	char pci_slot[GAUDI_NAME_LEN];
	char syspath[GAUDI_PATH_LEN];
	char driver[GAUDI_NAME_LEN];
	char compute[GAUDI_PATH_LEN];
	char control[GAUDI_PATH_LEN];
	int accel_index;
	int control_index;
	int module_id;
};

struct gaudi_card_list {
	unsigned int count;
	unsigned int cap;
	struct gaudi_card *cards;
};

struct gaudi_dev {
	const struct gaudi_sys *sys;
	int fd;
	bool control;
	enum gaudi_driver_kind kind;
	char driver[GAUDI_NAME_LEN];
	char pci_slot[GAUDI_NAME_LEN];
	int caps_rc;		/* 0 when @caps is valid, else -errno */
	struct gaudi_caps caps;
};

struct gaudi_cmdbuf {
	uint8_t *buf;
	size_t len;
	size_t cap;
	size_t max;
	bool owned;		/* heap buffer that may grow */
	bool embedded;		/* part of a gaudi_cb: not freed alone */
};

struct gaudi_cb {
	struct gaudi_dev *dev;
	uint64_t handle;
	uint64_t device_va;	/* mapped into the device MMU, or 0 */
	uint32_t size;
	size_t map_len;
	void *map;
	struct gaudi_cmdbuf builder;
};

struct gaudi_mapping {
	struct gaudi_dev *dev;
	void *ptr;
	uint64_t size;
	uint64_t va;
};

/* Variants of the public functions on a given system layer. */
int gaudi__cards_scan_sys(const struct gaudi_sys *sys,
			  struct gaudi_card_list **out);
int gaudi__check_driver_sys(const struct gaudi_sys *sys);
int gaudi__open_sys(const struct gaudi_sys *sys, unsigned int index,
		    unsigned int flags, struct gaudi_dev **out);
int gaudi__open_pci_sys(const struct gaudi_sys *sys, const char *bus_id,
			unsigned int flags, struct gaudi_dev **out);
int gaudi__open_module_sys(const struct gaudi_sys *sys, unsigned int module_id,
			   unsigned int flags, struct gaudi_dev **out);
int gaudi__open_card_sys(const struct gaudi_sys *sys,
			 const struct gaudi_card *card, unsigned int flags,
			 struct gaudi_dev **out);
int gaudi__driver_loaded_sys(const struct gaudi_sys *sys, const char *module);

/* Normalizes "BB:DD.F" / "DDDD:BB:DD.F" to lower-case "dddd:bb:dd.f". */
int gaudi__parse_bus_id(const char *in, char *out, size_t len);

/* strlcpy-like copy that always terminates. */
void gaudi__strcpy(char *dst, const char *src, size_t len);

#endif /* GAUDI_INT_H */
