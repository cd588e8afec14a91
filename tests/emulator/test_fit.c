// SPDX-License-Identifier: GPL-2.0-or-later
/* The FIT check: good images, and each kind of bad one with its reason. */
#include <string.h>

#include <glib.h>
#include <libfdt.h>

#include "fwboot.h"
#include "tap.h"

#define ROOM 0x20000

static uint8_t *boot_img, *main_img;
static size_t boot_len, main_len;
static struct gaudi_fit_info info;
static char why[160];
static char reasons[16][160];
static unsigned int nr_reasons;

/* A writable copy of an image with room to grow. */
static uint8_t *copy_of(const uint8_t *img)
{
	uint8_t *b = malloc(ROOM);

	if (!b || fdt_open_into(img, b, ROOM))
		abort();
	return b;
}

/* Recompute every image's digests, as mkimage would after an edit. */
static void rehash(uint8_t *fit)
{
	int images = fdt_path_offset(fit, "/images"), img, h;

	fdt_for_each_subnode(img, fit, images) {
		int dlen;
		const void *data = fdt_getprop(fit, img, "data", &dlen);

		fdt_for_each_subnode(h, fit, img) {
			const char *algo = fdt_getprop(fit, h, "algo", NULL);
			uint8_t d[32];
			gsize n = sizeof(d);

			if (!algo)
				continue;
			if (!strcmp(algo, "crc32")) {
				uint32_t c = gaudi_crc32(0, data, dlen);

				d[0] = c >> 24;
				d[1] = c >> 16;
				d[2] = c >> 8;
				d[3] = c;
				n = 4;
			} else {
				GChecksum *s;

				s = g_checksum_new(G_CHECKSUM_SHA256);

				g_checksum_update(s, data, dlen);
				g_checksum_get_digest(s, d, &n);
				g_checksum_free(s);
			}
			fdt_setprop_inplace(fit, h, "value", d, n);
		}
	}
}

static enum gaudi_fit_err check(const uint8_t *img, size_t len,
				enum gaudi_fit_kind kind)
{
	return gaudi_fit_check(img, len, kind, &info, why, sizeof(why));
}

/* Expect err, and remember the reason to compare with the others. */
static void expect(enum gaudi_fit_err got, enum gaudi_fit_err want,
		   const char *what)
{
	ok_eq(got, want, "%s: %s (%s)", what, gaudi_fit_strerror(want), why);
	if (nr_reasons < GAUDI_ARRAY_SIZE(reasons))
		snprintf(reasons[nr_reasons++], sizeof(reasons[0]), "%s",
			 why);
}

static void test_good(void)
{
	ok_eq(gaudi_crc32(0, "123456789", 9), 0xCBF43926, "CRC-32 check value");
	ok_eq(check(boot_img, boot_len, GAUDI_FIT_BOOT), GAUDI_FIT_OK,
	      "boot-fit accepted");
	ok(!strncmp(info.version, "U-Boot 2023.01 hl-gaudi-open-fw-0.1.0", 37),
	   "boot-fit version: %s", info.version);
	ok(strstr(info.preboot_version, "Preboot version") != NULL,
	   "preboot version carried");
	ok_eq(check(boot_img, GAUDI_FW_FILE_MAX, GAUDI_FIT_BOOT), GAUDI_FIT_OK,
	      "the whole copy area may be passed");
	ok_eq(check(main_img, main_len, GAUDI_FIT_MAIN), GAUDI_FIT_OK,
	      "fit accepted");
	ok(info.has_fw, "firmware data parsed");
	ok_eq(info.fw.nr_sensors, 5, "five sensors");
	ok_eq(info.fw.sensors[0].type, 1, "sensor 0 temperature");
	ok_eq(info.fw.nr_macs, 10, "ten NIC MACs");
	ok_eq(info.fw.pll_valid, 0x3FF, "ten PLLs");
	ok_eq(info.fw.pll[9][0], 1600, "IF PLL out0");
	ok_eq(info.fw.card_type, 1, "card type PMC");
	ok_eq(info.fw.max_power_mw, 350000, "max power");
	ok(!strcmp(info.fw.serial, "GO205-00000000"), "serial");
	ok(!strncmp(info.fw.eeprom_fields, "part-number=HL-205\nboard-", 25),
	   "EEPROM fields joined by newlines");
}

static void test_header_faults(void)
{
	uint8_t *b = copy_of(boot_img);

	b[0] ^= 1;
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_EMAGIC, "bad magic");
	free(b);
	expect(check(boot_img, 20, GAUDI_FIT_BOOT), GAUDI_FIT_ETRUNC,
	       "20 bytes");
	expect(check(boot_img, boot_len - 64, GAUDI_FIT_BOOT),
	       GAUDI_FIT_ETRUNC, "short copy");
	b = copy_of(boot_img);
	fdt_set_totalsize(b, 0xFFFFFFF0);
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_ETRUNC,
	       "huge totalsize");
	free(b);
	b = copy_of(boot_img);
	memset(b + fdt_off_dt_struct(b), 0xA5, 8);
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_ESTRUCT,
	       "garbage structure block");
	free(b);
	b = copy_of(boot_img);
	fdt_set_off_dt_strings(b, ROOM - 4);
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_ESTRUCT,
	       "strings block out of bounds");
	free(b);
}

static void test_hash_faults(void)
{
	uint8_t *b = copy_of(boot_img);
	int img = fdt_path_offset(b, "/images/boot-loader"), len;
	uint8_t *data = fdt_getprop_w(b, img, "data", &len);

	data[len / 2] ^= 0x10;
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_EHASH,
	       "payload bit flip");
	ok(!strcmp(info.failed_image, "boot-loader"), "names the image");
	free(b);

	b = copy_of(main_img);
	img = fdt_path_offset(b, "/images/fw-data/hash-2");
	data = fdt_getprop_w(b, img, "value", &len);
	data[0] ^= 1;
	expect(check(b, ROOM, GAUDI_FIT_MAIN), GAUDI_FIT_EHASH,
	       "crc32 value wrong, sha256 right");
	ok(!strcmp(info.failed_image, "fw-data"), "names fw-data");
	free(b);

	b = copy_of(boot_img);
	img = fdt_path_offset(b, "/images/boot-loader/hash-1");
	fdt_setprop_string(b, img, "algo", "sha3");
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_EALGO,
	       "unknown algorithm");
	free(b);

	b = copy_of(boot_img);
	fdt_del_node(b, fdt_path_offset(b, "/images/boot-loader/hash-2"));
	fdt_del_node(b, fdt_path_offset(b, "/images/boot-loader/hash-1"));
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_EALGO,
	       "unhashed image");
	free(b);
}

static void test_identity_faults(void)
{
	uint8_t *b = copy_of(boot_img);

	fdt_setprop_string(b, 0, "gaudi,target", "goya");
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_ETARGET,
	       "other target");
	free(b);
	expect(check(boot_img, boot_len, GAUDI_FIT_MAIN), GAUDI_FIT_EKIND,
	       "boot-fit where the fit goes");
	ok_eq(check(main_img, main_len, GAUDI_FIT_BOOT), GAUDI_FIT_EKIND,
	      "fit where the boot-fit goes");

	b = copy_of(boot_img);
	fdt_delprop(b, 0, "gaudi,version");
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_ENODE,
	       "no version");
	free(b);
	b = copy_of(boot_img);
	fdt_del_node(b, fdt_path_offset(b, "/configurations"));
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_ENODE,
	       "no configurations");
	free(b);
	b = copy_of(boot_img);
	fdt_setprop_string(b, fdt_path_offset(b, "/configurations/conf-1"),
			   "firmware", "nothing");
	expect(check(b, ROOM, GAUDI_FIT_BOOT), GAUDI_FIT_ENODE,
	       "configuration names a missing image");
	free(b);
	b = copy_of(main_img);
	fdt_del_node(b, fdt_path_offset(b, "/images/fw-data"));
	fdt_delprop(b, fdt_path_offset(b, "/configurations/conf-1"), "fdt");
	ok_eq(check(b, ROOM, GAUDI_FIT_MAIN), GAUDI_FIT_ENODE,
	      "fit without firmware data");
	free(b);
}

/* Edit the nested firmware-data tree, put it back, fix the digests. */
typedef void (*fw_edit)(uint8_t *fw);

static enum gaudi_fit_err check_fw_edit(fw_edit edit)
{
	uint8_t *b = copy_of(main_img), *fw = malloc(ROOM);
	int node = fdt_path_offset(b, "/images/fw-data"), len;
	const void *data = fdt_getprop(b, node, "data", &len);
	void *aligned = g_memdup2(data, len);
	enum gaudi_fit_err err;

	/* Property data is only 4-byte aligned; libfdt wants 8. */
	if (!fw || fdt_open_into(aligned, fw, 0x8000))
		abort();
	g_free(aligned);
	edit(fw);
	fdt_pack(fw);
	fdt_setprop(b, node, "data", fw, fdt_totalsize(fw));
	rehash(b);
	err = check(b, ROOM, GAUDI_FIT_MAIN);
	free(fw);
	free(b);
	return err;
}

static void no_edit(uint8_t *fw)
{
	(void)fw;
}

static void no_sensors(uint8_t *fw)
{
	fdt_delprop(fw, 0, "sensors");
}

static void bad_sensor_type(uint8_t *fw)
{
	fdt32_t s[2] = { cpu_to_fdt32(12), cpu_to_fdt32(2) };

	fdt_setprop(fw, 0, "sensors", s, sizeof(s));
}

static void bad_card_name(uint8_t *fw)
{
	fdt_setprop_string(fw, 0, "card-name", "hl-205");
}

static void long_card_name(uint8_t *fw)
{
	fdt_setprop_string(fw, 0, "card-name", "HL205HL205HL205HL205");
}

static void no_serial(uint8_t *fw)
{
	fdt_delprop(fw, 0, "serial");
}

static void bad_power(uint8_t *fw)
{
	fdt_setprop_u32(fw, 0, "max-power-mw", 5);
}

static void bad_pll(uint8_t *fw)
{
	fdt32_t p[5] = { cpu_to_fdt32(30), 0, 0, 0, 0 };

	fdt_setprop(fw, 0, "pll-info", p, sizeof(p));
}

static void bad_macs(uint8_t *fw)
{
	fdt_setprop(fw, 0, "nic-macs", "1234567", 7);
}

static void bad_eeprom(uint8_t *fw)
{
	fdt_setprop(fw, 0, "eeprom", "a=1\nb=2", 8);
}

static void bad_compat(uint8_t *fw)
{
	fdt_setprop_string(fw, 0, "compatible", "other,thing");
}

static void broken_magic(uint8_t *fw)
{
	fw[0] = 0;
}

static void test_fw_data_faults(void)
{
	static const struct {
		fw_edit edit;
		const char *what;
	} cases[] = {
		{ no_sensors, "no sensor table" },
		{ bad_sensor_type, "sensor type beyond hwmon's" },
		{ bad_card_name, "card name hwmon refuses" },
		{ long_card_name, "card name too long" },
		{ no_serial, "no serial" },
		{ bad_power, "max power out of range" },
		{ bad_pll, "PLL index out of range" },
		{ bad_macs, "MAC list not 6-byte multiples" },
		{ bad_eeprom, "EEPROM field with a newline" },
		{ bad_compat, "wrong compatible" },
		{ broken_magic, "nested tree without magic" },
	};
	size_t i;

	ok_eq(check_fw_edit(no_edit), GAUDI_FIT_OK, "re-packed data accepted");
	for (i = 0; i < GAUDI_ARRAY_SIZE(cases); i++) {
		enum gaudi_fit_err err = check_fw_edit(cases[i].edit);

		ok_eq(err, GAUDI_FIT_EFWDATA, "%s: bad firmware data (%s)",
		      cases[i].what, why);
	}
}

static void test_distinct_reasons(void)
{
	unsigned int i, j, dup = 0;

	for (i = 0; i < nr_reasons; i++)
		for (j = i + 1; j < nr_reasons; j++)
			dup += !strcmp(reasons[i], reasons[j]);
	ok_eq(dup, 0, "%u failures, each with its own reason", nr_reasons);
	for (i = 0, dup = 0; i < GAUDI_FIT_NR_ERR; i++)
		for (j = i + 1; j < GAUDI_FIT_NR_ERR; j++)
			dup += !strcmp(gaudi_fit_strerror(i),
				       gaudi_fit_strerror(j));
	ok_eq(dup, 0, "every error code has its own name");
}

int main(void)
{
	boot_img = load_file("gaudi-boot-fit.itb", &boot_len);
	main_img = load_file("gaudi-fit.itb", &main_len);
	test_good();
	test_header_faults();
	test_hash_faults();
	test_identity_faults();
	test_fw_data_faults();
	test_distinct_reasons();
	free(boot_img);
	free(main_img);
	return tap_done();
}
