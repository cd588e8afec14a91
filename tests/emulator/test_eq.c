// SPDX-License-Identifier: GPL-2.0-or-later
/* The event queue: entry layout, wrap-around, backpressure, injection. */
#include <string.h>

#include "fwboot.h"
#include "tap.h"

static uint32_t eq_ctl(struct fakebus *fb, unsigned int slot)
{
	uint32_t v;

	memcpy(&v, fb->host + H_EQ + 64 * slot + 4, 4);
	return v;
}

/* Consume one entry as the driver does: clear READY, advance RD_OFFS. */
static void consume(struct fakebus *fb, unsigned int *ci)
{
	uint32_t zero = 0;

	memcpy(fb->host + H_EQ + 64 * *ci + 4, &zero, 4);
	*ci = (*ci + 1) % 64;
	wr(fb->g, mmCPU_IF_EQ_RD_OFFS, *ci);
}

static void test_entry(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint64_t payload[7] = { 1, 2, 3, 4, 5, 6, 7 }, got[7];
	unsigned int msi = fb.msi_count;

	gaudi_eq_event(g, 604, payload, sizeof(payload));
	ok_eq(eq_ctl(&fb, 0), 0x80000000U | 604 << 16 | 1,
	      "ctl = READY | type 604 | index 1");
	memcpy(got, fb.host + H_EQ + 8, sizeof(got));
	ok(!memcmp(got, payload, sizeof(got)), "56-byte payload after header");
	ok_eq(fb.msi_count, msi + 1, "MSI raised");
	gaudi_eq_event(g, 646, payload, 8);
	ok_eq(eq_ctl(&fb, 1), 0x80000000U | 646 << 16 | 2, "second entry");
	memcpy(got, fb.host + H_EQ + 64 + 8, sizeof(got));
	ok(got[0] == 1 && got[1] == 0, "short payload zero-padded");
	gaudi_eq_event(g, 700, payload, 200);
	ok_eq(eq_ctl(&fb, 2) >> 16 & 0xFFF, 700, "oversized payload clipped");
	fakebus_free(&fb);
}

static void test_wrap_and_backpressure(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	unsigned int i, ci = 0, bad = 0;
	uint64_t v;

	for (i = 0; i < 200; i++) {
		v = i;
		gaudi_eq_event(g, 600, &v, 8);
		if (eq_ctl(&fb, ci) != (0x80000000U | 600 << 16 | (i + 1)))
			bad++;
		memcpy(&v, fb.host + H_EQ + 64 * ci + 8, 8);
		if (v != i)
			bad++;
		consume(&fb, &ci);
	}
	ok_eq(bad, 0, "200 events through the 64-entry ring, in order");
	ok_eq(g->eq.drops, 0, "nothing dropped while the host keeps up");

	/* Now the host stops consuming. */
	for (i = 0; i < 70; i++) {
		v = 1000 + i;
		gaudi_eq_event(g, 601, &v, 8);
	}
	ok_eq(g->eq.posted, 263, "63 more posted: one slot stays empty");
	ok_eq(g->eq.drops, 7, "the other 7 dropped and counted");
	memcpy(&v, fb.host + H_EQ + 64 * ci + 8, 8);
	ok_eq(v, 1000, "oldest unconsumed entry not overwritten");
	consume(&fb, &ci);
	consume(&fb, &ci);
	gaudi_eq_event(g, 602, NULL, 0);
	ok_eq(g->eq.posted, 264, "room again after the host consumed");

	/* RD_OFFS says free, but the host never cleared READY. */
	for (i = 0; i < 63; i++)
		consume(&fb, &ci);
	memcpy(fb.host + H_EQ + 64 * g->eq.pi + 4, "\0\0\0\x80", 4);
	gaudi_eq_event(g, 603, NULL, 0);
	ok_eq(g->eq.drops, 8, "a slot still READY is not overwritten");

	fb.guest_errors = 0;
	wr(g, mmCPU_IF_EQ_RD_OFFS, 64);
	gaudi_eq_event(g, 603, NULL, 0);
	ok_eq(fb.guest_errors, 1, "RD_OFFS beyond the ring is a guest error");
	ok_eq(g->eq.drops, 9, "... and the event is dropped");
	fakebus_free(&fb);
}

static void test_not_ready(void)
{
	struct fakebus fb;
	struct gaudi_core *g = fakebus_new(&fb);
	unsigned int msi = fb.msi_count;

	gaudi_eq_event(g, 604, NULL, 0);
	ok_eq(g->eq.drops, 1, "event before queue init dropped");
	ok_eq(fb.msi_count, msi, "no MSI for a dropped event");
	fakebus_free(&fb);

	g = ready_card(&fb);
	ok_eq(send_pkt(&fb, 1, 0, 0, NULL), 0, "DISABLE_PCI_ACCESS");
	gaudi_eq_event(g, 604, NULL, 0);
	ok_eq(g->eq.drops, 1, "no events while PCI access is disabled");
	ok_eq(send_pkt(&fb, 2, 0, 0, NULL), 0, "ENABLE_PCI_ACCESS");
	gaudi_eq_event(g, 604, NULL, 0);
	ok_eq(g->eq.posted, 1, "events flow again");
	wr(g, mmPSOC_GLOBAL_CONF_SW_ALL_RST, 1);
	gaudi_eq_event(g, 604, NULL, 0);
	ok_eq(g->eq.drops, 1, "reset: queue gone, drop counter reset");
	ok_eq(g->eq.posted, 0, "... nothing posted");
	fakebus_free(&fb);
}

static void test_injection(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	uint32_t ctl = GAUDI_MODEL_CTL_BASE, w;

	wr(g, ctl + GAUDI_CTL_EVENT_DATA0, 0x1234);
	wr(g, ctl + GAUDI_CTL_EVENT_TYPE, 645);
	ok_eq(g->eq.posted, 0, "no injection without test hooks");
	g->id.test_hooks = true;
	wr(g, ctl + GAUDI_CTL_EVENT_DATA0, 0x1234);
	wr(g, ctl + GAUDI_CTL_EVENT_DATA0 + 4 * 13, 0xabcd);
	wr(g, ctl + GAUDI_CTL_EVENT_TYPE, 645);
	ok_eq(eq_ctl(&fb, 0), 0x80000000U | 645 << 16 | 1,
	      "injected FW_ALIVE event");
	memcpy(&w, fb.host + H_EQ + 8, 4);
	ok_eq(w, 0x1234, "payload word 0");
	memcpy(&w, fb.host + H_EQ + 8 + 52, 4);
	ok_eq(w, 0xabcd, "payload word 13");
	fb.guest_errors = 0;
	wr(g, ctl + GAUDI_CTL_EVENT_TYPE, 5000);
	ok_eq(fb.guest_errors, 1, "event type out of range refused");
	wr(g, mmCPU_IF_EQ_RD_OFFS, 0);
	ok_eq(rd(g, ctl + GAUDI_CTL_EQ_DROPS), 0, "drop counter visible");
	fakebus_free(&fb);
}

/* The firmware reports power and thermal envelope changes. */
static void test_envelope_events(void)
{
	struct fakebus fb;
	struct gaudi_core *g = ready_card(&fb);
	unsigned int i, ci = 0, s = 0, e = 0, ts = 0;

	ok_eq(send_pkt(&fb, 21, 150000, 0, NULL), 0, "cap power at 150 W");
	for (i = 0; i < 300; i++) {
		fb.now += 100000000ULL;
		g->stat_busy_ns += 100000000ULL;
		gaudi_core_tick(g);
	}
	for (i = 0; i < 100; i++) {
		fb.now += 100000000ULL;
		gaudi_core_tick(g);
	}
	while (eq_ctl(&fb, ci) & 0x80000000U) {
		uint32_t type = eq_ctl(&fb, ci) >> 16 & 0xFFF;

		s += type == 658;
		e += type == 659;
		ts += type == 660;
		consume(&fb, &ci);
	}
	ok_eq(s, 1, "FIX_POWER_ENV_S once under load");
	ok_eq(e, 1, "FIX_POWER_ENV_E once idle again");
	ok_eq(ts, 0, "no thermal event below the max temperature");
	fakebus_free(&fb);
}

int main(void)
{
	test_entry();
	test_wrap_and_backpressure();
	test_not_ready();
	test_injection();
	test_envelope_events();
	return tap_done();
}
