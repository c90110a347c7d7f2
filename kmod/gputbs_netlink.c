// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_netlink.c - the gputbs generic netlink family: the device, its
 * grids and SMs, the policy switch, and the events multicast group.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Generic netlink
 *
 * The family ``gputbs`` (Documentation/netlink/specs/gputbs.yaml, uAPI
 * linux/gputbs_netlink.h) exists in the initial network namespace only,
 * like the device.  Its operations run in the requesting process's
 * context: dev-get (do), grid-get and sm-get (do and dump) copy what they
 * report under &gputbs_device.lock after running the device up to the
 * current cycle (gputbs_dev_sync()), so that a dump shows the schedule of
 * now; dev-get also reports the current policy's parameters, one nest
 * each, read under the same hold of the lock.  policy-set and param-set
 * (%GENL_ADMIN_PERM, and CAP_SYS_ADMIN checked by the operation) switch
 * the policy and set one of its parameters the way the sysfs files policy
 * and policy_params/ do.  Bad requests get an extended ACK message (and
 * the offending attribute).
 *
 * Events.  The scheduling events (a grid submitted, started, preempted,
 * completed or cancelled, the policy changed) happen where the module
 * runs the core, that is under the device spinlock, often in an SM
 * kthread inside gtbs_dev_run_until(): nothing there may sleep, allocate
 * with GFP_KERNEL or send a netlink message.  So the event path has two
 * halves::
 *
 *   under gputbs_device.lock                  process context (system_wq)
 *   ------------------------                  ---------------------------
 *   observer hook (gputbs_obs.c)
 *     -> gputbs_nl_queue():                     gputbs_nl_work():
 *        nobody listens? return                   kfifo_get() an event
 *        copy the event (grid snapshot,    ==>    genlmsg_new(GFP_KERNEL)
 *          no pointers) into the kfifo            fill, genlmsg_multicast()
 *        full? count it as dropped                queue empty: report
 *        queue_work()                               drops still pending
 *
 * The queue is a kfifo of fixed-size records allocated at load
 * (module parameter event_queue_len, rounded up to a power of two): one
 * producer at a time, because every producer holds the device lock, and
 * one consumer, the work item, which never runs concurrently with itself;
 * so the kfifo needs no lock of its own and the worker never takes the
 * device lock to drain it.  A record is a copy: the grid may be reaped
 * and freed before the worker sends it.  Nothing is queued while the
 * events group has no listener (genl_has_listeners(), RCU only).
 *
 * When the queue is full the event is dropped and counted
 * (events-dropped of dev-get) and the count of drops not yet reported
 * grows; the next event that finds room for two records is preceded by an
 * events-lost-ntf carrying that count, so a listener learns where in the
 * stream events are missing.  If no event follows, the worker reports the
 * drops when it empties the queue (taking the device lock for that one
 * insertion).  A message that cannot be built is counted the same way;
 * a listener whose socket overflows gets ENOBUFS from recv() as usual.
 *
 * Unloading: the family's events are disabled under the lock, the work is
 * cancelled (so nothing multicasts on a family that is going away), then
 * the family is unregistered, which waits for the operations in flight.
 */
#include <linux/capability.h>
#include <linux/kfifo.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "../uapi/linux/gputbs_netlink.h"

#include "gputbs_drv.h"
#include "gputbs_nl.h"

static unsigned int event_queue_len = 256;
module_param(event_queue_len, uint, 0444);
MODULE_PARM_DESC(event_queue_len,
		 "Scheduling events queued for the netlink events group, 4..16384, rounded up to a power of two (default 256)");

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
 * @policy: policy changed: the new policy (a static name of the registry).
 * @old_policy: policy changed: the previous one.
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
	const char *policy;
	const char *old_policy;
	u64 lost;
};

/**
 * struct gputbs_nl - the family's state for the one device of the module
 * @gdev: the device.
 * @queue: events from under the device lock to @work: the producers hold
 *	&gputbs_device.lock, @work is the only consumer.
 * @buf: storage of @queue.
 * @work: sends the queued events (system_wq).
 * @enabled: events are queued (&gputbs_device.lock).
 * @next_id: the last &gputbs_grid.id given (&gputbs_device.lock).
 * @gen: grids submitted plus grids cancelled (&gputbs_device.lock); with
 *	the core's counters of arrivals and completions, it changes whenever
 *	the dumped grid lists do.
 * @queued: events queued (&gputbs_device.lock).
 * @dropped: events dropped (&gputbs_device.lock).
 * @unreported: drops not yet reported by an events-lost-ntf
 *	(&gputbs_device.lock).
 * @sent: events multicast (events-lost-ntf not counted).
 */
struct gputbs_nl {
	struct gputbs_device *gdev;
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

static struct gputbs_nl *gputbs_nl;
static struct genl_family gputbs_nl_family;

/* ---- snapshots ----------------------------------------------------------- */

static u32 gputbs_nl_state(enum gtbs_grid_state state)
{
	switch (state) {
	case GTBS_GRID_NEW:
	case GTBS_GRID_ARRIVING:
		return GPUTBS_GRID_STATE_ARRIVING;
	case GTBS_GRID_QUEUED:
		return GPUTBS_GRID_STATE_QUEUED;
	case GTBS_GRID_RUNNING:
		return GPUTBS_GRID_STATE_RUNNING;
	case GTBS_GRID_DONE:
		return GPUTBS_GRID_STATE_DONE;
	case GTBS_GRID_TIMED_OUT:
		return GPUTBS_GRID_STATE_TIMED_OUT;
	case GTBS_GRID_CANCELLED:
		break;
	}
	return GPUTBS_GRID_STATE_CANCELLED;
}

/* Copy what the family reports of @grid.  Device lock held. */
static void gputbs_nl_grid_get(const struct gputbs_grid *grid,
			       struct gputbs_nl_grid *out)
{
	const struct gtbs_grid *g = &grid->core;

	BUILD_BUG_ON((int)GPUTBS_LIMITER_BLOCKS != (int)GTBS_LIMIT_BLOCKS ||
		     (int)GPUTBS_LIMITER_WARPS != (int)GTBS_LIMIT_WARPS ||
		     (int)GPUTBS_LIMITER_REGS != (int)GTBS_LIMIT_REGS ||
		     (int)GPUTBS_LIMITER_SHMEM != (int)GTBS_LIMIT_SHMEM);
	BUILD_BUG_ON(sizeof(out->label) != sizeof(g->desc.label));

	memset(out, 0, sizeof(*out));
	out->id = grid->id;
	out->client_id = grid->client->stats.id;
	out->pid = grid->pid;
	out->handle = grid->handle;
	/* the core's classes are the uAPI's minus one */
	out->prio_class = g->desc.prio_class + 1;
	out->state = gputbs_nl_state(g->state);
	out->nr_blocks = g->desc.nr_blocks;
	out->blocks_issued = g->next_block;
	out->blocks_done = g->blocks_done;
	out->resident = g->resident;
	out->residency = g->occ.residency;
	out->limiter = g->occ.limiter;
	out->threads_per_block = g->desc.threads_per_block;
	out->submit_cycle = g->submit_cycle;
	out->started = g->next_block > 0;
	out->start_cycle = g->start_cycle;
	out->ended = g->state == GTBS_GRID_DONE ||
		     g->state == GTBS_GRID_CANCELLED ||
		     g->state == GTBS_GRID_TIMED_OUT;
	out->end_cycle = g->end_cycle;
	out->alone_cycles = g->alone_cycles;
	out->nr_predictions = g->nr_predictions;
	out->pred_remaining = g->pred_remaining;
	out->pred_cycle = g->pred_cycle;
	memcpy(out->label, g->desc.label, sizeof(out->label));
	out->label[sizeof(out->label) - 1] = '\0';
}

static int gputbs_nl_put_grid(struct sk_buff *skb,
			      const struct gputbs_nl_grid *g)
{
	if (nla_put_u64_64bit(skb, GPUTBS_A_GRID_ID, g->id, GPUTBS_A_GRID_PAD) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_PID, g->pid) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_GRID_CLIENT_ID, g->client_id,
			      GPUTBS_A_GRID_PAD) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_HANDLE, g->handle) ||
	    nla_put_string(skb, GPUTBS_A_GRID_LABEL, g->label) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_CLASS, g->prio_class) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_STATE, g->state) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_NR_BLOCKS, g->nr_blocks) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_BLOCKS_ISSUED, g->blocks_issued) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_BLOCKS_DONE, g->blocks_done) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_RESIDENT, g->resident) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_RESIDENCY, g->residency) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_LIMITER, g->limiter) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_THREADS_PER_BLOCK,
			g->threads_per_block) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_GRID_SUBMIT_CYCLE, g->submit_cycle,
			      GPUTBS_A_GRID_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_GRID_ALONE_CYCLES, g->alone_cycles,
			      GPUTBS_A_GRID_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_GRID_NR_PREDICTIONS,
			      g->nr_predictions, GPUTBS_A_GRID_PAD))
		return -EMSGSIZE;
	if (g->started &&
	    nla_put_u64_64bit(skb, GPUTBS_A_GRID_START_CYCLE, g->start_cycle,
			      GPUTBS_A_GRID_PAD))
		return -EMSGSIZE;
	if (g->ended &&
	    nla_put_u64_64bit(skb, GPUTBS_A_GRID_END_CYCLE, g->end_cycle,
			      GPUTBS_A_GRID_PAD))
		return -EMSGSIZE;
	if (g->nr_predictions &&
	    (nla_put_u64_64bit(skb, GPUTBS_A_GRID_PRED_REMAINING,
			       g->pred_remaining, GPUTBS_A_GRID_PAD) ||
	     nla_put_u64_64bit(skb, GPUTBS_A_GRID_PRED_CYCLE, g->pred_cycle,
			       GPUTBS_A_GRID_PAD)))
		return -EMSGSIZE;
	return 0;
}

/* ---- events: the half under the device lock --------------------------------- */

/* Whether events are wanted now.  Device lock held. */
static bool gputbs_nl_listening(const struct gputbs_nl *nl)
{
	return nl && nl->enabled &&
	       genl_has_listeners(&gputbs_nl_family, &init_net,
				  GPUTBS_NLGRP_EVENTS);
}

/*
 * Put an events-lost record for the drops not reported yet, if there are
 * any and there is room.  Device lock held.
 */
static void gputbs_nl_report_lost(struct gputbs_nl *nl)
{
	struct gputbs_nl_event lost = {
		.cmd = GPUTBS_CMD_EVENTS_LOST_NTF,
		.lost = nl->unreported,
	};

	if (!nl->unreported || !kfifo_avail(&nl->queue))
		return;
	kfifo_put(&nl->queue, lost);
	nl->unreported = 0;
}

/*
 * Queue @ev for the worker, after an events-lost record if events were
 * dropped before it; drop and count it when the queue is full.  Device
 * lock held: the lock makes the kfifo single-producer.
 */
static void gputbs_nl_queue(struct gputbs_nl *nl, struct gputbs_nl_event *ev)
{
	unsigned int need = nl->unreported ? 2 : 1;

	ev->time_ns = gputbs_cycles_to_ns(nl->gdev, ev->cycle);
	if (kfifo_avail(&nl->queue) < need) {
		nl->dropped++;
		nl->unreported++;
		return;
	}
	gputbs_nl_report_lost(nl);
	kfifo_put(&nl->queue, *ev);
	nl->queued++;
	queue_work(system_wq, &nl->work);
}

static void gputbs_nl_grid_event(struct gputbs_device *gdev, u8 cmd,
				 const struct gputbs_grid *grid, u64 cycle)
{
	struct gputbs_nl_event ev = { .cmd = cmd, .cycle = cycle };

	if (!gputbs_nl_listening(gputbs_nl))
		return;
	gputbs_nl_grid_get(grid, &ev.grid);
	gputbs_nl_queue(gputbs_nl, &ev);
}

/**
 * gputbs_nl_grid_submitted() - a grid was submitted through a file
 * @gdev: the device.
 * @grid: the grid, just passed to gtbs_grid_submit_at().
 *
 * Gives the grid its device-wide id and records the submitting process,
 * then queues grid-submitted-ntf.  Called by gputbs_obs_grid_submit().
 *
 * Context: &gputbs_device.lock held, from the SUBMIT ioctl (current is
 * the submitter).
 */
void gputbs_nl_grid_submitted(struct gputbs_device *gdev,
			      struct gputbs_grid *grid)
{
	struct gputbs_nl *nl = gputbs_nl;

	lockdep_assert_held(&gdev->lock);
	grid->pid = task_tgid_nr(current);
	if (!nl)
		return;
	grid->id = ++nl->next_id;
	nl->gen++;
	gputbs_nl_grid_event(gdev, GPUTBS_CMD_GRID_SUBMITTED_NTF, grid,
			     grid->core.submit_cycle);
}

/**
 * gputbs_nl_grid_started() - the first block of a grid started
 * @gdev: the device.
 * @grid: the grid.
 *
 * Queues grid-started-ntf.  Called by gputbs_obs_grid_start().
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_nl_grid_started(struct gputbs_device *gdev,
			    const struct gputbs_grid *grid)
{
	lockdep_assert_held(&gdev->lock);
	gputbs_nl_grid_event(gdev, GPUTBS_CMD_GRID_STARTED_NTF, grid,
			     grid->core.start_cycle);
}

/**
 * gputbs_nl_grid_completed() - the last block of a grid ended
 * @gdev: the device.
 * @grid: the grid, DONE.
 *
 * Queues grid-completed-ntf.  Called by gputbs_obs_grid_done().
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_nl_grid_completed(struct gputbs_device *gdev,
			      const struct gputbs_grid *grid)
{
	lockdep_assert_held(&gdev->lock);
	gputbs_nl_grid_event(gdev, GPUTBS_CMD_GRID_COMPLETED_NTF, grid,
			     grid->core.end_cycle);
}

/**
 * gputbs_nl_grid_stopped() - a grid ended before completing
 * @gdev: the device.
 * @grid: the grid, CANCELLED (its file was closed) or TIMED_OUT (the job
 *	timeout stopped it).
 *
 * Queues grid-cancelled-ntf or grid-timed-out-ntf, by @grid's state.
 * Called by gputbs_obs_grid_cancel() and gputbs_obs_grid_timeout().
 *
 * Context: &gputbs_device.lock held, from release or wherever the device
 * runs (a timeout is an event of the core).
 */
void gputbs_nl_grid_stopped(struct gputbs_device *gdev,
			    const struct gputbs_grid *grid)
{
	lockdep_assert_held(&gdev->lock);
	if (gputbs_nl)
		gputbs_nl->gen++;
	gputbs_nl_grid_event(gdev, grid->core.state == GTBS_GRID_TIMED_OUT ?
			     GPUTBS_CMD_GRID_TIMED_OUT_NTF :
			     GPUTBS_CMD_GRID_CANCELLED_NTF,
			     grid, grid->core.end_cycle);
}

/**
 * gputbs_nl_grid_preempted() - an SM stopped issuing a grid for another
 * @gdev: the device.
 * @sm: the SM, at a block boundary (@sm->now).
 * @grid: the grid that still has blocks to issue.
 * @by: the grid the SM issues instead.
 * @reason: &enum gputbs_preempt_reason, one of the preemptions (class,
 *	starve, shorter).
 *
 * Queues grid-preempted-ntf.  Called by gputbs_obs_pick().
 *
 * Context: &gputbs_device.lock held, inside the core's dispatch.
 */
void gputbs_nl_grid_preempted(struct gputbs_device *gdev,
			      const struct gtbs_sm *sm,
			      const struct gputbs_grid *grid,
			      const struct gputbs_grid *by, u32 reason)
{
	struct gputbs_nl_event ev = {
		.cmd = GPUTBS_CMD_GRID_PREEMPTED_NTF,
		.cycle = sm->now,
		.by_grid_id = by->id,
		.sm = sm->id,
		.reason = reason,
	};

	lockdep_assert_held(&gdev->lock);
	BUILD_BUG_ON((int)GPUTBS_PREEMPTION_REASON_CLASS != (int)GPUTBS_PREEMPT_CLASS ||
		     (int)GPUTBS_PREEMPTION_REASON_STARVE != (int)GPUTBS_PREEMPT_STARVE ||
		     (int)GPUTBS_PREEMPTION_REASON_SHORTER != (int)GPUTBS_PREEMPT_SHORTER ||
		     (int)GPUTBS_PREEMPTION_REASON_SAMPLE != (int)GPUTBS_PREEMPT_SAMPLE ||
		     (int)GPUTBS_PREEMPTION_REASON_SHARE != (int)GPUTBS_PREEMPT_SHARE ||
		     (int)GPUTBS_PREEMPTION_REASON_LIMIT != (int)GPUTBS_PREEMPT_LIMIT ||
		     (int)GPUTBS_PREEMPTION_REASON_POLICY != (int)GPUTBS_PREEMPT_POLICY);

	if (!gputbs_nl_listening(gputbs_nl))
		return;
	gputbs_nl_grid_get(grid, &ev.grid);
	gputbs_nl_queue(gputbs_nl, &ev);
}

/**
 * gputbs_nl_policy_changed() - the device's policy changed
 * @gdev: the device.
 * @old: the policy before.
 * @now: the emulated cycle of the switch.
 *
 * Queues policy-changed-ntf.  Called by gputbs_obs_policy_switched() when
 * the policy is not @old any more, from the sysfs attribute or the
 * family's policy-set.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_nl_policy_changed(struct gputbs_device *gdev,
			      const struct gtbs_policy_ops *old, u64 now)
{
	struct gputbs_nl_event ev = {
		.cmd = GPUTBS_CMD_POLICY_CHANGED_NTF,
		.cycle = now,
		.policy = gdev->core.policy->name,
		.old_policy = old->name,
	};

	lockdep_assert_held(&gdev->lock);
	if (!gputbs_nl_listening(gputbs_nl))
		return;
	gputbs_nl_queue(gputbs_nl, &ev);
}

/* ---- events: the half in process context ------------------------------------ */

static int gputbs_nl_put_event(struct sk_buff *skb,
			       const struct gputbs_nl_event *ev)
{
	struct nlattr *nest;

	if (ev->cmd == GPUTBS_CMD_EVENTS_LOST_NTF)
		return nla_put_u64_64bit(skb, GPUTBS_A_EVENT_LOST, ev->lost,
					 GPUTBS_A_EVENT_PAD);
	if (nla_put_u64_64bit(skb, GPUTBS_A_EVENT_CYCLE, ev->cycle,
			      GPUTBS_A_EVENT_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_EVENT_TIME_NS, ev->time_ns,
			      GPUTBS_A_EVENT_PAD))
		return -EMSGSIZE;
	if (ev->cmd == GPUTBS_CMD_POLICY_CHANGED_NTF)
		return nla_put_string(skb, GPUTBS_A_EVENT_POLICY, ev->policy) ?:
		       nla_put_string(skb, GPUTBS_A_EVENT_OLD_POLICY,
				      ev->old_policy);
	nest = nla_nest_start(skb, GPUTBS_A_EVENT_GRID);
	if (!nest || gputbs_nl_put_grid(skb, &ev->grid))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	if (ev->cmd != GPUTBS_CMD_GRID_PREEMPTED_NTF)
		return 0;
	if (nla_put_u64_64bit(skb, GPUTBS_A_EVENT_BY_GRID_ID, ev->by_grid_id,
			      GPUTBS_A_EVENT_PAD) ||
	    nla_put_u32(skb, GPUTBS_A_EVENT_SM, ev->sm) ||
	    nla_put_u32(skb, GPUTBS_A_EVENT_REASON, ev->reason))
		return -EMSGSIZE;
	return 0;
}

/* Multicast one event.  Returns false if it was lost. */
static bool gputbs_nl_send(struct gputbs_nl *nl,
			   const struct gputbs_nl_event *ev)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return false;
	hdr = genlmsg_put(skb, 0, 0, &gputbs_nl_family, 0, ev->cmd);
	if (!hdr || gputbs_nl_put_event(skb, ev)) {
		nlmsg_free(skb);
		return false;
	}
	genlmsg_end(skb, hdr);
	ret = genlmsg_multicast(&gputbs_nl_family, skb, 0, GPUTBS_NLGRP_EVENTS,
				GFP_KERNEL);
	/*
	 * -ESRCH: the listeners left; -ENOBUFS: one overran (it is told).
	 * Only events count, not the reports of lost ones.
	 */
	if ((!ret || ret == -ENOBUFS) && ev->cmd != GPUTBS_CMD_EVENTS_LOST_NTF)
		atomic64_inc(&nl->sent);
	return true;
}

static void gputbs_nl_work(struct work_struct *work)
{
	struct gputbs_nl *nl = container_of(work, struct gputbs_nl, work);
	struct gputbs_device *gdev = nl->gdev;
	struct gputbs_nl_event ev;
	bool more;

	do {
		while (kfifo_get(&nl->queue, &ev)) {
			if (!gputbs_nl_send(nl, &ev)) {
				spin_lock(&gdev->lock);
				nl->dropped++;
				nl->unreported++;
				spin_unlock(&gdev->lock);
			}
			cond_resched();
		}
		/* drops after the last queued event: report them now */
		spin_lock(&gdev->lock);
		more = nl->enabled && nl->unreported;
		if (more)
			gputbs_nl_report_lost(nl);
		spin_unlock(&gdev->lock);
	} while (more);
}

/* ---- operations ------------------------------------------------------------------ */

/**
 * struct gputbs_nl_dev - what dev-get reports, copied under the lock
 * @policy: current policy.
 * @cfg: the device's configuration.
 * @time_scale_ps: ps per cycle.
 * @epoch_ns: time of cycle 0.
 * @now: the current cycle.
 * @arriving: grids ARRIVING.
 * @queued: grids QUEUED.
 * @running: grids RUNNING.
 * @counters: the core's counters (in its member order).
 * @ev_queued: events queued.
 * @ev_dropped: events dropped.
 * @timeout_ns: the device's job timeout, ns (sysfs timeout_ns).
 */
struct gputbs_nl_dev {
	const char *policy;
	struct gtbs_dev_config cfg;
	u32 time_scale_ps;
	u64 epoch_ns;
	u64 now;
	u32 arriving;
	u32 queued;
	u32 running;
	u64 counters[9];
	u64 timeout_ns;
	u64 ev_queued;
	u64 ev_dropped;
};

/*
 * One nest per parameter of the device's policy, into @skb (allocated:
 * nothing here allocates or sleeps).  Device lock held: the policy's
 * parameters are read where they are, and its strings are not kept.
 */
static int gputbs_nl_put_params(struct sk_buff *skb, const struct gtbs_dev *core)
{
	const struct gtbs_policy_ops *ops = core->policy;
	struct nlattr *nest;
	u32 i;

	for (i = 0; i < ops->nr_params; i++) {
		const struct gtbs_policy_param *p = &ops->params[i];
		u64 val = gtbs_policy_param_get(core, i);

		nest = nla_nest_start(skb, GPUTBS_A_DEV_PARAM);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_string(skb, GPUTBS_A_PARAM_NAME, p->name) ||
		    nla_put_u64_64bit(skb, GPUTBS_A_PARAM_VALUE, val,
				      GPUTBS_A_PARAM_PAD) ||
		    (p->names && val <= p->max &&
		     nla_put_string(skb, GPUTBS_A_PARAM_VALUE_NAME,
				    p->names[val])) ||
		    nla_put_u64_64bit(skb, GPUTBS_A_PARAM_MINIMUM, p->min,
				      GPUTBS_A_PARAM_PAD) ||
		    nla_put_u64_64bit(skb, GPUTBS_A_PARAM_MAXIMUM, p->max,
				      GPUTBS_A_PARAM_PAD) ||
		    nla_put_u64_64bit(skb, GPUTBS_A_PARAM_DEFAULT, p->def,
				      GPUTBS_A_PARAM_PAD) ||
		    nla_put_string(skb, GPUTBS_A_PARAM_UNIT,
				   p->unit ? p->unit : "")) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}

/*
 * The device's state into @d and its policy's parameters into @skb, under
 * one hold of the device lock: the parameters are the reported policy's.
 * Return: 0, or -EMSGSIZE if the parameters did not fit.
 */
static int gputbs_nl_dev_get(struct gputbs_device *gdev,
			     struct gputbs_nl_dev *d, struct sk_buff *skb)
{
	const struct gtbs_dev *core = &gdev->core;
	const struct gtbs_grid *g;
	int ret;

	memset(d, 0, sizeof(*d));
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);	/* a bounded slice: as far as it got */
	d->now = core->clock;
	d->policy = core->policy->name;
	d->cfg = core->cfg;
	d->time_scale_ps = gdev->time_scale_ps;
	d->epoch_ns = gdev->epoch_ns;
	list_for_each_entry(g, &core->arrivals, node)
		d->arriving++;
	list_for_each_entry(g, &core->grids, node) {
		if (g->state == GTBS_GRID_RUNNING)
			d->running++;
		else
			d->queued++;
	}
	d->counters[0] = core->grids_submitted;
	d->counters[1] = core->grids_completed;
	d->counters[2] = core->blocks_dispatched;
	d->counters[3] = core->predictions;
	d->counters[4] = core->promotions;
	d->counters[5] = core->policy_switches;
	d->counters[6] = core->sharing_switches;
	d->counters[7] = core->grids_cancelled;
	d->counters[8] = core->grids_timed_out;
	d->timeout_ns = gdev->timeout_ns;
	d->ev_queued = gputbs_nl->queued;
	d->ev_dropped = gputbs_nl->dropped;
	ret = gputbs_nl_put_params(skb, core);
	spin_unlock(&gdev->lock);
	return ret;
}

static int gputbs_nl_put_dev(struct sk_buff *skb, const struct gputbs_nl_dev *d)
{
	static const int counter_attrs[] = {
		GPUTBS_A_DEV_GRIDS_SUBMITTED, GPUTBS_A_DEV_GRIDS_COMPLETED,
		GPUTBS_A_DEV_BLOCKS_DISPATCHED, GPUTBS_A_DEV_PREDICTIONS,
		GPUTBS_A_DEV_PROMOTIONS, GPUTBS_A_DEV_POLICY_SWITCHES,
		GPUTBS_A_DEV_SHARING_SWITCHES, GPUTBS_A_DEV_GRIDS_CANCELLED,
		GPUTBS_A_DEV_GRIDS_TIMED_OUT,
	};
	const struct gtbs_policy_ops *ops;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(counter_attrs) != ARRAY_SIZE(d->counters));
	if (nla_put_string(skb, GPUTBS_A_DEV_POLICY, d->policy))
		return -EMSGSIZE;
	gtbs_policy_lock();
	for (i = 0; (ops = gtbs_policy_at(i)); i++)
		if (nla_put_string(skb, GPUTBS_A_DEV_POLICIES, ops->name))
			break;
	gtbs_policy_unlock();
	if (ops)
		return -EMSGSIZE;
	if (nla_put_u32(skb, GPUTBS_A_DEV_NR_SMS, d->cfg.nr_sms) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_WARP_SIZE, d->cfg.warp_size) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_SM_THREADS,
			d->cfg.max_threads_per_sm) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_SM_REGS, d->cfg.max_regs_per_sm) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_SM_SHMEM, d->cfg.max_shmem_per_sm) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_SM_BLOCKS, d->cfg.max_blocks_per_sm) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_SM_WARPS, d->cfg.max_warps_per_sm) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_TIME_SCALE_PS, d->time_scale_ps) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_DEV_EPOCH_NS, d->epoch_ns,
			      GPUTBS_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_DEV_NOW_CYCLE, d->now,
			      GPUTBS_A_DEV_PAD) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_GRIDS_ARRIVING, d->arriving) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_GRIDS_QUEUED, d->queued) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_GRIDS_RUNNING, d->running))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(counter_attrs); i++)
		if (nla_put_u64_64bit(skb, counter_attrs[i], d->counters[i],
				      GPUTBS_A_DEV_PAD))
			return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, GPUTBS_A_DEV_EVENTS_QUEUED, d->ev_queued,
			      GPUTBS_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_DEV_EVENTS_SENT,
			      atomic64_read(&gputbs_nl->sent), GPUTBS_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_DEV_EVENTS_DROPPED, d->ev_dropped,
			      GPUTBS_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_DEV_TIMEOUT_NS, d->timeout_ns,
			      GPUTBS_A_DEV_PAD))
		return -EMSGSIZE;
	return 0;
}

/* Send the reply @skb (header @hdr) unless @err; frees @skb on error. */
static int gputbs_nl_reply(struct sk_buff *skb, struct genl_info *info,
			   void *hdr, int err)
{
	if (err) {
		nlmsg_free(skb);
		return err;
	}
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
}

static int gputbs_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct gputbs_nl_dev d;
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &gputbs_nl_family, 0,
				GPUTBS_CMD_DEV_GET);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	ret = gputbs_nl_dev_get(gputbs_nl->gdev, &d, msg);
	return gputbs_nl_reply(msg, info, hdr,
			       ret ?: gputbs_nl_put_dev(msg, &d));
}

/*
 * The generation of the grid lists: it changes when a grid is submitted,
 * arrives, completes or is cancelled.  Never 0 for a dump's cb->seq.
 * Device lock held.
 */
static unsigned int gputbs_nl_grid_gen(const struct gputbs_device *gdev)
{
	u64 gen = gdev->core.grids_submitted + gdev->core.grids_completed +
		  gputbs_nl->gen;

	lockdep_assert_held(&gdev->lock);
	return (unsigned int)gen ?: 1;
}

static int gputbs_nl_grid_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	const struct list_head *lists[] = {
		&gdev->core.grids, &gdev->core.arrivals,
	};
	struct nlattr *attr = info->attrs[GPUTBS_A_GRID_ID];
	struct gputbs_nl_grid snap;
	const struct gtbs_grid *g;
	struct sk_buff *msg;
	bool found = false;
	unsigned int i;
	void *hdr;
	u64 id;

	if (GENL_REQ_ATTR_CHECK(info, GPUTBS_A_GRID_ID))
		return -EINVAL;
	id = nla_get_u64(attr);
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);
	for (i = 0; i < ARRAY_SIZE(lists) && !found; i++) {
		list_for_each_entry(g, lists[i], node) {
			const struct gputbs_grid *grid = g->priv;

			if (grid->id == id) {
				gputbs_nl_grid_get(grid, &snap);
				found = true;
				break;
			}
		}
	}
	spin_unlock(&gdev->lock);
	if (!found) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no arriving, queued or running grid has this id");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &gputbs_nl_family, 0,
				GPUTBS_CMD_GRID_GET);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return gputbs_nl_reply(msg, info, hdr, gputbs_nl_put_grid(msg, &snap));
}

/* One dump message for @grid.  Device lock held: nothing allocates. */
static int gputbs_nl_grid_dump_one(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   const struct gputbs_grid *grid)
{
	struct gputbs_nl_grid snap;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &gputbs_nl_family, NLM_F_MULTI, GPUTBS_CMD_GRID_GET);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	gputbs_nl_grid_get(grid, &snap);
	if (gputbs_nl_put_grid(skb, &snap)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * The running and queued grids in arrival order, then the arriving ones
 * by arrival cycle; cb->args[0] counts the grids already dumped.  A dump
 * that spans messages while the lists change is flagged NLM_F_DUMP_INTR.
 */
static int gputbs_nl_grid_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	const struct list_head *lists[] = {
		&gdev->core.grids, &gdev->core.arrivals,
	};
	unsigned long pos = 0, start = cb->args[0];
	const struct gtbs_grid *g;
	unsigned int i;
	int ret = 0;

	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);
	cb->seq = gputbs_nl_grid_gen(gdev);
	for (i = 0; i < ARRAY_SIZE(lists) && !ret; i++) {
		list_for_each_entry(g, lists[i], node) {
			if (pos++ < start)
				continue;
			ret = gputbs_nl_grid_dump_one(skb, cb, g->priv);
			if (ret) {
				pos--;
				break;
			}
		}
	}
	spin_unlock(&gdev->lock);
	cb->args[0] = pos;
	return skb->len;
}

/* The attributes of @sm and its resident blocks.  Device lock held. */
static int gputbs_nl_put_sm(struct sk_buff *skb,
			    const struct gtbs_dev *core,
			    const struct gtbs_sm *sm)
{
	const struct gtbs_dev_config *cfg = &core->cfg;
	struct nlattr *nest;
	u32 i;

	if (nla_put_u32(skb, GPUTBS_A_SM_ID, sm->id) ||
	    nla_put_u32(skb, GPUTBS_A_SM_RESIDENT_BLOCKS, sm->nr_resident) ||
	    nla_put_u32(skb, GPUTBS_A_SM_FREE_BLOCKS,
			cfg->max_blocks_per_sm - sm->nr_resident) ||
	    nla_put_u32(skb, GPUTBS_A_SM_FREE_THREADS,
			cfg->max_threads_per_sm - sm->used_threads) ||
	    nla_put_u32(skb, GPUTBS_A_SM_FREE_WARPS,
			cfg->max_warps_per_sm - sm->used_warps) ||
	    nla_put_u32(skb, GPUTBS_A_SM_FREE_REGS,
			cfg->max_regs_per_sm - sm->used_regs) ||
	    nla_put_u32(skb, GPUTBS_A_SM_FREE_SHMEM,
			cfg->max_shmem_per_sm - sm->used_shmem) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_SM_BLOCKS_RUN, sm->blocks_run,
			      GPUTBS_A_SM_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_SM_BUSY_CYCLES, sm->busy_cycles,
			      GPUTBS_A_SM_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_SM_NOW_CYCLE, sm->now,
			      GPUTBS_A_SM_PAD) ||
	    (gtbs_sm_sharing(core, sm) &&
	     nla_put_flag(skb, GPUTBS_A_SM_SHARING)))
		return -EMSGSIZE;
	for (i = 0; i < cfg->max_blocks_per_sm; i++) {
		const struct gtbs_slot *slot = &sm->slots[i];
		const struct gputbs_grid *grid;

		if (!slot->grid)
			continue;
		grid = slot->grid->priv;
		nest = nla_nest_start(skb, GPUTBS_A_SM_SLOT);
		if (!nest ||
		    nla_put_u32(skb, GPUTBS_A_SLOT_INDEX, i) ||
		    nla_put_u64_64bit(skb, GPUTBS_A_SLOT_GRID_ID, grid->id,
				      GPUTBS_A_SLOT_PAD) ||
		    nla_put_u32(skb, GPUTBS_A_SLOT_BLOCK, slot->block) ||
		    nla_put_u64_64bit(skb, GPUTBS_A_SLOT_START_CYCLE,
				      slot->start_cycle, GPUTBS_A_SLOT_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* Size of the attributes of an SM with every slot occupied. */
static size_t gputbs_nl_sm_size(u32 max_blocks_per_sm)
{
	size_t slot = nla_total_size(nla_total_size(sizeof(u32)) * 2 +
				     nla_total_size_64bit(sizeof(u64)) * 2);

	return nla_total_size(sizeof(u32)) * 7 +
	       nla_total_size_64bit(sizeof(u64)) * 3 + nla_total_size(0) +
	       max_blocks_per_sm * slot;
}

static int gputbs_nl_sm_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	struct nlattr *attr = info->attrs[GPUTBS_A_SM_ID];
	struct sk_buff *msg;
	void *hdr;
	u32 id;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, GPUTBS_A_SM_ID))
		return -EINVAL;
	id = nla_get_u32(attr);
	/* enough for any SM: the configuration may change meanwhile */
	msg = genlmsg_new(gputbs_nl_sm_size(GTBS_MAX_BLOCKS_PER_SM), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &gputbs_nl_family, 0,
				GPUTBS_CMD_SM_GET);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	spin_lock(&gdev->lock);
	if (id < gdev->core.cfg.nr_sms) {
		gputbs_dev_sync(gdev);
		ret = gputbs_nl_put_sm(msg, &gdev->core, gdev->sms[id]);
	} else {
		ret = -ENOENT;
	}
	spin_unlock(&gdev->lock);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "SM index out of range (see nr-sms of dev-get)");
	return gputbs_nl_reply(msg, info, hdr, ret);
}

/* Every SM from cb->args[0] on, one message each. */
static int gputbs_nl_sm_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	unsigned long i = cb->args[0];
	void *hdr;

	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);
	for (; i < gdev->core.cfg.nr_sms; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &gputbs_nl_family,
				  NLM_F_MULTI, GPUTBS_CMD_SM_GET);
		if (!hdr)
			break;
		if (gputbs_nl_put_sm(skb, &gdev->core, gdev->sms[i])) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	spin_unlock(&gdev->lock);
	cb->args[0] = i;
	return skb->len;
}

static int gputbs_nl_policy_set_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	struct nlattr *attr = info->attrs[GPUTBS_A_DEV_POLICY];
	const struct gtbs_policy_ops *ops;

	/* GENL_ADMIN_PERM checked CAP_NET_ADMIN; the policy is the device's */
	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		GENL_SET_ERR_MSG(info, "switching the policy needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (GENL_REQ_ATTR_CHECK(info, GPUTBS_A_DEV_POLICY))
		return -EINVAL;
	ops = gtbs_policy_get(nla_data(attr));	/* the device's reference */
	if (!ops) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "unknown policy (see policies of dev-get)");
		return -EINVAL;
	}
	return gputbs_switch_policy(gdev, ops);
}

/*
 * param-set: a parameter of the current policy, as its sysfs file in
 * policy_params/ takes it (gputbs_sysfs.c), under the device lock.
 */
static int gputbs_nl_param_set_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	struct nlattr *name = info->attrs[GPUTBS_A_PARAM_NAME];
	struct nlattr *val = info->attrs[GPUTBS_A_PARAM_VALUE];
	struct nlattr *text = info->attrs[GPUTBS_A_PARAM_VALUE_NAME];
	struct nlattr *given = val ?: text;
	const struct gtbs_policy_param *p;
	u64 value = 0, now;
	int index, ret;

	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		GENL_SET_ERR_MSG(info, "setting a parameter needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (GENL_REQ_ATTR_CHECK(info, GPUTBS_A_PARAM_NAME))
		return -EINVAL;
	if (!val == !text) {
		GENL_SET_ERR_MSG(info, "give one of value and value-name");
		return -EINVAL;
	}
	if (val)
		value = nla_get_u64(val);
	ret = gputbs_dev_lock_sync(gdev, &now);
	if (ret)
		goto unlock;
	index = gtbs_policy_param_find(gdev->core.policy, nla_data(name));
	if (index < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, name,
				    "no such parameter of the current policy (see param of dev-get)");
		ret = -ENOENT;
		goto unlock;
	}
	p = &gdev->core.policy->params[index];
	if (text && gtbs_policy_param_parse(p, nla_data(text), &value)) {
		NL_SET_ERR_MSG_ATTR(info->extack, text,
				    "not a value name of the parameter, nor a number");
		ret = -EINVAL;
		goto unlock;
	}
	ret = gtbs_policy_param_set(&gdev->core, index, value, now);
	if (ret == -ERANGE) {
		NL_SET_ERR_MSG_ATTR(info->extack, given,
				    "value outside the parameter's minimum..maximum (see param of dev-get)");
		goto unlock;
	}
	if (!ret) {
		gtbs_dev_kick(&gdev->core, now);
		gputbs_dev_sync(gdev);
	}
unlock:
	spin_unlock(&gdev->lock);
	return ret;
}

/* The policies the spec derives (scripts/netlink-spec.sh compares them). */
static const struct nla_policy gputbs_grid_get_nl_policy[GPUTBS_A_GRID_ID + 1] = {
	[GPUTBS_A_GRID_ID] = { .type = NLA_U64, },
};

static const struct nla_policy gputbs_sm_get_nl_policy[GPUTBS_A_SM_ID + 1] = {
	[GPUTBS_A_SM_ID] = { .type = NLA_U32, },
};

static const struct nla_policy gputbs_policy_set_nl_policy[GPUTBS_A_DEV_POLICY + 1] = {
	[GPUTBS_A_DEV_POLICY] = { .type = NLA_NUL_STRING, .len = 31, },
};

static const struct nla_policy gputbs_param_set_nl_policy[GPUTBS_A_PARAM_VALUE_NAME + 1] = {
	[GPUTBS_A_PARAM_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[GPUTBS_A_PARAM_VALUE] = { .type = NLA_U64, },
	[GPUTBS_A_PARAM_VALUE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
};

/*
 * struct genl_ops, not the split ops the YNL generator writes: the module
 * builds against 6.1 too.  An op without a policy rejects every attribute
 * (resv_start_op 0: strict validation of every command).
 */
static const struct genl_ops gputbs_nl_ops[] = {
	{
		.cmd = GPUTBS_CMD_DEV_GET,
		.doit = gputbs_nl_dev_get_doit,
	},
	{
		.cmd = GPUTBS_CMD_GRID_GET,
		.doit = gputbs_nl_grid_get_doit,
		.dumpit = gputbs_nl_grid_get_dumpit,
		.policy = gputbs_grid_get_nl_policy,
		.maxattr = GPUTBS_A_GRID_ID,
	},
	{
		.cmd = GPUTBS_CMD_SM_GET,
		.doit = gputbs_nl_sm_get_doit,
		.dumpit = gputbs_nl_sm_get_dumpit,
		.policy = gputbs_sm_get_nl_policy,
		.maxattr = GPUTBS_A_SM_ID,
	},
	{
		.cmd = GPUTBS_CMD_POLICY_SET,
		.doit = gputbs_nl_policy_set_doit,
		.policy = gputbs_policy_set_nl_policy,
		.maxattr = GPUTBS_A_DEV_POLICY,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = GPUTBS_CMD_PARAM_SET,
		.doit = gputbs_nl_param_set_doit,
		.policy = gputbs_param_set_nl_policy,
		.maxattr = GPUTBS_A_PARAM_VALUE_NAME,
		.flags = GENL_ADMIN_PERM,
	},
};

static const struct genl_multicast_group gputbs_nl_mcgrps[] = {
	[GPUTBS_NLGRP_EVENTS] = { .name = GPUTBS_MCGRP_EVENTS, },
};

static struct genl_family gputbs_nl_family __ro_after_init = {
	.name = GPUTBS_FAMILY_NAME,
	.version = GPUTBS_FAMILY_VERSION,
	.netnsok = false,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = gputbs_nl_ops,
	.n_ops = ARRAY_SIZE(gputbs_nl_ops),
	.mcgrps = gputbs_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(gputbs_nl_mcgrps),
};

/**
 * gputbs_nl_init() - allocate the event queue and register the family
 * @gdev: the device, allocated, not yet published (/dev/gputbs).
 *
 * Context: process context, module init.
 * Return: 0, -EINVAL for an event_queue_len out of range, -ENOMEM, or the
 * error of genl_register_family().
 */
int gputbs_nl_init(struct gputbs_device *gdev)
{
	struct gputbs_nl *nl;
	unsigned int len;
	int ret;

	if (event_queue_len < 4 || event_queue_len > 16384) {
		pr_err("gputbs: event_queue_len must be 4..16384\n");
		return -EINVAL;
	}
	len = roundup_pow_of_two(event_queue_len);
	nl = kzalloc(sizeof(*nl), GFP_KERNEL);
	if (!nl)
		return -ENOMEM;
	nl->buf = kvmalloc_array(len, sizeof(struct gputbs_nl_event),
				 GFP_KERNEL);
	if (!nl->buf) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = kfifo_init(&nl->queue, nl->buf,
			 len * sizeof(struct gputbs_nl_event));
	if (ret)
		goto err_free;
	nl->gdev = gdev;
	INIT_WORK(&nl->work, gputbs_nl_work);
	atomic64_set(&nl->sent, 0);
	gputbs_nl = nl;
	ret = genl_register_family(&gputbs_nl_family);
	if (ret)
		goto err_free;
	spin_lock(&gdev->lock);
	nl->enabled = true;
	spin_unlock(&gdev->lock);
	return 0;

err_free:
	gputbs_nl = NULL;
	kvfree(nl->buf);
	kfree(nl);
	return ret;
}

/**
 * gputbs_nl_exit() - unregister the family and free the event queue
 * @gdev: the device; /dev/gputbs is no longer registered.
 *
 * Queued events that were not sent yet are dropped.
 *
 * Context: process context, module exit or failed init.
 */
void gputbs_nl_exit(struct gputbs_device *gdev)
{
	struct gputbs_nl *nl = gputbs_nl;

	spin_lock(&gdev->lock);
	nl->enabled = false;	/* nothing queues work from now on */
	spin_unlock(&gdev->lock);
	cancel_work_sync(&nl->work);
	genl_unregister_family(&gputbs_nl_family);
	gputbs_nl = NULL;
	kvfree(nl->buf);
	kfree(nl);
}
