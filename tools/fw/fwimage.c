// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-fw: firmware image files.  The structural check, the digests, the
 * target and kind rules are the device model's own (firmware/fit/fit.c):
 * the tool refuses exactly what the device CPU would refuse, and says why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libfdt.h>

#include "fwimage.h"

static const char *const kind_files[] = {
	[FW_KIND_BOOT] = "gaudi-boot-fit.itb",
	[FW_KIND_MAIN] = "gaudi-fit.itb",
};

static const char *const kind_names[] = {
	[FW_KIND_BOOT] = "boot-fit",
	[FW_KIND_MAIN] = "fit",
};

const char *fw_kind_file(int kind)
{
	return kind == FW_KIND_MAIN ? kind_files[FW_KIND_MAIN] :
				      kind_files[FW_KIND_BOOT];
}

const char *fw_kind_str(int kind)
{
	return kind == FW_KIND_MAIN ? kind_names[FW_KIND_MAIN] :
				      kind_names[FW_KIND_BOOT];
}

int fw_kind_parse(const char *s)
{
	if (!strcmp(s, "boot-fit") || !strcmp(s, "boot"))
		return FW_KIND_BOOT;
	if (!strcmp(s, "fit") || !strcmp(s, "main"))
		return FW_KIND_MAIN;
	if (!strcmp(s, "any"))
		return FW_KIND_ANY;
	return -2;
}

int fw_kind_from_name(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!strcmp(base, kind_files[FW_KIND_BOOT]))
		return FW_KIND_BOOT;
	if (!strcmp(base, kind_files[FW_KIND_MAIN]))
		return FW_KIND_MAIN;
	return FW_KIND_ANY;
}

int fw_check_exit(int err)
{
	return err ? FW_EXIT_IMAGE + err : FW_EXIT_OK;
}

const char *fw_err_str(int err)
{
	return err == FW_ESIZE ? "bad size" : gaudi_fit_strerror(err);
}

int fw_read_file(const char *path, uint8_t **buf, size_t *len)
{
	size_t cap = FW_FILE_MAX + 1, n = 0;
	uint8_t *p;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = malloc(cap);
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	while (n < cap) {
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			free(p);
			close(fd);
			return r;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	*buf = p;
	*len = n;
	return 0;
}

/* "hl205, gaudi" from the root's gaudi,target string list. */
static void list_targets(const void *fdt, char *out, size_t outlen)
{
	const char *p;
	int len, i, n;

	out[0] = '\0';
	p = fdt_getprop(fdt, 0, "gaudi,target", &len);
	if (!p || len <= 0)
		return;
	n = fdt_stringlist_count(fdt, 0, "gaudi,target");
	for (i = 0; i < n; i++) {
		const char *s = fdt_stringlist_get(fdt, 0, "gaudi,target", i,
						   NULL);
		size_t used = strlen(out);

		if (s)
			snprintf(out + used, outlen - used, "%s%s",
				 i ? ", " : "", s);
	}
}

/* "boot-loader (sha256, crc32)" for every image under /images. */
static void list_images(const void *fdt, char *out, size_t outlen)
{
	int images = fdt_path_offset(fdt, "/images"), img, h;
	size_t used;

	out[0] = '\0';
	if (images < 0)
		return;
	fdt_for_each_subnode(img, fdt, images) {
		int nh = 0;

		used = strlen(out);
		snprintf(out + used, outlen - used, "%s%s (", used ? "; " : "",
			 fdt_get_name(fdt, img, NULL));
		fdt_for_each_subnode(h, fdt, img) {
			const char *algo = fdt_getprop(fdt, h, "algo", NULL);

			if (strncmp(fdt_get_name(fdt, h, NULL), "hash", 4))
				continue;
			used = strlen(out);
			snprintf(out + used, outlen - used, "%s%s",
				 nh++ ? ", " : "", algo ? algo : "?");
		}
		used = strlen(out);
		snprintf(out + used, outlen - used, ")");
	}
}

/* The kind the image claims, if its header is sound enough to ask. */
static int claimed_kind(const uint8_t *buf, size_t len)
{
	const char *k;
	int klen;

	if (len < sizeof(struct fdt_header) || fdt_check_header(buf) ||
	    fdt_totalsize(buf) > len || fdt_check_full(buf, fdt_totalsize(buf)))
		return FW_KIND_BOOT;	/* the check reports the real fault */
	k = fdt_getprop(buf, 0, "gaudi,kind", &klen);
	if (!k || klen <= 0 || k[klen - 1])
		return FW_KIND_BOOT;
	if (!strcmp(k, "fit"))
		return FW_KIND_MAIN;
	return FW_KIND_BOOT;	/* "boot-fit", or a wrong kind: reported */
}

int fw_check_buf(const uint8_t *buf, size_t len, int want_kind,
		 struct fw_check *c)
{
	struct gaudi_fit_info *info;

	memset(c, 0, sizeof(*c));
	c->kind = want_kind == FW_KIND_ANY ? claimed_kind(buf, len) : want_kind;
	if (!len) {
		c->err = FW_ESIZE;
		snprintf(c->why, sizeof(c->why), "bad size: empty file");
		return c->err;
	}
	if (len > FW_FILE_MAX) {
		c->err = FW_ESIZE;
		snprintf(c->why, sizeof(c->why),
			 "bad size: more than %u bytes (the driver's limit)",
			 FW_FILE_MAX);
		return c->err;
	}
	info = malloc(sizeof(*info));
	if (!info) {
		c->err = GAUDI_FIT_ETRUNC;
		snprintf(c->why, sizeof(c->why), "out of memory");
		return c->err;
	}
	c->err = gaudi_fit_check(buf, len, c->kind, info, c->why,
				 sizeof(c->why));
	if (!c->err && len % 4) {
		c->err = FW_ESIZE;
		snprintf(c->why, sizeof(c->why),
			 "bad size: %zu bytes is not a multiple of 4", len);
	}
	if (!c->err) {
		snprintf(c->version, sizeof(c->version), "%s", info->version);
		snprintf(c->preboot, sizeof(c->preboot), "%s",
			 info->preboot_version);
		if (info->has_fw) {
			snprintf(c->kernel_version, sizeof(c->kernel_version),
				 "%s", info->fw.kernel_version);
			snprintf(c->cpucp_version, sizeof(c->cpucp_version),
				 "%s", info->fw.cpucp_version);
		}
		c->totalsize = fdt_totalsize(buf);
		list_targets(buf, c->targets, sizeof(c->targets));
		list_images(buf, c->images, sizeof(c->images));
	}
	free(info);
	return c->err;
}
