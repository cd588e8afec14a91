// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_model_ctl - read and write the device model's control window
 * (Documentation/emulator/model-control.rst) of one emulated Gaudi card from
 * the guest, through the PCI sysfs resource file of BAR2. The window is at
 * CFG offset 0x3FF_F000, i.e. BAR2 + 0x400_0000 + 0x3FF_F000, and is decoded
 * only when the VM was started with --device-opts test-hooks=on.
 *
 *   gaudi_model_ctl BDF                     print every named register
 *   gaudi_model_ctl BDF get REG             print one register (decimal)
 *   gaudi_model_ctl BDF set REG VALUE       write one register
 *   gaudi_model_ctl BDF event TYPE [D0..]   post an event with payload words
 *
 * REG is a name (magic, version, event_type, cpu_hang, boot_fail, eq_drops,
 * cpucp_count, fit_reason, qm_hang, qm_unhang, qm_hung_count, qm_errors) or
 * a byte offset in the window (0x54). Exit status: 0 ok, 1 window not
 * usable (no test hooks, no such device), 2 usage.
 *
 * Access path: the BAR2 mapping of the sysfs resource file when the kernel
 * allows it. While a driver holds the BARs, Debian's kernel
 * (CONFIG_IO_STRICT_DEVMEM=y) refuses that mmap with EINVAL; the tool then
 * goes through the ELBI window in PCI config space (hw/gaudi1/regs.h:
 * 0xFF0 ADDR, 0xFF4 DATA, 0xFF8 CTRL, 0xFFC STS), which reaches the same
 * CFG registers and which drivers use only early in probe. GAUDI_MODEL_CTL_VIA
 * =bar or =elbi forces one path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

/* Hardware facts: BAR2 and the ELBI window (Documentation/hw.rst). */
#include "../../../hw/gaudi1/memmap.h"
#include "../../../hw/gaudi1/regs.h"

#define CFG_IN_BAR2		((unsigned long)GAUDI_BAR2_CFG_OFFSET)
#define MODEL_CTL_BASE		0x3FFF000UL
#define MODEL_CTL_SIZE		0x1000UL
#define MODEL_CTL_MAGIC		0x434D4447U	/* "GDMC" */
#define REG_EVENT_TYPE		0x010
#define REG_EVENT_DATA0		0x014
#define EVENT_DATA_WORDS	14
#define PCI_COMMAND		0x04
#define PCI_COMMAND_MEMORY	0x2
#define CFG_BASE_32		GAUDI_ELBI_CFG_BASE32	/* CFG in 32-bit device form */

static const struct {
	const char *name;
	unsigned int off;
} regs[] = {
	{ "magic", 0x000 },
	{ "version", 0x004 },
	{ "event_type", 0x010 },
	{ "cpu_hang", 0x050 },
	{ "boot_fail", 0x054 },
	{ "eq_drops", 0x058 },
	{ "cpucp_count", 0x05C },
	{ "fit_reason", 0x060 },
	{ "qm_hang", 0x100 },
	{ "qm_unhang", 0x104 },
	{ "qm_hung_count", 0x108 },
	{ "qm_errors", 0x10C },
};

static const char *bdf;
static volatile uint32_t *win;	/* BAR path */
static int cfg_fd = -1;		/* ELBI path */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: gaudi_model_ctl BDF [get REG | set REG VALUE | event TYPE [DATA...]]\n"
		"  BDF    PCI address of the card, e.g. 0000:01:00.0\n"
		"  REG    magic version event_type cpu_hang boot_fail eq_drops\n"
		"         cpucp_count fit_reason qm_hang qm_unhang qm_hung_count\n"
		"         qm_errors, or a byte offset in the window (< 0x1000)\n"
		"Without a command, prints every named register.\n");
}

static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || end == s || x > 0xFFFFFFFFULL)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int reg_offset(const char *s, unsigned int *off)
{
	uint32_t v;

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		if (!strcasecmp(s, regs[i].name)) {
			*off = regs[i].off;
			return 0;
		}
	}
	if (parse_u32(s, &v) || v >= MODEL_CTL_SIZE || (v & 3))
		return -1;
	*off = v;
	return 0;
}

/* Memory decoding must be on for the BAR mapping to reach the device. */
static int enable_memory_decode(void)
{
	char path[256];
	uint16_t cmd;
	int fd, rc = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", bdf);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "gaudi_model_ctl: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (pread(fd, &cmd, 2, PCI_COMMAND) != 2)
		goto out;
	if (!(cmd & PCI_COMMAND_MEMORY)) {
		cmd |= PCI_COMMAND_MEMORY;
		if (pwrite(fd, &cmd, 2, PCI_COMMAND) != 2)
			goto out;
	}
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "gaudi_model_ctl: %s: PCI command register: %s\n",
			bdf, strerror(errno));
	close(fd);
	return rc;
}

static volatile uint32_t *map_window(void)
{
	char path[256];
	void *p;
	int fd;

	if (enable_memory_decode())
		return NULL;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource2", bdf);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "gaudi_model_ctl: %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	p = mmap(NULL, MODEL_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)(CFG_IN_BAR2 + MODEL_CTL_BASE));
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static int cfg_rw(bool wr, unsigned int off, uint32_t *v)
{
	ssize_t n = wr ? pwrite(cfg_fd, v, 4, off) : pread(cfg_fd, v, 4, off);

	return n == 4 ? 0 : -1;
}

/* One ELBI access; returns 0 or -1 (and says why). */
static int elbi(bool wr, unsigned int off, uint32_t *v)
{
	uint32_t addr = CFG_BASE_32 + (uint32_t)MODEL_CTL_BASE + off;
	uint32_t zero = 0, ctrl = wr ? GAUDI_ELBI_CTRL_WRITE : 0, sts = 0;

	if (cfg_rw(true, GAUDI_ELBI_STS, &zero) || cfg_rw(true, GAUDI_ELBI_ADDR, &addr) ||
	    (wr && cfg_rw(true, GAUDI_ELBI_DATA, v)) ||
	    cfg_rw(true, GAUDI_ELBI_CTRL, &ctrl))
		goto io;
	for (int i = 0; i < 1000; i++) {
		if (cfg_rw(false, GAUDI_ELBI_STS, &sts))
			goto io;
		if (sts & GAUDI_ELBI_STS_DONE)
			break;
		usleep(100);
	}
	if (!(sts & GAUDI_ELBI_STS_DONE) || (sts & GAUDI_ELBI_STS_ERR)) {
		fprintf(stderr, "gaudi_model_ctl: %s: ELBI %s of 0x%08x: status 0x%08x\n",
			bdf, wr ? "write" : "read", addr, sts);
		return -1;
	}
	if (!wr && cfg_rw(false, GAUDI_ELBI_DATA, v))
		goto io;
	return 0;
io:
	fprintf(stderr, "gaudi_model_ctl: %s: config space: %s\n", bdf,
		strerror(errno));
	return -1;
}

static uint32_t reg_read(unsigned int off)
{
	uint32_t v = 0;

	if (win)
		return win[off / 4];
	if (elbi(false, off, &v))
		exit(1);
	return v;
}

static void reg_write(unsigned int off, uint32_t v)
{
	if (win)
		win[off / 4] = v;
	else if (elbi(true, off, &v))
		exit(1);
}

static int open_window(void)
{
	const char *via = getenv("GAUDI_MODEL_CTL_VIA");
	char path[256];

	if (!via || strcmp(via, "elbi")) {
		win = map_window();
		if (win || (via && !strcmp(via, "bar")))
			return win ? 0 : -1;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", bdf);
	cfg_fd = open(path, O_RDWR | O_CLOEXEC);
	if (cfg_fd < 0) {
		fprintf(stderr, "gaudi_model_ctl: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int off;
	uint32_t v, magic;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	bdf = argv[1];
	if (strchr(bdf, '/') || strlen(bdf) > 32) {
		fprintf(stderr, "gaudi_model_ctl: bad BDF '%s'\n", bdf);
		return 2;
	}
	if (open_window())
		return 1;
	magic = reg_read(0);
	if (magic != MODEL_CTL_MAGIC) {
		fprintf(stderr,
			"gaudi_model_ctl: %s: control window magic 0x%08x, want 0x%08x (test-hooks=on?)\n",
			bdf, magic, MODEL_CTL_MAGIC);
		return 1;
	}

	if (argc == 2) {
		for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			printf("%s=0x%x\n", regs[i].name,
			       reg_read(regs[i].off));
		return 0;
	}
	if (!strcmp(argv[2], "get") && argc == 4) {
		if (reg_offset(argv[3], &off)) {
			fprintf(stderr, "gaudi_model_ctl: bad register '%s'\n",
				argv[3]);
			return 2;
		}
		printf("%u\n", reg_read(off));
		return 0;
	}
	if (!strcmp(argv[2], "set") && argc == 5) {
		if (reg_offset(argv[3], &off) || parse_u32(argv[4], &v)) {
			fprintf(stderr, "gaudi_model_ctl: bad register or value '%s' '%s'\n",
				argv[3], argv[4]);
			return 2;
		}
		reg_write(off, v);
		return 0;
	}
	if (!strcmp(argv[2], "event") && argc >= 4 &&
	    argc <= 4 + EVENT_DATA_WORDS) {
		uint32_t type;

		if (parse_u32(argv[3], &type)) {
			fprintf(stderr, "gaudi_model_ctl: bad event type '%s'\n",
				argv[3]);
			return 2;
		}
		for (int i = 0; i < EVENT_DATA_WORDS; i++) {
			v = 0;
			if (4 + i < argc && parse_u32(argv[4 + i], &v)) {
				fprintf(stderr, "gaudi_model_ctl: bad data word '%s'\n",
					argv[4 + i]);
				return 2;
			}
			reg_write(REG_EVENT_DATA0 + 4 * i, v);
		}
		reg_write(REG_EVENT_TYPE, type);	/* posts the event */
		return 0;
	}
	usage(stderr);
	return 2;
}
