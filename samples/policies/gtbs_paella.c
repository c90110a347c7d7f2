// SPDX-License-Identifier: GPL-2.0
/*
 * gtbs_paella.c - sample policy: shortest remaining processing time with a
 * deficit threshold for fairness, in the style of Paella.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: paella, an SRPT sample policy with a fairness threshold
 *
 * Source: Ng, Demoulin, Liu, "Paella: Low-latency Model Serving with
 * Software-defined GPU Scheduling", SOSP 2023.  Paella bypasses the GPU's
 * hardware scheduler and dispatches kernels in software, with remaining
 * runtimes known from profiling; its policy serves the job with the
 * shortest remaining processing time (SRPT), which minimises mean
 * latency, and bounds the unfairness of SRPT to long jobs with a deficit
 * threshold: a job that has waited longer than the threshold is served
 * first.  This sample applies that structure to thread blocks; the
 * bookkeeping below is ours, not Paella's.  Not in the paper that gputbs
 * implements (whose SRTF, policy_srtf.c, predicts by sampling instead).
 *
 * Remaining processing time of a grid, cycles, by parameter ``estimate``:
 *
 * - ``profile`` (the default, Paella's profiled runtimes): the grid's
 *   alone runtime, &gtbs_grid.alone_cycles (Equation 1 of its work model,
 *   or what the owner measured), times the share of its blocks that have
 *   not ended: alone_cycles (nr_blocks - blocks_done) / nr_blocks.
 * - ``predict``: the Simple Slicing predictor's remaining runtime of the
 *   grid on the SM that picks, gtbs_pred_remaining() of &gtbs_grid_sm.pred
 *   (Equation 2 less the active cycles so far), once the SM has a
 *   prediction; the profile until then.
 *
 * Deficit of a grid with unissued blocks, cycles: how long it has waited
 * for a block, the current cycle less &gtbs_grid.last_issue_cycle (the
 * cycle of its latest block issue, or its arrival), which the engine
 * keeps for its starvation guard.  Serving a grid (issuing one of its
 * blocks) pays its deficit back to 0.
 *
 * Pick, on an SM at cycle T, among the eligible grids (gtbs_grid_eligible()):
 * if some have a deficit above parameter ``deficit_threshold_cycles``
 * (D; 0 turns the guard off), the one with the largest deficit, reason
 * %GTBS_PICK_POLICY; else the one with the least remaining processing
 * time, reason %GTBS_PICK_SHORTER.  Ties go to the earlier arrival.  If
 * the chosen grid's next block does not fit on the SM, the SM waits for
 * its resident blocks to end (as srtf's hand-off): a long grid that
 * reaches D gets a block at the next block end, and then waits D again,
 * so every grid is issued a block at least about every D cycles while it
 * competes, and SRPT orders the rest.  Running blocks are never
 * interrupted.
 *
 * State: a list of the arrived grids in arrival order (linked at arrival
 * or attach, unlinked at grid_end); everything else is read from the core
 * at each pick.  Cost: O(grids) per pick.
 */
#include "gtbs_policy_module.h"

/**
 * enum paella_estimate - how paella estimates remaining processing time
 * @PAELLA_PROFILE: from the grid's alone runtime and its blocks left.
 * @PAELLA_PREDICT: the Simple Slicing predictor's, on the SM that picks.
 * @PAELLA_NR_ESTIMATES: number of estimates.
 */
enum paella_estimate {
	PAELLA_PROFILE,
	PAELLA_PREDICT,
	PAELLA_NR_ESTIMATES,
};

/**
 * struct paella_dev - paella's device state
 * @grids: the arrived grids in arrival order, linked by
 *	&paella_grid.node.
 * @threshold: parameter deficit_threshold_cycles, cycles (0: off).
 * @estimate: parameter estimate, an &enum paella_estimate.
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct paella_dev {
	struct list_head grids;
	u64 threshold;
	u64 estimate;
};

GTBS_POLICY_PRIV_CHECK(struct paella_dev, GTBS_POLICY_DEV_PRIV_SIZE);

/**
 * struct paella_grid - paella's state of a grid
 * @node: link in &paella_dev.grids from arrival (or attach) to grid_end;
 *	the first member, for gtbs_priv_to_grid().
 *
 * In &gtbs_grid.policy_priv; protected by the device lock.
 */
struct paella_grid {
	struct list_head node;
};

GTBS_POLICY_PRIV_CHECK(struct paella_grid, GTBS_POLICY_GRID_PRIV_SIZE);

static struct paella_dev *paella_of_dev(const struct gtbs_dev *dev)
{
	return gtbs_policy_priv(dev);
}

static struct paella_grid *paella_of_grid(const struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

/* Remaining processing time of @grid as seen from @sm, cycles. */
static u64 paella_remaining(const struct gtbs_dev *dev,
			    const struct gtbs_sm *sm,
			    const struct gtbs_grid *grid)
{
	u32 left = grid->desc.nr_blocks - grid->blocks_done;
	u64 pred;

	if (paella_of_dev(dev)->estimate == PAELLA_PREDICT) {
		const struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);

		/* no state where the grid never ran: no prediction there */
		pred = gs ? gtbs_pred_remaining(&gs->pred, sm->now) : U64_MAX;
		if (pred != U64_MAX)
			return pred;
	}
	return mul_u64_u64_div_u64(grid->alone_cycles, left,
				   grid->desc.nr_blocks);
}

/* How long @grid has waited for a block at @now, cycles. */
static u64 paella_deficit(const struct gtbs_grid *grid, u64 now)
{
	return now > grid->last_issue_cycle ? now - grid->last_issue_cycle :
	       0;
}

static void paella_attach(struct gtbs_dev *dev)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct gtbs_grid *grid;

	INIT_LIST_HEAD(&pd->grids);
	list_for_each_entry(grid, &dev->grids, node)
		list_add_tail(&paella_of_grid(grid)->node, &pd->grids);
}

static void paella_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	list_add_tail(&paella_of_grid(grid)->node, &paella_of_dev(dev)->grids);
}

static void paella_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	list_del(&paella_of_grid(grid)->node);
}

static struct gtbs_grid *paella_pick_grid(struct gtbs_dev *dev,
					  struct gtbs_sm *sm, u32 *reason)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct gtbs_grid *shortest = NULL, *starved = NULL;
	u64 best_rem = 0, best_deficit = 0;
	struct paella_grid *pg;

	list_for_each_entry(pg, &pd->grids, node) {
		struct gtbs_grid *grid = gtbs_priv_to_grid(pg);
		u64 rem, deficit;

		if (!gtbs_grid_eligible(dev, grid))
			continue;
		deficit = paella_deficit(grid, sm->now);
		/* strictly greater or less: the earlier arrival wins ties */
		if (pd->threshold && deficit > pd->threshold &&
		    (!starved || deficit > best_deficit)) {
			starved = grid;
			best_deficit = deficit;
		}
		rem = paella_remaining(dev, sm, grid);
		if (!shortest || rem < best_rem) {
			shortest = grid;
			best_rem = rem;
		}
	}
	if (starved) {
		*reason = GTBS_PICK_POLICY;
		return starved;
	}
	*reason = GTBS_PICK_SHORTER;
	return shortest;
}

/* debugfs: whether the grid is past the deficit threshold now. */
static const char *paella_grid_state(const struct gtbs_dev *dev,
				     const struct gtbs_grid *grid)
{
	const struct paella_dev *pd = paella_of_dev(dev);

	if (grid->next_block >= grid->desc.nr_blocks)
		return "issued";
	if (pd->threshold &&
	    paella_deficit(grid, dev->clock) > pd->threshold)
		return "starved";
	return "srpt";
}

/* The value names of parameter estimate, &enum paella_estimate. */
static const char * const paella_estimate_names[] = {
	[PAELLA_PROFILE] = "profile",
	[PAELLA_PREDICT] = "predict",
	NULL,
};

/* paella's tunables. */
static const struct gtbs_policy_param paella_params[] = {
	{
		.name = "deficit_threshold_cycles",
		.unit = "cycles",
		.doc = "a grid waiting longer for a block is served first (0: SRPT)",
		.min = 0,
		.max = GTBS_MAX_TIMEOUT_CYCLES,
		.def = 1000000,
		.offset = offsetof(struct paella_dev, threshold),
	},
	{
		.name = "estimate",
		.unit = "",
		.doc = "profile: alone runtime x blocks left; predict: Simple Slicing",
		.min = 0,
		.max = PAELLA_NR_ESTIMATES - 1,
		.def = PAELLA_PROFILE,
		.names = paella_estimate_names,
		.offset = offsetof(struct paella_dev, estimate),
	},
};

static const struct gtbs_policy_ops paella_ops = {
	.name = "paella",
	.owner = THIS_MODULE,
	.pick_grid = paella_pick_grid,
	.attach = paella_attach,
	.grid_arrive = paella_grid_arrive,
	.grid_end = paella_grid_end,
	.grid_state = paella_grid_state,
	.dev_priv_size = sizeof(struct paella_dev),
	.grid_priv_size = sizeof(struct paella_grid),
	.params = paella_params,
	.nr_params = ARRAY_SIZE(paella_params),
};

GTBS_POLICY_MODULE(paella_ops,
		   "gputbs sample policy: SRPT with a deficit threshold (Paella, SOSP 2023)");
