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
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/unaligned.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "gaudi_cn.h"
#include "../../uapi/rdma/gaudi_ib_abi.h"

static_assert(GAUDI_IB_MAX_PORTS == GAUDI_NIC_NUM_PORTS);

/* Protection domains per device (a number the provider can show). */
#define GAUDI_IB_MAX_PD		1024
/* RoCE v2 GIDs per port: link-local, IPv4 and a few IPv6 addresses. */
#define GAUDI_IB_GID_TBL_LEN	16

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
	/* Queue pairs, CQs and regions come with the RoCE engine's verbs. */
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
	resp.comp_mask = GAUDI_IB_UCTX_KERNEL_DATAPATH;
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

	INIT_RDMA_OBJ_SIZE(ib_ucontext, gaudi_ib_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_pd, gaudi_ib_pd, ibpd),
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
	dev->in_reset = true;
	mutex_unlock(&dev->lock);
}

static void gaudi_ib_reset_done(void *priv, bool ok)
{
	struct gaudi_ib_dev *dev = priv;

	mutex_lock(&dev->lock);
	dev->in_reset = !ok;
	mutex_unlock(&dev->lock);
}

static const struct gaudi_cn_client gaudi_ib_client = {
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
