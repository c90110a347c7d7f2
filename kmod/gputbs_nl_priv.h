/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_nl_priv.h - what the two halves of the gputbs generic netlink
 * family share: the commands (gputbs_nl_cmd.c) and the events
 * (gputbs_nl_event.c).  Not for the rest of the module, which uses
 * gputbs_nl.h.
 *
 * gputbs_nl_cmd.c calls into gputbs_nl_event.c (the snapshots, the event
 * side's life cycle), never the other way round: the event half is called
 * under the device lock by gputbs_obs.c and refers to nothing of
 * gputbs_config.c or of the commands, not even the family, which
 * gputbs_nl_event_init() is given.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_NL_PRIV_H
#define _GPUTBS_NL_PRIV_H

#include <linux/atomic.h>
#include <linux/kfifo.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>

#include "../sm-emu/gtbs.h"

struct genl_family;
struct gputbs_device;
struct gputbs_grid;
struct sk_buff;
struct sock;

/* Index of the events group in gputbs_nl_mcgrps[]. */
enum {
	GPUTBS_NLGRP_EVENTS,
};

/**
 * struct gputbs_nl_grid - a grid as the family reports it
 * @id: &gputbs_grid.id.
 * @client_id: drm-client-id of its file.
 * @submit_cycle: arrival cycle.
 * @start_cycle: cycle its first block started (if @started).
 * @end_cycle: cycle it completed or was cancelled (if @ended).
 * @alone_cycles: the key of srtf-oracle, sjf and ljf, cycles.
 * @nr_predictions: predictions made for it.
 * @pred_remaining: the latest prediction's remaining runtime, cycles.
 * @pred_cycle: cycle of that prediction.
 * @pid: &gputbs_grid.pid.
 * @uid: &gputbs_grid.uid: who sees @pid and @label
 *	(gputbs_nl_viewer_sees()).
 * @handle: its handle in its file.
 * @prio_class: uAPI priority class, %GPUTBS_PRIO_LOW..%GPUTBS_PRIO_REALTIME.
 * @state: &enum gputbs_grid_state.
 * @nr_blocks: thread blocks.
 * @blocks_issued: blocks started.
 * @blocks_done: blocks ended.
 * @resident: blocks resident now.
 * @residency: maximum residency R.
 * @limiter: &enum gputbs_limiter.
 * @threads_per_block: threads per block.
 * @started: a block started.
 * @ended: DONE or CANCELLED.
 * @label: its label.
 *
 * A copy, taken under &gputbs_device.lock: it outlives the grid.
 */
struct gputbs_nl_grid {
	u64 id;
	u64 client_id;
	u64 submit_cycle;
	u64 start_cycle;
	u64 end_cycle;
	u64 alone_cycles;
	u64 nr_predictions;
	u64 pred_remaining;
	u64 pred_cycle;
	kuid_t uid;
	u32 pid;
	u32 handle;
	u32 prio_class;
	u32 state;
	u32 nr_blocks;
	u32 blocks_issued;
	u32 blocks_done;
	u32 resident;
	u32 residency;
	u32 limiter;
	u32 threads_per_block;
	bool started;
	bool ended;
	char label[GTBS_LABEL_LEN];
};

/**
 * struct gputbs_nl_event - one queued event
 * @cmd: its notification, %GPUTBS_CMD_GRID_SUBMITTED_NTF..
 *	%GPUTBS_CMD_EVENTS_LOST_NTF.
 * @cycle: emulated cycle of the event.
 * @time_ns: CLOCK_MONOTONIC time of @cycle.
 * @grid: the grid of a grid event.
 * @by_grid_id: preempted: the grid that took the SM.
 * @sm: preempted: the SM.
 * @reason: preempted: &enum gputbs_preempt_reason.
 * @policy: policy changed: the new policy's name, copied: a policy
 *	module may be unloaded before the worker sends the event.
 * @old_policy: policy changed: the previous one's, likewise (its module
 *	loses the device's reference at the switch).
 * @lost: events lost: how many.
 */
struct gputbs_nl_event {
	u8 cmd;
	u64 cycle;
	u64 time_ns;
	struct gputbs_nl_grid grid;
	u64 by_grid_id;
	u32 sm;
	u32 reason;
	char policy[GTBS_POLICY_NAME_LEN];
	char old_policy[GTBS_POLICY_NAME_LEN];
	u64 lost;
};

/**
 * struct gputbs_nl - the family's state for the one device of the module
 * @gdev: the device (set before the family is registered, constant).
 * @family: the family the events are multicast on (gputbs_nl_cmd.c's;
 *	set before it is registered, constant).
 * @queue: events from under the device lock to @work: the producers hold
 *	&gputbs_device.lock, @work is the only consumer (no lock of its own).
 * @buf: storage of @queue (set before the family is registered).
 * @work: sends the queued events (system_wq; never concurrent with
 *	itself).
 * @enabled: events are queued (&gputbs_device.lock).
 * @next_id: the last &gputbs_grid.id given (&gputbs_device.lock).
 * @gen: grids submitted plus grids cancelled (&gputbs_device.lock); with
 *	the core's counters of arrivals and completions, it changes whenever
 *	the dumped grid lists do.
 * @queued: events queued (&gputbs_device.lock).
 * @dropped: events dropped (&gputbs_device.lock).
 * @unreported: drops not yet reported by an events-lost-ntf
 *	(&gputbs_device.lock).
 * @sent: events multicast (events-lost-ntf not counted); atomic, no lock:
 *	@work adds, dev-get reads.
 */
struct gputbs_nl {
	struct gputbs_device *gdev;
	const struct genl_family *family;
	DECLARE_KFIFO_PTR(queue, struct gputbs_nl_event);
	void *buf;
	struct work_struct work;
	bool enabled;
	u64 next_id;
	u64 gen;
	u64 queued;
	u64 dropped;
	u64 unreported;
	atomic64_t sent;
};

/**
 * struct gputbs_nl_viewer - who receives a grid's attributes
 * @uid: real uid of the credentials the receiving netlink socket was
 *	opened with; INVALID_UID for a socket without a file.
 * @all: those credentials have CAP_SYS_ADMIN or CAP_PERFMON in the
 *	initial user namespace: every grid in full.
 *
 * Other users' grids are private: a viewer without @all sees the pid and
 * the label of its own grids only (gputbs_nl_viewer_sees()), as /proc
 * and perf keep other users' processes' details to the privileged.
 */
struct gputbs_nl_viewer {
	kuid_t uid;
	bool all;
};

/*
 * The family's state (gputbs_nl_event.c): written only by
 * gputbs_nl_event_init() before the family is registered and by
 * gputbs_nl_event_exit() after it is unregistered, while no grid exists;
 * constant for the operations and the events in between.
 */
extern struct gputbs_nl *gputbs_nl;

/* gputbs_nl_event.c: the snapshots the commands report too */
void gputbs_nl_grid_get(const struct gputbs_grid *grid,
			struct gputbs_nl_grid *out);
int gputbs_nl_put_grid(struct sk_buff *skb, const struct gputbs_nl_grid *g,
		       bool full);

/* gputbs_nl_event.c: who sees what of a grid */
void gputbs_nl_viewer_of(const struct sock *sk, struct gputbs_nl_viewer *v);
bool gputbs_nl_viewer_sees(const struct gputbs_nl_viewer *v, kuid_t uid);

/* gputbs_nl_event.c: the event side's life cycle, for gputbs_nl_cmd.c */
int gputbs_nl_event_init(struct gputbs_device *gdev,
			 const struct genl_family *family);
void gputbs_nl_event_start(struct gputbs_device *gdev);
void gputbs_nl_event_stop(struct gputbs_device *gdev);
void gputbs_nl_event_exit(void);

#endif /* _GPUTBS_NL_PRIV_H */
