// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: -a, the accounting view.  gaudi.ko keeps a record per holding
 * of each card (the running holder and a bounded number of exited ones):
 * engine time per class, submissions, peak memory, energy, wall time, and
 * the holder's cgroup (its pod, systemd unit or batch job).  This prints
 * them as a table, CSV or JSON, with a cost when --price gives the price of
 * a card-hour.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smi.h"

/* Columns of the view: -a's CSV header names them (units in brackets). */
enum acol {
	AC_CARD, AC_BUS, AC_ID, AC_PID, AC_UID, AC_COMM, AC_STATE, AC_START,
	AC_WALL, AC_DMA, AC_MME, AC_TPC, AC_CS, AC_HBM, AC_HOST, AC_ENERGY,
	AC_POWER, AC_COST, AC_CGROUP, AC_NUM
};

static const struct {
	const char *name, *unit;
} acols[AC_NUM] = {
	[AC_CARD] = { "card", "" },
	[AC_BUS] = { "pci.bus_id", "" },
	[AC_ID] = { "id", "" },
	[AC_PID] = { "pid", "" },
	[AC_UID] = { "uid", "" },
	[AC_COMM] = { "command", "" },
	[AC_STATE] = { "state", "" },
	[AC_START] = { "start_time", "" },
	[AC_WALL] = { "time", "s" },
	[AC_DMA] = { "busy.dma", "s" },
	[AC_MME] = { "busy.mme", "s" },
	[AC_TPC] = { "busy.tpc", "s" },
	[AC_CS] = { "submissions", "" },
	[AC_HBM] = { "peak_memory.hbm", "MiB" },
	[AC_HOST] = { "peak_memory.host", "MiB" },
	[AC_ENERGY] = { "energy", "J" },
	[AC_POWER] = { "power.average", "W" },
	[AC_COST] = { "cost", "" },
	[AC_CGROUP] = { "cgroup", "" },
};

/* The records of one card, read for this repetition. */
struct acct_card {
	const struct card *c;
	struct gaudi_acct *r;
	char (*cg)[GAUDI_ACCT_CGROUP_MAX];	/* each record's cgroup */
	int n;			/* records, or a negative errno */
};

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

/* Cost of a holding: its wall time in card-hours at --price. */
static double cost_of(const struct smi *s, const struct gaudi_acct *r)
{
	return (double)r->wall_ns / 3.6e12 * s->price;
}

/* Column @k of record @r of card @c as text into @buf ("" for N/A). */
static const char *cell(const struct smi *s, const struct card *c,
			const struct gaudi_acct *r, const char *cg,
			enum acol k, char *buf, size_t len)
{
	time_t t;
	struct tm tm;

	buf[0] = '\0';
	switch (k) {
	case AC_CARD: snprintf(buf, len, "%u", c->index); break;
	case AC_BUS: snprintf(buf, len, "%s", c->bus); break;
	case AC_ID: snprintf(buf, len, "%" PRIu64, r->id); break;
	case AC_PID:
		if (r->pid)
			snprintf(buf, len, "%d", r->pid);
		break;
	case AC_UID: snprintf(buf, len, "%u", r->uid); break;
	case AC_COMM: snprintf(buf, len, "%s", r->comm); break;
	case AC_STATE:
		snprintf(buf, len, "%s", r->flags & GAUDI_ACCT_F_RUNNING ?
			 "running" : "exited");
		break;
	case AC_START:
		t = (time_t)(r->start_time_ns / 1000000000ULL);
		if (gmtime_r(&t, &tm))
			strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
		break;
	case AC_WALL: snprintf(buf, len, "%.3f", secs(r->wall_ns)); break;
	case AC_DMA: case AC_MME: case AC_TPC:
		snprintf(buf, len, "%.3f",
			 secs(r->busy_ns[GAUDI_CLASS_DMA + (k - AC_DMA)]));
		break;
	case AC_CS: snprintf(buf, len, "%" PRIu64, r->cs_submitted); break;
	case AC_HBM: snprintf(buf, len, "%.1f", mib(r->peak_hbm_bytes)); break;
	case AC_HOST:
		snprintf(buf, len, "%.1f", mib(r->peak_host_bytes));
		break;
	case AC_ENERGY:
		if (r->flags & GAUDI_ACCT_F_ENERGY)
			snprintf(buf, len, "%.3f", (double)r->energy_uj / 1e6);
		break;
	case AC_POWER:
		if ((r->flags & GAUDI_ACCT_F_ENERGY) && r->wall_ns)
			snprintf(buf, len, "%.1f", (double)r->energy_uj * 1e3 /
				 (double)r->wall_ns);
		break;
	case AC_COST:
		if (s->price > 0)
			snprintf(buf, len, "%.4f", cost_of(s, r));
		break;
	case AC_CGROUP:
		snprintf(buf, len, "%s", cg);
		break;
	default:
		break;
	}
	return buf;
}

static void read_cards(struct smi *s, struct acct_card *ac)
{
	unsigned int i;

	for (i = 0; i < s->ncards; i++) {
		struct card *c = &s->cards[i];
		int n;

		ac[i].c = c;
		ac[i].r = NULL;
		ac[i].cg = NULL;
		ac[i].n = 0;
		if (!s->sel[i])
			continue;
		if (!c->dev) {
			ac[i].n = c->dev_err ? c->dev_err : -ENODEV;
			continue;
		}
		n = gaudi_accounting(c->dev, NULL, 0, NULL);
		if (n > 0) {
			/* one more: a holder may open meanwhile */
			ac[i].r = calloc((size_t)n + 1, sizeof(*ac[i].r));
			ac[i].cg = calloc((size_t)n + 1, sizeof(*ac[i].cg));
			n = ac[i].r && ac[i].cg ?
			    gaudi_accounting_cgroups(c->dev, ac[i].r, ac[i].cg,
						     (unsigned int)n + 1,
						     NULL) : -ENOMEM;
		}
		ac[i].n = n;
		if (n < 0) {
			err("card %u (%s): no accounting: %s", i, c->bus,
			    n == -EOPNOTSUPP ?
			    "the driver does not keep it (gaudi.ko only)" :
			    gaudi_strerror(n));
			s->status = EX_FAIL;
		}
	}
}

static void acct_csv(const struct smi *s, const struct acct_card *ac)
{
	char buf[GAUDI_ACCT_CGROUP_MAX + 16];
	unsigned int i, k;
	int j;

	if (!opt.noheader) {
		for (k = 0; k < AC_NUM; k++) {
			printf("%s%s", k ? ", " : "", acols[k].name);
			if (!opt.nounits && acols[k].unit[0])
				printf(" [%s]", acols[k].unit);
		}
		printf("\n");
	}
	for (i = 0; i < s->ncards; i++)
		for (j = 0; j < ac[i].n; j++) {
			for (k = 0; k < AC_NUM; k++) {
				cell(s, ac[i].c, &ac[i].r[j], ac[i].cg[j], k,
				     buf, sizeof(buf));
				printf("%s", k ? ", " : "");
				/* comm and cgroup may hold a comma or a quote */
				if (k == AC_COMM || (k == AC_CGROUP && buf[0]))
					csv_cell(stdout, buf);
				else
					fputs(buf[0] ? buf : "N/A", stdout);
			}
			printf("\n");
		}
}

static void acct_json(const struct smi *s, const struct acct_card *ac)
{
	static const enum acol num[] = {
		AC_WALL, AC_DMA, AC_MME, AC_TPC, AC_HBM, AC_HOST, AC_ENERGY,
		AC_POWER, AC_COST,
	};
	static const char *const key[] = {
		"time_s", "busy_dma_s", "busy_mme_s", "busy_tpc_s",
		"peak_hbm_mib", "peak_host_mib", "energy_j", "power_average_w",
		"cost",
	};
	char buf[64];
	unsigned int i, k;
	bool first = true;
	int j;

	printf("{\"accounting\": [");
	for (i = 0; i < s->ncards; i++) {
		if (!s->sel[i])
			continue;
		printf("%s\n  {\"card\": %u, \"pci_bus_id\": ", first ? "" : ",",
		       i);
		first = false;
		json_str(stdout, ac[i].c->bus);
		if (ac[i].n < 0) {
			printf(", \"error\": ");
			json_str(stdout, gaudi_strerror(ac[i].n));
			printf("}");
			continue;
		}
		printf(", \"records\": [");
		for (j = 0; j < ac[i].n; j++) {
			const struct gaudi_acct *r = &ac[i].r[j];

			printf("%s\n    {\"id\": %" PRIu64 ", \"pid\": %d, \"uid\": %u, \"command\": ",
			       j ? "," : "", r->id, r->pid, r->uid);
			json_str(stdout, r->comm);
			printf(", \"running\": %s, \"reset\": %s, \"start_time\": \"%s\"",
			       r->flags & GAUDI_ACCT_F_RUNNING ? "true" : "false",
			       r->flags & GAUDI_ACCT_F_RESET ? "true" : "false",
			       cell(s, ac[i].c, r, "", AC_START, buf,
				    sizeof(buf)));
			printf(", \"submissions\": %" PRIu64 ", \"energy_uj\": ",
			       r->cs_submitted);
			if (r->flags & GAUDI_ACCT_F_ENERGY)
				printf("%" PRIu64, r->energy_uj);
			else
				printf("null");
			printf(", \"busy_ns\": {\"dma\": %" PRIu64 ", \"mme\": %" PRIu64 ", \"tpc\": %" PRIu64 "}",
			       r->busy_ns[GAUDI_CLASS_DMA],
			       r->busy_ns[GAUDI_CLASS_MME],
			       r->busy_ns[GAUDI_CLASS_TPC]);
			for (k = 0; k < ARRAY_LEN(num); k++) {
				cell(s, ac[i].c, r, "", num[k], buf,
				     sizeof(buf));
				printf(", \"%s\": %s", key[k],
				       buf[0] ? buf : "null");
			}
			printf(", \"cgroup\": ");
			if (ac[i].cg[j][0])
				json_str(stdout, ac[i].cg[j]);
			else
				printf("null");
			printf(", \"cgroup_truncated\": %s",
			       r->flags & GAUDI_ACCT_F_CGROUP_TRUNC ? "true" :
			       "false");
			printf("}");
		}
		printf("%s]}", ac[i].n ? "\n  " : "");
	}
	printf("\n]}\n");
}

static void acct_text(const struct smi *s, const struct acct_card *ac)
{
	static const enum acol cols[] = {
		AC_CARD, AC_PID, AC_COMM, AC_STATE, AC_WALL, AC_DMA, AC_MME,
		AC_TPC, AC_HBM, AC_HOST, AC_ENERGY, AC_POWER, AC_COST,
		AC_CGROUP,
	};
	static const char *const head[] = {
		"Card", "PID", "Command", "State", "Time s", "DMA s", "MME s",
		"TPC s", "HBM MiB", "Host MiB", "Energy J", "Avg W", "Cost",
		"Cgroup",
	};
	/* the cgroup last: a long path shifts no other column */
	static const int width[] = { 4, 7, 15, 7, 9, 8, 8, 8, 8, 8, 9, 6, 8, 0 };
	unsigned int ncol = ARRAY_LEN(cols);
	unsigned int i, k;
	char buf[GAUDI_ACCT_CGROUP_MAX + 16];
	int j, rows = 0;

	for (k = 0; k < ncol; k++)
		if (cols[k] != AC_COST || s->price > 0)
			printf("%s%-*s", k ? " " : "", width[k], head[k]);
	printf("\n");
	for (i = 0; i < s->ncards; i++)
		for (j = 0; j < ac[i].n; j++, rows++) {
			for (k = 0; k < ncol; k++) {
				if (cols[k] == AC_COST && s->price <= 0)
					continue;
				cell(s, ac[i].c, &ac[i].r[j], ac[i].cg[j],
				     cols[k], buf, sizeof(buf));
				printf("%s%-*s", k ? " " : "", width[k],
				       buf[0] ? buf : "N/A");
			}
			printf("\n");
		}
	if (!rows)
		printf("No accounted processes.\n");
}

void run_acct(struct smi *s)
{
	struct acct_card *ac = calloc(s->ncards, sizeof(*ac));
	unsigned int i;

	if (!ac) {
		err("out of memory");
		s->status = EX_FAIL;
		return;
	}
	read_cards(s, ac);
	if (opt.fmt == FMT_JSON)
		acct_json(s, ac);
	else if (opt.fmt == FMT_CSV)
		acct_csv(s, ac);
	else
		acct_text(s, ac);
	for (i = 0; i < s->ncards; i++) {
		free(ac[i].r);
		free(ac[i].cg);
	}
	free(ac);
}
