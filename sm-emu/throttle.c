// SPDX-License-Identifier: GPL-2.0
/*
 * throttle.c - grids that may not issue blocks for a while.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Throttled grids
 *
 * The owner of a device may stop a grid from issuing blocks without
 * cancelling it, as CFS bandwidth control throttles a group's runqueue:
 * gtbs_grid_throttle() sets a reason bit in &gtbs_grid.throttle, the grid
 * leaves &gtbs_dev.pending and gtbs_grid_has_blocks() answers false for
 * it, so no policy picks it (each policy is told by
 * &gtbs_policy_ops.grid_update without an SM, as when a grid issued its
 * last block) and the SMs it would have filled take other grids' blocks at
 * once.  Its resident blocks run to their ends, and preempted blocks wait
 * on &gtbs_grid.saved.  gtbs_grid_unthrottle() clears the reason; with no
 * reason left, a grid that still has blocks to issue goes back onto the
 * pending list at its place in arrival order, and the SMs re-evaluate at
 * @now.  A throttled grid keeps its state (QUEUED or RUNNING), its
 * job timeout and its predictions.
 *
 * States of a QUEUED or RUNNING grid with blocks to issue::
 *
 *   pending  --gtbs_grid_throttle(why)-->        throttled (mask != 0)
 *      ^                                             |
 *      +--gtbs_grid_unthrottle() clears last bit ----+
 *
 * A grid arriving while its owner throttles its kind (the module: its
 * user) is throttled before it reaches the pending list
 * (&gtbs_backend_ops.grid_arrive).  The only owner today is the module's
 * wall-clock isolation of users (Documentation/reliability.rst, "The
 * emulator's capacity"); the simulator never throttles, so its schedules,
 * and the module's while the device keeps up with the wall clock, are
 * those of a core without this file.
 */
#include "gtbs.h"
#include "preempt.h"

/**
 * gtbs_grid_throttle() - stop a grid from issuing blocks
 * @dev: the device.
 * @grid: a QUEUED or RUNNING grid on &gtbs_dev.grids.
 * @why: one or more %GTBS_THROTTLE_OWNER-like bits (%GTBS_THROTTLE_ALL).
 * @now: emulated cycle, &gtbs_dev.clock: the SMs re-evaluate at it.
 *
 * Idempotent per bit.  O(1) plus the policy's &gtbs_policy_ops.grid_update.
 *
 * Context: device lock held.
 */
void gtbs_grid_throttle(struct gtbs_dev *dev, struct gtbs_grid *grid, u32 why,
			u64 now)
{
	gtbs_lockdep_assert_held(dev);
	why &= GTBS_THROTTLE_ALL;
	if (!why || (grid->throttle & why) == why)
		return;
	if (!grid->throttle)
		dev->grids_throttled++;
	grid->throttle |= why;
	if (!list_empty(&grid->pending_node))
		gtbs_pending_leave(dev, grid, now);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_throttle);

/**
 * gtbs_grid_unthrottle() - let a grid issue blocks again
 * @dev: the device.
 * @grid: a grid on &gtbs_dev.grids.
 * @why: the bits to clear.
 * @now: emulated cycle, &gtbs_dev.clock: the grid's blocks issue from it.
 *
 * With no reason left, a grid with blocks to issue goes back onto
 * &gtbs_dev.pending in arrival order: O(pending grids after it).  To lift
 * a reason from many grids at once, gtbs_dev_unthrottle() is O(grids).
 *
 * Context: device lock held.
 */
void gtbs_grid_unthrottle(struct gtbs_dev *dev, struct gtbs_grid *grid,
			  u32 why, u64 now)
{
	gtbs_lockdep_assert_held(dev);
	if (!(grid->throttle & why))
		return;
	grid->throttle &= ~why;
	gtbs_pending_readd(dev, grid, now);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_unthrottle);

/**
 * gtbs_dev_unthrottle() - lift a reason from every grid of the device
 * @dev: the device.
 * @why: the bits to clear.
 * @now: emulated cycle, &gtbs_dev.clock.
 *
 * One pass over &gtbs_dev.grids (arrival order, of which &gtbs_dev.pending
 * is a subsequence): each grid left without a reason and with blocks to
 * issue goes back after the last pending grid before it.  O(grids) plus
 * one &gtbs_policy_ops.grid_update per grid that returns.
 *
 * Context: device lock held.
 * Return: the grids that went back onto the pending list.
 */
u32 gtbs_dev_unthrottle(struct gtbs_dev *dev, u32 why, u64 now)
{
	struct list_head *prev = &dev->pending;
	struct gtbs_grid *grid;
	u32 n = 0;

	gtbs_lockdep_assert_held(dev);
	list_for_each_entry(grid, &dev->grids, node) {
		if (!list_empty(&grid->pending_node)) {
			prev = &grid->pending_node;
			continue;
		}
		if (!(grid->throttle & why))
			continue;
		grid->throttle &= ~why;
		if (!gtbs_grid_has_blocks(grid))
			continue;
		gtbs_pending_add(dev, grid, prev);
		prev = &grid->pending_node;
		n++;
	}
	if (n)
		gtbs_dev_kick(dev, now);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_unthrottle);
