// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_config.c - reconfiguring the emulated device at run time.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Reconfiguration
 *
 * The device's resources (SM count, per-SM resources, warp size, the
 * timing model's knee, the time scale) come from module parameters at load
 * and may be changed through sysfs (gputbs_sysfs.c) while no file of
 * /dev/gputbs is open and no grid exists.  A new configuration means new
 * SMs and new SM kthreads: gputbs_reconfigure() allocates them and starts
 * the new threads first (they sleep until their timers are armed), swaps
 * them in under the device lock, then stops the old threads and frees the
 * old SMs, so the device is never without threads and a failure leaves
 * the old configuration in place.  The emulated clock restarts at cycle 0
 * (&gputbs_device.epoch_ns); the policy, its tunables, the starvation
 * guard (kept in ns) and every counter carry over.
 *
 * Locking: &gputbs_device.cfg_lock (a mutex) serialises the change with
 * open(), which counts open files under it; the swap itself holds
 * &gputbs_device.lock, which every reader of the configuration, the SMs or
 * the threads takes.
 */
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "gputbs_drv.h"

/* What a configuration change must give back to the old SMs. */
struct gputbs_sm_set {
	struct gtbs_sm **sms;
	struct gputbs_sm_thread *threads;
	struct gputbs_obs_sm *obs;
	u64 *slot_share;
	struct gtbs_saved *saved_pool;
	u32 nr;
};

static void gputbs_sm_set_free(struct gputbs_sm_set *set)
{
	u32 i;

	if (set->sms)
		for (i = 0; i < set->nr; i++)
			kfree(set->sms[i]);
	kfree(set->sms);
	kfree(set->threads);
	kfree(set->saved_pool);
	gputbs_obs_free_sms(set->obs, set->slot_share);
}

static int gputbs_sm_set_alloc(const struct gtbs_dev_config *cfg,
			       struct gputbs_sm_set *set)
{
	u32 i;

	memset(set, 0, sizeof(*set));
	set->nr = cfg->nr_sms;
	set->sms = kcalloc(cfg->nr_sms, sizeof(*set->sms), GFP_KERNEL);
	set->threads = kcalloc(cfg->nr_sms, sizeof(*set->threads), GFP_KERNEL);
	set->saved_pool = kcalloc(gputbs_saved_count(cfg),
				  sizeof(*set->saved_pool), GFP_KERNEL);
	if (!set->sms || !set->threads || !set->saved_pool ||
	    gputbs_obs_alloc_sms(cfg, &set->obs, &set->slot_share))
		goto err;
	for (i = 0; i < cfg->nr_sms; i++) {
		set->sms[i] = kzalloc(gtbs_sm_size(cfg), GFP_KERNEL);
		if (!set->sms[i])
			goto err;
		gtbs_sm_init(cfg, set->sms[i], i);
	}
	return 0;
err:
	gputbs_sm_set_free(set);
	return -ENOMEM;
}

/* Start the core over on @cfg and @sms, keeping what outlives SMs. */
static void gputbs_core_reinit(struct gputbs_device *gdev,
			       const struct gtbs_dev_config *cfg,
			       struct gtbs_sm **sms, struct gtbs_saved *pool,
			       u32 time_scale_ps)
{
	struct gtbs_dev *core = &gdev->core;
	u64 params[GTBS_MAX_POLICY_PARAMS];
	/* the members that outlive the SMs: owner links, modes, counters */
	struct {
		spinlock_t *lock;	/* &gputbs_device.lock, which the caller holds */
		const struct gtbs_backend_ops *backend;
		void *priv;
		u64 next_id, submitted, completed, cancelled, timed_out;
		u64 dispatched, predictions, promotions, policy_switches;
		u64 sharing_switches;
		bool slice_unaware;
		u32 pred_mode;
		u32 preempt_mode;
		u32 switch_bw;
		u64 cap_period;
	} old = {
		core->lock, core->backend, core->priv, core->next_id,
		core->grids_submitted, core->grids_completed,
		core->grids_cancelled, core->grids_timed_out,
		core->blocks_dispatched, core->predictions, core->promotions,
		core->policy_switches, core->sharing_switches,
		core->slice_unaware, core->pred_mode, core->preempt_mode,
		core->switch_bytes_per_cycle, core->cap_period,
	};
	u64 budget[GTBS_NR_PRIO_CLASSES];
	u64 timeout;
	u32 i;

	/* the policy's parameters, set again once it is attached anew */
	for (i = 0; i < core->policy->nr_params; i++)
		params[i] = gtbs_policy_param_get(core, i);
	memcpy(budget, core->preempt_budget, sizeof(budget));
	/* spare pairs have the old size; the next refill makes new ones */
	gtbs_dev_spare_free(core);
	gtbs_dev_init(core, cfg, core->policy, sms);
	core->spare_only = true;
	core->pair_alloc = &gputbs_pair_alloc;
	gtbs_dev_set_saved_pool(core, pool, gputbs_saved_count(cfg));
	core->preempt_mode = old.preempt_mode;
	core->switch_bytes_per_cycle = old.switch_bw;
	core->cap_period = old.cap_period;
	gputbs_tenants_reinit(gdev);	/* on the new core, after the period */
	memcpy(core->preempt_budget, budget, sizeof(budget));
	core->lock = old.lock;
	core->backend = old.backend;
	core->priv = old.priv;
	core->next_id = old.next_id;
	core->slice_unaware = old.slice_unaware;
	core->pred_mode = old.pred_mode;
	for (i = 0; i < core->policy->nr_params; i++)
		gtbs_policy_param_set(core, i, params[i], 0);
	core->grids_submitted = old.submitted;
	core->grids_completed = old.completed;
	core->grids_cancelled = old.cancelled;
	core->grids_timed_out = old.timed_out;
	core->blocks_dispatched = old.dispatched;
	core->predictions = old.predictions;
	core->promotions = old.promotions;
	core->policy_switches = old.policy_switches;
	core->sharing_switches = old.sharing_switches;
	/*
	 * The guard and the timeout are kept in ns: in cycles of the new
	 * scale, rounded up (checked not to overflow when set).
	 */
	gdev->time_scale_ps = time_scale_ps;
	gputbs_ns_to_cycles(gdev, gdev->starve_ns, &core->starve_cycles);
	gputbs_ns_to_cycles(gdev, gdev->timeout_ns, &timeout);
	core->timeout_cycles = min(timeout, GTBS_MAX_TIMEOUT_CYCLES);
}

/**
 * gputbs_reconfigure() - give the device a new configuration
 * @gdev: the device.
 * @cfg: the new configuration, valid (gtbs_config_check()).
 * @time_scale_ps: the new time scale, 1000..1000000000 ps per cycle.
 *
 * See the DOC above.  The caller holds &gputbs_device.cfg_lock.
 *
 * Context: process context, may sleep.
 * Return: 0; -EBUSY if a file of /dev/gputbs is open or a grid exists;
 * -ENOMEM; or the error of creating a kthread.  On error nothing changed.
 */
int gputbs_reconfigure(struct gputbs_device *gdev,
		       const struct gtbs_dev_config *cfg, u32 time_scale_ps)
{
	struct gputbs_sm_set set, old;
	int ret;

	lockdep_assert_held(&gdev->cfg_lock);
	if (atomic_read(&gdev->nr_open))
		return -EBUSY;
	ret = gputbs_sm_set_alloc(cfg, &set);
	if (ret)
		return ret;
	ret = gputbs_sm_threads_create(gdev, set.threads, set.sms, set.nr);
	if (ret)
		goto err_free;

	mutex_lock(&gdev->tenants.lock);
	spin_lock(&gdev->lock);
	if (!gtbs_dev_idle(&gdev->core) ||
	    gtbs_dev_next_arrival(&gdev->core) != U64_MAX) {
		spin_unlock(&gdev->lock);
		mutex_unlock(&gdev->tenants.lock);
		ret = -EBUSY;
		goto err_threads;
	}
	old = (struct gputbs_sm_set) {
		.sms = gdev->sms,
		.threads = gdev->threads,
		.obs = gdev->obs.sms,
		.slot_share = gdev->obs.slot_share,
		.saved_pool = gdev->saved_pool,
		.nr = gdev->core.cfg.nr_sms,
	};
	gputbs_core_reinit(gdev, cfg, set.sms, set.saved_pool, time_scale_ps);
	gdev->saved_pool = set.saved_pool;
	gdev->sms = set.sms;
	gdev->threads = set.threads;
	gdev->obs.sms = set.obs;
	gdev->obs.slot_share = set.slot_share;
	gdev->time_scale_ps = time_scale_ps;
	gdev->epoch_ns = ktime_get_ns();
	spin_unlock(&gdev->lock);
	mutex_unlock(&gdev->tenants.lock);

	gputbs_sm_threads_destroy(old.threads, old.nr);
	gputbs_sm_set_free(&old);
	return 0;

err_threads:
	gputbs_sm_threads_destroy(set.threads, set.nr);
err_free:
	gputbs_sm_set_free(&set);
	return ret;
}

/**
 * gputbs_policy_note() - the deprecation note of a policy being selected
 * @ops: the policy selected (module parameter, sysfs, netlink).
 *
 * ``sjf`` changed meaning in 2026-11: it is now the paper's clairvoyant
 * serial SJF (Section "Motivation"); the former online SJF oracle is
 * ``srtf-oracle`` (zero-sampling SRTF, Section "System Throughput").  The
 * first selection of ``sjf`` says so once in the kernel log.
 *
 * Context: any.
 */
void gputbs_policy_note(const struct gtbs_policy_ops *ops)
{
	if (!strcmp(ops->name, "sjf"))
		pr_notice_once("gputbs: policy sjf is now the paper's serial SJF (shortest grid alone first, one grid at a time); the former SJF oracle is srtf-oracle\n");
}

/**
 * gputbs_switch_policy() - switch the device's scheduling policy now
 * @gdev: the device.
 * @ops: the new policy, with a reference the caller took with
 *	gtbs_policy_get(), which this function consumes: the device keeps it
 *	(and drops the old policy's) or drops it.
 *
 * For the sysfs attribute policy and the netlink policy-set command: runs
 * the device up to the current cycle, switches among the policies of
 * paper Section "Thread Block Scheduling" with gtbs_dev_set_policy()
 * (grids keep running: blocks are never interrupted), reports the switch
 * and lets the kicked SMs issue under the new policy at once.  Selecting
 * the current policy changes nothing.  The caller then rebuilds sysfs
 * policy_params/ (gputbs_policy_params_changed()), so that this file
 * calls no sysfs code back.
 *
 * Context: process context, may sleep; takes &gputbs_device.lock
 * (gputbs_dev_lock_sync()).
 * Return: 0, -EINTR when a signal arrived while the device caught up
 * (the policy is unchanged), or -ENOENT when @ops was withdrawn since the
 * caller found it (a BPF policy detached).
 */
int gputbs_switch_policy(struct gputbs_device *gdev,
			 const struct gtbs_policy_ops *ops)
{
	const struct gtbs_policy_ops *old;
	u64 now;
	int ret;

	ret = gputbs_dev_lock_sync(gdev, &now);
	if (ret) {
		spin_unlock(&gdev->lock);
		gtbs_policy_put(ops);
		return ret;
	}
	/* a BPF policy detached since the lookup (gputbs_policy_withdraw()) */
	if (!gtbs_policy_registered(ops)) {
		spin_unlock(&gdev->lock);
		gtbs_policy_put(ops);
		return -ENOENT;
	}
	old = gdev->core.policy;
	gputbs_policy_note(ops);
	gtbs_dev_set_policy(&gdev->core, ops, now);
	gputbs_obs_policy_switched(gdev, old, now);
	gputbs_dev_sync(gdev);	/* kicked SMs issue under the new policy now */
	spin_unlock(&gdev->lock);
	/* the old policy's module may be unloaded from now on */
	gtbs_policy_put(old == ops ? ops : old);
	return 0;
}

/**
 * gputbs_policy_withdraw() - stop using a policy that goes away
 * @gdev: the device.
 * @ops: a policy already unregistered (gtbs_policy_unregister()), so that
 *	no selection can pick it again (gputbs_switch_policy() checks).
 *
 * For a BPF policy whose struct_ops is detached (gputbs_bpf.c): if the
 * device uses @ops, it switches to fifo at once, as a selection would:
 * grids keep running and none is lost, since the engine, not the policy,
 * owns them.  Cannot fail: a signal (a loader killed while its link
 * closes) stops the catch-up, and the switch happens at the device's
 * cycle instead.  Afterwards no op of @ops runs any more.
 *
 * Context: process context, may sleep; takes &gputbs_device.lock and
 * &gputbs_device.cfg_lock.
 */
void gputbs_policy_withdraw(struct gputbs_device *gdev,
			    const struct gtbs_policy_ops *ops)
{
	const struct gtbs_policy_ops *fifo = &gtbs_policy_fifo;
	bool used;
	u64 now;

	/* fifo is the module's own: a reference can always be taken */
	if (!gtbs_policy_get_ref(fifo))
		return;
	if (gputbs_dev_lock_sync(gdev, &now))
		now = gdev->core.clock;
	used = gdev->core.policy == ops;
	if (used) {
		gtbs_dev_set_policy(&gdev->core, fifo, now);
		gputbs_obs_policy_switched(gdev, ops, now);
		gputbs_dev_sync(gdev);
	}
	spin_unlock(&gdev->lock);
	gtbs_policy_put(used ? ops : fifo);
	if (used)
		gputbs_policy_params_changed(gdev);
}
