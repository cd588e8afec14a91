/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The core-network interface: what gaudi.ko gives the drivers of a card's
 * NIC ports.  gaudi.ko creates two auxiliary devices per card with enabled
 * ports (gaudi_nic.c): "gaudi.en.<accel minor>", to which the Ethernet
 * driver (kernel/en/, gaudi_en.ko) binds and registers the netdevs, and
 * "gaudi.ib.<accel minor>", to which the RDMA driver (kernel/ib/,
 * gaudi_ib.ko) binds and registers the card's ib_device.
 *
 * Everything here is called in process context unless it says otherwise.
 * The network drivers reach the hardware only through the ops; gaudi.ko
 * calls a network driver only through the struct gaudi_cn_client it
 * attached.  Documentation/net/gaudi-en.rst and Documentation/net/rdma.rst
 * have the picture.
 */
#ifndef GAUDI_CN_H
#define GAUDI_CN_H

#include <linux/auxiliary_bus.h>
#include <linux/bits.h>
#include <linux/if_ether.h>
#include <linux/interrupt.h>
#include <linux/types.h>

#include "gaudi1/nic.h"

#define GAUDI_CN_AUX_NAME	"en"
#define GAUDI_CN_AUX_RDMA_NAME	"ib"
#define GAUDI_CN_EEPROM_LEN	256	/* SFF-8636 lower page and page 0 */

struct gaudi_cn;

/**
 * struct gaudi_cn_client - what a network driver attaches
 * @irq: the card's interrupt fired (hard interrupt context): look at the
 *	ports' receive rings.  The card has one MSI for everything, so this
 *	runs for completions and events too and must be cheap.  May be NULL.
 *	The RDMA driver's looks at its ports' CQ event interrupt.
 * @reset_prepare: the device is about to be reset: stop using it (no
 *	register access until @reset_done).
 * @reset_done: the device is back (@ok true) or failed to come back.
 *	Registers are at their reset values: set up the open ports again.
 * @link_event: the device CPU reports that @port's link changed (its
 *	STATUS_NIC event); look at the link now rather than at the next poll.
 * @qp_error: @port's QP error interrupt fired (its NIC QP event): read the
 *	port's error FIFO, then re-arm the interrupt.
 */
struct gaudi_cn_client {
	void (*irq)(void *priv);
	void (*reset_prepare)(void *priv);
	void (*reset_done)(void *priv, bool ok);
	void (*link_event)(void *priv, unsigned int port);
	void (*qp_error)(void *priv, unsigned int port);
};

/**
 * struct gaudi_cn_ops - what gaudi.ko does for the network driver
 * @rreg: read a 32-bit register (CFG offset, hw/gaudi1/nic.h); may be
 *	called in any context.
 * @wreg: write one.
 * @attach: attach @client (one at a time; -EBUSY otherwise).
 * @detach: detach it; when this returns no callback runs any more.
 * @qpc_write: write a whole QP context (@req: the requester's, 16 words;
 *	else the responder's, 8) of @port through its context gateway,
 *	which gaudi.ko shares with the RoCE connections; sleeps.
 * @mac_counter: a 64-bit MAC counter of @port (@rx: its receive
 *	counters, else its transmit ones; @reg relative to them,
 *	hw/gaudi1/nic.h STAT_*); the high-word latch is shared with
 *	gaudi.ko's readers.  Any context.
 * @roce_counter: a 64-bit RoCE counter of @port (@idx: hw/gaudi1/nic.h
 *	ROCE_CNT_*), through the same latch lock.  Any context.
 */
struct gaudi_cn_ops {
	u32 (*rreg)(struct gaudi_cn *cn, u32 off);
	void (*wreg)(struct gaudi_cn *cn, u32 off, u32 val);
	int (*attach)(struct gaudi_cn *cn, const struct gaudi_cn_client *client,
		      void *priv);
	void (*detach)(struct gaudi_cn *cn);
	int (*qpc_write)(struct gaudi_cn *cn, unsigned int port, u32 qpn,
			 bool req, const u32 *data);
	u64 (*mac_counter)(struct gaudi_cn *cn, unsigned int port, bool rx,
			   u32 reg);
	u64 (*roce_counter)(struct gaudi_cn *cn, unsigned int port,
			    unsigned int idx);
};

/**
 * struct gaudi_cn - a card's NIC as its network drivers see it
 * @adev: the auxiliary device
 * @ops: hardware access
 * @dma_dev: the device to allocate DMA memory for (the PCI function)
 * @host_base: what to add to a DMA address to reach host memory from the
 *	NIC (the host window, GAUDI_HOST_PHYS_BASE)
 * @ports_mask: ports the firmware enables
 * @ext_ports_mask: of those, the scale-out ports
 * @mac: each port's MAC, from the firmware (NIC_INFO_GET)
 * @hbm_base: device memory reserved for the NIC's tables, per port
 *	@hbm_port_size bytes from @hbm_base + port * @hbm_port_size;
 *	unreachable for users (gaudi_security.c)
 * @hbm_port_size: see @hbm_base
 * @msi_vector: port p's receive interrupt data (gaudi1/nic.h)
 * @eeprom: the ports' module EEPROM (SFF-8636), from the firmware
 * @bus_info: the PCI function's name
 * @fw_version: the device firmware's version string
 * @card: the accel minor, for names
 */
struct gaudi_cn {
	struct auxiliary_device adev;
	const struct gaudi_cn_ops *ops;
	struct device *dma_dev;
	u64 host_base;
	u32 ports_mask;
	u32 ext_ports_mask;
	u8 mac[GAUDI_NIC_NUM_PORTS][ETH_ALEN];
	u64 hbm_base;
	u64 hbm_port_size;
	u32 msi_vector[GAUDI_NIC_NUM_PORTS];
	u8 eeprom[GAUDI_CN_EEPROM_LEN];
	char bus_info[32];
	char fw_version[64];
	unsigned int card;
};

static inline struct gaudi_cn *to_gaudi_cn(struct auxiliary_device *adev)
{
	return container_of(adev, struct gaudi_cn, adev);
}

/*
 * One handle of the RDMA driver on the holding of the card (opaque): see
 * struct gaudi_cn_rdma_ops @hold.
 */
struct gaudi_cn_hold;

struct gaudi_cn_rdma;

/* Access of a region (struct gaudi_cn_rdma_ops @mr_set). */
#define GAUDI_CN_MR_REMOTE_WRITE	BIT(0)
#define GAUDI_CN_MR_REMOTE_READ		BIT(1)

/* A range of the holder's device VA the RDMA driver reserved (opaque). */
struct gaudi_cn_va;

/**
 * struct gaudi_cn_req - the requester half of a connection (RTR -> RTS)
 * @dst_qpn: the peer's QP number (24 bits)
 * @dst_ip: the peer's IPv4 address, host byte order
 * @src_ip: this port's, host byte order
 * @dst_mac: the peer's (or the next hop's) MAC
 * @psn: the first PSN to send (24 bits)
 * @timeout_retry: retries after a transport timeout (0..7)
 * @path_mtu: bytes (256..4096, a power of 2)
 * @rnr_retry: retries after an RNR NAK (0..7, 7 without limit)
 * @remote_key: the R_Key of WQEs that do not carry their own
 * @min_rnr: the RNR timer code the responder NAKs with (IBA, 0..31)
 */
struct gaudi_cn_req {
	u32 dst_qpn;
	u32 dst_ip;
	u32 src_ip;
	u8 dst_mac[ETH_ALEN];
	u32 psn;
	u32 timeout_retry;
	u32 path_mtu;
	u32 rnr_retry;
	u32 remote_key;
	u32 min_rnr;
};

/**
 * struct gaudi_cn_qp_ext - a verbs QP's queues (struct gaudi_cn_rdma_ops
 * @qp_claim)
 * @rq: device VA of its receive queue (the holder's): 2^@rq_log WQEs of
 *	32 bytes, then the producer index (hw/gaudi1/nic.h)
 * @rq_log: see @rq (1..16)
 * @scq: the CQ table entry of its send completions
 * @rcq: and of its receive completions
 */
struct gaudi_cn_qp_ext {
	u64 rq;
	u32 rq_log;
	u32 scq, rcq;
};

/**
 * struct gaudi_cn_res - the responder half of a connection (INIT -> RTR)
 * @dst_qpn: the peer's QP number
 * @dst_ip: the peer's IPv4 address, host byte order
 * @src_ip: this port's
 * @dst_mac: the peer's MAC
 * @epsn: the first PSN expected (24 bits)
 * @path_mtu: bytes (256..4096, a power of 2): the responder checks the
 *	packets' payload against it (IBA: an attribute of RTR, so a QP that
 *	stays at RTR, perftest's bandwidth server, receives at its path MTU)
 * @min_rnr: the RNR timer code the responder NAKs with (IBA, 0..31)
 */
struct gaudi_cn_res {
	u32 dst_qpn;
	u32 dst_ip;
	u32 src_ip;
	u8 dst_mac[ETH_ALEN];
	u32 epsn;
	u32 path_mtu;
	u32 min_rnr;
};

/**
 * struct gaudi_cn_qp_state - what the engine's contexts say of a QP
 * @req_valid: the requester context is valid
 * @res_valid: the responder context is valid
 * @req_error: the requester stopped in error
 * @res_error: the responder is in error
 * @next_psn: the requester's next PSN
 * @epsn: the responder's expected PSN
 * @ci: the requester's consumer index (WQEs taken)
 */
struct gaudi_cn_qp_state {
	bool req_valid, res_valid, req_error, res_error;
	u32 next_psn, epsn, ci;
};

/**
 * struct gaudi_cn_rdma_ops - what gaudi.ko does for the RDMA driver
 * @attach: attach @client (one at a time; -EBUSY otherwise).  Its @irq
 *	may be NULL; @link_event and @qp_error come as for the Ethernet
 *	driver, @reset_prepare and @reset_done around every reset.
 * @detach: detach it; when this returns no callback runs any more.
 * @hold: the calling process wants an RDMA user context on the card.  The
 *	NIC reaches memory through the card's MMU with the one user ASID, so
 *	a context belongs to the holder of the card: the calling process (its
 *	thread group) must hold it, through the compute node (whose
 *	permissions say who may take the card; the provider opens it) or
 *	another context, and the handle joins that holding.  -EBUSY when
 *	another process holds the card, -EPERM when nobody does or the
 *	device is not operational, -EAGAIN in a reset, -ENODEV while it goes
 *	away.  The holding ends when its last handle, compute node or RDMA,
 *	is released.  Sleeps.
 * @unhold: give back a handle @hold returned.  The last one ends the
 *	holding (its work, mappings and connections go, as at the close of
 *	the compute node).  Sleeps.  Everything below taken with @hold must
 *	be given back first.
 *
 * The holder's device VA and its QPs, on the same validated core as the
 * compute node's DRM_IOCTL_GAUDI_NIC (gaudi_roce.c).  All sleep; all
 * refuse with -EINVAL what is not @hold's or not valid, -EBUSY what is in
 * use, -ENODEV once the card is gone, and write nothing then.
 * @va_reserve: reserve @size bytes (page aligned) of the holder's device
 *	VA of the host range, at *@va with @fixed, else anywhere aligned to
 *	@align; *@va is the start.
 * @va_map: point @npages pages at @off of a reservation at the DMA
 *	addresses @dma (of @cn->dma_dev, PAGE_SIZE pages each); the device
 *	reaches them through its MMU as the holder.
 * @va_unmap: take them out again; when it returns the device no longer
 *	reaches them.
 * @va_release: unmap a whole reservation and give it back.
 * @port_open: @port serves the RDMA driver's QPs: their send queues at
 *	@sq_va + qpn * @sq_entries * 32 (a reservation of the holder's,
 *	@sq_entries a power of 2, 4..4096), and the port's CQ event queue
 *	at the device address @eq (host memory of the RDMA driver's,
 *	@eq_entries 4-byte entries, a power of 2), its interrupt enabled.
 *	-EBUSY when the compute node's connections have the port's
 *	completion queue.
 * @port_close: stop serving them (the port's QPs are released first).
 * @qp_claim: QP @qpn (2..1023) of @port is the RDMA driver's from now on,
 *	with a new generation and no context (RESET -> INIT), its queues
 *	@ext.  -EBUSY if the number is taken on the port.
 * @cq_set: entry @cqn (1..1023) of the card's CQ table: a ring of 2^@log
 *	32-byte CQEs at the holder's device VA @ring, then its consumer
 *	record; events on.
 * @cq_clear: the entry ends.
 * @qp_release: the QP ends: contexts, extension entry and its regions go.
 * @qp_reset: both contexts invalidated, the number kept (to RESET or ERR).
 * @qp_set_res: write the responder context, and the path MTU and RNR
 *	timer of the QP's extension entry (INIT -> RTR).
 * @qp_set_req: write the requester context, path MTU and RNR retry
 *	(RTR -> RTS); needs an open port.
 * @qp_state: read both contexts.
 * @mr_set: region entry @key & (GAUDI_NIC_MAX_MR - 1) of @port for QP
 *	@qpn: [@start, @start + @len) of the holder's device VA with
 *	@access (GAUDI_CN_MR_REMOTE_*).  -EBUSY when the slot holds another
 *	region or is parked.
 * @mr_clear: clear @port's entry of @key for @qpn (the slot stays parked
 *	until the QP ends, as a DEREG_MR's).
 * @doorbell: ring @qpn's send queue of @port up to @pi (its ring index).
 */
struct gaudi_cn_rdma_ops {
	int (*attach)(struct gaudi_cn_rdma *rd,
		      const struct gaudi_cn_client *client, void *priv);
	void (*detach)(struct gaudi_cn_rdma *rd);
	int (*hold)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold **hold);
	void (*unhold)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold);
	int (*va_reserve)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			  u64 *va, u64 size, u64 align, bool fixed,
			  struct gaudi_cn_va **out);
	int (*va_map)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
		      struct gaudi_cn_va *r, u64 off, const dma_addr_t *dma,
		      unsigned long npages);
	void (*va_unmap)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			 struct gaudi_cn_va *r, u64 off, unsigned long npages);
	void (*va_release)(struct gaudi_cn_rdma *rd,
			   struct gaudi_cn_hold *hold, struct gaudi_cn_va *r);
	int (*port_open)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			 unsigned int port, u64 sq_va, u32 sq_entries,
			 u64 eq, u32 eq_entries);
	void (*port_close)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			   unsigned int port);
	int (*qp_claim)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			unsigned int port, u32 qpn,
			const struct gaudi_cn_qp_ext *ext);
	int (*cq_set)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
		      u32 cqn, u64 ring, u32 log);
	void (*cq_clear)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			 u32 cqn);
	void (*qp_release)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			   unsigned int port, u32 qpn);
	int (*qp_reset)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			unsigned int port, u32 qpn);
	int (*qp_set_res)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			  unsigned int port, u32 qpn,
			  const struct gaudi_cn_res *res);
	int (*qp_set_req)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			  unsigned int port, u32 qpn,
			  const struct gaudi_cn_req *req);
	int (*qp_state)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			unsigned int port, u32 qpn, struct gaudi_cn_qp_state *st);
	int (*mr_set)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
		      unsigned int port, u32 qpn, u32 key, u64 start, u64 len,
		      u32 access);
	void (*mr_clear)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			 unsigned int port, u32 qpn, u32 key);
	int (*doorbell)(struct gaudi_cn_rdma *rd, struct gaudi_cn_hold *hold,
			unsigned int port, u32 qpn, u32 pi);
};

/**
 * struct gaudi_cn_rdma - a card's NIC as its RDMA driver sees it
 * @adev: the auxiliary device ("gaudi.ib.<accel minor>")
 * @cn: the card's NIC: ports, MACs, register and counter ops, the DMA
 *	device; @cn->adev is the Ethernet driver's device, the parent of
 *	the ports' netdevs (dev_port: the port number)
 * @ops: what only the RDMA driver asks
 * @pci_dev: the PCI function (the ib_device's parent, so rdma-core's
 *	provider finds the card by its PCI IDs)
 * @vendor_id: the PCI vendor ID (hw/gaudi1/memmap.h)
 * @device_id: the PCI device ID
 * @revision: the PCI revision
 */
struct gaudi_cn_rdma {
	struct auxiliary_device adev;
	struct gaudi_cn *cn;
	const struct gaudi_cn_rdma_ops *ops;
	struct device *pci_dev;
	u16 vendor_id;
	u16 device_id;
	u8 revision;
};

static inline struct gaudi_cn_rdma *to_gaudi_cn_rdma(struct auxiliary_device *adev)
{
	return container_of(adev, struct gaudi_cn_rdma, adev);
}

#endif /* GAUDI_CN_H */
