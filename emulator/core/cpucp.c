// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 model: the device CPU's queues and its CPU-CP responder (packet
 * ids and layout: hw/gaudi1/cpucp.h, from upstream's cpucp_if.h; queue
 * registers: hw/gaudi1/regs.h).
 *
 * Queue init: the driver writes the bases and byte lengths of the CPU PQ,
 * CQ and EQ (all "CPU-accessible" host addresses), then QUEUE_INIT =
 * READY_FOR_CP(_SINGLE_MSI).  The device CPU answers READY_FOR_HOST, or
 * LEN_NOT_POWER_OF_TWO_ERR / ILLEGAL_Q_ADDR_ERR for a bad setup.
 *
 * A request is a 16-byte buffer descriptor {u64 ptr; u32 len; u32 ctl} in
 * the PQ pointing at a struct cpucp_packet; the driver bumps CPU_IF_PF_PQ_PI
 * and rings the GIC.  The device writes the result, the return code in ctl
 * bits 15:12 and finally fence = CPUCP_PACKET_FENCE_VAL, which the driver
 * polls.  The model answers synchronously on the PI write.
 *
 * Sensors follow the card's activity: the engines' busy time and DMA
 * volume are turned into a load figure smoothed with a two-second time
 * constant, from which power, temperature, current, voltage droop and fan
 * speed derive; energy integrates power.
 */
#include "trace.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gaudi_int.h"

/* Packet layout and ids: gaudi1/cpucp.h. */

/* enum cpucp_packet_rc */
enum {
    RC_SUCCESS,
    RC_INVALID,  /* opcode not supported */
    RC_FAULT,  /* processing failed (e.g. host unreachable) */
    RC_INVALID_PKT,
    RC_INVALID_PARAMS,
};

/*
 * Sensor attributes as the 6.12 driver sends them: the kernel's hwmon
 * enums, since DEV_STS0 leaves MAP_HWMON_EN clear.
 */
enum {
    HWMON_TEMP = 1, HWMON_IN = 2, HWMON_CURR = 3, HWMON_POWER = 4,
    HWMON_FAN = 7, HWMON_PWM = 8,
};

enum {
    TEMP_INPUT = 1, TEMP_MAX = 7, TEMP_MAX_HYST = 8, TEMP_CRIT = 9,
    TEMP_CRIT_HYST = 10, TEMP_OFFSET = 20, TEMP_HIGHEST = 23,
    TEMP_RESET_HISTORY = 24,
};

enum {
    IN_INPUT = 1, IN_MIN = 2, IN_MAX = 3, IN_LOWEST = 7, IN_HIGHEST = 8,
    IN_RESET_HISTORY = 9,
};

/* hwmon_curr_* uses the same numbers as hwmon_in_*. */

enum {
    /*
     * CPUCP_POWER_INPUT (8) from the INFO ioctl, hwmon_power_input (9)
     * from hwmon; hwmon_power_input_highest (10), reset_history (12),
     * CPUCP_POWER_RESET_INPUT_HISTORY (11).
     */
    POWER_INPUT_CPUCP = 8, POWER_INPUT = 9, POWER_HIGHEST = 10,
    POWER_RESET_CPUCP = 11, POWER_RESET = 12,
};

enum { FAN_INPUT = 1, FAN_MIN = 3, FAN_MAX = 4 };
enum { PWM_INPUT = 0, PWM_ENABLE = 1 };

#define LOAD_FULL  1000000U /* load_ppm at 100 % */
#define LOAD_TAU_NS  2000000000ULL /* smoothing time constant */
#define PEAK_DMA_BYTES_PER_NS 100ULL  /* ~100 GB/s is full load */
#define VOLT_DROOP_MV  25  /* core droop at full load */
#define PCIE_TX   0  /* cpucp_pcie_throughput_tx */
#define PCIE_RX   1

/* The request as the responder sees it (host byte order). */
struct cpucp_req {
    uint64_t dev_addr; /* where the packet lives */
    uint32_t bd_len; /* bytes the descriptor announces */
    uint64_t value;
    uint32_t ctl;
    uint32_t index;  /* sensor_index | type << 16, etc. */
    uint32_t port;
    uint64_t result;
    bool has_result;
};

bool gaudi_cpu_serving(struct gaudi_core *g)
{
    return g->boot.cpu_running && !g->cpu.halted && !g->cpu.hung;
}

/* Guest-supplied "CPU-accessible" range to a host device address. */
static bool host_range(struct gaudi_core *g, uint64_t cpu_addr, uint64_t len,
                       uint64_t *dev)
{
    uint64_t a = gaudi_cpu_addr_to_dev(g, cpu_addr);

    if (a < GAUDI_HOST_PHYS_BASE || a >= GAUDI_VA_HOST_START ||
        len > GAUDI_VA_HOST_START - a) {
        return false;
    }
    *dev = a;
    return true;
}

bool gaudi_cpu_host_range(struct gaudi_core *g, uint64_t cpu_addr,
                          uint64_t len, uint64_t *dev)
{
    return host_range(g, cpu_addr, len, dev);
}

/* --- sensors ------------------------------------------------------------ */

/*
 * Fold the activity since the last look into the smoothed load and the
 * energy counter.  Busy time of all engines and DMA volume both count; the
 * load relaxes towards the instantaneous figure with time constant
 * LOAD_TAU_NS (first-order, dt / (dt + tau)), so it decays smoothly to idle.
 */
static uint64_t power_mw(struct gaudi_core *g);

static void sensors_update(struct gaudi_core *g)
{
    struct gaudi_cpu *c = &g->cpu;
    uint64_t now = gaudi_now_ns(g), dt, busy, bytes, inst;

    if (now <= c->last_ns) {
        c->last_ns = now;
        return;
    }
    dt = now - c->last_ns;
    busy = g->stat_busy_ns - c->last_busy_ns;
    bytes = g->stat_dma_bytes - c->last_dma_bytes;
    if (busy > dt) {
        busy = dt;
    }
    if (bytes / PEAK_DMA_BYTES_PER_NS > dt) {
        bytes = dt * PEAK_DMA_BYTES_PER_NS;
    }
    inst = busy * LOAD_FULL / dt +
           bytes * LOAD_FULL / (dt * PEAK_DMA_BYTES_PER_NS);
    if (inst > LOAD_FULL) {
        inst = LOAD_FULL;
    }

    /* Energy over the interval at the power level it started with. */
    c->energy_uj += power_mw(g) * dt / 1000000;

    if (inst >= c->load_ppm) {
        c->load_ppm += (inst - c->load_ppm) * dt / (dt + LOAD_TAU_NS);
    } else {
        c->load_ppm -= (c->load_ppm - inst) * dt / (dt + LOAD_TAU_NS);
    }

    c->last_ns = now;
    c->last_busy_ns = g->stat_busy_ns;
    c->last_dma_bytes = g->stat_dma_bytes;
}

/* Power demand, clipped by the cap the host set (MAX_POWER_SET). */
static uint64_t power_mw(struct gaudi_core *g)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    uint64_t p = fw->idle_power_mw +
             (uint64_t)(fw->max_power_mw - fw->idle_power_mw) *
             g->cpu.load_ppm / LOAD_FULL;

    if (g->cpu.max_power_mw && p > g->cpu.max_power_mw) {
        p = g->cpu.max_power_mw;
    }
    return p;
}

static int64_t temp_mc(struct gaudi_core *g, uint32_t channel)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);

    /* Further sensors sit further from the hot spot: 2 degrees less. */
    return (int64_t)fw->ambient_mc +
           (int64_t)fw->temp_rise_mc * g->cpu.load_ppm / LOAD_FULL -
           2000 * (int64_t)channel + g->cpu.temp_offset_mc;
}

static uint32_t volt_mv(struct gaudi_core *g)
{
    return gaudi_boot_fw(g)->core_mv -
           VOLT_DROOP_MV * g->cpu.load_ppm / LOAD_FULL;
}

static uint64_t curr_ma(struct gaudi_core *g)
{
    return power_mw(g) * 1000 / volt_mv(g);
}

/* Keep the history registers (highest/lowest) and envelope events. */
static void sensors_sample(struct gaudi_core *g)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    struct gaudi_cpu *c = &g->cpu;
    uint64_t p, demand;
    int64_t t;
    uint32_t v;

    sensors_update(g);
    p = power_mw(g);
    t = temp_mc(g, 0);
    v = volt_mv(g);
    if (p > c->power_highest_mw) {
        c->power_highest_mw = p;
    }
    if (t > c->temp_highest_mc) {
        c->temp_highest_mc = t;
    }
    if (v > c->volt_highest_mv) {
        c->volt_highest_mv = v;
    }
    if (!c->volt_lowest_mv || v < c->volt_lowest_mv) {
        c->volt_lowest_mv = v;
    }
    if (curr_ma(g) > c->curr_highest_ma) {
        c->curr_highest_ma = curr_ma(g);
    }

    /*
     * The firmware clips clocks when demand exceeds the power cap or
     * the die passes its max temperature, and says so in the EQ.
     */
    demand = fw->idle_power_mw +
         (uint64_t)(fw->max_power_mw - fw->idle_power_mw) *
         c->load_ppm / LOAD_FULL;
    if (c->max_power_mw &&
        (demand > c->max_power_mw) != c->power_throttle) {
        c->power_throttle = !c->power_throttle;
        gaudi_eq_event(g, c->power_throttle ?
                       GAUDI_EVENT_FIX_POWER_ENV_S :
                       GAUDI_EVENT_FIX_POWER_ENV_E, NULL, 0);
    }
    if ((t > (int64_t)fw->temp_max_mc) != c->thermal_throttle) {
        c->thermal_throttle = !c->thermal_throttle;
        gaudi_eq_event(g, c->thermal_throttle ?
                       GAUDI_EVENT_FIX_THERMAL_ENV_S :
                       GAUDI_EVENT_FIX_THERMAL_ENV_E, NULL, 0);
    }
}

/* Channel n of a hwmon type exists if the sensor table lists n+1 of it. */
static bool sensor_exists(struct gaudi_core *g, uint32_t type, uint32_t ch)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    uint32_t i, n = 0;

    for (i = 0; i < fw->nr_sensors; i++)
        if (fw->sensors[i].type == type && n++ == ch) {
            return true;
        }
    return false;
}

static int sensor_get(struct gaudi_core *g, uint32_t type,
                      struct cpucp_req *r)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    struct gaudi_cpu *c = &g->cpu;
    uint32_t ch = r->index & 0xFFFF, attr = r->index >> 16;
    int64_t v;

    if (!sensor_exists(g, type, ch)) {
        return RC_INVALID_PARAMS;
    }
    sensors_sample(g);
    switch (type << 8 | attr) {
    case HWMON_TEMP << 8 | TEMP_INPUT:
        v = temp_mc(g, ch);
        break;
    case HWMON_TEMP << 8 | TEMP_MAX:
        v = fw->temp_max_mc;
        break;
    case HWMON_TEMP << 8 | TEMP_MAX_HYST:
        v = fw->temp_max_mc - 5000;
        break;
    case HWMON_TEMP << 8 | TEMP_CRIT:
        v = fw->temp_crit_mc;
        break;
    case HWMON_TEMP << 8 | TEMP_CRIT_HYST:
        v = fw->temp_crit_mc - 5000;
        break;
    case HWMON_TEMP << 8 | TEMP_OFFSET:
        v = c->temp_offset_mc;
        break;
    case HWMON_TEMP << 8 | TEMP_HIGHEST:
        v = c->temp_highest_mc;
        break;
    case HWMON_IN << 8 | IN_INPUT:
        v = volt_mv(g);
        break;
    case HWMON_IN << 8 | IN_MIN:
        v = fw->core_mv * 9 / 10;
        break;
    case HWMON_IN << 8 | IN_MAX:
        v = fw->core_mv * 11 / 10;
        break;
    case HWMON_IN << 8 | IN_LOWEST:
        v = c->volt_lowest_mv;
        break;
    case HWMON_IN << 8 | IN_HIGHEST:
        v = c->volt_highest_mv;
        break;
    case HWMON_CURR << 8 | IN_INPUT:
        v = curr_ma(g);
        break;
    case HWMON_CURR << 8 | IN_MIN:
        v = (uint64_t)fw->idle_power_mw * 1000 / fw->core_mv;
        break;
    case HWMON_CURR << 8 | IN_MAX:
        v = (uint64_t)fw->max_power_mw * 1000 / fw->core_mv;
        break;
    case HWMON_CURR << 8 | IN_HIGHEST:
        v = c->curr_highest_ma;
        break;
    case HWMON_POWER << 8 | POWER_INPUT_CPUCP:
    case HWMON_POWER << 8 | POWER_INPUT:
        v = power_mw(g) * 1000;  /* hwmon: microwatts */
        break;
    case HWMON_POWER << 8 | POWER_HIGHEST:
        v = c->power_highest_mw * 1000;
        break;
    case HWMON_FAN << 8 | FAN_INPUT:
        /* 30 % at ambient, full speed at the max temperature. */
        v = temp_mc(g, 0) - (int64_t)fw->ambient_mc;
        if (v < 0) {
            v = 0;
        }
        v = fw->fan_max_rpm * 3 / 10 +
            (int64_t)fw->fan_max_rpm * 7 / 10 * v /
            ((int64_t)fw->temp_max_mc - fw->ambient_mc + 1);
        if (v > fw->fan_max_rpm) {
            v = fw->fan_max_rpm;
        }
        break;
    case HWMON_FAN << 8 | FAN_MIN:
        v = fw->fan_max_rpm * 3 / 10;
        break;
    case HWMON_FAN << 8 | FAN_MAX:
        v = fw->fan_max_rpm;
        break;
    case HWMON_PWM << 8 | PWM_INPUT:
        v = c->pwm;
        break;
    case HWMON_PWM << 8 | PWM_ENABLE:
        v = c->pwm_enable;
        break;
    default:
        return RC_INVALID_PARAMS;
    }
    r->result = (uint64_t)v;
    r->has_result = true;
    return RC_SUCCESS;
}

static int sensor_set(struct gaudi_core *g, uint32_t type,
                      struct cpucp_req *r)
{
    struct gaudi_cpu *c = &g->cpu;
    uint32_t ch = r->index & 0xFFFF, attr = r->index >> 16;
    int64_t v = (int64_t)r->value;

    if (!sensor_exists(g, type, ch)) {
        return RC_INVALID_PARAMS;
    }
    sensors_update(g);
    switch (type << 8 | attr) {
    case HWMON_TEMP << 8 | TEMP_OFFSET:
        if (v < -50000 || v > 50000) {
            return RC_INVALID_PARAMS;
        }
        c->temp_offset_mc = v;
        break;
    case HWMON_TEMP << 8 | TEMP_RESET_HISTORY:
        c->temp_highest_mc = temp_mc(g, 0);
        break;
    case HWMON_IN << 8 | IN_RESET_HISTORY:
        c->volt_lowest_mv = c->volt_highest_mv = volt_mv(g);
        break;
    case HWMON_CURR << 8 | IN_RESET_HISTORY:
        c->curr_highest_ma = curr_ma(g);
        break;
    case HWMON_POWER << 8 | POWER_RESET_CPUCP:
    case HWMON_POWER << 8 | POWER_RESET:
        c->power_highest_mw = power_mw(g);
        break;
    case HWMON_PWM << 8 | PWM_INPUT:
        if (r->value > 255) {
            return RC_INVALID_PARAMS;
        }
        c->pwm = r->value;
        break;
    case HWMON_PWM << 8 | PWM_ENABLE:
        if (r->value > 2) {
            return RC_INVALID_PARAMS;
        }
        c->pwm_enable = r->value;
        break;
    default:
        return RC_INVALID_PARAMS;
    }
    return RC_SUCCESS;
}

/* --- replies that copy a structure to the host ------------------------ */

/* Copy [0, len) of buf to pkt.addr, no more than data_max_size bytes. */
static int copy_out(struct gaudi_core *g, struct cpucp_req *r,
                    const void *buf, uint32_t len)
{
    uint32_t max = r->index; /* data_max_size */
    uint64_t dev;

    if (!max) {
        return RC_INVALID_PARAMS;
    }
    if (len > max) {
        len = max;
    }
    if (!host_range(g, r->value, len, &dev) ||
        gaudi_host_write(g, dev, buf, len)) {
        gaudi_guest_error(g, "cpucp: reply buffer 0x%llx (+%u) "
                          "not in host memory",
                          (unsigned long long)r->value, len);
        return RC_FAULT;
    }
    r->result = len;
    r->has_result = true;
    return RC_SUCCESS;
}

static void put32(uint8_t *p, uint32_t v)
{
    v = gaudi_le32(v);
    memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    v = gaudi_le64(v);
    memcpy(p, &v, 8);
}

static void put_str(uint8_t *p, size_t room, const char *s)
{
    memcpy(p, s, strnlen(s, room - 1));
}

/* struct cpucp_info offsets, Linux 6.12 cpucp_if.h. */
#define INFO_SENSORS  0
#define INFO_KERNEL_VERSION 1024
#define INFO_CARD_TYPE  1156
#define INFO_CARD_LOCATION 1160
#define INFO_CPLD_VERSION 1164
#define INFO_FUSE_VERSION 1172
#define INFO_THERMAL_VERSION 1300
#define INFO_CPUCP_VERSION 1428
#define INFO_DRAM_SIZE  1560
#define INFO_CARD_NAME  1568
#define INFO_EQ_HEALTH_CHECK 1607
#define INFO_PLL_MAP  1616
#define INFO_FW_OS_VERSION 1640

static const char *card_name(struct gaudi_core *g)
{
    return g->id.card_name[0] ? g->id.card_name :
                    gaudi_boot_fw(g)->card_name;
}

static int info_get(struct gaudi_core *g, struct cpucp_req *r)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    uint8_t info[CPUCP_INFO_SIZE] = { 0 };
    uint32_t i;

    for (i = 0; i < fw->nr_sensors; i++) {
        put32(info + INFO_SENSORS + 8 * i, fw->sensors[i].type);
        put32(info + INFO_SENSORS + 8 * i + 4, fw->sensors[i].flags);
    }
    put_str(info + INFO_KERNEL_VERSION, GAUDI_FW_VER_LEN,
            fw->kernel_version);
    put32(info + INFO_CARD_TYPE, fw->card_type);
    put32(info + INFO_CARD_LOCATION, g->id.module_id_set ?
          g->id.module_id : fw->card_location);
    put32(info + INFO_CPLD_VERSION, fw->cpld_version);
    put_str(info + INFO_FUSE_VERSION, GAUDI_FW_VER_LEN, fw->fuse_version);
    put_str(info + INFO_THERMAL_VERSION, GAUDI_FW_VER_LEN,
            fw->thermal_version);
    put_str(info + INFO_CPUCP_VERSION, GAUDI_FW_VER_LEN,
            fw->cpucp_version);
    put64(info + INFO_DRAM_SIZE, g->hbm_size);
    put_str(info + INFO_CARD_NAME, GAUDI_FW_CARD_NAME_LEN, card_name(g));
    /* Gaudi 1 firmware has no EQ health check: leave it 0. */
    info[INFO_EQ_HEALTH_CHECK] = 0;
    for (i = 0; i < GAUDI_FW_MAX_PLLS; i++)
        if (fw->pll_valid & (1U << i)) {
            info[INFO_PLL_MAP + i / 8] |= 1U << (i % 8);
        }
    put_str(info + INFO_FW_OS_VERSION, GAUDI_FW_VER_LEN,
            fw->fw_os_version);
    return copy_out(g, r, info, sizeof(info));
}

/*
 * EEPROM contents: "key=value" lines.  serial and module-id come first so
 * that per-card overrides apply; the firmware data adds the rest.
 */
static int eeprom_get(struct gaudi_core *g, struct cpucp_req *r)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    char buf[GAUDI_FW_EEPROM_MAX + 128];
    int n;

    n = snprintf(buf, sizeof(buf), "serial=%s\nmodule-id=%u\n",
                 g->id.serial[0] ? g->id.serial : fw->serial,
                 g->id.module_id_set ? g->id.module_id : 0);
    if (n < 0) {
        return RC_FAULT;
    }
    memcpy(buf + n, fw->eeprom_fields, fw->eeprom_fields_len);
    n += fw->eeprom_fields_len;
    buf[n++] = '\0';
    return copy_out(g, r, buf, n);
}

/*
 * The ports' QSFP28 module as SFF-8636 describes it (lower page and upper
 * page 0): identifier QSFP28, a passive copper cable with no separable
 * connector (DL1's internal wiring is not a pluggable module; the model
 * shows one cable type for all ports), 100GBASE-CR4, vendor strings of
 * this model.  Checksums CC_BASE (191) and CC_EXT (223) as the standard
 * defines them.
 */
static void qsfp_eeprom(uint8_t *e, const char *serial)
{
    unsigned int i, sum;

    e[0] = 0x11;                      /* identifier: QSFP28 */
    e[1] = 0x07;                      /* revision: SFF-8636 rev 2.8+ */
    e[2] = 0x04;                      /* flat memory (passive copper) */
    e[128] = 0x11;
    e[130] = 0x23;                    /* connector: no separable */
    e[131] = 0x80;                    /* extended compliance (byte 192) */
    e[140] = 0xFF;                    /* nominal rate: see byte 222 */
    e[146] = 1;                       /* copper length: 1 m */
    e[147] = 0xA0;                    /* transmitter: copper unequalized */
    memcpy(e + 148, "GAUDI-OPEN MODEL", 16);   /* vendor name */
    memcpy(e + 168, "DL1-INTERNAL    ", 16);   /* part number */
    memcpy(e + 184, "01", 2);                  /* revision */
    for (sum = 0, i = 128; i < 191; i++) {
        sum += e[i];
    }
    e[191] = sum & 0xFF;
    e[192] = 0x0B;                    /* 100GBASE-CR4 */
    memset(e + 196, ' ', 16);
    memcpy(e + 196, serial, strnlen(serial, 16)); /* serial number */
    memcpy(e + 212, "201023  ", 8);   /* date code */
    e[222] = 103;                     /* nominal rate: 103 x 250 Mb/s */
    for (sum = 0, i = 192; i < 223; i++) {
        sum += e[i];
    }
    e[223] = sum & 0xFF;
}

static int nic_info_get(struct gaudi_core *g, struct cpucp_req *r)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    uint8_t nic[CPUCP_NIC_INFO_SIZE] = { 0 };
    uint64_t ports = (1ULL << fw->nr_macs) - 1;
    unsigned int p;

    memcpy(nic + CPUCP_NIC_INFO_MACS, fw->macs, 6 * fw->nr_macs);
    /* Each card's own addresses (its board's data on silicon). */
    for (p = 0; p < GAUDI_NIC_NUM_PORTS; p++) {
        if (g->id.nic_mac_set & (1U << p)) {
            memcpy(nic + CPUCP_NIC_INFO_MACS + 6 * p, g->id.nic_mac[p], 6);
            ports |= 1ULL << p;
        }
    }
    put64(nic + CPUCP_NIC_INFO_LINK_MASK, ports);
    /* The DL1 wiring of gaudi-vm --nic dl1: ports 7..9 are scale-out. */
    put64(nic + CPUCP_NIC_INFO_LINK_EXT_MASK, ports & 0x380);
    qsfp_eeprom(nic + CPUCP_NIC_INFO_QSFP_EEPROM,
                g->id.serial[0] ? g->id.serial : fw->serial);
    put64(nic + CPUCP_NIC_INFO_AUTO_NEG_MASK, ports);
    nic[CPUCP_NIC_INFO_SERDES_TYPE] = CPUCP_SERDES_TYPE_HLS1;
    return copy_out(g, r, nic, sizeof(nic));
}

static int hbm_rows_get(struct gaudi_core *g, struct cpucp_req *r)
{
    /* No HBM row was ever replaced: num_replaced_rows = 0. */
    static const uint8_t rows[CPUCP_HBM_ROWS_SIZE];

    return copy_out(g, r, rows, sizeof(rows));
}

/*
 * Packets with a {u32 length; u32 data[length]} tail after the 24-byte
 * header (cpucp_unmask_irq_arr_packet, cpucp_array_data_packet).  Reads
 * the words into buf (at most max); returns their count or -1.
 */
static int array_tail(struct gaudi_core *g, struct cpucp_req *r,
                      uint32_t *buf, uint32_t max)
{
    uint32_t n, i;

    if (r->bd_len < CPUCP_PKT_SIZE + 4 ||
        gaudi_host_read(g, r->dev_addr + CPUCP_PKT_SIZE, &n, 4)) {
        return -1;
    }
    n = gaudi_le32(n);
    if (n > max || n > (r->bd_len - CPUCP_PKT_SIZE - 4) / 4 ||
        gaudi_host_read(g, r->dev_addr + CPUCP_PKT_SIZE + 4, buf, 4 * n)) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        buf[i] = gaudi_le32(buf[i]);
    }
    return n;
}

static int unmask_irq_array(struct gaudi_core *g, struct cpucp_req *r)
{
    uint32_t irqs[GAUDI_EVENT_SIZE];
    int n = array_tail(g, r, irqs, GAUDI_EVENT_SIZE), i;

    if (n < 0) {
        return RC_INVALID_PARAMS;
    }
    for (i = 0; i < n; i++)
        if (irqs[i] >= GAUDI_EVENT_SIZE) {
            return RC_INVALID_PARAMS;
        }
    return RC_SUCCESS;
}

static int msi_info_set(struct gaudi_core *g, struct cpucp_req *r)
{
    uint32_t vec[64];
    int n = array_tail(g, r, vec, 64), i;

    if (n < 0) {
        return RC_INVALID_PARAMS;
    }
    /*
     * The card has one MSI: the vector numbers are kept for the record;
     * what matters is which odd ports' receive interrupts to forward.
     */
    g->cpu.nic_msi = 0;
    for (i = 1; i < n && i < CPUCP_NUM_MSI_TYPES; i++) {
        g->cpu.nic_msi |= 1U << (2 * (i - 1) + 1);
    }
    return RC_SUCCESS;
}

bool gaudi_cpu_forward_nic_irq(struct gaudi_core *g, unsigned int port)
{
    if (!gaudi_cpu_serving(g) || !(g->cpu.nic_msi & (1U << port))) {
        return false;
    }
    gaudi_msi(g);
    return true;
}

static int pcie_throughput(struct gaudi_core *g, struct cpucp_req *r)
{
    struct gaudi_cpu *c = &g->cpu;
    uint32_t dir = r->index;
    uint64_t now = gaudi_now_ns(g), bytes, dt;

    if (dir > PCIE_RX) {
        return RC_INVALID_PARAMS;
    }
    bytes = dir == PCIE_TX ? g->stat_pcie_tx : g->stat_pcie_rx;
    dt = now - c->pcie_last_ns[dir];
    /* Bytes per second since the previous query of this direction. */
    r->result = 0;
    if (c->pcie_last_ns[dir] && dt) {
        r->result = (bytes - c->pcie_last_bytes[dir]) * 1000 /
                (dt / 1000000 + 1);
    }
    r->has_result = true;
    c->pcie_last_ns[dir] = now;
    c->pcie_last_bytes[dir] = bytes;
    return RC_SUCCESS;
}

static int freq_op(struct gaudi_core *g, struct cpucp_req *r, bool set)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    uint32_t pll = r->index;

    if (pll >= GAUDI_FW_MAX_PLLS) {
        return RC_INVALID_PARAMS;
    }
    if (set) {
        g->cpu.freq[pll] = r->value;
        return RC_SUCCESS;
    }
    /* Until the host sets one, a PLL runs at its first output. */
    r->result = g->cpu.freq[pll] ? g->cpu.freq[pll] :
            (uint64_t)fw->pll[pll][0] * 1000000;
    r->has_result = true;
    return RC_SUCCESS;
}

static int handle(struct gaudi_core *g, uint32_t opcode, struct cpucp_req *r)
{
    const struct gaudi_fw_data *fw = gaudi_boot_fw(g);
    struct gaudi_cpu *c = &g->cpu;
    uint32_t pll;

    switch (opcode) {
    case CPUCP_PACKET_DISABLE_PCI_ACCESS:
        c->pci_access = false;
        return RC_SUCCESS;
    case CPUCP_PACKET_ENABLE_PCI_ACCESS:
        c->pci_access = true;
        return RC_SUCCESS;
    case CPUCP_PACKET_TEST:
        r->result = r->value;
        r->has_result = true;
        return RC_SUCCESS;
    case CPUCP_PACKET_INFO_GET:
        return info_get(g, r);
    case CPUCP_PACKET_EEPROM_DATA_GET:
        return eeprom_get(g, r);
    case CPUCP_PACKET_NIC_INFO_GET:
        return nic_info_get(g, r);
    case CPUCP_PACKET_HBM_REPLACED_ROWS_INFO_GET:
        return hbm_rows_get(g, r);
    case CPUCP_PACKET_HBM_PENDING_ROWS_STATUS:
    case CPUCP_PACKET_PCIE_REPLAY_CNT_GET:
        r->result = 0;
        r->has_result = true;
        return RC_SUCCESS;
    case CPUCP_PACKET_IS_IDLE_CHECK:
        /*
         * Busy-engine mask: the CPU sees work only through the
         * queues, which are empty whenever the host can ask.
         */
        r->result = 0;
        r->has_result = true;
        return RC_SUCCESS;
    case CPUCP_PACKET_TEMPERATURE_GET:
        return sensor_get(g, HWMON_TEMP, r);
    case CPUCP_PACKET_VOLTAGE_GET:
        return sensor_get(g, HWMON_IN, r);
    case CPUCP_PACKET_CURRENT_GET:
        return sensor_get(g, HWMON_CURR, r);
    case CPUCP_PACKET_FAN_SPEED_GET:
        return sensor_get(g, HWMON_FAN, r);
    case CPUCP_PACKET_PWM_GET:
        return sensor_get(g, HWMON_PWM, r);
    case CPUCP_PACKET_POWER_GET:
        /* The INFO ioctl asks without a sensor: use channel 0. */
        return sensor_get(g, HWMON_POWER, r);
    case CPUCP_PACKET_TEMPERATURE_SET:
        return sensor_set(g, HWMON_TEMP, r);
    case CPUCP_PACKET_VOLTAGE_SET:
        return sensor_set(g, HWMON_IN, r);
    case CPUCP_PACKET_CURRENT_SET:
        return sensor_set(g, HWMON_CURR, r);
    case CPUCP_PACKET_PWM_SET:
        return sensor_set(g, HWMON_PWM, r);
    case CPUCP_PACKET_POWER_SET:
        return sensor_set(g, HWMON_POWER, r);
    case CPUCP_PACKET_TOTAL_ENERGY_GET:
        sensors_sample(g);
        r->result = c->energy_uj;
        r->has_result = true;
        return RC_SUCCESS;
    case CPUCP_PACKET_MAX_POWER_GET:
        r->result = c->max_power_mw ? c->max_power_mw :
                          fw->max_power_mw;
        r->has_result = true;
        return RC_SUCCESS;
    case CPUCP_PACKET_MAX_POWER_SET:
        if (!r->value || r->value > 10ULL * fw->max_power_mw) {
            return RC_INVALID_PARAMS;
        }
        sensors_update(g);
        c->max_power_mw = r->value;
        sensors_sample(g);
        return RC_SUCCESS;
    case CPUCP_PACKET_FREQUENCY_SET:
        return freq_op(g, r, true);
    case CPUCP_PACKET_FREQUENCY_GET:
    case CPUCP_PACKET_FREQUENCY_CURR_GET:
        return freq_op(g, r, false);
    case CPUCP_PACKET_PLL_INFO_GET:
        pll = r->index & 0xFFFF; /* pll_type */
        if (pll >= GAUDI_FW_MAX_PLLS || !(fw->pll_valid & (1U << pll))) {
            return RC_INVALID_PARAMS;
        }
        r->result = (uint64_t)fw->pll[pll][0] |
                (uint64_t)fw->pll[pll][1] << 16 |
                (uint64_t)fw->pll[pll][2] << 32 |
                (uint64_t)fw->pll[pll][3] << 48;
        r->has_result = true;
        return RC_SUCCESS;
    case CPUCP_PACKET_PCIE_THROUGHPUT_GET:
        return pcie_throughput(g, r);
    case CPUCP_PACKET_LED_SET:
        if (r->index >= GAUDI_ARRAY_SIZE(c->led)) {
            return RC_INVALID_PARAMS;
        }
        c->led[r->index] = r->value;
        return RC_SUCCESS;
    case CPUCP_PACKET_UNMASK_RAZWI_IRQ:
        return r->value < GAUDI_EVENT_SIZE ? RC_SUCCESS :
                             RC_INVALID_PARAMS;
    case CPUCP_PACKET_UNMASK_RAZWI_IRQ_ARRAY:
        return unmask_irq_array(g, r);
    case CPUCP_PACKET_MSI_INFO_SET:
        return msi_info_set(g, r);
    case CPUCP_PACKET_ACTIVE_STATUS_SET:
        c->active = r->value;
        return RC_SUCCESS;
    default:
        if (opcode >= GAUDI_CPUCP_FLASH_FIRST &&
            opcode <= GAUDI_CPUCP_FLASH_LAST) {
            r->has_result = true;
            return gaudi_flash_cpucp(g, opcode, r->value, r->index, r->port,
                                     &r->result);
        }
        gaudi_log(g, GAUDI_LOG_UNIMP, "cpucp: opcode %u unsupported",
                  opcode);
        return RC_INVALID;
    }
}

/* Answer the packet a descriptor points at. */
static void serve_bd(struct gaudi_core *g, uint64_t ptr, uint32_t len)
{
    uint8_t pkt[CPUCP_PKT_SIZE];
    struct cpucp_req r = { .bd_len = len };
    uint32_t opcode, rc, w;
    uint64_t q;

    if (len < CPUCP_PKT_SIZE || len > CPUCP_MAX_PKT_SIZE ||
        !host_range(g, ptr, len, &r.dev_addr) ||
        gaudi_host_read(g, r.dev_addr, pkt, sizeof(pkt))) {
        gaudi_guest_error(g, "cpucp: bad packet 0x%llx len %u",
                          (unsigned long long)ptr, len);
        return;
    }
    memcpy(&q, pkt, 8);
    r.value = gaudi_le64(q);
    memcpy(&w, pkt + 8, 4);
    r.ctl = gaudi_le32(w);
    memcpy(&w, pkt + 16, 4);
    r.index = gaudi_le32(w);
    memcpy(&w, pkt + 20, 4);
    r.port = gaudi_le32(w);

    opcode = (r.ctl & CPUCP_PKT_CTL_OPCODE_MASK) >> CPUCP_PKT_CTL_OPCODE_SHIFT;
    rc = handle(g, opcode, &r);
    trace_gaudi_cpucp_packet(opcode, rc);

    /* Result, then ctl with the return code, then the fence. */
    if (r.has_result && !rc) {
        q = gaudi_le64(r.result);
        gaudi_host_write(g, r.dev_addr, &q, 8);
    }
    w = gaudi_le32((r.ctl & ~CPUCP_PKT_CTL_RC_MASK) |
                   rc << CPUCP_PKT_CTL_RC_SHIFT);
    gaudi_host_write(g, r.dev_addr + 8, &w, 4);
    w = gaudi_le32(CPUCP_PACKET_FENCE_VAL);
    gaudi_host_write(g, r.dev_addr + 12, &w, 4);
    g->cpu.packets++;
}

/* Serve every descriptor between our CI and the host's PI. */
static void pq_process(struct gaudi_core *g)
{
    struct gaudi_cpu *c = &g->cpu;
    uint32_t pi = gaudi_reg_get(g, mmCPU_IF_PF_PQ_PI);
    uint32_t wrap = 2 * c->pq_entries - 1, n;
    uint64_t base, bd[2];

    if (!c->queues_ready || !gaudi_cpu_serving(g)) {
        return;
    }
    /* The driver's PI runs modulo twice the queue length. */
    n = (pi - c->pq_ci) & wrap;
    if (n > c->pq_entries) {
        uint32_t sync[2] = { gaudi_le32(pi), gaudi_le32(c->pq_ci) };

        gaudi_guest_error(g, "cpucp: PQ PI %u runs %u ahead of CI %u",
                          pi, n, c->pq_ci);
        gaudi_eq_event(g, GAUDI_EVENT_PKT_QUEUE_OUT_SYNC, sync,
                       sizeof(sync));
        c->pq_ci = pi;
        return;
    }
    base = gaudi_cpu_addr_to_dev(g, c->pq_base);
    while (n--) {
        uint64_t slot = base + 16ULL * (c->pq_ci & (c->pq_entries - 1));

        c->pq_ci = (c->pq_ci + 1) & wrap;
        if (gaudi_host_read(g, slot, bd, sizeof(bd))) {
            gaudi_guest_error(g, "cpucp: PQ entry unreadable");
            continue;
        }
        serve_bd(g, gaudi_le64(bd[0]),
                 gaudi_le32((uint32_t)gaudi_le64(bd[1])));
    }
    c->pq_ci = pi & wrap;
}

static bool pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

static uint64_t reg64(struct gaudi_core *g, uint32_t lo)
{
    return (uint64_t)gaudi_reg_get(g, lo + 4) << 32 | gaudi_reg_get(g, lo);
}

/* QUEUE_INIT: the device CPU checks the host's queue setup. */
static void queue_init_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    struct gaudi_cpu *c = &g->cpu;
    uint32_t pq_len = gaudi_reg_get(g, mmCPU_IF_PQ_LENGTH);
    uint32_t eq_len = gaudi_reg_get(g, mmCPU_IF_EQ_LENGTH);
    uint32_t cq_len = gaudi_reg_get(g, mmCPU_IF_CQ_LENGTH);
    uint64_t pq = reg64(g, mmCPU_IF_PQ_BASE_ADDR_LOW);
    uint64_t eq = reg64(g, mmCPU_IF_EQ_BASE_ADDR_LOW);
    uint64_t cq = reg64(g, mmCPU_IF_CQ_BASE_ADDR_LOW), dev;
    uint32_t status = PQ_INIT_STATUS_READY_FOR_HOST;

    gaudi_reg_set(g, off, val);
    if (val != PQ_INIT_STATUS_READY_FOR_CP &&
        val != PQ_INIT_STATUS_READY_FOR_CP_SINGLE_MSI) {
        return;
    }
    if (!gaudi_cpu_serving(g)) {
        return;  /* no firmware to answer: the host times out */
    }
    c->queues_ready = false;
    if (!pow2(pq_len) || pq_len < 16 || !pow2(eq_len) ||
        eq_len < GAUDI_EQ_ENTRY_SIZE || !pow2(cq_len) || cq_len < 4) {
        status = PQ_INIT_STATUS_LEN_NOT_POWER_OF_TWO_ERR;
    } else if ((pq | eq | cq) & 7 || !host_range(g, pq, pq_len, &dev) ||
               !host_range(g, eq, eq_len, &dev) ||
               !host_range(g, cq, cq_len, &dev)) {
        status = PQ_INIT_STATUS_ILLEGAL_Q_ADDR_ERR;
    }
    if (status != PQ_INIT_STATUS_READY_FOR_HOST) {
        gaudi_guest_error(g, "cpucp: queue init refused (%u): PQ 0x%llx"
                          "/%u EQ 0x%llx/%u CQ 0x%llx/%u", status,
                          (unsigned long long)pq, pq_len,
                          (unsigned long long)eq, eq_len,
                          (unsigned long long)cq, cq_len);
        gaudi_reg_set(g, off, status);
        return;
    }
    c->pq_base = pq;
    c->pq_entries = pq_len / 16;
    c->pq_ci = gaudi_reg_get(g, mmCPU_IF_PF_PQ_PI) &
           (2 * c->pq_entries - 1);
    c->queues_ready = true;
    gaudi_eq_start(g, eq, eq_len / GAUDI_EQ_ENTRY_SIZE);
    gaudi_reg_set(g, off, status);
}

static void pq_pi_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    gaudi_reg_set(g, off, val);
    pq_process(g);
}

/* The driver interrupts the device CPU through its GIC distributor. */
static void setspi_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    gaudi_reg_set(g, off, val);
    switch (val) {
    case GAUDI_EVENT_PI_UPDATE:
        pq_process(g);
        break;
    case GAUDI_EVENT_HALT_MACHINE:
        g->cpu.halted = true;
        break;
    case GAUDI_EVENT_INTS_REGISTER:
        g->cpu.ints_registered = true;
        break;
    default:
        trace_gaudi_cpucp_gic_ignored(val);
        break;
    }
}

void gaudi_cpu_set_hung(struct gaudi_core *g, bool hung)
{
    g->cpu.hung = hung;
    if (!hung) {
        pq_process(g); /* answer what queued up meanwhile */
    }
}

void gaudi_cpu_tick(struct gaudi_core *g)
{
    if (gaudi_cpu_serving(g)) {
        sensors_sample(g);
    }
}

void gaudi_cpu_reset(struct gaudi_core *g)
{
    memset(&g->cpu, 0, sizeof(g->cpu));
    g->cpu.pci_access = true;
    g->cpu.last_ns = gaudi_now_ns(g);
    g->cpu.last_busy_ns = g->stat_busy_ns;
    g->cpu.last_dma_bytes = g->stat_dma_bytes;
}

void gaudi_cpu_init(struct gaudi_core *g)
{
    gaudi_reg_claim(g, mmCPU_IF_QUEUE_INIT, mmCPU_IF_QUEUE_INIT + 4, NULL,
                    queue_init_write);
    gaudi_reg_claim(g, mmCPU_IF_PF_PQ_PI, mmCPU_IF_PF_PQ_PI + 4, NULL,
                    pq_pi_write);
    gaudi_reg_claim(g, mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR,
                    mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR + 4, NULL,
                    setspi_write);
}

void gaudi_cpu_fini(struct gaudi_core *g)
{
    (void)g; /* nothing allocated */
}
