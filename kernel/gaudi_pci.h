/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: PCI set-up, BARs, ELBI, MSI (gaudi_pci.c).
 */
#ifndef GAUDI_PCI_H
#define GAUDI_PCI_H

#include <linux/types.h>

struct gaudi_device;

int gaudi_pci_init(struct gaudi_device *gdev);
int gaudi_elbi_read(struct gaudi_device *gdev, u32 addr, u32 *val);
int gaudi_irq_init(struct gaudi_device *gdev);
void gaudi_irq_fini(struct gaudi_device *gdev);
/* Is @addr a legal register for debugfs/ioctl access (CFG, aligned)? */
bool gaudi_reg_addr_valid(u64 addr, u32 size);

#endif /* GAUDI_PCI_H */
