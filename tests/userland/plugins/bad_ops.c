// SPDX-License-Identifier: GPL-2.0
/*
 * bad_ops.c - a plug-in whose ops gtbs_policy_check() refuses (no
 * pick_grid), for tests/userland/plugin-test.sh.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_policy_module.h"

static const struct gtbs_policy_ops bad_ops = {
	.name = "bad-ops",
	.owner = THIS_MODULE,
};

GTBS_POLICY_MODULE(bad_ops, "test plug-in without pick_grid");
