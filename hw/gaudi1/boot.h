/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 hardware description: boot handshake values and where the
 * firmware images are loaded.
 *
 * Safe to include in gaudi.ko: the handshake values themselves, which
 * upstream's kernel headers also define, are in cpucp.h.
 */
#ifndef GAUDI1_BOOT_H
#define GAUDI1_BOOT_H

/*
 * Image placement (upstream gaudi.c: the boot fit goes to SRAM, the
 * linux fit to HBM; the version strings at fixed offsets of SRAM).
 */
#define GAUDI_BOOT_FIT_SRAM_OFFSET	0x200000ULL	/* in SRAM (BAR0) */
#define GAUDI_FIT_HBM_OFFSET		0x800000ULL	/* in HBM (BAR4) */
#define GAUDI_PREBOOT_VER_SRAM_OFFSET	0x13FF000U
#define GAUDI_UBOOT_VER_SRAM_OFFSET	0x13FF080U
#define GAUDI_FW_VER_LEN		128	/* cpucp_if.h VERSION_MAX_LEN */
/* The *_VER_OFFSET registers hold an SRAM offset in these bits. */
#define GAUDI_FW_VER_OFFSET_MASK	0x0FFFFFFFU
/* The largest offset whose 128-byte string still fits in SRAM's 20 MiB. */
#define GAUDI_FW_VER_OFFSET_MAX		0x13FFF80U

/*
 * The largest firmware file the driver loads (upstream
 * common/habanalabs.h, FW_FILE_MAX_SIZE).
 */
#define GAUDI_FW_FILE_MAX		(20ULL << 20)

/*
 * HW_STATE is 1 once the device has run since power-on (upstream
 * gaudi.c, HL_DEVICE_HW_STATE_DIRTY); preboot writes this magic to the
 * PCIe-enable check (upstream gaudi.c, PREBOOT_PCIE_EN).
 */
#define HW_STATE_DIRTY			1
#define PREBOOT_PCIE_EN_MAGIC		0xED7BD694U
/* PSOC_GLOBAL_CONF_BTM_FSM: state of the boot-time machine. */
#define BTM_FSM_STATE_MASK		0xFU

#endif /* GAUDI1_BOOT_H */
