// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi: RoCE v2 queue pairs over gaudi.ko's NIC ioctl.
 *
 * A port's send queues (one per QP number, @entries WQEs of 32 bytes) and
 * its completion queue live in host memory this file allocates and maps
 * into the device MMU; the NIC reads and writes them through the holder's
 * ASID.  A QP fills WQEs in its queue and asks the kernel to ring the
 * doorbell (user engines cannot reach the NIC's doorbells).  Completions
 * are counted by the port's producer index, which USER_CQ_UPDATE_CI
 * returns; a requester CQE names the QP and the WQE slot it completes,
 * in order, so a QP's finished slots are those outside [done, pi).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <drm/gaudi_accel.h>

#include "gaudi_int.h"
#include "gaudi1/nic.h"

/* The largest QP number a BTH carries (24 bits), a peer's included. */
#define GAUDI_NIC_QPN_MAX	0xFFFFFFU

struct gaudi_nic_port {
	struct gaudi_dev *dev;
	unsigned int port;
	unsigned int num_wqs;		/* QP numbers 0..num_wqs - 1 */
	unsigned int entries;		/* WQEs per send queue */
	unsigned int cq_entries;
	uint8_t *wq;
	uint64_t *cq;
	struct gaudi_mapping *wq_map, *cq_map;
	uint32_t cq_ci;			/* CQEs consumed (wraps at 2^32) */
	struct gaudi_qp **qps;		/* by QP number */
};

struct gaudi_qp {
	struct gaudi_nic_port *p;
	uint32_t qpn, rkey, psn, ip;
	uint32_t path_mtu;		/* bytes; 0: the driver's default */
	int rnr_retry;			/* 0..7; -1: the driver's default (7) */
	bool has_mr;			/* @rkey is its first region's */
	uint32_t pi;			/* next slot to fill */
	uint32_t done;			/* oldest slot not yet completed */
	bool connected;
};

static int nic_op(struct gaudi_dev *dev, uint32_t op, const void *in,
		  uint32_t in_size, void *out, uint32_t out_size)
{
	struct drm_gaudi_nic a;

	if (!dev)
		return -EINVAL;
	if (dev->caps_rc)
		return dev->caps_rc;
	if (!(dev->caps.caps & GAUDI_CAP_NIC))
		return -EOPNOTSUPP;
	memset(&a, 0, sizeof(a));
	a.input_ptr = (uintptr_t)in;
	a.input_size = in_size;
	a.output_ptr = (uintptr_t)out;
	a.output_size = out_size;
	a.op = op;
	return dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_GAUDI_NIC, &a);
}

GAUDI_EXPORT int gaudi_nic_link(struct gaudi_dev *dev, uint32_t *ports,
				uint32_t *ext, uint32_t *up)
{
	struct drm_gaudi_nic_link l;
	int ret;

	memset(&l, 0, sizeof(l));
	ret = nic_op(dev, GAUDI_NIC_OP_LINK_STATE, NULL, 0, &l, sizeof(l));
	if (ret)
		return ret;
	if (ports)
		*ports = l.ports_mask;
	if (ext)
		*ext = l.ext_ports_mask;
	if (up)
		*up = l.up_mask;
	return 0;
}

GAUDI_EXPORT int gaudi_nic_dl1_port(int module, int peer_module)
{
	if (module < 0 || module > 7 || peer_module < 0 || peer_module > 7 ||
	    module == peer_module)
		return -EINVAL;
	return peer_module < module ? peer_module : peer_module - 1;
}

static bool pow2_in(unsigned int v, unsigned int lo, unsigned int hi)
{
	return v >= lo && v <= hi && !(v & (v - 1));
}

/* Page-aligned zeroed host memory of @size bytes, mapped. */
static int alloc_mapped(struct gaudi_dev *dev, size_t size, void **mem,
			struct gaudi_mapping **map)
{
	int ret;

	size = (size + 4095) & ~(size_t)4095;
	if (posix_memalign(mem, 4096, size))
		return -ENOMEM;
	memset(*mem, 0, size);
	ret = gaudi_map_host(dev, *mem, size, map);
	if (ret) {
		free(*mem);
		*mem = NULL;
	}
	return ret;
}

GAUDI_EXPORT int gaudi_nic_port_open(struct gaudi_dev *dev, unsigned int port,
				     unsigned int max_qps,
				     unsigned int wq_entries,
				     unsigned int cq_entries,
				     struct gaudi_nic_port **out)
{
	struct drm_gaudi_nic_wq wq;
	struct drm_gaudi_nic_cq cq;
	struct drm_gaudi_nic_port pp;
	struct gaudi_nic_port *p;
	void *mem;
	int ret;

	if (!dev || !out || port >= GAUDI_NIC_NUM_PORTS || !max_qps ||
	    max_qps > GAUDI_NIC_MAX_CONN - GAUDI_NIC_FIRST_CONN ||
	    !pow2_in(wq_entries, GAUDI_NIC_WQ_MIN_ENTRIES,
		     GAUDI_NIC_WQ_MAX_ENTRIES) ||
	    !pow2_in(cq_entries, GAUDI_NIC_CQ_MIN_ENTRIES,
		     GAUDI_NIC_CQ_MAX_ENTRIES))
		return -EINVAL;
	if (dev->control)
		return -ENOTTY;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	p->port = port;
	/* QP 0 is the Ethernet driver's, QP 1 unused (uapi "NIC"). */
	p->num_wqs = max_qps + GAUDI_NIC_FIRST_CONN;
	p->entries = wq_entries;
	p->cq_entries = cq_entries;
	p->qps = calloc(p->num_wqs, sizeof(*p->qps));
	if (!p->qps) {
		ret = -ENOMEM;
		goto err;
	}
	ret = alloc_mapped(dev, (size_t)p->num_wqs * wq_entries *
			   GAUDI_NIC_SEND_WQE_SIZE, &mem, &p->wq_map);
	if (ret)
		goto err;
	p->wq = mem;
	ret = alloc_mapped(dev, (size_t)cq_entries * 8, &mem, &p->cq_map);
	if (ret)
		goto err;
	p->cq = mem;

	memset(&wq, 0, sizeof(wq));
	wq.addr = gaudi_mapping_va(p->wq_map);
	wq.port = port;
	wq.num_wqs = p->num_wqs;
	wq.entries = wq_entries;
	ret = nic_op(dev, GAUDI_NIC_OP_USER_WQ_SET, &wq, sizeof(wq), NULL, 0);
	if (ret)
		goto err;
	memset(&cq, 0, sizeof(cq));
	cq.addr = gaudi_mapping_va(p->cq_map);
	cq.port = port;
	cq.entries = cq_entries;
	ret = nic_op(dev, GAUDI_NIC_OP_USER_CQ_SET, &cq, sizeof(cq), NULL, 0);
	if (ret) {
		memset(&pp, 0, sizeof(pp));
		pp.port = port;
		nic_op(dev, GAUDI_NIC_OP_USER_WQ_UNSET, &pp, sizeof(pp), NULL, 0);
		goto err;
	}
	*out = p;
	return 0;
err:
	gaudi_unmap(p->wq_map);
	gaudi_unmap(p->cq_map);
	free(p->wq);
	free(p->cq);
	free(p->qps);
	free(p);
	return ret;
}

GAUDI_EXPORT int gaudi_nic_port_close(struct gaudi_nic_port *p)
{
	struct drm_gaudi_nic_port pp;
	int ret, r2;

	if (!p)
		return 0;
	memset(&pp, 0, sizeof(pp));
	pp.port = p->port;
	ret = nic_op(p->dev, GAUDI_NIC_OP_USER_CQ_UNSET, &pp, sizeof(pp),
		     NULL, 0);
	r2 = nic_op(p->dev, GAUDI_NIC_OP_USER_WQ_UNSET, &pp, sizeof(pp),
		    NULL, 0);
	if (!ret)
		ret = r2;
	gaudi_unmap(p->wq_map);
	gaudi_unmap(p->cq_map);
	free(p->wq);
	free(p->cq);
	free(p->qps);
	free(p);
	return ret;
}

static uint32_t rand32(void)
{
	uint32_t v = 0;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		v = (uint32_t)time(NULL) * 2654435761U ^ (uint32_t)getpid();
	return v;
}

GAUDI_EXPORT int gaudi_qp_create(struct gaudi_nic_port *p,
				 struct gaudi_qp **out)
{
	struct drm_gaudi_nic_port in;
	struct drm_gaudi_nic_conn_id id;
	struct drm_gaudi_nic_conn dc;
	struct gaudi_qp *qp;
	unsigned int bus = 0, dev_no = 0, fn = 0, dom = 0;
	int ret;

	if (!p || !out)
		return -EINVAL;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return -ENOMEM;
	memset(&in, 0, sizeof(in));
	in.port = p->port;
	memset(&id, 0, sizeof(id));
	ret = nic_op(p->dev, GAUDI_NIC_OP_ALLOC_CONN, &in, sizeof(in), &id,
		     sizeof(id));
	if (ret) {
		free(qp);
		return ret;
	}
	if (id.conn_id >= p->num_wqs || p->qps[id.conn_id]) {
		/* More QPs than the port was opened for. */
		memset(&dc, 0, sizeof(dc));
		dc.port = p->port;
		dc.conn_id = id.conn_id;
		nic_op(p->dev, GAUDI_NIC_OP_DESTROY_CONN, &dc, sizeof(dc),
		       NULL, 0);
		free(qp);
		return -ENOSPC;
	}
	qp->p = p;
	qp->qpn = id.conn_id;
	qp->rkey = rand32() | 1;
	qp->rnr_retry = -1;
	qp->psn = rand32() & 0xFFFFFF;
	sscanf(p->dev->pci_slot, "%x:%x:%x.%x", &dom, &bus, &dev_no, &fn);
	qp->ip = 10U << 24 | (bus & 0xFF) << 16 | p->port << 8 | 1;
	p->qps[qp->qpn] = qp;
	*out = qp;
	return 0;
}

/* The port's MAC address, as the driver knows it (LINK_STATE). */
static int port_mac(const struct gaudi_nic_port *p, uint8_t mac[6])
{
	struct drm_gaudi_nic_link l;
	int ret;

	memset(&l, 0, sizeof(l));
	ret = nic_op(p->dev, GAUDI_NIC_OP_LINK_STATE, NULL, 0, &l, sizeof(l));
	if (ret)
		return ret;
	if (!(l.ports_mask & (1U << p->port)))
		return -ENODEV;
	memcpy(mac, l.mac[p->port], 6);
	return 0;
}

GAUDI_EXPORT int gaudi_qp_addr(const struct gaudi_qp *qp,
			       struct gaudi_nic_addr *out)
{
	int ret;

	if (!qp || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	ret = port_mac(qp->p, out->mac);
	if (ret)
		return ret;
	out->port = (uint16_t)qp->p->port;
	out->ip = qp->ip;
	out->qpn = qp->qpn;
	out->rkey = qp->rkey;
	out->psn = qp->psn;
	return 0;
}

GAUDI_EXPORT void gaudi_qp_set_ip(struct gaudi_qp *qp, uint32_t ip)
{
	if (qp)
		qp->ip = ip;
}

GAUDI_EXPORT uint32_t gaudi_qp_number(const struct gaudi_qp *qp)
{
	return qp ? qp->qpn : 0;
}

/* Whether the driver has memory regions and path MTUs (ABI 1.6). */
static bool has_regions(const struct gaudi_dev *dev)
{
	return !dev->caps_rc && (dev->caps.caps & GAUDI_CAP_NIC_MR);
}

GAUDI_EXPORT int gaudi_qp_set_path_mtu(struct gaudi_qp *qp, unsigned int mtu)
{
	if (!qp || mtu < 256 || mtu > 4096 || (mtu & (mtu - 1)))
		return -EINVAL;
	if (!has_regions(qp->p->dev))
		return mtu == 4096 ? 0 : -EOPNOTSUPP;
	qp->path_mtu = mtu;
	return 0;
}

GAUDI_EXPORT int gaudi_qp_set_rnr_retry(struct gaudi_qp *qp,
				       unsigned int retries)
{
	if (!qp || retries > 7)
		return -EINVAL;
	if (!has_regions(qp->p->dev))
		return retries == 7 ? 0 : -EOPNOTSUPP;
	qp->rnr_retry = (int)retries;
	return 0;
}

GAUDI_EXPORT int gaudi_qp_reg_mr(struct gaudi_qp *qp, uint64_t va,
				 uint64_t size, uint32_t *key)
{
	struct drm_gaudi_nic_mr in;
	struct drm_gaudi_nic_mr_key out;
	int ret;

	if (!qp || !size || va + size < va)
		return -EINVAL;
	if (!has_regions(qp->p->dev))
		return -EOPNOTSUPP;
	memset(&in, 0, sizeof(in));
	in.addr = va;
	in.length = size;
	in.port = qp->p->port;
	in.conn_id = qp->qpn;
	in.access = GAUDI_NIC_MR_REMOTE_WRITE;
	memset(&out, 0, sizeof(out));
	ret = nic_op(qp->p->dev, GAUDI_NIC_OP_REG_MR, &in, sizeof(in), &out,
		     sizeof(out));
	if (ret)
		return ret;
	/* The first region's key is the one the QP's address carries. */
	if (!qp->has_mr) {
		qp->rkey = out.key;
		qp->has_mr = true;
	}
	if (key)
		*key = out.key;
	return 0;
}

GAUDI_EXPORT int gaudi_qp_dereg_mr(struct gaudi_qp *qp, uint32_t key)
{
	struct drm_gaudi_nic_mr_dereg in;

	if (!qp)
		return -EINVAL;
	if (!has_regions(qp->p->dev))
		return -EOPNOTSUPP;
	memset(&in, 0, sizeof(in));
	in.port = qp->p->port;
	in.key = key;
	return nic_op(qp->p->dev, GAUDI_NIC_OP_DEREG_MR, &in, sizeof(in),
		      NULL, 0);
}

GAUDI_EXPORT int gaudi_qp_connect(struct gaudi_qp *qp,
				  const struct gaudi_nic_addr *r)
{
	struct drm_gaudi_nic_req_ctx req;
	struct drm_gaudi_nic_res_ctx res;
	int ret;

	/*
	 * The peer numbers its QPs as it likes, in the BTH's 24 bits (our
	 * GAUDI_NIC_MAX_CONN is this card's limit, not the remote's).
	 */
	if (!qp || !r || r->qpn > GAUDI_NIC_QPN_MAX || !r->qpn ||
	    r->psn > 0xFFFFFF)
		return -EINVAL;
	memset(&res, 0, sizeof(res));
	res.port = qp->p->port;
	res.conn_id = qp->qpn;
	res.dst_ip = r->ip;
	res.src_ip = qp->ip;
	memcpy(res.dst_mac, r->mac, 6);
	res.dst_conn_id = r->qpn;
	res.local_key = qp->rkey;
	res.expected_psn = r->psn;
	res.flags = GAUDI_NIC_RES_SOB_EN;
	ret = nic_op(qp->p->dev, GAUDI_NIC_OP_SET_RES_CONN_CTX, &res,
		     sizeof(res), NULL, 0);
	if (ret)
		return ret;
	memset(&req, 0, sizeof(req));
	req.port = qp->p->port;
	req.conn_id = qp->qpn;
	req.dst_ip = r->ip;
	req.src_ip = qp->ip;
	memcpy(req.dst_mac, r->mac, 6);
	req.dst_conn_id = r->qpn;
	req.remote_key = r->rkey;
	req.psn = qp->psn;
	req.path_mtu = qp->path_mtu;
	if (qp->rnr_retry >= 0) {
		req.flags = GAUDI_NIC_REQ_RNR_RETRY;
		req.rnr_retry = (uint32_t)qp->rnr_retry;
	}
	ret = nic_op(qp->p->dev, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &req,
		     sizeof(req), NULL, 0);
	if (ret)
		return ret;
	/* The requester restarts from its consumer index 0. */
	qp->pi = 0;
	qp->done = 0;
	qp->connected = true;
	return 0;
}

/* Slots in flight: [done, pi) modulo the queue. */
static uint32_t in_flight(const struct gaudi_qp *qp)
{
	return (qp->pi - qp->done) & (qp->p->entries - 1);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* One LINEAR WQE (hw/gaudi1/nic.h, "Send WQE"). */
static void wqe_linear(uint8_t *w, uint64_t local, uint64_t remote,
		       uint32_t size, bool sync, uint32_t sob, uint32_t val)
{
	memset(w, 0, GAUDI_NIC_SEND_WQE_SIZE);
	put_le32(w, (uint32_t)WQE_LINEAR << NIC_WQE_OPCODE_SHIFT |
		 NIC_WQE_ACKREQ);
	put_le32(w + 4, (uint32_t)local);
	put_le32(w + 8, ((uint32_t)(local >> 32) & NIC_WQE_LOCAL_ADDR_HI) |
		 size << NIC_WQE_SIZE_SHIFT);
	put_le32(w + 12, (uint32_t)remote);
	put_le32(w + 16, (uint32_t)(remote >> 32) & NIC_WQE_REMOTE_ADDR_HI);
	if (sync) {
		put_le32(w + 20, NIC_WQE_SYNC_VALID | (sob & NIC_WQE_REMOTE_SOB));
		put_le32(w + 24, val);
	}
}

/* Write the WQEs of one RDMA WRITE; *@n of them, the last at the result. */
static int post_wqes(struct gaudi_qp *qp, uint64_t local_va,
		     uint64_t remote_va, uint64_t size, uint32_t remote_sob,
		     uint32_t sob_value, uint32_t *nout)
{
	uint64_t n, i, off = 0;
	uint32_t mask, last = 0;

	if (!qp || !qp->connected || remote_sob & ~NIC_WQE_REMOTE_SOB ||
	    (!size && !remote_sob))
		return -EINVAL;
	mask = qp->p->entries - 1;
	n = size ? (size + GAUDI_NIC_WQE_MAX_BYTES - 1) /
		   GAUDI_NIC_WQE_MAX_BYTES : 1;
	if (n > mask - in_flight(qp)) {
		/* Take the completions that came in first. */
		gaudi_qp_wait(qp, -1, 0);
		if (n > mask - in_flight(qp))
			return n > mask ? -EINVAL : -EAGAIN;
	}
	for (i = 0; i < n; i++) {
		uint32_t chunk = size - off < GAUDI_NIC_WQE_MAX_BYTES ?
				 (uint32_t)(size - off) :
				 GAUDI_NIC_WQE_MAX_BYTES;
		uint8_t *w = qp->p->wq +
			     ((size_t)qp->qpn * qp->p->entries + qp->pi) *
			     GAUDI_NIC_SEND_WQE_SIZE;

		wqe_linear(w, local_va + off, remote_va + off, chunk,
			   i == n - 1 && remote_sob, remote_sob, sob_value);
		off += chunk;
		last = qp->pi;
		qp->pi = (qp->pi + 1) & mask;
	}
	/* The WQEs are in memory before a doorbell names them. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*nout = (uint32_t)n;
	return (int)last;
}

static int ring(struct gaudi_qp *qp)
{
	struct drm_gaudi_nic_doorbell db;
	int ret;

	memset(&db, 0, sizeof(db));
	db.port = qp->p->port;
	db.conn_id = qp->qpn;
	db.pi = qp->pi;
	ret = nic_op(qp->p->dev, GAUDI_NIC_OP_DOORBELL, &db, sizeof(db), NULL,
		     0);
	return ret == -EINVAL && gaudi_qp_error(qp) > 0 ? -EIO : ret;
}

GAUDI_EXPORT int gaudi_qp_write(struct gaudi_qp *qp, uint64_t local_va,
				uint64_t remote_va, uint64_t size,
				uint32_t remote_sob, uint32_t sob_value)
{
	uint32_t n = 0;
	int last, ret;

	last = post_wqes(qp, local_va, remote_va, size, remote_sob, sob_value,
			 &n);
	if (last < 0)
		return last;
	ret = ring(qp);
	if (ret) {
		/* Not sent: the WQEs are taken back. */
		qp->pi = (qp->pi - n) & (qp->p->entries - 1);
		return ret;
	}
	return last;
}

GAUDI_EXPORT int gaudi_qp_post(struct gaudi_qp *qp, uint64_t local_va,
			       uint64_t remote_va, uint64_t size,
			       uint32_t remote_sob, uint32_t sob_value)
{
	uint32_t n = 0;

	return post_wqes(qp, local_va, remote_va, size, remote_sob, sob_value,
			 &n);
}

GAUDI_EXPORT int gaudi_qp_doorbell(struct gaudi_qp *qp)
{
	if (!qp || !qp->connected)
		return -EINVAL;
	return ring(qp);
}

GAUDI_EXPORT int gaudi_qp_nic_queue(const struct gaudi_qp *qp,
				    unsigned int stream)
{
	if (!qp || stream > 3)
		return -EINVAL;
	return (int)(GAUDI_NIC_FIRST_QUEUE + 4 * qp->p->port + stream);
}

GAUDI_EXPORT int gaudi_pkt_qp_doorbell(struct gaudi_cmdbuf *cb,
				       const struct gaudi_qp *qp)
{
	uint64_t pi, qpn;
	int ret;

	if (!cb || !qp || !qp->connected)
		return -EINVAL;
	/* Both packets or neither: PI first, then QPN with BUSY rings. */
	if (gaudi_cmdbuf_room(cb) < 2 * 16)	/* two MSG_LONGs */
		return -ENOSPC;
	pi = GAUDI_CFG_BASE + GAUDI_NIC_QPC_REG(qp->p->port,
						NIC_QPC_UNSECURED_DOORBELL_PI);
	qpn = GAUDI_CFG_BASE + GAUDI_NIC_QPC_REG(qp->p->port,
						 NIC_QPC_UNSECURED_DOORBELL_QPN);
	ret = gaudi_pkt_msg_long(cb, pi, qp->pi, GAUDI_MSG_OP_WRITE,
				 GAUDI_PKT_MB);
	if (!ret)
		ret = gaudi_pkt_msg_long(cb, qpn, QPC_DOORBELL_BUSY | qp->qpn,
					 GAUDI_MSG_OP_WRITE, GAUDI_PKT_MB);
	return ret;
}

/* Take the port's new CQEs; their QPs' done indexes advance. */
static int port_poll(struct gaudi_nic_port *p)
{
	struct drm_gaudi_nic_cq_ci ci;
	struct drm_gaudi_nic_cq_pi pi;
	uint32_t cmask = p->cq_entries - 1;
	int ret;

	memset(&ci, 0, sizeof(ci));
	ci.port = p->port;
	ci.ci = p->cq_ci;
	memset(&pi, 0, sizeof(pi));
	ret = nic_op(p->dev, GAUDI_NIC_OP_USER_CQ_UPDATE_CI, &ci, sizeof(ci),
		     &pi, sizeof(pi));
	if (ret)
		return ret;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	while (p->cq_ci != pi.pi) {
		uint64_t e = __atomic_load_n(&p->cq[p->cq_ci & cmask],
					     __ATOMIC_RELAXED);
		uint32_t lo = (uint32_t)e, hi = (uint32_t)(e >> 32);

		p->cq_ci++;
		if (!(hi & ROCE_CQE_VALID) || !(lo & ROCE_CQE_REQUESTER))
			continue;	/* responder CQEs: not used here */
		hi &= ROCE_CQE_QPN;
		if (hi < p->num_wqs && p->qps[hi])
			p->qps[hi]->done = ((lo & 0x3FFFFF) + 1) &
					   (p->entries - 1);
	}
	return 0;
}

GAUDI_EXPORT int gaudi_qp_error(struct gaudi_qp *qp)
{
	struct drm_gaudi_nic_conn c;
	struct drm_gaudi_nic_conn_state st;
	int ret;

	if (!qp)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	c.port = qp->p->port;
	c.conn_id = qp->qpn;
	memset(&st, 0, sizeof(st));
	ret = nic_op(qp->p->dev, GAUDI_NIC_OP_CONN_STATE, &c, sizeof(c), &st,
		     sizeof(st));
	if (ret)
		return ret;
	return !!(st.flags & GAUDI_NIC_CONN_REQ_ERROR);
}

/* Whether slot @wqe is out of the in-flight window. */
static bool slot_done(const struct gaudi_qp *qp, uint32_t wqe)
{
	uint32_t mask = qp->p->entries - 1;

	return ((wqe - qp->done) & mask) >= in_flight(qp);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

GAUDI_EXPORT int gaudi_qp_wait(struct gaudi_qp *qp, int wqe,
			       unsigned int timeout_ms)
{
	uint64_t end;
	unsigned int nap = 50;
	int ret;

	if (!qp)
		return -EINVAL;
	end = now_ms() + timeout_ms;
	for (;;) {
		ret = port_poll(qp->p);
		if (ret)
			return ret;
		if (wqe < 0 || slot_done(qp, (uint32_t)wqe))
			return 0;
		ret = gaudi_qp_error(qp);
		if (ret)
			return ret > 0 ? -EIO : ret;
		if (now_ms() >= end)
			return -ETIMEDOUT;
		usleep(nap);
		if (nap < 2000)
			nap *= 2;
	}
}

GAUDI_EXPORT int gaudi_qp_destroy(struct gaudi_qp *qp)
{
	struct drm_gaudi_nic_conn c;
	int ret;

	if (!qp)
		return 0;
	memset(&c, 0, sizeof(c));
	c.port = qp->p->port;
	c.conn_id = qp->qpn;
	ret = nic_op(qp->p->dev, GAUDI_NIC_OP_DESTROY_CONN, &c, sizeof(c),
		     NULL, 0);
	qp->p->qps[qp->qpn] = NULL;
	free(qp);
	return ret;
}

GAUDI_EXPORT int gaudi_nic_addr_format(const struct gaudi_nic_addr *a,
				       char *buf, unsigned int len)
{
	int n;

	if (!a || !buf)
		return -EINVAL;
	n = snprintf(buf, len,
		     "mac=%02x:%02x:%02x:%02x:%02x:%02x port=%u ip=%u.%u.%u.%u qpn=%u rkey=0x%08x psn=%u",
		     a->mac[0], a->mac[1], a->mac[2], a->mac[3], a->mac[4],
		     a->mac[5], a->port, a->ip >> 24, (a->ip >> 16) & 0xFF,
		     (a->ip >> 8) & 0xFF, a->ip & 0xFF, a->qpn, a->rkey, a->psn);
	return n < 0 || (unsigned int)n >= len ? -ENOSPC : n;
}

GAUDI_EXPORT int gaudi_nic_addr_parse(const char *s, struct gaudi_nic_addr *a)
{
	unsigned int m[6], port, ip[4], qpn, rkey, psn, i;
	int end = 0;

	if (!s || !a)
		return -EINVAL;
	if (sscanf(s, "mac=%2x:%2x:%2x:%2x:%2x:%2x port=%u ip=%u.%u.%u.%u qpn=%u rkey=0x%8x psn=%u%n",
		   &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &port, &ip[0],
		   &ip[1], &ip[2], &ip[3], &qpn, &rkey, &psn, &end) != 14)
		return -EINVAL;
	if (s[end] && strcmp(s + end, "\n"))
		return -EINVAL;
	if (port >= GAUDI_NIC_NUM_PORTS || qpn > GAUDI_NIC_QPN_MAX ||
	    psn > 0xFFFFFF || ip[0] > 255 || ip[1] > 255 || ip[2] > 255 ||
	    ip[3] > 255)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	for (i = 0; i < 6; i++)
		a->mac[i] = (uint8_t)m[i];
	a->port = (uint16_t)port;
	a->ip = ip[0] << 24 | ip[1] << 16 | ip[2] << 8 | ip[3];
	a->qpn = qpn;
	a->rkey = rkey;
	a->psn = psn;
	return 0;
}

GAUDI_EXPORT int gaudi_nic_exchange(int fd, const struct gaudi_nic_addr *mine,
				    struct gaudi_nic_addr *theirs)
{
	char out[128], in[128];
	size_t got = 0;
	int n;

	n = gaudi_nic_addr_format(mine, out, sizeof(out) - 1);
	if (n < 0)
		return n;
	out[n++] = '\n';
	for (int off = 0; off < n;) {
		/* No SIGPIPE from a library: a closed peer is -EPIPE. */
		ssize_t w = send(fd, out + off, (size_t)(n - off), MSG_NOSIGNAL);

		if (w < 0 && errno == ENOTSOCK)
			w = write(fd, out + off, (size_t)(n - off));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EPIPE;
		off += (int)w;
	}
	/* One byte at a time: nothing past the line is consumed. */
	while (got < sizeof(in) - 1) {
		ssize_t r = read(fd, in + got, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -EPIPE;
		if (in[got++] == '\n')
			break;
	}
	in[got] = '\0';
	return gaudi_nic_addr_parse(in, theirs) ? -EPROTO : 0;
}
