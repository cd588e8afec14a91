// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi: typed wrappers of DRM_IOCTL_HL_INFO and the event notifier.
 */
#include <errno.h>
#include <string.h>

#include <drm/gaudi_accel.h>

#include "gaudi_int.h"

_Static_assert(GAUDI_CAPS_OWNER == GAUDI_CAP_OWNER, "caps bit");
_Static_assert(GAUDI_CAPS_SYNC_RELEASE == GAUDI_CAP_SYNC_RELEASE, "caps bit");
_Static_assert(GAUDI_CAPS_OPEN_BUSY_OWNER == GAUDI_CAP_OPEN_BUSY_OWNER,
	       "caps bit");
_Static_assert(GAUDI_CAPS_FLASH == GAUDI_CAP_FLASH, "caps bit");
_Static_assert(GAUDI_CAPS_ACCOUNTING == GAUDI_CAP_ACCOUNTING, "caps bit");
_Static_assert(GAUDI_OWNER_STATE_HELD == GAUDI_OWNER_HELD, "owner state");
_Static_assert(GAUDI_ACCT_F_RUNNING == GAUDI_ACCT_RUNNING &&
	       GAUDI_ACCT_F_ENERGY == GAUDI_ACCT_ENERGY &&
	       GAUDI_ACCT_F_RESET == GAUDI_ACCT_RESET, "accounting flags");
_Static_assert(GAUDI_CLASS_DMA == GAUDI_ENGINE_CLASS_DMA &&
	       GAUDI_CLASS_MME == GAUDI_ENGINE_CLASS_MME &&
	       GAUDI_CLASS_TPC == GAUDI_ENGINE_CLASS_TPC &&
	       GAUDI_CLASS_NIC == GAUDI_ENGINE_CLASS_NIC &&
	       GAUDI_CLASS_NUM <= GAUDI_ENGINE_CLASS_SLOTS, "engine classes");

static int info(struct gaudi_dev *dev, uint32_t op, uint32_t arg, void *buf,
		uint32_t size, struct hl_info_args *out)
{
	struct hl_info_args a;
	int ret;

	if (!dev)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.return_pointer = (uintptr_t)buf;
	a.return_size = size;
	a.op = op;
	a.dcore_id = arg;	/* the union's one argument word */
	ret = dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_HL_INFO, &a);
	if (!ret && out)
		*out = a;
	return ret;
}

/* The largest answer a typed wrapper reads. */
#define TYPED_MAX	512
_Static_assert(sizeof(struct hl_info_hw_ip_info) <= TYPED_MAX, "TYPED_MAX");

/* A typed op through a temporary: @out is written only on success. */
static int info_typed(struct gaudi_dev *dev, uint32_t op, uint32_t arg,
		      void *out, size_t size)
{
	uint64_t tmp[TYPED_MAX / 8];
	int ret;

	if (!out || size > sizeof(tmp))
		return -EINVAL;
	memset(tmp, 0, size);
	ret = info(dev, op, arg, tmp, (uint32_t)size, NULL);
	if (!ret)
		memcpy(out, tmp, size);
	return ret;
}

#define INFO_TYPED(dev, op, arg, type, out)				\
	info_typed(dev, op, arg, out, sizeof(type))

GAUDI_EXPORT int gaudi_info(struct gaudi_dev *dev, uint32_t op, uint32_t arg,
			    void *buf, uint32_t size)
{
	return info(dev, op, arg, buf, size, NULL);
}

GAUDI_EXPORT int gaudi_info_hw_ip(struct gaudi_dev *dev,
				  struct hl_info_hw_ip_info *out)
{
	return INFO_TYPED(dev, HL_INFO_HW_IP_INFO, 0,
			  struct hl_info_hw_ip_info, out);
}

GAUDI_EXPORT int gaudi_info_device_status(struct gaudi_dev *dev,
					  uint32_t *status)
{
	struct hl_info_device_status st;
	int ret;

	if (!status)
		return -EINVAL;
	ret = INFO_TYPED(dev, HL_INFO_DEVICE_STATUS, 0,
			 struct hl_info_device_status, &st);
	if (!ret)
		*status = st.status;
	return ret;
}

GAUDI_EXPORT int gaudi_info_dram_usage(struct gaudi_dev *dev,
				       struct hl_info_dram_usage *out)
{
	return INFO_TYPED(dev, HL_INFO_DRAM_USAGE, 0,
			  struct hl_info_dram_usage, out);
}

GAUDI_EXPORT int gaudi_info_hw_idle(struct gaudi_dev *dev,
				    struct hl_info_hw_idle *out)
{
	return INFO_TYPED(dev, HL_INFO_HW_IDLE, 0, struct hl_info_hw_idle, out);
}

GAUDI_EXPORT int gaudi_info_utilization(struct gaudi_dev *dev,
					uint32_t period_ms, uint32_t *percent)
{
	struct hl_info_device_utilization u;
	int ret;

	if (!percent)
		return -EINVAL;
	ret = INFO_TYPED(dev, HL_INFO_DEVICE_UTILIZATION, period_ms,
			 struct hl_info_device_utilization, &u);
	if (!ret)
		*percent = u.utilization;
	return ret;
}

GAUDI_EXPORT int gaudi_info_clk_rate(struct gaudi_dev *dev, uint32_t *cur_mhz,
				     uint32_t *max_mhz)
{
	struct hl_info_clk_rate c;
	int ret;

	ret = INFO_TYPED(dev, HL_INFO_CLK_RATE, 0, struct hl_info_clk_rate,
			 &c);
	if (ret)
		return ret;
	if (cur_mhz)
		*cur_mhz = c.cur_clk_rate_mhz;
	if (max_mhz)
		*max_mhz = c.max_clk_rate_mhz;
	return 0;
}

GAUDI_EXPORT int gaudi_info_energy(struct gaudi_dev *dev, uint64_t *energy)
{
	struct hl_info_energy e;
	int ret;

	if (!energy)
		return -EINVAL;
	ret = INFO_TYPED(dev, HL_INFO_TOTAL_ENERGY, 0, struct hl_info_energy,
			 &e);
	if (!ret)
		*energy = e.total_energy_consumption;
	return ret;
}

GAUDI_EXPORT int gaudi_info_power(struct gaudi_dev *dev, uint64_t *power)
{
	struct hl_power_info p;
	int ret;

	if (!power)
		return -EINVAL;
	ret = INFO_TYPED(dev, HL_INFO_POWER, 0, struct hl_power_info, &p);
	if (!ret)
		*power = p.power;
	return ret;
}

GAUDI_EXPORT int gaudi_info_pci_counters(struct gaudi_dev *dev,
					 struct hl_info_pci_counters *out)
{
	return INFO_TYPED(dev, HL_INFO_PCI_COUNTERS, 0,
			  struct hl_info_pci_counters, out);
}

GAUDI_EXPORT int gaudi_info_reset_count(struct gaudi_dev *dev, uint32_t *hard,
					uint32_t *soft)
{
	struct hl_info_reset_count r;
	int ret;

	ret = INFO_TYPED(dev, HL_INFO_RESET_COUNT, 0,
			 struct hl_info_reset_count, &r);
	if (ret)
		return ret;
	if (hard)
		*hard = r.hard_reset_cnt;
	if (soft)
		*soft = r.soft_reset_cnt;
	return 0;
}

GAUDI_EXPORT int gaudi_info_open_stats(struct gaudi_dev *dev,
				       struct hl_open_stats_info *out)
{
	return INFO_TYPED(dev, HL_INFO_OPEN_STATS, 0,
			  struct hl_open_stats_info, out);
}

GAUDI_EXPORT int gaudi_info_time_sync(struct gaudi_dev *dev,
				      struct hl_info_time_sync *out)
{
	return INFO_TYPED(dev, HL_INFO_TIME_SYNC, 0, struct hl_info_time_sync,
			  out);
}

GAUDI_EXPORT int gaudi_info_cs_counters(struct gaudi_dev *dev,
					struct hl_info_cs_counters *out)
{
	return INFO_TYPED(dev, HL_INFO_CS_COUNTERS, 0,
			  struct hl_info_cs_counters, out);
}

GAUDI_EXPORT int gaudi_info_hw_events(struct gaudi_dev *dev, bool aggregate,
				      uint32_t *counts, uint32_t n)
{
	if (!counts || !n || n > UINT32_MAX / sizeof(*counts))
		return -EINVAL;
	return info(dev, aggregate ? HL_INFO_HW_EVENTS_AGGREGATE :
				     HL_INFO_HW_EVENTS,
		    0, counts, n * sizeof(*counts), NULL);
}

/* ---- events ------------------------------------------------------------- */

GAUDI_EXPORT int gaudi_events_register(struct gaudi_dev *dev, int efd)
{
	if (efd < 0)
		return -EBADF;
	return info(dev, HL_INFO_REGISTER_EVENTFD, (uint32_t)efd, NULL, 0,
		    NULL);
}

GAUDI_EXPORT int gaudi_events_unregister(struct gaudi_dev *dev)
{
	return info(dev, HL_INFO_UNREGISTER_EVENTFD, 0, NULL, 0, NULL);
}

GAUDI_EXPORT int gaudi_events_get(struct gaudi_dev *dev, uint64_t *events)
{
	uint64_t ev = 0;
	int ret;

	if (!events)
		return -EINVAL;
	ret = info(dev, HL_INFO_GET_EVENTS, 0, &ev, sizeof(ev), NULL);
	if (!ret)
		*events = ev;
	return ret;
}
