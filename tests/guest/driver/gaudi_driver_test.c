// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_driver_test - in-guest acceptance tests of gaudi.ko's user surface
 * (issue 3), written against the upstream-compatible uapi
 * (<drm/habanalabs_accel.h>) and our extensions (uapi/drm/gaudi_accel.h).
 *
 *   --dump control|compute  print the answer of every INFO op (0..47) and
 *                           of the malformed-call shapes as stable text, one
 *                           line each: the suite diffs the dumps of gaudi.ko
 *                           and of the upstream peer (same card). Values that
 *                           change on their own (timestamps, energy, power,
 *                           throughput) are left out or reduced to zero/set.
 *                           Exit 1 when a required op (HW_IP_INFO,
 *                           DEVICE_STATUS operational, HW_IDLE, RESET_COUNT)
 *                           fails.
 *   --negative              TAP: malformed INFO calls, the control node
 *                           refusing compute ioctls, exclusive open with the
 *                           owner reported, extension reserved fields, 100
 *                           close/reopen cycles
 *   --flood N               N bad calls of many kinds (the suite counts the
 *                           dmesg lines they add); exit 1 if one succeeds
 *   --card N                accel minor of the card (default 0)
 *   --ctl-card N            its accel_controlD minor (default: --card; the
 *                           two differ on upstream's driver)
 *
 * Expected errnos are upstream's where upstream has the call (the uapi is
 * binary-compatible) and the ones uapi/drm/gaudi_accel.h documents for ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm/habanalabs_accel.h>

#if __has_include(<drm/gaudi_accel.h>)
#include <drm/gaudi_accel.h>
#define HAVE_GAUDI_UAPI 1
#else
#define HAVE_GAUDI_UAPI 0
#endif

#include "hl_ioctl.h"
#include "tap.h"

#define CANARY		0xA5
#define BIG_BUF		(64U << 10)
#define INFO_OP_LAST	47	/* dump ops 0..47: every upstream op + holes */
#define REOPEN_CYCLES	100
#define HOLDER_COMM	"gaudi_holder"

static int card;
static int ctl_card = -1;	/* control node minor; default: card */
static long page_size;

/* ---- helpers ------------------------------------------------------------ */

static const char *errname(int rc)
{
	static char buf[32];

	switch (-rc) {
	case 0: return "0";
	case EPERM: return "-EPERM";
	case ENOENT: return "-ENOENT";
	case EIO: return "-EIO";
	case EBADF: return "-EBADF";
	case EAGAIN: return "-EAGAIN";
	case ENOMEM: return "-ENOMEM";
	case EACCES: return "-EACCES";
	case EFAULT: return "-EFAULT";
	case EBUSY: return "-EBUSY";
	case ENODEV: return "-ENODEV";
	case EINVAL: return "-EINVAL";
	case ENOSPC: return "-ENOSPC";
	case ENOTTY: return "-ENOTTY";
	case ERANGE: return "-ERANGE";
	case ENOSYS: return "-ENOSYS";
	case ENODATA: return "-ENODATA";
	case ETIMEDOUT: return "-ETIMEDOUT";
	case EOPNOTSUPP: return "-EOPNOTSUPP";
	case ENXIO: return "-ENXIO";
	case E2BIG: return "-E2BIG";
	case EOVERFLOW: return "-EOVERFLOW";
	default:
		snprintf(buf, sizeof(buf), "-%d", -rc);
		return buf;
	}
}

static int info_raw(int fd, uint32_t op, uint64_t ptr, uint32_t size,
		    uint32_t arg, uint32_t pad)
{
	struct hl_info_args a;

	memset(&a, 0, sizeof(a));
	a.return_pointer = ptr;
	a.return_size = size;
	a.op = op;
	a.pll_index = arg;	/* the union: dcore, period, pll, eventfd... */
	a.pad = pad;
	return xioctl(fd, DRM_IOCTL_HL_INFO, &a);
}

static int info(int fd, uint32_t op, void *buf, uint32_t size)
{
	return info_raw(fd, op, (uintptr_t)buf, size, 0, 0);
}

/* Bytes of buf[0..n) written by the kernel: the end of the last byte that
 * differs from CANARY (a written byte equal to CANARY is not seen).
 */
static size_t written_len(const uint8_t *buf, size_t n)
{
	while (n && buf[n - 1] == CANARY)
		n--;
	return n;
}

static uint64_t fnv1a(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int open_path(const char *fmt, int minor, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), fmt, minor);
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int open_compute(void)
{
	return open_path("/dev/accel/accel%d", card, O_RDWR);
}

static int open_control(void)
{
	return open_path("/dev/accel/accel_controlD%d", ctl_card, O_RDWR);
}

/* Two pages: the first read-write, the second PROT_NONE. */
static uint8_t *guarded_pages(void)
{
	uint8_t *p = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + page_size, page_size, PROT_NONE)) {
		munmap(p, 2 * page_size);
		return NULL;
	}
	return p;
}

/* The whole kernel log (klogctl), NUL-terminated; free() it. */
static char *kernel_log(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (len <= 0)
		return NULL;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

static int klog_lines(void)
{
	char *log = kernel_log();
	int n = 0;

	if (!log)
		return -1;
	for (char *p = log; *p; p++)
		n += *p == '\n';
	free(log);
	return n;
}

/* ---- our uapi extensions ------------------------------------------------ */

/*
 * The owner query (DRM_IOCTL_GAUDI_OWNER): state, pid and comm of the
 * process holding the compute node. Returns 0 or -errno; -ENOSYS when the
 * uapi header has no owner query.
 */
static int owner_query(int fd, uint32_t *state, int32_t *pid, char *comm,
		       size_t len)
{
#if HAVE_GAUDI_UAPI && defined(DRM_IOCTL_GAUDI_OWNER)
	struct drm_gaudi_owner o;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = xioctl(fd, DRM_IOCTL_GAUDI_OWNER, &o);
	if (rc)
		return rc;
	*state = o.state;
	*pid = o.pid;
	snprintf(comm, len, "%.*s", (int)sizeof(o.comm), (char *)o.comm);
	return 0;
#else
	(void)fd;
	*state = ~0U;
	*pid = -1;
	snprintf(comm, len, "?");
	return -ENOSYS;
#endif
}

#if HAVE_GAUDI_UAPI && defined(DRM_IOCTL_GAUDI_QUERY_CAPS)
/* One field of an extension struct set to 1 must fail with EINVAL. */
#define EXT_BAD_FIELD(fd, ioc, type, field, node)                            \
	do {                                                                 \
		type ext_arg;                                                \
		int ext_rc;                                                  \
		memset(&ext_arg, 0, sizeof(ext_arg));                        \
		ext_arg.field = 1;                                           \
		ext_rc = xioctl(fd, ioc, &ext_arg);                          \
		ok_eq(ext_rc, -EINVAL,                                       \
		      "%s: " #ioc " with " #field " = 1 fails with EINVAL",  \
		      node);                                                 \
	} while (0)

static void check_ext(int fd, const char *node, bool compute)
{
	struct drm_gaudi_query_caps c;
	struct drm_gaudi_owner o;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = xioctl(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, &c);
	if (ok_eq(rc, 0, "%s: DRM_IOCTL_GAUDI_QUERY_CAPS", node)) {
		ok_eq(c.abi_major, GAUDI_ABI_VERSION_MAJOR,
		      "%s: caps abi_major is %u", node,
		      GAUDI_ABI_VERSION_MAJOR);
		ok((long)c.abi_minor - GAUDI_ABI_VERSION_MINOR >= 0,
		   "%s: caps abi_minor %u >= %u", node, c.abi_minor,
		   GAUDI_ABI_VERSION_MINOR);
		ok((c.caps & (GAUDI_CAP_OWNER | GAUDI_CAP_SYNC_RELEASE |
			      GAUDI_CAP_OPEN_BUSY_OWNER)) ==
		   (GAUDI_CAP_OWNER | GAUDI_CAP_SYNC_RELEASE |
		    GAUDI_CAP_OPEN_BUSY_OWNER),
		   "%s: caps 0x%llx include OWNER, SYNC_RELEASE, OPEN_BUSY_OWNER",
		   node, (unsigned long long)c.caps);
		ok(!c.flags && !c.pad && !c.reserved[0] && !c.reserved[1] &&
		   !c.reserved[2] && !c.reserved[3],
		   "%s: caps flags/pad/reserved written back as 0", node);
		ok((c.info_ops & 1) && (c.info_ops & (1ULL << HL_INFO_DEVICE_STATUS)),
		   "%s: caps info_ops 0x%llx include HW_IP_INFO and DEVICE_STATUS",
		   node, (unsigned long long)c.info_ops);
		/* an op the driver says it does not serve must fail */
		for (uint32_t op = 0; op < 64; op++) {
			uint8_t buf[4096];

			if (c.info_ops & (1ULL << op))
				continue;
			rc = info(fd, op, buf, sizeof(buf));
			if (rc == 0)
				ok(0, "%s: INFO op %u, clear in caps info_ops, fails (rc 0)",
				   node, op);
		}
		ok(!(c.info_ops & ((1ULL << 5) | (1ULL << 19) | (1ULL << 20) |
				   (1ULL << 39) | (1ULL << 41))),
		   "%s: caps info_ops has no bit for the undefined ops 5, 19, 20, 39, 41",
		   node);
	}
	EXT_BAD_FIELD(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, struct drm_gaudi_query_caps,
		      flags, node);
	EXT_BAD_FIELD(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, struct drm_gaudi_query_caps,
		      pad, node);
	EXT_BAD_FIELD(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, struct drm_gaudi_query_caps,
		      reserved[0], node);
	EXT_BAD_FIELD(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, struct drm_gaudi_query_caps,
		      reserved[3], node);
	EXT_BAD_FIELD(fd, DRM_IOCTL_GAUDI_OWNER, struct drm_gaudi_owner, flags,
		      node);
	EXT_BAD_FIELD(fd, DRM_IOCTL_GAUDI_OWNER, struct drm_gaudi_owner,
		      reserved[0], node);
	EXT_BAD_FIELD(fd, DRM_IOCTL_GAUDI_OWNER, struct drm_gaudi_owner,
		      reserved[3], node);
	ok_eq(xioctl(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, NULL), -EFAULT,
	      "%s: QUERY_CAPS with a NULL argument fails with EFAULT", node);
	ok_eq(xioctl(fd, DRM_IOCTL_GAUDI_OWNER, (void *)0x10), -EFAULT,
	      "%s: OWNER with a bad argument pointer fails with EFAULT", node);
	/* Out members given on input are ignored */
	memset(&o, 0, sizeof(o));
	o.state = 7;
	o.pid = -5;
	o.open_counter = ~0ULL;
	rc = xioctl(fd, DRM_IOCTL_GAUDI_OWNER, &o);
	ok(rc == 0 && o.state <= GAUDI_OWNER_HELD && o.pid >= 0 &&
	   o.open_counter != ~0ULL,
	   "%s: OWNER ignores garbage in Out members (rc %s, state %u, pid %d)",
	   node, errname(rc), o.state, o.pid);
	if (compute)
		ok(rc == 0 && o.state == GAUDI_OWNER_HELD && o.pid == getpid(),
		   "%s: OWNER on the compute node names this process (state %u pid %d, want %d)",
		   node, o.state, o.pid, getpid());
}
#else
static void check_ext(int fd, const char *node, bool compute)
{
	(void)fd;
	(void)compute;
	ok(0, "%s: uapi/drm/gaudi_accel.h with QUERY_CAPS and OWNER (%s)",
	   node, HAVE_GAUDI_UAPI ? "header lacks them" : "header missing");
}
#endif

/* ---- --dump -------------------------------------------------------------- */

static const char *const op_names[INFO_OP_LAST + 1] = {
	[HL_INFO_HW_IP_INFO] = "HW_IP_INFO",
	[HL_INFO_HW_EVENTS] = "HW_EVENTS",
	[HL_INFO_DRAM_USAGE] = "DRAM_USAGE",
	[HL_INFO_HW_IDLE] = "HW_IDLE",
	[HL_INFO_DEVICE_STATUS] = "DEVICE_STATUS",
	[HL_INFO_DEVICE_UTILIZATION] = "DEVICE_UTILIZATION",
	[HL_INFO_HW_EVENTS_AGGREGATE] = "HW_EVENTS_AGGREGATE",
	[HL_INFO_CLK_RATE] = "CLK_RATE",
	[HL_INFO_RESET_COUNT] = "RESET_COUNT",
	[HL_INFO_TIME_SYNC] = "TIME_SYNC",
	[HL_INFO_CS_COUNTERS] = "CS_COUNTERS",
	[HL_INFO_PCI_COUNTERS] = "PCI_COUNTERS",
	[HL_INFO_CLK_THROTTLE_REASON] = "CLK_THROTTLE_REASON",
	[HL_INFO_SYNC_MANAGER] = "SYNC_MANAGER",
	[HL_INFO_TOTAL_ENERGY] = "TOTAL_ENERGY",
	[HL_INFO_PLL_FREQUENCY] = "PLL_FREQUENCY",
	[HL_INFO_POWER] = "POWER",
	[HL_INFO_OPEN_STATS] = "OPEN_STATS",
	[HL_INFO_DRAM_REPLACED_ROWS] = "DRAM_REPLACED_ROWS",
	[HL_INFO_DRAM_PENDING_ROWS] = "DRAM_PENDING_ROWS",
	[HL_INFO_LAST_ERR_OPEN_DEV_TIME] = "LAST_ERR_OPEN_DEV_TIME",
	[HL_INFO_CS_TIMEOUT_EVENT] = "CS_TIMEOUT_EVENT",
	[HL_INFO_RAZWI_EVENT] = "RAZWI_EVENT",
	[HL_INFO_DEV_MEM_ALLOC_PAGE_SIZES] = "DEV_MEM_ALLOC_PAGE_SIZES",
	[HL_INFO_SECURED_ATTESTATION] = "SECURED_ATTESTATION",
	[HL_INFO_REGISTER_EVENTFD] = "REGISTER_EVENTFD",
	[HL_INFO_UNREGISTER_EVENTFD] = "UNREGISTER_EVENTFD",
	[HL_INFO_GET_EVENTS] = "GET_EVENTS",
	[HL_INFO_UNDEFINED_OPCODE_EVENT] = "UNDEFINED_OPCODE_EVENT",
	[HL_INFO_ENGINE_STATUS] = "ENGINE_STATUS",
	[HL_INFO_PAGE_FAULT_EVENT] = "PAGE_FAULT_EVENT",
	[HL_INFO_USER_MAPPINGS] = "USER_MAPPINGS",
	[HL_INFO_FW_GENERIC_REQ] = "FW_GENERIC_REQ",
	[HL_INFO_HW_ERR_EVENT] = "HW_ERR_EVENT",
	[HL_INFO_FW_ERR_EVENT] = "FW_ERR_EVENT",
	[HL_INFO_USER_ENGINE_ERR_EVENT] = "USER_ENGINE_ERR_EVENT",
	[HL_INFO_DEV_SIGNED] = "DEV_SIGNED",
};

static const char *op_name(uint32_t op)
{
	static char buf[24];

	if (op <= INFO_OP_LAST && op_names[op])
		return op_names[op];
	snprintf(buf, sizeof(buf), "op%u", op);
	return buf;
}

static uint8_t *dump_buf;	/* BIG_BUF bytes */

/*
 * The last-error captures (razwi, page fault, ...): upstream answers 0 and
 * copies nothing when nothing was captured, a driver may as well copy
 * zeros; both read as all-zero from a zeroed buffer.
 */
static bool zero_fill_op(uint32_t op)
{
	switch (op) {
	case HL_INFO_LAST_ERR_OPEN_DEV_TIME:
	case HL_INFO_CS_TIMEOUT_EVENT:
	case HL_INFO_RAZWI_EVENT:
	case HL_INFO_UNDEFINED_OPCODE_EVENT:
	case HL_INFO_PAGE_FAULT_EVENT:
	case HL_INFO_HW_ERR_EVENT:
	case HL_INFO_FW_ERR_EVENT:
	case HL_INFO_USER_ENGINE_ERR_EVENT:
		return true;
	default:
		return false;
	}
}

/*
 * The ops every driver answers on both nodes of an operational card
 * (upstream's _hl_info_ioctl serves them on the control node too): a dump
 * in which one of them fails is not a dump of a working driver, and --dump
 * exits 1 (the suite's "INFO dump" checks), whatever the diff says.
 */
static bool required_op(uint32_t op)
{
	return op == HL_INFO_HW_IP_INFO || op == HL_INFO_DEVICE_STATUS ||
	       op == HL_INFO_HW_IDLE || op == HL_INFO_RESET_COUNT;
}

static unsigned int dump_required_failed;

/* One INFO call into a canary-filled buffer; prints "NAME[suffix]: rc=..". */
static int dump_call(int fd, uint32_t op, uint32_t size, uint32_t arg,
		     const char *suffix)
{
	int rc;

	memset(dump_buf, zero_fill_op(op) ? 0 : CANARY, BIG_BUF);
	rc = info_raw(fd, op, (uintptr_t)dump_buf, size, arg, 0);
	printf("%s%s: rc=%s", op_name(op), suffix, errname(rc));
	if (rc && !*suffix && required_op(op))
		dump_required_failed++;
	return rc;
}

static void dump_bytes(size_t n)
{
	size_t w = written_len(dump_buf, n);

	printf(" written=%zu fnv=%016llx", w,
	       (unsigned long long)fnv1a(dump_buf, w));
}

static void dump_events(uint32_t op, int fd, uint32_t num)
{
	const uint32_t *ev = (const uint32_t *)dump_buf;
	unsigned int nz = 0;

	if (dump_call(fd, op, num * 4, 0, "") == 0) {
		printf(" written=%zu", written_len(dump_buf, BIG_BUF));
		for (uint32_t i = 0; i < num; i++)
			if (ev[i])
				printf(" %s%u=%u", nz++ ? "" : "nonzero:", i,
				       ev[i]);
	}
	putchar('\n');
}

static void dump_hw_ip(int fd, uint32_t *num_events)
{
	struct hl_info_hw_ip_info *h = (void *)dump_buf;

	*num_events = 0;
	if (dump_call(fd, HL_INFO_HW_IP_INFO, sizeof(*h), 0, "") == 0) {
		h->cpucp_version[sizeof(h->cpucp_version) - 1] = 0;
		h->card_name[sizeof(h->card_name) - 1] = 0;
		printf(" sram_base=0x%llx dram_base=0x%llx dram_size=0x%llx"
		       " sram_size=0x%x num_of_events=%u device_id=0x%x"
		       " module_id=%u decoder_mask=0x%x first_irq=%u"
		       " server_type=%u cpld=0x%x pll_nr=%u pll_nf=%u"
		       " pll_od=%u pll_div=%u tpc_mask=0x%x dram_enabled=%u"
		       " security=%u mme_ms=%u cpucp='%s' card_name='%s'"
		       " tpc_mask_ext=0x%llx dram_page=0x%llx edma=0x%x"
		       " user_irqs=%u alloc_page=0x%llx revision=%u"
		       " tpc_irq=%u rot=0x%x core_irq=0x%llx"
		       " reserved_dram=0x%llx",
		       (unsigned long long)h->sram_base_address,
		       (unsigned long long)h->dram_base_address,
		       (unsigned long long)h->dram_size, h->sram_size,
		       h->num_of_events, h->device_id, h->module_id,
		       h->decoder_enabled_mask,
		       h->first_available_interrupt_id, h->server_type,
		       h->cpld_version, h->psoc_pci_pll_nr,
		       h->psoc_pci_pll_nf, h->psoc_pci_pll_od,
		       h->psoc_pci_pll_div_factor, h->tpc_enabled_mask,
		       h->dram_enabled, h->security_enabled,
		       h->mme_master_slave_mode, (char *)h->cpucp_version,
		       (char *)h->card_name,
		       (unsigned long long)h->tpc_enabled_mask_ext,
		       (unsigned long long)h->dram_page_size,
		       h->edma_enabled_mask, h->number_of_user_interrupts,
		       (unsigned long long)h->device_mem_alloc_default_page_size,
		       h->revision_id, h->tpc_interrupt_id,
		       h->rotator_enabled_mask,
		       (unsigned long long)h->engine_core_interrupt_reg_addr,
		       (unsigned long long)h->reserved_dram_size);
		*num_events = h->num_of_events;
		if (*num_events > BIG_BUF / 4)
			*num_events = BIG_BUF / 4;
	}
	putchar('\n');
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * ENGINE_STATUS answers free text (a table per engine class, formatted by
 * each driver its own way; upstream's even holds NUL bytes). Compared here
 * by content: how many engines read idle ("Y") or busy ("N") and the
 * multiset of the register values shown (hex numbers, compared as numbers).
 * The raw text follows as comment lines ("# ..."), which the suite does not
 * diff.
 */
static void dump_engine_status(uint32_t len)
{
	static uint64_t vals[1024];
	unsigned int nv = 0, yes = 0, no = 0;
	char *text, *tok, *save;

	if (len > BIG_BUF - 1)
		len = BIG_BUF - 1;
	text = malloc(len + 1);
	if (!text)
		exit(1);
	for (uint32_t i = 0; i < len; i++)	/* NULs become blanks */
		text[i] = dump_buf[i] ? (char)dump_buf[i] : ' ';
	text[len] = 0;
	printf(" text=%s", len ? "yes" : "empty");
	for (tok = strtok_r(text, " \t\n|", &save); tok;
	     tok = strtok_r(NULL, " \t\n|", &save)) {
		if (!strcmp(tok, "Y"))
			yes++;
		else if (!strcmp(tok, "N"))
			no++;
		else if (!strncmp(tok, "0x", 2) && nv < 1024)
			vals[nv++] = strtoull(tok, NULL, 16);
	}
	qsort(vals, nv, sizeof(vals[0]), cmp_u64);
	printf(" idle=%u busy=%u values:", yes, no);
	for (unsigned int i = 0, j; i < nv; i = j) {
		for (j = i; j < nv && vals[j] == vals[i]; j++)
			;
		printf(" 0x%llx*%u", (unsigned long long)vals[i], j - i);
	}
	putchar('\n');
	fputs("# ENGINE_STATUS| ", stdout);
	for (uint32_t i = 0; i < len; i++) {
		uint8_t ch = dump_buf[i];

		if (ch == '\n')
			fputs("\n# ENGINE_STATUS| ", stdout);
		else if (ch < 0x20 || ch > 0x7e)
			printf("\\x%02x", ch);
		else
			putchar(ch);
	}
	putchar('\n');
	free(text);
}

/* Ops whose answer is one struct, printed field by field. */
static void dump_struct_op(int fd, uint32_t op)
{
	void *b = dump_buf;
	char sfx[24];
	int rc;

	switch (op) {
	case HL_INFO_DRAM_USAGE: {
		struct hl_info_dram_usage *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" free=0x%llx ctx=0x%llx",
			       (unsigned long long)d->dram_free_mem,
			       (unsigned long long)d->ctx_dram_mem);
		break;
	}
	case HL_INFO_HW_IDLE: {
		struct hl_info_hw_idle *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, "")) {
			printf(" is_idle=%u busy=0x%x ext=", d->is_idle,
			       d->busy_engines_mask);
			for (int i = 0; i < HL_BUSY_ENGINES_MASK_EXT_SIZE; i++)
				printf("%s0x%llx", i ? "," : "",
				       (unsigned long long)d->busy_engines_mask_ext[i]);
		}
		break;
	}
	case HL_INFO_DEVICE_STATUS: {
		struct hl_info_device_status *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, "")) {
			printf(" status=%u", d->status);
			if (d->status != HL_DEVICE_STATUS_OPERATIONAL)
				dump_required_failed++;
		}
		break;
	}
	case HL_INFO_DEVICE_UTILIZATION: {
		struct hl_info_device_utilization *d = b;

		/* period_ms must be 100..1000 in steps of 100 */
		dump_call(fd, op, sizeof(*d), 0, "[period=0]");
		putchar('\n');
		dump_call(fd, op, sizeof(*d), 150, "[period=150]");
		putchar('\n');
		/*
		 * The value is derived from the power reading, which the
		 * drivers scale differently (Documentation/upstream-peer.rst:
		 * upstream takes the firmware's uW for mW and reads 100 % on an
		 * idle card): compare only that it is a percentage.
		 */
		if (!dump_call(fd, op, sizeof(*d), 100, "[period=100]"))
			printf(" utilization=%s", d->utilization <= 100 ?
			       "0..100" : "out-of-range");
		break;
	}
	case HL_INFO_CLK_RATE: {
		struct hl_info_clk_rate *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" cur=%u max=%u", d->cur_clk_rate_mhz,
			       d->max_clk_rate_mhz);
		break;
	}
	case HL_INFO_RESET_COUNT: {
		struct hl_info_reset_count *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" hard=%u soft=%u", d->hard_reset_cnt,
			       d->soft_reset_cnt);
		break;
	}
	case HL_INFO_TIME_SYNC: {
		struct hl_info_time_sync *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" device_time_set=%d host_time_set=%d",
			       d->device_time != 0, d->host_time != 0);
		break;
	}
	case HL_INFO_CS_COUNTERS: {
		struct hl_info_cs_counters *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" oom=%llu/%llu parse=%llu/%llu qfull=%llu/%llu"
			       " reset=%llu/%llu inflight=%llu/%llu"
			       " valid=%llu/%llu",
			       (unsigned long long)d->total_out_of_mem_drop_cnt,
			       (unsigned long long)d->ctx_out_of_mem_drop_cnt,
			       (unsigned long long)d->total_parsing_drop_cnt,
			       (unsigned long long)d->ctx_parsing_drop_cnt,
			       (unsigned long long)d->total_queue_full_drop_cnt,
			       (unsigned long long)d->ctx_queue_full_drop_cnt,
			       (unsigned long long)d->total_device_in_reset_drop_cnt,
			       (unsigned long long)d->ctx_device_in_reset_drop_cnt,
			       (unsigned long long)d->total_max_cs_in_flight_drop_cnt,
			       (unsigned long long)d->ctx_max_cs_in_flight_drop_cnt,
			       (unsigned long long)d->total_validation_drop_cnt,
			       (unsigned long long)d->ctx_validation_drop_cnt);
		break;
	}
	case HL_INFO_PCI_COUNTERS: {
		struct hl_info_pci_counters *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" replay=%llu",
			       (unsigned long long)d->replay_cnt);
		break;
	}
	case HL_INFO_CLK_THROTTLE_REASON: {
		struct hl_info_clk_throttle *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" reason=0x%x", d->clk_throttling_reason);
		break;
	}
	case HL_INFO_SYNC_MANAGER:
		for (uint32_t dc = 0; dc <= 4; dc++) {
			struct hl_info_sync_manager *d = b;

			snprintf(sfx, sizeof(sfx), "[dcore=%u]", dc);
			if (!dump_call(fd, op, sizeof(*d), dc, sfx))
				printf(" sob=%u mon=%u cq=%u",
				       d->first_available_sync_object,
				       d->first_available_monitor,
				       d->first_available_cq);
			if (dc < 4)
				putchar('\n');
		}
		break;
	case HL_INFO_TOTAL_ENERGY: {
		struct hl_info_energy *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" energy_set=%d",
			       d->total_energy_consumption != 0);
		break;
	}
	case HL_INFO_PLL_FREQUENCY:
		for (uint32_t p = 0; p <= HL_GAUDI_PLL_MAX; p++) {
			struct hl_pll_frequency_info *d = b;

			snprintf(sfx, sizeof(sfx), "[pll=%u]", p);
			if (!dump_call(fd, op, sizeof(*d), p, sfx))
				printf(" out=%u,%u,%u,%u", d->output[0],
				       d->output[1], d->output[2],
				       d->output[3]);
			if (p < HL_GAUDI_PLL_MAX)
				putchar('\n');
		}
		break;
	case HL_INFO_POWER: {
		struct hl_power_info *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" power_set=%d", d->power != 0);
		break;
	}
	case HL_INFO_OPEN_STATS: {
		struct hl_open_stats_info *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" open_counter=%llu active=%u in_release=%u",
			       (unsigned long long)d->open_counter,
			       d->is_compute_ctx_active,
			       d->compute_ctx_in_release);
		break;
	}
	case HL_INFO_DRAM_PENDING_ROWS: {
		uint32_t *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" pending=%u", *d);
		break;
	}
	case HL_INFO_LAST_ERR_OPEN_DEV_TIME: {
		struct hl_info_last_err_open_dev_time *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d", d->timestamp != 0);
		break;
	}
	case HL_INFO_CS_TIMEOUT_EVENT: {
		struct hl_info_cs_timeout_event *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d seq=%llu",
			       d->timestamp != 0,
			       (unsigned long long)d->seq);
		break;
	}
	case HL_INFO_RAZWI_EVENT: {
		struct hl_info_razwi_event *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d addr=0x%llx engines=%u"
			       " engine0=%u flags=0x%x", d->timestamp != 0,
			       (unsigned long long)d->addr,
			       d->num_of_possible_engines, d->engine_id[0],
			       d->flags);
		break;
	}
	case HL_INFO_DEV_MEM_ALLOC_PAGE_SIZES: {
		struct hl_info_dev_memalloc_page_sizes *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" mask=0x%llx",
			       (unsigned long long)d->page_order_bitmask);
		break;
	}
	case HL_INFO_GET_EVENTS: {
		uint64_t *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" events=0x%llx", (unsigned long long)*d);
		break;
	}
	case HL_INFO_UNDEFINED_OPCODE_EVENT: {
		struct hl_info_undefined_opcode_event *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d cq_addr=0x%llx cq_size=%u"
			       " streams=%u engine=%u stream=%u",
			       d->timestamp != 0,
			       (unsigned long long)d->cq_addr, d->cq_size,
			       d->cb_addr_streams_len, d->engine_id,
			       d->stream_id);
		break;
	}
	case HL_INFO_PAGE_FAULT_EVENT: {
		struct hl_page_fault_info *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d addr=0x%llx engine=%u",
			       d->timestamp != 0,
			       (unsigned long long)d->addr, d->engine_id);
		break;
	}
	case HL_INFO_HW_ERR_EVENT: {
		struct hl_info_hw_err_event *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d event=%u",
			       d->timestamp != 0, d->event_id);
		break;
	}
	case HL_INFO_FW_ERR_EVENT: {
		struct hl_info_fw_err_event *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d type=%u event=%u",
			       d->timestamp != 0, d->err_type, d->event_id);
		break;
	}
	case HL_INFO_USER_ENGINE_ERR_EVENT: {
		struct hl_info_engine_err_event *d = b;

		if (!dump_call(fd, op, sizeof(*d), 0, ""))
			printf(" timestamp_set=%d engine=%u count=%u",
			       d->timestamp != 0, d->engine_id,
			       d->error_count);
		break;
	}
	case HL_INFO_REGISTER_EVENTFD: {
		int efd = eventfd(0, EFD_CLOEXEC);

		rc = dump_call(fd, op, 0, (uint32_t)efd, "");
		putchar('\n');
		if (!rc) {
			rc = dump_call(fd, op, 0, (uint32_t)efd, "[again]");
			putchar('\n');
		}
		dump_call(fd, HL_INFO_UNREGISTER_EVENTFD, 0, 0, "[after register]");
		putchar('\n');
		dump_call(fd, HL_INFO_UNREGISTER_EVENTFD, 0, 0, "[twice]");
		close(efd);
		break;
	}
	case HL_INFO_ENGINE_STATUS: {
		/* the text answer of every engine: upstream prints a table */
		struct hl_info_args a;

		memset(dump_buf, CANARY, BIG_BUF);
		memset(&a, 0, sizeof(a));
		a.return_pointer = (uintptr_t)dump_buf;
		a.return_size = BIG_BUF;
		a.op = op;
		rc = xioctl(fd, DRM_IOCTL_HL_INFO, &a);
		printf("%s: rc=%s", op_name(op), errname(rc));
		if (!rc) {
			dump_engine_status(a.user_buffer_actual_size);
			return;
		}
		break;
	}
	default:
		/* Unknown layout or side effects: rc and what was written. */
		if (!dump_call(fd, op, page_size, 0, ""))
			dump_bytes(BIG_BUF);
		break;
	}
	putchar('\n');
}

/* Malformed shapes whose answer must match upstream's (binary compat). */
static void dump_shapes(int fd)
{
	struct hl_info_hw_ip_info *h = (void *)dump_buf;
	uint8_t *g = guarded_pages();
	int rc;

	dump_call(fd, HL_INFO_HW_IP_INFO, 8, 0, "[size=8]");
	dump_bytes(BIG_BUF);
	putchar('\n');
	if (!dump_call(fd, HL_INFO_HW_IP_INFO, BIG_BUF, 0, "[size=64K]")) {
		/*
		 * reserved4/5 are Habana's nic_ports_mask and
		 * nic_ports_external_mask: gaudi.ko reports the ports,
		 * upstream's driver none (gaudi-uapi.rst; the nic suite
		 * checks them): left out of the comparison.
		 */
		h->reserved4 = 0;
		h->reserved5 = 0;
	}
	dump_bytes(BIG_BUF);
	printf(" of sizeof=%zu\n", sizeof(*h));
	dump_call(fd, HL_INFO_DEVICE_STATUS, 1, 0, "[size=1]");
	dump_bytes(BIG_BUF);
	putchar('\n');
	dump_call(fd, HL_INFO_DEVICE_STATUS, 0, 0, "[size=0]");
	putchar('\n');
	printf("HW_IP_INFO[NULL]: rc=%s\n",
	       errname(info_raw(fd, HL_INFO_HW_IP_INFO, 0, sizeof(*h), 0, 0)));
	printf("HW_IP_INFO[pad=1]: rc=%s\n",
	       errname(info_raw(fd, HL_INFO_HW_IP_INFO, (uintptr_t)dump_buf,
				sizeof(*h), 0, 1)));
	printf("HW_IP_INFO[misaligned+1]: rc=%s\n",
	       errname(info_raw(fd, HL_INFO_HW_IP_INFO,
				(uintptr_t)dump_buf + 1, sizeof(*h), 0, 0)));
	if (g) {
		rc = info_raw(fd, HL_INFO_HW_IP_INFO,
			      (uintptr_t)g + page_size, sizeof(*h), 0, 0);
		printf("HW_IP_INFO[PROT_NONE]: rc=%s\n", errname(rc));
		rc = info_raw(fd, HL_INFO_HW_IP_INFO,
			      (uintptr_t)g + page_size - sizeof(*h),
			      0xFFFFFFFFU, 0, 0);
		printf("HW_IP_INFO[size=4G,buffer ends at a PROT_NONE page]: rc=%s\n",
		       errname(rc));
		munmap(g, 2 * page_size);
	}
}

/* The dump; 1 when a required op failed or stdout could not be written. */
static int run_dump(const char *node)
{
	uint32_t num_events = 0;
	int fd;

	fd = strcmp(node, "compute") ? open_control() : open_compute();
	if (fd < 0) {
		fprintf(stderr, "gaudi_driver_test: open %s node of card %d/%d: %s\n",
			node, card, ctl_card, strerror(-fd));
		exit(1);
	}
	dump_buf = malloc(BIG_BUF);
	if (!dump_buf)
		exit(1);
	printf("# INFO dump, %s node\n", node);
	dump_hw_ip(fd, &num_events);
	for (uint32_t op = 1; op <= INFO_OP_LAST; op++) {
		if (op == HL_INFO_HW_EVENTS || op == HL_INFO_HW_EVENTS_AGGREGATE)
			dump_events(op, fd, num_events);
		else if (op == HL_INFO_UNREGISTER_EVENTFD)
			continue;	/* with REGISTER_EVENTFD */
		else
			dump_struct_op(fd, op);
	}
	printf("op0xFFFF: rc=%s\n",
	       errname(info_raw(fd, 0xFFFF, (uintptr_t)dump_buf, 64, 0, 0)));
	dump_shapes(fd);
	close(fd);
	if (dump_required_failed)
		fprintf(stderr, "gaudi_driver_test: %u required INFO answers failed (HW_IP_INFO, DEVICE_STATUS operational, HW_IDLE, RESET_COUNT)\n",
			dump_required_failed);
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return dump_required_failed ? 1 : 0;
}

/* ---- --negative ---------------------------------------------------------- */

static void neg_info(int fd, const char *node)
{
	struct hl_info_hw_ip_info ref, *h;
	struct hl_info_device_status st;
	uint8_t *big = malloc(BIG_BUF), *g = guarded_pages(), *ro;
	size_t w;
	int rc;

	if (!big || !g) {
		ok(0, "%s: test buffers", node);
		return;
	}
	memset(&ref, 0, sizeof(ref));
	if (!ok_eq(info(fd, HL_INFO_HW_IP_INFO, &ref, sizeof(ref)), 0,
		   "%s: INFO HW_IP_INFO (reference answer)", node))
		return;

	/* unknown ops */
	static const uint32_t bad_ops[] = { 5, 19, 20, 39, 41, 200, 0xFFFF,
					    0xFFFFFFFF };
	for (size_t i = 0; i < sizeof(bad_ops) / sizeof(bad_ops[0]); i++) {
		memset(big, CANARY, 256);
		rc = info(fd, bad_ops[i], big, 256);
		ok(rc == -EINVAL && written_len(big, 256) == 0,
		   "%s: unknown INFO op %u fails with EINVAL and writes nothing (rc %s, wrote %zu)",
		   node, bad_ops[i], errname(rc), written_len(big, 256));
	}

	/* size 0 and short sizes: upstream semantics are snprintf-like */
	memset(big, CANARY, BIG_BUF);
	ok_eq(info(fd, HL_INFO_HW_IP_INFO, big, 0), -EINVAL,
	      "%s: return_size 0 fails with EINVAL", node);
	ok_eq(written_len(big, BIG_BUF), 0, "%s: ... and writes nothing", node);
	for (uint32_t sz = 1; sz <= 64; sz *= 4) {
		memset(big, CANARY, BIG_BUF);
		rc = info(fd, HL_INFO_HW_IP_INFO, big, sz);
		w = written_len(big, BIG_BUF);
		ok(rc == 0 && w <= sz && !memcmp(big, &ref, w) &&
		   (sz < 8 || w > 0),
		   "%s: short return_size %u: rc 0, writes only the first %u bytes of the answer (rc %s, wrote %zu)",
		   node, sz, sz, errname(rc), w);
	}
	/* a short buffer that ends at an inaccessible page */
	rc = info(fd, HL_INFO_HW_IP_INFO, g + page_size - 16, 16);
	ok(rc == 0 && !memcmp(g + page_size - 16, &ref, 16),
	   "%s: return_size 16 in the last 16 bytes before a PROT_NONE page works (rc %s)",
	   node, errname(rc));

	/* oversized sizes */
	memset(big, CANARY, BIG_BUF);
	rc = info(fd, HL_INFO_HW_IP_INFO, big, BIG_BUF);
	w = written_len(big, BIG_BUF);
	ok(rc == 0 && w <= sizeof(ref) && !memcmp(big, &ref, sizeof(ref)),
	   "%s: return_size 64 KiB: rc 0, the answer and nothing past sizeof (%zu) (rc %s, wrote %zu)",
	   node, sizeof(ref), errname(rc), w);
	rc = info(fd, HL_INFO_HW_IP_INFO, g + page_size - sizeof(ref),
		  0xFFFFFFFFU);
	ok(rc == 0 && !memcmp(g + page_size - sizeof(ref), &ref, sizeof(ref)),
	   "%s: return_size 4 GiB-1 with the struct ending at a PROT_NONE page: rc 0, no write past the struct (rc %s)",
	   node, errname(rc));
	memset(big, CANARY, BIG_BUF);
	rc = info(fd, HL_INFO_DEVICE_STATUS, big, BIG_BUF);
	ok(rc == 0 && written_len(big, BIG_BUF) <= sizeof(st),
	   "%s: DEVICE_STATUS with return_size 64 KiB writes at most %zu bytes (rc %s)",
	   node, sizeof(st), errname(rc));

	/* NULL, misaligned, unmapped, read-only and kernel pointers */
	ok_eq(info_raw(fd, HL_INFO_HW_IP_INFO, 0, sizeof(ref), 0, 0), -EINVAL,
	      "%s: NULL return_pointer fails with EINVAL", node);
	ok_eq(info_raw(fd, HL_INFO_DEVICE_STATUS, 0, 8, 0, 0), -EINVAL,
	      "%s: NULL return_pointer (DEVICE_STATUS) fails with EINVAL",
	      node);
	for (int off = 1; off < 8; off += 2) {
		memset(big, CANARY, BIG_BUF);
		rc = info(fd, HL_INFO_HW_IP_INFO, big + off, sizeof(ref));
		ok(rc == 0 && !memcmp(big + off, &ref, sizeof(ref)) &&
		   written_len(big, BIG_BUF) <= off + sizeof(ref) &&
		   big[0] == CANARY,
		   "%s: return_pointer misaligned by %d: rc 0, same answer, nothing outside (rc %s)",
		   node, off, errname(rc));
	}
	ok_eq(info(fd, HL_INFO_HW_IP_INFO, g + page_size, sizeof(ref)), -EFAULT,
	      "%s: return_pointer in a PROT_NONE page fails with EFAULT", node);
	ok_eq(info(fd, HL_INFO_HW_IP_INFO, g + page_size - 8, sizeof(ref)),
	      -EFAULT,
	      "%s: buffer running into a PROT_NONE page fails with EFAULT",
	      node);
	ro = mmap(NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro != MAP_FAILED) {
		ok_eq(info(fd, HL_INFO_HW_IP_INFO, ro, sizeof(ref)), -EFAULT,
		      "%s: read-only return_pointer fails with EFAULT", node);
		munmap(ro, page_size);
	}
	ok_eq(info_raw(fd, HL_INFO_HW_IP_INFO, 0xffff888000000000ULL,
		       sizeof(ref), 0, 0), -EFAULT,
	      "%s: kernel-address return_pointer fails with EFAULT", node);
	ok_eq(info_raw(fd, HL_INFO_HW_IP_INFO, 0x8000000000000000ULL,
		       sizeof(ref), 0, 0), -EFAULT,
	      "%s: non-canonical return_pointer fails with EFAULT", node);

	/* pad */
	memset(big, CANARY, BIG_BUF);
	ok_eq(info_raw(fd, HL_INFO_HW_IP_INFO, (uintptr_t)big, sizeof(ref), 0,
		       1), -EINVAL, "%s: hl_info_args.pad != 0 fails with EINVAL",
	      node);
	ok_eq(info_raw(fd, HL_INFO_DEVICE_STATUS, (uintptr_t)big, 8, 0,
		       0x80000000U), -EINVAL,
	      "%s: hl_info_args.pad bit 31 fails with EINVAL", node);
	ok_eq(written_len(big, BIG_BUF), 0, "%s: ... and nothing is written",
	      node);

	/* the device still answers correctly after all this */
	h = (void *)big;
	memset(big, 0, BIG_BUF);
	ok(info(fd, HL_INFO_HW_IP_INFO, h, sizeof(*h)) == 0 &&
	   !memcmp(h, &ref, sizeof(ref)),
	   "%s: HW_IP_INFO unchanged after the malformed calls", node);
	munmap(g, 2 * page_size);
	free(big);
}

/* Compute ioctls with well-formed arguments: the control node refuses. */
static void neg_control_refuses(int fd)
{
	union hl_cb_args cb;
	union hl_cs_args cs;
	union hl_wait_cs_args w;
	union hl_mem_args m;
	struct hl_debug_args d;

	memset(&cb, 0, sizeof(cb));
	cb.in.op = HL_CB_OP_CREATE;
	cb.in.cb_size = 4096;
	ok_eq(xioctl(fd, DRM_IOCTL_HL_CB, &cb), -ENOTTY,
	      "control node: CB create fails with ENOTTY");
	ok_eq(cb.out.cb_handle, 0, "control node: no CB handle returned");
	memset(&cs, 0, sizeof(cs));
	ok_eq(xioctl(fd, DRM_IOCTL_HL_CS, &cs), -ENOTTY,
	      "control node: CS fails with ENOTTY");
	memset(&w, 0, sizeof(w));
	w.in.seq = 1;
	w.in.timeout_us = 1000;
	ok_eq(xioctl(fd, DRM_IOCTL_HL_WAIT_CS, &w), -ENOTTY,
	      "control node: WAIT_CS fails with ENOTTY");
	memset(&m, 0, sizeof(m));
	m.in.op = HL_MEM_OP_ALLOC;
	m.in.alloc.mem_size = 4096;
	ok_eq(xioctl(fd, DRM_IOCTL_HL_MEMORY, &m), -ENOTTY,
	      "control node: MEMORY fails with ENOTTY");
	memset(&d, 0, sizeof(d));
	ok_eq(xioctl(fd, DRM_IOCTL_HL_DEBUG, &d), -ENOTTY,
	      "control node: DEBUG fails with ENOTTY");
}

/*
 * sysfs owner of this card (GAUDI_CAP_OPEN_BUSY_OWNER: an "owner" directory
 * of the PCI device with pid and comm). Returns 0 and both, or -errno.
 */
static int sysfs_owner(char *pid, char *comm, size_t len)
{
	char path[256];
	char *out[2] = { pid, comm };
	static const char *const name[2] = { "pid", "comm" };
	ssize_t n;
	int fd;

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/owner/%s",
			 card, name[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = read(fd, out[i], len - 1);
		close(fd);
		out[i][n > 0 ? n : 0] = 0;
		out[i][strcspn(out[i], "\n")] = 0;
	}
	return 0;
}

static void neg_exclusive(int fd_ctl)
{
	int to_child[2], from_child[2], fd2, rc, st;
	char comm[64], spid[64], scomm[64], needle[64], c = 0, *log;
	uint32_t state = 0;
	int32_t pid = 0;
	pid_t child;

	if (pipe(to_child) || pipe(from_child)) {
		ok(0, "pipes");
		return;
	}
	child = fork();
	if (child == 0) {
		int fd;

		prctl(PR_SET_NAME, HOLDER_COMM);
		fd = open_compute();
		c = fd >= 0 ? 'y' : 'n';
		if (write(from_child[1], &c, 1) != 1)
			_exit(2);
		if (read(to_child[0], &c, 1) < 0)
			_exit(2);
		_exit(fd >= 0 ? 0 : 1);
	}
	if (read(from_child[0], &c, 1) != 1 || c != 'y') {
		ok(0, "holder process (%s) opens the compute node", HOLDER_COMM);
		goto out;
	}
	ok(1, "holder process %d (%s) opens the compute node", child,
	   HOLDER_COMM);
	fd2 = open_compute();
	ok_eq(fd2, -EBUSY, "a second opener of the compute node gets EBUSY");
	if (fd2 >= 0)
		close(fd2);
	fd2 = open_compute();
	ok_eq(fd2, -EBUSY, "and again EBUSY (no state change by the refusal)");
	if (fd2 >= 0)
		close(fd2);

	/* the control node stays usable */
	{
		struct hl_info_device_status ds = { .status = ~0U };

		ok(info(fd_ctl, HL_INFO_DEVICE_STATUS, &ds, sizeof(ds)) == 0 &&
		   ds.status == HL_DEVICE_STATUS_OPERATIONAL,
		   "control node answers DEVICE_STATUS operational while the compute node is held");
	}
	fd2 = open_control();
	ok(fd2 >= 0, "a new control node open works while the compute node is held (%s)",
	   fd2 >= 0 ? "ok" : strerror(-fd2));
	if (fd2 >= 0)
		close(fd2);

	/* the owner: our query (both nodes serve it), sysfs, kernel log */
	rc = owner_query(fd_ctl, &state, &pid, comm, sizeof(comm));
	if (ok_eq(rc, 0, "owner query on the control node (%s)", errname(rc))) {
		ok_eq(state, 1, "owner query: state HELD");
		ok_eq(pid, child, "owner query reports the holder's pid");
		ok(!strcmp(comm, HOLDER_COMM),
		   "owner query reports the holder's comm ('%s')", comm);
	}
	rc = sysfs_owner(spid, scomm, sizeof(spid));
	if (ok_eq(rc, 0, "sysfs device/owner/{pid,comm} readable (%s)",
		  errname(rc))) {
		snprintf(needle, sizeof(needle), "%d", child);
		ok(!strcmp(spid, needle) && !strcmp(scomm, HOLDER_COMM),
		   "sysfs owner is pid %s comm '%s' (want %d %s)", spid, scomm,
		   child, HOLDER_COMM);
	}
	log = kernel_log();
	snprintf(needle, sizeof(needle), "%d", child);
	ok(log && strstr(log, HOLDER_COMM) && strstr(log, needle),
	   "kernel log names the holder (pid %d, %s) after the refused open",
	   child, HOLDER_COMM);
	free(log);

	/* release: the holder exits, the node opens again at once */
	c = 'x';
	if (write(to_child[1], &c, 1) != 1)
		tap_diag("write to holder: %s", strerror(errno));
	waitpid(child, &st, 0);
	child = 0;
	fd2 = open_compute();
	ok(fd2 >= 0, "after the holder exits the compute node opens at once (%s)",
	   fd2 >= 0 ? "ok" : errname(fd2));
	if (fd2 >= 0)
		close(fd2);
	rc = owner_query(fd_ctl, &state, &pid, comm, sizeof(comm));
	ok(rc == 0 && state == 0 && pid == 0 && !comm[0],
	   "owner query reports FREE, pid 0, no comm once the node is free (rc %s, state %u, pid %d, '%s')",
	   errname(rc), state, pid, comm);
	rc = sysfs_owner(spid, scomm, sizeof(spid));
	ok(rc == 0 && (!strcmp(spid, "0") || !spid[0]),
	   "sysfs owner shows no pid once the node is free (rc %s, '%s')",
	   errname(rc), rc ? "-" : spid);
out:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, &st, 0);
	}
	close(to_child[0]);
	close(to_child[1]);
	close(from_child[0]);
	close(from_child[1]);
}

static void neg_reopen(int fd_ctl)
{
	struct hl_open_stats_info s0, s1, os;
	int fd, good = 0, active = 0, first_err = 0;

	memset(&s0, 0, sizeof(s0));
	memset(&s1, 0, sizeof(s1));
	info(fd_ctl, HL_INFO_OPEN_STATS, &s0, sizeof(s0));
	for (int i = 0; i < REOPEN_CYCLES; i++) {
		fd = open_compute();
		if (fd < 0) {
			if (!first_err)
				first_err = fd;
			continue;
		}
		good++;
		memset(&os, 0, sizeof(os));
		if (info(fd, HL_INFO_OPEN_STATS, &os, sizeof(os)) == 0 &&
		    os.is_compute_ctx_active == 1)
			active++;
		close(fd);
	}
	ok(good == REOPEN_CYCLES,
	   "close then immediate reopen: %d/%d opens succeed (first error %s)",
	   good, REOPEN_CYCLES, errname(first_err));
	ok_eq(active, good,
	      "each open sees an active compute context (OPEN_STATS)");
	if (info(fd_ctl, HL_INFO_OPEN_STATS, &s1, sizeof(s1)) == 0)
		ok_eq(s1.open_counter - s0.open_counter, (uint64_t)good,
		      "OPEN_STATS open_counter grew by the number of opens");
	else
		ok(0, "OPEN_STATS on the control node");
}

static void run_negative(void)
{
	int fd_ctl, fd;

	tap_diag("negative uapi tests, accel%d and accel_controlD%d, uapi extensions header %s",
		 card, ctl_card, HAVE_GAUDI_UAPI ? "present" : "missing");
	fd_ctl = open_control();
	if (!ok(fd_ctl >= 0, "open control node (%s)",
		fd_ctl >= 0 ? "ok" : errname(fd_ctl)))
		return;
	neg_info(fd_ctl, "control");
	neg_control_refuses(fd_ctl);
	check_ext(fd_ctl, "control", false);

	fd = open_compute();
	if (ok(fd >= 0, "open compute node (%s)",
	       fd >= 0 ? "ok" : errname(fd))) {
		neg_info(fd, "compute");
		check_ext(fd, "compute", true);
		ok_eq(xioctl(fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3F,
					  struct hl_info_args),
			     &(struct hl_info_args){ 0 }), -EINVAL,
		      "compute node: unknown driver ioctl number fails with EINVAL");
		close(fd);
	}
	neg_exclusive(fd_ctl);
	neg_reopen(fd_ctl);
	close(fd_ctl);
}

/* ---- --flood ------------------------------------------------------------- */

static int run_flood(long count)
{
	/*
	 * The errno each kind of bad call must fail with on gaudi.ko (the
	 * same answers the --negative checks assert one by one): a call
	 * that fails for another reason is a bug the count would hide.
	 */
	static const int want[10] = {
		-EINVAL,	/* unknown INFO op */
		-EINVAL,	/* NULL return pointer */
		-EINVAL,	/* pad not zero */
		-EFAULT,	/* return pointer on a PROT_NONE page */
		-ENOTTY,	/* CB ioctl on the control node */
		-EBUSY,		/* second opener of the compute node */
		-EINVAL,	/* unknown CB op */
		-EINVAL,	/* UNMAP of nothing */
		-EINVAL,	/* unknown INFO op 41 */
		-ENOTTY,	/* CS ioctl on the control node */
	};
	long succeeded = 0, wrong = 0, by_errno[160] = { 0 };
	uint8_t *g = guarded_pages();
	int fd_ctl, fd, rc = 0;
	union hl_cb_args cb;
	union hl_mem_args m;

	fd_ctl = open_control();
	fd = open_compute();
	if (fd_ctl < 0 || fd < 0 || !g) {
		fprintf(stderr, "gaudi_driver_test: flood: cannot open card %d nodes\n",
			card);
		return 1;
	}
	for (long i = 0; i < count; i++) {
		switch (i % 10) {
		case 0:
			rc = info(fd, 0xFFFF, g, 64);
			break;
		case 1:
			rc = info_raw(fd_ctl, HL_INFO_HW_IP_INFO, 0, 64, 0, 0);
			break;
		case 2:
			rc = info_raw(fd, HL_INFO_DEVICE_STATUS,
				      (uintptr_t)g, 8, 0, 1);
			break;
		case 3:
			rc = info(fd_ctl, HL_INFO_HW_IP_INFO, g + page_size, 64);
			break;
		case 4:
			memset(&cb, 0, sizeof(cb));
			cb.in.op = HL_CB_OP_CREATE;
			cb.in.cb_size = 4096;
			rc = xioctl(fd_ctl, DRM_IOCTL_HL_CB, &cb);
			break;
		case 5:
			rc = open_compute();	/* held: refused */
			if (rc >= 0) {
				close(rc);
				rc = 0;
			}
			break;
		case 6:
			memset(&cb, 0, sizeof(cb));
			cb.in.op = 77;	/* no such CB op */
			rc = xioctl(fd, DRM_IOCTL_HL_CB, &cb);
			break;
		case 7:
			memset(&m, 0, sizeof(m));
			m.in.op = HL_MEM_OP_UNMAP;	/* nothing mapped */
			m.in.unmap.device_virt_addr = GAUDI_VA_HOST_START;
			rc = xioctl(fd, DRM_IOCTL_HL_MEMORY, &m);
			break;
		case 8:
			rc = info(fd, 41, g, 64);
			break;
		default:
			rc = xioctl(fd_ctl, DRM_IOCTL_HL_CS,
				    &(union hl_cs_args){ 0 });
			break;
		}
		if (rc == 0)
			succeeded++;
		else
			by_errno[-rc < 160 ? -rc : 0]++;
		if (rc != want[i % 10] && wrong++ < 10)
			printf("# flood: call %ld (kind %ld) returned %s, not %s\n",
			       i, i % 10, errname(rc), errname(want[i % 10]));
	}
	printf("# flood: %ld bad calls on card %d, %ld succeeded;", count, card,
	       succeeded);
	for (int e = 0; e < 160; e++)
		if (by_errno[e])
			printf(" %s x%ld", errname(-e), by_errno[e]);
	printf("; %ld with another errno than expected\n", wrong);
	close(fd);
	close(fd_ctl);
	return succeeded || wrong ? 1 : 0;
}

/* ---- main ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: gaudi_driver_test [--card N] --dump control|compute | --negative | --flood COUNT\n"
		"  --dump NODE   INFO answers of every op as stable text\n"
		"  --negative    negative uapi tests (TAP)\n"
		"  --flood N     N bad calls; exit 1 if any succeeds or fails with another errno than expected\n"
		"  --card N      accel minor (default 0)\n"
		"  --ctl-card N  accel_controlD minor of the same card (default --card)\n"
		"  --klog-lines  print the number of kernel log lines\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "card", required_argument, NULL, 'n' },
		{ "ctl-card", required_argument, NULL, 'c' },
		{ "dump", required_argument, NULL, 'd' },
		{ "negative", no_argument, NULL, 'N' },
		{ "flood", required_argument, NULL, 'f' },
		{ "klog-lines", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *node = NULL;
	long flood = 0;
	int mode = 0, opt;
	char *end;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			card = (int)strtol(optarg, &end, 0);
			if (*end || card < 0)
				goto bad;
			break;
		case 'c':
			ctl_card = (int)strtol(optarg, &end, 0);
			if (*end || ctl_card < 0)
				goto bad;
			break;
		case 'd':
			node = optarg;
			if (strcmp(node, "control") && strcmp(node, "compute"))
				goto bad;
			mode = opt;
			break;
		case 'f':
			flood = strtol(optarg, &end, 0);
			if (*end || flood <= 0)
				goto bad;
			mode = opt;
			break;
		case 'N':
		case 'k':
			mode = opt;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (!mode || optind != argc)
		goto bad;
	if (ctl_card < 0)
		ctl_card = card;

	switch (mode) {
	case 'd':
		return run_dump(node);
	case 'f':
		return run_flood(flood);
	case 'k':
		printf("%d\n", klog_lines());
		return 0;
	default:
		run_negative();
		return tap_done();
	}
bad:
	usage(stderr);
	return 2;
}
