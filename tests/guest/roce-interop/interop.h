/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the two programs of the roce-interop suite share
 * (Documentation/net/interop.rst): the control channel between the
 * conductor in the Gaudi VM (gaudi_interop.c) and the verbs peer in the
 * Soft-RoCE VM (verbs_peer.c), and the byte patterns both ends write and
 * check.
 *
 * The control channel is a TCP connection over a link of its own (the
 * VMs' eth0/eth1, not the RoCE cable).  Every message is one line of at
 * most CTL_LINE - 1 bytes: a command word and key=value words from the
 * conductor, "ok key=value ..." or "err reason" from the peer.  Numbers
 * are C literals (0x.. for hex).
 */
#ifndef GAUDI_INTEROP_H
#define GAUDI_INTEROP_H

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CTL_LINE 512
#define CTL_PORT 7471 /* the peer listens on it */

/* The bytes around a write that must keep their canary (each side). */
#define IO_GUARD 4096U
/* The largest write, and the buffer each end keeps: guard, data, guard. */
#define IO_MAX (1U << 20)
#define IO_ROOM (IO_MAX + 256U)
#define IO_BUF (IO_GUARD + IO_ROOM + IO_GUARD)

/* ---- patterns ------------------------------------------------------------ */

static inline uint64_t io_mix(uint64_t z)
{
	z += 0x9E3779B97F4A7C15ULL;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Byte @idx of pattern @seed. */
static inline uint8_t io_pat(uint32_t seed, uint64_t idx)
{
	return (uint8_t)(io_mix((uint64_t)seed << 40 ^ idx >> 3) >>
			 (8 * (idx & 7)));
}

/* buf[k] = byte @idx + k of pattern @seed, for k < @len. */
static inline void io_fill(uint8_t *buf, size_t len, uint32_t seed,
			   uint64_t idx)
{
	for (size_t k = 0; k < len; k++)
		buf[k] = io_pat(seed, idx + k);
}

/*
 * Whether buf[k] is byte @idx + k of pattern @seed for every k < @len;
 * else the first wrong byte's k and value in *@at, *@got, *@want and the
 * number of wrong bytes in *@bad.
 */
static inline bool io_check(const uint8_t *buf, size_t len, uint32_t seed,
			    uint64_t idx, size_t *at, unsigned int *got,
			    unsigned int *want, size_t *bad)
{
	size_t n = 0;

	for (size_t k = 0; k < len; k++) {
		uint8_t w = io_pat(seed, idx + k);

		if (buf[k] != w && !n++) {
			*at = k;
			*got = buf[k];
			*want = w;
		}
	}
	*bad = n;
	return !n;
}

/* ---- control lines ------------------------------------------------------- */

/* Send one line (a '\n' is added); 0 or -errno. */
static inline int ctl_send(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int ctl_send(int fd, const char *fmt, ...)
{
	char line[CTL_LINE];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(line) - 1)
		return -EMSGSIZE;
	line[n++] = '\n';
	for (int off = 0; off < n;) {
		ssize_t w =
			send(fd, line + off, (size_t)(n - off), MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EPIPE;
		off += (int)w;
	}
	return 0;
}

/*
 * Receive one line into @buf (without its '\n'), waiting at most
 * @timeout_ms in all; 0, -ETIMEDOUT, -EPIPE (closed), -EMSGSIZE or
 * -errno.  Reads a byte at a time: nothing past the line is consumed.
 */
static inline int ctl_recv(int fd, char *buf, size_t len, int timeout_ms)
{
	struct timespec t0, t1;
	size_t got = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < len - 1) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		long el;
		ssize_t r;
		int p;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		el = (t1.tv_sec - t0.tv_sec) * 1000 +
		     (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (el >= timeout_ms)
			return -ETIMEDOUT;
		p = poll(&pfd, 1, (int)(timeout_ms - el));
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			return -errno;
		if (!p)
			return -ETIMEDOUT;
		r = read(fd, buf + got, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -EPIPE;
		if (buf[got] == '\n') {
			buf[got] = '\0';
			return 0;
		}
		got++;
	}
	return -EMSGSIZE;
}

/*
 * The value of word "@key=VALUE" of @line in @out (at most @len - 1
 * bytes); false when the line has no such word.
 */
static inline bool kv_str(const char *line, const char *key, char *out,
			  size_t len)
{
	size_t kl = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			size_t n = strcspn(p + kl + 1, " ");

			if (n >= len)
				return false;
			memcpy(out, p + kl + 1, n);
			out[n] = '\0';
			return true;
		}
		p += kl;
	}
	return false;
}

/* The number of word "@key=N" of @line (any C literal). */
static inline bool kv_u64(const char *line, const char *key, uint64_t *v)
{
	char s[32], *end;

	if (!kv_str(line, key, s, sizeof(s)) || !s[0])
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !*end && !errno;
}

#endif /* GAUDI_INTEROP_H */
