// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: --format json, of -Q (an array of objects, one a card), -q (one
 * object with the sections of each card and its processes; also plain
 * --format json) and --health.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "smi.h"

/*
 * The length of the well-formed UTF-8 sequence at @s (RFC 3629: no
 * overlong forms, no surrogates, at most U+10FFFF), 0 if there is none.
 */
size_t utf8_seq_len(const unsigned char *s)
{
	unsigned int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return n;
}

/*
 * A JSON string (RFC 8259) of @s, whatever its bytes: process and card
 * names come from the system and need not be UTF-8.  Quote, backslash and
 * control characters are escaped; a byte that starts no well-formed UTF-8
 * sequence becomes U+FFFD, so that the output is always valid UTF-8.
 */
void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t n = utf8_seq_len(p);

		if (!n) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

/* A JSON number, or null for what JSON cannot hold (NaN, infinities). */
void json_num(FILE *f, double v, int prec)
{
	if (isfinite(v))
		fprintf(f, "%.*f", prec, v);
	else
		fputs("null", f);
}

static void json_val(FILE *f, struct val v)
{
	char buf[64];

	switch (v.kind) {
	case V_INT:
		fputs(val_text(v, buf, sizeof(buf)), f);
		break;
	case V_NUM:
		json_num(f, v.d, v.prec);
		break;
	case V_STR:
		json_str(f, v.s);
		break;
	default:
		fputs("null", f);
	}
}

void query_json(const struct smi *s)
{
	const struct card *cards = s->cards;
	const enum fid *q = s->q;
	unsigned int i, j, k = 0;

	printf("[");
	for (i = 0; i < s->ncards; i++) {
		if (!s->sel[i])
			continue;
		printf("%s\n  {", k++ ? "," : "");
		for (j = 0; j < s->nq; j++) {
			printf("%s", j ? ", " : "");
			json_str(stdout, fields[q[j]].name);
			printf(": ");
			json_val(stdout, field_get(&cards[i], q[j]));
		}
		printf("}");
	}
	printf("%s]\n", k ? "\n" : "");
}

/* The temperature section's list of every hwmon sensor. */
static void json_sensors(const struct card *c)
{
	unsigned int j;

	printf(", \"sensors\": [");
	for (j = 0; j < c->ntemps; j++) {
		const struct temp *t = &c->temps[j];

		printf("%s{\"label\": ", j ? ", " : "");
		json_str(stdout, t->label);
		printf(", \"value\": ");
		json_val(stdout, vnum(t->mc, 1000, 0));
		printf(", \"limit\": ");
		json_val(stdout, vnum(t->max_mc, 1000, 0));
		printf(", \"critical\": ");
		json_val(stdout, vnum(t->crit_mc, 1000, 0));
		printf("}");
	}
	printf("]");
}

static void json_section(const struct smi *s, const struct card *c,
			 enum sect sec)
{
	int f, nf = 0;

	printf(",\n   \"%s\": {", sect_names[sec]);
	for (f = 0; f < Q_NUM; f++) {
		if (fields[f].sect != sec)
			continue;
		printf("%s", nf++ ? ", " : "");
		json_str(stdout, fields[f].name);
		printf(": ");
		json_val(stdout, field_get(c, f));
	}
	if (sec == S_TEMPERATURE)
		json_sensors(c);
	if (sec == S_NIC)
		nic_report_json(s, c);
	printf("}");
}

static void json_procs(const struct proc_list *pl, const struct card *c)
{
	unsigned int j, m = 0;

	printf(",\n   \"processes\": [");
	for (j = 0; j < pl->n; j++) {
		const struct proc *p = &pl->v[j];

		if (p->card != (int)c->index)
			continue;
		printf("%s{\"pid\": %d, \"command\": ", m++ ? ", " : "",
		       p->pid);
		json_str(stdout, p->comm);
		printf(", \"node\": ");
		json_str(stdout, p->node);
		printf(", \"host_memory_bytes\": ");
		json_val(stdout, vint(p->mem));
		printf(", \"source\": ");
		json_str(stdout, p->source);
		printf("}");
	}
	printf("]");
}

void report_json(const struct smi *s)
{
	unsigned int i, k = 0;
	int sec;

	printf("{\"gaudi_smi_version\": \"%s\", \"libgaudi_version\": ",
	       SMI_VERSION);
	json_str(stdout, gaudi_version());
	printf(",\n \"cards\": [");
	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		printf("%s\n  {\"index\": %u, \"pci.bus_id\": ",
		       k++ ? "," : "", c->index);
		json_str(stdout, c->bus);
		for (sec = 0; sec < S_NUM; sec++)
			if (s->sects[sec] && sect_has_data(c, sec))
				json_section(s, c, sec);
		if (s->procs_too)
			json_procs(&s->procs, c);
		printf("}");
	}
	printf("%s]}\n", k ? "\n " : "");
}

void health_json(const struct smi *s)
{
	const struct card *cards = s->cards;
	unsigned int i, k = 0;

	printf("[");
	for (i = 0; i < s->ncards; i++) {
		if (!s->sel[i])
			continue;
		printf("%s\n  {\"index\": %u, \"pci.bus_id\": \"%s\", \"health\": \"%s\", \"reason\": ",
		       k++ ? "," : "", cards[i].index, cards[i].bus,
		       health_names[cards[i].health]);
		json_str(stdout, cards[i].why);
		printf("}");
	}
	printf("%s]\n", k ? "\n" : "");
}
