// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi_canary.ko: a canary in kernel memory for the "security" guest suite.
 *
 * At load it allocates one page of kernel memory (GFP_KERNEL, the kind of
 * memory kmalloc and the rest of the kernel live in) and fills it with a
 * fixed pattern, byte i = (13 * i + 0xC5) & 0xff.  Its module parameters
 * (/sys/module/gaudi_canary/parameters/):
 *
 *	phys	(read) the page's physical address, "0x%llx"; with no IOMMU
 *		in the guest it is also the address a PCI device reaches it
 *		at (the attacker adds the device's host base to it)
 *	bad	(read) how many bytes of the page differ from the pattern,
 *		"0" while intact
 *	reset	(write anything) fill the page with the pattern again
 *
 * Nothing else in the kernel uses the page: a device write into it
 * corrupts nothing but the canary.  The page is freed at unload.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

static u8 *gc_page;
static DEFINE_MUTEX(gc_lock);

static u8 gc_pattern(unsigned int i)
{
	return (13 * i + 0xC5) & 0xff;
}

static void gc_fill(void)
{
	unsigned int i;

	for (i = 0; i < PAGE_SIZE; i++)
		WRITE_ONCE(gc_page[i], gc_pattern(i));
}

static int gc_get_phys(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "0x%llx\n",
			  (unsigned long long)virt_to_phys(gc_page));
}

static int gc_get_bad(char *buf, const struct kernel_param *kp)
{
	unsigned int i, bad = 0;

	mutex_lock(&gc_lock);
	for (i = 0; i < PAGE_SIZE; i++)
		bad += READ_ONCE(gc_page[i]) != gc_pattern(i);
	mutex_unlock(&gc_lock);
	return sysfs_emit(buf, "%u\n", bad);
}

static int gc_set_reset(const char *val, const struct kernel_param *kp)
{
	mutex_lock(&gc_lock);
	gc_fill();
	mutex_unlock(&gc_lock);
	return 0;
}

static int gc_get_none(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "0\n");
}

static const struct kernel_param_ops gc_phys_ops = { .get = gc_get_phys };
static const struct kernel_param_ops gc_bad_ops = { .get = gc_get_bad };
static const struct kernel_param_ops gc_reset_ops = {
	.set = gc_set_reset,
	.get = gc_get_none,
};

module_param_cb(phys, &gc_phys_ops, NULL, 0444);
MODULE_PARM_DESC(phys, "physical address of the canary page (read)");
module_param_cb(bad, &gc_bad_ops, NULL, 0444);
MODULE_PARM_DESC(bad, "bytes of the canary page that changed (read)");
module_param_cb(reset, &gc_reset_ops, NULL, 0644);
MODULE_PARM_DESC(reset, "write to refill the canary page");

static int __init gc_init(void)
{
	gc_page = (u8 *)get_zeroed_page(GFP_KERNEL);
	if (!gc_page)
		return -ENOMEM;
	gc_fill();
	return 0;
}

static void __exit gc_exit(void)
{
	free_page((unsigned long)gc_page);
}

module_init(gc_init);
module_exit(gc_exit);
MODULE_DESCRIPTION("Kernel-memory canary page for the gaudi security tests");
MODULE_LICENSE("GPL");
