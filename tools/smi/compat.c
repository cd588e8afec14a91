// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi as hl-smi: the command lines of Habana's hl-smi, with its
 * option spellings, field names and output layouts, so that scripts
 * written for hl-smi run unchanged.  Picked by the name the program is run
 * under (an "hl-smi" link to gaudi-smi) or by --hl-smi as the first
 * argument.  What each option and field does here, and what differs from
 * Habana's tool: Documentation/tools/hl-smi-compat.rst.
 *
 * The views read the cards through the same collect() as gaudi-smi's own
 * and print with their own layouts; the field values come from
 * field_get() (fields.c) except where hl-smi's units or words differ.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "smi.h"

/* ---- -Q fields ------------------------------------------------------------ */

/* How a field's value is made from the card. */
enum hkind {
	HK_FIELD,	/* field_get(fid) as it is */
	HK_INT,		/* field_get(fid) rounded to a whole number */
	HK_NAME,	/* the product name, HL205 -> HL-205 */
	HK_THROTTLE,	/* 1 when the reason is active, 0 when not */
	HK_NONE,	/* no such value on Gaudi 1 / this driver: N/A */
};

struct hfield {
	const char *name;	/* hl-smi's -Q name */
	const char *unit;	/* its unit in the CSV header, "" none */
	enum hkind kind;
	enum fid fid;
};

/* hl-smi's -Q fields, in the order of its documentation. */
static const struct hfield hfields[] = {
	{ "timestamp", "", HK_FIELD, Q_TIMESTAMP },
	{ "name", "", HK_NAME, Q_NAME },
	{ "bus_id", "", HK_FIELD, Q_BUS },
	{ "driver_version", "", HK_FIELD, Q_DRV_VERSION },
	{ "temperature.aip", "C", HK_INT, Q_TEMP },
	{ "module_id", "", HK_FIELD, Q_MODULE },
	{ "utilization.aip", "%", HK_FIELD, Q_UTIL },
	{ "memory.total", "MiB", HK_FIELD, Q_MEM_TOTAL },
	{ "memory.free", "MiB", HK_FIELD, Q_MEM_FREE },
	{ "memory.used", "MiB", HK_FIELD, Q_MEM_USED },
	{ "index", "", HK_FIELD, Q_INDEX },
	{ "serial", "", HK_FIELD, Q_SERIAL },
	{ "uuid", "", HK_FIELD, Q_UUID },
	{ "power.draw", "W", HK_INT, Q_POWER },
	{ "ecc.errors.uncorrected.aggregate.total", "", HK_FIELD, Q_EV_DERR },
	{ "ecc.errors.uncorrected.volatile.total", "", HK_FIELD, Q_EV_DERR_R },
	{ "ecc.errors.corrected.aggregate.total", "", HK_FIELD, Q_EV_SERR },
	{ "ecc.errors.corrected.volatile.total", "", HK_FIELD, Q_EV_SERR_R },
	{ "ecc.errors.dram.aggregate.total", "", HK_NONE, Q_NUM },
	{ "ecc.errors.dram-corrected.aggregate.total", "", HK_NONE, Q_NUM },
	{ "ecc.errors.dram.volatile.total", "", HK_NONE, Q_NUM },
	{ "ecc.errors.dram-corrected.volatile.total", "", HK_NONE, Q_NUM },
	{ "ecc.mode.current", "", HK_NONE, Q_NUM },
	{ "ecc.mode.pending", "", HK_NONE, Q_NUM },
	{ "stats.violation.power", "", HK_THROTTLE, Q_THR_POWER },
	{ "stats.violation.thermal", "", HK_THROTTLE, Q_THR_THERMAL },
};

#define HL_MAX_Q	64

static const struct hfield *hq[HL_MAX_Q];
static unsigned int nhq;
static bool nic_ports_sel[NIC_PORTS], nic_ports_all = true;
static bool topo_cpu, topo_numa;
static unsigned int hl_disp;	/* -d blocks, 0 all */

/* The blocks of -q's record (-d NAMES). */
enum {
	HD_PRODUCT = 1 << 0, HD_POWER = 1 << 1, HD_CLOCK = 1 << 2,
	HD_TEMPERATURE = 1 << 3, HD_FAN = 1 << 4, HD_BUS = 1 << 5,
	HD_MEMORY = 1 << 6, HD_NET = 1 << 7, HD_ROWS = 1 << 8,
};

static const char *product_name(const struct card *c)
{
	/* what Habana's tool calls the Gaudi 1 mezzanine card */
	return !strcmp(c->name, "HL205") ? "HL-205" : c->name;
}

/* The text of field @h of @c ("N/A" when unknown). */
static const char *hvalue(const struct card *c, const struct hfield *h,
			  char *buf, size_t len)
{
	struct val v;

	switch (h->kind) {
	case HK_NAME:
		snprintf(buf, len, "%s", product_name(c));
		return buf;
	case HK_NONE:
		return "N/A";
	case HK_THROTTLE:
		if (c->throttle == NA)
			return "N/A";
		snprintf(buf, len, "%d", (int)!!(c->throttle &
			 (h->fid == Q_THR_POWER ? HL_CLK_THROTTLE_POWER :
			  HL_CLK_THROTTLE_THERMAL)));
		return buf;
	case HK_INT:
		v = field_get(c, h->fid);
		if (v.kind == V_NUM)
			v.prec = 0;
		return val_text(v, buf, len);
	default:
		return val_text(field_get(c, h->fid), buf, len);
	}
}

/* hl-smi -Q ...: CSV, ", " between cells, a header unless noheader. */
void run_hl_csv(struct smi *s)
{
	char buf[FWV_LEN + 16];
	unsigned int i, j;

	if (!opt.noheader) {
		for (j = 0; j < nhq; j++) {
			printf("%s%s", j ? ", " : "", hq[j]->name);
			if (!opt.nounits && hq[j]->unit[0])
				printf(" [%s]", hq[j]->unit);
		}
		printf("\n");
	}
	for (i = 0; i < s->ncards; i++) {
		if (!s->sel[i])
			continue;
		for (j = 0; j < nhq; j++) {
			const char *t = hvalue(&s->cards[i], hq[j], buf,
					       sizeof(buf));

			printf("%s", j ? ", " : "");
			csv_cell(stdout, t);
			if (!opt.nounits && hq[j]->unit[0] &&
			    strcmp(t, "N/A"))
				printf(" %s", hq[j]->unit);
		}
		printf("\n");
	}
}

/* ---- -q / -L: the record of each card -------------------------------------- */

/* One "label : value" line at @depth (0: the header, 1: a card, 2, 3). */
static void kv(int depth, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void kv(int depth, const char *label, const char *fmt, ...)
{
	va_list ap;
	int ind = depth * 8;

	printf("%*s%-*s: ", ind, "", 40 - ind, label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void head(int depth, const char *title)
{
	printf("%*s%s\n", depth * 8, "", title);
}

static const char *fw_or_na(const struct card *c, unsigned int i)
{
	return c->fw_have[i] && c->fw[i][0] ? c->fw[i] : "N/A";
}

static const char *na(const char *s)
{
	return s && s[0] ? s : "N/A";
}

static const char *slowdown(const struct card *c, int64_t bit)
{
	if (c->throttle == NA)
		return "N/A";
	return c->throttle & bit ? "Active" : "Not Active";
}

static void record(const struct smi *s, const struct card *c)
{
	const char *cn = card_node(c, false);
	unsigned int bus = 0, dev = 0, fn = 0, dom = 0, i, k;
	char a[32];

	sscanf(c->bus, "%x:%x:%x.%x", &dom, &bus, &dev, &fn);
	printf("[%u] AIP (%s) %s\n", c->index,
	       cn && strrchr(cn, '/') ? strrchr(cn, '/') + 1 : "N/A", c->bus);
	if (!hl_disp || (hl_disp & HD_PRODUCT)) {
		kv(1, "Product Name", "%s", product_name(c));
		kv(1, "Model Number", "N/A");
		kv(1, "Serial Number", "%s", na(c->serial));
		kv(1, "Module status", "%c%s",
		   toupper((unsigned char)(c->status[0] ? c->status[0] : 'u')),
		   c->status[0] ? c->status + 1 : "nknown");
		kv(1, "Module ID", "%s", val_text(field_get(c, Q_MODULE), a,
						  sizeof(a)));
		kv(1, "AIP UUID", "%s", na(c->uuid));
		kv(1, "Firmware [FIT] Version", "%s", fw_or_na(c, 1));
		kv(1, "Firmware [SPI] Version", "%s", fw_or_na(c, 3));
		kv(1, "Firmware [UBOOT] Version", "%s", fw_or_na(c, 2));
		kv(1, "Firmware [OS] Version", "%s", fw_or_na(c, 4));
		kv(1, "CPLD Version", "%s", fw_or_na(c, 7));
	}
	if (!hl_disp || (hl_disp & HD_BUS)) {
		head(1, "PCI");
		kv(2, "Bus", "0x%02x", bus);
		kv(2, "Device", "0x%02x", dev);
		kv(2, "Domain", "0x%04x", dom);
		if (c->revision == NA)
			kv(2, "Rev", "N/A");
		else
			kv(2, "Rev", "%02llx", (long long)c->revision);
		if (c->device_id == NA)
			kv(2, "Device Id", "N/A");
		else
			kv(2, "Device Id", "0x1da3%04llx",
			   (long long)c->device_id & 0xffff);
		kv(2, "Bus Id", "%s", c->bus);
		kv(2, "NUMA Node", "%s", val_text(field_get(c, Q_NUMA), a,
						  sizeof(a)));
		kv(2, "CPU Affinity", "%s", na(c->cpulist));
	}
	if (!hl_disp || (hl_disp & HD_FAN)) {
		head(1, "Fan Speed");
		kv(5, "", "N/A");
	}
	if (!hl_disp || (hl_disp & HD_CLOCK)) {
		head(1, "Clocks Throttle Reasons");
		kv(2, "HW Slowdown", "%s", c->throttle == NA ? "N/A" :
		   c->throttle ? "Active" : "Not Active");
		head(3, "Thermal Slowdown");
		kv(5, "", "%s", slowdown(c, HL_CLK_THROTTLE_THERMAL));
		head(3, "Power Slowdown");
		kv(5, "", "%s", slowdown(c, HL_CLK_THROTTLE_POWER));
	}
	if (!hl_disp || (hl_disp & HD_MEMORY)) {
		kv(1, "Memory Type", "HBM");
		head(1, "Memory Usage");
		kv(2, "Total", "%s MB", val_text(field_get(c, Q_MEM_TOTAL), a,
						 sizeof(a)));
		kv(2, "Used", "%s MB", val_text(field_get(c, Q_MEM_USED), a,
						sizeof(a)));
		kv(2, "Free", "%s MB", val_text(field_get(c, Q_MEM_FREE), a,
						sizeof(a)));
	}
	if (!hl_disp || (hl_disp & HD_TEMPERATURE)) {
		head(1, "Temperature");
		for (i = 0; i < c->ntemps; i++) {
			char lab[48];

			snprintf(lab, sizeof(lab), "[%2u] %s", i + 1,
				 c->temps[i].label);
			kv(2, lab, "%3s C", val_text(vnum(c->temps[i].mc,
							  1000, 0), a,
						     sizeof(a)));
		}
	}
	if (!hl_disp || (hl_disp & HD_POWER)) {
		head(1, "Power Readings");
		kv(2, "Power Management", "N/A");
		kv(2, "Power Draw", "%s W", val_text(vnum(c->power_mw, 1000, 0),
						     a, sizeof(a)));
		kv(2, "Power Limit", "%s W", val_text(vnum(c->cap_mw, 1000, 0),
						      a, sizeof(a)));
	}
	if (!hl_disp || (hl_disp & HD_CLOCK)) {
		head(1, "Clocks");
		kv(2, "[1] mme", "%s MHz", val_text(vint(c->clk_cur), a,
						    sizeof(a)));
		head(1, "Clocks Max");
		kv(2, "[1] mme", "%s MHz", val_text(vint(c->clk_max), a,
						    sizeof(a)));
	}
	if (!hl_disp || (hl_disp & HD_NET)) {
		head(1, "Network Information");
		for (i = 0, k = 0; i < NIC_PORTS; i++) {
			char lab[16];

			if (!c->ports[i].enabled)
				continue;
			snprintf(lab, sizeof(lab), "[%2u] MAC", ++k);
			kv(2, lab, "%s", na(c->ports[i].mac));
		}
	}
	if (!hl_disp || (hl_disp & HD_ROWS)) {
		head(1, "Replaced Rows");
		kv(2, "Replaced", "%s", val_text(vint(c->rows_replaced), a,
						 sizeof(a)));
		kv(2, "Pending", "%s", c->rows_pending == NA ? "N/A" :
		   c->rows_pending ? "Yes" : "No");
	}
	(void)s;
}

void run_hl_query(struct smi *s)
{
	char date[64];
	time_t now = time(NULL);
	unsigned int i, n = 0, first = s->ncards;
	struct tm tm;

	for (i = 0; i < s->ncards; i++)
		if (s->sel[i]) {
			n++;
			if (first == s->ncards)
				first = i;
		}
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Z %Y", &tm);
	printf("\n================ HL-SMI LOG ================\n\n");
	kv(0, "Timestamp", "%s", date);
	kv(0, "Driver Version", "%s", first < s->ncards ?
	   na(s->cards[first].drv_version) : "N/A");
	kv(0, "HL-SMI Version", "gaudi-smi %s (hl-smi compatible)",
	   SMI_VERSION);
	printf("\n");
	kv(0, "Attached AIPs", "%u", n);
	printf("\n");
	for (i = 0; i < s->ncards; i++)
		if (s->sel[i])
			record(s, &s->cards[i]);
}

/* ---- -n link|ports|stats ------------------------------------------------- */

void run_hl_nic(struct smi *s)
{
	unsigned int i, p;

	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		for (p = 0; p < NIC_PORTS; p++) {
			const struct nic_port *np = &c->ports[p];

			if (!np->enabled || (!nic_ports_all &&
					     !nic_ports_sel[p]))
				continue;
			if (s->nic_view == NV_LINK)
				printf("port %2u:\t%s\n", p,
				       np->carrier == 1 ? "UP" : "DOWN");
			else if (s->nic_view == NV_PORTS)
				printf("port %2u:\t%s\n", p,
				       np->external ? "external" : "internal");
			else
				printf("port %2u:\trx_frames %lld tx_frames %lld rx_bytes %lld tx_bytes %lld rx_errors %lld tx_errors %lld\n",
				       p, (long long)np->rx_frames,
				       (long long)np->tx_frames,
				       (long long)np->rx_bytes,
				       (long long)np->tx_bytes,
				       (long long)np->rx_errors,
				       (long long)np->tx_errors);
		}
	}
}

/* ---- topo -c -N ---------------------------------------------------------- */

/* "0-39,80-119" as hl-smi shows it: "0-39, 80-119". */
static void cpus_text(const char *l)
{
	if (!l[0]) {
		fputs("N/A", stdout);
		return;
	}
	for (; *l; l++) {
		putchar(*l);
		if (*l == ',')
			putchar(' ');
	}
}

void run_hl_topo(struct smi *s)
{
	unsigned int i;
	int m;

	if (!topo_cpu && !topo_numa) {
		s->nic_view = NV_TOPO;
		run_nic(s);
		return;
	}
	printf("modID%s%s\n", topo_cpu ? "\tCPU Affinity" : "",
	       topo_numa ? "\tNUMA Affinity" : "");
	printf("-----%s%s\n", topo_cpu ? "\t------------" : "",
	       topo_numa ? "\t-------------" : "");
	/* by module id, as hl-smi; cards without one last */
	for (m = 0; m <= 64; m++) {
		for (i = 0; i < s->ncards; i++) {
			const struct card *c = &s->cards[i];
			bool has = c->module_id >= 0 && c->module_id < 64;
			char a[24];

			if (!s->sel[i] || (m < 64 ? c->module_id != m : has))
				continue;
			printf("%s", val_text(field_get(c, Q_MODULE), a,
					      sizeof(a)));
			if (topo_cpu) {
				putchar('\t');
				cpus_text(c->cpulist);
			}
			if (topo_numa)
				printf("\t%s", val_text(field_get(c, Q_NUMA), a,
							sizeof(a)));
			printf("\n");
		}
	}
}

/* ---- --query-row-replacement --------------------------------------------- */

void run_hl_rows(struct smi *s)
{
	char a[32];
	unsigned int i;

	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		printf("%s, %s, %s\n", na(c->uuid),
		       val_text(vint(c->rows_replaced), a, sizeof(a)),
		       c->rows_pending == NA ? "N/A" :
		       c->rows_pending ? "Yes" : "No");
	}
}

/* ---- the command line ----------------------------------------------------- */

static void hl_usage(FILE *f)
{
	fprintf(f,
"usage: hl-smi [OPTIONS]   (gaudi-smi in hl-smi's compatible mode)\n"
"  -L, --list-aips            every card's record (as -q)\n"
"  -q, --query                every card's record\n"
"  -d, --display=TYPES        with -q: PRODUCT, POWER, CLOCK, TEMPERATURE, FAN,\n"
"                             BUS, MEMORY, NET, ROW_REPLACEMENT\n"
"  -Q, --query-aip=FIELDS     values as CSV (timestamp, name, bus_id,\n"
"                             driver_version, temperature.aip, module_id,\n"
"                             utilization.aip, memory.total, memory.free,\n"
"                             memory.used, index, serial, uuid, power.draw,\n"
"                             ecc.*, stats.violation.power|thermal)\n"
"  -f, --format=csv[,noheader][,nounits]\n"
"      --query-row-replacement=uuid,replaced_rows\n"
"  -n, --nic=link|ports|stats [-P PORT,...]\n"
"  topo -c -N                 CPU and NUMA affinity of each module\n"
"  -i, --device=BUS_ID        one card (its PCI address)\n"
"  -l, --loop[=SECONDS]       repeat (default 5 s)\n"
"      --fw-versions          firmware versions\n"
"  -r, --reset-aip            hard reset (root, with -i)\n"
"  -p, --power-limit=WATTS    power cap (root)\n"
"  -v, --version   -h, --help   -D (accepted, no effect)\n"
"See Documentation/tools/hl-smi-compat.rst and gaudi-smi(1).\n");
}

static int parse_hq(const char *arg)
{
	char *dup = strdup(arg), *tok, *save = NULL;
	unsigned int i;

	nhq = 0;
	for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		for (i = 0; i < ARRAY_LEN(hfields); i++)
			if (!strcmp(tok, hfields[i].name))
				break;
		if (i == ARRAY_LEN(hfields)) {
			err("unknown query '%s' (see hl-smi -h)", tok);
			free(dup);
			return -1;
		}
		if (nhq < HL_MAX_Q)
			hq[nhq++] = &hfields[i];
	}
	free(dup);
	return nhq ? 0 : -1;
}

/* What the -Q fields need collected, through s->q (fields_need()). */
static void hq_needs(struct smi *s)
{
	unsigned int j;

	s->nq = 0;
	for (j = 0; j < nhq; j++)
		if (hq[j]->fid < Q_NUM && s->nq < ARRAY_LEN(s->q))
			s->q[s->nq++] = hq[j]->fid;
}

static int parse_disp(const char *arg)
{
	static const char *const names[] = {
		"PRODUCT", "POWER", "CLOCK", "TEMPERATURE", "FAN", "BUS",
		"MEMORY", "NET", "ROW_REPLACEMENT",
	};
	char *dup = strdup(arg), *tok, *save = NULL;
	unsigned int i;

	for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_LEN(names); i++)
			if (!strcasecmp(tok, names[i]))
				break;
		if (i == ARRAY_LEN(names)) {
			err("unknown display type '%s'", tok);
			free(dup);
			return -1;
		}
		hl_disp |= 1U << i;
	}
	free(dup);
	return 0;
}

static int parse_ports(const char *arg)
{
	char *dup = strdup(arg), *tok, *save = NULL, *end;

	nic_ports_all = false;
	memset(nic_ports_sel, 0, sizeof(nic_ports_sel));
	for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long p = strtoul(tok, &end, 10);

		if (*end || end == tok || p >= NIC_PORTS) {
			err("-P wants port numbers 0..%d, not '%s'",
			    NIC_PORTS - 1, tok);
			free(dup);
			return -1;
		}
		nic_ports_sel[p] = true;
	}
	free(dup);
	return 0;
}

bool compat_wanted(int argc, char **argv)
{
	const char *b = argc > 0 ? strrchr(argv[0], '/') : NULL;

	b = b ? b + 1 : argc > 0 ? argv[0] : "";
	return !strcmp(b, "hl-smi") ||
	       (argc > 1 && !strcmp(argv[1], "--hl-smi"));
}

/*
 * hl-smi's command line into @s (the modes M_HL_*, M_RESET, M_POWER).
 * Returns -1 to go on, else the exit status.
 */
int compat_parse(struct smi *s, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "list-aips", no_argument, NULL, 'L' },
		{ "query", no_argument, NULL, 'q' },
		{ "display", required_argument, NULL, 'd' },
		{ "query-aip", required_argument, NULL, 'Q' },
		{ "format", required_argument, NULL, 'f' },
		{ "device", required_argument, NULL, 'i' },
		{ "loop", optional_argument, NULL, 'l' },
		{ "reset-aip", no_argument, NULL, 'r' },
		{ "power-limit", required_argument, NULL, 'p' },
		{ "power-max", required_argument, NULL, 'p' },
		{ "nic", required_argument, NULL, 'n' },
		{ "fw-versions", no_argument, NULL, O_FW },
		{ "fw-version", no_argument, NULL, O_FW },
		{ "query-row-replacement", required_argument, NULL, O_ROWS },
		{ "force", no_argument, NULL, O_FORCE },
		{ "version", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool topo = false;
	char *end;
	int o;

	opt.prog = "hl-smi";
	s->mode = M_TABLE;
	s->procs_too = true;
	for (o = 0; o < S_NUM; o++)
		s->sects[o] = true;
	if (argc > 1 && !strcmp(argv[1], "--hl-smi")) {
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	if (argc > 1 && !strcmp(argv[1], "topo")) {
		topo = true;
		s->mode = M_HL_TOPO;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	optind = 1;
	while ((o = getopt_long(argc, argv, topo ? "cNmi:h" :
				"Lqd:Q:f:i:l::rp:n:P:vhD", lopts,
				NULL)) != -1) {
		switch (o) {
		case 'c': topo_cpu = true; break;
		case 'N': topo_numa = true; break;
		case 'm': break;
		case 'L': case 'q': s->mode = M_HL_QUERY; break;
		case 'd':
			if (parse_disp(optarg))
				return EX_USAGE;
			break;
		case 'Q':
			if (parse_hq(optarg))
				return EX_USAGE;
			hq_needs(s);
			s->mode = M_HL_CSV;
			break;
		case O_ROWS:
			/* uuid,replaced_rows: the only types there are */
			s->mode = M_HL_ROWS;
			break;
		case 'f':
			if (strncmp(optarg, "csv", 3)) {
				err("-f wants csv[,noheader][,nounits]");
				return EX_USAGE;
			}
			opt.noheader = strstr(optarg, "noheader") != NULL;
			opt.nounits = strstr(optarg, "nounits") != NULL;
			break;
		case 'i': s->ids = optarg; break;
		case 'l':
			s->loop = 5;
			if (optarg || (optind < argc && argv[optind][0] >= '0' &&
				       argv[optind][0] <= '9')) {
				const char *a = optarg ? optarg : argv[optind++];

				s->loop = strtol(a, &end, 10);
				if (*end || s->loop <= 0) {
					err("-l wants seconds, not '%s'", a);
					return EX_USAGE;
				}
			}
			break;
		case 'r': s->mode = M_RESET; break;
		case O_FORCE: s->force = true; break;
		case 'p':
			s->watts = strtol(optarg, &end, 10);
			if (*end || s->watts <= 0 || s->watts > 1000) {
				err("-p wants watts (1..1000), not '%s'",
				    optarg);
				return EX_USAGE;
			}
			s->mode = M_POWER;
			break;
		case 'n':
			if (!strcmp(optarg, "link"))
				s->nic_view = NV_LINK;
			else if (!strcmp(optarg, "ports"))
				s->nic_view = NV_PORTS;
			else if (!strcmp(optarg, "stats"))
				s->nic_view = NV_STATS;
			else {
				err("-n wants link, ports or stats");
				return EX_USAGE;
			}
			s->mode = M_HL_NIC;
			break;
		case 'P':
			if (parse_ports(optarg))
				return EX_USAGE;
			break;
		case O_FW: s->mode = M_FW; break;
		case 'D': break;
		case 'v':
			printf("hl-smi compatible mode of gaudi-smi %s (libgaudi %s)\n",
			       SMI_VERSION, gaudi_version());
			return EX_OK;
		case 'h': hl_usage(stdout); return EX_OK;
		default: hl_usage(stderr); return EX_USAGE;
		}
	}
	if (optind < argc) {
		err("unexpected argument '%s' (see hl-smi -h)", argv[optind]);
		return EX_USAGE;
	}
	if (s->mode == M_RESET && !s->ids) {
		err("-r needs -i BUS_ID");
		return EX_USAGE;
	}
	if (s->loop && (modes[s->mode].flags & MF_ACTION)) {
		err("-l does not repeat -r or -p");
		return EX_USAGE;
	}
	return -1;
}

