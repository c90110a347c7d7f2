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
 * the policy's own list (&struct gtbs_srtf_oracle; insertion at arrival,
 * O(grids)), and a pick is the first eligible grid there: O(1) when one
 * class has blocks to issue, instead of a scan of every pending grid on
 * every block issue.
 *
 * With preemption (the device's preempt_mode is not drain), the grid
 * picked for an SM preempts there the running blocks of grids of its
 * class with a strictly longer alone runtime
 * (&gtbs_policy_ops.may_preempt): the key is fixed, so no two grids
 * preempt each other.  It is the zero-sampling SRTF of the paper given
 * the preemption it asked for.
 */
#include "gtbs.h"

/**
 * struct gtbs_srtf_oracle - srtf-oracle's device state
 * @grids: the arrived grids by &gtbs_grid.alone_cycles, then arrival,
 *	linked by &gtbs_srtf_oracle_grid.node.
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct gtbs_srtf_oracle {
	struct list_head grids;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf_oracle, GTBS_POLICY_DEV_PRIV_SIZE);

/**
 * struct gtbs_srtf_oracle_grid - srtf-oracle's state of a grid
 * @node: link in &gtbs_srtf_oracle.grids from arrival to grid_end.
 *
 * In &gtbs_grid.policy_priv; protected by the device lock.
 */
struct gtbs_srtf_oracle_grid {
	struct list_head node;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf_oracle_grid,
		       GTBS_POLICY_GRID_PRIV_SIZE);

static struct gtbs_srtf_oracle_grid *gtbs_og(struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

/* Insert @grid after every grid with a key <= its own (arrival order). */
static void gtbs_srtf_oracle_insert(struct gtbs_dev *dev,
				    struct gtbs_grid *grid)
{
	struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	struct list_head *pos;

	for (pos = so->grids.prev; pos != &so->grids; pos = pos->prev) {
		/* @node is the first member: @pos starts the private area */
		struct gtbs_grid *g = gtbs_priv_to_grid(pos);

		if (g->alone_cycles <= grid->alone_cycles)
			break;
	}
	list_add(&gtbs_og(grid)->node, pos);
}

static void gtbs_srtf_oracle_attach(struct gtbs_dev *dev)
{
	struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	struct gtbs_grid *grid;

	INIT_LIST_HEAD(&so->grids);
	/* &gtbs_dev.grids is in arrival order, so ties stay in it */
	list_for_each_entry(grid, &dev->grids, node)
		gtbs_srtf_oracle_insert(dev, grid);
}

static void gtbs_srtf_oracle_grid_arrive(struct gtbs_dev *dev,
					 struct gtbs_grid *grid)
{
	gtbs_srtf_oracle_insert(dev, grid);
}

static void gtbs_srtf_oracle_grid_end(struct gtbs_dev *dev,
				      struct gtbs_grid *grid)
{
	list_del(&gtbs_og(grid)->node);
}

/* The shortest eligible grid, the earliest arrival among equals. */
static struct gtbs_grid *gtbs_srtf_oracle_pick_grid(struct gtbs_dev *dev,
						    struct gtbs_sm *sm,
						    u32 *reason)
{
	struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	struct list_head *pos;

	*reason = GTBS_PICK_SHORTER;
	list_for_each(pos, &so->grids) {
		struct gtbs_grid *grid = gtbs_priv_to_grid(pos);

		if (gtbs_grid_eligible(dev, grid))
			return grid;
	}
	return NULL;
}

/* &gtbs_policy_ops.may_preempt: a strictly longer victim (see the DOC). */
static bool gtbs_srtf_oracle_may_preempt(const struct gtbs_dev *dev,
					 const struct gtbs_sm *sm,
					 const struct gtbs_grid *grid,
					 const struct gtbs_grid *victim)
{
	return victim->alone_cycles > grid->alone_cycles;
}

/* SRTF oracle policy ops (an evaluation baseline, see DOC above). */
const struct gtbs_policy_ops gtbs_policy_srtf_oracle = {
	.name = "srtf-oracle",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_srtf_oracle_pick_grid,
	.attach = gtbs_srtf_oracle_attach,
	.grid_arrive = gtbs_srtf_oracle_grid_arrive,
	.grid_end = gtbs_srtf_oracle_grid_end,
	.may_preempt = gtbs_srtf_oracle_may_preempt,
	.dev_priv_size = sizeof(struct gtbs_srtf_oracle),
	.grid_priv_size = sizeof(struct gtbs_srtf_oracle_grid),
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_srtf_oracle);
