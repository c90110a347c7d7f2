// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_nl_cmd.c - the commands of the gputbs generic netlink family: the
 * device, its grids and SMs, the policy switch and its parameters, the
 * preemption settings; the family itself and its life cycle.
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
 * each, read under the same hold of the lock.  policy-set, param-set and
 * preempt-set (%GENL_ADMIN_PERM, and CAP_SYS_ADMIN checked by the
 * operation) switch the policy, set one of its parameters, and set the
 * preempt mode with the switch bandwidth and the classes' preemption
 * latency budgets, the way the sysfs files policy, policy_params/,
 * preempt_mode, switch_bytes_per_cycle and preempt_budget_* do.  Bad
 * requests get an extended ACK message (and the offending attribute).
 *
 * grid-get gives a grid's pid and label only to a requester whose socket
 * was opened with CAP_SYS_ADMIN or CAP_PERFMON or by the grid's user
 * (gputbs_nl_viewer_of(), gputbs_nl_viewer_sees()): other users' grids are
 * listed and found, without those two attributes.
 *
 * The events multicast group and its queue are gputbs_nl_event.c's
 * (DOC: Netlink events); the operations report the same grid snapshots.
 * This half calls into gputbs_nl_event.c and, for policy-set, into
 * gputbs_config.c (gputbs_switch_policy()), which calls the events back
 * through gputbs_obs.c only.
 *
 * Unloading: the family's events are disabled under the lock, the work is
 * cancelled (so nothing multicasts on a family that is going away), then
 * the family is unregistered, which waits for the operations in flight.
 */
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "../uapi/linux/gputbs_netlink.h"

#include "gputbs_drv.h"
#include "gputbs_nl.h"
#include "gputbs_nl_priv.h"

static struct genl_family gputbs_nl_family;

/* The core's lists that hold the grids the family reports. */
#define GPUTBS_NL_GRID_LISTS	3

/* ---- operations ------------------------------------------------------------------ */

/**
 * struct gputbs_nl_dev - what dev-get reports, copied under the lock
 * @policy: current policy.
 * @cfg: the device's configuration.
 * @time_scale_ps: ps per cycle.
 * @epoch_ns: time of cycle 0.
 * @now: the current cycle.
 * @arriving: grids ARRIVING or WAITING (stream order).
 * @queued: grids QUEUED.
 * @running: grids RUNNING.
 * @counters: the core's counters (in its member order).
 * @ev_queued: events queued.
 * @ev_dropped: events dropped.
 * @timeout_ns: the device's job timeout, ns (sysfs timeout_ns).
 * @preempt_mode: &gtbs_dev.preempt_mode (&enum gputbs_preempt_mode).
 * @preempt: blocks switched, flushed and restored, switch and flushed
 *	cycles (&gtbs_dev.preempts, restores, xfer_cycles, lost_cycles).
 * @cap_period: &gtbs_dev.cap_period, cycles.
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
	u32 preempt_mode;
	u64 preempt[5];
	u64 cap_period;
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
	/* stream order: waiting for their predecessor, arrival unknown */
	list_for_each_entry(g, &core->waiting, node)
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
	d->preempt_mode = core->preempt_mode;
	d->preempt[0] = core->preempts[GTBS_MECH_SWITCH];
	d->preempt[1] = core->preempts[GTBS_MECH_FLUSH];
	d->preempt[2] = core->restores;
	d->preempt[3] = core->xfer_cycles;
	d->preempt[4] = core->lost_cycles;
	d->cap_period = core->cap_period;
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
	static const int preempt_attrs[] = {
		GPUTBS_A_DEV_BLOCKS_SWITCHED, GPUTBS_A_DEV_BLOCKS_FLUSHED,
		GPUTBS_A_DEV_BLOCKS_RESTORED, GPUTBS_A_DEV_SWITCH_CYCLES,
		GPUTBS_A_DEV_FLUSHED_CYCLES,
	};
	const struct gtbs_policy_ops *ops;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(counter_attrs) != ARRAY_SIZE(d->counters));
	BUILD_BUG_ON(ARRAY_SIZE(preempt_attrs) != ARRAY_SIZE(d->preempt));
	/* the core's modes are the family's enum preempt-mode */
	BUILD_BUG_ON((int)GTBS_PREEMPT_DRAIN != GPUTBS_PREEMPT_MODE_DRAIN);
	BUILD_BUG_ON((int)GTBS_PREEMPT_SWITCH != GPUTBS_PREEMPT_MODE_SWITCH);
	BUILD_BUG_ON((int)GTBS_PREEMPT_FLUSH != GPUTBS_PREEMPT_MODE_FLUSH);
	BUILD_BUG_ON((int)GTBS_PREEMPT_AUTO != GPUTBS_PREEMPT_MODE_AUTO);
	BUILD_BUG_ON((int)GTBS_NR_PREEMPT_MODES - 1 != GPUTBS_PREEMPT_MODE_AUTO);
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
			      GPUTBS_A_DEV_PAD) ||
	    nla_put_u32(skb, GPUTBS_A_DEV_PREEMPT_MODE, d->preempt_mode))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(preempt_attrs); i++)
		if (nla_put_u64_64bit(skb, preempt_attrs[i], d->preempt[i],
				      GPUTBS_A_DEV_PAD))
			return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, GPUTBS_A_DEV_CAP_PERIOD, d->cap_period,
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

/*
 * The lists of the grids the family reports, in the order of a dump: the
 * running and queued grids in arrival order, the arriving ones by arrival
 * cycle, then those waiting for a predecessor (stream order, reported as
 * arriving, gputbs_nl_state()).  grid-get looks a grid up in the same
 * lists, so that it finds every grid a dump lists.  Device lock held.
 */
static void gputbs_nl_grid_lists(struct gputbs_device *gdev,
				 const struct list_head *lists[GPUTBS_NL_GRID_LISTS])
{
	lockdep_assert_held(&gdev->lock);
	lists[0] = &gdev->core.grids;
	lists[1] = &gdev->core.arrivals;
	lists[2] = &gdev->core.waiting;
}

static int gputbs_nl_grid_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	const struct list_head *lists[GPUTBS_NL_GRID_LISTS];
	struct nlattr *attr = info->attrs[GPUTBS_A_GRID_ID];
	struct gputbs_nl_viewer viewer;
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
	gputbs_nl_viewer_of(NETLINK_CB(skb).sk, &viewer);
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);
	gputbs_nl_grid_lists(gdev, lists);
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
	return gputbs_nl_reply(msg, info, hdr,
			       gputbs_nl_put_grid(msg, &snap,
						  gputbs_nl_viewer_sees(&viewer,
									snap.uid)));
}

/*
 * One dump message for @grid, in full if @viewer sees it so.  Device lock
 * held: nothing allocates.
 */
static int gputbs_nl_grid_dump_one(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   const struct gputbs_nl_viewer *viewer,
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
	if (gputbs_nl_put_grid(skb, &snap,
			       gputbs_nl_viewer_sees(viewer, snap.uid))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * The grids of gputbs_nl_grid_lists(), in its order; cb->args[0] counts
 * the grids already dumped, cb->args[1] is set once a call went through
 * every grid.  A dump that spans messages while the lists change is
 * flagged NLM_F_DUMP_INTR.  The call after the one that went through
 * every grid only ends the dump: it takes no new generation, so a grid
 * that arrives or ends after the last grid was dumped does not flag the
 * NLMSG_DONE that netlink_dump() checks too (on a busy device it always
 * would, and every dump would be reported interrupted).
 */
static int gputbs_nl_grid_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	const struct list_head *lists[GPUTBS_NL_GRID_LISTS];
	unsigned long pos = 0, start = cb->args[0];
	struct gputbs_nl_viewer viewer;
	const struct gtbs_grid *g;
	unsigned int i;
	int ret = 0;

	if (cb->args[1])
		return 0;
	gputbs_nl_viewer_of(NETLINK_CB(cb->skb).sk, &viewer);
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);
	gputbs_nl_grid_lists(gdev, lists);
	cb->seq = gputbs_nl_grid_gen(gdev);
	for (i = 0; i < ARRAY_SIZE(lists) && !ret; i++) {
		list_for_each_entry(g, lists[i], node) {
			if (pos++ < start)
				continue;
			ret = gputbs_nl_grid_dump_one(skb, cb, &viewer,
						      g->priv);
			if (ret) {
				pos--;
				break;
			}
		}
	}
	spin_unlock(&gdev->lock);
	cb->args[0] = pos;
	cb->args[1] = !ret;
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

/*
 * The result of a set request whose catch-up a signal interrupted
 * (gputbs_dev_lock_sync(): -EINTR, nothing changed).  netlink_rcv_skb()
 * takes -EINTR from an operation for "a dump was started" and sends no
 * ACK, so the requester would wait for ever: -EAGAIN, with a message.
 */
static int gputbs_nl_set_result(struct genl_info *info, int ret)
{
	if (ret != -EINTR)
		return ret;
	GENL_SET_ERR_MSG(info,
			 "a signal interrupted the device's catch-up; nothing changed, try again");
	return -EAGAIN;
}

static int gputbs_nl_policy_set_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	struct nlattr *attr = info->attrs[GPUTBS_A_DEV_POLICY];
	const struct gtbs_policy_ops *ops;
	int ret;

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
	ret = gputbs_switch_policy(gdev, ops);
	if (!ret)
		gputbs_policy_params_changed(gdev);	/* sysfs policy_params/ */
	return gputbs_nl_set_result(info, ret);
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
	return gputbs_nl_set_result(info, ret);
}

/* preempt-set's budget attributes, in &enum gtbs_prio_class order */
static const int gputbs_nl_budget_attrs[GTBS_NR_PRIO_CLASSES] = {
	[GTBS_PRIO_LOW] = GPUTBS_A_DEV_PREEMPT_BUDGET_LOW,
	[GTBS_PRIO_NORMAL] = GPUTBS_A_DEV_PREEMPT_BUDGET_NORMAL,
	[GTBS_PRIO_HIGH] = GPUTBS_A_DEV_PREEMPT_BUDGET_HIGH,
	[GTBS_PRIO_REALTIME] = GPUTBS_A_DEV_PREEMPT_BUDGET_REALTIME,
};

/**
 * gputbs_nl_preempt_set_doit() - preempt-set: the device's preemption
 * @skb: the request.
 * @info: its attributes; the extack of the reply.
 *
 * Sets the preempt mode (required) and, when given, each SM's switch
 * bandwidth and the preemption latency budgets of the classes, as the
 * sysfs files preempt_mode, switch_bytes_per_cycle and preempt_budget_*
 * do (gputbs_sysfs.c): every value is checked first, then all are applied
 * under one hold of &gputbs_device.lock at the current emulated cycle
 * (gputbs_dev_lock_sync()), through gtbs_dev_set_preempt() for the mode,
 * and every SM re-evaluates its waits at once.  Nothing changes on error.
 *
 * Context: process context (genetlink, %GENL_ADMIN_PERM checked); takes
 * and releases &gputbs_device.lock.
 * Return: 0; -EPERM without CAP_SYS_ADMIN; -EINVAL without preempt-mode
 * or for an unknown mode; -ERANGE for switch-bytes-per-cycle outside
 * 1..%GPUTBS_SWITCH_BW_MAX bytes per cycle or a budget above
 * %GTBS_MAX_TIMEOUT_CYCLES cycles (each with an extack message and the
 * attribute); -EAGAIN if a signal came while the device caught up
 * (gputbs_nl_set_result(); nothing changed).
 */
static int gputbs_nl_preempt_set_doit(struct sk_buff *skb,
				      struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	struct nlattr *mode_attr = info->attrs[GPUTBS_A_DEV_PREEMPT_MODE];
	struct nlattr *bw_attr = info->attrs[GPUTBS_A_DEV_SWITCH_BYTES_PER_CYCLE];
	u64 budget[GTBS_NR_PRIO_CLASSES], now;
	unsigned long set_budget = 0;
	u32 mode, bw = 0;
	unsigned int c;
	int ret;

	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		GENL_SET_ERR_MSG(info, "setting the preemption needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (GENL_REQ_ATTR_CHECK(info, GPUTBS_A_DEV_PREEMPT_MODE))
		return -EINVAL;
	mode = nla_get_u32(mode_attr);
	if (mode >= GTBS_NR_PREEMPT_MODES) {
		NL_SET_ERR_MSG_ATTR(info->extack, mode_attr,
				    "unknown preempt mode (drain, switch, flush or auto)");
		return -EINVAL;
	}
	if (bw_attr) {
		bw = nla_get_u32(bw_attr);
		if (bw < 1 || bw > GPUTBS_SWITCH_BW_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, bw_attr,
					    "switch bytes per cycle outside 1..65536");
			return -ERANGE;
		}
	}
	for (c = 0; c < GTBS_NR_PRIO_CLASSES; c++) {
		struct nlattr *a;

		if (!gputbs_nl_budget_attrs[c])
			continue;
		a = info->attrs[gputbs_nl_budget_attrs[c]];
		if (!a)
			continue;
		budget[c] = nla_get_u64(a);
		if (budget[c] > GTBS_MAX_TIMEOUT_CYCLES) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "preemption budget above 2^62 cycles");
			return -ERANGE;
		}
		__set_bit(c, &set_budget);
	}
	ret = gputbs_dev_lock_sync(gdev, &now);
	if (ret)
		goto unlock;
	ret = gtbs_dev_set_preempt(&gdev->core, mode, now);
	if (ret)
		goto unlock;
	if (bw_attr)
		gdev->core.switch_bytes_per_cycle = bw;
	for_each_set_bit(c, &set_budget, GTBS_NR_PRIO_CLASSES)
		gdev->core.preempt_budget[c] = budget[c];
	gtbs_dev_kick(&gdev->core, now);
	gputbs_dev_sync(gdev);
unlock:
	spin_unlock(&gdev->lock);
	return gputbs_nl_set_result(info, ret);
}

/* ---- tenants ------------------------------------------------------------------- */

/* A tenant's attributes, tenant-get's reply. */
static int gputbs_nl_put_tenant(struct sk_buff *skb,
				const struct gputbs_tenant_info *t)
{
	int id_attr = t->kind == GPUTBS_TENANT_KIND_FILE ?
		      GPUTBS_A_TENANT_CLIENT_ID : GPUTBS_A_TENANT_CGROUP_ID;

	if (nla_put_u32(skb, GPUTBS_A_TENANT_KIND, t->kind) ||
	    (t->kind != GPUTBS_TENANT_KIND_DEVICE &&
	     nla_put_u64_64bit(skb, id_attr, t->id, GPUTBS_A_TENANT_PAD)) ||
	    nla_put_u32(skb, GPUTBS_A_TENANT_WEIGHT, t->weight) ||
	    (t->max_ppm &&
	     nla_put_u32(skb, GPUTBS_A_TENANT_MAX_PPM, t->max_ppm)) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_TENANT_SM_TIME, t->sm_time,
			      GPUTBS_A_TENANT_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_TENANT_NOW_CYCLE, t->now,
			      GPUTBS_A_TENANT_PAD) ||
	    nla_put_u32(skb, GPUTBS_A_TENANT_GRIDS, t->grids) ||
	    (t->throttled && nla_put_flag(skb, GPUTBS_A_TENANT_THROTTLED)) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_TENANT_THROTTLED_CYCLES,
			      t->throttled_cycles, GPUTBS_A_TENANT_PAD) ||
	    nla_put_u64_64bit(skb, GPUTBS_A_TENANT_THROTTLES, t->throttles,
			      GPUTBS_A_TENANT_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * The tenant a request names: exactly one of cgroup-id and client-id.
 * Return: 0, or -EINVAL (with a message).
 */
static int gputbs_nl_tenant_which(struct genl_info *info, u32 *kind, u64 *id)
{
	struct nlattr *cg = info->attrs[GPUTBS_A_TENANT_CGROUP_ID];
	struct nlattr *cl = info->attrs[GPUTBS_A_TENANT_CLIENT_ID];

	if (!cg == !cl) {
		GENL_SET_ERR_MSG(info, "give exactly one of cgroup-id and client-id");
		return -EINVAL;
	}
	*kind = cg ? GPUTBS_TENANT_KIND_CGROUP : GPUTBS_TENANT_KIND_FILE;
	*id = nla_get_u64(cg ?: cl);
	return 0;
}

/*
 * tenant-get do: one tenant by cgroup-id or client-id, as the dump reads
 * it (gputbs_tenants_snapshot()).  Process context; may sleep.
 */
static int gputbs_nl_tenant_get_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	struct gputbs_tenant_info *ti;
	struct sk_buff *msg;
	u32 kind, nr, i;
	void *hdr;
	u64 id;
	int ret;

	ret = gputbs_nl_tenant_which(info, &kind, &id);
	if (ret)
		return ret;
	ret = gputbs_tenants_snapshot(gdev, &ti, &nr);
	if (ret)
		return gputbs_nl_set_result(info, ret);
	for (i = 0; i < nr; i++)
		if (ti[i].kind == kind && ti[i].id == id)
			break;
	if (i == nr) {
		kvfree(ti);
		GENL_SET_ERR_MSG(info, "no tenant of that id (no grid and no tenant-set yet)");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	hdr = msg ? genlmsg_put_reply(msg, info, &gputbs_nl_family, 0,
				      GPUTBS_CMD_TENANT_GET) : NULL;
	if (!hdr) {
		kvfree(ti);
		nlmsg_free(msg);
		return msg ? -EMSGSIZE : -ENOMEM;
	}
	ret = gputbs_nl_put_tenant(msg, &ti[i]);
	kvfree(ti);
	return gputbs_nl_reply(msg, info, hdr, ret);
}

/*
 * tenant-get dump: every tenant from cb->args[0] on, one message each,
 * from a snapshot taken for each part of the dump.
 */
static int gputbs_nl_tenant_get_dumpit(struct sk_buff *skb,
				       struct netlink_callback *cb)
{
	struct gputbs_device *gdev = gputbs_nl->gdev;
	unsigned long i = cb->args[0];
	struct gputbs_tenant_info *ti;
	void *hdr;
	u32 nr;
	int ret;

	ret = gputbs_tenants_snapshot(gdev, &ti, &nr);
	if (ret)
		return ret == -EINTR ? -EAGAIN : ret;
	for (; i < nr; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &gputbs_nl_family,
				  NLM_F_MULTI, GPUTBS_CMD_TENANT_GET);
		if (!hdr)
			break;
		if (gputbs_nl_put_tenant(skb, &ti[i])) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	kvfree(ti);
	cb->args[0] = i;
	return skb->len;
}

/**
 * gputbs_nl_tenant_set_doit() - tenant-set: a tenant's weight or cap
 * @skb: the request.
 * @info: its attributes; the extack of the reply.
 *
 * The tenant is the cgroup of cgroup-id or the file of client-id;
 * weight and max-ppm are each set when given (max-ppm 0 removes the cap).
 * gputbs_tenant_set() checks the values and, for a requester whose socket
 * was opened without CAP_SYS_ADMIN, that the tenant is its own and only
 * lowered.
 *
 * Context: process context (genetlink); may sleep.
 * Return: 0; -EINVAL without exactly one of cgroup-id and client-id, or
 * neither weight nor max-ppm, or for a value out of range; -ENOENT,
 * -EPERM, -ENOSPC as gputbs_tenant_set(); -EAGAIN if a signal came while
 * the device caught up (nothing changed).  Each with an extack message.
 */
static int gputbs_nl_tenant_set_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct nlattr *w = info->attrs[GPUTBS_A_TENANT_WEIGHT];
	struct nlattr *m = info->attrs[GPUTBS_A_TENANT_MAX_PPM];
	struct gputbs_tenant_req req = {
		.set_weight = !!w,
		.set_max = !!m,
		.weight = w ? nla_get_u32(w) : 0,
		.max_ppm = m ? nla_get_u32(m) : 0,
	};
	const char *msg = NULL;
	int ret;

	ret = gputbs_nl_tenant_which(info, &req.kind, &req.id);
	if (ret)
		return ret;
	if (!w && !m) {
		GENL_SET_ERR_MSG(info, "nothing to set: give weight or max-ppm");
		return -EINVAL;
	}
	ret = gputbs_tenant_set(gputbs_nl->gdev, &req,
				netlink_capable(skb, CAP_SYS_ADMIN), &msg);
	/* @msg is one of gputbs_tenant.c's string literals */
	if (ret && ret != -EINTR && msg && info->extack)
		info->extack->_msg = msg;
	return gputbs_nl_set_result(info, ret);
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

static const struct nla_policy
gputbs_preempt_set_nl_policy[GPUTBS_A_DEV_PREEMPT_BUDGET_REALTIME + 1] = {
	/* not the spec's NLA_POLICY_MAX: EINVAL for a bad mode, as sysfs */
	[GPUTBS_A_DEV_PREEMPT_MODE] = { .type = NLA_U32, },
	[GPUTBS_A_DEV_SWITCH_BYTES_PER_CYCLE] = { .type = NLA_U32, },
	[GPUTBS_A_DEV_PREEMPT_BUDGET_LOW] = { .type = NLA_U64, },
	[GPUTBS_A_DEV_PREEMPT_BUDGET_NORMAL] = { .type = NLA_U64, },
	[GPUTBS_A_DEV_PREEMPT_BUDGET_HIGH] = { .type = NLA_U64, },
	[GPUTBS_A_DEV_PREEMPT_BUDGET_REALTIME] = { .type = NLA_U64, },
};

static const struct nla_policy gputbs_tenant_get_nl_policy[GPUTBS_A_TENANT_CLIENT_ID + 1] = {
	[GPUTBS_A_TENANT_CGROUP_ID] = { .type = NLA_U64, },
	[GPUTBS_A_TENANT_CLIENT_ID] = { .type = NLA_U64, },
};

static const struct nla_policy gputbs_tenant_set_nl_policy[GPUTBS_A_TENANT_MAX_PPM + 1] = {
	[GPUTBS_A_TENANT_CGROUP_ID] = { .type = NLA_U64, },
	[GPUTBS_A_TENANT_CLIENT_ID] = { .type = NLA_U64, },
	[GPUTBS_A_TENANT_WEIGHT] = { .type = NLA_U32, },
	[GPUTBS_A_TENANT_MAX_PPM] = { .type = NLA_U32, },
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
	{
		.cmd = GPUTBS_CMD_PREEMPT_SET,
		.doit = gputbs_nl_preempt_set_doit,
		.policy = gputbs_preempt_set_nl_policy,
		.maxattr = GPUTBS_A_DEV_PREEMPT_BUDGET_REALTIME,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = GPUTBS_CMD_TENANT_GET,
		.doit = gputbs_nl_tenant_get_doit,
		.dumpit = gputbs_nl_tenant_get_dumpit,
		.policy = gputbs_tenant_get_nl_policy,
		.maxattr = GPUTBS_A_TENANT_CLIENT_ID,
	},
	{
		/* unprivileged: gputbs_tenant_set() checks what it may do */
		.cmd = GPUTBS_CMD_TENANT_SET,
		.doit = gputbs_nl_tenant_set_doit,
		.policy = gputbs_tenant_set_nl_policy,
		.maxattr = GPUTBS_A_TENANT_MAX_PPM,
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
 * The event queue is gputbs_nl_event_init()'s; the events are queued
 * once the family is registered.
 *
 * Context: process context, module init.
 * Return: 0, -EINVAL for an event_queue_len out of range, -ENOMEM, or the
 * error of genl_register_family().
 */
int gputbs_nl_init(struct gputbs_device *gdev)
{
	int ret;

	ret = gputbs_nl_event_init(gdev, &gputbs_nl_family);
	if (ret)
		return ret;
	ret = genl_register_family(&gputbs_nl_family);
	if (ret) {
		gputbs_nl_event_exit();
		return ret;
	}
	gputbs_nl_event_start(gdev);
	return 0;
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
	gputbs_nl_event_stop(gdev);	/* no work on a family going away */
	genl_unregister_family(&gputbs_nl_family);
	gputbs_nl_event_exit();
}
