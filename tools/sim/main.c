// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - command line of gputbs-sim, the virtual-time simulator.
 *
 *   gputbs-sim eval [--workloads DIR] [--offsets LIST] [--policies LIST]
 *                   [--format text|json] [--jobs N] [--device NAME]
 *                   [--sms N] [--seed N]
 *                   [--sjf-key model|measured] [--plot DIR]
 *                   [--timeline PAIR[@OFFSET]] [--policy-plugin FILE.so]...
 *                   [--param NAME=VALUE]...
 *   gputbs-sim eval --scenario FILE|DIR|all [--policies LIST]
 *                   [--format text|json] [--device NAME] [--jobs N]
 *                   [FILE]...
 *   gputbs-sim run [--policy LIST] [--format text|json] [--device NAME]
 *                  [--sms N] [--jobs N]
 *                  [--seed N] [--trace FILE] [--policy-plugin FILE.so]...
 *                  [--param NAME=VALUE]... WORKLOAD
 *   gputbs-sim report --results FILE [--format text|json] [--plot DIR]
 *   gputbs-sim blocks [--seed N] WORKLOAD
 *
 * Exit status: 0 success, 1 system error (memory, I/O, gnuplot), 2 usage
 * error or bad workload file.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/parallel.h"
#include "../lib/report.h"
#include "sim.h"

#ifndef GPUTBS_VERSION
#define GPUTBS_VERSION	"0.1"
#endif



static const char usage_main[] =
	"Usage: gputbs-sim [--help] [--version] COMMAND [ARGS]\n"
	"\n"
	"Simulate gputbs in virtual time with the module's own portable core\n"
	"(policies, predictor, occupancy, timing model, metrics).\n"
	"\n"
	"Commands:\n"
	"  eval   the paper's evaluation: every ordered pair of programs at\n"
	"         each arrival offset under each policy, STP, ANTT, StrictF\n"
	"         beside the paper's Tables, optionally plotted; with\n"
	"         --scenario, request streams' latency and SLOs instead\n"
	"  run    one workload file, reported like 'gputbs run'\n"
	"  report the text, JSON or figures of a saved 'eval --format json'\n"
	"         (also of 'gputbs eval', the same sweep on the module)\n"
	"  blocks the shape of each grid's block durations: mean, %RSD,\n"
	"         quantiles over the mean\n"
	"  sweep  request streams from light load to saturation under each\n"
	"         policy and preemption mode: p99 and throughput against\n"
	"         alone, goodput; sharded (Slurm arrays) and merged\n"
	"  devices the device presets: vendor figures, the time to save\n"
	"         the contexts of a full device\n"
	"\n"
	"'gputbs-sim COMMAND --help' describes a command.\n";

/* --policy-plugin and --param, the same in eval and run */
#define SIM_PLUGIN_PARAM_HELP						\
	"      --policy-plugin FILE.so\n"				\
	"                        load a policy built as a plug-in\n"	\
	"                        (GTBS_POLICY_MODULE(), make samples) and\n" \
	"                        register it after the built-ins; repeatable\n" \
	"      --param NAME=VALUE\n"					\
	"                        set parameter NAME of every policy that\n" \
	"                        declares it (a number, or one of its value\n" \
	"                        names); repeatable, the last of a NAME wins\n" \
	"      --preempt MODE    how an SM makes room for a higher class:\n" \
	"                        drain (default: wait for blocks to end),\n" \
	"                        switch (save and restore contexts), flush\n" \
	"                        (rerun idempotent grids' blocks) or auto\n" \
	"      --switch-bw BYTES each SM's context bandwidth, bytes per cycle\n" \
	"                        (default 8, a Fermi-class share)\n" \
	"      --idempotent      submit every grid idempotent (flush may\n" \
	"                        rerun its blocks), whatever the file says\n" \
	"      --cap-period N    the period of tenants' caps (max=), cycles,\n" \
	"                        1..2^33 (default 100000)\n"

static const char usage_eval[] =
	"Usage: gputbs-sim eval [OPTIONS]\n"
	"\n"
	"Run every program of DIR/kernels.gtbs alone (FIFO, a fresh device),\n"
	"then every ordered pair of distinct programs, the second arriving at\n"
	"each offset, under each policy, and print per pair and grid the\n"
	"turnarounds, slowdowns and predictions with STP, ANTT and StrictF,\n"
	"then the geometric means per policy and offset beside the paper's\n"
	"Tables and the order of the policies by each metric.  The output does\n"
	"not depend on --jobs: same options, same output, byte for byte.\n"
	"\n"
	"  -w, --workloads DIR   programs of DIR/kernels.gtbs\n"
	"                        (default workloads/ercbench)\n"
	"  -o, --offsets LIST    comma-separated arrival offsets of the second\n"
	"                        program, percent (0..1000) of the first one's\n"
	"                        alone runtime; 0 means cycle 50 (default\n"
	"                        0,25,50)\n"
	"  -P, --policies LIST   comma-separated policies (default: all but\n"
	"                        those that order tenants (fair), those of\n"
	"                        --policy-plugin after the built-ins, in the\n"
	"                        registry's order: %s)\n"
	"  -f, --format FORMAT   text (default) or json\n"
	"  -j, --jobs N          worker threads, 1..256 (default: online CPUs)\n"
	"  -d, --device NAME     device preset: gtx480 (default, the paper's),\n"
	"                        v100, a100 or h100 (also --preset NAME)\n"
	"  -s, --sms N           SMs of the device, 1..1024 (default: the\n"
	"                        preset's, 15); overrides the preset's\n"
	"  -S, --seed N          XOR a scramble of N into every grid's seed\n"
	"                        (default 0: the workload file's seeds)\n"
	"  -M, --timing-model M  overlap (default: each grid's mem= and knee=)\n"
	"                        or uniform (the first release's model, every\n"
	"                        warp slows every block alike)\n"
	"      --block-times M   wave (default: a normal grid's blocks of one\n"
	"                        wave share most of their variation) or\n"
	"                        independent (each block drawn on its own,\n"
	"                        the model before 2026-11-28)\n"
	"  -k, --sjf-key KEY     the key of srtf-oracle, sjf and ljf: measured\n"
	"                        (default: each grid's alone runtime as\n"
	"                        measured) or model (Equation 1 of its work\n"
	"                        model, the module's)\n"
	"  -p, --plot DIR        also write per-pair bar charts of STP, ANTT and\n"
	"                        StrictF per offset and a per-SM timeline as SVG\n"
	"                        and PNG into DIR, with their gnuplot data and\n"
	"                        script (needs gnuplot)\n"
	"  -t, --timeline PAIR[@OFFSET]\n"
	"                        the pair of the timeline, one figure per policy\n"
	"                        (default RayTracing+JPEG-d@0, else the first);\n"
	"                        with --format json, its blocks are in the JSON\n"
	"  -r, --predictor MODE  the Simple Slicing predictor: literal (default:\n"
	"                        Algorithm 1 as printed) or extended\n"
	"  -m, --share-mode MODE SRTF/Adaptive's reading: device (default: the\n"
	"                        paper's text) or sm (each SM decides); the\n"
	"                        same as --param share_mode=MODE\n"
	SIM_PLUGIN_PARAM_HELP
	"      --scenario FILE|DIR|all\n"
	"                        instead of the pairwise sweep, run each\n"
	"                        workload of FILE (repeatable; further FILEs\n"
	"                        may follow the options), of every *.gtbs of\n"
	"                        DIR but models.gtbs, or (all) of\n"
	"                        workloads/scenarios/, under every policy of\n"
	"                        --policies on --device (default h100, the\n"
	"                        scenarios' preset) and print per workload\n"
	"                        and policy STP, ANTT and per run with\n"
	"                        requests its p50 and p99 latency (ms), SLO\n"
	"                        attainment and req/s; every workload needs a\n"
	"                        run with requests= or slo=.  --sms, --seed,\n"
	"                        --timing-model, --predictor, --share-mode,\n"
	"                        --format, --jobs (the workloads under the\n"
	"                        policies in parallel) and the options above\n"
	"                        apply\n"
	"  -h, --help            this help\n";

static const char usage_report[] =
	"Usage: gputbs-sim report --results FILE [OPTIONS]\n"
	"\n"
	"Read the JSON of 'gputbs-sim eval --format json' or of 'gputbs eval\n"
	"--format json' (the sweep on the module) and print it again, as the\n"
	"command that made it would have: the same tables, geomeans and\n"
	"orders, from the same code.  The geomeans are computed again from the\n"
	"pairs.\n"
	"\n"
	"  -r, --results FILE    the JSON ('-': standard input)\n"
	"  -f, --format FORMAT   text (default) or json\n"
	"  -p, --plot DIR        also write the figures of 'eval --plot' into\n"
	"                        DIR (the timeline if the JSON has one)\n"
	"  -h, --help            this help\n";

static const char usage_run[] =
	"Usage: gputbs-sim run [OPTIONS] WORKLOAD...\n"
	"\n"
	"Run workload files (Documentation/workloads.rst) in virtual time:\n"
	"each program alone, then each workload with its programs arriving at\n"
	"their offsets (exact cycles), and print what 'gputbs run' prints.\n"
	"\n"
	"  -P, --policy LIST     comma-separated policies (default fifo); with\n"
	"                        several, a table compares them side by side\n"
	"  -f, --format FORMAT   text (default) or json\n"
	"  -d, --device NAME     device preset: gtx480 (default, the paper's),\n"
	"                        v100, a100 or h100 (also --preset NAME)\n"
	"  -s, --sms N           SMs of the device, 1..1024 (default: the\n"
	"                        preset's, 15); overrides the preset's\n"
	"  -S, --seed N          XOR a scramble of N into every grid's seed\n"
	"  -M, --timing-model M  overlap (default) or uniform\n"
	"      --block-times M   wave (default) or independent\n"
	"  -T, --trace FILE      write every block of the workload's grids as a\n"
	"                        trace for 'gputbs predict' (one workload and\n"
	"                        one policy only)\n"
	"      --plot DIR        per run with requests: its latency CDF and\n"
	"                        throughput over time under each policy, as\n"
	"                        SVG and PNG figures, their data and a gnuplot\n"
	"                        script in DIR\n"
	"  -r, --predictor MODE  the Simple Slicing predictor: literal (default:\n"
	"                        Algorithm 1 as printed) or extended\n"
	"  -m, --share-mode MODE SRTF/Adaptive's reading: device (default: the\n"
	"                        paper's text) or sm (each SM decides); the\n"
	"                        same as --param share_mode=MODE\n"
	"      --share-window TIME[,TIME...]\n"
	"                        JSON: each run's SM share in every window of\n"
	"                        TIME (cycles, or ns, us, ms, s) that tiles\n"
	"                        the interval of sm_share; up to 4 lengths,\n"
	"                        repeatable\n"
	"      --load LOAD       rescale each workload's request streams to\n"
	"                        LOAD (0.000001..100; 1: an open-loop stream\n"
	"                        alone keeps the device busy): rate= becomes\n"
	"                        LOAD / the program's alone latency under\n"
	"                        fifo, a closed loop's requests= covers the\n"
	"                        open-loop streams' span\n"
	"      --duration TIME   with --load: how long the open-loop streams\n"
	"                        run (cycles, or with ns, us, ms, s; default:\n"
	"                        each its file's requests at its file's rate)\n"
	"  -j, --jobs N          worker threads for the workloads under the\n"
	"                        policies, 1..256 (default: online CPUs; the\n"
	"                        output does not depend on it)\n"
	SIM_PLUGIN_PARAM_HELP
	"  -h, --help            this help\n";

static void sim_main_help(FILE *f)
{
	fputs(usage_main, f);
}

static void sim_run_help(FILE *f)
{
	fputs(usage_run, f);
}

static void sim_eval_help(FILE *f)
{
	char reg[256];

	sim_registry_sweep(reg, sizeof(reg), ",");
	fprintf(f, usage_eval, reg);
}

static void sim_report_help(FILE *f)
{
	fputs(usage_report, f);
}

static int sim_start_virtual(struct sim_eval *ev,
			     void *priv __attribute__((unused)))
{
	ev->backend = &sim_backend_virtual;
	return 0;
}

static int sim_run_main(int argc, char **argv, bool scenario);

static int cmd_eval(int argc, char **argv)
{
	static const struct sim_eval_cli cli = {
		.usage = usage_eval,
		.start = sim_start_virtual,
		.load_plugins = sim_load_plugins,
	};
	int i;

	/* --scenario (or an abbreviation getopt_long() takes: --sce...) */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (strcspn(argv[i], "=") >= 5 &&
		    !strncmp(argv[i], "--scenario", strcspn(argv[i], "=")))
			return sim_run_main(argc, argv, true);
	return sim_eval_main(argc, argv, &cli);
}

/* ---- report: a sweep's JSON rendered again ---- */

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "results", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *results = NULL, *plot = NULL;
	struct sim_timeline *tl;
	struct sim_eval *ev;
	bool json = false;
	int opt, ret = 0;

	while (!ret && (opt = getopt_long(argc, argv, "r:f:p:h", opts,
					  NULL)) != -1) {
		switch (opt) {
		case 'r':
			results = optarg;
			break;
		case 'f':
			ret = sim_parse_format(sim_report_help, optarg, &json);
			break;
		case 'p':
			if (!*optarg)
				ret = sim_usage_error(sim_report_help, "%s",
						      "--plot: empty directory name");
			plot = optarg;
			break;
		case 'h':
			fputs(usage_report, stdout);
			return 0;
		default:
			fputs(usage_report, stderr);
			return SIM_EXIT_USAGE;
		}
	}
	if (ret)
		return ret;
	if (optind < argc)
		return sim_usage_error(sim_report_help, "unexpected argument '%s'",
				       argv[optind]);
	if (!results)
		return sim_usage_error(sim_report_help, "%s",
				       "no --results FILE given");
	ev = calloc(1, sizeof(*ev));
	tl = calloc(1, sizeof(*tl));
	if (!ev || !tl) {
		free(ev);
		free(tl);
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	ret = sim_load_results(results, ev, tl);
	if (!ret)
		ret = sim_emit(ev, tl, json, plot);
	sim_timeline_free(tl);
	sim_results_free(ev);
	free(ev);
	return ret;
}

/* ---- run: one workload file, reported by tools/lib/report.c ---- */

/* workload files "gputbs-sim run" takes, as "gputbs run" */
#define SIM_MAX_FILES		64

/**
 * struct sim_cmd_wl - one workload of one of the files
 * @set: its file.
 * @wl: the workload.
 */
struct sim_cmd_wl {
	const struct wl_set *set;
	const struct wl_workload *wl;
};

/**
 * struct sim_cmd_run - state of "gputbs-sim run"
 * @cfg: the device.
 * @seed_mix: from --seed.
 * @policies: --policy, in order.
 * @nr_policies: entries of @policies.
 * @names: their names, for &struct report.
 * @sets: the workload files, in the order given.
 * @nr_sets: entries of @sets.
 * @list: every workload of @sets, file after file.
 * @nr_list: entries of @list.
 * @alone: per program used by a workload (by name, over all files), its
 *	alone execution.
 * @alone_grids: per entry of @alone, per grid, its alone runtime.
 * @nr_alone: entries of @alone.
 * @wls: per policy, per workload of @list, its execution.
 * @outs: what the simulator recorded, same order as @wls.
 * @modes: --predictor and --share-mode.
 * @preset: the device preset of @cfg (--device NAME, default gtx480).
 * @record: --trace: record every block.
 * @scenario: eval --scenario: every workload needs a run with requests,
 *	and the output is report_scenarios()'s.
 * @files: eval --scenario: the workload files, allocated.
 * @nr_files: entries of @files.
 * @nr_windows: entries of @windows and @window_cycles.
 * @windows: --share-window, as given.
 * @window_cycles: @windows in cycles at the device's clock.
 * @load_ppm: --load, ppm; 0 without.
 * @duration: --duration: how long the open-loop streams run at the load;
 *	0: each for the span its file gives it.
 * @scaled: with @load_ppm, per workload of @list, its copy at the load
 *	(@list's wl points at it).
 * @load_alone: with @load_ppm, per workload of @list, per run, the load's
 *	unit that scaled it (sim_cmd_load_unit()).
 * @jobs: --jobs: threads for the runs of @wls (sim_cmd_workloads()).
 */
struct sim_cmd_run {
	struct gtbs_dev_config cfg;
	const char *preset;
	struct sim_modes modes;
	u64 seed_mix;
	const struct gtbs_policy_ops *policies[SIM_MAX_POLICIES];
	unsigned int nr_policies;
	const char *names[SIM_MAX_POLICIES];
	struct wl_set *sets[SIM_MAX_FILES];
	unsigned int nr_sets;
	struct sim_cmd_wl *list;
	unsigned int nr_list;
	struct prog_result alone[RUN_MAX_PROGRAMS];
	u64 *alone_grids[RUN_MAX_PROGRAMS];
	unsigned int nr_alone;
	struct workload_result *wls;
	struct sim_out *outs;
	bool record;
	bool scenario;
	char *files[SIM_MAX_FILES];
	unsigned int nr_files;
	unsigned int nr_windows;
	struct wl_time windows[SIM_MAX_SHARE_WINDOWS];
	u64 window_cycles[SIM_MAX_SHARE_WINDOWS];
	u32 load_ppm;
	struct wl_time duration;
	struct wl_workload *scaled;
	u64 (*load_alone)[WL_MAX_RUNS];
	unsigned int jobs;
};

_Static_assert(SIM_MAX_SHARE_WINDOWS == RUN_MAX_SHARE_WINDOWS,
	       "--share-window lengths differ between sim.h and run.h");

/* A simulated grid as the WAIT result "gputbs run" reports. */
static void sim_wait(const struct sim_grid_out *g, const struct wl_grid *wg,
		     struct gputbs_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->submit_cycle = g->submit_cycle;
	w->start_cycle = g->start_cycle;
	w->end_cycle = g->end_cycle;
	w->blocks_done = wg->nr_blocks;
	w->residency = g->residency;
}

static int sim_run_error(int ret, const char *what, const char *why)
{
	sim_err("%s: %s", what, why);
	return ret == -ENOMEM ? SIM_EXIT_SYSTEM : SIM_EXIT_USAGE;
}

/*
 * The alone slot of program @prog run with cap @max_ppm (``max=``: a
 * capped run alone is capped too; 0 for none): programs are identified by
 * name, and one defined in several files must be defined the same way in
 * all of them (as "gputbs run").  The index, -1 if it has none yet, or -2
 * after a message.
 */
static int sim_cmd_alone_of(const struct sim_cmd_run *c,
			    const struct wl_program *prog, u32 max_ppm)
{
	unsigned int k;

	for (k = 0; k < c->nr_alone; k++) {
		const struct wl_program *q = c->alone[k].prog;

		if (strcmp(q->name, prog->name))
			continue;
		if (q != prog && !wl_program_equal(q, prog)) {
			sim_err("%s:%u: program '%s' differs from its definition at %s:%u",
				prog->loc.file, prog->loc.line, prog->name,
				q->loc.file, q->loc.line);
			return -2;
		}
		if (c->alone[k].max_ppm == max_ppm)
			return k;
	}
	return -1;
}

/* Every program used by a workload, alone, under the first policy. */
static int sim_cmd_alone(struct sim_cmd_run *c)
{
	unsigned int w, r, k;
	struct sim_out out;
	struct sim_job job;
	const char *why;
	int ret;

	for (w = 0; w < c->nr_list; w++) {
		const struct wl_set *set = c->list[w].set;
		const struct wl_workload *wl = c->list[w].wl;

		for (r = 0; r < wl->nr_runs; r++) {
			const struct wl_run *run = &wl->runs[r];
			const struct wl_program *prog =
				set->programs[run->program];
			struct prog_result *a;
			int i = sim_cmd_alone_of(c, prog, run->max_ppm);

			if (i == -2)
				return SIM_EXIT_USAGE;
			if (i >= 0)
				continue;
			if (c->nr_alone == RUN_MAX_PROGRAMS) {
				sim_err("more than %d programs", RUN_MAX_PROGRAMS);
				return SIM_EXIT_USAGE;
			}
			memset(&job, 0, sizeof(job));
			job.cfg = &c->cfg;
			job.policy = c->policies[0];
			job.nr_runs = 1;
			job.progs[0] = prog;
			job.seed_mix = c->seed_mix;
			job.modes = &c->modes;
			/* its tenant's weight and cap: a cap holds alone too */
			job.weight[0] = run->weight;
			job.max_ppm[0] = run->max_ppm;
			ret = sim_run(&job, &out, &why);
			if (ret) {
				sim_out_free(&out);
				return sim_run_error(ret, prog->name, why);
			}
			a = &c->alone[c->nr_alone];
			c->alone_grids[c->nr_alone] = calloc(prog->nr_grids,
							     sizeof(u64));
			if (!c->alone_grids[c->nr_alone] ||
			    prog_result_alloc(a, prog, 1, false)) {
				sim_out_free(&out);
				return sim_run_error(-ENOMEM, prog->name,
						     "out of memory");
			}
			a->arrive[0] = out.progs[0].arrive[0];
			a->stream_order = true;
			for (k = 0; k < prog->nr_grids; k++) {
				const struct sim_grid_out *g =
					&out.progs[0].grids[k];

				sim_wait(g, &prog->grids[k], &a->grids[k]);
				c->alone_grids[c->nr_alone][k] =
					g->end_cycle - g->submit_cycle;
			}
			a->runtime = out.progs[0].turnaround;
			a->has_share = true;
			a->weight = run->weight;
			a->max_ppm = run->max_ppm;
			a->sm_share = out.progs[0].sm_share;
			c->nr_alone++;
			sim_out_free(&out);
		}
	}
	return 0;
}

/*
 * The load's unit for run @run of @prog under fifo on a fresh device, with
 * its tenant's weight and cap, as gputbs-sim sweep measures it: for an
 * open loop its alone service interval (all its requests at once,
 * wl_run_saturating(): the time from the first arrival to the last end
 * over its requests), else the latency of one request.  0 or an exit
 * status after a message.
 */
static int sim_cmd_load_unit(struct sim_cmd_run *c,
			     const struct wl_program *prog,
			     const struct wl_run *run, u64 *alone)
{
	struct sim_out out;
	struct sim_job job;
	const char *why;
	int ret;

	memset(&job, 0, sizeof(job));
	job.cfg = &c->cfg;
	job.policy = &gtbs_policy_fifo;
	job.nr_runs = 1;
	job.progs[0] = prog;
	job.seed_mix = c->seed_mix;
	job.modes = &c->modes;
	job.weight[0] = run->weight;
	job.max_ppm[0] = run->max_ppm;
	if (wl_run_open(run)) {
		ret = sim_service_interval(&job, run, alone, &why);
		return ret ? sim_run_error(ret, prog->name, why) : 0;
	}
	ret = sim_run(&job, &out, &why);
	if (ret) {
		sim_out_free(&out);
		return sim_run_error(ret, prog->name, why);
	}
	*alone = out.progs[0].turnaround ? out.progs[0].turnaround : 1;
	sim_out_free(&out);
	return 0;
}

/*
 * --load: every workload of @c->list with its request streams at the load
 * (wl_workload_at_load(), each open loop for the span its file gives it),
 * in the load's unit of gputbs-sim sweep (sim_cmd_load_unit(): under fifo
 * whatever the policies), so that the scaled workload is the same under
 * every policy, the same as the sweep's point at that load and the same
 * as gputbs run --load makes of it on the module.
 */
static int sim_cmd_at_load(struct sim_cmd_run *c)
{
	unsigned int w, r;
	int ret;

	c->scaled = calloc(c->nr_list, sizeof(*c->scaled));
	c->load_alone = calloc(c->nr_list, sizeof(*c->load_alone));
	if (!c->scaled || !c->load_alone)
		return sim_run_error(-ENOMEM, "--load", "out of memory");
	for (w = 0; w < c->nr_list; w++) {
		const struct wl_set *set = c->list[w].set;
		const struct wl_workload *wl = c->list[w].wl;

		for (r = 0; r < wl->nr_runs; r++) {
			ret = sim_cmd_load_unit(c,
						set->programs[wl->runs[r].program],
						&wl->runs[r],
						&c->load_alone[w][r]);
			if (ret)
				return ret;
		}
		if (wl_workload_at_load(wl, c->load_alone[w], c->load_ppm,
					wl_time_cycles(&c->duration,
						       c->cfg.clock_khz),
					c->cfg.clock_khz, &c->scaled[w]))
			return sim_run_error(-EINVAL, wl->name,
					     "--load: an alone latency of zero cycles");
		c->list[w].wl = &c->scaled[w];
	}
	return 0;
}

/*
 * Item @n of the runs (par_fn): workload @n % c->nr_list under policy
 * @n / c->nr_list into c->wls[@n] and c->outs[@n], reading only what the
 * alone and load runs left in @c; 0 or a negative errno with @why.
 */
static int sim_cmd_workload(void *arg, size_t n, const char **why)
{
	struct sim_cmd_run *c = arg;
	unsigned int p = n / c->nr_list, w = n % c->nr_list;
	const struct wl_set *set = c->list[w].set;
	const struct wl_workload *wl = c->list[w].wl;
	struct workload_result *res = &c->wls[n];
	struct sim_out *out = &c->outs[n];
	struct sim_job job;
	unsigned int r, k;
	u64 first;
	int ret;

	res->set = set;
	res->wl = wl;
	res->load_ppm = c->load_ppm;
	if (c->load_ppm)
		memcpy(res->load_alone, c->load_alone[w],
		       sizeof(res->load_alone));
	first = c->alone[sim_cmd_alone_of(c, set->programs[wl->runs[0].program],
					  wl->runs[0].max_ppm)].runtime;
	memset(&job, 0, sizeof(job));
	job.cfg = &c->cfg;
	job.policy = c->policies[p];
	job.nr_runs = wl->nr_runs;
	job.seed_mix = c->seed_mix;
	job.record = c->record;
	job.modes = &c->modes;
	job.nr_windows = c->nr_windows;
	memcpy(job.window_cycles, c->window_cycles,
	       sizeof(job.window_cycles));
	for (r = 0; r < wl->nr_runs; r++) {
		const struct wl_run *run = &wl->runs[r];

		res->alone[r] = sim_cmd_alone_of(c,
						 set->programs[run->program],
						 run->max_ppm);
		res->at_cycles[r] = run->at_pct ?
			mul_u64_u64_div_u64(first, run->at, 1000000) :
			run->at;
		res->alone_cycles[r] = c->alone[res->alone[r]].runtime;
		job.progs[r] = set->programs[run->program];
		job.arrive[r] = res->at_cycles[r];
		job.runs[r] = run;
		job.tenant[r] = run->tenant_id + 1;
		job.weight[r] = run->weight;
		job.max_ppm[r] = run->max_ppm;
		if (sim_policy_keyed(job.policy))
			job.oracle[r] = c->alone_grids[res->alone[r]];
	}
	ret = sim_run(&job, out, why);
	if (ret)
		return ret;
	for (r = 0; r < wl->nr_runs; r++) {
		struct prog_result *pr = &res->runs[r];
		const struct sim_prog_out *po = &out->progs[r];
		unsigned int g = job.progs[r]->nr_grids;

		if (prog_result_alloc(pr, job.progs[r], po->nr_requests, false))
			goto oom;
		for (k = 0; k < po->nr_grids; k++)
			sim_wait(&po->grids[k], &pr->prog->grids[k % g],
				 &pr->grids[k]);
		memcpy(pr->arrive, po->arrive,
		       po->nr_requests * sizeof(*pr->arrive));
		pr->stream_order = true;
		if (prog_result_run_stats(pr, &wl->runs[r], c->cfg.clock_khz))
			goto oom;
		pr->runtime = po->turnaround;
		pr->has_share = true;
		pr->weight = wl->runs[r].weight;
		pr->max_ppm = wl->runs[r].max_ppm;
		pr->sm_share = po->sm_share;
		pr->nr_windows = job.nr_windows;
		for (k = 0; k < job.nr_windows; k++) {
			pr->window_cycles[k] = job.window_cycles[k];
			pr->nr_win[k] = out->nr_win[k];
			pr->win_share[k] = po->win_share[k];
		}
		res->shared_cycles[r] = pr->runtime;
	}
	res->share_from = out->share_from;
	res->share_to = out->share_to;
	if (gtbs_metrics_calc(res->alone_cycles, res->shared_cycles,
			      wl->nr_runs, &res->metrics)) {
		*why = "a runtime is zero cycles";
		return -EINVAL;
	}
	return 0;
oom:
	*why = "out of memory";
	return -ENOMEM;
}

/*
 * Every workload under every policy, on @c->jobs threads (the runs are
 * independent once the alone and load runs are done): the results, and
 * the first error, the same whatever @c->jobs.  0 or an exit status
 * after a message.
 */
static int sim_cmd_workloads(struct sim_cmd_run *c)
{
	const char *why = NULL;
	size_t n = 0;
	int ret;

	ret = par_for((size_t)c->nr_policies * c->nr_list, c->jobs,
		      sim_cmd_workload, NULL, c, &n, &why);
	return ret ? sim_run_error(ret, c->list[n % c->nr_list].wl->name,
				   why) : 0;
}

/* A grid label as the trace format allows it: no , ' " \ (nor spaces). */
static void sim_trace_label(char *dst, const char *label)
{
	size_t i;

	for (i = 0; label[i] && i < GPUTBS_LABEL_LEN - 1; i++)
		dst[i] = strchr(",'\"\\ ", label[i]) ? '_' : label[i];
	dst[i] = '\0';
}

/*
 * The block trace of workload 0 under policy 0 (trace-format.rst): a
 * grid line per grid, IDs from 0 in the order of the runs and of their
 * grids, each followed by its blocks in block-end order.
 */
static int sim_write_trace(const struct sim_cmd_run *c, const char *path)
{
	const struct workload_result *res = &c->wls[0];
	const struct sim_out *out = &c->outs[0];
	char label[GPUTBS_LABEL_LEN];
	unsigned int r, k, id = 0;
	size_t b;
	FILE *f;

	f = fopen(path, "we");
	if (!f) {
		sim_err("--trace: %s: %s", path, strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	fprintf(f, "# gputbs-sim run --trace: workload %s (%s), policy %s\n",
		res->wl->name, res->set->path, c->names[0]);
	fprintf(f, "# %u SMs, virtual time; cycles are absolute simulated cycles\n",
		c->cfg.nr_sms);
	fprintf(f, "# replay: gputbs predict --sms %u --predictor %s --trace FILE\n",
		c->cfg.nr_sms, gtbs_pred_mode_name(c->modes.pred_mode));
	for (r = 0; r < res->wl->nr_runs; r++) {
		const struct wl_program *prog = res->runs[r].prog;

		for (k = 0; k < out->progs[r].nr_grids; k++, id++) {
			const struct wl_grid *g = &prog->grids[k % prog->nr_grids];

			sim_trace_label(label, g->label);
			if (out->progs[r].nr_requests > 1)
				fprintf(f, "# run %u: program %s, request %u, grid %u\n",
					r, prog->name, k / prog->nr_grids,
					k % prog->nr_grids);
			else
				fprintf(f, "# run %u: program %s, grid %u\n",
					r, prog->name, k);
			fprintf(f, "grid %u blocks=%u residency=%u label=%s\n",
				id, g->nr_blocks,
				out->progs[r].grids[k].residency, label);
			for (b = 0; b < out->nr_blocks; b++) {
				const struct sim_block *sb = &out->blocks[b];

				if (sb->run != r || sb->grid != k)
					continue;
				fprintf(f, "block %u %u %u %" PRIu64 " %" PRIu64
					"\n", id, sb->sm, sb->slot,
					(uint64_t)sb->start,
					(uint64_t)sb->end);
			}
		}
	}
	if (fclose(f)) {
		sim_err("--trace: %s: %s", path, strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	if (out->end_cycle > GTBS_MAX_BLOCK_CYCLES)
		sim_err("--trace: %s: cycles beyond 2^40, more than gputbs predict accepts",
			path);
	return 0;
}

/* getopt value of run's --plot (no short form) */
#define SIM_OPT_RUN_PLOT	300
/* eval --scenario, and the sweep's options it does not take */
#define SIM_OPT_SCENARIO	301
#define SIM_OPT_SWEEP_ONLY	302
/* run --share-window (no short form) */
#define SIM_OPT_SHARE_WINDOW	303
/* gputbs-sim run --load */
#define SIM_OPT_LOAD		320
#define SIM_OPT_RUN_DURATION	321
/* what --scenario all means */
#define SIM_SCENARIO_DIR	"workloads/scenarios"
/* the programs the scenarios include, not a scenario */
#define SIM_SCENARIO_MODELS	"models.gtbs"

/*
 * run --share-window TIME[,TIME...]: each TIME emulated cycles (a plain
 * integer, 1..2^40) or an integer with a unit ns, us, ms or s (1 ns..2^40
 * ns), as a workload file's TIME; at most SIM_MAX_SHARE_WINDOWS in all.
 */
static int sim_parse_windows(sim_help_fn *help, const char *arg,
			     struct sim_cmd_run *c)
{
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		int ret;

		if (c->nr_windows == SIM_MAX_SHARE_WINDOWS)
			return sim_usage_error(help, "--share-window: more than %d lengths",
					       SIM_MAX_SHARE_WINDOWS);
		ret = sim_parse_time(p, len, &c->windows[c->nr_windows]);
		if (ret == -ERANGE)
			return sim_usage_error(help, "--share-window: '%.*s' out of range (1..2^40 cycles or ns)",
					       (int)len, p);
		if (ret == -EDOM) {
			size_t digits = strspn(p, "0123456789");

			return sim_usage_error(help, "--share-window: unknown unit '%.*s' (ns, us, ms or s; no unit: cycles)",
					       (int)(len - digits), p + digits);
		}
		if (ret)
			return sim_usage_error(help, "--share-window: bad time '%.*s' (cycles, or an integer with ns, us, ms or s)",
					       (int)len, p);
		c->nr_windows++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/*
 * eval --scenario: a workload file must define workloads, and each of
 * them a run with requests (requests= above 1 or slo=).
 */
static int sim_scenario_check(const struct wl_set *set)
{
	unsigned int w, r;

	if (!set->nr_workloads) {
		sim_err("%s: no workload in the file (--scenario runs workloads; a file of programs only is included by them)",
			set->path);
		return SIM_EXIT_USAGE;
	}
	for (w = 0; w < set->nr_workloads; w++) {
		const struct wl_workload *wl = set->workloads[w];

		for (r = 0; r < wl->nr_runs; r++)
			if (wl->runs[r].requests > 1 ||
			    wl_run_has_slo(&wl->runs[r]))
				break;
		if (r == wl->nr_runs) {
			sim_err("%s:%u: workload %s has no run with requests (requests= above 1 or slo=), nothing for --scenario to measure; 'gputbs-sim run' reports it",
				wl->loc.file ? wl->loc.file : set->path,
				wl->loc.line, wl->name);
			return SIM_EXIT_USAGE;
		}
	}
	return 0;
}

static int sim_scenario_cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * eval --scenario ARG: ARG a file, a directory (its *.gtbs but
 * models.gtbs, by name) or "all" (SIM_SCENARIO_DIR) into c->files.
 */
static int sim_scenario_add(struct sim_cmd_run *c, const char *arg)
{
	const char *dir = strcmp(arg, "all") ? arg : SIM_SCENARIO_DIR;
	unsigned int first = c->nr_files;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (!*arg)
		return sim_usage_error(sim_eval_help, "%s",
				       "--scenario: empty file name");
	if (stat(dir, &st)) {
		sim_err("--scenario %s: %s: %s%s", arg, dir, strerror(errno),
			dir == arg ? "" :
			" (all is the source tree's; run from its top or give the directory)");
		return SIM_EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (c->nr_files == SIM_MAX_FILES)
			return sim_usage_error(sim_eval_help, "more than %d workload files",
					       SIM_MAX_FILES);
		c->files[c->nr_files] = strdup(arg);
		if (!c->files[c->nr_files]) {
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		c->nr_files++;
		return 0;
	}
	d = opendir(dir);
	if (!d) {
		sim_err("--scenario %s: %s: %s", arg, dir, strerror(errno));
		return SIM_EXIT_USAGE;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 5 || strcmp(de->d_name + len - 5, ".gtbs") ||
		    !strcmp(de->d_name, SIM_SCENARIO_MODELS))
			continue;
		if (c->nr_files == SIM_MAX_FILES) {
			closedir(d);
			return sim_usage_error(sim_eval_help, "more than %d workload files",
					       SIM_MAX_FILES);
		}
		c->files[c->nr_files] = malloc(strlen(dir) + len + 2);
		if (c->files[c->nr_files])
			sprintf(c->files[c->nr_files], "%s%s%s", dir,
				dir[strlen(dir) - 1] == '/' ? "" : "/",
				de->d_name);
		else {
			closedir(d);
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		c->nr_files++;
	}
	closedir(d);
	if (c->nr_files == first) {
		sim_err("--scenario %s: no workload file (*.gtbs but %s) in %s",
			arg, SIM_SCENARIO_MODELS, dir);
		return SIM_EXIT_USAGE;
	}
	qsort(c->files + first, c->nr_files - first, sizeof(*c->files),
	      sim_scenario_cmp);
	return 0;
}

static int sim_cmd_execute(struct sim_cmd_run *c, char **files,
			   unsigned int nr_files, bool json, const char *trace,
			   const char *plot)
{
	struct gputbs_info info;
	struct report rep;
	char errbuf[WL_ERR_LEN];
	size_t n;
	unsigned int p, w;
	int ret;

	for (w = 0; w < nr_files; w++) {
		struct wl_set *set;

		if (wl_parse_file(files[w], 0, &set, errbuf, sizeof(errbuf))) {
			wl_errors(errbuf, sim_err_line);
			return SIM_EXIT_USAGE;
		}
		c->sets[c->nr_sets++] = set;
		if (c->scenario) {
			ret = sim_scenario_check(set);
			if (ret)
				return ret;
		}
		n = c->nr_list + set->nr_workloads;
		c->list = realloc(c->list, n * sizeof(*c->list));
		if (!c->list) {
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		for (p = 0; p < set->nr_workloads; p++)
			c->list[c->nr_list++] = (struct sim_cmd_wl) {
				set, set->workloads[p]
			};
	}
	if (trace && (c->nr_list != 1 || c->nr_policies != 1)) {
		sim_err("--trace records one workload under one policy, not %u workload%s under %u polic%s",
			c->nr_list, c->nr_list == 1 ? "" : "s",
			c->nr_policies, c->nr_policies == 1 ? "y" : "ies");
		return SIM_EXIT_USAGE;
	}
	for (p = 0; p < c->nr_policies; p++)
		c->names[p] = c->policies[p]->name;
	c->record = trace != NULL;
	n = (size_t)c->nr_policies * c->nr_list;
	c->wls = calloc(n, sizeof(*c->wls));
	c->outs = calloc(n, sizeof(*c->outs));
	if (!c->wls || !c->outs) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	ret = sim_cmd_alone(c);
	if (!ret && c->load_ppm)
		ret = sim_cmd_at_load(c);
	if (!ret)
		ret = sim_cmd_workloads(c);
	if (ret)
		return ret;
	if (trace) {
		ret = sim_write_trace(c, trace);
		if (ret)
			return ret;
	}
	memset(&info, 0, sizeof(info));
	info.nr_sms = c->cfg.nr_sms;
	info.warp_size = c->cfg.warp_size;
	info.max_threads_per_sm = c->cfg.max_threads_per_sm;
	info.max_regs_per_sm = c->cfg.max_regs_per_sm;
	info.max_shmem_per_sm = c->cfg.max_shmem_per_sm;
	info.max_blocks_per_sm = c->cfg.max_blocks_per_sm;
	info.max_warps_per_sm = c->cfg.max_warps_per_sm;
	info.max_threads_per_block = c->cfg.max_threads_per_block;
	info.max_regs_per_thread = c->cfg.max_regs_per_thread;
	info.reg_alloc_unit = c->cfg.reg_alloc_unit;
	info.shmem_alloc_unit = c->cfg.shmem_alloc_unit;
	info.max_blocks_per_grid = c->cfg.max_blocks_per_grid;
	info.clock_khz = c->cfg.clock_khz;
	info.load_knee_warps = c->cfg.load_knee_warps;
	rep = (struct report) {
		.format = json ? REPORT_JSON : REPORT_TEXT,
		.device = "gputbs-sim",
		.policy = c->names[0],
		.policies = c->names,
		.nr_policies = c->nr_policies,
		.info = &info,
		.preset = c->preset,
		.alone = c->alone,
		.nr_alone = c->nr_alone,
		.wls = c->wls,
		.nr_wls = c->nr_list,
	};
	if (c->scenario)
		report_scenarios(stdout, &rep);
	else
		report_run(stdout, &rep);
	if (fflush(stdout) || ferror(stdout)) {
		sim_err("standard output: %s", strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	if (plot)
		return sim_plot_requests(plot, c->wls, c->nr_list,
					 c->names, c->nr_policies,
					 c->cfg.clock_khz);
	return 0;
}

/*
 * gputbs-sim run, and (@scenario) gputbs-sim eval --scenario: the same
 * runs, the scenario's summary printed instead of the run's report.
 */
static int sim_run_main(int argc, char **argv, bool scenario)
{
	static const struct option scn_opts[] = {
		{ "scenario", required_argument, NULL, SIM_OPT_SCENARIO },
		{ "policies", required_argument, NULL, 'P' },
		{ "format", required_argument, NULL, 'f' },
		{ "sms", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 'd' },
		{ "preset", required_argument, NULL, SIM_OPT_PRESET },
		{ "seed", required_argument, NULL, 'S' },
		{ "timing-model", required_argument, NULL, 'M' },
		{ "block-times", required_argument, NULL, SIM_OPT_BLOCK_TIMES },
		{ "predictor", required_argument, NULL, 'r' },
		{ "share-mode", required_argument, NULL, 'm' },
		{ "policy-plugin", required_argument, NULL, SIM_OPT_PLUGIN },
		{ "param", required_argument, NULL, SIM_OPT_PARAM },
		{ "preempt", required_argument, NULL, SIM_OPT_PREEMPT },
		{ "switch-bw", required_argument, NULL, SIM_OPT_SWITCH_BW },
		{ "idempotent", no_argument, NULL, SIM_OPT_IDEMPOTENT },
		{ "cap-period", required_argument, NULL, SIM_OPT_CAP_PERIOD },
		{ "workloads", required_argument, NULL, SIM_OPT_SWEEP_ONLY },
		{ "offsets", required_argument, NULL, SIM_OPT_SWEEP_ONLY },
		{ "jobs", required_argument, NULL, 'j' },
		{ "sjf-key", required_argument, NULL, SIM_OPT_SWEEP_ONLY },
		{ "plot", required_argument, NULL, SIM_OPT_SWEEP_ONLY },
		{ "timeline", required_argument, NULL, SIM_OPT_SWEEP_ONLY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'P' },
		{ "format", required_argument, NULL, 'f' },
		{ "sms", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 'd' },
		{ "preset", required_argument, NULL, SIM_OPT_PRESET },
		{ "seed", required_argument, NULL, 'S' },
		{ "trace", required_argument, NULL, 'T' },
		{ "plot", required_argument, NULL, SIM_OPT_RUN_PLOT },
		{ "timing-model", required_argument, NULL, 'M' },
		{ "block-times", required_argument, NULL, SIM_OPT_BLOCK_TIMES },
		{ "predictor", required_argument, NULL, 'r' },
		{ "share-mode", required_argument, NULL, 'm' },
		{ "policy-plugin", required_argument, NULL, SIM_OPT_PLUGIN },
		{ "param", required_argument, NULL, SIM_OPT_PARAM },
		{ "preempt", required_argument, NULL, SIM_OPT_PREEMPT },
		{ "switch-bw", required_argument, NULL, SIM_OPT_SWITCH_BW },
		{ "idempotent", no_argument, NULL, SIM_OPT_IDEMPOTENT },
		{ "cap-period", required_argument, NULL, SIM_OPT_CAP_PERIOD },
		{ "share-window", required_argument, NULL,
		  SIM_OPT_SHARE_WINDOW },
		{ "load", required_argument, NULL, SIM_OPT_LOAD },
		{ "duration", required_argument, NULL, SIM_OPT_RUN_DURATION },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *trace = NULL, *policies = NULL, *plot = NULL;
	const char *plugins[SIM_MAX_PLUGINS];
	const struct gtbs_dev_preset *preset = NULL;
	bool sms_given = false, timing_given = false;
	unsigned int nr_plugins = 0;
	struct sim_cmd_run *c;
	sim_help_fn *help = scenario ? sim_eval_help : sim_run_help;
	bool json = false;
	unsigned int i;
	int opt, ret = 0, li;
	u64 seed = 0;

	c = calloc(1, sizeof(*c));
	if (!c) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	gtbs_config_default(&c->cfg);
	sim_modes_default(&c->modes);
	c->policies[0] = &gtbs_policy_fifo;
	c->nr_policies = 1;
	c->jobs = sim_jobs_default();
	c->scenario = scenario;
	if (scenario)
		preset = gtbs_config_preset("h100");
	while (!ret && (opt = getopt_long(argc, argv, scenario ?
					  "P:f:s:d:S:M:r:m:j:h" :
					  "P:f:s:d:S:T:M:r:m:j:h",
					  scenario ? scn_opts : opts,
					  &li)) != -1) {
		switch (opt) {
		case SIM_OPT_SCENARIO:
			ret = sim_scenario_add(c, optarg);
			break;
		case SIM_OPT_SWEEP_ONLY:
			ret = sim_usage_error(help, "--%s is an option of the pairwise sweep, not of --scenario",
					      scn_opts[li].name);
			break;
		case 'P':
			/* resolved once the plug-ins are loaded */
			policies = optarg;
			break;
		case SIM_OPT_PLUGIN:
			ret = sim_add_plugin(help, optarg, plugins,
					     &nr_plugins);
			break;
		case SIM_OPT_PARAM:
			ret = sim_parse_param(help, optarg, &c->modes);
			break;
		case SIM_OPT_PREEMPT:
		case SIM_OPT_SWITCH_BW:
		case SIM_OPT_CAP_PERIOD:
			ret = sim_parse_preempt(help, opt, optarg,
						&c->modes);
			break;
		case SIM_OPT_IDEMPOTENT:
			c->modes.idempotent = true;
			break;
		case 'f':
			ret = sim_parse_format(help, optarg, &json);
			break;
		case 's':
			ret = sim_parse_sms(help, optarg, &c->cfg);
			sms_given = true;
			break;
		case 'd':
		case SIM_OPT_PRESET:
			ret = sim_parse_preset(help, optarg, &preset);
			break;
		case 'M':
			ret = sim_parse_timing(help, optarg, &c->cfg);
			timing_given = true;
			break;
		case SIM_OPT_BLOCK_TIMES:
			ret = sim_parse_block_times(help, optarg, &c->cfg);
			break;
		case 'S':
			ret = sim_parse_seed(help, optarg, &seed);
			break;
		case 'j':
			ret = sim_parse_jobs(help, optarg, &c->jobs);
			break;
		case 'T':
			if (!*optarg)
				ret = sim_usage_error(help, "%s",
						      "--trace: empty file name");
			trace = optarg;
			break;
		case SIM_OPT_SHARE_WINDOW:
			ret = sim_parse_windows(help, optarg, c);
			break;
		case SIM_OPT_LOAD:
			if (wl_parse_load(optarg, &c->load_ppm))
				ret = sim_usage_error(help, "bad load '%s' (a decimal number of 0.000001..100, at most 6 decimals)",
						      optarg);
			break;
		case SIM_OPT_RUN_DURATION:
			if (sim_parse_time(optarg, strlen(optarg),
					   &c->duration))
				ret = sim_usage_error(help, "--duration: '%s' is not a time (1..2^40 cycles, or ns, us, ms or s)",
						      optarg);
			break;
		case SIM_OPT_RUN_PLOT:
			if (!*optarg)
				ret = sim_usage_error(help, "%s",
						      "--plot: empty directory name");
			plot = optarg;
			break;
		case 'r':
			ret = sim_parse_pred_mode(help, optarg,
						  &c->modes);
			break;
		case 'm':
			ret = sim_parse_share_mode(help, optarg,
						   &c->modes);
			break;
		case 'h':
			help(stdout);
			ret = -1;
			break;
		default:
			help(stderr);
			ret = SIM_EXIT_USAGE;
		}
	}
	sim_apply_preset(&c->cfg, preset, sms_given, timing_given);
	c->preset = preset ? preset->name : "gtx480";
	for (i = 0; !ret && i < c->nr_windows; i++) {
		c->window_cycles[i] = wl_time_cycles(&c->windows[i],
						     c->cfg.clock_khz);
		if (!c->window_cycles[i])
			ret = sim_usage_error(help, "--share-window: %llu ns is less than a cycle at %u kHz",
					      (unsigned long long)c->windows[i].value,
					      c->cfg.clock_khz);
	}
	for (i = optind; scenario && !ret && i < (unsigned int)argc; i++)
		ret = sim_scenario_add(c, argv[i]);
	if (!ret && c->duration.value && !c->load_ppm)
		ret = sim_usage_error(help, "%s", "--duration needs --load");
	if (!ret && (scenario ? !c->nr_files : optind == argc))
		ret = sim_usage_error(help, "%s", "no workload file given");
	if (!ret && argc - optind > SIM_MAX_FILES)
		ret = sim_usage_error(help, "more than %d workload files",
				      SIM_MAX_FILES);
	if (!ret)
		ret = sim_load_plugins(plugins, nr_plugins);
	if (!ret && policies)
		ret = sim_parse_policies(help, scenario ? "--policies" :
					 "--policy", policies,
					 c->policies, &c->nr_policies);
	else if (!ret && scenario)
		ret = sim_all_policies(help, c->policies, &c->nr_policies);
	if (!ret)
		ret = sim_check_params(help, &c->modes);
	if (!ret) {
		c->seed_mix = sim_seed_mix(seed);
		ret = scenario ?
		      sim_cmd_execute(c, c->files, c->nr_files, json, NULL,
				      NULL) :
		      sim_cmd_execute(c, argv + optind, argc - optind, json,
				      trace, plot);
	}
	for (i = 0; c->outs && c->wls &&
	     i < c->nr_policies * c->nr_list; i++) {
		unsigned int r;

		sim_out_free(&c->outs[i]);
		for (r = 0; r < WL_MAX_RUNS; r++)
			prog_result_free(&c->wls[i].runs[r]);
	}
	for (i = 0; i < RUN_MAX_PROGRAMS; i++) {
		free(c->alone_grids[i]);
		prog_result_free(&c->alone[i]);
	}
	free(c->outs);
	free(c->wls);
	free(c->list);
	free(c->scaled);
	free(c->load_alone);
	for (i = 0; i < c->nr_sets; i++)
		wl_free(c->sets[i]);
	for (i = 0; i < c->nr_files; i++)
		free(c->files[i]);
	free(c);
	return ret < 0 ? 0 : ret;
}

static int cmd_run(int argc, char **argv)
{
	return sim_run_main(argc, argv, false);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "eval", cmd_eval },
		{ "run", cmd_run },
		{ "report", cmd_report },
		{ "blocks", cmd_blocks },
		{ "sweep", cmd_sweep },
		{ "devices", cmd_devices },
	};
	static char name[32];
	unsigned int i;

	if (gtbs_policy_register_builtins())
		return 1;
	if (argc < 2)
		return sim_usage_error(sim_main_help, "%s", "missing command");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("gputbs-sim " GPUTBS_VERSION);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			/* getopt_long() prefixes its messages with argv[0]. */
			snprintf(name, sizeof(name), "gputbs-sim %s",
				 cmds[i].name);
			argv[1] = name;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	return sim_usage_error(sim_main_help, "unknown command '%s'", argv[1]);
}
