// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_monitor.c - "gputbs monitor": the scheduling events of the gputbs
 * generic netlink family, one per line, through libgputbs' monitor API.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "monitor_fmt.h"

static const char usage_monitor[] =
	"Usage: gputbs monitor [--format text|json] [--count N] [--timeout SEC]\n"
	"\n"
	"Print the scheduling events of the module's generic netlink family\n"
	"gputbs as they happen, one per line: grids submitted, started,\n"
	"preempted, completed and cancelled, policy changes, and events lost.\n"
	"\n"
	"  -f, --format FORMAT   text (default) or json: one JSON object per line\n"
	"  -n, --count N         exit after N events\n"
	"  -t, --timeout SEC     exit after SEC seconds\n"
	"  -h, --help            this help\n";

/* Seconds from now, CLOCK_MONOTONIC ns; 0 for none. */
static __u64 deadline_after(double sec)
{
	return sec > 0 ? gputbs_now_ns() + (__u64)(sec * 1e9) : 0;
}

static void print_event(FILE *f, enum report_format format,
			const struct gputbs_mon_event *ev)
{
	if (format == REPORT_JSON)
		mon_event_json(f, ev);
	else
		mon_event_text(f, ev);
	fflush(f);
}

int cmd_monitor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum report_format format = REPORT_TEXT;
	unsigned long long count = 0, seen = 0;
	struct gputbs_mon_event ev;
	struct gputbs_monitor *m;
	double timeout = 0;
	__u64 deadline;
	char *end;
	int c, ret;

	while ((c = getopt_long(argc, argv, "f:n:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_format(optarg, &format))
				return usage_error(usage_monitor,
						   "unknown format '%s'", optarg);
			break;
		case 'n':
			errno = 0;
			count = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-')
				return usage_error(usage_monitor,
						   "bad --count '%s'", optarg);
			break;
		case 't':
			timeout = strtod(optarg, &end);
			if (*end || !*optarg || !(timeout > 0) || timeout > 1e6)
				return usage_error(usage_monitor,
						   "bad --timeout '%s'", optarg);
			break;
		case 'h':
			fputs(usage_monitor, stdout);
			return 0;
		default:
			fputs(usage_monitor, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error(usage_monitor, "unexpected argument '%s'",
				   argv[optind]);
	ret = gputbs_monitor_open(GPUTBS_MONITOR_EVENTS, &m);
	if (ret)
		return monitor_error(ret);
	deadline = deadline_after(timeout);
	while (!count || seen < count) {
		struct pollfd pfd = { .fd = gputbs_monitor_fd(m),
				      .events = POLLIN };
		int ms = -1;

		ret = gputbs_monitor_recv(m, &ev, sizeof(ev));
		if (!ret) {
			print_event(stdout, format, &ev);
			seen++;
			continue;
		}
		if (ret == -ENOBUFS) {
			mon_overflow(stdout, format);
			continue;
		}
		if (ret != -EAGAIN) {
			err_msg("receiving events: %s", gputbs_strerror(ret));
			gputbs_monitor_close(m);
			return EXIT_DEVICE;
		}
		if (deadline) {
			__u64 now = gputbs_now_ns();

			if (now >= deadline)
				break;
			ms = (int)((deadline - now + 999999) / 1000000);
		}
		if (poll(&pfd, 1, ms) < 0 && errno != EINTR) {
			err_msg("poll: %s", strerror(errno));
			gputbs_monitor_close(m);
			return EXIT_DEVICE;
		}
	}
	gputbs_monitor_close(m);
	return 0;
}
