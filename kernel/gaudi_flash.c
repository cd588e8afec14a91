// SPDX-License-Identifier: GPL-2.0-only
/*
 * gaudi.ko: the SPI flash, through the device CPU (DRM_IOCTL_GAUDI_FLASH).
 *
 * The flash holds the preboot firmware in two boot slots and a record that
 * names the active one (Documentation/firmware/flash.rst).  The driver never
 * writes the flash window in BAR2: each operation is a CPU-CP request of
 * the gaudi-open flash extension (opcodes 0x1F00..0x1F04) that points the
 * device CPU at a bounce buffer in the CPU-accessible memory.  Transfers
 * move GAUDI_FLASH_CHUNK bytes per request and stop between requests on a
 * fatal signal, so a killed updater never waits for a whole megabyte.
 */
#include <linux/bitfield.h>
#include <linux/capability.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/habanalabs/cpucp_if.h>

#include "gaudi1/flash.h"
#include "gaudi1/memmap.h"
#include "gaudi_cpucp.h"
#include "gaudi_file_types.h"
#include "gaudi_flash.h"
#include "gaudi_hw.h"
#include "gaudi_types.h"

/* CPU-CP opcodes and result word of the flash extension: gaudi1/flash.h. */
#define GAUDI_FLASH_CHUNK		SZ_64K
/* Erasing a whole 24 MiB slot in the model takes well under a second. */
#define GAUDI_FLASH_TIMEOUT_US		(10 * USEC_PER_SEC)

static int gaudi_flash_send(struct gaudi_device *gdev, u32 opcode, u64 addr,
			    u32 index, u32 subidx, u64 *result)
{
	struct cpucp_packet pkt = {};

	pkt.ctl = cpu_to_le32(FIELD_PREP(CPUCP_PKT_CTL_OPCODE_MASK, opcode));
	pkt.addr = cpu_to_le64(addr);
	pkt.index = cpu_to_le32(index);
	pkt.pkt_subidx = cpu_to_le32(subidx);
	return gaudi_cpucp_send(gdev, &pkt, GAUDI_FLASH_TIMEOUT_US, result);
}

static void gaudi_flash_answer(struct drm_gaudi_flash *f, u64 res)
{
	f->status = FIELD_GET(GAUDI_FLASH_RES_STATUS, res);
	f->detail = FIELD_GET(GAUDI_FLASH_RES_DETAIL, res);
}

static bool gaudi_flash_held(struct gaudi_device *gdev)
{
	struct gaudi_users *u = gdev->users;
	bool held;

	mutex_lock(&u->lock);
	held = u->compute;
	mutex_unlock(&u->lock);
	return held;
}

/*
 * One request with a buffer in the CPU-CP pool: @kbuf (@len bytes) goes
 * to the device before it (@to_dev) or comes back after it.  The device is
 * entered only for the request: user memory is copied by the callers, with
 * no lock a reset or an unbind needs.
 */
static int gaudi_flash_request(struct gaudi_device *gdev, u32 opcode,
			       void *kbuf, u32 len, bool to_dev, u32 offset,
			       u32 size, u64 *res)
{
	u64 dev_addr;
	void *buf;
	int ret, idx;

	ret = gaudi_hw_enter(gdev, &idx);
	if (ret)
		return ret;
	buf = gaudi_cpucp_buf_alloc(gdev, len, &dev_addr);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	if (to_dev)
		memcpy(buf, kbuf, len);
	else
		memset(buf, 0, len);
	ret = gaudi_flash_send(gdev, opcode, dev_addr, offset, size, res);
	if (!ret && !to_dev)
		memcpy(kbuf, buf, len);
	gaudi_cpucp_buf_free(gdev, len, buf);
out:
	gaudi_hw_exit(gdev, idx);
	return ret;
}

static int gaudi_flash_info(struct gaudi_device *gdev,
			    struct drm_gaudi_flash *f)
{
	u32 len = min_t(u32, f->size, sizeof(struct drm_gaudi_flash_info));
	struct drm_gaudi_flash_info info;
	u64 res;
	int ret;

	if (!f->size)
		return -EINVAL;
	ret = gaudi_flash_request(gdev, GAUDI_CPUCP_FLASH_INFO, &info,
				  sizeof(info), false, len, 0, &res);
	if (ret)
		return ret;
	gaudi_flash_answer(f, res);
	len = min_t(u32, len, FIELD_GET(GAUDI_FLASH_RES_VALUE, res));
	f->result = len;
	/* The device writes it little endian, like the uapi on x86. */
	return copy_to_user(u64_to_user_ptr(f->data), &info, len) ? -EFAULT : 0;
}

/* READ and WRITE: chunk by chunk through a bounce buffer. */
static int gaudi_flash_xfer(struct gaudi_device *gdev,
			    struct drm_gaudi_flash *f, bool write)
{
	void __user *user = u64_to_user_ptr(f->data);
	u32 done = 0, n;
	void *buf;
	int ret = 0;
	u64 res;

	if (!f->size || f->size > GAUDI_FLASH_XFER_MAX ||
	    f->offset > GAUDI_FLASH_WINDOW ||
	    f->size > GAUDI_FLASH_WINDOW - f->offset)
		return -EINVAL;
	buf = kvmalloc(GAUDI_FLASH_CHUNK, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	while (done < f->size) {
		if (done && fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		n = min_t(u32, f->size - done, GAUDI_FLASH_CHUNK);
		if (write && copy_from_user(buf, user + done, n)) {
			ret = -EFAULT;
			break;
		}
		ret = gaudi_flash_request(gdev, write ?
					  GAUDI_CPUCP_FLASH_PROGRAM :
					  GAUDI_CPUCP_FLASH_READ, buf, n, write,
					  f->offset + done, n, &res);
		if (ret)
			break;
		gaudi_flash_answer(f, res);
		if (f->status != GAUDI_FLASH_STATUS_OK) {
			gaudi_user_err(gdev, "flash: program at 0x%x: bits not erased\n",
				       f->offset + done);
			ret = -EIO;
			break;
		}
		if (!write && copy_to_user(user + done, buf, n)) {
			ret = -EFAULT;
			break;
		}
		done += n;
	}
	f->result = done;
	kvfree(buf);
	return ret;
}

static int gaudi_flash_erase(struct gaudi_device *gdev,
			     struct drm_gaudi_flash *f)
{
	u64 res;
	int ret;

	if (!f->size || (f->offset | f->size) % GAUDI_FLASH_ERASE_SIZE ||
	    f->offset > GAUDI_FLASH_WINDOW ||
	    f->size > GAUDI_FLASH_WINDOW - f->offset)
		return -EINVAL;
	ret = gaudi_flash_send(gdev, GAUDI_CPUCP_FLASH_ERASE, 0, f->offset,
			       f->size, &res);
	if (!ret) {
		gaudi_flash_answer(f, res);
		f->result = f->size;
	}
	return ret;
}

static int gaudi_flash_activate(struct gaudi_device *gdev,
				struct drm_gaudi_flash *f)
{
	u64 res;
	int ret;

	if (f->offset >= GAUDI_FLASH_NR_SLOTS || !f->size)
		return -EINVAL;
	ret = gaudi_flash_send(gdev, GAUDI_CPUCP_FLASH_ACTIVATE,
			       (u64)f->crc << 32 | f->size, f->offset, 0, &res);
	if (ret)
		return ret;
	gaudi_flash_answer(f, res);
	switch (f->status) {
	case GAUDI_FLASH_STATUS_OK:
		f->result = FIELD_GET(GAUDI_FLASH_RES_VALUE, res);
		gaudi_note(gdev, "flash: boot slot %u activated (record %llu) by pid %d\n",
			   f->offset, f->result, task_tgid_nr(current));
		return 0;
	case GAUDI_FLASH_STATUS_BAD_IMAGE:
		return -ENOEXEC;
	case GAUDI_FLASH_STATUS_CRC:
		return -EBADMSG;
	default:
		return -EIO;
	}
}

int gaudi_flash_op(struct gaudi_device *gdev, struct drm_gaudi_flash *f)
{
	bool modify = f->op == GAUDI_FLASH_OP_ERASE ||
		      f->op == GAUDI_FLASH_OP_WRITE ||
		      f->op == GAUDI_FLASH_OP_ACTIVATE;
	int ret, idx;

	if ((f->flags & ~GAUDI_FLASH_FORCE) || f->pad ||
	    memchr_inv(f->reserved, 0, sizeof(f->reserved)) ||
	    f->op > GAUDI_FLASH_OP_ACTIVATE) {
		gaudi_dbg(gdev, IOCTL, "FLASH: bad op %u or reserved bits set\n",
			  f->op);
		return -EINVAL;
	}
	f->status = 0;
	f->detail = 0;
	f->result = 0;
	if (f->op != GAUDI_FLASH_OP_INFO && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (modify && !(f->flags & GAUDI_FLASH_FORCE) &&
	    gaudi_flash_held(gdev)) {
		gaudi_dbg(gdev, IOCTL, "FLASH: compute node held, refused\n");
		return -EBUSY;
	}

	switch (f->op) {
	case GAUDI_FLASH_OP_INFO:
		return gaudi_flash_info(gdev, f);
	case GAUDI_FLASH_OP_READ:
		return gaudi_flash_xfer(gdev, f, false);
	case GAUDI_FLASH_OP_WRITE:
		return gaudi_flash_xfer(gdev, f, true);
	}
	ret = gaudi_hw_enter(gdev, &idx);
	if (ret)
		return ret;
	if (f->op == GAUDI_FLASH_OP_ERASE)
		ret = gaudi_flash_erase(gdev, f);
	else
		ret = gaudi_flash_activate(gdev, f);
	gaudi_hw_exit(gdev, idx);
	return ret;
}

int gaudi_flash_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	return gaudi_flash_op(to_gaudi(drm), data);
}
