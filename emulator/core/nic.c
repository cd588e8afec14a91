// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: the NIC (Documentation/emulator/nic.rst).
 *
 * Five NIC macros of two ports each sit at GAUDI_NIC_MACRO(m) in CFG space
 * (hw/gaudi1/nic.h).  Most of a macro is a plain register file, as
 * elsewhere in the model; what behaves:
 *  - MAC_CORE MAC_REC_STS0 and each lane's PCS status show the link of
 *    the port that owns the lane (gaudi_nic_set_link());
 *  - the STAT block counts each port's frames and octets, 64-bit counters
 *    read low word first (which latches the high word in DATA_HI_REG);
 *  - QPC: the cache invalidation status reads done and idle; the context
 *    gateway does a masked read-modify-write of one QP context in device
 *    memory when GW_BUSY is written 1, leaves the entry in GW_DATA and
 *    clears GW_BUSY;
 *  - a secured (or privileged) doorbell on a raw QP sends: the TXE fetches
 *    the QP's send WQEs from its consumer index (REQ_RING0_CI) up to the
 *    doorbell's PI, reads each LINEAR WQE's frame and hands it to the
 *    backend; an unsecured doorbell on a raw QP fails the security check
 *    (QP error FIFO entry, interrupt 8);
 *  - a doorbell on an RC QP and received UDP 4791 frames go to the RoCE
 *    engine (roce.c), whose counters the port's QPC block shows read-only
 *    from ROCE_CNT_LO(0) (a model choice);
 *  - gaudi_nic_receive() writes a frame into the next slot of the port's
 *    raw receive ring, advances RES_RING0_PI and raises interrupt 4.
 * A QPC interrupt sets its CAUSE bit; if the bit was clear and MASK enables
 * it, the port writes INTERRUPT_DATA_n to INTERRUPT_BASE_n (an MSI request
 * register) when its MSI enable is set, or counts a wire interrupt, which
 * the device CPU converts (for QP errors the model posts the NIC QP event
 * in the device CPU's place).  Even ports only: odd ports cannot raise the
 * receive MSI (a hardware bug the public driver works around).
 *
 * The NIC's own accesses to device and host memory (context tables, send
 * queue, frames, receive ring, error FIFO) are issued as trusted accesses
 * of port p (initiator GAUDI_INIT_NIC, MMU bypass): the driver programs
 * them with physical device addresses, host memory through the host window.
 * Guest mistakes (a bad address, size or opcode) are logged and dropped.
 */
#include <string.h>

#include "gaudi_int.h"

#define MACRO_END (GAUDI_NIC_MACRO_BASE + \
                   GAUDI_NIC_NUM_MACROS * GAUDI_NIC_MACRO_STRIDE)
#define SLOT_MASK (GAUDI_NIC_RAW_RING_SLOTS - 1)
#define QPC_MAX_WORDS (GAUDI_NIC_REQ_QPC_SIZE / 4)
/* LOG_MAX_WQ_SIZE beyond this is taken as a guest error (1M WQEs). */
#define LOG_WQ_MAX 18

static uint32_t macro_base(unsigned int m)
{
    return GAUDI_NIC_MACRO(m);
}

/* The port blocks' registers (hw/gaudi1/nic.h). */
#define qpc_reg GAUDI_NIC_QPC_REG
#define rxe_reg GAUDI_NIC_RXE_REG
#define txe_reg GAUDI_NIC_TXE_REG

static void nic_init_of(unsigned int port, struct gaudi_init *in)
{
    memset(in, 0, sizeof(*in));
    in->kind = GAUDI_INIT_NIC;
    in->index = port;
    in->secure = true;
    in->props = GAUDI_PROPS_MMBP;
}

static int nic_read(struct gaudi_core *g, unsigned int port, uint64_t addr,
                    void *buf, uint64_t len)
{
    struct gaudi_init in;

    nic_init_of(port, &in);
    return gaudi_eng_read(g, &in, addr, buf, len);
}

static int nic_write(struct gaudi_core *g, unsigned int port, uint64_t addr,
                     const void *buf, uint64_t len)
{
    struct gaudi_init in;

    nic_init_of(port, &in);
    return gaudi_eng_write(g, &in, addr, buf, len);
}

/* Bits [bit, bit + width) of a context read as little-endian words. */
static uint32_t qpc_bits(const uint32_t *w, unsigned int bit,
                         unsigned int width)
{
    uint64_t v = gaudi_le32(w[bit / 32]);

    if (bit % 32 + width > 32) {
        v |= (uint64_t)gaudi_le32(w[bit / 32 + 1]) << 32;
    }
    return (uint32_t)(v >> (bit % 32)) & (uint32_t)((1ULL << width) - 1);
}

/* --- statistics --- */

uint64_t gaudi_nic_counter(struct gaudi_core *g, unsigned int port,
                           enum gaudi_nic_cnt c)
{
    if (port >= GAUDI_NIC_NUM_PORTS || c >= GAUDI_NIC_CNT_NUM) {
        return 0;
    }
    return g->nic.port[port].cnt[c];
}

static void count_frame(struct gaudi_nic_port_state *ps, bool rx,
                        const uint8_t *frame, size_t len)
{
    static const uint8_t bcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
    enum gaudi_nic_cnt kind;

    if (!memcmp(frame, bcast, sizeof(bcast))) {
        kind = rx ? GAUDI_NIC_RX_BCAST : GAUDI_NIC_TX_BCAST;
    } else if (frame[0] & 1) {
        kind = rx ? GAUDI_NIC_RX_MCAST : GAUDI_NIC_TX_MCAST;
    } else {
        kind = rx ? GAUDI_NIC_RX_UCAST : GAUDI_NIC_TX_UCAST;
    }
    ps->cnt[kind]++;
    ps->cnt[rx ? GAUDI_NIC_RX_FRAMES : GAUDI_NIC_TX_FRAMES]++;
    ps->cnt[rx ? GAUDI_NIC_RX_OCTETS : GAUDI_NIC_TX_OCTETS] += len;
}

/* The counter (if any) shown at offset rel of a macro's STAT block. */
static bool stat_counter(unsigned int m, uint32_t rel, unsigned int *port,
                         enum gaudi_nic_cnt *c)
{
    static const struct {
        uint16_t off;
        uint8_t cnt;
    } rx[] = {
        { STAT_RX_ETHERSTATSOCTETS, GAUDI_NIC_RX_OCTETS },
        { STAT_RX_OCTETSRECEIVEDOK, GAUDI_NIC_RX_OCTETS },
        { STAT_RX_AFRAMETOOLONGERRORS, GAUDI_NIC_RX_TOOLONG },
        { STAT_RX_AFRAMESRECEIVEDOK, GAUDI_NIC_RX_FRAMES },
        { STAT_RX_IFINUCASTPKTS, GAUDI_NIC_RX_UCAST },
        { STAT_RX_IFINMULTICASTPKTS, GAUDI_NIC_RX_MCAST },
        { STAT_RX_IFINBROADCASTPKTS, GAUDI_NIC_RX_BCAST },
        { STAT_RX_ETHERSTATSDROPEVENTS, GAUDI_NIC_RX_DROPS },
        { STAT_RX_ETHERSTATSPKTS, GAUDI_NIC_RX_FRAMES },
    }, tx[] = {
        { STAT_TX_ETHERSTATSOCTETS, GAUDI_NIC_TX_OCTETS },
        { STAT_TX_OCTETSTRANSMITTEDOK, GAUDI_NIC_TX_OCTETS },
        { STAT_TX_AFRAMESTRANSMITTEDOK, GAUDI_NIC_TX_FRAMES },
        { STAT_TX_IFOUTERRORS, GAUDI_NIC_TX_ERRORS },
        { STAT_TX_IFOUTUCASTPKTS, GAUDI_NIC_TX_UCAST },
        { STAT_TX_IFOUTMULTICASTPKTS, GAUDI_NIC_TX_MCAST },
        { STAT_TX_IFOUTBROADCASTPKTS, GAUDI_NIC_TX_BCAST },
        { STAT_TX_ETHERSTATSPKTS, GAUDI_NIC_TX_FRAMES },
    };
    static const uint32_t base[4] = {
        NIC_STAT_RX0, NIC_STAT_RX1, NIC_STAT_TX0, NIC_STAT_TX1,
    };
    unsigned int b, i;

    for (b = 0; b < 4; b++) {
        bool is_rx = b < 2;
        unsigned int n = is_rx ? GAUDI_ARRAY_SIZE(rx) : GAUDI_ARRAY_SIZE(tx);

        for (i = 0; i < n; i++) {
            if (rel == base[b] + (is_rx ? rx[i].off : tx[i].off)) {
                *port = 2 * m + (b & 1);
                *c = (enum gaudi_nic_cnt)(is_rx ? rx[i].cnt : tx[i].cnt);
                return true;
            }
        }
    }
    return false;
}

/* Whether @r (QPC block-relative) is in the RoCE counter window. */
static bool roce_cnt_reg(uint32_t r)
{
    return r >= NIC_QPC_ROCE_CNT_BASE &&
           r < NIC_QPC_ROCE_CNT_LO(NIC_QPC_ROCE_CNT_SLOTS);
}

/*
 * A read of the RoCE counter window of @port: a low word latches the
 * counter's high word, which every HI register of the port returns.
 */
static uint32_t roce_cnt_read(struct gaudi_core *g, unsigned int port,
                              uint32_t r)
{
    uint32_t i = (r - NIC_QPC_ROCE_CNT_BASE) / 8;
    uint64_t v;

    if (r & 4) {
        return g->nic.roce.cnt_hi[port];
    }
    v = i < GAUDI_ROCE_CNT_NUM ? g->nic.roce.cnt[port][i] : 0;
    g->nic.roce.cnt_hi[port] = (uint32_t)(v >> 32);
    return (uint32_t)v;
}

/* --- interrupts and QP errors --- */

/* The MSI write of interrupt n: INTERRUPT_DATA_n to INTERRUPT_BASE_n. */
static void msi_write(struct gaudi_core *g, unsigned int port, unsigned int n)
{
    uint32_t addr = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_INTERRUPT_BASE(n)));
    uint32_t data = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_INTERRUPT_DATA(n)));

    /* A CFG offset, or its 32-bit LBW form 0xFCxx_xxxx. */
    if (addr >= GAUDI_ELBI_CFG_BASE32) {
        addr -= GAUDI_ELBI_CFG_BASE32;
    }
    if (addr >= GAUDI_CFG_REGS_SIZE || (addr & 3)) {
        gaudi_guest_error(g, "NIC%u: interrupt %u MSI address 0x%x is not "
                          "a register", port, n, addr);
        return;
    }
    gaudi_cfg_write(g, addr, data);
}

/* A write of the NIC's interrupt logic to a register (CFG or LBW form). */
void gaudi_nic_lbw_signal(struct gaudi_core *g, unsigned int port,
                          uint32_t addr, uint32_t data)
{
    if (addr >= GAUDI_ELBI_CFG_BASE32) {
        addr -= GAUDI_ELBI_CFG_BASE32;
    }
    if (addr >= GAUDI_CFG_REGS_SIZE || (addr & 3)) {
        gaudi_guest_error(g, "NIC%u: interrupt address 0x%x is not a "
                          "register", port, addr);
        return;
    }
    gaudi_cfg_write(g, addr, data);
}

static void raise_irq(struct gaudi_core *g, unsigned int port, unsigned int n)
{
    uint32_t cause_reg = qpc_reg(port, NIC_QPC_INTERRUPT_CAUSE);
    uint32_t cause = gaudi_reg_get(g, cause_reg);
    uint32_t en = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_INTERRUPT_EN));
    uint32_t bit = 1U << n;

    gaudi_reg_set(g, cause_reg, cause | bit);
    if ((cause & bit) ||
        !(gaudi_reg_get(g, qpc_reg(port, NIC_QPC_INTERRUPT_MASK)) & bit)) {
        return; /* not re-armed (INTERRUPT_CLR) or not enabled */
    }
    if ((en & QPC_INTERRUPT_EN_MSI(n)) && !(port & 1)) {
        msi_write(g, port, n);
    }
    if (en & QPC_INTERRUPT_EN_WIRE(n)) {
        g->nic.port[port].wire_irqs++;
        if (n == QPC_INTERRUPT_RX) {
            gaudi_cpu_forward_nic_irq(g, port);
        }
        if (n == QPC_INTERRUPT_QP_ERR) {
            uint64_t payload = port;

            gaudi_eq_event(g, GAUDI_EVENT_NIC0_QP0 + port, &payload,
                           sizeof(payload));
        }
    }
}

/* Push a QP error to the port's error FIFO. */
void gaudi_nic_qp_error(struct gaudi_core *g, unsigned int port,
                        uint32_t qpn, uint32_t syndrome, bool requester)
{
    uint64_t base =
        ((uint64_t)gaudi_reg_get(g, qpc_reg(port,
                                 NIC_QPC_ERR_FIFO_BASE_ADDR_49_18)) << 18) |
        (gaudi_reg_get(g, qpc_reg(port, NIC_QPC_ERR_FIFO_BASE_ADDR_17_7)) &
         0x3FF80U);
    uint32_t mask = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_ERR_FIFO_MASK));
    uint32_t pi_reg = qpc_reg(port, NIC_QPC_ERR_FIFO_PRODUCER_INDEX);
    uint32_t pi = gaudi_reg_get(g, pi_reg);
    uint32_t entry = gaudi_le32((qpn & QP_ERR_QPN) |
                                ((syndrome << 24) & QP_ERR_SYNDROME) |
                                (requester ? QP_ERR_REQUESTER : 0));

    g->nic.qp_errors++;
    if (!base) {
        gaudi_guest_error(g, "NIC%u: QP %u error 0x%x, no error FIFO", port,
                          qpn, syndrome);
    } else if (nic_write(g, port, base + 4ULL * (pi & mask), &entry,
                         sizeof(entry))) {
        gaudi_guest_error(g, "NIC%u: QP error FIFO at 0x%llx unwritable",
                          port, (unsigned long long)base);
    } else {
        gaudi_reg_set(g, pi_reg, pi + 1);
        gaudi_reg_set(g, qpc_reg(port, NIC_QPC_ERR_FIFO_WRITE_INDEX),
                      (pi + 1) & mask);
    }
    raise_irq(g, port, QPC_INTERRUPT_QP_ERR);
}

static void qp_error(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                     uint32_t syndrome)
{
    gaudi_nic_qp_error(g, port, qpn, syndrome, true);
}

/* --- QP contexts --- */

static uint64_t qpc_table(struct gaudi_core *g, unsigned int port, bool req)
{
    uint32_t hi = req ? NIC_QPC_REQ_BASE_ADDRESS_49_18 :
                        NIC_QPC_RES_BASE_ADDRESS_49_18;
    uint32_t lo = req ? NIC_QPC_REQ_BASE_ADDRESS_17_7 :
                        NIC_QPC_RES_BASE_ADDRESS_17_7;

    return ((uint64_t)gaudi_reg_get(g, qpc_reg(port, hi)) << 18) |
           ((uint64_t)(gaudi_reg_get(g, qpc_reg(port, lo)) & 0x7FFU) << 7);
}

static int qpc_load(struct gaudi_core *g, unsigned int port, bool req,
                    uint32_t qpn, uint32_t *w, uint64_t *addr)
{
    uint32_t size = req ? GAUDI_NIC_REQ_QPC_SIZE : GAUDI_NIC_RES_QPC_SIZE;

    /*
     * The engine serves QPNs below GAUDI_ROCE_MAX_QPN (a model choice,
     * Documentation/emulator/nic.rst): a larger one, which a doorbell or
     * a frame may name, is refused before any context access, so the
     * tables the driver sizes for them bound what the engine reads.
     */
    *addr = 0;
    if (qpn >= GAUDI_ROCE_MAX_QPN) {
        gaudi_guest_error(g, "NIC%u: QP %u beyond the %u the engine serves",
                          port, qpn, GAUDI_ROCE_MAX_QPN);
        return -1;
    }
    *addr = qpc_table(g, port, req) + (uint64_t)qpn * size;
    if (nic_read(g, port, *addr, w, size)) {
        gaudi_guest_error(g, "NIC%u: %s context of QP %u at 0x%llx "
                          "unreadable", port, req ? "requester" : "responder",
                          qpn, (unsigned long long)*addr);
        return -1;
    }
    return 0;
}

int gaudi_nic_qpc_load(struct gaudi_core *g, unsigned int port, bool req,
                       uint32_t qpn, uint32_t *w, uint64_t *addr)
{
    return qpc_load(g, port, req, qpn, w, addr);
}

void gaudi_nic_qpc_store(struct gaudi_core *g, unsigned int port, bool req,
                         uint64_t addr, const uint32_t *w)
{
    if (nic_write(g, port, addr, w, req ? GAUDI_NIC_REQ_QPC_SIZE :
                                         GAUDI_NIC_RES_QPC_SIZE)) {
        gaudi_guest_error(g, "NIC%u: context at 0x%llx unwritable", port,
                          (unsigned long long)addr);
    }
}

/*
 * The QP extension and memory-region tables (hw/gaudi1/nic.h, a model
 * choice): entry idx of table t, 32 bytes; -1 if idx is beyond it.
 */
static int tbl_entry(struct gaudi_core *g, unsigned int port, unsigned int t,
                     uint32_t idx, uint64_t *addr)
{
    uint32_t hi, lo, n;

    if (t == QPC_GW_TABLE_EXT) {
        hi = NIC_QPC_EXT_BASE_ADDRESS_49_18;
        lo = NIC_QPC_EXT_BASE_ADDRESS_17_7;
        n = GAUDI_ROCE_MAX_QPN;
    } else if (t == QPC_GW_TABLE_MR) {
        uint32_t log = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_MR_CFG)) &
                       MR_CFG_LOG_ENTRIES;

        hi = NIC_QPC_MR_BASE_ADDRESS_49_18;
        lo = NIC_QPC_MR_BASE_ADDRESS_17_7;
        n = 1U << (log > MR_CFG_MAX_LOG_ENTRIES ? MR_CFG_MAX_LOG_ENTRIES : log);
    } else if (t == QPC_GW_TABLE_CQ) {
        uint32_t log = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_CQT_CFG)) &
                       CQT_CFG_LOG_ENTRIES;

        hi = NIC_QPC_CQT_BASE_ADDRESS_49_18;
        lo = NIC_QPC_CQT_BASE_ADDRESS_17_7;
        n = 1U << (log > CQT_CFG_MAX_LOG_ENTRIES ? CQT_CFG_MAX_LOG_ENTRIES :
                   log);
    } else {
        return -1;
    }
    if (idx >= n) {
        return -1;
    }
    *addr = ((uint64_t)gaudi_reg_get(g, qpc_reg(port, hi)) << 18) |
            ((uint64_t)(gaudi_reg_get(g, qpc_reg(port, lo)) & 0x7FFU) << 7);
    *addr += (uint64_t)idx * GAUDI_NIC_MR_SIZE;
    return 0;
}

static int tbl_load(struct gaudi_core *g, unsigned int port, unsigned int t,
                    uint32_t idx, uint32_t *w, uint64_t *addr)
{
    if (tbl_entry(g, port, t, idx, addr)) {
        return -1;
    }
    if (nic_read(g, port, *addr, w, GAUDI_NIC_MR_SIZE)) {
        gaudi_guest_error(g, "NIC%u: table %u entry %u at 0x%llx unreadable",
                          port, t, idx, (unsigned long long)*addr);
        return -1;
    }
    return 0;
}

int gaudi_nic_ext_load(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                       uint32_t *w)
{
    uint64_t addr;

    return tbl_load(g, port, QPC_GW_TABLE_EXT, qpn, w, &addr);
}

int gaudi_nic_mr_load(struct gaudi_core *g, unsigned int port, uint32_t idx,
                      uint32_t *w)
{
    uint64_t addr;

    return tbl_load(g, port, QPC_GW_TABLE_MR, idx, w, &addr);
}

int gaudi_nic_tbl_load(struct gaudi_core *g, unsigned int port,
                       unsigned int t, uint32_t idx, uint32_t *w,
                       uint64_t *addr)
{
    return tbl_load(g, port, t, idx, w, addr);
}

void gaudi_nic_tbl_store(struct gaudi_core *g, unsigned int port,
                         uint64_t addr, const uint32_t *w)
{
    if (nic_write(g, port, addr, w, GAUDI_NIC_MR_SIZE)) {
        gaudi_guest_error(g, "NIC%u: table entry at 0x%llx unwritable", port,
                          (unsigned long long)addr);
    }
}

/*
 * Post CQ cq's event to the port's CQ event queue (hw/gaudi1/nic.h, a
 * model choice) and raise the RXE's event MSI.  False if it was lost.
 */
bool gaudi_nic_cq_event(struct gaudi_core *g, unsigned int port,
                        uint32_t cq, bool overflow)
{
    uint64_t base =
        ((uint64_t)gaudi_reg_get(g, qpc_reg(port, NIC_QPC_CQ_EQ_BASE_49_18))
         << 18) |
        ((uint64_t)(gaudi_reg_get(g, qpc_reg(port, NIC_QPC_CQ_EQ_BASE_17_7)) &
                    0x7FFU) << 7);
    uint32_t mask = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_CQ_EQ_MASK));
    uint32_t pi_reg = qpc_reg(port, NIC_QPC_CQ_EQ_PI);
    uint32_t pi = gaudi_reg_get(g, pi_reg);
    uint32_t ci = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_CQ_EQ_CI));
    uint32_t entry = gaudi_le32((cq & CQ_EQ_CQ) | CQ_EQ_VALID |
                                (overflow ? CQ_EQ_OVERFLOW : 0));
    uint32_t cfg = gaudi_reg_get(g, rxe_reg(port, NIC_RXE_CQ_CFG0));

    if (!base || pi - ci > mask) {
        return false;
    }
    if (nic_write(g, port, base + 4ULL * (pi & mask), &entry,
                  sizeof(entry))) {
        gaudi_guest_error(g, "NIC%u: CQ event queue at 0x%llx unwritable",
                          port, (unsigned long long)base);
        return false;
    }
    gaudi_reg_set(g, pi_reg, pi + 1);
    if (cfg & ROCE_CQ_CFG0_EQ_INT_EN) {
        uint32_t cause_reg = rxe_reg(port, NIC_RXE_MSI_CAUSE);
        uint32_t cause = gaudi_reg_get(g, cause_reg);

        if (!(cause & ROCE_MSI_CAUSE_EQ)) {
            /* One write until CQ_MSI_CAUSE_CLR re-arms it. */
            gaudi_reg_set(g, cause_reg, cause | ROCE_MSI_CAUSE_EQ);
            gaudi_nic_lbw_signal(g, port,
                                 gaudi_reg_get(g, rxe_reg(port,
                                               NIC_RXE_CQ_MSI_ADDR(1))),
                                 gaudi_reg_get(g, rxe_reg(port,
                                               NIC_RXE_CQ_MSI_DATA(1))));
        }
    }
    return true;
}

/*
 * GW_BUSY written 1: the masked read-modify-write of one entry of the
 * table GW_CTRL selects (a context, a QP extension or a region).  Writing
 * a context or an extension ends the engine state of that QP.
 */
static void gateway(struct gaudi_core *g, unsigned int port)
{
    uint32_t ctrl = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_GW_CTRL));
    unsigned int t = (ctrl & QPC_GW_CTRL_TABLE) >> QPC_GW_CTRL_TABLE_SHIFT;
    bool req = ctrl & QPC_GW_CTRL_REQUESTER;
    uint32_t qpn = ctrl & QPC_GW_CTRL_QPN;
    unsigned int words = (t != QPC_GW_TABLE_QPC ? GAUDI_NIC_MR_SIZE :
                          req ? GAUDI_NIC_REQ_QPC_SIZE :
                                GAUDI_NIC_RES_QPC_SIZE) / 4;
    uint32_t w[QPC_MAX_WORDS];
    bool modify = false;
    uint64_t addr;
    unsigned int i;
    int r;

    g->nic.gw_ops++;
    r = t == QPC_GW_TABLE_QPC ? qpc_load(g, port, req, qpn, w, &addr) :
                                tbl_load(g, port, t, qpn, w, &addr);
    if (!r) {
        for (i = 0; i < words; i++) {
            uint32_t m = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_GW_MASK(i)));
            uint32_t d = gaudi_reg_get(g, qpc_reg(port, NIC_QPC_GW_DATA(i)));
            uint32_t v = gaudi_le32(w[i]);

            if (m) {
                modify = true;
                w[i] = gaudi_le32((v & ~m) | (d & m));
            }
        }
        if (modify && nic_write(g, port, addr, w, 4ULL * words)) {
            gaudi_guest_error(g, "NIC%u: table %u entry %u at 0x%llx "
                              "unwritable", port, t, qpn,
                              (unsigned long long)addr);
        }
        for (i = 0; i < words; i++) {
            gaudi_reg_set(g, qpc_reg(port, NIC_QPC_GW_DATA(i)),
                          gaudi_le32(w[i]));
        }
        if (modify && t == QPC_GW_TABLE_QPC) {
            gaudi_roce_qp_written(g, port, qpn, req, !req);
        } else if (modify && t == QPC_GW_TABLE_EXT) {
            gaudi_roce_qp_written(g, port, qpn, true, true);
        }
    } else if (t != QPC_GW_TABLE_QPC) {
        for (i = 0; i < words; i++) {
            gaudi_reg_set(g, qpc_reg(port, NIC_QPC_GW_DATA(i)), 0);
        }
    }
    gaudi_reg_set(g, qpc_reg(port, NIC_QPC_GW_BUSY), 0);
}

/* --- send --- */

/* Execute one send WQE of a raw QP. */
static void send_wqe(struct gaudi_core *g, unsigned int port, uint64_t at,
                     const uint32_t *wqe)
{
    struct gaudi_nic_port_state *ps = &g->nic.port[port];
    uint8_t *frame = g->nic.frame;
    uint32_t w0 = gaudi_le32(wqe[0]), w2 = gaudi_le32(wqe[2]);
    uint32_t opcode = (w0 & NIC_WQE_OPCODE) >> NIC_WQE_OPCODE_SHIFT;
    uint64_t addr = gaudi_le32(wqe[1]) |
                    ((uint64_t)(w2 & NIC_WQE_LOCAL_ADDR_HI) << 32);
    uint32_t size = (w2 & NIC_WQE_SIZE) >> NIC_WQE_SIZE_SHIFT;

    g->nic.tx_wqes++;
    if (opcode == WQE_NOP) {
        return;
    }
    if (opcode != WQE_LINEAR) {
        gaudi_guest_error(g, "NIC%u: WQE at 0x%llx: opcode %u on a raw QP",
                          port, (unsigned long long)at, opcode);
        ps->cnt[GAUDI_NIC_TX_ERRORS]++;
        return;
    }
    if (size < GAUDI_NIC_MIN_FRAME) {
        gaudi_guest_error(g, "NIC%u: WQE at 0x%llx: %u-byte frame", port,
                          (unsigned long long)at, size);
        ps->cnt[GAUDI_NIC_TX_ERRORS]++;
        return;
    }
    if (nic_read(g, port, addr, frame, size)) {
        gaudi_guest_error(g, "NIC%u: WQE at 0x%llx: frame at 0x%llx "
                          "unreadable", port, (unsigned long long)at,
                          (unsigned long long)addr);
        ps->cnt[GAUDI_NIC_TX_ERRORS]++;
        return;
    }
    gaudi_nic_xmit(g, port, frame, size);
}

bool gaudi_nic_xmit(struct gaudi_core *g, unsigned int port,
                    const void *frame, size_t len)
{
    struct gaudi_nic_port_state *ps = &g->nic.port[port];

    if (!ps->link) {
        ps->cnt[GAUDI_NIC_TX_ERRORS]++; /* the MAC drops it */
        return false;
    }
    count_frame(ps, false, frame, len);
    if (g->nic.be.send) {
        g->nic.be.send(g->nic.be.opaque, port, frame, len);
    }
    return true;
}

/*
 * A doorbell for QP qpn with producer index pi: run the raw QP's send
 * queue from REQ_RING0_CI up to pi.
 */
static void doorbell(struct gaudi_core *g, unsigned int port, uint32_t qpn,
                     uint32_t pi, bool secured)
{
    uint32_t w[QPC_MAX_WORDS], wqe[GAUDI_NIC_SEND_WQE_SIZE / 4];
    uint32_t wqb, sel, idx, log, entries, ci, n;
    uint32_t ci_reg = qpc_reg(port, NIC_QPC_REQ_RING0_CI);
    uint64_t addr, sq;

    if (qpc_load(g, port, true, qpn, w, &addr)) {
        return;
    }
    if (!qpc_bits(w, REQ_QPC_VALID_BIT, 1)) {
        gaudi_guest_error(g, "NIC%u: doorbell on invalid QP %u", port, qpn);
        qp_error(g, port, qpn, QP_ERR_SYNDROME_DB_INVALID_QP);
        return;
    }
    if (qpc_bits(w, REQ_QPC_TRANSPORT_BIT, 1) != QPC_TRANSPORT_RAW) {
        gaudi_roce_doorbell(g, port, qpn, pi); /* any doorbell may */
        return;
    }
    if (!secured) {
        gaudi_guest_error(g, "NIC%u: unsecured doorbell on raw QP %u", port,
                          qpn);
        qp_error(g, port, qpn, QP_ERR_SYNDROME_DB_SECURITY);
        return;
    }
    wqb = qpc_bits(w, REQ_QPC_WQ_BASE_ADDR_BIT, 24);
    sel = gaudi_reg_get(g, txe_reg(port, NIC_TXE_SQ_BASE_ADDRESS_SEL)) & 31;
    idx = (wqb >> sel) & (GAUDI_NIC_SQ_BASES - 1);
    log = gaudi_reg_get(g, txe_reg(port, NIC_TXE_LOG_MAX_WQ_SIZE(idx)));
    if (log > LOG_WQ_MAX) {
        gaudi_guest_error(g, "NIC%u: LOG_MAX_WQ_SIZE_%u %u too large", port,
                          idx, log);
        return;
    }
    entries = 4U << log;
    sq = ((uint64_t)(gaudi_reg_get(g, txe_reg(port,
                     NIC_TXE_SQ_BASE_ADDRESS_49_32(idx))) & 0x3FFFFF) << 32) |
         gaudi_reg_get(g, txe_reg(port, NIC_TXE_SQ_BASE_ADDRESS_31_0(idx)));
    sq += (uint64_t)wqb * ((uint64_t)GAUDI_NIC_CACHE_LINE << log);
    if (pi >= entries) {
        gaudi_guest_error(g, "NIC%u: doorbell PI %u beyond the %u WQEs of "
                          "QP %u", port, pi, entries, qpn);
        return;
    }
    ci = gaudi_reg_get(g, ci_reg) & (entries - 1);
    for (n = 0; ci != pi && n < entries; n++) {
        uint64_t at = sq + (uint64_t)ci * GAUDI_NIC_SEND_WQE_SIZE;

        if (nic_read(g, port, at, wqe, sizeof(wqe))) {
            gaudi_guest_error(g, "NIC%u: WQE %u of QP %u at 0x%llx "
                              "unreadable", port, ci, qpn,
                              (unsigned long long)at);
            g->nic.port[port].cnt[GAUDI_NIC_TX_ERRORS]++;
            return; /* the queue stops at the bad WQE */
        }
        send_wqe(g, port, at, wqe);
        ci = (ci + 1) & (entries - 1);
        gaudi_reg_set(g, ci_reg, ci);
    }
}

/* --- receive --- */

/* Ring of port p: base address and slot size; false if not usable. */
static bool rx_ring(struct gaudi_core *g, unsigned int p, uint64_t *base,
                    uint32_t *slot)
{
    uint32_t lo = gaudi_reg_get(g, rxe_reg(p, NIC_RXE_RAW_BASE_LO_P0));
    uint32_t hi = gaudi_reg_get(g, rxe_reg(p, NIC_RXE_RAW_BASE_HI_P0));
    uint32_t log = (hi & RAW_BASE_HI_LOG_ENTRY) >> RAW_BASE_HI_LOG_ENTRY_SHIFT;

    *base = ((uint64_t)(hi & RAW_BASE_HI_ADDR) << 32) | lo;
    *slot = 1U << log;
    return *base && log >= 7;
}

static bool ring_full(struct gaudi_core *g, unsigned int p)
{
    uint32_t pi = gaudi_reg_get(g, qpc_reg(p, NIC_QPC_RES_RING0_PI));
    uint32_t ci = gaudi_reg_get(g, qpc_reg(p, NIC_QPC_RES_RING0_CI));

    return ((pi + 1) & SLOT_MASK) == (ci & SLOT_MASK);
}

bool gaudi_nic_can_receive(struct gaudi_core *g, unsigned int port)
{
    uint64_t base;
    uint32_t slot;

    return port < GAUDI_NIC_NUM_PORTS && g->nic.port[port].link &&
           rx_ring(g, port, &base, &slot) && !ring_full(g, port);
}

bool gaudi_nic_rx_full(struct gaudi_core *g, unsigned int port)
{
    uint64_t base;
    uint32_t slot;

    return port < GAUDI_NIC_NUM_PORTS && g->nic.port[port].link &&
           rx_ring(g, port, &base, &slot) && ring_full(g, port);
}

bool gaudi_nic_receive(struct gaudi_core *g, unsigned int port,
                       const void *frame, size_t len)
{
    struct gaudi_nic_port_state *ps;
    uint32_t pi_reg, pi, slot, lenw;
    uint64_t base;

    if (port >= GAUDI_NIC_NUM_PORTS || !frame) {
        gaudi_log(g, GAUDI_LOG_UNIMP, "NIC: frame for port %u dropped", port);
        return false;
    }
    ps = &g->nic.port[port];
    if (!ps->link) {
        return false; /* nothing arrives on a port without link */
    }
    if (len < GAUDI_NIC_MIN_FRAME) {
        ps->cnt[GAUDI_NIC_RX_DROPS]++;
        return false;
    }
    /* UDP 4791 goes to the RoCE engine (roce.c), not to the ring. */
    if (gaudi_roce_receive(g, port, frame, len)) {
        count_frame(ps, true, frame, len);
        return true;
    }
    if (!rx_ring(g, port, &base, &slot)) {
        ps->cnt[GAUDI_NIC_RX_DROPS]++;
        return false;
    }
    if (len > slot - GAUDI_NIC_RAW_LEN_WORD) {
        ps->cnt[GAUDI_NIC_RX_TOOLONG]++;
        return false;
    }
    if (ring_full(g, port)) {
        ps->cnt[GAUDI_NIC_RX_DROPS]++;
        return false;
    }
    pi_reg = qpc_reg(port, NIC_QPC_RES_RING0_PI);
    pi = gaudi_reg_get(g, pi_reg) & SLOT_MASK;
    /* The frame, then its length in the slot's last word (nic.rst). */
    lenw = gaudi_le32(RAW_LEN_VALID | ((uint32_t)len & RAW_LEN_BYTES));
    if (nic_write(g, port, base + (uint64_t)pi * slot, frame, len) ||
        nic_write(g, port, base + (uint64_t)pi * slot + slot -
                  GAUDI_NIC_RAW_LEN_WORD, &lenw, sizeof(lenw))) {
        gaudi_guest_error(g, "NIC%u: receive slot %u at 0x%llx unwritable",
                          port, pi,
                          (unsigned long long)(base + (uint64_t)pi * slot));
        ps->cnt[GAUDI_NIC_RX_DROPS]++;
        return false;
    }
    gaudi_reg_set(g, pi_reg, (pi + 1) & SLOT_MASK);
    count_frame(ps, true, frame, len);
    raise_irq(g, port, QPC_INTERRUPT_RX);
    return true;
}

/* --- registers --- */

/* Which port's lane l of macro m is: lanes 0-1 even, 2-3 odd. */
static bool lane_link(struct gaudi_core *g, unsigned int m, unsigned int l)
{
    return g->nic.port[2 * m + (l >= 2)].link;
}

static uint32_t nic_read_reg(struct gaudi_core *g, uint32_t off)
{
    uint32_t rel = off - GAUDI_NIC_MACRO_BASE;
    unsigned int m = rel / GAUDI_NIC_MACRO_STRIDE;
    uint32_t moff = rel % GAUDI_NIC_MACRO_STRIDE;
    uint32_t v = gaudi_reg_get(g, off);
    enum gaudi_nic_cnt c;
    unsigned int p, l;

    if (moff == NIC_MAC_CORE_OFFSET + NIC_MAC_CORE_MAC_REC_STS0) {
        v &= ~MAC_REC_STS0_LINK;
        for (l = 0; l < GAUDI_NIC_MAC_LANES; l++) {
            if (lane_link(g, m, l)) {
                v |= 1U << (MAC_REC_STS0_LINK_SHIFT + l);
            }
        }
        return v;
    }
    if (moff < NIC_STAT_OFFSET &&
        moff % 0x1000 == NIC_MAC_CH_PCS_STATUS) {
        l = moff / 0x1000;
        return lane_link(g, m, l) ? v | MAC_CH_PCS_STATUS_LINK :
                                    v & ~MAC_CH_PCS_STATUS_LINK;
    }
    if (moff == NIC_STAT_OFFSET + NIC_STAT_DATA_HI_REG) {
        return g->nic.stat_hi[m];
    }
    if (moff > NIC_STAT_OFFSET && moff < NIC_STAT_OFFSET + 0x1000 &&
        stat_counter(m, moff - NIC_STAT_OFFSET, &p, &c)) {
        uint64_t cnt = g->nic.port[p].cnt[c];

        g->nic.stat_hi[m] = (uint32_t)(cnt >> 32);
        return (uint32_t)cnt;
    }
    if (moff >= NIC_DB_PAGE_OFFSET &&
        moff < NIC_DB_PAGE_OFFSET + 2 * NIC_DB_PAGE_SIZE) {
        return 0; /* the doorbell page is write-only */
    }
    if (moff >= NIC_QPC_OFFSET && moff < NIC_QPC_OFFSET + 0x2000) {
        if (roce_cnt_reg(moff % 0x1000)) {
            return roce_cnt_read(g, 2 * m + (moff - NIC_QPC_OFFSET) / 0x1000,
                                 moff % 0x1000);
        }
        switch (moff % 0x1000) {
        case NIC_QPC_REQ_QPC_CACHE_INV_STATUS:
        case NIC_QPC_RES_QPC_CACHE_INV_STATUS:
            return QPC_CACHE_INV_STATUS_DONE | QPC_CACHE_INV_STATUS_IDLE;
        }
    }
    return v;
}

static void qpc_write(struct gaudi_core *g, unsigned int port, uint32_t r,
                      uint32_t off, uint32_t val)
{
    bool full;

    if (roce_cnt_reg(r)) {
        return; /* the RoCE counters are read-only */
    }
    switch (r) {
    case NIC_QPC_GW_BUSY:
        gaudi_reg_set(g, off, val & 1);
        if (val & 1) {
            gateway(g, port);
        }
        return;
    case NIC_QPC_SECURED_DOORBELL_QPN:
    case NIC_QPC_PRIVILEGE_DOORBELL_QPN:
    case NIC_QPC_UNSECURED_DOORBELL_QPN:
        /* BUSY reads back clear: the doorbell is taken at once. */
        gaudi_reg_set(g, off, val & QPC_DOORBELL_QPN);
        if (val & QPC_DOORBELL_BUSY) {
            uint32_t pi = gaudi_reg_get(g, off + 4) & QPC_DOORBELL_PI;

            doorbell(g, port, val & QPC_DOORBELL_QPN, pi,
                     r != NIC_QPC_UNSECURED_DOORBELL_QPN);
        }
        return;
    case NIC_QPC_REQ_QPC_CACHE_INVALIDATE:
    case NIC_QPC_RES_QPC_CACHE_INVALIDATE:
        gaudi_reg_set(g, off, val);
        gaudi_roce_revalidate(g, port);
        return;
    case NIC_QPC_INTERRUPT_CLR:
        gaudi_reg_set(g, qpc_reg(port, NIC_QPC_INTERRUPT_CAUSE),
                      gaudi_reg_get(g, qpc_reg(port,
                                    NIC_QPC_INTERRUPT_CAUSE)) & ~val);
        return;
    case NIC_QPC_RES_RING0_CI:
        full = ring_full(g, port);
        gaudi_reg_set(g, off, val & SLOT_MASK);
        if (full && !ring_full(g, port) && g->nic.be.rx_ready) {
            g->nic.be.rx_ready(g->nic.be.opaque, port);
        }
        return;
    case NIC_QPC_RES_RING0_PI:
        gaudi_reg_set(g, off, val & SLOT_MASK);
        return;
    }
    gaudi_reg_set(g, off, val);
}

/* A port is off when a lane of it is in low power. */
static bool port_off(struct gaudi_core *g, unsigned int port)
{
    uint32_t lanes = GAUDI_NIC_PORT_LANES(port);
    unsigned int l;

    for (l = 0; l < GAUDI_NIC_MAC_LANES; l++) {
        if ((lanes & (1U << l)) &&
            (gaudi_reg_get(g, GAUDI_NIC_PORT_MACRO(port) +
                           NIC_MAC_CH_OFFSET(l) + NIC_MAC_CH_PCS_CONTROL1) &
             MAC_CH_PCS_CONTROL1_LOW_POWER)) {
            return true;
        }
    }
    return false;
}

static void power_update(struct gaudi_core *g, unsigned int port)
{
    bool off = port_off(g, port);

    if (off == g->nic.port[port].off) {
        return;
    }
    g->nic.port[port].off = off;
    gaudi_trace(g, "NIC%u: transmitter %s", port, off ? "off" : "on");
    if (g->nic.be.power_changed) {
        g->nic.be.power_changed(g->nic.be.opaque, port);
    }
}

bool gaudi_nic_powered(struct gaudi_core *g, unsigned int port)
{
    return port < GAUDI_NIC_NUM_PORTS && !g->nic.port[port].off;
}

static void nic_write_reg(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    uint32_t rel = off - GAUDI_NIC_MACRO_BASE;
    unsigned int m = rel / GAUDI_NIC_MACRO_STRIDE;
    uint32_t moff = rel % GAUDI_NIC_MACRO_STRIDE;
    enum gaudi_nic_cnt c;
    unsigned int p;

    if (moff >= NIC_QPC_OFFSET && moff < NIC_QPC_OFFSET + 0x2000) {
        qpc_write(g, 2 * m + (moff - NIC_QPC_OFFSET) / 0x1000, moff % 0x1000,
                  off, val);
        return;
    }
    if (moff >= NIC_DB_PAGE_OFFSET &&
        moff < NIC_DB_PAGE_OFFSET + 2 * NIC_DB_PAGE_SIZE) {
        /*
         * The doorbell page (a model choice): one write of QPN << 22 | PI
         * at offset 0 is the port's unsecured doorbell; nothing else.
         */
        if ((moff - NIC_DB_PAGE_OFFSET) % NIC_DB_PAGE_SIZE == NIC_DB_RING) {
            doorbell(g, 2 * m + (moff - NIC_DB_PAGE_OFFSET) /
                     NIC_DB_PAGE_SIZE, val >> NIC_DB_QPN_SHIFT,
                     val & NIC_DB_PI, false);
        }
        return;
    }
    if (moff == NIC_STAT_OFFSET + NIC_STAT_STATN_CONFIG) {
        gaudi_reg_set(g, off, val & ~STATN_CONFIG_RESET);
        if (val & STATN_CONFIG_RESET) {
            memset(g->nic.port[2 * m].cnt, 0, sizeof(g->nic.port[0].cnt));
            memset(g->nic.port[2 * m + 1].cnt, 0,
                   sizeof(g->nic.port[0].cnt));
            g->nic.stat_hi[m] = 0;
        }
        return;
    }
    if (moff < NIC_STAT_OFFSET && moff % 0x1000 == NIC_MAC_CH_PCS_CONTROL1) {
        gaudi_reg_set(g, off, val);
        power_update(g, 2 * m + (moff / 0x1000 >= 2));
        return;
    }
    if (moff >= NIC_RXE_OFFSET && moff < NIC_RXE_OFFSET + 0x2000 &&
        moff % 0x1000 == NIC_RXE_CQ_MSI_CAUSE_CLR) {
        /* Write 1 to clear MSI_CAUSE bits (the CQ interrupt re-arms). */
        uint32_t cause = off - NIC_RXE_CQ_MSI_CAUSE_CLR + NIC_RXE_MSI_CAUSE;

        gaudi_reg_set(g, cause, gaudi_reg_get(g, cause) & ~val);
        return;
    }
    if (moff >= NIC_STAT_OFFSET && moff < NIC_STAT_OFFSET + 0x1000 &&
        (moff == NIC_STAT_OFFSET + NIC_STAT_DATA_HI_REG ||
         stat_counter(m, moff - NIC_STAT_OFFSET, &p, &c))) {
        return; /* counters are read-only */
    }
    gaudi_reg_set(g, off, val);
}

/* --- the environment's side --- */

void gaudi_nic_set_backend(struct gaudi_core *g,
                           const struct gaudi_nic_backend *be)
{
    if (be) {
        g->nic.be = *be;
    } else {
        memset(&g->nic.be, 0, sizeof(g->nic.be));
    }
}

void gaudi_nic_set_link(struct gaudi_core *g, unsigned int port, bool up)
{
    if (port >= GAUDI_NIC_NUM_PORTS) {
        gaudi_log(g, GAUDI_LOG_UNIMP, "NIC: no port %u", port);
        return;
    }
    if (g->nic.port[port].link != up) {
        /* The device CPU tells the driver (a model choice, nic.rst). */
        uint32_t payload[2] = { gaudi_le32(port), gaudi_le32(up) };

        gaudi_trace(g, "NIC%u: link %s", port, up ? "up" : "down");
        g->nic.port[port].link = up;
        gaudi_eq_event(g, GAUDI_EVENT_STATUS_NIC0_ENG0 + port, payload,
                       sizeof(payload));
    }
}

bool gaudi_nic_link(struct gaudi_core *g, unsigned int port)
{
    return port < GAUDI_NIC_NUM_PORTS && g->nic.port[port].link;
}

/* --- life cycle --- */

void gaudi_nic_init(struct gaudi_core *g)
{
    unsigned int m;

    memset(&g->nic, 0, sizeof(g->nic));
    /*
     * Each macro but its two QMANs, which are the queue managers' (still a
     * plain register file).
     */
    for (m = 0; m < GAUDI_NIC_NUM_MACROS; m++) {
        if (gaudi_reg_claim(g, macro_base(m), macro_base(m) + NIC_QM0_OFFSET,
                            nic_read_reg, nic_write_reg) ||
            gaudi_reg_claim(g, macro_base(m) + NIC_QPC_OFFSET,
                            macro_base(m) + GAUDI_NIC_MACRO_STRIDE,
                            nic_read_reg, nic_write_reg)) {
            gaudi_log(g, GAUDI_LOG_UNIMP, "NIC: register table full");
        }
    }
}

/*
 * A device reset clears the registers (core.c), the counters and the
 * interrupt state; the links are the cables' and the backend the
 * environment's: both stay.
 */
void gaudi_nic_reset(struct gaudi_core *g)
{
    unsigned int p;

    for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
        memset(g->nic.port[p].cnt, 0, sizeof(g->nic.port[p].cnt));
        g->nic.port[p].wire_irqs = 0;
    }
    memset(g->nic.stat_hi, 0, sizeof(g->nic.stat_hi));
    /* The lanes leave low power with the registers. */
    for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
        power_update(g, p);
    }
    g->nic.gw_ops = 0;
    g->nic.tx_wqes = 0;
    g->nic.qp_errors = 0;
    gaudi_roce_reset(g);
}
