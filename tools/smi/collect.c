// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: collection.  Fills struct card from libgaudi (the control
 * node's INFO ioctl, gaudi.ko's owner query) and sysfs (status, firmware
 * versions, power cap, reset counters, hwmon; the NIC ports in nic.c),
 * reading only what the view needs (N_* bits).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smi.h"

/* ---- firmware versions (sysfs names) ----------------------------------- */

const struct fw_attr fw_attrs[NUM_FW] = {
	{ "cpucp_ver", "cpucp", "CPU-CP" },
	{ "cpucp_kernel_ver", "cpucp_kernel", "CPU-CP kernel" },
	{ "uboot_ver", "uboot", "U-Boot" },
	{ "preboot_btl_ver", "preboot", "Preboot" },
	{ "fw_os_ver", "os", "Firmware OS" },
	{ "fuse_ver", "fuse", "Fuse" },
	{ "thermal_ver", "thermal", "Thermal table" },
	{ "cpld_ver", "cpld", "CPLD" },
	{ "infineon_ver", "infineon", "Voltage regulator" },
};

/* ---- event classes (upstream's gaudi_async_event_id numbering) --------- */

const char *const evc_names[EVC_NUM] = {
	"other", "ecc_corrected", "ecc_uncorrected", "fatal"
};

static const struct { uint16_t lo, hi; uint8_t cls; } ev_table[] = {
	{ 32, 32, EVC_SERR }, { 33, 33, EVC_DERR }, { 34, 34, EVC_SERR },
	{ 35, 35, EVC_DERR }, { 36, 36, EVC_SERR }, { 37, 37, EVC_DERR },
	{ 38, 45, EVC_SERR }, { 46, 53, EVC_DERR },
	/* 54..69: MME ECC, corrected on even ids, uncorrectable on odd */
	{ 70, 77, EVC_SERR }, { 78, 85, EVC_DERR }, { 86, 86, EVC_SERR },
	{ 87, 87, EVC_DERR }, { 88, 89, EVC_SERR }, { 90, 91, EVC_DERR },
	{ 92, 123, EVC_SERR }, { 124, 155, EVC_DERR },
	{ 156, 160, EVC_SERR }, { 166, 170, EVC_DERR },
	{ 176, 179, EVC_SERR }, { 180, 183, EVC_DERR },
	{ 184, 184, EVC_FATAL }, { 185, 188, EVC_SERR },
	{ 189, 192, EVC_DERR }, { 193, 193, EVC_SERR },
	{ 194, 194, EVC_DERR }, { 217, 218, EVC_FATAL },
	{ 239, 256, EVC_FATAL }, { 395, 408, EVC_FATAL },
	{ 645, 647, EVC_FATAL },
};

int ev_class(unsigned int id)
{
	size_t i;

	if (id >= 54 && id <= 69)
		return (id & 1) ? EVC_DERR : EVC_SERR;
	for (i = 0; i < ARRAY_LEN(ev_table); i++)
		if (id >= ev_table[i].lo && id <= ev_table[i].hi)
			return ev_table[i].cls;
	return EVC_OTHER;
}

/* ---- sysfs helpers ----------------------------------------------------- */

void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

void str_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* Read a small text attribute relative to @dirfd; -errno on failure. */
int read_at(int dirfd, const char *name, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	chomp(buf);
	return 0;
}

int64_t read_int_at(int dirfd, const char *name)
{
	char buf[64], *end;
	long long v;

	if (read_at(dirfd, name, buf, sizeof(buf)))
		return NA;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || end == buf)
		return NA;
	return v;
}

int write_at(int dirfd, const char *name, const char *val)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	return 0;
}

/* ---- collection -------------------------------------------------------- */

DIR *opendir_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

static void find_hwmon(struct card *c)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	c->hwmon[0] = '\0';
	d = opendir_at(c->sysfd, "hwmon");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "hwmon", 5))
			continue;
		snprintf(path, sizeof(path), "%s/hwmon/%s",
			 gaudi_card_syspath(c->gc), de->d_name);
		snprintf(c->hwmon, sizeof(c->hwmon), "%s", path);
		break;
	}
	closedir(d);
}

static void collect_hwmon(struct card *c)
{
	char name[48];
	unsigned int i;
	int fd;

	find_hwmon(c);
	if (!c->hwmon[0])
		return;
	fd = open(c->hwmon, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (i = 1; i <= MAX_TEMPS; i++) {
		struct temp *t = &c->temps[c->ntemps];
		int64_t v;

		snprintf(name, sizeof(name), "temp%u_input", i);
		v = read_int_at(fd, name);
		if (v == NA)
			continue;
		t->mc = v;
		snprintf(name, sizeof(name), "temp%u_max", i);
		t->max_mc = read_int_at(fd, name);
		snprintf(name, sizeof(name), "temp%u_crit", i);
		t->crit_mc = read_int_at(fd, name);
		snprintf(name, sizeof(name), "temp%u_label", i);
		if (read_at(fd, name, t->label, sizeof(t->label)))
			snprintf(t->label, sizeof(t->label), "temp%u", i);
		c->ntemps++;
	}
	c->volt_mv = read_int_at(fd, "in0_input");
	c->curr_ma = read_int_at(fd, "curr1_input");
	if (c->power_mw == NA) {
		int64_t uw = read_int_at(fd, "power1_input");

		if (uw != NA)
			c->power_mw = uw / 1000;
	}
	if (!c->name[0])
		read_at(fd, "name", c->name, sizeof(c->name));
	close(fd);
}

static void sum_events(const uint32_t *ev, int64_t *out)
{
	unsigned int i;

	for (i = 0; i < EVC_NUM; i++)
		out[i] = 0;
	for (i = 0; i < NUM_EVENTS; i++)
		out[ev_class(i)] += ev[i];
}

/* The status; true when operational (hardware queries are skipped else). */
static bool collect_status(struct card *c)
{
	if (read_at(c->sysfd, "status", c->status, sizeof(c->status)) &&
	    c->dev) {
		uint32_t st;

		if (!gaudi_info_device_status(c->dev, &st)) {
			static const char *const names[] = {
				"operational", "in reset", "malfunction",
				"needs reset", "in device creation", "in reset"
			};
			snprintf(c->status, sizeof(c->status), "%s",
				 st < 6 ? names[st] : "unknown");
		}
	}
	if (!c->status[0])
		snprintf(c->status, sizeof(c->status), "unknown");
	/* Upstream capitalizes ("Operational", "Needs Reset"). */
	str_lower(c->status);
	return !strcmp(c->status, "operational");
}

static void collect_fw(struct card *c)
{
	unsigned int i;

	for (i = 0; i < NUM_FW; i++)
		c->fw_have[i] = !read_at(c->sysfd, fw_attrs[i].attr,
					 c->fw[i], FWV_LEN);
	/* Upstream's older name of the CPU-CP kernel version. */
	if (!c->fw_have[1])
		c->fw_have[1] = !read_at(c->sysfd, "armcp_kernel_ver",
					 c->fw[1], FWV_LEN);
}

static void collect_sysfs(struct card *c)
{
	c->cap_mw = read_int_at(c->sysfd, "max_power");
	c->security = read_int_at(c->sysfd, "security_enabled");
	c->device_id = read_int_at(c->sysfd, "device");
	c->revision = read_int_at(c->sysfd, "revision");
	c->reset_hard = read_int_at(c->sysfd, "hard_reset_cnt");
	c->reset_soft = read_int_at(c->sysfd, "soft_reset_cnt");
	if (c->clk_cur == NA)
		c->clk_cur = read_int_at(c->sysfd, "clk_cur_freq_mhz");
	if (c->clk_max == NA)
		c->clk_max = read_int_at(c->sysfd, "clk_max_freq_mhz");
}

/* The control node's answers that hold in any status. */
static void collect_ctrl(struct card *c, unsigned int need)
{
	static uint32_t ev[NUM_EVENTS];
	struct hl_info_hw_ip_info hw;
	struct hl_info_dram_usage du;
	struct hl_open_stats_info os;
	uint32_t a, b;

	if ((need & (N_HWIP | N_MEM | N_NIC)) &&
	    !gaudi_info_hw_ip(c->dev, &hw)) {
		size_t n = strnlen((const char *)hw.card_name,
				   sizeof(hw.card_name));

		if (n)
			snprintf(c->name, sizeof(c->name), "%.*s",
				 (int)n, (const char *)hw.card_name);
		c->mem_total = (int64_t)hw.dram_size;
		c->sram_size = hw.sram_size;
		c->tpc_mask = hw.tpc_enabled_mask;
		if (c->module_id < 0)
			c->module_id = hw.module_id;
		c->nic_mask = (int64_t)gaudi_hw_ip_nic_ports_mask(&hw);
		c->nic_ext_mask = (int64_t)gaudi_hw_ip_nic_ports_ext_mask(&hw);
	}
	if ((need & N_MEM) && !gaudi_info_dram_usage(c->dev, &du))
		c->mem_free = (int64_t)du.dram_free_mem;
	if ((need & N_RESET) && !gaudi_info_reset_count(c->dev, &a, &b)) {
		c->reset_hard = a;
		c->reset_soft = b;
	}
	if ((need & N_EVENTS) &&
	    !gaudi_info_hw_events(c->dev, false, ev, NUM_EVENTS))
		sum_events(ev, c->ev_reset);
	if ((need & N_EVENTS) &&
	    !gaudi_info_hw_events(c->dev, true, ev, NUM_EVENTS))
		sum_events(ev, c->ev_load);
	if (need & N_THROTTLE) {
		struct hl_info_clk_throttle thr;

		if (!gaudi_info(c->dev, HL_INFO_CLK_THROTTLE_REASON, 0, &thr,
				sizeof(thr)))
			c->throttle = thr.clk_throttling_reason;
	}
	if ((need & N_OWNER) && !gaudi_info_open_stats(c->dev, &os))
		c->open_counter = (int64_t)os.open_counter;
	if ((need & N_OWNER) && c->ext && !gaudi_owner(c->dev, &c->owner))
		c->owner_ok = true;
}

/* The control node's answers that need the card operational. */
static void collect_live(struct card *c, unsigned int need)
{
	struct hl_info_pci_counters pc;
	uint64_t u64;
	uint32_t a, b;

	if ((need & N_UTIL) && !gaudi_info_utilization(c->dev, 100, &a))
		c->util = a;
	/* Firmware units: microwatts, as hwmon's power1_input. */
	if ((need & N_POWER) && !gaudi_info_power(c->dev, &u64))
		c->power_mw = (int64_t)(u64 / 1000);
	if ((need & N_ENERGY) && !gaudi_info_energy(c->dev, &u64))
		c->energy_uj = (int64_t)u64;
	if ((need & N_CLK) && !gaudi_info_clk_rate(c->dev, &a, &b)) {
		c->clk_cur = a;
		c->clk_max = b;
	}
	/*
	 * Replaced rows: the first bytes of cpucp_hbm_row_replaced_rows_info
	 * (a little-endian u16 count; the size both drivers return).
	 */
	if (need & N_ROWS) {
		uint8_t rows[8] = { 0 };
		uint32_t pend = 0;

		if (!gaudi_info(c->dev, HL_INFO_DRAM_REPLACED_ROWS, 0, rows,
				sizeof(rows)))
			c->rows_replaced = rows[0] | rows[1] << 8;
		if (!gaudi_info(c->dev, HL_INFO_DRAM_PENDING_ROWS, 0, &pend,
				sizeof(pend)))
			c->rows_pending = pend;
	}
	if ((need & N_PCI) && !gaudi_info_pci_counters(c->dev, &pc)) {
		c->pci_rx = (int64_t)pc.rx_throughput;
		c->pci_tx = (int64_t)pc.tx_throughput;
		c->pci_replay = (int64_t)pc.replay_cnt;
	}
}

/* The time of this reading, as "YYYY/MM/DD HH:MM:SS.mmm" (local time). */
static void collect_time(struct card *c)
{
	struct timespec ts;
	struct tm tm;
	char buf[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y/%m/%d %H:%M:%S", &tm);
	snprintf(c->timestamp, sizeof(c->timestamp), "%.19s.%03u", buf,
		 (unsigned int)(ts.tv_nsec / 1000000) % 1000);
}

/* What @need asks of a card, cleared beforehand by card_clear(). */
void collect(struct card *c, unsigned int need)
{
	bool operational;

	c->module_id = gaudi_card_module_id(c->gc);
	operational = collect_status(c);
	if (need & N_FW)
		collect_fw(c);
	if (need & N_SYSFS)
		collect_sysfs(c);
	if (c->dev)
		collect_ctrl(c, need);
	if (c->dev && operational)
		collect_live(c, need);
	if ((need & N_HWMON) && (operational || !c->dev))
		collect_hwmon(c);
	if (need & N_NIC)
		nic_collect(c, c->sysfd);
	if (need & N_IDENT)
		ident_collect(c);
	collect_time(c);
	if (!c->name[0])
		snprintf(c->name, sizeof(c->name), "HL205");
}

/*
 * Open the control node once, for the views that need it (N_CTRL); the
 * first card that cannot be opened says why, once for all of them.
 */
void card_open_control(struct card *c, bool *warned)
{
	const char *cn;

	c->dev_err = gaudi_open_card(c->gc, GAUDI_OPEN_CONTROL, &c->dev);
	if (c->dev_err) {
		c->dev = NULL;
	} else {
		struct gaudi_caps caps;

		c->ext = !gaudi_query_caps(c->dev, &caps) &&
			 (caps.caps & GAUDI_CAPS_OWNER);
	}
	if (!c->dev_err || *warned)
		return;
	*warned = true;
	cn = gaudi_card_control_node(c->gc);
	if (ctrl_unreadable(c) && !strcmp(c->driver, "habanalabs"))
		err("card %u (%s): control node not readable: habanalabs creates /dev/accel/accel_controlD* mode 0600; run as root or add a udev rule (memory, utilization, events, owner shown as N/A)",
		    c->index, c->bus);
	else
		err("card %u (%s): cannot open the control node %s: %s (some values shown as N/A)",
		    c->index, c->bus, cn ? cn : "(none)",
		    gaudi_strerror(c->dev_err));
}

/* Forget what a previous repetition of the view read. */
void card_clear(struct card *c)
{
	unsigned int e;

	c->name[0] = '\0';
	c->status[0] = '\0';
	c->ntemps = 0;
	c->power_mw = c->cap_mw = c->energy_uj = NA;
	c->volt_mv = c->curr_ma = NA;
	c->mem_total = c->mem_free = c->util = NA;
	c->clk_cur = c->clk_max = NA;
	c->reset_hard = c->reset_soft = NA;
	c->pci_rx = c->pci_tx = c->pci_replay = NA;
	c->sram_size = c->tpc_mask = c->security = NA;
	c->device_id = c->revision = c->open_counter = NA;
	c->numa_node = c->throttle = c->rows_replaced = c->rows_pending = NA;
	c->serial[0] = c->uuid[0] = c->cpulist[0] = c->drv_version[0] = '\0';
	c->timestamp[0] = '\0';
	c->owner_ok = false;
	for (e = 0; e < EVC_NUM; e++)
		c->ev_reset[e] = c->ev_load[e] = NA;
	memset(c->fw_have, 0, sizeof(c->fw_have));
	nic_clear(c);
}
