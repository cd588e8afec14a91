/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * gaudi_ib.ko's private uverbs ABI: the driver data that rides along the
 * standard uverbs commands (ib_user_verbs.h) between the kernel driver
 * (kernel/ib/) and its rdma-core provider (userspace/verbs/).
 *
 * Every request struct has must-be-zero fields the driver checks; every
 * response is written up to the length the provider offers, so an older
 * provider keeps working.  Documentation/net/rdma.rst.
 */
#ifndef GAUDI_IB_ABI_H
#define GAUDI_IB_ABI_H

#include <linux/const.h>
#include <linux/types.h>

/*
 * The uverbs ABI version of the driver (the sysfs abi_version of its
 * uverbs device); the provider serves exactly this one.
 */
#define GAUDI_IB_UVERBS_ABI_VERSION	1

/* Ports of a card (hw/gaudi1/nic.h GAUDI_NIC_NUM_PORTS). */
#define GAUDI_IB_MAX_PORTS		10

/*
 * The data path.  Gaudi 1 has no doorbell a user may be given: its one
 * user doorbell (UNSECURED_DOORBELL_QPN/PI, a pair of registers) shares
 * the QPC block's page with the context gateway and the table bases, the
 * completion queue's consumer index is in the RXE page, and the RXE has
 * one completion queue per port where verbs need any number.  So the
 * kernel posts and polls: the provider sends post_send, post_recv,
 * poll_cq and req_notify_cq as the standard uverbs commands
 * (IB_USER_VERBS_CMD_POST_SEND, _POST_RECV, _POLL_CQ, _REQ_NOTIFY_CQ;
 * libibverbs' ibv_cmd_*()), and nothing is mapped (mmap fails with
 * EINVAL).  Documentation/net/rdma.rst, "The data path".
 *
 * GAUDI_IB_UCTX_KERNEL_DATAPATH, in the context's comp_mask: post and poll
 * are uverbs commands.  A later ABI that maps queues says so with another
 * bit; a provider that knows neither refuses the context.
 */
#define GAUDI_IB_UCTX_KERNEL_DATAPATH	_BITUL(0)

/*
 * Limits of a context's objects (also in ibv_query_device()): RC QPs
 * only, QP numbers 2..1023 unique on the device (the number on the wire
 * is the ib qp_num), one scatter/gather element per work request, no
 * inline data.
 */
#define GAUDI_IB_FIRST_QPN		2
#define GAUDI_IB_MAX_QPN		1023
#define GAUDI_IB_MAX_SGE		1

/**
 * struct gaudi_ib_alloc_ucontext_req - ALLOC_UCONTEXT's driver input
 * @comp_mask: In: must be 0
 * @reserved: In: must be 0
 */
struct gaudi_ib_alloc_ucontext_req {
	__u32 comp_mask;
	__u32 reserved;
};

/**
 * struct gaudi_ib_alloc_ucontext_resp - ALLOC_UCONTEXT's driver output
 * @comp_mask: Out: GAUDI_IB_UCTX_* bits of what the context offers
 *	(GAUDI_IB_UCTX_KERNEL_DATAPATH)
 * @num_ports: Out: the device's ports (its enabled NIC ports)
 * @hw_port: Out: the card's port of each ib port: ib port n is card port
 *	@hw_port[n - 1]
 * @card: Out: the accel minor of the card (/dev/accel/accel<card>)
 * @reserved: Out: 0
 */
struct gaudi_ib_alloc_ucontext_resp {
	__u32 comp_mask;
	__u32 num_ports;
	__u8 hw_port[GAUDI_IB_MAX_PORTS];
	__u16 card;
	__u32 reserved;
};

/**
 * struct gaudi_ib_alloc_pd_resp - ALLOC_PD's driver output
 * @pdn: Out: the protection domain's number on the card
 * @reserved: Out: 0
 */
struct gaudi_ib_alloc_pd_resp {
	__u32 pdn;
	__u32 reserved;
};

/**
 * struct gaudi_ib_create_cq_req - CREATE_CQ's driver input (may be absent)
 * @comp_mask: In: must be 0
 * @reserved: In: must be 0
 */
struct gaudi_ib_create_cq_req {
	__u32 comp_mask;
	__u32 reserved;
};

/**
 * struct gaudi_ib_create_cq_resp - CREATE_CQ's driver output
 * @cqn: Out: the CQ's number on the device (1..)
 * @reserved: Out: 0
 */
struct gaudi_ib_create_cq_resp {
	__u32 cqn;
	__u32 reserved;
};

/**
 * struct gaudi_ib_create_qp_req - CREATE_QP's driver input (may be absent)
 * @comp_mask: In: must be 0
 * @reserved: In: must be 0
 */
struct gaudi_ib_create_qp_req {
	__u32 comp_mask;
	__u32 reserved;
};

/**
 * struct gaudi_ib_create_qp_resp - CREATE_QP's driver output
 * @qpn: Out: the QP number (also the uverbs response's), the number on the
 *	wire on whichever port the QP is moved to INIT on
 * @max_send_wr: Out: send work requests the QP holds (the uverbs
 *	response's cap too)
 * @max_recv_wr: Out: receive work requests it holds
 * @reserved: Out: 0
 */
struct gaudi_ib_create_qp_resp {
	__u32 qpn;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 reserved;
};

#endif /* GAUDI_IB_ABI_H */
