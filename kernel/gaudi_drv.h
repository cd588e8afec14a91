/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: DRM accel driver for Habana Gaudi 1 (HL-205).
 *
 * One struct gaudi_device per PCI function, embedding its drm_device.  Each
 * concern lives in its own file with its own section of this header:
 *   gaudi_drv.c     module, PCI driver, probe/remove chain, DRM driver, open
 *   gaudi_pci.c     PCI set-up, BARs, ELBI, MSI
 *   gaudi_fw.c      boot status decode and the static firmware load
 *   gaudi_cpucp.c   device-CPU queues, CPU-CP requests, heartbeat
 *   gaudi_eq.c      interrupt handler, event queue, event counters
 *   gaudi_reset.c   hard reset and recovery
 *   gaudi_info.c    the INFO ioctl (compute and control node)
 *   gaudi_ctrl.c    the control node /dev/accel/accel_controlDN
 *   gaudi_sysfs.c   sysfs attributes; gaudi_hwmon.c hwmon; gaudi_debugfs.c
 *
 * Locking order: reset.rwsem (read: a hardware user, write: the reset) ->
 * state_lock -> cpucp.lock -> eq.lock.
 */
#ifndef GAUDI_DRV_H
#define GAUDI_DRV_H

#include <linux/cdev.h>
#include <linux/cleanup.h>
#include <linux/iopoll.h>
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/ratelimit.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/habanalabs_accel.h>

#include "gaudi1/memmap.h"
#include "gaudi1/boot.h"
#include "gaudi1/regs.h"
#include "gaudi1/events.h"
#include "gaudi1/nic.h"
#include "gaudi_roce.h"

#define GAUDI_DRV_NAME "gaudi"
#define GAUDI_DRV_DESC "Habana Gaudi 1 accelerator"

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

/* Module parameters (gaudi_drv.c). */
extern unsigned int gaudi_timeout_locked;	/* seconds */
extern bool gaudi_reset_on_lockup;
extern unsigned int gaudi_boot_error_status_mask;
extern unsigned int gaudi_heartbeat_ms;

/* Same values as upstream's enum hl_device_status (INFO DEVICE_STATUS). */
enum gaudi_status {
	GAUDI_STATUS_OPERATIONAL = 0,
	GAUDI_STATUS_IN_RESET = 1,
	GAUDI_STATUS_MALFUNCTION = 2,
	GAUDI_STATUS_NEEDS_RESET = 3,
	GAUDI_STATUS_IN_DEVICE_CREATION = 4,
};

struct gaudi_device;
struct gaudi_dp;
struct gaudi_hwmon;
struct gaudi_users;

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

int gaudi_pci_init(struct gaudi_device *gdev);
int gaudi_elbi_read(struct gaudi_device *gdev, u32 addr, u32 *val);
int gaudi_irq_init(struct gaudi_device *gdev);
void gaudi_irq_fini(struct gaudi_device *gdev);
/* Is @addr a legal register for debugfs/ioctl access (CFG, aligned)? */
bool gaudi_reg_addr_valid(u64 addr, u32 size);

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

int gaudi_fw_init(struct gaudi_device *gdev);	/* files present */
void gaudi_fw_fini(struct gaudi_device *gdev);
/* Wait for the preboot and run the static firmware load (INTERFACE §4). */
int gaudi_fw_boot(struct gaudi_device *gdev);
void gaudi_fw_read_preboot(struct gaudi_device *gdev);

/* ---- gaudi_cpucp.c ---------------------------------------------------- */
struct cpucp_packet;
struct cpucp_info;
struct gen_pool;

#define GAUDI_CPU_MEM_SIZE	SZ_2M	/* CPU-accessible memory */
#define GAUDI_CPU_POOL_RESERVE	SZ_512K	/* of it, for requests <= 4 KiB */
#define GAUDI_CPU_PQ_SIZE	SZ_64K	/* 4096 x 16-byte descriptors */
#define GAUDI_EQ_ENTRIES	64

#define GAUDI_CPUCP_TIMEOUT_US		(4 * USEC_PER_SEC)
#define GAUDI_CPUCP_INFO_TIMEOUT_US	(10 * USEC_PER_SEC)

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

int gaudi_cpucp_sw_init(struct gaudi_device *gdev);	/* memory, pool */
void gaudi_cpucp_sw_fini(struct gaudi_device *gdev);
int gaudi_cpucp_init(struct gaudi_device *gdev);	/* queues, INFO_GET */
void gaudi_cpucp_fini(struct gaudi_device *gdev);	/* DISABLE_PCI */
void gaudi_cpucp_heartbeat_start(struct gaudi_device *gdev);
void gaudi_cpucp_heartbeat_stop(struct gaudi_device *gdev);

/*
 * Send one CPU-CP request and wait for its fence.  @pkt is built by the
 * caller (opcode in ctl, value, index...); the driver copies it to
 * device-CPU-accessible memory.  Returns 0 and the packet's result in
 * @result (may be NULL), -EIO if the device CPU returned an error code,
 * -ETIMEDOUT, or -EIO without an answer when the channel is not up or
 * was lost (an earlier request timed out; recovery is scheduled).
 * May sleep; callers outside init/reset hold gaudi_hw_enter().
 */
int gaudi_cpucp_send(struct gaudi_device *gdev, struct cpucp_packet *pkt,
		     unsigned int timeout_us, u64 *result);
/*
 * The same for a packet with a tail (struct cpucp_array_data_packet):
 * @len bytes from @pkt, at most GAUDI_CPUCP_PKT_MAX.
 */
#define GAUDI_CPUCP_PKT_MAX	128
int gaudi_cpucp_send_len(struct gaudi_device *gdev, struct cpucp_packet *pkt,
			 size_t len, unsigned int timeout_us, u64 *result);
/* Shorthand: opcode, value and index (u32 at offset 16). */
int gaudi_cpucp_simple(struct gaudi_device *gdev, u32 opcode, u64 value,
		       u32 index, u64 *result);
/*
 * Buffers a CPU-CP request can point at (pkt->addr): @dev_addr is the
 * address as the device CPU sees it.
 */
void *gaudi_cpucp_buf_alloc(struct gaudi_device *gdev, size_t size,
			    u64 *dev_addr);
void gaudi_cpucp_buf_free(struct gaudi_device *gdev, size_t size, void *buf);
/* The card type's power cap in mW: 350 W mezzanine (OAM), 200 W PCI. */
u64 gaudi_cpucp_default_max_power_mw(struct gaudi_device *gdev);

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

int gaudi_eq_init(struct gaudi_device *gdev);	/* ring cleared, enabled */
void gaudi_eq_fini(struct gaudi_device *gdev);
/* Threaded IRQ: consume the event queue. */
void gaudi_eq_handle(struct gaudi_device *gdev);
bool gaudi_eq_pending(struct gaudi_device *gdev);
void gaudi_eq_reset_counters(struct gaudi_device *gdev);
void gaudi_eq_clear_captures(struct gaudi_device *gdev);
const char *gaudi_event_name(u32 type, char *buf, size_t len);

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

void gaudi_reset_init(struct gaudi_device *gdev);
/* Queue a recovery (hard reset + re-init); safe from any context. */
void gaudi_reset_schedule(struct gaudi_device *gdev, const char *reason);
/* Schedule and wait for it (sysfs hard_reset). */
int gaudi_reset_now(struct gaudi_device *gdev, const char *reason);
/* Halt the device CPU, SW_ALL_RST, wait, check (INTERFACE §10). */
int gaudi_hw_reset(struct gaudi_device *gdev);
void gaudi_reset_fini(struct gaudi_device *gdev);
/*
 * Remote kcov (the kernel fuzzer): the reset work and the event-queue
 * thread collect under the card holder's common handle, noted at open;
 * each section ends with kcov_remote_stop().
 */
#ifdef CONFIG_KCOV
void gaudi_kcov_note_holder(struct gaudi_device *gdev);
void gaudi_kcov_remote_start(struct gaudi_device *gdev);
#else
static inline void gaudi_kcov_note_holder(struct gaudi_device *gdev) {}
static inline void gaudi_kcov_remote_start(struct gaudi_device *gdev) {}
#endif

/* ---- gaudi_sysfs.c / gaudi_hwmon.c / gaudi_debugfs.c ------------------- */
extern const struct attribute_group *gaudi_sysfs_groups[];
int gaudi_hwmon_init(struct gaudi_device *gdev);
void gaudi_hwmon_fini(struct gaudi_device *gdev);
void gaudi_debugfs_init(struct gaudi_device *gdev);

/* ---- gaudi_ctrl.c ------------------------------------------------------ */
int gaudi_ctrl_init(struct gaudi_device *gdev);
void gaudi_ctrl_fini(struct gaudi_device *gdev);

/* ---- gaudi_nic.c: the NIC ports, for a network driver (gaudi_cn.h) ---- */
struct gaudi_cn;
struct gaudi_cn_rdma;
struct gaudi_cn_client;

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

int gaudi_nic_sw_init(struct gaudi_device *gdev);
void gaudi_nic_hw_init(struct gaudi_device *gdev);
int gaudi_nic_init(struct gaudi_device *gdev);
void gaudi_nic_fini(struct gaudi_device *gdev);
void gaudi_nic_irq(struct gaudi_device *gdev);
void gaudi_nic_reset_prepare(struct gaudi_device *gdev);
void gaudi_nic_reset_done(struct gaudi_device *gdev, bool ok);
void gaudi_nic_event(struct gaudi_device *gdev, u32 type);
u64 gaudi_nic_mac_counter(struct gaudi_device *gdev, unsigned int port,
			  bool rx, u32 reg);
u64 gaudi_nic_roce_counter(struct gaudi_device *gdev, unsigned int port,
			   unsigned int idx);

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
	struct gaudi_dp *dp;		/* data plane (gaudi_cs.h) */

	struct gaudi_users *users;	/* the nodes' users (gaudi_file.h) */
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
/* Bring the device up after probe or a reset: boot, CPU-CP, events. */
int gaudi_hw_init(struct gaudi_device *gdev);
void gaudi_hw_fini(struct gaudi_device *gdev);

#endif /* GAUDI_DRV_H */
