// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dmabuf_import_test: the attach/map path of gaudi.ko's HBM dma-bufs, seen
 * from a kernel importer (gaudi_dmabuf_import.ko, /dev/gaudi_dmabuf_import).
 *
 * Exports HBM ranges with DRM_IOCTL_HL_MEMORY EXPORT_DMABUF_FD, hands each
 * fd to the importer and checks what the import saw: a peer-to-peer
 * attach maps, the table covers the size in entries of at most 1 GiB,
 * contiguous, starting at BAR4's bus address + the HBM address (the guest
 * has no IOMMU in front of the importer); a plain attach is refused with
 * EOPNOTSUPP; bad descriptors fail cleanly; a dma-buf keeps working after
 * the device file that exported it is closed.
 *
 *   dmabuf_import_test [--card N] [--importer PATH]
 *
 * gaudi.ko only: the upstream peer refuses a non-PCI importer (suite.sh).
 * Prints TAP, ends with "N passed, N failed", exits 1 on any failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#include "hl_ioctl.h"
#include "tap.h"

#define HBM_SIZE	(32ULL << 30)
#define GIB		(1ULL << 30)
#define MIB		(1ULL << 20)
#define MAX_SG		64

static int card;
static const char *importer = "/dev/gaudi_dmabuf_import";
static char dev_path[64];
static uint64_t bar4;

/* What the importer reported for one request. */
struct imp {
	int get, attach, map;	/* 0 or -errno; 1: step not reached */
	char exporter[32];
	uint64_t size;
	unsigned int nents;
	uint64_t addr[MAX_SG], len[MAX_SG];
	unsigned int listed;
	int moves;
};

static int open_dev(void)
{
	return hl_open_retry(dev_path);
}

static int export_fd(int fd, uint64_t addr, uint64_t size, int *out)
{
	return hl_export_dmabuf(fd, addr, size, 0, O_RDWR | O_CLOEXEC, out);
}

/* Import @dfd through the importer ("p2p" or "plain"); 0 once reported. */
static int import(const char *mode, int dfd, struct imp *r)
{
	char req[32], buf[8192], *line, *save;
	unsigned int i;
	uint64_t a, l;
	ssize_t n;
	int fd;

	memset(r, 0, sizeof(*r));
	r->get = r->attach = r->map = 1;
	fd = open(importer, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(req, sizeof(req), "%s %d", mode, dfd);
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "get %d", &r->get) == 1 ||
		    sscanf(line, "attach %d", &r->attach) == 1 ||
		    sscanf(line, "map %d", &r->map) == 1 ||
		    sscanf(line, "exporter %31s", r->exporter) == 1 ||
		    sscanf(line, "size %" SCNu64, &r->size) == 1 ||
		    sscanf(line, "nents %u", &r->nents) == 1 ||
		    sscanf(line, "moves %d", &r->moves) == 1)
			continue;
		if (sscanf(line, "sg %u %" SCNx64 " %" SCNx64, &i, &a, &l) == 3 &&
		    i == r->listed && i < MAX_SG) {
			r->addr[i] = a;
			r->len[i] = l;
			r->listed++;
		}
	}
	return 0;
}

/* The table of a mapped import of HBM [@addr, @addr + @size). */
static void check_table(const struct imp *r, uint64_t addr, uint64_t size,
			const char *what)
{
	unsigned int i, want = (unsigned int)((size + GIB - 1) / GIB);
	bool contig = true, capped = true;
	uint64_t total = 0;

	ok_eq(r->size, size, "%s: the importer sees the dma-buf size", what);
	ok_eq(r->nents, want, "%s: %u sg entr%s (<= 1 GiB each)", what, want,
	      want == 1 ? "y" : "ies");
	ok_eq(r->listed, r->nents, "%s: every entry reported", what);
	for (i = 0; i < r->listed; i++) {
		total += r->len[i];
		if (r->len[i] > GIB || !r->len[i])
			capped = false;
		if (i && r->addr[i] != r->addr[i - 1] + r->len[i - 1])
			contig = false;
	}
	ok_eq(total, size, "%s: the entries add up to the size", what);
	ok(capped, "%s: no entry empty or over 1 GiB", what);
	ok_eq(r->listed ? r->addr[0] : 0, bar4 + addr,
	      "%s: first DMA address = BAR4 0x%" PRIx64 " + HBM 0x%" PRIx64,
	      what, bar4, addr);
	ok(contig, "%s: entries contiguous", what);
	if (r->listed > 1)
		tap_diag("%s: %u entries, last 0x%" PRIx64 " + 0x%" PRIx64, what,
			 r->listed, r->addr[r->listed - 1],
			 r->len[r->listed - 1]);
}

/* Export HBM [@addr, @addr + @size), import it peer to peer, check it. */
static void t_range(int fd, uint64_t addr, uint64_t size, const char *what)
{
	struct imp r;
	int dfd;

	if (!ok(export_fd(fd, addr, size, &dfd) == 0,
		"%s: export HBM 0x%" PRIx64 " + 0x%" PRIx64, what, addr, size))
		return;
	if (ok(import("p2p", dfd, &r) == 0 && r.get == 0 && r.attach == 0 &&
	       r.map == 0, "%s: peer-to-peer attach and map (get %d attach %d map %d)",
	       what, r.get, r.attach, r.map))
		check_table(&r, addr, size, what);
	tap_diag("%s: exporter %s", what, r.exporter);
	ok(r.moves == 0, "%s: no move_notify from a static exporter", what);
	ok(close(dfd) == 0, "%s: close the dma-buf after the import", what);
}

/* BAR4's bus address from sysfs: resource line 4 of the card's device. */
static int read_bar4(void)
{
	char bdf[64], res[128], line[160];
	unsigned long long start = 0, end, flags;
	FILE *f;
	int i;

	if (hl_card_bdf(card, bdf, sizeof(bdf)))
		return -1;
	snprintf(res, sizeof(res), "/sys/bus/pci/devices/%s/resource", bdf);
	f = fopen(res, "r");
	if (!f)
		return -1;
	for (i = 0; i <= 4 && fgets(line, sizeof(line), f); i++)
		if (i == 4 && sscanf(line, "%llx %llx %llx", &start, &end,
				     &flags) != 3)
			start = 0;
	fclose(f);
	tap_diag("card %d: %s, BAR4 at 0x%llx", card, bdf, start);
	bar4 = start;
	return start ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'c' },
		{ "importer", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct imp r, r2;
	int c, fd, dfd;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			card = atoi(optarg);
			break;
		case 'i':
			importer = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: %s [--card N] [--importer PATH]\n",
				argv[0]);
			return 2;
		}
	}
	snprintf(dev_path, sizeof(dev_path), "/dev/accel/accel%d", card);

	ok(access(importer, R_OK | W_OK) == 0, "importer node %s", importer);
	ok(read_bar4() == 0, "BAR4 bus address of accel%d from sysfs", card);
	fd = open_dev();
	if (!ok(fd >= 0, "open %s", dev_path))
		return tap_done();

	/* Peer-to-peer imports of a few shapes of range. */
	t_range(fd, GAUDI_DRAM_USER_START, 2 * MIB, "2 MiB at the user HBM base");
	t_range(fd, GAUDI_DRAM_USER_START, GIB + 4096, "1 GiB + 4 KiB");
	t_range(fd, GIB + 12288, 2 * GIB + 20480,
		"2 GiB + 20 KiB at 1 GiB + 12 KiB (odd size and offset)");
	t_range(fd, HBM_SIZE - 4096, 4096, "the last page of HBM");
	t_range(fd, GAUDI_DRAM_USER_START, HBM_SIZE - GAUDI_DRAM_USER_START, "all of user HBM");

	/* Without peer-to-peer the exporter refuses the attachment. */
	if (ok(export_fd(fd, GAUDI_DRAM_USER_START, 2 * MIB, &dfd) == 0,
	       "export 2 MiB for the plain attach")) {
		ok(import("plain", dfd, &r) == 0 && r.get == 0,
		   "plain import: dma_buf_get (%d)", r.get);
		ok(r.attach == -EOPNOTSUPP,
		   "plain dma_buf_attach refused: EOPNOTSUPP (attach %d map %d)",
		   r.attach, r.map);
		ok(import("p2p", dfd, &r) == 0 && r.attach == 0 && r.map == 0,
		   "the same dma-buf imports peer to peer afterwards");
		close(dfd);
	}

	/* Descriptors that are not dma-bufs. */
	ok(import("p2p", fd, &r) == 0 && r.get == -EINVAL && r.attach == 1,
	   "the accel fd is not a dma-buf: EINVAL (get %d)", r.get);
	ok(import("p2p", 1000, &r) == 0 && r.get == -EBADF && r.attach == 1,
	   "a closed fd: EBADF (get %d)", r.get);

	/* The dma-buf outlives the device file that exported it. */
	if (ok(export_fd(fd, GAUDI_DRAM_USER_START + 4 * MIB, 4 * MIB, &dfd) == 0,
	       "export 4 MiB, then import it")) {
		ok(import("p2p", dfd, &r) == 0 && r.attach == 0 && r.map == 0,
		   "import with the device file open");
		ok(close(fd) == 0, "close the device file");
		fd = -1;
		ok(import("p2p", dfd, &r2) == 0 && r2.attach == 0 &&
		   r2.map == 0, "import again after the device file closed (attach %d map %d)",
		   r2.attach, r2.map);
		ok(r2.nents == r.nents && r2.listed && r.listed &&
		   r2.addr[0] == r.addr[0] && r2.len[0] == r.len[0] &&
		   r2.size == r.size, "the same table as before the close");
		ok(close(dfd) == 0, "close the last dma-buf reference");
	}
	if (fd >= 0)
		close(fd);
	return tap_done();
}
