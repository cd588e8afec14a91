// SPDX-License-Identifier: GPL-2.0-or-later
/* Register file, dispatch, ELBI and address decode. */
#include <string.h>

#include "fakebus.h"
#include "tap.h"

static void test_storage(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);

	gaudi_cfg_write(g, 0x123450, 0xdeadbeef);
	ok_eq(gaudi_cfg_read(g, 0x123450), 0xdeadbeef, "plain register stores");
	gaudi_cfg_write(g, 0x123451, 1);
	ok_eq(fb.guest_errors, 1, "unaligned write is a guest error");
	gaudi_cfg_write(g, GAUDI_CFG_SIZE, 1);
	ok_eq(fb.guest_errors, 2, "write past CFG is a guest error");
	ok_eq(gaudi_cfg_read(g, GAUDI_CFG_SIZE + 4), 0, "read past CFG is 0");
	gaudi_core_reset(g);
	ok_eq(gaudi_cfg_read(g, 0x123450), 0, "reset clears plain registers");
	fakebus_free(&fb);
}

static void test_elbi(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);

	gaudi_elbi_write(g, GAUDI_ELBI_ADDR, 0xFC000000 + 0x2000);
	gaudi_elbi_write(g, GAUDI_ELBI_DATA, 0x5a5a);
	gaudi_elbi_write(g, GAUDI_ELBI_CTRL, GAUDI_ELBI_CTRL_WRITE);
	ok_eq(gaudi_elbi_read(g, GAUDI_ELBI_STS), GAUDI_ELBI_STS_DONE,
	      "ELBI write completes at once");
	ok_eq(gaudi_cfg_read(g, 0x2000), 0x5a5a, "ELBI write reaches CFG");
	gaudi_elbi_write(g, GAUDI_ELBI_STS, 0);
	ok_eq(gaudi_elbi_read(g, GAUDI_ELBI_STS), 0, "ELBI STS clears on write");
	gaudi_cfg_write(g, 0x2004, 77);
	gaudi_elbi_write(g, GAUDI_ELBI_ADDR, 0xFC000000 + 0x2004);
	gaudi_elbi_write(g, GAUDI_ELBI_CTRL, 0);
	ok_eq(gaudi_elbi_read(g, GAUDI_ELBI_DATA), 77, "ELBI read returns CFG");
	gaudi_elbi_write(g, GAUDI_ELBI_ADDR, 0x1000);
	gaudi_elbi_write(g, GAUDI_ELBI_CTRL, 0);
	ok_eq(gaudi_elbi_read(g, GAUDI_ELBI_STS),
	      GAUDI_ELBI_STS_DONE | GAUDI_ELBI_STS_ERR,
	      "ELBI outside CFG reports ERR");
	/* SW_ALL_RST keeps PCIe, and with it the window, up. */
	gaudi_core_reset(g);
	ok_eq(gaudi_elbi_read(g, GAUDI_ELBI_STS),
	      GAUDI_ELBI_STS_DONE | GAUDI_ELBI_STS_ERR,
	      "ELBI status survives a core (SW_ALL_RST) reset");
	gaudi_elbi_reset(g);
	ok_eq(gaudi_elbi_read(g, GAUDI_ELBI_STS), 0,
	      "a PCI reset clears the ELBI window");
	fakebus_free(&fb);
}

static void test_decode(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	uint32_t v = 0x11223344, r = 0;

	ok(gaudi_dev_write(g, 0x20000000, &v, 4) == 0, "HBM write");
	ok(memcmp(fb.hbm + 0x20000000, &v, 4) == 0, "HBM holds the bytes");
	ok(gaudi_dev_write(g, GAUDI_SRAM_BASE + 0x100, &v, 4) == 0, "SRAM write");
	ok(memcmp(fb.sram + 0x100, &v, 4) == 0, "SRAM holds the bytes");
	ok(gaudi_dev_write(g, fake_host_dev(0x1000), &v, 4) == 0, "host write");
	ok(memcmp(fb.host + 0x1000, &v, 4) == 0, "host holds the bytes");
	ok(gaudi_dev_write(g, GAUDI_CFG_BASE + 0x3000, &v, 4) == 0, "reg write");
	ok_eq(gaudi_cfg_read(g, 0x3000), v, "register holds the value");
	ok(gaudi_dev_read(g, fake_host_dev(0x1000), &r, 4) == 0 && r == v,
	   "host read back");
	ok(gaudi_dev_write(g, FAKE_HBM_SIZE - 2, &v, 4) != 0,
	   "write straddling the end of HBM fails");
	ok(gaudi_dev_write(g, GAUDI_SRAM_BASE + GAUDI_SRAM_SIZE, &v, 4) != 0,
	   "write past SRAM fails");
	ok(gaudi_dev_read(g, fake_host_dev(FAKE_HOST_SIZE), &r, 4) != 0,
	   "host access the host rejects fails");
	ok(gaudi_dev_read(g, 0x7F00000000ULL, &r, 4) != 0,
	   "hole in the map fails");
	fakebus_free(&fb);
}

int main(void)
{
	test_storage();
	test_elbi();
	test_decode();
	return tap_done();
}
