/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Gaudi 1 PSOC registers read by the INFO ioctl (CFG offsets): the CPU PLL
 * settings upstream reports as psoc_pci_pll_* in HW_IP_INFO, and the PSOC
 * timestamp counter of TIME_SYNC.
 */
#ifndef GAUDI_PSOC_REGS_H
#define GAUDI_PSOC_REGS_H

#define mmPSOC_CPU_PLL_NR		0xC70100
#define mmPSOC_CPU_PLL_NF		0xC70104
#define mmPSOC_CPU_PLL_OD		0xC70108
#define mmPSOC_CPU_PLL_DIV_FACTOR_2	0xC70208

#define mmPSOC_TIMESTAMP_CNTCVL		0xC49008
#define mmPSOC_TIMESTAMP_CNTCVU		0xC4900C

#endif /* GAUDI_PSOC_REGS_H */
