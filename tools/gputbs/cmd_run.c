// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - the "run" and "calibrate" commands of the gputbs CLI.
 *
 * run: every program used by the workloads runs alone first (one after
 * another), which gives the alone runtimes; then each workload runs with
 * its programs as concurrent processes (run.c), and STP, ANTT and StrictF
 * come from the portable core's gtbs_metrics_calc().  With --policy, the
 * alone runs happen once, under the first policy (a program alone runs
 * the same under every policy: one grid at a time on an idle device), and
 * the workloads run once per policy, each after writing the policy to the
 * device's sysfs attribute; the previous policy is restored at the end,
 * also when the command fails or is killed by SIGINT, SIGTERM or SIGHUP.
 *
 * --trace FILE records the blocks of the grids of one workload run and
 * writes them in the block trace format of gputbs predict.
 *
 * --load L rescales every workload's request streams to load L with
 * wl_workload_at_load() after the alone runs, in the load's unit of
 * gputbs-sim sweep measured under fifo (run_at_load(): the device
 * switched to fifo for it and back where the first policy is another):
 * an open loop's alone service interval, all its requests at once
 * (wl_run_saturating(), which needs max_grids_per_fd of requests x grids
 * + 1), a closed loop's alone latency of one request (the alone run's
 * where it ran under fifo).  So the scaled workload is the same under
 * every policy and the same as gputbs-sim run --load's.
 *
 * With tenant keys in a workload (tenant=, weight=, max=), every tenant of
 * every workload execution is a cgroup v2 whose weight and cap are set on
 * the module before its runs submit, and every run's SM share is measured
 * from its block records (run_tenants.c); a program alone runs in a
 * cgroup of its own with its run's cap, as in gputbs-sim.  That needs
 * root and cgroup2 at /sys/fs/cgroup.
 *
 * calibrate: every program defined in the files runs alone and each grid's
 * runtime is compared with its expected runtime.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "../lib/input.h"
#include "gtbs.h"
#include "monitor_fmt.h"
#include "../lib/eval/args.h"

#define MAX_WORKLOAD_FILES	1024
#define DEFAULT_TOLERANCE_PPM	50000	/* 5% */
#define MAX_POLICIES		16
#define POLICY_NAME_LEN		32
#define POLICY_LIST_LEN		1024
#define POLICY_SYSFS		"/sys/class/misc/gputbs/policy"

static const char usage_run[] =
	"Usage: gputbs run [OPTIONS] WORKLOAD...\n"
	"\n"
	"Run each program of the workload files alone, then each workload\n"
	"with its programs as concurrent processes, and report per grid the\n"
	"alone and shared runtimes and the slowdown, per workload STP, ANTT\n"
	"and StrictF, and their geometric means over the workloads.\n"
	"Workload files are described in Documentation/workloads.rst.\n"
	"\n"
	"  -d, --device PATH     device node (default /dev/gputbs)\n"
	"  -f, --format FORMAT   text (default) or json\n"
	"  -l, --list FILE       also run the workload files listed in FILE,\n"
	"                        one per line, relative to FILE\n"
	"      --load LOAD       rescale each workload's request streams to\n"
	"                        LOAD (0.000001..100; 1: an open-loop stream\n"
	"                        alone keeps the device busy): rate= becomes\n"
	"                        LOAD / the program's alone latency under\n"
	"                        fifo, a closed loop's requests= covers the\n"
	"                        open-loop streams' span; the alone latencies\n"
	"                        are measured under fifo (switching the\n"
	"                        policy for them needs root)\n"
	"      --duration TIME   with --load: how long the open-loop streams\n"
	"                        run (cycles, or with ns, us, ms, s; default:\n"
	"                        each its file's requests at its file's rate)\n"
	"  -P, --policy LIST     run the workloads under each policy of the\n"
	"                        comma-separated LIST (e.g. fifo,srtf,sjf) and\n"
	"                        compare them; switches the device's policy\n"
	"                        (needs root) and restores it at the end\n"
	"  -T, --trace FILE      record every block of the workload's grids and\n"
	"                        write them as a trace for gputbs predict (one\n"
	"                        workload and one policy only)\n"
	"  -t, --timeout SEC     fail if a grid takes longer than SEC seconds\n"
	"  -h, --help            this help\n";

static const char usage_calibrate[] =
	"Usage: gputbs calibrate [OPTIONS] FILE...\n"
	"\n"
	"Run every program defined in the files alone and compare each grid's\n"
	"runtime with its expect= value, or without one with the staircase\n"
	"model ceil(blocks / (SMs * R)) * t.  The last line reads\n"
	"\"calibration: N within P%, M outside\"; the exit status is 1 if a\n"
	"grid is outside the tolerance.\n"
	"\n"
	"  -d, --device PATH     device node (default /dev/gputbs)\n"
	"  -f, --format FORMAT   text (default) or json\n"
	"  -p, --tolerance PCT   largest accepted error, percent (default 5)\n"
	"  -t, --timeout SEC     fail if a grid takes longer than SEC seconds\n"
	"  -h, --help            this help\n";

/**
 * struct cmd - options and state of a run or calibrate command
 * @calibrate: the calibrate command.
 * @usage: its usage text.
 * @run: device and timeout.
 * @format: output format.
 * @tolerance_ppm: calibrate: largest accepted relative error.
 * @files: workload files, in order.
 * @owned: paths allocated by add_list(), to free.
 * @nr_files: entries of @files.
 * @sets: what each file defines.
 * @alone: one alone execution per distinct program.
 * @nr_alone: entries of @alone.
 * @policy_list: run: copy of the --policy argument, split in place.
 * @policies: run: the policies to compare (pointers into @policy_list),
 *	or after execute() starts, the current policy alone without
 *	--policy.
 * @nr_policies: entries of @policies; 0 without --policy until then.
 * @switching: run: --policy was given; the device's policy is switched.
 * @trace: run: --trace FILE, or NULL.
 * @wls: run: one execution per workload and policy, @nr_wls per policy.
 * @nr_wls: run: workloads (per policy).
 * @alone_weight: per alone execution, its tenant's weight (the first run
 *	of the program with its cap).
 * @alone_max: per alone execution, its tenant's cap: a program runs alone
 *	once per cap its runs give (0: none), as in gputbs-sim.
 * @tenant_run: run: the first run that gives a tenant key, or NULL: the
 *	workloads' tenants are applied (cgroups, tenant-set).
 * @cg: with @tenant_run, the tenants' cgroups.
 * @mon: with @tenant_run, the netlink family, for tenant-set.
 * @load_ppm: run: --load, ppm; 0 without.
 * @scaled: with @load_ppm, per workload, its copy at the load, which the
 *	executions of every policy run (&workload_result.wl).
 * @duration: run: --duration, how long the open-loop streams run at the
 *	load; 0: each for the span its file gives it.
 */
struct cmd {
	bool calibrate;
	const char *usage;
	struct run_opts run;
	enum report_format format;
	__u32 tolerance_ppm;
	const char *files[MAX_WORKLOAD_FILES];
	char *owned[MAX_WORKLOAD_FILES];
	unsigned int nr_files;
	struct wl_set *sets[MAX_WORKLOAD_FILES];
	struct prog_result *alone;
	unsigned int nr_alone;
	char *policy_list;
	const char *policies[MAX_POLICIES];
	unsigned int nr_policies;
	bool switching;
	const char *trace;
	struct workload_result *wls;
	unsigned int nr_wls;
	__u32 alone_weight[RUN_MAX_PROGRAMS];
	__u32 alone_max[RUN_MAX_PROGRAMS];
	const struct wl_run *tenant_run;
	struct run_cgroups *cg;
	struct gputbs_monitor *mon;
	__u32 load_ppm;
	struct wl_workload *scaled;
	struct wl_time duration;
};

#define OPT_LOAD	256	/* run --load, long only */
#define OPT_DURATION	257	/* run --duration, long only */

static int add_file(struct cmd *c, const char *path, char *owned)
{
	if (c->nr_files == MAX_WORKLOAD_FILES) {
		err_msg("more than %d workload files", MAX_WORKLOAD_FILES);
		free(owned);
		return EXIT_USAGE;
	}
	c->owned[c->nr_files] = owned;
	c->files[c->nr_files++] = path;
	return 0;
}

/* Add the files listed in @list, one per line, relative to @list. */
static int add_list(struct cmd *c, const char *list)
{
	const char *slash = strrchr(list, '/');
	char *s, *path;
	struct input in;
	int ret;

	ret = input_open(&in, list, 0);
	while (!ret && (ret = input_line(&in)) > 0) {
		ret = 0;
		s = in.line;
		s[strcspn(s, "#\r")] = '\0';
		s += strspn(s, " \t");
		s[strcspn(s, " \t")] = '\0';
		if (!*s)
			continue;
		if (*s == '/' || !slash)
			path = strdup(s);
		else if (asprintf(&path, "%.*s/%s", (int)(slash - list), list,
				  s) < 0)
			path = NULL;
		if (!path) {
			err_msg("%s:%u: out of memory", list, in.nr);
			ret = EXIT_DEVICE;
			break;
		}
		ret = add_file(c, path, path);
	}
	if (ret < 0) {	/* cannot open, not a regular file, a NUL byte */
		err_msg("%s", in.err);
		ret = ret == -ENOMEM ? EXIT_DEVICE : EXIT_USAGE;
	}
	input_close(&in);
	return ret;
}

/* Decimal number > 0 and <= @max, scaled by @unit. */
static int parse_scaled(const char *s, double max, double unit, __u64 *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > max)
		return -EINVAL;
	*out = (__u64)(v * unit + 0.5);
	return 0;
}

/*
 * Split the --policy LIST: 1..MAX_POLICIES names of lower-case letters,
 * digits, '_' and '-', separated by commas, none twice.
 */
static int parse_policies(struct cmd *c, const char *arg)
{
	static bool sjf_noted;
	char *s, *save = NULL;
	unsigned int i;
	size_t len;

	free(c->policy_list);
	c->nr_policies = 0;
	c->policy_list = strdup(arg);
	if (!c->policy_list)
		return -ENOMEM;
	len = strlen(arg);
	if (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
		return -EINVAL;
	for (s = strtok_r(c->policy_list, ",", &save); s;
	     s = strtok_r(NULL, ",", &save)) {
		if (strlen(s) >= POLICY_NAME_LEN ||
		    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
		    strlen(s) || c->nr_policies == MAX_POLICIES)
			return -EINVAL;
		for (i = 0; i < c->nr_policies; i++)
			if (!strcmp(c->policies[i], s))
				return -EINVAL;
		if (!strcmp(s, "sjf") && !sjf_noted) {
			/* the module's and gputbs-sim's note (SIM_SJF_NOTE) */
			fputs("note: sjf is now the paper's serial SJF (shortest grid alone first, one grid at a time); the former SJF oracle is srtf-oracle\n",
			      stderr);
			sjf_noted = true;
		}
		c->policies[c->nr_policies++] = s;
	}
	c->switching = true;
	return 0;
}

/* Returns 0, EXIT_USAGE, or -1 after printing the help. */
static int parse_args(struct cmd *c, int argc, char **argv)
{
	static const struct option run_opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "list", required_argument, NULL, 'l' },
		{ "load", required_argument, NULL, OPT_LOAD },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "policy", required_argument, NULL, 'P' },
		{ "trace", required_argument, NULL, 'T' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct option calibrate_opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "tolerance", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *opts = c->calibrate ? calibrate_opts : run_opts;
	const char *optstr = c->calibrate ? "d:f:p:t:h" : "d:f:l:P:T:t:h";
	__u64 tol;
	int opt, ret = 0;

	while (!ret && (opt = getopt_long(argc, argv, optstr, opts,
					  NULL)) != -1) {
		switch (opt) {
		case 'd':
			c->run.device = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &c->format))
				ret = usage_error(c->usage,
						  "unknown format '%s'",
						  optarg);
			break;
		case 'l':
			ret = add_list(c, optarg);
			break;
		case OPT_LOAD:
			if (wl_parse_load(optarg, &c->load_ppm))
				ret = usage_error(c->usage,
						  "bad load '%s' (a decimal number of 0.000001..100, at most 6 decimals)",
						  optarg);
			break;
		case OPT_DURATION:
			if (sim_parse_time(optarg, strlen(optarg),
					   &c->duration))
				ret = usage_error(c->usage,
						  "--duration: '%s' is not a time (1..2^40 cycles, or ns, us, ms or s)",
						  optarg);
			break;
		case 'P':
			if (parse_policies(c, optarg))
				ret = usage_error(c->usage,
						  "bad policy list '%s'",
						  optarg);
			break;
		case 'T':
			if (!*optarg)
				ret = usage_error(c->usage,
						  "bad trace file '%s'",
						  optarg);
			c->trace = optarg;
			break;
		case 'p':
			if (parse_scaled(optarg, 100, 10000, &tol))
				ret = usage_error(c->usage,
						  "bad tolerance '%s'", optarg);
			c->tolerance_ppm = tol;
			break;
		case 't':
			if (parse_scaled(optarg, 1e9, 1e9, &c->run.timeout_ns))
				ret = usage_error(c->usage, "bad timeout '%s'",
						  optarg);
			break;
		case 'h':
			fputs(c->usage, stdout);
			return -1;
		default:
			fputs(c->usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (!ret && c->duration.value && !c->load_ppm)
		ret = usage_error(c->usage, "%s", "--duration needs --load");
	for (; !ret && optind < argc; optind++)
		ret = add_file(c, argv[optind], NULL);
	if (!ret && !c->nr_files)
		ret = usage_error(c->usage, "%s", "no workload file given");
	return ret;
}

/* One error of a workload file, "gputbs: FILE:LINE: reason". */
static void err_msg_line(const char *line)
{
	err_msg("%s", line);
}

/*
 * The alone slot of program @p with its tenant's cap @max_ppm (weight
 * @weight): programs are identified by name, and one defined in several
 * files must be defined the same way in all of them; a program runs alone
 * once per cap.  Returns the index, or -1 after printing why not.
 */
static int add_program(struct cmd *c, const struct wl_program *p,
		       __u32 weight, __u32 max_ppm)
{
	unsigned int k;

	for (k = 0; k < c->nr_alone; k++) {
		const struct wl_program *q = c->alone[k].prog;

		if (strcmp(q->name, p->name))
			continue;
		if (!wl_program_equal(q, p)) {
			err_msg("%s:%u: program '%s' differs from its definition at %s:%u",
				p->loc.file, p->loc.line, p->name,
				q->loc.file, q->loc.line);
			return -1;
		}
		if (c->alone_max[k] == max_ppm)
			return k;
	}
	if (c->nr_alone == RUN_MAX_PROGRAMS) {
		err_msg("more than %d programs", RUN_MAX_PROGRAMS);
		return -1;
	}
	c->alone[c->nr_alone].prog = p;
	c->alone_weight[c->nr_alone] = weight;
	c->alone_max[c->nr_alone] = max_ppm;
	return c->nr_alone++;
}

/*
 * Parse the files; set up the alone slots and the workload results, one
 * per workload and policy (the policies are not known yet without
 * --policy, but there is then exactly one).
 */
static int prepare(struct cmd *c)
{
	unsigned int i, w, r, p, n = 0, rounds = c->nr_policies ?: 1;
	char errbuf[WL_ERR_LEN];
	int k;

	c->alone = calloc(RUN_MAX_PROGRAMS, sizeof(*c->alone));
	if (!c->alone) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	for (i = 0; i < c->nr_files; i++) {
		if (wl_parse_file(c->files[i],
				  c->calibrate ? WL_PARSE_PROGRAMS : 0,
				  &c->sets[i], errbuf, sizeof(errbuf))) {
			wl_errors(errbuf, err_msg_line);
			return EXIT_USAGE;
		}
		n += c->sets[i]->nr_workloads;
	}
	if (!c->calibrate) {
		c->wls = calloc((size_t)n * rounds, sizeof(*c->wls));
		if (!c->wls) {
			err_msg("out of memory");
			return EXIT_DEVICE;
		}
	}
	for (i = 0; i < c->nr_files; i++) {
		struct wl_set *set = c->sets[i];

		if (c->calibrate) {
			for (r = 0; r < set->nr_programs; r++)
				if (add_program(c, set->programs[r], 0, 0) < 0)
					return EXIT_USAGE;
			continue;
		}
		for (w = 0; w < set->nr_workloads; w++) {
			struct workload_result *res = &c->wls[c->nr_wls++];

			res->set = set;
			res->wl = set->workloads[w];
			for (r = 0; r < res->wl->nr_runs; r++) {
				const struct wl_run *run = &res->wl->runs[r];

				if (!c->tenant_run && (run->tenant[0] ||
						       run->has_weight ||
						       run->has_max))
					c->tenant_run = run;
				p = run->program;
				k = add_program(c, set->programs[p],
						run->weight, run->max_ppm);
				if (k < 0)
					return EXIT_USAGE;
				res->alone[r] = k;
			}
		}
	}
	/* The same workloads again for every further policy. */
	for (p = 1; p < rounds; p++)
		for (w = 0; w < c->nr_wls; w++) {
			c->wls[p * c->nr_wls + w].set = c->wls[w].set;
			c->wls[p * c->nr_wls + w].wl = c->wls[w].wl;
			memcpy(c->wls[p * c->nr_wls + w].alone,
			       c->wls[w].alone, sizeof(c->wls[w].alone));
		}
	return 0;
}

static void print_run_error(const struct cmd *c, const char *what,
			    const struct wl_program *prog,
			    const struct run_error *err)
{
	if (err->err == -ECHILD && !strcmp(err->what, "child"))
		err_msg("%s: %s: process exited before grid %u finished",
			what, prog->name, err->grid);
	else if (!strcmp(err->what, "open"))
		device_error(c->run.device, err->err);
	else if (!strcmp(err->what, "arrival"))
		err_msg("%s: %s: arrived %llu cycles after its arrival cycle: its process submitted too late (T0 was %llu cycles ahead)",
			what, prog->name,
			(unsigned long long)err->late_cycles,
			(unsigned long long)err->margin_cycles);
	else if (!strcmp(err->what, "cgroup"))
		err_msg("%s: %s: cannot move into its tenant's cgroup: %s",
			what, prog->name, gputbs_strerror(err->err));
	else if (!strcmp(err->what, "fork") || !strcmp(err->what, "pipe"))
		err_msg("%s: %s: %s", what, err->what,
			gputbs_strerror(err->err));
	else if (err->grid >= prog->nr_grids)	/* a later request's */
		err_msg("%s: %s: request %u, grid %s: %s: %s", what,
			prog->name, err->grid / prog->nr_grids + 1,
			prog->grids[err->grid % prog->nr_grids].label,
			err->what, run_strerror(err));
	else
		err_msg("%s: %s: grid %s: %s: %s", what, prog->name,
			prog->grids[err->grid].label, err->what,
			run_strerror(err));
}

/*
 * A tenant's cgroup could not be made or set: "gputbs: WHAT: tenant T:
 * STEP: reason", with the module's message for tenant-set.
 */
static int tenant_error(const struct cmd *c, const char *what,
			const char *tenant, const char *step, int err)
{
	const char *msg = gputbs_monitor_errmsg(c->mon);
	bool set = !strcmp(step, "tenant-set");

	if (set && err == -EOPNOTSUPP)
		err_msg("%s: tenant %s: tenant-set: the module has no tenants",
			what, tenant);
	else if (set)
		err_msg("%s: tenant %s: tenant-set: %s%s%s", what, tenant,
			gputbs_strerror(err), msg[0] ? ": " : "", msg);
	else
		err_msg("%s: tenant %s: %s in %s: %s", what, tenant, step,
			c->cg->root, gputbs_strerror(err));
	return EXIT_DEVICE;
}

/*
 * Program @k alone into @a; with tenants in a cgroup of its own with its
 * run's weight and cap, the command's process moved there and back.
 */
static int run_alone_into(struct cmd *c, unsigned int k,
			  struct prog_result *a)
{
	const struct wl_program *prog = c->alone[k].prog;
	char self[RUN_CGROUP_PATH];
	struct run_error err;
	const char *step;
	int ret, r;

	if (!c->tenant_run) {
		if (run_alone(&c->run, prog, a, &err)) {
			print_run_error(c, "alone", prog, &err);
			return EXIT_DEVICE;
		}
		return 0;
	}
	ret = run_cgroup_self(self, sizeof(self));
	if (ret) {
		err_msg("alone: %s: /proc/self/cgroup: %s", prog->name,
			gputbs_strerror(ret));
		return EXIT_DEVICE;
	}
	ret = run_cgroups_alone(c->cg, c->mon, prog, c->alone_weight[k],
				c->alone_max[k], &step);
	if (ret) {
		tenant_error(c, "alone", prog->name, step, ret);
		run_cgroups_drop(c->cg);
		return EXIT_DEVICE;
	}
	ret = run_cgroup_enter(c->cg->paths[0]);
	if (ret) {
		err_msg("alone: %s: cannot move into %s: %s", prog->name,
			c->cg->paths[0], gputbs_strerror(ret));
		run_cgroups_drop(c->cg);
		return EXIT_DEVICE;
	}
	ret = run_alone(&c->run, prog, a, &err);
	r = run_cgroup_enter(self);
	if (ret)
		print_run_error(c, "alone", prog, &err);
	else if (r)
		err_msg("alone: %s: cannot move back into %s: %s", prog->name,
			self, gputbs_strerror(r));
	if (!r)
		r = run_cgroups_drop(c->cg);
	if (!ret && r)
		err_msg("alone: %s: cannot remove its cgroup: %s", prog->name,
			gputbs_strerror(r));
	if (ret || r)
		return EXIT_DEVICE;
	a->has_share = true;
	a->weight = c->alone_weight[k];
	a->max_ppm = c->alone_max[k];
	run_share_alone(a, c->run.info->nr_sms);
	return 0;
}

static int run_alone_one(struct cmd *c, unsigned int k)
{
	return run_alone_into(c, k, &c->alone[k]);
}

static int run_alone_all(struct cmd *c)
{
	unsigned int i;
	int ret;

	for (i = 0; i < c->nr_alone; i++) {
		ret = run_alone_one(c, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* Offsets in percent are of the first run's program alone runtime. */
static void resolve_offsets(const struct cmd *c, struct workload_result *res)
{
	__u64 first = c->alone[res->alone[0]].runtime;
	unsigned int r;

	for (r = 0; r < res->wl->nr_runs; r++) {
		const struct wl_run *run = &res->wl->runs[r];

		res->at_cycles[r] = run->at_pct ?
			(__u64)((__uint128_t)first * run->at / 1000000) :
			run->at;
		res->alone_cycles[r] = c->alone[res->alone[r]].runtime;
	}
}

static int run_one_at(struct cmd *c, const struct gputbs_info *info,
		      const char *what, struct workload_result *res);

/*
 * One execution of @res's workload (its tenants' cgroups made and removed
 * around it); @what names it in messages.  0 or an exit status.
 */
static int run_one(struct cmd *c, const struct gputbs_info *info,
		   const char *what, struct workload_result *res)
{
	__u64 margin = c->run.t0_margin_ns;
	unsigned int r;
	int ret;

	/*
	 * --load: streams of many requests, each process's grids all
	 * submitted ahead (up to max_grids_per_fd): give T0 a margin of 2
	 * ms per grid launch (at most 30 s), time enough for a slow process
	 * (a debug kernel under TCG) to link them before they arrive.
	 */
	if (c->load_ppm) {
		__u64 n = 0;

		for (r = 0; r < res->wl->nr_runs; r++)
			n += (__u64)(res->wl->runs[r].requests ?: 1) *
			     res->set->programs[res->wl->runs[r].program]->nr_grids;
		n = RUN_T0_MARGIN_NS + n * 2000000ULL;
		c->run.t0_margin_ns = n < 30000000000ULL ? n : 30000000000ULL;
	}
	ret = run_one_at(c, info, what, res);
	c->run.t0_margin_ns = margin;
	return ret;
}

/* run_one() with the margin set. */
static int run_one_at(struct cmd *c, const struct gputbs_info *info,
		      const char *what, struct workload_result *res)
{
	struct run_error err;
	unsigned int failed;

	if (c->tenant_run) {
		const char *step;
		int ret;

		ret = run_cgroups_workload(c->cg, c->mon, res, &failed, &step);
		if (ret) {
			tenant_error(c, what,
				     wl_run_tenant(&res->wl->runs[failed],
						   res->runs[failed].prog),
				     step, ret);
			run_cgroups_drop(c->cg);
			return EXIT_DEVICE;
		}
	}
	if (run_workload(&c->run, info, res, &failed, &err)) {
		print_run_error(c, what, res->runs[failed].prog, &err);
		run_cgroups_drop(c->cg);
		return EXIT_DEVICE;
	}
	if (c->tenant_run) {
		int ret = run_cgroups_drop(c->cg);

		if (ret) {
			err_msg("%s: cannot remove its tenants' cgroups: %s",
				what, gputbs_strerror(ret));
			return EXIT_DEVICE;
		}
	}
	return 0;
}

/* Run every workload once; the results go to @wls (@c->nr_wls entries). */
static int run_workloads(struct cmd *c, const struct gputbs_info *info,
			 const char *policy, struct workload_result *wls)
{
	char what[WL_NAME_LEN + POLICY_NAME_LEN + 32];
	unsigned int i;
	int ret;

	for (i = 0; i < c->nr_wls; i++) {
		struct workload_result *res = &wls[i];

		resolve_offsets(c, res);
		if (c->switching)
			snprintf(what, sizeof(what), "workload %s (policy %s)",
				 res->wl->name, policy);
		else
			snprintf(what, sizeof(what), "workload %s",
				 res->wl->name);
		ret = run_one(c, info, what, res);
		if (ret)
			return ret;
		if (gtbs_metrics_calc(res->alone_cycles, res->shared_cycles,
				      res->wl->nr_runs, &res->metrics)) {
			err_msg("%s: a runtime is zero cycles", what);
			return EXIT_DEVICE;
		}
	}
	return 0;
}

/*
 * The policy to restore when the command ends, also from a fatal signal:
 * the sysfs path is that of the device the command uses.
 */
static struct {
	char path[96];
	char name[POLICY_NAME_LEN];
	pid_t pid;
	volatile sig_atomic_t armed;
} restore;

/* Only async-signal-safe calls; the forked runs just die. */
static void restore_on_signal(int sig)
{
	int fd;

	if (restore.armed && getpid() == restore.pid) {
		restore.armed = 0;
		fd = open(restore.path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			/* nothing more to try if it fails */
			ssize_t n = write(fd, restore.name,
					  strlen(restore.name));

			(void)n;
			close(fd);
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/**
 * restore_arm() - restore policy @name if a fatal signal ends the command
 * @g: the device whose policy is switched.
 * @name: the policy to restore.
 *
 * Also used by "gputbs eval" (cmd_eval.c); restore_disarm() undoes it.
 */
void restore_arm(struct gputbs *g, const char *name)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	struct stat st;
	unsigned int i;

	if (fstat(gputbs_fd(g), &st) || !S_ISCHR(st.st_mode))
		snprintf(restore.path, sizeof(restore.path), "%s",
			 POLICY_SYSFS);
	else
		snprintf(restore.path, sizeof(restore.path),
			 "/sys/dev/char/%u:%u/policy", major(st.st_rdev),
			 minor(st.st_rdev));
	snprintf(restore.name, sizeof(restore.name), "%s", name);
	restore.pid = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = restore_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	restore.armed = 1;
}

/**
 * restore_disarm() - the policy no longer needs restoring on a signal
 */
void restore_disarm(void)
{
	restore.armed = 0;
}

/*
 * Switch the device to @name for option @opt (--policy, --load); 0 or an
 * exit status after a message.
 */
static int switch_policy(struct gputbs *g, const char *name, const char *opt)
{
	int ret = gputbs_set_policy(g, name);

	if (!ret)
		return 0;
	if (ret == -EACCES || ret == -EPERM)
		err_msg("%s: cannot switch the policy to %s: %s "
			"(writing %s needs root with CAP_SYS_ADMIN)", opt,
			name, gputbs_strerror(ret), POLICY_SYSFS);
	else if (ret == -EINVAL)
		err_msg("%s: the module rejected policy '%s'", opt, name);
	else
		err_msg("%s: cannot switch the policy to %s: %s", opt, name,
			gputbs_strerror(ret));
	return EXIT_DEVICE;
}

/* Whether @name is one of the space-separated words of @all. */
bool policy_offered(const char *all, const char *name)
{
	size_t len = strlen(name);
	const char *s;

	for (s = all; (s = strstr(s, name)); s += len)
		if ((s == all || s[-1] == ' ') && (!s[len] || s[len] == ' '))
			return true;
	return false;
}

/*
 * Find out the current policy into @cur; with --policy check that the
 * module offers every policy asked for.  0 or an exit status.
 */
static int check_policies(struct cmd *c, struct gputbs *g, char *cur,
			  size_t len)
{
	char all[POLICY_LIST_LEN];
	unsigned int i;
	int ret;

	ret = gputbs_get_policy(g, cur, len, all, sizeof(all));
	if (ret && !c->switching) {
		read_policy(cur, len);	/* an older module: its parameter */
		return 0;
	}
	if (ret) {
		err_msg("--policy: cannot read %s: %s", POLICY_SYSFS,
			gputbs_strerror(ret));
		return EXIT_DEVICE;
	}
	for (i = 0; i < c->nr_policies; i++) {
		if (!policy_offered(all, c->policies[i])) {
			err_msg("--policy: unknown policy '%s' (the module offers: %s)",
				c->policies[i], all);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* Write the trace to @f, opened before the run; closes @f. */
static int write_trace(struct cmd *c, FILE *f, const struct report *rep)
{
	int big;

	big = report_trace(f, rep, &c->wls[0]);
	if (fclose(f)) {
		err_msg("--trace: %s: %s", c->trace, strerror(errno));
		return EXIT_DEVICE;
	}
	if (big)
		err_msg("--trace: %s: cycles beyond 2^40, more than gputbs predict accepts (reload the module to restart its clock)",
			c->trace);
	return 0;
}

/*
 * --load: the load's unit of run @r of @res under fifo, with its tenant's
 * weight and cap, into *@alone, as gputbs-sim sweep and gputbs-sim run
 * --load measure it: for an open loop its alone service interval (all
 * its requests at once, wl_run_saturating(): the time from the first
 * arrival to the last end over its requests), else the latency of one
 * request alone (its alone execution's when the alone runs were under
 * fifo, @fifo; else measured once per alone slot, kept in @closed).  The
 * device's policy is fifo.  0 or an exit status.
 */
static int run_load_unit(struct cmd *c, const struct gputbs_info *info,
			 const struct workload_result *res, unsigned int r,
			 bool fifo, __u64 *closed, __u64 *alone)
{
	const struct wl_run *run = &res->wl->runs[r];
	unsigned int k = res->alone[r], q, g;
	struct workload_result *sat;
	__u64 first = ~0ULL, last = 0;
	char what[WL_NAME_LEN + 64];
	int ret;

	if (!wl_run_open(run)) {
		if (fifo && c->alone[k].stream_order) {
			*alone = c->alone[k].runtime;
			return 0;
		}
		if (closed[k]) {	/* this alone slot's, measured before */
			*alone = closed[k];
			return 0;
		}
	}
	g = c->alone[k].prog->nr_grids;
	sat = calloc(1, sizeof(*sat) + sizeof(struct wl_workload));
	if (!sat) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	{
		struct wl_workload *one = (struct wl_workload *)(sat + 1);

		snprintf(one->name, sizeof(one->name), "%s", res->wl->name);
		one->nr_runs = 1;
		one->nr_tenants = 1;
		one->tenant_keys = res->wl->tenant_keys;
		if (wl_run_open(run)) {
			wl_run_saturating(run, &one->runs[0]);
		} else {	/* one request */
			one->runs[0] = *run;
			one->runs[0].requests = 1;
			one->runs[0].outstanding = 0;
			memset(&one->runs[0].think, 0,
			       sizeof(one->runs[0].think));
		}
		one->runs[0].at = 0;
		one->runs[0].at_pct = 0;
		one->runs[0].tenant_id = 0;
		sat->set = res->set;
		sat->wl = one;
	}
	snprintf(what, sizeof(what), "--load: %s %s under fifo",
		 c->alone[k].prog->name,
		 wl_run_open(run) ? "saturating alone" : "alone");
	ret = run_one(c, info, what, sat);
	if (!ret) {
		const struct prog_result *pr = &sat->runs[0];

		for (q = 0; q < pr->nr_requests; q++) {
			__u64 end = pr->grids[(size_t)(q + 1) * g - 1].end_cycle;

			if (pr->arrive[q] < first)
				first = pr->arrive[q];
			if (end > last)
				last = end;
		}
		*alone = q ? (last - first) / q : 0;
		if (!*alone)
			*alone = 1;
		if (!wl_run_open(run))
			closed[k] = *alone;
		if (!pr->stream_order)
			fprintf(stderr, "note: %s: a grid arrived after its cycle (the process fell behind): the load's unit depends on wall-clock time\n",
				what);
	}
	run_free_blocks(sat);
	prog_result_free(&sat->runs[0]);
	free(sat);
	return ret;
}

/*
 * --load, after the alone runs (under the first policy): the load's unit
 * of every run under fifo (run_load_unit()), the device switched to fifo
 * for them and back where the first policy is another (restoring @prev at
 * the end, *@switched); then every workload at the load
 * (wl_workload_at_load(), each open loop for the span its file gives it),
 * the same under every policy and the same as gputbs-sim run --load makes
 * of it.  0 or an exit status.
 */
static int run_at_load(struct cmd *c, struct gputbs *g,
		       const struct gputbs_info *info, const char *prev,
		       bool *switched)
{
	bool fifo = !strcmp(c->policies[0], "fifo");
	__u64 alone[WL_MAX_RUNS], *closed;
	unsigned int w, p, r;
	int ret = 0;

	if (!fifo) {
		if (!*switched)
			restore_arm(g, prev);
		ret = switch_policy(g, "fifo", "--load");
		if (ret)
			return ret;
		*switched = true;
	}
	c->scaled = calloc(c->nr_wls, sizeof(*c->scaled));
	closed = calloc(RUN_MAX_PROGRAMS, sizeof(*closed));
	if (!c->scaled || !closed) {
		free(closed);
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	for (w = 0; !ret && w < c->nr_wls; w++) {
		struct workload_result *res = &c->wls[w];

		resolve_offsets(c, res);
		for (r = 0; !ret && r < res->wl->nr_runs; r++)
			ret = run_load_unit(c, info, res, r, fifo, closed,
					    &alone[r]);
		if (ret)
			break;
		if (wl_workload_at_load(res->wl, alone, c->load_ppm,
					wl_time_cycles(&c->duration,
						       info->clock_khz),
					info->clock_khz, &c->scaled[w])) {
			err_msg("--load: workload %s: an alone latency of zero cycles",
				res->wl->name);
			ret = EXIT_DEVICE;
			break;
		}
		for (p = 0; p < c->nr_policies; p++) {
			struct workload_result *pr = &c->wls[p * c->nr_wls + w];

			pr->wl = &c->scaled[w];
			pr->load_ppm = c->load_ppm;
			memcpy(pr->load_alone, alone, sizeof(alone));
		}
	}
	free(closed);
	if (!fifo) {
		int back = switch_policy(g, c->policies[0], "--load");

		ret = ret ?: back;
	}
	return ret;
}

/* Run every policy's round of workloads, between the alone runs and the
 * report; restores the previous policy.  0 or an exit status. */
static int run_rounds(struct cmd *c, struct gputbs *g,
		      const struct gputbs_info *info, const char *prev)
{
	bool switched = false;
	unsigned int p;
	int ret = 0, r;

	if (c->switching && strcmp(c->policies[0], prev)) {
		restore_arm(g, prev);
		ret = switch_policy(g, c->policies[0], "--policy");
		switched = !ret;
	}
	if (!ret)
		ret = run_alone_all(c);
	if (!ret && c->load_ppm)
		ret = run_at_load(c, g, info, prev, &switched);
	for (p = 0; !ret && p < c->nr_policies; p++) {
		if (p && c->switching) {
			if (!switched)
				restore_arm(g, prev);
			ret = switch_policy(g, c->policies[p], "--policy");
			switched = switched || !ret;
		}
		if (!ret)
			ret = run_workloads(c, info, c->policies[p],
					    &c->wls[p * c->nr_wls]);
	}
	if (switched) {
		restore.armed = 0;
		r = gputbs_set_policy(g, prev);
		if (r) {
			err_msg("--policy: cannot restore policy %s: %s", prev,
				gputbs_strerror(r));
			ret = ret ?: EXIT_DEVICE;
		}
	}
	return ret;
}

/**
 * check_fits() - every grid to run against the device's limits
 * @c: the command, its programs added.
 * @info: the device.
 *
 * The workload parser accepts the largest preset's ranges (255 registers,
 * 228 KiB of shared memory); a grid beyond the actual device's is an
 * error at its line before anything runs, not a failed submission later.
 *
 * Return: 0, or %EXIT_USAGE after a message.
 */
static int check_fits(const struct cmd *c, const struct gputbs_info *info)
{
	struct gtbs_dev_config cfg = {
		.nr_sms = info->nr_sms, .warp_size = info->warp_size,
		.max_threads_per_sm = info->max_threads_per_sm,
		.max_regs_per_sm = info->max_regs_per_sm,
		.max_shmem_per_sm = info->max_shmem_per_sm,
		.max_blocks_per_sm = info->max_blocks_per_sm,
		.max_warps_per_sm = info->max_warps_per_sm,
		.max_threads_per_block = info->max_threads_per_block,
		.max_regs_per_thread = info->max_regs_per_thread,
		.reg_alloc_unit = info->reg_alloc_unit,
		.shmem_alloc_unit = info->shmem_alloc_unit,
		.max_blocks_per_grid = info->max_blocks_per_grid,
	};
	unsigned int k, i;

	for (k = 0; k < c->nr_alone; k++) {
		const struct wl_program *p = c->alone[k].prog;

		for (i = 0; i < p->nr_grids; i++) {
			const struct wl_grid *g = &p->grids[i];
			struct gtbs_grid_desc desc = {
				.nr_blocks = g->nr_blocks,
				.threads_per_block = g->threads,
				.regs_per_thread = g->regs,
				.shmem_per_block = g->shmem,
			};
			struct gtbs_occupancy occ;

			if (g->regs > info->max_regs_per_thread)
				err_msg("%s:%u: regs=%u: the device allows at most %u registers per thread",
					g->loc.file, g->loc.line, g->regs,
					info->max_regs_per_thread);
			else if (g->shmem > info->max_shmem_per_sm)
				err_msg("%s:%u: shmem=%u: the device allows at most %u bytes of shared memory per block",
					g->loc.file, g->loc.line, g->shmem,
					info->max_shmem_per_sm);
			else if (g->threads <= info->max_threads_per_block &&
				 gtbs_occupancy_calc(&cfg, &desc, &occ))
				err_msg("%s:%u: a block of %u threads with %u registers each does not fit an SM of the device (%u registers)",
					g->loc.file, g->loc.line, g->threads,
					g->regs, info->max_regs_per_sm);
			else
				continue;
			return EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * --load: the load's unit of an open loop runs all its requests at once
 * (wl_run_saturating()) from one file, which must hold requests x grids +
 * 1 grids to stream them (run_plan_window()).  0, or %EXIT_DEVICE after a
 * message at the first run's line that the device cannot run so.
 */
static int check_load_window(const struct cmd *c,
			     const struct gputbs_info *info)
{
	unsigned int w, r;

	for (w = 0; c->load_ppm && w < c->nr_wls; w++) {
		const struct workload_result *res = &c->wls[w];

		for (r = 0; r < res->wl->nr_runs; r++) {
			const struct wl_run *run = &res->wl->runs[r];
			const struct wl_program *prog =
				res->set->programs[run->program];
			size_t need = (size_t)run->requests * prog->nr_grids + 1;

			if (!wl_run_open(run) || need <= info->max_grids_per_fd)
				continue;
			err_msg("%s:%u: --load: %s saturating alone (its %u requests at once, %u grids each) needs max_grids_per_fd %zu; the module has %u (module parameter max_grids_per_fd)",
				run->loc.file, run->loc.line, prog->name,
				run->requests, prog->nr_grids, need,
				info->max_grids_per_fd);
			return EXIT_DEVICE;
		}
	}
	return 0;
}

/*
 * The workloads have tenant keys: make the directory of their cgroups, or
 * say at the first key's line why they cannot be applied.
 */
static int tenants_init(struct cmd *c)
{
	const struct wl_loc *loc = &c->tenant_run->loc;
	int ret;

	c->cg = calloc(1, sizeof(*c->cg));
	if (!c->cg) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	ret = run_cgroups_init(c->cg);
	if (ret == -EPERM)
		err_msg("%s:%u: tenant keys need root and cgroup v2 at /sys/fs/cgroup: not root (each tenant runs in a cgroup of its own)",
			loc->file, loc->line);
	else if (ret == -EMEDIUMTYPE)
		err_msg("%s:%u: tenant keys need root and cgroup v2 at /sys/fs/cgroup: /sys/fs/cgroup is not a cgroup2 file system",
			loc->file, loc->line);
	else if (ret)
		err_msg("%s:%u: tenant keys: cannot make %s: %s", loc->file,
			loc->line, c->cg->root, gputbs_strerror(ret));
	return ret ? EXIT_DEVICE : 0;
}

static int execute(struct cmd *c)
{
	struct gputbs_info info;
	char cur[POLICY_NAME_LEN];
	FILE *trace = NULL;
	struct report rep;
	struct gputbs *g;
	int ret;

	ret = prepare(c);
	if (ret)
		return ret;
	if (c->tenant_run && !c->calibrate) {
		ret = tenants_init(c);
		if (ret)
			return ret;
	}
	if (c->trace && (c->nr_wls != 1 || c->nr_policies > 1)) {
		err_msg("--trace records one workload under one policy, "
			"not %u workload%s under %u polic%s", c->nr_wls,
			c->nr_wls == 1 ? "" : "s", c->nr_policies ?: 1,
			c->nr_policies > 1 ? "ies" : "y");
		return EXIT_USAGE;
	}
	ret = gputbs_open(c->run.device, 0, &g);
	if (ret)
		return device_error(c->run.device, ret);
	ret = gputbs_info(g, &info);
	if (ret) {
		gputbs_close(g);
		return device_error(c->run.device, ret);
	}
	ret = check_fits(c, &info);
	if (!ret)
		ret = check_load_window(c, &info);
	if (ret) {
		gputbs_close(g);
		return ret;
	}
	if (c->trace && !(info.features & GPUTBS_FEATURE_BLOCK_RECORDS)) {
		gputbs_close(g);
		err_msg("--trace: the module cannot record blocks (no GPUTBS_FEATURE_BLOCK_RECORDS)");
		return EXIT_DEVICE;
	}
	ret = check_policies(c, g, cur, sizeof(cur));
	if (ret) {
		gputbs_close(g);
		return ret;
	}
	if (c->tenant_run && !c->calibrate) {
		ret = gputbs_monitor_open(0, &c->mon);
		if (ret) {
			gputbs_close(g);
			return monitor_error(ret);
		}
	}
	/* Fail before running for an hour, not after. */
	if (c->trace) {
		trace = fopen(c->trace, "we");
		if (!trace) {
			err_msg("--trace: %s: %s", c->trace, strerror(errno));
			gputbs_close(g);
			return EXIT_DEVICE;
		}
	}
	if (!c->nr_policies) {
		c->policies[0] = cur;
		c->nr_policies = 1;
	}
	c->run.record_blocks = c->trace != NULL;
	c->run.shares = c->cg != NULL;
	if (c->cg) {
		char buf[32];

		/* the caps' periods start at T0 (a module without: none) */
		if (!gputbs_attr_read(g, "cap_period", buf, sizeof(buf)))
			c->run.t0_align = strtoull(buf, NULL, 10);
	}
	c->run.info = &info;
	if (c->calibrate)
		ret = run_alone_all(c);
	else
		ret = run_rounds(c, g, &info, cur);
	gputbs_close(g);
	if (ret) {
		if (trace) {
			fclose(trace);
			unlink(c->trace);
		}
		return ret;
	}
	rep = (struct report) {
		.format = c->format,
		.device = c->run.device,
		.policy = c->policies[0],
		.policies = c->policies,
		.nr_policies = c->nr_policies,
		.info = &info,
		.alone = c->alone,
		.nr_alone = c->nr_alone,
		.wls = c->wls,
		.nr_wls = c->nr_wls,
		.tolerance_ppm = c->tolerance_ppm,
	};
	if (c->calibrate)
		return report_calibration(stdout, &rep) ? EXIT_DEVICE : 0;
	if (trace) {
		ret = write_trace(c, trace, &rep);
		if (ret)
			return ret;
	}
	report_run(stdout, &rep);
	return 0;
}

static int cmd_main(int argc, char **argv, bool calibrate)
{
	struct cmd *c;
	unsigned int i;
	int ret, r;

	c = calloc(1, sizeof(*c));
	if (!c) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	c->calibrate = calibrate;
	c->usage = calibrate ? usage_calibrate : usage_run;
	c->run.device = GPUTBS_DEFAULT_PATH;
	c->format = REPORT_TEXT;
	c->tolerance_ppm = DEFAULT_TOLERANCE_PPM;
	ret = parse_args(c, argc, argv);
	if (!ret)
		ret = execute(c);
	if (c->mon)
		gputbs_monitor_close(c->mon);
	r = run_cgroups_exit(c->cg);
	if (r) {
		err_msg("cannot remove %s: %s", c->cg->root,
			gputbs_strerror(r));
		ret = ret > 0 ? ret : EXIT_DEVICE;
	}
	free(c->cg);
	for (i = 0; c->wls && i < c->nr_wls * (c->nr_policies ?: 1); i++)
		run_free_blocks(&c->wls[i]);
	for (i = 0; c->alone && i < c->nr_alone; i++)
		prog_result_free(&c->alone[i]);
	for (i = 0; i < c->nr_files; i++) {
		wl_free(c->sets[i]);
		free(c->owned[i]);
	}
	free(c->alone);
	free(c->wls);
	free(c->scaled);
	free(c->policy_list);
	free(c);
	return ret < 0 ? 0 : ret;
}

int cmd_run(int argc, char **argv)
{
	return cmd_main(argc, argv, false);
}

int cmd_calibrate(int argc, char **argv)
{
	return cmd_main(argc, argv, true);
}
