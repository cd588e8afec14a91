// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi_en: the Ethernet driver of Gaudi 1's NIC ports.  It binds to the
 * auxiliary device gaudi.ko creates per card (gaudi.en.<N>, gaudi_cn.h)
 * and registers one netdev per enabled port.
 *
 * Each open port has (facts and the model's choices: hw/gaudi1/nic.h,
 * Documentation/emulator/nic.rst):
 *  - a send queue of GAUDI_EN_TX_SLOTS LINEAR WQEs in host memory, and as
 *    many transmit buffers: a frame is copied into its buffer, the WQE
 *    written, and the secured doorbell rung with the raw QP (QP 0, whose
 *    requester context gaudi_en writes through the QPC gateway into the
 *    port's HBM).  The NIC advances REQ_RING0_CI as frames leave;
 *  - the raw receive ring, GAUDI_NIC_RAW_RING_SLOTS slots of
 *    GAUDI_EN_RX_SLOT bytes in host memory: the NIC writes each frame from
 *    its destination MAC into the next slot, its length into the slot's
 *    last word (GAUDI_NIC_RAW_LEN_WORD) and advances RES_RING0_PI; the
 *    driver takes exactly that many bytes (never a length from the
 *    frame's headers, which a sender chooses: bytes of an earlier, longer
 *    frame in the slot would reach the stack), clears the word and
 *    returns slots through RES_RING0_CI.  Interrupt 4 of the port (an MSI on even ports, the
 *    device CPU's MSI on odd ones) schedules NAPI; NAPI re-arms it
 *    (INTERRUPT_CLR) when the ring is empty and looks again.
 * The link is polled (MAC_REC_STS0 of the port's lanes) every
 * GAUDI_EN_LINK_MS.  A slot without a valid length word, or with a length
 * shorter than an Ethernet header or beyond the slot, is dropped (counted
 * as rx_length_errors).
 */
#include <linux/auxiliary_bus.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/u64_stats_sync.h>
#include <linux/unaligned.h>

#include "../gaudi_cn.h"
#include "gaudi1/regs.h"

#define GAUDI_EN_DRV_NAME	"gaudi_en"
#define GAUDI_EN_TX_SLOTS	256		/* WQEs and buffers */
#define GAUDI_EN_TX_BUF		2048
#define GAUDI_EN_RX_SLOT	2048
#define GAUDI_EN_RX_LOG		11		/* log2(GAUDI_EN_RX_SLOT) */
/* A frame fills a slot but its last word, the NIC's length word. */
#define GAUDI_EN_RX_ROOM	(GAUDI_EN_RX_SLOT - GAUDI_NIC_RAW_LEN_WORD)
#define GAUDI_EN_MAX_MTU	(GAUDI_EN_RX_ROOM - VLAN_ETH_HLEN)
#define GAUDI_EN_LINK_MS	200
#define GAUDI_EN_NAPI_WEIGHT	64
#define GAUDI_EN_ERR_ENTRIES	1024		/* QP error FIFO, 4 bytes each */

static_assert(GAUDI_EN_TX_SLOTS * GAUDI_NIC_SEND_WQE_SIZE %
	      GAUDI_NIC_CACHE_LINE == 0);
static_assert(GAUDI_EN_RX_SLOT == 1 << GAUDI_EN_RX_LOG);
static_assert(GAUDI_EN_MAX_MTU + VLAN_ETH_HLEN <= GAUDI_EN_TX_BUF);

struct gaudi_en;

struct gaudi_en_stats {
	u64 packets;
	u64 bytes;
	u64 dropped;
	u64 errors;
	struct u64_stats_sync syncp;
};

struct gaudi_en_port {
	struct gaudi_en *en;
	struct net_device *ndev;
	unsigned int port;
	struct napi_struct napi;
	/* set while the port's rings are programmed (open, not in reset) */
	bool running;
	bool link;

	/* send queue and buffers; tx_lock orders producers */
	spinlock_t tx_lock;
	void *sq;
	dma_addr_t sq_dma;
	void *tx_buf;
	dma_addr_t tx_dma;
	u32 tx_pi;	/* next WQE to fill */
	u32 tx_ci;	/* first WQE the NIC may still read */

	/* receive ring */
	void *rx_ring;
	dma_addr_t rx_dma;
	u32 rx_ci;	/* next slot to read */

	/* QP error FIFO (host memory) */
	__le32 *err_fifo;
	dma_addr_t err_dma;
	u32 err_ci;

	struct gaudi_en_stats rx_stats, tx_stats;
	u64 rx_length_errors;	/* frames that could not be sized */
	u64 qp_errors;		/* entries of the QP error FIFO */
};

struct gaudi_en {
	struct gaudi_cn *cn;
	struct gaudi_en_port *port[GAUDI_NIC_NUM_PORTS];
	struct delayed_work link_work;
	bool in_reset;
};

/* ---- registers --------------------------------------------------------- */

static u32 en_rd(struct gaudi_en_port *p, u32 off)
{
	return p->en->cn->ops->rreg(p->en->cn, off);
}

static void en_wr(struct gaudi_en_port *p, u32 off, u32 val)
{
	p->en->cn->ops->wreg(p->en->cn, off, val);
}

#define QPC(p, r)	GAUDI_NIC_QPC_REG((p)->port, r)
#define RXE(p, r)	GAUDI_NIC_RXE_REG((p)->port, r)
#define TXE(p, r)	GAUDI_NIC_TXE_REG((p)->port, r)

static bool en_hw_link(struct gaudi_en_port *p)
{
	u32 lanes = GAUDI_NIC_PORT_LANES(p->port) << MAC_REC_STS0_LINK_SHIFT;
	u32 sts = en_rd(p, GAUDI_NIC_PORT_MACRO(p->port) + NIC_MAC_CORE_OFFSET +
			NIC_MAC_CORE_MAC_REC_STS0);

	return (sts & lanes) == lanes;
}

static void set_bits(__le32 *e, unsigned int bit, unsigned int width, u32 v)
{
	unsigned int i;

	for (i = 0; i < width; i++, bit++) {
		u32 w = le32_to_cpu(e[bit / 32]);

		w &= ~BIT(bit % 32);
		w |= ((v >> i) & 1) << (bit % 32);
		e[bit / 32] = cpu_to_le32(w);
	}
}

/*
 * Write the raw QP's requester context through the port's gateway, which
 * gaudi.ko shares with the users' RoCE connections (gaudi_cn_ops).
 */
static int en_write_raw_qpc(struct gaudi_en_port *p)
{
	struct gaudi_cn *cn = p->en->cn;
	u64 table = cn->hbm_base + p->port * cn->hbm_port_size;
	__le32 ctx[GAUDI_NIC_REQ_QPC_SIZE / 4] = {};
	u32 data[GAUDI_NIC_REQ_QPC_SIZE / 4];
	unsigned int i;

	set_bits(ctx, REQ_QPC_WQ_BASE_ADDR_BIT, 24, 0);
	set_bits(ctx, REQ_QPC_TRANSPORT_BIT, 1, QPC_TRANSPORT_RAW);
	set_bits(ctx, REQ_QPC_VALID_BIT, 1, 1);
	en_wr(p, QPC(p, NIC_QPC_REQ_BASE_ADDRESS_49_18), table >> 18);
	en_wr(p, QPC(p, NIC_QPC_REQ_BASE_ADDRESS_17_7), (table >> 7) & 0x7FF);
	for (i = 0; i < ARRAY_SIZE(data); i++)
		data[i] = le32_to_cpu(ctx[i]);
	return cn->ops->qpc_write(cn, p->port, GAUDI_NIC_RAW_QPN, true, data);
}

/*
 * Switch the port's transmitter on or off: its lanes leave or enter the
 * PCS low-power state, and the link partner sees the link come or go.
 */
static void en_hw_power(struct gaudi_en_port *p, bool on)
{
	u32 lanes = GAUDI_NIC_PORT_LANES(p->port);
	unsigned int l;

	for (l = 0; l < GAUDI_NIC_MAC_LANES; l++) {
		u32 reg = GAUDI_NIC_PORT_MACRO(p->port) + NIC_MAC_CH_OFFSET(l) +
			  NIC_MAC_CH_PCS_CONTROL1;
		u32 v;

		if (!(lanes & BIT(l)))
			continue;
		v = en_rd(p, reg);
		if (on)
			v &= ~MAC_CH_PCS_CONTROL1_LOW_POWER;
		else
			v |= MAC_CH_PCS_CONTROL1_LOW_POWER;
		en_wr(p, reg, v);
	}
}

/* Program the port's rings and interrupt (open, and after a reset). */
static int en_hw_start(struct gaudi_en_port *p)
{
	struct gaudi_cn *cn = p->en->cn;
	u64 rx = cn->host_base + p->rx_dma, sq = cn->host_base + p->sq_dma;
	u64 err = cn->host_base + p->err_dma;
	u32 rx_hi = upper_32_bits(rx) |
		    (GAUDI_EN_RX_LOG << RAW_BASE_HI_LOG_ENTRY_SHIFT);
	u32 even = !(p->port & 1);
	int ret;

	p->tx_pi = 0;
	p->tx_ci = 0;
	p->rx_ci = 0;
	en_hw_power(p, true);
	ret = en_write_raw_qpc(p);
	if (ret)
		return ret;
	/* The send queue: base 0, wq_base_address 0. */
	en_wr(p, TXE(p, NIC_TXE_SQ_BASE_ADDRESS_49_32(0)), upper_32_bits(sq));
	en_wr(p, TXE(p, NIC_TXE_SQ_BASE_ADDRESS_31_0(0)), lower_32_bits(sq));
	en_wr(p, TXE(p, NIC_TXE_LOG_MAX_WQ_SIZE(0)),
	      ilog2(GAUDI_EN_TX_SLOTS * GAUDI_NIC_SEND_WQE_SIZE /
		    GAUDI_NIC_CACHE_LINE));
	en_wr(p, TXE(p, even ? NIC_TXE_PORT0_MAC_CFG_47_32 :
			       NIC_TXE_PORT1_MAC_CFG_47_32),
	      get_unaligned_be16(p->ndev->dev_addr));
	en_wr(p, TXE(p, even ? NIC_TXE_PORT0_MAC_CFG_31_0 :
			       NIC_TXE_PORT1_MAC_CFG_31_0),
	      get_unaligned_be32(p->ndev->dev_addr + 2));
	en_wr(p, QPC(p, NIC_QPC_REQ_RING0_CI), 0);
	/* The receive ring, for priorities 0 and 2 alike. */
	en_wr(p, QPC(p, NIC_QPC_RES_RING0_CI), 0);
	en_wr(p, QPC(p, NIC_QPC_RES_RING0_PI), 0);
	en_wr(p, RXE(p, NIC_RXE_RAW_QPN_P0), GAUDI_NIC_RAW_QPN);
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_LO_P0), lower_32_bits(rx));
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_HI_P0), rx_hi);
	en_wr(p, RXE(p, NIC_RXE_RAW_QPN_P2), GAUDI_NIC_RAW_QPN);
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_LO_P2), lower_32_bits(rx));
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_HI_P2), rx_hi);
	/* QP errors: the FIFO, reported by the device CPU as an event. */
	p->err_ci = 0;
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_BASE_ADDR_49_18), err >> 18);
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_BASE_ADDR_17_7), err & 0x3FF80);
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_MASK), GAUDI_EN_ERR_ENTRIES - 1);
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_PRODUCER_INDEX), 0);
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_CONSUMER_INDEX), 0);
	/* Receive interrupt: MSI on even ports, the wire (device CPU) on odd. */
	en_wr(p, QPC(p, NIC_QPC_INTERRUPT_BASE(QPC_INTERRUPT_RX)),
	      mmPCIE_CORE_MSI_REQ);
	en_wr(p, QPC(p, NIC_QPC_INTERRUPT_DATA(QPC_INTERRUPT_RX)),
	      cn->msi_vector[p->port]);
	en_wr(p, QPC(p, NIC_QPC_INTERRUPT_EN),
	      (even ? QPC_INTERRUPT_EN_MSI(QPC_INTERRUPT_RX) :
		      QPC_INTERRUPT_EN_WIRE(QPC_INTERRUPT_RX)) |
	      QPC_INTERRUPT_EN_WIRE(QPC_INTERRUPT_QP_ERR));
	en_wr(p, QPC(p, NIC_QPC_INTERRUPT_CLR), 0xFFFF);
	en_wr(p, QPC(p, NIC_QPC_INTERRUPT_MASK),
	      BIT(QPC_INTERRUPT_RX) | BIT(QPC_INTERRUPT_QP_ERR));
	return 0;
}

/* Stop the port's DMA into and out of host memory. */
static void en_hw_stop(struct gaudi_en_port *p)
{
	en_wr(p, QPC(p, NIC_QPC_INTERRUPT_MASK), 0);
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_LO_P0), 0);
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_HI_P0), 0);
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_LO_P2), 0);
	en_wr(p, RXE(p, NIC_RXE_RAW_BASE_HI_P2), 0);
	en_wr(p, TXE(p, NIC_TXE_SQ_BASE_ADDRESS_49_32(0)), 0);
	en_wr(p, TXE(p, NIC_TXE_SQ_BASE_ADDRESS_31_0(0)), 0);
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_BASE_ADDR_49_18), 0);
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_BASE_ADDR_17_7), 0);
}

/* ---- transmit --------------------------------------------------------- */

static u32 en_tx_free(struct gaudi_en_port *p)
{
	return GAUDI_EN_TX_SLOTS - 1 -
	       ((p->tx_pi - p->tx_ci) & (GAUDI_EN_TX_SLOTS - 1));
}

/* Take back the WQEs the NIC has sent; tx_lock held. */
static void en_tx_reclaim(struct gaudi_en_port *p)
{
	p->tx_ci = en_rd(p, QPC(p, NIC_QPC_REQ_RING0_CI)) &
		   (GAUDI_EN_TX_SLOTS - 1);
}

static void en_stat_add(struct gaudi_en_stats *s, u64 bytes, bool drop)
{
	u64_stats_update_begin(&s->syncp);
	if (drop) {
		s->dropped++;
	} else {
		s->packets++;
		s->bytes += bytes;
	}
	u64_stats_update_end(&s->syncp);
}

static netdev_tx_t en_start_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	struct gaudi_en_port *p = netdev_priv(ndev);
	u32 len = skb->len, idx;
	__le32 *wqe;
	u64 addr;
	void *buf;

	if (unlikely(len > GAUDI_EN_TX_BUF || len < ETH_HLEN)) {
		en_stat_add(&p->tx_stats, 0, true);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	spin_lock(&p->tx_lock);
	if (unlikely(!p->running)) {
		spin_unlock(&p->tx_lock);
		en_stat_add(&p->tx_stats, 0, true);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	if (!en_tx_free(p))
		en_tx_reclaim(p);
	if (unlikely(!en_tx_free(p))) {
		netif_stop_queue(ndev);
		spin_unlock(&p->tx_lock);
		napi_schedule(&p->napi);	/* it wakes the queue */
		return NETDEV_TX_BUSY;
	}
	idx = p->tx_pi;
	buf = p->tx_buf + idx * GAUDI_EN_TX_BUF;
	skb_copy_bits(skb, 0, buf, len);
	if (len < ETH_ZLEN) {
		memset(buf + len, 0, ETH_ZLEN - len);
		len = ETH_ZLEN;
	}
	addr = p->en->cn->host_base + p->tx_dma + idx * GAUDI_EN_TX_BUF;
	wqe = p->sq + idx * GAUDI_NIC_SEND_WQE_SIZE;
	wqe[0] = cpu_to_le32((u32)WQE_LINEAR << NIC_WQE_OPCODE_SHIFT);
	wqe[1] = cpu_to_le32(lower_32_bits(addr));
	wqe[2] = cpu_to_le32((upper_32_bits(addr) & NIC_WQE_LOCAL_ADDR_HI) |
			     len << NIC_WQE_SIZE_SHIFT);
	p->tx_pi = (idx + 1) & (GAUDI_EN_TX_SLOTS - 1);
	/* writel orders the WQE and the frame before the doorbell. */
	en_wr(p, QPC(p, NIC_QPC_SECURED_DOORBELL_PI), p->tx_pi);
	en_wr(p, QPC(p, NIC_QPC_SECURED_DOORBELL_QPN),
	      QPC_DOORBELL_BUSY | GAUDI_NIC_RAW_QPN);
	en_stat_add(&p->tx_stats, len, false);
	if (!en_tx_free(p)) {
		en_tx_reclaim(p);
		if (!en_tx_free(p)) {
			netif_stop_queue(ndev);
			napi_schedule(&p->napi);
		}
	}
	spin_unlock(&p->tx_lock);
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

/* ---- receive ---------------------------------------------------------- */

/*
 * The received frame's length, from the word the NIC wrote into the slot
 * (hw/gaudi1/nic.h, "raw receive ring's length word"), which is cleared
 * for the slot's next use; 0 if there is none or it cannot be a frame of
 * the slot.
 */
static u32 en_frame_len(u8 *f)
{
	__le32 *word = (__le32 *)(f + GAUDI_EN_RX_ROOM);
	u32 w = le32_to_cpu(READ_ONCE(*word)), len = w & RAW_LEN_BYTES;

	WRITE_ONCE(*word, 0);
	if (!(w & RAW_LEN_VALID) || len < ETH_HLEN || len > GAUDI_EN_RX_ROOM)
		return 0;
	return len;
}

static int en_rx(struct gaudi_en_port *p, int budget)
{
	struct net_device *ndev = p->ndev;
	u32 pi = en_rd(p, QPC(p, NIC_QPC_RES_RING0_PI)) &
		 (GAUDI_NIC_RAW_RING_SLOTS - 1);
	int done = 0;

	dma_rmb();
	while (p->rx_ci != pi && done < budget) {
		u8 *f = p->rx_ring + p->rx_ci * GAUDI_EN_RX_SLOT;
		u32 len = en_frame_len(f);
		struct sk_buff *skb;

		p->rx_ci = (p->rx_ci + 1) & (GAUDI_NIC_RAW_RING_SLOTS - 1);
		done++;
		if (!len) {
			p->rx_length_errors++;
			en_stat_add(&p->rx_stats, 0, true);
			continue;
		}
		skb = napi_alloc_skb(&p->napi, len);
		if (!skb) {
			en_stat_add(&p->rx_stats, 0, true);
			continue;
		}
		skb_put_data(skb, f, len);
		skb->protocol = eth_type_trans(skb, ndev);
		en_stat_add(&p->rx_stats, len, false);
		napi_gro_receive(&p->napi, skb);
	}
	/* The slots are free again (the NIC may deliver held frames now). */
	if (done)
		en_wr(p, QPC(p, NIC_QPC_RES_RING0_CI), p->rx_ci);
	return done;
}

static int en_poll(struct napi_struct *napi, int budget)
{
	struct gaudi_en_port *p = container_of(napi, struct gaudi_en_port,
					       napi);
	int done;

	spin_lock(&p->tx_lock);
	if (p->running) {
		en_tx_reclaim(p);
		if (netif_queue_stopped(p->ndev) && en_tx_free(p))
			netif_wake_queue(p->ndev);
	}
	spin_unlock(&p->tx_lock);
	if (!READ_ONCE(p->running)) {
		napi_complete_done(napi, 0);
		return 0;
	}
	done = en_rx(p, budget);
	if (done < budget && napi_complete_done(napi, done)) {
		/* Re-arm, then look once more: a frame may have come between. */
		en_wr(p, QPC(p, NIC_QPC_INTERRUPT_CLR), BIT(QPC_INTERRUPT_RX));
		if ((en_rd(p, QPC(p, NIC_QPC_RES_RING0_PI)) &
		     (GAUDI_NIC_RAW_RING_SLOTS - 1)) != p->rx_ci)
			napi_schedule(napi);
	}
	return done;
}

/* gaudi.ko's interrupt handler (hard IRQ): one MSI for the whole card. */
static void en_irq(void *priv)
{
	struct gaudi_en *en = priv;
	unsigned int i;

	for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
		struct gaudi_en_port *p = en->port[i];

		if (!p || !READ_ONCE(p->running))
			continue;
		if (en_rd(p, QPC(p, NIC_QPC_INTERRUPT_CAUSE)) &
		    BIT(QPC_INTERRUPT_RX))
			napi_schedule(&p->napi);
	}
}

/* ---- link ------------------------------------------------------------- */

static void en_link_update(struct gaudi_en_port *p)
{
	bool up = READ_ONCE(p->running) && en_hw_link(p);

	if (up == p->link)
		return;
	p->link = up;
	if (up)
		netif_carrier_on(p->ndev);
	else
		netif_carrier_off(p->ndev);
	netdev_info(p->ndev, "link %s\n", up ? "up" : "down");
}

static void en_link_work(struct work_struct *work)
{
	struct gaudi_en *en = container_of(to_delayed_work(work),
					   struct gaudi_en, link_work);
	unsigned int i;

	rtnl_lock();
	for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++)
		if (en->port[i] && !en->in_reset)
			en_link_update(en->port[i]);
	rtnl_unlock();
	schedule_delayed_work(&en->link_work,
			      msecs_to_jiffies(GAUDI_EN_LINK_MS));
}

/* ---- open and stop ---------------------------------------------------- */

static void en_free_rings(struct gaudi_en_port *p)
{
	struct device *dev = p->en->cn->dma_dev;

	if (p->rx_ring)
		dma_free_coherent(dev, GAUDI_NIC_RAW_RING_SLOTS * GAUDI_EN_RX_SLOT,
				  p->rx_ring, p->rx_dma);
	if (p->tx_buf)
		dma_free_coherent(dev, GAUDI_EN_TX_SLOTS * GAUDI_EN_TX_BUF,
				  p->tx_buf, p->tx_dma);
	if (p->sq)
		dma_free_coherent(dev, GAUDI_EN_TX_SLOTS *
				  GAUDI_NIC_SEND_WQE_SIZE, p->sq, p->sq_dma);
	if (p->err_fifo)
		dma_free_coherent(dev, GAUDI_EN_ERR_ENTRIES * 4, p->err_fifo,
				  p->err_dma);
	p->err_fifo = NULL;
	p->rx_ring = NULL;
	p->tx_buf = NULL;
	p->sq = NULL;
}

static int en_alloc_rings(struct gaudi_en_port *p)
{
	struct device *dev = p->en->cn->dma_dev;

	p->rx_ring = dma_alloc_coherent(dev, GAUDI_NIC_RAW_RING_SLOTS *
					GAUDI_EN_RX_SLOT, &p->rx_dma,
					GFP_KERNEL);
	p->tx_buf = dma_alloc_coherent(dev, GAUDI_EN_TX_SLOTS * GAUDI_EN_TX_BUF,
				       &p->tx_dma, GFP_KERNEL);
	p->sq = dma_alloc_coherent(dev, GAUDI_EN_TX_SLOTS *
				   GAUDI_NIC_SEND_WQE_SIZE, &p->sq_dma,
				   GFP_KERNEL);
	p->err_fifo = dma_alloc_coherent(dev, GAUDI_EN_ERR_ENTRIES * 4,
					 &p->err_dma, GFP_KERNEL);
	if (!p->rx_ring || !p->tx_buf || !p->sq || !p->err_fifo) {
		en_free_rings(p);
		return -ENOMEM;
	}
	return 0;
}

static int en_open(struct net_device *ndev)
{
	struct gaudi_en_port *p = netdev_priv(ndev);
	int ret;

	if (p->en->in_reset)
		return -EBUSY;
	ret = en_alloc_rings(p);
	if (ret)
		return ret;
	ret = en_hw_start(p);
	if (ret) {
		netdev_err(ndev, "QP context gateway stuck: %d\n", ret);
		en_hw_stop(p);
		en_free_rings(p);
		return ret;
	}
	napi_enable(&p->napi);
	WRITE_ONCE(p->running, true);
	p->link = false;
	netif_carrier_off(ndev);
	en_link_update(p);
	netif_start_queue(ndev);
	return 0;
}

/* Quiesce: no more doorbells, no NAPI, the NIC off the rings. */
static void en_quiesce(struct gaudi_en_port *p, bool touch_hw)
{
	netif_tx_disable(p->ndev);
	spin_lock_bh(&p->tx_lock);
	WRITE_ONCE(p->running, false);
	spin_unlock_bh(&p->tx_lock);
	napi_disable(&p->napi);
	if (touch_hw)
		en_hw_stop(p);
	p->link = false;
	netif_carrier_off(p->ndev);
}

static int en_stop(struct net_device *ndev)
{
	struct gaudi_en_port *p = netdev_priv(ndev);

	/* In reset the rings are already quiet (en_reset_prepare()). */
	if (READ_ONCE(p->running)) {
		en_quiesce(p, true);
		/* Down means down for the link partner too. */
		en_hw_power(p, false);
	}
	en_free_rings(p);
	return 0;
}

static int en_change_mtu(struct net_device *ndev, int mtu)
{
	WRITE_ONCE(ndev->mtu, mtu);
	return 0;
}

static void en_get_stats64(struct net_device *ndev,
			   struct rtnl_link_stats64 *st)
{
	struct gaudi_en_port *p = netdev_priv(ndev);
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&p->rx_stats.syncp);
		st->rx_packets = p->rx_stats.packets;
		st->rx_bytes = p->rx_stats.bytes;
		st->rx_dropped = p->rx_stats.dropped;
	} while (u64_stats_fetch_retry(&p->rx_stats.syncp, start));
	do {
		start = u64_stats_fetch_begin(&p->tx_stats.syncp);
		st->tx_packets = p->tx_stats.packets;
		st->tx_bytes = p->tx_stats.bytes;
		st->tx_dropped = p->tx_stats.dropped;
	} while (u64_stats_fetch_retry(&p->tx_stats.syncp, start));
	st->rx_length_errors = READ_ONCE(p->rx_length_errors);
	st->rx_errors = st->rx_length_errors;
}

static int en_get_phys_port_name(struct net_device *ndev, char *name,
				 size_t len)
{
	struct gaudi_en_port *p = netdev_priv(ndev);

	if (snprintf(name, len, "p%u", p->port) >= len)
		return -EINVAL;
	return 0;
}

static const struct net_device_ops en_netdev_ops = {
	.ndo_open = en_open,
	.ndo_stop = en_stop,
	.ndo_start_xmit = en_start_xmit,
	.ndo_change_mtu = en_change_mtu,
	.ndo_get_stats64 = en_get_stats64,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_get_phys_port_name = en_get_phys_port_name,
};

/* ---- ethtool ---------------------------------------------------------- */

struct en_mac_stat {
	char name[ETH_GSTRING_LEN];
	bool rx;
	u32 reg;
};

static const struct en_mac_stat en_mac_stats[] = {
	{ "mac_rx_octets", true, STAT_RX_ETHERSTATSOCTETS },
	{ "mac_rx_octets_ok", true, STAT_RX_OCTETSRECEIVEDOK },
	{ "mac_rx_frames_ok", true, STAT_RX_AFRAMESRECEIVEDOK },
	{ "mac_rx_frames", true, STAT_RX_ETHERSTATSPKTS },
	{ "mac_rx_unicast", true, STAT_RX_IFINUCASTPKTS },
	{ "mac_rx_multicast", true, STAT_RX_IFINMULTICASTPKTS },
	{ "mac_rx_broadcast", true, STAT_RX_IFINBROADCASTPKTS },
	{ "mac_rx_drop_events", true, STAT_RX_ETHERSTATSDROPEVENTS },
	{ "mac_rx_too_long", true, STAT_RX_AFRAMETOOLONGERRORS },
	{ "mac_tx_octets", false, STAT_TX_ETHERSTATSOCTETS },
	{ "mac_tx_octets_ok", false, STAT_TX_OCTETSTRANSMITTEDOK },
	{ "mac_tx_frames_ok", false, STAT_TX_AFRAMESTRANSMITTEDOK },
	{ "mac_tx_frames", false, STAT_TX_ETHERSTATSPKTS },
	{ "mac_tx_unicast", false, STAT_TX_IFOUTUCASTPKTS },
	{ "mac_tx_multicast", false, STAT_TX_IFOUTMULTICASTPKTS },
	{ "mac_tx_broadcast", false, STAT_TX_IFOUTBROADCASTPKTS },
	{ "mac_tx_errors", false, STAT_TX_IFOUTERRORS },
};

/*
 * The port's RoCE engine (hw/gaudi1/nic.h ROCE_CNT_*): everyone's RDMA
 * traffic on the port, which the netdev's own counters do not see.
 */
struct en_roce_stat {
	char name[ETH_GSTRING_LEN];
	u8 idx;
};

static const struct en_roce_stat en_roce_stats[] = {
	{ "roce_tx_pkts", ROCE_CNT_TX_PKTS },
	{ "roce_rx_pkts", ROCE_CNT_RX_PKTS },
	{ "roce_retransmits", ROCE_CNT_RETRANSMITS },
	{ "roce_acks_tx", ROCE_CNT_TX_ACKS },
	{ "roce_naks_tx", ROCE_CNT_TX_NAKS },
	{ "roce_acks_rx", ROCE_CNT_RX_ACKS },
	{ "roce_naks_rx", ROCE_CNT_RX_NAKS },
	{ "roce_icrc_errors", ROCE_CNT_ICRC_ERRORS },
	{ "roce_bad_frames", ROCE_CNT_BAD_FRAMES },
	{ "roce_duplicates", ROCE_CNT_DUPLICATES },
	{ "roce_timeouts", ROCE_CNT_TIMEOUTS },
	{ "roce_req_qp_errors", ROCE_CNT_REQ_QP_ERRORS },
	{ "roce_res_qp_errors", ROCE_CNT_RES_QP_ERRORS },
	{ "roce_cq_overflows", ROCE_CNT_CQ_OVERFLOWS },
	{ "roce_injected", ROCE_CNT_INJECTED },
	/* Dropped or refused, by reason (remote peers, issue 22). */
	{ "roce_drop_mac", ROCE_CNT_DROP_MAC },
	{ "roce_drop_source", ROCE_CNT_DROP_SOURCE },
	{ "roce_drop_ack_source", ROCE_CNT_DROP_ACK_SOURCE },
	{ "roce_drop_no_qp", ROCE_CNT_DROP_NO_QP },
	{ "roce_region_errors", ROCE_CNT_REGION_ERRORS },
	{ "roce_addr_refused", ROCE_CNT_ADDR_REFUSED },
	{ "roce_rnr_naks_rx", ROCE_CNT_RX_RNR_NAKS },
	{ "roce_rnr_retries", ROCE_CNT_RNR_RETRIES },
	{ "roce_mtu_errors", ROCE_CNT_MTU_ERRORS },
	{ "roce_state_resets", ROCE_CNT_STATE_RESETS },
	/* The verbs operations' (issue 25; rdma statistic shows them too). */
	{ "roce_rnr_naks_tx", ROCE_CNT_TX_RNR_NAKS },
	{ "roce_recv_wqes", ROCE_CNT_RECV_WQES },
	{ "roce_reads_served", ROCE_CNT_READS_SERVED },
	{ "roce_cq_events_lost", ROCE_CNT_CQ_EVENTS_LOST },
};

static const char en_sw_stats[][ETH_GSTRING_LEN] = {
	"rx_length_errors", "tx_ring_used", "qp_errors",
};

static void en_get_drvinfo(struct net_device *ndev,
			   struct ethtool_drvinfo *info)
{
	struct gaudi_en_port *p = netdev_priv(ndev);

	strscpy(info->driver, GAUDI_EN_DRV_NAME, sizeof(info->driver));
	strscpy(info->bus_info, p->en->cn->bus_info, sizeof(info->bus_info));
	strscpy(info->fw_version, p->en->cn->fw_version,
		sizeof(info->fw_version));
}

static int en_get_sset_count(struct net_device *ndev, int sset)
{
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	/* roce_qp_errors: the requester's and the responder's, summed. */
	return ARRAY_SIZE(en_mac_stats) + ARRAY_SIZE(en_roce_stats) + 1 +
	       ARRAY_SIZE(en_sw_stats);
}

static void en_get_strings(struct net_device *ndev, u32 sset, u8 *data)
{
	unsigned int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < ARRAY_SIZE(en_mac_stats); i++)
		ethtool_puts(&data, en_mac_stats[i].name);
	for (i = 0; i < ARRAY_SIZE(en_roce_stats); i++)
		ethtool_puts(&data, en_roce_stats[i].name);
	ethtool_puts(&data, "roce_qp_errors");
	for (i = 0; i < ARRAY_SIZE(en_sw_stats); i++)
		ethtool_puts(&data, en_sw_stats[i]);
}

/*
 * A 64-bit MAC counter, through gaudi.ko: the high-word latch is shared
 * with the users' COUNTERS op.
 */
static u64 en_mac_counter(struct gaudi_en_port *p, const struct en_mac_stat *s)
{
	struct gaudi_cn *cn = p->en->cn;

	return cn->ops->mac_counter(cn, p->port, s->rx, s->reg);
}

static void en_get_ethtool_stats(struct net_device *ndev,
				 struct ethtool_stats *stats, u64 *data)
{
	struct gaudi_en_port *p = netdev_priv(ndev);
	struct gaudi_cn *cn = p->en->cn;
	unsigned int i, n = 0;
	u64 qp_errors = 0;

	for (i = 0; i < ARRAY_SIZE(en_mac_stats); i++)
		data[n++] = p->en->in_reset ? 0 :
			    en_mac_counter(p, &en_mac_stats[i]);
	for (i = 0; i < ARRAY_SIZE(en_roce_stats); i++) {
		u8 idx = en_roce_stats[i].idx;

		data[n] = p->en->in_reset ? 0 :
			  cn->ops->roce_counter(cn, p->port, idx);
		if (idx == ROCE_CNT_REQ_QP_ERRORS ||
		    idx == ROCE_CNT_RES_QP_ERRORS)
			qp_errors += data[n];
		n++;
	}
	data[n++] = qp_errors;
	data[n++] = READ_ONCE(p->rx_length_errors);
	spin_lock_bh(&p->tx_lock);
	data[n++] = GAUDI_EN_TX_SLOTS - 1 - en_tx_free(p);
	spin_unlock_bh(&p->tx_lock);
	data[n++] = READ_ONCE(p->qp_errors);
}

static int en_get_link_ksettings(struct net_device *ndev,
				 struct ethtool_link_ksettings *ks)
{
	ethtool_link_ksettings_zero_link_mode(ks, supported);
	ethtool_link_ksettings_zero_link_mode(ks, advertising);
	ethtool_link_ksettings_add_link_mode(ks, supported,
					     100000baseCR4_Full);
	ethtool_link_ksettings_add_link_mode(ks, advertising,
					     100000baseCR4_Full);
	ks->base.port = PORT_DA;
	ks->base.autoneg = AUTONEG_DISABLE;
	if (netif_carrier_ok(ndev)) {
		ks->base.speed = SPEED_100000;
		ks->base.duplex = DUPLEX_FULL;
	} else {
		ks->base.speed = SPEED_UNKNOWN;
		ks->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

static int en_get_module_info(struct net_device *ndev,
			      struct ethtool_modinfo *mi)
{
	mi->type = ETH_MODULE_SFF_8636;
	mi->eeprom_len = ETH_MODULE_SFF_8636_LEN;
	return 0;
}

static int en_get_module_eeprom(struct net_device *ndev,
				struct ethtool_eeprom *ee, u8 *data)
{
	struct gaudi_en_port *p = netdev_priv(ndev);

	if (ee->offset >= GAUDI_CN_EEPROM_LEN ||
	    ee->len > GAUDI_CN_EEPROM_LEN - ee->offset)
		return -EINVAL;
	memcpy(data, p->en->cn->eeprom + ee->offset, ee->len);
	return 0;
}

static const struct ethtool_ops en_ethtool_ops = {
	.get_drvinfo = en_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = en_get_link_ksettings,
	.get_sset_count = en_get_sset_count,
	.get_strings = en_get_strings,
	.get_ethtool_stats = en_get_ethtool_stats,
	.get_module_info = en_get_module_info,
	.get_module_eeprom = en_get_module_eeprom,
};

/* ---- reset ------------------------------------------------------------ */

static void en_reset_prepare(void *priv)
{
	struct gaudi_en *en = priv;
	unsigned int i;

	rtnl_lock();
	en->in_reset = true;
	for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
		struct gaudi_en_port *p = en->port[i];

		if (p && READ_ONCE(p->running)) {
			en_quiesce(p, true);
			netif_device_detach(p->ndev);
		}
	}
	rtnl_unlock();
}

static void en_reset_done(void *priv, bool ok)
{
	struct gaudi_en *en = priv;
	unsigned int i;

	rtnl_lock();
	en->in_reset = false;
	for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
		struct gaudi_en_port *p = en->port[i];

		if (!p || !netif_running(p->ndev))
			continue;
		/* Registers are at reset values: program the port again. */
		if (!ok || en_hw_start(p)) {
			netdev_err(p->ndev, "not restarted after the device reset\n");
			continue;
		}
		napi_enable(&p->napi);
		WRITE_ONCE(p->running, true);
		netif_device_attach(p->ndev);
		en_link_update(p);
	}
	rtnl_unlock();
}

/*
 * The port's QP error interrupt (its NIC QP event, the event thread):
 * report and count the FIFO's new entries, then re-arm.  Only the driver
 * rings the raw QP's doorbells, so an entry of QP 0 is a driver or
 * hardware bug; the other QPs are the users' RoCE connections.
 */
static void en_qp_error(void *priv, unsigned int port)
{
	struct gaudi_en *en = priv;
	struct gaudi_en_port *p = port < GAUDI_NIC_NUM_PORTS ? en->port[port] :
							       NULL;
	u32 pi, e, n = 0;

	if (!p || !READ_ONCE(p->running) || en->in_reset)
		return;
	pi = en_rd(p, QPC(p, NIC_QPC_ERR_FIFO_PRODUCER_INDEX));
	dma_rmb();
	while (p->err_ci != pi && n++ < GAUDI_EN_ERR_ENTRIES) {
		e = le32_to_cpu(p->err_fifo[p->err_ci &
					    (GAUDI_EN_ERR_ENTRIES - 1)]);
		/* Users' RoCE QPs (gaudi_roce.c) err by their own doing. */
		if ((e & QP_ERR_QPN) != GAUDI_NIC_RAW_QPN)
			netdev_dbg(p->ndev, "user QP %u error, syndrome 0x%x\n",
				   e & QP_ERR_QPN,
				   (e & QP_ERR_SYNDROME) >> 24);
		else if (net_ratelimit())
			netdev_warn(p->ndev, "%s QP %u error, syndrome 0x%x\n",
				    e & QP_ERR_REQUESTER ? "requester" :
							   "responder",
				    e & QP_ERR_QPN, (e & QP_ERR_SYNDROME) >> 24);
		p->err_ci++;
		WRITE_ONCE(p->qp_errors, p->qp_errors + 1);
	}
	en_wr(p, QPC(p, NIC_QPC_ERR_FIFO_CONSUMER_INDEX), p->err_ci);
	en_wr(p, QPC(p, NIC_QPC_INTERRUPT_CLR), BIT(QPC_INTERRUPT_QP_ERR));
}

/* The device CPU saw a link change: look now, not at the next poll. */
static void en_link_event(void *priv, unsigned int port)
{
	struct gaudi_en *en = priv;

	mod_delayed_work(system_wq, &en->link_work, 0);
}

static const struct gaudi_cn_client en_client = {
	.irq = en_irq,
	.reset_prepare = en_reset_prepare,
	.reset_done = en_reset_done,
	.link_event = en_link_event,
	.qp_error = en_qp_error,
};

/* ---- the auxiliary driver --------------------------------------------- */

static int en_port_add(struct gaudi_en *en, unsigned int port)
{
	struct gaudi_cn *cn = en->cn;
	struct gaudi_en_port *p;
	struct net_device *ndev;
	int ret;

	ndev = alloc_etherdev(sizeof(*p));
	if (!ndev)
		return -ENOMEM;
	SET_NETDEV_DEV(ndev, &cn->adev.dev);
	p = netdev_priv(ndev);
	p->en = en;
	p->ndev = ndev;
	p->port = port;
	spin_lock_init(&p->tx_lock);
	u64_stats_init(&p->rx_stats.syncp);
	u64_stats_init(&p->tx_stats.syncp);
	ndev->netdev_ops = &en_netdev_ops;
	ndev->ethtool_ops = &en_ethtool_ops;
	ndev->dev_port = port;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = GAUDI_EN_MAX_MTU;
	if (is_valid_ether_addr(cn->mac[port])) {
		eth_hw_addr_set(ndev, cn->mac[port]);
	} else {
		dev_warn(&cn->adev.dev, "port %u: no valid MAC from the firmware, using a random one\n",
			 port);
		eth_hw_addr_random(ndev);
	}
	netif_napi_add_weight(ndev, &p->napi, en_poll, GAUDI_EN_NAPI_WEIGHT);
	netif_carrier_off(ndev);
	ret = register_netdev(ndev);
	if (ret) {
		netif_napi_del(&p->napi);
		free_netdev(ndev);
		return ret;
	}
	en->port[port] = p;
	return 0;
}

static void en_port_del(struct gaudi_en *en, unsigned int port)
{
	struct gaudi_en_port *p = en->port[port];

	if (!p)
		return;
	unregister_netdev(p->ndev);
	en->port[port] = NULL;
	netif_napi_del(&p->napi);
	free_netdev(p->ndev);
}

static void en_remove(struct auxiliary_device *adev)
{
	struct gaudi_en *en = dev_get_drvdata(&adev->dev);
	unsigned int i;

	/*
	 * No callback from gaudi.ko from now on (a link event would queue
	 * the link work again), then no link work, then the ports.
	 */
	en->cn->ops->detach(en->cn);
	cancel_delayed_work_sync(&en->link_work);
	for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++)
		en_port_del(en, i);
	kfree(en);
}

static int en_probe(struct auxiliary_device *adev,
		    const struct auxiliary_device_id *id)
{
	struct gaudi_cn *cn = to_gaudi_cn(adev);
	struct gaudi_en *en;
	unsigned int i;
	int ret;

	en = kzalloc(sizeof(*en), GFP_KERNEL);
	if (!en)
		return -ENOMEM;
	en->cn = cn;
	INIT_DELAYED_WORK(&en->link_work, en_link_work);
	dev_set_drvdata(&adev->dev, en);
	ret = cn->ops->attach(cn, &en_client, en);
	if (ret) {
		kfree(en);
		return ret;
	}
	for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
		if (!(cn->ports_mask & BIT(i)))
			continue;
		ret = en_port_add(en, i);
		if (ret) {
			dev_err(&adev->dev, "port %u: netdev registration failed: %d\n",
				i, ret);
			en_remove(adev);
			return ret;
		}
	}
	schedule_delayed_work(&en->link_work,
			      msecs_to_jiffies(GAUDI_EN_LINK_MS));
	dev_info(&adev->dev, "%u ports of card %s\n", hweight32(cn->ports_mask),
		 cn->bus_info);
	return 0;
}

static const struct auxiliary_device_id en_id_table[] = {
	{ .name = "gaudi." GAUDI_CN_AUX_NAME },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, en_id_table);

static struct auxiliary_driver en_driver = {
	.name = "eth",
	.probe = en_probe,
	.remove = en_remove,
	.id_table = en_id_table,
};
module_auxiliary_driver(en_driver);

MODULE_AUTHOR("gaudi-open developers");
MODULE_DESCRIPTION("Gaudi 1 NIC ports as Ethernet devices");
MODULE_LICENSE("GPL");
