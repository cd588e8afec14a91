// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Message digests for FIT image hashes: the algorithms u-boot's FIT format
 * names (MD5, SHA-1, SHA-256, SHA-384, SHA-512), computed by Nettle
 * (Debian's nettle-dev), which gaudi-fw and the device model link.
 * tests/fw checks every algorithm against the standards' test vectors and
 * glib's GChecksum.
 */
#include <string.h>

#include <nettle/md5.h>
#include <nettle/nettle-meta.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>

#include "digest.h"

_Static_assert(SHA512_DIGEST_SIZE == GAUDI_DIGEST_MAX,
               "GAUDI_DIGEST_MAX is SHA-512's digest size");

size_t gaudi_digest(const char *algo, const void *data, size_t len,
                    uint8_t out[GAUDI_DIGEST_MAX])
{
    static const struct {
        const char *name;
        const struct nettle_hash *hash;
    } algos[] = {
        { "md5", &nettle_md5 },       { "sha1", &nettle_sha1 },
        { "sha256", &nettle_sha256 }, { "sha384", &nettle_sha384 },
        { "sha512", &nettle_sha512 },
    };
    /* The largest context of the five: SHA-512's (SHA-384 shares it). */
    union {
        struct md5_ctx md5;
        struct sha1_ctx sha1;
        struct sha256_ctx sha256;
        struct sha512_ctx sha512;
    } ctx;
    size_t i;

    for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++) {
        const struct nettle_hash *h = algos[i].hash;

        if (strcmp(algo, algos[i].name)) {
            continue;
        }
        if (h->context_size > sizeof(ctx) ||
            h->digest_size > GAUDI_DIGEST_MAX) {
            return 0;
        }
        h->init(&ctx);
        h->update(&ctx, len, data);
        h->digest(&ctx, h->digest_size, out);
        return h->digest_size;
    }
    return 0;
}
