// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi - system management interface for Habana Gaudi 1 cards.
 *
 * Reads each card through libgaudi (discovery, the control node's INFO
 * ioctl, gaudi.ko's owner query) and sysfs (status, firmware versions, power
 * cap, reset counters, hwmon), and the processes holding cards from
 * /proc/<pid>/fd and DRM fdinfo.  Works on gaudi.ko and on upstream's
 * habanalabs; see gaudi-smi(1) for the options, the fields and the exit
 * codes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gaudi/gaudi.h>

#include "gaudi1/boot.h"
#include "gaudi1/events.h"

#define SMI_VERSION	"0.1.0"

/* Exit codes (documented in gaudi-smi.1). */
enum {
	EX_OK = 0,
	EX_FAIL = 1,		/* an operation or query failed */
	EX_USAGE = 2,
	EX_NODEV = 3,		/* no card, driver not loaded, no such card */
	EX_PERM = 4,		/* needs root / node not accessible */
	EX_DEGRADED = 5,	/* --health: a card has warnings */
	EX_UNHEALTHY = 6,	/* --health: a card failed a check */
};

#define NA		INT64_MIN
#define MAX_TEMPS	8
#define NUM_EVENTS	1024	/* buffer, room for every event id */
_Static_assert(NUM_EVENTS >= GAUDI_EVENT_SIZE, "NUM_EVENTS too small");
#define FWV_LEN		GAUDI_FW_VER_LEN

/* ---- firmware versions (sysfs names) ------------------------------------ */

static const struct {
	const char *attr, *key, *label;
} fw_attrs[] = {
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
#define NUM_FW	(sizeof(fw_attrs) / sizeof(fw_attrs[0]))

/* ---- event classes (upstream's gaudi_async_event_id numbering) ---------- */

enum ev_class { EVC_OTHER, EVC_SERR, EVC_DERR, EVC_FATAL, EVC_NUM };
static const char *const evc_names[EVC_NUM] = {
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

static int ev_class(unsigned int id)
{
	size_t i;

	if (id >= 54 && id <= 69)
		return (id & 1) ? EVC_DERR : EVC_SERR;
	for (i = 0; i < sizeof(ev_table) / sizeof(ev_table[0]); i++)
		if (id >= ev_table[i].lo && id <= ev_table[i].hi)
			return ev_table[i].cls;
	return EVC_OTHER;
}

/* ---- per-card state ------------------------------------------------------ */

enum health { H_OK, H_WARN, H_FAIL };
static const char *const health_names[] = { "OK", "WARN", "FAIL" };

struct temp {
	char label[24];
	int64_t mc, max_mc, crit_mc;	/* millidegrees C */
};

struct card {
	unsigned int index;
	const struct gaudi_card *gc;
	char bus[16];
	const char *driver;
	int sysfd;			/* the PCI device's sysfs folder */
	char hwmon[PATH_MAX];

	struct gaudi_dev *dev;		/* control node */
	int dev_err;			/* why dev is NULL */
	bool ext;			/* gaudi.ko extensions */

	char status[32];
	char name[32];
	int64_t module_id;
	char fw[NUM_FW][FWV_LEN];
	bool fw_have[NUM_FW];
	struct temp temps[MAX_TEMPS];
	unsigned int ntemps;
	int64_t power_mw, cap_mw, energy_uj, volt_mv, curr_ma;
	int64_t mem_total, mem_free, util;
	int64_t clk_cur, clk_max;
	int64_t reset_hard, reset_soft;
	int64_t ev_reset[EVC_NUM], ev_load[EVC_NUM];
	int64_t pci_rx, pci_tx, pci_replay;
	int64_t sram_size, tpc_mask, security, device_id, revision;
	int64_t open_counter;
	struct gaudi_owner owner;
	bool owner_ok;
	char nic[256];

	enum health health;
	char why[256];
};

/* What a view needs (bits), so that a -Q of two fields stays cheap. */
enum {
	N_SYSFS = 1 << 0, N_HWMON = 1 << 1, N_HWIP = 1 << 2, N_MEM = 1 << 3,
	N_UTIL = 1 << 4, N_POWER = 1 << 5, N_ENERGY = 1 << 6, N_CLK = 1 << 7,
	N_RESET = 1 << 8, N_EVENTS = 1 << 9, N_PCI = 1 << 10,
	N_OWNER = 1 << 11, N_NIC = 1 << 12, N_FW = 1 << 13,
	N_ALL = (1 << 14) - 1,
};

/* ---- options ------------------------------------------------------------- */

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

static struct {
	const char *prog;
	enum fmt fmt;
	bool noheader, nounits;
	bool utf8;
	int verbose;
} opt = { .prog = "gaudi-smi" };

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", opt.prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- small helpers ------------------------------------------------------- */

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* Read a small text attribute relative to @dirfd; -errno on failure. */
static int read_at(int dirfd, const char *name, char *buf, size_t len)
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

static int64_t read_int_at(int dirfd, const char *name)
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

static int write_at(int dirfd, const char *name, const char *val)
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

/* ---- collection ------------------------------------------------------------ */

/* Directory @name below the open directory @dirfd, or NULL. */
static DIR *opendir_at(int dirfd, const char *name)
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

/* Network interfaces whose device is this card (a NIC driver bound). */
static void collect_nic(struct card *c)
{
	struct dirent *de;
	size_t len = 0;
	DIR *d;

	c->nic[0] = '\0';
	d = opendir_at(c->sysfd, "net");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		len += snprintf(c->nic + len, sizeof(c->nic) - len, "%s%s",
				len ? " " : "", de->d_name);
		if (len >= sizeof(c->nic))
			break;
	}
	closedir(d);
}

static void sum_events(const uint32_t *ev, int64_t *out)
{
	unsigned int i;

	for (i = 0; i < EVC_NUM; i++)
		out[i] = 0;
	for (i = 0; i < NUM_EVENTS; i++)
		out[ev_class(i)] += ev[i];
}

static void collect(struct card *c, unsigned int need)
{
	static uint32_t ev[NUM_EVENTS];
	bool operational;
	unsigned int i;

	c->module_id = gaudi_card_module_id(c->gc);
	/* Status first: hardware queries are skipped while not operational. */
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
	for (i = 0; c->status[i]; i++)
		c->status[i] = (char)tolower((unsigned char)c->status[i]);
	operational = !strcmp(c->status, "operational");

	if (need & N_FW) {
		for (i = 0; i < NUM_FW; i++)
			c->fw_have[i] = !read_at(c->sysfd, fw_attrs[i].attr,
						 c->fw[i], FWV_LEN);
		/* Upstream's older name of the CPU-CP kernel version. */
		if (!c->fw_have[1])
			c->fw_have[1] = !read_at(c->sysfd, "armcp_kernel_ver",
						 c->fw[1], FWV_LEN);
	}
	if (need & N_SYSFS) {
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
	if (c->dev) {
		struct hl_info_hw_ip_info hw;
		struct hl_info_dram_usage du;
		struct hl_info_pci_counters pc;
		struct hl_open_stats_info os;
		uint64_t u64;
		uint32_t a, b;

		if ((need & (N_HWIP | N_MEM)) && !gaudi_info_hw_ip(c->dev, &hw)) {
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
		if ((need & N_OWNER) && !gaudi_info_open_stats(c->dev, &os))
			c->open_counter = (int64_t)os.open_counter;
		if ((need & N_OWNER) && c->ext &&
		    !gaudi_owner(c->dev, &c->owner))
			c->owner_ok = true;
		if (operational) {
			if ((need & N_UTIL) &&
			    !gaudi_info_utilization(c->dev, 100, &a))
				c->util = a;
			/* Firmware units: microwatts, as hwmon's power1_input. */
			if ((need & N_POWER) && !gaudi_info_power(c->dev, &u64))
				c->power_mw = (int64_t)(u64 / 1000);
			if ((need & N_ENERGY) &&
			    !gaudi_info_energy(c->dev, &u64))
				c->energy_uj = (int64_t)u64;
			if ((need & N_CLK) &&
			    !gaudi_info_clk_rate(c->dev, &a, &b)) {
				c->clk_cur = a;
				c->clk_max = b;
			}
			if ((need & N_PCI) &&
			    !gaudi_info_pci_counters(c->dev, &pc)) {
				c->pci_rx = (int64_t)pc.rx_throughput;
				c->pci_tx = (int64_t)pc.tx_throughput;
				c->pci_replay = (int64_t)pc.replay_cnt;
			}
		}
	}
	if ((need & N_HWMON) && (operational || !c->dev))
		collect_hwmon(c);
	if (need & N_NIC)
		collect_nic(c);
	if (!c->name[0])
		snprintf(c->name, sizeof(c->name), "HL205");
}

/* ---- health -------------------------------------------------------------- */

#define RESET_WARN	3	/* hard resets since load that make a warning */

static void add_why(struct card *c, enum health h, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_why(struct card *c, enum health h, const char *fmt, ...)
{
	size_t len = strlen(c->why);
	va_list ap;

	if (h > c->health)
		c->health = h;
	if (len && len < sizeof(c->why) - 2)
		len += snprintf(c->why + len, sizeof(c->why) - len, "; ");
	if (len >= sizeof(c->why))
		return;
	va_start(ap, fmt);
	vsnprintf(c->why + len, sizeof(c->why) - len, fmt, ap);
	va_end(ap);
}

/*
 * Whether the control node exists but this user may not open it: upstream's
 * are 0600 and libgaudi cannot even pair them with their card without read
 * access.
 */
static bool ctrl_unreadable(const struct card *c)
{
	return c->dev_err == -EACCES || c->dev_err == -EPERM ||
	       (!gaudi_card_control_node(c->gc) && geteuid() != 0 &&
		!strcmp(c->driver, "habanalabs"));
}

static void judge(struct card *c)
{
	unsigned int i;

	c->health = H_OK;
	c->why[0] = '\0';
	if (strcmp(c->status, "operational"))
		add_why(c, H_FAIL, "status %s", c->status);
	for (i = 0; i < c->ntemps; i++) {
		const struct temp *t = &c->temps[i];

		if (t->crit_mc != NA && t->mc >= t->crit_mc)
			add_why(c, H_FAIL, "%s %lld C at or above critical %lld C",
				t->label, (long long)(t->mc / 1000),
				(long long)(t->crit_mc / 1000));
		else if (t->max_mc != NA && t->mc >= t->max_mc)
			add_why(c, H_WARN, "%s %lld C at or above limit %lld C",
				t->label, (long long)(t->mc / 1000),
				(long long)(t->max_mc / 1000));
	}
	if (c->ev_reset[EVC_DERR] > 0)
		add_why(c, H_FAIL, "%lld uncorrectable ECC events since the last reset",
			(long long)c->ev_reset[EVC_DERR]);
	if (c->ev_reset[EVC_FATAL] > 0)
		add_why(c, H_FAIL, "%lld fatal events since the last reset",
			(long long)c->ev_reset[EVC_FATAL]);
	if (c->ev_reset[EVC_SERR] > 0)
		add_why(c, H_WARN, "%lld corrected ECC events since the last reset",
			(long long)c->ev_reset[EVC_SERR]);
	if (c->reset_hard != NA && c->reset_hard >= RESET_WARN)
		add_why(c, H_WARN, "%lld hard resets since the driver loaded",
			(long long)c->reset_hard);
	if (!c->dev)
		add_why(c, H_OK, "events not checked: control node %s",
			ctrl_unreadable(c) ? "not readable" : "not available");
	if (!c->why[0]) {
		if (c->reset_hard > 0)
			snprintf(c->why, sizeof(c->why),
				 "operational, recovered from %lld hard resets",
				 (long long)c->reset_hard);
		else
			snprintf(c->why, sizeof(c->why), "operational");
	}
}

/* ---- processes (DRM fdinfo) ------------------------------------------------ */

struct proc {
	int pid;
	int card;		/* index into cards, -1 unknown */
	char comm[32];
	char node[32];
	int64_t client_id;
	int64_t mem;		/* bytes, sum of drm-total-* */
	bool owner;		/* gaudi-owner-* keys on this descriptor */
	const char *source;	/* "fdinfo", "fd", "owner query" */
};

static struct proc *procs;
static unsigned int nprocs, procs_cap;
static bool procs_partial;	/* some /proc/<pid>/fd were not readable */

static int64_t parse_mem(const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);

	while (*end == ' ' || *end == '\t')
		end++;
	if (!strncmp(end, "KiB", 3))
		n <<= 10;
	else if (!strncmp(end, "MiB", 3))
		n <<= 20;
	else if (!strncmp(end, "GiB", 3))
		n <<= 30;
	return n;
}

static void read_fdinfo(int pid, const char *fd, struct proc *p)
{
	char path[352], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		*v++ = '\0';
		while (*v == ' ' || *v == '\t')
			v++;
		chomp(v);
		if (!strcmp(line, "drm-client-id")) {
			p->client_id = strtoll(v, NULL, 10);
			p->source = "fdinfo";
		} else if (!strncmp(line, "drm-total-", 10)) {
			p->mem = (p->mem == NA ? 0 : p->mem) + parse_mem(v);
		} else if (!strncmp(line, "drm-memory-", 11) && p->mem == NA) {
			p->mem = parse_mem(v);
		} else if (!strcmp(line, "gaudi-owner-pid")) {
			p->owner = true;
		}
	}
	fclose(f);
}

static int card_of_node(struct card *cards, unsigned int n, const char *node)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const char *cn = gaudi_card_compute_node(cards[i].gc);

		if (cn && !strcmp(cn, node))
			return (int)i;
	}
	return -1;
}

static struct proc *proc_add(void)
{
	if (nprocs == procs_cap) {
		unsigned int cap = procs_cap ? procs_cap * 2 : 16;
		struct proc *p = realloc(procs, cap * sizeof(*p));

		if (!p)
			return NULL;
		procs = p;
		procs_cap = cap;
	}
	memset(&procs[nprocs], 0, sizeof(procs[0]));
	procs[nprocs].mem = NA;
	procs[nprocs].client_id = NA;
	return &procs[nprocs++];
}

static void read_comm(int pid, char *comm, size_t len)
{
	char path[48];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || read_at(fd, "comm", comm, len))
		snprintf(comm, len, "?");
	if (fd >= 0)
		close(fd);
}

static void scan_procs(struct card *cards, unsigned int ncards)
{
	struct dirent *pe;
	DIR *proc;
	unsigned int i;

	nprocs = 0;
	procs_partial = false;
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((pe = readdir(proc))) {
		char path[64], target[PATH_MAX];
		struct dirent *fe;
		int pid;
		DIR *fds;

		if (!isdigit((unsigned char)pe->d_name[0]))
			continue;
		pid = atoi(pe->d_name);
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds) {
			if (errno == EACCES)
				procs_partial = true;
			continue;
		}
		while ((fe = readdir(fds))) {
			char lpath[352];
			struct proc *p;
			ssize_t n;

			if (fe->d_name[0] == '.')
				continue;
			snprintf(lpath, sizeof(lpath), "%s/%s", path,
				 fe->d_name);
			n = readlink(lpath, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (strncmp(target, "/dev/accel/accel", 16) ||
			    !isdigit((unsigned char)target[16]))
				continue;
			p = proc_add();
			if (!p)
				break;
			p->pid = pid;
			p->card = card_of_node(cards, ncards, target);
			snprintf(p->node, sizeof(p->node), "%.31s", target + 11);
			p->source = "fd";
			read_comm(pid, p->comm, sizeof(p->comm));
			read_fdinfo(pid, fe->d_name, p);
		}
		closedir(fds);
	}
	closedir(proc);

	/* The driver's answer covers holders /proc does not show us. */
	for (i = 0; i < ncards; i++) {
		const struct gaudi_owner *o = &cards[i].owner;
		unsigned int j;
		struct proc *p;
		bool seen = false;

		if (!cards[i].owner_ok || o->state != GAUDI_OWNER_STATE_HELD)
			continue;
		for (j = 0; j < nprocs; j++)
			if (procs[j].card == (int)i &&
			    (procs[j].pid == o->pid || !o->pid))
				seen = true;
		if (seen)
			continue;
		p = proc_add();
		if (!p)
			break;
		p->pid = o->pid;
		p->card = (int)i;
		p->owner = true;
		snprintf(p->comm, sizeof(p->comm), "%.16s", o->comm);
		snprintf(p->node, sizeof(p->node), "%s",
			 gaudi_card_compute_node(cards[i].gc) ?
			 gaudi_card_compute_node(cards[i].gc) + 11 : "?");
		p->source = "owner query";
	}
}

/* ---- fields ------------------------------------------------------------------ */

enum vkind { V_NA, V_INT, V_NUM, V_STR };

struct val {
	enum vkind kind;
	int64_t i;
	double d;
	int prec;
	const char *s;
};

enum sect {
	S_PRODUCT, S_FIRMWARE, S_PCI, S_CLOCKS, S_TEMPERATURE, S_POWER,
	S_MEMORY, S_UTILIZATION, S_EVENTS, S_RESET, S_HEALTH, S_NIC, S_NUM
};

static const char *const sect_names[S_NUM] = {
	"product", "firmware", "pci", "clocks", "temperature", "power",
	"memory", "utilization", "events", "reset", "health", "nic"
};
static const char *const sect_titles[S_NUM] = {
	"Product", "Firmware versions", "PCI", "Clocks", "Temperature",
	"Power", "Memory", "Utilization", "Events / ECC", "Reset",
	"Health", "NIC ports"
};

enum fid {
	Q_INDEX, Q_NAME, Q_BUS, Q_MODULE, Q_DRIVER, Q_STATUS, Q_DEVID, Q_REV,
	Q_SECURITY, Q_TPC, Q_CTRL, Q_COMPUTE,
	Q_FW0,	/* + NUM_FW */
	Q_PCI_RX = Q_FW0 + NUM_FW, Q_PCI_TX, Q_PCI_REPLAY,
	Q_CLK_CUR, Q_CLK_MAX,
	Q_TEMP, Q_TEMP_LIMIT, Q_TEMP_CRIT,
	Q_POWER, Q_POWER_CAP, Q_ENERGY, Q_VOLT, Q_CURR,
	Q_MEM_TOTAL, Q_MEM_USED, Q_MEM_FREE, Q_SRAM,
	Q_UTIL,
	Q_EV_SERR, Q_EV_DERR, Q_EV_FATAL, Q_EV_TOTAL,
	Q_EV_SERR_R, Q_EV_DERR_R, Q_EV_FATAL_R,
	Q_RESET_HARD, Q_RESET_SOFT, Q_OPEN_COUNTER, Q_OWNER_PID,
	Q_OWNER_COMM,
	Q_HEALTH, Q_HEALTH_WHY,
	Q_NIC,
	Q_NUM
};

struct field {
	const char *name;	/* -Q name, also the JSON key */
	const char *label;	/* -q label */
	const char *unit;	/* "" none */
	enum sect sect;
	unsigned int need;
};

static struct field fields[Q_NUM] = {
	[Q_INDEX] = { "index", "Index", "", S_PRODUCT, 0 },
	[Q_NAME] = { "name", "Product name", "", S_PRODUCT, N_HWIP },
	[Q_BUS] = { "pci.bus_id", "Bus id", "", S_PCI, 0 },
	[Q_MODULE] = { "module_id", "Module id", "", S_PRODUCT, N_HWIP },
	[Q_DRIVER] = { "driver", "Driver", "", S_PRODUCT, 0 },
	[Q_STATUS] = { "status", "Status", "", S_PRODUCT, 0 },
	[Q_DEVID] = { "pci.device_id", "Device id", "", S_PCI, N_SYSFS },
	[Q_REV] = { "pci.revision", "Revision", "", S_PCI, N_SYSFS },
	[Q_SECURITY] = { "security_enabled", "Security enabled", "",
			 S_PRODUCT, N_SYSFS },
	[Q_TPC] = { "tpc_mask", "TPC enabled mask", "", S_PRODUCT, N_HWIP },
	[Q_CTRL] = { "node.control", "Control node", "", S_PRODUCT, 0 },
	[Q_COMPUTE] = { "node.compute", "Compute node", "", S_PRODUCT, 0 },
	[Q_PCI_RX] = { "pci.rx", "RX throughput", "KB/s", S_PCI, N_PCI },
	[Q_PCI_TX] = { "pci.tx", "TX throughput", "KB/s", S_PCI, N_PCI },
	[Q_PCI_REPLAY] = { "pci.replay", "Replay count", "", S_PCI, N_PCI },
	[Q_CLK_CUR] = { "clocks.mme", "MME clock", "MHz", S_CLOCKS,
			N_CLK | N_SYSFS },
	[Q_CLK_MAX] = { "clocks.max.mme", "MME clock max", "MHz", S_CLOCKS,
			N_CLK | N_SYSFS },
	[Q_TEMP] = { "temperature", "Temperature", "C", S_TEMPERATURE,
		     N_HWMON },
	[Q_TEMP_LIMIT] = { "temperature.limit", "Temperature limit", "C",
			   S_TEMPERATURE, N_HWMON },
	[Q_TEMP_CRIT] = { "temperature.critical", "Temperature critical",
			  "C", S_TEMPERATURE, N_HWMON },
	[Q_POWER] = { "power.draw", "Power draw", "W", S_POWER,
		      N_POWER | N_HWMON },
	[Q_POWER_CAP] = { "power.limit", "Power limit", "W", S_POWER,
			  N_SYSFS },
	[Q_ENERGY] = { "energy", "Energy since power-on", "J", S_POWER,
		       N_ENERGY },
	[Q_VOLT] = { "voltage", "Voltage", "mV", S_POWER, N_HWMON },
	[Q_CURR] = { "current", "Current", "mA", S_POWER, N_HWMON },
	[Q_MEM_TOTAL] = { "memory.total", "HBM total", "MiB", S_MEMORY,
			  N_HWIP },
	[Q_MEM_USED] = { "memory.used", "HBM used", "MiB", S_MEMORY,
			 N_HWIP | N_MEM },
	[Q_MEM_FREE] = { "memory.free", "HBM free", "MiB", S_MEMORY, N_MEM },
	[Q_SRAM] = { "memory.sram", "SRAM", "KiB", S_MEMORY, N_HWIP },
	[Q_UTIL] = { "utilization", "Utilization", "%", S_UTILIZATION,
		     N_UTIL },
	[Q_EV_SERR] = { "events.ecc_corrected", "ECC corrected", "",
			S_EVENTS, N_EVENTS },
	[Q_EV_DERR] = { "events.ecc_uncorrected", "ECC uncorrected", "",
			S_EVENTS, N_EVENTS },
	[Q_EV_FATAL] = { "events.fatal", "Fatal", "", S_EVENTS, N_EVENTS },
	[Q_EV_TOTAL] = { "events.total", "All events", "", S_EVENTS,
			 N_EVENTS },
	[Q_EV_SERR_R] = { "events.reset.ecc_corrected",
			  "ECC corrected since reset", "", S_EVENTS, N_EVENTS },
	[Q_EV_DERR_R] = { "events.reset.ecc_uncorrected",
			  "ECC uncorrected since reset", "", S_EVENTS,
			  N_EVENTS },
	[Q_EV_FATAL_R] = { "events.reset.fatal", "Fatal since reset", "",
			   S_EVENTS, N_EVENTS },
	[Q_RESET_HARD] = { "reset.hard", "Hard resets", "", S_RESET,
			   N_RESET | N_SYSFS },
	[Q_RESET_SOFT] = { "reset.soft", "Soft resets", "", S_RESET,
			   N_RESET | N_SYSFS },
	[Q_OPEN_COUNTER] = { "open_counter", "Compute opens", "", S_RESET,
			     N_OWNER },
	[Q_OWNER_PID] = { "owner.pid", "Holder pid", "", S_RESET, N_OWNER },
	[Q_OWNER_COMM] = { "owner.command", "Holder command", "", S_RESET,
			   N_OWNER },
	[Q_HEALTH] = { "health", "Verdict", "", S_HEALTH, N_ALL & ~N_NIC },
	[Q_HEALTH_WHY] = { "health.reason", "Reason", "", S_HEALTH,
			   N_ALL & ~N_NIC },
	[Q_NIC] = { "nic.ports", "Interfaces", "", S_NIC, N_NIC },
};

static char fw_field_names[NUM_FW][32];

static void fields_init(void)
{
	unsigned int i;

	for (i = 0; i < NUM_FW; i++) {
		snprintf(fw_field_names[i], sizeof(fw_field_names[i]),
			 "fw.%s", fw_attrs[i].key);
		fields[Q_FW0 + i] = (struct field){ fw_field_names[i],
			fw_attrs[i].label, "", S_FIRMWARE, N_FW };
	}
}

static struct val vint(int64_t v)
{
	return (struct val){ .kind = v == NA ? V_NA : V_INT, .i = v };
}

static struct val vnum(int64_t v, double div, int prec)
{
	if (v == NA)
		return (struct val){ .kind = V_NA };
	return (struct val){ .kind = V_NUM, .d = (double)v / div,
			     .prec = prec };
}

static struct val vstr(const char *s)
{
	return (struct val){ .kind = s ? V_STR : V_NA, .s = s };
}

static struct val field_get(const struct card *c, enum fid f)
{
	const struct temp *t = c->ntemps ? &c->temps[0] : NULL;
	int64_t e;

	if (f >= Q_FW0 && f < Q_FW0 + NUM_FW)
		return vstr(c->fw_have[f - Q_FW0] && c->fw[f - Q_FW0][0] ?
			    c->fw[f - Q_FW0] : NULL);
	switch (f) {
	case Q_INDEX: return vint(c->index);
	case Q_NAME: return vstr(c->name);
	case Q_BUS: return vstr(c->bus);
	case Q_MODULE: return vint(c->module_id < 0 ? NA : c->module_id);
	case Q_DRIVER: return vstr(c->driver);
	case Q_STATUS: return vstr(c->status);
	case Q_DEVID: return vint(c->device_id);
	case Q_REV: return vint(c->revision);
	case Q_SECURITY: return vint(c->security);
	case Q_TPC: return vint(c->tpc_mask);
	case Q_CTRL: return vstr(gaudi_card_control_node(c->gc));
	case Q_COMPUTE: return vstr(gaudi_card_compute_node(c->gc));
	case Q_PCI_RX: return vint(c->pci_rx);
	case Q_PCI_TX: return vint(c->pci_tx);
	case Q_PCI_REPLAY: return vint(c->pci_replay);
	case Q_CLK_CUR: return vint(c->clk_cur);
	case Q_CLK_MAX: return vint(c->clk_max);
	case Q_TEMP: return t ? vnum(t->mc, 1000, 0) : vint(NA);
	case Q_TEMP_LIMIT: return t ? vnum(t->max_mc, 1000, 0) : vint(NA);
	case Q_TEMP_CRIT: return t ? vnum(t->crit_mc, 1000, 0) : vint(NA);
	case Q_POWER: return vnum(c->power_mw, 1000, 2);
	case Q_POWER_CAP: return vnum(c->cap_mw, 1000, 2);
	case Q_ENERGY: return vnum(c->energy_uj, 1e6, 3);
	case Q_VOLT: return vint(c->volt_mv);
	case Q_CURR: return vint(c->curr_ma);
	case Q_MEM_TOTAL: return vint(c->mem_total == NA ? NA :
				      c->mem_total >> 20);
	case Q_MEM_USED:
		return vint(c->mem_total == NA || c->mem_free == NA ? NA :
			    (c->mem_total - c->mem_free) >> 20);
	case Q_MEM_FREE: return vint(c->mem_free == NA ? NA :
				     c->mem_free >> 20);
	case Q_SRAM: return vint(c->sram_size == NA ? NA : c->sram_size >> 10);
	case Q_UTIL: return vint(c->util);
	case Q_EV_SERR: return vint(c->ev_load[EVC_SERR]);
	case Q_EV_DERR: return vint(c->ev_load[EVC_DERR]);
	case Q_EV_FATAL: return vint(c->ev_load[EVC_FATAL]);
	case Q_EV_TOTAL:
		e = c->ev_load[0];
		if (e != NA)
			e += c->ev_load[1] + c->ev_load[2] + c->ev_load[3];
		return vint(e);
	case Q_EV_SERR_R: return vint(c->ev_reset[EVC_SERR]);
	case Q_EV_DERR_R: return vint(c->ev_reset[EVC_DERR]);
	case Q_EV_FATAL_R: return vint(c->ev_reset[EVC_FATAL]);
	case Q_RESET_HARD: return vint(c->reset_hard);
	case Q_RESET_SOFT: return vint(c->reset_soft);
	case Q_OPEN_COUNTER: return vint(c->open_counter);
	case Q_OWNER_PID:
		if (!c->owner_ok)
			return vint(NA);
		return vint(c->owner.state == GAUDI_OWNER_STATE_HELD ?
			    c->owner.pid : 0);
	case Q_OWNER_COMM:
		if (!c->owner_ok)
			return vint(NA);
		return vstr(c->owner.state == GAUDI_OWNER_STATE_HELD ?
			    c->owner.comm : "");
	case Q_HEALTH: return vstr(health_names[c->health]);
	case Q_HEALTH_WHY: return vstr(c->why);
	case Q_NIC: return vstr(c->nic[0] ? c->nic : NULL);
	default: return vint(NA);
	}
}

/* Plain text of a value (no unit). */
static const char *val_text(struct val v, char *buf, size_t len)
{
	switch (v.kind) {
	case V_INT: snprintf(buf, len, "%lld", (long long)v.i); break;
	case V_NUM: snprintf(buf, len, "%.*f", v.prec, v.d); break;
	case V_STR: snprintf(buf, len, "%s", v.s); break;
	default: snprintf(buf, len, "N/A"); break;
	}
	return buf;
}

/* ---- JSON and CSV output ------------------------------------------------------ */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void json_val(FILE *f, struct val v)
{
	char buf[64];

	switch (v.kind) {
	case V_INT:
	case V_NUM:
		fputs(val_text(v, buf, sizeof(buf)), f);
		break;
	case V_STR:
		json_str(f, v.s);
		break;
	default:
		fputs("null", f);
	}
}

static void csv_cell(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

static void out_query(struct card *cards, unsigned int n, const int *sel,
		      const enum fid *q, unsigned int nq)
{
	char buf[FWV_LEN + 16], cell[FWV_LEN + 32];
	unsigned int i, j, k = 0;

	if (opt.fmt == FMT_JSON) {
		printf("[");
		for (i = 0; i < n; i++) {
			if (!sel[i])
				continue;
			printf("%s\n  {", k++ ? "," : "");
			for (j = 0; j < nq; j++) {
				printf("%s", j ? ", " : "");
				json_str(stdout, fields[q[j]].name);
				printf(": ");
				json_val(stdout, field_get(&cards[i], q[j]));
			}
			printf("}");
		}
		printf("%s]\n", k ? "\n" : "");
		return;
	}
	if (!opt.noheader) {
		for (j = 0; j < nq; j++) {
			printf("%s%s", j ? ", " : "", fields[q[j]].name);
			if (!opt.nounits && fields[q[j]].unit[0])
				printf(" [%s]", fields[q[j]].unit);
		}
		printf("\n");
	}
	for (i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		for (j = 0; j < nq; j++) {
			struct val v = field_get(&cards[i], q[j]);

			val_text(v, buf, sizeof(buf));
			if (v.kind != V_NA && v.kind != V_STR &&
			    !opt.nounits && fields[q[j]].unit[0])
				snprintf(cell, sizeof(cell), "%s %s", buf,
					 fields[q[j]].unit);
			else
				snprintf(cell, sizeof(cell), "%s", buf);
			printf("%s", j ? ", " : "");
			csv_cell(stdout, cell);
		}
		printf("\n");
	}
}

/* ---- -q report ------------------------------------------------------------------ */

static bool sect_has_data(const struct card *c, enum sect s)
{
	return s != S_NIC || c->nic[0];
}

static void report_procs_text(const struct card *c)
{
	unsigned int i, k = 0;
	char mem[32];

	printf("    Processes\n");
	for (i = 0; i < nprocs; i++) {
		const struct proc *p = &procs[i];

		if (p->card != (int)c->index)
			continue;
		k++;
		if (p->mem == NA)
			snprintf(mem, sizeof(mem), "N/A");
		else
			snprintf(mem, sizeof(mem), "%lld MiB",
				 (long long)(p->mem >> 20));
		printf("        %-30s : %d %s (%s, host memory %s, from %s)\n",
		       "Process", p->pid, p->comm, p->node, mem, p->source);
	}
	if (!k)
		printf("        %-30s : %s\n", "Process",
		       procs_partial && !c->owner_ok ? "none visible" : "none");
}

static void out_report(struct card *cards, unsigned int n, const int *sel,
		       const bool *sects, bool procs_too)
{
	char buf[FWV_LEN + 16];
	unsigned int i, k = 0;
	int s, f;

	if (opt.fmt == FMT_JSON) {
		printf("{\"gaudi_smi_version\": \"%s\", \"libgaudi_version\": ",
		       SMI_VERSION);
		json_str(stdout, gaudi_version());
		printf(",\n \"cards\": [");
		for (i = 0; i < n; i++) {
			const struct card *c = &cards[i];
			unsigned int j, m = 0;

			if (!sel[i])
				continue;
			printf("%s\n  {\"index\": %u, \"pci.bus_id\": ",
			       k++ ? "," : "", c->index);
			json_str(stdout, c->bus);
			for (s = 0; s < S_NUM; s++) {
				int nf = 0;

				if (!sects[s] || !sect_has_data(c, s))
					continue;
				printf(",\n   \"%s\": {", sect_names[s]);
				for (f = 0; f < Q_NUM; f++) {
					if (fields[f].sect != (enum sect)s)
						continue;
					printf("%s", nf++ ? ", " : "");
					json_str(stdout, fields[f].name);
					printf(": ");
					json_val(stdout, field_get(c, f));
				}
				if (s == S_TEMPERATURE) {
					printf(", \"sensors\": [");
					for (j = 0; j < c->ntemps; j++) {
						printf("%s{\"label\": ",
						       j ? ", " : "");
						json_str(stdout,
							 c->temps[j].label);
						printf(", \"value\": ");
						json_val(stdout, vnum(c->temps[j].mc, 1000, 0));
						printf(", \"limit\": ");
						json_val(stdout, vnum(c->temps[j].max_mc, 1000, 0));
						printf(", \"critical\": ");
						json_val(stdout, vnum(c->temps[j].crit_mc, 1000, 0));
						printf("}");
					}
					printf("]");
				}
				printf("}");
			}
			if (procs_too) {
				printf(",\n   \"processes\": [");
				for (j = 0; j < nprocs; j++) {
					const struct proc *p = &procs[j];

					if (p->card != (int)c->index)
						continue;
					printf("%s{\"pid\": %d, \"command\": ",
					       m++ ? ", " : "", p->pid);
					json_str(stdout, p->comm);
					printf(", \"node\": ");
					json_str(stdout, p->node);
					printf(", \"host_memory_bytes\": ");
					json_val(stdout, vint(p->mem));
					printf(", \"source\": ");
					json_str(stdout, p->source);
					printf("}");
				}
				printf("]");
			}
			printf("}");
		}
		printf("%s]}\n", k ? "\n " : "");
		return;
	}

	for (i = 0; i < n; i++) {
		const struct card *c = &cards[i];

		if (!sel[i])
			continue;
		printf("%sCard %u: %s\n", k++ ? "\n" : "", c->index, c->bus);
		for (s = 0; s < S_NUM; s++) {
			if (!sects[s])
				continue;
			printf("    %s\n", sect_titles[s]);
			if (!sect_has_data(c, s)) {
				printf("        %-30s : %s\n", "Ports",
				       "none (no NIC driver bound)");
				continue;
			}
			for (f = 0; f < Q_NUM; f++) {
				struct val v;

				if (fields[f].sect != (enum sect)s)
					continue;
				v = field_get(c, f);
				val_text(v, buf, sizeof(buf));
				printf("        %-30s : %s%s%s\n",
				       fields[f].label, buf,
				       v.kind == V_INT || v.kind == V_NUM ?
				       (fields[f].unit[0] ? " " : "") : "",
				       v.kind == V_INT || v.kind == V_NUM ?
				       fields[f].unit : "");
			}
			if (s == S_TEMPERATURE) {
				unsigned int j;

				for (j = 0; j < c->ntemps; j++) {
					const struct temp *t = &c->temps[j];
					char lab[64], a[16], b[16], d[16];

					snprintf(lab, sizeof(lab), "Sensor %s",
						 t->label);
					printf("        %-30s : %s C (limit %s C, critical %s C)\n",
					       lab,
					       val_text(vnum(t->mc, 1000, 0), a, sizeof(a)),
					       val_text(vnum(t->max_mc, 1000, 0), b, sizeof(b)),
					       val_text(vnum(t->crit_mc, 1000, 0), d, sizeof(d)));
				}
			}
		}
		if (procs_too)
			report_procs_text(c);
	}
}

/* ---- default table ---------------------------------------------------------------- */

struct box {
	const char *h, *v, *tl, *tm, *tr, *ml, *mm, *mr, *bl, *bm, *br;
};
static const struct box box_ascii = {
	"-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "+"
};
static const struct box box_utf8 = {
	"\u2500", "\u2502", "\u250c", "\u252c", "\u2510", "\u251c", "\u253c",
	"\u2524", "\u2514", "\u2534", "\u2518"
};

struct col {
	const char *title;
	int width;
	bool right;
};

static void rule(const struct box *b, const struct col *cols, int n,
		 const char *l, const char *m, const char *r)
{
	int i, j;

	fputs(l, stdout);
	for (i = 0; i < n; i++) {
		for (j = 0; j < cols[i].width + 2; j++)
			fputs(b->h, stdout);
		fputs(i == n - 1 ? r : m, stdout);
	}
	fputc('\n', stdout);
}

static void row(const struct box *b, const struct col *cols, int n,
		char cells[][64])
{
	int i;

	fputs(b->v, stdout);
	for (i = 0; i < n; i++) {
		int w = cols[i].width;
		char tmp[64];

		/* Cut overlong text with a '~' so the table keeps its shape. */
		if ((int)strlen(cells[i]) > w) {
			snprintf(tmp, sizeof(tmp), "%.*s~", w - 1, cells[i]);
			snprintf(cells[i], 64, "%s", tmp);
		}
		printf(cols[i].right ? " %*s " : " %-*s ", w, cells[i]);
		fputs(b->v, stdout);
	}
	fputc('\n', stdout);
}

/* The firmware column: the first word of the CPU-CP version. */
static void short_fw(const struct card *c, char *out, size_t len)
{
	const char *s = c->fw_have[0] ? c->fw[0] : "";
	size_t n = strcspn(s, " ");

	snprintf(out, len, "%.*s", (int)(n ? n : 3), n ? s : "N/A");
}

static void out_table(struct card *cards, unsigned int n, const int *sel,
		      const char *drvsum)
{
	const struct box *b = opt.utf8 ? &box_utf8 : &box_ascii;
	static const struct col cols[] = {
		{ "Idx", 3, true }, { "Name", 8, false },
		{ "Bus Id", 12, false }, { "Temp", 5, true },
		{ "Power Draw/Cap", 14, true }, { "Memory Used/Total", 19, true },
		{ "Util", 4, true }, { "Status", 11, false },
		{ "Firmware", 28, false },
	};
	const int nc = sizeof(cols) / sizeof(cols[0]);
	char cells[9][64], a[24], c2[24];
	char date[64];
	time_t now = time(NULL);
	struct tm tm;
	unsigned int i, k;
	int j;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	printf("gaudi-smi %s  libgaudi %s  driver %s  %s\n", SMI_VERSION,
	       gaudi_version(), drvsum, date);
	rule(b, cols, nc, b->tl, b->tm, b->tr);
	for (j = 0; j < nc; j++)
		snprintf(cells[j], 64, "%s", cols[j].title);
	row(b, cols, nc, cells);
	rule(b, cols, nc, b->ml, b->mm, b->mr);
	for (i = 0; i < n; i++) {
		const struct card *c = &cards[i];

		if (!sel[i])
			continue;
		snprintf(cells[0], 64, "%u", c->index);
		snprintf(cells[1], 64, "%s", c->name);
		snprintf(cells[2], 64, "%s", c->bus);
		val_text(field_get(c, Q_TEMP), a, sizeof(a));
		snprintf(cells[3], 64, "%s%s", a,
			 c->ntemps && c->temps[0].mc != NA ? "C" : "");
		val_text(vnum(c->power_mw, 1000, 0), a, sizeof(a));
		val_text(vnum(c->cap_mw, 1000, 0), c2, sizeof(c2));
		snprintf(cells[4], 64, "%s%s / %s%s", a,
			 c->power_mw != NA ? "W" : "", c2,
			 c->cap_mw != NA ? "W" : "");
		val_text(field_get(c, Q_MEM_USED), a, sizeof(a));
		val_text(field_get(c, Q_MEM_TOTAL), c2, sizeof(c2));
		if (c->mem_total == NA)
			snprintf(cells[5], 64, "N/A");
		else
			snprintf(cells[5], 64, "%s / %sMiB", a, c2);
		val_text(field_get(c, Q_UTIL), a, sizeof(a));
		snprintf(cells[6], 64, "%s%s", a, c->util != NA ? "%" : "");
		snprintf(cells[7], 64, "%s", c->status);
		short_fw(c, cells[8], 64);
		row(b, cols, nc, cells);
	}
	rule(b, cols, nc, b->bl, b->bm, b->br);

	{
		static const struct col pcols[] = {
			{ "Card", 4, true }, { "PID", 7, true },
			{ "Command", 16, false }, { "Node", 16, false },
			{ "Host Memory", 11, true }, { "Seen Through", 12, false },
		};
		const int np = sizeof(pcols) / sizeof(pcols[0]);

		printf("Processes:\n");
		rule(b, pcols, np, b->tl, b->tm, b->tr);
		for (j = 0; j < np; j++)
			snprintf(cells[j], 64, "%s", pcols[j].title);
		row(b, pcols, np, cells);
		rule(b, pcols, np, b->ml, b->mm, b->mr);
		for (i = 0, k = 0; i < nprocs; i++) {
			const struct proc *p = &procs[i];

			if (p->card >= 0 && !sel[p->card])
				continue;
			k++;
			if (p->card >= 0)
				snprintf(cells[0], 64, "%d", p->card);
			else
				snprintf(cells[0], 64, "?");
			snprintf(cells[1], 64, "%d", p->pid);
			snprintf(cells[2], 64, "%s", p->comm);
			snprintf(cells[3], 64, "%s", p->node);
			if (p->mem == NA)
				snprintf(cells[4], 64, "N/A");
			else
				snprintf(cells[4], 64, "%lldMiB",
					 (long long)(p->mem >> 20));
			snprintf(cells[5], 64, "%s", p->source);
			row(b, pcols, np, cells);
		}
		if (!k) {
			bool hidden = false;

			/* The owner query covers what /proc hides. */
			for (i = 0; i < n; i++)
				if (sel[i] && !cards[i].owner_ok)
					hidden = procs_partial;
			const char *msg = hidden ?
				"No process visible (not root: other users' processes are hidden)" :
				"No running processes found";
			int w = 0;

			for (j = 0; j < np; j++)
				w += pcols[j].width + 3;
			printf("%s %-*s%s\n", b->v, w - 3, msg, b->v);
		}
		rule(b, pcols, np, b->bl, b->bm, b->br);
	}
}

static void out_list(struct card *cards, unsigned int n, const int *sel)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct card *c = &cards[i];

		if (!sel[i])
			continue;
		printf("Card %u: %s (bus id %s, module %lld, driver %s, %s)\n",
		       c->index, c->name, c->bus, (long long)c->module_id,
		       c->driver, gaudi_card_compute_node(c->gc) ?
		       gaudi_card_compute_node(c->gc) : "no compute node");
	}
}

static void out_fw(struct card *cards, unsigned int n, const int *sel)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		const struct card *c = &cards[i];

		if (!sel[i])
			continue;
		printf("Card %u: %s\n", c->index, c->bus);
		for (j = 0; j < NUM_FW; j++)
			printf("    %-18s : %s\n", fw_attrs[j].label,
			       c->fw_have[j] ? c->fw[j] : "N/A");
	}
}

/* ---- Prometheus text exposition ---------------------------------------------------- */

static void prom_head(const char *name, const char *type, const char *help)
{
	printf("# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void prom_labels(const struct card *c)
{
	printf("card=\"%u\",bus_id=\"%s\"", c->index, c->bus);
}

static void prom_label_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if (*s == '\n') {
			fputs("\\n", stdout);
			continue;
		}
		putchar(*s);
	}
}

struct pmetric {
	const char *name, *type, *help;
	enum fid f;
	double scale;	/* multiply the field's value */
};

static void out_prometheus(struct card *cards, unsigned int n, const int *sel)
{
	static const struct pmetric pm[] = {
		{ "gaudi_power_watts", "gauge", "Input power draw in watts.",
		  Q_POWER, 1 },
		{ "gaudi_power_limit_watts", "gauge", "Power cap in watts.",
		  Q_POWER_CAP, 1 },
		{ "gaudi_energy_joules_total", "counter",
		  "Energy consumed since power-on in joules.", Q_ENERGY, 1 },
		{ "gaudi_memory_total_bytes", "gauge",
		  "HBM available to users in bytes.", Q_MEM_TOTAL, 1048576 },
		{ "gaudi_memory_used_bytes", "gauge", "HBM in use in bytes.",
		  Q_MEM_USED, 1048576 },
		{ "gaudi_utilization_ratio", "gauge",
		  "Device utilization as reported by the driver (0..1).",
		  Q_UTIL, 0.01 },
		{ "gaudi_clock_mme_hertz", "gauge", "Current MME clock in hertz.",
		  Q_CLK_CUR, 1e6 },
		{ "gaudi_hard_resets_total", "counter",
		  "Hard resets since the driver bound the card.",
		  Q_RESET_HARD, 1 },
	};
	unsigned int i, m, j;

	prom_head("gaudi_info", "gauge",
		  "Card identity; the value is always 1.");
	for (i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		printf("gaudi_info{");
		prom_labels(&cards[i]);
		printf(",name=\"");
		prom_label_escaped(cards[i].name);
		printf("\",driver=\"");
		prom_label_escaped(cards[i].driver);
		printf("\",firmware=\"");
		prom_label_escaped(cards[i].fw_have[0] ? cards[i].fw[0] : "");
		printf("\"} 1\n");
	}
	prom_head("gaudi_up", "gauge",
		  "1 when the card is operational, 0 otherwise.");
	for (i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		printf("gaudi_up{");
		prom_labels(&cards[i]);
		printf("} %d\n", !strcmp(cards[i].status, "operational"));
	}
	prom_head("gaudi_health", "gauge",
		  "Verdict of gaudi-smi --health: 0 OK, 1 WARN, 2 FAIL.");
	for (i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		printf("gaudi_health{");
		prom_labels(&cards[i]);
		printf("} %d\n", cards[i].health);
	}
	prom_head("gaudi_temperature_celsius", "gauge",
		  "Temperature of each hwmon sensor in degrees Celsius.");
	for (i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		for (j = 0; j < cards[i].ntemps; j++) {
			printf("gaudi_temperature_celsius{");
			prom_labels(&cards[i]);
			printf(",sensor=\"");
			prom_label_escaped(cards[i].temps[j].label);
			printf("\"} %.3f\n", cards[i].temps[j].mc / 1000.0);
		}
	}
	for (m = 0; m < sizeof(pm) / sizeof(pm[0]); m++) {
		prom_head(pm[m].name, pm[m].type, pm[m].help);
		for (i = 0; i < n; i++) {
			struct val v;
			double d;

			if (!sel[i])
				continue;
			v = field_get(&cards[i], pm[m].f);
			if (v.kind == V_NA)
				continue;
			d = (v.kind == V_INT ? (double)v.i : v.d) * pm[m].scale;
			printf("%s{", pm[m].name);
			prom_labels(&cards[i]);
			printf("} %.17g\n", d);
		}
	}
	prom_head("gaudi_events_total", "counter",
		  "Device events since the driver loaded, by class.");
	for (i = 0; i < n; i++) {
		if (!sel[i] || cards[i].ev_load[0] == NA)
			continue;
		for (j = 0; j < EVC_NUM; j++) {
			printf("gaudi_events_total{");
			prom_labels(&cards[i]);
			printf(",class=\"%s\"} %lld\n", evc_names[j],
			       (long long)cards[i].ev_load[j]);
		}
	}
}

/* ---- health output ------------------------------------------------------------------ */

static int out_health(struct card *cards, unsigned int n, const int *sel)
{
	enum health worst = H_OK;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		if (cards[i].health > worst)
			worst = cards[i].health;
		if (opt.fmt == FMT_JSON)
			continue;
		printf("card %u %s %s: %s\n", cards[i].index, cards[i].bus,
		       health_names[cards[i].health], cards[i].why);
	}
	if (opt.fmt == FMT_JSON) {
		unsigned int k = 0;

		printf("[");
		for (i = 0; i < n; i++) {
			if (!sel[i])
				continue;
			printf("%s\n  {\"index\": %u, \"pci.bus_id\": \"%s\", \"health\": \"%s\", \"reason\": ",
			       k++ ? "," : "", cards[i].index, cards[i].bus,
			       health_names[cards[i].health]);
			json_str(stdout, cards[i].why);
			printf("}");
		}
		printf("%s]\n", k ? "\n" : "");
	}
	return worst == H_FAIL ? EX_UNHEALTHY :
	       worst == H_WARN ? EX_DEGRADED : EX_OK;
}

/* ---- actions: reset and power limit ----------------------------------------------- */

static int do_reset(struct card *c)
{
	unsigned int i;
	int ret;

	int64_t before = read_int_at(c->sysfd, "hard_reset_cnt");

	fprintf(stderr, "%s: card %u (%s): hard reset...\n", opt.prog,
		c->index, c->bus);
	ret = write_at(c->sysfd, "hard_reset", "1");
	if (ret) {
		err("card %u (%s): hard reset failed: %s%s", c->index, c->bus,
		    strerror(-ret), ret == -EACCES || ret == -EPERM ?
		    " (needs root)" : "");
		return ret == -EACCES || ret == -EPERM ? EX_PERM : EX_FAIL;
	}
	/*
	 * gaudi.ko returns when the card is back; upstream's write returns at
	 * once and the reset runs on: wait for the status to settle.
	 */
	for (i = 0; i < 1200; i++) {
		int64_t cnt = read_int_at(c->sysfd, "hard_reset_cnt");

		c->status[0] = '\0';
		read_at(c->sysfd, "status", c->status, sizeof(c->status));
		if (!strcasecmp(c->status, "operational") &&
		    (before == NA || cnt > before))
			break;
		if (i > 50 && strncasecmp(c->status, "in reset", 8) &&
		    strcasecmp(c->status, "in device creation") &&
		    strcasecmp(c->status, "operational"))
			break;
		usleep(100000);
	}
	for (i = 0; c->status[i]; i++)
		c->status[i] = (char)tolower((unsigned char)c->status[i]);
	if (strcmp(c->status, "operational")) {
		err("card %u (%s): hard reset ended with status '%s'",
		    c->index, c->bus, c->status[0] ? c->status : "unknown");
		return EX_FAIL;
	}
	printf("card %u %s: hard reset done, status %s\n", c->index, c->bus,
	       c->status);
	return EX_OK;
}

static int do_power(struct card *c, long watts)
{
	char buf[32];
	int64_t now;
	int ret;

	snprintf(buf, sizeof(buf), "%ld", watts * 1000);
	ret = write_at(c->sysfd, "max_power", buf);
	if (ret) {
		err("card %u (%s): setting the power limit to %ld W failed: %s%s",
		    c->index, c->bus, watts, strerror(-ret),
		    ret == -EACCES || ret == -EPERM ? " (needs root)" :
		    ret == -EIO ? " (card not operational)" : "");
		return ret == -EACCES || ret == -EPERM ? EX_PERM : EX_FAIL;
	}
	now = read_int_at(c->sysfd, "max_power");
	printf("card %u %s: power limit set to %ld W (reads %s W)\n", c->index,
	       c->bus, watts, val_text(vnum(now, 1000, 0), buf, sizeof(buf)));
	return EX_OK;
}

/* ---- usage ---------------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: gaudi-smi [OPTIONS]\n"
"Show the state of the Habana Gaudi 1 cards of this host.\n"
"\n"
"Views (default: a table of the cards and a table of processes):\n"
"  -L, --list               list the cards\n"
"  -q, --query              detailed report by sections\n"
"  -d, --display=SECTIONS   with -q: only these sections (comma list of\n"
"                           product, firmware, pci, clocks, temperature,\n"
"                           power, memory, utilization, events, reset,\n"
"                           health, nic, processes)\n"
"  -Q, --query-fields=F,... values of fields (--help-fields lists them)\n"
"      --fw-versions        firmware versions of each card\n"
"      --health             one verdict line per card; exit status 0 all\n"
"                           OK, 5 a card has warnings, 6 a card failed\n"
"      --prometheus         Prometheus text format for node exporter's\n"
"                           textfile collector\n"
"Selection and format:\n"
"  -i, --id=CARD[,CARD..]   cards by index (gaudi-smi -L) or PCI bus id\n"
"      --format=FMT         csv[,noheader][,nounits] or json (for -Q, -q,\n"
"                           --health; default text)\n"
"  -l, --loop=SECONDS       repeat the view every SECONDS until interrupted\n"
"  -c, --count=N            with -l: stop after N repetitions\n"
"Actions (root):\n"
"  -r, --reset              hard reset the cards selected with -i\n"
"  -p, --power-limit=WATTS  set the power cap of the selected cards\n"
"Other:\n"
"      --help-fields        list the fields of -Q\n"
"  -h, --help               this help\n"
"  -V, --version            version\n"
"\n"
"Exit status: 0 success, 1 a query or action failed, 2 usage error,\n"
"3 no card, no driver loaded or no such card, 4 permission denied,\n"
"5 (--health) a card has warnings, 6 (--health) a card is unhealthy.\n"
"See gaudi-smi(1).\n");
}

static void help_fields(void)
{
	int f;

	for (f = 0; f < Q_NUM; f++)
		printf("%-30s %-6s %s (%s)\n", fields[f].name,
		       fields[f].unit[0] ? fields[f].unit : "-",
		       fields[f].label, sect_names[fields[f].sect]);
}

/* ---- main ----------------------------------------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int parse_format(const char *s)
{
	char *dup = strdup(s), *tok, *save = NULL;
	int ret = 0;

	if (!dup)
		return -1;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "csv"))
			opt.fmt = FMT_CSV;
		else if (!strcmp(tok, "json"))
			opt.fmt = FMT_JSON;
		else if (!strcmp(tok, "text"))
			opt.fmt = FMT_TEXT;
		else if (!strcmp(tok, "noheader"))
			opt.noheader = true;
		else if (!strcmp(tok, "nounits"))
			opt.nounits = true;
		else
			ret = -1;
	}
	free(dup);
	if ((opt.noheader || opt.nounits) && opt.fmt != FMT_CSV)
		ret = -1;
	return ret;
}

static bool bus_match(const char *bus, const char *want)
{
	size_t lw = strlen(want), lb = strlen(bus);

	if (!strcasecmp(bus, want))
		return true;
	/* "BB:DD.F" without the domain */
	return lw == 7 && lb == 12 && !strncmp(bus, "0000:", 5) &&
	       !strcasecmp(bus + 5, want);
}

static int select_cards(struct card *cards, unsigned int n, const char *ids,
			int *sel)
{
	char *dup, *tok, *save = NULL;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++)
		sel[i] = !ids;
	if (!ids)
		return 0;
	dup = strdup(ids);
	if (!dup)
		return EX_FAIL;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long v = strtoul(tok, &end, 10);
		bool found = false;

		if (*tok && !*end) {
			if (v < n)
				sel[v] = found = true;
		} else {
			for (i = 0; i < n; i++)
				if (bus_match(cards[i].bus, tok))
					sel[i] = found = true;
		}
		if (!found) {
			err("no card '%s' (%u cards: index 0..%u or a PCI bus id, see gaudi-smi -L)",
			    tok, n, n ? n - 1 : 0);
			ret = EX_NODEV;
		}
	}
	free(dup);
	return ret;
}

static const char *driver_hint(int ret)
{
	switch (ret) {
	case -ENODEV:
		return "no Gaudi card (PCI 1da3:1000) on this host";
	case -ENOPKG:
		return "Gaudi cards are present but no driver is loaded (modprobe gaudi, or modprobe habanalabs)";
	case -ENXIO:
		return "a driver is loaded but no card has a device node (probe failed or still running: see dmesg)";
	default:
		return gaudi_strerror(ret);
	}
}

int main(int argc, char **argv)
{
	enum { O_FORMAT = 256, O_FW, O_HEALTH, O_PROM, O_HELP_FIELDS };
	static const struct option lopts[] = {
		{ "list", no_argument, NULL, 'L' },
		{ "query", no_argument, NULL, 'q' },
		{ "display", required_argument, NULL, 'd' },
		{ "query-fields", required_argument, NULL, 'Q' },
		{ "id", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "loop", required_argument, NULL, 'l' },
		{ "count", required_argument, NULL, 'c' },
		{ "reset", no_argument, NULL, 'r' },
		{ "power-limit", required_argument, NULL, 'p' },
		{ "fw-versions", no_argument, NULL, O_FW },
		{ "health", no_argument, NULL, O_HEALTH },
		{ "prometheus", no_argument, NULL, O_PROM },
		{ "help-fields", no_argument, NULL, O_HELP_FIELDS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum { M_TABLE, M_LIST, M_REPORT, M_QUERY, M_FW, M_HEALTH, M_PROM,
	       M_RESET, M_POWER } mode = M_TABLE;
	int nmodes = 0, ret = EX_OK, o;
	const char *ids = NULL, *display = NULL, *qfields = NULL;
	long loop = 0, count = 0, watts = 0;
	bool sects[S_NUM], procs_too = true;
	enum fid q[Q_NUM * 2];
	unsigned int nq = 0, need = 0, ncards, i;
	struct gaudi_card_list *list = NULL;
	struct card *cards = NULL;
	int *sel = NULL;
	char drvsum[64] = "";
	bool warned_access = false;

	fields_init();
	setlocale(LC_ALL, "");
	opt.prog = "gaudi-smi";
	for (i = 0; i < S_NUM; i++)
		sects[i] = true;

	while ((o = getopt_long(argc, argv, "Lqd:Q:i:l:c:rp:hV", lopts,
				NULL)) != -1) {
		char *end;

		switch (o) {
		case 'L': mode = M_LIST; nmodes++; break;
		case 'q': mode = M_REPORT; nmodes++; break;
		case 'd': display = optarg; break;
		case 'Q': mode = M_QUERY; nmodes++; qfields = optarg; break;
		case 'i': ids = optarg; break;
		case O_FORMAT:
			if (parse_format(optarg)) {
				err("bad --format '%s' (csv[,noheader][,nounits] or json)",
				    optarg);
				return EX_USAGE;
			}
			break;
		case 'l':
		case 'c':
			errno = 0;
			if (o == 'l')
				loop = strtol(optarg, &end, 10);
			else
				count = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg ||
			    (o == 'l' ? loop : count) <= 0) {
				err("-%c wants a positive whole number, not '%s'",
				    o, optarg);
				return EX_USAGE;
			}
			break;
		case 'r': mode = M_RESET; nmodes++; break;
		case 'p':
			errno = 0;
			watts = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || watts <= 0 ||
			    watts > 1000) {
				err("-p wants a power limit in watts (1..1000), not '%s'",
				    optarg);
				return EX_USAGE;
			}
			mode = M_POWER;
			nmodes++;
			break;
		case O_FW: mode = M_FW; nmodes++; break;
		case O_HEALTH: mode = M_HEALTH; nmodes++; break;
		case O_PROM: mode = M_PROM; nmodes++; break;
		case O_HELP_FIELDS: help_fields(); return EX_OK;
		case 'h': usage(stdout); return EX_OK;
		case 'V':
			printf("gaudi-smi %s (libgaudi %s)\n", SMI_VERSION,
			       gaudi_version());
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind < argc) {
		err("unexpected argument '%s' (see --help)", argv[optind]);
		return EX_USAGE;
	}
	if (nmodes > 1) {
		err("choose one of -L, -q, -Q, -r, -p, --fw-versions, --health, --prometheus");
		return EX_USAGE;
	}
	if (display && mode != M_REPORT) {
		err("-d works with -q");
		return EX_USAGE;
	}
	if (opt.fmt != FMT_TEXT && mode != M_QUERY && mode != M_REPORT &&
	    mode != M_HEALTH && mode != M_TABLE) {
		err("--format works with -Q, -q and --health");
		return EX_USAGE;
	}
	if (opt.fmt == FMT_CSV && mode != M_QUERY) {
		err("--format csv needs -Q FIELDS");
		return EX_USAGE;
	}
	if (opt.fmt == FMT_JSON && mode == M_TABLE)
		mode = M_REPORT;	/* the whole state as one JSON object */
	if (loop && (mode == M_RESET || mode == M_POWER)) {
		err("-l does not repeat -r or -p");
		return EX_USAGE;
	}
	if (mode == M_RESET && !ids) {
		err("-r needs -i CARD: name the cards to reset");
		return EX_USAGE;
	}
	if (display) {
		char *dup = strdup(display), *tok, *save = NULL;

		for (i = 0; i < S_NUM; i++)
			sects[i] = false;
		procs_too = false;
		for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
		     tok = strtok_r(NULL, ",", &save)) {
			bool found = !strcasecmp(tok, "processes");

			if (found)
				procs_too = true;
			for (i = 0; i < S_NUM; i++)
				if (!strcasecmp(tok, sect_names[i]))
					sects[i] = found = true;
			if (!found) {
				err("unknown section '%s' for -d (see --help)",
				    tok);
				free(dup);
				return EX_USAGE;
			}
		}
		free(dup);
	}
	if (qfields) {
		char *dup = strdup(qfields), *tok, *save = NULL;

		for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int f;

			while (*tok == ' ')
				tok++;
			for (f = 0; f < Q_NUM; f++)
				if (!strcmp(tok, fields[f].name))
					break;
			if (f == Q_NUM) {
				err("unknown field '%s' for -Q (see --help-fields)",
				    tok);
				free(dup);
				return EX_USAGE;
			}
			if (nq < Q_NUM * 2)
				q[nq++] = f;
		}
		free(dup);
		if (!nq) {
			err("-Q wants at least one field");
			return EX_USAGE;
		}
	}
	opt.utf8 = isatty(STDOUT_FILENO) &&
		   !strcmp(nl_langinfo(CODESET), "UTF-8");

	switch (mode) {
	case M_TABLE:
		need = N_SYSFS | N_HWMON | N_HWIP | N_MEM | N_UTIL | N_POWER |
		       N_FW | N_OWNER;
		break;
	case M_LIST: need = N_HWIP; break;
	case M_FW: need = N_FW; break;
	case M_QUERY:
		for (i = 0; i < nq; i++)
			need |= fields[q[i]].need;
		if (need & N_POWER)
			need |= N_HWMON;
		break;
	case M_RESET:
	case M_POWER: need = 0; break;
	default: need = N_ALL; break;
	}
	/* The verdict in -Q health needs everything it checks. */

	/* Discovery. */
	ret = gaudi_check_driver();
	if (ret < 0) {
		err("%s", driver_hint(ret));
		return EX_NODEV;
	}
	ret = gaudi_cards_scan(&list);
	if (ret < 0) {
		err("cannot list the cards: %s", gaudi_strerror(ret));
		return EX_FAIL;
	}
	ncards = (unsigned int)ret;
	if (!ncards) {
		err("no Gaudi card has a device node");
		gaudi_cards_free(list);
		return EX_NODEV;
	}
	cards = calloc(ncards, sizeof(*cards));
	sel = calloc(ncards, sizeof(*sel));
	if (!cards || !sel) {
		err("out of memory");
		return EX_FAIL;
	}
	for (i = 0; i < ncards; i++) {
		cards[i].index = i;
		cards[i].gc = gaudi_cards_get(list, i);
		cards[i].sysfd = -1;
		snprintf(cards[i].bus, sizeof(cards[i].bus), "%s",
			 gaudi_card_pci_bus_id(cards[i].gc));
		cards[i].driver = gaudi_card_driver(cards[i].gc);
	}
	ret = select_cards(cards, ncards, ids, sel);
	if (ret)
		goto out;

	if (mode != M_LIST && mode != M_FW) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
	}
	for (long iter = 0; ; iter++) {
		for (i = 0; i < ncards; i++) {
			struct card *c = &cards[i];
			unsigned int e;

			if (!sel[i])
				continue;
			if (c->sysfd < 0)
				c->sysfd = open(gaudi_card_syspath(c->gc),
						O_RDONLY | O_DIRECTORY |
						O_CLOEXEC);
			if (c->sysfd < 0) {
				err("card %u (%s): %s: %s", i, c->bus,
				    gaudi_card_syspath(c->gc),
				    strerror(errno));
				ret = EX_FAIL;
				sel[i] = 0;
				continue;
			}
			if (mode == M_RESET || mode == M_POWER)
				continue;
			if (!c->dev && need & ~(N_SYSFS | N_FW | N_HWMON | N_NIC)) {
				c->dev_err = gaudi_open_card(c->gc,
						GAUDI_OPEN_CONTROL, &c->dev);
				if (c->dev_err) {
					c->dev = NULL;
				} else {
					struct gaudi_caps caps;

					c->ext = !gaudi_query_caps(c->dev, &caps) &&
						 (caps.caps & GAUDI_CAPS_OWNER);
				}
				if (c->dev_err && !warned_access) {
					const char *cn = gaudi_card_control_node(c->gc);

					warned_access = true;
					if (ctrl_unreadable(c) && !strcmp(c->driver, "habanalabs"))
						err("card %u (%s): control node not readable: habanalabs creates /dev/accel/accel_controlD* mode 0600; run as root or add a udev rule (memory, utilization, events, owner shown as N/A)",
						    i, c->bus);
					else
						err("card %u (%s): cannot open the control node %s: %s (some values shown as N/A)",
						    i, c->bus, cn ? cn : "(none)",
						    gaudi_strerror(c->dev_err));
				}
			}
			/* Reset what a previous iteration read. */
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
			c->owner_ok = false;
			for (e = 0; e < EVC_NUM; e++)
				c->ev_reset[e] = c->ev_load[e] = NA;
			memset(c->fw_have, 0, sizeof(c->fw_have));
			collect(c, need);
			judge(c);
		}
		if (!drvsum[0]) {
			for (i = 0; i < ncards; i++) {
				if (!sel[i])
					continue;
				snprintf(drvsum, sizeof(drvsum), "%s%s",
					 cards[i].driver[0] ? cards[i].driver :
					 "unknown", cards[i].ext ?
					 " (gaudi extensions)" : "");
				break;
			}
		}

		switch (mode) {
		case M_TABLE:
			scan_procs(cards, ncards);
			out_table(cards, ncards, sel, drvsum);
			break;
		case M_LIST:
			out_list(cards, ncards, sel);
			break;
		case M_REPORT:
			if (procs_too)
				scan_procs(cards, ncards);
			out_report(cards, ncards, sel, sects, procs_too);
			break;
		case M_QUERY:
			out_query(cards, ncards, sel, q, nq);
			break;
		case M_FW:
			out_fw(cards, ncards, sel);
			break;
		case M_HEALTH:
			ret = out_health(cards, ncards, sel);
			break;
		case M_PROM:
			out_prometheus(cards, ncards, sel);
			break;
		case M_RESET:
		case M_POWER:
			if (geteuid() != 0) {
				err("%s needs root (it writes the card's sysfs %s)",
				    mode == M_RESET ? "-r" : "-p",
				    mode == M_RESET ? "hard_reset" : "max_power");
				ret = EX_PERM;
				break;
			}
			for (i = 0; i < ncards; i++) {
				int r;

				if (!sel[i])
					continue;
				r = mode == M_RESET ? do_reset(&cards[i]) :
				    do_power(&cards[i], watts);
				if (r && !ret)
					ret = r;
			}
			break;
		}
		fflush(stdout);
		if (!loop || stop || (count && iter + 1 >= count))
			break;
		for (long s = 0; s < loop * 10 && !stop; s++)
			usleep(100000);
		if (stop)
			break;
		if (opt.fmt == FMT_TEXT && mode != M_QUERY)
			printf("\n");
	}
out:
	for (i = 0; i < ncards; i++) {
		gaudi_close(cards[i].dev);
		if (cards[i].sysfd >= 0)
			close(cards[i].sysfd);
	}
	free(procs);
	free(cards);
	free(sel);
	gaudi_cards_free(list);
	return ret;
}
