// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi.ko's hardware protection tables (kernel/gaudi_security.c), built
 * on the host so that the isolation harness programs the model exactly as
 * the driver does.  The driver's headers are replaced by the few things
 * that file uses: register writes go to the model's CFG space.
 */
#include <linux/types.h>
#include <linux/bits.h>
#include <linux/bitfield.h>
#include <linux/sizes.h>
#include <string.h>

/* Stand in for the driver's headers (their include guards). */
#define GAUDI_TYPES_H
#define GAUDI_HW_H
#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi1/packets.h"
#include "gaudi_layout.h"

struct gaudi_core;
void gaudi_cfg_write(struct gaudi_core *g, uint32_t off, uint32_t val);

struct gaudi_device {
	struct gaudi_core *g;
};

#define WREG32(gdev, off, val) gaudi_cfg_write((gdev)->g, (off), (val))
#define gaudi_dbg(...) do { } while (0)

void gaudi_security_hw_init(struct gaudi_device *gdev);
#include "gaudi_security.c"

void iso_driver_protection(struct gaudi_core *g);
uint32_t iso_glbl_prot(bool external);

void iso_driver_protection(struct gaudi_core *g)
{
	struct gaudi_device d = { g };

	gaudi_security_hw_init(&d);
}

uint32_t iso_glbl_prot(bool external)
{
	return external ? QM_PROT_EXTERNAL : QM_PROT_INTERNAL;
}
