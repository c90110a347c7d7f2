/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_trace.h - tracepoints of the gputbs module (trace system gputbs).
 *
 * Every event is emitted with &gputbs_device.lock held, in emulated time:
 * cycle fields are emulated cycles of the device's clock (the clock of
 * struct gputbs_wait), not the trace clock.  A grid is named by the
 * client id of the file that submitted it (drm-client-id in its fdinfo)
 * and its handle on that file.  Documentation/tracing.rst describes each
 * event; gputbs timeline turns a recording into a per-SM plot.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM gputbs

#if !defined(_GPUTBS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _GPUTBS_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>

#include "gputbs_drv.h"

/* the enums' values in the format files, for trace-cmd and perf */
TRACE_DEFINE_ENUM(GTBS_PRIO_LOW);
TRACE_DEFINE_ENUM(GTBS_PRIO_NORMAL);
TRACE_DEFINE_ENUM(GTBS_PRIO_HIGH);
TRACE_DEFINE_ENUM(GTBS_PRIO_REALTIME);
TRACE_DEFINE_ENUM(GTBS_GRID_ARRIVING);
TRACE_DEFINE_ENUM(GTBS_GRID_QUEUED);
TRACE_DEFINE_ENUM(GTBS_GRID_RUNNING);
TRACE_DEFINE_ENUM(GTBS_GRID_DONE);
TRACE_DEFINE_ENUM(GTBS_GRID_CANCELLED);
TRACE_DEFINE_ENUM(GTBS_GRID_TIMED_OUT);
TRACE_DEFINE_ENUM(GPUTBS_PREEMPT_CLASS);
TRACE_DEFINE_ENUM(GPUTBS_PREEMPT_STARVE);
TRACE_DEFINE_ENUM(GPUTBS_PREEMPT_SHORTER);
TRACE_DEFINE_ENUM(GPUTBS_PREEMPT_SAMPLE);
TRACE_DEFINE_ENUM(GPUTBS_PREEMPT_SHARE);
TRACE_DEFINE_ENUM(GPUTBS_PREEMPT_LIMIT);
TRACE_DEFINE_ENUM(GPUTBS_PREEMPT_POLICY);
TRACE_DEFINE_ENUM(GTBS_MECH_SWITCH);
TRACE_DEFINE_ENUM(GTBS_MECH_FLUSH);

/*
 * ftrace needs the pairs literally; the unit test trace_names_match_table
 * checks them against the one table (sm-emu/gtbs_names.h).
 */
#define gputbs_show_class(c)						\
	__print_symbolic(c, { GTBS_PRIO_LOW, "low" },			\
			 { GTBS_PRIO_NORMAL, "normal" },		\
			 { GTBS_PRIO_HIGH, "high" },			\
			 { GTBS_PRIO_REALTIME, "realtime" })

#define gputbs_show_reason(r)						\
	__print_symbolic(r, { GPUTBS_PREEMPT_CLASS, "class" },		\
			 { GPUTBS_PREEMPT_STARVE, "starve" },		\
			 { GPUTBS_PREEMPT_SHORTER, "shorter" },		\
			 { GPUTBS_PREEMPT_SAMPLE, "sample" },		\
			 { GPUTBS_PREEMPT_SHARE, "share" },		\
			 { GPUTBS_PREEMPT_LIMIT, "limit" },		\
			 { GPUTBS_PREEMPT_POLICY, "policy" })

/* the mechanisms that interrupt a block (never drain) */
#define gputbs_show_mech(m)						\
	__print_symbolic(m, { GTBS_MECH_SWITCH, "switch" },		\
			 { GTBS_MECH_FLUSH, "flush" })

#define gputbs_show_end_state(s)					\
	__print_symbolic(s, { GTBS_GRID_DONE, "done" },			\
			 { GTBS_GRID_CANCELLED, "cancelled" },		\
			 { GTBS_GRID_TIMED_OUT, "timed_out" })

TRACE_EVENT(grid_submit,
	    TP_PROTO(const struct gputbs_grid *grid, u64 now),
	    TP_ARGS(grid, now),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u32, handle)
			     __field(u32, prio_class)
			     __field(u32, blocks)
			     __field(u32, residency)
			     __field(u64, cycle)
			     __field(u64, arrival)
			     __array(char, label, GTBS_LABEL_LEN)),
	    TP_fast_assign(__entry->client = grid->client->stats.id;
			   __entry->handle = grid->handle;
			   __entry->prio_class = grid->core.desc.prio_class;
			   __entry->blocks = grid->core.desc.nr_blocks;
			   __entry->residency = grid->core.occ.residency;
			   __entry->cycle = now;
			   __entry->arrival = grid->core.submit_cycle;
			   memcpy(__entry->label, grid->core.desc.label,
				  GTBS_LABEL_LEN);),
	    TP_printk("client=%llu handle=%u class=%s blocks=%u residency=%u cycle=%llu arrival=%llu label=%s",
		      __entry->client, __entry->handle,
		      gputbs_show_class(__entry->prio_class), __entry->blocks,
		      __entry->residency, __entry->cycle, __entry->arrival,
		      __entry->label)
);

TRACE_EVENT(grid_start,
	    TP_PROTO(const struct gputbs_grid *grid),
	    TP_ARGS(grid),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u32, handle)
			     __field(u64, id)
			     __field(u64, arrival)
			     __field(u64, cycle)),
	    TP_fast_assign(__entry->client = grid->client->stats.id;
			   __entry->handle = grid->handle;
			   __entry->id = grid->core.id;
			   __entry->arrival = grid->core.submit_cycle;
			   __entry->cycle = grid->core.start_cycle;),
	    TP_printk("client=%llu handle=%u id=%llu arrival=%llu cycle=%llu",
		      __entry->client, __entry->handle, __entry->id,
		      __entry->arrival, __entry->cycle)
);

TRACE_EVENT(block_start,
	    TP_PROTO(const struct gputbs_grid *grid, u32 sm, u32 slot, u32 block,
		     u64 cycle),
	    TP_ARGS(grid, sm, slot, block, cycle),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u32, handle)
			     __field(u32, sm)
			     __field(u32, slot)
			     __field(u32, block)
			     __field(u64, cycle)),
	    TP_fast_assign(__entry->client = grid->client->stats.id;
			   __entry->handle = grid->handle;
			   __entry->sm = sm;
			   __entry->slot = slot;
			   __entry->block = block;
			   __entry->cycle = cycle;),
	    TP_printk("client=%llu handle=%u sm=%u slot=%u block=%u cycle=%llu",
		      __entry->client, __entry->handle, __entry->sm, __entry->slot,
		      __entry->block, __entry->cycle)
);

TRACE_EVENT(block_end,
	    TP_PROTO(const struct gputbs_grid *grid, u32 sm, u32 slot, u32 block,
		     u64 start, u64 end),
	    TP_ARGS(grid, sm, slot, block, start, end),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u32, handle)
			     __field(u32, sm)
			     __field(u32, slot)
			     __field(u32, block)
			     __field(u64, start)
			     __field(u64, end)),
	    TP_fast_assign(__entry->client = grid->client->stats.id;
			   __entry->handle = grid->handle;
			   __entry->sm = sm;
			   __entry->slot = slot;
			   __entry->block = block;
			   __entry->start = start;
			   __entry->end = end;),
	    TP_printk("client=%llu handle=%u sm=%u slot=%u block=%u start=%llu end=%llu",
		      __entry->client, __entry->handle, __entry->sm, __entry->slot,
		      __entry->block, __entry->start, __entry->end)
);

/*
 * The transfers of a block's context (sm-emu/preempt.c), one class for
 * both directions: @cycles from @now, the cycle of the event, to the end
 * of the transfer, the block's slot held until then (the transfer itself
 * and the wait for the SM's earlier transfers).
 *
 * block_preempt: a resident block stopped running without ending, by @mech:
 * switched out (its save takes @cycles) or flushed (@cycles 0, the slot
 * free at once); it starts again later with another block_start.
 *
 * block_restore: a switched-out block was issued again (the block_start
 * just before it, at the same cycle): its restore takes @cycles, then it
 * runs on from where it stopped (@mech is switch).
 *
 * block_start and block_end stay events of their own: their fields differ
 * (a start cycle; a start and an end) and gputbs timeline reads them.
 */
DECLARE_EVENT_CLASS(gputbs_block_xfer,
		    TP_PROTO(const struct gputbs_grid *grid, u32 sm, u32 slot,
			     u32 block, u32 mech, u64 cycles, u64 now),
		    TP_ARGS(grid, sm, slot, block, mech, cycles, now),
		    TP_STRUCT__entry(__field(u64, client)
				     __field(u32, handle)
				     __field(u32, sm)
				     __field(u32, slot)
				     __field(u32, block)
				     __field(u32, mech)
				     __field(u64, cycles)
				     __field(u64, now)),
		    TP_fast_assign(__entry->client = grid->client->stats.id;
				   __entry->handle = grid->handle;
				   __entry->sm = sm;
				   __entry->slot = slot;
				   __entry->block = block;
				   __entry->mech = mech;
				   __entry->cycles = cycles;
				   __entry->now = now;),
		    TP_printk("client=%llu handle=%u sm=%u slot=%u block=%u mech=%s save_cycles=%llu cycle=%llu",
			      __entry->client, __entry->handle, __entry->sm,
			      __entry->slot, __entry->block,
			      gputbs_show_mech(__entry->mech), __entry->cycles,
			      __entry->now)
);

DEFINE_EVENT(gputbs_block_xfer, block_preempt,
	     TP_PROTO(const struct gputbs_grid *grid, u32 sm, u32 slot,
		      u32 block, u32 mech, u64 cycles, u64 now),
	     TP_ARGS(grid, sm, slot, block, mech, cycles, now));

DEFINE_EVENT_PRINT(gputbs_block_xfer, block_restore,
		   TP_PROTO(const struct gputbs_grid *grid, u32 sm, u32 slot,
			    u32 block, u32 mech, u64 cycles, u64 now),
		   TP_ARGS(grid, sm, slot, block, mech, cycles, now),
		   TP_printk("client=%llu handle=%u sm=%u slot=%u block=%u restore_cycles=%llu cycle=%llu",
			     __entry->client, __entry->handle, __entry->sm,
			     __entry->slot, __entry->block, __entry->cycles,
			     __entry->now));

TRACE_EVENT(grid_end,
	    TP_PROTO(const struct gputbs_grid *grid),
	    TP_ARGS(grid),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u32, handle)
			     __field(u32, state)
			     __field(u32, blocks_done)
			     __field(u32, blocks)
			     __field(u64, arrival)
			     __field(u64, start)
			     __field(u64, end)),
	    TP_fast_assign(__entry->client = grid->client->stats.id;
			   __entry->handle = grid->handle;
			   __entry->state = grid->core.state;
			   __entry->blocks_done = grid->core.blocks_done;
			   __entry->blocks = grid->core.desc.nr_blocks;
			   __entry->arrival = grid->core.submit_cycle;
			   __entry->start = grid->core.start_cycle;
			   __entry->end = grid->core.end_cycle;),
	    TP_printk("client=%llu handle=%u state=%s blocks_done=%u blocks=%u arrival=%llu start=%llu end=%llu",
		      __entry->client, __entry->handle,
		      gputbs_show_end_state(__entry->state), __entry->blocks_done,
		      __entry->blocks, __entry->arrival, __entry->start,
		      __entry->end)
);

TRACE_EVENT(preempt,
	    TP_PROTO(u32 sm, u64 cycle, const struct gputbs_grid *from,
		     u32 from_class, const struct gputbs_grid *to, u32 to_class,
		     u32 reason),
	    TP_ARGS(sm, cycle, from, from_class, to, to_class, reason),
	    TP_STRUCT__entry(__field(u32, sm)
			     __field(u64, cycle)
			     __field(u64, from_client)
			     __field(u32, from_handle)
			     __field(u32, from_class)
			     __field(u64, to_client)
			     __field(u32, to_handle)
			     __field(u32, to_class)
			     __field(u32, reason)),
	    TP_fast_assign(__entry->sm = sm;
			   __entry->cycle = cycle;
			   __entry->from_client = from->client->stats.id;
			   __entry->from_handle = from->handle;
			   __entry->from_class = from_class;
			   __entry->to_client = to->client->stats.id;
			   __entry->to_handle = to->handle;
			   __entry->to_class = to_class;
			   __entry->reason = reason;),
	    TP_printk("sm=%u cycle=%llu from_client=%llu from_handle=%u from_class=%s to_client=%llu to_handle=%u to_class=%s reason=%s",
		      __entry->sm, __entry->cycle, __entry->from_client,
		      __entry->from_handle, gputbs_show_class(__entry->from_class),
		      __entry->to_client, __entry->to_handle,
		      gputbs_show_class(__entry->to_class),
		      gputbs_show_reason(__entry->reason))
);

TRACE_EVENT(predict,
	    TP_PROTO(const struct gputbs_grid *grid, u32 sm,
		     const struct gtbs_pred_sm *pred, u64 cycle),
	    TP_ARGS(grid, sm, pred, cycle),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u32, handle)
			     __field(u32, sm)
			     __field(u64, cycle)
			     __field(u64, pred_cycles)
			     __field(u64, t)
			     __field(u32, done_blocks)
			     __field(u32, total_blocks)
			     __field(u32, resident_blocks)
			     __field(u64, remaining)),
	    TP_fast_assign(__entry->client = grid->client->stats.id;
			   __entry->handle = grid->handle;
			   __entry->sm = sm;
			   __entry->cycle = cycle;
			   __entry->pred_cycles = pred->pred_cycles;
			   __entry->t = pred->t;
			   __entry->done_blocks = pred->done_blocks;
			   __entry->total_blocks = pred->total_blocks;
			   __entry->resident_blocks = pred->resident_blocks;
			   __entry->remaining = gtbs_pred_remaining(pred, cycle);),
	    TP_printk("client=%llu handle=%u sm=%u cycle=%llu pred_cycles=%llu t=%llu done_blocks=%u total_blocks=%u resident_blocks=%u remaining=%llu",
		      __entry->client, __entry->handle, __entry->sm,
		      __entry->cycle, __entry->pred_cycles, __entry->t,
		      __entry->done_blocks, __entry->total_blocks,
		      __entry->resident_blocks, __entry->remaining)
);

TRACE_EVENT(policy_switch,
	    TP_PROTO(const char *from, const char *to, u64 cycle),
	    TP_ARGS(from, to, cycle),
	    TP_STRUCT__entry(__field(u64, cycle)
			     __array(char, from, GPUTBS_TRACE_NAME_LEN)
			     __array(char, to, GPUTBS_TRACE_NAME_LEN)),
	    TP_fast_assign(__entry->cycle = cycle;
			   strscpy(__entry->from, from, GPUTBS_TRACE_NAME_LEN);
			   strscpy(__entry->to, to, GPUTBS_TRACE_NAME_LEN);),
	    TP_printk("cycle=%llu from=%s to=%s", __entry->cycle, __entry->from,
		      __entry->to)
);

TRACE_EVENT(sharing_mode,
	    TP_PROTO(u32 sm, u64 cycle, bool sharing),
	    TP_ARGS(sm, cycle, sharing),
	    TP_STRUCT__entry(__field(u32, sm)
			     __field(u64, cycle)
			     __field(u32, sharing)),
	    TP_fast_assign(__entry->sm = sm;
			   __entry->cycle = cycle;
			   __entry->sharing = sharing;),
	    TP_printk("sm=%u cycle=%llu sharing=%u", __entry->sm, __entry->cycle,
		      __entry->sharing)
);

#endif /* _GPUTBS_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE gputbs_trace
#include <trace/define_trace.h>
