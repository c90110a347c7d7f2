// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - the registry of thread block scheduling policies.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Policy registry
 *
 * Policies are data: a const table of &struct gtbs_policy_ops, in the
 * order the sysfs selector lists them (vimc keeps its topology the same
 * way).  Adding a policy is adding its ops and one line here; the unit
 * tests check that every entry has the required ops and a unique name.
 * The order is also that of ``gputbs-sim eval``'s default sweep: the
 * paper's online policies, then the oracle baselines (srtf-oracle, the
 * serial sjf and ljf).
 */
#include "gtbs.h"

static const struct gtbs_policy_ops * const gtbs_policies[] = {
	&gtbs_policy_fifo,
	&gtbs_policy_mpmax,
	&gtbs_policy_srtf,
	&gtbs_policy_srtf_adaptive,
	&gtbs_policy_srtf_oracle,
	&gtbs_policy_sjf,
	&gtbs_policy_ljf,
};

/**
 * gtbs_policy_at() - the registered policy at an index
 * @index: 0-based.
 *
 * Context: any.
 * Return: the policy, or NULL past the last one.
 */
const struct gtbs_policy_ops *gtbs_policy_at(unsigned int index)
{
	return index < ARRAY_SIZE(gtbs_policies) ? gtbs_policies[index] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_at);

/**
 * gtbs_policy_find() - look a policy up by name
 * @name: policy name, NUL-terminated; one trailing newline is ignored
 *	(sysfs writes end with one).
 *
 * Context: any.
 * Return: the policy, or NULL if no policy has that name.
 */
const struct gtbs_policy_ops *gtbs_policy_find(const char *name)
{
	size_t len = strlen(name);
	unsigned int i;

	if (len && name[len - 1] == '\n')
		len--;
	for (i = 0; i < ARRAY_SIZE(gtbs_policies); i++) {
		const char *p = gtbs_policies[i]->name;

		if (strlen(p) == len && !strncmp(p, name, len))
			return gtbs_policies[i];
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_find);
