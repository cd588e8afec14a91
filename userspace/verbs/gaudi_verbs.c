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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	.dealloc_pd = gaudi_dealloc_pd,
	.free_context = gaudi_free_context,
	.query_device_ex = gaudi_query_device_ex,
	.query_port = gaudi_query_port,
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
