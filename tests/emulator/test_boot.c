// SPDX-License-Identifier: GPL-2.0-or-later
/* Boot state machine, hard reset and boot-failure injection. */
#define _GNU_SOURCE
#include <string.h>

#include "fwboot.h"
#include "tap.h"

static const char *sram_str(struct fakebus *fb, uint32_t off)
{
	return (const char *)fb->sram + (off & 0x0FFFFFFF);
}

static void test_reset_values(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint32_t pre;

	ok_eq(rd(g, mmCPU_BOOT_STATUS), 16, "reset: WAITING_FOR_BOOT_FIT");
	ok_eq(rd(g, mmCPU_BOOT_DEV_STS0), 0x80020360, "reset: DEV_STS0");
	ok_eq(rd(g, mmCPU_BOOT_DEV_STS1), 0x80000000, "reset: DEV_STS1");
	ok_eq(rd(g, mmCPU_BOOT_ERR0), 0, "reset: no boot error");
	ok_eq(rd(g, mmHW_STATE), 0, "reset: HW_STATE clean");
	pre = rd(g, mmPREBOOT_VER_OFFSET);
	ok((pre & 0x0FFFFFFF) < 0x13FFF80, "preboot version offset in SRAM");
	ok(strstr(sram_str(&fb, pre), "Preboot version") != NULL,
	   "preboot version string placed in SRAM");
	ok(strstr(sram_str(&fb, pre), "fw-") != NULL,
	   "preboot string has the fw- tag upstream extracts");
	wr(g, mmPSOC_GLOBAL_CONF_BTM_FSM, 0xF);
	ok_eq(rd(g, mmPSOC_GLOBAL_CONF_BTM_FSM) & 0xF, 0, "BTM_FSM idle");
	fakebus_free(&fb);
}

static void test_static_boot(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	size_t blen, flen;
	uint8_t *b = load_file("gaudi-boot-fit.itb", &blen);
	uint8_t *f = load_file("gaudi-fit.itb", &flen);
	uint32_t ubo;

	ok(blen % 4 == 0 && flen % 4 == 0, "image sizes are multiples of 4");
	memcpy(fb.sram + 0x200000, b, blen);
	wr(g, mmCPU_CMD_STATUS_TO_HOST, 0);
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_FIT_RDY);
	ok_eq(rd(g, mmCPU_CMD_STATUS_TO_HOST), CPU_MSG_OK,
	      "boot-fit acknowledged with CPU_MSG_OK");
	wr(g, mmKMD_MSG_TO_CPU, 0);
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 15, "boot-fit: READY_TO_BOOT");
	ubo = rd(g, mmUBOOT_VER_OFFSET);
	ok((ubo & 0x0FFFFFFF) < 0x13FFF80, "u-boot version offset in SRAM");
	ok(strstr(sram_str(&fb, ubo), "hl-gaudi-open-fw-0.1.0") != NULL,
	   "u-boot version from the boot-fit image: %s", sram_str(&fb, ubo));
	wr(g, mmCPU_IF_QUEUE_INIT, 3);
	ok_eq(rd(g, mmCPU_IF_QUEUE_INIT), 3,
	      "no CPU-CP before the main fit runs");
	memcpy(fb.hbm + 0x800000, f, flen);
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_FIT_RDY);
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 3, "fit: SRAM_AVAIL");
	wr(g, mmKMD_MSG_TO_CPU, 0);
	ok_eq(rd(g, mmCPU_BOOT_ERR0), 0, "no boot error after a good boot");
	ok(!strcmp(gaudi_boot_fw(g)->card_name, "HL205"),
	   "firmware data loaded from the fit");
	ok_eq(fb.guest_errors, 0, "no guest error in the good path");
	fb.guest_errors = 0;
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_FIT_RDY);
	ok_eq(fb.guest_errors, 1, "FIT_RDY while running is a guest error");
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 3, "... and changes nothing");
	free(b);
	free(f);
	fakebus_free(&fb);
}

static void test_corrupt_boot(void)
{
	static const struct {
		const char *what;
		bool main;
		size_t at;		/* byte to flip; ~0: zero the magic */
	} cases[] = {
		{ "boot-fit bad magic", false, 0 },
		{ "boot-fit payload", false, ~(size_t)0 },
		{ "fit bad magic", true, 0 },
		{ "fit payload", true, ~(size_t)0 },
	};
	size_t i, blen, flen;
	uint8_t *b = load_file("gaudi-boot-fit.itb", &blen);
	uint8_t *f = load_file("gaudi-fit.itb", &flen);

	for (i = 0; i < GAUDI_ARRAY_SIZE(cases); i++) {
		struct fakebus fb;
		struct gaudi_core *g = fakebus_new(&fb);
		uint8_t *img = cases[i].main ? f : b;
		size_t len = cases[i].main ? flen : blen;
		uint8_t *copy = malloc(len);
		uint32_t st;

		memcpy(copy, img, len);
		/* Flip a bit of the payload text inside the image. */
		if (cases[i].at == 0) {
			copy[0] ^= 0xFF;
		} else {
			uint8_t *p = memmem(copy, len,
					    "gaudi-open device-CPU", 21);

			p[0] ^= 0x20;
		}
		st = cases[i].main ? boot_with(&fb, b, blen, copy, len) :
				     boot_with(&fb, copy, len, f, flen);
		ok_eq(st, CPU_BOOT_STATUS_FIT_CORRUPTED, "%s: FIT_CORRUPTED",
		      cases[i].what);
		ok_eq(rd(g, mmCPU_BOOT_ERR0), 0x80000002,
		      "%s: BOOT_ERR0 = ENABLED | FIT_CORRUPTED", cases[i].what);
		ok(fb.guest_errors >= 1 && strstr(fb.last_error, "refused"),
		   "%s: reported (%s)", cases[i].what, fb.last_error);
		free(copy);
		fakebus_free(&fb);
	}
	free(b);
	free(f);
}

static void test_preboot_from_flash(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	size_t blen;
	uint8_t *b = load_file("gaudi-boot-fit.itb", &blen);

	memcpy(fb.flash, b, blen);
	gaudi_core_reset(g);
	ok(strstr(sram_str(&fb, rd(g, mmPREBOOT_VER_OFFSET)),
		  "gaudi-open-btl 0.1.0 Preboot version") != NULL,
	   "preboot version read from the image in flash");
	free(b);
	fakebus_free(&fb);
}

static void test_hard_reset(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);

	wr(g, mmHW_STATE, 1);
	wr(g, 0x123450, 0xabcd);
	ok_eq(send_pkt(&fb, 18, 0x1234, 0, NULL), 0, "CPU-CP up before reset");
	/* Upstream's hard reset when FW_HARD_RST_EN is clear. */
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_GOTO_WFE);
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 1, "GOTO_WFE: IN_WFE");
	ok_eq(send_pkt(&fb, 18, 1, 0, NULL), -1, "halted CPU does not answer");
	wr(g, mmKMD_MSG_TO_CPU, 0);
	wr(g, mmPSOC_GLOBAL_CONF_COLD_RST_FLOPS_1, 0xED7BD694);
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 16, "SW_ALL_RST: status 16");
	ok_eq(rd(g, mmHW_STATE), 0, "SW_ALL_RST: HW_STATE 0");
	ok_eq(rd(g, mmCPU_IF_QUEUE_INIT), 0, "SW_ALL_RST: QUEUE_INIT 0");
	ok_eq(rd(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST), 0,
	      "SW_ALL_RST self-clears");
	ok_eq(rd(g, mmCPU_BOOT_DEV_STS0), 0x80020360, "DEV_STS0 after reset");
	ok_eq(rd(g, 0x123450), 0, "plain registers cleared");
	ok_eq(rd(g, mmPSOC_GLOBAL_CONF_BTM_FSM) & 0xF, 0, "BTM_FSM idle");
	ok_eq(send_pkt(&fb, 18, 1, 0, NULL), -1, "no CPU-CP until reboot");
	ok_eq(boot_card(&fb), 3, "boots again after the reset");
	test_pi = 0;
	ok_eq(queues_init(&fb), 2, "queue init again");
	ok_eq(send_pkt(&fb, 18, 7, 0, NULL), 0, "CPU-CP again");
	wr(g, mmKMD_MSG_TO_CPU, KMD_MSG_RST_DEV);
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 16, "RST_DEV resets the card");
	fakebus_free(&fb);
}

static void test_injection(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint32_t ctl = GAUDI_MODEL_CTL_BASE;

	ok_eq(rd(g, ctl + GAUDI_CTL_MAGIC), 0, "control window off by default");
	g->id.test_hooks = true;
	ok_eq(rd(g, ctl + GAUDI_CTL_MAGIC), 0x434D4447, "control magic");
	ok_eq(rd(g, ctl + GAUDI_CTL_VERSION), 1, "control version");

	wr(g, ctl + GAUDI_CTL_BOOT_FAIL, GAUDI_BOOT_FAIL_BOOT_FIT);
	ok_eq(boot_card(&fb), 9, "injected boot-fit failure");
	ok_eq(rd(g, ctl + GAUDI_CTL_FIT_REASON), GAUDI_FIT_EHASH,
	      "reason readable in the control window");
	ok_eq(rd(g, ctl + GAUDI_CTL_BOOT_FAIL), 0, "injection is one-shot");
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	ok_eq(boot_card(&fb), 3, "next boot is good again");

	wr(g, ctl + GAUDI_CTL_BOOT_FAIL, GAUDI_BOOT_FAIL_FIT);
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	ok_eq(boot_card(&fb), 9, "injected fit failure");

	wr(g, ctl + GAUDI_CTL_BOOT_FAIL, GAUDI_BOOT_FAIL_NO_ACK);
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	ok_eq(boot_card(&fb), 16, "no ack: stays WAITING_FOR_BOOT_FIT");
	ok_eq(rd(g, mmCPU_CMD_STATUS_TO_HOST), 0, "no ack: CMD_STATUS 0");

	wr(g, ctl + GAUDI_CTL_BOOT_FAIL, GAUDI_BOOT_FAIL_NO_SRAM_AVAIL);
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	ok_eq(boot_card(&fb), 15, "fit never starts: READY_TO_BOOT");

	wr(g, ctl + GAUDI_CTL_BOOT_FAIL, GAUDI_BOOT_FAIL_PREBOOT);
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 0, "preboot never ready: status 0");
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	ok_eq(rd(g, mmCPU_BOOT_STATUS), 16, "... until the next reset");

	fb.guest_errors = 0;
	wr(g, ctl + GAUDI_CTL_BOOT_FAIL, 99);
	ok_eq(fb.guest_errors, 1, "unknown failure mode refused");
	wr(g, ctl + GAUDI_CTL_MAGIC, 5);
	ok_eq(fb.guest_errors, 2, "read-only control register");
	fakebus_free(&fb);
}

int main(void)
{
	test_reset_values();
	test_static_boot();
	test_corrupt_boot();
	test_preboot_from_flash();
	test_hard_reset();
	test_injection();
	return tap_done();
}
