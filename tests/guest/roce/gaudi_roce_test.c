// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_roce_test: DRM_IOCTL_GAUDI_NIC, the RoCE connections of gaudi.ko
 * (issue 13; uapi/drm/gaudi_accel.h "DOC: NIC", Documentation/net/roce.rst).
 *
 *   gaudi_roce_test neg ACCEL CTRL DBG      every field the ioctl refuses,
 *                                           on one card
 *   gaudi_roce_test teardown ACCEL DBG      close and reset: old connections
 *                                           refused, contexts invalid in
 *                                           the hardware (read through the
 *                                           gateway with debugfs)
 *   gaudi_roce_test rdma ACCEL_A DBG_A PORT_A ACCEL_B DBG_B PORT_B
 *                                           RDMA WRITEs from card A's port
 *                                           to card B's over their cable:
 *                                           bytes, remote SOB, CQEs, bad
 *                                           rkey, kernel SOB, other QPs
 *   gaudi_roce_test forge ACCEL_A DBG_A IF_A ACCEL_B DBG_B IF_B
 *                                           crafted RoCE v2 frames sent with
 *                                           AF_PACKET on gaudi_en's netdevs
 *                                           IF_A/IF_B of the two ends of a
 *                                           cable (port 0 each): forged NAKs
 *                                           from another source, writes out
 *                                           of the region, for another MAC,
 *                                           a message continued into the
 *                                           next holder
 *   gaudi_roce_test fuzz ACCEL N SEED       N random NIC ioctls
 *   gaudi_roce_test remove ACCEL DBG        the card unbound under a holder
 *                                           with connections, bound again
 *
 * DBG is the card's debugfs directory (addr, data32).  Prints TAP and
 * ends with "N passed, N failed"; exit status 1 on any failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "dbgfs.h"
#include "hl_ioctl.h"
#include "tap.h"
#include <drm/gaudi_accel.h>
#include "../../hw/gaudi1/nic.h"
#include "../../hw/gaudi1/memmap.h"

#define WQ_ENTRIES	64
#define NUM_WQS		16
#define CQ_ENTRIES	256
#define BUF_SIZE	(256U << 10)
#define USER_SOB	200	/* a W_S SOB of the users */
#define SOB(n)		(mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * (n))
/* The last W_S SOB the driver keeps (the users' start at 144). */
#define DRIVER_SOB_LAST	143
/* A sync-manager register that is not a SOB: the first monitor's payload. */
#define NOT_A_SOB	(mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * SM_NUM_SOBS)

static const char *dbg_dir;

/* ---- the ioctl ------------------------------------------------------------ */

static int nic_raw(int fd, uint32_t op, const void *in, uint32_t in_size,
		   void *out, uint32_t out_size)
{
	struct drm_gaudi_nic a;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.input_ptr = (uintptr_t)in;
	a.input_size = in ? in_size : 0;
	a.output_ptr = (uintptr_t)out;
	a.output_size = out ? out_size : 0;
	return xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a);
}

#define nic(fd, op, in, out) \
	nic_raw(fd, op, in, sizeof(*(in)), out, sizeof(*(out)))

static int alloc_conn(int fd, uint32_t port, uint32_t *conn)
{
	struct drm_gaudi_nic_port in = { .port = port };
	struct drm_gaudi_nic_conn_id out = { 0 };
	int rc = nic(fd, GAUDI_NIC_OP_ALLOC_CONN, &in, &out);

	*conn = out.conn_id;
	return rc;
}

static int conn_op(int fd, uint32_t op, uint32_t port, uint32_t conn)
{
	struct drm_gaudi_nic_conn in = { .port = port, .conn_id = conn };

	return nic_raw(fd, op, &in, sizeof(in), NULL, 0);
}

static int conn_state(int fd, uint32_t port, uint32_t conn,
		      struct drm_gaudi_nic_conn_state *s)
{
	struct drm_gaudi_nic_conn in = { .port = port, .conn_id = conn };

	memset(s, 0, sizeof(*s));
	return nic(fd, GAUDI_NIC_OP_CONN_STATE, &in, s);
}

static int wq_set(int fd, uint32_t port, uint64_t va, uint32_t num,
		  uint32_t entries)
{
	struct drm_gaudi_nic_wq in = {
		.addr = va, .port = port, .num_wqs = num, .entries = entries,
	};

	return nic_raw(fd, GAUDI_NIC_OP_USER_WQ_SET, &in, sizeof(in), NULL, 0);
}

static int cq_set(int fd, uint32_t port, uint64_t va, uint32_t entries)
{
	struct drm_gaudi_nic_cq in = {
		.addr = va, .port = port, .entries = entries,
	};

	return nic_raw(fd, GAUDI_NIC_OP_USER_CQ_SET, &in, sizeof(in), NULL, 0);
}

static int port_op(int fd, uint32_t op, uint32_t port)
{
	struct drm_gaudi_nic_port in = { .port = port };

	return nic_raw(fd, op, &in, sizeof(in), NULL, 0);
}

static int doorbell(int fd, uint32_t port, uint32_t conn, uint32_t pi)
{
	struct drm_gaudi_nic_doorbell in = {
		.port = port, .conn_id = conn, .pi = pi,
	};

	return nic_raw(fd, GAUDI_NIC_OP_DOORBELL, &in, sizeof(in), NULL, 0);
}

static int cq_ci(int fd, uint32_t port, uint32_t ci, uint32_t *pi)
{
	struct drm_gaudi_nic_cq_ci in = { .port = port, .ci = ci };
	struct drm_gaudi_nic_cq_pi out = { 0 };
	int rc = nic(fd, GAUDI_NIC_OP_USER_CQ_UPDATE_CI, &in, &out);

	if (pi)
		*pi = out.pi;
	return rc;
}

struct ends {
	uint32_t dst_ip, src_ip, dst_conn, key, psn;
	uint8_t dst_mac[6];
};

static int set_req(int fd, uint32_t port, uint32_t conn, const struct ends *e)
{
	struct drm_gaudi_nic_req_ctx in;

	memset(&in, 0, sizeof(in));
	in.port = port;
	in.conn_id = conn;
	in.dst_ip = e->dst_ip;
	in.src_ip = e->src_ip;
	memcpy(in.dst_mac, e->dst_mac, 6);
	in.dst_conn_id = e->dst_conn;
	in.remote_key = e->key;
	in.psn = e->psn;
	return nic_raw(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &in, sizeof(in),
		       NULL, 0);
}

static int set_res(int fd, uint32_t port, uint32_t conn, const struct ends *e,
		   uint32_t flags)
{
	struct drm_gaudi_nic_res_ctx in;

	memset(&in, 0, sizeof(in));
	in.port = port;
	in.conn_id = conn;
	in.dst_ip = e->dst_ip;
	in.src_ip = e->src_ip;
	memcpy(in.dst_mac, e->dst_mac, 6);
	in.dst_conn_id = e->dst_conn;
	in.local_key = e->key;
	in.expected_psn = e->psn;
	in.flags = flags;
	return nic_raw(fd, GAUDI_NIC_OP_SET_RES_CONN_CTX, &in, sizeof(in),
		       NULL, 0);
}

/* REG_MR: a region of @len bytes at @va for connection @conn's peer. */
static int reg_mr(int fd, uint32_t port, uint32_t conn, uint64_t va,
		  uint64_t len, uint32_t access, uint32_t *key)
{
	struct drm_gaudi_nic_mr in;
	struct drm_gaudi_nic_mr_key out;
	int rc;

	memset(&in, 0, sizeof(in));
	in.addr = va;
	in.length = len;
	in.port = port;
	in.conn_id = conn;
	in.access = access;
	memset(&out, 0xA5, sizeof(out));
	rc = nic_raw(fd, GAUDI_NIC_OP_REG_MR, &in, sizeof(in), &out,
		     sizeof(out));
	if (!rc && key)
		*key = out.key;
	return rc;
}

static int dereg_mr(int fd, uint32_t port, uint32_t key)
{
	struct drm_gaudi_nic_mr_dereg in = { port, key };

	return nic_raw(fd, GAUDI_NIC_OP_DEREG_MR, &in, sizeof(in), NULL, 0);
}

/* ---- debugfs: registers, and contexts through the gateway ----------------- */

static uint32_t reg_rd(uint32_t off)
{
	return hl_dbgfs_rd32(dbg_dir, off);
}

static void reg_wr(uint32_t off, uint32_t v)
{
	hl_dbgfs_wr32(dbg_dir, off, v);
}

/* Valid bit of QP @qpn's requester or responder context, as the NIC sees it. */
static int qpc_valid(unsigned int port, uint32_t qpn, bool req)
{
	unsigned int i, tries = 0;

	for (i = 0; i < NIC_QPC_GW_WORDS; i++)
		reg_wr(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_MASK(i)), 0);
	reg_wr(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_CTRL),
	       qpn | (req ? QPC_GW_CTRL_REQUESTER : 0));
	reg_wr(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_BUSY), 1);
	while (reg_rd(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_BUSY)) && tries++ < 100)
		usleep(1000);
	if (req)
		return reg_rd(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_DATA(15))) >> 31;
	return reg_rd(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_DATA(7))) >> 31;
}

/*
 * Set the valid bit of QP @qpn's contexts behind the driver's back (a
 * masked write of bit 511 / 255 through the gateway): what a crashed
 * driver load could leave in the tables.
 */
static void qpc_force_valid(unsigned int port, uint32_t qpn)
{
	unsigned int i, tries, r;

	for (r = 0; r < 2; r++) {
		unsigned int w = r ? 15 : 7;

		for (i = 0; i < NIC_QPC_GW_WORDS; i++) {
			reg_wr(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_MASK(i)),
			       i == w ? 0x80000000U : 0);
			reg_wr(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_DATA(i)),
			       i == w ? 0x80000000U : 0);
		}
		reg_wr(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_CTRL),
		       qpn | (r ? QPC_GW_CTRL_REQUESTER : 0));
		reg_wr(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_BUSY), 1);
		for (tries = 0; reg_rd(GAUDI_NIC_QPC_REG(port, NIC_QPC_GW_BUSY)) &&
		     tries < 100; tries++)
			usleep(1000);
	}
}

static uint32_t sob_rd(unsigned int sob)
{
	return reg_rd(mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * sob) & 0x7FFF;
}

/* ---- memory --------------------------------------------------------------- */

struct area {
	uint8_t *p;
	uint64_t size, va;
};

static int area_map(int fd, struct area *a, uint64_t size)
{
	a->size = size;
	a->p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (a->p == MAP_FAILED)
		return -errno;
	memset(a->p, 0, size);
	return map_host(fd, a->p, size, &a->va);
}

/* ---- neg ------------------------------------------------------------------ */

static void neg(const char *accel, const char *ctrl)
{
	struct drm_gaudi_nic_link link;
	struct drm_gaudi_nic_conn_state st;
	struct drm_gaudi_nic_port pin;
	struct drm_gaudi_nic_conn_id cid;
	struct drm_gaudi_nic a;
	struct area wq, cq, big;
	struct ends e = { 0x0A000002, 0x0A000001, 1, 0x1234, 7, { 2, 0, 0, 0, 0, 1 } };
	uint8_t in[8192];
	uint32_t c1, c2, c, pi, n;
	unsigned int i;
	int fd, cfd, rc;

	fd = hl_open_retry(accel);
	if (!ok(fd >= 0, "open %s", accel))
		return;
	ok(!area_map(fd, &wq, NUM_WQS * WQ_ENTRIES * 32) &&
	   !area_map(fd, &cq, CQ_ENTRIES * 8) &&
	   !area_map(fd, &big, 1 << 20), "host memory mapped");

	/* QUERY_CAPS says so. */
	{
		struct drm_gaudi_query_caps q;

		memset(&q, 0, sizeof(q));
		ok(!xioctl(fd, DRM_IOCTL_GAUDI_QUERY_CAPS, &q) &&
		   (q.caps & GAUDI_CAP_NIC) && (q.caps & GAUDI_CAP_NIC_MR) &&
		   q.abi_minor >= 6,
		   "QUERY_CAPS: GAUDI_CAP_NIC, GAUDI_CAP_NIC_MR, ABI 1.%u",
		   q.abi_minor);
	}
	memset(&link, 0xAA, sizeof(link));
	ok(!nic_raw(fd, GAUDI_NIC_OP_LINK_STATE, NULL, 0, &link,
		    sizeof(link)) && link.ports_mask == 0x3FF && !link.pad &&
	   (link.up_mask & ~link.ports_mask) == 0 && link.mac[0][0] == 2 &&
	   !link.mac[0][6], "LINK_STATE: ports 0x%x, ext 0x%x, up 0x%x",
	   link.ports_mask, link.ext_ports_mask, link.up_mask);

	/* COUNTERS. */
	{
		struct drm_gaudi_nic_counters cnt;
		struct drm_gaudi_nic_port cp = { 0, 0 };

		memset(&cnt, 0xAA, sizeof(cnt));
		ok(!nic(fd, GAUDI_NIC_OP_COUNTERS, &cp, &cnt) &&
		   !cnt.reserved[0] && !cnt.reserved[3] &&
		   cnt.tx_frames < (1ULL << 40),
		   "COUNTERS port 0: tx %llu frames, rx %llu frames",
		   (unsigned long long)cnt.tx_frames,
		   (unsigned long long)cnt.rx_frames);
		cp.port = 10;
		ok(nic(fd, GAUDI_NIC_OP_COUNTERS, &cp, &cnt) == -EINVAL,
		   "COUNTERS port 10: EINVAL");
		cp.port = 0;
		cp.flags = 1;
		ok(nic(fd, GAUDI_NIC_OP_COUNTERS, &cp, &cnt) == -EINVAL,
		   "COUNTERS flags: EINVAL");
		cp.flags = 0;
		ok(nic_raw(fd, GAUDI_NIC_OP_COUNTERS, &cp, sizeof(cp), &cnt,
			   64) == -EINVAL, "COUNTERS output 64 < 96 bytes: EINVAL");
	}

	/* GET_USER_APP_PARAMS: the port's limits, Habana's layout. */
	{
		struct drm_gaudi_nic_app_params ap;
		struct drm_gaudi_nic_port pp = { 0, 0 };

		memset(&ap, 0xAA, sizeof(ap));
		ok(!nic_raw(fd, GAUDI_NIC_OP_GET_USER_APP_PARAMS, &pp, 4, &ap,
			    sizeof(ap)) &&
		   ap.max_num_of_qps == GAUDI_NIC_MAX_CONN &&
		   ap.num_allocated_qps == GAUDI_NIC_FIRST_CONN &&
		   ap.max_allocated_qp_idx == GAUDI_NIC_FIRST_CONN - 1 &&
		   ap.max_cq_size == GAUDI_NIC_CQ_MAX_ENTRIES * 8 &&
		   !ap.advanced && ap.max_num_of_cqs == 1 &&
		   !ap.max_num_of_db_fifos && !ap.max_num_of_encaps &&
		   ap.speed == 100000 && !ap.max_num_of_coll_qps &&
		   !ap.coll_qps_offset && !ap.base_coll_qp_idx &&
		   !ap.base_scale_out_coll_qp_idx &&
		   !ap.max_num_of_scale_out_coll_qps && !ap.pad,
		   "GET_USER_APP_PARAMS port 0 (Habana's 4-byte input): %u QPs, "
		   "%u in use, top %u, CQ %u bytes, %u Mb/s",
		   ap.max_num_of_qps, ap.num_allocated_qps,
		   ap.max_allocated_qp_idx, ap.max_cq_size, ap.speed);
		pp.port = 10;
		ok(nic(fd, GAUDI_NIC_OP_GET_USER_APP_PARAMS, &pp, &ap) ==
		   -EINVAL, "GET_USER_APP_PARAMS port 10: EINVAL");
		pp.port = 0;
		pp.flags = 1;
		ok(nic(fd, GAUDI_NIC_OP_GET_USER_APP_PARAMS, &pp, &ap) ==
		   -EINVAL, "GET_USER_APP_PARAMS flags: EINVAL");
		pp.flags = 0;
		ok(nic_raw(fd, GAUDI_NIC_OP_GET_USER_APP_PARAMS, &pp,
			   sizeof(pp), &ap, 40) == -EINVAL,
		   "GET_USER_APP_PARAMS output 40 < 48 bytes: EINVAL");
	}

	/* The header. */
	memset(&pin, 0, sizeof(pin));
	memset(&a, 0, sizeof(a));
	a.input_ptr = (uintptr_t)&pin;
	a.input_size = sizeof(pin);
	a.output_ptr = (uintptr_t)&cid;
	a.output_size = sizeof(cid);
	{
		static const uint32_t bad_ops[] = { 4, 8, 14, 15, 29, 0x3F,
						    0x44, 0xFFFFFFFF };

		for (i = 0; i < sizeof(bad_ops) / 4; i++) {
			a.op = bad_ops[i];
			ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL,
			   "op 0x%x: EINVAL", bad_ops[i]);
		}
	}
	a.op = GAUDI_NIC_OP_ALLOC_CONN;
	a.ctx_id = 1;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL, "ctx_id 1: EINVAL");
	a.ctx_id = 0;
	a.flags = 1;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL, "flags: EINVAL");
	a.flags = 0;
	a.pad = 1;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL, "pad: EINVAL");
	a.pad = 0;
	a.reserved[1] = 1;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL, "reserved: EINVAL");
	a.reserved[1] = 0;
	a.output_size = 4;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL,
	   "output_size 4 < 8: EINVAL");
	a.output_size = sizeof(cid);
	a.output_ptr = 0;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL, "no output: EINVAL");
	a.output_ptr = (uintptr_t)&cid;
	a.input_size = 0;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL, "no input: EINVAL");
	a.input_size = sizeof(pin);
	a.input_ptr = 8;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EFAULT, "bad input_ptr: EFAULT");
	a.input_ptr = (uintptr_t)in;
	memset(in, 0, sizeof(in));
	a.input_size = GAUDI_NIC_IO_MAX + 8;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL, "input_size 4104: EINVAL");
	a.input_size = GAUDI_NIC_IO_MAX;
	in[100] = 1;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL,
	   "input longer than the struct, not zero: EINVAL");
	in[100] = 0;
	rc = xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a);
	ok(!rc && cid.conn_id == GAUDI_NIC_FIRST_CONN,
	   "input longer, zero: ALLOC_CONN gives QP %u, the first (%d, %u)",
	   GAUDI_NIC_FIRST_CONN, rc, cid.conn_id);
	c1 = cid.conn_id;
	a.input_size = 4;	/* port only: flags zero-extended */
	in[0] = 0;
	rc = xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a);
	ok(!rc && cid.conn_id == GAUDI_NIC_FIRST_CONN + 1,
	   "input shorter: ALLOC_CONN gives the next QP (%d, %u)", rc,
	   cid.conn_id);
	c2 = cid.conn_id;
	a.input_size = 8;
	in[4] = 1;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EINVAL,
	   "ALLOC_CONN flags: EINVAL");
	a.output_ptr = 8;
	in[4] = 0;
	ok(xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a) == -EFAULT,
	   "bad output_ptr: EFAULT (and no QP allocated)");

	/* Ports. */
	{
		static const uint32_t bad_ports[] = { 10, 11, 31, 32, 64,
						      0xFFFFFFFF };

		for (i = 0; i < sizeof(bad_ports) / 4; i++) {
			ok(alloc_conn(fd, bad_ports[i], &c) == -EINVAL,
			   "ALLOC_CONN port %u: EINVAL", bad_ports[i]);
			ok(wq_set(fd, bad_ports[i], wq.va, NUM_WQS,
				  WQ_ENTRIES) == -EINVAL,
			   "WQ_SET port %u: EINVAL", bad_ports[i]);
		}
		ok(cq_set(fd, 10, cq.va, CQ_ENTRIES) == -EINVAL,
		   "CQ_SET port 10: EINVAL");
		ok(doorbell(fd, 10, c1, 0) == -EINVAL, "DOORBELL port 10: EINVAL");
		ok(conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 10, c1) == -EINVAL,
		   "DESTROY port 10: EINVAL");
	}

	/* Connections: QP 0, QP 1 (never given), unknown, beyond. */
	{
		static const uint32_t bad_conns[] = { 0, 1, 500, 1023, 1024,
						      0x1000000, 0xFFFFFFFF };

		for (i = 0; i < sizeof(bad_conns) / 4; i++) {
			ok(conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 0,
				   bad_conns[i]) == -EINVAL,
			   "DESTROY QP %u: EINVAL", bad_conns[i]);
			ok(conn_state(fd, 0, bad_conns[i], &st) == -EINVAL,
			   "CONN_STATE QP %u: EINVAL", bad_conns[i]);
			ok(set_res(fd, 0, bad_conns[i], &e, 0) == -EINVAL,
			   "SET_RES QP %u: EINVAL", bad_conns[i]);
			ok(doorbell(fd, 0, bad_conns[i], 0) == -EINVAL,
			   "DOORBELL QP %u: EINVAL", bad_conns[i]);
		}
		ok(conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 1, c1) == -EINVAL,
		   "QP %u of port 0 on port 1: EINVAL", c1);
	}

	/* The send queues. */
	ok(set_req(fd, 0, c1, &e) == -EINVAL, "SET_REQ before WQ_SET: EINVAL");
	ok(wq_set(fd, 0, wq.va, NUM_WQS, 0) == -EINVAL, "WQ entries 0: EINVAL");
	ok(wq_set(fd, 0, wq.va, NUM_WQS, 2) == -EINVAL, "WQ entries 2: EINVAL");
	ok(wq_set(fd, 0, wq.va, NUM_WQS, 48) == -EINVAL, "WQ entries 48: EINVAL");
	ok(wq_set(fd, 0, big.va, 2, 8192) == -EINVAL, "WQ entries 8192: EINVAL");
	ok(wq_set(fd, 0, wq.va, 0, WQ_ENTRIES) == -EINVAL, "WQ num 0: EINVAL");
	ok(wq_set(fd, 0, big.va, 1025, 4) == -EINVAL, "WQ num 1025: EINVAL");
	ok(wq_set(fd, 0, 0, NUM_WQS, WQ_ENTRIES) == -EINVAL, "WQ addr 0: EINVAL");
	ok(wq_set(fd, 0, wq.va + 64, NUM_WQS / 2, WQ_ENTRIES) == -EINVAL,
	   "WQ addr not 128-byte aligned: EINVAL");
	ok(wq_set(fd, 0, wq.va + 4096, NUM_WQS, WQ_ENTRIES) == -EINVAL,
	   "WQ partly mapped: EINVAL");
	ok(wq_set(fd, 0, wq.va, NUM_WQS * 2, WQ_ENTRIES) == -EINVAL,
	   "WQ twice the mapping: EINVAL");
	ok(wq_set(fd, 0, 0x1000000000000ULL + (1ULL << 44), NUM_WQS,
		  WQ_ENTRIES) == -EINVAL, "WQ not mapped: EINVAL");
	ok(wq_set(fd, 0, 0x20000000ULL, NUM_WQS, WQ_ENTRIES) == -EINVAL,
	   "WQ in HBM (not a mapping): EINVAL");
	ok(!wq_set(fd, 0, wq.va, NUM_WQS, WQ_ENTRIES), "WQ_SET port 0");
	ok(wq_set(fd, 0, wq.va, NUM_WQS, WQ_ENTRIES) == -EBUSY,
	   "WQ_SET again: EBUSY");
	ok(port_op(fd, GAUDI_NIC_OP_USER_WQ_UNSET, 1) == -EINVAL,
	   "WQ_UNSET of a port without: EINVAL");

	/* Requester context fields. */
	{
		struct drm_gaudi_nic_req_ctx r;

		memset(&r, 0, sizeof(r));
		r.port = 0;
		r.conn_id = c1;
		r.flags = 2;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ flags: EINVAL");
		r.flags = 0;
		r.pad[1] = 1;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ pad: EINVAL");
		r.pad[1] = 0;
		r.reserved[0] = 1;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ reserved: EINVAL");
		r.reserved[0] = 0;
		r.pad2 = 1;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ pad2: EINVAL");
		r.pad2 = 0;
		r.dst_conn_id = 1 << 24;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ dst_conn_id 2^24: EINVAL");
		r.dst_conn_id = 0;
		r.psn = 1 << 24;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ psn 2^24: EINVAL");
		r.psn = 0;
		r.timeout_retry = 256;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ timeout_retry 256: EINVAL");
		r.timeout_retry = 0;
		/* ABI 1.6: path MTU and RNR retry. */
		r.path_mtu = 300;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ path_mtu 300: EINVAL");
		r.path_mtu = 8192;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ path_mtu 8192: EINVAL");
		r.path_mtu = 128;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ path_mtu 128: EINVAL");
		r.path_mtu = 0;
		r.rnr_retry = 3;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ rnr_retry without its flag: EINVAL");
		r.flags = GAUDI_NIC_REQ_RNR_RETRY;
		r.rnr_retry = 8;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ rnr_retry 8: EINVAL");
		r.flags = 0;
		r.rnr_retry = 0;
		r.port = 1;
		ok(nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_REQ of port 0's QP on port 1: EINVAL");
	}
	{
		struct drm_gaudi_nic_res_ctx r;

		memset(&r, 0, sizeof(r));
		r.conn_id = c1;
		r.flags = 2;
		ok(nic(fd, GAUDI_NIC_OP_SET_RES_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_RES unknown flag: EINVAL");
		r.flags = 0;
		r.expected_psn = 1 << 24;
		ok(nic(fd, GAUDI_NIC_OP_SET_RES_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_RES expected_psn 2^24: EINVAL");
		r.expected_psn = 0;
		r.pad[0] = 1;
		ok(nic(fd, GAUDI_NIC_OP_SET_RES_CONN_CTX, &r, (int *)NULL) ==
		   -EINVAL, "SET_RES pad: EINVAL");
	}
	ok(doorbell(fd, 0, c1, 0) == -EINVAL,
	   "DOORBELL without requester context: EINVAL");
	{
		struct drm_gaudi_nic_req_ctx r;

		memset(&r, 0, sizeof(r));
		r.conn_id = c1;
		r.psn = 7;
		r.path_mtu = 1024;
		r.flags = GAUDI_NIC_REQ_RNR_RETRY;
		r.rnr_retry = 3;
		ok(!nic(fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &r, (int *)NULL),
		   "SET_REQ with path MTU 1024 and RNR retry 3");
	}
	ok(!set_req(fd, 0, c1, &e) && !set_res(fd, 0, c1, &e, 0),
	   "SET_REQ and SET_RES of QP %u", c1);
	ok(!conn_state(fd, 0, c1, &st) &&
	   st.flags == (GAUDI_NIC_CONN_REQ_VALID | GAUDI_NIC_CONN_RES_VALID) &&
	   st.next_psn == 7 && st.expected_psn == 7 && st.ci == 0,
	   "CONN_STATE: both valid, PSNs 7 (flags 0x%x)", st.flags);
	ok(doorbell(fd, 0, c1, WQ_ENTRIES) == -EINVAL,
	   "DOORBELL PI %u = entries: EINVAL", WQ_ENTRIES);
	ok(doorbell(fd, 0, c1, 0xFFFFFFFF) == -EINVAL,
	   "DOORBELL PI 2^32-1: EINVAL");
	{
		struct drm_gaudi_nic_doorbell d = { 0, c1, 0, 1 };

		ok(nic(fd, GAUDI_NIC_OP_DOORBELL, &d, (int *)NULL) == -EINVAL,
		   "DOORBELL flags: EINVAL");
	}
	ok(!doorbell(fd, 0, c1, 0), "DOORBELL PI = CI (nothing to do)");
	ok(port_op(fd, GAUDI_NIC_OP_USER_WQ_UNSET, 0) == -EBUSY,
	   "WQ_UNSET with a requester context: EBUSY");
	/* QP 16 is beyond NUM_WQS queues (QPs 2 and 3 are c1, c2). */
	for (n = 0; n < 13; n++)
		alloc_conn(fd, 0, &c);
	ok(c == NUM_WQS && set_req(fd, 0, c, &e) == -EINVAL,
	   "SET_REQ of QP %u beyond the %u queues: EINVAL", c, NUM_WQS);

	/* The completion queue. */
	ok(cq_ci(fd, 0, 0, NULL) == -EINVAL, "UPDATE_CI without CQ: EINVAL");
	ok(cq_set(fd, 0, cq.va, 8) == -EINVAL, "CQ entries 8: EINVAL");
	ok(cq_set(fd, 0, cq.va, 100) == -EINVAL, "CQ entries 100: EINVAL");
	ok(cq_set(fd, 0, big.va, 1 << 21) == -EINVAL, "CQ entries 2^21: EINVAL");
	ok(cq_set(fd, 0, cq.va, CQ_ENTRIES * 4) == -EINVAL,
	   "CQ partly mapped: EINVAL");
	ok(cq_set(fd, 0, cq.va + 8, 16) == -EINVAL, "CQ misaligned: EINVAL");
	{
		struct drm_gaudi_nic_cq q = { cq.va, 0, CQ_ENTRIES, 0, 1 };

		ok(nic(fd, GAUDI_NIC_OP_USER_CQ_SET, &q, (int *)NULL) ==
		   -EINVAL, "CQ pad: EINVAL");
	}
	ok(!cq_set(fd, 0, cq.va, CQ_ENTRIES), "CQ_SET port 0");
	ok(cq_set(fd, 0, cq.va, CQ_ENTRIES) == -EBUSY, "CQ_SET again: EBUSY");
	ok(!cq_ci(fd, 0, 0, &pi) && pi == 0, "UPDATE_CI 0: PI 0");
	ok(cq_ci(fd, 0, 5, NULL) == -EINVAL, "UPDATE_CI beyond PI: EINVAL");
	ok(cq_ci(fd, 0, 0xFFFFFFFF, NULL) == -EINVAL,
	   "UPDATE_CI backwards: EINVAL");
	{
		struct drm_gaudi_nic_cq_ci q = { 0, 0 };
		uint32_t small;

		ok(nic_raw(fd, GAUDI_NIC_OP_USER_CQ_UPDATE_CI, &q, sizeof(q),
			   &small, 4) == -EINVAL, "UPDATE_CI output 4 bytes: EINVAL");
	}
	ok(!port_op(fd, GAUDI_NIC_OP_USER_CQ_UNSET, 0) &&
	   port_op(fd, GAUDI_NIC_OP_USER_CQ_UNSET, 0) == -EINVAL,
	   "CQ_UNSET, again: EINVAL");

	/* Memory regions (ABI 1.6). */
	{
		struct drm_gaudi_nic_mr m;
		uint32_t k1 = 0, k2 = 0, k3 = 0;
		uint64_t sram = 0x7FF0000000ULL, cfg = 0x7FFC000000ULL;

		ok(reg_mr(fd, 0, c2, big.va, 0, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL, "REG_MR of 0 bytes: EINVAL");
		ok(reg_mr(fd, 0, c2, big.va, big.size, 0, NULL) == -EINVAL &&
		   reg_mr(fd, 0, c2, big.va, big.size, 4, NULL) == -EINVAL,
		   "REG_MR with no access, an unknown access bit: EINVAL");
		ok(reg_mr(fd, 0, c2, big.va, big.size + 1,
			  GAUDI_NIC_MR_REMOTE_WRITE, NULL) == -EINVAL &&
		   reg_mr(fd, 0, c2, big.va - 1, 2, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL,
		   "REG_MR one byte beyond a mapping, either end: EINVAL");
		ok(reg_mr(fd, 0, c2, cq.va, big.va + big.size - cq.va,
			  GAUDI_NIC_MR_REMOTE_WRITE, NULL) == -EINVAL,
		   "REG_MR across two mappings: EINVAL");
		ok(reg_mr(fd, 0, c2, cfg, 4096, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL &&
		   reg_mr(fd, 0, c2, sram, 4096, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL &&
		   reg_mr(fd, 0, c2, 0x18000000ULL, 4096,
			  GAUDI_NIC_MR_REMOTE_WRITE, NULL) == -EINVAL,
		   "REG_MR of config space, SRAM, the driver's HBM: EINVAL");
		ok(reg_mr(fd, 0, c2, ~0ULL - 10, 100, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL, "REG_MR wrapping: EINVAL");
		ok(reg_mr(fd, 0, 1, big.va, 64, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL &&
		   reg_mr(fd, 0, 900, big.va, 64, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL &&
		   reg_mr(fd, 1, c2, big.va, 64, GAUDI_NIC_MR_REMOTE_WRITE,
			  NULL) == -EINVAL,
		   "REG_MR on QP 1, an unallocated QP, another port's: EINVAL");
		memset(&m, 0, sizeof(m));
		m.addr = big.va;
		m.length = 64;
		m.conn_id = c2;
		m.access = GAUDI_NIC_MR_REMOTE_WRITE;
		m.flags = 1;
		ok(nic(fd, GAUDI_NIC_OP_REG_MR, &m, &k1) == -EINVAL,
		   "REG_MR flags: EINVAL");
		m.flags = 0;
		m.reserved[1] = 1;
		ok(nic(fd, GAUDI_NIC_OP_REG_MR, &m, &k1) == -EINVAL,
		   "REG_MR reserved: EINVAL");
		ok(!reg_mr(fd, 0, c2, big.va + 4096, 8192,
			   GAUDI_NIC_MR_REMOTE_WRITE, &k1) &&
		   !reg_mr(fd, 0, c2, big.va + 4096, 8192,
			   GAUDI_NIC_MR_REMOTE_WRITE | GAUDI_NIC_MR_REMOTE_READ,
			   &k2) && k1 != k2 && (k1 ^ k2) >> 10,
		   "REG_MR twice, the same range: keys 0x%x, 0x%x (random bits differ)",
		   k1, k2);
		ok(unmap_host(fd, big.va) == -EBUSY,
		   "UNMAP of a mapping with regions: EBUSY");
		ok(!dereg_mr(fd, 0, k1) && dereg_mr(fd, 0, k1) == -ENOENT &&
		   dereg_mr(fd, 0, k1 ^ 0x400) == -ENOENT &&
		   dereg_mr(fd, 1, k2) == -ENOENT,
		   "DEREG_MR, again, a forged key, on another port: ENOENT");
		ok(!reg_mr(fd, 0, c2, big.va, 64, GAUDI_NIC_MR_REMOTE_WRITE,
			   &k3) && k3 != k1 && (k3 & 1023) != (k1 & 1023),
		   "a new region does not take the slot of one of its QP's ended regions (0x%x)",
		   k3);
		ok(unmap_host(fd, big.va) == -EBUSY, "  still EBUSY");
	}

	/* Destroy. */
	ok(!conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 0, c2), "DESTROY QP %u", c2);
	ok(!unmap_host(fd, big.va) && !area_map(fd, &big, 1 << 20),
	   "its regions ended with it: UNMAP, mapped again");
	ok(conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 0, c2) == -EINVAL,
	   "DESTROY again: EINVAL");
	ok(set_res(fd, 0, c2, &e, 0) == -EINVAL &&
	   conn_state(fd, 0, c2, &st) == -EINVAL,
	   "a destroyed QP is refused");
	ok(!alloc_conn(fd, 0, &c) && c == c2, "ALLOC_CONN reuses QP %u", c);
	ok(!conn_state(fd, 0, c, &st) && st.flags == 0,
	   "  with no valid context (flags 0x%x)", st.flags);
	ok(!conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 0, c1) &&
	   !port_op(fd, GAUDI_NIC_OP_USER_WQ_UNSET, 0),
	   "DESTROY QP %u, then WQ_UNSET", c1);

	/* All QPs of a port. */
	for (n = 0; alloc_conn(fd, 3, &c) == 0 && n < 2000; n++)
		;
	ok(n == GAUDI_NIC_MAX_CONN - GAUDI_NIC_FIRST_CONN &&
	   alloc_conn(fd, 3, &c) == -ENOSPC,
	   "port 3: %u QPs, then ENOSPC", n);
	{
		struct drm_gaudi_nic_app_params ap;
		struct drm_gaudi_nic_port pp = { 3, 0 };

		ok(!nic(fd, GAUDI_NIC_OP_GET_USER_APP_PARAMS, &pp, &ap) &&
		   ap.num_allocated_qps == GAUDI_NIC_MAX_CONN &&
		   ap.max_allocated_qp_idx == GAUDI_NIC_MAX_CONN - 1,
		   "  GET_USER_APP_PARAMS: %u in use, top %u",
		   ap.num_allocated_qps, ap.max_allocated_qp_idx);
		ok(!conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 3, 500) &&
		   !nic(fd, GAUDI_NIC_OP_GET_USER_APP_PARAMS, &pp, &ap) &&
		   ap.num_allocated_qps == GAUDI_NIC_MAX_CONN - 1 &&
		   ap.max_allocated_qp_idx == GAUDI_NIC_MAX_CONN - 1,
		   "  one destroyed: %u in use", ap.num_allocated_qps);
	}

	/* The control node refuses. */
	cfd = open(ctrl, O_RDWR | O_CLOEXEC);
	if (cfd >= 0) {
		ok(nic(cfd, GAUDI_NIC_OP_LINK_STATE, (int *)NULL, &link) ==
		   -ENOTTY, "control node: ENOTTY");
		close(cfd);
	} else {
		ok(0, "open %s", ctrl);
	}
	close(fd);
}

/* ---- teardown -------------------------------------------------------------- */

static int setup_some(int fd, struct area *wq, struct area *cq, uint32_t *c)
{
	struct ends e = { 1, 2, 5, 0x55, 9, { 2, 0, 0, 0, 0, 2 } };
	unsigned int i;
	int rc = 0;

	rc |= area_map(fd, wq, NUM_WQS * WQ_ENTRIES * 32);
	rc |= area_map(fd, cq, CQ_ENTRIES * 8);
	rc |= wq_set(fd, 2, wq->va, NUM_WQS, WQ_ENTRIES);
	rc |= cq_set(fd, 2, cq->va, CQ_ENTRIES);
	for (i = 0; i < 3; i++) {
		rc |= alloc_conn(fd, 2, &c[i]);
		rc |= set_req(fd, 2, c[i], &e);
		rc |= set_res(fd, 2, c[i], &e, GAUDI_NIC_RES_SOB_EN);
	}
	return rc;
}

static void check_gone(int fd, const uint32_t *c, const char *what)
{
	struct drm_gaudi_nic_conn_state st;
	struct area wq2, cq2;
	unsigned int i, bad = 0, valid = 0;

	for (i = 0; i < 3; i++) {
		bad += conn_state(fd, 2, c[i], &st) != -EINVAL;
		bad += conn_op(fd, GAUDI_NIC_OP_DESTROY_CONN, 2, c[i]) != -EINVAL;
		bad += doorbell(fd, 2, c[i], 1) != -EINVAL;
		valid += qpc_valid(2, c[i], true) + qpc_valid(2, c[i], false);
	}
	ok(!bad, "%s: the old connections are refused", what);
	ok(!valid, "%s: their contexts are invalid in the NIC", what);
	ok(reg_rd(GAUDI_NIC_RXE_REG(2, NIC_RXE_CQ_CFG0)) == 0 &&
	   reg_rd(GAUDI_NIC_TXE_REG(2, NIC_TXE_SQ_BASE_ADDRESS_31_0(1))) == 0,
	   "%s: CQ and send-queue base unset", what);
	ok(!area_map(fd, &wq2, NUM_WQS * WQ_ENTRIES * 32) &&
	   !area_map(fd, &cq2, CQ_ENTRIES * 8) &&
	   !wq_set(fd, 2, wq2.va, NUM_WQS, WQ_ENTRIES) &&
	   !cq_set(fd, 2, cq2.va, CQ_ENTRIES),
	   "%s: WQ_SET and CQ_SET work again", what);
}

static void teardown(const char *accel)
{
	struct area wq, cq;
	uint32_t c[3], first, key = 0;
	char bdf[64], path[256];
	FILE *f;
	int fd;

	fd = hl_open_retry(accel);
	if (!ok(fd >= 0, "open %s", accel))
		return;
	ok(!setup_some(fd, &wq, &cq, c), "three connections on port 2");
	ok(qpc_valid(2, c[0], true) && qpc_valid(2, c[2], false),
	   "their contexts are valid in the NIC");
	ok(!reg_mr(fd, 2, c[0], cq.va, CQ_ENTRIES * 8,
		   GAUDI_NIC_MR_REMOTE_WRITE, &key),
	   "a region on connection %u", c[0]);
	close(fd);

	fd = hl_open_retry(accel);
	if (!ok(fd >= 0, "reopen"))
		return;
	check_gone(fd, c, "close");
	ok(dereg_mr(fd, 2, key) == -ENOENT,
	   "after close: the old holder's region key is no region (ENOENT)");
	ok(!alloc_conn(fd, 2, &first) && first == GAUDI_NIC_FIRST_CONN,
	   "the next holder's first QP is %u", GAUDI_NIC_FIRST_CONN);
	close(fd);

	/* A hard reset while the holder has connections. */
	fd = hl_open_retry(accel);
	if (!ok(fd >= 0, "reopen"))
		return;
	ok(!setup_some(fd, &wq, &cq, c), "three connections on port 2");
	ok(!reg_mr(fd, 2, c[1], cq.va, CQ_ENTRIES * 8,
		   GAUDI_NIC_MR_REMOTE_WRITE, &key) &&
	   unmap_host(fd, cq.va) == -EBUSY,
	   "a region on connection %u holds its mapping (UNMAP EBUSY)", c[1]);
	if (hl_card_bdf(atoi(accel + strlen("/dev/accel/accel")), bdf,
			sizeof(bdf)) == 0) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/hard_reset", bdf);
		f = fopen(path, "w");
		ok(f && fputs("1\n", f) >= 0 && fclose(f) == 0,
		   "hard reset requested");
	} else {
		ok(0, "PCI address of %s", accel);
	}
	sleep(1);
	ok(hl_wait_operational(fd, 60), "operational again");
	check_gone(fd, c, "reset");
	ok(dereg_mr(fd, 2, key) == -ENOENT && unmap_host(fd, cq.va) != -EBUSY,
	   "after reset: the region is gone, its mapping no longer held");
	close(fd);
}

/* ---- rdma ------------------------------------------------------------------ */

struct side {
	int fd;
	const char *dbg;
	uint32_t port;
	struct area wq, cq, buf;
	uint32_t cq_ci;
	uint8_t mac[6];
	uint32_t pi[NUM_WQS];	/* next WQE per QP */
	uint32_t mr_key[NUM_WQS];	/* the region on @buf per QP, 0: none */
};

static void wqe_write(struct side *s, uint32_t qp, uint64_t laddr,
		      uint32_t size, uint64_t raddr, int64_t sob, uint32_t data)
{
	uint32_t *w = (uint32_t *)(s->wq.p + (uint64_t)qp * WQ_ENTRIES * 32 +
				   s->pi[qp] * 32);

	memset(w, 0, 32);
	w[0] = htole32((uint32_t)WQE_LINEAR << NIC_WQE_OPCODE_SHIFT |
		       NIC_WQE_ACKREQ);
	w[1] = htole32((uint32_t)laddr);
	w[2] = htole32((uint32_t)(laddr >> 32) | size << NIC_WQE_SIZE_SHIFT);
	w[3] = htole32((uint32_t)raddr);
	w[4] = htole32((uint32_t)(raddr >> 32) & NIC_WQE_REMOTE_ADDR_HI);
	if (sob >= 0) {
		w[5] = htole32((uint32_t)sob | NIC_WQE_SYNC_VALID);
		w[6] = htole32(data);
	}
	__sync_synchronize();
	s->pi[qp] = (s->pi[qp] + 1) % WQ_ENTRIES;
}

/* Wait for @n requester CQEs on @s; their QPs and WQE indices in @out. */
static unsigned int cq_poll(struct side *s, unsigned int n, uint64_t *out,
			    int ms)
{
	unsigned int got = 0;
	uint32_t pi;

	while (got < n && ms > 0) {
		volatile uint64_t *e = (volatile uint64_t *)s->cq.p +
				       (s->cq_ci % CQ_ENTRIES);
		uint64_t v = le64toh(*e);

		if (!(v >> 63)) {
			usleep(1000);
			ms--;
			continue;
		}
		if (out)
			out[got] = v;
		*e = 0;
		got++;
		s->cq_ci++;
		cq_ci(s->fd, s->port, s->cq_ci, &pi);
	}
	return got;
}

static bool wait_state(struct side *s, uint32_t qp, uint32_t flag, int ms)
{
	struct drm_gaudi_nic_conn_state st;

	while (ms-- > 0) {
		if (!conn_state(s->fd, s->port, qp, &st) && (st.flags & flag))
			return true;
		usleep(1000);
	}
	return false;
}

static int side_open(struct side *s, const char *accel, const char *dbg,
		     uint32_t port)
{
	struct drm_gaudi_nic_link link;

	memset(s, 0, sizeof(*s));
	s->fd = hl_open_retry(accel);
	s->dbg = dbg;
	s->port = port;
	if (s->fd < 0)
		return -1;
	if (area_map(s->fd, &s->wq, NUM_WQS * WQ_ENTRIES * 32) ||
	    area_map(s->fd, &s->cq, CQ_ENTRIES * 8) ||
	    area_map(s->fd, &s->buf, BUF_SIZE) ||
	    wq_set(s->fd, port, s->wq.va, NUM_WQS, WQ_ENTRIES) ||
	    cq_set(s->fd, port, s->cq.va, CQ_ENTRIES) ||
	    nic_raw(s->fd, GAUDI_NIC_OP_LINK_STATE, NULL, 0, &link,
		    sizeof(link)))
		return -1;
	memcpy(s->mac, link.mac[port], 6);
	return (link.up_mask >> port) & 1 ? 0 : -2;
}

/*
 * Connect requester QP @qa of @a to responder QP @qb of @b, whose region
 * (ABI 1.6) is @b's whole buffer, registered once per QP; the requester
 * carries its key, or (@rkey != @key) a wrong one, the same slot with
 * other random bits.  @key itself goes into the responder's @local_key,
 * which regions make meaningless.
 */
static int qp_connect(struct side *a, uint32_t qa, struct side *b,
		      uint32_t qb, uint32_t key, uint32_t rkey, uint32_t psn)
{
	struct ends ea = { 0x0A000002, 0x0A000001, qb, rkey, psn, { 0 } };
	struct ends eb = { 0x0A000001, 0x0A000002, qa, key, psn, { 0 } };

	memcpy(ea.dst_mac, b->mac, 6);
	memcpy(eb.dst_mac, a->mac, 6);
	if (set_res(b->fd, b->port, qb, &eb, GAUDI_NIC_RES_SOB_EN))
		return -1;
	if (qb >= NUM_WQS)
		return -1;
	if (!b->mr_key[qb] &&
	    reg_mr(b->fd, b->port, qb, b->buf.va, b->buf.size,
		   GAUDI_NIC_MR_REMOTE_WRITE, &b->mr_key[qb]))
		return -1;
	ea.key = b->mr_key[qb] ^ (rkey == key ? 0 : 0x400);
	return set_req(a->fd, a->port, qa, &ea);
}

/*
 * Issue 22's attacks of a remote peer, with card A's engine as the peer
 * (a conforming RoCE v2 requester whose holder picks every address and
 * key): connection @qa -> @qb, reconnected before each try with the remote
 * key @key (0: B's region of @qb).  Each try must put A's requester in
 * error, leave B's whole buffer (its region and around it), B's send
 * queues and CQ and B's driver SOBs W_S 0..3 as they were, and the
 * connection must work again.
 */
static void attack(struct side *a, struct side *b, uint32_t qa, uint32_t qb,
		   uint32_t key, uint64_t laddr, uint64_t raddr, uint32_t size,
		   const char *what)
{
	struct ends ea = { 0x0A000002, 0x0A000001, qb, 0, 5, { 0 } };
	uint8_t *before = malloc(BUF_SIZE);
	uint8_t *wq = malloc(b->wq.size), *cq = malloc(b->cq.size);
	uint32_t sobs[4], n;
	bool same = true, refused;

	if (!before || !wq || !cq) {
		ok(0, "%s: memory", what);
		free(before);
		free(wq);
		free(cq);
		return;
	}
	a->pi[qa] = 0;
	memcpy(ea.dst_mac, b->mac, 6);
	ea.key = key ? key : b->mr_key[qb];
	if (qp_connect(a, qa, b, qb, 1, 1, 5) || set_req(a->fd, a->port, qa, &ea)) {
		ok(0, "%s: reconnect", what);
		free(before);
		free(wq);
		free(cq);
		return;
	}
	dbg_dir = b->dbg;
	for (n = 0; n < 4; n++)
		sobs[n] = sob_rd(n);
	memcpy(before, b->buf.p, BUF_SIZE);
	memcpy(wq, b->wq.p, b->wq.size);
	memcpy(cq, b->cq.p, b->cq.size);
	wqe_write(a, qa, laddr, size, raddr, -1, 0);
	refused = !doorbell(a->fd, a->port, qa, a->pi[qa]) &&
		  wait_state(a, qa, GAUDI_NIC_CONN_REQ_ERROR, 10000) &&
		  cq_poll(a, 1, NULL, 10) == 0;
	usleep(20000);
	for (n = 0; n < 4; n++)
		same &= sob_rd(n) == sobs[n];
	same &= !memcmp(wq, b->wq.p, b->wq.size) &&
		!memcmp(cq, b->cq.p, b->cq.size);
	ok(refused && same && !memcmp(before, b->buf.p, BUF_SIZE),
	   "peer attack refused: %s (requester in error, no CQE, B's buffer, queues and driver SOBs unchanged)",
	   what);
	free(before);
	free(wq);
	free(cq);
}

/* The attacks, then the connection works as before. */
static void remote_attacks(struct side *a, struct side *b, uint32_t qa,
			   uint32_t qb, uint32_t other_qb)
{
	uint64_t cfg_sob = GAUDI_CFG_BASE + SOB(0);
	uint64_t end = b->buf.va + BUF_SIZE;
	uint32_t gone = 0, size = 64;

	attack(a, b, qa, qb, 0, a->buf.va, cfg_sob, 4,
	       "a write to B's config space (driver SOB W_S 0)");
	attack(a, b, qa, qb, 0, a->buf.va, 0x18000000ULL, size,
	       "a write to B's driver HBM (its NIC tables)");
	attack(a, b, qa, qb, 0, a->buf.va, end - size / 2, size,
	       "a write across the end of B's region");
	attack(a, b, qa, qb, 0, a->buf.va, b->buf.va - size / 2, size,
	       "a write across the start of B's region");
	attack(a, b, qa, qb, 0, a->buf.va, b->wq.va, size,
	       "a write into B's send queues (in no region: a WQE rewritten)");
	attack(a, b, qa, qb, 0, a->buf.va, b->cq.va, size,
	       "a write into B's completion queue");
	attack(a, b, qa, qb, b->mr_key[other_qb], a->buf.va, b->buf.va, size,
	       "the key of another connection's region");
	if (!reg_mr(b->fd, b->port, qb, b->buf.va, 4096,
		    GAUDI_NIC_MR_REMOTE_WRITE, &gone) &&
	    !dereg_mr(b->fd, b->port, gone))
		attack(a, b, qa, qb, gone, a->buf.va, b->buf.va, size,
		       "the key of a deregistered region");
	else
		ok(0, "REG_MR and DEREG_MR of a region to forge");
	attack(a, b, qa, qb, b->mr_key[qb] ^ 0xFFFFFC00U, a->buf.va, b->buf.va,
	       size, "a guessed key (the region's slot, other random bits)");
	/* The holder's own NIC as a reader of what it may not read. */
	attack(a, b, qa, qb, 0, GAUDI_CFG_BASE + SOB(0), b->buf.va, 4,
	       "a send WQE whose local address is A's config space");
	attack(a, b, qa, qb, 0, 0x18000000ULL, b->buf.va, size,
	       "a send WQE whose local address is A's driver HBM");
}

/* One write with a SOB increment on requester @qa: CQE, bytes, SOB. */
static void still_writes(struct side *a, struct side *b, uint32_t qa,
			 uint32_t qb, uint8_t *shadow, uint32_t sob_want,
			 const char *when)
{
	struct drm_gaudi_nic_conn_state sa, sb;
	uint32_t off = rand() % 100000, size = 1 + rand() % 9000;
	uint32_t dst = off + 17;
	uint64_t cqe = 0;

	if (!strcmp(when, "after both errors")) {
		/* The case that once lost its SOB write (00:20 run). */
		off = 3;
		size = 5000;
		dst = 1000;
	}
	dbg_dir = b->dbg;
	memcpy(shadow, b->buf.p, BUF_SIZE);
	memcpy(shadow + dst, a->buf.p + off, size);
	wqe_write(a, qa, a->buf.va + off, size, b->buf.va + dst,
		  SOB(USER_SOB), SM_SOB_INC | 1);
	ok(!doorbell(a->fd, a->port, qa, a->pi[qa]),
	   "QP %u writes %s: doorbell", qa, when);
	ok(cq_poll(a, 1, &cqe, 10000) == 1 &&
	   ((cqe >> 32) & 0xFFFFFF) == qa, "  its CQE (0x%llx)",
	   (unsigned long long)cqe);
	ok(!memcmp(b->buf.p, shadow, BUF_SIZE), "  the %u bytes", size);
	ok(sob_rd(USER_SOB) == (sob_want & 0x7FFF), "  the SOB (%u, want %u)",
	   sob_rd(USER_SOB), sob_want & 0x7FFF);
	conn_state(a->fd, a->port, qa, &sa);
	conn_state(b->fd, b->port, qb, &sb);
	ok(sa.flags == GAUDI_NIC_CONN_REQ_VALID &&
	   sb.flags == GAUDI_NIC_CONN_RES_VALID && sa.next_psn == sb.expected_psn,
	   "  both ends valid, no error, PSN %u = %u (0x%x 0x%x)",
	   sa.next_psn, sb.expected_psn, sa.flags, sb.flags);
}

/*
 * QP qa writes @size bytes to B and signals @target, which B's port
 * refuses: both ends of the QP in error, @target still @before, no CQE.
 * dbg_dir is B's.
 */
static void refused_sob(struct side *a, struct side *b, uint32_t qa,
			uint32_t qb, uint32_t size, uint32_t target,
			uint32_t before, const char *what)
{
	wqe_write(a, qa, a->buf.va, size, b->buf.va + 8192, target,
		  SM_SOB_INC | 1);
	ok(!doorbell(a->fd, a->port, qa, a->pi[qa]),
	   "write signalling %s (0x%x)", what, target);
	ok(wait_state(a, qa, GAUDI_NIC_CONN_REQ_ERROR, 10000) &&
	   wait_state(b, qb, GAUDI_NIC_CONN_RES_ERROR, 10000),
	   "both ends of the QP are in error");
	ok(reg_rd(target) == before, "%s is unchanged (0x%x)", what, before);
	ok(cq_poll(a, 1, NULL, 100) == 0, "no CQE for it");
}

/* ---- the doorbell from a NIC queue ------------------------------------------- */

/* CB: ring @port's unsecured doorbell for @qpn up to @pi (two MSG_LONGs). */
static size_t db_cb(uint8_t *cb, uint32_t port, uint32_t qpn_val, uint32_t pi)
{
	size_t off;

	off = hl_pkt_msg_long(cb, 0, GAUDI_CFG_BASE +
			      GAUDI_NIC_QPC_REG(port, NIC_QPC_UNSECURED_DOORBELL_PI),
			      pi, false);
	return hl_pkt_msg_long(cb, off, GAUDI_CFG_BASE +
			       GAUDI_NIC_QPC_REG(port,
						 NIC_QPC_UNSECURED_DOORBELL_QPN),
			       qpn_val, false);
}

/*
 * A 4 KiB CB mapped here (*@h its handle); with @dva also mapped into the
 * device MMU, as internal queues name their CB by its device address
 * (*@dva).  MAP_FAILED on error.
 */
static uint8_t *cb4k(int fd, uint64_t *h, uint64_t *dva)
{
	*h = 0;
	if (cb_create(fd, 4096, dva ? HL_CB_FLAGS_MAP : 0, h) ||
	    (dva && hl_cb_device_va(fd, *h, dva)))
		return MAP_FAILED;
	return hl_cb_mmap(fd, *h, 4096);
}

static void cb4k_free(int fd, uint64_t h, uint8_t *p)
{
	if (p != MAP_FAILED)
		munmap(p, 4096);
	if (h)
		cb_destroy(fd, h);
}

/*
 * A CS of @len bytes of CB @cb on queue @q plus a NOP on DMA 0's first
 * (external) queue, whose completion ends it: a CS of internal jobs only
 * is refused.
 */
static int nic_cs(int fd, uint64_t cb, uint32_t len, uint32_t q, uint64_t nop,
		  uint64_t *seq)
{
	struct hl_cs_chunk ch[2];

	memset(ch, 0, sizeof(ch));
	ch[0].cb_handle = cb;
	ch[0].queue_index = q;
	ch[0].cb_size = len;
	ch[1].cb_handle = nop;
	ch[1].queue_index = GAUDI_QUEUE_ID_DMA_0_0;
	ch[1].cb_size = 8;
	return hl_submit(fd, ch, 2, 0, 0, seq);
}

/*
 * Work reaches the NIC through its QMAN: a CS on the port's NIC queue
 * rings the unsecured doorbell, no DOORBELL ioctl.  The parser lets only
 * that queue ring only its own port, with a connection's QP and BUSY.
 */
static void nic_queue_doorbell(struct side *a, struct side *b, uint32_t qa,
			       uint8_t *shadow, uint32_t sob_want)
{
	uint32_t q = GAUDI_QUEUE_ID_NIC_0_0 + 4 * a->port + 2, size = 3000;
	uint32_t busy = QPC_DOORBELL_BUSY | qa;
	struct {
		const char *what;
		uint32_t queue, port, val, pi;
	} bad[] = {
		{ "on a TPC queue", GAUDI_QUEUE_ID_TPC_0_0, a->port, busy, 0 },
		{ "on a DMA queue", GAUDI_QUEUE_ID_DMA_2_0, a->port, busy, 0 },
		{ "another port's doorbell", q, a->port ^ 1, busy, 0 },
		{ "QP 0 (the kernel's raw queue)", q, a->port,
		  QPC_DOORBELL_BUSY, 0 },
		{ "QP 1", q, a->port, QPC_DOORBELL_BUSY | 1, 0 },
		{ "QP 1024", q, a->port, QPC_DOORBELL_BUSY | 1024, 0 },
		{ "QPN without BUSY", q, a->port, qa, 0 },
		{ "PI beyond 22 bits", q, a->port, busy, 1U << 22 },
	};
	uint64_t cb = 0, dva = 0, nop = 0, seq = 0, cqe = 0;
	uint8_t *cbp = MAP_FAILED, *nopp = MAP_FAILED;
	long long nic0, nic1;
	unsigned int i;
	size_t len;
	int rc;

	cbp = cb4k(a->fd, &cb, &dva);
	nopp = cb4k(a->fd, &nop, NULL);
	if (!ok(cbp != MAP_FAILED && nopp != MAP_FAILED,
		"CBs for the NIC queue and the external NOP"))
		goto out;
	hl_pkt8(nopp, 0, PKT_NOP, 0, 0);
	dbg_dir = b->dbg;
	memcpy(shadow, b->buf.p, BUF_SIZE);
	memcpy(shadow + 150000, a->buf.p + 11, size);
	wqe_write(a, qa, a->buf.va + 11, size, b->buf.va + 150000,
		  SOB(USER_SOB), SM_SOB_INC | 1);
	nic0 = hl_fdinfo(a->fd, "drm-engine-nic");
	len = db_cb(cbp, a->port, busy, a->pi[qa]);
	rc = nic_cs(a->fd, dva, (uint32_t)len, q, nop, &seq);
	if (!rc)
		rc = hl_wait_ok(a->fd, seq, 5000000);
	ok(!rc, "CS on NIC queue %u rings port %u's doorbell for QP %u (%d)",
	   q, a->port, qa, rc);
	ok(cq_poll(a, 1, &cqe, 10000) == 1 &&
	   ((cqe >> 32) & 0xFFFFFF) == qa, "  its CQE (0x%llx)",
	   (unsigned long long)cqe);
	ok(!memcmp(b->buf.p, shadow, BUF_SIZE) &&
	   sob_rd(USER_SOB) == (sob_want & 0x7FFF),
	   "  the %u bytes and the remote SOB (%u)", size, sob_rd(USER_SOB));
	nic1 = hl_fdinfo(a->fd, "drm-engine-nic");
	ok(nic0 == 0 && nic1 > 0,
	   "  fdinfo drm-engine-nic counts the NIC queue (%lld -> %lld ns)",
	   nic0, nic1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		len = db_cb(cbp, bad[i].port, bad[i].val, bad[i].pi);
		ok(nic_cs(a->fd, dva, (uint32_t)len, bad[i].queue, nop, &seq) ==
		   -EINVAL, "refused: the doorbell %s", bad[i].what);
	}
	ok(cq_poll(a, 1, NULL, 200) == 0 &&
	   !memcmp(b->buf.p, shadow, BUF_SIZE), "  nothing sent");
out:
	cb4k_free(a->fd, cb, cbp);
	cb4k_free(a->fd, nop, nopp);
}

/* ---- collective waits --------------------------------------------------------- */

static int sync_cs(int fd, uint32_t flags, uint32_t q, uint64_t *sig,
		   uint32_t engine, uint64_t *seq)
{
	struct hl_cs_chunk ch;

	memset(&ch, 0, sizeof(ch));
	ch.queue_index = q;
	ch.collective_engine_id = engine;
	if (sig) {
		ch.signal_seq_arr = (uintptr_t)sig;
		ch.num_signal_seq_arr = 1;
	}
	return hl_submit(fd, &ch, 1, flags, 0, seq);
}

/* Signal on @sq, then a collective wait on master @m; its sequence. */
static int collective(int fd, uint32_t sq, uint32_t m, uint32_t engine,
		      uint64_t *seq)
{
	uint64_t sig;
	int rc = sync_cs(fd, HL_CS_FLAGS_SIGNAL, sq, NULL, 0, &sig);

	return rc ? rc : sync_cs(fd, HL_CS_FLAGS_COLLECTIVE_WAIT, m, &sig,
				 engine, seq);
}

/*
 * HL_CS_FLAGS_COLLECTIVE_WAIT (upstream's semantics): the CS ends once
 * the signal arrived and every enabled port's NIC queue of the master's
 * stream and the reduction engine (DMA 5 or TPC 7) passed the work queued
 * before it.  The driver's collective SOB of master m (W_S SOB m) counts
 * the slaves.
 */
static void collective_test(struct side *a)
{
	struct drm_gaudi_nic_link link;
	uint32_t nports;
	const uint32_t port = 3, s = 2, user_sob = 400, user_mon = 100;
	uint32_t qm = GAUDI_NIC_PORT_MACRO(port) +
		      ((port & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);
	uint64_t fence = GAUDI_CFG_BASE + qm + QM_CP_FENCE_RDATA(3, s);
	uint64_t sm = GAUDI_CFG_BASE + mmSYNC_MNGR_W_S_SOB_OBJ_0;
	uint64_t seq, bseq, cb = 0, dva = 0, nop = 0, rel = 0, sig = 0;
	uint8_t *cbp = MAP_FAILED, *nopp = MAP_FAILED, *relp = MAP_FAILED;
	uint32_t c0, c5, st = 0, v;
	struct hl_cs_chunk ch[2];
	size_t len;

	memset(&link, 0, sizeof(link));
	nic_raw(a->fd, GAUDI_NIC_OP_LINK_STATE, NULL, 0, &link, sizeof(link));
	nports = (uint32_t)__builtin_popcount(link.ports_mask);
	dbg_dir = a->dbg;
	c0 = reg_rd(SOB(0)) & 0x7FFF;
	c5 = reg_rd(SOB(5)) & 0x7FFF;
	ok(!collective(a->fd, 1, 0, GAUDI_ENGINE_ID_DMA_5, &seq) &&
	   !hl_wait_ok(a->fd, seq, 10000000),
	   "collective wait on DMA_0_0 (engine DMA 5) after a signal on DMA_0_1: completes");
	ok(((reg_rd(SOB(0)) - c0) & 0x7FFF) == nports + 1,
	   "  the %u NIC queues and DMA 5 each added 1 to its collective SOB (%u)",
	   nports, (reg_rd(SOB(0)) - c0) & 0x7FFF);
	ok(!collective(a->fd, 4, 5, GAUDI_ENGINE_ID_TPC_7, &seq) &&
	   !hl_wait_ok(a->fd, seq, 10000000) &&
	   ((reg_rd(SOB(5)) - c5) & 0x7FFF) == nports + 1,
	   "collective wait on DMA_1_1 with TPC 7: completes, +%u",
	   (reg_rd(SOB(5)) - c5) & 0x7FFF);

	/* A NIC queue that has not passed its earlier work holds it back. */
	cbp = cb4k(a->fd, &cb, &dva);
	nopp = cb4k(a->fd, &nop, NULL);
	relp = cb4k(a->fd, &rel, NULL);
	if (!ok(cbp != MAP_FAILED && nopp != MAP_FAILED && relp != MAP_FAILED,
		"collective: CBs"))
		goto out;
	hl_pkt8(nopp, 0, PKT_NOP, 0, 0);
	len = hl_pkt_fence(cbp, 0, 3, 1, 1);
	ok(!nic_cs(a->fd, dva, (uint32_t)len,
		   GAUDI_QUEUE_ID_NIC_0_0 + 4 * port + s, nop, &bseq),
	   "NIC queue of port %u, stream %u, waits in a FENCE", port, s);
	ok(!collective(a->fd, 1, s, GAUDI_ENGINE_ID_DMA_5, &seq),
	   "collective wait on DMA_0_%u", s);
	ok(wait_cs(a->fd, seq, 300000, &st, NULL) == 0 &&
	   st == HL_WAIT_CS_STATUS_BUSY,
	   "  still busy after 300 ms (status %u)", st);
	/* A user monitor releases the FENCE: SOB 400 + 1 fires it. */
	v = (reg_rd(SOB(user_sob)) & 0x7FFF) + 1;
	len = hl_pkt_msg_long(relp, 0, sm + SM_MON_PAY_ADDRL(user_mon),
			      (uint32_t)fence, false);
	len = hl_pkt_msg_long(relp, len, sm + SM_MON_PAY_ADDRH(user_mon),
			      (uint32_t)(fence >> 32), false);
	len = hl_pkt_msg_long(relp, len, sm + SM_MON_PAY_DATA(user_mon), 1,
			      false);
	len = hl_pkt_msg_long(relp, len, sm + SM_MON_ARM(user_mon),
			      (user_sob / 8) | (uint32_t)(uint8_t)~(1U << (user_sob % 8)) << 8 |
			      v << 17, false);
	len = hl_pkt_msg_long(relp, len, sm + 4 * user_sob, SM_SOB_INC | 1,
			      false);
	ok(!hl_run1(a->fd, rel, (uint32_t)len, GAUDI_QUEUE_ID_DMA_0_3, 5000000),
	   "a user monitor releases the FENCE");
	ok(!hl_wait_ok(a->fd, seq, 10000000), "  then the collective wait completes");

	/* Refused. */
	ok(sync_cs(a->fd, HL_CS_FLAGS_SIGNAL, 1, NULL, 0, &sig) == 0,
	   "a signal CS for the refusals");
	ok(sync_cs(a->fd, HL_CS_FLAGS_COLLECTIVE_WAIT, 0, &sig,
		   GAUDI_ENGINE_ID_DMA_4, &seq) == -EINVAL,
	   "collective engine DMA 4: EINVAL");
	ok(sync_cs(a->fd, HL_CS_FLAGS_COLLECTIVE_WAIT, GAUDI_QUEUE_ID_DMA_2_0,
		   &sig, GAUDI_ENGINE_ID_DMA_5, &seq) == -EINVAL,
	   "master on an internal queue: EINVAL");
	ok(sync_cs(a->fd, HL_CS_FLAGS_COLLECTIVE_WAIT, 0, NULL,
		   GAUDI_ENGINE_ID_DMA_5, &seq) == -EINVAL,
	   "no signal: EINVAL");
	ok(sync_cs(a->fd, HL_CS_FLAGS_COLLECTIVE_WAIT, 0, &bseq,
		   GAUDI_ENGINE_ID_DMA_5, &seq) == -EINVAL,
	   "a sequence that is not a signal CS: EINVAL");
	memset(ch, 0, sizeof(ch));
	ch[0].signal_seq_arr = ch[1].signal_seq_arr = (uintptr_t)&sig;
	ch[0].num_signal_seq_arr = ch[1].num_signal_seq_arr = 1;
	ch[0].collective_engine_id = ch[1].collective_engine_id =
		GAUDI_ENGINE_ID_DMA_5;
	ok(hl_submit(a->fd, ch, 2, HL_CS_FLAGS_COLLECTIVE_WAIT, 0, &seq) ==
	   -EINVAL, "two chunks: EINVAL");
out:
	cb4k_free(a->fd, cb, cbp);
	cb4k_free(a->fd, nop, nopp);
	cb4k_free(a->fd, rel, relp);
}

static void rdma(char **argv)
{
	struct side a, b;
	uint32_t qa[4], qb[4], sob0, nsob0, n, i, bad, wrong;
	struct drm_gaudi_nic_counters cnt_a0, cnt_b0;
	uint64_t bytes = 0;
	uint64_t cqe[64];
	uint8_t *shadow;
	int rc;

	rc = side_open(&a, argv[0], argv[1], atoi(argv[2]));
	ok(!rc, "card A (%s port %s): queues set, link up (%d)", argv[0],
	   argv[2], rc);
	rc = side_open(&b, argv[3], argv[4], atoi(argv[5]));
	ok(!rc, "card B (%s port %s): queues set, link up (%d)", argv[3],
	   argv[5], rc);
	if (tap_failed)
		return;
	rc = 0;
	for (i = 0; i < 4; i++) {
		rc |= alloc_conn(a.fd, a.port, &qa[i]);
		rc |= alloc_conn(b.fd, b.port, &qb[i]);
		/* A's QPs and B's differ, so that a mix-up shows. */
		if (i == 0)
			rc |= alloc_conn(b.fd, b.port, &qb[i]);
	}
	ok(!rc, "four QPs each (A %u..%u, B %u..%u)", qa[0], qa[3], qb[0],
	   qb[3]);
	ok(!qp_connect(&a, qa[0], &b, qb[0], 0x1111, 0x1111, 100) &&
	   !qp_connect(&a, qa[1], &b, qb[1], 0x2222, 0x2222, 0xFFFFF0) &&
	   !qp_connect(&a, qa[2], &b, qb[2], 0x3333, 0x3334, 5) &&
	   !qp_connect(&a, qa[3], &b, qb[3], 0x4444, 0x4444, 77),
	   "connected: A%u->B%u, A%u->B%u (PSN wraps), A%u->B%u (bad rkey), A%u->B%u",
	   qa[0], qb[0], qa[1], qb[1], qa[2], qb[2], qa[3], qb[3]);

	/* Random writes with a remote SOB increment each. */
	shadow = calloc(1, BUF_SIZE);
	srand(12345);
	for (i = 0; i < BUF_SIZE; i++)
		a.buf.p[i] = (uint8_t)rand();
	memset(b.buf.p, 0xEE, BUF_SIZE);
	memset(shadow, 0xEE, BUF_SIZE);
	dbg_dir = b.dbg;
	sob0 = sob_rd(USER_SOB);
	nsob0 = reg_rd(NOT_A_SOB);
	{
		struct drm_gaudi_nic_port cp = { a.port, 0 };

		nic(a.fd, GAUDI_NIC_OP_COUNTERS, &cp, &cnt_a0);
		cp.port = b.port;
		nic(b.fd, GAUDI_NIC_OP_COUNTERS, &cp, &cnt_b0);
	}
	n = 40;
	bad = 0;
	for (i = 0; i < n; i++) {
		uint32_t size = 1 + rand() % 16383;
		uint32_t src = rand() % (BUF_SIZE - size);
		uint32_t qp = i % 2;
		/*
		 * Each QP its half of B's buffer: a QP's writes land in order,
		 * two QPs' in no order RC promises (a retransmission delays
		 * one of them), so their writes must not overlap.
		 */
		uint32_t dst = rand() % (BUF_SIZE / 2 - size) +
			       qp * (BUF_SIZE / 2);

		if (i == 0)
			size = 16383;
		bytes += size;
		memcpy(shadow + dst, a.buf.p + src, size);
		wqe_write(&a, qa[qp], a.buf.va + src, size, b.buf.va + dst,
			  SOB(USER_SOB), SM_SOB_INC | 1);
		/* Each write its own doorbell: they may be in flight together. */
		bad += !!doorbell(a.fd, a.port, qa[qp], a.pi[qa[qp]]);
	}
	ok(!bad, "%u WQEs posted on two QPs, doorbells rung", n);
	memset(cqe, 0, sizeof(cqe));
	ok(cq_poll(&a, n, cqe, 20000) == n, "%u requester CQEs", n);
	wrong = 0;
	for (i = 0; i < n; i++) {
		uint32_t qp = (cqe[i] >> 32) & 0xFFFFFF;

		wrong += !(cqe[i] & ROCE_CQE_REQUESTER) ||
			 (qp != qa[0] && qp != qa[1]);
	}
	ok(!wrong, "every CQE is a requester CQE of A's QPs");
	ok(!memcmp(b.buf.p, shadow, BUF_SIZE),
	   "card B's buffer holds exactly the %u writes", n);
	usleep(100000);
	ok(((sob_rd(USER_SOB) - sob0) & 0x7FFF) == n,
	   "user SOB %u incremented exactly %u times (%u -> %u)", USER_SOB, n,
	   sob0, sob_rd(USER_SOB));
	ok(cq_poll(&a, 1, NULL, 50) == 0, "no more CQEs");
	{
		struct drm_gaudi_nic_port cp = { a.port, 0 };
		struct drm_gaudi_nic_counters ca, cb;

		nic(a.fd, GAUDI_NIC_OP_COUNTERS, &cp, &ca);
		cp.port = b.port;
		nic(b.fd, GAUDI_NIC_OP_COUNTERS, &cp, &cb);
		/* At least two packets a write (data, SOB), each ACKed. */
		ok(ca.tx_frames - cnt_a0.tx_frames >= 2 * n &&
		   cb.rx_frames - cnt_b0.rx_frames >= 2 * n &&
		   ca.tx_octets - cnt_a0.tx_octets >= bytes &&
		   cb.tx_frames - cnt_b0.tx_frames >= 1,
		   "COUNTERS: A sent %llu frames (%llu octets), B received %llu, sent %llu",
		   (unsigned long long)(ca.tx_frames - cnt_a0.tx_frames),
		   (unsigned long long)(ca.tx_octets - cnt_a0.tx_octets),
		   (unsigned long long)(cb.rx_frames - cnt_b0.rx_frames),
		   (unsigned long long)(cb.tx_frames - cnt_b0.tx_frames));
	}
	ok(cq_poll(&b, 1, NULL, 10) == 0, "no CQE on the responder");

	/* A bad rkey: the QP errors on both sides, nothing written. */
	{
		uint64_t ev;

		hl_info(a.fd, HL_INFO_GET_EVENTS, &ev, sizeof(ev));
		hl_info(b.fd, HL_INFO_GET_EVENTS, &ev, sizeof(ev));
	}
	memcpy(shadow, b.buf.p, BUF_SIZE);
	wqe_write(&a, qa[2], a.buf.va, 4096, b.buf.va, SOB(USER_SOB), SM_SOB_INC | 1);
	ok(!doorbell(a.fd, a.port, qa[2], a.pi[qa[2]]), "write with a bad rkey");
	ok(wait_state(&a, qa[2], GAUDI_NIC_CONN_REQ_ERROR, 10000),
	   "the requester QP is in error (CONN_STATE)");
	ok(wait_state(&b, qb[2], GAUDI_NIC_CONN_RES_ERROR, 10000),
	   "the responder QP is in error");
	ok(cq_poll(&a, 1, NULL, 100) == 0, "no CQE for it");
	{
		uint64_t ea = 0, eb = 0;
		int t;

		/* The QP event reaches the driver through the device CPU. */
		for (t = 0; t < 50 && !(ea & HL_NOTIFIER_EVENT_USER_ENGINE_ERR);
		     t++) {
			uint64_t e = 0;

			usleep(20000);
			hl_info(a.fd, HL_INFO_GET_EVENTS, &e, sizeof(e));
			ea |= e;
		}
		hl_info(b.fd, HL_INFO_GET_EVENTS, &eb, sizeof(eb));
		ok((ea & HL_NOTIFIER_EVENT_USER_ENGINE_ERR) &&
		   (eb & HL_NOTIFIER_EVENT_USER_ENGINE_ERR),
		   "both holders are notified (USER_ENGINE_ERR: 0x%llx, 0x%llx)",
		   (unsigned long long)ea, (unsigned long long)eb);
	}
	ok(!memcmp(b.buf.p, shadow, BUF_SIZE) &&
	   ((sob_rd(USER_SOB) - sob0) & 0x7FFF) == n,
	   "nothing written, SOB unchanged");
	still_writes(&a, &b, qa[1], qb[1], shadow, sob0 + n + 1,
		     "after the bad rkey");

	/* A sync-object target that is not a SOB: refused, QP in error. */
	refused_sob(&a, &b, qa[3], qb[3], 512, NOT_A_SOB, nsob0,
		    "a register that is not a SOB");

	/*
	 * A SOB of the driver (W_S 143, the last below the users'): out of
	 * the port's remote-SOB window, refused like the register above.
	 */
	{
		uint32_t drv = DRIVER_SOB_LAST, d0 = reg_rd(SOB(drv));

		a.pi[qa[3]] = 0;
		ok(!qp_connect(&a, qa[3], &b, qb[3], 0x4444, 0x4444, 11),
		   "QP %u reconnected", qa[3]);
		refused_sob(&a, &b, qa[3], qb[3], 0, SOB(drv), d0,
			    "the driver's SOB 143");
	}
	/* The window's ends: W_S 144 and E_N 2047 are the user's. */
	{
		uint32_t lo = SOB(DRIVER_SOB_LAST + 1);
		uint32_t hi = mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * (SM_NUM_SOBS - 1);
		uint32_t lo0 = reg_rd(lo), hi0 = reg_rd(hi);

		a.pi[qa[3]] = 0;
		ok(!qp_connect(&a, qa[3], &b, qb[3], 0x5555, 0x5555, 13),
		   "QP %u reconnected", qa[3]);
		wqe_write(&a, qa[3], a.buf.va, 0, b.buf.va, lo, SM_SOB_INC | 1);
		wqe_write(&a, qa[3], a.buf.va, 0, b.buf.va, hi, SM_SOB_INC | 1);
		ok(!doorbell(a.fd, a.port, qa[3], a.pi[qa[3]]) &&
		   cq_poll(&a, 2, NULL, 10000) == 2 &&
		   ((reg_rd(lo) - lo0) & 0x7FFF) == 1 &&
		   ((reg_rd(hi) - hi0) & 0x7FFF) == 1,
		   "the first user SOB (W_S 144) and the last (E_N 2047) are signalled once each");
	}

	/* The other QPs keep working. */
	still_writes(&a, &b, qa[1], qb[1], shadow, sob0 + n + 2,
		     "after both errors");
	nic_queue_doorbell(&a, &b, qa[1], shadow, sob0 + n + 3);
	collective_test(&a);
	remote_attacks(&a, &b, qa[2], qb[2], qb[0]);
	/* The QP in error is brought back by new contexts. */
	a.pi[qa[2]] = 0;
	ok(!qp_connect(&a, qa[2], &b, qb[2], 0x3333, 0x3333, 9),
	   "QP %u reconnected with the right key", qa[2]);
	memcpy(shadow + 200000, a.buf.p + 7, 777);
	wqe_write(&a, qa[2], a.buf.va + 7, 777, b.buf.va + 200000, -1, 0);
	ok(!doorbell(a.fd, a.port, qa[2], a.pi[qa[2]]) &&
	   cq_poll(&a, 1, NULL, 10000) == 1 &&
	   !memcmp(b.buf.p, shadow, BUF_SIZE),
	   "and writes again (no SOB)");

	/*
	 * Both directions at once on the same cable: B's requester QP
	 * qb[0] to A's responder qa[0] (A's requester qa[0] keeps writing
	 * to B): data and ACKs of both cross on each port.
	 */
	{
		uint8_t *shadow_a = malloc(BUF_SIZE);
		uint32_t sob_a0, k, m = 12;

		dbg_dir = a.dbg;
		sob_a0 = sob_rd(USER_SOB + 1);
		memcpy(shadow_a, a.buf.p, BUF_SIZE);
		memcpy(shadow, b.buf.p, BUF_SIZE);
		ok(!qp_connect(&b, qb[0], &a, qa[0], 0x5555, 0x5555, 1000),
		   "B's QP %u connected to A's QP %u", qb[0], qa[0]);
		bad = 0;
		for (k = 0; k < m; k++) {
			uint32_t size = 1 + rand() % 12000;
			uint32_t src = rand() % (BUF_SIZE / 2 - size);
			uint32_t dst = BUF_SIZE / 2 + rand() % (BUF_SIZE / 2 - size);

			/* B -> A: from B's lower half into A's upper half. */
			memcpy(shadow_a + dst, b.buf.p + src, size);
			wqe_write(&b, qb[0], b.buf.va + src, size,
				  a.buf.va + dst, SOB(USER_SOB + 1),
				  SM_SOB_INC | 1);
			bad += !!doorbell(b.fd, b.port, qb[0], b.pi[qb[0]]);
			/* A -> B: from A's lower half into B's upper half. */
			src = rand() % (BUF_SIZE / 2 - size);
			dst = BUF_SIZE / 2 + rand() % (BUF_SIZE / 2 - size);
			memcpy(shadow + dst, a.buf.p + src, size);
			wqe_write(&a, qa[0], a.buf.va + src, size,
				  b.buf.va + dst, -1, 0);
			bad += !!doorbell(a.fd, a.port, qa[0], a.pi[qa[0]]);
		}
		ok(!bad, "%u writes each way posted", m);
		ok(cq_poll(&b, m, NULL, 20000) == m &&
		   cq_poll(&a, m, NULL, 20000) == m,
		   "%u requester CQEs on each card", m);
		ok(!memcmp(a.buf.p, shadow_a, BUF_SIZE) &&
		   !memcmp(b.buf.p, shadow, BUF_SIZE), "both buffers exact");
		usleep(100000);
		ok(((sob_rd(USER_SOB + 1) - sob_a0) & 0x7FFF) == m,
		   "card A's SOB %u incremented %u times", USER_SOB + 1, m);
		free(shadow_a);
	}
	free(shadow);
	close(a.fd);
	close(b.fd);
}

/* ---- fuzz ------------------------------------------------------------------ */

static void fuzz(const char *accel, unsigned int n, unsigned int seed)
{
	static const uint32_t ops[] = { 0, 1, 2, 3, 9, 10, 11, 12, 13, 16,
					0x40, 0x41, 0x42, 0x43, 0x44, 0x45,
					4, 77 };
	struct area m;
	uint64_t buf[64], out[64];
	unsigned int i, k, done = 0;
	int fd = hl_open_retry(accel);

	if (!ok(fd >= 0, "open %s", accel))
		return;
	ok(!area_map(fd, &m, 1 << 20), "1 MiB mapped");
	srand(seed);
	/* Some state to hit: queues and QPs on ports 0..2. */
	for (k = 0; k < 3; k++) {
		uint32_t c;

		wq_set(fd, k, m.va, 8, 64);
		cq_set(fd, k, m.va + (512 << 10), 1024);
		alloc_conn(fd, k, &c);
		alloc_conn(fd, k, &c);
	}
	for (i = 0; i < n; i++) {
		struct drm_gaudi_nic a;

		memset(&a, 0, sizeof(a));
		for (k = 0; k < 64; k++)
			buf[k] = ((uint64_t)rand() << 32) ^ rand();
		/* Plausible values most of the time. */
		for (k = 0; k < 16; k++) {
			uint32_t *w = (uint32_t *)buf + k;

			switch (rand() % 8) {
			case 0:
			case 1:
			case 2:
				*w = rand() % 11;
				break;
			case 3:
				*w = 1U << (rand() % 14);
				break;
			case 4:
			case 5:
				*w = 0;
				break;
			default:
				break;
			}
		}
		if (rand() % 3 == 0)
			buf[0] = m.va + (rand() % 16) * 4096;
		else if (rand() % 3 == 0)
			buf[rand() % 3] = m.va + (rand() % 256) * 128;
		a.op = ops[rand() % (sizeof(ops) / 4)];
		a.input_ptr = rand() % 20 ? (uintptr_t)buf : (uint64_t)rand();
		a.input_size = (uint32_t)(rand() % 10 ? 4 * (rand() % 17) : rand());
		a.output_ptr = rand() % 20 ? (uintptr_t)out : (uint64_t)rand();
		a.output_size = (uint32_t)(rand() % 10 ? rand() % 128 : rand());
		if (!(rand() % 20))
			a.ctx_id = rand();
		if (!(rand() % 20))
			a.flags = rand();
		done += !xioctl(fd, DRM_IOCTL_GAUDI_NIC, &a);
	}
	ok(1, "%u random NIC ioctls, %u accepted", n, done);
	/* Regions the fuzzing registered hold the mapping until the close. */
	close(fd);
	fd = hl_open_retry(accel);
	ok(fd >= 0, "the card opens again after the fuzzing");
	if (fd >= 0)
		close(fd);
}

/* ---- remove ---------------------------------------------------------------- */

static int sys_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -errno;
	rc = fputs(val, f) < 0;
	rc |= fclose(f) != 0;
	return rc ? -EIO : 0;
}

/* The compute node of the card at @bdf, after a rebind. */
static int accel_of(const char *bdf, char *path, size_t len)
{
	char link[256], target[512];
	int i;
	ssize_t n;

	for (i = 0; i < 64; i++) {
		snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", i);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		if (strstr(target, bdf)) {
			snprintf(path, len, "/dev/accel/accel%d", i);
			return 0;
		}
	}
	return -1;
}

/*
 * The card unbound while its holder has connections: the ioctl answers
 * ENODEV, close is clean; bound again, the contexts are invalid.
 */
static void remove_test(const char *accel)
{
	struct drm_gaudi_nic_conn_state st;
	struct area wq, cq;
	char bdf[64], node[64];
	uint32_t c[3], other;
	unsigned int i, valid = 0;
	int fd, t;

	if (!ok(!hl_card_bdf(atoi(accel + strlen("/dev/accel/accel")), bdf,
			     sizeof(bdf)), "PCI address of %s", accel))
		return;
	fd = hl_open_retry(accel);
	if (!ok(fd >= 0, "open %s", accel))
		return;
	ok(!setup_some(fd, &wq, &cq, c), "three connections on port 2");
	/* A region too: the removal must drop it before the mappings go. */
	ok(!reg_mr(fd, 2, c[2], wq.va, 4096, GAUDI_NIC_MR_REMOTE_WRITE, NULL),
	   "a region on connection %u", c[2]);
	ok(!sys_write("/sys/bus/pci/drivers/gaudi/unbind", bdf),
	   "unbind %s while held", bdf);
	/* (not into c[]: a failed ALLOC_CONN leaves its output 0) */
	ok(conn_state(fd, 2, c[0], &st) == -ENODEV &&
	   alloc_conn(fd, 2, &other) == -ENODEV, "the NIC ioctl: ENODEV");
	close(fd);
	ok(!sys_write("/sys/bus/pci/drivers/gaudi/bind", bdf), "bind again");
	for (t = 0; t < 100 && accel_of(bdf, node, sizeof(node)); t++)
		usleep(100000);
	fd = hl_open_retry(node);
	if (!ok(fd >= 0, "open %s", node))
		return;
	hl_wait_operational(fd, 30);
	for (i = 0; i < 3; i++)
		valid += qpc_valid(2, c[i], true) + qpc_valid(2, c[i], false);
	ok(!valid && c[0] && c[1] && c[2],
	   "the contexts of QPs %u, %u, %u are invalid in the NIC", c[0], c[1],
	   c[2]);
	ok(conn_state(fd, 2, c[0], &st) == -EINVAL,
	   "the old connection is unknown");
	close(fd);
}

/* ---- forge: crafted RoCE v2 frames on gaudi_en's raw path ------------------- */

/*
 * Frames from outside the engine: written whole (Ethernet to iCRC) and
 * sent with AF_PACKET on the gaudi_en netdev of the other end of the
 * cable, so they arrive at the target port as any peer's would.  Layouts
 * as the model's emulator/core/roce.c sends them (BTH, RETH, AETH of the
 * InfiniBand specification, RoCE v2 over UDP 4791); the iCRC as
 * tests/lib/roce-pcap.py computes it (annex 17).
 */
#define FG_OP_FIRST	0x06
#define FG_OP_MIDDLE	0x07
#define FG_OP_LAST	0x08
#define FG_OP_ONLY	0x0A
#define FG_OP_ACK	0x11
#define FG_NAK_ACCESS	0x62	/* AETH: NAK, remote access error */
#define FG_ACK		0x1F	/* AETH: ACK, no credit count */
#define FG_MTU		256	/* B's path MTU in forge */
#define IP_A		0x0A000001
#define IP_B		0x0A000002

struct fg_frame {
	uint8_t dst_mac[6], opcode, syndrome;
	uint32_t src_ip, dst_ip, dqp, psn, rkey, dlen;
	uint64_t va;
	const uint8_t *payload;
	uint32_t len;
};

/* CRC-32 of IEEE 802.3 / zlib, continued from @crc (0 to start). */
static uint32_t fg_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	unsigned int k;

	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xEDB88320U & -(crc & 1));
	}
	return ~crc;
}

static void fg_put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void fg_put32(uint8_t *p, uint32_t v)
{
	fg_put16(p, v >> 16);
	fg_put16(p + 2, v);
}

/* Build frame @s into @f; its length. */
static size_t fg_build(uint8_t *f, const struct fg_frame *s)
{
	static const uint8_t ones[8] = {
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	};
	bool reth = s->opcode == FG_OP_FIRST || s->opcode == FG_OP_ONLY;
	bool ack = s->opcode == FG_OP_ACK;
	unsigned int pad = (4 - (s->len & 3)) & 3;
	uint8_t *ip = f + 14, *udp = ip + 20, *bth = udp + 8, *p = bth + 12;
	uint8_t m[40];
	uint32_t sum = 0, crc;
	size_t i, end;

	memcpy(f, s->dst_mac, 6);
	memcpy(f + 6, "\x02\x00\x00\x00\x00\x99", 6);	/* nobody's */
	fg_put16(f + 12, 0x0800);
	if (reth) {
		fg_put32(p, (uint32_t)(s->va >> 32));
		fg_put32(p + 4, (uint32_t)s->va);
		fg_put32(p + 8, s->rkey);
		fg_put32(p + 12, s->dlen);
		p += 16;
	}
	if (ack) {
		fg_put32(p, (uint32_t)s->syndrome << 24);	/* MSN 0 */
		p += 4;
	}
	memcpy(p, s->payload, s->len);
	memset(p + s->len, 0, pad);
	p += s->len + pad;
	end = p - f + 4;
	memset(ip, 0, 20);
	ip[0] = 0x45;
	fg_put16(ip + 2, end - 14);
	fg_put16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = 17;
	fg_put32(ip + 12, s->src_ip);
	fg_put32(ip + 16, s->dst_ip);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	fg_put16(ip + 10, ~sum & 0xFFFF);
	fg_put16(udp, 0xC000);
	fg_put16(udp + 2, 4791);
	fg_put16(udp + 4, end - 34);
	fg_put16(udp + 6, 0);
	bth[0] = s->opcode;
	bth[1] = (uint8_t)(pad << 4);
	fg_put16(bth + 2, 0xFFFF);
	fg_put32(bth + 4, s->dqp & 0xFFFFFF);
	fg_put32(bth + 8, (ack ? 0 : 0x80000000U) | (s->psn & 0xFFFFFF));
	/* iCRC: IPv4 TOS, TTL, checksum, UDP checksum, BTH byte 4 as ones. */
	memcpy(m, ip, 40);
	m[1] = m[8] = m[10] = m[11] = 0xFF;
	m[26] = m[27] = 0xFF;
	m[32] = 0xFF;
	crc = fg_crc32(0, ones, 8);
	crc = fg_crc32(crc, m, 40);
	crc = fg_crc32(crc, bth + 12, p - (bth + 12));
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
	return end;
}

struct forger {
	int sock, ifindex;
	const char *ifname;
};

static int fg_send(struct forger *g, const struct fg_frame *s)
{
	uint8_t f[2048];
	struct sockaddr_ll to;
	size_t n = fg_build(f, s);

	memset(&to, 0, sizeof(to));
	to.sll_family = AF_PACKET;
	to.sll_ifindex = g->ifindex;
	to.sll_halen = 6;
	memcpy(to.sll_addr, s->dst_mac, 6);
	return sendto(g->sock, f, n, 0, (struct sockaddr *)&to, sizeof(to)) ==
	       (ssize_t)n ? 0 : -errno;
}

/* Counter @name of netdev @ifname from ethtool -S; -1 if none. */
static long long eth_stat(const char *ifname, const char *name)
{
	char cmd[128], line[256], key[96];
	long long v = -1, x;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ethtool -S %s 2>/dev/null", ifname);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " %95[^:]: %lld", key, &x) == 2 &&
		    !strcmp(key, name))
			v = x;
	pclose(p);
	return v;
}

/* Wait until @name of @ifname exceeds @before; its value. */
static long long eth_wait(const char *ifname, const char *name,
			  long long before)
{
	long long v = eth_stat(ifname, name);
	int t;

	for (t = 0; t < 40 && v <= before; t++) {
		usleep(25000);
		v = eth_stat(ifname, name);
	}
	return v;
}

/*
 * B's responder QP @qb for A's QP @qa (addresses IP_A -> IP_B), expecting
 * @psn, path MTU FG_MTU (SET_REQ of the same QP, the extension entry).
 */
static int fg_res(struct side *a, struct side *b, uint32_t qa, uint32_t qb,
		  uint32_t psn)
{
	struct ends eb = { IP_A, IP_B, qa, 1, psn, { 0 } };
	struct drm_gaudi_nic_req_ctx rq;

	memcpy(eb.dst_mac, a->mac, 6);
	memset(&rq, 0, sizeof(rq));
	rq.port = b->port;
	rq.conn_id = qb;
	rq.dst_ip = IP_A;
	rq.src_ip = IP_B;
	memcpy(rq.dst_mac, a->mac, 6);
	rq.dst_conn_id = qa;
	rq.psn = psn;
	rq.path_mtu = FG_MTU;
	return nic_raw(b->fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &rq, sizeof(rq),
		       NULL, 0) ||
	       set_res(b->fd, b->port, qb, &eb, 0);
}

static uint32_t res_psn(struct side *b, uint32_t qb, uint32_t *flags)
{
	struct drm_gaudi_nic_conn_state st;

	conn_state(b->fd, b->port, qb, &st);
	*flags = st.flags;
	return st.expected_psn;
}

/*
 * A forged request to B's QP @qb that B must refuse with a NAK remote
 * access: @s sent from A's side of the cable; B's region errors and NAKs
 * sent grow by one, @qb's responder goes to error, B's buffer is as it
 * was.  @qb connected again after.
 */
static void fg_refused(struct forger *ga, struct side *a, struct side *b,
		       const char *if_b, uint32_t qa, uint32_t qb,
		       const struct fg_frame *s, const char *what)
{
	long long re = eth_stat(if_b, "roce_region_errors");
	long long nk = eth_stat(if_b, "roce_naks_tx");
	uint8_t *before = malloc(BUF_SIZE);
	uint32_t flags = 0;
	bool err = false;
	int t;

	if (!before) {
		ok(0, "%s: memory", what);
		return;
	}
	memcpy(before, b->buf.p, BUF_SIZE);
	ok(!fg_send(ga, s), "%s: sent", what);
	for (t = 0; t < 40 && !err; t++) {
		usleep(25000);
		res_psn(b, qb, &flags);
		err = flags & GAUDI_NIC_CONN_RES_ERROR;
	}
	ok(err && eth_wait(if_b, "roce_region_errors", re) == re + 1 &&
	   eth_stat(if_b, "roce_naks_tx") == nk + 1,
	   "  NAK remote access (roce_region_errors +1, roce_naks_tx +1), B's QP %u in error (0x%x)",
	   qb, flags);
	ok(!memcmp(before, b->buf.p, BUF_SIZE),
	   "  B's buffer unchanged (its region and the canaries around it)");
	ok(!fg_res(a, b, qa, qb, s->psn), "  B's QP %u connected again", qb);
	free(before);
}

/*
 * Issue 22's remote peer as a raw sender: card A port PA and card B port
 * PB are the two ends of a cable, IF_A and IF_B their gaudi_en netdevs.
 * Frames to B go out of IF_A, frames to A out of IF_B.
 */
static void forge(char **argv)
{
	const char *if_a = argv[2], *if_b = argv[5];
	struct forger ga = { -1, 0, if_a }, gb = { -1, 0, if_b };
	struct drm_gaudi_nic_conn_state st;
	uint8_t data[FG_MTU * 3], *shadow, *zero;
	struct fg_frame s;
	struct side a, b;
	uint32_t qa, qa2, qb, qb2, qb3, qn, key2, key3, psn, flags, sob, i;
	struct drm_gaudi_nic_req_ctx rq;
	struct ends eb;
	uint64_t cqe;
	uint64_t rva, old_va;
	long long v0, v1;
	bool same;
	int rc;

	rc = side_open(&a, argv[0], argv[1], 0);
	ok(!rc, "card A (%s port 0): queues set, link up (%d)", argv[0], rc);
	rc = side_open(&b, argv[3], argv[4], 0);
	ok(!rc, "card B (%s port 0): queues set, link up (%d)", argv[3], rc);
	ga.sock = socket(AF_PACKET, SOCK_RAW, 0);
	gb.sock = socket(AF_PACKET, SOCK_RAW, 0);
	ga.ifindex = (int)if_nametoindex(if_a);
	gb.ifindex = (int)if_nametoindex(if_b);
	ok(ga.sock >= 0 && gb.sock >= 0 && ga.ifindex && gb.ifindex,
	   "AF_PACKET sockets on %s (A's end) and %s (B's end)", if_a, if_b);
	shadow = calloc(1, BUF_SIZE);
	zero = calloc(1, BUF_SIZE);
	if (tap_failed || !shadow || !zero)
		goto out;
	rc = alloc_conn(a.fd, a.port, &qa) || alloc_conn(b.fd, b.port, &qb) ||
	     alloc_conn(b.fd, b.port, &qb2) ||
	     qp_connect(&a, qa, &b, qb, 1, 1, 5) || fg_res(&a, &b, qa, qb2, 100) ||
	     reg_mr(b.fd, b.port, qb2, b.buf.va + 65536, 65536,
		    GAUDI_NIC_MR_REMOTE_WRITE, &key2);
	ok(!rc, "A's QP %u -> B's QP %u (B's whole buffer); B's QP %u: a region of 64 KiB at +64 KiB, path MTU %u",
	   qa, qb, qb2, FG_MTU);
	if (rc)
		goto out;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(0x5A + i);
	dbg_dir = b.dbg;
	sob = sob_rd(USER_SOB);
	still_writes(&a, &b, qa, qb, shadow, sob + 1, "before the forged frames");

	/*
	 * (1) NAKs from other sources for a live requester: A's QP @qa2 sends
	 * to B's QP @qb3 before B set it up, so that A retransmits (one NAK
	 * of the first PSN from B would put it in error); B sets it up, the
	 * write goes through.
	 */
	rc = alloc_conn(a.fd, a.port, &qa2) || alloc_conn(b.fd, b.port, &qb3) ||
	     qb3 >= NUM_WQS || reg_mr(b.fd, b.port, qb3, b.buf.va, BUF_SIZE,
				      GAUDI_NIC_MR_REMOTE_WRITE, &b.mr_key[qb3]);
	memset(&rq, 0, sizeof(rq));
	rq.port = a.port;
	rq.conn_id = qa2;
	rq.dst_ip = IP_B;
	rq.src_ip = IP_A;
	memcpy(rq.dst_mac, b.mac, 6);
	rq.dst_conn_id = qb3;
	rq.remote_key = b.mr_key[qb3];
	rq.psn = 50;
	rq.timeout_retry = 255;	/* 5 s of retransmissions */
	rc = rc || nic_raw(a.fd, GAUDI_NIC_OP_SET_REQ_CONN_CTX, &rq,
			   sizeof(rq), NULL, 0);
	memset(b.buf.p, 0, BUF_SIZE);
	memset(shadow, 0, BUF_SIZE);
	memcpy(shadow + 200000, a.buf.p, 1000);
	wqe_write(&a, qa2, a.buf.va, 1000, b.buf.va + 200000, -1, 0);
	rc = rc || doorbell(a.fd, a.port, qa2, a.pi[qa2]);
	ok(!rc, "A's QP %u writes to B's QP %u, not yet set up on B: A retransmits",
	   qa2, qb3);
	usleep(50000);
	memset(&s, 0, sizeof(s));
	memcpy(s.dst_mac, a.mac, 6);
	s.opcode = FG_OP_ACK;
	s.syndrome = FG_NAK_ACCESS;
	s.dqp = qa2;
	s.psn = 50;
	s.src_ip = 0x0A000063;	/* not B's */
	s.dst_ip = IP_A;
	v0 = eth_stat(if_a, "roce_drop_ack_source");
	ok(!fg_send(&gb, &s), "forged NAK (remote access) of PSN 50 for A's QP %u from 10.0.0.99 sent",
	   qa2);
	s.src_ip = IP_B;
	s.dst_ip = 0x0A000064;	/* not A's */
	ok(!fg_send(&gb, &s), "forged NAK from B's address to 10.0.0.100 sent");
	s.syndrome = FG_ACK;
	s.src_ip = 0x0A000063;
	s.dst_ip = IP_A;
	ok(!fg_send(&gb, &s), "forged ACK of PSN 50 from 10.0.0.99 sent (it would complete the write unwritten)");
	v1 = eth_wait(if_a, "roce_drop_ack_source", v0 + 2);
	ok(v0 >= 0 && v1 == v0 + 3, "  all three dropped: roce_drop_ack_source %lld -> %lld",
	   v0, v1);
	conn_state(a.fd, a.port, qa2, &st);
	ok(st.flags == GAUDI_NIC_CONN_REQ_VALID, "  A's QP %u not in error (0x%x)",
	   qa2, st.flags);
	eb.dst_ip = IP_A;
	eb.src_ip = IP_B;
	eb.dst_conn = qa2;
	eb.key = 1;
	eb.psn = 50;
	memcpy(eb.dst_mac, a.mac, 6);
	rc = set_res(b.fd, b.port, qb3, &eb, 0);
	cqe = 0;
	ok(!rc && cq_poll(&a, 1, &cqe, 10000) == 1 &&
	   ((cqe >> 32) & 0xFFFFFF) == qa2 && !memcmp(shadow, b.buf.p, BUF_SIZE),
	   "  B sets its QP up: A's retransmission is written, its CQE (0x%llx)",
	   (unsigned long long)cqe);
	conn_state(a.fd, a.port, qa2, &st);
	ok(st.flags == GAUDI_NIC_CONN_REQ_VALID, "  A's QP %u valid, no error (0x%x)",
	   qa2, st.flags);
	still_writes(&a, &b, qa, qb, shadow, sob + 2, "after the forged NAKs");

	/* The forger's frames are good when they are right: B takes them. */
	memset(&s, 0, sizeof(s));
	memcpy(s.dst_mac, b.mac, 6);
	s.src_ip = IP_A;
	s.dst_ip = IP_B;
	s.dqp = qb2;
	rva = b.buf.va + 65536;
	memset(b.buf.p, 0, BUF_SIZE);
	memset(shadow, 0, BUF_SIZE);
	s.opcode = FG_OP_FIRST;
	s.psn = 100;
	s.va = rva;
	s.rkey = key2;
	s.dlen = 2 * FG_MTU;
	s.payload = data;
	s.len = FG_MTU;
	rc = fg_send(&ga, &s);
	s.opcode = FG_OP_LAST;
	s.psn = 101;
	s.payload = data + FG_MTU;
	rc |= fg_send(&ga, &s);
	memcpy(shadow + 65536, data, 2 * FG_MTU);
	for (i = 0; i < 40 && res_psn(&b, qb2, &flags) != 102; i++)
		usleep(25000);
	ok(!rc && res_psn(&b, qb2, &flags) == 102 &&
	   (flags & (GAUDI_NIC_CONN_RES_VALID | GAUDI_NIC_CONN_RES_ERROR)) ==
	   GAUDI_NIC_CONN_RES_VALID &&
	   !memcmp(shadow, b.buf.p, BUF_SIZE),
	   "forged WRITE FIRST + LAST in B's region with its key: %u bytes written, PSN 102 (0x%x)",
	   2 * FG_MTU, flags);

	/* (3) WRITE FIRST, right QPN and PSN, key or address not the region's. */
	s.opcode = FG_OP_FIRST;
	s.psn = 102;
	s.payload = data;
	s.va = rva - 4096;
	fg_refused(&ga, &a, &b, if_b, qa, qb2, &s,
		   "forged WRITE FIRST below B's region (its key)");
	s.va = rva + 65536 - FG_MTU;
	fg_refused(&ga, &a, &b, if_b, qa, qb2, &s,
		   "forged WRITE FIRST across the end of B's region (its key)");
	s.va = rva;
	s.rkey = key2 ^ 0xFFFFFC00U;
	fg_refused(&ga, &a, &b, if_b, qa, qb2, &s,
		   "forged WRITE FIRST with a guessed key (the region's slot)");
	s.rkey = b.mr_key[qb];
	s.va = b.buf.va;
	fg_refused(&ga, &a, &b, if_b, qa, qb2, &s,
		   "forged WRITE FIRST with the key of another QP's region");

	/* (4) a frame for another station. */
	memcpy(shadow, b.buf.p, BUF_SIZE);
	s.opcode = FG_OP_ONLY;
	s.va = rva;
	s.rkey = key2;
	s.dlen = FG_MTU;
	s.psn = 102;
	s.dst_mac[5] ^= 1;
	v0 = eth_stat(if_b, "roce_drop_mac");
	ok(!fg_send(&ga, &s), "forged WRITE ONLY for another MAC address sent");
	v1 = eth_wait(if_b, "roce_drop_mac", v0);
	ok(v0 >= 0 && v1 == v0 + 1 && res_psn(&b, qb2, &flags) == 102 &&
	   !memcmp(shadow, b.buf.p, BUF_SIZE),
	   "  dropped: roce_drop_mac %lld -> %lld, B's PSN still 102, buffer unchanged",
	   v0, v1);
	s.dst_mac[5] ^= 1;
	rc = fg_send(&ga, &s);
	memcpy(shadow + 65536, data, FG_MTU);
	for (i = 0; i < 40 && res_psn(&b, qb2, &flags) != 103; i++)
		usleep(25000);
	ok(!rc && !memcmp(shadow, b.buf.p, BUF_SIZE),
	   "  the same frame to B's MAC address is written (PSN %u)",
	   res_psn(&b, qb2, &flags));

	/*
	 * (2) A message begun for one holder, continued after it closed and
	 * the next holder got the same QP number with a buffer at the same
	 * address: nothing of it lands.
	 */
	s.opcode = FG_OP_FIRST;
	s.psn = 103;
	s.dlen = 3 * FG_MTU;
	s.len = FG_MTU;
	s.payload = data;
	memcpy(shadow + 65536, data, FG_MTU);
	rc = fg_send(&ga, &s);
	for (i = 0; i < 40 && res_psn(&b, qb2, &flags) != 104; i++)
		usleep(25000);
	ok(!rc && res_psn(&b, qb2, &flags) == 104 &&
	   !memcmp(shadow, b.buf.p, BUF_SIZE),
	   "forged WRITE FIRST of a 3-packet message to B's QP %u: its first packet written",
	   qb2);
	old_va = b.buf.va;
	close(b.fd);
	rc = side_open(&b, argv[3], argv[4], 0);
	rc = rc || alloc_conn(b.fd, b.port, &qn) || alloc_conn(b.fd, b.port, &qn);
	ok(!rc && qn == qb2 && b.buf.va == old_va,
	   "B closed; the next holder has QP %u again (%u) and its buffer at the same address (0x%llx, was 0x%llx)",
	   qb2, qn, (unsigned long long)b.buf.va,
	   (unsigned long long)old_va);
	rc = fg_res(&a, &b, qa, qn, 104) ||
	     reg_mr(b.fd, b.port, qn, b.buf.va + 65536, 65536,
		    GAUDI_NIC_MR_REMOTE_WRITE, &key3);
	ok(!rc, "  its QP %u expects PSN 104, its region at the same address", qn);
	s.opcode = FG_OP_MIDDLE;
	s.psn = 104;
	s.payload = data + FG_MTU;
	rc = fg_send(&ga, &s);
	s.opcode = FG_OP_LAST;
	s.psn = 105;
	s.payload = data + 2 * FG_MTU;
	rc |= fg_send(&ga, &s);
	usleep(200000);
	same = !memcmp(zero, b.buf.p, BUF_SIZE);
	psn = res_psn(&b, qn, &flags);
	ok(!rc && same && (flags & GAUDI_NIC_CONN_RES_ERROR),
	   "  the old message's MIDDLE and LAST: nothing in the new holder's buffer, NAKed (its QP in error: 0x%x, PSN %u)",
	   flags, psn);
	psn = 110;
	rc = fg_res(&a, &b, qa, qn, psn);
	s.opcode = FG_OP_ONLY;
	s.psn = psn;
	s.rkey = key3;
	s.dlen = FG_MTU;
	s.payload = data;
	rc |= fg_send(&ga, &s);
	memset(shadow, 0, BUF_SIZE);
	memcpy(shadow + 65536, data, FG_MTU);
	for (i = 0; i < 40 && res_psn(&b, qn, &flags) != psn + 1; i++)
		usleep(25000);
	ok(!rc && !memcmp(shadow, b.buf.p, BUF_SIZE),
	   "  the new holder's own messages land (a WRITE ONLY with its key)");
out:
	free(shadow);
	free(zero);
	if (ga.sock >= 0)
		close(ga.sock);
	if (gb.sock >= 0)
		close(gb.sock);
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "neg")) {
		dbg_dir = argv[4];
		neg(argv[2], argv[3]);
	} else if (argc >= 4 && !strcmp(argv[1], "teardown")) {
		dbg_dir = argv[3];
		teardown(argv[2]);
	} else if (argc >= 8 && !strcmp(argv[1], "rdma")) {
		rdma(argv + 2);
	} else if (argc >= 3 && !strcmp(argv[1], "stale-set")) {
		/* QP 700 of port 4 made valid behind the driver's back. */
		dbg_dir = argv[2];
		qpc_force_valid(4, 700);
		ok(qpc_valid(4, 700, true) && qpc_valid(4, 700, false),
		   "QP 700 of port 4: both contexts made valid by hand");
	} else if (argc >= 3 && !strcmp(argv[1], "stale-check")) {
		dbg_dir = argv[2];
		ok(!qpc_valid(4, 700, true) && !qpc_valid(4, 700, false),
		   "after a reload of the driver QP 700 of port 4 is invalid (the tables are cleared at bring-up)");
	} else if (argc >= 4 && !strcmp(argv[1], "remove")) {
		dbg_dir = argv[3];
		remove_test(argv[2]);
	} else if (argc >= 8 && !strcmp(argv[1], "forge")) {
		forge(argv + 2);
	} else if (argc >= 5 && !strcmp(argv[1], "fuzz")) {
		fuzz(argv[2], atoi(argv[3]), atoi(argv[4]));
	} else {
		fprintf(stderr, "usage: see the head of %s\n", __FILE__);
		return 2;
	}
	return tap_done();
}
