// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 device model: register file, register dispatch, device address
 * decode and the ELBI window.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gaudi_int.h"

void gaudi_log(struct gaudi_core *g, enum gaudi_log_level level,
               const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    if (!g->bus.log) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    g->bus.log(g->bus.opaque, level, msg);
}

uint64_t gaudi_now_ns(struct gaudi_core *g)
{
    return g->bus.now_ns ? g->bus.now_ns(g->bus.opaque) : 0;
}

void gaudi_msi(struct gaudi_core *g)
{
    if (g->bus.msi) {
        g->bus.msi(g->bus.opaque, 0);
    }
}

int gaudi_reg_claim(struct gaudi_core *g, uint32_t start, uint32_t end,
                    gaudi_reg_read_fn read, gaudi_reg_write_fn write)
{
    struct gaudi_reg_range *r;
    unsigned int i;

    if (g->nr_ranges == GAUDI_MAX_REG_RANGES || start >= end ||
        end > GAUDI_CFG_SIZE) {
        return -1;
    }
    /* Keep the table sorted by start so lookups can stop early. */
    for (i = g->nr_ranges; i > 0 && g->ranges[i - 1].start > start; i--) {
        g->ranges[i] = g->ranges[i - 1];
    }
    r = &g->ranges[i];
    r->start = start;
    r->end = end;
    r->read = read;
    r->write = write;
    g->nr_ranges++;
    return 0;
}

static const struct gaudi_reg_range *find_range(struct gaudi_core *g,
                                                uint32_t off)
{
    unsigned int i;

    for (i = 0; i < g->nr_ranges; i++) {
        const struct gaudi_reg_range *r = &g->ranges[i];

        if (off < r->start) {
            break;
        }
        if (off < r->end) {
            return r;
        }
    }
    return NULL;
}

uint32_t gaudi_cfg_read(struct gaudi_core *g, uint32_t off)
{
    const struct gaudi_reg_range *r;

    if (off >= GAUDI_CFG_SIZE || (off & 3)) {
        gaudi_guest_error(g, "CFG read at bad offset 0x%x", off);
        return 0;
    }
    if (gaudi_pb_area(off)) {
        return gaudi_pb_read(g, off);
    }
    r = find_range(g, off);
    if (r && r->read) {
        return r->read(g, off);
    }
    return gaudi_reg_get(g, off);
}

void gaudi_cfg_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    const struct gaudi_reg_range *r;

    if (off >= GAUDI_CFG_SIZE || (off & 3)) {
        gaudi_guest_error(g, "CFG write at bad offset 0x%x", off);
        return;
    }
    if (gaudi_pb_area(off)) {
        gaudi_pb_write(g, off, val);
        return;
    }
    gaudi_fabric_cfg_written(g, off);
    r = find_range(g, off);
    if (r && r->write) {
        r->write(g, off, val);
    } else {
        gaudi_reg_set(g, off, val);
    }
}

/* --- ELBI ------------------------------------------------------------- */

uint32_t gaudi_elbi_read(struct gaudi_core *g, uint32_t cfg_off)
{
    switch (cfg_off & ~3U) {
    case GAUDI_ELBI_ADDR:
        return g->elbi_addr;
    case GAUDI_ELBI_DATA:
        return g->elbi_data;
    case GAUDI_ELBI_STS:
        return g->elbi_sts;
    default:
        return 0;
    }
}

void gaudi_elbi_write(struct gaudi_core *g, uint32_t cfg_off, uint32_t val)
{
    uint32_t addr;

    switch (cfg_off & ~3U) {
    case GAUDI_ELBI_ADDR:
        g->elbi_addr = val;
        break;
    case GAUDI_ELBI_DATA:
        g->elbi_data = val;
        break;
    case GAUDI_ELBI_STS:
        g->elbi_sts = 0; /* cleared by any write */
        break;
    case GAUDI_ELBI_CTRL:
        addr = g->elbi_addr;
        /* The window reaches the CFG block (32-bit form 0xFCxx_xxxx). */
        if (addr < (uint32_t)GAUDI_CFG_BASE ||
            (addr & 3)) {
            gaudi_guest_error(g, "ELBI access to 0x%08x outside CFG",
                              addr);
            g->elbi_sts = GAUDI_ELBI_STS_DONE | GAUDI_ELBI_STS_ERR;
            break;
        }
        addr -= (uint32_t)GAUDI_CFG_BASE;
        if (val & GAUDI_ELBI_CTRL_WRITE) {
            gaudi_cfg_write(g, addr, g->elbi_data);
        } else {
            g->elbi_data = gaudi_cfg_read(g, addr);
        }
        g->elbi_sts = GAUDI_ELBI_STS_DONE;
        break;
    }
}

/* --- device address decode ---------------------------------------------- */

uint8_t *gaudi_local_ptr(struct gaudi_core *g, uint64_t addr, uint64_t len)
{
    if (addr < g->hbm_size && len <= g->hbm_size - addr) {
        return g->hbm + addr;
    }
    if (addr >= GAUDI_SRAM_BASE && addr - GAUDI_SRAM_BASE < GAUDI_SRAM_SIZE &&
        len <= GAUDI_SRAM_SIZE - (addr - GAUDI_SRAM_BASE)) {
        return g->sram + (addr - GAUDI_SRAM_BASE);
    }
    return NULL;
}

static bool is_host(uint64_t addr, uint64_t len)
{
    return addr >= GAUDI_HOST_PHYS_BASE && addr < GAUDI_VA_HOST_START &&
           len <= GAUDI_VA_HOST_START - addr;
}

static bool is_cfg(uint64_t addr, uint64_t len)
{
    return addr >= GAUDI_CFG_BASE && addr - GAUDI_CFG_BASE < GAUDI_CFG_SIZE &&
           len <= GAUDI_CFG_SIZE - (addr - GAUDI_CFG_BASE);
}

int gaudi_host_read(struct gaudi_core *g, uint64_t dev_addr, void *buf,
                    uint64_t len)
{
    if (!is_host(dev_addr, len) || !g->bus.dma_read) {
        return -1;
    }
    g->stat_pcie_tx += len;
    return g->bus.dma_read(g->bus.opaque, dev_addr - GAUDI_HOST_PHYS_BASE,
                           buf, len);
}

int gaudi_host_write(struct gaudi_core *g, uint64_t dev_addr,
                     const void *buf, uint64_t len)
{
    if (!is_host(dev_addr, len) || !g->bus.dma_write) {
        return -1;
    }
    g->stat_pcie_rx += len;
    return g->bus.dma_write(g->bus.opaque, dev_addr - GAUDI_HOST_PHYS_BASE,
                            buf, len);
}

uint64_t gaudi_cpu_addr_to_dev(struct gaudi_core *g, uint64_t cpu_addr)
{
    uint64_t msb = gaudi_reg_get(g, mmCPU_IF_CPU_MSB_ADDR);

    if (!(cpu_addr & (1ULL << 39))) {
        return cpu_addr; /* not in the host window: as is */
    }
    /*
     * The driver gives the device CPU host addresses with bits 49:39
     * folded to bit 39 and writes the real bits 49:39 of the device
     * address (which includes HOST_PHYS_BASE, i.e. bit 39) to
     * CPU_MSB_ADDR: 1 for hosts with under 512 GiB of RAM.
     */
    return (cpu_addr & ((1ULL << 39) - 1)) | (msb << 39);
}

int gaudi_dev_read(struct gaudi_core *g, uint64_t addr, void *buf,
                   uint64_t len)
{
    uint8_t *p = gaudi_local_ptr(g, addr, len);
    uint8_t *b = buf;
    uint64_t i;

    if (p) {
        memcpy(buf, p, len);
        return 0;
    }
    if (is_host(addr, len)) {
        return gaudi_host_read(g, addr, buf, len);
    }
    if (is_cfg(addr, len) && !(addr & 3) && !(len & 3)) {
        /* buf may be any byte of a frame: no 32-bit access to it. */
        for (i = 0; i < len / 4; i++) {
            uint32_t v = gaudi_cfg_read(g, addr - GAUDI_CFG_BASE + 4 * i);

            memcpy(b + 4 * i, &v, 4);
        }
        return 0;
    }
    return -1;
}

int gaudi_dev_write(struct gaudi_core *g, uint64_t addr, const void *buf,
                    uint64_t len)
{
    uint8_t *p = gaudi_local_ptr(g, addr, len);
    const uint8_t *b = buf;
    uint64_t i;

    if (p) {
        memcpy(p, buf, len);
        return 0;
    }
    if (is_host(addr, len)) {
        return gaudi_host_write(g, addr, buf, len);
    }
    if (is_cfg(addr, len) && !(addr & 3) && !(len & 3)) {
        for (i = 0; i < len / 4; i++) {
            uint32_t v;

            memcpy(&v, b + 4 * i, 4);
            gaudi_cfg_write(g, addr - GAUDI_CFG_BASE + 4 * i, v);
        }
        return 0;
    }
    return -1;
}

/* --- life cycle ----------------------------------------------------------- */

static void cfg_clear(struct gaudi_core *g)
{
    /*
     * Drop the pages instead of writing zeros: the register file is
     * 64 MiB of mostly untouched, and so unallocated, memory.
     */
    if (madvise(g->cfg, GAUDI_CFG_SIZE, MADV_DONTNEED)) {
        memset(g->cfg, 0, GAUDI_CFG_SIZE);
    }
}

/*
 * The ELBI window lives in the PCIe block's configuration space: a PCI
 * reset clears it; SW_ALL_RST, which keeps PCIe up, does not (an ELBI
 * access that races a hard reset still completes).
 */
void gaudi_elbi_reset(struct gaudi_core *g)
{
    g->elbi_addr = 0;
    g->elbi_data = 0;
    g->elbi_sts = 0;
}

void gaudi_core_reset(struct gaudi_core *g)
{
    cfg_clear(g);
    gaudi_fabric_reset(g);
    gaudi_prot_reset(g);
    gaudi_nic_reset(g);
    gaudi_mmu_reset(g);
    gaudi_sync_reset(g);
    gaudi_sched_reset(g);
    gaudi_dma_reset(g);
    gaudi_qman_reset(g);
    gaudi_eq_reset(g);
    gaudi_cpu_reset(g);
    gaudi_boot_reset(g);
}

struct gaudi_core *gaudi_core_new(const struct gaudi_bus *bus, uint8_t *sram,
                                  uint8_t *hbm, uint64_t hbm_size,
                                  uint8_t *flash,
                                  const struct gaudi_identity *id)
{
    struct gaudi_core *g = calloc(1, sizeof(*g));
    void *cfg;

    if (!g) {
        return NULL;
    }
    cfg = mmap(NULL, GAUDI_CFG_SIZE, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (cfg == MAP_FAILED) {
        free(g);
        return NULL;
    }
    g->cfg = cfg;
    gaudi_prot_init(g);
    if (!gaudi_prot_ready(g)) {
        munmap(cfg, GAUDI_CFG_SIZE);
        free(g);
        return NULL;
    }
    g->bus = *bus;
    if (id) {
        g->id = *id;
    }
    g->sram = sram;
    g->hbm = hbm;
    g->hbm_size = hbm_size;
    g->flash = flash;

    gaudi_boot_init(g);
    gaudi_cpu_init(g);
    gaudi_eq_init(g);
    gaudi_qman_init(g);
    gaudi_sync_init(g);
    gaudi_mmu_init(g);
    gaudi_ctl_init(g);
    gaudi_nic_init(g);
    gaudi_core_reset(g);
    return g;
}

void gaudi_core_free(struct gaudi_core *g)
{
    if (!g) {
        return;
    }
    gaudi_cpu_fini(g);
    gaudi_prot_fini(g);
    munmap(g->cfg, GAUDI_CFG_SIZE);
    free(g);
}

void gaudi_core_tick(struct gaudi_core *g)
{
    gaudi_cpu_tick(g);
    gaudi_qman_tick(g);
    gaudi_roce_run(g);
}
