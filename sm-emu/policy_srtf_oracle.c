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
 * Since the key is fixed at arrival, the pending grids are kept sorted by
 * it in the policy's own red-black tree (&struct gtbs_srtf_oracle;
 * O(log grids) when a grid joins or leaves &gtbs_dev.pending), and a pick
 * is the first eligible grid there: O(1) when one class has blocks to
 * issue, instead of a scan of every pending grid on every block issue.
 *
 * With preemption (the device's preempt_mode is not drain), the grid
 * picked for an SM preempts there the running blocks of grids of its
 * class with a strictly longer alone runtime
 * (&gtbs_policy_ops.may_preempt): the key is fixed, so no two grids
 * preempt each other.  It is the zero-sampling SRTF of the paper given
 * the preemption it asked for.
 */
#include "policy_srtf.h"

/**
 * struct gtbs_srtf_oracle - srtf-oracle's device state
 * @grids: the pending grids (&gtbs_dev.pending) by &gtbs_grid.alone_cycles,
 *	then arrival, in a red-black tree linked by
 *	&gtbs_srtf_oracle_grid.node.
 * @tail: the grids in their tail (gtbs_grid_in_tail()), linked by
 *	&gtbs_srtf_oracle_grid.tail_node, in both readings.
 * @single_kernel: parameter ``single_kernel``, &enum gtbs_single_kernel,
 *	as SRTF's (policy_srtf.c, DOC "Exclusive").
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct gtbs_srtf_oracle {
	struct rb_root_cached grids;
	struct list_head tail;
	u64 single_kernel;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf_oracle, GTBS_POLICY_DEV_PRIV_SIZE);

/**
 * struct gtbs_srtf_oracle_grid - srtf-oracle's state of a grid
 * @node: link in &gtbs_srtf_oracle.grids while @queued.
 * @queued: on &gtbs_srtf_oracle.grids: the grid is pending.
 * @in_tail: on &gtbs_srtf_oracle.tail.
 * @tail_node: link there.
 *
 * In &gtbs_grid.policy_priv; protected by the device lock.
 */
struct gtbs_srtf_oracle_grid {
	struct rb_node node;
	u32 queued;
	u32 in_tail;
	struct list_head tail_node;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf_oracle_grid,
		       GTBS_POLICY_GRID_PRIV_SIZE);

static struct gtbs_srtf_oracle_grid *gtbs_og(struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

/* @node is the first member: it starts the private area */
static bool gtbs_srtf_oracle_less(struct rb_node *a, const struct rb_node *b)
{
	const struct gtbs_grid *x = gtbs_priv_to_grid(a);
	const struct gtbs_grid *y = gtbs_priv_to_grid((struct rb_node *)b);

	if (x->alone_cycles != y->alone_cycles)
		return x->alone_cycles < y->alone_cycles;
	return x->id < y->id;
}

/* @grid on the tree while it is pending, off it otherwise.  O(log grids). */
static void gtbs_srtf_oracle_file(struct gtbs_dev *dev,
				  struct gtbs_grid *grid)
{
	struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	struct gtbs_srtf_oracle_grid *og = gtbs_og(grid);
	bool pending = !list_empty(&grid->pending_node);

	bool tail = gtbs_grid_in_tail(grid);

	if (pending && !og->queued)
		rb_add_cached(&og->node, &so->grids, gtbs_srtf_oracle_less);
	else if (!pending && og->queued)
		rb_erase_cached(&og->node, &so->grids);
	og->queued = pending;
	if (tail && !og->in_tail)
		list_add_tail(&og->tail_node, &so->tail);
	else if (!tail && og->in_tail)
		list_del(&og->tail_node);
	og->in_tail = tail;
}

static void gtbs_srtf_oracle_attach(struct gtbs_dev *dev)
{
	struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	struct gtbs_grid *grid;

	INIT_LIST_HEAD(&so->tail);
	list_for_each_entry(grid, &dev->grids, node)
		gtbs_srtf_oracle_file(dev, grid);
}

static void gtbs_srtf_oracle_grid_update(struct gtbs_dev *dev,
					 struct gtbs_sm *sm,
					 struct gtbs_grid *grid)
{
	if (!sm)	/* it left or rejoined the pending list */
		gtbs_srtf_oracle_file(dev, grid);
}

static void gtbs_srtf_oracle_grid_end(struct gtbs_dev *dev,
				      struct gtbs_grid *grid)
{
	struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	struct gtbs_srtf_oracle_grid *og = gtbs_og(grid);

	if (og->queued)
		rb_erase_cached(&og->node, &so->grids);
	og->queued = 0;
	if (og->in_tail)
		list_del(&og->tail_node);
	og->in_tail = 0;
}

/*
 * The exclusive readings (policy_srtf.c, DOC "Exclusive"): a grid in its
 * tail of a higher class than @grid, or of its class and shorter (ties to
 * the earlier arrival), holds @grid back until it ends; under
 * sm-exclusive only on SM @sm where it has blocks.  O(tail grids).
 */
static bool gtbs_srtf_oracle_held(const struct gtbs_dev *dev,
				  const struct gtbs_sm *sm,
				  const struct gtbs_grid *grid)
{
	const struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	const struct gtbs_srtf_oracle_grid *og;

	if (so->single_kernel == GTBS_SINGLE_CONSERVING)
		return false;
	list_for_each_entry(og, &so->tail, tail_node) {
		const struct gtbs_grid *t = gtbs_priv_to_grid(og);

		if (t->desc.prio_class < grid->desc.prio_class ||
		    (so->single_kernel == GTBS_SINGLE_SM &&
		     !gtbs_grid_sm_resident(t, sm->id)))
			continue;
		if (t->desc.prio_class > grid->desc.prio_class ||
		    t->alone_cycles < grid->alone_cycles ||
		    (t->alone_cycles == grid->alone_cycles && t->id < grid->id))
			return true;
	}
	return false;
}

/*
 * The shortest eligible grid, the earliest arrival among equals: the
 * first of the tree when one class has blocks to issue.
 */
static struct gtbs_grid *gtbs_srtf_oracle_pick_grid(struct gtbs_dev *dev,
						    struct gtbs_sm *sm,
						    u32 *reason)
{
	struct gtbs_srtf_oracle *so = gtbs_policy_priv(dev);
	struct rb_node *node;

	*reason = GTBS_PICK_SHORTER;
	for (node = rb_first_cached(&so->grids); node; node = rb_next(node)) {
		struct gtbs_grid *grid = gtbs_priv_to_grid(node);

		if (gtbs_grid_eligible(dev, grid))
			return gtbs_srtf_oracle_held(dev, sm, grid) ? NULL : grid;
	}
	return NULL;
}

static const struct gtbs_policy_param gtbs_srtf_oracle_params[] = {
	GTBS_SINGLE_KERNEL_PARAM(offsetof(struct gtbs_srtf_oracle,
					  single_kernel)),
};

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
	.grid_arrive = gtbs_srtf_oracle_file,
	.grid_update = gtbs_srtf_oracle_grid_update,
	.grid_end = gtbs_srtf_oracle_grid_end,
	.may_preempt = gtbs_srtf_oracle_may_preempt,
	.params = gtbs_srtf_oracle_params,
	.nr_params = ARRAY_SIZE(gtbs_srtf_oracle_params),
	.dev_priv_size = sizeof(struct gtbs_srtf_oracle),
	.grid_priv_size = sizeof(struct gtbs_srtf_oracle_grid),
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_srtf_oracle);
