// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: actions, as root: -r (hard reset through sysfs hard_reset, then
 * wait for the card to be operational again) and -p (power cap through
 * sysfs max_power).
 *
 * A reset kills the work of the process that holds the card, so -r refuses
 * a held card and names the holder, unless --force: gaudi.ko's owner query
 * says who holds it, and on a driver without it (upstream's habanalabs) the
 * descriptors of the compute node in /proc, which root sees all of.  The
 * sysfs attribute itself resets whatever holds the card, as upstream's
 * does: the check is the tool's, a moment before its write.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "smi.h"

/* Who holds card @c ("pid P (comm)" into @who); false if nobody. */
static bool held_by(struct smi *s, struct card *c, char *who, size_t len)
{
	bool warned = true;	/* the error of an open, if any, is ours */
	unsigned int i;

	if (!c->dev)
		card_open_control(c, &warned);
	if (c->dev && c->ext) {
		struct gaudi_owner o;

		if (gaudi_owner(c->dev, &o))
			return false;
		if (o.state != GAUDI_OWNER_STATE_HELD)
			return false;
		snprintf(who, len, "pid %d (%.16s) for %llu s", o.pid, o.comm,
			 (unsigned long long)(o.held_ns / 1000000000ULL));
		return true;
	}
	scan_procs(&s->procs, s->cards, s->ncards);
	for (i = 0; i < s->procs.n; i++) {
		const struct proc *p = &s->procs.v[i];

		if (p->card == (int)c->index &&
		    !strncmp(p->node, "accel", 5) && p->node[5] != '_') {
			snprintf(who, len, "pid %d (%s)", p->pid, p->comm);
			return true;
		}
	}
	return false;
}

static int do_reset(struct smi *s, struct card *c)
{
	int64_t before = read_int_at(c->sysfd, "hard_reset_cnt");
	char who[96];
	unsigned int i;
	int ret;

	if (!s->force && held_by(s, c, who, sizeof(who))) {
		err("card %u (%s): not reset: held by %s; a reset ends its work (--force resets anyway)",
		    c->index, c->bus, who);
		return EX_BUSY;
	}
	if (s->force && held_by(s, c, who, sizeof(who)))
		fprintf(stderr, "%s: card %u (%s): held by %s, resetting anyway (--force)\n",
			opt.prog, c->index, c->bus, who);

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
	str_lower(c->status);
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

/* -r or -p on each selected card; the first failure is the exit status. */
static void run_action(struct smi *s, bool reset)
{
	unsigned int i;

	if (geteuid() != 0) {
		err("%s needs root (it writes the card's sysfs %s)",
		    reset ? "-r" : "-p", reset ? "hard_reset" : "max_power");
		s->status = EX_PERM;
		return;
	}
	for (i = 0; i < s->ncards; i++) {
		int r;

		if (!s->sel[i])
			continue;
		r = reset ? do_reset(s, &s->cards[i]) :
		    do_power(&s->cards[i], s->watts);
		if (r && !s->status)
			s->status = r;
	}
}

void run_reset(struct smi *s)
{
	run_action(s, true);
}

void run_power(struct smi *s)
{
	run_action(s, false);
}
