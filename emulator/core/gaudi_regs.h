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
#define mmHW_STATE   0xC4B100
#define mmCPU_BOOT_DEV_STS0  0xC4B150
#define mmCPU_BOOT_DEV_STS1  0xC4B154
#define mmCPU_CMD_STATUS_TO_HOST 0xC4B15C
#define mmCPU_BOOT_ERR0   0xC4B160
#define mmCPU_BOOT_ERR1   0xC4B164
#define mmPREBOOT_VER_OFFSET  0xC4B170
#define mmUBOOT_VER_OFFSET  0xC4B174
#define mmCPU_BOOT_STATUS  0xC4B300
#define mmKMD_MSG_TO_CPU  0xC4B304
#define mmPSOC_GLOBAL_CONF_BTM_FSM 0xC4B028
#define mmCOLD_RST_FLOPS_1  0xC4B074
#define mmPSOC_GLOBAL_CONF_SW_ALL_RST 0xC4B498

/*
 * --- boot, device CPU, events, model control (boot.c cpucp.c eq.c ctl.c) ---
 * CPU_BOOT_STATUS, KMD_MSG_TO_CPU, pq_init_status values and boot error /
 * capability bits: include/linux/habanalabs/hl_boot_if.h and cpucp_if.h.
 */
#define CPU_BOOT_STATUS_SRAM_AVAIL 3
#define CPU_BOOT_STATUS_FIT_CORRUPTED 9
#define CPU_BOOT_STATUS_READY_TO_BOOT 15
#define CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT 16
#define KMD_MSG_NA   0
#define KMD_MSG_GOTO_WFE  1
#define KMD_MSG_FIT_RDY   2
#define KMD_MSG_SKIP_BMC  3
#define KMD_MSG_RST_DEV   5
#define CPU_MSG_OK   1 /* CPU_CMD_STATUS_TO_HOST */
#define CPU_BOOT_ERR0_FIT_CORRUPTED (1U << 1)
#define CPU_BOOT_ERR0_ENABLED  (1U << 31)
#define CPU_BOOT_DEV_STS0_MODEL  0x80020360U
#define CPU_BOOT_DEV_STS1_MODEL  0x80000000U
#define BTM_FSM_STATE_MASK  0xFU
#define PQ_INIT_STATUS_NA  0
#define PQ_INIT_STATUS_READY_FOR_CP 1
#define PQ_INIT_STATUS_READY_FOR_HOST 2
#define PQ_INIT_STATUS_READY_FOR_CP_SINGLE_MSI 3
#define PQ_INIT_STATUS_LEN_NOT_POWER_OF_TWO_ERR 4
#define PQ_INIT_STATUS_ILLEGAL_Q_ADDR_ERR 5
/* Values the driver writes to GICD_SETSPI_NSR (gaudi_async_events.h). */
#define GAUDI_EVENT_PI_UPDATE  635
#define GAUDI_EVENT_HALT_MACHINE 636
#define GAUDI_EVENT_INTS_REGISTER 637
#define GAUDI_EVENT_SOFT_RESET  638
/* Model control window, first half (ctl.c); see model-control.rst. */
#define GAUDI_CTL_MAGIC   0x000 /* RO "GDMC" */
#define GAUDI_CTL_VERSION  0x004 /* RO */
#define GAUDI_CTL_EVENT_TYPE  0x010 /* write: post the event */
#define GAUDI_CTL_EVENT_DATA0  0x014 /* 14 payload words */
#define GAUDI_CTL_EVENT_WORDS  14
#define GAUDI_CTL_CPU_HANG  0x050 /* 1 hang, 0 resume */
#define GAUDI_CTL_BOOT_FAIL  0x054 /* enum gaudi_boot_fail */
#define GAUDI_CTL_EQ_DROPS  0x058 /* RO events dropped */
#define GAUDI_CTL_CPUCP_COUNT  0x05C /* RO CPU-CP packets answered */
#define GAUDI_CTL_FIT_REASON  0x060 /* RO last enum gaudi_fit_err */
#define GAUDI_CTL_MAGIC_VALUE  0x434D4447U /* "GDMC" */
#define GAUDI_CTL_VERSION_VALUE  1
/* --- end of boot/device-CPU section --- */

/* Device-CPU interface (section 5). */
#define mmCPU_IF_CPU_MSB_ADDR  0x44212C
#define mmCPU_IF_PF_PQ_PI  0x442200
#define mmCPU_IF_PQ_BASE_ADDR_LOW 0x442204
#define mmCPU_IF_PQ_BASE_ADDR_HIGH 0x442208
#define mmCPU_IF_PQ_LENGTH  0x44220C
#define mmCPU_IF_CQ_BASE_ADDR_LOW 0x442210
#define mmCPU_IF_CQ_BASE_ADDR_HIGH 0x442214
#define mmCPU_IF_CQ_LENGTH  0x442218
#define mmCPU_IF_EQ_BASE_ADDR_LOW 0x442220
#define mmCPU_IF_EQ_BASE_ADDR_HIGH 0x442224
#define mmCPU_IF_EQ_LENGTH  0x442228
#define mmCPU_IF_EQ_RD_OFFS  0x44222C
#define mmCPU_IF_QUEUE_INIT  0x442230
#define mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR 0x800040

/* PCIe (section 7). */
#define mmPCIE_CORE_MSI_REQ  0xC04100
#define mmPCIE_MSI_INTR_0  0xC13000

/* MMU (section 8). */
#define mmMMU_UP_MMU_BUSY  0xC12000
#define mmMMU_UP_MMU_ASID  0xC12004
#define mmMMU_UP_MMU_HOP0_PA43_12 0xC12008
#define mmMMU_UP_MMU_HOP0_PA49_44 0xC1200C
#define mmMMU_UP_STLB_CACHE_INV  0xC12010
#define mmMMU_UP_STLB_INV_PS  0xC1203C
#define mmMMU_UP_STLB_INV_SET  0xC12048

/* QMAN / engine blocks (section 7). */
#define mmDMA0_CORE_BASE  0x500000
#define mmDMA0_QM_BASE   0x508000
#define GAUDI_DMA_BLOCK_STRIDE  0x20000
#define GAUDI_NUM_DMA   8
#define mmMME0_CTRL_BASE  0x60000
#define GAUDI_MME_STRIDE  0x80000
#define mmMME0_QM_BASE   0x68000
#define mmMME2_QM_BASE   0x168000
#define mmTPC0_CFG_BASE   0xE00000
#define GAUDI_TPC_STRIDE  0x40000
#define GAUDI_NUM_TPC   8

/*
 * Model-only control window (not on real hardware): fault injection and
 * event injection for tests.  Only decoded when the device's test-hooks
 * property is on; reads 0 and ignores writes otherwise.  At the end of the
 * debug half of CFG space, which the drivers never touch.
 *   +0x000..0x0FF  model identity, boot/device-CPU/event injection (ctl.c,
 *                  cpucp.c, eq.c)
 *   +0x100..0x1FF  queue/DMA/MMU fault injection (qman.c, mmu.c)
 */
#define GAUDI_MODEL_CTL_BASE  0x3FFF000
#define GAUDI_MODEL_CTL_SIZE  0x1000

/*
 * --- data plane: QMANs, DMA cores, sync manager, MMU (qman.c dma.c sync.c
 * mmu.c) ---
 * Sources (upstream drivers/accel/habanalabs/include/gaudi/): QMAN block
 * layout asic_reg/dma0_qm_regs.h and dma0_qm_masks.h (identical for the MME
 * and TPC QMANs, tpc0_qm_regs.h); DMA core asic_reg/dma0_core_regs.h and
 * dma0_core_masks.h; MMU capture registers asic_reg/mmu_up_regs.h and
 * mmu_up_masks.h; sync manager bases asic_reg/gaudi_regs.h; packets
 * gaudi_packets.h; event ids gaudi_async_events.h.
 */
/* QMAN registers, relative to the QMAN base (GLBL_CFG0). */
#define QM_GLBL_CFG0   0x000
#define QM_GLBL_CFG1   0x004
#define QM_GLBL_PROT   0x008
#define QM_GLBL_SECURE_PROPS_0  0x010 /* + 4 * stream */
#define QM_GLBL_NON_SECURE_PROPS_0 0x024 /* + 4 * stream */
#define QM_GLBL_STS0   0x038
#define QM_GLBL_STS1_0   0x040 /* + 4 * stream, W1C */
#define QM_PQ_BASE_LO_0   0x070
#define QM_PQ_BASE_HI_0   0x080
#define QM_PQ_SIZE_0   0x090 /* log2 of the entry count */
#define QM_PQ_PI_0   0x0A0
#define QM_PQ_CI_0   0x0B0
#define QM_CP_MSG_BASE0_ADDR_LO_0 0x228 /* + 0x28 * base + 4 * stream */
#define QM_CP_MSG_BASE0_ADDR_HI_0 0x23C
#define QM_CP_MSG_BASE_STRIDE  0x28
#define QM_CP_FENCE0_RDATA_0  0x308 /* + 0x14 * fence + 4 * stream */
#define QM_CP_FENCE0_CNT_0  0x358
#define QM_CP_FENCE_STRIDE  0x14
#define QM_LOWER_CP  4 /* CP index of the lower CP (CP_DMA buffers) */
#define QM_ARB_ERR_CAUSE  0xB9C
#define QM_CGM_STS   0xC74
#define QM_BLOCK_SIZE   0x1000
#define QM_GLBL_STS0_IDLE  0x3FFFU /* PQF 3:0, CQF 8:4, CP 13:9 */
#define QM_CGM_STS_IDLE   0x100U /* AGENT_IDLE */
#define QM_CFG_PQF_EN(s)  (1U << (s))
#define QM_CFG_CP_EN(s)   (1U << (9 + (s)))
#define QM_STS0_CP_IS_STOP(s)  (1U << (25 + (s)))
#define QM_PROT_PQF(s)   (1U << (s))
#define QM_PROT_CP(s)   (1U << (9 + (s)))
/* GLBL_STS1 error causes. */
#define QM_STS1_PQF_RD_ERR  (1U << 0)
#define QM_STS1_CP_RD_ERR  (1U << 2)
#define QM_STS1_CP_UNDEF_CMD_ERR (1U << 3)
#define QM_STS1_CP_STOP_OP  (1U << 4)
#define QM_STS1_CP_MSG_WR_ERR  (1U << 5)
#define QM_STS1_CP_WREG_ERR  (1U << 6)
#define QM_STS1_CP_FENCE_UDF_ERR(n) (1U << (12 + (n)))
/* {SECURE,NON_SECURE}_PROPS of QMANs and DMA cores. */
#define GAUDI_PROPS_ASID_MASK  0x3FFU
#define GAUDI_PROPS_MMBP  (1U << 10)

/* DMA core registers, relative to the core base. */
#define DMA_CORE_SRC_BASE_LO  0x014
#define DMA_CORE_SRC_BASE_HI  0x018
#define DMA_CORE_DST_BASE_LO  0x01C
#define DMA_CORE_DST_BASE_HI  0x020
#define DMA_CORE_DST_TSIZE_0  0x074
/*
 * The 5-dimension shape of a non-linear transfer (upstream
 * asic_reg/dma0_core_regs.h): TSIZE_0 bytes per row, TSIZE_1..4 counts,
 * STRIDE_1..4 byte strides, for the source and the destination.
 */
#define DMA_CORE_SRC_TSIZE_0  0x04C
#define DMA_CORE_SRC_TSIZE(k)  (0x02C + 8 * ((k) - 1)) /* k = 1..4 */
#define DMA_CORE_SRC_STRIDE(k)  (0x030 + 8 * ((k) - 1))
#define DMA_CORE_DST_TSIZE(k)  (0x054 + 8 * ((k) - 1))
#define DMA_CORE_DST_STRIDE(k)  (0x058 + 8 * ((k) - 1))
#define DMA_CORE_COMMIT   0x078
#define DMA_CORE_WR_COMP_WDATA  0x07C
#define DMA_CORE_WR_COMP_ADDR_LO 0x080
#define DMA_CORE_WR_COMP_ADDR_HI 0x084
#define DMA_CORE_PROT   0x0B8 /* bit 0: secure transfer */
#define DMA_CORE_SECURE_PROPS  0x0F0
#define DMA_CORE_NON_SECURE_PROPS 0x0F4
#define DMA_CORE_ERR_CAUSE  0x164 /* W1C */
#define DMA_CORE_STS0   0x190 /* bit 31 busy */
#define DMA_CORE_STS0_BUSY  (1U << 31)
#define DMA_CORE_BLOCK_SIZE  0x1000
#define DMA_QM_OFFSET   0x8000 /* QMAN n = core n + this */
#define DMA_COMMIT_WR_COMP_EN  (1U << 0)
#define DMA_COMMIT_LIN   (1U << 3)
#define DMA_COMMIT_MEM_SET  (1U << 4)
#define DMA_ERR_HBW_RD   (1U << 0)
#define DMA_ERR_HBW_WR   (1U << 1)
#define DMA_ERR_LBW_WR   (1U << 2)

/* Engine status registers read by upstream's idle check. */
#define MME_CTRL_ARCH_STATUS_IDLE 0x1180U
#define GAUDI_NUM_MME   4
#define TPC_CFG_STATUS   0x691C /* relative to TPC n base */
#define TPC_CFG_WQ_INFLIGHT_CNTR 0x69B8
#define TPC_CFG_STATUS_IDLE  0xEEU
#define mmTPC0_QM_BASE   0xE08000

/* Sync manager: four blocks, each 2048 SOBs and 512 monitors. */
#define mmSYNC_MNGR_W_S_SOB_OBJ_0 0x492000
#define mmSYNC_MNGR_E_S_SOB_OBJ_0 0x4B2000
#define mmSYNC_MNGR_W_N_SOB_OBJ_0 0x4D2000
#define mmSYNC_MNGR_E_N_SOB_OBJ_0 0x4F2000
#define SM_MON_PAY_ADDRL_0  0x2000 /* relative to SOB_OBJ_0 */
#define SM_MON_PAY_ADDRH_0  0x2800
#define SM_MON_PAY_DATA_0  0x3000
#define SM_MON_ARM_0   0x3800
#define SM_MON_STATUS_0   0x4000
#define SM_OBJS_SIZE   0x4800
#define SM_SOB_VAL_MASK   0x7FFFU
#define SM_SOB_INC   (1U << 31)
#define SM_MON_STATUS_VALID  (1U << 0)
#define SM_MON_STATUS_PENDING_SHIFT 1

/* MMU capture and RAZWI registers (MMU_UP block). */
#define mmMMU_UP_PAGE_ERROR_CAPTURE 0xC11034
#define mmMMU_UP_PAGE_ERROR_CAPTURE_VA 0xC11038
#define mmMMU_UP_RAZWI_WRITE_VLD 0xC1105C
#define mmMMU_UP_RAZWI_READ_VLD  0xC11064
#define MMU_PAGE_ERROR_CAPTURE_VA_49_32 0x3FFFFU
#define MMU_PAGE_ERROR_CAPTURE_VALID (1U << 18)
#define MMU_BUSY_BIT   (1U << 31)

/* Events the data plane posts (gaudi_async_events.h). */
#define GAUDI_EVENT_MMU_PAGE_FAULT 380
#define GAUDI_EVENT_TPC0_QM  572
#define GAUDI_EVENT_MME0_QM  581
#define GAUDI_EVENT_MME2_QM  582
#define GAUDI_EVENT_DMA0_QM  583
#define GAUDI_EVENT_DMA0_CORE  604

/*
 * --- protection (prot.c); Documentation/emulator/protection.rst ---
 * Sources: gaudi/gaudi_security.c (protection bits, range registers and
 * their register lists), include/gaudi/gaudi.h (PROT_BITS_OFFS),
 * gaudi_masks.h (QMAN_{EXTERNAL,INTERNAL}_MAKE_TRUSTED, RAZWI initiator
 * id), asic_reg/dma0_qm_masks.h (GLBL_PROT fields), dma0_core_masks.h
 * (DMA core PROT), mmu_up_regs.h (MMU_ENABLE, RAZWI capture),
 * gaudi_async_events.h (RAZWI_OR_ADC).
 */
/*
 * Protection bits: the last 128 bytes of every 4 KiB block, one bit per
 * 4-byte register of the block (0 = only secure initiators).
 */
#define PROT_BITS_OFFS   0xF80
/* GLBL_PROT: PQF 3:0, CQF 8:4, CP 13:9 (bit 13 the lower CP), ERR 14. */
#define QM_PROT_ERR   (1U << 14)
#define DMA_CORE_PROT_VAL  (1U << 0)
#define mmMMU_UP_MMU_ENABLE  0xC1100C
#define mmMMU_UP_RAZWI_WRITE_ID  0xC11060
#define mmMMU_UP_RAZWI_READ_ID  0xC11068
/* Written 1 by upstream: PB RAZWI reads return 0xBABA0BAD, RR ones 0. */
#define mmPB_RAZWI_RDATA_CFG  0xC01B28
#define PB_RAZWI_RDATA   0xBABA0BADU
#define GAUDI_EVENT_RAZWI_OR_ADC 548
/* RAZWI initiator id (RAZWI_{WRITE,READ}_ID): AXI 23:20, X 27:24, Y 30:28 */
#define RAZWI_ID(x, y, axi)  (((uint32_t)(y) << 28) | ((uint32_t)(x) << 24) | \
                              ((uint32_t)(axi) << 20))
#define AXI_ID_MME   0
#define AXI_ID_TPC   1
#define AXI_ID_DMA   2
/*
 * LBW range registers (16 ranges each, exclusive MIN/MAX CFG offsets):
 * DMA_IF W_S/E_S/W_N/E_N at 0x480000 + k * 0x20000, masters SOB, DMA0,
 * DMA1; SIF_RTR 0..7 and NIF_RTR 0..7 at 0x300000 + n * 0x10000.
 */
#define mmDMA_IF_W_S_BASE  0x480000
#define GAUDI_DMA_IF_STRIDE  0x20000
#define DMA_IF_LBW_MIN_AR(m)  (0x100 + 0x200 * (m))
#define DMA_IF_LBW_MAX_AR(m)  (0x140 + 0x200 * (m))
#define DMA_IF_LBW_MIN_AW(m)  (0x180 + 0x200 * (m))
#define DMA_IF_LBW_MAX_AW(m)  (0x1C0 + 0x200 * (m))
#define DMA_IF_SOB_HIT_RPROT  0x700 /* DMA0 0x71C, DMA1 0x730 */
#define DMA_IF_SOB_HIT_WPROT  0x704 /* DMA0 0x720, DMA1 0x734 */
#define mmSIF_RTR_0_BASE  0x300000
#define GAUDI_RTR_STRIDE  0x10000
#define GAUDI_NUM_RTR   16 /* 8 SIF then 8 NIF */
#define RTR_LBW_HIT_AW   0x400
#define RTR_LBW_MIN_AW   0x410
#define RTR_LBW_MAX_AW   0x450
#define RTR_LBW_HIT_AR   0x490
#define RTR_LBW_MIN_AR   0x4A0
#define RTR_LBW_MAX_AR   0x4E0
#define GAUDI_LBW_RANGES  16
/*
 * HBW range registers (16 ranges each; hit when (addr ^ base) & mask is
 * 0 in bits 49:0): DMA_IF k DOWN_CH c at 0x481000 + k * 0x20000 +
 * c * 0x1000, SIF/NIF_RTR_CTRL n at 0x306000 + n * 0x10000.
 */
#define mmDMA_IF_W_S_DOWN_CH0_BASE 0x481000
#define mmSIF_RTR_CTRL_0_BASE  0x306000
#define HBW_RR_BASE_LOW_AW  0x5E4
#define HBW_RR_BASE_HIGH_AW  0x624
#define HBW_RR_MASK_LOW_AW  0x664
#define HBW_RR_MASK_HIGH_AW  0x6A4
#define HBW_RR_BASE_LOW_AR  0x824
#define HBW_RR_BASE_HIGH_AR  0x864
#define HBW_RR_MASK_LOW_AR  0x8A4
#define HBW_RR_MASK_HIGH_AR  0x8E4
#define HBW_RR_HIT_AW   0xA64
#define HBW_RR_HIT_AR   0xA68
#define GAUDI_HBW_RANGES  16

/*
 * Model control window, second half (qman.c): queue fault injection, see
 * Documentation/emulator/model-control.rst.  Offsets from
 * GAUDI_MODEL_CTL_BASE.
 */
#define GAUDI_CTL_QM_HANG  0x100 /* write queue id: hang it */
#define GAUDI_CTL_QM_UNHANG  0x104 /* write queue id, ~0 = all */
#define GAUDI_CTL_QM_HUNG_COUNT  0x108 /* RO number of hung queues */
#define GAUDI_CTL_QM_ERRORS  0x10C /* RO queue errors since reset */
#define GAUDI_CTL_QM_END  0x200
/* --- end of data plane section --- */

#endif /* GAUDI_REGS_H */
