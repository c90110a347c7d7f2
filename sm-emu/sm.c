// SPDX-License-Identifier: GPL-2.0
/*
 * sm.c - a streaming multiprocessor: its size, its initial state and the
 * test whether a block fits.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: SM
 *
 * An SM's resources (block slots, warps, threads, registers, shared
 * memory) and its rate groups, each a progress clock of the timing model
 * (timing.c, Documentation/timing-model.rst "Co-runners").  The
 * accounting that the event loop runs at every block issue and end
 * (holding and releasing resources, advancing the clocks) is in sm.h,
 * inline for the engine's hot path.
 */
#include "sm.h"

/**
 * gtbs_sm_size() - bytes to allocate for one SM
 * @cfg: device configuration.
 *
 * Context: any.
 * Return: size of &struct gtbs_sm with its block slots and its rate
 * groups (one per slot at most).
 */
size_t gtbs_sm_size(const struct gtbs_dev_config *cfg)
{
	return sizeof(struct gtbs_sm) +
	       cfg->max_blocks_per_sm * (sizeof(struct gtbs_slot) +
					 sizeof(struct gtbs_rate_group));
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_sm_size);

/**
 * gtbs_sm_init() - initialise an SM
 * @cfg: device configuration.
 * @sm: gtbs_sm_size() bytes.
 * @id: SM index.
 *
 * Context: any; before gtbs_dev_init() publishes the SM.
 */
void gtbs_sm_init(const struct gtbs_dev_config *cfg, struct gtbs_sm *sm,
		  u32 id)
{
	memset(sm, 0, gtbs_sm_size(cfg));
	sm->id = id;
	sm->groups = (struct gtbs_rate_group *)&sm->slots[cfg->max_blocks_per_sm];
	sm->next_end = U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_sm_init);

/**
 * gtbs_block_fits() - whether a block of a grid fits on an SM now
 * @dev: the device.
 * @sm: the SM.
 * @grid: the grid.
 *
 * Context: device lock held.
 * Return: true if the SM's free block slots, warps, threads, registers
 * and shared memory all hold one more block of @grid.
 */
bool gtbs_block_fits(const struct gtbs_dev *dev, const struct gtbs_sm *sm,
		     const struct gtbs_grid *grid)
{
	return gtbs_sm_fits(dev, sm, grid);
}
EXPORT_SYMBOL_GPL(gtbs_block_fits);
