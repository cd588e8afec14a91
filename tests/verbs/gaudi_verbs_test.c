// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verbs of gaudi_ib.ko and its provider, through libibverbs only
 * (issue 25), between two cards of one host whose ports are cabled:
 *
 *   gaudi_verbs_test DEV0 DEV1 GID0 GID1 FOREIGN_GID0 [MTU]
 *
 * DEV0 and DEV1 are the two cards' RDMA devices, port 1 of each cabled to
 * the other; GID0/GID1 the RoCE v2 GID indexes of their addresses, and
 * FOREIGN_GID0 the index of a second address of DEV0's port (a source the
 * other end was not connected to).  MTU: the path MTU (1024 default).
 *
 *   1  every verb with bad arguments: the errno, nothing created
 *   2  RC data, byte for byte: RDMA WRITE, WRITE with immediate, SEND and
 *      RECV (with an armed CQ's event through the completion channel),
 *      RDMA READ
 *   3  the isolation classes of issue 22 through verbs: a write below a
 *      region, across its end, into a region without remote write, a
 *      read of one without remote read, with a deregistered region's key;
 *      a stale QP (destroyed, its number's next QP untouched); the next
 *      holder of the card (the old keys and QP reach nothing of it); a
 *      foreign source (another address of the peer's port) -- each leaves
 *      the target's memory unchanged, byte for byte
 *   4  the staging rings (uapi/rdma/gaudi_ib_abi.h), as a hostile user of
 *      the provider's own mapping: a ring rewritten after the kick, bogus
 *      producer indexes, WRs outside their region or beyond the device,
 *      reserved fields, bad mmaps, a ring written after its QP is gone --
 *      each refused or harmless, the peer's memory as the kicks said
 *
 * GAUDI_VERBS_KERNEL_POST=1 (the provider's) runs 1-3 on the kernel data
 * path; 4 then checks that the QPs have no rings.
 *
 * VERBS_TODO (a reason) makes every result a TODO, VERBS_TODO_SEND those
 * of SEND/RECV.  The kernel log is the suite's to judge.  TAP, "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include "../../uapi/rdma/gaudi_ib_abi.h"

#include "tap.h"

/*
 * VERBS_TODO (environment): why these checks are not expected to pass yet;
 * when set, every result is a TODO (run, shown, counted as skipped).
 */
static const char *todo_why, *todo_send;
#undef ok
#define ok(cond, ...)                                                        \
	({                                                                   \
		int _c = !!(cond);                                           \
		if (todo_why)                                                \
			tap_todo(_c, todo_why, __VA_ARGS__);                 \
		else if (!tap_ok(_c, __VA_ARGS__))                           \
			tap_diag("failed: %s at %s:%d", #cond, __FILE__,     \
				 __LINE__);                                  \
		_c;                                                          \
	})

/* A check of SEND/RECV: a TODO also when VERBS_TODO_SEND says why. */
#define ok_send(cond, ...)                                                   \
	({                                                                   \
		int _s = !!(cond);                                           \
		if (!todo_why && todo_send)                                  \
			tap_todo(_s, todo_send, __VA_ARGS__);                \
		else                                                         \
			ok(_s, __VA_ARGS__);                                 \
		_s;                                                          \
	})

#define BUF_LEN (256 * 1024)
#define HALF (BUF_LEN / 2) /* b's region; its second half for others */
#define PORT 1

struct end {
	struct ibv_context *ctx;
	struct ibv_comp_channel *ch;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	union ibv_gid gid;
	int gid_index;
};

static enum ibv_mtu path_mtu = IBV_MTU_1024;

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

static struct ibv_qp *qp_new(struct end *e)
{
	struct ibv_qp_init_attr a = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = {.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 1,
			.max_recv_sge = 1},
		.qp_type = IBV_QPT_RC,
	};

	return ibv_create_qp(e->pd, &a);
}

/*
 * A card's end: context, PD, CQ, QP, a buffer of BUF_LEN whose first
 * @mr_len bytes are registered (regions may not share a page: the rest is
 * for the isolation checks' own regions).
 */
static int end_open(struct end *e, const char *dev, int gid_index,
		    size_t mr_len)
{
	memset(e, 0, sizeof(*e));
	e->gid_index = gid_index;
	e->ctx = open_dev(dev);
	if (!e->ctx)
		return -1;
	e->pd = ibv_alloc_pd(e->ctx);
	e->ch = e->pd ? ibv_create_comp_channel(e->ctx) : NULL;
	e->cq = e->ch ? ibv_create_cq(e->ctx, 64, NULL, e->ch, 0) : NULL;
	e->buf = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!e->cq || e->buf == MAP_FAILED)
		return -1;
	e->mr = ibv_reg_mr(e->pd, e->buf, mr_len,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ);
	e->qp = e->mr ? qp_new(e) : NULL;
	if (!e->qp || ibv_query_gid(e->ctx, PORT, gid_index, &e->gid))
		return -1;
	return 0;
}

static void end_close(struct end *e)
{
	if (e->qp)
		ibv_destroy_qp(e->qp);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->cq)
		ibv_destroy_cq(e->cq);
	if (e->ch)
		ibv_destroy_comp_channel(e->ch);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->ctx)
		ibv_close_device(e->ctx);
	if (e->buf && e->buf != MAP_FAILED)
		munmap(e->buf, BUF_LEN);
	memset(e, 0, sizeof(*e));
}

/* RESET -> INIT -> RTR -> RTS, to @rqpn behind @rgid, source @sgid_index. */
static int qp_connect(struct ibv_qp *qp, int sgid_index,
		      const union ibv_gid *rgid, uint32_t rqpn, uint32_t psn,
		      uint32_t rpsn, uint8_t timeout, uint8_t retry)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = PORT,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};
	int ret;

	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = path_mtu;
	a.dest_qp_num = rqpn;
	a.rq_psn = rpsn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *rgid;
	a.ah_attr.grh.sgid_index = sgid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = PORT;
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					    IBV_QP_MAX_DEST_RD_ATOMIC |
					    IBV_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = timeout;
	a.retry_cnt = retry;
	a.rnr_retry = retry;
	a.sq_psn = psn;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
					     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					     IBV_QP_SQ_PSN |
					     IBV_QP_MAX_QP_RD_ATOMIC);
}

/* The two ends' QPs connected to each other. */
static int pair_connect(struct end *a, struct end *b)
{
	return qp_connect(a->qp, a->gid_index, &b->gid, b->qp->qp_num, 100,
			  200, 14, 7) ||
	       qp_connect(b->qp, b->gid_index, &a->gid, a->qp->qp_num, 200,
			  100, 14, 7);
}

/* Both QPs replaced by fresh ones, connected (after an error). */
static int pair_renew(struct end *a, struct end *b)
{
	ibv_destroy_qp(a->qp);
	ibv_destroy_qp(b->qp);
	a->qp = qp_new(a);
	b->qp = qp_new(b);
	return !a->qp || !b->qp || pair_connect(a, b);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* One completion of @cq within @secs: 0 and *wc, or -1. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, double secs)
{
	double end = now() + secs;

	do {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n < 0)
			return -1;
		if (n == 1)
			return 0;
		usleep(1000);
	} while (now() < end);
	return -1;
}

/* Post one request of @e's QP; its completion status (or -1: none). */
static int do_op(struct end *e, struct ibv_qp *qp, enum ibv_wr_opcode op,
		 size_t off, uint32_t len, uint64_t raddr, uint32_t rkey,
		 double secs)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf + off,
		.length = len,
		.lkey = e->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 0x5eed,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(0x1234abcd),
		.wr.rdma = {.remote_addr = raddr, .rkey = rkey},
	};
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	if (ibv_post_send(qp, &wr, &bad))
		return -2;
	if (poll_one(e->cq, &wc, secs))
		return -1;
	return wc.status;
}

static int post_recv(struct end *e, size_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf + off,
		.length = len,
		.lkey = e->mr->lkey,
	};
	struct ibv_recv_wr wr = {.wr_id = 0xcafe, .sg_list = &sge, .num_sge = 1};
	struct ibv_recv_wr *bad;

	return ibv_post_recv(e->qp, &wr, &bad);
}

static uint8_t ref[BUF_LEN];

/* @e's buffer as last filled (ref) */
static int unchanged(const struct end *e)
{
	return !memcmp(e->buf, ref, BUF_LEN);
}

static void refill(struct end *e, unsigned int seed)
{
	fill(e->buf, BUF_LEN, seed);
	memcpy(ref, e->buf, BUF_LEN);
}

/* ---- 1: bad arguments ------------------------------------------------- */

static void bad_arguments(struct end *a, const struct end *b)
{
	struct ibv_device_attr da;
	struct ibv_qp_init_attr qa;
	struct ibv_qp_attr m;
	struct ibv_send_wr swr, *sbad;
	struct ibv_recv_wr rwr, *rbad;
	struct ibv_sge sg[2];
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	void *gone;

	ok(!ibv_query_device(a->ctx, &da), "ibv_query_device: max_cqe %d, max_qp_wr %d, max_sge %d",
	   da.max_cqe, da.max_qp_wr, da.max_sge);
	errno = 0;
	cq = ibv_create_cq(a->ctx, 0, NULL, NULL, 0);
	ok(!cq && errno == EINVAL, "create_cq with 0 entries: EINVAL (%s)", strerror(errno));
	errno = 0;
	cq = ibv_create_cq(a->ctx, da.max_cqe + 1, NULL, NULL, 0);
	ok(!cq && errno == EINVAL, "create_cq with max_cqe + 1 entries: EINVAL (%s)", strerror(errno));
	errno = 0;
	cq = ibv_create_cq(a->ctx, 4, NULL, NULL, a->ctx->num_comp_vectors);
	ok(!cq && errno == EINVAL, "create_cq on comp vector %d of %d: EINVAL (%s)",
	   a->ctx->num_comp_vectors, a->ctx->num_comp_vectors, strerror(errno));

	errno = 0;
	mr = ibv_reg_mr(a->pd, a->buf, 0, IBV_ACCESS_LOCAL_WRITE);
	ok(!mr && errno == EINVAL, "reg_mr of 0 bytes: EINVAL (%s)", strerror(errno));
	gone = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, 65536);
	errno = 0;
	mr = ibv_reg_mr(a->pd, gone, 65536, IBV_ACCESS_LOCAL_WRITE);
	ok(!mr && (errno == EFAULT || errno == ENOMEM), "reg_mr of unmapped memory: EFAULT or ENOMEM (%s)",
	   strerror(errno));
	errno = 0;
	mr = ibv_reg_mr(a->pd, a->buf, 4096, IBV_ACCESS_REMOTE_WRITE);
	ok(!mr && errno == EINVAL, "reg_mr with remote write but no local write: EINVAL (%s)",
	   strerror(errno));
	errno = 0;
	mr = ibv_reg_mr(a->pd, a->buf, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
	ok(!mr && (errno == EINVAL || errno == EOPNOTSUPP),
	   "reg_mr with remote atomic (no atomics): EINVAL or EOPNOTSUPP (%s)", strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);

	memset(&qa, 0, sizeof(qa));
	qa.send_cq = a->cq;
	qa.recv_cq = a->cq;
	qa.cap.max_send_wr = 4;
	qa.cap.max_recv_wr = 4;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.qp_type = IBV_QPT_UD;
	errno = 0;
	qp = ibv_create_qp(a->pd, &qa);
	ok(!qp && errno == EOPNOTSUPP, "create_qp UD: EOPNOTSUPP (%s)", strerror(errno));
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_sge = da.max_sge + 1;
	errno = 0;
	qp = ibv_create_qp(a->pd, &qa);
	ok(!qp && errno == EINVAL, "create_qp with max_sge + 1 SGEs: EINVAL (%s)", strerror(errno));
	qa.cap.max_send_sge = 1;
	qa.cap.max_send_wr = da.max_qp_wr + 1;
	errno = 0;
	qp = ibv_create_qp(a->pd, &qa);
	ok(!qp && errno == EINVAL, "create_qp with max_qp_wr + 1 WRs: EINVAL (%s)", strerror(errno));
	qa.cap.max_send_wr = 4;
	qa.cap.max_inline_data = 4096;
	errno = 0;
	qp = ibv_create_qp(a->pd, &qa);
	ok(!qp && errno == EINVAL, "create_qp with 4 KiB of inline data: EINVAL (%s)", strerror(errno));
	qa.cap.max_inline_data = 0;

	qp = ibv_create_qp(a->pd, &qa);
	if (!ok(qp != NULL, "a fresh RC QP (qpn %u)", qp ? qp->qp_num : 0))
		return;
	memset(&swr, 0, sizeof(swr));
	sg[0] = (struct ibv_sge){(uintptr_t)a->buf, 64, a->mr->lkey};
	sg[1] = sg[0];
	swr.sg_list = sg;
	swr.num_sge = 1;
	swr.opcode = IBV_WR_SEND;
	ok(ibv_post_send(qp, &swr, &sbad) == EINVAL, "post_send on a RESET QP: EINVAL");
	memset(&rwr, 0, sizeof(rwr));
	rwr.sg_list = sg;
	rwr.num_sge = 2;
	ok(ibv_post_recv(qp, &rwr, &rbad) == EINVAL, "post_recv with 2 SGEs: EINVAL");
	memset(&m, 0, sizeof(m));
	m.qp_state = IBV_QPS_RTR;
	ok(ibv_modify_qp(qp, &m, IBV_QP_STATE) == EINVAL, "modify_qp RESET -> RTR: EINVAL");
	m.qp_state = IBV_QPS_INIT;
	m.port_num = 11;
	ok(ibv_modify_qp(qp, &m, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					 IBV_QP_ACCESS_FLAGS) == EINVAL,
	   "modify_qp to INIT on port 11 (of 10): EINVAL");
	m.port_num = PORT;
	m.pkey_index = 1;
	ok(ibv_modify_qp(qp, &m, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					 IBV_QP_ACCESS_FLAGS) == EINVAL,
	   "modify_qp to INIT with P_Key index 1 (of 1): EINVAL");
	m.pkey_index = 0;
	m.qp_access_flags = IBV_ACCESS_REMOTE_ATOMIC;
	ok(ibv_modify_qp(qp, &m, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					 IBV_QP_ACCESS_FLAGS) != 0,
	   "modify_qp to INIT with remote atomic access: refused");
	m.qp_access_flags = 0;
	ok(!ibv_modify_qp(qp, &m, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					  IBV_QP_ACCESS_FLAGS),
	   "modify_qp to INIT: accepted");
	memset(&m, 0, sizeof(m));
	m.qp_state = IBV_QPS_RTR;
	m.path_mtu = IBV_MTU_1024;
	m.dest_qp_num = b->qp->qp_num;
	m.ah_attr.is_global = 1;
	m.ah_attr.grh.dgid = b->gid;
	m.ah_attr.grh.sgid_index = 200;
	m.ah_attr.port_num = PORT;
	ok(ibv_modify_qp(qp, &m, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					 IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					 IBV_QP_MAX_DEST_RD_ATOMIC |
					 IBV_QP_MIN_RNR_TIMER) == EINVAL,
	   "modify_qp to RTR from source GID index 200: EINVAL");
	swr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	ok(ibv_post_send(qp, &swr, &sbad) != 0, "post_send of an atomic: refused");
	swr.opcode = IBV_WR_SEND;
	swr.num_sge = 2;
	ok(ibv_post_send(qp, &swr, &sbad) == EINVAL, "post_send with 2 SGEs: EINVAL");
	ok(ibv_destroy_cq(a->cq) == EBUSY, "destroy_cq of a CQ a QP uses: EBUSY");
	ok(ibv_dealloc_pd(a->pd) == EBUSY, "dealloc_pd of a PD with a QP and a region: EBUSY");
	ok(!ibv_destroy_qp(qp), "destroy_qp");
}

/* ---- 2: data ----------------------------------------------------------- */

static void data(struct end *a, struct end *b)
{
	struct ibv_wc wc;
	int st;

	fill(a->buf, BUF_LEN, 1);
	fill(b->buf, BUF_LEN, 2);
	st = do_op(a, a->qp, IBV_WR_RDMA_WRITE, 0, 65536,
		   (uintptr_t)b->buf + 4096, b->mr->rkey, 10);
	ok(st == IBV_WC_SUCCESS && !memcmp(b->buf + 4096, a->buf, 65536),
	   "RDMA WRITE of 64 KiB: completed (%d), landed byte for byte", st);
	ok(!post_recv(b, 120000, 64), "post_recv for a write with immediate");
	ok(!ibv_req_notify_cq(b->cq, 0), "b's CQ armed (req_notify_cq)");
	st = do_op(a, a->qp, IBV_WR_RDMA_WRITE_WITH_IMM, 20000, 3000,
		   (uintptr_t)b->buf + 100000, b->mr->rkey, 10);
	{
		struct pollfd pfd = {.fd = b->ch->fd, .events = POLLIN};
		struct ibv_cq *ev_cq = NULL;
		void *ev_ctx;

		ok(poll(&pfd, 1, 10000) == 1 &&
			   !ibv_get_cq_event(b->ch, &ev_cq, &ev_ctx) &&
			   ev_cq == b->cq,
		   "the completion channel delivers b's CQ's event");
		if (ev_cq)
			ibv_ack_cq_events(ev_cq, 1);
	}
	ok(st == IBV_WC_SUCCESS && !poll_one(b->cq, &wc, 10) &&
		   wc.status == IBV_WC_SUCCESS &&
		   wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
		   (wc.wc_flags & IBV_WC_WITH_IMM) &&
		   ntohl(wc.imm_data) == 0x1234abcd &&
		   !memcmp(b->buf + 100000, a->buf + 20000, 3000),
	   "RDMA WRITE with immediate: data byte for byte, the immediate in the receive");
	ok(!post_recv(b, 76000, 16384), "post_recv of 16 KiB");
	st = do_op(a, a->qp, IBV_WR_SEND, 8192, 12000, 0, 0, 10);
	ok_send(st == IBV_WC_SUCCESS && !poll_one(b->cq, &wc, 10) &&
			wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
			wc.byte_len == 12000 && wc.wr_id == 0xcafe &&
			wc.qp_num == b->qp->qp_num &&
			!memcmp(b->buf + 76000, a->buf + 8192, 12000),
		"SEND of 12000 bytes: the receive completes with its length and wr_id, data byte for byte (%d)",
		st);
	if (st != IBV_WC_SUCCESS && !pair_renew(a, b))
		tap_diag("QPs renewed after the SEND");
	fill(b->buf + 104000, 24576, 9);
	st = do_op(a, a->qp, IBV_WR_RDMA_READ, 131072, 24576,
		   (uintptr_t)b->buf + 104000, b->mr->rkey, 10);
	ok(st == IBV_WC_SUCCESS && !memcmp(a->buf + 131072, b->buf + 104000, 24576),
	   "RDMA READ of 24 KiB: completed (%d), byte for byte", st);
}

/* ---- 3: isolation ------------------------------------------------------ */

/* A write or read that must be refused: not a success, target unchanged. */
static void refused(struct end *a, struct end *b, enum ibv_wr_opcode op,
		    uint64_t raddr, uint32_t len, uint32_t rkey, const char *what)
{
	int st;

	refill(b, 5);
	memset(a->buf, 0x5a, BUF_LEN);
	st = do_op(a, a->qp, op, 0, len, raddr, rkey, 20);
	ok(st != IBV_WC_SUCCESS && unchanged(b) &&
		   (op != IBV_WR_RDMA_READ || a->buf[0] == 0x5a),
	   "%s: refused (status %d, %s), the target unchanged", what, st,
	   st >= 0 ? ibv_wc_status_str(st) : "no completion");
	ok(!pair_renew(a, b), "both QPs renewed and connected");
}

/* The isolation checks' regions: in b's buffer, past b's own region. */
#define REG (HALF + 32768)

static void isolation(struct end *a, struct end *b, int foreign_gid)
{
	uintptr_t base = (uintptr_t)b->buf;
	struct ibv_mr *mr;
	struct ibv_qp *old, *f;
	uint32_t key;
	int st;

	mr = ibv_reg_mr(b->pd, b->buf + REG, 8192,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (ok(mr != NULL, "a region of 8 KiB at 160 KiB, remote write only")) {
		refused(a, b, IBV_WR_RDMA_WRITE, base + REG - 64, 128, mr->rkey,
			"a write starting 64 bytes below the region");
		refused(a, b, IBV_WR_RDMA_WRITE, base + REG + 8192 - 100, 200,
			mr->rkey, "a write across the region's end");
		refused(a, b, IBV_WR_RDMA_READ, base + REG, 4096, mr->rkey,
			"a read of a region without remote read");
		refill(b, 6);
		st = do_op(a, a->qp, IBV_WR_RDMA_WRITE, 0, 8192, base + REG,
			   mr->rkey, 10);
		ok(st == IBV_WC_SUCCESS && !memcmp(b->buf + REG, a->buf, 8192),
		   "the whole region written: accepted (%d)", st);
		key = mr->rkey;
		ok(!ibv_dereg_mr(mr), "the region deregistered");
		refused(a, b, IBV_WR_RDMA_WRITE, base + REG, 64, key,
			"a write with the deregistered region's key");
	}
	mr = ibv_reg_mr(b->pd, b->buf + REG, 8192, IBV_ACCESS_REMOTE_READ);
	if (ok(mr != NULL, "a region with remote read only")) {
		refused(a, b, IBV_WR_RDMA_WRITE, base + REG, 64, mr->rkey,
			"a write into a region without remote write");
		ibv_dereg_mr(mr);
	}
	refused(a, b, IBV_WR_RDMA_WRITE, base, 64, b->mr->rkey ^ 0x400,
		"a write with a guessed key (the valid one with bit 10 flipped)");

	/* A stale QP: b's QP replaced; a's, still aimed at the old number. */
	old = b->qp;
	b->qp = qp_new(b);
	ok(b->qp != NULL && !ibv_destroy_qp(old), "b's QP %u destroyed, a new one %u",
	   old->qp_num, b->qp ? b->qp->qp_num : 0);
	refill(b, 7);
	st = do_op(a, a->qp, IBV_WR_RDMA_WRITE, 0, 4096, base, b->mr->rkey, 30);
	ok(st != IBV_WC_SUCCESS && unchanged(b),
	   "a write to the destroyed QP: not completed successfully (%d), nothing landed", st);
	ok(!pair_renew(a, b), "both QPs renewed and connected");

	/* A foreign source: another address of a's port, b's QP number. */
	f = qp_new(a);
	if (ok(f && !qp_connect(f, foreign_gid, &b->gid, b->qp->qp_num, 100, 200, 10, 1),
	       "a QP of card 0 from its second address (GID %d), aimed at b's QP", foreign_gid)) {
		refill(b, 8);
		st = do_op(a, f, IBV_WR_RDMA_WRITE, 0, 4096, base, b->mr->rkey, 30);
		ok(st != IBV_WC_SUCCESS && unchanged(b),
		   "its write with b's key and PSN: not completed successfully (%d), nothing landed", st);
		st = do_op(a, a->qp, IBV_WR_RDMA_WRITE, 0, 4096, base, b->mr->rkey, 10);
		ok(st == IBV_WC_SUCCESS && !memcmp(b->buf, a->buf, 4096),
		   "b's own connection still works (%d)", st);
	}
	if (f)
		ibv_destroy_qp(f);
}

/*
 * The next holder: b's whole context closed (card 1 free), a child
 * process takes card 1 with a buffer at the same address and a QP; a's QP
 * and b's old key reach nothing of it.
 */
static void next_holder(struct end *a, struct end *b, const char *dev1, int gid1)
{
	uintptr_t old_buf = (uintptr_t)b->buf;
	uint32_t old_key = b->mr->rkey, old_qpn = b->qp->qp_num;
	int to_child[2], to_parent[2], status, st;
	char c = 0;
	pid_t pid;

	end_close(b);
	if (pipe(to_child) || pipe(to_parent))
		return;
	pid = fork();
	if (pid == 0) {
		struct end n;
		int good;

		good = !end_open(&n, dev1, gid1, BUF_LEN);
		if (good)
			refill(&n, 11);
		c = good ? 'r' : 'x';
		if (write(to_parent[1], &c, 1) != 1 || read(to_child[0], &c, 1) != 1)
			_exit(3);
		good = good && unchanged(&n);
		printf("# next holder: buffer at %p (old %#lx), QP %u (old %u), %s\n",
		       (void *)n.buf, (unsigned long)old_buf, n.qp ? n.qp->qp_num : 0,
		       old_qpn, good ? "unchanged" : "changed or not set up");
		fflush(stdout);
		end_close(&n);
		_exit(good ? 0 : 1);
	}
	if (!ok(pid > 0 && read(to_parent[0], &c, 1) == 1 && c == 'r',
		"the next holder of card 1 (a child process) set up"))
		goto out;
	st = do_op(a, a->qp, IBV_WR_RDMA_WRITE, 0, 4096, old_buf, old_key, 30);
	ok(st != IBV_WC_SUCCESS, "a write with the last holder's key and QP: not completed successfully (%d)",
	   st);
out:
	c = 'd';
	if (write(to_child[1], &c, 1) != 1)
		tap_diag("the child is gone");
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		   WEXITSTATUS(status) == 0,
	   "the next holder's memory unchanged, byte for byte");
}


/* ---- 4: the staging rings ------------------------------------------- */

/* A QP's staging ring as its provider mapped it (found in /proc/self/maps). */
struct ring {
	uint8_t *mem;
	size_t size;
	unsigned long off;
	uint32_t entries;
	struct gaudi_ib_ring_ctl *ctl;
};

/*
 * The mapping of @ctx's uverbs file of @size bytes (one QP of the context
 * has rings: its SQ ring and its RQ ring differ in size): 0, or -1.
 */
static int ring_find(struct ibv_context *ctx, size_t size, size_t slot,
		     struct ring *r)
{
	char want[96], line[512], path[256];
	unsigned long lo, hi, off;
	int found = -1;
	FILE *f;

	snprintf(want, sizeof(want), "/dev/infiniband/%s", ctx->device->dev_name);
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %255s", &lo, &hi, &off,
			   path) == 4 &&
		    !strcmp(path, want) && hi - lo == size) {
			r->mem = (uint8_t *)lo;
			r->size = size;
			r->off = off;
			found = 0;
		}
	fclose(f);
	if (found)
		return -1;
	r->entries = (size - sizeof(struct gaudi_ib_ring_ctl)) / slot;
	while (r->entries & (r->entries - 1))
		r->entries &= r->entries - 1;
	r->ctl = (struct gaudi_ib_ring_ctl *)(r->mem + r->entries * slot);
	return 0;
}

/* A post_send (post_recv) command of no WR, as the provider kicks: errno. */
static int kick(struct ibv_qp *qp, int recv)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_post_send c;
	} cmd = {};
	struct ib_uverbs_post_send_resp resp = {};

	cmd.hdr.command = recv ? IB_USER_VERBS_CMD_POST_RECV :
				 IB_USER_VERBS_CMD_POST_SEND;
	cmd.hdr.in_words = sizeof(cmd) / 4;
	cmd.hdr.out_words = sizeof(resp) / 4;
	cmd.c.response = (uintptr_t)&resp;
	cmd.c.qp_handle = qp->handle;
	cmd.c.wqe_size = recv ? sizeof(struct ib_uverbs_recv_wr) :
				sizeof(struct ib_uverbs_send_wr);
	return write(qp->context->cmd_fd, &cmd, sizeof(cmd)) == sizeof(cmd) ?
		       0 : errno;
}

static struct gaudi_ib_ring_swqe *sslot(struct ring *r, uint32_t i)
{
	return (struct gaudi_ib_ring_swqe *)r->mem + (i & (r->entries - 1));
}

/* Slot @i: a signaled RDMA WRITE of a's [@off, +@len) to b's @roff. */
static void stage_write(struct ring *r, uint32_t i, struct end *a,
			struct end *b, size_t off, uint32_t len, size_t roff)
{
	struct gaudi_ib_ring_swqe *w = sslot(r, i);

	memset(w, 0, sizeof(*w));
	w->wr_id = 0x7000 + i;
	w->opcode = IBV_WR_RDMA_WRITE;
	w->send_flags = IBV_SEND_SIGNALED;
	w->num_sge = 1;
	w->addr = (uintptr_t)a->buf + off;
	w->length = len;
	w->lkey = a->mr->lkey;
	w->remote_addr = (uintptr_t)b->buf + roff;
	w->rkey = b->mr->rkey;
}

/* No completion on @cq within @secs. */
static int quiet(struct ibv_cq *cq, double secs)
{
	struct ibv_wc wc;

	return poll_one(cq, &wc, secs) != 0;
}

/* A staged WR that must be refused at the kick, not taken, b unchanged. */
static void refused_wr(struct ring *r, struct end *a, struct end *b,
		       const char *what)
{
	uint32_t ci = r->ctl->pi - 1;
	int err;

	refill(b, 11);
	err = kick(a->qp, 0);
	ok(err == EINVAL && r->ctl->ci == ci && quiet(a->cq, 0.3) && unchanged(b),
	   "staged %s: the kick fails with EINVAL (%s), not taken, no completion, b unchanged",
	   what, strerror(err));
	r->ctl->pi = ci;
}

/*
 * The provider's side of the rings (either data path): a list whose second
 * WR is refused (errno, *bad_wr the second, the first completes, the third
 * is not posted, the QP posts on), then a long list, every 100th WR
 * signaled (the CQ holds 128), whose signaled WRs complete in order: with
 * the rings 1500 WRs (one kick per ring's worth), on the kernel data path
 * 300 (a command of 1500 WRs, 108 KB, fails with EINVAL between Debian
 * 12's libibverbs and Linux 6.12, seen in this test; 300 are 22 KB).
 */
static void provider_lists(struct end *a, struct end *b, int kernel_post)
{
	enum { MAX_N = 1500, EVERY = 100 };
	static struct ibv_send_wr wr[MAX_N];
	static struct ibv_sge sge[MAX_N];
	const int N = kernel_post ? 300 : MAX_N;
	struct ibv_send_wr *bad = NULL;
	struct ibv_wc wc[64];
	int err, got = 0, n, fails = 0;

	refill(b, 17);
	fill(a->buf, BUF_LEN, 18);
	for (int i = 0; i < 3; i++) {
		sge[i] = (struct ibv_sge){.addr = (uintptr_t)a->buf + 4096 * i,
					  .length = 4096,
					  .lkey = a->mr->lkey};
		wr[i] = (struct ibv_send_wr){
			.wr_id = 0x9000 + i,
			.sg_list = &sge[i],
			.num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED,
			.next = i < 2 ? &wr[i + 1] : NULL,
			.wr.rdma = {.remote_addr = (uintptr_t)b->buf + 4096 * i,
				    .rkey = b->mr->rkey},
		};
	}
	sge[1].lkey ^= 0x400;
	err = ibv_post_send(a->qp, wr, &bad);
	ok(err == EINVAL && bad == &wr[1] && !poll_one(a->cq, wc, 10) &&
		   wc[0].status == IBV_WC_SUCCESS && wc[0].wr_id == 0x9000 &&
		   quiet(a->cq, 0.3) && !memcmp(b->buf, a->buf, 4096) &&
		   !memcmp(b->buf + 4096, ref + 4096, BUF_LEN - 4096),
	   "ibv_post_send of 3 WRs, the second with a bad lkey: %s, bad_wr the second (%td), the first ran, the third not posted",
	   strerror(err), bad ? bad - wr : -1);
	for (int i = 0; i < N; i++) {
		sge[i] = (struct ibv_sge){.addr = (uintptr_t)a->buf + i % 64,
					  .length = 64,
					  .lkey = a->mr->lkey};
		wr[i] = (struct ibv_send_wr){
			.wr_id = i,
			.sg_list = &sge[i],
			.num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.send_flags = i % EVERY == EVERY - 1 ? IBV_SEND_SIGNALED : 0,
			.next = i + 1 < N ? &wr[i + 1] : NULL,
			.wr.rdma = {.remote_addr = (uintptr_t)b->buf + 64 * (i % 1024),
				    .rkey = b->mr->rkey},
		};
	}
	err = ibv_post_send(a->qp, wr, &bad);
	for (double end = now() + 60; !err && got < N / EVERY && now() < end;) {
		n = ibv_poll_cq(a->cq, 64, wc);
		if (n < 0)
			break;
		for (int i = 0; i < n; i++)
			fails += wc[i].status != IBV_WC_SUCCESS ||
				 wc[i].wr_id != (uint64_t)(got + i + 1) * EVERY - 1;
		got += n;
		if (!n)
			usleep(1000);
	}
	ok(!err && got == N / EVERY && !fails && quiet(a->cq, 0.3),
	   "ibv_post_send of %d WRs%s: %s, the %d signaled complete in order (%d, %d bad)",
	   N, kernel_post ? "" : " (more than a ring: several kicks)", strerror(err),
	   N / EVERY, got, fails);
}

static void rings(struct end *a, struct end *b, int kernel_post)
{
	struct ring sq, rq;
	struct ibv_wc wc;
	uint32_t pi;
	void *m;
	int err;

	ok(!pair_renew(a, b), "fresh QPs connected for the rings");
	if (kernel_post) {
		ok(ring_find(a->ctx, 0x11000, sizeof(struct gaudi_ib_ring_swqe), &sq) &&
			   ring_find(a->ctx, 0x9000, sizeof(struct gaudi_ib_ring_rwqe), &rq),
		   "GAUDI_VERBS_KERNEL_POST=1: the QP has no staging rings (the kernel data path)");
		provider_lists(a, b, 1);
		return;
	}
	if (!ok(!ring_find(a->ctx, 0x11000, sizeof(struct gaudi_ib_ring_swqe), &sq) &&
			!ring_find(a->ctx, 0x9000, sizeof(struct gaudi_ib_ring_rwqe), &rq) &&
			sq.entries == 1024 && rq.entries == 1024,
		"a's QP: its send ring (68 KiB, 1024 slots) and receive ring (36 KiB) mapped"))
		return;
	pi = sq.ctl->pi;
	ok(pi == sq.ctl->ci, "the send ring is empty after the provider's posts (pi %u = ci %u)",
	   pi, sq.ctl->ci);

	/* The ring rewritten after the kick: the kernel's copy is what runs. */
	refill(b, 12);
	fill(a->buf, BUF_LEN, 13);
	stage_write(&sq, pi, a, b, 0, 4096, 8192);
	sq.ctl->pi = pi + 1;
	err = kick(a->qp, 0);
	stage_write(&sq, pi, a, b, 16384, 65536, 40000);
	sslot(&sq, pi)->rkey ^= 0x400;
	sq.ctl->ci = 12345; /* the kernel's hint, never read back */
	ok(!err && !poll_one(a->cq, &wc, 10) && wc.status == IBV_WC_SUCCESS &&
		   wc.wr_id == 0x7000 + pi && !memcmp(b->buf + 8192, a->buf, 4096) &&
		   !memcmp(b->buf, ref, 8192) && !memcmp(b->buf + 12288, ref + 12288, BUF_LEN - 12288),
	   "a WR rewritten after its kick: the kicked one ran (%s, status %d), nothing of the rewrite",
	   strerror(err), wc.status);
	memcpy(ref, b->buf, BUF_LEN);
	err = kick(a->qp, 0);
	ok(!err && quiet(a->cq, 0.5) && unchanged(b) && sq.ctl->ci == pi + 1,
	   "a second kick of the same producer index takes nothing (%s), the kernel's ci %u again",
	   strerror(err), sq.ctl->ci);
	pi++;

	/* Bogus producer indexes. */
	sq.ctl->pi = pi + sq.entries + 1;
	err = kick(a->qp, 0);
	ok(err == EINVAL && quiet(a->cq, 0.3) && unchanged(b),
	   "a producer index a ring and one past: EINVAL (%s), nothing sent", strerror(err));
	sq.ctl->pi = pi - 1;
	err = kick(a->qp, 0);
	ok(err == EINVAL && quiet(a->cq, 0.3) && unchanged(b),
	   "a producer index behind the kernel's: EINVAL (%s)", strerror(err));
	sq.ctl->pi = pi + sq.entries;
	for (uint32_t i = 0; i < sq.entries; i++)
		stage_write(&sq, pi + i, a, b, 0, 1, 0);
	sslot(&sq, pi)->lkey ^= 0x400;
	err = kick(a->qp, 0);
	ok(err == EINVAL && sq.ctl->ci == pi && quiet(a->cq, 0.3) && unchanged(b),
	   "a full ring whose first WR is bad: EINVAL (%s), none taken", strerror(err));
	sq.ctl->pi = pi;

	/* WRs outside their region, beyond the device, reserved fields. */
	stage_write(&sq, pi, a, b, BUF_LEN - 100, 4096, 0);
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "WR across the end of its local region");
	stage_write(&sq, pi, a, b, 0, 4096, 0);
	sslot(&sq, pi)->addr = (uintptr_t)a->buf - 4096;
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "WR below its local region");
	stage_write(&sq, pi, a, b, 0, 4096, 0);
	sslot(&sq, pi)->lkey = b->mr->lkey ^ 0x800;
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "WR with a guessed lkey");
	stage_write(&sq, pi, a, b, 0, 0x80000000u, 0);
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "WR of 2 GiB");
	stage_write(&sq, pi, a, b, 0, 4096, 0);
	sslot(&sq, pi)->num_sge = 2;
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "WR of 2 SGEs");
	stage_write(&sq, pi, a, b, 0, 8, 0);
	sslot(&sq, pi)->opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "atomic WR");
	stage_write(&sq, pi, a, b, 0, 8, 0);
	sslot(&sq, pi)->opcode = 0xff;
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "WR of opcode 255");
	stage_write(&sq, pi, a, b, 0, 64, 0);
	sslot(&sq, pi)->send_flags |= IBV_SEND_INLINE;
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "inline WR");
	stage_write(&sq, pi, a, b, 0, 64, 0);
	sslot(&sq, pi)->reserved2[3] = 1;
	sq.ctl->pi = pi + 1;
	refused_wr(&sq, a, b, "WR with a reserved word set");

	/* A good WR then a bad one in one kick: the first runs, the second waits. */
	stage_write(&sq, pi, a, b, 0, 512, 0);
	stage_write(&sq, pi + 1, a, b, 0, 4096, 0);
	sslot(&sq, pi + 1)->rkey = 0;
	sslot(&sq, pi + 1)->lkey = 0;
	sq.ctl->pi = pi + 2;
	err = kick(a->qp, 0);
	ok(err == EINVAL && sq.ctl->ci == pi + 1 && !poll_one(a->cq, &wc, 10) &&
		   wc.status == IBV_WC_SUCCESS && wc.wr_id == 0x7000 + pi &&
		   !memcmp(b->buf, a->buf, 512) && quiet(a->cq, 0.3),
	   "a good WR then a bad one: the good one runs, the kick fails at the bad one (ci %u)",
	   sq.ctl->ci);
	pi++;
	sq.ctl->pi = pi;

	/* The receive ring: rewritten after the kick, bogus indexes, outside. */
	{
		struct gaudi_ib_ring_rwqe *w =
			(struct gaudi_ib_ring_rwqe *)rq.mem + (rq.ctl->pi & (rq.entries - 1));
		uint32_t rpi = rq.ctl->pi;

		memset(a->buf, 0x11, BUF_LEN);
		memset(w, 0, sizeof(*w));
		w->wr_id = 0xabc;
		w->addr = (uintptr_t)a->buf + 4096;
		w->length = 8192;
		w->lkey = a->mr->lkey;
		w->num_sge = 1;
		rq.ctl->pi = rpi + 1;
		err = kick(a->qp, 1);
		w->addr = (uintptr_t)a->buf + 65536;
		w->wr_id = 0xdef;
		fill(b->buf, 8192, 14);
		ok(!err && !do_op(b, b->qp, IBV_WR_SEND, 0, 6000, 0, 0, 10) &&
			   !poll_one(a->cq, &wc, 10) && wc.status == IBV_WC_SUCCESS &&
			   wc.opcode == IBV_WC_RECV && wc.wr_id == 0xabc &&
			   !memcmp(a->buf + 4096, b->buf, 6000) && a->buf[65536] == 0x11,
		   "a receive WR rewritten after its kick: the SEND lands where the kick said (%s)",
		   strerror(err));
		rpi++;
		rq.ctl->pi = rpi + rq.entries + 1;
		err = kick(a->qp, 1);
		ok(err == EINVAL, "a receive producer index past the ring: EINVAL (%s)",
		   strerror(err));
		w = (struct gaudi_ib_ring_rwqe *)rq.mem + (rpi & (rq.entries - 1));
		memset(w, 0, sizeof(*w));
		w->addr = (uintptr_t)a->buf + BUF_LEN - 16;
		w->length = 4096;
		w->lkey = a->mr->lkey;
		w->num_sge = 1;
		rq.ctl->pi = rpi + 1;
		err = kick(a->qp, 1);
		ok(err == EINVAL && rq.ctl->ci == rpi,
		   "a receive WR across its region's end: EINVAL (%s), not taken", strerror(err));
		w->addr = (uintptr_t)a->buf;
		w->num_sge = 0x10001;
		err = kick(a->qp, 1);
		ok(err == EINVAL && rq.ctl->ci == rpi,
		   "a receive WR of 65537 SGEs: EINVAL (%s)", strerror(err));
		rq.ctl->pi = rpi;
	}

	/* Mappings: another size, a private one, a second of the same ring. */
	m = mmap(NULL, sq.size - 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
		 a->ctx->cmd_fd, sq.off);
	ok(m == MAP_FAILED, "mmap of the send ring one page short: refused");
	if (m != MAP_FAILED)
		munmap(m, sq.size - 4096);
	m = mmap(NULL, sq.size, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		 a->ctx->cmd_fd, sq.off);
	ok(m == MAP_FAILED, "a private mmap of the send ring: refused");
	if (m != MAP_FAILED)
		munmap(m, sq.size);
	m = mmap(NULL, sq.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 a->ctx->cmd_fd, sq.off + 0x100000);
	ok(m == MAP_FAILED, "mmap at an offset no ring has: refused");
	if (m != MAP_FAILED)
		munmap(m, sq.size);
	sslot(&sq, pi + 5)->wr_id = 0x5a5a5a5a5a5aULL;
	m = mmap(NULL, sq.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 b->ctx->cmd_fd, sq.off);
	ok(m == MAP_FAILED ||
		   ((struct gaudi_ib_ring_swqe *)m)[(pi + 5) & (sq.entries - 1)].wr_id !=
			   0x5a5a5a5a5a5aULL,
	   "a's ring offset through b's context: b's own ring or nothing, never a's");
	if (m != MAP_FAILED)
		munmap(m, sq.size);

	/* The QP gone, its rings still mapped: writing them is harmless. */
	m = mmap(NULL, sq.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 a->ctx->cmd_fd, sq.off);
	ibv_destroy_qp(a->qp);
	a->qp = qp_new(a);
	ok(m != MAP_FAILED && a->qp, "a second mapping of the ring kept across its QP's end");
	if (m != MAP_FAILED) {
		memset(m, 0xff, sq.size);
		munmap(m, sq.size);
	}
	ok(!pair_renew(a, b), "fresh QPs connected after the rings");
	refill(b, 15);
	fill(a->buf, BUF_LEN, 16);
	err = do_op(a, a->qp, IBV_WR_RDMA_WRITE, 0, 4096, (uintptr_t)b->buf, b->mr->rkey, 10);
	ok(err == IBV_WC_SUCCESS && !memcmp(b->buf, a->buf, 4096),
	   "the provider's posts through the new QP's ring still run (%d)", err);
	provider_lists(a, b, 0);
}

int main(int argc, char **argv)
{
	struct end a, b;

	if (argc < 6) {
		fprintf(stderr, "usage: %s DEV0 DEV1 GID0 GID1 FOREIGN_GID0 [MTU]\n", argv[0]);
		return 2;
	}
	todo_why = getenv("VERBS_TODO");
	if (todo_why && !*todo_why)
		todo_why = NULL;
	todo_send = getenv("VERBS_TODO_SEND");
	if (todo_send && !*todo_send)
		todo_send = NULL;
	if (argc > 6 && atoi(argv[6]) == 4096)
		path_mtu = IBV_MTU_4096;
	tap_diag("path MTU %d", argc > 6 ? atoi(argv[6]) : 1024);
	if (!ok(!end_open(&a, argv[1], atoi(argv[3]), BUF_LEN) &&
		    !end_open(&b, argv[2], atoi(argv[4]), HALF),
		"%s and %s opened: PD, CQ, RC QP, a region of 256 KiB and 128 KiB (%s)",
		argv[1], argv[2], strerror(errno)))
		goto done;
	ok(!pair_connect(&a, &b), "the QPs connected (%u <-> %u)", a.qp->qp_num, b.qp->qp_num);
	bad_arguments(&a, &b);
	data(&a, &b);
	isolation(&a, &b, atoi(argv[5]));
	{
		const char *kp = getenv("GAUDI_VERBS_KERNEL_POST");

		rings(&a, &b, kp && kp[0] == '1');
	}
	next_holder(&a, &b, argv[2], atoi(argv[4]));
done:
	end_close(&a);
	end_close(&b);
	return tap_done();
}
