// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: hwmon.  The channels come from the sensor table the firmware
 * returns in INFO_GET (struct cpucp_info.sensors: the kernel's hwmon type
 * and attribute bits per channel); readings and settings are CPU-CP
 * requests (*_GET / *_SET with the channel and the attribute).
 */
#include <linux/hwmon.h>
#include <linux/slab.h>
#include <linux/habanalabs/cpucp_if.h>

#include "gaudi_cpucp.h"
#include "gaudi_hw.h"
#include "gaudi_hwmon.h"
#include "gaudi_types.h"

#define GAUDI_DEFAULT_CARD_NAME	"HL205"

struct gaudi_hwmon {
	const struct hwmon_channel_info *infos[hwmon_max + 1];
	struct hwmon_channel_info info[hwmon_max];
	u32 *config[hwmon_max];
	struct hwmon_chip_info chip;
	char *name;
};

static int gaudi_hwmon_opcode(enum hwmon_sensor_types type, bool set)
{
	switch (type) {
	case hwmon_temp:
		return set ? CPUCP_PACKET_TEMPERATURE_SET :
			     CPUCP_PACKET_TEMPERATURE_GET;
	case hwmon_in:
		return set ? CPUCP_PACKET_VOLTAGE_SET : CPUCP_PACKET_VOLTAGE_GET;
	case hwmon_curr:
		return set ? CPUCP_PACKET_CURRENT_SET : CPUCP_PACKET_CURRENT_GET;
	case hwmon_fan:
		return set ? -EOPNOTSUPP : CPUCP_PACKET_FAN_SPEED_GET;
	case hwmon_pwm:
		return set ? CPUCP_PACKET_PWM_SET : CPUCP_PACKET_PWM_GET;
	case hwmon_power:
		return set ? CPUCP_PACKET_POWER_SET : CPUCP_PACKET_POWER_GET;
	default:
		return -EOPNOTSUPP;
	}
}

static int gaudi_hwmon_request(struct gaudi_device *gdev, int opcode,
			       u32 channel, u32 attr, u64 value, u64 *result)
{
	struct cpucp_packet pkt = {};
	int idx, ret;

	if (opcode < 0)
		return opcode;
	ret = gaudi_hw_enter(gdev, &idx);
	if (ret)
		return ret;
	pkt.ctl = cpu_to_le32((u32)opcode << CPUCP_PKT_CTL_OPCODE_SHIFT);
	pkt.sensor_index = cpu_to_le16(channel);
	pkt.type = cpu_to_le16(attr);
	pkt.value = cpu_to_le64(value);
	ret = gaudi_cpucp_send(gdev, &pkt, GAUDI_CPUCP_TIMEOUT_US, result);
	gaudi_hw_exit(gdev, idx);
	return ret;
}

static int gaudi_hwmon_read(struct device *dev, enum hwmon_sensor_types type,
			    u32 attr, int channel, long *val)
{
	u64 res;
	int ret;

	ret = gaudi_hwmon_request(dev_get_drvdata(dev),
				  gaudi_hwmon_opcode(type, false), channel,
				  attr, 0, &res);
	if (ret)
		return ret;
	*val = (long)res;
	return 0;
}

static int gaudi_hwmon_write(struct device *dev, enum hwmon_sensor_types type,
			     u32 attr, int channel, long val)
{
	return gaudi_hwmon_request(dev_get_drvdata(dev),
				   gaudi_hwmon_opcode(type, true), channel,
				   attr, val, NULL);
}

static umode_t gaudi_hwmon_is_visible(const void *data,
				      enum hwmon_sensor_types type, u32 attr,
				      int channel)
{
	switch (type) {
	case hwmon_temp:
		if (attr == hwmon_temp_offset)
			return 0644;
		break;
	case hwmon_in:
	case hwmon_curr:
		if (attr == hwmon_in_reset_history)
			return 0200;
		break;
	case hwmon_power:
		if (attr == hwmon_power_reset_history)
			return 0200;
		break;
	case hwmon_pwm:
		return 0644;
	default:
		break;
	}
	return 0444;
}

/*
 * Labels (lm-sensors shows them): the channels of gaudi-open's firmware
 * (firmware/src/fw-data.dts.in: die and board temperature, core voltage
 * and current, board power), in the firmware's order per type.  The
 * firmware does not name its channels; others go without a label.
 */
static const char *const gaudi_hwmon_labels[hwmon_max][2] = {
	[hwmon_temp] = { "ASIC die", "board" },
	[hwmon_in] = { "core" },
	[hwmon_curr] = { "core" },
	[hwmon_power] = { "board input" },
	[hwmon_fan] = { "fan" },
};

static int gaudi_hwmon_read_string(struct device *dev,
				   enum hwmon_sensor_types type, u32 attr,
				   int channel, const char **str)
{
	if (type >= hwmon_max || channel < 0 ||
	    channel >= ARRAY_SIZE(gaudi_hwmon_labels[0]) ||
	    !gaudi_hwmon_labels[type][channel])
		return -EOPNOTSUPP;
	*str = gaudi_hwmon_labels[type][channel];
	return 0;
}

/* The label attribute of channel @ch of @type, if it has a label. */
static u32 gaudi_hwmon_label_bit(enum hwmon_sensor_types type, unsigned int ch)
{
	if (ch >= ARRAY_SIZE(gaudi_hwmon_labels[0]) ||
	    !gaudi_hwmon_labels[type][ch])
		return 0;
	switch (type) {
	case hwmon_temp:
		return HWMON_T_LABEL;
	case hwmon_in:
		return HWMON_I_LABEL;
	case hwmon_curr:
		return HWMON_C_LABEL;
	case hwmon_power:
		return HWMON_P_LABEL;
	case hwmon_fan:
		return HWMON_F_LABEL;
	default:
		return 0;
	}
}

static const struct hwmon_ops gaudi_hwmon_ops = {
	.is_visible = gaudi_hwmon_is_visible,
	.read = gaudi_hwmon_read,
	.read_string = gaudi_hwmon_read_string,
	.write = gaudi_hwmon_write,
};

static void gaudi_hwmon_free(struct gaudi_hwmon *h)
{
	int t;

	for (t = 0; t < hwmon_max; t++)
		kfree(h->config[t]);
	kfree(h->name);
	kfree(h);
}

int gaudi_hwmon_init(struct gaudi_device *gdev)
{
	const struct cpucp_info *info = gdev->cpucp.info;
	unsigned int count[hwmon_max] = {}, used[hwmon_max] = {};
	struct gaudi_hwmon *h;
	const char *name;
	int i, t, n = 0, ret;
	u32 type;

	for (i = 0; i < CPUCP_MAX_SENSORS; i++) {
		type = le32_to_cpu(info->sensors[i].type);
		if (!info->sensors[i].flags)
			break;
		if (type < hwmon_max && type != hwmon_chip)
			count[type]++;
	}

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	for (t = 0; t < hwmon_max; t++) {
		if (!count[t])
			continue;
		h->config[t] = kcalloc(count[t] + 1, sizeof(u32), GFP_KERNEL);
		if (!h->config[t]) {
			ret = -ENOMEM;
			goto err_free;
		}
		h->info[t].type = t;
		h->info[t].config = h->config[t];
		h->infos[n++] = &h->info[t];
	}
	for (i = 0; i < CPUCP_MAX_SENSORS; i++) {
		type = le32_to_cpu(info->sensors[i].type);
		if (!info->sensors[i].flags)
			break;
		if (type < hwmon_max && h->config[type]) {
			h->config[type][used[type]] =
				le32_to_cpu(info->sensors[i].flags) |
				gaudi_hwmon_label_bit(type, used[type]);
			used[type]++;
		}
	}
	if (!n) {
		gaudi_err(gdev, "firmware lists no sensors: no hwmon device\n");
		ret = -EINVAL;
		goto err_free;
	}

	name = info->card_name[0] ? info->card_name : GAUDI_DEFAULT_CARD_NAME;
	h->name = hwmon_sanitize_name(name);
	if (IS_ERR(h->name)) {
		ret = PTR_ERR(h->name);
		h->name = NULL;
		goto err_free;
	}
	h->chip.ops = &gaudi_hwmon_ops;
	h->chip.info = h->infos;

	gdev->hwmon = hwmon_device_register_with_info(&gdev->pdev->dev, h->name,
						      gdev, &h->chip, NULL);
	if (IS_ERR(gdev->hwmon)) {
		ret = PTR_ERR(gdev->hwmon);
		gdev->hwmon = NULL;
		goto err_free;
	}
	gdev->hwmon_chans = h;
	return 0;

err_free:
	gaudi_hwmon_free(h);
	return ret;
}

void gaudi_hwmon_fini(struct gaudi_device *gdev)
{
	if (gdev->hwmon)
		hwmon_device_unregister(gdev->hwmon);
	gdev->hwmon = NULL;
	if (gdev->hwmon_chans)
		gaudi_hwmon_free(gdev->hwmon_chans);
	gdev->hwmon_chans = NULL;
}
