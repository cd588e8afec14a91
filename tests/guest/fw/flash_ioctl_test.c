// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DRM_IOCTL_GAUDI_FLASH, negative cases first: reserved fields, unknown
 * ops and flags, bad sizes and ranges, bad pointers, the busy rule at the
 * kernel (no tool in between), EPERM without CAP_SYS_ADMIN; then INFO,
 * a write/read round trip and ACTIVATE refusals on the inactive slot.
 *   flash_ioctl_test CONTROL_NODE COMPUTE_NODE
 * Run as root on a card whose flash may be scribbled on.  TAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/gaudi_accel.h>

#include "tap.h"

static int fl(int fd, struct drm_gaudi_flash *f)
{
	return ioctl(fd, DRM_IOCTL_GAUDI_FLASH, f) ? -errno : 0;
}

static struct drm_gaudi_flash op(uint32_t o, uint32_t off, uint32_t size,
				 void *data)
{
	struct drm_gaudi_flash f = { .op = o, .offset = off, .size = size,
				     .data = (uintptr_t)data };

	return f;
}

int main(int argc, char **argv)
{
	static uint8_t buf[1 << 20], back[1 << 20];
	struct drm_gaudi_flash_info fi;
	struct drm_gaudi_query_caps caps = {};
	struct drm_gaudi_flash f;
	uint32_t inactive, off;
	int fd, cfd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s CONTROL_NODE COMPUTE_NODE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		printf("Bail out! %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	ok(!ioctl(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, &caps) &&
	   (caps.caps & GAUDI_CAP_FLASH) && caps.abi_minor >= 1,
	   "QUERY_CAPS: GAUDI_CAP_FLASH, ABI 1.%u", caps.abi_minor);
	ok_eq(sizeof(struct drm_gaudi_flash), 80, "struct drm_gaudi_flash: 80 bytes");
	ok_eq(sizeof(struct drm_gaudi_flash_info), 512, "flash_info: 512 bytes");

	/* Reserved and unknown bits. */
	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), &fi);
	f.pad = 1;
	ok_eq(fl(fd, &f), -EINVAL, "pad set: EINVAL");
	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), &fi);
	f.reserved[3] = 1;
	ok_eq(fl(fd, &f), -EINVAL, "reserved[3] set: EINVAL");
	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), &fi);
	f.flags = 2;
	ok_eq(fl(fd, &f), -EINVAL, "unknown flag: EINVAL");
	f = op(5, 0, sizeof(fi), &fi);
	ok_eq(fl(fd, &f), -EINVAL, "unknown op 5: EINVAL");
	f = op(GAUDI_FLASH_OP_INFO, 0, 0, &fi);
	ok_eq(fl(fd, &f), -EINVAL, "INFO into a zero-size buffer: EINVAL");
	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), (void *)16);
	ok_eq(fl(fd, &f), -EFAULT, "INFO to a bad pointer: EFAULT");

	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), &fi);
	ok(!fl(fd, &f) && f.result == sizeof(fi) && fi.version == 1 &&
	   fi.nr_slots == 2 && fi.erase_size == 65536 &&
	   fi.flash_size == 64 << 20, "INFO: version 1, 2 slots, 64 KiB sectors");
	inactive = fi.next_slot == 0 ? 1 : 0;
	off = fi.slot_offset[inactive];
	tap_diag("next slot %u, writing slot %u at 0x%x", fi.next_slot,
		 inactive, off);

	f = op(GAUDI_FLASH_OP_READ, 0, GAUDI_FLASH_XFER_MAX + 1, buf);
	ok_eq(fl(fd, &f), -EINVAL, "READ of more than 1 MiB: EINVAL");
	f = op(GAUDI_FLASH_OP_READ, (64 << 20) - 8, 16, buf);
	ok_eq(fl(fd, &f), -EINVAL, "READ beyond the window: EINVAL");
	f = op(GAUDI_FLASH_OP_READ, 0, 0, buf);
	ok_eq(fl(fd, &f), -EINVAL, "READ of 0 bytes: EINVAL");
	f = op(GAUDI_FLASH_OP_READ, 0, 4096, (void *)16);
	ok_eq(fl(fd, &f), -EFAULT, "READ to a bad pointer: EFAULT");
	f = op(GAUDI_FLASH_OP_ERASE, off + 4096, 65536, NULL);
	ok_eq(fl(fd, &f), -EINVAL, "ERASE not on a sector: EINVAL");
	f = op(GAUDI_FLASH_OP_ERASE, fi.record_offset[0], 65536, NULL);
	ok_eq(fl(fd, &f), -EIO, "ERASE of a record sector: refused by the device (EIO)");
	f = op(GAUDI_FLASH_OP_WRITE, fi.record_offset[1], 64, buf);
	ok_eq(fl(fd, &f), -EIO, "WRITE into a record sector: refused (EIO)");
	f = op(GAUDI_FLASH_OP_ACTIVATE, 2, 4096, NULL);
	ok_eq(fl(fd, &f), -EINVAL, "ACTIVATE slot 2: EINVAL");

	/* The busy rule, at the kernel. */
	cfd = open(argv[2], O_RDWR);
	ok(cfd >= 0, "hold the compute node %s", argv[2]);
	f = op(GAUDI_FLASH_OP_ERASE, off, 65536, NULL);
	ok_eq(fl(fd, &f), -EBUSY, "ERASE while the compute node is held: EBUSY");
	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), &fi);
	ok_eq(fl(fd, &f), 0, "INFO while held: allowed");
	f = op(GAUDI_FLASH_OP_ERASE, off, 65536, NULL);
	f.flags = GAUDI_FLASH_FORCE;
	ok_eq(fl(fd, &f), 0, "ERASE with GAUDI_FLASH_FORCE while held: allowed");
	ok_eq(fl(cfd, &f), 0, "the compute node serves FLASH too");
	close(cfd);

	/* A round trip and NOR semantics on the inactive slot. */
	memset(buf, 0xA5, 65536);
	f = op(GAUDI_FLASH_OP_WRITE, off, 65536, buf);
	ok(!fl(fd, &f) && f.result == 65536, "WRITE 64 KiB into the erased sector");
	f = op(GAUDI_FLASH_OP_READ, off, 65536, back);
	ok(!fl(fd, &f) && !memcmp(back, buf, 65536), "READ returns it");
	memset(buf, 0x5A, 16);
	f = op(GAUDI_FLASH_OP_WRITE, off, 16, buf);
	ok(fl(fd, &f) == -EIO && f.status == GAUDI_FLASH_STATUS_NOT_ERASED,
	   "WRITE over programmed bits: EIO, status NOT_ERASED");
	f = op(GAUDI_FLASH_OP_ACTIVATE, inactive, 65536, NULL);
	ok(fl(fd, &f) == -ENOEXEC && f.status == GAUDI_FLASH_STATUS_BAD_IMAGE &&
	   f.detail == 1, "ACTIVATE a slot without an image: ENOEXEC, bad magic");
	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), &fi);
	ok(!fl(fd, &f) && fi.next_slot != inactive,
	   "the refused ACTIVATE changed nothing");

	/* Without CAP_SYS_ADMIN. */
	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)) {
		printf("Bail out! cannot drop privileges\n");
		return 1;
	}
	f = op(GAUDI_FLASH_OP_INFO, 0, sizeof(fi), &fi);
	ok_eq(fl(fd, &f), 0, "unprivileged INFO: allowed");
	f = op(GAUDI_FLASH_OP_READ, 0, 4096, buf);
	ok_eq(fl(fd, &f), -EPERM, "unprivileged READ: EPERM");
	f = op(GAUDI_FLASH_OP_ERASE, off, 65536, NULL);
	f.flags = GAUDI_FLASH_FORCE;
	ok_eq(fl(fd, &f), -EPERM, "unprivileged ERASE, even forced: EPERM");
	f = op(GAUDI_FLASH_OP_ACTIVATE, inactive, 4096, NULL);
	ok_eq(fl(fd, &f), -EPERM, "unprivileged ACTIVATE: EPERM");
	close(fd);
	return tap_done();
}
