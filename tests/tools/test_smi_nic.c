// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host test of gaudi-smi's NIC ports (tools/smi/nic.c, out_nic.c and the
 * port parts of the other outputs), linked with gaudi-smi's sources (main()
 * renamed) and libgaudi, without any card: two cards are made of a fake
 * sysfs tree in a temporary folder, the way gaudi_en lays out its netdevs
 * (<pci>/gaudi.en.<minor>/net/<if>/{dev_port,address,carrier,...}).
 *
 *   card 0 (module 0): gaudi_en bound; ports 0..9 with netdevs except port
 *     3 (moved to another namespace); port 0 without carrier, port 5 down
 *     (no carrier attribute), the others with carrier
 *   card 1 (module 1): gaudi.en.1 without a driver, no netdev
 *
 * Checks the DL1 board map, the parsing, and every output: -n ports, link,
 * stats, topo, --format json (checked by python3's parser) and csv, -Q
 * CSV, -q and --prometheus.  gaudi_en's ethtool statistics (the RoCE
 * counters) are faked: eth1 has them, eth2 all 0, the others fail (as
 * another driver's, or upstream's card without gaudi_en).  Prints TAP and "N passed, N failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smi.h"
#include "smi_fake.h"
#include "tap.h"

/* A netdev of gaudi_en: card's aux folder @aux, interface @ifn, port. */
static void netdev(const char *aux, const char *ifn, int port, int carrier,
		   long long rx)
{
	char rel[512], v[64];

	snprintf(rel, sizeof(rel), "%s/net/%s/dev_port", aux, ifn);
	snprintf(v, sizeof(v), "%d", port);
	put(rel, v);
	snprintf(rel, sizeof(rel), "%s/net/%s/address", aux, ifn);
	snprintf(v, sizeof(v), "02:00:00:00:00:%02x", port);
	put(rel, v);
	snprintf(rel, sizeof(rel), "%s/net/%s/operstate", aux, ifn);
	put(rel, carrier == 1 ? "up" : carrier == 0 ? "lowerlayerdown" :
	    "down");
	if (carrier >= 0) {
		snprintf(rel, sizeof(rel), "%s/net/%s/carrier", aux, ifn);
		put(rel, carrier ? "1" : "0");
		snprintf(rel, sizeof(rel), "%s/net/%s/speed", aux, ifn);
		put(rel, carrier ? "100000" : "-1");
	}
	snprintf(rel, sizeof(rel), "%s/net/%s/mtu", aux, ifn);
	put(rel, "1500");
	static const char *const ctr[] = {
		"rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
		"rx_dropped", "tx_dropped", "rx_errors", "tx_errors",
	};
	for (unsigned int i = 0; i < ARRAY_LEN(ctr); i++) {
		snprintf(rel, sizeof(rel), "%s/net/%s/statistics/%s", aux, ifn,
			 ctr[i]);
		snprintf(v, sizeof(v), "%lld", rx * (long long)(i + 1));
		put(rel, v);
	}
}

/* ethtool -S, faked (nic.c's nic_ethtool_stats). */
static int fake_ethtool(const char *ifname, nic_stat_fn fn, void *arg)
{
	static const char *const names[] = {
		"roce_tx_pkts", "roce_rx_pkts", "roce_retransmits",
		"roce_acks_tx", "roce_naks_tx", "roce_acks_rx", "roce_naks_rx",
		"roce_qp_errors",
	};
	bool one = !strcmp(ifname, "eth1");
	unsigned int i;

	if (!one && strcmp(ifname, "eth2"))
		return -EOPNOTSUPP;
	fn("mac_rx_frames", 77, arg);
	fn("roce_tx_pkts_not", 99, arg);
	for (i = 0; i < ARRAY_LEN(names); i++)
		fn(names[i], one ? (i < 2 ? 1001 + 1000 * i : i + 1) : 0, arg);
	return 0;
}

static void v_ports(struct smi *s) { s->nic_view = NV_PORTS; run_nic(s); }
static void v_link(struct smi *s) { s->nic_view = NV_LINK; run_nic(s); }
static void v_stats(struct smi *s) { s->nic_view = NV_STATS; run_nic(s); }
static void v_topo(struct smi *s) { s->nic_view = NV_TOPO; run_nic(s); }
static void v_json(struct smi *s) { opt.fmt = FMT_JSON; run_nic(s);
	opt.fmt = FMT_TEXT; }
static void v_csv(struct smi *s) { query_csv(s); }
static void v_ncsv(struct smi *s) { opt.fmt = FMT_CSV; run_nic(s);
	opt.fmt = FMT_TEXT; }
static void v_report(struct smi *s) { report_text(s); }
static void v_report_json(struct smi *s) { report_json(s); }
static void v_prom(struct smi *s) { run_prometheus(s); }

static void test_map(void)
{
	int bad = 0, i, p, q, q2;
	unsigned int covered;

	for (i = 0; i < 8; i++) {
		covered = 0;
		for (p = 0; p < 7; p++) {
			int j = dl1_peer(i, p, &q);

			/* the cable's other end leads back here */
			if (j < 0 || j == i || dl1_peer(j, q, &q2) != i ||
			    q2 != p)
				bad++;
			else
				covered |= 1U << j;
		}
		if (covered != (0xffU & ~(1U << i)))
			bad++;
		for (p = 7; p < 10; p++)
			bad += dl1_peer(i, p, &q) != -1;
	}
	ok(!bad, "board map: every internal cable leads back, each card reaches the 7 others, ports 7..9 none (%d bad)",
	   bad);
	/* rows of the table in Documentation/emulator/nic.rst */
	ok(dl1_peer(2, 0, &q) == 0 && q == 1 && dl1_peer(2, 2, &q) == 3 &&
	   q == 2 && dl1_peer(7, 6, &q) == 6 && q == 6 &&
	   dl1_peer(0, 0, &q) == 1 && q == 0,
	   "board map: 2.p0 -> 0.p1, 2.p2 -> 3.p2, 7.p6 -> 6.p6, 0.p0 -> 1.p0 as the doc's table");
	ok(dl1_peer(8, 0, &q) == -1 && dl1_peer(-1, 0, &q) == -1,
	   "board map: no module 8 or -1");
}

static void test_host(void)
{
	struct card c[9];
	unsigned int i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < 9; i++)
		c[i].module_id = i;
	ok(dl1_host(c, 8) && dl1_host(c, 2), "8 cards of modules 0..7 (and 2 of 0..1) are a DL1-style host");
	ok(!dl1_host(c, 9), "9 cards are not");
	c[1].module_id = 0;
	ok(!dl1_host(c, 2), "two cards of module 0 are not");
	c[1].module_id = -1;
	ok(!dl1_host(c, 2), "a card without module id is not");
}

/* parse_args() of @argv (NULL-terminated) into a fresh @s. */
static int args(struct smi *s, const char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(s, 0, sizeof(*s));
	opt.fmt = FMT_TEXT;
	optind = 0;
	return parse_args(s, argc, (char **)argv);
}

static void test_options(void)
{
	const char *a1[] = { "gaudi-smi", "-n", "topo", NULL };
	const char *a2[] = { "gaudi-smi", "--nic=stats", "--format", "json",
			     NULL };
	const char *a3[] = { "gaudi-smi", "-n", "bogus", NULL };
	const char *a4[] = { "gaudi-smi", "-n", "ports", "--format", "csv",
			     NULL };
	const char *a5[] = { "gaudi-smi", "-n", "ports", "-q", NULL };
	struct smi s;

	ok(args(&s, a1) == -1 && s.mode == M_NIC && s.nic_view == NV_TOPO,
	   "-n topo: the NIC mode, topo view");
	ok(args(&s, a2) == -1 && s.mode == M_NIC && s.nic_view == NV_STATS &&
	   opt.fmt == FMT_JSON, "--nic=stats --format json");
	ok(args(&s, a3) == EX_USAGE, "-n bogus: usage error");
	ok(args(&s, a4) == -1 && opt.fmt == FMT_CSV,
	   "-n ports --format csv: accepted");
	ok(args(&s, a5) == EX_USAGE, "-n with -q: usage error");
	opt.fmt = FMT_TEXT;
}

int main(void)
{
	struct card cards[2];
	int sel[2] = { 1, 1 };
	struct smi s;
	const char *o;
	char ifn[16];
	unsigned int i;
	int fd0, fd1, p;

	if (fake_init("smi-nic"))
		return 2;
	fields_init();

	test_map();
	test_host();
	test_options();

	/* card 0: gaudi_en bound, port 3 in another namespace */
	put("card0/gaudi.en.0/driver/bound", "");
	for (p = 0; p < NIC_PORTS; p++) {
		if (p == 3)
			continue;
		snprintf(ifn, sizeof(ifn), "eth%d", p);
		netdev("card0/gaudi.en.0", ifn, p,
		       p == 0 ? 0 : p == 5 ? -1 : 1, 100 + p);
	}
	/* card 1: the auxiliary device, no driver */
	mkdirs("card1/gaudi.en.1");

	memset(cards, 0, sizeof(cards));
	memset(&s, 0, sizeof(s));
	for (i = 0; i < 2; i++) {
		cards[i].index = i;
		snprintf(cards[i].bus, sizeof(cards[i].bus), "0000:0%u:00.0",
			 i + 1);
		cards[i].driver = "gaudi";
		snprintf(cards[i].name, sizeof(cards[i].name), "HL205");
		snprintf(cards[i].status, sizeof(cards[i].status),
			 "operational");
		card_clear(&cards[i]);
		snprintf(cards[i].name, sizeof(cards[i].name), "HL205");
		snprintf(cards[i].status, sizeof(cards[i].status),
			 "operational");
		cards[i].module_id = i;
		cards[i].nic_mask = 0x3ff;
		cards[i].nic_ext_mask = 0x380;
	}
	s.cards = cards;
	s.ncards = 2;
	s.sel = sel;
	for (i = 0; i < S_NUM; i++)
		s.sects[i] = true;

	{
		char d[PATH_MAX + 16];

		snprintf(d, sizeof(d), "%s/card0", root);
		fd0 = open(d, O_RDONLY | O_DIRECTORY);
		snprintf(d, sizeof(d), "%s/card1", root);
		fd1 = open(d, O_RDONLY | O_DIRECTORY);
	}
	nic_ethtool_stats = fake_ethtool;
	nic_collect(&cards[0], fd0);
	nic_collect(&cards[1], fd1);
	nic_apply_map(cards, 2);

	/* ---- parsing ---- */
	ok(cards[0].nic_aux && cards[0].nic_bound, "card 0: gaudi.en.0 found, a driver bound");
	ok(cards[1].nic_aux && !cards[1].nic_bound, "card 1: gaudi.en.1 found, no driver");
	ok_eq(nic_count(&cards[0], NC_ENABLED), 10, "card 0: 10 ports enabled");
	ok_eq(nic_count(&cards[0], NC_VISIBLE), 9, "card 0: 9 with an interface here");
	ok_eq(nic_count(&cards[0], NC_UP), 7, "card 0: 7 with carrier (not 0, 3, 5)");
	ok_eq(nic_count(&cards[0], NC_EXTERNAL), 3, "card 0: 3 scale-out");
	ok(!strcmp(cards[0].ports[4].ifname, "eth4") &&
	   !strcmp(cards[0].ports[4].mac, "02:00:00:00:00:04") &&
	   cards[0].ports[4].speed == 100000 && cards[0].ports[4].mtu == 1500 &&
	   cards[0].ports[4].rx_frames == 104 &&
	   cards[0].ports[4].tx_errors == 104 * 8,
	   "card 0 port 4: eth4, its MAC, 100000 Mb/s, MTU, counters");
	ok(!cards[0].ports[3].ifname[0] && cards[0].ports[3].enabled &&
	   cards[0].ports[3].carrier == NA,
	   "card 0 port 3 (other namespace): listed, no interface, no carrier");
	ok(cards[0].ports[5].carrier == NA && cards[0].ports[5].speed == NA &&
	   cards[0].ports[0].carrier == 0,
	   "card 0: port 5 down (carrier unreadable), port 0 carrier 0");
	ok(!strcmp(cards[0].nic, "eth0 eth1 eth2 eth4 eth5 eth6 eth7 eth8 eth9"),
	   "card 0: nic.ports lists the 9 interfaces in port order (%s)", cards[0].nic);
	ok(cards[0].nic_map && cards[0].ports[0].peer_module == 1 &&
	   cards[0].ports[0].peer_port == 0 && cards[1].ports[0].peer_module == 0 &&
	   cards[0].ports[7].peer_module == -1 && cards[0].ports[2].peer_module == 3,
	   "board map applied: 0.p0 <-> 1.p0, 0.p2 -> module 3, p7 none");

	ok(cards[0].ports[1].roce_tx_pkts == 1001 &&
	   cards[0].ports[1].roce_rx_pkts == 2001 &&
	   cards[0].ports[1].roce_retransmits == 3 &&
	   cards[0].ports[1].roce_acks_tx == 4 &&
	   cards[0].ports[1].roce_naks_tx == 5 &&
	   cards[0].ports[1].roce_acks_rx == 6 &&
	   cards[0].ports[1].roce_naks_rx == 7 &&
	   cards[0].ports[1].roce_qp_errors == 8,
	   "card 0 port 1: the RoCE counters of its ethtool statistics");
	ok(cards[0].ports[2].roce_tx_pkts == 0 &&
	   cards[0].ports[2].roce_qp_errors == 0 &&
	   cards[0].ports[4].roce_tx_pkts == NA &&
	   cards[0].ports[4].roce_qp_errors == NA &&
	   cards[0].ports[3].roce_tx_pkts == NA &&
	   cards[1].ports[0].roce_tx_pkts == NA,
	   "RoCE counters 0 where ethtool says 0, unknown where it fails or there is no interface");

	/* ---- -n ports ---- */
	o = capture(v_ports, &s);
	ok(lines_matching(o, "0    ") == 10 && lines_matching(o, "1    ") == 10,
	   "-n ports: 10 rows per card");
	ok(strstr(o, "eth4") && strstr(o, "02:00:00:00:00:04") &&
	   strstr(o, "card 1 (module 1) port 0") && strstr(o, "scale-out -") &&
	   strstr(o, "not in this namespace") &&
	   strstr(o, "no NIC driver bound") && strstr(o, "100G") &&
	   strstr(o, "DL1 board map"),
	   "-n ports: interface, MAC, peer, scale-out, hidden ports, speed, board map note");
	ok(strstr(o, "module 2 port 0 (no card)") != NULL,
	   "-n ports: a peer module without card is said so");
	show(o);
	o = capture(v_link, &s);
	ok(strstr(o, "Peer (board map)") && !strstr(o, "RX frames"),
	   "-n link: link columns, no counters");
	o = capture(v_stats, &s);
	ok(strstr(o, "RX drop") && !strstr(o, "Peer"),
	   "-n stats: counters, no peers");
	{
		char l1[512], l4[512], l3[512];
		size_t n4;

		line_of(o, "0    1    ", l1, sizeof(l1));
		line_of(o, "0    4    ", l4, sizeof(l4));
		line_of(o, "0    3    ", l3, sizeof(l3));
		n4 = strlen(l4);
		ok(strstr(o, "RoCE TX") && strstr(o, "Retrans") &&
		   strstr(o, "NAK rx") && strstr(o, "QP err") &&
		   strstr(l1, " 1001 ") && strstr(l1, " 2001 ") &&
		   strstr(l1, " 5 ") && strstr(l1, " 7 ") &&
		   n4 > 8 && !strcmp(l4 + n4 - 8, "       -") &&
		   strstr(l3, "not in this namespace"),
		   "-n stats: RoCE packets, retransmits, NAKs, QP errors; - without them");
	}
	show(o);
	o = capture(v_ncsv, &s);
	ok(strstr(o, "card, port, interface, link, rx_frames, tx_frames, rx_bytes, tx_bytes, rx_dropped, tx_dropped, rx_errors, tx_errors, roce_tx_pkts, roce_rx_pkts, roce_retransmits, roce_acks_tx, roce_naks_tx, roce_acks_rx, roce_naks_rx, roce_qp_errors\n") &&
	   strstr(o, "\n0, 1, eth1, yes, 101, 202, 303, 404, 505, 606, 707, 808, 1001, 2001, 3, 4, 5, 6, 7, 8\n") &&
	   strstr(o, "\n0, 2, eth2, yes, 102, 204, 306, 408, 510, 612, 714, 816, 0, 0, 0, 0, 0, 0, 0, 0\n") &&
	   strstr(o, "\n0, 3, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A, N/A\n") &&
	   lines_matching(o, "1, ") == 10,
	   "-n --format csv: header, a port's counters, zeros, N/A, 10 rows of card 1");
	show(o);
	opt.noheader = true;
	o = capture(v_ncsv, &s);
	opt.noheader = false;
	ok(!strstr(o, "card, port") && lines_matching(o, "0, ") == 10,
	   "-n --format csv,noheader: rows only");
	s.nic_view = NV_TOPO;
	s.status = 0;
	opt.fmt = FMT_CSV;
	run_nic(&s);
	opt.fmt = FMT_TEXT;
	ok(s.status == EX_USAGE, "-n topo --format csv: usage error");
	s.status = 0;
	/* card 0 port 0: carrier 0 -> "(link down)" */
	o = capture(v_ports, &s);
	ok(strstr(o, "card 1 (module 1) port 0 (link down)") != NULL, "-n ports: the port without carrier says link down");

	/* ---- -n topo ---- */
	o = capture(v_topo, &s);
	ok(strstr(o, "card0   X      p0!") && strstr(o, "card1   p0?") &&
	   strstr(o, "0      p7,p8,p9") && strstr(o, "board map"),
	   "-n topo: card0 reaches card1 on p0 (link down: !), card 1's port unknown (?), scale-out p7,p8,p9");
	show(o);

	/* ---- JSON ---- */
	o = capture(v_json, &s);
	ok(json_valid(), "-n --format json parses");
	ok(strstr(o, "\"interface\": \"eth4\"") &&
	   strstr(o, "\"interface\": null, \"visible\": false") &&
	   strstr(o, "\"peer\": {\"card\": 1, \"module_id\": 1, \"port\": 0, \"source\": \"board map\"}") &&
	   strstr(o, "\"nic.ports.mask\": \"0x3ff\""),
	   "-n --format json: interfaces, hidden port, peer, mask");
	ok(strstr(o, "\"roce_tx_pkts\": 1001, \"roce_rx_pkts\": 2001, \"roce_retransmits\": 3, \"roce_acks_tx\": 4, \"roce_naks_tx\": 5, \"roce_acks_rx\": 6, \"roce_naks_rx\": 7, \"roce_qp_errors\": 8}") &&
	   strstr(o, "\"roce_tx_pkts\": null"),
	   "-n --format json: the RoCE counters, null without them");

	/* ---- -Q CSV ---- */
	s.nq = 0;
	s.q[s.nq++] = Q_INDEX;
	s.q[s.nq++] = Q_NIC_COUNT;
	s.q[s.nq++] = Q_NIC_VISIBLE;
	s.q[s.nq++] = Q_NIC_UP;
	s.q[s.nq++] = Q_NIC_EXT;
	s.q[s.nq++] = Q_NIC_MASK;
	s.q[s.nq++] = Q_NIC_EXT_MASK;
	o = capture(v_csv, &s);
	ok(strstr(o, "index, nic.ports.count, nic.ports.visible, nic.ports.up, nic.ports.external, nic.ports.mask, nic.ports.external_mask\n") &&
	   strstr(o, "\n0, 10, 9, 7, 3, 0x3ff, 0x380\n") &&
	   strstr(o, "\n1, 10, 0, 0, 3, 0x3ff, 0x380\n"),
	   "-Q nic.ports.*: counts and masks per card");
	show(o);

	/* ---- -q ---- */
	for (i = 0; i < S_NUM; i++)
		s.sects[i] = i == S_NIC;
	o = capture(v_report, &s);
	ok(strstr(o, "Port 4") && strstr(o, "eth4 02:00:00:00:00:04, link yes") &&
	   strstr(o, "Port 3                         : - (not in this namespace)") &&
	   strstr(o, "peer card 1 (module 1) port 0 (link down) (board map)") &&
	   strstr(o, "Ports with link                : 7"),
	   "-q -d nic: ports, hidden port, peer, counts");
	show(o);
	ok(strstr(o, "none (no NIC driver bound)") != NULL,
	   "-q -d nic: card 1 without NIC driver keeps its one line");
	o = capture(v_report_json, &s);
	ok(json_valid(), "--format json (-q) with the nic section parses");
	ok(strstr(o, "\"nic\": {") && strstr(o, "\"nic.ports.up\": 7") &&
	   strstr(o, "\"ports\": ["), "--format json: nic section with nic.ports.up and the ports");

	/* ---- --prometheus ---- */
	o = capture(v_prom, &s);
	ok(lines_matching(o, "gaudi_nic_port_link{card=\"0\"") == 9 &&
	   lines_matching(o, "gaudi_nic_port_link{card=\"1\"") == 0,
	   "--prometheus: link of the 9 visible ports of card 0, none of card 1");
	ok(strstr(o, "gaudi_nic_port_link{card=\"0\",bus_id=\"0000:01:00.0\",port=\"0\"} 0\n") &&
	   strstr(o, "gaudi_nic_port_link{card=\"0\",bus_id=\"0000:01:00.0\",port=\"1\"} 1\n") &&
	   strstr(o, "gaudi_nic_port_rx_frames_total{card=\"0\",bus_id=\"0000:01:00.0\",port=\"4\"} 104\n") &&
	   strstr(o, "gaudi_nic_port_tx_frames_total{card=\"0\",bus_id=\"0000:01:00.0\",port=\"4\"} 208\n") &&
	   lines_matching(o, "gaudi_nic_port_info{") == 20 &&
	   strstr(o, "# TYPE gaudi_nic_port_rx_bytes_total counter\n"),
	   "--prometheus: link, frame counters, info of the 20 ports, counter types");
	ok(strstr(o, "gaudi_nic_port_roce_tx_packets_total{card=\"0\",bus_id=\"0000:01:00.0\",port=\"1\"} 1001\n") &&
	   strstr(o, "gaudi_nic_port_roce_qp_errors_total{card=\"0\",bus_id=\"0000:01:00.0\",port=\"1\"} 8\n") &&
	   lines_matching(o, "gaudi_nic_port_roce_retransmits_total{") == 2,
	   "--prometheus: the RoCE counters of the 2 ports that have them");

	close(fd0);
	close(fd1);
	fake_done();
	return tap_done();
}
