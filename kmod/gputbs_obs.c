// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_obs.c - what the module observes of its scheduler: preemptions
 * and their latency, the predictor-accuracy log, the SM time of each
 * client, and the tracepoints of the gputbs trace system.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Observability
 *
 * The core reports its events through &struct gtbs_backend_ops; the
 * module's backend (gputbs_main.c) forwards them here, under the device
 * lock, where they feed the tracepoints (gputbs_trace.h), the counters of
 * sysfs, the debugfs files (gputbs_debugfs.c) and the fdinfo of each open
 * file.  Nothing here allocates, sleeps or changes the schedule.
 *
 * Preemption.  The policy's choice at every block boundary of an SM is
 * reported by &gtbs_backend_ops.pick.  The SM *stops issuing* a grid G
 * (gputbs:preempt) when its policy picks another grid H while G, the grid
 * it picked before, still has blocks to issue; the reason is the first
 * that holds of: the starvation guard promoted H to G's class or above
 * (``starve``), H's effective class is higher (``class``), SRTF samples
 * H on this SM (``sample``), SRTF/Adaptive's SM is in sharing mode
 * (``share``), the policy is srtf, srtf-adaptive or srtf-oracle (``shorter``: they
 * pick the shortest grid), mpmax (``limit``), or another policy
 * (``policy``).  A *preemption* is such an event for the reasons class,
 * starve and shorter: the SM declines to issue a block of a lower-class or
 * longer grid that it would otherwise issue.  The event happens at a block
 * boundary; if H's block does not fit yet the SM waits for resident blocks
 * to end, or, with a preempt_mode other than drain, switches out or
 * flushes resident blocks of lower classes (gputbs:block_preempt).
 *
 * Preemption latency.  For a preemption on SM s by a grid H that has not
 * yet run a block on s (a preemption as above, or a resident block that s
 * switches out or flushes for H), the latency is the time from H's arrival
 * to the start of H's first block on s, in emulated cycles: it includes
 * SRTF's sampling and hand-off delays and the wait for resident blocks to
 * drain or to be saved.  It is measured once per grid and SM, when that block
 * starts; a grid cancelled before is not measured.  It is counted under
 * H's own priority class and under one mechanism: while H waits on s, the
 * blocks that s preempts for it (&gtbs_backend_ops.block_preempt, made
 * while s's policy has picked H) mark the wait with their mechanism, the
 * slowest kept: ``switch`` if any block was switched out (its save is
 * part of the wait), else ``flush`` if any was flushed, else ``drain`` (no
 * resident block was interrupted: the wait ended as blocks ended).
 *
 * Save and restore.  A switched-out block holds its slot for its save,
 * from &gtbs_backend_ops.block_preempt for the cycles it reports (the
 * transfer and the wait for the SM's transfers queued before it), and is
 * issued again with &gtbs_backend_ops.block_start in the phase
 * %GTBS_SLOT_RESTORE, holding the slot until &gtbs_slot.phase_end, when
 * it runs on.  Both intervals are traced (gputbs:block_preempt,
 * gputbs:block_restore) and charged to the block's file as its save and
 * restore cycles (fdinfo drm-gputbs-save-cycles, -restore-cycles); so they
 * include the waits for earlier transfers, and over all files they add up
 * to at least the device's switch_cycles (sysfs), the transfers alone.
 *
 * SM time of a client (drm-engine-sm of fdinfo).  While k blocks are
 * resident on an SM, each is charged 1/k of every cycle: a client's time
 * is the sum over its blocks of their share of the SMs they ran on.  The
 * shares of the blocks resident on an SM add up to its busy time
 * (&gtbs_sm.busy_cycles), so the clients' times add up to the device's
 * busy SM time and never exceed the elapsed time times the SM count
 * (drm-engine-capacity-sm).  A block is charged when it ends; blocks
 * dropped when their file is closed are not.  Each SM keeps a *share
 * clock*, the integral of 1/k over its busy time in 2^-16 cycles; a block
 * is charged the clock's advance between its start and end.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "gputbs_drv.h"
#include "gputbs_nl.h"
#include "gputbs_trace.h"

/**
 * gputbs_obs_reset_sms() - initialise the per-SM tracking
 * @cfg: the configuration the arrays were allocated for.
 * @sms: &gtbs_dev_config.nr_sms entries.
 * @slot_share: nr_sms * max_blocks_per_sm entries.
 *
 * Context: any; @sms not yet in use, or &gputbs_device.lock held.
 */
void gputbs_obs_reset_sms(const struct gtbs_dev_config *cfg,
			  struct gputbs_obs_sm *sms, u64 *slot_share)
{
	u32 i;

	for (i = 0; i < cfg->nr_sms; i++) {
		sms[i] = (struct gputbs_obs_sm) {
			.cur = NULL,
			.lat_id = U64_MAX,
			.slot_share = slot_share + (size_t)i *
				      cfg->max_blocks_per_sm,
		};
	}
}

/**
 * gputbs_obs_alloc_sms() - allocate the per-SM tracking of a configuration
 * @cfg: device configuration.
 * @sms: out: &gtbs_dev_config.nr_sms entries, initialised.
 * @slot_share: out: their per-slot storage.
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM (nothing allocated).
 */
int gputbs_obs_alloc_sms(const struct gtbs_dev_config *cfg,
			 struct gputbs_obs_sm **sms, u64 **slot_share)
{
	*sms = kcalloc(cfg->nr_sms, sizeof(**sms), GFP_KERNEL);
	*slot_share = kcalloc(array_size(cfg->nr_sms, cfg->max_blocks_per_sm),
			      sizeof(**slot_share), GFP_KERNEL);
	if (!*sms || !*slot_share) {
		gputbs_obs_free_sms(*sms, *slot_share);
		*sms = NULL;
		*slot_share = NULL;
		return -ENOMEM;
	}
	gputbs_obs_reset_sms(cfg, *sms, *slot_share);
	return 0;
}

/**
 * gputbs_obs_free_sms() - free what gputbs_obs_alloc_sms() allocated
 * @sms: the per-SM array, or NULL.
 * @slot_share: its storage, or NULL.
 *
 * Context: process context.
 */
void gputbs_obs_free_sms(struct gputbs_obs_sm *sms, u64 *slot_share)
{
	kfree(sms);
	kfree(slot_share);
}

/**
 * gputbs_preempt_reason_name() - name of an &enum gputbs_preempt_reason
 * @reason: the reason.
 *
 * Context: any.
 * Return: "class", "starve", "shorter", "sample", "share", "limit",
 * "policy", or "?".
 */
const char *gputbs_preempt_reason_name(u32 reason)
{
	static const char * const names[GPUTBS_NR_PREEMPT_REASONS] = {
		GTBS_PREEMPT_REASON_NAMES(GPUTBS_PREEMPT_)
	};

	return reason < GPUTBS_NR_PREEMPT_REASONS ? names[reason] : "?";
}

/**
 * gputbs_obs_client_init() - give a new open file its client id
 * @client: the client, zeroed, with &gputbs_client.gdev set.
 *
 * Context: process context, before the file is visible.
 */
void gputbs_obs_client_init(struct gputbs_client *client)
{
	client->stats.id = atomic64_inc_return(&client->gdev->next_client_id);
}

/**
 * gputbs_obs_busy_ns() - a client's SM time in ns (drm-engine-sm)
 * @gdev: the device (its time scale).
 * @st: a copy of the client's accounting.
 *
 * Context: any.
 * Return: &gputbs_client_stats.busy_cycles and busy_frac at the device's
 * time scale, ns, rounded down.
 */
u64 gputbs_obs_busy_ns(const struct gputbs_device *gdev,
		       const struct gputbs_client_stats *st)
{
	u32 scale = gdev->time_scale_ps;

	return mul_u64_u32_div(st->busy_cycles, scale, 1000) +
	       mul_u64_u32_div(st->busy_frac, scale,
			       1000U << GPUTBS_SHARE_SHIFT);
}

/* Bring @o's share clock to @cycle with @k blocks resident until then. */
static void gputbs_share_advance(struct gputbs_obs_sm *o, u64 cycle, u32 k)
{
	if (cycle <= o->share_cycle)
		return;
	if (k)
		o->share_clock += mul_u64_u32_div(cycle - o->share_cycle,
						  1U << GPUTBS_SHARE_SHIFT, k);
	o->share_cycle = cycle;
}

/* Charge a block's share of its SM, 2^-16 cycles, to its client. */
static void gputbs_client_charge(struct gputbs_client_stats *st, u64 share)
{
	const u32 mask = (1U << GPUTBS_SHARE_SHIFT) - 1;

	st->busy_cycles += share >> GPUTBS_SHARE_SHIFT;
	st->busy_frac += share & mask;
	st->busy_cycles += st->busy_frac >> GPUTBS_SHARE_SHIFT;
	st->busy_frac &= mask;
}

static void gputbs_obs_latency(struct gputbs_obs *obs, u32 class, u32 mech,
			       u64 cycles)
{
	struct gputbs_lat_hist *l = &obs->lat[class][mech];
	unsigned int b = cycles ? fls64(cycles) : 0;

	l->hist[b]++;
	l->count++;
	l->sum += cycles;
	l->max = max(l->max, cycles);
}

/* Rank of a mechanism in a wait: the slowest one used is kept (the DOC). */
static unsigned int gputbs_mech_rank(u32 mech)
{
	static const u8 rank[GTBS_NR_MECHS] = {
		[GTBS_MECH_DRAIN] = 0, [GTBS_MECH_FLUSH] = 1,
		[GTBS_MECH_SWITCH] = 2,
	};

	return mech < GTBS_NR_MECHS ? rank[mech] : 0;
}

/**
 * gputbs_obs_grid_submit() - a grid was submitted through a file
 * @gdev: the device.
 * @grid: the grid, just passed to gtbs_grid_submit_at().
 * @now: the emulated cycle of the submission.
 *
 * Counts it for the file and emits gputbs:grid_submit.
 *
 * Context: &gputbs_device.lock held, from the SUBMIT ioctl.
 */
void gputbs_obs_grid_submit(struct gputbs_device *gdev,
			    struct gputbs_grid *grid, u64 now)
{
	lockdep_assert_held(&gdev->lock);
	grid->client->stats.grids_submitted++;
	gputbs_nl_grid_submitted(gdev, grid);	/* gives it its id */
	trace_grid_submit(grid, now);
}

/**
 * gputbs_obs_flush() - charge SM time up to a cancellation
 * @gdev: the device, run up to @now.
 * @now: the emulated cycle of the cancellation.
 *
 * Cancelling drops resident blocks without a block_end callback: bring
 * every SM's share clock to @now first, so that the blocks that stay are
 * charged their share of the time before the cancellation at the old
 * count of resident blocks.
 *
 * Context: &gputbs_device.lock held, from release or a job timeout.
 */
void gputbs_obs_flush(struct gputbs_device *gdev, u64 now)
{
	u32 i;

	lockdep_assert_held(&gdev->lock);
	for (i = 0; i < gdev->core.cfg.nr_sms; i++)
		gputbs_share_advance(&gdev->obs.sms[i], now,
				     gdev->sms[i]->nr_resident);
}

/*
 * @grid leaves the device (done, timed out or cancelled): no SM may keep
 * it as the grid it picked last, since the grid may be freed once the
 * lock is dropped.  O(SMs), once per grid.  Lock held.
 */
static void gputbs_obs_forget(struct gputbs_device *gdev,
			      const struct gtbs_grid *grid)
{
	u32 i;

	lockdep_assert_held(&gdev->lock);
	for (i = 0; i < gdev->core.cfg.nr_sms; i++)
		if (gdev->obs.sms[i].cur == grid)
			gdev->obs.sms[i].cur = NULL;
}

/**
 * gputbs_obs_grid_cancel() - a grid of a closing file was cancelled
 * @gdev: the device.
 * @grid: the grid, after gtbs_grid_cancel().
 *
 * Emits gputbs:grid_end with state cancelled if the cancellation ended it
 * (a grid that completed before had its grid_end already).
 *
 * Context: &gputbs_device.lock held, from release.
 */
void gputbs_obs_grid_cancel(struct gputbs_device *gdev,
			    struct gputbs_grid *grid)
{
	lockdep_assert_held(&gdev->lock);
	gputbs_obs_forget(gdev, &grid->core);
	if (grid->core.state == GTBS_GRID_CANCELLED) {
		trace_grid_end(grid);
		gputbs_nl_grid_stopped(gdev, grid);
	}
}

/**
 * gputbs_obs_grid_timeout() - a grid is being stopped by the job timeout
 * @gdev: the device.
 * @grid: the grid, TIMED_OUT, its blocks still resident.
 *
 * Charges every SM's time up to the timeout at the count of resident
 * blocks before the eviction (gputbs_obs_flush()), emits gputbs:grid_end
 * with state timed_out and queues grid-timed-out-ntf.  The timeout is
 * counted by the core (&gtbs_dev.grids_timed_out).
 *
 * Context: &gputbs_device.lock held, wherever the device runs.
 */
void gputbs_obs_grid_timeout(struct gputbs_device *gdev,
			     struct gputbs_grid *grid)
{
	lockdep_assert_held(&gdev->lock);
	gputbs_obs_forget(gdev, &grid->core);
	gputbs_obs_flush(gdev, grid->core.end_cycle);
	trace_grid_end(grid);
	gputbs_nl_grid_stopped(gdev, grid);
}

/**
 * gputbs_obs_grid_start() - &gtbs_backend_ops.grid_start of the module
 * @core: the core's device.
 * @grid: the grid whose first block started.
 *
 * Emits gputbs:grid_start.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_obs_grid_start(struct gtbs_dev *core, struct gtbs_grid *grid)
{
	gtbs_lockdep_assert_held(core);
	trace_grid_start(grid->priv);
	gputbs_nl_grid_started(core->priv, grid->priv);
}

/**
 * gputbs_obs_grid_done() - a grid's last block ended
 * @gdev: the device.
 * @grid: the grid, DONE.
 *
 * Counts it for its file, logs its first and final predictions against
 * its runtime in the accuracy log and emits gputbs:grid_end.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_obs_grid_done(struct gputbs_device *gdev,
			  struct gputbs_grid *grid)
{
	struct gputbs_obs *obs = &gdev->obs;
	const struct gtbs_grid *g = &grid->core;
	struct gputbs_acc_entry *e;

	lockdep_assert_held(&gdev->lock);
	gputbs_obs_forget(gdev, g);
	grid->client->stats.grids_completed++;
	e = &obs->acc[obs->acc_total++ % GPUTBS_ACC_LOG_LEN];
	*e = (struct gputbs_acc_entry) {
		.client = grid->client->stats.id,
		.handle = grid->handle,
		.id = g->id,
		.blocks = g->desc.nr_blocks,
		.prio_class = g->desc.prio_class,
		.arrival = g->submit_cycle,
		.start = g->start_cycle,
		.end = g->end_cycle,
		.predictions = g->nr_predictions,
		.first_pred = g->nr_predictions ? g->first_pred : 0,
		.final_pred = gtbs_grid_pred_final(&gdev->core.cfg, g),
	};
	memcpy(e->label, g->desc.label, sizeof(e->label));
	trace_grid_end(grid);
	gputbs_nl_grid_completed(gdev, grid);
}

/**
 * gputbs_obs_block_start() - &gtbs_backend_ops.block_start of the module
 * @core: the core's device.
 * @sm: the SM.
 * @grid: the block's grid.
 * @slot: the block's slot on @sm.
 * @block: its index in @grid.
 * @cycle: the emulated cycle it started.
 *
 * Starts the block's share of the SM, ends a pending preemption-latency
 * measurement of @grid on @sm (under its class and mechanism, see the
 * DOC), and emits gputbs:block_start.  A switched-out block issued again
 * starts its restore here (its slot in %GTBS_SLOT_RESTORE until
 * &gtbs_slot.phase_end): the restore's cycles are charged to its file and
 * gputbs:block_restore follows.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_obs_block_start(struct gtbs_dev *core, struct gtbs_sm *sm,
			    struct gtbs_grid *grid, u32 slot, u32 block,
			    u64 cycle)
{
	struct gputbs_device *gdev = core->priv;
	struct gputbs_obs_sm *o = &gdev->obs.sms[sm->id];
	const struct gtbs_slot *s = &sm->slots[slot];
	struct gputbs_grid *mgrid = grid->priv;
	u64 restore = 0;

	gtbs_lockdep_assert_held(core);
	/* the new block is already counted in nr_resident */
	gputbs_share_advance(o, cycle, sm->nr_resident - 1);
	o->slot_share[slot] = o->share_clock;
	if (mgrid->lat_pending && test_bit(sm->id, mgrid->lat_pending)) {
		clear_bit(sm->id, mgrid->lat_pending);
		gputbs_obs_latency(&gdev->obs, grid->desc.prio_class,
				   mgrid->lat_mech[sm->id],
				   cycle - min(cycle, grid->submit_cycle));
	}
	trace_block_start(mgrid, sm->id, slot, block, cycle);
	if (s->phase != GTBS_SLOT_RESTORE)
		return;
	if (s->phase_end > cycle)
		restore = s->phase_end - cycle;
	mgrid->client->stats.restore_cycles += restore;
	trace_block_restore(mgrid, sm->id, slot, block, GTBS_MECH_SWITCH,
			    restore, cycle);
}

/**
 * gputbs_obs_block_end() - a block ended
 * @gdev: the device.
 * @sm: the SM it ran on.
 * @grid: its grid.
 * @slot: its slot on @sm.
 * @block: its index in @grid.
 * @start: the emulated cycle it started.
 * @end: the emulated cycle it ended.
 *
 * Charges the block's share of the SM to its file and emits
 * gputbs:block_end.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_obs_block_end(struct gputbs_device *gdev, struct gtbs_sm *sm,
			  struct gputbs_grid *grid, u32 slot, u32 block,
			  u64 start, u64 end)
{
	struct gputbs_obs_sm *o = &gdev->obs.sms[sm->id];
	struct gputbs_client_stats *st = &grid->client->stats;

	lockdep_assert_held(&gdev->lock);
	/* the block has already left nr_resident */
	gputbs_share_advance(o, end, sm->nr_resident + 1);
	gputbs_client_charge(st, o->share_clock - o->slot_share[slot]);
	st->blocks_completed++;
	trace_block_end(grid, sm->id, slot, block, start, end);
}

/*
 * @grid (an SM's &gputbs_obs_sm.cur) if it still has blocks to issue,
 * else NULL.  O(1): a grid is on &gtbs_dev.pending exactly while its
 * pending_node is linked (the core unlinks it with list_del_init()); a
 * search of the pending list by id cost O(pending grids) at every pick,
 * milliseconds per event once thousands of grids queue (issue 28's
 * fan-out).  Lock held.
 */
static struct gtbs_grid *gputbs_obs_pending(struct gtbs_dev *core,
					    struct gtbs_grid *grid)
{
	gtbs_lockdep_assert_held(core);
	return grid && !list_empty(&grid->pending_node) ? grid : NULL;
}

/**
 * gputbs_obs_block_preempt() - &gtbs_backend_ops.block_preempt of the module
 * @core: the core's device.
 * @sm: the SM.
 * @grid: the block's grid.
 * @slot: its slot on @sm.
 * @block: its index in @grid.
 * @mech: &enum gtbs_preempt_mech, switch or flush.
 * @cycles: the save's cycles (0 for a flush).
 *
 * Charges the block's share of the SM up to now to its file (the run that
 * ends here; a restore and the run after it are charged at the block's
 * end, a save is not charged as SM time) with the preemption and the
 * save's @cycles, marks the preemption-latency wait of the grid the SM
 * preempts for (the grid its policy picked, &gputbs_obs_sm.cur) with
 * @mech, and emits gputbs:block_preempt.
 *
 * Context: &gputbs_device.lock held, inside the SM's dispatch, after
 * gputbs_obs_pick() reported the grid the SM makes room for.
 */
void gputbs_obs_block_preempt(struct gtbs_dev *core, struct gtbs_sm *sm,
			      struct gtbs_grid *grid, u32 slot, u32 block,
			      u32 mech, u64 cycles)
{
	struct gputbs_device *gdev = core->priv;
	struct gputbs_obs_sm *o = &gdev->obs.sms[sm->id];
	struct gputbs_grid *mgrid = grid->priv;
	struct gputbs_client_stats *st = &mgrid->client->stats;
	struct gputbs_grid *mby;
	struct gtbs_grid *by;

	gtbs_lockdep_assert_held(core);
	/* the block still holds its slot: nr_resident counts it */
	gputbs_share_advance(o, sm->now, sm->nr_resident);
	gputbs_client_charge(st, o->share_clock - o->slot_share[slot]);
	o->slot_share[slot] = o->share_clock;
	st->blocks_preempted++;
	if (mech == GTBS_MECH_SWITCH)
		st->save_cycles += cycles;
	by = gputbs_obs_pending(core, o->cur);
	mby = by ? by->priv : NULL;
	if (mby && mby->lat_pending) {
		const struct gtbs_grid_sm *gs = gtbs_grid_sm(by, sm->id);

		/* a wait no gputbs:preempt started (nothing left to issue) */
		if ((!gs || (!gs->resident && !gs->pred.done_blocks)) &&
		    !test_and_set_bit(sm->id, mby->lat_pending))
			mby->lat_mech[sm->id] = GTBS_MECH_DRAIN;
		if (test_bit(sm->id, mby->lat_pending) &&
		    gputbs_mech_rank(mech) >
		    gputbs_mech_rank(mby->lat_mech[sm->id]))
			mby->lat_mech[sm->id] = mech;
	}
	trace_block_preempt(mgrid, sm->id, slot, block, mech, cycles, sm->now);
}

/**
 * gputbs_obs_predict() - &gtbs_backend_ops.predict of the module
 * @core: the core's device.
 * @sm: the SM that predicted.
 * @grid: the grid it predicted.
 *
 * Emits gputbs:predict with the SM's predictor state.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_obs_predict(struct gtbs_dev *core, struct gtbs_sm *sm,
			struct gtbs_grid *grid)
{
	gtbs_lockdep_assert_held(core);
	trace_predict(grid->priv, sm->id, &gtbs_grid_sm(grid, sm->id)->pred,
		      sm->now);
}

/*
 * Why @sm stops issuing @from for @to (see the DOC): the classes, which
 * are the engine's, else the reason the policy gave (@pick, &enum
 * gtbs_pick_reason).  Lock held.
 */
static u32 gputbs_obs_reason(const struct gtbs_dev *core,
			     const struct gtbs_sm *sm,
			     const struct gtbs_grid *from,
			     const struct gtbs_grid *to, u32 pick,
			     u32 *from_class, u32 *to_class)
{
	static const u8 reasons[GTBS_NR_PICK_REASONS] = {
		[GTBS_PICK_POLICY] = GPUTBS_PREEMPT_POLICY,
		[GTBS_PICK_SHORTER] = GPUTBS_PREEMPT_SHORTER,
		[GTBS_PICK_SAMPLE] = GPUTBS_PREEMPT_SAMPLE,
		[GTBS_PICK_SHARE] = GPUTBS_PREEMPT_SHARE,
		[GTBS_PICK_LIMIT] = GPUTBS_PREEMPT_LIMIT,
	};

	*from_class = gtbs_grid_class(core, from, sm->now);
	*to_class = gtbs_grid_class(core, to, sm->now);
	/* promoted to @from's class or above: eligible only thanks to that */
	if (*to_class > to->desc.prio_class && *to_class >= *from_class)
		return GPUTBS_PREEMPT_STARVE;
	if (*to_class > *from_class)
		return GPUTBS_PREEMPT_CLASS;
	return pick < GTBS_NR_PICK_REASONS ? reasons[pick] :
					     GPUTBS_PREEMPT_POLICY;
}

/**
 * gputbs_obs_pick() - &gtbs_backend_ops.pick of the module
 * @core: the core's device.
 * @sm: the SM at a block boundary.
 * @grid: the grid its policy picked, or NULL.
 * @pick: the policy's reason, &enum gtbs_pick_reason.
 *
 * Emits gputbs:sharing_mode when the SM's SRTF/Adaptive mode changed, and
 * gputbs:preempt when the SM stops issuing the grid it picked before,
 * which still has blocks to issue; counts preemptions and starts their
 * latency measurement (see the DOC).
 *
 * Context: &gputbs_device.lock held, inside the core's dispatch.
 */
void gputbs_obs_pick(struct gtbs_dev *core, struct gtbs_sm *sm,
		     struct gtbs_grid *grid, u32 pick)
{
	struct gputbs_device *gdev = core->priv;
	struct gputbs_obs_sm *o = &gdev->obs.sms[sm->id];
	bool sharing = gtbs_sm_sharing(core, sm);
	struct gputbs_grid *mgrid;
	struct gtbs_grid *from;
	u32 reason, fc, tc;

	gtbs_lockdep_assert_held(core);
	if (sharing != o->sharing) {
		o->sharing = sharing;
		trace_sharing_mode(sm->id, sm->now, sharing);
	}
	if (!grid || grid == o->cur)
		return;
	from = gputbs_obs_pending(core, o->cur);
	o->cur = grid;
	if (!from)
		return;
	reason = gputbs_obs_reason(core, sm, from, grid, pick, &fc, &tc);
	gdev->obs.switches[reason]++;
	if (reason <= GPUTBS_PREEMPT_SHORTER) {
		const struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);

		gdev->obs.preemptions++;
		mgrid = grid->priv;
		/* the latency to its first block here, if none ran yet */
		if (mgrid->lat_pending &&
		    (!gs || (!gs->resident && !gs->pred.done_blocks)) &&
		    !test_and_set_bit(sm->id, mgrid->lat_pending))
			mgrid->lat_mech[sm->id] = GTBS_MECH_DRAIN;
	}
	trace_preempt(sm->id, sm->now, from->priv, fc, grid->priv, tc, reason);
	if (reason <= GPUTBS_PREEMPT_SHORTER)
		gputbs_nl_grid_preempted(gdev, sm, from->priv, grid->priv,
					 reason);
}

/**
 * gputbs_obs_policy_switched() - the device's policy was set
 * @gdev: the device.
 * @old: the policy before gtbs_dev_set_policy().
 * @now: the emulated cycle of the switch.
 *
 * Emits gputbs:policy_switch if the policy changed, and
 * gputbs:sharing_mode for every SM whose sharing mode the new policy's
 * attach reset.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_obs_policy_switched(struct gputbs_device *gdev,
				const struct gtbs_policy_ops *old, u64 now)
{
	u32 i;

	lockdep_assert_held(&gdev->lock);
	if (gdev->core.policy == old)
		return;
	trace_policy_switch(old->name, gdev->core.policy->name, now);
	gputbs_nl_policy_changed(gdev, old, now);
	for (i = 0; i < gdev->core.cfg.nr_sms; i++) {
		struct gputbs_obs_sm *o = &gdev->obs.sms[i];

		bool sharing = gtbs_sm_sharing(&gdev->core, gdev->sms[i]);

		if (sharing == o->sharing)
			continue;
		o->sharing = sharing;
		trace_sharing_mode(i, now, o->sharing);
	}
}
