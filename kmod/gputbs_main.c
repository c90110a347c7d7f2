// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_main.c - module glue: parameters, the device, /dev/gputbs.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Overview
 *
 * gputbs emulates a GPU of streaming multiprocessors (SMs) and schedules
 * the thread blocks of grids that processes submit through /dev/gputbs, as
 * in Pai, Govindarajan and Thazhuthaveetil, "Preemptive Thread Block
 * Scheduling with Online Structural Runtime Prediction for Concurrent GPGPU
 * Kernels".  The device model, the occupancy calculation, the SM timing
 * model, the dispatch engine and the policies are the portable core in
 * sm-emu/; this module adds one kthread per SM that runs the core in
 * wall-clock emulated time (gputbs_sm.c), the file interface
 * (gputbs_file.c) and the sysfs attributes of the misc device, which
 * select the policy at run time (gputbs_sysfs.c).  The device comes from
 * module parameters: a device preset (device=, by default gtx480, the
 * paper's Table "Simulator Configuration"), whose fields the per-field
 * parameters override.
 */
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "../uapi/linux/gputbs.h"

#include "gputbs_drv.h"
#include "gputbs_nl.h"

static char *device = "gtx480";
module_param(device, charp, 0444);
MODULE_PARM_DESC(device,
		 "Device preset: gtx480 (default, the paper's), v100, a100 or h100; the parameters below override its fields (switch with /sys/class/misc/gputbs/device)");

/* 0: the preset's value */
static unsigned int nr_sms;
module_param(nr_sms, uint, 0444);
MODULE_PARM_DESC(nr_sms, "Streaming multiprocessors, 1..1024 (default 0: the preset's, 15 on gtx480)");

static unsigned int threads_per_sm;
module_param(threads_per_sm, uint, 0444);
MODULE_PARM_DESC(threads_per_sm, "Thread contexts per SM (default 0: the preset's, 1536 on gtx480)");

static unsigned int regs_per_sm;
module_param(regs_per_sm, uint, 0444);
MODULE_PARM_DESC(regs_per_sm, "Registers per SM (default 0: the preset's, 32768 on gtx480)");

static unsigned int shmem_per_sm;
module_param(shmem_per_sm, uint, 0444);
MODULE_PARM_DESC(shmem_per_sm, "Shared memory per SM, bytes (default 0: the preset's, 49152 on gtx480)");

static unsigned int blocks_per_sm;
module_param(blocks_per_sm, uint, 0444);
MODULE_PARM_DESC(blocks_per_sm, "Thread block slots per SM, 1..64 (default 0: the preset's, 8 on gtx480)");

static unsigned int warps_per_sm;
module_param(warps_per_sm, uint, 0444);
MODULE_PARM_DESC(warps_per_sm, "Warp contexts per SM (default 0: the preset's, 48 on gtx480)");

static unsigned int warp_size;
module_param(warp_size, uint, 0444);
MODULE_PARM_DESC(warp_size, "Threads per warp (default 0: the preset's, 32)");

static unsigned int load_knee_warps;
module_param(load_knee_warps, uint, 0444);
MODULE_PARM_DESC(load_knee_warps,
		 "Timing model constant K, warps (default 0: the preset's, 8 on gtx480; see timing-model.rst)");

static unsigned int timing_model;
module_param(timing_model, uint, 0444);
MODULE_PARM_DESC(timing_model,
		 "How co-running grids slow each other: 0 demand overlap (default), 1 uniform (the first release's); see timing-model.rst");

static unsigned int block_times;
module_param(block_times, uint, 0444);
MODULE_PARM_DESC(block_times,
		 "Block durations: 0 a normal grid's wave shares most of their variation (default), 1 each block on its own; see timing-model.rst");

static unsigned int time_scale_ps = 1000000;
module_param(time_scale_ps, uint, 0444);
MODULE_PARM_DESC(time_scale_ps,
		 "Wall-clock picoseconds per emulated cycle, 1000..1000000000 (default 1000000 = 1 us)");

static unsigned int max_grids_per_fd = 256;
module_param(max_grids_per_fd, uint, 0444);
MODULE_PARM_DESC(max_grids_per_fd,
		 "Unreaped grids one open file may hold, 1..65536 (default 256)");

static char *policy = "fifo";
module_param(policy, charp, 0444);
MODULE_PARM_DESC(policy,
		 "Initial thread block scheduling policy: fifo, mpmax, srtf, srtf-adaptive, srtf-oracle, sjf or ljf (default fifo; switch with /sys/class/misc/gputbs/policy)");

static struct gputbs_device *gputbs_dev;

static void gputbs_backend_grid_done(struct gtbs_dev *core,
				     struct gtbs_grid *grid)
{
	gputbs_obs_grid_done(core->priv, grid->priv);
	gputbs_grid_done(core->priv, grid->priv);
}

static void gputbs_backend_grid_timeout(struct gtbs_dev *core,
					struct gtbs_grid *grid)
{
	gputbs_obs_grid_timeout(core->priv, grid->priv);
	gputbs_grid_done(core->priv, grid->priv);
}

static void gputbs_backend_block_end(struct gtbs_dev *core,
				     struct gtbs_sm *sm,
				     struct gtbs_grid *grid, u32 slot,
				     u32 block, u64 start, u64 end)
{
	gputbs_obs_block_end(core->priv, sm, grid->priv, slot, block, start,
			     end);
	gputbs_grid_block_end(grid->priv, sm->id, slot, block, start, end);
	gputbs_isol_block_end(core->priv, grid->priv);
}

/*
 * The core's events: block records, completions, and the observers of
 * gputbs_obs.c (tracepoints, counters, accounting).
 */
static const struct gtbs_backend_ops gputbs_backend = {
	.grid_arrive = gputbs_isol_grid_arrive,
	.grid_start = gputbs_obs_grid_start,
	.grid_done = gputbs_backend_grid_done,
	.grid_timeout = gputbs_backend_grid_timeout,
	.block_start = gputbs_obs_block_start,
	.block_end = gputbs_backend_block_end,
	.predict = gputbs_obs_predict,
	.block_preempt = gputbs_obs_block_preempt,
	.pick = gputbs_obs_pick,
};

/* A parameter left at 0 keeps the preset's value. */
static void gputbs_param_override(u32 *field, unsigned int param)
{
	if (param)
		*field = param;
}

static int gputbs_config_from_params(struct gtbs_dev_config *cfg,
				     const struct gtbs_dev_preset **preset)
{
	const char *why;

	*preset = gtbs_config_preset(device);
	if (!*preset) {
		pr_err("gputbs: unknown device preset '%s' (gtx480, v100, a100 or h100)\n",
		       device);
		return -EINVAL;
	}
	*cfg = (*preset)->cfg;
	gputbs_param_override(&cfg->nr_sms, nr_sms);
	gputbs_param_override(&cfg->max_threads_per_sm, threads_per_sm);
	gputbs_param_override(&cfg->max_regs_per_sm, regs_per_sm);
	gputbs_param_override(&cfg->max_shmem_per_sm, shmem_per_sm);
	gputbs_param_override(&cfg->max_blocks_per_sm, blocks_per_sm);
	gputbs_param_override(&cfg->max_warps_per_sm, warps_per_sm);
	gputbs_param_override(&cfg->warp_size, warp_size);
	gputbs_param_override(&cfg->load_knee_warps, load_knee_warps);
	cfg->timing_model = timing_model;
	cfg->block_times = block_times;
	gputbs_limits_apply(cfg);	/* max_blocks_per_grid */
	cfg->max_threads_per_block = min(cfg->max_threads_per_block,
					 cfg->max_threads_per_sm);
	if (gtbs_config_check(cfg, &why)) {
		pr_err("gputbs: invalid device parameters: %s\n", why);
		return -EINVAL;
	}
	if (time_scale_ps < 1000 || time_scale_ps > 1000000000) {
		pr_err("gputbs: time_scale_ps must be 1000..1000000000\n");
		return -EINVAL;
	}
	if (!max_grids_per_fd || max_grids_per_fd > 65536) {
		pr_err("gputbs: max_grids_per_fd must be 1..65536\n");
		return -EINVAL;
	}
	return 0;
}

static void gputbs_device_free(struct gputbs_device *gdev)
{
	u32 i;

	gputbs_tenants_free(gdev);
	gtbs_policy_put(gdev->core.policy);	/* the device's reference */
	if (gdev->core.spare.next)
		gtbs_dev_spare_free(&gdev->core);
	kfree(gdev->saved_pool);
	if (gdev->sms)
		for (i = 0; i < gdev->core.cfg.nr_sms; i++)
			kfree(gdev->sms[i]);
	kfree(gdev->sms);
	kfree(gdev->threads);
	gputbs_obs_free_sms(gdev->obs.sms, gdev->obs.slot_share);
	kvfree(gdev);
}

static struct gputbs_device *gputbs_device_alloc(void)
{
	const struct gtbs_dev_preset *preset;
	const struct gtbs_policy_ops *ops;
	struct gtbs_dev_config cfg;
	struct gputbs_device *gdev;
	int ret;
	u32 i;

	ret = gputbs_config_from_params(&cfg, &preset);
	if (ret)
		return ERR_PTR(ret);
	ops = gtbs_policy_get(policy);
	if (!ops) {
		pr_err("gputbs: unknown policy '%s'\n", policy);
		return ERR_PTR(-EINVAL);
	}
	gputbs_policy_note(ops);
	/* about 32 KiB, the core and its per-SM heap arrays included */
	gdev = kvzalloc(sizeof(*gdev), GFP_KERNEL);
	if (!gdev) {
		gtbs_policy_put(ops);
		return ERR_PTR(-ENOMEM);
	}
	gputbs_tenants_init(gdev);
	/* before a failure can free @gdev: gputbs_device_free() puts it */
	gdev->core.policy = ops;
	gdev->core.cfg = cfg;
	gdev->preset = preset;
	gdev->sms = kcalloc(cfg.nr_sms, sizeof(*gdev->sms), GFP_KERNEL);
	gdev->threads = kcalloc(cfg.nr_sms, sizeof(*gdev->threads), GFP_KERNEL);
	if (!gdev->sms || !gdev->threads ||
	    gputbs_obs_alloc_sms(&cfg, &gdev->obs.sms, &gdev->obs.slot_share))
		goto err_nomem;
	for (i = 0; i < cfg.nr_sms; i++) {
		gdev->sms[i] = kzalloc(gtbs_sm_size(&cfg), GFP_KERNEL);
		if (!gdev->sms[i])
			goto err_nomem;
		gtbs_sm_init(&cfg, gdev->sms[i], i);
	}
	spin_lock_init(&gdev->lock);
	mutex_init(&gdev->cfg_lock);
	gtbs_dev_init(&gdev->core, &cfg, ops, gdev->sms);
	/* pairs only from the reserve, filled outside the lock (gputbs_sm.c) */
	gdev->core.spare_only = true;
	gdev->core.pair_alloc = &gputbs_pair_alloc;
	gdev->saved_pool = kcalloc(gputbs_saved_count(&cfg),
				   sizeof(*gdev->saved_pool), GFP_KERNEL);
	if (!gdev->saved_pool)
		goto err_nomem;
	gtbs_dev_set_saved_pool(&gdev->core, gdev->saved_pool,
				gputbs_saved_count(&cfg));
	gdev->core.lock = &gdev->lock;
	gdev->core.backend = &gputbs_backend;
	gdev->core.priv = gdev;
	gdev->epoch_ns = ktime_get_ns();
	gdev->time_scale_ps = time_scale_ps;
	gdev->max_grids_per_fd = max_grids_per_fd;
	gdev->timeout_ns = GPUTBS_DEFAULT_TIMEOUT_NS;
	gdev->isol.max_lag_ns = GPUTBS_MAX_LAG_NS_DEFAULT;
	/* 120 s in cycles: no overflow at any time scale */
	gputbs_ns_to_cycles(gdev, gdev->timeout_ns, &gdev->core.timeout_cycles);
	return gdev;

err_nomem:
	gputbs_device_free(gdev);
	return ERR_PTR(-ENOMEM);
}

static int __init gputbs_init(void)
{
	struct gputbs_device *gdev;
	int ret;

	/* the built-ins, through the API every policy module uses */
	ret = gtbs_policy_register_builtins();
	if (ret)
		return ret;
	gdev = gputbs_device_alloc();
	if (IS_ERR(gdev)) {
		gtbs_policy_unregister_builtins();
		return PTR_ERR(gdev);
	}
	ret = gputbs_sm_threads_start(gdev);
	if (ret)
		goto err_free;
	ret = gputbs_nl_init(gdev);	/* its ops run the SMs: after them */
	if (ret)
		goto err_threads;
	gdev->misc.minor = MISC_DYNAMIC_MINOR;
	gdev->misc.name = GPUTBS_DEVICE_NAME;
	gdev->misc.fops = &gputbs_fops;
	gdev->misc.mode = 0666;
	gdev->misc.groups = gputbs_groups;
	ret = misc_register(&gdev->misc);
	if (ret)
		goto err_nl;
	gputbs_dev = gdev;
	gputbs_policy_params_changed(gdev);	/* policy_params/ */
	gputbs_debugfs_init(gdev);
	gputbs_bpf_init(gdev);	/* BPF policies, where the kernel has them */
	pr_info("gputbs: %s, %u SMs, policy %s, %u ps per cycle\n",
		gdev->preset->name, gdev->core.cfg.nr_sms,
		gdev->core.policy->name,
		gdev->time_scale_ps);
	return 0;

err_nl:
	gputbs_nl_exit(gdev);
err_threads:
	gputbs_sm_threads_stop(gdev);
err_free:
	gputbs_device_free(gdev);
	gtbs_policy_unregister_builtins();
	return ret;
}

static void __exit gputbs_exit(void)
{
	struct gputbs_device *gdev = gputbs_dev;

	gputbs_debugfs_exit(gdev);
	gputbs_policy_params_remove(gdev);
	misc_deregister(&gdev->misc);
	gputbs_nl_exit(gdev);
	gputbs_sm_threads_stop(gdev);
	gputbs_device_free(gdev);
	/* no policy module is loaded: each depends on this one's symbols */
	gtbs_policy_unregister_builtins();
}

module_init(gputbs_init);
module_exit(gputbs_exit);

MODULE_DESCRIPTION("OS-level GPU thread block scheduling on an emulated multi-SM device");
MODULE_AUTHOR("The gputbs developers");
MODULE_LICENSE("GPL");
