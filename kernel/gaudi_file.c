// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the users of the compute node.
 *
 * One process holds /dev/accel/accelN at a time, as with upstream.  Unlike
 * upstream, who holds it is never a mystery: a refused open names the
 * holder in the kernel log (once per holder and 10 s), and tools get the
 * holder through DRM_IOCTL_GAUDI_OWNER (on either node), the PCI device's
 * sysfs "owner" directory and fdinfo.  Release is synchronous: when close()
 * returns, the next open succeeds.
 */
#include <linux/eventfd.h>
#include <linux/kobject.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "gaudi_acct.h"
#include "gaudi_ctx.h"
#include "gaudi_dp_types.h"
#include "gaudi_eq.h"
#include "gaudi_file.h"
#include "gaudi_file_types.h"
#include "gaudi_hw.h"
#include "gaudi_info.h"
#include "gaudi_mem.h"
#include "gaudi_parser.h"
#include "gaudi_reset.h"
#include "gaudi_roce.h"
#include "gaudi_types.h"

#define GAUDI_BUSY_LOG_INTERVAL		(10 * HZ)
#define GAUDI_EVENT_UEVENT_GAP		(HZ / 10)

/* The events of a burst, announced to every user in one uevent. */
static void file_event_uevent(struct work_struct *work)
{
	struct gaudi_users *u = container_of(to_delayed_work(work),
					     struct gaudi_users, uevent_work);
	u64 ev = atomic64_xchg(&u->uevent_events, 0);
	char env[40];
	char *envp[2];

	if (!ev)
		return;
	envp[0] = env;
	envp[1] = NULL;
	WRITE_ONCE(u->uevent_last, jiffies);
	snprintf(env, sizeof(env), "GAUDI_EVENTS=0x%llx", ev);
	kobject_uevent_env(&u->gdev->pdev->dev.kobj, KOBJ_CHANGE, envp);
}

static void file_events_release(struct drm_device *drm, void *data)
{
	struct gaudi_users *u = data;

	gaudi_file_events_fini(u->gdev);
}

int gaudi_file_init(struct gaudi_device *gdev)
{
	struct gaudi_users *u;
	int ret;

	u = drmm_kzalloc(&gdev->drm, sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	u->gdev = gdev;
	ret = drmm_mutex_init(&gdev->drm, &u->lock);
	if (ret)
		return ret;
	spin_lock_init(&u->notify_lock);
	INIT_DELAYED_WORK(&u->uevent_work, file_event_uevent);
	u->ctrl_minor = -1;
	gdev->users = u;
	/* a probe that fails later: no uevent work outlives @u */
	ret = drmm_add_action(&gdev->drm, file_events_release, u);
	if (ret)
		return ret;
	return gaudi_acct_init(gdev);
}

/* A refused open: say who holds the node, once per holder and interval. */
static void file_log_busy(struct gaudi_users *u)
{
	struct gaudi_device *gdev = u->gdev;
	char comm[TASK_COMM_LEN];

	if (u->busy_logged_open == u->open_counter &&
	    time_before(jiffies, u->busy_logged + GAUDI_BUSY_LOG_INTERVAL))
		return;
	u->busy_logged = jiffies;
	u->busy_logged_open = u->open_counter;
	get_task_comm(comm, current->group_leader);
	gaudi_note(gdev, "accel%u busy: pid %d (%s) refused, held by pid %d (%s) for %lld ms\n",
		   gdev->index, task_tgid_nr(current), comm,
		   pid_nr(u->owner.pid), u->owner.comm,
		   ktime_ms_delta(ktime_get(), u->owner.open_mono));
}

/*
 * The calling process takes the compute node with @gfile (@drm: an open
 * of the compute node), or joins the holding its thread group has:
 * *@holder is the holding's file.  A process has at most one compute-node
 * handle.  An RDMA context (!@drm) only joins: the card is taken through
 * the compute node, whose permissions (the render group) say who may.
 */
static int file_take(struct gaudi_device *gdev, struct gaudi_file *gfile,
		     bool drm, struct gaudi_file **holder)
{
	struct gaudi_users *u = gdev->users;
	struct gaudi_file *h;
	enum gaudi_status st;
	int ret;

	mutex_lock(&u->lock);
	st = READ_ONCE(gdev->status);
	if (st == GAUDI_STATUS_IN_RESET) {
		gaudi_dbg(gdev, IOCTL, "open: device in reset\n");
		ret = -EAGAIN;
		goto err_unlock;
	}
	if (st != GAUDI_STATUS_OPERATIONAL &&
	    st != GAUDI_STATUS_IN_DEVICE_CREATION) {
		gaudi_dbg(gdev, IOCTL, "open: device is %s\n",
			  gaudi_status_str(st));
		ret = -EPERM;
		goto err_unlock;
	}
	h = u->compute;
	if (!h && !drm) {
		gaudi_dbg(gdev, IOCTL, "RDMA context: the process does not hold the card\n");
		ret = -EPERM;
		goto err_unlock;
	}
	if (h) {
		if (!h->ready || h->closing || (drm && h->drm_open) ||
		    u->owner.pid != task_tgid(current)) {
			file_log_busy(u);
			ret = -EBUSY;
			goto err_unlock;
		}
		/* Another handle of the process that holds the card. */
		h->handles++;
		if (drm)
			h->drm_open = true;
		mutex_unlock(&u->lock);
		gaudi_dbg(gdev, IOCTL, "%s joins the holding of pid %d\n",
			  drm ? "compute node" : "RDMA context",
			  pid_nr(u->owner.pid));
		*holder = h;
		return 0;
	}

	u->owner.pid = get_task_pid(current, PIDTYPE_TGID);
	u->owner.uid = current_uid();
	u->last_uid = u->owner.uid;
	get_task_comm(u->owner.comm, current->group_leader);
	u->owner.open_real_ns = ktime_get_real_ns();
	u->owner.open_mono = ktime_get();
	u->open_counter++;
	u->last_open = u->owner.open_mono;
	gfile->handles = 1;
	gfile->drm_open = drm;
	spin_lock_irq(&u->notify_lock);
	u->compute = gfile;
	spin_unlock_irq(&u->notify_lock);
	mutex_unlock(&u->lock);

	/* A new holder starts with a clean slate of captured errors. */
	gaudi_eq_clear_captures(gdev);
	gaudi_kcov_note_holder(gdev);
	ret = gaudi_ctx_open(gdev, gfile);
	if (ret) {
		mutex_lock(&u->lock);
		spin_lock_irq(&u->notify_lock);
		u->compute = NULL;
		spin_unlock_irq(&u->notify_lock);
		put_pid(u->owner.pid);
		memset(&u->owner, 0, sizeof(u->owner));
		mutex_unlock(&u->lock);
		return ret;
	}
	gaudi_acct_open(gdev, gfile);
	mutex_lock(&u->lock);
	gfile->ready = true;
	mutex_unlock(&u->lock);
	gaudi_dbg(gdev, IOCTL, "%s opened by pid %d (%s)\n",
		  drm ? "compute node" : "card (RDMA context)",
		  pid_nr(u->owner.pid), u->owner.comm);
	*holder = gfile;
	return 0;

err_unlock:
	mutex_unlock(&u->lock);
	return ret;
}

static struct gaudi_file *file_alloc(struct gaudi_device *gdev)
{
	struct gaudi_file *gfile = kzalloc(sizeof(*gfile), GFP_KERNEL);

	if (!gfile)
		return NULL;
	gfile->gdev = gdev;
	mutex_init(&gfile->info_lock);
	atomic64_set(&gfile->host_bytes, 0);
	return gfile;
}

/* Take the card for the calling process, or join its holding. */
static int file_hold(struct gaudi_device *gdev, bool drm,
		     struct gaudi_file **holder)
{
	struct gaudi_file *gfile = file_alloc(gdev);
	int ret;

	if (!gfile)
		return -ENOMEM;
	ret = file_take(gdev, gfile, drm, holder);
	if (ret || *holder != gfile)
		kfree(gfile);
	return ret;
}

/*
 * Drop one handle of the holding @gfile (@drm: the compute node's); the
 * last one ends it.
 */
static void file_put(struct gaudi_device *gdev, struct gaudi_file *gfile,
		     bool drm)
{
	struct gaudi_users *u = gdev->users;
	struct eventfd_ctx *ctx;
	struct pid *pid = NULL;
	bool last;

	mutex_lock(&u->lock);
	if (drm)
		gfile->drm_open = false;
	last = !--gfile->handles;
	if (last)
		gfile->closing = true;
	mutex_unlock(&u->lock);
	if (!last)
		return;

	/*
	 * Work in flight ends (or is reset away), CBs and mappings go,
	 * unless a removal of the card already took them.
	 */
	gaudi_roce_close(gdev, gfile);
	gaudi_ctx_close(gfile);
	/* Its work has ended: the accounting record is final. */
	gaudi_acct_close(gdev, gfile);

	/*
	 * Everything the holding owns is torn down before the node is
	 * marked free, all within close(): a following open never sees a
	 * half released holder.
	 */
	mutex_lock(&u->lock);
	spin_lock_irq(&u->notify_lock);
	ctx = gfile->eventfd;
	gfile->eventfd = NULL;
	if (u->compute == gfile) {
		u->compute = NULL;
		pid = u->owner.pid;
		u->last_open_period_ms =
			ktime_ms_delta(ktime_get(), u->owner.open_mono);
		memset(&u->owner, 0, sizeof(u->owner));
	}
	spin_unlock_irq(&u->notify_lock);
	mutex_unlock(&u->lock);

	/* No longer the holder: a removal does not look at it any more. */
	gaudi_ctx_free(gfile);
	gaudi_dbg(gdev, IOCTL, "compute node released (held %llu ms)\n",
		  u->last_open_period_ms);
	put_pid(pid);
	if (ctx)
		eventfd_ctx_put(ctx);
	kfree(gfile);
}

int gaudi_file_open(struct drm_device *drm, struct drm_file *file)
{
	struct gaudi_device *gdev = to_gaudi(drm);
	struct gaudi_file *gfile;
	int idx, ret;

	/* The removal waits for an open in progress, then revokes it. */
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = file_hold(gdev, true, &gfile);
	drm_dev_exit(idx);
	if (!ret)
		file->driver_priv = gfile;
	return ret;
}

void gaudi_file_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct gaudi_file *gfile = file->driver_priv;

	if (!gfile)
		return;
	file->driver_priv = NULL;
	file_put(to_gaudi(drm), gfile, true);
}

int gaudi_file_hold(struct gaudi_device *gdev, struct gaudi_file **holder)
{
	int idx, ret;

	if (!drm_dev_enter(&gdev->drm, &idx))
		return -ENODEV;
	ret = file_hold(gdev, false, holder);
	drm_dev_exit(idx);
	return ret;
}

void gaudi_file_unhold(struct gaudi_device *gdev, struct gaudi_file *holder)
{
	file_put(gdev, holder, false);
}

/*
 * The card is being removed (after drm_dev_unplug(): no ioctl, mmap or
 * open of the compute node runs): the holder, if any, loses its work and
 * its memory now, while the device is still bound.  Its file stays open;
 * close() later frees what is left.  u->lock keeps the holder from
 * finishing its close under us (gaudi_file_postclose()).
 */
void gaudi_file_revoke(struct gaudi_device *gdev)
{
	struct gaudi_users *u = gdev->users;

	/* The NIC stops reaching the holder's memory first. */
	gaudi_roce_revoke(gdev);
	mutex_lock(&u->lock);
	if (u->compute && u->compute->ctx) {
		gaudi_note(gdev, "removed while held by pid %d (%s): its work is aborted\n",
			   pid_nr(u->owner.pid), u->owner.comm);
		gaudi_ctx_revoke(u->compute->ctx);
	}
	mutex_unlock(&u->lock);
}

void gaudi_file_notify(struct gaudi_device *gdev, u64 events)
{
	struct gaudi_users *u = gdev->users;
	struct gaudi_file *gfile;
	unsigned long flags;

	if (!events)
		return;
	spin_lock_irqsave(&u->notify_lock, flags);
	gfile = u->compute;
	if (gfile) {
		gfile->events |= events;
		if (gfile->eventfd)
			eventfd_signal(gfile->eventfd);
	}
	if (!u->uevent_off) {
		unsigned long next = READ_ONCE(u->uevent_last) +
				     GAUDI_EVENT_UEVENT_GAP;

		atomic64_or(events, &u->uevent_events);
		/* a pending one carries these bits too */
		queue_delayed_work(system_wq, &u->uevent_work,
				   time_after(next, jiffies) ? next - jiffies : 0);
	}
	spin_unlock_irqrestore(&u->notify_lock, flags);
}

void gaudi_file_events_fini(struct gaudi_device *gdev)
{
	struct gaudi_users *u = gdev->users;

	spin_lock_irq(&u->notify_lock);
	u->uevent_off = true;
	spin_unlock_irq(&u->notify_lock);
	cancel_delayed_work_sync(&u->uevent_work);
}

void gaudi_file_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct gaudi_device *gdev = to_gaudi(file->minor->dev);
	struct gaudi_users *u = gdev->users;
	struct gaudi_file *gfile = file->driver_priv;
	struct drm_memory_stats stats = {};

	if (!gfile)
		return;
	stats.private = atomic64_read(&gfile->host_bytes);
	stats.resident = stats.private;
	drm_print_memory_stats(p, &stats, DRM_GEM_OBJECT_RESIDENT, "host");
	/* HBM allocated with HL_MEM_OP_ALLOC (extension), always resident. */
	stats.private = gaudi_mem_ctx_dram_bytes(gfile);
	stats.resident = stats.private;
	drm_print_memory_stats(p, &stats, DRM_GEM_OBJECT_RESIDENT, "vram");
	/*
	 * Engine time per class, each class shown as one engine (no
	 * capacity key): busy while any engine of it runs this client's work
	 * (accel/gaudi.rst, "Accounting").
	 */
	if (gfile->ctx) {
		static const char * const cls[GAUDI_NUM_ENGINE_CLASSES] = {
			[GAUDI_ENGINE_DMA] = "dma",
			[GAUDI_ENGINE_MME] = "mme",
			[GAUDI_ENGINE_TPC] = "tpc",
			[GAUDI_ENGINE_NIC] = "nic",
		};
		u64 busy[GAUDI_NUM_ENGINE_CLASSES];
		unsigned int c;

		gaudi_cs_busy_ns(gfile->ctx, busy);
		for (c = 0; c < GAUDI_NUM_ENGINE_CLASSES; c++)
			drm_printf(p, "drm-engine-%s:\t%llu ns\n", cls[c],
				   busy[c]);
	}

	drm_printf(p, "gaudi-node:\tcompute\n");
	mutex_lock(&u->lock);
	if (u->compute == gfile) {
		drm_printf(p, "gaudi-owner-pid:\t%d\n", pid_vnr(u->owner.pid));
		drm_printf(p, "gaudi-owner-comm:\t%s\n", u->owner.comm);
		drm_printf(p, "gaudi-open-time-ns:\t%llu\n",
			   u->owner.open_real_ns);
	}
	mutex_unlock(&u->lock);
}

/* ---- extension ioctls (both nodes) --------------------------------------- */

int gaudi_file_query_caps(struct gaudi_device *gdev, bool control,
			  void *data)
{
	struct drm_gaudi_query_caps *q = data;

	if (q->flags || q->pad || memchr_inv(q->reserved, 0,
					     sizeof(q->reserved))) {
		gaudi_dbg(gdev, IOCTL, "QUERY_CAPS: reserved bits set\n");
		return -EINVAL;
	}
	q->abi_major = GAUDI_ABI_VERSION_MAJOR;
	q->abi_minor = GAUDI_ABI_VERSION_MINOR;
	q->caps = GAUDI_CAP_OWNER | GAUDI_CAP_SYNC_RELEASE |
		  GAUDI_CAP_OPEN_BUSY_OWNER | GAUDI_CAP_FLASH |
		  GAUDI_CAP_ACCOUNTING | GAUDI_CAP_NIC | GAUDI_CAP_NIC_MR;
	q->info_ops = gaudi_info_ops_mask(control);
	return 0;
}

int gaudi_file_owner(struct gaudi_device *gdev, void *data)
{
	struct gaudi_users *u = gdev->users;
	struct drm_gaudi_owner *o = data;

	if (o->flags || memchr_inv(o->reserved, 0, sizeof(o->reserved))) {
		gaudi_dbg(gdev, IOCTL, "OWNER: reserved bits set\n");
		return -EINVAL;
	}
	memset(o, 0, sizeof(*o));

	mutex_lock(&u->lock);
	if (u->compute) {
		o->state = GAUDI_OWNER_HELD;
		o->pid = pid_vnr(u->owner.pid);
		o->uid = from_kuid_munged(current_user_ns(), u->owner.uid);
		strscpy(o->comm, u->owner.comm, sizeof(o->comm));
		o->open_time_ns = u->owner.open_real_ns;
		o->held_ns = ktime_to_ns(ktime_sub(ktime_get(),
						   u->owner.open_mono));
	}
	o->open_counter = u->open_counter;
	mutex_unlock(&u->lock);
	return 0;
}

/* ---- sysfs: <pci device>/owner/{pid,comm,open_time} ------------------------ */

/* The group exists from probe (gaudi_ctrl_init()) to the device's unbind. */
static struct gaudi_users *dev_users(struct device *dev)
{
	struct gaudi_device *gdev = dev_get_drvdata(dev);

	return gdev->users;
}

static ssize_t owner_pid_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct gaudi_users *u = dev_users(dev);
	pid_t pid = 0;

	mutex_lock(&u->lock);
	if (u->compute)
		pid = pid_vnr(u->owner.pid);
	mutex_unlock(&u->lock);
	return sysfs_emit(buf, "%d\n", pid);
}

static ssize_t owner_comm_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct gaudi_users *u = dev_users(dev);
	ssize_t len;

	mutex_lock(&u->lock);
	len = sysfs_emit(buf, "%s\n", u->compute ? u->owner.comm : "");
	mutex_unlock(&u->lock);
	return len;
}

static ssize_t owner_open_time_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct gaudi_users *u = dev_users(dev);
	u64 ns = 0, sec;
	u32 rem;

	mutex_lock(&u->lock);
	if (u->compute)
		ns = u->owner.open_real_ns;
	mutex_unlock(&u->lock);
	sec = div_u64_rem(ns, NSEC_PER_SEC, &rem);
	return sysfs_emit(buf, "%llu.%09u\n", sec, rem);
}

static struct device_attribute dev_attr_owner_pid =
	__ATTR(pid, 0444, owner_pid_show, NULL);
static struct device_attribute dev_attr_owner_comm =
	__ATTR(comm, 0444, owner_comm_show, NULL);
static struct device_attribute dev_attr_owner_open_time =
	__ATTR(open_time, 0444, owner_open_time_show, NULL);

static struct attribute *gaudi_owner_attrs[] = {
	&dev_attr_owner_pid.attr,
	&dev_attr_owner_comm.attr,
	&dev_attr_owner_open_time.attr,
	NULL,
};

const struct attribute_group gaudi_owner_attr_group = {
	.name = "owner",
	.attrs = gaudi_owner_attrs,
};
