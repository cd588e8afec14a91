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
 * Frames: Ethernet II, IPv4 (20-byte header, DF, TTL 64), UDP to 4791
 * (source port 0xC000 | QPN, checksum 0), BTH, RETH, ImmDt, payload padded
 * to 4 bytes, iCRC computed as RoCE v2 (IBA annex 17) specifies.
 * Nothing here aborts on guest input; the work per call is bounded.
 */
#include <string.h>

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
#define OP_WRITE_FIRST 0x06
#define OP_WRITE_MIDDLE 0x07
#define OP_WRITE_LAST 0x08
#define OP_WRITE_LAST_IMM 0x09
#define OP_WRITE_ONLY 0x0A
#define OP_WRITE_ONLY_IMM 0x0B
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

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    size_t i;
    int k;

    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xEDB88320U & -(crc & 1));
        }
    }
    return crc;
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
    uint8_t h[IP_HDR + UDP_HDR + BTH_LEN];
    uint32_t crc = 0xFFFFFFFFU;

    if (len < HDRS + BTH_LEN) {
        return 0;
    }
    memcpy(h, frame + ETH_HDR, sizeof(h));
    h[1] = 0xFF;                          /* TOS */
    h[8] = 0xFF;                          /* TTL */
    h[10] = h[11] = 0xFF;                 /* header checksum */
    h[IP_HDR + 6] = h[IP_HDR + 7] = 0xFF; /* UDP checksum */
    h[IP_HDR + UDP_HDR + 4] = 0xFF;       /* BTH reserved byte */
    crc = crc32_update(crc, roce_init_pad, sizeof(roce_init_pad));
    crc = crc32_update(crc, h, sizeof(h));
    crc = crc32_update(crc, frame + HDRS + BTH_LEN, len - HDRS - BTH_LEN);
    return ~crc;
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
};

static void ext_get(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                    struct qp_ext *e)
{
    uint32_t w[GAUDI_NIC_EXT_SIZE / 4], w0, code;

    e->valid = false;
    e->mtu = GAUDI_ROCE_MTU;
    e->rnr_retry = EXT_RNR_RETRY_INFINITE;
    e->gen = 0;
    if (!(gaudi_reg_get(g, GAUDI_NIC_QPC_REG(port, NIC_QPC_EXT_CFG)) &
          EXT_CFG_ENABLE) ||
        gaudi_nic_ext_load(g, port, qpn, w)) {
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

static void req_fail(struct gaudi_core *g, unsigned int port,
                     struct gaudi_roce_req *q, uint32_t syndrome)
{
    gaudi_guest_error(g, "NIC%u: requester QP %u in error (0x%x)", port,
                      q->qpn, syndrome);
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
           q->n < GAUDI_ROCE_WINDOW;
}

/* Build and send the request packet p of q. */
static int send_pkt(struct gaudi_core *g, unsigned int port,
                    struct gaudi_roce_req *q, const struct gaudi_roce_pkt *p,
                    const uint32_t *ctx, bool again)
{
    uint8_t f[GAUDI_ROCE_MAX_FRAME];
    uint8_t mac[6];
    bool reth = p->opcode == OP_WRITE_FIRST || p->opcode == OP_WRITE_ONLY ||
                p->opcode == OP_WRITE_ONLY_IMM;
    bool imm = p->opcode == OP_WRITE_ONLY_IMM ||
               p->opcode == OP_WRITE_LAST_IMM;
    unsigned int pad = (4 - (p->len & 3)) & 3;
    size_t plen = BTH_LEN + (reth ? RETH_LEN : 0) + (imm ? IMM_LEN : 0) +
                  p->len + pad + ICRC_LEN;
    size_t off;

    put16(mac, bits(ctx, RQ_DST_MAC_HI, 16));
    put32(mac + 2, bits(ctx, RQ_DST_MAC_LO, 32));
    off = put_headers(g, port, f, mac, bits(ctx, RQ_SRC_IP, 32),
                      bits(ctx, RQ_DST_IP, 32), 0xC000 | (q->qpn & 0x3FFF),
                      plen);
    put_bth(f + off, p->opcode, pad, bits(ctx, RQ_DST_QP, 24),
            p->opcode != OP_WRITE_FIRST && p->opcode != OP_WRITE_MIDDLE,
            p->psn);
    off += BTH_LEN;
    if (reth) {
        put32(f + off, (uint32_t)(p->raddr >> 32));
        put32(f + off + 4, (uint32_t)p->raddr);
        put32(f + off + 8, bits(ctx, RQ_RKEY, 32));
        put32(f + off + 12, p->msg_len);
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
    q->next_psn = (q->next_psn + 1) & PSN_MASK;
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
    if (op != WQE_LINEAR && op != WQE_NOP) {
        gaudi_guest_error(g, "NIC%u: WQE %u of QP %u: opcode %u is not "
                          "modelled on an RC QP", port, q->ci, q->qpn, op);
        req_fail(g, port, q, ROCE_SYN_BAD_WQE);
        return -1;
    }
    q->cur = true;
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
        q->cur_size = (w2 & NIC_WQE_SIZE) >> NIC_WQE_SIZE_SHIFT;
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
        memset(&p, 0, sizeof(p));
        p.wqe = q->cur_idx;
        p.raddr = q->cur_raddr;
        p.msg_len = q->cur_size;
        if (!q->cur_data_done) {
            uint32_t left = q->cur_size - q->cur_off;
            bool first = !q->cur_off, last = left <= q->mtu;

            p.len = (uint16_t)(last ? left : q->mtu);
            p.laddr = q->cur_laddr + q->cur_off;
            p.opcode = first ? (last ? OP_WRITE_ONLY : OP_WRITE_FIRST) :
                               (last ? OP_WRITE_LAST : OP_WRITE_MIDDLE);
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

/* Retire every packet up to upto (cumulative); true if any. */
static bool retire(struct gaudi_core *g, unsigned int port,
                   struct gaudi_roce_req *q, uint32_t upto)
{
    bool progress = false;

    while (q->n) {
        struct gaudi_roce_pkt *p = &q->win[q->head];

        if (psn_before(upto, p->psn)) {
            break;
        }
        if (p->last) {
            cq_write(g, port, p->wqe | ROCE_CQE_REQUESTER,
                     q->qpn & ROCE_CQE_QPN);
        }
        q->head = (q->head + 1) % GAUDI_ROCE_WINDOW;
        q->n--;
        progress = true;
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
                 ROCE_SYN_REMOTE_ACCESS : ROCE_SYN_REMOTE_INVALID);
        return;
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

/* --- responder --- */

static void send_ack(struct gaudi_core *g, unsigned int port,
                     const uint8_t *rx, const uint32_t *rctx, uint32_t psn,
                     uint8_t syndrome, uint32_t msn)
{
    uint8_t f[HDRS + BTH_LEN + AETH_LEN + ICRC_LEN];
    const uint8_t *ip = rx + ETH_HDR;
    size_t off;

    off = put_headers(g, port, f, rx + 6, get32(ip + 16), get32(ip + 12),
                      get16(ip + IP_HDR), BTH_LEN + AETH_LEN + ICRC_LEN);
    put_bth(f + off, OP_ACK, 0, rctx ? bits(rctx, 0, 24) : 0, false, psn);
    off += BTH_LEN;
    f[off] = syndrome;
    f[off + 1] = (uint8_t)(msn >> 16); /* MSN (IBA 9.7.5.1.1) */
    f[off + 2] = (uint8_t)(msn >> 8);
    f[off + 3] = (uint8_t)msn;
    off += AETH_LEN;
    finish(f, off);
    count(g, port, (syndrome & 0xE0) == AETH_NAK ? GAUDI_ROCE_TX_NAKS :
                                                   GAUDI_ROCE_TX_ACKS);
    wire_send(g, port, f, off + ICRC_LEN, false);
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

        s->in_msg = false;
        s->left = 0;
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
 * May the responder QP qpn of generation gen write len bytes at va with
 * R_Key rkey?  0 if so, else the QP error syndrome.  With the region table
 * enabled the key names entry rkey & (entries - 1), which must be valid,
 * allow remote writes, belong to this QP of this generation, carry this
 * very key and hold [va, va + len); without it the key must be the
 * context's local_key (the engine before regions).
 */
static uint32_t region_check(struct gaudi_core *g, unsigned int port,
                             uint32_t qpn, uint8_t gen, const uint32_t *ctx,
                             uint32_t rkey, uint64_t va, uint64_t len)
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
        !(gaudi_le32(w[6]) & MR_W6_REMOTE_WRITE) ||
        (gaudi_le32(w[5]) & MR_W5_QPN) != qpn ||
        gaudi_le32(w[5]) >> MR_W5_GEN_SHIFT != gen ||
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

static void responder(struct gaudi_core *g, unsigned int port,
                      const uint8_t *f, const uint8_t *bth, size_t plen)
{
    uint32_t ctx[GAUDI_NIC_RES_QPC_SIZE / 4];
    const uint8_t *ip = f + ETH_HDR;
    uint8_t op = bth[0];
    unsigned int pad = (bth[1] >> 4) & 3;
    uint32_t qpn = get32(bth + 4) & 0xFFFFFF, psn = get32(bth + 8) & PSN_MASK;
    bool ackreq = bth[8] & 0x80;
    bool reth = op == OP_WRITE_FIRST || op == OP_WRITE_ONLY ||
                op == OP_WRITE_ONLY_IMM;
    bool imm = op == OP_WRITE_ONLY_IMM || op == OP_WRITE_LAST_IMM;
    bool last = op != OP_WRITE_FIRST && op != OP_WRITE_MIDDLE;
    size_t hl = BTH_LEN + (reth ? RETH_LEN : 0) + (imm ? IMM_LEN : 0);
    bool sob;
    struct gaudi_roce_res *s;
    uint32_t expected, payload_len, syn;
    const uint8_t *payload;
    struct qp_ext e;
    uint64_t addr;
    int r;

    if (plen < hl + ICRC_LEN || plen - hl - ICRC_LEN < pad) {
        count(g, port, GAUDI_ROCE_BAD_FRAMES);
        return;
    }
    payload = bth + hl;
    payload_len = (uint32_t)(plen - hl - ICRC_LEN - pad);
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
    if (reth == s->in_msg) {
        /* FIRST/ONLY inside a message, MIDDLE/LAST outside one. */
        res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn, NAK_INVALID_REQ,
                   ROCE_SYN_RES_LENGTH);
        return;
    }
    if (payload_len > e.mtu || (e.valid && !last && payload_len != e.mtu)) {
        res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn, NAK_INVALID_REQ,
                   ROCE_SYN_RES_MTU);
        return;
    }
    if (reth) {
        uint64_t va = (uint64_t)get32(bth + BTH_LEN) << 32 |
                      get32(bth + BTH_LEN + 4);
        uint32_t rkey = get32(bth + BTH_LEN + 8);
        uint32_t dlen = get32(bth + BTH_LEN + 12);

        /* The whole message must lie in the region (none for 0 bytes). */
        syn = dlen ? region_check(g, port, qpn, s->gen, ctx, rkey, va, dlen) :
                     0;
        if (syn) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       NAK_REMOTE_ACCESS, syn);
            return;
        }
        s->va = va;
        s->left = dlen;
        s->rkey = rkey;
        s->in_msg = true;
    }
    if (payload_len > s->left || (last && payload_len != s->left)) {
        res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn, NAK_INVALID_REQ,
                   ROCE_SYN_RES_LENGTH);
        return;
    }
    sob = imm && op == OP_WRITE_ONLY_IMM && !s->left &&
          bits(ctx, RES_QPC_SOB_EN_BIT, 1);
    if (sob) {
        /* The remote sync-object write (the model's wire choice). */
        uint32_t val = get32(bth + BTH_LEN + RETH_LEN);

        if (sob_write(g, port, s->va, val)) {
            res_refuse(g, port, f, qpn, ctx, addr, psn, s->msn,
                       NAK_REMOTE_ACCESS, ROCE_SYN_RES_SOB);
            return;
        }
    } else if (payload_len) {
        /*
         * Every packet again: the region may have ended since the FIRST
         * (nothing moves unless it still holds these bytes).
         */
        syn = region_check(g, port, qpn, s->gen, ctx, s->rkey, s->va,
                           payload_len);
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
    if (imm && !(sob && !payload_len)) {
        cq_write(g, port, qpn & ROCE_CQE_QPN,
                 get32(bth + hl - IMM_LEN) & ~ROCE_CQE_VALID);
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
    case OP_WRITE_FIRST:
    case OP_WRITE_MIDDLE:
    case OP_WRITE_LAST:
    case OP_WRITE_LAST_IMM:
    case OP_WRITE_ONLY:
    case OP_WRITE_ONLY_IMM:
        responder(g, port, f, bth, plen);
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
            struct gaudi_roce_frame *d = &r->defer[r->defer_n++];

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

        memcpy(d, &r->defer[0], sizeof(*d));
        memmove(&r->defer[0], &r->defer[1],
                (r->defer_n - 1) * sizeof(r->defer[0]));
        r->defer_n--;
        receive_one(g, d->port, d->buf, d->len);
    }
    r->depth--;
}

/* --- timers --- */

uint64_t gaudi_roce_next_ns(struct gaudi_core *g)
{
    uint64_t next = UINT64_MAX;
    unsigned int p, i;

    for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
        for (i = 0; i < GAUDI_ROCE_REQ_SLOTS; i++) {
            const struct gaudi_roce_req *q = &g->nic.roce.req[p][i];

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

void gaudi_roce_run(struct gaudi_core *g)
{
    struct gaudi_roce *r = &g->nic.roce;
    uint64_t now = gaudi_now_ns(g), next;
    unsigned int p, i;

    if (r->depth) {
        return;
    }
    r->depth++;
    if (r->held) {
        /* A frame kept back and nothing sent since: let it go now. */
        r->held = false;
        gaudi_nic_xmit(g, r->hold.port, r->hold.buf, r->hold.len);
    }
    for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
        for (i = 0; i < GAUDI_ROCE_REQ_SLOTS; i++) {
            struct gaudi_roce_req *q = &r->req[p][i];
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
                continue;
            }
            if (q->rnr) {
                /* The RNR timer ran out: resend from the NAKed packet. */
                q->rnr = false;
                count(g, p, GAUDI_ROCE_RNR_RETRIES);
                if (!resend(g, p, q)) {
                    req_save(g, p, q, false);
                }
                continue;
            }
            count(g, p, GAUDI_ROCE_TIMEOUTS);
            limit = GAUDI_ROCE_RETRIES;
            if (!req_ctx(g, p, q->qpn, ctx, &addr) &&
                bits(ctx, RQ_TIMEOUT_RETRY, 8)) {
                limit = bits(ctx, RQ_TIMEOUT_RETRY, 8);
            }
            if (++q->retries > limit) {
                req_fail(g, p, q, ROCE_SYN_RETRY_EXCEEDED);
                continue;
            }
            resend(g, p, q);
        }
    }
    r->depth--;
    drain_deferred(g);
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
