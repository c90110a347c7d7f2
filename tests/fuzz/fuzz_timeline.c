// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_timeline.c - libFuzzer target: `gputbs timeline` (tools/gputbs/timeline.c)
 * on arbitrary bytes as the recording: the text of trace-cmd report, of
 * /sys/kernel/tracing/trace or of perf script, parsed, summed up and
 * checked (--check --summary: nothing is written, gnuplot never runs).
 * Inputs with the magic of a trace-cmd .dat file are skipped: timeline.c
 * hands those to libtracecmd, whose parser is not this project's.
 * err_msg() and usage_error() are in fuzz_cli.c.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"
#include "eval/plot.h"

/* tools/lib/eval/plot.c: --summary never writes a script nor plots. */
int sim_run_gnuplot(const char *dir, const char *script)
{
	__builtin_trap();
}

void sim_gp_str(FILE *gp, const char *fmt, ...)
{
	__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char dat[] = "\027\010\104tracing";
	char path[64];
	char *argv[] = { "timeline", "--check", "--summary", path, NULL };
	int fd, ret;

	/* a trace-cmd .dat file goes to libtracecmd: its parser, not ours */
	if (size >= sizeof(dat) - 1 && !memcmp(data, dat, sizeof(dat) - 1))
		return 0;
	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	optind = 0;	/* getopt_long() state, reset per run */
	ret = cmd_timeline(4, argv);
	/* 0; 1 (--check found problems, out of memory); 2 (a bad recording) */
	if (ret < 0 || ret > 2)
		__builtin_trap();
	fflush(stdout);
	close(fd);
	return 0;
}
