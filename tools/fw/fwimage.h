/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gaudi-fw: firmware image files -- reading, checking (with the FIT check
 * the device model uses too, firmware/fit, built into a small library) and
 * the exit codes of a refusal.
 */
#ifndef GAUDI_FW_IMAGE_H
#define GAUDI_FW_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "fit.h"

/* Image kinds: the FIT kinds, and "any" (take what the image says). */
#define FW_KIND_ANY	(-1)
#define FW_KIND_BOOT	GAUDI_FIT_BOOT
#define FW_KIND_MAIN	GAUDI_FIT_MAIN

/* Size the driver refuses: empty, not a multiple of 4 or above 20 MiB. */
#define FW_ESIZE	GAUDI_FIT_NR_ERR
#define FW_FILE_MAX	(20U << 20)

/* Exit codes (gaudi-fw.1). */
enum fw_exit {
	FW_EXIT_OK = 0,
	FW_EXIT_ERROR = 1,	/* anything not listed below */
	FW_EXIT_USAGE = 2,
	FW_EXIT_NOFILE = 3,	/* a file cannot be read or written */
	FW_EXIT_BUSY = 4,	/* the card is in use */
	FW_EXIT_NODEV = 5,	/* no such card, no driver, no flash support */
	FW_EXIT_FLASH = 6,	/* flash update failed; old image boots */
	FW_EXIT_NOPREV = 7,	/* nothing to roll back */
	FW_EXIT_PERM = 8,	/* needs root */
	FW_EXIT_NOTCONFIRMED = 9,
	FW_EXIT_IMAGE = 10,	/* + enum gaudi_fit_err, or + FW_ESIZE */
};

struct fw_check {
	int err;			/* GAUDI_FIT_OK, a gaudi_fit_err, FW_ESIZE */
	int kind;			/* FW_KIND_BOOT / FW_KIND_MAIN */
	char why[256];			/* one line, on failure */
	char targets[64];		/* "hl205, gaudi" */
	char version[GAUDI_FW_VER_LEN];
	char preboot[GAUDI_FW_VER_LEN];	/* boot-fit */
	char kernel_version[GAUDI_FW_VER_LEN];	/* main fit */
	char cpucp_version[GAUDI_FW_VER_LEN];
	char images[256];		/* "name (algo, algo); ..." */
	uint32_t totalsize;
};

/* Read a whole file (at most FW_FILE_MAX + 1 bytes); 0 or -errno. */
int fw_read_file(const char *path, uint8_t **buf, size_t *len);

/*
 * Check an image.  want_kind FW_KIND_ANY takes the kind the image claims
 * (a claim that is neither is "wrong kind").  Returns c->err.
 */
int fw_check_buf(const uint8_t *buf, size_t len, int want_kind,
		 struct fw_check *c);

/* FW_KIND_BOOT/MAIN for the two standard file names, else FW_KIND_ANY. */
int fw_kind_from_name(const char *path);
const char *fw_kind_file(int kind);	/* "gaudi-boot-fit.itb" ... */
const char *fw_kind_str(int kind);	/* "boot-fit", "fit" */
int fw_kind_parse(const char *s);	/* FW_KIND_*, or -2 if unknown */

/* Exit code for a check result. */
int fw_check_exit(int err);
const char *fw_err_str(int err);

#endif /* GAUDI_FW_IMAGE_H */
