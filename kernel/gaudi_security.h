/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the engines' protection (gaudi_security.c).
 */
#ifndef GAUDI_SECURITY_H
#define GAUDI_SECURITY_H

struct gaudi_device;

void gaudi_security_hw_init(struct gaudi_device *gdev);

#endif /* GAUDI_SECURITY_H */
