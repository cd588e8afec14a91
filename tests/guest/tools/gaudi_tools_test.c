// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_tools_test - small helpers of the "tools" guest suite (busybox has
 * no JSON parser, no nanosecond clock everywhere and no reliable way to drop
 * privileges without /etc/passwd entries).
 *
 *   gaudi_tools_test now                    CLOCK_MONOTONIC in ns
 *   gaudi_tools_test runas UID GID CMD...   exec CMD with those ids (root)
 *   gaudi_tools_test hold NODE COMM         open NODE read-write, rename
 *                                           this process COMM, print
 *                                           "holding PID", sleep until killed
 *   gaudi_tools_test json [FILE]            strict RFC 8259 check of FILE
 *                                           (or stdin): exit 0 valid, 1 not
 *                                           (with the byte offset), 2 usage
 *   gaudi_tools_test cstimeout NODE CMD     open NODE, run CMD (the suite's
 *                                           gaudi_model_ctl that hangs queue
 *                                           DMA_0_0; a hung queue would fail
 *                                           the open's scrub), then one CS
 *                                           with a 1 s timeout on DMA_0_0:
 *                                           exit 0 when it timed out
 *
 * The JSON check is a recursive-descent parser: one value with optional
 * whitespace around it; objects, arrays, strings (escapes, \u with 4 hex
 * digits, no raw control characters), numbers (-?int frac? exp?, no leading
 * zeros), true/false/null, strings of well-formed UTF-8 only.  Nesting is
 * limited to 64 levels.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "hl_ioctl.h"

/* ---- JSON ---------------------------------------------------------------- */

static const char *js, *jp, *jend;
static const char *jerr;

static void ws(void)
{
	while (jp < jend && (*jp == ' ' || *jp == '\t' || *jp == '\n' ||
			     *jp == '\r'))
		jp++;
}

static int fail(const char *why)
{
	if (!jerr)
		jerr = why;
	return -1;
}

static int value(int depth);

static int string(void)
{
	if (jp >= jend || *jp != '"')
		return fail("string expected");
	jp++;
	while (jp < jend && *jp != '"') {
		unsigned char c = (unsigned char)*jp;

		if (c < 0x20)
			return fail("raw control character in a string");
		if (c >= 0x80) {	/* RFC 8259: JSON text is UTF-8 */
			unsigned int n = c >= 0xF0 && c <= 0xF4 ? 4 :
					 c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
			unsigned int cp = c & (0x3F >> (n - 1 + !n)), i;

			if (!n || c > 0xF4 || jp + n > jend)
				return fail("not UTF-8");
			for (i = 1; i < n; i++) {
				if (((unsigned char)jp[i] & 0xC0) != 0x80)
					return fail("not UTF-8");
				cp = cp << 6 | ((unsigned char)jp[i] & 0x3F);
			}
			if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
			    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
				return fail("not UTF-8");
			jp += n;
			continue;
		}
		if (c == '\\') {
			jp++;
			if (jp >= jend)
				return fail("truncated escape");
			if (*jp == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (jp + i >= jend ||
					    !strchr("0123456789abcdefABCDEF",
						    jp[i]) || !jp[i])
						return fail("bad \\u escape");
				jp += 4;
			} else if (!strchr("\"\\/bfnrt", *jp) || !*jp) {
				return fail("bad escape");
			}
		}
		jp++;
	}
	if (jp >= jend)
		return fail("unterminated string");
	jp++;
	return 0;
}

static int digits(void)
{
	const char *s = jp;

	while (jp < jend && *jp >= '0' && *jp <= '9')
		jp++;
	return jp > s ? 0 : fail("digit expected");
}

static int number(void)
{
	if (jp < jend && *jp == '-')
		jp++;
	if (jp < jend && *jp == '0') {
		jp++;
		if (jp < jend && *jp >= '0' && *jp <= '9')
			return fail("leading zero");
	} else if (digits()) {
		return -1;
	}
	if (jp < jend && *jp == '.') {
		jp++;
		if (digits())
			return -1;
	}
	if (jp < jend && (*jp == 'e' || *jp == 'E')) {
		jp++;
		if (jp < jend && (*jp == '+' || *jp == '-'))
			jp++;
		if (digits())
			return -1;
	}
	return 0;
}

static int word(const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(jend - jp) < n || memcmp(jp, w, n))
		return fail("unknown literal");
	jp += n;
	return 0;
}

static int value(int depth)
{
	if (depth > 64)
		return fail("nested too deep");
	ws();
	if (jp >= jend)
		return fail("value expected");
	switch (*jp) {
	case '{':
		jp++;
		ws();
		if (jp < jend && *jp == '}') {
			jp++;
			return 0;
		}
		for (;;) {
			ws();
			if (string())
				return -1;
			ws();
			if (jp >= jend || *jp != ':')
				return fail("':' expected");
			jp++;
			if (value(depth + 1))
				return -1;
			ws();
			if (jp < jend && *jp == ',') {
				jp++;
				continue;
			}
			if (jp < jend && *jp == '}') {
				jp++;
				return 0;
			}
			return fail("',' or '}' expected");
		}
	case '[':
		jp++;
		ws();
		if (jp < jend && *jp == ']') {
			jp++;
			return 0;
		}
		for (;;) {
			if (value(depth + 1))
				return -1;
			ws();
			if (jp < jend && *jp == ',') {
				jp++;
				continue;
			}
			if (jp < jend && *jp == ']') {
				jp++;
				return 0;
			}
			return fail("',' or ']' expected");
		}
	case '"':
		return string();
	case 't':
		return word("true");
	case 'f':
		return word("false");
	case 'n':
		return word("null");
	default:
		if (*jp == '-' || (*jp >= '0' && *jp <= '9'))
			return number();
		return fail("unexpected character");
	}
}

static int json_check(const char *path)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	FILE *f = path ? fopen(path, "r") : stdin;
	size_t n;

	if (!buf || !f) {
		perror(path ? path : "stdin");
		return 2;
	}
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				return 2;
			buf = nb;
		}
	}
	js = jp = buf;
	jend = buf + len;
	if (!value(0)) {
		ws();
		if (jp != jend)
			fail("trailing characters after the value");
	}
	if (jerr) {
		printf("invalid JSON at byte %ld: %s\n", (long)(jp - js), jerr);
		return 1;
	}
	printf("valid JSON (%zu bytes)\n", len);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "now")) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("%lld\n", (long long)ts.tv_sec * 1000000000LL +
		       ts.tv_nsec);
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "runas")) {
		gid_t gid = (gid_t)atoi(argv[3]);

		if (setgroups(1, &gid) || setgid(gid) ||
		    setuid((uid_t)atoi(argv[2]))) {
			perror("runas");
			return 126;
		}
		execvp(argv[4], argv + 4);
		perror(argv[4]);
		return 127;
	}
	if (argc == 4 && !strcmp(argv[1], "hold")) {
		int fd;

		/* First: the driver records the command name at open. */
		prctl(PR_SET_NAME, argv[3], 0, 0, 0);
		fd = open(argv[2], O_RDWR | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, "hold: %s: %s\n", argv[2],
				strerror(errno));
			return 1;
		}
		printf("holding %d\n", (int)getpid());
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc >= 2 && argc <= 3 && !strcmp(argv[1], "json"))
		return json_check(argc == 3 ? argv[2] : NULL);
	if (argc == 4 && !strcmp(argv[1], "cstimeout")) {
		struct hl_sess sess;
		uint32_t st = 0;
		uint64_t seq = 0;
		int rc;

		int fd = hl_open_retry(argv[2]);

		if (fd < 0) {
			printf("cstimeout: open %s: %s\n", argv[2],
			       strerror(errno));
			return 1;
		}
		if (!hl_sess_open(&sess, fd, 4096, 4096, 4096)) {
			printf("cstimeout: %s: no CB or host mapping: %s\n",
			       argv[2], strerror(errno));
			return 1;
		}
		if (system(argv[3])) {
			printf("cstimeout: %s failed\n", argv[3]);
			hl_sess_close(&sess);
			return 1;
		}
		rc = hl_submit(sess.fd, &(struct hl_cs_chunk){
				.cb_handle = sess.cb, .queue_index = 0,
				.cb_size = (uint32_t)pkt_lin_dma(sess.cbp, 0, 0,
								  sess.va, 64,
								  true, true) },
			       1, HL_CS_FLAGS_CUSTOM_TIMEOUT, 1, &seq);
		/*
		 * The driver's timeout (1 s) fires; without reset_on_lockup
		 * the CS stays on the hung queue: a 3 s wait ends with it not
		 * completed (the close resets the card).
		 */
		if (!rc)
			rc = wait_cs(sess.fd, seq, 3000000, &st, NULL);
		printf("cstimeout: %s, status %u\n", strerror(-rc), st);
		hl_sess_close(&sess);
		return rc == -ETIMEDOUT ||
		       (!rc && st != HL_WAIT_CS_STATUS_COMPLETED) ? 0 : 1;
	}
	fprintf(stderr, "usage: %s now | runas UID GID CMD... | hold NODE COMM | json [FILE] | cstimeout NODE CMD\n",
		argv[0]);
	return 2;
}
