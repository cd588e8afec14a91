// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the device-CPU channel (CPU-CP).
 *
 * The device CPU reads requests from a ring (PQ) of 16-byte descriptors in
 * host memory, each pointing at a struct cpucp_packet, and answers in
 * place: result, return code in ctl, and finally a fence value.  The driver
 * sends one request at a time and polls the fence.  Events come the other
 * way through the event queue (gaudi_eq.c).
 *
 * Everything the device CPU reads or writes lives in one 2 MiB coherent
 * buffer, the "CPU-accessible memory", handed out by a gen_pool.  The
 * device CPU reaches host memory at DMA address + HOST_PHYS_BASE, and only
 * through a 512 GiB window: the driver gives it addresses with bits 49:39
 * folded to bit 39 and programs the real bits 49:39 into CPU_MSB_ADDR, so
 * the whole buffer must share those bits.
 */
#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/genalloc.h>
#include <linux/iopoll.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/habanalabs/cpucp_if.h>

#include <uapi/drm/habanalabs_accel.h>

#include "gaudi1/events.h"
#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi_cpucp.h"
#include "gaudi_drv.h"
#include "gaudi_hw.h"
#include "gaudi_reset.h"
#include "gaudi_types.h"
#include "gaudi_trace.h"

#define GAUDI_CPU_WINDOW_SHIFT	39
#define GAUDI_CPU_MSB_MASK	GENMASK_ULL(49, 39)
#define GAUDI_POOL_ORDER	5		/* 32-byte granules */
#define GAUDI_CPU_PQ_ENTRIES	(GAUDI_CPU_PQ_SIZE / 16)
#define GAUDI_EQ_SIZE		(GAUDI_EQ_ENTRIES * GAUDI_EQ_ENTRY_SIZE)
#define GAUDI_QUEUE_INIT_TIMEOUT_US	(30 * USEC_PER_SEC)
#define GAUDI_ALLOC_TRIES	3
#define GAUDI_MAX_CLK_HZ	2200000000ULL	/* MME PLL maximum */
#define GAUDI_MAX_POWER_PMC_MW	350000
#define GAUDI_MAX_POWER_PCI_MW	200000

static void gaudi_cpucp_heartbeat_work(struct work_struct *work);

struct gaudi_bd {
	__le64 ptr;
	__le32 len;
	__le32 ctl;
};

static u64 gaudi_cpu_addr(dma_addr_t dma)
{
	u64 dev = (u64)dma + GAUDI_HOST_PHYS_BASE;

	return (dev & (BIT_ULL(GAUDI_CPU_WINDOW_SHIFT) - 1)) |
	       BIT_ULL(GAUDI_CPU_WINDOW_SHIFT);
}

static bool gaudi_cpu_window_ok(dma_addr_t dma, size_t size)
{
	u64 first = (u64)dma + GAUDI_HOST_PHYS_BASE;
	u64 last = first + size - 1;

	return (first & GAUDI_CPU_MSB_MASK) == (last & GAUDI_CPU_MSB_MASK);
}

int gaudi_cpucp_sw_init(struct gaudi_device *gdev)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;
	struct device *dev = &gdev->pdev->dev;
	void *bad[GAUDI_ALLOC_TRIES] = {};
	dma_addr_t bad_dma[GAUDI_ALLOC_TRIES];
	int i, nbad = 0, ret;
	u64 dev_addr;

	INIT_DELAYED_WORK(&cp->heartbeat, gaudi_cpucp_heartbeat_work);
	for (i = 0; i < GAUDI_ALLOC_TRIES; i++) {
		cp->mem = dma_alloc_coherent(dev, GAUDI_CPU_MEM_SIZE,
					     &cp->mem_dma, GFP_KERNEL);
		if (!cp->mem)
			break;
		if (gaudi_cpu_window_ok(cp->mem_dma, GAUDI_CPU_MEM_SIZE))
			break;
		bad[nbad] = cp->mem;
		bad_dma[nbad++] = cp->mem_dma;
		cp->mem = NULL;
	}
	for (i = 0; i < nbad; i++)
		dma_free_coherent(dev, GAUDI_CPU_MEM_SIZE, bad[i], bad_dma[i]);
	if (!cp->mem) {
		gaudi_err(gdev, "no 2 MiB coherent buffer within one 512 GiB device-CPU window\n");
		return -ENOMEM;
	}
	cp->mem_cpu_addr = gaudi_cpu_addr(cp->mem_dma);
	cp->msb = FIELD_GET(GAUDI_CPU_MSB_MASK,
			    (u64)cp->mem_dma + GAUDI_HOST_PHYS_BASE);

	cp->pool = gen_pool_create(GAUDI_POOL_ORDER, -1);
	if (!cp->pool) {
		ret = -ENOMEM;
		goto err_free_mem;
	}
	ret = gen_pool_add_virt(cp->pool, (unsigned long)cp->mem,
				cp->mem_cpu_addr, GAUDI_CPU_MEM_SIZE, -1);
	if (ret)
		goto err_destroy_pool;

	/* First in the pool, so both are naturally aligned. */
	cp->pq = gaudi_cpucp_buf_alloc(gdev, GAUDI_CPU_PQ_SIZE, &dev_addr);
	cp->eq = gaudi_cpucp_buf_alloc(gdev, GAUDI_EQ_SIZE, &dev_addr);
	cp->pkt = gaudi_cpucp_buf_alloc(gdev, GAUDI_CPUCP_PKT_MAX,
					&cp->pkt_addr);
	if (!cp->pq || !cp->eq || !cp->pkt) {
		ret = -ENOMEM;
		goto err_free_queues;
	}

	cp->info = kzalloc(sizeof(*cp->info), GFP_KERNEL);
	if (!cp->info) {
		ret = -ENOMEM;
		goto err_free_queues;
	}
	gaudi_dbg(gdev, CPUCP, "CPU-accessible memory at DMA %pad, device CPU 0x%llx, MSB 0x%x\n",
		  &cp->mem_dma, cp->mem_cpu_addr, cp->msb);
	return 0;

err_free_queues:
	gaudi_cpucp_buf_free(gdev, GAUDI_CPUCP_PKT_MAX, cp->pkt);
	if (cp->eq)
		gaudi_cpucp_buf_free(gdev, GAUDI_EQ_SIZE, cp->eq);
	if (cp->pq)
		gaudi_cpucp_buf_free(gdev, GAUDI_CPU_PQ_SIZE, cp->pq);
err_destroy_pool:
	gen_pool_destroy(cp->pool);
err_free_mem:
	dma_free_coherent(dev, GAUDI_CPU_MEM_SIZE, cp->mem, cp->mem_dma);
	cp->mem = NULL;
	return ret;
}

void gaudi_cpucp_sw_fini(struct gaudi_device *gdev)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;

	kfree(cp->info);
	cp->info = NULL;
	gaudi_cpucp_buf_free(gdev, GAUDI_CPUCP_PKT_MAX, cp->pkt);
	gaudi_cpucp_buf_free(gdev, GAUDI_EQ_SIZE, cp->eq);
	gaudi_cpucp_buf_free(gdev, GAUDI_CPU_PQ_SIZE, cp->pq);
	gen_pool_destroy(cp->pool);
	dma_free_coherent(&gdev->pdev->dev, GAUDI_CPU_MEM_SIZE, cp->mem,
			  cp->mem_dma);
	cp->mem = NULL;
}

void *gaudi_cpucp_buf_alloc(struct gaudi_device *gdev, size_t size,
			    u64 *dev_addr)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;
	unsigned long va;

	/*
	 * Once the channel is set up, buffers larger than a page (sized by
	 * users: generic firmware requests, flash) leave a reserve for the
	 * small ones every INFO op and the driver itself need.
	 */
	if (size > SZ_4K && cp->pkt &&
	    gen_pool_avail(cp->pool) < size + GAUDI_CPU_POOL_RESERVE)
		return NULL;
	va = gen_pool_alloc(cp->pool, size);
	if (!va)
		return NULL;
	memset((void *)va, 0, size);
	*dev_addr = gen_pool_virt_to_phys(cp->pool, va);
	return (void *)va;
}

void gaudi_cpucp_buf_free(struct gaudi_device *gdev, size_t size, void *buf)
{
	if (buf)
		gen_pool_free(gdev->cpucp.pool, (unsigned long)buf, size);
}

static void gaudi_cpucp_lost(struct gaudi_device *gdev, u32 opcode)
{
	gaudi_err(gdev, "device CPU did not answer CPU-CP request %u: device CPU lost\n",
		  opcode);
	gaudi_reset_schedule(gdev, "device CPU stopped answering");
}

int gaudi_cpucp_send(struct gaudi_device *gdev, struct cpucp_packet *pkt,
		     unsigned int timeout_us, u64 *result)
{
	return gaudi_cpucp_send_len(gdev, pkt, sizeof(*pkt), timeout_us,
				    result);
}

int gaudi_cpucp_send_len(struct gaudi_device *gdev, struct cpucp_packet *pkt,
			 size_t len, unsigned int timeout_us, u64 *result)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;
	u32 opcode = FIELD_GET(CPUCP_PKT_CTL_OPCODE_MASK, le32_to_cpu(pkt->ctl));
	struct cpucp_packet *p;
	struct gaudi_bd *bd;
	__le32 fence;
	ktime_t t0 = ktime_get();
	u32 rc, pi;
	u64 pkt_addr;
	int ret;

	mutex_lock(&cp->lock);
	/*
	 * Not up, or an earlier request went unanswered (recovery is
	 * scheduled): the device is not operational, -EIO as the sysfs and
	 * INFO documentation promise (-ENODEV would read as unplugged).
	 */
	if (!cp->ready || cp->lost) {
		ret = -EIO;
		goto out_unlock;
	}
	if (WARN_ON_ONCE(len < sizeof(*p) || len > GAUDI_CPUCP_PKT_MAX)) {
		ret = -EINVAL;
		goto out_unlock;
	}
	p = cp->pkt;
	pkt_addr = cp->pkt_addr;
	memcpy(p, pkt, len);
	p->fence = 0;

	pi = cp->pq_pi;
	bd = (struct gaudi_bd *)cp->pq + (pi & (GAUDI_CPU_PQ_ENTRIES - 1));
	bd->ptr = cpu_to_le64(pkt_addr);
	bd->len = cpu_to_le32(len);
	bd->ctl = cpu_to_le32(pi & (GAUDI_CPU_PQ_ENTRIES - 1));
	cp->pq_pi = (pi + 1) & (2 * GAUDI_CPU_PQ_ENTRIES - 1);
	cp->packets++;

	/* writel orders the descriptor and packet before the doorbell. */
	WREG32(gdev, mmCPU_IF_PF_PQ_PI, cp->pq_pi);
	WREG32(gdev, mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR, GAUDI_EVENT_PI_UPDATE);

	ret = read_poll_timeout(READ_ONCE, fence,
				le32_to_cpu(fence) == CPUCP_PACKET_FENCE_VAL,
				20, timeout_us, false, p->fence);
	if (ret) {
		/* The device may still write the packet: no more until reset. */
		cp->lost = true;
		cp->errors++;
		mutex_unlock(&cp->lock);
		trace_gaudi_cpucp_request(gdev->index, opcode, -ETIMEDOUT,
					  ktime_us_delta(ktime_get(), t0));
		gaudi_cpucp_lost(gdev, opcode);
		return -ETIMEDOUT;
	}
	dma_rmb();
	rc = FIELD_GET(CPUCP_PKT_CTL_RC_MASK, le32_to_cpu(p->ctl));
	if (rc) {
		cp->errors++;
		gaudi_dbg(gdev, CPUCP, "CPU-CP request %u refused: return code %u\n",
			  opcode, rc);
		ret = -EIO;
	} else if (result) {
		*result = le64_to_cpu(p->result);
	}

out_unlock:
	mutex_unlock(&cp->lock);
	trace_gaudi_cpucp_request(gdev->index, opcode, ret,
				  ktime_us_delta(ktime_get(), t0));
	return ret;
}

int gaudi_cpucp_simple(struct gaudi_device *gdev, u32 opcode, u64 value,
		       u32 index, u64 *result)
{
	struct cpucp_packet pkt = {};

	pkt.ctl = cpu_to_le32(opcode << CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.value = cpu_to_le64(value);
	pkt.index = cpu_to_le32(index);
	return gaudi_cpucp_send(gdev, &pkt, GAUDI_CPUCP_TIMEOUT_US, result);
}

static const char *pq_init_status_str(u32 sts)
{
	switch (sts) {
	case PQ_INIT_STATUS_NA:
		return "no answer";
	case PQ_INIT_STATUS_READY_FOR_CP:
	case PQ_INIT_STATUS_READY_FOR_CP_SINGLE_MSI:
		return "request not picked up";
	case PQ_INIT_STATUS_LEN_NOT_POWER_OF_TWO_ERR:
		return "queue length not a power of two";
	case PQ_INIT_STATUS_ILLEGAL_Q_ADDR_ERR:
		return "queue address refused";
	default:
		return "unknown status";
	}
}

static int gaudi_cpucp_queues_init(struct gaudi_device *gdev)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;
	u64 pq = gen_pool_virt_to_phys(cp->pool, (unsigned long)cp->pq);
	u64 eq = gen_pool_virt_to_phys(cp->pool, (unsigned long)cp->eq);
	u32 sts;
	int ret;

	memset(cp->pq, 0, GAUDI_CPU_PQ_SIZE);
	cp->pq_pi = 0;

	WREG32(gdev, mmCPU_IF_PQ_BASE_ADDR_LOW, lower_32_bits(pq));
	WREG32(gdev, mmCPU_IF_PQ_BASE_ADDR_HIGH, upper_32_bits(pq));
	WREG32(gdev, mmCPU_IF_PQ_LENGTH, GAUDI_CPU_PQ_SIZE);
	WREG32(gdev, mmCPU_IF_EQ_BASE_ADDR_LOW, lower_32_bits(eq));
	WREG32(gdev, mmCPU_IF_EQ_BASE_ADDR_HIGH, upper_32_bits(eq));
	WREG32(gdev, mmCPU_IF_EQ_LENGTH, GAUDI_EQ_SIZE);
	WREG32(gdev, mmCPU_IF_CQ_BASE_ADDR_LOW, lower_32_bits(cp->mem_cpu_addr));
	WREG32(gdev, mmCPU_IF_CQ_BASE_ADDR_HIGH, upper_32_bits(cp->mem_cpu_addr));
	WREG32(gdev, mmCPU_IF_CQ_LENGTH, GAUDI_CPU_MEM_SIZE);
	WREG32(gdev, mmCPU_IF_EQ_RD_OFFS, 0);
	WREG32(gdev, mmCPU_IF_PF_PQ_PI, 0);
	WREG32(gdev, mmCPU_IF_QUEUE_INIT, PQ_INIT_STATUS_READY_FOR_CP_SINGLE_MSI);
	WREG32(gdev, mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR, GAUDI_EVENT_PI_UPDATE);

	ret = gaudi_poll_reg(gdev, mmCPU_IF_QUEUE_INIT, sts,
			     sts == PQ_INIT_STATUS_READY_FOR_HOST ||
			     sts == PQ_INIT_STATUS_LEN_NOT_POWER_OF_TWO_ERR ||
			     sts == PQ_INIT_STATUS_ILLEGAL_Q_ADDR_ERR,
			     USEC_PER_MSEC, GAUDI_QUEUE_INIT_TIMEOUT_US);
	if (sts != PQ_INIT_STATUS_READY_FOR_HOST) {
		gaudi_err(gdev, "device CPU refused the queue set-up: %s (QUEUE_INIT %u)%s\n",
			  pq_init_status_str(sts), sts,
			  ret ? ", timed out after 30 s" : "");
		return -EIO;
	}
	return 0;
}

int gaudi_cpucp_init(struct gaudi_device *gdev)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;
	struct cpucp_packet pkt = {};
	struct cpucp_info *buf;
	u64 buf_addr, res;
	u64 magic;
	int ret;

	mutex_lock(&cp->lock);
	cp->lost = false;
	mutex_unlock(&cp->lock);

	ret = gaudi_cpucp_queues_init(gdev);
	if (ret)
		return ret;
	cp->ready = true;

	buf = gaudi_cpucp_buf_alloc(gdev, sizeof(*buf), &buf_addr);
	if (!buf) {
		ret = -ENOMEM;
		goto err_not_ready;
	}
	pkt.ctl = cpu_to_le32(CPUCP_PACKET_INFO_GET << CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.addr = cpu_to_le64(buf_addr);
	pkt.data_max_size = cpu_to_le32(sizeof(*buf));
	ret = gaudi_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, NULL);
	if (!ret)
		memcpy(cp->info, buf, sizeof(*buf));
	gaudi_cpucp_buf_free(gdev, sizeof(*buf), buf);
	if (ret) {
		gaudi_err(gdev, "CPU-CP INFO_GET failed: %d\n", ret);
		goto err_not_ready;
	}
	cp->info->kernel_version[sizeof(cp->info->kernel_version) - 1] = 0;
	cp->info->cpucp_version[sizeof(cp->info->cpucp_version) - 1] = 0;
	cp->info->card_name[sizeof(cp->info->card_name) - 1] = 0;
	cp->info->fuse_version[sizeof(cp->info->fuse_version) - 1] = 0;
	cp->info->thermal_version[sizeof(cp->info->thermal_version) - 1] = 0;
	cp->info->fw_os_version[sizeof(cp->info->fw_os_version) - 1] = 0;

	ret = gaudi_cpucp_simple(gdev, CPUCP_PACKET_ENABLE_PCI_ACCESS, 0, 0,
				 NULL);
	if (ret) {
		gaudi_err(gdev, "CPU-CP ENABLE_PCI_ACCESS failed: %d\n", ret);
		goto err_not_ready;
	}

	magic = 0x600DCAFE00000000ULL | get_random_u32();
	ret = gaudi_cpucp_simple(gdev, CPUCP_PACKET_TEST, magic, 0, &res);
	if (!ret && res != magic) {
		gaudi_err(gdev, "CPU-CP TEST answered 0x%llx instead of 0x%llx\n",
			  res, magic);
		ret = -EIO;
	}
	if (ret) {
		gaudi_err(gdev, "CPU-CP TEST failed: %d\n", ret);
		goto err_not_ready;
	}
	/*
	 * As the reference driver does at init: run the MME PLL at its
	 * maximum and give the firmware the power cap (the card type's
	 * default, or what the administrator set before a reset).
	 */
	ret = gaudi_cpucp_simple(gdev, CPUCP_PACKET_FREQUENCY_SET,
				 GAUDI_MAX_CLK_HZ, HL_GAUDI_MME_PLL, NULL);
	if (ret) {
		gaudi_err(gdev, "CPU-CP FREQUENCY_SET failed: %d\n", ret);
		goto err_not_ready;
	}
	if (!cp->max_power_mw)
		cp->max_power_mw = gaudi_cpucp_default_max_power_mw(gdev);
	ret = gaudi_cpucp_simple(gdev, CPUCP_PACKET_MAX_POWER_SET,
				 cp->max_power_mw, 0, NULL);
	if (ret) {
		gaudi_err(gdev, "CPU-CP MAX_POWER_SET failed: %d\n", ret);
		goto err_not_ready;
	}
	gaudi_dbg(gdev, CPUCP, "device CPU ready: %s, card \"%s\"\n",
		  cp->info->cpucp_version, cp->info->card_name);
	return 0;

err_not_ready:
	cp->ready = false;
	return ret;
}

u64 gaudi_cpucp_default_max_power_mw(struct gaudi_device *gdev)
{
	const struct cpucp_info *ci = gdev->cpucp.info;

	if (ci && le32_to_cpu(ci->card_type) == cpucp_card_type_pmc)
		return GAUDI_MAX_POWER_PMC_MW;
	return GAUDI_MAX_POWER_PCI_MW;
}

void gaudi_cpucp_fini(struct gaudi_device *gdev)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;

	if (cp->ready && !cp->lost)
		gaudi_cpucp_simple(gdev, CPUCP_PACKET_DISABLE_PCI_ACCESS, 0, 0,
				   NULL);
	cp->ready = false;
}

static void gaudi_cpucp_heartbeat_work(struct work_struct *work)
{
	struct gaudi_cpucp *cp = container_of(to_delayed_work(work),
					      struct gaudi_cpucp, heartbeat);
	struct gaudi_device *gdev = container_of(cp, struct gaudi_device, cpucp);
	u64 value, res = 0;
	int ret;

	/* A writer is a reset in progress: it restarts the heartbeat. */
	if (!down_read_trylock(&gdev->reset.rwsem))
		return;
	if (READ_ONCE(gdev->status) != GAUDI_STATUS_OPERATIONAL) {
		up_read(&gdev->reset.rwsem);
		return;
	}
	cp->hb_seq++;
	value = ((u64)cp->hb_seq << 32) | 0xBEA7;
	ret = gaudi_cpucp_simple(gdev, CPUCP_PACKET_TEST, value, 0, &res);
	up_read(&gdev->reset.rwsem);

	/* The channel was lost by an earlier request: recovery is scheduled. */
	if (ret == -EIO && READ_ONCE(cp->lost))
		return;
	if (ret || res != value) {
		gaudi_err(gdev, "heartbeat lost: TEST %d, answered 0x%llx for 0x%llx\n",
			  ret, res, value);
		gaudi_reset_schedule(gdev, "heartbeat lost");
		return;
	}
	schedule_delayed_work(&cp->heartbeat,
			      msecs_to_jiffies(gaudi_heartbeat_ms));
}

void gaudi_cpucp_heartbeat_start(struct gaudi_device *gdev)
{
	struct gaudi_cpucp *cp = &gdev->cpucp;

	if (gaudi_heartbeat_ms)
		schedule_delayed_work(&cp->heartbeat,
				      msecs_to_jiffies(gaudi_heartbeat_ms));
}

void gaudi_cpucp_heartbeat_stop(struct gaudi_device *gdev)
{
	cancel_delayed_work_sync(&gdev->cpucp.heartbeat);
}
