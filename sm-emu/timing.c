// SPDX-License-Identifier: GPL-2.0
/*
 * timing.c - the SM timing model (Documentation/timing-model.rst).
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: SM timing model
 *
 * Each thread block carries work w: its duration, in cycles, when its grid
 * runs alone at its maximum residency R (so the grid's declared mean block
 * duration t is the mean of w, as in the paper's Table "Runtimes for
 * ERCBench Kernels").  A block's actual duration depends on the load of its
 * SM, as the paper's Section "Systematic Variations in Duration per Thread
 * Block" observes: t grows with the block's own residency and with the
 * warps of co-running grids, while a grid's runtime falls with residency
 * and saturates.  The model: with L the warps resident on the SM and K the
 * knee constant (&gtbs_dev_config.load_knee_warps), every resident block
 * progresses at rate 1 / (K + L); a block of a grid whose full-residency
 * load is Lf = R * warps_per_block needs w / (K + Lf) progress.  Alone at
 * R, L = Lf and the block lasts exactly w.  At residency r < R a block lasts
 * w * (K + r * W) / (K + R * W) (shorter), while a grid's throughput
 * r / (K + r * W) grows with r and saturates at 1 / W.
 *
 * Because the rate is the same for every block of an SM, the SM keeps one
 * progress clock P (fixed point, GTBS_PROGRESS_SCALE per unit) and each
 * resident block the value of P at which it ends: a load change costs
 * O(1) and the next completion is the smallest end value.
 */
#include "gtbs.h"

static u64 gtbs_splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Standard normal variate times 65536, by Irwin-Hall: the sum of twelve
 * uniform 16-bit numbers minus 6 * 65536 has mean 0 and standard
 * deviation 65536, range +-6 standard deviations.  Integer only.
 */
static s64 gtbs_normal_q16(u64 seed, u32 block)
{
	u64 state = seed ^ ((u64)block * 0xd1b54a32d192ed03ULL);
	s64 sum = 0;
	int i, j;

	for (i = 0; i < 3; i++) {
		u64 r = gtbs_splitmix64(&state);

		for (j = 0; j < 4; j++)
			sum += (r >> (16 * j)) & 0xffff;
	}
	return sum - 6 * 65536;
}

/**
 * gtbs_block_work() - work of one thread block
 * @desc: the grid.
 * @block: block index, 0..nr_blocks-1.
 *
 * With explicit durations, the block's entry.  Otherwise a deterministic
 * draw, from (@desc->seed, @block) alone, of a normal distribution with
 * mean @desc->block_cycles and relative standard deviation
 * @desc->block_rsd_ppm: the paper's per-kernel mean t and %RSD (Table
 * "Runtimes for ERCBench Kernels").  The deviation is clamped
 * symmetrically to +-(t - max(t / 16, 1)), so that no block is shorter than
 * t / 16 (or 1 cycle) and the mean stays t whatever the RSD.  No state and no allocation
 * per block.
 *
 * Context: any.
 * Return: the block's duration alone at maximum residency, cycles, >= 1.
 */
u64 gtbs_block_work(const struct gtbs_grid_desc *desc, u32 block)
{
	u64 t = desc->block_cycles;
	s64 dev, bound;

	if (desc->durations)
		return max(desc->durations[block], 1ULL);
	if (!desc->block_rsd_ppm || t < 2)
		return max(t, 1ULL);
	dev = (s64)div_u64(t * desc->block_rsd_ppm, GTBS_PPM);
	dev = (dev * gtbs_normal_q16(desc->seed, block)) / 65536;
	bound = (s64)(t - max(t / 16, 1ULL));
	dev = clamp(dev, -bound, bound);
	return t + dev;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_block_work);

/**
 * gtbs_block_progress() - progress a block needs on its SM
 * @work: the block's work, cycles, <= GTBS_MAX_BLOCK_CYCLES.
 * @knee_warps: timing model constant K, warps.
 * @full_warps: Lf, warps its grid holds on an SM at maximum residency.
 *
 * Context: any.
 * Return: w / (K + Lf) in progress units, at least 1.
 */
u64 gtbs_block_progress(u64 work, u32 knee_warps, u32 full_warps)
{
	return max(div_u64(work * GTBS_PROGRESS_SCALE, knee_warps + full_warps),
		   1ULL);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_block_progress);

/**
 * gtbs_progress_advance() - progress an SM makes in some cycles
 * @cycles: elapsed emulated cycles.
 * @knee_warps: K, warps.
 * @load_warps: L, warps resident on the SM during those cycles.
 *
 * Context: any.
 * Return: floor(@cycles / (K + L)) in progress units.
 */
u64 gtbs_progress_advance(u64 cycles, u32 knee_warps, u32 load_warps)
{
	u32 div = knee_warps + load_warps;
	u64 q = div_u64(cycles, div);
	u64 r = cycles - q * div;

	return q * GTBS_PROGRESS_SCALE + div_u64(r * GTBS_PROGRESS_SCALE, div);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_progress_advance);

/**
 * gtbs_progress_cycles() - cycles an SM needs to make some progress
 * @progress: progress units.
 * @knee_warps: K, warps.
 * @load_warps: L, warps resident on the SM.
 *
 * The inverse of gtbs_progress_advance(), rounded up, so that advancing by
 * the result reaches at least @progress.
 *
 * Context: any.
 * Return: ceil(@progress * (K + L)) in cycles.
 */
u64 gtbs_progress_cycles(u64 progress, u32 knee_warps, u32 load_warps)
{
	u32 mul = knee_warps + load_warps;
	u64 hi = progress / GTBS_PROGRESS_SCALE;
	u64 lo = progress % GTBS_PROGRESS_SCALE;

	return hi * mul + DIV_ROUND_UP(lo * mul, GTBS_PROGRESS_SCALE);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_progress_cycles);

/**
 * gtbs_progress_remainder() - what gtbs_progress_advance() rounded away
 * @cycles: elapsed emulated cycles.
 * @div: K + L, warps.
 *
 * gtbs_progress_advance() returns floor(@cycles * S / @div); this returns
 * the remainder of that division, in units of 1 / @div progress unit, so a
 * caller that advances in several steps can carry it and stay exact.
 *
 * Context: any.
 * Return: (@cycles * S) mod @div, 0..@div-1.
 */
u32 gtbs_progress_remainder(u64 cycles, u32 div)
{
	u64 r = cycles - div_u64(cycles, div) * div;

	return (r * GTBS_PROGRESS_SCALE) - div_u64(r * GTBS_PROGRESS_SCALE, div) * div;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_progress_remainder);
