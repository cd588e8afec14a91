// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: --prometheus, the Prometheus text exposition format for node
 * exporter's textfile collector: identity, up, health, every hwmon sensor,
 * the numeric fields of the table below, the events by class and each NIC
 * port's link and counters.  Each
 * metric family is a HELP and a TYPE line, then a sample function called
 * for each selected card.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "smi.h"

/* A family: name, type, help, the card's samples and their argument. */
struct pfamily {
	const char *name, *type, *help;
	void (*sample)(const struct pfamily *pf, const struct card *c);
	enum fid f;		/* prom_field: the field */
	double scale;		/* prom_field: multiply the field's value */
	size_t off;		/* prom_port_counter: offset in nic_port */
};

/* "NAME{card=...,bus_id=..." of a sample; the caller closes the braces. */
static void prom_open(const struct pfamily *pf, const struct card *c)
{
	printf("%s{card=\"%u\",bus_id=\"%s\"", pf->name, c->index, c->bus);
}

/* A label value: escaped, and valid UTF-8 (U+FFFD for a stray byte). */
static void prom_label_escaped(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_seq_len(p);

		if (!n) {
			fputs("\xef\xbf\xbd", stdout);
			p++;
			continue;
		}
		if (*p == '"' || *p == '\\')
			putchar('\\');
		if (*p == '\n')
			fputs("\\n", stdout);
		else
			fwrite(p, 1, n, stdout);
		p += n;
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

/* Each enabled port: its interface (or ""), MAC and type; value 1. */
static void prom_port_info(const struct pfamily *pf, const struct card *c)
{
	unsigned int p;

	for (p = 0; p < NIC_PORTS; p++) {
		const struct nic_port *np = &c->ports[p];

		if (!np->enabled)
			continue;
		prom_open(pf, c);
		printf(",port=\"%u\",interface=\"", p);
		prom_label_escaped(np->ifname);
		printf("\",mac=\"");
		prom_label_escaped(np->mac);
		printf("\",type=\"%s\"} 1\n",
		       np->external ? "scale-out" : "internal");
	}
}

/* Carrier of each port with an interface here (an interface down: 0). */
static void prom_port_link(const struct pfamily *pf, const struct card *c)
{
	unsigned int p;

	for (p = 0; p < NIC_PORTS; p++) {
		const struct nic_port *np = &c->ports[p];

		if (!np->enabled || !np->ifname[0])
			continue;
		prom_open(pf, c);
		printf(",port=\"%u\"} %d\n", p, np->carrier == 1);
	}
}

/* A counter of struct nic_port (pf->off) of each port that has it. */
static void prom_port_counter(const struct pfamily *pf, const struct card *c)
{
	unsigned int p;

	for (p = 0; p < NIC_PORTS; p++) {
		const struct nic_port *np = &c->ports[p];
		int64_t v;

		memcpy(&v, (const char *)np + pf->off, sizeof(v));
		if (!np->enabled || v == NA)
			continue;
		prom_open(pf, c);
		printf(",port=\"%u\"} %lld\n", p, (long long)v);
	}
}

#define PORT_COUNTER(name, help, member) \
	{ name, "counter", help, .sample = prom_port_counter, \
	  .off = offsetof(struct nic_port, member) }

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
	  prom_field, Q_POWER, 1, 0 },
	{ "gaudi_power_limit_watts", "gauge", "Power cap in watts.",
	  prom_field, Q_POWER_CAP, 1, 0 },
	{ "gaudi_energy_joules_total", "counter",
	  "Energy consumed since power-on in joules.",
	  prom_field, Q_ENERGY, 1, 0 },
	{ "gaudi_memory_total_bytes", "gauge",
	  "HBM available to users in bytes.",
	  prom_field, Q_MEM_TOTAL, 1048576, 0 },
	{ "gaudi_memory_used_bytes", "gauge", "HBM in use in bytes.",
	  prom_field, Q_MEM_USED, 1048576, 0 },
	{ "gaudi_utilization_ratio", "gauge",
	  "Device utilization as reported by the driver (0..1).",
	  prom_field, Q_UTIL, 0.01, 0 },
	{ "gaudi_clock_mme_hertz", "gauge", "Current MME clock in hertz.",
	  prom_field, Q_CLK_CUR, 1e6, 0 },
	{ "gaudi_hard_resets_total", "counter",
	  "Hard resets since the driver bound the card.",
	  prom_field, Q_RESET_HARD, 1, 0 },
	{ "gaudi_events_total", "counter",
	  "Device events since the driver loaded, by class.",
	  .sample = prom_events },
	{ "gaudi_nic_port_info", "gauge",
	  "NIC port identity (interface empty: not in this network namespace); always 1.",
	  .sample = prom_port_info },
	{ "gaudi_nic_port_link", "gauge",
	  "1 when the port's interface has carrier, 0 otherwise.",
	  .sample = prom_port_link },
	PORT_COUNTER("gaudi_nic_port_rx_frames_total",
		     "Frames received by the port's interface.", rx_frames),
	PORT_COUNTER("gaudi_nic_port_tx_frames_total",
		     "Frames sent by the port's interface.", tx_frames),
	PORT_COUNTER("gaudi_nic_port_rx_bytes_total",
		     "Bytes received by the port's interface.", rx_bytes),
	PORT_COUNTER("gaudi_nic_port_tx_bytes_total",
		     "Bytes sent by the port's interface.", tx_bytes),
	PORT_COUNTER("gaudi_nic_port_rx_dropped_total",
		     "Received frames the interface dropped.", rx_dropped),
	PORT_COUNTER("gaudi_nic_port_tx_dropped_total",
		     "Frames to send the interface dropped.", tx_dropped),
	PORT_COUNTER("gaudi_nic_port_rx_errors_total",
		     "Receive errors of the port's interface.", rx_errors),
	PORT_COUNTER("gaudi_nic_port_tx_errors_total",
		     "Send errors of the port's interface.", tx_errors),
	PORT_COUNTER("gaudi_nic_port_roce_tx_packets_total",
		     "RoCE request packets the port sent (not resends).",
		     roce_tx_pkts),
	PORT_COUNTER("gaudi_nic_port_roce_rx_packets_total",
		     "RoCE packets the port received.", roce_rx_pkts),
	PORT_COUNTER("gaudi_nic_port_roce_retransmits_total",
		     "RoCE request packets the port sent again.",
		     roce_retransmits),
	PORT_COUNTER("gaudi_nic_port_roce_naks_tx_total",
		     "RoCE NAKs the port's responders sent.", roce_naks_tx),
	PORT_COUNTER("gaudi_nic_port_roce_naks_rx_total",
		     "RoCE NAKs the port's requesters received.", roce_naks_rx),
	PORT_COUNTER("gaudi_nic_port_roce_qp_errors_total",
		     "RoCE QPs of the port put in error.", roce_qp_errors),
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
