/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: RoCE connections of the holder of the compute node
 * (gaudi_roce.c, DRM_IOCTL_GAUDI_NIC).
 */
#ifndef GAUDI_ROCE_H
#define GAUDI_ROCE_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct gaudi_device;
struct gaudi_file;

int gaudi_roce_sw_init(struct gaudi_device *gdev);
/* Every bring-up, after NIC_INFO_GET: tables, ASID, nothing left over. */
void gaudi_roce_hw_init(struct gaudi_device *gdev);
/* Close of the compute node, before its mappings are released. */
void gaudi_roce_close(struct gaudi_device *gdev, struct gaudi_file *gfile);
/* Whether @port has connections of a holder (the QP error event). */
bool gaudi_roce_port_used(struct gaudi_device *gdev, unsigned int port);
/* Removal of the card, after drm_dev_unplug(), while still bound. */
void gaudi_roce_revoke(struct gaudi_device *gdev);
/* A whole context through @port's gateway (also gaudi_en's, cn ops). */
int gaudi_roce_qpc_write(struct gaudi_device *gdev, unsigned int port,
			 u32 qpn, bool req, const u32 *data);
int gaudi_nic_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* The RDMA driver's QPs on the same core (gaudi_cn.h gaudi_cn_rdma_ops). */
struct gaudi_cn_req;
struct gaudi_cn_res;
struct gaudi_cn_qp_state;
int gaudi_roce_v_port_open(struct gaudi_device *gdev, struct gaudi_file *gfile,
			   unsigned int port, u64 sq_va, u32 sq_entries,
			   u64 eq, u32 eq_entries);
void gaudi_roce_v_port_close(struct gaudi_device *gdev,
			     struct gaudi_file *gfile, unsigned int port);
struct gaudi_cn_qp_ext;
int gaudi_roce_v_qp_claim(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn,
			  const struct gaudi_cn_qp_ext *ext);
int gaudi_roce_v_cq_set(struct gaudi_device *gdev, struct gaudi_file *gfile,
			u32 cqn, u64 ring, u32 log);
void gaudi_roce_v_cq_clear(struct gaudi_device *gdev, struct gaudi_file *gfile,
			   u32 cqn);
void gaudi_roce_v_qp_release(struct gaudi_device *gdev,
			     struct gaudi_file *gfile, unsigned int port,
			     u32 qpn);
int gaudi_roce_v_qp_reset(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn);
int gaudi_roce_v_qp_set_res(struct gaudi_device *gdev,
			    struct gaudi_file *gfile, unsigned int port,
			    u32 qpn, const struct gaudi_cn_res *res);
int gaudi_roce_v_qp_set_req(struct gaudi_device *gdev,
			    struct gaudi_file *gfile, unsigned int port,
			    u32 qpn, const struct gaudi_cn_req *req);
int gaudi_roce_v_qp_state(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn,
			  struct gaudi_cn_qp_state *st);
int gaudi_roce_v_mr_set(struct gaudi_device *gdev, struct gaudi_file *gfile,
			unsigned int port, u32 qpn, u32 key, u64 start,
			u64 len, u32 access);
void gaudi_roce_v_mr_clear(struct gaudi_device *gdev, struct gaudi_file *gfile,
			   unsigned int port, u32 qpn, u32 key);
int gaudi_roce_v_doorbell(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn, u32 pi);

#endif /* GAUDI_ROCE_H */
