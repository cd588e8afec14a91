/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 device model: internal interfaces shared by the engine modules.
 *
 * Module map (one file per engine, each with its own header):
 *   core.c   register file, register dispatch, device address decode, ELBI
 *   boot.c   boot state machine, hard reset; fit.c firmware (FIT) check
 *   flash.c  SPI flash boot slots, active-slot records, CPU-CP flash ops
 *   cpucp.c  device-CPU queues and CPU-CP responder, sensors
 *   eq.c     event queue towards the driver
 *   sched.c  the data-plane scheduler: time, the run loop of queues and DMA
 *   qman.c   queue managers and the packet executor
 *   dma.c    DMA cores (LIN_DMA copy / memset, strided), their transfers
 *   sync.c   sync manager: sync objects, monitors
 *   mmu.c    device MMU: hop-0 setup, invalidation, 5-hop walk
 *   fabric.c the engines' access path: translation, decode, range registers,
 *            protection-bit checks, RAZWI, transaction monitor
 *   prot.c   protection bits (storage and registers)
 *   nic.c    NIC ports: MAC link and statistics, QP-context gateway, raw
 *            Ethernet send queue and receive ring, QPC interrupts
 *   roce.c   NIC RoCE v2 engine: RDMA WRITE requester and responder
 *   ctl.c    model-only control window for tests (fault injection)
 */
#ifndef GAUDI_INT_H
#define GAUDI_INT_H

#include <stdarg.h>
#include "gaudi_core.h"
#include "gaudi_regs.h"
#include "boot.h"
#include "cpucp.h"
#include "flash.h"
#include "eq.h"
#include "sched.h"
#include "qman.h"
#include "dma.h"
#include "sync.h"
#include "mmu.h"
#include "fabric.h"
#include "prot.h"
#include "nic.h"

#define GAUDI_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef uint32_t (*gaudi_reg_read_fn)(struct gaudi_core *g, uint32_t off);
typedef void (*gaudi_reg_write_fn)(struct gaudi_core *g, uint32_t off,
                                   uint32_t val);

struct gaudi_reg_range {
    uint32_t start, end; /* CFG offsets, end exclusive */
    gaudi_reg_read_fn read; /* NULL: the stored value */
    gaudi_reg_write_fn write; /* NULL: store; else the handler stores */
};

#define GAUDI_MAX_REG_RANGES 64

struct gaudi_core {
    struct gaudi_bus bus;
    struct gaudi_identity id;
    uint8_t *sram;
    uint8_t *hbm;
    uint64_t hbm_size;
    uint8_t *flash;

    uint32_t *cfg;  /* GAUDI_CFG_SIZE bytes, lazily backed */
    struct gaudi_reg_range ranges[GAUDI_MAX_REG_RANGES];
    unsigned int nr_ranges;

    uint32_t elbi_addr, elbi_data, elbi_sts;

    /* Statistics the device CPU reports (PCI counters, energy). */
    uint64_t stat_dma_bytes; /* bytes moved by DMA engines */
    uint64_t stat_busy_ns;  /* time engines spent busy */
    uint64_t stat_pcie_rx, stat_pcie_tx; /* host DMA bytes */

    struct gaudi_boot boot;
    struct gaudi_flash_state fl;
    struct gaudi_cpu cpu;
    struct gaudi_eq eq;
    struct gaudi_sched sched;
    struct gaudi_qmans qm;
    struct gaudi_dma dma;
    struct gaudi_sync sync;
    struct gaudi_mmu mmu;
    struct gaudi_prot prot;
    struct gaudi_fabric fabric;
    struct gaudi_nic nic;
};

/* --- core.c ----------------------------------------------------------- */

/* Claim [start, end) of CFG space; returns 0, or -1 if the table is full. */
int gaudi_reg_claim(struct gaudi_core *g, uint32_t start, uint32_t end,
                    gaudi_reg_read_fn read, gaudi_reg_write_fn write);

/* Raw register storage (no side effects). */
static inline uint32_t gaudi_reg_get(struct gaudi_core *g, uint32_t off)
{
    return g->cfg[(off & (GAUDI_CFG_SIZE - 1)) >> 2];
}

static inline void gaudi_reg_set(struct gaudi_core *g, uint32_t off,
                                 uint32_t val)
{
    g->cfg[(off & (GAUDI_CFG_SIZE - 1)) >> 2] = val;
}

/* Log through the bus; printf-style. */
void gaudi_log(struct gaudi_core *g, enum gaudi_log_level level,
               const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define gaudi_guest_error(g, ...) \
    gaudi_log((g), GAUDI_LOG_GUEST_ERROR, __VA_ARGS__)

uint64_t gaudi_now_ns(struct gaudi_core *g);
void gaudi_msi(struct gaudi_core *g);

/*
 * Host access with a device address that is known to be in host space
 * (>= GAUDI_HOST_PHYS_BASE, below the MMU range).
 */
int gaudi_host_read(struct gaudi_core *g, uint64_t dev_addr, void *buf,
                    uint64_t len);
int gaudi_host_write(struct gaudi_core *g, uint64_t dev_addr,
                     const void *buf, uint64_t len);

/* "CPU-accessible" address (bits 49:39 -> CPU_MSB_ADDR) to device address. */
uint64_t gaudi_cpu_addr_to_dev(struct gaudi_core *g, uint64_t cpu_addr);

/*
 * Direct pointer into HBM or SRAM for [addr, addr + len) if the whole range
 * lies inside one of them, else NULL.
 */
uint8_t *gaudi_local_ptr(struct gaudi_core *g, uint64_t addr, uint64_t len);

/* --- module entry points (each module implements its own) ------------- */
void gaudi_boot_init(struct gaudi_core *g);
void gaudi_boot_reset(struct gaudi_core *g);
void gaudi_cpu_init(struct gaudi_core *g);
void gaudi_cpu_reset(struct gaudi_core *g);
void gaudi_cpu_fini(struct gaudi_core *g);
void gaudi_cpu_tick(struct gaudi_core *g);
void gaudi_eq_init(struct gaudi_core *g);
void gaudi_eq_reset(struct gaudi_core *g);
void gaudi_qman_init(struct gaudi_core *g);
void gaudi_qman_reset(struct gaudi_core *g);
void gaudi_qman_tick(struct gaudi_core *g);
void gaudi_sync_init(struct gaudi_core *g);
void gaudi_sync_reset(struct gaudi_core *g);
void gaudi_mmu_init(struct gaudi_core *g);
void gaudi_mmu_reset(struct gaudi_core *g);
void gaudi_ctl_init(struct gaudi_core *g);
void gaudi_prot_init(struct gaudi_core *g);
bool gaudi_prot_ready(struct gaudi_core *g);
void gaudi_prot_reset(struct gaudi_core *g);
void gaudi_prot_fini(struct gaudi_core *g);

#endif /* GAUDI_INT_H */
