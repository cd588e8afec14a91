/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The isolation property, checked on the host: a user command buffer goes
 * through gaudi.ko's parser (kernel/gaudi_parser.c, built here with the
 * tests/kernel shim) and, if accepted, runs on the device model set up the
 * way gaudi.ko sets up a card for one user context (queues, MMU, hardware
 * protection).  The model's transaction monitor reports every access an
 * engine makes; the oracle below fails the run on any access that went
 * through to something the context does not own.
 *
 * What the context owns (Documentation/security.rst):
 *  - host memory only through its MMU mappings (here: one 2 MiB mapping);
 *  - user HBM (from 0x2000_0000) and user SRAM (after the first 0x80 bytes);
 *  - the SOBs and monitors of the E_N, E_S and W_N sync managers, the W_S
 *    SOBs from 144 and monitors from 72, and the QMANs' fence counters.
 * The driver's own traffic is allowed: the QMAN reading the PQ and the
 * kernel copy of the CB, and on external queues the packets the driver
 * appends (one done word, one CQ entry, one MSI request per submission).
 *
 * With the parser bypassed (a test-only mode), the same oracle checks that
 * the hardware protection alone stops what the CB tries.  One exception is
 * by design of the hardware: on the external (PCI DMA) queues the command
 * processor is trusted, because it must write the completion, so messages
 * it executes are not checked by hardware; the parser alone guards them.
 */
#ifndef GAUDI_ISOLATION_H
#define GAUDI_ISOLATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fake host memory layout (bus addresses). */
#define ISO_PQ_BUS	0x10000ULL	/* 16 BDs */
#define ISO_PQ_LOG2	4
#define ISO_CQ_BUS	0x20000ULL	/* the driver's completion queue */
#define ISO_DONE_BUS	0x30000ULL	/* the driver's done words */
#define ISO_KCB_BUS	0x100000ULL	/* kernel copy of the CB */
#define ISO_MAX_CB	(64 * 1024)
#define ISO_USER_BUS	0x400000ULL	/* the context's mapped pages */
#define ISO_USER_SIZE	0x200000ULL	/* one 2 MiB page */
#define ISO_CANARY_BUS	0x800000ULL	/* another process's page */
/* Device VA of the mapping (after the 4 GiB CB window, as gaudi.ko). */
#define ISO_USER_VA	0x1000100000000ULL

#define ISO_USER_HBM	0x20000000ULL
#define ISO_SRAM_USER	0x80ULL

/* Queues the harness picks from (upstream ids): DMA external/internal, MME, TPC. */
extern const unsigned int iso_queues[];
#define ISO_NUM_EXTERNAL 5	/* the first entries are external queues */
extern const unsigned int iso_num_queues;

struct iso_stats {
	uint64_t runs, accepted, refused, txns, blocked, violations;
};

struct iso;

/* A card on a fake bus, with the oracle on its transaction monitor. */
struct iso *iso_new(void);
void iso_free(struct iso *s);

/*
 * data[1] bit 0: the input after byte 1 is a 4-byte length L, L bytes of
 * CB, and then what the user's memory holds before the run (at ISO_USER_VA,
 * in user SRAM at ISO_SRAM_CB and in user HBM at ISO_USER_HBM): the CBs a
 * CP_DMA runs (Habana's lower-CP chains, issue 23).
 */
#define ISO_FLAG_USER_CB	0x1
#define ISO_SRAM_CB		0x2000ULL	/* from the SRAM base, as hl-thunk */
/* Where the harness, as gaudi.ko, places the parsed CP_DMA targets. */
#define ISO_SUB_HBM		(ISO_ICB_HBM + 0x100000ULL)
#define ISO_SUB_SIZE		0x100000ULL

/*
 * Run one input: data[0] picks the queue, data[1] holds flags (above),
 * the rest is the CB.  Returns the number of violations of this run (0 is
 * the property); with @bypass the parser is not consulted.  @why gets a
 * description of the first violation (or of the parser's refusal).
 */
unsigned int iso_run(struct iso *s, const uint8_t *data, size_t size,
		     bool bypass, char *why, size_t why_len);
/* Blocked accesses (RAZWI, MMU fault) of the last run. */
uint64_t iso_last_blocked(const struct iso *s);
/* Whether the parser accepted the last run's CB. */
bool iso_last_accepted(const struct iso *s);
const struct iso_stats *iso_stats(const struct iso *s);

/* The seeds: each class of issue 9 and some legitimate work. */
struct iso_seed {
	const char *name;
	bool attack;		/* the parser must refuse it */
	bool hw_blocks;		/* without the parser, protection drops an access */
	size_t len;
	uint8_t data[512];
};
size_t iso_seeds(struct iso_seed *out, size_t max);

#endif
