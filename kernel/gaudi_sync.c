// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: sync objects and monitors of the user context.
 *
 * Users own the W_S block from SOB 144 and monitor 72 on (upstream's
 * split); the driver clears them when a context opens and closes, so no
 * state leaks from one process to the next.
 */
#include <linux/bitfield.h>
#include <linux/uaccess.h>

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
	struct gaudi_ctx *ctx = gdev->dp->ctx;

	gaudi_sync_clear(gdev);
	/* After a reset the SOBs restart from 0 (no submitter runs now). */
	if (ctx)
		memset(ctx->sob, 0, sizeof(ctx->sob));
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

static u32 *msg_long(u32 *p, u64 addr, u32 value)
{
	p[0] = value;
	p[1] = FIELD_PREP(PKT_CTL_OPCODE, PKT_MSG_LONG) | PKT_CTL_MB;
	p[2] = lower_32_bits(addr);
	p[3] = upper_32_bits(addr);
	return p + 4;
}

/*
 * Signal CS: one job on the queue that adds 1 to the queue's SOB (W_S
 * block, SOB 144 + queue).  Wait CS: one job on the queue that arms the
 * queue's monitor (W_S, 72 + queue) on the signal's SOB reaching the value
 * the signal CS gives it, with a payload that adds 1 to the stream's fence
 * counter 2, then FENCEs on it.  A wait CS for a signal CS that is gone
 * (long completed) is a NOP.  The SOB value wraps at 15 bits.
 */
int gaudi_sync_cs_ioctl(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_cs_args *args)
{
	u32 flags = args->in.cs_flags, pkts[16] = {}, *p = pkts;
	u64 sm = GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0;
	struct gaudi_cs tmpl = {};
	struct hl_cs_chunk ch;
	u32 sob, value, mon, before = 0;
	u64 seq, sig_seq, fence;
	int ret;

	if ((flags & HL_CS_FLAGS_SIGNAL) && (flags & HL_CS_FLAGS_WAIT))
		return -EINVAL;
	if (flags & ~(HL_CS_FLAGS_SIGNAL | HL_CS_FLAGS_WAIT |
		      HL_CS_FLAGS_TIMESTAMP))
		return -EINVAL;
	if (args->in.num_chunks_execute != 1)
		return -EINVAL;
	if (copy_from_user(&ch, u64_to_user_ptr(args->in.chunks_execute),
			   sizeof(ch)))
		return -EFAULT;
	if (ch.queue_index >= GAUDI_NUM_EXT_QUEUES) {
		gaudi_dbg(gdev, CS, "signal/wait: queue %u is not external\n",
			  ch.queue_index);
		return -EINVAL;
	}
	sob = GAUDI_FIRST_USER_SOB + ch.queue_index;

	if (flags & HL_CS_FLAGS_SIGNAL) {
		tmpl.signal = true;
		tmpl.signal_queue = ch.queue_index;
		tmpl.sob = sob;
		p = msg_long(p, sm + 4 * sob, SM_SOB_INC | 1);
	} else {
		if (ch.num_signal_seq_arr != 1)
			return -EINVAL;
		if (copy_from_user(&sig_seq,
				   u64_to_user_ptr(ch.signal_seq_arr),
				   sizeof(sig_seq)))
			return -EFAULT;
		ret = gaudi_cs_signal_info(gdev, ctx, sig_seq, &sob, &value);
		if (ret < 0) {
			gaudi_dbg(gdev, CS, "wait: %llu is not a signal CS\n",
				  sig_seq);
			return ret;
		}
		if (ret == 0) {
			mon = GAUDI_FIRST_USER_MON + ch.queue_index;
			fence = GAUDI_CFG_BASE +
				gdev->dp->q[ch.queue_index].qm_base +
				QM_CP_FENCE_RDATA(2, ch.queue_index % 4);
			p = msg_long(p, sm + SM_MON_PAY_ADDRL(mon),
				     lower_32_bits(fence));
			p = msg_long(p, sm + SM_MON_PAY_ADDRH(mon),
				     upper_32_bits(fence));
			p = msg_long(p, sm + SM_MON_PAY_DATA(mon), 1);
			p = msg_long(p, sm + SM_MON_ARM(mon),
				     FIELD_PREP(SM_MON_ARM_GROUP, sob / 8) |
				     FIELD_PREP(SM_MON_ARM_MASK,
						(u8)~BIT(sob % 8)) |
				     FIELD_PREP(SM_MON_ARM_VALUE, value));
			p[0] = FIELD_PREP(PKT_FENCE_DEC, 1) |
			       FIELD_PREP(PKT_FENCE_TARGET, 1) |
			       FIELD_PREP(PKT_FENCE_ID, 2);
			p[1] = FIELD_PREP(PKT_CTL_OPCODE, PKT_FENCE);
			p += 2;
		} else {
			p[1] = FIELD_PREP(PKT_CTL_OPCODE, PKT_NOP);
			p += 2;
		}
	}
	for (value = 0; value < p - pkts; value++)
		pkts[value] = (__force u32)cpu_to_le32(pkts[value]);

	ret = gaudi_cs_submit_kernel(gdev, ctx, ch.queue_index, pkts,
				     (p - pkts) * 4, &tmpl, &seq, &before);
	if (ret)
		return ret == -ERESTARTSYS ? -EINTR : ret;
	memset(args, 0, sizeof(*args));
	args->out.seq = seq;
	args->out.status = HL_CS_STATUS_SUCCESS;
	if (flags & HL_CS_FLAGS_SIGNAL) {
		args->out.sob_base_addr_offset = mmSYNC_MNGR_W_S_SOB_OBJ_0 +
						 4 * sob;
		args->out.sob_count_before_submission = before;
	}
	return 0;
}
