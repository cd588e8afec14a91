// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: gaudi.ko's command-buffer parser alone.  Input: byte 0
 * picks the queue (its id modulo 113; the CPU queue 8 becomes TPC_0_0),
 * byte 1 an encapsulated-signal SOB (bit 7 set: W_S SOB 128 + bits 3:0),
 * bit 6 a caller that snapshots CP_DMA targets, bit 5 a lower CB (one a
 * CP_DMA started); the rest is the CB, parsed in a copy where upper CBs'
 * COMMITs are rewritten (as gaudi.ko), which the oracle then decodes.  Every CB the parser accepts is re-decoded by the
 * independent decoder of oracle.h; a violated property aborts the run
 * ("ORACLE: ..."), as does a refusal without a reason or with an errno
 * other than EPERM/EINVAL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gaudi_parser_cfg cfg;
	struct gaudi_parser_err err;
	unsigned int q;
	char why[200];
	int ret;

	if (size < 2)
		return 0;
	q = data[0] % 113;
	if (q == 8)
		q = 41;
	t_cfg(&cfg, q, data[1] & 0x80 ? 128 + (data[1] & 15) : 0);
	if (data[1] & 0x40)
		cfg.cp_dma = t_cp_dma;
	cfg.lower = data[1] & 0x20;
	/* As gaudi.ko: the copy is parsed, COMMITs rewritten in it. */
	if (size - 2 > T_RW_MAX)
		return 0;
	memcpy(t_rw_buf, data + 2, size - 2);
	if (!cfg.lower)
		cfg.rewrite = t_rewrite;
	if (!cfg.lower && !cfg.external) {
		cfg.read = t_read;	/* scalars: bytes of the input */
		t_read_src = data;
		t_read_len = (u32)size;
	}
	ret = gaudi_parse_cb(&cfg, t_rw_buf, size - 2, &err);
	if (ret == 0) {
		if (!oracle_check(&cfg, &t_env, t_rw_buf, size - 2, why,
				  sizeof(why))) {
			fprintf(stderr, "ORACLE: queue %u: %s\n", q, why);
			abort();
		}
	} else if ((ret != -EPERM && ret != -EINVAL) || !err.reason ||
		   err.offset > size - 2) {
		fprintf(stderr, "ORACLE: bad refusal %d (%s) at 0x%x\n", ret,
			err.reason ? err.reason : "no reason", err.offset);
		abort();
	}
	return 0;
}
