/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Message digests of the FIT hash algorithms (digest.c).
 */
#ifndef GAUDI_DIGEST_H
#define GAUDI_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define GAUDI_DIGEST_MAX 64 /* SHA-512 */

/*
 * The digest of @data by @algo ("md5", "sha1", "sha256", "sha384",
 * "sha512") into @out; returns its length, 0 for an unknown algorithm.
 */
size_t gaudi_digest(const char *algo, const void *data, size_t len,
                    uint8_t out[GAUDI_DIGEST_MAX]);

#endif /* GAUDI_DIGEST_H */
