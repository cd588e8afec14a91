// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: the NIC ports.  -n ports|link|stats (a table of the ports of
 * the selected cards), -n topo (a card x card matrix of the ports that link
 * them, as nvidia-smi topo -m), their --format json and csv (not topo),
 * and the ports of -q's "NIC ports" section in text and JSON.  The RoCE
 * counters (stats, JSON, CSV, -q) are gaudi_en's ethtool statistics
 * (nic.c): "-", null or N/A where the driver has none.  The peers come from the board map
 * (nic.c), never from the NIC: they are marked so.
 */
#include <stdio.h>
#include <string.h>

#include "smi.h"

static const char *i64(int64_t v, char *buf, size_t len)
{
	if (v == NA)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

/* The sum of two counters, NA if either is. */
static int64_t sum2(int64_t a, int64_t b)
{
	return a == NA || b == NA ? NA : a + b;
}

/* "yes", "no", "down" (interface down), "-" (not visible). */
static const char *link_text(const struct nic_port *p)
{
	if (!p->ifname[0])
		return "-";
	if (p->carrier == NA)
		return "down";
	return p->carrier == 1 ? "yes" : "no";
}

/* Why a port has no interface here. */
static const char *hidden_text(const struct card *c)
{
	return c->nic_bound ? "not in this namespace" : "no NIC driver bound";
}

/*
 * "card J (module M) port Q" of the board map: J the gaudi-smi index of
 * the card whose module id is M ("module M ... (no card)" when none).
 */
const char *nic_peer_text(const struct smi *s, const struct nic_port *p,
			  char *buf, size_t len)
{
	int ci;

	if (p->peer_module < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	ci = card_of_module(s, p->peer_module);
	if (ci >= 0)
		snprintf(buf, len, "card %d (module %d) port %d%s", ci,
			 p->peer_module, p->peer_port,
			 p->carrier == 0 ? " (link down)" : "");
	else
		snprintf(buf, len, "module %d port %d (no card)",
			 p->peer_module, p->peer_port);
	return buf;
}

static const char *speed_text(const struct nic_port *p, char *buf,
			      size_t len)
{
	if (p->speed == NA)
		snprintf(buf, len, "-");
	else if (p->speed >= 1000 && p->speed % 1000 == 0)
		snprintf(buf, len, "%lldG", (long long)(p->speed / 1000));
	else
		snprintf(buf, len, "%lldM", (long long)p->speed);
	return buf;
}

/* ---- -n ports|link|stats ----------------------------------------------- */

static void ports_header(enum nic_view v)
{
	printf("%-4s %-4s %-15s ", "Card", "Port", "Interface");
	if (v != NV_STATS)
		printf("%-17s %-4s %-5s %-9s %-40s", "MAC", "Link", "Speed",
		       "Type", "Peer (board map)");
	if (v == NV_PORTS)
		printf(" %12s %12s %14s %14s %7s %7s", "RX frames",
		       "TX frames", "RX bytes", "TX bytes", "Drops", "Errors");
	if (v == NV_STATS)
		printf("%12s %12s %14s %14s %8s %8s %8s %8s %12s %12s %8s %8s %8s %7s",
		       "RX frames", "TX frames", "RX bytes", "TX bytes",
		       "RX drop", "TX drop", "RX err", "TX err", "RoCE TX",
		       "RoCE RX", "Retrans", "NAK tx", "NAK rx", "QP err");
	printf("  %s\n", "Note");	/* only rows without interface have one */
}

static void ports_row(const struct smi *s, const struct card *c,
		      unsigned int port, enum nic_view v)
{
	const struct nic_port *p = &c->ports[port];
	char a[24], b[24], d[24], e[24], f[24], g[24], h[24], k[24];
	char r[6][24], peer[64];

	printf("%-4u %-4u %-15s ", c->index, port,
	       p->ifname[0] ? p->ifname : "-");
	if (v != NV_STATS)
		printf("%-17s %-4s %-5s %-9s %-40s",
		       p->mac[0] ? p->mac : "-", link_text(p),
		       speed_text(p, a, sizeof(a)),
		       p->external ? "scale-out" : "internal",
		       nic_peer_text(s, p, peer, sizeof(peer)));
	if (v == NV_PORTS)
		printf(" %12s %12s %14s %14s %7s %7s",
		       i64(p->rx_frames, a, sizeof(a)),
		       i64(p->tx_frames, b, sizeof(b)),
		       i64(p->rx_bytes, d, sizeof(d)),
		       i64(p->tx_bytes, e, sizeof(e)),
		       i64(sum2(p->rx_dropped, p->tx_dropped), f, sizeof(f)),
		       i64(sum2(p->rx_errors, p->tx_errors), g, sizeof(g)));
	if (v == NV_STATS)
		printf("%12s %12s %14s %14s %8s %8s %8s %8s",
		       i64(p->rx_frames, a, sizeof(a)),
		       i64(p->tx_frames, b, sizeof(b)),
		       i64(p->rx_bytes, d, sizeof(d)),
		       i64(p->tx_bytes, e, sizeof(e)),
		       i64(p->rx_dropped, f, sizeof(f)),
		       i64(p->tx_dropped, g, sizeof(g)),
		       i64(p->rx_errors, h, sizeof(h)),
		       i64(p->tx_errors, k, sizeof(k)));
	if (v == NV_STATS)
		printf(" %12s %12s %8s %8s %8s %7s",
		       i64(p->roce_tx_pkts, r[0], sizeof(r[0])),
		       i64(p->roce_rx_pkts, r[1], sizeof(r[1])),
		       i64(p->roce_retransmits, r[2], sizeof(r[2])),
		       i64(p->roce_naks_tx, r[3], sizeof(r[3])),
		       i64(p->roce_naks_rx, r[4], sizeof(r[4])),
		       i64(p->roce_qp_errors, r[5], sizeof(r[5])));
	if (p->ifname[0])
		printf("\n");
	else
		printf("  %s\n", hidden_text(c));
}

static void ports_table(const struct smi *s, enum nic_view v)
{
	unsigned int i, port, rows = 0, nomap = 0;

	ports_header(v);
	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		for (port = 0; port < NIC_PORTS; port++) {
			if (!c->ports[port].enabled)
				continue;
			ports_row(s, c, port, v);
			rows++;
		}
		nomap += !c->nic_map;
	}
	if (!rows)
		printf("No NIC port known (no NIC driver bound, and the driver does not report the ports mask)\n");
	if (v != NV_STATS && rows)
		printf("Peer: %s\n", nomap ?
		       "no board map (not a DL1-style host: module ids 0..7)" :
		       "the DL1 board map (the wiring of an 8-card host; not discovered from the NIC)");
}

/* ---- -n topo ------------------------------------------------------------ */

/* The port of @c that the board map leads to card @to, or -1. */
static int port_to(const struct smi *s, const struct card *c, unsigned int to)
{
	unsigned int p;

	for (p = 0; p < NIC_PORTS; p++) {
		const struct nic_port *np = &c->ports[p];

		if (np->enabled && np->peer_module >= 0 &&
		    card_of_module(s, np->peer_module) == (int)to)
			return (int)p;
	}
	return -1;
}

static void topo(const struct smi *s)
{
	unsigned int i, j, p;
	bool any = false;

	for (i = 0; i < s->ncards; i++)
		any |= s->sel[i] && s->cards[i].nic_map;
	if (!any) {
		printf("No board map: the cards are not a DL1-style host (module ids 0..7 of at most 8 cards)\n");
		return;
	}
	printf("NIC topology from the DL1 board map (not discovered from the NIC)\n");
	printf("%-7s", "");
	for (j = 0; j < s->ncards; j++) {
		char h[16];

		if (!s->sel[j])
			continue;
		snprintf(h, sizeof(h), "card%u", j);
		printf(" %-6s", h);
	}
	printf(" %-6s %s\n", "Module", "Scale-out");
	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];
		char h[16], ext[48] = "";
		size_t len = 0;

		if (!s->sel[i])
			continue;
		snprintf(h, sizeof(h), "card%u", i);
		printf("%-7s", h);
		for (j = 0; j < s->ncards; j++) {
			int q;
			char cell[16];

			if (!s->sel[j])
				continue;
			q = i == j ? -1 : port_to(s, c, j);
			if (i == j)
				snprintf(cell, sizeof(cell), "X");
			else if (q < 0)
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell), "p%d%s", q,
					 c->ports[q].carrier == 1 ? "" :
					 c->ports[q].ifname[0] ? "!" : "?");
			printf(" %-6s", cell);
		}
		for (p = 0; p < NIC_PORTS; p++)
			if (c->ports[p].enabled && c->ports[p].external &&
			    len < sizeof(ext) - 4)
				len += snprintf(ext + len, sizeof(ext) - len,
						"%sp%u", len ? "," : "", p);
		printf(" %-6lld %s\n", (long long)c->module_id, len ? ext : "-");
	}
	printf("\nLegend:\n"
	       "  X    the card itself (Module: its module id, the map's key)\n"
	       "  pN   port N of the row's card leads to the column's card (board map)\n"
	       "  pN!  that port has no link (link down)\n"
	       "  pN?  that port has no interface in this namespace: link unknown\n"
	       "  -    no port between them\n");
}

/* ---- JSON --------------------------------------------------------------- */

static void jint(const char *key, int64_t v, bool comma)
{
	printf("%s\"%s\": ", comma ? ", " : "", key);
	if (v == NA)
		printf("null");
	else
		printf("%lld", (long long)v);
}

static void port_json(const struct smi *s, const struct card *c,
		      unsigned int port)
{
	const struct nic_port *p = &c->ports[port];
	int ci;

	printf("{\"port\": %u, \"interface\": ", port);
	if (p->ifname[0])
		json_str(stdout, p->ifname);
	else
		printf("null");
	printf(", \"visible\": %s, \"mac\": ", p->ifname[0] ? "true" : "false");
	if (p->mac[0])
		json_str(stdout, p->mac);
	else
		printf("null");
	printf(", \"link\": %s", !p->ifname[0] ? "null" :
	       p->carrier == 1 ? "true" : "false");
	printf(", \"operstate\": ");
	if (p->operstate[0])
		json_str(stdout, p->operstate);
	else
		printf("null");
	jint("speed_mbps", p->speed, true);
	jint("mtu", p->mtu, true);
	printf(", \"external\": %s, \"peer\": ", p->external ? "true" : "false");
	if (p->peer_module >= 0) {
		ci = card_of_module(s, p->peer_module);
		printf("{\"card\": ");
		if (ci >= 0)
			printf("%d", ci);
		else
			printf("null");
		printf(", \"module_id\": %d, \"port\": %d, \"source\": \"board map\"}",
		       p->peer_module, p->peer_port);
	} else {
		printf("null");
	}
	jint("rx_frames", p->rx_frames, true);
	jint("tx_frames", p->tx_frames, true);
	jint("rx_bytes", p->rx_bytes, true);
	jint("tx_bytes", p->tx_bytes, true);
	jint("rx_dropped", p->rx_dropped, true);
	jint("tx_dropped", p->tx_dropped, true);
	jint("rx_errors", p->rx_errors, true);
	jint("tx_errors", p->tx_errors, true);
	jint("roce_tx_pkts", p->roce_tx_pkts, true);
	jint("roce_rx_pkts", p->roce_rx_pkts, true);
	jint("roce_retransmits", p->roce_retransmits, true);
	jint("roce_acks_tx", p->roce_acks_tx, true);
	jint("roce_naks_tx", p->roce_naks_tx, true);
	jint("roce_acks_rx", p->roce_acks_rx, true);
	jint("roce_naks_rx", p->roce_naks_rx, true);
	jint("roce_qp_errors", p->roce_qp_errors, true);
	printf("}");
}

/* ---- CSV ---------------------------------------------------------------- */

/* The counters of a port in CSV, "N/A" where unknown. */
static void nic_csv(const struct smi *s)
{
	static const char *const head[] = {
		"card", "port", "interface", "link", "rx_frames", "tx_frames",
		"rx_bytes", "tx_bytes", "rx_dropped", "tx_dropped",
		"rx_errors", "tx_errors", "roce_tx_pkts", "roce_rx_pkts",
		"roce_retransmits", "roce_acks_tx", "roce_naks_tx",
		"roce_acks_rx", "roce_naks_rx", "roce_qp_errors",
	};
	unsigned int i, j, port;

	if (!opt.noheader)
		for (j = 0; j < sizeof(head) / sizeof(head[0]); j++)
			printf("%s%s", j ? ", " : "", head[j]);
	if (!opt.noheader)
		printf("\n");
	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		for (port = 0; port < NIC_PORTS; port++) {
			const struct nic_port *p = &c->ports[port];
			const int64_t v[] = {
				p->rx_frames, p->tx_frames, p->rx_bytes,
				p->tx_bytes, p->rx_dropped, p->tx_dropped,
				p->rx_errors, p->tx_errors, p->roce_tx_pkts,
				p->roce_rx_pkts, p->roce_retransmits,
				p->roce_acks_tx, p->roce_naks_tx,
				p->roce_acks_rx, p->roce_naks_rx,
				p->roce_qp_errors,
			};
			const char *lt = link_text(p);

			if (!p->enabled)
				continue;
			printf("%u, %u, %s, %s", c->index, port,
			       p->ifname[0] ? p->ifname : "N/A",
			       strcmp(lt, "-") ? lt : "N/A");
			for (j = 0; j < sizeof(v) / sizeof(v[0]); j++)
				if (v[j] == NA)
					printf(", N/A");
				else
					printf(", %lld", (long long)v[j]);
			printf("\n");
		}
	}
}

/* ", "ports": [...]" of a card (inside its "nic" object). */
void nic_report_json(const struct smi *s, const struct card *c)
{
	unsigned int p, k = 0;

	printf(", \"board_map\": %s, \"ports\": [",
	       c->nic_map ? "true" : "false");
	for (p = 0; p < NIC_PORTS; p++) {
		if (!c->ports[p].enabled)
			continue;
		printf("%s\n    ", k++ ? "," : "");
		port_json(s, c, p);
	}
	printf("]");
}

static void nic_json(const struct smi *s)
{
	unsigned int i, k = 0;

	printf("{\"cards\": [");
	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		printf("%s\n  {\"index\": %u, \"pci.bus_id\": ",
		       k++ ? "," : "", c->index);
		json_str(stdout, c->bus);
		printf(", \"module_id\": ");
		if (c->module_id < 0)
			printf("null");
		else
			printf("%lld", (long long)c->module_id);
		printf(", \"nic.ports.mask\": ");
		if (c->nic_mask_s[0])
			json_str(stdout, c->nic_mask_s);
		else
			printf("null");
		printf(", \"nic.ports.external_mask\": ");
		if (c->nic_ext_s[0])
			json_str(stdout, c->nic_ext_s);
		else
			printf("null");
		nic_report_json(s, c);
		printf("}");
	}
	printf("%s]}\n", k ? "\n" : "");
}

/* ---- -q text ------------------------------------------------------------ */

void nic_report_text(const struct smi *s, const struct card *c)
{
	unsigned int p;

	for (p = 0; p < NIC_PORTS; p++) {
		const struct nic_port *np = &c->ports[p];
		char lab[32], peer[64], sp[16], a[24], b[24], d[24], e[24];
		char f[24], g[24];

		if (!np->enabled)
			continue;
		snprintf(lab, sizeof(lab), "Port %u", p);
		nic_peer_text(s, np, peer, sizeof(peer));
		if (!np->ifname[0]) {
			printf("        %-30s : - (%s), %s%s%s%s\n", lab,
			       hidden_text(c),
			       np->external ? "scale-out" : "internal",
			       np->peer_module >= 0 ? ", peer " : "",
			       np->peer_module >= 0 ? peer : "",
			       np->peer_module >= 0 ? " (board map)" : "");
			continue;
		}
		printf("        %-30s : %s %s, link %s, speed %s, %s%s%s%s\n",
		       lab, np->ifname, np->mac[0] ? np->mac : "-",
		       link_text(np), speed_text(np, sp, sizeof(sp)),
		       np->external ? "scale-out" : "internal",
		       np->peer_module >= 0 ? ", peer " : "",
		       np->peer_module >= 0 ? peer : "",
		       np->peer_module >= 0 ? " (board map)" : "");
		printf("        %-30s   rx %s frames %s bytes, tx %s frames %s bytes, drops %s, errors %s\n",
		       "", i64(np->rx_frames, a, sizeof(a)),
		       i64(np->rx_bytes, b, sizeof(b)),
		       i64(np->tx_frames, d, sizeof(d)),
		       i64(np->tx_bytes, e, sizeof(e)),
		       i64(sum2(np->rx_dropped, np->tx_dropped), f, sizeof(f)),
		       i64(sum2(np->rx_errors, np->tx_errors), g, sizeof(g)));
		if (np->roce_tx_pkts != NA)
			printf("        %-30s   RoCE tx %s rx %s packets, %s retransmitted, NAKs %s sent %s received, QP errors %s\n",
			       "", i64(np->roce_tx_pkts, a, sizeof(a)),
			       i64(np->roce_rx_pkts, b, sizeof(b)),
			       i64(np->roce_retransmits, d, sizeof(d)),
			       i64(np->roce_naks_tx, e, sizeof(e)),
			       i64(np->roce_naks_rx, f, sizeof(f)),
			       i64(np->roce_qp_errors, g, sizeof(g)));
	}
}

/* -n VIEW */
void run_nic(struct smi *s)
{
	if (opt.fmt == FMT_CSV && s->nic_view == NV_TOPO) {
		err("--format csv works with -n ports, link and stats, not topo");
		s->status = EX_USAGE;
		return;
	}
	if (opt.fmt == FMT_JSON)
		nic_json(s);
	else if (opt.fmt == FMT_CSV)
		nic_csv(s);
	else if (s->nic_view == NV_TOPO)
		topo(s);
	else
		ports_table(s, s->nic_view);
}
