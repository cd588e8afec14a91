// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libgaudi-rdmav34.so: the rdma-core (libibverbs) provider of gaudi_ib.ko's
 * RDMA devices, so that every verbs program finds a Gaudi 1 card's RoCE
 * ports (Documentation/net/rdma.rst).
 *
 * libibverbs loads it through /etc/libibverbs.d/gaudi.driver and offers it
 * every uverbs device; it takes the ones whose parent is a Gaudi 1 PCI
 * function of the right uverbs ABI.  The commands go to the kernel as the
 * uverbs write() commands of <rdma/ib_user_verbs.h>, with gaudi_ib.ko's
 * driver data (<rdma/gaudi_ib_abi.h> of this tree) after them.
 *
 * A user context belongs to the card's holder: before asking for one the
 * provider opens the card's compute node (/dev/accel/accelN, the render
 * group's), which takes the card for this process, and keeps it open for
 * the context's life.  A process that holds the card already (it opened
 * the compute node itself) gets EBUSY from that open, and its context
 * joins its holding.
 *
 * Work requests: with GAUDI_IB_UCTX_STAGING_RINGS a QP's provider writes
 * them into the QP's staging rings (mapped kernel memory) and kicks with a
 * post_send or post_recv command of none; the kernel copies and checks
 * them.  GAUDI_VERBS_KERNEL_POST=1 in the environment (or a kernel without
 * the rings) sends them in the commands instead.  Completions come from
 * the poll_cq command either way.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <rdma/ib_user_verbs.h>

#include "verbs-provider.h"
#include "../../hw/gaudi1/memmap.h"
#include "../../uapi/rdma/gaudi_ib_abi.h"

#define GAUDI_VERBS_EXPORT __attribute__((visibility("default")))

struct gaudi_vdev {
	struct verbs_device vdev;
};

struct gaudi_vctx {
	struct verbs_context vctx;
	unsigned int num_ports;
	uint8_t hw_port[GAUDI_IB_MAX_PORTS];
	unsigned int card;
	int accel_fd; /* the compute node this context holds, or -1 */
	bool kernel_datapath; /* GAUDI_IB_UCTX_KERNEL_DATAPATH */
	bool staging_rings; /* GAUDI_IB_UCTX_STAGING_RINGS, and wanted */
};

struct gaudi_vpd {
	struct ibv_pd ibpd;
	uint32_t pdn;
};

static struct gaudi_vctx *to_vctx(struct ibv_context *ibctx)
{
	return (struct gaudi_vctx *)((char *)ibctx -
				     offsetof(struct gaudi_vctx, vctx.context));
}

/*
 * One uverbs write() command: @cmd (the header's words are filled in here)
 * of @in bytes, its response of @out bytes at the address the command's
 * first word names.  0 or a positive errno.
 */
static int uverbs_write(int fd, uint32_t command, void *cmd, size_t in,
			size_t out)
{
	struct ib_uverbs_cmd_hdr *hdr = cmd;
	ssize_t n;

	hdr->command = command;
	hdr->in_words = in / 4;
	hdr->out_words = out / 4;
	n = write(fd, cmd, in);
	if (n < 0)
		return errno;
	return (size_t)n == in ? 0 : EIO;
}

/* ---- device ------------------------------------------------------------ */

static int gaudi_query_device_ex(struct ibv_context *ibctx,
				 const struct ibv_query_device_ex_input *input,
				 struct ibv_device_attr_ex *attr,
				 size_t attr_size)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_device core;
	} cmd = {};
	struct ib_uverbs_query_device_resp resp = {};
	struct ibv_device_attr *a = &attr->orig_attr;
	char path[IBV_SYSFS_PATH_MAX + 16], fw[64] = "";
	int fd, ret;
	ssize_t n;

	if (input && input->comp_mask)
		return EINVAL;
	if (attr_size < sizeof(*a))
		return EINVAL;
	cmd.core.response = (uintptr_t)&resp;
	ret = uverbs_write(ibctx->cmd_fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &cmd,
			   sizeof(cmd), sizeof(resp));
	if (ret)
		return ret;
	memset(attr, 0, attr_size < sizeof(*attr) ? attr_size : sizeof(*attr));
	/* The firmware's version string, as the kernel driver shows it. */
	snprintf(path, sizeof(path), "%s/fw_ver", ibctx->device->ibdev_path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, fw, sizeof(fw) - 1);
		close(fd);
		if (n > 0) {
			fw[n] = 0;
			fw[strcspn(fw, "\n")] = 0;
		}
	}
	snprintf(a->fw_ver, sizeof(a->fw_ver), "%s", fw);
	a->node_guid = resp.node_guid;
	a->sys_image_guid = resp.sys_image_guid;
	a->max_mr_size = resp.max_mr_size;
	a->page_size_cap = resp.page_size_cap;
	a->vendor_id = resp.vendor_id;
	a->vendor_part_id = resp.vendor_part_id;
	a->hw_ver = resp.hw_ver;
	a->max_qp = resp.max_qp;
	a->max_qp_wr = resp.max_qp_wr;
	a->device_cap_flags = resp.device_cap_flags;
	a->max_sge = resp.max_sge;
	a->max_sge_rd = resp.max_sge_rd;
	a->max_cq = resp.max_cq;
	a->max_cqe = resp.max_cqe;
	a->max_mr = resp.max_mr;
	a->max_pd = resp.max_pd;
	a->max_qp_rd_atom = resp.max_qp_rd_atom;
	a->max_ee_rd_atom = resp.max_ee_rd_atom;
	a->max_res_rd_atom = resp.max_res_rd_atom;
	a->max_qp_init_rd_atom = resp.max_qp_init_rd_atom;
	a->max_ee_init_rd_atom = resp.max_ee_init_rd_atom;
	a->atomic_cap = resp.atomic_cap;
	a->max_ee = resp.max_ee;
	a->max_rdd = resp.max_rdd;
	a->max_mw = resp.max_mw;
	a->max_raw_ipv6_qp = resp.max_raw_ipv6_qp;
	a->max_raw_ethy_qp = resp.max_raw_ethy_qp;
	a->max_mcast_grp = resp.max_mcast_grp;
	a->max_total_mcast_qp_attach = resp.max_total_mcast_qp_attach;
	a->max_mcast_qp_attach = resp.max_mcast_qp_attach;
	a->max_ah = resp.max_ah;
	a->max_fmr = resp.max_fmr;
	a->max_map_per_fmr = resp.max_map_per_fmr;
	a->max_srq = resp.max_srq;
	a->max_srq_wr = resp.max_srq_wr;
	a->max_srq_sge = resp.max_srq_sge;
	a->max_pkeys = resp.max_pkeys;
	a->local_ca_ack_delay = resp.local_ca_ack_delay;
	a->phys_port_cnt = resp.phys_port_cnt;
	return 0;
}

static int gaudi_query_port(struct ibv_context *ibctx, uint8_t port,
			    struct ibv_port_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_port core;
	} cmd = {};
	struct ib_uverbs_query_port_resp resp = {};
	int ret;

	cmd.core.response = (uintptr_t)&resp;
	cmd.core.port_num = port;
	ret = uverbs_write(ibctx->cmd_fd, IB_USER_VERBS_CMD_QUERY_PORT, &cmd,
			   sizeof(cmd), sizeof(resp));
	if (ret)
		return ret;
	memset(attr, 0, sizeof(*attr));
	attr->state = resp.state;
	attr->max_mtu = resp.max_mtu;
	attr->active_mtu = resp.active_mtu;
	attr->gid_tbl_len = resp.gid_tbl_len;
	attr->port_cap_flags = resp.port_cap_flags;
	attr->max_msg_sz = resp.max_msg_sz;
	attr->bad_pkey_cntr = resp.bad_pkey_cntr;
	attr->qkey_viol_cntr = resp.qkey_viol_cntr;
	attr->pkey_tbl_len = resp.pkey_tbl_len;
	attr->lid = resp.lid;
	attr->sm_lid = resp.sm_lid;
	attr->lmc = resp.lmc;
	attr->max_vl_num = resp.max_vl_num;
	attr->sm_sl = resp.sm_sl;
	attr->subnet_timeout = resp.subnet_timeout;
	attr->init_type_reply = resp.init_type_reply;
	attr->active_width = resp.active_width;
	attr->active_speed = resp.active_speed;
	attr->phys_state = resp.phys_state;
	attr->link_layer = resp.link_layer;
	attr->flags = resp.flags;
	return 0;
}

/* ---- protection domains -------------------------------------------------- */

static struct ibv_pd *gaudi_alloc_pd(struct ibv_context *ibctx)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_alloc_pd core;
	} cmd = {};
	struct {
		struct ib_uverbs_alloc_pd_resp core;
		struct gaudi_ib_alloc_pd_resp drv;
	} resp = {};
	struct gaudi_vpd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd) {
		errno = ENOMEM;
		return NULL;
	}
	cmd.core.response = (uintptr_t)&resp;
	ret = uverbs_write(ibctx->cmd_fd, IB_USER_VERBS_CMD_ALLOC_PD, &cmd,
			   sizeof(cmd), sizeof(resp));
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	pd->ibpd.context = ibctx;
	pd->ibpd.handle = resp.core.pd_handle;
	pd->pdn = resp.drv.pdn;
	return &pd->ibpd;
}

static int gaudi_dealloc_pd(struct ibv_pd *ibpd)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_dealloc_pd core;
	} cmd = {};
	int ret;

	cmd.core.pd_handle = ibpd->handle;
	ret = uverbs_write(ibpd->context->cmd_fd, IB_USER_VERBS_CMD_DEALLOC_PD,
			   &cmd, sizeof(cmd), 0);
	if (ret)
		return ret;
	free(ibpd);
	return 0;
}

/* ---- memory regions --------------------------------------------------- */

/*
 * The kernel pins the pages and maps them into the card's MMU for the
 * holder; hca_va is the address the region's keys name (ibv_reg_mr gives
 * the buffer's own).
 */
static struct ibv_mr *gaudi_reg_mr(struct ibv_pd *ibpd, void *addr,
				   size_t length, uint64_t hca_va, int access)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_reg_mr core;
	} cmd = {};
	struct ib_uverbs_reg_mr_resp resp = {};
	struct verbs_mr *mr;
	int ret;

	mr = calloc(1, sizeof(*mr));
	if (!mr) {
		errno = ENOMEM;
		return NULL;
	}
	cmd.core.response = (uintptr_t)&resp;
	cmd.core.start = (uintptr_t)addr;
	cmd.core.length = length;
	cmd.core.hca_va = hca_va;
	cmd.core.pd_handle = ibpd->handle;
	cmd.core.access_flags = access;
	ret = uverbs_write(ibpd->context->cmd_fd, IB_USER_VERBS_CMD_REG_MR,
			   &cmd, sizeof(cmd), sizeof(resp));
	if (ret) {
		free(mr);
		errno = ret;
		return NULL;
	}
	mr->ibv_mr.context = ibpd->context;
	mr->ibv_mr.pd = ibpd;
	mr->ibv_mr.addr = addr;
	mr->ibv_mr.length = length;
	mr->ibv_mr.handle = resp.mr_handle;
	mr->ibv_mr.lkey = resp.lkey;
	mr->ibv_mr.rkey = resp.rkey;
	mr->mr_type = VERBS_MR_TYPE_MR;
	mr->access = access;
	return &mr->ibv_mr;
}

static int gaudi_dereg_mr(struct verbs_mr *mr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_dereg_mr core;
	} cmd = {};
	int ret;

	cmd.core.mr_handle = mr->ibv_mr.handle;
	ret = uverbs_write(mr->ibv_mr.context->cmd_fd,
			   IB_USER_VERBS_CMD_DEREG_MR, &cmd, sizeof(cmd), 0);
	if (ret)
		return ret;
	free(mr);
	return 0;
}

/* ---- completion queues --------------------------------------------------- */

/*
 * The kernel's user handle of a CQ or QP is the object's address: the
 * completion channel's events name it (ibv_get_cq_event()).
 */
static struct ibv_cq *gaudi_create_cq(struct ibv_context *ibctx, int cqe,
				      struct ibv_comp_channel *channel,
				      int comp_vector)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_cq core;
	} cmd = {};
	struct ib_uverbs_create_cq_resp resp = {};
	struct ibv_cq *cq;
	int ret;

	/* Queues only where the kernel runs them (a phase-A driver has none). */
	if (!to_vctx(ibctx)->kernel_datapath) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (cqe <= 0 || comp_vector < 0) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	cmd.core.response = (uintptr_t)&resp;
	cmd.core.user_handle = (uintptr_t)cq;
	cmd.core.cqe = cqe;
	cmd.core.comp_vector = comp_vector;
	cmd.core.comp_channel = channel ? channel->fd : -1;
	ret = uverbs_write(ibctx->cmd_fd, IB_USER_VERBS_CMD_CREATE_CQ, &cmd,
			   sizeof(cmd), sizeof(resp));
	if (ret) {
		free(cq);
		errno = ret;
		return NULL;
	}
	/* libibverbs sets context, channel and the rest after this. */
	cq->context = ibctx;
	cq->handle = resp.cq_handle;
	cq->cqe = resp.cqe;
	return cq;
}

static int gaudi_destroy_cq(struct ibv_cq *cq)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_cq core;
	} cmd = {};
	struct ib_uverbs_destroy_cq_resp resp = {};
	int ret;

	cmd.core.response = (uintptr_t)&resp;
	cmd.core.cq_handle = cq->handle;
	ret = uverbs_write(cq->context->cmd_fd, IB_USER_VERBS_CMD_DESTROY_CQ,
			   &cmd, sizeof(cmd), sizeof(resp));
	if (ret)
		return ret;
	/* The events the kernel reported must all be acknowledged. */
	pthread_mutex_lock(&cq->mutex);
	while (cq->comp_events_completed != resp.comp_events_reported ||
	       cq->async_events_completed != resp.async_events_reported)
		pthread_cond_wait(&cq->cond, &cq->mutex);
	pthread_mutex_unlock(&cq->mutex);
	free(cq);
	return 0;
}

static int gaudi_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)
{
	if (ne < 0)
		return -1;
	if (!ne)
		return 0;
	return ibv_cmd_poll_cq(cq, ne, wc);
}

static int gaudi_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return ibv_cmd_req_notify_cq(cq, solicited_only);
}

/* ---- queue pairs ------------------------------------------------------- */

/* Work requests of the extended QP API, from wr_start() to wr_complete(). */
#define GAUDI_WR_BATCH 64

/*
 * A staging ring (uapi/rdma/gaudi_ib_abi.h): @entries slots, then the
 * indexes; @pi the provider's producer index (the kernel's consumer index
 * equals it between posts: a kick takes all or stops at the first refused,
 * and the provider then takes the rest back).
 */
struct gaudi_vring {
	void *mem;
	size_t size;
	uint32_t entries;
	uint32_t pi;
	struct gaudi_ib_ring_ctl *ctl;
	pthread_spinlock_t lock;
};

struct gaudi_vqp {
	struct verbs_qp vqp;
	struct ibv_send_wr wr[GAUDI_WR_BATCH];
	struct ibv_sge sge[GAUDI_WR_BATCH];
	unsigned int nwr;
	int wr_err;
	struct gaudi_vring sq, rq; /* mem NULL: no ring */
};

/* Map the staging ring of @offset and @size (0: none); 0 or an errno. */
static int ring_map(struct ibv_context *ctx, struct gaudi_vring *r,
		    uint64_t offset, uint32_t size, uint32_t entries,
		    size_t slot)
{
	void *mem;

	if (!size)
		return 0;
	if (!entries || (entries & (entries - 1)) ||
	    (uint64_t)entries * slot + sizeof(struct gaudi_ib_ring_ctl) > size)
		return EPROTO;
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   ctx->cmd_fd, (off_t)offset);
	if (mem == MAP_FAILED)
		return errno;
	r->mem = mem;
	r->size = size;
	r->entries = entries;
	r->ctl = (struct gaudi_ib_ring_ctl *)((char *)mem + entries * slot);
	r->pi = __atomic_load_n(&r->ctl->ci, __ATOMIC_ACQUIRE);
	pthread_spin_init(&r->lock, PTHREAD_PROCESS_PRIVATE);
	return 0;
}

static void ring_unmap(struct gaudi_vring *r)
{
	if (!r->mem)
		return;
	munmap(r->mem, r->size);
	pthread_spin_destroy(&r->lock);
	r->mem = NULL;
}

/*
 * After a kick of @n staged WRs: how many the kernel took (its consumer
 * index; at most @n); the rest are taken back from the ring.
 */
static uint32_t ring_kicked(struct gaudi_vring *r, uint32_t n)
{
	uint32_t taken = __atomic_load_n(&r->ctl->ci, __ATOMIC_ACQUIRE) -
			 r->pi;

	if (taken > n)
		taken = 0;
	r->pi += taken;
	if (taken != n)
		__atomic_store_n(&r->ctl->pi, r->pi, __ATOMIC_RELEASE);
	return taken;
}

static struct gaudi_vqp *to_vqp(struct ibv_qp *ibqp)
{
	return (struct gaudi_vqp *)ibqp;
}

static int destroy_qp_cmd(struct ibv_qp *ibqp, uint32_t *events);

/* RC only (rdma.rst): no SRQ, XRC, UD, UC, raw or extended attributes. */
static struct ibv_qp *gaudi_create_qp(struct ibv_pd *ibpd,
				      struct ibv_qp_init_attr *attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_qp core;
		struct gaudi_ib_create_qp_req drv;
	} cmd = {};
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct gaudi_ib_create_qp_resp drv;
	} r = {};
	struct ib_uverbs_create_qp_resp *resp = &r.core;
	struct gaudi_vqp *qp;
	struct ibv_qp *ibqp;
	int ret;

	if (!attr || !attr->send_cq || !attr->recv_cq) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->qp_type != IBV_QPT_RC || attr->srq ||
	    !to_vctx(ibpd->context)->kernel_datapath) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	ibqp = &qp->vqp.qp;
	if (to_vctx(ibpd->context)->staging_rings)
		cmd.drv.comp_mask = GAUDI_IB_QP_SQ_RING | GAUDI_IB_QP_RQ_RING;
	cmd.core.response = (uintptr_t)&r;
	cmd.core.user_handle = (uintptr_t)ibqp;
	cmd.core.pd_handle = ibpd->handle;
	cmd.core.send_cq_handle = attr->send_cq->handle;
	cmd.core.recv_cq_handle = attr->recv_cq->handle;
	cmd.core.max_send_wr = attr->cap.max_send_wr;
	cmd.core.max_recv_wr = attr->cap.max_recv_wr;
	cmd.core.max_send_sge = attr->cap.max_send_sge;
	cmd.core.max_recv_sge = attr->cap.max_recv_sge;
	cmd.core.max_inline_data = attr->cap.max_inline_data;
	cmd.core.sq_sig_all = !!attr->sq_sig_all;
	cmd.core.qp_type = attr->qp_type;
	ret = uverbs_write(ibpd->context->cmd_fd, IB_USER_VERBS_CMD_CREATE_QP,
			   &cmd, sizeof(cmd), sizeof(r));
	if (ret) {
		free(qp);
		errno = ret;
		return NULL;
	}
	if (r.drv.comp_mask & GAUDI_IB_QP_SQ_RING)
		ret = ring_map(ibpd->context, &qp->sq, r.drv.sq_ring_offset,
			       r.drv.sq_ring_size, r.drv.sq_ring_entries,
			       sizeof(struct gaudi_ib_ring_swqe));
	if (!ret && (r.drv.comp_mask & GAUDI_IB_QP_RQ_RING))
		ret = ring_map(ibpd->context, &qp->rq, r.drv.rq_ring_offset,
			       r.drv.rq_ring_size, r.drv.rq_ring_entries,
			       sizeof(struct gaudi_ib_ring_rwqe));
	if (ret) {
		ring_unmap(&qp->sq);
		ibqp->context = ibpd->context;
		ibqp->handle = resp->qp_handle;
		destroy_qp_cmd(ibqp, NULL);
		free(qp);
		errno = ret;
		return NULL;
	}
	ibqp->context = ibpd->context;
	ibqp->qp_context = attr->qp_context;
	ibqp->pd = ibpd;
	ibqp->send_cq = attr->send_cq;
	ibqp->recv_cq = attr->recv_cq;
	ibqp->handle = resp->qp_handle;
	ibqp->qp_num = resp->qpn;
	ibqp->state = IBV_QPS_RESET;
	ibqp->qp_type = attr->qp_type;
	ibqp->events_completed = 0;
	pthread_mutex_init(&ibqp->mutex, NULL);
	pthread_cond_init(&ibqp->cond, NULL);
	attr->cap.max_send_wr = resp->max_send_wr;
	attr->cap.max_recv_wr = resp->max_recv_wr;
	attr->cap.max_send_sge = resp->max_send_sge;
	attr->cap.max_recv_sge = resp->max_recv_sge;
	attr->cap.max_inline_data = resp->max_inline_data;
	return ibqp;
}

/* The DESTROY_QP command; the events reported in *@events (if not NULL). */
static int destroy_qp_cmd(struct ibv_qp *ibqp, uint32_t *events)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_qp core;
	} cmd = {};
	struct ib_uverbs_destroy_qp_resp resp = {};
	int ret;

	cmd.core.response = (uintptr_t)&resp;
	cmd.core.qp_handle = ibqp->handle;
	ret = uverbs_write(ibqp->context->cmd_fd, IB_USER_VERBS_CMD_DESTROY_QP,
			   &cmd, sizeof(cmd), sizeof(resp));
	if (!ret && events)
		*events = resp.events_reported;
	return ret;
}

static int gaudi_destroy_qp(struct ibv_qp *ibqp)
{
	struct gaudi_vqp *qp = to_vqp(ibqp);
	uint32_t events = 0;
	int ret;

	ret = destroy_qp_cmd(ibqp, &events);
	if (ret)
		return ret;
	ring_unmap(&qp->sq);
	ring_unmap(&qp->rq);
	pthread_mutex_lock(&ibqp->mutex);
	while (ibqp->events_completed != events)
		pthread_cond_wait(&ibqp->cond, &ibqp->mutex);
	pthread_mutex_unlock(&ibqp->mutex);
	free(to_vqp(ibqp));
	return 0;
}

static void qp_dest_to_uverbs(struct ib_uverbs_qp_dest *d,
			      const struct ibv_ah_attr *a)
{
	memcpy(d->dgid, a->grh.dgid.raw, sizeof(d->dgid));
	d->flow_label = a->grh.flow_label;
	d->dlid = a->dlid;
	d->sgid_index = a->grh.sgid_index;
	d->hop_limit = a->grh.hop_limit;
	d->traffic_class = a->grh.traffic_class;
	d->sl = a->sl;
	d->src_path_bits = a->src_path_bits;
	d->static_rate = a->static_rate;
	d->is_global = a->is_global;
	d->port_num = a->port_num;
}

static void qp_dest_from_uverbs(struct ibv_ah_attr *a,
				const struct ib_uverbs_qp_dest *d)
{
	memcpy(a->grh.dgid.raw, d->dgid, sizeof(d->dgid));
	a->grh.flow_label = d->flow_label;
	a->dlid = d->dlid;
	a->grh.sgid_index = d->sgid_index;
	a->grh.hop_limit = d->hop_limit;
	a->grh.traffic_class = d->traffic_class;
	a->sl = d->sl;
	a->src_path_bits = d->src_path_bits;
	a->static_rate = d->static_rate;
	a->is_global = d->is_global;
	a->port_num = d->port_num;
}

/* The attributes of the IBTA state machine (the kernel checks them). */
static int gaudi_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
			   int attr_mask)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_modify_qp core;
	} cmd = {};

	if (!attr || attr_mask < 0)
		return EINVAL;
	cmd.core.qp_handle = ibqp->handle;
	cmd.core.attr_mask = attr_mask;
	cmd.core.qkey = attr->qkey;
	cmd.core.rq_psn = attr->rq_psn;
	cmd.core.sq_psn = attr->sq_psn;
	cmd.core.dest_qp_num = attr->dest_qp_num;
	cmd.core.qp_access_flags = attr->qp_access_flags;
	cmd.core.pkey_index = attr->pkey_index;
	cmd.core.alt_pkey_index = attr->alt_pkey_index;
	cmd.core.qp_state = attr->qp_state;
	cmd.core.cur_qp_state = attr->cur_qp_state;
	cmd.core.path_mtu = attr->path_mtu;
	cmd.core.path_mig_state = attr->path_mig_state;
	cmd.core.en_sqd_async_notify = attr->en_sqd_async_notify;
	cmd.core.max_rd_atomic = attr->max_rd_atomic;
	cmd.core.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	cmd.core.min_rnr_timer = attr->min_rnr_timer;
	cmd.core.port_num = attr->port_num;
	cmd.core.timeout = attr->timeout;
	cmd.core.retry_cnt = attr->retry_cnt;
	cmd.core.rnr_retry = attr->rnr_retry;
	cmd.core.alt_port_num = attr->alt_port_num;
	cmd.core.alt_timeout = attr->alt_timeout;
	qp_dest_to_uverbs(&cmd.core.dest, &attr->ah_attr);
	qp_dest_to_uverbs(&cmd.core.alt_dest, &attr->alt_ah_attr);
	return uverbs_write(ibqp->context->cmd_fd, IB_USER_VERBS_CMD_MODIFY_QP,
			    &cmd, sizeof(cmd), 0);
}

static int gaudi_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
			  int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_qp core;
	} cmd = {};
	struct ib_uverbs_query_qp_resp resp = {};
	int ret;

	if (!attr || !init_attr || attr_mask < 0)
		return EINVAL;
	cmd.core.response = (uintptr_t)&resp;
	cmd.core.qp_handle = ibqp->handle;
	cmd.core.attr_mask = attr_mask;
	ret = uverbs_write(ibqp->context->cmd_fd, IB_USER_VERBS_CMD_QUERY_QP,
			   &cmd, sizeof(cmd), sizeof(resp));
	if (ret)
		return ret;
	memset(attr, 0, sizeof(*attr));
	attr->qkey = resp.qkey;
	attr->rq_psn = resp.rq_psn;
	attr->sq_psn = resp.sq_psn;
	attr->dest_qp_num = resp.dest_qp_num;
	attr->qp_access_flags = resp.qp_access_flags;
	attr->pkey_index = resp.pkey_index;
	attr->alt_pkey_index = resp.alt_pkey_index;
	attr->qp_state = resp.qp_state;
	attr->cur_qp_state = resp.cur_qp_state;
	attr->path_mtu = resp.path_mtu;
	attr->path_mig_state = resp.path_mig_state;
	attr->sq_draining = resp.sq_draining;
	attr->max_rd_atomic = resp.max_rd_atomic;
	attr->max_dest_rd_atomic = resp.max_dest_rd_atomic;
	attr->min_rnr_timer = resp.min_rnr_timer;
	attr->port_num = resp.port_num;
	attr->timeout = resp.timeout;
	attr->retry_cnt = resp.retry_cnt;
	attr->rnr_retry = resp.rnr_retry;
	attr->alt_port_num = resp.alt_port_num;
	attr->alt_timeout = resp.alt_timeout;
	attr->cap.max_send_wr = resp.max_send_wr;
	attr->cap.max_recv_wr = resp.max_recv_wr;
	attr->cap.max_send_sge = resp.max_send_sge;
	attr->cap.max_recv_sge = resp.max_recv_sge;
	attr->cap.max_inline_data = resp.max_inline_data;
	qp_dest_from_uverbs(&attr->ah_attr, &resp.dest);
	qp_dest_from_uverbs(&attr->alt_ah_attr, &resp.alt_dest);
	memset(init_attr, 0, sizeof(*init_attr));
	init_attr->qp_context = ibqp->qp_context;
	init_attr->send_cq = ibqp->send_cq;
	init_attr->recv_cq = ibqp->recv_cq;
	init_attr->srq = ibqp->srq;
	init_attr->qp_type = ibqp->qp_type;
	init_attr->cap = attr->cap;
	init_attr->sq_sig_all = resp.sq_sig_all;
	return 0;
}

/* An SGE count as the ring holds it: more than 1 stays more (refused). */
static uint8_t ring_num_sge(int num_sge)
{
	return num_sge < 0 || num_sge > 1 ? 2 : (uint8_t)num_sge;
}

/*
 * Publish @n staged WRs of @r, kick (a post command of none) and take back
 * what the kernel did not take: 0, or the kick's errno (EIO if it took
 * fewer without one); *@taken how many it took.
 */
static int ring_kick(struct gaudi_vqp *qp, struct gaudi_vring *r, uint32_t n,
		     bool recv, uint32_t *taken)
{
	struct ibv_send_wr *sbad;
	struct ibv_recv_wr *rbad;
	int ret;

	__atomic_store_n(&r->ctl->pi, r->pi + n, __ATOMIC_RELEASE);
	ret = recv ? ibv_cmd_post_recv(&qp->vqp.qp, NULL, &rbad) :
		     ibv_cmd_post_send(&qp->vqp.qp, NULL, &sbad);
	*taken = ring_kicked(r, n);
	return ret ? ret : *taken != n ? EIO : 0;
}

/* One send WR into slot @i of @r. */
static void ring_put_send(struct gaudi_vring *r, uint32_t i,
			  const struct ibv_send_wr *wr)
{
	struct gaudi_ib_ring_swqe *s =
		(struct gaudi_ib_ring_swqe *)r->mem + (i & (r->entries - 1));

	memset(s, 0, sizeof(*s));
	s->wr_id = wr->wr_id;
	s->opcode = wr->opcode;
	s->send_flags = wr->send_flags;
	s->num_sge = ring_num_sge(wr->num_sge);
	if (wr->num_sge > 0) {
		s->addr = wr->sg_list[0].addr;
		s->length = wr->sg_list[0].length;
		s->lkey = wr->sg_list[0].lkey;
	}
	s->remote_addr = wr->wr.rdma.remote_addr;
	s->rkey = wr->wr.rdma.rkey;
	s->imm_data = (uint32_t)wr->imm_data;
}

/*
 * Into the send staging ring, a kick for each ring's worth; the kernel
 * checks each WR.  *@bad_wr: the first not taken.
 */
static int ring_post_send(struct gaudi_vqp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad_wr)
{
	struct gaudi_vring *r = &qp->sq;
	struct ibv_send_wr *batch;
	uint32_t n, taken;
	int ret = 0;

	pthread_spin_lock(&r->lock);
	while (wr && !ret) {
		for (batch = wr, n = 0; wr && n < r->entries; wr = wr->next)
			ring_put_send(r, r->pi + n++, wr);
		ret = ring_kick(qp, r, n, false, &taken);
		for (wr = ret ? batch : wr; ret && taken--; wr = wr->next)
			;
	}
	if (ret)
		*bad_wr = wr;
	pthread_spin_unlock(&r->lock);
	return ret;
}

static int gaudi_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
			   struct ibv_send_wr **bad_wr)
{
	if (to_vqp(ibqp)->sq.mem)
		return ring_post_send(to_vqp(ibqp), wr, bad_wr);
	return ibv_cmd_post_send(ibqp, wr, bad_wr);
}

/* One receive WR into slot @i of @r. */
static void ring_put_recv(struct gaudi_vring *r, uint32_t i,
			  const struct ibv_recv_wr *wr)
{
	struct gaudi_ib_ring_rwqe *s =
		(struct gaudi_ib_ring_rwqe *)r->mem + (i & (r->entries - 1));

	memset(s, 0, sizeof(*s));
	s->wr_id = wr->wr_id;
	s->num_sge = ring_num_sge(wr->num_sge);
	if (wr->num_sge > 0) {
		s->addr = wr->sg_list[0].addr;
		s->length = wr->sg_list[0].length;
		s->lkey = wr->sg_list[0].lkey;
	}
}

/* Into the receive staging ring, as ring_post_send(). */
static int ring_post_recv(struct gaudi_vqp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad_wr)
{
	struct gaudi_vring *r = &qp->rq;
	struct ibv_recv_wr *batch;
	uint32_t n, taken;
	int ret = 0;

	pthread_spin_lock(&r->lock);
	while (wr && !ret) {
		for (batch = wr, n = 0; wr && n < r->entries; wr = wr->next)
			ring_put_recv(r, r->pi + n++, wr);
		ret = ring_kick(qp, r, n, true, &taken);
		for (wr = ret ? batch : wr; ret && taken--; wr = wr->next)
			;
	}
	if (ret)
		*bad_wr = wr;
	pthread_spin_unlock(&r->lock);
	return ret;
}

static int gaudi_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
			   struct ibv_recv_wr **bad_wr)
{
	if (to_vqp(ibqp)->rq.mem)
		return ring_post_recv(to_vqp(ibqp), wr, bad_wr);
	return ibv_cmd_post_recv(ibqp, wr, bad_wr);
}

/* ---- the extended QP's work-request API (ibv_wr_*) ------------------------ */

/*
 * ibv_wr_start() .. ibv_wr_complete() collect the requests as ibv_send_wr
 * and post them in one ibv_post_send(); an error on the way (too many, an
 * operation the device does not do) is returned by ibv_wr_complete().
 */
static struct gaudi_vqp *qpx_to_vqp(struct ibv_qp_ex *qpx)
{
	return (struct gaudi_vqp *)qpx;
}

static struct ibv_send_wr *wr_next(struct ibv_qp_ex *qpx,
				   enum ibv_wr_opcode opcode)
{
	struct gaudi_vqp *qp = qpx_to_vqp(qpx);
	struct ibv_send_wr *wr;

	if (qp->nwr >= GAUDI_WR_BATCH) {
		qp->wr_err = ENOMEM;
		return NULL;
	}
	wr = &qp->wr[qp->nwr];
	memset(wr, 0, sizeof(*wr));
	memset(&qp->sge[qp->nwr], 0, sizeof(qp->sge[0]));
	wr->wr_id = qpx->wr_id;
	wr->send_flags = qpx->wr_flags;
	wr->opcode = opcode;
	if (qp->nwr)
		qp->wr[qp->nwr - 1].next = wr;
	qp->nwr++;
	return wr;
}

static void gaudi_wr_start(struct ibv_qp_ex *qpx)
{
	qpx_to_vqp(qpx)->nwr = 0;
	qpx_to_vqp(qpx)->wr_err = 0;
}

static int gaudi_wr_complete(struct ibv_qp_ex *qpx)
{
	struct gaudi_vqp *qp = qpx_to_vqp(qpx);
	struct ibv_send_wr *bad;
	int ret = qp->wr_err;

	if (!ret && qp->nwr)
		ret = gaudi_post_send(&qpx->qp_base, qp->wr, &bad);
	qp->nwr = 0;
	qp->wr_err = 0;
	return ret;
}

static void gaudi_wr_abort(struct ibv_qp_ex *qpx)
{
	qpx_to_vqp(qpx)->nwr = 0;
	qpx_to_vqp(qpx)->wr_err = 0;
}

static void gaudi_wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey,
				uint64_t remote_addr)
{
	struct ibv_send_wr *wr = wr_next(qpx, IBV_WR_RDMA_WRITE);

	if (wr) {
		wr->wr.rdma.rkey = rkey;
		wr->wr.rdma.remote_addr = remote_addr;
	}
}

static void gaudi_wr_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey,
				    uint64_t remote_addr, __be32 imm)
{
	struct ibv_send_wr *wr = wr_next(qpx, IBV_WR_RDMA_WRITE_WITH_IMM);

	if (wr) {
		wr->wr.rdma.rkey = rkey;
		wr->wr.rdma.remote_addr = remote_addr;
		wr->imm_data = imm;
	}
}

static void gaudi_wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey,
			       uint64_t remote_addr)
{
	struct ibv_send_wr *wr = wr_next(qpx, IBV_WR_RDMA_READ);

	if (wr) {
		wr->wr.rdma.rkey = rkey;
		wr->wr.rdma.remote_addr = remote_addr;
	}
}

static void gaudi_wr_send(struct ibv_qp_ex *qpx)
{
	wr_next(qpx, IBV_WR_SEND);
}

static void gaudi_wr_send_imm(struct ibv_qp_ex *qpx, __be32 imm)
{
	struct ibv_send_wr *wr = wr_next(qpx, IBV_WR_SEND_WITH_IMM);

	if (wr)
		wr->imm_data = imm;
}

static void gaudi_wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey,
			     uint64_t addr, uint32_t length)
{
	struct gaudi_vqp *qp = qpx_to_vqp(qpx);
	struct ibv_sge *sge;

	if (!qp->nwr) {
		qp->wr_err = EINVAL;
		return;
	}
	sge = &qp->sge[qp->nwr - 1];
	sge->lkey = lkey;
	sge->addr = addr;
	sge->length = length;
	qp->wr[qp->nwr - 1].sg_list = sge;
	qp->wr[qp->nwr - 1].num_sge = 1;
}

/* One SGE a request (the device's max_sge). */
static void gaudi_wr_set_sge_list(struct ibv_qp_ex *qpx, size_t num_sge,
				  const struct ibv_sge *sg_list)
{
	struct gaudi_vqp *qp = qpx_to_vqp(qpx);

	if (!qp->nwr || num_sge > 1) {
		qp->wr_err = EINVAL;
		return;
	}
	if (num_sge)
		gaudi_wr_set_sge(qpx, sg_list->lkey, sg_list->addr,
				 sg_list->length);
	else
		qp->wr[qp->nwr - 1].num_sge = 0;
}

/* What the device does not do: ibv_wr_complete() fails with EOPNOTSUPP. */
static void wr_unsupported(struct gaudi_vqp *qp)
{
	qp->wr_err = EOPNOTSUPP;
}

static void gaudi_wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr,
				     size_t length)
{
	(void)addr;
	(void)length;
	wr_unsupported(qpx_to_vqp(qpx));
}

static void gaudi_wr_set_inline_data_list(struct ibv_qp_ex *qpx,
					  size_t num_buf,
					  const struct ibv_data_buf *buf_list)
{
	(void)num_buf;
	(void)buf_list;
	wr_unsupported(qpx_to_vqp(qpx));
}

static void gaudi_wr_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey,
				    uint64_t remote_addr, uint64_t compare,
				    uint64_t swap)
{
	(void)rkey;
	(void)remote_addr;
	(void)compare;
	(void)swap;
	wr_unsupported(qpx_to_vqp(qpx));
}

static void gaudi_wr_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey,
				      uint64_t remote_addr, uint64_t add)
{
	(void)rkey;
	(void)remote_addr;
	(void)add;
	wr_unsupported(qpx_to_vqp(qpx));
}

/* The operations an extended QP may ask for (send_ops_flags). */
#define GAUDI_QP_EX_OPS                                                      \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |    \
	 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |                \
	 IBV_QP_EX_WITH_RDMA_READ)

/*
 * ibv_create_qp_ex(): a PD and, optionally, the work-request API for the
 * operations of GAUDI_QP_EX_OPS; nothing else (no XRC, TSO, RSS, ...).
 */
static struct ibv_qp *gaudi_create_qp_ex(struct ibv_context *ibctx,
					 struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_qp_init_attr init = {};
	struct ibv_qp_ex *qpx;
	struct ibv_qp *ibqp;

	if (!attr || !(attr->comp_mask & IBV_QP_INIT_ATTR_PD) || !attr->pd ||
	    attr->pd->context != ibctx) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask &
	    ~(IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) &&
	    (attr->send_ops_flags & ~(uint64_t)GAUDI_QP_EX_OPS)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	init.qp_context = attr->qp_context;
	init.send_cq = attr->send_cq;
	init.recv_cq = attr->recv_cq;
	init.srq = attr->srq;
	init.cap = attr->cap;
	init.qp_type = attr->qp_type;
	init.sq_sig_all = attr->sq_sig_all;
	ibqp = gaudi_create_qp(attr->pd, &init);
	if (!ibqp)
		return NULL;
	attr->cap = init.cap;
	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS))
		return ibqp;
	qpx = &to_vqp(ibqp)->vqp.qp_ex;
	to_vqp(ibqp)->vqp.comp_mask |= VERBS_QP_EX;
	qpx->wr_start = gaudi_wr_start;
	qpx->wr_complete = gaudi_wr_complete;
	qpx->wr_abort = gaudi_wr_abort;
	qpx->wr_rdma_write = gaudi_wr_rdma_write;
	qpx->wr_rdma_write_imm = gaudi_wr_rdma_write_imm;
	qpx->wr_rdma_read = gaudi_wr_rdma_read;
	qpx->wr_send = gaudi_wr_send;
	qpx->wr_send_imm = gaudi_wr_send_imm;
	qpx->wr_set_sge = gaudi_wr_set_sge;
	qpx->wr_set_sge_list = gaudi_wr_set_sge_list;
	qpx->wr_set_inline_data = gaudi_wr_set_inline_data;
	qpx->wr_set_inline_data_list = gaudi_wr_set_inline_data_list;
	qpx->wr_atomic_cmp_swp = gaudi_wr_atomic_cmp_swp;
	qpx->wr_atomic_fetch_add = gaudi_wr_atomic_fetch_add;
	return ibqp;
}

/* ---- context --------------------------------------------------------- */

static void gaudi_free_context(struct ibv_context *ibctx)
{
	struct gaudi_vctx *ctx = to_vctx(ibctx);
	int fd = ctx->accel_fd;

	/* The context's hold goes with the uverbs file, then this one. */
	verbs_uninit_context(&ctx->vctx);
	if (fd >= 0)
		close(fd);
	free(ctx);
}

/*
 * Open the compute node of the device's card (its PCI function's accel
 * node): the fd, -1 with errno EBUSY when this process holds the card
 * already (or another does: the kernel tells the two apart).
 */
static int open_card(struct ibv_device *ibdev)
{
	char path[IBV_SYSFS_PATH_MAX + 32];
	struct dirent *e;
	int minor = -1;
	DIR *d;

	snprintf(path, sizeof(path), "%s/device/accel", ibdev->ibdev_path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "accel%d", &minor) == 1)
			break;
	closedir(d);
	if (minor < 0) {
		errno = ENODEV;
		return -1;
	}
	snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
	return open(path, O_RDWR | O_CLOEXEC);
}

static const struct verbs_context_ops gaudi_ctx_ops = {
	.alloc_pd = gaudi_alloc_pd,
	.create_cq = gaudi_create_cq,
	.create_qp = gaudi_create_qp,
	.create_qp_ex = gaudi_create_qp_ex,
	.dealloc_pd = gaudi_dealloc_pd,
	.dereg_mr = gaudi_dereg_mr,
	.destroy_cq = gaudi_destroy_cq,
	.destroy_qp = gaudi_destroy_qp,
	.free_context = gaudi_free_context,
	.modify_qp = gaudi_modify_qp,
	.poll_cq = gaudi_poll_cq,
	.post_recv = gaudi_post_recv,
	.post_send = gaudi_post_send,
	.query_device_ex = gaudi_query_device_ex,
	.query_port = gaudi_query_port,
	.query_qp = gaudi_query_qp,
	.reg_mr = gaudi_reg_mr,
	.req_notify_cq = gaudi_req_notify_cq,
};

static struct verbs_context *gaudi_alloc_context(struct ibv_device *ibdev,
						 int cmd_fd, void *private_data)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_get_context core;
		struct gaudi_ib_alloc_ucontext_req drv;
	} cmd = {};
	struct {
		struct ib_uverbs_get_context_resp core;
		struct gaudi_ib_alloc_ucontext_resp drv;
	} resp = {};
	struct gaudi_vctx *ctx;
	int accel_fd, ret;
	const char *env;

	(void)private_data;
	accel_fd = open_card(ibdev);
	if (accel_fd < 0 && errno != EBUSY)
		return NULL;
	ctx = _verbs_init_and_alloc_context(ibdev, cmd_fd, sizeof(*ctx),
					    &((struct gaudi_vctx *)NULL)->vctx,
					    0 /* RDMA_DRIVER_UNKNOWN */);
	if (!ctx) {
		if (accel_fd >= 0)
			close(accel_fd);
		return NULL;
	}
	ctx->accel_fd = accel_fd;
	cmd.core.response = (uintptr_t)&resp;
	ret = uverbs_write(cmd_fd, IB_USER_VERBS_CMD_GET_CONTEXT, &cmd,
			   sizeof(cmd), sizeof(resp));
	if (ret) {
		/* EBUSY: another process holds the card (rdma.rst). */
		verbs_uninit_context(&ctx->vctx);
		if (accel_fd >= 0)
			close(accel_fd);
		free(ctx);
		errno = ret;
		return NULL;
	}
	ctx->vctx.context.async_fd = resp.core.async_fd;
	ctx->vctx.context.num_comp_vectors = resp.core.num_comp_vectors;
	ctx->num_ports = resp.drv.num_ports < GAUDI_IB_MAX_PORTS
				 ? resp.drv.num_ports
				 : GAUDI_IB_MAX_PORTS;
	memcpy(ctx->hw_port, resp.drv.hw_port, sizeof(ctx->hw_port));
	ctx->card = resp.drv.card;
	ctx->kernel_datapath =
		resp.drv.comp_mask & GAUDI_IB_UCTX_KERNEL_DATAPATH;
	env = getenv("GAUDI_VERBS_KERNEL_POST");
	ctx->staging_rings =
		(resp.drv.comp_mask & GAUDI_IB_UCTX_STAGING_RINGS) &&
		!(env && env[0] == '1');
	verbs_set_ops(&ctx->vctx, &gaudi_ctx_ops);
	return &ctx->vctx;
}

static struct verbs_device *gaudi_alloc_device(struct verbs_sysfs_dev *sdev)
{
	struct gaudi_vdev *dev;

	(void)sdev;
	dev = calloc(1, sizeof(*dev));
	return dev ? &dev->vdev : NULL;
}

static void gaudi_uninit_device(struct verbs_device *vdev)
{
	free((struct gaudi_vdev *)vdev);
}

/* gaudi_ib's devices have the card's PCI function as parent. */
static const struct verbs_match_ent gaudi_match[] = {
	{.vendor = GAUDI_PCI_VENDOR,
	 .device = GAUDI_PCI_DEVICE,
	 .kind = VERBS_MATCH_PCI},
	{.kind = VERBS_MATCH_SENTINEL},
};

static const struct verbs_device_ops gaudi_dev_ops = {
	.name = "gaudi",
	.match_min_abi_version = GAUDI_IB_UVERBS_ABI_VERSION,
	.match_max_abi_version = GAUDI_IB_UVERBS_ABI_VERSION,
	.match_table = gaudi_match,
	.alloc_device = gaudi_alloc_device,
	.uninit_device = gaudi_uninit_device,
	.alloc_context = gaudi_alloc_context,
};

/* What a static build of libibverbs would look for (as every provider). */
GAUDI_VERBS_EXPORT extern const struct verbs_device_ops verbs_provider_gaudi
	__attribute__((alias("gaudi_dev_ops")));

static __attribute__((constructor)) void gaudi_verbs_register(void)
{
	verbs_register_driver_34(&gaudi_dev_ops);
}
