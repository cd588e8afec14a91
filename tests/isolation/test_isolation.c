// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The isolation seeds as a unit test (TAP): through the parser every
 * attack is refused and every legitimate CB accepted and run without a
 * violation; with the parser bypassed, the hardware protection alone
 * stops each attack on an internal queue (accesses blocked, none outside
 * the context).  Also writes the seeds as a fuzzing corpus: test_isolation
 * --corpus DIR.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "isolation.h"
#include "tap.h"

/* Room for every seed; a full array fails the run (seeds would be lost). */
#define MAX_SEEDS 256

static int write_corpus(const char *dir, const struct iso_seed *s, size_t n)
{
	char path[4096];
	size_t i;
	FILE *f;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return 1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/seed-%02zu", dir, i);
		f = fopen(path, "wb");
		if (!f || fwrite(s[i].data, 1, s[i].len, f) != s[i].len)
			return 1;
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct iso_seed seeds[MAX_SEEDS];
	size_t n = iso_seeds(seeds, MAX_SEEDS), i;
	struct iso *s;
	char why[512];
	unsigned int v;

	if (argc == 3 && !strcmp(argv[1], "--corpus"))
		return write_corpus(argv[2], seeds, n);
	if (n >= MAX_SEEDS) {
		printf("not ok 1 - %zu seeds fill the array of %d: raise MAX_SEEDS\n",
		       n, MAX_SEEDS);
		return 1;
	}
	s = iso_new();
	for (i = 0; i < n; i++) {
		const struct iso_seed *sd = &seeds[i];

		v = iso_run(s, sd->data, sd->len, false, why, sizeof(why));
		ok(v == 0 && iso_last_accepted(s) == !sd->attack,
		   "through the parser: %s: %s, %u violations (%s)", sd->name,
		   iso_last_accepted(s) ? "accepted" : "refused", v, why);
		v = iso_run(s, sd->data, sd->len, true, why, sizeof(why));
		ok(v == 0 && (!sd->hw_blocks || iso_last_blocked(s) > 0),
		   "parser bypassed: %s: %u violations, %llu accesses blocked%s%s",
		   sd->name, v, (unsigned long long)iso_last_blocked(s),
		   v ? ": " : "", v ? why : "");
	}
	iso_free(s);
	return tap_done();
}
