// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_ib.ko through libibverbs and the project's provider (issue 25):
 *
 *   gaudi_ib_test CARDS PORTS
 *
 * CARDS devices named gaudi_<N>, each a Gaudi 1 card (PCI device 0x1000,
 * its PCI function the device's parent) with PORTS RoCE ports; the device
 * and port attributes verbs programs rely on, the P_Key table, bad port
 * and index numbers refused; a user context holds the card (the provider
 * takes it through the compute node: the sysfs owner is this process, the
 * compute node and the card's verbs device are busy for another process);
 * a process holding the card through its own compute-node handle joins it
 * with a context, which keeps the card after that handle closed; the card
 * free again when the last handle closes; protection domains;
 * ALLOC_UCONTEXT without holding the card refused (EPERM), with reserved
 * bits in its driver data refused (EINVAL).  TAP, "N passed, N failed".
 *
 *   gaudi_ib_test hold DEVICE
 *
 * Opens DEVICE with a protection domain, prints "held", waits for the end
 * of its standard input (the suite unloads gaudi_ib.ko meanwhile), then
 * closes; exit status 0 when the close succeeds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include "rdma/gaudi_ib_abi.h"
#include "tap.h"

static int read_int(const char *fmt, const char *arg)
{
	char path[512], buf[64] = "";
	int fd, n;

	snprintf(path, sizeof(path), fmt, arg);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/* The PCI address of a device's parent ("0000:01:00.0"), or "". */
static void dev_pci(struct ibv_device *d, char *bdf, size_t len)
{
	char path[512], link[512];
	ssize_t n;
	const char *b;

	snprintf(path, sizeof(path), "%s/device", d->ibdev_path);
	n = readlink(path, link, sizeof(link) - 1);
	bdf[0] = 0;
	if (n <= 0)
		return;
	link[n] = 0;
	b = strrchr(link, '/');
	b = b ? b + 1 : link;
	if (strlen(b) < len)
		memcpy(bdf, b, strlen(b) + 1);
}

/* The card's holder (sysfs owner/pid), 0 if none. */
static int owner_pid(const char *bdf)
{
	return read_int("/sys/bus/pci/devices/%s/owner/pid", bdf);
}

/* The accel minor of a card (its compute node /dev/accel/accel<N>). */
static int accel_minor(const char *bdf)
{
	char path[512];
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/accel/accel%d", bdf, i);
		if (access(path, F_OK) == 0)
			return i;
	}
	return -1;
}

static int open_accel(int minor)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
	return open(path, O_RDWR | O_CLOEXEC);
}

/*
 * In a child process (another thread group): 0 if @what succeeds, else
 * its errno.  what 0: open the verbs device, 1: open the compute node.
 */
static int child_try(struct ibv_device *d, int minor, int what)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (what == 0) {
			struct ibv_context *c = ibv_open_device(d);

			_exit(c ? 0 : (errno ? errno : 255));
		} else {
			int fd = open_accel(minor);

			_exit(fd >= 0 ? 0 : errno);
		}
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* GET_CONTEXT written by hand with driver data @drv of @len bytes. */
static int raw_get_context(struct ibv_device *d, const void *drv, size_t len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_get_context core;
		uint8_t drv[32];
	} cmd;
	struct {
		struct ib_uverbs_get_context_resp core;
		struct gaudi_ib_alloc_ucontext_resp drv;
	} resp;
	char path[128];
	int fd, ret = 0;
	size_t in = sizeof(cmd.hdr) + sizeof(cmd.core) + len;

	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0, sizeof(resp));
	memcpy(cmd.drv, drv, len);
	snprintf(path, sizeof(path), "/dev/infiniband/%s", d->dev_name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	cmd.hdr.command = IB_USER_VERBS_CMD_GET_CONTEXT;
	cmd.hdr.in_words = in / 4;
	cmd.hdr.out_words = sizeof(resp) / 4;
	cmd.core.response = (uintptr_t)&resp;
	if (write(fd, &cmd, in) != (ssize_t)in)
		ret = -errno;
	close(fd);
	return ret;
}

static void test_device(struct ibv_device *d, int ports)
{
	struct ibv_device_attr a;
	struct ibv_port_attr pa;
	struct ibv_context *c;
	char bdf[64];
	int minor, fd, p, n, i, ret;
	uint16_t pkey;
	uint32_t vendor;
	uint8_t g[8];

	dev_pci(d, bdf, sizeof(bdf));
	minor = accel_minor(bdf);
	ok(!strncmp(ibv_get_device_name(d), "gaudi_", 6) && minor >= 0,
	   "%s: a Gaudi card's device (parent %s, accel%d)",
	   ibv_get_device_name(d), bdf, minor);
	ok_eq(read_int("/sys/bus/pci/devices/%s/device", bdf) >= 0, 1,
	      "%s: its parent is a PCI function", ibv_get_device_name(d));

	c = ibv_open_device(d);
	if (!ok(c != NULL, "%s: ibv_open_device (errno %d)",
		ibv_get_device_name(d), c ? 0 : errno))
		return;

	ret = ibv_query_device(c, &a);
	ok_eq(ret, 0, "ibv_query_device");
	ok_eq(a.vendor_part_id, 0x1000, "vendor_part_id: the PCI device ID");
	memcpy(g, &a.node_guid, 8);
	vendor = (uint32_t)(g[0] ^ 2) << 16 | g[1] << 8 | g[2];
	ok_eq(a.vendor_id, vendor,
	      "vendor_id: the OUI of the node GUID (the port MACs')");
	ok(g[3] == 0xff && g[4] == 0xfe, "node GUID: EUI-64 of a MAC");
	ok_eq(a.phys_port_cnt, ports, "phys_port_cnt: the enabled ports");
	ok(a.fw_ver[0] != 0, "fw_ver '%s'", a.fw_ver);
	ok_eq(a.max_pd, 1024, "max_pd");
	ok_eq(a.max_pkeys, 1, "max_pkeys");

	n = 0;
	for (p = 1; p <= ports; p++) {
		memset(&pa, 0, sizeof(pa));
		if (ibv_query_port(c, p, &pa) ||
		    pa.link_layer != IBV_LINK_LAYER_ETHERNET ||
		    pa.max_mtu != IBV_MTU_4096 || pa.pkey_tbl_len != 1 ||
		    pa.gid_tbl_len != 16 ||
		    (pa.state != IBV_PORT_ACTIVE && pa.state != IBV_PORT_DOWN))
			n++;
	}
	ok_eq(n, 0,
	      "every port: Ethernet, max MTU 4096, 1 P_Key, 16 GIDs, a state");
	ok(ibv_query_port(c, 0, &pa) != 0, "ibv_query_port(0) refused");
	ok(ibv_query_port(c, ports + 1, &pa) != 0, "ibv_query_port(%d) refused",
	   ports + 1);
	ok(ibv_query_pkey(c, 1, 0, &pkey) == 0 && pkey == 0xffff,
	   "P_Key 0 is the default full member key");
	ok(ibv_query_pkey(c, 1, 1, &pkey) != 0, "P_Key index 1 refused");

	/* The card's holding. */
	ok_eq(owner_pid(bdf), getpid(),
	      "the context holds the card (owner/pid)");
	ok_eq(child_try(d, minor, 0), EBUSY,
	      "another process: its verbs context is refused (EBUSY)");
	ok_eq(child_try(d, minor, 1), EBUSY,
	      "another process: the compute node is busy (EBUSY)");
	fd = open_accel(minor);
	ok(fd < 0 && errno == EBUSY,
	   "the provider holds the compute node for the context: another "
	   "open of this process, EBUSY");
	if (fd >= 0)
		close(fd);

	/* Protection domains. */
	{
		struct ibv_pd *pd[3];
		int good = 0;

		for (i = 0; i < 3; i++)
			pd[i] = ibv_alloc_pd(c);
		if (pd[0] && pd[1] && pd[2] && pd[0]->handle != pd[1]->handle &&
		    pd[1]->handle != pd[2]->handle)
			good = 1;
		ok(good, "three protection domains");
		ret = 0;
		for (i = 0; i < 3; i++)
			if (pd[i] && ibv_dealloc_pd(pd[i]))
				ret++;
		ok_eq(ret, 0, "deallocated");
	}

	ok_eq(ibv_close_device(c), 0, "ibv_close_device");
	ok_eq(owner_pid(bdf), 0, "last handle closed: the card is free");

	/* The other order: the compute node first, then a context. */
	fd = open_accel(minor);
	c = fd >= 0 ? ibv_open_device(d) : NULL;
	ok(fd >= 0 && c, "compute node, then a context: joins (errno %d)",
	   c ? 0 : errno);
	ok_eq(child_try(d, minor, 0), EBUSY,
	      "another process's context: EBUSY");
	if (fd >= 0)
		close(fd);
	ok_eq(owner_pid(bdf), getpid(),
	      "compute node closed: the context still holds the card");
	ok_eq(child_try(d, minor, 1), EBUSY,
	      "and the compute node is still busy for another process");
	if (c)
		ibv_close_device(c);
	ok_eq(owner_pid(bdf), 0, "both closed: free");

	/* ALLOC_UCONTEXT's driver data with reserved bits. */
	{
		struct gaudi_ib_alloc_ucontext_req req = {0};
		uint32_t words[4] = {0, 0, 0, 1};

		ok_eq(raw_get_context(d, &req, sizeof(req)), -EPERM,
		      "GET_CONTEXT by a process that does not hold the card: "
		      "EPERM (the uverbs node is no door to the card)");
		ok_eq(owner_pid(bdf), 0, "and the card stays free");
		fd = open_accel(minor);
		ok(fd >= 0, "the compute node opened");
		ok_eq(raw_get_context(d, &req, sizeof(req)), 0,
		      "GET_CONTEXT with zeroed driver data");
		req.comp_mask = 1;
		ok_eq(raw_get_context(d, &req, sizeof(req)), -EINVAL,
		      "GET_CONTEXT with comp_mask set: EINVAL");
		req.comp_mask = 0;
		req.reserved = 1;
		ok_eq(raw_get_context(d, &req, sizeof(req)), -EINVAL,
		      "GET_CONTEXT with reserved set: EINVAL");
		ok_eq(raw_get_context(d, words, sizeof(words)), -EINVAL,
		      "GET_CONTEXT with longer, non-zero driver data: EINVAL");
		if (fd >= 0)
			close(fd);
		ok_eq(owner_pid(bdf), 0, "the refused contexts hold nothing");
	}
}

static int hold(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *c = NULL;
	struct ibv_pd *pd;
	char buf[64];
	int n, i;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !c; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			c = ibv_open_device(list[i]);
	if (!c) {
		fprintf(stderr, "hold: cannot open %s\n", name);
		return 1;
	}
	pd = ibv_alloc_pd(c);
	printf("%s\n", pd ? "held" : "no pd");
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	/* The device went away meanwhile: the PD is gone with it. */
	if (pd && ibv_dealloc_pd(pd))
		printf("dealloc_pd after the removal: %s\n", strerror(errno));
	i = ibv_close_device(c);
	ibv_free_device_list(list);
	printf("closed: %d\n", i);
	return i ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	int cards, ports, n, i, found = 0;

	if (argc == 3 && !strcmp(argv[1], "hold"))
		return hold(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: gaudi_ib_test CARDS PORTS\n");
		return 2;
	}
	cards = atoi(argv[1]);
	ports = atoi(argv[2]);
	list = ibv_get_device_list(&n);
	ok(list != NULL, "ibv_get_device_list (errno %d)", list ? 0 : errno);
	if (!list) {
		tap_done();
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (strncmp(ibv_get_device_name(list[i]), "gaudi_", 6))
			continue;
		found++;
		test_device(list[i], ports);
	}
	ok_eq(found, cards, "one device per card");
	ibv_free_device_list(list);
	return tap_done();
}
