// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cli.c - what the CLI's commands need from tools/gputbs.c, for the
 * libFuzzer targets that run a whole command (fuzz_trace, fuzz_timeline).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"
#include "input.h"

/* The CLI's error printer (tools/gputbs.c), escaping as it does. */
void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	input_vprint(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The CLI's usage error (tools/gputbs.c): the fuzzers pass valid options. */
int usage_error(const char *usage, const char *fmt, const char *arg)
{
	__builtin_trap();
}
