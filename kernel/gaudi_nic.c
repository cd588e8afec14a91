// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NIC, gaudi.ko's part.  At every bring-up the device CPU is asked
 * for the ports (NIC_INFO_GET: which are enabled, their MACs, the module
 * EEPROM) and told which odd ports' receive interrupts to turn into MSIs
 * (MSI_INFO_SET; silicon cannot raise them from those ports).  The ports
 * are reported in HW_IP_INFO and handed to the network drivers through
 * two auxiliary devices per card (gaudi_cn.h): the Ethernet driver's and
 * the RDMA driver's.  gaudi.ko keeps no port state of its own.  The
 * drivers' hooks run from the interrupt handler, the event thread and
 * around resets.
 */
#include <linux/habanalabs/cpucp_if.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "gaudi1/events.h"
#include "gaudi1/memmap.h"
#include "gaudi1/nic.h"
#include "gaudi_cn.h"
#include "gaudi_cpucp.h"
#include "gaudi_dp_types.h"
#include "gaudi_file.h"
#include "gaudi_file_types.h"
#include "gaudi_hw.h"
#include "gaudi_layout.h"
#include "gaudi_mem.h"
#include "gaudi_nic.h"
#include "gaudi_roce.h"
#include "gaudi_types.h"

/* The aux device and its owner; freed by the device's release. */
struct gaudi_nic_aux {
	struct gaudi_cn cn;
	struct gaudi_device *gdev;
};

/* The RDMA driver's aux device; freed by its release. */
struct gaudi_nic_rdma_aux {
	struct gaudi_cn_rdma rd;
	struct gaudi_device *gdev;
};

static struct gaudi_device *cn_gdev(struct gaudi_cn *cn)
{
	return container_of(cn, struct gaudi_nic_aux, cn)->gdev;
}

static struct gaudi_device *rd_gdev(struct gaudi_cn_rdma *rd)
{
	return container_of(rd, struct gaudi_nic_rdma_aux, rd)->gdev;
}

static u32 gaudi_cn_rreg(struct gaudi_cn *cn, u32 off)
{
	return gaudi_rreg(cn_gdev(cn), off, "nic");
}

static void gaudi_cn_wreg(struct gaudi_cn *cn, u32 off, u32 val)
{
	gaudi_wreg(cn_gdev(cn), off, val, "nic");
}

/* One client slot (Ethernet or RDMA): the client, then its priv. */
static int nic_attach(struct gaudi_nic *nic,
		      const struct gaudi_cn_client **slot, void **slot_priv,
		      const struct gaudi_cn_client *client, void *priv)
{
	int ret = 0;

	mutex_lock(&nic->lock);
	if (*slot) {
		ret = -EBUSY;
	} else {
		*slot_priv = priv;
		/* The interrupt handler reads client, then priv. */
		smp_store_release(slot, client);
	}
	mutex_unlock(&nic->lock);
	return ret;
}

static void nic_detach(struct gaudi_device *gdev,
		       const struct gaudi_cn_client **slot)
{
	mutex_lock(&gdev->nic.lock);
	WRITE_ONCE(*slot, NULL);
	mutex_unlock(&gdev->nic.lock);
	synchronize_irq(gdev->pci.irq);
}

static int gaudi_cn_attach(struct gaudi_cn *cn,
			   const struct gaudi_cn_client *client, void *priv)
{
	struct gaudi_nic *nic = &cn_gdev(cn)->nic;

	return nic_attach(nic, &nic->client, &nic->priv, client, priv);
}

static void gaudi_cn_detach(struct gaudi_cn *cn)
{
	struct gaudi_device *gdev = cn_gdev(cn);

	nic_detach(gdev, &gdev->nic.client);
}

static int gaudi_cn_rdma_attach(struct gaudi_cn_rdma *rd,
				const struct gaudi_cn_client *client,
				void *priv)
{
	struct gaudi_nic *nic = &rd_gdev(rd)->nic;

	return nic_attach(nic, &nic->rdma_client, &nic->rdma_priv, client,
			  priv);
}

static void gaudi_cn_rdma_detach(struct gaudi_cn_rdma *rd)
{
	struct gaudi_device *gdev = rd_gdev(rd);

	nic_detach(gdev, &gdev->nic.rdma_client);
}

static int gaudi_cn_rdma_hold(struct gaudi_cn_rdma *rd,
			      struct gaudi_cn_hold **hold)
{
	struct gaudi_file *gfile;
	int ret;

	ret = gaudi_file_hold(rd_gdev(rd), &gfile);
	if (!ret)
		*hold = (struct gaudi_cn_hold *)gfile;
	return ret;
}

static void gaudi_cn_rdma_unhold(struct gaudi_cn_rdma *rd,
				 struct gaudi_cn_hold *hold)
{
	gaudi_file_unhold(rd_gdev(rd), (struct gaudi_file *)hold);
}

/* The holder's file of a hold (gaudi_cn_rdma_hold()). */
static struct gaudi_file *hold_gfile(struct gaudi_cn_hold *hold)
{
	return (struct gaudi_file *)hold;
}

static int gaudi_cn_va_reserve(struct gaudi_cn_rdma *rd,
			       struct gaudi_cn_hold *hold, u64 *va, u64 size,
			       u64 align, bool fixed, struct gaudi_cn_va **out)
{
	struct gaudi_ctx *ctx = hold_gfile(hold)->ctx;

	if (!ctx)
		return -EINVAL;
	return gaudi_mem_va_reserve(ctx, va, size, align, fixed,
				    (struct gaudi_va **)out);
}

static int gaudi_cn_va_map(struct gaudi_cn_rdma *rd,
			   struct gaudi_cn_hold *hold, struct gaudi_cn_va *r,
			   u64 off, const dma_addr_t *dma, unsigned long npages)
{
	struct gaudi_device *gdev = rd_gdev(rd);
	int idx, ret;

	if (!drm_dev_enter(&gdev->drm, &idx))
		return -ENODEV;
	ret = gaudi_mem_va_map(hold_gfile(hold)->ctx, (struct gaudi_va *)r,
			       off, dma, npages);
	drm_dev_exit(idx);
	return ret;
}

static void gaudi_cn_va_unmap(struct gaudi_cn_rdma *rd,
			      struct gaudi_cn_hold *hold,
			      struct gaudi_cn_va *r, u64 off,
			      unsigned long npages)
{
	gaudi_mem_va_unmap(hold_gfile(hold)->ctx, (struct gaudi_va *)r, off,
			   npages);
}

static void gaudi_cn_va_release(struct gaudi_cn_rdma *rd,
				struct gaudi_cn_hold *hold,
				struct gaudi_cn_va *r)
{
	gaudi_mem_va_release(hold_gfile(hold)->ctx, (struct gaudi_va *)r);
}

static int gaudi_cn_port_open(struct gaudi_cn_rdma *rd,
			      struct gaudi_cn_hold *hold, unsigned int port,
			      u64 sq_va, u32 sq_entries, u64 eq,
			      u32 eq_entries)
{
	return gaudi_roce_v_port_open(rd_gdev(rd), hold_gfile(hold), port,
				      sq_va, sq_entries, eq, eq_entries);
}

static void gaudi_cn_port_close(struct gaudi_cn_rdma *rd,
				struct gaudi_cn_hold *hold, unsigned int port)
{
	gaudi_roce_v_port_close(rd_gdev(rd), hold_gfile(hold), port);
}

static int gaudi_cn_qp_claim(struct gaudi_cn_rdma *rd,
			     struct gaudi_cn_hold *hold, unsigned int port,
			     u32 qpn, const struct gaudi_cn_qp_ext *ext)
{
	return gaudi_roce_v_qp_claim(rd_gdev(rd), hold_gfile(hold), port, qpn,
				     ext);
}

static int gaudi_cn_cq_set(struct gaudi_cn_rdma *rd,
			   struct gaudi_cn_hold *hold, u32 cqn, u64 ring,
			   u32 log)
{
	return gaudi_roce_v_cq_set(rd_gdev(rd), hold_gfile(hold), cqn, ring,
				   log);
}

static void gaudi_cn_cq_clear(struct gaudi_cn_rdma *rd,
			      struct gaudi_cn_hold *hold, u32 cqn)
{
	gaudi_roce_v_cq_clear(rd_gdev(rd), hold_gfile(hold), cqn);
}

static void gaudi_cn_qp_release(struct gaudi_cn_rdma *rd,
				struct gaudi_cn_hold *hold, unsigned int port,
				u32 qpn)
{
	gaudi_roce_v_qp_release(rd_gdev(rd), hold_gfile(hold), port, qpn);
}

static int gaudi_cn_qp_reset(struct gaudi_cn_rdma *rd,
			     struct gaudi_cn_hold *hold, unsigned int port,
			     u32 qpn)
{
	return gaudi_roce_v_qp_reset(rd_gdev(rd), hold_gfile(hold), port, qpn);
}

static int gaudi_cn_qp_set_res(struct gaudi_cn_rdma *rd,
			       struct gaudi_cn_hold *hold, unsigned int port,
			       u32 qpn, const struct gaudi_cn_res *res)
{
	return gaudi_roce_v_qp_set_res(rd_gdev(rd), hold_gfile(hold), port,
				       qpn, res);
}

static int gaudi_cn_qp_set_req(struct gaudi_cn_rdma *rd,
			       struct gaudi_cn_hold *hold, unsigned int port,
			       u32 qpn, const struct gaudi_cn_req *req)
{
	return gaudi_roce_v_qp_set_req(rd_gdev(rd), hold_gfile(hold), port,
				       qpn, req);
}

static int gaudi_cn_qp_state(struct gaudi_cn_rdma *rd,
			     struct gaudi_cn_hold *hold, unsigned int port,
			     u32 qpn, struct gaudi_cn_qp_state *st)
{
	return gaudi_roce_v_qp_state(rd_gdev(rd), hold_gfile(hold), port, qpn,
				     st);
}

static int gaudi_cn_mr_set(struct gaudi_cn_rdma *rd,
			   struct gaudi_cn_hold *hold, unsigned int port,
			   u32 qpn, u32 key, u64 start, u64 len, u32 access)
{
	return gaudi_roce_v_mr_set(rd_gdev(rd), hold_gfile(hold), port, qpn,
				   key, start, len, access);
}

static void gaudi_cn_mr_clear(struct gaudi_cn_rdma *rd,
			      struct gaudi_cn_hold *hold, unsigned int port,
			      u32 qpn, u32 key)
{
	gaudi_roce_v_mr_clear(rd_gdev(rd), hold_gfile(hold), port, qpn, key);
}

static int gaudi_cn_doorbell(struct gaudi_cn_rdma *rd,
			     struct gaudi_cn_hold *hold, unsigned int port,
			     u32 qpn, u32 pi)
{
	return gaudi_roce_v_doorbell(rd_gdev(rd), hold_gfile(hold), port, qpn,
				     pi);
}

static int gaudi_cn_qpc_write(struct gaudi_cn *cn, unsigned int port,
			      u32 qpn, bool req, const u32 *data)
{
	return gaudi_roce_qpc_write(cn_gdev(cn), port, qpn, req, data);
}

static u64 gaudi_cn_mac_counter(struct gaudi_cn *cn, unsigned int port,
				bool rx, u32 reg)
{
	return gaudi_nic_mac_counter(cn_gdev(cn), port, rx, reg);
}

/* A 64-bit MAC counter: reading the low word latches the high one. */
u64 gaudi_nic_mac_counter(struct gaudi_device *gdev, unsigned int port,
			  bool rx, u32 reg)
{
	u32 macro = GAUDI_NIC_PORT_MACRO(port) + NIC_STAT_OFFSET;
	bool odd = port & 1;
	u32 base = rx ? (odd ? NIC_STAT_RX1 : NIC_STAT_RX0) :
			(odd ? NIC_STAT_TX1 : NIC_STAT_TX0);
	unsigned long flags;
	u32 lo, hi;

	spin_lock_irqsave(&gdev->nic.stat_lock, flags);
	lo = gaudi_rreg(gdev, macro + base + reg, "nic stat");
	hi = gaudi_rreg(gdev, macro + NIC_STAT_DATA_HI_REG, "nic stat");
	spin_unlock_irqrestore(&gdev->nic.stat_lock, flags);
	return (u64)hi << 32 | lo;
}

static u64 gaudi_cn_roce_counter(struct gaudi_cn *cn, unsigned int port,
				 unsigned int idx)
{
	return gaudi_nic_roce_counter(cn_gdev(cn), port, idx);
}

/*
 * A 64-bit RoCE counter of @port (hw/gaudi1/nic.h ROCE_CNT_*, the model's
 * register window in the port's QPC block): reading the low word latches
 * the high one, one latch per port.
 */
u64 gaudi_nic_roce_counter(struct gaudi_device *gdev, unsigned int port,
			   unsigned int idx)
{
	unsigned long flags;
	u32 lo, hi;

	if (port >= GAUDI_NIC_NUM_PORTS || idx >= NIC_QPC_ROCE_CNT_SLOTS)
		return 0;
	spin_lock_irqsave(&gdev->nic.stat_lock, flags);
	lo = gaudi_rreg(gdev, GAUDI_NIC_QPC_REG(port, NIC_QPC_ROCE_CNT_LO(idx)),
			"nic roce cnt");
	hi = gaudi_rreg(gdev, GAUDI_NIC_QPC_REG(port, NIC_QPC_ROCE_CNT_HI(idx)),
			"nic roce cnt");
	spin_unlock_irqrestore(&gdev->nic.stat_lock, flags);
	return (u64)hi << 32 | lo;
}

static const struct gaudi_cn_ops gaudi_cn_ops = {
	.rreg = gaudi_cn_rreg,
	.wreg = gaudi_cn_wreg,
	.qpc_write = gaudi_cn_qpc_write,
	.mac_counter = gaudi_cn_mac_counter,
	.roce_counter = gaudi_cn_roce_counter,
	.attach = gaudi_cn_attach,
	.detach = gaudi_cn_detach,
};

static const struct gaudi_cn_rdma_ops gaudi_cn_rdma_ops = {
	.attach = gaudi_cn_rdma_attach,
	.detach = gaudi_cn_rdma_detach,
	.hold = gaudi_cn_rdma_hold,
	.unhold = gaudi_cn_rdma_unhold,
	.va_reserve = gaudi_cn_va_reserve,
	.va_map = gaudi_cn_va_map,
	.va_unmap = gaudi_cn_va_unmap,
	.va_release = gaudi_cn_va_release,
	.port_open = gaudi_cn_port_open,
	.port_close = gaudi_cn_port_close,
	.qp_claim = gaudi_cn_qp_claim,
	.cq_set = gaudi_cn_cq_set,
	.cq_clear = gaudi_cn_cq_clear,
	.qp_release = gaudi_cn_qp_release,
	.qp_reset = gaudi_cn_qp_reset,
	.qp_set_res = gaudi_cn_qp_set_res,
	.qp_set_req = gaudi_cn_qp_set_req,
	.qp_state = gaudi_cn_qp_state,
	.mr_set = gaudi_cn_mr_set,
	.mr_clear = gaudi_cn_mr_clear,
	.doorbell = gaudi_cn_doorbell,
};

/* Hard interrupt context: the network drivers look at their rings. */
void gaudi_nic_irq(struct gaudi_device *gdev)
{
	const struct gaudi_cn_client *c;

	/* Pairs with the release in nic_attach(): priv is set. */
	c = smp_load_acquire(&gdev->nic.client);
	if (c && c->irq)
		c->irq(gdev->nic.priv);
	/* The same for the RDMA driver's slot. */
	c = smp_load_acquire(&gdev->nic.rdma_client);
	if (c && c->irq)
		c->irq(gdev->nic.rdma_priv);
}

static int gaudi_nic_info_get(struct gaudi_device *gdev)
{
	struct gaudi_nic *nic = &gdev->nic;
	struct cpucp_packet pkt = {};
	struct cpucp_nic_info *info;
	u64 addr;
	int ret, p;

	info = gaudi_cpucp_buf_alloc(gdev, sizeof(*info), &addr);
	if (!info)
		return -ENOMEM;
	pkt.ctl = cpu_to_le32(CPUCP_PACKET_NIC_INFO_GET <<
			      CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.addr = cpu_to_le64(addr);
	pkt.data_max_size = cpu_to_le32(sizeof(*info));
	ret = gaudi_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, NULL);
	if (!ret) {
		nic->ports_mask = le64_to_cpu(info->link_mask[0]) &
				  GENMASK(GAUDI_NIC_NUM_PORTS - 1, 0);
		nic->ext_ports_mask = le64_to_cpu(info->link_ext_mask[0]) &
				      nic->ports_mask;
		for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++)
			memcpy(nic->mac[p], info->mac_addrs[p].mac_addr,
			       ETH_ALEN);
		memcpy(nic->eeprom, info->qsfp_eeprom, sizeof(nic->eeprom));
	}
	gaudi_cpucp_buf_free(gdev, sizeof(*info), info);
	return ret;
}

/* The odd ports' receive interrupts, through the device CPU. */
static int gaudi_nic_msi_info_set(struct gaudi_device *gdev)
{
	struct {
		struct cpucp_packet pkt;
		__le32 length;
		__le32 data[CPUCP_NUM_OF_MSI_TYPES];
	} __packed req = {};
	unsigned int p;

	req.pkt.ctl = cpu_to_le32(CPUCP_PACKET_MSI_INFO_SET <<
				  CPUCP_PKT_CTL_OPCODE_SHIFT);
	req.length = cpu_to_le32(CPUCP_NUM_OF_MSI_TYPES);
	req.data[CPUCP_EVENT_QUEUE_MSI_TYPE] =
		cpu_to_le32(GAUDI_EVENT_QUEUE_MSI_IDX);
	for (p = 1; p < GAUDI_NIC_NUM_PORTS; p += 2)
		req.data[CPUCP_NIC_PORT1_MSI_TYPE + p / 2] =
			cpu_to_le32(GAUDI_NIC_PORT_MSI_IDX(p));
	return gaudi_cpucp_send_len(gdev, &req.pkt, sizeof(req),
				    GAUDI_CPUCP_TIMEOUT_US, NULL);
}

/*
 * Bring-up (probe and every reset), after the device-CPU channel.  A
 * firmware without NIC support leaves the card without ports, not
 * without a driver.
 */
void gaudi_nic_hw_init(struct gaudi_device *gdev)
{
	int ret = gaudi_nic_info_get(gdev);

	if (!ret && gdev->nic.ports_mask)
		ret = gaudi_nic_msi_info_set(gdev);
	if (ret) {
		gaudi_warn(gdev, "NIC: no port information from the firmware (%d): ports disabled\n",
			   ret);
		gdev->nic.ports_mask = 0;
		gdev->nic.ext_ports_mask = 0;
	}
	gaudi_roce_hw_init(gdev);
}

int gaudi_nic_sw_init(struct gaudi_device *gdev)
{
	int ret = drmm_mutex_init(&gdev->drm, &gdev->nic.lock);

	spin_lock_init(&gdev->nic.stat_lock);

	return ret ? ret : gaudi_roce_sw_init(gdev);
}

#if IS_ENABLED(CONFIG_AUXILIARY_BUS)
static void gaudi_nic_aux_release(struct device *dev)
{
	kfree(container_of(to_auxiliary_dev(dev), struct gaudi_nic_aux,
			   cn.adev));
}

static void gaudi_nic_rdma_release(struct device *dev)
{
	kfree(container_of(to_auxiliary_dev(dev), struct gaudi_nic_rdma_aux,
			   rd.adev));
}

/* The RDMA driver's device, after the Ethernet one (which it names). */
static int gaudi_nic_rdma_init(struct gaudi_device *gdev)
{
	struct gaudi_nic_rdma_aux *aux;
	struct gaudi_cn_rdma *rd;
	int ret;

	aux = kzalloc(sizeof(*aux), GFP_KERNEL);
	if (!aux)
		return -ENOMEM;
	aux->gdev = gdev;
	rd = &aux->rd;
	rd->cn = gdev->nic.cn;
	rd->ops = &gaudi_cn_rdma_ops;
	rd->pci_dev = &gdev->pdev->dev;
	rd->vendor_id = gdev->pdev->vendor;
	rd->device_id = gdev->pdev->device;
	rd->revision = gdev->pdev->revision;
	rd->adev.name = GAUDI_CN_AUX_RDMA_NAME;
	rd->adev.id = gdev->index;
	rd->adev.dev.parent = &gdev->pdev->dev;
	rd->adev.dev.release = gaudi_nic_rdma_release;
	ret = auxiliary_device_init(&rd->adev);
	if (ret) {
		kfree(aux);
		return ret;
	}
	ret = auxiliary_device_add(&rd->adev);
	if (ret) {
		auxiliary_device_uninit(&rd->adev);
		return ret;
	}
	gdev->nic.rdma = rd;
	return 0;
}

/* Probe, last: offer the ports to a network driver. */
int gaudi_nic_init(struct gaudi_device *gdev)
{
	struct gaudi_nic *nic = &gdev->nic;
	struct gaudi_nic_aux *aux;
	struct gaudi_cn *cn;
	unsigned int p;
	int ret;

	if (!nic->ports_mask)
		return 0;
	aux = kzalloc(sizeof(*aux), GFP_KERNEL);
	if (!aux)
		return -ENOMEM;
	aux->gdev = gdev;
	cn = &aux->cn;
	cn->ops = &gaudi_cn_ops;
	cn->dma_dev = &gdev->pdev->dev;
	cn->host_base = GAUDI_HOST_PHYS_BASE;
	cn->ports_mask = nic->ports_mask;
	cn->ext_ports_mask = nic->ext_ports_mask;
	memcpy(cn->mac, nic->mac, sizeof(cn->mac));
	memcpy(cn->eeprom, nic->eeprom, sizeof(cn->eeprom));
	cn->hbm_base = GAUDI_NIC_HBM_BASE;
	cn->hbm_port_size = GAUDI_NIC_HBM_PORT_SIZE;
	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++)
		cn->msi_vector[p] = GAUDI_NIC_PORT_MSI_IDX(p);
	strscpy(cn->bus_info, pci_name(gdev->pdev), sizeof(cn->bus_info));
	strscpy(cn->fw_version, gdev->fw.uboot_ver, sizeof(cn->fw_version));
	cn->card = gdev->index;

	cn->adev.name = GAUDI_CN_AUX_NAME;
	cn->adev.id = gdev->index;
	cn->adev.dev.parent = &gdev->pdev->dev;
	cn->adev.dev.release = gaudi_nic_aux_release;
	ret = auxiliary_device_init(&cn->adev);
	if (ret) {
		kfree(aux);
		return ret;
	}
	ret = auxiliary_device_add(&cn->adev);
	if (ret) {
		auxiliary_device_uninit(&cn->adev);
		return ret;
	}
	nic->cn = cn;
	ret = gaudi_nic_rdma_init(gdev);
	if (ret)
		gaudi_warn(gdev, "NIC: no RDMA device: %d\n", ret);
	return 0;
}

/*
 * Remove, first: the network drivers let go of the ports, the RDMA one
 * first (its users' contexts end there, while the card is still whole).
 */
void gaudi_nic_fini(struct gaudi_device *gdev)
{
	struct gaudi_cn_rdma *rd = gdev->nic.rdma;
	struct gaudi_cn *cn = gdev->nic.cn;

	if (rd) {
		gdev->nic.rdma = NULL;
		auxiliary_device_delete(&rd->adev);
		auxiliary_device_uninit(&rd->adev);
	}
	if (!cn)
		return;
	gdev->nic.cn = NULL;
	auxiliary_device_delete(&cn->adev);
	auxiliary_device_uninit(&cn->adev);
}
#else
int gaudi_nic_init(struct gaudi_device *gdev)
{
	return 0;
}

void gaudi_nic_fini(struct gaudi_device *gdev)
{
}
#endif

/*
 * Reset: the network drivers stop using the device, then start again
 * (the RDMA driver stops first and starts last: its QPs ride on the
 * ports the Ethernet driver brings up).
 */
void gaudi_nic_reset_prepare(struct gaudi_device *gdev)
{
	struct gaudi_nic *nic = &gdev->nic;

	mutex_lock(&nic->lock);
	if (nic->rdma_client && nic->rdma_client->reset_prepare)
		nic->rdma_client->reset_prepare(nic->rdma_priv);
	if (nic->client && nic->client->reset_prepare)
		nic->client->reset_prepare(nic->priv);
	mutex_unlock(&nic->lock);
}

void gaudi_nic_reset_done(struct gaudi_device *gdev, bool ok)
{
	struct gaudi_nic *nic = &gdev->nic;

	mutex_lock(&nic->lock);
	if (nic->client && nic->client->reset_done)
		nic->client->reset_done(nic->priv, ok);
	if (nic->rdma_client && nic->rdma_client->reset_done)
		nic->rdma_client->reset_done(nic->rdma_priv, ok);
	mutex_unlock(&nic->lock);
}

/* A port event for one client (nic->lock held). */
static void nic_client_event(const struct gaudi_cn_client *c, void *priv,
			     u32 type)
{
	if (!c)
		return;
	if (type >= GAUDI_EVENT_STATUS_NIC0_ENG0 &&
	    type <= GAUDI_EVENT_STATUS_NIC4_ENG1) {
		if (c->link_event)
			c->link_event(priv, type - GAUDI_EVENT_STATUS_NIC0_ENG0);
	} else if (type >= GAUDI_EVENT_NIC0_QP0 &&
		   type <= GAUDI_EVENT_NIC4_QP1) {
		if (c->qp_error)
			c->qp_error(priv, type - GAUDI_EVENT_NIC0_QP0);
	}
}

/*
 * The event thread: a port's link changed (STATUS_NIC event) or its QP
 * error interrupt fired (NIC QP event).
 */
void gaudi_nic_event(struct gaudi_device *gdev, u32 type)
{
	struct gaudi_nic *nic = &gdev->nic;

	mutex_lock(&nic->lock);
	nic_client_event(nic->client, nic->priv, type);
	nic_client_event(nic->rdma_client, nic->rdma_priv, type);
	mutex_unlock(&nic->lock);
	/* The holder's connections may be the ones in error. */
	if (type >= GAUDI_EVENT_NIC0_QP0 && type <= GAUDI_EVENT_NIC4_QP1 &&
	    gaudi_roce_port_used(gdev, type - GAUDI_EVENT_NIC0_QP0))
		gaudi_file_notify(gdev, HL_NOTIFIER_EVENT_USER_ENGINE_ERR);
}
