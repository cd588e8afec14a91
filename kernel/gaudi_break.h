/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Deliberately broken builds, for testing the tests (tests/broken/run.sh,
 * Documentation/howto/running.rst).
 *
 * `make kernel GAUDI_BREAK=<name>` compiles one known defect into gaudi.ko
 * so that the suites can show they catch it; a normal build defines none
 * of the switches and the compiler drops every branch below.  The module
 * of a broken build carries modinfo "gaudi_break=<name>".
 *
 *   mmu-inv        unmapping does not invalidate the device MMU's TLB
 *   cb-early-free  a job's kernel CB is released when its CS ends, not
 *                  when the queue has consumed it
 *   submit-lock    submitters do not serialise on dp->sched.submit_lock, so
 *                  doorbells may be rung out of order
 *   cp-dma-unparsed  the snapshot of a CP_DMA target is run without being
 *                  parsed
 */
#ifndef GAUDI_BREAK_H
#define GAUDI_BREAK_H

#include <linux/kconfig.h>

#define GAUDI_BROKEN(name) IS_ENABLED(GAUDI_BREAK_##name)

#endif /* GAUDI_BREAK_H */
