/*
 * Habana Gaudi 1 (HL-205) PCIe device model: QEMU glue.
 *
 * The device's behaviour lives in the engine core (core.c and the modules
 * next to it, also built on the host for unit tests and fuzzing); this file
 * only maps the BARs, the ELBI window in PCI config space, MSI, DMA and the
 * flash backing file onto QEMU.
 *
 * The queues and DMA engines run asynchronously: the core asks for a step
 * through the bus's schedule callback, which arms a QEMU_CLOCK_VIRTUAL
 * timer; the step runs in the main loop after the doorbell write returned.
 * The "sync" property selects the old run-to-completion mode instead.
 *
 * Each of the ten NIC ports can be connected to a netdev ("netdev0" ..
 * "netdev9"); a port without one has no link.  The port's link follows
 * QEMU's link state of the port and of its peer, and across a hub the
 * other end's (Documentation/emulator/nic.rst).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include "qemu/module.h"
#include "qemu/error-report.h"
#include "qemu/host-utils.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msi.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "net/net.h"
#include "migration/vmstate.h"
#include "qom/object.h"
#include "trace.h"

#include "gaudi_core.h"

#define TYPE_GAUDI "gaudi"
OBJECT_DECLARE_SIMPLE_TYPE(GaudiState, GAUDI)

#define GAUDI_PCIE_CAP_OFFSET 0x80
#define GAUDI_MSI_CAP_OFFSET 0x50
#define GAUDI_TICK_NS (100 * 1000 * 1000)    /* sensors, heartbeat */
#define GAUDI_MODULE_ID_UNSET UINT32_MAX
/* PCI class "processing accelerator" (0x12), as the real card reports. */
#define GAUDI_PCI_CLASS 0x1200
/* Guest errors printed per card without -d guest_errors; then silence. */
#define GAUDI_ERROR_LOG_BURST 20

typedef struct GaudiPort {
    GaudiState *card;
    unsigned int index;
    NICConf conf;    /* properties "netdevN", "macN" */
    NICState *nic;    /* NULL: no netdev, no link */
} GaudiPort;

struct GaudiState {
    PCIDevice parent_obj;

    MemoryRegion sram;    /* BAR0 */
    MemoryRegion bar2;    /* BAR2: flash window + CFG */
    MemoryRegion flash_mr;
    MemoryRegion cfg_mr;
    MemoryRegion hbm;    /* BAR4 */
    QEMUTimer *tick;
    QEMUTimer *run;    /* the core's next asynchronous step */
    uint8_t *flash;
    int flash_fd;
    unsigned int errors_logged;
    struct gaudi_core *core;

    /* properties */
    uint64_t hbm_size;
    char *serial;
    char *card_name;
    char *flash_path;
    uint32_t module_id;
    bool test_hooks;
    bool sync;
    uint32_t packet_latency_ns;
    uint32_t dma_bandwidth_mbps;
    bool tlb;
    /* RoCE fault injection (tests): every Nth frame; 0 = off. */
    uint32_t roce_drop_every, roce_reorder_every, roce_corrupt_every;
    GaudiPort port[GAUDI_NIC_NUM_PORTS];
};

static uint64_t gaudi_cfg_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    GaudiState *s = opaque;
    uint32_t val = gaudi_cfg_read(s->core, addr);

    trace_gaudi_cfg_read(addr, val);
    return val;
}

static void gaudi_cfg_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                                 unsigned size)
{
    GaudiState *s = opaque;

    trace_gaudi_cfg_write(addr, val);
    gaudi_cfg_write(s->core, addr, val);
}

static const MemoryRegionOps gaudi_cfg_ops = {
    .read = gaudi_cfg_mmio_read,
    .write = gaudi_cfg_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* --- bus services for the core --------------------------------------- */

static int gaudi_bus_dma_read(void *opaque, uint64_t addr, void *buf,
                              uint64_t len)
{
    GaudiState *s = opaque;

    return pci_dma_read(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static int gaudi_bus_dma_write(void *opaque, uint64_t addr, const void *buf,
                               uint64_t len)
{
    GaudiState *s = opaque;

    return pci_dma_write(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static void gaudi_bus_msi(void *opaque, unsigned int vector)
{
    PCIDevice *pdev = PCI_DEVICE(opaque);

    trace_gaudi_msi(vector);
    if (msi_enabled(pdev)) {
        msi_notify(pdev, vector);
    }
}

static uint64_t gaudi_bus_now(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void gaudi_bus_log(void *opaque, enum gaudi_log_level level,
                          const char *msg)
{
    GaudiState *s = opaque;
    const char *id = PCI_DEVICE(s)->name;

    switch (level) {
    case GAUDI_LOG_GUEST_ERROR:
        /*
         * Always visible with -d guest_errors; otherwise the first
         * few per card go to stderr so a test log shows what the
         * guest did wrong, and a misbehaving guest cannot flood it.
         */
        if (qemu_loglevel_mask(LOG_GUEST_ERROR)) {
            qemu_log("%s: %s\n", id, msg);
        } else if (s->errors_logged < GAUDI_ERROR_LOG_BURST) {
            s->errors_logged++;
            warn_report("%s: guest error: %s%s", id, msg,
                        s->errors_logged == GAUDI_ERROR_LOG_BURST ?
                        " (further errors: -d guest_errors)" : "");
        }
        break;
    case GAUDI_LOG_UNIMP:
        qemu_log_mask(LOG_UNIMP, "%s: %s\n", id, msg);
        break;
    }
}

static void gaudi_bus_schedule(void *opaque, uint64_t delay_ns)
{
    GaudiState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    /* Only ever earlier: the core asks again for later work. */
    timer_mod_anticipate_ns(s->run, now + MIN(delay_ns, INT64_MAX - now));
}

static void gaudi_run(void *opaque)
{
    GaudiState *s = opaque;

    gaudi_core_run(s->core);
}

static void gaudi_ports_poll(GaudiState *s);

static void gaudi_tick(void *opaque)
{
    GaudiState *s = opaque;

    gaudi_core_tick(s->core);
    gaudi_ports_poll(s);
    timer_mod(s->tick, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + GAUDI_TICK_NS);
}

/* --- NIC ports: one QEMU NIC client per connected port ----------------- */

static NetClientInfo gaudi_port_info;

/*
 * The port's own end of the cable is plugged in and up, and, for a Gaudi
 * port, its transmitter is on (the driver did not put it in low power).
 */
static bool gaudi_port_local_up(NetClientState *nc)
{
    if (!nc || nc->link_down || !nc->peer || nc->peer->link_down) {
        return false;
    }
    if (nc->info == &gaudi_port_info) {
        GaudiPort *port = qemu_get_nic_opaque(nc);

        return gaudi_nic_powered(port->card->core, port->index);
    }
    return true;
}

struct gaudi_hub_search {
    NetClientState *self;
    int hub;
    bool found;
};

static void gaudi_hub_search_one(NICState *nic, void *opaque)
{
    struct gaudi_hub_search *hs = opaque;
    NetClientState *nc = qemu_get_queue(nic);
    int hub;

    if (nc != hs->self && net_hub_id_for_client(nc, &hub) == 0 &&
        hub == hs->hub && gaudi_port_local_up(nc)) {
        hs->found = true;
    }
}

/*
 * A port has link when its end is up and, if the netdev is a hub port
 * (the internal wiring), when another NIC on that hub is up too: a hub
 * is the cable, so taking either end down drops both.  Other backends
 * (socket, dgram) carry no link state: their local state counts.
 */
static bool gaudi_port_link(NetClientState *nc)
{
    struct gaudi_hub_search hs = { .self = nc };

    if (!gaudi_port_local_up(nc)) {
        return false;
    }
    if (net_hub_id_for_client(nc, &hs.hub) < 0) {
        return true;
    }
    qemu_foreach_nic(gaudi_hub_search_one, &hs);
    return hs.found;
}

static void gaudi_port_update_one(NICState *nic, void *opaque)
{
    NetClientState *nc = qemu_get_queue(nic);
    GaudiPort *port;

    if (nc->info != &gaudi_port_info) {
        return;
    }
    port = qemu_get_nic_opaque(nc);
    gaudi_nic_set_link(port->card->core, port->index, gaudi_port_link(nc));
}

/* Any port's state may change every card's links: look at all of them. */
static void gaudi_ports_update(void)
{
    qemu_foreach_nic(gaudi_port_update_one, NULL);
}

/*
 * Socket and stream backends change their link_down without telling the
 * NIC (a listening socket is down until the other VM connects, and again
 * when it goes): a card with such a port looks again every tick, so that
 * its link follows the other end within GAUDI_TICK_NS.
 */
static void gaudi_ports_poll(GaudiState *s)
{
    unsigned int i;
    int hub;

    for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
        NetClientState *nc = s->port[i].nic ?
                             qemu_get_queue(s->port[i].nic) : NULL;

        if (nc && net_hub_id_for_client(nc, &hub) < 0 &&
            gaudi_port_link(nc) != gaudi_nic_link(s->core, i)) {
            gaudi_ports_update();
            return;
        }
    }
}

static bool gaudi_port_can_receive(NetClientState *nc)
{
    GaudiPort *port = qemu_get_nic_opaque(nc);

    /* Only a full ring holds frames back; otherwise they land or drop. */
    return !gaudi_nic_rx_full(port->card->core, port->index);
}

static ssize_t gaudi_port_receive(NetClientState *nc, const uint8_t *buf,
                                  size_t size)
{
    GaudiPort *port = qemu_get_nic_opaque(nc);

    trace_gaudi_nic_rx(port->index, size);
    gaudi_nic_receive(port->card->core, port->index, buf, size);
    return size;
}

static void gaudi_port_link_status_changed(NetClientState *nc)
{
    gaudi_ports_update();
}

static NetClientInfo gaudi_port_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = gaudi_port_can_receive,
    .receive = gaudi_port_receive,
    .link_status_changed = gaudi_port_link_status_changed,
};

/* The engine sends a frame (Ethernet, no FCS) out of port p. */
static void gaudi_nic_be_send(void *opaque, unsigned int p, const void *frame,
                              size_t len)
{
    GaudiState *s = opaque;

    trace_gaudi_nic_tx(p, len);
    if (p < GAUDI_NIC_NUM_PORTS && s->port[p].nic) {
        qemu_send_packet(qemu_get_queue(s->port[p].nic), frame, len);
    }
}

static void gaudi_nic_be_rx_ready(void *opaque, unsigned int p)
{
    GaudiState *s = opaque;

    if (p < GAUDI_NIC_NUM_PORTS && s->port[p].nic) {
        qemu_flush_queued_packets(qemu_get_queue(s->port[p].nic));
    }
}

/* A transmitter went off or on: this port's cable and its peer's. */
static void gaudi_nic_be_power_changed(void *opaque, unsigned int p)
{
    gaudi_ports_update();
}

static void gaudi_ports_init(GaudiState *s)
{
    DeviceState *dev = DEVICE(s);
    struct gaudi_nic_backend be = {
        .opaque = s,
        .send = gaudi_nic_be_send,
        .rx_ready = gaudi_nic_be_rx_ready,
        .power_changed = gaudi_nic_be_power_changed,
    };
    unsigned int i;

    gaudi_nic_set_backend(s->core, &be);
    for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
        GaudiPort *port = &s->port[i];
        g_autofree char *name = g_strdup_printf("%s.port%u",
                                                dev->id ?: TYPE_GAUDI, i);

        port->card = s;
        port->index = i;
        if (!port->conf.peers.ncs[0]) {
            continue;
        }
        qemu_macaddr_default_if_unset(&port->conf.macaddr);
        port->nic = qemu_new_nic(&gaudi_port_info, &port->conf,
                                 object_get_typename(OBJECT(s)), name,
                                 &dev->mem_reentrancy_guard, port);
        qemu_format_nic_info_str(qemu_get_queue(port->nic),
                                 port->conf.macaddr.a);
    }
    gaudi_ports_update();
}

static void gaudi_ports_exit(GaudiState *s)
{
    unsigned int i;

    for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
        if (s->port[i].nic) {
            qemu_del_nic(s->port[i].nic);
            s->port[i].nic = NULL;
        }
    }
    gaudi_nic_set_backend(s->core, NULL);
    /* The other ends of this card's cables lose their link. */
    gaudi_ports_update();
}

/* --- PCI config space: the ELBI window ------------------------------- */

static bool is_elbi(uint32_t addr, int len)
{
    return addr >= GAUDI_ELBI_ADDR && addr + len <= GAUDI_ELBI_STS + 4;
}

static uint32_t gaudi_config_read(PCIDevice *pdev, uint32_t addr, int len)
{
    GaudiState *s = GAUDI(pdev);

    if (is_elbi(addr, len)) {
        if (len != 4 || (addr & 3)) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "%s: ELBI read of %d bytes at 0x%x\n",
                          pdev->name, len, addr);
            return 0;
        }
        return gaudi_elbi_read(s->core, addr);
    }
    return pci_default_read_config(pdev, addr, len);
}

static void gaudi_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                               int len)
{
    GaudiState *s = GAUDI(pdev);

    if (is_elbi(addr, len)) {
        if (len != 4 || (addr & 3)) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "%s: ELBI write of %d bytes at 0x%x\n",
                          pdev->name, len, addr);
            return;
        }
        trace_gaudi_elbi_write(addr, val);
        gaudi_elbi_write(s->core, addr, val);
        return;
    }
    pci_default_write_config(pdev, addr, val, len);
}

/* --- flash backing ----------------------------------------------------- */

/*
 * The SPI flash is mapped from its backing file with MAP_SHARED, so every
 * write the device makes reaches the file and survives a VM restart.
 * Without a file the flash is anonymous memory, erased (0xFF) at start.
 */
static bool gaudi_flash_open(GaudiState *s, Error **errp)
{
    static const uint8_t erased[64 * KiB] = { [0 ... 64 * KiB - 1] = 0xff };
    struct stat st;
    uint64_t off;
    void *p;

    s->flash_fd = -1;
    if (!s->flash_path) {
        p = mmap(NULL, GAUDI_FLASH_WINDOW, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            error_setg_errno(errp, errno, "cannot allocate flash");
            return false;
        }
        memset(p, 0xff, GAUDI_FLASH_WINDOW);
        s->flash = p;
        return true;
    }

    s->flash_fd = qemu_create(s->flash_path, O_RDWR, 0644, errp);
    if (s->flash_fd < 0) {
        return false;
    }
    if (fstat(s->flash_fd, &st) < 0) {
        error_setg_errno(errp, errno, "cannot stat %s", s->flash_path);
        goto fail;
    }
    if (st.st_size == 0) {
        /* A new file is an erased chip. */
        for (off = 0; off < GAUDI_FLASH_WINDOW; off += sizeof(erased)) {
            if (pwrite(s->flash_fd, erased, sizeof(erased), off) !=
                sizeof(erased)) {
                error_setg_errno(errp, errno, "cannot initialise %s",
                                 s->flash_path);
                goto fail;
            }
        }
    } else if (st.st_size != GAUDI_FLASH_WINDOW) {
        error_setg(errp, "%s: flash file must be %llu bytes, not %lld",
                   s->flash_path, (unsigned long long)GAUDI_FLASH_WINDOW,
                   (long long)st.st_size);
        goto fail;
    }
    p = mmap(NULL, GAUDI_FLASH_WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED,
             s->flash_fd, 0);
    if (p == MAP_FAILED) {
        error_setg_errno(errp, errno, "cannot map %s", s->flash_path);
        goto fail;
    }
    s->flash = p;
    return true;
fail:
    close(s->flash_fd);
    s->flash_fd = -1;
    return false;
}

static void gaudi_flash_close(GaudiState *s)
{
    if (!s->flash) {
        return;
    }
    if (s->flash_fd >= 0) {
        msync(s->flash, GAUDI_FLASH_WINDOW, MS_SYNC);
        close(s->flash_fd);
    }
    munmap(s->flash, GAUDI_FLASH_WINDOW);
    s->flash = NULL;
}

static void gaudi_flash_dirty(void *opaque, uint64_t off, uint64_t len)
{
    GaudiState *s = opaque;
    uint64_t start = off & ~(uint64_t)(qemu_real_host_page_size() - 1);

    if (s->flash_fd >= 0) {
        msync(s->flash + start, off + len - start, MS_ASYNC);
    }
}

/* --- life cycle --------------------------------------------------------- */

static void gaudi_realize(PCIDevice *pdev, Error **errp)
{
    GaudiState *s = GAUDI(pdev);
    unsigned int i;
    struct gaudi_identity id = {
        .test_hooks = s->test_hooks,
        .packet_latency_ns = s->packet_latency_ns,
        .dma_bandwidth_mbps = s->dma_bandwidth_mbps,
        .tlb_off = !s->tlb,
        .roce_drop_every = s->roce_drop_every,
        .roce_reorder_every = s->roce_reorder_every,
        .roce_corrupt_every = s->roce_corrupt_every,
    };
    struct gaudi_bus bus = {
        .opaque = s,
        .dma_read = gaudi_bus_dma_read,
        .dma_write = gaudi_bus_dma_write,
        .msi = gaudi_bus_msi,
        .now_ns = gaudi_bus_now,
        .log = gaudi_bus_log,
        .flash_dirty = gaudi_flash_dirty,
        .schedule = s->sync ? NULL : gaudi_bus_schedule,
    };

    if (!is_power_of_2(s->hbm_size) || s->hbm_size < 512 * MiB ||
        s->hbm_size > GAUDI_HBM_SIZE) {
        error_setg(errp, "hbm-size must be a power of two from 512M to 32G");
        return;
    }
    if (s->serial && strlen(s->serial) >= sizeof(id.serial)) {
        error_setg(errp, "serial is longer than %zu characters",
                   sizeof(id.serial) - 1);
        return;
    }
    if (s->card_name && strlen(s->card_name) >= sizeof(id.card_name)) {
        error_setg(errp, "card-name is longer than %zu characters",
                   sizeof(id.card_name) - 1);
        return;
    }
    if (s->serial) {
        pstrcpy(id.serial, sizeof(id.serial), s->serial);
    }
    if (s->card_name) {
        pstrcpy(id.card_name, sizeof(id.card_name), s->card_name);
    }
    if (s->module_id != GAUDI_MODULE_ID_UNSET) {
        id.module_id = s->module_id;
        id.module_id_set = true;
    }
    /* Every port has its own MAC (macN, else QEMU's next free address). */
    for (i = 0; i < GAUDI_NIC_NUM_PORTS; i++) {
        qemu_macaddr_default_if_unset(&s->port[i].conf.macaddr);
        memcpy(id.nic_mac[i], s->port[i].conf.macaddr.a, 6);
        id.nic_mac_set |= 1U << i;
    }

    if (!gaudi_flash_open(s, errp)) {
        return;
    }

    if (!memory_region_init_ram_nomigrate(&s->sram, OBJECT(s), "gaudi.sram",
                                          GAUDI_BAR0_SIZE, errp)) {
        goto fail_flash;
    }
    /* 32 GiB per card: only the pages the guest touches are allocated. */
    if (!memory_region_init_ram_flags_nomigrate(&s->hbm, OBJECT(s),
                                                "gaudi.hbm", s->hbm_size,
                                                RAM_NORESERVE, errp)) {
        goto fail_flash;
    }
    memory_region_init(&s->bar2, OBJECT(s), "gaudi.bar2", GAUDI_BAR2_SIZE);
    memory_region_init_ram_ptr(&s->flash_mr, OBJECT(s), "gaudi.flash",
                               GAUDI_FLASH_WINDOW, s->flash);
    memory_region_init_io(&s->cfg_mr, OBJECT(s), &gaudi_cfg_ops, s,
                          "gaudi.cfg", GAUDI_CFG_SIZE);
    memory_region_add_subregion(&s->bar2, 0, &s->flash_mr);
    memory_region_add_subregion(&s->bar2, GAUDI_BAR2_CFG_OFFSET, &s->cfg_mr);

    /* Before the core: it may schedule a step from its first write. */
    s->run = timer_new_ns(QEMU_CLOCK_VIRTUAL, gaudi_run, s);
    s->core = gaudi_core_new(&bus, memory_region_get_ram_ptr(&s->sram),
                             memory_region_get_ram_ptr(&s->hbm), s->hbm_size,
                             s->flash, &id);
    if (!s->core) {
        error_setg(errp, "cannot allocate the device state");
        goto fail_flash;
    }

    pci_config_set_interrupt_pin(pdev->config, 1);
    if (pcie_endpoint_cap_init(pdev, GAUDI_PCIE_CAP_OFFSET) < 0) {
        error_setg(errp, "cannot add the PCIe capability");
        goto fail_core;
    }
    if (msi_init(pdev, GAUDI_MSI_CAP_OFFSET, 1, true, false, errp)) {
        goto fail_core;
    }

    pci_register_bar(pdev, 0,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->sram);
    pci_register_bar(pdev, 2,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->bar2);
    pci_register_bar(pdev, 4,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->hbm);

    s->tick = timer_new_ns(QEMU_CLOCK_VIRTUAL, gaudi_tick, s);
    timer_mod(s->tick, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + GAUDI_TICK_NS);
    gaudi_ports_init(s);
    return;

fail_core:
    gaudi_core_free(s->core);
    s->core = NULL;
fail_flash:
    if (s->run) {
        timer_free(s->run);
        s->run = NULL;
    }
    gaudi_flash_close(s);
}

static void gaudi_exit(PCIDevice *pdev)
{
    GaudiState *s = GAUDI(pdev);

    gaudi_ports_exit(s);
    timer_free(s->tick);
    s->tick = NULL;
    /* No step may run on a freed core. */
    timer_free(s->run);
    s->run = NULL;
    msi_uninit(pdev);
    pcie_cap_exit(pdev);
    gaudi_core_free(s->core);
    s->core = NULL;
    gaudi_flash_close(s);
}

static void gaudi_reset(DeviceState *dev)
{
    GaudiState *s = GAUDI(dev);

    /*
     * A PCI reset of the function is a power-on reset of the card: work
     * in flight is dropped with the pending step.
     */
    timer_del(s->run);
    gaudi_core_reset(s->core);
    gaudi_elbi_reset(s->core);
}

static const Property gaudi_properties[] = {
    DEFINE_PROP_SIZE("hbm-size", GaudiState, hbm_size,
                     GAUDI_HBM_SIZE),
    DEFINE_PROP_STRING("serial", GaudiState, serial),
    DEFINE_PROP_STRING("card-name", GaudiState, card_name),
    DEFINE_PROP_STRING("flash", GaudiState, flash_path),
    DEFINE_PROP_UINT32("module-id", GaudiState, module_id,
                       GAUDI_MODULE_ID_UNSET),
    DEFINE_PROP_BOOL("test-hooks", GaudiState, test_hooks, false),
    DEFINE_PROP_BOOL("sync", GaudiState, sync, false),
    DEFINE_PROP_UINT32("packet-latency-ns", GaudiState, packet_latency_ns,
                       GAUDI_DEFAULT_PACKET_LATENCY_NS),
    DEFINE_PROP_UINT32("dma-bandwidth-mbps", GaudiState, dma_bandwidth_mbps,
                       GAUDI_DEFAULT_DMA_BANDWIDTH_MBPS),
    DEFINE_PROP_BOOL("tlb", GaudiState, tlb, true),
    DEFINE_PROP_UINT32("roce-drop-every", GaudiState, roce_drop_every, 0),
    DEFINE_PROP_UINT32("roce-reorder-every", GaudiState, roce_reorder_every,
                       0),
    DEFINE_PROP_UINT32("roce-corrupt-every", GaudiState, roce_corrupt_every,
                       0),
    /* Port n's netdev and MAC (the MAC is not used by the model yet). */
    DEFINE_PROP_NETDEV("netdev0", GaudiState, port[0].conf.peers),
    DEFINE_PROP_MACADDR("mac0", GaudiState, port[0].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev1", GaudiState, port[1].conf.peers),
    DEFINE_PROP_MACADDR("mac1", GaudiState, port[1].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev2", GaudiState, port[2].conf.peers),
    DEFINE_PROP_MACADDR("mac2", GaudiState, port[2].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev3", GaudiState, port[3].conf.peers),
    DEFINE_PROP_MACADDR("mac3", GaudiState, port[3].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev4", GaudiState, port[4].conf.peers),
    DEFINE_PROP_MACADDR("mac4", GaudiState, port[4].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev5", GaudiState, port[5].conf.peers),
    DEFINE_PROP_MACADDR("mac5", GaudiState, port[5].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev6", GaudiState, port[6].conf.peers),
    DEFINE_PROP_MACADDR("mac6", GaudiState, port[6].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev7", GaudiState, port[7].conf.peers),
    DEFINE_PROP_MACADDR("mac7", GaudiState, port[7].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev8", GaudiState, port[8].conf.peers),
    DEFINE_PROP_MACADDR("mac8", GaudiState, port[8].conf.macaddr),
    DEFINE_PROP_NETDEV("netdev9", GaudiState, port[9].conf.peers),
    DEFINE_PROP_MACADDR("mac9", GaudiState, port[9].conf.macaddr),
};

static const VMStateDescription gaudi_vmstate = {
    .name = TYPE_GAUDI,
    .unmigratable = 1,
};

static void gaudi_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = gaudi_realize;
    k->exit = gaudi_exit;
    k->config_read = gaudi_config_read;
    k->config_write = gaudi_config_write;
    k->vendor_id = GAUDI_PCI_VENDOR;
    k->device_id = GAUDI_PCI_DEVICE;
    k->revision = 1;
    k->class_id = GAUDI_PCI_CLASS;
    dc->desc = "Habana Gaudi 1 (HL-205) AI accelerator";
    dc->vmsd = &gaudi_vmstate;
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
    device_class_set_props(dc, gaudi_properties);
    device_class_set_legacy_reset(dc, gaudi_reset);
}

static const TypeInfo gaudi_info = {
    .name = TYPE_GAUDI,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(GaudiState),
    .class_init = gaudi_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void gaudi_register_types(void)
{
    type_register_static(&gaudi_info);
}

type_init(gaudi_register_types)
