// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The isolation harness: gaudi.ko's parser in front of the device model,
 * the model set up as gaudi.ko sets up a card for one context, and an
 * oracle on the model's transaction monitor (see isolation.h).
 *
 * The oracle's idea of what a context owns is written here from the
 * hardware facts (the model's register header), not taken from the parser:
 * a parser bug must not be able to hide behind the same bug in its oracle.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../emulator/fakebus.h"
#include "isolation.h"
#include "iso_driver.h"
#include "gaudi_parser.h"
#include "gaudi1/nic.h"

const unsigned int iso_queues[] = {
	0, 1, 3, 4, 7,		/* DMA 0/1: external */
	9, 14, 20, 27, 32,	/* DMA 2..7: internal */
	33, 36, 37, 40,		/* MME */
	41, 46, 57, 72,		/* TPC */
	73, 86, 112,		/* NIC ports 0, 3, 9 */
};
const unsigned int iso_num_queues = sizeof(iso_queues) / sizeof(iso_queues[0]);

struct iso {
	struct fakebus fb;	/* first: the bus's opaque pointer */
	struct gaudi_core *g;
	struct iso_stats st;
	/* the run in progress */
	bool running, bypass, external, accepted;
	unsigned int qid;
	unsigned int cq_writes, done_writes, msi_writes, violations, exempt;
	uint64_t blocked;
	char *why;
	size_t why_len;
	/* the model's protection bits when set-up ended (see pb_open) */
	uint32_t *pb_set;
	/* CP_DMA targets placed as gaudi.ko does (gaudi_cs.c) */
	const struct gaudi_parser_cfg *cfg;
	struct { uint32_t off; uint64_t dev; } patch[16];
	unsigned int npatch;
	uint64_t sub_used;
	uint8_t sub_buf[ISO_MAX_CB];
	/* the kernel copy the parser checks and rewrites COMMITs in */
	uint8_t copy[ISO_MAX_CB];
};

/* --- what a context owns ------------------------------------------------ */

static const uint32_t sm_block[4] = {
	mmSYNC_MNGR_E_N_SOB_OBJ_0, mmSYNC_MNGR_E_S_SOB_OBJ_0,
	mmSYNC_MNGR_W_N_SOB_OBJ_0, mmSYNC_MNGR_W_S_SOB_OBJ_0,
};

#define SM_NUM_SOBS	2048
#define SM_NUM_MONS	512
/* W_S objects the driver keeps (upstream reports the first user ones). */
#define WS_FIRST_USER_SOB	144
#define WS_FIRST_USER_MON	72

/* A 32-bit register of a user SOB or monitor. */
static bool user_sm_reg(uint32_t off)
{
	unsigned int b;
	uint32_t rel;

	for (b = 0; b < 4; b++) {
		if (off < sm_block[b] || off >= sm_block[b] + SM_BLOCK_END)
			continue;
		rel = off - sm_block[b];
		if (sm_block[b] != mmSYNC_MNGR_W_S_SOB_OBJ_0)
			return true;
		if (rel < SM_MON_PAY_ADDRL(0))
			return rel / 4 >= WS_FIRST_USER_SOB;
		return (rel - SM_MON_PAY_ADDRL(0)) / 4 % SM_NUM_MONS >=
		       WS_FIRST_USER_MON;
	}
	return false;
}

/* The QMANs whose fence counters user monitors feed (gaudi.ko lists all). */
#define ISO_NUM_QM	28

static uint32_t qman_base(unsigned int i)
{
	if (i >= 18)
		return iso_qid_base(ISO_FIRST_NIC_QID + 4 * (i - 18));
	if (i < 8)
		return mmDMA0_QM_BASE + i * GAUDI_DMA_STRIDE;
	if (i == 8)
		return mmMME0_QM_BASE;
	if (i == 9)
		return mmMME2_QM_BASE;
	return mmTPC0_QM_BASE + (i - 10) * GAUDI_TPC_STRIDE;
}

static bool fence_reg(uint32_t off)
{
	unsigned int i;

	for (i = 0; i < ISO_NUM_QM; i++) {
		uint32_t b = qman_base(i);

		if (off >= b + QM_CP_FENCE_RDATA(0, 0) &&
		    off < b + QM_CP_FENCE_CNT(0, 0) + 4 * QM_CP_FENCE_STRIDE)
			return true;
	}
	return false;
}

/*
 * Registers the hardware leaves to users although the parser does not:
 * those whose protection bit, as the driver programmed it, is open (for
 * instance a DMA core's transfer registers: tensor DMA by WREG_32 on
 * silicon, the transfer itself is then checked), and the W_S sync objects
 * of the driver, which serve only the holder's own signal/wait
 * submissions (no protection bits cover sync-object arrays).  Allowed only
 * with the parser bypassed.
 */
/*
 * The register's protection bit as the driver left it: a copy of the
 * model's bits taken when set-up ends, before the submission runs.  The
 * live bits will not do: the protection-bit words are guarded by the bits
 * of the last word like any register, and in a block the driver does not
 * program (nor does upstream) they stay open, on silicon as in the model;
 * a submission that writes such a word has to be judged by the bits it
 * found, not by those it left.  The model keeps the bits inverted
 * (emulator/core/prot.h): a set bit is a protected register.
 */
#define PB_SET_BYTES	(GAUDI_CFG_SIZE / 4 / 8)

static bool pb_open(const struct iso *s, uint32_t off)
{
	uint32_t block = (off & (GAUDI_CFG_SIZE - 1)) >> 12;
	uint32_t reg = (off & 0xFFF) >> 2;

	return !((s->pb_set[block * 32 + reg / 32] >> (reg % 32)) & 1);
}

/*
 * The NIC's engine blocks (MACs, QP contexts and their gateway, doorbells,
 * receive and send engines): only the driver configures them, whatever
 * their protection bits say.  Neither driver programs those bits; what
 * keeps users out is the LBW range registers, which this rule checks.
 * The NIC QMANs (QM0/QM1 of each macro) are ordinary queue managers.
 */
static bool nic_engine_reg(uint32_t off)
{
	uint32_t m;

	if (off < GAUDI_NIC_MACRO_BASE ||
	    off >= GAUDI_NIC_MACRO(GAUDI_NIC_NUM_MACROS))
		return false;
	m = (off - GAUDI_NIC_MACRO_BASE) % GAUDI_NIC_MACRO_STRIDE;
	return m < NIC_QM0_OFFSET || m >= NIC_QM1_OFFSET + 0x2000;
}

/*
 * A NIC queue's own port's unsecured doorbell (QPC UNSECURED_DOORBELL_QPN
 * and _PI, upstream's nic0_qpc0_regs.h): the one NIC engine register a
 * user CB may write, from that port's queue only (the parser's rule, and
 * the model delivers it inside the macro, past the range registers).
 */
static bool own_doorbell(const struct iso *s, uint32_t off)
{
	unsigned int p;

	if (s->qid < ISO_FIRST_NIC_QID)
		return false;
	p = (s->qid - ISO_FIRST_NIC_QID) / 4;
	return off == GAUDI_NIC_QPC_REG(p, NIC_QPC_UNSECURED_DOORBELL_QPN) ||
	       off == GAUDI_NIC_QPC_REG(p, NIC_QPC_UNSECURED_DOORBELL_PI);
}

static bool hw_user_reg(const struct iso *s, uint32_t off)
{
	uint32_t ws = mmSYNC_MNGR_W_S_SOB_OBJ_0;

	if (off >= ws && off < ws + SM_BLOCK_END)
		return true;
	return !nic_engine_reg(off) && pb_open(s, off);
}

/*
 * The configuration of the queue's own engine (its 64 KiB register
 * window, where WREG_32 lands) that the protection bits leave open: the
 * engine's working state, e.g. an MME descriptor or a TPC kernel's
 * tensors.  Whatever the engine then does is checked access by access.
 */
static bool own_engine_reg(const struct iso *s, uint32_t off)
{
	uint32_t win = iso_qid_base(s->qid) & ~0xFFFFU;

	/* A NIC QMAN has no engine users configure (see own_doorbell()). */
	if (s->qid >= ISO_FIRST_NIC_QID)
		return false;

	return off >= win && off < win + 0x10000 && pb_open(s, off);
}

static bool in(uint64_t a, uint64_t len, uint64_t start, uint64_t size)
{
	return a >= start && a - start < size && len <= size - (a - start);
}

/*
 * Whether [pa, pa + len) belongs to the context; via_mmu: addr was a VA;
 * hw: judged by the hardware's rules (parser bypassed).
 */
static bool user_target(const struct iso *s, uint64_t pa, uint64_t len,
			bool write, bool via_mmu, bool hw)
{
	uint64_t i;

	if (pa >= GAUDI_HOST_PHYS_BASE && pa < GAUDI_VA_HOST_START)
		return via_mmu && in(pa - GAUDI_HOST_PHYS_BASE, len,
				     ISO_USER_BUS, ISO_USER_SIZE);
	if (in(pa, len, ISO_USER_HBM, FAKE_HBM_SIZE - ISO_USER_HBM))
		return true;
	/*
	 * The driver leaves its internal-queue CB area readable to untrusted
	 * engines (their CPs fetch the parsed copies from there); it holds
	 * only the holder's own CBs, cleared when freed.
	 */
	if (hw && !write && in(pa, len, ISO_ICB_HBM, ISO_ICB_SIZE))
		return true;
	/*
	 * The head of SRAM (the first 128 bytes, below the users' part): the
	 * HBW read ranges leave it open, as upstream's do, and gaudi.ko keeps
	 * nothing there; only the parser keeps users from reading it (a
	 * bypassed CP_DMA of it, the fuzzer's find).  The head and the users'
	 * part are contiguous, so such a read may run from one into the other
	 * (a bypassed LOAD_AND_EXE of 128 bytes at SRAM + 6, the fuzzer's
	 * find): for reads by the hardware the whole of SRAM is one range.
	 */
	if (hw && !write && in(pa, len, GAUDI_SRAM_BASE, GAUDI_SRAM_SIZE))
		return true;
	if (in(pa, len, GAUDI_SRAM_BASE + ISO_SRAM_USER,
	       GAUDI_SRAM_SIZE - ISO_SRAM_USER))
		return true;
	if (in(pa, len, GAUDI_CFG_BASE, GAUDI_CFG_SIZE) && !(pa & 3) &&
	    !(len & 3) && len) {
		for (i = 0; i < len; i += 4) {
			uint32_t off = pa - GAUDI_CFG_BASE + i;

			if (!user_sm_reg(off) && !fence_reg(off) &&
			    !own_engine_reg(s, off) && !own_doorbell(s, off) &&
			    !(hw && hw_user_reg(s, off)))
				return false;
		}
		return true;
	}
	return false;
}

static const char *kind_name(enum gaudi_initiator k)
{
	switch (k) {
	case GAUDI_INIT_QMAN: return "QMAN";
	case GAUDI_INIT_DMA: return "DMA";
	case GAUDI_INIT_MON: return "monitor";
	case GAUDI_INIT_NIC: return "NIC";
	}
	return "?";
}

static void say(struct iso *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct iso *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->why || !s->why_len || s->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(s->why, s->why_len, fmt, ap);
	va_end(ap);
}

/*
 * The driver's own traffic: PQ and kernel CB fetches, the completion, and
 * a NIC port's trusted accesses to the tables the driver gave it.
 */
static bool driver_traffic(struct iso *s, const struct gaudi_txn *t)
{
	uint64_t bus = t->pa - GAUDI_HOST_PHYS_BASE;

	if (t->kind == GAUDI_INIT_NIC && t->secure &&
	    t->index < GAUDI_NIC_NUM_PORTS && t->addr == t->pa)
		return in(t->pa, t->len, ISO_NIC_HBM(t->index),
			  ISO_NIC_HBM_SIZE);

	if (t->kind != GAUDI_INIT_QMAN || t->addr != t->pa)
		return false;
	if (t->pa >= GAUDI_HOST_PHYS_BASE && t->pa < GAUDI_VA_HOST_START) {
		if (!t->write &&
		    (in(bus, t->len, ISO_PQ_BUS, 16U << ISO_PQ_LOG2) ||
		     in(bus, t->len, ISO_KCB_BUS, ISO_MAX_CB + 64)))
			return true;
		if (t->write && s->external &&
		    in(bus, t->len, ISO_CQ_BUS, 4096))
			return ++s->cq_writes <= 1;
		if (t->write && s->external &&
		    in(bus, t->len, ISO_DONE_BUS, 4 * 128))
			return ++s->done_writes <= 1;
		return false;
	}
	if (!t->write && !s->external &&
	    in(t->pa, t->len, ISO_ICB_HBM, ISO_ICB_SIZE))
		return true;
	/* The parsed copies of CP_DMA targets, from any queue. */
	if (!t->write && s->sub_used &&
	    in(t->pa, t->len, ISO_SUB_HBM, s->sub_used))
		return true;
	if (t->write && s->external && t->len == 4 &&
	    t->pa == GAUDI_CFG_BASE + mmPCIE_CORE_MSI_REQ)
		return ++s->msi_writes <= 1;
	return false;
}

static void on_txn(void *opaque, const struct gaudi_txn *t)
{
	struct iso *s = opaque;

	if (!s->running)
		return;
	s->st.txns++;
	if (t->result != GAUDI_TXN_OK) {
		s->blocked++;
		s->st.blocked++;
		return;
	}
	if (driver_traffic(s, t))
		return;
	/*
	 * MSG_PROT on an external queue runs trusted by the hardware's
	 * design (it writes the driver's completion): only the parser keeps
	 * users from it, so with the parser bypassed it is not counted.
	 */
	if (s->bypass && s->external && t->kind == GAUDI_INIT_QMAN &&
	    t->secure && t->write) {
		s->exempt++;
		return;
	}
	if (user_target(s, t->pa, t->len, t->write,
			t->addr >= GAUDI_VA_HOST_START &&
			t->addr < GAUDI_VA_HOST_END, s->bypass))
		return;
	s->violations++;
	s->st.violations++;
	say(s, "queue %u: %s %u (%s, asid %u) %s 0x%llx -> pa 0x%llx, %llu bytes",
	    s->qid, kind_name(t->kind), t->index,
	    t->secure ? "secure" : "non-secure", t->asid,
	    t->write ? "wrote" : "read", (unsigned long long)t->addr,
	    (unsigned long long)t->pa, (unsigned long long)t->len);
}

/* --- set-up as gaudi.ko does it ------------------------------------------ */

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* ASID 1: ISO_USER_VA -> the user pages, one 2 MiB page (5-hop walk). */
static void map_user(struct iso *s)
{
	uint8_t *hbm = s->fb.hbm;
	uint64_t hop0 = ISO_MMU_HOP0(1), h1 = ISO_MMU_POOL, h2 = h1 + 0x1000,
		 h3 = h1 + 0x2000, va = ISO_USER_VA;

	put64(hbm + hop0 + 8 * ((va >> 48) & 3), h1 | 1);
	put64(hbm + h1 + 8 * ((va >> 39) & 0x1FF), h2 | 1);
	put64(hbm + h2 + 8 * ((va >> 30) & 0x1FF), h3 | 1);
	put64(hbm + h3 + 8 * ((va >> 21) & 0x1FF),
	      (GAUDI_HOST_PHYS_BASE + ISO_USER_BUS) | (1U << 11) | 1);
	iso_driver_mmu(s->g, 1, hop0);
}

static bool mapped(void *priv, u64 va, u64 len)
{
	(void)priv;
	return in(va, len, ISO_USER_VA, ISO_USER_SIZE);
}

/*
 * The user's memory at @addr as the model holds it (what gaudi.ko's
 * gaudi_cs_snapshot() reads), or NULL.
 */
static const uint8_t *user_bytes(struct iso *s, uint64_t addr, uint32_t len)
{
	if (in(addr, len, ISO_USER_VA, ISO_USER_SIZE))
		return s->fb.host + ISO_USER_BUS + (addr - ISO_USER_VA);
	if (in(addr, len, GAUDI_SRAM_BASE + ISO_SRAM_USER,
	       GAUDI_SRAM_SIZE - ISO_SRAM_USER))
		return s->fb.sram + (addr - GAUDI_SRAM_BASE);
	if (in(addr, len, ISO_USER_HBM, FAKE_HBM_SIZE - ISO_USER_HBM))
		return s->fb.hbm + addr;
	return NULL;
}

/*
 * The parser's cfg->cp_dma, as gaudi.ko's gaudi_cs_cp_dma(): copy the
 * target from the user's memory, parse the copy as a lower CB, place it
 * in the driver's HBM and remember to point the packet at it.
 */
static int iso_cp_dma(void *priv, u32 offset, u64 addr, u32 len)
{
	struct iso *s = priv;
	struct gaudi_parser_cfg lower = *s->cfg;
	struct gaudi_parser_err err;
	const uint8_t *src;
	uint64_t dev;
	int ret;

	if (s->npatch >= sizeof(s->patch) / sizeof(s->patch[0]) ||
	    len > ISO_MAX_CB || len > ISO_SUB_SIZE - s->sub_used)
		return -EINVAL;
	src = user_bytes(s, addr, len);
	if (!src)
		return -EINVAL;
	memcpy(s->sub_buf, src, len);
	lower.lower = true;
	lower.cp_dma = NULL;
	lower.rewrite = NULL;
	lower.read = NULL;
	ret = gaudi_parse_cb(&lower, s->sub_buf, len, &err);
	if (ret)
		return ret;
	dev = ISO_SUB_HBM + s->sub_used;
	memcpy(s->fb.hbm + dev, s->sub_buf, len);
	s->sub_used += (len + 255) & ~255U;
	s->patch[s->npatch].off = offset;
	s->patch[s->npatch].dev = dev;
	s->npatch++;
	return 0;
}

/* The parser's cfg->read, as gaudi.ko's gaudi_cs_read(). */
static int iso_read(void *priv, u64 addr, u32 len, void *out)
{
	const uint8_t *src = user_bytes(priv, addr, len);

	if (!src)
		return -EINVAL;
	memcpy(out, src, len);
	return 0;
}

/* The parser's cfg->rewrite, as gaudi.ko's gaudi_cs_rewrite(). */
static int iso_rewrite(void *priv, u32 offset, const void *pkts, u32 len)
{
	struct iso *s = priv;

	if (offset > ISO_MAX_CB || len > ISO_MAX_CB - offset)
		return -EINVAL;
	memcpy(s->copy + offset, pkts, len);
	return 0;
}

static enum gaudi_parser_engine engine_of(unsigned int qid)
{
	if (qid >= ISO_FIRST_NIC_QID)
		return GAUDI_ENGINE_NIC;
	if (qid < 33)
		return GAUDI_ENGINE_DMA;
	if (qid < 41)
		return GAUDI_ENGINE_MME;
	return GAUDI_ENGINE_TPC;
}

struct iso *iso_new(void)
{
	/*
	 * A runaway CB (a REPEAT loop) stops after 64 Ki packets instead of
	 * 1 Mi: the same outcome, seconds sooner under the sanitizers.
	 */
	const struct gaudi_identity id = { .cb_max_work = 1U << 16 };
	struct iso *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->g = fakebus_new_id(&s->fb, &id);
	s->fb.quiet = true;
	s->pb_set = malloc(PB_SET_BYTES);
	if (!s->pb_set || !s->g->prot.pb)
		abort();
	s->g->bus.txn = on_txn;
	return s;
}

void iso_free(struct iso *s)
{
	fakebus_free(&s->fb);
	free(s->pb_set);
	free(s);
}

/* Drop what the previous run wrote: runs stay independent and small. */
static void forget(struct iso *s)
{
	madvise(s->fb.host, FAKE_HOST_SIZE, MADV_DONTNEED);
	madvise(s->fb.sram, GAUDI_BAR0_SIZE, MADV_DONTNEED);
	madvise(s->fb.hbm, FAKE_HBM_SIZE, MADV_DONTNEED);
}

unsigned int iso_run(struct iso *s, const uint8_t *data, size_t size,
		     bool bypass, char *why, size_t why_len)
{
	struct gaudi_parser_cfg cfg = { 0 };
	struct gaudi_parser_err err = { 0 };
	uint32_t fence_qm[ISO_NUM_QM], kcb_len, f, i, l;
	const uint8_t *umem = NULL;
	size_t umem_len = 0;
	uint64_t kcb_dev;
	struct gaudi_core *g = s->g;
	uint8_t *kcb;
	int ret;

	s->why = why;
	s->why_len = why_len;
	if (why && why_len)
		why[0] = 0;
	s->violations = 0;
	s->blocked = 0;
	s->cq_writes = 0;
	s->done_writes = 0;
	s->msi_writes = 0;
	s->exempt = 0;
	s->accepted = false;
	if (size < 2)
		return 0;
	s->st.runs++;
	s->qid = iso_queues[data[0] % iso_num_queues];
	s->external = s->qid < 8;
	s->bypass = bypass;
	s->npatch = 0;
	s->sub_used = 0;
	if ((data[1] & ISO_FLAG_USER_CB) && size >= 6) {
		memcpy(&l, data + 2, 4);
		data += 6;
		size -= 6;
		if (l > size)
			l = size;
		umem = data + l;
		umem_len = size - l;
		if (umem_len > ISO_MAX_CB)
			umem_len = ISO_MAX_CB;
		size = l;
	} else {
		data += 2;
		size -= 2;
	}
	if (size > ISO_MAX_CB)
		size = ISO_MAX_CB;

	gaudi_core_reset(g);
	forget(s);
	/* Another process's page and the kernel's data: never touched. */
	memset(s->fb.host + ISO_CANARY_BUS, 0xC5, 4096);
	iso_driver_init(g);
	map_user(s);
	memcpy(s->pb_set, g->prot.pb, PB_SET_BYTES);
	if (umem_len) {
		memcpy(s->fb.host + ISO_USER_BUS, umem, umem_len);
		memcpy(s->fb.sram + ISO_SRAM_CB, umem, umem_len);
		memcpy(s->fb.hbm + ISO_USER_HBM, umem, umem_len);
	}

	for (i = 0; i < ISO_NUM_QM; i++)
		fence_qm[i] = qman_base(i);
	cfg.queue = s->qid;
	cfg.qm_base = iso_qid_base(s->qid);
	cfg.stream = iso_qid_stream(s->qid);
	cfg.engine = engine_of(s->qid);
	if (cfg.engine == GAUDI_ENGINE_NIC)
		cfg.nic_port = (s->qid - ISO_FIRST_NIC_QID) / 4;
	cfg.external = s->external;
	cfg.fence_qm = fence_qm;
	cfg.num_fence_qm = ISO_NUM_QM;
	cfg.mapped = mapped;
	cfg.cp_dma = s->external ? NULL : iso_cp_dma;	/* as gaudi.ko */
	cfg.rewrite = iso_rewrite;
	cfg.read = s->external ? NULL : iso_read;	/* as gaudi.ko */
	cfg.priv = s;
	s->cfg = &cfg;
	memcpy(s->copy, data, size);
	ret = gaudi_parse_cb(&cfg, s->copy, size, &err);
	if (ret && !bypass) {
		s->st.refused++;
		if (why && why_len)
			snprintf(why, why_len, "refused at 0x%x: %s", err.offset,
				 err.reason ? err.reason : "?");
		return 0;
	}
	s->accepted = !ret;
	if (!ret)
		s->st.accepted++;

	/*
	 * The kernel copy: in host memory with the completion appended on
	 * external queues, in the driver's HBM for internal ones.
	 */
	if (s->external) {
		kcb = s->fb.host + ISO_KCB_BUS;
		kcb_dev = GAUDI_HOST_PHYS_BASE + ISO_KCB_BUS;
	} else {
		kcb = s->fb.hbm + ISO_ICB_HBM;
		kcb_dev = ISO_ICB_HBM;
	}
	/* Parsed: the rewritten copy; bypassed: the user's own bytes. */
	memcpy(kcb, bypass ? data : s->copy, size);
	/* Parsed: CP_DMAs run the copies; bypassed: the user's own CBs. */
	for (i = 0; !bypass && i < s->npatch; i++)
		put64(kcb + s->patch[i].off + 8, s->patch[i].dev);
	kcb_len = size;
	if (s->external)
		kcb_len += iso_driver_completion(kcb + size,
						 GAUDI_HOST_PHYS_BASE + ISO_DONE_BUS,
						 GAUDI_HOST_PHYS_BASE + ISO_CQ_BUS);
	s->running = true;
	iso_driver_submit(&s->fb, s->qid, ISO_PQ_BUS, ISO_PQ_LOG2, kcb_dev,
			  kcb_len);
	/* Release whatever FENCE it waits in, as other work would. */
	for (f = 0; f < 4; f++)
		gaudi_cfg_write(g, iso_qid_base(s->qid) + QM_CP_FENCE_RDATA(0, 0) +
				f * QM_CP_FENCE_STRIDE +
				4 * iso_qid_stream(s->qid), 1);
	iso_driver_settle(&s->fb);
	s->running = false;

	/* Nothing outside the context changed behind the monitor's back. */
	for (i = 0; i < 4096 && !s->exempt; i++) {
		if (s->fb.host[ISO_CANARY_BUS + i] != 0xC5) {
			s->violations++;
			say(s, "canary page changed at +0x%x", i);
			break;
		}
	}
	return s->violations;
}

uint64_t iso_last_blocked(const struct iso *s)
{
	return s->blocked;
}

bool iso_last_accepted(const struct iso *s)
{
	return s->accepted;
}

const struct iso_stats *iso_stats(const struct iso *s)
{
	return &s->st;
}
