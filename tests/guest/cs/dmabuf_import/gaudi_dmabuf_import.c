// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi_dmabuf_import.ko: a test dma-buf importer for the "cs" guest suite.
 *
 * Registers a platform device with a 64-bit DMA mask and the misc device
 * /dev/gaudi_dmabuf_import.  Writing "p2p <fd>" or "plain <fd>" to an open
 * file of that node imports the dma-buf behind <fd> (a descriptor of the
 * writing process) for the platform device and keeps what the import saw
 * in the file; reading the file (from offset 0) returns it as text:
 *
 *	mode p2p		the request
 *	get 0			dma_buf_get(): 0 or -errno
 *	attach 0		attach: 0 or -errno
 *	map 0			map of the attachment: 0 or -errno
 *	exporter gaudi		the exporter's name
 *	size 2097152		the dma-buf's size in bytes
 *	nents 1			number of DMA entries of the sg_table
 *	sg 0 0x... 0x...	index, DMA address, DMA length (up to 64 lines)
 *	moves 0			move_notify calls seen
 *
 * "p2p" attaches with dma_buf_dynamic_attach() and importer ops that allow
 * peer-to-peer; "plain" uses dma_buf_attach(), which does not.  Each
 * import maps the attachment, records the table, then unmaps, detaches
 * and puts the dma-buf before the write returns: nothing is held between
 * writes.  A write returns its length once the request parses (the import
 * results are in the report), EINVAL otherwise.
 */
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define GDI_NAME	"gaudi_dmabuf_import"
#define GDI_MAX_SG	64
#define GDI_REPORT	4096

static struct platform_device *gdi_pdev;

struct gdi_file {
	struct mutex lock;	/* report and len */
	atomic_t moves;		/* move_notify calls on this file's imports */
	size_t len;
	char report[GDI_REPORT];
};

/* Called with the reservation lock held; never for a static exporter. */
static void gdi_move_notify(struct dma_buf_attachment *attach)
{
	struct gdi_file *gf = attach->importer_priv;

	atomic_inc(&gf->moves);
}

static const struct dma_buf_attach_ops gdi_p2p_ops = {
	.allow_peer2peer = true,
	.move_notify = gdi_move_notify,
};

static __printf(2, 3) void gdi_add(struct gdi_file *gf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gf->len += vscnprintf(gf->report + gf->len, GDI_REPORT - gf->len,
			      fmt, ap);
	va_end(ap);
}

static void gdi_record(struct gdi_file *gf, struct sg_table *sgt)
{
	struct scatterlist *sg;
	unsigned int i;

	gdi_add(gf, "nents %u\n", sgt->nents);
	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (i >= GDI_MAX_SG)
			break;
		gdi_add(gf, "sg %u %pad 0x%x\n", i, &sg_dma_address(sg),
			sg_dma_len(sg));
	}
}

/* One import of @fd; every step's result goes to the report. */
static void gdi_import(struct gdi_file *gf, int fd, bool p2p)
{
	struct device *dev = &gdi_pdev->dev;
	struct dma_buf_attachment *attach;
	struct dma_buf *dmabuf;
	struct sg_table *sgt;

	gdi_add(gf, "mode %s\n", p2p ? "p2p" : "plain");
	dmabuf = dma_buf_get(fd);
	gdi_add(gf, "get %d\n", PTR_ERR_OR_ZERO(dmabuf));
	if (IS_ERR(dmabuf))
		return;
	gdi_add(gf, "exporter %s\nsize %zu\n", dmabuf->exp_name, dmabuf->size);

	/*
	 * A dynamic importer of a static exporter: the core maps the
	 * attachment at attach time and caches the table, so a refused map
	 * shows as an attach error here.
	 */
	if (p2p)
		attach = dma_buf_dynamic_attach(dmabuf, dev, &gdi_p2p_ops, gf);
	else
		attach = dma_buf_attach(dmabuf, dev);
	gdi_add(gf, "attach %d\n", PTR_ERR_OR_ZERO(attach));
	if (IS_ERR(attach))
		goto put;

	sgt = dma_buf_map_attachment_unlocked(attach, DMA_BIDIRECTIONAL);
	gdi_add(gf, "map %d\n", PTR_ERR_OR_ZERO(sgt));
	if (IS_ERR(sgt))
		goto detach;
	gdi_record(gf, sgt);
	dma_buf_unmap_attachment_unlocked(attach, sgt, DMA_BIDIRECTIONAL);
detach:
	dma_buf_detach(dmabuf, attach);
put:
	dma_buf_put(dmabuf);
}

static int gdi_open(struct inode *inode, struct file *file)
{
	struct gdi_file *gf;

	gf = kzalloc(sizeof(*gf), GFP_KERNEL);
	if (!gf)
		return -ENOMEM;
	mutex_init(&gf->lock);
	atomic_set(&gf->moves, 0);
	file->private_data = gf;
	return 0;
}

static int gdi_release(struct inode *inode, struct file *file)
{
	struct gdi_file *gf = file->private_data;

	mutex_destroy(&gf->lock);
	kfree(gf);
	return 0;
}

static ssize_t gdi_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	struct gdi_file *gf = file->private_data;
	char cmd[32], mode[8];
	int fd;

	if (!count || count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';
	if (sscanf(cmd, "%7s %d", mode, &fd) != 2)
		return -EINVAL;
	if (strcmp(mode, "p2p") && strcmp(mode, "plain"))
		return -EINVAL;

	mutex_lock(&gf->lock);
	gf->len = 0;
	gf->report[0] = '\0';
	atomic_set(&gf->moves, 0);
	gdi_import(gf, fd, !strcmp(mode, "p2p"));
	gdi_add(gf, "moves %d\n", atomic_read(&gf->moves));
	mutex_unlock(&gf->lock);
	return count;
}

static ssize_t gdi_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct gdi_file *gf = file->private_data;
	ssize_t ret;

	mutex_lock(&gf->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, gf->report, gf->len);
	mutex_unlock(&gf->lock);
	return ret;
}

static const struct file_operations gdi_fops = {
	.owner = THIS_MODULE,
	.open = gdi_open,
	.release = gdi_release,
	.read = gdi_read,
	.write = gdi_write,
	.llseek = default_llseek,
};

static struct miscdevice gdi_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = GDI_NAME,
	.fops = &gdi_fops,
	.mode = 0600,
};

static int __init gdi_init(void)
{
	int ret;

	gdi_pdev = platform_device_register_simple(GDI_NAME,
						   PLATFORM_DEVID_NONE,
						   NULL, 0);
	if (IS_ERR(gdi_pdev))
		return PTR_ERR(gdi_pdev);
	ret = dma_set_mask_and_coherent(&gdi_pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto err_pdev;
	gdi_misc.parent = &gdi_pdev->dev;
	ret = misc_register(&gdi_misc);
	if (ret)
		goto err_pdev;
	return 0;

err_pdev:
	platform_device_unregister(gdi_pdev);
	return ret;
}

static void __exit gdi_exit(void)
{
	misc_deregister(&gdi_misc);
	platform_device_unregister(gdi_pdev);
}

module_init(gdi_init);
module_exit(gdi_exit);

MODULE_DESCRIPTION("Test dma-buf importer for the gaudi guest test suites");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(DMA_BUF);
