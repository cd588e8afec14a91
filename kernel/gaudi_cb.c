// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: command buffers (DRM_IOCTL_HL_CB) and their mmap.
 *
 * A CB is DMA-coherent host memory that the process fills through mmap and
 * names in a CS.  Handles live in an xarray of the open file, so a handle
 * of another file is simply unknown (-EINVAL).  The handle has upstream's
 * form, (id | HL_MMAP_TYPE_CB) << PAGE_SHIFT, and is also the mmap offset
 * of the CB on the file.  A CB stays alive while a mapping of it exists,
 * even after DESTROY.
 *
 * With HL_CB_FLAGS_MAP the CB is also mapped into the device MMU (the
 * first 4 GiB of the host VA range); INFO with HL_CB_FLAGS_GET_DEVICE_VA
 * returns that address, which CSs on internal queues name as their CB.
 */
#include <linux/compat.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/pfn_t.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "gaudi_acct.h"
#include "gaudi_cb.h"
#include "gaudi_dp_types.h"
#include "gaudi_file_types.h"
#include "gaudi_layout.h"
#include "gaudi_mmu.h"
#include "gaudi_queue.h"
#include "gaudi_types.h"

#define GAUDI_MMAP_TYPE_SHIFT	(59 - PAGE_SHIFT)
#define GAUDI_MMAP_TYPE_MASK	(0x1FULL << GAUDI_MMAP_TYPE_SHIFT)
#define GAUDI_MMAP_TYPE_CB	(0x2ULL << GAUDI_MMAP_TYPE_SHIFT)

/*
 * A 32-bit process cannot name that offset: mmap2() takes a 32-bit page
 * offset, so byte offsets stop at 2^44, and upstream's type sits at bit
 * 60.  CREATE from a compat task returns a handle with the type at page
 * offset bits 31:27 instead ((id | 0x2 << 27) << PAGE_SHIFT, ids below
 * 2^27); both forms name the same CB everywhere a handle is taken.  A
 * page offset with bits 63:32 clear is never of upstream's form.
 */
#define GAUDI_MMAP_COMPAT_SHIFT	27
#define GAUDI_MMAP_COMPAT_MASK	(0x1FULL << GAUDI_MMAP_COMPAT_SHIFT)
#define GAUDI_MMAP_COMPAT_CB	(0x2ULL << GAUDI_MMAP_COMPAT_SHIFT)
#define GAUDI_CB_ID_MAX		INT_MAX
#define GAUDI_CB_COMPAT_ID_MAX	((u32)BIT(GAUDI_MMAP_COMPAT_SHIFT) - 1)

struct gaudi_cb {
	struct kref ref;
	struct gaudi_device *gdev;
	struct gaudi_ctx *ctx;	/* outlives the CB: mappings hold the file */
	struct list_head live;	/* ctx->cb_live */
	u32 id;
	u32 size;		/* allocated, page multiple */
	void *vaddr;		/* NULL once a removal took the memory back */
	dma_addr_t dma;
	bool mapped;		/* in the device MMU at va_node.start */
	struct drm_mm_node va_node;
};

static u64 gaudi_cb_handle(u32 id, bool compat)
{
	if (compat)
		return ((u64)id | GAUDI_MMAP_COMPAT_CB) << PAGE_SHIFT;
	return ((u64)id | GAUDI_MMAP_TYPE_CB) << PAGE_SHIFT;
}

static void gaudi_cb_release(struct kref *ref)
{
	struct gaudi_cb *cb = container_of(ref, struct gaudi_cb, ref);
	struct gaudi_ctx *ctx = cb->ctx;

	mutex_lock(&ctx->cb_live_lock);
	list_del(&cb->live);
	if (cb->vaddr)
		dma_free_coherent(&cb->gdev->pdev->dev, cb->size, cb->vaddr,
				  cb->dma);
	mutex_unlock(&ctx->cb_live_lock);
	kfree(cb);
}

void gaudi_cb_put(struct gaudi_cb *cb)
{
	kref_put(&cb->ref, gaudi_cb_release);
}

void *gaudi_cb_vaddr(struct gaudi_cb *cb, u32 *size)
{
	*size = cb->size;
	return cb->vaddr;
}

static u32 gaudi_cb_id(u64 handle)
{
	u64 pgoff = handle >> PAGE_SHIFT;

	if (handle & ~PAGE_MASK)
		return 0;
	if (!(pgoff >> 32)) {
		if ((pgoff & GAUDI_MMAP_COMPAT_MASK) != GAUDI_MMAP_COMPAT_CB)
			return 0;
		return pgoff & ~GAUDI_MMAP_COMPAT_MASK;
	}
	if ((pgoff & GAUDI_MMAP_TYPE_MASK) != GAUDI_MMAP_TYPE_CB)
		return 0;
	pgoff &= ~GAUDI_MMAP_TYPE_MASK;
	return pgoff > U32_MAX ? 0 : (u32)pgoff;
}

struct gaudi_cb *gaudi_cb_get(struct gaudi_ctx *ctx, u64 handle)
{
	u32 id = gaudi_cb_id(handle);
	struct gaudi_cb *cb;

	if (!id)
		return NULL;
	xa_lock(&ctx->cbs);
	cb = xa_load(&ctx->cbs, id);
	if (cb)
		kref_get(&cb->ref);
	xa_unlock(&ctx->cbs);
	return cb;
}

/* The CB of this file mapped at device address @va (@len bytes from it). */
struct gaudi_cb *gaudi_cb_get_by_va(struct gaudi_ctx *ctx, u64 va, u32 len,
				    u64 *offset)
{
	struct gaudi_cb *cb, *found = NULL;
	unsigned long id;

	xa_lock(&ctx->cbs);
	xa_for_each(&ctx->cbs, id, cb) {
		if (!cb->mapped || va < cb->va_node.start ||
		    va - cb->va_node.start >= cb->size ||
		    len > cb->size - (va - cb->va_node.start))
			continue;
		kref_get(&cb->ref);
		*offset = va - cb->va_node.start;
		found = cb;
		break;
	}
	xa_unlock(&ctx->cbs);
	return found;
}

/* Device mappings of CBs change under ctx->lock (cb->mapped, ctx->cb_va). */
static void gaudi_cb_unmap_device(struct gaudi_ctx *ctx, struct gaudi_cb *cb)
{
	lockdep_assert_held(&ctx->lock);

	if (!cb->mapped)
		return;
	gaudi_mmu_unmap(ctx->gdev, cb->va_node.start, cb->size, SZ_4K);
	gaudi_mmu_invalidate(ctx->gdev);
	drm_mm_remove_node(&cb->va_node);
	cb->mapped = false;
}

static int gaudi_cb_map_device(struct gaudi_ctx *ctx, struct gaudi_cb *cb)
{
	int ret;

	lockdep_assert_held(&ctx->lock);

	ret = drm_mm_insert_node_in_range(&ctx->cb_va, &cb->va_node, cb->size,
					  PAGE_SIZE, 0, GAUDI_VA_CB_START,
					  GAUDI_VA_CB_END, DRM_MM_INSERT_LOW);
	if (ret)
		return ret;
	ret = gaudi_mmu_map(ctx->gdev, cb->va_node.start,
			    gaudi_host_dev_addr(cb->dma), cb->size, SZ_4K);
	if (ret) {
		drm_mm_remove_node(&cb->va_node);
		return ret;
	}
	cb->mapped = true;
	return 0;
}

static int gaudi_cb_create(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			   u32 size, u32 flags, u64 *handle)
{
	bool compat = in_compat_syscall();
	struct gaudi_cb *cb;
	u32 id;
	int ret;

	if (size > HL_MAX_CB_SIZE) {
		gaudi_dbg(gdev, IOCTL, "CB: size %u over the maximum %u\n",
			  size, HL_MAX_CB_SIZE);
		return -EINVAL;
	}
	cb = kzalloc(sizeof(*cb), GFP_KERNEL);
	if (!cb)
		return -ENOMEM;
	kref_init(&cb->ref);
	cb->gdev = gdev;
	cb->ctx = ctx;
	cb->size = PAGE_ALIGN(max_t(u32, size, 1));
	cb->vaddr = dma_alloc_coherent(&gdev->pdev->dev, cb->size, &cb->dma,
				       GFP_KERNEL);
	if (!cb->vaddr) {
		kfree(cb);
		return -ENOMEM;
	}
	mutex_lock(&ctx->cb_live_lock);
	list_add_tail(&cb->live, &ctx->cb_live);
	mutex_unlock(&ctx->cb_live_lock);

	mutex_lock(&ctx->lock);
	if (ctx->cb_count >= GAUDI_CB_MAX_COUNT ||
	    ctx->cb_bytes + cb->size > GAUDI_CB_MAX_BYTES) {
		ret = ctx->cb_count >= GAUDI_CB_MAX_COUNT ? -EMFILE : -ENOMEM;
		mutex_unlock(&ctx->lock);
		gaudi_dbg(gdev, IOCTL, "CB: over %u CBs or %u MiB of CBs\n",
			  GAUDI_CB_MAX_COUNT, GAUDI_CB_MAX_BYTES >> 20);
		gaudi_cb_put(cb);
		return ret;
	}
	if (flags & HL_CB_FLAGS_MAP) {
		ret = gaudi_cb_map_device(ctx, cb);
		if (ret) {
			mutex_unlock(&ctx->lock);
			gaudi_dbg(gdev, IOCTL, "CB: device mapping failed: %d\n",
				  ret);
			gaudi_cb_put(cb);
			return ret;
		}
	}
	ret = xa_alloc(&ctx->cbs, &id, cb,
		       XA_LIMIT(1, compat ? GAUDI_CB_COMPAT_ID_MAX :
					    GAUDI_CB_ID_MAX), GFP_KERNEL);
	if (ret) {
		gaudi_cb_unmap_device(ctx, cb);
		mutex_unlock(&ctx->lock);
		gaudi_cb_put(cb);
		return ret;
	}
	cb->id = id;
	ctx->cb_count++;
	ctx->cb_bytes += cb->size;
	mutex_unlock(&ctx->lock);

	gaudi_file_host_add(ctx->gfile, cb->size);
	*handle = gaudi_cb_handle(id, compat);
	gaudi_dbg(gdev, IOCTL, "CB %u created, %u bytes\n", id, cb->size);
	return 0;
}

static int gaudi_cb_destroy(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			    u64 handle)
{
	u32 id = gaudi_cb_id(handle);
	struct gaudi_cb *cb;

	mutex_lock(&ctx->lock);
	cb = id ? xa_erase(&ctx->cbs, id) : NULL;
	if (cb) {
		gaudi_cb_unmap_device(ctx, cb);
		ctx->cb_count--;
		ctx->cb_bytes -= cb->size;
	}
	mutex_unlock(&ctx->lock);
	if (!cb) {
		gaudi_dbg(gdev, IOCTL, "CB destroy: unknown handle 0x%llx\n",
			  handle);
		return -EINVAL;
	}
	atomic64_sub(cb->size, &ctx->gfile->host_bytes);
	gaudi_cb_put(cb);
	return 0;
}

static int gaudi_cb_op(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
		       union hl_cb_args *args)
{
	struct gaudi_cb *cb;
	u64 handle = 0;
	int ret;

	switch (args->in.op) {
	case HL_CB_OP_CREATE:
		if (args->in.flags & ~HL_CB_FLAGS_MAP)
			return -EINVAL;
		ret = gaudi_cb_create(gdev, ctx, args->in.cb_size,
				      args->in.flags, &handle);
		if (ret)
			return ret;
		memset(args, 0, sizeof(*args));
		args->out.cb_handle = handle;
		return 0;
	case HL_CB_OP_DESTROY:
		return gaudi_cb_destroy(gdev, ctx, args->in.cb_handle);
	case HL_CB_OP_INFO:
		if (args->in.flags & ~HL_CB_FLAGS_GET_DEVICE_VA)
			return -EINVAL;
		cb = gaudi_cb_get(ctx, args->in.cb_handle);
		if (!cb) {
			gaudi_dbg(gdev, IOCTL, "CB info: unknown handle 0x%llx\n",
				  args->in.cb_handle);
			return -EINVAL;
		}
		ret = 0;
		if (args->in.flags & HL_CB_FLAGS_GET_DEVICE_VA) {
			mutex_lock(&ctx->lock);
			if (cb->mapped)
				handle = cb->va_node.start;
			else
				ret = -EINVAL;
			mutex_unlock(&ctx->lock);
			memset(args, 0, sizeof(*args));
			args->out.device_va = handle;
		} else {
			/* CBs are copied at submission: never in use. */
			memset(args, 0, sizeof(*args));
			args->out.usage_cnt = 0;
		}
		gaudi_cb_put(cb);
		return ret;
	default:
		gaudi_dbg(gdev, IOCTL, "CB: unknown op %u\n", args->in.op);
		return -EINVAL;
	}
}

/* Inside drm_dev_enter(): a removal takes CB memory back after it. */
int gaudi_cb_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct gaudi_file *gfile = file->driver_priv;
	struct gaudi_ctx *ctx = gfile ? gfile->ctx : NULL;
	int idx, ret;

	if (!ctx)
		return -EINVAL;
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = gaudi_cb_op(to_gaudi(drm), ctx, data);
	drm_dev_exit(idx);
	return ret;
}

/* Every CB handle of a closing file goes away (mappings may outlive it). */
void gaudi_cb_ctx_fini(struct gaudi_ctx *ctx)
{
	struct gaudi_cb *cb;
	unsigned long id;

	mutex_lock(&ctx->lock);
	xa_for_each(&ctx->cbs, id, cb) {
		xa_erase(&ctx->cbs, id);
		gaudi_cb_unmap_device(ctx, cb);
		atomic64_sub(cb->size, &ctx->gfile->host_bytes);
		gaudi_cb_put(cb);
	}
	mutex_unlock(&ctx->lock);
}

/*
 * The card is being removed: the device reads no CB any more and every
 * mapping was zapped (drm_dev_unplug()).  Give the memory of all CBs of
 * the context back now, while the device is bound; the CBs themselves
 * live on until their handles and mappings go, their memory replaced by
 * the device's dummy page (gaudi_cb_vm_fault()).
 */
void gaudi_cb_ctx_revoke(struct gaudi_ctx *ctx)
{
	struct device *dev = &ctx->gdev->pdev->dev;
	struct gaudi_cb *cb;

	mutex_lock(&ctx->cb_live_lock);
	list_for_each_entry(cb, &ctx->cb_live, live) {
		if (!cb->vaddr)
			continue;
		dma_free_coherent(dev, cb->size, cb->vaddr, cb->dma);
		cb->vaddr = NULL;
	}
	mutex_unlock(&ctx->cb_live_lock);
}

/* ---- mmap ------------------------------------------------------------------ */

/*
 * Mappings are populated at mmap; a fault means the card was removed and
 * its mappings zapped.  The process reads zeros from then on (and may
 * write, to no effect) instead of dying of SIGBUS, as DRM asks of drivers
 * for a hot-unplugged device.
 */
static vm_fault_t gaudi_cb_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct gaudi_cb *cb = vma->vm_private_data;
	struct page *page = cb->gdev->dummy_page;
	unsigned long pfn;

	if (!page || !drm_dev_is_unplugged(&cb->gdev->drm))
		return VM_FAULT_SIGBUS;
	pfn = page_to_pfn(page);
	if (vma->vm_flags & VM_MIXEDMAP)
		return vmf_insert_mixed(vma, vmf->address,
					__pfn_to_pfn_t(pfn, 0));
	return vmf_insert_pfn(vma, vmf->address, pfn);
}

static void gaudi_cb_vm_open(struct vm_area_struct *vma)
{
	struct gaudi_cb *cb = vma->vm_private_data;

	kref_get(&cb->ref);
}

static void gaudi_cb_vm_close(struct vm_area_struct *vma)
{
	gaudi_cb_put(vma->vm_private_data);
}

static const struct vm_operations_struct gaudi_cb_vm_ops = {
	.open = gaudi_cb_vm_open,
	.close = gaudi_cb_vm_close,
	.fault = gaudi_cb_vm_fault,
};

/* file_operations.mmap of the compute node: offset = CB handle. */
int gaudi_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct drm_file *file = filp->private_data;
	struct gaudi_file *gfile = file->driver_priv;
	struct gaudi_ctx *ctx = gfile ? gfile->ctx : NULL;
	struct gaudi_device *gdev = to_gaudi(file->minor->dev);
	unsigned long size = vma->vm_end - vma->vm_start;
	struct gaudi_cb *cb;
	int idx, ret;

	if (!ctx)
		return -EINVAL;
	cb = gaudi_cb_get(ctx, (u64)vma->vm_pgoff << PAGE_SHIFT);
	if (!cb) {
		gaudi_dbg(gdev, IOCTL, "mmap: no CB at offset 0x%llx\n",
			  (u64)vma->vm_pgoff << PAGE_SHIFT);
		return -EINVAL;
	}
	if (size > cb->size) {
		gaudi_dbg(gdev, IOCTL, "mmap: %lu bytes of a %u-byte CB\n",
			  size, cb->size);
		gaudi_cb_put(cb);
		return -EINVAL;
	}
	/* The removal zaps mappings after this section, frees after that. */
	if (!drm_dev_enter(&gdev->drm, &idx)) {
		gaudi_cb_put(cb);
		return -ENODEV;
	}
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP | VM_DONTCOPY |
			  VM_NORESERVE);
	vma->vm_pgoff = 0;
	ret = dma_mmap_coherent(&gdev->pdev->dev, vma, cb->vaddr, cb->dma,
				size);
	drm_dev_exit(idx);
	if (ret) {
		gaudi_cb_put(cb);
		return ret;
	}
	vma->vm_private_data = cb;	/* the reference is the mapping's */
	vma->vm_ops = &gaudi_cb_vm_ops;
	return 0;
}
