/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_obs.h - what the module observes of its scheduler: counters of
 * preemptions, the preemption-latency histogram, the predictor-accuracy
 * log and per-client accounting (sysfs, debugfs, fdinfo, tracepoints).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_OBS_H
#define _GPUTBS_OBS_H

#include <linux/types.h>

#include "../sm-emu/gtbs.h"

struct gputbs_device;
struct gputbs_client;
struct gputbs_grid;
struct seq_file;

/** GPUTBS_ACC_LOG_LEN - completed grids kept in the predictor-accuracy log */
#define GPUTBS_ACC_LOG_LEN	64
/** GPUTBS_LAT_BUCKETS - log2 buckets of the preemption-latency histogram */
#define GPUTBS_LAT_BUCKETS	65
/** GPUTBS_SHARE_SHIFT - fixed-point shift of the per-SM share clock */
#define GPUTBS_SHARE_SHIFT	16
/** GPUTBS_TRACE_NAME_LEN - bytes of a policy name in a trace event */
#define GPUTBS_TRACE_NAME_LEN	24

/**
 * enum gputbs_preempt_reason - why an SM stopped issuing a grid
 * @GPUTBS_PREEMPT_CLASS: the new grid's effective priority class is
 *	higher (strict classes).
 * @GPUTBS_PREEMPT_STARVE: the starvation guard promoted the new grid to
 *	the old one's class or above: it may issue only thanks to that.
 * @GPUTBS_PREEMPT_SHORTER: same class; the policy (srtf, srtf-adaptive,
 *	srtf-oracle) ranks the new grid shorter.
 * @GPUTBS_PREEMPT_SAMPLE: SRTF samples the new grid on this SM.
 * @GPUTBS_PREEMPT_SHARE: SRTF/Adaptive in sharing mode: the residency
 *	limit of the shortest grid moves the SM to the other.
 * @GPUTBS_PREEMPT_LIMIT: MPMax: the old grid reached its MPMax limit.
 * @GPUTBS_PREEMPT_POLICY: any other choice of the policy.
 * @GPUTBS_NR_PREEMPT_REASONS: number of reasons.
 *
 * Only %GPUTBS_PREEMPT_CLASS, %GPUTBS_PREEMPT_STARVE and
 * %GPUTBS_PREEMPT_SHORTER count as preemptions (sysfs preemptions); every
 * reason is traced (gputbs:preempt).
 */
enum gputbs_preempt_reason {
	GPUTBS_PREEMPT_CLASS,
	GPUTBS_PREEMPT_STARVE,
	GPUTBS_PREEMPT_SHORTER,
	GPUTBS_PREEMPT_SAMPLE,
	GPUTBS_PREEMPT_SHARE,
	GPUTBS_PREEMPT_LIMIT,
	GPUTBS_PREEMPT_POLICY,
	GPUTBS_NR_PREEMPT_REASONS,
};

/**
 * struct gputbs_client_stats - accounting of one open file (fdinfo)
 * @id: drm-client-id: unique for the life of the module, from 1.
 * @grids_submitted: grids submitted through the file.
 * @grids_completed: grids of the file whose last block ended.
 * @blocks_completed: blocks of the file's grids that ended.
 * @busy_cycles: SM-busy cycles attributed to the file's blocks, whole
 *	cycles (see gputbs_obs_block_end()).
 * @busy_frac: the fraction of a cycle beyond @busy_cycles, in units of
 *	2^-%GPUTBS_SHARE_SHIFT cycles.
 * @blocks_preempted: blocks of the file's grids switched out or flushed
 *	(a block preempted twice counts twice).
 * @save_cycles: cycles the file's switched-out blocks held their slots
 *	while their contexts were saved (gputbs_obs_block_preempt()).
 * @restore_cycles: cycles its restored blocks held their slots while their
 *	contexts were restored (gputbs_obs_block_start()).
 *
 * @id is constant; the rest is protected by &gputbs_device.lock.
 */
struct gputbs_client_stats {
	u64 id;
	u64 grids_submitted;
	u64 grids_completed;
	u64 blocks_completed;
	u64 busy_cycles;
	u32 busy_frac;
	u64 blocks_preempted;
	u64 save_cycles;
	u64 restore_cycles;
};

/**
 * struct gputbs_obs_sm - what the module tracks of one SM
 * @cur: the grid the SM's policy last picked, or NULL: the grid the SM
 *	is issuing (or waiting to issue).  Cleared on every SM when that
 *	grid leaves the device (gputbs_obs_forget()), so it never points to
 *	a grid that may be freed.
 * @lat_id: the grid whose first block on this SM ends a preemption's
 *	latency measurement, or U64_MAX.
 * @sharing: &gtbs_sm.sharing as last seen (for gputbs:sharing_mode).
 * @share_clock: integral over the SM's busy time of 1 / (resident
 *	blocks), in 2^-%GPUTBS_SHARE_SHIFT cycles; wraps.
 * @share_cycle: the cycle up to which @share_clock is current.
 * @slot_share: per block slot, @share_clock when its block started.
 *
 * Protected by &gputbs_device.lock.
 */
struct gputbs_obs_sm {
	struct gtbs_grid *cur;
	u64 lat_id;
	bool sharing;
	u64 share_clock;
	u64 share_cycle;
	u64 *slot_share;
};

/**
 * struct gputbs_acc_entry - one completed grid in the accuracy log
 * @client: client id of its file.
 * @handle: its handle on that file.
 * @id: &gtbs_grid.id.
 * @blocks: thread blocks.
 * @prio_class: its &enum gtbs_prio_class.
 * @arrival: cycle it arrived.
 * @start: cycle its first block started.
 * @end: cycle its last block ended.
 * @predictions: predictions made for it on any SM.
 * @first_pred: its first prediction (Pred_Cycles), cycles; 0 if none.
 * @final_pred: its final prediction (gtbs_grid_pred_final()), cycles.
 * @label: its label.
 */
struct gputbs_acc_entry {
	u64 client;
	u32 handle;
	u64 id;
	u32 blocks;
	u32 prio_class;
	u64 arrival;
	u64 start;
	u64 end;
	u64 predictions;
	u64 first_pred;
	u64 final_pred;
	char label[GTBS_LABEL_LEN];
};

/**
 * struct gputbs_lat_hist - a log2 histogram of preemption latencies
 * @hist: latencies in cycles: bucket 0 counts 0 cycles, bucket b >= 1
 *	counts [2^(b-1), 2^b).
 * @count: latencies measured (the sum of @hist).
 * @sum: their sum, cycles.
 * @max: the largest, cycles.
 *
 * Protected by &gputbs_device.lock.
 */
struct gputbs_lat_hist {
	u64 hist[GPUTBS_LAT_BUCKETS];
	u64 count;
	u64 sum;
	u64 max;
};

/**
 * struct gputbs_obs - the module's observations of its device
 * @preemptions: preemptions (&enum gputbs_preempt_reason), device lifetime.
 * @switches: gputbs:preempt events per reason.
 * @lat: preemption latencies per &enum gtbs_prio_class of the grid that
 *	waited (its own class) and per &enum gtbs_preempt_mech: the slowest
 *	mechanism that preempted a block on the SM for it while it waited
 *	(switch, else flush, else drain; gputbs_obs.c, DOC).
 * @acc: ring of the last %GPUTBS_ACC_LOG_LEN completed grids.
 * @acc_total: grids ever logged; the next goes to @acc[@acc_total %
 *	%GPUTBS_ACC_LOG_LEN].
 * @sms: per-SM state, &gtbs_dev_config.nr_sms entries.
 * @slot_share: the storage of every &gputbs_obs_sm.slot_share.
 *
 * Protected by &gputbs_device.lock; @sms and @slot_share are replaced only
 * when the device is reconfigured.
 */
struct gputbs_obs {
	u64 preemptions;
	u64 switches[GPUTBS_NR_PREEMPT_REASONS];
	struct gputbs_lat_hist lat[GTBS_NR_PRIO_CLASSES][GTBS_NR_MECHS];
	struct gputbs_acc_entry acc[GPUTBS_ACC_LOG_LEN];
	u64 acc_total;
	struct gputbs_obs_sm *sms;
	u64 *slot_share;
};

/* gputbs_obs.c */
int gputbs_obs_alloc_sms(const struct gtbs_dev_config *cfg,
			 struct gputbs_obs_sm **sms, u64 **slot_share);
void gputbs_obs_free_sms(struct gputbs_obs_sm *sms, u64 *slot_share);
void gputbs_obs_reset_sms(const struct gtbs_dev_config *cfg,
			  struct gputbs_obs_sm *sms, u64 *slot_share);
void gputbs_obs_client_init(struct gputbs_client *client);
void gputbs_obs_grid_submit(struct gputbs_device *gdev,
			    struct gputbs_grid *grid, u64 now);
void gputbs_obs_grid_cancel(struct gputbs_device *gdev,
			    struct gputbs_grid *grid);
void gputbs_obs_flush(struct gputbs_device *gdev, u64 now);
void gputbs_obs_grid_start(struct gtbs_dev *core, struct gtbs_grid *grid);
void gputbs_obs_grid_timeout(struct gputbs_device *gdev,
			     struct gputbs_grid *grid);
void gputbs_obs_grid_done(struct gputbs_device *gdev,
			  struct gputbs_grid *grid);
void gputbs_obs_block_start(struct gtbs_dev *core, struct gtbs_sm *sm,
			    struct gtbs_grid *grid, u32 slot, u32 block,
			    u64 cycle);
void gputbs_obs_block_end(struct gputbs_device *gdev, struct gtbs_sm *sm,
			  struct gputbs_grid *grid, u32 slot, u32 block,
			  u64 start, u64 end);
void gputbs_obs_predict(struct gtbs_dev *core, struct gtbs_sm *sm,
			struct gtbs_grid *grid);
void gputbs_obs_block_preempt(struct gtbs_dev *core, struct gtbs_sm *sm,
			      struct gtbs_grid *grid, u32 slot, u32 block,
			      u32 mech, u64 cycles);
void gputbs_obs_pick(struct gtbs_dev *core, struct gtbs_sm *sm,
		     struct gtbs_grid *grid, u32 pick);
void gputbs_obs_policy_switched(struct gputbs_device *gdev,
				const struct gtbs_policy_ops *old, u64 now);
const char *gputbs_preempt_reason_name(u32 reason);
u64 gputbs_obs_busy_ns(const struct gputbs_device *gdev,
		       const struct gputbs_client_stats *st);

/* gputbs_debugfs.c */
void gputbs_debugfs_init(struct gputbs_device *gdev);
void gputbs_debugfs_exit(struct gputbs_device *gdev);

/* gputbs_config.c */
int gputbs_reconfigure(struct gputbs_device *gdev,
		       const struct gtbs_dev_config *cfg, u32 time_scale_ps);
void gputbs_policy_note(const struct gtbs_policy_ops *ops);
int gputbs_switch_policy(struct gputbs_device *gdev,
			 const struct gtbs_policy_ops *ops);
void gputbs_policy_withdraw(struct gputbs_device *gdev,
			    const struct gtbs_policy_ops *ops);

#endif /* _GPUTBS_OBS_H */
