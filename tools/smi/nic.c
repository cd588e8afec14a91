// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: the NIC ports of a card.  gaudi.ko names the enabled ports in
 * HW_IP_INFO (nic_ports_mask, collect.c) and offers them on the auxiliary
 * device gaudi.en.<minor>, a child of the card's PCI device; gaudi_en.ko
 * registers one netdev per port below it (<aux>/net/<if>, dev_port the port
 * number).  Everything here reads relative to the PCI device's sysfs folder
 * (a directory descriptor), so that a test can hand it a fake tree.
 *
 * A netdev moved to another network namespace leaves this namespace's
 * sysfs: its port is still listed (from the mask), without interface.
 *
 * The RoCE counters of a port are gaudi_en's ethtool statistics roce_*
 * (SIOCETHTOOL on any socket: ETHTOOL_GSTRINGS and GSTATS need no
 * privilege), read like "ethtool -S": a user of the control node sees
 * them without holding the card.
 *
 * The peer of an internal port is the board's wiring, which the NIC cannot
 * tell: dl1_peer() is the DL1 map (Documentation/emulator/nic.rst, "The
 * DL1 wiring"), used only when the cards look like a DL1 host.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "smi.h"

#define DL1_CARDS		8
#define DL1_INTERNAL_PORTS	7	/* ports 0..6; 7..9 scale-out */

/*
 * The DL1 board map (Documentation/emulator/nic.rst, "The DL1 wiring"; the
 * model's gaudi-vm --nic dl1 wires the same): on the card with module id
 * @module, internal port p leads to module j = p if p < module, else p + 1,
 * and arrives there on port module if module < j, else module - 1.
 * Returns j and sets *@peer_port, or -1 for a scale-out port or a bad
 * argument.
 */
int dl1_peer(int module, int port, int *peer_port)
{
	int j;

	if (module < 0 || module >= DL1_CARDS || port < 0 ||
	    port >= DL1_INTERNAL_PORTS)
		return -1;
	j = port < module ? port : port + 1;
	*peer_port = module < j ? module : module - 1;
	return j;
}

/*
 * Whether the cards are a DL1-style host: at most eight, each with a module
 * id 0..7 of its own.  (Server type is not a test: gaudi.ko reports it
 * unknown.)
 */
bool dl1_host(const struct card *cards, unsigned int ncards)
{
	unsigned int i, seen = 0;

	if (!ncards || ncards > DL1_CARDS)
		return false;
	for (i = 0; i < ncards; i++) {
		int64_t m = cards[i].module_id;

		if (m < 0 || m >= DL1_CARDS || (seen & (1U << m)))
			return false;
		seen |= 1U << m;
	}
	return true;
}

/* The board map's peers into every card's ports (or none). */
void nic_apply_map(struct card *cards, unsigned int ncards)
{
	bool dl1 = dl1_host(cards, ncards);
	unsigned int i, p;

	for (i = 0; i < ncards; i++) {
		struct card *c = &cards[i];

		c->nic_map = dl1;
		for (p = 0; p < NIC_PORTS; p++) {
			struct nic_port *np = &c->ports[p];

			np->peer_module = np->peer_port = -1;
			if (dl1 && np->enabled && !np->external)
				np->peer_module = dl1_peer((int)c->module_id,
							   (int)p,
							   &np->peer_port);
		}
	}
}

/* The index of the card with module id @module, or -1. */
int card_of_module(const struct smi *s, int module)
{
	unsigned int i;

	for (i = 0; i < s->ncards; i++)
		if (s->cards[i].module_id == module)
			return (int)i;
	return -1;
}

void nic_clear(struct card *c)
{
	unsigned int p;

	c->nic[0] = '\0';
	c->nic_mask = c->nic_ext_mask = NA;
	c->nic_aux = c->nic_bound = c->nic_map = false;
	c->nic_mask_s[0] = c->nic_ext_s[0] = '\0';
	for (p = 0; p < NIC_PORTS; p++) {
		struct nic_port *np = &c->ports[p];

		memset(np, 0, sizeof(*np));
		np->carrier = np->speed = np->mtu = NA;
		np->rx_frames = np->tx_frames = NA;
		np->rx_bytes = np->tx_bytes = NA;
		np->rx_dropped = np->tx_dropped = NA;
		np->rx_errors = np->tx_errors = NA;
		np->roce_tx_pkts = np->roce_rx_pkts = NA;
		np->roce_retransmits = np->roce_qp_errors = NA;
		np->roce_acks_tx = np->roce_naks_tx = NA;
		np->roce_acks_rx = np->roce_naks_rx = NA;
		np->peer_module = np->peer_port = -1;
	}
}

static void nic_add_name(struct card *c, const char *name)
{
	size_t len = strlen(c->nic), n = strlen(name);

	if (len + n + 2 > sizeof(c->nic))
		return;
	if (len)
		c->nic[len++] = ' ';
	memcpy(c->nic + len, name, n + 1);
}

/* SIOCETHTOOL on @ifname with @data; 0 or a negative errno. */
static int ethtool_ioctl(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strnlen(ifname, IFNAMSIZ - 1));
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

int nic_ethtool_stats_ioctl(const char *ifname, nic_stat_fn fn, void *arg)
{
	struct ethtool_drvinfo drv = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	uint32_t i, n;
	int fd, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = ethtool_ioctl(fd, ifname, &drv);
	n = drv.n_stats;
	if (ret || !n || n > 4096)
		goto out;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	ret = -ENOMEM;
	if (!gs || !st)
		goto out;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	ret = ethtool_ioctl(fd, ifname, gs);
	if (!ret)
		ret = ethtool_ioctl(fd, ifname, st);
	/* The count may change between the calls (a driver reload). */
	if (!ret && (gs->len != n || st->n_stats != n))
		ret = -EAGAIN;
	for (i = 0; !ret && i < n; i++) {
		char name[ETH_GSTRING_LEN + 1];

		memcpy(name, gs->data + (size_t)i * ETH_GSTRING_LEN,
		       ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		fn(name, st->data[i], arg);
	}
out:
	free(gs);
	free(st);
	close(fd);
	return ret;
}

int (*nic_ethtool_stats)(const char *ifname, nic_stat_fn fn, void *arg) =
	nic_ethtool_stats_ioctl;

/* One ethtool statistic into the port's RoCE counters (by name). */
static void nic_roce_stat(const char *name, uint64_t val, void *arg)
{
	static const struct {
		const char *name;
		size_t off;
	} map[] = {
		{ "roce_tx_pkts", offsetof(struct nic_port, roce_tx_pkts) },
		{ "roce_rx_pkts", offsetof(struct nic_port, roce_rx_pkts) },
		{ "roce_retransmits",
		  offsetof(struct nic_port, roce_retransmits) },
		{ "roce_acks_tx", offsetof(struct nic_port, roce_acks_tx) },
		{ "roce_naks_tx", offsetof(struct nic_port, roce_naks_tx) },
		{ "roce_acks_rx", offsetof(struct nic_port, roce_acks_rx) },
		{ "roce_naks_rx", offsetof(struct nic_port, roce_naks_rx) },
		{ "roce_qp_errors", offsetof(struct nic_port, roce_qp_errors) },
	};
	unsigned int i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(name, map[i].name) && val <= INT64_MAX) {
			int64_t v = (int64_t)val;

			memcpy((char *)arg + map[i].off, &v, sizeof(v));
		}
}

/* One netdev (folder @ifd, named @name) into its port. */
static void nic_read_if(struct card *c, int ifd, const char *name)
{
	struct nic_port *np;
	int64_t port = read_int_at(ifd, "dev_port");

	if (port < 0 || port >= NIC_PORTS)
		return;
	np = &c->ports[port];
	np->enabled = true;
	if (strlen(name) >= sizeof(np->ifname))
		return;		/* IFNAMSIZ is 16 */
	memcpy(np->ifname, name, strlen(name) + 1);
	if (read_at(ifd, "address", np->mac, sizeof(np->mac)))
		np->mac[0] = '\0';
	if (read_at(ifd, "operstate", np->operstate, sizeof(np->operstate)))
		np->operstate[0] = '\0';
	/* carrier and speed: EINVAL while the interface is down */
	np->carrier = read_int_at(ifd, "carrier");
	np->speed = np->carrier == 1 ? read_int_at(ifd, "speed") : NA;
	if (np->speed < 0)
		np->speed = NA;
	np->mtu = read_int_at(ifd, "mtu");
	np->rx_frames = read_int_at(ifd, "statistics/rx_packets");
	np->tx_frames = read_int_at(ifd, "statistics/tx_packets");
	np->rx_bytes = read_int_at(ifd, "statistics/rx_bytes");
	np->tx_bytes = read_int_at(ifd, "statistics/tx_bytes");
	np->rx_dropped = read_int_at(ifd, "statistics/rx_dropped");
	np->tx_dropped = read_int_at(ifd, "statistics/tx_dropped");
	np->rx_errors = read_int_at(ifd, "statistics/rx_errors");
	np->tx_errors = read_int_at(ifd, "statistics/tx_errors");
	/* Not a failure without them: upstream, another driver, a race. */
	if (nic_ethtool_stats(np->ifname, nic_roce_stat, np))
		np->roce_tx_pkts = np->roce_rx_pkts = np->roce_retransmits =
			np->roce_acks_tx = np->roce_naks_tx = np->roce_acks_rx =
			np->roce_naks_rx = np->roce_qp_errors = NA;
}

/* The interfaces in folder @pfd/net (if any), into the card. */
static void nic_scan_net(struct card *c, int pfd, bool ports)
{
	struct dirent *de;
	DIR *d = opendir_at(pfd, "net");

	if (!d)
		return;
	while ((de = readdir(d))) {
		int ifd;

		if (de->d_name[0] == '.')
			continue;
		if (!ports) {
			nic_add_name(c, de->d_name);
			continue;
		}
		ifd = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (ifd < 0)
			continue;
		nic_read_if(c, ifd, de->d_name);
		close(ifd);
	}
	closedir(d);
}

/*
 * The ports of the card whose PCI sysfs folder is @pcifd.  The masks
 * (c->nic_mask, c->nic_ext_mask) are read before, from HW_IP_INFO; 0 or
 * unknown leaves the ports with a netdev as the enabled ones.
 */
void nic_collect(struct card *c, int pcifd)
{
	struct dirent *de;
	unsigned int p;
	DIR *d;

	/* A NIC driver bound to the PCI function itself (not gaudi_en). */
	nic_scan_net(c, pcifd, false);
	d = opendir_at(pcifd, ".");
	while (d && (de = readdir(d))) {
		int afd;

		if (strncmp(de->d_name, "gaudi.en.", 9))
			continue;
		afd = openat(pcifd, de->d_name,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (afd < 0)
			continue;
		c->nic_aux = true;
		c->nic_bound = !faccessat(afd, "driver", F_OK, 0);
		nic_scan_net(c, afd, true);
		close(afd);
		break;
	}
	if (d)
		closedir(d);
	if (c->nic_mask != NA)
		snprintf(c->nic_mask_s, sizeof(c->nic_mask_s), "0x%llx",
			 (unsigned long long)c->nic_mask);
	if (c->nic_ext_mask != NA)
		snprintf(c->nic_ext_s, sizeof(c->nic_ext_s), "0x%llx",
			 (unsigned long long)c->nic_ext_mask);
	for (p = 0; p < NIC_PORTS; p++) {
		struct nic_port *np = &c->ports[p];

		if (np->ifname[0])
			nic_add_name(c, np->ifname);	/* in port order */
		if (c->nic_mask != NA && ((c->nic_mask >> p) & 1))
			np->enabled = true;
		if (c->nic_ext_mask != NA)
			np->external = (c->nic_ext_mask >> p) & 1;
	}
}

/* How many ports of @c are enabled, external, visible or have carrier. */
unsigned int nic_count(const struct card *c, int what)
{
	unsigned int p, n = 0;

	for (p = 0; p < NIC_PORTS; p++) {
		const struct nic_port *np = &c->ports[p];

		if (!np->enabled)
			continue;
		switch (what) {
		case NC_ENABLED: n++; break;
		case NC_EXTERNAL: n += np->external; break;
		case NC_VISIBLE: n += !!np->ifname[0]; break;
		case NC_UP: n += np->carrier == 1; break;
		}
	}
	return n;
}
