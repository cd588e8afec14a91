// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host tests' fake system (smi_fake.h): a scratch folder for fake
 * sysfs trees, stdout captured into a buffer, and checks of the output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smi.h"
#include "smi_fake.h"
#include "tap.h"

char root[PATH_MAX - 64];
char out_path[PATH_MAX];
static char outbuf[65536];

void put(const char *rel, const char *val)
{
	char path[PATH_MAX * 2], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "%s\n", val);
	fclose(f);
}

void mkdirs(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s/x", root, rel);
	put(strchr(path + strlen(root), '/') + 1, "");
}

/* The line of @buf that begins with @prefix, into @line. */
const char *line_of(const char *buf, const char *prefix, char *line,
			   size_t len)
{
	const char *p = buf;

	line[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix))) {
			const char *e = strchr(p, '\n');

			snprintf(line, len, "%.*s",
				 (int)(e ? e - p : (long)strlen(p)), p);
			return line;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return line;
}

/* Run @fn with stdout into outbuf. */
const char *capture(void (*fn)(struct smi *), struct smi *s)
{
	int saved = dup(STDOUT_FILENO), fd;
	ssize_t n;

	fflush(stdout);
	fd = open(out_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDOUT_FILENO);
	fn(s);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, outbuf, sizeof(outbuf) - 1);
	close(fd);
	outbuf[n > 0 ? n : 0] = '\0';
	return outbuf;
}

bool json_valid(void)
{
	char cmd[PATH_MAX + 128];

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s",
		 out_path);
	return system(cmd) == 0;
}

int lines_matching(const char *buf, const char *prefix)
{
	const char *p = buf;
	int n = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

void show(const char *buf)
{
	const char *p = buf;

	while (*p) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);

		printf("#   %.*s\n", len, p);
		p += len + (e ? 1 : 0);
	}
}

int fake_init(const char *name)
{
	snprintf(root, sizeof(root), "%s/%s.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return -1;
	}
	snprintf(out_path, sizeof(out_path), "%s/out", root);
	return 0;
}

void fake_done(void)
{
	char cmd[PATH_MAX + 16];

	if (tap_failed)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		tap_diag("could not remove %s", root);
}
