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
 * gtbs_grid_size() - bytes to allocate for one grid
 * @cfg: device configuration.
 *
 * The grid, its &gtbs_grid_sm per SM, then the predictor's Block_Start[]
 * of every SM, &gtbs_dev_config.max_blocks_per_sm cycles each (bound by
 * gtbs_grid_init()): 160 bytes per SM at the paper's 8 slots.
 *
 * Context: any.
 * Return: size of &struct gtbs_grid with its per-SM state, bytes.
 */
size_t gtbs_grid_size(const struct gtbs_dev_config *cfg)
{
	return sizeof(struct gtbs_grid) +
	       cfg->nr_sms * (sizeof(struct gtbs_grid_sm) +
			      cfg->max_blocks_per_sm * sizeof(u64));
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_size);

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
 * @grid: gtbs_grid_size() bytes.
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
	u64 *starts;
	bool uniform;
	u32 i;

	if (ret)
		return ret;
	memset(grid, 0, gtbs_grid_size(&dev->cfg));
	starts = (u64 *)&grid->sm[dev->cfg.nr_sms];
	for (i = 0; i < dev->cfg.nr_sms; i++)
		gtbs_pred_init(&grid->sm[i].pred,
			       starts + i * dev->cfg.max_blocks_per_sm,
			       dev->cfg.max_blocks_per_sm);
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
	INIT_LIST_HEAD(&grid->pending_node);
	INIT_LIST_HEAD(&grid->timeout_node);
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
