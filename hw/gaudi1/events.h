/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 hardware description: event ids of the device CPU's event
 * queue, and the GIC SPIs the host raises towards the device CPU.
 *
 * Ids from upstream's include/gaudi/gaudi_async_events.h (enum
 * gaudi_async_event_id); only the ones the code uses are named here.
 * Engine events are classes of consecutive ids: the n-th engine's event
 * is the first id plus n (TPC decode errors: plus 2 * n).
 */
#ifndef GAUDI1_EVENTS_H
#define GAUDI1_EVENTS_H

/* Number of event ids; every id is below it. */
#define GAUDI_EVENT_SIZE		663
/* An event-queue entry: a header word, then the payload (cpucp_if.h). */
#define GAUDI_EQ_ENTRY_SIZE		64

/* Per-engine classes. */
#define GAUDI_EVENT_TPC0_DEC		201	/* TPC n: + 2 * n */
#define GAUDI_EVENT_TPC7_DEC		215
#define GAUDI_EVENT_TPC0_QM		572	/* TPC n QMAN: + n */
#define GAUDI_EVENT_MME0_QM		581
#define GAUDI_EVENT_MME2_QM		582
#define GAUDI_EVENT_DMA0_QM		583	/* DMA n QMAN: + n */
#define GAUDI_EVENT_DMA7_QM		590
#define GAUDI_EVENT_DMA0_CORE		604	/* DMA n core: + n */
#define GAUDI_EVENT_DMA7_CORE		611

/*
 * NIC (the NIC registers are in nic.h): per port QP errors
 * (port p: NIC0_QP0 + p), per macro SEI (macro m: NIC_SEI_0 + m), per
 * port status from the device CPU (port p: STATUS_NIC0_ENG0 + p), NIC
 * QMANs (NIC0_QM0 + 2 * macro + qman).
 */
#define GAUDI_EVENT_NIC_SEI_0		264
#define GAUDI_EVENT_NIC0_QM0		594
#define GAUDI_EVENT_NIC0_QP0		612
#define GAUDI_EVENT_NIC4_QP1		621
#define GAUDI_EVENT_STATUS_NIC0_ENG0	648
#define GAUDI_EVENT_STATUS_NIC4_ENG1	657

/* MMU and protection. */
#define GAUDI_EVENT_MMU_PAGE_FAULT	380
#define GAUDI_EVENT_MMU_WR_PERM		381
#define GAUDI_EVENT_RAZWI_OR_ADC	548
#define GAUDI_EVENT_RAZWI_OR_ADC_SW	662

/*
 * GIC SPIs: the host writes these ids to
 * mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR (regs.h).
 */
#define GAUDI_EVENT_PI_UPDATE		635
#define GAUDI_EVENT_HALT_MACHINE	636
#define GAUDI_EVENT_INTS_REGISTER	637
#define GAUDI_EVENT_SOFT_RESET		638

/* Device-CPU and firmware events. */
#define GAUDI_EVENT_FW_ALIVE_S		645
#define GAUDI_EVENT_DEV_RESET_REQ	646
#define GAUDI_EVENT_PKT_QUEUE_OUT_SYNC	647
#define GAUDI_EVENT_FIX_POWER_ENV_S	658
#define GAUDI_EVENT_FIX_POWER_ENV_E	659
#define GAUDI_EVENT_FIX_THERMAL_ENV_S	660
#define GAUDI_EVENT_FIX_THERMAL_ENV_E	661

#endif /* GAUDI1_EVENTS_H */
