// SPDX-License-Identifier: GPL-2.0
/*
 * no_symbol.c - a shared object without GTBS_POLICY_MODULE(), for
 * tests/userland/plugin-test.sh.
 *
 * Copyright (C) 2026 The gputbs developers
 */
__attribute__((visibility("default"))) int not_a_policy(void);

int not_a_policy(void)
{
	return 0;
}
