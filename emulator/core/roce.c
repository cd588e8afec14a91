// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the NIC's RoCE v2 engine
 * (Documentation/emulator/nic.rst, "RoCE v2").
 *
 * Requester: a doorbell on an RC QP (transport bit 0 in its requester
 * context) runs its send queue from the context's consumer index up to the
 * doorbell's PI.  The send queue is found as for the raw QP (TXE
 * SQ_BASE_ADDRESS windows and wq_base_address); the WQEs and their data
 * are read as the port's user engine: non-secure, with the ASID of the
 * port's NIC QMAN (GLBL_NON_SECURE_PROPS_0; QM0 for the even port, QM1 for
 * the odd one), so addresses in the MMU range are translated.  A LINEAR
 * WQE is an RDMA WRITE of `size` bytes from its local address to its
 * remote address: RC RDMA WRITE FIRST/MIDDLE/LAST or ONLY packets of up to
 * GAUDI_ROCE_MTU bytes, then, if the WQE's sync_object_valid bit is set, a
 * zero-length RDMA WRITE ONLY WITH IMMEDIATE whose RETH VA is the remote
 * sync object (a CFG offset) and whose ImmDt is the value to write.  Every
 * packet waits in the QP's window until a cumulative ACK covers its PSN; a
 * WQE is complete (requester CQE) when its last packet is acknowledged.
 * A NAK "PSN sequence error" or the retransmission timer resends the
 * window from its oldest packet; too many timeouts, or a NAK for a remote
 * access error or an invalid request, put the QP in error.
 *
 * Responder: an RC RDMA WRITE for QP n loads n's responder context, checks
 * its valid bit, the PSN against expected_psn, the RETH R_Key against
 * local_key, writes the payload through the MMU with the port's user ASID
 * and ACKs the last packet of each message (and any packet asking for
 * it).  An early PSN is NAKed once (sequence error); a late one is a
 * duplicate, ACKed again and not written.  A zero-length write with
 * immediate writes the sync object when the context's sob_en is set and
 * the SOB lies in the port's window (RES_SOB_MIN..MAX, a model choice), as
 * a non-secure LBW write, so the protection bits apply and monitors fire;
 * else it is reported as a responder CQE.  A bad R_Key, an MMU fault or an
 * invalid QP answers NAK remote access error and puts the responder QP in
 * error.
 *
 * Verbs operations (issue 25; nic.rst "Verbs operations"): SEND and SEND
 * with immediate (SEND FIRST..ONLY) fill the receive WQEs of a verbs QP
 * (extension VERBS), RNR NAK when none is posted; a WRITE with immediate
 * takes one too; RDMA READ requests take a PSN per response, the
 * responder queues them (GAUDI_ROCE_RD_QP per QP, GAUDI_ROCE_RD_SLOTS per
 * port) and answers READ RESPONSE FIRST..ONLY, checking the region's
 * remote-read right on every packet; the requester takes the responses
 * in PSN order and re-issues a READ from its first missing byte.  Verbs
 * QPs complete into the CQ table with 32-byte CQEs (status, opcode, byte
 * count, immediate, wr_id) and post CQ events when armed.
 *
 * Frames: Ethernet II, IPv4 (20-byte header, DF, TTL 64), UDP to 4791
 * (source port 0xC000 | QPN, checksum 0), BTH, RETH, ImmDt, payload padded
 * to 4 bytes, iCRC computed as RoCE v2 (IBA annex 17) specifies.
 * Nothing here aborts on guest input; the work per call is bounded.
 */
#include <string.h>
#include <zlib.h>

#include "gaudi_int.h"

#define ROCE_UDP_PORT 4791
#define ETH_HDR 14
#define IP_HDR 20
#define UDP_HDR 8
#define BTH_LEN 12
#define RETH_LEN 16
#define AETH_LEN 4
#define IMM_LEN 4
#define ICRC_LEN 4
#define HDRS (ETH_HDR + IP_HDR + UDP_HDR)

/* RC BTH opcodes (InfiniBand architecture, table 38). */
#define OP_SEND_FIRST 0x00
#define OP_SEND_MIDDLE 0x01
#define OP_SEND_LAST 0x02
#define OP_SEND_LAST_IMM 0x03
#define OP_SEND_ONLY 0x04
#define OP_SEND_ONLY_IMM 0x05
#define OP_WRITE_FIRST 0x06
#define OP_WRITE_MIDDLE 0x07
#define OP_WRITE_LAST 0x08
#define OP_WRITE_LAST_IMM 0x09
#define OP_WRITE_ONLY 0x0A
#define OP_WRITE_ONLY_IMM 0x0B
#define OP_READ_REQ 0x0C
#define OP_READ_RESP_FIRST 0x0D
#define OP_READ_RESP_MIDDLE 0x0E
#define OP_READ_RESP_LAST 0x0F
#define OP_READ_RESP_ONLY 0x10
#define OP_ACK 0x11

/* AETH syndromes: bits 7:5 the class, 4:0 its code (IBA 9.7.5.2). */
#define AETH_ACK 0x1F          /* ACK, no credit count */
#define AETH_NAK 0x60
#define AETH_RNR 0x20          /* RNR NAK, 4:0 the RNR timer */
#define AETH_CLASS 0xE0
#define AETH_CLASS_ACK 0x00
#define NAK_PSN_SEQ 0
#define NAK_INVALID_REQ 1
#define NAK_REMOTE_ACCESS 2
#define NAK_REMOTE_OP 3

#define PSN_MASK 0xFFFFFFU
#define MSN_MASK 0xFFFFFFU

/* An access the address classes refuse (not an MMU or bus fault). */
#define ROCE_REFUSED (-2)

/*
 * The RNR NAK timer codes (IBA table 45, "RNR NAK timer field encoding"),
 * in units of 10 us: code 0 is 655.36 ms, 1 is 0.01 ms .. 31 is 491.52 ms.
 */
static const uint16_t rnr_10us[32] = {
    65535, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
    256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
    16384, 24576, 32768, 49152,
};

static uint64_t rnr_ns(unsigned int code)
{
    /* Code 0 is 655.36 ms, one more than the table's 16 bits hold. */
    return code ? rnr_10us[code & 31] * 10000ULL : 655360000ULL;
}

/* Requester context fields (gaudi1/nic.h). */
#define RQ_DST_QP REQ_QPC_DST_QP_BIT
#define RQ_RKEY REQ_QPC_REMOTE_KEY_BIT
#define RQ_DST_IP REQ_QPC_DST_IP_BIT
#define RQ_SRC_IP REQ_QPC_SRC_IP_BIT
#define RQ_DST_MAC_LO REQ_QPC_DST_MAC_31_0_BIT
#define RQ_DST_MAC_HI REQ_QPC_DST_MAC_47_32_BIT
#define RQ_TIMEOUT_RETRY REQ_QPC_TIMEOUT_RETRY_BIT
#define RQ_NEXT_PSN REQ_QPC_NEXT_PSN_BIT
#define RQ_OLDEST_PSN REQ_QPC_OLDEST_UNACKED_PSN_BIT

static const uint8_t roce_init_pad[8] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/* --- helpers --- */

static uint32_t bits(const uint32_t *w, unsigned int bit, unsigned int width)
{
    uint64_t v = gaudi_le32(w[bit / 32]);

    if (bit % 32 + width > 32) {
        v |= (uint64_t)gaudi_le32(w[bit / 32 + 1]) << 32;
    }
    return (uint32_t)(v >> (bit % 32)) & (uint32_t)((1ULL << width) - 1);
}

static void setbits(uint32_t *w, unsigned int bit, unsigned int width,
                    uint32_t v)
{
    unsigned int i;

    for (i = 0; i < width; i++) {
        unsigned int b = bit + i;
        uint32_t x = gaudi_le32(w[b / 32]);

        x &= ~(1U << (b % 32));
        x |= ((v >> i) & 1U) << (b % 32);
        w[b / 32] = gaudi_le32(x);
    }
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t get16(const uint8_t *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

/* a is before b in 24-bit PSN space. */
static bool psn_before(uint32_t a, uint32_t b)
{
    return a != b && ((b - a) & PSN_MASK) < 0x800000U;
}

/*
 * iCRC (IBA annex 17, RoCE v2): CRC-32 over 8 bytes of ones standing for
 * the LRH, the IPv4 header with TOS, TTL and checksum set to ones, the UDP
 * header with its checksum set to ones, the BTH with its reserved byte
 * (before the destination QP) set to ones, and the rest of the packet up
 * to the iCRC.  Sent least significant byte first, like the FCS.
 */
uint32_t gaudi_roce_icrc(const uint8_t *frame, size_t len)
{
    uint8_t h[sizeof(roce_init_pad) + IP_HDR + UDP_HDR + BTH_LEN];
    uint8_t *ip = h + sizeof(roce_init_pad);
    uLong crc;

    if (len < HDRS + BTH_LEN) {
        return 0;
    }
    memcpy(h, roce_init_pad, sizeof(roce_init_pad));
    memcpy(ip, frame + ETH_HDR, IP_HDR + UDP_HDR + BTH_LEN);
    ip[1] = 0xFF;                           /* TOS */
    ip[8] = 0xFF;                           /* TTL */
    ip[10] = ip[11] = 0xFF;                 /* header checksum */
    ip[IP_HDR + 6] = ip[IP_HDR + 7] = 0xFF; /* UDP checksum */
    ip[IP_HDR + UDP_HDR + 4] = 0xFF;        /* BTH reserved byte */
    /* zlib's crc32() is this CRC-32 (IEEE 802.3), inversions included. */
    crc = crc32(0L, h, sizeof(h));
    crc = crc32(crc, frame + HDRS + BTH_LEN, (uInt)(len - HDRS - BTH_LEN));
    return (uint32_t)crc;
}

static uint16_t ip_csum(const uint8_t *h)
{
    uint32_t s = 0;
    unsigned int i;

    for (i = 0; i < IP_HDR; i += 2) {
        s += get16(h + i);
    }
    while (s >> 16) {
        s = (s & 0xFFFF) + (s >> 16);
    }
    return (uint16_t)~s;
}

uint64_t gaudi_roce_counter(struct gaudi_core *g, unsigned int port,
                            enum gaudi_roce_cnt c)
{
    if (port >= GAUDI_NIC_NUM_PORTS || c >= GAUDI_ROCE_CNT_NUM) {
        return 0;
    }
    return g->nic.roce.cnt[port][c];
}

static void count(struct gaudi_core *g, unsigned int port,
                  enum gaudi_roce_cnt c)
{
    g->nic.roce.cnt[port][c]++;
}

/* The port's user engine: non-secure, ASID of its NIC QMAN's props. */
static void user_init(struct gaudi_core *g, unsigned int port,
                      struct gaudi_init *in)
{
    uint32_t qm = GAUDI_NIC_PORT_MACRO(port) +
                  ((port & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);

    memset(in, 0, sizeof(*in));
    in->kind = GAUDI_INIT_NIC;
    in->index = port;
    in->secure = false;
    in->props = gaudi_reg_get(g, qm + QM_GLBL_NON_SECURE_PROPS(0)) &
                GAUDI_PROPS_ASID;
}

/*
 * The address classes of the RC data path (hw/gaudi1/nic.h, a model
 * choice): the host VA range (through the MMU with the port's user ASID),
 * user HBM and user SRAM.  Configuration space, the driver's HBM and SRAM
 * and host physical addresses are never reached from here.
 */
static bool user_class(const struct gaudi_core *g, uint64_t addr,
                       uint64_t len)
{
    uint64_t end = addr + len;

    if (end < addr) {
        return false;
    }
    return (addr >= GAUDI_VA_HOST_START && end <= GAUDI_VA_HOST_END) ||
           (addr >= GAUDI_DRAM_USER_START && end <= g->hbm_size) ||
           (addr >= GAUDI_SRAM_USER_START && end <= GAUDI_SRAM_END);
}

static int user_access(struct gaudi_core *g, unsigned int port,
                       uint64_t addr, void *buf, uint64_t len, bool write)
{
    struct gaudi_init in;

    if (!user_class(g, addr, len)) {
        count(g, port, GAUDI_ROCE_ADDR_REFUSED);
        gaudi_guest_error(g, "NIC%u: RoCE %s of %llu bytes at 0x%llx "
                          "refused: not user memory", port,
                          write ? "write" : "read", (unsigned long long)len,
                          (unsigned long long)addr);
        return ROCE_REFUSED;
    }
    user_init(g, port, &in);
    return write ? gaudi_eng_write(g, &in, addr, buf, len) :
                   gaudi_eng_read(g, &in, addr, buf, len);
}

static int user_read(struct gaudi_core *g, unsigned int port, uint64_t addr,
                     void *buf, uint64_t len)
{
    return user_access(g, port, addr, buf, len, false);
}

static int user_write(struct gaudi_core *g, unsigned int port, uint64_t addr,
                      const void *buf, uint64_t len)
{
    /* user_access() only reads buf when writing. */
    return user_access(g, port, addr, (void *)(uintptr_t)buf, len, true);
}

/* What the QP extension (hw/gaudi1/nic.h) says of a QP. */
struct qp_ext {
    bool valid;               /* an enabled, valid entry */
    uint16_t mtu;             /* path MTU, payload bytes */
    uint8_t rnr_retry;        /* 7 = unlimited */
    uint8_t gen;
    /* The verbs part (VERBS set). */
    bool verbs;
    uint8_t min_rnr;          /* RNR NAK timer code */
    uint8_t rq_log;           /* 0: no receive queue */
    uint16_t send_cq, recv_cq;
    uint32_t rq_ci;
    uint64_t rq_base;
    uint64_t va_off;          /* added to a request's RETH VA */
    uint32_t pd;              /* its protection domain (0: none) */
    uint64_t addr;            /* the entry, to store rq_ci back */
    uint32_t w[GAUDI_NIC_EXT_SIZE / 4];
};

static void ext_get(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                    struct qp_ext *e)
{
    uint32_t *w = e->w, w0, code;

    memset(e, 0, sizeof(*e));
    e->mtu = GAUDI_ROCE_MTU;
    e->rnr_retry = EXT_RNR_RETRY_INFINITE;
    if (!(gaudi_reg_get(g, GAUDI_NIC_QPC_REG(port, NIC_QPC_EXT_CFG)) &
          EXT_CFG_ENABLE) ||
        gaudi_nic_tbl_load(g, port, QPC_GW_TABLE_EXT, qpn, w, &e->addr)) {
        return;
    }
    w0 = gaudi_le32(w[0]);
    if (!(w0 & EXT_W0_VALID)) {
        return;
    }
    e->valid = true;
    code = w0 & EXT_W0_PATH_MTU;
    if (code >= EXT_MTU_256 && code <= EXT_MTU_4096) {
        e->mtu = (uint16_t)(128U << code);
    }
    e->rnr_retry = (uint8_t)((w0 & EXT_W0_RNR_RETRY) >> EXT_W0_RNR_RETRY_SHIFT);
    e->gen = (uint8_t)((w0 & EXT_W0_GEN) >> EXT_W0_GEN_SHIFT);
    e->verbs = w0 & EXT_W0_VERBS;
    e->min_rnr = (uint8_t)((w0 & EXT_W0_MIN_RNR) >> EXT_W0_MIN_RNR_SHIFT);
    e->rq_base = gaudi_le32(w[1]) |
                 (uint64_t)(gaudi_le32(w[2]) & EXT_W2_RQ_ADDR_HI) << 32;
    e->rq_log = (uint8_t)((gaudi_le32(w[2]) & EXT_W2_RQ_LOG) >>
                          EXT_W2_RQ_LOG_SHIFT);
    e->rq_ci = gaudi_le32(w[3]);
    e->send_cq = (uint16_t)(gaudi_le32(w[4]) & EXT_W4_SEND_CQ);
    e->recv_cq = (uint16_t)(gaudi_le32(w[4]) >> EXT_W4_RECV_CQ_SHIFT);
    e->va_off = gaudi_le32(w[5]) | (uint64_t)gaudi_le32(w[6]) << 32;
    e->pd = gaudi_le32(w[7]);
}

static void port_mac(struct gaudi_core *g, unsigned int port, uint8_t *mac)
{
    uint32_t hi = gaudi_reg_get(g, GAUDI_NIC_TXE_REG(port, (port & 1) ?
                                NIC_TXE_PORT1_MAC_CFG_47_32 :
                                NIC_TXE_PORT0_MAC_CFG_47_32));
    uint32_t lo = gaudi_reg_get(g, GAUDI_NIC_TXE_REG(port, (port & 1) ?
                                NIC_TXE_PORT1_MAC_CFG_31_0 :
                                NIC_TXE_PORT0_MAC_CFG_31_0));

    put16(mac, hi);
    put32(mac + 2, lo);
}

/* --- transmit, with the fault injection --- */

/*
 * Send a RoCE frame.  The fault injection counts the frames sent for the
 * first time (requests and ACKs/NAKs, not retransmissions), so that a
 * resent window is never hit at the same place again and again.
 */
static void wire_send(struct gaudi_core *g, unsigned int port,
                      const uint8_t *frame, size_t len, bool again)
{
    struct gaudi_roce *r = &g->nic.roce;
    const struct gaudi_identity *id = &g->id;
    uint64_t n = again ? 0 : ++r->tx_seq;

    if (!n) {
        gaudi_nic_xmit(g, port, frame, len);
        return;
    }

    if (id->roce_drop_every && !(n % id->roce_drop_every)) {
        count(g, port, GAUDI_ROCE_INJECTED);
        return;
    }
    if (id->roce_corrupt_every && !(n % id->roce_corrupt_every)) {
        uint8_t bad[GAUDI_ROCE_MAX_FRAME];

        memcpy(bad, frame, len);
        bad[len - 1] ^= 0x5A; /* the iCRC's last byte */
        count(g, port, GAUDI_ROCE_INJECTED);
        gaudi_nic_xmit(g, port, bad, len);
        return;
    }
    if (id->roce_reorder_every && !(n % id->roce_reorder_every) &&
        !r->held) {
        r->held = true;
        r->hold.port = port;
        r->hold.len = (uint16_t)len;
        memcpy(r->hold.buf, frame, len);
        count(g, port, GAUDI_ROCE_INJECTED);
        return;
    }
    gaudi_nic_xmit(g, port, frame, len);
    if (r->held) {
        r->held = false;
        gaudi_nic_xmit(g, r->hold.port, r->hold.buf, r->hold.len);
    }
}

/*
 * Headers of a frame of `plen` bytes after the UDP header (BTH onwards,
 * iCRC included) to dst_mac/dst_ip from port's MAC and src_ip.
 */
static size_t put_headers(struct gaudi_core *g, unsigned int port,
                          uint8_t *f, const uint8_t *dst_mac,
                          uint32_t src_ip, uint32_t dst_ip, uint32_t sport,
                          size_t plen)
{
    uint8_t *ip = f + ETH_HDR, *udp = ip + IP_HDR;

    memcpy(f, dst_mac, 6);
    port_mac(g, port, f + 6);
    put16(f + 12, 0x0800);
    memset(ip, 0, IP_HDR);
    ip[0] = 0x45;
    put16(ip + 2, IP_HDR + UDP_HDR + plen);
    put16(ip + 6, 0x4000); /* DF */
    ip[8] = 64;
    ip[9] = 17;
    put32(ip + 12, src_ip);
    put32(ip + 16, dst_ip);
    put16(ip + 10, ip_csum(ip));
    put16(udp, sport);
    put16(udp + 2, ROCE_UDP_PORT);
    put16(udp + 4, UDP_HDR + plen);
    put16(udp + 6, 0);
    return HDRS;
}

static void put_bth(uint8_t *b, uint8_t opcode, unsigned int pad,
                    uint32_t dqp, bool ackreq, uint32_t psn)
{
    b[0] = opcode;
    b[1] = (uint8_t)(pad << 4); /* SE 0, M 0, PadCnt, TVer 0 */
    put16(b + 2, 0xFFFF);       /* default P_Key */
    put32(b + 4, dqp & 0xFFFFFF);
    put32(b + 8, (ackreq ? 0x80000000U : 0) | (psn & PSN_MASK));
}

static void finish(uint8_t *f, size_t len)
{
    uint32_t icrc = gaudi_roce_icrc(f, len);

    f[len] = (uint8_t)icrc;
    f[len + 1] = (uint8_t)(icrc >> 8);
    f[len + 2] = (uint8_t)(icrc >> 16);
    f[len + 3] = (uint8_t)(icrc >> 24);
}

/* --- QP errors and completions --- */

static void cq_write(struct gaudi_core *g, unsigned int port, uint32_t lo,
                     uint32_t hi)
{
    uint32_t cfg = gaudi_reg_get(g, GAUDI_NIC_RXE_REG(port, NIC_RXE_CQ_CFG0));
    uint64_t base =
        ((uint64_t)(gaudi_reg_get(g, GAUDI_NIC_RXE_REG(port,
                    NIC_RXE_CQ_BASE_ADDR_49_32)) & 0x3FFFF) << 32) |
        ((uint64_t)gaudi_reg_get(g, GAUDI_NIC_RXE_REG(port,
                   NIC_RXE_CQ_BASE_ADDR_31_7)) << 7);
    uint32_t mask = gaudi_reg_get(g, GAUDI_NIC_RXE_REG(port,
                                  NIC_RXE_CQ_MASK));
    uint32_t pi_reg = GAUDI_NIC_RXE_REG(port, NIC_RXE_CQ_PRODUCER_INDEX);
    uint32_t pi = gaudi_reg_get(g, pi_reg);
    uint32_t ci = gaudi_reg_get(g, GAUDI_NIC_RXE_REG(port,
                                NIC_RXE_CQ_CONSUMER_INDEX));
    uint32_t e[2] = { gaudi_le32(lo), gaudi_le32(hi | ROCE_CQE_VALID) };

    if (!(cfg & ROCE_CQ_CFG0_ENABLE)) {
        return;
    }
    if (pi - ci > mask) {
        count(g, port, GAUDI_ROCE_CQ_OVERFLOW);
        return;
    }
    if (user_write(g, port, base + 8ULL * (pi & mask), e, sizeof(e))) {
        gaudi_guest_error(g, "NIC%u: CQE at 0x%llx unwritable", port,
                          (unsigned long long)(base + 8ULL * (pi & mask)));
        return;
    }
    gaudi_reg_set(g, pi_reg, pi + 1);
    gaudi_reg_set(g, GAUDI_NIC_RXE_REG(port, NIC_RXE_CQ_WRITE_INDEX),
                  (pi + 1) & mask);
    if (cfg & ROCE_CQ_CFG0_INT_EN) {
        uint32_t cause_reg = GAUDI_NIC_RXE_REG(port, NIC_RXE_MSI_CAUSE);
        uint32_t cause = gaudi_reg_get(g, cause_reg);

        if (!(cause & 1)) {
            /* One write until CQ_MSI_CAUSE_CLR re-arms it. */
            gaudi_reg_set(g, cause_reg, cause | 1);
            gaudi_nic_lbw_signal(g, port,
                                 gaudi_reg_get(g, GAUDI_NIC_RXE_REG(port,
                                               NIC_RXE_CQ_MSI_ADDR(0))),
                                 gaudi_reg_get(g, GAUDI_NIC_RXE_REG(port,
                                               NIC_RXE_CQ_MSI_DATA(0))));
        }
    }
}

/* A verbs completion (hw/gaudi1/nic.h, "The verbs CQE"). */
struct vcqe {
    uint32_t idx, qpn, bytes, imm, syndrome;
    uint64_t wrid;
    uint8_t op, status;
    bool req, has_imm;
};

static void cq_event(struct gaudi_core *g, unsigned int port, uint32_t cq,
                     bool overflow)
{
    if (!gaudi_nic_cq_event(g, port, cq, overflow)) {
        count(g, port, GAUDI_ROCE_CQ_EVENTS_LOST);
    }
}

/*
 * Write a verbs CQE into CQ cq of the CQ table: its ring and producer index
 * are the table's, its consumer index and arm sequence the holder's record
 * after the ring.  A CQE that would overrun the ring is lost and the CQ
 * marked overflowed.
 */
static void vcq_post(struct gaudi_core *g, unsigned int port, uint32_t cq,
                     const struct vcqe *c)
{
    uint32_t e[GAUDI_NIC_CQT_SIZE / 4], rec[2], w[GAUDI_NIC_VCQE_SIZE / 4];
    uint32_t w3, log, n, pi;
    uint64_t addr, ring;

    if (!(gaudi_reg_get(g, GAUDI_NIC_QPC_REG(port, NIC_QPC_CQT_CFG)) &
          CQT_CFG_ENABLE) ||
        gaudi_nic_tbl_load(g, port, QPC_GW_TABLE_CQ, cq, e, &addr) ||
        !(gaudi_le32(e[3]) & CQT_W3_VALID)) {
        gaudi_guest_error(g, "NIC%u: CQE of QP %u for CQ %u lost: no such "
                          "CQ", port, c->qpn, cq);
        return;
    }
    w3 = gaudi_le32(e[3]);
    log = (gaudi_le32(e[1]) & CQT_W1_LOG) >> CQT_W1_LOG_SHIFT;
    if (!log || log > CQT_MAX_LOG) {
        gaudi_guest_error(g, "NIC%u: CQ %u has 2^%u entries", port, cq, log);
        return;
    }
    n = 1U << log;
    ring = gaudi_le32(e[0]) |
           (uint64_t)(gaudi_le32(e[1]) & CQT_W1_ADDR_HI) << 32;
    pi = gaudi_le32(e[2]);
    if (w3 & CQT_W3_OVERFLOW) {
        count(g, port, GAUDI_ROCE_CQ_OVERFLOW);
        return;
    }
    if (user_read(g, port, ring + (uint64_t)n * GAUDI_NIC_VCQE_SIZE, rec,
                  sizeof(rec))) {
        gaudi_guest_error(g, "NIC%u: CQ %u's consumer record unreadable",
                          port, cq);
        count(g, port, GAUDI_ROCE_CQ_OVERFLOW);
        return;
    }
    if (pi - gaudi_le32(rec[0]) >= n) {
        count(g, port, GAUDI_ROCE_CQ_OVERFLOW);
        e[3] = gaudi_le32(w3 | CQT_W3_OVERFLOW);
        gaudi_nic_tbl_store(g, port, addr, e);
        if (w3 & CQT_W3_EVENTS) {
            cq_event(g, port, cq, true);
        }
        return;
    }
    memset(w, 0, sizeof(w));
    w[0] = gaudi_le32((c->idx & VCQE_W0_WQE_INDEX) |
                      (c->req ? VCQE_W0_REQUESTER : 0));
    w[1] = gaudi_le32((c->qpn & VCQE_W1_QPN) |
                      (uint32_t)c->op << VCQE_W1_OP_SHIFT);
    w[2] = gaudi_le32(c->bytes);
    w[3] = gaudi_le32(c->imm);
    w[4] = gaudi_le32((uint32_t)c->wrid);
    w[5] = gaudi_le32((uint32_t)(c->wrid >> 32));
    w[6] = gaudi_le32(c->status | (c->has_imm ? VCQE_W6_IMM : 0) |
                      (c->syndrome & 0xFF) << VCQE_W6_SYNDROME_SHIFT);
    w[7] = gaudi_le32(VCQE_W7_VALID);
    if (user_write(g, port, ring + (uint64_t)(pi & (n - 1)) *
                   GAUDI_NIC_VCQE_SIZE, w, sizeof(w))) {
        gaudi_guest_error(g, "NIC%u: CQE of CQ %u unwritable", port, cq);
        return;
    }
    e[2] = gaudi_le32(pi + 1);
    if ((w3 & CQT_W3_EVENTS) && rec[1] != e[4]) {
        e[4] = rec[1]; /* armed: one event, served */
        gaudi_nic_tbl_store(g, port, addr, e);
        cq_event(g, port, cq, false);
        return;
    }
    gaudi_nic_tbl_store(g, port, addr, e);
}

/* The CQE status of a requester QP error syndrome. */
static uint8_t req_status(uint32_t syndrome)
{
    switch (syndrome) {
    case ROCE_SYN_LOCAL_FAULT:
    case ROCE_SYN_LOCAL_WRITE:
        return CQE_ST_LOC_PROT_ERR;
    case ROCE_SYN_RETRY_EXCEEDED:
        return CQE_ST_RETRY_EXC_ERR;
    case ROCE_SYN_RNR_EXCEEDED:
        return CQE_ST_RNR_RETRY_EXC_ERR;
    case ROCE_SYN_REMOTE_ACCESS:
        return CQE_ST_REM_ACCESS_ERR;
    case ROCE_SYN_REMOTE_INVALID:
        return CQE_ST_REM_INV_REQ_ERR;
    case ROCE_SYN_REMOTE_OP:
        return CQE_ST_REM_OP_ERR;
    }
    return CQE_ST_LOC_QP_OP_ERR; /* the WQE itself: unreadable, bad */
}

static int req_ctx(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                   uint32_t *w, uint64_t *addr)
{
    return gaudi_nic_qpc_load(g, port, true, qpn, w, addr);
}

/* Store the requester's PSNs and consumer index in its context. */
static void req_save(struct gaudi_core *g, unsigned int port,
                     struct gaudi_roce_req *q, bool error)
{
    uint32_t w[GAUDI_NIC_REQ_QPC_SIZE / 4];
    uint64_t addr;

    if (req_ctx(g, port, q->qpn, w, &addr)) {
        return;
    }
    setbits(w, RQ_NEXT_PSN, 24, q->next_psn);
    setbits(w, RQ_OLDEST_PSN, 24, q->n ? q->win[q->head].psn : q->next_psn);
    setbits(w, REQ_QPC_CONSUMER_INDEX_BIT, 22, q->ci);
    if (error) {
        setbits(w, REQ_QPC_ERROR_BIT, 1, 1);
    }
    gaudi_nic_qpc_store(g, port, true, addr, w);
}

static void req_complete(struct gaudi_core *g, unsigned int port,
                         struct gaudi_roce_req *q,
                         const struct gaudi_roce_pkt *p, uint32_t syndrome);

static void req_fail(struct gaudi_core *g, unsigned int port,
                     struct gaudi_roce_req *q, uint32_t syndrome)
{
    gaudi_guest_error(g, "NIC%u: requester QP %u in error (0x%x)", port,
                      q->qpn, syndrome);
    if (q->verbs) {
        /* The oldest WQE not completed completes with the error. */
        struct gaudi_roce_pkt p;

        if (q->n) {
            p = q->win[q->head];
        } else {
            memset(&p, 0, sizeof(p));
            p.wqe = q->cur ? q->cur_idx : q->ci;
            p.cqe_op = q->cur && q->cur_op == WQE_READ ? CQE_OP_RDMA_READ :
                       q->cur && q->cur_op == WQE_LINEAR ?
                       CQE_OP_RDMA_WRITE : CQE_OP_SEND;
        }
        req_complete(g, port, q, &p, syndrome);
    }
    count(g, port, GAUDI_ROCE_REQ_ERRORS);
    req_save(g, port, q, true);
    gaudi_nic_qp_error(g, port, q->qpn, syndrome, true);
    memset(q, 0, sizeof(*q));
}

/* --- requester --- */

static struct gaudi_roce_req *req_find(struct gaudi_core *g,
                                       unsigned int port, uint32_t qpn)
{
    unsigned int i;

    for (i = 0; i < GAUDI_ROCE_REQ_SLOTS; i++) {
        if (g->nic.roce.req[port][i].used &&
            g->nic.roce.req[port][i].qpn == qpn) {
            return &g->nic.roce.req[port][i];
        }
    }
    return NULL;
}

/* The requester context still valid, RC and not in error. */
static bool ctx_alive(const uint32_t *ctx)
{
    return bits(ctx, REQ_QPC_VALID_BIT, 1) &&
           bits(ctx, REQ_QPC_TRANSPORT_BIT, 1) == QPC_TRANSPORT_RC &&
           !bits(ctx, REQ_QPC_ERROR_BIT, 1);
}

/* q has WQEs to cut and room in its window (budget ran out). */
static bool req_pending(const struct gaudi_roce_req *q)
{
    return q->used && !q->rnr && (q->cur || q->ci != q->pi) &&
           q->n < GAUDI_ROCE_WINDOW &&
           !(q->cur && q->cur_op == WQE_READ && q->reads >= GAUDI_ROCE_RD_QP);
}

/* Build and send the request packet p of q. */
static int send_pkt(struct gaudi_core *g, unsigned int port,
                    struct gaudi_roce_req *q, const struct gaudi_roce_pkt *p,
                    const uint32_t *ctx, bool again)
{
    uint8_t f[GAUDI_ROCE_MAX_FRAME];
    uint8_t mac[6];
    bool read = p->opcode == OP_READ_REQ;
    bool reth = p->opcode == OP_WRITE_FIRST || p->opcode == OP_WRITE_ONLY ||
                p->opcode == OP_WRITE_ONLY_IMM || read;
    bool imm = p->opcode == OP_WRITE_ONLY_IMM ||
               p->opcode == OP_WRITE_LAST_IMM ||
               p->opcode == OP_SEND_LAST_IMM || p->opcode == OP_SEND_ONLY_IMM;
    bool more = p->opcode == OP_WRITE_FIRST || p->opcode == OP_WRITE_MIDDLE ||
                p->opcode == OP_SEND_FIRST || p->opcode == OP_SEND_MIDDLE;
    unsigned int pad = (4 - (p->len & 3)) & 3;
    size_t plen = BTH_LEN + (reth ? RETH_LEN : 0) + (imm ? IMM_LEN : 0) +
                  p->len + pad + ICRC_LEN;
    /* A READ re-issued from its first missing byte (IBA vol. 1, ch. 9). */
    uint32_t skip = read ? p->got / q->mtu : 0;
    uint64_t raddr = p->raddr + (read ? p->got : 0);
    uint32_t dlen = p->msg_len - (read ? p->got : 0);
    size_t off;

    put16(mac, bits(ctx, RQ_DST_MAC_HI, 16));
    put32(mac + 2, bits(ctx, RQ_DST_MAC_LO, 32));
    off = put_headers(g, port, f, mac, bits(ctx, RQ_SRC_IP, 32),
                      bits(ctx, RQ_DST_IP, 32), 0xC000 | (q->qpn & 0x3FFF),
                      plen);
    put_bth(f + off, p->opcode, pad, bits(ctx, RQ_DST_QP, 24), !more,
            p->psn + skip);
    off += BTH_LEN;
    if (reth) {
        put32(f + off, (uint32_t)(raddr >> 32));
        put32(f + off + 4, (uint32_t)raddr);
        put32(f + off + 8, p->own_rkey ? p->rkey : bits(ctx, RQ_RKEY, 32));
        put32(f + off + 12, dlen);
        off += RETH_LEN;
    }
    if (imm) {
        put32(f + off, p->imm);
        off += IMM_LEN;
    }
    if (p->len && user_read(g, port, p->laddr, f + off, p->len)) {
        return -1;
    }
    off += p->len;
    memset(f + off, 0, pad);
    off += pad;
    finish(f, off);
    wire_send(g, port, f, off + ICRC_LEN, again);
    return 0;
}

static void arm(struct gaudi_core *g, struct gaudi_roce_req *q)
{
    uint64_t now = gaudi_now_ns(g);

    q->deadline = now + GAUDI_ROCE_RTO_NS;
    if (!q->deadline) {
        q->deadline = 1;
    }
    if (g->bus.schedule) {
        g->bus.schedule(g->bus.opaque, GAUDI_ROCE_RTO_NS);
    }
}

/* Resend the whole window (go back N); returns -1 if q failed. */
static int resend(struct gaudi_core *g, unsigned int port,
                  struct gaudi_roce_req *q)
{
    uint32_t ctx[GAUDI_NIC_REQ_QPC_SIZE / 4];
    uint64_t addr;
    unsigned int i;

    if (req_ctx(g, port, q->qpn, ctx, &addr) || !ctx_alive(ctx)) {
        memset(q, 0, sizeof(*q));
        return -1;
    }
    for (i = 0; i < q->n; i++) {
        const struct gaudi_roce_pkt *p =
            &q->win[(q->head + i) % GAUDI_ROCE_WINDOW];

        if (p->opcode == OP_READ_REQ && p->done) {
            continue; /* its responses are all in */
        }
        count(g, port, GAUDI_ROCE_RETRANSMITS);
        if (send_pkt(g, port, q, p, ctx, true)) {
            req_fail(g, port, q, ROCE_SYN_LOCAL_FAULT);
            return -1;
        }
    }
    arm(g, q);
    return 0;
}

/* Queue one packet of the current WQE and send it. */
static int emit(struct gaudi_core *g, unsigned int port,
                struct gaudi_roce_req *q, const uint32_t *ctx,
                const struct gaudi_roce_pkt *tmpl)
{
    struct gaudi_roce_pkt *p =
        &q->win[(q->head + q->n) % GAUDI_ROCE_WINDOW];

    *p = *tmpl;
    p->psn = q->next_psn;
    q->next_psn = (q->next_psn + p->npsn) & PSN_MASK;
    q->n++;
    count(g, port, GAUDI_ROCE_TX_PKTS);
    if (send_pkt(g, port, q, p, ctx, false)) {
        req_fail(g, port, q, ROCE_SYN_LOCAL_FAULT);
        return -1;
    }
    if (!q->deadline) {
        arm(g, q);
    }
    return 0;
}

/* Fetch the next WQE of q into cur; -1 if q failed, 1 if none. */
static int fetch(struct gaudi_core *g, unsigned int port,
                 struct gaudi_roce_req *q)
{
    uint32_t wqe[GAUDI_NIC_SEND_WQE_SIZE / 4], w0, op;
    uint64_t at = q->sq + (uint64_t)q->ci * GAUDI_NIC_SEND_WQE_SIZE;

    if (q->ci == q->pi) {
        return 1;
    }
    if (user_read(g, port, at, wqe, sizeof(wqe))) {
        gaudi_guest_error(g, "NIC%u: WQE %u of QP %u at 0x%llx unreadable",
                          port, q->ci, q->qpn, (unsigned long long)at);
        req_fail(g, port, q, ROCE_SYN_WQE_FAULT);
        return -1;
    }
    w0 = gaudi_le32(wqe[0]);
    op = (w0 & NIC_WQE_OPCODE) >> NIC_WQE_OPCODE_SHIFT;
    if (op != WQE_LINEAR && op != WQE_NOP && op != WQE_SEND &&
        op != WQE_READ) {
        gaudi_guest_error(g, "NIC%u: WQE %u of QP %u: opcode %u is not "
                          "modelled on an RC QP", port, q->ci, q->qpn, op);
        req_fail(g, port, q, ROCE_SYN_BAD_WQE);
        return -1;
    }
    if (op != WQE_NOP) {
        uint32_t w5 = gaudi_le32(wqe[5]);
        bool sync = w5 & NIC_WQE_SYNC_VALID;
        uint32_t size = (w0 & NIC_WQE_F_LEN32) ? (w5 & NIC_WQE_LEN32) :
                        (gaudi_le32(wqe[2]) & NIC_WQE_SIZE) >>
                        NIC_WQE_SIZE_SHIFT;

        /*
         * Immediate with a sync object or on READ, a 32-bit size with a
         * sync object, a sync object on anything but a WRITE, a READ
         * whose responses would take more than a quarter of PSN space.
         */
        if ((sync && (op != WQE_LINEAR || (w0 & NIC_WQE_F_LEN32) ||
                      (w0 & NIC_WQE_F_IMM))) ||
            (op == WQE_READ && ((w0 & NIC_WQE_F_IMM) ||
                                size / q->mtu >= 0x400000U))) {
            gaudi_guest_error(g, "NIC%u: WQE %u of QP %u: bad flags 0x%x",
                              port, q->ci, q->qpn, w0);
            req_fail(g, port, q, ROCE_SYN_BAD_WQE);
            return -1;
        }
        q->cur_size = size;
    }
    q->cur = true;
    q->cur_op = (uint8_t)op;
    q->cur_imm = w0 & NIC_WQE_F_IMM;
    q->cur_own_rkey = w0 & NIC_WQE_F_RKEY;
    q->cur_signaled = w0 & NIC_WQE_F_SIGNALED;
    q->cur_imm_data = gaudi_le32(wqe[6]);
    q->cur_rkey = gaudi_le32(wqe[7]);
    q->cur_idx = q->ci;
    q->cur_off = 0;
    q->cur_data_done = false;
    if (op == WQE_NOP) {
        /* Nothing to send. */
        q->cur_size = 0;
        q->cur_sync = false;
        q->cur_data_done = true;
    } else {
        uint32_t w2 = gaudi_le32(wqe[2]), w4 = gaudi_le32(wqe[4]);
        uint32_t w5 = gaudi_le32(wqe[5]);

        q->cur_laddr = gaudi_le32(wqe[1]) |
                       ((uint64_t)(w2 & NIC_WQE_LOCAL_ADDR_HI) << 32);
        q->cur_raddr = gaudi_le32(wqe[3]) |
                       ((uint64_t)(w4 & NIC_WQE_REMOTE_ADDR_HI) << 32);
        q->cur_sync = w5 & NIC_WQE_SYNC_VALID;
        q->cur_sob = w5 & NIC_WQE_REMOTE_SOB;
        q->cur_sob_data = gaudi_le32(wqe[6]);
    }
    q->ci = (q->ci + 1) & (q->entries - 1);
    return 0;
}

/*
 * Cut WQEs into packets while the window has room, at most *budget
 * packets.  Returns -1 if q failed.
 */
static int pump(struct gaudi_core *g, unsigned int port,
                struct gaudi_roce_req *q, unsigned int *budget)
{
    uint32_t ctx[GAUDI_NIC_REQ_QPC_SIZE / 4];
    uint64_t addr;
    int r;

    struct qp_ext e;

    if (req_ctx(g, port, q->qpn, ctx, &addr) || !ctx_alive(ctx)) {
        memset(q, 0, sizeof(*q)); /* destroyed under the engine's feet */
        return -1;
    }
    ext_get(g, port, q->qpn, &e);
    if (e.gen != q->gen) {
        /* Another connection on this QPN: nothing of ours is its. */
        count(g, port, GAUDI_ROCE_STATE_RESETS);
        memset(q, 0, sizeof(*q));
        return -1;
    }
    while (*budget && q->n < GAUDI_ROCE_WINDOW && !q->rnr) {
        struct gaudi_roce_pkt p;

        if (!q->cur) {
            r = fetch(g, port, q);
            if (r) {
                return r < 0 ? -1 : 0;
            }
        }
        if (q->cur && q->cur_op == WQE_READ &&
            q->reads >= GAUDI_ROCE_RD_QP) {
            break; /* as many READs out as a responder queues */
        }
        memset(&p, 0, sizeof(p));
        p.wqe = q->cur_idx;
        p.raddr = q->cur_raddr;
        p.msg_len = q->cur_size;
        p.size = q->cur_size;
        p.npsn = 1;
        p.rkey = q->cur_rkey;
        p.own_rkey = q->cur_own_rkey;
        p.signaled = q->cur_signaled;
        p.imm = q->cur_imm_data;
        p.cqe_op = q->cur_op == WQE_SEND ? CQE_OP_SEND :
                   q->cur_op == WQE_READ ? CQE_OP_RDMA_READ :
                   CQE_OP_RDMA_WRITE;
        if (q->cur_op == WQE_READ) {
            /* One request; its responses take a PSN each. */
            p.opcode = OP_READ_REQ;
            p.laddr = q->cur_laddr;
            p.npsn = q->cur_size ? (q->cur_size + q->mtu - 1) / q->mtu : 1;
            p.last = true;
            q->cur_data_done = true;
            q->reads++;
        } else if (!q->cur_data_done) {
            uint32_t left = q->cur_size - q->cur_off;
            bool first = !q->cur_off, last = left <= q->mtu;
            bool imm = last && q->cur_imm;

            p.len = (uint16_t)(last ? left : q->mtu);
            p.laddr = q->cur_laddr + q->cur_off;
            if (q->cur_op == WQE_SEND) {
                p.opcode = first ? (last ? (imm ? OP_SEND_ONLY_IMM :
                                            OP_SEND_ONLY) : OP_SEND_FIRST) :
                           (last ? (imm ? OP_SEND_LAST_IMM : OP_SEND_LAST) :
                            OP_SEND_MIDDLE);
            } else {
                p.opcode = first ? (last ? (imm ? OP_WRITE_ONLY_IMM :
                                            OP_WRITE_ONLY) : OP_WRITE_FIRST) :
                           (last ? (imm ? OP_WRITE_LAST_IMM : OP_WRITE_LAST) :
                            OP_WRITE_MIDDLE);
            }
            q->cur_off += p.len;
            q->cur_data_done = last;
            p.last = last && !q->cur_sync;
        } else if (q->cur_sync) {
            p.opcode = OP_WRITE_ONLY_IMM;
            p.raddr = q->cur_sob;
            p.msg_len = 0;
            p.imm = q->cur_sob_data;
            p.last = true;
            q->cur_sync = false;
        } else {
            q->cur = false; /* a NOP: skipped, no completion */
            (*budget)--;
            continue;
        }
        if (p.last) {
            q->cur = false;
        }
        if (emit(g, port, q, ctx, &p)) {
            return -1;
        }
        (*budget)--;
    }
    return 0;
}

static void req_release_if_idle(struct gaudi_core *g, unsigned int port,
                                struct gaudi_roce_req *q)
{
    if (q->used && !q->n && !q->cur && q->ci == q->pi) {
        req_save(g, port, q, false);
        memset(q, 0, sizeof(*q));
    }
}

static void doorbell(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                     uint32_t pi)
{
    struct gaudi_roce_req *q = req_find(g, port, qpn);
    uint32_t ctx[GAUDI_NIC_REQ_QPC_SIZE / 4];
    unsigned int budget = GAUDI_ROCE_PKT_BUDGET, i;
    uint32_t wqb, sel, idx, log;
    struct qp_ext e;
    uint64_t addr;

    if (qpn >= GAUDI_ROCE_MAX_QPN) {
        gaudi_guest_error(g, "NIC%u: doorbell on QP %u beyond the %u the "
                          "model serves", port, qpn, GAUDI_ROCE_MAX_QPN);
        return;
    }
    if (req_ctx(g, port, qpn, ctx, &addr)) {
        return;
    }
    if (bits(ctx, REQ_QPC_ERROR_BIT, 1)) {
        gaudi_guest_error(g, "NIC%u: doorbell on QP %u in error", port, qpn);
        return;
    }
    if (!q) {
        for (i = 0; i < GAUDI_ROCE_REQ_SLOTS && !q; i++) {
            if (!g->nic.roce.req[port][i].used) {
                q = &g->nic.roce.req[port][i];
            }
        }
        if (!q) {
            gaudi_guest_error(g, "NIC%u: doorbell on QP %u: %u QPs already "
                              "in flight", port, qpn, GAUDI_ROCE_REQ_SLOTS);
            return;
        }
        memset(q, 0, sizeof(*q));
        wqb = bits(ctx, REQ_QPC_WQ_BASE_ADDR_BIT, 24);
        sel = gaudi_reg_get(g, GAUDI_NIC_TXE_REG(port,
                            NIC_TXE_SQ_BASE_ADDRESS_SEL)) & 31;
        idx = (wqb >> sel) & (GAUDI_NIC_SQ_BASES - 1);
        log = gaudi_reg_get(g, GAUDI_NIC_TXE_REG(port,
                            NIC_TXE_LOG_MAX_WQ_SIZE(idx)));
        if (log > 18) {
            gaudi_guest_error(g, "NIC%u: LOG_MAX_WQ_SIZE_%u %u too large",
                              port, idx, log);
            return;
        }
        q->used = true;
        g->nic.roce.busy |= 1U << port;
        q->qpn = qpn;
        q->entries = 4U << log;
        q->sq = ((uint64_t)(gaudi_reg_get(g, GAUDI_NIC_TXE_REG(port,
                  NIC_TXE_SQ_BASE_ADDRESS_49_32(idx))) & 0x3FFFF) << 32) |
                gaudi_reg_get(g, GAUDI_NIC_TXE_REG(port,
                              NIC_TXE_SQ_BASE_ADDRESS_31_0(idx)));
        q->sq += (uint64_t)wqb * ((uint64_t)GAUDI_NIC_CACHE_LINE << log);
        q->ci = bits(ctx, REQ_QPC_CONSUMER_INDEX_BIT, 22) & (q->entries - 1);
        q->next_psn = bits(ctx, RQ_NEXT_PSN, 24);
        ext_get(g, port, qpn, &e);
        q->gen = e.gen;
        q->mtu = e.mtu;
        q->verbs = e.verbs;
        q->send_cq = e.send_cq;
    }
    if (pi >= q->entries) {
        gaudi_guest_error(g, "NIC%u: doorbell PI %u beyond the %u WQEs of "
                          "QP %u", port, pi, q->entries, qpn);
        req_release_if_idle(g, port, q);
        return;
    }
    q->pi = pi;
    if (!pump(g, port, q, &budget)) {
        req_save(g, port, q, false);
        req_release_if_idle(g, port, q);
        if (req_pending(q) && g->bus.schedule) {
            g->bus.schedule(g->bus.opaque, 0); /* the rest in a step */
        }
    }
}

static void drain_deferred(struct gaudi_core *g);

void gaudi_roce_doorbell(struct gaudi_core *g, unsigned int port,
                         uint32_t qpn, uint32_t pi)
{
    g->nic.roce.depth++;
    doorbell(g, port, qpn, pi);
    g->nic.roce.depth--;
    drain_deferred(g);
}

/*
 * The WQE of p completes: a verbs QP writes a 32-byte CQE to its send CQ
 * (a success only if signalled), another QP an 8-byte one to CQ 0 (errors
 * there are the QP error FIFO's).
 */
static void req_complete(struct gaudi_core *g, unsigned int port,
                         struct gaudi_roce_req *q,
                         const struct gaudi_roce_pkt *p, uint32_t syndrome)
{
    struct vcqe c;

    if (!q->verbs) {
        if (!syndrome) {
            cq_write(g, port, p->wqe | ROCE_CQE_REQUESTER,
                     q->qpn & ROCE_CQE_QPN);
        }
        return;
    }
    if (!syndrome && !p->signaled) {
        return;
    }
    memset(&c, 0, sizeof(c));
    c.idx = p->wqe;
    c.req = true;
    c.qpn = q->qpn;
    c.op = p->cqe_op;
    c.bytes = syndrome ? 0 : p->size;
    c.status = syndrome ? req_status(syndrome) : CQE_ST_SUCCESS;
    c.syndrome = syndrome;
    vcq_post(g, port, q->send_cq, &c);
}

/*
 * Retire every packet whose PSNs are all up to upto (cumulative), never
 * past a READ whose responses are not all in; true if any.
 */
static bool retire(struct gaudi_core *g, unsigned int port,
                   struct gaudi_roce_req *q, uint32_t upto)
{
    bool progress = false;

    while (q->n) {
        struct gaudi_roce_pkt *p = &q->win[q->head];

        if (psn_before(upto, (p->psn + p->npsn - 1) & PSN_MASK) ||
            (p->opcode == OP_READ_REQ && !p->done)) {
            break;
        }
        if (p->opcode == OP_READ_REQ) {
            q->reads--;
        }
        if (p->last) {
            req_complete(g, port, q, p, 0);
        }
        q->head = (q->head + 1) % GAUDI_ROCE_WINDOW;
        q->n--;
        progress = true;
    }
    if (!q->n) {
        q->acked_valid = false;
    }
    return progress;
}

/*
 * An RNR NAK for the packet psn (IBA 9.7.5.2.8): the earlier ones are
 * done; wait the timer the syndrome names, then resend from psn, at most
 * the QP's RNR retry count times in a row (7: without limit).
 */
static void req_rnr(struct gaudi_core *g, unsigned int port,
                    struct gaudi_roce_req *q, uint32_t psn, uint8_t syndrome)
{
    struct qp_ext e;
    uint64_t wait = rnr_ns(syndrome & 0x1F);

    count(g, port, GAUDI_ROCE_RX_RNR_NAKS);
    retire(g, port, q, (psn - 1) & PSN_MASK);
    if (!q->n || q->win[q->head].psn != psn) {
        return; /* stale: not the oldest packet waiting */
    }
    ext_get(g, port, q->qpn, &e);
    if (e.rnr_retry != EXT_RNR_RETRY_INFINITE &&
        ++q->rnr_retries > e.rnr_retry) {
        req_fail(g, port, q, ROCE_SYN_RNR_EXCEEDED);
        return;
    }
    q->rnr = true;
    q->deadline = gaudi_now_ns(g) + wait;
    if (!q->deadline) {
        q->deadline = 1;
    }
    if (g->bus.schedule) {
        g->bus.schedule(g->bus.opaque, wait);
    }
    req_save(g, port, q, false);
}

/*
 * An ACK or NAK for requester QP qpn from src_ip to dst_ip: only the
 * connection's peer may answer (its destination_ip to its source_ip).
 */
static void req_ack(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                    uint32_t psn, uint8_t syndrome, uint32_t src_ip,
                    uint32_t dst_ip)
{
    struct gaudi_roce_req *q = req_find(g, port, qpn);
    uint8_t cls = syndrome & AETH_CLASS;
    bool nak = cls == AETH_NAK;
    uint32_t upto = cls == AETH_CLASS_ACK ? psn : ((psn - 1) & PSN_MASK);
    unsigned int budget = GAUDI_ROCE_PKT_BUDGET;
    uint32_t ctx[GAUDI_NIC_REQ_QPC_SIZE / 4];
    uint64_t addr;

    if (cls != AETH_CLASS_ACK && cls != AETH_NAK && cls != AETH_RNR) {
        count(g, port, GAUDI_ROCE_BAD_FRAMES); /* reserved class */
        return;
    }
    if (!q) {
        count(g, port, nak ? GAUDI_ROCE_RX_NAKS : GAUDI_ROCE_RX_ACKS);
        return; /* a late ACK for a QP with nothing outstanding */
    }
    if (req_ctx(g, port, qpn, ctx, &addr) ||
        bits(ctx, RQ_DST_IP, 32) != src_ip ||
        bits(ctx, RQ_SRC_IP, 32) != dst_ip) {
        count(g, port, GAUDI_ROCE_DROP_ACK_SOURCE);
        return;
    }
    if (!psn_before(upto, q->next_psn)) {
        /* Acknowledges what was never sent: not for this QP's peer. */
        count(g, port, GAUDI_ROCE_BAD_FRAMES);
        return;
    }
    if (cls == AETH_RNR) {
        req_rnr(g, port, q, psn, syndrome);
        return;
    }
    count(g, port, nak ? GAUDI_ROCE_RX_NAKS : GAUDI_ROCE_RX_ACKS);
    if (nak && (syndrome & 0x1F) != NAK_PSN_SEQ) {
        req_fail(g, port, q, (syndrome & 0x1F) == NAK_REMOTE_ACCESS ?
                 ROCE_SYN_REMOTE_ACCESS :
                 (syndrome & 0x1F) == NAK_REMOTE_OP ?
                 ROCE_SYN_REMOTE_OP : ROCE_SYN_REMOTE_INVALID);
        return;
    }
    if (!nak && (!q->acked_valid || psn_before(q->acked, upto))) {
        /* Kept for a READ still waiting for responses before it. */
        q->acked = upto;
        q->acked_valid = true;
    }
    if (retire(g, port, q, upto)) {
        q->retries = 0;
        q->rnr_retries = 0;
        q->rnr = false;
        q->deadline = 0;
        if (q->n) {
            arm(g, q);
        }
    }
    if (q->rnr) {
        return; /* the RNR timer resends */
    }
    if (nak && q->n && q->win[q->head].psn == psn) {
        if (resend(g, port, q)) {
            return;
        }
    }
    if (!pump(g, port, q, &budget)) {
        req_save(g, port, q, false);
        req_release_if_idle(g, port, q);
    }
}

/*
 * A READ RESPONSE for requester QP qpn: only the connection's peer, in PSN
 * order, for the oldest READ still waiting; its payload goes to the WQE's
 * local buffer through the MMU as the holder.  A response after a gap
 * re-issues the READ from its first missing byte, once per gap.
 */
static void req_read_resp(struct gaudi_core *g, unsigned int port,
                          const uint8_t *f, const uint8_t *bth, size_t plen)
{
    const uint8_t *ip = f + ETH_HDR;
    uint8_t op = bth[0];
    uint32_t qpn = get32(bth + 4) & 0xFFFFFF, psn = get32(bth + 8) & PSN_MASK;
    unsigned int pad = (bth[1] >> 4) & 3, budget = GAUDI_ROCE_PKT_BUDGET, i;
    size_t hl = BTH_LEN + (op != OP_READ_RESP_MIDDLE ? AETH_LEN : 0);
    uint32_t ctx[GAUDI_NIC_REQ_QPC_SIZE / 4], len, want, expect, upto;
    struct gaudi_roce_req *q = NULL;
    struct gaudi_roce_pkt *p = NULL;
    bool final;
    uint64_t addr;

    if (plen < hl + ICRC_LEN || plen - hl - ICRC_LEN < pad ||
        (hl > BTH_LEN && (bth[BTH_LEN] & AETH_CLASS) != AETH_CLASS_ACK)) {
        count(g, port, GAUDI_ROCE_BAD_FRAMES);
        return;
    }
    len = (uint32_t)(plen - hl - ICRC_LEN - pad);
    if (qpn < GAUDI_ROCE_MAX_QPN) {
        q = req_find(g, port, qpn);
    }
    if (!q) {
        count(g, port, GAUDI_ROCE_DUPLICATES); /* late: nothing waits */
        return;
    }
    if (req_ctx(g, port, qpn, ctx, &addr) ||
        bits(ctx, RQ_DST_IP, 32) != get32(ip + 12) ||
        bits(ctx, RQ_SRC_IP, 32) != get32(ip + 16)) {
        count(g, port, GAUDI_ROCE_DROP_ACK_SOURCE);
        return;
    }
    for (i = 0; i < q->n && !p; i++) {
        struct gaudi_roce_pkt *x = &q->win[(q->head + i) % GAUDI_ROCE_WINDOW];

        if (x->opcode == OP_READ_REQ && !x->done) {
            p = x;
        }
    }
    if (!p) {
        count(g, port, GAUDI_ROCE_DUPLICATES);
        return;
    }
    expect = (p->psn + p->got / q->mtu) & PSN_MASK;
    if (psn != expect) {
        if (psn_before(psn, expect)) {
            count(g, port, GAUDI_ROCE_DUPLICATES);
        } else if (!q->read_gap) {
            q->read_gap = true; /* responses lost: ask again, once */
            if (!resend(g, port, q)) {
                req_save(g, port, q, false);
            }
        }
        return;
    }
    want = p->msg_len - p->got;
    final = want <= q->mtu;
    if ((final ? (op != OP_READ_RESP_LAST && op != OP_READ_RESP_ONLY) :
                 (op != OP_READ_RESP_FIRST && op != OP_READ_RESP_MIDDLE)) ||
        len != (final ? want : q->mtu)) {
        count(g, port, GAUDI_ROCE_BAD_FRAMES); /* not what was asked */
        return;
    }
    if (len && user_write(g, port, p->laddr + p->got, bth + hl, len)) {
        req_fail(g, port, q, ROCE_SYN_LOCAL_WRITE);
        return;
    }
    p->got += len;
    q->read_gap = false;
    q->retries = 0;
    q->rnr_retries = 0;
    q->deadline = 0;
    /* A response acknowledges every request before its READ. */
    upto = (p->psn - 1) & PSN_MASK;
    if (final) {
        p->done = true;
        upto = (p->psn + p->npsn - 1) & PSN_MASK;
    }
    if (q->acked_valid && psn_before(upto, q->acked)) {
        upto = q->acked;
    }
    retire(g, port, q, upto);
    if (q->n) {
        arm(g, q);
    }
    if (!pump(g, port, q, &budget)) {
        req_save(g, port, q, false);
        req_release_if_idle(g, port, q);
    }
}

/* --- responder --- */

/* Where a responder's answers go: the requester that asked. */
struct res_dst {
    const uint8_t *mac;
    uint32_t src_ip, dst_ip;  /* ours, the requester's */
    uint16_t sport;           /* the request's UDP source port */
    uint32_t dqp;
};

static void put_aeth(uint8_t *a, uint8_t syndrome, uint32_t msn)
{
    a[0] = syndrome;
    a[1] = (uint8_t)(msn >> 16); /* MSN (IBA 9.7.5.1.1) */
    a[2] = (uint8_t)(msn >> 8);
    a[3] = (uint8_t)msn;
}

static void send_ack_to(struct gaudi_core *g, unsigned int port,
                        const struct res_dst *d, uint32_t psn,
                        uint8_t syndrome, uint32_t msn)
{
    uint8_t f[HDRS + BTH_LEN + AETH_LEN + ICRC_LEN];
    size_t off;

    off = put_headers(g, port, f, d->mac, d->src_ip, d->dst_ip, d->sport,
                      BTH_LEN + AETH_LEN + ICRC_LEN);
    put_bth(f + off, OP_ACK, 0, d->dqp, false, psn);
    off += BTH_LEN;
    put_aeth(f + off, syndrome, msn);
    off += AETH_LEN;
    finish(f, off);
    count(g, port, (syndrome & AETH_CLASS) != AETH_CLASS_ACK ?
                   GAUDI_ROCE_TX_NAKS : GAUDI_ROCE_TX_ACKS);
    wire_send(g, port, f, off + ICRC_LEN, false);
}

static void rx_dst(const uint8_t *rx, const uint32_t *rctx,
                   struct res_dst *d)
{
    const uint8_t *ip = rx + ETH_HDR;

    d->mac = rx + 6;
    d->src_ip = get32(ip + 16);
    d->dst_ip = get32(ip + 12);
    d->sport = (uint16_t)get16(ip + IP_HDR);
    d->dqp = rctx ? bits(rctx, 0, 24) : 0;
}

static void send_ack(struct gaudi_core *g, unsigned int port,
                     const uint8_t *rx, const uint32_t *rctx, uint32_t psn,
                     uint8_t syndrome, uint32_t msn)
{
    struct res_dst d;

    rx_dst(rx, rctx, &d);
    send_ack_to(g, port, &d, psn, syndrome, msn);
}

/* Whether responder QP qpn has READ responses still to send. */
static bool rd_pending(struct gaudi_core *g, unsigned int port, uint32_t qpn)
{
    const struct gaudi_roce *r = &g->nic.roce;
    unsigned int i;

    for (i = 0; i < GAUDI_ROCE_RD_SLOTS && r->rd_n[port]; i++) {
        if (r->rd[port][i].used && r->rd[port][i].qpn == qpn) {
            return true;
        }
    }
    return false;
}

/* The READs queued for responder QP qpn end. */
static void rd_drop(struct gaudi_core *g, unsigned int port, uint32_t qpn)
{
    struct gaudi_roce *r = &g->nic.roce;
    unsigned int i;

    for (i = 0; i < GAUDI_ROCE_RD_SLOTS && r->rd_n[port]; i++) {
        if (r->rd[port][i].used && r->rd[port][i].qpn == qpn) {
            memset(&r->rd[port][i], 0, sizeof(r->rd[port][i]));
            r->rd_n[port]--;
        }
    }
}

/* The receive WQE s holds completes with the error of syndrome. */
static void res_recv_fail(struct gaudi_core *g, unsigned int port,
                          uint32_t qpn, struct gaudi_roce_res *s,
                          uint32_t syndrome)
{
    struct qp_ext e;
    struct vcqe c;

    s->rq_held = false;
    ext_get(g, port, qpn, &e);
    if (!e.verbs) {
        return;
    }
    memset(&c, 0, sizeof(c));
    c.idx = s->rq_idx;
    c.qpn = qpn;
    c.op = CQE_OP_RECV;
    c.wrid = s->rq_wrid;
    c.status = syndrome == ROCE_SYN_RES_RECV_LEN ? CQE_ST_LOC_LEN_ERR :
               syndrome == ROCE_SYN_RES_RECV_FAULT ? CQE_ST_LOC_PROT_ERR :
               CQE_ST_LOC_QP_OP_ERR;
    c.syndrome = syndrome;
    vcq_post(g, port, e.recv_cq, &c);
}

static void res_fail(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                     uint32_t *ctx, uint64_t addr, uint32_t syndrome)
{
    gaudi_guest_error(g, "NIC%u: responder QP %u in error (0x%x)", port, qpn,
                      syndrome);
    count(g, port, GAUDI_ROCE_RES_ERRORS);
    if (ctx) {
        setbits(ctx, RES_QPC_CONN_STATE_BIT, 2, RES_QPC_CONN_ERROR);
        gaudi_nic_qpc_store(g, port, false, addr, ctx);
    }
    if (qpn < GAUDI_ROCE_MAX_QPN) {
        struct gaudi_roce_res *s = &g->nic.roce.res[port][qpn];

        if (s->rq_held) {
            res_recv_fail(g, port, qpn, s, syndrome);
        }
        s->in_msg = false;
        s->left = 0;
        rd_drop(g, port, qpn);
    }
    gaudi_nic_qp_error(g, port, qpn, syndrome, false);
}

/* Write the sync object a zero-length write with immediate names. */
static int sob_write(struct gaudi_core *g, unsigned int port, uint64_t off,
                     uint32_t val)
{
    static const uint32_t blocks[4] = {
        mmSYNC_MNGR_E_N_SOB_OBJ_0, mmSYNC_MNGR_W_N_SOB_OBJ_0,
        mmSYNC_MNGR_E_S_SOB_OBJ_0, mmSYNC_MNGR_W_S_SOB_OBJ_0,
    };
    struct gaudi_init in;
    unsigned int b;

    /* The driver's window (hw/gaudi1/nic.h, NIC_QPC_RES_SOB_MIN). */
    if (off < gaudi_reg_get(g, GAUDI_NIC_QPC_REG(port, NIC_QPC_RES_SOB_MIN)) ||
        off > gaudi_reg_get(g, GAUDI_NIC_QPC_REG(port, NIC_QPC_RES_SOB_MAX))) {
        return -1;
    }
    for (b = 0; b < 4; b++) {
        if (off >= blocks[b] && off < blocks[b] + 4ULL * SM_NUM_SOBS &&
            !(off & 3)) {
            user_init(g, port, &in);
            return gaudi_lbw_write(g, &in, GAUDI_CFG_BASE + off, val);
        }
    }
    return -1;
}

/*
 * May the responder QP qpn of generation gen write (right
 * MR_W6_REMOTE_WRITE) or read (MR_W6_REMOTE_READ) len bytes at va with
 * R_Key rkey?  0 if so, else the QP error syndrome.  With the region table
 * enabled the key names entry rkey & (entries - 1), which must be valid,
 * allow the access, belong to this QP of this generation (or, QPN 0, to
 * the QP's protection domain pd), carry this very key and hold [va, va +
 * len); without it the key must be the
 * context's local_key (the engine before regions).
 */
static uint32_t region_check(struct gaudi_core *g, unsigned int port,
                             uint32_t qpn, uint8_t gen, uint32_t pd,
                             const uint32_t *ctx, uint32_t rkey, uint64_t va,
                             uint64_t len, uint32_t right)
{
    uint32_t cfg = gaudi_reg_get(g, GAUDI_NIC_QPC_REG(port, NIC_QPC_MR_CFG));
    uint32_t log = cfg & MR_CFG_LOG_ENTRIES, w[GAUDI_NIC_MR_SIZE / 4];
    uint64_t start, size;

    if (!(cfg & MR_CFG_ENABLE)) {
        return rkey == bits(ctx, RES_QPC_LOCAL_KEY_BIT, 32) ?
               0 : ROCE_SYN_RES_BAD_RKEY;
    }
    if (log > MR_CFG_MAX_LOG_ENTRIES) {
        log = MR_CFG_MAX_LOG_ENTRIES;
    }
    if (gaudi_nic_mr_load(g, port, rkey & ((1U << log) - 1), w) ||
        gaudi_le32(w[4]) != rkey) {
        return ROCE_SYN_RES_BAD_RKEY;
    }
    start = gaudi_le32(w[0]) | (uint64_t)gaudi_le32(w[1]) << 32;
    size = gaudi_le32(w[2]) | (uint64_t)gaudi_le32(w[3]) << 32;
    if (!(gaudi_le32(w[6]) & MR_W6_VALID) ||
        !(gaudi_le32(w[6]) & right) ||
        ((gaudi_le32(w[5]) & MR_W5_QPN) ?
         ((gaudi_le32(w[5]) & MR_W5_QPN) != qpn ||
          gaudi_le32(w[5]) >> MR_W5_GEN_SHIFT != gen) :
         (!pd || gaudi_le32(w[7]) != pd)) ||
        va < start || len > size || va - start > size - len) {
        return ROCE_SYN_RES_REGION;
    }
    return 0;
}

/* End the responder engine state of s (it belonged to another connection). */
static void res_drop(struct gaudi_core *g, unsigned int port,
                     struct gaudi_roce_res *s)
{
    if (s->active) {
        count(g, port, GAUDI_ROCE_STATE_RESETS);
    }
    memset(s, 0, sizeof(*s));
    rd_drop(g, port, (uint32_t)(s - g->nic.roce.res[port]));
}

/* NAK a request, put the responder QP in error. */
static void res_refuse(struct gaudi_core *g, unsigned int port,
                       const uint8_t *f, uint32_t qpn, uint32_t *ctx,
                       uint64_t addr, uint32_t psn, uint32_t msn,
                       uint8_t code, uint32_t syndrome)
{
    if (syndrome == ROCE_SYN_RES_BAD_RKEY || syndrome == ROCE_SYN_RES_REGION) {
        count(g, port, GAUDI_ROCE_REGION_ERRORS);
    } else if (syndrome == ROCE_SYN_RES_MTU) {
        count(g, port, GAUDI_ROCE_MTU_ERRORS);
    }
    send_ack(g, port, f, ctx, psn, AETH_NAK | code, msn);
    res_fail(g, port, qpn, ctx, addr, syndrome);
}

/* A receive WQE of a verbs QP's receive queue (hw/gaudi1/nic.h). */
struct rq_wqe {
    uint64_t addr, wrid;
    uint32_t len, idx;
};

#define RQ_OK 0
#define RQ_EMPTY 1     /* none posted: RNR */
#define RQ_NONE (-1)   /* the QP has no receive queue */
#define RQ_FAULT (-2)  /* the queue or its producer index unreadable */

/* The receive WQE at the QP's consumer index, if the holder posted it. */
static int rq_peek(struct gaudi_core *g, unsigned int port,
                   const struct qp_ext *e, struct rq_wqe *w)
{
    uint32_t d[GAUDI_NIC_RECV_WQE_SIZE / 4], pi, n;

    if (!e->verbs || !e->rq_log || e->rq_log > EXT_RQ_MAX_LOG) {
        return RQ_NONE;
    }
    n = 1U << e->rq_log;
    if (user_read(g, port, e->rq_base + (uint64_t)n * GAUDI_NIC_RECV_WQE_SIZE,
                  &pi, sizeof(pi))) {
        return RQ_FAULT;
    }
    pi = gaudi_le32(pi);
    if (pi == e->rq_ci) {
        return RQ_EMPTY;
    }
    if (pi - e->rq_ci > n) {
        gaudi_guest_error(g, "NIC%u: receive queue PI %u beyond CI %u + %u",
                          port, pi, e->rq_ci, n);
        return RQ_EMPTY;
    }
    if (user_read(g, port, e->rq_base + (uint64_t)(e->rq_ci & (n - 1)) *
                  GAUDI_NIC_RECV_WQE_SIZE, d, sizeof(d))) {
        return RQ_FAULT;
    }
    w->addr = gaudi_le32(d[0]) | (uint64_t)gaudi_le32(d[1]) << 32;
    w->len = gaudi_le32(d[2]);
    w->wrid = gaudi_le32(d[4]) | (uint64_t)gaudi_le32(d[5]) << 32;
    w->idx = e->rq_ci;
    return RQ_OK;
}

/* Take the WQE rq_peek() found: the consumer index moves on. */
static void rq_consume(struct gaudi_core *g, unsigned int port,
                       struct qp_ext *e)
{
    e->rq_ci++;
    e->w[3] = gaudi_le32(e->rq_ci);
    gaudi_nic_tbl_store(g, port, e->addr, e->w);
    count(g, port, GAUDI_ROCE_RECV_WQES);
}

/* A receive completion of a verbs QP. */
static void res_recv_done(struct gaudi_core *g, unsigned int port,
                          uint32_t qpn, const struct qp_ext *e, uint8_t op,
                          uint32_t idx, uint64_t wrid, uint32_t bytes,
                          bool has_imm, uint32_t imm)
{
    struct vcqe c;

    memset(&c, 0, sizeof(c));
    c.idx = idx;
    c.qpn = qpn;
    c.op = op;
    c.bytes = bytes;
    c.has_imm = has_imm;
    c.imm = has_imm ? imm : 0;
    c.wrid = wrid;
    vcq_post(g, port, e->recv_cq, &c);
}

/*
 * Send the responses of the port's queued READs, oldest first, at most
 * *budget packets.  Each packet looks the region up again (it may have
 * ended since the request) and reads through the MMU as the holder; a
 * refusal NAKs the requester and puts the responder QP in error.
 */
static void rd_pump(struct gaudi_core *g, unsigned int port,
                    unsigned int *budget)
{
    struct gaudi_roce *r = &g->nic.roce;

    while (*budget && r->rd_n[port]) {
        struct gaudi_roce_rd *x = NULL;
        uint32_t ctx[GAUDI_NIC_RES_QPC_SIZE / 4];
        struct gaudi_roce_res *s;
        struct res_dst d;
        struct qp_ext e;
        uint64_t addr;
        unsigned int i;

        for (i = 0; i < GAUDI_ROCE_RD_SLOTS; i++) {
            struct gaudi_roce_rd *y = &r->rd[port][i];

            if (y->used && (!x || y->seq < x->seq)) {
                x = y;
            }
        }
        if (!x) {
            r->rd_n[port] = 0;
            return;
        }
        s = &r->res[port][x->qpn];
        ext_get(g, port, x->qpn, &e);
        if (gaudi_nic_qpc_load(g, port, false, x->qpn, ctx, &addr) ||
            !bits(ctx, RES_QPC_VALID_BIT, 1) ||
            bits(ctx, RES_QPC_CONN_STATE_BIT, 2) == RES_QPC_CONN_ERROR ||
            e.gen != x->gen || !s->active || s->gen != x->gen) {
            rd_drop(g, port, x->qpn); /* the connection ended */
            continue;
        }
        d.mac = x->mac;
        d.src_ip = x->src_ip;
        d.dst_ip = x->dst_ip;
        d.sport = x->sport;
        d.dqp = bits(ctx, RES_QPC_DST_QP_BIT, 24);
        while (*budget && x->sent < x->npsn) {
            uint8_t f[GAUDI_ROCE_MAX_FRAME];
            uint32_t chunk = x->len - x->off, psn, syn;
            unsigned int pad;
            uint8_t op;
            size_t off;
            int rc;

            if (chunk > e.mtu) {
                chunk = e.mtu;
            }
            pad = (4 - (chunk & 3)) & 3;
            psn = (x->psn + x->sent) & PSN_MASK;
            op = x->npsn == 1 ? OP_READ_RESP_ONLY :
                 !x->sent ? OP_READ_RESP_FIRST :
                 x->sent + 1 == x->npsn ? OP_READ_RESP_LAST :
                 OP_READ_RESP_MIDDLE;
            off = put_headers(g, port, f, d.mac, d.src_ip, d.dst_ip, d.sport,
                              BTH_LEN + (op != OP_READ_RESP_MIDDLE ?
                                         AETH_LEN : 0) +
                              chunk + pad + ICRC_LEN);
            put_bth(f + off, op, pad, d.dqp, false, psn);
            off += BTH_LEN;
            if (op != OP_READ_RESP_MIDDLE) {
                put_aeth(f + off, AETH_ACK, s->msn);
                off += AETH_LEN;
            }
            syn = chunk ? region_check(g, port, x->qpn, x->gen, e.pd, ctx,
                                       x->rkey,
                                       x->va + x->off, chunk,
                                       MR_W6_REMOTE_READ) : 0;
            rc = syn ? 0 : chunk ? user_read(g, port, x->va + x->off,
                                             f + off, chunk) : 0;
            if (syn || rc) {
                if (!syn) {
                    syn = rc == ROCE_REFUSED ? ROCE_SYN_RES_ADDR :
                                               ROCE_SYN_RES_MMU;
                } else {
                    count(g, port, GAUDI_ROCE_REGION_ERRORS);
                }
                send_ack_to(g, port, &d, psn, AETH_NAK | NAK_REMOTE_ACCESS,
                            s->msn);
                res_fail(g, port, x->qpn, ctx, addr, syn);
                break; /* x and the QP's other READs are gone */
            }
            off += chunk;
            memset(f + off, 0, pad);
            off += pad;
            finish(f, off);
            wire_send(g, port, f, off + ICRC_LEN, false);
            x->off += chunk;
            x->sent++;
            (*budget)--;
        }
        if (x->used && x->sent == x->npsn) {
            memset(x, 0, sizeof(*x));
            r->rd_n[port]--;
        }
    }
}

/*
 * A READ REQUEST (new, or dup: a PSN before expected, to be executed again
 * from its PSN): check the region with the remote-read right and queue
 * it; its responses take the PSNs from its own.  Returns false if it was
 * refused (the QP is then in error).  A request finding the queues full is
 * dropped as if lost (the requester asks again).
 */
static bool res_read(struct gaudi_core *g, unsigned int port,
                     const uint8_t *f, const uint8_t *bth, uint32_t qpn,
                     uint32_t *ctx, uint64_t addr, struct gaudi_roce_res *s,
                     const struct qp_ext *e, uint32_t psn, bool dup)
{
    struct gaudi_roce *r = &g->nic.roce;
    const uint8_t *ip = f + ETH_HDR;
    /* The peer's VA plus the QP's offset (hw/gaudi1/nic.h EXT word 5). */
    uint64_t va = ((uint64_t)get32(bth + BTH_LEN) << 32 |
                   get32(bth + BTH_LEN + 4)) + e->va_off;
    uint32_t rkey = get32(bth + BTH_LEN + 8);
    uint32_t dlen = get32(bth + BTH_LEN + 12), syn, npsn;
    struct gaudi_roce_rd *x = NULL;
    unsigned int i, mine = 0;

    npsn = dlen ? (uint32_t)(((uint64_t)dlen + e->mtu - 1) / e->mtu) : 1;
    syn = dlen > 0x7FFFFFFFU || npsn >= 0x400000U ? ROCE_SYN_RES_LENGTH :
          dlen ? region_check(g, port, qpn, s->gen, e->pd, ctx, rkey, va,
                              dlen, MR_W6_REMOTE_READ) : 0;
    if (syn) {
        res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                   syn == ROCE_SYN_RES_LENGTH ? NAK_INVALID_REQ :
                                                NAK_REMOTE_ACCESS, syn);
        return false;
    }
    for (i = 0; i < GAUDI_ROCE_RD_SLOTS; i++) {
        struct gaudi_roce_rd *y = &r->rd[port][i];

        if (y->used && y->qpn == qpn && dup && !psn_before(y->psn, psn)) {
            /* Asked again from here: what came after is asked again too. */
            memset(y, 0, sizeof(*y));
            r->rd_n[port]--;
        }
        if (y->used && y->qpn == qpn) {
            mine++;
        } else if (!y->used && !x) {
            x = y;
        }
    }
    if (!x || mine >= GAUDI_ROCE_RD_QP) {
        count(g, port, GAUDI_ROCE_BAD_FRAMES); /* beyond the READ depth */
        return true;
    }
    memset(x, 0, sizeof(*x));
    x->used = true;
    x->gen = s->gen;
    x->qpn = qpn;
    x->psn = psn;
    x->npsn = npsn;
    x->len = dlen;
    x->rkey = rkey;
    x->va = va;
    x->src_ip = get32(ip + 16);
    x->dst_ip = get32(ip + 12);
    x->sport = (uint16_t)get16(ip + IP_HDR);
    memcpy(x->mac, f + 6, sizeof(x->mac));
    x->seq = ++r->rd_seq;
    r->rd_n[port]++;
    r->busy |= 1U << port;
    if (!dup) {
        count(g, port, GAUDI_ROCE_READS_SERVED);
        s->msn = (s->msn + 1) & MSN_MASK;
        setbits(ctx, RES_QPC_EXPECTED_PSN_BIT, 24, (psn + npsn) & PSN_MASK);
        setbits(ctx, RES_QPC_NACK_SYNDROME_BIT, 2, 0);
        gaudi_nic_qpc_store(g, port, false, addr, ctx);
    }
    if (g->bus.schedule) {
        g->bus.schedule(g->bus.opaque, 0); /* what the budget leaves */
    }
    return true;
}

static void responder(struct gaudi_core *g, unsigned int port,
                      const uint8_t *f, const uint8_t *bth, size_t plen)
{
    uint32_t ctx[GAUDI_NIC_RES_QPC_SIZE / 4];
    const uint8_t *ip = f + ETH_HDR;
    uint8_t op = bth[0];
    unsigned int pad = (bth[1] >> 4) & 3, budget = GAUDI_ROCE_PKT_BUDGET;
    uint32_t qpn = get32(bth + 4) & 0xFFFFFF, psn = get32(bth + 8) & PSN_MASK;
    bool ackreq = bth[8] & 0x80;
    bool is_send = op <= OP_SEND_ONLY_IMM, is_read = op == OP_READ_REQ;
    bool reth = op == OP_WRITE_FIRST || op == OP_WRITE_ONLY ||
                op == OP_WRITE_ONLY_IMM || is_read;
    bool imm = op == OP_WRITE_ONLY_IMM || op == OP_WRITE_LAST_IMM ||
               op == OP_SEND_LAST_IMM || op == OP_SEND_ONLY_IMM;
    bool starts = reth || op == OP_SEND_FIRST || op == OP_SEND_ONLY ||
                  op == OP_SEND_ONLY_IMM;
    bool last = op != OP_WRITE_FIRST && op != OP_WRITE_MIDDLE &&
                op != OP_SEND_FIRST && op != OP_SEND_MIDDLE;
    size_t hl = BTH_LEN + (reth ? RETH_LEN : 0) + (imm ? IMM_LEN : 0);
    bool sob, need_rq;
    struct gaudi_roce_res *s;
    uint32_t expected, payload_len, syn, dlen = 0, immdt = 0;
    const uint8_t *payload;
    struct rq_wqe rw = { 0 };
    struct qp_ext e;
    uint64_t addr;
    int r;

    if (plen < hl + ICRC_LEN || plen - hl - ICRC_LEN < pad) {
        count(g, port, GAUDI_ROCE_BAD_FRAMES);
        return;
    }
    payload = bth + hl;
    payload_len = (uint32_t)(plen - hl - ICRC_LEN - pad);
    if (reth) {
        dlen = get32(bth + BTH_LEN + 12);
    }
    if (imm) {
        immdt = get32(bth + hl - IMM_LEN);
    }
    /*
     * No valid context: no peer QP to answer to (the requester times
     * out).  Reported once until the context is valid again; whatever
     * the engine kept of the QP ends.
     */
    if (qpn >= GAUDI_ROCE_MAX_QPN ||
        gaudi_nic_qpc_load(g, port, false, qpn, ctx, &addr) ||
        !bits(ctx, RES_QPC_VALID_BIT, 1) ||
        bits(ctx, RES_QPC_TRANSPORT_BIT, 1) != QPC_TRANSPORT_RC) {
        count(g, port, GAUDI_ROCE_DROP_NO_QP);
        if (qpn < GAUDI_ROCE_MAX_QPN) {
            s = &g->nic.roce.res[port][qpn];
            if (!s->invalid_seen) {
                res_drop(g, port, s);
                s->invalid_seen = true;
                res_fail(g, port, qpn, NULL, 0, ROCE_SYN_RES_INVALID_QP);
            }
        }
        return;
    }
    /* Only the connection's peer: its address to ours (as rxe checks). */
    if (get32(ip + 12) != bits(ctx, RES_QPC_DST_IP_BIT, 32) ||
        get32(ip + 16) != bits(ctx, RES_QPC_SRC_IP_BIT, 32)) {
        count(g, port, GAUDI_ROCE_DROP_SOURCE);
        return;
    }
    s = &g->nic.roce.res[port][qpn];
    s->invalid_seen = false;
    ext_get(g, port, qpn, &e);
    if (s->active && s->gen != e.gen) {
        res_drop(g, port, s);
    }
    if (!s->active) {
        s->active = true;
        s->gen = e.gen;
    }
    if (bits(ctx, RES_QPC_CONN_STATE_BIT, 2) == RES_QPC_CONN_ERROR) {
        send_ack(g, port, f, ctx, psn, AETH_NAK | NAK_REMOTE_ACCESS, s->msn);
        return; /* already reported */
    }
    expected = bits(ctx, RES_QPC_EXPECTED_PSN_BIT, 24);
    if (psn != expected) {
        if (psn_before(psn, expected)) {
            /* A duplicate: the ACK was lost.  ACK again, write nothing. */
            count(g, port, GAUDI_ROCE_DUPLICATES);
            if (is_read) {
                /* A READ is executed again (IBA vol. 1, ch. 9). */
                if (res_read(g, port, f, bth, qpn, ctx, addr, s, &e, psn,
                             true)) {
                    rd_pump(g, port, &budget);
                }
                return;
            }
            send_ack(g, port, f, ctx, (expected - 1) & PSN_MASK, AETH_ACK,
                     s->msn);
        } else if (!bits(ctx, RES_QPC_NACK_SYNDROME_BIT, 2)) {
            /* Early: one NAK per gap (the context remembers it). */
            setbits(ctx, RES_QPC_NACK_SYNDROME_BIT, 2, 1);
            gaudi_nic_qpc_store(g, port, false, addr, ctx);
            send_ack(g, port, f, ctx, expected, AETH_NAK | NAK_PSN_SEQ,
                     s->msn);
        }
        return;
    }
    /* In order: the opcode sequence and the path MTU. */
    if (starts == s->in_msg || (!starts && s->send != is_send)) {
        /* FIRST/ONLY inside a message, MIDDLE/LAST outside one or of
         * another kind. */
        res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn, NAK_INVALID_REQ,
                   ROCE_SYN_RES_LENGTH);
        return;
    }
    if (is_read) {
        if (payload_len) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       NAK_INVALID_REQ, ROCE_SYN_RES_LENGTH);
        } else if (res_read(g, port, f, bth, qpn, ctx, addr, s, &e, psn,
                            false)) {
            rd_pump(g, port, &budget);
        }
        return;
    }
    if (payload_len > e.mtu || (e.valid && !last && payload_len != e.mtu)) {
        res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn, NAK_INVALID_REQ,
                   ROCE_SYN_RES_MTU);
        return;
    }
    if (rd_pending(g, port, qpn)) {
        /*
         * Responses go out in PSN order: an ACK of this request must not
         * overtake the READ responses before it.  What the budget cannot
         * send now leaves this request unanswered, as if lost (resent).
         */
        rd_pump(g, port, &budget);
        if (rd_pending(g, port, qpn)) {
            return;
        }
    }
    if (is_send && !e.verbs) {
        res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn, NAK_INVALID_REQ,
                   ROCE_SYN_RES_NO_RQ);
        return;
    }
    sob = op == OP_WRITE_ONLY_IMM && !dlen &&
          bits(ctx, RES_QPC_SOB_EN_BIT, 1);
    /* A SEND's first packet and a WRITE's immediate take a receive WQE. */
    need_rq = e.verbs && ((is_send && starts) || (!is_send && imm && !sob));
    if (need_rq) {
        r = rq_peek(g, port, &e, &rw);
        if (r == RQ_EMPTY) {
            /* Receiver not ready: the requester waits and resends. */
            count(g, port, GAUDI_ROCE_TX_RNR_NAKS);
            send_ack(g, port, f, ctx, psn, AETH_RNR | (e.min_rnr & 0x1F),
                     s->msn);
            return;
        }
        if (r != RQ_OK) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       r == RQ_NONE ? NAK_INVALID_REQ : NAK_REMOTE_OP,
                       r == RQ_NONE ? ROCE_SYN_RES_NO_RQ :
                                      ROCE_SYN_RES_RECV_FAULT);
            return;
        }
    }
    if (reth) {
        /* The peer's VA plus the QP's offset; a SOB write's is a CFG one. */
        uint64_t va = ((uint64_t)get32(bth + BTH_LEN) << 32 |
                       get32(bth + BTH_LEN + 4)) + (sob ? 0 : e.va_off);
        uint32_t rkey = get32(bth + BTH_LEN + 8);

        /* The whole message must lie in the region (none for 0 bytes). */
        syn = dlen ? region_check(g, port, qpn, s->gen, e.pd, ctx, rkey, va,
                                  dlen, MR_W6_REMOTE_WRITE) : 0;
        if (syn) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       NAK_REMOTE_ACCESS, syn);
            return;
        }
        s->va = va;
        s->left = dlen;
        s->msg_len = dlen;
        s->rkey = rkey;
        s->in_msg = true;
        s->send = false;
    } else if (is_send && starts) {
        rq_consume(g, port, &e);
        s->rq_held = true;
        s->rq_addr = rw.addr;
        s->rq_len = rw.len;
        s->rq_got = 0;
        s->rq_idx = rw.idx;
        s->rq_wrid = rw.wrid;
        s->in_msg = true;
        s->send = true;
    }
    if (is_send) {
        if (payload_len > s->rq_len - s->rq_got) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       NAK_INVALID_REQ, ROCE_SYN_RES_RECV_LEN);
            return;
        }
        r = payload_len ? user_write(g, port, s->rq_addr + s->rq_got,
                                     payload, payload_len) : 0;
        if (r) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       NAK_REMOTE_OP, ROCE_SYN_RES_RECV_FAULT);
            return;
        }
        s->rq_got += payload_len;
        if (last) {
            s->rq_held = false;
            res_recv_done(g, port, qpn, &e, CQE_OP_RECV, s->rq_idx,
                          s->rq_wrid, s->rq_got, imm, immdt);
        }
    } else {
        if (payload_len > s->left || (last && payload_len != s->left)) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       NAK_INVALID_REQ, ROCE_SYN_RES_LENGTH);
            return;
        }
        if (sob) {
            /* The remote sync-object write (the model's wire choice). */
            if (sob_write(g, port, s->va, immdt)) {
                res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                           NAK_REMOTE_ACCESS, ROCE_SYN_RES_SOB);
                return;
            }
        } else if (payload_len) {
            /*
             * Every packet again: the region may have ended since the
             * FIRST (nothing moves unless it still holds these bytes).
             */
            syn = region_check(g, port, qpn, s->gen, e.pd, ctx, s->rkey,
                               s->va, payload_len, MR_W6_REMOTE_WRITE);
            if (syn) {
                res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                           NAK_REMOTE_ACCESS, syn);
                return;
            }
            r = user_write(g, port, s->va, payload, payload_len);
            if (r) {
                res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                           NAK_REMOTE_ACCESS, r == ROCE_REFUSED ?
                           ROCE_SYN_RES_ADDR : ROCE_SYN_RES_MMU);
                return;
            }
            s->va += payload_len;
            s->left -= payload_len;
        }
        if (need_rq) {
            /* WRITE with immediate on a verbs QP: a receive completion. */
            rq_consume(g, port, &e);
            res_recv_done(g, port, qpn, &e, CQE_OP_RECV_RDMA_IMM, rw.idx,
                          rw.wrid, s->msg_len, true, immdt);
        } else if (imm && !sob) {
            cq_write(g, port, qpn & ROCE_CQE_QPN, immdt & ~ROCE_CQE_VALID);
        }
    }
    if (last) {
        s->in_msg = false;
        s->msn = (s->msn + 1) & MSN_MASK;
    }
    setbits(ctx, RES_QPC_EXPECTED_PSN_BIT, 24, (psn + 1) & PSN_MASK);
    setbits(ctx, RES_QPC_NACK_SYNDROME_BIT, 2, 0);
    gaudi_nic_qpc_store(g, port, false, addr, ctx);
    if (last || ackreq) {
        send_ack(g, port, f, ctx, psn, AETH_ACK, s->msn);
    }
}

static void receive_one(struct gaudi_core *g, unsigned int port,
                        const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + ETH_HDR, *bth = f + HDRS;
    size_t ip_len = get16(ip + 2), plen;
    uint32_t icrc;

    uint8_t mac[6];

    count(g, port, GAUDI_ROCE_RX_PKTS);
    port_mac(g, port, mac);
    if (memcmp(f, mac, sizeof(mac))) {
        count(g, port, GAUDI_ROCE_DROP_MAC); /* for another station */
        return;
    }
    if (ip_len < IP_HDR + UDP_HDR + BTH_LEN + ICRC_LEN ||
        ETH_HDR + ip_len > len || get16(ip + IP_HDR + 4) !=
        ip_len - IP_HDR) {
        count(g, port, GAUDI_ROCE_BAD_FRAMES);
        return;
    }
    len = ETH_HDR + ip_len; /* without Ethernet padding */
    plen = len - HDRS;
    icrc = gaudi_roce_icrc(f, len - ICRC_LEN);
    if ((uint32_t)(f[len - 4] | f[len - 3] << 8 | f[len - 2] << 16 |
                   (uint32_t)f[len - 1] << 24) != icrc) {
        count(g, port, GAUDI_ROCE_ICRC_ERRORS);
        return;
    }
    switch (bth[0]) {
    case OP_ACK:
        if (plen < BTH_LEN + AETH_LEN + ICRC_LEN) {
            count(g, port, GAUDI_ROCE_BAD_FRAMES);
            return;
        }
        req_ack(g, port, get32(bth + 4) & 0xFFFFFF,
                get32(bth + 8) & PSN_MASK, bth[BTH_LEN], get32(ip + 12),
                get32(ip + 16));
        return;
    case OP_SEND_FIRST:
    case OP_SEND_MIDDLE:
    case OP_SEND_LAST:
    case OP_SEND_LAST_IMM:
    case OP_SEND_ONLY:
    case OP_SEND_ONLY_IMM:
    case OP_WRITE_FIRST:
    case OP_WRITE_MIDDLE:
    case OP_WRITE_LAST:
    case OP_WRITE_LAST_IMM:
    case OP_WRITE_ONLY:
    case OP_WRITE_ONLY_IMM:
    case OP_READ_REQ:
        responder(g, port, f, bth, plen);
        return;
    case OP_READ_RESP_FIRST:
    case OP_READ_RESP_MIDDLE:
    case OP_READ_RESP_LAST:
    case OP_READ_RESP_ONLY:
        req_read_resp(g, port, f, bth, plen);
        return;
    }
    count(g, port, GAUDI_ROCE_BAD_FRAMES);
}

bool gaudi_roce_receive(struct gaudi_core *g, unsigned int port,
                        const uint8_t *f, size_t len)
{
    struct gaudi_roce *r = &g->nic.roce;
    const uint8_t *ip = f + ETH_HDR;

    if (len < HDRS || get16(f + 12) != 0x0800 || ip[0] != 0x45 ||
        ip[9] != 17 || get16(ip + IP_HDR + 2) != ROCE_UDP_PORT ||
        (get16(ip + 6) & 0x3FFF)) {
        return false; /* not RoCE v2 (or fragmented): the raw ring's */
    }
    if (len > GAUDI_ROCE_MAX_FRAME) {
        count(g, port, GAUDI_ROCE_RX_PKTS);
        count(g, port, GAUDI_ROCE_BAD_FRAMES);
        return true;
    }
    if (r->depth) {
        /* Sent back to us from inside our own send: handle it after. */
        if (r->defer_n < GAUDI_ROCE_DEFER) {
            struct gaudi_roce_frame *d =
                &r->defer[(r->defer_head + r->defer_n++) % GAUDI_ROCE_DEFER];

            d->port = port;
            d->len = (uint16_t)len;
            memcpy(d->buf, f, len);
        }
        return true;
    }
    r->depth++;
    receive_one(g, port, f, len);
    r->depth--;
    drain_deferred(g);
    return true;
}

/* Handle the frames that arrived while the engine was busy. */
static void drain_deferred(struct gaudi_core *g)
{
    struct gaudi_roce *r = &g->nic.roce;
    unsigned int n = 0;

    if (r->depth) {
        return;
    }
    r->depth++;
    while (r->defer_n && n++ < 4 * GAUDI_ROCE_DEFER) {
        struct gaudi_roce_frame *d = &r->work;
        const struct gaudi_roce_frame *h = &r->defer[r->defer_head];

        /* Its slot is free for what arrives while it is handled. */
        d->port = h->port;
        d->len = h->len;
        memcpy(d->buf, h->buf, h->len);
        r->defer_head = (r->defer_head + 1) % GAUDI_ROCE_DEFER;
        r->defer_n--;
        receive_one(g, d->port, d->buf, d->len);
    }
    r->depth--;
    if (r->defer_n && g->bus.schedule) {
        /* The batch is bounded: the rest in a step, not at a timer. */
        g->bus.schedule(g->bus.opaque, 0);
    }
}

/* --- timers --- */

/*
 * Port p has requester QPs in flight or READs to answer; else its bit in
 * the busy mask ends (the engine scans only the ports in it).
 */
static bool port_busy(struct gaudi_roce *r, unsigned int p)
{
    unsigned int i;

    if (r->rd_n[p]) {
        return true;
    }
    for (i = 0; i < GAUDI_ROCE_REQ_SLOTS; i++) {
        if (r->req[p][i].used) {
            return true;
        }
    }
    r->busy &= ~(1U << p);
    return false;
}

uint64_t gaudi_roce_next_ns(struct gaudi_core *g)
{
    struct gaudi_roce *r = &g->nic.roce;
    uint64_t next = UINT64_MAX;
    uint32_t m = r->busy;
    unsigned int p, i;

    if (r->defer_n) {
        return 0; /* frames to handle */
    }
    while (m) {
        p = (unsigned int)__builtin_ctz(m);
        m &= m - 1;
        if (!port_busy(r, p)) {
            continue;
        }
        if (r->rd_n[p]) {
            return 0; /* READ responses to send */
        }
        for (i = 0; i < GAUDI_ROCE_REQ_SLOTS; i++) {
            const struct gaudi_roce_req *q = &r->req[p][i];

            if (req_pending(q)) {
                return 0; /* at once */
            }
            if (q->used && q->deadline && q->deadline < next) {
                next = q->deadline;
            }
        }
    }
    return next;
}

/* Requester slot q of port p: send what it may, its timers. */
static void run_req(struct gaudi_core *g, unsigned int p,
                    struct gaudi_roce_req *q, uint64_t now)
{
    unsigned int limit;
    uint32_t ctx[GAUDI_NIC_REQ_QPC_SIZE / 4];
    uint64_t addr;

    if (req_pending(q)) {
        unsigned int budget = GAUDI_ROCE_PKT_BUDGET;

        if (!pump(g, p, q, &budget)) {
            req_save(g, p, q, false);
            req_release_if_idle(g, p, q);
        }
    }
    if (!q->used || !q->deadline || q->deadline > now) {
        return;
    }
    if (q->rnr) {
        /* The RNR timer ran out: resend from the NAKed packet. */
        q->rnr = false;
        count(g, p, GAUDI_ROCE_RNR_RETRIES);
        if (!resend(g, p, q)) {
            req_save(g, p, q, false);
        }
        return;
    }
    count(g, p, GAUDI_ROCE_TIMEOUTS);
    limit = GAUDI_ROCE_RETRIES;
    if (!req_ctx(g, p, q->qpn, ctx, &addr) &&
        bits(ctx, RQ_TIMEOUT_RETRY, 8)) {
        limit = bits(ctx, RQ_TIMEOUT_RETRY, 8);
    }
    if (++q->retries > limit) {
        req_fail(g, p, q, ROCE_SYN_RETRY_EXCEEDED);
        return;
    }
    resend(g, p, q);
}

void gaudi_roce_run(struct gaudi_core *g)
{
    struct gaudi_roce *r = &g->nic.roce;
    uint64_t now, next;
    uint32_t m;
    unsigned int p, i;

    if (r->depth || (!r->busy && !r->held && !r->defer_n)) {
        return; /* an idle engine costs nothing */
    }
    now = gaudi_now_ns(g);
    r->depth++;
    if (r->held) {
        /* A frame kept back and nothing sent since: let it go now. */
        r->held = false;
        gaudi_nic_xmit(g, r->hold.port, r->hold.buf, r->hold.len);
    }
    r->depth--;
    drain_deferred(g);
    /*
     * The ports in the mask when the run began, in port order; what came
     * back during one QP's sends is handled before the next QP sends.
     */
    m = r->busy;
    while (m) {
        unsigned int rd_budget = GAUDI_ROCE_PKT_BUDGET;

        p = (unsigned int)__builtin_ctz(m);
        m &= m - 1;
        if (r->rd_n[p]) {
            r->depth++;
            rd_pump(g, p, &rd_budget);
            r->depth--;
            drain_deferred(g);
        }
        for (i = 0; i < GAUDI_ROCE_REQ_SLOTS; i++) {
            if (r->req[p][i].used) {
                r->depth++;
                run_req(g, p, &r->req[p][i], now);
                r->depth--;
                drain_deferred(g);
            }
        }
    }
    next = gaudi_roce_next_ns(g);
    if (next != UINT64_MAX && g->bus.schedule) {
        g->bus.schedule(g->bus.opaque, next > now ? next - now : 0);
    }
}

void gaudi_roce_reset(struct gaudi_core *g)
{
    memset(&g->nic.roce, 0, sizeof(g->nic.roce));
}

void gaudi_roce_qp_written(struct gaudi_core *g, unsigned int port,
                           uint32_t qpn, bool req, bool res)
{
    struct gaudi_roce_req *q;

    if (port >= GAUDI_NIC_NUM_PORTS || qpn >= GAUDI_ROCE_MAX_QPN) {
        return;
    }
    q = req_find(g, port, qpn);
    if (req && q) {
        count(g, port, GAUDI_ROCE_STATE_RESETS);
        memset(q, 0, sizeof(*q));
    }
    if (res) {
        res_drop(g, port, &g->nic.roce.res[port][qpn]);
    }
}

void gaudi_roce_revalidate(struct gaudi_core *g, unsigned int port)
{
    uint32_t ctx[GAUDI_NIC_REQ_QPC_SIZE / 4];
    struct qp_ext e;
    uint64_t addr;
    unsigned int i;

    if (port >= GAUDI_NIC_NUM_PORTS) {
        return;
    }
    for (i = 0; i < GAUDI_ROCE_REQ_SLOTS; i++) {
        struct gaudi_roce_req *q = &g->nic.roce.req[port][i];

        if (!q->used) {
            continue;
        }
        ext_get(g, port, q->qpn, &e);
        if (req_ctx(g, port, q->qpn, ctx, &addr) || !ctx_alive(ctx) ||
            e.gen != q->gen) {
            count(g, port, GAUDI_ROCE_STATE_RESETS);
            memset(q, 0, sizeof(*q));
        }
    }
    for (i = 0; i < GAUDI_ROCE_MAX_QPN; i++) {
        struct gaudi_roce_res *s = &g->nic.roce.res[port][i];

        if (!s->active) {
            continue;
        }
        ext_get(g, port, i, &e);
        if (gaudi_nic_qpc_load(g, port, false, i, ctx, &addr) ||
            !bits(ctx, RES_QPC_VALID_BIT, 1) ||
            bits(ctx, RES_QPC_TRANSPORT_BIT, 1) != QPC_TRANSPORT_RC ||
            e.gen != s->gen) {
            res_drop(g, port, s);
        }
    }
}
