// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs.c - command line tool of the gputbs thread block scheduler.
 *
 *   gputbs info [--device PATH] [--format text|json]
 *   gputbs run [--device PATH] [--format text|json] [--timeout SEC]
 *              [--list FILE] WORKLOAD...
 *
 * Exit status: 0 success, 1 device or system error, 2 usage error or bad
 * workload file.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define EXIT_DEVICE	1
#define EXIT_USAGE	2
#define POLICY_PARAM	"/sys/module/gputbs/parameters/policy"
#define MAX_WORKLOAD_FILES	1024

#ifndef GPUTBS_VERSION
#define GPUTBS_VERSION	"0.1"
#endif

static const char usage_main[] =
	"Usage: gputbs [--help] [--version] COMMAND [ARGS]\n"
	"\n"
	"Commands:\n"
	"  info   describe the emulated GPU of /dev/gputbs\n"
	"  run    run workloads and report STP, ANTT and StrictF\n"
	"\n"
	"'gputbs COMMAND --help' describes a command.\n";

static const char usage_info[] =
	"Usage: gputbs info [--device PATH] [--format text|json]\n"
	"\n"
	"Print every field of the device description (GPUTBS_IOCTL_INFO).\n"
	"\n"
	"  -d, --device PATH     device node (default /dev/gputbs)\n"
	"  -f, --format FORMAT   text (default) or json\n"
	"  -h, --help            this help\n";

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

static void __attribute__((format(printf, 1, 2))) err_msg(const char *fmt,
							  ...)
{
	va_list ap;

	fflush(stdout);
	fputs("gputbs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int usage_error(const char *usage, const char *fmt, const char *arg)
{
	fputs("gputbs: ", stderr);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage);
	return EXIT_USAGE;
}

static int device_error(const char *device, int err)
{
	const char *hint = "";

	if (err == -ENOENT || err == -ENODEV || err == -ENXIO)
		hint = " (is the module loaded?)";
	err_msg("%s: %s%s", device, gputbs_strerror(err), hint);
	return EXIT_DEVICE;
}

static int parse_format(const char *s, enum report_format *out)
{
	if (!strcmp(s, "text"))
		*out = REPORT_TEXT;
	else if (!strcmp(s, "json"))
		*out = REPORT_JSON;
	else
		return -EINVAL;
	return 0;
}

/*
 * The module parameter holds the policy name; a selector in the style of
 * /sys/block/X/queue/scheduler ("fifo [srtf] sjf") is understood too.
 */
static void read_policy(char *buf, size_t len)
{
	char line[256], *s, *e;
	FILE *f = fopen(POLICY_PARAM, "re");

	snprintf(buf, len, "fifo");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		s = strchr(line, '[');
		e = s ? strchr(s, ']') : NULL;
		if (s && e) {
			s++;
		} else {
			s = line + strspn(line, " \t");
			e = s + strcspn(s, " \t\n");
		}
		if (e > s)
			snprintf(buf, len, "%.*s", (int)(e - s), s);
	}
	fclose(f);
}

static int open_info(const char *device, struct gputbs_info *info)
{
	struct gputbs *g;
	int ret;

	ret = gputbs_open(device, 0, &g);
	if (ret)
		return ret;
	ret = gputbs_info(g, info);
	gputbs_close(g);
	return ret;
}

static int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum report_format format = REPORT_TEXT;
	const char *device = GPUTBS_DEFAULT_PATH;
	struct gputbs_info info;
	char policy[64];
	int c, ret;

	while ((c = getopt_long(argc, argv, "d:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &format))
				return usage_error(usage_info,
						   "unknown format '%s'",
						   optarg);
			break;
		case 'h':
			fputs(usage_info, stdout);
			return 0;
		default:
			fputs(usage_info, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error(usage_info, "unexpected argument '%s'",
				   argv[optind]);
	ret = open_info(device, &info);
	if (ret)
		return device_error(device, ret);
	read_policy(policy, sizeof(policy));
	report_info(stdout, format, device, policy, &info);
	return 0;
}

/* Workload files and what they define, for the run command. */
struct run_state {
	const char *files[MAX_WORKLOAD_FILES];
	char *owned[MAX_WORKLOAD_FILES];
	unsigned int nr_files;
	struct wl_set *sets[MAX_WORKLOAD_FILES];
	struct prog_result *alone;	/* one per distinct program */
	unsigned int nr_alone;
	struct workload_result *wls;
	unsigned int nr_wls;
};

static int add_file(struct run_state *st, const char *path, char *owned)
{
	if (st->nr_files == MAX_WORKLOAD_FILES) {
		err_msg("more than %d workload files", MAX_WORKLOAD_FILES);
		free(owned);
		return EXIT_USAGE;
	}
	st->owned[st->nr_files] = owned;
	st->files[st->nr_files++] = path;
	return 0;
}

/* Add the workload files listed in @list, relative to @list. */
static int add_list(struct run_state *st, const char *list)
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
		ret = add_file(st, path, path);
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * Give every program used by a workload one slot in st->alone; a program
 * defined in several files must be defined the same way in all of them.
 */
static int collect_programs(struct run_state *st)
{
	unsigned int i, w, r, k;

	st->alone = calloc(RUN_MAX_PROGRAMS, sizeof(*st->alone));
	st->wls = calloc((size_t)st->nr_files * WL_MAX_WORKLOADS,
			 sizeof(*st->wls));
	if (!st->alone || !st->wls) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	for (i = 0; i < st->nr_files; i++) {
		const struct wl_set *set = st->sets[i];

		for (w = 0; w < set->nr_workloads; w++) {
			struct workload_result *res = &st->wls[st->nr_wls++];

			res->set = set;
			res->wl = set->workloads[w];
			for (r = 0; r < res->wl->nr_runs; r++) {
				const struct wl_program *p =
					set->programs[res->wl->runs[r].program];

				for (k = 0; k < st->nr_alone; k++)
					if (!strcmp(st->alone[k].prog->name,
						    p->name))
						break;
				if (k < st->nr_alone &&
				    !wl_program_equal(st->alone[k].prog, p)) {
					err_msg("%s:%u: program '%s' differs from its definition at %s:%u",
						p->loc.file, p->loc.line,
						p->name,
						st->alone[k].prog->loc.file,
						st->alone[k].prog->loc.line);
					return EXIT_USAGE;
				}
				if (k == st->nr_alone) {
					if (k == RUN_MAX_PROGRAMS) {
						err_msg("more than %d programs",
							RUN_MAX_PROGRAMS);
						return EXIT_USAGE;
					}
					st->alone[st->nr_alone++].prog = p;
				}
				res->alone[r] = k;
			}
		}
	}
	return 0;
}

static void print_run_error(const struct run_opts *opts, const char *what,
			    const struct wl_program *prog,
			    const struct run_error *err)
{
	if (err->err == -ECHILD && !strcmp(err->what, "child"))
		err_msg("%s: %s: process exited before grid %u finished",
			what, prog->name, err->grid);
	else if (!strcmp(err->what, "open") || !strcmp(err->what, "fork"))
		device_error(opts->device, err->err);
	else
		err_msg("%s: %s: grid %s: %s: %s", what, prog->name,
			prog->grids[err->grid].label, err->what,
			gputbs_strerror(err->err));
}

static int run_all(struct run_state *st, const struct run_opts *opts,
		   const struct gputbs_info *info)
{
	struct run_error err;
	unsigned int i, r, failed;
	char what[WL_NAME_LEN + 16];
	int ret;

	for (i = 0; i < st->nr_alone; i++) {
		ret = run_alone(opts, st->alone[i].prog, &st->alone[i], &err);
		if (ret) {
			print_run_error(opts, "alone", st->alone[i].prog,
					&err);
			return EXIT_DEVICE;
		}
	}
	for (i = 0; i < st->nr_wls; i++) {
		struct workload_result *res = &st->wls[i];
		__u64 first = st->alone[res->alone[0]].runtime;

		for (r = 0; r < res->wl->nr_runs; r++) {
			const struct wl_run *run = &res->wl->runs[r];

			res->at_cycles[r] = run->at_pct ?
				(__u64)((unsigned __int128)first * run->at /
					1000000) : run->at;
			res->alone_cycles[r] = st->alone[res->alone[r]].runtime;
		}
		ret = run_workload(opts, info, res, &failed, &err);
		if (ret) {
			snprintf(what, sizeof(what), "workload %s",
				 res->wl->name);
			print_run_error(opts, what, res->runs[failed].prog,
					&err);
			return EXIT_DEVICE;
		}
		ret = gtbs_metrics_calc(res->alone_cycles, res->shared_cycles,
					res->wl->nr_runs, &res->metrics);
		if (ret) {
			err_msg("workload %s: a runtime is zero cycles",
				res->wl->name);
			return EXIT_DEVICE;
		}
	}
	return 0;
}

static int parse_timeout(const char *s, __u64 *ns)
{
	char *end;
	double sec;

	errno = 0;
	sec = strtod(s, &end);
	if (errno || end == s || *end || !(sec > 0) || sec > 1e9)
		return -EINVAL;
	*ns = (__u64)(sec * 1e9);
	return 0;
}

static int cmd_run_files(struct run_state *st, struct run_opts *opts,
			 enum report_format format)
{
	struct gputbs_info info;
	struct report rep;
	char policy[64], errbuf[512];
	unsigned int i;
	int ret;

	for (i = 0; i < st->nr_files; i++) {
		ret = wl_parse_file(st->files[i], &st->sets[i], errbuf,
				    sizeof(errbuf));
		if (ret) {
			err_msg("%s", errbuf);
			return EXIT_USAGE;
		}
	}
	ret = collect_programs(st);
	if (ret)
		return ret;
	ret = open_info(opts->device, &info);
	if (ret)
		return device_error(opts->device, ret);
	read_policy(policy, sizeof(policy));
	ret = run_all(st, opts, &info);
	if (ret)
		return ret;
	rep = (struct report) {
		.format = format,
		.device = opts->device,
		.policy = policy,
		.info = &info,
		.alone = st->alone,
		.nr_alone = st->nr_alone,
		.wls = st->wls,
		.nr_wls = st->nr_wls,
	};
	report_run(stdout, &rep);
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "list", required_argument, NULL, 'l' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts ro = { .device = GPUTBS_DEFAULT_PATH };
	enum report_format format = REPORT_TEXT;
	struct run_state *st;
	unsigned int i;
	int c, ret = 0;

	st = calloc(1, sizeof(*st));
	if (!st) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	while (!ret && (c = getopt_long(argc, argv, "d:f:l:t:h", opts,
					NULL)) != -1) {
		switch (c) {
		case 'd':
			ro.device = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &format))
				ret = usage_error(usage_run,
						  "unknown format '%s'",
						  optarg);
			break;
		case 'l':
			ret = add_list(st, optarg);
			break;
		case 't':
			if (parse_timeout(optarg, &ro.timeout_ns))
				ret = usage_error(usage_run,
						  "bad timeout '%s'", optarg);
			break;
		case 'h':
			fputs(usage_run, stdout);
			ret = -1;
			break;
		default:
			fputs(usage_run, stderr);
			ret = EXIT_USAGE;
			break;
		}
	}
	for (; !ret && optind < argc; optind++)
		ret = add_file(st, argv[optind], NULL);
	if (!ret && !st->nr_files)
		ret = usage_error(usage_run, "%s", "no workload file given");
	if (!ret)
		ret = cmd_run_files(st, &ro, format);
	for (i = 0; i < st->nr_files; i++) {
		wl_free(st->sets[i]);
		free(st->owned[i]);
	}
	free(st->alone);
	free(st->wls);
	free(st);
	return ret < 0 ? 0 : ret;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "info", cmd_info },
		{ "run", cmd_run },
	};
	static char name[32];
	unsigned int i;

	if (argc < 2)
		return usage_error(usage_main, "%s", "missing command");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("gputbs " GPUTBS_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			/* getopt_long() prefixes its messages with argv[0]. */
			snprintf(name, sizeof(name), "gputbs %s", cmds[i].name);
			argv[1] = name;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	return usage_error(usage_main, "unknown command '%s'", argv[1]);
}
