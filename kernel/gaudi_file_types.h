/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: users of the device nodes (gaudi_file.c, gaudi_ctrl.c,
 * gaudi_acct.c): their types.
 *
 * The compute node /dev/accel/accelN is held by one process at a time; the
 * control node /dev/accel/accel_controlDN by any number of monitors.  Each
 * open file of either node is a struct gaudi_file; the per-device state is
 * struct gaudi_users (gdev->users), created at the start of probe.
 */
#ifndef GAUDI_FILE_TYPES_H
#define GAUDI_FILE_TYPES_H

#include <linux/cred.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct cdev;
struct cgroup;
struct device;
struct eventfd_ctx;
struct gaudi_acct_entry;
struct gaudi_ctx;
struct gaudi_device;
struct pid;

/*
 * One open file of the control node, or the holding of the compute node:
 * the holder's file, shared by its handles (the compute node's open file
 * and the RDMA driver's user contexts of the same process, gaudi_cn.h).
 */
struct gaudi_file {
	struct gaudi_device *gdev;
	bool control;			/* opened on the control node */
	/* The holding's handles (users->lock). */
	unsigned int handles;
	bool drm_open;			/* one is the compute node's */
	bool ready;			/* its context is made */
	bool closing;			/* the last handle went */
	/* HL_NOTIFIER_EVENT_* not yet read (users->notify_lock) */
	u64 events;
	struct eventfd_ctx *eventfd;	/* users->notify_lock */
	/* fdinfo drm-total-host: memory this file pins or allocates */
	atomic64_t host_bytes;
	atomic64_t host_peak;		/* the most @host_bytes ever was */
	struct gaudi_ctx *ctx;		/* CBs, CSs, mappings (gaudi_dp_types.h) */
	/* One device-CPU INFO request of this file at a time. */
	struct mutex info_lock;
};

/* Who opened the compute node. */
struct gaudi_owner_info {
	struct pid *pid;		/* thread group of the opener */
	kuid_t uid;
	char comm[TASK_COMM_LEN];	/* of the process, at open */
	u64 open_real_ns;		/* CLOCK_REALTIME at open */
	ktime_t open_mono;		/* ktime_get() at open */
};

/* The holder's accounting state while it holds the node (u->lock). */
struct gaudi_acct_live {
	bool ready;			/* context made, samples taken */
	bool energy_ok;			/* @energy_start was read */
	u64 energy_start;		/* the card's counter at open, uJ */
	u32 resets_start;		/* hard + soft resets at open */
	struct cgroup *cgrp;		/* the opener's cgroup, a reference */
};

/* Per device (gdev->users). */
struct gaudi_users {
	struct gaudi_device *gdev;
	struct mutex lock;		/* open/close of the compute node */
	spinlock_t notify_lock;		/* @compute, file events and eventfd */
	struct gaudi_file *compute;	/* holder of the compute node */
	struct gaudi_owner_info owner;	/* valid while @compute is set */

	u64 open_counter;		/* successful compute opens */
	kuid_t last_uid;		/* of the last holder (lock) */
	u64 last_open_period_ms;	/* how long the last holder held it */
	ktime_t last_open;		/* ktime_get() of the last open */
	unsigned long busy_logged;	/* jiffies of the last EBUSY line */
	u64 busy_logged_open;		/* open_counter of the holder named */

	/* control node (gaudi_ctrl.c) */
	struct cdev *ctrl_cdev;
	struct device *ctrl_dev;
	int ctrl_minor;

	/* accounting (gaudi_acct.c), u->lock */
	struct gaudi_acct_live acct;
	struct gaudi_acct_entry *kept;	/* ring of exited holders */
	unsigned int kept_max, kept_n, kept_next;

	/*
	 * Event uevents (gaudi_file_notify()): HL_NOTIFIER_EVENT_* not yet
	 * announced, coalesced into one KOBJ_CHANGE uevent at most every
	 * GAUDI_EVENT_UEVENT_GAP; @uevent_off (notify_lock) once the card goes.
	 */
	atomic64_t uevent_events;
	struct delayed_work uevent_work;
	unsigned long uevent_last;	/* jiffies of the last one */
	bool uevent_off;

	/* INFO caches (gaudi_info.c) */
	bool pll_regs_read;
	u32 pll_nr, pll_nf, pll_od, pll_div;
};

#endif /* GAUDI_FILE_TYPES_H */
