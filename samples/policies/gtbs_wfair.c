// SPDX-License-Identifier: GPL-2.0
/*
 * gtbs_wfair.c - sample policy: weighted fair sharing by virtual SM time,
 * in the style of CFS and the DRM scheduler's fair policy.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: wfair, a weighted-fair sample policy
 *
 * Sources: the Completely Fair Scheduler (kernel/sched/fair.c: a task's
 * vruntime grows by the CPU time it ran scaled by NICE_0_LOAD / its
 * weight, the task with the least vruntime runs next, a task that wakes
 * up is placed at the run queue's min_vruntime) and the DRM scheduler's
 * fair policy (Tvrtko Ursulin, "drm/sched: Add fair scheduling policy",
 * drivers/gpu/drm/scheduler/, 2026: the entity run queue is sorted by the
 * virtual GPU time its entities consumed, least first, with the GPU time
 * scaled more the lower the entity's priority).  Not in the paper that
 * gputbs implements.
 *
 * The entity is the grid: the core has no per-process key a policy could
 * use (&gtbs_grid.priv is the owner's), so two grids of one process
 * compete as two entities.
 *
 * Virtual time.  Each grid has a virtual SM time (vruntime), in 1/1024
 * SM-cycles scaled by 1024 / the weight of its priority class
 * (&gtbs_grid_desc.prio_class; parameters weight_low, weight_normal,
 * weight_high and weight_realtime, defaults those of nice 5, 0, -5 and
 * -10 in CFS's sched_prio_to_weight[]).  A block of a grid of maximum
 * residency R holds 1/R of an SM by the resource that limits R (its
 * dominant share), so a grid with n blocks resident for d cycles consumed
 * d n / R SM-cycles.
 *
 * The approximation.  The policy API has no block-start or block-end op,
 * so consumption is sampled, not measured block by block: at every
 * pick_grid and every grid_arrive, at cycle T, each grid on the policy's
 * list is charged (T - T_last) n / R, with T_last the previous sample and
 * n = &gtbs_grid.resident + the blocks that ended since T_last (the
 * growth of &gtbs_grid.blocks_done); T_last becomes T.  n is the number
 * of blocks the grid held between T_last and T if its residency changed
 * only at T_last (blocks issued after the picks there) and at T (blocks
 * that ended there, before this sample).  That holds while grids compete,
 * which is when their vruntime decides anything: the engine issues
 * blocks only right after a pick, at the pick's cycle, and it fills an SM
 * (calls pick_grid) at every block end while any grid has unissued
 * blocks, so no block starts or ends between two samples.  Then the
 * charge is exact, in cycles, with no rounding but the 1/1024 unit.
 * Otherwise the error is confined to grids with no unissued block left
 * (a block that ended while no grid had one is charged up to the next
 * sample; such grids are never picked again) and to the blocks of a grid
 * removed by a job timeout or a cancellation (the grid leaves).  A sample
 * at a cycle before T_last (an SM run late) charges nothing; the next
 * one charges the whole interval.  A block is charged while it runs,
 * from its start, not when it ends as in the DRM scheduler (which learns
 * a job's GPU time when its fence signals), so a grid is not overtaken
 * by one whose long blocks have not ended yet.
 *
 * Picking.  An SM issues from the eligible grid (gtbs_grid_eligible())
 * with the least vruntime, the earlier arrival among equals.  Since one
 * fill of an SM picks several blocks at one cycle, at which nothing is
 * charged yet, the least-vruntime grid fills the free slots and the
 * others catch up at the next block ends: over time the grids' SM shares
 * follow their weights.  With min_granularity_cycles G > 0 (CFS's
 * minimum granularity, in the unit of vruntime divided by 1024, that is
 * weighted SM-cycles), an SM keeps issuing from the grid it issued last
 * while that grid's vruntime is within G of the least: fewer switches,
 * longer exclusive runs on each SM.
 *
 * Placement.  A grid that arrives gets the device's min_vruntime, the
 * largest least vruntime of the grids with unissued blocks seen so far
 * (CFS's place_entity() without its lag), so that a newcomer neither
 * monopolises the device until it catches up with grids that ran for
 * long nor waits for them.  At a policy switch (attach) every grid starts
 * at 0.
 *
 * Priority classes stay strict (the engine's): weights matter between
 * grids that compete in one class, which are of one weight unless the
 * starvation guard promoted a grid of a lower class.
 *
 * Cost: O(grids) per pick and per arrival (a scan of the policy's list);
 * fine for a sample, where the built-in srtf-oracle keeps a sorted list.
 */
#include "gtbs_policy_module.h"

/* 1024: CFS's NICE_0_LOAD, the weight whose vruntime is SM time. */
#define WFAIR_WEIGHT_UNIT	1024ULL

/**
 * struct wfair_dev - wfair's device state
 * @grids: every arrived grid (&gtbs_dev.grids), in arrival order, linked
 *	by &wfair_grid.node.
 * @last_cycle: the cycle of the latest sample (T_last in the DOC above).
 * @min_vruntime: the placement of a newcomer: never decreases.
 * @weight: parameters weight_low..weight_realtime: weight of each
 *	&enum gtbs_prio_class, 1..2^20.
 * @granularity: parameter min_granularity_cycles, weighted SM-cycles.
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct wfair_dev {
	struct list_head grids;
	u64 last_cycle;
	u64 min_vruntime;
	u64 weight[GTBS_NR_PRIO_CLASSES];
	u64 granularity;
};

GTBS_POLICY_PRIV_CHECK(struct wfair_dev, GTBS_POLICY_DEV_PRIV_SIZE);

/**
 * struct wfair_sm - wfair's state of an SM
 * @last_id: &gtbs_grid.id of the grid the SM issued last, plus 1 (0:
 *	none); an id, not a pointer, so that nothing dangles when it ends.
 *
 * In &gtbs_sm.policy_priv; protected by the device lock.
 */
struct wfair_sm {
	u64 last_id;
};

GTBS_POLICY_PRIV_CHECK(struct wfair_sm, GTBS_POLICY_SM_PRIV_SIZE);

/**
 * struct wfair_grid - wfair's state of a grid
 * @node: link in &wfair_dev.grids from arrival (or attach) to grid_end;
 *	the first member, so that gtbs_priv_to_grid() finds the grid.
 * @vruntime: virtual SM time, 1/1024 weighted SM-cycles.
 * @done: &gtbs_grid.blocks_done at the latest sample.
 *
 * In &gtbs_grid.policy_priv; protected by the device lock.
 */
struct wfair_grid {
	struct list_head node;
	u64 vruntime;
	u32 done;
};

GTBS_POLICY_PRIV_CHECK(struct wfair_grid, GTBS_POLICY_GRID_PRIV_SIZE);

static struct wfair_dev *wfair_of_dev(const struct gtbs_dev *dev)
{
	return gtbs_policy_priv(dev);
}

static struct wfair_grid *wfair_of_grid(const struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

/*
 * Charge every grid for the blocks it held since the last sample: those
 * resident now and those that ended since (see the DOC above).
 */
static void wfair_sample(struct gtbs_dev *dev, u64 now)
{
	struct wfair_dev *wd = wfair_of_dev(dev);
	struct wfair_grid *wg;
	u64 delta = 0, used;

	if (now > wd->last_cycle) {
		delta = now - wd->last_cycle;
		wd->last_cycle = now;
	}
	list_for_each_entry(wg, &wd->grids, node) {
		struct gtbs_grid *grid = gtbs_priv_to_grid(wg);
		u32 held = grid->resident + (grid->blocks_done - wg->done);

		wg->done = grid->blocks_done;
		if (!delta || !held)
			continue;
		/* dominant-share SM-cycles, 1/1024 units */
		used = mul_u64_u64_div_u64(delta, (u64)held * WFAIR_WEIGHT_UNIT,
					   grid->occ.residency);
		used = mul_u64_u64_div_u64(used, WFAIR_WEIGHT_UNIT,
					   wd->weight[grid->desc.prio_class]);
		wg->vruntime = used > U64_MAX - wg->vruntime ? U64_MAX :
			       wg->vruntime + used;
	}
}

static void wfair_attach(struct gtbs_dev *dev)
{
	struct wfair_dev *wd = wfair_of_dev(dev);
	struct gtbs_grid *grid;

	/* private areas are zero: every vruntime 0, min_vruntime 0 */
	INIT_LIST_HEAD(&wd->grids);
	wd->last_cycle = dev->clock;
	list_for_each_entry(grid, &dev->grids, node) {
		wfair_of_grid(grid)->done = grid->blocks_done;
		list_add_tail(&wfair_of_grid(grid)->node, &wd->grids);
	}
}

static void wfair_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct wfair_dev *wd = wfair_of_dev(dev);

	wfair_sample(dev, grid->submit_cycle);
	wfair_of_grid(grid)->vruntime = wd->min_vruntime;
	wfair_of_grid(grid)->done = grid->blocks_done;
	list_add_tail(&wfair_of_grid(grid)->node, &wd->grids);
}

static void wfair_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	list_del(&wfair_of_grid(grid)->node);
}

static struct gtbs_grid *wfair_pick_grid(struct gtbs_dev *dev,
					 struct gtbs_sm *sm, u32 *reason)
{
	struct wfair_sm *ws = gtbs_policy_priv(sm);
	struct wfair_dev *wd = wfair_of_dev(dev);
	struct gtbs_grid *best = NULL, *last = NULL;
	struct wfair_grid *wg;
	u64 least;

	wfair_sample(dev, sm->now);
	list_for_each_entry(wg, &wd->grids, node) {
		struct gtbs_grid *grid = gtbs_priv_to_grid(wg);

		if (!gtbs_grid_eligible(dev, grid))
			continue;
		if (grid->id + 1 == ws->last_id)
			last = grid;
		/* strictly less: the earlier arrival wins a tie */
		if (!best || wg->vruntime < wfair_of_grid(best)->vruntime)
			best = grid;
	}
	*reason = GTBS_PICK_POLICY;
	if (!best)
		return NULL;
	least = wfair_of_grid(best)->vruntime;
	if (least > wd->min_vruntime)
		wd->min_vruntime = least;
	/* CFS's granularity: stay with the last grid if not far ahead */
	if (last && wfair_of_grid(last)->vruntime - least <=
		    wd->granularity * WFAIR_WEIGHT_UNIT)
		best = last;
	ws->last_id = best->id + 1;
	return best;
}

/* wfair_params[]: the weights by class, then the granularity. */
#define WFAIR_GRANULARITY	GTBS_NR_PRIO_CLASSES

/* The largest weight, 2^20. */
#define WFAIR_MAX_WEIGHT	BIT_ULL(20)

/* wfair's tunables: the weights of CFS's nice 5, 0, -5, -10. */
static const struct gtbs_policy_param wfair_params[] = {
	[GTBS_PRIO_LOW] = {
		.name = "weight_low",
		.unit = "",
		.doc = "weight of low-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 335,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_LOW]),
	},
	[GTBS_PRIO_NORMAL] = {
		.name = "weight_normal",
		.unit = "",
		.doc = "weight of normal-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 1024,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_NORMAL]),
	},
	[GTBS_PRIO_HIGH] = {
		.name = "weight_high",
		.unit = "",
		.doc = "weight of high-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 3121,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_HIGH]),
	},
	[GTBS_PRIO_REALTIME] = {
		.name = "weight_realtime",
		.unit = "",
		.doc = "weight of realtime-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 9548,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_REALTIME]),
	},
	[WFAIR_GRANULARITY] = {
		.name = "min_granularity_cycles",
		.unit = "cycles",
		.doc = "an SM keeps its grid while this close to the least vruntime",
		.min = 0,
		.max = GTBS_MAX_BLOCK_CYCLES,
		.def = 0,
		.offset = offsetof(struct wfair_dev, granularity),
	},
};

static const struct gtbs_policy_ops wfair_ops = {
	.name = "wfair",
	.owner = THIS_MODULE,
	.pick_grid = wfair_pick_grid,
	.attach = wfair_attach,
	.grid_arrive = wfair_grid_arrive,
	.grid_end = wfair_grid_end,
	.dev_priv_size = sizeof(struct wfair_dev),
	.sm_priv_size = sizeof(struct wfair_sm),
	.grid_priv_size = sizeof(struct wfair_grid),
	.params = wfair_params,
	.nr_params = ARRAY_SIZE(wfair_params),
};

GTBS_POLICY_MODULE(wfair_ops,
		   "gputbs sample policy: weighted fair sharing by virtual SM time (CFS, DRM sched fair)");
