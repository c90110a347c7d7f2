/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - running programs alone and workloads concurrently.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_RUN_H
#define _GPUTBS_RUN_H

#include <stdbool.h>
#include <gputbs.h>

#include "gtbs.h"
#include "workload.h"

#define RUN_MAX_PROGRAMS	256	/* distinct programs over all files */

/*
 * Default margin between choosing T0 and T0, for forking the children;
 * converted to cycles with the device's time scale.  A child in a TCG
 * guest is ready to submit a few milliseconds after the fork.
 */
#define RUN_T0_MARGIN_NS	200000000ULL
#define RUN_T0_PER_RUN_NS	1000000ULL

/**
 * struct run_opts - how to run
 * @device: device node.
 * @timeout_ns: longest wait for one grid, ns; 0: no limit.
 * @record_blocks: run_workload() submits with
 *	%GPUTBS_SUBMIT_RECORD_BLOCKS and fetches every grid's block records
 *	before reaping it (&prog_result.blocks).
 * @t0_margin_ns: run_workload(): wall time between choosing the start
 *	cycle T0 and T0, in which every process must submit its first grid;
 *	0: %RUN_T0_MARGIN_NS plus %RUN_T0_PER_RUN_NS per run.
 */
struct run_opts {
	const char *device;
	__u64 timeout_ns;
	bool record_blocks;
	__u64 t0_margin_ns;
};

/**
 * struct run_error - where a run failed
 * @err: negative errno.
 * @what: "open", "submit", "poll", "blocks", "wait", or "arrival" (-ETIME:
 *	the first grid arrived @late_cycles after its arrival cycle).
 * @grid: index of the grid concerned.
 * @late_cycles: "arrival": how late, cycles.
 * @margin_cycles: "arrival": &workload_result.t0_margin_cycles.
 * @sub_reason: "submit": &gputbs_submit.err_reason as the module wrote it.
 * @sub_value: "submit": &gputbs_submit.err_value.
 * @sub_limit: "submit": &gputbs_submit.err_limit.
 * @detail: "submit": the module's reason in words,
 *	gputbs_submit_explain() (run_strerror() prints it).
 */
struct run_error {
	int err;
	const char *what;
	unsigned int grid;
	__u64 late_cycles;
	__u64 margin_cycles;
	__u32 sub_reason;
	__u64 sub_value;
	__u64 sub_limit;
	char detail[256];
};

/**
 * struct run_arrival - when the first grid of a run arrives
 * @cycle: emulated cycle.
 * @ns: its CLOCK_MONOTONIC time, ns.
 */
struct run_arrival {
	__u64 cycle;
	__u64 ns;
};

/**
 * struct prog_result - one execution of a program
 * @prog: the program.
 * @grids: WAIT results of its grids, in order.
 * @runtime: last grid end - first grid submit, cycles.
 * @blocks: with &run_opts.record_blocks, per grid its block records in
 *	block-end order (malloc()ed, &wl_grid.nr_blocks entries), else NULL;
 *	freed by run_free_blocks().
 */
struct prog_result {
	const struct wl_program *prog;
	struct gputbs_wait grids[WL_MAX_GRIDS];
	__u64 runtime;
	struct gputbs_block_record *blocks[WL_MAX_GRIDS];
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
};

void run_submit_args(const struct wl_grid *grid, struct gputbs_submit *sub);
__u64 run_program_runtime(const struct prog_result *res);
int run_alone(const struct run_opts *opts, const struct wl_program *prog,
	      struct prog_result *res, struct run_error *err);
int run_workload(const struct run_opts *opts, const struct gputbs_info *info,
		 struct workload_result *res, unsigned int *failed_run,
		 struct run_error *err);
void run_free_blocks(struct workload_result *res);
const char *run_strerror(const struct run_error *err);

#endif /* _GPUTBS_RUN_H */
