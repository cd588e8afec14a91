// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The network oracle's seeds (netoracle.h), one per attack class of issue
 * 22, as a TAP test; --corpus DIR writes them as fuzz_roce's corpus.
 */
#include <errno.h>
#include <sys/stat.h>

#include "netoracle.h"
#include "tap.h"

#define MAX_OPS 16

struct seed {
	const char *name;
	unsigned int n;
	uint8_t op[MAX_OPS][NO_OP_SIZE];
};

/* Frame bytes: opcode index, QP, PSN, VA, VA offset, key|len, len|fill. */
#define FR(o, q, psn, va, off, kl, lf) { 0, o, q, psn, va, off, kl, lf }
#define CLOSE { 4, 0, 0, 0, 0, 0, 0, 0 }
#define CREATE(hi, lo) { 5, hi, lo, 0, 0, 0, 0, 0 }
#define WQE(la, off, sz) { 6, la, off, sz, 0, 0, 0, 0 }
#define TIME(ms) { 7, 0, ms, 0, 0, 0, 0, 0 }
#define REPLAY { 7, 1, 0, 0, 0, 0, 0, 0 }
/* The verbs setup path (bit 7 of the first byte): its first operation. */
#define VFR(o, q, psn, va, off, kl, lf) { 0x80, o, q, psn, va, off, kl, lf }
#define VTIME(ms) { 0x87, 0, ms, 0, 0, 0, 0, 0 }
#define V_RESET { 4, 0, 0, 0, 0, 0, 0, 0 }
#define V_ERR { 4, 2, 0, 0, 0, 0, 0, 0 }
#define V_DEREG { 4, 4, 0, 0, 0, 0, 0, 0 }
#define V_RTS { 4, 6, 0, 0, 0, 0, 0, 0 }
/* RESET -> INIT -> RTR [-> RTS]: bit 0 read access, 1 RTR only, 2 MTU 1024. */
#define V_CREATE(hi, lo, f) { 5, hi, lo, f, 0, 0, 0, 0 }

static const struct seed seeds[] = {
	{ "a WRITE to configuration space (the driver's W_S SOBs) and the "
	  "driver's HBM", 7, {
		FR(3, 0, 0, 4, 0, 0, 1), CLOSE, CREATE(0, 0),
		FR(3, 0, 0, 5, 0, 0, 1), CLOSE, CREATE(0, 0),
		FR(4, 0, 0, 4, 0, 0, 0x80) } },
	{ "a multi-packet write across a close and re-create on the same "
	  "QPN and VA", 6, {
		FR(0, 0, 0, 0, 0, 0x04, 64), CLOSE, CREATE(0, 1),
		FR(1, 0, 0, 0, 0, 0x00, 64), FR(2, 0, 0, 0, 0, 0x00, 64),
		REPLAY } },
	{ "a key without bounds: past the region's end, before it, the "
	  "send queue", 7, {
		FR(3, 0, 0, 1, 1, 0, 2), CLOSE, CREATE(0, 0),
		FR(3, 0, 0, 2, 4, 0, 2), CLOSE, CREATE(0, 0),
		FR(3, 0, 0, 6, 0, 0, 1) } },
	{ "the previous holder's key and another tag", 3, {
		CLOSE, CREATE(0, 0), FR(3, 0, 0, 0, 0, 1, 1) } },
	{ "no source check: a stranger's wrong-key frame, a frame for "
	  "another MAC, then the peer", 3, {
		FR(3, 0, 0, 0, 0, 0x12, 1), FR(3, 0, 0, 0, 0, 0x20, 1),
		FR(3, 0, 0, 0, 0, 0x00, 1) } },
	{ "a forged remote-access NAK from a stranger to the holder's "
	  "requester", 3, {
		WQE(0, 0, 4), FR(6, 1, 0, 0, 3 | 8, 0x10, 0),
		FR(6, 1, 0, 0, 0 | 8, 0x00, 0) } },
	{ "RNR NAKs, then the ACK", 5, {
		WQE(0, 0, 4), FR(6, 1, 0, 0, 4 | 8, 0, 0), TIME(2),
		FR(6, 1, 0, 0, 5 | 8, 0, 0), FR(6, 1, 0, 0, 0 | 8, 0, 0) } },
	{ "send WQEs reading the driver's HBM and configuration space", 2, {
		WQE(1, 0, 2), WQE(2, 0, 1) } },
	{ "remote SOB writes inside and outside the window", 3, {
		FR(4, 0, 0, 3, 1, 0, 0x80), FR(4, 0, 0, 3, 200, 0, 0x80),
		FR(4, 0, 0, 4, 0, 0, 0x80) } },
	{ "a message across a device reset, then re-created", 6, {
		FR(0, 0, 0, 0, 0, 0x04, 64), { 4, 1, 0, 0, 0, 0, 0, 0 },
		FR(1, 0, 0, 0, 0, 0x00, 64), CREATE(0, 1),
		FR(2, 0, 0, 0, 0, 0x00, 64), REPLAY } },
	/* Issue 25: SEND into receive queues, READ of regions. */
	{ "SENDs: one in its receive buffer, one longer than its buffer, "
	  "its MIDDLE after a re-create", 6, {
		FR(0x43, 0, 0, 0, 0, 0, 4), FR(0x40, 0, 0, 0, 0, 0, 64),
		FR(0x41, 0, 0, 0, 0, 0, 64), CLOSE, CREATE(0, 0),
		FR(0x41, 0, 0, 0, 0, 0, 64) } },
	{ "READs: past the region's end, without the remote-read right, "
	  "with the previous key", 7, {
		FR(0x44, 0, 0, 1, 1, 0, 2), CLOSE, CREATE(0, 0),
		FR(0x44, 0, 0, 0, 0, 0, 4), CLOSE, { 5, 0, 0, 1, 0, 0, 0, 0 },
		FR(0x44, 0, 0, 0, 0, 1, 4) } },
	{ "READ responses to the holder's READ: from a stranger, then the "
	  "peer's, replayed", 4, {
		WQE(4, 0, 8), FR(0x47, 1, 0, 0, 8, 0x10, 4),
		FR(0x47, 1, 0, 0, 8, 0, 4), REPLAY } },
	{ "a READ, the connection closed and re-created, the READ again",
	  5, {
		FR(0x44, 0, 0, 0, 0, 0x08, 64), CLOSE,
		{ 5, 0, 0, 1, 0, 0, 0, 0 }, REPLAY, TIME(1) } },
	/* Issue 25: QP 1 set up as gaudi_ib.ko's modify_qp does. */
	{ "verbs: a WRITE into a deregistered region, with its key", 4, {
		VTIME(0), FR(3, 0, 0, 0, 0, 0, 1), V_DEREG,
		FR(3, 0, 0, 0, 0, 0, 1) } },
	{ "verbs: a QP in ERR: WRITE, SEND and READ with the live key", 5, {
		VTIME(0), V_ERR, FR(3, 0, 0, 0, 0, 0, 1),
		FR(0x43, 0, 0, 0, 0, 0, 4), FR(0x44, 0, 0, 0, 0, 0, 4) } },
	{ "verbs: RESET and INIT again: the old key, a MIDDLE of the last "
	  "QP's message", 6, {
		VFR(0, 0, 0, 0, 0, 0x04, 64), V_RESET, V_CREATE(0, 0, 1),
		FR(1, 0, 0, 0, 0, 0, 64), FR(3, 0, 0, 0, 0, 1, 1), REPLAY } },
	{ "verbs: a message begun at RTR, then RTS rewrites the extension "
	  "(MTU 1024)", 5, {
		VTIME(0), V_CREATE(0, 5, 3), FR(0, 0, 0, 0, 0, 0x04, 64),
		V_RTS, FR(1, 0, 0, 0, 0, 0, 16) } },
	{ "verbs: VAs below the offset reaching configuration space, the "
	  "driver's HBM, the send queue", 4, {
		VFR(3, 0, 0, 4, 0, 0, 1), FR(3, 0, 0, 5, 0, 0, 1),
		FR(3, 0, 0, 6, 0, 0, 1), FR(4, 0, 0, 3, 1, 0, 0x80) } },
	{ "verbs: past the region's end, a packet above the path MTU 1024, "
	  "a READ without the right", 5, {
		VTIME(0), V_CREATE(0, 0, 4), FR(3, 0, 0, 1, 1, 0, 2),
		FR(3, 0, 0, 0, 0, 0, 32), FR(0x44, 0, 0, 0, 0, 0, 4) } },
	{ "verbs: legitimate traffic: a WRITE, a SEND and a READ", 3, {
		VFR(3, 0, 0, 0, 0, 0, 1), FR(0x43, 0, 0, 0, 0, 0, 4),
		FR(0x44, 0, 0, 0, 0, 0, 4) } },
	{ "legitimate traffic: a SEND and a READ in the region", 2, {
		FR(0x43, 0, 0, 0, 0, 0, 4), FR(0x44, 0, 0, 0, 0, 0, 4) } },
	{ "legitimate traffic: a two-packet message in the region", 2, {
		FR(0, 0, 0, 0, 0, 0x04, 64), FR(2, 0, 0, 0, 0, 0, 64) } },
};

/* The seed whose name begins with prefix. */
static const struct seed *named(const char *prefix)
{
	unsigned int i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		if (!strncmp(seeds[i].name, prefix, strlen(prefix)))
			return &seeds[i];
	return &seeds[0];
}

static size_t pack(const struct seed *s, uint8_t *buf)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		memcpy(buf + NO_OP_SIZE * i, s->op[i], NO_OP_SIZE);
	return (size_t)s->n * NO_OP_SIZE;
}

static int write_corpus(const char *dir)
{
	unsigned int i;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return 1;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		uint8_t buf[MAX_OPS * NO_OP_SIZE];
		char path[4096];
		size_t n = pack(&seeds[i], buf);
		FILE *f;

		snprintf(path, sizeof(path), "%s/seed-%02u", dir, i);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, n, f) != n) {
			if (f)
				fclose(f);
			return 1;
		}
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t buf[MAX_OPS * NO_OP_SIZE];
	char why[512];
	unsigned int i;
	size_t n;

	W = calloc(1, sizeof(*W));
	if (!W)
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--corpus"))
		return write_corpus(argv[2]);
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		n = pack(&seeds[i], buf);
		why[0] = 0;
		ok(!no_run(buf, n, why, sizeof(why)), "%s: no violation %s",
		   seeds[i].name, why);
	}
	/* The oracle itself: a model region larger than the registered one. */
	no_model_slack = 0x1000;
	n = pack(&seeds[2], buf);
	ok(no_run(buf, n, why, sizeof(why)) == 1,
	   "the oracle fails a write past the registered region (%s)", why);
	no_model_slack = 0;
	n = pack(&seeds[sizeof(seeds) / sizeof(seeds[0]) - 1], buf);
	ok(!no_run(buf, n, why, sizeof(why)) && NO.writes == 2,
	   "legitimate writes reach the region (%u)", NO.writes);
	n = pack(&seeds[sizeof(seeds) / sizeof(seeds[0]) - 2], buf);
	ok(!no_run(buf, n, why, sizeof(why)) && NO.recv_writes == 1 &&
	   NO.reads == 1,
	   "a legitimate SEND reaches its receive buffer (%u), a READ the "
	   "region (%u)", NO.recv_writes, NO.reads);
	no_model_slack = 0x1000;
	n = pack(named("READs: past"), buf);
	ok(no_run(buf, n, why, sizeof(why)) == 1,
	   "the oracle fails a READ past the registered region (%s)", why);
	no_model_slack = 0;
	/* The verbs path: what its legitimate traffic and the oracle do. */
	n = pack(named("verbs: legitimate"), buf);
	ok(!no_run(buf, n, why, sizeof(why)) && NO.verbs && NO.writes == 1 &&
	   NO.recv_writes == 1 && NO.reads == 1,
	   "verbs path: a WRITE (%u), a SEND (%u) and a READ (%u) reach the "
	   "region and the receive buffer", NO.writes, NO.recv_writes,
	   NO.reads);
	no_model_slack = 0x1000;
	n = pack(named("verbs: past"), buf);
	ok(no_run(buf, n, why, sizeof(why)) == 1 && NO.verbs,
	   "verbs path: the oracle fails a write past the registered region "
	   "(%s)", why);
	no_model_slack = 0;
	free(W);
	return tap_done();
}
