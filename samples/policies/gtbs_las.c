// SPDX-License-Identifier: GPL-2.0
/*
 * gtbs_las.c - sample policy: least attained service.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: las, a least attained service sample policy
 *
 * Least Attained Service (LAS, also foreground-background scheduling;
 * Rai, Urvoy-Keller, Biersack, "Analysis of LAS Scheduling for Job Size
 * Distributions with High Variance", SIGMETRICS 2003) serves the job that
 * has received the least service so far.  It needs no estimate of a job's
 * size, yet favours short jobs: a new job starts at zero and is served
 * before every job that has run, and a job falls behind the newcomers
 * only as it accumulates service.  This sample applies it to thread
 * blocks; it is not in the paper that gputbs implements.
 *
 * Attained service of a grid, in 1/%GTBS_SM_TIME_SCALE SM-cycles (the
 * unit of &gtbs_tenant.sm_time): the sum, over the grid's thread blocks
 * that have *ended*, of the block's running time, end - start as
 * &gtbs_policy_ops.block_end gives it (cycles; a block that was switched
 * out counts all of its runs, never its save and restore), times the
 * share of an SM the block held, %GTBS_SM_TIME_SCALE / R with R the
 * grid's maximum residency (&gtbs_occupancy.residency): a block of a grid
 * that fits 8 to an SM attains a quarter of what a block of a grid that
 * fits 2 attains in the same time.  With parameter ``service``
 * ``block_cycles`` the share is left out (every block counts its running
 * time alone).  The sum saturates at U64_MAX.  Blocks still running
 * count only once they end: the policy learns of service at block ends,
 * so its order changes only there, and a grid's key is exact without
 * reading the clock.  Service counts from the policy's attach: grids
 * present when the device switches to las start at zero.
 *
 * Pick, on an SM, among the eligible grids (gtbs_grid_eligible()): the
 * one with the least attained service, ties to the earlier arrival
 * (&gtbs_grid.id, the order of &gtbs_dev.grids); reason
 * %GTBS_PICK_POLICY.  If its next block does not fit, the SM waits for
 * its resident blocks to end.  Running blocks are never interrupted by
 * las itself (no &gtbs_policy_ops.may_preempt).
 *
 * Cost: the pick scans every grid on &gtbs_dev.grids, O(grids); a block
 * end is O(1).  wfair and paella show how to keep such keys in trees
 * instead.
 */
#include "gtbs_policy_module.h"

/**
 * enum las_service - what one ended block adds to its grid's service
 * @LAS_SM_TIME: running time x the SM share of a block, %GTBS_SM_TIME_SCALE
 *	/ R.
 * @LAS_BLOCK_CYCLES: running time alone, cycles.
 * @LAS_NR_SERVICES: number of measures.
 */
enum las_service {
	LAS_SM_TIME,
	LAS_BLOCK_CYCLES,
	LAS_NR_SERVICES,
};

/**
 * struct las_dev - las's device state
 * @service: parameter service, an &enum las_service.
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct las_dev {
	u64 service;
};

GTBS_POLICY_PRIV_CHECK(struct las_dev, GTBS_POLICY_DEV_PRIV_SIZE);

/**
 * struct las_grid - las's state of a grid
 * @service: attained service since the policy's attach (see the DOC).
 *
 * In &gtbs_grid.policy_priv, zero at the grid's init and at every policy
 * switch; protected by the device lock.
 */
struct las_grid {
	u64 service;
};

GTBS_POLICY_PRIV_CHECK(struct las_grid, GTBS_POLICY_GRID_PRIV_SIZE);

static struct las_grid *las_of_grid(const struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

/* &gtbs_policy_ops.block_end: a block of @grid ran from @start to @end. */
static void las_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u64 start, u64 end)
{
	const struct las_dev *ld = gtbs_policy_priv(dev);
	struct las_grid *lg = las_of_grid(grid);
	u64 add = end - start, sum;

	if (ld->service == LAS_SM_TIME) {
		/* R >= 1 for a grid that ran; 2^44 cycles x 10^6 < 2^64 */
		add = min(add, GTBS_MAX_BLOCK_CYCLES * 16) *
		      div_u64(GTBS_SM_TIME_SCALE, grid->occ.residency);
	}
	sum = lg->service + add;
	lg->service = sum < add ? U64_MAX : sum;
}

static struct gtbs_grid *las_pick_grid(struct gtbs_dev *dev,
				       struct gtbs_sm *sm, u32 *reason)
{
	struct gtbs_grid *grid, *best = NULL;
	u64 least = 0;

	list_for_each_entry(grid, &dev->grids, node) {
		u64 service;

		if (!gtbs_grid_eligible(dev, grid))
			continue;
		service = las_of_grid(grid)->service;
		/* strictly less: the earlier arrival wins ties */
		if (!best || service < least) {
			best = grid;
			least = service;
		}
	}
	*reason = GTBS_PICK_POLICY;
	return best;
}

/* debugfs: whether the grid has attained any service yet. */
static const char *las_grid_state(const struct gtbs_dev *dev,
				  const struct gtbs_grid *grid)
{
	return las_of_grid(grid)->service ? "served" : "new";
}

/* The value names of parameter service, &enum las_service. */
static const char * const las_service_names[] = {
	[LAS_SM_TIME] = "sm_time",
	[LAS_BLOCK_CYCLES] = "block_cycles",
	NULL,
};

/* las's tunables. */
static const struct gtbs_policy_param las_params[] = {
	{
		.name = "service",
		.unit = "",
		.doc = "sm_time: block cycles x SM share 1/R; block_cycles: cycles alone",
		.min = 0,
		.max = LAS_NR_SERVICES - 1,
		.def = LAS_SM_TIME,
		.names = las_service_names,
		.offset = offsetof(struct las_dev, service),
	},
};

static const struct gtbs_policy_ops las_ops = {
	.name = "las",
	.owner = THIS_MODULE,
	.pick_grid = las_pick_grid,
	.block_end = las_block_end,
	.grid_state = las_grid_state,
	.dev_priv_size = sizeof(struct las_dev),
	.grid_priv_size = sizeof(struct las_grid),
	.params = las_params,
	.nr_params = ARRAY_SIZE(las_params),
};

GTBS_POLICY_MODULE(las_ops,
		   "gputbs sample policy: least attained service (LAS, SIGMETRICS 2003)");
