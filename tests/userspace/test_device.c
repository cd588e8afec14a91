// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgaudi discovery, open by index / PCI bus id / module id, control
 * nodes, driver identification, capabilities and owner, and why no card
 * can be opened, on a fake system layer.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "fake.h"
#include "tap.h"

static void test_scan(void)
{
	struct gaudi_card_list *l;
	const struct gaudi_card *c;
	struct fake f;
	int n;

	fake_init(&f);
	/* Upstream numbers control nodes apart from accelN: pair by PCI. */
	fake_add_node(&f, "accel_controlD0", "0000:03:00.0", "habanalabs", 2);
	fake_add_node(&f, "accel1", "0000:03:00.0", "habanalabs", 2);
	fake_add_node(&f, "accel0", "0000:01:00.0", "habanalabs", 0);
	fake_add_node(&f, "accel_controlD1", "0000:01:00.0", "habanalabs", 0);
	/* Not Gaudi: another vendor's accel device; names that are no node. */
	fake_add_node(&f, "accel2", "0000:05:00.0", "ivpu", -1);
	f.nodes[f.n_nodes - 1].vendor = 0x8086;
	fake_add_node(&f, "accel_foo", "0000:01:00.0", "habanalabs", 0);
	fake_add_node(&f, "accel3x", "0000:01:00.0", "habanalabs", 0);
	/* A card with only a compute node, no devnode known, no driver. */
	fake_add_node(&f, "accel7", "0000:02:00.0", NULL, -1);
	f.nodes[f.n_nodes - 1].devnode = NULL;

	n = gaudi__cards_scan_sys(&f.sys, &l);
	ok_eq(n, 3, "3 Gaudi cards from 8 nodes");
	if (n != 3)
		goto out;
	ok_eq(gaudi_cards_count(l), 3, "count");
	ok(gaudi_cards_get(l, 3) == NULL, "get past the end is NULL");
	c = gaudi_cards_get(l, 0);
	ok(!strcmp(gaudi_card_pci_bus_id(c), "0000:01:00.0"),
	   "sorted by bus id: first 0000:01:00.0");
	ok(gaudi_card_accel_index(c) == 0 &&
	   gaudi_card_control_index(c) == 1, "card 0: accel0 + controlD1");
	ok(!strcmp(gaudi_card_compute_node(c), "/dev/accel/accel0") &&
	   !strcmp(gaudi_card_control_node(c), "/dev/accel/accel_controlD1"),
	   "card 0 node paths");
	ok(!strcmp(gaudi_card_driver(c), "habanalabs"), "driver habanalabs");
	ok_eq(gaudi_card_module_id(c), 0, "module id 0");
	ok(!strcmp(gaudi_card_syspath(c),
		   "/sys/devices/pci0000:00/0000:01:00.0"),
	   "syspath of the PCI function");
	c = gaudi_cards_get(l, 1);
	ok(!strcmp(gaudi_card_pci_bus_id(c), "0000:02:00.0") &&
	   gaudi_card_accel_index(c) == 7 &&
	   gaudi_card_control_index(c) == -1 &&
	   gaudi_card_control_node(c) == NULL,
	   "card 1: compute node only");
	ok(!strcmp(gaudi_card_compute_node(c), "/dev/accel/accel7"),
	   "no devnode from udev: /dev/accel/<sysname>");
	ok(!strcmp(gaudi_card_driver(c), "") && gaudi_card_module_id(c) == -1,
	   "unknown driver is \"\", unknown module id -1");
	c = gaudi_cards_get(l, 2);
	ok(gaudi_card_accel_index(c) == 1 && gaudi_card_control_index(c) == 0 &&
	   gaudi_card_module_id(c) == 2,
	   "card 2: accel1 + controlD0, module 2");
	gaudi_cards_free(l);

	f.enum_err = -EACCES;
	ok_eq(gaudi__cards_scan_sys(&f.sys, &l), -EACCES,
	      "enumeration errors are returned");
out:
	fake_fini(&f);
}

/* Upstream: control nodes are virtual devices, paired by module id. */
static void test_virtual_control(void)
{
	struct gaudi_card_list *l;
	const struct gaudi_card *c;
	struct gaudi_dev *dev;
	struct fake f;

	fake_init(&f);
	fake_add_node(&f, "accel0", "0000:02:00.0", "habanalabs", 1);
	fake_add_node(&f, "accel1", "0000:01:00.0", "habanalabs", 0);
	fake_add_node(&f, "accel_controlD0", NULL, NULL, 1);
	fake_add_node(&f, "accel_controlD1", NULL, NULL, 0);
	fake_add_node(&f, "accel_controlD2", NULL, NULL, 6);	/* no card */
	f.nodes[0].vendor = GAUDI_PCI_VENDOR;
	if (ok_eq(gaudi__cards_scan_sys(&f.sys, &l), 2,
		  "2 cards, 3 virtual control nodes")) {
		c = gaudi_cards_get(l, 0);
		ok(gaudi_card_accel_index(c) == 1 &&
		   gaudi_card_control_index(c) == 1 &&
		   !strcmp(gaudi_card_control_node(c),
			   "/dev/accel/accel_controlD1"),
		   "0000:01:00.0 (module 0): accel1 + controlD1");
		c = gaudi_cards_get(l, 1);
		ok(gaudi_card_accel_index(c) == 0 &&
		   gaudi_card_control_index(c) == 0,
		   "0000:02:00.0 (module 1): accel0 + controlD0");
		ok_eq(f.virt_queries, 3, "each virtual node asked once");
		gaudi_cards_free(l);
	}
	ok_eq(gaudi__open_pci_sys(&f.sys, "01:00.0", GAUDI_OPEN_CONTROL, &dev),
	      0, "open its control node by bus id");
	if (dev) {
		ok(!strcmp(f.last_open, "/dev/accel/accel_controlD1"),
		   "accel_controlD1 opened");
		gaudi_close(dev);
	}
	f.virt_err = -EACCES;
	if (ok_eq(gaudi__cards_scan_sys(&f.sys, &l), 2,
		  "control nodes not readable: cards still listed")) {
		ok(gaudi_card_control_node(gaudi_cards_get(l, 0)) == NULL,
		   "without a control node");
		gaudi_cards_free(l);
	}
	ok_eq(gaudi__open_sys(&f.sys, 1, GAUDI_OPEN_CONTROL, &dev), -ENOENT,
	      "then opening it: -ENOENT");
	fake_fini(&f);
}

static void test_accounting(struct fake *f, struct gaudi_dev *dev)
{
	struct gaudi_acct *r = calloc(200, sizeof(*r));
	unsigned int max = 0;

	if (!r)
		return;
	f->acct_n = 3;
	ok_eq(gaudi_accounting(dev, NULL, 0, &max), 3,
	      "accounting: n 0 tells how many");
	ok_eq(max, 64, "accounting: max_kept copied");
	ok_eq(gaudi_accounting(dev, NULL, 2, NULL), -EINVAL,
	      "accounting: no buffer: -EINVAL");
	ok_eq(gaudi_accounting(dev, r, 2, NULL), 2, "accounting: room for 2");
	ok(r[0].id == 2 && r[1].id == 3 &&
	   (r[1].flags & GAUDI_ACCT_F_RUNNING) &&
	   !(r[0].flags & GAUDI_ACCT_F_RUNNING),
	   "the newest two, oldest first, the running one last");
	ok(r[1].pid == 1003 && r[1].uid == 7 && strlen(r[1].comm) == 15 &&
	   r[1].busy_ns[GAUDI_CLASS_DMA] == 30 &&
	   r[1].busy_ns[GAUDI_CLASS_TPC] == 90 &&
	   r[1].busy_ns[GAUDI_CLASS_MME] == 0 && r[1].cs_submitted == 3 &&
	   r[1].peak_hbm_bytes == 3 << 20 && r[1].peak_host_bytes == 3 << 12 &&
	   r[1].energy_uj == 15 && r[1].wall_ns == 3000,
	   "fields copied, comm terminated");
	{
		char (*cg)[GAUDI_ACCT_CGROUP_MAX] = calloc(3, sizeof(*cg));

		ok_eq(gaudi_accounting_cgroups(dev, r, NULL, 2, NULL), -EINVAL,
		      "accounting_cgroups: no room for the paths: -EINVAL");
		ok(cg && gaudi_accounting_cgroups(dev, r, cg, 3, NULL) == 3 &&
		   !strcmp(cg[1], "/job2.slice") &&
		   !strcmp(cg[2], "/job3.slice") &&
		   strlen(cg[0]) == GAUDI_ACCT_CGROUP_MAX - 1 && r[2].id == 3,
		   "accounting_cgroups: each record's cgroup, an unterminated one cut");
		free(cg);
	}
	f->acct_n = 150;
	ok_eq(gaudi_accounting(dev, r, 200, NULL), 150,
	      "150 records: past the batch, all of them");
	ok(r[0].id == 1 && r[149].id == 150, "in order");
	f->acct_n = 0;
	ok_eq(gaudi_accounting(dev, r, 200, NULL), 0, "none: 0");
	free(r);
}

static void test_open(void)
{
	struct gaudi_dev *dev = NULL;
	struct gaudi_owner own;
	struct gaudi_caps caps;
	struct fake f;

	fake_init(&f);
	fake_add_cards(&f, 4, "gaudi");

	ok_eq(gaudi__open_sys(&f.sys, 2, 0, &dev), 0, "open index 2");
	if (dev) {
		ok(!strcmp(f.last_open, "/dev/accel/accel2") &&
		   (f.last_open_flags & O_ACCMODE) == O_RDWR,
		   "opened /dev/accel/accel2 read-write");
		ok(!gaudi_is_control(dev), "compute node");
		ok_eq(gaudi_driver(dev), GAUDI_DRIVER_GAUDI,
		      "drmGetVersion \"gaudi\": GAUDI_DRIVER_GAUDI");
		ok(!strcmp(gaudi_pci_bus_id(dev), "0000:03:00.0"), "bus id");
		ok_eq(gaudi_fd(dev), FAKE_FD_BASE + 4, "fd of the node");
		ok_eq(gaudi_query_caps(dev, &caps), 0, "caps on gaudi.ko");
		ok(caps.abi_major == 1 && (caps.caps & GAUDI_CAPS_OWNER),
		   "ABI 1.x with GAUDI_CAPS_OWNER");
		ok_eq(gaudi_owner(dev, &own), 0, "owner");
		ok(own.state == GAUDI_OWNER_STATE_HELD && own.pid == 4242 &&
		   own.uid == 1000 && own.open_counter == 33,
		   "owner fields copied");
		ok(strlen(own.comm) == 15, "unterminated comm is terminated");
		test_accounting(&f, dev);
		gaudi_close(dev);
		ok_eq(f.close_count, 1, "close closes the fd");
	}
	ok_eq(gaudi__open_sys(&f.sys, 9, 0, &dev), -ENOENT,
	      "open index 9 of 4: -ENOENT");
	ok_eq(gaudi__open_sys(&f.sys, 0, 0x10, &dev), -EINVAL,
	      "unknown flags: -EINVAL");

	ok_eq(gaudi__open_pci_sys(&f.sys, "04:00.0", GAUDI_OPEN_CONTROL, &dev),
	      0, "open control node by short bus id 04:00.0");
	if (dev) {
		ok(!strcmp(f.last_open, "/dev/accel/accel_controlD3"),
		   "opened accel_controlD3");
		ok(gaudi_is_control(dev), "control node");
		ok_eq(gaudi_driver(dev), GAUDI_DRIVER_GAUDI,
		      "control node: driver from sysfs");
		ok_eq(gaudi_cb_create(dev, 4096, &(struct gaudi_cb *){ NULL }),
		      -ENOTTY, "CB create on a control node: -ENOTTY");
		gaudi_close(dev);
	}
	ok_eq(gaudi__open_pci_sys(&f.sys, "0000:0A:00.0", 0, &dev), -ENOENT,
	      "unknown bus id: -ENOENT");
	ok_eq(gaudi__open_pci_sys(&f.sys, "0000:01:00.0", 0, &dev), 0,
	      "full bus id, upper case hex accepted");
	gaudi_close(dev);
	ok_eq(gaudi__open_pci_sys(&f.sys, "garbage", 0, &dev), -EINVAL,
	      "malformed bus id: -EINVAL");
	ok_eq(gaudi__open_pci_sys(&f.sys, "0000:01:00.0x", 0, &dev), -EINVAL,
	      "trailing junk: -EINVAL");
	ok_eq(gaudi__open_pci_sys(&f.sys, NULL, 0, &dev), -EINVAL,
	      "NULL bus id: -EINVAL");

	ok_eq(gaudi__open_module_sys(&f.sys, 3, 0, &dev), 0, "open module 3");
	if (dev) {
		ok(!strcmp(f.last_open, "/dev/accel/accel3"),
		   "module 3 = accel3");
		gaudi_close(dev);
	}
	ok_eq(gaudi__open_module_sys(&f.sys, 7, 0, &dev), -ENOENT,
	      "module 7 absent: -ENOENT");

	f.open_err = -EBUSY;
	ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), -EBUSY,
	      "compute node held elsewhere: -EBUSY");
	ok_eq(gaudi__open_sys(&f.sys, 0, GAUDI_OPEN_CONTROL, &dev), 0,
	      "the control node opens while the compute node is held");
	if (dev) {
		ok_eq(gaudi_owner(dev, &own), 0,
		      "and tells who holds the card");
		gaudi_close(dev);
	}
	fake_fini(&f);
}

static void test_upstream(void)
{
	struct gaudi_dev *dev;
	struct gaudi_owner own;
	struct gaudi_caps caps;
	struct fake f;

	fake_init(&f);
	fake_add_cards(&f, 1, "habanalabs");
	f.drm_name = "habanalabs";
	f.has_caps = false;
	if (ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), 0, "open on upstream")) {
		ok_eq(gaudi_driver(dev), GAUDI_DRIVER_HABANALABS,
		      "drmGetVersion \"habanalabs\"");
		ok(!strcmp(gaudi_driver_name(dev), "habanalabs"), "name");
		ok_eq(gaudi_query_caps(dev, &caps), -EOPNOTSUPP,
		      "no capability query (EINVAL): -EOPNOTSUPP");
		ok_eq(gaudi_owner(dev, &own), -EOPNOTSUPP,
		      "no owner query: -EOPNOTSUPP, no ioctl sent");
		gaudi_close(dev);
	}
	if (ok_eq(gaudi__open_sys(&f.sys, 0, GAUDI_OPEN_CONTROL, &dev), 0,
		  "control node on upstream")) {
		ok_eq(gaudi_query_caps(dev, &caps), -EOPNOTSUPP,
		      "ENOTTY on its control node: -EOPNOTSUPP");
		ok_eq(gaudi_driver(dev), GAUDI_DRIVER_HABANALABS,
		      "driver from sysfs");
		gaudi_close(dev);
	}
	/* drmGetVersion failing: the sysfs name stays. */
	f.drm_name = NULL;
	if (ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), 0, "open")) {
		ok_eq(gaudi_driver(dev), GAUDI_DRIVER_HABANALABS,
		      "no DRM version: the driver from sysfs");
		gaudi_close(dev);
	}
	fake_fini(&f);
}

static void test_check_driver(void)
{
	struct gaudi_dev *dev;
	struct fake f;

	fake_init(&f);
	ok_eq(gaudi__check_driver_sys(&f.sys), -ENODEV,
	      "no PCI function: -ENODEV");
	ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), -ENODEV,
	      "open says the same");
	f.pci_count = 8;
	ok_eq(gaudi__check_driver_sys(&f.sys), -ENOPKG,
	      "PCI functions, no module loaded: -ENOPKG");
	ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), -ENOPKG,
	      "open: -ENOPKG");
	ok_eq(gaudi__driver_loaded_sys(&f.sys, "gaudi"), 0, "gaudi not loaded");
	f.gaudi_loaded = true;	/* modprobe gaudi */
	ok_eq(gaudi__driver_loaded_sys(&f.sys, "gaudi"), 1, "gaudi loaded");
	ok_eq(gaudi__driver_loaded_sys(&f.sys, ""), -EINVAL, "empty name");
	ok_eq(gaudi__check_driver_sys(&f.sys), -ENXIO,
	      "module loaded, no node: -ENXIO");
	fake_add_cards(&f, 1, "gaudi");
	ok_eq(gaudi__check_driver_sys(&f.sys), 0, "a node: 0");
	fake_fini(&f);
}

static void test_strerror(void)
{
	ok(strstr(gaudi_strerror(-ENOPKG), "not loaded") != NULL,
	   "-ENOPKG: driver not loaded");
	ok(strstr(gaudi_strerror(-ENODEV), "no Gaudi device") != NULL,
	   "-ENODEV: no device");
	ok(!strcmp(gaudi_strerror(ENOSPC), gaudi_strerror(-ENOSPC)),
	   "positive codes are accepted");
	ok(!strcmp(gaudi_strerror(-EMLINK), strerror(EMLINK)),
	   "other codes: strerror()");
	ok(gaudi_strerror(-100000) != NULL && gaudi_strerror(0) != NULL,
	   "never NULL");
	ok(!strcmp(gaudi_version(), GAUDI_LIB_VERSION),
	   "version %s (the tree's VERSION)", gaudi_version());
}

int main(void)
{
	test_scan();
	test_virtual_control();
	test_open();
	test_upstream();
	test_check_driver();
	test_strerror();
	return tap_done();
}
