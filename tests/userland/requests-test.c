// SPDX-License-Identifier: GPL-2.0
/*
 * requests-test.c - host tests of the request logic that gputbs run and
 * gputbs-sim share (tools/lib/reqstats.c, tools/lib/workload.c): nearest-rank
 * percentiles, SLO attainment and throughput on hand-computed cases; the
 * arrival and dependency plan of the module's stream order (run_plan_*);
 * open-loop arrivals (fixed, Poisson with its integer PRNG) and times
 * with units; a workload at a load (wl_workload_at_load(), --load) and
 * the parsing of --load (wl_parse_load()).
 *
 * Usage: gputbs-requests-test.  Prints "requests: N passed, M failed".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/result.h"

static unsigned int passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		passed++;						\
	} else {							\
		failed++;						\
		printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond);	\
		printf(__VA_ARGS__);					\
		putchar('\n');						\
	}								\
} while (0)

/* Ten requests with known latencies, in no order. */
static void test_percentiles(void)
{
	/* latencies 70 10 100 40 20 90 30 60 50 80 */
	static const __u64 arrive[10] = { 0, 5, 10, 15, 20, 25, 30, 35, 40, 45 };
	static const __u64 end[10] = { 70, 15, 110, 55, 40, 115, 60, 95, 90, 125 };
	__u64 one[1] = { 7 }, sorted[4] = { 1, 2, 3, 4 };
	struct req_stats st;

	CHECK(!req_stats_calc(arrive, end, 10, 50, &st), "calc");
	/* nearest rank: ceil(p n / 100): the 5th, 9th and 10th of 10 */
	CHECK(st.p50 == 50, "p50 %llu", (unsigned long long)st.p50);
	CHECK(st.p90 == 90, "p90 %llu", (unsigned long long)st.p90);
	CHECK(st.p99 == 100, "p99 %llu", (unsigned long long)st.p99);
	CHECK(st.max == 100, "max %llu", (unsigned long long)st.max);
	CHECK(st.mean == 55, "mean %llu", (unsigned long long)st.mean);
	CHECK(st.slo_met == 5, "slo_met %u", st.slo_met);
	CHECK(st.first_arrive == 0 && st.last_end == 125, "window");
	/* 10 requests in 125 cycles at 1000 kHz: 80,000 per second */
	CHECK(req_per_second(&st, 10, 1000) == 80000.0, "req/s %f",
	      req_per_second(&st, 10, 1000));
	/* p of 4: ranks ceil(2) = 2, ceil(3.6) = 4, ceil(3.96) = 4 */
	CHECK(req_percentile(sorted, 4, 50) == 2, "p50 of 4");
	CHECK(req_percentile(sorted, 4, 90) == 4, "p90 of 4");
	CHECK(req_percentile(sorted, 4, 25) == 1, "p25 of 4");
	CHECK(req_percentile(one, 1, 99) == 7, "p99 of 1");
	CHECK(req_stats_calc(arrive, end, 0, 0, &st), "no requests");
}

static void test_times(void)
{
	struct wl_time c = { 123, 0 }, ns = { 1000, 1 }, half = { 1, 1 };

	CHECK(wl_time_cycles(&c, 1401000) == 123, "cycles");
	/* 1000 ns at 1.401 GHz: 1401 cycles; 1 ns: 1.401, rounded to 1 */
	CHECK(wl_time_cycles(&ns, 1401000) == 1401, "1us");
	CHECK(wl_time_cycles(&half, 1401000) == 1, "1ns");
	CHECK(wl_time_cycles(&half, 1500000) == 2, "1ns at 1.5 GHz: 1.5 -> 2");
}

static void test_arrivals(void)
{
	struct wl_run run = { .requests = 5, .arrival = WL_ARRIVAL_FIXED,
			      .rate_e4 = 30000 };	/* 3 per second */
	__u64 a[5], b[5], state = 0;
	unsigned int i;

	/* 3/s at 1000 kHz: every 333,333.33 cycles, no drift */
	wl_run_arrivals(&run, 1000, 7, a);
	CHECK(a[0] == 7 && a[1] == 7 + 333333 && a[2] == 7 + 666666 &&
	      a[3] == 7 + 1000000 && a[4] == 7 + 1333333, "fixed %llu %llu",
	      (unsigned long long)a[1], (unsigned long long)a[3]);
	/* exp(1) in Q32: u = 1 (top 2^32 - 1): 0; u = 2^-32: 32 ln 2 */
	CHECK(wl_exp_q32(~0ULL) == 0, "-ln 1");
	CHECK(wl_exp_q32(0) == (__u64)(((unsigned __int128)32 << 32) *
				      2977044472ULL >> 32), "-ln 2^-32");
	/* u = 1/2 (top 2^31 - 1): ln 2 */
	CHECK(wl_exp_q32((__u64)(0x7fffffffULL) << 32) == 2977044472ULL,
	      "-ln 0.5 = %llu",
	      (unsigned long long)wl_exp_q32((__u64)0x7fffffffULL << 32));
	/* SplitMix64's first output for seed 0 */
	CHECK(wl_rand_next(&state) == 0xe220a8397b1dcdafULL, "splitmix64");
	run.arrival = WL_ARRIVAL_POISSON;
	run.seed = 42;
	wl_run_arrivals(&run, 1000, 0, a);
	wl_run_arrivals(&run, 1000, 0, b);
	CHECK(!memcmp(a, b, sizeof(a)) && a[0] == 0, "poisson reproducible");
	for (i = 1; i < 5; i++)
		CHECK(a[i] >= a[i - 1], "poisson non-decreasing");
	run.seed = 43;
	wl_run_arrivals(&run, 1000, 0, b);
	CHECK(memcmp(a, b, sizeof(a)), "another seed, other arrivals");
}

/* The plan of a 3-grid program: dependencies, gaps, windows. */
static void test_plan(void)
{
	struct wl_grid grids[3] = {
		{ .gap = { 10, 0 } }, { .gap = { 0, 0 } }, { .gap = { 1000, 1 } },
	};
	struct wl_program prog = { .nr_grids = 3, .grids = grids };
	struct wl_run closed = { .requests = 4, .outstanding = 2,
				 .think = { 5, 0 } };
	struct wl_run open = { .requests = 2, .rate_e4 = 10000,
			       .arrival = WL_ARRIVAL_FIXED };
	struct prog_result res;
	struct run_plan pl;
	size_t dep = 0;
	__u64 at = 0;

	CHECK(!run_plan_init(&pl, &prog, &closed, 2000, 100), "init");
	/* request 0 and 1: at 100 + gap 10 */
	CHECK(!run_plan_dep(&pl, 0, &dep, &at) && at == 110, "L0 at %llu",
	      (unsigned long long)at);
	CHECK(!run_plan_dep(&pl, 3, &dep, &at) && at == 110, "L3");
	/* grid 1 after grid 0, no gap; grid 2 after grid 1, 1 us = 2 cycles */
	CHECK(run_plan_dep(&pl, 1, &dep, &at) && dep == 0 && at == 0, "L1");
	CHECK(run_plan_dep(&pl, 2, &dep, &at) && dep == 1 && at == 2,
	      "L2 %llu", (unsigned long long)at);
	/* request 2 after request 0's last grid (2): think 5 + gap 10 */
	CHECK(run_plan_dep(&pl, 6, &dep, &at) && dep == 2 && at == 15,
	      "L6 dep %zu at %llu", dep, (unsigned long long)at);
	CHECK(run_plan_dep(&pl, 9, &dep, &at) && dep == 5, "L9 dep %zu", dep);
	/* 2 requests of 3 grids, and the one released by the first */
	CHECK(run_plan_window(&pl) == 7, "window %zu", run_plan_window(&pl));
	/* arrivals from the grids: 0, 1 first grids at 110 (-10); 2, 3 */
	CHECK(!prog_result_alloc(&res, &prog, 4, false), "alloc");
	res.grids[0].submit_cycle = 110;
	res.grids[3].submit_cycle = 110;
	res.grids[2].end_cycle = 5000;
	res.grids[5].end_cycle = 7000;
	run_plan_arrivals(&pl, &res);
	CHECK(res.arrive[0] == 100 && res.arrive[1] == 100 &&
	      res.arrive[2] == 5005 && res.arrive[3] == 7005, "arrivals");
	/* lateness: every launch where planned, then one 3 cycles late */
	{
		size_t l, dep;
		__u64 t = 0, a;

		for (l = 0; l < res.nr_grids; l++) {
			if (run_plan_dep(&pl, l, &dep, &a))
				res.grids[l].submit_cycle =
					res.grids[dep].end_cycle + a;
			else
				res.grids[l].submit_cycle = a;
			t = res.grids[l].submit_cycle + 1000;
			res.grids[l].end_cycle = t;
		}
		CHECK(run_plan_late(&pl, &res, 100) == 0, "none late");
		res.grids[7].submit_cycle += 3;
		CHECK(run_plan_late(&pl, &res, 100) == 1, "one late");
		res.grids[3].submit_cycle = 120;	/* a head 10 late */
		CHECK(run_plan_late(&pl, &res, 100) == 2, "a late head");
	}
	prog_result_free(&res);
	run_plan_free(&pl);

	/* open loop, 1 per second at 2000 kHz: every 2,000,000 cycles */
	CHECK(!run_plan_init(&pl, &prog, &open, 2000, 50), "init open");
	CHECK(!run_plan_dep(&pl, 3, &dep, &at) && at == 2000060, "open L3");
	CHECK(run_plan_window(&pl) == 2, "open window");
	run_plan_free(&pl);

	/* alone: the first grid arrives when submitted */
	CHECK(!run_plan_init(&pl, &prog, NULL, 2000, 0), "init alone");
	CHECK(!run_plan_dep(&pl, 0, &dep, &at) && at == 0, "alone L0");
	CHECK(run_plan_window(&pl) == 2, "alone window");
	run_plan_free(&pl);
}

/*
 * resnet50-infer+train as workloads/scenarios/gen-scenarios.py wrote it,
 * worked by hand at the h100's 1980000 kHz, with 3811628 cycles per
 * inference request alone: the file's 50 requests at rate=156 span
 * 50 * 1.98e13 / 1560000 = 634615384 cycles.  At load 0.3 the rate is
 * 0.3 * 1980000000 / 3811628 = 155.83890..., 1558389 in the format's 4
 * decimals, and ceil(634615384 * 1558389 / 1.98e13) = ceil(49.95) = 50
 * requests arrive in that span; they span 50 * 1.98e13 / 1558389 =
 * 635271424 cycles (320.8 ms), which training steps of 13911757 cycles
 * alone cover in ceil(45.66) = 46.  At load 0.6 and 1: 100 and 167
 * requests in the same span, still 46 steps.
 */
static void test_at_load(void)
{
	static struct wl_workload wl, out;
	__u64 alone[3] = { 3811628, 13911757, 1000 };
	__u32 ppm;

	wl.nr_runs = 3;
	wl.runs[0].requests = 50;
	wl.runs[0].rate_e4 = 1560000;	/* rate=156 */
	wl.runs[0].arrival = WL_ARRIVAL_POISSON;
	wl.runs[0].seed = 1;
	wl.runs[1].requests = 46;
	wl.runs[1].outstanding = 1;
	wl.runs[2].requests = 1;	/* no requests: stays */

	CHECK(!wl_workload_at_load(&wl, alone, 300000, 0, 1980000, &out),
	      "load 0.3");
	CHECK(out.runs[0].rate_e4 == 1558389, "rate_e4 %llu",
	      (unsigned long long)out.runs[0].rate_e4);
	CHECK(out.runs[0].requests == 50 && out.runs[0].seed == 1 &&
	      out.runs[0].arrival == WL_ARRIVAL_POISSON, "open loop's keys");
	CHECK(out.runs[1].requests == 46, "46 steps, not %u",
	      out.runs[1].requests);
	CHECK(out.runs[1].rate_e4 == 0 && out.runs[1].outstanding == 1,
	      "closed stays closed");
	CHECK(out.runs[2].requests == 1, "a single request stays");
	CHECK(wl.runs[0].rate_e4 == 1560000 && wl.runs[1].requests == 46,
	      "the input unchanged");

	CHECK(!wl_workload_at_load(&wl, alone, 1000000, 0, 1980000, &out) &&
	      out.runs[0].rate_e4 == 5194630 && out.runs[0].requests == 167 &&
	      out.runs[1].requests == 46,
	      "load 1: rate_e4 %llu, %u requests, %u steps",
	      (unsigned long long)out.runs[0].rate_e4, out.runs[0].requests,
	      out.runs[1].requests);
	CHECK(!wl_workload_at_load(&wl, alone, 600000, 0, 1980000, &out) &&
	      out.runs[0].rate_e4 == 3116778 && out.runs[0].requests == 100 &&
	      out.runs[1].requests == 46,
	      "load 0.6: rate_e4 %llu, %u requests, %u steps",
	      (unsigned long long)out.runs[0].rate_e4, out.runs[0].requests,
	      out.runs[1].requests);
	/* a duration of 100M cycles: ceil(7.87) = 8 requests, 101643427
	 * cycles, 8 steps */
	CHECK(!wl_workload_at_load(&wl, alone, 300000, 100000000, 1980000,
				   &out) &&
	      out.runs[0].requests == 8 && out.runs[1].requests == 8,
	      "duration: %u requests, %u steps", out.runs[0].requests,
	      out.runs[1].requests);

	/* two outstanding: twice the steps */
	wl.runs[1].outstanding = 2;
	CHECK(!wl_workload_at_load(&wl, alone, 300000, 0, 1980000, &out) &&
	      out.runs[1].requests == 92, "outstanding 2: %u",
	      out.runs[1].requests);
	wl.runs[1].outstanding = 1;

	/* the least rate, 0.0001/s: one request in the span ... */
	alone[0] = 1000000000000ULL;
	CHECK(!wl_workload_at_load(&wl, alone, 1, 0, 1980000, &out) &&
	      out.runs[0].rate_e4 == 1 && out.runs[0].requests == 1,
	      "least rate %llu, %u requests",
	      (unsigned long long)out.runs[0].rate_e4, out.runs[0].requests);
	/* ... which spans 10^4 s: more steps than a run may have */
	CHECK(out.runs[1].requests == WL_MAX_REQUESTS, "capped at %u",
	      out.runs[1].requests);
	alone[0] = 3811628;

	/* without an open loop a closed loop keeps its count */
	wl.runs[0].rate_e4 = 0;
	wl.runs[0].requests = 5;
	CHECK(!wl_workload_at_load(&wl, alone, 300000, 0, 1980000, &out) &&
	      out.runs[1].requests == 46 && out.runs[0].requests == 5,
	      "no open loop");
	wl.runs[0].rate_e4 = 1560000;
	wl.runs[0].requests = 50;

	CHECK(wl_workload_at_load(&wl, alone, 0, 0, 1980000, &out) == -EINVAL,
	      "load 0");
	CHECK(wl_workload_at_load(&wl, alone, WL_MAX_LOAD_PPM + 1, 0, 1980000,
				  &out) == -EINVAL, "load above 100");
	CHECK(!wl_workload_at_load(&wl, alone, WL_MAX_LOAD_PPM, 0, 1980000,
				   &out), "load 100");
	CHECK(wl_workload_at_load(&wl, alone, 300000, 0, 0, &out) == -EINVAL,
	      "clock 0");
	alone[1] = 0;
	CHECK(wl_workload_at_load(&wl, alone, 300000, 0, 1980000, &out) ==
	      -EINVAL, "an alone latency of 0");

	CHECK(!wl_parse_load("0.6", &ppm) && ppm == 600000, "0.6: %u", ppm);
	CHECK(!wl_parse_load("1", &ppm) && ppm == 1000000, "1: %u", ppm);
	CHECK(!wl_parse_load("2.5", &ppm) && ppm == 2500000, "2.5: %u", ppm);
	CHECK(!wl_parse_load(".3", &ppm) && ppm == 300000, ".3: %u", ppm);
	CHECK(!wl_parse_load("0.000001", &ppm) && ppm == 1, "least: %u",
	      ppm);
	CHECK(!wl_parse_load("100", &ppm) && ppm == WL_MAX_LOAD_PPM,
	      "100: %u", ppm);
	CHECK(!wl_parse_load("100.000000", &ppm) && ppm == WL_MAX_LOAD_PPM,
	      "100.000000: %u", ppm);
	CHECK(wl_parse_load("0", &ppm) == -ERANGE, "0");
	CHECK(wl_parse_load("0.0000", &ppm) == -ERANGE, "0.0000");
	CHECK(wl_parse_load("100.000001", &ppm) == -ERANGE, "above 100");
	CHECK(wl_parse_load("99999999999", &ppm) == -ERANGE, "huge");
	CHECK(wl_parse_load("0.0000001", &ppm) == -EINVAL, "7 decimals");
	CHECK(wl_parse_load("-0.5", &ppm) == -EINVAL, "a sign");
	CHECK(wl_parse_load("1e-1", &ppm) == -EINVAL, "an exponent");
	CHECK(wl_parse_load("0.6,0.7", &ppm) == -EINVAL, "a list");
	CHECK(wl_parse_load("", &ppm) == -EINVAL, "empty");
	CHECK(wl_parse_load(".", &ppm) == -EINVAL, "a dot");
	CHECK(wl_parse_load("60%", &ppm) == -EINVAL, "a percentage");

	/* wl_parse_max() on the same parser, 4 decimals of a percent */
	CHECK(!wl_parse_max("12.5", &ppm) && ppm == 125000, "max 12.5: %u",
	      ppm);
	CHECK(!wl_parse_max("0.0001%", &ppm) && ppm == 1, "max 0.0001%%");
	CHECK(wl_parse_max("0.00001", &ppm) == -EINVAL, "max 5 decimals");
}

/*
 * TTFT and TPOT of four requests of 5 tokens, by hand (MLPerf's
 * definitions, req_token_stats_calc()):
 *   request  arrive  first token  last token  TTFT  TPOT
 *   0             0          100         500   100  (500-100)/4 = 100
 *   1            50          350         750   300  (750-350)/4 = 100
 *   2           100          200        1003   100  (1003-200)/4 = 200 (200.75)
 *   3           150          600         650   450  (650-600)/4 = 12 (12.5)
 * Sorted TTFT 100 100 300 450: p50 rank 2 = 100, p99 rank 4 = 450; TPOT
 * 12 100 100 200: p50 100, p99 200.  Bounds TTFT 300, TPOT 150: requests
 * 0 and 1 meet both, 2 misses TPOT, 3 misses TTFT: 2.
 */
static void test_tokens(void)
{
	static const __u64 arrive[4] = { 0, 50, 100, 150 };
	static const __u64 first[4] = { 100, 350, 200, 600 };
	static const __u64 last[4] = { 500, 750, 1003, 650 };
	struct req_stats st;

	memset(&st, 0, sizeof(st));
	CHECK(!req_token_stats_calc(arrive, first, last, 5, 4, 300, 150, &st),
	      "calc");
	CHECK(st.has_tokens && st.tokens == 5, "tokens %u", st.tokens);
	CHECK(st.ttft_p50 == 100, "ttft p50 %llu",
	      (unsigned long long)st.ttft_p50);
	CHECK(st.ttft_p99 == 450, "ttft p99 %llu",
	      (unsigned long long)st.ttft_p99);
	CHECK(st.tpot_p50 == 100, "tpot p50 %llu",
	      (unsigned long long)st.tpot_p50);
	CHECK(st.tpot_p99 == 200, "tpot p99 %llu",
	      (unsigned long long)st.tpot_p99);
	CHECK(st.tokens_met == 2, "met %u", st.tokens_met);
	/* only a TTFT bound: request 3 misses it */
	CHECK(!req_token_stats_calc(arrive, first, last, 5, 4, 300, 0, &st) &&
	      st.tokens_met == 3, "met, TTFT only %u", st.tokens_met);
	/* one token: no TPOT, which meets any TPOT bound */
	CHECK(!req_token_stats_calc(arrive, first, first, 1, 4, 0, 1, &st) &&
	      st.tpot_p50 == 0 && st.tpot_p99 == 0 && st.tokens_met == 4,
	      "one token: tpot %llu, met %u",
	      (unsigned long long)st.tpot_p99, st.tokens_met);
	CHECK(req_token_stats_calc(arrive, first, last, 0, 4, 0, 0, &st),
	      "no tokens");
	CHECK(req_token_stats_calc(arrive, first, last, 5, 0, 0, 0, &st),
	      "no requests");
}

int main(void)
{
	test_percentiles();
	test_tokens();
	test_times();
	test_arrivals();
	test_plan();
	test_at_load();
	printf("requests: %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
