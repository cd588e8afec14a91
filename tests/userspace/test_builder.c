// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgaudi command-buffer builder: growth, limits, -ENOSPC without partial
 * packets, fixed buffers, reset, loading a builder into a CB.
 */
#include <errno.h>
#include <string.h>

#include "fake.h"
#include "tap.h"

static void test_growing(void)
{
	struct gaudi_cmdbuf *cb;
	uint64_t vals[16] = { 0 };
	const void *before;
	int i, ret = 0;

	ok_eq(gaudi_cmdbuf_new(64, 32, &cb), -EINVAL,
	      "initial larger than max: -EINVAL");
	ok_eq(gaudi_cmdbuf_new(0, 0, NULL), -EINVAL, "NULL out: -EINVAL");
	if (!ok_eq(gaudi_cmdbuf_new(16, 200, &cb), 0, "builder 16 .. 200"))
		return;
	ok_eq(gaudi_cmdbuf_room(cb), 200, "room is the maximum");
	for (i = 0; i < 8 && !ret; i++)
		ret = gaudi_pkt_lin_dma(cb, i, i, 8, 0, 0);
	ok_eq(ret, 0, "8 x 24-byte LIN_DMA grow the buffer past 16 bytes");
	ok_eq(gaudi_cmdbuf_len(cb), 192, "192 bytes");
	ok_eq(gaudi_pkt_lin_dma(cb, 0, 0, 8, 0, 0), -ENOSPC,
	      "a 9th LIN_DMA (216 > 200) is -ENOSPC");
	ok_eq(gaudi_cmdbuf_len(cb), 192, "a refused packet writes nothing");
	ok_eq(gaudi_pkt_nop(cb, 0), 0, "an 8-byte NOP still fits exactly");
	ok_eq(gaudi_cmdbuf_room(cb), 0, "room 0 at the maximum");
	ok_eq(gaudi_pkt_nop(cb, 0), -ENOSPC, "full: NOP is -ENOSPC");
	before = gaudi_cmdbuf_data(cb);
	gaudi_cmdbuf_reset(cb);
	ok(gaudi_cmdbuf_len(cb) == 0 && gaudi_cmdbuf_data(cb) == before,
	   "reset empties and keeps the buffer");
	ok_eq(gaudi_pkt_wreg_bulk(cb, 0, vals, 16, 0), 0,
	      "WREG_BULK of 16 values (136 bytes) after reset");
	ok_eq(gaudi_pkt_wreg_bulk(cb, 0, vals, 16, 0), -ENOSPC,
	      "a second one does not fit in 200: -ENOSPC, all or nothing");
	ok_eq(gaudi_cmdbuf_len(cb), 136, "length unchanged");
	gaudi_cmdbuf_free(cb);

	/* The default maximum is the driver's CB limit. */
	if (ok_eq(gaudi_cmdbuf_new(0, 0, &cb), 0, "default builder")) {
		ok_eq(gaudi_cmdbuf_room(cb), HL_MAX_CB_SIZE,
		      "default maximum is HL_MAX_CB_SIZE");
		for (i = 0, ret = 0; i < 300000 && !ret; i++)
			ret = gaudi_pkt_nop(cb, 0);
		ok_eq(ret, -ENOSPC, "NOPs until -ENOSPC");
		ok_eq(gaudi_cmdbuf_len(cb), HL_MAX_CB_SIZE & ~7U,
		      "filled to the limit, in whole packets");
		gaudi_cmdbuf_free(cb);
	}
}

static void test_fixed(void)
{
	uint8_t mem[40 + 8];
	struct gaudi_cmdbuf *cb;

	ok_eq(gaudi_cmdbuf_wrap(NULL, 8, &cb), -EINVAL, "wrap NULL: -EINVAL");
	memset(mem, 0xEE, sizeof(mem));
	if (!ok_eq(gaudi_cmdbuf_wrap(mem, 40, &cb), 0, "wrap 40 bytes"))
		return;
	ok_eq(gaudi_pkt_lin_dma(cb, 1, 2, 3, 0, 0), 0, "LIN_DMA (24)");
	ok_eq(gaudi_pkt_lin_dma(cb, 1, 2, 3, 0, 0), -ENOSPC,
	      "second LIN_DMA (48 > 40): -ENOSPC, fixed buffers never grow");
	ok_eq(gaudi_pkt_msg_long(cb, 1, 2, 0, 0), 0, "MSG_LONG fills 40");
	ok_eq(gaudi_pkt_nop(cb, 0), -ENOSPC, "then NOP: -ENOSPC");
	ok(gaudi_cmdbuf_data(cb) == mem, "packets are in the caller's memory");
	ok(mem[40] == 0xEE && mem[47] == 0xEE, "nothing written past 40");
	gaudi_cmdbuf_free(cb);
	ok(mem[0] != 0xEE, "free leaves the caller's memory alone");
}

static void test_cb_load(void)
{
	struct gaudi_cmdbuf *b;
	struct gaudi_dev *dev;
	struct gaudi_cb *cb;
	struct fake f;
	int i;

	fake_init(&f);
	fake_add_cards(&f, 1, "gaudi");
	if (!ok_eq(gaudi__open_sys(&f.sys, 0, 0, &dev), 0, "open fake card"))
		goto out;
	if (!ok_eq(gaudi_cb_create(dev, 64, &cb), 0, "64-byte CB"))
		goto out_close;
	ok_eq(gaudi_cmdbuf_room(gaudi_cb_cmdbuf(cb)), 64,
	      "the CB's builder has the CB's size");
	gaudi_cmdbuf_new(0, 0, &b);
	for (i = 0; i < 3; i++)
		gaudi_pkt_lin_dma(b, 0, 0, 8, 0, 0);
	ok_eq(gaudi_cb_load(cb, b), -ENOSPC, "72 bytes into 64: -ENOSPC");
	gaudi_cmdbuf_reset(b);
	gaudi_pkt_lin_dma(b, 0x20000000, 0x7FF0000080ULL, 8, 0, 0);
	gaudi_pkt_nop(b, 0);
	ok_eq(gaudi_cb_load(cb, b), 0, "32 bytes load");
	ok(gaudi_cmdbuf_len(gaudi_cb_cmdbuf(cb)) == 32 &&
	   !memcmp(gaudi_cb_ptr(cb), gaudi_cmdbuf_data(b), 32),
	   "the CB holds the builder's packets and length");
	for (i = 0; i < 4; i++)
		gaudi_pkt_nop(gaudi_cb_cmdbuf(cb), 0);
	ok_eq(gaudi_pkt_nop(gaudi_cb_cmdbuf(cb), 0), -ENOSPC,
	      "appending past the CB's 64 bytes: -ENOSPC");
	gaudi_cmdbuf_free(gaudi_cb_cmdbuf(cb));	/* must be a no-op */
	ok_eq(gaudi_cmdbuf_len(gaudi_cb_cmdbuf(cb)), 64,
	      "freeing a CB's builder does nothing");
	gaudi_cmdbuf_free(b);
	ok_eq(gaudi_cb_destroy(cb), 0, "destroy CB");
out_close:
	gaudi_close(dev);
out:
	fake_fini(&f);
}

int main(void)
{
	test_growing();
	test_fixed();
	test_cb_load();
	return tap_done();
}
