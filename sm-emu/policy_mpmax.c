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
 */
#include "gtbs.h"

/* Resources of one block, or of a sum of blocks. */
struct gtbs_mpmax_fp {
	u32 blocks, warps, threads, regs, shmem;
};

static void gtbs_mpmax_add(struct gtbs_mpmax_fp *sum,
			   const struct gtbs_occupancy *occ)
{
	sum->blocks++;
	sum->warps += occ->warps;
	sum->threads += occ->threads;
	sum->regs += occ->regs;
	sum->shmem += occ->shmem;
}

/* @all without one block of @occ, which it includes. */
static struct gtbs_mpmax_fp gtbs_mpmax_without(const struct gtbs_mpmax_fp *all,
					       const struct gtbs_occupancy *occ)
{
	return (struct gtbs_mpmax_fp) {
		.blocks = all->blocks - 1,
		.warps = all->warps - occ->warps,
		.threads = all->threads - occ->threads,
		.regs = all->regs - occ->regs,
		.shmem = all->shmem - occ->shmem,
	};
}

/* Blocks of @per that fit in @cap minus @used; U32_MAX if @per is 0. */
static u32 gtbs_mpmax_room(u32 cap, u32 used, u32 per)
{
	if (!per)
		return U32_MAX;
	return used >= cap ? 0 : (cap - used) / per;
}

/**
 * gtbs_mpmax_limit() - a grid's MPMax limit on an SM
 * @cfg: device configuration.
 * @occ: the grid's footprint and R.
 * @others: the summed footprint of one block of each co-runner.
 *
 * Context: any.
 * Return: the number of the grid's blocks that fit on an empty SM next to
 * @others, clamped to 1..R.
 */
static u32 gtbs_mpmax_limit(const struct gtbs_dev_config *cfg,
			    const struct gtbs_occupancy *occ,
			    const struct gtbs_mpmax_fp *others)
{
	u32 n = gtbs_mpmax_room(cfg->max_blocks_per_sm, others->blocks, 1);

	n = min(n, gtbs_mpmax_room(cfg->max_warps_per_sm, others->warps,
				   occ->warps));
	n = min(n, gtbs_mpmax_room(cfg->max_threads_per_sm, others->threads,
				   occ->threads));
	n = min(n, gtbs_mpmax_room(cfg->max_regs_per_sm, others->regs,
				   occ->regs));
	n = min(n, gtbs_mpmax_room(cfg->max_shmem_per_sm, others->shmem,
				   occ->shmem));
	return clamp(n, 1U, occ->residency);
}

static struct gtbs_grid *gtbs_mpmax_pick_grid(struct gtbs_dev *dev,
					      struct gtbs_sm *sm)
{
	struct gtbs_mpmax_fp all = { 0 }, others;
	struct gtbs_grid *grid;

	/* one block of every grid that may issue: the composite kernel */
	list_for_each_entry(grid, &dev->pending, pending_node)
		if (gtbs_grid_eligible(dev, grid))
			gtbs_mpmax_add(&all, &grid->occ);
	list_for_each_entry(grid, &dev->pending, pending_node) {
		if (!gtbs_grid_eligible(dev, grid))
			continue;
		others = gtbs_mpmax_without(&all, &grid->occ);
		if (grid->sm[sm->id].resident <
		    gtbs_mpmax_limit(&dev->cfg, &grid->occ, &others))
			return grid;
	}
	return NULL;
}

/* Just-in-time MPMax policy ops (paper Section "Just-in-time MPMax"). */
const struct gtbs_policy_ops gtbs_policy_mpmax = {
	.name = "mpmax",
	.pick_grid = gtbs_mpmax_pick_grid,
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_mpmax);
