/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Gaudi 1 register offsets and fields used by gaudi.ko.
 *
 * Offsets are "CFG offsets": relative to CFG_BASE (device address
 * 0x7F_FC00_0000), which BAR2 shows at +64 MiB.  Facts from the public
 * hardware description, see shared/gaudi1/INTERFACE.md; names follow the
 * hardware block names so they can be looked up.
 */
#ifndef GAUDI_REGS_H
#define GAUDI_REGS_H

#include <linux/bits.h>
#include <linux/sizes.h>

/* Device address map. */
#define GAUDI_SRAM_BASE			0x7FF0000000ULL
#define GAUDI_SPI_FLASH_BASE		0x7FF8000000ULL
#define GAUDI_CFG_BASE			0x7FFC000000ULL
#define GAUDI_CFG_SIZE			SZ_64M
#define GAUDI_CFG_REGS_SIZE		SZ_32M
#define GAUDI_HOST_PHYS_BASE		0x8000000000ULL
#define GAUDI_BAR0_SIZE			SZ_64M
#define GAUDI_BAR2_SIZE			SZ_128M
#define GAUDI_BAR2_CFG_OFFSET		SZ_64M
#define GAUDI_HBM_SIZE			(32ULL << 30)

/* Where the firmware images go. */
#define GAUDI_BOOT_FIT_SRAM_OFFSET	0x200000
#define GAUDI_FIT_HBM_OFFSET		0x800000
#define GAUDI_FW_FILE_MAX		(20 * SZ_1M)
#define GAUDI_FW_VER_LEN		128
#define GAUDI_FW_VER_OFFSET_MASK	0x0FFFFFFF
#define GAUDI_FW_VER_OFFSET_MAX		0x13FFF80

/* ELBI: config-space window onto device registers. */
#define GAUDI_ELBI_ADDR			0xFF0
#define GAUDI_ELBI_DATA			0xFF4
#define GAUDI_ELBI_CTRL			0xFF8
#define GAUDI_ELBI_STS			0xFFC
#define GAUDI_ELBI_CTRL_WRITE		BIT(31)
#define GAUDI_ELBI_STS_DONE		BIT(31)
#define GAUDI_ELBI_STS_ERR		BIT(30)
#define GAUDI_ELBI_CFG_BASE32		0xFC000000U	/* CFG_BASE, 32 bits */

/* PSOC scratchpad, boot status and reset. */
#define mmHW_STATE			0xC4B100
#define mmCPU_BOOT_DEV_STS0		0xC4B150
#define mmCPU_BOOT_DEV_STS1		0xC4B154
#define mmCPU_CMD_STATUS_TO_HOST	0xC4B15C
#define mmCPU_BOOT_ERR0			0xC4B160
#define mmCPU_BOOT_ERR1			0xC4B164
#define mmPREBOOT_VER_OFFSET		0xC4B170
#define mmUBOOT_VER_OFFSET		0xC4B174
#define mmCPU_BOOT_STATUS		0xC4B300
#define mmKMD_MSG_TO_CPU		0xC4B304
#define mmPSOC_GLOBAL_CONF_BTM_FSM	0xC4B028
#define mmPSOC_GLOBAL_CONF_COLD_RST_FLOPS_1 0xC4B074
#define mmPSOC_GLOBAL_CONF_SW_ALL_RST	0xC4B498

#define HW_STATE_DIRTY			1
#define CPU_MSG_OK			1
#define BTM_FSM_STATE_MASK		GENMASK(3, 0)
#define PREBOOT_PCIE_EN_MAGIC		0xED7BD694

/* Device-CPU interface. */
#define mmCPU_IF_CPU_MSB_ADDR		0x44212C
#define mmCPU_IF_PF_PQ_PI		0x442200
#define mmCPU_IF_PQ_BASE_ADDR_LOW	0x442204
#define mmCPU_IF_PQ_BASE_ADDR_HIGH	0x442208
#define mmCPU_IF_PQ_LENGTH		0x44220C
#define mmCPU_IF_CQ_BASE_ADDR_LOW	0x442210
#define mmCPU_IF_CQ_BASE_ADDR_HIGH	0x442214
#define mmCPU_IF_CQ_LENGTH		0x442218
#define mmCPU_IF_EQ_BASE_ADDR_LOW	0x442220
#define mmCPU_IF_EQ_BASE_ADDR_HIGH	0x442224
#define mmCPU_IF_EQ_LENGTH		0x442228
#define mmCPU_IF_EQ_RD_OFFS		0x44222C
#define mmCPU_IF_QUEUE_INIT		0x442230
#define mmGIC_DISTRIBUTOR_SETSPI_NSR	0x800040

/* GIC SPIs the host raises towards the device CPU. */
#define GAUDI_SPI_PI_UPDATE		635
#define GAUDI_SPI_HALT_MACHINE		636
#define GAUDI_SPI_INTS_REGISTER		637

/* PCIe block. */
#define mmPCIE_CORE_MSI_REQ		0xC04100
#define mmPCIE_MSI_INTR_0		0xC13000

/* MMU block. */
#define mmMMU_UP_MMU_BUSY		0xC12000
#define mmMMU_UP_PAGE_ERROR_CAPTURE	0xC11034
#define mmMMU_UP_PAGE_ERROR_CAPTURE_VA	0xC11038
#define mmMMU_UP_RAZWI_WRITE_VLD	0xC1105C
#define mmMMU_UP_RAZWI_READ_VLD		0xC11064
#define MMU_PAGE_ERROR_CAPTURE_VA_49_32	GENMASK(17, 0)
#define MMU_PAGE_ERROR_CAPTURE_VALID	BIT(18)

/* Queue managers and engines (idle checks). */
#define mmDMA0_QM_BASE			0x508000
#define mmDMA0_CORE_BASE		0x500000
#define GAUDI_DMA_STRIDE		0x20000
#define GAUDI_NUM_DMA			8
#define mmMME0_QM_BASE			0x68000
#define mmMME2_QM_BASE			0x168000
#define mmMME0_CTRL_ARCH_STATUS		0x60000
#define GAUDI_MME_STRIDE		0x80000
#define GAUDI_NUM_MME			4
#define mmTPC0_QM_BASE			0xE08000
#define mmTPC0_CFG_BASE			0xE00000
#define GAUDI_TPC_STRIDE		0x40000
#define GAUDI_NUM_TPC			8

#define QM_GLBL_STS0			0x038
#define QM_GLBL_STS1_0			0x040
#define QM_CGM_STS			0xC74
#define QM_GLBL_STS0_IDLE		GENMASK(13, 0)
#define QM_CGM_STS_AGENT_IDLE		BIT(8)
#define DMA_CORE_STS0			0x190
#define DMA_CORE_STS0_BUSY		BIT(31)
#define TPC_CFG_STATUS			0x691C
#define TPC_CFG_STATUS_IDLE		0xEE
#define MME_ARCH_STATUS_IDLE		0x1180

#endif /* GAUDI_REGS_H */
