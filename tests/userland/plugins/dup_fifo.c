// SPDX-License-Identifier: GPL-2.0
/*
 * dup_fifo.c - a plug-in named like a built-in (fifo), for
 * tests/userland/plugin-test.sh.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_policy_module.h"

static struct gtbs_grid *dup_pick_grid(struct gtbs_dev *dev,
				       struct gtbs_sm *sm, u32 *reason)
{
	struct gtbs_grid *grid;

	list_for_each_entry(grid, &dev->grids, node)
		if (gtbs_grid_eligible(dev, grid))
			return grid;
	return NULL;
}

static const struct gtbs_policy_ops dup_ops = {
	.name = "fifo",
	.owner = THIS_MODULE,
	.pick_grid = dup_pick_grid,
};

GTBS_POLICY_MODULE(dup_ops, "test plug-in named like a built-in");
