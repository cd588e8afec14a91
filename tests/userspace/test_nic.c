// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgaudi's NIC API on the fake driver: address text and exchange, the
 * DL1 map, port and QP set-up, the WQEs an RDMA WRITE becomes (split,
 * addresses, size, the sync object on the last one), completions routed to
 * their QP, a full send queue, a QP in error.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <drm/gaudi_accel.h>

#include "fake.h"
#include "gaudi1/nic.h"
#include "tap.h"

static void test_addr(void)
{
	struct gaudi_nic_addr a = {
		.mac = { 0x02, 0x47, 0x12, 0x34, 0x01, 0x05 }, .port = 5,
		.ip = 0x0A010501, .qpn = 17, .rkey = 0xDEADBEEF, .psn = 0xABCDEF,
	}, b;
	static const char *const bad[] = {
		"", "mac=02:47:12:34:01 port=5",
		"mac=02:47:12:34:01:05 port=10 ip=1.2.3.4 qpn=1 rkey=0x1 psn=1",
		"mac=02:47:12:34:01:05 port=1 ip=1.2.3.400 qpn=1 rkey=0x1 psn=1",
		"mac=02:47:12:34:01:05 port=1 ip=1.2.3.4 qpn=16777216 rkey=0x1 psn=1",
		"mac=02:47:12:34:01:05 port=1 ip=1.2.3.4 qpn=1 rkey=0x1 psn=16777216",
		"mac=02:47:12:34:01:05 port=1 ip=1.2.3.4 qpn=1 rkey=0x1 psn=1 x",
	};
	char buf[128];
	unsigned int i;
	int n;

	n = gaudi_nic_addr_format(&a, buf, sizeof(buf));
	ok(n > 0 && !strcmp(buf, "mac=02:47:12:34:01:05 port=5 ip=10.1.5.1 qpn=17 rkey=0xdeadbeef psn=11259375"),
	   "format: %s", buf);
	ok(gaudi_nic_addr_parse(buf, &b) == 0 && !memcmp(&a, &b, sizeof(a)),
	   "parse gives the address back");
	strcat(buf, "\n");
	ok(gaudi_nic_addr_parse(buf, &b) == 0, "a trailing newline is fine");
	ok(gaudi_nic_addr_parse("mac=02:47:12:34:01:05 port=1 ip=1.2.3.4 qpn=16777215 rkey=0x1 psn=1",
				&b) == 0 && b.qpn == 0xFFFFFF,
	   "a peer's 24-bit QP number (16777215) parses");
	ok_eq(gaudi_nic_addr_format(&a, buf, 20), -ENOSPC, "short buffer");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok_eq(gaudi_nic_addr_parse(bad[i], &b), -EINVAL,
		      "parse refuses \"%s\"", bad[i]);
}

struct peer {
	int fd;
	struct gaudi_nic_addr mine, theirs;
	int ret;
};

static void *peer_run(void *arg)
{
	struct peer *p = arg;

	p->ret = gaudi_nic_exchange(p->fd, &p->mine, &p->theirs);
	return NULL;
}

static void test_exchange(void)
{
	struct peer a = { .mine = { .qpn = 1, .psn = 7, .rkey = 3 } };
	struct peer b = { .mine = { .qpn = 2, .psn = 9, .rkey = 5, .port = 3 } };
	struct gaudi_nic_addr x;
	pthread_t t;
	int sv[2];

	if (!ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair"))
		return;
	a.fd = sv[0];
	b.fd = sv[1];
	pthread_create(&t, NULL, peer_run, &b);
	peer_run(&a);
	pthread_join(t, NULL);
	ok(a.ret == 0 && b.ret == 0 && !memcmp(&a.theirs, &b.mine, sizeof(x)) &&
	   !memcmp(&b.theirs, &a.mine, sizeof(x)),
	   "exchange over a socket pair: each end gets the other's address");
	if (write(sv[1], "garbage\n", 8) == 8)
		ok_eq(gaudi_nic_exchange(sv[0], &a.mine, &x), -EPROTO,
		      "a line that does not parse: -EPROTO");
	close(sv[1]);
	ok_eq(gaudi_nic_exchange(sv[0], &a.mine, &x), -EPIPE,
	      "the peer closed: -EPIPE");
	close(sv[0]);
}

static void test_dl1(void)
{
	int m, j, bad = 0;

	/* Port p of m leads to j = p < m ? p : p + 1 (the board map). */
	for (m = 0; m < 8; m++)
		for (j = 0; j < 8; j++) {
			int p = gaudi_nic_dl1_port(m, j);

			if (m == j ? p != -EINVAL :
			    p < 0 || p > 6 || (p < m ? p : p + 1) != j)
				bad++;
		}
	ok(!bad, "DL1 map: each pair of the 8 modules by one of ports 0..6 (%d wrong)",
	   bad);
	ok_eq(gaudi_nic_dl1_port(8, 0), -EINVAL, "module 8: -EINVAL");
}

static uint32_t le32(const uint32_t *w, int i)
{
	return w[i];	/* the fake runs on little-endian hosts */
}

static void test_qp(void)
{
	struct gaudi_nic_addr r = {
		.mac = { 2, 0, 0, 0, 1, 1 }, .port = 1, .ip = 0x0A000101,
		.qpn = 5, .rkey = 0x1234, .psn = 100,
	};
	struct gaudi_nic_port *p = NULL;
	struct gaudi_dev *dev = NULL;
	struct gaudi_qp *qp = NULL, *qp2 = NULL;
	uint32_t ports = 0, ext = 0, up = 0;
	struct fake f;
	int w, i;

	fake_init(&f);
	fake_add_cards(&f, 1, "gaudi");
	if (!ok(gaudi__open_sys(&f.sys, 0, 0, &dev) == 0, "open"))
		return;
	ok(gaudi_nic_link(dev, &ports, &ext, &up) == 0 && ports == 0x3FF &&
	   ext == 0x380 && up == 0x7F, "link: ports, scale-out, up");
	ok_eq(gaudi_nic_port_open(dev, 1, 2, 6, 64, &p), -EINVAL,
	      "6 WQEs (not a power of 2): -EINVAL");
	ok_eq(gaudi_nic_port_open(dev, 10, 2, 8, 64, &p), -EINVAL,
	      "port 10: -EINVAL");
	if (!ok(gaudi_nic_port_open(dev, 1, 2, 8, 64, &p) == 0,
		"port 1 open: 2 QPs, 8 WQEs each, 64 CQEs"))
		goto out;
	ok(f.nic.num_wqs == 4 && f.nic.entries == 8 && f.nic.cq_entries == 64 &&
	   f.nic.wq_va && f.nic.cq_va,
	   "WQ_SET with QPs 0..3 (0 is the Ethernet driver's, 1 unused), CQ_SET");
	ok(gaudi_qp_create(p, &qp) == 0 && gaudi_qp_number(qp) == 2,
	   "QP 2");
	{
		struct gaudi_nic_addr me;

		ok(gaudi_qp_addr(qp, &me) == 0 && me.mac[0] == 2 &&
		   me.mac[5] == 1 && me.port == 1 && me.qpn == 2 &&
		   me.psn <= 0xFFFFFF && (me.ip & 0xFF00FFFF) == 0x0A000101,
		   "its address: port 1's MAC from LINK_STATE, QP 2, 10.<bus>.1.1");
	}
	ok_eq(gaudi_qp_write(qp, 0x1000, 0x2000, 64, 0, 0), -EINVAL,
	      "write before connect: -EINVAL");
	{
		struct gaudi_nic_addr me;
		uint32_t key = 0, k2 = 0;
		uint64_t va = f.nic.cq_va;

		ok_eq(gaudi_qp_reg_mr(qp, 0x1000, 64, &key), -EINVAL,
		      "a region outside every mapping: the driver's -EINVAL");
		ok(gaudi_qp_reg_mr(qp, va, 64, &key) == 0 &&
		   key == 0x5A5A0001U && gaudi_qp_addr(qp, &me) == 0 &&
		   me.rkey == key,
		   "a region: its key is the QP address's rkey");
		ok(gaudi_qp_reg_mr(qp, va, 8, &k2) == 0 && k2 == 0x5A5A0002U &&
		   gaudi_qp_addr(qp, &me) == 0 && me.rkey == key,
		   "a second region: the address keeps the first key");
		ok(gaudi_qp_dereg_mr(qp, k2) == 0 && f.nic.mrs == 1,
		   "dereg of the second");
		ok_eq(gaudi_qp_dereg_mr(qp, k2), -ENOENT,
		      "dereg of it again: -ENOENT");
		ok_eq(gaudi_qp_reg_mr(qp, va, 0, NULL), -EINVAL,
		      "a region of 0 bytes: -EINVAL");
		ok(gaudi_qp_set_path_mtu(qp, 1024) == 0 &&
		   gaudi_qp_set_path_mtu(qp, 1000) == -EINVAL &&
		   gaudi_qp_set_path_mtu(qp, 8192) == -EINVAL &&
		   gaudi_qp_set_path_mtu(qp, 128) == -EINVAL,
		   "path MTU 1024 taken; 1000, 8192, 128: -EINVAL");
		ok(gaudi_qp_set_rnr_retry(qp, 8) == -EINVAL &&
		   gaudi_qp_set_rnr_retry(qp, 3) == 0,
		   "RNR retry 8: -EINVAL, 3 taken");
	}
	ok(gaudi_qp_connect(qp, &r) == 0 && f.nic.req_path_mtu == 1024 &&
	   f.nic.req_flags == GAUDI_NIC_REQ_RNR_RETRY && f.nic.req_rnr == 3,
	   "connect (with path MTU 1024, RNR retry 3)");
	w = gaudi_qp_write(qp, 0x10000000ULL, 0x3000000000ULL + 4, 40000,
			   0x4E2004, 0x80000001);
	ok(w == 2 && f.nic.nlog == 3,
	   "40000 bytes: three WQEs (last index %d, %u sent)", w, f.nic.nlog);
	if (f.nic.nlog == 3) {
		uint32_t *a = f.nic.log[0], *c = f.nic.log[2];

		ok(le32(a, 0) >> 28 == WQE_LINEAR && le32(a, 1) == 0x10000000 &&
		   (le32(a, 2) & 0x3FFFF) == 0 && le32(a, 2) >> 18 == 16380 &&
		   le32(a, 3) == 4 && le32(a, 4) == 0x30 && !le32(a, 5),
		   "first WQE: LINEAR, local, remote 0x30_00000004, 16380 bytes, no sync");
		ok(le32(c, 1) == 0x10000000 + 32760 && le32(c, 2) >> 18 == 7240 &&
		   le32(c, 3) == 4 + 32760 &&
		   le32(c, 5) == (NIC_WQE_SYNC_VALID | 0x4E2004) &&
		   le32(c, 6) == 0x80000001,
		   "last WQE: the rest (7240 bytes) and the remote SOB with its value");
	}
	ok_eq(gaudi_qp_wait(qp, w, 100), 0, "acknowledged: wait returns 0");

	/* Posted now, rung later: from the host or from the NIC queue. */
	{
		struct gaudi_cmdbuf *cb = NULL;
		uint8_t small[24];
		const uint32_t *k;
		unsigned int n0 = f.nic.nlog;

		w = gaudi_qp_post(qp, 0x10000000ULL, 0x3000000000ULL, 100,
				  0x4E2008, 0x80000001);
		ok(w == 3 && f.nic.nlog == n0, "post: WQE 3 written, nothing sent (%d)",
		   w);
		ok(gaudi_qp_nic_queue(qp, 2) == 73 + 4 * 1 + 2 &&
		   gaudi_qp_nic_queue(qp, 4) == -EINVAL,
		   "its NIC queue: port 1 stream 2 is 79; stream 4 -EINVAL");
		ok(gaudi_cmdbuf_new(64, 64, &cb) == 0 &&
		   gaudi_pkt_qp_doorbell(cb, qp) == 0 &&
		   gaudi_cmdbuf_len(cb) == 32, "doorbell packets: 32 bytes");
		k = gaudi_cmdbuf_data(cb);
		ok(k && le32(k, 0) == 4 && le32(k, 1) >> 24 == (0x3 | 0x80) &&
		   ((uint64_t)le32(k, 3) << 32 | le32(k, 2)) ==
		   GAUDI_CFG_BASE + GAUDI_NIC_QPC_REG(1, NIC_QPC_UNSECURED_DOORBELL_PI) &&
		   le32(k, 4) == (QPC_DOORBELL_BUSY | 2) &&
		   ((uint64_t)le32(k, 7) << 32 | le32(k, 6)) ==
		   GAUDI_CFG_BASE + GAUDI_NIC_QPC_REG(1, NIC_QPC_UNSECURED_DOORBELL_QPN),
		   "  MSG_LONG PI 4 to port 1's unsecured doorbell, then BUSY | QP 2");
		gaudi_cmdbuf_free(cb);
		cb = NULL;
		ok(gaudi_cmdbuf_wrap(small, sizeof(small), &cb) == 0 &&
		   gaudi_pkt_qp_doorbell(cb, qp) == -ENOSPC &&
		   gaudi_cmdbuf_len(cb) == 0, "  24 bytes of room: -ENOSPC, nothing appended");
		gaudi_cmdbuf_free(cb);
		ok(gaudi_qp_doorbell(qp) == 0 && f.nic.nlog == n0 + 1 &&
		   gaudi_qp_wait(qp, w, 100) == 0,
		   "from the host: gaudi_qp_doorbell sends it, acknowledged");
		ok(gaudi_qp_post(NULL, 0, 0, 1, 0, 0) == -EINVAL &&
		   gaudi_qp_doorbell(NULL) == -EINVAL &&
		   gaudi_pkt_qp_doorbell(NULL, qp) == -EINVAL,
		   "NULL arguments: -EINVAL");
	}
	ok(gaudi_qp_create(p, &qp2) == 0 && gaudi_qp_number(qp2) == 3 &&
	   gaudi_qp_connect(qp2, &r) == 0, "QP 3");
	{
		struct gaudi_nic_addr big = r;

		big.qpn = 0xABCDEF;
		ok(gaudi_qp_connect(qp2, &big) == 0 &&
		   f.nic.req_dst_qpn == 0xABCDEF,
		   "a peer QP number above this card's 1024 (0xABCDEF) connects");
		big.qpn = 0x1000000;
		ok_eq(gaudi_qp_connect(qp2, &big), -EINVAL,
		      "a peer QP number beyond 24 bits: -EINVAL");
	}
	ok_eq(gaudi_qp_create(p, &(struct gaudi_qp *){ NULL }), -ENOSPC,
	      "a third QP on a port opened for two: -ENOSPC");
	f.nic.hold = true;
	w = gaudi_qp_write(qp2, 0x10000000ULL, 0x3000000000ULL, 100, 0, 0);
	ok_eq(gaudi_qp_wait(qp2, w, 20), -ETIMEDOUT,
	      "not acknowledged: wait times out");
	for (i = 0; i < 6; i++)
		gaudi_qp_write(qp2, 0x10000000ULL, 0x3000000000ULL, 100, 0, 0);
	ok_eq(gaudi_qp_write(qp2, 0x10000000ULL, 0x3000000000ULL, 100, 0, 0),
	      -EAGAIN, "7 WQEs in flight in a queue of 8: -EAGAIN");
	ok_eq(gaudi_qp_write(qp, 0, 0, 9 * 16380ULL, 0, 0), -EINVAL,
	      "a write that needs more WQEs than the queue has: -EINVAL");
	f.nic.hold = false;
	f.nic.err = true;
	ok_eq(gaudi_qp_wait(qp2, w, 20), -EIO, "QP in error: wait -EIO");
	ok_eq(gaudi_qp_error(qp2), 1, "gaudi_qp_error: 1");
	f.nic.err = false;
	ok(gaudi_qp_destroy(qp2) == 0 && gaudi_qp_destroy(qp) == 0 &&
	   gaudi_nic_port_close(p) == 0, "destroy, close");
	/* A driver before ABI 1.6: no regions, the one path MTU 4096. */
	gaudi_close(dev);
	dev = NULL;
	f.nic.no_mr = true;
	f.nic.next_conn = 0;
	qp = NULL;
	if (gaudi__open_sys(&f.sys, 0, 0, &dev) == 0 &&
	    gaudi_nic_port_open(dev, 1, 2, 8, 64, &p) == 0) {
		ok(gaudi_qp_create(p, &qp) == 0 &&
		   gaudi_qp_reg_mr(qp, f.nic.cq_va, 8, NULL) == -EOPNOTSUPP &&
		   gaudi_qp_dereg_mr(qp, 1) == -EOPNOTSUPP &&
		   gaudi_qp_set_path_mtu(qp, 1024) == -EOPNOTSUPP &&
		   gaudi_qp_set_path_mtu(qp, 4096) == 0 &&
		   gaudi_qp_set_rnr_retry(qp, 2) == -EOPNOTSUPP &&
		   gaudi_qp_set_rnr_retry(qp, 7) == 0 &&
		   gaudi_qp_connect(qp, &r) == 0 && !f.nic.req_path_mtu &&
		   !f.nic.req_flags,
		   "an older driver: regions and MTUs -EOPNOTSUPP, 4096 fine, connect as before");
		gaudi_qp_destroy(qp);
		gaudi_nic_port_close(p);
	} else {
		ok(0, "open with an older driver");
	}
out:
	gaudi_close(dev);
	fake_fini(&f);
}

int main(void)
{
	test_addr();
	test_exchange();
	test_dl1();
	test_qp();
	return tap_done();
}
