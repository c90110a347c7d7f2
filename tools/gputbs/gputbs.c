// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs.c - command line tool of the gputbs thread block scheduler.
 *
 *   gputbs info [--device PATH] [--format text|json]
 *   gputbs run [--device PATH] [--format text|json] [--timeout SEC]
 *              [--list FILE] [--policy LIST] [--trace FILE] WORKLOAD...
 *   gputbs calibrate [--device PATH] [--format text|json]
 *              [--tolerance PCT] [--timeout SEC] FILE...
 *   gputbs predict --trace FILE [--slice-unaware] [--predictor MODE] [--sms N]
 *              [--format csv|json]
 *   gputbs top [--delay SEC] [--iterations N] [--batch]
 *   gputbs monitor [--format text|json] [--count N] [--timeout SEC]
 *   gputbs param [NAME=VALUE...]
 *   gputbs preempt [MODE] [--switch-bw N] [--budget CLASS=CYCLES...]
 *   gputbs tenant [list] [--json]
 *   gputbs tenant set (--cgroup PATH | --cgroup-id ID | --client ID)
 *              [--weight W] [--max PCT|none]
 *   gputbs policy list | load FILE.bpf.o | unload NAME
 *   gputbs timeline [--output DIR] [--no-plot] [--summary] [--check]
 *              [--title TEXT] TRACE
 *   gputbs eval [--device PATH] [--workloads DIR] [--offsets LIST]
 *              [--policies LIST] [--format text|json] [--seed N]
 *              [--plot DIR] [--timeline PAIR[@OFFSET]]
 *   gputbs import nsys [-o OUT.gtbs] [--device NAME] [--device-clock-khz N]
 *              [--program NAME] [--ncu NCU.csv] FILE.csv
 *   gputbs import ncu [-o OUT.gtbs] [--device NAME] [--device-clock-khz N]
 *              [--program NAME] NCU.csv
 *
 * Exit status: 0 success, 1 device or system error, 2 usage error or bad
 * workload or trace file.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../lib/input.h"
#include "monitor_fmt.h"
#include "gtbs.h"

#define POLICY_ATTR	"/sys/class/misc/gputbs/policy"
#define POLICY_PARAM	"/sys/module/gputbs/parameters/policy"

#ifndef GPUTBS_VERSION
#define GPUTBS_VERSION	"0.1"
#endif

static const char usage_main[] =
	"Usage: gputbs [--help] [--version] COMMAND [ARGS]\n"
	"\n"
	"Commands:\n"
	"  info       describe the emulated GPU of /dev/gputbs\n"
	"  run        run workloads and report STP, ANTT and StrictF,\n"
	"             under one or several scheduling policies\n"
	"  calibrate  run programs alone and compare with expected runtimes\n"
	"  eval       the paper's evaluation sweep of gputbs-sim on the module\n"
	"  predict    replay a block trace through the runtime predictor\n"
	"  top        live view of the SMs, grids, queue and predictions\n"
	"  monitor    print the scheduling events as they happen\n"
	"  param      show or set the parameters of the current policy\n"
	"  preempt    set how SMs preempt resident blocks (mode, budgets)\n"
	"  tenant     list the tenants (cgroups, files) or set a weight or cap\n"
	"  policy     list the policies; load or unload a BPF policy\n"
	"  timeline   plot a recording of the gputbs tracepoints per SM\n"
	"  import     convert a profile (nsys cuda_gpu_trace CSV, ncu --csv)\n"
	"             into a workload file\n"
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

void err_msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("gputbs: ", stderr);
	va_start(ap, fmt);
	input_vprint(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int usage_error(const char *usage, const char *fmt, const char *arg)
{
	err_msg(fmt, arg);
	fputs(usage, stderr);
	return EXIT_USAGE;
}

int device_error(const char *device, int err)
{
	const char *hint = "";

	if (err == -ENOENT || err == -ENODEV || err == -ENXIO)
		hint = " (is the module loaded?)";
	err_msg("%s: %s%s", device, gputbs_strerror(err), hint);
	return EXIT_DEVICE;
}

int parse_format(const char *s, enum report_format *out)
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
 * The device's attribute is a selector in the style of
 * /sys/block/X/queue/scheduler ("fifo [srtf] sjf"); a module without it
 * has only its parameter, which holds the policy name.
 */
void read_policy(char *buf, size_t len)
{
	char line[256], *s, *e;
	FILE *f = fopen(POLICY_ATTR, "re");

	if (!f)
		f = fopen(POLICY_PARAM, "re");

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

int open_info(const char *device, struct gputbs_info *info)
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

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "info", cmd_info },
		{ "run", cmd_run },
		{ "calibrate", cmd_calibrate },
		{ "eval", cmd_eval },
		{ "predict", cmd_predict },
		{ "top", cmd_top },
		{ "monitor", cmd_monitor },
		{ "param", cmd_param },
		{ "preempt", cmd_preempt },
		{ "tenant", cmd_tenant },
		{ "policy", cmd_policy },
		{ "timeline", cmd_timeline },
		{ "import", cmd_import },
	};
	static char name[32];
	unsigned int i;

	/* policy names for "gputbs eval": the simulator's registry */
	if (gtbs_policy_register_builtins())
		return 1;
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
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			/* getopt_long() prefixes its messages with argv[0]. */
			snprintf(name, sizeof(name), "gputbs %s", cmds[i].name);
			argv[1] = name;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	return usage_error(usage_main, "unknown command '%s'", argv[1]);
}
