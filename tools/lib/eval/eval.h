/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eval.h - the evaluation sweep's types: jobs, a backend's results, the sweep
 *
 * The sweep (eval.c) runs every ordered pair of programs at every
 * arrival offset under every policy through a backend: the simulator's
 * sim_run() in gputbs-sim, the module in "gputbs eval".  Its results
 * flow one way: eval.c and reference.c compute them; output.c, paper.c
 * and plot.c print them; evalcmd.c, the command line, calls those.
 *
 *   eval.c       the sweep (sim_eval_run()) and its geomeans
 *   reference.c  the paper's numbers and the Motivation experiment
 *   output.c     text and JSON (output.h)
 *   paper.c      the paper's tables, compared (paper.h)
 *   plot.c       gnuplot figures (plot.h)
 *   args.c       option parsing and messages (args.h)
 *   evalcmd.c    the eval command line (evalcmd.h)
 *
 * The names keep the sim_ prefix: the sweep began as gputbs-sim's.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_EVAL_H
#define _GPUTBS_EVAL_H

#include <stdbool.h>
#include <stdio.h>

#include "gtbs.h"
#include "../workload.h"

#define SIM_EXIT_SYSTEM		1	/* out of memory, I/O, gnuplot */
#define SIM_EXIT_USAGE		2	/* command line or workload file */

#define SIM_MAX_POLICIES	16
/* --policy-plugin options a command takes */
#define SIM_MAX_PLUGINS		16
/* getopt values of --policy-plugin and --param (no short form) */
#define SIM_OPT_PLUGIN		256
#define SIM_OPT_PARAM		257
#define SIM_OPT_PREEMPT		258
#define SIM_OPT_SWITCH_BW	259
#define SIM_OPT_IDEMPOTENT	260
/* gputbs-sim's --preset, the same as its --device NAME */
#define SIM_OPT_PRESET		261
/* --block-times wave|independent (no short form) */
#define SIM_OPT_BLOCK_TIMES	262
/* --cap-period CYCLES: &gtbs_dev.cap_period (no short form) */
#define SIM_OPT_CAP_PERIOD	263
#define SIM_MAX_OFFSETS		16
#define SIM_MAX_OFFSET_PCT	1000
/* Arrival of the second program at offset 0 (paper: "within 100 cycles"). */
#define SIM_OFFSET0_CYCLES	50
/* run --share-window: window lengths, and windows per length at most */
#define SIM_MAX_SHARE_WINDOWS	4
#define SIM_MAX_WINDOWS		(1U << 20)

/**
 * struct sim_grid_out - what one grid did
 * @submit_cycle: arrival.
 * @start_cycle: first block start.
 * @end_cycle: last block end.
 * @residency: maximum residency R.
 * @nr_predictions: Simple Slicing predictions made for it, all SMs.
 * @first_pred: its first prediction (&gtbs_grid.first_pred), cycles.
 * @final_pred: gtbs_grid_pred_final(), cycles (0: none).
 */
struct sim_grid_out {
	u64 submit_cycle;
	u64 start_cycle;
	u64 end_cycle;
	u32 residency;
	u64 nr_predictions;
	u64 first_pred;
	u64 final_pred;
};

/**
 * struct sim_prog_out - what one program of a workload did
 * @nr_grids: grid launches: @nr_requests times the grids of its program.
 * @grids: per launch, request after request, each in program order.
 * @nr_requests: requests (1 without &sim_job.runs).
 * @arrive: per request, its arrival cycle.
 * @turnaround: one request: end of its last grid minus its arrival (with
 *	no ``gap=`` on the first grid, the first grid's arrival); several:
 *	their mean latency, rounded down.
 * @sm_share: the share of the device's SM time its blocks held from
 *	&sim_out.share_from to &sim_out.share_to (0..1; a block holds 1/R of
 *	an SM while it holds its slot, saves and restores included); NAN when
 *	that interval is empty.
 * @win_share: per window length of &sim_job.window_cycles, NULL or the
 *	share of the device's SM time its blocks held in each of the
 *	&sim_out.nr_win windows that tile that interval from its start (the
 *	same integration as @sm_share, over a window; a last partial window
 *	is dropped); malloc()ed, freed by sim_out_free().
 */
struct sim_prog_out {
	unsigned int nr_grids;
	struct sim_grid_out *grids;
	unsigned int nr_requests;
	u64 *arrive;
	u64 turnaround;
	double sm_share;
	double *win_share[SIM_MAX_SHARE_WINDOWS];
};

/**
 * struct sim_block - one thread block, recorded with &sim_job.record
 * @run: the program's index in the job.
 * @grid: the grid's launch index in &sim_prog_out.grids (its index in its
 *	program for a run of one request).
 * @sm: SM it ran on.
 * @slot: its slot on the SM (blkindex).
 * @block: its index in the grid.
 * @start: start cycle.
 * @end: end cycle.
 */
struct sim_block {
	u32 run;
	u32 grid;
	u32 sm;
	u32 slot;
	u32 block;
	u64 start;
	u64 end;
};

/** SIM_MAX_PARAMS - --param options a command takes */
#define SIM_MAX_PARAMS		16

/**
 * struct sim_param - one --param NAME=VALUE
 * @name: a parameter some registered policy declares
 *	(&gtbs_policy_param.name).
 * @value: its value as text (a number, or one of the value's names).
 */
struct sim_param {
	char name[GTBS_POLICY_NAME_LEN];
	char value[32];
};

/**
 * struct sim_modes - device settings of the predictor and the policies
 * @pred_mode: &enum gtbs_pred_mode (--predictor literal|extended).
 * @preempt_mode: &enum gtbs_preempt_mode (--preempt; default drain).
 * @switch_bw: &gtbs_dev.switch_bytes_per_cycle (--switch-bw); 0: the
 *	default.
 * @idempotent: every grid is submitted idempotent (--idempotent), so
 *	that --preempt flush and auto may flush its blocks, whatever its
 *	workload file says.
 * @cap_period: &gtbs_dev.cap_period, the period of tenants' caps
 *	(--cap-period), 1..2^33 cycles; 0: %GTBS_CAP_PERIOD_DEFAULT.
 * @nr_params: entries in @params.
 * @params: policy parameters (--param NAME=VALUE; --share-mode M is
 *	--param share_mode=M), set on every device whose policy declares
 *	the name (sim_modes_apply()); the last one of a name wins.
 */
struct sim_modes {
	u32 pred_mode;
	u32 preempt_mode;
	u32 switch_bw;
	bool idempotent;
	u64 cap_period;
	u32 nr_params;
	struct sim_param params[SIM_MAX_PARAMS];
};

/**
 * struct sim_job - one workload to simulate
 * @cfg: the device.
 * @policy: the scheduling policy.
 * @nr_runs: programs, 1..%WL_MAX_RUNS.
 * @progs: per run, its program; its grids run one after another.
 * @arrive: per run, the arrival cycle of its first request (its first
 *	grid arrives ``gap=`` later).
 * @runs: per run, NULL (one request) or its run line: its requests
 *	(``requests=``, ``rate=``, ``outstanding=``...) and their arrivals.
 * @oracle: per run, NULL or per grid its measured alone runtime, which
 *	replaces &gtbs_grid.alone_cycles (the key of the oracle policies;
 *	given to those only, sim_policy_keyed()).
 * @seed_mix: XORed into every grid's seed (0: the file's seeds).
 * @record: record every block in &sim_out.blocks.
 * @modes: NULL (the device's defaults) or the settings to run with.
 * @tenant: per run, 0: a tenant of its own; else the runs with the same
 *	value share one tenant (&wl_run.tenant_id + 1).
 * @weight: per run, its tenant's weight (&gtbs_tenant.weight); 0: the
 *	default.
 * @max_ppm: per run, its tenant's cap on the device's SM time, ppm
 *	(&gtbs_tenant.max_ppm); 0: none.
 * @nr_windows: entries of @window_cycles (0: no window shares).
 * @window_cycles: window lengths of &sim_prog_out.win_share, cycles, each
 *	at least 1.
 *
 * Runs that share a tenant give it the same @weight and @max_ppm (the
 * first run's count).
 */
struct sim_job {
	const struct gtbs_dev_config *cfg;
	const struct gtbs_policy_ops *policy;
	unsigned int nr_runs;
	const struct wl_program *progs[WL_MAX_RUNS];
	u64 arrive[WL_MAX_RUNS];
	const struct wl_run *runs[WL_MAX_RUNS];
	const u64 *oracle[WL_MAX_RUNS];
	u64 seed_mix;
	bool record;
	const struct sim_modes *modes;
	u32 tenant[WL_MAX_RUNS];
	u32 weight[WL_MAX_RUNS];
	u32 max_ppm[WL_MAX_RUNS];
	unsigned int nr_windows;
	u64 window_cycles[SIM_MAX_SHARE_WINDOWS];
};

/**
 * struct sim_out - what a workload did
 * @progs: per run; sim_out_free() frees their grids.
 * @blocks: with &sim_job.record, every block in block-end order.
 * @nr_blocks: entries of @blocks.
 * @end_cycle: cycle of the last event.
 * @share_from: the latest arrival of a run's first grid (the start of
 *	&sim_prog_out.sm_share's interval).
 * @share_to: the earliest end of a run's last grid (its end); not after
 *	@share_from: the interval is empty.
 * @sharing_switches: &gtbs_dev.sharing_switches at the end (SRTF/Adaptive:
 *	SMs entering or leaving sharing mode).
 * @nr_win: per window length of &sim_job.window_cycles, the windows of
 *	every run's &sim_prog_out.win_share.
 * @why: room for the text of a grid the core rejected (sim_run()'s
 *	*why points here then): gputbs_submit_explain()'s words for the
 *	core's reason, the same as 'gputbs run' prints for the module's.
 */
struct sim_out {
	struct sim_prog_out progs[WL_MAX_RUNS];
	struct sim_block *blocks;
	size_t nr_blocks;
	u64 end_cycle;
	u64 share_from;
	u64 share_to;
	u64 sharing_switches;
	size_t nr_win[SIM_MAX_SHARE_WINDOWS];
	char why[256];
};

/**
 * struct sim_backend - what executes the jobs of a sweep
 * @run: execute one job, with the contract of sim_run(): @out is filled
 *	with cycles counted from the job's start (its first arrival is at
 *	&sim_job.arrive), released with sim_out_free() also on error.
 * @progress: NULL, or called after each pair's run with the pairs done
 *	and their total (never from two threads at once).
 * @priv: passed to @run and @progress.
 * @max_jobs: jobs at most at once (1: one device that every job shares).
 */
struct sim_backend {
	int (*run)(void *priv, const struct sim_job *job, struct sim_out *out,
		   const char **why);
	void (*progress)(void *priv, size_t done, size_t total);
	void *priv;
	unsigned int max_jobs;
};

/**
 * struct sim_pair - one ordered pair of programs
 * @a: the first program's index in &sim_eval.progs.
 * @b: the second's.
 * @name: "A+B".
 */
struct sim_pair {
	unsigned int a;
	unsigned int b;
	char name[2 * WL_NAME_LEN];
};

/**
 * struct sim_result - one pair at one offset under one policy
 * @out: what the two programs did.
 * @alone: per program, its alone runtime.
 * @metrics: STP, ANTT, StrictF from gtbs_metrics_calc().
 */
struct sim_result {
	struct sim_out out;
	u64 alone[2];
	struct gtbs_metrics metrics;
};

/**
 * struct sim_geomean - geometric means over the pairs
 * @stp: STP.
 * @antt: ANTT.
 * @strictf: StrictF.
 */
struct sim_geomean {
	double stp;
	double antt;
	double strictf;
};

/**
 * struct sim_eval - the sweep: its parameters and results
 * @tool: what ran it, for the output: "gputbs-sim eval" or "gputbs eval".
 * @backend: what executes its jobs.
 * @module: it ran on the module (emulated time, real processes): the
 *	module reports neither predictions nor sharing-mode switches.
 * @device: @module: the device node.
 * @time_scale_ps: @module: the module's time scale, ps per cycle.
 * @sjf_model: the SJF oracle's key is Equation 1 of each grid's work model
 *	(gtbs_grid_alone_cycles(), the module's key), not its measured alone
 *	runtime.
 * @file: the workload file (DIR/kernels.gtbs).
 * @set: what it defines.
 * @cfg: the device.
 * @preset: the device preset @cfg came from (--device NAME of gputbs-sim,
 *	default "gtx480"); NULL for the module's device.
 * @seed: --seed; @seed_mix is derived from it.
 * @seed_mix: XORed into every grid's seed.
 * @jobs: worker threads.
 * @modes: --predictor and --share-mode; every job runs with them, the
 *	alone runs included.
 * @nr_policies: policies.
 * @policies: in the order given.
 * @nr_offsets: offsets.
 * @offsets: percent of the first program's alone runtime; 0 is
 *	%SIM_OFFSET0_CYCLES cycles.
 * @nr_progs: programs of @set.
 * @progs: in definition order.
 * @alone: per program, its alone execution (fifo, fresh device).
 * @alone_grids: per program, per grid, its alone runtime (SJF's key).
 * @nr_pairs: ordered pairs of distinct programs.
 * @pairs: in order (a, b) by @progs.
 * @results: [offset][policy][pair], @nr_offsets * @nr_policies * @nr_pairs.
 * @geomeans: [offset][policy].
 */
struct sim_eval {
	const char *tool;
	const struct sim_backend *backend;
	bool module;
	const char *device;
	u64 time_scale_ps;
	bool sjf_model;
	const char *file;
	struct wl_set *set;
	struct gtbs_dev_config cfg;
	const char *preset;
	u64 seed;
	u64 seed_mix;
	unsigned int jobs;
	struct sim_modes modes;
	unsigned int nr_policies;
	const struct gtbs_policy_ops *policies[SIM_MAX_POLICIES];
	unsigned int nr_offsets;
	unsigned int offsets[SIM_MAX_OFFSETS];
	unsigned int nr_progs;
	const struct wl_program *progs[WL_MAX_PROGRAMS];
	struct sim_out alone[WL_MAX_PROGRAMS];
	u64 *alone_grids[WL_MAX_PROGRAMS];
	unsigned int nr_pairs;
	struct sim_pair *pairs;
	struct sim_result *results;
	struct sim_geomean *geomeans;
};

/**
 * struct sim_timeline - the per-SM timeline of one pair
 * @pair: index in &sim_eval.pairs.
 * @offset: the offset, percent (0: %SIM_OFFSET0_CYCLES cycles).
 * @nr_policies: policies drawn.
 * @policies: each gets its own figure.
 * @outs: per policy, the pair's execution with every block recorded.
 */
struct sim_timeline {
	unsigned int pair;
	unsigned int offset;
	unsigned int nr_policies;
	const struct gtbs_policy_ops *policies[SIM_MAX_POLICIES];
	struct sim_out outs[SIM_MAX_POLICIES];
};

/* eval.c */
u64 sim_seed_mix(u64 seed);
u64 sim_arrival(const struct sim_eval *ev, unsigned int offset, unsigned int a);
bool sim_policy_keyed(const struct gtbs_policy_ops *policy);
void sim_pair_job(const struct sim_eval *ev, unsigned int offset,
		  const struct gtbs_policy_ops *policy,
		  const struct sim_pair *pair, struct sim_job *job);
int sim_eval_prepare(struct sim_eval *ev, const char **why);
int sim_eval_run(struct sim_eval *ev, const char **why);
void sim_eval_free(struct sim_eval *ev);
void sim_out_free(struct sim_out *out);
struct sim_result *sim_result_at(const struct sim_eval *ev, unsigned int o,
				 unsigned int p, unsigned int i);
int sim_find_pair(const struct sim_eval *ev, const char *name);
void sim_eval_geomeans(struct sim_eval *ev);
int sim_eval_timeline(const struct sim_eval *ev, struct sim_timeline *tl,
		      const char **why);

void sim_timeline_free(struct sim_timeline *tl);

/* reference.c */
/**
 * struct sim_paper - a policy's geomeans in the paper's Tables
 * @stp: STP.
 * @antt: ANTT.
 * @strictf: fairness (StrictF).
 */
struct sim_paper {
	double stp;
	double antt;
	double strictf;
};

const struct sim_paper *sim_paper_value(const char *policy,
					unsigned int offset);

/* Columns of the motivation section: SJF, FIFO (device), FIFO (serial), LJF. */
#define SIM_MOTIV_COLS	4

/**
 * struct sim_motiv - the paper's Section "Motivation" experiment
 * @o: index of offset 0 in &sim_eval.offsets.
 * @pol: indices in &sim_eval.policies of sjf, fifo and ljf.
 * @n: pairs A+B with A before B by the paper's name (A arrives first).
 * @gm: geomean STP over them under sjf, fifo (the device's), the serial
 *	FIFO (A alone, then B, from the alone runtimes) and ljf.
 * @gm_expect: geomean STP of the serial FIFO from the workload file's
 *	expect= runtimes (the paper's), NAN unless every grid has one.
 * @fifo_sjf: pairs where a FIFO's STP is SJF's (and SJF's is not LJF's):
 *	[0] the device's FIFO, [1] the serial FIFO.
 * @fifo_ljf: likewise LJF's.
 * @sjf_ljf: pairs where SJF's and LJF's STP are the same.
 *
 * "The same": within 0.01 (the paper's two decimals), in fixed point.
 * The paper names A and B "in alphabetical order", by its names:
 * wl_program_paper() (``paper=`` in kernels.gtbs: NLM2 is
 * ImageDenoising-nlm2, before JPEG).  Derived from the sweep's results at
 * offset 0 (the second program 50 cycles after the first) and its alone
 * runtimes, so a report of the JSON prints it again.
 */
struct sim_motiv {
	unsigned int o;
	unsigned int pol[3];
	unsigned int n;
	double gm[SIM_MOTIV_COLS];
	double gm_expect;
	unsigned int fifo_sjf[2], fifo_ljf[2], sjf_ljf;
};

extern const char * const sim_motiv_keys[SIM_MOTIV_COLS];
extern const double sim_motiv_paper[SIM_MOTIV_COLS];
bool sim_motiv_calc(const struct sim_eval *ev, struct sim_motiv *m);
bool sim_motiv_pair(const struct sim_eval *ev, unsigned int i);
void sim_motiv_stp(const struct sim_eval *ev, const struct sim_motiv *m,
		   unsigned int i, u64 v[SIM_MOTIV_COLS]);
const char *sim_paper_name(const char *policy);
double sim_fp(u64 fp);

#endif /* _GPUTBS_EVAL_H */
