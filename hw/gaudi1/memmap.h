/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 hardware description: the device address map, the PCI identity
 * and BARs, and the places firmware and user memory start.
 *
 * Plain C, no includes: shared by gaudi.ko, the device model, libgaudi and
 * the tests (Documentation/hw.rst).  Device addresses are 64-bit physical
 * addresses as the engines see them.
 */
#ifndef GAUDI1_MEMMAP_H
#define GAUDI1_MEMMAP_H

/*
 * PCI identity (upstream drivers/accel/habanalabs/common/habanalabs_drv.c
 * and include/linux/pci_ids.h: vendor Habana Labs, device Gaudi).
 */
#define GAUDI_PCI_VENDOR		0x1da3
#define GAUDI_PCI_DEVICE		0x1000

/*
 * Device address map (upstream include/gaudi/gaudi.h and
 * asic_reg/gaudi_blocks.h: SRAM_BASE_ADDR, SPI_FLASH_BASE_ADDR,
 * PSOC_SCRATCHPAD_ADDR, PCIE_FW_SRAM_ADDR, CFG_BASE, HOST_PHYS_BASE,
 * SRAM_SIZE).  The 64 MiB CFG window holds 32 MiB of registers followed by
 * 32 MiB of debug space.
 */
#define GAUDI_SRAM_BASE			0x7FF0000000ULL
#define GAUDI_SRAM_SIZE			(20ULL << 20)
#define GAUDI_SPI_FLASH_BASE		0x7FF8000000ULL
#define GAUDI_PSOC_SCRATCHPAD		0x7FFBFE0000ULL
#define GAUDI_PCIE_FW_SRAM		0x7FFBFF0000ULL
#define GAUDI_CFG_BASE			0x7FFC000000ULL
#define GAUDI_CFG_SIZE			(64ULL << 20)
#define GAUDI_CFG_REGS_SIZE		(32ULL << 20)
#define GAUDI_HOST_PHYS_BASE		0x8000000000ULL
/* HBM starts at device address 0; a DL1 card has 32 GiB. */
#define GAUDI_HBM_SIZE			(32ULL << 30)

/*
 * Memory reserved at the start of SRAM and HBM for the driver and the
 * device CPU (upstream gaudi.h: SRAM_USER_BASE_OFFSET and
 * DRAM_BASE_ADDR_USER).
 */
#define GAUDI_SRAM_USER_START		(GAUDI_SRAM_BASE + 0x80)
#define GAUDI_SRAM_END			(GAUDI_SRAM_BASE + GAUDI_SRAM_SIZE)
#define GAUDI_DRAM_USER_START		0x20000000ULL

/*
 * Host virtual range the device MMU translates (upstream gaudi.c:
 * VA_HOST_SPACE_START/END); END is exclusive.
 */
#define GAUDI_VA_HOST_START		0x1000000000000ULL
#define GAUDI_VA_HOST_END		0x3FF8000000000ULL

/*
 * BARs (upstream gaudi.c: SRAM_BAR_ID, CFG_BAR_ID, HBM_BAR_ID): BAR0 shows
 * SRAM; BAR2 shows the SPI flash in its lower half and CFG from +64 MiB;
 * BAR4 is a window onto HBM.
 */
#define GAUDI_BAR0_SIZE			(64ULL << 20)
#define GAUDI_BAR2_SIZE			(128ULL << 20)
#define GAUDI_BAR2_CFG_OFFSET		(64ULL << 20)
#define GAUDI_FLASH_WINDOW		(64ULL << 20)

#endif /* GAUDI1_MEMMAP_H */
