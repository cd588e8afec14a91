// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: sync objects and monitors.
 *
 * The W_S block is split as upstream splits it: SOBs from 144 and monitors
 * from 72 belong to users (the parser lets CBs write them), those below to
 * the driver.  The E_N, E_S and W_N blocks are the user's entirely, as
 * upstream has it (Habana's userspace uses them from index 0).
 * Signal/wait CSs use two SOBs per external queue (64 + 2 * queue + 0/1)
 * and one monitor per queue (64 + queue).  A SOB is 15 bits wide: when
 * the current SOB of a queue is full the next signal moves to the queue's
 * other SOB, cleared first, once no CS in flight signals or
 * watches it any more; a wait's target therefore never wraps.  The driver
 * clears all of them when a context opens and closes and after a reset, so
 * no state leaks from one process to the next.
 *
 * Encapsulated signals: a reservation takes @count values of a queue's
 * current signal SOB at once (switching SOBs first if they do not fit) and
 * holds a reference on that SOB like a CS in flight, so the SOB is neither
 * cleared nor reused under it.  A staged submission naming the reservation
 * may add 1 to that SOB from its own CBs (the parser allows exactly that),
 * and wait CSs with HL_CS_FLAGS_ENCAP_SIGNALS wait for any of the reserved
 * values.  A reservation no CS took blocks the SOB switch of its queue:
 * a signal or reservation that would need the switch fails with EBUSY
 * instead of waiting for ever.
 */
#include <linux/bitfield.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "gaudi1/memmap.h"
#include "gaudi1/nic.h"
#include "gaudi1/packets.h"
#include "gaudi1/regs.h"
#include "gaudi_dp_types.h"
#include "gaudi_hw.h"
#include "gaudi_layout.h"
#include "gaudi_sched.h"
#include "gaudi_sync.h"
#include "gaudi_types.h"

/*
 * A reference on one signal SOB of a context: CSs in flight that signal or
 * watch it and reservations hold one, and the SOB is neither cleared nor
 * reused while any does.
 */
struct gaudi_sob_ref {
	u8 id;			/* 1 + 2 * queue + which; 0: none */
};

#define GAUDI_SOB_REF_NONE	((struct gaudi_sob_ref){ .id = 0 })

/* What a signal CS adds 1 to, given at its submission. */
struct gaudi_signal {
	u32 queue;		/* external queue */
	u32 sob;		/* W_S SOB index */
	u32 before;		/* the SOB's value before this signal */
};

#define GAUDI_COLL_ARM_DWORD	12	/* after PAY_ADDRL/ADDRH/DATA */

#define GAUDI_SIG_SOBS	(2 * GAUDI_NUM_EXT_QUEUES)
/* Reservations a context may hold at once. */
#define GAUDI_MAX_ENCAPS	4096

/*
 * Encapsulated signals (HL_CS_FLAGS_RESERVE_SIGNALS_ONLY): @count values
 * of an external queue's signal SOB, reserved for the packets of a staged
 * submission to add 1 each.  @pre is the SOB's value after the first of
 * them.  Bound to the staged submission that raises them (@cs_seq, its
 * first CS) and freed when it ends, at unreserve, at a reset or at close.
 * On ctx->sync.encaps, under dp->lock.
 */
struct gaudi_encaps {
	struct list_head node;
	u32 id;
	u32 queue;
	u32 sob;
	u32 pre;
	u32 count;
	struct gaudi_sob_ref ref;	/* on @sob */
	u64 cs_seq;		/* 0 until a staged submission takes it */
};

static struct gaudi_sob_ref gaudi_sob_ref(u32 queue, u32 which)
{
	return (struct gaudi_sob_ref){ .id = 1 + 2 * queue + which };
}

/* The SOB slot counts behind a (valid) reference. */
static u32 *gaudi_sob_users(struct gaudi_ctx *ctx, struct gaudi_sob_ref ref)
{
	return &ctx->sync.sob[(ref.id - 1) / 2].users[(ref.id - 1) % 2];
}

static u32 *gaudi_sob_unbound(struct gaudi_ctx *ctx, struct gaudi_sob_ref ref)
{
	return &ctx->sync.sob[(ref.id - 1) / 2].unbound[(ref.id - 1) % 2];
}

static u32 gaudi_sync_sob(u32 queue, u32 k)
{
	return GAUDI_SIG_FIRST_SOB + 2 * queue + k;
}

/*
 * Point user monitor @mon of the block at CFG offset @base at @sob (a user
 * SOB), with no payload: the parser lets users change the payload address
 * only half by half towards user SOBs and fence counters, which holds only
 * if both halves start there.
 */
static void gaudi_sync_mon_clear(struct gaudi_device *gdev, u32 base, u32 mon,
				 u32 sob)
{
	WREG32(gdev, base + SM_MON_STATUS(mon), 0);
	WREG32(gdev, base + SM_MON_PAY_ADDRL(mon),
	       lower_32_bits(GAUDI_CFG_BASE + sob));
	WREG32(gdev, base + SM_MON_PAY_ADDRH(mon),
	       upper_32_bits(GAUDI_CFG_BASE));
	WREG32(gdev, base + SM_MON_PAY_DATA(mon), 0);
}

static void gaudi_sync_clear(struct gaudi_device *gdev)
{
	/* The E_N, E_S and W_N blocks belong to users entirely. */
	static const u32 user_blocks[] = {
		mmSYNC_MNGR_E_N_SOB_OBJ_0, mmSYNC_MNGR_E_S_SOB_OBJ_0,
		mmSYNC_MNGR_W_N_SOB_OBJ_0,
	};
	u32 base = mmSYNC_MNGR_W_S_SOB_OBJ_0;
	unsigned int b, i;

	for (i = GAUDI_SIG_FIRST_MON;
	     i < GAUDI_SIG_FIRST_MON + GAUDI_NUM_EXT_QUEUES; i++)
		WREG32(gdev, base + SM_MON_STATUS(i), 0);
	for (i = 0; i < GAUDI_COLL_MONS; i++)
		WREG32(gdev, base + SM_MON_STATUS(i), 0);
	for (i = GAUDI_COLL_FIRST_SOB;
	     i < GAUDI_COLL_FIRST_SOB + GAUDI_NUM_EXT_QUEUES; i++)
		WREG32(gdev, base + 4 * i, 0);
	for (i = GAUDI_FIRST_USER_MON; i < SM_NUM_MONS; i++)
		gaudi_sync_mon_clear(gdev, base, i,
				     base + 4 * GAUDI_FIRST_USER_SOB);
	for (i = GAUDI_SIG_FIRST_SOB; i < GAUDI_SIG_FIRST_SOB + GAUDI_SIG_SOBS;
	     i++)
		WREG32(gdev, base + 4 * i, 0);
	for (i = GAUDI_FIRST_USER_SOB; i < SM_NUM_SOBS; i++)
		WREG32(gdev, base + 4 * i, 0);
	for (b = 0; b < ARRAY_SIZE(user_blocks); b++) {
		base = user_blocks[b];
		for (i = 0; i < SM_NUM_MONS; i++)
			gaudi_sync_mon_clear(gdev, base, i, base);
		for (i = 0; i < SM_NUM_SOBS; i++)
			WREG32(gdev, base + 4 * i, 0);
	}
}

static void gaudi_sync_reset_slots(struct gaudi_ctx *ctx)
{
	unsigned int q;

	for (q = 0; q < GAUDI_NUM_EXT_QUEUES; q++) {
		ctx->sync.sob[q].cur = 0;
		ctx->sync.sob[q].value = 0;
		ctx->sync.coll[q].value = 0;
	}
}

/*
 * Open and context teardown keep the device present (gaudi_hw_hold()); a
 * device not operational is cleared by its reset instead.
 */
static void gaudi_sync_clear_held(struct gaudi_device *gdev)
{
	CLASS(gaudi_hw_hold, hold)(gdev);

	if (!hold.ret)
		gaudi_sync_clear(gdev);
}

void gaudi_sync_ctx_init(struct gaudi_ctx *ctx)
{
	INIT_LIST_HEAD(&ctx->sync.encaps);
	gaudi_sync_reset_slots(ctx);
	gaudi_sync_clear_held(ctx->gdev);
}

void gaudi_sync_ctx_fini(struct gaudi_ctx *ctx)
{
	gaudi_sync_clear_held(ctx->gdev);
}

/*
 * Can @count more signals go to queue @q's SOBs (dp->lock held)?  1 if
 * they fit the current SOB or the other one is free, 0 while CSs in
 * flight still use the other one (wait for them), -EBUSY if a reservation
 * no CS took holds it.
 */
static int gaudi_sync_room_locked(struct gaudi_ctx *ctx, u32 q, u32 count)
{
	struct gaudi_sob_slot *sl = &ctx->sync.sob[q];

	lockdep_assert_held(&ctx->gdev->dp->lock);

	if (sl->value + count <= SM_SOB_VAL || !sl->users[!sl->cur])
		return 1;
	return sl->unbound[!sl->cur] ? -EBUSY : 0;
}

/* Move queue @q's signals to its other SOB, cleared (dp->lock held). */
static void gaudi_sync_switch_locked(struct gaudi_device *gdev,
				     struct gaudi_ctx *ctx, u32 q)
{
	struct gaudi_sob_slot *sl = &ctx->sync.sob[q];

	lockdep_assert_held(&gdev->dp->lock);

	sl->cur = !sl->cur;
	sl->value = 0;
	sl->switches++;
	WREG32(gdev, mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * gaudi_sync_sob(q, sl->cur),
	       0);
	gaudi_dbg(gdev, CS, "queue %u: signals move to SOB %u\n", q,
		  gaudi_sync_sob(q, sl->cur));
}

/* A new reference on the SOB signal @sig adds to (dp->lock held). */
static struct gaudi_sob_ref
gaudi_sob_get_locked(struct gaudi_ctx *ctx, const struct gaudi_signal *sig)
{
	struct gaudi_sob_ref ref;

	lockdep_assert_held(&ctx->gdev->dp->lock);

	ref = gaudi_sob_ref(sig->queue, (sig->sob - GAUDI_SIG_FIRST_SOB) % 2);
	(*gaudi_sob_users(ctx, ref))++;
	return ref;
}

/* Drop reference *@ref, if any, and clear it (dp->lock held). */
static void gaudi_sob_put_locked(struct gaudi_ctx *ctx,
				 struct gaudi_sob_ref *ref)
{
	u32 *users;

	if (!ref->id || !ctx)
		return;
	lockdep_assert_held(&ctx->gdev->dp->lock);
	users = gaudi_sob_users(ctx, *ref);
	if (!WARN_ON_ONCE(!*users))
		(*users)--;
	*ref = GAUDI_SOB_REF_NONE;
}

static void gaudi_sob_put(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			  struct gaudi_sob_ref *ref)
{
	if (!ref->id)
		return;
	spin_lock_irq(&gdev->dp->lock);
	gaudi_sob_put_locked(ctx, ref);
	spin_unlock_irq(&gdev->dp->lock);
	wake_up_all(&gdev->dp->sched.space_wq);
}

/* ---- encapsulated signals ------------------------------------------------ */

static struct gaudi_encaps *
gaudi_encaps_find_locked(struct gaudi_ctx *ctx, u32 id)
{
	struct gaudi_encaps *e;

	lockdep_assert_held(&ctx->gdev->dp->lock);

	list_for_each_entry(e, &ctx->sync.encaps, node)
		if (e->id == id)
			return e;
	return NULL;
}

/* Reservation @id, if no staged submission took it yet (dp->lock held). */
static struct gaudi_encaps *gaudi_encaps_free_locked(struct gaudi_ctx *ctx,
						     u32 id)
{
	struct gaudi_encaps *e = gaudi_encaps_find_locked(ctx, id);

	return e && !e->cs_seq ? e : NULL;
}

/* The SOB the packets of reservation @e's submission may add to. */
static u32 gaudi_encaps_sob(const struct gaudi_encaps *e)
{
	return e->sob;
}

/* Staged submission @seq takes free reservation @e (dp->lock held). */
static void gaudi_encaps_bind_locked(struct gaudi_ctx *ctx,
				     struct gaudi_encaps *e, u64 seq)
{
	lockdep_assert_held(&ctx->gdev->dp->lock);

	e->cs_seq = seq;
	(*gaudi_sob_unbound(ctx, e->ref))--;
}

/* Drop reservation @e and its SOB reference (dp->lock held; any context). */
static void gaudi_encaps_release_locked(struct gaudi_ctx *ctx,
					struct gaudi_encaps *e)
{
	lockdep_assert_held(&ctx->gdev->dp->lock);

	if (!e->cs_seq)
		(*gaudi_sob_unbound(ctx, e->ref))--;
	gaudi_sob_put_locked(ctx, &e->ref);
	list_del(&e->node);
	ctx->sync.encaps_num--;
	kfree(e);
}

void gaudi_encaps_release_all(struct gaudi_device *gdev, struct gaudi_ctx *ctx)
{
	struct gaudi_encaps *e, *tmp;

	spin_lock_irq(&gdev->dp->lock);
	list_for_each_entry_safe(e, tmp, &ctx->sync.encaps, node)
		gaudi_encaps_release_locked(ctx, e);
	spin_unlock_irq(&gdev->dp->lock);
	wake_up_all(&gdev->dp->sched.space_wq);
}

void gaudi_sync_hw_init(struct gaudi_device *gdev)
{
	struct gaudi_ctx *ctx = gdev->dp->ctx;
	struct gaudi_encaps *e, *tmp;

	gaudi_sync_clear(gdev);
	/*
	 * After a reset the SOBs restart from 0 (no submitter runs now and
	 * every CS was ended); reservations name values that are gone.
	 */
	spin_lock_irq(&gdev->dp->lock);
	if (ctx) {
		list_for_each_entry_safe(e, tmp, &ctx->sync.encaps, node)
			gaudi_encaps_release_locked(ctx, e);
		gaudi_sync_reset_slots(ctx);
	}
	spin_unlock_irq(&gdev->dp->lock);
}

enum gaudi_sync_kind {
	GAUDI_SYNC_SIGNAL,
	GAUDI_SYNC_WAIT,
	GAUDI_SYNC_COLL,
	GAUDI_SYNC_ENCAPS,	/* a staged first part raising reserved signals */
};

/*
 * What a CS of the sync code carries (its cs->priv, behind
 * gaudi_sync_cs_ops): a signal, wait or collective wait CS, or the first
 * part of a staged submission with HL_CS_FLAGS_ENCAP_SIGNALS.
 */
struct gaudi_sync_cs {
	enum gaudi_sync_kind kind;
	/* A signal's queue; the SOB and value it adds to, from its commit. */
	struct gaudi_signal sig;
	/* The SOB it signals (from its commit) or watches (from the start). */
	struct gaudi_sob_ref ref;
	u32 master;		/* collective: its master queue */
	u32 slaves;		/* and how many jobs add to its SOB */
	bool committed;
	u32 encaps_id;		/* encaps: the reservation it names */
	struct gaudi_encaps *encaps;	/* taken at commit, until the end */
};

static const struct gaudi_cs_ops gaudi_sync_cs_ops;

static int gaudi_encaps_cs_ready_locked(struct gaudi_cs *cs)
{
	struct gaudi_sync_cs *sc = cs->priv;

	if (gaudi_encaps_free_locked(cs->ctx, sc->encaps_id))
		return 1;
	gaudi_dbg(cs->gdev, CS, "CS: no free signal reservation %u\n",
		  sc->encaps_id);
	return -EINVAL;
}

/**
 * gaudi_encaps_cs_alloc() - a staged first part that raises reserved signals
 * @gdev: the device
 * @ctx: the holder's context
 * @id: the reservation (HL_CS_FLAGS_RESERVE_SIGNALS_ONLY's handle)
 *
 * Return: the CS (gaudi_cs_alloc()) with the hooks that take the
 * reservation at its commit and release it at its end, or NULL.
 */
struct gaudi_cs *gaudi_encaps_cs_alloc(struct gaudi_device *gdev,
				       struct gaudi_ctx *ctx, u32 id)
{
	struct gaudi_cs *cs = gaudi_cs_alloc(gdev, ctx,
					     sizeof(struct gaudi_sync_cs));
	struct gaudi_sync_cs *sc;

	if (cs) {
		cs->ops = &gaudi_sync_cs_ops;
		sc = cs->priv;
		sc->kind = GAUDI_SYNC_ENCAPS;
		sc->encaps_id = id;
	}
	return cs;
}

/**
 * gaudi_encaps_cs_sob_locked() - the SOB a staged submission may signal
 * @cs: its first part, submitted or not
 * @sob: the SOB of its reservation, 0 if it has none
 *
 * Under dp->lock.
 *
 * Return: 0, or -EINVAL if @cs is not submitted and its reservation is not
 * free.
 */
int gaudi_encaps_cs_sob_locked(struct gaudi_cs *cs, u32 *sob)
{
	struct gaudi_sync_cs *sc = cs->priv;
	struct gaudi_encaps *e;

	*sob = 0;
	if (cs->ops != &gaudi_sync_cs_ops || sc->kind != GAUDI_SYNC_ENCAPS)
		return 0;
	e = sc->encaps;
	if (!e && gaudi_encaps_cs_ready_locked(cs) > 0)
		e = gaudi_encaps_free_locked(cs->ctx, sc->encaps_id);
	if (!e)
		return -EINVAL;
	*sob = gaudi_encaps_sob(e);
	return 0;
}

/*
 * HL_CS_FLAGS_RESERVE_SIGNALS_ONLY: reserve encaps_signals_count values of
 * queue encaps_signals_q_idx's signal SOB.  Returns, as upstream, the
 * handle, the SOB's offset in the configuration space and the SOB value
 * that follows the reservation (the next signal's).
 */
int gaudi_encaps_reserve_ioctl(struct gaudi_device *gdev,
			       struct gaudi_ctx *ctx, union hl_cs_args *args)
{
	u32 q = args->in.encaps_signals_q_idx;
	u32 count = args->in.encaps_signals_count;
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_sob_slot *sl;
	struct gaudi_encaps *e;
	u32 id, sob, next;
	int ret, idx;
	u64 gen;

	if (q >= GAUDI_NUM_EXT_QUEUES) {
		gaudi_dbg(gdev, CS, "reserve: queue %u is not external\n", q);
		return -EINVAL;
	}
	q = array_index_nospec(q, GAUDI_NUM_EXT_QUEUES);
	if (count > SM_SOB_VAL) {
		gaudi_dbg(gdev, CS, "reserve: %u signals exceed a SOB (%u)\n",
			  count, SM_SOB_VAL);
		return -EINVAL;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;

	for (;;) {
		ret = gaudi_hw_enter(gdev, &idx);
		if (ret) {
			kfree(e);
			return ret == -ENODEV ? ret : -EBUSY;
		}
		spin_lock_irq(&dp->lock);
		if (ctx->sync.encaps_num >= GAUDI_MAX_ENCAPS) {
			ret = -ENOSPC;
			gaudi_dbg(gdev, CS, "reserve: %u reservations already\n",
				  ctx->sync.encaps_num);
			break;
		}
		ret = gaudi_sync_room_locked(ctx, q, count);
		if (ret)
			break;
		gen = dp->sched.space_gen;
		spin_unlock_irq(&dp->lock);
		gaudi_hw_exit(gdev, idx);
		ret = wait_event_interruptible_timeout(dp->sched.space_wq,
						       READ_ONCE(dp->sched.space_gen) != gen,
						       HZ);
		if (ret < 0) {		/* -ERESTARTSYS: nothing reserved */
			kfree(e);
			return ret;
		}
	}
	if (ret < 0) {
		spin_unlock_irq(&dp->lock);
		gaudi_hw_exit(gdev, idx);
		if (ret == -EBUSY)
			gaudi_dbg(gdev, CS, "reserve: queue %u's other SOB is held by a reservation\n",
				  q);
		kfree(e);
		return ret;
	}

	sl = &ctx->sync.sob[q];
	if (sl->value + count > SM_SOB_VAL)
		gaudi_sync_switch_locked(gdev, ctx, q);
	do {
		id = ++ctx->sync.encaps_next_id;
	} while (!id || gaudi_encaps_find_locked(ctx, id));
	sob = gaudi_sync_sob(q, sl->cur);
	e->id = id;
	e->queue = q;
	e->sob = sob;
	e->pre = sl->value + 1;
	e->count = count;
	e->ref = gaudi_sob_ref(q, sl->cur);
	sl->users[sl->cur]++;
	sl->unbound[sl->cur]++;
	sl->value += count;
	next = sl->value + 1;
	list_add_tail(&e->node, &ctx->sync.encaps);
	ctx->sync.encaps_num++;
	spin_unlock_irq(&dp->lock);
	gaudi_hw_exit(gdev, idx);

	gaudi_dbg(gdev, CS, "reserved %u signals on SOB %u (values %u..%u), handle %u\n",
		  count, sob, e->pre, next - 1, id);
	memset(args, 0, sizeof(*args));
	args->out.handle_id = id;
	args->out.count = next;
	args->out.sob_base_addr_offset = mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * sob;
	args->out.status = HL_CS_STATUS_SUCCESS;
	return 0;
}

/*
 * HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY: give back a reservation no CS took.
 * As upstream, only while nothing was signalled or reserved on its queue
 * since (EINVAL otherwise: the reservation stays until a staged submission
 * uses it, a reset or close).
 */
int gaudi_encaps_unreserve_ioctl(struct gaudi_device *gdev,
				 struct gaudi_ctx *ctx, union hl_cs_args *args)
{
	u32 id = args->in.encaps_sig_handle_id;
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_sob_slot *sl;
	struct gaudi_encaps *e;
	int ret = 0;

	spin_lock_irq(&dp->lock);
	e = gaudi_encaps_find_locked(ctx, id);
	if (!e) {
		gaudi_dbg(gdev, CS, "unreserve: no reservation %u\n", id);
		ret = -EINVAL;
		goto out;
	}
	if (e->cs_seq) {
		gaudi_dbg(gdev, CS, "unreserve: reservation %u belongs to CS %llu\n",
			  id, e->cs_seq);
		ret = -EINVAL;
		goto out;
	}
	sl = &ctx->sync.sob[e->queue];
	if (e->sob != gaudi_sync_sob(e->queue, sl->cur) ||
	    e->pre + e->count != sl->value + 1) {
		gaudi_dbg(gdev, CS, "unreserve: SOB %u moved on since reservation %u\n",
			  e->sob, id);
		ret = -EINVAL;
		goto out;
	}
	sl->value -= e->count;
	gaudi_encaps_release_locked(ctx, e);
out:
	spin_unlock_irq(&dp->lock);
	wake_up_all(&dp->sched.space_wq);
	return ret;
}

/*
 * A wait on the encapsulated signals of staged submission @seq: 0 and the
 * SOB and value to wait for, with a new reference on the SOB (*@ref), 1 if no
 * reservation belongs to @seq (it ended, or never had one: nothing to
 * wait for), -EINVAL for an offset beyond the reservation.  Offset k > 0
 * waits for the k-th reserved signal, 0 for the first.
 */
static int gaudi_encaps_wait_info(struct gaudi_device *gdev,
				  struct gaudi_ctx *ctx, u64 seq, u32 offset,
				  u32 *sob, u32 *value,
				  struct gaudi_sob_ref *ref)
{
	struct gaudi_encaps *e, *found = NULL;
	int ret = 1;

	spin_lock_irq(&gdev->dp->lock);
	list_for_each_entry(e, &ctx->sync.encaps, node) {
		if (seq && e->cs_seq == seq) {
			found = e;
			break;
		}
	}
	if (!found) {
		ret = 1;
	} else if (offset > found->count) {
		gaudi_dbg(gdev, CS, "wait: offset %u beyond the %u reserved signals\n",
			  offset, found->count);
		ret = -EINVAL;
	} else {
		*sob = found->sob;
		*value = found->pre + (offset ? offset - 1 : 0);
		*ref = found->ref;
		(*gaudi_sob_users(ctx, found->ref))++;
		ret = 0;
	}
	spin_unlock_irq(&gdev->dp->lock);
	return ret;
}

/*
 * May one more signal go to queue @queue now (dp->lock held)?  1 yes, 0
 * not yet (its current SOB is full and the other one still has users),
 * -EBUSY never (a reservation holds the other one).
 */
static int gaudi_sync_signal_ready_locked(struct gaudi_ctx *ctx, u32 queue)
{
	lockdep_assert_held(&ctx->gdev->dp->lock);

	return gaudi_sync_room_locked(ctx, queue, 1);
}

/*
 * Give signal @sig its SOB and value (dp->lock held, inside
 * gaudi_hw_enter(), after gaudi_sync_signal_ready_locked()): switch SOBs
 * when the current one is full, point the MSG_LONG @msg at the SOB and
 * return a reference on it.
 */
static struct gaudi_sob_ref
gaudi_sync_signal_locked(struct gaudi_ctx *ctx, struct gaudi_signal *sig,
			 __le32 *msg)
{
	struct gaudi_device *gdev = ctx->gdev;
	struct gaudi_sob_slot *sl = &ctx->sync.sob[sig->queue];
	u64 addr;

	lockdep_assert_held(&gdev->dp->lock);

	if (sl->value >= SM_SOB_VAL)
		gaudi_sync_switch_locked(gdev, ctx, sig->queue);
	sig->sob = gaudi_sync_sob(sig->queue, sl->cur);
	sig->before = sl->value;
	sl->users[sl->cur]++;
	sl->value++;

	addr = GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * sig->sob;
	msg[2] = cpu_to_le32(lower_32_bits(addr));
	msg[3] = cpu_to_le32(upper_32_bits(addr));
	return gaudi_sob_ref(sig->queue, sl->cur);
}

/* The longest job, a wait: four MSG_LONGs of 4 dwords and a FENCE of 2. */
#define GAUDI_SYNC_JOB_DWORDS	(4 * 4 + 2)

static u32 *msg_long(u32 *p, u64 addr, u32 value)
{
	p[0] = value;
	p[1] = FIELD_PREP(PKT_CTL_OPCODE, PKT_MSG_LONG) | PKT_CTL_MB;
	p[2] = lower_32_bits(addr);
	p[3] = upper_32_bits(addr);
	return p + 4;
}

/*
 * Arm W_S monitor @mon on @sob reaching @value, its payload adding 1 to
 * fence counter 2 of stream @s of the QMAN at @qm, then FENCE on it.
 */
static u32 *gaudi_wait_pkts(u32 *p, u32 mon, u32 sob, u32 value, u32 qm,
			    u32 s)
{
	u64 sm = GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0;
	u64 fence = GAUDI_CFG_BASE + qm + QM_CP_FENCE_RDATA(2, s);

	p = msg_long(p, sm + SM_MON_PAY_ADDRL(mon), lower_32_bits(fence));
	p = msg_long(p, sm + SM_MON_PAY_ADDRH(mon), upper_32_bits(fence));
	p = msg_long(p, sm + SM_MON_PAY_DATA(mon), 1);
	p = msg_long(p, sm + SM_MON_ARM(mon),
		     FIELD_PREP(SM_MON_ARM_GROUP, sob / 8) |
		     FIELD_PREP(SM_MON_ARM_MASK, (u8)~BIT(sob % 8)) |
		     FIELD_PREP(SM_MON_ARM_VALUE, value));
	p[0] = FIELD_PREP(PKT_FENCE_DEC, 1) | FIELD_PREP(PKT_FENCE_TARGET, 1) |
	       FIELD_PREP(PKT_FENCE_ID, 2);
	p[1] = FIELD_PREP(PKT_CTL_OPCODE, PKT_FENCE);
	return p + 2;
}

/* ---- collective waits' SOBs ---------------------------------------------- */

static int gaudi_sync_coll_ready_locked(struct gaudi_ctx *ctx, u32 m,
					u32 slaves)
{
	struct gaudi_coll_slot *c = &ctx->sync.coll[m];

	lockdep_assert_held(&ctx->gdev->dp->lock);
	if (c->value + slaves <= SM_SOB_VAL)
		return 1;
	if (c->inflight)
		return 0;
	/*
	 * Nothing adds to the SOB or watches it: restart it from 0 (the
	 * submitter holds the device, gaudi_cs_submit()).
	 */
	WREG32(ctx->gdev, mmSYNC_MNGR_W_S_SOB_OBJ_0 +
	       4 * (GAUDI_COLL_FIRST_SOB + m), 0);
	c->value = 0;
	return 1;
}

static void gaudi_sync_coll_locked(struct gaudi_ctx *ctx, u32 m, u32 slaves,
				   __le32 *arm_msg)
{
	struct gaudi_coll_slot *c = &ctx->sync.coll[m];
	u32 sob = GAUDI_COLL_FIRST_SOB + m;

	lockdep_assert_held(&ctx->gdev->dp->lock);
	c->value += slaves;
	c->inflight++;
	arm_msg[0] = cpu_to_le32(FIELD_PREP(SM_MON_ARM_GROUP, sob / 8) |
				 FIELD_PREP(SM_MON_ARM_MASK, (u8)~BIT(sob % 8)) |
				 FIELD_PREP(SM_MON_ARM_VALUE, c->value));
}

static void gaudi_sync_coll_done_locked(struct gaudi_ctx *ctx, u32 m)
{
	lockdep_assert_held(&ctx->gdev->dp->lock);
	if (ctx->sync.coll[m].inflight)
		ctx->sync.coll[m].inflight--;
}

/* ---- the sync code's CSs ------------------------------------------------- */

static int gaudi_sync_cs_ready_locked(struct gaudi_cs *cs)
{
	struct gaudi_sync_cs *sc = cs->priv;
	int ret = 1;

	if (sc->kind == GAUDI_SYNC_SIGNAL) {
		ret = gaudi_sync_signal_ready_locked(cs->ctx, sc->sig.queue);
		if (ret == -EBUSY)
			gaudi_dbg(cs->gdev, CS, "signal: queue %u's other SOB is held by a signal reservation\n",
				  sc->sig.queue);
	} else if (sc->kind == GAUDI_SYNC_COLL) {
		ret = gaudi_sync_coll_ready_locked(cs->ctx, sc->master,
						   sc->slaves);
	} else if (sc->kind == GAUDI_SYNC_ENCAPS) {
		ret = gaudi_encaps_cs_ready_locked(cs);
	}
	return ret;
}

static void gaudi_sync_cs_commit_locked(struct gaudi_cs *cs)
{
	struct gaudi_sync_cs *sc = cs->priv;
	struct gaudi_job *job;

	if (sc->kind == GAUDI_SYNC_SIGNAL) {
		job = list_first_entry(&cs->jobs, struct gaudi_job, node);
		sc->ref = gaudi_sync_signal_locked(cs->ctx, &sc->sig, job->kcb);
	} else if (sc->kind == GAUDI_SYNC_COLL) {
		/* The master job is the last: its monitor's target. */
		job = list_last_entry(&cs->jobs, struct gaudi_job, node);
		gaudi_sync_coll_locked(cs->ctx, sc->master, sc->slaves,
				       (__le32 *)job->kcb + GAUDI_COLL_ARM_DWORD);
	} else if (sc->kind == GAUDI_SYNC_ENCAPS) {
		sc->encaps = gaudi_encaps_free_locked(cs->ctx, sc->encaps_id);
		gaudi_encaps_bind_locked(cs->ctx, sc->encaps, cs->seq);
	}
	sc->committed = true;
}

static void gaudi_sync_cs_done_locked(struct gaudi_cs *cs)
{
	struct gaudi_sync_cs *sc = cs->priv;

	gaudi_sob_put_locked(cs->ctx, &sc->ref);
	if (sc->kind == GAUDI_SYNC_COLL && sc->committed)
		gaudi_sync_coll_done_locked(cs->ctx, sc->master);
	if (sc->encaps)
		gaudi_encaps_release_locked(cs->ctx, sc->encaps);
	sc->encaps = NULL;
	sc->committed = false;
}

static const struct gaudi_cs_ops gaudi_sync_cs_ops = {
	.ready_locked = gaudi_sync_cs_ready_locked,
	.commit_locked = gaudi_sync_cs_commit_locked,
	.done_locked = gaudi_sync_cs_done_locked,
};

/*
 * Submit the sync CS of the @n jobs @kj described by *@sc; the reference
 * in @sc->ref passes to the CS, or is dropped if it is not submitted.
 */
static int gaudi_sync_submit(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			     const struct gaudi_kjob *kj, unsigned int n,
			     struct gaudi_sync_cs *sc, u64 *seq)
{
	int ret = gaudi_cs_submit_kernel(gdev, ctx, kj, n, &gaudi_sync_cs_ops,
					 sc, sizeof(*sc), seq);

	if (ret)
		gaudi_sob_put(gdev, ctx, &sc->ref);
	return ret;
}

/*
 * The signal CS @seq: 0 and what it signals, with a new reference on its
 * SOB (*@ref, the caller's to drop), 1 if it is gone, or -EINVAL.
 */
static int gaudi_sync_find_signal(struct gaudi_device *gdev,
				  struct gaudi_ctx *ctx, u64 seq,
				  struct gaudi_signal *sig,
				  struct gaudi_sob_ref *ref)
{
	struct gaudi_sync_cs *sc;
	struct gaudi_cs *cs;
	int ret = 1;

	spin_lock_irq(&gdev->dp->lock);
	cs = seq ? gaudi_cs_lookup_locked(ctx, seq) : ERR_PTR(-EINVAL);
	if (IS_ERR(cs)) {
		ret = PTR_ERR(cs);
	} else if (cs) {
		sc = cs->priv;
		if (cs->ops != &gaudi_sync_cs_ops ||
		    sc->kind != GAUDI_SYNC_SIGNAL) {
			ret = -EINVAL;
		} else {
			*sig = sc->sig;
			*ref = gaudi_sob_get_locked(ctx, sig);
			ret = 0;
		}
	}
	spin_unlock_irq(&gdev->dp->lock);
	return ret;
}

/*
 * Signal CS: one job on the queue that adds 1 to the queue's current SOB
 * (chosen at submission, gaudi_sync_signal_locked()).  Wait CS: one job on
 * the queue that arms the queue's monitor on the signal's SOB reaching the
 * value the signal CS gives it, with a payload that adds 1 to the stream's
 * fence counter 2, then FENCEs on it.  A wait CS for a signal CS that is
 * gone (long completed) is a NOP.  With HL_CS_FLAGS_ENCAP_SIGNALS the wait
 * is for one of the signals reserved for staged submission
 * encaps_signal_seq (a NOP once that has ended).
 */
int gaudi_sync_cs_ioctl(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_cs_args *args)
{
	u32 flags = args->in.cs_flags, pkts[GAUDI_SYNC_JOB_DWORDS] = {};
	u32 *p = pkts;
	struct gaudi_kjob kj = {};
	struct gaudi_sync_cs sc = { .kind = GAUDI_SYNC_WAIT };
	struct gaudi_signal sig = {};
	struct hl_cs_chunk ch;
	u32 sob, value;
	u64 seq, sig_seq;
	int ret;

	if ((flags & HL_CS_FLAGS_SIGNAL) && (flags & HL_CS_FLAGS_WAIT))
		return -EINVAL;
	if (flags & ~(HL_CS_FLAGS_SIGNAL | HL_CS_FLAGS_WAIT |
		      HL_CS_FLAGS_TIMESTAMP | HL_CS_FLAGS_ENCAP_SIGNALS)) {
		gaudi_dbg(gdev, CS, "signal/wait: flags 0x%x not supported\n",
			  flags);
		return -EINVAL;
	}
	if ((flags & HL_CS_FLAGS_ENCAP_SIGNALS) && !(flags & HL_CS_FLAGS_WAIT)) {
		gaudi_dbg(gdev, CS, "signal: encapsulated signals are for waits\n");
		return -EINVAL;
	}
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
	ch.queue_index = array_index_nospec(ch.queue_index,
					    GAUDI_NUM_EXT_QUEUES);
	kj.queue = ch.queue_index;

	if (flags & HL_CS_FLAGS_SIGNAL) {
		sc.kind = GAUDI_SYNC_SIGNAL;
		sc.sig.queue = kj.queue;
		/* The SOB address is filled in at submission. */
		p = msg_long(p, 0, SM_SOB_INC | 1);
	} else {
		if (flags & HL_CS_FLAGS_ENCAP_SIGNALS) {
			ret = gaudi_encaps_wait_info(gdev, ctx,
						     ch.encaps_signal_seq,
						     ch.encaps_signal_offset,
						     &sob, &value, &sc.ref);
			if (ret < 0)
				return ret;
		} else {
			if (ch.num_signal_seq_arr != 1)
				return -EINVAL;
			if (copy_from_user(&sig_seq,
					   u64_to_user_ptr(ch.signal_seq_arr),
					   sizeof(sig_seq)))
				return -EFAULT;
			ret = gaudi_sync_find_signal(gdev, ctx, sig_seq, &sig,
						     &sc.ref);
			if (ret < 0) {
				gaudi_dbg(gdev, CS, "wait: %llu is not a signal CS\n",
					  sig_seq);
				return ret;
			}
			sob = sig.sob;
			value = sig.before + 1;
		}
		if (ret == 0) {
			p = gaudi_wait_pkts(p, GAUDI_SIG_FIRST_MON + ch.queue_index,
					    sob, value,
					    gdev->dp->hwq.q[ch.queue_index].qm_base,
					    ch.queue_index % 4);
		} else {
			p[1] = FIELD_PREP(PKT_CTL_OPCODE, PKT_NOP);
			p += 2;
		}
	}
	for (value = 0; value < p - pkts; value++)
		pkts[value] = (__force u32)cpu_to_le32(pkts[value]);

	/* The wait CS holds the SOB it watches from here on. */
	kj.pkts = (__force const __le32 *)pkts;
	kj.size = (p - pkts) * 4;
	ret = gaudi_sync_submit(gdev, ctx, &kj, 1, &sc, &seq);
	if (ret)	/* -ERESTARTSYS: nothing queued, may be restarted */
		return ret;
	memset(args, 0, sizeof(*args));
	args->out.seq = seq;
	args->out.status = HL_CS_STATUS_SUCCESS;
	if (flags & HL_CS_FLAGS_SIGNAL) {
		args->out.sob_base_addr_offset = mmSYNC_MNGR_W_S_SOB_OBJ_0 +
						 4 * sc.sig.sob;
		args->out.sob_count_before_submission = sc.sig.before;
	}
	return 0;
}

/* ---- collective waits ---------------------------------------------------- */

#define GAUDI_COLL_MAX_JOBS	(GAUDI_NIC_NUM_PORTS + 2)

/*
 * Collective wait CS (upstream's semantics): on master queue m (external),
 * every enabled NIC port's queue of m's stream and the reduction engine's
 * (collective_engine_id: DMA 5 or TPC 7) wait for the signal CS, then add
 * 1 to m's collective SOB; m's job waits for all of them and ends the CS.
 * So the CS ends once the signal arrived and every NIC queue and the
 * reduction engine passed the work queued on them before it.  Upstream
 * refuses it on a card without NIC ports (EINVAL); so does this.
 */
int gaudi_coll_cs_ioctl(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_cs_args *args)
{
	u32 pkts[GAUDI_COLL_MAX_JOBS][GAUDI_SYNC_JOB_DWORDS + 4] = {};
	struct gaudi_kjob kj[GAUDI_COLL_MAX_JOBS] = {};
	struct gaudi_dp *dp = gdev->dp;
	u32 flags = args->in.cs_flags, ports, m, s, sob = 0, value = 0;
	u64 coll = GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0;
	struct gaudi_sync_cs sc = { .kind = GAUDI_SYNC_COLL };
	struct gaudi_signal sig = {};
	struct hl_cs_chunk ch;
	unsigned int n = 0, i, p;
	u64 seq, sig_seq;
	int ret;

	ports = READ_ONCE(gdev->nic.ports_mask);
	if (!ports) {
		gaudi_dbg(gdev, CS, "collective wait: the card has no NIC ports\n");
		return -EINVAL;
	}
	if (flags & ~(HL_CS_FLAGS_COLLECTIVE_WAIT | HL_CS_FLAGS_TIMESTAMP |
		      HL_CS_FLAGS_ENCAP_SIGNALS) ||
	    args->in.num_chunks_execute != 1) {
		gaudi_dbg(gdev, CS, "collective wait: flags 0x%x or %u chunks\n",
			  flags, args->in.num_chunks_execute);
		return -EINVAL;
	}
	if (copy_from_user(&ch, u64_to_user_ptr(args->in.chunks_execute),
			   sizeof(ch)))
		return -EFAULT;
	if (ch.queue_index >= GAUDI_NUM_EXT_QUEUES ||
	    (ch.collective_engine_id != GAUDI_ENGINE_ID_DMA_5 &&
	     ch.collective_engine_id != GAUDI_ENGINE_ID_TPC_7)) {
		gaudi_dbg(gdev, CS, "collective wait: queue %u is not a master or engine %u not DMA 5/TPC 7\n",
			  ch.queue_index, ch.collective_engine_id);
		return -EINVAL;
	}
	m = array_index_nospec(ch.queue_index, GAUDI_NUM_EXT_QUEUES);
	s = m % 4;

	if (flags & HL_CS_FLAGS_ENCAP_SIGNALS) {
		ret = gaudi_encaps_wait_info(gdev, ctx, ch.encaps_signal_seq,
					     ch.encaps_signal_offset, &sob,
					     &value, &sc.ref);
	} else {
		if (ch.num_signal_seq_arr != 1)
			return -EINVAL;
		if (copy_from_user(&sig_seq, u64_to_user_ptr(ch.signal_seq_arr),
				   sizeof(sig_seq)))
			return -EFAULT;
		ret = gaudi_sync_find_signal(gdev, ctx, sig_seq, &sig, &sc.ref);
		if (ret < 0)
			gaudi_dbg(gdev, CS, "collective wait: %llu is not a signal CS\n",
				  sig_seq);
		sob = sig.sob;
		value = sig.before + 1;
	}
	if (ret < 0)
		return ret;

	/* The slaves: each enabled port's NIC queue, the reduction engine. */
	for (p = 0; p <= GAUDI_NIC_NUM_PORTS; p++) {
		u32 *w = pkts[n], q, mon;

		if (p < GAUDI_NIC_NUM_PORTS) {
			if (!(ports & BIT(p)))
				continue;
			q = GAUDI_QUEUE_ID_NIC_0_0 + 4 * p + s;
			mon = GAUDI_COLL_MON_NIC + 4 * p + s;
		} else if (ch.collective_engine_id == GAUDI_ENGINE_ID_DMA_5) {
			q = GAUDI_QUEUE_ID_DMA_5_0 + s;
			mon = GAUDI_COLL_MON_DMA5 + s;
		} else {
			q = GAUDI_QUEUE_ID_TPC_7_0 + s;
			mon = GAUDI_COLL_MON_TPC7 + s;
		}
		/* A signal long gone (ret 1) needs no wait. */
		if (!ret)
			w = gaudi_wait_pkts(w, mon, sob, value,
					    dp->hwq.q[q].qm_base, s);
		w = msg_long(w, coll + 4 * (GAUDI_COLL_FIRST_SOB + m),
			     SM_SOB_INC | 1);
		kj[n].queue = q;
		kj[n].pkts = (__force const __le32 *)pkts[n];
		kj[n].size = (w - pkts[n]) * 4;
		n++;
	}
	/* The master: its monitor's target is set at submission. */
	kj[n].queue = m;
	kj[n].pkts = (__force const __le32 *)pkts[n];
	kj[n].size = (gaudi_wait_pkts(pkts[n], GAUDI_COLL_MON_MASTER + m,
				      GAUDI_COLL_FIRST_SOB + m, 0,
				      dp->hwq.q[m].qm_base, s) - pkts[n]) * 4;
	n++;
	for (i = 0; i < n; i++)
		for (p = 0; p < kj[i].size / 4; p++)
			pkts[i][p] = (__force u32)cpu_to_le32(pkts[i][p]);
	sc.master = m;
	sc.slaves = n - 1;
	ret = gaudi_sync_submit(gdev, ctx, kj, n, &sc, &seq);
	if (ret)
		return ret;
	memset(args, 0, sizeof(*args));
	args->out.seq = seq;
	args->out.status = HL_CS_STATUS_SUCCESS;
	return 0;
}
