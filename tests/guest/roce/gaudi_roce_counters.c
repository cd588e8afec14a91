// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-port RoCE counters (issue 13) through the holder's NIC ioctl,
 * with libgaudi's NIC API: modules 0 and 1 (cards 0 and 1 of gaudi-vm),
 * linked on their DL1 port (port 0 each).  One process holds both cards.
 *
 *   gaudi_roce_counters traffic   16 RDMA WRITEs of 12 KiB, module 0 ->
 *                                 module 1, each acknowledged
 *   gaudi_roce_counters badkey    one RDMA WRITE with a wrong remote key:
 *                                 the QP goes into error on both ends
 *
 * Before and after, COUNTERS (DRM_IOCTL_GAUDI_NIC) of both ports: packets
 * sent and received move, QP errors do not (traffic), or the QP errors
 * grow by exactly one per end (badkey); without resends (no loss
 * injected) every packet sent was received; an output of the
 * ABI 1.3 size (96 bytes) gets the MAC part only.  Prints the ports as
 * "# ports: BDF0 PORT0 BDF1 PORT1" for the suite, which checks ethtool
 * and gaudi-smi against the same run (tests/guest/roce/counters.sh).
 * TAP, "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <drm/gaudi_accel.h>
#include <gaudi/gaudi.h>

#include "tap.h"

#define WRITES		16
#define WRITE_SIZE	(12 * 1024)
#define BUF_SIZE	(WRITES * WRITE_SIZE)
#define WAIT_MS		20000

struct end {
	struct gaudi_dev *dev;
	int port;
	struct gaudi_nic_port *np;
	struct gaudi_qp *qp;
	void *buf;
	struct gaudi_mapping *map;
};

static int counters(struct end *e, struct drm_gaudi_nic_counters *c,
		    uint32_t size)
{
	struct drm_gaudi_nic_port in = { .port = (uint32_t)e->port };
	struct drm_gaudi_nic a;

	memset(&a, 0, sizeof(a));
	a.op = GAUDI_NIC_OP_COUNTERS;
	a.input_ptr = (uintptr_t)&in;
	a.input_size = sizeof(in);
	a.output_ptr = (uintptr_t)c;
	a.output_size = size;
	return ioctl(gaudi_fd(e->dev), DRM_IOCTL_GAUDI_NIC, &a) ? -errno : 0;
}

static int setup(struct end *e, unsigned int module, unsigned int peer)
{
	int ret = gaudi_open_module(module, 0, &e->dev);

	if (ret)
		return ret;
	e->port = gaudi_nic_dl1_port((int)module, (int)peer);
	if (e->port < 0)
		return e->port;
	ret = gaudi_nic_port_open(e->dev, (unsigned int)e->port, 1, 64, 64,
				  &e->np);
	if (!ret)
		ret = gaudi_qp_create(e->np, &e->qp);
	if (ret)
		return ret;
	if (posix_memalign(&e->buf, 4096, BUF_SIZE))
		return -ENOMEM;
	memset(e->buf, (int)module + 1, BUF_SIZE);
	return gaudi_map_host(e->dev, e->buf, BUF_SIZE, &e->map);
}

static void teardown(struct end *e)
{
	gaudi_qp_destroy(e->qp);
	gaudi_nic_port_close(e->np);
	if (e->map)
		gaudi_unmap(e->map);
	gaudi_close(e->dev);
	free(e->buf);
}

int main(int argc, char **argv)
{
	struct drm_gaudi_nic_counters c0[2], c1[2], v1;
	struct gaudi_nic_addr aa, ba;
	struct end a = { 0 }, b = { 0 };
	bool bad, lossless;
	int ret, i, wqe = -1;

	if (argc != 2 || (strcmp(argv[1], "traffic") &&
			  strcmp(argv[1], "badkey"))) {
		fprintf(stderr, "usage: gaudi_roce_counters traffic|badkey\n");
		return 2;
	}
	bad = !strcmp(argv[1], "badkey");
	ret = setup(&a, 0, 1);
	if (!ret)
		ret = setup(&b, 1, 0);
	if (!ret)
		ret = gaudi_qp_reg_mr(a.qp, gaudi_mapping_va(a.map), BUF_SIZE,
				      NULL);
	if (!ret)
		ret = gaudi_qp_reg_mr(b.qp, gaudi_mapping_va(b.map), BUF_SIZE,
				      NULL);
	if (!ret)
		ret = gaudi_qp_addr(a.qp, &aa);
	if (!ret)
		ret = gaudi_qp_addr(b.qp, &ba);
	if (!ret) {
		if (bad)
			ba.rkey ^= 0x10;	/* card 1 expects another key */
		ret = gaudi_qp_connect(a.qp, &ba);
	}
	if (!ret)
		ret = gaudi_qp_connect(b.qp, &aa);
	ok(!ret, "modules 0 and 1 held, QPs connected on ports %d and %d (%s)",
	   a.port, b.port, gaudi_strerror(ret));
	if (ret)
		return tap_done();
	tap_diag("ports: %s %d %s %d", gaudi_pci_bus_id(a.dev), a.port,
		 gaudi_pci_bus_id(b.dev), b.port);

	memset(c0, 0, sizeof(c0));
	memset(c1, 0, sizeof(c1));
	ret = counters(&a, &c0[0], sizeof(c0[0]));
	if (!ret)
		ret = counters(&b, &c1[0], sizeof(c1[0]));
	ok(!ret && (c0[0].roce_flags & GAUDI_NIC_COUNTERS_ROCE) &&
	   (c1[0].roce_flags & GAUDI_NIC_COUNTERS_ROCE) && !c0[0].roce_pad &&
	   !c0[0].roce_reserved[0] && !c0[0].roce_reserved[3],
	   "COUNTERS of both ports: the RoCE part is there (%s)",
	   gaudi_strerror(ret));
	memset(&v1, 0xAA, sizeof(v1));
	ret = counters(&a, &v1, GAUDI_NIC_COUNTERS_SIZE_V1);
	ok(!ret && v1.roce_flags == 0xAAAAAAAAU &&
	   v1.roce_tx_pkts == 0xAAAAAAAAAAAAAAAAULL && !v1.reserved[0],
	   "COUNTERS with the ABI 1.3 size (96): the MAC part only (%s)",
	   gaudi_strerror(ret));
	ok(counters(&a, &v1, GAUDI_NIC_COUNTERS_SIZE_V1 - 8) == -EINVAL,
	   "COUNTERS with 88 bytes: EINVAL");

	for (i = 0; i < (bad ? 1 : WRITES); i++) {
		uint64_t off = (uint64_t)i * WRITE_SIZE;

		wqe = gaudi_qp_write(a.qp, gaudi_mapping_va(a.map) + off,
				     gaudi_mapping_va(b.map) + off, WRITE_SIZE,
				     0, 0);
		if (wqe < 0)
			break;
		ret = gaudi_qp_wait(a.qp, wqe, WAIT_MS);
		if (ret)
			break;
	}
	if (bad) {
		ok(wqe >= 0 && ret == -EIO && gaudi_qp_error(a.qp) == 1,
		   "a write with a wrong remote key: the QP in error (%s)",
		   gaudi_strerror(wqe < 0 ? wqe : ret));
	} else {
		ok(wqe >= 0 && !ret &&
		   !memcmp(a.buf, b.buf, BUF_SIZE),
		   "%d writes of %d bytes acknowledged, bytes landed (%s)",
		   WRITES, WRITE_SIZE, gaudi_strerror(wqe < 0 ? wqe : ret));
	}

	ret = counters(&a, &c0[1], sizeof(c0[1]));
	if (!ret)
		ret = counters(&b, &c1[1], sizeof(c1[1]));
	ok(!ret, "COUNTERS after (%s)", gaudi_strerror(ret));
#define D(c, f) ((unsigned long long)((c)[1].f - (c)[0].f))
	tap_diag("module 0 port %d: tx %llu rx %llu rtx %llu naks rx %llu req err %llu res err %llu",
		 a.port, D(c0, roce_tx_pkts), D(c0, roce_rx_pkts),
		 D(c0, roce_retransmits), D(c0, roce_naks_rx),
		 D(c0, roce_req_qp_errors), D(c0, roce_res_qp_errors));
	tap_diag("module 1 port %d: tx %llu rx %llu acks %llu naks %llu req err %llu res err %llu",
		 b.port, D(c1, roce_tx_pkts), D(c1, roce_rx_pkts),
		 D(c1, roce_acks_tx), D(c1, roce_naks_tx),
		 D(c1, roce_req_qp_errors), D(c1, roce_res_qp_errors));
	/*
	 * Loss may be injected (make check's roce-lossy): then packets are
	 * resent, and some never arrive.  Whether it was, and the exact
	 * counts without it, the suite judges with ethtool's roce_injected.
	 */
	lossless = !D(c0, roce_retransmits) && !D(c1, roce_icrc_errors) &&
		   !D(c0, roce_icrc_errors) && !D(c1, roce_duplicates);
	if (!bad) {
		ok(D(c0, roce_tx_pkts) == WRITES * 3 &&
		   D(c1, roce_rx_pkts) >= 1 && D(c1, roce_acks_tx) >= WRITES &&
		   D(c0, roce_acks_rx) >= 1 &&
		   D(c0, roce_acks_rx) <= D(c1, roce_acks_tx),
		   "requests sent %llu (3 per 12 KiB write, resends apart), received %llu; ACKs sent %llu, received %llu",
		   D(c0, roce_tx_pkts), D(c1, roce_rx_pkts),
		   D(c1, roce_acks_tx), D(c0, roce_acks_rx));
		ok(!lossless || (D(c1, roce_rx_pkts) == D(c0, roce_tx_pkts) &&
				 D(c0, roce_acks_rx) == D(c1, roce_acks_tx) &&
				 !D(c0, roce_naks_rx) && !D(c1, roce_naks_tx)),
		   "without resends: every request and ACK arrived, no NAK");
		ok(!D(c0, roce_req_qp_errors) && !D(c1, roce_res_qp_errors) &&
		   !D(c0, roce_res_qp_errors) && !D(c1, roce_req_qp_errors),
		   "no QP error");
		ok(D(c0, tx_frames) >= D(c0, roce_tx_pkts) &&
		   D(c1, rx_frames) >= D(c1, roce_rx_pkts),
		   "the MAC counters saw at least the RoCE frames");
	} else {
		ok(D(c0, roce_req_qp_errors) == 1 &&
		   D(c1, roce_res_qp_errors) == 1 &&
		   !D(c0, roce_res_qp_errors) && !D(c1, roce_req_qp_errors),
		   "bad key: one requester QP error on module 0, one responder QP error on module 1");
		ok(D(c0, roce_naks_rx) >= 1 &&
		   D(c0, roce_naks_rx) <= D(c1, roce_naks_tx) &&
		   (!lossless || D(c0, roce_naks_rx) == D(c1, roce_naks_tx)),
		   "bad key: NAKs sent by module 1 %llu, received by module 0 %llu",
		   D(c1, roce_naks_tx), D(c0, roce_naks_rx));
	}
#undef D
	teardown(&b);
	teardown(&a);
	return tap_done();
}
