/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the device (struct gaudi_device), the parts of it the
 * device-level files keep, and the driver's log macros.
 *
 * One struct gaudi_device per PCI function, embedding its drm_device.  Each
 * concern lives in its own file, whose functions its own header declares
 * (gaudi_pci.c: gaudi_pci.h, and so on); the types they share are here:
 *   gaudi_drv.c     module, PCI driver, probe/remove chain, DRM driver, open
 *   gaudi_hw.c      register access, the hardware users' brackets, status
 *   gaudi_pci.c     PCI set-up, BARs, ELBI, MSI
 *   gaudi_fw.c      boot status decode and the static firmware load
 *   gaudi_cpucp.c   device-CPU queues, CPU-CP requests, heartbeat
 *   gaudi_eq.c      interrupt handler, event queue, event counters
 *   gaudi_reset.c   hard reset and recovery
 *   gaudi_info.c    the INFO ioctl (compute and control node)
 *   gaudi_ctrl.c    the control node /dev/accel/accel_controlDN
 *   gaudi_sysfs.c   sysfs attributes; gaudi_hwmon.c hwmon; gaudi_debugfs.c
 *   gaudi_nic.c     the NIC ports (gaudi_roce.c their RoCE connections)
 * The data plane's types are in gaudi_dp_types.h, the node users' in
 * gaudi_file_types.h (the rule: Documentation/architecture.rst, "Inside
 * gaudi.ko").
 *
 * Locking order: reset.rwsem (read: a hardware user, write: the reset) ->
 * state_lock -> cpucp.lock -> eq.lock.
 */
#ifndef GAUDI_TYPES_H
#define GAUDI_TYPES_H

#include <linux/bitmap.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/ratelimit.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <drm/drm_device.h>
#include <drm/drm_print.h>
#include <drm/habanalabs_accel.h>

#include "gaudi1/boot.h"
#include "gaudi1/events.h"
#include "gaudi1/nic.h"
#include "../uapi/drm/gaudi_accel.h"

#define GAUDI_DRV_NAME "gaudi"

/*
 * Debug messages, off unless enabled through dynamic debug; each starts
 * with its area (PROBE, FW, CPUCP, EQ, IOCTL, RESET, CS, MMU), which a
 * format match selects, e.g. the CS messages of every card:
 *
 *	echo "module gaudi format '[CS]' +p" > \
 *		/sys/kernel/debug/dynamic_debug/control
 *
 * (or gaudi.dyndbg="format '[CS]' +p" at load).  Not drm_dbg_driver():
 * Debian's kernel builds DRM without DRM_USE_DYNAMIC_DEBUG, where
 * drm.debug would turn every DRM driver's messages on at once.
 */
#define gaudi_dbg(gdev, cat, fmt, ...)                                       \
	dev_dbg((gdev)->drm.dev, "[" #cat "] " fmt, ##__VA_ARGS__)

#define gaudi_err(gdev, fmt, ...) drm_err(&(gdev)->drm, fmt, ##__VA_ARGS__)
#define gaudi_warn(gdev, fmt, ...) drm_warn(&(gdev)->drm, fmt, ##__VA_ARGS__)
/* (gaudi_info() is the INFO ioctl in gaudi_info.c, hence gaudi_note.) */
#define gaudi_note(gdev, fmt, ...) drm_info(&(gdev)->drm, fmt, ##__VA_ARGS__)
/* Errors a user can cause: rate limited, never a flood. */
#define gaudi_user_err(gdev, fmt, ...)                                       \
	drm_err_ratelimited(&(gdev)->drm, fmt, ##__VA_ARGS__)

/* Same values as upstream's enum hl_device_status (INFO DEVICE_STATUS). */
enum gaudi_status {
	GAUDI_STATUS_OPERATIONAL = 0,
	GAUDI_STATUS_IN_RESET = 1,
	GAUDI_STATUS_MALFUNCTION = 2,
	GAUDI_STATUS_NEEDS_RESET = 3,
	GAUDI_STATUS_IN_DEVICE_CREATION = 4,
};

struct cpucp_info;
struct gen_pool;
struct gaudi_cn;
struct gaudi_cn_client;
struct gaudi_cn_rdma;
struct gaudi_dp;
struct gaudi_file;
struct gaudi_hwmon;
struct gaudi_roce_mr;
struct gaudi_roce_vext;
struct gaudi_users;

/* ---- gaudi_pci.c ---------------------------------------------------- */
struct gaudi_pci {
	void __iomem *sram;	/* BAR0: SRAM window */
	void __iomem *cfg;	/* BAR2 + 64 MiB: CFG registers */
	void __iomem *flash;	/* BAR2 lower half: SPI flash window */
	void __iomem *hbm;	/* BAR4: HBM window, write-combined */
	resource_size_t hbm_bar_size;
	int irq;
	u32 dev_sts0_elbi;	/* DEV_STS0 as read through ELBI at probe */
};

/* ---- gaudi_fw.c ------------------------------------------------------ */
struct gaudi_fw {
	u32 dev_sts0, dev_sts1;	/* firmware capabilities */
	u32 boot_status;	/* CPU_BOOT_STATUS at the end of the boot */
	u32 boot_err0, boot_err1;
	char preboot_ver[GAUDI_FW_VER_LEN];
	char uboot_ver[GAUDI_FW_VER_LEN];
	const struct firmware *tpc;	/* gaudi_tpc.bin, kept while bound */
	bool security_enabled;
};

/* ---- gaudi_cpucp.c ---------------------------------------------------- */
/* Entries of the event queue ring (gaudi_cpucp.c allocates, gaudi_eq.c reads). */
#define GAUDI_EQ_ENTRIES	64

struct gaudi_cpucp {
	struct mutex lock;		/* one request at a time */
	bool ready;			/* queues up, device CPU answers */
	/* A request timed out: no more until the next reset. */
	bool lost;
	/* INFO_GET answer at init (<linux/habanalabs/cpucp_if.h>). */
	struct cpucp_info *info;

	void *mem;			/* CPU-accessible memory */
	dma_addr_t mem_dma;
	u64 mem_cpu_addr;		/* as the device CPU sees it */
	u32 msb;			/* bits 49:39, CPU_IF_CPU_MSB_ADDR */
	struct gen_pool *pool;

	void *pq;			/* device-CPU PQ (from the pool) */
	u32 pq_pi;
	void *eq;			/* event queue ring (from the pool) */
	/*
	 * The channel's one packet (cp->lock), allocated with the queues so
	 * that a request never waits for pool memory users may hold: the
	 * heartbeat cannot fail for want of it.  A packet the device did
	 * not answer stays its own until the reset that follows.
	 */
	void *pkt;
	u64 pkt_addr;

	/* Power cap in mW given to the firmware (sysfs max_power). */
	u64 max_power_mw;

	struct delayed_work heartbeat;
	u32 hb_seq;
	u64 packets;			/* requests sent */
	u64 errors;			/* requests failed */
};

/* ---- gaudi_eq.c -------------------------------------------------------- */
/* Event ids: gaudi1/events.h (upstream's gaudi_async_event_id values). */

/* Last-error captures for the INFO ioctl (first one since last clear). */
struct gaudi_captures {
	bool razwi_valid;
	struct hl_info_razwi_event razwi;
	bool page_fault_valid;
	struct hl_page_fault_info page_fault;
	bool undef_opcode_valid;
	struct hl_info_undefined_opcode_event undef_opcode;
	bool hw_err_valid;
	struct hl_info_hw_err_event hw_err;
	bool fw_err_valid;
	struct hl_info_fw_err_event fw_err;
	bool engine_err_valid;
	struct hl_info_engine_err_event engine_err;
};

struct gaudi_eq {
	spinlock_t lock;		/* counters and captures */
	u32 ci;				/* next entry to read */
	bool enabled;			/* IRQ handler may touch the ring */
	u32 counters[GAUDI_EVENT_SIZE];	/* since the last reset */
	u32 counters_aggr[GAUDI_EVENT_SIZE];	/* since load */
	u64 total;
	u32 clk_throttle;		/* HL_CLK_THROTTLE_* bits now */
	u32 clk_throttle_ever;
	u64 notifier_events;		/* HL_NOTIFIER_EVENT_* pending */
	struct gaudi_captures cap;
};

/* ---- gaudi_reset.c ----------------------------------------------------- */
struct gaudi_reset {
	struct rw_semaphore rwsem;	/* read: hardware users; write: reset */
	struct work_struct work;
	const char *reason;		/* why the pending reset was asked */
	u32 hard_reset_cnt;
	u32 soft_reset_cnt;
	u32 failed_cnt;
	u64 last_duration_ms;
	bool disabled;			/* unloading: no new reset */
	/*
	 * A user can cause resets (a CS that never ends): their log lines
	 * are limited per card; the counters and uevents say the rest.
	 */
	struct ratelimit_state log_rs;
#ifdef CONFIG_KCOV
	u64 kcov_handle;		/* the holder's kcov common handle */
#endif
};

/* ---- gaudi_roce.c, gaudi_nic.c: the NIC ports (gaudi_cn.h) ------------ */
/* One port's user connections and queues (lock). */
struct gaudi_roce_port {
	struct mutex lock;		/* the members below */
	struct gaudi_file *owner;	/* whose they are; NULL: nobody's */
	DECLARE_BITMAP(conns, GAUDI_NIC_MAX_CONN);	/* allocated QPs */
	DECLARE_BITMAP(req_set, GAUDI_NIC_MAX_CONN);	/* with requester */
	/* The RDMA driver's (remote VA offset GAUDI_VA_HOST_START). */
	DECLARE_BITMAP(vqp, GAUDI_NIC_MAX_CONN);
	bool wq_set, cq_set;
	/*
	 * The RDMA driver's QPs have their send queues at TXE base 2
	 * (@v_open, @v_sq_entries each) and the completion queue
	 * (@cq_verbs, with @cq_set).
	 */
	bool v_open, cq_verbs;
	u32 v_sq_entries;
	u32 wq_num, wq_entries;
	u32 cq_entries;
	/* Generation of each QP number, bumped by every ALLOC_CONN. */
	u8 gen[GAUDI_NIC_MAX_CONN];
	struct gaudi_roce_mr *mrs;	/* GAUDI_NIC_MAX_MR slots */
	struct gaudi_roce_vext *vext;	/* GAUDI_NIC_MAX_CONN */
};

struct gaudi_nic {
	/* Protects client and priv changes and the reset callbacks. */
	struct mutex lock;
	/* The attached network driver; read without the lock by the IRQ. */
	const struct gaudi_cn_client *client;
	void *priv;
	/* The attached RDMA driver (gaudi_ib), the same way. */
	const struct gaudi_cn_client *rdma_client;
	void *rdma_priv;
	/* From the firmware at each bring-up (NIC_INFO_GET). */
	u32 ports_mask;
	u32 ext_ports_mask;
	u8 mac[GAUDI_NIC_NUM_PORTS][6];
	u8 eeprom[256];
	struct gaudi_cn *cn;		/* the auxiliary device, if ports */
	struct gaudi_cn_rdma *rdma;	/* the RDMA one, if ports */
	/*
	 * The MAC statistics' DATA_HI latch (gaudi_nic_mac_counter()) and
	 * the RoCE counters' HI latch (gaudi_nic_roce_counter()).
	 */
	spinlock_t stat_lock;
	/* Per port: one user of the context gateway at a time. */
	struct mutex gw_lock[GAUDI_NIC_NUM_PORTS];
	/* Per port: the holder's RoCE connections (gaudi_roce.c). */
	struct gaudi_roce_port roce[GAUDI_NIC_NUM_PORTS];
};

/* ---- the device ----------------------------------------------------- */
struct gaudi_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	unsigned int index;		/* accel minor index */

	struct mutex state_lock;	/* status changes, reset vs open */
	enum gaudi_status status;
	ktime_t created;		/* probe end, for open stats */

	struct gaudi_pci pci;
	struct gaudi_fw fw;
	struct gaudi_cpucp cpucp;
	struct gaudi_eq eq;
	struct gaudi_reset reset;

	struct device *hwmon;
	struct gaudi_hwmon *hwmon_chans;	/* gaudi_hwmon.c channel tables */
	u64 dbg_addr;			/* debugfs: register address */
	struct gaudi_dp *dp;		/* data plane (gaudi_dp_types.h) */

	struct gaudi_users *users;	/* the nodes' users (gaudi_file_types.h) */
	struct gaudi_nic nic;		/* the NIC ports (gaudi_nic.c) */
	/*
	 * Shown in place of a CB to a process that still maps it after the
	 * card was removed (gaudi_cb.c); freed with the DRM device.
	 */
	struct page *dummy_page;
};

static inline struct gaudi_device *to_gaudi(struct drm_device *drm)
{
	return container_of(drm, struct gaudi_device, drm);
}

#endif /* GAUDI_TYPES_H */
