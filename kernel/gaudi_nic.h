/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the NIC ports, as gaudi.ko uses them (gaudi_nic.c; the
 * network drivers' side is gaudi_cn.h).
 */
#ifndef GAUDI_NIC_H
#define GAUDI_NIC_H

#include <linux/types.h>

struct gaudi_device;

int gaudi_nic_sw_init(struct gaudi_device *gdev);
void gaudi_nic_hw_init(struct gaudi_device *gdev);
int gaudi_nic_init(struct gaudi_device *gdev);
void gaudi_nic_fini(struct gaudi_device *gdev);
void gaudi_nic_irq(struct gaudi_device *gdev);
void gaudi_nic_reset_prepare(struct gaudi_device *gdev);
void gaudi_nic_reset_done(struct gaudi_device *gdev, bool ok);
void gaudi_nic_event(struct gaudi_device *gdev, u32 type);
u64 gaudi_nic_mac_counter(struct gaudi_device *gdev, unsigned int port,
			  bool rx, u32 reg);
u64 gaudi_nic_roce_counter(struct gaudi_device *gdev, unsigned int port,
			   unsigned int idx);

#endif /* GAUDI_NIC_H */
