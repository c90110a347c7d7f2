// SPDX-License-Identifier: GPL-2.0
/*
 * undefined.c - a plug-in that calls a function the simulator does not
 * export, for tests/userland/plugin-test.sh: dlopen() refuses it.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_policy_module.h"

struct gtbs_grid *gtbs_no_such_function(struct gtbs_dev *dev);

static struct gtbs_grid *undef_pick_grid(struct gtbs_dev *dev,
					 struct gtbs_sm *sm, u32 *reason)
{
	return gtbs_no_such_function(dev);
}

static const struct gtbs_policy_ops undef_ops = {
	.name = "undefined",
	.owner = THIS_MODULE,
	.pick_grid = undef_pick_grid,
};

GTBS_POLICY_MODULE(undef_ops, "test plug-in with an unresolved symbol");
