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
 * Indexing.  A pick reads no more than a few grids: paella keeps the
 * grids with blocks to issue in two red-black trees (linux/rbtree.h), both
 * ordered first by priority class, highest first, so that the eligible
 * grids (those of &gtbs_dev.top_class) come first, and last by arrival
 * (&gtbs_grid.id), the scan's tie-break:
 *
 * - &paella_dev.by_wait by &gtbs_grid.last_issue_cycle, the oldest first:
 *   its first eligible grid is the one with the largest deficit.  The
 *   deficit of every grid grows by one a cycle, so the key is the cycle
 *   the wait started, not the wait: it changes only when the grid is
 *   issued a block (after paella picked it: the grid picked last is
 *   refiled at the next op, &paella_dev.picked) or one of its blocks is
 *   preempted (a key that grew: the pick's walk refiles a grid whose key
 *   is out of date and walks again).
 * - &paella_dev.by_remaining by the profiled remaining processing time:
 *   its first eligible grid is the shortest.  The key changes when one of
 *   the grid's blocks ends (&gtbs_policy_ops.grid_update with the SM).
 *
 * A grid joins the trees at arrival (or attach) and leaves them when it
 * has no block left to issue (&gtbs_policy_ops.grid_update without an
 * SM) or ends.  Cost: O(log grids) per pick, arrival, block end and
 * block issue.  Where a key changes with time in a way a tree cannot
 * follow, paella scans every grid, O(grids) per pick: with estimate
 * ``predict`` (each SM has its own prediction of each grid, falling while
 * the grid runs there) and with the device's starvation guard (classes
 * change with time).  Parameter ``pick`` ``scan`` always scans: the
 * reference the unit tests compare the trees with (identical schedules).
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
 * enum paella_pick - how paella finds its grid
 * @PAELLA_INDEXED: from its trees where it can (the DOC's "Indexing").
 * @PAELLA_SCAN: by a scan of every grid: the reference.
 * @PAELLA_NR_PICKS: number of ways.
 */
enum paella_pick {
	PAELLA_INDEXED,
	PAELLA_SCAN,
	PAELLA_NR_PICKS,
};

/**
 * struct paella_dev - paella's device state
 * @by_wait: the grids with blocks to issue by class (highest first),
 *	&paella_grid.wait (oldest first) and arrival.
 * @by_remaining: the same grids by class, &paella_grid.remaining
 *	(shortest first) and arrival.
 * @picked: the grid paella picked last, NULL when it ended: refiled at
 *	the next op, when the engine has issued its block.
 * @threshold: parameter deficit_threshold_cycles, cycles (0: off).
 * @estimate: parameter estimate, an &enum paella_estimate.
 * @pick: parameter pick, an &enum paella_pick.
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct paella_dev {
	struct rb_root_cached by_wait;
	struct rb_root_cached by_remaining;
	struct gtbs_grid *picked;
	u64 threshold;
	u64 estimate;
	u64 pick;
};

GTBS_POLICY_PRIV_CHECK(struct paella_dev, GTBS_POLICY_DEV_PRIV_SIZE);

/**
 * struct paella_grid - paella's state of a grid
 * @wait_node: link in &paella_dev.by_wait, cleared (RB_EMPTY_NODE())
 *	while the grid is in neither tree.
 * @remaining_node: link in &paella_dev.by_remaining.
 * @wait: key in by_wait: &gtbs_grid.last_issue_cycle when filed.
 * @remaining: key in by_remaining: paella_profile() when filed, cycles.
 *
 * In &gtbs_grid.policy_priv; protected by the device lock.
 */
struct paella_grid {
	struct rb_node wait_node;
	struct rb_node remaining_node;
	u64 wait;
	u64 remaining;
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

/* Profiled remaining processing time of @grid, cycles. */
static u64 paella_profile(const struct gtbs_grid *grid)
{
	u32 left = grid->desc.nr_blocks - grid->blocks_done;

	return mul_u64_u64_div_u64(grid->alone_cycles, left,
				   grid->desc.nr_blocks);
}

/* Remaining processing time of @grid as seen from @sm, cycles. */
static u64 paella_remaining(const struct gtbs_dev *dev,
			    const struct gtbs_sm *sm,
			    const struct gtbs_grid *grid)
{
	u64 pred;

	if (paella_of_dev(dev)->estimate == PAELLA_PREDICT) {
		const struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);

		/* no state where the grid never ran: no prediction there */
		pred = gs ? gtbs_pred_remaining(&gs->pred, sm->now) : U64_MAX;
		if (pred != U64_MAX)
			return pred;
	}
	return paella_profile(grid);
}

/* How long @grid has waited for a block at @now, cycles. */
static u64 paella_deficit(const struct gtbs_grid *grid, u64 now)
{
	return now > grid->last_issue_cycle ? now - grid->last_issue_cycle :
	       0;
}

/* Tree order: higher class first, then the smaller key, then arrival. */
static bool paella_before(const struct gtbs_grid *x, u64 x_key,
			  const struct gtbs_grid *y, u64 y_key)
{
	if (x->desc.prio_class != y->desc.prio_class)
		return x->desc.prio_class > y->desc.prio_class;
	if (x_key != y_key)
		return x_key < y_key;
	return x->id < y->id;
}

static struct gtbs_grid *paella_wait_grid(const struct rb_node *node)
{
	return gtbs_priv_to_grid(rb_entry(node, struct paella_grid, wait_node));
}

static struct gtbs_grid *paella_remaining_grid(const struct rb_node *node)
{
	return gtbs_priv_to_grid(rb_entry(node, struct paella_grid,
					  remaining_node));
}

static bool paella_wait_less(struct rb_node *a, const struct rb_node *b)
{
	const struct gtbs_grid *x = paella_wait_grid(a);
	const struct gtbs_grid *y = paella_wait_grid(b);

	return paella_before(x, paella_of_grid(x)->wait,
			     y, paella_of_grid(y)->wait);
}

static bool paella_remaining_less(struct rb_node *a, const struct rb_node *b)
{
	const struct gtbs_grid *x = paella_remaining_grid(a);
	const struct gtbs_grid *y = paella_remaining_grid(b);

	return paella_before(x, paella_of_grid(x)->remaining,
			     y, paella_of_grid(y)->remaining);
}

/*
 * Put @grid where it belongs: in both trees, under its current keys, if it
 * has blocks to issue, else in neither.  Only the tree whose key changed
 * is touched (an issued block moves the wait, a block end the remaining
 * time): both orders are total (paella_before()), so where a grid sits
 * does not depend on when it was filed.  O(log grids).
 */
static void paella_refile(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct paella_grid *pg = paella_of_grid(grid);
	bool want = gtbs_grid_has_blocks(grid);
	u64 remaining;

	if (RB_EMPTY_NODE(&pg->wait_node)) {
		if (!want)
			return;
		pg->wait = grid->last_issue_cycle;
		pg->remaining = paella_profile(grid);
		rb_add_cached(&pg->wait_node, &pd->by_wait, paella_wait_less);
		rb_add_cached(&pg->remaining_node, &pd->by_remaining,
			      paella_remaining_less);
		return;
	}
	if (!want) {
		rb_erase_cached(&pg->wait_node, &pd->by_wait);
		rb_erase_cached(&pg->remaining_node, &pd->by_remaining);
		RB_CLEAR_NODE(&pg->wait_node);
		return;
	}
	if (pg->wait != grid->last_issue_cycle) {
		rb_erase_cached(&pg->wait_node, &pd->by_wait);
		pg->wait = grid->last_issue_cycle;
		rb_add_cached(&pg->wait_node, &pd->by_wait, paella_wait_less);
	}
	remaining = paella_profile(grid);
	if (pg->remaining != remaining) {
		rb_erase_cached(&pg->remaining_node, &pd->by_remaining);
		pg->remaining = remaining;
		rb_add_cached(&pg->remaining_node, &pd->by_remaining,
			      paella_remaining_less);
	}
}

/* The grid picked last may have been issued a block since: refile it. */
static void paella_refile_picked(struct gtbs_dev *dev)
{
	struct paella_dev *pd = paella_of_dev(dev);

	if (pd->picked)
		paella_refile(dev, pd->picked);
	pd->picked = NULL;
}

/* A grid paella has not seen yet: in no tree, then filed. */
static void paella_add(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	RB_CLEAR_NODE(&paella_of_grid(grid)->wait_node);
	paella_refile(dev, grid);
}

static void paella_attach(struct gtbs_dev *dev)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct gtbs_grid *grid;

	pd->by_wait = RB_ROOT_CACHED;
	pd->by_remaining = RB_ROOT_CACHED;
	list_for_each_entry(grid, &dev->grids, node)
		paella_add(dev, grid);
}

static void paella_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	paella_refile_picked(dev);
	paella_add(dev, grid);
}

static void paella_grid_update(struct gtbs_dev *dev, struct gtbs_sm *sm,
			       struct gtbs_grid *grid)
{
	paella_refile_picked(dev);
	paella_refile(dev, grid);
}

static void paella_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct paella_grid *pg = paella_of_grid(grid);

	if (pd->picked == grid)
		pd->picked = NULL;
	if (!RB_EMPTY_NODE(&pg->wait_node)) {
		rb_erase_cached(&pg->wait_node, &pd->by_wait);
		rb_erase_cached(&pg->remaining_node, &pd->by_remaining);
		RB_CLEAR_NODE(&pg->wait_node);
	}
}

/*
 * The reference: every grid in arrival order (&gtbs_dev.grids), the
 * largest deficit past the threshold, else the shortest.  O(grids).
 */
static struct gtbs_grid *paella_scan(struct gtbs_dev *dev, struct gtbs_sm *sm,
				     u32 *reason)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct gtbs_grid *grid, *shortest = NULL, *starved = NULL;
	u64 best_rem = 0, best_deficit = 0;

	list_for_each_entry(grid, &dev->grids, node) {
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

/*
 * The first eligible grid of a tree, or NULL.  The trees hold only grids
 * with blocks to issue, highest class first; the top class is the highest
 * that has any, so this reads one node unless a tree holds a grid whose
 * key is out of date (by_wait: refiled, and the walk starts again).
 */
static struct gtbs_grid *paella_first(struct gtbs_dev *dev, bool by_wait)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct rb_node *node;
	struct gtbs_grid *grid;

again:
	node = rb_first_cached(by_wait ? &pd->by_wait : &pd->by_remaining);
	for (; node; node = rb_next(node)) {
		grid = by_wait ? paella_wait_grid(node) :
		       paella_remaining_grid(node);
		if (grid->desc.prio_class < dev->top_class)
			return NULL;
		if (by_wait &&
		    paella_of_grid(grid)->wait != grid->last_issue_cycle) {
			/* a block of it was preempted: its wait restarted */
			paella_refile(dev, grid);
			goto again;
		}
		if (gtbs_grid_eligible(dev, grid))
			return grid;
	}
	return NULL;
}

static struct gtbs_grid *paella_pick_grid(struct gtbs_dev *dev,
					  struct gtbs_sm *sm, u32 *reason)
{
	struct paella_dev *pd = paella_of_dev(dev);
	struct gtbs_grid *grid;

	paella_refile_picked(dev);
	if (pd->pick == PAELLA_SCAN || pd->estimate == PAELLA_PREDICT ||
	    dev->starve_cycles) {
		grid = paella_scan(dev, sm, reason);
	} else {
		grid = pd->threshold ? paella_first(dev, true) : NULL;
		if (grid && paella_deficit(grid, sm->now) > pd->threshold) {
			*reason = GTBS_PICK_POLICY;
		} else {
			grid = paella_first(dev, false);
			*reason = GTBS_PICK_SHORTER;
		}
	}
	pd->picked = grid;
	return grid;
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

/* The value names of parameter pick, &enum paella_pick. */
static const char * const paella_pick_names[] = {
	[PAELLA_INDEXED] = "indexed",
	[PAELLA_SCAN] = "scan",
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
	{
		.name = "pick",
		.unit = "",
		.doc = "indexed: O(log grids) trees; scan: every grid (the reference)",
		.min = 0,
		.max = PAELLA_NR_PICKS - 1,
		.def = PAELLA_INDEXED,
		.names = paella_pick_names,
		.offset = offsetof(struct paella_dev, pick),
	},
};

static const struct gtbs_policy_ops paella_ops = {
	.name = "paella",
	.owner = THIS_MODULE,
	.pick_grid = paella_pick_grid,
	.attach = paella_attach,
	.grid_arrive = paella_grid_arrive,
	.grid_end = paella_grid_end,
	.grid_update = paella_grid_update,
	.grid_state = paella_grid_state,
	.dev_priv_size = sizeof(struct paella_dev),
	.grid_priv_size = sizeof(struct paella_grid),
	.params = paella_params,
	.nr_params = ARRAY_SIZE(paella_params),
};

GTBS_POLICY_MODULE(paella_ops,
		   "gputbs sample policy: SRPT with a deficit threshold (Paella, SOSP 2023)");
