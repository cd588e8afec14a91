// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the device MMU.
 *
 * Addresses from 0x1_0000_0000_0000 that an engine issues are translated
 * through five hops of 512 8-byte entries (VA bits 49:48, 47:39, 38:30,
 * 29:21, 20:12); a leaf ends at hop 3 (2 MiB page) or hop 4 (4 KiB page).
 * The tables live in HBM (hop 0 of ASID a at 0x1000_0000 + a * 4 KiB, the
 * others from a pool up to the MMU cache page at 0x1BF0_0000) and are
 * written through the BAR4 window.  Every table has a host shadow: the
 * driver never reads HBM back, and after a hard reset it rewrites all
 * tables from the shadows so that the user's mappings survive recovery.
 *
 * Only ASID 1 (the user context) gets mappings; ASID 0 (the driver) has an
 * empty table, the driver's own buffers are addressed physically.
 */
#include <linux/genalloc.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>

#include "gaudi1/regs.h"
#include "gaudi_dp_types.h"
#include "gaudi_hw.h"
#include "gaudi_mmu.h"
#include "gaudi_types.h"
#include "gaudi_trace.h"

#define GAUDI_MMU_HOP0_BASE	0x10000000ULL
#define GAUDI_MMU_POOL_START	(GAUDI_MMU_HOP0_BASE + SZ_1M)
#define GAUDI_MMU_POOL_END	0x1BF00000ULL
#define GAUDI_MMU_ASIDS		2
#define GAUDI_MMU_HOPS		5
#define GAUDI_MMU_TIMEOUT_US	(2 * USEC_PER_MSEC)

struct gaudi_pt {
	u64 addr;			/* HBM address of the table */
	u32 used;			/* present entries */
	u64 pte[512];			/* shadow */
	struct gaudi_pt *next[512];	/* tables below (not at leaves) */
};

struct gaudi_mmu {
	struct mutex lock;		/* tables, shadows, invalidation */
	struct gen_pool *pool;
	struct gaudi_pt *hop0[GAUDI_MMU_ASIDS];
	u64 tables;
	u32 inv_pi;
};

static const u8 gaudi_hop_shift[GAUDI_MMU_HOPS] = { 48, 39, 30, 21, 12 };

static unsigned int hop_idx(u64 va, unsigned int hop)
{
	return (va >> gaudi_hop_shift[hop]) & (hop ? 0x1FF : 0x3);
}

static void __iomem *pt_io(struct gaudi_device *gdev, u64 addr)
{
	return gdev->pci.hbm + addr;
}

static void pt_write(struct gaudi_device *gdev, struct gaudi_pt *pt,
		     unsigned int i, u64 val)
{
	pt->pte[i] = val;
	writeq(val, pt_io(gdev, pt->addr + 8 * i));
}

static struct gaudi_pt *pt_alloc(struct gaudi_device *gdev, u64 addr)
{
	struct gaudi_mmu *mmu = gdev->dp->mmu;
	struct gaudi_pt *pt;

	pt = kvzalloc(sizeof(*pt), GFP_KERNEL);
	if (!pt)
		return NULL;
	if (!addr) {
		addr = gen_pool_alloc(mmu->pool, SZ_4K);
		if (!addr) {
			kvfree(pt);
			return NULL;
		}
	}
	pt->addr = addr;
	memset_io(pt_io(gdev, addr), 0, SZ_4K);
	mmu->tables++;
	return pt;
}

static void pt_free(struct gaudi_device *gdev, struct gaudi_pt *pt)
{
	struct gaudi_mmu *mmu = gdev->dp->mmu;

	gen_pool_free(mmu->pool, pt->addr, SZ_4K);
	mmu->tables--;
	kvfree(pt);
}

/* Map one page (mmu->lock held).  -EEXIST if something is there. */
static int gaudi_mmu_map_page(struct gaudi_device *gdev, u64 va, u64 pa,
			      unsigned int leaf)
{
	struct gaudi_pt *pt = gdev->dp->mmu->hop0[GAUDI_USER_ASID], *next;
	unsigned int hop, i;

	for (hop = 0; hop < leaf; hop++) {
		i = hop_idx(va, hop);
		next = pt->next[i];
		if (!next) {
			if (pt->pte[i] & PTE_PRESENT)
				return -EEXIST;	/* a larger page */
			next = pt_alloc(gdev, 0);
			if (!next)
				return -ENOMEM;
			pt->next[i] = next;
			pt->used++;
			pt_write(gdev, pt, i, next->addr | PTE_PRESENT);
		}
		pt = next;
	}
	i = hop_idx(va, leaf);
	if (pt->pte[i] & PTE_PRESENT)
		return -EEXIST;
	pt->used++;
	pt_write(gdev, pt, i, (pa & PTE_ADDR) | PTE_LAST | PTE_PRESENT);
	return 0;
}

/*
 * Unmap the page at @va, whatever its size; returns the page size, or
 * SZ_4K if nothing was mapped there.  Empty tables are freed.
 */
static u64 gaudi_mmu_unmap_page(struct gaudi_device *gdev, u64 va)
{
	struct gaudi_pt *path[GAUDI_MMU_HOPS];
	struct gaudi_pt *pt = gdev->dp->mmu->hop0[GAUDI_USER_ASID];
	unsigned int hop, i;
	u64 size;

	for (hop = 0; hop < GAUDI_MMU_HOPS; hop++) {
		path[hop] = pt;
		i = hop_idx(va, hop);
		if (!(pt->pte[i] & PTE_PRESENT))
			return SZ_4K;
		if (!pt->next[i])
			break;
		pt = pt->next[i];
	}
	if (hop < 3)
		return SZ_4K;	/* cannot happen: leaves are at 3 or 4 */
	size = 1ULL << gaudi_hop_shift[hop];
	pt_write(gdev, pt, hop_idx(va, hop), 0);
	pt->used--;
	while (hop > 0 && !pt->used) {
		struct gaudi_pt *parent = path[hop - 1];

		i = hop_idx(va, hop - 1);
		pt_write(gdev, parent, i, 0);
		parent->next[i] = NULL;
		parent->used--;
		pt_free(gdev, pt);
		pt = parent;
		hop--;
	}
	return size;
}

void gaudi_mmu_unmap(struct gaudi_device *gdev, u64 va, u64 size,
		     u64 page_size)
{
	struct gaudi_mmu *mmu = gdev->dp->mmu;
	u64 end = va + size, step;

	trace_gaudi_mmu_unmap(gdev->index, va, size);
	mutex_lock(&mmu->lock);
	while (va < end) {
		step = gaudi_mmu_unmap_page(gdev, va);
		va = (va & ~(step - 1)) + step;
	}
	mutex_unlock(&mmu->lock);
}

/* Map [va, va + size) to [pa, ...) with pages of @page_size. */
int gaudi_mmu_map(struct gaudi_device *gdev, u64 va, u64 pa, u64 size,
		  u64 page_size)
{
	struct gaudi_mmu *mmu = gdev->dp->mmu;
	unsigned int leaf = page_size == SZ_2M ? 3 : 4;
	u64 done;
	int ret = 0;

	if (!IS_ALIGNED(va | pa | size, page_size))
		return -EINVAL;
	mutex_lock(&mmu->lock);
	for (done = 0; done < size; done += page_size) {
		ret = gaudi_mmu_map_page(gdev, va + done, pa + done, leaf);
		if (ret)
			break;
	}
	mutex_unlock(&mmu->lock);
	trace_gaudi_mmu_map(gdev->index, va, pa, size, page_size, ret);
	if (ret && done)
		gaudi_mmu_unmap(gdev, va, done, page_size);
	return ret;
}

/*
 * Callers keep the device present: an ioctl inside drm_dev_enter(), or
 * the context's teardown at close or removal (before gaudi_remove()
 * returns), as for the table writes themselves.
 */
void gaudi_mmu_invalidate(struct gaudi_device *gdev)
{
	struct gaudi_mmu *mmu = gdev->dp->mmu;
	u32 val;

	/* PTE writes through the write-combined BAR land first. */
	wmb();
	mutex_lock(&mmu->lock);
	WREG32(gdev, mmMMU_UP_STLB_INV_PS, 3);
	WREG32(gdev, mmMMU_UP_STLB_CACHE_INV, mmu->inv_pi++);
	WREG32(gdev, mmMMU_UP_STLB_INV_PS, 2);
	if (gaudi_poll_reg(gdev, mmMMU_UP_STLB_INV_PS, val, !val, 10,
			   GAUDI_MMU_TIMEOUT_US))
		gaudi_err(gdev, "MMU STLB invalidation timed out\n");
	WREG32(gdev, mmMMU_UP_STLB_INV_SET, 0);
	mutex_unlock(&mmu->lock);
}

u64 gaudi_mmu_tables(struct gaudi_device *gdev)
{
	return gdev->dp->mmu->tables;
}

/* Rewrite a table tree from its shadows (after a reset). */
static void gaudi_mmu_restore(struct gaudi_device *gdev, struct gaudi_pt *pt)
{
	unsigned int i;

	memcpy_toio(pt_io(gdev, pt->addr), pt->pte, sizeof(pt->pte));
	for (i = 0; i < ARRAY_SIZE(pt->next); i++)
		if (pt->next[i])
			gaudi_mmu_restore(gdev, pt->next[i]);
}

int gaudi_mmu_hw_init(struct gaudi_device *gdev)
{
	struct gaudi_mmu *mmu = gdev->dp->mmu;
	unsigned int asid;
	u64 hop0;
	u32 val;
	int ret;

	mutex_lock(&mmu->lock);
	for (asid = 0; asid < GAUDI_MMU_ASIDS; asid++) {
		gaudi_mmu_restore(gdev, mmu->hop0[asid]);
		hop0 = mmu->hop0[asid]->addr;
		WREG32(gdev, mmMMU_UP_MMU_ASID, asid);
		WREG32(gdev, mmMMU_UP_MMU_HOP0_PA43_12, (u32)(hop0 >> 12));
		WREG32(gdev, mmMMU_UP_MMU_HOP0_PA49_44, (u32)(hop0 >> 44));
		WREG32(gdev, mmMMU_UP_MMU_BUSY, MMU_BUSY);
		ret = gaudi_poll_reg(gdev, mmMMU_UP_MMU_BUSY, val,
				     !(val & MMU_BUSY), 10,
				     GAUDI_MMU_TIMEOUT_US);
		if (ret) {
			mutex_unlock(&mmu->lock);
			gaudi_err(gdev, "MMU: hop0 of ASID %u not taken\n",
				  asid);
			return ret;
		}
	}
	mutex_unlock(&mmu->lock);
	gaudi_mmu_invalidate(gdev);
	return 0;
}

int gaudi_mmu_sw_init(struct gaudi_device *gdev)
{
	struct gaudi_mmu *mmu;
	unsigned int asid;
	int ret;

	if (gdev->pci.hbm_bar_size < GAUDI_MMU_POOL_END) {
		gaudi_err(gdev, "MMU: BAR4 of %pa bytes does not reach the page tables\n",
			  &gdev->pci.hbm_bar_size);
		return -ENODEV;
	}
	mmu = kzalloc(sizeof(*mmu), GFP_KERNEL);
	if (!mmu)
		return -ENOMEM;
	mutex_init(&mmu->lock);
	mmu->pool = gen_pool_create(ilog2(SZ_4K), -1);
	if (!mmu->pool) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = gen_pool_add(mmu->pool, GAUDI_MMU_POOL_START,
			   GAUDI_MMU_POOL_END - GAUDI_MMU_POOL_START, -1);
	if (ret)
		goto err_pool;
	gdev->dp->mmu = mmu;
	for (asid = 0; asid < GAUDI_MMU_ASIDS; asid++) {
		mmu->hop0[asid] = pt_alloc(gdev, GAUDI_MMU_HOP0_BASE +
					   asid * SZ_4K);
		if (!mmu->hop0[asid]) {
			ret = -ENOMEM;
			goto err_hop0;
		}
	}
	return 0;

err_hop0:
	while (asid--)
		kvfree(mmu->hop0[asid]);
	gdev->dp->mmu = NULL;
err_pool:
	gen_pool_destroy(mmu->pool);
err_free:
	kfree(mmu);
	return ret;
}

void gaudi_mmu_sw_fini(struct gaudi_device *gdev)
{
	struct gaudi_mmu *mmu = gdev->dp->mmu;
	unsigned int asid;

	if (!mmu)
		return;
	/* Contexts are gone: only the hop-0 tables are left. */
	for (asid = 0; asid < GAUDI_MMU_ASIDS; asid++)
		kvfree(mmu->hop0[asid]);
	if (gen_pool_avail(mmu->pool) == gen_pool_size(mmu->pool))
		gen_pool_destroy(mmu->pool);
	else
		gaudi_err(gdev, "MMU: %llu page tables still allocated at release: pool left behind\n",
			  mmu->tables);
	mutex_destroy(&mmu->lock);
	kfree(mmu);
	gdev->dp->mmu = NULL;
}
