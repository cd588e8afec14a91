/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: hard reset and recovery (gaudi_reset.c).
 */
#ifndef GAUDI_RESET_H
#define GAUDI_RESET_H

#include <linux/types.h>

struct gaudi_device;

void gaudi_reset_init(struct gaudi_device *gdev);
/* Queue a recovery (hard reset + re-init); safe from any context. */
void gaudi_reset_schedule(struct gaudi_device *gdev, const char *reason);
/* Schedule and wait for it (sysfs hard_reset). */
int gaudi_reset_now(struct gaudi_device *gdev, const char *reason);
/* Halt the device CPU, SW_ALL_RST, wait, check (INTERFACE §10). */
int gaudi_hw_reset(struct gaudi_device *gdev);
void gaudi_reset_fini(struct gaudi_device *gdev);
/*
 * Remote kcov (the kernel fuzzer): the reset work and the event-queue
 * thread collect under the card holder's common handle, noted at open;
 * each section ends with kcov_remote_stop().
 */
#ifdef CONFIG_KCOV
void gaudi_kcov_note_holder(struct gaudi_device *gdev);
void gaudi_kcov_remote_start(struct gaudi_device *gdev);
#else
static inline void gaudi_kcov_note_holder(struct gaudi_device *gdev) {}
static inline void gaudi_kcov_remote_start(struct gaudi_device *gdev) {}
#endif

#endif /* GAUDI_RESET_H */
