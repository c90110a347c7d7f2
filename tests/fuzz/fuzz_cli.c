// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cli.c - what the host fuzz targets share: the input as a file, and
 * what the CLI's commands need from tools/gputbs/gputbs.c (fuzz_trace,
 * fuzz_timeline).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"
#include "input.h"

/**
 * fuzz_file() - the fuzzer's input as a file
 * @data: the bytes.
 * @size: how many.
 * @path: out: a name that opens it, "/proc/self/fd/N".
 * @len: size of @path.
 *
 * Return: the file's descriptor, to be closed; -1 if it cannot be made.
 */
int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* The CLI's error printer (tools/gputbs/gputbs.c), escaping as it does. */
void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	input_vprint(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The CLI's usage error (tools/gputbs/gputbs.c): the fuzzers pass valid options. */
int usage_error(const char *usage, const char *fmt, const char *arg)
{
	__builtin_trap();
}
