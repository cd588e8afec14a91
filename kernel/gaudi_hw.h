/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: register access, the brackets of every user of the
 * hardware, the device status (gaudi_hw.c).
 */
#ifndef GAUDI_HW_H
#define GAUDI_HW_H

#include <linux/cleanup.h>
#include <linux/io.h>
#include <linux/iopoll.h>

#include "gaudi_types.h"

/* ---- register access (CFG offsets, see gaudi1/regs.h) --------------- */
u32 gaudi_rreg(struct gaudi_device *gdev, u32 reg, const char *name);
void gaudi_wreg(struct gaudi_device *gdev, u32 reg, u32 val, const char *name);

/*
 * RREG32(gdev, mmFOO) / WREG32(gdev, mmFOO, v): each access is the
 * tracepoint gaudi:gaudi_reg_read / gaudi_reg_write (gaudi_trace.h).
 */
#define RREG32(gdev, reg) gaudi_rreg(gdev, reg, #reg)
#define WREG32(gdev, reg, val) gaudi_wreg(gdev, reg, val, #reg)

/* Poll a register until @cond (on @val) holds; 0 or -ETIMEDOUT. */
#define gaudi_poll_reg(gdev, reg, val, cond, sleep_us, timeout_us)           \
	read_poll_timeout(readl, val, cond, sleep_us, timeout_us, false,     \
			  (gdev)->pci.cfg + (reg))

/*
 * Bracket every path that touches the hardware on behalf of a user
 * (ioctl, sysfs, hwmon, debugfs):
 *
 *	ret = gaudi_hw_enter(gdev, &idx);
 *	if (ret)
 *		return ret;
 *	...
 *	gaudi_hw_exit(gdev, idx);
 *
 * Fails with -ENODEV once the device is unplugged and -EIO while it is not
 * operational (in reset, malfunction); waits for a reset that holds the
 * lock, -EINTR if the task is killed meanwhile.  Holds off a reset until
 * exit.
 */
int gaudi_hw_enter(struct gaudi_device *gdev, int *idx);
void gaudi_hw_exit(struct gaudi_device *gdev, int idx);

/*
 * The driver's own use of the hardware in a path that keeps the device
 * present by itself: open (inside drm_dev_enter()), the holder's context
 * torn down at close or at removal (both before gaudi_remove() returns).
 * Holds off a reset like gaudi_hw_enter(); -EIO while not operational.
 */
int gaudi_hw_hold(struct gaudi_device *gdev);
void gaudi_hw_release(struct gaudi_device *gdev);

/*
 * Scoped forms of the brackets above (gaudi_hw.c), whose exit runs when
 * the variable goes out of scope, so that no return path can forget it:
 *
 *	CLASS(gaudi_hw, hw)(gdev);
 *
 *	if (hw.ret)
 *		return hw.ret;
 *	...				(gaudi_hw_exit() at the closing brace)
 *
 * and likewise CLASS(gaudi_hw_hold, hold)(gdev) for gaudi_hw_hold().
 */
struct gaudi_hw_scope {
	struct gaudi_device *gdev;
	int idx;
	int ret;		/* of the enter; nothing to exit unless 0 */
};

static inline struct gaudi_hw_scope gaudi_hw_scope_enter(struct gaudi_device *gdev)
{
	struct gaudi_hw_scope s = { .gdev = gdev };

	s.ret = gaudi_hw_enter(gdev, &s.idx);
	return s;
}

static inline struct gaudi_hw_scope gaudi_hw_scope_hold(struct gaudi_device *gdev)
{
	struct gaudi_hw_scope s = { .gdev = gdev };

	s.ret = gaudi_hw_hold(gdev);
	return s;
}

static inline void gaudi_hw_scope_exit(const struct gaudi_hw_scope *s)
{
	if (!s->ret)
		gaudi_hw_exit(s->gdev, s->idx);
}

static inline void gaudi_hw_scope_release(const struct gaudi_hw_scope *s)
{
	if (!s->ret)
		gaudi_hw_release(s->gdev);
}

DEFINE_CLASS(gaudi_hw, struct gaudi_hw_scope, gaudi_hw_scope_exit(&_T),
	     gaudi_hw_scope_enter(gdev), struct gaudi_device *gdev)
DEFINE_CLASS(gaudi_hw_hold, struct gaudi_hw_scope, gaudi_hw_scope_release(&_T),
	     gaudi_hw_scope_hold(gdev), struct gaudi_device *gdev)

const char *gaudi_status_str(enum gaudi_status status);

#endif /* GAUDI_HW_H */
