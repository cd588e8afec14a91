/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the NIC (ten ports in five macros): MAC link status and
 * statistics, the QP-context gateway, the raw Ethernet send queue and
 * receive ring, the QPC interrupts.  The environment's side (backend,
 * link, received frames) is declared in gaudi_core.h.
 */
#ifndef GAUDI_NIC_H
#define GAUDI_NIC_H

#include <stdbool.h>
#include <stdint.h>

#include "gaudi_core.h"
#include "gaudi1/nic.h"
#include "roce.h"

/* The MAC counters the model keeps per port (nic.c maps them to STAT). */
enum gaudi_nic_cnt {
    GAUDI_NIC_RX_OCTETS,
    GAUDI_NIC_RX_FRAMES,
    GAUDI_NIC_RX_UCAST,
    GAUDI_NIC_RX_MCAST,
    GAUDI_NIC_RX_BCAST,
    GAUDI_NIC_RX_DROPS,   /* ring full or not set up, write failed */
    GAUDI_NIC_RX_TOOLONG, /* longer than a ring slot */
    GAUDI_NIC_TX_OCTETS,
    GAUDI_NIC_TX_FRAMES,
    GAUDI_NIC_TX_UCAST,
    GAUDI_NIC_TX_MCAST,
    GAUDI_NIC_TX_BCAST,
    GAUDI_NIC_TX_ERRORS,  /* bad WQE or data, or no link */
    GAUDI_NIC_CNT_NUM
};

/* Largest frame a LINEAR WQE can send (its 14-bit size field). */
#define GAUDI_NIC_MAX_FRAME ((NIC_WQE_SIZE >> NIC_WQE_SIZE_SHIFT))
/* Shortest frame the model sends or receives: an Ethernet header. */
#define GAUDI_NIC_MIN_FRAME 14

struct gaudi_nic_port_state {
    bool link;
    bool off;  /* a lane of the port is in low power (PCS control 1) */
    uint64_t cnt[GAUDI_NIC_CNT_NUM];
    uint64_t wire_irqs; /* wire interrupts (the device CPU's to convert) */
};

struct gaudi_nic {
    struct gaudi_nic_backend be;
    struct gaudi_nic_port_state port[GAUDI_NIC_NUM_PORTS];
    uint32_t stat_hi[GAUDI_NIC_NUM_MACROS]; /* latched DATA_HI_REG */
    uint64_t gw_ops;    /* gateway operations done */
    uint64_t tx_wqes;   /* send WQEs executed */
    uint64_t qp_errors; /* entries pushed to the QP error FIFOs */
    uint8_t frame[GAUDI_NIC_MAX_FRAME]; /* the frame being sent */
    struct gaudi_roce roce; /* the RoCE v2 engine (roce.c) */
};

void gaudi_nic_init(struct gaudi_core *g);
void gaudi_nic_reset(struct gaudi_core *g);

/* A counter of port p (tests, the device CPU's NIC status). */
uint64_t gaudi_nic_counter(struct gaudi_core *g, unsigned int port,
                           enum gaudi_nic_cnt c);

/* For the RoCE engine (roce.c). */
/* Read QP qpn's context (64 or 32 bytes) into w; its address in *addr. */
int gaudi_nic_qpc_load(struct gaudi_core *g, unsigned int port, bool req,
                       uint32_t qpn, uint32_t *w, uint64_t *addr);
/*
 * Entry qpn of the QP extension table, entry idx of the memory-region
 * table (8 little-endian words each, hw/gaudi1/nic.h); -1 beyond the table
 * or unreadable.
 */
int gaudi_nic_ext_load(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                       uint32_t *w);
int gaudi_nic_mr_load(struct gaudi_core *g, unsigned int port, uint32_t idx,
                      uint32_t *w);
/*
 * Entry idx of table t (QPC_GW_TABLE_EXT, _MR, _CQ; 32 bytes) and its
 * address; -1 beyond the table or unreadable.  _store writes one back.
 */
int gaudi_nic_tbl_load(struct gaudi_core *g, unsigned int port,
                       unsigned int t, uint32_t idx, uint32_t *w,
                       uint64_t *addr);
void gaudi_nic_tbl_store(struct gaudi_core *g, unsigned int port,
                         uint64_t addr, const uint32_t *w);
/* CQ cq's event (overflow: it lost a CQE); false if the event was lost. */
bool gaudi_nic_cq_event(struct gaudi_core *g, unsigned int port,
                        uint32_t cq, bool overflow);
/* Write a context read by gaudi_nic_qpc_load() back to addr. */
void gaudi_nic_qpc_store(struct gaudi_core *g, unsigned int port, bool req,
                         uint64_t addr, const uint32_t *w);
/* Push a QP error to the port's error FIFO and raise its interrupt. */
void gaudi_nic_qp_error(struct gaudi_core *g, unsigned int port,
                        uint32_t qpn, uint32_t syndrome, bool requester);
/* The interrupt write of port's logic: data to a register address. */
void gaudi_nic_lbw_signal(struct gaudi_core *g, unsigned int port,
                          uint32_t addr, uint32_t data);
/* Send a frame out of the port (MAC statistics, link); false if dropped. */
bool gaudi_nic_xmit(struct gaudi_core *g, unsigned int port,
                    const void *frame, size_t len);

#endif
