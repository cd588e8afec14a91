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
 * kernel writes every WQE and reads every CQE: the provider sends
 * post_send, post_recv, poll_cq and req_notify_cq as the standard uverbs
 * commands (IB_USER_VERBS_CMD_POST_SEND, _POST_RECV, _POLL_CQ,
 * _REQ_NOTIFY_CQ; libibverbs' ibv_cmd_*()), and nothing of the device or
 * of the engine's queues is mapped (the staging rings below are the one
 * thing mmap serves).  Documentation/net/rdma.rst, "The data path".
 *
 * GAUDI_IB_UCTX_KERNEL_DATAPATH, in the context's comp_mask: post and poll
 * are uverbs commands.  A later ABI that maps queues says so with another
 * bit; a provider that knows neither refuses the context.
 *
 * GAUDI_IB_UCTX_STAGING_RINGS, in the context's comp_mask as well: a QP
 * created with GAUDI_IB_QP_SQ_RING (GAUDI_IB_QP_RQ_RING) in its request
 * gets a staging ring for its send (receive) work requests, memory of the
 * kernel the provider maps (mmap of the uverbs file at the offset of the
 * QP's response).  The provider writes work requests there and kicks with
 * a post_send (post_recv) command of no work request; the kernel then
 * copies each new one out of the ring, checks it as a work request of the
 * command and writes its own WQE into the queue the engine reads.  The
 * engine never reads a staging ring; after the kick the user may change
 * it freely.  An old provider never asks (kernel data path as before); a
 * new provider on a kernel without the bit does not either.  Completions
 * stay a uverbs command (poll_cq).  Documentation/net/rdma.rst, "The data
 * path".
 */
#define GAUDI_IB_UCTX_KERNEL_DATAPATH	_BITUL(0)
#define GAUDI_IB_UCTX_STAGING_RINGS	_BITUL(1)

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

/* A QP's staging rings (struct gaudi_ib_create_qp_req @comp_mask). */
#define GAUDI_IB_QP_SQ_RING		_BITUL(0)
#define GAUDI_IB_QP_RQ_RING		_BITUL(1)

/**
 * struct gaudi_ib_create_qp_req - CREATE_QP's driver input (may be absent)
 * @comp_mask: In: GAUDI_IB_QP_SQ_RING, GAUDI_IB_QP_RQ_RING (only if the
 *	context offers GAUDI_IB_UCTX_STAGING_RINGS); other bits: EINVAL
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
 * @comp_mask: Out: the GAUDI_IB_QP_* rings the QP has (0 before the rings)
 * @sq_ring_offset: Out: mmap offset of the send staging ring
 * @sq_ring_size: Out: its bytes (a multiple of the page size)
 * @sq_ring_entries: Out: its slots of struct gaudi_ib_ring_swqe (a power
 *	of 2); struct gaudi_ib_ring_ctl follows them
 * @rq_ring_offset: Out: mmap offset of the receive staging ring
 * @rq_ring_size: Out: its bytes
 * @rq_ring_entries: Out: its slots of struct gaudi_ib_ring_rwqe, then
 *	struct gaudi_ib_ring_ctl
 * @reserved: Out: 0
 * @reserved2: Out: 0
 */
struct gaudi_ib_create_qp_resp {
	__u32 qpn;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 comp_mask;
	__aligned_u64 sq_ring_offset;
	__u32 sq_ring_size;
	__u32 sq_ring_entries;
	__aligned_u64 rq_ring_offset;
	__u32 rq_ring_size;
	__u32 rq_ring_entries;
	__u32 reserved;
	__u32 reserved2;
};

/**
 * struct gaudi_ib_ring_swqe - a send work request in a staging ring
 * @wr_id: the WR's wr_id
 * @addr: its scatter/gather element's address (if @num_sge)
 * @remote_addr: RDMA WRITE/READ: the peer's address
 * @length: the element's bytes
 * @lkey: the element's lkey
 * @rkey: RDMA WRITE/READ: the peer's R_Key
 * @imm_data: with immediate: the immediate (network order, as the WR's)
 * @send_flags: IB_UVERBS_SEND_* (IBV_SEND_*)
 * @opcode: IB_UVERBS_WR_* (IBV_WR_*)
 * @num_sge: 0 or 1
 * @reserved: must be 0
 * @reserved2: must be 0
 *
 * The kernel reads each slot once, at the kick, and checks the copy as it
 * checks a post_send command's work request (the same function); a
 * refused one (EINVAL, or ENOMEM when the send queue is full) stops the
 * kick there: it and what follows are not taken (@ci of the ring's
 * struct gaudi_ib_ring_ctl names it).
 */
struct gaudi_ib_ring_swqe {
	__aligned_u64 wr_id;
	__aligned_u64 addr;
	__aligned_u64 remote_addr;
	__u32 length;
	__u32 lkey;
	__u32 rkey;
	__u32 imm_data;
	__u32 send_flags;
	__u8 opcode;
	__u8 num_sge;
	__u16 reserved;
	__u32 reserved2[4];
};

/**
 * struct gaudi_ib_ring_rwqe - a receive work request in a staging ring
 * @wr_id: the WR's wr_id
 * @addr: its scatter/gather element's address (if @num_sge)
 * @length: the element's bytes
 * @lkey: the element's lkey
 * @num_sge: 0 or 1
 * @reserved: must be 0
 */
struct gaudi_ib_ring_rwqe {
	__aligned_u64 wr_id;
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
	__u32 num_sge;
	__u32 reserved;
};

/**
 * struct gaudi_ib_ring_ctl - a staging ring's indexes, after its slots
 * @pi: Written by the provider: work requests written (free running; slot
 *	@pi % entries is the next).  The kernel takes at most the ring's
 *	entries past its own consumer index; more, or an index behind it,
 *	and the kick fails with EINVAL, taking none.
 * @ci: Written by the kernel after each kick: work requests taken (free
 *	running).  The kernel keeps its own copy and never reads this one.
 * @reserved: 0
 */
struct gaudi_ib_ring_ctl {
	__u32 pi;
	__u32 ci;
	__u32 reserved[14];
};

#endif /* GAUDI_IB_ABI_H */
