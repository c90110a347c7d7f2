// SPDX-License-Identifier: GPL-2.0
/*
 * test_main.c - one Check runner for every host unit test suite.
 *
 * Runs the suites of test_occupancy.c, test_timing.c, test_engine.c,
 * test_metrics.c, test_predictor.c, test_policy.c, test_timeout.c and
 * test_conformance.c (every registered policy), test_parallel.c (the
 * simulator's worker pool, tools/lib/parallel.c), and the suite
 * "regressions": one
 * case per core bug these tests found (missed FIFO wake-up, advance to
 * U64_MAX, progress rounding across syncs, submit/cancel before earlier
 * events, metric overflows), each failing before its fix.  Exit status is
 * 0 only if every test passed; the last line is always
 * "unit: N passed, M failed".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gtbs_policy_module.h"

#define MAX_PLUGINS	16

/*
 * The policies of GTBS_UNIT_PLUGINS (space-separated .so files built with
 * GTBS_POLICY_MODULE(), as gputbs-sim --policy-plugin loads them): they
 * register after the built-ins, so that every suite that iterates the
 * registry (the conformance suite) covers them.  Returns 0, or -1 after a
 * message.
 */
static int load_plugins(void **handles, unsigned int *n)
{
	const char *env = getenv("GTBS_UNIT_PLUGINS");
	char *list, *file, *save = NULL;
	int ret = 0;

	*n = 0;
	if (!env)
		return 0;
	list = strdup(env);
	if (!list)
		return -1;
	for (file = strtok_r(list, " ", &save); file && !ret;
	     file = strtok_r(NULL, " ", &save)) {
		const struct gtbs_policy_ops **ops;
		void *h = *n < MAX_PLUGINS ? dlopen(file, RTLD_NOW) : NULL;

		ops = h ? dlsym(h, GTBS_POLICY_PLUGIN_SYMBOL) : NULL;
		if (!ops || !*ops || gtbs_policy_register(*ops)) {
			fprintf(stderr, "unit: %s: %s\n", file,
				h ? "not a policy plug-in, or refused" :
				    dlerror());
			if (h)
				dlclose(h);
			ret = -1;
			break;
		}
		printf("unit: plug-in policy %s from %s\n", (*ops)->name, file);
		handles[(*n)++] = h;
	}
	free(list);
	return ret;
}

int main(void)
{
	void *plugins[MAX_PLUGINS];
	unsigned int nr_plugins;
	SRunner *sr;
	int run, failed;

	/* the built-ins, as every program that runs devices registers them */
	if (gtbs_policy_register_builtins() ||
	    load_plugins(plugins, &nr_plugins))
		return 1;
	sr = srunner_create(occupancy_suite());
	srunner_add_suite(sr, timing_suite());
	srunner_add_suite(sr, engine_suite());
	srunner_add_suite(sr, metrics_suite());
	srunner_add_suite(sr, predictor_suite());
	srunner_add_suite(sr, policy_suite());
	srunner_add_suite(sr, policy_order_suite());
	srunner_add_suite(sr, timeout_suite());
	srunner_add_suite(sr, conformance_suite());
	srunner_add_suite(sr, preempt_suite());
	srunner_add_suite(sr, throttle_suite());
	srunner_add_suite(sr, tenant_suite());
	srunner_add_suite(sr, parallel_suite());
	srunner_add_suite(sr, regressions_suite());
	srunner_run_all(sr, CK_NORMAL);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	while (nr_plugins--) {
		const struct gtbs_policy_ops **ops =
			dlsym(plugins[nr_plugins], GTBS_POLICY_PLUGIN_SYMBOL);

		gtbs_policy_unregister(*ops);
		dlclose(plugins[nr_plugins]);
	}
	printf("unit: %d passed, %d failed\n", run - failed, failed);
	/* LeakSanitizer ends the process with _exit() after main() */
	fflush(stdout);
	return failed || !run ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The regression suite gathers cases from the files that own them. */
Suite *regressions_suite(void)
{
	Suite *s = suite_create("regressions");

	regressions_timing(s);
	regressions_engine(s);
	regressions_metrics(s);
	return s;
}
