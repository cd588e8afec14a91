/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 hardware description: the device-CPU interface as the firmware
 * speaks it: boot-handshake values and CPU-CP packets.
 *
 * Upstream defines these in include/linux/habanalabs/hl_boot_if.h and
 * cpucp_if.h, which gaudi.ko includes directly; this file repeats the
 * facts under the same names for the code that cannot include kernel
 * headers (the device model, userspace).  Do not include it in kernel/.
 */
#ifndef GAUDI1_CPUCP_H
#define GAUDI1_CPUCP_H

#ifdef __KERNEL__
#error "gaudi.ko uses <linux/habanalabs/hl_boot_if.h> and <linux/habanalabs/cpucp_if.h>"
#endif

/*
 * Values of the boot-handshake registers (hl_boot_if.h: enum
 * cpu_boot_status, enum kmd_msg, enum cpu_msg_status, CPU_BOOT_ERR0_*;
 * cpucp_if.h: enum pq_init_status).
 */
#define CPU_BOOT_STATUS_SRAM_AVAIL		3
#define CPU_BOOT_STATUS_FIT_CORRUPTED		9
#define CPU_BOOT_STATUS_READY_TO_BOOT		15
#define CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT	16
#define KMD_MSG_NA			0
#define KMD_MSG_GOTO_WFE		1
#define KMD_MSG_FIT_RDY			2
#define KMD_MSG_SKIP_BMC		3
#define KMD_MSG_RST_DEV			5
#define CPU_MSG_OK			1	/* CPU_CMD_STATUS_TO_HOST */
#define CPU_BOOT_ERR0_FIT_CORRUPTED	(1U << 1)
#define CPU_BOOT_ERR0_ENABLED		(1U << 31)
#define PQ_INIT_STATUS_NA			0
#define PQ_INIT_STATUS_READY_FOR_CP		1
#define PQ_INIT_STATUS_READY_FOR_HOST		2
#define PQ_INIT_STATUS_READY_FOR_CP_SINGLE_MSI	3
#define PQ_INIT_STATUS_LEN_NOT_POWER_OF_TWO_ERR	4
#define PQ_INIT_STATUS_ILLEGAL_Q_ADDR_ERR	5

/*
 * struct cpucp_packet (cpucp_if.h): 24 bytes; ctl holds the opcode in
 * 28:16 and the result code in 15:12; the device writes the fence value
 * when done.  Sizes of the structures the model fills, as in Linux 6.12.
 */
#define CPUCP_PKT_CTL_OPCODE_SHIFT	16
#define CPUCP_PKT_CTL_OPCODE_MASK	0x1FFF0000U
#define CPUCP_PKT_CTL_RC_SHIFT		12
#define CPUCP_PKT_CTL_RC_MASK		0x0000F000U
#define CPUCP_PACKET_FENCE_VAL		0xFE8CE7A5U
#define CPUCP_PKT_SIZE			24
#define CPUCP_INFO_SIZE			1768	/* struct cpucp_info */
#define CPUCP_NIC_INFO_SIZE		2232	/* struct cpucp_nic_info */
/*
 * struct cpucp_nic_info (cpucp_if.h, CPUCP_MAX_NICS 128): six bytes of MAC
 * per port from 0, link_mask (a bitmap of u64s) at 768, link_ext_mask
 * (the scale-out ports) at 912, the QSFP module EEPROM (SFF-8636, 1024
 * bytes) at 928, auto_neg_mask at 1952, serdes_type at 1968 (HLS1 = 2).
 */
#define CPUCP_NIC_INFO_MACS		0
#define CPUCP_NIC_INFO_LINK_MASK	768
#define CPUCP_NIC_INFO_LINK_EXT_MASK	912
#define CPUCP_NIC_INFO_QSFP_EEPROM	928
#define CPUCP_NIC_INFO_AUTO_NEG_MASK	1952
#define CPUCP_NIC_INFO_SERDES_TYPE	1968
#define CPUCP_SERDES_TYPE_HLS1		2
/*
 * MSI_INFO_SET is a cpucp_array_data_packet: the 24-byte packet, u32
 * length, u32 data[length], data[type] the MSI vector of enum
 * cpucp_msi_type (cpucp_if.h): 0 the event queue, 1..5 NIC ports 1, 3,
 * 5, 7, 9 (the odd ports, whose receive interrupt the device CPU turns
 * into an MSI).  The vectors: gaudi1/nic.h.
 */
#define CPUCP_MSI_TYPE_EVENT_QUEUE	0
#define CPUCP_MSI_TYPE_NIC_PORT(p)	(1 + (p) / 2)	/* odd p */
#define CPUCP_NUM_MSI_TYPES		6
#define CPUCP_HBM_ROWS_SIZE		264	/* cpucp_hbm_row_replaced_rows_info */

/* enum cpucp_packet_id (cpucp_if.h): the ids the model answers. */
#define CPUCP_PACKET_DISABLE_PCI_ACCESS		1
#define CPUCP_PACKET_ENABLE_PCI_ACCESS		2
#define CPUCP_PACKET_TEMPERATURE_GET		3
#define CPUCP_PACKET_VOLTAGE_GET		4
#define CPUCP_PACKET_CURRENT_GET		5
#define CPUCP_PACKET_FAN_SPEED_GET		6
#define CPUCP_PACKET_PWM_GET			7
#define CPUCP_PACKET_PWM_SET			8
#define CPUCP_PACKET_FREQUENCY_SET		9
#define CPUCP_PACKET_FREQUENCY_GET		10
#define CPUCP_PACKET_LED_SET			11
#define CPUCP_PACKET_INFO_GET			14
#define CPUCP_PACKET_UNMASK_RAZWI_IRQ		16
#define CPUCP_PACKET_UNMASK_RAZWI_IRQ_ARRAY	17
#define CPUCP_PACKET_TEST			18
#define CPUCP_PACKET_FREQUENCY_CURR_GET		19
#define CPUCP_PACKET_MAX_POWER_GET		20
#define CPUCP_PACKET_MAX_POWER_SET		21
#define CPUCP_PACKET_EEPROM_DATA_GET		22
#define CPUCP_PACKET_NIC_INFO_GET		23
#define CPUCP_PACKET_TEMPERATURE_SET		24
#define CPUCP_PACKET_VOLTAGE_SET		25
#define CPUCP_PACKET_CURRENT_SET		26
#define CPUCP_PACKET_PCIE_THROUGHPUT_GET	27
#define CPUCP_PACKET_PCIE_REPLAY_CNT_GET	28
#define CPUCP_PACKET_TOTAL_ENERGY_GET		29
#define CPUCP_PACKET_PLL_INFO_GET		30
#define CPUCP_PACKET_POWER_GET			32
#define CPUCP_PACKET_MSI_INFO_SET		37
#define CPUCP_PACKET_IS_IDLE_CHECK		42
#define CPUCP_PACKET_HBM_REPLACED_ROWS_INFO_GET	43
#define CPUCP_PACKET_HBM_PENDING_ROWS_STATUS	44
#define CPUCP_PACKET_POWER_SET			45
#define CPUCP_PACKET_ACTIVE_STATUS_SET		58

#endif /* GAUDI1_CPUCP_H */
