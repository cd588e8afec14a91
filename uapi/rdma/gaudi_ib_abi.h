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

#include <linux/types.h>

/*
 * The uverbs ABI version of the driver (the sysfs abi_version of its
 * uverbs device); the provider serves exactly this one.
 */
#define GAUDI_IB_UVERBS_ABI_VERSION	1

/* Ports of a card (hw/gaudi1/nic.h GAUDI_NIC_NUM_PORTS). */
#define GAUDI_IB_MAX_PORTS		10

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

#endif /* GAUDI_IB_ABI_H */
