/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gaudi.ko's debugfs register window (Documentation/accel/gaudi.rst):
 * write the CFG offset to "addr", then read or write "data32".  For the
 * guest tests that look at registers the user cannot reach.
 */
#ifndef GAUDI_TESTS_DBGFS_H
#define GAUDI_TESTS_DBGFS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

/* Write @v to debugfs file @file of card directory @dir; 0 or -errno. */
static inline int hl_dbgfs_put(const char *dir, const char *file, uint64_t v)
{
	char path[512];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	rc = fprintf(f, "0x%llx\n", (unsigned long long)v) < 0;
	rc |= fclose(f) != 0;
	return rc ? -EIO : 0;
}

/* Register @off of the card at @dir; ~0 if it cannot be read. */
static inline uint32_t hl_dbgfs_rd32(const char *dir, uint32_t off)
{
	unsigned long long v = ~0ULL;
	char path[512];
	FILE *f;

	if (hl_dbgfs_put(dir, "addr", off))
		return ~0U;
	snprintf(path, sizeof(path), "%s/data32", dir);
	f = fopen(path, "r");
	if (!f)
		return ~0U;
	if (fscanf(f, "%lli", &v) != 1)
		v = ~0ULL;
	fclose(f);
	return (uint32_t)v;
}

/* Write @v to register @off of the card at @dir; 0 or -errno. */
static inline int hl_dbgfs_wr32(const char *dir, uint32_t off, uint32_t v)
{
	int rc = hl_dbgfs_put(dir, "addr", off);

	return rc ? rc : hl_dbgfs_put(dir, "data32", v);
}

#endif /* GAUDI_TESTS_DBGFS_H */
