/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake environment for the model's engines on the host: host memory is a
 * plain buffer at bus address 0, MSIs are counted, log lines are kept, time
 * is set by the test.  fakebus_new() gives the run-to-completion mode;
 * fakebus_new_async() adds a fake scheduler: the core's requests are kept
 * (earliest wins) and fake_advance() runs them as virtual time passes.
 */
#ifndef GAUDI_FAKEBUS_H
#define GAUDI_FAKEBUS_H

#include "../../emulator/core/gaudi_int.h"

#define FAKE_HOST_SIZE (64ULL << 20)
#define FAKE_HBM_SIZE (1ULL << 30)

struct fakebus {
	uint8_t *host;			/* FAKE_HOST_SIZE bytes at bus addr 0 */
	uint8_t *sram, *hbm, *flash;
	unsigned int msi_count;
	unsigned int guest_errors;
	char last_error[256];
	uint64_t now;
	bool quiet;			/* do not print log lines */
	/*
	 * Bus addresses [deny_lo, deny_hi) fail as an IOMMU without a
	 * mapping fails them (pci_dma_read/write != MEMTX_OK); denied
	 * counts the refused transactions.
	 */
	uint64_t deny_lo, deny_hi;
	unsigned int denied;
	struct gaudi_core *g;
	/* fake scheduler (asynchronous mode) */
	bool sched_pending;		/* a gaudi_core_run() is requested */
	uint64_t sched_at;		/* for this time */
	unsigned int sched_calls;	/* requests made */
	unsigned int steps;		/* gaudi_core_run() calls made */
};

/* Create a card on a fake bus; abort()s on allocation failure (tests). */
struct gaudi_core *fakebus_new(struct fakebus *fb);
/* The same with model options (run to completion). */
struct gaudi_core *fakebus_new_id(struct fakebus *fb,
				  const struct gaudi_identity *id);
void fakebus_free(struct fakebus *fb);

/* A card in the asynchronous mode with the given timing. */
struct gaudi_core *fakebus_new_async(struct fakebus *fb, uint32_t latency_ns,
				     uint32_t bandwidth_mbps);

/*
 * Let ns of virtual time pass, running every requested step that falls due
 * (at its requested time); at most max_steps steps (0: no limit).  Returns
 * the number of steps run.
 */
unsigned int fake_advance(struct fakebus *fb, uint64_t ns,
			  unsigned int max_steps);

/* Run steps until nothing is requested (at most max_steps); returns them. */
unsigned int fake_drain(struct fakebus *fb, unsigned int max_steps);

/* Device address of host bus address a (adds HOST_PHYS_BASE). */
static inline uint64_t fake_host_dev(uint64_t a)
{
	return a + GAUDI_HOST_PHYS_BASE;
}

/* Set bits [bit, bit + width) of a context kept as 32-bit words. */
static inline void setbits(uint32_t *e, unsigned int bit, unsigned int width,
			   uint32_t v)
{
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int b = bit + i;

		e[b / 32] &= ~(1U << (b % 32));
		e[b / 32] |= ((v >> i) & 1U) << (b % 32);
	}
}

#endif
