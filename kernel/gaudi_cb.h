/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: command buffers: the CB ioctl, mmap, handles (gaudi_cb.c).
 */
#ifndef GAUDI_CB_H
#define GAUDI_CB_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct file;
struct gaudi_cb;
struct gaudi_ctx;
struct vm_area_struct;

int gaudi_cb_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int gaudi_mmap(struct file *filp, struct vm_area_struct *vma);
struct gaudi_cb *gaudi_cb_get(struct gaudi_ctx *ctx, u64 handle);
struct gaudi_cb *gaudi_cb_get_by_va(struct gaudi_ctx *ctx, u64 va, u32 len,
				    u64 *offset);
void gaudi_cb_put(struct gaudi_cb *cb);
void *gaudi_cb_vaddr(struct gaudi_cb *cb, u32 *size);
void gaudi_cb_ctx_fini(struct gaudi_ctx *ctx);
void gaudi_cb_ctx_revoke(struct gaudi_ctx *ctx);

#endif /* GAUDI_CB_H */
