/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake system layer for libgaudi's host unit tests: accel nodes for
 * discovery, module state, and a device behind the ioctls (INFO, CB with
 * mmap, MEMORY userptr, CS that executes LIN_DMA packets against fake HBM,
 * SRAM and the mapped host buffers, WAIT_CS), with error injection.
 */
#ifndef GAUDI_TEST_FAKE_H
#define GAUDI_TEST_FAKE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "gaudi_int.h"

#define FAKE_MAX_NODES		16
#define FAKE_MAX_CBS		256
#define FAKE_MAX_MAPS		64
#define FAKE_MAX_RESV		16
#define FAKE_SOB_OFFSET(q)	(0x492000U + 4 * (128 + 2 * (q)))
#define FAKE_HBM_BASE		0x20000000ULL
#define FAKE_HBM_SIZE		(1U << 20)
#define FAKE_SRAM_BASE		0x7FF0000080ULL
#define FAKE_SRAM_SIZE		(1U << 20)
#define FAKE_VA_BASE		0x1000000000000ULL
#define FAKE_FD_BASE		1000

struct fake_cb {
	uint64_t handle;
	uint64_t dva;		/* HL_CB_FLAGS_MAP: its device address */
	uint8_t *mem;
	size_t size;
	bool live;
};

struct fake_map {
	uint64_t va;
	uint8_t *host;
	uint64_t size;
	bool live;
};

struct fake {
	struct gaudi_sys sys;
	pthread_mutex_t lock;

	/* discovery and modules */
	struct gaudi_sys_node nodes[FAKE_MAX_NODES];
	char strs[FAKE_MAX_NODES][5][GAUDI_PATH_LEN];
	int n_nodes;
	int enum_err;		/* enumerate() fails with this when set */
	int pci_count;
	bool gaudi_loaded, hl_loaded;
	int virt_err;		/* control_module_id() fails with this */
	int virt_queries;

	/* the device */
	const char *drm_name;	/* drmGetVersion name; NULL: fails */
	bool has_caps;		/* gaudi.ko extensions */
	/* DRM_IOCTL_GAUDI_ACCOUNTING: records there are (ids 1..n, the last running) */
	unsigned int acct_n;
	/*
	 * DRM_IOCTL_GAUDI_NIC, one port's worth: a doorbell "sends" the
	 * WQEs at once (logged) and writes their requester CQEs, unless
	 * @nic_hold; @nic_err puts every requester in error.
	 */
	struct {
		uint64_t wq_va, cq_va;
		uint32_t num_wqs, entries, cq_entries, next_conn;
		uint32_t ci[1024], cq_pi;
		uint32_t req_dst_qpn;	/* of the last SET_REQ_CONN_CTX */
		uint32_t req_path_mtu;	/* and its path MTU */
		uint32_t req_flags, req_rnr;	/* and RNR retry */
		uint32_t mrs;		/* regions registered (keys 0x5A5A000n) */
		bool no_mr;		/* a driver before ABI 1.6 */
		uint32_t log[64][8];
		unsigned int nlog, doorbells;
		bool hold, err;
	} nic;
	int open_err;		/* open() of a compute node fails with this */
	int open_count, close_count;
	char last_open[GAUDI_PATH_LEN];
	int last_open_flags;

	/* ioctl recording and error injection */
	unsigned long last_req;
	int fail_req_err;	/* next ioctl with @fail_req fails so */
	unsigned long fail_req;
	uint32_t last_info_op, last_info_arg, last_info_size;
	uint32_t last_cs_flags, last_cs_nchunks, last_cs_queue;
	uint64_t last_signal_seq;
	int cs_calls;		/* CS ioctls that reached the fake */
	struct hl_cs_in last_cs_in;	/* the last CS's input, as passed */
	struct hl_cs_chunk last_chunk;	/* and its first chunk */
	bool cs_restore;
	bool cs_hang;		/* CSs never complete */
	bool cs_no_exec;	/* CSs are recorded, not executed */
	uint32_t cs_status;	/* hl_cs_out.status to report */
	bool mmap_fail;
	int eventfd;
	uint64_t events;

	/*
	 * Staged submission: one open at a time (its sequence number, 0 when
	 * none), busy until its LAST part.  Encapsulated-signal reservations
	 * on the queues' SOBs (128 + 2 * queue), upstream's numbers.
	 */
	uint64_t staged_open;
	struct fake_resv {
		uint32_t handle, queue, count;
		uint64_t cs_seq;	/* the staged submission that took it */
		bool live;
	} resv[FAKE_MAX_RESV];
	uint32_t next_resv;
	uint32_t sob_val[8];

	struct fake_cb cbs[FAKE_MAX_CBS];
	uint64_t next_handle;
	uint8_t last_cb[4096];	/* copy of the last submitted CB */
	uint32_t last_cb_len;
	struct fake_map maps[FAKE_MAX_MAPS];
	uint64_t next_va;
	uint64_t seq, done_seq;

	uint8_t *hbm, *sram;
};

void fake_init(struct fake *f);
void fake_fini(struct fake *f);
/*
 * Adds an accel-class node of card @slot (a PCI function 1da3:1000); a
 * NULL @slot makes a virtual node (upstream's control nodes) that reports
 * @module_id through HW_IP_INFO.
 */
void fake_add_node(struct fake *f, const char *sysname, const char *slot,
		   const char *driver, int module_id);
/* Two nodes per card, cards 0..n-1 at 0000:0X:00.0, accelN/controlDN. */
void fake_add_cards(struct fake *f, int n, const char *driver);

#endif /* GAUDI_TEST_FAKE_H */
