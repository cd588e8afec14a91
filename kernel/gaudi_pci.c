// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: PCI set-up.
 *
 * BAR0 (64 MiB) shows SRAM, BAR2 (128 MiB) the SPI flash window and the
 * register (CFG) space in its upper half, BAR4 the HBM (write-combined).
 * Before the BARs are mapped the driver reads registers through the ELBI
 * window in PCI config space; that is how it learns whether the firmware
 * configured the inbound address translation (iATU) for fixed windows.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/pci.h>
#include <linux/habanalabs/hl_boot_if.h>
#include <drm/drm_drv.h>

#include "gaudi1/boot.h"
#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi_eq.h"
#include "gaudi_nic.h"
#include "gaudi_pci.h"
#include "gaudi_queue.h"
#include "gaudi_types.h"

#define GAUDI_DMA_BITS		48
#define GAUDI_ELBI_TIMEOUT_US	(10 * USEC_PER_MSEC)

/* One register read through PCI config space; @addr is a device address. */
int gaudi_elbi_read(struct gaudi_device *gdev, u32 addr, u32 *val)
{
	struct pci_dev *pdev = gdev->pdev;
	u32 sts = 0;
	int ret;

	pci_write_config_dword(pdev, GAUDI_ELBI_STS, 0);
	pci_write_config_dword(pdev, GAUDI_ELBI_ADDR, addr);
	pci_write_config_dword(pdev, GAUDI_ELBI_CTRL, 0);

	ret = read_poll_timeout(pci_read_config_dword, ret,
				sts & (GAUDI_ELBI_STS_DONE | GAUDI_ELBI_STS_ERR),
				10, GAUDI_ELBI_TIMEOUT_US, false, pdev,
				GAUDI_ELBI_STS, &sts);
	if (ret) {
		gaudi_err(gdev, "ELBI read of 0x%08x timed out\n", addr);
		return -ETIMEDOUT;
	}
	pci_write_config_dword(pdev, GAUDI_ELBI_STS, 0);
	if (sts & GAUDI_ELBI_STS_ERR) {
		gaudi_err(gdev, "ELBI read of 0x%08x failed\n", addr);
		return -EIO;
	}
	pci_read_config_dword(pdev, GAUDI_ELBI_DATA, val);
	return 0;
}

static int gaudi_pci_check_bars(struct gaudi_device *gdev)
{
	struct pci_dev *pdev = gdev->pdev;
	resource_size_t len0 = pci_resource_len(pdev, 0);
	resource_size_t len2 = pci_resource_len(pdev, 2);
	resource_size_t len4 = pci_resource_len(pdev, 4);

	if (len0 != GAUDI_BAR0_SIZE) {
		gaudi_err(gdev, "BAR0 (SRAM) is %pa bytes, a Gaudi has 64 MiB: not a Gaudi or a broken BAR assignment\n",
			  &len0);
		return -ENODEV;
	}
	if (len2 != GAUDI_BAR2_SIZE) {
		gaudi_err(gdev, "BAR2 (registers) is %pa bytes, a Gaudi has 128 MiB: not a Gaudi or a broken BAR assignment\n",
			  &len2);
		return -ENODEV;
	}
	if (len4 < GAUDI_FIT_HBM_OFFSET + GAUDI_FW_FILE_MAX) {
		gaudi_err(gdev, "BAR4 (HBM) is %pa bytes, too small to load the firmware\n",
			  &len4);
		return -ENODEV;
	}
	gdev->pci.hbm_bar_size = len4;
	return 0;
}

int gaudi_pci_init(struct gaudi_device *gdev)
{
	struct pci_dev *pdev = gdev->pdev;
	struct gaudi_pci *p = &gdev->pci;
	void __iomem *bar2;
	u32 sts0;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret) {
		gaudi_err(gdev, "cannot enable the PCI device: %d\n", ret);
		return ret;
	}

	ret = gaudi_pci_check_bars(gdev);
	if (ret)
		return ret;

	/* Firmware capabilities, before any BAR is touched. */
	ret = gaudi_elbi_read(gdev, GAUDI_ELBI_CFG_BASE32 + mmCPU_BOOT_DEV_STS0,
			      &sts0);
	if (ret)
		return ret;
	p->dev_sts0_elbi = sts0;
	if (!(sts0 & CPU_BOOT_DEV_STS0_ENABLED) ||
	    !(sts0 & CPU_BOOT_DEV_STS0_FW_IATU_CONF_EN)) {
		gaudi_err(gdev, "firmware did not configure the PCIe address translation (DEV_STS0 0x%08x): programming the iATU is not supported\n",
			  sts0);
		return -ENODEV;
	}

	pci_set_master(pdev);

	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(GAUDI_DMA_BITS));
	if (ret) {
		gaudi_err(gdev, "cannot set a %u-bit DMA mask: %d\n",
			  GAUDI_DMA_BITS, ret);
		return ret;
	}

	p->sram = pcim_iomap_region(pdev, 0, GAUDI_DRV_NAME);
	if (IS_ERR(p->sram)) {
		gaudi_err(gdev, "cannot map BAR0 (SRAM): %pe\n", p->sram);
		return PTR_ERR(p->sram);
	}
	bar2 = pcim_iomap_region(pdev, 2, GAUDI_DRV_NAME);
	if (IS_ERR(bar2)) {
		gaudi_err(gdev, "cannot map BAR2 (registers): %pe\n", bar2);
		return PTR_ERR(bar2);
	}
	p->flash = bar2;
	p->cfg = bar2 + GAUDI_BAR2_CFG_OFFSET;

	ret = pcim_request_region(pdev, 4, GAUDI_DRV_NAME);
	if (ret) {
		gaudi_err(gdev, "cannot claim BAR4 (HBM): %d\n", ret);
		return ret;
	}
	p->hbm = devm_ioremap_wc(&pdev->dev, pci_resource_start(pdev, 4),
				 p->hbm_bar_size);
	if (!p->hbm) {
		gaudi_err(gdev, "cannot map BAR4 (HBM) write-combined\n");
		return -ENOMEM;
	}
	gaudi_dbg(gdev, PROBE, "BARs mapped, HBM window %pa bytes, DEV_STS0 0x%08x\n",
		  &p->hbm_bar_size, sts0);
	return 0;
}

/* A register address a user may name: CFG space, 4-byte aligned. */
bool gaudi_reg_addr_valid(u64 addr, u32 size)
{
	if (size != 4 || !IS_ALIGNED(addr, 4))
		return false;
	if (addr >= GAUDI_CFG_BASE)
		addr -= GAUDI_CFG_BASE;
	return addr < GAUDI_CFG_REGS_SIZE;
}

/*
 * One MSI serves the completion queues and the event queue.  Completions
 * are handled here, in hard interrupt context: the fences of the CSs that
 * ended are signalled at once, without waking a thread (on the model a CS
 * completes inside its doorbell write, so a thread would preempt the
 * submitter on every CS).  Freeing their jobs is left to process context
 * (gaudi_cs_reap()).  Events need process context: the thread handles them.
 * MSI is edge-triggered and the device has nothing to acknowledge.
 */
static irqreturn_t gaudi_irq_hard(int irq, void *arg)
{
	struct gaudi_device *gdev = arg;

	gaudi_cq_irq(gdev);
	gaudi_nic_irq(gdev);
	return gaudi_eq_pending(gdev) ? IRQ_WAKE_THREAD : IRQ_HANDLED;
}

static irqreturn_t gaudi_irq_thread(int irq, void *arg)
{
	struct gaudi_device *gdev = arg;
	int idx;

	if (!drm_dev_enter(&gdev->drm, &idx))
		return IRQ_HANDLED;
	gaudi_eq_handle(gdev);
	drm_dev_exit(idx);
	return IRQ_HANDLED;
}

int gaudi_irq_init(struct gaudi_device *gdev)
{
	struct pci_dev *pdev = gdev->pdev;
	int ret;

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0) {
		gaudi_err(gdev, "cannot enable MSI: %d\n", ret);
		return ret;
	}
	gdev->pci.irq = pci_irq_vector(pdev, 0);
	ret = request_threaded_irq(gdev->pci.irq, gaudi_irq_hard,
				   gaudi_irq_thread, 0,
				   GAUDI_DRV_NAME, gdev);
	if (ret) {
		gaudi_err(gdev, "cannot request IRQ %d: %d\n", gdev->pci.irq,
			  ret);
		pci_free_irq_vectors(pdev);
		return ret;
	}
	return 0;
}

void gaudi_irq_fini(struct gaudi_device *gdev)
{
	free_irq(gdev->pci.irq, gdev);
	pci_free_irq_vectors(gdev->pdev);
}
