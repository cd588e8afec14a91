/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the data plane's parts set up and torn down in order
 * (gaudi_dp.c).
 */
#ifndef GAUDI_DP_H
#define GAUDI_DP_H

struct gaudi_device;

int gaudi_dp_sw_init(struct gaudi_device *gdev);
void gaudi_dp_dma_fini(struct gaudi_device *gdev);
int gaudi_dp_hw_init(struct gaudi_device *gdev);
void gaudi_dp_hw_fini(struct gaudi_device *gdev);

#endif /* GAUDI_DP_H */
