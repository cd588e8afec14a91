// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgaudi staged submission and encapsulated signals on the fake device:
 * the CS ioctl's flags, sequence, handle and chunk fields exactly as the
 * uapi wants them, the driver's errors passed on as negative errnos, and
 * bad arguments refused before any ioctl.
 */
#include <errno.h>
#include <string.h>

#include "fake.h"
#include "tap.h"

#define STAGED		HL_CS_FLAGS_STAGED_SUBMISSION
#define STAGED_FIRST	HL_CS_FLAGS_STAGED_SUBMISSION_FIRST
#define STAGED_LAST	HL_CS_FLAGS_STAGED_SUBMISSION_LAST
#define BLK		4096

static struct fake f;
static struct gaudi_dev *dev;
static struct gaudi_cb *cbs[3];

/* One chunk: CB @i, memset of HBM block @i to @v, on queue @q. */
static struct gaudi_chunk memset_chunk(int i, uint8_t v, uint32_t q)
{
	struct gaudi_cmdbuf *b = gaudi_cb_cmdbuf(cbs[i]);
	struct gaudi_chunk c;

	gaudi_cmdbuf_reset(b);
	gaudi_pkt_memset(b, FAKE_HBM_BASE + BLK * i,
			 0x0101010101010101ULL * v, BLK, 0, 0);
	memset(&c, 0, sizeof(c));
	c.cb_handle = gaudi_cb_handle(cbs[i]);
	c.queue = q;
	c.size = (uint32_t)gaudi_cmdbuf_len(b);
	return c;
}

static bool hbm_is(int blk, uint8_t v)
{
	int i;

	for (i = 0; i < BLK; i++)
		if (f.hbm[BLK * blk + i] != v)
			return false;
	return true;
}

/* The CS ioctl's first chunk is exactly @c. */
static bool chunk_is(const struct gaudi_chunk *c)
{
	struct hl_cs_chunk w;

	memset(&w, 0, sizeof(w));
	w.cb_handle = c->cb_handle;
	w.queue_index = c->queue;
	w.cb_size = c->size;
	return !memcmp(&f.last_chunk, &w, sizeof(w));
}

static void test_staged(void)
{
	struct gaudi_chunk c[3];
	uint64_t s = 0, s2;
	int calls;

	c[0] = memset_chunk(0, 0x11, GAUDI_QUEUE_DMA_0_0);
	ok_eq(gaudi_submit_staged(dev, &c[0], 1, GAUDI_STAGED_FIRST, &s), 0,
	      "staged: FIRST part");
	ok(s == f.seq && s != 0, "FIRST receives the sequence (%llu)",
	   (unsigned long long)s);
	ok(f.last_cs_in.cs_flags == (STAGED | STAGED_FIRST) &&
	   f.last_cs_in.seq == 0 && f.last_cs_in.num_chunks_execute == 1 &&
	   f.last_cs_in.num_chunks_restore == 0 && chunk_is(&c[0]),
	   "FIRST: STAGED_SUBMISSION | _FIRST, in.seq 0, the chunk as given");
	ok_eq(gaudi_wait(dev, s, 0, NULL), -EBUSY,
	      "not complete before its LAST part");

	c[1] = memset_chunk(1, 0x22, 1);
	s2 = s;
	ok_eq(gaudi_submit_staged(dev, &c[1], 1, 0, &s2), 0, "middle part");
	ok(f.last_cs_in.cs_flags == STAGED && f.last_cs_in.seq == s &&
	   chunk_is(&c[1]) && s2 == s,
	   "middle: STAGED_SUBMISSION alone, in.seq = the first's, same answer");
	ok_eq(gaudi_wait(dev, s, 0, NULL), -EBUSY, "still busy");

	c[2] = memset_chunk(2, 0x33, 0);
	ok_eq(gaudi_submit_staged(dev, &c[2], 1, GAUDI_STAGED_LAST, &s2), 0,
	      "LAST part");
	ok(f.last_cs_in.cs_flags == (STAGED | STAGED_LAST) &&
	   f.last_cs_in.seq == s && s2 == s,
	   "LAST: STAGED_SUBMISSION | _LAST, in.seq = the first's");
	ok_eq(gaudi_wait(dev, s, 1000, NULL), 0, "the submission completes");
	ok(hbm_is(0, 0x11) && hbm_is(1, 0x22) && hbm_is(2, 0x33),
	   "with every part's data");

	s2 = s;
	ok_eq(gaudi_submit_staged(dev, &c[0], 1, 0, &s2), -EINVAL,
	      "a part for a closed submission: the driver's -EINVAL");
	ok_eq(s2, s, "sequence untouched on failure");

	ok_eq(gaudi_submit_staged(dev, c, 3,
				  GAUDI_STAGED_FIRST | GAUDI_STAGED_LAST, &s2),
	      0, "FIRST|LAST: a submission of one part, 3 chunks");
	ok(f.last_cs_in.cs_flags == (STAGED | STAGED_FIRST | STAGED_LAST) &&
	   f.last_cs_nchunks == 3 && s2 == f.seq && s2 != s,
	   "all three flags, 3 chunks, a new sequence");
	ok_eq(gaudi_wait(dev, s2, 1000, NULL), 0, "and it completes");

	/* Bad arguments: no ioctl. */
	calls = f.cs_calls;
	s2 = s;
	ok_eq(gaudi_submit_staged(dev, c, 1, 4, &s2), -EINVAL,
	      "unknown flag: -EINVAL");
	ok_eq(gaudi_submit_staged(dev, c, 1, GAUDI_SUBMIT_RESTORE << 2, &s2),
	      -EINVAL, "another unknown flag: -EINVAL");
	s2 = 0;
	ok_eq(gaudi_submit_staged(dev, c, 1, 0, &s2), -EINVAL,
	      "later part for sequence 0: -EINVAL");
	s2 = GAUDI_SEQ_NONE;
	ok_eq(gaudi_submit_staged(dev, c, 1, GAUDI_STAGED_LAST, &s2), -EINVAL,
	      "later part for GAUDI_SEQ_NONE: -EINVAL");
	ok_eq(gaudi_submit_staged(dev, c, 1, GAUDI_STAGED_FIRST, NULL),
	      -EINVAL, "NULL sequence: -EINVAL");
	ok_eq(gaudi_submit_staged(NULL, c, 1, GAUDI_STAGED_FIRST, &s2),
	      -EINVAL, "NULL device: -EINVAL");
	ok_eq(gaudi_submit_staged(dev, NULL, 1, GAUDI_STAGED_FIRST, &s2),
	      -EINVAL, "NULL chunks: -EINVAL");
	ok_eq(gaudi_submit_staged(dev, c, 0, GAUDI_STAGED_FIRST, &s2),
	      -EINVAL, "0 chunks: -EINVAL");
	ok_eq(gaudi_submit_staged(dev, c, HL_MAX_JOBS_PER_CS + 1,
				  GAUDI_STAGED_FIRST, &s2),
	      -EINVAL, "too many chunks: -EINVAL");
	c[1].reserved[1] = 1;
	ok_eq(gaudi_submit_staged(dev, c, 2, GAUDI_STAGED_FIRST, &s2),
	      -EINVAL, "reserved chunk field: -EINVAL");
	c[1].reserved[1] = 0;
	c[0].flags = 1;
	ok_eq(gaudi_submit_staged(dev, c, 1, GAUDI_STAGED_FIRST, &s2),
	      -EINVAL, "chunk flags: -EINVAL");
	c[0].flags = 0;
	ok_eq(f.cs_calls, calls, "none of them reached the driver");

	/* The driver's errors. */
	f.fail_req = DRM_IOCTL_HL_CS;
	f.fail_req_err = -EAGAIN;
	s2 = 77;
	ok_eq(gaudi_submit_staged(dev, c, 1, GAUDI_STAGED_FIRST, &s2), -EAGAIN,
	      "driver -EAGAIN returned");
	ok_eq(s2, 77, "no sequence written");
	f.cs_status = 7;	/* not HL_CS_STATUS_SUCCESS */
	ok_eq(gaudi_submit_staged(dev, c, 1,
				  GAUDI_STAGED_FIRST | GAUDI_STAGED_LAST, &s2),
	      -EIO, "CS status not SUCCESS: -EIO");
	f.cs_status = 0;
}

static void test_reserve(void)
{
	struct gaudi_signal_reservation r, r2, r0;
	int calls;

	memset(&r, 0, sizeof(r));
	ok_eq(gaudi_signals_reserve(dev, 0, 4, &r), 0, "reserve 4 on DMA_0_0");
	ok(f.last_cs_in.cs_flags == HL_CS_FLAGS_RESERVE_SIGNALS_ONLY &&
	   f.last_cs_in.encaps_signals_q_idx == 0 &&
	   f.last_cs_in.encaps_signals_count == 4 &&
	   f.last_cs_in.num_chunks_execute == 0 &&
	   f.last_cs_in.chunks_execute == 0,
	   "RESERVE_SIGNALS_ONLY, q_idx 0, count 4, no chunks");
	ok(r.handle == 1 && r.queue == 0 && r.count == 4,
	   "handle %u, queue, count", r.handle);
	ok(r.sob_offset == FAKE_SOB_OFFSET(0) &&
	   r.sob_addr == 0x7FFC000000ULL + FAKE_SOB_OFFSET(0),
	   "SOB offset 0x%x, address 0x%llx = CFG base + offset", r.sob_offset,
	   (unsigned long long)r.sob_addr);
	ok(r.next_value == 5 && r.first_value == 1,
	   "values 1..4, the next signal's 5 (%u, %u)", r.first_value,
	   r.next_value);
	ok_eq(gaudi_signals_reserve(dev, 0, 4, &r2), 0, "reserve 4 more");
	ok(r2.handle != r.handle && r2.first_value == 5 &&
	   r2.next_value == 9, "values 5..8, next 9");
	ok_eq(gaudi_signals_unreserve(dev, r2.handle), 0, "unreserve it");
	ok(f.last_cs_in.cs_flags == HL_CS_FLAGS_UNRESERVE_SIGNALS_ONLY &&
	   f.last_cs_in.encaps_sig_handle_id == r2.handle &&
	   f.last_cs_in.num_chunks_execute == 0,
	   "UNRESERVE_SIGNALS_ONLY with the handle, no chunks");
	ok_eq(gaudi_signals_unreserve(dev, r2.handle), -EINVAL,
	      "again: the driver's -EINVAL");
	ok_eq(gaudi_signals_reserve(dev, 7, 0, &r0), 0, "reserve 0 on DMA_1_3");
	ok(r0.count == 0 && r0.next_value == 1 && r0.first_value == 1 &&
	   r0.sob_offset == FAKE_SOB_OFFSET(7), "next value 1, queue 7's SOB");
	ok_eq(gaudi_signals_unreserve(dev, r0.handle), 0, "and give it back");
	ok_eq(gaudi_signals_reserve(dev, 3, GAUDI_SIGNALS_MAX, &r0), 0,
	      "reserve GAUDI_SIGNALS_MAX");
	ok_eq(gaudi_signals_unreserve(dev, r0.handle), 0, "and give it back");

	calls = f.cs_calls;
	memset(&r2, 0xA5, sizeof(r2));
	ok_eq(gaudi_signals_reserve(dev, 8, 4, &r2), -EINVAL,
	      "queue 8 (not external): -EINVAL");
	ok_eq(gaudi_signals_reserve(dev, 0, GAUDI_SIGNALS_MAX + 1, &r2),
	      -EINVAL, "more signals than a SOB holds: -EINVAL");
	ok_eq(gaudi_signals_reserve(dev, 0, 4, NULL), -EINVAL, "NULL out");
	ok_eq(gaudi_signals_reserve(NULL, 0, 4, &r2), -EINVAL, "NULL device");
	ok_eq(gaudi_signals_unreserve(dev, 0), -EINVAL, "unreserve handle 0");
	ok_eq(gaudi_signals_unreserve(NULL, 1), -EINVAL, "unreserve, NULL dev");
	ok_eq(f.cs_calls, calls, "none of them reached the driver");
	f.fail_req = DRM_IOCTL_HL_CS;
	f.fail_req_err = -ENOSPC;
	ok_eq(gaudi_signals_reserve(dev, 0, 4, &r2), -ENOSPC,
	      "driver -ENOSPC returned");
	f.fail_req = DRM_IOCTL_HL_CS;
	f.fail_req_err = -EBUSY;
	ok_eq(gaudi_signals_reserve(dev, 0, 4, &r2), -EBUSY,
	      "driver -EBUSY returned");
	ok_eq(r2.handle, 0xA5A5A5A5, "output untouched on failure");

	/* Nothing reserved afterwards: the SOB of queue 0 starts over. */
	ok_eq(gaudi_signals_unreserve(dev, r.handle), 0,
	      "unreserve the first reservation");
}

static void test_encaps(void)
{
	struct gaudi_signal_reservation r;
	struct hl_cs_chunk want;
	struct gaudi_cmdbuf *b;
	struct gaudi_chunk c;
	uint64_t e = 0, w = 0, s, d;
	int i, calls;

	if (!ok_eq(gaudi_signals_reserve(dev, 0, 4, &r), 0, "reserve 4"))
		return;
	b = gaudi_cb_cmdbuf(cbs[0]);
	gaudi_cmdbuf_reset(b);
	for (i = 0; i < 4; i++)
		gaudi_pkt_sob_inc(b, r.sob_addr, GAUDI_PKT_EB);
	memset(&c, 0, sizeof(c));
	c.cb_handle = gaudi_cb_handle(cbs[0]);
	c.queue = 1;
	c.size = (uint32_t)gaudi_cmdbuf_len(b);

	calls = f.cs_calls;
	ok_eq(gaudi_submit_staged_encaps(dev, &c, 1, 0, 0, &e), -EINVAL,
	      "encaps: handle 0: -EINVAL");
	ok_eq(gaudi_submit_staged_encaps(dev, &c, 1, 4, r.handle, &e), -EINVAL,
	      "encaps: unknown flag: -EINVAL");
	ok_eq(gaudi_submit_staged_encaps(dev, &c, 1, 0, r.handle, NULL),
	      -EINVAL, "encaps: NULL sequence: -EINVAL");
	ok_eq(gaudi_submit_staged_encaps(NULL, &c, 1, 0, r.handle, &e),
	      -EINVAL, "encaps: NULL device: -EINVAL");
	ok_eq(gaudi_submit_staged_encaps(dev, &c, 0, 0, r.handle, &e),
	      -EINVAL, "encaps: 0 chunks: -EINVAL");
	ok_eq(f.cs_calls, calls, "none of them reached the driver");
	ok_eq(gaudi_submit_staged_encaps(dev, &c, 1, 0, r.handle + 100, &e),
	      -EINVAL, "encaps: unknown handle: the driver's -EINVAL");

	ok_eq(gaudi_submit_staged_encaps(dev, &c, 1, 0, r.handle, &e), 0,
	      "encaps: FIRST part takes the reservation, 4 SOB increments");
	ok(f.last_cs_in.cs_flags ==
		   (STAGED | STAGED_FIRST | HL_CS_FLAGS_ENCAP_SIGNALS) &&
	   f.last_cs_in.encaps_sig_handle_id == r.handle &&
	   (f.last_cs_in.seq >> 32) == 0 && chunk_is(&c) && e == f.seq,
	   "STAGED | _FIRST | ENCAP_SIGNALS, in.encaps_sig_handle_id, the chunk");
	ok_eq(f.last_cb_len, 4 * 16, "the CB: 4 MSG_LONGs");
	ok_eq(gaudi_signals_unreserve(dev, r.handle), -EINVAL,
	      "a reservation a submission took: unreserve -EINVAL");

	ok_eq(gaudi_submit_wait_encaps(dev, 0, e, 4, &w), 0,
	      "wait for signal 4 on DMA_0_0");
	ok(f.last_cs_in.cs_flags ==
		   (HL_CS_FLAGS_WAIT | HL_CS_FLAGS_ENCAP_SIGNALS) &&
	   f.last_cs_in.num_chunks_execute == 1 && w == f.seq && w != e,
	   "WAIT | ENCAP_SIGNALS, one chunk, its own sequence");
	memset(&want, 0, sizeof(want));
	want.encaps_signal_seq = e;
	want.queue_index = 0;
	want.encaps_signal_offset = 4;
	ok(!memcmp(&f.last_chunk, &want, sizeof(want)),
	   "chunk: queue 0, encaps_signal_seq, offset 4, nothing else");
	ok_eq(gaudi_submit_wait_encaps(dev, 5, e, 0, &w), 0,
	      "offset 0 (the first signal) on DMA_1_1");
	ok(f.last_chunk.queue_index == 5 &&
	   f.last_chunk.encaps_signal_offset == 0, "queue 5, offset 0");
	ok_eq(gaudi_submit_wait_encaps(dev, 0, e, 5, &w), -EINVAL,
	      "offset 5 of 4: the driver's -EINVAL");

	calls = f.cs_calls;
	ok_eq(gaudi_submit_wait_encaps(dev, 8, e, 1, &w), -EINVAL,
	      "wait on queue 8: -EINVAL");
	ok_eq(gaudi_submit_wait_encaps(dev, 0, 0, 1, &w), -EINVAL,
	      "wait for sequence 0: -EINVAL");
	ok_eq(gaudi_submit_wait_encaps(dev, 0, GAUDI_SEQ_NONE, 1, &w), -EINVAL,
	      "wait for GAUDI_SEQ_NONE: -EINVAL");
	ok_eq(gaudi_submit_wait_encaps(dev, 0, e, 1, NULL), -EINVAL,
	      "NULL sequence: -EINVAL");
	ok_eq(gaudi_submit_wait_encaps(NULL, 0, e, 1, &w), -EINVAL,
	      "NULL device: -EINVAL");
	ok_eq(f.cs_calls, calls, "none of them reached the driver");

	c = memset_chunk(1, 0x44, 0);
	s = e;
	ok_eq(gaudi_submit_staged(dev, &c, 1, GAUDI_STAGED_LAST, &s), 0,
	      "LAST part of the signalling submission");
	ok(s == e && f.last_cs_in.seq == e, "same sequence");
	ok_eq(gaudi_wait(dev, e, 1000, NULL), 0, "it completes");
	ok(gaudi_submit_wait_encaps(dev, 0, e, 1, &d) == 0 &&
	   gaudi_wait(dev, d, 1000, NULL) == 0,
	   "a wait on the ended submission completes");
	ok_eq(gaudi_signals_unreserve(dev, r.handle), -EINVAL,
	      "the reservation ended with its submission");
}

static void test_control(void)
{
	struct gaudi_signal_reservation r;
	struct gaudi_chunk c;
	struct gaudi_dev *ctl;
	uint64_t s = 0;

	if (!ok_eq(gaudi__open_sys(&f.sys, 0, GAUDI_OPEN_CONTROL, &ctl), 0,
		   "open the control node"))
		return;
	c = memset_chunk(0, 1, 0);
	ok_eq(gaudi_submit_staged(ctl, &c, 1, GAUDI_STAGED_FIRST, &s), -ENOTTY,
	      "control node: staged -ENOTTY");
	ok_eq(gaudi_submit_staged_encaps(ctl, &c, 1, 0, 1, &s), -ENOTTY,
	      "control node: staged encaps -ENOTTY");
	ok_eq(gaudi_signals_reserve(ctl, 0, 1, &r), -ENOTTY,
	      "control node: reserve -ENOTTY");
	ok_eq(gaudi_signals_unreserve(ctl, 1), -ENOTTY,
	      "control node: unreserve -ENOTTY");
	ok_eq(gaudi_submit_wait_encaps(ctl, 0, 1, 1, &s), -ENOTTY,
	      "control node: wait encaps -ENOTTY");
	gaudi_close(ctl);
}

int main(void)
{
	int i;

	fake_init(&f);
	fake_add_cards(&f, 1, "gaudi");
	if (!ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), 0, "open fake card"))
		return tap_done();
	for (i = 0; i < 3; i++)
		if (!ok_eq(gaudi_cb_create(dev, 4096, &cbs[i]), 0, "CB %d", i))
			return tap_done();
	test_staged();
	test_reserve();
	test_encaps();
	test_control();
	for (i = 0; i < 3; i++)
		gaudi_cb_destroy(cbs[i]);
	gaudi_close(dev);
	fake_fini(&f);
	return tap_done();
}
