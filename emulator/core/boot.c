// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 model: boot state machine and hard reset (the values:
 * hw/gaudi1/boot.h and cpucp.h, from upstream's hl_boot_if.h and gaudi.c).
 *
 * After reset the preboot firmware (which runs from the card's flash) waits
 * for a boot-fit: CPU_BOOT_STATUS = WAITING_FOR_BOOT_FIT.  The driver copies
 * gaudi-boot-fit.itb to SRAM + 0x200000 and writes FIT_RDY to KMD_MSG_TO_CPU;
 * the boot-fit is checked and, if good, acknowledged with CMD_STATUS = OK
 * and READY_TO_BOOT.  The driver then copies gaudi-fit.itb to HBM + 0x800000
 * and writes FIT_RDY again; the main image starts the device CPU's
 * application (CPU-CP) and the status becomes SRAM_AVAIL.  A refused image
 * leaves FIT_CORRUPTED and BOOT_ERR0 = ENABLED | FIT_CORRUPTED.
 *
 * The "legacy" (static) loader is the only one offered: DEV_STS0 leaves
 * FW_LD_COM_EN clear.  All of it runs synchronously in the register write.
 *
 * Hard reset, as upstream's gaudi.c runs it while FW_HARD_RST_EN is clear:
 * it halts the device CPU (GIC SPI HALT_MACHINE, or KMD_MSG GOTO_WFE),
 * writes the RST_CFG registers and COLD_RST_FLOPS, BOOT_SEQ_RE_START and
 * then SW_ALL_RST = 1, and after 2 s expects the BTM_FSM state bits at 0.
 * On SW_ALL_RST the model resets CPU_BOOT_STATUS to WAITING_FOR_BOOT_FIT
 * (16), HW_STATE and QUEUE_INIT to 0 and all queue and engine state; PCI
 * config space and the BARs stay.
 */
#include "trace.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaudi_int.h"

#define DEFAULT_PREBOOT_VER \
    "gaudi-open-btl Preboot version hl-gaudi-open-fw-0.0.0 (no flash image)"

const struct gaudi_fw_data *gaudi_boot_fw(struct gaudi_core *g)
{
    return &g->boot.fw;
}

void gaudi_boot_inject_fail(struct gaudi_core *g, uint32_t how)
{
    if (how >= GAUDI_BOOT_FAIL_NR) {
        gaudi_guest_error(g, "boot: unknown failure mode %u", how);
        return;
    }
    g->boot.fail_next = how;
}

/* Consume the armed failure if it is the one asked about. */
static bool take_fail(struct gaudi_core *g, uint32_t how)
{
    if (g->boot.fail_next != how) {
        return false;
    }
    g->boot.fail_next = GAUDI_BOOT_FAIL_NONE;
    return true;
}

static void set_version(struct gaudi_core *g, uint32_t off, const char *ver)
{
    memset(g->sram + off, 0, GAUDI_FW_VER_LEN);
    memcpy(g->sram + off, ver, strnlen(ver, GAUDI_FW_VER_LEN - 1));
}

static void image_refused(struct gaudi_core *g, const char *name,
                          enum gaudi_fit_err err, const char *why)
{
    g->boot.last_err = err;
    gaudi_reg_set(g, mmCPU_BOOT_ERR0,
                  CPU_BOOT_ERR0_ENABLED | CPU_BOOT_ERR0_FIT_CORRUPTED);
    gaudi_reg_set(g, mmCPU_BOOT_STATUS, CPU_BOOT_STATUS_FIT_CORRUPTED);
    gaudi_guest_error(g, "boot: %s refused: %s", name, why);
}

/*
 * Check an image the driver copied.  The area is what the driver could
 * have written (its file size limit), clipped to the memory behind it.
 */
static enum gaudi_fit_err check_image(struct gaudi_core *g, const uint8_t *p,
                                      uint64_t room, enum gaudi_fit_kind kind,
                                      uint32_t injected,
                                      struct gaudi_fit_info *info)
{
    const char *name = kind == GAUDI_FIT_BOOT ? "gaudi-boot-fit.itb" :
                            "gaudi-fit.itb";
    enum gaudi_fit_err err;
    char why[160];

    err = gaudi_fit_check(p, room < GAUDI_FW_FILE_MAX ? room :
                          GAUDI_FW_FILE_MAX, kind, info, why, sizeof(why));
    if (!err && take_fail(g, injected)) {
        err = GAUDI_FIT_EHASH;
        strcpy(why, "hash mismatch: injected by the model control");
    }
    if (err) {
        image_refused(g, name, err, why);
    } else {
        g->boot.last_err = GAUDI_FIT_OK;
    }
    return err;
}

static void load_boot_fit(struct gaudi_core *g)
{
    struct gaudi_fit_info *info;

    if (take_fail(g, GAUDI_BOOT_FAIL_NO_ACK)) {
        return;  /* the driver's 4 s poll times out */
    }
    info = malloc(sizeof(*info));
    if (!info) {
        return;
    }
    if (!check_image(g, g->sram + GAUDI_BOOT_FIT_SRAM_OFFSET,
                     GAUDI_BAR0_SIZE - GAUDI_BOOT_FIT_SRAM_OFFSET,
                     GAUDI_FIT_BOOT, GAUDI_BOOT_FAIL_BOOT_FIT, info)) {
        set_version(g, GAUDI_UBOOT_VER_SRAM_OFFSET, info->version);
        gaudi_reg_set(g, mmCPU_CMD_STATUS_TO_HOST, CPU_MSG_OK);
        gaudi_reg_set(g, mmCPU_BOOT_STATUS,
                      CPU_BOOT_STATUS_READY_TO_BOOT);
        trace_gaudi_boot_fit_accepted(info->version);
    }
    free(info);
}

static void load_fit(struct gaudi_core *g)
{
    struct gaudi_fit_info *info;

    if (g->hbm_size <= GAUDI_FIT_HBM_OFFSET) {
        image_refused(g, "gaudi-fit.itb", GAUDI_FIT_ETRUNC,
                      "no HBM behind the load address");
        return;
    }
    info = malloc(sizeof(*info));
    if (!info) {
        return;
    }
    if (!check_image(g, g->hbm + GAUDI_FIT_HBM_OFFSET,
                     g->hbm_size - GAUDI_FIT_HBM_OFFSET, GAUDI_FIT_MAIN,
                     GAUDI_BOOT_FAIL_FIT, info)) {
        g->boot.fw = info->fw;
        if (take_fail(g, GAUDI_BOOT_FAIL_NO_SRAM_AVAIL)) {
            free(info);
            return; /* stays READY_TO_BOOT: 30 s timeout */
        }
        g->boot.cpu_running = true;
        gaudi_reg_set(g, mmCPU_BOOT_STATUS, CPU_BOOT_STATUS_SRAM_AVAIL);
        trace_gaudi_boot_fit_running(info->version);
    }
    free(info);
}

/* SW_ALL_RST and RST_DEV: the whole card except PCI config and BARs. */
static void hard_reset(struct gaudi_core *g)
{
    if (g->boot.in_reset) {
        return;
    }
    g->boot.in_reset = true;
    gaudi_core_reset(g);
    g->boot.in_reset = false;
}

static void kmd_msg_write(struct gaudi_core *g, uint32_t off, uint32_t val)
{
    uint32_t status = gaudi_reg_get(g, mmCPU_BOOT_STATUS);

    gaudi_reg_set(g, off, val);
    switch (val) {
    case KMD_MSG_NA:
    case KMD_MSG_SKIP_BMC: /* no BMC is modelled: nothing to skip */
        break;
    case KMD_MSG_FIT_RDY:
        if (status == CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT) {
            load_boot_fit(g);
        } else if (status == CPU_BOOT_STATUS_READY_TO_BOOT) {
            load_fit(g);
        } else {
            gaudi_guest_error(g, "boot: FIT_RDY in boot status %u",
                              status);
        }
        break;
    case KMD_MSG_GOTO_WFE:
        /* The device CPU parks in WFE: no more CPU-CP answers. */
        g->boot.cpu_running = false;
        gaudi_reg_set(g, mmCPU_BOOT_STATUS, 1 /* IN_WFE */);
        break;
    case KMD_MSG_RST_DEV:
        hard_reset(g);
        break;
    default:
        gaudi_guest_error(g, "boot: unknown KMD message %u", val);
        break;
    }
}

static void sw_all_rst_write(struct gaudi_core *g, uint32_t off,
                             uint32_t val)
{
    gaudi_reg_set(g, off, val);
    if (val & 1) {
        hard_reset(g);
    }
}

/* The boot-time monitor's FSM is idle whenever the host can look. */
static uint32_t btm_fsm_read(struct gaudi_core *g, uint32_t off)
{
    return gaudi_reg_get(g, off) & ~BTM_FSM_STATE_MASK;
}

/*
 * The preboot runs from the flash: the boot slot the active-slot record
 * names (or the other valid slot, flash.c) supplies its
 * gaudi,preboot-version string; with no valid slot a built-in one.
 */
static void read_preboot_version(struct gaudi_core *g)
{
    snprintf(g->boot.preboot_ver, sizeof(g->boot.preboot_ver), "%s",
             DEFAULT_PREBOOT_VER);
    gaudi_flash_boot(g, g->boot.preboot_ver, sizeof(g->boot.preboot_ver));
}

void gaudi_boot_reset(struct gaudi_core *g)
{
    struct gaudi_boot *b = &g->boot;

    b->cpu_running = false;
    b->last_err = GAUDI_FIT_OK;
    memset(&b->fw, 0, sizeof(b->fw));

    gaudi_reg_set(g, mmCPU_BOOT_DEV_STS0, CPU_BOOT_DEV_STS0_MODEL);
    gaudi_reg_set(g, mmCPU_BOOT_DEV_STS1, CPU_BOOT_DEV_STS1_MODEL);
    gaudi_reg_set(g, mmPREBOOT_VER_OFFSET, GAUDI_PREBOOT_VER_SRAM_OFFSET);
    gaudi_reg_set(g, mmUBOOT_VER_OFFSET, GAUDI_UBOOT_VER_SRAM_OFFSET);
    read_preboot_version(g);
    set_version(g, GAUDI_PREBOOT_VER_SRAM_OFFSET, b->preboot_ver);
    set_version(g, GAUDI_UBOOT_VER_SRAM_OFFSET, "");
    /* A preboot that never comes up leaves the status at NA (0). */
    if (!take_fail(g, GAUDI_BOOT_FAIL_PREBOOT)) {
        gaudi_reg_set(g, mmCPU_BOOT_STATUS,
                      CPU_BOOT_STATUS_WAITING_FOR_BOOT_FIT);
    }
}

void gaudi_boot_init(struct gaudi_core *g)
{
    gaudi_reg_claim(g, mmKMD_MSG_TO_CPU, mmKMD_MSG_TO_CPU + 4, NULL,
                    kmd_msg_write);
    gaudi_reg_claim(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST,
                    mmPSOC_GLOBAL_CONF_SW_ALL_RST + 4, NULL,
                    sw_all_rst_write);
    gaudi_reg_claim(g, mmPSOC_GLOBAL_CONF_BTM_FSM,
                    mmPSOC_GLOBAL_CONF_BTM_FSM + 4, btm_fsm_read, NULL);
}
