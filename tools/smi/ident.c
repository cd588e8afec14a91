// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: a card's identity and place in the host, read from sysfs on
 * either driver:
 *
 * - serial: the "serial=" line of the card's EEPROM (the PCI device's
 *   eeprom attribute, which the device CPU fills: EEPROM_DATA_GET), as
 *   gaudi-open's firmware writes it (Documentation/firmware/format.rst);
 *   an EEPROM without that line leaves the serial unknown;
 * - uuid: a name-based UUID (RFC 9562 version 5, SHA-1) of "hl205:" and
 *   the serial in gaudi-open's namespace (IDENT_NS below), so the same card
 *   has the same UUID on every host, boot and driver, and two cards differ
 *   as their serials do; unknown without a serial;
 * - numa_node and local_cpulist of the PCI device (the kernel's, from the
 *   firmware's proximity domains); a host with one memory node reports -1,
 *   which means node 0 there;
 * - driver_version: the module's version attribute, else (a driver built
 *   into the kernel's release, such as Debian's habanalabs) the release of
 *   the running kernel.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <nettle/sha1.h>

#include "smi.h"

#define EEPROM_MAX	4096

/* gaudi-open's UUID namespace (a random version-4 UUID, fixed forever). */
static const uint8_t IDENT_NS[16] = {
	0x6c, 0x1f, 0x5e, 0x93, 0x2a, 0x4d, 0x4b, 0x0e,
	0x9d, 0x31, 0x7e, 0xa2, 0xc8, 0x05, 0x46, 0xb7,
};

/* The value of the "serial=" line of EEPROM text @e (@n bytes) into @out. */
int ident_eeprom_serial(const char *e, size_t n, char *out, size_t len)
{
	size_t i = 0;

	out[0] = '\0';
	while (i < n && e[i]) {
		size_t end = i;

		while (end < n && e[end] && e[end] != '\n')
			end++;
		if (end - i > 7 && !memcmp(e + i, "serial=", 7)) {
			size_t v = end - i - 7, k;

			if (!v || v >= len)
				return -1;
			for (k = 0; k < v; k++) {
				unsigned char ch = (unsigned char)e[i + 7 + k];

				if (ch < 0x21 || ch > 0x7e)
					return -1;	/* printable ASCII only */
			}
			memcpy(out, e + i + 7, v);
			out[v] = '\0';
			return 0;
		}
		i = end + 1;
	}
	return -1;
}

/* The version-5 UUID of @serial, as text (36 characters and a NUL). */
void ident_uuid(const char *serial, char out[IDENT_UUID_LEN])
{
	static const char prefix[] = "hl205:";
	struct sha1_ctx ctx;
	uint8_t d[SHA1_DIGEST_SIZE];

	sha1_init(&ctx);
	sha1_update(&ctx, sizeof(IDENT_NS), IDENT_NS);
	sha1_update(&ctx, sizeof(prefix) - 1, (const uint8_t *)prefix);
	sha1_update(&ctx, strlen(serial), (const uint8_t *)serial);
	sha1_digest(&ctx, sizeof(d), d);
	d[6] = (d[6] & 0x0f) | 0x50;	/* version 5 */
	d[8] = (d[8] & 0x3f) | 0x80;	/* variant RFC 9562 */
	snprintf(out, IDENT_UUID_LEN,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9],
		 d[10], d[11], d[12], d[13], d[14], d[15]);
}

/* Memory nodes of the host (node0, node1, ...), for numa_node -1. */
static int host_nodes(void)
{
	int n = 0;
	char p[64];

	while (n < 1024) {
		snprintf(p, sizeof(p), "%s/node%d", ident_node_dir, n);
		if (access(p, F_OK))
			break;
		n++;
	}
	return n;
}

const char *ident_node_dir = "/sys/devices/system/node";
const char *ident_module_dir = "/sys/module";

void ident_collect(struct card *c)
{
	char *e = malloc(EEPROM_MAX);
	char path[PATH_MAX];
	struct utsname u;
	ssize_t n = -1;
	int fd;

	c->serial[0] = c->uuid[0] = '\0';
	fd = openat(c->sysfd, "eeprom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && e) {
		n = read(fd, e, EEPROM_MAX);
		if (n > 0 && !ident_eeprom_serial(e, (size_t)n, c->serial,
						  sizeof(c->serial)))
			ident_uuid(c->serial, c->uuid);
	}
	if (fd >= 0)
		close(fd);
	free(e);

	c->numa_node = read_int_at(c->sysfd, "numa_node");
	if (c->numa_node == -1 && host_nodes() <= 1)
		c->numa_node = 0;
	else if (c->numa_node < 0)
		c->numa_node = NA;
	if (read_at(c->sysfd, "local_cpulist", c->cpulist, sizeof(c->cpulist)))
		c->cpulist[0] = '\0';

	c->drv_version[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s/version", ident_module_dir,
		 c->driver);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, c->drv_version, sizeof(c->drv_version) - 1);
		c->drv_version[n > 0 ? n : 0] = '\0';
		chomp(c->drv_version);
		close(fd);
	}
	if (!c->drv_version[0] && !uname(&u))
		snprintf(c->drv_version, sizeof(c->drv_version), "%.63s",
			 u.release);
}
