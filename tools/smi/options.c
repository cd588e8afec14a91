// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: the command line.  Options into struct smi, checked against the
 * mode table (main.c) before any card is touched; --help, --help-fields;
 * -i's card selection.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "smi.h"

struct smi_opt opt = { .prog = "gaudi-smi" };

void err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", opt.prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: gaudi-smi [OPTIONS]\n"
"Show the state of the Habana Gaudi 1 cards of this host.\n"
"\n"
"Views (default: a table of the cards and a table of processes):\n"
"  -L, --list               list the cards\n"
"  -q, --query              detailed report by sections\n"
"  -d, --display=SECTIONS   with -q: only these sections (comma list of\n"
"                           product, firmware, pci, clocks, temperature,\n"
"                           power, memory, utilization, events, reset,\n"
"                           health, nic, processes)\n"
"  -Q, --query-fields=F,... values of fields (--help-fields lists them)\n"
"  -n, --nic=VIEW           the NIC ports: ports (a table: interface, MAC,\n"
"                           link, peer, counters), link, stats, or topo (a\n"
"                           card x card matrix of the linking ports)\n"
"  -a, --accounting         what each process that held a card used: engine\n"
"                           time, peak memory, energy, wall time (gaudi.ko\n"
"                           keeps the running holder and recent exited ones)\n"
"      --price=PRICE        with -a: the cost of a card-hour, for a cost column\n"
"      --fw-versions        firmware versions of each card\n"
"      --health             one verdict line per card; exit status 0 all\n"
"                           OK, 5 a card has warnings, 6 a card failed\n"
"      --prometheus         Prometheus text format for node exporter's\n"
"                           textfile collector\n"
"      --events             a line (--format json: a JSON object) per event\n"
"                           of the cards as it happens: resets, errors, CS\n"
"                           timeouts, link up/down, holders; until interrupted\n"
"      --cdi                a CDI spec of the cards (habana.ai/gaudi=N, =all)\n"
"                           for podman and other CDI container engines\n"
"Selection and format:\n"
"  -i, --id=CARD[,CARD..]   cards by index (gaudi-smi -L) or PCI bus id\n"
"      --format=FMT         csv[,noheader][,nounits] or json (for -Q, -q,\n"
"                           -a, -n, --health; default text)\n"
"  -l, --loop=SECONDS       repeat the view every SECONDS until interrupted\n"
"  -c, --count=N            with -l: stop after N repetitions\n"
"Actions (root):\n"
"  -r, --reset              hard reset the cards selected with -i; refused\n"
"                           while a process holds one (exit status 7)\n"
"      --force              with -r: reset a held card too\n"
"  -p, --power-limit=WATTS  set the power cap of the selected cards\n"
"Other:\n"
"      --help-fields        list the fields of -Q\n"
"  -h, --help               this help\n"
"  -V, --version            version\n"
"\n"
"Exit status: 0 success, 1 a query or action failed, 2 usage error,\n"
"3 no card, no driver loaded or no such card, 4 permission denied,\n"
"5 (--health) a card has warnings, 6 (--health) a card is unhealthy,\n"
"7 (-r) a process holds the card.\n"
"See gaudi-smi(1).\n");
}

static void help_fields(void)
{
	int f;

	for (f = 0; f < Q_NUM; f++)
		printf("%-30s %-6s %s (%s)\n", fields[f].name,
		       fields[f].unit[0] ? fields[f].unit : "-",
		       fields[f].label, fields[f].sect < S_NUM ?
		       sect_names[fields[f].sect] : "-Q only");
}

static int parse_format(const char *s)
{
	char *dup = strdup(s), *tok, *save = NULL;
	int ret = 0;

	if (!dup)
		return -1;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "csv"))
			opt.fmt = FMT_CSV;
		else if (!strcmp(tok, "json"))
			opt.fmt = FMT_JSON;
		else if (!strcmp(tok, "text"))
			opt.fmt = FMT_TEXT;
		else if (!strcmp(tok, "noheader"))
			opt.noheader = true;
		else if (!strcmp(tok, "nounits"))
			opt.nounits = true;
		else
			ret = -1;
	}
	free(dup);
	if ((opt.noheader || opt.nounits) && opt.fmt != FMT_CSV)
		ret = -1;
	return ret;
}

static bool bus_match(const char *bus, const char *want)
{
	size_t lw = strlen(want), lb = strlen(bus);

	if (!strcasecmp(bus, want))
		return true;
	/* "BB:DD.F" without the domain */
	return lw == 7 && lb == 12 && !strncmp(bus, "0000:", 5) &&
	       !strcasecmp(bus + 5, want);
}

/* -i: s->sel[] of the cards named (all without -i); EX_NODEV: one is not. */
int select_cards(struct smi *s)
{
	const char *ids = s->ids;
	unsigned int i, n = s->ncards;
	char *dup, *tok, *save = NULL;
	int *sel = s->sel;
	int ret = 0;

	for (i = 0; i < n; i++)
		sel[i] = !ids;
	if (!ids)
		return 0;
	dup = strdup(ids);
	if (!dup)
		return EX_FAIL;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long v = strtoul(tok, &end, 10);
		bool found = false;

		if (*tok && !*end) {
			if (v < n)
				sel[v] = found = true;
		} else {
			for (i = 0; i < n; i++)
				if (bus_match(s->cards[i].bus, tok))
					sel[i] = found = true;
		}
		if (!found) {
			err("no card '%s' (%u cards: index 0..%u or a PCI bus id, see gaudi-smi -L)",
			    tok, n, n ? n - 1 : 0);
			ret = EX_NODEV;
		}
	}
	free(dup);
	return ret;
}


/* -d: the sections of -q, and whether its processes. */
static int parse_sections(struct smi *s, const char *display)
{
	char *dup = strdup(display), *tok, *save = NULL;
	unsigned int i;

	for (i = 0; i < S_NUM; i++)
		s->sects[i] = false;
	s->procs_too = false;
	for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		bool found = !strcasecmp(tok, "processes");

		if (found)
			s->procs_too = true;
		for (i = 0; i < S_NUM; i++)
			if (!strcasecmp(tok, sect_names[i]))
				s->sects[i] = found = true;
		if (!found) {
			err("unknown section '%s' for -d (see --help)", tok);
			free(dup);
			return -1;
		}
	}
	free(dup);
	return 0;
}

/* -Q: the fields, in the order given (a field may come twice). */
static int parse_fields(struct smi *s, const char *qfields)
{
	char *dup = strdup(qfields), *tok, *save = NULL;

	for (tok = dup ? strtok_r(dup, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int f;

		while (*tok == ' ')
			tok++;
		for (f = 0; f < Q_NUM; f++)
			if (!strcmp(tok, fields[f].name))
				break;
		if (f == Q_NUM) {
			err("unknown field '%s' for -Q (see --help-fields)", tok);
			free(dup);
			return -1;
		}
		if (s->nq < Q_NUM * 2)
			s->q[s->nq++] = f;
	}
	free(dup);
	if (!s->nq) {
		err("-Q wants at least one field");
		return -1;
	}
	return 0;
}

/* -n VIEW */
static int parse_nic_view(struct smi *s, const char *arg)
{
	static const char *const names[] = {
		[NV_PORTS] = "ports", [NV_LINK] = "link",
		[NV_STATS] = "stats", [NV_TOPO] = "topo",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(names); i++)
		if (!strcmp(arg, names[i])) {
			s->nic_view = i;
			return 0;
		}
	err("-n wants ports, link, stats or topo, not '%s'", arg);
	return -1;
}

/* A whole number in [1, max] into *v; -1 if @arg is not one. */
static int parse_long(const char *arg, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	return errno || *end || end == arg || *v <= 0 || *v > max ? -1 : 0;
}

/* --price: a number in (0, 1e6] into *v; -1 if @arg is not one. */
static int parse_price(const char *arg, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	return errno || *end || end == arg || !(*v > 0) || *v > 1e6 ? -1 : 0;
}

/* The mode an option picks, M_NUM for an option that is not a mode. */
static enum mode_id mode_of_option(int o)
{
	unsigned int m;

	for (m = 0; m < M_NUM; m++)
		if (modes[m].opt && modes[m].opt == o)
			return m;
	return M_NUM;
}

/*
 * The combinations of options that are usage errors, in the order the
 * messages have always come; then -d's sections and -Q's fields.
 */
static int check_args(struct smi *s, int nmodes)
{
	const struct mode *m = &modes[s->mode];

	if (nmodes > 1) {
		err("choose one of -L, -q, -Q, -a, -n, -r, -p, --fw-versions, --health, --prometheus, --events, --cdi");
		return EX_USAGE;
	}
	if (s->display && s->mode != M_REPORT) {
		err("-d works with -q");
		return EX_USAGE;
	}
	if (opt.fmt != FMT_TEXT && !(m->flags & MF_FORMAT)) {
		err("--format works with -Q, -q, -a, -n, --health and --events");
		return EX_USAGE;
	}
	if (opt.fmt == FMT_CSV && !(m->flags & MF_CSV)) {
		err("--format csv needs -Q FIELDS, -a or -n");
		return EX_USAGE;
	}
	if (opt.fmt == FMT_JSON && s->mode == M_TABLE)
		s->mode = M_REPORT;	/* the whole state as one JSON object */
	if (s->loop && s->mode == M_EVENTS) {
		err("--events runs until interrupted: no -l");
		return EX_USAGE;
	}
	if (s->loop && (modes[s->mode].flags & MF_ACTION)) {
		err("-l does not repeat -r or -p");
		return EX_USAGE;
	}
	if (s->mode == M_RESET && !s->ids) {
		err("-r needs -i CARD: name the cards to reset");
		return EX_USAGE;
	}
	if (s->force && s->mode != M_RESET) {
		err("--force works with -r");
		return EX_USAGE;
	}
	if (s->price > 0 && s->mode != M_ACCT) {
		err("--price works with -a");
		return EX_USAGE;
	}
	if (s->display && parse_sections(s, s->display))
		return EX_USAGE;
	if (s->qfields && parse_fields(s, s->qfields))
		return EX_USAGE;
	opt.utf8 = isatty(STDOUT_FILENO) &&
		   !strcmp(nl_langinfo(CODESET), "UTF-8");
	return -1;
}

/*
 * The options into @s, then check_args().  Returns -1 to go on, else the
 * exit status (--help, --version, a usage error).
 */
int parse_args(struct smi *s, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "list", no_argument, NULL, 'L' },
		{ "query", no_argument, NULL, 'q' },
		{ "display", required_argument, NULL, 'd' },
		{ "query-fields", required_argument, NULL, 'Q' },
		{ "id", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "loop", required_argument, NULL, 'l' },
		{ "count", required_argument, NULL, 'c' },
		{ "reset", no_argument, NULL, 'r' },
		{ "power-limit", required_argument, NULL, 'p' },
		{ "fw-versions", no_argument, NULL, O_FW },
		{ "health", no_argument, NULL, O_HEALTH },
		{ "prometheus", no_argument, NULL, O_PROM },
		{ "help-fields", no_argument, NULL, O_HELP_FIELDS },
		{ "nic", required_argument, NULL, 'n' },
		{ "accounting", no_argument, NULL, 'a' },
		{ "price", required_argument, NULL, O_PRICE },
		{ "force", no_argument, NULL, O_FORCE },
		{ "events", no_argument, NULL, O_EVENTS },
		{ "cdi", no_argument, NULL, O_CDI },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int i;
	int nmodes = 0, o;

	if (compat_wanted(argc, argv))
		return compat_parse(s, argc, argv);
	s->mode = M_TABLE;
	for (i = 0; i < S_NUM; i++)
		s->sects[i] = true;
	s->procs_too = true;

	while ((o = getopt_long(argc, argv, "Lqad:Q:i:l:c:rp:n:hV", lopts,
				NULL)) != -1) {
		enum mode_id mo = mode_of_option(o);

		if (mo != M_NUM) {
			s->mode = mo;
			nmodes++;
		}
		switch (o) {
		case 'L': case 'q': case 'r': case 'a':
		case O_FW: case O_HEALTH: case O_PROM: case O_EVENTS:
		case O_CDI:
			break;
		case 'n':
			if (parse_nic_view(s, optarg))
				return EX_USAGE;
			break;
		case 'd': s->display = optarg; break;
		case 'Q': s->qfields = optarg; break;
		case 'i': s->ids = optarg; break;
		case O_FORMAT:
			if (parse_format(optarg)) {
				err("bad --format '%s' (csv[,noheader][,nounits] or json)",
				    optarg);
				return EX_USAGE;
			}
			break;
		case 'l':
		case 'c':
			if (parse_long(optarg, LONG_MAX,
				       o == 'l' ? &s->loop : &s->count)) {
				err("-%c wants a positive whole number, not '%s'",
				    o, optarg);
				return EX_USAGE;
			}
			break;
		case 'p':
			if (parse_long(optarg, 1000, &s->watts)) {
				err("-p wants a power limit in watts (1..1000), not '%s'",
				    optarg);
				return EX_USAGE;
			}
			break;
		case O_PRICE:
			if (parse_price(optarg, &s->price)) {
				err("--price wants the cost of a card-hour (a number above 0, at most 1000000), not '%s'",
				    optarg);
				return EX_USAGE;
			}
			break;
		case O_FORCE: s->force = true; break;
		case O_HELP_FIELDS: help_fields(); return EX_OK;
		case 'h': usage(stdout); return EX_OK;
		case 'V':
			printf("gaudi-smi %s (libgaudi %s)\n", SMI_VERSION,
			       gaudi_version());
			return EX_OK;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind < argc) {
		err("unexpected argument '%s' (see --help)", argv[optind]);
		return EX_USAGE;
	}
	return check_args(s, nmodes);
}
