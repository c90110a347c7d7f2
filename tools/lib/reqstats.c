// SPDX-License-Identifier: GPL-2.0
/*
 * reqstats.c - latency metrics of a program's requests.
 *
 * A request's latency is the end of its last grid minus its arrival.
 * Percentiles are nearest-rank: the p-th percentile of n sorted latencies
 * is the one of rank ceil(p * n / 100) (1-based), so it is always one of
 * the measured latencies (p50 of 10 requests: the 5th smallest; p90: the
 * 9th; p99: the 10th).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

static int req_cmp(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * req_percentile() - nearest-rank percentile
 * @sorted: latencies in increasing order.
 * @n: entries of @sorted, at least 1.
 * @pct: the percentile, 1..100.
 *
 * Return: @sorted[ceil(@pct * @n / 100) - 1].
 */
__u64 req_percentile(const __u64 *sorted, unsigned int n, unsigned int pct)
{
	unsigned long long rank = ((unsigned long long)pct * n + 99) / 100;

	if (!rank)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/**
 * req_stats_calc() - latency metrics of requests
 * @arrive: per request, its arrival cycle.
 * @end: per request, the end cycle of its last grid (>= its arrival).
 * @n: requests, at least 1.
 * @slo: deadline in cycles, 0 for none.
 * @st: out: the metrics.
 *
 * Return: 0, -EINVAL for no requests, -ENOMEM.
 */
int req_stats_calc(const __u64 *arrive, const __u64 *end, unsigned int n,
		   __u64 slo, struct req_stats *st)
{
	unsigned __int128 sum = 0;
	__u64 *lat;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	if (!n)
		return -EINVAL;
	lat = malloc(n * sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	st->n = n;
	st->slo = slo;
	st->first_arrive = arrive[0];
	for (i = 0; i < n; i++) {
		lat[i] = end[i] > arrive[i] ? end[i] - arrive[i] : 0;
		sum += lat[i];
		if (arrive[i] < st->first_arrive)
			st->first_arrive = arrive[i];
		if (end[i] > st->last_end)
			st->last_end = end[i];
		if (slo && lat[i] <= slo)
			st->slo_met++;
	}
	qsort(lat, n, sizeof(*lat), req_cmp);
	st->p50 = req_percentile(lat, n, 50);
	st->p90 = req_percentile(lat, n, 90);
	st->p99 = req_percentile(lat, n, 99);
	st->max = lat[n - 1];
	st->mean = (__u64)(sum / n);
	free(lat);
	return 0;
}

/**
 * req_token_stats_calc() - time to first token and time per output token
 * @arrive: per request, its arrival cycle.
 * @first_token: per request, the end cycle of its first ``token=1`` grid.
 * @last_token: per request, the end cycle of its last ``token=1`` grid.
 * @tokens: output tokens per request (``token=1`` grids), at least 1.
 * @n: requests, at least 1.
 * @slo_ttft: bound on TTFT in cycles, 0 for none.
 * @slo_tpot: bound on TPOT in cycles, 0 for none.
 * @st: in/out: its token fields are set (the others are left alone).
 *
 * MLPerf's definitions: a request's TTFT is @first_token - @arrive; its
 * TPOT is (@last_token - @first_token) / (@tokens - 1), rounded down,
 * and a request of one token has none.  p50 and p99 are nearest-rank
 * (req_percentile()) over the requests, the TPOT ones over those with
 * two tokens or more (0 if there are none).  A request meets its SLO
 * when its TTFT <= @slo_ttft and its TPOT <= @slo_tpot, a bound of 0
 * or a TPOT it does not have counting as met.
 *
 * Return: 0, -EINVAL for no requests or no tokens, -ENOMEM.
 */
int req_token_stats_calc(const __u64 *arrive, const __u64 *first_token,
			 const __u64 *last_token, unsigned int tokens,
			 unsigned int n, __u64 slo_ttft, __u64 slo_tpot,
			 struct req_stats *st)
{
	__u64 *ttft, *tpot = NULL;
	unsigned int i;

	if (!n || !tokens)
		return -EINVAL;
	ttft = malloc(n * sizeof(*ttft));
	if (tokens > 1)
		tpot = malloc(n * sizeof(*tpot));
	if (!ttft || (tokens > 1 && !tpot)) {
		free(ttft);
		free(tpot);
		return -ENOMEM;
	}
	st->has_tokens = true;
	st->tokens = tokens;
	st->slo_ttft = slo_ttft;
	st->slo_tpot = slo_tpot;
	st->tokens_met = 0;
	st->tpot_p50 = 0;
	st->tpot_p99 = 0;
	for (i = 0; i < n; i++) {
		bool met;

		ttft[i] = first_token[i] > arrive[i] ?
			  first_token[i] - arrive[i] : 0;
		met = !slo_ttft || ttft[i] <= slo_ttft;
		if (tpot) {
			tpot[i] = last_token[i] > first_token[i] ?
				  (last_token[i] - first_token[i]) /
				  (tokens - 1) : 0;
			met = met && (!slo_tpot || tpot[i] <= slo_tpot);
		}
		if (met)
			st->tokens_met++;
	}
	qsort(ttft, n, sizeof(*ttft), req_cmp);
	st->ttft_p50 = req_percentile(ttft, n, 50);
	st->ttft_p99 = req_percentile(ttft, n, 99);
	if (tpot) {
		qsort(tpot, n, sizeof(*tpot), req_cmp);
		st->tpot_p50 = req_percentile(tpot, n, 50);
		st->tpot_p99 = req_percentile(tpot, n, 99);
	}
	free(ttft);
	free(tpot);
	return 0;
}

/**
 * req_per_second() - a count per second of emulated time
 * @st: the metrics: the window is @st->first_arrive .. @st->last_end.
 * @count: requests or grids completed in the window.
 * @clock_khz: the device's clock.
 *
 * Return: @count / (window / clock), or 0 for an empty window.
 */
double req_per_second(const struct req_stats *st, __u64 count,
		      __u32 clock_khz)
{
	__u64 window = st->last_end - st->first_arrive;

	if (!window || st->last_end < st->first_arrive)
		return 0;
	return (double)count * clock_khz * 1000.0 / (double)window;
}

/**
 * prog_result_alloc() - allocate the results of a program execution
 * @res: the result, zeroed here; its @prog set to @prog.
 * @prog: the program.
 * @nr_requests: its requests, at least 1.
 * @blocks: also the per-grid block record pointers (&prog_result.blocks).
 *
 * Return: 0 or -ENOMEM (then nothing stays allocated).
 */
int prog_result_alloc(struct prog_result *res, const struct wl_program *prog,
		      unsigned int nr_requests, bool blocks)
{
	size_t n = (size_t)nr_requests * prog->nr_grids;

	memset(res, 0, sizeof(*res));
	res->prog = prog;
	res->nr_requests = nr_requests;
	res->nr_grids = n;
	res->grids = calloc(n, sizeof(*res->grids));
	res->arrive = calloc(nr_requests, sizeof(*res->arrive));
	if (blocks)
		res->blocks = calloc(n, sizeof(*res->blocks));
	if (!res->grids || !res->arrive || (blocks && !res->blocks)) {
		prog_result_free(res);
		return -ENOMEM;
	}
	return 0;
}

/**
 * prog_result_free() - free what prog_result_alloc() and the runs allocated
 * @res: the result; its arrays are freed and reset, @prog is kept.
 */
void prog_result_free(struct prog_result *res)
{
	unsigned int k;

	for (k = 0; res->blocks && k < res->nr_grids; k++)
		free(res->blocks[k]);
	free(res->blocks);
	free(res->grids);
	free(res->arrive);
	res->blocks = NULL;
	res->grids = NULL;
	res->arrive = NULL;
}

/**
 * prog_result_stats() - the latency metrics of an execution's requests
 * @res: the execution: its grids and arrivals filled.
 * @slo: the deadline, cycles; 0: none.
 *
 * Fills @res->stats and @res->slo_cycles.
 *
 * Return: 0 or -ENOMEM.
 */
int prog_result_stats(struct prog_result *res, __u64 slo)
{
	unsigned int g = res->prog->nr_grids, q;
	__u64 *end;
	int ret;

	end = calloc(res->nr_requests, sizeof(*end));
	if (!end)
		return -ENOMEM;
	for (q = 0; q < res->nr_requests; q++)
		end[q] = res->grids[(size_t)(q + 1) * g - 1].end_cycle;
	ret = req_stats_calc(res->arrive, end, res->nr_requests, slo,
			     &res->stats);
	res->slo_cycles = slo;
	free(end);
	if (!ret)
		ret = prog_result_token_stats(res, 0, 0);
	return ret;
}

/**
 * prog_result_token_stats() - TTFT and TPOT of an execution's requests
 * @res: the execution: its grids and arrivals filled.
 * @slo_ttft: the bound on TTFT, cycles; 0: none.
 * @slo_tpot: the bound on TPOT, cycles; 0: none.
 *
 * Fills the token fields of @res->stats (req_token_stats_calc()) when
 * its program has ``token=1`` grids; without them it does nothing.
 *
 * Return: 0 or -ENOMEM.
 */
int prog_result_token_stats(struct prog_result *res, __u64 slo_ttft,
			    __u64 slo_tpot)
{
	unsigned int g = res->prog->nr_grids, q, first = 0, last = 0, n;
	__u64 *ft, *lt;
	int ret;

	n = wl_program_tokens(res->prog, &first, &last);
	if (!n)
		return 0;
	ft = calloc(res->nr_requests, sizeof(*ft));
	lt = calloc(res->nr_requests, sizeof(*lt));
	if (!ft || !lt) {
		free(ft);
		free(lt);
		return -ENOMEM;
	}
	for (q = 0; q < res->nr_requests; q++) {
		ft[q] = res->grids[(size_t)q * g + first].end_cycle;
		lt[q] = res->grids[(size_t)q * g + last].end_cycle;
	}
	ret = req_token_stats_calc(res->arrive, ft, lt, n, res->nr_requests,
				   slo_ttft, slo_tpot, &res->stats);
	free(ft);
	free(lt);
	return ret;
}

/**
 * prog_result_run_stats() - the request metrics of a run's execution
 * @res: the execution: its grids and arrivals filled.
 * @run: its run line: ``slo=``, ``slo-ttft=``, ``slo-tpot=``.
 * @clock_khz: the device's clock, for times with units.
 *
 * prog_result_stats() with the run's ``slo=``, then, for a program with
 * ``token=1`` grids, TTFT and TPOT with its ``slo-ttft=`` and
 * ``slo-tpot=`` (prog_result_token_stats()).
 *
 * Return: 0 or -ENOMEM.
 */
int prog_result_run_stats(struct prog_result *res, const struct wl_run *run,
			  __u32 clock_khz)
{
	int ret;

	ret = prog_result_stats(res, run->has_slo ?
				wl_time_cycles(&run->slo, clock_khz) : 0);
	if (ret)
		return ret;
	return prog_result_token_stats(res, run->has_slo_ttft ?
				       wl_time_cycles(&run->slo_ttft,
						      clock_khz) : 0,
				       run->has_slo_tpot ?
				       wl_time_cycles(&run->slo_tpot,
						      clock_khz) : 0);
}

/**
 * run_plan_init() - the arrivals of a program's requests
 * @pl: out: the plan; release with run_plan_free().
 * @prog: the program.
 * @run: its run line, or NULL (alone: one request).
 * @clock_khz: the device's clock, for times with units.
 * @first: the first request's arrival, absolute cycle (0 alone).
 *
 * Return: 0 or -ENOMEM.
 */
int run_plan_init(struct run_plan *pl, const struct wl_program *prog,
		  const struct wl_run *run, __u32 clock_khz, __u64 first)
{
	unsigned int k;

	memset(pl, 0, sizeof(*pl));
	pl->nr_grids = prog->nr_grids;
	/* a run line that did not come from the parser: one request */
	pl->nr_requests = run && run->requests ? run->requests : 1;
	pl->outstanding = run && wl_run_open(run) ? 0 :
			  run && run->outstanding ? run->outstanding : 1;
	pl->first = first;
	pl->think = run ? wl_time_cycles(&run->think, clock_khz) : 0;
	pl->prio_class = run ? run->prio_class : GPUTBS_PRIO_DEFAULT;
	pl->gap = calloc(pl->nr_grids, sizeof(*pl->gap));
	if (!pl->gap)
		return -ENOMEM;
	for (k = 0; k < pl->nr_grids; k++)
		pl->gap[k] = wl_time_cycles(&prog->grids[k].gap, clock_khz);
	if (!pl->outstanding) {
		pl->arrive = calloc(pl->nr_requests, sizeof(*pl->arrive));
		if (!pl->arrive) {
			run_plan_free(pl);
			return -ENOMEM;
		}
		wl_run_arrivals(run, clock_khz, first, pl->arrive);
	}
	return 0;
}

/**
 * run_plan_free() - release a plan
 * @pl: the plan.
 */
void run_plan_free(struct run_plan *pl)
{
	free(pl->gap);
	free(pl->arrive);
	pl->gap = NULL;
	pl->arrive = NULL;
}

/**
 * run_plan_dep() - what a grid launch waits for
 * @pl: the plan.
 * @launch: the launch, q * G + k.
 * @dep: out: with 1 returned, the launch whose end it waits for.
 * @after: out: cycles after that end (with 1), or its arrival cycle (with
 *	0; for the alone run's first launch 0: when submitted).
 *
 * Return: 1 if @launch arrives @after cycles after the end of @dep
 * (%GPUTBS_SUBMIT_AFTER); 0 if it arrives at the absolute cycle @after
 * (%GPUTBS_SUBMIT_AT_CYCLE).
 */
int run_plan_dep(const struct run_plan *pl, size_t launch, size_t *dep,
		 __u64 *after)
{
	size_t g = pl->nr_grids, q = launch / g, k = launch % g;

	if (k) {
		*dep = launch - 1;
		*after = pl->gap[k];
		return 1;
	}
	if (!pl->outstanding) {
		*after = pl->arrive[q] + pl->gap[0];
		return 0;
	}
	if (q < pl->outstanding) {
		*after = pl->first ? pl->first + pl->gap[0] : 0;
		return 0;
	}
	*dep = (q - pl->outstanding + 1) * g - 1;
	*after = pl->think + pl->gap[0];
	return 1;
}

/**
 * run_plan_window() - grids a file must hold at once to stream a plan
 * @pl: the plan.
 *
 * A launch may be reaped only once the launches that wait for it are
 * submitted: in a closed loop of N requests of G grids that is N * G + 1
 * unreaped grids, else 2.
 *
 * Return: the least &gputbs_info.max_grids_per_fd that streams @pl.
 */
size_t run_plan_window(const struct run_plan *pl)
{
	if (pl->outstanding && pl->nr_requests > pl->outstanding)
		return (size_t)pl->outstanding * pl->nr_grids + 1;
	return 2;
}

/**
 * run_plan_arrivals() - the arrival of each request of an execution
 * @pl: its plan.
 * @res: the execution, its grids filled; its &prog_result.arrive set.
 *
 * One request alone or first in a closed loop arrives when its first
 * grid did, minus its ``gap=`` (so it is the grid's submission without
 * a gap); an open-loop request at its planned cycle; a later closed-loop
 * one at the end of the request it follows plus ``think=``.
 *
 * Return: 0.
 */
int run_plan_arrivals(const struct run_plan *pl, struct prog_result *res)
{
	size_t g = pl->nr_grids, q;

	for (q = 0; q < pl->nr_requests; q++) {
		if (!pl->outstanding)
			res->arrive[q] = pl->arrive[q];
		else if (q < pl->outstanding)
			res->arrive[q] = res->grids[q * g].submit_cycle -
					 pl->gap[0];
		else
			res->arrive[q] = res->grids[(q - pl->outstanding + 1) *
						    g - 1].end_cycle +
					 pl->think;
	}
	return 0;
}

/**
 * run_plan_late() - grid launches that did not arrive when planned
 * @pl: the plan the execution followed.
 * @res: the execution, its grids filled.
 * @first: the cycle the first launch was planned for; 0: when submitted
 *	(alone without a head start), not checked.
 *
 * A launch after another should arrive at that one's end plus its gap;
 * an open-loop request's first grid at its arrival plus its gap; a closed
 * loop's first N at @first.  In stream order the module releases them so;
 * a process that submits a grid only after that cycle has passed (it fell
 * behind, or the module has no stream order) makes it arrive later.
 *
 * Return: how many launches arrived later than planned.
 */
size_t run_plan_late(const struct run_plan *pl, const struct prog_result *res,
		     __u64 first)
{
	size_t l, dep, late = 0;
	__u64 at;

	for (l = 0; l < res->nr_grids; l++) {
		__u64 want;

		if (run_plan_dep(pl, l, &dep, &at))
			want = res->grids[dep].end_cycle + at;
		else if (at)
			want = at;
		else if (first)
			want = first + pl->gap[0];
		else
			continue;
		if (res->grids[l].submit_cycle != want)
			late++;
	}
	return late;
}
