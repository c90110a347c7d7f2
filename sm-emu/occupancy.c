// SPDX-License-Identifier: GPL-2.0
/*
 * occupancy.c - maximum residency R of a grid on one SM.
 *
 * The paper's Section "The Staircase Model": an SM holds as many blocks of
 * a grid as its resources allow; that number is the grid's maximum
 * residency R, "determined at grid launch time using formulae like those in
 * the NVIDIA Occupancy Calculator".  This is that calculation for compute
 * capability 2.0 (Fermi), parameterised by &struct gtbs_dev_config.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs.h"

static const char * const gtbs_limiter_names[] = {
	[GTBS_LIMIT_BLOCKS] = "blocks",
	[GTBS_LIMIT_WARPS] = "warps",
	[GTBS_LIMIT_REGS] = "registers",
	[GTBS_LIMIT_SHMEM] = "shared memory",
};

/**
 * gtbs_limiter_name() - printable name of a limiting resource
 * @limiter: the resource.
 *
 * Context: any.
 * Return: a static string.
 */
const char *gtbs_limiter_name(enum gtbs_limiter limiter)
{
	if ((unsigned int)limiter >= ARRAY_SIZE(gtbs_limiter_names))
		return "?";
	return gtbs_limiter_names[limiter];
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_limiter_name);

static void gtbs_limit(struct gtbs_occupancy *occ, u32 blocks,
		       enum gtbs_limiter limiter)
{
	if (blocks < occ->residency) {
		occ->residency = blocks;
		occ->limiter = limiter;
	}
}

/**
 * gtbs_occupancy_calc() - footprint and maximum residency of a grid
 * @cfg: device resources.
 * @desc: the grid; only the per-block resource fields are read.
 * @occ: out: footprint per block and maximum residency R.
 *
 * A block holds ceil(threads / warp_size) warps; registers are allocated
 * per warp, rounded up to &gtbs_dev_config.reg_alloc_unit; shared memory is
 * rounded up to &gtbs_dev_config.shmem_alloc_unit.  R is the minimum over
 * block slots, warp contexts, thread contexts, registers and shared memory
 * of how many such blocks fit on an empty SM.
 *
 * Context: any.
 * Return: 0, or -EINVAL if a block does not fit on an SM at all (R = 0)
 * or @desc has zero threads.
 */
int gtbs_occupancy_calc(const struct gtbs_dev_config *cfg,
			const struct gtbs_grid_desc *desc,
			struct gtbs_occupancy *occ)
{
	u64 regs_per_warp;

	memset(occ, 0, sizeof(*occ));
	if (!desc->threads_per_block ||
	    desc->threads_per_block > cfg->max_threads_per_block)
		return -EINVAL;
	occ->warps = DIV_ROUND_UP(desc->threads_per_block, cfg->warp_size);
	occ->threads = occ->warps * cfg->warp_size;
	regs_per_warp = round_up((u64)desc->regs_per_thread * cfg->warp_size,
				 (u64)cfg->reg_alloc_unit);
	if (regs_per_warp * occ->warps > cfg->max_regs_per_sm ||
	    desc->shmem_per_block > cfg->max_shmem_per_sm)
		return -EINVAL;
	occ->regs = regs_per_warp * occ->warps;
	occ->shmem = round_up(desc->shmem_per_block, cfg->shmem_alloc_unit);

	occ->residency = cfg->max_blocks_per_sm;
	occ->limiter = GTBS_LIMIT_BLOCKS;
	gtbs_limit(occ, cfg->max_warps_per_sm / occ->warps, GTBS_LIMIT_WARPS);
	gtbs_limit(occ, cfg->max_threads_per_sm / occ->threads,
		   GTBS_LIMIT_WARPS);
	if (occ->regs)
		gtbs_limit(occ, cfg->max_regs_per_sm / occ->regs,
			   GTBS_LIMIT_REGS);
	if (occ->shmem)
		gtbs_limit(occ, cfg->max_shmem_per_sm / occ->shmem,
			   GTBS_LIMIT_SHMEM);
	return occ->residency ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_occupancy_calc);

/**
 * gtbs_footprint_add() - add blocks to a footprint
 * @fp: the footprint.
 * @occ: the blocks' grid (its per-block allocation).
 * @n: blocks to add.
 *
 * Context: any.
 */
void gtbs_footprint_add(struct gtbs_footprint *fp,
			const struct gtbs_occupancy *occ, u32 n)
{
	fp->blocks += n;
	fp->warps += n * occ->warps;
	fp->threads += n * occ->threads;
	fp->regs += n * occ->regs;
	fp->shmem += n * occ->shmem;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_footprint_add);

/* Blocks of @per that fit in @cap minus @used; U32_MAX if @per is 0. */
static u32 gtbs_room(u32 cap, u32 used, u32 per)
{
	if (!per)
		return U32_MAX;
	return used >= cap ? 0 : (cap - used) / per;
}

/**
 * gtbs_footprint_room() - blocks that fit beside a footprint
 * @cfg: device configuration.
 * @occ: the grid whose blocks are counted.
 * @used: resources already held on an otherwise empty SM.
 *
 * The occupancy calculation of an SM whose resources are reduced by
 * @used: the MPMax limit, and SRTF/Adaptive's shared residencies.
 *
 * Context: any.
 * Return: blocks of @occ's grid that fit on an SM next to @used, at most
 * its maximum residency R.
 */
u32 gtbs_footprint_room(const struct gtbs_dev_config *cfg,
			const struct gtbs_occupancy *occ,
			const struct gtbs_footprint *used)
{
	u32 n = gtbs_room(cfg->max_blocks_per_sm, used->blocks, 1);

	n = min(n, gtbs_room(cfg->max_warps_per_sm, used->warps, occ->warps));
	n = min(n, gtbs_room(cfg->max_threads_per_sm, used->threads,
			     occ->threads));
	n = min(n, gtbs_room(cfg->max_regs_per_sm, used->regs, occ->regs));
	n = min(n, gtbs_room(cfg->max_shmem_per_sm, used->shmem, occ->shmem));
	return min(n, occ->residency);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_footprint_room);
