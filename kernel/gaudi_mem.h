/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko: the MEMORY ioctl, user mappings and HBM, the page-fault
 * capture, device VA for the RDMA driver (gaudi_mem.c).
 */
#ifndef GAUDI_MEM_H
#define GAUDI_MEM_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct gaudi_ctx;
struct gaudi_device;
struct gaudi_file;
struct hl_info_dram_usage;
struct work_struct;

int gaudi_mem_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
void gaudi_mem_ctx_fini(struct gaudi_ctx *ctx);
int gaudi_mem_sw_init(struct gaudi_device *gdev);
void gaudi_mem_sw_fini(struct gaudi_device *gdev);
void gaudi_mem_dram_usage(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  struct hl_info_dram_usage *du);
bool gaudi_mem_range_mapped(struct gaudi_ctx *ctx, u64 va, u64 len);
int gaudi_mem_copy_from_map(struct gaudi_ctx *ctx, u64 va, void *buf, u32 len);
void gaudi_mem_pf_work(struct work_struct *work);
void gaudi_mem_pf_clear(struct gaudi_device *gdev);
int gaudi_mem_pf_mappings(struct gaudi_device *gdev, u32 size,
			  u32 *array_size, void **out, size_t *out_len);
u64 gaudi_mem_ctx_dram_bytes(struct gaudi_file *gfile);
struct gaudi_map;
struct gaudi_map *gaudi_mem_hold(struct gaudi_ctx *ctx, u64 va, u64 len);
void gaudi_mem_unhold(struct gaudi_ctx *ctx, struct gaudi_map *map);

/*
 * Device VA of the holder's host range for the RDMA driver's pages
 * (gaudi_mem.c; through gaudi_cn_rdma_ops).
 */
struct gaudi_va;
int gaudi_mem_va_reserve(struct gaudi_ctx *ctx, u64 *va, u64 size, u64 align,
			 bool fixed, struct gaudi_va **out);
int gaudi_mem_va_map(struct gaudi_ctx *ctx, struct gaudi_va *r, u64 off,
		     const dma_addr_t *dma, unsigned long npages);
void gaudi_mem_va_unmap(struct gaudi_ctx *ctx, struct gaudi_va *r, u64 off,
			unsigned long npages);
void gaudi_mem_va_release(struct gaudi_ctx *ctx, struct gaudi_va *r);

#endif /* GAUDI_MEM_H */
