// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_interop: the Gaudi end of the roce-interop suite and its conductor
 * (Documentation/net/interop.rst): RoCE v2 between a card's port, through
 * libgaudi's NIC API (<gaudi/nic.h>), and Linux's Soft-RoCE in the other
 * VM, driven there by verbs_peer over a control connection (interop.h).
 *
 *   gaudi_interop PEER_CTL_IP[:PORT] NIC_PORT GAUDI_IP
 *
 * GAUDI_IP is the address this end puts in its frames (the peer's
 * neighbour entry maps it to the port's MAC).  What is checked, each a
 * TAP line:
 *
 *   writes    RDMA WRITE both ways, 1 B .. 1 MiB, at path MTU 4096 and
 *             1024, each into a window of canary bytes: the bytes at the
 *             destination exact, IO_GUARD canary bytes on both sides
 *             untouched, the source unchanged (both ends check their own
 *             buffer)
 *   sob       WRITE WITH IMMEDIATE from the peer into a user SOB of the
 *             card: +1 each, exactly; a SOB outside the remote window (the
 *             driver's W_S 143): remote access error at the peer, both QPs
 *             in error, the SOB unchanged
 *   rnr       the card's remote-SOB write (a zero-length WRITE WITH
 *             IMMEDIATE) to a peer QP with no receive posted: the peer
 *             answers RNR NAKs, the write stays outstanding, then the peer
 *             posts a receive and the immediate arrives there; the QPs
 *             keep working
 *   bad key   a wrong R_Key each way: remote access error, both QPs in
 *             error (IBA class C), nothing written
 *   bad source  a peer QP sending from another address (the right QPN,
 *             key and PSN, then a wrong key) to the card's QP: dropped
 *             silently, nothing written, no QP error, the real peer's
 *             writes still land; a card QP sending from another address
 *             to a peer QP: dropped by the peer, the card's QP gives up
 *             (retries exhausted), the peer's QP is unharmed
 *   qpn       a peer QPN above 1024 (rxe numbers them with 24 bits,
 *             cyclically): connect and write both ways
 *
 * Conformance the engine does not have yet is named in $INTEROP_TODO
 * (words: path-mtu, rnr, msn, qpn24, src-check; tests/guest/roce-interop/
 * run.sh sets the list): the checks that need a listed piece are TAP
 * "# TODO" lines, which run and can fail but count as skipped.  One that
 * passes says so in a comment: time to take its word off the list.
 *
 * Needs gaudi.ko, debugfs (the SOBs are read through gaudi.ko's register
 * window) and the card's NIC_PORT cabled to the peer.  Prints TAP, ends
 * with "N passed, N failed[, N skipped]"; exit status 1 on a failure.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>

#include <drm/gaudi_accel.h>
#include <gaudi/gaudi.h>
#include "gaudi1/regs.h"
#include "dbgfs.h"
#include "interop.h"
#include "tap.h"

#define WQ_ENTRIES 128 /* a 1 MiB write is 65 WQEs */
#define CQ_ENTRIES 1024
#define WAIT_MS 30000
#define USER_SOB 300U /* a W_S user SOB */
#define DRIVER_SOB 143U /* the driver's last W_S SOB: outside */
#define SOB_OFF(n) (mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * (n))
#define BAD_KEY_XOR 0x00A50000U
#define RNR_TIMER 20 /* 10.24 ms (IBA's RNR timer code) */
#define RNR_HOLD_MS 300 /* how long the peer has no receive */
#define IMM_VALUE 0x1CEB00DAU

static const uint32_t sizes[] = {
	1,
	2,
	3,
	63,
	1023,
	1024,
	1025,
	4095,
	4096,
	4097,
	GAUDI_NIC_WQE_MAX_BYTES,
	GAUDI_NIC_WQE_MAX_BYTES + 1,
	65536,
	262147,
	IO_MAX,
};

/* ---- the two ends ---------------------------------------------------- */

static struct gaudi_dev *dev;
static char dbg[160];
static unsigned int nic_port;
static struct gaudi_nic_port *np;
static uint8_t *gsrc, *gdst; /* IO_BUF each, mapped */
static struct gaudi_mapping *smap, *dmap;
static uint64_t src_va, dst_va;
static struct in_addr my_ip;
static char my_ip_s[INET_ADDRSTRLEN];
static uint8_t my_mac[6];

static struct {
	char mac_s[24], ip_s[INET_ADDRSTRLEN], foreign_s[INET_ADDRSTRLEN];
	uint8_t mac[6];
	uint32_t ip; /* host byte order */
	uint64_t va, len;
	uint32_t rkey;
	uint64_t mtu;
} peer;

static int ctl = -1;
static char ans[CTL_LINE];
static const char *todo_list;
static uint32_t seed_no = 1;

/* A connection: the peer's QP slot @id and the card's QP. */
struct pair {
	int id;
	unsigned int mtu;
	struct gaudi_qp *qp;
	struct gaudi_nic_addr me, them;
	unsigned int k; /* writes so far (their offsets) */
};

/* ---- TAP with pending conformance ------------------------------------ */

/* Whether @piece (a word of $INTEROP_TODO) is not built yet. */
static bool pending(const char *piece)
{
	size_t n = strlen(piece);
	const char *p = todo_list;

	while (piece && p && (p = strstr(p, piece))) {
		if ((p == todo_list || p[-1] == ' ' || p[-1] == ',') &&
		    (!p[n] || p[n] == ' ' || p[n] == ','))
			return true;
		p += n;
	}
	return false;
}

/* The TODO checks of each pending piece, and how many of them passed. */
static struct {
	const char *piece;
	unsigned int n, passed;
} todos[8];

static void todo_tally(const char *piece, bool passed)
{
	for (size_t i = 0; i < sizeof(todos) / sizeof(todos[0]); i++) {
		if (todos[i].piece && strcmp(todos[i].piece, piece))
			continue;
		todos[i].piece = piece;
		todos[i].n++;
		todos[i].passed += passed;
		return;
	}
}

/* What the TODO checks showed: a piece whose checks all pass can go. */
static void todo_report(void)
{
	for (size_t i = 0; i < sizeof(todos) / sizeof(todos[0]); i++)
		if (todos[i].piece)
			tap_diag("TODO '%s': %u of %u checks pass%s",
				 todos[i].piece, todos[i].passed, todos[i].n,
				 todos[i].passed == todos[i].n
					 ? ": take it off INTEROP_TODO"
					 : "");
}

/*
 * One result; a TODO (counted as skipped) when it needs @piece and that
 * is pending.  Returns @cond.
 */
static bool check(const char *piece, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool check(const char *piece, bool cond, const char *fmt, ...)
{
	char desc[640], why[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	if (piece && pending(piece)) {
		snprintf(why, sizeof(why), "%s (issue 22)", piece);
		tap_todo(cond, why, "%s", desc);
		todo_tally(piece, cond);
		return cond;
	}
	return tap_ok(cond, "%s", desc);
}

/* ---- the control channel --------------------------------------------- */

/*
 * One request to the peer; 0 when it answered "ok ...", -EPROTO for its
 * "err ...", another negative errno when the channel failed (then every
 * later request fails at once).  The answer is in ans.
 */
static int req(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int req(const char *fmt, ...)
{
	char line[CTL_LINE];
	va_list ap;
	int ret;

	if (ctl < 0) {
		snprintf(ans, sizeof(ans), "err no control connection");
		return -EPIPE;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ret = ctl_send(ctl, "%s", line);
	if (!ret)
		ret = ctl_recv(ctl, ans, sizeof(ans), 120000);
	if (ret) {
		snprintf(ans, sizeof(ans), "err control: %s", strerror(-ret));
		tap_diag("'%s': %s", line, ans);
		close(ctl);
		ctl = -1;
		return ret;
	}
	if (!strncmp(ans, "ok", 2) && (!ans[2] || ans[2] == ' '))
		return 0;
	tap_diag("'%s': %s", line, ans);
	return -EPROTO;
}

/* The answer's wc= word ("none" when there is none). */
static const char *ans_wc(void)
{
	static char wc[32];

	if (!kv_str(ans, "wc", wc, sizeof(wc)))
		snprintf(wc, sizeof(wc), "none");
	return wc;
}

/* The peer QP's state ("?" when it cannot be asked). */
static const char *peer_state(int id)
{
	static char st[16];

	if (req("state id=%d", id) || !kv_str(ans, "state", st, sizeof(st)))
		snprintf(st, sizeof(st), "?");
	return st;
}

static int ctl_connect(const char *spec)
{
	struct sockaddr_in sa;
	char host[64];
	const char *colon = strchr(spec, ':');
	struct timespec t0, t1;
	int fd;

	snprintf(host, sizeof(host), "%.*s",
		 (int)(colon ? colon - spec : (long)strlen(spec)), spec);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(colon ? (uint16_t)atoi(colon + 1) : CTL_PORT);
	if (!inet_aton(host, &sa.sin_addr))
		return -EINVAL;
	/* The peer VM boots at the same time: try for two minutes. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -errno;
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		close(fd);
		usleep(200000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while (t1.tv_sec - t0.tv_sec < 120);
	return -ETIMEDOUT;
}

/* ---- the card's side ------------------------------------------------- */

static uint32_t sob_rd(unsigned int n)
{
	return hl_dbgfs_rd32(dbg, SOB_OFF(n)) & 0x7FFF;
}

/*
 * One DRM_IOCTL_GAUDI_NIC op, for what libgaudi does not tell (the
 * responder's state, the counters); 0 or -errno.  @out is zeroed first.
 */
static int nic_op(uint32_t op, const void *in, uint32_t in_size, void *out,
		  uint32_t out_size)
{
	struct drm_gaudi_nic a;

	memset(out, 0, out_size);
	memset(&a, 0, sizeof(a));
	a.op = op;
	a.input_ptr = (uintptr_t)in;
	a.input_size = in_size;
	a.output_ptr = (uintptr_t)out;
	a.output_size = out_size;
	return ioctl(gaudi_fd(dev), DRM_IOCTL_GAUDI_NIC, &a) ? -errno : 0;
}

/* The CONN_STATE flags of the card's QP @qpn, or a negative errno. */
static int conn_flags(uint32_t qpn)
{
	struct drm_gaudi_nic_conn c = {.port = nic_port, .conn_id = qpn};
	struct drm_gaudi_nic_conn_state st;
	int ret =
		nic_op(GAUDI_NIC_OP_CONN_STATE, &c, sizeof(c), &st, sizeof(st));

	return ret ? ret : (int)st.flags;
}

static bool qp_errors(const struct pair *p)
{
	int f = conn_flags(gaudi_qp_number(p->qp));

	return f < 0 ||
	       f & (GAUDI_NIC_CONN_REQ_ERROR | GAUDI_NIC_CONN_RES_ERROR);
}

/*
 * The regions and the path MTU of issue 22 came with ABI 1.6 and libgaudi
 * 0.6 (GAUDI_CAP_NIC_MR, gaudi_qp_reg_mr(), gaudi_qp_set_path_mtu()); built
 * against an older libgaudi the card's QP is written as before: its key is
 * the QP's own and its packets carry up to 4096 bytes whatever the MTU
 * (the "path-mtu" checks then fail: keep the word in INTEROP_TODO).
 */
#ifdef GAUDI_CAP_NIC_MR
#define HAVE_REGIONS 1
#else
#define HAVE_REGIONS 0
#endif

/*
 * The card's end of a connection before it connects: path MTU @mtu, and
 * the peer may write the card's whole destination buffer.
 */
static int card_qp_prepare(struct gaudi_qp *qp, unsigned int mtu, char *why,
			   size_t len)
{
#if HAVE_REGIONS
	int ret = gaudi_qp_set_path_mtu(qp, mtu);

	if (ret) {
		snprintf(why, len, "gaudi_qp_set_path_mtu(%u): %s", mtu,
			 gaudi_strerror(ret));
		return ret;
	}
	ret = gaudi_qp_reg_mr(qp, dst_va, IO_BUF, NULL);
	if (ret)
		snprintf(why, len, "gaudi_qp_reg_mr: %s", gaudi_strerror(ret));
	return ret;
#else
	(void)qp;
	(void)mtu;
	(void)why;
	(void)len;
	return 0;
#endif
}

static int link_up(void)
{
	uint32_t up = 0;

	for (int t = 0; t < 300; t++) {
		int ret = gaudi_nic_link(dev, NULL, NULL, &up);

		if (ret)
			return ret;
		if (up & (1U << nic_port))
			return 0;
		usleep(100000);
	}
	return -ENOLINK;
}

static int port_mac(uint8_t mac[6])
{
	struct drm_gaudi_nic_link l;
	int ret = nic_op(GAUDI_NIC_OP_LINK_STATE, NULL, 0, &l, sizeof(l));

	if (ret)
		return ret;
	memcpy(mac, l.mac[nic_port], 6);
	return 0;
}

/* ---- connections ----------------------------------------------------- */

/* The peer's QP @id in INIT; "qp" options in @opts. */
static int peer_qp(struct pair *p, int id, unsigned int mtu, const char *opts,
		   char *why, size_t len)
{
	uint64_t qpn, psn;

	memset(p, 0, sizeof(*p));
	p->id = id;
	p->mtu = mtu;
	if (req("qp id=%d mtu=%u%s", id, mtu, opts) ||
	    !kv_u64(ans, "qpn", &qpn) || !kv_u64(ans, "psn", &psn)) {
		snprintf(why, len, "peer QP: %.160s", ans);
		return -EPROTO;
	}
	memcpy(p->them.mac, peer.mac, 6);
	p->them.port = 0;
	p->them.ip = peer.ip;
	p->them.qpn = (uint32_t)qpn;
	p->them.rkey = peer.rkey;
	p->them.psn = (uint32_t)psn;
	return 0;
}

/* A new card QP sending from @ip (network order). */
static int card_qp(struct gaudi_qp **qp, struct gaudi_nic_addr *me,
		   struct in_addr ip, unsigned int mtu, char *why, size_t len)
{
	int ret = gaudi_qp_create(np, qp);

	if (ret) {
		snprintf(why, len, "gaudi_qp_create: %s", gaudi_strerror(ret));
		return ret;
	}
	gaudi_qp_set_ip(*qp, ntohl(ip.s_addr));
	ret = card_qp_prepare(*qp, mtu, why, len);
	if (ret)
		return ret;
	/* After the region: the address carries its key. */
	ret = gaudi_qp_addr(*qp, me);
	if (ret)
		snprintf(why, len, "gaudi_qp_addr: %s", gaudi_strerror(ret));
	return ret;
}

static int peer_rtr(const struct pair *p, uint32_t qpn, uint32_t psn,
		    const char *opts, char *why, size_t len)
{
	if (!req("rtr id=%d qpn=%u psn=%u ip=%s%s", p->id, qpn, psn, my_ip_s,
		 opts))
		return 0;
	snprintf(why, len, "peer RTR: %.160s", ans);
	return -EPROTO;
}

/*
 * The usual connection: peer QP @id at @mtu and a card QP, each
 * connected to the other.  @rtr_opts go to the peer's RTR.
 */
static int pair_open(struct pair *p, int id, unsigned int mtu,
		     const char *rtr_opts, char *why, size_t len)
{
	int ret = peer_qp(p, id, mtu, "", why, len);

	if (!ret)
		ret = card_qp(&p->qp, &p->me, my_ip, mtu, why, len);
	if (!ret) {
		ret = gaudi_qp_connect(p->qp, &p->them);
		if (ret)
			snprintf(why, len, "gaudi_qp_connect to QPN %u: %s",
				 p->them.qpn, gaudi_strerror(ret));
	}
	if (!ret)
		ret = peer_rtr(p, p->me.qpn, p->me.psn, rtr_opts, why, len);
	if (!ret)
		tap_diag(
			"connection: card QP %u (PSN %u) <-> peer QP %u (PSN %u), path MTU %u",
			p->me.qpn, p->me.psn, p->them.qpn, p->them.psn, mtu);
	return ret;
}

static void pair_close(struct pair *p)
{
	gaudi_qp_destroy(p->qp);
	p->qp = NULL;
	req("destroy id=%d", p->id);
}

/* ---- one write ------------------------------------------------------- */

/* Offsets of write k: not aligned, different at each end. */
static uint32_t src_off(unsigned int k)
{
	return IO_GUARD + (k * 13) % 64;
}

static uint32_t dst_off(unsigned int k)
{
	return IO_GUARD + (k * 37) % 64;
}

/* The card's window around [off, off + size): canary, data, canary. */
static bool card_window_ok(uint32_t off, uint32_t size, uint32_t seed,
			   uint32_t cseed, bool data, char *why, size_t len)
{
	unsigned int got = 0, want = 0;
	size_t at = 0, bad = 0;

	if (!io_check(gdst + off - IO_GUARD, IO_GUARD, cseed, off - IO_GUARD,
		      &at, &got, &want, &bad)) {
		snprintf(why, len, "%zu canary bytes before the write changed",
			 bad);
		return false;
	}
	if (!io_check(gdst + off + size, IO_GUARD, cseed, off + size, &at, &got,
		      &want, &bad)) {
		snprintf(why, len, "%zu canary bytes after the write changed",
			 bad);
		return false;
	}
	if (data &&
	    !io_check(gdst + off, size, seed, 0, &at, &got, &want, &bad)) {
		snprintf(
			why, len,
			"%zu of %u bytes wrong, first at +%zu: 0x%02x, want 0x%02x",
			bad, size, at, got, want);
		return false;
	}
	if (!data &&
	    !io_check(gdst + off, size, cseed, off, &at, &got, &want, &bad)) {
		snprintf(why, len, "%zu of %u canary bytes written", bad, size);
		return false;
	}
	return true;
}

/* The same at the peer, by its "check". */
static bool peer_window_ok(uint32_t off, uint32_t size, uint32_t seed,
			   uint32_t cseed, bool data, char *why, size_t len)
{
	if (req("check off=%u len=%u seed=%u idx=%u", off - IO_GUARD, IO_GUARD,
		cseed, off - IO_GUARD) ||
	    req("check off=%u len=%u seed=%u idx=%u", off + size, IO_GUARD,
		cseed, off + size) ||
	    (data &&
	     req("check off=%u len=%u seed=%u idx=0", off, size, seed)) ||
	    (!data && req("check off=%u len=%u seed=%u idx=%u", off, size,
			  cseed, off))) {
		snprintf(why, len, "peer's buffer: %.160s", ans);
		return false;
	}
	return true;
}

/*
 * The peer's QP @id writes @size bytes into the card's buffer with @rkey.
 * @land: whether the bytes must land (else the canary must stay); the
 * completion must be @wc.  The description of what happened in @why.
 */
static bool write_in(struct pair *p, int id, uint32_t size, uint32_t rkey,
		     bool land, const char *wc, char *why, size_t len)
{
	unsigned int k = p->k++;
	uint32_t so = src_off(k), doff = dst_off(k);
	uint32_t seed = seed_no++, cseed = seed ^ 0xC0FFEE00U;
	char w[32];

	io_fill(gdst + doff - IO_GUARD, size + 2 * IO_GUARD, cseed,
		doff - IO_GUARD);
	if (req("fill off=%u len=%u seed=%u idx=0", so, size, seed) ||
	    req("write id=%d off=%u len=%u va=0x%llx rkey=0x%x ms=%d", id, so,
		size, (unsigned long long)(dst_va + doff), rkey, WAIT_MS)) {
		snprintf(why, len, "peer: %.160s", ans);
		return false;
	}
	snprintf(w, sizeof(w), "%s", ans_wc());
	if (strcmp(w, wc)) {
		snprintf(why, len, "peer's completion %s, want %s", w, wc);
		return false;
	}
	if (!card_window_ok(doff, size, seed, cseed, land, why, len))
		return false;
	if (req("check off=%u len=%u seed=%u idx=0", so, size, seed)) {
		snprintf(why, len, "peer's source changed: %.160s", ans);
		return false;
	}
	snprintf(why, len, "%s, %s, canaries intact", w,
		 land ? "bytes exact" : "nothing written");
	return true;
}

/*
 * The card's QP writes @size bytes into the peer's buffer (rkey from the
 * connection); @land and the wait's result @rc_want as for write_in().
 */
static bool write_out(struct pair *p, struct gaudi_qp *qp, uint32_t size,
		      bool land, int rc_want, char *why, size_t len)
{
	unsigned int k = p->k++;
	uint32_t so = src_off(k), doff = dst_off(k);
	uint32_t seed = seed_no++, cseed = seed ^ 0xC0FFEE00U;
	unsigned int got = 0, want = 0;
	size_t at = 0, bad = 0;
	int wqe, rc;

	io_fill(gsrc + so, size, seed, 0);
	if (req("fill off=%u len=%u seed=%u idx=%u", doff - IO_GUARD,
		size + 2 * IO_GUARD, cseed, doff - IO_GUARD)) {
		snprintf(why, len, "peer: %.160s", ans);
		return false;
	}
	wqe = gaudi_qp_write(qp, src_va + so, peer.va + doff, size, 0, 0);
	rc = wqe < 0 ? wqe : gaudi_qp_wait(qp, wqe, WAIT_MS);
	if (rc != rc_want) {
		snprintf(why, len, "gaudi_qp_%s: %s, want %s",
			 wqe < 0 ? "write" : "wait", gaudi_strerror(rc),
			 rc_want ? gaudi_strerror(rc_want) : "success");
		return false;
	}
	if (!peer_window_ok(doff, size, seed, cseed, land, why, len))
		return false;
	if (!io_check(gsrc + so, size, seed, 0, &at, &got, &want, &bad)) {
		snprintf(why, len, "card's source changed (%zu bytes)", bad);
		return false;
	}
	snprintf(why, len, "%s, %s, canaries intact",
		 rc ? gaudi_strerror(rc) : "completed",
		 land ? "bytes exact" : "nothing written");
	return true;
}

/* ---- the tests ------------------------------------------------------- */

static void test_writes(unsigned int mtu, int id)
{
	const char *piece = mtu == 4096 ? NULL : "path-mtu";
	char why[200];
	struct pair p;
	size_t i;
	int ret;

	ret = pair_open(&p, id, mtu, "", why, sizeof(why));
	if (!ok(!ret, "path MTU %u: a connection: %s", mtu,
		ret ? why : "both ends ready"))
		return;
	/* The peer first: the card's responder takes any packet size. */
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		bool r = write_in(&p, p.id, sizes[i], p.me.rkey, true,
				  "success", why, sizeof(why));

		check(NULL, r, "MTU %u, peer -> card, %u bytes: %s", mtu,
		      sizes[i], why);
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		bool r = write_out(&p, p.qp, sizes[i], true, 0, why,
				   sizeof(why));

		/* One packet at any MTU needs no path MTU. */
		check(sizes[i] > mtu ? piece : NULL, r,
		      "MTU %u, card -> peer, %u bytes: %s", mtu, sizes[i], why);
	}
	check(piece, !qp_errors(&p) && !strcmp(peer_state(p.id), "rts"),
	      "MTU %u: neither QP in error (card 0x%x, peer %s)", mtu,
	      conn_flags(p.me.qpn), peer_state(p.id));
	pair_close(&p);
}

/*
 * The peer READs @size bytes of the card's buffer with @rkey into its own
 * (issue 25: the engine's READ responder); @land and the completion @wc
 * as for write_in().  The card's bytes must not change either way.
 */
static bool read_in(struct pair *p, uint32_t size, uint32_t rkey, bool land,
		    const char *wc, char *why, size_t len)
{
	unsigned int k = p->k++;
	uint32_t coff = src_off(k), poff = dst_off(k);
	uint32_t seed = seed_no++, cseed = seed ^ 0xC0FFEE00U;
	unsigned int got = 0, want = 0;
	size_t at = 0, bad = 0;
	char w[32];

	io_fill(gdst + coff, size, seed, 0);
	if (req("fill off=%u len=%u seed=%u idx=%u", poff - IO_GUARD,
		size + 2 * IO_GUARD, cseed, poff - IO_GUARD) ||
	    req("read id=%d off=%u len=%u va=0x%llx rkey=0x%x ms=%d", p->id,
		poff, size, (unsigned long long)(dst_va + coff), rkey,
		WAIT_MS)) {
		snprintf(why, len, "peer: %.160s", ans);
		return false;
	}
	snprintf(w, sizeof(w), "%s", ans_wc());
	if (strcmp(w, wc)) {
		snprintf(why, len, "peer's completion %s, want %s", w, wc);
		return false;
	}
	if (!peer_window_ok(poff, size, seed, cseed, land, why, len))
		return false;
	if (!io_check(gdst + coff, size, seed, 0, &at, &got, &want, &bad)) {
		snprintf(why, len, "card's bytes changed (%zu)", bad);
		return false;
	}
	snprintf(why, len, "%s, %s, canaries intact", w,
		 land ? "bytes exact" : "nothing read");
	return true;
}

/*
 * RDMA READ from the peer at path MTU @mtu: a region with remote-read
 * access answers every size exactly (READ RESPONSE FIRST/MIDDLE/LAST/ONLY
 * as rxe takes them); the connection's region without it refuses (remote
 * access error at the peer, nothing read).
 */
static void test_reads(unsigned int mtu, int id)
{
	struct drm_gaudi_nic_mr_key key;
	struct drm_gaudi_nic_mr mr;
	char why[200];
	struct pair p;
	size_t i;
	int ret;

	ret = pair_open(&p, id, mtu, "", why, sizeof(why));
	if (!ok(!ret, "READ at path MTU %u: a connection: %s", mtu,
		ret ? why : "both ends ready"))
		return;
	memset(&mr, 0, sizeof(mr));
	mr.addr = dst_va;
	mr.length = IO_BUF;
	mr.port = nic_port;
	mr.conn_id = p.me.qpn;
	mr.access = GAUDI_NIC_MR_REMOTE_READ;
	ret = nic_op(GAUDI_NIC_OP_REG_MR, &mr, sizeof(mr), &key, sizeof(key));
	if (!ok(!ret, "MTU %u: a remote-read region of the card's buffer: %s",
		mtu, ret ? strerror(-ret) : "key given"))
		goto out;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		bool r = read_in(&p, sizes[i], key.key, true, "success", why,
				 sizeof(why));

		ok(r, "MTU %u, peer READs %u bytes of the card: %s", mtu,
		   sizes[i], why);
	}
	ok(!qp_errors(&p) && !strcmp(peer_state(p.id), "rts"),
	   "MTU %u: after the READs neither QP in error (card 0x%x, peer %s)",
	   mtu, conn_flags(p.me.qpn), peer_state(p.id));
	/* The libgaudi region is write-only: a READ with its key fails. */
	ok(read_in(&p, 4096, p.me.rkey, false, "rem_access_err", why,
		   sizeof(why)),
	   "MTU %u, a READ through the write-only region: %s", mtu, why);
out:
	pair_close(&p);
}

/* Wait (at most 2 s) for SOB @n to reach @want. */
static uint32_t sob_settle(unsigned int n, uint32_t want)
{
	uint32_t v = sob_rd(n);

	for (int t = 0; t < 200 && v != want; t++) {
		usleep(10000);
		v = sob_rd(n);
	}
	return v;
}

static void test_sob(void)
{
	uint32_t v0, v, d0, d;
	char why[200];
	struct pair p;
	int ret, i, bad = 0;

	ret = pair_open(&p, 1, 4096, "", why, sizeof(why));
	if (!ok(!ret, "SOB: a connection: %s", ret ? why : "ready"))
		return;
	v0 = sob_rd(USER_SOB);
	for (i = 0; i < 3; i++) {
		if (req("write id=%d off=0 len=0 va=0x%x rkey=0x%x imm=0x%x",
			p.id, SOB_OFF(USER_SOB), p.me.rkey,
			gaudi_sob_value(1, true)) ||
		    strcmp(ans_wc(), "success"))
			bad++;
	}
	v = sob_settle(USER_SOB, (v0 + 3) & 0x7FFF);
	ok(!bad && v == ((v0 + 3) & 0x7FFF),
	   "peer's WRITE WITH IMMEDIATE into W_S SOB %u, 3 times: %d completed in error, SOB %u -> %u (want +3)",
	   USER_SOB, bad, v0, v);
	/* The driver's SOB, outside the window: refused. */
	d0 = sob_rd(DRIVER_SOB);
	ret = req("write id=%d off=0 len=0 va=0x%x rkey=0x%x imm=0x%x", p.id,
		  SOB_OFF(DRIVER_SOB), p.me.rkey, gaudi_sob_value(1, true));
	usleep(100000);
	d = sob_rd(DRIVER_SOB);
	ok(!ret && !strcmp(ans_wc(), "rem_access_err") && d == d0,
	   "the same into the driver's W_S SOB %u: peer's completion %s, SOB %u -> %u",
	   DRIVER_SOB, ans_wc(), d0, d);
	ok(conn_flags(p.me.qpn) > 0 &&
		   conn_flags(p.me.qpn) & GAUDI_NIC_CONN_RES_ERROR &&
		   !strcmp(peer_state(p.id), "err"),
	   "both QPs in error after the refused SOB (card 0x%x, peer %s)",
	   conn_flags(p.me.qpn), peer_state(p.id));
	pair_close(&p);
}

static void test_rnr(void)
{
	char opts[32], why[200], imm[32] = "";
	struct pair p;
	int ret, wqe, rc;

	snprintf(opts, sizeof(opts), " rnr=%d", RNR_TIMER);
	ret = pair_open(&p, 1, 4096, opts, why, sizeof(why));
	if (!ok(!ret, "RNR: a connection: %s", ret ? why : "ready"))
		return;
	/* A remote-SOB write: WRITE ONLY WITH IMMEDIATE, no receive there. */
	wqe = gaudi_qp_write(p.qp, 0, 0, 0, SOB_OFF(USER_SOB), IMM_VALUE);
	ok(wqe >= 0, "card's WRITE WITH IMMEDIATE 0x%x posted: %s", IMM_VALUE,
	   wqe < 0 ? gaudi_strerror(wqe) : "WQE queued");
	if (wqe < 0) {
		pair_close(&p);
		return;
	}
	usleep(RNR_HOLD_MS * 1000);
	rc = gaudi_qp_wait(p.qp, wqe, 0);
	check("rnr", rc == -ETIMEDOUT,
	      "after %d ms without a receive at the peer the write is still outstanding (%s)",
	      RNR_HOLD_MS, rc ? gaudi_strerror(rc) : "it completed");
	ret = req("poll id=%d ms=0", p.id);
	ok(!ret && !strcmp(ans_wc(), "none"),
	   "the peer completed nothing without a receive (%s)", ans_wc());
	ret = req("recv id=%d", p.id);
	ok(!ret, "the peer posts a receive: %s", ans);
	ret = req("poll id=%d ms=10000", p.id);
	kv_str(ans, "imm", imm, sizeof(imm));
	check("rnr",
	      !ret && !strcmp(ans_wc(), "success") &&
		      strtoul(imm, NULL, 0) == IMM_VALUE,
	      "then the immediate arrives at the peer: %s", ans);
	rc = gaudi_qp_wait(p.qp, wqe, WAIT_MS);
	check("rnr", !rc, "and the card's write completes (%s)",
	      rc ? gaudi_strerror(rc) : "ok");
	check("rnr", write_out(&p, p.qp, 4096, true, 0, why, sizeof(why)),
	      "a write after it lands (the PSNs agree): %s", why);
	check("rnr", !qp_errors(&p) && !strcmp(peer_state(p.id), "rts"),
	      "RNR: neither QP in error (card 0x%x, peer %s)",
	      conn_flags(p.me.qpn), peer_state(p.id));
	pair_close(&p);
}

static void test_bad_key(void)
{
	char why[200];
	struct pair p;
	int ret, f;

	/* The peer with a wrong key: IBA class C, both QPs in error. */
	ret = pair_open(&p, 1, 4096, "", why, sizeof(why));
	if (ok(!ret, "bad key: a connection: %s", ret ? why : "ready")) {
		ok(write_in(&p, p.id, 4096, p.me.rkey ^ BAD_KEY_XOR, false,
			    "rem_access_err", why, sizeof(why)),
		   "peer -> card with a wrong R_Key: %s", why);
		f = conn_flags(p.me.qpn);
		ok(f > 0 && f & GAUDI_NIC_CONN_RES_ERROR &&
			   !strcmp(peer_state(p.id), "err"),
		   "both QPs in error (card 0x%x, peer %s)", f,
		   peer_state(p.id));
		pair_close(&p);
	}
	/* The card with a wrong key. */
	ret = peer_qp(&p, 1, 4096, "", why, sizeof(why));
	if (!ret)
		ret = card_qp(&p.qp, &p.me, my_ip, 4096, why, sizeof(why));
	if (!ret) {
		p.them.rkey ^= BAD_KEY_XOR;
		ret = gaudi_qp_connect(p.qp, &p.them);
		if (ret)
			snprintf(why, sizeof(why), "connect: %s",
				 gaudi_strerror(ret));
	}
	if (!ret)
		ret = peer_rtr(&p, p.me.qpn, p.me.psn, "", why, sizeof(why));
	if (!ok(!ret, "bad key: a connection with a wrong R_Key: %s",
		ret ? why : "ready"))
		return;
	ok(write_out(&p, p.qp, 4096, false, -EIO, why, sizeof(why)),
	   "card -> peer with a wrong R_Key: %s", why);
	f = conn_flags(p.me.qpn);
	ok(f > 0 && f & GAUDI_NIC_CONN_REQ_ERROR &&
		   !strcmp(peer_state(p.id), "err"),
	   "both QPs in error (card 0x%x, peer %s)", f, peer_state(p.id));
	pair_close(&p);
}

/*
 * Peer QP @id sends from the foreign address to the card's QP of @p,
 * with R_Key @rkey and the PSN the card expects next: all a responder that
 * does not check the source would take.  It must be dropped (the foreign
 * QP runs out of retries), nothing written, the card's QP not in error
 * (a check of @err_piece), and the real peer's next write of @size bytes
 * must land.
 */
static void foreign_in(struct pair *p, int id, uint32_t psn, uint32_t rkey,
		       uint32_t size, const char *what, const char *err_piece)
{
	char opts[64], why[200];
	struct pair f;
	int ret;

	snprintf(opts, sizeof(opts), " src=%s psn=%u", peer.foreign_s, psn);
	ret = peer_qp(&f, id, 4096, opts, why, sizeof(why));
	if (!ret)
		ret = peer_rtr(&f, p->me.qpn, p->me.psn, " timeout=12 retry=1",
			       why, sizeof(why));
	if (!ok(!ret, "a peer QP at %s aimed at card QP %u: %s", peer.foreign_s,
		p->me.qpn, ret ? why : "ready"))
		return;
	f.k = p->k++; /* offsets of their own */
	check("src-check",
	      write_in(&f, f.id, 4096, rkey, false, "retry_exc_err", why,
		       sizeof(why)),
	      "its write with %s is dropped: %s", what, why);
	check(err_piece, !qp_errors(p), "the card's QP is not in error (0x%x)",
	      conn_flags(p->me.qpn));
	check("src-check",
	      write_in(p, p->id, size, p->me.rkey, true, "success", why,
		       sizeof(why)),
	      "the real peer's next write lands: %s", why);
	req("destroy id=%d", id);
}

static void test_bad_source_in(void)
{
	char why[200];
	struct pair p;
	int ret;

	ret = pair_open(&p, 1, 4096, "", why, sizeof(why));
	if (!ok(!ret, "bad source: a connection: %s", ret ? why : "ready"))
		return;
	foreign_in(&p, 2, p.them.psn, p.me.rkey, 4096, "the right key and PSN",
		   NULL);
	/*
	 * A wrong key: no QP error either (dropped before the key).  The
	 * real peer's one packet since moved the PSN the card expects.
	 */
	foreign_in(&p, 3, (p.them.psn + 1) & 0xFFFFFF, p.me.rkey ^ BAD_KEY_XOR,
		   65536, "a wrong key", "src-check");
	pair_close(&p);
}

static void test_bad_source_out(void)
{
	struct gaudi_nic_addr fme;
	struct gaudi_qp *fq = NULL;
	struct in_addr fip = {.s_addr = htonl(ntohl(my_ip.s_addr) + 6)};
	char why[200];
	struct pair p;
	int ret;

	/*
	 * The peer's QP belongs to the card's QP p.qp at the card's
	 * address; a second card QP, from another address, sends to it
	 * first, with the PSN the peer expects.
	 */
	ret = peer_qp(&p, 1, 4096, "", why, sizeof(why));
	if (!ret)
		ret = card_qp(&p.qp, &p.me, my_ip, 4096, why, sizeof(why));
	if (!ret)
		ret = card_qp(&fq, &fme, fip, 4096, why, sizeof(why));
	if (!ret)
		ret = gaudi_qp_connect(fq, &p.them);
	if (!ret)
		ret = peer_rtr(&p, p.me.qpn, fme.psn, "", why, sizeof(why));
	if (!ok(!ret,
		"bad source out: card QP %u at %s aimed at peer QP %u: %s",
		fme.qpn, inet_ntoa(fip), p.them.qpn, ret ? why : "ready"))
		goto out;
	ok(write_out(&p, fq, 4096, false, -EIO, why, sizeof(why)),
	   "its write is dropped by the peer and the card's QP gives up: %s",
	   why);
	ok(!strcmp(peer_state(p.id), "rts"),
	   "the peer's QP is not in error (%s)", peer_state(p.id));
	/* The real card QP, the peer resynchronised to its PSN. */
	ret = gaudi_qp_connect(p.qp, &p.them);
	if (!ret)
		ret = peer_rtr(&p, p.me.qpn, p.me.psn, "", why, sizeof(why));
	ok(!ret && write_out(&p, p.qp, 4096, true, 0, why, sizeof(why)),
	   "the real card QP's write lands: %s", ret ? ans : why);
out:
	gaudi_qp_destroy(fq);
	pair_close(&p);
}

static void test_big_qpn(void)
{
	uint64_t last = 0;
	char why[200];
	struct pair p;
	int ret;

	ret = req("burn above=1100");
	kv_u64(ans, "qpn", &last);
	ok(!ret, "the peer's QP numbers moved past 1100: %s", ans);
	ret = peer_qp(&p, 1, 4096, "", why, sizeof(why));
	ok(!ret && p.them.qpn > 1024, "a peer QP numbered %u (above 1024)",
	   p.them.qpn);
	if (ret)
		return;
	ret = card_qp(&p.qp, &p.me, my_ip, 4096, why, sizeof(why));
	if (!ret) {
		ret = gaudi_qp_connect(p.qp, &p.them);
		if (ret)
			snprintf(why, sizeof(why), "gaudi_qp_connect: %s",
				 gaudi_strerror(ret));
		else
			snprintf(why, sizeof(why), "connected");
	}
	check("qpn24", !ret, "the card connects to peer QPN %u: %s", p.them.qpn,
	      why);
	if (!ret)
		ret = peer_rtr(&p, p.me.qpn, p.me.psn, "", why, sizeof(why));
	if (!ret) {
		check("qpn24",
		      write_in(&p, p.id, 65536, p.me.rkey, true, "success", why,
			       sizeof(why)),
		      "peer QPN %u -> card: %s", p.them.qpn, why);
		check("qpn24",
		      write_out(&p, p.qp, 65536, true, 0, why, sizeof(why)),
		      "card -> peer QPN %u: %s", p.them.qpn, why);
	} else {
		check("qpn24", false, "peer QPN %u -> card: not connected",
		      p.them.qpn);
		check("qpn24", false, "card -> peer QPN %u: not connected",
		      p.them.qpn);
	}
	pair_close(&p);
}

static void test_counters(void)
{
	struct drm_gaudi_nic_port in = {.port = nic_port};
	struct drm_gaudi_nic_counters c;
	int ret = nic_op(GAUDI_NIC_OP_COUNTERS, &in, sizeof(in), &c, sizeof(c));

	ok(!ret && c.roce_flags & GAUDI_NIC_COUNTERS_ROCE &&
		   c.roce_rx_pkts > 0 && !c.roce_icrc_errors,
	   "port %u counted %llu RoCE packets from the peer, %llu with a bad iCRC, %llu malformed",
	   nic_port, (unsigned long long)c.roce_rx_pkts,
	   (unsigned long long)c.roce_icrc_errors,
	   (unsigned long long)c.roce_bad_frames);
}

/* ---- set-up ---------------------------------------------------------- */

static int setup(void)
{
	struct gaudi_card_list *list = NULL;
	const struct gaudi_card *gc;
	int ret;

	ret = gaudi_cards_scan(&list);
	if (ret < 1)
		return ret < 0 ? ret : -ENODEV;
	gc = gaudi_cards_get(list, 0);
	snprintf(dbg, sizeof(dbg), "/sys/kernel/debug/accel/%s",
		 gaudi_card_pci_bus_id(gc));
	ret = gaudi_open_card(gc, 0, &dev);
	gaudi_cards_free(list);
	if (ret)
		return ret;
	if (posix_memalign((void **)&gsrc, 4096, IO_BUF) ||
	    posix_memalign((void **)&gdst, 4096, IO_BUF))
		return -ENOMEM;
	memset(gsrc, 0, IO_BUF);
	memset(gdst, 0, IO_BUF);
	ret = gaudi_map_host(dev, gsrc, IO_BUF, &smap);
	if (!ret)
		ret = gaudi_map_host(dev, gdst, IO_BUF, &dmap);
	if (ret)
		return ret;
	src_va = gaudi_mapping_va(smap);
	dst_va = gaudi_mapping_va(dmap);
	ret = gaudi_nic_port_open(dev, nic_port, 8, WQ_ENTRIES, CQ_ENTRIES,
				  &np);
	if (!ret)
		ret = link_up();
	if (!ret)
		ret = port_mac(my_mac);
	return ret;
}

static int hello(void)
{
	unsigned int m[6];
	struct in_addr a;
	uint64_t v;

	if (req("hello mac=%02x:%02x:%02x:%02x:%02x:%02x ip=%s", my_mac[0],
		my_mac[1], my_mac[2], my_mac[3], my_mac[4], my_mac[5],
		my_ip_s) ||
	    !kv_str(ans, "mac", peer.mac_s, sizeof(peer.mac_s)) ||
	    !kv_str(ans, "ip", peer.ip_s, sizeof(peer.ip_s)) ||
	    !kv_str(ans, "foreign", peer.foreign_s, sizeof(peer.foreign_s)) ||
	    !kv_u64(ans, "va", &peer.va) || !kv_u64(ans, "len", &peer.len) ||
	    !kv_u64(ans, "rkey", &v) || !kv_u64(ans, "mtu", &peer.mtu) ||
	    peer.len < IO_BUF || !inet_aton(peer.ip_s, &a) ||
	    sscanf(peer.mac_s, "%2x:%2x:%2x:%2x:%2x:%2x", &m[0], &m[1], &m[2],
		   &m[3], &m[4], &m[5]) != 6)
		return -EPROTO;
	peer.rkey = (uint32_t)v;
	peer.ip = ntohl(a.s_addr);
	for (int i = 0; i < 6; i++)
		peer.mac[i] = (uint8_t)m[i];
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	int ret;

	if (argc != 4 || !inet_aton(argv[3], &my_ip) ||
	    (nic_port = (unsigned int)atoi(argv[2])) >= GAUDI_NIC_PORTS) {
		fprintf(stderr,
			"usage: gaudi_interop PEER_CTL_IP[:PORT] NIC_PORT GAUDI_IP\n");
		return 2;
	}
	snprintf(my_ip_s, sizeof(my_ip_s), "%s", argv[3]);
	todo_list = getenv("INTEROP_TODO");
	tap_diag(
		"pending conformance (TODO): %s; regions and path MTU in libgaudi: %s",
		todo_list && *todo_list ? todo_list : "none",
		HAVE_REGIONS ? "yes" : "no");
	clock_gettime(CLOCK_MONOTONIC, &t0);

	ret = setup();
	if (!ok(!ret,
		"card 0 held, buffers mapped, port %u open with its link: %s",
		nic_port, ret ? gaudi_strerror(ret) : "yes"))
		return tap_done();
	ctl = ctl_connect(argv[1]);
	ret = ctl < 0 ? ctl : hello();
	if (!ok(!ret, "the verbs peer at %s: %s", argv[1],
		ctl < 0 ? strerror(-ctl) : ans))
		return tap_done();
	tap_diag(
		"card port %u: %02x:%02x:%02x:%02x:%02x:%02x at %s; peer %s at %s (foreign %s), active MTU %llu",
		nic_port, my_mac[0], my_mac[1], my_mac[2], my_mac[3], my_mac[4],
		my_mac[5], my_ip_s, peer.mac_s, peer.ip_s, peer.foreign_s,
		(unsigned long long)peer.mtu);
	ok(peer.mtu == 4096, "the peer's port runs at MTU 4096 (%llu)",
	   (unsigned long long)peer.mtu);

	test_writes(4096, 1);
	test_writes(1024, 1);
	test_reads(4096, 2);
	test_reads(1024, 2);
	test_sob();
	test_rnr();
	test_bad_key();
	test_bad_source_in();
	test_bad_source_out();
	test_big_qpn();
	test_counters();
	todo_report();

	ret = req("quit");
	ok(!ret, "the verbs peer says goodbye");
	ret = gaudi_nic_port_close(np);
	ret |= gaudi_unmap(smap);
	ret |= gaudi_unmap(dmap);
	gaudi_close(dev);
	free(gsrc);
	free(gdst);
	ok(!ret, "port closed, buffers unmapped, card released");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("%.1f s", (double)(t1.tv_sec - t0.tv_sec) +
				   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return tap_done();
}
