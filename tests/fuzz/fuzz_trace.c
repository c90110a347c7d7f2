// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - libFuzzer target: `gputbs predict` (tools/gputbs/predict.c), the
 * block trace parser and its replay through the Simple Slicing predictor,
 * on arbitrary bytes.  err_msg() and usage_error() are in fuzz_cli.c.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	char *argv[] = { "predict", "--trace", path, "--format", "json", NULL };
	int fd, ret;

	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	optind = 0;	/* getopt_long() state, reset per run */
	ret = cmd_predict(5, argv);
	/* 0 (replayed), 2 (a trace error, reported), 1 (out of memory) */
	if (ret < 0 || ret > 2)
		__builtin_trap();
	fflush(stdout);
	close(fd);
	return 0;
}
