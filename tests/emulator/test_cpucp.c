// SPDX-License-Identifier: GPL-2.0-or-later
/* Device-CPU queue init and the CPU-CP responder. */
#include <string.h>

#include "fwboot.h"
#include "tap.h"

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void test_queue_init(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);

	ok_eq(queues_init(&fb), 3, "no answer before the firmware runs");
	ok_eq(boot_card(&fb), 3, "boot");
	ok_eq(queues_init_with(&fb, cpu_addr(H_PQ), 3000, cpu_addr(H_EQ),
			       EQ_LEN), 4, "PQ length 3000: not a power of 2");
	ok_eq(queues_init_with(&fb, cpu_addr(H_PQ), PQ_LEN, cpu_addr(H_EQ),
			       100), 4, "EQ length 100: not a power of 2");
	ok_eq(queues_init_with(&fb, cpu_addr(H_PQ), 0, cpu_addr(H_EQ),
			       EQ_LEN), 4, "PQ length 0");
	ok_eq(queues_init_with(&fb, 0x1000, PQ_LEN, cpu_addr(H_EQ), EQ_LEN),
	      5, "PQ in device memory: illegal address");
	ok_eq(queues_init_with(&fb, cpu_addr(H_PQ) + 4, PQ_LEN,
			       cpu_addr(H_EQ), EQ_LEN), 5, "misaligned PQ");
	ok_eq(queues_init_with(&fb, cpu_addr(H_PQ), PQ_LEN,
			       GAUDI_SRAM_BASE, EQ_LEN), 5, "EQ in SRAM");
	ok_eq(send_pkt(&fb, 18, 1, 0, NULL), -1, "no CPU-CP after a bad init");
	ok_eq(queues_init(&fb), 2, "good setup: READY_FOR_HOST");
	ok_eq(send_pkt(&fb, 18, 0xFE8CE7A5, 0, NULL), 0, "TEST after init");
	wr(g, mmCPU_IF_QUEUE_INIT, 0);
	ok_eq(rd(g, mmCPU_IF_QUEUE_INIT), 0, "other values just stored");
	fakebus_free(&fb);
}

/* Opcodes as upstream's late init sends them, then the info layout. */
static void test_probe_sequence(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint8_t *info = fb.host + H_DATA;
	uint64_t res = 0;

	ok_eq(send_pkt(&fb, 18, 0xFE8CE7A5, 0, &res), 0, "TEST: rc 0");
	ok_eq(res, 0xFE8CE7A5, "TEST echoes the value");
	memset(info, 0xEE, 2048);
	ok_eq(send_pkt(&fb, 14, cpu_addr(H_DATA), 1768, &res), 0, "INFO_GET");
	ok_eq(res, 1768, "INFO_GET result = bytes copied");
	ok_eq(get32(info + 0), 1, "sensor 0 is a temperature");
	ok(get32(info + 4) & 0x2, "sensor 0 has an input");
	ok_eq(get32(info + 8 * 5), 0, "sensor table ends with zeros");
	ok(!strncmp((char *)info + 1024, "gaudi-open-os-fw-0.1.0", 22),
	   "kernel_version at 1024");
	ok_eq(get32(info + 1156), 1, "card_type at 1156: PMC");
	ok_eq(get32(info + 1164), 0x10000, "cpld_version at 1164");
	ok(!strncmp((char *)info + 1428, "hl-gaudi-open-fw-0.1.0", 22),
	   "cpucp_version at 1428");
	ok(!strcmp((char *)info + 1568, "HL205"), "card_name at 1568");
	ok_eq(info[1607], 0, "eq_health_check_supported 0");
	ok_eq(info[1616], 0xFF, "pll_map PLLs 0..7");
	ok_eq(info[1617], 0x03, "pll_map PLLs 8..9");
	ok_eq(info[1768], 0xEE, "nothing written past the structure");
	ok_eq(send_pkt(&fb, 2, 0, 0, NULL), 0, "ENABLE_PCI_ACCESS");
	ok_eq(send_pkt(&fb, 9, 1500000000ULL, 8, NULL), 0, "FREQUENCY_SET");
	ok_eq(send_pkt(&fb, 10, 0, 8, &res), 0, "FREQUENCY_GET");
	ok_eq(res, 1500000000ULL, "... returns what was set");
	ok_eq(send_pkt(&fb, 19, 0, 7, &res), 0, "FREQUENCY_CURR_GET");
	ok_eq(res, 1800000000ULL, "... PLL 7 defaults to its first output");
	ok_eq(send_pkt(&fb, 21, 350000, 0, NULL), 0, "MAX_POWER_SET");
	ok_eq(send_pkt(&fb, 20, 0, 0, &res), 0, "MAX_POWER_GET");
	ok_eq(res, 350000, "... returns what was set");
	ok_eq(send_pkt(&fb, 3, 0, 0 | 1 << 16, &res), 0, "TEMPERATURE_GET");
	ok(res > 20000 && res < 60000, "idle die temperature %llu mC",
	   (unsigned long long)res);
	ok_eq(fb.guest_errors, 0, "probe sequence raises no guest error");
	ok_eq(g->cpu.packets, 9, "every packet answered");
	fakebus_free(&fb);
}

static void test_all_opcodes(void)
{
	static const struct {
		uint32_t op;
		uint64_t value;
		uint32_t index;
		int rc;
		const char *name;
	} ops[] = {
		{ 1, 0, 0, 0, "DISABLE_PCI_ACCESS" },
		{ 2, 0, 0, 0, "ENABLE_PCI_ACCESS" },
		{ 3, 0, 1 | 1 << 16, 0, "TEMPERATURE_GET ch1 input" },
		{ 3, 0, 0 | 9 << 16, 0, "TEMPERATURE_GET crit" },
		{ 3, 0, 2 | 1 << 16, 4, "TEMPERATURE_GET no channel 2" },
		{ 3, 0, 0 | 2 << 16, 4, "TEMPERATURE_GET unknown attr" },
		{ 4, 0, 0 | 1 << 16, 0, "VOLTAGE_GET" },
		{ 5, 0, 0 | 1 << 16, 0, "CURRENT_GET" },
		{ 6, 0, 0 | 1 << 16, 4, "FAN_SPEED_GET (no fan)" },
		{ 7, 0, 0, 4, "PWM_GET (no pwm)" },
		{ 8, 100, 0, 4, "PWM_SET (no pwm)" },
		{ 9, 1000, 3, 0, "FREQUENCY_SET" },
		{ 9, 1000, 24, 4, "FREQUENCY_SET bad PLL" },
		{ 10, 0, 3, 0, "FREQUENCY_GET" },
		{ 11, 1, 2, 0, "LED_SET" },
		{ 11, 1, 3, 4, "LED_SET bad LED" },
		{ 12, 0, 0, 1, "I2C_WR unsupported" },
		{ 13, 0, 0, 1, "I2C_RD unsupported" },
		{ 16, 300, 0, 0, "UNMASK_RAZWI_IRQ" },
		{ 16, 5000, 0, 4, "UNMASK_RAZWI_IRQ bad event" },
		{ 18, 42, 0, 0, "TEST" },
		{ 19, 0, 3, 0, "FREQUENCY_CURR_GET" },
		{ 20, 0, 0, 0, "MAX_POWER_GET" },
		{ 21, 300000, 0, 0, "MAX_POWER_SET" },
		{ 21, 0, 0, 4, "MAX_POWER_SET 0" },
		{ 24, 1000, 0 | 20 << 16, 0, "TEMPERATURE_SET offset" },
		{ 24, 0, 0 | 24 << 16, 0, "TEMPERATURE_SET reset history" },
		{ 24, 0, 0 | 1 << 16, 4, "TEMPERATURE_SET input refused" },
		{ 25, 0, 0 | 9 << 16, 0, "VOLTAGE_SET reset history" },
		{ 26, 0, 0 | 9 << 16, 0, "CURRENT_SET reset history" },
		{ 27, 0, 0, 0, "PCIE_THROUGHPUT_GET tx" },
		{ 27, 0, 1, 0, "PCIE_THROUGHPUT_GET rx" },
		{ 27, 0, 2, 4, "PCIE_THROUGHPUT_GET bad direction" },
		{ 28, 0, 0, 0, "PCIE_REPLAY_CNT_GET" },
		{ 29, 0, 0, 0, "TOTAL_ENERGY_GET" },
		{ 30, 0, 0, 0, "PLL_INFO_GET" },
		{ 30, 0, 20, 4, "PLL_INFO_GET unknown PLL" },
		{ 31, 0, 0, 1, "NIC_STATUS unsupported" },
		{ 32, 0, 8 << 16, 0, "POWER_GET (ioctl form)" },
		{ 32, 0, 9 << 16, 0, "POWER_GET (hwmon form)" },
		{ 42, 0, 0, 0, "IS_IDLE_CHECK" },
		{ 44, 0, 0, 0, "HBM_PENDING_ROWS_STATUS" },
		{ 45, 0, 12 << 16, 0, "POWER_SET reset history" },
		{ 58, 1, 0, 0, "ACTIVE_STATUS_SET" },
		{ 99, 0, 0, 1, "unknown opcode 99" },
		{ 0x1FFF, 0, 0, 1, "unknown opcode 0x1FFF" },
		{ 0, 0, 0, 1, "opcode 0" },
	};
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint64_t res;
	size_t i;

	(void)g;
	for (i = 0; i < GAUDI_ARRAY_SIZE(ops); i++)
		ok_eq(send_pkt(&fb, ops[i].op, ops[i].value, ops[i].index,
			       &res), ops[i].rc, "%s: rc %d", ops[i].name,
		      ops[i].rc);
	ok_eq(send_pkt(&fb, 30, 0, 0, &res), 0, "PLL_INFO_GET CPU PLL");
	ok_eq(res, 1800ULL | 900ULL << 16 | 100ULL << 32 | 50ULL << 48,
	      "PLL outputs packed as 4 x 16 bits");
	ok_eq(send_pkt(&fb, 18, 0x5a5a5a5a5aULL, 0, &res), 0, "TEST again");
	ok_eq(res, 0x5a5a5a5a5aULL, "TEST echoes 64 bits");
	fakebus_free(&fb);
}

static void test_copy_opcodes(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint8_t *d = fb.host + H_DATA;
	uint64_t res;

	memset(d, 0xEE, 4096);
	ok_eq(send_pkt(&fb, 22, cpu_addr(H_DATA), 4096, &res), 0,
	      "EEPROM_DATA_GET");
	ok(!strncmp((char *)d, "serial=GO205-00000000\nmodule-id=0\n"
		    "part-number=HL-205\n", 53),
	   "EEPROM: serial, module id, then the firmware fields");
	ok_eq(res, strlen((char *)d) + 1, "result is the EEPROM size");
	memset(d, 0xEE, 64);
	ok_eq(send_pkt(&fb, 22, cpu_addr(H_DATA), 8, &res), 0,
	      "EEPROM_DATA_GET, 8-byte buffer");
	ok_eq(res, 8, "bounded by data_max_size");
	ok_eq(d[8], 0xEE, "nothing past data_max_size");

	strcpy(g->id.serial, "SN-OVERRIDE");
	strcpy(g->id.card_name, "hl205x");
	g->id.module_id = 5;
	g->id.module_id_set = true;
	ok_eq(send_pkt(&fb, 22, cpu_addr(H_DATA), 4096, NULL), 0, "EEPROM");
	ok(!strncmp((char *)d, "serial=SN-OVERRIDE\nmodule-id=5\n", 31),
	   "identity overrides the serial and module id");
	ok_eq(send_pkt(&fb, 14, cpu_addr(H_DATA), 1768, NULL), 0, "INFO_GET");
	ok(!strcmp((char *)d + 1568, "hl205x"), "card name override");
	ok_eq(get32(d + 1160), 5, "card_location = module id");

	memset(d, 0xEE, 4096);
	ok_eq(send_pkt(&fb, 23, cpu_addr(H_DATA), 2232, &res), 0,
	      "NIC_INFO_GET");
	ok(!memcmp(d, "\x02\x47\x4f\x00\x00\x00", 6), "MAC 0");
	ok(!memcmp(d + 54, "\x02\x47\x4f\x00\x00\x09", 6), "MAC 9");
	ok_eq(get32(d + 768), 0x3FF, "link mask: ten ports");
	ok_eq(get32(d + 912), 0x380, "external ports 7..9");
	ok(d[928] == 0x11 && d[928 + 128] == 0x11 && d[928 + 192] == 0x0B &&
	   !memcmp(d + 928 + 148, "GAUDI-OPEN MODEL", 16),
	   "QSFP28 EEPROM: identifier, 100GBASE-CR4, vendor");
	ok_eq(d[2232], 0xEE, "nothing past the structure");
	memcpy(g->id.nic_mac[3], "\x02\x47\x12\x34\x00\x03", 6);
	g->id.nic_mac_set = 1U << 3;
	ok_eq(send_pkt(&fb, 23, cpu_addr(H_DATA), 2232, &res), 0,
	      "NIC_INFO_GET with a card MAC");
	ok(!memcmp(d + 18, "\x02\x47\x12\x34\x00\x03", 6) &&
	   !memcmp(d + 12, "\x02\x47\x4f\x00\x00\x02", 6),
	   "the card's own MAC for port 3, the image's for port 2");
	g->id.nic_mac_set = 0;

	memset(d, 0xEE, 512);
	ok_eq(send_pkt(&fb, 43, cpu_addr(H_DATA), 8, &res), 0,
	      "HBM_REPLACED_ROWS_INFO_GET (upstream asks 8 bytes)");
	ok_eq(d[0] | d[1] << 8, 0, "no replaced rows");
	ok_eq(d[8], 0xEE, "bounded by data_max_size");

	ok_eq(send_pkt(&fb, 14, cpu_addr(H_DATA), 0, NULL), 4,
	      "INFO_GET with data_max_size 0: invalid params");
	fb.guest_errors = 0;
	ok_eq(send_pkt(&fb, 14, 0x1000, 1768, NULL), 2,
	      "INFO_GET to device memory: fault");
	ok_eq(send_pkt(&fb, 14, cpu_addr(FAKE_HOST_SIZE - 100), 1768, NULL),
	      2, "INFO_GET past host memory: fault");
	ok_eq(fb.guest_errors, 2, "both reported");
	fakebus_free(&fb);
}

/* Packets with an array tail: UNMASK_RAZWI_IRQ_ARRAY, MSI_INFO_SET. */
static void test_array_packets(void)
{
	struct fakebus fb;
	unsigned int msis;
	uint8_t buf[64] = { 0 };
	uint32_t w;
	struct pkt r;

	ready_card(&fb);
	w = 17 << 16;
	memcpy(buf + 8, &w, 4);
	w = 3;
	memcpy(buf + 24, &w, 4);		/* length */
	w = 100;
	memcpy(buf + 28, &w, 4);
	memcpy(buf + 32, &w, 4);
	memcpy(buf + 36, &w, 4);
	ok_eq(send_raw(&fb, buf, 40, cpu_addr(H_PKT), &r), 0,
	      "UNMASK_RAZWI_IRQ_ARRAY of 3");
	ok_eq(send_raw(&fb, buf, 32, cpu_addr(H_PKT), &r), 4,
	      "array longer than the descriptor: invalid params");
	w = 9999;
	memcpy(buf + 32, &w, 4);
	ok_eq(send_raw(&fb, buf, 40, cpu_addr(H_PKT), &r), 4,
	      "event id out of range: invalid params");
	w = 37 << 16;
	memcpy(buf + 8, &w, 4);
	w = 7;
	memcpy(buf + 24, &w, 4);
	ok_eq(send_raw(&fb, buf, 56, cpu_addr(H_PKT), &r), 0, "MSI_INFO_SET");
	ok(fb.g->cpu.nic_msi == 0x2AA,
	   "MSI_INFO_SET: the odd ports' receive interrupts forwarded (0x%x)",
	   fb.g->cpu.nic_msi);
	msis = fb.msi_count;
	ok(gaudi_cpu_forward_nic_irq(fb.g, 3) && fb.msi_count == msis + 1 &&
	   !gaudi_cpu_forward_nic_irq(fb.g, 2) && fb.msi_count == msis + 1,
	   "port 3's wire interrupt becomes an MSI, port 2's does not");
	fakebus_free(&fb);
}

static void test_bad_input(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	struct pkt k = { .value = 1, .ctl = 18 << 16 };
	struct pkt r;

	fb.guest_errors = 0;
	ok_eq(send_raw(&fb, &k, 16, cpu_addr(H_PKT), &r), -1,
	      "descriptor shorter than a packet: not answered");
	ok_eq(send_raw(&fb, &k, 24, 0x1000, &r), -1,
	      "packet outside host memory: not answered");
	ok_eq(send_bd(&fb, &k, 24, 0x80000, cpu_addr(H_PKT), &r), -1,
	      "huge descriptor length: not answered");
	ok_eq(send_raw(&fb, &k, 24, cpu_addr(FAKE_HOST_SIZE - 8), &r), -1,
	      "packet straddling the end of host memory");
	ok_eq(fb.guest_errors, 4, "each one reported");
	ok_eq(send_pkt(&fb, 18, 3, 0, NULL), 0, "queue still works after");

	/* A PI that jumps by more than the queue holds. */
	fb.guest_errors = 0;
	test_pi = (test_pi + 5000) & 8191;
	wr(g, mmCPU_IF_PF_PQ_PI, test_pi);
	ok_eq(fb.guest_errors, 1, "PI beyond the queue is a guest error");
	ok_eq(send_pkt(&fb, 18, 4, 0, NULL), 0, "resynchronised after");

	/* PI wrap-around: 2 x 4096 packets keep being answered. */
	{
		unsigned int i, good = 0;

		for (i = 0; i < 8200; i++)
			good += send_pkt(&fb, 18, i, 0, NULL) == 0;
		ok_eq(good, 8200, "PQ wraps around (8200 packets)");
	}
	fakebus_free(&fb);
}

static void test_heartbeat_loss(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint32_t ctl = GAUDI_MODEL_CTL_BASE;
	struct pkt r;

	g->id.test_hooks = true;
	wr(g, ctl + GAUDI_CTL_CPU_HANG, 1);
	ok_eq(rd(g, ctl + GAUDI_CTL_CPU_HANG), 1, "hang reads back");
	ok_eq(send_pkt(&fb, 18, 0xFE8CE7A5, 0, NULL), -1,
	      "hung CPU misses the heartbeat");
	wr(g, ctl + GAUDI_CTL_CPU_HANG, 0);
	memcpy(&r, fb.host + H_PKT, sizeof(r));
	ok_eq(r.fence, 0xFE8CE7A5, "resume answers the queued packet");
	ok_eq(send_pkt(&fb, 18, 1, 0, NULL), 0, "heartbeat back");
	ok_eq(rd(g, ctl + GAUDI_CTL_CPUCP_COUNT), 2, "answer count");
	wr(g, mmGIC_DISTRIBUTOR__5_GICD_SETSPI_NSR, GAUDI_EVENT_HALT_MACHINE);
	ok_eq(send_pkt(&fb, 18, 1, 0, NULL), -1, "HALT_MACHINE stops CPU-CP");
	fakebus_free(&fb);
}

/* Drive the activity counters as busy engines would. */
static void run_load(struct fakebus *fb, uint64_t secs, bool busy)
{
	uint64_t i;

	for (i = 0; i < secs * 10; i++) {
		fb->now += 100000000ULL;
		if (busy) {
			fb->g->stat_busy_ns += 100000000ULL;
			fb->g->stat_dma_bytes += 1ULL << 30;
		}
		gaudi_core_tick(fb->g);
	}
}

static void test_sensors_follow_load(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint64_t t0, t1, t2, p0, p1, p2, e0, e1, e2, v0, v1, c0, c1, hi;

	(void)g;
	fb.now = 1000000000ULL;
	run_load(&fb, 5, false);
	send_pkt(&fb, 3, 0, 1 << 16, &t0);
	send_pkt(&fb, 32, 0, 9 << 16, &p0);
	send_pkt(&fb, 29, 0, 0, &e0);
	send_pkt(&fb, 4, 0, 1 << 16, &v0);
	send_pkt(&fb, 5, 0, 1 << 16, &c0);
	run_load(&fb, 1, true);
	send_pkt(&fb, 3, 0, 1 << 16, &t1);
	ok(t1 > t0 && t1 < t0 + 48000, "temperature rises smoothly: %llu "
	   "-> %llu", (unsigned long long)t0, (unsigned long long)t1);
	run_load(&fb, 15, true);
	send_pkt(&fb, 3, 0, 1 << 16, &t2);
	send_pkt(&fb, 32, 0, 9 << 16, &p1);
	send_pkt(&fb, 29, 0, 0, &e1);
	send_pkt(&fb, 4, 0, 1 << 16, &v1);
	send_pkt(&fb, 5, 0, 1 << 16, &c1);
	ok(t2 > t1 + 10000, "hot under sustained load: %llu mC",
	   (unsigned long long)t2);
	ok(p1 > p0 * 3, "power rises with load: %llu -> %llu uW",
	   (unsigned long long)p0, (unsigned long long)p1);
	ok(p1 <= 350000000ULL, "power within the cap");
	ok(e1 > e0 + 15ULL * 95000 * 1000, "energy integrates power: %llu uJ",
	   (unsigned long long)e1);
	ok(v1 < v0, "core voltage droops under load");
	ok(c1 > c0 * 3, "current follows power");
	run_load(&fb, 30, false);
	send_pkt(&fb, 3, 0, 1 << 16, &t1);
	send_pkt(&fb, 32, 0, 9 << 16, &p2);
	send_pkt(&fb, 29, 0, 0, &e2);
	ok(t1 < t0 + 2000, "temperature decays back when idle: %llu",
	   (unsigned long long)t1);
	ok(p2 < p0 + p0 / 10, "power back to idle");
	ok(e2 > e1, "energy keeps counting");
	send_pkt(&fb, 3, 0, 23 << 16, &hi);
	ok(hi >= t2, "temperature history keeps the highest");
	send_pkt(&fb, 32, 0, 10 << 16, &hi);
	ok(hi >= p1, "power history keeps the highest");
	fakebus_free(&fb);
}

int main(void)
{
	test_queue_init();
	test_probe_sequence();
	test_all_opcodes();
	test_copy_opcodes();
	test_array_packets();
	test_bad_input();
	test_heartbeat_loss();
	test_sensors_follow_load();
	return tap_done();
}
