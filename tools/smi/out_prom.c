// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: --prometheus, the Prometheus text exposition format for node
 * exporter's textfile collector: identity, up, health, every hwmon sensor,
 * the numeric fields of the table below and the events by class.  Each
 * metric family is a HELP and a TYPE line, then a sample function called
 * for each selected card.
 */
#include <stdio.h>
#include <string.h>

#include "smi.h"

/* A family: name, type, help, the card's samples and their argument. */
struct pfamily {
	const char *name, *type, *help;
	void (*sample)(const struct pfamily *pf, const struct card *c);
	enum fid f;		/* prom_field: the field */
	double scale;		/* prom_field: multiply the field's value */
};

/* "NAME{card=...,bus_id=..." of a sample; the caller closes the braces. */
static void prom_open(const struct pfamily *pf, const struct card *c)
{
	printf("%s{card=\"%u\",bus_id=\"%s\"", pf->name, c->index, c->bus);
}

static void prom_label_escaped(const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if (*s == '\n') {
			fputs("\\n", stdout);
			continue;
		}
		putchar(*s);
	}
}

static void prom_info(const struct pfamily *pf, const struct card *c)
{
	prom_open(pf, c);
	printf(",name=\"");
	prom_label_escaped(c->name);
	printf("\",driver=\"");
	prom_label_escaped(c->driver);
	printf("\",firmware=\"");
	prom_label_escaped(c->fw_have[0] ? c->fw[0] : "");
	printf("\"} 1\n");
}

static void prom_up(const struct pfamily *pf, const struct card *c)
{
	prom_open(pf, c);
	printf("} %d\n", !strcmp(c->status, "operational"));
}

static void prom_health(const struct pfamily *pf, const struct card *c)
{
	prom_open(pf, c);
	printf("} %d\n", c->health);
}

static void prom_temps(const struct pfamily *pf, const struct card *c)
{
	unsigned int j;

	for (j = 0; j < c->ntemps; j++) {
		prom_open(pf, c);
		printf(",sensor=\"");
		prom_label_escaped(c->temps[j].label);
		printf("\"} %.3f\n", c->temps[j].mc / 1000.0);
	}
}

/* A numeric field, scaled to the metric's base unit; nothing when N/A. */
static void prom_field(const struct pfamily *pf, const struct card *c)
{
	struct val v = field_get(c, pf->f);

	if (v.kind == V_NA)
		return;
	prom_open(pf, c);
	printf("} %.17g\n",
	       (v.kind == V_INT ? (double)v.i : v.d) * pf->scale);
}

static void prom_events(const struct pfamily *pf, const struct card *c)
{
	unsigned int j;

	if (c->ev_load[0] == NA)
		return;
	for (j = 0; j < EVC_NUM; j++) {
		prom_open(pf, c);
		printf(",class=\"%s\"} %lld\n", evc_names[j],
		       (long long)c->ev_load[j]);
	}
}

static const struct pfamily families[] = {
	{ "gaudi_info", "gauge", "Card identity; the value is always 1.",
	  .sample = prom_info },
	{ "gaudi_up", "gauge", "1 when the card is operational, 0 otherwise.",
	  .sample = prom_up },
	{ "gaudi_health", "gauge",
	  "Verdict of gaudi-smi --health: 0 OK, 1 WARN, 2 FAIL.",
	  .sample = prom_health },
	{ "gaudi_temperature_celsius", "gauge",
	  "Temperature of each hwmon sensor in degrees Celsius.",
	  .sample = prom_temps },
	{ "gaudi_power_watts", "gauge", "Input power draw in watts.",
	  prom_field, Q_POWER, 1 },
	{ "gaudi_power_limit_watts", "gauge", "Power cap in watts.",
	  prom_field, Q_POWER_CAP, 1 },
	{ "gaudi_energy_joules_total", "counter",
	  "Energy consumed since power-on in joules.",
	  prom_field, Q_ENERGY, 1 },
	{ "gaudi_memory_total_bytes", "gauge",
	  "HBM available to users in bytes.",
	  prom_field, Q_MEM_TOTAL, 1048576 },
	{ "gaudi_memory_used_bytes", "gauge", "HBM in use in bytes.",
	  prom_field, Q_MEM_USED, 1048576 },
	{ "gaudi_utilization_ratio", "gauge",
	  "Device utilization as reported by the driver (0..1).",
	  prom_field, Q_UTIL, 0.01 },
	{ "gaudi_clock_mme_hertz", "gauge", "Current MME clock in hertz.",
	  prom_field, Q_CLK_CUR, 1e6 },
	{ "gaudi_hard_resets_total", "counter",
	  "Hard resets since the driver bound the card.",
	  prom_field, Q_RESET_HARD, 1 },
	{ "gaudi_events_total", "counter",
	  "Device events since the driver loaded, by class.",
	  .sample = prom_events },
};

void run_prometheus(struct smi *s)
{
	unsigned int i, m;

	for (m = 0; m < ARRAY_LEN(families); m++) {
		const struct pfamily *pf = &families[m];

		printf("# HELP %s %s\n# TYPE %s %s\n", pf->name, pf->help,
		       pf->name, pf->type);
		for (i = 0; i < s->ncards; i++)
			if (s->sel[i])
				pf->sample(pf, &s->cards[i]);
	}
}
