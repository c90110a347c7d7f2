// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_nl_event.c - the events of the gputbs generic netlink family:
 * the queue from under the device lock to the events multicast group, and
 * the grid snapshots the family reports.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Netlink events
 *
 * The scheduling events (a grid submitted, started, preempted,
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
 * Other users' grids are private: a grid's pid and label go only to a
 * listener whose socket was opened with CAP_SYS_ADMIN or CAP_PERFMON, or
 * by the grid's user (gputbs_nl_viewer_sees()).  genlmsg_multicast() sends
 * one message to every listener, so the worker builds a grid's event
 * twice, with and without the two attributes, and multicasts each with
 * netlink_broadcast_filtered(), whose filter (called per listener, with
 * the listener's socket) lets through the copy that listener may see:
 * every listener gets exactly one.  The group stays one group that
 * anyone may join, as before.  Kernels without
 * netlink_broadcast_filtered() (6.1; Kbuild asks the headers) send every
 * listener the copy without them.  The other events (policy changed,
 * events lost) name no process and go to every listener as they are.
 *
 * This half refers to nothing of the commands (gputbs_nl_cmd.c), not even
 * the family (gputbs_nl_event_init() is given it), nor of the
 * reconfiguration and policy switch (gputbs_config.c): gputbs_obs.c calls
 * it under the device lock, and gputbs_nl_cmd.c calls it for the grid
 * snapshots and to set the queue up and tear it down.
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "../uapi/linux/gputbs_netlink.h"

#include "gputbs_drv.h"
#include "gputbs_nl.h"
#include "gputbs_nl_priv.h"

static unsigned int event_queue_len = 256;
module_param(event_queue_len, uint, 0444);
MODULE_PARM_DESC(event_queue_len,
		 "Scheduling events queued for the netlink events group, 4..16384, rounded up to a power of two (default 256)");

struct gputbs_nl *gputbs_nl;

/* ---- snapshots ----------------------------------------------------------- */

static u32 gputbs_nl_state(enum gtbs_grid_state state)
{
	switch (state) {
	case GTBS_GRID_NEW:
	case GTBS_GRID_ARRIVING:
	case GTBS_GRID_WAITING:	/* stream order: its arrival not yet known */
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

/**
 * gputbs_nl_grid_get() - copy what the family reports of a grid
 * @grid: the grid.
 * @out: the copy, which outlives @grid.
 *
 * For the grid events and for grid-get.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_nl_grid_get(const struct gputbs_grid *grid,
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
	out->uid = grid->uid;
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

/**
 * gputbs_nl_viewer_of() - who receives what is sent to a netlink socket
 * @sk: the socket: a requester's (NETLINK_CB() of its request) or a
 *	listener's of the events group.
 * @v: out: the credentials @sk was opened with, as netlink_capable()
 *	judges a request by them: the real uid, and whether they have
 *	CAP_SYS_ADMIN or CAP_PERFMON in the initial user namespace (as
 *	perfmon_capable(), by which perf shows other users' events).
 *
 * A socket that is being released (no file any more) is nobody's: it
 * sees no grid in full.
 *
 * Context: any, nothing sleeps: a request's process context, or the
 * filter of netlink_broadcast_filtered(), where the netlink table keeps
 * @sk's socket and file from being freed.
 */
void gputbs_nl_viewer_of(const struct sock *sk, struct gputbs_nl_viewer *v)
{
	const struct socket *sock = READ_ONCE(sk->sk_socket);
	const struct file *file = sock ? READ_ONCE(sock->file) : NULL;

	v->uid = INVALID_UID;
	v->all = false;
	if (!file)
		return;
	v->uid = file->f_cred->uid;
	v->all = file_ns_capable(file, &init_user_ns, CAP_PERFMON) ||
		 file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
}

/**
 * gputbs_nl_viewer_sees() - whether a viewer sees a grid in full
 * @v: the viewer (gputbs_nl_viewer_of()).
 * @uid: the grid's &gputbs_nl_grid.uid.
 *
 * Context: any.
 * Return: true if @v may see the grid's pid and label: it has
 * CAP_SYS_ADMIN or CAP_PERFMON, or the grid is its user's.
 */
bool gputbs_nl_viewer_sees(const struct gputbs_nl_viewer *v, kuid_t uid)
{
	return v->all || (uid_valid(v->uid) && uid_eq(v->uid, uid));
}

/**
 * gputbs_nl_put_grid() - the attributes of a grid snapshot
 * @skb: the message, allocated.
 * @g: the snapshot (gputbs_nl_grid_get()).
 * @full: with the grid's pid and label; without them for a receiver that
 *	may not see them (gputbs_nl_viewer_sees()).
 *
 * The grid attributes: of a grid-get reply, or in the grid nest of an
 * event.
 *
 * Context: any; nothing allocates or sleeps.
 * Return: 0, or -EMSGSIZE if @skb is full.
 */
int gputbs_nl_put_grid(struct sk_buff *skb, const struct gputbs_nl_grid *g,
		       bool full)
{
	if (nla_put_u64_64bit(skb, GPUTBS_A_GRID_ID, g->id, GPUTBS_A_GRID_PAD) ||
	    (full && nla_put_u32(skb, GPUTBS_A_GRID_PID, g->pid)) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_GRID_CLIENT_ID, g->client_id,
			      GPUTBS_A_GRID_PAD) ||
	    nla_put_u32(skb, GPUTBS_A_GRID_HANDLE, g->handle) ||
	    (full && nla_put_string(skb, GPUTBS_A_GRID_LABEL, g->label)) ||
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
	       genl_has_listeners(nl->family, &init_net,
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
	grid->uid = current_uid();
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
	};

	lockdep_assert_held(&gdev->lock);
	if (!gputbs_nl_listening(gputbs_nl))
		return;
	strscpy(ev.policy, gdev->core.policy->name, sizeof(ev.policy));
	strscpy(ev.old_policy, old->name, sizeof(ev.old_policy));
	gputbs_nl_queue(gputbs_nl, &ev);
}

/* ---- events: the half in process context ------------------------------------ */

/* Whether @cmd is a grid's event (carries a grid nest). */
static bool gputbs_nl_grid_cmd(u8 cmd)
{
	return cmd != GPUTBS_CMD_EVENTS_LOST_NTF &&
	       cmd != GPUTBS_CMD_POLICY_CHANGED_NTF;
}

/* The attributes of @ev; a grid's @full or without its pid and label. */
static int gputbs_nl_put_event(struct sk_buff *skb,
			       const struct gputbs_nl_event *ev, bool full)
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
	if (!nest || gputbs_nl_put_grid(skb, &ev->grid, full))
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

/* The message of @ev, @full or not (gputbs_nl_put_event()); or NULL. */
static struct sk_buff *gputbs_nl_event_msg(const struct gputbs_nl *nl,
					   const struct gputbs_nl_event *ev,
					   bool full)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, 0, 0, nl->family, 0, ev->cmd);
	if (!hdr || gputbs_nl_put_event(skb, ev, full)) {
		nlmsg_free(skb);
		return NULL;
	}
	genlmsg_end(skb, hdr);
	return skb;
}

/*
 * netlink_broadcast_filtered() (the kernels since about 6.4; Kbuild looks
 * for it in the headers) lets each listener get the copy of a grid's
 * event it may see.  Without it every listener gets the copy without pid
 * and label.
 */
#ifdef GPUTBS_HAVE_NETLINK_BROADCAST_FILTERED
/**
 * struct gputbs_nl_copy - one of the two copies of a grid's event
 * @uid: the grid's &gputbs_nl_grid.uid.
 * @full: the copy with the grid's pid and label.
 */
struct gputbs_nl_copy {
	kuid_t uid;
	bool full;
};

/*
 * netlink_broadcast_filtered()'s filter: nonzero skips the listener @dsk,
 * for the copy @data that is not its own (gputbs_nl_viewer_sees()).
 */
static int gputbs_nl_copy_filter(struct sock *dsk, struct sk_buff *skb,
				 void *data)
{
	const struct gputbs_nl_copy *copy = data;
	struct gputbs_nl_viewer v;

	gputbs_nl_viewer_of(dsk, &v);
	return gputbs_nl_viewer_sees(&v, copy->uid) != copy->full;
}

/* genlmsg_multicast() of @skb to the listeners @copy is for. */
static int gputbs_nl_multicast_copy(const struct gputbs_nl *nl,
				    struct sk_buff *skb,
				    struct gputbs_nl_copy *copy)
{
	u32 group = nl->family->mcgrp_offset + GPUTBS_NLGRP_EVENTS;
	int ret;

	NETLINK_CB(skb).dst_group = group;
	ret = netlink_broadcast_filtered(init_net.genl_sock, skb, 0, group,
					 GFP_KERNEL, gputbs_nl_copy_filter,
					 copy);
	return ret > 0 ? 0 : ret;
}

/*
 * A grid's event: the full copy to the listeners that see the grid in
 * full, the other to the rest; each listener gets one.  Returns the
 * better of the two results (0, -ENOBUFS, -ESRCH), or -ENOMEM.
 */
static int gputbs_nl_multicast_grid(const struct gputbs_nl *nl,
				    const struct gputbs_nl_event *ev)
{
	struct gputbs_nl_copy full = { .uid = ev->grid.uid, .full = true };
	struct gputbs_nl_copy part = { .uid = ev->grid.uid, .full = false };
	struct sk_buff *skb_full, *skb_part;
	int ret_full, ret_part;

	skb_full = gputbs_nl_event_msg(nl, ev, true);
	skb_part = gputbs_nl_event_msg(nl, ev, false);
	if (!skb_full || !skb_part) {
		nlmsg_free(skb_full);
		nlmsg_free(skb_part);
		return -ENOMEM;
	}
	ret_full = gputbs_nl_multicast_copy(nl, skb_full, &full);
	ret_part = gputbs_nl_multicast_copy(nl, skb_part, &part);
	if (!ret_full || !ret_part)
		return 0;
	return ret_full == -ENOBUFS ? ret_full : ret_part;
}
#else
/* Without per-listener filtering: every listener, without pid and label. */
static int gputbs_nl_multicast_grid(const struct gputbs_nl *nl,
				    const struct gputbs_nl_event *ev)
{
	struct sk_buff *skb = gputbs_nl_event_msg(nl, ev, false);

	if (!skb)
		return -ENOMEM;
	return genlmsg_multicast(nl->family, skb, 0, GPUTBS_NLGRP_EVENTS,
				 GFP_KERNEL);
}
#endif

/* Multicast one event.  Returns false if it was lost. */
static bool gputbs_nl_send(struct gputbs_nl *nl,
			   const struct gputbs_nl_event *ev)
{
	struct sk_buff *skb;
	int ret;

	if (gputbs_nl_grid_cmd(ev->cmd)) {
		ret = gputbs_nl_multicast_grid(nl, ev);
		if (ret == -ENOMEM)
			return false;
	} else {
		skb = gputbs_nl_event_msg(nl, ev, true);
		if (!skb)
			return false;
		ret = genlmsg_multicast(nl->family, skb, 0,
					GPUTBS_NLGRP_EVENTS, GFP_KERNEL);
	}
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

/* ---- events: the life cycle (gputbs_nl_init(), gputbs_nl_exit()) -------- */

/**
 * gputbs_nl_event_init() - allocate the event queue
 * @gdev: the device, allocated, not yet published (/dev/gputbs).
 * @family: the family to multicast the events on, not yet registered.
 *
 * Publishes the family's state, gputbs_nl, with the events disabled.
 * Called by gputbs_nl_init() before it registers the family.
 *
 * Context: process context, module init.
 * Return: 0, -EINVAL for an event_queue_len out of range, or -ENOMEM.
 */
int gputbs_nl_event_init(struct gputbs_device *gdev,
			 const struct genl_family *family)
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
	nl->family = family;
	INIT_WORK(&nl->work, gputbs_nl_work);
	atomic64_set(&nl->sent, 0);
	gputbs_nl = nl;
	return 0;

err_free:
	kvfree(nl->buf);
	kfree(nl);
	return ret;
}

/**
 * gputbs_nl_event_start() - queue events from now on
 * @gdev: the device.
 *
 * Called by gputbs_nl_init() once the family is registered.
 *
 * Context: process context, module init; takes &gputbs_device.lock.
 */
void gputbs_nl_event_start(struct gputbs_device *gdev)
{
	spin_lock(&gdev->lock);
	gputbs_nl->enabled = true;
	spin_unlock(&gdev->lock);
}

/**
 * gputbs_nl_event_stop() - queue no more events and wait for the worker
 * @gdev: the device.
 *
 * Called by gputbs_nl_exit() before it unregisters the family, so that
 * nothing multicasts on a family that is going away.  Queued events that
 * were not sent yet stay in the queue and are dropped.
 *
 * Context: process context, module exit or failed init; takes
 * &gputbs_device.lock, sleeps.
 */
void gputbs_nl_event_stop(struct gputbs_device *gdev)
{
	struct gputbs_nl *nl = gputbs_nl;

	spin_lock(&gdev->lock);
	nl->enabled = false;	/* nothing queues work from now on */
	spin_unlock(&gdev->lock);
	cancel_work_sync(&nl->work);
}

/**
 * gputbs_nl_event_exit() - free the event queue
 *
 * Called by gputbs_nl_exit() after it unregistered the family, or by
 * gputbs_nl_init() when the registration failed.
 *
 * Context: process context, module exit or failed init.
 */
void gputbs_nl_event_exit(void)
{
	struct gputbs_nl *nl = gputbs_nl;

	gputbs_nl = NULL;
	kvfree(nl->buf);
	kfree(nl);
}
