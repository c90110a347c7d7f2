// SPDX-License-Identifier: GPL-2.0
/*
 * policy_srtf_oracle.c - SRTF with oracle runtimes (zero-sampling SRTF): an
 * evaluation baseline.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: SRTF oracle policy
 *
 * SRTF given oracle runtimes: the paper's *zero-sampling* experiment
 * (Section "System Throughput": "we provided the runtimes to the SRTF
 * scheduler directly as in SJF", which "improved STP by 3% to 1.64 and
 * ANTT by 22% to 1.33" over the 56 ERCBench pairs).  It is the yardstick for
 * SRTF's predictor, not a policy to deploy: it reads each grid's alone
 * runtime from the work model the grid was submitted with
 * (&gtbs_grid.alone_cycles, Equation 1 of the staircase model, or the
 * measured alone runtime when the owner knows it), which no real GPU
 * driver could know.  Until 2026-11 it was called ``sjf``; ``sjf`` is now
 * the paper's clairvoyant serial SJF (policy_sjf.c).
 *
 * Every SM issues from the grid with the shortest alone runtime among the
 * grids that may issue (gtbs_grid_eligible()); ties go to the earlier
 * arrival.  If that grid's next block does not fit, the SM waits for
 * resident blocks to end (as SRTF's hand-off does); running blocks are
 * never interrupted.  The key does not change as a grid runs: a grid that
 * started first keeps its place only if it is shorter in total.
 *
 * Since the key is fixed at arrival, the grids are kept sorted by it on
 * &gtbs_dev.policy_grids (insertion at arrival, O(grids)), and a pick is
 * the first eligible grid there: O(1) when one class has blocks to issue,
 * instead of a scan of every pending grid on every block issue.
 */
#include "gtbs.h"

/* Insert @grid after every grid with a key <= its own (arrival order). */
static void gtbs_srtf_oracle_insert(struct gtbs_dev *dev,
				    struct gtbs_grid *grid)
{
	struct gtbs_grid *pos;

	list_for_each_entry_reverse(pos, &dev->policy_grids, policy_node)
		if (pos->alone_cycles <= grid->alone_cycles)
			break;
	list_add(&grid->policy_node, &pos->policy_node);
}

static void gtbs_srtf_oracle_attach(struct gtbs_dev *dev)
{
	struct gtbs_grid *grid;

	/* &gtbs_dev.grids is in arrival order, so ties stay in it */
	list_for_each_entry(grid, &dev->grids, node)
		gtbs_srtf_oracle_insert(dev, grid);
}

/* Replaced: the order on &gtbs_dev.policy_grids is dropped. */
static void gtbs_srtf_oracle_detach(struct gtbs_dev *dev)
{
	while (!list_empty(&dev->policy_grids))
		list_del_init(dev->policy_grids.next);
}

static void gtbs_srtf_oracle_grid_arrive(struct gtbs_dev *dev,
					 struct gtbs_grid *grid)
{
	gtbs_srtf_oracle_insert(dev, grid);
}

/* The shortest eligible grid, the earliest arrival among equals. */
static struct gtbs_grid *gtbs_srtf_oracle_pick_grid(struct gtbs_dev *dev,
						    struct gtbs_sm *sm)
{
	struct gtbs_grid *grid;

	list_for_each_entry(grid, &dev->policy_grids, policy_node)
		if (gtbs_grid_eligible(dev, grid))
			return grid;
	return NULL;
}

/* SRTF oracle policy ops (an evaluation baseline, see DOC above). */
const struct gtbs_policy_ops gtbs_policy_srtf_oracle = {
	.name = "srtf-oracle",
	.pick_grid = gtbs_srtf_oracle_pick_grid,
	.attach = gtbs_srtf_oracle_attach,
	.detach = gtbs_srtf_oracle_detach,
	.grid_arrive = gtbs_srtf_oracle_grid_arrive,
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_srtf_oracle);
