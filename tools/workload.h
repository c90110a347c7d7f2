/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - workload files of the gputbs CLI (Documentation/workloads.rst).
 *
 * A workload file defines programs (sequences of grids) and workloads
 * (programs that run concurrently, each with an arrival offset).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_WORKLOAD_H
#define _GPUTBS_WORKLOAD_H

#include <stddef.h>
#include <linux/gputbs.h>

#define WL_MAX_PROGRAMS		64	/* programs per file, includes too */
#define WL_MAX_GRIDS		64	/* grids per program */
#define WL_MAX_WORKLOADS	64	/* workloads per file */
#define WL_MAX_RUNS		64	/* runs per workload */
#define WL_MAX_DEPTH		8	/* include nesting */
#define WL_NAME_LEN		64	/* program and workload names, NUL incl. */
#define WL_MAX_CYCLES		(1ULL << 40)
#define WL_MAX_AT_PCT_PPM	10000000ULL	/* at=1000%: 10 runtimes */

/**
 * struct wl_loc - where something was defined, for error messages
 * @file: path as opened (owned by the &struct wl_set).
 * @line: 1-based line number.
 */
struct wl_loc {
	const char *file;
	unsigned int line;
};

/**
 * struct wl_grid - one grid of a program
 * @label: grid label, printable ASCII without spaces.
 * @nr_blocks: thread blocks.
 * @threads: threads per block.
 * @regs: registers per thread.
 * @shmem: shared memory per block, bytes.
 * @cycles: mean block duration (%GPUTBS_WORK_DIST), 0 with @durations.
 * @rsd_ppm: relative standard deviation of block durations, ppm.
 * @seed: seed of the duration sequence.
 * @durations: NULL, or @nr_blocks durations (%GPUTBS_WORK_ARRAY).
 * @expect: expected runtime alone, cycles, 0 if not given (calibration).
 * @prio_class: &gputbs_submit.prio_class: %GPUTBS_PRIO_DEFAULT when not
 *	given, else %GPUTBS_PRIO_LOW..%GPUTBS_PRIO_REALTIME.
 * @idempotent: 1 with idempotent=1: its blocks may be flushed and run
 *	again (%GPUTBS_SUBMIT_IDEMPOTENT), else 0.
 * @loc: the grid line.
 */
struct wl_grid {
	char label[GPUTBS_LABEL_LEN];
	__u32 nr_blocks;
	__u32 threads;
	__u32 regs;
	__u32 shmem;
	__u64 cycles;
	__u32 rsd_ppm;
	__u64 seed;
	__u64 *durations;
	__u64 expect;
	__u32 prio_class;
	__u32 mem_ppm;
	__u32 knee_mwarps;
	__u32 block_dist;
	__u32 block_dist_param;
	__u32 startup_ppm;
	__u32 startup_blocks;
	__u32 idempotent;
	struct wl_loc loc;
};

/**
 * struct wl_program - grids run one after another by one process
 * @name: program name.
 * @paper: "" or its name in the paper (``paper=``, wl_program_paper()):
 *	what orders a pair's programs where the paper's order matters (the
 *	Section "Motivation" pairs of gputbs-sim eval).
 * @nr_grids: grids, 1..%WL_MAX_GRIDS.
 * @grids: the grids in order.
 * @loc: the program line.
 */
struct wl_program {
	char name[WL_NAME_LEN];
	char paper[WL_NAME_LEN];
	unsigned int nr_grids;
	struct wl_grid grids[WL_MAX_GRIDS];
	struct wl_loc loc;
};

/**
 * struct wl_run - one program of a workload
 * @program_name: name of the program, as written.
 * @program: index into &wl_set.programs.
 * @at_pct: the offset is a fraction of the first run's alone runtime.
 * @at: arrival offset after the workload start: cycles, or with @at_pct
 *	parts per million of the first run's program alone runtime.
 * @loc: the run line.
 */
struct wl_run {
	char program_name[WL_NAME_LEN];
	unsigned int program;
	int at_pct;
	__u64 at;
	struct wl_loc loc;
};

/**
 * struct wl_workload - programs that run concurrently
 * @name: workload name.
 * @nr_runs: runs, 1..%WL_MAX_RUNS.
 * @runs: the runs.
 * @loc: the workload line.
 */
struct wl_workload {
	char name[WL_NAME_LEN];
	unsigned int nr_runs;
	struct wl_run runs[WL_MAX_RUNS];
	struct wl_loc loc;
};

/**
 * struct wl_set - everything one workload file (and its includes) defines
 * @path: the file given to wl_parse_file().
 * @nr_programs: programs.
 * @programs: programs, in definition order.
 * @nr_workloads: workloads, >= 1 unless parsed with %WL_PARSE_PROGRAMS.
 * @workloads: workloads, in definition order.
 * @files: paths of every file read, for &struct wl_loc.
 * @nr_files: entries of @files.
 */
struct wl_set {
	char *path;
	unsigned int nr_programs;
	struct wl_program *programs[WL_MAX_PROGRAMS];
	unsigned int nr_workloads;
	struct wl_workload *workloads[WL_MAX_WORKLOADS];
	char **files;
	unsigned int nr_files;
};

/* Flags of wl_parse_file(). */
#define WL_PARSE_PROGRAMS	(1U << 0)	/* no workload needed */

int wl_parse_file(const char *path, unsigned int flags, struct wl_set **out,
		  char *err, size_t errlen);
void wl_free(struct wl_set *set);
int wl_find_program(const struct wl_set *set, const char *name);
int wl_grid_equal(const struct wl_grid *a, const struct wl_grid *b);
const char *wl_program_paper(const struct wl_program *prog);
int wl_program_equal(const struct wl_program *a, const struct wl_program *b);
const char *wl_class_name(__u32 prio_class);

#endif /* _GPUTBS_WORKLOAD_H */
