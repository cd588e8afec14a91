// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: sysfs attributes of the PCI device, with upstream habanalabs'
 * names and meanings (Documentation/ABI/testing/sysfs-driver-gaudi).
 * Attributes that ask the device CPU go through gaudi_hw_enter(), so they
 * fail with -EIO while the device is in reset and -ENODEV once unplugged.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>
#include <linux/habanalabs/cpucp_if.h>

#include "gaudi_cpucp.h"
#include "gaudi_hw.h"
#include "gaudi_reset.h"
#include "gaudi_sysfs.h"
#include "gaudi_types.h"

#define GAUDI_EEPROM_MAX_SIZE	4096
#define GAUDI_CLK_PLL		HL_GAUDI_MME_PLL

static struct gaudi_device *dev_to_gaudi(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/* One CPU-CP request on behalf of a sysfs reader or writer. */
static int gaudi_sysfs_cpucp(struct gaudi_device *gdev, u32 opcode, u64 value,
			     u32 index, u64 *result)
{
	CLASS(gaudi_hw, hw)(gdev);

	if (hw.ret)
		return hw.ret;
	return gaudi_cpucp_simple(gdev, opcode, value, index, result);
}

static ssize_t device_type_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "GAUDI\n");
}
static DEVICE_ATTR_RO(device_type);

static ssize_t status_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  gaudi_status_str(READ_ONCE(dev_to_gaudi(dev)->status)));
}
static DEVICE_ATTR_RO(status);

static ssize_t pci_addr_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", pci_name(dev_to_gaudi(dev)->pdev));
}
static DEVICE_ATTR_RO(pci_addr);

static ssize_t module_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  le32_to_cpu(dev_to_gaudi(dev)->cpucp.info->card_location));
}
static DEVICE_ATTR_RO(module_id);

static ssize_t info_str_show(struct device *dev, struct device_attribute *attr,
			     char *buf);

/* Version strings of the CPU-CP info block. */
static struct device_attribute dev_attr_armcp_ver = __ATTR(armcp_ver, 0444, info_str_show, NULL);
static struct device_attribute dev_attr_cpucp_ver = __ATTR(cpucp_ver, 0444, info_str_show, NULL);
static struct device_attribute dev_attr_armcp_kernel_ver =
	__ATTR(armcp_kernel_ver, 0444, info_str_show, NULL);
static struct device_attribute dev_attr_cpucp_kernel_ver =
	__ATTR(cpucp_kernel_ver, 0444, info_str_show, NULL);
static struct device_attribute dev_attr_fuse_ver = __ATTR(fuse_ver, 0444, info_str_show, NULL);
static struct device_attribute dev_attr_thermal_ver =
	__ATTR(thermal_ver, 0444, info_str_show, NULL);
static struct device_attribute dev_attr_fw_os_ver = __ATTR(fw_os_ver, 0444, info_str_show, NULL);

static ssize_t info_str_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	const struct cpucp_info *info = dev_to_gaudi(dev)->cpucp.info;
	const char *s;

	if (attr == &dev_attr_armcp_ver || attr == &dev_attr_cpucp_ver)
		s = info->cpucp_version;
	else if (attr == &dev_attr_armcp_kernel_ver ||
		 attr == &dev_attr_cpucp_kernel_ver)
		s = info->kernel_version;
	else if (attr == &dev_attr_fuse_ver)
		s = info->fuse_version;
	else if (attr == &dev_attr_thermal_ver)
		s = info->thermal_version;
	else
		s = info->fw_os_version;
	return sysfs_emit(buf, "%s\n", s);
}

static ssize_t preboot_btl_ver_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_gaudi(dev)->fw.preboot_ver);
}
static DEVICE_ATTR_RO(preboot_btl_ver);

static ssize_t uboot_ver_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_gaudi(dev)->fw.uboot_ver);
}
static DEVICE_ATTR_RO(uboot_ver);

static ssize_t infineon_ver_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%#04x\n",
			  le32_to_cpu(dev_to_gaudi(dev)->cpucp.info->infineon_version));
}
static DEVICE_ATTR_RO(infineon_ver);

static ssize_t cpld_ver_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "0x%08x\n",
			  le32_to_cpu(dev_to_gaudi(dev)->cpucp.info->cpld_version));
}
static DEVICE_ATTR_RO(cpld_ver);

static ssize_t security_enabled_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_to_gaudi(dev)->fw.security_enabled);
}
static DEVICE_ATTR_RO(security_enabled);

static ssize_t max_power_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	u64 val;
	int ret;

	ret = gaudi_sysfs_cpucp(dev_to_gaudi(dev), CPUCP_PACKET_MAX_POWER_GET,
				0, 0, &val);
	if (ret)
		return ret;
	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t max_power_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	struct gaudi_device *gdev = dev_to_gaudi(dev);
	u64 val;
	int ret;

	ret = kstrtou64(buf, 0, &val);
	if (ret)
		return ret;
	ret = gaudi_sysfs_cpucp(gdev, CPUCP_PACKET_MAX_POWER_SET, val, 0, NULL);
	if (ret)
		return ret;
	gdev->cpucp.max_power_mw = val;	/* kept across resets */
	return count;
}
static DEVICE_ATTR_RW(max_power);

static ssize_t clk_max_freq_mhz_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	u64 val;
	int ret;

	ret = gaudi_sysfs_cpucp(dev_to_gaudi(dev), CPUCP_PACKET_FREQUENCY_GET,
				0, GAUDI_CLK_PLL, &val);
	if (ret)
		return ret;
	return sysfs_emit(buf, "%llu\n", div_u64(val, 1000 * 1000));
}

static ssize_t clk_max_freq_mhz_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	u64 mhz;
	int ret;

	ret = kstrtou64(buf, 0, &mhz);
	if (ret)
		return ret;
	if (!mhz || mhz > 100000)
		return -EINVAL;
	ret = gaudi_sysfs_cpucp(dev_to_gaudi(dev), CPUCP_PACKET_FREQUENCY_SET,
				mhz * 1000 * 1000, GAUDI_CLK_PLL, NULL);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(clk_max_freq_mhz);

static ssize_t clk_cur_freq_mhz_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	u64 val;
	int ret;

	ret = gaudi_sysfs_cpucp(dev_to_gaudi(dev),
				CPUCP_PACKET_FREQUENCY_CURR_GET, 0,
				GAUDI_CLK_PLL, &val);
	if (ret)
		return ret;
	return sysfs_emit(buf, "%llu\n", div_u64(val, 1000 * 1000));
}
static DEVICE_ATTR_RO(clk_cur_freq_mhz);

static ssize_t hard_reset_store(struct device *dev,
				struct device_attribute *attr, const char *buf,
				size_t count)
{
	unsigned long val;
	int ret;

	ret = kstrtoul(buf, 0, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;
	ret = gaudi_reset_now(dev_to_gaudi(dev), "requested through sysfs");
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(hard_reset);

static ssize_t hard_reset_cnt_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(dev_to_gaudi(dev)->reset.hard_reset_cnt));
}
static DEVICE_ATTR_RO(hard_reset_cnt);

static ssize_t soft_reset_cnt_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(dev_to_gaudi(dev)->reset.soft_reset_cnt));
}
static DEVICE_ATTR_RO(soft_reset_cnt);

static ssize_t eeprom_read(struct file *filp, struct kobject *kobj,
			   struct bin_attribute *attr, char *buf,
			   loff_t off, size_t count)
{
	struct gaudi_device *gdev = dev_to_gaudi(kobj_to_dev(kobj));
	struct cpucp_packet pkt = {};
	u64 addr, len = 0;
	void *data;
	int idx, ret;

	if (off >= GAUDI_EEPROM_MAX_SIZE)
		return 0;
	count = min_t(size_t, count, GAUDI_EEPROM_MAX_SIZE - off);

	ret = gaudi_hw_enter(gdev, &idx);
	if (ret)
		return ret;
	data = gaudi_cpucp_buf_alloc(gdev, GAUDI_EEPROM_MAX_SIZE, &addr);
	if (!data) {
		ret = -ENOMEM;
		goto out_exit;
	}
	pkt.ctl = cpu_to_le32(CPUCP_PACKET_EEPROM_DATA_GET <<
			      CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.addr = cpu_to_le64(addr);
	pkt.data_max_size = cpu_to_le32(GAUDI_EEPROM_MAX_SIZE);
	ret = gaudi_cpucp_send(gdev, &pkt, GAUDI_CPUCP_INFO_TIMEOUT_US, &len);
	if (!ret) {
		len = min_t(u64, len, GAUDI_EEPROM_MAX_SIZE);
		count = off < len ? min_t(size_t, count, len - off) : 0;
		memcpy(buf, data + off, count);
		ret = count;
	}
	gaudi_cpucp_buf_free(gdev, GAUDI_EEPROM_MAX_SIZE, data);
out_exit:
	gaudi_hw_exit(gdev, idx);
	return ret;
}

static struct bin_attribute bin_attr_eeprom = {
	.attr = { .name = "eeprom", .mode = 0444 },
	.size = GAUDI_EEPROM_MAX_SIZE,
	.read = eeprom_read,
};

static struct attribute *gaudi_dev_attrs[] = {
	&dev_attr_device_type.attr,
	&dev_attr_status.attr,
	&dev_attr_pci_addr.attr,
	&dev_attr_module_id.attr,
	&dev_attr_armcp_ver.attr,
	&dev_attr_cpucp_ver.attr,
	&dev_attr_armcp_kernel_ver.attr,
	&dev_attr_cpucp_kernel_ver.attr,
	&dev_attr_preboot_btl_ver.attr,
	&dev_attr_uboot_ver.attr,
	&dev_attr_fuse_ver.attr,
	&dev_attr_thermal_ver.attr,
	&dev_attr_infineon_ver.attr,
	&dev_attr_fw_os_ver.attr,
	&dev_attr_cpld_ver.attr,
	&dev_attr_security_enabled.attr,
	&dev_attr_max_power.attr,
	&dev_attr_clk_max_freq_mhz.attr,
	&dev_attr_clk_cur_freq_mhz.attr,
	&dev_attr_hard_reset.attr,
	&dev_attr_hard_reset_cnt.attr,
	&dev_attr_soft_reset_cnt.attr,
	NULL,
};

static struct bin_attribute *gaudi_dev_bin_attrs[] = {
	&bin_attr_eeprom,
	NULL,
};

static const struct attribute_group gaudi_dev_group = {
	.attrs = gaudi_dev_attrs,
	.bin_attrs = gaudi_dev_bin_attrs,
};

const struct attribute_group *gaudi_sysfs_groups[] = {
	&gaudi_dev_group,
	NULL,
};
