// SPDX-License-Identifier: GPL-2.0
/*
 * evalcmd.c - the command line of the evaluation sweep.
 *
 * "gputbs-sim eval" and "gputbs eval" are one command with two backends:
 * the options, the sweep (eval.c), the timeline and the output (output.c,
 * plot.c) are the same code; only what executes a run differs (struct
 * sim_eval_cli: sim_run() in virtual time, or the module through real
 * processes).  The module's sweep has no --jobs (one device, one run at a
 * time), no --sms (the module's SMs) and no --sjf-key (the module's SJF
 * key is Equation 1 of the work model), and takes --device.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "evalcmd.h"
#include "output.h"
#include "plot.h"

#define SIM_DEFAULT_WORKLOADS	"workloads/ercbench"
#define SIM_KERNELS_FILE	"kernels.gtbs"
#define SIM_DEFAULT_TIMELINE	"RayTracing+JPEG-d"

/* The command being parsed, for its help. */
static const struct sim_eval_cli *sim_cli;

static void sim_eval_help(FILE *f)
{
	char reg[256];

	sim_registry_sweep(reg, sizeof(reg), ",");
	fprintf(f, sim_cli->usage, reg);
}

/* --offsets: comma-separated percentages 0..1000, none twice. */
static int sim_parse_offsets(struct sim_eval *ev, const char *arg)
{
	char *list = strdup(arg), *s, *save = NULL;
	unsigned int i;
	int ret = 0;
	u64 v;

	if (!list) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	ev->nr_offsets = 0;
	if (!*arg || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,"))
		ret = -EINVAL;
	for (s = strtok_r(list, ",", &save); !ret && s;
	     s = strtok_r(NULL, ",", &save)) {
		if (sim_parse_uint(s, 0, SIM_MAX_OFFSET_PCT, &v) ||
		    ev->nr_offsets == SIM_MAX_OFFSETS) {
			ret = -EINVAL;
			break;
		}
		for (i = 0; i < ev->nr_offsets; i++)
			if (ev->offsets[i] == v)
				ret = -EINVAL;
		ev->offsets[ev->nr_offsets++] = v;
	}
	free(list);
	if (ret)
		return sim_usage_error(sim_eval_help, "--offsets: bad offset list '%s' (1 to %d different percentages 0..%d, comma-separated)",
				       arg, SIM_MAX_OFFSETS,
				       SIM_MAX_OFFSET_PCT);
	return 0;
}

/**
 * sim_load_workloads() - read DIR/kernels.gtbs
 * @dir: the directory.
 * @set: out: what it defines.
 * @file: out: the file's path, malloc()ed (also on error).
 *
 * Return: 0, or an exit status after a message.
 */
int sim_load_workloads(const char *dir, struct wl_set **set, char **file)
{
	char errbuf[WL_ERR_LEN];
	struct stat st;

	if (stat(dir, &st)) {
		sim_err("--workloads: %s: %s", dir, strerror(errno));
		return SIM_EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		sim_err("--workloads: %s: Not a directory", dir);
		return SIM_EXIT_USAGE;
	}
	if (asprintf(file, "%s/%s", dir, SIM_KERNELS_FILE) < 0) {
		*file = NULL;
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	if (wl_parse_file(*file, WL_PARSE_PROGRAMS, set, errbuf,
			  sizeof(errbuf))) {
		wl_errors(errbuf, sim_err_line);
		return SIM_EXIT_USAGE;
	}
	return 0;
}

/* --timeline PAIR[@OFFSET] into @tl, once the pairs are known. */
static int sim_parse_timeline(const struct sim_eval *ev, const char *arg,
			      struct sim_timeline *tl)
{
	char name[2 * WL_NAME_LEN + 16], *at;
	int pair;
	u64 v = 0;

	if (!arg) {
		pair = sim_find_pair(ev, SIM_DEFAULT_TIMELINE);
		tl->pair = pair < 0 ? 0 : pair;
		tl->offset = 0;
		return 0;
	}
	snprintf(name, sizeof(name), "%s", arg);
	at = strchr(name, '@');
	if (at) {
		*at++ = '\0';
		if (sim_parse_uint(at, 0, SIM_MAX_OFFSET_PCT, &v))
			return sim_usage_error(sim_eval_help, "--timeline: bad offset '%s' (0..%d)",
					       at, SIM_MAX_OFFSET_PCT);
	}
	pair = sim_find_pair(ev, name);
	if (pair < 0 || strlen(arg) >= sizeof(name))
		return sim_usage_error(sim_eval_help, "--timeline: no pair '%s' in %s (PAIR is FIRST+SECOND)",
				       name, ev->file);
	tl->pair = pair;
	tl->offset = v;
	return 0;
}

/* An error of the sweep: a message, and the exit status. */
static int sim_run_failed(const char *what, int ret, const char *why)
{
	sim_err("%s: %s", what, why ? why : strerror(-ret));
	return ret == -ENOMEM || ret == -EIO || ret == -ETIME ||
	       ret == -ENOENT || ret == -EACCES || ret == -EPERM ||
	       ret == -ENODEV || ret == -ECHILD ? SIM_EXIT_SYSTEM :
	       SIM_EXIT_USAGE;
}

/**
 * sim_eval_main() - the eval command
 * @argc: arguments, the command's name first.
 * @argv: the arguments.
 * @cli: which eval command.
 *
 * Return: the exit status: 0; 1 for a system or device error; 2 for a
 * usage error or a bad workload file.
 */
int sim_eval_main(int argc, char **argv, const struct sim_eval_cli *cli)
{
	static const struct option opts[] = {
		{ "workloads", required_argument, NULL, 'w' },
		{ "offsets", required_argument, NULL, 'o' },
		{ "policies", required_argument, NULL, 'P' },
		{ "format", required_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "sms", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "sjf-key", required_argument, NULL, 'k' },
		{ "timing-model", required_argument, NULL, 'M' },
		{ "block-times", required_argument, NULL, SIM_OPT_BLOCK_TIMES },
		{ "device", required_argument, NULL, 'd' },
		{ "preset", required_argument, NULL, SIM_OPT_PRESET },
		{ "plot", required_argument, NULL, 'p' },
		{ "timeline", required_argument, NULL, 't' },
		{ "predictor", required_argument, NULL, 'r' },
		{ "share-mode", required_argument, NULL, 'm' },
		{ "policy-plugin", required_argument, NULL, SIM_OPT_PLUGIN },
		{ "param", required_argument, NULL, SIM_OPT_PARAM },
		{ "preempt", required_argument, NULL, SIM_OPT_PREEMPT },
		{ "switch-bw", required_argument, NULL, SIM_OPT_SWITCH_BW },
		{ "idempotent", no_argument, NULL, SIM_OPT_IDEMPOTENT },
		{ "cap-period", required_argument, NULL, SIM_OPT_CAP_PERIOD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = SIM_DEFAULT_WORKLOADS, *plot = NULL;
	const char *timeline = NULL, *why, *policies = NULL;
	const char *plugins[SIM_MAX_PLUGINS];
	const struct gtbs_dev_preset *preset = NULL;
	bool sms_given = false, timing_given = false;
	unsigned int nr_plugins = 0;
	struct sim_timeline *tl = NULL;
	bool json = false, started = false;
	struct sim_eval *ev;
	char *file = NULL;
	int opt, ret = 0;
	unsigned int i;

	sim_cli = cli;
	ev = calloc(1, sizeof(*ev));
	if (!ev) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	ev->tool = cli->module ? "gputbs eval" : "gputbs-sim eval";
	ev->module = cli->module;
	ev->sjf_model = cli->module;
	sim_modes_default(&ev->modes);
	gtbs_config_default(&ev->cfg);
	ev->jobs = sim_jobs_default();
	if (cli->module)
		ev->jobs = 1;
	ev->nr_offsets = 3;
	ev->offsets[0] = 0;
	ev->offsets[1] = 25;
	ev->offsets[2] = 50;
	while (!ret && (opt = getopt_long(argc, argv,
					  cli->module ? "w:o:P:f:S:d:p:t:h" :
					  "w:o:P:f:j:s:S:k:M:d:p:t:r:m:h",
					  opts, NULL)) != -1) {
		/* long options of the other command are unknown here */
		if (cli->module && ((opt < 256 && strchr("jskrm", opt)) ||
				    opt == SIM_OPT_PLUGIN ||
				    opt == SIM_OPT_PARAM)) {
			for (i = 0; opts[i].val != opt; i++)
				;
			ret = sim_usage_error(sim_eval_help, "unrecognized option '--%s'%s",
					      opts[i].name, !cli->module ? "" :
					      opt >= 256 ?
					      " (the module's policies are modules, loaded with insmod; their parameters are in sysfs, policy_params/)" :
					      " (the module's sweep runs one job at a time with the module's SMs and SJF key)");
			break;
		}
		switch (opt) {
		case 'w':
			dir = optarg;
			break;
		case 'o':
			ret = sim_parse_offsets(ev, optarg);
			break;
		case 'P':
			/* resolved once the plug-ins are loaded */
			policies = optarg;
			break;
		case SIM_OPT_PLUGIN:
			ret = sim_add_plugin(sim_eval_help, optarg, plugins,
					     &nr_plugins);
			break;
		case SIM_OPT_PARAM:
			ret = sim_parse_param(sim_eval_help, optarg,
					      &ev->modes);
			break;
		case SIM_OPT_PREEMPT:
		case SIM_OPT_SWITCH_BW:
		case SIM_OPT_CAP_PERIOD:
			ret = sim_parse_preempt(sim_eval_help, opt, optarg,
						&ev->modes);
			break;
		case SIM_OPT_IDEMPOTENT:
			ev->modes.idempotent = true;
			break;
		case 'f':
			ret = sim_parse_format(sim_eval_help, optarg, &json);
			break;
		case 'j':
			ret = sim_parse_jobs(sim_eval_help, optarg, &ev->jobs);
			break;
		case 's':
			ret = sim_parse_sms(sim_eval_help, optarg, &ev->cfg);
			sms_given = true;
			break;
		case 'M':
			ret = sim_parse_timing(sim_eval_help, optarg, &ev->cfg);
			timing_given = true;
			break;
		case SIM_OPT_BLOCK_TIMES:
			ret = sim_parse_block_times(sim_eval_help, optarg,
						    &ev->cfg);
			break;
		case 'S':
			ret = sim_parse_seed(sim_eval_help, optarg, &ev->seed);
			break;
		case 'k':
			if (!strcmp(optarg, "model") ||
			    !strcmp(optarg, "measured"))
				ev->sjf_model = !strcmp(optarg, "model");
			else
				ret = sim_usage_error(sim_eval_help, "--sjf-key: unknown key '%s' (model or measured)",
						      optarg);
			break;
		case SIM_OPT_PRESET:
			if (cli->module) {
				ret = sim_usage_error(sim_eval_help, "%s",
						      "unrecognized option '--preset' (the module's device preset is its sysfs attribute device or its parameter device=)");
				break;
			}
			ret = sim_parse_preset(sim_eval_help, optarg, &preset);
			break;
		case 'd':
			/* gputbs-sim: a device preset; gputbs: the node */
			if (!cli->module)
				ret = sim_parse_preset(sim_eval_help, optarg,
						       &preset);
			else if (!*optarg)
				ret = sim_usage_error(sim_eval_help, "%s",
						      "--device: empty path");
			else
				cli->set_device(cli->priv, optarg);
			break;
		case 'p':
			if (!*optarg)
				ret = sim_usage_error(sim_eval_help, "%s",
						      "--plot: empty directory name");
			plot = optarg;
			break;
		case 't':
			timeline = optarg;
			break;
		case 'r':
			ret = sim_parse_pred_mode(sim_eval_help, optarg,
						  &ev->modes);
			break;
		case 'm':
			ret = sim_parse_share_mode(sim_eval_help, optarg,
						   &ev->modes);
			break;
		case 'h':
			sim_eval_help(stdout);
			ret = -1;
			break;
		default:
			sim_eval_help(stderr);
			ret = SIM_EXIT_USAGE;
		}
	}
	sim_apply_preset(&ev->cfg, preset, sms_given, timing_given);
	if (!cli->module)
		ev->preset = preset ? preset->name : "gtx480";
	if (!ret && optind < argc)
		ret = sim_usage_error(sim_eval_help, "unexpected argument '%s'",
				      argv[optind]);
	if (!ret && nr_plugins)
		ret = cli->load_plugins(plugins, nr_plugins);
	if (!ret)
		ret = policies ?
		      sim_parse_policies(sim_eval_help, "--policies", policies,
					 ev->policies, &ev->nr_policies) :
		      sim_all_policies(sim_eval_help, ev->policies,
				       &ev->nr_policies);
	if (!ret)
		ret = sim_check_params(sim_eval_help, &ev->modes);
	if (!ret && timeline && !plot && !json)
		ret = sim_usage_error(sim_eval_help, "%s",
				      "--timeline is drawn by --plot DIR (or recorded by --format json)");
	if (!ret)
		ret = sim_load_workloads(dir, &ev->set, &file);
	if (!ret) {
		ev->file = file;
		ev->seed_mix = sim_seed_mix(ev->seed);
		ret = sim_eval_prepare(ev, &why);
		if (ret) {
			sim_err("%s: %s", file, why);
			ret = ret == -ENOMEM ? SIM_EXIT_SYSTEM : SIM_EXIT_USAGE;
		}
	}
	if (!ret && (plot || timeline)) {
		tl = calloc(1, sizeof(*tl));
		if (!tl) {
			sim_err("out of memory");
			ret = SIM_EXIT_SYSTEM;
		}
	}
	if (!ret && tl)
		ret = sim_parse_timeline(ev, timeline, tl);
	if (!ret) {
		ret = cli->start(ev, cli->priv);
		started = true;
	}
	if (!ret) {
		ret = sim_eval_run(ev, &why);
		if (ret)
			ret = sim_run_failed(file, ret, why);
	}
	if (!ret && tl) {
		ret = sim_eval_timeline(ev, tl, &why);
		if (ret)
			ret = sim_run_failed(ev->pairs[tl->pair].name, ret,
					     why);
	}
	if (started && cli->finish)
		ret = cli->finish(ev, cli->priv, ret);
	if (!ret)
		ret = sim_emit(ev, tl, json, plot);
	sim_timeline_free(tl);
	sim_eval_free(ev);
	wl_free(ev->set);
	free(ev);
	free(file);
	return ret < 0 ? 0 : ret;
}

/**
 * sim_emit() - print a sweep's report and draw its figures
 * @ev: the sweep, run or loaded from a results file.
 * @tl: NULL, or its timeline (printed in the JSON when it has policies).
 * @json: JSON instead of the text tables.
 * @plot: NULL, or the directory for the figures (sim_plot()).
 *
 * Return: 0, or an exit status after a message.
 */
int sim_emit(const struct sim_eval *ev, const struct sim_timeline *tl,
	     bool json, const char *plot)
{
	if (json)
		sim_report_json(stdout, ev, tl);
	else
		sim_report_text(stdout, ev);
	if (fflush(stdout) || ferror(stdout)) {
		sim_err("standard output: %s", strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	return plot ? sim_plot(ev, tl, plot) : 0;
}
