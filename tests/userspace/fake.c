// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fake system layer of the libgaudi unit tests (see fake.h).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm/gaudi_accel.h>

#include "fake.h"
#include "gaudi1/nic.h"

#define FAKE(sys) ((struct fake *)(sys)->priv)

static int f_open(const struct gaudi_sys *sys, const char *path, int flags)
{
	struct fake *f = FAKE(sys);
	int i, ret = -ENOENT;

	pthread_mutex_lock(&f->lock);
	gaudi__strcpy(f->last_open, path, sizeof(f->last_open));
	f->last_open_flags = flags;
	for (i = 0; i < f->n_nodes; i++) {
		if (!f->nodes[i].devnode || strcmp(f->nodes[i].devnode, path))
			continue;
		if (f->open_err && !strstr(path, "control"))
			ret = f->open_err;
		else
			ret = FAKE_FD_BASE + i;
		break;
	}
	if (ret >= 0)
		f->open_count++;
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static int f_close(const struct gaudi_sys *sys, int fd)
{
	struct fake *f = FAKE(sys);

	if (fd < FAKE_FD_BASE || fd >= FAKE_FD_BASE + f->n_nodes)
		return -EBADF;
	pthread_mutex_lock(&f->lock);
	f->close_count++;
	pthread_mutex_unlock(&f->lock);
	return 0;
}

static bool is_control_fd(struct fake *f, int fd)
{
	return strstr(f->nodes[fd - FAKE_FD_BASE].sysname, "control") != NULL;
}

/* Host pointer of @len bytes at device address @addr, or NULL. */
static uint8_t *dev_ptr(struct fake *f, uint64_t addr, uint64_t len)
{
	int i;

	if (addr >= FAKE_HBM_BASE &&
	    addr + len <= FAKE_HBM_BASE + FAKE_HBM_SIZE)
		return f->hbm + (addr - FAKE_HBM_BASE);
	if (addr >= FAKE_SRAM_BASE &&
	    addr + len <= FAKE_SRAM_BASE + FAKE_SRAM_SIZE)
		return f->sram + (addr - FAKE_SRAM_BASE);
	for (i = 0; i < FAKE_MAX_MAPS; i++) {
		struct fake_map *m = &f->maps[i];

		if (m->live && addr >= m->va && addr + len <= m->va + m->size)
			return m->host + (addr - m->va);
	}
	return NULL;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* Parses (and with !cs_no_exec runs) a user CB the way a driver would. */
static int exec_cb(struct fake *f, const uint8_t *cb, uint32_t len,
		   uint32_t queue)
{
	static const uint8_t size[16] = {
		[1] = 8, [2] = 8, [3] = 16, [4] = 8, [5] = 16, [6] = 8,
		[7] = 16, [8] = 8, [9] = 24, [10] = 8, [11] = 8, [12] = 8,
		[13] = 8, [15] = 16,
	};
	uint32_t off = 0;

	while (off < len) {
		uint32_t w0, ctl, op, n;

		if (len - off < 8)
			return -EINVAL;
		w0 = rd32(cb + off);
		ctl = rd32(cb + off + 4);
		op = (ctl >> 24) & 0x1F;
		if (op > 15 || !size[op])
			return -EINVAL;
		n = size[op];
		if (op == 2)
			n += 8 * (w0 & 0xFFFF);
		if (len - off < n)
			return -EINVAL;
		/* external queues: what upstream's parser refuses */
		if (queue < 8 && (op == 2 || op == 7 || op == 5 || op == 11))
			return -EPERM;
		if (op == 9 && !f->cs_no_exec) {
			uint64_t src = rd64(cb + off + 8);
			uint64_t dst = rd64(cb + off + 16) &
				       GAUDI_LIN_DMA_DST_MAX;
			uint8_t *d = dev_ptr(f, dst, w0), *s;

			if (!d)
				return -EFAULT;
			if (ctl & (1U << 4)) {
				uint64_t i;

				for (i = 0; i < w0; i++)
					d[i] = (uint8_t)(src >> (8 * (i % 8)));
			} else {
				s = dev_ptr(f, src, w0);
				if (!s)
					return -EFAULT;
				memmove(d, s, w0);
			}
		}
		off += n;
	}
	return 0;
}

static struct fake_resv *find_resv(struct fake *f, uint32_t handle)
{
	int i;

	for (i = 0; i < FAKE_MAX_RESV; i++)
		if (f->resv[i].live && f->resv[i].handle == handle)
			return &f->resv[i];
	return NULL;
}

/* RESERVE_SIGNALS_ONLY / UNRESERVE_SIGNALS_ONLY, as the drivers answer. */
static int do_resv(struct fake *f, union hl_cs_args *a)
{
	struct fake_resv *r;
	uint32_t q = a->in.encaps_signals_q_idx;
	uint32_t count = a->in.encaps_signals_count;
	int i;

	if (a->in.cs_flags & HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY) {
		r = find_resv(f, a->in.encaps_sig_handle_id);
		if (!r || r->cs_seq)
			return -EINVAL;
		f->sob_val[r->queue] -= r->count;
		r->live = false;
		return 0;
	}
	if (q >= 8 || count > 0x7FFF)
		return -EINVAL;
	for (i = 0; i < FAKE_MAX_RESV && f->resv[i].live; i++)
		;
	if (i == FAKE_MAX_RESV)
		return -ENOSPC;
	r = &f->resv[i];
	memset(r, 0, sizeof(*r));
	r->live = true;
	r->handle = ++f->next_resv;
	r->queue = q;
	r->count = count;
	f->sob_val[q] += count;
	memset(&a->out, 0, sizeof(a->out));
	a->out.handle_id = r->handle;
	a->out.count = f->sob_val[q] + 1;
	a->out.sob_base_addr_offset = FAKE_SOB_OFFSET(q);
	a->out.status = f->cs_status;
	return 0;
}

/* Staged submission parts: 0, or -EINVAL as the drivers refuse them. */
static int staged_check(struct fake *f, union hl_cs_args *a)
{
	uint32_t fl = a->in.cs_flags;
	struct fake_resv *r;

	if (fl & HL_CS_FLAGS_WAIT)	/* ENCAP_SIGNALS: an encaps wait */
		return fl & (HL_CS_FLAGS_STAGED_SUBMISSION |
			     HL_CS_FLAGS_STAGED_SUBMISSION_FIRST |
			     HL_CS_FLAGS_STAGED_SUBMISSION_LAST) ? -EINVAL : 0;
	if (!(fl & HL_CS_FLAGS_STAGED_SUBMISSION))
		return fl & (HL_CS_FLAGS_STAGED_SUBMISSION_FIRST |
			     HL_CS_FLAGS_STAGED_SUBMISSION_LAST |
			     HL_CS_FLAGS_ENCAP_SIGNALS) ? -EINVAL : 0;
	if (fl & HL_CS_FLAGS_STAGED_SUBMISSION_FIRST) {
		if (f->staged_open)
			return -EBUSY;	/* the fake keeps one open */
		if (!(fl & HL_CS_FLAGS_ENCAP_SIGNALS))
			return 0;
		r = find_resv(f, a->in.encaps_sig_handle_id);
		return r && !r->cs_seq ? 0 : -EINVAL;
	}
	if (fl & HL_CS_FLAGS_ENCAP_SIGNALS)
		return -EINVAL;
	return f->staged_open && a->in.seq == f->staged_open ? 0 : -EINVAL;
}

/* Sequence number of an accepted staged part; opens/closes the staged CS. */
static uint64_t staged_seq(struct fake *f, const struct hl_cs_in *in)
{
	uint32_t fl = in->cs_flags;
	uint64_t seq = f->staged_open;
	struct fake_resv *r;

	if (fl & HL_CS_FLAGS_STAGED_SUBMISSION_FIRST) {
		seq = ++f->seq;
		f->staged_open = seq;
		if (fl & HL_CS_FLAGS_ENCAP_SIGNALS) {
			r = find_resv(f, in->encaps_sig_handle_id);
			r->cs_seq = seq;
		}
	}
	if (fl & HL_CS_FLAGS_STAGED_SUBMISSION_LAST) {
		f->staged_open = 0;
		/* The reservations of the submission end with it. */
		for (int i = 0; i < FAKE_MAX_RESV; i++)
			if (f->resv[i].live && f->resv[i].cs_seq == seq)
				f->resv[i].live = false;
	}
	return seq;
}

static int do_cs(struct fake *f, union hl_cs_args *a)
{
	bool staged = a->in.cs_flags & HL_CS_FLAGS_STAGED_SUBMISSION;
	struct hl_cs_chunk *c;
	uint32_t i, n;
	int ret;

	f->cs_calls++;
	f->last_cs_in = a->in;
	memset(&f->last_chunk, 0, sizeof(f->last_chunk));
	f->last_cs_flags = a->in.cs_flags;
	if (a->in.cs_flags & (HL_CS_FLAGS_RESERVE_SIGNALS_ONLY |
			      HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY))
		return do_resv(f, a);
	ret = staged_check(f, a);
	if (ret)
		return ret;
	f->cs_restore = a->in.num_chunks_restore != 0;
	n = f->cs_restore ? a->in.num_chunks_restore : a->in.num_chunks_execute;
	c = (struct hl_cs_chunk *)(uintptr_t)(f->cs_restore ?
			a->in.chunks_restore : a->in.chunks_execute);
	f->last_cs_nchunks = n;
	if (!n || n > HL_MAX_JOBS_PER_CS || !c)
		return -EINVAL;
	f->last_cs_queue = c[0].queue_index;
	f->last_chunk = c[0];
	if ((a->in.cs_flags & HL_CS_FLAGS_WAIT) &&
	    (a->in.cs_flags & HL_CS_FLAGS_ENCAP_SIGNALS)) {
		for (i = 0; i < FAKE_MAX_RESV; i++) {
			struct fake_resv *r = &f->resv[i];

			if (r->live && r->cs_seq &&
			    r->cs_seq == c[0].encaps_signal_seq &&
			    c[0].encaps_signal_offset > r->count)
				return -EINVAL;
		}
	} else if (a->in.cs_flags & HL_CS_FLAGS_WAIT) {
		f->last_signal_seq =
			*(uint64_t *)(uintptr_t)c[0].signal_seq_arr;
		if (c[0].num_signal_seq_arr != 1 ||
		    f->last_signal_seq > f->seq)
			return -EINVAL;
	}
	if (!(a->in.cs_flags & (HL_CS_FLAGS_SIGNAL | HL_CS_FLAGS_WAIT))) {
		for (i = 0; i < n; i++) {
			struct fake_cb *cb = NULL;
			int k;

			/* Internal queues name a mapped CB's device address. */
			for (k = 0; k < FAKE_MAX_CBS; k++)
				if (f->cbs[k].live &&
				    (c[i].queue_index < 8 ?
				     f->cbs[k].handle == c[i].cb_handle :
				     f->cbs[k].dva && f->cbs[k].dva == c[i].cb_handle))
					cb = &f->cbs[k];
			if (!cb || c[i].cb_size > cb->size ||
			    c[i].queue_index >= GAUDI_QUEUE_ID_SIZE)
				return -EINVAL;
			f->last_cb_len = c[i].cb_size;
			memcpy(f->last_cb, cb->mem,
			       c[i].cb_size < sizeof(f->last_cb) ?
			       c[i].cb_size : sizeof(f->last_cb));
			ret = exec_cb(f, cb->mem, c[i].cb_size,
				      c[i].queue_index);
			if (ret)
				return ret;
		}
	}
	memset(&a->out, 0, sizeof(a->out));
	a->out.status = f->cs_status;
	if (staged) {
		/* (out overlays in: the input as it was passed) */
		a->out.seq = staged_seq(f, &f->last_cs_in);
		if (!f->staged_open && !f->cs_hang)
			f->done_seq = f->seq;
		return 0;
	}
	a->out.seq = ++f->seq;
	if (!f->cs_hang)
		f->done_seq = f->seq;
	return 0;
}

static int do_wait(struct fake *f, union hl_wait_cs_args *a)
{
	uint64_t seq = a->in.seq, timeout = a->in.timeout_us;

	memset(&a->out, 0, sizeof(a->out));
	if (!seq || seq > f->seq)
		return -EINVAL;
	if (seq <= f->done_seq && seq != f->staged_open) {
		a->out.status = HL_WAIT_CS_STATUS_COMPLETED;
		return 0;
	}
	/* as upstream: polling answers BUSY, a real wait times out */
	if (!timeout) {
		a->out.status = HL_WAIT_CS_STATUS_BUSY;
		return 0;
	}
	a->out.status = HL_WAIT_CS_STATUS_TIMEDOUT;
	return -ETIMEDOUT;
}

static int do_cb(struct fake *f, union hl_cb_args *a)
{
	int i;

	if (a->in.op == HL_CB_OP_INFO) {
		for (i = 0; i < FAKE_MAX_CBS; i++) {
			struct fake_cb *cb = &f->cbs[i];

			if (!cb->live || cb->handle != a->in.cb_handle)
				continue;
			if (a->in.flags != HL_CB_FLAGS_GET_DEVICE_VA || !cb->dva)
				return -EINVAL;
			memset(&a->out, 0, sizeof(a->out));
			a->out.device_va = cb->dva;
			return 0;
		}
		return -EINVAL;
	}
	if (a->in.op == HL_CB_OP_CREATE) {
		if (!a->in.cb_size || a->in.cb_size > HL_MAX_CB_SIZE ||
		    (a->in.flags & ~HL_CB_FLAGS_MAP))
			return -EINVAL;
		for (i = 0; i < FAKE_MAX_CBS; i++) {
			struct fake_cb *cb = &f->cbs[i];
			size_t sz = (a->in.cb_size + 4095) & ~4095UL;

			if (cb->live)
				continue;
			cb->mem = aligned_alloc(4096, sz);
			if (!cb->mem)
				return -ENOMEM;
			memset(cb->mem, 0xCC, sz);
			cb->size = a->in.cb_size;
			/* handles are page-aligned mmap offsets, as upstream */
			cb->handle = (++f->next_handle) << 12;
			/* As gaudi.ko maps CBs: in the first 4 GiB of the host range. */
			cb->dva = (a->in.flags & HL_CB_FLAGS_MAP) ?
				  0x1000000000000ULL + cb->handle : 0;
			cb->live = true;
			memset(&a->out, 0, sizeof(a->out));
			a->out.cb_handle = cb->handle;
			return 0;
		}
		return -ENOMEM;
	}
	if (a->in.op == HL_CB_OP_DESTROY) {
		for (i = 0; i < FAKE_MAX_CBS; i++) {
			struct fake_cb *cb = &f->cbs[i];

			if (cb->live && cb->handle == a->in.cb_handle) {
				free(cb->mem);
				cb->mem = NULL;
				cb->live = false;
				return 0;
			}
		}
	}
	return -EINVAL;
}

static int do_mem(struct fake *f, union hl_mem_args *a)
{
	int i;

	if (a->in.op == HL_MEM_OP_MAP) {
		uint64_t size = a->in.map_host.mem_size;

		if (a->in.flags != HL_MEM_USERPTR || !size ||
		    !a->in.map_host.host_virt_addr)
			return -EINVAL;
		for (i = 0; i < FAKE_MAX_MAPS; i++) {
			struct fake_map *m = &f->maps[i];

			if (m->live)
				continue;
			m->host = (uint8_t *)(uintptr_t)
				  a->in.map_host.host_virt_addr;
			m->size = size;
			m->va = f->next_va +
				(a->in.map_host.host_virt_addr & 4095);
			f->next_va += (size + 8191) & ~4095ULL;
			m->live = true;
			memset(&a->out, 0, sizeof(a->out));
			a->out.device_virt_addr = m->va;
			return 0;
		}
		return -ENOMEM;
	}
	if (a->in.op == HL_MEM_OP_UNMAP) {
		for (i = 0; i < FAKE_MAX_MAPS; i++) {
			struct fake_map *m = &f->maps[i];

			if (m->live && m->va == a->in.unmap.device_virt_addr) {
				m->live = false;
				return 0;
			}
		}
	}
	return -EINVAL;
}

/* INFO answers: fixed values the tests check. */
static int do_info(struct fake *f, int fd, struct hl_info_args *a)
{
	union {
		struct hl_info_hw_ip_info hw;
		struct hl_info_device_status st;
		struct hl_info_clk_rate clk;
		struct hl_info_energy e;
		struct hl_power_info pw;
		struct hl_info_reset_count rc;
		struct hl_info_device_utilization u;
		struct hl_info_dram_usage du;
		struct hl_info_hw_idle idle;
		uint64_t events;
		uint32_t counts[64];
		uint8_t raw[512];
	} r;
	uint32_t n = 0, i;
	bool control = is_control_fd(f, fd);

	f->last_info_op = a->op;
	f->last_info_arg = a->dcore_id;
	f->last_info_size = a->return_size;
	if (a->pad)
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	switch (a->op) {
	case HL_INFO_HW_IP_INFO:
		r.hw.device_id = 0x1000;
		r.hw.sram_base_address = FAKE_SRAM_BASE;
		r.hw.dram_base_address = FAKE_HBM_BASE;
		r.hw.module_id = 5;
		snprintf((char *)r.hw.card_name, sizeof(r.hw.card_name),
			 "HL205");
		n = sizeof(r.hw);
		break;
	case HL_INFO_DEVICE_STATUS:
		r.st.status = HL_DEVICE_STATUS_OPERATIONAL;
		n = sizeof(r.st);
		break;
	case HL_INFO_CLK_RATE:
		r.clk.cur_clk_rate_mhz = 1600;
		r.clk.max_clk_rate_mhz = 2200;
		n = sizeof(r.clk);
		break;
	case HL_INFO_TOTAL_ENERGY:
		r.e.total_energy_consumption = 123456789;
		n = sizeof(r.e);
		break;
	case HL_INFO_POWER:
		r.pw.power = 98765;
		n = sizeof(r.pw);
		break;
	case HL_INFO_RESET_COUNT:
		r.rc.hard_reset_cnt = 3;
		r.rc.soft_reset_cnt = 4;
		n = sizeof(r.rc);
		break;
	case HL_INFO_DEVICE_UTILIZATION:
		if (a->period_ms < 100 || a->period_ms > 1000)
			return -EINVAL;
		r.u.utilization = 42;
		n = sizeof(r.u);
		break;
	case HL_INFO_DRAM_USAGE:
		r.du.dram_free_mem = FAKE_HBM_SIZE;
		n = sizeof(r.du);
		break;
	case HL_INFO_HW_IDLE:
		r.idle.is_idle = 1;
		n = sizeof(r.idle);
		break;
	case HL_INFO_HW_EVENTS:
	case HL_INFO_HW_EVENTS_AGGREGATE:
		for (i = 0; i < 64; i++)
			r.counts[i] = i + (a->op == HL_INFO_HW_EVENTS ?
					   0 : 100);
		n = sizeof(r.counts);
		break;
	case HL_INFO_REGISTER_EVENTFD:
		if (control)
			return -EOPNOTSUPP;
		if (f->eventfd >= 0)
			return -EINVAL;
		f->eventfd = (int)a->eventfd;
		return 0;
	case HL_INFO_UNREGISTER_EVENTFD:
		if (control)
			return -EOPNOTSUPP;
		if (f->eventfd < 0)
			return -EINVAL;
		f->eventfd = -1;
		return 0;
	case HL_INFO_GET_EVENTS:
		if (control)
			return -EOPNOTSUPP;
		r.events = f->events;
		f->events = 0;
		n = sizeof(r.events);
		break;
	case HL_INFO_OPEN_STATS:
	case HL_INFO_PCI_COUNTERS:
	case HL_INFO_TIME_SYNC:
	case HL_INFO_CS_COUNTERS:
		memset(&r, 0x11, sizeof(r));
		n = sizeof(r.raw);
		break;
	default:
		return -EINVAL;
	}
	if (!a->return_pointer || !a->return_size)
		return -EINVAL;
	memcpy((void *)(uintptr_t)a->return_pointer, &r,
	       a->return_size < n ? a->return_size : n);
	return 0;
}

/* Host memory behind a device VA of a live map, or NULL. */
static void *fake_va(struct fake *f, uint64_t va, uint64_t len)
{
	int i;

	for (i = 0; i < FAKE_MAX_MAPS; i++) {
		struct fake_map *m = &f->maps[i];

		if (m->live && va >= m->va && len <= m->size &&
		    va - m->va <= m->size - len)
			return m->host + (va - m->va);
	}
	return NULL;
}

/* The NIC ops, enough of them for libgaudi's queue pairs. */
static int do_nic(struct fake *f, struct drm_gaudi_nic *a)
{
	void *in = (void *)(uintptr_t)a->input_ptr;
	void *out = (void *)(uintptr_t)a->output_ptr;

	switch (a->op) {
	case GAUDI_NIC_OP_LINK_STATE: {
		struct drm_gaudi_nic_link *l = out;

		l->ports_mask = 0x3FF;
		l->ext_ports_mask = 0x380;
		l->up_mask = 0x7F;
		for (int p = 0; p < GAUDI_NIC_PORTS; p++) {
			l->mac[p][0] = 0x02;
			l->mac[p][5] = (uint8_t)p;
		}
		return 0;
	}
	case GAUDI_NIC_OP_ALLOC_CONN:
		((struct drm_gaudi_nic_conn_id *)out)->conn_id =
			GAUDI_NIC_FIRST_CONN + f->nic.next_conn++;
		return 0;
	case GAUDI_NIC_OP_USER_WQ_SET: {
		struct drm_gaudi_nic_wq *w = in;

		f->nic.wq_va = w->addr;
		f->nic.num_wqs = w->num_wqs;
		f->nic.entries = w->entries;
		return 0;
	}
	case GAUDI_NIC_OP_USER_CQ_SET: {
		struct drm_gaudi_nic_cq *c = in;

		f->nic.cq_va = c->addr;
		f->nic.cq_entries = c->entries;
		f->nic.cq_pi = 0;
		return 0;
	}
	case GAUDI_NIC_OP_SET_REQ_CONN_CTX: {
		struct drm_gaudi_nic_req_ctx *r = in;

		f->nic.ci[r->conn_id & 1023] = 0;
		f->nic.req_dst_qpn = r->dst_conn_id;
		f->nic.req_path_mtu = r->path_mtu;
		f->nic.req_flags = r->flags;
		f->nic.req_rnr = r->rnr_retry;
		return 0;
	}
	case GAUDI_NIC_OP_REG_MR: {
		struct drm_gaudi_nic_mr *m = in;

		/* The driver's rule: inside one mapping. */
		if (!fake_va(f, m->addr, m->length) ||
		    m->access != GAUDI_NIC_MR_REMOTE_WRITE || m->flags)
			return -EINVAL;
		f->nic.mrs++;
		((struct drm_gaudi_nic_mr_key *)out)->key =
			0x5A5A0000U | f->nic.mrs;
		return 0;
	}
	case GAUDI_NIC_OP_DEREG_MR:
		if (((struct drm_gaudi_nic_mr_dereg *)in)->key !=
		    (0x5A5A0000U | f->nic.mrs))
			return -ENOENT;
		f->nic.mrs--;
		return 0;
	case GAUDI_NIC_OP_USER_CQ_UPDATE_CI:
		((struct drm_gaudi_nic_cq_pi *)out)->pi = f->nic.cq_pi;
		return 0;
	case GAUDI_NIC_OP_CONN_STATE:
		((struct drm_gaudi_nic_conn_state *)out)->flags =
			f->nic.err ? GAUDI_NIC_CONN_REQ_ERROR :
				     GAUDI_NIC_CONN_REQ_VALID;
		return 0;
	case GAUDI_NIC_OP_DOORBELL: {
		struct drm_gaudi_nic_doorbell *d = in;
		uint32_t c = d->conn_id & 1023, e = f->nic.entries;

		f->nic.doorbells++;
		if (f->nic.err || d->pi >= e)
			return -EINVAL;
		while (!f->nic.hold && f->nic.ci[c] != d->pi) {
			uint64_t va = f->nic.wq_va +
				      ((uint64_t)c * e + f->nic.ci[c]) * 32;
			uint32_t *wqe = fake_va(f, va, 32);
			uint64_t *cqe = fake_va(f, f->nic.cq_va + 8ULL *
						(f->nic.cq_pi &
						 (f->nic.cq_entries - 1)), 8);

			if (!wqe || !cqe)
				return -EFAULT;
			if (f->nic.nlog < 64)
				memcpy(f->nic.log[f->nic.nlog++], wqe, 32);
			*cqe = (uint64_t)(ROCE_CQE_VALID | c) << 32 |
			       ROCE_CQE_REQUESTER | f->nic.ci[c];
			f->nic.cq_pi++;
			f->nic.ci[c] = (f->nic.ci[c] + 1) & (e - 1);
		}
		return 0;
	}
	case GAUDI_NIC_OP_SET_RES_CONN_CTX:
	case GAUDI_NIC_OP_DESTROY_CONN:
	case GAUDI_NIC_OP_USER_WQ_UNSET:
	case GAUDI_NIC_OP_USER_CQ_UNSET:
		return 0;
	default:
		return -EINVAL;
	}
}

/* The driver's rules: the newest min(count, n) records, oldest first. */
static int do_acct(struct fake *f, struct drm_gaudi_accounting *a)
{
	unsigned int n = f->acct_n, k, i;
	uint8_t *dst = (uint8_t *)(uintptr_t)a->records;

	if (a->flags || a->pad)
		return -EINVAL;
	if (a->count && (a->record_size < GAUDI_ACCT_RECORD_SIZE_V1 ||
			 a->record_size % 8 || a->record_size > 4096))
		return -EINVAL;
	k = a->count < n ? a->count : n;
	for (i = 0; i < k; i++) {
		struct drm_gaudi_acct_record r;
		unsigned int id = n - k + i + 1;

		memset(&r, 0, sizeof(r));
		r.id = id;
		r.pid = 1000 + (int)id;
		r.uid = 7;
		memset(r.comm, 'c', sizeof(r.comm));	/* unterminated */
		r.flags = id == n ? GAUDI_ACCT_RUNNING | GAUDI_ACCT_ENERGY :
				    GAUDI_ACCT_ENERGY;
		r.wall_ns = id * 1000;
		r.busy_ns[GAUDI_ENGINE_CLASS_DMA] = id * 10;
		r.busy_ns[GAUDI_ENGINE_CLASS_TPC] = id * 30;
		r.cs_submitted = id;
		r.peak_hbm_bytes = id << 20;
		r.peak_host_bytes = id << 12;
		r.energy_uj = id * 5;
		if (id == 1)	/* unterminated, as a cut path never is */
			memset(r.cgroup, 'x', sizeof(r.cgroup));
		else
			snprintf(r.cgroup, sizeof(r.cgroup), "/job%u.slice", id);
		/* the caller's stride: a shorter record gets the first bytes */
		memcpy(dst + (size_t)i * a->record_size, &r,
		       a->record_size < sizeof(r) ? a->record_size : sizeof(r));
	}
	a->count = k;
	a->record_size = sizeof(struct drm_gaudi_acct_record);
	a->available = n;
	a->max_kept = 64;
	return 0;
}

static int f_ioctl(const struct gaudi_sys *sys, int fd, unsigned long req,
		   void *arg)
{
	struct fake *f = FAKE(sys);
	int ret;

	if (fd < FAKE_FD_BASE || fd >= FAKE_FD_BASE + f->n_nodes)
		return -EBADF;
	pthread_mutex_lock(&f->lock);
	f->last_req = req;
	if (f->fail_req_err && f->fail_req == req) {
		ret = f->fail_req_err;
		f->fail_req_err = 0;
		goto out;
	}
	if (req == DRM_IOCTL_GAUDI_QUERY_CAPS) {
		struct drm_gaudi_query_caps *q = arg;

		if (!f->has_caps) {
			ret = is_control_fd(f, fd) ? -ENOTTY : -EINVAL;
			goto out;
		}
		q->abi_major = 1;
		q->abi_minor = 0;
		q->caps = GAUDI_CAP_OWNER | GAUDI_CAP_SYNC_RELEASE |
			  GAUDI_CAP_ACCOUNTING | GAUDI_CAP_NIC |
			  (f->nic.no_mr ? 0 : GAUDI_CAP_NIC_MR);
		q->info_ops = 0x7FFFFFFFFFULL;
		ret = 0;
	} else if (req == DRM_IOCTL_GAUDI_OWNER) {
		struct drm_gaudi_owner *o = arg;

		if (!f->has_caps) {
			ret = -EINVAL;
			goto out;
		}
		o->state = GAUDI_OWNER_HELD;
		o->pid = 4242;
		o->uid = 1000;
		memset(o->comm, 'x', sizeof(o->comm));	/* unterminated */
		o->open_time_ns = 11;
		o->held_ns = 22;
		o->open_counter = 33;
		ret = 0;
	} else if (req == DRM_IOCTL_GAUDI_NIC) {
		ret = f->has_caps ? do_nic(f, arg) : -EINVAL;
	} else if (req == DRM_IOCTL_GAUDI_ACCOUNTING) {
		ret = f->has_caps ? do_acct(f, arg) : -EINVAL;
	} else if (req == DRM_IOCTL_HL_INFO) {
		ret = do_info(f, fd, arg);
	} else if (is_control_fd(f, fd)) {
		ret = -ENOTTY;
	} else if (req == DRM_IOCTL_HL_CB) {
		ret = do_cb(f, arg);
	} else if (req == DRM_IOCTL_HL_MEMORY) {
		ret = do_mem(f, arg);
	} else if (req == DRM_IOCTL_HL_CS) {
		ret = do_cs(f, arg);
	} else if (req == DRM_IOCTL_HL_WAIT_CS) {
		ret = do_wait(f, arg);
	} else {
		ret = -ENOTTY;
	}
out:
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static void *f_mmap(const struct gaudi_sys *sys, size_t len, int prot,
		    int flags, int fd, off_t off)
{
	struct fake *f = FAKE(sys);
	void *p = MAP_FAILED;
	int i;

	(void)prot;
	(void)flags;
	(void)fd;
	pthread_mutex_lock(&f->lock);
	errno = EINVAL;
	if (f->mmap_fail) {
		errno = ENOMEM;
		goto out;
	}
	for (i = 0; i < FAKE_MAX_CBS; i++)
		if (f->cbs[i].live && f->cbs[i].handle == (uint64_t)off &&
		    len >= f->cbs[i].size)
			p = f->cbs[i].mem;
out:
	pthread_mutex_unlock(&f->lock);
	return p;
}

static int f_munmap(const struct gaudi_sys *sys, void *p, size_t len)
{
	(void)sys;
	(void)len;
	return p ? 0 : -EINVAL;
}

static int f_drm_version(const struct gaudi_sys *sys, int fd, char *name,
			 size_t len)
{
	struct fake *f = FAKE(sys);

	(void)fd;
	if (!f->drm_name)
		return -ENOTTY;
	gaudi__strcpy(name, f->drm_name, len);
	return 0;
}

static int f_enumerate(const struct gaudi_sys *sys, gaudi_node_fn fn,
		       void *arg)
{
	struct fake *f = FAKE(sys);
	int i, ret;

	if (f->enum_err)
		return f->enum_err;
	for (i = 0; i < f->n_nodes; i++) {
		ret = fn(arg, &f->nodes[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int f_pci_count(const struct gaudi_sys *sys)
{
	return FAKE(sys)->pci_count;
}

static int f_module_loaded(const struct gaudi_sys *sys, const char *name)
{
	struct fake *f = FAKE(sys);

	if (!strcmp(name, "gaudi"))
		return f->gaudi_loaded;
	if (!strcmp(name, "habanalabs"))
		return f->hl_loaded;
	return 0;
}

static int f_control_module_id(const struct gaudi_sys *sys,
			       const char *devnode)
{
	struct fake *f = FAKE(sys);
	int i;

	f->virt_queries++;
	if (f->virt_err)
		return f->virt_err;
	for (i = 0; i < f->n_nodes; i++)
		if (f->nodes[i].devnode && !strcmp(f->nodes[i].devnode, devnode))
			return f->nodes[i].module_id;
	return -ENOENT;
}

void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->lock, NULL);
	f->sys.open = f_open;
	f->sys.close = f_close;
	f->sys.ioctl = f_ioctl;
	f->sys.mmap = f_mmap;
	f->sys.munmap = f_munmap;
	f->sys.drm_version = f_drm_version;
	f->sys.enumerate = f_enumerate;
	f->sys.pci_count = f_pci_count;
	f->sys.module_loaded = f_module_loaded;
	f->sys.control_module_id = f_control_module_id;
	f->sys.priv = f;
	f->drm_name = "gaudi";
	f->has_caps = true;
	f->eventfd = -1;
	f->next_va = FAKE_VA_BASE;
	f->hbm = calloc(1, FAKE_HBM_SIZE);
	f->sram = calloc(1, FAKE_SRAM_SIZE);
	if (!f->hbm || !f->sram)
		abort();
}

void fake_fini(struct fake *f)
{
	int i;

	for (i = 0; i < FAKE_MAX_CBS; i++)
		free(f->cbs[i].mem);
	free(f->hbm);
	free(f->sram);
	pthread_mutex_destroy(&f->lock);
}

void fake_add_node(struct fake *f, const char *sysname, const char *slot,
		   const char *driver, int module_id)
{
	struct gaudi_sys_node *n = &f->nodes[f->n_nodes];
	char (*s)[GAUDI_PATH_LEN] = f->strs[f->n_nodes];

	if (f->n_nodes == FAKE_MAX_NODES)
		abort();
	f->n_nodes++;
	snprintf(s[0], GAUDI_PATH_LEN, "%s", sysname);
	snprintf(s[1], GAUDI_PATH_LEN, "/dev/accel/%s", sysname);
	snprintf(s[2], GAUDI_PATH_LEN, "/sys/devices/pci0000:00/%s",
		 slot ? slot : "");
	snprintf(s[3], GAUDI_PATH_LEN, "%s", slot ? slot : "");
	snprintf(s[4], GAUDI_PATH_LEN, "%s", driver ? driver : "");
	n->sysname = s[0];
	n->devnode = s[1];
	n->pci_syspath = slot ? s[2] : NULL;
	n->pci_slot = slot ? s[3] : NULL;
	n->driver = driver ? s[4] : NULL;
	n->vendor = GAUDI_PCI_VENDOR;
	n->device = GAUDI_PCI_DEVICE;
	n->module_id = module_id;
}

void fake_add_cards(struct fake *f, int n, const char *driver)
{
	char name[32], slot[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(slot, sizeof(slot), "0000:%02x:00.0", i + 1);
		snprintf(name, sizeof(name), "accel%d", i);
		fake_add_node(f, name, slot, driver, i);
		snprintf(name, sizeof(name), "accel_controlD%d", i);
		fake_add_node(f, name, slot, driver, i);
	}
	f->pci_count = n;
	if (driver && !strcmp(driver, "gaudi"))
		f->gaudi_loaded = true;
	if (driver && !strcmp(driver, "habanalabs"))
		f->hl_loaded = true;
}
