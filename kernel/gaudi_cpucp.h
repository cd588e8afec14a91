/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the device-CPU queues, CPU-CP requests and the heartbeat
 * (gaudi_cpucp.c).
 */
#ifndef GAUDI_CPUCP_H
#define GAUDI_CPUCP_H

#include <linux/sizes.h>
#include <linux/time64.h>
#include <linux/types.h>

struct cpucp_packet;
struct gaudi_device;

#define GAUDI_CPU_MEM_SIZE	SZ_2M	/* CPU-accessible memory */
#define GAUDI_CPU_POOL_RESERVE	SZ_512K	/* of it, for requests <= 4 KiB */
#define GAUDI_CPU_PQ_SIZE	SZ_64K	/* 4096 x 16-byte descriptors */

#define GAUDI_CPUCP_TIMEOUT_US		(4 * USEC_PER_SEC)
#define GAUDI_CPUCP_INFO_TIMEOUT_US	(10 * USEC_PER_SEC)

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

#endif /* GAUDI_CPUCP_H */
