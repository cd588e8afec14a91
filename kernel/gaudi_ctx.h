/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the holder's context, open and close (gaudi_ctx.c).
 */
#ifndef GAUDI_CTX_H
#define GAUDI_CTX_H

struct gaudi_ctx;
struct gaudi_device;
struct gaudi_file;

/* Per-file context (gaudi_ctx.c), called by gaudi_file.c. */
int gaudi_ctx_open(struct gaudi_device *gdev, struct gaudi_file *gfile);
void gaudi_ctx_close(struct gaudi_file *gfile);
void gaudi_ctx_revoke(struct gaudi_ctx *ctx);
void gaudi_ctx_free(struct gaudi_file *gfile);

#endif /* GAUDI_CTX_H */
