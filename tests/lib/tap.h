/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Minimal TAP producer shared by the host and guest test programs.
 * Every suite ends with "N passed, N failed" and exits non-zero on failure.
 */
#ifndef GAUDI_TAP_H
#define GAUDI_TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed, tap_skipped;

/*
 * The programs' reproducible pseudo-random numbers: one xorshift64 step
 * (shifts 12, 25, 27) of the state at @s, which each program scrambles
 * with a multiplier of its own (xorshift64*).
 */
static inline uint64_t tap_xorshift(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s;
}

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

/* ok(cond, "what") with the failing expression and location on failure. */
#define ok(cond, ...)                                                        \
	({                                                                   \
		int _c = !!(cond);                                           \
		if (!tap_ok(_c, __VA_ARGS__))                                \
			tap_diag("failed: %s at %s:%d", #cond, __FILE__,     \
				 __LINE__);                                  \
		_c;                                                          \
	})

#define ok_eq(a, b, ...)                                                     \
	({                                                                   \
		unsigned long long _a = (unsigned long long)(a);             \
		unsigned long long _b = (unsigned long long)(b);             \
		int _c = _a == _b;                                           \
		if (!tap_ok(_c, __VA_ARGS__))                                \
			tap_diag("%s = 0x%llx, expected %s = 0x%llx (%s:%d)", \
				 #a, _a, #b, _b, __FILE__, __LINE__);        \
		_c;                                                          \
	})

/*
 * A check that could not run: "ok N - WHAT # SKIP WHY".  A skip is not a
 * pass: tap_done() counts it apart ("N passed, N failed, N skipped").
 */
static inline void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	tap_skipped++;
	printf("ok %d - ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
	fflush(stdout);
}

/*
 * A check of what is not built yet: "ok N - WHAT # TODO WHY" or "not ok N
 * - WHAT # TODO WHY", as TAP marks a known gap.  It runs and can fail, but
 * counts as skipped, never as a pass or a failure (tap_done(); the shell
 * side's tap_sub_each counts it the same way).  Returns @cond.
 */
static inline int tap_todo(int cond, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int tap_todo(int cond, const char *why, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	tap_skipped++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # TODO %s\n", why);
	fflush(stdout);
	return cond;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_skipped)
		printf("%d passed, %d failed, %d skipped\n",
		       tap_n - tap_failed - tap_skipped, tap_failed,
		       tap_skipped);
	else
		printf("%d passed, %d failed\n", tap_n - tap_failed,
		       tap_failed);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* GAUDI_TAP_H */
