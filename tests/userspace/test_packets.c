// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgaudi packet encodings, byte for byte against the Gaudi 1 packet
 * layouts (hw/gaudi1/packets.h), and the argument checks
 * of every packet function.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gaudi/gaudi.h"
#include "tap.h"

/* Expected packets as 32-bit words, laid out little-endian by hand. */
static int same(const struct gaudi_cmdbuf *cb, const uint32_t *w, size_t n,
		const char *what)
{
	const uint8_t *p = gaudi_cmdbuf_data(cb);
	uint8_t want[256];
	size_t i;

	for (i = 0; i < n; i++) {
		want[4 * i] = w[i] & 0xFF;
		want[4 * i + 1] = (w[i] >> 8) & 0xFF;
		want[4 * i + 2] = (w[i] >> 16) & 0xFF;
		want[4 * i + 3] = w[i] >> 24;
	}
	if (!ok(gaudi_cmdbuf_len(cb) == 4 * n && !memcmp(p, want, 4 * n),
		"%s: %zu bytes as laid out", what, 4 * n)) {
		for (i = 0; i < gaudi_cmdbuf_len(cb) && i < 64; i += 4)
			tap_diag("  word %zu: got %02x%02x%02x%02x", i / 4,
				 p[i + 3], p[i + 2], p[i + 1], p[i]);
		return 0;
	}
	return 1;
}

#define EXPECT(cb, what, ...)						\
	do {								\
		static const uint32_t _w[] = { __VA_ARGS__ };		\
		same(cb, _w, sizeof(_w) / sizeof(_w[0]), what);		\
		gaudi_cmdbuf_reset(cb);					\
	} while (0)

static void test_encodings(struct gaudi_cmdbuf *cb)
{
	static const uint8_t lin_dma_bytes[24] = {
		0x00, 0x00, 0x04, 0x00,	/* tsize 0x40000 */
		0x08, 0x00, 0x00, 0xE9,	/* LIN | opcode 9 | EB RB MB */
		0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,	/* src */
		0x80, 0x00, 0x10, 0xF0, 0x7F, 0x00, 0x00, 0x00,	/* dst */
	};
	uint64_t bulk[2] = { 0x1122334455667788ULL, 0x99 };

	/* LIN_DMA as literal bytes: the layout hl_upstream_test uses. */
	ok_eq(gaudi_pkt_lin_dma(cb, 0x7FF0100080ULL, 0x1000000002000ULL,
				0x40000, 0,
				GAUDI_PKT_EB | GAUDI_PKT_RB | GAUDI_PKT_MB), 0,
	      "LIN_DMA appended");
	ok(gaudi_cmdbuf_len(cb) == 24 &&
	   !memcmp(gaudi_cmdbuf_data(cb), lin_dma_bytes, 24),
	   "LIN_DMA: 24 bytes {tsize, ctl, src, dst}, little-endian");
	gaudi_cmdbuf_reset(cb);

	ok_eq(gaudi_pkt_wreg32(cb, 0x1234, 0xDEADBEEF, GAUDI_PKT_MB), 0,
	      "WREG_32");
	EXPECT(cb, "WREG_32 {value; reg 23:8, op 1, MB}",
	       0xDEADBEEF, 0x81123400);

	ok_eq(gaudi_pkt_wreg_bulk(cb, 0x100, bulk, 2, GAUDI_PKT_RB), 0,
	      "WREG_BULK");
	EXPECT(cb, "WREG_BULK {size64; reg, op 2, RB; u64 values[2]}",
	       2, 0x42010000, 0x55667788, 0x11223344, 0x99, 0);

	ok_eq(gaudi_pkt_msg_long(cb, 0x7FFC001234ULL, 7, GAUDI_MSG_OP_WRITE,
				 GAUDI_PKT_MB), 0, "MSG_LONG");
	EXPECT(cb, "MSG_LONG {value; op 3, MB; addr}",
	       7, 0x83000000, 0xFC001234, 0x7F);

	ok_eq(gaudi_pkt_msg_long(cb, 0x1000000000008ULL, 0,
				 GAUDI_MSG_OP_TIMESTAMP, 0), 0,
	      "MSG_LONG timestamp");
	EXPECT(cb, "MSG_LONG timestamp: ctl op bits 21:20 = 1",
	       0, 0x03100000, 0x8, 0x10000);

	ok_eq(gaudi_pkt_msg_short(cb, 2, 0x1A4, gaudi_sob_value(5, true),
				  GAUDI_MSG_OP_WRITE, 0), 0, "MSG_SHORT");
	EXPECT(cb, "MSG_SHORT {SOB add 5; addr 15:0, base 23:22, op 4}",
	       0x80000005, 0x048001A4);

	ok_eq(gaudi_pkt_sob_inc(cb, GAUDI_CFG_BASE + 0x492000 + 4 * 128,
				GAUDI_PKT_EB), 0, "SOB increment");
	EXPECT(cb, "SOB +1: MSG_LONG {add 1 (bit 31); op 3, EB; SOB 128}",
	       0x80000001, 0x23000000, 0xFC492200, 0x7F);

	ok_eq(gaudi_sob_value(0x7FFF, false), 0x7FFF, "SOB set value 14:0");
	ok_eq(gaudi_sob_value(0x8001, false), 1, "SOB value masked to 15 bits");
	ok_eq(gaudi_mon_arm_value(18, 0xFB, 1, false), 0x2FB12,
	      "monitor arm: group 7:0, mask 15:8, value 31:17");
	ok_eq(gaudi_mon_arm_value(0, 0, 0x7FFF, true), 0xFFFF0000 | 1U << 16,
	      "monitor arm: mode bit 16, value up to 0x7FFF");

	ok_eq(gaudi_pkt_cp_dma(cb, 0x1000000001000ULL, 256, 0), 0, "CP_DMA");
	EXPECT(cb, "CP_DMA {tsize; op 5; src}",
	       0x100, 0x05000000, 0x1000, 0x10000);

	ok_eq(gaudi_pkt_repeat(cb, 0x20, true, true, 0), 0, "REPEAT");
	EXPECT(cb, "REPEAT {jump 31:16, o bit 1, sore bit 0; op 6}",
	       0x00200003, 0x06000000);

	ok_eq(gaudi_pkt_msg_prot(cb, 0x1000000000040ULL, 0x72E91AB9,
				 GAUDI_MSG_OP_WRITE, GAUDI_PKT_MB), 0,
	      "MSG_PROT");
	EXPECT(cb, "MSG_PROT {value; op 7, MB; addr}",
	       0x72E91AB9, 0x87000000, 0x40, 0x10000);

	ok_eq(gaudi_pkt_fence(cb, 2, 1, 1, 3, 0), 0, "FENCE");
	EXPECT(cb, "FENCE {id 31:30, target 23:16, dec 3:0; op 8, pred 4:0}",
	       0x80010001, 0x08000003);

	ok_eq(gaudi_pkt_memset(cb, 0x20000000, 0x5A5A5A5A5A5A5A5AULL, 4096,
			       GAUDI_LIN_DMA_WRCOMP, 0), 0, "LIN_DMA memset");
	EXPECT(cb, "LIN_DMA memset: MEMSET bit 4, LIN bit 3, WRCOMP bit 0",
	       4096, 0x09000019, 0x5A5A5A5A, 0x5A5A5A5A, 0x20000000, 0);

	ok_eq(gaudi_pkt_nop(cb, GAUDI_PKT_EB), 0, "NOP");
	EXPECT(cb, "NOP {0; op 0xA, EB}", 0, 0x2A000000);

	ok_eq(gaudi_pkt_stop(cb, 0), 0, "STOP");
	EXPECT(cb, "STOP {0; op 0xB}", 0, 0x0B000000);

	ok_eq(gaudi_pkt_arb_point(cb, 1, true, 0), 0, "ARB_POINT");
	EXPECT(cb, "ARB_POINT {release bit 31, priority 7:0; op 0xC}",
	       0x80000001, 0x0C000000);

	ok_eq(gaudi_pkt_wait(cb, 1, 1, 0x10, 0), 0, "WAIT");
	EXPECT(cb, "WAIT {id 29:28, inc 27:24, cycles 23:0; op 0xD}",
	       0x11000010, 0x0D000000);

	ok_eq(gaudi_pkt_load_and_exe(cb, 0x20001000,
				     GAUDI_LOAD_EXE_LOAD | GAUDI_LOAD_EXE_EXE,
				     0), 0, "LOAD_AND_EXE");
	EXPECT(cb, "LOAD_AND_EXE {load bit 8, exe bit 9; op 0xF; src}",
	       0x300, 0x0F000000, 0x20001000, 0);

	/* Several packets back to back keep their order and sizes. */
	gaudi_pkt_nop(cb, 0);
	gaudi_pkt_msg_long(cb, 0x10, 1, 0, 0);
	gaudi_pkt_lin_dma(cb, 0x20, 0x30, 8, 0, 0);
	ok_eq(gaudi_cmdbuf_len(cb), 8 + 16 + 24,
	      "NOP + MSG_LONG + LIN_DMA are 48 bytes");
	gaudi_cmdbuf_reset(cb);
}

/* Each bad argument is -EINVAL and writes nothing. */
static void test_bad_args(struct gaudi_cmdbuf *cb)
{
	uint64_t v = 0;
	struct {
		int ret;
		const char *what;
	} t[] = {
		{ gaudi_pkt_wreg32(cb, 0x10000, 0, 0), "WREG_32 reg > 0xFFFF" },
		{ gaudi_pkt_wreg32(cb, 0, 0, 1), "ctl bit 0 (not a barrier)" },
		{ gaudi_pkt_wreg32(cb, 0, 0, 0x1F000000), "ctl opcode bits" },
		{ gaudi_pkt_wreg_bulk(cb, 0, &v, 0, 0), "WREG_BULK count 0" },
		{ gaudi_pkt_wreg_bulk(cb, 0, NULL, 1, 0), "WREG_BULK NULL" },
		{ gaudi_pkt_wreg_bulk(cb, 0, &v, 0x10000, 0),
		  "WREG_BULK count > 0xFFFF" },
		{ gaudi_pkt_msg_long(cb, 0, 0, 2, 0), "MSG_LONG op 2" },
		{ gaudi_pkt_msg_prot(cb, 0, 0, 3, 0), "MSG_PROT op 3" },
		{ gaudi_pkt_sob_inc(cb, GAUDI_CFG_BASE + 0x492002, 0),
		  "SOB increment at an unaligned address" },
		{ gaudi_pkt_sob_inc(cb, GAUDI_CFG_BASE + 0x492200, 1),
		  "SOB increment ctl bit 0" },
		{ gaudi_pkt_sob_inc(NULL, GAUDI_CFG_BASE + 0x492200, 0),
		  "SOB increment, NULL builder" },
		{ gaudi_pkt_msg_short(cb, 4, 0, 0, 0, 0), "MSG_SHORT base 4" },
		{ gaudi_pkt_msg_short(cb, 0, 0x10000, 0, 0, 0),
		  "MSG_SHORT offset > 0xFFFF" },
		{ gaudi_pkt_repeat(cb, 0x10000, false, false, 0),
		  "REPEAT jump > 0xFFFF" },
		{ gaudi_pkt_fence(cb, 4, 0, 0, 0, 0), "FENCE id 4" },
		{ gaudi_pkt_fence(cb, 0, 0x100, 0, 0, 0), "FENCE target 256" },
		{ gaudi_pkt_fence(cb, 0, 0, 0x10, 0, 0), "FENCE dec 16" },
		{ gaudi_pkt_fence(cb, 0, 0, 0, 0x20, 0), "FENCE pred 32" },
		{ gaudi_pkt_lin_dma(cb, 1ULL << 56, 0, 8, 0, 0),
		  "LIN_DMA dst above bit 55" },
		{ gaudi_pkt_lin_dma(cb, 0, 0, 8, 1U << 3, 0),
		  "LIN_DMA opts LIN bit (set by the library)" },
		{ gaudi_pkt_memset(cb, 0, 0, 8, 1U << 4, 0),
		  "memset opts MEMSET bit" },
		{ gaudi_pkt_arb_point(cb, 0x100, false, 0),
		  "ARB_POINT priority 256" },
		{ gaudi_pkt_wait(cb, 4, 0, 0, 0), "WAIT id 4" },
		{ gaudi_pkt_wait(cb, 0, 0x10, 0, 0), "WAIT inc 16" },
		{ gaudi_pkt_wait(cb, 0, 0, 0x1000000, 0), "WAIT cycles 2^24" },
		{ gaudi_pkt_load_and_exe(cb, 0, 1U << 2, 0),
		  "LOAD_AND_EXE unknown cfg bit" },
		{ gaudi_pkt_nop(NULL, 0), "NULL builder" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ok_eq(t[i].ret, -EINVAL, "%s: -EINVAL", t[i].what);
	ok_eq(gaudi_cmdbuf_len(cb), 0, "nothing written by refused packets");
}

int main(void)
{
	struct gaudi_cmdbuf *cb = NULL;

	if (!ok_eq(gaudi_cmdbuf_new(0, 0, &cb), 0, "builder"))
		return tap_done();
	test_encodings(cb);
	test_bad_args(cb);
	gaudi_cmdbuf_free(cb);
	return tap_done();
}
