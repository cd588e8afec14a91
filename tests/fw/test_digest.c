// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * firmware/fit/digest.c against glib's GChecksum (the library the model
 * used before): every algorithm, every length from 0 to 600 bytes (all
 * the padding cases of 64- and 128-byte blocks), random data; an unknown
 * algorithm gives 0.
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "tap.h"

int main(void)
{
	static const struct {
		const char *name;
		GChecksumType type;
		size_t len;
	} algos[] = {
		{ "md5", G_CHECKSUM_MD5, 16 },
		{ "sha1", G_CHECKSUM_SHA1, 20 },
		{ "sha256", G_CHECKSUM_SHA256, 32 },
		{ "sha384", G_CHECKSUM_SHA384, 48 },
		{ "sha512", G_CHECKSUM_SHA512, 64 },
	};
	uint8_t buf[600], ours[GAUDI_DIGEST_MAX], theirs[64];
	unsigned int a, len, i, bad;

	srand(1);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = rand();
	for (a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		bad = 0;
		for (len = 0; len <= sizeof(buf); len++) {
			GChecksum *sum = g_checksum_new(algos[a].type);
			gsize glen = sizeof(theirs);
			size_t n = gaudi_digest(algos[a].name, buf, len, ours);

			g_checksum_update(sum, buf, len);
			g_checksum_get_digest(sum, theirs, &glen);
			g_checksum_free(sum);
			if (n != algos[a].len || n != glen ||
			    memcmp(ours, theirs, n))
				bad++;
		}
		ok(!bad, "%s: 601 lengths agree with GChecksum (%u differ)",
		   algos[a].name, bad);
	}
	ok(gaudi_digest("sha224", buf, 1, ours) == 0,
	   "an algorithm FIT images do not use: 0");
	ok(gaudi_digest("", buf, 1, ours) == 0, "an empty name: 0");
	return tap_done();
}
