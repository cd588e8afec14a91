// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-fw: the firmware tool of the Gaudi 1 stack.
 *
 *   gaudi-fw info [-i CARD]             running versions, flash slots, files
 *   gaudi-fw verify FILE...             check images as the device would
 *   gaudi-fw install FILE               atomic install, previous kept
 *   gaudi-fw rollback [KIND]            back to the previous file
 *   gaudi-fw flash FILE [-i CARD]       update the preboot in the SPI flash
 *   gaudi-fw load [FILE...]             answer the driver's fallback request
 *
 * Exit codes and messages: gaudi-fw.1.  Flash layout and protocol:
 * Documentation/firmware/flash.rst.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gaudi/gaudi.h>
#include <drm/gaudi_accel.h>

#include "fwimage.h"
#include "fwinstall.h"

#ifndef GAUDI_VERSION
#error "GAUDI_VERSION: the tree's VERSION, passed by the Makefile"
#endif
#define GAUDI_FW_VERSION	GAUDI_VERSION
#define FW_CLASS		"/sys/class/firmware"
#define FW_REQ_PREFIX		"habanalabs!gaudi!"
#define PCI_DEVICES		"/sys/bus/pci/devices"
#define DEFAULT_CHUNK		(64U << 10)

struct opts {
	const char *cards;	/* -i: NULL = all */
	const char *fw_dir;
	int kind;		/* --kind, FW_KIND_ANY when not given */
	bool yes, force, quiet, cancel;
	unsigned int wait_s;
	unsigned int chunk;	/* GAUDI_FW_CHUNK */
	unsigned int delay_ms;	/* GAUDI_FW_TEST_DELAY_MS */
};

static const char *prog = "gaudi-fw";
static volatile sig_atomic_t interrupted;

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR && !interrupted)
		;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: gaudi-fw [options] COMMAND [ARGS]\n"
"\n"
"commands:\n"
"  info                 running firmware per card, flash slots, installed files\n"
"  verify FILE...       check firmware images (structure, hashes, target, kind)\n"
"  install FILE         install an image into the firmware directory (atomic,\n"
"                       the replaced file is kept for rollback)\n"
"  rollback [KIND]      restore the previous boot-fit and/or fit file\n"
"  flash FILE           write a boot-fit image to the cards' SPI flash\n"
"                       (inactive slot, read back, then activate)\n"
"  load [FILE...]       answer the driver's firmware fallback requests\n"
"\n"
"options:\n"
"  -i, --id CARD[,CARD] card index (0..) or PCI bus id; default all cards\n"
"  -k, --kind KIND      boot-fit or fit (default: from the name or image)\n"
"  -d, --fw-dir DIR     firmware directory (default " FW_DIR_DEFAULT ")\n"
"  -y, --yes            flash without asking\n"
"  -f, --force          flash a card that is in use\n"
"  -w, --wait SECONDS   load: keep serving until no request for SECONDS\n"
"  -c, --cancel         load: refuse the pending requests instead\n"
"  -q, --quiet          no progress output\n"
"  -V, --version        print the version\n"
"  -h, --help           this text\n"
"\n"
"Exit status: 0 ok, 1 error, 2 usage, 3 file unreadable, 4 card busy,\n"
"5 no card/driver support, 6 flash failed (previous image still boots),\n"
"7 nothing to roll back, 8 needs root, 9 not confirmed, 11-20 image refused\n"
"(see gaudi-fw(1)).\n");
}

/* ---- images --------------------------------------------------------------- */

/* Read and check; prints the refusal.  Returns the exit code. */
static int load_checked(const char *path, int kind, uint8_t **buf,
			size_t *len, struct fw_check *c)
{
	int ret, want = kind;

	ret = fw_read_file(path, buf, len);
	if (ret) {
		err("%s: cannot read: %s", path, strerror(-ret));
		return FW_EXIT_NOFILE;
	}
	if (want == FW_KIND_ANY)
		want = fw_kind_from_name(path);
	if (fw_check_buf(*buf, *len, want, c)) {
		err("%s: %s", path, c->why);
		free(*buf);
		*buf = NULL;
		return fw_check_exit(c->err);
	}
	return FW_EXIT_OK;
}

static int cmd_verify(struct opts *o, int argc, char **argv)
{
	int i, worst = FW_EXIT_OK;

	if (argc < 1) {
		err("verify: no FILE given");
		return FW_EXIT_USAGE;
	}
	for (i = 0; i < argc; i++) {
		struct fw_check c;
		uint8_t *buf;
		size_t len;
		int ret = load_checked(argv[i], o->kind, &buf, &len, &c);

		if (ret) {
			if (worst == FW_EXIT_OK)
				worst = ret;
			continue;
		}
		printf("%s: ok\n", argv[i]);
		printf("  kind:     %s\n", fw_kind_str(c.kind));
		printf("  target:   %s\n", c.targets);
		printf("  size:     %zu bytes (FIT %u)\n", len, c.totalsize);
		printf("  images:   %s\n", c.images);
		printf("  version:  %s\n", c.version);
		if (c.kind == FW_KIND_BOOT)
			printf("  preboot:  %s\n", c.preboot);
		else
			printf("  cpucp:    %s\n  kernel:   %s\n",
			       c.cpucp_version, c.kernel_version);
		free(buf);
	}
	return worst;
}

static int cmd_install(struct opts *o, int argc, char **argv)
{
	struct fw_check c;
	uint8_t *buf;
	size_t len;
	int ret;

	if (argc != 1) {
		err("install: exactly one FILE");
		return FW_EXIT_USAGE;
	}
	ret = load_checked(argv[0], o->kind, &buf, &len, &c);
	if (ret) {
		err("%s: not installed", argv[0]);
		return ret;
	}
	ret = fw_install(o->fw_dir, fw_kind_file(c.kind), buf, len);
	free(buf);
	if (ret) {
		err("%s/%s: install failed: %s", o->fw_dir,
		    fw_kind_file(c.kind), strerror(-ret));
		return ret == -EACCES || ret == -EPERM ? FW_EXIT_PERM :
							 FW_EXIT_NOFILE;
	}
	if (!o->quiet)
		printf("installed %s/%s: %s\n", o->fw_dir, fw_kind_file(c.kind),
		       c.version);
	return FW_EXIT_OK;
}

static int cmd_rollback(struct opts *o, int argc, char **argv)
{
	int kinds[2], nk = 0, i, done = 0, ret;

	if (argc > 1) {
		err("rollback: at most one KIND");
		return FW_EXIT_USAGE;
	}
	if (argc == 1) {
		int k = fw_kind_parse(argv[0]);

		if (k == -2)
			k = fw_kind_from_name(argv[0]);
		if (k < 0) {
			err("rollback: unknown kind '%s' (boot-fit or fit)",
			    argv[0]);
			return FW_EXIT_USAGE;
		}
		kinds[nk++] = k;
	} else if (o->kind != FW_KIND_ANY) {
		kinds[nk++] = o->kind;
	} else {
		kinds[nk++] = FW_KIND_BOOT;
		kinds[nk++] = FW_KIND_MAIN;
	}
	for (i = 0; i < nk; i++) {
		const char *name = fw_kind_file(kinds[i]);
		char prev[PATH_MAX];
		struct fw_check c;
		uint8_t *buf;
		size_t len;

		snprintf(prev, sizeof(prev), "%s/%s%s", o->fw_dir, name,
			 FW_PREV_SUFFIX);
		if (access(prev, F_OK))
			continue;
		/* Never bring back a file the device would refuse. */
		ret = load_checked(prev, kinds[i], &buf, &len, &c);
		if (ret) {
			err("%s: not restored", prev);
			return ret;
		}
		free(buf);
		ret = fw_rollback(o->fw_dir, name);
		if (ret) {
			err("%s/%s: rollback failed: %s", o->fw_dir, name,
			    strerror(-ret));
			return ret == -EACCES || ret == -EPERM ? FW_EXIT_PERM :
								 FW_EXIT_NOFILE;
		}
		done++;
		if (!o->quiet)
			printf("restored %s/%s: %s\n", o->fw_dir, name,
			       c.version);
	}
	if (!done) {
		err("nothing to roll back: no %s%s in %s",
		    nk == 1 ? fw_kind_file(kinds[0]) : "*.itb", FW_PREV_SUFFIX,
		    o->fw_dir);
		return FW_EXIT_NOPREV;
	}
	return FW_EXIT_OK;
}

/* ---- cards ----------------------------------------------------------------- */

/* Is card (position pos) among the -i selection? */
static bool selected(const char *sel, unsigned int pos, const char *bus)
{
	char buf[256], *tok, *save;

	if (!sel || !strcmp(sel, "all"))
		return true;
	snprintf(buf, sizeof(buf), "%s", sel);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long v = strtoul(tok, &end, 10);
		size_t bl = strlen(bus), tl = strlen(tok);

		if (*tok && !*end && v == pos)
			return true;
		/* Full bus id, or without its domain. */
		if (!strcasecmp(tok, bus) ||
		    (tl < bl && !strcasecmp(tok, bus + bl - tl) &&
		     bus[bl - tl - 1] == ':'))
			return true;
	}
	return false;
}

static void read_attr(const char *dir, const char *name, char *out,
		      size_t outlen)
{
	char path[PATH_MAX];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(out, outlen, f))
		out[0] = '\0';
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
}

static int flash_ioctl(int fd, struct drm_gaudi_flash *f)
{
	int ret;

	do {
		ret = ioctl(fd, DRM_IOCTL_GAUDI_FLASH, f);
	} while (ret && errno == EINTR && !interrupted);
	return ret ? -errno : 0;
}

static int flash_info(int fd, struct drm_gaudi_flash_info *fi)
{
	struct drm_gaudi_flash f = {
		.op = GAUDI_FLASH_OP_INFO,
		.data = (uintptr_t)fi,
		.size = sizeof(*fi),
	};

	memset(fi, 0, sizeof(*fi));
	return flash_ioctl(fd, &f);
}

static bool has_flash(struct gaudi_dev *dev)
{
	struct gaudi_caps caps;

	return !gaudi_query_caps(dev, &caps) &&
	       (caps.caps & GAUDI_CAP_FLASH);
}

static const char *slot_str(uint32_t s, char *buf, size_t len)
{
	if (s == GAUDI_FLASH_NO_SLOT)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%u", s);
	return buf;
}

static void print_flash(const struct drm_gaudi_flash_info *fi)
{
	char a[16], b[16];
	unsigned int s;

	for (s = 0; s < GAUDI_FLASH_NR_SLOTS; s++) {
		printf("  flash slot %u%s%s ", s,
		       fi->boot_slot == s ? " [running]" : "",
		       fi->next_slot == s ? " [next boot]" : "");
		if (fi->slot_state[s])
			printf("empty or invalid (%s)\n",
			       gaudi_fit_strerror(fi->slot_state[s]));
		else
			printf("%.*s (%u bytes)\n", GAUDI_FLASH_VER_LEN,
			       fi->slot_version[s], fi->slot_image_size[s]);
	}
	if (fi->record_seq)
		printf("  flash record:   seq %u, slot %s\n", fi->record_seq,
		       slot_str(fi->record_active, a, sizeof(a)));
	else
		printf("  flash record:   none (factory layout)\n");
	printf("  boot slot:      %s, next %s\n",
	       slot_str(fi->boot_slot, a, sizeof(a)),
	       slot_str(fi->next_slot, b, sizeof(b)));
}

static void print_installed(const char *dir)
{
	int k;

	printf("installed in %s:\n", dir);
	for (k = FW_KIND_BOOT; k <= FW_KIND_MAIN; k++) {
		char path[PATH_MAX];
		int v;

		for (v = 0; v < 2; v++) {
			struct fw_check c;
			uint8_t *buf;
			size_t len;

			snprintf(path, sizeof(path), "%s/%s%s", dir,
				 fw_kind_file(k), v ? FW_PREV_SUFFIX : "");
			if (fw_read_file(path, &buf, &len)) {
				if (!v)
					printf("  %-24s missing\n",
					       fw_kind_file(k));
				continue;
			}
			fw_check_buf(buf, len, k, &c);
			free(buf);
			printf("  %-24s %s\n", strrchr(path, '/') + 1,
			       c.err ? c.why : c.version);
		}
	}
}

static int cmd_info(struct opts *o, int argc, char **argv)
{
	struct gaudi_card_list *list = NULL;
	unsigned int i, shown = 0;
	int n;

	(void)argv;
	if (argc) {
		err("info: no arguments expected");
		return FW_EXIT_USAGE;
	}
	n = gaudi_cards_scan(&list);
	for (i = 0; n > 0 && i < (unsigned int)n; i++) {
		const struct gaudi_card *card = gaudi_cards_get(list, i);
		const char *sys = gaudi_card_syspath(card);
		const char *bus = gaudi_card_pci_bus_id(card);
		struct drm_gaudi_flash_info fi;
		struct gaudi_dev *dev;
		char v[256];

		if (!selected(o->cards, i, bus))
			continue;
		shown++;
		printf("card %u  %s  driver %s\n", i, bus,
		       gaudi_card_driver(card));
		read_attr(sys, "preboot_btl_ver", v, sizeof(v));
		printf("  preboot:        %s\n", v[0] ? v : "?");
		read_attr(sys, "uboot_ver", v, sizeof(v));
		printf("  boot-fit:       %s\n", v[0] ? v : "?");
		read_attr(sys, "cpucp_ver", v, sizeof(v));
		printf("  cpucp:          %s\n", v[0] ? v : "?");
		if (!gaudi_open_card(card, GAUDI_OPEN_CONTROL, &dev)) {
			if (has_flash(dev) && !flash_info(gaudi_fd(dev), &fi))
				print_flash(&fi);
			gaudi_close(dev);
		}
	}
	gaudi_cards_free(list);
	if (!shown) {
		int why = gaudi_check_driver();

		printf("no card%s%s\n", o->cards ? " matches -i " : "",
		       o->cards ? o->cards : "");
		if (why)
			printf("  (%s)\n", gaudi_strerror(why));
	}
	print_installed(o->fw_dir);
	return FW_EXIT_OK;
}

/* ---- flash ------------------------------------------------------------------- */

struct progress {
	const char *what;
	uint64_t total;
	bool tty;
	int last;
};

static void progress_start(struct progress *p, const struct opts *o,
			   const char *card, const char *what, uint32_t slot,
			   uint64_t total)
{
	p->what = what;
	p->total = total;
	p->last = -1;
	p->tty = !o->quiet && isatty(STDERR_FILENO);
	if (!o->quiet && !p->tty) {
		printf("%s: %s slot %u (%llu bytes)\n", card, what, slot,
		       (unsigned long long)total);
		fflush(stdout);
	}
}

static void progress(struct progress *p, uint64_t done)
{
	int pct = p->total ? (int)(done * 100 / p->total) : 100, i;

	if (!p->tty || pct == p->last)
		return;
	p->last = pct;
	fprintf(stderr, "\r  %-10s [", p->what);
	for (i = 0; i < 40; i++)
		fputc(i < pct * 40 / 100 ? '#' : '.', stderr);
	fprintf(stderr, "] %3d%%", pct);
	if (done >= p->total)
		fputc('\n', stderr);
	fflush(stderr);
}

static int flash_exit(int e)
{
	if (e == -EPERM || e == -EACCES)
		return FW_EXIT_PERM;
	if (e == -EBUSY)
		return FW_EXIT_BUSY;
	return FW_EXIT_FLASH;
}

/* Explain what the card boots after a failure. */
static void flash_failed(int fd, const char *card, uint32_t target)
{
	struct drm_gaudi_flash_info fi;
	char a[16];

	if (flash_info(fd, &fi)) {
		err("%s: slot %u is incomplete; the active slot was not changed",
		    card, target);
		return;
	}
	err("%s: slot %u is incomplete; the card still boots slot %s (%.*s)",
	    card, target, slot_str(fi.next_slot, a, sizeof(a)),
	    GAUDI_FLASH_VER_LEN,
	    fi.next_slot < GAUDI_FLASH_NR_SLOTS ?
	    fi.slot_version[fi.next_slot] : "built-in preboot");
}

static int flash_card(const struct opts *o, const struct gaudi_card *card,
		      unsigned int pos, const uint8_t *img, size_t len,
		      const struct fw_check *c)
{
	struct drm_gaudi_flash_info fi;
	struct drm_gaudi_flash f;
	struct gaudi_owner own;
	struct gaudi_dev *dev;
	struct progress p;
	char name[64];
	uint32_t target, span, done, n, crc = gaudi_crc32(0, img, len);
	uint32_t flags = o->force ? GAUDI_FLASH_FORCE : 0;
	uint8_t *back = NULL;
	int fd, ret, code = FW_EXIT_OK;

	snprintf(name, sizeof(name), "card %u (%s)", pos,
		 gaudi_card_pci_bus_id(card));
	ret = gaudi_open_card(card, GAUDI_OPEN_CONTROL, &dev);
	if (ret) {
		err("%s: cannot open the control node: %s", name,
		    gaudi_strerror(ret));
		return FW_EXIT_NODEV;
	}
	fd = gaudi_fd(dev);
	if (!has_flash(dev)) {
		err("%s: driver %s cannot write the flash (needs gaudi.ko with GAUDI_CAP_FLASH)",
		    name, gaudi_driver_name(dev));
		code = FW_EXIT_NODEV;
		goto out;
	}
	if (!gaudi_owner(dev, &own) && own.state == GAUDI_OWNER_STATE_HELD) {
		if (!o->force) {
			err("%s: in use by pid %d (%s) for %llu s; stop it or use --force",
			    name, own.pid, own.comm,
			    (unsigned long long)(own.held_ns / 1000000000ULL));
			code = FW_EXIT_BUSY;
			goto out;
		}
		err("%s: in use by pid %d (%s): flashing anyway (--force)",
		    name, own.pid, own.comm);
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		err("%s: another gaudi-fw is updating this card", name);
		code = FW_EXIT_BUSY;
		goto out;
	}
	ret = flash_info(fd, &fi);
	if (ret) {
		err("%s: flash info: %s", name, strerror(-ret));
		code = flash_exit(ret);
		goto out;
	}
	/* Never touch the slot the card would boot now. */
	target = fi.next_slot == 0 ? 1 : 0;
	if (len > fi.slot_size) {
		err("%s: image of %zu bytes does not fit a %u-byte slot", name,
		    len, fi.slot_size);
		code = FW_EXIT_FLASH;
		goto out;
	}
	back = malloc(o->chunk);
	if (!back) {
		code = FW_EXIT_ERROR;
		goto out;
	}

	span = (len + fi.erase_size - 1) / fi.erase_size * fi.erase_size;
	progress_start(&p, o, name, "erasing", target, span);
	for (done = 0; done < span; done += n) {
		n = span - done < GAUDI_FLASH_XFER_MAX ? span - done :
							 GAUDI_FLASH_XFER_MAX;
		f = (struct drm_gaudi_flash){ .op = GAUDI_FLASH_OP_ERASE,
			.flags = flags, .offset = fi.slot_offset[target] + done,
			.size = n };
		ret = interrupted ? -EINTR : flash_ioctl(fd, &f);
		if (ret) {
			err("%s: erase at 0x%x: %s", name, f.offset,
			    strerror(-ret));
			goto failed;
		}
		progress(&p, done + n);
		msleep(o->delay_ms);
	}

	progress_start(&p, o, name, "writing", target, len);
	for (done = 0; done < len; done += n) {
		n = len - done < o->chunk ? len - done : o->chunk;
		f = (struct drm_gaudi_flash){ .op = GAUDI_FLASH_OP_WRITE,
			.flags = flags, .data = (uintptr_t)(img + done),
			.offset = fi.slot_offset[target] + done, .size = n };
		ret = interrupted ? -EINTR : flash_ioctl(fd, &f);
		if (ret) {
			err("%s: write at 0x%x: %s%s", name, f.offset,
			    strerror(-ret),
			    f.status == GAUDI_FLASH_STATUS_NOT_ERASED ?
			    " (flash not erased)" : "");
			goto failed;
		}
		progress(&p, done + n);
		msleep(o->delay_ms);
	}

	progress_start(&p, o, name, "verifying", target, len);
	for (done = 0; done < len; done += n) {
		n = len - done < o->chunk ? len - done : o->chunk;
		f = (struct drm_gaudi_flash){ .op = GAUDI_FLASH_OP_READ,
			.data = (uintptr_t)back,
			.offset = fi.slot_offset[target] + done, .size = n };
		ret = interrupted ? -EINTR : flash_ioctl(fd, &f);
		if (ret) {
			err("%s: read back at 0x%x: %s", name, f.offset,
			    strerror(-ret));
			goto failed;
		}
		if (memcmp(back, img + done, n)) {
			err("%s: read back at 0x%x differs from the image",
			    name, f.offset);
			ret = -EIO;
			goto failed;
		}
		progress(&p, done + n);
		msleep(o->delay_ms);
	}

	f = (struct drm_gaudi_flash){ .op = GAUDI_FLASH_OP_ACTIVATE,
		.flags = flags, .offset = target, .size = len, .crc = crc };
	ret = interrupted ? -EINTR : flash_ioctl(fd, &f);
	if (ret) {
		if (f.status == GAUDI_FLASH_STATUS_BAD_IMAGE)
			err("%s: the device refused slot %u: %s", name, target,
			    gaudi_fit_strerror(f.detail));
		else if (f.status == GAUDI_FLASH_STATUS_CRC)
			err("%s: the device refused slot %u: CRC differs",
			    name, target);
		else
			err("%s: activate slot %u: %s", name, target,
			    strerror(-ret));
		goto failed;
	}
	ret = flash_info(fd, &fi);
	if (ret || fi.next_slot != target) {
		err("%s: slot %u was activated but the card would boot slot %u",
		    name, target, fi.next_slot);
		code = FW_EXIT_FLASH;
		goto out;
	}
	if (!o->quiet)
		printf("%s: slot %u active (record %llu): %s\n"
		       "%s: the new preboot runs after the next reset or power cycle\n",
		       name, target, (unsigned long long)f.result, c->preboot,
		       name);
	goto out;

failed:
	if (p.tty)
		fputc('\n', stderr);
	code = ret == -EINTR && interrupted ? 130 : flash_exit(ret);
	flash_failed(fd, name, target);
out:
	free(back);
	gaudi_close(dev);
	return code;
}

static bool confirm(const struct opts *o, unsigned int ncards,
		    const struct fw_check *c)
{
	char line[16];

	if (o->yes)
		return true;
	if (!isatty(STDIN_FILENO)) {
		err("flash: not confirmed (use --yes when not on a terminal)");
		return false;
	}
	fprintf(stderr, "Write preboot \"%s\" to the flash of %u card%s? [y/N] ",
		c->preboot, ncards, ncards == 1 ? "" : "s");
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

static int cmd_flash(struct opts *o, int argc, char **argv)
{
	struct gaudi_card_list *list = NULL;
	unsigned int i, nsel = 0;
	struct fw_check c;
	uint8_t *img;
	size_t len;
	int n, ret, worst = FW_EXIT_OK;

	if (argc != 1) {
		err("flash: exactly one FILE");
		return FW_EXIT_USAGE;
	}
	/* Only a boot-fit goes to flash, whatever the file is called. */
	ret = load_checked(argv[0], FW_KIND_BOOT, &img, &len, &c);
	if (ret) {
		err("%s: not flashed", argv[0]);
		return ret;
	}
	n = gaudi_cards_scan(&list);
	for (i = 0; n > 0 && i < (unsigned int)n; i++)
		nsel += selected(o->cards, i,
				 gaudi_card_pci_bus_id(gaudi_cards_get(list, i)));
	if (!nsel) {
		int why = gaudi_check_driver();

		err("flash: no card%s%s%s%s", o->cards ? " matches -i " : "",
		    o->cards ? o->cards : "", why ? ": " : "",
		    why ? gaudi_strerror(why) : "");
		worst = FW_EXIT_NODEV;
		goto out;
	}
	if (geteuid() != 0) {
		err("flash: needs root (CAP_SYS_ADMIN)");
		worst = FW_EXIT_PERM;
		goto out;
	}
	if (!confirm(o, nsel, &c)) {
		worst = FW_EXIT_NOTCONFIRMED;
		goto out;
	}
	for (i = 0; i < (unsigned int)n && !interrupted; i++) {
		const struct gaudi_card *card = gaudi_cards_get(list, i);

		if (!selected(o->cards, i, gaudi_card_pci_bus_id(card)))
			continue;
		ret = flash_card(o, card, i, img, len, &c);
		if (ret && worst == FW_EXIT_OK)
			worst = ret;
	}
out:
	gaudi_cards_free(list);
	free(img);
	return worst;
}

/* ---- load: the sysfs firmware fallback -------------------------------------- */

/* The Gaudi PCI functions by bus id; position = index for -i. */
static int pci_position(const char *bus)
{
	struct dirent **ents;
	int n, i, pos = -1, k = 0;

	n = scandir(PCI_DEVICES, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char dir[PATH_MAX], v[32], d[32];

		snprintf(dir, sizeof(dir), PCI_DEVICES "/%s", ents[i]->d_name);
		read_attr(dir, "vendor", v, sizeof(v));
		read_attr(dir, "device", d, sizeof(d));
		if (!strcmp(v, "0x1da3") && !strcmp(d, "0x1000")) {
			if (!strcmp(ents[i]->d_name, bus))
				pos = k;
			k++;
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return pos;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t w = write(fd, p, len < 65536 ? len : 65536);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		p += w;
		len -= w;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* The file to answer a request for base name `want` with. */
static int pick_source(const struct opts *o, int argc, char **argv,
		       const char *want, char *path, size_t pathlen)
{
	int i, k = fw_kind_from_name(want);

	for (i = 0; i < argc; i++) {
		const char *b = strrchr(argv[i], '/');

		if (!strcmp(b ? b + 1 : argv[i], want)) {
			snprintf(path, pathlen, "%s", argv[i]);
			return 0;
		}
	}
	/* A FIT given under another name: by the kind it claims. */
	for (i = 0; k >= 0 && i < argc; i++) {
		struct fw_check c;
		uint8_t *buf;
		size_t len;

		if (fw_read_file(argv[i], &buf, &len))
			continue;
		fw_check_buf(buf, len, FW_KIND_ANY, &c);
		free(buf);
		if (!c.err && c.kind == k) {
			snprintf(path, pathlen, "%s", argv[i]);
			return 0;
		}
	}
	if (argc)
		return -ENOENT;
	snprintf(path, pathlen, "%s/%s", o->fw_dir, want);
	return access(path, R_OK) ? -errno : 0;
}

/*
 * Serve (or cancel) every pending request of the selected cards.  Returns
 * how many were served, or a negative exit code.
 */
static int load_pending(const struct opts *o, int argc, char **argv)
{
	DIR *d = opendir(FW_CLASS);
	struct dirent *e;
	int served = 0, code = 0;

	if (!d) {
		err("load: %s: %s (kernel without CONFIG_FW_LOADER_USER_HELPER?)",
		    FW_CLASS, strerror(errno));
		return -FW_EXIT_NODEV;
	}
	while ((e = readdir(d))) {
		char dir[PATH_MAX], loading[PATH_MAX + 16], data[PATH_MAX + 16];
		char link[PATH_MAX], src[PATH_MAX + 16];
		const char *want, *bus;
		struct fw_check c;
		uint8_t *buf = NULL;
		size_t len = 0;
		ssize_t ll;
		int ret, pos;

		if (strncmp(e->d_name, FW_REQ_PREFIX, strlen(FW_REQ_PREFIX)))
			continue;
		want = e->d_name + strlen(FW_REQ_PREFIX);
		snprintf(dir, sizeof(dir), FW_CLASS "/%s", e->d_name);
		snprintf(loading, sizeof(loading), "%s/loading", dir);
		snprintf(data, sizeof(data), "%s/data", dir);
		snprintf(src, sizeof(src), "%s/device", dir);
		ll = readlink(src, link, sizeof(link) - 1);
		if (ll < 0)
			continue;
		link[ll] = '\0';
		bus = basename(link);
		pos = pci_position(bus);
		if (!selected(o->cards, pos < 0 ? ~0U : (unsigned int)pos, bus))
			continue;

		if (o->cancel) {
			ret = write_file(loading, "-1", 2);
			if (ret) {
				err("load: %s: cancel: %s", want, strerror(-ret));
				code = FW_EXIT_ERROR;
				continue;
			}
			printf("%s: request for %s cancelled\n", bus, want);
			served++;
			continue;
		}
		ret = pick_source(o, argc, argv, want, src, sizeof(src));
		if (ret) {
			err("load: %s asks for %s: no such file given", bus, want);
			code = FW_EXIT_NOFILE;
			continue;
		}
		if (fw_kind_from_name(want) != FW_KIND_ANY) {
			ret = load_checked(src, fw_kind_from_name(want), &buf,
					   &len, &c);
			if (ret) {
				err("%s: refused for %s of %s; request cancelled",
				    src, want, bus);
				write_file(loading, "-1", 2);
				code = ret;
				continue;
			}
		} else if (fw_read_file(src, &buf, &len)) {
			err("load: %s: cannot read", src);
			code = FW_EXIT_NOFILE;
			continue;
		}
		ret = write_file(loading, "1", 1);
		if (!ret)
			ret = write_file(data, buf, len);
		if (ret) {
			err("load: %s for %s: %s", want, bus, strerror(-ret));
			write_file(loading, "-1", 2);
			code = FW_EXIT_ERROR;
		} else {
			ret = write_file(loading, "0", 1);
			if (ret) {
				err("load: %s for %s: %s", want, bus,
				    strerror(-ret));
				code = FW_EXIT_ERROR;
			} else {
				if (!o->quiet)
					printf("%s: loaded %s from %s (%zu bytes)\n",
					       bus, want, src, len);
				served++;
			}
		}
		free(buf);
		fflush(stdout);
	}
	closedir(d);
	return code ? -code : served;
}

static int cmd_load(struct opts *o, int argc, char **argv)
{
	time_t last = time(NULL);
	int total = 0, r;

	if (geteuid() != 0) {
		err("load: needs root");
		return FW_EXIT_PERM;
	}
	for (;;) {
		r = load_pending(o, argc, argv);
		if (r < 0)
			return -r;
		if (r) {
			total += r;
			last = time(NULL);
		}
		if (interrupted || time(NULL) - last >= (time_t)o->wait_s)
			break;
		msleep(100);
	}
	if (!total) {
		err("load: no firmware request pending%s%s",
		    o->cards ? " for -i " : "", o->cards ? o->cards : "");
		return FW_EXIT_NODEV;
	}
	return FW_EXIT_OK;
}

/* ---- main ---------------------------------------------------------------------- */

static unsigned int env_uint(const char *name, unsigned int def,
			     unsigned int max)
{
	const char *s = getenv(name);
	unsigned long v;
	char *end;

	if (!s || !*s)
		return def;
	v = strtoul(s, &end, 0);
	return *end || v > max ? def : (unsigned int)v;
}

/* One option; non-zero (after a message) when it is bad. */
static int parse_opt(struct opts *o, int c)
{
	char *end;

	switch (c) {
	case 'i':
		o->cards = optarg;
		return 0;
	case 'k':
		o->kind = fw_kind_parse(optarg);
		if (o->kind == -2) {
			err("unknown kind '%s' (boot-fit, fit)", optarg);
			return -1;
		}
		return 0;
	case 'd':
		o->fw_dir = optarg;
		return 0;
	case 'y':
		o->yes = true;
		return 0;
	case 'f':
		o->force = true;
		return 0;
	case 'w':
		o->wait_s = strtoul(optarg, &end, 10);
		if (*end || !*optarg) {
			err("--wait: not a number of seconds: %s", optarg);
			return -1;
		}
		return 0;
	case 'c':
		o->cancel = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	default:
		usage(stderr);
		return -1;
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "kind", required_argument, NULL, 'k' },
		{ "fw-dir", required_argument, NULL, 'd' },
		{ "yes", no_argument, NULL, 'y' },
		{ "force", no_argument, NULL, 'f' },
		{ "wait", required_argument, NULL, 'w' },
		{ "cancel", no_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct opts o = { .fw_dir = FW_DIR_DEFAULT, .kind = FW_KIND_ANY };
	struct sigaction sa = { .sa_handler = on_signal };
	const char *cmd;
	int c;

	o.chunk = env_uint("GAUDI_FW_CHUNK", DEFAULT_CHUNK,
			   GAUDI_FLASH_XFER_MAX);
	if (!o.chunk)
		o.chunk = DEFAULT_CHUNK;
	o.delay_ms = env_uint("GAUDI_FW_TEST_DELAY_MS", 0, 600000);
	while ((c = getopt_long(argc, argv, "+i:k:d:yfw:cqVh", longopts,
				NULL)) != -1) {
		if (c == 'V') {
			printf("gaudi-fw %s (libgaudi %s)\n", GAUDI_FW_VERSION,
			       gaudi_version());
			return FW_EXIT_OK;
		}
		if (c == 'h') {
			usage(stdout);
			return FW_EXIT_OK;
		}
		if (parse_opt(&o, c))
			return FW_EXIT_USAGE;
	}
	if (optind >= argc) {
		usage(stderr);
		return FW_EXIT_USAGE;
	}
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;
	/* Options may also follow the command: parse what is left again. */
	optind = 0;
	while ((c = getopt_long(argc + 1, argv - 1, "i:k:d:yfw:cq", longopts,
				NULL)) != -1)
		if (parse_opt(&o, c))
			return FW_EXIT_USAGE;
	argc -= optind - 1;
	argv += optind - 1;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (!strcmp(cmd, "verify"))
		return cmd_verify(&o, argc, argv);
	if (!strcmp(cmd, "install"))
		return cmd_install(&o, argc, argv);
	if (!strcmp(cmd, "rollback"))
		return cmd_rollback(&o, argc, argv);
	if (!strcmp(cmd, "info"))
		return cmd_info(&o, argc, argv);
	if (!strcmp(cmd, "flash"))
		return cmd_flash(&o, argc, argv);
	if (!strcmp(cmd, "load"))
		return cmd_load(&o, argc, argv);
	err("unknown command '%s'", cmd);
	usage(stderr);
	return FW_EXIT_USAGE;
}
