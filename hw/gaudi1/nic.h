/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * Gaudi 1 hardware description: the NIC.  Ten Ethernet/RoCE ports in five
 * NIC macros of two ports each; the registers, work-queue and context
 * layouts the raw Ethernet path and the RoCE engine need.
 *
 * Offsets are CFG offsets (relative to GAUDI_CFG_BASE) or, without "mm",
 * offsets inside a block (Documentation/hw.rst).  Plain C, no includes.
 * Facts whose source is not in torvalds/linux come from Habana's
 * out-of-tree driver (HabanaAI/drivers.accel.habanalabs.kernel:
 * gaudi/gaudi_nic.c, gaudi_nic.h, asic_reg/nic0_*_regs.h), its 2020
 * netdev posting ("habanalabs/gaudi" NIC series) and hl-thunk's Gaudi NIC
 * tests (gaudi_nic.h): each group names its file.  The last group is not
 * a public fact but this project's choice (Documentation/emulator/nic.rst).
 */
#ifndef GAUDI1_NIC_H
#define GAUDI1_NIC_H

/*
 * Address map (upstream include/gaudi/asic_reg/gaudi_blocks.h,
 * mmNIC0_MAC_CH0_BASE .. mmNIC0_PLL_BASE, mmNIC1_QM0_BASE; gaudi.h
 * NIC_NUMBER_OF_MACROS): macro m at GAUDI_NIC_MACRO(m); port p lives in
 * macro p >> 1, and the per-port blocks (QPC, RXE, TXS, TXE) of the odd
 * port sit GAUDI_NIC_PORT_STRIDE above the even port's (out-of-tree
 * gaudi_nic.h: NIC_CFG_BASE(port)).  The MAC, STAT, PHY, RXB, TXB and TMR
 * blocks are shared by the two ports of a macro.
 */
#define GAUDI_NIC_NUM_MACROS		5
#define GAUDI_NIC_NUM_PORTS		10
#define GAUDI_NIC_MACRO_BASE		0xCC0000
#define GAUDI_NIC_MACRO_STRIDE		0x40000
#define GAUDI_NIC_PORT_STRIDE		0x1000
#define GAUDI_NIC_MACRO(m)		(GAUDI_NIC_MACRO_BASE + \
					 (m) * GAUDI_NIC_MACRO_STRIDE)
/* Base of port p's macro, and the per-port block offset of port p. */
#define GAUDI_NIC_PORT_MACRO(p)		GAUDI_NIC_MACRO((p) >> 1)
#define GAUDI_NIC_PORT_OFF(p)		(((p) & 1) * GAUDI_NIC_PORT_STRIDE)
/* Register r of port p's own instance of a per-port block (QPC, RXE, TXE). */
#define GAUDI_NIC_PORT_REG(p, block, r) \
	(GAUDI_NIC_PORT_MACRO(p) + (block) + GAUDI_NIC_PORT_OFF(p) + (r))

/* Blocks inside a macro (gaudi_blocks.h). */
#define NIC_MAC_CH_OFFSET(l)		(0x0 + (l) * 0x1000)	/* lane 0..3 */
#define NIC_STAT_OFFSET			0x4000
#define NIC_MAC_XPCS91_OFFSET		0x5000
#define NIC_MAC_CORE_OFFSET		0x8000
#define NIC_MAC_AUX_OFFSET		0x9000
#define NIC_PHY_OFFSET			0x18000
#define NIC_QM0_OFFSET			0x20000
#define NIC_QM1_OFFSET			0x22000
#define NIC_QPC_OFFSET			0x24000	/* QPC0; QPC1 + PORT_STRIDE */
#define NIC_RXB_OFFSET			0x28000
#define NIC_RXE_OFFSET			0x29000	/* RXE0; RXE1 + PORT_STRIDE */
#define NIC_RX_GW_OFFSET		0x2B000
#define NIC_TXS_OFFSET			0x30000	/* TXS0; TXS1 + PORT_STRIDE */
#define NIC_TXE_OFFSET			0x32000	/* TXE0; TXE1 + PORT_STRIDE */
#define NIC_TXB_OFFSET			0x34000
#define NIC_TMR_OFFSET			0x35000
#define NIC_TX_GW_OFFSET		0x36000
#define NIC_TS_OFFSET			0x38000

/* Register r of port p's QPC, RXE and TXE blocks. */
#define GAUDI_NIC_QPC_REG(p, r)	GAUDI_NIC_PORT_REG(p, NIC_QPC_OFFSET, r)
#define GAUDI_NIC_RXE_REG(p, r)	GAUDI_NIC_PORT_REG(p, NIC_RXE_OFFSET, r)
#define GAUDI_NIC_TXE_REG(p, r)	GAUDI_NIC_PORT_REG(p, NIC_TXE_OFFSET, r)
#define NIC_PLL_OFFSET			0x39000
#define GAUDI_NIC_MAC_LANES		4

#define mmNIC0_QM0_BASE			0xCE0000
#define mmNIC0_QPC0_BASE		0xCE4000
#define mmNIC0_RXE0_BASE		0xCE9000
#define mmNIC0_TXE0_BASE		0xCF2000
#define mmNIC0_STAT_BASE		0xCC4000
#define mmNIC0_MAC_CORE_BASE		0xCC8000

/*
 * NIC QMANs: two per macro, queue ids 73..112 of upstream's
 * gaudi_queue_id (uapi habanalabs_accel.h: GAUDI_QUEUE_ID_NIC_0_0 is 73,
 * four streams per QMAN).
 */
#define GAUDI_NIC_FIRST_QUEUE		73

/*
 * MAC core of a macro (out-of-tree gaudi_nic_phy.c: has_pcs_link() reads
 * mmNIC0_MAC_CORE_MAC_REC_STS0 and tests the port's first lane): the
 * receive link status, one bit per SerDes lane.  An even port uses lanes
 * 0 and 1, an odd port lanes 2 and 3 (gaudi_nic.c: power_up_mask 0x3 or
 * 0xC).
 */
#define NIC_MAC_CORE_MAC_REC_STS0	0x008
#define MAC_REC_STS0_LINK_SHIFT		6
#define MAC_REC_STS0_LINK		0x000003C0U	/* bits 9:6, lane n */
#define GAUDI_NIC_PORT_LANES(p)		(((p) & 1) ? 0xCU : 0x3U)

/*
 * PCS control 1 of a lane (IEEE 802.3 clause 45 register 3.0, at
 * MAC_CH(lane) + 0x0 as register 3.32 is at + 0x80 below): bit 11 puts
 * the lane in low power.  That the NIC's MAC_CH block maps the PCS
 * registers this way is inferred from the status register's place, not
 * stated by a source (Documentation/emulator/nic.rst).
 */
#define NIC_MAC_CH_PCS_CONTROL1		0x000
#define MAC_CH_PCS_CONTROL1_LOW_POWER	(1U << 11)

/*
 * PCS status of a lane (2020 series: check_pcs_link() reads "xpcs"
 * register 0x20 of the port's first lane, i.e. MAC_CH(lane) + 0x80, and
 * takes bit 12 as PCS link up).
 */
#define NIC_MAC_CH_PCS_STATUS		0x080
#define MAC_CH_PCS_STATUS_LINK		(1U << 12)

/*
 * MAC statistics of a macro (out-of-tree asic_reg/nic0_stat_regs.h and
 * gaudi_nic.c: gaudi_nic_read_mac_cnt()).  A counter is 64 bits: reading
 * its low word latches the high word into DATA_HI_REG, read next.  The
 * receive counters of the even port start at RX0, of the odd port at RX1;
 * transmit at TX0 / TX1.  Writing STATN_CONFIG_RESET clears them
 * (gaudi_nic_reset_mac_stats()).
 */
#define NIC_STAT_DATA_HI_REG		0x000
#define NIC_STAT_STATN_CONFIG		0x008
#define STATN_CONFIG_RESET		(1U << 31)
#define NIC_STAT_RX0			0x100	/* ETHERSTATSOCTETS */
#define NIC_STAT_RX1			0x218	/* ETHERSTATSOCTETS_2 */
#define NIC_STAT_TX0			0x330	/* ETHERSTATSOCTETS_4 */
#define NIC_STAT_TX1			0x400	/* ETHERSTATSOCTETS_6 */
/* Receive counters, relative to RX0/RX1. */
#define STAT_RX_ETHERSTATSOCTETS	0x00
#define STAT_RX_OCTETSRECEIVEDOK	0x04
#define STAT_RX_AFRAMETOOLONGERRORS	0x10
#define STAT_RX_AFRAMESRECEIVEDOK	0x18
#define STAT_RX_IFINUCASTPKTS		0x28
#define STAT_RX_IFINMULTICASTPKTS	0x2C
#define STAT_RX_IFINBROADCASTPKTS	0x30
#define STAT_RX_ETHERSTATSDROPEVENTS	0x34
#define STAT_RX_ETHERSTATSPKTS		0x3C
/* Transmit counters, relative to TX0/TX1. */
#define STAT_TX_ETHERSTATSOCTETS	0x00
#define STAT_TX_OCTETSTRANSMITTEDOK	0x04
#define STAT_TX_AFRAMESTRANSMITTEDOK	0x0C
#define STAT_TX_IFOUTERRORS		0x14
#define STAT_TX_IFOUTUCASTPKTS		0x18
#define STAT_TX_IFOUTMULTICASTPKTS	0x1C
#define STAT_TX_IFOUTBROADCASTPKTS	0x20
#define STAT_TX_ETHERSTATSPKTS		0x64

/*
 * QPC block of a port (out-of-tree asic_reg/nic0_qpc0_regs.h; fields from
 * gaudi_nic.c and the 2020 series).  The requester and responder context
 * tables are in device memory at BASE_ADDRESS_49_18 << 18 |
 * BASE_ADDRESS_17_7 << 7, one entry per QP.  The gateway reads or writes
 * one entry: the driver writes GW_MASK_0..15 and GW_DATA_0..15, then
 * GW_CTRL (QPN, requester bit), then GW_BUSY = 1, and polls GW_BUSY for
 * 0; with all masks 0 the operation is a read and GW_DATA holds the entry
 * (gaudi_nic_qpc_read()).
 */
#define NIC_QPC_REQ_QPC_CACHE_INVALIDATE	0x000
#define NIC_QPC_REQ_QPC_CACHE_INV_STATUS	0x004
#define NIC_QPC_REQ_STATIC_CONFIG		0x008
#define NIC_QPC_REQ_BASE_ADDRESS_49_18		0x00C
#define NIC_QPC_REQ_BASE_ADDRESS_17_7		0x010
#define NIC_QPC_RES_QPC_CACHE_INVALIDATE	0x034
#define NIC_QPC_RES_QPC_CACHE_INV_STATUS	0x038
#define NIC_QPC_RES_STATIC_CONFIG		0x03C
#define NIC_QPC_RES_BASE_ADDRESS_49_18		0x040
#define NIC_QPC_RES_BASE_ADDRESS_17_7		0x044
#define NIC_QPC_ERR_FIFO_WRITE_INDEX		0x050
#define NIC_QPC_ERR_FIFO_PRODUCER_INDEX		0x054
#define NIC_QPC_ERR_FIFO_CONSUMER_INDEX		0x058
#define NIC_QPC_ERR_FIFO_MASK			0x05C
#define NIC_QPC_ERR_FIFO_BASE_ADDR_49_18	0x06C
#define NIC_QPC_ERR_FIFO_BASE_ADDR_17_7		0x070
#define NIC_QPC_GW_BUSY				0x080
#define NIC_QPC_GW_CTRL				0x084
#define NIC_QPC_GW_DATA(i)			(0x08C + 4 * (i))	/* 0..15 */
#define NIC_QPC_GW_MASK(i)			(0x124 + 4 * (i))	/* 0..15 */
#define NIC_QPC_GW_WORDS			16
#define NIC_QPC_UNSECURED_DOORBELL_QPN		0x630
#define NIC_QPC_UNSECURED_DOORBELL_PI		0x634
#define NIC_QPC_SECURED_DOORBELL_QPN		0x638
#define NIC_QPC_SECURED_DOORBELL_PI		0x63C
#define NIC_QPC_PRIVILEGE_DOORBELL_QPN		0x640
#define NIC_QPC_PRIVILEGE_DOORBELL_PI		0x644
#define NIC_QPC_DOORBELL_SECURITY		0x648
#define NIC_QPC_RES_RING0_PI			0x650
#define NIC_QPC_RES_RING0_CI			0x654
#define NIC_QPC_RES_RING0_CFG			0x658
#define NIC_QPC_REQ_RING0_CI			0x680
#define NIC_QPC_INTERRUPT_CAUSE			0x690
#define NIC_QPC_INTERRUPT_MASK			0x694
#define NIC_QPC_INTERRUPT_CLR			0x698
#define NIC_QPC_INTERRUPT_EN			0x69C
#define NIC_QPC_INTERRUPT_BASE(n)		(0x6A0 + 4 * (n))	/* 0..8 */
#define NIC_QPC_INTERRUPT_DATA(n)		(0x6C4 + 4 * (n))	/* 0..8 */
#define NIC_QPC_INTERRUPT_CFG			0x6F0
#define NIC_QPC_INTERRUPTS			9
/* CACHE_INV_STATUS: the invalidation is done, the cache idle. */
#define QPC_CACHE_INV_STATUS_DONE		(1U << 0)
#define QPC_CACHE_INV_STATUS_IDLE		(1U << 1)
#define QPC_GW_CTRL_QPN				0x00FFFFFFU
#define QPC_GW_CTRL_REQUESTER			(1U << 24)
/* A doorbell: QPN 23:0 and BUSY 31; its PI register 21:0. */
#define QPC_DOORBELL_QPN			0x00FFFFFFU
#define QPC_DOORBELL_BUSY			(1U << 31)
#define QPC_DOORBELL_PI				0x003FFFFFU
/*
 * Interrupts: 4 is the raw receive ring (the Ethernet driver sets MASK
 * bit 4 to enable it and writes 0xFFFF to INTERRUPT_CLR to re-arm), 8 the
 * QP error FIFO; INTERRUPT_BASE_4/DATA_4 hold the MSI write (address
 * mmPCIE_CORE_MSI_REQ on silicon, data 1).  Odd ports cannot raise the
 * receive MSI (hardware bug): they use the wire interrupt, which the
 * device CPU turns into an MSI (gaudi_nic.c).
 */
/*
 * MSI vectors (Habana's gaudi_fw_if.h): the event queue's 8, odd port
 * 2k + 1's receive interrupt 10 + 2k; the model gives even port p 9 + p
 * too (not public; the card has one MSI, the number is only recorded).
 */
#define GAUDI_EVENT_QUEUE_MSI_IDX		8
#define GAUDI_NIC_PORT_MSI_IDX(p)		(9 + (p))
#define QPC_INTERRUPT_RX			4
#define QPC_INTERRUPT_QP_ERR			8
#define GAUDI_NIC_RAW_QPN			0	/* the driver's raw QP */

/*
 * QP error FIFO entry (gaudi_nic.h: struct qp_err): QPN 23:0, syndrome
 * 30:24, requester 31.
 */
#define QP_ERR_QPN				0x00FFFFFFU
#define QP_ERR_SYNDROME				0x7F000000U
#define QP_ERR_REQUESTER			(1U << 31)
#define QP_ERR_SYNDROME_DB_INVALID_QP		0x42
#define QP_ERR_SYNDROME_DB_SECURITY		0x43

/*
 * RXE block of a port (out-of-tree asic_reg/nic0_rxe0_regs.h): the raw
 * receive ring of priority 0 (the driver programs P0 and P2 alike) and the
 * completion queue.  PKT_DROP is a configuration register (which errors
 * drop a packet), not a counter.
 */
#define NIC_RXE_CONTROL				0x000
#define NIC_RXE_PKT_DROP			0x00C
#define NIC_RXE_RAW_QPN_P0			0x010
#define NIC_RXE_RAW_BASE_LO_P0			0x020
#define NIC_RXE_RAW_BASE_HI_P0			0x030
#define NIC_RXE_RAW_QPN_P2			0x070
#define NIC_RXE_RAW_BASE_LO_P2			0x080
#define NIC_RXE_RAW_BASE_HI_P2			0x090
#define NIC_RXE_WIN_WQ_BASE_LO(w)		(0x100 + 8 * (w))	/* 0..3 */
#define NIC_RXE_WIN_WQ_BASE_HI(w)		(0x104 + 8 * (w))
#define NIC_RXE_WQ_BASE_WINDOW_SEL		0x120
#define NIC_RXE_CQ_CFG0				0x158
#define NIC_RXE_CQ_BASE_ADDR_31_7		0x160
#define NIC_RXE_CQ_BASE_ADDR_49_32		0x180
#define NIC_RXE_CQ_WRITE_INDEX			0x1A0
#define NIC_RXE_CQ_PRODUCER_INDEX		0x1C0
#define NIC_RXE_CQ_CONSUMER_INDEX		0x1E0
#define NIC_RXE_CQ_MASK				0x200
#define NIC_RXE_CQ_MSI_CAUSE_CLR		0x260
#define NIC_RXE_CQ_MSI_ADDR(i)			(0x270 + 4 * (i))
#define NIC_RXE_CQ_MSI_DATA(i)			(0x2B0 + 4 * (i))
#define NIC_RXE_MSI_CAUSE			0x2F4
#define NIC_RXE_MSI_CAUSE_MASK			0x2F8
/*
 * The raw receive ring the driver gives the port (gaudi_nic.h:
 * NIC_RX_SIZE, NIC_RAW_ELEM_SIZE): 512 slots of 8 KiB; the hardware
 * writes each frame from its destination MAC into the next slot, with no
 * length descriptor, and advances RES_RING0_PI (read modulo 512).
 */
#define GAUDI_NIC_RAW_RING_SLOTS		512
#define GAUDI_NIC_RAW_SLOT_SIZE			8192

/*
 * TXE block of a port (2020 series and out-of-tree gaudi_nic.c,
 * asic_reg/nic0_txe0_regs.h): four send-queue base addresses; a QP's send
 * queue is base[i] + wq_base_address * (1 << LOG_MAX_WQ_SIZE_i) * 128,
 * where i = (wq_base_address >> SQ_BASE_ADDRESS_SEL) & 3 and
 * wq_base_address is the QP's requester context field.  LOG_MAX_WQ_SIZE is
 * in 128-byte cache lines (four send WQEs each).  PORT0/1_MAC_CFG hold the
 * source MAC.
 */
#define NIC_TXE_LOG_MAX_WQ_SIZE(i)		(0x010 + 4 * (i))	/* 0..3 */
#define NIC_TXE_SQ_BASE_ADDRESS_49_32(i)	(0x020 + 4 * (i))
#define NIC_TXE_SQ_BASE_ADDRESS_31_0(i)		(0x030 + 4 * (i))
#define NIC_TXE_SQ_BASE_ADDRESS_SEL		0x040
#define NIC_TXE_PORT0_MAC_CFG_47_32		0x088
#define NIC_TXE_PORT0_MAC_CFG_31_0		0x08C
#define NIC_TXE_PORT1_MAC_CFG_47_32		0x090
#define NIC_TXE_PORT1_MAC_CFG_31_0		0x094
#define GAUDI_NIC_CACHE_LINE			128
#define GAUDI_NIC_SQ_BASES			4

/*
 * Send WQE, 32 bytes (2020 series: CFG_SQ_WQE_*; hl-thunk gaudi_nic.h:
 * struct sq_wqe): dword 0 bits 31:28 opcode; dword 1 local address 31:0;
 * dword 2 bits 17:0 local address 49:32 and bits 31:18 size in bytes.
 */
#define GAUDI_NIC_SEND_WQE_SIZE			32
#define NIC_WQE_OPCODE_SHIFT			28
#define NIC_WQE_OPCODE				0xF0000000U	/* dword 0 */
#define NIC_WQE_LOCAL_ADDR_HI			0x0003FFFFU	/* dword 2 */
#define NIC_WQE_SIZE_SHIFT			18
#define NIC_WQE_SIZE				0xFFFC0000U	/* dword 2 */
/*
 * The rest of a send WQE (hl-thunk gaudi_nic.h: struct sq_wqe): dword 0
 * bit 27 ackreq; dword 3 remote address 31:0; dword 4 bits 17:0 remote
 * address 49:32 (the field is named 43_32 but is 18 bits wide); dword 5
 * bits 25:0 remote sync object, bit 31 sync_object_valid; dword 6 the
 * remote sync object's data; dword 7 the stride.
 */
#define NIC_WQE_ACKREQ				(1U << 27)	/* dword 0 */
#define NIC_WQE_REMOTE_ADDR_HI			0x0003FFFFU	/* dword 4 */
#define NIC_WQE_REMOTE_SOB			0x03FFFFFFU	/* dword 5 */
#define NIC_WQE_SYNC_VALID			(1U << 31)	/* dword 5 */
#define WQE_NOP					0
#define WQE_SEND				1
#define WQE_LINEAR				2
#define WQE_STRIDE				3
#define WQE_MULTI_STRIDE			4
#define WQE_RATE_UPDATE				5

/*
 * QP contexts (hl-thunk gaudi_nic.h: struct qpc_requester, 512 bits, and
 * struct qpc_responder, 256 bits; the driver's REQ_/RES_QPC_SET_* agree):
 * bit positions in the entry read as little-endian 32-bit words.
 */
#define GAUDI_NIC_REQ_QPC_SIZE			64
#define GAUDI_NIC_RES_QPC_SIZE			32
#define REQ_QPC_TRANSPORT_BIT			369	/* 1 = raw, 0 = RC */
#define REQ_QPC_LAST_INDEX_BIT			392	/* 22 bits */
#define REQ_QPC_CONSUMER_INDEX_BIT		436	/* 22 bits */
#define REQ_QPC_PRODUCER_INDEX_BIT		458	/* 22 bits */
#define REQ_QPC_WQ_BASE_ADDR_BIT		480	/* 24 bits */
#define REQ_QPC_VALID_BIT			511
#define RES_QPC_EXPECTED_PSN_BIT		192	/* 24 bits */
#define RES_QPC_VALID_BIT			255
/*
 * The rest of the two contexts the RoCE engine reads (hl-thunk
 * gaudi_nic.h, struct qpc_requester / qpc_responder, bit positions
 * counted from their field order and widths).  Requester: destination QP
 * 0 (24), remote key 32, destination IPv4 64, source IPv4 96, destination
 * MAC bits 31:0 at 128 and 47:32 at 160 (16), sequence-error retry count
 * 176 (8), timeout retry count 184 (8), next PSN to send 192 (24),
 * oldest unacknowledged PSN 224 (24), sob_en 255, error 510.  Responder:
 * destination QP 0 (24), connection state 30 (2: open, close, resync,
 * error), local key 32, destination IPv4 64, source IPv4 96, destination
 * MAC 128/160, NAK syndrome 189 (2), transport 191, sob_en 251.
 */
#define REQ_QPC_DST_QP_BIT			0	/* 24 bits */
#define REQ_QPC_REMOTE_KEY_BIT			32
#define REQ_QPC_DST_IP_BIT			64
#define REQ_QPC_SRC_IP_BIT			96
#define REQ_QPC_DST_MAC_31_0_BIT		128
#define REQ_QPC_DST_MAC_47_32_BIT		160	/* 16 bits */
#define REQ_QPC_SEQ_ERR_RETRY_BIT		176	/* 8 bits */
#define REQ_QPC_TIMEOUT_RETRY_BIT		184	/* 8 bits */
#define REQ_QPC_NEXT_PSN_BIT			192	/* 24 bits */
#define REQ_QPC_OLDEST_UNACKED_PSN_BIT		224	/* 24 bits */
#define REQ_QPC_SOB_EN_BIT			255
#define REQ_QPC_ERROR_BIT			510
#define RES_QPC_DST_QP_BIT			0	/* 24 bits */
#define RES_QPC_CONN_STATE_BIT			30	/* 2 bits */
#define RES_QPC_LOCAL_KEY_BIT			32
#define RES_QPC_DST_IP_BIT			64
#define RES_QPC_SRC_IP_BIT			96
#define RES_QPC_DST_MAC_31_0_BIT		128
#define RES_QPC_DST_MAC_47_32_BIT		160
#define RES_QPC_NACK_SYNDROME_BIT		189	/* 2 bits */
#define RES_QPC_TRANSPORT_BIT			191
#define RES_QPC_SOB_EN_BIT			251
#define RES_QPC_CONN_ERROR			3
#define QPC_TRANSPORT_RC			0
#define QPC_TRANSPORT_RAW			1

/*
 * Not a public fact: this project's choice, shared by the model and the
 * driver until a source turns up (Documentation/emulator/nic.rst).
 * - INTERRUPT_EN: interrupt n's MSI enable at bit 2n, its wire enable at
 *   bit 2n + 1 (upstream names the fields INTERRUPTn_MSI_EN and
 *   INTERRUPTn_WIRE_EN without positions).
 * - RAW_BASE_HI: address bits 49:32 in 17:0, log2 of the slot size in
 *   27:24 (fields RAW_BASE_ADDR_HI and LOG_RAW_ENTRY_SIZE, positions not
 *   public).
 * - RES_RING0_CI: the driver writes the slot it will read next; the ring
 *   is full when the next PI would equal it (Habana's driver never writes
 *   it; how silicon avoids overwriting unread slots is not public).
 */
#define QPC_INTERRUPT_EN_MSI(n)			(1U << (2 * (n)))
#define QPC_INTERRUPT_EN_WIRE(n)		(1U << (2 * (n) + 1))
/*
 * - The RoCE engine (Documentation/emulator/nic.rst, "RoCE v2"): the
 *   remote sync object of a send WQE is the CFG offset of a SOB register
 *   (SYNC_MNGR_*_SOB_OBJ_n); the port's completion queue 0 is enabled by
 *   CQ_CFG0 bit 0, lives at CQ_BASE_ADDR_49_32 << 32 | CQ_BASE_ADDR_31_7
 *   << 7 (an address the port's user ASID translates), has CQ_MASK + 1
 *   entries; PRODUCER_INDEX counts CQEs written (WRITE_INDEX is it masked),
 *   CONSUMER_INDEX is the driver's; with CQ_CFG0 bit 1 a CQE written while
 *   MSI_CAUSE bit 0 is clear sets it and writes CQ_MSI_DATA_0 to the
 *   register CQ_MSI_ADDR_0 names (an MSI request register or a SOB);
 *   writing 1s to CQ_MSI_CAUSE_CLR clears MSI_CAUSE bits.  CQE, 8 bytes (the public facts: valid
 *   bit 63, type bit 23): requester: bits 21:0 the WQE index, bit 23 = 1,
 *   bits 55:32 the QPN; responder: bits 22:0 the QPN, bit 23 = 0, bits
 *   62:32 the immediate data's low 31 bits.  QP error syndromes 0x50...
 */
/*
 * - The remote sync-object window: a remote sync-object write reaches a
 *   SOB only when its CFG offset lies in [RES_SOB_MIN, RES_SOB_MAX]
 *   (inclusive; both reset to 0, so nothing is reachable until the driver
 *   opens the window).  Offsets past the last register of the public QPC
 *   map (RNR_RETRY_COUNT_EN, 0x710), inside the block the driver's LBW
 *   range keeps from user engines.  Habana's responder context has no
 *   room for such a bound (its bits 216-250 are log_buffer_size_mask and
 *   cyclic_index), and silicon's answer is not public.
 */
#define NIC_QPC_RES_SOB_MIN			0x7F0
#define NIC_QPC_RES_SOB_MAX			0x7F4
#define ROCE_CQ_CFG0_ENABLE			(1U << 0)
#define ROCE_CQ_CFG0_INT_EN			(1U << 1)
#define GAUDI_NIC_CQE_SIZE			8	/* bytes (NIC.md) */
/* Every port runs at 100 Gb/s (AWS DL1: 100 Gbps RoCE v2 links). */
#define GAUDI_NIC_SPEED_MBPS			100000
#define ROCE_CQE_REQUESTER			(1U << 23)	/* low dword */
#define ROCE_CQE_QPN				0x00FFFFFFU
#define ROCE_CQE_VALID				(1U << 31)	/* high dword */
#define ROCE_SYN_WQE_FAULT			0x50	/* requester */
#define ROCE_SYN_LOCAL_FAULT			0x51
#define ROCE_SYN_BAD_WQE			0x52
#define ROCE_SYN_RETRY_EXCEEDED			0x53
#define ROCE_SYN_REMOTE_ACCESS			0x54
#define ROCE_SYN_REMOTE_INVALID			0x55
#define ROCE_SYN_RES_INVALID_QP			0x60	/* responder */
#define ROCE_SYN_RES_BAD_RKEY			0x61
#define ROCE_SYN_RES_MMU			0x62
#define ROCE_SYN_RES_LENGTH			0x63
#define ROCE_SYN_RES_SOB			0x64
#define RAW_BASE_HI_ADDR			0x0003FFFFU
#define RAW_BASE_HI_LOG_ENTRY_SHIFT		24
#define RAW_BASE_HI_LOG_ENTRY			0x0F000000U
/*
 * - RoCE counters (Documentation/emulator/nic.rst, "RoCE counters"): the
 *   QPC, TXS, TXE and TMR blocks of silicon have DBG_COUNT_SELECT_0..11
 *   registers (out-of-tree asic_reg/nic0_qpc0_regs.h, nic0_txe0_regs.h:
 *   what a debug counter counts), but where the counts are read is not
 *   public.  The model shows its RoCE engine's counters of port p in a
 *   read-only window of the port's own QPC block from 0x800 (unused on
 *   silicon: the block's last register, RNR_RETRY_COUNT_EN, is at 0x710),
 *   which the LBW range registers close to user engines with the rest of
 *   the NIC: counter i is 64 bits, its low word at ROCE_CNT_LO(i), its
 *   high word at ROCE_CNT_HI(i); reading a low word latches that
 *   counter's high word, which a read of any HI register of the port then
 *   returns (read LO, then HI).  Counters count from the last device
 *   reset, are not cleared by reading, ignore writes; indices without a
 *   counter read 0.
 */
#define NIC_QPC_ROCE_CNT_BASE			0x800
#define NIC_QPC_ROCE_CNT_LO(i)			(0x800 + 8 * (i))
#define NIC_QPC_ROCE_CNT_HI(i)			(0x804 + 8 * (i))
#define NIC_QPC_ROCE_CNT_SLOTS			32	/* 0x800..0x8FF */
#define ROCE_CNT_TX_PKTS			0	/* requests sent */
#define ROCE_CNT_RETRANSMITS			1	/* requests sent again */
#define ROCE_CNT_TX_ACKS			2	/* ACKs sent */
#define ROCE_CNT_TX_NAKS			3	/* NAKs sent */
#define ROCE_CNT_RX_PKTS			4	/* RoCE frames received */
#define ROCE_CNT_RX_ACKS			5	/* ACKs received */
#define ROCE_CNT_RX_NAKS			6	/* NAKs received */
#define ROCE_CNT_ICRC_ERRORS			7	/* dropped: bad iCRC */
#define ROCE_CNT_BAD_FRAMES			8	/* dropped: malformed */
#define ROCE_CNT_DUPLICATES			9	/* requests seen before */
#define ROCE_CNT_TIMEOUTS			10	/* retransmission timer */
#define ROCE_CNT_REQ_QP_ERRORS			11	/* requester QPs failed */
#define ROCE_CNT_RES_QP_ERRORS			12	/* responder QPs failed */
#define ROCE_CNT_CQ_OVERFLOWS			13	/* CQEs lost: CQ full */
#define ROCE_CNT_INJECTED			14	/* model's fault injection */
/* Dropped or refused, by reason (issue 22; model choices, nic.rst). */
#define ROCE_CNT_DROP_MAC			15	/* for another MAC */
#define ROCE_CNT_DROP_SOURCE			16	/* request not from the peer */
#define ROCE_CNT_DROP_ACK_SOURCE		17	/* ACK/NAK not from the peer */
#define ROCE_CNT_DROP_NO_QP			18	/* no valid responder context */
#define ROCE_CNT_REGION_ERRORS			19	/* key, bounds, access, QP */
#define ROCE_CNT_ADDR_REFUSED			20	/* not a user address class */
#define ROCE_CNT_RX_RNR_NAKS			21	/* RNR NAKs received */
#define ROCE_CNT_RNR_RETRIES			22	/* resent after an RNR NAK */
#define ROCE_CNT_MTU_ERRORS			23	/* packet size vs path MTU */
#define ROCE_CNT_STATE_RESETS			24	/* engine state of a QP dropped */

/*
 * Remote-peer protection and conformance (issue 22).  Not public: Gaudi 1's
 * contexts are packed to 512 and 256 bits with no free field (hl-thunk
 * gaudi_nic.h) and no memory-region table of Gaudi 1 is public, so all of
 * this is the model's choice, shared by the model and the driver
 * (Documentation/emulator/nic.rst, "Remote peers").  Registers of the
 * port's own QPC block, past the public map (last 0x710), inside the LBW
 * range the driver keeps from user engines.
 *
 * Two more per-port tables in device memory, reached through the context
 * gateway like the contexts: GW_CTRL bits 27:25 select the table (0: the
 * contexts, bit 24 picks which; 1: QP extension; 2: memory regions), bits
 * 23:0 the index.  A table entry is 32 bytes (GW_DATA/MASK 0..7; 8..15
 * ignored).  The gateway reaches a table whether or not it is enabled
 * (the driver fills it, then enables it); an index beyond the table
 * changes nothing and leaves GW_DATA 0.
 */
#define QPC_GW_CTRL_TABLE_SHIFT			25
#define QPC_GW_CTRL_TABLE			0x0E000000U
#define QPC_GW_TABLE_QPC			0
#define QPC_GW_TABLE_EXT			1
#define QPC_GW_TABLE_MR				2
#define GAUDI_NIC_EXT_SIZE			32
#define GAUDI_NIC_MR_SIZE			32
/*
 * The QP extension table: entry n at EXT_BASE (49_18 << 18 | 17_7 << 7) +
 * 32 * n for QPN n (requester and responder of QP n), as many entries as
 * the engine serves QPNs.  EXT_CFG bit 31 enables it; disabled (reset), or
 * an entry without VALID, every QP has path MTU 4096, RNR retry count 7
 * (unlimited), generation 0.  Word 0: bits 2:0 path MTU (InfiniBand enum:
 * 1 = 256 .. 5 = 4096; 0, 6, 7 = 4096), bits 6:4 RNR retry count (7 =
 * unlimited), bits 23:16 generation, bit 31 VALID.  Words 1..7: the verbs
 * fields below (0 for the ioctl's QPs).  The responder's MSN is engine state of the connection (reset with
 * it, like the message state).
 */
#define NIC_QPC_EXT_BASE_ADDRESS_49_18		0x910
#define NIC_QPC_EXT_BASE_ADDRESS_17_7		0x914
#define NIC_QPC_EXT_CFG				0x918
#define EXT_CFG_ENABLE				(1U << 31)
#define EXT_W0_PATH_MTU				0x00000007U
#define EXT_W0_RNR_RETRY_SHIFT			4
#define EXT_W0_RNR_RETRY			0x00000070U
#define EXT_W0_GEN_SHIFT			16
#define EXT_W0_GEN				0x00FF0000U
#define EXT_W0_VALID				(1U << 31)
#define EXT_MTU_256				1
#define EXT_MTU_4096				5
#define EXT_RNR_RETRY_INFINITE			7
/*
 * The memory-region table: entry i at MR_BASE (49_18 << 18 | 17_7 << 7) +
 * 32 * i, 1 << MR_CFG[4:0] entries (at most 1 << 10).  MR_CFG bit 31
 * enables region checks: every RDMA WRITE packet with payload must then
 * fall inside the region of entry (R_Key & (entries - 1)) whose word 4
 * equals the R_Key, VALID and REMOTE_WRITE set, owned by the responder QP
 * (word 5 QPN) of the QP's current generation (word 5 bits 31:24 = the
 * extension's generation).  Disabled (reset), the R_Key must equal the
 * responder context's local_key and nothing bounds the address (the
 * engine before regions).  Words: 0/1 start (device address, 31:0 and
 * 63:32), 2/3 length in bytes, 4 key, 5 bits 23:0 QPN and 31:24
 * generation, 6 bit 0 VALID, bit 1 REMOTE_WRITE, bit 2 REMOTE_READ (an
 * RDMA READ request needs it, as a WRITE needs REMOTE_WRITE), 7 reserved 0.
 * Without the table a READ's R_Key must equal local_key, as a WRITE's.
 * A region of a protection domain (issue 25): word 5 QPN 0 (never an RC
 * QP) makes the entry serve every QP whose extension word 7 equals word 7
 * (not 0); its generation bits are then not compared: the driver never
 * gives a PD number again while entries of the earlier PD may remain.
 */
#define NIC_QPC_MR_BASE_ADDRESS_49_18		0x900
#define NIC_QPC_MR_BASE_ADDRESS_17_7		0x904
#define NIC_QPC_MR_CFG				0x908
#define MR_CFG_LOG_ENTRIES			0x0000001FU
#define MR_CFG_MAX_LOG_ENTRIES			10
#define MR_CFG_ENABLE				(1U << 31)
#define MR_W5_QPN				0x00FFFFFFU
#define MR_W5_GEN_SHIFT				24
#define MR_W6_VALID				(1U << 0)
#define MR_W6_REMOTE_WRITE			(1U << 1)
#define MR_W6_REMOTE_READ			(1U << 2)
#define MR_W7_PD				0xFFFFFFFFU	/* QPN 0 */
/*
 * Address classes of the RC data path (responder data, requester local
 * data, WQE fetch, CQE write): only the host VA range through the MMU with
 * the port's user ASID, user HBM (from GAUDI_DRAM_USER_START) and user
 * SRAM (from GAUDI_SRAM_USER_START); anything else (configuration space,
 * the driver's HBM and SRAM, host physical) is refused.  SOBs only through
 * the remote-SOB window.  The raw QP (gaudi_en) stays the driver's.
 *
 * The raw receive ring's length word: the model writes, after each frame,
 * the frame's length (bits 13:0, from the destination MAC) with bit 31 set
 * into the last 4 bytes of its slot; a frame longer than slot - 4 bytes is
 * dropped as too long.
 */
#define GAUDI_NIC_RAW_LEN_WORD			4
#define RAW_LEN_BYTES				0x00003FFFU
#define RAW_LEN_VALID				(1U << 31)
/* New QP error syndromes. */
#define ROCE_SYN_RNR_EXCEEDED			0x56	/* requester */
#define ROCE_SYN_RES_REGION			0x65	/* responder: region */
#define ROCE_SYN_RES_ADDR			0x66	/* responder: address class */
#define ROCE_SYN_RES_MTU			0x67	/* responder: path MTU */

/*
 * The verbs operations (issue 25; Documentation/emulator/nic.rst, "Verbs
 * operations").  Public facts: the opcode SEND (1) of the send WQE
 * (hl-thunk gaudi_nic.h, the 2020 series' CFG_SQ_WQE_*); the InfiniBand
 * wire (BTH opcodes, AETH, RNR timer codes: InfiniBand architecture vol. 1,
 * ch. 9) and the work-completion status numbers of libibverbs' public
 * <infiniband/verbs.h> (enum ibv_wc_status), which the CQE reuses.  The
 * rest is the model's choice: Gaudi 1's receive WQE is 8 bytes with no
 * buffer address (hl-thunk: sync object data/address, cq_valid, valid) and
 * its CQE 8 bytes, so neither SEND/RECV nor RDMA READ of a verbs device
 * fits silicon's public formats.
 *
 * Send WQE, new opcode and dword-0 flags (bits 26:23 have no public
 * meaning on silicon):
 * - WQE_SEND (1): SEND of `size` bytes from the local address (dwords
 *   1-2); dwords 3-5 are ignored.  WQE_READ (6): RDMA READ of `size`
 *   bytes from the remote address (dwords 3-4) into the local address.
 * - WQE_F_IMM (bit 26): with immediate data, dword 6 (SEND with
 *   immediate; on LINEAR, RDMA WRITE with immediate).  Not with
 *   sync_object_valid, not on READ: those WQEs are bad (QP error 0x52).
 * - WQE_F_RKEY (bit 25): the R_Key is dword 7 instead of the requester
 *   context's remote_key (LINEAR and READ).
 * - WQE_F_SIGNALED (bit 24): on a verbs QP (extension VERBS) a WQE that
 *   succeeds writes a CQE only if set; a failed one always does.  Other
 *   QPs complete every WQE, as before.
 * - WQE_F_LEN32 (bit 23): the size is dword 5 bits 30:0 (up to 2^31 - 1
 *   bytes, InfiniBand's message limit) instead of the 14-bit field of
 *   dword 2; the WQE then has no remote sync object (dword 5 bit 31 must
 *   be clear, else the WQE is bad).
 */
#define WQE_READ				6	/* model's */
#define NIC_WQE_F_IMM				(1U << 26)	/* dword 0 */
#define NIC_WQE_F_RKEY				(1U << 25)
#define NIC_WQE_F_SIGNALED			(1U << 24)
#define NIC_WQE_F_LEN32				(1U << 23)
#define NIC_WQE_LEN32				0x7FFFFFFFU	/* dword 5 */
/*
 * QP extension entry, the verbs part (word 0 above the issue 22 fields,
 * words 1..7):
 * - word 0 bits 12:8 MIN_RNR_TIMER: the RNR NAK timer code (IBA table 45)
 *   the responder sends when no receive WQE is posted; bit 13 VERBS: the
 *   QP completes into the CQ table (send CQ, receive CQ below) with 32-byte
 *   CQEs, SEND and RDMA WRITE with immediate consume its receive queue.
 *   Without VERBS: CQ 0 of the RXE with 8-byte CQEs, as before, and a SEND
 *   arriving is an invalid request.
 * - words 1/2: the receive queue: base address bits 31:0 (word 1) and
 *   49:32 (word 2 bits 17:0), a user address (the port's ASID); word 2
 *   bits 28:24 log2 of its entries (1..16; 0: no receive queue).
 * - word 3: the receive queue's consumer index (free-running 32 bits), the
 *   engine's: the driver writes 0 when it sets the queue up and leaves the
 *   word out of later gateway masks.
 * - word 4: bits 15:0 the send CQ, bits 31:16 the receive CQ (CQ table
 *   indices).
 * - words 5/6: an offset (bits 31:0, 63:32) the responder adds to the
 *   RETH VA of every RDMA WRITE and READ request before the region check
 *   and the MMU (a verbs peer sends the process VA; the driver maps it at
 *   another device VA); not to a remote sync-object write.  0: none.
 * - word 7: the QP's protection domain, for regions of a PD (below); 0:
 *   none.  These two words apply with or without VERBS.
 * The receive queue's producer index is the holder's: a free-running
 *   32-bit word right after the ring (base + 32 * entries), read by the
 *   engine when a message needs a receive WQE; PI - CI > entries is a
 *   guest error that stops the queue (treated as empty).
 */
#define EXT_W0_MIN_RNR_SHIFT			8
#define EXT_W0_MIN_RNR				0x00001F00U
#define EXT_W0_VERBS				(1U << 13)
#define EXT_W2_RQ_ADDR_HI			0x0003FFFFU
#define EXT_W2_RQ_LOG_SHIFT			24
#define EXT_W2_RQ_LOG				0x1F000000U
#define EXT_RQ_MAX_LOG				16
#define EXT_W4_SEND_CQ				0x0000FFFFU
#define EXT_W4_RECV_CQ_SHIFT			16
/*
 * Receive WQE, 32 bytes: dwords 0/1 the buffer address (bits 49:0), dword 2
 * its length in bytes, dword 3 reserved 0, dwords 4/5 the wr_id cookie
 * (echoed in the CQE), dwords 6/7 reserved 0.  One buffer per WQE.
 */
#define GAUDI_NIC_RECV_WQE_SIZE			32
/*
 * READs a responder QP queues (InfiniBand's max_dest_rd_atomic; the
 * requester keeps no more outstanding per QP): the driver's
 * max_qp_rd_atom.  More are dropped as if lost.
 */
#define GAUDI_NIC_READ_DEPTH			16
/*
 * The CQ table: 1 << CQT_CFG[4:0] (at most 1024) 32-byte entries at
 * CQT_BASE (49_18 << 18 | 17_7 << 7), reached through the gateway (table
 * 3); CQT_CFG bit 31 enables it.  The driver gives every port of a card
 * the same table (CQs are the card's; the model runs one port at a time).
 * Entry: word 0 ring base 31:0; word 1 bits 17:0 ring base 49:32 (a user
 * address), bits 28:24 log2 of its CQEs (1..16); word 2 the producer
 * index (free-running, the engine's: written 0 at creation, then masked
 * out); word 3 bit 31 VALID, bit 0 EVENTS (armed completions post an
 * event), bit 1 OVERFLOW (the engine's: a CQE was lost, later CQEs are
 * dropped until the driver rewrites the entry); word 4 the last arm
 * sequence served (the engine's); words 5..7 reserved 0.
 * The holder's consumer record follows the ring (base + 32 * CQEs): word 0
 * the consumer index (free-running), word 1 the arm sequence: a value
 * other than entry word 4 asks for one event at the next CQE, which then
 * copies it to word 4.  A CQE is lost (OVERFLOW, event with bit 30, counted
 * as ROCE_CNT_CQ_OVERFLOWS) when PI - CI would exceed the ring.
 */
#define NIC_QPC_CQT_BASE_ADDRESS_49_18		0x920
#define NIC_QPC_CQT_BASE_ADDRESS_17_7		0x924
#define NIC_QPC_CQT_CFG				0x928
#define QPC_GW_TABLE_CQ				3
#define GAUDI_NIC_CQT_SIZE			32
#define CQT_CFG_LOG_ENTRIES			0x0000001FU
#define CQT_CFG_MAX_LOG_ENTRIES			10
#define CQT_CFG_ENABLE				(1U << 31)
#define CQT_W1_ADDR_HI				0x0003FFFFU
#define CQT_W1_LOG_SHIFT			24
#define CQT_W1_LOG				0x1F000000U
#define CQT_MAX_LOG				16
#define CQT_W3_EVENTS				(1U << 0)
#define CQT_W3_OVERFLOW				(1U << 1)
#define CQT_W3_VALID				(1U << 31)
/*
 * The verbs CQE, 32 bytes: word 0 bits 21:0 the WQE index (send queue
 * index, or the receive queue's consumer index of the WQE, low 22 bits),
 * bit 23 requester; word 1 bits 23:0 the QPN, 31:24 the opcode (CQE_OP_*;
 * bit 7 set on the receive side); word 2 the byte count (send: the WQE's
 * size; receive: the bytes placed, for WRITE with immediate the message's
 * length); word 3 the immediate data (the ImmDt's four bytes read
 * big-endian); words 4/5 the receive WQE's wr_id (0 on the send side);
 * word 6 bits 7:0 the status (CQE_ST_*, libibverbs' enum ibv_wc_status
 * numbers), bit 8 IMM (word 3 valid), bits 23:16 the QP error syndrome
 * when the status is not success; word 7 bit 31 VALID (the holder clears
 * it when it consumed the entry, then moves the consumer index).
 * A failed WQE completes with its error; the WQEs after it are the
 * provider's to flush (the QP is in error, the engine runs none of them).
 */
#define GAUDI_NIC_VCQE_SIZE			32
#define VCQE_W0_WQE_INDEX			0x003FFFFFU
#define VCQE_W0_REQUESTER			(1U << 23)
#define VCQE_W1_QPN				0x00FFFFFFU
#define VCQE_W1_OP_SHIFT			24
#define VCQE_W6_STATUS				0x000000FFU
#define VCQE_W6_IMM				(1U << 8)
#define VCQE_W6_SYNDROME_SHIFT			16
#define VCQE_W7_VALID				(1U << 31)
#define CQE_OP_SEND				0x00
#define CQE_OP_RDMA_WRITE			0x01
#define CQE_OP_RDMA_READ			0x02
#define CQE_OP_RECV				0x80
#define CQE_OP_RECV_RDMA_IMM			0x81
#define CQE_ST_SUCCESS				0	/* IBV_WC_SUCCESS */
#define CQE_ST_LOC_LEN_ERR			1
#define CQE_ST_LOC_QP_OP_ERR			2
#define CQE_ST_LOC_PROT_ERR			4
#define CQE_ST_WR_FLUSH_ERR			5
#define CQE_ST_REM_INV_REQ_ERR			9
#define CQE_ST_REM_ACCESS_ERR			10
#define CQE_ST_REM_OP_ERR			11
#define CQE_ST_RETRY_EXC_ERR			12
#define CQE_ST_RNR_RETRY_EXC_ERR		13
/*
 * CQ events: a per-port event queue in the driver's memory at CQ_EQ_BASE
 * (49_18 << 18 | 17_7 << 7), CQ_EQ_MASK + 1 entries of 4 bytes: bits 15:0
 * the CQ, bit 30 the CQ overflowed, bit 31 valid.  CQ_EQ_PI counts entries
 * written (the engine's), CQ_EQ_CI is the driver's; an event finding the
 * queue full is lost and counted (ROCE_CNT_CQ_EVENTS_LOST).  With
 * RXE CQ_CFG0 bit 2, an event written while RXE MSI_CAUSE bit 1 is clear
 * sets it and writes CQ_MSI_DATA_1 to the register CQ_MSI_ADDR_1 names (as
 * CQ 0 does with bit 0 and CQ_MSI_ADDR_0); CQ_MSI_CAUSE_CLR re-arms.
 * Base 0 (reset): no events.
 */
#define NIC_QPC_CQ_EQ_BASE_49_18		0x930
#define NIC_QPC_CQ_EQ_BASE_17_7			0x934
#define NIC_QPC_CQ_EQ_MASK			0x938
#define NIC_QPC_CQ_EQ_PI			0x93C
#define NIC_QPC_CQ_EQ_CI			0x940
#define CQ_EQ_CQ				0x0000FFFFU
#define CQ_EQ_OVERFLOW				(1U << 30)
#define CQ_EQ_VALID				(1U << 31)
#define ROCE_CQ_CFG0_EQ_INT_EN			(1U << 2)
#define ROCE_MSI_CAUSE_EQ			(1U << 1)
/*
 * The doorbell page: 4 KiB per port at macro + 0x3E000 (even port) and
 * + 0x3F000 (odd port), past every public block of the macro and inside
 * the LBW ranges the driver closes to user engines, so that the driver can
 * map it alone into a verbs user's context.  A 32-bit write at offset 0
 * rings QP (value >> 22) (QPNs below 1024) with PI (value & 0x3FFFFF) in
 * one access, as the unsecured doorbell does (raw QPs refused); every
 * other offset and every read is ignored (reads 0).
 */
#define NIC_DB_PAGE_OFFSET			0x3E000	/* + GAUDI_NIC_PORT_STRIDE */
#define NIC_DB_PAGE_SIZE			0x1000
#define NIC_DB_RING				0x000
#define NIC_DB_QPN_SHIFT			22
#define NIC_DB_PI				0x003FFFFFU
/* Counters of the verbs operations (ROCE_CNT_*, after the issue 22 ones). */
#define ROCE_CNT_TX_RNR_NAKS			25	/* RNR NAKs sent */
#define ROCE_CNT_RECV_WQES			26	/* receive WQEs consumed */
#define ROCE_CNT_READS_SERVED			27	/* READ requests answered */
#define ROCE_CNT_CQ_EVENTS_LOST			28	/* CQ event queue full */
#define ROCE_CNT_NUM				29
/* QP error syndromes of the verbs operations. */
#define ROCE_SYN_LOCAL_WRITE			0x57	/* requester: READ data */
#define ROCE_SYN_REMOTE_OP			0x58	/* requester: NAK remote op. */
#define ROCE_SYN_RES_NO_RQ			0x68	/* SEND, no receive queue */
#define ROCE_SYN_RES_RECV_LEN			0x69	/* beyond the receive WQE */
#define ROCE_SYN_RES_RECV_FAULT			0x6A	/* receive WQE or buffer */

#endif /* GAUDI1_NIC_H */
