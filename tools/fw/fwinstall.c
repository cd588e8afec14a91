// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-fw: atomic install and rollback in the firmware directory.
 *
 * Nothing is ever written in place: a new file is complete and on disk
 * (fsync) before a rename makes it visible, and the file it replaces stays
 * reachable as <name>.prev through a hard link made before the rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fwinstall.h"

static int mkdirs(const char *dir)
{
	char path[4096], *p;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

/* A unique temporary name in dfd for name; its fd, or -errno. */
static int tmp_create(int dfd, const char *name, char *tmp, size_t tmplen)
{
	unsigned int i;
	int fd;

	for (i = 0; i < 100; i++) {
		snprintf(tmp, tmplen, ".%s.%d.%u.tmp", name, (int)getpid(), i);
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    0644);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

int fw_install(const char *dir, const char *name, const uint8_t *buf,
	       size_t len)
{
	char tmp[512], prev[512], ptmp[512];
	struct stat st;
	int dfd, fd, ret;

	ret = mkdirs(dir);
	if (ret)
		return ret;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	fd = tmp_create(dfd, name, tmp, sizeof(tmp));
	if (fd < 0) {
		close(dfd);
		return fd;
	}
	ret = write_all(fd, buf, len);
	if (!ret && fchmod(fd, 0644))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		goto err_unlink;

	/* The current file stays reachable as name.prev. */
	snprintf(prev, sizeof(prev), "%s%s", name, FW_PREV_SUFFIX);
	if (!fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		snprintf(ptmp, sizeof(ptmp), ".%s%s.%d.tmp", name,
			 FW_PREV_SUFFIX, (int)getpid());
		unlinkat(dfd, ptmp, 0);
		if (linkat(dfd, name, dfd, ptmp, 0) ||
		    renameat(dfd, ptmp, dfd, prev)) {
			ret = -errno;
			unlinkat(dfd, ptmp, 0);
			goto err_unlink;
		}
	} else if (errno != ENOENT) {
		ret = -errno;
		goto err_unlink;
	}
	if (renameat(dfd, tmp, dfd, name)) {
		ret = -errno;
		goto err_unlink;
	}
	if (fsync(dfd))
		ret = -errno;
	close(dfd);
	return ret;

err_unlink:
	unlinkat(dfd, tmp, 0);
	close(dfd);
	return ret;
}

int fw_rollback(const char *dir, const char *name)
{
	char prev[512], tmp[512];
	struct stat st;
	int dfd, ret = 0;

	snprintf(prev, sizeof(prev), "%s%s", name, FW_PREV_SUFFIX);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (fstatat(dfd, prev, &st, AT_SYMLINK_NOFOLLOW)) {
		ret = -errno;
		goto out;
	}
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT || renameat(dfd, prev, dfd, name))
			ret = -errno;
		goto out_sync;
	}
	if (!renameat2(dfd, prev, dfd, name, RENAME_EXCHANGE))
		goto out_sync;
	if (errno != EINVAL && errno != ENOSYS) {
		ret = -errno;
		goto out;
	}
	/* No atomic exchange here: name always exists in between. */
	snprintf(tmp, sizeof(tmp), ".%s.%d.swap", name, (int)getpid());
	unlinkat(dfd, tmp, 0);
	if (linkat(dfd, name, dfd, tmp, 0) ||
	    renameat(dfd, prev, dfd, name) || renameat(dfd, tmp, dfd, prev)) {
		ret = -errno;
		unlinkat(dfd, tmp, 0);
		goto out;
	}
out_sync:
	if (!ret && fsync(dfd))
		ret = -errno;
out:
	close(dfd);
	return ret;
}
