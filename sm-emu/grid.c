// SPDX-License-Identifier: GPL-2.0
/*
 * grid.c - a grid: its description, checks, work model and priority class.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Grid
 *
 * What a grid is before and outside the event loop (engine.c): the
 * checks of its description (gtbs_grid_desc_check()), its initialisation
 * with its occupancy and timing-model constants (gtbs_grid_init()), its
 * alone runtime by Equation 1 (gtbs_grid_alone_cycles()), its job timeout
 * and its effective priority class under the starvation guard.  Its life
 * on the device (submission, launch, block issue and retirement, cancel,
 * timeout, end) is the engine's.
 */
#include "gtbs.h"
#include "gtbs_names.h"
#include "../uapi/linux/gputbs.h"

/**
 * DOC: Per-(grid, SM) state
 *
 * A grid's state on an SM (&struct gtbs_grid_sm, a "pair": its resident
 * count, the predictor's state with its Block_Start[], the policy's area)
 * exists only on the SMs the grid issued a block on, so a grid's memory
 * does not grow with the SM count beyond one pointer per SM
 * (&gtbs_grid.sm): a grid that runs on 4 SMs of 132 holds 4 pairs.  Every
 * reader goes through gtbs_grid_sm() and treats NULL as "nothing here"
 * (no resident block, no prediction); observers that print an SM's
 * predictor state read gtbs_grid_sm_view(), the state a pair would start
 * with, so their output does not depend on which pairs exist.
 *
 * The core runs under the owner's device lock, a spinlock in the module,
 * so it does not allocate there: the dispatch takes a new pair from the
 * device's reserve (&gtbs_dev.spare), which the owner tops up outside the
 * lock (gtbs_dev_spare_wanted(), gtbs_dev_spare_add()).  Userland owners
 * and KUnit's devices may leave &gtbs_dev.spare_only false instead: the
 * core then asks the owner's allocator (&gtbs_dev.pair_alloc) for a pair
 * when the reserve is empty; the core itself references no allocator.
 * Accepted work is never lost for want of a pair::
 *
 *   owner: kzalloc/calloc, outside the lock
 *     |
 *     v  gtbs_dev_spare_add()
 *   &gtbs_dev.spare ---first block of G on SM s (gtbs_grid_sm_get())---+
 *     ^       |                                                          |
 *     |       | empty (and spare_only): the issue is deferred: the SM    v
 *     |       | stays kicked at its cycle, gtbs_dev_run_bounded()    G->sm[s]
 *     |       | stops (false) and the owner refills and runs again   (on G->sms)
 *     |       v                                                          |
 *     |   gtbs_dev_spare_free() at teardown                              |
 *     +---------- gtbs_grid_release(): the grid left, or is freed -------+
 *
 * With &gtbs_dev.spare_only, gtbs_dev_run_bounded() also stops before an
 * SM event while fewer than &gtbs_dev.spare_low pairs are spare, more than
 * one event's dispatches can create: such a stop, like the end of a
 * budget, changes nothing in the schedule.  Only if the owner could not
 * refill (its allocation failed) does a dispatch find the reserve empty;
 * the SM then re-evaluates at the same cycle once pairs are there, which
 * may order it after other SMs' events of that cycle.
 */

/**
 * gtbs_grid_size() - bytes to allocate for one grid
 * @cfg: device configuration.
 *
 * The grid and one pointer per SM (&gtbs_grid.sm); its per-SM states are
 * separate objects created where it runs (gtbs_grid_sm_size(), "Per-(grid,
 * SM) state" above).
 *
 * Context: any.
 * Return: size of &struct gtbs_grid with its pointers, bytes.
 */
size_t gtbs_grid_size(const struct gtbs_dev_config *cfg)
{
	return sizeof(struct gtbs_grid) +
	       cfg->nr_sms * sizeof(struct gtbs_grid_sm *);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_size);

/**
 * gtbs_grid_sm_size() - bytes of one per-(grid, SM) state
 * @cfg: device configuration.
 *
 * &struct gtbs_grid_sm and its Block_Start[],
 * &gtbs_dev_config.max_blocks_per_sm cycles: 256 bytes at the paper's 8
 * slots.  What an owner allocates for gtbs_dev_spare_add().
 *
 * Context: any.
 * Return: bytes.
 */
size_t gtbs_grid_sm_size(const struct gtbs_dev_config *cfg)
{
	return sizeof(struct gtbs_grid_sm) +
	       cfg->max_blocks_per_sm * sizeof(u64);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_sm_size);

/*
 * A pair as the grid's launch left it on every SM (or, before the launch,
 * as gtbs_pred_init() leaves it), the policy's area zero.  Arguments were
 * checked at submit, so the predictor calls cannot fail.
 */
static void gtbs_grid_sm_setup(const struct gtbs_dev *dev,
			       const struct gtbs_grid *grid,
			       struct gtbs_grid_sm *gs, u64 *block_start)
{
	memset(gs->policy_priv, 0, sizeof(gs->policy_priv));
	gs->resident = 0;
	gs->slice_gen = 0;
	memset(&gs->pred, 0, sizeof(gs->pred));
	gs->pred.block_start = block_start;
	gs->pred.nr_slots = dev->cfg.max_blocks_per_sm;
	if (!grid->launched) {
		gtbs_pred_on_launch(&gs->pred, 1, 1, 1);
		return;
	}
	gtbs_slice_join(&gs->pred, &gs->slice_gen, grid->launch_gen,
			grid->desc.nr_blocks, grid->occ.residency,
			dev->cfg.nr_sms, grid->launch_unaware,
			grid->launch_literal);
}

/**
 * gtbs_grid_sm_get() - a grid's state on an SM, created if it has none
 * @dev: the device.
 * @grid: a QUEUED or RUNNING grid.
 * @sm: index of the SM.
 *
 * Takes a new pair from &gtbs_dev.spare, or, when that is empty and the
 * owner allows it (&gtbs_dev.spare_only false), asks the owner's
 * &gtbs_dev.pair_alloc for one (it does not sleep).  The engine calls it before a
 * block of @grid issues on @sm; a policy that must keep state on an SM
 * where the grid never ran may call it too (and copes with NULL).
 *
 * Context: device lock held.
 * Return: the pair, or NULL when none could be had (the caller defers).
 */
struct gtbs_grid_sm *gtbs_grid_sm_get(struct gtbs_dev *dev,
				      struct gtbs_grid *grid, u32 sm)
{
	struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm);

	gtbs_lockdep_assert_held(dev);
	if (gs)
		return gs;
	if (dev->nr_spare) {
		gs = list_first_entry(&dev->spare, struct gtbs_grid_sm, node);
		list_del(&gs->node);
		dev->nr_spare--;
	} else if (!dev->spare_only && dev->pair_alloc &&
		   dev->pair_alloc->zalloc) {
		gs = dev->pair_alloc->zalloc(gtbs_grid_sm_size(&dev->cfg));
	}
	if (!gs)
		return NULL;
	gtbs_grid_sm_setup(dev, grid, gs, gs->block_start);
	gs->sm = sm;
	list_add_tail(&gs->node, &grid->sms);
	grid->nr_sms_used++;
	grid->sm[sm] = gs;
	return gs;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_sm_get);

/**
 * gtbs_grid_sm_view() - a grid's state on an SM as an observer prints it
 * @dev: the device.
 * @grid: the grid.
 * @sm: index of the SM.
 * @view: out: a copy of the grid's pair on @sm, or, where it has none,
 *	the state a pair created now would start with (the launch's, with no
 *	block and no prediction); @view->pred.block_start is not to be read.
 *
 * For debugfs and the observers: what they print does not depend on
 * which pairs exist, and is what a state kept on every SM would show.
 *
 * Context: device lock held.
 */
void gtbs_grid_sm_view(const struct gtbs_dev *dev,
		       const struct gtbs_grid *grid, u32 sm,
		       struct gtbs_grid_sm *view)
{
	const struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm);

	gtbs_lockdep_assert_held(dev);
	if (gs) {
		*view = *gs;
		return;
	}
	gtbs_grid_sm_setup(dev, grid, view, NULL);
	view->sm = sm;
	INIT_LIST_HEAD(&view->node);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_sm_view);

/**
 * gtbs_grid_release() - give a grid's per-SM states back to the device
 * @dev: the device.
 * @grid: a grid initialised by gtbs_grid_init() that is not on the device:
 *	never submitted, or DONE, CANCELLED or TIMED_OUT (it left).
 *
 * Moves every pair of @grid to &gtbs_dev.spare (the next grids reuse
 * them) and clears &gtbs_grid.sm.  Every owner calls it before it frees
 * or reuses a grid's memory; calling it twice is harmless.
 *
 * Context: device lock held.  O(1) in the pairs (a list splice) plus a
 * memset of the pointers, 8 bytes per SM.
 */
void gtbs_grid_release(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	gtbs_lockdep_assert_held(dev);
	if (list_empty(&grid->sms))
		return;
	/* one splice, not a walk of pairs scattered in memory */
	list_splice_init(&grid->sms, &dev->spare);
	dev->nr_spare += grid->nr_sms_used;
	grid->nr_sms_used = 0;
	memset(grid->sm, 0, dev->cfg.nr_sms * sizeof(grid->sm[0]));
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_release);

/**
 * gtbs_grid_free_sms() - free a grid's per-SM states
 * @pa: the allocator of the grid's device (&gtbs_dev.pair_alloc), whose
 *	&gtbs_pair_alloc.free frees each pair.
 * @grid: a grid initialised by gtbs_grid_init() that left its device
 *	(DONE, CANCELLED or TIMED_OUT) or never arrived.
 *
 * gtbs_grid_release() without the device: frees every pair of @grid with
 * @pa->free, for an owner that frees grids outside its device lock (the
 * module, when the last reference to a grid goes).  Calling it twice is
 * harmless.
 *
 * Context: any; the caller owns @grid (no device reads it any more).
 */
void gtbs_grid_free_sms(const struct gtbs_pair_alloc *pa,
			struct gtbs_grid *grid)
{
	struct gtbs_grid_sm *gs, *tmp;

	list_for_each_entry_safe(gs, tmp, &grid->sms, node) {
		grid->sm[gs->sm] = NULL;
		list_del(&gs->node);
		pa->free(gs);
	}
	grid->nr_sms_used = 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_free_sms);

/**
 * gtbs_dev_spare_add() - give the device a spare per-(grid, SM) state
 * @dev: the device.
 * @gs: gtbs_grid_sm_size() bytes from the owner, any content; the device
 *	frees it with &gtbs_dev.pair_alloc's &gtbs_pair_alloc.free
 *	(gtbs_dev_spare_free()), so it must come from the allocator that
 *	matches (kzalloc()/kmalloc() in the kernel, malloc() in userland).
 *
 * Context: device lock held.
 */
void gtbs_dev_spare_add(struct gtbs_dev *dev, struct gtbs_grid_sm *gs)
{
	gtbs_lockdep_assert_held(dev);
	list_add(&gs->node, &dev->spare);
	dev->nr_spare++;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_spare_add);

/**
 * gtbs_dev_spare_wanted() - how many spare pairs an owner should add
 * @dev: the device.
 *
 * The reserve an owner keeps before it runs the device: &gtbs_dev.spare_low
 * plus one per SM (a grid that arrives at an idle device issues a block on
 * every SM at once), less what is spare.  Read without the lock it is a
 * hint (READ_ONCE()); adding more is harmless.
 *
 * Context: any.
 * Return: pairs to add, 0 when the reserve is full.
 */
u32 gtbs_dev_spare_wanted(const struct gtbs_dev *dev)
{
	u32 want = READ_ONCE(dev->spare_low) + dev->cfg.nr_sms;
	u32 have = READ_ONCE(dev->nr_spare);

	return have < want ? want - have : 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_spare_wanted);

/**
 * gtbs_dev_spare_free() - free every spare per-(grid, SM) state
 * @dev: the device; its grids were released first (gtbs_grid_release()).
 *
 * For the owner's teardown, and before the configuration changes (a pair's
 * size depends on &gtbs_dev_config.max_blocks_per_sm).
 *
 * Context: device lock held, or a device no one else uses.
 */
void gtbs_dev_spare_free(struct gtbs_dev *dev)
{
	struct gtbs_grid_sm *gs, *tmp;

	list_for_each_entry_safe(gs, tmp, &dev->spare, node) {
		list_del(&gs->node);
		dev->pair_alloc->free(gs);
	}
	dev->nr_spare = 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_spare_free);

/* Index of the label's first byte that is not printable, or its length. */
static u32 gtbs_label_bad(const char *label)
{
	unsigned int i;

	for (i = 0; i < GTBS_LABEL_LEN; i++) {
		if (!label[i])
			return GTBS_LABEL_LEN + 1;	/* fine */
		if (label[i] < 0x20 || label[i] > 0x7e)
			return i;
	}
	return GTBS_LABEL_LEN;	/* no NUL */
}

/* Record a failed check in @err.  Returns -EINVAL, for a tail call. */
static int gtbs_err(struct gtbs_grid_err *err, u32 reason, u64 value,
		    u64 limit, const char *why)
{
	err->reason = reason;
	err->value = value;
	err->limit = limit;
	err->why = why;
	return -EINVAL;
}

/*
 * The grid does not fit on an SM (R = 0): which resource, what one block
 * needs of it and what an SM has, in the order of gtbs_occupancy_calc().
 */
static int gtbs_fit_err(const struct gtbs_dev_config *cfg,
			const struct gtbs_grid_desc *desc,
			struct gtbs_grid_err *err)
{
	u32 warps = DIV_ROUND_UP(desc->threads_per_block, cfg->warp_size);
	u64 regs = round_up((u64)desc->regs_per_thread * cfg->warp_size,
			    (u64)cfg->reg_alloc_unit) * warps;
	u64 shmem = round_up((u64)desc->shmem_per_block,
			     (u64)cfg->shmem_alloc_unit);

	if ((u64)warps * cfg->warp_size > cfg->max_threads_per_sm)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_FIT_THREADS,
				(u64)warps * cfg->warp_size,
				cfg->max_threads_per_sm,
				"a thread block needs more threads than an SM has");
	if (warps > cfg->max_warps_per_sm)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_FIT_WARPS, warps,
				cfg->max_warps_per_sm,
				"a thread block needs more warps than an SM has");
	if (regs > cfg->max_regs_per_sm)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_FIT_REGS, regs,
				cfg->max_regs_per_sm,
				"a thread block needs more registers than an SM has");
	if (shmem > cfg->max_shmem_per_sm)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_FIT_SHMEM, shmem,
				cfg->max_shmem_per_sm,
				"a thread block needs more shared memory than an SM has");
	return gtbs_err(err, GPUTBS_SUBMIT_ERR_FIT_BLOCKS, 1,
			cfg->max_blocks_per_sm,
			"a thread block does not fit on an SM");
}

/* The shape's members (block_dist, its parameter, the start-up effect). */
static int gtbs_dist_verify(const struct gtbs_grid_desc *desc,
			    struct gtbs_grid_err *err)
{
	if (desc->block_dist >= GTBS_NR_BLOCK_DISTS)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_BLOCK_DIST,
				desc->block_dist, GTBS_NR_BLOCK_DISTS - 1,
				"unknown block_dist");
	if (desc->block_dist == GTBS_DIST_NORMAL && desc->block_dist_param)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_DIST_PARAM,
				desc->block_dist_param, 0,
				"block_dist_param must be 0 for the normal distribution");
	if (desc->block_dist == GTBS_DIST_SKEWED &&
	    (desc->block_dist_param < GTBS_SKEWED_MIN_PPM ||
	     desc->block_dist_param > GTBS_SKEWED_MAX_PPM))
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_DIST_PARAM,
				desc->block_dist_param,
				desc->block_dist_param < GTBS_SKEWED_MIN_PPM ?
				GTBS_SKEWED_MIN_PPM : GTBS_SKEWED_MAX_PPM,
				"skewed: block_dist_param (heavy share) must be 1000..500000");
	if (desc->block_dist == GTBS_DIST_PEAKED &&
	    desc->block_dist_param > GTBS_PPM)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_DIST_PARAM,
				desc->block_dist_param, GTBS_PPM,
				"peaked: block_dist_param 0..1000000 and block_rsd_ppm at most 540000");
	if (desc->block_dist == GTBS_DIST_PEAKED &&
	    desc->block_rsd_ppm > GTBS_PEAKED_MAX_RSD_PPM)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_DIST_PARAM,
				desc->block_rsd_ppm, GTBS_PEAKED_MAX_RSD_PPM,
				"peaked: block_dist_param 0..1000000 and block_rsd_ppm at most 540000");
	if (desc->startup_ppm > 16 * GTBS_PPM ||
	    desc->startup_blocks > desc->nr_blocks ||
	    !desc->startup_ppm != !desc->startup_blocks)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_STARTUP,
				desc->startup_ppm, desc->nr_blocks,
				"startup_ppm (0..16000000) and startup_blocks (1..nr_blocks) go together");
	return 0;
}

/**
 * gtbs_grid_desc_verify() - validate a grid description, saying why not
 * @cfg: device configuration.
 * @desc: the grid.
 * @err: out: on error the uapi's reason code (&enum gputbs_submit_err),
 *	the offending value, the limit it broke and a static string for a
 *	person to read; all zero (and NULL) when valid.
 *
 * Checks each field's range (uapi/linux/gputbs.h), the label, that one
 * block fits on an SM (which resource does not: threads, warps,
 * registers, shared memory, block slots, with what one block needs and
 * what an SM has), and every explicit duration (value: the block's
 * index), in this order.  The module's SUBMIT and the simulator report
 * the same codes from here.
 *
 * Context: any.
 * Return: 0; -E2BIG if @desc->nr_blocks exceeds max_blocks_per_grid;
 * -EINVAL for any other invalid field.
 */
int gtbs_grid_desc_verify(const struct gtbs_dev_config *cfg,
			  const struct gtbs_grid_desc *desc,
			  struct gtbs_grid_err *err)
{
	struct gtbs_occupancy occ;
	u32 i, bad;
	int ret;

	memset(err, 0, sizeof(*err));
	if (desc->nr_blocks > cfg->max_blocks_per_grid) {
		gtbs_err(err, GPUTBS_SUBMIT_ERR_NR_BLOCKS, desc->nr_blocks,
			 cfg->max_blocks_per_grid,
			 "nr_blocks exceeds max_blocks_per_grid");
		return -E2BIG;
	}
	if (!desc->nr_blocks)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_NR_BLOCKS_ZERO, 0, 0,
				"nr_blocks must be at least 1");
	if (!desc->threads_per_block ||
	    desc->threads_per_block > cfg->max_threads_per_block)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_THREADS,
				desc->threads_per_block,
				cfg->max_threads_per_block,
				"threads_per_block out of range");
	if (desc->regs_per_thread > cfg->max_regs_per_thread)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_REGS,
				desc->regs_per_thread, cfg->max_regs_per_thread,
				"regs_per_thread exceeds max_regs_per_thread");
	if (desc->shmem_per_block > cfg->max_shmem_per_sm)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_SHMEM,
				desc->shmem_per_block, cfg->max_shmem_per_sm,
				"shmem_per_block exceeds the SM's shared memory");
	if (desc->block_rsd_ppm > GTBS_PPM)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_RSD, desc->block_rsd_ppm,
				GTBS_PPM, "block_rsd_ppm exceeds 1000000");
	if (!desc->durations && (!desc->block_cycles ||
				 desc->block_cycles > GTBS_MAX_BLOCK_CYCLES))
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_BLOCK_CYCLES,
				desc->block_cycles, GTBS_MAX_BLOCK_CYCLES,
				"block_cycles must be 1..2^40");
	if (desc->prio_class >= GTBS_NR_PRIO_CLASSES)
		/* the uapi's numbering: the core's class + 1 */
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_PRIO_CLASS,
				(u64)desc->prio_class + 1, GTBS_NR_PRIO_CLASSES,
				"prio_class out of range");
	if (desc->timeout_cycles > GTBS_MAX_TIMEOUT_CYCLES)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_TIMEOUT,
				desc->timeout_cycles, GTBS_MAX_TIMEOUT_CYCLES,
				"timeout_cycles exceeds 2^62");
	bad = gtbs_label_bad(desc->label);
	if (bad <= GTBS_LABEL_LEN)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_LABEL, bad,
				GTBS_LABEL_LEN,
				"label must be NUL-terminated printable ASCII");
	if (desc->mem_ppm > GTBS_PPM)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_MEM_PPM, desc->mem_ppm,
				GTBS_PPM, "mem_ppm exceeds 1000000");
	if (desc->knee_mwarps > GTBS_MAX_KNEE_MWARPS)
		return gtbs_err(err, GPUTBS_SUBMIT_ERR_KNEE, desc->knee_mwarps,
				GTBS_MAX_KNEE_MWARPS,
				"knee_mwarps exceeds 1024000 (1024 warps)");
	ret = gtbs_dist_verify(desc, err);
	if (ret)
		return ret;
	if (gtbs_occupancy_calc(cfg, desc, &occ))
		return gtbs_fit_err(cfg, desc, err);
	for (i = 0; desc->durations && i < desc->nr_blocks; i++)
		if (!desc->durations[i] ||
		    desc->durations[i] > GTBS_MAX_BLOCK_CYCLES)
			return gtbs_err(err, GPUTBS_SUBMIT_ERR_DURATION, i,
					GTBS_MAX_BLOCK_CYCLES,
					"each block duration must be 1..2^40 cycles");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_desc_verify);

/**
 * gtbs_grid_desc_check() - validate a grid description
 * @cfg: device configuration.
 * @desc: the grid.
 * @why: out: reason for a rejection, a static string for a person to read.
 *
 * gtbs_grid_desc_verify() for a caller that wants only the string.
 *
 * Context: any.
 * Return: 0; -E2BIG if @desc->nr_blocks exceeds max_blocks_per_grid;
 * -EINVAL for any other invalid field.
 */
int gtbs_grid_desc_check(const struct gtbs_dev_config *cfg,
			 const struct gtbs_grid_desc *desc, const char **why)
{
	struct gtbs_grid_err err;
	int ret = gtbs_grid_desc_verify(cfg, desc, &err);

	*why = err.why;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_desc_check);

/**
 * gtbs_grid_init_err() - initialise a grid before submission
 * @dev: the device (its configuration is read).
 * @grid: gtbs_grid_size() bytes, holding no per-SM state (new, or
 *	released with gtbs_grid_release()).
 * @desc: the grid's description; copied.  @desc->durations is borrowed.
 * @err: out: why it was rejected (gtbs_grid_desc_verify()).
 *
 * Context: any; takes no lock (reads only &gtbs_dev.cfg, which is constant
 * while grids exist).
 * Return: 0, or the error of gtbs_grid_desc_verify().
 */
int gtbs_grid_init_err(struct gtbs_dev *dev, struct gtbs_grid *grid,
		       const struct gtbs_grid_desc *desc,
		       struct gtbs_grid_err *err)
{
	int ret = gtbs_grid_desc_verify(&dev->cfg, desc, err);
	bool uniform;

	if (ret)
		return ret;
	memset(grid, 0, gtbs_grid_size(&dev->cfg));
	INIT_LIST_HEAD(&grid->sms);
	grid->desc = *desc;
	gtbs_occupancy_calc(&dev->cfg, desc, &grid->occ);
	/* the uniform model: every grid issue-bound at the device's knee */
	uniform = dev->cfg.timing_model == GTBS_TIMING_UNIFORM;
	grid->mem_ppm = uniform ? 0 : desc->mem_ppm;
	grid->knee = (!uniform && desc->knee_mwarps) ?
		     desc->knee_mwarps :
		     dev->cfg.load_knee_warps * GTBS_WARP_SCALE;
	/* alone at R the grid sees exactly its own warps: K + R W */
	grid->full_div = grid->knee + grid->occ.residency * grid->occ.warps *
				      GTBS_WARP_SCALE;
	grid->alone_cycles = gtbs_grid_alone_cycles(&dev->cfg, desc, &grid->occ);
	grid->state = GTBS_GRID_NEW;
	INIT_LIST_HEAD(&grid->node);
	RB_CLEAR_NODE(&grid->arrival_node);
	INIT_LIST_HEAD(&grid->pending_node);
	INIT_LIST_HEAD(&grid->timeout_node);
	RB_CLEAR_NODE(&grid->timeout_rb);
	INIT_LIST_HEAD(&grid->saved);
	INIT_LIST_HEAD(&grid->after_node);
	INIT_LIST_HEAD(&grid->dependents);
	grid->expire_cycle = U64_MAX;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_init_err);

/**
 * gtbs_grid_init() - initialise a grid before submission
 * @dev: the device (its configuration is read).
 * @grid: gtbs_grid_size() bytes.
 * @desc: the grid's description; copied.  @desc->durations is borrowed.
 * @why: out: reason for a rejection.
 *
 * gtbs_grid_init_err() for a caller that wants only the string.
 *
 * Context: any; takes no lock (reads only &gtbs_dev.cfg, which is constant
 * while grids exist).
 * Return: 0, or the error of gtbs_grid_desc_check().
 */
int gtbs_grid_init(struct gtbs_dev *dev, struct gtbs_grid *grid,
		   const struct gtbs_grid_desc *desc, const char **why)
{
	struct gtbs_grid_err err;
	int ret = gtbs_grid_init_err(dev, grid, desc, &err);

	*why = err.why;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_init);

/**
 * gtbs_grid_timeout() - the job timeout that applies to a grid
 * @dev: the device.
 * @grid: the grid.
 *
 * The lower of the device's (&gtbs_dev.timeout_cycles) and the grid's own
 * (&gtbs_grid_desc.timeout_cycles), ignoring either when 0: a submitter
 * may ask for a shorter timeout than the device's, never a longer one.
 * The timeout counts from the grid's first block's start, like a GPU
 * watchdog or the DRM scheduler's job timeout (drm_sched's timedout_job):
 * time spent queued behind other grids does not count against it.
 *
 * Context: device lock held.
 * Return: emulated cycles, 0 when no timeout applies.
 */
u64 gtbs_grid_timeout(const struct gtbs_dev *dev, const struct gtbs_grid *grid)
{
	u64 dt = dev->timeout_cycles, gt = grid->desc.timeout_cycles;

	if (!dt || !gt)
		return dt | gt;
	return min(dt, gt);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_timeout);

/**
 * gtbs_grid_class() - a grid's effective priority class
 * @dev: the device.
 * @grid: a QUEUED or RUNNING grid.
 * @now: the current emulated cycle.
 *
 * The class the grid was submitted with, one higher (at most
 * %GTBS_PRIO_REALTIME) while the starvation guard promotes it: it has
 * unissued blocks and none was issued for more than
 * &gtbs_dev.starve_cycles.
 *
 * Context: device lock held.
 * Return: an &enum gtbs_prio_class.
 */
u32 gtbs_grid_class(const struct gtbs_dev *dev, const struct gtbs_grid *grid,
		    u64 now)
{
	u32 class = grid->desc.prio_class;

	if (dev->starve_cycles && class < GTBS_PRIO_REALTIME &&
	    gtbs_grid_has_blocks(grid) &&
	    now > grid->last_issue_cycle &&
	    now - grid->last_issue_cycle > dev->starve_cycles)
		class++;
	return class;
}
EXPORT_SYMBOL_GPL(gtbs_grid_class);

/**
 * gtbs_grid_alone_cycles() - a grid's alone runtime from its work model
 * @cfg: device configuration.
 * @desc: the grid, checked with gtbs_grid_desc_check().
 * @occ: its occupancy, residency R >= 1.
 *
 * The staircase model, paper Equation 1: T = ceil(N / R) * t with N =
 * ceil(Blocks / N_SM) blocks per SM and t the mean block duration alone
 * at R (&gtbs_grid_desc.block_cycles, or the mean of the explicit
 * durations, rounded up).  The key of the srtf-oracle, sjf and ljf
 * evaluation baselines, which know what no online scheduler can.
 *
 * Context: any.
 * Return: cycles, saturating at U64_MAX.
 */
u64 gtbs_grid_alone_cycles(const struct gtbs_dev_config *cfg,
			   const struct gtbs_grid_desc *desc,
			   const struct gtbs_occupancy *occ)
{
	u32 per_sm = (desc->nr_blocks - 1) / cfg->nr_sms + 1;
	u32 waves = (per_sm - 1) / max(occ->residency, 1U) + 1;
	u64 t = desc->block_cycles, sum = 0;
	u32 i;

	if (desc->durations) {
		/* each duration is at most 2^40, the count below 2^24 */
		for (i = 0; i < desc->nr_blocks; i++)
			sum += desc->durations[i];
		t = div64_u64(sum + desc->nr_blocks - 1, desc->nr_blocks);
	}
	return t > div64_u64(U64_MAX, waves) ? U64_MAX : t * waves;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_alone_cycles);

/**
 * gtbs_prio_class_check() - may a submitter use a priority class
 * @prio_class: the requested &enum gtbs_prio_class.
 * @may_raise: the submitter may raise priority (in the module:
 *	capable(CAP_SYS_NICE), as for nice(2) below 0).
 *
 * Classes above %GTBS_PRIO_NORMAL preempt other users' grids, so only a
 * privileged submitter may use them; %GTBS_PRIO_LOW and the default are
 * open to everyone.
 *
 * Context: any.
 * Return: 0; -EINVAL for an unknown class; -EPERM for a class above normal
 * without @may_raise.
 */
int gtbs_prio_class_check(u32 prio_class, bool may_raise)
{
	if (prio_class >= GTBS_NR_PRIO_CLASSES)
		return -EINVAL;
	if (prio_class > GTBS_PRIO_NORMAL && !may_raise)
		return -EPERM;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_prio_class_check);

/**
 * gtbs_prio_class_name() - name of a priority class
 * @prio_class: &enum gtbs_prio_class.
 *
 * Context: any.
 * Return: "low", "normal", "high", "realtime", or "?" out of range.
 */
const char *gtbs_prio_class_name(u32 prio_class)
{
	static const char * const names[GTBS_NR_PRIO_CLASSES] = {
		GTBS_PRIO_CLASS_NAMES(GTBS_PRIO_)
	};

	return prio_class < GTBS_NR_PRIO_CLASSES ? names[prio_class] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_prio_class_name);
