// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fakebus.h"

static bool fb_denied(struct fakebus *fb, uint64_t addr, uint64_t len)
{
	if (addr < fb->deny_hi && addr + len > fb->deny_lo) {
		fb->denied++;
		return true;
	}
	return false;
}

static int fb_dma_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
	struct fakebus *fb = opaque;

	if (addr >= FAKE_HOST_SIZE || len > FAKE_HOST_SIZE - addr ||
	    fb_denied(fb, addr, len))
		return -1;
	memcpy(buf, fb->host + addr, len);
	return 0;
}

static int fb_dma_write(void *opaque, uint64_t addr, const void *buf,
			uint64_t len)
{
	struct fakebus *fb = opaque;

	if (addr >= FAKE_HOST_SIZE || len > FAKE_HOST_SIZE - addr ||
	    fb_denied(fb, addr, len))
		return -1;
	memcpy(fb->host + addr, buf, len);
	return 0;
}

static void fb_msi(void *opaque, unsigned int vector)
{
	struct fakebus *fb = opaque;

	(void)vector;
	fb->msi_count++;
}

static uint64_t fb_now(void *opaque)
{
	struct fakebus *fb = opaque;

	return fb->now;
}

static void fb_log(void *opaque, enum gaudi_log_level level, const char *msg)
{
	struct fakebus *fb = opaque;

	if (level == GAUDI_LOG_GUEST_ERROR) {
		fb->guest_errors++;
		snprintf(fb->last_error, sizeof(fb->last_error), "%s", msg);
	}
	if (!fb->quiet)
		fprintf(stderr, "# model: %s\n", msg);
}

static void fb_schedule(void *opaque, uint64_t delay_ns)
{
	struct fakebus *fb = opaque;
	uint64_t at = fb->now + delay_ns;

	fb->sched_calls++;
	if (!fb->sched_pending || at < fb->sched_at)
		fb->sched_at = at;
	fb->sched_pending = true;
}

static void *big_zeroed(uint64_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		abort();
	return p;
}

static struct gaudi_core *fb_create(struct fakebus *fb,
				    const struct gaudi_identity *id, bool async)
{
	struct gaudi_bus bus = {
		.opaque = fb,
		.dma_read = fb_dma_read,
		.dma_write = fb_dma_write,
		.msi = fb_msi,
		.now_ns = fb_now,
		.log = fb_log,
		.schedule = async ? fb_schedule : NULL,
	};

	memset(fb, 0, sizeof(*fb));
	fb->quiet = getenv("FAKEBUS_VERBOSE") == NULL;
	fb->host = big_zeroed(FAKE_HOST_SIZE);
	fb->sram = big_zeroed(GAUDI_BAR0_SIZE);
	fb->hbm = big_zeroed(FAKE_HBM_SIZE);
	fb->flash = big_zeroed(GAUDI_FLASH_WINDOW);
	fb->g = gaudi_core_new(&bus, fb->sram, fb->hbm, FAKE_HBM_SIZE, fb->flash,
			       id);
	if (!fb->g)
		abort();
	return fb->g;
}

struct gaudi_core *fakebus_new(struct fakebus *fb)
{
	return fb_create(fb, NULL, false);
}

struct gaudi_core *fakebus_new_id(struct fakebus *fb,
				  const struct gaudi_identity *id)
{
	return fb_create(fb, id, false);
}

struct gaudi_core *fakebus_new_async(struct fakebus *fb, uint32_t latency_ns,
				     uint32_t bandwidth_mbps)
{
	struct gaudi_identity id = {
		.packet_latency_ns = latency_ns,
		.dma_bandwidth_mbps = bandwidth_mbps,
	};

	return fb_create(fb, &id, true);
}

unsigned int fake_advance(struct fakebus *fb, uint64_t ns,
			  unsigned int max_steps)
{
	uint64_t end = fb->now + ns;
	unsigned int n = 0;

	while (fb->sched_pending && fb->sched_at <= end &&
	       (!max_steps || n < max_steps)) {
		if (fb->sched_at > fb->now)
			fb->now = fb->sched_at;
		fb->sched_pending = false;
		fb->steps++;
		n++;
		gaudi_core_run(fb->g);
	}
	if (!max_steps || n < max_steps)
		fb->now = end;
	return n;
}

unsigned int fake_drain(struct fakebus *fb, unsigned int max_steps)
{
	unsigned int n = 0;

	while (fb->sched_pending && n < max_steps) {
		if (fb->sched_at > fb->now)
			fb->now = fb->sched_at;
		fb->sched_pending = false;
		fb->steps++;
		n++;
		gaudi_core_run(fb->g);
	}
	return n;
}

void fakebus_free(struct fakebus *fb)
{
	gaudi_core_free(fb->g);
	munmap(fb->host, FAKE_HOST_SIZE);
	munmap(fb->sram, GAUDI_BAR0_SIZE);
	munmap(fb->hbm, FAKE_HBM_SIZE);
	munmap(fb->flash, GAUDI_FLASH_WINDOW);
}
