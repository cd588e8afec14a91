/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gaudi-fw: atomic install into the firmware directory, with the replaced
 * file kept as <name>.prev for rollback.
 */
#ifndef GAUDI_FW_INSTALL_H
#define GAUDI_FW_INSTALL_H

#include <stddef.h>
#include <stdint.h>

#define FW_DIR_DEFAULT	"/lib/firmware/habanalabs/gaudi"
#define FW_PREV_SUFFIX	".prev"

/*
 * Write buf to dir/name: a temporary file in dir, fsync, then the current
 * dir/name (if any) is hard-linked to name.prev and the temporary renamed
 * over name; the directory is fsync'ed.  A crash leaves either the old or
 * the new file under name.  Creates dir if missing.  0 or -errno.
 */
int fw_install(const char *dir, const char *name, const uint8_t *buf,
	       size_t len);

/*
 * Exchange dir/name and dir/name.prev (rename if name is missing), so a
 * second rollback undoes the first.  -ENOENT when there is no .prev.
 */
int fw_rollback(const char *dir, const char *name);

#endif /* GAUDI_FW_INSTALL_H */
