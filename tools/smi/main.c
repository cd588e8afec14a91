// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi - system management interface for Habana Gaudi 1 cards.
 *
 * Reads each card through libgaudi (discovery, the control node's INFO
 * ioctl, gaudi.ko's owner query) and sysfs (status, firmware versions, power
 * cap, reset counters, hwmon), and the processes holding cards from
 * /proc/<pid>/fd and DRM fdinfo.  Works on gaudi.ko and on upstream's
 * habanalabs; see gaudi-smi(1) for the options, the fields and the exit
 * codes, and smi.h for the parts of the source.
 *
 * This file: the table of modes (each view or action, what it reads and
 * how it prints), discovery, and the loop that collects and prints.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smi.h"

static void run_report(struct smi *s)
{
	if (opt.fmt == FMT_JSON)
		report_json(s);
	else
		report_text(s);
}

static void run_query(struct smi *s)
{
	if (opt.fmt == FMT_JSON)
		query_json(s);
	else
		query_csv(s);
}

static void run_health(struct smi *s)
{
	if (opt.fmt == FMT_JSON)
		health_json(s);
	else
		health_text(s);
	s->status = health_exit(s);
}

/*
 * Each view or action: the option that picks it, what collect() reads for
 * it (-Q adds its fields' needs), its MF_* flags and what prints it.
 */
const struct mode modes[M_NUM] = {
	[M_TABLE] = { 0, N_SYSFS | N_HWMON | N_HWIP | N_MEM | N_UTIL |
			 N_POWER | N_FW | N_OWNER,
		      MF_FORMAT | MF_PROCS, run_table },
	[M_LIST] = { 'L', N_HWIP, MF_NOSIGNAL, run_list },
	[M_REPORT] = { 'q', N_ALL, MF_FORMAT | MF_PROCS, run_report },
	[M_QUERY] = { 'Q', 0, MF_FORMAT | MF_CSV | MF_ROWS, run_query },
	[M_FW] = { O_FW, N_FW, MF_NOSIGNAL, run_fw },
	[M_HEALTH] = { O_HEALTH, N_ALL, MF_FORMAT, run_health },
	[M_PROM] = { O_PROM, N_ALL, 0, run_prometheus },
	[M_NIC] = { 'n', N_NIC | N_HWIP, MF_FORMAT | MF_CSV, run_nic },
	[M_ACCT] = { 'a', N_OWNER, MF_FORMAT | MF_CSV | MF_ROWS, run_acct },
	[M_RESET] = { 'r', 0, MF_ACTION, run_reset },
	[M_POWER] = { 'p', 0, MF_ACTION, run_power },
	[M_CDI] = { O_CDI, 0, MF_NOSIGNAL, run_cdi },
	[M_EVENTS] = { O_EVENTS, N_NIC | N_HWIP | N_OWNER, MF_FORMAT,
		       run_events },
	/* hl-smi's (compat.c): no option of gaudi-smi's picks them */
	[M_HL_QUERY] = { 0, N_ALL, 0, run_hl_query },
	[M_HL_CSV] = { 0, N_SYSFS | N_IDENT, MF_ROWS, run_hl_csv },
	[M_HL_NIC] = { 0, N_NIC | N_HWIP, MF_ROWS, run_hl_nic },
	[M_HL_TOPO] = { 0, N_IDENT | N_HWIP | N_NIC, MF_NOSIGNAL,
			run_hl_topo },
	[M_HL_ROWS] = { 0, N_IDENT | N_ROWS, MF_ROWS, run_hl_rows },
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

bool smi_stopped(void)
{
	return stop;
}

static const char *driver_hint(int ret)
{
	switch (ret) {
	case -ENODEV:
		return "no Gaudi card (PCI 1da3:1000) on this host";
	case -ENOPKG:
		return "Gaudi cards are present but no driver is loaded (modprobe gaudi, or modprobe habanalabs)";
	case -ENXIO:
		return "a driver is loaded but no card has a device node (probe failed or still running: see dmesg)";
	default:
		return gaudi_strerror(ret);
	}
}

/* The cards libgaudi finds into s->cards; -1 to go on, else the exit status. */
static int discover(struct smi *s, struct gaudi_card_list **list)
{
	unsigned int i;
	int ret;

	ret = gaudi_check_driver();
	if (ret < 0) {
		err("%s", driver_hint(ret));
		return EX_NODEV;
	}
	ret = gaudi_cards_scan(list);
	if (ret < 0) {
		err("cannot list the cards: %s", gaudi_strerror(ret));
		return EX_FAIL;
	}
	s->ncards = (unsigned int)ret;
	if (!s->ncards) {
		err("no Gaudi card has a device node");
		return EX_NODEV;
	}
	s->cards = calloc(s->ncards, sizeof(*s->cards));
	s->sel = calloc(s->ncards, sizeof(*s->sel));
	if (!s->cards || !s->sel) {
		err("out of memory");
		return EX_FAIL;
	}
	for (i = 0; i < s->ncards; i++) {
		struct card *c = &s->cards[i];

		c->index = i;
		c->gc = gaudi_cards_get(*list, i);
		c->sysfd = -1;
		snprintf(c->bus, sizeof(c->bus), "%s",
			 gaudi_card_pci_bus_id(c->gc));
		c->driver = gaudi_card_driver(c->gc);
		/* for the board map, also of cards not selected */
		c->module_id = gaudi_card_module_id(c->gc);
	}
	return -1;
}

/* Read the selected cards for one repetition of the view. */
static void collect_all(struct smi *s, unsigned int need, bool *warned)
{
	unsigned int i;

	for (i = 0; i < s->ncards; i++) {
		struct card *c = &s->cards[i];

		if (!s->sel[i])
			continue;
		if (c->sysfd < 0)
			c->sysfd = open(gaudi_card_syspath(c->gc),
					O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (c->sysfd < 0) {
			err("card %u (%s): %s: %s", i, c->bus,
			    gaudi_card_syspath(c->gc), strerror(errno));
			s->status = EX_FAIL;
			s->sel[i] = 0;
			continue;
		}
		if (modes[s->mode].flags & MF_ACTION)
			continue;
		if (!c->dev && (need & N_CTRL))
			card_open_control(c, warned);
		card_clear(c);
		collect(c, need);
		judge(c);
	}
	if (need & N_NIC)
		nic_apply_map(s->cards, s->ncards);
	if (s->drvsum[0])
		return;
	for (i = 0; i < s->ncards; i++) {
		if (!s->sel[i])
			continue;
		snprintf(s->drvsum, sizeof(s->drvsum), "%s%s",
			 s->cards[i].driver[0] ? s->cards[i].driver :
			 "unknown", s->cards[i].ext ?
			 " (gaudi extensions)" : "");
		break;
	}
}

/* The view, every -l seconds until -c repetitions or a signal. */
static void run(struct smi *s)
{
	const struct mode *m = &modes[s->mode];
	unsigned int need = m->need | fields_need(s->q, s->nq);
	bool warned = false;

	/* -Q power.draw falls back on hwmon's power1_input. */
	if (need & N_POWER)
		need |= N_HWMON;
	if (!(m->flags & MF_NOSIGNAL)) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
	}
	for (long iter = 0; ; iter++) {
		collect_all(s, need, &warned);
		/* -d without "processes" leaves them out of -q */
		if ((m->flags & MF_PROCS) && s->procs_too)
			scan_procs(&s->procs, s->cards, s->ncards);
		m->run(s);
		fflush(stdout);
		if (!s->loop || stop || (s->count && iter + 1 >= s->count))
			break;
		for (long t = 0; t < s->loop * 10 && !stop; t++)
			usleep(100000);
		if (stop)
			break;
		if (opt.fmt == FMT_TEXT && !(m->flags & MF_ROWS))
			printf("\n");
	}
}

int main(int argc, char **argv)
{
	struct gaudi_card_list *list = NULL;
	struct smi s = { .status = EX_OK };
	unsigned int i;
	int ret;

	fields_init();
	setlocale(LC_ALL, "");
	ret = parse_args(&s, argc, argv);
	if (ret >= 0)
		return ret;
	ret = discover(&s, &list);
	if (ret < 0)
		ret = select_cards(&s);
	if (!ret) {
		run(&s);
		ret = s.status;
	}
	for (i = 0; i < s.ncards && s.cards; i++) {
		gaudi_close(s.cards[i].dev);
		if (s.cards[i].sysfd >= 0)
			close(s.cards[i].sysfd);
	}
	free(s.procs.v);
	free(s.cards);
	free(s.sel);
	gaudi_cards_free(list);
	return ret;
}
