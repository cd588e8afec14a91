// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libgaudi: discovery (cards from accel-class nodes), kernel module state,
 * opening and closing devices.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/gaudi_accel.h>

#include "gaudi_int.h"

void gaudi__strcpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (!len)
		return;
	n = src ? strnlen(src, len - 1) : 0;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- discovery ---------------------------------------------------------- */

/* "accel12" -> 12 for @prefix "accel"; -1 when @name is not prefix+digits. */
static int node_index(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p;
	long v = 0;

	if (strncmp(name, prefix, n) || !name[n])
		return -1;
	for (p = name + n; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		v = v * 10 + (*p - '0');
		if (v > 1000000)
			return -1;
	}
	return (int)v;
}

static struct gaudi_card *card_get(struct gaudi_card_list *l,
				   const struct gaudi_sys_node *n)
{
	struct gaudi_card *c;
	unsigned int i;

	for (i = 0; i < l->count; i++)
		if (!strcmp(l->cards[i].syspath, n->pci_syspath))
			return &l->cards[i];
	if (l->count == l->cap) {
		unsigned int cap = l->cap ? 2 * l->cap : 8;

		c = realloc(l->cards, cap * sizeof(*c));
		if (!c)
			return NULL;
		l->cards = c;
		l->cap = cap;
	}
	c = &l->cards[l->count++];
	memset(c, 0, sizeof(*c));
	gaudi__strcpy(c->syspath, n->pci_syspath, sizeof(c->syspath));
	gaudi__strcpy(c->pci_slot, n->pci_slot, sizeof(c->pci_slot));
	gaudi__strcpy(c->driver, n->driver, sizeof(c->driver));
	c->accel_index = -1;
	c->control_index = -1;
	c->module_id = n->module_id;
	return c;
}

/* Control nodes without a PCI parent, paired after the enumeration. */
#define MAX_VIRTUAL	64

struct scan {
	struct gaudi_card_list *l;
	unsigned int n_virt;
	struct {
		int index;
		char path[GAUDI_PATH_LEN];
	} virt[MAX_VIRTUAL];
};

static void node_path(char *path, const struct gaudi_sys_node *n)
{
	if (n->devnode)
		gaudi__strcpy(path, n->devnode, GAUDI_PATH_LEN);
	else
		snprintf(path, GAUDI_PATH_LEN, "/dev/accel/%s", n->sysname);
}

static int scan_node(void *arg, const struct gaudi_sys_node *n)
{
	struct scan *sc = arg;
	struct gaudi_card *c;
	int compute, control;

	if (!n->sysname)
		return 0;
	compute = node_index(n->sysname, "accel");
	control = node_index(n->sysname, "accel_controlD");
	if (compute < 0 && control < 0)
		return 0;
	/* upstream's control nodes are virtual devices */
	if (control >= 0 && !n->pci_syspath) {
		if (sc->n_virt < MAX_VIRTUAL) {
			sc->virt[sc->n_virt].index = control;
			node_path(sc->virt[sc->n_virt].path, n);
			sc->n_virt++;
		}
		return 0;
	}
	if (!n->pci_syspath || !n->pci_slot ||
	    n->vendor != GAUDI_PCI_VENDOR || n->device != GAUDI_PCI_DEVICE)
		return 0;
	c = card_get(sc->l, n);
	if (!c)
		return -ENOMEM;
	if (compute >= 0) {
		c->accel_index = compute;
		node_path(c->compute, n);
	} else {
		c->control_index = control;
		node_path(c->control, n);
	}
	return 0;
}

/*
 * A virtual control node names no card: it belongs to the card whose
 * module id it reports.  Nodes that cannot be opened (upstream creates them
 * 0600) or match no card, or more than one, stay unpaired.
 */
static void pair_virtual(const struct gaudi_sys *sys, struct scan *sc)
{
	struct gaudi_card_list *l = sc->l;
	struct gaudi_card *match;
	unsigned int i, k;
	int mid;

	for (i = 0; i < sc->n_virt; i++) {
		mid = sys->control_module_id(sys, sc->virt[i].path);
		if (mid < 0)
			continue;
		match = NULL;
		for (k = 0; k < l->count; k++) {
			if (l->cards[k].module_id != mid)
				continue;
			if (match) {
				match = NULL;
				break;
			}
			match = &l->cards[k];
		}
		if (match && match->control_index < 0) {
			match->control_index = sc->virt[i].index;
			gaudi__strcpy(match->control, sc->virt[i].path,
				      sizeof(match->control));
		}
	}
}

static int card_cmp(const void *a, const void *b)
{
	const struct gaudi_card *x = a, *y = b;

	return strcmp(x->pci_slot, y->pci_slot);
}

int gaudi__cards_scan_sys(const struct gaudi_sys *sys,
			  struct gaudi_card_list **out)
{
	struct gaudi_card_list *l;
	struct scan *sc;
	int ret;

	if (!out)
		return -EINVAL;
	sc = calloc(1, sizeof(*sc));
	l = calloc(1, sizeof(*l));
	if (!sc || !l) {
		free(sc);
		free(l);
		return -ENOMEM;
	}
	sc->l = l;
	ret = sys->enumerate(sys, scan_node, sc);
	if (ret < 0) {
		free(sc);
		gaudi_cards_free(l);
		return ret;
	}
	pair_virtual(sys, sc);
	free(sc);
	if (l->count)
		qsort(l->cards, l->count, sizeof(*l->cards), card_cmp);
	*out = l;
	return (int)l->count;
}

GAUDI_EXPORT int gaudi_cards_scan(struct gaudi_card_list **out)
{
	return gaudi__cards_scan_sys(&gaudi_sys_default, out);
}

GAUDI_EXPORT void gaudi_cards_free(struct gaudi_card_list *list)
{
	if (!list)
		return;
	free(list->cards);
	free(list);
}

GAUDI_EXPORT unsigned int gaudi_cards_count(const struct gaudi_card_list *list)
{
	return list ? list->count : 0;
}

GAUDI_EXPORT const struct gaudi_card *
gaudi_cards_get(const struct gaudi_card_list *list, unsigned int i)
{
	return list && i < list->count ? &list->cards[i] : NULL;
}

GAUDI_EXPORT const char *gaudi_card_pci_bus_id(const struct gaudi_card *card)
{
	return card->pci_slot;
}

GAUDI_EXPORT int gaudi_card_accel_index(const struct gaudi_card *card)
{
	return card->accel_index;
}

GAUDI_EXPORT int gaudi_card_control_index(const struct gaudi_card *card)
{
	return card->control_index;
}

GAUDI_EXPORT const char *gaudi_card_compute_node(const struct gaudi_card *card)
{
	return card->accel_index >= 0 ? card->compute : NULL;
}

GAUDI_EXPORT const char *gaudi_card_control_node(const struct gaudi_card *card)
{
	return card->control_index >= 0 ? card->control : NULL;
}

GAUDI_EXPORT const char *gaudi_card_driver(const struct gaudi_card *card)
{
	return card->driver;
}

GAUDI_EXPORT int gaudi_card_module_id(const struct gaudi_card *card)
{
	return card->module_id;
}

GAUDI_EXPORT const char *gaudi_card_syspath(const struct gaudi_card *card)
{
	return card->syspath;
}

/* Hex digits of @s up to @stop, at most @max of them; NULL on error. */
static const char *hex_field(const char *s, char stop, unsigned int max,
			     unsigned int *out)
{
	unsigned int v = 0, n = 0;

	for (; *s && *s != stop; s++, n++) {
		if (!isxdigit((unsigned char)*s) || n == max)
			return NULL;
		v = v * 16 + (isdigit((unsigned char)*s) ? *s - '0' :
			      tolower((unsigned char)*s) - 'a' + 10);
	}
	if (!n || *s != stop)
		return NULL;
	*out = v;
	return stop ? s + 1 : s;
}

int gaudi__parse_bus_id(const char *in, char *out, size_t len)
{
	unsigned int dom = 0, bus, dev, fn;
	const char *p = in;

	if (!in)
		return -EINVAL;
	/* "DDDD:BB:DD.F" has two colons, "BB:DD.F" one. */
	if (strchr(in, ':') != strrchr(in, ':')) {
		p = hex_field(p, ':', 4, &dom);
		if (!p)
			return -EINVAL;
	}
	p = hex_field(p, ':', 2, &bus);
	if (p)
		p = hex_field(p, '.', 2, &dev);
	if (p)
		p = hex_field(p, '\0', 1, &fn);
	if (!p || dev > 0x1F || fn > 7)
		return -EINVAL;
	snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return 0;
}

/* ---- kernel module ------------------------------------------------------ */

int gaudi__driver_loaded_sys(const struct gaudi_sys *sys, const char *module)
{
	if (!module || !*module)
		return -EINVAL;
	return sys->module_loaded(sys, module);
}


GAUDI_EXPORT int gaudi_driver_loaded(const char *module)
{
	return gaudi__driver_loaded_sys(&gaudi_sys_default, module);
}

int gaudi__check_driver_sys(const struct gaudi_sys *sys)
{
	struct gaudi_card_list *l;
	int n;

	n = gaudi__cards_scan_sys(sys, &l);
	if (n < 0)
		return n;
	gaudi_cards_free(l);
	if (n > 0)
		return 0;
	n = sys->pci_count(sys);
	if (n < 0)
		return n;
	if (!n)
		return -ENODEV;
	if (sys->module_loaded(sys, "gaudi") > 0 ||
	    sys->module_loaded(sys, "habanalabs") > 0)
		return -ENXIO;
	return -ENOPKG;
}

GAUDI_EXPORT int gaudi_check_driver(void)
{
	return gaudi__check_driver_sys(&gaudi_sys_default);
}

/* ---- open / close ------------------------------------------------------- */

static enum gaudi_driver_kind driver_kind(const char *name)
{
	if (!strcmp(name, "gaudi"))
		return GAUDI_DRIVER_GAUDI;
	if (!strcmp(name, "habanalabs"))
		return GAUDI_DRIVER_HABANALABS;
	return GAUDI_DRIVER_UNKNOWN;
}

static void query_caps(struct gaudi_dev *dev)
{
	struct drm_gaudi_query_caps q;
	int ret;

	memset(&q, 0, sizeof(q));
	ret = dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_GAUDI_QUERY_CAPS,
			      &q);
	if (ret) {
		/* upstream: EINVAL (compute node), ENOTTY (control node) */
		dev->caps_rc = ret == -EINVAL || ret == -ENOTTY ?
			       -EOPNOTSUPP : ret;
		return;
	}
	dev->caps_rc = 0;
	dev->caps.abi_major = q.abi_major;
	dev->caps.abi_minor = q.abi_minor;
	dev->caps.caps = q.caps;
	dev->caps.info_ops = q.info_ops;
}

int gaudi__open_card_sys(const struct gaudi_sys *sys,
			 const struct gaudi_card *card, unsigned int flags,
			 struct gaudi_dev **out)
{
	bool control = flags & GAUDI_OPEN_CONTROL;
	struct gaudi_dev *dev;
	const char *path;
	char name[GAUDI_NAME_LEN];
	int fd;

	if (!card || !out || (flags & ~GAUDI_OPEN_CONTROL))
		return -EINVAL;
	path = control ? gaudi_card_control_node(card) :
			 gaudi_card_compute_node(card);
	if (!path)
		return -ENOENT;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	fd = sys->open(sys, path, O_RDWR);
	/* Monitoring needs no write access: a read-only node is enough. */
	if (fd == -EACCES && control)
		fd = sys->open(sys, path, O_RDONLY);
	if (fd < 0) {
		free(dev);
		return fd;
	}
	dev->sys = sys;
	dev->fd = fd;
	dev->control = control;
	gaudi__strcpy(dev->pci_slot, card->pci_slot, sizeof(dev->pci_slot));
	gaudi__strcpy(dev->driver, card->driver, sizeof(dev->driver));
	/* The control node is no DRM minor: only sysfs knows its driver. */
	if (!control && !sys->drm_version(sys, fd, name, sizeof(name)) &&
	    name[0])
		gaudi__strcpy(dev->driver, name, sizeof(dev->driver));
	dev->kind = driver_kind(dev->driver);
	query_caps(dev);
	*out = dev;
	return 0;
}

/* Opens the first card @match accepts; @key is its argument. */
static int open_match(const struct gaudi_sys *sys,
		      bool (*match)(const struct gaudi_card *c,
				    const void *key),
		      const void *key, unsigned int flags,
		      struct gaudi_dev **out)
{
	struct gaudi_card_list *l;
	unsigned int i;
	int n, ret = -ENOENT;

	if (!out || (flags & ~GAUDI_OPEN_CONTROL))
		return -EINVAL;
	n = gaudi__cards_scan_sys(sys, &l);
	if (n < 0)
		return n;
	for (i = 0; i < l->count; i++) {
		if (match(&l->cards[i], key)) {
			ret = gaudi__open_card_sys(sys, &l->cards[i], flags,
						   out);
			break;
		}
	}
	gaudi_cards_free(l);
	if (!n) {
		n = gaudi__check_driver_sys(sys);
		if (n < 0)
			ret = n;
	}
	return ret;
}

static bool match_index(const struct gaudi_card *c, const void *key)
{
	return c->accel_index >= 0 &&
	       (unsigned int)c->accel_index == *(const unsigned int *)key;
}

static bool match_pci(const struct gaudi_card *c, const void *key)
{
	char norm[GAUDI_NAME_LEN];

	return !gaudi__parse_bus_id(c->pci_slot, norm, sizeof(norm)) &&
	       !strcmp(norm, key);
}

static bool match_module(const struct gaudi_card *c, const void *key)
{
	return c->module_id >= 0 &&
	       (unsigned int)c->module_id == *(const unsigned int *)key;
}

int gaudi__open_sys(const struct gaudi_sys *sys, unsigned int index,
		    unsigned int flags, struct gaudi_dev **out)
{
	return open_match(sys, match_index, &index, flags, out);
}

int gaudi__open_pci_sys(const struct gaudi_sys *sys, const char *bus_id,
			unsigned int flags, struct gaudi_dev **out)
{
	char norm[GAUDI_NAME_LEN];

	if (gaudi__parse_bus_id(bus_id, norm, sizeof(norm)))
		return -EINVAL;
	return open_match(sys, match_pci, norm, flags, out);
}

int gaudi__open_module_sys(const struct gaudi_sys *sys, unsigned int module_id,
			   unsigned int flags, struct gaudi_dev **out)
{
	return open_match(sys, match_module, &module_id, flags, out);
}

GAUDI_EXPORT int gaudi_open(unsigned int index, unsigned int flags,
			    struct gaudi_dev **out)
{
	return gaudi__open_sys(&gaudi_sys_default, index, flags, out);
}

GAUDI_EXPORT int gaudi_open_pci(const char *bus_id, unsigned int flags,
				struct gaudi_dev **out)
{
	return gaudi__open_pci_sys(&gaudi_sys_default, bus_id, flags, out);
}

GAUDI_EXPORT int gaudi_open_module(unsigned int module_id, unsigned int flags,
				   struct gaudi_dev **out)
{
	return gaudi__open_module_sys(&gaudi_sys_default, module_id, flags,
				      out);
}

GAUDI_EXPORT int gaudi_open_card(const struct gaudi_card *card,
				 unsigned int flags, struct gaudi_dev **out)
{
	return gaudi__open_card_sys(&gaudi_sys_default, card, flags, out);
}

GAUDI_EXPORT void gaudi_close(struct gaudi_dev *dev)
{
	if (!dev)
		return;
	dev->sys->close(dev->sys, dev->fd);
	free(dev);
}

GAUDI_EXPORT int gaudi_fd(const struct gaudi_dev *dev)
{
	return dev->fd;
}

GAUDI_EXPORT bool gaudi_is_control(const struct gaudi_dev *dev)
{
	return dev->control;
}

GAUDI_EXPORT enum gaudi_driver_kind gaudi_driver(const struct gaudi_dev *dev)
{
	return dev->kind;
}

GAUDI_EXPORT const char *gaudi_driver_name(const struct gaudi_dev *dev)
{
	return dev->driver;
}

GAUDI_EXPORT const char *gaudi_pci_bus_id(const struct gaudi_dev *dev)
{
	return dev->pci_slot;
}

/* ---- capabilities, owner and accounting --------------------------------- */

GAUDI_EXPORT int gaudi_query_caps(struct gaudi_dev *dev,
				  struct gaudi_caps *caps)
{
	if (!dev || !caps)
		return -EINVAL;
	if (dev->caps_rc)
		return dev->caps_rc;
	*caps = dev->caps;
	return 0;
}

GAUDI_EXPORT int gaudi_owner(struct gaudi_dev *dev, struct gaudi_owner *owner)
{
	struct drm_gaudi_owner o;
	int ret;

	if (!dev || !owner)
		return -EINVAL;
	if (dev->caps_rc)
		return dev->caps_rc;
	if (!(dev->caps.caps & GAUDI_CAP_OWNER))
		return -EOPNOTSUPP;
	memset(&o, 0, sizeof(o));
	ret = dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_GAUDI_OWNER, &o);
	if (ret)
		return ret;
	memset(owner, 0, sizeof(*owner));
	owner->state = o.state;
	owner->pid = o.pid;
	owner->uid = o.uid;
	memcpy(owner->comm, o.comm, sizeof(owner->comm));
	owner->comm[sizeof(owner->comm) - 1] = '\0';
	owner->open_time_ns = o.open_time_ns;
	owner->held_ns = o.held_ns;
	owner->open_counter = o.open_counter;
	return 0;
}

/* Records asked of the driver per call on the stack, at most. */
#define ACCT_BATCH	16

_Static_assert(GAUDI_ACCT_CGROUP_MAX == GAUDI_ACCT_CGROUP_LEN,
	       "the cgroup room of the library is the driver's");

/* gaudi_accounting(), and each record's cgroup into @cgroups if not NULL. */
static int accounting(struct gaudi_dev *dev, struct gaudi_acct *recs,
		      char (*cgroups)[GAUDI_ACCT_CGROUP_MAX], unsigned int n,
		      unsigned int *max_kept)
{
	struct drm_gaudi_acct_record k[ACCT_BATCH], *buf = k;
	struct drm_gaudi_accounting a;
	unsigned int i, c, want, skip = 0;
	int ret;

	if (!dev || (n && !recs))
		return -EINVAL;
	if (dev->caps_rc)
		return dev->caps_rc;
	if (!(dev->caps.caps & GAUDI_CAP_ACCOUNTING))
		return -EOPNOTSUPP;
	/*
	 * How many there are first; then the newest min(n, that), in one
	 * call when they fit the batch, else all of them in a buffer.
	 */
	memset(&a, 0, sizeof(a));
	ret = dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_GAUDI_ACCOUNTING, &a);
	if (ret)
		return ret;
	if (max_kept)
		*max_kept = a.max_kept;
	if (!n)
		return (int)a.available;

	want = a.available + 1;	/* one may start meanwhile */

	if (want > ACCT_BATCH) {
		buf = calloc(want, sizeof(*buf));
		if (!buf)
			return -ENOMEM;
	} else {
		want = ACCT_BATCH;
	}
	memset(&a, 0, sizeof(a));
	a.records = (uintptr_t)buf;
	a.count = want;
	a.record_size = sizeof(*buf);
	ret = dev->sys->ioctl(dev->sys, dev->fd, DRM_IOCTL_GAUDI_ACCOUNTING, &a);
	if (ret)
		goto out;
	c = a.count;
	if (c > n)
		skip = c - n;
	for (i = 0; i + skip < c; i++) {
		const struct drm_gaudi_acct_record *r = &buf[i + skip];
		struct gaudi_acct *o = &recs[i];
		unsigned int e;

		memset(o, 0, sizeof(*o));
		o->id = r->id;
		o->pid = r->pid;
		o->uid = r->uid;
		memcpy(o->comm, r->comm, sizeof(o->comm));
		o->comm[sizeof(o->comm) - 1] = '\0';
		o->flags = r->flags;
		o->start_time_ns = r->start_time_ns;
		o->wall_ns = r->wall_ns;
		for (e = 0; e < GAUDI_CLASS_NUM; e++)
			o->busy_ns[e] = r->busy_ns[e];
		o->cs_submitted = r->cs_submitted;
		o->peak_hbm_bytes = r->peak_hbm_bytes;
		o->peak_host_bytes = r->peak_host_bytes;
		o->energy_uj = r->energy_uj;
		if (cgroups) {
			/* empty from a driver before ABI 1.5 (zeroed) */
			memcpy(cgroups[i], r->cgroup, GAUDI_ACCT_CGROUP_MAX);
			cgroups[i][GAUDI_ACCT_CGROUP_MAX - 1] = '\0';
		}
	}
	ret = (int)i;
out:
	if (buf != k)
		free(buf);
	return ret;
}

GAUDI_EXPORT int gaudi_accounting(struct gaudi_dev *dev, struct gaudi_acct *recs,
				  unsigned int n, unsigned int *max_kept)
{
	return accounting(dev, recs, NULL, n, max_kept);
}

GAUDI_EXPORT int gaudi_accounting_cgroups(struct gaudi_dev *dev,
					  struct gaudi_acct *recs,
					  char (*cgroups)[GAUDI_ACCT_CGROUP_MAX],
					  unsigned int n, unsigned int *max_kept)
{
	if (n && !cgroups)
		return -EINVAL;
	return accounting(dev, recs, cgroups, n, max_kept);
}
