// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_workload.c - libFuzzer target: the workload file parser
 * (tools/lib/workload.c) on arbitrary bytes.
 *
 * Any input must give either a parsed set or an error with a message,
 * never a crash, a leak or undefined behaviour (ASan/UBSan).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[256] = "";
	struct wl_set *set = NULL;
	int fd, ret;

	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	ret = wl_parse_file(path, 0, &set, err, sizeof(err));
	if (ret && !err[0])
		__builtin_trap();	/* every error must say why */
	if (!ret)
		wl_free(set);
	close(fd);
	return 0;
}
