// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-fw's image check on corrupted copies of the real images (one
 * corruption per refusal reason, each with its own message), and atomic
 * install / rollback in a scratch directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libfdt.h>

#include "fwimage.h"
#include "fwinstall.h"
#include "tap.h"

static uint8_t *boot, *fit;
static size_t boot_len, fit_len;

static uint8_t *load(const char *name, size_t *len)
{
	char path[512];
	uint8_t *buf;

	snprintf(path, sizeof(path), "%s/%s", GAUDI_FW_DIR, name);
	if (fw_read_file(path, &buf, len)) {
		printf("Bail out! %s missing (make -C firmware)\n", path);
		exit(1);
	}
	return buf;
}

static uint8_t *copy(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len + 8);

	memcpy(p, src, len);
	return p;
}

/* Replace the first occurrence of old (olen bytes) with new, same length. */
static int patch(uint8_t *buf, size_t len, const void *old, const void *new,
		 size_t olen)
{
	uint8_t *p = memmem(buf, len, old, olen);

	if (!p)
		return -1;
	memcpy(p, new, olen);
	return 0;
}

/* Check buf, expect err and a message containing `words`. */
static void expect(const uint8_t *buf, size_t len, int kind, int err,
		   const char *words, const char *what)
{
	struct fw_check c;
	int got = fw_check_buf(buf, len, kind, &c);

	ok(got == err && strstr(c.why, words) != NULL,
	   "%s: %s (\"%s\")", what, fw_err_str(err), c.why);
	ok_eq(fw_check_exit(got), err ? FW_EXIT_IMAGE + err : 0,
	      "%s: exit code %d", what, err ? FW_EXIT_IMAGE + err : 0);
}

static void test_good(void)
{
	struct fw_check c;

	ok(!fw_check_buf(boot, boot_len, FW_KIND_ANY, &c) &&
	   c.kind == FW_KIND_BOOT && strstr(c.preboot, "Preboot version") &&
	   strstr(c.version, "hl-gaudi-open-fw-"),
	   "boot-fit: ok, kind, versions: %s", c.preboot);
	ok(!strcmp(c.targets, "hl205, gaudi") &&
	   !strcmp(c.images, "boot-loader (sha256, crc32)") &&
	   c.totalsize == boot_len,
	   "boot-fit: targets \"%s\", images \"%s\"", c.targets, c.images);
	ok(!fw_check_buf(fit, fit_len, FW_KIND_ANY, &c) &&
	   c.kind == FW_KIND_MAIN && strstr(c.cpucp_version, "cpucp") &&
	   c.kernel_version[0], "fit: ok, kind, cpucp \"%s\"", c.cpucp_version);
	ok(strstr(c.images, "fw-data (sha256, crc32)") != NULL,
	   "fit: images \"%s\"", c.images);
}

static void test_corruptions(void)
{
	const void *fdt;
	const uint8_t *data;
	uint8_t *b;
	int node, dlen;
	uint32_t off;

	b = copy(boot, boot_len);
	expect(b, 0, FW_KIND_ANY, FW_ESIZE, "empty", "empty file");
	expect(b, boot_len / 2 & ~3UL, FW_KIND_ANY, GAUDI_FIT_ETRUNC,
	       "totalsize", "truncated to half");
	expect(b, 20, FW_KIND_ANY, GAUDI_FIT_ETRUNC, "no header",
	       "truncated inside the header");
	b[0] ^= 0xFF;
	expect(b, boot_len, FW_KIND_ANY, GAUDI_FIT_EMAGIC, "magic", "bad magic");
	free(b);

	b = copy(boot, boot_len);
	fdt = b;
	node = fdt_path_offset(fdt, "/images/boot-loader");
	data = fdt_getprop(fdt, node, "data", &dlen);
	ok(data && dlen > 8, "found the boot-loader payload");
	b[(data - b) + dlen / 2] ^= 0x01;
	expect(b, boot_len, FW_KIND_ANY, GAUDI_FIT_EHASH,
	       "image boot-loader: sha256 digest differs",
	       "one payload bit flipped: hash mismatch names the image");
	free(b);

	b = copy(boot, boot_len);
	patch(b, boot_len, "sha256", "sha257", 7);
	expect(b, boot_len, FW_KIND_ANY, GAUDI_FIT_EALGO, "\"sha257\"",
	       "unknown hash algorithm");
	free(b);

	b = copy(boot, boot_len);
	patch(b, boot_len, "hl205\0gaudi", "hl206\0gaudx", 12);
	expect(b, boot_len, FW_KIND_ANY, GAUDI_FIT_ETARGET, "hl205",
	       "built for another device: wrong target");
	free(b);

	b = copy(boot, boot_len);
	expect(b, boot_len, FW_KIND_MAIN, GAUDI_FIT_EKIND, "expected fit",
	       "boot-fit where a fit belongs: wrong kind");
	patch(b, boot_len, "boot-fit", "boot-fix", 9);
	expect(b, boot_len, FW_KIND_ANY, GAUDI_FIT_EKIND, "expected boot-fit",
	       "unknown gaudi,kind: wrong kind");
	free(b);
	b = copy(fit, fit_len);
	expect(b, fit_len, FW_KIND_BOOT, GAUDI_FIT_EKIND, "expected boot-fit",
	       "fit where the boot-fit belongs: wrong kind");
	free(b);

	b = copy(boot, boot_len);
	patch(b, boot_len, "gaudi,preboot-version", "gaudi,preboot-versiom",
	      22);
	expect(b, boot_len, FW_KIND_ANY, GAUDI_FIT_ENODE,
	       "gaudi,preboot-version", "no preboot version: missing node");
	free(b);

	b = copy(boot, boot_len);
	off = fdt_off_dt_struct(b);
	b[off + 3] = 0x0A;	/* not an FDT token */
	expect(b, boot_len, FW_KIND_ANY, GAUDI_FIT_ESTRUCT, "malformed",
	       "bad structure token: malformed");
	free(b);

	b = copy(boot, boot_len);
	memset(b + boot_len, 0, 2);
	expect(b, boot_len + 2, FW_KIND_ANY, FW_ESIZE, "multiple of 4",
	       "size not a multiple of 4");
	free(b);
	b = calloc(1, FW_FILE_MAX + 4);
	memcpy(b, boot, boot_len);
	expect(b, FW_FILE_MAX + 4, FW_KIND_ANY, FW_ESIZE, "limit",
	       "above the driver's 20 MiB limit");
	free(b);

	ok_eq(fw_kind_from_name("/x/gaudi-boot-fit.itb"), FW_KIND_BOOT,
	      "the boot-fit file name implies its kind");
	ok_eq(fw_kind_from_name("gaudi-fit.itb"), FW_KIND_MAIN,
	      "the fit file name implies its kind");
	ok_eq(fw_kind_from_name("new.itb"), FW_KIND_ANY,
	      "another name: the image says");
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.' || strlen(e->d_name) > 2;
	if (d)
		closedir(d);
	return n;
}

static int same(const char *path, const uint8_t *buf, size_t len)
{
	uint8_t *p;
	size_t n;
	int r;

	if (fw_read_file(path, &p, &n))
		return 0;
	r = n == len && !memcmp(p, buf, len);
	free(p);
	return r;
}

static void test_install(void)
{
	char tmpl[] = "/tmp/gaudi-fw-test.XXXXXX", dir[600], path[700];
	char prev[720];
	uint8_t *v2 = copy(boot, boot_len);
	struct stat st;

	if (!mkdtemp(tmpl)) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	snprintf(dir, sizeof(dir), "%s/lib/firmware/habanalabs/gaudi", tmpl);
	snprintf(path, sizeof(path), "%s/gaudi-boot-fit.itb", dir);
	snprintf(prev, sizeof(prev), "%s.prev", path);
	v2[boot_len - 1] ^= 0x5A;	/* a different file for the test */

	ok(!fw_install(dir, "gaudi-boot-fit.itb", boot, boot_len) &&
	   same(path, boot, boot_len), "install creates the directory and file");
	ok(!stat(path, &st) && (st.st_mode & 0777) == 0644,
	   "installed file is 0644");
	ok(access(prev, F_OK) && count_entries(dir) == 1,
	   "first install: no .prev, no temporary left");
	ok(!fw_install(dir, "gaudi-boot-fit.itb", v2, boot_len) &&
	   same(path, v2, boot_len) && same(prev, boot, boot_len),
	   "second install: new file, the old one kept as .prev");
	ok_eq(count_entries(dir), 2, "exactly the file and its .prev");
	ok(!fw_rollback(dir, "gaudi-boot-fit.itb") && same(path, boot, boot_len) &&
	   same(prev, v2, boot_len), "rollback exchanges file and .prev");
	ok(!fw_rollback(dir, "gaudi-boot-fit.itb") && same(path, v2, boot_len),
	   "a second rollback undoes the first");
	ok_eq(fw_rollback(dir, "gaudi-fit.itb"), -ENOENT,
	      "rollback without .prev: ENOENT");
	unlink(path);
	ok(!fw_rollback(dir, "gaudi-boot-fit.itb") &&
	   same(path, boot, boot_len) && access(prev, F_OK),
	   "rollback with only .prev renames it back");
	chmod(dir, 0555);
	if (geteuid())
		ok(fw_install(dir, "gaudi-boot-fit.itb", v2, boot_len) ==
		   -EACCES && same(path, boot, boot_len),
		   "unwritable directory: EACCES, file untouched");
	chmod(dir, 0755);
	unlink(path);
	unlink(prev);
	rmdir(dir);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpl);
	if (system(path))
		tap_diag("cleanup failed");
	free(v2);
}

int main(void)
{
	boot = load("gaudi-boot-fit.itb", &boot_len);
	fit = load("gaudi-fit.itb", &fit_len);
	test_good();
	test_corruptions();
	test_install();
	free(boot);
	free(fit);
	return tap_done();
}
