/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the command-buffer parser, a pure unit.
 *
 * gaudi_parse_cb() checks the kernel copy of a user command buffer against
 * an allowlist (Documentation/accel/parser.rst): every packet type, every
 * field, every register a WREG_32 names and every address a packet reads
 * or writes.  It has no device, takes no lock and allocates nothing; what
 * it needs to know about the queue and the context comes in a
 * struct gaudi_parser_cfg, and the only way out is the @mapped callback
 * that asks whether a device virtual range is mapped for the context.
 * The same file builds in the kernel and on the host (tests/kernel/, with
 * a shim for <linux/...>), where it is unit tested and fuzzed.
 */
#ifndef GAUDI_PARSER_H
#define GAUDI_PARSER_H

#include <linux/types.h>

/* The engine behind a queue's QMAN. */
enum gaudi_parser_engine {
	GAUDI_ENGINE_DMA,
	GAUDI_ENGINE_MME,
	GAUDI_ENGINE_TPC,
	GAUDI_ENGINE_NIC,
};

/**
 * struct gaudi_parser_cfg - what the parser knows about one queue
 * @queue: upstream queue id (only for the caller's messages)
 * @qm_base: CFG offset of the queue's QMAN
 * @stream: the queue's stream of that QMAN, 0..3
 * @engine: the engine behind the QMAN
 * @external: an external queue (completion through a CQ)
 * @nic_port: the port of a NIC queue (@engine GAUDI_ENGINE_NIC)
 * @encaps_sob: W_S SOB of a staged submission's encapsulated signals,
 *	which the CB may only add to; 0 if none
 * @fence_qm: CFG offsets of the QMANs whose CP fence counters (RDATA of
 *	streams 0..3) a user monitor's payload may target
 * @num_fence_qm: entries of @fence_qm
 * @lower: the CB runs on the QMAN's lower CP (a CB a CP_DMA started):
 *	no CP_DMA in it
 * @mapped: true if [@va, @va + @len) lies in one mapping of the context
 *	in the device MMU (host virtual range); called with @priv
 * @cp_dma: NULL refuses CP_DMA.  Otherwise called for each CP_DMA of an
 *	upper CB whose @len bytes at @addr are user memory, with the
 *	packet's byte @offset in the CB: it snapshots, parses (with @lower)
 *	and places the target and may rewrite the packet's address words,
 *	which the parser has read; 0 or a negative errno, which refuses the
 *	CB (gaudi_cs.c)
 * @rewrite: NULL refuses a COMMIT of the DMA core by WREG_32.  Otherwise
 *	called when one is accepted: the @len bytes from byte @offset of the
 *	CB (a run of register writes ending with the COMMIT, which the parser
 *	has read) must be replaced by @pkts, the same writes but the bases
 *	and DST_TSIZE_0, and a LIN_DMA that writes those and commits; or the
 *	16 bytes of a LOAD_AND_EXE by the packet it executes (NOPs for a
 *	load alone); 0 or a negative errno, which refuses the CB
 * @read: NULL refuses scalar loads (LOAD_AND_EXE).  Otherwise reads the
 *	@len bytes of user memory at @addr as they are at submission into
 *	@out; 0 or a negative errno
 * @priv: argument of @mapped, @cp_dma, @rewrite and @read
 */
struct gaudi_parser_cfg {
	u32 queue;
	u32 qm_base;
	u32 stream;
	enum gaudi_parser_engine engine;
	bool external;
	u32 nic_port;
	u32 encaps_sob;
	const u32 *fence_qm;
	u32 num_fence_qm;
	bool lower;
	bool (*mapped)(void *priv, u64 va, u64 len);
	int (*cp_dma)(void *priv, u32 offset, u64 addr, u32 len);
	int (*rewrite)(void *priv, u32 offset, const void *pkts, u32 len);
	int (*read)(void *priv, u64 addr, u32 len, void *out);
	void *priv;
};

/**
 * struct gaudi_parser_err - why a CB was refused
 * @offset: byte offset of the refused packet (the CB size when the size
 *	itself is wrong)
 * @opcode: its opcode (0 when none could be read)
 * @reason: a short static string
 * @value: the offending register, address or field (see @reason)
 */
struct gaudi_parser_err {
	u32 offset;
	u32 opcode;
	const char *reason;
	u64 value;
};

int gaudi_parse_cb(const struct gaudi_parser_cfg *cfg, const void *cb,
		   u32 size, struct gaudi_parser_err *err);
const char *gaudi_parser_pkt_name(u32 opcode);

#endif /* GAUDI_PARSER_H */
