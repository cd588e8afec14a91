// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: firmware boot with the static ("legacy") loader.
 *
 * After reset the preboot firmware in the card's flash waits for a
 * boot-fit image: the driver copies gaudi-boot-fit.itb to SRAM and says
 * FIT_RDY; once the device CPU acknowledges it and reaches READY_TO_BOOT,
 * the driver copies gaudi-fit.itb to HBM and says FIT_RDY again; the main
 * firmware starts the device CPU's application (CPU-CP) and reports
 * SRAM_AVAIL.  Every status and error bit the device reports along the way
 * is decoded into a line that names the cause.
 *
 * With fw_fallback=1 a file that is not in /lib/firmware is waited for
 * (GAUDI_FW_FALLBACK_TIMEOUT_S) through the kernel's sysfs fallback without
 * a uevent: /sys/class/firmware/habanalabs!gaudi!<file>/{loading,data},
 * which `gaudi-fw load` feeds.
 */
#include <linux/firmware.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/habanalabs/hl_boot_if.h>

#include "gaudi1/boot.h"
#include "gaudi1/regs.h"
#include "gaudi_drv.h"
#include "gaudi_fw.h"
#include "gaudi_hw.h"
#include "gaudi_types.h"

#define GAUDI_FW_DIR		"habanalabs/gaudi/"
#define GAUDI_BOOT_FIT_FILE	"gaudi-boot-fit.itb"
#define GAUDI_FIT_FILE		"gaudi-fit.itb"
#define GAUDI_TPC_FILE		"gaudi_tpc.bin"

#define GAUDI_POLL_US			(10 * USEC_PER_MSEC)
#define GAUDI_PREBOOT_TIMEOUT_S		4U
#define GAUDI_BOOT_FIT_TIMEOUT_S	4U
#define GAUDI_FIT_TIMEOUT_S		30U
#define GAUDI_PREBOOT_TIMEOUT_US	(GAUDI_PREBOOT_TIMEOUT_S * USEC_PER_SEC)
#define GAUDI_BOOT_FIT_TIMEOUT_US	(GAUDI_BOOT_FIT_TIMEOUT_S * USEC_PER_SEC)
#define GAUDI_FIT_TIMEOUT_US		(GAUDI_FIT_TIMEOUT_S * USEC_PER_SEC)

#define GAUDI_FW_FALLBACK_TIMEOUT_S	60U

static bool gaudi_fw_fallback;
module_param_named(fw_fallback, gaudi_fw_fallback, bool, 0644);
MODULE_PARM_DESC(fw_fallback, "Wait up to 60 s for a missing firmware file to be written to /sys/class/firmware/<name>/ (gaudi-fw load) (default false)");

static const char * const boot_status_names[] = {
	[CPU_BOOT_STATUS_NA] = "not available (preboot not running)",
	[CPU_BOOT_STATUS_IN_WFE] = "device CPU parked in WFE",
	[CPU_BOOT_STATUS_DRAM_RDY] = "DRAM ready",
	[CPU_BOOT_STATUS_SRAM_AVAIL] = "firmware running (SRAM available)",
	[CPU_BOOT_STATUS_IN_BTL] = "in boot-time loader",
	[CPU_BOOT_STATUS_IN_PREBOOT] = "in preboot",
	[CPU_BOOT_STATUS_IN_SPL] = "in SPL",
	[CPU_BOOT_STATUS_IN_UBOOT] = "in u-boot",
	[CPU_BOOT_STATUS_DRAM_INIT_FAIL] = "DRAM initialization failed",
	[CPU_BOOT_STATUS_FIT_CORRUPTED] = "FIT image corrupted",
	[CPU_BOOT_STATUS_UBOOT_NOT_READY] = "u-boot console active, not ready",
	[CPU_BOOT_STATUS_NIC_FW_RDY] = "NIC firmware ready",
	[CPU_BOOT_STATUS_TS_INIT_FAIL] = "thermal sensor initialization failed",
	[CPU_BOOT_STATUS_DRAM_SKIPPED] = "DRAM initialization skipped",
	[CPU_BOOT_STATUS_BMC_WAITING_SKIPPED] = "BMC wait skipped",
	[CPU_BOOT_STATUS_READY_TO_BOOT] = "ready to boot",
	[CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT] = "waiting for the boot-fit",
	[CPU_BOOT_STATUS_SECURITY_READY] = "security ready",
	[CPU_BOOT_STATUS_FW_SHUTDOWN_PREP] = "firmware preparing for shutdown",
};

static const char *boot_status_str(u32 status)
{
	if (status < ARRAY_SIZE(boot_status_names) && boot_status_names[status])
		return boot_status_names[status];
	return "unknown status";
}

struct gaudi_boot_err_desc {
	u8 bit;
	const char *cause;
};

static const struct gaudi_boot_err_desc boot_err_descs[] = {
	{ CPU_BOOT_ERR_DRAM_INIT_FAIL, "DRAM initialization failed" },
	{ CPU_BOOT_ERR_FIT_CORRUPTED, "FIT image corrupted" },
	{ CPU_BOOT_ERR_TS_INIT_FAIL, "thermal sensor initialization failed" },
	{ CPU_BOOT_ERR_DRAM_SKIPPED, "DRAM initialization skipped" },
	{ CPU_BOOT_ERR_BMC_WAIT_SKIPPED, "BMC wait skipped" },
	{ CPU_BOOT_ERR_NIC_DATA_NOT_RDY, "NIC data not ready" },
	{ CPU_BOOT_ERR_NIC_FW_FAIL, "NIC firmware failed" },
	{ CPU_BOOT_ERR_SECURITY_NOT_RDY, "security not ready" },
	{ CPU_BOOT_ERR_SECURITY_FAIL, "security initialization failed" },
	{ CPU_BOOT_ERR_EFUSE_FAIL, "eFuse read failed" },
	{ CPU_BOOT_ERR_PRI_IMG_VER_FAIL, "primary image version check failed" },
	{ CPU_BOOT_ERR_SEC_IMG_VER_FAIL, "secondary image version check failed" },
	{ CPU_BOOT_ERR_PLL_FAIL, "PLL configuration failed" },
	{ CPU_BOOT_ERR_DEVICE_UNUSABLE_FAIL, "device declared unusable" },
	{ CPU_BOOT_ERR_BOOT_FW_CRIT_ERR, "critical boot firmware error" },
	{ CPU_BOOT_ERR_BINNING_FAIL, "binning failed" },
	{ CPU_BOOT_ERR_TPM_FAIL, "TPM verification failed" },
	{ CPU_BOOT_ERR_TMP_THRESH_INIT_FAIL, "temperature threshold set-up failed" },
	{ CPU_BOOT_ERR_EEPROM_FAIL, "EEPROM read failed" },
};

/* Errors that are warnings only (upstream treats these alike). */
#define GAUDI_BOOT_ERR_WARN_ONLY	(CPU_BOOT_ERR0_BMC_WAIT_SKIPPED | \
					 CPU_BOOT_ERR0_DRAM_SKIPPED | \
					 CPU_BOOT_ERR0_EEPROM_FAIL)

static const char *boot_err_cause(unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(boot_err_descs); i++)
		if (boot_err_descs[i].bit == bit)
			return boot_err_descs[i].cause;
	return "unknown error bit";
}

/*
 * Read and decode BOOT_ERR0/1.  Returns -EIO if an error bit that is not
 * masked by boot_error_status_mask is set.
 */
static int gaudi_fw_check_errors(struct gaudi_device *gdev)
{
	struct gaudi_fw *fw = &gdev->fw;
	unsigned long bits;
	bool fatal = false;
	unsigned int bit;

	fw->boot_err0 = RREG32(gdev, mmCPU_BOOT_ERR0);
	fw->boot_err1 = RREG32(gdev, mmCPU_BOOT_ERR1);

	if (fw->boot_err0 & CPU_BOOT_ERR0_ENABLED) {
		bits = fw->boot_err0 & ~CPU_BOOT_ERR0_ENABLED;
		for_each_set_bit(bit, &bits, 32) {
			bool ignored = !(gaudi_boot_error_status_mask & BIT(bit)) ||
				       (BIT(bit) & GAUDI_BOOT_ERR_WARN_ONLY);

			if (ignored) {
				gaudi_warn(gdev, "device boot reports error bit %u: %s (ignored)\n",
					   bit, boot_err_cause(bit));
			} else {
				gaudi_err(gdev, "device boot failed: %s (BOOT_ERR0 bit %u)\n",
					  boot_err_cause(bit), bit);
				fatal = true;
			}
		}
	}
	if (fw->boot_err1 & CPU_BOOT_ERR1_ENABLED) {
		bits = fw->boot_err1 & ~CPU_BOOT_ERR1_ENABLED;
		for_each_set_bit(bit, &bits, 32) {
			gaudi_err(gdev, "device boot failed: BOOT_ERR1 bit %u set\n",
				  bit);
			fatal = true;
		}
	}
	return fatal ? -EIO : 0;
}

/* One line that says where the boot stands, for timeout messages. */
static void gaudi_fw_report_state(struct gaudi_device *gdev)
{
	u32 status = RREG32(gdev, mmCPU_BOOT_STATUS);

	gaudi_err(gdev, "device boot status %u: %s\n", status,
		  boot_status_str(status));
	gaudi_fw_check_errors(gdev);
}

static void gaudi_fw_read_ver(struct gaudi_device *gdev, u32 reg, char *dst,
			      const char *what)
{
	u32 off = RREG32(gdev, reg) & GAUDI_FW_VER_OFFSET_MASK;

	memset(dst, 0, GAUDI_FW_VER_LEN);
	if (off >= GAUDI_FW_VER_OFFSET_MAX) {
		gaudi_warn(gdev, "%s version offset 0x%x is outside SRAM\n",
			   what, off);
		return;
	}
	memcpy_fromio(dst, gdev->pci.sram + off, GAUDI_FW_VER_LEN - 1);
	dst[GAUDI_FW_VER_LEN - 1] = '\0';
	strim(dst);
}

void gaudi_fw_read_preboot(struct gaudi_device *gdev)
{
	struct gaudi_fw *fw = &gdev->fw;

	fw->dev_sts0 = RREG32(gdev, mmCPU_BOOT_DEV_STS0);
	fw->dev_sts1 = RREG32(gdev, mmCPU_BOOT_DEV_STS1);
	fw->security_enabled = (fw->dev_sts0 & CPU_BOOT_DEV_STS0_ENABLED) &&
			       (fw->dev_sts0 & CPU_BOOT_DEV_STS0_SECURITY_EN);
	gaudi_fw_read_ver(gdev, mmPREBOOT_VER_OFFSET, fw->preboot_ver,
			  "preboot");
	gaudi_dbg(gdev, FW, "preboot \"%s\", DEV_STS0 0x%08x DEV_STS1 0x%08x\n",
		  fw->preboot_ver, fw->dev_sts0, fw->dev_sts1);
}

/*
 * A request through the sysfs fallback.  The firmware loader calls back
 * whenever userspace answers, also after we gave up waiting, so the wait
 * state is shared and freed by whoever lets go of it last.
 */
struct gaudi_fw_wait {
	struct completion done;
	const struct firmware *fw;
	refcount_t ref;
};

static void gaudi_fw_wait_put(struct gaudi_fw_wait *w)
{
	if (refcount_dec_and_test(&w->ref)) {
		release_firmware(w->fw);
		kfree(w);
	}
}

static void gaudi_fw_fallback_done(const struct firmware *f, void *ctx)
{
	struct gaudi_fw_wait *w = ctx;

	w->fw = f;
	complete(&w->done);
	gaudi_fw_wait_put(w);
}

static int gaudi_fw_request_fallback(struct gaudi_device *gdev,
				     const char *name,
				     const struct firmware **out)
{
	struct gaudi_fw_wait *w;
	long left;
	int ret;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	init_completion(&w->done);
	refcount_set(&w->ref, 2);
	gaudi_note(gdev, "firmware %s: waiting up to %u s for userspace (gaudi-fw load)\n",
		   name, GAUDI_FW_FALLBACK_TIMEOUT_S);
	ret = request_firmware_nowait(THIS_MODULE, FW_ACTION_NOUEVENT, name,
				      &gdev->pdev->dev, GFP_KERNEL, w,
				      gaudi_fw_fallback_done);
	if (ret) {
		kfree(w);
		return ret;
	}
	left = wait_for_completion_killable_timeout(&w->done,
						    GAUDI_FW_FALLBACK_TIMEOUT_S * HZ);
	if (left > 0 && w->fw) {
		*out = w->fw;
		w->fw = NULL;
		ret = 0;
	} else {
		ret = left < 0 ? left : left ? -ENOENT : -ETIMEDOUT;
	}
	gaudi_fw_wait_put(w);
	return ret;
}

/* Fetch one image; a missing or malformed file is a clear error. */
static int gaudi_fw_request(struct gaudi_device *gdev, const char *name,
			    const struct firmware **out)
{
	const struct firmware *f;
	int ret;

	ret = firmware_request_nowarn(&f, name, &gdev->pdev->dev);
	if (ret == -ENOENT && gaudi_fw_fallback)
		ret = gaudi_fw_request_fallback(gdev, name, &f);
	if (ret) {
		gaudi_err(gdev, "firmware file %s not available (in /lib/firmware): %d\n",
			  name, ret);
		return ret;
	}
	if (!f->size || f->size % 4 || f->size > GAUDI_FW_FILE_MAX) {
		gaudi_err(gdev, "firmware file %s is malformed: %zu bytes (must be a non-zero multiple of 4, at most %llu)\n",
			  name, f->size, GAUDI_FW_FILE_MAX);
		release_firmware(f);
		return -EINVAL;
	}
	*out = f;
	return 0;
}

int gaudi_fw_init(struct gaudi_device *gdev)
{
	return gaudi_fw_request(gdev, GAUDI_FW_DIR GAUDI_TPC_FILE, &gdev->fw.tpc);
}

void gaudi_fw_fini(struct gaudi_device *gdev)
{
	release_firmware(gdev->fw.tpc);
	gdev->fw.tpc = NULL;
}

static int gaudi_fw_copy(struct gaudi_device *gdev, const char *name,
			 void __iomem *dst)
{
	const struct firmware *f;
	int ret;

	ret = gaudi_fw_request(gdev, name, &f);
	if (ret)
		return ret;
	memcpy_toio(dst, f->data, f->size);
	/* Read back one word so the posted writes reach the device. */
	(void)readl(dst);
	gaudi_dbg(gdev, FW, "%s: %zu bytes copied\n", name, f->size);
	release_firmware(f);
	return 0;
}

static int gaudi_fw_load_boot_fit(struct gaudi_device *gdev)
{
	u32 val;
	int ret;

	ret = gaudi_fw_copy(gdev, GAUDI_FW_DIR GAUDI_BOOT_FIT_FILE,
			    gdev->pci.sram + GAUDI_BOOT_FIT_SRAM_OFFSET);
	if (ret)
		return ret;

	WREG32(gdev, mmCPU_CMD_STATUS_TO_HOST, 0);
	WREG32(gdev, mmKMD_MSG_TO_CPU, KMD_MSG_FIT_RDY);
	ret = gaudi_poll_reg(gdev, mmCPU_CMD_STATUS_TO_HOST, val,
			     val == CPU_MSG_OK, GAUDI_POLL_US,
			     GAUDI_BOOT_FIT_TIMEOUT_US);
	WREG32(gdev, mmKMD_MSG_TO_CPU, KMD_MSG_NA);
	if (ret) {
		val = RREG32(gdev, mmCPU_BOOT_STATUS);
		if (val == CPU_BOOT_STATUS_FIT_CORRUPTED)
			gaudi_err(gdev, "firmware image %s rejected by the device: FIT corrupted\n",
				  GAUDI_BOOT_FIT_FILE);
		else
			gaudi_err(gdev, "device CPU did not acknowledge the boot-fit within %u s\n",
				  GAUDI_BOOT_FIT_TIMEOUT_S);
		gaudi_fw_report_state(gdev);
		return -EIO;
	}
	return 0;
}

static bool gaudi_fw_boot_done(u32 status)
{
	return status == CPU_BOOT_STATUS_SRAM_AVAIL ||
	       status == CPU_BOOT_STATUS_FIT_CORRUPTED;
}

static int gaudi_fw_load_fit(struct gaudi_device *gdev)
{
	u32 status;
	int ret;

	ret = gaudi_fw_copy(gdev, GAUDI_FW_DIR GAUDI_FIT_FILE,
			    gdev->pci.hbm + GAUDI_FIT_HBM_OFFSET);
	if (ret)
		return ret;

	WREG32(gdev, mmKMD_MSG_TO_CPU, KMD_MSG_FIT_RDY);
	ret = gaudi_poll_reg(gdev, mmCPU_BOOT_STATUS, status,
			     gaudi_fw_boot_done(status), GAUDI_POLL_US,
			     GAUDI_FIT_TIMEOUT_US);
	WREG32(gdev, mmKMD_MSG_TO_CPU, KMD_MSG_NA);
	if (status == CPU_BOOT_STATUS_FIT_CORRUPTED) {
		gaudi_err(gdev, "firmware image %s rejected by the device: FIT corrupted\n",
			  GAUDI_FIT_FILE);
		gaudi_fw_check_errors(gdev);
		return -EIO;
	}
	if (ret) {
		gaudi_err(gdev, "device CPU did not start the firmware %s within %u s\n",
			  GAUDI_FIT_FILE, GAUDI_FIT_TIMEOUT_S);
		gaudi_fw_report_state(gdev);
		return -ETIMEDOUT;
	}
	return 0;
}

static bool gaudi_preboot_ready(u32 status)
{
	return status == CPU_BOOT_STATUS_NIC_FW_RDY ||
	       status == CPU_BOOT_STATUS_READY_TO_BOOT ||
	       status == CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT ||
	       status == CPU_BOOT_STATUS_SRAM_AVAIL;
}

static bool gaudi_boot_fit_ready(u32 status)
{
	return status == CPU_BOOT_STATUS_DRAM_RDY ||
	       status == CPU_BOOT_STATUS_SRAM_AVAIL ||
	       status == CPU_BOOT_STATUS_NIC_FW_RDY ||
	       status == CPU_BOOT_STATUS_READY_TO_BOOT ||
	       status == CPU_BOOT_STATUS_FIT_CORRUPTED;
}

int gaudi_fw_boot(struct gaudi_device *gdev)
{
	struct gaudi_fw *fw = &gdev->fw;
	ktime_t start = ktime_get();
	u32 status;
	int ret;

	if (fw->dev_sts0 & CPU_BOOT_DEV_STS0_FW_LD_COM_EN)
		gaudi_dbg(gdev, FW, "firmware offers the dynamic loader; using the static one\n");

	ret = gaudi_poll_reg(gdev, mmCPU_BOOT_STATUS, status,
			     gaudi_preboot_ready(status), GAUDI_POLL_US,
			     GAUDI_PREBOOT_TIMEOUT_US);
	if (ret) {
		gaudi_err(gdev, "device preboot firmware not ready within %u s\n",
			  GAUDI_PREBOOT_TIMEOUT_S);
		gaudi_fw_report_state(gdev);
		return -EIO;
	}
	ret = gaudi_fw_check_errors(gdev);
	if (ret)
		return ret;

	if (status == CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT) {
		ret = gaudi_fw_load_boot_fit(gdev);
		if (ret)
			return ret;
	}

	ret = gaudi_poll_reg(gdev, mmCPU_BOOT_STATUS, status,
			     gaudi_boot_fit_ready(status), GAUDI_POLL_US,
			     GAUDI_BOOT_FIT_TIMEOUT_US);
	if (status == CPU_BOOT_STATUS_FIT_CORRUPTED) {
		gaudi_err(gdev, "firmware image %s rejected by the device: FIT corrupted\n",
			  GAUDI_BOOT_FIT_FILE);
		gaudi_fw_check_errors(gdev);
		return -EIO;
	}
	if (ret) {
		gaudi_err(gdev, "device boot-fit did not become ready to boot within %u s\n",
			  GAUDI_BOOT_FIT_TIMEOUT_S);
		gaudi_fw_report_state(gdev);
		return -EIO;
	}
	gaudi_fw_read_ver(gdev, mmUBOOT_VER_OFFSET, fw->uboot_ver, "u-boot");

	if (status != CPU_BOOT_STATUS_SRAM_AVAIL) {
		ret = gaudi_fw_load_fit(gdev);
		if (ret)
			return ret;
	}

	ret = gaudi_fw_check_errors(gdev);
	if (ret)
		return ret;
	fw->boot_status = RREG32(gdev, mmCPU_BOOT_STATUS);
	gaudi_dbg(gdev, FW, "firmware running after %lld ms: %s\n",
		  ktime_ms_delta(ktime_get(), start), fw->uboot_ver);
	return 0;
}
