// SPDX-License-Identifier: GPL-2.0
/*
 * test_main.c - one Check runner for every host unit test suite.
 *
 * Runs the suites of test_occupancy.c, test_timing.c, test_engine.c and
 * test_metrics.c.  The suite "known_bugs" holds tests that fail today
 * because of bugs in the core; it runs only with GTBS_UNIT_KNOWN_BUGS=1 in
 * the environment (make unit-test UNIT_KNOWN_BUGS=1).  Exit status is 0
 * only if every test passed; the last line is always
 * "unit: N passed, M failed".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <stdlib.h>

#include "harness.h"

int main(void)
{
	const char *known = getenv("GTBS_UNIT_KNOWN_BUGS");
	SRunner *sr;
	int run, failed;

	sr = srunner_create(occupancy_suite());
	srunner_add_suite(sr, timing_suite());
	srunner_add_suite(sr, engine_suite());
	srunner_add_suite(sr, metrics_suite());
	if (known && *known && strcmp(known, "0"))
		srunner_add_suite(sr, known_bugs_suite());
	srunner_run_all(sr, CK_NORMAL);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	printf("unit: %d passed, %d failed\n", run - failed, failed);
	/* LeakSanitizer ends the process with _exit() after main() */
	fflush(stdout);
	return failed || !run ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The known-bug suite gathers cases from the files that own them. */
Suite *known_bugs_suite(void)
{
	Suite *s = suite_create("known_bugs");

	known_bugs_timing(s);
	known_bugs_engine(s);
	known_bugs_metrics(s);
	return s;
}
