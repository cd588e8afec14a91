/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 firmware images (FIT): the boot ROM's check and the device-CPU
 * firmware data the main image carries, for the model and gaudi-fw.
 * Layout: Documentation/firmware/format.rst.
 *
 * The checker only reads the buffer it is given and never trusts a length
 * or offset inside it; it is the target of tests/emulator/fuzz_fit.c.
 */
#ifndef GAUDI_FIT_H
#define GAUDI_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gaudi1/boot.h" /* GAUDI_FW_VER_LEN */

#define GAUDI_FW_CARD_NAME_LEN 16 /* CARD_NAME_MAX_LEN */
#define GAUDI_FW_SERIAL_LEN 32
#define GAUDI_FW_MAX_SENSORS 128 /* CPUCP_MAX_SENSORS */
#define GAUDI_FW_EEPROM_MAX 4096
#define GAUDI_FW_MAX_MACS 10 /* Gaudi 1 has ten NIC ports */
#define GAUDI_FW_MAX_PLLS 24 /* enum pll_index, PLL_MAX */
#define GAUDI_FW_HWMON_TYPES 10 /* enum hwmon_sensor_types, hwmon_max */

enum gaudi_fit_kind {
    GAUDI_FIT_BOOT,  /* gaudi-boot-fit.itb, "boot-fit" */
    GAUDI_FIT_MAIN,  /* gaudi-fit.itb, "fit" */
};

/* Why an image was refused; each value is a distinct failure. */
enum gaudi_fit_err {
    GAUDI_FIT_OK,
    GAUDI_FIT_EMAGIC, /* no FDT magic at the load address */
    GAUDI_FIT_ETRUNC, /* header or totalsize beyond the copied area */
    GAUDI_FIT_ESTRUCT, /* FDT structure block is malformed */
    GAUDI_FIT_ENODE, /* a required node or property is missing */
    GAUDI_FIT_EHASH, /* an image's digest does not match */
    GAUDI_FIT_EALGO, /* unknown hash algorithm or unhashed image */
    GAUDI_FIT_ETARGET, /* built for another device */
    GAUDI_FIT_EKIND, /* boot-fit where a fit belongs, or reverse */
    GAUDI_FIT_EFWDATA, /* the firmware-data image is malformed */
    GAUDI_FIT_NR_ERR
};

struct gaudi_fw_sensor {
    uint32_t type;  /* enum hwmon_sensor_types */
    uint32_t flags;  /* that type's HWMON_x_ attribute bits */
};

/* What the device CPU knows about its card, from the main image. */
struct gaudi_fw_data {
    char kernel_version[GAUDI_FW_VER_LEN];
    char cpucp_version[GAUDI_FW_VER_LEN];
    char fuse_version[GAUDI_FW_VER_LEN];
    char thermal_version[GAUDI_FW_VER_LEN];
    char fw_os_version[GAUDI_FW_VER_LEN];
    char card_name[GAUDI_FW_CARD_NAME_LEN];
    char serial[GAUDI_FW_SERIAL_LEN];
    uint32_t card_type;  /* 0 PCI, 1 PMC (mezzanine) */
    uint32_t card_location;
    uint32_t cpld_version;
    uint32_t nr_sensors;
    struct gaudi_fw_sensor sensors[GAUDI_FW_MAX_SENSORS];
    /* EEPROM "key=value" lines without serial/module-id (added live). */
    char eeprom_fields[GAUDI_FW_EEPROM_MAX];
    uint32_t eeprom_fields_len;
    uint32_t nr_macs;
    uint8_t macs[GAUDI_FW_MAX_MACS][6];
    uint32_t pll_valid;  /* bit n: pll[n] is known */
    uint16_t pll[GAUDI_FW_MAX_PLLS][4]; /* output frequencies, MHz */
    /* Power and thermal model (see format.rst). */
    uint32_t max_power_mw;
    uint32_t idle_power_mw;
    uint32_t ambient_mc;  /* idle temperature, millidegrees */
    uint32_t temp_rise_mc;  /* extra at full load */
    uint32_t temp_max_mc;
    uint32_t temp_crit_mc;
    uint32_t core_mv;  /* core voltage, millivolts */
    uint32_t fan_max_rpm;  /* 0: passively cooled */
};

struct gaudi_fit_info {
    char version[GAUDI_FW_VER_LEN];  /* gaudi,version */
    char preboot_version[GAUDI_FW_VER_LEN]; /* boot-fit only */
    char failed_image[32];  /* image named in EHASH/EALGO */
    bool has_fw;   /* main image: fw is valid */
    struct gaudi_fw_data fw;
};

/*
 * Check the FIT image of the given kind in buf[0, avail) (avail = bytes
 * the driver could have copied).  Fills *info on success; on failure
 * writes a one-line reason to why (if why_len) and returns the cause.
 */
enum gaudi_fit_err gaudi_fit_check(const void *buf, size_t avail,
                                   enum gaudi_fit_kind kind,
                                   struct gaudi_fit_info *info,
                                   char *why, size_t why_len);

const char *gaudi_fit_strerror(enum gaudi_fit_err err);

/* IEEE 802.3 CRC-32 as u-boot's "crc32" hash uses it (init 0). */
uint32_t gaudi_crc32(uint32_t crc, const void *buf, size_t len);

#endif /* GAUDI_FIT_H */
