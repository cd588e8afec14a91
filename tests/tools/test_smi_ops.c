// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host test of gaudi-smi's operator views, linked with gaudi-smi's sources
 * (main() renamed) and libgaudi, without any card:
 *
 * - the JSON writer on names that are not UTF-8 and on numbers JSON cannot
 *   hold, each checked by python3's json module;
 * - identity (ident.c) from a fake sysfs folder: the EEPROM's serial, the
 *   UUID (checked against python3's uuid.uuid5), NUMA node and CPUs;
 * - the hl-smi mode (compat.c): its command lines parsed, and the outputs
 *   of two fake cards parsed the way Habana's scripts parse them.
 *
 * Prints TAP and "N passed, N failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smi.h"
#include "smi_fake.h"
#include "tap.h"

static const char *json_arg;
static double num_arg;

static void v_str(struct smi *s)
{
	(void)s;
	json_str(stdout, json_arg);
	putchar('\n');
}

static void v_num(struct smi *s)
{
	(void)s;
	printf("[");
	json_num(stdout, num_arg, 2);
	printf("]\n");
}

static void v_report_json(struct smi *s) { report_json(s); }
static void v_query_json(struct smi *s) { query_json(s); }

static void test_utf8(void)
{
	static const struct { const char *s; size_t n; } cases[] = {
		{ "a", 1 }, { "\xc3\xa9", 2 }, { "\xe2\x82\xac", 3 },
		{ "\xf0\x9f\x98\x80", 4 }, { "\xff", 0 }, { "\xc0\xaf", 0 },
		{ "\xe0\x80\xaf", 0 }, { "\xed\xa0\x80", 0 },
		{ "\xf4\x90\x80\x80", 0 }, { "\xc3", 0 }, { "\xe2\x82", 0 },
		{ "\x80", 0 },
	};
	unsigned int i, bad = 0;

	for (i = 0; i < ARRAY_LEN(cases); i++)
		if (utf8_seq_len((const unsigned char *)cases[i].s) !=
		    cases[i].n) {
			tap_diag("utf8_seq_len case %u", i);
			bad++;
		}
	ok(!bad, "UTF-8: ASCII, 2-, 3-, 4-byte forms taken; stray, overlong, surrogate, > U+10FFFF and cut sequences refused");
}

static void test_strings(struct smi *s)
{
	static const char *const names[] = {
		"\xff\xfe\xfd", "caf\xc3\xa9 \xe2\x82\xac", "a\"b\\c\n\t\x01\x7f",
		"cut\xc3", "\xed\xa0\x80surrogate", "",
	};
	unsigned int i, bad = 0;
	const char *o;

	for (i = 0; i < ARRAY_LEN(names); i++) {
		json_arg = names[i];
		capture(v_str, s);
		if (!json_valid()) {
			tap_diag("json_str of name %u does not parse", i);
			bad++;
		}
	}
	ok(!bad, "json_str: names of stray bytes, UTF-8, quotes and controls, cut sequences, surrogates, empty: all parse");
	json_arg = "x\xff\xc3\xa9";
	o = capture(v_str, s);
	ok(!strcmp(o, "\"x\\ufffd\xc3\xa9\"\n"),
	   "json_str: a stray byte becomes U+FFFD, valid UTF-8 stays as is");
}

static void test_numbers(struct smi *s)
{
	const double v[] = { NAN, INFINITY, -INFINITY, 1.5 };
	const char *o;
	unsigned int i, bad = 0;
	char buf[32];

	for (i = 0; i < ARRAY_LEN(v); i++) {
		num_arg = v[i];
		o = capture(v_num, s);
		if (!json_valid() || (i < 3 && strcmp(o, "[null]\n")) ||
		    (i == 3 && strcmp(o, "[1.50]\n")))
			bad++;
	}
	ok(!bad, "json_num: NaN and the infinities are null, a number stays");
	ok(!strcmp(val_text((struct val){ .kind = V_NUM, .d = NAN, .prec = 1 },
			    buf, sizeof(buf)), "N/A"),
	   "text of a NaN value: N/A");
}

/* A card whose name, sensor label and holder are not UTF-8, a NaN value. */
static void test_card(struct smi *s)
{
	static struct card c;
	static struct proc p;
	static int sel = 1;
	const char *o;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	card_clear(&c);
	snprintf(c.bus, sizeof(c.bus), "0000:01:00.0");
	c.driver = "gaudi";
	snprintf(c.status, sizeof(c.status), "operational");
	snprintf(c.name, sizeof(c.name), "HL\xff\xfe" "205");
	c.ntemps = 1;
	snprintf(c.temps[0].label, sizeof(c.temps[0].label), "t\xc3");
	c.temps[0].mc = 40000;
	c.temps[0].max_mc = c.temps[0].crit_mc = NA;
	c.module_id = 0;
	c.health = H_OK;
	snprintf(c.why, sizeof(c.why), "operational");
	memset(&p, 0, sizeof(p));
	p.pid = 42;
	p.card = 0;
	p.mem = NA;
	snprintf(p.comm, sizeof(p.comm), "\xff\xfe\x80train");
	snprintf(p.node, sizeof(p.node), "accel0");
	p.source = "fd";
	memset(s, 0, sizeof(*s));
	s->cards = &c;
	s->ncards = 1;
	s->sel = &sel;
	for (i = 0; i < S_NUM; i++)
		s->sects[i] = true;
	s->procs_too = true;
	s->procs.v = &p;
	s->procs.n = 1;
	o = capture(v_report_json, s);
	ok(json_valid() && strstr(o, "\"HL\\ufffd\\ufffd205\"") &&
	   strstr(o, "\"\\ufffd\\ufffd\\ufffdtrain\""),
	   "--format json: a card name and a holder's command that are not UTF-8 parse, as U+FFFD");
	s->nq = 0;
	s->q[s->nq++] = Q_NAME;
	s->q[s->nq++] = Q_TEMP;
	o = capture(v_query_json, s);
	ok(json_valid() && strstr(o, "\"temperature\": 40"),
	   "-Q --format json of the same card parses");
	s->procs.v = NULL;
}

/* ---- identity ---------------------------------------------------------- */

/* python3's uuid5 of the same name in the same namespace. */
static bool uuid_matches_python(const char *serial, const char *ours)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import uuid,sys; "
		 "ns=uuid.UUID(\"6c1f5e93-2a4d-4b0e-9d31-7ea2c80546b7\"); "
		 "sys.exit(str(uuid.uuid5(ns, \"hl205:\" + sys.argv[1])) != sys.argv[2])' '%s' '%s'",
		 serial, ours);
	return system(cmd) == 0;
}

static struct card cards[2];
static int sel2[2] = { 1, 1 };

static void fake_cards(struct smi *s)
{
	static const char eeprom[] = "module-id=0\nserial=GO205-00000007\n"
				     "board=hl205\n";
	char d[PATH_MAX + 16];
	unsigned int i, p;
	int fd;

	put("card0/numa_node", "-1");
	put("card0/local_cpulist", "0-3,8-11");
	put("card1/numa_node", "1");
	put("card1/local_cpulist", "4-7");
	put("card1/eeprom", "serial=\x01" "bad");
	put("nodes/node0/cpulist", "0-11");
	put("module/gaudi/version", "0.1.0");
	snprintf(d, sizeof(d), "%s/card0/eeprom", root);
	fd = open(d, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, eeprom, sizeof(eeprom)) < 0)
		tap_diag("cannot write %s", d);
	if (fd >= 0)
		close(fd);
	snprintf(d, sizeof(d), "%s/nodes", root);
	ident_node_dir = strdup(d);
	snprintf(d, sizeof(d), "%s/module", root);
	ident_module_dir = strdup(d);

	memset(cards, 0, sizeof(cards));
	for (i = 0; i < 2; i++) {
		struct card *c = &cards[i];

		card_clear(c);
		c->index = i;
		snprintf(c->bus, sizeof(c->bus), "0000:0%u:00.0", i + 1);
		c->driver = "gaudi";
		snprintf(c->status, sizeof(c->status), "operational");
		snprintf(c->name, sizeof(c->name), "HL205");
		c->module_id = 1 - i;
		c->mem_total = 32LL << 30;
		c->mem_free = (32LL << 30) - (512LL << 20);
		c->util = 14;
		c->power_mw = 102400;
		c->ntemps = 1;
		snprintf(c->temps[0].label, sizeof(c->temps[0].label), "On Chip");
		c->temps[0].mc = 29000 + (int)i * 1000;
		c->temps[0].max_mc = c->temps[0].crit_mc = NA;
		c->throttle = i ? HL_CLK_THROTTLE_POWER : 0;
		c->rows_replaced = 0;
		c->rows_pending = 0;
		snprintf(c->timestamp, sizeof(c->timestamp),
			 "2025/01/02 03:04:05.006");
		c->nic_mask = 0x3ff;
		c->nic_ext_mask = 0x380;
		for (p = 0; p < NIC_PORTS; p++) {
			c->ports[p].enabled = true;
			c->ports[p].external = p >= 7;
			c->ports[p].carrier = p == 3 && i == 0 ? 0 : 1;
		}
		c->fake_node[0] = i ? "/dev/accel/accel1" : "/dev/accel/accel0";
		c->fake_node[1] = i ? "/dev/accel/accel_controlD1" :
				      "/dev/accel/accel_controlD0";
		snprintf(d, sizeof(d), "%s/card%u", root, i);
		c->sysfd = open(d, O_RDONLY | O_DIRECTORY);
		ident_collect(c);
		close(c->sysfd);
		c->sysfd = -1;
	}
	memset(s, 0, sizeof(*s));
	s->cards = cards;
	s->ncards = 2;
	s->sel = sel2;
	for (i = 0; i < S_NUM; i++)
		s->sects[i] = true;
}

static void test_ident(struct smi *s)
{
	char u1[IDENT_UUID_LEN], u2[IDENT_UUID_LEN], ser[64];

	fake_cards(s);
	ok(!strcmp(cards[0].serial, "GO205-00000007"),
	   "serial: the EEPROM's serial= line, not the first line (%s)",
	   cards[0].serial);
	ok(!cards[1].serial[0] && !cards[1].uuid[0],
	   "an EEPROM serial with a control character: no serial, no UUID");
	ok(strlen(cards[0].uuid) == 36 && cards[0].uuid[14] == '5' &&
	   strchr("89ab", cards[0].uuid[19]),
	   "UUID: 36 characters, version 5, RFC variant (%s)", cards[0].uuid);
	ok(uuid_matches_python("GO205-00000007", cards[0].uuid),
	   "UUID: python3's uuid.uuid5 of the same name agrees");
	ident_uuid("GO205-00000007", u1);
	ident_uuid("GO205-00000008", u2);
	ok(!strcmp(u1, cards[0].uuid) && strcmp(u1, u2),
	   "UUID: the same serial gives the same UUID, another serial another");
	ok(ident_eeprom_serial("serial=", 7, ser, sizeof(ser)) &&
	   ident_eeprom_serial("x=1\nserial=A\n", 4, ser, sizeof(ser)) &&
	   !ident_eeprom_serial("x=1\nserial=AB", 14, ser, sizeof(ser)) &&
	   !strcmp(ser, "AB"),
	   "EEPROM parsing: empty serial refused, a line cut by the length not read, last line without newline");
	ok(cards[0].numa_node == 0 && cards[1].numa_node == 1,
	   "NUMA: -1 on a host of one node is node 0; 1 stays 1");
	ok(!strcmp(cards[0].cpulist, "0-3,8-11") &&
	   !strcmp(cards[0].drv_version, "0.1.0"),
	   "CPU list and the module's version");
}

/* ---- the hl-smi mode ----------------------------------------------------- */

/* hl-smi's command line @argv into @s, then its view on the fake cards. */
static int hl(struct smi *s, const char **argv, const char **out)
{
	struct smi tmp;
	int argc = 0, ret;

	while (argv[argc])
		argc++;
	memset(&tmp, 0, sizeof(tmp));
	opt.fmt = FMT_TEXT;
	opt.noheader = opt.nounits = false;
	ret = parse_args(&tmp, argc, (char **)argv);
	opt.prog = "gaudi-smi";
	if (ret != -1)
		return ret;
	tmp.cards = s->cards;
	tmp.ncards = s->ncards;
	tmp.sel = s->sel;
	*out = capture(modes[tmp.mode].run, &tmp);
	return tmp.mode;
}

static void test_hl(struct smi *s)
{
	const char *q[] = { "hl-smi", "-Q",
		"index,module_id,bus_id,memory.used,temperature.aip", "-f",
		"csv,noheader", NULL };
	const char *qh[] = { "/usr/bin/hl-smi", "-Q",
		"name,uuid,power.draw,temperature.aip,utilization.aip,memory.used,memory.total,serial,timestamp,stats.violation.power,ecc.mode.current",
		NULL };
	const char *link[] = { "gaudi-smi", "--hl-smi", "-n", "link", "-i",
			       "0000:01:00.0", NULL };
	const char *ports[] = { "hl-smi", "-n", "ports", NULL };
	const char *topo[] = { "hl-smi", "topo", "-c", "-N", NULL };
	const char *list[] = { "hl-smi", "-L", NULL };
	const char *disp[] = { "hl-smi", "-q", "-d", "MEMORY,ROW_REPLACEMENT",
			       NULL };
	const char *bad[] = { "hl-smi", "-Q", "temperature.gpu", NULL };
	const char *badn[] = { "hl-smi", "-n", "bogus", NULL };
	const char *o;
	char l[512];

	ok(hl(s, q, &o) == M_HL_CSV &&
	   !strcmp(o, "0, 1, 0000:01:00.0, 512 MiB, 29 C\n1, 0, 0000:02:00.0, 512 MiB, 30 C\n"),
	   "-Q index,module_id,bus_id,memory.used,temperature.aip -f csv,noheader: one line a card, 5 cells split by commas");
	show(o);
	ok(hl(s, qh, &o) == M_HL_CSV &&
	   !strncmp(o, "name, uuid, power.draw [W], temperature.aip [C], utilization.aip [%], memory.used [MiB], memory.total [MiB], serial, timestamp, stats.violation.power, ecc.mode.current\n", 160) &&
	   strstr(o, "\nHL-205, ") && strstr(o, ", 102 W, 29 C, 14 %, 512 MiB, 32768 MiB, GO205-00000007, 2025/01/02 03:04:05.006, 0, N/A\n") &&
	   strstr(o, "HL-205, N/A, 102 W, 30 C, 14 %, 512 MiB, 32768 MiB, N/A, 2025/01/02 03:04:05.006, 1, N/A\n"),
	   "-Q with a header: hl-smi's names and units, HL-205, UUID, serial, timestamp, throttling, N/A for what Gaudi 1 lacks");
	show(o);
	ok(hl(s, link, &o) == M_HL_NIC &&
	   !strncmp(o, "port  0:\tUP\nport  1:\tUP\nport  2:\tUP\nport  3:\tDOWN\n", 40) &&
	   lines_matching(o, "port ") == 20,
	   "--hl-smi -n link: \"port  N:<tab>UP|DOWN\", one line a port");
	{
		/* Habana's health screen: the line index is the port */
		const char *p = o;
		int i = 0, down = -1;

		while (*p && i < 10) {
			const char *e = strchr(p, '\n');

			if (strstr(p, "DOWN") && strstr(p, "DOWN") < e)
				down = i;
			p = e + 1;
			i++;
		}
		ok(down == 3, "-n link: the line of port 3 is the fourth, the one with DOWN");
	}
	ok(hl(s, ports, &o) == M_HL_NIC &&
	   !strcmp(line_of(o, "port  7:", l, sizeof(l)), "port  7:\texternal") &&
	   !strcmp(line_of(o, "port  6:", l, sizeof(l)), "port  6:\tinternal"),
	   "-n ports: internal, external");
	ok(hl(s, topo, &o) == M_HL_TOPO &&
	   !strcmp(o, "modID\tCPU Affinity\tNUMA Affinity\n-----\t------------\t-------------\n0\t4-7\t1\n1\t0-3, 8-11\t0\n"),
	   "topo -c -N: header, by module id, CPU ranges as \"a, b\", NUMA node last");
	show(o);
	ok(hl(s, list, &o) == M_HL_QUERY &&
	   strstr(o, "[0] AIP (accel0) 0000:01:00.0\n") &&
	   strstr(o, "        Serial Number                   : GO205-00000007\n") &&
	   strstr(o, "        AIP UUID                        : ") &&
	   strstr(o, "                Bus Id                  : 0000:02:00.0\n") &&
	   strstr(o, "        Module ID                       : 1\n") &&
	   strstr(o, "                Device Id               : N/A\n") &&
	   strstr(o, "Power Slowdown\n                                        : Active\n") &&
	   strstr(o, "                Used                    : 512 MB\n"),
	   "-L: hl-smi's record: serial, UUID, Module ID, Bus Id (awk $4), slowdowns, memory usage");
	ok(hl(s, disp, &o) == M_HL_QUERY && !strstr(o, "Serial Number") &&
	   strstr(o, "Memory Usage") && strstr(o, "Replaced Rows") &&
	   strstr(o, "                Pending                 : No\n"),
	   "-q -d MEMORY,ROW_REPLACEMENT: only those blocks");
	ok(hl(s, bad, &o) == EX_USAGE && hl(s, badn, &o) == EX_USAGE,
	   "an unknown query or -n view: usage error");
	opt.noheader = opt.nounits = false;
}

/* ---- --cdi ---------------------------------------------------------------- */

static void test_cdi(struct smi *s)
{
	char cmd[PATH_MAX + 1024];
	const char *o;

	o = capture(run_cdi, s);
	ok(json_valid(), "--cdi: the spec is JSON");
	if (getenv("SMI_CDI_OUT")) {	/* for cdi-podman.sh */
		FILE *f = fopen(getenv("SMI_CDI_OUT"), "w");

		if (f) {
			fputs(o, f);
			fclose(f);
		}
	}
	snprintf(cmd, sizeof(cmd),
		 "python3 -c '\n"
		 "import json,re,sys\n"
		 "s = json.load(open(sys.argv[1]))\n"
		 "assert s[\"cdiVersion\"] == \"0.5.0\" and s[\"kind\"] == \"habana.ai/gaudi\"\n"
		 "d = {x[\"name\"]: [n[\"path\"] for n in x[\"containerEdits\"][\"deviceNodes\"]] for x in s[\"devices\"]}\n"
		 "assert all(re.fullmatch(r\"[a-zA-Z0-9][a-zA-Z0-9_.:-]*\", k) for k in d)\n"
		 "assert d[\"0\"] == [\"/dev/accel/accel0\", \"/dev/accel/accel_controlD0\"]\n"
		 "assert d[\"0000:02:00.0\"] == d[\"1\"] == [\"/dev/accel/accel1\", \"/dev/accel/accel_controlD1\"]\n"
		 "assert d[\"all\"] == d[\"0\"] + d[\"1\"] and len(d) == 5\n"
		 "' %s", out_path);
	ok(system(cmd) == 0,
	   "--cdi: kind habana.ai/gaudi, version 0.5.0, a device per card by index and bus id with its two nodes, and all");
	show(o);
}

int main(void)
{
	struct smi s;

	if (fake_init("smi-ops"))
		return 2;
	fields_init();
	memset(&s, 0, sizeof(s));
	test_utf8();
	test_strings(&s);
	test_numbers(&s);
	test_card(&s);
	test_ident(&s);
	test_hl(&s);
	test_cdi(&s);
	fake_done();
	return tap_done();
}
