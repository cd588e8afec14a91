// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel side of gaudi_ib.ko's verbs (issue 25), through libibverbs
 * and the project's provider:
 *
 *   gaudi_ib_kverbs_test DEV0 DEV1
 *
 * DEV0 and DEV1 are two cards' RDMA devices whose ib port 1 is cabled to
 * each other and has an IPv4 address (a RoCE v2 GID).  This one process
 * holds both cards.
 *
 * 1. Every verb with bad values fails with its errno (the kernel logs at
 *    debug level only; the suite checks dmesg for warnings): reg_mr with
 *    access the device does not offer, an empty range, an iova with
 *    another page offset; create_cq of 0 or too many CQEs, with reserved
 *    driver data; create_qp of a UD QP, of too many WRs or SGEs, with
 *    inline data; modify_qp out of order (RESET -> RTR), to a port that
 *    does not exist, with another P_Key index, an MTU beyond 4096, to
 *    RTR without a RoCE v2 IPv4 path; post_send on a QP not in RTS, with
 *    an lkey that is not an MR's, beyond its MR, of another PD, an opcode
 *    not offered; post_recv with a bad lkey.
 * 2. An RC QP on each card, connected (RESET -> INIT -> RTR -> RTS):
 *    query_qp gives the attributes back; RDMA WRITEs of 1, 4096, 65536
 *    and 200000 bytes (the kernel splits into 8 KiB WQEs) land byte for
 *    byte in the peer's MR and complete once each, signaled; the
 *    completion channel delivers an event for an armed CQ.
 *    SEND with immediate into a posted receive WR (bytes, length,
 *    immediate), RDMA READ of 70000 bytes (bytes), a READ into a region
 *    without local write refused.
 * 3. The isolation classes of issue 22 through verbs: a WRITE across the
 *    end of the peer's region, with a guessed key, or to a region
 *    registered without remote write, changes nothing there and stops the
 *    QP (query_qp: ERR);
 *    a stale QP: after the peer's QP is destroyed and a new one made (it
 *    may get the same number, with a new generation), the old one's
 *    writes land nowhere.
 *
 * With VERBS_TODO set (the rdma suite's: why the verbs between the cards
 * are not expected to pass yet), 2 and 3 are TODOs.  TAP, then "N passed,
 * N failed".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "tap.h"

#define BUF (1 << 20)

/*
 * The checks between the cards: a TODO (run, reported, not counted) while
 * the rdma suite's VERBS_TODO says why they are not expected to pass yet.
 */
static const char *todo;
#define dok(cond, ...)                                                       \
	(todo ? tap_todo(!!(cond), todo, __VA_ARGS__) : ok(cond, __VA_ARGS__))

struct end {
	struct ibv_context *ctx;
	struct ibv_pd *pd, *pd2;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr, *ro;		/* read-write, remote-read only */
	uint8_t *buf, *rbuf;
	union ibv_gid gid;
	int gid_index;
};

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	int i;

	for (i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			c = ibv_open_device(l[i]);
	if (l)
		ibv_free_device_list(l);
	return c;
}

/* The port's first RoCE v2 GID of an IPv4 address. */
static int find_gid(struct end *e)
{
	struct ibv_gid_entry g;
	int i;

	for (i = 0; i < 16; i++) {
		if (ibv_query_gid_ex(e->ctx, 1, i, &g, 0))
			continue;
		if (g.gid_type == IBV_GID_TYPE_ROCE_V2 &&
		    !memcmp(g.gid.raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12)) {
			e->gid = g.gid;
			e->gid_index = i;
			return 0;
		}
	}
	return -1;
}

static struct ibv_qp *make_qp(struct end *e)
{
	struct ibv_qp_init_attr a = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = { .max_send_wr = 64, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	return ibv_create_qp(e->pd, &a);
}

static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static int to_rtr(struct ibv_qp *qp, const struct end *me, uint32_t dqpn,
		  const union ibv_gid *dgid)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_4096,
		.dest_qp_num = dqpn,
		.rq_psn = 100,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1,
			.grh = { .dgid = *dgid, .sgid_index = me->gid_index,
				 .hop_limit = 64 },
			.port_num = 1,
		},
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
			     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			     IBV_QP_MIN_RNR_TIMER);
}

static int to_rts(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = 100,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.max_rd_atomic = 1,
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

static int connect_pair(struct end *a, struct end *b)
{
	int r;

	r = to_init(a->qp);
	if (!r)
		r = to_init(b->qp);
	if (r) {
		tap_diag("INIT: %d", r);
		return r;
	}
	r = to_rtr(a->qp, a, b->qp->qp_num, &b->gid);
	if (!r)
		r = to_rtr(b->qp, b, a->qp->qp_num, &a->gid);
	if (r) {
		tap_diag("RTR: %d", r);
		return r;
	}
	r = to_rts(a->qp);
	if (!r)
		r = to_rts(b->qp);
	if (r)
		tap_diag("RTS: %d", r);
	return r;
}

static int post_write(struct end *e, uint64_t wr_id, void *laddr,
		      uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)laddr, .length = len, .lkey = e->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;

	return ibv_post_send(e->qp, &wr, &bad);
}

/* Poll @cq for one completion for up to @ms; 1 and *wc, or 0. */
static int wait_wc(struct ibv_cq *cq, struct ibv_wc *wc, int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n)
			return n > 0;
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return 0;
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr i;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &i))
		return (enum ibv_qp_state)-1;
	return a.qp_state;
}

static int setup(struct end *e, const char *name)
{
	e->ctx = open_dev(name);
	if (!e->ctx)
		return -1;
	e->pd = ibv_alloc_pd(e->ctx);
	e->pd2 = ibv_alloc_pd(e->ctx);
	e->ch = ibv_create_comp_channel(e->ctx);
	e->cq = e->ch ? ibv_create_cq(e->ctx, 256, NULL, e->ch, 0) : NULL;
	e->buf = mmap(NULL, BUF, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	e->rbuf = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!e->pd || !e->pd2 || !e->cq || e->buf == MAP_FAILED ||
	    e->rbuf == MAP_FAILED)
		return -1;
	e->mr = ibv_reg_mr(e->pd, e->buf, BUF, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	e->ro = ibv_reg_mr(e->pd, e->rbuf, 4 * 4096, IBV_ACCESS_REMOTE_READ);
	if (!e->mr || !e->ro || find_gid(e))
		return -1;
	return 0;
}

static void bad_args(struct end *e)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = e->cq, .recv_cq = e->cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = {};
	struct ibv_sge sge = { .addr = (uintptr_t)e->buf, .length = 64 };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 }, *rbad;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	uint8_t *p = e->buf + BUF / 2;
	int r;

	errno = 0;
	mr = ibv_reg_mr(e->pd, p, 4096, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_ATOMIC);
	ok(!mr && (errno == EOPNOTSUPP || errno == EINVAL),
	   "reg_mr with remote atomic access refused (errno %d)", errno);
	if (mr)
		ibv_dereg_mr(mr);
	errno = 0;
	mr = ibv_reg_mr(e->pd, p, 0, IBV_ACCESS_LOCAL_WRITE);
	ok(!mr && errno == EINVAL, "reg_mr of 0 bytes: EINVAL (errno %d)",
	   errno);
	if (mr)
		ibv_dereg_mr(mr);
	errno = 0;
	mr = ibv_reg_mr_iova(e->pd, p, 4096, 0x10000 + 8,
			     IBV_ACCESS_LOCAL_WRITE);
	ok(!mr && errno == EINVAL,
	   "reg_mr with an iova of another page offset: EINVAL (errno %d)",
	   errno);
	if (mr)
		ibv_dereg_mr(mr);
	errno = 0;
	mr = ibv_reg_mr(e->pd, e->buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	ok(!mr && errno == EBUSY,
	   "reg_mr of pages another MR maps: EBUSY (errno %d)", errno);
	if (mr)
		ibv_dereg_mr(mr);

	errno = 0;
	cq = ibv_create_cq(e->ctx, 0, NULL, NULL, 0);
	ok(!cq && errno == EINVAL, "create_cq of 0 CQEs: EINVAL (errno %d)",
	   errno);
	if (cq)
		ibv_destroy_cq(cq);
	errno = 0;
	cq = ibv_create_cq(e->ctx, 1 << 20, NULL, NULL, 0);
	ok(!cq && errno == EINVAL, "create_cq of 2^20 CQEs: EINVAL (errno %d)",
	   errno);
	if (cq)
		ibv_destroy_cq(cq);

	qa.qp_type = IBV_QPT_UD;
	errno = 0;
	qp = ibv_create_qp(e->pd, &qa);
	ok(!qp && (errno == EOPNOTSUPP || errno == EINVAL),
	   "create_qp UD refused (errno %d)", errno);
	if (qp)
		ibv_destroy_qp(qp);
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 100000;
	errno = 0;
	qp = ibv_create_qp(e->pd, &qa);
	ok(!qp && errno == EINVAL, "create_qp of 100000 WRs: EINVAL (errno %d)",
	   errno);
	if (qp)
		ibv_destroy_qp(qp);
	qa.cap.max_send_wr = 1;
	qa.cap.max_send_sge = 2;
	errno = 0;
	qp = ibv_create_qp(e->pd, &qa);
	ok(!qp && errno == EINVAL, "create_qp of 2 SGEs: EINVAL (errno %d)",
	   errno);
	if (qp)
		ibv_destroy_qp(qp);
	qa.cap.max_send_sge = 1;
	qa.cap.max_inline_data = 64;
	errno = 0;
	qp = ibv_create_qp(e->pd, &qa);
	ok(!qp && errno == EINVAL, "create_qp with inline data: EINVAL (errno %d)",
	   errno);
	if (qp)
		ibv_destroy_qp(qp);
	qa.cap.max_inline_data = 0;

	qp = ibv_create_qp(e->pd, &qa);
	if (!ok(qp != NULL, "create_qp RC (errno %d)", errno))
		return;
	a.qp_state = IBV_QPS_RTR;
	r = ibv_modify_qp(qp, &a, IBV_QP_STATE);
	ok(r == EINVAL, "modify_qp RESET -> RTR: EINVAL (%d)", r);
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 11;
	r = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	ok(r == EINVAL, "modify_qp to INIT on port 11: EINVAL (%d)", r);
	a.port_num = 1;
	a.pkey_index = 1;
	r = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	ok(r == EINVAL, "modify_qp to INIT with P_Key index 1: EINVAL (%d)",
	   r);
	a.pkey_index = 0;
	r = ibv_post_send(qp, &wr, &bad);
	ok(r == EINVAL, "post_send on a RESET QP: EINVAL (%d)", r);
	ok(!to_init(qp), "modify_qp to INIT");
	r = ibv_post_send(qp, &wr, &bad);
	ok(r == EINVAL, "post_send on an INIT QP: EINVAL (%d)", r);
	sge.lkey = 0x12345;
	r = ibv_post_recv(qp, &rwr, &rbad);
	ok(r == EINVAL, "post_recv with an lkey of no MR: EINVAL (%d)", r);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_4096;
	a.dest_qp_num = 5;
	a.ah_attr.port_num = 1;
	a.ah_attr.is_global = 0;
	r = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	ok(r != 0, "modify_qp to RTR without a GRH (a RoCE v2 path) refused (%d)",
	   r);
	ibv_destroy_qp(qp);
}

/* WRITEs from a's MR into b's: bytes and one completion each. */
static void writes(struct end *a, struct end *b)
{
	static const uint32_t lens[] = { 1, 4096, 65536, 200000 };
	struct ibv_sge sge;
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;
	struct ibv_wc wc;
	unsigned int i, k;
	struct ibv_cq *ecq;
	void *ectx;
	int r;

	dok(!ibv_query_qp(a->qp, &qa, IBV_QP_STATE | IBV_QP_DEST_QPN |
			 IBV_QP_PATH_MTU | IBV_QP_SQ_PSN | IBV_QP_RNR_RETRY,
			 &qi) && qa.qp_state == IBV_QPS_RTS &&
	   qa.dest_qp_num == b->qp->qp_num && qa.path_mtu == IBV_MTU_4096 &&
	   qa.sq_psn == 100 && qa.rnr_retry == 7,
	   "query_qp: RTS, the peer's QPN, MTU 4096, SQ PSN, RNR retry");

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint32_t len = lens[i];
		int good = 1;

		for (k = 0; k < len; k++)
			a->buf[k] = (uint8_t)(k * 7 + i + 1);
		memset(b->buf, 0, len + 16);
		r = post_write(a, 100 + i, a->buf, len, (uintptr_t)b->buf,
			       b->mr->rkey);
		dok(!r, "post_send RDMA WRITE of %u bytes (%d)", len, r);
		r = wait_wc(a->cq, &wc, 20000);
		dok(r && wc.status == IBV_WC_SUCCESS && wc.wr_id == 100 + i &&
		   wc.opcode == IBV_WC_RDMA_WRITE,
		   "its completion: success, its wr_id, RDMA_WRITE (%s)",
		   r ? ibv_wc_status_str(wc.status) : "none");
		for (k = 0; k < len; k++)
			good &= b->buf[k] == (uint8_t)(k * 7 + i + 1);
		for (k = len; k < len + 16; k++)
			good &= !b->buf[k];
		dok(good, "%u bytes landed byte for byte, nothing past them",
		   len);
		dok(!ibv_poll_cq(a->cq, 1, &wc), "exactly one completion");
	}

	/* An unsignaled WR completes nothing; the next signaled one does. */
	sge = (struct ibv_sge){ (uintptr_t)a->buf, 64, a->mr->lkey };
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = (uintptr_t)b->buf;
	wr.wr.rdma.rkey = b->mr->rkey;
	wr.wr_id = 7;
	wr.send_flags = 0;
	ibv_post_send(a->qp, &wr, &bad);
	wr.wr_id = 8;
	wr.send_flags = IBV_SEND_SIGNALED;
	dok(!ibv_req_notify_cq(a->cq, 0), "req_notify_cq");
	ibv_post_send(a->qp, &wr, &bad);
	{
		struct pollfd pfd = { .fd = a->ch->fd, .events = POLLIN };

		r = poll(&pfd, 1, 20000);
		dok(r == 1 && !ibv_get_cq_event(a->ch, &ecq, &ectx) &&
		   ecq == a->cq, "a completion event on the armed CQ");
		if (r == 1)
			ibv_ack_cq_events(a->cq, 1);
	}
	r = wait_wc(a->cq, &wc, 20000);
	dok(r && wc.wr_id == 8 && !ibv_poll_cq(a->cq, 1, &wc),
	   "the unsignaled WR completes nothing, the signaled one once");

	/* Local checks of the kernel: the lkey's MR, its bounds, its PD. */
	sge.lkey = a->ro->lkey ^ 0x400000;
	dok(ibv_post_send(a->qp, &wr, &bad) == EINVAL && bad == &wr,
	   "post_send with an lkey of no MR: EINVAL, bad_wr the WR");
	sge = (struct ibv_sge){ (uintptr_t)a->buf + BUF - 32, 64,
				a->mr->lkey };
	dok(ibv_post_send(a->qp, &wr, &bad) == EINVAL,
	   "post_send beyond the lkey's MR: EINVAL");
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	sge.addr = (uintptr_t)a->buf;
	sge.length = 8;
	dok(ibv_post_send(a->qp, &wr, &bad) == EINVAL,
	   "post_send of an atomic: EINVAL");
	wr.opcode = IBV_WR_RDMA_WRITE;
}

/* SEND/RECV (with immediate) and RDMA READ between a and b. */
static void send_read(struct end *a, struct end *b)
{
	struct ibv_sge sge, rsge;
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	struct ibv_recv_wr rwr = { .sg_list = &rsge, .num_sge = 1 }, *rbad;
	struct ibv_wc wc;
	unsigned int k;
	int good = 1, r;

	for (k = 0; k < 5000; k++)
		a->buf[k] = (uint8_t)(k * 13 + 5);
	memset(b->buf, 0, 8192);
	rsge = (struct ibv_sge){ (uintptr_t)b->buf, 8192, b->mr->lkey };
	rwr.wr_id = 0xfeed0001ULL;
	dok(!ibv_post_recv(b->qp, &rwr, &rbad), "post_recv of 8 KiB");
	sge = (struct ibv_sge){ (uintptr_t)a->buf, 5000, a->mr->lkey };
	wr.wr_id = 400;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htonl(0x12345678);
	wr.send_flags = IBV_SEND_SIGNALED;
	dok(!ibv_post_send(a->qp, &wr, &bad), "post_send SEND with immediate");
	r = wait_wc(a->cq, &wc, 20000);
	dok(r && wc.status == IBV_WC_SUCCESS && wc.wr_id == 400 &&
	   wc.opcode == IBV_WC_SEND, "the SEND completes (%s)",
	   r ? ibv_wc_status_str(wc.status) : "none");
	r = wait_wc(b->cq, &wc, 20000);
	dok(r && wc.status == IBV_WC_SUCCESS && wc.wr_id == 0xfeed0001ULL &&
	   wc.opcode == IBV_WC_RECV && wc.byte_len == 5000 &&
	   (wc.wc_flags & IBV_WC_WITH_IMM) &&
	   ntohl(wc.imm_data) == 0x12345678,
	   "the receive completes: its wr_id, 5000 bytes, the immediate (%s, %u bytes, imm 0x%x)",
	   r ? ibv_wc_status_str(wc.status) : "none", r ? wc.byte_len : 0,
	   r ? ntohl(wc.imm_data) : 0);
	for (k = 0; k < 5000; k++)
		good &= b->buf[k] == (uint8_t)(k * 13 + 5);
	for (k = 5000; k < 8192; k++)
		good &= !b->buf[k];
	dok(good, "the SEND's bytes in the receive buffer, nothing past them");

	for (k = 0; k < 70000; k++)
		b->buf[k] = (uint8_t)(k * 3 + 1);
	memset(a->buf, 0, 70000);
	sge = (struct ibv_sge){ (uintptr_t)a->buf, 70000, a->mr->lkey };
	wr.wr_id = 401;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.wr.rdma.remote_addr = (uintptr_t)b->buf;
	wr.wr.rdma.rkey = b->mr->rkey;
	dok(!ibv_post_send(a->qp, &wr, &bad), "post_send RDMA READ of 70000 bytes");
	r = wait_wc(a->cq, &wc, 20000);
	dok(r && wc.status == IBV_WC_SUCCESS && wc.wr_id == 401 &&
	   wc.opcode == IBV_WC_RDMA_READ, "the READ completes (%s)",
	   r ? ibv_wc_status_str(wc.status) : "none");
	good = 1;
	for (k = 0; k < 70000; k++)
		good &= a->buf[k] == (uint8_t)(k * 3 + 1);
	dok(good, "the READ's bytes landed byte for byte");
	sge = (struct ibv_sge){ (uintptr_t)a->ro->addr, 64, a->ro->lkey };
	dok(ibv_post_send(a->qp, &wr, &bad) == EINVAL,
	   "a READ into a region without local write: EINVAL");
}

/*
 * One of issue 22's classes through verbs: a WRITE of @len bytes to
 * @dst (@rkey) that the engine must refuse; @area of @size bytes around
 * it stays as it was and the QP ends in error.
 */
static void refused(struct end *a, uint8_t *dst, uint32_t len, uint32_t rkey,
		    uint8_t *area, size_t size, const char *what)
{
	struct ibv_wc wc;
	size_t k;
	int good = 1, r;

	memset(area, 0x5A, size);
	memset(a->buf, 0xEE, len);
	r = post_write(a, 200, a->buf, len, (uintptr_t)dst, rkey);
	dok(!r, "%s: posted (%d)", what, r);
	r = wait_wc(a->cq, &wc, 3000);
	dok(!r || wc.status != IBV_WC_SUCCESS,
	   "%s: no successful completion (%s)", what,
	   r ? ibv_wc_status_str(wc.status) : "none");
	for (k = 0; k < size; k++)
		good &= area[k] == 0x5A;
	dok(good, "%s: nothing written", what);
	dok(qp_state(a->qp) == IBV_QPS_ERR,
	   "%s: query_qp: the requester is in error (%d)", what,
	   qp_state(a->qp));
}

static void reconnect(struct end *a, struct end *b)
{
	struct ibv_qp *qa = a->qp, *qb = b->qp;
	uint32_t old_b = qb->qp_num;
	struct ibv_wc wc;

	ibv_destroy_qp(qa);
	ibv_destroy_qp(qb);
	while (ibv_poll_cq(a->cq, 1, &wc) > 0 || ibv_poll_cq(b->cq, 1, &wc) > 0)
		;
	a->qp = make_qp(a);
	b->qp = make_qp(b);
	dok(a->qp && b->qp && !connect_pair(a, b),
	   "new QPs connected (peer QPN %u, was %u)",
	   b->qp ? b->qp->qp_num : 0, old_b);
}

/* A QP of the past: b's QP ends, the number comes back; a's old writes. */
static void stale(struct end *a, struct end *b)
{
	struct ibv_wc wc;
	struct ibv_qp *nb;
	unsigned int k;
	int good = 1, r;

	memset(b->buf, 0, 4096);
	ibv_destroy_qp(b->qp);
	nb = make_qp(b);
	dok(nb && !to_init(nb), "the peer's QP destroyed, a new one in INIT (QPN %u)",
	   nb ? nb->qp_num : 0);
	b->qp = nb;
	memset(a->buf, 0x77, 4096);
	r = post_write(a, 300, a->buf, 4096, (uintptr_t)b->buf, b->mr->rkey);
	dok(!r, "post a WRITE on the old connection (%d)", r);
	r = wait_wc(a->cq, &wc, 3000);
	dok(!r || wc.status != IBV_WC_SUCCESS, "no successful completion");
	for (k = 0; k < 4096; k++)
		good &= !b->buf[k];
	dok(good, "nothing of it landed in the new QP's PD's region");
}

int main(int argc, char **argv)
{
	struct end a = {}, b = {};

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV0 DEV1\n", argv[0]);
		return 2;
	}
	if (!ok(!setup(&a, argv[1]) && !setup(&b, argv[2]),
		"both devices open: PD, CQ with a channel, MRs, an IPv4 RoCE v2 GID (errno %d)",
		errno))
		return tap_done();
	bad_args(&a);
	todo = getenv("VERBS_TODO");
	if (todo && !*todo)
		todo = NULL;
	a.qp = make_qp(&a);
	b.qp = make_qp(&b);
	if (!dok(a.qp && b.qp && !connect_pair(&a, &b),
		"an RC QP on each card, RESET -> INIT -> RTR -> RTS (QPNs %u, %u)",
		a.qp ? a.qp->qp_num : 0, b.qp ? b.qp->qp_num : 0))
		return tap_done();
	writes(&a, &b);
	send_read(&a, &b);
	refused(&a, b.rbuf, 64, b.ro->rkey, b.rbuf, 4 * 4096,
		"a WRITE to a region without remote write");
	reconnect(&a, &b);
	refused(&a, b.buf + BUF - 32, 64, b.mr->rkey, b.buf + BUF - 4096,
		4096, "a WRITE across the end of the peer's region");
	reconnect(&a, &b);
	refused(&a, b.buf, 64, b.mr->rkey ^ 0x400, b.buf, 4096,
		"a WRITE with a guessed key (the region's slot, other bits)");
	reconnect(&a, &b);
	stale(&a, &b);
	ibv_destroy_qp(a.qp);
	ibv_destroy_qp(b.qp);
	ibv_dereg_mr(a.mr);
	ibv_dereg_mr(b.mr);
	ibv_dereg_mr(a.ro);
	ibv_dereg_mr(b.ro);
	dok(!ibv_destroy_cq(a.cq) && !ibv_destroy_cq(b.cq),
	    "everything destroyed");
	return tap_done();
}
