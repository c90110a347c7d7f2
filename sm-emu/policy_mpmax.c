// SPDX-License-Identifier: GPL-2.0
/*
 * policy_mpmax.c - Just-in-time MPMax resource allocation.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Just-in-time MPMax policy
 *
 * The paper's Section "Just-in-time MPMax", after the MPMax allocation of
 * Pai et al. (ASPLOS 2013): "each executing kernel sets aside resources for
 * a hypothetical MPMax kernel, a composite constructed from co-running
 * kernels": with A and B running together, A leaves room for one block of
 * B on every SM and vice versa.  Just in time: the co-runners are the grids
 * that have blocks to issue at that instant (grids whose blocks are all out
 * need no room), so when co-running ends a grid takes back what it had set
 * aside.
 *
 * A grid's *MPMax limit* on an SM is the number of its blocks that fit on
 * an empty SM next to one block of each co-runner (block slot, warps,
 * threads, registers and shared memory; at least 1, at most R).  "Blocks
 * are issued from a kernel until its MPMax limit is reached, after which
 * the next kernel in FIFO order gets to issue": each SM issues from the
 * oldest grid with unissued blocks that has fewer blocks on the SM than its
 * limit, and waits if that block does not fit yet (blocks of grids that
 * arrived alone and filled the SM drain down to their own limit).
 *
 * The composite changes only when a grid joins or leaves the pending list
 * or the class that may issue changes, so it is cached (&struct
 * gtbs_mpmax, the policy's device state) and recomputed then, or on every
 * pick while the starvation guard can promote grids with time.
 */
#include "gtbs.h"

/**
 * struct gtbs_mpmax - MPMax's device state (&gtbs_dev.policy_priv)
 * @all: one block of every grid that may issue (the composite kernel),
 *	valid while @gen and @class match.
 * @gen: the &gtbs_dev.pending_gen @all was computed at, plus 1 (0: not
 *	computed, the state after attach).
 * @class: the &gtbs_dev.top_class it was computed for.
 *
 * Protected by the device lock.
 */
struct gtbs_mpmax {
	struct gtbs_footprint all;
	u64 gen;
	u32 class;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_mpmax, GTBS_POLICY_DEV_PRIV_SIZE);

/* @all without one block of @occ, which it includes. */
static struct gtbs_footprint
gtbs_mpmax_without(const struct gtbs_footprint *all,
		   const struct gtbs_occupancy *occ)
{
	return (struct gtbs_footprint) {
		.blocks = all->blocks - 1,
		.warps = all->warps - occ->warps,
		.threads = all->threads - occ->threads,
		.regs = all->regs - occ->regs,
		.shmem = all->shmem - occ->shmem,
	};
}

/* One block of every grid that may issue: the composite kernel. */
static const struct gtbs_footprint *gtbs_mpmax_composite(struct gtbs_dev *dev)
{
	struct gtbs_mpmax *mp = gtbs_policy_priv(dev);
	struct gtbs_footprint *all = &mp->all;
	struct gtbs_grid *grid;

	if (!dev->starve_cycles && mp->gen == dev->pending_gen + 1 &&
	    mp->class == dev->top_class)
		return all;
	*all = (struct gtbs_footprint) { 0 };
	list_for_each_entry(grid, &dev->pending, pending_node)
		if (gtbs_grid_eligible(dev, grid))
			gtbs_footprint_add(all, &grid->occ, 1);
	mp->gen = dev->pending_gen + 1;
	mp->class = dev->top_class;
	return all;
}

static struct gtbs_grid *gtbs_mpmax_pick_grid(struct gtbs_dev *dev,
					      struct gtbs_sm *sm, u32 *reason)
{
	const struct gtbs_footprint *all = gtbs_mpmax_composite(dev);
	struct gtbs_footprint others;
	struct gtbs_grid *grid;

	/* an SM moves between grids only at their MPMax limits */
	*reason = GTBS_PICK_LIMIT;
	list_for_each_entry(grid, &dev->pending, pending_node) {
		if (!gtbs_grid_eligible(dev, grid))
			continue;
		others = gtbs_mpmax_without(all, &grid->occ);
		/* the MPMax limit: at least one block of its own */
		if (gtbs_grid_sm_resident(grid, sm->id) <
		    max(gtbs_footprint_room(&dev->cfg, &grid->occ, &others), 1U))
			return grid;
	}
	return NULL;
}

/* Just-in-time MPMax policy ops (paper Section "Just-in-time MPMax"). */
const struct gtbs_policy_ops gtbs_policy_mpmax = {
	.name = "mpmax",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_mpmax_pick_grid,
	.dev_priv_size = sizeof(struct gtbs_mpmax),
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_mpmax);
