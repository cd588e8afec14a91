/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gaudi 1 model: the SPI flash as the device CPU manages it -- two boot
 * slots, a pair of active-slot records, and the CPU-CP flash opcodes the
 * host uses to update it (a gaudi-open model/driver extension).
 * Documentation/firmware/flash.rst describes the layout and the protocol.
 */
#ifndef GAUDI_FLASH_H
#define GAUDI_FLASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gaudi1/flash.h"

struct gaudi_core;

/* Layout of the 64 MiB flash window (offsets in the window). */
#define GAUDI_FLASH_NR_SLOTS 2
#define GAUDI_FLASH_SLOT_SIZE 0x1800000U /* 24 MiB per boot slot */
#define GAUDI_FLASH_SLOT0 0x0000000U
#define GAUDI_FLASH_SLOT1 0x1800000U
#define GAUDI_FLASH_REC0 0x3000000U /* one sector per record */
#define GAUDI_FLASH_REC1 0x3010000U
#define GAUDI_FLASH_NO_SLOT 0xFFFFFFFFU

/* The active-slot record (little endian, CRC-32 over bytes 0..59). */
#define GAUDI_FLASH_REC_MAGIC 0x544C5347U /* "GSLT" */
#define GAUDI_FLASH_REC_VERSION 1
#define GAUDI_FLASH_REC_SIZE 64

struct gaudi_flash_rec {
    uint32_t magic;
    uint32_t version;
    uint32_t seq;  /* the valid record with the higher one wins */
    uint32_t active;  /* slot to boot */
    uint32_t image_size; /* bytes of the active slot's image */
    uint32_t image_crc; /* their CRC-32 */
    uint32_t reserved[9];
    uint32_t crc;  /* CRC-32 of the 60 bytes above */
};

/*
 * CPU-CP flash extension (opcodes, packet fields, result word and sector
 * size: gaudi1/flash.h).  Answers RC_INVALID_PARAMS for a bad range and
 * RC_FAULT for an unreachable host buffer; otherwise RC_SUCCESS with the
 * result word.
 */
#define GAUDI_FLASH_XFER_MAX 0x100000U /* READ/PROGRAM: 1 MiB a packet */

/* Flash status (result bits 7:0). */
enum gaudi_flash_status {
    GAUDI_FLASH_ST_OK,
    GAUDI_FLASH_ST_NOT_ERASED, /* PROGRAM hit bits that were not 1 */
    GAUDI_FLASH_ST_BAD_IMAGE, /* ACTIVATE: not a valid boot-fit */
                              /* (detail: enum gaudi_fit_err) */
    GAUDI_FLASH_ST_CRC,  /* ACTIVATE: the slot's CRC differs */
};

/* FLASH_INFO answer, little endian, GAUDI_FLASH_INFO_SIZE bytes. */
#define GAUDI_FLASH_INFO_VERSION 1
#define GAUDI_FLASH_INFO_SIZE 512
#define GAUDI_FLASH_VER_LEN 128

struct gaudi_flash_info {
    uint32_t version;
    uint32_t flash_size;
    uint32_t erase_size;
    uint32_t nr_slots;
    uint32_t slot_offset[GAUDI_FLASH_NR_SLOTS];
    uint32_t slot_size;
    uint32_t record_offset[2];
    uint32_t record_seq;  /* newest valid record, 0: none */
    uint32_t record_active; /* its slot, NO_SLOT: none */
    uint32_t boot_slot;  /* booted at the last reset, NO_SLOT: none */
    uint32_t next_slot;  /* what a reset would boot now */
    uint32_t slot_state[GAUDI_FLASH_NR_SLOTS]; /* enum gaudi_fit_err */
    uint32_t slot_image_size[GAUDI_FLASH_NR_SLOTS]; /* 0: no image */
    uint32_t reserved[15];
    char boot_version[GAUDI_FLASH_VER_LEN]; /* running preboot */
    char slot_version[GAUDI_FLASH_NR_SLOTS][GAUDI_FLASH_VER_LEN];
};

struct gaudi_flash_state {
    uint32_t boot_slot;  /* slot the preboot came from at reset */
};

/* Record helpers (also used by the tests to build torn records). */
uint32_t gaudi_flash_rec_crc(const struct gaudi_flash_rec *rec);
bool gaudi_flash_rec_valid(const struct gaudi_flash_rec *rec);
/* True if sequence number a is newer than b (serial arithmetic). */
bool gaudi_flash_seq_newer(uint32_t a, uint32_t b);

/*
 * Pick the slot to boot: the newest valid record's slot if it holds a
 * valid boot-fit whose size and CRC match the record, else the other
 * slot if valid; without a record slot 0 then slot 1.  Copies its
 * preboot version to ver (ver_len bytes) and returns the slot, or
 * GAUDI_FLASH_NO_SLOT (ver untouched).  flash may be NULL.
 */
uint32_t gaudi_flash_select(const uint8_t *flash, char *ver, size_t ver_len);

/* Reset: select the boot slot and remember it; returns it like above. */
uint32_t gaudi_flash_boot(struct gaudi_core *g, char *ver, size_t ver_len);

/*
 * Serve a flash CPU-CP request.  addr, index and subidx are the packet's
 * fields at offsets 0, 16 and 20.  Returns the CPU-CP return code and sets
 * *result when it is RC_SUCCESS.
 */
int gaudi_flash_cpucp(struct gaudi_core *g, uint32_t opcode, uint64_t addr,
                      uint32_t index, uint32_t subidx, uint64_t *result);

#endif /* GAUDI_FLASH_H */
