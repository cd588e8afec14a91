// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gaudi 1 model: the SPI flash as the device CPU manages it
 * (Documentation/firmware/flash.rst).
 *
 * The window holds two boot slots and, in two sectors of their own, two
 * copies of a small record that names the active slot.  A record carries a
 * sequence number and a CRC; the device CPU writes a new one into the
 * sector that does not hold the newest valid record, erasing it first, so
 * a write torn at any point leaves the previous record in charge.  At
 * reset the preboot runs from the newest record's slot if that slot holds
 * a valid boot-fit with the recorded size and CRC, else from the other
 * slot if that one is valid; a flash without any record (a factory image
 * at offset 0) boots slot 0, then slot 1.
 *
 * The host never writes the flash itself: it asks the device CPU with the
 * CPU-CP flash opcodes (a gaudi-open extension), with NOR semantics --
 * erase sets a 64 KiB sector to 0xFF, program can only clear bits.
 */
#include "trace.h"
#include <stdlib.h>
#include <string.h>

#include "gaudi_int.h"

/* enum cpucp_packet_rc values this file answers with. */
#define FLASH_RC_SUCCESS 0
#define FLASH_RC_FAULT 2
#define FLASH_RC_INVALID_PARAMS 4

static const uint32_t slot_off[GAUDI_FLASH_NR_SLOTS] = {
    GAUDI_FLASH_SLOT0, GAUDI_FLASH_SLOT1,
};
static const uint32_t rec_off[2] = { GAUDI_FLASH_REC0, GAUDI_FLASH_REC1 };

uint32_t gaudi_flash_rec_crc(const struct gaudi_flash_rec *rec)
{
    return gaudi_crc32(0, rec, offsetof(struct gaudi_flash_rec, crc));
}

/* Records are stored little endian; the model runs on LE and BE hosts. */
static void rec_load(const uint8_t *p, struct gaudi_flash_rec *rec)
{
    uint32_t *w = (uint32_t *)rec;
    size_t i;

    memcpy(rec, p, sizeof(*rec));
    for (i = 0; i < sizeof(*rec) / 4; i++) {
        w[i] = le32toh(w[i]);
    }
}

bool gaudi_flash_rec_valid(const struct gaudi_flash_rec *rec)
{
    struct gaudi_flash_rec le = *rec;
    uint32_t *w = (uint32_t *)&le;
    size_t i;

    for (i = 0; i < sizeof(le) / 4; i++) {
        w[i] = htole32(w[i]);
    }
    return rec->magic == GAUDI_FLASH_REC_MAGIC &&
           rec->version == GAUDI_FLASH_REC_VERSION &&
           rec->active < GAUDI_FLASH_NR_SLOTS &&
           rec->image_size && rec->image_size <= GAUDI_FLASH_SLOT_SIZE &&
           rec->crc == gaudi_flash_rec_crc(&le);
}

bool gaudi_flash_seq_newer(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) > 0;
}

/*
 * The newest valid record: returns its index (0/1) and copies it to *out,
 * or -1 when neither copy is valid.
 */
static int newest_record(const uint8_t *flash, struct gaudi_flash_rec *out)
{
    struct gaudi_flash_rec r[2];
    bool v[2];
    int i, best = -1;

    for (i = 0; i < 2; i++) {
        rec_load(flash + rec_off[i], &r[i]);
        v[i] = gaudi_flash_rec_valid(&r[i]);
        if (v[i] && (best < 0 || gaudi_flash_seq_newer(r[i].seq,
                                                        r[best].seq))) {
            best = i;
        }
    }
    if (best >= 0) {
        *out = r[best];
    }
    return best;
}

/* Check one slot's image: the FIT error code, the version on success. */
static enum gaudi_fit_err slot_check(const uint8_t *flash, uint32_t slot,
                                     char *ver, size_t ver_len)
{
    struct gaudi_fit_info *info = malloc(sizeof(*info));
    enum gaudi_fit_err err;
    size_t room = GAUDI_FLASH_SLOT_SIZE < GAUDI_FW_FILE_MAX ?
                  GAUDI_FLASH_SLOT_SIZE : GAUDI_FW_FILE_MAX;

    if (!info) {
        return GAUDI_FIT_ETRUNC;
    }
    err = gaudi_fit_check(flash + slot_off[slot], room, GAUDI_FIT_BOOT, info,
                          NULL, 0);
    if (!err && ver && ver_len) {
        memset(ver, 0, ver_len);
        memcpy(ver, info->preboot_version,
               strnlen(info->preboot_version, ver_len - 1));
    }
    free(info);
    return err;
}

static uint32_t image_totalsize(const uint8_t *flash, uint32_t slot)
{
    const uint8_t *p = flash + slot_off[slot] + 4;

    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

uint32_t gaudi_flash_select(const uint8_t *flash, char *ver, size_t ver_len)
{
    struct gaudi_flash_rec rec;
    uint32_t order[2] = { 0, 1 };
    char tmp[GAUDI_FLASH_VER_LEN];
    bool have_rec;
    int i;

    if (!flash) {
        return GAUDI_FLASH_NO_SLOT;
    }
    have_rec = newest_record(flash, &rec) >= 0;
    if (have_rec) {
        order[0] = rec.active;
        order[1] = rec.active ^ 1;
    }
    for (i = 0; i < 2; i++) {
        uint32_t s = order[i];

        if (slot_check(flash, s, tmp, sizeof(tmp))) {
            continue;
        }
        /* The recorded slot must also hold exactly the recorded image. */
        if (i == 0 && have_rec &&
            (rec.image_size < image_totalsize(flash, s) ||
             gaudi_crc32(0, flash + slot_off[s], rec.image_size) !=
             rec.image_crc)) {
            continue;
        }
        if (ver && ver_len) {
            memset(ver, 0, ver_len);
            memcpy(ver, tmp, strnlen(tmp, ver_len - 1));
        }
        return s;
    }
    return GAUDI_FLASH_NO_SLOT;
}

uint32_t gaudi_flash_boot(struct gaudi_core *g, char *ver, size_t ver_len)
{
    g->fl.boot_slot = gaudi_flash_select(g->flash, ver, ver_len);
    return g->fl.boot_slot;
}

/* --- CPU-CP requests -------------------------------------------------- */

static void dirty(struct gaudi_core *g, uint32_t off, uint32_t len)
{
    if (g->bus.flash_dirty) {
        g->bus.flash_dirty(g->bus.opaque, off, len);
    }
}

/* The slot that wholly contains [off, off + len), or -1. */
static int slot_of(uint32_t off, uint32_t len)
{
    int s;

    for (s = 0; s < GAUDI_FLASH_NR_SLOTS; s++) {
        if (off >= slot_off[s] && len <= GAUDI_FLASH_SLOT_SIZE &&
            off - slot_off[s] <= GAUDI_FLASH_SLOT_SIZE - len) {
            return s;
        }
    }
    return -1;
}

static uint64_t answer(uint32_t status, uint32_t detail, uint32_t value)
{
    return (uint64_t)value << 32 | (detail & 0xFF) << 8 | (status & 0xFF);
}

static int flash_info(struct gaudi_core *g, uint64_t addr, uint32_t size,
                      uint64_t *result)
{
    struct gaudi_flash_info fi;
    struct gaudi_flash_rec rec;
    uint32_t *w = (uint32_t *)&fi;
    uint32_t len = size < sizeof(fi) ? size : sizeof(fi);
    uint64_t dev;
    size_t i;
    int s;

    if (!size) {
        return FLASH_RC_INVALID_PARAMS;
    }
    memset(&fi, 0, sizeof(fi));
    fi.version = GAUDI_FLASH_INFO_VERSION;
    fi.flash_size = GAUDI_FLASH_WINDOW;
    fi.erase_size = GAUDI_FLASH_ERASE_SIZE;
    fi.nr_slots = GAUDI_FLASH_NR_SLOTS;
    fi.slot_size = GAUDI_FLASH_SLOT_SIZE;
    fi.record_active = GAUDI_FLASH_NO_SLOT;
    for (s = 0; s < 2; s++) {
        fi.slot_offset[s] = slot_off[s];
        fi.record_offset[s] = rec_off[s];
        fi.slot_state[s] = slot_check(g->flash, s, fi.slot_version[s],
                                      sizeof(fi.slot_version[s]));
        if (!fi.slot_state[s]) {
            fi.slot_image_size[s] = image_totalsize(g->flash, s);
        }
    }
    if (newest_record(g->flash, &rec) >= 0) {
        fi.record_seq = rec.seq;
        fi.record_active = rec.active;
    }
    fi.boot_slot = g->fl.boot_slot;
    fi.next_slot = gaudi_flash_select(g->flash, NULL, 0);
    memcpy(fi.boot_version, g->boot.preboot_ver,
           strnlen(g->boot.preboot_ver, sizeof(fi.boot_version) - 1));
    for (i = 0; i < offsetof(struct gaudi_flash_info, boot_version) / 4;
         i++) {
        w[i] = htole32(w[i]);
    }
    if (!gaudi_cpu_host_range(g, addr, len, &dev) ||
        gaudi_host_write(g, dev, &fi, len)) {
        gaudi_guest_error(g, "flash: info buffer 0x%llx not in host memory",
                          (unsigned long long)addr);
        return FLASH_RC_FAULT;
    }
    *result = answer(GAUDI_FLASH_ST_OK, 0, len);
    return FLASH_RC_SUCCESS;
}

static int flash_read(struct gaudi_core *g, uint64_t addr, uint32_t off,
                      uint32_t len, uint64_t *result)
{
    uint64_t dev;

    if (!len || len > GAUDI_FLASH_XFER_MAX || off > GAUDI_FLASH_WINDOW ||
        len > GAUDI_FLASH_WINDOW - off) {
        gaudi_guest_error(g, "flash: read 0x%x+0x%x out of range", off,
                          len);
        return FLASH_RC_INVALID_PARAMS;
    }
    if (!gaudi_cpu_host_range(g, addr, len, &dev) ||
        gaudi_host_write(g, dev, g->flash + off, len)) {
        gaudi_guest_error(g, "flash: read buffer 0x%llx not in host memory",
                          (unsigned long long)addr);
        return FLASH_RC_FAULT;
    }
    *result = answer(GAUDI_FLASH_ST_OK, 0, len);
    return FLASH_RC_SUCCESS;
}

static int flash_erase(struct gaudi_core *g, uint32_t off, uint32_t len,
                       uint64_t *result)
{
    if (!len || (off | len) % GAUDI_FLASH_ERASE_SIZE ||
        slot_of(off, len) < 0) {
        gaudi_guest_error(g, "flash: erase 0x%x+0x%x is not whole sectors "
                          "of one slot", off, len);
        return FLASH_RC_INVALID_PARAMS;
    }
    memset(g->flash + off, 0xFF, len);
    dirty(g, off, len);
    *result = answer(GAUDI_FLASH_ST_OK, 0, len);
    return FLASH_RC_SUCCESS;
}

static int flash_program(struct gaudi_core *g, uint64_t addr, uint32_t off,
                         uint32_t len, uint64_t *result)
{
    uint8_t *buf, *dst = g->flash + off;
    bool lost = false;
    uint64_t dev;
    uint32_t i;

    if (!len || len > GAUDI_FLASH_XFER_MAX || slot_of(off, len) < 0) {
        gaudi_guest_error(g, "flash: program 0x%x+0x%x is not inside one "
                          "slot", off, len);
        return FLASH_RC_INVALID_PARAMS;
    }
    buf = malloc(len);
    if (!buf) {
        return FLASH_RC_FAULT;
    }
    if (!gaudi_cpu_host_range(g, addr, len, &dev) ||
        gaudi_host_read(g, dev, buf, len)) {
        gaudi_guest_error(g, "flash: program buffer 0x%llx not in host "
                          "memory", (unsigned long long)addr);
        free(buf);
        return FLASH_RC_FAULT;
    }
    /* NOR: programming only clears bits. */
    for (i = 0; i < len; i++) {
        lost |= (dst[i] & buf[i]) != buf[i];
        dst[i] &= buf[i];
    }
    free(buf);
    dirty(g, off, len);
    if (lost) {
        gaudi_guest_error(g, "flash: program 0x%x+0x%x over bits that were "
                          "not erased", off, len);
    }
    *result = answer(lost ? GAUDI_FLASH_ST_NOT_ERASED : GAUDI_FLASH_ST_OK, 0,
                     len);
    return FLASH_RC_SUCCESS;
}

/* Write a new record: erase the older copy's sector, then program it. */
static uint32_t write_record(struct gaudi_core *g, uint32_t slot,
                             uint32_t size, uint32_t crc)
{
    struct gaudi_flash_rec rec, cur;
    uint32_t *w = (uint32_t *)&rec;
    int newest = newest_record(g->flash, &cur);
    int dst = newest == 0 ? 1 : 0;
    size_t i;

    memset(&rec, 0, sizeof(rec));
    rec.magic = GAUDI_FLASH_REC_MAGIC;
    rec.version = GAUDI_FLASH_REC_VERSION;
    rec.seq = newest >= 0 ? cur.seq + 1 : 1;
    rec.active = slot;
    rec.image_size = size;
    rec.image_crc = crc;
    for (i = 0; i < sizeof(rec) / 4 - 1; i++) {
        w[i] = htole32(w[i]);
    }
    rec.crc = htole32(gaudi_flash_rec_crc(&rec));

    memset(g->flash + rec_off[dst], 0xFF, GAUDI_FLASH_ERASE_SIZE);
    dirty(g, rec_off[dst], GAUDI_FLASH_ERASE_SIZE);
    memcpy(g->flash + rec_off[dst], &rec, sizeof(rec));
    dirty(g, rec_off[dst], sizeof(rec));
    return le32toh(rec.seq);
}

static int flash_activate(struct gaudi_core *g, uint64_t arg, uint32_t slot,
                          uint32_t flags, uint64_t *result)
{
    uint32_t size = (uint32_t)arg, crc = arg >> 32, seq;
    enum gaudi_fit_err err;

    if (slot >= GAUDI_FLASH_NR_SLOTS || flags || !size ||
        size > GAUDI_FLASH_SLOT_SIZE) {
        gaudi_guest_error(g, "flash: activate slot %u size 0x%x flags 0x%x "
                          "refused", slot, size, flags);
        return FLASH_RC_INVALID_PARAMS;
    }
    err = slot_check(g->flash, slot, NULL, 0);
    if (!err && size < image_totalsize(g->flash, slot)) {
        err = GAUDI_FIT_ETRUNC;
    }
    if (err) {
        gaudi_guest_error(g, "flash: slot %u holds no valid boot-fit (%s)",
                          slot, gaudi_fit_strerror(err));
        *result = answer(GAUDI_FLASH_ST_BAD_IMAGE, err, 0);
        return FLASH_RC_SUCCESS;
    }
    if (gaudi_crc32(0, g->flash + slot_off[slot], size) != crc) {
        gaudi_guest_error(g, "flash: slot %u CRC differs from the host's",
                          slot);
        *result = answer(GAUDI_FLASH_ST_CRC, 0, 0);
        return FLASH_RC_SUCCESS;
    }
    seq = write_record(g, slot, size, crc);
    trace_gaudi_flash_slot_active(slot, seq);
    *result = answer(GAUDI_FLASH_ST_OK, 0, seq);
    return FLASH_RC_SUCCESS;
}

int gaudi_flash_cpucp(struct gaudi_core *g, uint32_t opcode, uint64_t addr,
                      uint32_t index, uint32_t subidx, uint64_t *result)
{
    if (!g->flash) {
        return FLASH_RC_FAULT;
    }
    switch (opcode) {
    case GAUDI_CPUCP_FLASH_INFO:
        return flash_info(g, addr, index, result);
    case GAUDI_CPUCP_FLASH_READ:
        return flash_read(g, addr, index, subidx, result);
    case GAUDI_CPUCP_FLASH_ERASE:
        return flash_erase(g, index, subidx, result);
    case GAUDI_CPUCP_FLASH_PROGRAM:
        return flash_program(g, addr, index, subidx, result);
    case GAUDI_CPUCP_FLASH_ACTIVATE:
        return flash_activate(g, addr, index, subidx, result);
    default:
        return FLASH_RC_INVALID_PARAMS;
    }
}
