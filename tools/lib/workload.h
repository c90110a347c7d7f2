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
/*
 * Grids of a file (includes too) are bounded by the memory they take, not
 * by a count per program: their descriptions and durations together at
 * most %WL_MAX_GRID_BYTES (wl_parse_file(): "more than ... MiB of grids").
 */
#define WL_MAX_GRID_BYTES	(256ULL << 20)
/* grid launches of one run: requests x grids of its program */
#define WL_MAX_LAUNCHES		(1U << 22)
#define WL_MAX_REQUESTS		1000000U
#define WL_MAX_LOAD_PPM		100000000U	/* --load 100: 100 x saturation */
#define WL_MAX_TIME_NS		(1ULL << 40)	/* gap=, think=, slo= with a unit */
#define WL_MAX_WORKLOADS	64	/* workloads per file */
#define WL_MAX_RUNS		64	/* runs per workload */
#define WL_MAX_DEPTH		8	/* include nesting */
#define WL_NAME_LEN		64	/* program and workload names, NUL incl. */
#define WL_MAX_CYCLES		(1ULL << 40)
#define WL_MAX_AT_PCT_PPM	10000000ULL	/* at=1000%: 10 runtimes */
/* weight= of a tenant: cpu.weight's, the core's GTBS_TENANT_WEIGHT_* */
#define WL_WEIGHT_DEFAULT	100U
#define WL_WEIGHT_MAX		10000U
#define WL_MAX_PPM		1000000U	/* max=100%: the whole device */
#define WL_MAX_ERRORS		20	/* bad lines reported per parse */
#define WL_ERR_LEN		8192	/* an error buffer for all of them */

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
 * struct wl_time - a time of a workload file (gap=, think=, slo=)
 * @value: emulated cycles, or with @ns nanoseconds.
 * @ns: @value is in ns, converted to cycles with the device's clock
 *	(wl_time_cycles()).
 */
struct wl_time {
	__u64 value;
	int ns;
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
 * @gap: ``gap=``: CPU time between the end of the program's previous grid
 *	(for its first grid: the request's arrival) and this grid's launch.
 * @token: 1 with ``token=1``: the grid's end emits an output token (the
 *	last grid of an LLM's prefill and of each decode step), for the
 *	TTFT and TPOT of a request (req_token_stats_calc()); else 0.
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
	struct wl_time gap;
	__u32 token;
	struct wl_loc loc;
};

/**
 * struct wl_program - grids run one after another by one process
 * @name: program name.
 * @paper: "" or its name in the paper (``paper=``, wl_program_paper()):
 *	what orders a pair's programs where the paper's order matters (the
 *	Section "Motivation" pairs of gputbs-sim eval).
 * @nr_grids: grids, at least 1 (the file's bound is %WL_MAX_GRID_BYTES).
 * @cap_grids: entries allocated in @grids.
 * @grids: the grids in order (malloc()ed, grows while parsing).
 * @loc: the program line.
 */
struct wl_program {
	char name[WL_NAME_LEN];
	char paper[WL_NAME_LEN];
	unsigned int nr_grids;
	unsigned int cap_grids;
	struct wl_grid *grids;
	struct wl_loc loc;
};

/* How a run's requests arrive (&wl_run.arrival). */
enum wl_arrival {
	WL_ARRIVAL_CLOSED,	/* outstanding=N (default: 1) */
	WL_ARRIVAL_FIXED,	/* rate=R arrival=fixed (the default with rate) */
	WL_ARRIVAL_POISSON,	/* rate=R arrival=poisson seed=S */
};

/**
 * struct wl_run - one program of a workload
 * @program_name: name of the program, as written.
 * @program: index into &wl_set.programs.
 * @at_pct: the offset is a fraction of the first run's alone runtime.
 * @at: arrival offset after the workload start: cycles, or with @at_pct
 *	parts per million of the first run's program alone runtime.
 * @requests: ``requests=``: times the program runs, each run a request,
 *	1..%WL_MAX_REQUESTS (default 1).
 * @arrival: how the requests arrive.
 * @rate_e4: open loop (``rate=``): requests per second of emulated time,
 *	times 10^4; 0 in a closed loop.
 * @seed: ``seed=`` of %WL_ARRIVAL_POISSON's inter-arrival times.
 * @outstanding: closed loop: requests in flight (``outstanding=``, default
 *	1): the first @outstanding arrive at @at, each later one when one
 *	ends, plus @think.
 * @think: closed loop: ``think=`` time between a request's end and the
 *	arrival of the next.
 * @has_slo: ``slo=`` was given.
 * @slo: ``slo=``: a request's deadline after its arrival.
 * @has_slo_ttft: ``slo-ttft=`` was given.
 * @slo_ttft: ``slo-ttft=``: the bound on a request's time to first token
 *	(the end of its first ``token=1`` grid minus its arrival).
 * @has_slo_tpot: ``slo-tpot=`` was given.
 * @slo_tpot: ``slo-tpot=``: the bound on a request's time per output
 *	token after the first (req_token_stats_calc()).
 * @prio_class: ``class=`` of the run: every grid of its program is
 *	submitted in this &gputbs_submit.prio_class
 *	(%GPUTBS_PRIO_LOW..%GPUTBS_PRIO_REALTIME) instead of its own;
 *	%GPUTBS_PRIO_DEFAULT without the key: each grid's own class.
 * @tenant: ``tenant=``: the tenant it shares with the runs of its
 *	workload that name the same; "" without the key: a tenant of its
 *	own, named after its program.
 * @tenant_id: its tenant's index in its workload, from 0 in the order
 *	the tenants first appear (&wl_workload.nr_tenants).
 * @weight: its tenant's weight, 1..%WL_WEIGHT_MAX (``weight=``; default
 *	%WL_WEIGHT_DEFAULT): the same in every run of the tenant.
 * @max_ppm: its tenant's cap on the device's SM time, ppm (``max=`` in
 *	percent), 0 for none: the same in every run of the tenant.
 * @has_weight: the run's own line gave ``weight=`` (else @weight is the
 *	default or what another run of its tenant gave).
 * @has_max: likewise ``max=``.
 * @loc: the run line.
 */
struct wl_run {
	char program_name[WL_NAME_LEN];
	unsigned int program;
	int at_pct;
	__u64 at;
	__u32 requests;
	__u32 arrival;
	__u64 rate_e4;
	__u64 seed;
	__u32 outstanding;
	struct wl_time think;
	int has_slo;
	struct wl_time slo;
	int has_slo_ttft;
	struct wl_time slo_ttft;
	int has_slo_tpot;
	struct wl_time slo_tpot;
	__u32 prio_class;
	char tenant[WL_NAME_LEN];
	unsigned int tenant_id;
	__u32 weight;
	__u32 max_ppm;
	int has_weight;
	int has_max;
	struct wl_loc loc;
};

/**
 * struct wl_workload - programs that run concurrently
 * @name: workload name.
 * @nr_runs: runs, 1..%WL_MAX_RUNS.
 * @runs: the runs.
 * @nr_tenants: distinct tenants of its runs (&wl_run.tenant_id), 1..@nr_runs.
 * @tenant_keys: a run gives ``tenant=``, ``weight=`` or ``max=``.
 * @loc: the workload line.
 */
struct wl_workload {
	char name[WL_NAME_LEN];
	unsigned int nr_runs;
	struct wl_run runs[WL_MAX_RUNS];
	unsigned int nr_tenants;
	int tenant_keys;
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
__u64 wl_time_cycles(const struct wl_time *t, __u32 clock_khz);
__u64 wl_rand_next(__u64 *state);
__u64 wl_exp_q32(__u64 r);
void wl_run_arrivals(const struct wl_run *run, __u32 clock_khz, __u64 at,
		     __u64 *arrive);
int wl_run_open(const struct wl_run *run);
void wl_run_saturating(const struct wl_run *run, struct wl_run *out);
int wl_run_has_slo(const struct wl_run *run);
__u32 wl_run_grid_class(const struct wl_run *run, const struct wl_grid *g);
unsigned int wl_program_tokens(const struct wl_program *prog,
			       unsigned int *first, unsigned int *last);
int wl_workload_at_load(const struct wl_workload *wl, const __u64 *alone,
			__u32 load_ppm, __u64 duration, __u32 clock_khz,
			struct wl_workload *out);
const char *wl_run_tenant(const struct wl_run *run,
			  const struct wl_program *prog);
char *wl_fmt_pct(__u32 ppm, char *buf, size_t len);
int wl_parse_max(const char *s, __u32 *ppm);
int wl_parse_load(const char *s, __u32 *ppm);
void wl_errors(const char *err, void (*fn)(const char *line));

#endif /* _GPUTBS_WORKLOAD_H */
