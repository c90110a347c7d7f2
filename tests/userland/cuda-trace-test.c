// SPDX-License-Identifier: GPL-2.0
/*
 * cuda-trace-test.c - the host side of tools/cuda/gputbs_trace.cuh
 * (gputbs_trace_writer.h) on synthetic records, without CUDA.
 *
 * Usage: cuda-trace-test CLOCK_KHZ > FILE.trace
 *
 * Writes the trace of the records below (worked by hand in
 * tests/userland/cuda-trace-test.sh, which compares it and feeds it to
 * gputbs predict) and checks on its own that input the format cannot hold
 * is refused with -EINVAL; those failures go to standard error and make
 * the exit status 1.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "../../tools/cuda/gputbs_trace_writer.h"

static int failed;

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "FAIL: %s\n", what);
		failed = 1;
	}
}

int main(int argc, char **argv)
{
	/* grid 0: SM 0 runs blocks 0 and 1 from 1000 ns, block 2 refills
	 * block 0's slot at 1100; block 3 on SM 1 starts and ends at the same
	 * timer reading.  Grid 1: its block 0 comes to SM 0 while both slots
	 * are busy (a third slot), its block 1 to SM 1 after block 3 ended.
	 */
	struct gtbs_trace_rec g0[4] = {
		{ 0, 0, 1000, 1100 }, { 0, 0, 1000, 1150 },
		{ 0, 0, 1100, 1200 }, { 1, 0, 1010, 1010 },
	};
	struct gtbs_trace_rec g1[2] = {
		{ 0, 0, 1120, 1300 }, { 1, 0, 1050, 1400 },
	};
	struct gtbs_trace_grid grids[2] = {
		{ "vec add", 4, 2, g0 }, { "mm<16>", 2, 1, g1 },
	};
	struct gtbs_trace_rec many[65], bad;
	struct gtbs_trace_grid one = { "x", 1, 1, &bad };
	struct gtbs_trace_stats st;
	FILE *null = fopen("/dev/null", "w");
	unsigned int i;
	int ret;

	ret = gtbs_trace_write(stdout, grids, 2,
			       argc > 1 ? strtoull(argv[1], NULL, 10) : 0,
			       "synthetic records of tests/userland/cuda-trace-test.c",
			       &st);
	check(!ret, "the synthetic trace is written");
	check(st.bumped == 1, "one block bumped to end after its start");
	check(st.max_slots == 3, "SM 0 needs 3 slots");
	check(st.t0 == 1000, "cycle 0 is the earliest start, 1000 ns");

	check(null != NULL, "/dev/null opens");
	check(gtbs_trace_write(null, grids, 0, 0, NULL, NULL) == -EINVAL,
	      "no grids: -EINVAL");
	bad = (struct gtbs_trace_rec){ 1024, 0, 1, 2 };
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == -EINVAL,
	      "SM 1024: -EINVAL");
	bad = (struct gtbs_trace_rec){ 0, 0, 5, 0 };
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == -EINVAL,
	      "a block that did not record: -EINVAL");
	bad = (struct gtbs_trace_rec){ 0, 0, 5, 4 };
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == -EINVAL,
	      "a block ending before it starts: -EINVAL");
	bad = (struct gtbs_trace_rec){ 0, 0, 5, 6 };
	one.residency = 0;
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == -EINVAL,
	      "residency 0: -EINVAL");
	one.residency = 65;
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == -EINVAL,
	      "residency 65: -EINVAL");
	one.residency = 1;
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == 0,
	      "a one-block grid is written");
	bad = (struct gtbs_trace_rec){ 0, 0, 0, (1ULL << 40) + 1 };
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == -EINVAL,
	      "past 2^40 cycles: -EINVAL");
	for (i = 0; i < 65; i++)
		many[i] = (struct gtbs_trace_rec){ 7, 0, 10 + i, 1000 };
	one.recs = many;
	one.blocks = 64;
	check(gtbs_trace_write(null, &one, 1, 0, NULL, &st) == 0 &&
	      st.max_slots == 64, "64 blocks at once on one SM: 64 slots");
	one.blocks = 65;
	check(gtbs_trace_write(null, &one, 1, 0, NULL, NULL) == -EINVAL,
	      "65 blocks at once on one SM: -EINVAL");
	if (null)
		fclose(null);
	return failed;
}
