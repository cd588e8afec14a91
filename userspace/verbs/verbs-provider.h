/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The provider interface of libibverbs as Debian 12 ships it (rdma-core
 * 44, private ABI IBVERBS_PRIVATE_34): what a provider library gives
 * libibverbs and the few calls it makes back.
 *
 * rdma-core declares these in its internal <infiniband/driver.h>, which no
 * Debian binary package installs; the archive this project builds from
 * does not serve rdma-core's source tarball either, so the layouts are
 * declared here from rdma-core's public sources and checked against
 * Debian's own binaries: every op's offset in struct verbs_context_ops
 * was read from the relocations of the ops tables of the providers in
 * Debian's libibverbs-dev (librxe-rdmav34.a, libmlx5.a, ...), the sizes
 * of struct verbs_device and struct verbs_device_ops from the same
 * objects (Documentation/net/rdma.rst, "The provider").  The names are
 * the ones libibverbs exports with version IBVERBS_PRIVATE_34, so a
 * libibverbs of another private ABI refuses to load this provider rather
 * than mis-call it.
 *
 * Only what this provider uses is declared.
 */
#ifndef GAUDI_VERBS_PROVIDER_H
#define GAUDI_VERBS_PROVIDER_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

/* The private ABI these declarations describe (the symbols' version). */
#define GAUDI_VERBS_PABI 34

struct verbs_sysfs_dev; /* libibverbs' own, opaque here */

/* An intrusive list node of libibverbs (ccan's struct list_node). */
struct verbs_list_node {
	struct verbs_list_node *next, *prev;
};

/* How a device is matched (struct verbs_match_ent's kind). */
enum {
	VERBS_MATCH_SENTINEL = 0,
	VERBS_MATCH_PCI = 1,
	VERBS_MATCH_MODALIAS = 2,
	VERBS_MATCH_DRIVER_ID = 3,
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

struct verbs_device;

struct verbs_device_ops {
	const char *name;
	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	const struct verbs_device_ops **static_providers;
	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);
	struct verbs_context *(*alloc_context)(struct ibv_device *device,
					       int cmd_fd, void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device,
						int cmd_fd);
	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

/* What the provider allocates per device: libibverbs fills it in. */
struct verbs_device {
	struct ibv_device device; /* must be first */
	const struct verbs_device_ops *ops;
	atomic_int refcount;
	struct verbs_list_node entry;
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;
};

/*
 * Every op a provider may give, in libibverbs' order (76 of them in
 * rdma-core 44, index in the comments); the ones this provider does not
 * give yet are untyped placeholders of the right size, under rdma-core's
 * names.  tests/verbs/check-abi.py checks every offset against Debian's
 * binaries.
 */
typedef void (*verbs_op_t)(void);

struct verbs_mr;

struct verbs_context_ops {
	verbs_op_t advise_mr, alloc_dm, alloc_mw, alloc_null_mr; /* 0 */
	verbs_op_t alloc_parent_domain;
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context); /* 5 */
	verbs_op_t alloc_td, async_event, attach_counters_point_flow;
	verbs_op_t attach_mcast, bind_mw, close_xrcd; /* 9 */
	void (*cq_event)(struct ibv_cq *cq); /* 12 */
	verbs_op_t create_ah, create_counters; /* 13 */
	struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe, /* 15 */
				    struct ibv_comp_channel *channel,
				    int comp_vector);
	verbs_op_t create_cq_ex; /* 16 */
	verbs_op_t create_flow, create_flow_action_esp; /* 17 */
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd, /* 19 */
				    struct ibv_qp_init_attr *attr);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *context, /* 20 */
				       struct ibv_qp_init_attr_ex *attr);
	verbs_op_t create_rwq_ind_table, create_srq; /* 21 */
	verbs_op_t create_srq_ex, create_wq, dealloc_mw; /* 23 */
	int (*dealloc_pd)(struct ibv_pd *pd); /* 26 */
	verbs_op_t dealloc_td; /* 27 */
	int (*dereg_mr)(struct verbs_mr *vmr); /* 28 */
	verbs_op_t destroy_ah, destroy_counters; /* 29 */
	int (*destroy_cq)(struct ibv_cq *cq); /* 31 */
	verbs_op_t destroy_flow, destroy_flow_action; /* 32 */
	int (*destroy_qp)(struct ibv_qp *qp); /* 34 */
	verbs_op_t destroy_rwq_ind_table, destroy_srq; /* 35 */
	verbs_op_t destroy_wq, detach_mcast; /* 37 */
	void (*free_context)(struct ibv_context *context); /* 39 */
	verbs_op_t free_dm, get_srq_num, import_dm, import_mr; /* 40 */
	verbs_op_t import_pd, modify_cq, modify_flow_action_esp; /* 44 */
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, /* 47 */
			 int attr_mask);
	verbs_op_t modify_qp_rate_limit, modify_srq; /* 48 */
	verbs_op_t modify_wq, open_qp, open_xrcd; /* 50 */
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, /* 53 */
		       struct ibv_wc *wc);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, /* 54 */
			 struct ibv_recv_wr **bad_wr);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, /* 55 */
			 struct ibv_send_wr **bad_wr);
	verbs_op_t post_srq_ops, post_srq_recv; /* 56 */
	int (*query_device_ex)(struct ibv_context *context, /* 58 */
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr,
			       size_t attr_size);
	verbs_op_t query_ece; /* 59 */
	int (*query_port)(struct ibv_context *context,
			  uint8_t port_num, /* 60 */
			  struct ibv_port_attr *port_attr);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, /* 61 */
			int attr_mask, struct ibv_qp_init_attr *init_attr);
	verbs_op_t query_qp_data_in_order, query_rt_values; /* 62 */
	verbs_op_t query_srq, read_counters, reg_dm_mr, reg_dmabuf_mr; /* 64 */
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, /* 68 */
				 size_t length, uint64_t hca_va, int access);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only); /* 69 */
	verbs_op_t rereg_mr, resize_cq; /* 70 */
	verbs_op_t set_ece, unimport_dm, unimport_mr, unimport_pd; /* 72 */
};

/*
 * A memory region as libibverbs sees it: ibv_dereg_mr() reads mr_type and
 * access behind the public struct (at 0x30 and 0x34, checked by
 * tests/verbs/check-abi.py in Debian's libibverbs.so.1).
 */
enum { VERBS_MR_TYPE_MR = 0 };

struct verbs_mr {
	struct ibv_mr ibv_mr;
	uint32_t mr_type;
	int access;
};

/*
 * A QP: ibv_qp_to_qp_ex() returns the extended QP when comp_mask, right
 * behind struct ibv_qp_ex, has VERBS_QP_EX (checked as above).
 */
enum { VERBS_QP_EX = 1 << 1 };

struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;
	void *xrcd;
};

/* Offsets read from Debian's providers (see the top of this file). */
static_assert(sizeof(struct verbs_context_ops) == 76 * sizeof(void *),
	      "verbs_context_ops: 76 ops in rdma-core 44");
static_assert(offsetof(struct verbs_context_ops, alloc_pd) ==
		      5 * sizeof(void *),
	      "alloc_pd");
static_assert(offsetof(struct verbs_context_ops, dealloc_pd) ==
		      26 * sizeof(void *),
	      "dealloc_pd");
static_assert(offsetof(struct verbs_context_ops, free_context) ==
		      39 * sizeof(void *),
	      "free_context");
static_assert(offsetof(struct verbs_context_ops, query_device_ex) ==
		      58 * sizeof(void *),
	      "query_device_ex");
static_assert(offsetof(struct verbs_context_ops, query_port) ==
		      60 * sizeof(void *),
	      "query_port");
static_assert(offsetof(struct verbs_context_ops, unimport_pd) ==
		      75 * sizeof(void *),
	      "unimport_pd");
static_assert(offsetof(struct verbs_context_ops, create_cq) ==
		      15 * sizeof(void *),
	      "create_cq");
static_assert(offsetof(struct verbs_context_ops, dereg_mr) ==
		      28 * sizeof(void *),
	      "dereg_mr");
static_assert(offsetof(struct verbs_context_ops, reg_mr) ==
		      68 * sizeof(void *),
	      "reg_mr");
static_assert(offsetof(struct verbs_mr, mr_type) == 0x30, "verbs_mr");
static_assert(offsetof(struct verbs_mr, access) == 0x34, "verbs_mr");
static_assert(offsetof(struct verbs_qp, comp_mask) == 0x160, "verbs_qp");
static_assert(sizeof(struct verbs_device_ops) == 0x48, "verbs_device_ops");
static_assert(sizeof(struct verbs_device) == 0x2c8, "verbs_device");

/* libibverbs' calls for providers (IBVERBS_PRIVATE_34). */
void verbs_register_driver_34(const struct verbs_device_ops *ops);
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    struct verbs_context *context_offset,
				    uint32_t driver_id);
void verbs_uninit_context(struct verbs_context *context);
void verbs_set_ops(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops);

/*
 * The uverbs data-path commands, for a device whose queues the kernel
 * runs (GAUDI_IB_UCTX_KERNEL_DATAPATH): they marshal the work requests
 * and completions of the public types into POST_SEND, POST_RECV, POLL_CQ
 * and REQ_NOTIFY_CQ.  poll_cq returns the count or -1.
 */
int ibv_cmd_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad_wr);
int ibv_cmd_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);
int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only);

#endif /* GAUDI_VERBS_PROVIDER_H */
