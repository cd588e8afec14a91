/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host tests' fake system: a scratch folder (root) for fake sysfs
 * trees and the output of a view captured into a buffer.
 */
#ifndef SMI_FAKE_H
#define SMI_FAKE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct smi;

extern char root[PATH_MAX - 64];	/* the scratch folder */
extern char out_path[PATH_MAX];		/* where capture() writes */

/* The scratch folder $TMPDIR/@name.XXXXXX; -1 on failure. */
int fake_init(const char *name);
/* Remove it, unless a test failed (it is kept to look at). */
void fake_done(void);
/* File @rel below root (folders made as needed) holding @val and "\n". */
void put(const char *rel, const char *val);
/* Folder @rel below root. */
void mkdirs(const char *rel);
/* Run @fn with stdout into a buffer (also out_path); returns the buffer. */
const char *capture(void (*fn)(struct smi *), struct smi *s);
/* Whether out_path is JSON as python3's json module reads it. */
bool json_valid(void);
/* The line of @buf that begins with @prefix, into @line ("" if none). */
const char *line_of(const char *buf, const char *prefix, char *line,
		    size_t len);
/* How many lines of @buf begin with @prefix. */
int lines_matching(const char *buf, const char *prefix);
/* @buf as TAP diagnostics. */
void show(const char *buf);

#endif /* SMI_FAKE_H */
