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

/* Independent streams of per-block random numbers (two-class shapes). */
#define GTBS_STREAM_CLASS	0x243f6a8885a308d3ULL
#define GTBS_STREAM_WITHIN	0x13198a2e03707344ULL
#define GTBS_STREAM_STARTUP	0xa4093822299f31d0ULL
#define GTBS_STREAM_WAVE	0x082efa98ec4e6c89ULL

/* A uniform 64-bit number from (seed, block, stream) alone. */
static u64 gtbs_block_rand(u64 seed, u32 block, u64 stream)
{
	u64 state = seed ^ stream ^ ((u64)block * 0xd1b54a32d192ed03ULL);

	return gtbs_splitmix64(&state);
}

/* floor(sqrt(@x)), bit by bit: 32 iterations, integer only. */
static u64 gtbs_isqrt(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * sqrt(3) / sqrt(k), ppm: the half-width of a class, relative to its mean
 * and per unit of RSD, when a share 1/k of the variance lies within the
 * classes (k = 16: skewed, k = 256: peaked).
 */
#define GTBS_SQRT3_4_PPM	433013ULL
#define GTBS_SQRT3_16_PPM	108253ULL

/*
 * Relative deviation, ppm, of a two-class mixture (timing-model.rst, "Block
 * work"): with probability p a block is in class 1, else in class 0; a
 * class has mean m_c and is uniform on m_c (1 +- a).  Return the draw minus
 * 1, in ppm of t (may be negative).
 *
 * GTBS_DIST_SKEWED: m_1 = 1 + sqrt(S (1 - p) / p), m_0 = 1 - sqrt(S p /
 * (1 - p)) with S = 15 rho^2 / (16 + rho^2) and a = sqrt(3) rho / 4: the
 * mean is 1 and the variance rho^2 exactly.
 *
 * GTBS_DIST_PEAKED: both classes have mean 1; class 0 (the core) has
 * a_0 = sqrt(3) rho / 16, class 1 (outliers) a_1 = rho sqrt(3 (255 + p) /
 * (256 p)), at most 15/16, p raised to the least share that allows it.
 */
static s64 gtbs_two_class_ppm(const struct gtbs_grid_desc *desc, u32 block)
{
	u64 rho = desc->block_rsd_ppm, rho2 = rho * rho;	/* ppm^2 */
	u64 p = desc->block_dist_param, m, a, spread;
	u64 cls = gtbs_block_rand(desc->seed, block, GTBS_STREAM_CLASS);
	u64 within = gtbs_block_rand(desc->seed, block, GTBS_STREAM_WITHIN);
	s64 v, mean_dev;
	bool outlier;

	if (desc->block_dist == GTBS_DIST_SKEWED) {
		u64 s = mul_u64_u64_div_u64(15 * rho2, 1000000000000ULL,
					    16000000000000ULL + rho2);
		u64 dh;

		/* gtbs_grid_desc_check() bounds it; never divide by 0 */
		p = clamp(p, (u64)GTBS_SKEWED_MIN_PPM, (u64)GTBS_SKEWED_MAX_PPM);
		dh = gtbs_isqrt(div_u64(s * (GTBS_PPM - p), p));

		outlier = ((cls >> 32) * GTBS_PPM) >> 32 < p;
		/* (1 - p) d_l = p d_h: the mean is exact up to rounding */
		mean_dev = outlier ? (s64)dh :
			-(s64)div_u64(dh * p + (GTBS_PPM - p) / 2,
				      GTBS_PPM - p);
		a = div_u64(GTBS_SQRT3_4_PPM * rho, GTBS_PPM);
	} else {
		/* q_min = 765 rho^2 / (225 - 3 rho^2), rounded up */
		u64 qmin = mul_u64_u64_div_u64(765 * rho2, GTBS_PPM,
					       225000000000000ULL - 3 * rho2) + 1;

		p = max(p, min(qmin, (u64)GTBS_PPM));
		outlier = ((cls >> 32) * GTBS_PPM) >> 32 < p;
		mean_dev = 0;
		if (outlier)
			a = gtbs_isqrt(mul_u64_u64_div_u64(3 * rho2,
							   255ULL * GTBS_PPM + p,
							   256 * p));
		else
			a = div_u64(GTBS_SQRT3_16_PPM * rho, GTBS_PPM);
		a = min(a, 937500ULL);
	}
	m = GTBS_PPM + mean_dev;
	/* v uniform on (-2^32, 2^32) in steps of 2, mean exactly 0 */
	v = (s64)((within >> 32) << 1) + 1 - (1LL << 32);
	/* m (1 + a v / 2^32) - 1, rounded towards zero on both sides */
	spread = div_u64(m * a, GTBS_PPM);
	if (v < 0)
		return mean_dev - (s64)((spread * (u64)-v) >> 32);
	return mean_dev + (s64)((spread * (u64)v) >> 32);
}

/*
 * The start-up effect: a block among the grid's first @desc->startup_blocks
 * (by index, the issue order) is a start-up block with probability 1/2,
 * from the seed; it lasts @desc->startup_ppm longer.
 */
static u64 gtbs_startup(const struct gtbs_grid_desc *desc, u32 block, u64 w)
{
	if (!desc->startup_ppm || block >= desc->startup_blocks ||
	    !(gtbs_block_rand(desc->seed, block, GTBS_STREAM_STARTUP) >> 63))
		return w;
	return w + mul_u64_u64_div_u64(w, desc->startup_ppm, GTBS_PPM);
}

/**
 * gtbs_block_work_rsd() - work of one thread block, at a given RSD
 * @desc: the grid.
 * @block: block index, 0..nr_blocks-1.
 * @rsd_ppm: the RSD of the draw, ppm: @desc->block_rsd_ppm, or the
 *	per-block part of it (gtbs_block_work_wave()); used by the normal
 *	shape only.
 *
 * With explicit durations, the block's entry.  Otherwise a deterministic
 * draw, from (@desc->seed, @block) alone, with mean @desc->block_cycles
 * and relative standard deviation @rsd_ppm (the paper's
 * per-kernel mean t and %RSD, Table "Runtimes for ERCBench Kernels"), of
 * the shape @desc->block_dist (Section "Differing Work per Thread Block";
 * timing-model.rst, "Block work"):
 *
 * %GTBS_DIST_NORMAL: normal, the deviation clamped symmetrically to
 * +-(t - max(t / 16, 1)), so that no block is shorter than t / 16 (or 1
 * cycle) and the mean stays t whatever the RSD.
 *
 * %GTBS_DIST_SKEWED: a two-class mixture: a share @desc->block_dist_param
 * (ppm) of heavy blocks far above t, the rest a little below; the median is
 * below the mean (RayTracing's render).
 *
 * %GTBS_DIST_PEAKED: a core within +-sqrt(3) RSD / 16 of t and a share
 * @desc->block_dist_param (ppm; raised to the least share the RSD needs)
 * of outliers uniform over up to t (1 +- 15/16).
 *
 * Both two-class shapes have mean t and RSD @desc->block_rsd_ppm exactly
 * in expectation (up to rounding of a cycle).  Then the start-up effect:
 * with @desc->startup_ppm, each of the first @desc->startup_blocks blocks
 * is by a seeded coin a start-up block, lengthened by @desc->startup_ppm of
 * its duration, which raises the grid's mean to t (1 + startup_ppm *
 * startup_blocks / (2 * nr_blocks)) in expectation.  O(1), no state and no
 * allocation per block.
 *
 * Context: any.
 * Return: the block's duration alone at maximum residency, cycles, >= 1
 * (at most 32 %GTBS_MAX_BLOCK_CYCLES).
 */
static u64 gtbs_block_work_rsd(const struct gtbs_grid_desc *desc, u32 block,
			       u64 rsd_ppm)
{
	u64 t = desc->block_cycles, w;
	s64 dev, bound;

	if (desc->durations)
		return max(desc->durations[block], 1ULL);
	if (!rsd_ppm || t < 2) {
		w = max(t, 1ULL);
	} else if (desc->block_dist == GTBS_DIST_NORMAL) {
		dev = (s64)div_u64(t * rsd_ppm, GTBS_PPM);
		dev = (dev * gtbs_normal_q16(desc->seed, block)) / 65536;
		bound = (s64)(t - max(t / 16, 1ULL));
		dev = clamp(dev, -bound, bound);
		w = t + dev;
	} else {
		dev = gtbs_two_class_ppm(desc, block);
		w = mul_u64_u64_div_u64(t, (u64)((s64)GTBS_PPM + dev),
					GTBS_PPM);
		w = clamp(w, 1ULL, 32 * GTBS_MAX_BLOCK_CYCLES);
	}
	return gtbs_startup(desc, block, w);
}

/**
 * gtbs_block_work() - work of one thread block, drawn on its own
 * @desc: the grid.
 * @block: block index, 0..nr_blocks-1.
 *
 * See gtbs_block_work_wave(), of which this is the case without a wave
 * component (%GTBS_BLOCK_TIMES_INDEPENDENT).
 *
 * Context: any.
 * Return: the block's duration alone at maximum residency, cycles, >= 1.
 */
u64 gtbs_block_work(const struct gtbs_grid_desc *desc, u32 block)
{
	return gtbs_block_work_rsd(desc, block, desc->block_rsd_ppm);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_block_work);

/**
 * gtbs_block_work_wave() - work of one thread block whose wave shares a
 *	component of it
 * @desc: the grid.
 * @block: block index, 0..nr_blocks-1.
 * @wave_blocks: blocks per wave, >= 1: the grid's maximum residency R
 *	times the device's SMs, so that wave k is blocks k R S .. (k+1) R S - 1,
 *	the blocks that run together when the grid runs alone.
 * @share_ppm: share of the variance in the wave component, 0..%GTBS_PPM.
 *
 * For a grid of shape %GTBS_DIST_NORMAL with an RSD rho: the block's work
 * is w_b (1 + d_k), d_k a normal variate of the block's wave k (seeded by
 * (@desc->seed, k) alone, standard deviation sigma_w = rho sqrt(share),
 * clamped symmetrically to +-15/16) and w_b the independent draw of
 * gtbs_block_work() with the RSD sigma_b, sigma_b^2 = (rho^2 - sigma_w^2) /
 * (1 + sigma_w^2), so that the grid keeps its mean t and its %RSD rho in
 * expectation (timing-model.rst, "Waves"); the start-up effect stays per
 * block.  Two-class shapes (a heavy block is heavy for its data), explicit
 * durations and @share_ppm 0 give gtbs_block_work()'s draw.  O(1).
 *
 * Context: any.
 * Return: the block's duration alone at maximum residency, cycles, >= 1.
 */
u64 gtbs_block_work_wave(const struct gtbs_grid_desc *desc, u32 block,
			 u32 wave_blocks, u32 share_ppm)
{
	u64 rho = desc->block_rsd_ppm, rho2 = rho * rho, sw, sw2, sb2, w;
	s64 d, bound = GTBS_PPM - GTBS_PPM / 16;

	if (!share_ppm || !wave_blocks || desc->durations || !rho ||
	    desc->block_dist != GTBS_DIST_NORMAL || desc->block_cycles < 2)
		return gtbs_block_work(desc, block);
	share_ppm = min_t(u32, share_ppm, GTBS_PPM);
	sw2 = mul_u64_u64_div_u64(rho2, share_ppm, GTBS_PPM);	/* ppm^2 */
	sw = gtbs_isqrt(sw2);
	sb2 = mul_u64_u64_div_u64(rho2 - sw2, 1000000000000ULL,
				  1000000000000ULL + sw2);
	w = gtbs_block_work_rsd(desc, block, gtbs_isqrt(sb2));
	d = ((s64)sw * gtbs_normal_q16(desc->seed ^ GTBS_STREAM_WAVE,
				       block / wave_blocks)) / 65536;
	d = clamp(d, -bound, bound);
	return max(mul_u64_u64_div_u64(w, (u64)((s64)GTBS_PPM + d), GTBS_PPM),
		   1ULL);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_block_work_wave);

/**
 * gtbs_grid_block_work() - work of one block of a grid on a device
 * @dev: the device (&gtbs_dev_config.block_times, &gtbs_dev_config.nr_sms).
 * @grid: the grid (its maximum residency &gtbs_occupancy.residency).
 * @block: block index, 0..nr_blocks-1.
 *
 * gtbs_block_work_wave() with waves of R times the device's SMs blocks and
 * %GTBS_WAVE_SHARE_PPM under %GTBS_BLOCK_TIMES_WAVE, gtbs_block_work()
 * under %GTBS_BLOCK_TIMES_INDEPENDENT.  What the engine issues.
 *
 * Context: any; @dev's configuration does not change while grids exist.
 * Return: the block's duration alone at maximum residency, cycles, >= 1.
 */
u64 gtbs_grid_block_work(const struct gtbs_dev *dev,
			 const struct gtbs_grid *grid, u32 block)
{
	if (dev->cfg.block_times != GTBS_BLOCK_TIMES_WAVE)
		return gtbs_block_work(&grid->desc, block);
	return gtbs_block_work_wave(&grid->desc, block,
				    grid->occ.residency * dev->cfg.nr_sms,
				    GTBS_WAVE_SHARE_PPM);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_block_work);

/**
 * gtbs_block_progress() - progress a block needs on its SM
 * @work: the block's work, cycles, <= GTBS_MAX_BLOCK_CYCLES.
 * @full_div: K + Lf of its grid, 1/%GTBS_WARP_SCALE warps, 1..2^27:
 *	the rate divisor the grid has alone at maximum residency
 *	(gtbs_load_div() with only the grid's own R blocks on the SM).
 *
 * Context: any.
 * Return: w / (K + Lf) in progress units (floor(@work * S * 1000 /
 * @full_div)), at least 1.
 */
u64 gtbs_block_progress(u64 work, u32 full_div)
{
	u64 scaled = work * GTBS_WARP_SCALE;	/* < 2^50 */
	u64 q = div_u64(scaled, full_div);
	u64 r = scaled - q * full_div;

	return max(q * GTBS_PROGRESS_SCALE +
		   div_u64(r * GTBS_PROGRESS_SCALE, full_div), 1ULL);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_block_progress);

/**
 * gtbs_progress_advance_rem() - gtbs_progress_advance() and
 *	gtbs_progress_remainder() in one, with two divisions
 * @cycles: elapsed emulated cycles, < 2^53.
 * @div: K + L, 1/%GTBS_WARP_SCALE warps, 1..2^27.
 * @rem: out: (@cycles * S * 1000) mod @div.
 *
 * Context: any.
 * Return: floor(@cycles * S * 1000 / @div).
 */
u64 gtbs_progress_advance_rem(u64 cycles, u32 div, u32 *rem)
{
	u64 scaled = cycles * GTBS_WARP_SCALE;
	u64 q = div_u64(scaled, div);
	u64 r = (scaled - q * div) * GTBS_PROGRESS_SCALE;
	u64 f = div_u64(r, div);

	*rem = r - f * div;
	return q * GTBS_PROGRESS_SCALE + f;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_progress_advance_rem);

/**
 * gtbs_progress_advance() - progress a rate group makes in some cycles
 * @cycles: elapsed emulated cycles, < 2^53.
 * @div: the group's rate divisor K + L, 1/%GTBS_WARP_SCALE warps, 1..2^27.
 *
 * Context: any.
 * Return: floor(@cycles * S * 1000 / @div) in progress units: floor(@cycles
 * / (K + L)) units of 1/S.
 */
u64 gtbs_progress_advance(u64 cycles, u32 div)
{
	u32 rem;

	return gtbs_progress_advance_rem(cycles, div, &rem);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_progress_advance);

/**
 * gtbs_progress_cycles() - cycles a rate group needs to make some progress
 * @progress: progress units, < 2^56.
 * @div: K + L, 1/%GTBS_WARP_SCALE warps, 1..2^27.
 *
 * The inverse of gtbs_progress_advance(), rounded up, so that advancing by
 * the result reaches at least @progress.  Divides only by constants.
 *
 * Context: any.
 * Return: ceil(@progress * @div / (S * 1000)) in cycles.
 */
u64 gtbs_progress_cycles(u64 progress, u32 div)
{
	u64 hi = (progress / GTBS_PROGRESS_SCALE) * div;	/* < 2^62 */
	u64 lo = (progress % GTBS_PROGRESS_SCALE) * div;	/* < 2^42 */
	u64 q = div_u64(hi, GTBS_WARP_SCALE);
	u64 r = hi - q * GTBS_WARP_SCALE;

	return q + div_u64(r * GTBS_PROGRESS_SCALE + lo +
			   GTBS_PROGRESS_SCALE * GTBS_WARP_SCALE - 1,
			   GTBS_PROGRESS_SCALE * GTBS_WARP_SCALE);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_progress_cycles);

/**
 * gtbs_progress_remainder() - what gtbs_progress_advance() rounded away
 * @cycles: elapsed emulated cycles, < 2^53.
 * @div: K + L, 1/%GTBS_WARP_SCALE warps, 1..2^27.
 *
 * gtbs_progress_advance() returns floor(@cycles * S * 1000 / @div); this
 * returns the remainder of that division, in units of 1 / @div progress
 * unit, so a caller that advances in several steps can carry it and stay
 * exact.
 *
 * Context: any.
 * Return: (@cycles * S * 1000) mod @div, 0..@div-1.
 */
u32 gtbs_progress_remainder(u64 cycles, u32 div)
{
	u32 rem;

	gtbs_progress_advance_rem(cycles, div, &rem);
	return rem;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_progress_remainder);

/**
 * gtbs_load_div() - a grid's rate divisor on an SM: its knee plus the load
 *	it sees
 * @knee: the grid's knee K, 1/%GTBS_WARP_SCALE warps (its
 *	&gtbs_grid_desc.knee_mwarps, or the device's K times 1000).
 * @mem_ppm: the grid's memory share phi, 0..%GTBS_PPM.
 * @load_issue: the SM's issue load, sum over resident blocks of
 *	warps * (1 - phi), warps * ppm (&gtbs_sm.load_issue).
 * @load_mem: the SM's memory load, sum of warps * phi, warps * ppm.
 *
 * The demand-overlap model (timing-model.rst "Co-runners"): a warp of the
 * grid sees the load of each pipe weighted by its own share of demand on
 * that pipe, normalised so that its own grid alone counts exactly its
 * warps::
 *
 *   L_eff = ((1 - phi) * load_issue + phi * load_mem) / ((1 - phi)^2 + phi^2)
 *
 * With every grid at the same phi (e.g. none declaring one), L_eff is the
 * SM's warp count L, the model of the first release.
 *
 * Context: any.
 * Return: K + L_eff, 1/%GTBS_WARP_SCALE warps, rounded down.
 */
u32 gtbs_load_div(u32 knee, u32 mem_ppm, u64 load_issue, u64 load_mem)
{
	u64 a = GTBS_PPM - mem_ppm, b = mem_ppm;
	u64 norm = a * a + b * b;	/* 5 * 10^11 .. 10^12 */
	u64 num, q;

	/* one pipe only: L_eff is that pipe's load (the same floor) */
	if (!b)
		return knee + (u32)div_u64(load_issue, GTBS_PPM / GTBS_WARP_SCALE);
	if (!a)
		return knee + (u32)div_u64(load_mem, GTBS_PPM / GTBS_WARP_SCALE);
	/* loads <= 2^15 warps * 10^6: the sum < 2^56 */
	num = a * load_issue + b * load_mem;
	q = div64_u64(num, norm);

	return knee + (u32)(q * GTBS_WARP_SCALE +
			    div64_u64((num - q * norm) * GTBS_WARP_SCALE, norm));
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_load_div);
