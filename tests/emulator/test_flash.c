// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SPI flash: boot slot selection, active-slot records (sequence, CRC,
 * torn writes) and the CPU-CP flash opcodes (emulator/core/flash.c,
 * Documentation/firmware/flash.rst).
 */
#define _GNU_SOURCE
#include <string.h>

#include "fwboot.h"
#include "tap.h"

#define H_BUF		0x1000000ULL	/* 1 MiB host buffers */
#define H_BUF2		0x1200000ULL
#define RC_OK		0
#define RC_FAULT	2
#define RC_PARAMS	4

static uint8_t *boot_img;
static size_t boot_len;

/* Send a flash request; *res gets the result word. */
static int fl(struct fakebus *fb, uint32_t op, uint64_t addr, uint32_t idx,
	      uint32_t sub, uint64_t *res)
{
	struct pkt k = { .value = addr, .ctl = op << 16, .index = idx,
			 .port = sub };
	struct pkt r;
	int rc = send_raw(fb, &k, sizeof(k), cpu_addr(H_PKT), &r);

	if (res)
		*res = rc ? ~0ULL : r.value;
	return rc;
}

static void info(struct fakebus *fb, struct gaudi_flash_info *fi)
{
	uint64_t res;

	memset(fb->host + H_BUF, 0xAA, sizeof(*fi));
	if (fl(fb, GAUDI_CPUCP_FLASH_INFO, cpu_addr(H_BUF), sizeof(*fi), 0,
	       &res) || (res & 0xFF) || res >> 32 != sizeof(*fi)) {
		fprintf(stderr, "Bail out! FLASH_INFO failed\n");
		exit(1);
	}
	memcpy(fi, fb->host + H_BUF, sizeof(*fi));
}

/* Power cycle: reset, boot the images again, CPU queues up. */
static void restart(struct fakebus *fb)
{
	gaudi_core_reset(fb->g);
	test_pi = 0;
	if (boot_card(fb) != CPU_BOOT_STATUS_SRAM_AVAIL ||
	    queues_init(fb) != PQ_INIT_STATUS_READY_FOR_HOST) {
		fprintf(stderr, "Bail out! card did not come back\n");
		exit(1);
	}
}

static uint32_t slot_off(uint32_t s)
{
	return s ? GAUDI_FLASH_SLOT1 : GAUDI_FLASH_SLOT0;
}

/* The steps gaudi-fw flash takes; stop after `steps` of them. */
static int flash_steps(struct fakebus *fb, uint32_t slot, const uint8_t *img,
		       size_t len, uint32_t chunk, int steps)
{
	uint32_t off = slot_off(slot), n, done = 0;
	uint32_t span = (len + GAUDI_FLASH_ERASE_SIZE - 1) &
			~(GAUDI_FLASH_ERASE_SIZE - 1);
	uint64_t res;
	int step = 0;

	if (step++ >= steps)
		return step;
	if (fl(fb, GAUDI_CPUCP_FLASH_ERASE, 0, off, span, &res) || res & 0xFF)
		return -1;
	while (done < len) {
		if (step++ >= steps)
			return step;
		n = len - done < chunk ? len - done : chunk;
		memcpy(fb->host + H_BUF, img + done, n);
		if (fl(fb, GAUDI_CPUCP_FLASH_PROGRAM, cpu_addr(H_BUF),
		       off + done, n, &res) || res & 0xFF)
			return -1;
		done += n;
	}
	if (step++ >= steps)
		return step;
	if (fl(fb, GAUDI_CPUCP_FLASH_READ, cpu_addr(H_BUF2), off, len, &res) ||
	    memcmp(fb->host + H_BUF2, img, len))
		return -1;
	if (step++ >= steps)
		return step;
	if (fl(fb, GAUDI_CPUCP_FLASH_ACTIVATE,
	       (uint64_t)gaudi_crc32(0, img, len) << 32 | len, slot, 0, &res) ||
	    res & 0xFF)
		return -1;
	return 0;
}

static void put_rec(struct fakebus *fb, int which, uint32_t seq,
		    uint32_t active, const uint8_t *img, size_t len)
{
	struct gaudi_flash_rec r = {
		.magic = GAUDI_FLASH_REC_MAGIC,
		.version = GAUDI_FLASH_REC_VERSION,
		.seq = seq, .active = active, .image_size = len,
		.image_crc = gaudi_crc32(0, img, len),
	};
	uint32_t off = which ? GAUDI_FLASH_REC1 : GAUDI_FLASH_REC0;

	r.crc = gaudi_flash_rec_crc(&r);
	memset(fb->flash + off, 0xFF, GAUDI_FLASH_ERASE_SIZE);
	memcpy(fb->flash + off, &r, sizeof(r));
}

static void test_empty_and_legacy(void)
{
	struct fakebus fb;
	struct gaudi_flash_info fi;

	ready_card(&fb);
	info(&fb, &fi);
	ok_eq(fi.version, GAUDI_FLASH_INFO_VERSION, "info: version 1");
	ok_eq(fi.flash_size, 64 << 20, "info: 64 MiB flash");
	ok_eq(fi.erase_size, 0x10000, "info: 64 KiB sectors");
	ok(fi.nr_slots == 2 && fi.slot_offset[1] == GAUDI_FLASH_SLOT1 &&
	   fi.slot_size == GAUDI_FLASH_SLOT_SIZE, "info: two slots");
	ok(fi.boot_slot == GAUDI_FLASH_NO_SLOT &&
	   fi.next_slot == GAUDI_FLASH_NO_SLOT && fi.record_seq == 0,
	   "empty flash: no boot slot, no record");
	ok(strstr(fi.boot_version, "(no flash image)") != NULL,
	   "empty flash: built-in preboot version");
	ok_eq(fi.slot_state[0], GAUDI_FIT_EMAGIC, "empty slot: bad magic");

	/* A factory image at offset 0 without records boots slot 0. */
	memcpy(fb.flash, boot_img, boot_len);
	restart(&fb);
	info(&fb, &fi);
	ok(fi.boot_slot == 0 && fi.slot_state[0] == 0 &&
	   fi.slot_image_size[0] == boot_len, "legacy image: slot 0 boots");
	ok(strstr(fi.boot_version, "Preboot version hl-gaudi-open-fw-") &&
	   !strcmp(fi.boot_version, fi.slot_version[0]),
	   "legacy image: its preboot version runs: %s", fi.boot_version);

	/* Only slot 1 valid, no record: slot 1. */
	memset(fb.flash, 0xFF, GAUDI_FLASH_ERASE_SIZE);
	memcpy(fb.flash + GAUDI_FLASH_SLOT1, boot_img, boot_len);
	restart(&fb);
	info(&fb, &fi);
	ok_eq(fi.boot_slot, 1, "no record, slot 0 empty: slot 1 boots");
	fakebus_free(&fb);
}

static void test_update(void)
{
	struct fakebus fb;
	struct gaudi_flash_info fi;
	uint64_t res;
	int r;

	ready_card(&fb);
	memcpy(fb.flash, boot_img, boot_len);
	restart(&fb);
	r = flash_steps(&fb, 1, boot_img, boot_len, 512, 1000);
	ok_eq(r, 0, "flash slot 1: erase, program, read back, activate");
	info(&fb, &fi);
	ok(fi.boot_slot == 0 && fi.next_slot == 1 && fi.record_seq == 1 &&
	   fi.record_active == 1, "before reset: runs slot 0, next is 1 (seq 1)");
	restart(&fb);
	info(&fb, &fi);
	ok_eq(fi.boot_slot, 1, "after reset: slot 1 boots");
	ok_eq(fb.flash[GAUDI_FLASH_REC0], 0x47, "first record in sector 0");

	r = flash_steps(&fb, 0, boot_img, boot_len, 4096, 1000);
	info(&fb, &fi);
	ok(r == 0 && fi.record_seq == 2 && fi.next_slot == 0,
	   "second update: slot 0, record 2");
	ok_eq(fb.flash[GAUDI_FLASH_REC1], 0x47, "second record in sector 1");
	r = flash_steps(&fb, 1, boot_img, boot_len, 4096, 1000);
	info(&fb, &fi);
	ok(r == 0 && fi.record_seq == 3 && fi.next_slot == 1,
	   "third update replaces the older record (sector 0)");

	/* Activation checks the slot. */
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ERASE, 0, 0, 0x10000, &res), RC_OK,
	      "erase slot 0");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ACTIVATE, boot_len, 0, 0, &res) ||
	      (res & 0xFF) != GAUDI_FLASH_ST_BAD_IMAGE ||
	      ((res >> 8) & 0xFF) != GAUDI_FIT_EMAGIC, 0,
	      "activate an erased slot: BAD_IMAGE (bad magic)");
	flash_steps(&fb, 0, boot_img, boot_len, 4096, 3);
	fl(&fb, GAUDI_CPUCP_FLASH_ACTIVATE,
	   (uint64_t)(gaudi_crc32(0, boot_img, boot_len) ^ 1) << 32 | boot_len,
	   0, 0, &res);
	ok_eq(res & 0xFF, GAUDI_FLASH_ST_CRC, "activate with a wrong CRC: CRC");
	info(&fb, &fi);
	ok(fi.record_seq == 3 && fi.next_slot == 1,
	   "refused activations write no record");
	fakebus_free(&fb);
}

static void test_bad_requests(void)
{
	struct fakebus fb;
	uint64_t res;

	ready_card(&fb);
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ERASE, 0, 0x100, 0x10000, NULL),
	      RC_PARAMS, "erase: unaligned offset refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ERASE, 0, 0, 0x1000, NULL), RC_PARAMS,
	      "erase: partial sector refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ERASE, 0, GAUDI_FLASH_REC0, 0x10000,
		 NULL), RC_PARAMS, "erase: record sector refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ERASE, 0, GAUDI_FLASH_SLOT1 - 0x10000,
		 0x20000, NULL), RC_PARAMS, "erase: across two slots refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_PROGRAM, cpu_addr(H_BUF),
		 GAUDI_FLASH_REC1, 64, NULL), RC_PARAMS,
	      "program: record sector refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_PROGRAM, cpu_addr(H_BUF), 0,
		 GAUDI_FLASH_XFER_MAX + 1, NULL), RC_PARAMS,
	      "program: more than 1 MiB refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_PROGRAM, cpu_addr(H_BUF), 0, 0, NULL),
	      RC_PARAMS, "program: zero length refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_READ, cpu_addr(H_BUF),
		 (64 << 20) - 16, 32, NULL), RC_PARAMS,
	      "read: beyond the window refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_READ, 0x1000, 0, 16, NULL), RC_FAULT,
	      "read: buffer outside host memory is a fault");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_INFO, cpu_addr(H_BUF), 0, 0, NULL),
	      RC_PARAMS, "info: zero-size buffer refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ACTIVATE, 16, 2, 0, NULL), RC_PARAMS,
	      "activate: slot 2 refused");
	ok_eq(fl(&fb, GAUDI_CPUCP_FLASH_ACTIVATE, 16, 0, 1, NULL), RC_PARAMS,
	      "activate: flags refused");

	/* NOR: program only clears bits. */
	fl(&fb, GAUDI_CPUCP_FLASH_ERASE, 0, 0, 0x10000, NULL);
	memset(fb.host + H_BUF, 0x0F, 16);
	fl(&fb, GAUDI_CPUCP_FLASH_PROGRAM, cpu_addr(H_BUF), 0, 16, &res);
	ok(res == ((uint64_t)16 << 32) && fb.flash[0] == 0x0F,
	   "program an erased sector: ok");
	memset(fb.host + H_BUF, 0xF0, 16);
	fl(&fb, GAUDI_CPUCP_FLASH_PROGRAM, cpu_addr(H_BUF), 0, 16, &res);
	ok((res & 0xFF) == GAUDI_FLASH_ST_NOT_ERASED && fb.flash[0] == 0,
	   "program over programmed bits: NOT_ERASED, bits ANDed");
	fakebus_free(&fb);
}

/* Stop gaudi-fw's sequence after every step: the old image still boots. */
static void test_interrupted(void)
{
	struct fakebus fb;
	struct gaudi_flash_info fi;
	int steps, r, bad = 0, total = 0;

	ready_card(&fb);
	for (steps = 0; ; steps++) {
		/* Slot 0 is the good old image, recorded. */
		memset(fb.flash, 0xFF, GAUDI_FLASH_SLOT1);
		memset(fb.flash + GAUDI_FLASH_SLOT1, 0x5A, 0x20000);
		memcpy(fb.flash, boot_img, boot_len);
		put_rec(&fb, 0, 7, 0, boot_img, boot_len);
		memset(fb.flash + GAUDI_FLASH_REC1, 0xFF, 0x10000);
		restart(&fb);
		r = flash_steps(&fb, 1, boot_img, boot_len, 256, steps);
		if (r == 0)
			break;
		total++;
		restart(&fb);
		info(&fb, &fi);
		if (fi.boot_slot != 0 || fi.record_seq != 7)
			bad++;
	}
	ok(total > 8 && bad == 0,
	   "interrupted after each of %d steps: slot 0 still boots", total);
	restart(&fb);
	info(&fb, &fi);
	ok(fi.boot_slot == 1 && fi.record_seq == 8,
	   "the complete sequence switches to slot 1 (record 8)");
	fakebus_free(&fb);
}

static void test_records(void)
{
	struct fakebus fb;
	struct gaudi_flash_info fi;
	struct gaudi_flash_rec rec;

	ready_card(&fb);
	memset(fb.flash, 0xFF, 64 << 20);
	memcpy(fb.flash, boot_img, boot_len);
	memcpy(fb.flash + GAUDI_FLASH_SLOT1, boot_img, boot_len);
	put_rec(&fb, 0, 4, 0, boot_img, boot_len);
	put_rec(&fb, 1, 5, 1, boot_img, boot_len);
	ok_eq(gaudi_flash_select(fb.flash, NULL, 0), 1,
	      "two valid records: the higher sequence wins");

	/* A torn write of the newer record: every prefix length. */
	{
		int cut, bad = 0;

		for (cut = 0; cut < GAUDI_FLASH_REC_SIZE; cut++) {
			put_rec(&fb, 1, 5, 1, boot_img, boot_len);
			memcpy(&rec, fb.flash + GAUDI_FLASH_REC1, sizeof(rec));
			memset(fb.flash + GAUDI_FLASH_REC1, 0xFF, 0x10000);
			memcpy(fb.flash + GAUDI_FLASH_REC1, &rec, cut);
			if (gaudi_flash_select(fb.flash, NULL, 0) != 0)
				bad++;
		}
		ok(bad == 0, "a record torn after any of 64 bytes is ignored");
	}
	put_rec(&fb, 1, 5, 1, boot_img, boot_len);
	fb.flash[GAUDI_FLASH_REC1 + 12] ^= 1;
	ok_eq(gaudi_flash_select(fb.flash, NULL, 0), 0,
	      "a record with a flipped bit fails its CRC");

	put_rec(&fb, 0, 0xFFFFFFFF, 0, boot_img, boot_len);
	put_rec(&fb, 1, 0, 1, boot_img, boot_len);
	ok_eq(gaudi_flash_select(fb.flash, NULL, 0), 1,
	      "sequence numbers wrap: 0 is newer than 0xffffffff");

	/* The recorded slot is damaged: fall back to the other one. */
	put_rec(&fb, 0, 4, 0, boot_img, boot_len);
	put_rec(&fb, 1, 5, 1, boot_img, boot_len);
	fb.flash[GAUDI_FLASH_SLOT1 + boot_len - 8] ^= 0x40;
	ok_eq(gaudi_flash_select(fb.flash, NULL, 0), 0,
	      "recorded slot corrupt: the other valid slot boots");
	fb.flash[GAUDI_FLASH_SLOT1 + boot_len - 8] ^= 0x40;
	put_rec(&fb, 1, 5, 1, boot_img, boot_len - 4);
	ok_eq(gaudi_flash_select(fb.flash, NULL, 0), 0,
	      "recorded size shorter than the image: fallback");
	{
		uint8_t *other = malloc(boot_len);

		memcpy(other, boot_img, boot_len);
		other[boot_len - 1] ^= 1;
		put_rec(&fb, 1, 5, 1, other, boot_len);
		free(other);
	}
	ok_eq(gaudi_flash_select(fb.flash, NULL, 0), 0,
	      "recorded CRC differs from the slot: fallback");
	memset(fb.flash, 0xFF, 0x10000);
	memset(fb.flash + GAUDI_FLASH_SLOT1, 0xFF, 0x10000);
	ok_eq(gaudi_flash_select(fb.flash, NULL, 0), GAUDI_FLASH_NO_SLOT,
	      "no valid slot: built-in preboot");
	restart(&fb);
	info(&fb, &fi);
	ok(fi.boot_slot == GAUDI_FLASH_NO_SLOT && fi.record_seq == 5,
	   "info reports no boot slot and the newest record");
	fakebus_free(&fb);
}

int main(void)
{
	boot_img = load_file("gaudi-boot-fit.itb", &boot_len);
	test_empty_and_legacy();
	test_update();
	test_bad_requests();
	test_interrupted();
	test_records();
	free(boot_img);
	return tap_done();
}
