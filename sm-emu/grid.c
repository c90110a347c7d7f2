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

static bool gtbs_label_ok(const char *label)
{
	unsigned int i;

	for (i = 0; i < GTBS_LABEL_LEN; i++) {
		if (!label[i])
			return true;
		if (label[i] < 0x20 || label[i] > 0x7e)
			return false;
	}
	return false;
}

/**
 * gtbs_grid_desc_check() - validate a grid description
 * @cfg: device configuration.
 * @desc: the grid.
 * @why: out: reason for a rejection, a static string for a person to read.
 *
 * Checks each field's range (uapi/linux/gputbs.h), every explicit
 * duration, the label, and that at least one block fits on an SM.
 *
 * Context: any.
 * Return: 0; -E2BIG if @desc->nr_blocks exceeds max_blocks_per_grid;
 * -EINVAL for any other invalid field.
 */
int gtbs_grid_desc_check(const struct gtbs_dev_config *cfg,
			 const struct gtbs_grid_desc *desc, const char **why)
{
	struct gtbs_occupancy occ;
	u32 i;

	*why = NULL;
	if (desc->nr_blocks > cfg->max_blocks_per_grid) {
		*why = "nr_blocks exceeds max_blocks_per_grid";
		return -E2BIG;
	}
	if (!desc->nr_blocks)
		*why = "nr_blocks must be at least 1";
	else if (!desc->threads_per_block ||
		 desc->threads_per_block > cfg->max_threads_per_block)
		*why = "threads_per_block out of range";
	else if (desc->regs_per_thread > cfg->max_regs_per_thread)
		*why = "regs_per_thread exceeds max_regs_per_thread";
	else if (desc->shmem_per_block > cfg->max_shmem_per_sm)
		*why = "shmem_per_block exceeds the SM's shared memory";
	else if (desc->block_rsd_ppm > GTBS_PPM)
		*why = "block_rsd_ppm exceeds 1000000";
	else if (!desc->durations && (!desc->block_cycles ||
				      desc->block_cycles > GTBS_MAX_BLOCK_CYCLES))
		*why = "block_cycles must be 1..2^40";
	else if (desc->prio_class >= GTBS_NR_PRIO_CLASSES)
		*why = "prio_class out of range";
	else if (desc->timeout_cycles > GTBS_MAX_TIMEOUT_CYCLES)
		*why = "timeout_cycles exceeds 2^62";
	else if (!gtbs_label_ok(desc->label))
		*why = "label must be NUL-terminated printable ASCII";
	else if (desc->mem_ppm > GTBS_PPM)
		*why = "mem_ppm exceeds 1000000";
	else if (desc->knee_mwarps > GTBS_MAX_KNEE_MWARPS)
		*why = "knee_mwarps exceeds 1024000 (1024 warps)";
	else if (desc->block_dist >= GTBS_NR_BLOCK_DISTS)
		*why = "unknown block_dist";
	else if (desc->block_dist == GTBS_DIST_NORMAL && desc->block_dist_param)
		*why = "block_dist_param must be 0 for the normal distribution";
	else if (desc->block_dist == GTBS_DIST_SKEWED &&
		 (desc->block_dist_param < GTBS_SKEWED_MIN_PPM ||
		  desc->block_dist_param > GTBS_SKEWED_MAX_PPM))
		*why = "skewed: block_dist_param (heavy share) must be 1000..500000";
	else if (desc->block_dist == GTBS_DIST_PEAKED &&
		 (desc->block_dist_param > GTBS_PPM ||
		  desc->block_rsd_ppm > GTBS_PEAKED_MAX_RSD_PPM))
		*why = "peaked: block_dist_param 0..1000000 and block_rsd_ppm at most 540000";
	else if (desc->startup_ppm > 16 * GTBS_PPM ||
		 desc->startup_blocks > desc->nr_blocks ||
		 !desc->startup_ppm != !desc->startup_blocks)
		*why = "startup_ppm (0..16000000) and startup_blocks (1..nr_blocks) go together";
	else if (gtbs_occupancy_calc(cfg, desc, &occ))
		*why = "a thread block does not fit on an SM";
	if (*why)
		return -EINVAL;
	for (i = 0; desc->durations && i < desc->nr_blocks; i++) {
		if (!desc->durations[i] ||
		    desc->durations[i] > GTBS_MAX_BLOCK_CYCLES) {
			*why = "each block duration must be 1..2^40 cycles";
			return -EINVAL;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_desc_check);

/**
 * gtbs_grid_init() - initialise a grid before submission
 * @dev: the device (its configuration is read).
 * @grid: gtbs_grid_size() bytes.
 * @desc: the grid's description; copied.  @desc->durations is borrowed.
 * @why: out: reason for a rejection.
 *
 * Context: any; takes no lock (reads only &gtbs_dev.cfg, which is constant
 * while grids exist).
 * Return: 0, or the error of gtbs_grid_desc_check().
 */
int gtbs_grid_init(struct gtbs_dev *dev, struct gtbs_grid *grid,
		   const struct gtbs_grid_desc *desc, const char **why)
{
	int ret = gtbs_grid_desc_check(&dev->cfg, desc, why);
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
	grid->expire_cycle = U64_MAX;
	return 0;
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
