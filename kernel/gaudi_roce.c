// SPDX-License-Identifier: GPL-2.0-only
/*
 * RoCE v2 connections of the NIC ports for the holder of the compute node
 * (DRM_IOCTL_GAUDI_NIC, uapi/drm/gaudi_accel.h "DOC: NIC";
 * Documentation/net/roce.rst).
 *
 * Per port gaudi.ko keeps a table of the holder's connections (QP numbers
 * GAUDI_NIC_FIRST_CONN..GAUDI_NIC_MAX_CONN - 1: QP 0 is gaudi_en's raw
 * queue, QP 1 unused), its send-queue
 * area and its completion queue.  The QP contexts live in the port's part
 * of the driver's reserved HBM (gaudi_layout.h), written through the
 * port's context gateway (one user at a time: gaudi_roce_qpc_write(), also
 * gaudi_en's path through the cn ops).  What the NIC reads and writes for
 * a connection it reaches as the port's user engine, through the MMU with
 * the ASID in its NIC QMAN's GLBL_NON_SECURE_PROPS_0 (set at every
 * bring-up): the holder's ASID.  Close and reset invalidate every
 * connection and unset the queues.
 *
 * The send queues (the model's and Habana's formula, hw/gaudi1/nic.h): a
 * QP's queue is at SQ_BASE_ADDRESS_i + wq_base_address * (128 <<
 * LOG_MAX_WQ_SIZE_i), i = (wq_base_address >> SQ_BASE_ADDRESS_SEL) & 3.
 * gaudi_en's raw QP has wq_base_address 0 and base 0.  User QPs get base
 * GAUDI_ROCE_SQ_IDX with SEL GAUDI_ROCE_SQ_SEL: wq_base_address = 1 << 22 |
 * qpn, and base 1 is the area's address minus (1 << 22) queues, so that
 * QP n's queue is at area + n * queue size.  (This driver's choice.)
 *
 * Remote peers (Documentation/security.rst, "Remote peers"; the engine's
 * tables: hw/gaudi1/nic.h, "Remote-peer protection"): every bring-up
 * enables the port's QP extension table and memory-region table, so a
 * peer's RDMA WRITE with data lands only inside a region the holder
 * registered on the connection it arrives on (REG_MR: a range of one of
 * the holder's host mappings, held by gaudi_mem_hold() for the region's
 * life).  A QP number's generation goes up with every ALLOC_CONN and is
 * part of its regions' entries, so nothing of an earlier connection of
 * the same number (regions, keys the peer kept) reaches a new one; the
 * engine drops a QP's message and window state whenever its context or
 * extension entry is written.  Keys: slot index in the low bits, random
 * above (get_random_u32()); a slot whose region ended stays parked while
 * its connection lives, so a connection never sees a key twice.
 */
#include <linux/bitmap.h>
#include <linux/if_ether.h>
#include <linux/iopoll.h>
#include <linux/nospec.h>
#include <linux/random.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include "gaudi1/memmap.h"
#include "gaudi1/nic.h"
#include "gaudi1/regs.h"
#include "gaudi_cn.h"
#include "gaudi_dp_types.h"
#include "gaudi_file_types.h"
#include "gaudi_hw.h"
#include "gaudi_layout.h"
#include "gaudi_mem.h"
#include "gaudi_nic.h"
#include "gaudi_roce.h"
#include "gaudi_types.h"

/*
 * A memory-region slot of a port: @map is NULL when the
 * slot holds no region; @parked, its region ended while its connection
 * @qpn lives, so the slot waits for that connection to end.
 */
struct gaudi_roce_mr {
	struct gaudi_map *map;		/* the held mapping */
	struct gaudi_ctx *ctx;		/* whose */
	u32 key;			/* the region's (or the last one's) */
	u32 qpn;			/* its connection */
	bool parked;
	bool verbs;			/* the RDMA driver's (no @map) */
};

/*
 * The verbs fields of a QP's extension entry (ext_write()):
 * its receive queue (@rq, 2^@rq_log WQEs), its CQs, its RNR timer code;
 * @set once the entry was written (its receive CI is the engine's).
 */
struct gaudi_roce_vext {
	u64 rq;
	u32 rq_log, scq, rcq, min_rnr;
	bool set;
};

#define GAUDI_ROCE_GW_TIMEOUT_US	10000
#define GAUDI_ROCE_SQ_IDX		1
#define GAUDI_ROCE_SQ_SEL		22
/* The RDMA driver's QPs' send queues: TXE base 2. */
#define GAUDI_ROCE_VSQ_IDX		2
/* The responder table, after the requester's in the port's HBM. */
#define GAUDI_ROCE_RES_TABLE_OFF	0x80000
/* Then the QP extension table and the memory-region table. */
#define GAUDI_ROCE_EXT_TABLE_OFF	0x90000
#define GAUDI_ROCE_MR_TABLE_OFF		0xA0000
/* Then the card's CQ table (verbs CQs), in one port's part only. */
#define GAUDI_ROCE_CQT_OFF		(GAUDI_ROCE_MR_TABLE_OFF + \
					 GAUDI_NIC_MAX_MR * GAUDI_NIC_MR_SIZE)
#define GAUDI_ROCE_CQT_ENTRIES		BIT(CQT_CFG_MAX_LOG_ENTRIES)
#define GAUDI_ROCE_TABLES_END		(GAUDI_ROCE_CQT_OFF + \
					 GAUDI_ROCE_CQT_ENTRIES * \
					 GAUDI_NIC_CQT_SIZE)
/* Which context caches a gateway write drops. */
#define GW_INV_REQ			BIT(0)
#define GW_INV_RES			BIT(1)

static_assert(GAUDI_NIC_PORTS == GAUDI_NIC_NUM_PORTS);
static_assert(!(GAUDI_NIC_USER_FIRST_QP - GAUDI_NIC_FIRST_CONN) &&
	      !(GAUDI_NIC_USER_QPS - GAUDI_NIC_MAX_CONN));
/* The remote SOB window of gaudi_roce_hw_init() spans W_S..E_N. */
static_assert(mmSYNC_MNGR_W_S_SOB_OBJ_0 < mmSYNC_MNGR_E_S_SOB_OBJ_0 &&
	      mmSYNC_MNGR_E_S_SOB_OBJ_0 < mmSYNC_MNGR_W_N_SOB_OBJ_0 &&
	      mmSYNC_MNGR_W_N_SOB_OBJ_0 < mmSYNC_MNGR_E_N_SOB_OBJ_0);
static_assert(offsetof(struct drm_gaudi_nic_counters, roce_flags) ==
	      GAUDI_NIC_COUNTERS_SIZE_V1);
static_assert(GAUDI_NIC_MAX_CONN * GAUDI_NIC_REQ_QPC_SIZE <=
	      GAUDI_ROCE_RES_TABLE_OFF);
static_assert(GAUDI_ROCE_RES_TABLE_OFF +
	      GAUDI_NIC_MAX_CONN * GAUDI_NIC_RES_QPC_SIZE <=
	      GAUDI_ROCE_EXT_TABLE_OFF);
static_assert(GAUDI_ROCE_EXT_TABLE_OFF +
	      GAUDI_NIC_MAX_CONN * GAUDI_NIC_EXT_SIZE <=
	      GAUDI_ROCE_MR_TABLE_OFF);
static_assert(GAUDI_ROCE_TABLES_END <= GAUDI_NIC_HBM_PORT_SIZE);
static_assert(GAUDI_NIC_MAX_MR == 1 << MR_CFG_MAX_LOG_ENTRIES);
static_assert(GAUDI_NIC_EXT_SIZE == 32 && GAUDI_NIC_MR_SIZE == 32);

static u32 qpc_reg(unsigned int port, u32 r)
{
	return GAUDI_NIC_QPC_REG(port, r);
}

static u32 rxe_reg(unsigned int port, u32 r)
{
	return GAUDI_NIC_RXE_REG(port, r);
}

/* The TXE registers of the users' send-queue base. */
#define USER_SQ_LOG	NIC_TXE_LOG_MAX_WQ_SIZE(GAUDI_ROCE_SQ_IDX)
#define USER_SQ_HI	NIC_TXE_SQ_BASE_ADDRESS_49_32(GAUDI_ROCE_SQ_IDX)
#define USER_SQ_LO	NIC_TXE_SQ_BASE_ADDRESS_31_0(GAUDI_ROCE_SQ_IDX)
/* The RDMA driver's QPs' (gaudi_cn.h @port_open). */
#define VERBS_SQ_LOG	NIC_TXE_LOG_MAX_WQ_SIZE(GAUDI_ROCE_VSQ_IDX)
#define VERBS_SQ_HI	NIC_TXE_SQ_BASE_ADDRESS_49_32(GAUDI_ROCE_VSQ_IDX)
#define VERBS_SQ_LO	NIC_TXE_SQ_BASE_ADDRESS_31_0(GAUDI_ROCE_VSQ_IDX)

static u64 req_table(unsigned int port)
{
	return GAUDI_NIC_HBM_BASE + (u64)port * GAUDI_NIC_HBM_PORT_SIZE;
}

static u64 res_table(unsigned int port)
{
	return req_table(port) + GAUDI_ROCE_RES_TABLE_OFF;
}

static u64 ext_table(unsigned int port)
{
	return req_table(port) + GAUDI_ROCE_EXT_TABLE_OFF;
}

static u64 mr_table(unsigned int port)
{
	return req_table(port) + GAUDI_ROCE_MR_TABLE_OFF;
}

/*
 * The card's CQ table: every port's CQT_BASE names it, in the part of the
 * first enabled port (zeroed with that port's tables at bring-up).
 */
static u64 cq_table(struct gaudi_device *gdev)
{
	u32 mask = gdev->nic.ports_mask;

	return req_table(mask ? __ffs(mask) : 0) + GAUDI_ROCE_CQT_OFF;
}

static void set_bits(u32 *e, unsigned int bit, unsigned int width, u32 v)
{
	unsigned int i;

	for (i = 0; i < width; i++, bit++) {
		e[bit / 32] &= ~BIT(bit % 32);
		e[bit / 32] |= ((v >> i) & 1) << (bit % 32);
	}
}

static u32 get_bits(const u32 *e, unsigned int bit, unsigned int width)
{
	u32 v = 0;
	unsigned int i;

	for (i = 0; i < width; i++, bit++)
		v |= ((e[bit / 32] >> (bit % 32)) & 1) << i;
	return v;
}

/*
 * One masked read-modify-write of the @words-word entry that @ctrl names
 * (GW_CTRL: table, requester bit, index) through @port's gateway (no
 * @mask: a read); the resulting entry in @out if not NULL.  A write drops
 * the context caches in @inv (GW_INV_*).  The gateway lock is held.
 */
static int gw_op(struct gaudi_device *gdev, unsigned int port, u32 ctrl,
		 unsigned int words, const u32 *data, const u32 *mask,
		 u32 *out, unsigned int inv)
{
	u32 busy, st;
	unsigned int i;
	int ret;

	lockdep_assert_held(&gdev->nic.gw_lock[port]);
	for (i = 0; i < NIC_QPC_GW_WORDS; i++) {
		WREG32(gdev, qpc_reg(port, NIC_QPC_GW_MASK(i)),
		       i < words && mask ? mask[i] : 0);
		WREG32(gdev, qpc_reg(port, NIC_QPC_GW_DATA(i)),
		       i < words && data ? data[i] : 0);
	}
	WREG32(gdev, qpc_reg(port, NIC_QPC_GW_CTRL), ctrl);
	WREG32(gdev, qpc_reg(port, NIC_QPC_GW_BUSY), 1);
	ret = read_poll_timeout(gaudi_rreg, busy, !busy, 10,
				GAUDI_ROCE_GW_TIMEOUT_US, false, gdev,
				qpc_reg(port, NIC_QPC_GW_BUSY), "nic gw");
	if (ret) {
		gaudi_dbg(gdev, IOCTL, "NIC%u: context gateway stuck\n", port);
		return ret;
	}
	if (out)
		for (i = 0; i < words; i++)
			out[i] = RREG32(gdev, qpc_reg(port, NIC_QPC_GW_DATA(i)));
	if (!mask)
		return 0;
	/* The engine must not keep a stale copy of the entry. */
	for (i = 0; i < 2; i++) {
		if (!(inv & BIT(i)))
			continue;
		WREG32(gdev, qpc_reg(port, i ? NIC_QPC_RES_QPC_CACHE_INVALIDATE :
					       NIC_QPC_REQ_QPC_CACHE_INVALIDATE),
		       1);
		ret = read_poll_timeout(gaudi_rreg, st,
					st & QPC_CACHE_INV_STATUS_DONE, 10,
					GAUDI_ROCE_GW_TIMEOUT_US, false, gdev,
					qpc_reg(port, i ?
						NIC_QPC_RES_QPC_CACHE_INV_STATUS :
						NIC_QPC_REQ_QPC_CACHE_INV_STATUS),
					"nic inv");
		if (ret)
			return ret;
	}
	return 0;
}

/* gw_op() on a context: @qpn's requester (@req) or responder. */
static int qpc_gw(struct gaudi_device *gdev, unsigned int port, u32 qpn,
		  bool req, const u32 *data, const u32 *mask, u32 *out)
{
	return gw_op(gdev, port,
		     (qpn & QPC_GW_CTRL_QPN) | (req ? QPC_GW_CTRL_REQUESTER : 0),
		     req ? GAUDI_NIC_REQ_QPC_SIZE / 4 :
			   GAUDI_NIC_RES_QPC_SIZE / 4,
		     data, mask, out, req ? GW_INV_REQ : GW_INV_RES);
}

/*
 * Write the words of entry @idx of @table (QPC_GW_TABLE_EXT or _MR) that
 * @mask selects (NULL: the whole entry), taking the gateway lock.
 */
static int tbl_write(struct gaudi_device *gdev, unsigned int port,
		     u32 table, u32 idx, const u32 *data, const u32 *mask)
{
	static const u32 all[GAUDI_NIC_MR_SIZE / 4] = {
		~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U,
	};
	int ret;

	mutex_lock(&gdev->nic.gw_lock[port]);
	ret = gw_op(gdev, port, table << QPC_GW_CTRL_TABLE_SHIFT |
		    (idx & QPC_GW_CTRL_QPN), GAUDI_NIC_MR_SIZE / 4, data,
		    mask ? mask : all, NULL, GW_INV_REQ | GW_INV_RES);
	mutex_unlock(&gdev->nic.gw_lock[port]);
	return ret;
}

/*
 * @qpn's extension entry, whole: path MTU code @mtu, RNR retry count
 * @rnr, the QP's generation, valid; @valid false: zero.
 */
static int ext_write(struct gaudi_device *gdev, unsigned int port, u32 qpn,
		     bool valid, u32 mtu, u32 rnr)
{
	struct gaudi_roce_port *rp = &gdev->nic.roce[port];
	u32 e[GAUDI_NIC_EXT_SIZE / 4] = {};
	/* Word 3, a verbs QP's receive CI, is the engine's once set up. */
	static const u32 keep_ci[GAUDI_NIC_EXT_SIZE / 4] = {
		~0U, ~0U, ~0U, 0, ~0U, ~0U, ~0U, ~0U,
	};
	const struct gaudi_roce_vext *v = &rp->vext[qpn];

	if (valid)
		e[0] = EXT_W0_VALID | (u32)rp->gen[qpn] << EXT_W0_GEN_SHIFT |
		       (rnr << EXT_W0_RNR_RETRY_SHIFT & EXT_W0_RNR_RETRY) |
		       (mtu & EXT_W0_PATH_MTU);
	/*
	 * A verbs peer names the process VA of a region, which the RDMA
	 * driver maps at GAUDI_VA_HOST_START above it (gaudi_ib.c).
	 */
	if (valid && test_bit(qpn, rp->vqp)) {
		e[5] = lower_32_bits(GAUDI_VA_HOST_START);
		e[6] = upper_32_bits(GAUDI_VA_HOST_START);
		/* Receive queue and CQ table completions (gaudi_ib.c). */
		e[0] |= EXT_W0_VERBS |
			(v->min_rnr << EXT_W0_MIN_RNR_SHIFT & EXT_W0_MIN_RNR);
		e[1] = lower_32_bits(v->rq);
		e[2] = (upper_32_bits(v->rq) & EXT_W2_RQ_ADDR_HI) |
		       (v->rq_log << EXT_W2_RQ_LOG_SHIFT & EXT_W2_RQ_LOG);
		e[4] = (v->scq & EXT_W4_SEND_CQ) |
		       v->rcq << EXT_W4_RECV_CQ_SHIFT;
		if (v->set)
			return tbl_write(gdev, port, QPC_GW_TABLE_EXT, qpn, e,
					 keep_ci);
	}
	return tbl_write(gdev, port, QPC_GW_TABLE_EXT, qpn, e, NULL);
}

/* Zero memory-region entry @idx of @port. */
static int mr_clear(struct gaudi_device *gdev, unsigned int port, u32 idx)
{
	static const u32 zero[GAUDI_NIC_MR_SIZE / 4];

	return tbl_write(gdev, port, QPC_GW_TABLE_MR, idx, zero, NULL);
}

/*
 * Region slot @idx of @port ends: its entry zeroed (with @hw), its mapping
 * no longer held; with @park the slot waits for its connection to end.
 */
static void mr_drop(struct gaudi_device *gdev, unsigned int port, u32 idx,
		    bool hw, bool park)
{
	struct gaudi_roce_mr *mr = &gdev->nic.roce[port].mrs[idx];

	if (!mr->map && !mr->verbs) {
		if (!park)
			mr->parked = false;
		return;
	}
	if (hw)
		mr_clear(gdev, port, idx);
	/* The RDMA driver's regions hold their memory themselves. */
	if (mr->map)
		gaudi_mem_unhold(mr->ctx, mr->map);
	mr->map = NULL;
	mr->ctx = NULL;
	mr->verbs = false;
	mr->parked = park;
}

/* Connection @qpn of @port ends: its regions and its parked slots. */
static void conn_mrs_drop(struct gaudi_device *gdev, unsigned int port,
			  u32 qpn, bool hw)
{
	struct gaudi_roce_port *rp = &gdev->nic.roce[port];
	unsigned int i;

	if (!rp->mrs)
		return;
	for (i = 0; i < GAUDI_NIC_MAX_MR; i++)
		if ((rp->mrs[i].map || rp->mrs[i].parked ||
		     rp->mrs[i].verbs) && rp->mrs[i].qpn == qpn)
			mr_drop(gdev, port, i, hw, false);
}

/* For gaudi_en (cn ops): a whole-entry write under the gateway lock. */
int gaudi_roce_qpc_write(struct gaudi_device *gdev, unsigned int port,
			 u32 qpn, bool req, const u32 *data)
{
	static const u32 all[NIC_QPC_GW_WORDS] = {
		~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U,
		~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U,
	};
	int ret;

	if (port >= GAUDI_NIC_NUM_PORTS)
		return -EINVAL;
	port = array_index_nospec(port, GAUDI_NIC_NUM_PORTS);
	mutex_lock(&gdev->nic.gw_lock[port]);
	ret = qpc_gw(gdev, port, qpn, req, data, all, NULL);
	mutex_unlock(&gdev->nic.gw_lock[port]);
	return ret;
}

/* Invalidate (zero) both contexts of @qpn. */
static int qpc_clear(struct gaudi_device *gdev, unsigned int port, u32 qpn)
{
	static const u32 zero[NIC_QPC_GW_WORDS];
	int a, b;

	a = gaudi_roce_qpc_write(gdev, port, qpn, true, zero);
	b = gaudi_roce_qpc_write(gdev, port, qpn, false, zero);
	return a ? a : b;
}

/*
 * Connection @qpn of @port ends: both contexts, its extension entry and
 * its regions.
 */
static int conn_end(struct gaudi_device *gdev, unsigned int port, u32 qpn)
{
	int ret = qpc_clear(gdev, port, qpn);
	int r2 = ext_write(gdev, port, qpn, false, 0, 0);

	conn_mrs_drop(gdev, port, qpn, true);
	return ret ? ret : r2;
}

static void port_unset_wq(struct gaudi_device *gdev, unsigned int port)
{
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, USER_SQ_HI), 0);
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, USER_SQ_LO), 0);
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, USER_SQ_LOG), 0);
}

static void port_unset_vsq(struct gaudi_device *gdev, unsigned int port)
{
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, VERBS_SQ_HI), 0);
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, VERBS_SQ_LO), 0);
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, VERBS_SQ_LOG), 0);
}

static void port_unset_eq(struct gaudi_device *gdev, unsigned int port)
{
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_BASE_49_18), 0);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_BASE_17_7), 0);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_MASK), 0);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_PI), 0);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_CI), 0);
}

static void port_unset_cq(struct gaudi_device *gdev, unsigned int port)
{
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_CFG0), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_BASE_ADDR_31_7), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_BASE_ADDR_49_32), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_MASK), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_PRODUCER_INDEX), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_CONSUMER_INDEX), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_WRITE_INDEX), 0);
}

/*
 * Forget everything of @port's holder: invalidate its contexts and unset
 * its queues.  Without @hw (close while the device is not operational)
 * the table stays, without owner, for the next bring-up to invalidate.
 * The port lock is held.
 */
static void port_teardown(struct gaudi_device *gdev, unsigned int port,
			  bool hw)
{
	struct gaudi_roce_port *rp = &gdev->nic.roce[port];
	unsigned int qpn, i;

	rp->owner = NULL;
	/* The holder's mappings are released after this: no hold stays. */
	for (i = 0; rp->mrs && i < GAUDI_NIC_MAX_MR; i++)
		mr_drop(gdev, port, i, hw, false);
	if (!hw)
		return;
	for_each_set_bit(qpn, rp->conns, GAUDI_NIC_MAX_CONN) {
		qpc_clear(gdev, port, qpn);
		ext_write(gdev, port, qpn, false, 0, 0);
	}
	if (rp->wq_set)
		port_unset_wq(gdev, port);
	if (rp->v_open) {
		port_unset_vsq(gdev, port);
		port_unset_eq(gdev, port);
	}
	if (rp->cq_set)
		port_unset_cq(gdev, port);
	bitmap_zero(rp->conns, GAUDI_NIC_MAX_CONN);
	bitmap_zero(rp->req_set, GAUDI_NIC_MAX_CONN);
	rp->wq_set = false;
	rp->cq_set = false;
	rp->v_open = false;
	rp->cq_verbs = false;
}

/*
 * Zero @port's context tables in HBM, then drop the engine's cached
 * entries: contexts of an earlier driver load (or of a holder whose close
 * could not reach the device) must not come back to life with the tables'
 * base registers, because every holder's traffic runs under the same user
 * ASID.  Through the HBM BAR, 704 KiB per port (with the extension,
 * region and CQ tables).
 */
static void roce_tables_clear(struct gaudi_device *gdev, unsigned int port)
{
	u64 len = GAUDI_ROCE_TABLES_END;
	u32 st;

	if (req_table(port) + len > gdev->pci.hbm_bar_size) {
		gaudi_warn(gdev, "NIC%u: context tables beyond the HBM window\n",
			   port);
		return;
	}
	memset_io(gdev->pci.hbm + req_table(port), 0, len);
	WREG32(gdev, qpc_reg(port, NIC_QPC_REQ_QPC_CACHE_INVALIDATE), 1);
	WREG32(gdev, qpc_reg(port, NIC_QPC_RES_QPC_CACHE_INVALIDATE), 1);
	if (read_poll_timeout(gaudi_rreg, st, st & QPC_CACHE_INV_STATUS_DONE,
			      10, GAUDI_ROCE_GW_TIMEOUT_US, false, gdev,
			      qpc_reg(port, NIC_QPC_RES_QPC_CACHE_INV_STATUS),
			      "nic inv"))
		gaudi_warn(gdev, "NIC%u: context cache invalidation stuck\n",
			   port);
}

/*
 * Every bring-up (probe, reset): the context tables, zeroed, the NIC
 * QMANs' user ASID, and no connection of anybody left.  Nothing else touches the NIC
 * here (the reset holds off the ioctls).
 */
void gaudi_roce_hw_init(struct gaudi_device *gdev)
{
	struct gaudi_nic *nic = &gdev->nic;
	unsigned int p;

	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
		u32 qm = GAUDI_NIC_PORT_MACRO(p) +
			 ((p & 1) ? NIC_QM1_OFFSET : NIC_QM0_OFFSET);
		struct gaudi_roce_port *rp = &nic->roce[p];

		if (!(nic->ports_mask & BIT(p))) {
			/* A port the firmware no longer gives: forget it. */
			mutex_lock(&rp->lock);
			port_teardown(gdev, p, false);
			mutex_unlock(&rp->lock);
			bitmap_zero(rp->conns, GAUDI_NIC_MAX_CONN);
			bitmap_zero(rp->req_set, GAUDI_NIC_MAX_CONN);
			rp->wq_set = false;
			rp->cq_set = false;
			rp->v_open = false;
			rp->cq_verbs = false;
			rp->owner = NULL;
			continue;
		}
		/* The port's RDMA traffic translates with the user's ASID. */
		WREG32(gdev, qm + QM_GLBL_NON_SECURE_PROPS(0),
		       GAUDI_USER_ASID);
		WREG32(gdev, qpc_reg(p, NIC_QPC_REQ_BASE_ADDRESS_49_18),
		       req_table(p) >> 18);
		WREG32(gdev, qpc_reg(p, NIC_QPC_REQ_BASE_ADDRESS_17_7),
		       (req_table(p) >> 7) & 0x7FF);
		WREG32(gdev, qpc_reg(p, NIC_QPC_RES_BASE_ADDRESS_49_18),
		       res_table(p) >> 18);
		WREG32(gdev, qpc_reg(p, NIC_QPC_RES_BASE_ADDRESS_17_7),
		       (res_table(p) >> 7) & 0x7FF);
		WREG32(gdev, qpc_reg(p, NIC_QPC_EXT_BASE_ADDRESS_49_18),
		       ext_table(p) >> 18);
		WREG32(gdev, qpc_reg(p, NIC_QPC_EXT_BASE_ADDRESS_17_7),
		       (ext_table(p) >> 7) & 0x7FF);
		WREG32(gdev, qpc_reg(p, NIC_QPC_MR_BASE_ADDRESS_49_18),
		       mr_table(p) >> 18);
		WREG32(gdev, qpc_reg(p, NIC_QPC_MR_BASE_ADDRESS_17_7),
		       (mr_table(p) >> 7) & 0x7FF);
		roce_tables_clear(gdev, p);
		/*
		 * Every connection has its extension entry, and a peer's data
		 * lands only in the holder's regions (the tables are zero:
		 * no region yet).
		 */
		WREG32(gdev, qpc_reg(p, NIC_QPC_EXT_CFG), EXT_CFG_ENABLE);
		WREG32(gdev, qpc_reg(p, NIC_QPC_MR_CFG),
		       MR_CFG_ENABLE | MR_CFG_MAX_LOG_ENTRIES);
		/* The card's verbs CQs (zeroed above with port 0's part). */
		WREG32(gdev, qpc_reg(p, NIC_QPC_CQT_BASE_ADDRESS_49_18),
		       cq_table(gdev) >> 18);
		WREG32(gdev, qpc_reg(p, NIC_QPC_CQT_BASE_ADDRESS_17_7),
		       (cq_table(gdev) >> 7) & 0x7FF);
		WREG32(gdev, qpc_reg(p, NIC_QPC_CQT_CFG),
		       CQT_CFG_ENABLE | CQT_CFG_MAX_LOG_ENTRIES);
		port_unset_eq(gdev, p);
		/*
		 * A peer's sync-object writes reach the user's SOBs only:
		 * W_S from the first user SOB up to the last SOB of E_N, the
		 * highest sync manager (the engine refuses what is not a SOB
		 * in between, the monitors).
		 */
		WREG32(gdev, qpc_reg(p, NIC_QPC_RES_SOB_MIN),
		       mmSYNC_MNGR_W_S_SOB_OBJ_0 + 4 * GAUDI_FIRST_USER_SOB);
		WREG32(gdev, qpc_reg(p, NIC_QPC_RES_SOB_MAX),
		       mmSYNC_MNGR_E_N_SOB_OBJ_0 + 4 * (SM_NUM_SOBS - 1));
		WREG32(gdev, GAUDI_NIC_TXE_REG(p, NIC_TXE_SQ_BASE_ADDRESS_SEL),
		       GAUDI_ROCE_SQ_SEL);
		/* The source MAC of RoCE frames (gaudi_en writes it too). */
		WREG32(gdev, GAUDI_NIC_TXE_REG(p, (p & 1) ?
					       NIC_TXE_PORT1_MAC_CFG_47_32 :
					       NIC_TXE_PORT0_MAC_CFG_47_32),
		       get_unaligned_be16(nic->mac[p]));
		WREG32(gdev, GAUDI_NIC_TXE_REG(p, (p & 1) ?
					       NIC_TXE_PORT1_MAC_CFG_31_0 :
					       NIC_TXE_PORT0_MAC_CFG_31_0),
		       get_unaligned_be32(nic->mac[p] + 2));
		/* The tables are zero: only the software state goes. */
		mutex_lock(&rp->lock);
		port_teardown(gdev, p, false);
		port_unset_wq(gdev, p);
		port_unset_vsq(gdev, p);
		port_unset_cq(gdev, p);
		bitmap_zero(rp->conns, GAUDI_NIC_MAX_CONN);
		bitmap_zero(rp->req_set, GAUDI_NIC_MAX_CONN);
		rp->wq_set = false;
		rp->cq_set = false;
		rp->v_open = false;
		rp->cq_verbs = false;
		mutex_unlock(&rp->lock);
	}
}

int gaudi_roce_sw_init(struct gaudi_device *gdev)
{
	unsigned int p;

	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
		struct gaudi_roce_port *rp = &gdev->nic.roce[p];

		mutex_init(&rp->lock);
		mutex_init(&gdev->nic.gw_lock[p]);
		rp->mrs = drmm_kcalloc(&gdev->drm, GAUDI_NIC_MAX_MR,
				       sizeof(*rp->mrs), GFP_KERNEL);
		rp->vext = drmm_kcalloc(&gdev->drm, GAUDI_NIC_MAX_CONN,
					sizeof(*rp->vext), GFP_KERNEL);
		if (!rp->mrs || !rp->vext)
			return -ENOMEM;
	}
	return 0;
}

/* The connections of @gfile (of anybody if NULL) go. */
static void roce_release(struct gaudi_device *gdev, struct gaudi_file *gfile,
			 bool hw)
{
	unsigned int p;

	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
		struct gaudi_roce_port *rp = &gdev->nic.roce[p];

		mutex_lock(&rp->lock);
		if (!gfile || rp->owner == gfile)
			port_teardown(gdev, p, hw);
		mutex_unlock(&rp->lock);
	}
}

/*
 * Close of the compute node, before its mappings go.  After a removal
 * (gaudi_roce_revoke() ran) there is nothing left of it.
 */
void gaudi_roce_close(struct gaudi_device *gdev, struct gaudi_file *gfile)
{
	bool hw = false;
	int idx;

	if (!drm_dev_enter(&gdev->drm, &idx))
		return;
	hw = !gaudi_hw_hold(gdev);
	roce_release(gdev, gfile, hw);
	if (hw)
		gaudi_hw_release(gdev);
	drm_dev_exit(idx);
}

/* Whether @port has connections of a holder (the QP error event). */
bool gaudi_roce_port_used(struct gaudi_device *gdev, unsigned int port)
{
	struct gaudi_roce_port *rp;
	bool used;

	if (port >= GAUDI_NIC_NUM_PORTS)
		return false;
	rp = &gdev->nic.roce[array_index_nospec(port, GAUDI_NIC_NUM_PORTS)];
	mutex_lock(&rp->lock);
	used = rp->owner && !bitmap_empty(rp->conns, GAUDI_NIC_MAX_CONN);
	mutex_unlock(&rp->lock);
	return used;
}

/* Removal, while the device is still bound: every connection goes. */
void gaudi_roce_revoke(struct gaudi_device *gdev)
{
	bool hw = !gaudi_hw_hold(gdev);

	roce_release(gdev, NULL, hw);
	if (hw)
		gaudi_hw_release(gdev);
}

/* ---- the ioctl ------------------------------------------------------------ */

struct roce_call {
	struct gaudi_device *gdev;
	struct gaudi_file *gfile;
	bool verbs;		/* the RDMA driver's, not the ioctl's */
	u32 want;		/* the QP number it claims (ALLOC_CONN) */
	struct gaudi_roce_vext vext;	/* its verbs fields */
	u64 cq_ring;		/* a CQ table entry's ring, 0 to clear */
	u32 cq_log;
	u32 res_mtu;		/* a verbs QP's path MTU at RTR, bytes */
	union {
		struct drm_gaudi_nic_port port;
		struct drm_gaudi_nic_conn conn;
		struct drm_gaudi_nic_req_ctx req;
		struct drm_gaudi_nic_res_ctx res;
		struct drm_gaudi_nic_wq wq;
		struct drm_gaudi_nic_cq cq;
		struct drm_gaudi_nic_cq_ci ci;
		struct drm_gaudi_nic_doorbell db;
		struct drm_gaudi_nic_mr mr;
		struct drm_gaudi_nic_mr_dereg dereg;
	} in;
	union {
		struct drm_gaudi_nic_conn_id conn_id;
		struct drm_gaudi_nic_cq_pi pi;
		struct drm_gaudi_nic_link link;
		struct drm_gaudi_nic_conn_state state;
		struct drm_gaudi_nic_counters cnt;
		struct drm_gaudi_nic_app_params app;
		struct drm_gaudi_nic_mr_key key;
	} out;
};

/*
 * Whether the user's port number *@port is an enabled port; if so it is
 * clamped under speculation (array_index_nospec) in place, for every use
 * that follows: the tables it indexes and the register blocks it selects.
 */
static bool roce_port_ok(struct gaudi_device *gdev, u32 *port)
{
	if (*port >= GAUDI_NIC_NUM_PORTS)
		return false;
	*port = array_index_nospec(*port, GAUDI_NIC_NUM_PORTS);
	return gdev->nic.ports_mask & BIT(*port);
}

/*
 * Port *@port of the caller, locked; NULL (and a debug line) if refused.
 * *@port is clamped (roce_port_ok()).
 */
static struct gaudi_roce_port *roce_port(struct roce_call *c, u32 *port)
{
	struct gaudi_device *gdev = c->gdev;
	struct gaudi_roce_port *rp;

	if (!roce_port_ok(gdev, port)) {
		gaudi_dbg(gdev, IOCTL, "NIC: port %u not enabled\n", *port);
		return NULL;
	}
	rp = &gdev->nic.roce[*port];
	mutex_lock(&rp->lock);
	if (rp->owner && rp->owner != c->gfile) {
		mutex_unlock(&rp->lock);
		gaudi_dbg(gdev, IOCTL, "NIC%u: held by another file\n", *port);
		return NULL;
	}
	rp->owner = c->gfile;
	return rp;
}

/*
 * Whether the user's QP number *@conn is a connection of @rp; if so it is
 * clamped under speculation in place (the bitmaps and the per-QP tables
 * it indexes, the context it names).
 */
static bool roce_conn_ok(struct roce_call *c, struct gaudi_roce_port *rp,
			 u32 port, u32 *conn)
{
	if (*conn < GAUDI_NIC_FIRST_CONN || *conn >= GAUDI_NIC_MAX_CONN) {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: no connection %u\n", port,
			  *conn);
		return false;
	}
	*conn = array_index_nospec(*conn, GAUDI_NIC_MAX_CONN);
	if (!test_bit(*conn, rp->conns)) {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: no connection %u\n", port,
			  *conn);
		return false;
	}
	return true;
}

static int roce_alloc_conn(struct roce_call *c)
{
	struct gaudi_roce_port *rp;
	unsigned long qpn;
	int ret;

	if (c->in.port.flags)
		return -EINVAL;
	rp = roce_port(c, &c->in.port.port);
	if (!rp)
		return -EINVAL;
	if (c->verbs) {
		/* The RDMA driver numbers its QPs on the device. */
		qpn = c->want;
		if (qpn >= GAUDI_NIC_MAX_CONN || test_bit(qpn, rp->conns)) {
			gaudi_dbg(c->gdev, IOCTL, "NIC%u: QP %lu is taken\n",
				  c->in.port.port, qpn);
			ret = -EBUSY;
			goto out;
		}
	} else {
		qpn = find_next_zero_bit(rp->conns, GAUDI_NIC_MAX_CONN,
					 GAUDI_NIC_FIRST_CONN);
	}
	if (qpn >= GAUDI_NIC_MAX_CONN) {
		ret = -ENOSPC;
		goto out;
	}
	/* Stale contexts of an earlier holder or driver go first. */
	ret = qpc_clear(c->gdev, c->in.port.port, qpn);
	if (ret)
		goto out;
	/* A new generation: nothing of an earlier connection applies. */
	if (!++rp->gen[qpn])
		rp->gen[qpn] = 1;
	if (c->verbs) {
		set_bit(qpn, rp->vqp);
		rp->vext[qpn] = c->vext;
		rp->vext[qpn].set = false;
	} else {
		clear_bit(qpn, rp->vqp);
	}
	ret = ext_write(c->gdev, c->in.port.port, qpn, true, EXT_MTU_4096,
			EXT_RNR_RETRY_INFINITE);
	if (ret)
		goto out;
	rp->vext[qpn].set = true;
	set_bit(qpn, rp->conns);
	c->out.conn_id.conn_id = qpn;
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static void put_mac(u32 *e, unsigned int lo_bit, unsigned int hi_bit,
		    const u8 *mac)
{
	set_bits(e, hi_bit, 16, (mac[0] << 8) | mac[1]);
	set_bits(e, lo_bit, 32, ((u32)mac[2] << 24) | (mac[3] << 16) |
				(mac[4] << 8) | mac[5]);
}

static int roce_set_req(struct roce_call *c)
{
	struct drm_gaudi_nic_req_ctx *r = &c->in.req;
	u32 e[GAUDI_NIC_REQ_QPC_SIZE / 4] = {};
	u32 m[GAUDI_NIC_REQ_QPC_SIZE / 4];
	struct gaudi_roce_port *rp;
	int ret;

	u32 mtu = r->path_mtu ? r->path_mtu : 4096;
	u32 rnr = EXT_RNR_RETRY_INFINITE;

	if ((r->flags & ~GAUDI_NIC_REQ_RNR_RETRY) || r->pad2 ||
	    memchr_inv(r->pad, 0, sizeof(r->pad)) ||
	    memchr_inv(r->reserved, 0, sizeof(r->reserved)) ||
	    r->dst_conn_id > 0xFFFFFF || r->psn > 0xFFFFFF ||
	    r->timeout_retry > 0xFF || !is_power_of_2(mtu) || mtu < 256 ||
	    mtu > 4096 || r->rnr_retry > EXT_RNR_RETRY_INFINITE ||
	    (!(r->flags & GAUDI_NIC_REQ_RNR_RETRY) && r->rnr_retry)) {
		gaudi_dbg(c->gdev, IOCTL, "NIC: bad requester context\n");
		return -EINVAL;
	}
	if (r->flags & GAUDI_NIC_REQ_RNR_RETRY)
		rnr = r->rnr_retry;
	rp = roce_port(c, &r->port);
	if (!rp)
		return -EINVAL;
	ret = -EINVAL;
	if (!roce_conn_ok(c, rp, r->port, &r->conn_id))
		goto out;
	if (c->verbs ? !rp->v_open :
		       (!rp->wq_set || r->conn_id >= rp->wq_num)) {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: connection %u has no send queue\n",
			  r->port, r->conn_id);
		goto out;
	}
	if (c->verbs)
		rp->vext[r->conn_id].min_rnr = c->vext.min_rnr;
	/* Path MTU (InfiniBand's code: 256 is 1 .. 4096 is 5), RNR retry. */
	ret = ext_write(c->gdev, r->port, r->conn_id, true, ilog2(mtu) - 7,
			rnr);
	if (ret)
		goto out;
	set_bits(e, REQ_QPC_DST_QP_BIT, 24, r->dst_conn_id);
	set_bits(e, REQ_QPC_REMOTE_KEY_BIT, 32, r->remote_key);
	set_bits(e, REQ_QPC_DST_IP_BIT, 32, r->dst_ip);
	set_bits(e, REQ_QPC_SRC_IP_BIT, 32, r->src_ip);
	put_mac(e, REQ_QPC_DST_MAC_31_0_BIT, REQ_QPC_DST_MAC_47_32_BIT,
		r->dst_mac);
	set_bits(e, REQ_QPC_TIMEOUT_RETRY_BIT, 8, r->timeout_retry);
	set_bits(e, REQ_QPC_NEXT_PSN_BIT, 24, r->psn);
	set_bits(e, REQ_QPC_OLDEST_UNACKED_PSN_BIT, 24, r->psn);
	set_bits(e, REQ_QPC_TRANSPORT_BIT, 1, QPC_TRANSPORT_RC);
	set_bits(e, REQ_QPC_WQ_BASE_ADDR_BIT, 24,
		 (c->verbs ? GAUDI_ROCE_VSQ_IDX : GAUDI_ROCE_SQ_IDX) <<
		 GAUDI_ROCE_SQ_SEL | r->conn_id);
	set_bits(e, REQ_QPC_VALID_BIT, 1, 1);
	memset(m, 0xFF, sizeof(m));
	mutex_lock(&c->gdev->nic.gw_lock[r->port]);
	ret = qpc_gw(c->gdev, r->port, r->conn_id, true, e, m, NULL);
	mutex_unlock(&c->gdev->nic.gw_lock[r->port]);
	if (!ret)
		set_bit(r->conn_id, rp->req_set);
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_set_res(struct roce_call *c)
{
	struct drm_gaudi_nic_res_ctx *r = &c->in.res;
	u32 e[GAUDI_NIC_RES_QPC_SIZE / 4] = {};
	u32 m[GAUDI_NIC_RES_QPC_SIZE / 4];
	struct gaudi_roce_port *rp;
	int ret;

	if ((r->flags & ~GAUDI_NIC_RES_SOB_EN) ||
	    memchr_inv(r->pad, 0, sizeof(r->pad)) ||
	    memchr_inv(r->reserved, 0, sizeof(r->reserved)) ||
	    r->dst_conn_id > 0xFFFFFF || r->expected_psn > 0xFFFFFF) {
		gaudi_dbg(c->gdev, IOCTL, "NIC: bad responder context\n");
		return -EINVAL;
	}
	rp = roce_port(c, &r->port);
	if (!rp)
		return -EINVAL;
	ret = -EINVAL;
	if (!roce_conn_ok(c, rp, r->port, &r->conn_id))
		goto out;
	if (c->verbs) {
		/*
		 * The responder checks packets against the path MTU, an
		 * attribute of RTR: a QP that never goes to RTS (perftest's
		 * bandwidth server) receives at it too.  RNR retry (RTS's)
		 * stays unlimited until then.
		 */
		if (!is_power_of_2(c->res_mtu) || c->res_mtu < 256 ||
		    c->res_mtu > 4096 || c->vext.min_rnr > 0x1F)
			goto out;
		rp->vext[r->conn_id].min_rnr = c->vext.min_rnr;
		ret = ext_write(c->gdev, r->port, r->conn_id, true,
				ilog2(c->res_mtu) - 7, EXT_RNR_RETRY_INFINITE);
		if (ret)
			goto out;
	}
	set_bits(e, RES_QPC_DST_QP_BIT, 24, r->dst_conn_id);
	set_bits(e, RES_QPC_LOCAL_KEY_BIT, 32, r->local_key);
	set_bits(e, RES_QPC_DST_IP_BIT, 32, r->dst_ip);
	set_bits(e, RES_QPC_SRC_IP_BIT, 32, r->src_ip);
	put_mac(e, RES_QPC_DST_MAC_31_0_BIT, RES_QPC_DST_MAC_47_32_BIT,
		r->dst_mac);
	set_bits(e, RES_QPC_EXPECTED_PSN_BIT, 24, r->expected_psn);
	set_bits(e, RES_QPC_TRANSPORT_BIT, 1, QPC_TRANSPORT_RC);
	set_bits(e, RES_QPC_SOB_EN_BIT, 1,
		 !!(r->flags & GAUDI_NIC_RES_SOB_EN));
	set_bits(e, RES_QPC_VALID_BIT, 1, 1);
	memset(m, 0xFF, sizeof(m));
	mutex_lock(&c->gdev->nic.gw_lock[r->port]);
	ret = qpc_gw(c->gdev, r->port, r->conn_id, false, e, m, NULL);
	mutex_unlock(&c->gdev->nic.gw_lock[r->port]);
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_destroy(struct roce_call *c)
{
	struct drm_gaudi_nic_conn *r = &c->in.conn;
	struct gaudi_roce_port *rp = roce_port(c, &r->port);
	int ret = -EINVAL;

	if (!rp)
		return -EINVAL;
	if (roce_conn_ok(c, rp, r->port, &r->conn_id)) {
		ret = conn_end(c->gdev, r->port, r->conn_id);
		clear_bit(r->conn_id, rp->conns);
		clear_bit(r->conn_id, rp->req_set);
	}
	mutex_unlock(&rp->lock);
	return ret;
}

/* [addr, addr + size) inside one of the caller's mappings, aligned. */
static bool roce_va_ok(struct roce_call *c, u64 addr, u64 size)
{
	if (!addr || (addr & (GAUDI_NIC_CACHE_LINE - 1)) ||
	    !c->gfile->ctx || !gaudi_mem_range_mapped(c->gfile->ctx, addr,
						      size)) {
		gaudi_dbg(c->gdev, IOCTL, "NIC: 0x%llx+0x%llx is not the caller's mapped memory\n",
			  addr, size);
		return false;
	}
	return true;
}

/*
 * REG_MR: a region of one of the caller's host mappings for the peer of
 * one of its connections.  The mapping is held first, so it cannot go
 * while the entry is written.
 */
static int roce_reg_mr(struct roce_call *c)
{
	struct drm_gaudi_nic_mr *r = &c->in.mr;
	struct gaudi_device *gdev = c->gdev;
	u32 e[GAUDI_NIC_MR_SIZE / 4];
	struct gaudi_roce_port *rp;
	struct gaudi_roce_mr *mr;
	struct gaudi_map *map;
	u32 idx, key;
	int ret;

	if (r->flags || memchr_inv(r->reserved, 0, sizeof(r->reserved)) ||
	    !r->access || (r->access & ~(GAUDI_NIC_MR_REMOTE_WRITE |
					 GAUDI_NIC_MR_REMOTE_READ)) ||
	    !r->length || r->addr + r->length < r->addr) {
		gaudi_dbg(gdev, IOCTL, "NIC: bad region\n");
		return -EINVAL;
	}
	rp = roce_port(c, &r->port);
	if (!rp)
		return -EINVAL;
	ret = -EINVAL;
	if (!roce_conn_ok(c, rp, r->port, &r->conn_id) || !c->gfile->ctx)
		goto out;
	for (idx = 0; idx < GAUDI_NIC_MAX_MR; idx++)
		if (!rp->mrs[idx].map && !rp->mrs[idx].parked &&
		    !rp->mrs[idx].verbs)
			break;
	if (idx == GAUDI_NIC_MAX_MR) {
		gaudi_dbg(gdev, IOCTL, "NIC%u: no free region slot\n", r->port);
		ret = -ENOSPC;
		goto out;
	}
	mr = &rp->mrs[idx];
	map = gaudi_mem_hold(c->gfile->ctx, r->addr, r->length);
	if (!map) {
		gaudi_dbg(gdev, IOCTL, "NIC%u: region 0x%llx+0x%llx is not in one of the caller's host mappings\n",
			  r->port, r->addr, r->length);
		goto out;
	}
	/* Random above the slot's bits, and not the slot's previous key. */
	do {
		key = (get_random_u32() & ~(GAUDI_NIC_MAX_MR - 1)) | idx;
	} while (key == mr->key);
	e[0] = lower_32_bits(r->addr);
	e[1] = upper_32_bits(r->addr);
	e[2] = lower_32_bits(r->length);
	e[3] = upper_32_bits(r->length);
	e[4] = key;
	e[5] = r->conn_id | (u32)rp->gen[r->conn_id] << MR_W5_GEN_SHIFT;
	e[6] = MR_W6_VALID |
	       (r->access & GAUDI_NIC_MR_REMOTE_WRITE ? MR_W6_REMOTE_WRITE : 0) |
	       (r->access & GAUDI_NIC_MR_REMOTE_READ ? MR_W6_REMOTE_READ : 0);
	e[7] = 0;
	ret = tbl_write(gdev, r->port, QPC_GW_TABLE_MR, idx, e, NULL);
	if (ret) {
		mr_clear(gdev, r->port, idx);
		gaudi_mem_unhold(c->gfile->ctx, map);
		goto out;
	}
	mr->map = map;
	mr->ctx = c->gfile->ctx;
	mr->key = key;
	mr->qpn = r->conn_id;
	c->out.key.key = key;
out:
	mutex_unlock(&rp->lock);
	return ret;
}

/* DEREG_MR: the caller's region of a key ends; its slot stays parked. */
static int roce_dereg_mr(struct roce_call *c)
{
	struct drm_gaudi_nic_mr_dereg *d = &c->in.dereg;
	struct gaudi_roce_port *rp = roce_port(c, &d->port);
	u32 idx;
	int ret = -ENOENT;

	if (!rp)
		return -EINVAL;
	idx = array_index_nospec(d->key & (GAUDI_NIC_MAX_MR - 1),
				 GAUDI_NIC_MAX_MR);
	if (rp->mrs[idx].map && rp->mrs[idx].key == d->key) {
		mr_drop(c->gdev, d->port, idx, true, true);
		ret = 0;
	} else {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: no region of key 0x%x\n",
			  d->port, d->key);
	}
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_wq_set(struct roce_call *c)
{
	struct drm_gaudi_nic_wq *w = &c->in.wq;
	struct gaudi_device *gdev = c->gdev;
	struct gaudi_roce_port *rp;
	u64 qsize, base;
	int ret = -EINVAL;

	if (w->flags || !is_power_of_2(w->entries) ||
	    w->entries < GAUDI_NIC_WQ_MIN_ENTRIES ||
	    w->entries > GAUDI_NIC_WQ_MAX_ENTRIES || !w->num_wqs ||
	    w->num_wqs > GAUDI_NIC_MAX_CONN) {
		gaudi_dbg(gdev, IOCTL, "NIC: bad send queue size\n");
		return -EINVAL;
	}
	qsize = (u64)w->entries * GAUDI_NIC_SEND_WQE_SIZE;
	if (!roce_va_ok(c, w->addr, qsize * w->num_wqs))
		return -EINVAL;
	/* The base the hardware adds wq_base_address * qsize to. */
	base = w->addr - ((u64)GAUDI_ROCE_SQ_IDX << GAUDI_ROCE_SQ_SEL) * qsize;
	rp = roce_port(c, &w->port);
	if (!rp)
		return -EINVAL;
	if (rp->wq_set) {
		ret = -EBUSY;
		goto out;
	}
	WREG32(gdev, GAUDI_NIC_TXE_REG(w->port, USER_SQ_LOG),
	       ilog2(qsize / GAUDI_NIC_CACHE_LINE));
	WREG32(gdev, GAUDI_NIC_TXE_REG(w->port, USER_SQ_HI),
	       upper_32_bits(base));
	WREG32(gdev, GAUDI_NIC_TXE_REG(w->port, USER_SQ_LO),
	       lower_32_bits(base));
	rp->wq_set = true;
	rp->wq_num = w->num_wqs;
	rp->wq_entries = w->entries;
	ret = 0;
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_wq_unset(struct roce_call *c)
{
	struct gaudi_roce_port *rp;
	int ret = 0;

	if (c->in.port.flags)
		return -EINVAL;
	rp = roce_port(c, &c->in.port.port);
	if (!rp)
		return -EINVAL;
	if (!rp->wq_set)
		ret = -EINVAL;
	else if (!bitmap_empty(rp->req_set, GAUDI_NIC_MAX_CONN))
		ret = -EBUSY;
	if (!ret) {
		port_unset_wq(c->gdev, c->in.port.port);
		rp->wq_set = false;
	} else {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: WQ_UNSET refused (%d)\n",
			  c->in.port.port, ret);
	}
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_cq_set(struct roce_call *c)
{
	struct drm_gaudi_nic_cq *q = &c->in.cq;
	struct gaudi_device *gdev = c->gdev;
	struct gaudi_roce_port *rp;
	u32 port = q->port;
	int ret = 0;

	if (q->flags || q->pad || !is_power_of_2(q->entries) ||
	    q->entries < GAUDI_NIC_CQ_MIN_ENTRIES ||
	    q->entries > GAUDI_NIC_CQ_MAX_ENTRIES) {
		gaudi_dbg(gdev, IOCTL, "NIC: bad completion queue size\n");
		return -EINVAL;
	}
	if (!roce_va_ok(c, q->addr, (u64)q->entries * GAUDI_NIC_CQE_SIZE))
		return -EINVAL;
	rp = roce_port(c, &port);
	if (!rp)
		return -EINVAL;
	if (rp->cq_set) {
		ret = -EBUSY;
		goto out;
	}
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_CFG0), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_BASE_ADDR_31_7),
	       lower_32_bits(q->addr) >> 7);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_BASE_ADDR_49_32),
	       upper_32_bits(q->addr));
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_MASK), q->entries - 1);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_PRODUCER_INDEX), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_CONSUMER_INDEX), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_WRITE_INDEX), 0);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_CFG0),
	       ROCE_CQ_CFG0_ENABLE);
	rp->cq_set = true;
	rp->cq_entries = q->entries;
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_cq_unset(struct roce_call *c)
{
	struct gaudi_roce_port *rp;
	int ret = 0;

	if (c->in.port.flags)
		return -EINVAL;
	rp = roce_port(c, &c->in.port.port);
	if (!rp)
		return -EINVAL;
	if (rp->cq_set && !rp->cq_verbs) {
		port_unset_cq(c->gdev, c->in.port.port);
		rp->cq_set = false;
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_cq_ci(struct roce_call *c)
{
	struct drm_gaudi_nic_cq_ci *q = &c->in.ci;
	struct gaudi_roce_port *rp = roce_port(c, &q->port);
	int ret = -EINVAL;
	u32 pi, ci;

	if (!rp)
		return -EINVAL;
	if (!rp->cq_set || rp->cq_verbs)
		goto out;
	pi = RREG32(c->gdev, rxe_reg(q->port, NIC_RXE_CQ_PRODUCER_INDEX));
	ci = RREG32(c->gdev, rxe_reg(q->port, NIC_RXE_CQ_CONSUMER_INDEX));
	/* Only forward, and not beyond what was written. */
	if (q->ci - ci > pi - ci) {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: CQ CI %u outside %u..%u\n",
			  q->port, q->ci, ci, pi);
		goto out;
	}
	WREG32(c->gdev, rxe_reg(q->port, NIC_RXE_CQ_CONSUMER_INDEX),
	       q->ci);
	c->out.pi.pi = pi;
	ret = 0;
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_doorbell(struct roce_call *c)
{
	struct drm_gaudi_nic_doorbell *d = &c->in.db;
	struct gaudi_roce_port *rp;
	int ret = -EINVAL;

	if (d->flags)
		return -EINVAL;
	rp = roce_port(c, &d->port);
	if (!rp)
		return -EINVAL;
	if (!roce_conn_ok(c, rp, d->port, &d->conn_id))
		goto out;
	if (!test_bit(d->conn_id, rp->req_set) ||
	    (c->verbs ? !rp->v_open || d->pi >= rp->v_sq_entries :
			!rp->wq_set || d->pi >= rp->wq_entries)) {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: doorbell %u of connection %u refused\n",
			  d->port, d->pi, d->conn_id);
		goto out;
	}
	/* The unsecured doorbell is the users'; gaudi_en rings the secured. */
	WREG32(c->gdev, qpc_reg(d->port, NIC_QPC_UNSECURED_DOORBELL_PI), d->pi);
	WREG32(c->gdev, qpc_reg(d->port, NIC_QPC_UNSECURED_DOORBELL_QPN),
	       QPC_DOORBELL_BUSY | d->conn_id);
	ret = 0;
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_link(struct roce_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	unsigned int p;
	u32 up = 0;

	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
		u32 lanes = GAUDI_NIC_PORT_LANES(p) << MAC_REC_STS0_LINK_SHIFT;
		u32 sts;

		if (!(gdev->nic.ports_mask & BIT(p)))
			continue;
		sts = RREG32(gdev, GAUDI_NIC_PORT_MACRO(p) +
			     NIC_MAC_CORE_OFFSET + NIC_MAC_CORE_MAC_REC_STS0);
		if ((sts & lanes) == lanes)
			up |= BIT(p);
	}
	c->out.link.ports_mask = gdev->nic.ports_mask;
	c->out.link.ext_ports_mask = gdev->nic.ext_ports_mask;
	c->out.link.up_mask = up;
	for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++)
		memcpy(c->out.link.mac[p], gdev->nic.mac[p], ETH_ALEN);
	return 0;
}

/* RoCE counter @idx of the COUNTERS caller's port. */
static u64 roce_cnt(struct roce_call *c, unsigned int idx)
{
	return gaudi_nic_roce_counter(c->gdev, c->in.port.port, idx);
}

static int roce_counters(struct roce_call *c)
{
	struct drm_gaudi_nic_counters *o = &c->out.cnt;
	struct gaudi_device *gdev = c->gdev;
	u32 port;

	/* roce_cnt() reads the port from the call, clamped here. */
	if (c->in.port.flags || !roce_port_ok(gdev, &c->in.port.port)) {
		gaudi_dbg(gdev, IOCTL, "NIC: COUNTERS of port %u refused\n",
			  c->in.port.port);
		return -EINVAL;
	}
	port = c->in.port.port;
	o->rx_octets = gaudi_nic_mac_counter(gdev, port, true,
					     STAT_RX_ETHERSTATSOCTETS);
	o->rx_frames = gaudi_nic_mac_counter(gdev, port, true,
					     STAT_RX_ETHERSTATSPKTS);
	o->rx_unicast = gaudi_nic_mac_counter(gdev, port, true,
					      STAT_RX_IFINUCASTPKTS);
	o->rx_drops = gaudi_nic_mac_counter(gdev, port, true,
					    STAT_RX_ETHERSTATSDROPEVENTS);
	o->tx_octets = gaudi_nic_mac_counter(gdev, port, false,
					     STAT_TX_ETHERSTATSOCTETS);
	o->tx_frames = gaudi_nic_mac_counter(gdev, port, false,
					     STAT_TX_ETHERSTATSPKTS);
	o->tx_unicast = gaudi_nic_mac_counter(gdev, port, false,
					      STAT_TX_IFOUTUCASTPKTS);
	o->tx_errors = gaudi_nic_mac_counter(gdev, port, false,
					     STAT_TX_IFOUTERRORS);
	o->roce_flags = GAUDI_NIC_COUNTERS_ROCE;
	o->roce_tx_pkts = roce_cnt(c, ROCE_CNT_TX_PKTS);
	o->roce_rx_pkts = roce_cnt(c, ROCE_CNT_RX_PKTS);
	o->roce_retransmits = roce_cnt(c, ROCE_CNT_RETRANSMITS);
	o->roce_acks_tx = roce_cnt(c, ROCE_CNT_TX_ACKS);
	o->roce_naks_tx = roce_cnt(c, ROCE_CNT_TX_NAKS);
	o->roce_acks_rx = roce_cnt(c, ROCE_CNT_RX_ACKS);
	o->roce_naks_rx = roce_cnt(c, ROCE_CNT_RX_NAKS);
	o->roce_icrc_errors = roce_cnt(c, ROCE_CNT_ICRC_ERRORS);
	o->roce_bad_frames = roce_cnt(c, ROCE_CNT_BAD_FRAMES);
	o->roce_duplicates = roce_cnt(c, ROCE_CNT_DUPLICATES);
	o->roce_timeouts = roce_cnt(c, ROCE_CNT_TIMEOUTS);
	o->roce_req_qp_errors = roce_cnt(c, ROCE_CNT_REQ_QP_ERRORS);
	o->roce_res_qp_errors = roce_cnt(c, ROCE_CNT_RES_QP_ERRORS);
	o->roce_cq_overflows = roce_cnt(c, ROCE_CNT_CQ_OVERFLOWS);
	return 0;
}

static int roce_conn_state(struct roce_call *c)
{
	struct drm_gaudi_nic_conn *r = &c->in.conn;
	u32 req[GAUDI_NIC_REQ_QPC_SIZE / 4], res[GAUDI_NIC_RES_QPC_SIZE / 4];
	struct drm_gaudi_nic_conn_state *s = &c->out.state;
	struct gaudi_roce_port *rp = roce_port(c, &r->port);
	int ret = -EINVAL;

	if (!rp)
		return -EINVAL;
	if (!roce_conn_ok(c, rp, r->port, &r->conn_id))
		goto out;
	mutex_lock(&c->gdev->nic.gw_lock[r->port]);
	ret = qpc_gw(c->gdev, r->port, r->conn_id, true, NULL, NULL, req);
	if (!ret)
		ret = qpc_gw(c->gdev, r->port, r->conn_id, false, NULL, NULL,
			     res);
	mutex_unlock(&c->gdev->nic.gw_lock[r->port]);
	if (ret)
		goto out;
	if (get_bits(req, REQ_QPC_VALID_BIT, 1))
		s->flags |= GAUDI_NIC_CONN_REQ_VALID;
	if (get_bits(res, RES_QPC_VALID_BIT, 1))
		s->flags |= GAUDI_NIC_CONN_RES_VALID;
	if (get_bits(req, REQ_QPC_ERROR_BIT, 1))
		s->flags |= GAUDI_NIC_CONN_REQ_ERROR;
	if (get_bits(res, RES_QPC_CONN_STATE_BIT, 2) == RES_QPC_CONN_ERROR)
		s->flags |= GAUDI_NIC_CONN_RES_ERROR;
	s->next_psn = get_bits(req, REQ_QPC_NEXT_PSN_BIT, 24);
	s->expected_psn = get_bits(res, RES_QPC_EXPECTED_PSN_BIT, 24);
	s->ci = get_bits(req, REQ_QPC_CONSUMER_INDEX_BIT, 22);
out:
	mutex_unlock(&rp->lock);
	return ret;
}

static int roce_app_params(struct roce_call *c)
{
	struct drm_gaudi_nic_app_params *o = &c->out.app;
	struct gaudi_roce_port *rp;
	unsigned long last;

	if (c->in.port.flags)
		return -EINVAL;
	rp = roce_port(c, &c->in.port.port);
	if (!rp)
		return -EINVAL;
	o->max_num_of_qps = GAUDI_NIC_MAX_CONN;
	o->num_allocated_qps = GAUDI_NIC_FIRST_CONN +
			       bitmap_weight(rp->conns, GAUDI_NIC_MAX_CONN);
	last = find_last_bit(rp->conns, GAUDI_NIC_MAX_CONN);
	o->max_allocated_qp_idx = last < GAUDI_NIC_MAX_CONN ? last :
				  GAUDI_NIC_FIRST_CONN - 1;
	o->max_cq_size = GAUDI_NIC_CQ_MAX_ENTRIES * GAUDI_NIC_CQE_SIZE;
	o->max_num_of_cqs = 1;
	o->speed = GAUDI_NIC_SPEED_MBPS;
	mutex_unlock(&rp->lock);
	return 0;
}

/*
 * @out_min: the least output room (0: @out_size); the op writes
 * min(output_size, @out_size) bytes (COUNTERS grew in ABI 1.3's
 * lifetime: a caller built before its RoCE part passes the old size).
 */
struct roce_op {
	int (*fn)(struct roce_call *c);
	u32 in_size, out_size, out_min;
};

static const struct roce_op roce_ops[] = {
	[GAUDI_NIC_OP_ALLOC_CONN] = { roce_alloc_conn,
		sizeof(struct drm_gaudi_nic_port),
		sizeof(struct drm_gaudi_nic_conn_id) },
	[GAUDI_NIC_OP_SET_REQ_CONN_CTX] = { roce_set_req,
		sizeof(struct drm_gaudi_nic_req_ctx), 0 },
	[GAUDI_NIC_OP_SET_RES_CONN_CTX] = { roce_set_res,
		sizeof(struct drm_gaudi_nic_res_ctx), 0 },
	[GAUDI_NIC_OP_DESTROY_CONN] = { roce_destroy,
		sizeof(struct drm_gaudi_nic_conn), 0 },
	[GAUDI_NIC_OP_USER_WQ_SET] = { roce_wq_set,
		sizeof(struct drm_gaudi_nic_wq), 0 },
	[GAUDI_NIC_OP_USER_WQ_UNSET] = { roce_wq_unset,
		sizeof(struct drm_gaudi_nic_port), 0 },
	[GAUDI_NIC_OP_USER_CQ_SET] = { roce_cq_set,
		sizeof(struct drm_gaudi_nic_cq), 0 },
	[GAUDI_NIC_OP_USER_CQ_UNSET] = { roce_cq_unset,
		sizeof(struct drm_gaudi_nic_port), 0 },
	[GAUDI_NIC_OP_USER_CQ_UPDATE_CI] = { roce_cq_ci,
		sizeof(struct drm_gaudi_nic_cq_ci),
		sizeof(struct drm_gaudi_nic_cq_pi) },
	[GAUDI_NIC_OP_GET_USER_APP_PARAMS] = { roce_app_params,
		sizeof(struct drm_gaudi_nic_port),
		sizeof(struct drm_gaudi_nic_app_params) },
	[GAUDI_NIC_OP_DOORBELL] = { roce_doorbell,
		sizeof(struct drm_gaudi_nic_doorbell), 0 },
	[GAUDI_NIC_OP_LINK_STATE] = { roce_link, 0,
		sizeof(struct drm_gaudi_nic_link) },
	[GAUDI_NIC_OP_COUNTERS] = { roce_counters,
		sizeof(struct drm_gaudi_nic_port),
		sizeof(struct drm_gaudi_nic_counters),
		GAUDI_NIC_COUNTERS_SIZE_V1 },
	[GAUDI_NIC_OP_CONN_STATE] = { roce_conn_state,
		sizeof(struct drm_gaudi_nic_conn),
		sizeof(struct drm_gaudi_nic_conn_state) },
	[GAUDI_NIC_OP_REG_MR] = { roce_reg_mr,
		sizeof(struct drm_gaudi_nic_mr),
		sizeof(struct drm_gaudi_nic_mr_key) },
	[GAUDI_NIC_OP_DEREG_MR] = { roce_dereg_mr,
		sizeof(struct drm_gaudi_nic_mr_dereg), 0 },
};

/* Copy in @size bytes of @len: shorter is zero-extended, longer zero. */
static int roce_copy_in(struct gaudi_device *gdev, void *dst, u32 len,
			u64 uptr, u32 size)
{
	u8 __user *p = u64_to_user_ptr(uptr);
	int ret;

	if (size > GAUDI_NIC_IO_MAX)
		return -EINVAL;
	if (size > len) {
		ret = check_zeroed_user(p + len, size - len);
		if (ret <= 0) {
			gaudi_dbg(gdev, IOCTL, "NIC: input beyond the struct not zero\n");
			return ret ? ret : -EINVAL;
		}
	}
	if (copy_from_user(dst, p, min(len, size)))
		return -EFAULT;
	return 0;
}

int gaudi_nic_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct gaudi_device *gdev = to_gaudi(drm);
	struct drm_gaudi_nic *a = data;
	const struct roce_op *op;
	struct roce_call *c;
	u32 out_len;
	int idx, ret;

	if (a->ctx_id || a->flags || a->pad ||
	    memchr_inv(a->reserved, 0, sizeof(a->reserved)) ||
	    a->op >= ARRAY_SIZE(roce_ops) || !roce_ops[a->op].fn) {
		gaudi_dbg(gdev, IOCTL, "NIC: bad op %u or reserved bits\n",
			  a->op);
		return -EINVAL;
	}
	op = &roce_ops[a->op];
	out_len = min(a->output_size, op->out_size);
	if (out_len < (op->out_min ? op->out_min : op->out_size) ||
	    (op->out_size && !a->output_ptr) ||
	    (op->in_size && !a->input_size)) {
		gaudi_dbg(gdev, IOCTL, "NIC: op %u: input or output too small\n",
			  a->op);
		return -EINVAL;
	}
	if (!file->driver_priv)
		return -EINVAL;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->gdev = gdev;
	c->gfile = file->driver_priv;
	ret = roce_copy_in(gdev, &c->in, op->in_size, a->input_ptr,
			   a->input_size);
	if (ret)
		goto out;
	ret = gaudi_hw_enter(gdev, &idx);
	if (ret)
		goto out;
	ret = op->fn(c);
	if (!ret && out_len &&
	    copy_to_user(u64_to_user_ptr(a->output_ptr), &c->out, out_len)) {
		ret = -EFAULT;
		/* A QP or region the caller never learnt of is not kept. */
		if (a->op == GAUDI_NIC_OP_ALLOC_CONN) {
			c->in.conn.conn_id = c->out.conn_id.conn_id;
			roce_destroy(c);
		} else if (a->op == GAUDI_NIC_OP_REG_MR) {
			u32 port = c->in.mr.port;

			c->in.dereg.port = port;
			c->in.dereg.key = c->out.key.key;
			roce_dereg_mr(c);
		}
	}
	gaudi_hw_exit(gdev, idx);
out:
	kfree(c);
	return ret;
}

/* ---- the RDMA driver's QPs (gaudi_cn.h, struct gaudi_cn_rdma_ops) ------- */

/*
 * gaudi_ib.ko's verbs run the ioctl's ops above on a call of the holder
 * (@gfile, from its hold): the same checks of ports, QP numbers, contexts,
 * regions and keys, the same tables.  Its QPs differ in two things only:
 * their send queues are TXE base 2 (the verbs driver places them, one per
 * QP, in a reservation of the holder's VA), and it numbers them itself on
 * the device (so ALLOC_CONN takes the number it asks for).
 */
static_assert(!(GAUDI_CN_MR_REMOTE_WRITE - GAUDI_NIC_MR_REMOTE_WRITE) &&
	      !(GAUDI_CN_MR_REMOTE_READ - GAUDI_NIC_MR_REMOTE_READ));

static void v_call(struct roce_call *c, struct gaudi_device *gdev,
		   struct gaudi_file *gfile)
{
	memset(c, 0, sizeof(*c));
	c->gdev = gdev;
	c->gfile = gfile;
	c->verbs = true;
}

/* One verbs op on the device, as the ioctl runs its ops. */
static int v_run(struct roce_call *c, int (*fn)(struct roce_call *c))
{
	int idx, ret;

	ret = gaudi_hw_enter(c->gdev, &idx);
	if (ret)
		return ret;
	ret = fn(c);
	gaudi_hw_exit(c->gdev, idx);
	return ret;
}

/**
 * gaudi_roce_v_port_open() - a port serves the RDMA driver's QPs
 * @gdev: the device
 * @gfile: the holder
 * @port: the port
 * @sq_va: device VA of QP 0's send queue (QP n's at + n * queue size)
 * @sq_entries: WQEs per send queue, a power of 2, 4..4096
 * @eq: device address of the port's CQ event queue, 128-byte aligned
 * @eq_entries: its 4-byte entries, a power of 2, 32..
 *
 * The port's RXE completion queue is the verbs driver's then (its CQs
 * are the CQ table's): the compute node's USER_CQ_SET is EBUSY meanwhile.
 *
 * Return: 0, -EINVAL, -EBUSY (the port's completion queue is taken, or
 * the port is another holder's), or the device's state.
 */
int gaudi_roce_v_port_open(struct gaudi_device *gdev, struct gaudi_file *gfile,
			   unsigned int port, u64 sq_va, u32 sq_entries,
			   u64 eq, u32 eq_entries)
{
	u64 qsize = (u64)sq_entries * GAUDI_NIC_SEND_WQE_SIZE, base;
	struct gaudi_roce_port *rp;
	struct roce_call c;
	int idx, ret;

	if (!is_power_of_2(sq_entries) ||
	    sq_entries < GAUDI_NIC_WQ_MIN_ENTRIES ||
	    sq_entries > GAUDI_NIC_WQ_MAX_ENTRIES ||
	    !is_power_of_2(eq_entries) || eq_entries < 32 ||
	    (eq & (GAUDI_NIC_CACHE_LINE - 1)) ||
	    (sq_va & (GAUDI_NIC_CACHE_LINE - 1)))
		return -EINVAL;
	v_call(&c, gdev, gfile);
	ret = gaudi_hw_enter(gdev, &idx);
	if (ret)
		return ret;
	c.in.port.port = port;
	rp = roce_port(&c, &c.in.port.port);
	if (!rp) {
		ret = -EBUSY;
		goto exit;
	}
	port = c.in.port.port;
	if (rp->v_open || rp->cq_set) {
		gaudi_dbg(gdev, IOCTL, "NIC%u: completion queue taken\n", port);
		ret = -EBUSY;
		goto out;
	}
	base = sq_va - ((u64)GAUDI_ROCE_VSQ_IDX << GAUDI_ROCE_SQ_SEL) * qsize;
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, VERBS_SQ_LOG),
	       ilog2(qsize / GAUDI_NIC_CACHE_LINE));
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, VERBS_SQ_HI), upper_32_bits(base));
	WREG32(gdev, GAUDI_NIC_TXE_REG(port, VERBS_SQ_LO), lower_32_bits(base));
	port_unset_cq(gdev, port);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_MASK), eq_entries - 1);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_PI), 0);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_CI), 0);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_BASE_49_18), eq >> 18);
	WREG32(gdev, qpc_reg(port, NIC_QPC_CQ_EQ_BASE_17_7), (eq >> 7) & 0x7FF);
	/* The event interrupt is the card's MSI, as the receive ring's. */
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_MSI_ADDR(1)),
	       mmPCIE_CORE_MSI_REQ);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_MSI_DATA(1)),
	       GAUDI_NIC_PORT_MSI_IDX(port));
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_MSI_CAUSE_CLR), ~0U);
	WREG32(gdev, rxe_reg(port, NIC_RXE_CQ_CFG0), ROCE_CQ_CFG0_EQ_INT_EN);
	rp->v_open = true;
	rp->v_sq_entries = sq_entries;
	rp->cq_set = true;
	rp->cq_verbs = true;
	ret = 0;
out:
	mutex_unlock(&rp->lock);
exit:
	gaudi_hw_exit(gdev, idx);
	return ret;
}

/**
 * gaudi_roce_v_port_close() - the port stops serving the RDMA driver's QPs
 * @gdev: the device
 * @gfile: the holder
 * @port: the port
 */
void gaudi_roce_v_port_close(struct gaudi_device *gdev,
			     struct gaudi_file *gfile, unsigned int port)
{
	struct gaudi_roce_port *rp;
	struct roce_call c;
	int idx;

	v_call(&c, gdev, gfile);
	/* Without the device there are no registers to unset. */
	if (gaudi_hw_enter(gdev, &idx))
		return;
	c.in.port.port = port;
	rp = roce_port(&c, &c.in.port.port);
	if (rp) {
		if (rp->v_open) {
			port_unset_vsq(gdev, c.in.port.port);
			port_unset_eq(gdev, c.in.port.port);
			rp->v_open = false;
		}
		if (rp->cq_verbs) {
			port_unset_cq(gdev, c.in.port.port);
			rp->cq_set = false;
			rp->cq_verbs = false;
		}
		mutex_unlock(&rp->lock);
	}
	gaudi_hw_exit(gdev, idx);
}

/**
 * gaudi_roce_v_qp_claim() - a QP number of a port for the RDMA driver
 * @gdev: the device
 * @gfile: the holder
 * @port: the port
 * @qpn: GAUDI_NIC_FIRST_CONN..GAUDI_NIC_MAX_CONN - 1
 * @ext: its receive queue and CQs (its extension entry's verbs fields)
 *
 * As ALLOC_CONN: stale contexts invalidated, a new generation.
 *
 * Return: 0, -EINVAL, -EBUSY if the number is taken on the port.
 */
int gaudi_roce_v_qp_claim(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn,
			  const struct gaudi_cn_qp_ext *ext)
{
	struct roce_call c;

	if (qpn < GAUDI_NIC_FIRST_CONN || qpn >= GAUDI_NIC_MAX_CONN ||
	    !ext->rq_log || ext->rq_log > EXT_RQ_MAX_LOG ||
	    (ext->rq & (GAUDI_NIC_RECV_WQE_SIZE - 1)) ||
	    !ext->scq || ext->scq >= GAUDI_ROCE_CQT_ENTRIES ||
	    !ext->rcq || ext->rcq >= GAUDI_ROCE_CQT_ENTRIES)
		return -EINVAL;
	v_call(&c, gdev, gfile);
	c.in.port.port = port;
	c.want = qpn;
	c.vext.rq = ext->rq;
	c.vext.rq_log = ext->rq_log;
	c.vext.scq = ext->scq;
	c.vext.rcq = ext->rcq;
	return v_run(&c, roce_alloc_conn);
}

/* A CQ table entry, through the first enabled port's gateway. */
static int roce_v_cq(struct roce_call *c)
{
	struct gaudi_device *gdev = c->gdev;
	static const u32 all[GAUDI_NIC_CQT_SIZE / 4] = {
		~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U, ~0U,
	};
	u32 e[GAUDI_NIC_CQT_SIZE / 4] = {};
	struct gaudi_roce_port *rp;
	u32 port;
	int ret;

	if (!gdev->nic.ports_mask)
		return -ENODEV;
	port = __ffs(gdev->nic.ports_mask);
	c->in.port.port = port;
	rp = roce_port(c, &c->in.port.port);
	if (!rp)
		return -EBUSY;
	if (c->cq_ring) {
		e[0] = lower_32_bits(c->cq_ring);
		e[1] = (upper_32_bits(c->cq_ring) & CQT_W1_ADDR_HI) |
		       (c->cq_log << CQT_W1_LOG_SHIFT & CQT_W1_LOG);
		e[3] = CQT_W3_VALID | CQT_W3_EVENTS;
	}
	mutex_lock(&gdev->nic.gw_lock[port]);
	ret = gw_op(gdev, port, QPC_GW_TABLE_CQ << QPC_GW_CTRL_TABLE_SHIFT |
		    (c->want & QPC_GW_CTRL_QPN), GAUDI_NIC_CQT_SIZE / 4, e, all,
		    NULL, 0);
	mutex_unlock(&gdev->nic.gw_lock[port]);
	mutex_unlock(&rp->lock);
	return ret;
}

/**
 * gaudi_roce_v_cq_set() - an entry of the card's CQ table for a verbs CQ
 * @gdev: the device
 * @gfile: the holder
 * @cqn: the entry, 1..1023
 * @ring: device VA of its ring (the holder's), 32-byte aligned
 * @log: log2 of its CQEs, 1..16
 *
 * Return: 0, -EINVAL, or the gateway's error.
 */
int gaudi_roce_v_cq_set(struct gaudi_device *gdev, struct gaudi_file *gfile,
			u32 cqn, u64 ring, u32 log)
{
	struct roce_call c;

	if (!cqn || cqn >= GAUDI_ROCE_CQT_ENTRIES || !ring ||
	    (ring & (GAUDI_NIC_VCQE_SIZE - 1)) || !log || log > CQT_MAX_LOG)
		return -EINVAL;
	v_call(&c, gdev, gfile);
	c.want = cqn;
	c.cq_ring = ring;
	c.cq_log = log;
	return v_run(&c, roce_v_cq);
}

/**
 * gaudi_roce_v_cq_clear() - the CQ table entry ends
 * @gdev: the device
 * @gfile: the holder
 * @cqn: the entry
 */
void gaudi_roce_v_cq_clear(struct gaudi_device *gdev, struct gaudi_file *gfile,
			   u32 cqn)
{
	struct roce_call c;

	if (!cqn || cqn >= GAUDI_ROCE_CQT_ENTRIES)
		return;
	v_call(&c, gdev, gfile);
	c.want = cqn;
	v_run(&c, roce_v_cq);
}

/**
 * gaudi_roce_v_qp_release() - a QP of the RDMA driver ends
 * @gdev: the device
 * @gfile: the holder
 * @port: its port
 * @qpn: its number
 *
 * As DESTROY_CONN; nothing to do if a reset or the close took it already.
 */
void gaudi_roce_v_qp_release(struct gaudi_device *gdev,
			     struct gaudi_file *gfile, unsigned int port,
			     u32 qpn)
{
	struct roce_call c;

	v_call(&c, gdev, gfile);
	c.in.conn.port = port;
	c.in.conn.conn_id = qpn;
	v_run(&c, roce_destroy);
}

static int roce_v_reset(struct roce_call *c)
{
	struct drm_gaudi_nic_conn *r = &c->in.conn;
	struct gaudi_roce_port *rp = roce_port(c, &r->port);
	int ret = -EINVAL;

	if (!rp)
		return -EINVAL;
	if (roce_conn_ok(c, rp, r->port, &r->conn_id)) {
		ret = qpc_clear(c->gdev, r->port, r->conn_id);
		clear_bit(r->conn_id, rp->req_set);
	}
	mutex_unlock(&rp->lock);
	return ret;
}

/**
 * gaudi_roce_v_qp_reset() - invalidate both contexts of a QP, keep it
 * @gdev: the device
 * @gfile: the holder
 * @port: its port
 * @qpn: its number
 *
 * Return: 0, -EINVAL if it is not the holder's, or the gateway's error.
 */
int gaudi_roce_v_qp_reset(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn)
{
	struct roce_call c;

	v_call(&c, gdev, gfile);
	c.in.conn.port = port;
	c.in.conn.conn_id = qpn;
	return v_run(&c, roce_v_reset);
}

/*
 * The QP and its peer in @c->in, for either context request: struct
 * drm_gaudi_nic_res_ctx and struct drm_gaudi_nic_req_ctx begin with the
 * same fields (a common initial sequence of the union), written once
 * through the responder's.
 */
static_assert(offsetof(struct drm_gaudi_nic_res_ctx, dst_conn_id) ==
	      offsetof(struct drm_gaudi_nic_req_ctx, dst_conn_id));

static void v_peer(struct roce_call *c, unsigned int port, u32 qpn,
		   u32 dst_qpn, u32 dst_ip, u32 src_ip, const u8 *dst_mac)
{
	struct drm_gaudi_nic_res_ctx *r = &c->in.res;

	r->port = port;
	r->conn_id = qpn;
	r->dst_ip = dst_ip;
	r->src_ip = src_ip;
	memcpy(r->dst_mac, dst_mac, ETH_ALEN);
	r->dst_conn_id = dst_qpn;
}

/**
 * gaudi_roce_v_qp_set_res() - the responder context of a verbs QP
 * @gdev: the device
 * @gfile: the holder
 * @port: its port
 * @qpn: its number
 * @res: the peer
 *
 * Return: 0 or SET_RES_CONN_CTX's error.
 */
int gaudi_roce_v_qp_set_res(struct gaudi_device *gdev,
			    struct gaudi_file *gfile, unsigned int port,
			    u32 qpn, const struct gaudi_cn_res *res)
{
	struct roce_call c;

	v_call(&c, gdev, gfile);
	v_peer(&c, port, qpn, res->dst_qpn, res->dst_ip, res->src_ip,
	       res->dst_mac);
	c.in.res.expected_psn = res->epsn;
	c.res_mtu = res->path_mtu;
	c.vext.min_rnr = res->min_rnr;
	return v_run(&c, roce_set_res);
}

/**
 * gaudi_roce_v_qp_set_req() - the requester context of a verbs QP
 * @gdev: the device
 * @gfile: the holder
 * @port: its port
 * @qpn: its number
 * @req: the peer and the path
 *
 * Return: 0 or SET_REQ_CONN_CTX's error.
 */
int gaudi_roce_v_qp_set_req(struct gaudi_device *gdev,
			    struct gaudi_file *gfile, unsigned int port,
			    u32 qpn, const struct gaudi_cn_req *req)
{
	struct drm_gaudi_nic_req_ctx *r;
	struct roce_call c;

	v_call(&c, gdev, gfile);
	v_peer(&c, port, qpn, req->dst_qpn, req->dst_ip, req->src_ip,
	       req->dst_mac);
	r = &c.in.req;
	r->psn = req->psn;
	r->timeout_retry = req->timeout_retry;
	r->path_mtu = req->path_mtu;
	r->flags = GAUDI_NIC_REQ_RNR_RETRY;
	r->rnr_retry = req->rnr_retry;
	r->remote_key = req->remote_key;
	c.vext.min_rnr = req->min_rnr;
	return v_run(&c, roce_set_req);
}

/**
 * gaudi_roce_v_qp_state() - both contexts of a verbs QP
 * @gdev: the device
 * @gfile: the holder
 * @port: its port
 * @qpn: its number
 * @st: filled
 *
 * Return: 0 or CONN_STATE's error.
 */
int gaudi_roce_v_qp_state(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn,
			  struct gaudi_cn_qp_state *st)
{
	struct drm_gaudi_nic_conn_state *s;
	struct roce_call c;
	int ret;

	v_call(&c, gdev, gfile);
	c.in.conn.port = port;
	c.in.conn.conn_id = qpn;
	ret = v_run(&c, roce_conn_state);
	if (ret)
		return ret;
	s = &c.out.state;
	st->req_valid = s->flags & GAUDI_NIC_CONN_REQ_VALID;
	st->res_valid = s->flags & GAUDI_NIC_CONN_RES_VALID;
	st->req_error = s->flags & GAUDI_NIC_CONN_REQ_ERROR;
	st->res_error = s->flags & GAUDI_NIC_CONN_RES_ERROR;
	st->next_psn = s->next_psn;
	st->epsn = s->expected_psn;
	st->ci = s->ci;
	return 0;
}

/* A region entry of the RDMA driver: its key, in the slot the key names. */
static int roce_v_mr_set(struct roce_call *c)
{
	struct drm_gaudi_nic_mr *r = &c->in.mr;
	struct gaudi_roce_port *rp;
	struct gaudi_roce_mr *mr;
	u32 e[GAUDI_NIC_MR_SIZE / 4];
	u32 idx = c->want & (GAUDI_NIC_MAX_MR - 1);
	int ret = -EINVAL;

	if (!r->access || (r->access & ~(GAUDI_NIC_MR_REMOTE_WRITE |
					 GAUDI_NIC_MR_REMOTE_READ)) ||
	    !r->length || r->addr + r->length < r->addr) {
		gaudi_dbg(c->gdev, IOCTL, "NIC: bad region\n");
		return -EINVAL;
	}
	rp = roce_port(c, &r->port);
	if (!rp)
		return -EINVAL;
	if (!roce_conn_ok(c, rp, r->port, &r->conn_id))
		goto out;
	idx = array_index_nospec(idx, GAUDI_NIC_MAX_MR);
	mr = &rp->mrs[idx];
	if (mr->map || mr->parked || mr->verbs) {
		gaudi_dbg(c->gdev, IOCTL, "NIC%u: region slot %u in use\n",
			  r->port, idx);
		ret = -EBUSY;
		goto out;
	}
	e[0] = lower_32_bits(r->addr);
	e[1] = upper_32_bits(r->addr);
	e[2] = lower_32_bits(r->length);
	e[3] = upper_32_bits(r->length);
	e[4] = c->want;
	e[5] = r->conn_id | (u32)rp->gen[r->conn_id] << MR_W5_GEN_SHIFT;
	e[6] = MR_W6_VALID |
	       (r->access & GAUDI_NIC_MR_REMOTE_WRITE ? MR_W6_REMOTE_WRITE : 0) |
	       (r->access & GAUDI_NIC_MR_REMOTE_READ ? MR_W6_REMOTE_READ : 0);
	e[7] = 0;
	ret = tbl_write(c->gdev, r->port, QPC_GW_TABLE_MR, idx, e, NULL);
	if (ret) {
		mr_clear(c->gdev, r->port, idx);
		goto out;
	}
	mr->verbs = true;
	mr->key = c->want;
	mr->qpn = r->conn_id;
out:
	mutex_unlock(&rp->lock);
	return ret;
}

/**
 * gaudi_roce_v_mr_set() - a region of the RDMA driver for one of its QPs
 * @gdev: the device
 * @gfile: the holder
 * @port: the QP's port
 * @qpn: the QP
 * @key: the region's key (its slot: the low bits)
 * @start: device VA of the region, the holder's
 * @len: bytes
 * @access: GAUDI_CN_MR_REMOTE_*
 *
 * The memory is the caller's to keep mapped until gaudi_roce_v_mr_clear()
 * or the QP's release returned.
 *
 * Return: 0, -EINVAL, -EBUSY (the slot is in use or parked).
 */
int gaudi_roce_v_mr_set(struct gaudi_device *gdev, struct gaudi_file *gfile,
			unsigned int port, u32 qpn, u32 key, u64 start,
			u64 len, u32 access)
{
	struct roce_call c;

	v_call(&c, gdev, gfile);
	c.in.mr.port = port;
	c.in.mr.conn_id = qpn;
	c.in.mr.addr = start;
	c.in.mr.length = len;
	c.in.mr.access = access;
	c.want = key;
	return v_run(&c, roce_v_mr_set);
}

static int roce_v_mr_clear(struct roce_call *c)
{
	struct drm_gaudi_nic_mr_dereg *d = &c->in.dereg;
	struct gaudi_roce_port *rp = roce_port(c, &d->port);
	struct gaudi_roce_mr *mr;
	u32 idx;

	if (!rp)
		return -EINVAL;
	idx = array_index_nospec(d->key & (GAUDI_NIC_MAX_MR - 1),
				 GAUDI_NIC_MAX_MR);
	mr = &rp->mrs[idx];
	if (mr->verbs && mr->key == d->key && mr->qpn == c->want)
		mr_drop(c->gdev, d->port, idx, true, true);
	mutex_unlock(&rp->lock);
	return 0;
}

/**
 * gaudi_roce_v_mr_clear() - end a region entry of gaudi_roce_v_mr_set()
 * @gdev: the device
 * @gfile: the holder
 * @port: the port
 * @qpn: the QP it was for
 * @key: its key
 *
 * The slot stays parked until the QP ends.  Without the device (reset,
 * removal) the tables are gone with it: nothing to clear.
 */
void gaudi_roce_v_mr_clear(struct gaudi_device *gdev, struct gaudi_file *gfile,
			   unsigned int port, u32 qpn, u32 key)
{
	struct roce_call c;

	v_call(&c, gdev, gfile);
	c.in.dereg.port = port;
	c.in.dereg.key = key;
	c.want = qpn;
	v_run(&c, roce_v_mr_clear);
}

/**
 * gaudi_roce_v_doorbell() - ring a verbs QP's send queue
 * @gdev: the device
 * @gfile: the holder
 * @port: its port
 * @qpn: its number
 * @pi: the ring index after the last WQE written
 *
 * Return: 0 or DOORBELL's error.
 */
int gaudi_roce_v_doorbell(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  unsigned int port, u32 qpn, u32 pi)
{
	struct roce_call c;

	v_call(&c, gdev, gfile);
	c.in.db.port = port;
	c.in.db.conn_id = qpn;
	c.in.db.pi = pi;
	return v_run(&c, roce_doorbell);
}
