// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verbs_peer: the standard RoCE v2 end of the roce-interop suite
 * (Documentation/net/interop.rst), on rdma-core's libibverbs and Linux's
 * Soft-RoCE (rdma_rxe) in the peer VM.
 *
 *   verbs_peer DEVICE NETDEV IP FOREIGN_IP [CTL_PORT]
 *
 * DEVICE is the rxe device (rxe0) on NETDEV, the VM's NIC cabled to the
 * Gaudi card's port; IP its address, FOREIGN_IP a second address of
 * NETDEV, the source of the "bad source" QPs.  The peer registers one
 * memory region of IO_BUF bytes (local and remote write), listens on
 * CTL_PORT (default CTL_PORT of interop.h) of every address, takes one
 * conductor (gaudi_interop in the Gaudi VM) and does what it asks, one
 * line at a time (interop.h), until "quit" or the connection ends:
 *
 *   hello mac=M ip=A         neighbour entry A -> M on NETDEV (permanent:
 *                            the Gaudi port answers no ARP without
 *                            gaudi_en); ok mac= ip= foreign= va= rkey=
 *                            len= mtu= (the port's active MTU)
 *   qp id=N mtu=B [src=A] [psn=P]   an RC QP in INIT, sending from
 *                            address A (default IP), first PSN P (default
 *                            random); ok qpn= psn=
 *   rtr id=N qpn=Q psn=P ip=A [rnr=T] [timeout=T] [retry=R]
 *                            connect it (from any state: RESET, INIT,
 *                            RTR, RTS) to QP Q at A, whose first PSN is P;
 *                            minimum RNR timer code T (default 14), local
 *                            ACK timeout code (14), retry count (7), RNR
 *                            retry 7 (unlimited)
 *   burn above=N             create and destroy QPs until the next QPN
 *                            exceeds N (rxe numbers QPs cyclically);
 *                            ok qpn= (the last one) n=
 *   fill off=O len=L seed=S idx=I    region bytes O.. = pattern S from
 *                            its byte I (interop.h)
 *   check off=O len=L seed=S idx=I   ok, or err with the first wrong byte
 *   write id=N off=O len=L va=V rkey=K [imm=X] [ms=T]   an RDMA WRITE
 *                            (WITH IMMEDIATE X) of region bytes O..O+L-1
 *                            to V; ok wc=STATUS (success, rem_access_err,
 *                            retry_exc_err, ...) or wc=none after T ms
 *                            (default 20000)
 *   read id=N off=O len=L va=V rkey=K [ms=T]   an RDMA READ of L bytes
 *                            at V into region bytes O..; ok wc=STATUS as
 *                            for write
 *   recv id=N                post a receive (no buffer: for immediates)
 *   poll id=N [ms=T]         ok wc=none, or wc=STATUS op=OPCODE imm=X
 *   state id=N               ok state=reset|init|rtr|rts|sqd|sqe|err
 *   destroy id=N, quit
 *
 * Logs every request and answer on stdout ("verbs_peer: ..."); exit
 * status 0 after "quit", 1 on a setup failure or a lost conductor.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/random.h>
#include <sys/wait.h>

#include "interop.h"

#define MAX_QPS 16
#define CQ_DEPTH 64
#define WR_DEPTH 16
#define IP_TOOL "/usr/sbin/ip"
#define IDLE_MS 120000 /* the conductor's longest silence */

struct slot {
	struct ibv_qp *qp;
	struct ibv_cq *scq, *rcq;
	uint32_t psn;
	int sgid;
	enum ibv_mtu mtu;
};

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_mr *mr;
static uint8_t *buf;
static int port_mtu;
static const char *netdev;
static struct in_addr my_ip, foreign_ip;
static struct slot slots[MAX_QPS];

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("verbs_peer: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static uint32_t rand24(void)
{
	uint32_t v = 0;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		v = (uint32_t)time(NULL) * 2654435761U;
	return v & 0xFFFFFF;
}

/* The index of the RoCE v2 GID of IPv4 address @a on port 1, or -1. */
static int gid_index(struct in_addr a)
{
	struct ibv_port_attr pa;

	if (ibv_query_port(ctx, 1, &pa))
		return -1;
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		struct ibv_gid_entry e;
		static const uint8_t v4[12] = {[10] = 0xFF, [11] = 0xFF};

		if (ibv_query_gid_ex(ctx, 1, (uint32_t)i, &e, 0))
			continue;
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 &&
		    !memcmp(e.gid.raw, v4, 12) &&
		    !memcmp(e.gid.raw + 12, &a, 4))
			return i;
	}
	return -1;
}

/* Wait (at most 20 s) for the GIDs of both addresses. */
static bool gids_ready(void)
{
	for (int t = 0; t < 200; t++) {
		if (gid_index(my_ip) >= 0 && gid_index(foreign_ip) >= 0)
			return true;
		usleep(100000);
	}
	return false;
}

static const char *wc_name(enum ibv_wc_status s)
{
	static char other[24];

	switch (s) {
	case IBV_WC_SUCCESS:
		return "success";
	case IBV_WC_LOC_LEN_ERR:
		return "loc_len_err";
	case IBV_WC_LOC_QP_OP_ERR:
		return "loc_qp_op_err";
	case IBV_WC_LOC_PROT_ERR:
		return "loc_prot_err";
	case IBV_WC_WR_FLUSH_ERR:
		return "wr_flush_err";
	case IBV_WC_REM_INV_REQ_ERR:
		return "rem_inv_req_err";
	case IBV_WC_REM_ACCESS_ERR:
		return "rem_access_err";
	case IBV_WC_REM_OP_ERR:
		return "rem_op_err";
	case IBV_WC_RETRY_EXC_ERR:
		return "retry_exc_err";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "rnr_retry_exc_err";
	default:
		snprintf(other, sizeof(other), "status_%d", (int)s);
		return other;
	}
}

static const char *op_name(enum ibv_wc_opcode op)
{
	switch (op) {
	case IBV_WC_RDMA_WRITE:
		return "rdma_write";
	case IBV_WC_RECV:
		return "recv";
	case IBV_WC_RECV_RDMA_WITH_IMM:
		return "recv_rdma_with_imm";
	default:
		return "other";
	}
}

static enum ibv_mtu mtu_enum(uint64_t bytes)
{
	switch (bytes) {
	case 256:
		return IBV_MTU_256;
	case 512:
		return IBV_MTU_512;
	case 1024:
		return IBV_MTU_1024;
	case 2048:
		return IBV_MTU_2048;
	case 4096:
		return IBV_MTU_4096;
	}
	return 0;
}

/* ---- commands ------------------------------------------------------------ */

/* The slot of word id=N, with or without a QP. */
static struct slot *slot_of(const char *line, bool need_qp, char *err,
			    size_t elen)
{
	uint64_t id;

	if (!kv_u64(line, "id", &id) || id >= MAX_QPS) {
		snprintf(err, elen, "err id");
		return NULL;
	}
	if (need_qp && !slots[id].qp) {
		snprintf(err, elen, "err no QP %llu", (unsigned long long)id);
		return NULL;
	}
	return &slots[id];
}

static void slot_free(struct slot *s)
{
	if (s->qp)
		ibv_destroy_qp(s->qp);
	if (s->scq)
		ibv_destroy_cq(s->scq);
	if (s->rcq)
		ibv_destroy_cq(s->rcq);
	memset(s, 0, sizeof(*s));
}

static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     IBV_QP_ACCESS_FLAGS);
}

/*
 * ip neigh replace @ip lladdr @mac dev NETDEV nud permanent, with
 * iproute2's ip (gaudi-vm --verbs puts it at IP_TOOL; busybox's cannot,
 * and busybox's sh would run its own applet for a bare "ip").
 */
static int neigh_permanent(const char *ip, const char *mac)
{
	char *argv[] = {
		IP_TOOL,  "neigh",     "replace", (char *)ip,
		"lladdr", (char *)mac, "dev",	  (char *)netdev,
		"nud",	  "permanent", NULL,
	};
	pid_t pid;
	int st;

	if (posix_spawn(&pid, IP_TOOL, NULL, NULL, argv, environ))
		return -1;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st) ? -1 : 0;
}

static void cmd_hello(const char *line, char *out, size_t len)
{
	char mac[32], ip[32], own[32] = "", path[96];
	struct ibv_port_attr pa;
	FILE *f;

	if (!kv_str(line, "mac", mac, sizeof(mac)) ||
	    !kv_str(line, "ip", ip, sizeof(ip)) ||
	    strspn(mac, "0123456789abcdefABCDEF:") != strlen(mac) ||
	    strspn(ip, "0123456789.") != strlen(ip)) {
		snprintf(out, len, "err hello needs mac= and ip=");
		return;
	}
	if (neigh_permanent(ip, mac)) {
		snprintf(out, len, "err %s neigh replace %s lladdr %s failed",
			 IP_TOOL, ip, mac);
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", netdev);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%31s", own) != 1) {
		if (f)
			fclose(f);
		snprintf(out, len, "err %s unreadable", path);
		return;
	}
	fclose(f);
	if (ibv_query_port(ctx, 1, &pa)) {
		snprintf(out, len, "err query port");
		return;
	}
	port_mtu = 128 << pa.active_mtu;
	strcpy(ip, inet_ntoa(my_ip));
	snprintf(out, len,
		 "ok mac=%s ip=%s foreign=%s va=0x%llx rkey=0x%x len=%u mtu=%d",
		 own, ip, inet_ntoa(foreign_ip),
		 (unsigned long long)(uintptr_t)buf, mr->rkey, IO_BUF,
		 port_mtu);
}

static void cmd_qp(const char *line, char *out, size_t len)
{
	struct ibv_qp_init_attr ia;
	char src[32];
	struct in_addr a = my_ip;
	uint64_t mtu = 0, psn;
	struct slot *s = slot_of(line, false, out, len);

	if (!s)
		return;
	if (!kv_u64(line, "mtu", &mtu) || !mtu_enum(mtu)) {
		snprintf(out, len, "err mtu= (256..4096)");
		return;
	}
	if (kv_str(line, "src", src, sizeof(src)) && !inet_aton(src, &a)) {
		snprintf(out, len, "err src=");
		return;
	}
	slot_free(s);
	s->mtu = mtu_enum(mtu);
	s->sgid = gid_index(a);
	s->psn =
		kv_u64(line, "psn", &psn) ? (uint32_t)psn & 0xFFFFFF : rand24();
	if (s->sgid < 0) {
		snprintf(out, len, "err no GID for %s", inet_ntoa(a));
		return;
	}
	s->scq = ibv_create_cq(ctx, CQ_DEPTH, NULL, NULL, 0);
	s->rcq = ibv_create_cq(ctx, CQ_DEPTH, NULL, NULL, 0);
	if (!s->scq || !s->rcq) {
		slot_free(s);
		snprintf(out, len, "err create CQ: %s", strerror(errno));
		return;
	}
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = s->scq;
	ia.recv_cq = s->rcq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = WR_DEPTH;
	ia.cap.max_recv_wr = WR_DEPTH;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	s->qp = ibv_create_qp(pd, &ia);
	if (!s->qp || to_init(s->qp)) {
		snprintf(out, len, "err create QP: %s", strerror(errno));
		slot_free(s);
		return;
	}
	snprintf(out, len, "ok qpn=%u psn=%u", s->qp->qp_num, s->psn);
}

static void cmd_rtr(const char *line, char *out, size_t len)
{
	struct slot *s = slot_of(line, true, out, len);
	uint64_t qpn, psn, rnr = 14, timeout = 14, retry = 7;
	struct ibv_qp_attr a;
	struct in_addr dst;
	char ip[32];

	if (!s)
		return;
	if (!kv_u64(line, "qpn", &qpn) || !kv_u64(line, "psn", &psn) ||
	    !kv_str(line, "ip", ip, sizeof(ip)) || !inet_aton(ip, &dst) ||
	    qpn > 0xFFFFFF || psn > 0xFFFFFF) {
		snprintf(out, len, "err rtr needs qpn= psn= ip=");
		return;
	}
	kv_u64(line, "rnr", &rnr);
	kv_u64(line, "timeout", &timeout);
	kv_u64(line, "retry", &retry);
	/* From any state: back to RESET and INIT first. */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RESET;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE) || to_init(s->qp)) {
		snprintf(out, len, "err reset/init: %s", strerror(errno));
		return;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = s->mtu;
	a.dest_qp_num = (uint32_t)qpn;
	a.rq_psn = (uint32_t)psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = (uint8_t)(rnr & 31);
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.sgid_index = (uint8_t)s->sgid;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.dgid.raw[10] = 0xFF;
	a.ah_attr.grh.dgid.raw[11] = 0xFF;
	memcpy(a.ah_attr.grh.dgid.raw + 12, &dst, 4);
	if (ibv_modify_qp(s->qp, &a,
			  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				  IBV_QP_MAX_DEST_RD_ATOMIC |
				  IBV_QP_MIN_RNR_TIMER)) {
		snprintf(out, len, "err RTR: %s", strerror(errno));
		return;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = (uint8_t)(timeout & 31);
	a.retry_cnt = (uint8_t)(retry & 7);
	a.rnr_retry = 7;
	a.sq_psn = s->psn;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(s->qp, &a,
			  IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				  IBV_QP_MAX_QP_RD_ATOMIC)) {
		snprintf(out, len, "err RTS: %s", strerror(errno));
		return;
	}
	snprintf(out, len, "ok");
}

static void cmd_burn(const char *line, char *out, size_t len)
{
	struct ibv_qp_init_attr ia;
	struct ibv_cq *cq;
	uint64_t above;
	uint32_t last = 0;
	unsigned int n = 0;

	if (!kv_u64(line, "above", &above) || above > 0xFFFF) {
		snprintf(out, len, "err above= (..65535)");
		return;
	}
	cq = ibv_create_cq(ctx, 1, NULL, NULL, 0);
	if (!cq) {
		snprintf(out, len, "err create CQ: %s", strerror(errno));
		return;
	}
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = 1;
	ia.cap.max_recv_wr = 1;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	while (last < above && n < 70000) {
		struct ibv_qp *qp = ibv_create_qp(pd, &ia);

		if (!qp)
			break;
		last = qp->qp_num;
		n++;
		ibv_destroy_qp(qp);
	}
	ibv_destroy_cq(cq);
	if (last < above)
		snprintf(out, len, "err QPN %u after %u QPs: %s", last, n,
			 strerror(errno));
	else
		snprintf(out, len, "ok qpn=%u n=%u", last, n);
}

static void cmd_fill(const char *line, char *out, size_t len, bool check)
{
	uint64_t off, l, seed, idx;
	unsigned int got = 0, want = 0;
	size_t at = 0, bad = 0;

	if (!kv_u64(line, "off", &off) || !kv_u64(line, "len", &l) ||
	    !kv_u64(line, "seed", &seed) || !kv_u64(line, "idx", &idx) ||
	    off > IO_BUF || l > IO_BUF - off) {
		snprintf(out, len, "err off= len= seed= idx=");
		return;
	}
	if (!check) {
		io_fill(buf + off, l, (uint32_t)seed, idx);
		snprintf(out, len, "ok");
	} else if (io_check(buf + off, l, (uint32_t)seed, idx, &at, &got, &want,
			    &bad)) {
		snprintf(out, len, "ok");
	} else {
		snprintf(
			out, len,
			"err %zu bytes wrong, first at %llu: 0x%02x, want 0x%02x",
			bad, (unsigned long long)(off + at), got, want);
	}
}

/* Poll @cq for one completion for at most @ms. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, uint64_t ms)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n)
			return n;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if ((uint64_t)((t1.tv_sec - t0.tv_sec) * 1000 +
			       (t1.tv_nsec - t0.tv_nsec) / 1000000) >= ms)
			return 0;
		usleep(200);
	}
}

/* write, or read (@read: an RDMA READ of V's bytes into the region). */
static void cmd_write(const char *line, char *out, size_t len, bool read)
{
	struct slot *s = slot_of(line, true, out, len);
	uint64_t off, l, va, rkey, imm = 0, ms = 20000;
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	struct ibv_wc wc;
	bool with_imm;
	int n;

	if (!s)
		return;
	if (!kv_u64(line, "off", &off) || !kv_u64(line, "len", &l) ||
	    !kv_u64(line, "va", &va) || !kv_u64(line, "rkey", &rkey) ||
	    off > IO_BUF || l > IO_BUF - off || rkey > 0xFFFFFFFF) {
		snprintf(out, len, "err %s needs off= len= va= rkey=",
			 read ? "read" : "write");
		return;
	}
	with_imm = kv_u64(line, "imm", &imm);
	kv_u64(line, "ms", &ms);
	memset(&sge, 0, sizeof(sge));
	sge.addr = (uintptr_t)(buf + off);
	sge.length = (uint32_t)l;
	sge.lkey = mr->lkey;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 1;
	wr.sg_list = &sge;
	wr.num_sge = l ? 1 : 0;
	wr.opcode = read ? IBV_WR_RDMA_READ :
		    with_imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.imm_data = htonl((uint32_t)imm);
	wr.wr.rdma.remote_addr = va;
	wr.wr.rdma.rkey = (uint32_t)rkey;
	if (ibv_post_send(s->qp, &wr, &bad)) {
		snprintf(out, len, "err post: %s", strerror(errno));
		return;
	}
	n = poll_one(s->scq, &wc, ms);
	if (n < 0)
		snprintf(out, len, "err poll");
	else if (!n)
		snprintf(out, len, "ok wc=none");
	else
		snprintf(out, len, "ok wc=%s", wc_name(wc.status));
}

static void cmd_recv(const char *line, char *out, size_t len)
{
	struct slot *s = slot_of(line, true, out, len);
	struct ibv_recv_wr wr, *bad;

	if (!s)
		return;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 2;
	if (ibv_post_recv(s->qp, &wr, &bad))
		snprintf(out, len, "err post recv: %s", strerror(errno));
	else
		snprintf(out, len, "ok");
}

static void cmd_poll(const char *line, char *out, size_t len)
{
	struct slot *s = slot_of(line, true, out, len);
	uint64_t ms = 0;
	struct ibv_wc wc;
	int n;

	if (!s)
		return;
	kv_u64(line, "ms", &ms);
	n = poll_one(s->rcq, &wc, ms);
	if (n < 0)
		snprintf(out, len, "err poll");
	else if (!n)
		snprintf(out, len, "ok wc=none");
	else
		snprintf(out, len, "ok wc=%s op=%s imm=0x%x len=%u",
			 wc_name(wc.status), op_name(wc.opcode),
			 wc.wc_flags & IBV_WC_WITH_IMM ? ntohl(wc.imm_data) : 0,
			 wc.byte_len);
}

static void cmd_state(const char *line, char *out, size_t len)
{
	static const char *const names[] = {
		"reset", "init", "rtr", "rts", "sqd", "sqe", "err",
	};
	struct slot *s = slot_of(line, true, out, len);
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (!s)
		return;
	if (ibv_query_qp(s->qp, &a, IBV_QP_STATE, &ia)) {
		snprintf(out, len, "err query QP: %s", strerror(errno));
		return;
	}
	snprintf(out, len, "ok state=%s",
		 a.qp_state < sizeof(names) / sizeof(names[0])
			 ? names[a.qp_state]
			 : "unknown");
}

/* One request; false after "quit". */
static bool serve(const char *line, char *out, size_t len)
{
	char cmd[16] = "";
	struct slot *s;

	sscanf(line, "%15s", cmd);
	if (!strcmp(cmd, "hello")) {
		cmd_hello(line, out, len);
	} else if (!strcmp(cmd, "qp")) {
		cmd_qp(line, out, len);
	} else if (!strcmp(cmd, "rtr")) {
		cmd_rtr(line, out, len);
	} else if (!strcmp(cmd, "burn")) {
		cmd_burn(line, out, len);
	} else if (!strcmp(cmd, "fill") || !strcmp(cmd, "check")) {
		cmd_fill(line, out, len, cmd[0] == 'c');
	} else if (!strcmp(cmd, "write") || !strcmp(cmd, "read")) {
		cmd_write(line, out, len, cmd[0] == 'r');
	} else if (!strcmp(cmd, "recv")) {
		cmd_recv(line, out, len);
	} else if (!strcmp(cmd, "poll")) {
		cmd_poll(line, out, len);
	} else if (!strcmp(cmd, "state")) {
		cmd_state(line, out, len);
	} else if (!strcmp(cmd, "destroy")) {
		s = slot_of(line, false, out, len);
		if (s) {
			slot_free(s);
			snprintf(out, len, "ok");
		}
	} else if (!strcmp(cmd, "quit")) {
		snprintf(out, len, "ok");
		return false;
	} else {
		snprintf(out, len, "err unknown command '%s'", cmd);
	}
	return true;
}

static int setup(const char *devname)
{
	struct ibv_device **list;
	int n, i;

	list = ibv_get_device_list(&n);
	if (!list) {
		say("no verbs devices: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), devname))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx) {
		say("no device %s among %d", devname, n);
		return -1;
	}
	pd = ibv_alloc_pd(ctx);
	if (posix_memalign((void **)&buf, 4096, IO_BUF) || !pd) {
		say("PD or buffer: %s", strerror(errno));
		return -1;
	}
	memset(buf, 0, IO_BUF);
	mr = ibv_reg_mr(pd, buf, IO_BUF,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr) {
		say("register %u bytes: %s", IO_BUF, strerror(errno));
		return -1;
	}
	if (!gids_ready()) {
		say("no RoCE v2 GID for %s or the foreign address",
		    inet_ntoa(my_ip));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa;
	char line[CTL_LINE], out[CTL_LINE];
	int lfd, fd, one = 1, ret;
	bool more = true;

	if (argc < 5 || argc > 6 || !inet_aton(argv[3], &my_ip) ||
	    !inet_aton(argv[4], &foreign_ip)) {
		fprintf(stderr,
			"usage: verbs_peer DEVICE NETDEV IP FOREIGN_IP [CTL_PORT]\n");
		return 2;
	}
	netdev = argv[2];
	if (setup(argv[1]))
		return 1;
	say("%s on %s, %s (foreign %s), region 0x%llx rkey 0x%x", argv[1],
	    netdev, argv[3], argv[4], (unsigned long long)(uintptr_t)buf,
	    mr->rkey);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(argc > 5 ? (uint16_t)atoi(argv[5]) : CTL_PORT);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1)) {
		say("listen: %s", strerror(errno));
		return 1;
	}
	say("listening on port %u", ntohs(sa.sin_port));
	fd = accept(lfd, NULL, NULL);
	close(lfd);
	if (fd < 0) {
		say("accept: %s", strerror(errno));
		return 1;
	}
	while (more) {
		ret = ctl_recv(fd, line, sizeof(line), IDLE_MS);
		if (ret) {
			say("conductor gone: %s", strerror(-ret));
			return 1;
		}
		more = serve(line, out, sizeof(out));
		say("%s -> %s", line, out);
		if (ctl_send(fd, "%s", out))
			return 1;
	}
	close(fd);
	for (int i = 0; i < MAX_QPS; i++)
		slot_free(&slots[i]);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(buf);
	return 0;
}
