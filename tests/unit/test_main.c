// SPDX-License-Identifier: GPL-2.0
/*
 * test_main.c - one Check runner for every host unit test suite.
 *
 * Runs the suites of test_occupancy.c, test_timing.c, test_engine.c,
 * test_metrics.c, test_predictor.c, test_policy.c, test_timeout.c and
 * test_conformance.c (every registered policy), and the suite
 * "regressions": one
 * case per core bug these tests found (missed FIFO wake-up, advance to
 * U64_MAX, progress rounding across syncs, submit/cancel before earlier
 * events, metric overflows), each failing before its fix.  Exit status is
 * 0 only if every test passed; the last line is always
 * "unit: N passed, M failed".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <stdlib.h>

#include "harness.h"

int main(void)
{
	SRunner *sr;
	int run, failed;

	/* the built-ins, as every program that runs devices registers them */
	if (gtbs_policy_register_builtins())
		return 1;
	sr = srunner_create(occupancy_suite());
	srunner_add_suite(sr, timing_suite());
	srunner_add_suite(sr, engine_suite());
	srunner_add_suite(sr, metrics_suite());
	srunner_add_suite(sr, predictor_suite());
	srunner_add_suite(sr, policy_suite());
	srunner_add_suite(sr, timeout_suite());
	srunner_add_suite(sr, conformance_suite());
	srunner_add_suite(sr, regressions_suite());
	srunner_run_all(sr, CK_NORMAL);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
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
