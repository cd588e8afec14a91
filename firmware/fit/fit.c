// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 firmware images (FIT): the check the device CPU's boot ROM makes,
 * shared by the device model (emulator/) and gaudi-fw (tools/fw/), plain C
 * on libfdt, zlib (CRC-32) and Nettle (digest.c).
 *
 * The real device CPU refuses a boot image whose structure or digests are
 * wrong and reports FIT_CORRUPTED.  The model does the same for images in
 * u-boot's FIT format (a flattened device tree with /images and
 * /configurations), plus our identity properties on the root node, and
 * reads the device-CPU firmware data out of the main image.
 *
 * Everything here is bounds checked against the buffer the caller hands in:
 * the guest controls every byte of it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>
#include <zlib.h>

#include "digest.h"
#include "fit.h"

#define FIT_TARGET "hl205"  /* also accepted: "gaudi" */
#define FWDATA_COMPAT "gaudi-open,fw-data-1"
#define FWDATA_IMAGE "fw-data"

/* zlib's CRC-32 (IEEE 802.3), which u-boot's "crc32" hash is. */
uint32_t gaudi_crc32(uint32_t crc, const void *buf, size_t len)
{
    return (uint32_t)crc32_z(crc, buf, len);
}

static const char *const fit_errors[GAUDI_FIT_NR_ERR] = {
    [GAUDI_FIT_OK] = "ok",
    [GAUDI_FIT_EMAGIC] = "bad magic",
    [GAUDI_FIT_ETRUNC] = "truncated",
    [GAUDI_FIT_ESTRUCT] = "malformed structure",
    [GAUDI_FIT_ENODE] = "missing node or property",
    [GAUDI_FIT_EHASH] = "hash mismatch",
    [GAUDI_FIT_EALGO] = "unsupported or missing hash",
    [GAUDI_FIT_ETARGET] = "wrong target",
    [GAUDI_FIT_EKIND] = "wrong image kind",
    [GAUDI_FIT_EFWDATA] = "bad firmware data",
};

const char *gaudi_fit_strerror(enum gaudi_fit_err err)
{
    if ((unsigned int)err >= GAUDI_FIT_NR_ERR) {
        return "unknown";
    }
    return fit_errors[err];
}

/* A check in progress: the tree and where to put the reason. */
struct fit_ctx {
    const void *fdt;
    char *why;
    size_t why_len;
};

static enum gaudi_fit_err fail(struct fit_ctx *c, enum gaudi_fit_err err,
                               const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static enum gaudi_fit_err fail(struct fit_ctx *c, enum gaudi_fit_err err,
                               const char *fmt, ...)
{
    va_list ap;
    int n;

    if (!c->why_len) {
        return err;
    }
    n = snprintf(c->why, c->why_len, "%s: ", gaudi_fit_strerror(err));
    if (n < 0 || (size_t)n >= c->why_len) {
        return err;
    }
    va_start(ap, fmt);
    vsnprintf(c->why + n, c->why_len - n, fmt, ap);
    va_end(ap);
    return err;
}

/*
 * Header checks shared by the image and the nested firmware-data tree:
 * magic, a totalsize that fits in avail, then libfdt's full structure walk
 * (which checks every offset and string reference against totalsize).
 */
static enum gaudi_fit_err check_tree(struct fit_ctx *c, const void *buf,
                                     size_t avail, const char *what)
{
    uint32_t total;

    if (avail < sizeof(struct fdt_header)) {
        return fail(c, GAUDI_FIT_ETRUNC, "%s: %zu bytes, no header",
                    what, avail);
    }
    if (fdt_magic(buf) != FDT_MAGIC) {
        return fail(c, GAUDI_FIT_EMAGIC, "%s: magic 0x%08x", what,
                    fdt_magic(buf));
    }
    total = fdt_totalsize(buf);
    if (total > avail) {
        return fail(c, GAUDI_FIT_ETRUNC,
                    "%s: totalsize %u beyond %zu bytes", what, total,
                    avail);
    }
    if (fdt_check_full(buf, total)) {
        return fail(c, GAUDI_FIT_ESTRUCT, "%s: %s", what,
                    fdt_strerror(fdt_check_full(buf, total)));
    }
    return GAUDI_FIT_OK;
}

/*
 * A property that must be one NUL-terminated string shorter than outlen.
 * Returns 1 if absent, 0 if copied, -1 if present but malformed.
 */
static int get_str(const void *fdt, int node, const char *name, char *out,
                   size_t outlen)
{
    const char *p;
    int len;

    p = fdt_getprop(fdt, node, name, &len);
    if (!p) {
        return 1;
    }
    if (len < 1 || (size_t)len > outlen || p[len - 1] != '\0' ||
        strlen(p) != (size_t)len - 1) {
        return -1;
    }
    memcpy(out, p, len);
    return 0;
}

/* A single 32-bit cell.  Returns 1 if absent, 0 if read, -1 if malformed. */
static int get_u32(const void *fdt, int node, const char *name,
                   uint32_t *out)
{
    const fdt32_t *p;
    int len;

    p = fdt_getprop(fdt, node, name, &len);
    if (!p) {
        return 1;
    }
    if (len != sizeof(*p)) {
        return -1;
    }
    *out = fdt32_to_cpu(*p);
    return 0;
}

/* Compare one hash-N node's value with the digest of data. */
static enum gaudi_fit_err check_hash(struct fit_ctx *c, int hnode,
                                     const char *image, const uint8_t *data,
                                     int dlen, struct gaudi_fit_info *info)
{
    char algo[16];
    const uint8_t *value;
    uint8_t digest[64];
    size_t want;
    int vlen;

    if (get_str(c->fdt, hnode, "algo", algo, sizeof(algo))) {
        snprintf(info->failed_image, sizeof(info->failed_image), "%s",
                 image);
        return fail(c, GAUDI_FIT_EALGO, "image %s: bad algo", image);
    }
    value = fdt_getprop(c->fdt, hnode, "value", &vlen);
    if (!strcmp(algo, "crc32")) {
        uint32_t crc = gaudi_crc32(0, data, dlen);

        want = 4;
        digest[0] = crc >> 24;
        digest[1] = crc >> 16;
        digest[2] = crc >> 8;
        digest[3] = crc;
    } else {
        want = gaudi_digest(algo, data, dlen, digest);
        if (!want) {
            snprintf(info->failed_image,
                     sizeof(info->failed_image), "%s", image);
            return fail(c, GAUDI_FIT_EALGO,
                        "image %s: algo \"%s\"", image, algo);
        }
    }
    if (!value || vlen < 0 || (size_t)vlen != want ||
        memcmp(value, digest, want)) {
        snprintf(info->failed_image, sizeof(info->failed_image), "%s",
                 image);
        return fail(c, GAUDI_FIT_EHASH, "image %s: %s digest differs",
                    image, algo);
    }
    return GAUDI_FIT_OK;
}

/* Every image needs data and at least one hash, and every hash must hold. */
static enum gaudi_fit_err check_images(struct fit_ctx *c, int images,
                                       struct gaudi_fit_info *info)
{
    enum gaudi_fit_err err;
    int img, sub, dlen, nimg = 0;

    fdt_for_each_subnode(img, c->fdt, images) {
        const char *name = fdt_get_name(c->fdt, img, NULL);
        const uint8_t *data;
        int nhash = 0;

        nimg++;
        data = fdt_getprop(c->fdt, img, "data", &dlen);
        if (!data) {
            return fail(c, GAUDI_FIT_ENODE, "image %s: no data",
                        name);
        }
        fdt_for_each_subnode(sub, c->fdt, img) {
            const char *sname = fdt_get_name(c->fdt, sub, NULL);

            if (strncmp(sname, "hash", 4)) {
                continue;
            }
            err = check_hash(c, sub, name, data, dlen, info);
            if (err) {
                return err;
            }
            nhash++;
        }
        if (!nhash) {
            snprintf(info->failed_image,
                     sizeof(info->failed_image), "%s", name);
            return fail(c, GAUDI_FIT_EALGO, "image %s: no hash",
                        name);
        }
    }
    if (!nimg) {
        return fail(c, GAUDI_FIT_ENODE, "/images is empty");
    }
    return GAUDI_FIT_OK;
}

/* /configurations/default must name a configuration whose images exist. */
static enum gaudi_fit_err check_config(struct fit_ctx *c, int images)
{
    static const char *const refs[] = { "firmware", "kernel", "fdt" };
    char def[64], ref[64];
    int confs, conf, nref = 0;
    size_t i;

    confs = fdt_path_offset(c->fdt, "/configurations");
    if (confs < 0) {
        return fail(c, GAUDI_FIT_ENODE, "no /configurations");
    }
    if (get_str(c->fdt, confs, "default", def, sizeof(def))) {
        return fail(c, GAUDI_FIT_ENODE, "no default configuration");
    }
    conf = fdt_subnode_offset(c->fdt, confs, def);
    if (conf < 0) {
        return fail(c, GAUDI_FIT_ENODE, "configuration %s missing",
                    def);
    }
    for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
        int r = get_str(c->fdt, conf, refs[i], ref, sizeof(ref));

        if (r > 0) {
            continue;
        }
        if (r < 0 || fdt_subnode_offset(c->fdt, images, ref) < 0) {
            return fail(c, GAUDI_FIT_ENODE,
                        "configuration %s: %s image missing", def,
                        refs[i]);
        }
        nref++;
    }
    if (!nref) {
        return fail(c, GAUDI_FIT_ENODE,
                    "configuration %s names no image", def);
    }
    return GAUDI_FIT_OK;
}

/* --- firmware data (a device tree inside /images/fw-data) ------------- */

static bool hwmon_name_ok(const char *s)
{
    /* hwmon refuses names with '-', '*' or white space. */
    for (; *s; s++)
        if (*s == '-' || *s == '*' || *s == ' ' || *s == '\t' ||
            *s == '\n') {
            return false;
        }
    return true;
}

static enum gaudi_fit_err fw_strings(struct fit_ctx *c, int root,
                                     struct gaudi_fw_data *fw)
{
    static const struct {
        const char *name;
        size_t off, len;
        bool required;
    } strs[] = {
#define S(n, f, r) { n, offsetof(struct gaudi_fw_data, f), \
             sizeof(((struct gaudi_fw_data *)0)->f), r }
        S("kernel-version", kernel_version, true),
        S("cpucp-version", cpucp_version, true),
        S("serial", serial, true),
        S("card-name", card_name, false),
        S("fuse-version", fuse_version, false),
        S("thermal-version", thermal_version, false),
        S("fw-os-version", fw_os_version, false),
#undef S
    };
    size_t i;
    int r;

    for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
        r = get_str(c->fdt, root, strs[i].name,
                    (char *)fw + strs[i].off, strs[i].len);
        if (r < 0 || (r > 0 && strs[i].required)) {
            return fail(c, GAUDI_FIT_EFWDATA, "%s %s",
                        strs[i].name, r < 0 ? "malformed" :
                        "missing");
        }
    }
    if (!hwmon_name_ok(fw->card_name)) {
        return fail(c, GAUDI_FIT_EFWDATA, "card-name not a hwmon name");
    }
    return GAUDI_FIT_OK;
}

static enum gaudi_fit_err fw_numbers(struct fit_ctx *c, int root,
                                     struct gaudi_fw_data *fw)
{
    static const struct {
        const char *name;
        size_t off;
        /* def 0 with min > 0: required */
        uint32_t def, min, max;
    } nums[] = {
#define N(n, f, d, lo, hi) { n, offsetof(struct gaudi_fw_data, f), d, lo, hi }
        N("card-type", card_type, 0, 0, 1),
        N("card-location", card_location, 0, 0, 7),
        N("cpld-version", cpld_version, 0, 0, UINT32_MAX),
        N("max-power-mw", max_power_mw, 0, 1000, 1000000),
        N("idle-power-mw", idle_power_mw, 0, 1000, 1000000),
        N("ambient-mc", ambient_mc, 30000, 0, 150000),
        N("temp-rise-mc", temp_rise_mc, 45000, 0, 150000),
        N("temp-max-mc", temp_max_mc, 95000, 1000, 200000),
        N("temp-crit-mc", temp_crit_mc, 105000, 1000, 200000),
        N("core-mv", core_mv, 850, 100, 5000),
        N("fan-max-rpm", fan_max_rpm, 0, 0, 100000),
#undef N
    };
    size_t i;
    uint32_t v;
    int r;

    for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        r = get_u32(c->fdt, root, nums[i].name, &v);
        if (r > 0 && !nums[i].def && nums[i].min) {
            return fail(c, GAUDI_FIT_EFWDATA, "%s missing",
                        nums[i].name);
        }
        if (r > 0) {
            v = nums[i].def;
        }
        if (r < 0 || v < nums[i].min || v > nums[i].max) {
            return fail(c, GAUDI_FIT_EFWDATA, "%s out of range",
                        nums[i].name);
        }
        memcpy((char *)fw + nums[i].off, &v, sizeof(v));
    }
    if (fw->idle_power_mw > fw->max_power_mw) {
        return fail(c, GAUDI_FIT_EFWDATA, "idle-power-mw > max");
    }
    return GAUDI_FIT_OK;
}

static enum gaudi_fit_err fw_tables(struct fit_ctx *c, int root,
                                    struct gaudi_fw_data *fw)
{
    const fdt32_t *cells;
    const uint8_t *bytes;
    const char *s;
    uint32_t i, n, off;
    int len;

    /* sensors = <type flags>, ...: at least one, none all-zero. */
    cells = fdt_getprop(c->fdt, root, "sensors", &len);
    if (!cells || len <= 0 || len % 8 ||
        (size_t)len / 8 > GAUDI_FW_MAX_SENSORS) {
        return fail(c, GAUDI_FIT_EFWDATA, "sensors: need 1..%d pairs",
                    GAUDI_FW_MAX_SENSORS);
    }
    fw->nr_sensors = len / 8;
    for (i = 0; i < fw->nr_sensors; i++) {
        fw->sensors[i].type = fdt32_to_cpu(cells[2 * i]);
        fw->sensors[i].flags = fdt32_to_cpu(cells[2 * i + 1]);
        if (fw->sensors[i].type >= GAUDI_FW_HWMON_TYPES ||
            !fw->sensors[i].type || !fw->sensors[i].flags) {
            return fail(c, GAUDI_FIT_EFWDATA, "sensor %u invalid",
                        i);
        }
    }

    /* nic-macs = [6 bytes per port]. */
    bytes = fdt_getprop(c->fdt, root, "nic-macs", &len);
    if (bytes) {
        if (len <= 0 || len % 6 || len / 6 > GAUDI_FW_MAX_MACS) {
            return fail(c, GAUDI_FIT_EFWDATA,
                        "nic-macs: need 1..%d MACs",
                        GAUDI_FW_MAX_MACS);
        }
        fw->nr_macs = len / 6;
        memcpy(fw->macs, bytes, len);
    }

    /* pll-info = <index out0 out1 out2 out3>, ... (MHz). */
    cells = fdt_getprop(c->fdt, root, "pll-info", &len);
    if (cells) {
        if (len <= 0 || len % 20) {
            return fail(c, GAUDI_FIT_EFWDATA,
                        "pll-info: need 5 cells per PLL");
        }
        for (i = 0; i < (uint32_t)len / 20; i++) {
            uint32_t idx = fdt32_to_cpu(cells[5 * i]);

            if (idx >= GAUDI_FW_MAX_PLLS ||
                (fw->pll_valid & (1U << idx))) {
                return fail(c, GAUDI_FIT_EFWDATA,
                            "pll-info: bad index %u", idx);
            }
            fw->pll_valid |= 1U << idx;
            for (n = 0; n < 4; n++) {
                uint32_t f = fdt32_to_cpu(cells[5 * i + 1 + n]);

                if (f > 0xFFFF) {
                    return fail(c, GAUDI_FIT_EFWDATA,
                                "pll-info: %u MHz", f);
                }
                fw->pll[idx][n] = f;
            }
        }
    }

    /* eeprom = "key=value", ...: joined with newlines. */
    s = fdt_getprop(c->fdt, root, "eeprom", &len);
    if (s) {
        if (len <= 0 || s[len - 1] != '\0' ||
            (size_t)len > sizeof(fw->eeprom_fields)) {
            return fail(c, GAUDI_FIT_EFWDATA, "eeprom malformed");
        }
        for (off = 0; off < (uint32_t)len; off++) {
            char ch = s[off];

            if (!ch) {
                ch = '\n';
            } else if (ch == '\n' || (unsigned char)ch < 0x20) {
                return fail(c, GAUDI_FIT_EFWDATA,
                            "eeprom: control character");
            }
            fw->eeprom_fields[off] = ch;
        }
        fw->eeprom_fields_len = len;
    }
    return GAUDI_FIT_OK;
}

/* The nested tree, already copied to aligned memory. */
static enum gaudi_fit_err parse_fw_tree(struct fit_ctx *c, const void *tree,
                                        size_t len, struct gaudi_fw_data *fw)
{
    enum gaudi_fit_err err;

    /* Any header fault of the nested tree counts as bad firmware data. */
    if (check_tree(c, tree, len, FWDATA_IMAGE)) {
        return GAUDI_FIT_EFWDATA;
    }
    c->fdt = tree;
    if (fdt_node_check_compatible(tree, 0, FWDATA_COMPAT)) {
        return fail(c, GAUDI_FIT_EFWDATA, "not " FWDATA_COMPAT);
    }
    memset(fw, 0, sizeof(*fw));
    err = fw_strings(c, 0, fw);
    if (!err) {
        err = fw_numbers(c, 0, fw);
    }
    if (!err) {
        err = fw_tables(c, 0, fw);
    }
    return err;
}

static enum gaudi_fit_err parse_fw_data(struct fit_ctx *img, int images,
                                        struct gaudi_fw_data *fw)
{
    struct fit_ctx c = { .why = img->why, .why_len = img->why_len };
    enum gaudi_fit_err err;
    const void *data;
    void *copy;
    int node, len;

    node = fdt_subnode_offset(img->fdt, images, FWDATA_IMAGE);
    if (node < 0) {
        return fail(img, GAUDI_FIT_ENODE, "no /images/" FWDATA_IMAGE);
    }
    data = fdt_getprop(img->fdt, node, "data", &len);
    if (!data || len < 0) {
        return fail(img, GAUDI_FIT_ENODE, FWDATA_IMAGE ": no data");
    }
    /*
     * Property data is only 4-byte aligned inside the image: work on a
     * copy so libfdt's 64-bit accessors see aligned memory.
     */
    copy = malloc(len ? len : 1);
    if (!copy) {
        return fail(img, GAUDI_FIT_EFWDATA, FWDATA_IMAGE ": no memory");
    }
    memcpy(copy, data, len);
    err = parse_fw_tree(&c, copy, len, fw);
    free(copy);
    return err;
}

enum gaudi_fit_err gaudi_fit_check(const void *buf, size_t avail,
                                   enum gaudi_fit_kind kind,
                                   struct gaudi_fit_info *info,
                                   char *why, size_t why_len)
{
    struct fit_ctx c = { .fdt = buf, .why = why, .why_len = why_len };
    const char *want = kind == GAUDI_FIT_BOOT ? "boot-fit" : "fit";
    enum gaudi_fit_err err;
    const char *tgt;
    char got[16];
    int images, len, r;

    memset(info, 0, sizeof(*info));
    if (why_len) {
        why[0] = '\0';
    }
    err = check_tree(&c, buf, avail, "image");
    if (err) {
        return err;
    }

    tgt = fdt_getprop(buf, 0, "gaudi,target", &len);
    if (!tgt || len <= 0) {
        return fail(&c, GAUDI_FIT_ENODE, "no gaudi,target");
    }
    if (fdt_stringlist_contains(tgt, len, FIT_TARGET) != 1 &&
        fdt_stringlist_contains(tgt, len, "gaudi") != 1) {
        return fail(&c, GAUDI_FIT_ETARGET, "target is not " FIT_TARGET);
    }

    r = get_str(buf, 0, "gaudi,kind", got, sizeof(got));
    if (r > 0) {
        return fail(&c, GAUDI_FIT_ENODE, "no gaudi,kind");
    }
    if (r < 0 || strcmp(got, want)) {
        return fail(&c, GAUDI_FIT_EKIND, "expected %s", want);
    }
    if (get_str(buf, 0, "gaudi,version", info->version,
                sizeof(info->version))) {
        return fail(&c, GAUDI_FIT_ENODE, "no usable gaudi,version");
    }
    if (kind == GAUDI_FIT_BOOT &&
        get_str(buf, 0, "gaudi,preboot-version", info->preboot_version,
                sizeof(info->preboot_version))) {
        return fail(&c, GAUDI_FIT_ENODE,
                    "no usable gaudi,preboot-version");
    }

    images = fdt_path_offset(buf, "/images");
    if (images < 0) {
        return fail(&c, GAUDI_FIT_ENODE, "no /images");
    }
    err = check_images(&c, images, info);
    if (!err) {
        err = check_config(&c, images);
    }
    if (!err && kind == GAUDI_FIT_MAIN) {
        err = parse_fw_data(&c, images, &info->fw);
        info->has_fw = !err;
    }
    return err;
}
