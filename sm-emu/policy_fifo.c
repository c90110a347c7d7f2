// SPDX-License-Identifier: GPL-2.0
/*
 * policy_fifo.c - FIFO thread block scheduling, what the hardware does.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: FIFO policy
 *
 * The paper's Section "FIFO (Baseline)": the Fermi thread block scheduler
 * "schedules thread blocks from running kernels in the order of their
 * arrival.  Only when all the thread blocks of a kernel have been
 * dispatched to the streaming multiprocessors for execution are blocks
 * from the next kernel scheduled."  So every SM issues from the oldest grid
 * with unissued blocks; if that grid's next block does not fit on the SM,
 * the SM issues nothing (the next grid waits, even if its blocks would
 * fit).  A later grid runs concurrently only on resources the older grid
 * cannot use once all of its blocks are out.  With priority classes the
 * order is arrival order within the class that may issue.
 */
#include "gtbs.h"

static struct gtbs_grid *gtbs_fifo_pick_grid(struct gtbs_dev *dev,
					     struct gtbs_sm *sm, u32 *reason)
{
	struct gtbs_grid *grid;

	list_for_each_entry(grid, &dev->pending, pending_node)
		if (gtbs_grid_eligible(dev, grid))
			return grid;
	return NULL;
}

/* FIFO policy ops (paper Section "FIFO (Baseline)"). */
const struct gtbs_policy_ops gtbs_policy_fifo = {
	.name = "fifo",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_fifo_pick_grid,
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_fifo);
