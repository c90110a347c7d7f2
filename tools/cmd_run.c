// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - the "run" and "calibrate" commands of the gputbs CLI.
 *
 * run: every program used by the workloads runs alone first (one after
 * another), which gives the alone runtimes; then each workload runs with
 * its programs as concurrent processes (run.c), and STP, ANTT and StrictF
 * come from the portable core's gtbs_metrics_calc().
 *
 * calibrate: every program defined in the files runs alone and each grid's
 * runtime is compared with its expected runtime.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_WORKLOAD_FILES	1024
#define DEFAULT_TOLERANCE_PPM	50000	/* 5% */

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
 * @wls: run: one execution per workload.
 * @nr_wls: entries of @wls.
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
	struct workload_result *wls;
	unsigned int nr_wls;
};

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
	unsigned int lineno = 0;
	char *line = NULL, *s, *path;
	size_t len = 0;
	int ret = 0;
	FILE *f;

	f = fopen(list, "re");
	if (!f) {
		err_msg("%s: %s", list, strerror(errno));
		return EXIT_USAGE;
	}
	while (!ret && getline(&line, &len, f) > 0) {
		lineno++;
		line[strcspn(line, "#\r\n")] = '\0';
		s = line + strspn(line, " \t");
		s[strcspn(s, " \t")] = '\0';
		if (!*s)
			continue;
		if (*s == '/' || !slash)
			path = strdup(s);
		else if (asprintf(&path, "%.*s/%s", (int)(slash - list), list,
				  s) < 0)
			path = NULL;
		if (!path) {
			err_msg("%s:%u: out of memory", list, lineno);
			ret = EXIT_DEVICE;
			break;
		}
		ret = add_file(c, path, path);
	}
	free(line);
	fclose(f);
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

/* Returns 0, EXIT_USAGE, or -1 after printing the help. */
static int parse_args(struct cmd *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "list", required_argument, NULL, 'l' },
		{ "tolerance", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *optstr = c->calibrate ? "d:f:p:t:h" : "d:f:l:t:h";
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
	for (; !ret && optind < argc; optind++)
		ret = add_file(c, argv[optind], NULL);
	if (!ret && !c->nr_files)
		ret = usage_error(c->usage, "%s", "no workload file given");
	return ret;
}

/*
 * The alone slot of program @p: programs are identified by name, and one
 * defined in several files must be defined the same way in all of them.
 * Returns the index, or -1 after printing why not.
 */
static int add_program(struct cmd *c, const struct wl_program *p)
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
		return k;
	}
	if (c->nr_alone == RUN_MAX_PROGRAMS) {
		err_msg("more than %d programs", RUN_MAX_PROGRAMS);
		return -1;
	}
	c->alone[c->nr_alone].prog = p;
	return c->nr_alone++;
}

/* Parse the files; set up the alone slots and the workload results. */
static int prepare(struct cmd *c)
{
	unsigned int i, w, r, p;
	char errbuf[512];
	int k;

	c->alone = calloc(RUN_MAX_PROGRAMS, sizeof(*c->alone));
	c->wls = calloc((size_t)c->nr_files * WL_MAX_WORKLOADS,
			sizeof(*c->wls));
	if (!c->alone || !c->wls) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	for (i = 0; i < c->nr_files; i++) {
		struct wl_set *set;

		if (wl_parse_file(c->files[i],
				  c->calibrate ? WL_PARSE_PROGRAMS : 0,
				  &c->sets[i], errbuf, sizeof(errbuf))) {
			err_msg("%s", errbuf);
			return EXIT_USAGE;
		}
		set = c->sets[i];
		if (c->calibrate) {
			for (r = 0; r < set->nr_programs; r++)
				if (add_program(c, set->programs[r]) < 0)
					return EXIT_USAGE;
			continue;
		}
		for (w = 0; w < set->nr_workloads; w++) {
			struct workload_result *res = &c->wls[c->nr_wls++];

			res->set = set;
			res->wl = set->workloads[w];
			for (r = 0; r < res->wl->nr_runs; r++) {
				p = res->wl->runs[r].program;
				k = add_program(c, set->programs[p]);
				if (k < 0)
					return EXIT_USAGE;
				res->alone[r] = k;
			}
		}
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
	else if (!strcmp(err->what, "fork") || !strcmp(err->what, "pipe"))
		err_msg("%s: %s: %s", what, err->what,
			gputbs_strerror(err->err));
	else
		err_msg("%s: %s: grid %s: %s: %s", what, prog->name,
			prog->grids[err->grid].label, err->what,
			gputbs_strerror(err->err));
}

static int run_alone_all(struct cmd *c)
{
	struct run_error err;
	unsigned int i;

	for (i = 0; i < c->nr_alone; i++) {
		if (run_alone(&c->run, c->alone[i].prog, &c->alone[i], &err)) {
			print_run_error(c, "alone", c->alone[i].prog, &err);
			return EXIT_DEVICE;
		}
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

static int run_workloads(struct cmd *c, const struct gputbs_info *info)
{
	char what[WL_NAME_LEN + 16];
	struct run_error err;
	unsigned int i, failed;

	for (i = 0; i < c->nr_wls; i++) {
		struct workload_result *res = &c->wls[i];

		resolve_offsets(c, res);
		snprintf(what, sizeof(what), "workload %s", res->wl->name);
		if (run_workload(&c->run, info, res, &failed, &err)) {
			print_run_error(c, what, res->runs[failed].prog, &err);
			return EXIT_DEVICE;
		}
		if (gtbs_metrics_calc(res->alone_cycles, res->shared_cycles,
				      res->wl->nr_runs, &res->metrics)) {
			err_msg("%s: a runtime is zero cycles", what);
			return EXIT_DEVICE;
		}
	}
	return 0;
}

static int execute(struct cmd *c)
{
	struct gputbs_info info;
	struct report rep;
	char policy[64];
	int ret;

	ret = prepare(c);
	if (ret)
		return ret;
	ret = open_info(c->run.device, &info);
	if (ret)
		return device_error(c->run.device, ret);
	read_policy(policy, sizeof(policy));
	ret = run_alone_all(c);
	if (!ret && !c->calibrate)
		ret = run_workloads(c, &info);
	if (ret)
		return ret;
	rep = (struct report) {
		.format = c->format,
		.device = c->run.device,
		.policy = policy,
		.info = &info,
		.alone = c->alone,
		.nr_alone = c->nr_alone,
		.wls = c->wls,
		.nr_wls = c->nr_wls,
		.tolerance_ppm = c->tolerance_ppm,
	};
	if (c->calibrate)
		return report_calibration(stdout, &rep) ? EXIT_DEVICE : 0;
	report_run(stdout, &rep);
	return 0;
}

static int cmd_main(int argc, char **argv, bool calibrate)
{
	struct cmd *c;
	unsigned int i;
	int ret;

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
	for (i = 0; i < c->nr_files; i++) {
		wl_free(c->sets[i]);
		free(c->owned[i]);
	}
	free(c->alone);
	free(c->wls);
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
