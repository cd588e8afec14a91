// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: sync objects and monitors of the user context.
 *
 * Users own the W_S block from SOB 144 and monitor 72 on (upstream's
 * split); the driver clears them when a context opens and closes, so no
 * state leaks from one process to the next.
 */
#include <linux/bitfield.h>

#include "gaudi_drv.h"
#include "gaudi_cs.h"

static void gaudi_sync_clear(struct gaudi_device *gdev)
{
	u32 base = mmSYNC_MNGR_W_S_SOB_OBJ_0;
	unsigned int i;

	for (i = GAUDI_FIRST_USER_MON; i < SM_NUM_MONS; i++)
		WREG32(gdev, base + SM_MON_STATUS(i), 0);
	for (i = GAUDI_FIRST_USER_SOB; i < SM_NUM_SOBS; i++)
		WREG32(gdev, base + 4 * i, 0);
}

void gaudi_sync_hw_init(struct gaudi_device *gdev)
{
	gaudi_sync_clear(gdev);
}

void gaudi_sync_ctx_init(struct gaudi_ctx *ctx)
{
	int idx;

	ctx->next_sob = GAUDI_FIRST_USER_SOB;
	if (gaudi_hw_enter(ctx->gdev, &idx))
		return;
	gaudi_sync_clear(ctx->gdev);
	gaudi_hw_exit(ctx->gdev, idx);
}

void gaudi_sync_ctx_fini(struct gaudi_ctx *ctx)
{
	int idx;

	if (gaudi_hw_enter(ctx->gdev, &idx))
		return;
	gaudi_sync_clear(ctx->gdev);
	gaudi_hw_exit(ctx->gdev, idx);
}

int gaudi_sync_cs_ioctl(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_cs_args *args)
{
	gaudi_dbg(gdev, CS, "CS: signal/wait not supported yet\n");
	return -EINVAL;
}
