// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host test of gaudi-smi's operator views, linked with gaudi-smi's sources
 * (main() renamed) and libgaudi, without any card: the JSON writer on
 * names that are not UTF-8 and on numbers JSON cannot hold, each checked
 * by python3's json module.  Prints TAP and "N passed, N failed".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	fake_done();
	return tap_done();
}
