/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 register offsets (CFG offsets, i.e. relative to CFG_BASE
 * 0x7F_FC00_0000) and field facts used by the model.  Facts from the public
 * upstream headers, see shared/gaudi1/INTERFACE.md; names follow the
 * upstream register names so they can be looked up.
 */
#ifndef GAUDI_REGS_H
#define GAUDI_REGS_H

/* PSOC / boot (INTERFACE.md section 4). */
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
#define mmCOLD_RST_FLOPS_1		0xC4B074
#define mmPSOC_GLOBAL_CONF_SW_ALL_RST	0xC4B498

/*
 * --- boot, device CPU, events, model control (boot.c cpucp.c eq.c ctl.c) ---
 * CPU_BOOT_STATUS, KMD_MSG_TO_CPU, pq_init_status values and boot error /
 * capability bits: include/linux/habanalabs/hl_boot_if.h and cpucp_if.h.
 */
#define CPU_BOOT_STATUS_SRAM_AVAIL	3
#define CPU_BOOT_STATUS_FIT_CORRUPTED	9
#define CPU_BOOT_STATUS_READY_TO_BOOT	15
#define CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT 16
#define KMD_MSG_NA			0
#define KMD_MSG_GOTO_WFE		1
#define KMD_MSG_FIT_RDY			2
#define KMD_MSG_SKIP_BMC		3
#define KMD_MSG_RST_DEV			5
#define CPU_MSG_OK			1	/* CPU_CMD_STATUS_TO_HOST */
#define CPU_BOOT_ERR0_FIT_CORRUPTED	(1U << 1)
#define CPU_BOOT_ERR0_ENABLED		(1U << 31)
#define CPU_BOOT_DEV_STS0_MODEL		0x80020360U
#define CPU_BOOT_DEV_STS1_MODEL		0x80000000U
#define BTM_FSM_STATE_MASK		0xFU
#define PQ_INIT_STATUS_NA		0
#define PQ_INIT_STATUS_READY_FOR_CP	1
#define PQ_INIT_STATUS_READY_FOR_HOST	2
#define PQ_INIT_STATUS_READY_FOR_CP_SINGLE_MSI 3
#define PQ_INIT_STATUS_LEN_NOT_POWER_OF_TWO_ERR 4
#define PQ_INIT_STATUS_ILLEGAL_Q_ADDR_ERR 5
/* Values the driver writes to GICD_SETSPI_NSR (gaudi_async_events.h). */
#define GAUDI_EVENT_PI_UPDATE		635
#define GAUDI_EVENT_HALT_MACHINE	636
#define GAUDI_EVENT_INTS_REGISTER	637
#define GAUDI_EVENT_SOFT_RESET		638
/* Model control window, first half (ctl.c); see model-control.rst. */
#define GAUDI_CTL_MAGIC			0x000	/* RO "GDMC" */
#define GAUDI_CTL_VERSION		0x004	/* RO */
#define GAUDI_CTL_EVENT_TYPE		0x010	/* write: post the event */
#define GAUDI_CTL_EVENT_DATA0		0x014	/* 14 payload words */
#define GAUDI_CTL_EVENT_WORDS		14
#define GAUDI_CTL_CPU_HANG		0x050	/* 1 hang, 0 resume */
#define GAUDI_CTL_BOOT_FAIL		0x054	/* enum gaudi_boot_fail */
#define GAUDI_CTL_EQ_DROPS		0x058	/* RO events dropped */
#define GAUDI_CTL_CPUCP_COUNT		0x05C	/* RO CPU-CP packets answered */
#define GAUDI_CTL_FIT_REASON		0x060	/* RO last enum gaudi_fit_err */
#define GAUDI_CTL_MAGIC_VALUE		0x434D4447U	/* "GDMC" */
#define GAUDI_CTL_VERSION_VALUE		1
/* --- end of boot/device-CPU section --- */

/* Device-CPU interface (section 5). */
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
#define mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR 0x800040

/* PCIe (section 7). */
#define mmPCIE_CORE_MSI_REQ		0xC04100
#define mmPCIE_MSI_INTR_0		0xC13000

/* MMU (section 8). */
#define mmMMU_UP_MMU_BUSY		0xC12000
#define mmMMU_UP_MMU_ASID		0xC12004
#define mmMMU_UP_MMU_HOP0_PA43_12	0xC12008
#define mmMMU_UP_MMU_HOP0_PA49_44	0xC1200C
#define mmMMU_UP_STLB_CACHE_INV		0xC12010
#define mmMMU_UP_STLB_INV_PS		0xC1203C
#define mmMMU_UP_STLB_INV_SET		0xC12048

/* QMAN / engine blocks (section 7). */
#define mmDMA0_CORE_BASE		0x500000
#define mmDMA0_QM_BASE			0x508000
#define GAUDI_DMA_BLOCK_STRIDE		0x20000
#define GAUDI_NUM_DMA			8
#define mmMME0_CTRL_BASE		0x60000
#define GAUDI_MME_STRIDE		0x80000
#define mmMME0_QM_BASE			0x68000
#define mmMME2_QM_BASE			0x168000
#define mmTPC0_CFG_BASE			0xE00000
#define GAUDI_TPC_STRIDE		0x40000
#define GAUDI_NUM_TPC			8

/*
 * Model-only control window (not on real hardware): fault injection and
 * event injection for tests.  Only decoded when the device's test-hooks
 * property is on; reads 0 and ignores writes otherwise.  At the end of the
 * debug half of CFG space, which the drivers never touch.
 *   +0x000..0x0FF  model identity, boot/device-CPU/event injection (ctl.c,
 *                  cpucp.c, eq.c)
 *   +0x100..0x1FF  queue/DMA/MMU fault injection (qman.c, mmu.c)
 */
#define GAUDI_MODEL_CTL_BASE		0x3FFF000
#define GAUDI_MODEL_CTL_SIZE		0x1000

#endif /* GAUDI_REGS_H */
