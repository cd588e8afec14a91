/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: RoCE connections of the holder of the compute node
 * (gaudi_roce.c, DRM_IOCTL_GAUDI_NIC).
 */
#ifndef GAUDI_ROCE_H
#define GAUDI_ROCE_H

#include <linux/bitmap.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "../uapi/drm/gaudi_accel.h"

struct drm_device;
struct drm_file;
struct gaudi_device;
struct gaudi_file;

struct gaudi_ctx;
struct gaudi_map;

/*
 * A memory-region slot of a port (gaudi_roce.c): @map is NULL when the
 * slot holds no region; @parked, its region ended while its connection
 * @qpn lives, so the slot waits for that connection to end.
 */
struct gaudi_roce_mr {
	struct gaudi_map *map;		/* the held mapping */
	struct gaudi_ctx *ctx;		/* whose */
	u32 key;			/* the region's (or the last one's) */
	u32 qpn;			/* its connection */
	bool parked;
	bool verbs;			/* the RDMA driver's (no @map) */
};

/*
 * The verbs fields of a QP's extension entry (gaudi_roce.c ext_write()):
 * its receive queue (@rq, 2^@rq_log WQEs), its CQs, its RNR timer code;
 * @set once the entry was written (its receive CI is the engine's).
 */
struct gaudi_roce_vext {
	u64 rq;
	u32 rq_log, scq, rcq, min_rnr;
	bool set;
};

/* One port's user connections and queues (lock). */
struct gaudi_roce_port {
	struct mutex lock;		/* the members below */
	struct gaudi_file *owner;	/* whose they are; NULL: nobody's */
	DECLARE_BITMAP(conns, GAUDI_NIC_MAX_CONN);	/* allocated QPs */
	DECLARE_BITMAP(req_set, GAUDI_NIC_MAX_CONN);	/* with requester */
	/* The RDMA driver's (remote VA offset GAUDI_VA_HOST_START). */
	DECLARE_BITMAP(vqp, GAUDI_NIC_MAX_CONN);
	bool wq_set, cq_set;
	/*
	 * The RDMA driver's QPs have their send queues at TXE base 2
	 * (@v_open, @v_sq_entries each) and the completion queue
	 * (@cq_verbs, with @cq_set).
	 */
	bool v_open, cq_verbs;
	u32 v_sq_entries;
	u32 wq_num, wq_entries;
	u32 cq_entries;
	/* Generation of each QP number, bumped by every ALLOC_CONN. */
	u8 gen[GAUDI_NIC_MAX_CONN];
	struct gaudi_roce_mr *mrs;	/* GAUDI_NIC_MAX_MR slots */
	struct gaudi_roce_vext *vext;	/* GAUDI_NIC_MAX_CONN */
};

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

/*
 * Device VA of the holder's host range for the RDMA driver's pages
 * (gaudi_mem.c; through gaudi_cn_rdma_ops).
 */
struct gaudi_va;
int gaudi_mem_va_reserve(struct gaudi_ctx *ctx, u64 *va, u64 size, u64 align,
			 bool fixed, struct gaudi_va **out);
int gaudi_mem_va_map(struct gaudi_ctx *ctx, struct gaudi_va *r, u64 off,
		     const dma_addr_t *dma, unsigned long npages);
void gaudi_mem_va_unmap(struct gaudi_ctx *ctx, struct gaudi_va *r, u64 off,
			unsigned long npages);
void gaudi_mem_va_release(struct gaudi_ctx *ctx, struct gaudi_va *r);

#endif /* GAUDI_ROCE_H */
