// SPDX-License-Identifier: GPL-2.0
/*
 * test_parallel.c - par_for() (tools/lib/parallel.c), the worker pool of
 * gputbs-sim eval, sweep and run: every item once, and the failure it
 * reports the one a plain loop stopping at its first failure reports,
 * whatever the number of threads.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../../tools/lib/parallel.h"

#define NR_ITEMS	600

struct par_case {
	size_t fail_a;		/* items that fail; NR_ITEMS: none */
	size_t fail_b;
	unsigned int runs[NR_ITEMS];	/* each item's runs (atomic) */
	size_t last_done;	/* the last progress call's done */
	bool progress_bad;	/* a progress call out of order */
};

static int par_item(void *arg, size_t i, const char **why)
{
	struct par_case *pc = arg;

	__atomic_fetch_add(&pc->runs[i], 1, __ATOMIC_RELAXED);
	/* let the other threads interleave */
	if (!(i % 7))
		sched_yield();
	if (i == pc->fail_a) {
		/* slow, so that with 2 threads or more a later failure
		 * comes first in time */
		usleep(20000);
		*why = "item a";
		return -EINVAL;
	}
	if (i == pc->fail_b) {
		*why = "item b";
		return -ENOMEM;
	}
	return 0;
}

static void par_progress(void *arg, size_t done, size_t n)
{
	struct par_case *pc = arg;

	if (done != pc->last_done + 1 || done > n)
		pc->progress_bad = true;
	pc->last_done = done;
}

static const unsigned int par_jobs[] = { 1, 2, 3, 8, 64, 1000 };

/* No failure: every item exactly once, progress 1..n in order. */
START_TEST(every_item_once)
{
	unsigned int jobs = par_jobs[_i];
	struct par_case pc = { .fail_a = NR_ITEMS, .fail_b = NR_ITEMS };
	size_t i, failed = 12345;
	const char *why = "untouched";

	ck_assert_int_eq(par_for(NR_ITEMS, jobs, par_item, par_progress, &pc,
				 &failed, &why), 0);
	for (i = 0; i < NR_ITEMS; i++)
		ck_assert_msg(pc.runs[i] == 1, "jobs %u: item %zu ran %u times",
			      jobs, i, pc.runs[i]);
	ck_assert(!pc.progress_bad);
	ck_assert_uint_eq(pc.last_done, NR_ITEMS);
	/* the outs are left alone on success */
	ck_assert_uint_eq(failed, 12345);
	ck_assert_str_eq(why, "untouched");
}
END_TEST

/*
 * Items 450 and 200 fail (-ENOMEM, -EINVAL), 200 after 20 ms, so that
 * with 2 threads or more 450 usually fails first: the loop's answer is
 * still item 200 with -EINVAL, every item below it ran once and succeeded, and item
 * 450 ran at most once (handed out before 200 failed, or never).
 */
START_TEST(lowest_failure_whatever_jobs)
{
	unsigned int jobs = par_jobs[_i];
	struct par_case pc = { .fail_a = 200, .fail_b = 450 };
	const char *why = NULL;
	size_t i, failed = 0;

	ck_assert_int_eq(par_for(NR_ITEMS, jobs, par_item, NULL, &pc,
				 &failed, &why), -EINVAL);
	ck_assert_uint_eq(failed, 200);
	ck_assert_str_eq(why, "item a");
	for (i = 0; i <= 200; i++)
		ck_assert_msg(pc.runs[i] == 1, "jobs %u: item %zu ran %u times",
			      jobs, i, pc.runs[i]);
	for (; i < NR_ITEMS; i++)
		ck_assert_uint_le(pc.runs[i], 1);
	/* one thread: nothing after the failure */
	if (jobs == 1)
		for (i = 201; i < NR_ITEMS; i++)
			ck_assert_uint_eq(pc.runs[i], 0);
}
END_TEST

/* Only the later item fails: it is reported, with its own errno. */
START_TEST(single_failure)
{
	struct par_case pc = { .fail_a = NR_ITEMS, .fail_b = NR_ITEMS - 1 };
	const char *why = NULL;
	size_t failed = 0;

	ck_assert_int_eq(par_for(NR_ITEMS, par_jobs[_i], par_item, NULL, &pc,
				 &failed, &why), -ENOMEM);
	ck_assert_uint_eq(failed, NR_ITEMS - 1);
	ck_assert_str_eq(why, "item b");
}
END_TEST

/* No items: nothing runs, 0; NULL outs are allowed. */
START_TEST(no_items)
{
	struct par_case pc = { .fail_a = 0, .fail_b = 0 };

	ck_assert_int_eq(par_for(0, 4, par_item, par_progress, &pc, NULL,
				 NULL), 0);
	ck_assert_uint_eq(pc.runs[0], 0);
	ck_assert_uint_eq(pc.last_done, 0);
}
END_TEST

Suite *parallel_suite(void)
{
	Suite *s = suite_create("parallel");
	TCase *tc = h_tcase("par_for");
	int n = sizeof(par_jobs) / sizeof(par_jobs[0]);

	tcase_add_loop_test(tc, every_item_once, 0, n);
	tcase_add_loop_test(tc, lowest_failure_whatever_jobs, 0, n);
	tcase_add_loop_test(tc, single_failure, 0, n);
	tcase_add_test(tc, no_items);
	suite_add_tcase(s, tc);
	return s;
}
