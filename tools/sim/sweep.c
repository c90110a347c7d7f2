// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.c - gputbs-sim sweep: request streams from light load to
 * saturation, under every policy and preemption mode, with the metrics of
 * the papers on GPU sharing (Documentation/evaluation.rst, "Serving at
 * load").
 *
 * A sweep's points are every (workload, preemption mode, policy, load,
 * seed) of its scenario files, numbered in that order.  Per point the
 * workload runs at the load (wl_workload_at_load(): each open-loop
 * stream at load x its alone service rate, each closed loop as many steps
 * as cover the streams), then each of its runs with requests runs alone
 * at the same load, policy and mode; the point reports per run p50 and
 * p99, SLO attainment, p99_vs_alone and throughput_vs_alone.  Per policy
 * the goodput is the highest load at which every run with an SLO meets it
 * at p99 (MLPerf Inference's Server criterion), every lower load too.
 *
 * Shards: --shard I/N (or a Slurm array task's SLURM_ARRAY_TASK_*) runs
 * the points whose number is I - 1 modulo N; --merge joins the shards'
 * JSON.  Everything written is derived from integers the JSON keeps
 * (cycles, counts), so a merge prints byte for byte what the unsharded
 * sweep prints.
 *
 *   parse options --> scenario files --> fifo alone latency per run
 *        |                                     |
 *        |                      points of the shard, by --jobs threads
 *        |                                     |
 *   --merge: shards' JSON --------------> one model --> text | JSON | plots
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "sim.h"
#include "../lib/eval/plot.h"
#include "../lib/json.h"
#include "../lib/parallel.h"
#include "../lib/reqstats.h"

#define SWEEP_MAX_LOADS		32
#define SWEEP_MAX_SEEDS		64
#define SWEEP_MAX_FILES		64
#define SWEEP_MAX_SHARDS	100000U
#define SWEEP_DEFAULT_LOADS	"0.2,0.4,0.6,0.8,1.0,1.2"

/**
 * struct sweep_stats - what one run's requests did, in integers
 * @n: requests.
 * @p50: median latency, cycles.
 * @p99: 99th percentile latency, cycles (nearest rank).
 * @slo_met: requests within the run's SLO.
 * @first_arrive: the first request's arrival, cycles.
 * @last_end: the last request's end, cycles.
 * @ttft_p50: with tokens (``token=1`` grids): median time to first
 *	token, cycles (req_token_stats_calc()).
 * @ttft_p99: with tokens: its 99th percentile, cycles.
 * @tpot_p50: with tokens: median time per output token, cycles.
 * @tpot_p99: with tokens: its 99th percentile, cycles.
 * @tokens_met: with tokens: requests within both the TTFT and the TPOT
 *	bound.
 */
struct sweep_stats {
	u64 n;
	u64 p50;
	u64 p99;
	u64 slo_met;
	u64 first_arrive;
	u64 last_end;
	u64 ttft_p50;
	u64 ttft_p99;
	u64 tpot_p50;
	u64 tpot_p99;
	u64 tokens_met;
};

/**
 * struct sweep_run - one run of a point
 * @requests: its requests at the point's load.
 * @rate_e4: open loop: its rate at the load, requests per second x 10^4;
 *	0 for a closed loop.
 * @shared: the run beside the others.
 * @alone: the run alone, same arrivals, policy and mode.
 */
struct sweep_run {
	u64 requests;
	u64 rate_e4;
	struct sweep_stats shared;
	struct sweep_stats alone;
};

/**
 * struct sweep_wl_run - one run of a workload, as the sweep describes it
 * @program: its program's name.
 * @open: open loop (``rate=``).
 * @measured: it has requests (``requests=`` above 1 or an SLO): the
 *	sweep reports it.
 * @slo: its ``slo=``, cycles; 0 for none.
 * @tokens: output tokens per request (its program's ``token=1`` grids),
 *	0 for none.
 * @first_token: with @tokens, the index of its first ``token=1`` grid.
 * @last_token: with @tokens, the index of its last.
 * @slo_ttft: ``slo-ttft=``, cycles; 0 for none.
 * @slo_tpot: ``slo-tpot=``, cycles; 0 for none.
 * @latency: its program's alone latency, one request, fifo, on a fresh
 *	device, cycles.
 * @alone: cycles per request alone, the load's unit (load 1.0 = 1 /
 *	@alone requests per cycle): open loop, the stream's alone service
 *	interval (wl_run_saturating(), fifo); closed loop, @latency.
 */
struct sweep_wl_run {
	char program[WL_NAME_LEN];
	bool open;
	bool measured;
	u64 slo;
	u32 tokens;
	u32 first_token;
	u32 last_token;
	u64 slo_ttft;
	u64 slo_tpot;
	u64 latency;
	u64 alone;
};

/**
 * struct sweep_wl - one workload of a scenario file
 * @file: the file, as given on the command line.
 * @name: the workload's name.
 * @nr_runs: runs, 1..%WL_MAX_RUNS.
 * @runs: its runs.
 * @set: the parsed file (NULL after --merge).
 * @wl: the workload in @set (NULL after --merge).
 * @oracle: per run, the alone runtime of each grid of its program (the
 *	key of sjf and srtf-oracle), NULL after --merge.
 */
struct sweep_wl {
	char *file;
	char name[WL_NAME_LEN];
	unsigned int nr_runs;
	struct sweep_wl_run runs[WL_MAX_RUNS];
	const struct wl_set *set;
	const struct wl_workload *wl;
	u64 *oracle[WL_MAX_RUNS];
};

/**
 * struct sweep_point - one (workload, mode, policy, load, seed)
 * @done: its results are here (this shard's, or merged).
 * @runs: per run of its workload.
 */
struct sweep_point {
	bool done;
	struct sweep_run *runs;
};

/**
 * struct sweep - a sweep: its parameters, workloads and points
 * @device: the preset's name.
 * @cfg: the device.
 * @modes: --param and the defaults; the preemption mode is per point.
 * @nr_loads: loads, ascending.
 * @loads: ppm of saturation.
 * @nr_preempts: preemption modes.
 * @preempts: &enum gtbs_preempt_mode values.
 * @nr_policies: policies.
 * @policies: their ops (NULL after --merge).
 * @policy_names: their names.
 * @duration: --duration: how long the open-loop streams run; 0: each as
 *	long as its file's requests take at its file's rate.
 * @nr_seeds: seeds.
 * @seeds: 0: the files' seeds; else XORed (sim_seed_mix()) into every
 *	grid's and every Poisson stream's seed.
 * @nr_wls: workloads, file after file.
 * @wls: the workloads.
 * @nr_points: points of the whole sweep.
 * @points: all of them; those of other shards are not @done.
 * @shard: this shard, 1..@nr_shards; 0: the whole sweep.
 * @nr_shards: shards; 0: the whole sweep.
 * @jobs: worker threads (par_for()).
 */
struct sweep {
	char device[16];
	struct gtbs_dev_config cfg;
	struct sim_modes modes;
	unsigned int nr_loads;
	u32 loads[SWEEP_MAX_LOADS];
	unsigned int nr_preempts;
	u32 preempts[GTBS_NR_PREEMPT_MODES];
	unsigned int nr_policies;
	const struct gtbs_policy_ops *policies[SIM_MAX_POLICIES];
	char policy_names[SIM_MAX_POLICIES][GTBS_POLICY_NAME_LEN];
	struct wl_time duration;
	unsigned int nr_seeds;
	u64 seeds[SWEEP_MAX_SEEDS];
	unsigned int nr_wls;
	struct sweep_wl *wls;
	size_t nr_points;
	struct sweep_point *points;
	unsigned int shard;
	unsigned int nr_shards;
	unsigned int jobs;
};

static void sweep_help(FILE *f)
{
	char reg[256];

	sim_registry(reg, sizeof(reg), ",");
	fprintf(f,
		"Usage: gputbs-sim sweep [OPTIONS] SCENARIO...\n"
		"       gputbs-sim sweep --merge [--format F] [-o FILE] [--plot DIR] FILE.json...\n"
		"\n"
		"Run the workloads of the scenario files from light load to saturation:\n"
		"every open-loop stream at LOAD times its alone service rate (1.0: the\n"
		"rate at which the stream alone keeps the device busy), every closed\n"
		"loop as many steps as cover the streams, under each policy and\n"
		"preemption mode; then each run alone at the same load.  Per point: p50\n"
		"and p99 per run, SLO attainment, p99_vs_alone and throughput_vs_alone;\n"
		"per policy the goodput, the highest load at which every run with an\n"
		"SLO meets it at p99 (and at every lower load).\n"
		"\n"
		"Options:\n"
		"      --load LIST       loads, comma-separated decimals 0.000001..100\n"
		"                        (default " SWEEP_DEFAULT_LOADS ")\n"
		"  -P, --policies LIST   policies (default: every one but fair; %s)\n"
		"      --preempt LIST    preemption modes: drain, switch, flush, auto\n"
		"                        (default drain)\n"
		"      --duration TIME   how long the open-loop streams run at every\n"
		"                        load (cycles, or with ns, us, ms, s; default:\n"
		"                        each its file's requests at its file's rate)\n"
		"      --seeds LIST      seeds, comma-separated (default 0: the\n"
		"                        files' seeds; S: S scrambled into every\n"
		"                        grid's and Poisson stream's seed)\n"
		"  -j, --jobs N          worker threads, 1..256 (default: online CPUs;\n"
		"                        the output does not depend on it)\n"
		"      --device NAME     device preset (default h100)\n"
		"      --sms N           SMs, overriding the preset's\n"
		"      --param NAME=VALUE\n"
		"                        a policy parameter (as in eval); repeatable\n"
		"      --policy-plugin FILE.so\n"
		"                        load a policy plug-in; repeatable\n"
		"  -f, --format FMT      text (default) or json\n"
		"  -o, --output FILE     write there instead of stdout\n"
		"      --shard I/N       run the I-th of N disjoint sets of points\n"
		"                        (default in a Slurm array task: task\n"
		"                        SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1\n"
		"                        of SLURM_ARRAY_TASK_COUNT); JSON then\n"
		"      --merge           the arguments are shards' JSON: join them\n"
		"      --plot DIR        p99 and throughput kept against load (gnuplot)\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status: 0, 1 on a system error, 2 on a bad option or file.\n",
		reg);
}

/* "I.FFFFFF" with at most 6 decimals into ppm, @lo..@hi.  0 or -EINVAL. */
static int sweep_parse_ppm(const char *s, u64 lo, u64 hi, u32 *out)
{
	u64 v = 0, frac = 0, scale = 1000000;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (u64)(*p - '0');
		if (v > 1000)
			return -EINVAL;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				return -EINVAL;
			scale /= 10;
			frac += (u64)(*p - '0') * scale;
		}
		if (p[-1] == '.')
			return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	v = v * 1000000 + frac;
	if (v < lo || v > hi)
		return -EINVAL;
	*out = (u32)v;
	return 0;
}

static int sweep_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* --load LIST into @sw->loads, ascending, no repeats. */
static int sweep_parse_loads(struct sweep *sw, const char *arg)
{
	char *list = strdup(arg), *s, *save = NULL;
	unsigned int i;
	int ret = 0;

	if (!list) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	sw->nr_loads = 0;
	if (!*arg || strstr(arg, ",,") || arg[strlen(arg) - 1] == ',')
		ret = sim_usage_error(sweep_help, "--load: bad list '%s'", arg);
	for (s = strtok_r(list, ",", &save); !ret && s;
	     s = strtok_r(NULL, ",", &save)) {
		if (sw->nr_loads == SWEEP_MAX_LOADS)
			ret = sim_usage_error(sweep_help, "--load: more than %d loads",
					      SWEEP_MAX_LOADS);
		else if (sweep_parse_ppm(s, 1, WL_MAX_LOAD_PPM,
					 &sw->loads[sw->nr_loads]))
			ret = sim_usage_error(sweep_help, "--load: '%s' is not a load 0.000001..100 (a decimal, 1.0 = the stream's alone service rate)",
					      s);
		else
			sw->nr_loads++;
	}
	free(list);
	if (ret)
		return ret;
	qsort(sw->loads, sw->nr_loads, sizeof(u32), sweep_cmp_u32);
	for (i = 1; i < sw->nr_loads; i++)
		if (sw->loads[i] == sw->loads[i - 1])
			return sim_usage_error(sweep_help, "--load: a load given twice in '%s'",
					       arg);
	return 0;
}

/* --preempt LIST. */
static int sweep_parse_preempts(struct sweep *sw, const char *arg)
{
	char *list = strdup(arg), *s, *save = NULL;
	unsigned int i, m;
	int ret = 0;

	if (!list) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	sw->nr_preempts = 0;
	if (!*arg || strstr(arg, ",,") || arg[strlen(arg) - 1] == ',')
		ret = sim_usage_error(sweep_help, "--preempt: bad list '%s'",
				      arg);
	for (s = strtok_r(list, ",", &save); !ret && s;
	     s = strtok_r(NULL, ",", &save)) {
		for (m = 0; m < GTBS_NR_PREEMPT_MODES; m++)
			if (!strcmp(s, gtbs_preempt_mode_name(m)))
				break;
		for (i = 0; i < sw->nr_preempts; i++)
			if (sw->preempts[i] == m)
				break;
		if (m == GTBS_NR_PREEMPT_MODES)
			ret = sim_usage_error(sweep_help, "--preempt: unknown mode '%s' (drain, switch, flush or auto)",
					      s);
		else if (i < sw->nr_preempts)
			ret = sim_usage_error(sweep_help, "--preempt: '%s' given twice",
					      s);
		else
			sw->preempts[sw->nr_preempts++] = m;
	}
	free(list);
	return ret;
}

/* --seeds LIST. */
static int sweep_parse_seeds(struct sweep *sw, const char *arg)
{
	char *list = strdup(arg), *s, *save = NULL;
	unsigned int i;
	int ret = 0;
	u64 v;

	if (!list) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	sw->nr_seeds = 0;
	if (!*arg || strstr(arg, ",,") || arg[strlen(arg) - 1] == ',')
		ret = sim_usage_error(sweep_help, "--seeds: bad list '%s'",
				      arg);
	for (s = strtok_r(list, ",", &save); !ret && s;
	     s = strtok_r(NULL, ",", &save)) {
		if (sim_parse_uint(s, 0, UINT64_MAX, &v)) {
			ret = sim_usage_error(sweep_help, "--seeds: '%s' is not a seed (0..2^64-1)",
					      s);
			break;
		}
		for (i = 0; i < sw->nr_seeds; i++)
			if (sw->seeds[i] == v)
				break;
		if (i < sw->nr_seeds)
			ret = sim_usage_error(sweep_help, "--seeds: '%s' given twice",
					      s);
		else if (sw->nr_seeds == SWEEP_MAX_SEEDS)
			ret = sim_usage_error(sweep_help, "--seeds: more than %d seeds",
					      SWEEP_MAX_SEEDS);
		else
			sw->seeds[sw->nr_seeds++] = v;
	}
	free(list);
	return ret;
}

/* "I/N", 1 <= I <= N <= SWEEP_MAX_SHARDS. */
static int sweep_parse_shard(const char *s, unsigned int *i, unsigned int *n)
{
	char *end;
	unsigned long a, b;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	a = strtoul(s, &end, 10);
	if (*end != '/' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	b = strtoul(end + 1, &end, 10);
	if (*end || !a || a > b || b > SWEEP_MAX_SHARDS)
		return -EINVAL;
	*i = a;
	*n = b;
	return 0;
}

/*
 * Without --shard, a Slurm array task's shard: task ID - MIN + 1 of
 * COUNT.  0 with none (no array), 0 with the shard set, or an exit status
 * after a message when the variables are inconsistent.
 */
static int sweep_slurm_shard(struct sweep *sw)
{
	const char *id = getenv("SLURM_ARRAY_TASK_ID");
	const char *min = getenv("SLURM_ARRAY_TASK_MIN");
	const char *count = getenv("SLURM_ARRAY_TASK_COUNT");
	u64 t, lo, n;

	if (!id || !count)
		return 0;
	if (!min)
		min = "0";
	if (sim_parse_uint(id, 0, UINT32_MAX, &t) ||
	    sim_parse_uint(min, 0, UINT32_MAX, &lo) ||
	    sim_parse_uint(count, 1, SWEEP_MAX_SHARDS, &n) || t < lo ||
	    t - lo + 1 > n) {
		sim_err("SLURM_ARRAY_TASK_ID=%s SLURM_ARRAY_TASK_MIN=%s SLURM_ARRAY_TASK_COUNT=%s: not a task of the array (task ID - MIN + 1 must be 1..COUNT; an array with a step, --array=0-9:2, needs --shard)",
			id, min, count);
		return SIM_EXIT_USAGE;
	}
	sw->shard = t - lo + 1;
	sw->nr_shards = n;
	return 0;
}

/* ---- points ---- */

/* A point's number from its coordinates, and back. */
static size_t sweep_index(const struct sweep *sw, unsigned int w,
			  unsigned int m, unsigned int p, unsigned int l,
			  unsigned int s)
{
	return (((((size_t)w * sw->nr_preempts + m) * sw->nr_policies + p) *
		 sw->nr_loads + l) * sw->nr_seeds) + s;
}

static void sweep_coords(const struct sweep *sw, size_t i, unsigned int *w,
			 unsigned int *m, unsigned int *p, unsigned int *l,
			 unsigned int *s)
{
	*s = i % sw->nr_seeds;
	i /= sw->nr_seeds;
	*l = i % sw->nr_loads;
	i /= sw->nr_loads;
	*p = i % sw->nr_policies;
	i /= sw->nr_policies;
	*m = i % sw->nr_preempts;
	*w = i / sw->nr_preempts;
}

static bool sweep_in_shard(const struct sweep *sw, size_t i)
{
	return !sw->nr_shards || i % sw->nr_shards == sw->shard - 1;
}

static int sweep_alloc_points(struct sweep *sw)
{
	size_t i;

	sw->nr_points = sweep_index(sw, sw->nr_wls, 0, 0, 0, 0);
	sw->points = calloc(sw->nr_points ? sw->nr_points : 1,
			    sizeof(*sw->points));
	if (!sw->points)
		return -ENOMEM;
	for (i = 0; i < sw->nr_points; i++) {
		unsigned int w, m, p, l, s;

		sweep_coords(sw, i, &w, &m, &p, &l, &s);
		sw->points[i].runs = calloc(sw->wls[w].nr_runs,
					    sizeof(struct sweep_run));
		if (!sw->points[i].runs)
			return -ENOMEM;
	}
	return 0;
}

/* ---- running ---- */

/*
 * Per request its end (and with tokens its first and last token's), then
 * the integers of sweep_stats.
 */
static int sweep_stats_of(const struct sim_prog_out *po, unsigned int g,
			  const struct sweep_wl_run *wr,
			  struct sweep_stats *st)
{
	u64 *end, *first, *last;
	struct req_stats rs;
	unsigned int q;
	int ret;

	end = calloc(3 * (size_t)po->nr_requests, sizeof(*end));
	if (!end)
		return -ENOMEM;
	first = end + po->nr_requests;
	last = first + po->nr_requests;
	for (q = 0; q < po->nr_requests; q++) {
		const struct sim_grid_out *gr = &po->grids[(size_t)q * g];

		end[q] = gr[g - 1].end_cycle;
		first[q] = gr[wr->first_token].end_cycle;
		last[q] = gr[wr->last_token].end_cycle;
	}
	ret = req_stats_calc(po->arrive, end, po->nr_requests, wr->slo, &rs);
	if (!ret && wr->tokens)
		ret = req_token_stats_calc(po->arrive, first, last,
					   wr->tokens, po->nr_requests,
					   wr->slo_ttft, wr->slo_tpot, &rs);
	free(end);
	if (ret)
		return ret;
	st->n = rs.n;
	st->p50 = rs.p50;
	st->p99 = rs.p99;
	st->slo_met = rs.slo_met;
	st->first_arrive = rs.first_arrive;
	st->last_end = rs.last_end;
	if (wr->tokens) {
		st->ttft_p50 = rs.ttft_p50;
		st->ttft_p99 = rs.ttft_p99;
		st->tpot_p50 = rs.tpot_p50;
		st->tpot_p99 = rs.tpot_p99;
		st->tokens_met = rs.tokens_met;
	}
	return 0;
}

/* The job of runs @first..@first + @n - 1 of @wl (as scaled), from 0. */
static void sweep_job(const struct sweep *sw, const struct sweep_wl *w,
		      const struct wl_workload *wl,
		      const struct gtbs_policy_ops *policy,
		      const struct sim_modes *modes, u64 seed_mix,
		      unsigned int first, unsigned int n, struct sim_job *job)
{
	unsigned int r, k;

	memset(job, 0, sizeof(*job));
	job->cfg = &sw->cfg;
	job->policy = policy;
	job->nr_runs = n;
	job->seed_mix = seed_mix;
	job->modes = modes;
	for (k = 0; k < n; k++) {
		const struct wl_run *run = &wl->runs[first + k];

		r = first + k;
		job->progs[k] = w->set->programs[run->program];
		job->arrive[k] = run->at_pct ?
			mul_u64_u64_div_u64(w->runs[0].latency, run->at,
					    1000000) : run->at;
		job->runs[k] = run;
		job->tenant[k] = run->tenant_id + 1;
		job->weight[k] = run->weight;
		job->max_ppm[k] = run->max_ppm;
		if (sim_policy_keyed(policy))
			job->oracle[k] = w->oracle[r];
	}
}

/* One point: the workload at its load, then each measured run alone. */
static int sweep_point_run(const struct sweep *sw, size_t i,
			   const char **why)
{
	static const char oom[] = "out of memory";
	struct sweep_point *pt = &sw->points[i];
	unsigned int w, m, p, l, s, r;
	const struct sweep_wl *sw_wl;
	struct wl_workload *scaled;
	struct sim_modes modes;
	u64 alone[WL_MAX_RUNS];
	struct sim_job job;
	struct sim_out out;
	u64 mix;
	int ret;

	sweep_coords(sw, i, &w, &m, &p, &l, &s);
	sw_wl = &sw->wls[w];
	scaled = malloc(sizeof(*scaled));
	if (!scaled) {
		*why = oom;
		return -ENOMEM;
	}
	for (r = 0; r < sw_wl->nr_runs; r++)
		alone[r] = sw_wl->runs[r].alone;
	ret = wl_workload_at_load(sw_wl->wl, alone, sw->loads[l],
				  wl_time_cycles(&sw->duration,
						 sw->cfg.clock_khz),
				  sw->cfg.clock_khz, scaled);
	if (ret) {
		free(scaled);
		*why = "a load or an alone latency out of range";
		return ret;
	}
	mix = sim_seed_mix(sw->seeds[s]);
	for (r = 0; r < scaled->nr_runs; r++) {
		scaled->runs[r].seed ^= mix;
		pt->runs[r].requests = scaled->runs[r].requests;
		pt->runs[r].rate_e4 = scaled->runs[r].rate_e4;
	}
	modes = sw->modes;
	modes.preempt_mode = sw->preempts[m];

	sweep_job(sw, sw_wl, scaled, sw->policies[p], &modes, mix, 0,
		  scaled->nr_runs, &job);
	ret = sim_run(&job, &out, why);
	for (r = 0; !ret && r < scaled->nr_runs; r++)
		if (sw_wl->runs[r].measured)
			ret = sweep_stats_of(&out.progs[r],
					     job.progs[r]->nr_grids,
					     &sw_wl->runs[r],
					     &pt->runs[r].shared);
	sim_out_free(&out);
	for (r = 0; !ret && r < scaled->nr_runs; r++) {
		if (!sw_wl->runs[r].measured)
			continue;
		sweep_job(sw, sw_wl, scaled, sw->policies[p], &modes, mix, r,
			  1, &job);
		ret = sim_run(&job, &out, why);
		if (!ret)
			ret = sweep_stats_of(&out.progs[0],
					     job.progs[0]->nr_grids,
					     &sw_wl->runs[r],
					     &pt->runs[r].alone);
		sim_out_free(&out);
	}
	free(scaled);
	if (ret == -ENOMEM)
		*why = oom;
	if (!ret)
		pt->done = true;
	return ret;
}

/* Point @i (par_fn): run, unless another shard's (nothing to do). */
static int sweep_point_item(void *arg, size_t i, const char **why)
{
	const struct sweep *sw = arg;

	return sweep_in_shard(sw, i) ? sweep_point_run(sw, i, why) : 0;
}

/* The shard's points on --jobs threads; 0 or an exit status. */
static int sweep_run_points(struct sweep *sw)
{
	unsigned int w, m, p, l, s;
	const char *why = NULL;
	size_t i = 0;
	int ret;

	ret = par_for(sw->nr_points, sw->jobs, sweep_point_item, NULL, sw,
		      &i, &why);
	if (!ret)
		return 0;
	sweep_coords(sw, i, &w, &m, &p, &l, &s);
	sim_err("%s: workload %s, policy %s, load %u.%06u: %s",
		sw->wls[w].file, sw->wls[w].name, sw->policy_names[p],
		sw->loads[l] / 1000000, sw->loads[l] % 1000000, why);
	return ret == -ENOMEM ? SIM_EXIT_SYSTEM : SIM_EXIT_USAGE;
}

/* ---- the scenario files ---- */

/*
 * Every program's alone run (fifo, a fresh device, one request): the
 * load's unit, and per grid the key of the oracle policies.
 */
static int sweep_alone(struct sweep *sw, struct sweep_wl *w)
{
	const struct wl_program *prog;
	struct sim_out out;
	struct sim_job job;
	const char *why;
	unsigned int r, k;
	int ret;

	for (r = 0; r < w->nr_runs; r++) {
		const struct wl_run *run = &w->wl->runs[r];

		prog = w->set->programs[run->program];
		memset(&job, 0, sizeof(job));
		job.cfg = &sw->cfg;
		job.policy = &gtbs_policy_fifo;
		job.nr_runs = 1;
		job.progs[0] = prog;
		job.modes = &sw->modes;
		job.weight[0] = run->weight;
		job.max_ppm[0] = run->max_ppm;
		ret = sim_run(&job, &out, &why);
		if (ret) {
			sim_out_free(&out);
			sim_err("%s: program %s alone: %s", w->file,
				prog->name, why);
			return ret == -ENOMEM ? SIM_EXIT_SYSTEM :
						SIM_EXIT_USAGE;
		}
		w->runs[r].latency = out.progs[0].turnaround ?
				     out.progs[0].turnaround : 1;
		w->runs[r].alone = w->runs[r].latency;
		w->oracle[r] = calloc(prog->nr_grids, sizeof(u64));
		if (!w->oracle[r]) {
			sim_out_free(&out);
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		for (k = 0; k < prog->nr_grids; k++)
			w->oracle[r][k] = out.progs[0].grids[k].end_cycle -
					  out.progs[0].grids[k].submit_cycle;
		sim_out_free(&out);
		if (!wl_run_open(run))
			continue;
		/* the stream's saturation: all its requests at once */
		ret = sim_service_interval(&job, run, &w->runs[r].alone, &why);
		if (ret) {
			sim_err("%s: program %s saturating alone: %s", w->file,
				prog->name, why);
			return ret == -ENOMEM ? SIM_EXIT_SYSTEM :
						SIM_EXIT_USAGE;
		}
	}
	return 0;
}

static void sweep_err_line(const char *line)
{
	sim_err_line(line);
}

/* Parse the scenario files into @sw->wls. */
static int sweep_load_files(struct sweep *sw, char **files, unsigned int n)
{
	char err[WL_ERR_LEN];
	unsigned int f, k, r, total = 0;
	struct wl_set *set;
	int ret;

	for (f = 0; f < n; f++) {
		ret = wl_parse_file(files[f], 0, &set, err, sizeof(err));
		if (ret) {
			wl_errors(err, sweep_err_line);
			return ret == -ENOMEM ? SIM_EXIT_SYSTEM :
						SIM_EXIT_USAGE;
		}
		sw->wls = realloc(sw->wls, (total + set->nr_workloads) *
				  sizeof(*sw->wls));
		if (!sw->wls) {
			wl_free(set);
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		for (k = 0; k < set->nr_workloads; k++) {
			const struct wl_workload *wl = set->workloads[k];
			struct sweep_wl *w = &sw->wls[total + k];
			bool any = false;

			memset(w, 0, sizeof(*w));
			/* the set is freed with the first of its workloads */
			w->set = set;
			w->wl = wl;
			w->file = strdup(files[f]);
			if (!w->file) {
				sim_err("out of memory");
				return SIM_EXIT_SYSTEM;
			}
			snprintf(w->name, sizeof(w->name), "%s", wl->name);
			w->nr_runs = wl->nr_runs;
			for (r = 0; r < wl->nr_runs; r++) {
				const struct wl_run *run = &wl->runs[r];
				struct sweep_wl_run *wr = &w->runs[r];

				snprintf(wr->program, sizeof(wr->program),
					 "%s", set->programs[run->program]->name);
				wr->open = wl_run_open(run);
				wr->measured = run->requests > 1 ||
					       wl_run_has_slo(run);
				wr->slo = run->has_slo ?
					wl_time_cycles(&run->slo,
						       sw->cfg.clock_khz) : 0;
				wr->tokens = wl_program_tokens(set->programs[run->program],
							       &wr->first_token,
							       &wr->last_token);
				wr->slo_ttft = run->has_slo_ttft ?
					wl_time_cycles(&run->slo_ttft,
						       sw->cfg.clock_khz) : 0;
				wr->slo_tpot = run->has_slo_tpot ?
					wl_time_cycles(&run->slo_tpot,
						       sw->cfg.clock_khz) : 0;
				any |= wr->open;
			}
			sw->nr_wls = total + k + 1;
			if (!any) {
				sim_err("%s:%u: workload %s has no open-loop run (rate=): nothing for a load to scale",
					wl->loc.file, wl->loc.line, wl->name);
				return SIM_EXIT_USAGE;
			}
			ret = sweep_alone(sw, w);
			if (ret)
				return ret;
		}
		total += set->nr_workloads;
	}
	return 0;
}

static void sweep_free(struct sweep *sw)
{
	unsigned int w, r;
	size_t i;

	for (i = 0; sw->points && i < sw->nr_points; i++)
		free(sw->points[i].runs);
	free(sw->points);
	for (w = 0; w < sw->nr_wls; w++) {
		for (r = 0; r < WL_MAX_RUNS; r++)
			free(sw->wls[w].oracle[r]);
		if (sw->wls[w].set && (!w || sw->wls[w - 1].set !=
					     sw->wls[w].set))
			wl_free((struct wl_set *)sw->wls[w].set);
		free(sw->wls[w].file);
	}
	free(sw->wls);
}

/* ---- metrics ---- */

static double sweep_ms(const struct sweep *sw, u64 cycles)
{
	return (double)cycles / sw->cfg.clock_khz;
}

/* Completed requests per second from the first arrival to the last end. */
static double sweep_tput(const struct sweep *sw, const struct sweep_stats *st)
{
	u64 window = st->last_end - st->first_arrive;

	if (!window || st->last_end < st->first_arrive)
		return 0;
	return (double)st->n * sw->cfg.clock_khz * 1000.0 / (double)window;
}

static double sweep_ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* A run's SLOs: ``slo=``, ``slo-ttft=``, ``slo-tpot=``. */
static bool sweep_has_slo(const struct sweep_wl_run *wr)
{
	return wr->slo || wr->slo_ttft || wr->slo_tpot;
}

/* The run meets each of its SLOs at p99 (one without any meets them). */
static bool sweep_meets(const struct sweep_wl_run *wr,
			const struct sweep_run *run)
{
	const struct sweep_stats *st = &run->shared;

	return (!wr->slo || st->p99 <= wr->slo) &&
	       (!wr->slo_ttft || st->ttft_p99 <= wr->slo_ttft) &&
	       (!wr->slo_tpot || st->tpot_p99 <= wr->slo_tpot);
}

/*
 * Goodput of (workload @w, mode @m, policy @p): the index of the highest
 * load at which every measured run of every seed meets its SLO, every
 * lower load too; -1 when the lowest load fails.  @kept: the closed
 * loops' mean throughput_vs_alone at that load (NAN: none).
 */
static int sweep_goodput(const struct sweep *sw, unsigned int w,
			 unsigned int m, unsigned int p, double *kept)
{
	const struct sweep_wl *wl = &sw->wls[w];
	unsigned int l, s, r, n = 0;
	double sum = 0;
	int best = -1;

	for (l = 0; l < sw->nr_loads; l++) {
		bool ok = true;

		for (s = 0; s < sw->nr_seeds; s++) {
			const struct sweep_point *pt =
				&sw->points[sweep_index(sw, w, m, p, l, s)];

			for (r = 0; r < wl->nr_runs; r++)
				if (wl->runs[r].measured &&
				    !sweep_meets(&wl->runs[r], &pt->runs[r]))
					ok = false;
		}
		if (!ok)
			break;
		best = l;
	}
	*kept = NAN;
	if (best < 0)
		return best;
	for (s = 0; s < sw->nr_seeds; s++) {
		const struct sweep_point *pt =
			&sw->points[sweep_index(sw, w, m, p, best, s)];

		for (r = 0; r < wl->nr_runs; r++) {
			if (wl->runs[r].open || !wl->runs[r].measured)
				continue;
			sum += sweep_ratio(sweep_tput(sw, &pt->runs[r].shared),
					   sweep_tput(sw, &pt->runs[r].alone));
			n++;
		}
	}
	if (n)
		*kept = sum / n;
	return best;
}

static bool sweep_complete(const struct sweep *sw)
{
	size_t i;

	for (i = 0; i < sw->nr_points; i++)
		if (!sw->points[i].done)
			return false;
	return true;
}

/* ---- output ---- */

static void sweep_json_load(struct json *j, const char *key, u32 ppm)
{
	json_fp(j, key, (u64)ppm * (GTBS_FP_ONE / 1000000));
}

static void sweep_json_stats(struct json *j, const char *key,
			     const struct sweep_stats *st, bool tokens)
{
	json_obj(j, key);
	json_u64(j, "requests", st->n);
	json_u64(j, "p50_cycles", st->p50);
	json_u64(j, "p99_cycles", st->p99);
	json_u64(j, "slo_met", st->slo_met);
	json_u64(j, "first_arrive_cycles", st->first_arrive);
	json_u64(j, "last_end_cycles", st->last_end);
	if (tokens) {
		json_u64(j, "ttft_p50_cycles", st->ttft_p50);
		json_u64(j, "ttft_p99_cycles", st->ttft_p99);
		json_u64(j, "tpot_p50_cycles", st->tpot_p50);
		json_u64(j, "tpot_p99_cycles", st->tpot_p99);
		json_u64(j, "tokens_met", st->tokens_met);
	}
	json_obj_end(j);
}

static void sweep_json_run(struct json *j, const struct sweep *sw,
			   const struct sweep_wl_run *wr,
			   const struct sweep_run *run)
{
	const struct sweep_stats *st = &run->shared;

	json_obj(j, NULL);
	json_str(j, "program", wr->program);
	json_u64(j, "requests", run->requests);
	if (wr->open)
		json_u64(j, "rate_e4", run->rate_e4);
	if (!wr->measured) {
		json_obj_end(j);
		return;
	}
	sweep_json_stats(j, "shared", st, wr->tokens);
	sweep_json_stats(j, "alone", &run->alone, wr->tokens);
	json_double(j, "p50_ms", sweep_ms(sw, st->p50));
	json_double(j, "p99_ms", sweep_ms(sw, st->p99));
	if (wr->tokens) {
		json_double(j, "ttft_p50_ms", sweep_ms(sw, st->ttft_p50));
		json_double(j, "ttft_p99_ms", sweep_ms(sw, st->ttft_p99));
		json_double(j, "tpot_p50_ms", sweep_ms(sw, st->tpot_p50));
		json_double(j, "tpot_p99_ms", sweep_ms(sw, st->tpot_p99));
	}
	if (wr->slo)
		json_double(j, "slo_attainment",
			    (double)st->slo_met / (st->n ? st->n : 1));
	if (wr->slo_ttft || wr->slo_tpot)
		json_double(j, "tokens_attainment",
			    (double)st->tokens_met / (st->n ? st->n : 1));
	if (sweep_has_slo(wr))
		json_boolean(j, "meets_slo", sweep_meets(wr, run));
	json_double(j, "p99_vs_alone", sweep_ratio((double)st->p99,
						   (double)run->alone.p99));
	json_double(j, "throughput", sweep_tput(sw, st));
	json_double(j, "throughput_vs_alone",
		    sweep_ratio(sweep_tput(sw, st),
				sweep_tput(sw, &run->alone)));
	json_obj_end(j);
}

/* The sweep's parameters and workloads: what every shard repeats. */
static void sweep_json_head(struct json *j, const struct sweep *sw)
{
	unsigned int w, m, p, l, s, r, i;

	json_str(j, "tool", "gputbs-sim sweep");
	json_str(j, "device", sw->device);
	json_u64(j, "sms", sw->cfg.nr_sms);
	json_u64(j, "clock_khz", sw->cfg.clock_khz);
	json_arr(j, "loads");
	for (l = 0; l < sw->nr_loads; l++)
		sweep_json_load(j, NULL, sw->loads[l]);
	json_arr_end(j);
	json_arr(j, "preempt");
	for (m = 0; m < sw->nr_preempts; m++)
		json_str(j, NULL, gtbs_preempt_mode_name(sw->preempts[m]));
	json_arr_end(j);
	json_arr(j, "policies");
	for (p = 0; p < sw->nr_policies; p++)
		json_str(j, NULL, sw->policy_names[p]);
	json_arr_end(j);
	json_u64(j, "duration", sw->duration.value);
	json_str(j, "duration_unit", !sw->duration.value ? "file" :
		 sw->duration.ns ? "ns" : "cycles");
	json_arr(j, "seeds");
	for (s = 0; s < sw->nr_seeds; s++)
		json_u64(j, NULL, sw->seeds[s]);
	json_arr_end(j);
	json_arr(j, "params");
	for (i = 0; i < sw->modes.nr_params; i++) {
		char kv[GTBS_POLICY_NAME_LEN + 40];

		snprintf(kv, sizeof(kv), "%s=%s", sw->modes.params[i].name,
			 sw->modes.params[i].value);
		json_str(j, NULL, kv);
	}
	json_arr_end(j);
	json_arr(j, "workloads");
	for (w = 0; w < sw->nr_wls; w++) {
		const struct sweep_wl *wl = &sw->wls[w];

		json_obj(j, NULL);
		json_str(j, "file", wl->file);
		json_str(j, "workload", wl->name);
		json_arr(j, "runs");
		for (r = 0; r < wl->nr_runs; r++) {
			json_obj(j, NULL);
			json_str(j, "program", wl->runs[r].program);
			json_str(j, "loop", wl->runs[r].open ? "open" :
								  "closed");
			json_boolean(j, "measured", wl->runs[r].measured);
			json_u64(j, "slo_cycles", wl->runs[r].slo);
			json_u64(j, "tokens", wl->runs[r].tokens);
			json_u64(j, "slo_ttft_cycles", wl->runs[r].slo_ttft);
			json_u64(j, "slo_tpot_cycles", wl->runs[r].slo_tpot);
			json_u64(j, "latency_cycles", wl->runs[r].latency);
			json_u64(j, "service_cycles", wl->runs[r].alone);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void sweep_json(FILE *f, const struct sweep *sw)
{
	unsigned int w, m, p, l, s, r;
	struct json j;
	char shard[32];
	size_t i;

	json_init(&j, f);
	json_obj(&j, NULL);
	sweep_json_head(&j, sw);
	if (sw->nr_shards) {
		snprintf(shard, sizeof(shard), "%u/%u", sw->shard,
			 sw->nr_shards);
		json_str(&j, "shard", shard);
	}
	json_arr(&j, "points");
	for (i = 0; i < sw->nr_points; i++) {
		const struct sweep_point *pt = &sw->points[i];

		if (!pt->done)
			continue;
		sweep_coords(sw, i, &w, &m, &p, &l, &s);
		json_obj(&j, NULL);
		json_u64(&j, "index", i);
		json_str(&j, "workload", sw->wls[w].name);
		json_str(&j, "preempt",
			 gtbs_preempt_mode_name(sw->preempts[m]));
		json_str(&j, "policy", sw->policy_names[p]);
		sweep_json_load(&j, "load", sw->loads[l]);
		json_u64(&j, "seed", sw->seeds[s]);
		json_arr(&j, "runs");
		for (r = 0; r < sw->wls[w].nr_runs; r++)
			sweep_json_run(&j, sw, &sw->wls[w].runs[r],
				       &pt->runs[r]);
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (sweep_complete(sw)) {
		json_arr(&j, "goodput");
		for (w = 0; w < sw->nr_wls; w++)
			for (m = 0; m < sw->nr_preempts; m++)
				for (p = 0; p < sw->nr_policies; p++) {
					double kept;
					int g = sweep_goodput(sw, w, m, p,
							      &kept);

					json_obj(&j, NULL);
					json_str(&j, "workload",
						 sw->wls[w].name);
					json_str(&j, "preempt",
						 gtbs_preempt_mode_name(sw->preempts[m]));
					json_str(&j, "policy",
						 sw->policy_names[p]);
					sweep_json_load(&j, "goodput", g < 0 ?
							0 : sw->loads[g]);
					json_boolean(&j, "meets_at_lowest_load",
						  g >= 0);
					if (!isnan(kept))
						json_double(&j,
							    "throughput_vs_alone",
							    kept);
					json_obj_end(&j);
				}
		json_arr_end(&j);
	}
	json_obj_end(&j);
	json_end(&j);
}

/* A load as text: at least two decimals, more where it has them. */
static const char *sweep_load_str(char *buf, size_t len, u32 ppm)
{
	int n = snprintf(buf, len, "%u.%06u", ppm / 1000000, ppm % 1000000);

	while (n > 0 && (size_t)n < len && buf[n - 1] == '0' &&
	       buf[n - 3] != '.')
		buf[--n] = '\0';
	return buf;
}

/* The rows of one point: a row per run with requests. */
static void sweep_text_point(FILE *f, const struct sweep *sw,
			     const struct sweep_wl *wl, unsigned int p,
			     unsigned int l, unsigned int s,
			     const struct sweep_point *pt)
{
	unsigned int r;
	char load[16];

	for (r = 0; r < wl->nr_runs; r++) {
		const struct sweep_run *ru = &pt->runs[r];
		const struct sweep_stats *st = &ru->shared;
		char slo[8] = "-";

		if (!wl->runs[r].measured)
			continue;
		if (wl->runs[r].slo)
			snprintf(slo, sizeof(slo), "%.0f%%",
				 100.0 * st->slo_met / (st->n ? st->n : 1));
		fprintf(f, "%-14s %5s %4" PRIu64 "  %-20s %8" PRIu64
			" %8.2f %8.2f %5s %9.2f %10.1f %10.3f\n",
			sw->policy_names[p],
			sweep_load_str(load, sizeof(load), sw->loads[l]),
			(uint64_t)sw->seeds[s], wl->runs[r].program,
			(uint64_t)st->n, sweep_ms(sw, st->p50),
			sweep_ms(sw, st->p99), slo,
			sweep_ratio((double)st->p99, (double)ru->alone.p99),
			sweep_tput(sw, st),
			sweep_ratio(sweep_tput(sw, st),
				    sweep_tput(sw, &ru->alone)));
		if (!wl->runs[r].tokens)
			continue;
		if (wl->runs[r].slo_ttft || wl->runs[r].slo_tpot)
			snprintf(slo, sizeof(slo), "%.0f%%", 100.0 *
				 st->tokens_met / (st->n ? st->n : 1));
		else
			snprintf(slo, sizeof(slo), "-");
		fprintf(f, "%-14s %5s %4s    TTFT p50 %.2f p99 %.2f ms, TPOT p50 %.2f p99 %.2f ms, within both bounds %s\n",
			"", "", "", sweep_ms(sw, st->ttft_p50),
			sweep_ms(sw, st->ttft_p99), sweep_ms(sw, st->tpot_p50),
			sweep_ms(sw, st->tpot_p99), slo);
	}
}

/* The goodput lines of (workload @w, mode @m). */
static void sweep_text_goodput(FILE *f, const struct sweep *sw,
			       unsigned int w, unsigned int m)
{
	unsigned int p;
	char load[16];

	fputs("goodput (highest load with every SLO met at p99, and below it); throughput kept there:\n",
	      f);
	for (p = 0; p < sw->nr_policies; p++) {
		double kept;
		int g = sweep_goodput(sw, w, m, p, &kept);

		if (g < 0)
			fprintf(f, "  %-14s none (an SLO missed at load %s)\n",
				sw->policy_names[p],
				sweep_load_str(load, sizeof(load),
					       sw->loads[0]));
		else if (isnan(kept))
			fprintf(f, "  %-14s %s\n", sw->policy_names[p],
				sweep_load_str(load, sizeof(load),
					       sw->loads[g]));
		else
			fprintf(f, "  %-14s %s  %.3f\n", sw->policy_names[p],
				sweep_load_str(load, sizeof(load),
					       sw->loads[g]), kept);
	}
}

static void sweep_text(FILE *f, const struct sweep *sw)
{
	unsigned int w, m, p, l, s;

	fprintf(f, "gputbs-sim sweep: device %s (%u SMs), %u polic%s x %u load%s x %u seed%s x %u preemption mode%s",
		sw->device, sw->cfg.nr_sms, sw->nr_policies,
		sw->nr_policies > 1 ? "ies" : "y",
		sw->nr_loads, sw->nr_loads > 1 ? "s" : "",
		sw->nr_seeds, sw->nr_seeds > 1 ? "s" : "",
		sw->nr_preempts, sw->nr_preempts > 1 ? "s" : "");
	if (sw->nr_shards)
		fprintf(f, ", shard %u/%u", sw->shard, sw->nr_shards);
	fputs("\n(load 1.0: a stream's alone service rate; p99/alone and thr/alone: the run beside the others over the run alone at the same load)\n",
	      f);
	for (w = 0; w < sw->nr_wls; w++) {
		const struct sweep_wl *wl = &sw->wls[w];

		for (m = 0; m < sw->nr_preempts; m++) {
			fprintf(f, "\n%s (%s), preempt %s:\n", wl->name,
				wl->file,
				gtbs_preempt_mode_name(sw->preempts[m]));
			fprintf(f, "%-14s %5s %4s  %-20s %8s %8s %8s %5s %9s %10s %10s\n",
				"policy", "load", "seed", "run", "requests",
				"p50 ms", "p99 ms", "SLO", "p99/alone",
				"per s", "thr/alone");
			for (p = 0; p < sw->nr_policies; p++)
				for (l = 0; l < sw->nr_loads; l++)
					for (s = 0; s < sw->nr_seeds; s++) {
						size_t i = sweep_index(sw, w, m,
								       p, l, s);

						if (sw->points[i].done)
							sweep_text_point(f, sw, wl, p,
									 l, s,
									 &sw->points[i]);
					}
			if (sweep_complete(sw))
				sweep_text_goodput(f, sw, w, m);
		}
	}
}

/* ---- figures ---- */

/* What a figure draws against load. */
enum sweep_fig {
	SWEEP_FIG_P99,		/* a run's p99 latency, ms, worst seed */
	SWEEP_FIG_TTFT,		/* a run's p99 time to first token, ms */
	SWEEP_FIG_TPOT,		/* a run's p99 time per output token, ms */
	SWEEP_FIG_TPUT,		/* closed loops' throughput_vs_alone, mean */
	SWEEP_NR_FIGS,
};

static const struct {
	const char *tag;	/* file name part */
	const char *what;	/* title part */
	const char *ylabel;
} sweep_figs[SWEEP_NR_FIGS] = {
	[SWEEP_FIG_P99] = { "p99", "p99 latency", "p99 latency (ms)" },
	[SWEEP_FIG_TTFT] = { "ttft", "p99 time to first token",
			     "p99 TTFT (ms)" },
	[SWEEP_FIG_TPOT] = { "tpot", "p99 time per output token",
			     "p99 TPOT (ms)" },
	[SWEEP_FIG_TPUT] = { "throughput", "throughput kept by the closed loops (over alone)",
			     "throughput / alone" },
};

/* The SLO a figure of run @wr draws, cycles; 0: not a figure of it. */
static u64 sweep_fig_slo(const struct sweep_wl_run *wr, enum sweep_fig fig)
{
	if (!wr->measured)
		return 0;
	return fig == SWEEP_FIG_P99 ? wr->slo :
	       fig == SWEEP_FIG_TTFT ? wr->slo_ttft :
	       fig == SWEEP_FIG_TPOT ? wr->slo_tpot : 0;
}

/* The value a figure plots at point (@w, @m, @p, @l), over the seeds. */
static double sweep_fig_value(const struct sweep *sw, unsigned int w,
			      unsigned int m, unsigned int p, unsigned int l,
			      unsigned int r, enum sweep_fig fig)
{
	const struct sweep_wl *wl = &sw->wls[w];
	unsigned int s, k, n = 0;
	double v = 0;

	for (s = 0; s < sw->nr_seeds; s++) {
		const struct sweep_point *pt =
			&sw->points[sweep_index(sw, w, m, p, l, s)];
		const struct sweep_stats *st = &pt->runs[r].shared;

		if (fig != SWEEP_FIG_TPUT) {
			v = fmax(v, sweep_ms(sw, fig == SWEEP_FIG_P99 ?
					     st->p99 : fig == SWEEP_FIG_TTFT ?
					     st->ttft_p99 : st->tpot_p99));
			continue;
		}
		for (k = 0; k < wl->nr_runs; k++) {
			if (wl->runs[k].open || !wl->runs[k].measured)
				continue;
			v += sweep_ratio(sweep_tput(sw, &pt->runs[k].shared),
					 sweep_tput(sw, &pt->runs[k].alone));
			n++;
		}
	}
	return fig == SWEEP_FIG_TPUT && n ? v / n : v;
}

/* One figure: its data, a file per policy, and its part of the script. */
static int sweep_fig(const struct sweep *sw, const char *dir, FILE *gp,
		     unsigned int w, unsigned int m, unsigned int r,
		     enum sweep_fig fig)
{
	const struct sweep_wl *wl = &sw->wls[w];
	const char *mode = gtbs_preempt_mode_name(sw->preempts[m]);
	char name[128], base[96];
	unsigned int p, l;
	FILE *f;

	if (fig == SWEEP_FIG_TPUT)
		snprintf(base, sizeof(base), "w%u-%s-throughput", w, mode);
	else
		snprintf(base, sizeof(base), "w%u-%s-r%u-%s", w, mode, r,
			 sweep_figs[fig].tag);
	for (p = 0; p < sw->nr_policies; p++) {
		snprintf(name, sizeof(name), "%s-%u.dat", base, p);
		f = sim_open(dir, name);
		if (!f)
			return -EIO;
		fprintf(f, "# load %s\n", fig == SWEEP_FIG_TPUT ?
			"throughput_vs_alone(mean over seeds and closed loops)" :
			"ms(worst seed)");
		for (l = 0; l < sw->nr_loads; l++)
			fprintf(f, "%u.%06u %.6f\n", sw->loads[l] / 1000000,
				sw->loads[l] % 1000000,
				sweep_fig_value(sw, w, m, p, l, r, fig));
		if (sim_close(f, dir, name))
			return -EIO;
	}
	fprintf(gp, "\nset terminal svg size 800,450 noenhanced font \"sans,10\" background rgb \"white\"\n"
		"set output \"%s.svg\"\nset title ", base);
	if (fig == SWEEP_FIG_TPUT)
		sim_gp_str(gp, "%s, preempt %s: %s", wl->name, mode,
			   sweep_figs[fig].what);
	else
		sim_gp_str(gp, "%s, preempt %s: %s %s (worst seed)", wl->name,
			   mode, wl->runs[r].program, sweep_figs[fig].what);
	fprintf(gp, "\nset xlabel 'load (1.0 = alone service rate)'\nset ylabel '%s'\nset key top left Left reverse\nset grid\nset yrange [0:%s]\nplot ",
		sweep_figs[fig].ylabel, fig == SWEEP_FIG_TPUT ? "1.05" : "*");
	for (p = 0; p < sw->nr_policies; p++) {
		fprintf(gp, "%s'%s-%u.dat' using 1:2 with linespoints title ",
			p ? ", " : "", base, p);
		sim_gp_str(gp, "%s", sw->policy_names[p]);
	}
	if (fig != SWEEP_FIG_TPUT)
		fprintf(gp, ", %.6f with lines dashtype 2 lc rgb 'black' title 'SLO'",
			sweep_ms(sw, sweep_fig_slo(&wl->runs[r], fig)));
	fprintf(gp, "\nunset output\n"
		"if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		"\tset terminal pngcairo size 800,450 noenhanced font \"sans,10\" background rgb \"white\"\n"
		"} else {\n"
		"\tset terminal png size 800,450 noenhanced\n"
		"}\n"
		"set output \"%s.png\"\nreplot\nunset output\nunset yrange\n",
		base);
	return 0;
}

/*
 * Per workload and mode: per run and SLO (slo=, slo-ttft=, slo-tpot=)
 * its p99 (worst seed) against load, a line per policy, the SLO dashed;
 * with a closed loop, the closed loops' throughput_vs_alone (mean over
 * seeds and loops).
 */
static int sweep_plot(const struct sweep *sw, const char *dir)
{
	unsigned int w, m, r, figs = 0;
	enum sweep_fig fig;
	FILE *gp;
	int ret = 0;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		sim_err("--plot: %s: %s", dir, strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	gp = sim_open(dir, "sweep.gp");
	if (!gp)
		return SIM_EXIT_SYSTEM;
	fputs("# gputbs-sim sweep --plot: p99 and throughput kept against load,\n"
	      "# each figure as SVG and PNG\n"
	      "# run \"gnuplot sweep.gp\" in this directory\n", gp);
	for (w = 0; !ret && w < sw->nr_wls; w++) {
		const struct sweep_wl *wl = &sw->wls[w];
		bool closed = false;

		for (r = 0; r < wl->nr_runs; r++)
			closed |= !wl->runs[r].open && wl->runs[r].measured;
		for (m = 0; !ret && m < sw->nr_preempts; m++) {
			for (r = 0; !ret && r < wl->nr_runs; r++)
				for (fig = 0; !ret && fig < SWEEP_FIG_TPUT;
				     fig++) {
					if (!sweep_fig_slo(&wl->runs[r], fig))
						continue;
					ret = sweep_fig(sw, dir, gp, w, m, r,
							fig);
					figs++;
				}
			if (!ret && closed) {
				ret = sweep_fig(sw, dir, gp, w, m, 0,
						SWEEP_FIG_TPUT);
				figs++;
			}
		}
	}
	if (fclose(gp) && !ret) {
		sim_err("--plot: %s/sweep.gp: %s", dir, strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	if (ret)
		return SIM_EXIT_SYSTEM;
	if (!figs)
		return 0;
	ret = sim_run_gnuplot(dir, "sweep.gp");
	if (ret == SIM_GNUPLOT_MISSING) {
		sim_err("--plot: cannot run gnuplot (Debian: apt-get install gnuplot-nox); the data and sweep.gp are in %s",
			dir);
		return SIM_EXIT_SYSTEM;
	}
	if (ret) {
		sim_err("--plot: gnuplot %s/sweep.gp failed", dir);
		return SIM_EXIT_SYSTEM;
	}
	return 0;
}

/* ---- --merge ---- */

/* A number member of @obj exactly, as an integer. */
static int sweep_jint(const struct json_object *obj, const char *key,
		      u64 *out)
{
	const char *num = sim_json_num(sim_json_get(obj, key));
	char *end;

	if (!num || num[0] == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(num, &end, 10);
	return *end || errno ? -EINVAL : 0;
}

/* A fixed-point number ("1.200000") as ppm. */
static int sweep_jppm(const struct json_object *v, u32 *out)
{
	const char *num = sim_json_num(v);

	if (!num)
		return -EINVAL;
	return sweep_parse_ppm(num, 1, WL_MAX_LOAD_PPM, out);
}

/* An array member, and its length in *@n. */
static const struct json_object *sweep_jarr(const struct json_object *obj,
					    const char *key, size_t *n)
{
	const struct json_object *v = sim_json_get(obj, key);

	if (!json_object_is_type(v, json_type_array))
		return NULL;
	*n = json_object_array_length(v);
	return v;
}

static const struct json_object *sweep_jat(const struct json_object *arr,
					   size_t i)
{
	return json_object_array_get_idx(arr, i);
}

static const char *sweep_jstr(const struct json_object *obj, const char *key)
{
	return sim_json_str(sim_json_get(obj, key));
}

static int sweep_read_stats(const struct json_object *obj, const char *key,
			    struct sweep_stats *st, bool tokens)
{
	const struct json_object *o = sim_json_get(obj, key);

	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	if (tokens && (sweep_jint(o, "ttft_p50_cycles", &st->ttft_p50) ||
		       sweep_jint(o, "ttft_p99_cycles", &st->ttft_p99) ||
		       sweep_jint(o, "tpot_p50_cycles", &st->tpot_p50) ||
		       sweep_jint(o, "tpot_p99_cycles", &st->tpot_p99) ||
		       sweep_jint(o, "tokens_met", &st->tokens_met)))
		return -EINVAL;
	return sweep_jint(o, "requests", &st->n) ||
	       sweep_jint(o, "p50_cycles", &st->p50) ||
	       sweep_jint(o, "p99_cycles", &st->p99) ||
	       sweep_jint(o, "slo_met", &st->slo_met) ||
	       sweep_jint(o, "first_arrive_cycles", &st->first_arrive) ||
	       sweep_jint(o, "last_end_cycles", &st->last_end) ? -EINVAL : 0;
}

/* The sweep's parameters and workloads from the first shard. */
static int sweep_read_head(struct sweep *sw, const struct json_object *root)
{
	const struct json_object *a, *wj, *rj;
	size_t n, nr;
	const char *s;
	unsigned int i, r;
	u64 v;

	s = sweep_jstr(root, "device");
	if (!s || strlen(s) >= sizeof(sw->device) ||
	    sweep_jint(root, "clock_khz", &v) || !v || v > UINT32_MAX)
		return -EINVAL;
	snprintf(sw->device, sizeof(sw->device), "%s", s);
	sw->cfg.clock_khz = v;
	if (sweep_jint(root, "sms", &v) || !v || v > GTBS_MAX_SMS)
		return -EINVAL;
	sw->cfg.nr_sms = v;
	a = sweep_jarr(root, "loads", &n);
	if (!a || !n || n > SWEEP_MAX_LOADS)
		return -EINVAL;
	for (sw->nr_loads = 0; sw->nr_loads < n; sw->nr_loads++)
		if (sweep_jppm(sweep_jat(a, sw->nr_loads),
			       &sw->loads[sw->nr_loads]))
			return -EINVAL;
	a = sweep_jarr(root, "preempt", &n);
	if (!a || !n || n > GTBS_NR_PREEMPT_MODES)
		return -EINVAL;
	for (sw->nr_preempts = 0; sw->nr_preempts < n; sw->nr_preempts++) {
		s = sim_json_str(sweep_jat(a, sw->nr_preempts));
		for (i = 0; i < GTBS_NR_PREEMPT_MODES; i++)
			if (s && !strcmp(s, gtbs_preempt_mode_name(i)))
				break;
		if (i == GTBS_NR_PREEMPT_MODES)
			return -EINVAL;
		sw->preempts[sw->nr_preempts] = i;
	}
	a = sweep_jarr(root, "policies", &n);
	if (!a || !n || n > SIM_MAX_POLICIES)
		return -EINVAL;
	for (sw->nr_policies = 0; sw->nr_policies < n; sw->nr_policies++) {
		s = sim_json_str(sweep_jat(a, sw->nr_policies));
		if (!s || strlen(s) >= GTBS_POLICY_NAME_LEN)
			return -EINVAL;
		snprintf(sw->policy_names[sw->nr_policies],
			 GTBS_POLICY_NAME_LEN, "%s", s);
	}
	s = sweep_jstr(root, "duration_unit");
	if (!s || sweep_jint(root, "duration", &v))
		return -EINVAL;
	sw->duration.value = v;
	sw->duration.ns = !strcmp(s, "ns");
	a = sweep_jarr(root, "seeds", &n);
	if (!a || !n || n > SWEEP_MAX_SEEDS)
		return -EINVAL;
	for (sw->nr_seeds = 0; sw->nr_seeds < n; sw->nr_seeds++) {
		s = sim_json_num(sweep_jat(a, sw->nr_seeds));
		if (!s || sim_parse_uint(s, 0, UINT64_MAX,
					 &sw->seeds[sw->nr_seeds]))
			return -EINVAL;
	}
	a = sweep_jarr(root, "params", &n);
	if (!a || n > SIM_MAX_PARAMS)
		return -EINVAL;
	for (sw->modes.nr_params = 0; sw->modes.nr_params < n;
	     sw->modes.nr_params++) {
		struct sim_param *pa = &sw->modes.params[sw->modes.nr_params];
		const char *x = sim_json_str(sweep_jat(a, sw->modes.nr_params));
		const char *eq = x ? strchr(x, '=') : NULL;

		if (!eq || (size_t)(eq - x) >= sizeof(pa->name) ||
		    strlen(eq + 1) >= sizeof(pa->value))
			return -EINVAL;
		snprintf(pa->name, sizeof(pa->name), "%.*s",
			 (int)(eq - x), x);
		snprintf(pa->value, sizeof(pa->value), "%s", eq + 1);
	}
	a = sweep_jarr(root, "workloads", &n);
	if (!a || !n)
		return -EINVAL;
	sw->wls = calloc(n, sizeof(*sw->wls));
	if (!sw->wls)
		return -ENOMEM;
	for (sw->nr_wls = 0; sw->nr_wls < n; sw->nr_wls++) {
		struct sweep_wl *w = &sw->wls[sw->nr_wls];

		wj = sweep_jat(a, sw->nr_wls);
		s = sweep_jstr(wj, "file");
		if (!s || !(w->file = strdup(s)))
			return -EINVAL;
		s = sweep_jstr(wj, "workload");
		rj = sweep_jarr(wj, "runs", &nr);
		if (!s || strlen(s) >= WL_NAME_LEN || !rj || !nr ||
		    nr > WL_MAX_RUNS)
			return -EINVAL;
		snprintf(w->name, sizeof(w->name), "%s", s);
		w->nr_runs = nr;
		for (r = 0; r < nr; r++) {
			const struct json_object *x = sweep_jat(rj, r);
			struct sweep_wl_run *wr = &w->runs[r];
			const char *loop = sweep_jstr(x, "loop");
			struct json_object *meas = sim_json_get(x, "measured");
			u64 tok;

			s = sweep_jstr(x, "program");
			if (!s || strlen(s) >= WL_NAME_LEN || !loop ||
			    !json_object_is_type(meas, json_type_boolean) ||
			    sweep_jint(x, "slo_cycles", &wr->slo) ||
			    sweep_jint(x, "tokens", &tok) || tok > UINT32_MAX ||
			    sweep_jint(x, "slo_ttft_cycles", &wr->slo_ttft) ||
			    sweep_jint(x, "slo_tpot_cycles", &wr->slo_tpot) ||
			    sweep_jint(x, "latency_cycles", &wr->latency) ||
			    sweep_jint(x, "service_cycles", &wr->alone))
				return -EINVAL;
			snprintf(wr->program, sizeof(wr->program), "%s", s);
			wr->tokens = tok;
			wr->open = !strcmp(loop, "open");
			wr->measured = json_object_get_boolean(meas);
		}
	}
	return 0;
}

/* One shard's points into @sw: each in the shard, none twice. */
static int sweep_read_points(struct sweep *sw,
			     const struct json_object *root,
			     unsigned int shard, unsigned int nr_shards,
			     const char **why)
{
	size_t k, nr_points = 0, nr_runs = 0;
	const struct json_object *a = sweep_jarr(root, "points", &nr_points);
	unsigned int r;
	u64 i, n = 0;

	*why = "bad or missing \"points\"";
	if (!a)
		return -EINVAL;
	for (k = 0; k < nr_points; k++) {
		const struct json_object *pj = sweep_jat(a, k);
		const struct json_object *rj = sweep_jarr(pj, "runs", &nr_runs);
		struct sweep_point *pt;
		unsigned int w, m, p, l, s;

		if (sweep_jint(pj, "index", &i) || i >= sw->nr_points) {
			*why = "a point's \"index\" is missing or past the sweep's points";
			return -EINVAL;
		}
		if (i % nr_shards != shard - 1) {
			*why = "a point that is not in the file's shard";
			return -EINVAL;
		}
		pt = &sw->points[i];
		if (pt->done) {
			*why = "a point given twice";
			return -EINVAL;
		}
		sweep_coords(sw, i, &w, &m, &p, &l, &s);
		if (!rj || nr_runs != sw->wls[w].nr_runs)
			return -EINVAL;
		for (r = 0; r < nr_runs; r++) {
			const struct json_object *x = sweep_jat(rj, r);
			struct sweep_run *ru = &pt->runs[r];

			if (sweep_jint(x, "requests", &ru->requests))
				return -EINVAL;
			if (sw->wls[w].runs[r].open &&
			    sweep_jint(x, "rate_e4", &ru->rate_e4))
				return -EINVAL;
			if (sw->wls[w].runs[r].measured &&
			    (sweep_read_stats(x, "shared", &ru->shared,
					      sw->wls[w].runs[r].tokens) ||
			     sweep_read_stats(x, "alone", &ru->alone,
					      sw->wls[w].runs[r].tokens)))
				return -EINVAL;
		}
		pt->done = true;
		n++;
	}
	/* the shard's share of the points, all of them */
	if (n != (sw->nr_points + nr_shards - shard) / nr_shards) {
		*why = "the shard is incomplete (a task failed or was cut short?)";
		return -EINVAL;
	}
	return 0;
}

/* Everything of a shard's JSON but "shard" and "points", as text. */
static char *sweep_head_text(const struct sweep *sw)
{
	char *buf = NULL;
	size_t len = 0;
	struct json j;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	json_init(&j, f);
	json_obj(&j, NULL);
	sweep_json_head(&j, sw);
	json_obj_end(&j);
	json_end(&j);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int sweep_merge(struct sweep *sw, char **files, unsigned int n)
{
	char err[256], *head = NULL;
	unsigned int f, shard, nr_shards = 0, *seen = NULL;
	const char *why = NULL;
	int ret = 0;

	for (f = 0; f < n && !ret; f++) {
		struct json_object *root;
		struct sweep one;
		const char *s;
		char *text = NULL;
		size_t len = 0;
		FILE *in;

		in = fopen(files[f], "re");
		if (!in) {
			sim_err("--merge: %s: %s", files[f], strerror(errno));
			ret = SIM_EXIT_USAGE;
			break;
		}
		{
			char chunk[65536];
			size_t got;
			FILE *m = open_memstream(&text, &len);

			while (m && (got = fread(chunk, 1, sizeof(chunk), in)))
				fwrite(chunk, 1, got, m);
			if (!m || fclose(m)) {
				fclose(in);
				sim_err("out of memory");
				ret = SIM_EXIT_SYSTEM;
				break;
			}
		}
		fclose(in);
		root = sim_json_parse(text, err, sizeof(err), &ret);
		free(text);
		if (ret) {
			sim_err("--merge: %s: %s", files[f], err);
			ret = ret == -ENOMEM ? SIM_EXIT_SYSTEM : SIM_EXIT_USAGE;
			break;
		}
		memset(&one, 0, sizeof(one));
		s = sweep_jstr(root, "tool");
		if (!s || strcmp(s, "gputbs-sim sweep") ||
		    sweep_read_head(f ? &one : sw, root)) {
			sim_err("--merge: %s: not the JSON of a gputbs-sim sweep (--format json)",
				files[f]);
			ret = SIM_EXIT_USAGE;
		}
		s = sweep_jstr(root, "shard");
		if (!ret && (!s || sweep_parse_shard(s, &shard,
						     f ? &one.nr_shards :
							 &nr_shards))) {
			sim_err("--merge: %s: no \"shard\" (a sweep run with --shard I/N or in a Slurm array task)",
				files[f]);
			ret = SIM_EXIT_USAGE;
		}
		if (!ret && !f) {
			head = sweep_head_text(sw);
			seen = calloc(nr_shards + 1, sizeof(*seen));
			ret = sweep_alloc_points(sw);
			if (!head || !seen || ret) {
				sim_err("out of memory");
				ret = SIM_EXIT_SYSTEM;
			}
		} else if (!ret) {
			char *h = sweep_head_text(&one);

			if (!h || strcmp(h, head) || one.nr_shards != nr_shards) {
				sim_err("--merge: %s: a shard of another sweep than %s (its options, files or shard count differ)",
					files[f], files[0]);
				ret = SIM_EXIT_USAGE;
			}
			free(h);
		}
		if (f) {
			unsigned int w;

			for (w = 0; w < one.nr_wls; w++)
				free(one.wls[w].file);
			free(one.wls);
		}
		if (!ret && seen[shard]++) {
			sim_err("--merge: %s: shard %u/%u given twice",
				files[f], shard, nr_shards);
			ret = SIM_EXIT_USAGE;
		}
		if (!ret && sweep_read_points(sw, root, shard, nr_shards,
					      &why)) {
			sim_err("--merge: %s: %s", files[f], why);
			ret = SIM_EXIT_USAGE;
		}
		json_object_put(root);
	}
	for (shard = 1; !ret && shard <= nr_shards; shard++)
		if (!seen[shard]) {
			sim_err("--merge: shard %u/%u is missing", shard,
				nr_shards);
			ret = SIM_EXIT_USAGE;
		}
	free(seen);
	free(head);
	return ret;
}

/* ---- the command ---- */

#define SWEEP_OPT_LOAD		400
#define SWEEP_OPT_PREEMPT	401
#define SWEEP_OPT_SEEDS		402
#define SWEEP_OPT_SHARD		403
#define SWEEP_OPT_MERGE		404
#define SWEEP_OPT_PLOT		405
#define SWEEP_OPT_DEVICE	406
#define SWEEP_OPT_DURATION	407
#define SWEEP_OPT_SMS		408

static int sweep_write(const struct sweep *sw, bool json, const char *path,
		       const char *plot)
{
	FILE *f = stdout;
	int ret = 0;

	if (path) {
		f = fopen(path, "we");
		if (!f) {
			sim_err("-o: %s: %s", path, strerror(errno));
			return SIM_EXIT_SYSTEM;
		}
	}
	if (json)
		sweep_json(f, sw);
	else
		sweep_text(f, sw);
	if (path ? fclose(f) : fflush(f)) {
		sim_err("%s: %s", path ? path : "stdout", strerror(errno));
		ret = SIM_EXIT_SYSTEM;
	}
	if (!ret && plot) {
		if (!sweep_complete(sw)) {
			sim_err("--plot: a shard has no figures: merge the shards first (--merge)");
			return SIM_EXIT_USAGE;
		}
		ret = sweep_plot(sw, plot);
	}
	return ret;
}

/**
 * cmd_sweep() - gputbs-sim sweep
 * @argc: arguments, argv[0] "gputbs-sim sweep".
 * @argv: the options and the scenario files (or, with --merge, the
 *	shards' JSON).
 *
 * Return: the exit status: 0, %SIM_EXIT_SYSTEM or %SIM_EXIT_USAGE.
 */
int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "load", required_argument, NULL, SWEEP_OPT_LOAD },
		{ "policies", required_argument, NULL, 'P' },
		{ "preempt", required_argument, NULL, SWEEP_OPT_PREEMPT },
		{ "seeds", required_argument, NULL, SWEEP_OPT_SEEDS },
		{ "duration", required_argument, NULL, SWEEP_OPT_DURATION },
		{ "jobs", required_argument, NULL, 'j' },
		{ "device", required_argument, NULL, SWEEP_OPT_DEVICE },
		{ "sms", required_argument, NULL, SWEEP_OPT_SMS },
		{ "param", required_argument, NULL, SIM_OPT_PARAM },
		{ "policy-plugin", required_argument, NULL, SIM_OPT_PLUGIN },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "shard", required_argument, NULL, SWEEP_OPT_SHARD },
		{ "merge", no_argument, NULL, SWEEP_OPT_MERGE },
		{ "plot", required_argument, NULL, SWEEP_OPT_PLOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policies = NULL, *out = NULL, *plot = NULL;
	const char *plugins[SIM_MAX_PLUGINS];
	const struct gtbs_dev_preset *preset = gtbs_config_preset("h100");
	unsigned int nr_plugins = 0, i;
	bool json = false, merge = false, shard_given = false;
	bool sms_given = false;
	struct gtbs_dev_config sms = { 0 };
	struct sweep *sw;
	int opt, ret = 0;

	sw = calloc(1, sizeof(*sw));
	if (!sw) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	sim_modes_default(&sw->modes);
	sw->jobs = sim_jobs_default();
	ret = sweep_parse_loads(sw, SWEEP_DEFAULT_LOADS);
	sw->nr_preempts = 1;
	sw->preempts[0] = GTBS_PREEMPT_DRAIN;
	sw->nr_seeds = 1;
	while (!ret && (opt = getopt_long(argc, argv, "P:j:f:o:h", opts,
					  NULL)) != -1) {
		switch (opt) {
		case SWEEP_OPT_LOAD:
			ret = sweep_parse_loads(sw, optarg);
			break;
		case 'P':
			policies = optarg;
			break;
		case SWEEP_OPT_PREEMPT:
			ret = sweep_parse_preempts(sw, optarg);
			break;
		case SWEEP_OPT_SEEDS:
			ret = sweep_parse_seeds(sw, optarg);
			break;
		case SWEEP_OPT_DURATION:
			if (sim_parse_time(optarg, strlen(optarg),
					   &sw->duration))
				ret = sim_usage_error(sweep_help, "--duration: '%s' is not a time (1..2^40 cycles, or ns, us, ms or s)",
						      optarg);
			break;
		case 'j':
			ret = sim_parse_jobs(sweep_help, optarg, &sw->jobs);
			break;
		case SWEEP_OPT_DEVICE:
			ret = sim_parse_preset(sweep_help, optarg, &preset);
			break;
		case SWEEP_OPT_SMS:
			ret = sim_parse_sms(sweep_help, optarg, &sms);
			sms_given = true;
			break;
		case SIM_OPT_PARAM:
			ret = sim_parse_param(sweep_help, optarg, &sw->modes);
			break;
		case SIM_OPT_PLUGIN:
			ret = sim_add_plugin(sweep_help, optarg, plugins,
					     &nr_plugins);
			break;
		case 'f':
			ret = sim_parse_format(sweep_help, optarg, &json);
			break;
		case 'o':
			out = optarg;
			break;
		case SWEEP_OPT_SHARD:
			if (sweep_parse_shard(optarg, &sw->shard,
					      &sw->nr_shards))
				ret = sim_usage_error(sweep_help, "--shard: '%s' is not I/N with 1 <= I <= N <= %u",
						      optarg,
						      SWEEP_MAX_SHARDS);
			shard_given = true;
			break;
		case SWEEP_OPT_MERGE:
			merge = true;
			break;
		case SWEEP_OPT_PLOT:
			plot = optarg;
			break;
		case 'h':
			sweep_help(stdout);
			free(sw);
			return 0;
		default:
			sweep_help(stderr);
			ret = SIM_EXIT_USAGE;
		}
	}
	if (!ret && optind == argc)
		ret = sim_usage_error(sweep_help, "%s", merge ?
				      "--merge: no shard's JSON given" :
				      "no scenario file given");
	if (!ret && merge && (shard_given || policies || nr_plugins ||
			      sms_given))
		ret = sim_usage_error(sweep_help, "--merge takes the shards' sweep as it ran: only --format, --output and --plot");
	if (!ret && merge) {
		ret = sweep_merge(sw, argv + optind, argc - optind);
		if (!ret)
			ret = sweep_write(sw, json, out, plot);
		sweep_free(sw);
		free(sw);
		return ret;
	}
	if (!ret && !shard_given)
		ret = sweep_slurm_shard(sw);
	if (!ret && sw->nr_shards)
		json = true;
	if (!ret)
		ret = sim_load_plugins(plugins, nr_plugins);
	if (!ret && policies)
		ret = sim_parse_policies(sweep_help, "--policies", policies,
					 sw->policies, &sw->nr_policies);
	else if (!ret)
		ret = sim_all_policies(sweep_help, sw->policies,
				       &sw->nr_policies);
	if (!ret)
		ret = sim_check_params(sweep_help, &sw->modes);
	if (!ret) {
		for (i = 0; i < sw->nr_policies; i++)
			snprintf(sw->policy_names[i], GTBS_POLICY_NAME_LEN,
				 "%s", sw->policies[i]->name);
		snprintf(sw->device, sizeof(sw->device), "%s", preset->name);
		sw->cfg = sms;
		sim_apply_preset(&sw->cfg, preset, sms_given, false);
		ret = sweep_load_files(sw, argv + optind, argc - optind);
	}
	if (!ret && sweep_alloc_points(sw)) {
		sim_err("out of memory");
		ret = SIM_EXIT_SYSTEM;
	}
	if (!ret)
		ret = sweep_run_points(sw);
	if (!ret)
		ret = sweep_write(sw, json, out, plot);
	sweep_free(sw);
	free(sw);
	return ret;
}
