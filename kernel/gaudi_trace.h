/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gaudi.ko tracepoints (events/gaudi/ in tracefs): what the driver asks of
 * the card and when, for trace-cmd and perf:
 *
 *	trace-cmd record -e gaudi ...
 *	perf trace -e 'gaudi:*' ...
 *
 * Every event names its card by accel index.  gaudi_reg_read/write are
 * every register access through RREG32/WREG32 (a lot: enable them alone
 * when needed).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM gaudi

#if !defined(GAUDI_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define GAUDI_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(gaudi_reg,
	TP_PROTO(unsigned int card, u32 reg, u32 val, const char *name),
	TP_ARGS(card, reg, val, name),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(u32, reg)
		__field(u32, val)
		__string(name, name)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->reg = reg;
		__entry->val = val;
		__assign_str(name);
	),
	TP_printk("accel%u %s (0x%06x) = 0x%08x", __entry->card,
		  __get_str(name), __entry->reg, __entry->val)
);

DEFINE_EVENT(gaudi_reg, gaudi_reg_read,
	TP_PROTO(unsigned int card, u32 reg, u32 val, const char *name),
	TP_ARGS(card, reg, val, name)
);

DEFINE_EVENT(gaudi_reg, gaudi_reg_write,
	TP_PROTO(unsigned int card, u32 reg, u32 val, const char *name),
	TP_ARGS(card, reg, val, name)
);

TRACE_EVENT(gaudi_cs_submit,
	TP_PROTO(unsigned int card, u64 seq, unsigned int jobs, bool staged),
	TP_ARGS(card, seq, jobs, staged),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(u64, seq)
		__field(unsigned int, jobs)
		__field(bool, staged)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->seq = seq;
		__entry->jobs = jobs;
		__entry->staged = staged;
	),
	TP_printk("accel%u seq=%llu jobs=%u%s", __entry->card, __entry->seq,
		  __entry->jobs, __entry->staged ? " staged" : "")
);

TRACE_EVENT(gaudi_cs_complete,
	TP_PROTO(unsigned int card, u64 seq, int error),
	TP_ARGS(card, seq, error),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(u64, seq)
		__field(int, error)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->seq = seq;
		__entry->error = error;
	),
	TP_printk("accel%u seq=%llu error=%d", __entry->card, __entry->seq,
		  __entry->error)
);

TRACE_EVENT(gaudi_queue_doorbell,
	TP_PROTO(unsigned int card, u32 queue, u32 pi),
	TP_ARGS(card, queue, pi),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(u32, queue)
		__field(u32, pi)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->queue = queue;
		__entry->pi = pi;
	),
	TP_printk("accel%u queue=%u pi=%u", __entry->card, __entry->queue,
		  __entry->pi)
);

TRACE_EVENT(gaudi_mmu_map,
	TP_PROTO(unsigned int card, u64 va, u64 pa, u64 size, u64 page_size,
		 int ret),
	TP_ARGS(card, va, pa, size, page_size, ret),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(u64, va)
		__field(u64, pa)
		__field(u64, size)
		__field(u64, page_size)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->va = va;
		__entry->pa = pa;
		__entry->size = size;
		__entry->page_size = page_size;
		__entry->ret = ret;
	),
	TP_printk("accel%u va=0x%llx pa=0x%llx size=0x%llx page=0x%llx ret=%d",
		  __entry->card, __entry->va, __entry->pa, __entry->size,
		  __entry->page_size, __entry->ret)
);

TRACE_EVENT(gaudi_mmu_unmap,
	TP_PROTO(unsigned int card, u64 va, u64 size),
	TP_ARGS(card, va, size),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(u64, va)
		__field(u64, size)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->va = va;
		__entry->size = size;
	),
	TP_printk("accel%u va=0x%llx size=0x%llx", __entry->card, __entry->va,
		  __entry->size)
);

TRACE_EVENT(gaudi_reset_start,
	TP_PROTO(unsigned int card, const char *reason),
	TP_ARGS(card, reason),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__string(reason, reason)
	),
	TP_fast_assign(
		__entry->card = card;
		__assign_str(reason);
	),
	TP_printk("accel%u reason=\"%s\"", __entry->card, __get_str(reason))
);

TRACE_EVENT(gaudi_reset_done,
	TP_PROTO(unsigned int card, int ret, u64 ms),
	TP_ARGS(card, ret, ms),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(int, ret)
		__field(u64, ms)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->ret = ret;
		__entry->ms = ms;
	),
	TP_printk("accel%u ret=%d took=%llums", __entry->card, __entry->ret,
		  __entry->ms)
);

TRACE_EVENT(gaudi_cpucp_request,
	TP_PROTO(unsigned int card, u32 opcode, int ret, u64 us),
	TP_ARGS(card, opcode, ret, us),
	TP_STRUCT__entry(
		__field(unsigned int, card)
		__field(u32, opcode)
		__field(int, ret)
		__field(u64, us)
	),
	TP_fast_assign(
		__entry->card = card;
		__entry->opcode = opcode;
		__entry->ret = ret;
		__entry->us = us;
	),
	TP_printk("accel%u opcode=%u ret=%d took=%lluus", __entry->card,
		  __entry->opcode, __entry->ret, __entry->us)
);

#endif /* GAUDI_TRACE_H */

/* Out of the kernel tree: this folder is on the include path (Kbuild). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE gaudi_trace
#include <trace/define_trace.h>
