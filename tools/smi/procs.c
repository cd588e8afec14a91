// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: process scan.  Which processes hold which card: the
 * /dev/accel/accelN descriptors in /proc/<pid>/fd with their DRM fdinfo
 * (client id, memory), then gaudi.ko's owner query for holders /proc does
 * not show this user.
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
#include <unistd.h>

#include "smi.h"

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

static struct proc *proc_add(struct proc_list *pl)
{
	struct proc *p;

	if (pl->n == pl->cap) {
		unsigned int cap = pl->cap ? pl->cap * 2 : 16;

		p = realloc(pl->v, cap * sizeof(*p));
		if (!p)
			return NULL;
		pl->v = p;
		pl->cap = cap;
	}
	p = &pl->v[pl->n++];
	memset(p, 0, sizeof(*p));
	p->mem = NA;
	p->client_id = NA;
	return p;
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

void scan_procs(struct proc_list *pl, struct card *cards, unsigned int ncards)
{
	struct dirent *pe;
	DIR *proc;
	unsigned int i;

	pl->n = 0;
	pl->partial = false;
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
				pl->partial = true;
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
			p = proc_add(pl);
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
		for (j = 0; j < pl->n; j++)
			if (pl->v[j].card == (int)i &&
			    (pl->v[j].pid == o->pid || !o->pid))
				seen = true;
		if (seen)
			continue;
		p = proc_add(pl);
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

