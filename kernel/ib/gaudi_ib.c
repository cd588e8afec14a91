// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi_ib.ko: a Gaudi 1 card's NIC as an RDMA device of the kernel's
 * RDMA subsystem (ib_core), so that verbs programs (rdma-core's
 * libibverbs with this project's provider, userspace/verbs/) use its
 * RoCE v2 ports.  An auxiliary driver of gaudi.ko's "gaudi.ib.<minor>"
 * devices (kernel/gaudi_cn.h, the only interface to gaudi.ko).
 *
 * One ib_device per card, "gaudi_<accel minor>", with one port per
 * enabled NIC port (ib port n is the card's n-th enabled port).  Each port
 * rides on gaudi_en's netdev of the same card port (the netdevs whose
 * parent is the card's "gaudi.en" device, dev_port the port number): the
 * device follows them with a netdevice notifier, so ib_core's RoCE GID
 * table follows their IP addresses (RoCE v2 GIDs only: the NIC speaks
 * RoCE v2) and the port's state their carrier.
 *
 * A user context belongs to the holder of the card (gaudi_cn.h @hold):
 * the NIC reaches memory through the card's MMU with its one user ASID,
 * and only the holder's process gets one (the provider takes the card
 * through its compute node first).
 * Protection domains are numbers of the device.  The hardware counters
 * of `rdma statistic` are the port's RoCE counters (the same gaudi_en
 * shows in ethtool -S).  Documentation/net/rdma.rst.
 */
#include <linux/auxiliary_bus.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "gaudi_cn.h"
#include "gaudi1/memmap.h"
#include "../../uapi/rdma/gaudi_ib_abi.h"

static_assert(GAUDI_IB_MAX_PORTS == GAUDI_NIC_NUM_PORTS);

/* Protection domains per device (a number the provider can show). */
#define GAUDI_IB_MAX_PD		1024
/* RoCE v2 GIDs per port: link-local, IPv4 and a few IPv6 addresses. */
#define GAUDI_IB_GID_TBL_LEN	16

/* Send-queue WQEs per QP (the most the TXE serves). */
#define GAUDI_IB_SQ_ENTRIES	4096
#define GAUDI_IB_SQ_SIZE	(GAUDI_IB_SQ_ENTRIES * GAUDI_NIC_SEND_WQE_SIZE)
#define GAUDI_IB_MAX_SEND_WR	(GAUDI_IB_SQ_ENTRIES - 1)
#define GAUDI_IB_MAX_RECV_WR	1024
/* A QP's receive queue: WQEs of 32 bytes, then its producer index. */
#define GAUDI_IB_RQ_SIZE	PAGE_ALIGN(GAUDI_IB_MAX_RECV_WR * \
					   GAUDI_NIC_RECV_WQE_SIZE + 4)
/* A port's CQ event queue (4-byte entries, one page). */
#define GAUDI_IB_EQ_ENTRIES	1024
#define GAUDI_IB_EQ_SIZE	(GAUDI_IB_EQ_ENTRIES * 4)
/* A CQ's ring: 2^16 CQEs at most; the card's table has 1024 entries. */
#define GAUDI_IB_MAX_CQE	(BIT(CQT_MAX_LOG) - 1)
#define GAUDI_IB_MAX_CQ		BIT(CQT_CFG_MAX_LOG_ENTRIES)
#define GAUDI_IB_MAX_MR		BIT(MR_CFG_MAX_LOG_ENTRIES)	/* slots */
#define GAUDI_IB_NUM_QPN	(GAUDI_IB_MAX_QPN + 1)
#define GAUDI_IB_MAX_RD_ATOM	16
/* Slots of a QP's staging rings (uapi: GAUDI_IB_UCTX_STAGING_RINGS). */
#define GAUDI_IB_SQ_RING_ENTRIES	1024
#define GAUDI_IB_RQ_RING_ENTRIES	GAUDI_IB_MAX_RECV_WR

struct gaudi_ib_cq;
struct gaudi_ib_mr;
struct gaudi_ib_qp;

/**
 * struct gaudi_ib_port - the data path's state of an ib port
 * @lock: the event queue (@eq_ci, @hw_open changes)
 * @users: QPs from INIT on (gaudi_ib_dev @obj_lock)
 * @hw_open: gaudi.ko serves the port's verbs QPs (@port_open)
 * @need_open: a reset cleared the registers: program them again
 * @hold: the holding the port's mappings belong to
 * @sq_va: the window of its QPs' send queues, at @sq_base
 * @sq_base: see @sq_va
 * @eq: the CQ event queue (DMA-coherent, host memory the NIC writes)
 * @eq_dma: its DMA address
 * @eq_ci: the next event to take (free running)
 */
struct gaudi_ib_port {
	spinlock_t lock;	/* @eq_ci and the queue */
	unsigned int users;
	bool hw_open, need_open;
	struct gaudi_cn_hold *hold;
	struct gaudi_cn_va *sq_va;
	u64 sq_base;
	__le32 *eq;
	dma_addr_t eq_dma;
	u32 eq_ci;
};

/**
 * struct gaudi_ib_dev - one card's RDMA device
 * @ibdev: ib_core's device
 * @rd: gaudi.ko's RDMA interface of the card
 * @cn: the card's NIC
 * @nports: ib ports (the card's enabled NIC ports)
 * @hw_port: the card port of each ib port (ib port n: @hw_port[n - 1])
 * @ib_port: the ib port of each card port, 0 for none
 * @nb: the netdevice notifier that follows gaudi_en's netdevs
 * @rescan: asks ib_core to rescan the GIDs of the ports in @rescan_mask
 *	(outside the notifier: the scan takes the RTNL)
 * @rescan_mask: ib ports (bit n - 1) whose netdev changed
 * @lock: @in_reset, held by the counters' readers
 * @in_reset: gaudi.ko is resetting the card: no register access
 * @registered: ib_register_device() returned, events may go out (read
 *	by the netdevice notifier without the lock)
 * @pd_ida: protection domain numbers
 * @cq_ida: completion queue numbers
 * @mr_ida: region slots (the low bits of a key)
 * @qp_ida: QP numbers
 * @port: per ib port (n - 1): the data path's state
 * @open_ports: ports serving QPs (the interrupt's quick look)
 * @cq_work: takes the ports' CQEs after their interrupt
 * @obj_lock: @mrs, @qp_list, the ports' @users (not in the data path)
 * @mrs: the regions
 * @qp_list: the QPs
 * @mr_lock: @mr_tbl, for the data path
 * @mr_tbl: the region of each slot
 * @qp_lock: @qps
 * @qps: the QP of each number
 * @cq_lock: @cqs
 * @cqs: the CQ of each CQ table entry
 */
struct gaudi_ib_dev {
	struct ib_device ibdev;
	struct gaudi_cn_rdma *rd;
	struct gaudi_cn *cn;
	unsigned int nports;
	u8 hw_port[GAUDI_NIC_NUM_PORTS];
	u8 ib_port[GAUDI_NIC_NUM_PORTS];
	struct notifier_block nb;
	struct work_struct rescan;
	unsigned long rescan_mask;
	struct mutex lock;	/* @in_reset (and the counters' reads) */
	bool in_reset;
	bool registered;
	struct ida pd_ida;
	struct ida cq_ida;
	struct ida mr_ida;
	struct ida qp_ida;
	struct gaudi_ib_port port[GAUDI_NIC_NUM_PORTS];
	unsigned int open_ports;
	struct work_struct cq_work;
	struct mutex obj_lock;	/* @mrs, @qp_list, ports' users */
	struct list_head mrs;
	struct list_head qp_list;
	spinlock_t mr_lock;	/* @mr_tbl */
	struct gaudi_ib_mr *mr_tbl[GAUDI_IB_MAX_MR];
	spinlock_t qp_lock;	/* @qps */
	struct gaudi_ib_qp *qps[GAUDI_IB_NUM_QPN];
	spinlock_t cq_lock;	/* @cqs */
	struct gaudi_ib_cq *cqs[GAUDI_IB_MAX_CQ];
};

/**
 * struct gaudi_ib_ucontext - a verbs user context
 * @ibuc: ib_core's
 * @hold: the handle on the card's holding (gaudi_cn.h)
 */
struct gaudi_ib_ucontext {
	struct ib_ucontext ibuc;
	struct gaudi_cn_hold *hold;
};

/**
 * struct gaudi_ib_pd - a protection domain
 * @ibpd: ib_core's
 * @pdn: its number on the device
 */
struct gaudi_ib_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

static struct gaudi_ib_dev *to_gdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct gaudi_ib_dev, ibdev);
}

static struct gaudi_ib_ucontext *to_guc(struct ib_ucontext *ibuc)
{
	return container_of(ibuc, struct gaudi_ib_ucontext, ibuc);
}

static struct gaudi_ib_pd *to_gpd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct gaudi_ib_pd, ibpd);
}

/* ---- device and ports ------------------------------------------------ */

/* The node GUID: EUI-64 of the first port's MAC (as Soft-RoCE does). */
static __be64 gaudi_ib_guid(const struct gaudi_ib_dev *dev)
{
	const u8 *mac = dev->cn->mac[dev->hw_port[0]];
	u8 g[8] = { mac[0] ^ 2, mac[1], mac[2], 0xff, 0xfe,
		    mac[3], mac[4], mac[5] };

	return cpu_to_be64(get_unaligned_be64(g));
}

static int gaudi_ib_query_device(struct ib_device *ibdev,
				 struct ib_device_attr *attr,
				 struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibdev);

	if (udata->inlen || udata->outlen)
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	/* The IEEE OUI of the ports' MACs, as IB vendor IDs are. */
	attr->vendor_id = dev->cn->mac[dev->hw_port[0]][0] << 16 |
			  dev->cn->mac[dev->hw_port[0]][1] << 8 |
			  dev->cn->mac[dev->hw_port[0]][2];
	attr->vendor_part_id = dev->rd->device_id;
	attr->hw_ver = dev->rd->revision;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_pd = GAUDI_IB_MAX_PD;
	attr->max_pkeys = 1;
	attr->max_qp = GAUDI_IB_MAX_QPN - GAUDI_IB_FIRST_QPN + 1;
	attr->max_qp_wr = GAUDI_IB_MAX_SEND_WR;
	attr->max_send_sge = GAUDI_IB_MAX_SGE;
	attr->max_recv_sge = GAUDI_IB_MAX_SGE;
	attr->max_sge_rd = GAUDI_IB_MAX_SGE;
	attr->max_cq = GAUDI_IB_MAX_CQ;
	attr->max_cqe = GAUDI_IB_MAX_CQE;
	attr->max_mr = GAUDI_IB_MAX_MR;
	attr->max_qp_rd_atom = GAUDI_IB_MAX_RD_ATOM;
	attr->max_qp_init_rd_atom = GAUDI_IB_MAX_RD_ATOM;
	attr->max_res_rd_atom = GAUDI_IB_MAX_RD_ATOM * attr->max_qp;
	attr->atomic_cap = IB_ATOMIC_NONE;
	return 0;
}

static void gaudi_ib_get_fw_str(struct ib_device *ibdev, char *str)
{
	strscpy(str, to_gdev(ibdev)->cn->fw_version, IB_FW_VERSION_NAME_MAX);
}

static struct net_device *port_netdev(struct gaudi_ib_dev *dev, u32 port)
{
	return ib_device_get_netdev(&dev->ibdev, port);
}

static int gaudi_ib_query_port(struct ib_device *ibdev, u32 port,
			       struct ib_port_attr *attr)
{
	struct gaudi_ib_dev *dev = to_gdev(ibdev);
	struct net_device *ndev = port_netdev(dev, port);
	bool up = false;

	/* ib_core cleared *attr. */
	attr->gid_tbl_len = GAUDI_IB_GID_TBL_LEN;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = 1U << 31;
	attr->max_mtu = IB_MTU_4096;
	/* No GSI QP, so no connection manager MADs: no CM_SUP. */
	attr->ip_gids = true;
	attr->max_vl_num = 1;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_EDR;
	if (ndev) {
		up = netif_running(ndev) && netif_oper_up(ndev);
		attr->phys_mtu = ndev->mtu;
		dev_put(ndev);
		ib_get_eth_speed(ibdev, port, &attr->active_speed,
				 &attr->active_width);
	}
	/*
	 * RoCE frames are the engine's, not gaudi_en's raw ring's: the
	 * path MTU is not bound by the Ethernet MTU (rdma.rst).
	 */
	attr->active_mtu = IB_MTU_4096;
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	return 0;
}

static int gaudi_ib_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *imm)
{
	struct ib_port_attr attr = {};
	int ret = ib_query_port(ibdev, port, &attr);

	if (ret)
		return ret;
	imm->pkey_tbl_len = attr.pkey_tbl_len;
	imm->gid_tbl_len = attr.gid_tbl_len;
	/* RoCE v2 only: the engine's frames are UDP 4791. */
	imm->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	imm->max_mad_size = 0;
	return 0;
}

static enum rdma_link_layer gaudi_ib_link_layer(struct ib_device *ibdev,
						u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int gaudi_ib_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			       u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

/* ---- user contexts and protection domains ---------------------------- */

static int gaudi_ib_alloc_ucontext(struct ib_ucontext *ibuc,
				   struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibuc->device);
	struct gaudi_ib_ucontext *uc = to_guc(ibuc);
	struct gaudi_ib_alloc_ucontext_resp resp = {};
	struct gaudi_ib_alloc_ucontext_req req = {};
	int ret;

	if (udata->inlen) {
		ret = ib_copy_from_udata(&req, udata,
					 min(udata->inlen, sizeof(req)));
		if (ret)
			return ret;
		if (req.comp_mask || req.reserved ||
		    !ib_is_udata_cleared(udata, sizeof(req),
					 udata->inlen - min(udata->inlen,
							    sizeof(req)))) {
			ibdev_dbg(&dev->ibdev, "alloc_ucontext: reserved input set\n");
			return -EINVAL;
		}
	}
	ret = dev->rd->ops->hold(dev->rd, &uc->hold);
	if (ret) {
		ibdev_dbg(&dev->ibdev, "alloc_ucontext: card not available: %d\n",
			  ret);
		return ret;
	}
	resp.comp_mask = GAUDI_IB_UCTX_KERNEL_DATAPATH |
			 GAUDI_IB_UCTX_STAGING_RINGS;
	resp.num_ports = dev->nports;
	memcpy(resp.hw_port, dev->hw_port, dev->nports);
	resp.card = dev->cn->card;
	ret = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (ret) {
		dev->rd->ops->unhold(dev->rd, uc->hold);
		uc->hold = NULL;
	}
	return ret;
}

static void gaudi_ib_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct gaudi_ib_dev *dev = to_gdev(ibuc->device);
	struct gaudi_ib_ucontext *uc = to_guc(ibuc);

	if (uc->hold)
		dev->rd->ops->unhold(dev->rd, uc->hold);
	uc->hold = NULL;
}

/*
 * The device goes away with contexts still open: ib_core has destroyed
 * their objects and zapped their mappings, and deallocates them next
 * (which gives the card back); nothing else is left to cut.
 */
static void gaudi_ib_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

static int gaudi_ib_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibpd->device);
	struct gaudi_ib_pd *pd = to_gpd(ibpd);
	struct gaudi_ib_alloc_pd_resp resp = {};
	int id, ret;

	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;
	id = ida_alloc_range(&dev->pd_ida, 1, GAUDI_IB_MAX_PD, GFP_KERNEL);
	if (id < 0)
		return id == -ENOSPC ? -ENOMEM : id;
	pd->pdn = id;
	if (udata && udata->outlen) {
		resp.pdn = pd->pdn;
		ret = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
		if (ret) {
			ida_free(&dev->pd_ida, id);
			return ret;
		}
	}
	return 0;
}

static int gaudi_ib_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	ida_free(&to_gdev(ibpd->device)->pd_ida, to_gpd(ibpd)->pdn);
	return 0;
}

/* ---- hardware counters (rdma statistic) ------------------------------ */

static const struct rdma_stat_desc gaudi_ib_stats[] = {
	{ .name = "tx_pkts", .priv = (void *)ROCE_CNT_TX_PKTS },
	{ .name = "rx_pkts", .priv = (void *)ROCE_CNT_RX_PKTS },
	{ .name = "retransmits", .priv = (void *)ROCE_CNT_RETRANSMITS },
	{ .name = "acks_tx", .priv = (void *)ROCE_CNT_TX_ACKS },
	{ .name = "naks_tx", .priv = (void *)ROCE_CNT_TX_NAKS },
	{ .name = "acks_rx", .priv = (void *)ROCE_CNT_RX_ACKS },
	{ .name = "naks_rx", .priv = (void *)ROCE_CNT_RX_NAKS },
	{ .name = "icrc_errors", .priv = (void *)ROCE_CNT_ICRC_ERRORS },
	{ .name = "bad_frames", .priv = (void *)ROCE_CNT_BAD_FRAMES },
	{ .name = "duplicates", .priv = (void *)ROCE_CNT_DUPLICATES },
	{ .name = "timeouts", .priv = (void *)ROCE_CNT_TIMEOUTS },
	{ .name = "req_qp_errors", .priv = (void *)ROCE_CNT_REQ_QP_ERRORS },
	{ .name = "res_qp_errors", .priv = (void *)ROCE_CNT_RES_QP_ERRORS },
	{ .name = "cq_overflows", .priv = (void *)ROCE_CNT_CQ_OVERFLOWS },
	/* The remote-peer checks' (issue 22) and the verbs operations'. */
	{ .name = "drop_mac", .priv = (void *)ROCE_CNT_DROP_MAC },
	{ .name = "drop_source", .priv = (void *)ROCE_CNT_DROP_SOURCE },
	{ .name = "drop_ack_source", .priv = (void *)ROCE_CNT_DROP_ACK_SOURCE },
	{ .name = "drop_no_qp", .priv = (void *)ROCE_CNT_DROP_NO_QP },
	{ .name = "region_errors", .priv = (void *)ROCE_CNT_REGION_ERRORS },
	{ .name = "addr_refused", .priv = (void *)ROCE_CNT_ADDR_REFUSED },
	{ .name = "rnr_naks_rx", .priv = (void *)ROCE_CNT_RX_RNR_NAKS },
	{ .name = "rnr_retries", .priv = (void *)ROCE_CNT_RNR_RETRIES },
	{ .name = "mtu_errors", .priv = (void *)ROCE_CNT_MTU_ERRORS },
	{ .name = "rnr_naks_tx", .priv = (void *)ROCE_CNT_TX_RNR_NAKS },
	{ .name = "recv_wqes", .priv = (void *)ROCE_CNT_RECV_WQES },
	{ .name = "reads_served", .priv = (void *)ROCE_CNT_READS_SERVED },
	{ .name = "cq_events_lost", .priv = (void *)ROCE_CNT_CQ_EVENTS_LOST },
};

static struct rdma_hw_stats *gaudi_ib_alloc_port_stats(struct ib_device *ibdev,
						       u32 port)
{
	return rdma_alloc_hw_stats_struct(gaudi_ib_stats,
					  ARRAY_SIZE(gaudi_ib_stats),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int gaudi_ib_get_hw_stats(struct ib_device *ibdev,
				 struct rdma_hw_stats *stats, u32 port,
				 int index)
{
	struct gaudi_ib_dev *dev = to_gdev(ibdev);
	struct gaudi_cn *cn = dev->cn;
	unsigned int hw, i;

	if (!port || port > dev->nports)
		return -EINVAL;
	hw = dev->hw_port[port - 1];
	mutex_lock(&dev->lock);
	/* In a reset the registers are out of reach: the last values stay. */
	if (!dev->in_reset)
		for (i = 0; i < ARRAY_SIZE(gaudi_ib_stats); i++)
			stats->value[i] = cn->ops->roce_counter(cn, hw,
				(uintptr_t)gaudi_ib_stats[i].priv);
	mutex_unlock(&dev->lock);
	return ARRAY_SIZE(gaudi_ib_stats);
}

/* ---- the data path's objects ------------------------------------------ */

/*
 * Everything of the data path is in the kernel (uapi/rdma/gaudi_ib_abi.h,
 * "The data path"): the send and receive queues and the CQ rings are
 * DMA-coherent memory of this driver, mapped into the card's MMU for the
 * holder (gaudi_cn.h @va_map), written and read here; post and poll are
 * uverbs commands, whose work requests come in the command or, for a QP
 * with staging rings (uapi GAUDI_IB_UCTX_STAGING_RINGS), from rings the
 * provider maps and writes: a command of no WR is the kick, and each new
 * slot is copied out once and checked as a command's WR is (post_one(),
 * post_recv_one()); the engine never reads a staging ring.  A verbs CQ
 * is an entry of the card's CQ table, whose
 * 32-byte CQEs the engine writes (hw/gaudi1/nic.h, "The verbs
 * operations"); its events come through the port's CQ event queue.
 *
 * The user's memory is an MR: pinned by ib_umem, mapped for the holder
 * at device VA GAUDI_VA_HOST_START + its iova (so that the R_Key and the
 * iova a peer names reach it; the NIC's host range starts at 2^48, above
 * every process address), and entered in the engine's region table of
 * each port for each of the PD's QPs there that is ready to receive
 * (issue 22's table: an entry names one QP and its generation).  Work
 * requests name their local memory by lkey, which this driver checks
 * (PD, bounds, local write for READ) and translates; the peer's by rkey,
 * which the engine checks.
 */

/* One send WQE's bookkeeping: the WR it belongs to. */
struct gaudi_ib_swqe {
	u64 wr_id;
	u32 len;
	u8 opcode;		/* enum ib_wc_opcode */
	bool signaled;
	bool last;		/* of its WR */
};

/**
 * struct gaudi_ib_cq - a completion queue: an entry of the card's CQ table
 * @ibcq: ib_core's
 * @uc: its context (the hold its mapping belongs to)
 * @poll_lock: @ci, @arm and the ring
 * @ring: the engine's ring of 32-byte CQEs, then the consumer record
 *	(DMA-coherent, mapped for the holder at @va_base)
 * @dma: its DMA address
 * @bytes: its size
 * @entries: its CQEs (a power of 2)
 * @va: the mapping
 * @va_base: its device VA
 * @ci: the next CQE (free running)
 * @arm: the last arm sequence written
 * @lock: the members below
 * @wc: the driver's completions (flushes), a ring of @size
 * @size: its room
 * @head: the oldest
 * @count: how many
 * @cqn: its CQ table entry
 */
struct gaudi_ib_cq {
	struct ib_cq ibcq;
	struct gaudi_ib_ucontext *uc;
	spinlock_t poll_lock;	/* @ci, @arm, the ring */
	void *ring;
	dma_addr_t dma;
	size_t bytes;
	u32 entries;
	struct gaudi_cn_va *va;
	u64 va_base;
	u32 ci, arm;
	spinlock_t lock;	/* @wc, @head, @count */
	struct ib_wc *wc;
	u32 size, head, count;
	u32 cqn;
};

/**
 * struct gaudi_ib_mr - a memory region of user memory
 * @ibmr: ib_core's (lkey = rkey = @key)
 * @umem: the pinned pages
 * @va: their mapping for the holder
 * @uc: the context (its hold)
 * @pd: the protection domain
 * @iova: the region's first byte as work requests and peers name it
 * @dva: its device VA
 * @len: bytes
 * @access: IB_ACCESS_*
 * @key: its key (slot in the low bits)
 * @node: in the device's list of regions
 */
struct gaudi_ib_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	struct gaudi_cn_va *va;
	struct gaudi_ib_ucontext *uc;
	struct gaudi_ib_pd *pd;
	u64 iova, dva, len;
	int access;
	u32 key;
	struct list_head node;
};

/**
 * struct gaudi_ib_ring - a staging ring of work requests (uapi
 *	GAUDI_IB_UCTX_STAGING_RINGS): memory of this driver the holder maps
 *	and writes; the engine never reads it
 * @entry: its mmap entry (ib_core's; frees @mem with the last reference)
 * @mem: its slots, then struct gaudi_ib_ring_ctl (vmalloc_user())
 * @size: its bytes
 * @slot: bytes of a slot
 * @entries: slots (a power of 2)
 * @ci: work requests taken (free running; the kernel's, never read back)
 */
struct gaudi_ib_ring {
	struct rdma_user_mmap_entry entry;
	void *mem;
	size_t size;
	u32 slot, entries, ci;
};

/**
 * struct gaudi_ib_qp - an RC queue pair
 * @ibqp: ib_core's
 * @uc: its context
 * @qpn: its number (on the device and on the wire)
 * @state: IBTA state
 * @port: ib port from INIT (0: none)
 * @claimed: the number is claimed on the port (gaudi_cn.h @qp_claim)
 * @rtr: the responder context is written (regions may name the QP)
 * @sig_all: every WR completes (IB_SIGNAL_ALL_WR)
 * @attr: what modify_qp set, for query_qp
 * @src_ip: the source GID's IPv4 address (from RTR)
 * @sq: the send queue (DMA-coherent)
 * @sq_dma: its DMA address
 * @swqe: per WQE: its WR
 * @sq_pi: next WQE to write
 * @sq_done: oldest WQE not completed
 * @rq: the receive queue (DMA-coherent), then its producer index
 * @rq_dma: its DMA address
 * @rq_va: its mapping for the holder, at @rq_base
 * @rq_base: see @rq_va
 * @rq_pi: receive WQEs posted (free running)
 * @rq_done: of them completed
 * @sq_ring: the send staging ring the provider maps, or NULL
 * @rq_ring: the receive staging ring, or NULL
 * @lock: post, modify and the completions' access to the queues
 * @mutex: modify_qp and destroy
 * @node: in the device's QPs
 */
struct gaudi_ib_qp {
	struct ib_qp ibqp;
	struct gaudi_ib_ucontext *uc;
	u32 qpn;
	enum ib_qp_state state;
	u32 port;
	bool claimed, rtr, sig_all;
	struct ib_qp_attr attr;
	u32 src_ip;
	void *sq;
	dma_addr_t sq_dma;
	struct gaudi_ib_swqe *swqe;
	u32 sq_pi, sq_done;
	void *rq;
	dma_addr_t rq_dma;
	struct gaudi_cn_va *rq_va;
	u64 rq_base;
	u32 rq_pi, rq_done;
	struct gaudi_ib_ring *sq_ring, *rq_ring;
	spinlock_t lock;	/* the queues and @state for the data path */
	struct mutex mutex;	/* modify, destroy */
	struct list_head node;
};

static struct gaudi_ib_cq *to_gcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct gaudi_ib_cq, ibcq);
}

static struct gaudi_ib_mr *to_gmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct gaudi_ib_mr, ibmr);
}

static struct gaudi_ib_qp *to_gqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct gaudi_ib_qp, ibqp);
}

static const struct gaudi_cn_rdma_ops *rops(struct gaudi_ib_dev *dev)
{
	return dev->rd->ops;
}

/* Refuse driver input that is not zero (a newer provider's). */
static int udata_in_zero(struct gaudi_ib_dev *dev, struct ib_udata *udata,
			 const char *what)
{
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		ibdev_dbg(&dev->ibdev, "%s: driver input not zero\n", what);
		return -EINVAL;
	}
	return 0;
}

/* ---- completion queues ------------------------------------------------- */

/* A completion of the driver's own (a flush) for @cq. */
static bool cq_push(struct gaudi_ib_cq *cq, const struct ib_wc *wc)
{
	unsigned long flags;
	bool ok = true;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count == cq->size)
		ok = false;
	else
		cq->wc[(cq->head + cq->count++) % cq->size] = *wc;
	spin_unlock_irqrestore(&cq->lock, flags);
	return ok;
}

static void cq_overflow(struct gaudi_ib_dev *dev, struct gaudi_ib_cq *cq)
{
	struct ib_event ev = {
		.device = &dev->ibdev,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};

	ibdev_dbg(&dev->ibdev, "CQ %u overflows\n", cq->cqn);
	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

static void cq_deliver(struct gaudi_ib_dev *dev, struct ib_cq *ibcq,
		       const struct ib_wc *wc)
{
	if (!cq_push(to_gcq(ibcq), wc))
		cq_overflow(dev, to_gcq(ibcq));
}

/* The ring's consumer record, after its CQEs (hw/gaudi1/nic.h). */
static __le32 *cq_record(struct gaudi_ib_cq *cq)
{
	return cq->ring + (size_t)cq->entries * GAUDI_NIC_VCQE_SIZE;
}

static void qp_flush_locked(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp);

/*
 * A CQE of the engine into *@wc; false if it names no outstanding work of
 * a QP that completes into @cq (the ring is the holder's memory too).
 */
static bool cqe_to_wc(struct gaudi_ib_dev *dev, struct gaudi_ib_cq *cq,
		      const __le32 *w, struct ib_wc *wc)
{
	u32 w0 = le32_to_cpu(w[0]), w1 = le32_to_cpu(w[1]);
	u32 w6 = le32_to_cpu(w[6]), qpn = w1 & VCQE_W1_QPN;
	u32 op = w1 >> VCQE_W1_OP_SHIFT, st = w6 & VCQE_W6_STATUS;
	struct gaudi_ib_qp *qp;
	bool ok = false;

	memset(wc, 0, sizeof(*wc));
	if (qpn >= GAUDI_IB_NUM_QPN)
		return false;
	spin_lock(&dev->qp_lock);
	qp = dev->qps[qpn];
	if (!qp)
		goto out;
	spin_lock(&qp->lock);
	wc->qp = &qp->ibqp;
	wc->status = st;
	wc->byte_len = le32_to_cpu(w[2]);
	if (w0 & VCQE_W0_REQUESTER) {
		u32 idx = w0 & VCQE_W0_WQE_INDEX & (GAUDI_IB_SQ_ENTRIES - 1);
		u32 n = (idx - qp->sq_done) & (GAUDI_IB_SQ_ENTRIES - 1);

		if (qp->ibqp.send_cq != &cq->ibcq ||
		    n >= ((qp->sq_pi - qp->sq_done) & (GAUDI_IB_SQ_ENTRIES - 1)))
			goto unlock;
		wc->wr_id = qp->swqe[idx].wr_id;
		wc->opcode = op == CQE_OP_RDMA_READ ? IB_WC_RDMA_READ :
			     op == CQE_OP_SEND ? IB_WC_SEND : IB_WC_RDMA_WRITE;
		qp->sq_done = (idx + 1) & (GAUDI_IB_SQ_ENTRIES - 1);
	} else {
		if (qp->ibqp.recv_cq != &cq->ibcq || qp->rq_pi == qp->rq_done)
			goto unlock;
		wc->wr_id = le32_to_cpu(w[4]) | (u64)le32_to_cpu(w[5]) << 32;
		wc->opcode = op == CQE_OP_RECV_RDMA_IMM ?
			     IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV;
		if (w6 & VCQE_W6_IMM) {
			wc->wc_flags = IB_WC_WITH_IMM;
			wc->ex.imm_data = cpu_to_be32(le32_to_cpu(w[3]));
		}
		qp->rq_done++;
	}
	ok = true;
	/* The engine runs nothing more of a QP after an error. */
	if (st != IB_WC_SUCCESS) {
		wc->vendor_err = (w6 >> VCQE_W6_SYNDROME_SHIFT) & 0xFF;
		if (qp->state != IB_QPS_RESET)
			qp->state = IB_QPS_ERR;
		qp_flush_locked(dev, qp);
	}
unlock:
	spin_unlock(&qp->lock);
out:
	spin_unlock(&dev->qp_lock);
	return ok;
}

static int gaudi_ib_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct gaudi_ib_dev *dev = to_gdev(ibcq->device);
	struct gaudi_ib_cq *cq = to_gcq(ibcq);
	unsigned long flags;
	__le32 *w;
	int n = 0;

	spin_lock_irqsave(&cq->poll_lock, flags);
	while (n < num) {
		w = cq->ring + (size_t)(cq->ci & (cq->entries - 1)) *
			       GAUDI_NIC_VCQE_SIZE;
		if (!(le32_to_cpu(READ_ONCE(w[7])) & VCQE_W7_VALID))
			break;
		dma_rmb();
		if (cqe_to_wc(dev, cq, w, &wc[n]))
			n++;
		WRITE_ONCE(w[7], 0);
		cq->ci++;
		WRITE_ONCE(cq_record(cq)[0], cpu_to_le32(cq->ci));
	}
	spin_unlock_irqrestore(&cq->poll_lock, flags);
	/* Then the driver's own: flushes after an error. */
	spin_lock_irqsave(&cq->lock, flags);
	while (n < num && cq->count) {
		wc[n++] = cq->wc[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int gaudi_ib_req_notify_cq(struct ib_cq *ibcq,
				  enum ib_cq_notify_flags flags)
{
	struct gaudi_ib_cq *cq = to_gcq(ibcq);
	unsigned long irqf;
	__le32 *w;
	int ret = 0;

	/* A new arm sequence asks the engine for one event (no SE: both). */
	spin_lock_irqsave(&cq->poll_lock, irqf);
	WRITE_ONCE(cq_record(cq)[1], cpu_to_le32(++cq->arm));
	mb();	/* the arm before the look at the ring */
	w = cq->ring + (size_t)(cq->ci & (cq->entries - 1)) *
		       GAUDI_NIC_VCQE_SIZE;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    ((le32_to_cpu(READ_ONCE(w[7])) & VCQE_W7_VALID) ||
	     READ_ONCE(cq->count)))
		ret = 1;
	spin_unlock_irqrestore(&cq->poll_lock, irqf);
	return ret;
}

/* The events of ib port @port's event queue: completion handlers. */
static void port_events(struct gaudi_ib_dev *dev, u32 port)
{
	struct gaudi_ib_port *p = &dev->port[port - 1];
	struct gaudi_cn *cn = dev->cn;
	unsigned int hw = dev->hw_port[port - 1];
	unsigned long flags;
	u32 pi, e, cqn;

	spin_lock_irqsave(&p->lock, flags);
	if (!p->hw_open || p->need_open || READ_ONCE(dev->in_reset)) {
		spin_unlock_irqrestore(&p->lock, flags);
		return;
	}
	pi = cn->ops->rreg(cn, GAUDI_NIC_QPC_REG(hw, NIC_QPC_CQ_EQ_PI));
	if (pi - p->eq_ci > GAUDI_IB_EQ_ENTRIES)
		p->eq_ci = pi - GAUDI_IB_EQ_ENTRIES;
	while (p->eq_ci != pi) {
		struct gaudi_ib_cq *cq;

		e = le32_to_cpu(READ_ONCE(p->eq[p->eq_ci &
						(GAUDI_IB_EQ_ENTRIES - 1)]));
		p->eq_ci++;
		cqn = e & CQ_EQ_CQ;
		if (!(e & CQ_EQ_VALID) || !cqn || cqn >= GAUDI_IB_MAX_CQ)
			continue;
		spin_lock(&dev->cq_lock);
		cq = dev->cqs[cqn];
		if (cq && (e & CQ_EQ_OVERFLOW))
			cq_overflow(dev, cq);
		else if (cq && cq->ibcq.comp_handler)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
		spin_unlock(&dev->cq_lock);
	}
	cn->ops->wreg(cn, GAUDI_NIC_QPC_REG(hw, NIC_QPC_CQ_EQ_CI), p->eq_ci);
	spin_unlock_irqrestore(&p->lock, flags);
}

static void gaudi_ib_cq_work(struct work_struct *work)
{
	struct gaudi_ib_dev *dev = container_of(work, struct gaudi_ib_dev,
						cq_work);
	struct gaudi_cn *cn = dev->cn;
	u32 port;

	for (port = 1; port <= dev->nports; port++) {
		if (!READ_ONCE(dev->port[port - 1].hw_open) ||
		    READ_ONCE(dev->in_reset))
			continue;
		/* Re-armed first: an event after this raises the MSI again. */
		cn->ops->wreg(cn, GAUDI_NIC_RXE_REG(dev->hw_port[port - 1],
						    NIC_RXE_CQ_MSI_CAUSE_CLR),
			      ROCE_MSI_CAUSE_EQ);
		port_events(dev, port);
	}
}

/* The card's interrupt (hard interrupt context): events on a port? */
static void gaudi_ib_irq(void *priv)
{
	struct gaudi_ib_dev *dev = priv;
	struct gaudi_cn *cn = dev->cn;
	u32 port;

	/* In a reset the registers are out of reach. */
	if (!READ_ONCE(dev->open_ports) || READ_ONCE(dev->in_reset))
		return;
	for (port = 1; port <= dev->nports; port++) {
		if (!READ_ONCE(dev->port[port - 1].hw_open))
			continue;
		if (cn->ops->rreg(cn, GAUDI_NIC_RXE_REG(dev->hw_port[port - 1],
							NIC_RXE_MSI_CAUSE)) &
		    ROCE_MSI_CAUSE_EQ) {
			queue_work(system_highpri_wq, &dev->cq_work);
			return;
		}
	}
}

static int gaudi_ib_create_cq(struct ib_cq *ibcq,
			      const struct ib_cq_init_attr *attr,
			      struct uverbs_attr_bundle *attrs)
{
	struct gaudi_ib_dev *dev = to_gdev(ibcq->device);
	struct ib_udata *udata = &attrs->driver_udata;
	struct gaudi_ib_ucontext *uc =
		rdma_udata_to_drv_context(udata, struct gaudi_ib_ucontext, ibuc);
	struct gaudi_ib_create_cq_resp resp = {};
	struct gaudi_ib_cq *cq = to_gcq(ibcq);
	dma_addr_t *dma;
	unsigned long i, n;
	int id, ret;

	if (!uc)
		return -EOPNOTSUPP;
	ret = udata_in_zero(dev, udata, "create_cq");
	if (ret)
		return ret;
	if (attr->flags || !attr->cqe || attr->cqe > GAUDI_IB_MAX_CQE ||
	    attr->comp_vector) {
		ibdev_dbg(&dev->ibdev, "create_cq: bad attributes (%u CQEs)\n",
			  attr->cqe);
		return -EINVAL;
	}
	spin_lock_init(&cq->lock);
	spin_lock_init(&cq->poll_lock);
	cq->uc = uc;
	/* Room for every completion its QPs may have: flushes included. */
	cq->entries = roundup_pow_of_two(max(attr->cqe + 1, 2U));
	cq->size = cq->entries;
	cq->bytes = PAGE_ALIGN((size_t)cq->entries * GAUDI_NIC_VCQE_SIZE + 8);
	cq->wc = kvcalloc(cq->size, sizeof(*cq->wc), GFP_KERNEL_ACCOUNT);
	cq->ring = dma_alloc_coherent(dev->cn->dma_dev, cq->bytes, &cq->dma,
				      GFP_KERNEL);
	n = cq->bytes >> PAGE_SHIFT;
	dma = kvmalloc_array(n, sizeof(*dma), GFP_KERNEL);
	ret = -ENOMEM;
	if (!cq->wc || !cq->ring || !dma)
		goto err_free;
	for (i = 0; i < n; i++)
		dma[i] = cq->dma + (dma_addr_t)i * PAGE_SIZE;
	cq->va_base = 0;
	ret = rops(dev)->va_reserve(dev->rd, uc->hold, &cq->va_base, cq->bytes,
				    PAGE_SIZE, false, &cq->va);
	if (ret)
		goto err_free;
	ret = rops(dev)->va_map(dev->rd, uc->hold, cq->va, 0, dma, n);
	if (ret)
		goto err_va;
	id = ida_alloc_range(&dev->cq_ida, 1, GAUDI_IB_MAX_CQ - 1, GFP_KERNEL);
	if (id < 0) {
		ret = id == -ENOSPC ? -ENOMEM : id;
		goto err_va;
	}
	cq->cqn = id;
	ret = rops(dev)->cq_set(dev->rd, uc->hold, cq->cqn, cq->va_base,
				ilog2(cq->entries));
	if (ret) {
		ibdev_dbg(&dev->ibdev, "create_cq: CQ table entry %u: %d\n",
			  cq->cqn, ret);
		goto err_id;
	}
	ibcq->cqe = cq->entries - 1;
	resp.cqn = cq->cqn;
	ret = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (ret)
		goto err_set;
	spin_lock_irq(&dev->cq_lock);
	dev->cqs[cq->cqn] = cq;
	spin_unlock_irq(&dev->cq_lock);
	kvfree(dma);
	return 0;

err_set:
	rops(dev)->cq_clear(dev->rd, uc->hold, cq->cqn);
err_id:
	ida_free(&dev->cq_ida, cq->cqn);
err_va:
	rops(dev)->va_release(dev->rd, uc->hold, cq->va);
err_free:
	kvfree(dma);
	if (cq->ring)
		dma_free_coherent(dev->cn->dma_dev, cq->bytes, cq->ring,
				  cq->dma);
	kvfree(cq->wc);
	return ret;
}

static int gaudi_ib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibcq->device);
	struct gaudi_ib_cq *cq = to_gcq(ibcq);

	/* ib_core refuses while a QP uses it: no CQE comes now. */
	spin_lock_irq(&dev->cq_lock);
	dev->cqs[cq->cqn] = NULL;
	spin_unlock_irq(&dev->cq_lock);
	rops(dev)->cq_clear(dev->rd, cq->uc->hold, cq->cqn);
	rops(dev)->va_release(dev->rd, cq->uc->hold, cq->va);
	dma_free_coherent(dev->cn->dma_dev, cq->bytes, cq->ring, cq->dma);
	ida_free(&dev->cq_ida, cq->cqn);
	kvfree(cq->wc);
	return 0;
}

/* ---- memory regions ----------------------------------------------------- */

static u32 mr_access(int access)
{
	return (access & IB_ACCESS_REMOTE_WRITE ? GAUDI_CN_MR_REMOTE_WRITE : 0) |
	       (access & IB_ACCESS_REMOTE_READ ? GAUDI_CN_MR_REMOTE_READ : 0);
}

/* Enter @mr in @qp's port for @qp (dev->obj_lock held). */
static void mr_bind(struct gaudi_ib_dev *dev, struct gaudi_ib_mr *mr,
		    struct gaudi_ib_qp *qp)
{
	int ret;

	if (!mr_access(mr->access) || !qp->rtr || mr->pd != to_gpd(qp->ibqp.pd))
		return;
	ret = rops(dev)->mr_set(dev->rd, qp->uc->hold,
				dev->hw_port[qp->port - 1], qp->qpn, mr->key,
				mr->dva, mr->len, mr_access(mr->access));
	if (ret)
		ibdev_dbg(&dev->ibdev, "MR 0x%x not reachable by QP %u: %d\n",
			  mr->key, qp->qpn, ret);
}

static void mr_unbind(struct gaudi_ib_dev *dev, struct gaudi_ib_mr *mr,
		      struct gaudi_ib_qp *qp)
{
	if (!mr_access(mr->access) || !qp->rtr || mr->pd != to_gpd(qp->ibqp.pd))
		return;
	rops(dev)->mr_clear(dev->rd, qp->uc->hold, dev->hw_port[qp->port - 1],
			    qp->qpn, mr->key);
}

static struct ib_mr *gaudi_ib_reg_user_mr(struct ib_pd *ibpd, u64 start,
					  u64 length, u64 iova, int access,
					  struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibpd->device);
	struct gaudi_ib_ucontext *uc =
		rdma_udata_to_drv_context(udata, struct gaudi_ib_ucontext, ibuc);
	const int ok = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		       IB_ACCESS_REMOTE_READ | IB_ACCESS_RELAXED_ORDERING;
	struct ib_block_iter biter;
	struct gaudi_ib_mr *mr;
	struct gaudi_ib_qp *qp;
	unsigned long n, i = 0;
	dma_addr_t *dma;
	u64 va;
	int idx, ret;

	if (!uc)
		return ERR_PTR(-EOPNOTSUPP);
	ret = udata_in_zero(dev, udata, "reg_mr");
	if (ret)
		return ERR_PTR(ret);
	if (access & ~ok) {
		ibdev_dbg(&dev->ibdev, "reg_mr: access 0x%x not offered\n",
			  access);
		return ERR_PTR(-EOPNOTSUPP);
	}
	/* The region's pages keep their offsets: iova and start share it. */
	if (!length || (iova & ~PAGE_MASK) != (start & ~PAGE_MASK) ||
	    iova + length < iova ||
	    iova + length > GAUDI_VA_HOST_END - GAUDI_VA_HOST_START - SZ_4G) {
		ibdev_dbg(&dev->ibdev, "reg_mr: bad range 0x%llx+0x%llx (iova 0x%llx)\n",
			  start, length, iova);
		return ERR_PTR(-EINVAL);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(&dev->ibdev, start, length, access);
	if (IS_ERR(mr->umem)) {
		ret = PTR_ERR(mr->umem);
		ibdev_dbg(&dev->ibdev, "reg_mr: cannot pin 0x%llx+0x%llx: %d\n",
			  start, length, ret);
		goto err_free;
	}
	n = ib_umem_num_dma_blocks(mr->umem, PAGE_SIZE);
	dma = kvmalloc_array(n, sizeof(*dma), GFP_KERNEL);
	if (!dma) {
		ret = -ENOMEM;
		goto err_umem;
	}
	rdma_umem_for_each_dma_block(mr->umem, &biter, PAGE_SIZE)
		dma[i++] = rdma_block_iter_dma_address(&biter);
	mr->uc = uc;
	mr->pd = to_gpd(ibpd);
	mr->iova = iova;
	mr->len = length;
	mr->access = access;
	mr->dva = GAUDI_VA_HOST_START + iova;
	va = mr->dva & PAGE_MASK;
	ret = rops(dev)->va_reserve(dev->rd, uc->hold, &va,
				    (u64)n << PAGE_SHIFT, PAGE_SIZE, true,
				    &mr->va);
	if (!ret) {
		ret = rops(dev)->va_map(dev->rd, uc->hold, mr->va, 0, dma, n);
		if (ret)
			rops(dev)->va_release(dev->rd, uc->hold, mr->va);
	}
	kvfree(dma);
	if (ret) {
		/* Overlapping pages of another MR are in use (-EBUSY). */
		ibdev_dbg(&dev->ibdev, "reg_mr: cannot map at 0x%llx: %d\n",
			  va, ret);
		goto err_umem;
	}
	idx = ida_alloc_range(&dev->mr_ida, 0, GAUDI_IB_MAX_MR - 1,
			      GFP_KERNEL);
	if (idx < 0) {
		ret = idx == -ENOSPC ? -ENOMEM : idx;
		goto err_va;
	}
	/* Issue 22's keys: the slot in the low bits, random above. */
	do {
		mr->key = (get_random_u32() & ~(GAUDI_IB_MAX_MR - 1)) | idx;
	} while (!(mr->key & ~(GAUDI_IB_MAX_MR - 1)));
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	mr->ibmr.length = length;
	mr->ibmr.iova = iova;
	mutex_lock(&dev->obj_lock);
	list_add(&mr->node, &dev->mrs);
	spin_lock(&dev->mr_lock);
	dev->mr_tbl[idx] = mr;
	spin_unlock(&dev->mr_lock);
	list_for_each_entry(qp, &dev->qp_list, node)
		mr_bind(dev, mr, qp);
	mutex_unlock(&dev->obj_lock);
	return &mr->ibmr;

err_va:
	rops(dev)->va_release(dev->rd, uc->hold, mr->va);
err_umem:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(ret);
}

static int gaudi_ib_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibmr->device);
	struct gaudi_ib_mr *mr = to_gmr(ibmr);
	struct gaudi_ib_qp *qp;

	/* The engine's entries go, then the mapping, then the pins. */
	mutex_lock(&dev->obj_lock);
	list_del(&mr->node);
	spin_lock(&dev->mr_lock);
	dev->mr_tbl[mr->key & (GAUDI_IB_MAX_MR - 1)] = NULL;
	spin_unlock(&dev->mr_lock);
	list_for_each_entry(qp, &dev->qp_list, node)
		mr_unbind(dev, mr, qp);
	mutex_unlock(&dev->obj_lock);
	rops(dev)->va_release(dev->rd, mr->uc->hold, mr->va);
	ib_umem_release(mr->umem);
	ida_free(&dev->mr_ida, mr->key & (GAUDI_IB_MAX_MR - 1));
	kfree(mr);
	return 0;
}

/*
 * The translation of [@addr, @addr + @len) of the MR of @lkey for @qp (its
 * PD, bounds, @need access) into the device VA in *@dva; false if refused.
 */
static bool mr_translate(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
			 u32 lkey, u64 addr, u32 len, int need, u64 *dva)
{
	struct gaudi_ib_mr *mr;
	bool ok = false;

	spin_lock(&dev->mr_lock);
	mr = dev->mr_tbl[lkey & (GAUDI_IB_MAX_MR - 1)];
	if (mr && mr->key == lkey && mr->pd == to_gpd(qp->ibqp.pd) &&
	    addr >= mr->iova && len <= mr->len &&
	    addr - mr->iova <= mr->len - len &&
	    (mr->access & need) == need) {
		*dva = mr->dva + (addr - mr->iova);
		ok = true;
	}
	spin_unlock(&dev->mr_lock);
	return ok;
}

/* ---- ports of the data path -------------------------------------------- */

/*
 * A port serves QPs from the first QP's INIT to the last one's end: the
 * window of its QPs' send queues is mapped for the holder, its CQ event
 * queue allocated, and gaudi.ko programs them (@port_open).  After a reset the
 * registers are back at zero: the next QP's INIT programs them again.
 * dev->obj_lock is held.
 */
static int port_get(struct gaudi_ib_dev *dev, u32 port,
		    struct gaudi_ib_ucontext *uc)
{
	struct gaudi_ib_port *p = &dev->port[port - 1];
	unsigned int hw = dev->hw_port[port - 1];
	unsigned long flags;
	int ret;

	if (p->users && !p->need_open) {
		p->users++;
		return 0;
	}
	if (!p->users) {
		/* The event queue is host memory the NIC writes (not mapped). */
		p->eq = dma_alloc_coherent(dev->cn->dma_dev, GAUDI_IB_EQ_SIZE,
					   &p->eq_dma, GFP_KERNEL);
		if (!p->eq)
			return -ENOMEM;
		p->hold = uc->hold;
		p->sq_base = 0;
		ret = rops(dev)->va_reserve(dev->rd, p->hold, &p->sq_base,
					    (u64)GAUDI_IB_NUM_QPN *
					    GAUDI_IB_SQ_SIZE, GAUDI_IB_SQ_SIZE,
					    false, &p->sq_va);
		if (ret)
			goto err_eq;
	}
	memset(p->eq, 0, GAUDI_IB_EQ_SIZE);
	ret = rops(dev)->port_open(dev->rd, p->hold, hw, p->sq_base,
				   GAUDI_IB_SQ_ENTRIES,
				   dev->cn->host_base + p->eq_dma,
				   GAUDI_IB_EQ_ENTRIES);
	if (ret) {
		ibdev_dbg(&dev->ibdev, "port %u cannot serve verbs: %d\n",
			  port, ret);
		if (p->users)
			return ret;
		goto err_sq;
	}
	spin_lock_irqsave(&p->lock, flags);
	p->eq_ci = 0;
	p->need_open = false;
	WRITE_ONCE(p->hw_open, true);
	spin_unlock_irqrestore(&p->lock, flags);
	if (!p->users++)
		WRITE_ONCE(dev->open_ports, dev->open_ports + 1);
	return 0;

err_sq:
	rops(dev)->va_release(dev->rd, p->hold, p->sq_va);
err_eq:
	dma_free_coherent(dev->cn->dma_dev, GAUDI_IB_EQ_SIZE, p->eq,
			  p->eq_dma);
	p->eq = NULL;
	return ret;
}

static void port_put(struct gaudi_ib_dev *dev, u32 port)
{
	struct gaudi_ib_port *p = &dev->port[port - 1];
	unsigned long flags;

	if (--p->users)
		return;
	rops(dev)->port_close(dev->rd, p->hold, dev->hw_port[port - 1]);
	spin_lock_irqsave(&p->lock, flags);
	WRITE_ONCE(p->hw_open, false);
	spin_unlock_irqrestore(&p->lock, flags);
	WRITE_ONCE(dev->open_ports, dev->open_ports - 1);
	flush_work(&dev->cq_work);
	rops(dev)->va_release(dev->rd, p->hold, p->sq_va);
	dma_free_coherent(dev->cn->dma_dev, GAUDI_IB_EQ_SIZE, p->eq,
			  p->eq_dma);
	p->eq = NULL;
}

/* ---- queue pairs -------------------------------------------------------- */

/**
 * ring_create() - a staging ring for @uc's provider to map
 * @uc: the context (its mmap offsets)
 * @slot: bytes of a slot (a multiple of 8)
 * @entries: slots (a power of 2)
 * @offset: its mmap offset, out
 * @size: its bytes, out
 *
 * Return: the ring or an ERR_PTR().
 */
static struct gaudi_ib_ring *ring_create(struct gaudi_ib_ucontext *uc,
					 u32 slot, u32 entries, u64 *offset,
					 u32 *size)
{
	struct gaudi_ib_ring *r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!r)
		return ERR_PTR(-ENOMEM);
	r->slot = slot;
	r->entries = entries;
	r->size = PAGE_ALIGN((size_t)slot * entries +
			     sizeof(struct gaudi_ib_ring_ctl));
	r->mem = vmalloc_user(r->size);
	if (!r->mem) {
		kfree(r);
		return ERR_PTR(-ENOMEM);
	}
	ret = rdma_user_mmap_entry_insert(&uc->ibuc, &r->entry, r->size);
	if (ret) {
		vfree(r->mem);
		kfree(r);
		return ERR_PTR(ret);
	}
	*offset = rdma_user_mmap_get_offset(&r->entry);
	*size = r->size;
	return r;
}

/**
 * ring_destroy() - no new mapping of a ring
 * @r: the ring, or NULL
 *
 * It is freed with its entry's last reference (gaudi_ib_mmap_free()).
 */
static void ring_destroy(struct gaudi_ib_ring *r)
{
	if (r)
		rdma_user_mmap_entry_remove(&r->entry);
}

/**
 * gaudi_ib_mmap_free() - ib_core's last reference of a ring's entry is gone
 * @entry: the entry
 */
static void gaudi_ib_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct gaudi_ib_ring *r = container_of(entry, struct gaudi_ib_ring,
					       entry);

	/* A mapping that outlives it keeps its pages (their references). */
	vfree(r->mem);
	kfree(r);
}

/**
 * gaudi_ib_mmap() - a context's mmap: a staging ring of one of its QPs
 * @ibuc: the context
 * @vma: the mapping: shared, the size of the ring at its offset
 *
 * Return: 0, or -EINVAL for anything but a ring of @ibuc.
 */
static int gaudi_ib_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *e = rdma_user_mmap_entry_get(ibuc, vma);
	struct gaudi_ib_ring *r;
	int ret;

	if (!e) {
		ibdev_dbg(ibuc->device, "mmap: no ring at 0x%lx of this size\n",
			  vma->vm_pgoff);
		return -EINVAL;
	}
	r = container_of(e, struct gaudi_ib_ring, entry);
	ret = remap_vmalloc_range(vma, r->mem, 0);
	rdma_user_mmap_entry_put(e);
	return ret;
}

/**
 * ring_ctl() - a ring's indexes, after its slots
 * @r: the ring
 *
 * Return: the mapped struct gaudi_ib_ring_ctl.
 */
static struct gaudi_ib_ring_ctl *ring_ctl(const struct gaudi_ib_ring *r)
{
	return r->mem + (size_t)r->slot * r->entries;
}

/**
 * ring_read() - one slot of a ring, read once
 * @r: the ring
 * @i: the slot's index (free running)
 * @to: the copy, @r's slot bytes
 *
 * A word at a time: what is checked and used is this copy, whatever the
 * user writes into the ring meanwhile.
 */
static void ring_read(const struct gaudi_ib_ring *r, u32 i, u64 *to)
{
	const u64 *from = r->mem + (size_t)(i & (r->entries - 1)) * r->slot;
	u32 n;

	for (n = 0; n < r->slot / sizeof(u64); n++)
		to[n] = READ_ONCE(from[n]);
}

/**
 * ring_pending() - how many new work requests a ring has
 * @dev: the device
 * @qp: the ring's QP
 * @r: the ring
 *
 * Its user-written producer index against the kernel's consumer index.
 *
 * Return: the count, or -EINVAL for an index behind the kernel's or more
 * than the ring holds ahead of it.
 */
static int ring_pending(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
			const struct gaudi_ib_ring *r)
{
	u32 n = READ_ONCE(ring_ctl(r)->pi) - r->ci;

	if (n > r->entries) {
		ibdev_dbg(&dev->ibdev, "QP %u: staging ring index %u WRs past %u\n",
			  qp->qpn, n, r->ci);
		return -EINVAL;
	}
	return n;
}

static int gaudi_ib_create_qp(struct ib_qp *ibqp,
			      struct ib_qp_init_attr *init,
			      struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibqp->device);
	struct gaudi_ib_ucontext *uc =
		rdma_udata_to_drv_context(udata, struct gaudi_ib_ucontext, ibuc);
	struct gaudi_ib_create_qp_resp resp = {};
	struct gaudi_ib_create_qp_req req = {};
	dma_addr_t dma[GAUDI_IB_RQ_SIZE / PAGE_SIZE];
	struct gaudi_ib_qp *qp = to_gqp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	unsigned int i;
	int id, ret;

	if (!uc)
		return -EOPNOTSUPP;
	if (udata->inlen) {
		ret = ib_copy_from_udata(&req, udata,
					 min(udata->inlen, sizeof(req)));
		if (ret)
			return ret;
		if ((req.comp_mask & ~(GAUDI_IB_QP_SQ_RING |
				       GAUDI_IB_QP_RQ_RING)) || req.reserved ||
		    !ib_is_udata_cleared(udata, sizeof(req),
					 udata->inlen - min(udata->inlen,
							    sizeof(req)))) {
			ibdev_dbg(&dev->ibdev, "create_qp: reserved input set\n");
			return -EINVAL;
		}
	}
	if (init->qp_type != IB_QPT_RC || init->srq || init->create_flags ||
	    init->rwq_ind_tbl || !init->send_cq || !init->recv_cq) {
		ibdev_dbg(&dev->ibdev, "create_qp: RC QPs without SRQ only\n");
		return -EOPNOTSUPP;
	}
	if (cap->max_send_wr > GAUDI_IB_MAX_SEND_WR ||
	    cap->max_recv_wr > GAUDI_IB_MAX_RECV_WR ||
	    cap->max_send_sge > GAUDI_IB_MAX_SGE ||
	    cap->max_recv_sge > GAUDI_IB_MAX_SGE || cap->max_inline_data) {
		ibdev_dbg(&dev->ibdev, "create_qp: capabilities beyond the device's\n");
		return -EINVAL;
	}
	if (req.comp_mask && udata->outlen < sizeof(resp)) {
		ibdev_dbg(&dev->ibdev, "create_qp: rings without room for their offsets\n");
		return -EINVAL;
	}
	qp->sq = dma_alloc_coherent(dev->cn->dma_dev, GAUDI_IB_SQ_SIZE,
				    &qp->sq_dma, GFP_KERNEL);
	if (!qp->sq)
		return -ENOMEM;
	qp->swqe = kvcalloc(GAUDI_IB_SQ_ENTRIES, sizeof(*qp->swqe),
			    GFP_KERNEL_ACCOUNT);
	/* The receive queue: the engine reads it through the MMU. */
	qp->rq = dma_alloc_coherent(dev->cn->dma_dev, GAUDI_IB_RQ_SIZE,
				    &qp->rq_dma, GFP_KERNEL);
	if (!qp->swqe || !qp->rq) {
		ret = -ENOMEM;
		goto err_free;
	}
	if (req.comp_mask & GAUDI_IB_QP_SQ_RING) {
		qp->sq_ring = ring_create(uc, sizeof(struct gaudi_ib_ring_swqe),
					  GAUDI_IB_SQ_RING_ENTRIES,
					  &resp.sq_ring_offset,
					  &resp.sq_ring_size);
		if (IS_ERR(qp->sq_ring)) {
			ret = PTR_ERR(qp->sq_ring);
			qp->sq_ring = NULL;
			goto err_free;
		}
		resp.sq_ring_entries = GAUDI_IB_SQ_RING_ENTRIES;
	}
	if (req.comp_mask & GAUDI_IB_QP_RQ_RING) {
		qp->rq_ring = ring_create(uc, sizeof(struct gaudi_ib_ring_rwqe),
					  GAUDI_IB_RQ_RING_ENTRIES,
					  &resp.rq_ring_offset,
					  &resp.rq_ring_size);
		if (IS_ERR(qp->rq_ring)) {
			ret = PTR_ERR(qp->rq_ring);
			qp->rq_ring = NULL;
			goto err_free;
		}
		resp.rq_ring_entries = GAUDI_IB_RQ_RING_ENTRIES;
	}
	resp.comp_mask = req.comp_mask;
	for (i = 0; i < ARRAY_SIZE(dma); i++)
		dma[i] = qp->rq_dma + (dma_addr_t)i * PAGE_SIZE;
	qp->rq_base = 0;
	ret = rops(dev)->va_reserve(dev->rd, uc->hold, &qp->rq_base,
				    GAUDI_IB_RQ_SIZE, PAGE_SIZE, false,
				    &qp->rq_va);
	if (ret)
		goto err_free;
	ret = rops(dev)->va_map(dev->rd, uc->hold, qp->rq_va, 0, dma,
				ARRAY_SIZE(dma));
	if (ret)
		goto err_va;
	id = ida_alloc_range(&dev->qp_ida, GAUDI_IB_FIRST_QPN,
			     GAUDI_IB_MAX_QPN, GFP_KERNEL);
	if (id < 0) {
		ret = id == -ENOSPC ? -ENOMEM : id;
		goto err_va;
	}
	qp->qpn = id;
	qp->uc = uc;
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	spin_lock_init(&qp->lock);
	mutex_init(&qp->mutex);
	ibqp->qp_num = qp->qpn;
	cap->max_send_wr = GAUDI_IB_MAX_SEND_WR;
	cap->max_recv_wr = GAUDI_IB_MAX_RECV_WR;
	cap->max_send_sge = GAUDI_IB_MAX_SGE;
	cap->max_recv_sge = GAUDI_IB_MAX_SGE;
	cap->max_inline_data = 0;
	resp.qpn = qp->qpn;
	resp.max_send_wr = cap->max_send_wr;
	resp.max_recv_wr = cap->max_recv_wr;
	ret = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (ret)
		goto err_id;
	mutex_lock(&dev->obj_lock);
	list_add(&qp->node, &dev->qp_list);
	mutex_unlock(&dev->obj_lock);
	spin_lock_irq(&dev->qp_lock);
	dev->qps[qp->qpn] = qp;
	spin_unlock_irq(&dev->qp_lock);
	return 0;

err_id:
	ida_free(&dev->qp_ida, qp->qpn);
err_va:
	rops(dev)->va_release(dev->rd, uc->hold, qp->rq_va);
err_free:
	ring_destroy(qp->rq_ring);
	ring_destroy(qp->sq_ring);
	if (qp->rq)
		dma_free_coherent(dev->cn->dma_dev, GAUDI_IB_RQ_SIZE, qp->rq,
				  qp->rq_dma);
	kvfree(qp->swqe);
	dma_free_coherent(dev->cn->dma_dev, GAUDI_IB_SQ_SIZE, qp->sq,
			  qp->sq_dma);
	return ret;
}

/* The QP's send-queue slot of its port's window. */
static u64 qp_sq_off(const struct gaudi_ib_qp *qp)
{
	return (u64)qp->qpn * GAUDI_IB_SQ_SIZE;
}

/*
 * Give the QP's number on its port back (to RESET, destroy): its regions
 * go with it, then its send queue leaves the MMU.  dev->obj_lock and
 * qp->mutex are held.
 */
static void qp_unclaim(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp)
{
	struct gaudi_ib_port *p;
	unsigned long flags;

	if (!qp->claimed)
		return;
	p = &dev->port[qp->port - 1];
	rops(dev)->qp_release(dev->rd, qp->uc->hold,
			      dev->hw_port[qp->port - 1], qp->qpn);
	rops(dev)->va_unmap(dev->rd, p->hold, p->sq_va, qp_sq_off(qp),
			    GAUDI_IB_SQ_SIZE >> PAGE_SHIFT);
	spin_lock_irqsave(&qp->lock, flags);
	qp->claimed = false;
	qp->rtr = false;
	qp->port = 0;
	qp->sq_pi = 0;
	qp->sq_done = 0;
	qp->rq_pi = 0;
	qp->rq_done = 0;
	spin_unlock_irqrestore(&qp->lock, flags);
	port_put(dev, p - dev->port + 1);
}

/* RESET -> INIT: the number on the port, the send queue in its slot. */
static int qp_claim(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
		    u32 port)
{
	dma_addr_t dma[GAUDI_IB_SQ_SIZE / PAGE_SIZE];
	struct gaudi_ib_port *p = &dev->port[port - 1];
	struct gaudi_cn_qp_ext ext;
	unsigned int i;
	int ret;

	ret = port_get(dev, port, qp->uc);
	if (ret)
		return ret;
	/* A new receive queue: empty, its producer index 0. */
	memset(qp->rq, 0, GAUDI_IB_RQ_SIZE);
	ext.rq = qp->rq_base;
	ext.rq_log = ilog2(GAUDI_IB_MAX_RECV_WR);
	ext.scq = to_gcq(qp->ibqp.send_cq)->cqn;
	ext.rcq = to_gcq(qp->ibqp.recv_cq)->cqn;
	ret = rops(dev)->qp_claim(dev->rd, qp->uc->hold,
				  dev->hw_port[port - 1], qp->qpn, &ext);
	if (ret) {
		ibdev_dbg(&dev->ibdev, "QP %u: number taken on port %u: %d\n",
			  qp->qpn, port, ret);
		goto err_port;
	}
	memset(qp->sq, 0, GAUDI_IB_SQ_SIZE);
	for (i = 0; i < ARRAY_SIZE(dma); i++)
		dma[i] = qp->sq_dma + (dma_addr_t)i * PAGE_SIZE;
	ret = rops(dev)->va_map(dev->rd, p->hold, p->sq_va, qp_sq_off(qp), dma,
				ARRAY_SIZE(dma));
	if (ret)
		goto err_claim;
	qp->port = port;
	qp->claimed = true;
	return 0;

err_claim:
	rops(dev)->qp_release(dev->rd, qp->uc->hold, dev->hw_port[port - 1],
			      qp->qpn);
err_port:
	port_put(dev, port);
	return ret;
}

/* The IPv4 address of a RoCE v2 GID (IPv4-mapped), or false. */
static bool gid_ipv4(const union ib_gid *gid, u32 *ip)
{
	const struct in6_addr *a = (const struct in6_addr *)gid->raw;

	if (!ipv6_addr_v4mapped(a))
		return false;
	*ip = be32_to_cpu(a->s6_addr32[3]);
	return true;
}

/* INIT -> RTR: the responder context from the address vector. */
static int qp_to_rtr(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
		     const struct ib_qp_attr *attr)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(&attr->ah_attr);
	const struct ib_gid_attr *sgid = grh->sgid_attr;
	struct gaudi_cn_res res = {};
	struct gaudi_ib_mr *mr;
	int ret;

	if (!(rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH) || !sgid ||
	    sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
	    !gid_ipv4(&sgid->gid, &res.src_ip) ||
	    !gid_ipv4(&grh->dgid, &res.dst_ip) ||
	    rdma_ah_get_port_num(&attr->ah_attr) != qp->port ||
	    attr->dest_qp_num > 0xFFFFFF || attr->rq_psn > 0xFFFFFF ||
	    attr->max_dest_rd_atomic > GAUDI_IB_MAX_RD_ATOM) {
		ibdev_dbg(&dev->ibdev, "QP %u: RTR needs a RoCE v2 IPv4 path on its port\n",
			  qp->qpn);
		return -EINVAL;
	}
	memcpy(res.dst_mac, attr->ah_attr.roce.dmac, ETH_ALEN);
	res.dst_qpn = attr->dest_qp_num;
	res.epsn = attr->rq_psn;
	/* RTR's: a QP that stays at RTR receives at them (perftest's server). */
	res.path_mtu = ib_mtu_enum_to_int(attr->path_mtu);
	res.min_rnr = attr->min_rnr_timer;
	ret = rops(dev)->qp_set_res(dev->rd, qp->uc->hold,
				    dev->hw_port[qp->port - 1], qp->qpn, &res);
	if (ret)
		return ret;
	qp->rtr = true;
	/* The PD's regions may now be reached through this QP. */
	list_for_each_entry(mr, &dev->mrs, node)
		mr_bind(dev, mr, qp);
	return 0;
}

/* The requester context of @qp from its attributes (RTR's path). */
static void qp_req(const struct gaudi_ib_qp *qp, struct gaudi_cn_req *req,
		   u32 psn, u32 retry, u32 rnr_retry, u32 rkey)
{
	const struct ib_qp_attr *a = &qp->attr;

	memset(req, 0, sizeof(*req));
	req->dst_qpn = a->dest_qp_num;
	gid_ipv4(&rdma_ah_read_grh(&a->ah_attr)->dgid, &req->dst_ip);
	memcpy(req->dst_mac, a->ah_attr.roce.dmac, ETH_ALEN);
	req->src_ip = qp->src_ip;
	req->psn = psn;
	req->timeout_retry = retry;
	req->path_mtu = ib_mtu_enum_to_int(a->path_mtu);
	req->rnr_retry = rnr_retry;
	req->remote_key = rkey;
}

/* RTR -> RTS: the requester context. */
static int qp_to_rts(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
		     const struct ib_qp_attr *attr, int mask)
{
	struct gaudi_cn_req req;
	int ret;

	if (attr->sq_psn > 0xFFFFFF || attr->retry_cnt > 7 ||
	    attr->rnr_retry > 7 || attr->max_rd_atomic > GAUDI_IB_MAX_RD_ATOM) {
		ibdev_dbg(&dev->ibdev, "QP %u: bad RTS attributes\n", qp->qpn);
		return -EINVAL;
	}
	qp_req(qp, &req, attr->sq_psn,
	       mask & IB_QP_RETRY_CNT ? attr->retry_cnt : 7,
	       mask & IB_QP_RNR_RETRY ? attr->rnr_retry : 7, 0);
	req.min_rnr = qp->attr.min_rnr_timer;
	ret = rops(dev)->qp_set_req(dev->rd, qp->uc->hold,
				    dev->hw_port[qp->port - 1], qp->qpn, &req);
	return ret;
}

/* The receive queue's producer index, after its WQEs. */
static __le32 *rq_pi_word(struct gaudi_ib_qp *qp)
{
	return qp->rq + GAUDI_IB_MAX_RECV_WR * GAUDI_NIC_RECV_WQE_SIZE;
}

/*
 * Every outstanding WR of @qp completes with IB_WC_WR_FLUSH_ERR, after
 * what the engine completed (to ERR).  qp->lock is held.
 */
static void qp_flush_locked(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp)
{
	struct ib_wc wc = { .status = IB_WC_WR_FLUSH_ERR, .qp = &qp->ibqp };

	while (qp->sq_done != qp->sq_pi) {
		struct gaudi_ib_swqe *s = &qp->swqe[qp->sq_done];

		qp->sq_done = (qp->sq_done + 1) & (GAUDI_IB_SQ_ENTRIES - 1);
		wc.wr_id = s->wr_id;
		wc.opcode = s->opcode;
		cq_deliver(dev, qp->ibqp.send_cq, &wc);
	}
	while (qp->rq_done != qp->rq_pi) {
		const __le32 *w = qp->rq + (qp->rq_done %
					    GAUDI_IB_MAX_RECV_WR) *
					   GAUDI_NIC_RECV_WQE_SIZE;

		wc.wr_id = le32_to_cpu(w[4]) | (u64)le32_to_cpu(w[5]) << 32;
		wc.opcode = IB_WC_RECV;
		qp->rq_done++;
		cq_deliver(dev, qp->ibqp.recv_cq, &wc);
	}
}

static void qp_flush(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	qp_flush_locked(dev, qp);
	spin_unlock_irqrestore(&qp->lock, flags);
}

static int gaudi_ib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			      int mask, struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibqp->device);
	struct gaudi_ib_qp *qp = to_gqp(ibqp);
	enum ib_qp_state cur, next;
	unsigned long flags;
	int ret;

	ret = udata_in_zero(dev, udata, "modify_qp");
	if (ret)
		return ret;
	if (mask & ~(IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS |
		     IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_AV |
		     IB_QP_PATH_MTU | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
		     IB_QP_RNR_RETRY | IB_QP_RQ_PSN | IB_QP_MAX_QP_RD_ATOMIC |
		     IB_QP_MIN_RNR_TIMER | IB_QP_SQ_PSN |
		     IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_DEST_QPN)) {
		ibdev_dbg(&dev->ibdev, "QP %u: attributes 0x%x not offered\n",
			  qp->qpn, mask);
		return -EOPNOTSUPP;
	}
	mutex_lock(&dev->obj_lock);
	mutex_lock(&qp->mutex);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	ret = -EINVAL;
	if (cur != qp->state ||
	    !ib_modify_qp_is_ok(cur, next, IB_QPT_RC, mask)) {
		ibdev_dbg(&dev->ibdev, "QP %u: %d -> %d with mask 0x%x refused\n",
			  qp->qpn, cur, next, mask);
		goto out;
	}
	if (next == IB_QPS_SQD || next == IB_QPS_SQE) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (((mask & IB_QP_PORT) &&
	     (!attr->port_num || attr->port_num > dev->nports)) ||
	    ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index) ||
	    ((mask & IB_QP_ACCESS_FLAGS) &&
	     (attr->qp_access_flags & ~(IB_ACCESS_LOCAL_WRITE |
					IB_ACCESS_REMOTE_WRITE |
					IB_ACCESS_REMOTE_READ))) ||
	    ((mask & IB_QP_PATH_MTU) &&
	     (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096)) ||
	    ((mask & IB_QP_PORT) && qp->claimed &&
	     attr->port_num != qp->port))
		goto out;

	if (next == IB_QPS_RESET) {
		qp_unclaim(dev, qp);
		memset(&qp->attr, 0, sizeof(qp->attr));
		ret = 0;
		goto set;
	}
	if (next == IB_QPS_ERR) {
		if (qp->claimed)
			rops(dev)->qp_reset(dev->rd, qp->uc->hold,
					    dev->hw_port[qp->port - 1],
					    qp->qpn);
		spin_lock_irqsave(&qp->lock, flags);
		qp->state = IB_QPS_ERR;
		spin_unlock_irqrestore(&qp->lock, flags);
		qp_flush(dev, qp);
		ret = 0;
		goto out;
	}
	if (cur == IB_QPS_RESET && next == IB_QPS_INIT) {
		ret = qp_claim(dev, qp, attr->port_num);
		if (ret)
			goto out;
		qp->attr.port_num = attr->port_num;
	}
	if (mask & IB_QP_PATH_MTU)
		qp->attr.path_mtu = attr->path_mtu;
	if (cur == IB_QPS_INIT && next == IB_QPS_RTR) {
		qp->attr.path_mtu = attr->path_mtu;
		ret = qp_to_rtr(dev, qp, attr);
		if (ret)
			goto out;
		qp->attr.ah_attr = attr->ah_attr;
		gid_ipv4(&rdma_ah_read_grh(&attr->ah_attr)->sgid_attr->gid,
			 &qp->src_ip);
		/* ib_core's reference on the source GID stays its own. */
		qp->attr.ah_attr.grh.sgid_attr = NULL;
		qp->attr.dest_qp_num = attr->dest_qp_num;
		qp->attr.rq_psn = attr->rq_psn;
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	}
	if (cur == IB_QPS_RTR && next == IB_QPS_RTS) {
		ret = qp_to_rts(dev, qp, attr, mask);
		if (ret)
			goto out;
		qp->attr.sq_psn = attr->sq_psn;
		qp->attr.timeout = attr->timeout;
		qp->attr.retry_cnt = attr->retry_cnt;
		qp->attr.rnr_retry = attr->rnr_retry;
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
	}
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	ret = 0;
set:
	spin_lock_irqsave(&qp->lock, flags);
	qp->state = next;
	spin_unlock_irqrestore(&qp->lock, flags);
out:
	mutex_unlock(&qp->mutex);
	mutex_unlock(&dev->obj_lock);
	return ret;
}

static int gaudi_ib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			     int mask, struct ib_qp_init_attr *init)
{
	struct gaudi_ib_dev *dev = to_gdev(ibqp->device);
	struct gaudi_ib_qp *qp = to_gqp(ibqp);
	struct gaudi_cn_qp_state st;

	mutex_lock(&qp->mutex);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	/* The engine stops a QP on an error of its own (NAK, retries). */
	if (qp->claimed && qp->state == IB_QPS_RTS &&
	    !rops(dev)->qp_state(dev->rd, qp->uc->hold,
				 dev->hw_port[qp->port - 1], qp->qpn, &st) &&
	    (st.req_error || st.res_error))
		attr->qp_state = IB_QPS_ERR;
	attr->cap.max_send_wr = GAUDI_IB_MAX_SEND_WR;
	attr->cap.max_recv_wr = GAUDI_IB_MAX_RECV_WR;
	attr->cap.max_send_sge = GAUDI_IB_MAX_SGE;
	attr->cap.max_recv_sge = GAUDI_IB_MAX_SGE;
	attr->cap.max_inline_data = 0;
	attr->path_mig_state = IB_MIG_MIGRATED;
	mutex_unlock(&qp->mutex);
	memset(init, 0, sizeof(*init));
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->qp_type = IB_QPT_RC;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

static int gaudi_ib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct gaudi_ib_dev *dev = to_gdev(ibqp->device);
	struct gaudi_ib_qp *qp = to_gqp(ibqp);

	mutex_lock(&dev->obj_lock);
	mutex_lock(&qp->mutex);
	qp_unclaim(dev, qp);
	list_del(&qp->node);
	mutex_unlock(&qp->mutex);
	mutex_unlock(&dev->obj_lock);
	spin_lock_irq(&dev->qp_lock);
	dev->qps[qp->qpn] = NULL;
	spin_unlock_irq(&dev->qp_lock);
	ida_free(&dev->qp_ida, qp->qpn);
	ring_destroy(qp->rq_ring);
	ring_destroy(qp->sq_ring);
	rops(dev)->va_release(dev->rd, qp->uc->hold, qp->rq_va);
	dma_free_coherent(dev->cn->dma_dev, GAUDI_IB_RQ_SIZE, qp->rq,
			  qp->rq_dma);
	kvfree(qp->swqe);
	dma_free_coherent(dev->cn->dma_dev, GAUDI_IB_SQ_SIZE, qp->sq,
			  qp->sq_dma);
	mutex_destroy(&qp->mutex);
	return 0;
}

/* ---- posting ------------------------------------------------------------- */

/* One send WQE at ring index @i of @qp. */
static void sq_put(struct gaudi_ib_qp *qp, u32 i, u32 op, u64 laddr,
		   u32 len, u64 raddr, u32 rkey, bool imm, bool sig,
		   u32 imm_data)
{
	__le32 *w = qp->sq + (size_t)i * GAUDI_NIC_SEND_WQE_SIZE;

	/* The R_Key and a 31-bit size in the WQE: one WQE per WR. */
	w[0] = cpu_to_le32(op << NIC_WQE_OPCODE_SHIFT | NIC_WQE_F_LEN32 |
			   (op != WQE_SEND ? NIC_WQE_F_RKEY : 0) |
			   (imm ? NIC_WQE_F_IMM : 0) |
			   (sig ? NIC_WQE_F_SIGNALED : 0));
	w[1] = cpu_to_le32(lower_32_bits(laddr));
	w[2] = cpu_to_le32(upper_32_bits(laddr) & NIC_WQE_LOCAL_ADDR_HI);
	w[3] = cpu_to_le32(lower_32_bits(raddr));
	w[4] = cpu_to_le32(upper_32_bits(raddr) & NIC_WQE_REMOTE_ADDR_HI);
	w[5] = cpu_to_le32(len & NIC_WQE_LEN32);
	w[6] = cpu_to_le32(imm ? imm_data : 0);
	w[7] = cpu_to_le32(rkey);
}

/* One WR (qp->lock held); -ENOMEM when the send queue has no room. */
static int post_one(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
		    const struct ib_send_wr *wr)
{
	const struct ib_rdma_wr *rw = rdma_wr(wr);
	u32 len = wr->num_sge ? wr->sg_list[0].length : 0;
	bool read = wr->opcode == IB_WR_RDMA_READ;
	bool send = wr->opcode == IB_WR_SEND ||
		    wr->opcode == IB_WR_SEND_WITH_IMM;
	bool imm = wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM ||
		   wr->opcode == IB_WR_SEND_WITH_IMM;
	bool sig = (wr->send_flags & IB_SEND_SIGNALED) || qp->sig_all;
	struct gaudi_ib_swqe *s;
	u64 laddr = 0;

	if ((wr->opcode != IB_WR_RDMA_WRITE && !imm && !read && !send) ||
	    wr->num_sge > GAUDI_IB_MAX_SGE || len > NIC_WQE_LEN32 ||
	    (wr->send_flags & ~(IB_SEND_SIGNALED | IB_SEND_FENCE |
				IB_SEND_SOLICITED)) ||
	    (read && !len)) {
		ibdev_dbg(&dev->ibdev, "QP %u: WR opcode %d flags 0x%x not offered\n",
			  qp->qpn, wr->opcode, wr->send_flags);
		return -EINVAL;
	}
	if (len && !mr_translate(dev, qp, wr->sg_list[0].lkey,
				 wr->sg_list[0].addr, len,
				 read ? IB_ACCESS_LOCAL_WRITE : 0, &laddr)) {
		ibdev_dbg(&dev->ibdev, "QP %u: lkey 0x%x does not cover 0x%llx+0x%x\n",
			  qp->qpn, wr->sg_list[0].lkey, wr->sg_list[0].addr,
			  len);
		return -EINVAL;
	}
	if (((qp->sq_pi + 1) & (GAUDI_IB_SQ_ENTRIES - 1)) == qp->sq_done)
		return -ENOMEM;
	sq_put(qp, qp->sq_pi, read ? WQE_READ : send ? WQE_SEND : WQE_LINEAR,
	       laddr, len, send ? 0 : rw->remote_addr, send ? 0 : rw->rkey,
	       imm, sig, imm ? be32_to_cpu(wr->ex.imm_data) : 0);
	s = &qp->swqe[qp->sq_pi];
	s->wr_id = wr->wr_id;
	s->len = len;
	s->opcode = read ? IB_WC_RDMA_READ : send ? IB_WC_SEND :
		    IB_WC_RDMA_WRITE;
	s->signaled = sig;
	s->last = true;
	qp->sq_pi = (qp->sq_pi + 1) & (GAUDI_IB_SQ_ENTRIES - 1);
	return 0;
}

/**
 * ring_take() - the kick of a QP's staging ring
 * @dev: the device
 * @qp: the QP (its lock held)
 * @r: its send or receive ring
 * @post: posts one slot's copy as a WR of the command: post_one() or
 *	post_recv_one() behind sq_slot() or rq_slot()
 *
 * A post_send or post_recv of no WR: each new slot is copied out of the
 * ring once and what @post makes of the copy is checked as a WR of the
 * command is; the first refused stops the kick, not taken.
 *
 * Return: 0, @post's error or ring_pending()'s.
 */
static int ring_take(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
		     struct gaudi_ib_ring *r,
		     int (*post)(struct gaudi_ib_dev *dev,
				 struct gaudi_ib_qp *qp, const void *slot))
{
	u64 copy[sizeof(struct gaudi_ib_ring_swqe) / sizeof(u64)];
	int n = ring_pending(dev, qp, r), ret = 0;

	static_assert(sizeof(struct gaudi_ib_ring_rwqe) <= sizeof(copy));
	if (n < 0)
		return n;
	for (; n; n--) {
		ring_read(r, r->ci, copy);
		ret = post(dev, qp, copy);
		if (ret) {
			ibdev_dbg(&dev->ibdev, "QP %u: staged WR %u refused: %d\n",
				  qp->qpn, r->ci, ret);
			break;
		}
		r->ci++;
	}
	WRITE_ONCE(ring_ctl(r)->ci, r->ci);
	return ret;
}

/**
 * sq_slot() - a send ring slot's copy as a WR, through post_one()
 * @dev: the device
 * @qp: the QP (its lock held)
 * @slot: the copy, a struct gaudi_ib_ring_swqe
 *
 * Return: post_one()'s, or -EINVAL for a reserved field set.
 */
static int sq_slot(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
		   const void *slot)
{
	const struct gaudi_ib_ring_swqe *w = slot;
	struct ib_rdma_wr rw = {};
	struct ib_sge sge = {
		.addr = w->addr, .length = w->length, .lkey = w->lkey,
	};

	if (w->reserved || memchr_inv(w->reserved2, 0, sizeof(w->reserved2)))
		return -EINVAL;
	rw.wr.wr_id = w->wr_id;
	rw.wr.sg_list = &sge;
	rw.wr.num_sge = w->num_sge;
	rw.wr.opcode = w->opcode;
	rw.wr.send_flags = w->send_flags;
	rw.wr.ex.imm_data = (__force __be32)w->imm_data;
	rw.remote_addr = w->remote_addr;
	rw.rkey = w->rkey;
	return post_one(dev, qp, &rw.wr);
}

static int gaudi_ib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			      const struct ib_send_wr **bad)
{
	struct gaudi_ib_dev *dev = to_gdev(ibqp->device);
	struct gaudi_ib_qp *qp = to_gqp(ibqp);
	unsigned long flags;
	u32 pi, hw;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_RTS) {
		spin_unlock_irqrestore(&qp->lock, flags);
		*bad = wr;
		return -EINVAL;
	}
	if (!wr && qp->sq_ring)
		ret = ring_take(dev, qp, qp->sq_ring, sq_slot);
	for (; wr; wr = wr->next) {
		ret = post_one(dev, qp, wr);
		if (ret)
			break;
	}
	pi = qp->sq_pi;
	hw = dev->hw_port[qp->port - 1];
	spin_unlock_irqrestore(&qp->lock, flags);
	if (ret)
		*bad = wr;
	/* The WQEs are in memory before the engine hears of them. */
	dma_wmb();
	if (rops(dev)->doorbell(dev->rd, qp->uc->hold, hw, qp->qpn, pi))
		ibdev_dbg(&dev->ibdev, "QP %u: doorbell refused\n", qp->qpn);
	return ret;
}

/**
 * post_recv_one() - one receive WR into a QP's receive queue
 * @dev: the device
 * @qp: the QP (its lock held)
 * @wr: the WR (its next is not looked at)
 *
 * Return: 0, -EINVAL for a WR refused, -ENOMEM when the queue is full.
 */
static int post_recv_one(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
			 const struct ib_recv_wr *wr)
{
	u32 len = wr->num_sge ? wr->sg_list[0].length : 0;
	u64 dva = 0;
	__le32 *w;

	if (wr->num_sge > GAUDI_IB_MAX_SGE ||
	    (len && !mr_translate(dev, qp, wr->sg_list[0].lkey,
				  wr->sg_list[0].addr, len,
				  IB_ACCESS_LOCAL_WRITE, &dva))) {
		ibdev_dbg(&dev->ibdev, "QP %u: bad receive WR\n", qp->qpn);
		return -EINVAL;
	}
	if (qp->rq_pi - qp->rq_done >= GAUDI_IB_MAX_RECV_WR)
		return -ENOMEM;
	w = qp->rq + (qp->rq_pi % GAUDI_IB_MAX_RECV_WR) *
		     GAUDI_NIC_RECV_WQE_SIZE;
	w[0] = cpu_to_le32(lower_32_bits(dva));
	w[1] = cpu_to_le32(upper_32_bits(dva));
	w[2] = cpu_to_le32(len);
	w[3] = 0;
	w[4] = cpu_to_le32(lower_32_bits(wr->wr_id));
	w[5] = cpu_to_le32(upper_32_bits(wr->wr_id));
	w[6] = 0;
	w[7] = 0;
	qp->rq_pi++;
	return 0;
}

/**
 * rq_slot() - a receive ring slot's copy as a WR, through post_recv_one()
 * @dev: the device
 * @qp: the QP (its lock held)
 * @slot: the copy, a struct gaudi_ib_ring_rwqe
 *
 * Return: post_recv_one()'s, or -EINVAL for a reserved field set or more
 * SGEs than a WR's count holds.
 */
static int rq_slot(struct gaudi_ib_dev *dev, struct gaudi_ib_qp *qp,
		   const void *slot)
{
	const struct gaudi_ib_ring_rwqe *w = slot;
	struct ib_sge sge = {
		.addr = w->addr, .length = w->length, .lkey = w->lkey,
	};
	struct ib_recv_wr wr = {
		.wr_id = w->wr_id, .sg_list = &sge, .num_sge = w->num_sge,
	};

	if (w->reserved || w->num_sge > U8_MAX)
		return -EINVAL;
	return post_recv_one(dev, qp, &wr);
}

static int gaudi_ib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			      const struct ib_recv_wr **bad)
{
	struct gaudi_ib_dev *dev = to_gdev(ibqp->device);
	struct gaudi_ib_qp *qp = to_gqp(ibqp);
	unsigned long flags;
	u32 pi;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state == IB_QPS_RESET || qp->state == IB_QPS_ERR) {
		ret = -EINVAL;
		goto out;
	}
	pi = qp->rq_pi;
	if (!wr && qp->rq_ring)
		ret = ring_take(dev, qp, qp->rq_ring, rq_slot);
	for (; wr; wr = wr->next) {
		ret = post_recv_one(dev, qp, wr);
		if (ret)
			break;
	}
	/* The WQEs are in memory before the engine sees the index. */
	if (qp->rq_pi != pi) {
		dma_wmb();
		WRITE_ONCE(*rq_pi_word(qp), cpu_to_le32(qp->rq_pi));
	}
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	if (ret)
		*bad = wr;
	return ret;
}

static const struct ib_device_ops gaudi_ib_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = GAUDI_IB_UVERBS_ABI_VERSION,

	.query_device = gaudi_ib_query_device,
	.get_dev_fw_str = gaudi_ib_get_fw_str,
	.query_port = gaudi_ib_query_port,
	.get_port_immutable = gaudi_ib_port_immutable,
	.get_link_layer = gaudi_ib_link_layer,
	.query_pkey = gaudi_ib_query_pkey,
	.alloc_ucontext = gaudi_ib_alloc_ucontext,
	.dealloc_ucontext = gaudi_ib_dealloc_ucontext,
	.disassociate_ucontext = gaudi_ib_disassociate_ucontext,
	.alloc_pd = gaudi_ib_alloc_pd,
	.dealloc_pd = gaudi_ib_dealloc_pd,
	.alloc_hw_port_stats = gaudi_ib_alloc_port_stats,
	.get_hw_stats = gaudi_ib_get_hw_stats,
	.create_cq = gaudi_ib_create_cq,
	.destroy_cq = gaudi_ib_destroy_cq,
	.poll_cq = gaudi_ib_poll_cq,
	.req_notify_cq = gaudi_ib_req_notify_cq,
	.reg_user_mr = gaudi_ib_reg_user_mr,
	.dereg_mr = gaudi_ib_dereg_mr,
	.create_qp = gaudi_ib_create_qp,
	.modify_qp = gaudi_ib_modify_qp,
	.query_qp = gaudi_ib_query_qp,
	.destroy_qp = gaudi_ib_destroy_qp,
	.post_send = gaudi_ib_post_send,
	.post_recv = gaudi_ib_post_recv,
	.mmap = gaudi_ib_mmap,
	.mmap_free = gaudi_ib_mmap_free,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, gaudi_ib_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_pd, gaudi_ib_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, gaudi_ib_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, gaudi_ib_qp, ibqp),
};

/* ---- the ports' netdevs ---------------------------------------------- */

static void gaudi_ib_port_event(struct gaudi_ib_dev *dev, u32 port,
				enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &dev->ibdev,
		.element.port_num = port,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

static void gaudi_ib_rescan_work(struct work_struct *work)
{
	struct gaudi_ib_dev *dev = container_of(work, struct gaudi_ib_dev,
						rescan);
	unsigned long mask = xchg(&dev->rescan_mask, 0);
	unsigned int bit;

	for_each_set_bit(bit, &mask, GAUDI_NIC_NUM_PORTS)
		rdma_roce_rescan_port(&dev->ibdev, bit + 1);
}

/*
 * gaudi_en's netdevs of this card: parent the card's "gaudi.en" device,
 * dev_port the card port.  The RTNL is held.
 */
static int gaudi_ib_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct gaudi_ib_dev *dev = container_of(nb, struct gaudi_ib_dev, nb);
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	u32 port;

	if (ndev->dev.parent != &dev->cn->adev.dev ||
	    ndev->dev_port >= GAUDI_NIC_NUM_PORTS)
		return NOTIFY_DONE;
	port = dev->ib_port[ndev->dev_port];
	if (!port)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_REGISTER:
		if (ib_device_set_netdev(&dev->ibdev, ndev, port))
			break;
		/* ib_core may have seen the netdev before we named it. */
		set_bit(port - 1, &dev->rescan_mask);
		schedule_work(&dev->rescan);
		break;
	case NETDEV_UNREGISTER:
		/* The netdev's reference goes before it may be freed. */
		ib_device_set_netdev(&dev->ibdev, NULL, port);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		if (!READ_ONCE(dev->registered))
			break;
		gaudi_ib_port_event(dev, port,
				    netif_running(ndev) && netif_oper_up(ndev) ?
				    IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
		break;
	}
	return NOTIFY_DONE;
}

/* ---- gaudi.ko's callbacks --------------------------------------------- */

static void gaudi_ib_reset_prepare(void *priv)
{
	struct gaudi_ib_dev *dev = priv;

	mutex_lock(&dev->lock);
	WRITE_ONCE(dev->in_reset, true);
	mutex_unlock(&dev->lock);
}

/*
 * After a reset the engine knows no QP of the holder and the ports'
 * registers are zero: the QPs are in error (their work is lost), and the
 * next QP to come to INIT programs its port again.
 */
static void gaudi_ib_reset_done(void *priv, bool ok)
{
	struct gaudi_ib_dev *dev = priv;
	struct gaudi_ib_qp *qp;
	unsigned long flags;
	u32 port;

	mutex_lock(&dev->lock);
	WRITE_ONCE(dev->in_reset, !ok);
	mutex_unlock(&dev->lock);
	for (port = 1; port <= dev->nports; port++) {
		struct gaudi_ib_port *p = &dev->port[port - 1];

		spin_lock_irqsave(&p->lock, flags);
		if (p->hw_open)
			p->need_open = true;
		spin_unlock_irqrestore(&p->lock, flags);
	}
	spin_lock_irqsave(&dev->qp_lock, flags);
	for (port = 0; port < GAUDI_IB_NUM_QPN; port++) {
		qp = dev->qps[port];
		if (!qp)
			continue;
		spin_lock(&qp->lock);
		if (qp->state != IB_QPS_RESET && qp->state != IB_QPS_ERR) {
			struct ib_event ev = {
				.device = &dev->ibdev,
				.element.qp = &qp->ibqp,
				.event = IB_EVENT_QP_FATAL,
			};

			qp->state = IB_QPS_ERR;
			if (qp->ibqp.event_handler)
				qp->ibqp.event_handler(&ev,
						       qp->ibqp.qp_context);
		}
		spin_unlock(&qp->lock);
	}
	spin_unlock_irqrestore(&dev->qp_lock, flags);
}

static const struct gaudi_cn_client gaudi_ib_client = {
	.irq = gaudi_ib_irq,
	.reset_prepare = gaudi_ib_reset_prepare,
	.reset_done = gaudi_ib_reset_done,
};

/* ---- the auxiliary driver --------------------------------------------- */

static int gaudi_ib_probe(struct auxiliary_device *adev,
			  const struct auxiliary_device_id *id)
{
	struct gaudi_cn_rdma *rd = to_gaudi_cn_rdma(adev);
	struct gaudi_cn *cn = rd->cn;
	struct gaudi_ib_dev *dev;
	char name[IB_DEVICE_NAME_MAX];
	unsigned int p;
	int ret;

	if (!cn->ports_mask)
		return -ENODEV;
	dev = ib_alloc_device(gaudi_ib_dev, ibdev);
	if (!dev)
		return -ENOMEM;
	dev->rd = rd;
	dev->cn = cn;
	mutex_init(&dev->lock);
	ida_init(&dev->pd_ida);
	ida_init(&dev->cq_ida);
	ida_init(&dev->mr_ida);
	ida_init(&dev->qp_ida);
	mutex_init(&dev->obj_lock);
	INIT_LIST_HEAD(&dev->mrs);
	INIT_LIST_HEAD(&dev->qp_list);
	spin_lock_init(&dev->mr_lock);
	spin_lock_init(&dev->qp_lock);
	spin_lock_init(&dev->cq_lock);
	INIT_WORK(&dev->cq_work, gaudi_ib_cq_work);
	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++)
		spin_lock_init(&dev->port[p].lock);
	INIT_WORK(&dev->rescan, gaudi_ib_rescan_work);
	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
		if (!(cn->ports_mask & BIT(p)))
			continue;
		dev->hw_port[dev->nports++] = p;
		dev->ib_port[p] = dev->nports;
	}

	dev->ibdev.node_type = RDMA_NODE_IB_CA;
	dev->ibdev.phys_port_cnt = dev->nports;
	dev->ibdev.num_comp_vectors = 1;
	dev->ibdev.node_guid = gaudi_ib_guid(dev);
	dev->ibdev.dev.parent = rd->pci_dev;
	snprintf(dev->ibdev.node_desc, sizeof(dev->ibdev.node_desc),
		 "Gaudi 1 card %s", cn->bus_info);
	ib_set_device_ops(&dev->ibdev, &gaudi_ib_ops);
	/* The data path is the kernel's: its uverbs commands are offered. */
	dev->ibdev.uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				      BIT_ULL(IB_USER_VERBS_CMD_POST_RECV) |
				      BIT_ULL(IB_USER_VERBS_CMD_POLL_CQ) |
				      BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);

	ret = rd->ops->attach(rd, &gaudi_ib_client, dev);
	if (ret)
		goto err_free;
	snprintf(name, sizeof(name), "gaudi_%u", cn->card);
	ret = ib_register_device(&dev->ibdev, name, cn->dma_dev);
	if (ret) {
		dev_err(&adev->dev, "ib_device registration failed: %d\n", ret);
		goto err_detach;
	}
	WRITE_ONCE(dev->registered, true);
	/* Replays NETDEV_REGISTER (and UP) for the netdevs already there. */
	dev->nb.notifier_call = gaudi_ib_netdev_event;
	ret = register_netdevice_notifier(&dev->nb);
	if (ret) {
		dev_err(&adev->dev, "netdevice notifier failed: %d\n", ret);
		goto err_unregister;
	}
	dev_set_drvdata(&adev->dev, dev);
	dev_info(&adev->dev, "%s: %u ports of card %s\n",
		 dev_name(&dev->ibdev.dev), dev->nports, cn->bus_info);
	return 0;

err_unregister:
	WRITE_ONCE(dev->registered, false);
	ib_unregister_device(&dev->ibdev);
err_detach:
	rd->ops->detach(rd);
err_free:
	ida_destroy(&dev->qp_ida);
	ida_destroy(&dev->mr_ida);
	ida_destroy(&dev->cq_ida);
	ida_destroy(&dev->pd_ida);
	ib_dealloc_device(&dev->ibdev);
	return ret;
}

static void gaudi_ib_remove(struct auxiliary_device *adev)
{
	struct gaudi_ib_dev *dev = dev_get_drvdata(&adev->dev);
	u32 port;

	/* No netdev event, then no rescan; then the users go. */
	unregister_netdevice_notifier(&dev->nb);
	cancel_work_sync(&dev->rescan);
	WRITE_ONCE(dev->registered, false);
	for (port = 1; port <= dev->nports; port++)
		ib_device_set_netdev(&dev->ibdev, NULL, port);
	ib_unregister_device(&dev->ibdev);
	dev->rd->ops->detach(dev->rd);
	cancel_work_sync(&dev->cq_work);
	ida_destroy(&dev->qp_ida);
	ida_destroy(&dev->mr_ida);
	ida_destroy(&dev->cq_ida);
	ida_destroy(&dev->pd_ida);
	ib_dealloc_device(&dev->ibdev);
}

static const struct auxiliary_device_id gaudi_ib_id_table[] = {
	{ .name = "gaudi." GAUDI_CN_AUX_RDMA_NAME },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, gaudi_ib_id_table);

static struct auxiliary_driver gaudi_ib_driver = {
	.name = "rdma",
	.probe = gaudi_ib_probe,
	.remove = gaudi_ib_remove,
	.id_table = gaudi_ib_id_table,
};
module_auxiliary_driver(gaudi_ib_driver);

MODULE_AUTHOR("gaudi-open developers");
MODULE_DESCRIPTION("Gaudi 1 NIC as an RDMA device (RoCE v2)");
MODULE_LICENSE("GPL");
