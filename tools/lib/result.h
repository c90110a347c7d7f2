/* SPDX-License-Identifier: GPL-2.0 */
/*
 * result.h - one execution of a program and of a workload, with the
 * arrival plan of its requests: what "gputbs run" measures on the module
 * and "gputbs-sim run" in virtual time, and what report.c prints.  The
 * functions are reqstats.c's.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_RESULT_H
#define _GPUTBS_RESULT_H

#include <stdbool.h>
#include <gputbs.h>

#include "gtbs.h"
#include "workload.h"
#include "reqstats.h"

#define RUN_MAX_PROGRAMS	256	/* distinct programs over all files */
#define RUN_MAX_SHARE_WINDOWS	4	/* gputbs-sim run --share-window lengths */

struct prog_result;

/**
 * struct run_plan - when each grid launch of a program's requests arrives
 * @nr_grids: grids of the program (G).
 * @nr_requests: requests.
 * @outstanding: closed loop: requests in flight (N); 0 for an open loop.
 * @first: the first request's arrival, absolute cycle; 0 alone (its first
 *	grid arrives when submitted).
 * @arrive: open loop: per request, its arrival, absolute cycles.
 * @gap: per grid, ``gap=`` in cycles.
 * @think: closed loop: ``think=`` in cycles.
 * @prio_class: the run's ``class=`` (&wl_run.prio_class): every grid is
 *	submitted in it; %GPUTBS_PRIO_DEFAULT: each grid's own class.
 *
 * Launch L = q * G + k is grid k of request q.  It arrives at: k > 0: the
 * end of launch L - 1 plus gap[k]; k = 0: open loop @arrive[q] + gap[0];
 * closed loop, q < N: @first + gap[0]; q >= N: the end of request q - N's
 * last grid plus @think plus gap[0].  run_plan_dep() names the launch
 * whose end it waits for.
 */
struct run_plan {
	__u32 nr_grids;
	__u32 nr_requests;
	__u32 outstanding;
	__u64 first;
	__u64 *arrive;
	__u64 *gap;
	__u64 think;
	__u32 prio_class;
};

int run_plan_init(struct run_plan *pl, const struct wl_program *prog,
		  const struct wl_run *run, __u32 clock_khz, __u64 first);
void run_plan_free(struct run_plan *pl);
int run_plan_dep(const struct run_plan *pl, size_t launch, size_t *dep,
		 __u64 *after);
size_t run_plan_window(const struct run_plan *pl);
int run_plan_arrivals(const struct run_plan *pl, struct prog_result *res);
size_t run_plan_late(const struct run_plan *pl, const struct prog_result *res,
		     __u64 first);

/**
 * struct prog_result - one execution of a program
 * @prog: the program.
 * @nr_requests: requests (&wl_run.requests; 1 alone and without
 *	``requests=``).
 * @nr_grids: entries of @grids and @blocks: @nr_requests times the
 *	program's grids.
 * @grids: WAIT results of its grids, request after request, each in
 *	program order (grid k of request i at i * grids + k); malloc()ed by
 *	prog_result_alloc(), freed by prog_result_free().
 * @arrive: per request, its arrival cycle (the clock of @grids).
 * @runtime: alone: end of the last grid minus the arrival; in a workload
 *	with requests, their mean latency (req_stats_calc()), cycles.
 * @blocks: with &run_opts.record_blocks, per grid its block records in
 *	block-end order (malloc()ed, &wl_grid.nr_blocks entries), else NULL
 *	or with no recording at all a NULL array.
 * @stats: the latency metrics of its requests.
 * @slo_cycles: its run's ``slo=`` in cycles, 0 without.
 * @stream_order: every grid arrived at its exact cycle (simulator, or
 *	%GPUTBS_FEATURE_STREAM_ORDER and the process kept ahead,
 *	run_plan_late()); false: some arrived when its process got to them,
 *	in wall-clock time.
 * @has_share: its tenant had @weight and @max_ppm, and @sm_share was
 *	measured: always in gputbs-sim; in gputbs run when a workload has
 *	tenant keys (each tenant a cgroup, &run_opts.shares).
 * @weight: with @has_share, its tenant's weight (&wl_run.weight).
 * @max_ppm: with @has_share, its tenant's cap, ppm (0: none); alone: the
 *	cap of the runs whose alone execution it is.
 * @sm_share: with @has_share, the share of the device's SM time its
 *	blocks held while every run of its workload had a grid in the device
 *	(alone: its whole run), 0..1; NAN if that interval is empty.
 * @nr_windows: gputbs-sim run --share-window: window lengths of
 *	@window_cycles, @nr_win and @win_share (0: none).
 * @window_cycles: per window length, cycles.
 * @nr_win: per window length, the whole windows that tile the interval of
 *	@sm_share from its start.
 * @win_share: per window length, the share of the device's SM time its
 *	blocks held in each window (@nr_win entries); borrowed from
 *	gputbs-sim's &sim_prog_out.win_share, not freed here.
 */
struct prog_result {
	const struct wl_program *prog;
	unsigned int nr_requests;
	unsigned int nr_grids;
	struct gputbs_wait *grids;
	__u64 *arrive;
	__u64 runtime;
	struct gputbs_block_record **blocks;
	struct req_stats stats;
	__u64 slo_cycles;
	bool stream_order;
	bool has_share;
	__u32 weight;
	__u32 max_ppm;
	double sm_share;
	unsigned int nr_windows;
	__u64 window_cycles[RUN_MAX_SHARE_WINDOWS];
	size_t nr_win[RUN_MAX_SHARE_WINDOWS];
	const double *win_share[RUN_MAX_SHARE_WINDOWS];
};

/**
 * struct workload_result - one execution of a workload
 * @set: the file that defines it.
 * @wl: the workload.
 * @t0_ns: CLOCK_MONOTONIC start of the workload, ns.
 * @t0_cycle: emulated cycle at @t0_ns.
 * @t0_margin_cycles: cycles between choosing @t0_cycle and @t0_cycle.
 * @wakeup_arrivals: the module lacks %GPUTBS_FEATURE_ARRIVAL_CYCLE: the
 *	first grids were submitted at the wall-clock time of @t0_cycle plus
 *	their offsets, and their arrivals include the processes' wake-up
 *	latency.  False: they arrived at exactly those cycles.
 * @alone: per run, the index of its program in the alone results.
 * @at_cycles: per run, the arrival offset, resolved to cycles.
 * @runs: per run, the shared execution.
 * @alone_cycles: per run, its program's alone runtime.
 * @shared_cycles: per run, its turnaround in the workload.
 * @metrics: STP, ANTT, StrictF over the runs.
 * @clock_khz: the device's clock, for times with units.
 * @share_from: the start of the interval of the runs'
 *	&prog_result.sm_share, the latest arrival of a run's first grid.
 * @share_to: its end, the earliest end of a run's last grid.
 * @cgroups: gputbs run with tenants: per run, the cgroup directory its
 *	process moves into before it opens the device, or NULL.
 * @load_ppm: ``--load``: the load @wl's request streams were rescaled to
 *	with wl_workload_at_load() (@wl is the rescaled copy); 0 without.
 * @load_alone: with @load_ppm, per run, the alone latency of one request
 *	of its program under fifo on an idle device that scaled it, cycles.
 */
struct workload_result {
	const struct wl_set *set;
	const struct wl_workload *wl;
	__u64 t0_ns;
	__u64 t0_cycle;
	__u64 t0_margin_cycles;
	bool wakeup_arrivals;
	unsigned int alone[WL_MAX_RUNS];
	__u64 at_cycles[WL_MAX_RUNS];
	struct prog_result runs[WL_MAX_RUNS];
	u64 alone_cycles[WL_MAX_RUNS];
	u64 shared_cycles[WL_MAX_RUNS];
	struct gtbs_metrics metrics;
	__u32 clock_khz;
	__u64 share_from;
	__u64 share_to;
	const char *cgroups[WL_MAX_RUNS];
	__u32 load_ppm;
	__u64 load_alone[WL_MAX_RUNS];
};

/* reqstats.c */
int prog_result_stats(struct prog_result *res, __u64 slo);
int prog_result_token_stats(struct prog_result *res, __u64 slo_ttft,
			    __u64 slo_tpot);
int prog_result_run_stats(struct prog_result *res, const struct wl_run *run,
			  __u32 clock_khz);
int prog_result_alloc(struct prog_result *res, const struct wl_program *prog,
		      unsigned int nr_requests, bool blocks);
void prog_result_free(struct prog_result *res);

#endif /* _GPUTBS_RESULT_H */
