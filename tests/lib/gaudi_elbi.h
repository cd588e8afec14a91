/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Root-only oracle for the in-guest tests: read and write one CFG register
 * of a card through the ELBI window in its PCI config space
 * (hw/gaudi1/regs.h, GAUDI_ELBI_*: 0xFF0 ADDR, 0xFF4 DATA, 0xFF8
 * CTRL with bit 31 = write, 0xFFC STS with bit 31 DONE and bit 30 ERR; an
 * ADDR of 0xFCxx_xxxx names CFG offset ADDR - 0xFC00_0000).  Drivers use
 * the window only early in probe, so a test may use it while a driver
 * runs (Debian's kernel refuses to map a BAR a driver holds).  The tests
 * use it to look at what no user ioctl shows: sync objects, monitors.
 */
#ifndef GAUDI_ELBI_H
#define GAUDI_ELBI_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The window's registers: hw/gaudi1/regs.h (Documentation/hw.rst). */
#include "../../hw/gaudi1/regs.h"
#include "hl_ioctl.h"

/* The PCI config file of accel@card (O_RDWR), or -1. */
static inline int elbi_open(int card)
{
	char bdf[64], path[128];

	if (hl_card_bdf(card, bdf, sizeof(bdf)))
		return -1;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", bdf);
	return open(path, O_RDWR | O_CLOEXEC);
}

static inline int elbi_cfg(int fd, bool wr, unsigned int off, uint32_t *v)
{
	ssize_t n = wr ? pwrite(fd, v, 4, off) : pread(fd, v, 4, off);

	return n == 4 ? 0 : -1;
}

/* Read (@wr false) or write CFG register @reg (an offset); 0 or -1. */
static inline int elbi_rw(int fd, bool wr, uint32_t reg, uint32_t *v)
{
	uint32_t addr = GAUDI_ELBI_CFG_BASE32 + reg, zero = 0, sts = 0;
	uint32_t ctrl = wr ? GAUDI_ELBI_CTRL_WRITE : 0;
	int i;

	if (fd < 0 || elbi_cfg(fd, true, GAUDI_ELBI_STS, &zero) ||
	    elbi_cfg(fd, true, GAUDI_ELBI_ADDR, &addr) ||
	    (wr && elbi_cfg(fd, true, GAUDI_ELBI_DATA, v)) ||
	    elbi_cfg(fd, true, GAUDI_ELBI_CTRL, &ctrl))
		return -1;
	for (i = 0; i < 1000; i++) {
		if (elbi_cfg(fd, false, GAUDI_ELBI_STS, &sts))
			return -1;
		if (sts & GAUDI_ELBI_STS_DONE)
			break;
		usleep(100);
	}
	if (!(sts & GAUDI_ELBI_STS_DONE) || (sts & GAUDI_ELBI_STS_ERR))
		return -1;
	return wr ? 0 : elbi_cfg(fd, false, GAUDI_ELBI_DATA, v);
}

#endif /* GAUDI_ELBI_H */
