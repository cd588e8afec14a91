/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 device model: the engine core, independent of QEMU.
 *
 * The core implements the driver-visible interface of a Gaudi 1 card (the
 * facts in hw/gaudi1/, Documentation/hw.rst; the model and its fidelity in
 * Documentation/emulator/model.rst): the CFG register space, the boot state
 * machine and firmware-image check, the device-CPU (CPU-CP) channel and the
 * event queue, the queue managers with their packet executor, the sync
 * manager, the DMA engines, the device MMU and the NIC ports.
 *
 * It talks to its environment only through struct gaudi_bus (host memory,
 * MSI, time, logging), through the memory areas the environment owns
 * (SRAM, HBM, SPI flash) and, for the NIC ports, through struct
 * gaudi_nic_backend and gaudi_nic_receive()/gaudi_nic_set_link().  The
 * QEMU glue (emulator/qemu/) and the host unit tests and fuzzer
 * (tests/emulator/) are the two environments.
 *
 * The control plane (ELBI, boot, CPU-CP, MMU hop-0 and invalidation) runs
 * inside gaudi_cfg_write(): the drivers poll it with short timeouts.  The
 * data plane (queues, command processors, DMA) runs in one of two modes:
 *  - asynchronous (the bus has a schedule callback): a doorbell only marks
 *    the stream runnable and asks the bus to call gaudi_core_run() later;
 *    each call executes a bounded amount of work whose cost is modelled in
 *    time (packet latency, DMA bandwidth), so a submission completes after
 *    the doorbell write has returned, as on silicon;
 *  - run to completion (no schedule callback): a doorbell executes the
 *    queues until they are empty or blocked before the write returns.
 */
#ifndef GAUDI_CORE_H
#define GAUDI_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The address map, PCI identity and ELBI window (Documentation/hw.rst). */
#include "gaudi1/memmap.h"
#include "gaudi1/regs.h"
#include "gaudi1/nic.h"

enum gaudi_log_level {
    GAUDI_LOG_GUEST_ERROR, /* the guest misused the device */
    GAUDI_LOG_UNIMP, /* the guest used something the model lacks */
};

/*
 * Transaction monitor (tests only): who issued a device access and what
 * became of it.  Every access an engine makes (a QMAN fetching a PQ entry
 * or a CB, a packet's read or write, a register write by WREG_32/WREG_BULK,
 * a DMA core's source read and destination write, a monitor's payload
 * write) is reported once per contiguous piece, after translation and the
 * protection checks, whether it went through or not.  Host MMIO through
 * the BARs and the device CPU's own traffic are not engine accesses and are
 * not reported.  See Documentation/emulator/protection.rst.
 */
enum gaudi_initiator {
    GAUDI_INIT_QMAN, /* a QMAN stream; index = upstream queue id */
    GAUDI_INIT_DMA,  /* a DMA core's transfer; index = core 0..7 */
    GAUDI_INIT_MON,  /* a monitor; index = block * 512 + monitor */
    GAUDI_INIT_NIC,  /* a NIC port's engines; index = port 0..9 */
};

/* Sync-manager blocks in the monitor index (index / 512). */
enum { GAUDI_SM_E_N, GAUDI_SM_W_N, GAUDI_SM_E_S, GAUDI_SM_W_S };

enum gaudi_txn_result {
    GAUDI_TXN_OK,
    GAUDI_TXN_RAZWI,     /* dropped by a protection bit or range register */
    GAUDI_TXN_MMU_FAULT, /* no translation (or an untranslated host access) */
    GAUDI_TXN_DECODE,    /* the address decodes to nothing */
};

struct gaudi_txn {
    enum gaudi_initiator kind;
    uint32_t index;
    bool secure;    /* issued as a trusted (secure) access */
    bool write;
    uint16_t asid;  /* ASID of the props the initiator used */
    uint64_t addr;  /* address as issued (a VA in the MMU range) */
    /*
     * Device physical address after translation; a register is
     * GAUDI_CFG_BASE + its CFG offset; 0 after an MMU fault.
     */
    uint64_t pa;
    uint64_t len;
    enum gaudi_txn_result result;
};

/*
 * What the environment provides.  Host addresses are PCI bus (DMA)
 * addresses, i.e. device address minus GAUDI_HOST_PHYS_BASE.
 */
struct gaudi_bus {
    void *opaque;
    /* 0 on success, -1 if the host rejected the access. */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, uint64_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                     uint64_t len);
    void (*msi)(void *opaque, unsigned int vector);
    /* A monotonic clock in nanoseconds (virtual time under QEMU). */
    uint64_t (*now_ns)(void *opaque);
    void (*log)(void *opaque, enum gaudi_log_level level, const char *msg);
    /* The flash bytes [off, off + len) changed: persist them (optional). */
    void (*flash_dirty)(void *opaque, uint64_t off, uint64_t len);
    /*
     * Call gaudi_core_run() once delay_ns from now (optional).  A later
     * request for an earlier time replaces the pending one; one for a
     * later time may be ignored (the core asks again when it runs).
     * NULL selects the run-to-completion mode.
     */
    void (*schedule)(void *opaque, uint64_t delay_ns);
    /* Transaction monitor, optional (NULL under QEMU): see gaudi_txn. */
    void (*txn)(void *opaque, const struct gaudi_txn *t);
};

/* Default timing of the asynchronous mode (see model.rst). */
#define GAUDI_DEFAULT_PACKET_LATENCY_NS 50
#define GAUDI_DEFAULT_DMA_BANDWIDTH_MBPS 25000

/*
 * Per-card configuration from the environment: identity overrides
 * (zero/empty = what the firmware image says) and model options.
 */
struct gaudi_identity {
    char serial[32]; /* board serial number */
    uint32_t module_id; /* OAM slot 0..7 on a DL1 host */
    bool module_id_set;
    char card_name[16];
    bool test_hooks; /* decode GAUDI_MODEL_CTL_BASE (tests only) */
    /*
     * Asynchronous mode only: time a CP spends on one packet, and the
     * rate of one DMA core in MB/s (10^6 bytes/s); 0 = no time / no limit.
     */
    uint32_t packet_latency_ns;
    uint32_t dma_bandwidth_mbps;
    /*
     * No translation cache in the device MMU: every translation walks the
     * page tables (QEMU property tlb=off, for comparison).  Default: the
     * STLB model is on (mmu.h).
     */
    bool tlb_off;
    /*
     * The bound on one command buffer's work, in packets (qman.c); 0 =
     * the default of 2^20.  A smaller one lets host harnesses that run
     * fuzzed CBs to completion stop runaway loops sooner.
     */
    uint32_t cb_max_work;
    /*
     * The card's port MACs as its firmware data would give them (the
     * device CPU's NIC_INFO_GET); a port whose bit in nic_mac_set is clear
     * gets the firmware image's MAC.
     */
    uint8_t nic_mac[GAUDI_NIC_NUM_PORTS][6];
    uint16_t nic_mac_set;
    /*
     * RoCE fault injection (tests; QEMU properties roce-drop-every,
     * roce-reorder-every, roce-corrupt-every): of the RoCE frames the card
     * sends, drop every Nth, send every Nth after the next one, or send
     * every Nth with a bad iCRC; 0 = off.
     */
    uint32_t roce_drop_every;
    uint32_t roce_reorder_every;
    uint32_t roce_corrupt_every;
};

struct gaudi_core;

/*
 * Create a card.  sram (GAUDI_BAR0_SIZE bytes), hbm (hbm_size bytes) and
 * flash (GAUDI_FLASH_WINDOW bytes) are owned by the caller and must stay
 * valid for the core's lifetime; hbm may be sparse (untouched pages read 0).
 * Returns NULL on allocation failure.
 */
struct gaudi_core *gaudi_core_new(const struct gaudi_bus *bus, uint8_t *sram,
                                  uint8_t *hbm, uint64_t hbm_size,
                                  uint8_t *flash,
                                  const struct gaudi_identity *id);
void gaudi_core_free(struct gaudi_core *g);

/* Power-on / SW_ALL_RST reset: registers to reset values, engines idle. */
void gaudi_core_reset(struct gaudi_core *g);
void gaudi_elbi_reset(struct gaudi_core *g);

/* CFG space access: off is a CFG offset (0 .. GAUDI_CFG_SIZE - 1). */
uint32_t gaudi_cfg_read(struct gaudi_core *g, uint32_t off);
void gaudi_cfg_write(struct gaudi_core *g, uint32_t off, uint32_t val);

/* PCI config space ELBI window (offsets 0xFF0..0xFFF). */
uint32_t gaudi_elbi_read(struct gaudi_core *g, uint32_t cfg_off);
void gaudi_elbi_write(struct gaudi_core *g, uint32_t cfg_off, uint32_t val);

/*
 * Device-address access as the device's engines see it (no MMU): HBM,
 * SRAM, registers, host.  Return 0, or -1 for an address that decodes to
 * nothing (which the caller reports).
 */
int gaudi_dev_read(struct gaudi_core *g, uint64_t addr, void *buf,
                   uint64_t len);
int gaudi_dev_write(struct gaudi_core *g, uint64_t addr, const void *buf,
                    uint64_t len);

/*
 * Asynchronous mode: run the queues and DMA cores up to the bus's current
 * time, at most a bounded amount of work, then ask the bus to schedule the
 * next call if work remains.  Harmless to call at any time (also in the
 * run-to-completion mode, where it finds nothing to do).
 */
void gaudi_core_run(struct gaudi_core *g);

/* True while a queue or DMA core has work outstanding. */
bool gaudi_core_busy(struct gaudi_core *g);

/*
 * Periodic work that is not driven by a register write (sensor drift,
 * timed-out injected hangs).  The environment calls it now and then.
 */
void gaudi_core_tick(struct gaudi_core *g);

/*
 * NIC ports (nic.c, Documentation/emulator/nic.rst).  The environment
 * connects each of the GAUDI_NIC_NUM_PORTS ports to a link: it sets the
 * link state, hands received frames in and gets sent frames out through
 * the backend.  Frames are Ethernet frames from the destination MAC,
 * without preamble and FCS.
 */
struct gaudi_nic_backend {
    void *opaque;
    /* A frame leaves port p (called from inside a register write). */
    void (*send)(void *opaque, unsigned int port, const void *frame,
                 size_t len);
    /*
     * Optional: port p's receive ring has room again after
     * gaudi_nic_can_receive() said false (the driver consumed slots).
     */
    void (*rx_ready)(void *opaque, unsigned int port);
    /*
     * Optional: port p's transmitter was switched off or on (the driver
     * put its lanes in low power, or a reset woke them): the link of p
     * and of its peer change (gaudi_nic_powered()).
     */
    void (*power_changed)(void *opaque, unsigned int port);
};

/* Install the backend (a copy is kept); NULL disconnects every port. */
void gaudi_nic_set_backend(struct gaudi_core *g,
                           const struct gaudi_nic_backend *be);

/* Port p's link (the peer is there and up); kept across device resets. */
void gaudi_nic_set_link(struct gaudi_core *g, unsigned int port, bool up);
bool gaudi_nic_link(struct gaudi_core *g, unsigned int port);
/* Is port p's transmitter on (no lane of it in low power)? */
bool gaudi_nic_powered(struct gaudi_core *g, unsigned int port);

/* Would a frame arriving on port p now find a free ring slot? */
bool gaudi_nic_can_receive(struct gaudi_core *g, unsigned int port);

/*
 * Port p has link and a raw receive ring, and the ring is full: a frame
 * arriving now should wait (rx_ready follows when the driver frees
 * slots).  Otherwise an arriving frame is stored or dropped at once.
 */
bool gaudi_nic_rx_full(struct gaudi_core *g, unsigned int port);

/*
 * A frame arrives on port p: written to the port's raw receive ring,
 * which advances RES_RING0_PI and raises the receive interrupt.  Returns
 * false if the frame was dropped (no link, ring not set up or full, too
 * long); drops are counted in the port's MAC statistics.
 */
bool gaudi_nic_receive(struct gaudi_core *g, unsigned int port,
                       const void *frame, size_t len);

#endif /* GAUDI_CORE_H */
