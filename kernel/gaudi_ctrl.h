/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the control node /dev/accel/accel_controlDN (gaudi_ctrl.c).
 */
#ifndef GAUDI_CTRL_H
#define GAUDI_CTRL_H

struct gaudi_device;

int gaudi_ctrl_init(struct gaudi_device *gdev);
void gaudi_ctrl_fini(struct gaudi_device *gdev);

#endif /* GAUDI_CTRL_H */
