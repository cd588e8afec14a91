// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi --events: a stream of timestamped events of the selected cards,
 * one line (text, or a JSON object with --format json) each, until
 * interrupted.  Needs no privilege: everything comes from the control node,
 * sysfs and the kernel's uevents, which any user may read.
 *
 * Two sources:
 *
 * - the kernel's uevents of the cards' PCI devices (NETLINK_KOBJECT_UEVENT):
 *   gaudi.ko announces a reset (GAUDI_RESET=1, then 0 with the status
 *   after) and the HL_NOTIFIER_EVENT_* bits it posts to the holder
 *   (GAUDI_EVENTS=0x...: CS timeouts, RAZWI, page faults, engine and
 *   firmware errors) as they happen; the card's removal;
 * - a reading of each card every POLL_MS, compared with the one before:
 *   status, hard reset counter, the event counters (a hardware event id
 *   that counted up: ECC, fatal errors), the holder (gaudi.ko's owner
 *   query), the clock throttle reasons, each port's carrier.  This is also
 *   what catches resets and errors on a driver without our uevents
 *   (upstream's habanalabs).
 *
 * The uevent of an event comes first; the reading that sees the same thing
 * (a counter that moved) reports it again with "source": "poll" only where
 * the uevent did not already (resets are reported once each).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "smi.h"

#define POLL_MS		200

/* What one reading of a card saw. */
struct snap {
	char status[32];
	int64_t resets;
	uint32_t ev[NUM_EVENTS];
	bool ev_ok;
	int64_t throttle;
	bool held;
	int32_t pid;
	uint64_t opens;
	char comm[16];
	int64_t carrier[NIC_PORTS];
};

struct ecard {
	struct card *c;
	char devpath[PATH_MAX];	/* /devices/... of the PCI device */
	struct snap last;
	bool in_reset;		/* a reset uevent said so; the poll stays quiet */
	bool gone;
};

/* HL_NOTIFIER_EVENT_* bits by name. */
static const struct {
	uint64_t bit;
	const char *name;
} notifier[] = {
	{ HL_NOTIFIER_EVENT_TPC_ASSERT, "tpc_assert" },
	{ HL_NOTIFIER_EVENT_UNDEFINED_OPCODE, "undefined_opcode" },
	{ HL_NOTIFIER_EVENT_DEVICE_RESET, "device_reset" },
	{ HL_NOTIFIER_EVENT_CS_TIMEOUT, "cs_timeout" },
	{ HL_NOTIFIER_EVENT_DEVICE_UNAVAILABLE, "device_unavailable" },
	{ HL_NOTIFIER_EVENT_USER_ENGINE_ERR, "engine_error" },
	{ HL_NOTIFIER_EVENT_GENERAL_HW_ERR, "hw_error" },
	{ HL_NOTIFIER_EVENT_RAZWI, "razwi" },
	{ HL_NOTIFIER_EVENT_PAGE_FAULT, "page_fault" },
	{ HL_NOTIFIER_EVENT_CRITICL_HW_ERR, "critical_hw_error" },
	{ HL_NOTIFIER_EVENT_CRITICL_FW_ERR, "critical_fw_error" },
};

/* ---- output ---------------------------------------------------------------- */

/*
 * One event: @name, then "key", value pairs (a string value, or with a
 * key starting with '#' a number given as text), NULL-terminated.
 */
static void emit(const struct card *c, const char *source, const char *name,
		 ...)
{
	struct timespec ts;
	struct tm tm;
	char when[40];
	const char *k, *v;
	va_list ap;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	if (opt.fmt == FMT_JSON) {
		printf("{\"time\": \"%s.%03ldZ\", \"card\": %u, \"bus_id\": ",
		       when, ts.tv_nsec / 1000000, c->index);
		json_str(stdout, c->bus);
		printf(", \"event\": ");
		json_str(stdout, name);
		printf(", \"source\": \"%s\"", source);
	} else {
		printf("%s.%03ldZ card %u %s %s", when, ts.tv_nsec / 1000000,
		       c->index, c->bus, name);
	}
	va_start(ap, name);
	while ((k = va_arg(ap, const char *))) {
		bool num = k[0] == '#';

		v = va_arg(ap, const char *);
		if (num)
			k++;
		if (opt.fmt == FMT_JSON) {
			printf(", ");
			json_str(stdout, k);
			printf(": ");
			if (num)
				fputs(v, stdout);
			else
				json_str(stdout, v);
		} else {
			printf(" %s=%s", k, v);
		}
	}
	va_end(ap);
	printf(opt.fmt == FMT_JSON ? "}\n" : "\n");
	fflush(stdout);
}

/* ---- readings -------------------------------------------------------------- */

static void carrier_of(const struct card *c, unsigned int p, int64_t *out)
{
	char path[64];
	int fd;

	*out = NA;
	if (!c->ports[p].ifname[0])
		return;
	snprintf(path, sizeof(path), "/sys/class/net/%s", c->ports[p].ifname);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	*out = read_int_at(fd, "carrier");
	close(fd);
}

static void read_snap(struct ecard *e, struct snap *s)
{
	struct card *c = e->c;
	struct hl_info_clk_throttle thr;
	struct gaudi_owner o;
	unsigned int p;

	memset(s, 0, sizeof(*s));
	if (read_at(c->sysfd, "status", s->status, sizeof(s->status)))
		snprintf(s->status, sizeof(s->status), "gone");
	str_lower(s->status);
	s->resets = read_int_at(c->sysfd, "hard_reset_cnt");
	s->throttle = NA;
	if (c->dev) {
		s->ev_ok = !gaudi_info_hw_events(c->dev, true, s->ev,
						 NUM_EVENTS);
		if (!gaudi_info(c->dev, HL_INFO_CLK_THROTTLE_REASON, 0, &thr,
				sizeof(thr)))
			s->throttle = thr.clk_throttling_reason;
		if (c->ext && !gaudi_owner(c->dev, &o)) {
			s->held = o.state == GAUDI_OWNER_STATE_HELD;
			s->pid = o.pid;
			s->opens = o.open_counter;
			memcpy(s->comm, o.comm, sizeof(s->comm));
			s->comm[sizeof(s->comm) - 1] = '\0';
		}
	}
	for (p = 0; p < NIC_PORTS; p++)
		carrier_of(c, p, &s->carrier[p]);
}

/* The differences of a new reading from the last one, as events. */
static void compare(struct ecard *e, const struct snap *n)
{
	const struct snap *o = &e->last;
	const struct card *c = e->c;
	char a[32], b[32];
	unsigned int i;

	if (strcmp(o->status, n->status))
		emit(c, "poll", "status", "from", o->status, "to", n->status,
		     NULL);
	if (o->resets != NA && n->resets != NA && n->resets > o->resets &&
	    !e->in_reset) {
		snprintf(a, sizeof(a), "%lld", (long long)n->resets);
		emit(c, "poll", "reset", "#hard_resets", a, NULL);
	}
	if (o->ev_ok && n->ev_ok)
		for (i = 0; i < NUM_EVENTS; i++) {
			if (n->ev[i] <= o->ev[i])
				continue;
			snprintf(a, sizeof(a), "%u", i);
			snprintf(b, sizeof(b), "%u", n->ev[i] - o->ev[i]);
			emit(c, "poll", "hw_event", "#id", a, "class",
			     evc_names[ev_class(i)], "#count", b, NULL);
		}
	if (o->throttle != NA && n->throttle != NA &&
	    o->throttle != n->throttle) {
		static const struct { int64_t bit; const char *what; } t[] = {
			{ HL_CLK_THROTTLE_POWER, "power" },
			{ HL_CLK_THROTTLE_THERMAL, "thermal" },
		};

		for (i = 0; i < ARRAY_LEN(t); i++)
			if ((o->throttle ^ n->throttle) & t[i].bit)
				emit(c, "poll", n->throttle & t[i].bit ?
				     "throttle_start" : "throttle_end",
				     "reason", t[i].what, NULL);
	}
	if (n->opens != o->opens || n->held != o->held) {
		if (o->held && (!n->held || n->opens != o->opens)) {
			snprintf(a, sizeof(a), "%d", o->pid);
			emit(c, "poll", "released", "#pid", a, "command",
			     o->comm, NULL);
		}
		if (n->held) {
			snprintf(a, sizeof(a), "%d", n->pid);
			emit(c, "poll", "held", "#pid", a, "command", n->comm,
			     NULL);
		}
	}
	for (i = 0; i < NIC_PORTS; i++) {
		if (o->carrier[i] == n->carrier[i] || n->carrier[i] == NA ||
		    o->carrier[i] == NA)
			continue;
		snprintf(a, sizeof(a), "%u", i);
		emit(c, "poll", n->carrier[i] == 1 ? "link_up" : "link_down",
		     "#port", a, "interface", c->ports[i].ifname, NULL);
	}
}

/* ---- uevents ---------------------------------------------------------------- */

static int uevent_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The value of @key in the NUL-separated uevent @m (@n bytes), or NULL. */
static const char *uev(const char *m, size_t n, const char *key)
{
	size_t kl = strlen(key), i = 0;

	while (i < n) {
		size_t l = strnlen(m + i, n - i);

		if (l > kl && !strncmp(m + i, key, kl) && m[i + kl] == '=')
			return m + i + kl + 1;
		i += l + 1;
	}
	return NULL;
}

/* One uevent: events of the card whose PCI device it is. */
static void on_uevent(struct ecard *ec, unsigned int n, const char *m,
		      size_t len)
{
	const char *path = uev(m, len, "DEVPATH");
	const char *act = uev(m, len, "ACTION");
	const char *v;
	unsigned int i, k;

	if (!path || !act)
		return;
	for (i = 0; i < n; i++) {
		struct ecard *e = &ec[i];

		if (e->gone || strcmp(path, e->devpath))
			continue;
		if (!strcmp(act, "remove")) {
			emit(e->c, "uevent", "removed", NULL);
			e->gone = true;
			continue;
		}
		if (strcmp(act, "change"))
			continue;
		v = uev(m, len, "GAUDI_RESET");
		if (v && !strcmp(v, "1")) {
			e->in_reset = true;
			emit(e->c, "uevent", "reset", NULL);
		} else if (v) {
			const char *st = uev(m, len, "GAUDI_STATUS");

			emit(e->c, "uevent", "reset_done", "status",
			     st ? st : "unknown", NULL);
		}
		v = uev(m, len, "GAUDI_EVENTS");
		if (v) {
			uint64_t bits = strtoull(v, NULL, 16);

			for (k = 0; k < ARRAY_LEN(notifier); k++)
				if (bits & notifier[k].bit)
					emit(e->c, "uevent", notifier[k].name,
					     NULL);
		}
	}
}

static void read_uevents(int fd, struct ecard *ec, unsigned int n)
{
	char buf[8192];
	ssize_t len;

	while ((len = recv(fd, buf, sizeof(buf) - 1, 0)) > 0) {
		buf[len] = '\0';
		/* "ACTION@DEVPATH" then KEY=VALUE strings */
		on_uevent(ec, n, buf, (size_t)len);
	}
}

/* ---- the loop ---------------------------------------------------------------- */

void run_events(struct smi *s)
{
	struct ecard *ec = calloc(s->ncards, sizeof(*ec));
	unsigned int i, n = 0;
	struct snap now;
	int fd = uevent_socket();

	if (!ec) {
		err("out of memory");
		s->status = EX_FAIL;
		return;
	}
	if (fd < 0)
		err("no kernel uevents (%s): resets and errors are seen every %d ms only",
		    strerror(errno), POLL_MS);
	for (i = 0; i < s->ncards; i++) {
		struct ecard *e;
		char real[PATH_MAX];

		if (!s->sel[i])
			continue;
		e = &ec[n++];
		e->c = &s->cards[i];
		if (realpath(gaudi_card_syspath(e->c->gc), real) &&
		    !strncmp(real, "/sys", 4))
			snprintf(e->devpath, sizeof(e->devpath), "%s",
				 real + 4);
		read_snap(e, &e->last);
	}
	if (opt.fmt != FMT_JSON) {
		printf("# watching %u card%s (uevents%s, a reading every %d ms); interrupt to stop\n",
		       n, n == 1 ? "" : "s", fd < 0 ? " unavailable" : "",
		       POLL_MS);
		fflush(stdout);
	}
	while (!smi_stopped()) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (fd >= 0 && poll(&pfd, 1, POLL_MS) > 0)
			read_uevents(fd, ec, n);
		else if (fd < 0)
			usleep(POLL_MS * 1000);
		for (i = 0; i < n; i++) {
			struct ecard *e = &ec[i];

			if (e->gone)
				continue;
			read_snap(e, &now);
			compare(e, &now);
			if (!strcmp(now.status, "operational"))
				e->in_reset = false;
			e->last = now;
		}
	}
	if (fd >= 0)
		close(fd);
	free(ec);
}
