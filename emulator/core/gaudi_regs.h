/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 registers as the model uses them: the hardware description
 * (hw/gaudi1/, Documentation/hw.rst) plus what exists only in the model
 * (its identity values and the test-only control window).
 */
#ifndef GAUDI_REGS_H
#define GAUDI_REGS_H

#include "gaudi1/memmap.h"
#include "gaudi1/boot.h"
#include "gaudi1/regs.h"
#include "gaudi1/packets.h"
#include "gaudi1/events.h"
#include "gaudi1/cpucp.h"

/*
 * Boot capability bits the model reports in CPU_BOOT_DEV_STS0/1 (values
 * of hl_boot_if.h's CPU_BOOT_DEV_STS0_* bits the model implements).
 */
#define CPU_BOOT_DEV_STS0_MODEL  0x80020360U
#define CPU_BOOT_DEV_STS1_MODEL  0x80000000U

/*
 * Model-only control window (not on real hardware): fault injection and
 * event injection for tests.  Only decoded when the device's test-hooks
 * property is on; reads 0 and ignores writes otherwise.  At the end of the
 * debug half of CFG space, which the drivers never touch.
 *   +0x000..0x0FF  model identity, boot/device-CPU/event injection (ctl.c,
 *                  cpucp.c, eq.c)
 *   +0x100..0x1FF  queue/DMA/MMU fault injection (qman.c, mmu.c)
 * See Documentation/emulator/model-control.rst.
 */
#define GAUDI_MODEL_CTL_BASE  0x3FFF000
#define GAUDI_MODEL_CTL_SIZE  0x1000

/* First half (ctl.c). */
#define GAUDI_CTL_MAGIC   0x000 /* RO "GDMC" */
#define GAUDI_CTL_VERSION  0x004 /* RO */
#define GAUDI_CTL_EVENT_TYPE  0x010 /* write: post the event */
#define GAUDI_CTL_EVENT_DATA0  0x014 /* 14 payload words */
#define GAUDI_CTL_EVENT_WORDS  14
#define GAUDI_CTL_CPU_HANG  0x050 /* 1 hang, 0 resume */
#define GAUDI_CTL_BOOT_FAIL  0x054 /* enum gaudi_boot_fail */
#define GAUDI_CTL_EQ_DROPS  0x058 /* RO events dropped */
#define GAUDI_CTL_CPUCP_COUNT  0x05C /* RO CPU-CP packets answered */
#define GAUDI_CTL_FIT_REASON  0x060 /* RO last enum gaudi_fit_err */
#define GAUDI_CTL_MAGIC_VALUE  0x434D4447U /* "GDMC" */
#define GAUDI_CTL_VERSION_VALUE  1

/* Second half (qman.c): queue fault injection. */
#define GAUDI_CTL_QM_HANG  0x100 /* write queue id: hang it */
#define GAUDI_CTL_QM_UNHANG  0x104 /* write queue id, ~0 = all */
#define GAUDI_CTL_QM_HUNG_COUNT  0x108 /* RO number of hung queues */
#define GAUDI_CTL_QM_ERRORS  0x10C /* RO queue errors since reset */
#define GAUDI_CTL_QM_END  0x200

#endif /* GAUDI_REGS_H */
