// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * firmware/fit/digest.c (on Nettle): every algorithm against the
 * standards' test vectors ("abc" and the empty message of FIPS 180-4's
 * examples and RFC 1321's test suite) and against glib's GChecksum for
 * every length from 0 to 600 bytes (all the padding cases of 64- and
 * 128-byte blocks) of random data; an unknown algorithm gives 0.
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
	static const struct {
		const char *name, *msg, *hex;
	} vectors[] = {
		{ "md5", "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "md5", "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "sha1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ "sha256", "abc",
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "sha384", "abc",
		  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
		  "8086072ba1e7cc2358baeca134c825a7" },
		{ "sha512", "abc",
		  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
		{ "sha256", "",
		  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	};
	uint8_t buf[600], ours[GAUDI_DIGEST_MAX], theirs[64];
	unsigned int a, len, i, bad;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		char hex[2 * GAUDI_DIGEST_MAX + 1] = "";
		size_t n = gaudi_digest(vectors[i].name, vectors[i].msg,
					strlen(vectors[i].msg), ours);

		for (len = 0; len < n; len++)
			snprintf(hex + 2 * len, 3, "%02x", ours[len]);
		ok(n * 2 == strlen(vectors[i].hex) &&
		   !strcmp(hex, vectors[i].hex), "%s(\"%s\"): the standard's digest",
		   vectors[i].name, vectors[i].msg);
	}

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
