// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: health.  The verdict of a card (OK, WARN, FAIL and why) from
 * what collect() read, and --health's exit status.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "smi.h"

const char *const health_names[] = { "OK", "WARN", "FAIL" };

#define RESET_WARN	3	/* hard resets since load that make a warning */

static void add_why(struct card *c, enum health h, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_why(struct card *c, enum health h, const char *fmt, ...)
{
	size_t len = strlen(c->why);
	va_list ap;

	if (h > c->health)
		c->health = h;
	if (len && len < sizeof(c->why) - 2)
		len += snprintf(c->why + len, sizeof(c->why) - len, "; ");
	if (len >= sizeof(c->why))
		return;
	va_start(ap, fmt);
	vsnprintf(c->why + len, sizeof(c->why) - len, fmt, ap);
	va_end(ap);
}

/*
 * Whether the control node exists but this user may not open it: upstream's
 * are 0600 and libgaudi cannot even pair them with their card without read
 * access.
 */
bool ctrl_unreadable(const struct card *c)
{
	return c->dev_err == -EACCES || c->dev_err == -EPERM ||
	       (!gaudi_card_control_node(c->gc) && geteuid() != 0 &&
		!strcmp(c->driver, "habanalabs"));
}

void judge(struct card *c)
{
	unsigned int i;

	c->health = H_OK;
	c->why[0] = '\0';
	if (strcmp(c->status, "operational"))
		add_why(c, H_FAIL, "status %s", c->status);
	for (i = 0; i < c->ntemps; i++) {
		const struct temp *t = &c->temps[i];

		if (t->crit_mc != NA && t->mc >= t->crit_mc)
			add_why(c, H_FAIL, "%s %lld C at or above critical %lld C",
				t->label, (long long)(t->mc / 1000),
				(long long)(t->crit_mc / 1000));
		else if (t->max_mc != NA && t->mc >= t->max_mc)
			add_why(c, H_WARN, "%s %lld C at or above limit %lld C",
				t->label, (long long)(t->mc / 1000),
				(long long)(t->max_mc / 1000));
	}
	if (c->ev_reset[EVC_DERR] > 0)
		add_why(c, H_FAIL, "%lld uncorrectable ECC events since the last reset",
			(long long)c->ev_reset[EVC_DERR]);
	if (c->ev_reset[EVC_FATAL] > 0)
		add_why(c, H_FAIL, "%lld fatal events since the last reset",
			(long long)c->ev_reset[EVC_FATAL]);
	if (c->ev_reset[EVC_SERR] > 0)
		add_why(c, H_WARN, "%lld corrected ECC events since the last reset",
			(long long)c->ev_reset[EVC_SERR]);
	if (c->reset_hard != NA && c->reset_hard >= RESET_WARN)
		add_why(c, H_WARN, "%lld hard resets since the driver loaded",
			(long long)c->reset_hard);
	if (!c->dev)
		add_why(c, H_OK, "events not checked: control node %s",
			ctrl_unreadable(c) ? "not readable" : "not available");
	if (!c->why[0]) {
		if (c->reset_hard > 0)
			snprintf(c->why, sizeof(c->why),
				 "operational, recovered from %lld hard resets",
				 (long long)c->reset_hard);
		else
			snprintf(c->why, sizeof(c->why), "operational");
	}
}

/* --health's exit status: the worst verdict of the selected cards. */
int health_exit(const struct smi *s)
{
	enum health worst = H_OK;
	unsigned int i;

	for (i = 0; i < s->ncards; i++)
		if (s->sel[i] && s->cards[i].health > worst)
			worst = s->cards[i].health;
	return worst == H_FAIL ? EX_UNHEALTHY :
	       worst == H_WARN ? EX_DEGRADED : EX_OK;
}
