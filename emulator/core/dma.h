/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the DMA cores (dma.c).  The engines' view of device
 * memory is the fabric's (fabric.h).
 */
#ifndef GAUDI_DMA_H
#define GAUDI_DMA_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric.h"

struct gaudi_core;
struct gaudi_init;

/* No stream owns the transfer (a direct COMMIT). */
#define GAUDI_DMA_NO_OWNER (-1)

/*
 * A DMA core's transfer in flight.  It moves data in pieces of at most
 * GAUDI_DMA_PIECE bytes; piece k ends at start_ns + (bytes up to the end of
 * piece k) / bandwidth, and its data is moved when the core runs at or
 * after that time.
 */
#define GAUDI_DMA_DIMS 5

/* One side of a non-linear transfer: dimension sizes and byte strides. */
struct gaudi_dma_shape {
    uint64_t size[GAUDI_DMA_DIMS]; /* [0] bytes, [1..4] counts (>= 1) */
    uint64_t stride[GAUDI_DMA_DIMS]; /* [1..4] bytes; [0] unused */
};

struct gaudi_dma_xfer {
    bool active;
    int owner;  /* qman * GAUDI_QM_STREAMS + stream, or NO_OWNER */
    uint32_t commit;
    struct gaudi_init in; /* the core as initiator, at the start */
    uint64_t src, dst, size, done;
    uint64_t start_ns;
    /* Without DMA_COMMIT_LIN: the shapes latched at the start. */
    struct gaudi_dma_shape sshape, dshape;
    /* Why the transfer fails at its start (NULL: it runs). */
    const char *fail;
};

#define GAUDI_DMA_PIECE (1ULL << 20)
#define GAUDI_DMA_BOUNCE (64 * 1024)

/* The DMA cores' state (dma.c). */
struct gaudi_dma {
    struct gaudi_dma_xfer x[GAUDI_NUM_DMA]; /* transfers in flight */
    uint8_t bounce[GAUDI_DMA_BOUNCE]; /* DMA between non-local ends */
};

/* How a transfer ended (gaudi_dma_progress()). */
struct gaudi_dma_end {
    bool ended;  /* it ended (the fields below are set) */
    bool err;  /* it failed (ERR_CAUSE set, event posted) */
    int owner;  /* as given to gaudi_dma_start() */
    uint64_t end_ns; /* the time its last piece ended */
};

/*
 * Start a transfer on DMA core n at time start_ns: copy size bytes from
 * src to dst or, with DMA_COMMIT_MEM_SET in commit, fill dst with the
 * 64-bit pattern src.  Without DMA_COMMIT_LIN the transfer is non-linear:
 * size is ignored, the source and destination walk the shapes in the
 * core's SRC_/DST_TSIZE_0..4 and _STRIDE_1..4 registers (latched now; a
 * count of 0 is taken as 1), both must hold the same number of bytes
 * (else the transfer fails), and a memset uses the destination's.  The
 * transpose and compression modes (DMA_COMMIT_TRANSPOSE, _COMPRESS,
 * _DECOMPRESS) are not modelled: such a transfer fails, nothing moved.  The
 * core latches its PROT/PROPS now.  Returns 0, or -1 if the core is busy.
 * The scheduler (sched.c) moves it forward with gaudi_dma_progress().
 */
int gaudi_dma_start(struct gaudi_core *g, unsigned int n, uint64_t src,
                    uint64_t dst, uint64_t size, uint32_t commit, int owner,
                    uint64_t start_ns);

/*
 * Move core n's transfer forward: every piece that ends at or before now,
 * at most *budget work units (one per started 64 KiB when running to
 * completion, per KiB in the asynchronous mode; at least one piece is
 * moved when it is due).  When the transfer ends (or fails: ERR_CAUSE
 * set, event posted) the core goes idle and *end says so (end->ended
 * stays false if the transfer's own writes reset the device).  Returns
 * true if anything happened.
 */
bool gaudi_dma_progress(struct gaudi_core *g, unsigned int n, uint64_t now,
                        uint64_t *budget, struct gaudi_dma_end *end);

/* Is core n busy with a transfer (STS0.BUSY)? */
bool gaudi_dma_busy(struct gaudi_core *g, unsigned int n);

/* Device reset: transfers in flight are dropped, no completion after it. */
void gaudi_dma_reset(struct gaudi_core *g);

/* Time the next piece of core n's transfer ends (UINT64_MAX: idle). */
uint64_t gaudi_dma_next_ns(struct gaudi_core *g, unsigned int n);

/* RAZWI initiator id of DMA channel n (its core and its QMAN). */
uint32_t gaudi_dma_razwi_id(unsigned int n);

/* DMA core n register access; rel is relative to the core base. */
uint32_t gaudi_dma_core_read(struct gaudi_core *g, unsigned int n,
                             uint32_t rel);
void gaudi_dma_core_write(struct gaudi_core *g, unsigned int n, uint32_t rel,
                          uint32_t val);

#endif
