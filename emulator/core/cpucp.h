/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Gaudi 1 model: device-CPU queues and the CPU-CP responder. */
#ifndef GAUDI_CPUCP_H
#define GAUDI_CPUCP_H

#include <stdbool.h>
#include <endian.h>
#include <stdint.h>

#include "fit.h"
#include "gaudi1/cpucp.h"

struct gaudi_core;

#define CPUCP_MAX_PKT_SIZE 0x10000 /* BD lengths are cast to u16 */

/* Little-endian stores for guest-visible structures. */
static inline uint32_t gaudi_le32(uint32_t v)
{
    return htole32(v);
}

static inline uint64_t gaudi_le64(uint64_t v)
{
    return htole64(v);
}

struct gaudi_cpu {
    /* Queue state after the QUEUE_INIT handshake. */
    bool queues_ready;
    uint64_t pq_base;  /* "CPU-accessible" form */
    uint32_t pq_entries;  /* 16-byte buffer descriptors */
    uint32_t pq_ci;
    /* Device-CPU state. */
    bool halted;   /* GIC HALT_MACHINE */
    bool hung;   /* injected: stops answering */
    bool pci_access;  /* ENABLE/DISABLE_PCI_ACCESS */
    bool ints_registered;  /* GIC INTS_REGISTER seen */
    uint64_t packets;  /* CPU-CP packets answered */
    /* Settings the host made. */
    uint64_t freq[GAUDI_FW_MAX_PLLS];
    uint64_t max_power_mw;
    uint32_t led[3];
    uint32_t pwm, pwm_enable;
    int64_t temp_offset_mc;
    uint64_t active;
    /* Sensor model: activity smoothed over time. */
    uint64_t last_ns, last_busy_ns, last_dma_bytes;
    uint32_t load_ppm;  /* 0 .. 1000000 */
    uint64_t energy_uj;
    uint64_t power_highest_mw;
    int64_t temp_highest_mc;
    uint32_t volt_lowest_mv, volt_highest_mv;
    uint64_t curr_highest_ma;
    bool power_throttle, thermal_throttle;
    uint64_t pcie_last_ns[2], pcie_last_bytes[2];
    /* Odd ports whose wire receive interrupt becomes an MSI (MSI_INFO_SET). */
    uint16_t nic_msi;
};

/*
 * A NIC port's wire interrupt: the device CPU raises the card's MSI for it
 * if the driver asked for that port (MSI_INFO_SET); false otherwise.
 */
bool gaudi_cpu_forward_nic_irq(struct gaudi_core *g, unsigned int port);

/* True while the device CPU runs its application and is not stopped. */
bool gaudi_cpu_serving(struct gaudi_core *g);

/*
 * A host buffer given to the device CPU as a "CPU-accessible" address:
 * true and its device address in *dev if [cpu_addr, +len) is host memory.
 */
bool gaudi_cpu_host_range(struct gaudi_core *g, uint64_t cpu_addr,
                          uint64_t len, uint64_t *dev);

/* Injected hang (heartbeat loss) and resume. */
void gaudi_cpu_set_hung(struct gaudi_core *g, bool hung);

#endif
