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
#include "../lib/result.h"

#define RUN_MAX_CGROUPS		WL_MAX_RUNS	/* tenants of an execution */
#define RUN_CGROUP_PATH		4096	/* a cgroup's path */

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
 * @shares: measure &prog_result.sm_share: run_alone() and run_workload()
 *	record blocks, in stream order where the module has it (the grids
 *	of a run are linked ahead, and a grid's records are fetched once it
 *	completed, retrying on -EBUSY), as for the tenant keys.
 * @t0_margin_ns: run_workload(): wall time between choosing the start
 *	cycle T0 and T0, in which every process must submit its first grid;
 *	0: %RUN_T0_MARGIN_NS plus %RUN_T0_PER_RUN_NS per run.
 * @info: NULL, or the device (run_alone(): its features, clock and
 *	max_grids_per_fd, for ``gap=`` and stream order).
 * @t0_align: run_workload() with arrival cycles: T0 rounded up to a
 *	multiple of this many cycles, the device's cap_period for a workload
 *	with tenants, so that the caps' periods start at T0 as the
 *	simulator's start at its cycle 0; 0: none.
 */
struct run_opts {
	const char *device;
	__u64 timeout_ns;
	bool record_blocks;
	bool shares;
	__u64 t0_margin_ns;
	const struct gputbs_info *info;
	__u64 t0_align;
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
 * struct run_cgroups - the cgroups of the tenants of "gputbs run"
 * @root: /sys/fs/cgroup/gputbs-run.PID.
 * @made: @root exists.
 * @paths: the tenants' cgroups of the current execution.
 * @nr: entries of @paths.
 * @mon: the netlink family the tenants were set through, for their caps'
 *	removal (NULL before the first tenant).
 * @capped: per entry of @paths, its cgroup id when its tenant got a cap,
 *	else 0: run_cgroups_drop() removes the cap before the cgroup, since a
 *	capped tenant outlives its cgroup and keeps sysfs cap_period from
 *	changing (-EBUSY).
 */
struct run_cgroups {
	char root[64];
	bool made;
	char paths[RUN_MAX_CGROUPS][RUN_CGROUP_PATH];
	unsigned int nr;
	struct gputbs_monitor *mon;
	__u64 capped[RUN_MAX_CGROUPS];
};

/* run_tenants.c */
int run_cgroups_init(struct run_cgroups *cg);
int run_cgroups_drop(struct run_cgroups *cg);
int run_cgroups_exit(struct run_cgroups *cg);
int run_cgroups_workload(struct run_cgroups *cg, struct gputbs_monitor *m,
			 struct workload_result *res, unsigned int *failed_run,
			 const char **what);
int run_cgroups_alone(struct run_cgroups *cg, struct gputbs_monitor *m,
		      const struct wl_program *prog, __u32 weight,
		      __u32 max_ppm, const char **what);
int run_cgroup_enter(const char *dir);
int run_cgroup_self(char *buf, size_t len);
void run_shares(struct workload_result *res, __u32 nr_sms);
void run_share_alone(struct prog_result *pr, __u32 nr_sms);

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
