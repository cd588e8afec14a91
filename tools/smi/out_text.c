// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: the text views.  The default table of cards and processes
 * (box drawing on a UTF-8 terminal, ASCII otherwise), -L, --fw-versions,
 * the -q report by sections and the --health verdict lines.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "smi.h"

/* ---- default table ----------------------------------------------------- */

struct box {
	const char *h, *v, *tl, *tm, *tr, *ml, *mm, *mr, *bl, *bm, *br;
};
static const struct box box_ascii = {
	"-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "+"
};
static const struct box box_utf8 = {
	"\u2500", "\u2502", "\u250c", "\u252c", "\u2510", "\u251c", "\u253c",
	"\u2524", "\u2514", "\u2534", "\u2518"
};

struct col {
	const char *title;
	int width;
	bool right;
};

static void rule(const struct box *b, const struct col *cols, int n,
		 const char *l, const char *m, const char *r)
{
	int i, j;

	fputs(l, stdout);
	for (i = 0; i < n; i++) {
		for (j = 0; j < cols[i].width + 2; j++)
			fputs(b->h, stdout);
		fputs(i == n - 1 ? r : m, stdout);
	}
	fputc('\n', stdout);
}

static void row(const struct box *b, const struct col *cols, int n,
		char cells[][64])
{
	int i;

	fputs(b->v, stdout);
	for (i = 0; i < n; i++) {
		int w = cols[i].width;
		char tmp[64];

		/* Cut overlong text with a '~' so the table keeps its shape. */
		if ((int)strlen(cells[i]) > w) {
			snprintf(tmp, sizeof(tmp), "%.*s~", w - 1, cells[i]);
			snprintf(cells[i], 64, "%s", tmp);
		}
		printf(cols[i].right ? " %*s " : " %-*s ", w, cells[i]);
		fputs(b->v, stdout);
	}
	fputc('\n', stdout);
}

/* The firmware column: the first word of the CPU-CP version. */
static void short_fw(const struct card *c, char *out, size_t len)
{
	const char *s = c->fw_have[0] ? c->fw[0] : "";
	size_t n = strcspn(s, " ");

	snprintf(out, len, "%.*s", (int)(n ? n : 3), n ? s : "N/A");
}

static void table_cards(const struct smi *s, const struct box *b)
{
	static const struct col cols[] = {
		{ "Idx", 3, true }, { "Name", 8, false },
		{ "Bus Id", 12, false }, { "Temp", 5, true },
		{ "Power Draw/Cap", 14, true }, { "Memory Used/Total", 19, true },
		{ "Util", 4, true }, { "Status", 11, false },
		{ "Firmware", 28, false },
	};
	const int nc = ARRAY_LEN(cols);
	char cells[9][64], a[24], c2[24];
	unsigned int i;
	int j;

	rule(b, cols, nc, b->tl, b->tm, b->tr);
	for (j = 0; j < nc; j++)
		snprintf(cells[j], 64, "%s", cols[j].title);
	row(b, cols, nc, cells);
	rule(b, cols, nc, b->ml, b->mm, b->mr);
	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		snprintf(cells[0], 64, "%u", c->index);
		snprintf(cells[1], 64, "%s", c->name);
		snprintf(cells[2], 64, "%s", c->bus);
		val_text(field_get(c, Q_TEMP), a, sizeof(a));
		snprintf(cells[3], 64, "%s%s", a,
			 c->ntemps && c->temps[0].mc != NA ? "C" : "");
		val_text(vnum(c->power_mw, 1000, 0), a, sizeof(a));
		val_text(vnum(c->cap_mw, 1000, 0), c2, sizeof(c2));
		snprintf(cells[4], 64, "%s%s / %s%s", a,
			 c->power_mw != NA ? "W" : "", c2,
			 c->cap_mw != NA ? "W" : "");
		val_text(field_get(c, Q_MEM_USED), a, sizeof(a));
		val_text(field_get(c, Q_MEM_TOTAL), c2, sizeof(c2));
		if (c->mem_total == NA)
			snprintf(cells[5], 64, "N/A");
		else
			snprintf(cells[5], 64, "%s / %sMiB", a, c2);
		val_text(field_get(c, Q_UTIL), a, sizeof(a));
		snprintf(cells[6], 64, "%s%s", a, c->util != NA ? "%" : "");
		snprintf(cells[7], 64, "%s", c->status);
		short_fw(c, cells[8], 64);
		row(b, cols, nc, cells);
	}
	rule(b, cols, nc, b->bl, b->bm, b->br);
}

static void table_procs(const struct smi *s, const struct box *b)
{
	static const struct col pcols[] = {
		{ "Card", 4, true }, { "PID", 7, true },
		{ "Command", 16, false }, { "Node", 16, false },
		{ "Host Memory", 11, true }, { "Seen Through", 12, false },
	};
	const int np = ARRAY_LEN(pcols);
	const struct proc_list *pl = &s->procs;
	char cells[9][64];
	unsigned int i, k;
	int j;

	printf("Processes:\n");
	rule(b, pcols, np, b->tl, b->tm, b->tr);
	for (j = 0; j < np; j++)
		snprintf(cells[j], 64, "%s", pcols[j].title);
	row(b, pcols, np, cells);
	rule(b, pcols, np, b->ml, b->mm, b->mr);
	for (i = 0, k = 0; i < pl->n; i++) {
		const struct proc *p = &pl->v[i];

		if (p->card >= 0 && !s->sel[p->card])
			continue;
		k++;
		if (p->card >= 0)
			snprintf(cells[0], 64, "%d", p->card);
		else
			snprintf(cells[0], 64, "?");
		snprintf(cells[1], 64, "%d", p->pid);
		snprintf(cells[2], 64, "%s", p->comm);
		snprintf(cells[3], 64, "%s", p->node);
		if (p->mem == NA)
			snprintf(cells[4], 64, "N/A");
		else
			snprintf(cells[4], 64, "%lldMiB",
				 (long long)(p->mem >> 20));
		snprintf(cells[5], 64, "%s", p->source);
		row(b, pcols, np, cells);
	}
	if (!k) {
		bool hidden = false;
		const char *msg;
		int w = 0;

		/* The owner query covers what /proc hides. */
		for (i = 0; i < s->ncards; i++)
			if (s->sel[i] && !s->cards[i].owner_ok)
				hidden = pl->partial;
		msg = hidden ?
			"No process visible (not root: other users' processes are hidden)" :
			"No running processes found";
		for (j = 0; j < np; j++)
			w += pcols[j].width + 3;
		printf("%s %-*s%s\n", b->v, w - 3, msg, b->v);
	}
	rule(b, pcols, np, b->bl, b->bm, b->br);
}

/* The default view: a table of the cards, then one of the processes. */
void run_table(struct smi *s)
{
	const struct box *b = opt.utf8 ? &box_utf8 : &box_ascii;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	printf("gaudi-smi %s  libgaudi %s  driver %s  %s\n", SMI_VERSION,
	       gaudi_version(), s->drvsum, date);
	table_cards(s, b);
	table_procs(s, b);
}

void run_list(struct smi *s)
{
	const struct card *cards = s->cards;
	unsigned int i;

	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &cards[i];

		if (!s->sel[i])
			continue;
		printf("Card %u: %s (bus id %s, module %lld, driver %s, %s)\n",
		       c->index, c->name, c->bus, (long long)c->module_id,
		       c->driver, gaudi_card_compute_node(c->gc) ?
		       gaudi_card_compute_node(c->gc) : "no compute node");
	}
}

void run_fw(struct smi *s)
{
	const struct card *cards = s->cards;
	unsigned int i, j;

	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &cards[i];

		if (!s->sel[i])
			continue;
		printf("Card %u: %s\n", c->index, c->bus);
		for (j = 0; j < NUM_FW; j++)
			printf("    %-18s : %s\n", fw_attrs[j].label,
			       c->fw_have[j] ? c->fw[j] : "N/A");
	}
}

/* ---- -q report --------------------------------------------------------- */

static void report_procs(const struct proc_list *pl, const struct card *c)
{
	unsigned int i, k = 0;
	char mem[32];

	printf("    Processes\n");
	for (i = 0; i < pl->n; i++) {
		const struct proc *p = &pl->v[i];

		if (p->card != (int)c->index)
			continue;
		k++;
		if (p->mem == NA)
			snprintf(mem, sizeof(mem), "N/A");
		else
			snprintf(mem, sizeof(mem), "%lld MiB",
				 (long long)(p->mem >> 20));
		printf("        %-30s : %d %s (%s, host memory %s, from %s)\n",
		       "Process", p->pid, p->comm, p->node, mem, p->source);
	}
	if (!k)
		printf("        %-30s : %s\n", "Process",
		       pl->partial && !c->owner_ok ? "none visible" : "none");
}

static void report_fields(const struct card *c, enum sect sec)
{
	char buf[FWV_LEN + 16];
	int f;

	for (f = 0; f < Q_NUM; f++) {
		struct val v;

		if (fields[f].sect != sec)
			continue;
		v = field_get(c, f);
		val_text(v, buf, sizeof(buf));
		printf("        %-30s : %s%s%s\n",
		       fields[f].label, buf,
		       v.kind == V_INT || v.kind == V_NUM ?
		       (fields[f].unit[0] ? " " : "") : "",
		       v.kind == V_INT || v.kind == V_NUM ?
		       fields[f].unit : "");
	}
}

static void report_sensors(const struct card *c)
{
	unsigned int j;

	for (j = 0; j < c->ntemps; j++) {
		const struct temp *t = &c->temps[j];
		char lab[64], a[16], b[16], d[16];

		snprintf(lab, sizeof(lab), "Sensor %s", t->label);
		printf("        %-30s : %s C (limit %s C, critical %s C)\n",
		       lab,
		       val_text(vnum(t->mc, 1000, 0), a, sizeof(a)),
		       val_text(vnum(t->max_mc, 1000, 0), b, sizeof(b)),
		       val_text(vnum(t->crit_mc, 1000, 0), d, sizeof(d)));
	}
}

void report_text(const struct smi *s)
{
	unsigned int i, k = 0;
	int sec;

	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		printf("%sCard %u: %s\n", k++ ? "\n" : "", c->index, c->bus);
		for (sec = 0; sec < S_NUM; sec++) {
			if (!s->sects[sec])
				continue;
			printf("    %s\n", sect_titles[sec]);
			if (!sect_has_data(c, sec)) {
				printf("        %-30s : %s\n", "Ports",
				       "none (no NIC driver bound)");
				continue;
			}
			report_fields(c, sec);
			if (sec == S_TEMPERATURE)
				report_sensors(c);
			if (sec == S_NIC)
				nic_report_text(s, c);
		}
		if (s->procs_too)
			report_procs(&s->procs, c);
	}
}

void health_text(const struct smi *s)
{
	const struct card *cards = s->cards;
	unsigned int i;

	for (i = 0; i < s->ncards; i++) {
		if (!s->sel[i])
			continue;
		printf("card %u %s %s: %s\n", cards[i].index, cards[i].bus,
		       health_names[cards[i].health], cards[i].why);
	}
}
