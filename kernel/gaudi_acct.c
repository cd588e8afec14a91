// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: per-holder accounting (DRM_IOCTL_GAUDI_ACCOUNTING).
 *
 * A holding of the compute node runs from the open that made a process the
 * holder to its close.  While it runs, its record is made on demand from
 * the holder's context (engine time, submissions, memory peaks) and the
 * card's energy counter; at close the final figures go into a ring of
 * acct_records entries, the oldest dropped first.  The ring and the live
 * state are under users->lock, as the holder itself is.
 *
 * The holder's cgroup (cgroup v2) is taken at open, a reference kept with
 * the record until its slot is reused, and its path made for each caller
 * in the caller's cgroup namespace, as /proc/<pid>/cgroup does.
 *
 * The energy counter is read through the device CPU at open, at close and
 * when a tool asks for the running record, never while a reset holds the
 * device: a holding that saw a reset, or whose counter could not be read at
 * both ends, has no energy figure (uapi/drm/gaudi_accel.h, "Accounting").
 *
 * Engine time is measured here too: the scheduler marks a CS's engine
 * classes busy for its context from its push to its end
 * (gaudi_acct_busy_locked()).
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/habanalabs/cpucp_if.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "../uapi/drm/gaudi_accel.h"
#include "gaudi_acct.h"
#include "gaudi_cpucp.h"
#include "gaudi_dp_types.h"
#include "gaudi_file_types.h"
#include "gaudi_parser.h"
#include "gaudi_types.h"

#define GAUDI_ACCT_RECORDS_MAX		1024
/* Engine classes accounted. */
#define GAUDI_ACCT_CLASSES		GAUDI_NUM_ENGINE_CLASSES

/*
 * One holding of the compute node, for DRM_IOCTL_GAUDI_ACCOUNTING: what
 * the holder used, kept after its close.
 */
struct gaudi_acct_entry {
	u64 id;				/* open_counter after the open */
	struct pid *pid;		/* a reference of its own */
	kuid_t uid;
	char comm[TASK_COMM_LEN];
	u32 flags;			/* GAUDI_ACCT_* */
	u64 start_real_ns;
	u64 wall_ns;
	u64 busy_ns[GAUDI_ACCT_CLASSES];
	u64 cs_submitted;
	u64 peak_hbm, peak_host;
	u64 energy_uj;
	struct cgroup *cgrp;		/* the holder's, a reference; or NULL */
};

static unsigned int gaudi_acct_records = 64;
module_param_named(acct_records, gaudi_acct_records, uint, 0444);
MODULE_PARM_DESC(acct_records,
		 "Accounting records of exited holders kept per card (0-1024, default 64)");

static_assert(sizeof(struct drm_gaudi_acct_record) ==
	      GAUDI_ACCT_RECORD_SIZE_V2);
static_assert(offsetof(struct drm_gaudi_acct_record, cgroup) ==
	      GAUDI_ACCT_RECORD_SIZE_V1);
static_assert(GAUDI_ACCT_CLASSES <= GAUDI_ENGINE_CLASS_SLOTS);
/* busy_ns[] is indexed by the driver's classes: the uapi's must match. */
static_assert(!(GAUDI_ENGINE_DMA - GAUDI_ENGINE_CLASS_DMA) &&
	      !(GAUDI_ENGINE_MME - GAUDI_ENGINE_CLASS_MME) &&
	      !(GAUDI_ENGINE_TPC - GAUDI_ENGINE_CLASS_TPC) &&
	      !(GAUDI_ENGINE_NIC - GAUDI_ENGINE_CLASS_NIC));

/* The cgroup of the current process, a reference; NULL without cgroups. */
static struct cgroup *acct_cgroup_get(void)
{
	struct cgroup *cgrp = NULL;

#ifdef CONFIG_CGROUPS
	rcu_read_lock();
	cgrp = task_dfl_cgroup(current);
	/* the task's css_set holds it: it cannot be released under RCU */
	cgroup_get(cgrp);
	rcu_read_unlock();
#endif
	return cgrp;
}

static void acct_cgroup_put(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUPS
	if (cgrp)
		cgroup_put(cgrp);
#endif
}

static void gaudi_acct_fini(struct drm_device *drm, void *data)
{
	struct gaudi_users *u = data;
	unsigned int i;

	for (i = 0; i < u->kept_max; i++) {
		put_pid(u->kept[i].pid);
		acct_cgroup_put(u->kept[i].cgrp);
	}
	acct_cgroup_put(u->acct.cgrp);	/* a holder that never closed */
}

int gaudi_acct_init(struct gaudi_device *gdev)
{
	struct gaudi_users *u = gdev->users;

	u->kept_max = min(gaudi_acct_records, GAUDI_ACCT_RECORDS_MAX);
	if (u->kept_max) {
		u->kept = drmm_kcalloc(&gdev->drm, u->kept_max,
				       sizeof(*u->kept), GFP_KERNEL);
		if (!u->kept)
			return -ENOMEM;
	}
	return drmm_add_action_or_reset(&gdev->drm, gaudi_acct_fini, u);
}

void gaudi_file_host_add(struct gaudi_file *gfile, s64 bytes)
{
	s64 now = atomic64_add_return(bytes, &gfile->host_bytes);
	s64 peak = atomic64_read(&gfile->host_peak);

	while (now > peak &&
	       !atomic64_try_cmpxchg(&gfile->host_peak, &peak, now))
		;
}

/*
 * The card's energy counter, if it can be read without waiting for a reset
 * or the removal of the card.
 */
static bool acct_energy(struct gaudi_device *gdev, u64 *uj)
{
	bool ok = false;
	int idx;

	if (!drm_dev_enter(&gdev->drm, &idx))
		return false;
	if (down_read_trylock(&gdev->reset.rwsem)) {
		if (READ_ONCE(gdev->status) == GAUDI_STATUS_OPERATIONAL)
			ok = !gaudi_cpucp_simple(gdev,
						 CPUCP_PACKET_TOTAL_ENERGY_GET,
						 0, 0, uj);
		up_read(&gdev->reset.rwsem);
	}
	drm_dev_exit(idx);
	return ok;
}

static u32 acct_resets(struct gaudi_device *gdev)
{
	return READ_ONCE(gdev->reset.hard_reset_cnt) +
	       READ_ONCE(gdev->reset.soft_reset_cnt);
}

/* The holder's context is made: take the samples its record starts from. */
void gaudi_acct_open(struct gaudi_device *gdev, struct gaudi_file *gfile)
{
	struct gaudi_users *u = gdev->users;
	struct cgroup *cgrp = acct_cgroup_get();
	u32 resets = acct_resets(gdev);
	u64 energy = 0;
	bool ok;

	ok = acct_energy(gdev, &energy);
	mutex_lock(&u->lock);
	if (u->compute == gfile) {
		u->acct.ready = true;
		u->acct.energy_ok = ok;
		u->acct.energy_start = energy;
		u->acct.resets_start = resets;
		swap(u->acct.cgrp, cgrp);
	}
	mutex_unlock(&u->lock);
	acct_cgroup_put(cgrp);	/* not the holder after all, or a stale one */
}

/*
 * The holder's figures as they are now (u->lock held, u->compute set and
 * ready); @energy_now, @energy_ok: a sample of the counter taken just
 * before.
 */
static void acct_fill_live(struct gaudi_users *u, struct gaudi_acct_entry *e,
			   u64 energy_now, bool energy_ok)
{
	struct gaudi_file *gfile = u->compute;
	struct gaudi_ctx *ctx = gfile->ctx;

	lockdep_assert_held(&u->lock);
	memset(e, 0, sizeof(*e));
	e->id = u->open_counter;
	e->pid = u->owner.pid;
	e->uid = u->owner.uid;
	memcpy(e->comm, u->owner.comm, sizeof(e->comm));
	e->start_real_ns = u->owner.open_real_ns;
	e->wall_ns = ktime_to_ns(ktime_sub(ktime_get(), u->owner.open_mono));
	e->flags = GAUDI_ACCT_RUNNING;
	if (acct_resets(u->gdev) != u->acct.resets_start) {
		e->flags |= GAUDI_ACCT_RESET;
	} else if (u->acct.energy_ok && energy_ok &&
		   energy_now >= u->acct.energy_start) {
		e->flags |= GAUDI_ACCT_ENERGY;
		e->energy_uj = energy_now - u->acct.energy_start;
	}
	e->peak_host = atomic64_read(&gfile->host_peak);
	e->cgrp = u->acct.cgrp;		/* borrowed: the caller takes it or not */
	if (ctx) {
		gaudi_cs_busy_ns(ctx, e->busy_ns);
		e->cs_submitted = gaudi_cs_submitted(ctx);
		e->peak_hbm = READ_ONCE(ctx->dram_peak);
	}
}

/*
 * The holder closes: its work has ended (gaudi_ctx_close()), the context
 * still exists.  Its final record goes into the ring.
 */
void gaudi_acct_close(struct gaudi_device *gdev, struct gaudi_file *gfile)
{
	struct gaudi_users *u = gdev->users;
	struct cgroup *old_cgrp = NULL;
	struct gaudi_acct_entry *e;
	struct pid *old = NULL;
	u64 energy = 0;
	bool ok;

	ok = acct_energy(gdev, &energy);
	mutex_lock(&u->lock);
	if (u->compute != gfile || !u->acct.ready) {
		mutex_unlock(&u->lock);
		return;
	}
	u->acct.ready = false;
	if (!u->kept_max) {
		old_cgrp = u->acct.cgrp;
		u->acct.cgrp = NULL;
		mutex_unlock(&u->lock);
		acct_cgroup_put(old_cgrp);
		return;
	}
	e = &u->kept[u->kept_next];
	old = e->pid;
	old_cgrp = e->cgrp;
	acct_fill_live(u, e, energy, ok);
	e->flags &= ~GAUDI_ACCT_RUNNING;
	e->pid = get_pid(u->owner.pid);
	u->acct.cgrp = NULL;		/* the record has its reference now */
	u->kept_next = (u->kept_next + 1) % u->kept_max;
	if (u->kept_n < u->kept_max)
		u->kept_n++;
	mutex_unlock(&u->lock);
	put_pid(old);
	acct_cgroup_put(old_cgrp);
}

/* The cgroup's path as the caller sees it, into @r (u->lock held). */
static void acct_cgroup_path(struct cgroup *cgrp,
			     struct drm_gaudi_acct_record *r)
{
#ifdef CONFIG_CGROUPS
	int n;

	if (!cgrp)
		return;
	n = cgroup_path_ns(cgrp, r->cgroup, sizeof(r->cgroup),
			   current->nsproxy->cgroup_ns);
	if (n < 0)
		r->cgroup[0] = '\0';
	else if (n >= (int)sizeof(r->cgroup))
		r->flags |= GAUDI_ACCT_CGROUP_TRUNC;
#endif
}

static void acct_to_uapi(const struct gaudi_acct_entry *e,
			 struct drm_gaudi_acct_record *r)
{
	unsigned int c;

	memset(r, 0, sizeof(*r));
	r->id = e->id;
	r->pid = pid_vnr(e->pid);
	r->uid = from_kuid_munged(current_user_ns(), e->uid);
	strscpy(r->comm, e->comm, sizeof(r->comm));
	r->flags = e->flags;
	r->start_time_ns = e->start_real_ns;
	r->wall_ns = e->wall_ns;
	for (c = 0; c < GAUDI_ACCT_CLASSES; c++)
		r->busy_ns[c] = e->busy_ns[c];
	r->cs_submitted = e->cs_submitted;
	r->peak_hbm_bytes = e->peak_hbm;
	r->peak_host_bytes = e->peak_host;
	r->energy_uj = e->energy_uj;
	acct_cgroup_path(e->cgrp, r);
}

int gaudi_acct_query(struct gaudi_device *gdev, void *data)
{
	struct drm_gaudi_accounting *a = data;
	struct gaudi_users *u = gdev->users;
	struct drm_gaudi_acct_record *recs = NULL;
	u8 __user *dst = u64_to_user_ptr(a->records);
	unsigned int avail, n, skip, i, k, want;
	struct gaudi_acct_entry live;
	u32 rs = a->record_size;
	u64 energy = 0;
	bool ok = false;
	int ret = 0, idx;

	/* Gone cards answer ENODEV, as the other extensions. */
	if (!drm_dev_enter(&gdev->drm, &idx))
		return -ENODEV;
	drm_dev_exit(idx);
	if (a->flags || a->pad || memchr_inv(a->reserved, 0,
					     sizeof(a->reserved))) {
		gaudi_dbg(gdev, IOCTL, "ACCOUNTING: reserved bits set\n");
		return -EINVAL;
	}
	if (a->count && (rs < GAUDI_ACCT_RECORD_SIZE_V1 || rs % 8 ||
			 rs > PAGE_SIZE)) {
		gaudi_dbg(gdev, IOCTL, "ACCOUNTING: record size %u\n", rs);
		return -EINVAL;
	}

	/* Room for what there can be; the copy happens outside the lock. */
	want = min(a->count, u->kept_max + 1);
	if (want) {
		recs = kvcalloc(want, sizeof(*recs), GFP_KERNEL);
		if (!recs)
			return -ENOMEM;
	}
	/* A sample for the running record, if there is one. */
	if (want && READ_ONCE(u->compute))
		ok = acct_energy(gdev, &energy);

	mutex_lock(&u->lock);
	avail = u->kept_n + (u->compute && u->acct.ready);
	n = min(want, avail);
	skip = avail - n;
	for (i = 0, k = 0; i < u->kept_n && k < n; i++) {
		unsigned int slot = (u->kept_next + u->kept_max - u->kept_n +
				     i) % u->kept_max;

		if (skip) {
			skip--;
			continue;
		}
		acct_to_uapi(&u->kept[slot], &recs[k++]);
	}
	if (k < n) {
		acct_fill_live(u, &live, energy, ok);
		acct_to_uapi(&live, &recs[k++]);
	}
	mutex_unlock(&u->lock);

	for (i = 0; i < k; i++) {
		size_t len = min_t(size_t, rs, sizeof(*recs));

		if (copy_to_user(dst + (size_t)i * rs, &recs[i], len) ||
		    clear_user(dst + (size_t)i * rs + len, rs - len)) {
			ret = -EFAULT;
			break;
		}
	}
	kvfree(recs);
	if (ret)
		return ret;
	a->count = k;
	a->record_size = sizeof(*recs);
	a->available = avail;
	a->max_kept = u->kept_max;
	return 0;
}

/*
 * Engine time: a CS's classes are busy for its context from its push
 * (@start) to its completion; overlapping CSs count once (a union, not a
 * sum).
 */
void gaudi_acct_busy_locked(struct gaudi_cs *cs, ktime_t now, bool start)
{
	struct gaudi_ctx *ctx = cs->ctx;
	unsigned long m = cs->engines;
	unsigned int c;

	lockdep_assert_held(&cs->gdev->dp->lock);
	for_each_set_bit(c, &m, GAUDI_NUM_ENGINE_CLASSES) {
		if (start) {
			if (!ctx->busy_inflight[c]++)
				ctx->busy_since[c] = now;
		} else if (!--ctx->busy_inflight[c]) {
			ctx->busy_ns[c] += ktime_to_ns(ktime_sub(now,
						ctx->busy_since[c]));
		}
	}
	if (!start)
		cs->engines = 0;
}

void gaudi_cs_busy_ns(struct gaudi_ctx *ctx,
		      u64 busy[GAUDI_NUM_ENGINE_CLASSES])
{
	struct gaudi_dp *dp = ctx->gdev->dp;
	ktime_t now = ktime_get();
	unsigned int c;

	spin_lock_irq(&dp->lock);
	for (c = 0; c < GAUDI_NUM_ENGINE_CLASSES; c++) {
		busy[c] = ctx->busy_ns[c];
		if (ctx->busy_inflight[c])
			busy[c] += ktime_to_ns(ktime_sub(now,
							 ctx->busy_since[c]));
	}
	spin_unlock_irq(&dp->lock);
}

u64 gaudi_cs_submitted(struct gaudi_ctx *ctx)
{
	struct gaudi_dp *dp = ctx->gdev->dp;
	u64 n;

	spin_lock_irq(&dp->lock);
	n = ctx->next_seq - 1;
	spin_unlock_irq(&dp->lock);
	return n;
}
