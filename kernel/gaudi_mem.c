// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: DRM_IOCTL_HL_MEMORY.
 *
 * MAP with HL_MEM_USERPTR pins the user's pages, maps them for DMA and
 * puts them in the device MMU under ASID 1 at a device VA of the host
 * range (from 0x1_0001_0000_0000; the hint is honoured when it is free and
 * page aligned, HL_MEM_FORCE_HINT makes it mandatory).  Runs of DMA
 * addresses that are 2 MiB aligned on both sides get 2 MiB pages, the rest
 * 4 KiB pages.  The returned address keeps the host address's offset in
 * its page, as upstream.  UNMAP takes that address back.
 *
 * Extension (upstream refuses HL_MEM_OP_ALLOC on Gaudi 1): ALLOC reserves
 * physical HBM in 2 MiB units from the user part (0x2000_0000..32 GiB) and
 * returns a handle; MAP of that handle (no USERPTR flag) returns the
 * physical HBM address (Gaudi 1 has no MMU in front of HBM), FREE releases
 * it.  The allocations show in INFO DRAM_USAGE and in fdinfo
 * (drm-total-vram / drm-resident-vram).
 *
 * EXPORT_DMABUF_FD (upstream's Gaudi 1 semantics): a page-aligned range of
 * the user part of HBM, named by its physical address, becomes a dma-buf
 * whose importers reach it through BAR4 (dma_map_resource of the BAR
 * range; peer-to-peer importers only).  The dma-buf holds a reference on
 * the DRM device, not on the file: it may outlive the context.  It cannot
 * outlive the memory it exposes: a range inside an allocation of the file
 * holds that allocation, so FREE (or close) drops the handle but the HBM
 * goes back to the allocator only with the last dma-buf on it.  And since
 * any holder can name any user HBM physically, the next holder may not
 * open while dma-bufs of the previous one are alive (as upstream, whose
 * dma-bufs hold the context, which keeps the device "in use"); their
 * ranges are cleared before it opens (gaudi_scrub.c).
 */
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/fcntl.h>
#include <linux/genalloc.h>
#include <linux/highmem.h>
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "gaudi1/memmap.h"
#include "gaudi_acct.h"
#include "gaudi_dp_types.h"
#include "gaudi_file_types.h"
#include "gaudi_layout.h"
#include "gaudi_mem.h"
#include "gaudi_mmu.h"
#include "gaudi_queue.h"
#include "gaudi_scrub.h"
#include "gaudi_types.h"

/*
 * Host pages are pinned and DMA-mapped once per context, and a device has
 * one context at a time (Documentation/accel/gaudi.rst, "Host memory"): a
 * MAP pins its range, keeps the pins of the pages the context does not
 * hold yet as a new pin set (one dma_map_sgtable() of them), drops its
 * pins of the others, and points the device MMU at the DMA addresses of
 * whichever set holds each page.  ctx->pins finds a page's set by page
 * frame number.  A set lives while a mapping uses any of its pages.
 */
struct gaudi_pinset {
	u32 refs;			/* ctx->lock: mappings using it, + MAP */
	bool dma_mapped;
	bool counted;			/* in the file's host_bytes */
	u64 mark;			/* ctx->lock: gaudi_map_walk() */
	struct page **pages;		/* one pin each */
	unsigned long npages;
	struct mm_struct *mm;		/* charged with the pins, held */
	struct sg_table sgt;		/* one entry per run */
	struct list_head runs;		/* struct gaudi_pinrun, in sgt order */
};

/* Physically contiguous pages of a set: ctx->pins maps their frames here. */
struct gaudi_pinrun {
	struct list_head node;
	struct gaudi_pinset *set;
	unsigned long pfn;
	unsigned long npages;
	dma_addr_t dma;
	bool in_tree;
};

struct gaudi_map {
	struct drm_mm_node node;	/* device VA, page aligned */
	u32 offset;			/* of the host address in its page */
	u64 size;			/* as asked */
	u32 holds;			/* ctx->lock: gaudi_mem_hold() */
	unsigned long nsets;
	struct gaudi_pinset **sets;	/* a reference on each */
	/*
	 * In device VA order; no pins of their own: @sets hold them.  For
	 * gaudi_mem_copy_from_map().
	 */
	struct page **pages;
};

/*
 * Pinned pages count against the owner's RLIMIT_MEMLOCK in mm->pinned_vm,
 * as RDMA's umem and VFIO charge theirs, unless it has CAP_IPC_LOCK; each
 * page once per context, by the set that pinned it.
 */
static bool gaudi_pin_over_limit(s64 total)
{
	return total > (s64)(rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT) &&
	       !capable(CAP_IPC_LOCK);
}

static int gaudi_pinset_charge(struct gaudi_device *gdev,
			       struct gaudi_ctx *ctx, struct gaudi_pinset *set)
{
	struct mm_struct *mm = current->mm;
	s64 total;

	total = atomic64_add_return(set->npages, &mm->pinned_vm);
	if (gaudi_pin_over_limit(total)) {
		atomic64_sub(set->npages, &mm->pinned_vm);
		gaudi_dbg(gdev, MMU, "MAP: %lu new pages over RLIMIT_MEMLOCK\n",
			  set->npages);
		return -ENOMEM;
	}
	mmgrab(mm);
	set->mm = mm;
	ctx->pin_pages += set->npages;
	return 0;
}

/* An HBM allocation: the handle's, and each dma-buf's inside it. */
struct gaudi_dram {
	struct kref ref;
	struct gaudi_device *gdev;
	u64 addr;
	u64 size;
};

static void gaudi_dram_release(struct kref *ref)
{
	struct gaudi_dram *d = container_of(ref, struct gaudi_dram, ref);
	struct gaudi_device *gdev = d->gdev;

	/*
	 * The allocator lives as long as the DRM device, which a dma-buf
	 * holding this allocation keeps, also after a removal.
	 */
	gen_pool_free(gdev->dp->mem.dram_pool, d->addr, d->size);
	kfree(d);
}

static struct gaudi_ctx *file_ctx(struct drm_file *file)
{
	struct gaudi_file *gfile = file->driver_priv;

	return gfile ? gfile->ctx : NULL;
}

bool gaudi_mem_range_mapped(struct gaudi_ctx *ctx, u64 va, u64 len)
{
	struct drm_mm_node *node;
	bool ok = false;

	mutex_lock(&ctx->lock);
	drm_mm_for_each_node_in_range(node, &ctx->va, va, va + 1) {
		ok = va >= node->start &&
		     len <= node->start + node->size - va;
		break;
	}
	mutex_unlock(&ctx->lock);
	return ok;
}

/**
 * gaudi_mem_copy_from_map() - read a host mapping of the context
 * @ctx: the context
 * @va: device VA of the first byte
 * @buf: where to copy
 * @len: bytes; [@va, @va + @len) must lie in one userptr mapping
 *
 * Reads the pinned pages through the kernel's mapping of them, as they are
 * now (the snapshot of a user-allocated CB, gaudi_cs.c); the mapping
 * cannot go away meanwhile (ctx->lock is held, UNMAP takes it).
 *
 * Return: 0, or -EINVAL if the range is not one mapping's.
 */
int gaudi_mem_copy_from_map(struct gaudi_ctx *ctx, u64 va, void *buf, u32 len)
{
	struct drm_mm_node *node;
	struct gaudi_map *map = NULL;
	u64 off;
	u32 n;

	mutex_lock(&ctx->lock);
	drm_mm_for_each_node_in_range(node, &ctx->va, va, va + 1) {
		if (va >= node->start && len <= node->start + node->size - va)
			map = container_of(node, struct gaudi_map, node);
		break;
	}
	if (!map) {
		mutex_unlock(&ctx->lock);
		return -EINVAL;
	}
	off = va - map->node.start;
	while (len) {
		struct page *pg = map->pages[off >> PAGE_SHIFT];
		void *p;

		n = min_t(u64, len, PAGE_SIZE - (off & ~PAGE_MASK));
		p = kmap_local_page(pg);
		memcpy(buf, p + (off & ~PAGE_MASK), n);
		kunmap_local(p);
		buf += n;
		off += n;
		len -= n;
	}
	mutex_unlock(&ctx->lock);
	return 0;
}

/* ---- user mappings at a page fault (HL_INFO_USER_MAPPINGS) -------------- */

#define GAUDI_PF_MAX_MAPS	65536

/*
 * The first page fault since the context opened: record its userptr
 * mappings (device VA as MAP returned it, size as asked).  Runs from a
 * work item: the IRQ thread may not wait for ctx->lock.  gaudi_ctx_close()
 * flushes it after unpublishing the context.
 */
void gaudi_mem_pf_work(struct work_struct *work)
{
	struct gaudi_dp *dp = container_of(work, struct gaudi_dp,
					   mem.pf_work);
	struct hl_user_mapping *m;
	struct gaudi_ctx *ctx;
	struct gaudi_map *map;
	unsigned long i;
	u32 n = 0;

	spin_lock_irq(&dp->lock);
	ctx = dp->mem.pf_captured ? NULL : dp->ctx;
	spin_unlock_irq(&dp->lock);
	if (!ctx)
		return;
	m = kvcalloc(GAUDI_PF_MAX_MAPS, sizeof(*m), GFP_KERNEL);
	if (!m)
		return;
	mutex_lock(&ctx->lock);
	xa_for_each(&ctx->maps, i, map) {
		if (n == GAUDI_PF_MAX_MAPS)
			break;
		m[n].dev_va = map->node.start + map->offset;
		m[n].size = map->size;
		n++;
	}
	mutex_unlock(&ctx->lock);
	spin_lock_irq(&dp->lock);
	if (!dp->mem.pf_captured && dp->ctx == ctx) {
		dp->mem.pf_captured = true;
		dp->mem.pf_nmaps = n;
		dp->mem.pf_maps = m;
		m = NULL;
	}
	spin_unlock_irq(&dp->lock);
	kvfree(m);
}

void gaudi_mem_pf_clear(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	struct hl_user_mapping *m;

	spin_lock_irq(&dp->lock);
	m = dp->mem.pf_maps;
	dp->mem.pf_maps = NULL;
	dp->mem.pf_nmaps = 0;
	dp->mem.pf_captured = false;
	spin_unlock_irq(&dp->lock);
	kvfree(m);
}

/*
 * As upstream: nothing captured is success with no entries; a buffer too
 * small for all of them is -ENOMEM (array_size tells how many there are).
 */
int gaudi_mem_pf_mappings(struct gaudi_device *gdev, u32 size,
			  u32 *array_size, void **out, size_t *out_len)
{
	struct gaudi_dp *dp = gdev->dp;
	struct hl_user_mapping *m;
	size_t len;
	u32 n;
	int ret = 0;

	*array_size = 0;
	*out = NULL;
	*out_len = 0;
	flush_work(&dp->mem.pf_work);
	spin_lock_irq(&dp->lock);
	n = dp->mem.pf_captured ? dp->mem.pf_nmaps : 0;
	spin_unlock_irq(&dp->lock);
	*array_size = n;
	len = (size_t)n * sizeof(*m);
	if (!n)
		return 0;
	if (size < len)
		return -ENOMEM;
	m = kvmalloc(len, GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	spin_lock_irq(&dp->lock);
	if (dp->mem.pf_captured && dp->mem.pf_nmaps == n)
		memcpy(m, dp->mem.pf_maps, len);
	else
		ret = -EAGAIN;
	spin_unlock_irq(&dp->lock);
	if (ret) {
		kvfree(m);
		return ret;
	}
	*out = m;
	*out_len = len;
	return 0;
}

/* fdinfo drm-total-vram: HBM the file allocated (extension). */
u64 gaudi_mem_ctx_dram_bytes(struct gaudi_file *gfile)
{
	return gfile->ctx ? READ_ONCE(gfile->ctx->dram_bytes) : 0;
}

/*
 * Whether the DMA layer bounces @sgt (swiotlb=force, or memory the device
 * cannot reach): the device then works on a copy, synchronised only at
 * map and unmap, since a mapping lives for many CSs (as upstream's).
 */
static bool gaudi_sgt_bounces(struct device *dev, struct sg_table *sgt)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i)
		if (dma_need_sync(dev, sg_dma_address(sg)))
			return true;
	return false;
}

/*
 * Length in pages of the physically contiguous run of at most @max pages
 * that starts at @pages[0]: one comparison per page (nth_page() is pointer
 * arithmetic where struct pages of consecutive frames are consecutive).
 */
static unsigned long gaudi_run_len(struct page **pages, unsigned long n,
				   unsigned long max)
{
	unsigned long i;

	n = min(n, max);
	for (i = 1; i < n; i++)
		if (pages[i] != nth_page(pages[0], i))
			break;
	return i;
}

/* Under ctx->lock, with no mapping left on @set. */
static void gaudi_pinset_release(struct gaudi_ctx *ctx,
				 struct gaudi_pinset *set)
{
	struct device *dev = &ctx->gdev->pdev->dev;
	struct gaudi_pinrun *run, *tmp;

	list_for_each_entry_safe(run, tmp, &set->runs, node) {
		if (run->in_tree)
			mtree_erase(&ctx->pins, run->pfn);
		list_del(&run->node);
		kfree(run);
	}
	if (set->dma_mapped) {
		dma_sync_sgtable_for_cpu(dev, &set->sgt, DMA_BIDIRECTIONAL);
		dma_unmap_sgtable(dev, &set->sgt, DMA_BIDIRECTIONAL,
				  DMA_ATTR_SKIP_CPU_SYNC);
	}
	sg_free_table(&set->sgt);
	unpin_user_pages_dirty_lock(set->pages, set->npages, set->dma_mapped);
	if (set->mm) {
		atomic64_sub(set->npages, &set->mm->pinned_vm);
		mmdrop(set->mm);
		ctx->pin_pages -= set->npages;
	}
	if (set->counted)
		atomic64_sub(set->npages << PAGE_SHIFT,
			     &ctx->gfile->host_bytes);
	kvfree(set->pages);
	kfree(set);
}

static void gaudi_pinset_put(struct gaudi_ctx *ctx, struct gaudi_pinset *set)
{
	if (!--set->refs)
		gaudi_pinset_release(ctx, set);
}

/* Enter @run into ctx->pins: its frames are no set's yet. */
static int gaudi_pinrun_insert(struct gaudi_ctx *ctx, struct gaudi_pinrun *run)
{
	int ret;

	ret = mtree_insert_range(&ctx->pins, run->pfn,
				 run->pfn + run->npages - 1, run, GFP_KERNEL);
	run->in_tree = !ret;
	return ret;
}

/*
 * Sort the @n pages a MAP pinned, under ctx->lock: a page the context
 * holds already (in ctx->pins, or earlier in @pages) loses the MAP's pin;
 * the others, in order, become the pages of a new set (*@setp, with the
 * MAP's reference; NULL when there are none) in runs of physically
 * contiguous pages, at most @max_bytes (the DMA layer's limit) and 2 MiB
 * each, entered in ctx->pins.  On failure every pin of @pages is dropped.
 */
static int gaudi_pinset_build(struct gaudi_ctx *ctx, struct page **pages,
			      unsigned long n, size_t max_bytes,
			      struct gaudi_pinset **setp)
{
	const unsigned long max = max_t(unsigned long, 1,
					min_t(size_t, SZ_2M, max_bytes) >>
					PAGE_SHIFT);
	bool used = !mtree_empty(&ctx->pins);
	struct gaudi_pinrun *run = NULL;
	struct gaudi_pinset *set;
	unsigned long i = 0, pfn;
	int ret = -ENOMEM;

	*setp = NULL;
	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		goto err_unpin;
	INIT_LIST_HEAD(&set->runs);
	set->refs = 1;
	set->pages = kvmalloc_array(n, sizeof(*set->pages),
				    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!set->pages)
		goto err_set;
	for (; i < n; i++) {
		pfn = page_to_pfn(pages[i]);
		if (run && pfn == run->pfn + run->npages && run->npages < max &&
		    (!used || !mtree_load(&ctx->pins, pfn))) {
			run->npages++;
			set->pages[set->npages++] = pages[i];
			continue;
		}
		if (run) {
			ret = gaudi_pinrun_insert(ctx, run);
			if (ret)
				goto err_set;
			used = true;
			run = NULL;
		}
		if (used && mtree_load(&ctx->pins, pfn)) {
			unpin_user_page(pages[i]);
			continue;
		}
		run = kzalloc(sizeof(*run), GFP_KERNEL);
		if (!run) {
			ret = -ENOMEM;
			goto err_set;
		}
		run->set = set;
		run->pfn = pfn;
		run->npages = 1;
		list_add_tail(&run->node, &set->runs);
		set->pages[set->npages++] = pages[i];
	}
	if (run) {
		ret = gaudi_pinrun_insert(ctx, run);
		if (ret)
			goto err_set;
	}
	if (!set->npages) {
		kvfree(set->pages);
		kfree(set);
		return 0;
	}
	*setp = set;
	return 0;

err_set:
	/* In the loop, pages[i] is not the set's yet. */
	if (set->pages)
		gaudi_pinset_release(ctx, set);
	else
		kfree(set);
err_unpin:
	if (i < n)
		unpin_user_pages(pages + i, n - i);
	return ret;
}

/*
 * DMA-map @set's runs as one scatterlist.  DMA_ATTR_SKIP_CPU_SYNC with
 * the syncs done here and at release: what a plain map and unmap do, and
 * the DMA API's way for a page that another device (another card's
 * context) maps too.
 */
static int gaudi_pinset_map(struct gaudi_device *gdev,
			    struct gaudi_pinset *set)
{
	struct device *dev = &gdev->pdev->dev;
	struct scatterlist *sg, *dsg;
	struct gaudi_pinrun *run;
	unsigned int nruns = 0;
	u64 off = 0;
	int ret;

	list_for_each_entry(run, &set->runs, node)
		nruns++;
	ret = sg_alloc_table(&set->sgt, nruns, GFP_KERNEL);
	if (ret)
		return ret;
	sg = set->sgt.sgl;
	list_for_each_entry(run, &set->runs, node) {
		sg_set_page(sg, pfn_to_page(run->pfn),
			    run->npages << PAGE_SHIFT, 0);
		sg = sg_next(sg);
	}
	ret = dma_map_sgtable(dev, &set->sgt, DMA_BIDIRECTIONAL,
			      DMA_ATTR_SKIP_CPU_SYNC);
	if (ret)
		return ret;
	set->dma_mapped = true;
	dma_sync_sgtable_for_device(dev, &set->sgt, DMA_BIDIRECTIONAL);
	if (gaudi_sgt_bounces(dev, &set->sgt))
		drm_info_once(&gdev->drm,
			      "host memory maps bounce through swiotlb: the device sees them as they were at MAP, user memory sees its writes at UNMAP\n");
	/*
	 * The DMA segments cover the runs in order, without gaps (page
	 * aligned entries), and never split one (an IOMMU merges entries,
	 * swiotlb and the direct map keep them).
	 */
	dsg = set->sgt.sgl;
	list_for_each_entry(run, &set->runs, node) {
		while (off >= sg_dma_len(dsg)) {
			off -= sg_dma_len(dsg);
			dsg = sg_next(dsg);
		}
		run->dma = sg_dma_address(dsg) + off;
		off += run->npages << PAGE_SHIFT;
	}
	return 0;
}

/*
 * The pages from @pages[0] on that one run holds contiguously (0 if none
 * holds @pages[0]: a driver bug), its run and the DMA address of @pages[0].
 */
static unsigned long gaudi_piece(struct gaudi_ctx *ctx, struct page **pages,
				 unsigned long n, struct gaudi_pinrun **runp,
				 dma_addr_t *dma)
{
	unsigned long pfn = page_to_pfn(pages[0]);
	struct gaudi_pinrun *run = mtree_load(&ctx->pins, pfn);

	*runp = run;
	if (!run)
		return 0;
	*dma = run->dma + ((dma_addr_t)(pfn - run->pfn) << PAGE_SHIFT);
	return gaudi_run_len(pages, n, run->pfn + run->npages - pfn);
}

/* Device MMU entries for [@va, @va + @len) at device address @pa. */
static int gaudi_map_piece(struct gaudi_device *gdev, u64 va, u64 pa,
			   u64 len)
{
	u64 start = va, step;
	int ret;

	while (len) {
		step = (IS_ALIGNED(va | pa, SZ_2M) && len >= SZ_2M) ?
		       SZ_2M : SZ_4K;
		ret = gaudi_mmu_map(gdev, va, pa, step, step);
		if (ret) {
			gaudi_mmu_unmap(gdev, start, va - start, 0);
			return ret;
		}
		va += step;
		pa += step;
		len -= step;
	}
	return 0;
}

/*
 * Under ctx->lock, every page of @pages in ctx->pins: @map takes a
 * reference on each set its pages are in, and the device MMU points its
 * VA at their DMA addresses (2 MiB pages where both sides are aligned, on
 * runs of contiguous DMA addresses).  On failure the MMU entries are gone
 * and @map keeps the references it took (gaudi_map_put_sets()).
 */
static int gaudi_map_walk(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			  struct gaudi_map *map, struct page **pages,
			  unsigned long n)
{
	u64 va = map->node.start, gen, cur_len = 0;
	dma_addr_t dma, cur = 0;
	struct gaudi_pinrun *run;
	unsigned long i, k, nsets = 0;
	int ret;

	gen = ++ctx->pin_gen;
	for (i = 0; i < n; i += k) {
		k = gaudi_piece(ctx, pages + i, n - i, &run, &dma);
		if (!k)
			return -EFAULT;
		if (run->set->mark != gen) {
			run->set->mark = gen;
			nsets++;
		}
	}
	map->sets = kvmalloc_array(nsets, sizeof(*map->sets), GFP_KERNEL);
	if (!map->sets)
		return -ENOMEM;
	gen = ++ctx->pin_gen;
	for (i = 0; i < n; i += k) {
		k = gaudi_piece(ctx, pages + i, n - i, &run, &dma);
		if (run->set->mark != gen) {
			run->set->mark = gen;
			run->set->refs++;
			map->sets[map->nsets++] = run->set;
		}
		if (cur_len && dma == cur + cur_len) {
			cur_len += (u64)k << PAGE_SHIFT;
			continue;
		}
		if (cur_len) {
			ret = gaudi_map_piece(gdev, va, gaudi_host_dev_addr(cur),
					      cur_len);
			if (ret)
				goto err;
			va += cur_len;
		}
		cur = dma;
		cur_len = (u64)k << PAGE_SHIFT;
	}
	ret = gaudi_map_piece(gdev, va, gaudi_host_dev_addr(cur), cur_len);
	if (!ret)
		return 0;
err:
	gaudi_mmu_unmap(gdev, map->node.start, va - map->node.start, 0);
	return ret;
}

static void gaudi_map_put_sets(struct gaudi_ctx *ctx, struct gaudi_map *map)
{
	unsigned long i;

	for (i = 0; i < map->nsets; i++)
		gaudi_pinset_put(ctx, map->sets[i]);
	kvfree(map->sets);
	map->sets = NULL;
	map->nsets = 0;
}

/* Under ctx->lock, @map out of ctx->maps. */
static void gaudi_map_release(struct gaudi_ctx *ctx, struct gaudi_map *map)
{
	struct gaudi_device *gdev = ctx->gdev;

	gaudi_mmu_unmap(gdev, map->node.start, map->node.size, 0);
	gaudi_mmu_invalidate(gdev);
	gaudi_map_put_sets(ctx, map);
	drm_mm_remove_node(&map->node);
	kvfree(map->pages);
	kfree(map);
}

static int gaudi_map_userptr(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			     union hl_mem_args *args)
{
	u64 addr = args->in.map_host.host_virt_addr;
	u64 size = args->in.map_host.mem_size;
	u64 hint = args->in.map_host.hint_addr;
	bool force = args->in.flags & HL_MEM_FORCE_HINT;
	struct gaudi_pinset *set = NULL;
	unsigned long start, npages;
	struct gaudi_map *map;
	struct page **pages;
	long pinned = 0, n;
	u64 align;
	int idx, ret;

	/*
	 * Address 0 is no special case: as upstream, it fails to pin with
	 * EFAULT like any other address without memory behind it.
	 */
	if (!size || addr + size < addr ||
	    size > GAUDI_VA_HOST_END - GAUDI_VA_USER_START) {
		gaudi_dbg(gdev, MMU, "MAP: bad host range 0x%llx + 0x%llx\n",
			  addr, size);
		return -EINVAL;
	}
	start = addr & PAGE_MASK;
	npages = (PAGE_ALIGN(addr + size) - start) >> PAGE_SHIFT;
	/*
	 * Only the pages the context does not hold yet are charged, which is
	 * known once they are pinned: the pins wait for that only within
	 * the limit plus what the context holds already.
	 */
	if (gaudi_pin_over_limit(atomic64_read(&current->mm->pinned_vm) +
				 (s64)npages -
				 (s64)READ_ONCE(ctx->pin_pages))) {
		gaudi_dbg(gdev, MMU, "MAP: %lu pages over RLIMIT_MEMLOCK\n",
			  npages);
		return -ENOMEM;
	}

	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	map->offset = addr & ~PAGE_MASK;
	map->size = size;
	/* Beyond what kvmalloc serves (1 TiB of pages): no WARN, ENOMEM. */
	pages = kvmalloc_array(npages, sizeof(*pages),
			       GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!pages) {
		gaudi_dbg(gdev, MMU, "MAP: no page array for %lu pages\n",
			  npages);
		ret = -ENOMEM;
		goto err_free;
	}
	while (pinned < npages) {
		n = pin_user_pages_fast(start + (pinned << PAGE_SHIFT),
					min_t(long, npages - pinned, SZ_64K),
					FOLL_WRITE | FOLL_LONGTERM,
					pages + pinned);
		if (n <= 0) {
			ret = n ? n : -EFAULT;
			gaudi_dbg(gdev, MMU, "MAP: cannot pin 0x%lx: %d\n",
				  start + (pinned << PAGE_SHIFT), ret);
			goto err_unpin;
		}
		pinned += n;
	}
	/*
	 * The pins may wait on the user's memory (userfaultfd, FUSE): taken
	 * before drm_dev_enter(), which a removal waits for.
	 */
	if (!drm_dev_enter(&gdev->drm, &idx)) {
		ret = -ENODEV;
		goto err_unpin;
	}
	mutex_lock(&ctx->lock);
	/* From here on the MAP's pins are the new set's or dropped. */
	ret = gaudi_pinset_build(ctx, pages, npages,
				 dma_max_mapping_size(&gdev->pdev->dev), &set);
	if (ret)
		goto err_unlock;
	if (set) {
		ret = gaudi_pinset_charge(gdev, ctx, set);
		if (!ret)
			ret = gaudi_pinset_map(gdev, set);
		if (ret)
			goto err_set;
	}

	align = (npages << PAGE_SHIFT) >= SZ_2M ? SZ_2M : PAGE_SIZE;
	ret = -ENOSPC;
	if (hint && IS_ALIGNED(hint, PAGE_SIZE)) {
		map->node.start = hint;
		map->node.size = npages << PAGE_SHIFT;
		ret = drm_mm_reserve_node(&ctx->va, &map->node);
	} else if (hint && force) {
		ret = -EINVAL;
	}
	if (ret && force) {
		gaudi_dbg(gdev, MMU, "MAP: hint 0x%llx cannot be used: %d\n",
			  hint, ret);
		ret = ret == -EINVAL ? -EINVAL : -ENOMEM;
		goto err_set;
	}
	if (ret)
		ret = drm_mm_insert_node_in_range(&ctx->va, &map->node,
						  npages << PAGE_SHIFT, align,
						  0, GAUDI_VA_USER_START,
						  GAUDI_VA_HOST_END,
						  DRM_MM_INSERT_LOW);
	if (ret) {
		ret = -ENOMEM;
		goto err_set;
	}
	ret = gaudi_map_walk(gdev, ctx, map, pages, npages);
	if (ret)
		goto err_node;
	ret = xa_insert(&ctx->maps, map->node.start >> PAGE_SHIFT, map,
			GFP_KERNEL);
	if (ret) {
		gaudi_mmu_unmap(gdev, map->node.start, map->node.size, 0);
		goto err_node;
	}
	if (set) {
		set->counted = true;
		gaudi_file_host_add(ctx->gfile, set->npages << PAGE_SHIFT);
		gaudi_pinset_put(ctx, set);	/* the map holds it now */
	}
	map->pages = pages;	/* the sets hold their pins */
	mutex_unlock(&ctx->lock);
	gaudi_mmu_invalidate(gdev);
	drm_dev_exit(idx);

	gaudi_dbg(gdev, MMU, "MAP: 0x%llx + 0x%llx at device VA 0x%llx (%lu new pages pinned)\n",
		  addr, size, map->node.start + map->offset,
		  set ? set->npages : 0);
	memset(args, 0, sizeof(*args));
	args->out.device_virt_addr = map->node.start + map->offset;
	return 0;

err_node:
	gaudi_map_put_sets(ctx, map);
	drm_mm_remove_node(&map->node);
err_set:
	if (set)
		gaudi_pinset_put(ctx, set);
err_unlock:
	mutex_unlock(&ctx->lock);
	drm_dev_exit(idx);
	pinned = 0;	/* none of them the MAP's any more */
err_unpin:
	if (pinned > 0)
		unpin_user_pages(pages, pinned);
	kvfree(pages);
err_free:
	kfree(map);
	return ret;
}

static int gaudi_unmap(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
		       u64 va)
{
	struct gaudi_map *map;

	mutex_lock(&ctx->lock);
	map = xa_load(&ctx->maps, (va & PAGE_MASK) >> PAGE_SHIFT);
	if (map && va - map->node.start != map->offset)
		map = NULL;
	if (map && map->holds) {
		u32 holds = map->holds;	/* the map may go once unlocked */

		mutex_unlock(&ctx->lock);
		gaudi_dbg(gdev, MMU, "UNMAP: 0x%llx is held (%u)\n", va, holds);
		return -EBUSY;
	}
	if (map) {
		xa_erase(&ctx->maps, map->node.start >> PAGE_SHIFT);
		gaudi_map_release(ctx, map);
	}
	mutex_unlock(&ctx->lock);
	if (!map) {
		gaudi_dbg(gdev, MMU, "UNMAP: nothing mapped at 0x%llx\n", va);
		return -EINVAL;
	}
	return 0;
}

/**
 * gaudi_mem_hold() - keep a host mapping from being unmapped
 * @ctx: the context
 * @va: a device VA inside the mapping
 * @len: bytes from @va, all inside the same mapping; not 0
 *
 * For users of a mapping beyond the CSs (RoCE memory regions): while held,
 * UNMAP of it fails with -EBUSY.  The holds must be dropped before
 * gaudi_mem_ctx_fini(), which releases every mapping.
 *
 * Return: the HL_MEM_USERPTR mapping of @ctx that covers [@va, @va +
 * @len) with one more hold, or NULL if none does.
 */
struct gaudi_map *gaudi_mem_hold(struct gaudi_ctx *ctx, u64 va, u64 len)
{
	struct gaudi_map *map = NULL;
	struct drm_mm_node *node;

	if (!len || va + len < va)
		return NULL;
	mutex_lock(&ctx->lock);
	drm_mm_for_each_node_in_range(node, &ctx->va, va, va + 1) {
		if (va >= node->start &&
		    len <= node->start + node->size - va)
			map = xa_load(&ctx->maps, node->start >> PAGE_SHIFT);
		if (map && &map->node != node)
			map = NULL;
		break;
	}
	if (map)
		map->holds++;
	mutex_unlock(&ctx->lock);
	return map;
}

/**
 * gaudi_mem_unhold() - drop a hold of gaudi_mem_hold()
 * @ctx: the context @map belongs to
 * @map: the mapping gaudi_mem_hold() returned
 */
void gaudi_mem_unhold(struct gaudi_ctx *ctx, struct gaudi_map *map)
{
	mutex_lock(&ctx->lock);
	if (!WARN_ON_ONCE(!map->holds))
		map->holds--;
	mutex_unlock(&ctx->lock);
}

/* ---- device VA for the RDMA driver (gaudi_cn.h) ------------------------ */

/*
 * A range of the holder's host VA the RDMA driver reserved: the pages it
 * maps there are its own (ib_umem pins, its DMA-coherent rings), not the
 * context's; ctx->maps does not know them, so no UNMAP, hold or CB
 * snapshot reaches them.
 */
struct gaudi_va {
	struct drm_mm_node node;
};

/**
 * gaudi_mem_va_reserve() - reserve device VA of the host range
 * @ctx: the holder's context
 * @va: in: the address wanted (with @fixed), out: the address reserved
 * @size: bytes, page aligned, not 0
 * @align: the alignment of a range the call picks (power of 2, >= 4 KiB)
 * @fixed: take *@va or fail
 * @out: the reservation
 *
 * Return: 0, -EINVAL for a bad range, -EBUSY if a fixed range is in use,
 * -ENOSPC when no range is free, -ENOMEM.
 */
int gaudi_mem_va_reserve(struct gaudi_ctx *ctx, u64 *va, u64 size, u64 align,
			 bool fixed, struct gaudi_va **out)
{
	struct gaudi_va *r;
	int ret;

	if (!size || !IS_ALIGNED(size, PAGE_SIZE) ||
	    (fixed && (!IS_ALIGNED(*va, PAGE_SIZE) ||
		       *va < GAUDI_VA_USER_START ||
		       *va + size < *va || *va + size > GAUDI_VA_HOST_END)))
		return -EINVAL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	mutex_lock(&ctx->lock);
	if (fixed) {
		r->node.start = *va;
		r->node.size = size;
		ret = drm_mm_reserve_node(&ctx->va, &r->node);
		if (ret == -ENOSPC)
			ret = -EBUSY;
	} else {
		ret = drm_mm_insert_node_in_range(&ctx->va, &r->node, size,
						  max_t(u64, align, PAGE_SIZE),
						  0, GAUDI_VA_USER_START,
						  GAUDI_VA_HOST_END,
						  DRM_MM_INSERT_LOW);
	}
	mutex_unlock(&ctx->lock);
	if (ret) {
		kfree(r);
		return ret;
	}
	*va = r->node.start;
	*out = r;
	return 0;
}

/**
 * gaudi_mem_va_map() - point pages of a reservation at DMA addresses
 * @ctx: the holder's context
 * @r: a reservation of gaudi_mem_va_reserve()
 * @off: bytes from its start, page aligned
 * @dma: DMA addresses (of the PCI function) of @npages pages of PAGE_SIZE
 * @npages: how many; [@off, @off + @npages pages) inside @r
 *
 * Return: 0, -EINVAL outside @r, or the MMU's error (nothing mapped).
 */
int gaudi_mem_va_map(struct gaudi_ctx *ctx, struct gaudi_va *r, u64 off,
		     const dma_addr_t *dma, unsigned long npages)
{
	struct gaudi_device *gdev = ctx->gdev;
	u64 va = r->node.start + off, start, len;
	unsigned long i, k;
	int ret = 0;

	if (!IS_ALIGNED(off, PAGE_SIZE) || off > r->node.size ||
	    npages > (r->node.size - off) >> PAGE_SHIFT)
		return -EINVAL;
	for (i = 0; i < npages; i += k) {
		/* Runs of contiguous DMA addresses, 2 MiB pages where aligned. */
		for (k = 1; i + k < npages &&
		     dma[i + k] == dma[i] + ((u64)k << PAGE_SHIFT); k++)
			;
		start = va + ((u64)i << PAGE_SHIFT);
		len = (u64)k << PAGE_SHIFT;
		ret = gaudi_map_piece(gdev, start, gaudi_host_dev_addr(dma[i]),
				      len);
		if (ret) {
			gaudi_mmu_unmap(gdev, va, (u64)i << PAGE_SHIFT, 0);
			break;
		}
	}
	gaudi_mmu_invalidate(gdev);
	return ret;
}

/**
 * gaudi_mem_va_unmap() - take pages of a reservation out of the MMU
 * @ctx: the holder's context
 * @r: the reservation
 * @off: bytes from its start, page aligned
 * @npages: pages (clamped to @r)
 *
 * When this returns the device no longer reaches them (the MMU's caches
 * are invalidated): their memory may be freed.
 */
void gaudi_mem_va_unmap(struct gaudi_ctx *ctx, struct gaudi_va *r, u64 off,
			unsigned long npages)
{
	u64 len = (u64)npages << PAGE_SHIFT;

	if (off >= r->node.size)
		return;
	len = min(len, r->node.size - off);
	gaudi_mmu_unmap(ctx->gdev, r->node.start + off, len, 0);
	gaudi_mmu_invalidate(ctx->gdev);
}

/**
 * gaudi_mem_va_release() - give a reservation back, unmapping all of it
 * @ctx: the holder's context
 * @r: the reservation
 */
void gaudi_mem_va_release(struct gaudi_ctx *ctx, struct gaudi_va *r)
{
	gaudi_mem_va_unmap(ctx, r, 0, r->node.size >> PAGE_SHIFT);
	mutex_lock(&ctx->lock);
	drm_mm_remove_node(&r->node);
	mutex_unlock(&ctx->lock);
	kfree(r);
}

/* ---- HBM allocation (extension) ---------------------------------------- */

static int gaudi_dram_alloc(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			    union hl_mem_args *args)
{
	u64 size = args->in.alloc.mem_size;
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_dram *d;
	unsigned long addr;
	u32 id;
	int ret;

	if (!size || size > GAUDI_HBM_SIZE ||
	    (args->in.alloc.page_size && args->in.alloc.page_size != SZ_2M) ||
	    (args->in.flags & ~(HL_MEM_CONTIGUOUS | HL_MEM_SHARED))) {
		gaudi_dbg(gdev, MMU, "ALLOC: bad size 0x%llx or flags 0x%x\n",
			  size, args->in.flags);
		return -EINVAL;
	}
	size = ALIGN(size, SZ_2M);
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	addr = gen_pool_alloc(dp->mem.dram_pool, size);
	if (!addr) {
		kfree(d);
		return -ENOMEM;
	}
	kref_init(&d->ref);
	d->gdev = gdev;
	d->addr = addr;
	d->size = size;
	ret = xa_alloc(&ctx->dram, &id, d, XA_LIMIT(1, INT_MAX), GFP_KERNEL);
	if (ret) {
		gen_pool_free(dp->mem.dram_pool, addr, size);
		kfree(d);
		return ret;
	}
	mutex_lock(&ctx->lock);
	WRITE_ONCE(ctx->dram_bytes, ctx->dram_bytes + size);
	if (ctx->dram_bytes > ctx->dram_peak)
		WRITE_ONCE(ctx->dram_peak, ctx->dram_bytes);
	mutex_unlock(&ctx->lock);
	memset(args, 0, sizeof(*args));
	args->out.handle = id;
	return 0;
}

/*
 * The HBM address of allocation @handle.  Under ctx->lock: a concurrent
 * FREE erases the handle and drops the allocation under the same lock.
 */
static int gaudi_dram_addr(struct gaudi_ctx *ctx, u64 handle, u64 *addr)
{
	struct gaudi_dram *d;

	if (!handle || handle > INT_MAX)
		return -EINVAL;
	mutex_lock(&ctx->lock);
	d = xa_load(&ctx->dram, handle);
	if (d)
		*addr = d->addr;
	mutex_unlock(&ctx->lock);
	return d ? 0 : -EINVAL;
}

static int gaudi_dram_free(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			   u64 handle)
{
	struct gaudi_dram *d;

	if (!handle || handle > INT_MAX)
		return -EINVAL;
	mutex_lock(&ctx->lock);
	d = xa_erase(&ctx->dram, handle);
	if (d)
		WRITE_ONCE(ctx->dram_bytes, ctx->dram_bytes - d->size);
	mutex_unlock(&ctx->lock);
	if (!d)
		return -EINVAL;
	/* Exported: the memory stays allocated until the dma-bufs go. */
	kref_put(&d->ref, gaudi_dram_release);
	return 0;
}

void gaudi_mem_dram_usage(struct gaudi_device *gdev, struct gaudi_file *gfile,
			  struct hl_info_dram_usage *du)
{
	struct gaudi_dp *dp = gdev->dp;
	struct gaudi_ctx *ctx = gfile ? gfile->ctx : NULL;

	memset(du, 0, sizeof(*du));
	du->dram_free_mem = gen_pool_avail(dp->mem.dram_pool);
	du->ctx_dram_mem = ctx ? READ_ONCE(ctx->dram_bytes) : 0;
}

/* ---- dma-buf export of HBM ---------------------------------------------- */

MODULE_IMPORT_NS(DMA_BUF);

struct gaudi_dmabuf {
	struct gaudi_device *gdev;
	u64 addr;		/* HBM physical address = BAR4 offset */
	u64 size;
	struct gaudi_dram *dram;	/* the allocation it is in, held */
};

/* BAR4 shows HBM from address 0; importers must reach it peer to peer. */
static int gaudi_dmabuf_attach(struct dma_buf *dmabuf,
			       struct dma_buf_attachment *attach)
{
	return attach->peer2peer ? 0 : -EOPNOTSUPP;
}

static struct sg_table *gaudi_dmabuf_map(struct dma_buf_attachment *attach,
					 enum dma_data_direction dir)
{
	struct gaudi_dmabuf *gb = attach->dmabuf->priv;
	unsigned int i, n = DIV_ROUND_UP_ULL(gb->size, SZ_1G);
	struct scatterlist *sg;
	struct sg_table *sgt;
	u64 off = 0, len;
	phys_addr_t bar;
	dma_addr_t dma;
	int ret, idx;

	/* A dma-buf can outlive its device: no BAR after an unplug. */
	if (!drm_dev_enter(&gb->gdev->drm, &idx))
		return ERR_PTR(-ENODEV);
	bar = pci_resource_start(gb->gdev->pdev, 4) + gb->addr;
	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL);
	if (!sgt) {
		ret = -ENOMEM;
		goto err_exit;
	}
	ret = sg_alloc_table(sgt, n, GFP_KERNEL);
	if (ret)
		goto err_free;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		len = min_t(u64, gb->size - off, SZ_1G);
		dma = dma_map_resource(attach->dev, bar + off, len, dir,
				       DMA_ATTR_SKIP_CPU_SYNC);
		ret = dma_mapping_error(attach->dev, dma);
		if (ret) {
			sgt->nents = i;
			goto err_unmap;
		}
		sg_set_page(sg, NULL, len, 0);
		sg_dma_address(sg) = dma;
		sg_dma_len(sg) = len;
		off += len;
	}
	drm_dev_exit(idx);
	return sgt;

err_unmap:
	for_each_sgtable_dma_sg(sgt, sg, i)
		dma_unmap_resource(attach->dev, sg_dma_address(sg),
				   sg_dma_len(sg), dir, DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(sgt);
err_free:
	kfree(sgt);
err_exit:
	drm_dev_exit(idx);
	return ERR_PTR(ret);
}

static void gaudi_dmabuf_unmap(struct dma_buf_attachment *attach,
			       struct sg_table *sgt,
			       enum dma_data_direction dir)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i)
		dma_unmap_resource(attach->dev, sg_dma_address(sg),
				   sg_dma_len(sg), dir, DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(sgt);
	kfree(sgt);
}

static void gaudi_dmabuf_release(struct dma_buf *dmabuf)
{
	struct gaudi_dmabuf *gb = dmabuf->priv;
	struct gaudi_device *gdev = gb->gdev;

	if (gb->dram)
		kref_put(&gb->dram->ref, gaudi_dram_release);
	atomic_dec(&gdev->dp->mem.dmabufs);
	drm_dev_put(&gdev->drm);
	kfree(gb);
}

static const struct dma_buf_ops gaudi_dmabuf_ops = {
	.attach = gaudi_dmabuf_attach,
	.map_dma_buf = gaudi_dmabuf_map,
	.unmap_dma_buf = gaudi_dmabuf_unmap,
	.release = gaudi_dmabuf_release,
};

/*
 * Gaudi 1 has no MMU in front of HBM: @addr is physical and @offset must
 * be 0.  Address and size page aligned, size not 0, the range inside the
 * user part of HBM and inside BAR4; flags are the file flags of the new
 * descriptor (access mode and O_CLOEXEC; upstream ignores the others, we
 * refuse them).
 */
/* The allocation of @ctx that holds [@addr, @addr + @size), with a ref. */
static struct gaudi_dram *gaudi_dram_get_range(struct gaudi_ctx *ctx,
					       u64 addr, u64 size)
{
	struct gaudi_dram *d, *found = NULL;
	unsigned long i;

	mutex_lock(&ctx->lock);
	xa_for_each(&ctx->dram, i, d) {
		if (addr >= d->addr && size <= d->size &&
		    addr - d->addr <= d->size - size) {
			kref_get(&d->ref);
			found = d;
			break;
		}
	}
	mutex_unlock(&ctx->lock);
	return found;
}

static int gaudi_export_dmabuf(struct gaudi_device *gdev,
			       struct gaudi_ctx *ctx, union hl_mem_args *args)
{
	u64 addr = args->in.export_dmabuf_fd.addr;
	u64 size = args->in.export_dmabuf_fd.mem_size;
	u32 flags = args->in.flags;
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct gaudi_dmabuf *gb;
	struct dma_buf *dmabuf;
	int fd;

	if (flags & ~(O_ACCMODE | O_CLOEXEC) ||
	    args->in.export_dmabuf_fd.offset || !size ||
	    !PAGE_ALIGNED(addr) || !PAGE_ALIGNED(size) ||
	    addr < GAUDI_DRAM_USER_START || addr + size < addr ||
	    addr + size > GAUDI_HBM_SIZE ||
	    addr + size > gdev->pci.hbm_bar_size) {
		gaudi_dbg(gdev, MMU, "EXPORT_DMABUF_FD: bad range 0x%llx + 0x%llx (offset 0x%llx, flags 0x%x)\n",
			  addr, size, args->in.export_dmabuf_fd.offset, flags);
		return -EINVAL;
	}
	gb = kzalloc(sizeof(*gb), GFP_KERNEL);
	if (!gb)
		return -ENOMEM;
	gb->gdev = gdev;
	gb->addr = addr;
	gb->size = size;
	gb->dram = gaudi_dram_get_range(ctx, addr, size);
	info.exp_name = GAUDI_DRV_NAME;
	info.owner = THIS_MODULE;
	info.ops = &gaudi_dmabuf_ops;
	info.size = size;
	info.flags = O_RDWR;
	info.priv = gb;
	dmabuf = dma_buf_export(&info);
	if (IS_ERR(dmabuf)) {
		if (gb->dram)
			kref_put(&gb->dram->ref, gaudi_dram_release);
		kfree(gb);
		return PTR_ERR(dmabuf);
	}
	drm_dev_get(&gdev->drm);
	atomic_inc(&gdev->dp->mem.dmabufs);
	/* Importers write it through BAR4: clear it for the next holder. */
	gaudi_scrub_mark(gdev, addr, size);
	fd = dma_buf_fd(dmabuf, flags & O_CLOEXEC);
	if (fd < 0) {
		dma_buf_put(dmabuf);	/* releases gb and the reference */
		return fd;
	}
	gaudi_dbg(gdev, MMU, "EXPORT_DMABUF_FD: HBM 0x%llx + 0x%llx as fd %d\n",
		  addr, size, fd);
	memset(args, 0, sizeof(*args));
	args->out.fd = fd;
	return 0;
}

/* ---- the ioctl ----------------------------------------------------------- */

static int gaudi_mem_op(struct gaudi_device *gdev, struct gaudi_ctx *ctx,
			union hl_mem_args *args)
{
	u64 addr;
	int ret;

	switch (args->in.op) {
	case HL_MEM_OP_MAP:
		ret = gaudi_dram_addr(ctx, args->in.map_device.handle, &addr);
		if (ret) {
			gaudi_dbg(gdev, MMU, "MAP: no allocation %llu\n",
				  args->in.map_device.handle);
			return ret;
		}
		memset(args, 0, sizeof(*args));
		args->out.device_virt_addr = addr;
		return 0;
	case HL_MEM_OP_UNMAP:
		return gaudi_unmap(gdev, ctx, args->in.unmap.device_virt_addr);
	case HL_MEM_OP_ALLOC:
		return gaudi_dram_alloc(gdev, ctx, args);
	case HL_MEM_OP_FREE:
		return gaudi_dram_free(gdev, ctx, args->in.free.handle);
	case HL_MEM_OP_EXPORT_DMABUF_FD:
		return gaudi_export_dmabuf(gdev, ctx, args);
	default:
		gaudi_dbg(gdev, MMU, "MEMORY: op %u not supported\n",
			  args->in.op);
		return -EINVAL;
	}
}

/*
 * Inside drm_dev_enter(): DMA mappings, page tables and HBM are given
 * back by the removal, which waits for the calls in progress.
 */
int gaudi_mem_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct gaudi_ctx *ctx = file_ctx(file);
	union hl_mem_args *args = data;
	int idx, ret;

	if (!ctx)
		return -EINVAL;
	if (args->in.op == HL_MEM_OP_MAP && (args->in.flags & HL_MEM_USERPTR))
		return gaudi_map_userptr(to_gaudi(drm), ctx, args);
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = gaudi_mem_op(to_gaudi(drm), ctx, args);
	drm_dev_exit(idx);
	return ret;
}

/*
 * Every mapping goes, held or not (a removal takes its DMA mappings
 * back): the holders dropped their holds before.
 */
void gaudi_mem_ctx_fini(struct gaudi_ctx *ctx)
{
	struct gaudi_map *map;
	struct gaudi_dram *d;
	unsigned long i;

	mutex_lock(&ctx->lock);
	xa_for_each(&ctx->maps, i, map) {
		xa_erase(&ctx->maps, i);
		gaudi_map_release(ctx, map);
	}
	mutex_unlock(&ctx->lock);
	xa_for_each(&ctx->dram, i, d)
		gaudi_dram_free(ctx->gdev, ctx, i);
}

int gaudi_mem_sw_init(struct gaudi_device *gdev)
{
	struct gaudi_dp *dp = gdev->dp;
	int ret;

	dp->mem.dram_pool = gen_pool_create(ilog2(SZ_2M), -1);
	if (!dp->mem.dram_pool)
		return -ENOMEM;
	ret = gen_pool_add(dp->mem.dram_pool, GAUDI_DRAM_USER_START,
			   GAUDI_HBM_SIZE - GAUDI_DRAM_USER_START, -1);
	if (ret) {
		gen_pool_destroy(dp->mem.dram_pool);
		dp->mem.dram_pool = NULL;
	}
	return ret;
}

void gaudi_mem_sw_fini(struct gaudi_device *gdev)
{
	struct gen_pool *pool = gdev->dp->mem.dram_pool;

	/*
	 * At the DRM device's release every holder and dma-buf is gone; an
	 * allocation still out is a driver bug: leave the pool rather than
	 * destroy it with memory allocated.
	 */
	if (pool && gen_pool_avail(pool) == gen_pool_size(pool))
		gen_pool_destroy(pool);
	else if (pool)
		gaudi_err(gdev, "HBM still allocated at release: allocator left behind\n");
	gdev->dp->mem.dram_pool = NULL;
}
