/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the NIC's RoCE v2 engine (requester and responder of RC
 * QPs), Documentation/emulator/nic.rst "RoCE v2" and "Verbs operations".  nic.c hands it the
 * doorbells of RC QPs and the received UDP 4791 frames.
 */
#ifndef GAUDI_ROCE_H
#define GAUDI_ROCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gaudi1/nic.h"

struct gaudi_core;

/* Model choices (nic.rst): sizes and times of the engine. */
#define GAUDI_ROCE_MTU          4096    /* largest path MTU (payload) */
#define GAUDI_ROCE_MAX_QPN      1024    /* QPNs the engine serves */
#define GAUDI_ROCE_REQ_SLOTS    16      /* requester QPs in flight per port */
#define GAUDI_ROCE_WINDOW       32      /* unacknowledged packets per QP */
#define GAUDI_ROCE_RTO_NS       20000000 /* retransmission timeout */
#define GAUDI_ROCE_RETRIES      7       /* when the QPC's count is 0 */
#define GAUDI_ROCE_PKT_BUDGET   256     /* packets per doorbell, tick, ACK */
#define GAUDI_ROCE_DEFER        64      /* frames received while busy */
#define GAUDI_ROCE_RD_QP        GAUDI_NIC_READ_DEPTH /* per responder QP */
#define GAUDI_ROCE_RD_SLOTS     64      /* READs queued per port */
/* Ethernet + IPv4 + UDP + BTH + RETH + ImmDt + payload + iCRC. */
#define GAUDI_ROCE_MAX_FRAME    (14 + 20 + 8 + 12 + 16 + 4 + \
                                 GAUDI_ROCE_MTU + 4)

/*
 * What the engine counts per port; the values are the register indices
 * (hw/gaudi1/nic.h ROCE_CNT_*, a model choice, which say what each counts).
 */
enum gaudi_roce_cnt {
    GAUDI_ROCE_TX_PKTS = ROCE_CNT_TX_PKTS,
    GAUDI_ROCE_RETRANSMITS = ROCE_CNT_RETRANSMITS,
    GAUDI_ROCE_TX_ACKS = ROCE_CNT_TX_ACKS,
    GAUDI_ROCE_TX_NAKS = ROCE_CNT_TX_NAKS,
    GAUDI_ROCE_RX_PKTS = ROCE_CNT_RX_PKTS,
    GAUDI_ROCE_RX_ACKS = ROCE_CNT_RX_ACKS,
    GAUDI_ROCE_RX_NAKS = ROCE_CNT_RX_NAKS,
    GAUDI_ROCE_ICRC_ERRORS = ROCE_CNT_ICRC_ERRORS,
    GAUDI_ROCE_BAD_FRAMES = ROCE_CNT_BAD_FRAMES,
    GAUDI_ROCE_DUPLICATES = ROCE_CNT_DUPLICATES,     /* re-ACKed */
    GAUDI_ROCE_TIMEOUTS = ROCE_CNT_TIMEOUTS,
    GAUDI_ROCE_REQ_ERRORS = ROCE_CNT_REQ_QP_ERRORS,
    GAUDI_ROCE_RES_ERRORS = ROCE_CNT_RES_QP_ERRORS,
    GAUDI_ROCE_CQ_OVERFLOW = ROCE_CNT_CQ_OVERFLOWS,
    GAUDI_ROCE_INJECTED = ROCE_CNT_INJECTED,         /* drop/reorder/corrupt */
    GAUDI_ROCE_DROP_MAC = ROCE_CNT_DROP_MAC,
    GAUDI_ROCE_DROP_SOURCE = ROCE_CNT_DROP_SOURCE,
    GAUDI_ROCE_DROP_ACK_SOURCE = ROCE_CNT_DROP_ACK_SOURCE,
    GAUDI_ROCE_DROP_NO_QP = ROCE_CNT_DROP_NO_QP,
    GAUDI_ROCE_REGION_ERRORS = ROCE_CNT_REGION_ERRORS,
    GAUDI_ROCE_ADDR_REFUSED = ROCE_CNT_ADDR_REFUSED,
    GAUDI_ROCE_RX_RNR_NAKS = ROCE_CNT_RX_RNR_NAKS,
    GAUDI_ROCE_RNR_RETRIES = ROCE_CNT_RNR_RETRIES,
    GAUDI_ROCE_MTU_ERRORS = ROCE_CNT_MTU_ERRORS,
    GAUDI_ROCE_STATE_RESETS = ROCE_CNT_STATE_RESETS,
    GAUDI_ROCE_TX_RNR_NAKS = ROCE_CNT_TX_RNR_NAKS,
    GAUDI_ROCE_RECV_WQES = ROCE_CNT_RECV_WQES,
    GAUDI_ROCE_READS_SERVED = ROCE_CNT_READS_SERVED,
    GAUDI_ROCE_CQ_EVENTS_LOST = ROCE_CNT_CQ_EVENTS_LOST,
    GAUDI_ROCE_CNT_NUM = ROCE_CNT_NUM
};

/* One request packet kept until acknowledged (rebuilt to resend). */
struct gaudi_roce_pkt {
    uint64_t laddr;    /* local address of the payload */
    uint64_t raddr;    /* remote address (RETH VA) of the message */
    uint32_t psn;
    uint32_t npsn;     /* PSNs it takes: 1, a READ one per response */
    uint32_t wqe;      /* index of the WQE it belongs to */
    uint32_t msg_len;  /* RETH DMA length */
    uint32_t imm;      /* ImmDt (sync packets, immediate data) */
    uint32_t rkey;     /* the WQE's own R_Key (own_rkey) */
    uint32_t size;     /* the WQE's size (the CQE's byte count) */
    uint32_t got;      /* READ: bytes of the responses taken */
    uint16_t len;      /* payload bytes */
    uint8_t opcode;    /* BTH opcode */
    uint8_t cqe_op;    /* CQE_OP_* of its WQE */
    bool last;         /* the WQE completes when this one is acked */
    bool own_rkey;
    bool signaled;     /* NIC_WQE_F_SIGNALED */
    bool done;         /* READ: every response taken */
};

struct gaudi_roce_req {
    bool used;
    bool error;
    uint32_t qpn;
    uint8_t gen;              /* the QP's generation at the first doorbell */
    uint16_t mtu;             /* its path MTU (payload bytes per packet) */
    bool verbs;               /* extension VERBS: CQ table, 32-byte CQEs */
    uint16_t send_cq;         /* its CQ in the CQ table */
    bool read_gap;            /* a READ re-issued after a gap, not resumed */
    bool acked_valid;         /* acked: an ACK beyond an unfinished READ */
    uint32_t acked;
    unsigned int reads;       /* READs in the window */
    bool rnr;                 /* waiting out an RNR NAK until deadline */
    unsigned int rnr_retries; /* resends after RNR NAKs without progress */
    uint32_t pi, ci;          /* doorbell PI, next WQE to fetch */
    uint32_t entries;         /* send queue size in WQEs */
    uint64_t sq;              /* send queue address */
    /* The WQE being cut into packets. */
    bool cur;
    uint32_t cur_idx, cur_off, cur_size;
    uint64_t cur_laddr, cur_raddr;
    bool cur_sync, cur_data_done;
    uint32_t cur_sob, cur_sob_data;
    uint8_t cur_op;           /* WQE_LINEAR, WQE_SEND, WQE_READ */
    bool cur_imm, cur_own_rkey, cur_signaled;
    uint32_t cur_imm_data, cur_rkey;
    /* Unacknowledged packets, oldest first. */
    struct gaudi_roce_pkt win[GAUDI_ROCE_WINDOW];
    unsigned int head, n;
    uint32_t next_psn;
    uint64_t deadline;        /* 0 = no timer */
    unsigned int retries;
};

/*
 * The responder's engine state of one QP: it belongs to the connection and
 * ends with it (the context written, invalidated or found invalid, another
 * generation).
 */
struct gaudi_roce_res {
    bool active;              /* state of generation gen */
    bool in_msg;              /* between FIRST and LAST */
    bool invalid_seen;        /* reported: a packet for an invalid QP */
    uint8_t gen;
    uint64_t va;              /* where the next payload goes */
    uint32_t left;            /* bytes the RETH announced, still to come */
    uint32_t rkey;            /* the message's R_Key (its region) */
    uint32_t msn;             /* messages completed (AETH MSN) */
    bool send;                /* the message is a SEND (else a WRITE) */
    uint32_t msg_len;         /* a WRITE's RETH length */
    /* The receive WQE a SEND fills (verbs QPs). */
    bool rq_held;
    uint32_t rq_len, rq_got, rq_idx;
    uint64_t rq_addr, rq_wrid;
};

/* A READ request the responder answers, in arrival order per port. */
struct gaudi_roce_rd {
    bool used;
    uint8_t gen;              /* of the QP when it came */
    uint16_t sport;           /* the request's UDP source port */
    uint8_t mac[6];           /* the requester's */
    uint32_t qpn;
    uint32_t psn;             /* the first response's PSN */
    uint32_t npsn, sent;      /* responses in all, sent */
    uint32_t len, off;        /* bytes in all, sent */
    uint32_t rkey;
    uint32_t src_ip, dst_ip;  /* ours, the requester's */
    uint64_t va;
    uint64_t seq;
};

struct gaudi_roce_frame {
    unsigned int port;
    uint16_t len;
    uint8_t buf[GAUDI_ROCE_MAX_FRAME];
};

struct gaudi_roce {
    struct gaudi_roce_req req[GAUDI_NIC_NUM_PORTS][GAUDI_ROCE_REQ_SLOTS];
    struct gaudi_roce_res res[GAUDI_NIC_NUM_PORTS][GAUDI_ROCE_MAX_QPN];
    struct gaudi_roce_rd rd[GAUDI_NIC_NUM_PORTS][GAUDI_ROCE_RD_SLOTS];
    unsigned int rd_n[GAUDI_NIC_NUM_PORTS];
    uint64_t rd_seq;
    /*
     * Ports that may have requester QPs in flight or READs queued (bit
     * p): set when a slot or a READ is taken, cleared when a scan finds
     * the port idle.  Ports outside it are never scanned.
     */
    uint32_t busy;
    uint64_t cnt[GAUDI_NIC_NUM_PORTS][GAUDI_ROCE_CNT_NUM];
    uint32_t cnt_hi[GAUDI_NIC_NUM_PORTS]; /* latched ROCE_CNT_HI (nic.c) */
    /* Fault injection (struct gaudi_identity roce_*_every). */
    uint64_t tx_seq;
    bool held;                /* a frame kept back to be sent late */
    struct gaudi_roce_frame hold;
    /* Frames that arrived while the engine was busy (re-entry). */
    unsigned int depth;
    unsigned int defer_head, defer_n; /* a ring, oldest at defer_head */
    struct gaudi_roce_frame defer[GAUDI_ROCE_DEFER];
    struct gaudi_roce_frame work; /* the deferred frame being handled */
};

void gaudi_roce_reset(struct gaudi_core *g);

/* An RC QP's doorbell (nic.c): send its WQEs from the CI up to pi. */
void gaudi_roce_doorbell(struct gaudi_core *g, unsigned int port,
                         uint32_t qpn, uint32_t pi);

/*
 * A received frame: true if it is RoCE v2 (IPv4, UDP port 4791) and the
 * engine took it (even to drop it); false leaves it to the raw ring.
 */
bool gaudi_roce_receive(struct gaudi_core *g, unsigned int port,
                        const uint8_t *frame, size_t len);

/*
 * The driver wrote QP qpn's requester (req) and/or responder (res) context
 * or its extension through the gateway: the engine state of that side
 * ends, nothing of it survives into the new connection.
 */
void gaudi_roce_qp_written(struct gaudi_core *g, unsigned int port,
                           uint32_t qpn, bool req, bool res);

/* A context cache invalidation: drop every state whose context ended. */
void gaudi_roce_revalidate(struct gaudi_core *g, unsigned int port);

/* Timers: retransmission, late (reordered) frames.  From run and tick. */
void gaudi_roce_run(struct gaudi_core *g);

/* Next time the engine needs gaudi_roce_run(); UINT64_MAX if none. */
uint64_t gaudi_roce_next_ns(struct gaudi_core *g);

uint64_t gaudi_roce_counter(struct gaudi_core *g, unsigned int port,
                            enum gaudi_roce_cnt c);

/* Compute the RoCE v2 iCRC of an Ethernet frame (without its iCRC). */
uint32_t gaudi_roce_icrc(const uint8_t *frame, size_t len);

#endif
