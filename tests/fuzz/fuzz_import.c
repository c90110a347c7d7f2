// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_import.c - libFuzzer target: `gputbs import` (tools/gputbs/import/),
 * the nsys cuda_gpu_trace and ncu --csv readers, on arbitrary bytes.  The
 * first byte picks the command: even, "import ncu FILE"; odd, "import nsys
 * --ncu FILE tests/userland/import/good/nsys2023.csv" (the nsys report
 * fixed, the ncu one fuzzed) or, with bit 1 set too, "import nsys FILE".
 * err_msg() and usage_error() are in fuzz_cli.c.
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
	static char nsys[] = "tests/userland/import/good/nsys2023.csv";
	char path[64];
	char *ncu[] = { "import", "-o", "/dev/null", "ncu", path, NULL };
	char *both[] = { "import", "-o", "/dev/null", "--ncu", path, "nsys",
			 nsys, NULL };
	char *alone[] = { "import", "-o", "/dev/null", "nsys", path, NULL };
	int fd, ret, mode;

	if (!size)
		return 0;
	mode = data[0] & 3;
	fd = fuzz_file(data + 1, size - 1, path, sizeof(path));
	if (fd < 0)
		return 0;
	optind = 0;	/* getopt_long() state, reset per run */
	if (!(mode & 1))
		ret = cmd_import(5, ncu);
	else if (mode == 1)
		ret = cmd_import(7, both);
	else
		ret = cmd_import(5, alone);
	/* 0 (imported), 2 (a report error, reported), 1 (system error) */
	if (ret < 0 || ret > 2)
		__builtin_trap();
	fflush(stdout);
	close(fd);
	return 0;
}
